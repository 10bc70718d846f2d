"""The utility passes (verify, print, instnamer, instcount, strip-dead-prototypes)
against opt-19: expected texts below were produced by opt-19 (19.1.7); the live
comparisons skip when opt-19 is missing."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from llvmpy_mid.analysis.instcount import InstCountPass, format_stats
from llvmpy_mid.passes.statistics import collecting
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.errors import VerifierError
from llvmpy_mid.ipo.strip_dead_prototypes import StripDeadPrototypesPass
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes import ModulePassManager, ModuleToFunctionPassAdaptor, Pass, PreservedAnalyses, make_analysis_managers
from llvmpy_mid.passes.builtin_passes import PrintFunctionPass, PrintModulePass, VerifierPass
from llvmpy_mid.transform.utils.instnamer import InstNamerPass
from oracles import LLVM_TEST_ROOT  # noqa: E402

SRC = """\
@g = external global i32
@h = global i32 0
@unused = external global i64
declare void @used()
declare void @dead()
declare i32 @dead2(i32)
define i32 @f(i32 %0, i32 %x) {
  call void @used()
  %2 = add i32 %0, %x
  %v = load i32, ptr @g
  br label %3
3:
  %4 = mul i32 %2, %v
  store i32 %4, ptr @h
  ret i32 %4
}
define void @e() {
entry:
  ret void
}
"""

OPT = shutil.which("opt-19")
CONFORMANCE = LLVM_TEST_ROOT / "Transforms"


def _run(module: Module, p: Pass[Module]) -> PreservedAnalyses:
    mam, _fam = make_analysis_managers()
    return ModulePassManager([p]).run(module, mam)


def _body(text: str) -> str:
    return text.split("\n@g", 1)[1]


def test_instnamer_matches_opt() -> None:
    m = parse_assembly(SRC, name="a.ll")
    pa = _run(m, ModuleToFunctionPassAdaptor(InstNamerPass()))
    # From `opt-19 -S -passes=instnamer a.ll`: one symbol table suffix counter
    # per function, so the second "i" after "bb1" becomes "i2".
    expected_fn = """\
define i32 @f(i32 %arg, i32 %x) {
bb:
  call void @used()
  %i = add i32 %arg, %x
  %v = load i32, ptr @g, align 4
  br label %bb1

bb1:                                              ; preds = %bb
  %i2 = mul i32 %i, %v
  store i32 %i2, ptr @h, align 4
  ret i32 %i2
}

