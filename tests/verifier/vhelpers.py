"""Shared helpers of the verifier tests: parse without verifying, our diagnostics, opt-19's.

Test modules import it as a sibling (``sys.path`` gets this folder first). What it gives:

* ``parse`` (``verify=False``), ``findings`` / ``ours`` / ``texts`` / ``messages`` / ``only`` / ``assert_finding``:
  our findings;
* ``opt_text``: opt-19's diagnostics for a text, run live on a temporary file, without its last
  "input module is broken!" line ("" when opt-19 accepts it); ``opt_filtered`` keeps whatever opt-19
  prints but that line (optionally its debug-info warnings too), whatever its exit status;
* ``check`` (ours and opt-19's text equal an expected text), ``same_as_opt`` (ours equals opt-19's,
  skipped without opt-19);
* ``function`` / ``block`` / ``inst`` / ``arg`` / ``terminator``: look-ups for tests that break IR
  through the API.

It does not cache opt-19's results (``vcorpus`` does that for the conformance files), nor hold any
test data.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ir.verifier import Diagnostic, diagnostics_text, module_diagnostics
from oracles import LLVM_TEST_ROOT  # noqa: E402

OPT = shutil.which("opt-19")
HAVE_OPT = OPT is not None
CONFORMANCE = LLVM_TEST_ROOT / "Verifier"
BROKEN = "error: input module is broken!\n"


# --- ours ------------------------------------------------------------------------------------------


def parse(text: str, ctx: Context | None = None, name: str = "<string>") -> Module:
    """``text`` parsed without the verifier."""
    return llvmpy_mid.parse_assembly(text, ctx, name, verify=False)


def ours(text: str) -> str:
    """Our whole diagnostics text for ``text``."""
    return diagnostics_text(module_diagnostics(parse(text)))


def findings(text: str) -> list[Diagnostic]:
    """Our findings for ``text``."""
    return module_diagnostics(parse(text))


def texts(m: Module) -> str:
    """Our whole diagnostics text for ``m``."""
    return diagnostics_text(module_diagnostics(m))


def messages(m: Module) -> list[str]:
    return [d.message for d in module_diagnostics(m)]


def only(m: Module) -> Diagnostic:
    """The one finding for ``m`` (fails if there are none or several)."""
    found = module_diagnostics(m)
    assert len(found) == 1, [str(d) for d in found]
    return found[0]


def assert_finding(m: Module, message: str, detail: str, function: str | None = None) -> None:
    """``m`` has one finding: ``message``, then ``detail`` (in ``function`` when given)."""
    d = only(m)
    assert d.message == message
    assert d.detail == detail
    if function is not None:
        assert d.function == function
    assert d.text == message + "\n" + detail


# --- opt-19 ----------------------------------------------------------------------------------------


def run_opt(text: str) -> tuple[int, str, str]:
    """(exit status, stderr, the file's path) of ``opt-19 -passes=verify`` on ``text``."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.ll"
        path.write_text(text)
        code, err = run_opt_on(path)
    return code, err, str(path)


def run_opt_on(path: Path) -> tuple[int, str]:
    """(exit status, stderr) of ``opt-19 -passes=verify`` on the file ``path``."""
    proc = subprocess.run(
        ["opt-19", "-passes=verify", "-disable-output", str(path)], capture_output=True, text=True, timeout=120
    )
    return proc.returncode, proc.stderr


def opt_text(text: str) -> str:
    """opt-19's diagnostics for ``text`` without its last "input module is broken!" line
    ("" when it accepts ``text``)."""
    code, err, path = run_opt(text)
    if code == 0:
        return ""
    tail = "opt-19: %s: %s" % (path, BROKEN)
    assert err.endswith(tail), err
    return err[: -len(tail)]


def opt_text_or_skip(text: str) -> str:
    if not HAVE_OPT:
        pytest.skip("opt-19 not installed")
    return opt_text(text)


def opt_filtered(source: str | Path, debug_info: bool = False) -> str:
    """All opt-19 prints for ``source`` (a text or a file) but its "input module is broken!" line;
    with ``debug_info`` also without its "ignoring invalid debug info" warnings and from
    "LLVM ERROR:" on. Whatever its exit status."""
    err = run_opt_on(source)[1] if isinstance(source, Path) else run_opt(source)[1]
    if debug_info and "LLVM ERROR:" in err:
        err = err[: err.index("LLVM ERROR:")]
    return "".join(
        line
        for line in err.splitlines(keepends=True)
        if not line.endswith(BROKEN)
        and not (debug_info and line.startswith("warning: ignoring invalid debug info"))
    )


def check(text: str, expected: str) -> list[Diagnostic]:
    """Our findings for ``text`` print as ``expected``; so do opt-19's when it is installed."""
    found = module_diagnostics(parse(text))
    assert diagnostics_text(found) == expected
    if HAVE_OPT:
        assert opt_text(text) == expected
    return found


def same_as_opt(text: str) -> list[Diagnostic]:
    """Our findings for ``text`` print as opt-19's (the test is skipped without opt-19)."""
    found = module_diagnostics(parse(text))
    assert diagnostics_text(found) == opt_text_or_skip(text)
    return found


# --- look-ups --------------------------------------------------------------------------------------


def function(m: Module, name: str = "f") -> Function:
    found = m.get_function(name)
    assert found is not None, name
    return found


def block(f: Function, name: str) -> BasicBlock:
    for bb in f.blocks:
        if bb.name == name:
            return bb
    raise KeyError(name)


def _in(where: Module | Function) -> Function:
    return where if isinstance(where, Function) else function(where)


def inst(where: Module | Function, name: str) -> Instruction:
    """The instruction ``%name`` of a function (of ``@f`` when given a module)."""
    for bb in _in(where).blocks:
        for i in bb.instructions:
            if i.name == name:
                return i
    raise KeyError(name)


def arg(where: Module | Function, name: str) -> Value:
    """The argument ``%name`` of a function (of ``@f`` when given a module)."""
    for a in _in(where).args:
        if a.name == name:
            return a
    raise KeyError(name)


def terminator(f: Function, name: str) -> Instruction:
    term = block(f, name).terminator
    assert term is not None
    return term
