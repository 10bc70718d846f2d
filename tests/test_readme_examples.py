"""Every code block of README.md runs as written.

Each ```python block is executed in a fresh namespace, in a temporary folder. In each ```sh
block, the commands that start with ``llvmpy-opt`` or ``python -m llvmpy_mid`` are run with bash
in that folder and must exit 0 without a traceback; any other command in a block (installing,
running the whole test suite) is refused unless the block is marked
``<!-- readme-test: skip (why) -->`` on the line before it. The fixture ``prog.ll`` in the folder
is a copy of the shipped example ``sum_pairs.ll`` (the README says so where it first uses it).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from llvmpy_mid import examples

README = Path(__file__).resolve().parents[1] / "README.md"
SKIP_MARK = "<!-- readme-test: skip"
RUN_PREFIXES = ("llvmpy-opt ", "python -m llvmpy_mid")

_FENCE = re.compile(r"^```(\w+)\n(.*?)^```\n", re.M | re.S)


def _blocks(lang: str) -> list[tuple[int, str, bool]]:
    """(line number, code, skipped) of each ``lang`` block of the README."""
    text = README.read_text(encoding="utf-8")
    out = []
    for m in _FENCE.finditer(text):
        if m.group(1) != lang:
            continue
        line = text.count("\n", 0, m.start()) + 1
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        out.append((line, m.group(2), before.startswith(SKIP_MARK)))
    return out


PY_BLOCKS = _blocks("python")
SH_BLOCKS = _blocks("sh")


@pytest.fixture()
def workdir(tmp_path: Path) -> Path:
    shutil.copy(examples.path("sum_pairs.ll"), tmp_path / "prog.ll")
    return tmp_path


def test_readme_has_blocks() -> None:
    assert len(PY_BLOCKS) >= 5 and len(SH_BLOCKS) >= 3
    assert any(skipped for _, _, skipped in SH_BLOCKS)  # the install block, marked


@pytest.mark.parametrize("line, code, skipped", PY_BLOCKS, ids=["line%d" % b[0] for b in PY_BLOCKS])
def test_python_block_runs(line: int, code: str, skipped: bool, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if skipped:
        pytest.skip("marked in the README")
    monkeypatch.chdir(workdir)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        exec(compile(code, "README.md:%d" % line, "exec"), {"__name__": "__readme__"})


def _commands(code: str) -> list[str]:
    """The block's commands (``\\``-continued lines joined), each without its trailing comment."""
    joined = re.sub(r"\\\n\s*", " ", code)
    cmds = []
    for raw in joined.splitlines():
        cmd = raw.strip()
        if cmd and not cmd.startswith("#"):
            cmds.append(re.sub(r"\s+#[^'\"]*$", "", cmd))
    return cmds


@pytest.mark.parametrize("line, code, skipped", SH_BLOCKS, ids=["line%d" % b[0] for b in SH_BLOCKS])
def test_shell_block_runs(line: int, code: str, skipped: bool, workdir: Path) -> None:
    if skipped:
        pytest.skip("marked in the README")
    if shutil.which("llvmpy-opt") is None:
        pytest.skip("llvmpy-opt is not installed (pip install -e .)")
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    for cmd in _commands(code):
        assert cmd.startswith(RUN_PREFIXES), (
            "README.md:%d: '%s' is not an llvmpy-opt / python -m llvmpy_mid command; mark the block with %s ...) -->"
            % (line, cmd, SKIP_MARK)
        )
        run = subprocess.run(
            ["bash", "-c", cmd.replace("python -m", '"%s" -m' % sys.executable)],
            cwd=workdir, capture_output=True, text=True, timeout=120, env=env,
        )
        assert run.returncode == 0, "README.md:%d: %s\n%s" % (line, cmd, run.stderr)
        assert "Traceback" not in run.stderr, run.stderr
