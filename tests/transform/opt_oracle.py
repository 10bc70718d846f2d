"""Run a pipeline on IR text through opt-19 and through llvmpy_mid; compare the printed modules
(the ``; ModuleID`` line aside).  Shared by the adce/bdce/lowering pass tests."""

from __future__ import annotations

import subprocess
from pathlib import Path

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from oracles import require_tools


def body(text: str) -> str:
    """A printed module without its ``; ModuleID`` and ``source_filename`` lines."""
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename")))


def opt19_text(text: str, pipeline: str, *options: str) -> str:
    """``opt-19 -passes=pipeline -S`` of ``text`` (the test fails when opt-19 rejects it)."""
    require_tools("opt-19")
    r = subprocess.run(
        ["opt-19", "-passes=" + pipeline, *options, "-S", "-"], input=text, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    return r.stdout


def ours_text(text: str, pipeline: str, options: dict[str, object] | None = None) -> str:
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, pipeline, options=options)  # type: ignore[arg-type]
    llvmpy_mid.verify_module(module)
    return print_module(module)


def assert_same_as_opt(text: str, pipeline: str, options: dict[str, object] | None = None) -> str:
    """Our output of ``pipeline`` on ``text`` equals opt-19's; returns it."""
    cli = ["-%s=%s" % (k, str(v).lower() if isinstance(v, bool) else v) for k, v in (options or {}).items()]
    expected = opt19_text(text, pipeline, *cli)
    got = ours_text(text, pipeline, options)
    assert body(got) == body(expected)
    return got


def assert_file_same_as_opt(path: Path, pipeline: str) -> None:
    assert_same_as_opt(path.read_text(), pipeline)
