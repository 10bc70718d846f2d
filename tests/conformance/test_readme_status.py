"""The README's status section is what ``readme_status.py`` generates from the registry and the
list of passing conformance tests (regenerate: ``python tests/conformance/readme_status.py --write``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import readme_status  # noqa: E402
import runner  # noqa: E402


@pytest.mark.skipif(not runner.TEST_ROOT.is_dir(), reason="LLVM 19.1.7 tests not found (run scripts/fetch-llvm-tests.sh)")
def test_readme_status_section_is_current() -> None:
    section = readme_status.readme_section(readme_status.README.read_text())
    assert section is not None, "README.md lacks the generated status markers"
    assert section == readme_status.render(), "README status is stale: run readme_status.py --write"


@pytest.mark.skipif(not runner.TEST_ROOT.is_dir(), reason="LLVM 19.1.7 tests not found (run scripts/fetch-llvm-tests.sh)")
def test_every_registered_name_is_in_the_table() -> None:
    from llvmpy_mid.passes.registry import REGISTRY

    text = readme_status.render()
    for e in REGISTRY.entries():
        assert "| `%s" % e.name in text
    assert "| `mergefunc` | transform | yes |" in text  # the seed catalogue marks what exists
    assert "| `gvn` | transform | yes |" in text
    assert "| `licm` | transform | yes |" in text
    assert "| `always-inline` | transform | yes |" in text
    assert "| `loop-unroll` | transform | not yet |" in text


@pytest.mark.skipif(not runner.TEST_ROOT.is_dir(), reason="LLVM 19.1.7 tests not found (run scripts/fetch-llvm-tests.sh)")
def test_passes_used_reads_pipelines_and_legacy_flags() -> None:
    used = readme_status.passes_used("Transforms/InstNamer/basic.ll")
    assert "instnamer" in used
