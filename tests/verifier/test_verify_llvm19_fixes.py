"""Verifier rules matched to LLVM 19.1.7 after its own Verifier tests showed a difference.

* ``elementtype`` on the pointer operand of the AArch64/ARM exclusive loads and stores
  (``llvm.aarch64.ldxr``, ``llvm.arm.strex``, ...), intrinsics without a signature description.
* The signatures of the AArch64 NEON structured loads (``llvm.aarch64.neon.ld2``,
  ``ld3lane``, ...), whose struct returns name an overloaded type before it is bound.
* ``!mmra`` attachments: where they may stand and what they hold.
* Broken debug info dropped by the reader: the findings travel with the warning, so
  ``llvmpy-opt`` prints them before "ignoring invalid debug info", as opt-19 does.

Each expected text is what opt-19 prints (checked live when opt-19 is installed).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.ir.verifier import InvalidDebugInfoWarning

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vhelpers import HAVE_OPT, check, run_opt  # noqa: E402
from oracles import require_tools  # noqa: E402

# --- exclusive loads and stores --------------------------------------------------------------------

EXCLUSIVE = """\
define void @f(ptr %p) {
  %a = call i64 @llvm.aarch64.ldxr.p0(ptr %p)
  %b = call i64 @llvm.aarch64.ldxr.p0(ptr elementtype(i32) %p)
  %c = call i32 @llvm.arm.strex.p0(i32 0, ptr %p)
  %d = call i32 @llvm.arm.strex.p0(i32 0, ptr elementtype(i8) %p)
  %e = call i32 @llvm.aarch64.stlxr.p0(i64 0, ptr elementtype(i16) %p)
  %g = call i32 @llvm.arm.ldaex.p0(ptr %p)
  ret void
}
declare i64 @llvm.aarch64.ldxr.p0(ptr)
declare i32 @llvm.aarch64.stlxr.p0(i64, ptr)
declare i32 @llvm.arm.strex.p0(i32, ptr)
declare i32 @llvm.arm.ldaex.p0(ptr)
"""


def test_exclusive_memory_intrinsics_need_elementtype() -> None:
    check(
        EXCLUSIVE,
        "Intrinsic requires elementtype attribute on first argument.\n"
        "  %a = call i64 @llvm.aarch64.ldxr.p0(ptr %p)\n"
        "Intrinsic requires elementtype attribute on second argument.\n"
        "  %c = call i32 @llvm.arm.strex.p0(i32 0, ptr %p)\n"
        "Intrinsic requires elementtype attribute on first argument.\n"
        "  %g = call i32 @llvm.arm.ldaex.p0(ptr %p)\n",
    )


# --- NEON structured loads -------------------------------------------------------------------------

NEON = """\
define void @f(ptr %p, <4 x i32> %a, <4 x i64> %w) {
  %ok2 = call { <4 x i32>, <4 x i32> } @llvm.aarch64.neon.ld2.v4i32.p0(ptr %p)
  %ok3 = call { <2 x float>, <2 x float>, <2 x float> } @llvm.aarch64.neon.ld3lane.v2f32.p0(<2 x float> zeroinitializer, <2 x float> zeroinitializer, <2 x float> zeroinitializer, i64 1, ptr %p)
  %bad1 = call { <4 x i64>, <4 x i32> } @llvm.aarch64.neon.ld2r.v4i32.p0(ptr %p)
  %bad2 = call { <4 x i32>, <4 x i32> } @llvm.aarch64.neon.ld2lane.v4i32.p0(<4 x i64> %w, <4 x i32> %a, i64 0, ptr %p)
  %ok4 = call { <4 x i32>, <4 x i32>, <4 x i32>, <4 x i32> } @llvm.aarch64.neon.ld4.v4i32(ptr %p)
  ret void
}
declare { <4 x i32>, <4 x i32> } @llvm.aarch64.neon.ld2.v4i32.p0(ptr)
declare { <2 x float>, <2 x float>, <2 x float> } @llvm.aarch64.neon.ld3lane.v2f32.p0(<2 x float>, <2 x float>, <2 x float>, i64, ptr)
declare { <4 x i64>, <4 x i32> } @llvm.aarch64.neon.ld2r.v4i32.p0(ptr)
declare { <4 x i32>, <4 x i32> } @llvm.aarch64.neon.ld2lane.v4i32.p0(<4 x i64>, <4 x i32>, i64, ptr)
declare { <4 x i32>, <4 x i32>, <4 x i32>, <4 x i32> } @llvm.aarch64.neon.ld4.v4i32(ptr)
"""


NEON_UNMANGLED = """\
define void @f(ptr %p) {
  %v = call { <4 x i32>, <4 x i32>, <4 x i32>, <4 x i32> } @llvm.aarch64.neon.ld4.v4i32(ptr %p)
  ret void
}
declare { <4 x i32>, <4 x i32>, <4 x i32>, <4 x i32> } @llvm.aarch64.neon.ld4.v4i32(ptr)
"""


def test_neon_structured_load_signatures() -> None:
    check(
        NEON,
        "Intrinsic has incorrect return type!\n"
        "ptr @llvm.aarch64.neon.ld2r.v4i32.p0\n"
        "Intrinsic has incorrect argument type!\n"
        "ptr @llvm.aarch64.neon.ld2lane.v4i32.p0\n",
    )
    # The reader renames the declaration missing its pointer suffix, as LLVM's does.
    m = llvmpy_mid.parse_assembly(NEON_UNMANGLED)
    assert m.get_function("llvm.aarch64.neon.ld4.v4i32.p0") is not None


# --- !mmra -----------------------------------------------------------------------------------------

MMRA = """\
declare void @g()
declare float @llvm.sqrt.f32(float)
define void @f(ptr %p, i32 %x) {
  %fine.load = load atomic i32, ptr %p acquire, align 4, !mmra !0
  %fine.list = load atomic i32, ptr %p acquire, align 4, !mmra !2
  call void @g(), !mmra !0
  fence release, !mmra !2
  %bad.add = add i32 %x, 1, !mmra !0
  %bad.sqrt = call float @llvm.sqrt.f32(float 1.0), !mmra !0
  %bad.tuple = load i32, ptr %p, align 4, !mmra !3
  %bad.op = load i32, ptr %p, align 4, !mmra !4
  store i32 0, ptr %p, align 4, !mmra !5
  ret void
}
!0 = !{!"amdgpu-as", !"local"}
!1 = !{!"amdgpu-as", !"global"}
!2 = !{!0, !1}
!3 = !{!"a", !"b", !"c"}
!4 = !{!0, !"x"}
!5 = distinct !{!0}
"""


def test_mmra_attachments() -> None:
    check(
        MMRA,
        "!mmra metadata attached to unexpected instruction kind\n"
        "  %bad.add = add i32 %x, 1, !mmra !0\n"
        "!0 = !{!\"amdgpu-as\", !\"local\"}\n"
        "!mmra metadata attached to unexpected instruction kind\n"
        "  %bad.sqrt = call float @llvm.sqrt.f32(float 1.000000e+00), !mmra !0\n"
        "!0 = !{!\"amdgpu-as\", !\"local\"}\n"
        "!mmra metadata tuple operand is not an MMRA tag\n"
        "  %bad.tuple = load i32, ptr %p, align 4, !mmra !3\n"
        "!\"a\"\n"
        "!mmra metadata tuple operand is not an MMRA tag\n"
        "  %bad.op = load i32, ptr %p, align 4, !mmra !4\n"
        "!\"x\"\n",
    )


# --- broken debug info: the findings before the warning ---------------------------------------------

BROKEN_DI = """\
define void @f() !dbg !7 {
  %v = alloca <2 x float>, align 8
    #dbg_declare(ptr %v, !15, !DIExpression(), !9)
  ret void, !dbg !9
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!7 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !8, spFlags: DISPFlagDefinition, unit: !0)
!8 = !DISubroutineType(types: !10)
!9 = !DILocation(line: 1, scope: !7)
!10 = !{null}
!11 = !DICompositeType(tag: DW_TAG_array_type, baseType: !12, size: 64, flags: DIFlagVector, elements: !13)
!12 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!13 = !{!14, !14}
!14 = !DISubrange(count: 2)
!15 = !DILocalVariable(name: "v", scope: !7, file: !1, line: 1, type: !11)
"""

BROKEN_DI_TEXT = (
    "invalid vector, expected one element of type subrange\n"
    "!7 = !DICompositeType(tag: DW_TAG_array_type, baseType: !8, size: 64, flags: DIFlagVector, elements: !9)\n"
)


def test_dropped_debug_info_warning_carries_the_findings() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = llvmpy_mid.parse_assembly(BROKEN_DI, name="m.ll")
    found = [w.message for w in caught if isinstance(w.message, InvalidDebugInfoWarning)]
    assert len(found) == 1
    assert str(found[0]) == "ignoring invalid debug info in m.ll"
    assert found[0].llvm_text == BROKEN_DI_TEXT
    assert "!dbg" not in str(m)  # dropped
    if HAVE_OPT:
        code, err, path = run_opt(BROKEN_DI)
        assert code == 0
        assert err == BROKEN_DI_TEXT + "warning: ignoring invalid debug info in %s\n" % path


def test_cli_prints_the_findings_before_the_warning(tmp_path: Path) -> None:
    from llvmpy_mid.cli import main

    path = tmp_path / "m.ll"
    path.write_text(BROKEN_DI)
    out = tmp_path / "out.ll"
    with pytest.MonkeyPatch.context() as mp:
        import io

        err = io.StringIO()
        mp.setattr(sys, "stderr", err)
        code = main(["-passes=verify", "-S", str(path), "-o", str(out)])
    assert code == 0
    assert err.getvalue() == BROKEN_DI_TEXT + "warning: ignoring invalid debug info in %s\n" % path


def test_cli_prints_dropped_debug_info_before_a_broken_module_as_opt19(tmp_path: Path) -> None:
    """A module still broken once its debug info is dropped: the dropped findings and the warning
    come first, then the findings that break it, as opt-19 prints them."""
    import subprocess

    require_tools("opt-19")
    path = tmp_path / "m.ll"
    path.write_text(
        "define void @f() !dbg !3 {\n  ret void\n}\n!llvm.module.flags = !{!0}\n!named = !{!3}\n"
        '!0 = !{i32 2, !"Debug Info Version", i32 3}\n'
        '!3 = distinct !DISubprogram(name: "f", scope: null, spFlags: DISPFlagDefinition, unit: null)\n'
    )
    theirs = subprocess.run(["opt-19", "-S", str(path)], capture_output=True, text=True)
    ours = subprocess.run([sys.executable, "-m", "llvmpy_mid", "-S", str(path)], capture_output=True, text=True)
    assert theirs.returncode == ours.returncode == 1
    assert ours.stderr == theirs.stderr.replace("opt-19: ", "llvmpy-opt: ")