define void @e() {
entry:
  ret void
}
"""
    assert print_module(m).endswith(expected_fn)
    assert pa.are_all_preserved()


def test_strip_dead_prototypes_matches_opt() -> None:
    m = parse_assembly(SRC, name="a.ll")
    p = StripDeadPrototypesPass()
    with collecting() as stats:
        pa = _run(m, p)
    text = print_module(m)
    # From `opt-19 -S -passes=strip-dead-prototypes a.ll`: @unused, @dead, @dead2 gone.
    assert text.startswith(
        '; ModuleID = \'a.ll\'\nsource_filename = "a.ll"\n\n'
        "@g = external global i32\n@h = global i32 0\n\ndeclare void @used()\n\ndefine i32 @f("
    )
    assert stats.as_dict() == {"strip-dead-prototypes.NumDeadPrototypes": 2}
    assert not pa.are_all_preserved()


def test_strip_dead_prototypes_variables_only_is_not_a_change() -> None:
    m = parse_assembly("@u = external global i32\ndefine void @f() {\n  ret void\n}\n")
    p = StripDeadPrototypesPass()
    with collecting() as stats:
        pa = _run(m, p)
    assert [g.name for g in m.globals] == []
    assert pa.are_all_preserved()  # LLVM only counts removed functions as a change
    assert stats.as_dict() == {}


def test_print_module_and_function_write_what_opt_writes() -> None:
    buf = io.StringIO()
    m = parse_assembly(SRC, name="a.ll")
    assert _run(m, PrintModulePass(buf)).are_all_preserved()
    assert buf.getvalue() == print_module(m)  # opt-19 -passes=print == opt-19 -S (on stderr)
    buf = io.StringIO()
    _run(m, ModuleToFunctionPassAdaptor(PrintFunctionPass(buf)))
    # From `opt-19 -passes='function(print)' -disable-output a.ll` (stderr): a newline then each definition.
    assert buf.getvalue().endswith("}\n\ndefine void @e() {\nentry:\n  ret void\n}\n")
    assert buf.getvalue().startswith("\ndefine i32 @f(i32 %0, i32 %x) {\n  call void @used()\n")


def test_print_defaults_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    m = parse_assembly("define void @e() {\n  ret void\n}\n")
    _run(m, PrintModulePass())
    captured = capsys.readouterr()
    assert captured.out == "" and "define void @e()" in captured.err


def test_verifier_pass() -> None:
    good = parse_assembly(SRC)
    assert _run(good, VerifierPass()).are_all_preserved()
    bad = parse_assembly(
        "define i32 @f() {\n  %a = add i32 %b, 1\n  %b = add i32 %a, 1\n  ret i32 %a\n}\n", verify=False
    )
    with pytest.raises(VerifierError) as info:
        _run(bad, VerifierPass())
    # opt-19 -disable-verify -passes=verify prints this, then "Broken module found, compilation aborted!"
    assert info.value.llvm_text == "Instruction does not dominate all uses!\n  %b = add i32 %a, 1\n  %a = add i32 %b, 1\n"


def test_instcount_statistics_and_report() -> None:
    m = parse_assembly(SRC)
    p = InstCountPass()
    with collecting() as stats:
        assert _run(m, ModuleToFunctionPassAdaptor(p)).are_all_preserved()
    assert {k.removeprefix("instcount."): v for k, v in stats.as_dict().items()} == {
        "TotalFuncs": 2, "TotalBlocks": 3, "TotalInsts": 8, "NumCallInst": 1, "NumAddInst": 1,
        "NumLoadInst": 1, "NumBrInst": 1, "NumMulInst": 1, "NumStoreInst": 1, "NumRetInst": 2,
    }  # fmt: skip
    # LLVM's PrintStatistics layout (sorted by debug type, then stat name).
    rule = "===" + "-" * 73 + "===\n"
    assert stats.report() == (
        rule + "                          ... Statistics Collected ...\n" + rule + "\n"
        "1 instcount - Number of Add insts\n"
        "1 instcount - Number of Br insts\n"
        "1 instcount - Number of Call insts\n"
        "1 instcount - Number of Load insts\n"
        "1 instcount - Number of Mul insts\n"
        "2 instcount - Number of Ret insts\n"
        "1 instcount - Number of Store insts\n"
        "3 instcount - Number of basic blocks\n"
        "2 instcount - Number of non-external functions\n"
        "8 instcount - Number of instructions (of all types)\n\n"
    )
    assert format_stats({}) == ""


def _live_files() -> list[Path]:
    files = [CONFORMANCE / "InstNamer/basic.ll"]
    files += sorted((CONFORMANCE / "StripDeadPrototypes").glob("*.ll"))
    files += sorted((CONFORMANCE / "Mem2Reg").glob("*.ll"))[:6]
    return [f for f in files if f.exists()]


@pytest.mark.skipif(OPT is None, reason="opt-19 not installed")
@pytest.mark.parametrize("path", _live_files(), ids=lambda p: p.name)
def test_live_against_opt(path: Path) -> None:
    from llvmpy_mid.asm import parse_file

    try:
        parse_file(path)
    except Exception:
        pytest.skip("input not accepted by the parser/verifier")
    cases: list[tuple[str, Pass[Module]]] = [
        ("instnamer", ModuleToFunctionPassAdaptor(InstNamerPass())),
        ("strip-dead-prototypes", StripDeadPrototypesPass()),
    ]
    for pipeline, p in cases:
        m = parse_file(path)
        _run(m, p)
        ref = subprocess.run([str(OPT), "-S", "-passes=" + pipeline, str(path)], capture_output=True, text=True)
        assert print_module(m) == ref.stdout, pipeline
    for pipeline in ("print", "function(print)"):
        buf = io.StringIO()
        m = parse_file(path)
        pp: Pass[Module] = (
            PrintModulePass(buf) if pipeline == "print" else ModuleToFunctionPassAdaptor(PrintFunctionPass(buf))
        )
        _run(m, pp)
        ref = subprocess.run(
            [str(OPT), "-disable-output", "-passes=" + pipeline, str(path)], capture_output=True, text=True
        )
        assert buf.getvalue() == ref.stderr, pipeline
