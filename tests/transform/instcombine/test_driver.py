"""The InstCombine driver against opt-19: worklist order, dead edges and blocks, sinking,
``LowerDbgDeclare``, the fixpoint error, parameters and options; opt's ``-data-layout``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from llvmpy_mid.cli import main
from oracles import require_tools


def opt19(args: list[str], text: str) -> subprocess.CompletedProcess[str]:
    require_tools("opt-19")
    return subprocess.run(["opt-19", *args, "-"], input=text, capture_output=True, text=True)


def ours(args: list[str], text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    src = tmp_path / "in.ll"
    src.write_text(text)
    capsys.readouterr()
    code = main([*args, str(src)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename")))


def assert_like_opt(text: str, args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Same exit code and (for success) the same printed module as opt-19."""
    ref = opt19(args, text)
    code, out, err = ours(args, text, tmp_path, capsys)
    assert code == ref.returncode, err
    if ref.returncode == 0:
        assert body(out) == body(ref.stdout)
    return out


# --- opt's -data-layout ---------------------------------------------------------------------------

LAYOUT_IR = 'target datalayout = "e-p:64:64"\ndefine i32 @f() {\n  ret i32 0\n}\n'


@pytest.mark.parametrize(
    "extra",
    [["-data-layout=E-p:32:32"], ["-data-layout", "e-n32"], ["-data-layout="], ["-data-layout=e", "-mtriple=x86_64-unknown-linux-gnu"]],
)
def test_data_layout_overrides_the_module(extra: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_like_opt(LAYOUT_IR, ["-S", *extra], tmp_path, capsys)
    assert_like_opt(LAYOUT_IR.split("\n", 1)[1], ["-S", *extra], tmp_path, capsys)


def test_bad_data_layout_is_reported_as_opt_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = opt19(["-S", "-data-layout=Q"], LAYOUT_IR)
    code, out, err = ours(["-S", "-data-layout=Q"], LAYOUT_IR, tmp_path, capsys)
    assert code == ref.returncode == 1 and out == ""
    assert err == ref.stderr.replace("opt-19", "llvmpy-opt")


# --- options --------------------------------------------------------------------------------------


def test_instcombine_options_are_known_with_llvm_defaults() -> None:
    from llvmpy_mid.transform.instcombine.combiner import option

    assert option("instcombine-code-sinking") is True
    assert option("instcombine-max-sink-users") == 32
    assert option("instcombine-maxarray-size") == 1024
    assert option("instcombine-lower-dbg-declare") == 1
    assert option("instcombine-max-num-phis") == 512
    assert option("disable-i2p-p2i-opt") is False
    assert option("aggressive-instcombine-max-scan-instrs") == 64
    assert option("strncmp-inline-threshold") == 3


@pytest.mark.parametrize(
    "flag",
    ["-instcombine-code-sinking=0", "-instcombine-max-sink-users=3", "-instcombine-lower-dbg-declare=0", "-disable-i2p-p2i-opt",
     "-instcombine-max-num-phis=4", "-instcombine-maxarray-size=8"],
)  # fmt: skip
def test_options_accepted_like_opt(flag: str, driver_only: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_like_opt(LAYOUT_IR, ["-S", "-passes=instcombine", flag], tmp_path, capsys)


def test_bad_option_value_like_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = opt19(["-S", "-instcombine-max-sink-users=x"], LAYOUT_IR)
    code, _out, err = ours(["-S", "-instcombine-max-sink-users=x"], LAYOUT_IR, tmp_path, capsys)
    assert code == ref.returncode == 1
    assert "'x' value invalid for uint argument!" in err


# --- driver behaviour (the fold families are switched off: only the driver acts) -----------------


@pytest.fixture
def driver_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from llvmpy_mid.transform.instcombine import driver

    for opcode in list(driver.VISITORS):
        monkeypatch.setitem(driver.VISITORS, opcode, lambda ic, i: None)


SINKING = """declare void @use(i32)
define i32 @sink(i32 %a, i32 %b, i1 %c) {
entry:
  %x = udiv i32 %a, %b
  %y = load i32, ptr null
  br i1 %c, label %t, label %f
t:
  call void @use(i32 %x)
  ret i32 %x
f:
  ret i32 0
}
define i32 @no_sink_load_past_store(ptr %p, i1 %c) {
entry:
  %v = load i32, ptr %p
  store i32 0, ptr %p
  br i1 %c, label %t, label %f
t:
  ret i32 %v
f:
  ret i32 0
}
define i32 @sink_load(ptr %p, i1 %c) {
entry:
  %v = load i32, ptr %p
  br i1 %c, label %t, label %f
t:
  ret i32 %v
f:
  ret i32 0
}
define i32 @two_blocks(i32 %a, i32 %b, i1 %c) {
entry:
  %x = udiv i32 %a, %b
  br i1 %c, label %t, label %f
t:
  ret i32 %x
f:
  ret i32 %x
}
define i32 @to_phi_edge(i32 %a, i32 %b, i1 %c) {
entry:
  %x = udiv i32 %a, %b
  br i1 %c, label %t, label %j
t:
  br label %j
j:
  %p = phi i32 [ %x, %t ], [ 0, %entry ]
  ret i32 %p
}
"""

DEAD_BLOCKS = """declare void @use(i32)
define i32 @deadblocks(i32 %a) {
entry:
  br i1 true, label %t, label %f
t:
  br label %m
f:
  %z = mul i32 %a, %a
  call void @use(i32 %z)
  br label %m
m:
  %p = phi i32 [ 1, %t ], [ %z, %f ]
  ret i32 %p
}
define i32 @deadloop(i32 %a) {
entry:
  br i1 false, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %n, %loop ]
  %n = add i32 %i, %a
  %cc = icmp eq i32 %n, 10
  br i1 %cc, label %exit, label %loop
exit:
  %r = phi i32 [ 0, %entry ], [ %n, %loop ]
  ret i32 %r
}
define void @sw(i32 %a) {
entry:
  switch i32 3, label %d [ i32 3, label %x
                           i32 4, label %y ]
x:
  ret void
y:
  call void @use(i32 %a)
  ret void
d:
  ret void
}
define void @undef_branch(i32 %a) {
entry:
  br i1 undef, label %x, label %y
x:
  call void @use(i32 %a)
  ret void
y:
  call void @use(i32 %a)
  ret void
}
"""


@pytest.mark.parametrize("text", [SINKING, DEAD_BLOCKS], ids=["sinking", "dead-blocks"])
def test_driver_like_opt(text: str, driver_only: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_like_opt(text, ["-S", "-passes=instcombine"], tmp_path, capsys)


def test_code_sinking_option(driver_only: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = assert_like_opt(SINKING, ["-S", "-passes=instcombine", "-instcombine-code-sinking=0"], tmp_path, capsys)
    assert "entry:\n  %x = udiv" in out
    assert_like_opt(SINKING, ["-S", "-passes=instcombine", "-instcombine-max-sink-users=0"], tmp_path, capsys)


DBG = """define i32 @f(i32 %a, i1 %c) !dbg !4 {
entry:
  %x.addr = alloca i32, align 4
  %arr = alloca [2 x i32], align 4
    #dbg_declare(ptr %x.addr, !9, !DIExpression(), !11)
    #dbg_declare(ptr %arr, !12, !DIExpression(), !11)
  store i32 %a, ptr %x.addr, align 4
  call void @g(ptr nonnull %x.addr)
  %v = load i32, ptr %x.addr, align 4
  %s = udiv i32 %v, %a, !dbg !11
    #dbg_value(i32 %s, !13, !DIExpression(), !11)
  br i1 %c, label %t, label %e
t:
  ret i32 %s
e:
  ret i32 0
}
declare void @g(ptr)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{!7, !7}
!7 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!8 = !DICompositeType(tag: DW_TAG_array_type, baseType: !7, size: 64, elements: !{})
!9 = !DILocalVariable(name: "x", arg: 1, scope: !4, file: !1, line: 1, type: !7)
!11 = !DILocation(line: 1, scope: !4)
!12 = !DILocalVariable(name: "arr", scope: !4, file: !1, line: 2, type: !8)
!13 = !DILocalVariable(name: "s", scope: !4, file: !1, line: 2, type: !7)
"""


@pytest.mark.parametrize("flag", [[], ["-instcombine-lower-dbg-declare=0"]])
def test_lower_dbg_declare_and_sunk_records(
    flag: list[str], driver_only: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = assert_like_opt(DBG, ["-S", "-passes=instcombine", *flag], tmp_path, capsys)
    assert ("#dbg_declare(ptr %x.addr" in out) == bool(flag)


def test_fixpoint_error_like_opt(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A fold that changes something on every visit: opt-19's fatal error and exit code; the
    library raises FixpointNotReached; no-verify-fixpoint stops quietly."""
    from llvmpy_mid.asm import parse_assembly
    from llvmpy_mid.passes import run_passes
    from llvmpy_mid.transform.instcombine import driver

    def churn(ic: object, i: object) -> object:
        """Renames its instruction once per iteration: every iteration changes the IR."""
        from llvmpy_mid.ir.instruction import Instruction
        from llvmpy_mid.transform.instcombine.combiner import InstCombiner

        assert isinstance(i, Instruction) and isinstance(ic, InstCombiner)
        if "churn" in ic.extra:
            return None
        ic.extra["churn"] = True
        i.name = "v" if i.name != "v" else "w"
        return i

    for opcode in list(driver.VISITORS):
        monkeypatch.setitem(driver.VISITORS, opcode, lambda ic, i: None)
    monkeypatch.setitem(driver.VISITORS, "add", churn)
    text = "define i32 @f(i32 %a) {\n  %x = add i32 %a, 1\n  ret i32 %x\n}\n"
    code, out, err = ours(["-S", "-passes=instcombine"], text, tmp_path, capsys)
    assert (code, out, err) == (1, "", "LLVM ERROR: Instruction Combining did not reach a fixpoint after 1 iterations\n")
    code, out, err = ours(["-S", "-passes=instcombine<max-iterations=3>"], text, tmp_path, capsys)
    assert (code, err) == (1, "LLVM ERROR: Instruction Combining did not reach a fixpoint after 3 iterations\n")
    code, out, err = ours(["-S", "-passes=instcombine<no-verify-fixpoint>"], text, tmp_path, capsys)
    assert code == 0 and err == ""
    with pytest.raises(driver.FixpointNotReached):
        run_passes(parse_assembly(text), "instcombine")


def test_fixpoint_error_message_is_opt19s() -> None:
    """The exact words and exit code opt-19 uses when one iteration is not enough."""
    from oracles import csmith_cache_dir

    cache = csmith_cache_dir()
    if cache is None:
        pytest.skip("no csmith corpus")
    require_tools("opt-19")
    for path in sorted(cache.glob("w0/s1*.O0.ll"))[:5]:
        r = subprocess.run(["opt-19", "-passes=mem2reg,instcombine", "-disable-output", str(path)], capture_output=True, text=True)
        if r.returncode:
            assert r.returncode == 1
            assert r.stderr == "LLVM ERROR: Instruction Combining did not reach a fixpoint after 1 iterations\n"
            return
    pytest.skip("no csmith program needing a second iteration")


# --- the visitors of instruction_combining.py on LLVM's own tests ------------------------------------

VISITOR_FILES = [
    "switch-shl.ll", "switch-zext-sext.ll", "switch-sub.ll", "switch-select.ll", "switch-constant-expr.ll",
    "atomicrmw.ll", "consecutive-fences.ll", "freeze.ll", "freeze-phi.ll", "freeze-landingpad.ll",
    "extractvalue.ll", "phi-extractvalue.ll", "branch.ll", "canonicalize_branch.ll",
    # allocation sites and free
    "erase-dbg-values-at-dead-alloc-site.ll", "alloc-realloc-free.ll", "realloc-free.ll", "malloc-free-mismatched.ll",
    "badmalloc.ll", "malloc-free-addrspace.ll", "out-of-tree-allocator-optimizes-away.ll",
    # the driver: LowerDbgDeclare, dead blocks, sinking
    "lower-dbg-declare.ll", "debuginfo-dce2.ll", "sink-into-resume-block.ll", "2005-07-07-DeadPHILoop.ll",
]  # fmt: skip


@pytest.mark.parametrize("name", VISITOR_FILES)
def test_visitors_like_opt_on_llvm_tests(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from oracles import require_llvm_tests

    path = require_llvm_tests() / "Transforms" / "InstCombine" / name
    assert_like_opt(path.read_text(), ["-S", "-passes=instcombine"], tmp_path, capsys)


def test_narrow_switch_with_data_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from oracles import require_llvm_tests

    text = (require_llvm_tests() / "Transforms" / "InstCombine" / "narrow-switch.ll").read_text()
    for layout in ("n32", "n32:64"):
        assert_like_opt(text, ["-S", "-passes=instcombine", "-data-layout=" + layout], tmp_path, capsys)


def test_libcall_option_range_like_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """LibCallSimplifier's hot/cold hints take 0..255, with opt-19's words for a value out of range."""
    ref = opt19(["-S", "-hot-new-hint-value=5000"], LAYOUT_IR)
    code, out, err = ours(["-S", "-hot-new-hint-value=5000"], LAYOUT_IR, tmp_path, capsys)
    assert code == ref.returncode == 1 and out == ""
    assert err == ref.stderr.replace("opt-19", "llvmpy-opt")
    assert_like_opt(LAYOUT_IR, ["-S", "-hot-new-hint-value=200", "-enable-double-float-shrink"], tmp_path, capsys)
