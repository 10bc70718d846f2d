"""``transform/utils/debug_declare.py``: LLVM's ``DIExpression::getActiveBits`` on extract-bits ops."""

from __future__ import annotations

from llvmpy_mid import parse_assembly
from llvmpy_mid.transform.utils.debug_declare import active_bits

_TEXT = """
define void @f() !dbg !5 {
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, unit: !0, spFlags: DISPFlagDefinition)
!6 = !DILocalVariable(name: "s", scope: !5, file: !1, type: !7)
!7 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!8 = !DILocalVariable(name: "u", scope: !5, file: !1, type: !9)
!9 = !DIBasicType(name: "unsigned", size: 32, encoding: DW_ATE_unsigned)
!10 = !DIExpression(DW_OP_LLVM_extract_bits_sext, 0, 8)
!11 = !DIExpression(DW_OP_LLVM_extract_bits_zext, 0, 8)
!12 = !DIExpression(DW_OP_LLVM_fragment, 0, 16)
!named = !{!6, !8, !10, !11, !12}
"""


def test_extract_bits_narrows_only_with_matching_signedness() -> None:
    m = parse_assembly(_TEXT)
    s_var, u_var, sext, zext, frag = m.get_named_metadata("named").operands
    assert active_bits(sext, s_var) == 8
    assert active_bits(zext, u_var) == 8
    assert active_bits(zext, s_var) == 32
    assert active_bits(sext, u_var) == 32
    assert active_bits(frag, s_var) == 16
