"""SROA's phi/select speculation and debug-info fragments (sroa_speculation.py,
sroa_debug_info.py) against opt-19.

Driver-independent cases: the speculation functions are applied by hand to each phi or
select of alloca pointers, then ``mem2reg`` promotes the allocas; the result must equal
``opt-19 -passes=sroa<preserve-cfg|modify-cfg>`` byte for byte (SROA does exactly that:
speculate, then promote). Negative cases: where opt-19 keeps the alloca, the safety
check says no. The DIExpression fragment rules (createFragmentExpression,
calculateFragment, calculateFragmentIntersect, createOrReplaceFragment) are checked
against the LLVM definitions. When the ``sroa`` pass is registered, whole-pass cases
(select/phi speculation, predication, #dbg_declare/#dbg_assign fragments, debugify runs,
30 random select/phi functions, the dominator tree after predication) are compared with
opt-19 too. ``split_block_and_insert_if_then(_else)`` on random CFGs keeps the dominator
tree (eager and lazy updater) and the loops equal to fresh ones.
"""

from __future__ import annotations

import random

import pytest
from opt19_compare import body, opt19_output

import llvmpy_mid
from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.ir.debug_info import DIExpression
from llvmpy_mid.ir.di_expression import expression_values
from llvmpy_mid.ir.di_expression_edit import (
    calculate_fragment_intersect,
    create_fragment_expression,
    expression_from_values,
    extract_leading_offset,
    intersect_fragments,
)
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.transform.scalar.sroa_debug_info import (
    FragCalcResult,
    calculate_fragment,
    create_or_replace_fragment,
)
from llvmpy_mid.transform.scalar.sroa_speculation import (
    SelectHandSpeculativity,
    fold_phi_node_or_select_inst,
    fold_select_inst,
    is_safe_phi_to_speculate,
    is_safe_select_to_speculate,
    rewrite_select_inst_mem_ops,
    speculate_phi_node_loads,
)
from tests.oracles import require_tools

FRAG = 0x1000
PLUS_UCONST = 0x23
DEREF = 0x06
STACK_VALUE = 0x9F
PLUS = 0x22
CONSTU = 0x10
MINUS = 0x1C
EXTRACT_ZEXT = 0x1007


# --- driver-independent: speculate by hand, promote, compare with opt-19 ------------------------


def _speculate_and_promote(ir: str, preserve_cfg: bool) -> str:
    """Apply the speculation rules to every phi/select of pointers, then mem2reg."""
    module = parse_assembly(ir, name="<stdin>")
    for fn in module.functions:
        if fn.is_declaration:
            continue
        dtu = None if preserve_cfg else DomTreeUpdater(DominatorTree(fn))
        phis: list[PHINode] = []
        selects: list[SelectInst] = []
        for bb in fn.blocks:
            for inst in bb.instructions:
                if isinstance(inst, PHINode) and inst.type.is_pointer:
                    phis.append(inst)
                elif isinstance(inst, SelectInst) and inst.type.is_pointer:
                    selects.append(inst)
        for pn in phis:
            if is_safe_phi_to_speculate(pn):
                speculate_phi_node_loads(pn)
        for si in selects:
            ops = is_safe_select_to_speculate(si, preserve_cfg)
            if ops is not None:
                rewrite_select_inst_mem_ops(si, ops, dtu)
    llvmpy_mid.run_passes(module, "mem2reg")
    llvmpy_mid.verify_module(module)
    return body(print_module(module))


HAND_CASES = {
    "phi_two_allocas": """
define i32 @f(i1 %c) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  br i1 %c, label %l, label %r
l:
  br label %m
r:
  br label %m
m:
  %phi = phi ptr [ %a, %l ], [ %b, %r ]
  %v = load i32, ptr %phi, align 4
  ret i32 %v
}
""",
    "phi_two_loads_same_type_aa_tags": """
define i32 @f(i1 %c) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  br i1 %c, label %l, label %m
l:
  br label %m
m:
  %phi = phi ptr [ %a, %l ], [ %b, %entry ]
  %v = load i32, ptr %phi, align 4, !tbaa !0
  %w = load i32, ptr %phi, align 2
  %s = add i32 %v, %w
  ret i32 %s
}
!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2, i64 0}
!2 = !{!"tbaa root"}
""",
    "phi_duplicate_pred": """
define i32 @f(i32 %x) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  switch i32 %x, label %d [ i32 1, label %m
                            i32 2, label %m ]
d:
  br label %m
m:
  %phi = phi ptr [ %a, %entry ], [ %a, %entry ], [ %b, %d ]
  %v = load i32, ptr %phi, align 4
  ret i32 %v
}
""",
    "select_both_allocas": """
define i32 @f(i1 %c) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  %s = select i1 %c, ptr %a, ptr %b
  %v = load i32, ptr %s, align 4
  ret i32 %v
}
""",
    "select_same_alloca_twice_loaded": """
define i32 @f(i1 %c) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  %s = select i1 %c, ptr %b, ptr %a, !prof !0
  %v = load i32, ptr %s, align 4
  %w = load i32, ptr %s, align 4
  %r = mul i32 %v, %w
  ret i32 %r
}
!0 = !{!"branch_weights", i32 1, i32 9}
""",
    "select_with_dereferenceable_arg": """
define i32 @f(i1 %c, ptr dereferenceable(4) align 4 %p) {
entry:
  %a = alloca i32
  store i32 1, ptr %a
  %s = select i1 %c, ptr %a, ptr %p
  %v = load i32, ptr %s, align 4
  ret i32 %v
}
""",
}

MODIFY_CFG_CASES = {
    "select_load_one_unsafe_hand": """
define i32 @f(i1 %c, ptr %p) {
entry:
  %a = alloca i32
  store i32 1, ptr %a
  %s = select i1 %c, ptr %a, ptr %p
  %v = load i32, ptr %s, align 4
  ret i32 %v
}
""",
    "select_load_unsafe_true_hand": """
define i32 @f(i1 %c, ptr %p) {
entry:
  %a = alloca i32
  store i32 1, ptr %a
  %s = select i1 %c, ptr %p, ptr %a
  %v = load i32, ptr %s, align 4, !tbaa !0
  %w = add i32 %v, 1
  ret i32 %w
}
!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2, i64 0}
!2 = !{!"tbaa root"}
""",
    "select_load_with_prof_speculatable_true_hand": """
define i32 @f(i1 %c, ptr %p) {
entry:
  %a = alloca i32
  store i32 1, ptr %a
  %s = select i1 %c, ptr %a, ptr %p, !prof !0
  %v = load i32, ptr %s, align 4
  ret i32 %v
}
!0 = !{!"branch_weights", i32 3, i32 5}
""",
    "select_load_with_prof_speculatable_false_hand": """
define i32 @f(i1 %c, ptr %p) {
entry:
  %a = alloca i32
  store i32 1, ptr %a
  %s = select i1 %c, ptr %p, ptr %a, !prof !0
  %v = load i32, ptr %s, align 4
  ret i32 %v
}
!0 = !{!"branch_weights", i32 3, i32 5}
""",
    "select_store_and_load": """
define i32 @f(i1 %c, ptr %p) {
entry:
  %a = alloca i32
  store i32 1, ptr %a
  %s = select i1 %c, ptr %a, ptr %p
  %v = load i32, ptr %s, align 4
  store i32 5, ptr %s
  ret i32 %v
}
""",
    "select_store_with_prof": """
define void @f(i1 %c, ptr %p, i32 %x) {
entry:
  %a = alloca i32
  %s = select i1 %c, ptr %p, ptr %a, !prof !0
  store i32 %x, ptr %s
  ret void
}
!0 = !{!"branch_weights", i32 3, i32 5}
""",
    "select_atomic_load": """
define i32 @f(i1 %c) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  %s = select i1 %c, ptr %a, ptr %b
  %v = load atomic i32, ptr %s seq_cst, align 4
  ret i32 %v
}
""",
}


@pytest.mark.parametrize("name", sorted(HAND_CASES))
@pytest.mark.parametrize("mode", ["preserve-cfg", "modify-cfg"])
def test_hand_speculation_matches_sroa(name: str, mode: str) -> None:
    require_tools("opt-19")
    ir = HAND_CASES[name]
    expected = opt19_output(ir, "sroa<%s>" % mode)
    assert _speculate_and_promote(ir, mode == "preserve-cfg") == expected


@pytest.mark.parametrize("name", sorted(MODIFY_CFG_CASES))
def test_hand_predication_matches_sroa_modify_cfg(name: str) -> None:
    require_tools("opt-19")
    ir = MODIFY_CFG_CASES[name]
    expected = opt19_output(ir, "sroa<modify-cfg>")
    assert _speculate_and_promote(ir, False) == expected


@pytest.mark.parametrize("name", sorted(MODIFY_CFG_CASES))
def test_preserve_cfg_refuses_what_needs_predication(name: str) -> None:
    """With the CFG preserved, opt-19 keeps the alloca; the check refuses the select."""
    require_tools("opt-19")
    ir = MODIFY_CFG_CASES[name]
    assert "alloca" in opt19_output(ir, "sroa<preserve-cfg>")
    module = parse_assembly(ir)
    fn = next(f for f in module.functions if not f.is_declaration)
    si = next(i for bb in fn.blocks for i in bb.instructions if isinstance(i, SelectInst))
    assert is_safe_select_to_speculate(si, True) is None


UNSAFE_PHI_CASES = {
    "store_between_phi_and_load": """
define i32 @f(i1 %c) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  br i1 %c, label %l, label %m
l:
  br label %m
m:
  %phi = phi ptr [ %a, %l ], [ %b, %entry ]
  store i32 3, ptr %a
  %v = load i32, ptr %phi, align 4
  ret i32 %v
}
""",
    "loads_of_different_types": """
define i32 @f(i1 %c) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  br i1 %c, label %l, label %m
l:
  br label %m
m:
  %phi = phi ptr [ %a, %l ], [ %b, %entry ]
  %v = load i32, ptr %phi, align 4
  %w = load float, ptr %phi, align 4
  %x = bitcast float %w to i32
  %s = add i32 %v, %x
  ret i32 %s
}
""",
    "load_in_other_block": """
define i32 @f(i1 %c) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  br i1 %c, label %l, label %m
l:
  br label %m
m:
  %phi = phi ptr [ %a, %l ], [ %b, %entry ]
  br label %n
n:
  %v = load i32, ptr %phi, align 4
  ret i32 %v
}
""",
    "volatile_load": """
define i32 @f(i1 %c) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  br i1 %c, label %l, label %m
l:
  br label %m
m:
  %phi = phi ptr [ %a, %l ], [ %b, %entry ]
  %v = load volatile i32, ptr %phi, align 4
  ret i32 %v
}
""",
    "critical_edge_unsafe_pointer": """
define i32 @f(i1 %c, ptr %p) {
entry:
  %a = alloca i32
  store i32 1, ptr %a
  br i1 %c, label %l, label %m
l:
  br label %m
m:
  %phi = phi ptr [ %a, %l ], [ %p, %entry ]
  %v = load i32, ptr %phi, align 4
  ret i32 %v
}
""",
}


@pytest.mark.parametrize("name", sorted(UNSAFE_PHI_CASES))
def test_unsafe_phi_is_not_speculated(name: str) -> None:
    require_tools("opt-19")
    ir = UNSAFE_PHI_CASES[name]
    out = opt19_output(ir, "sroa")
    assert "phi ptr" in out and "alloca" in out
    module = parse_assembly(ir)
    fn = next(f for f in module.functions if not f.is_declaration)
    pn = next(i for bb in fn.blocks for i in bb.instructions if isinstance(i, PHINode))
    assert not is_safe_phi_to_speculate(pn)


def test_phi_critical_edge_with_safe_pointer_is_speculated() -> None:
    """A critical edge is fine when the pointer may be loaded unconditionally there."""
    require_tools("opt-19")
    ir = """
define i32 @f(i1 %c, ptr dereferenceable(4) align 4 %p) {
entry:
  %a = alloca i32
  store i32 1, ptr %a
  br i1 %c, label %l, label %m
l:
  br label %m
m:
  %phi = phi ptr [ %a, %l ], [ %p, %entry ]
  %v = load i32, ptr %phi, align 4
  ret i32 %v
}
"""
    assert _speculate_and_promote(ir, True) == opt19_output(ir, "sroa")


# --- folding and speculativity -------------------------------------------------------------------


def test_fold_select_and_phi() -> None:
    module = parse_assembly("""
define void @f(i1 %c, ptr %p, ptr %q) {
entry:
  br label %m
m:
  %phi = phi ptr [ %p, %entry ]
  %s1 = select i1 true, ptr %p, ptr %q
  %s2 = select i1 false, ptr %p, ptr %q
  %s3 = select i1 %c, ptr %q, ptr %q
  %s4 = select i1 %c, ptr %p, ptr %q
  ret void
}
""")
    fn = module.get_function("f")
    assert fn is not None
    args = list(fn.args)
    insts = {i.name: i for bb in fn.blocks for i in bb.instructions}
    assert fold_phi_node_or_select_inst(insts["phi"]) is args[1]
    assert fold_select_inst(insts["s1"]) is args[1]  # type: ignore[arg-type]
    assert fold_select_inst(insts["s2"]) is args[2]  # type: ignore[arg-type]
    assert fold_select_inst(insts["s3"]) is args[2]  # type: ignore[arg-type]
    assert fold_select_inst(insts["s4"]) is None  # type: ignore[arg-type]


def test_select_hand_speculativity() -> None:
    spec = SelectHandSpeculativity()
    assert spec.are_none_speculatable() and not spec.are_any_speculatable()
    spec.set_as_speculatable(False)
    assert spec.is_speculatable(False) and not spec.is_speculatable(True)
    assert spec.are_any_speculatable() and not spec.are_all_speculatable()
    spec.set_as_speculatable(True)
    assert spec.are_all_speculatable()


# --- DIExpression fragment rules -----------------------------------------------------------------


def _expr(values: list[int]) -> DIExpression:
    module = parse_assembly("")
    return expression_from_values(module.context, values)


def test_create_fragment_expression_rules() -> None:
    # plain: a fragment is appended
    assert create_fragment_expression([], 8, 16) == [FRAG, 8, 16]
    # an existing fragment: the new one is relative to it
    assert create_fragment_expression([FRAG, 32, 32], 8, 16) == [FRAG, 40, 16]
    # arithmetic then stack value cannot be split
    assert create_fragment_expression([PLUS_UCONST, 4, STACK_VALUE], 0, 8) is None
    # arithmetic then a deref: the loaded value may be split
    assert create_fragment_expression([PLUS_UCONST, 4, DEREF, STACK_VALUE], 0, 8) == [
        PLUS_UCONST, 4, DEREF, STACK_VALUE, FRAG, 0, 8,
    ]  # fmt: skip
    # a bit extract inside the new fragment is rebased and no fragment is added
    assert create_fragment_expression([EXTRACT_ZEXT, 8, 4], 8, 8) == [EXTRACT_ZEXT, 0, 4]
    assert create_fragment_expression([EXTRACT_ZEXT, 4, 8], 8, 8) is None


def test_extract_leading_offset() -> None:
    assert extract_leading_offset([]) == (0, [])
    assert extract_leading_offset([PLUS_UCONST, 4, DEREF]) == (4, [DEREF])
    assert extract_leading_offset([CONSTU, 3, MINUS, FRAG, 0, 8]) == (-3, [FRAG, 0, 8])
    assert extract_leading_offset([CONSTU, 3, PLUS_UCONST, 1]) is None
    assert extract_leading_offset([STACK_VALUE]) is None


def test_calculate_fragment() -> None:
    module = parse_assembly(PASS_CASES["dbg_declare_split"])
    fn = module.get_function("f")
    assert fn is not None
    rec = next(r for i in fn.blocks[0].instructions for r in i.iter_dbg_records())
    var = rec.variable  # type: ignore[attr-defined]
    # the slice covers the whole variable: no fragment
    assert calculate_fragment(var, 0, 64, None, None)[0] is FragCalcResult.USE_NO_FRAG
    assert calculate_fragment(var, 0, 64, None, (0, 64))[0] is FragCalcResult.USE_FRAG
    # half of it: a fragment
    assert calculate_fragment(var, 32, 32, None, None) == (FragCalcResult.USE_FRAG, (32, 32))
    # a storage fragment offsets the slice and bounds its size
    assert calculate_fragment(var, 8, 64, (16, 16), (16, 16)) == (FragCalcResult.SKIP, (24, 16))
    assert calculate_fragment(var, 0, 8, (16, 16), (16, 16)) == (FragCalcResult.USE_FRAG, (16, 8))


def test_fragment_intersect_and_replace() -> None:
    assert intersect_fragments((0, 32), (16, 32)) == (16, 16)
    assert intersect_fragments((0, 8), (16, 8)) == (0, 0)
    module = parse_assembly("define void @f() {\n  %a = alloca [4 x i32]\n  ret void\n}\n")
    fn = module.get_function("f")
    assert fn is not None
    ai = next(iter(fn.blocks[0].instructions))
    assert isinstance(ai, AllocaInst)
    dl = module.data_layout
    # the variable (128 bits at the alloca) against the slice at bits [32, 64)
    assert calculate_fragment_intersect(dl, ai, 32, 32, ai, 0, 0, (0, 128)) == ((32, 32), -32)
    # the whole variable
    assert calculate_fragment_intersect(dl, ai, 0, 128, ai, 0, 0, (0, 128)) == (None, 0)
    # a variable located 64 bits in: the slice [0, 32) lies before it
    assert calculate_fragment_intersect(dl, ai, 0, 32, ai, 64, 0, (0, 64)) == ((0, 0), 64)
    expr = _expr([PLUS_UCONST, 4, FRAG, 0, 64])
    got = create_or_replace_fragment(expr, (32, 16), 0)
    assert got is not None and expression_values(got) == [PLUS_UCONST, 4, FRAG, 32, 16]
    ext = _expr([EXTRACT_ZEXT, 8, 8])
    got2 = create_or_replace_fragment(ext, (0, 16), -8)
    assert got2 is not None and expression_values(got2) == [EXTRACT_ZEXT, 0, 8]
    assert create_or_replace_fragment(ext, (0, 4), 0) is None


# --- the whole pass, once the driver is registered -----------------------------------------------


def _sroa_registered() -> bool:
    try:
        import llvmpy_mid.transform.scalar.sroa  # noqa: F401
    except ImportError:
        return False
    return True


PASS_CASES = {
    "select_gep": """
define i32 @f(i1 %c) {
entry:
  %a = alloca [2 x i32]
  %b = alloca [2 x i32]
  %a1 = getelementptr [2 x i32], ptr %a, i64 0, i64 1
  %b1 = getelementptr [2 x i32], ptr %b, i64 0, i64 1
  store i32 1, ptr %a1
  store i32 2, ptr %b1
  %s = select i1 %c, ptr %a1, ptr %b1
  %v = load i32, ptr %s
  ret i32 %v
}
""",
    "dbg_declare_split": """
define i32 @f(i32 %x, i32 %y) !dbg !6 {
entry:
  %s = alloca { i32, i32 }, align 4
    #dbg_declare(ptr %s, !9, !DIExpression(), !14)
  store i32 %x, ptr %s, align 4
  %f1 = getelementptr inbounds { i32, i32 }, ptr %s, i32 0, i32 1
  store i32 %y, ptr %f1, align 4
  %v = load i32, ptr %s, align 4
  ret i32 %v
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!6 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !7, unit: !0)
!7 = !DISubroutineType(types: !8)
!8 = !{null}
!9 = !DILocalVariable(name: "s", scope: !6, file: !1, line: 2, type: !10)
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !1, size: 64, elements: !11)
!11 = !{!12, !13}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !10, file: !1, baseType: !15, size: 32)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !10, file: !1, baseType: !15, size: 32, offset: 32)
!14 = !DILocation(line: 2, scope: !6)
!15 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
""",
    "select_phi_corner_cases": """
declare ptr @mk()
declare i32 @__gxx_personality_v0(...)
define i32 @bc(i1 %c, ptr %p) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  %s = select i1 %c, ptr %a, ptr %b
  %bc = bitcast ptr %s to ptr
  %v = load i32, ptr %bc, align 4
  ret i32 %v
}
define i32 @bc2(i1 %c, ptr %p) {
entry:
  %a = alloca i32
  store i32 1, ptr %a
  %s = select i1 %c, ptr %a, ptr %p
  %bc = bitcast ptr %s to ptr
  store i32 3, ptr %bc, align 4
  %v = load i32, ptr %a
  ret i32 %v
}
define i32 @inv(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  %a = alloca i32
  store i32 1, ptr %a
  br i1 %c, label %l, label %m
l:
  %q = invoke ptr @mk() to label %m unwind label %lp
m:
  %phi = phi ptr [ %a, %entry ], [ %q, %l ]
  %v = load i32, ptr %phi, align 4
  ret i32 %v
lp:
  %x = landingpad { ptr, i32 } cleanup
  ret i32 0
}
define i32 @lt(i1 %c) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  %s = select i1 %c, ptr %a, ptr %b
  call void @llvm.lifetime.start.p0(i64 4, ptr %s)
  %v = load i32, ptr %s, align 4
  ret i32 %v
}
define i32 @vol(i1 %c) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  %s = select i1 %c, ptr %a, ptr %b
  store volatile i32 3, ptr %s
  %v = load i32, ptr %s, align 4
  ret i32 %v
}
define i32 @multi(i1 %c, i1 %d) {
entry:
  %a = alloca i32
  %b = alloca i32
  %e = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  store i32 3, ptr %e
  %s = select i1 %c, ptr %a, ptr %b
  %t = select i1 %d, ptr %s, ptr %e
  %v = load i32, ptr %t, align 4
  ret i32 %v
}
define i32 @phisel(i1 %c, i1 %d) {
entry:
  %a = alloca i32
  %b = alloca i32
  store i32 1, ptr %a
  store i32 2, ptr %b
  %s = select i1 %c, ptr %a, ptr %b
  br i1 %d, label %l, label %m
l:
  br label %m
m:
  %phi = phi ptr [ %s, %entry ], [ %a, %l ]
  %v = load i32, ptr %phi, align 4
  ret i32 %v
}
declare void @llvm.lifetime.start.p0(i64, ptr)
""",
    "dbg_assign_split_store": """
define i32 @f(i32 %x, i32 %y, i64 %z, i1 %c) !dbg !6 {
entry:
  %s = alloca { i32, i32 }, align 8, !DIAssignID !20
    #dbg_assign(i1 undef, !9, !DIExpression(), !20, ptr %s, !DIExpression(), !14)
  store i32 %x, ptr %s, align 8, !DIAssignID !21
    #dbg_assign(i32 %x, !9, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !21, ptr %s, !DIExpression(), !14)
  %f1 = getelementptr inbounds { i32, i32 }, ptr %s, i32 0, i32 1
  store i32 %y, ptr %f1, align 4, !DIAssignID !22
    #dbg_assign(i32 %y, !9, !DIExpression(DW_OP_LLVM_fragment, 32, 32), !22, ptr %f1, !DIExpression(), !14)
  br i1 %c, label %t, label %j
t:
  store i64 %z, ptr %s, align 8, !DIAssignID !23
    #dbg_assign(i64 %z, !9, !DIExpression(), !23, ptr %s, !DIExpression(), !14)
  br label %j
j:
  %v = load i32, ptr %s, align 8
  %w = load volatile i32, ptr %f1, align 4
  %r = add i32 %v, %w
  ret i32 %r
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!6 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !7, unit: !0)
!7 = !DISubroutineType(types: !8)
!8 = !{null}
!9 = !DILocalVariable(name: "s", scope: !6, file: !1, line: 2, type: !10)
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !1, size: 64, elements: !11)
!11 = !{!12, !13}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !10, file: !1, baseType: !15, size: 32)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !10, file: !1, baseType: !15, size: 32, offset: 32)
!14 = !DILocation(line: 2, scope: !6)
!15 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!20 = distinct !DIAssignID()
!21 = distinct !DIAssignID()
!22 = distinct !DIAssignID()
!23 = distinct !DIAssignID()
""",
    "dbg_assign_two_variables_one_alloca": """
define i32 @f(i32 %x, i32 %y, i64 %z, i1 %c) !dbg !6 {
entry:
  %s = alloca { i32, i32, i32, i32 }, align 8, !DIAssignID !20
    #dbg_assign(i1 undef, !9, !DIExpression(), !20, ptr %s, !DIExpression(), !14)
    #dbg_assign(i1 undef, !16, !DIExpression(), !20, ptr %s, !DIExpression(), !14)
  store i64 %z, ptr %s, align 8, !DIAssignID !21
    #dbg_assign(i64 %z, !9, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !21, ptr %s, !DIExpression(), !14)
  %f1 = getelementptr inbounds i8, ptr %s, i64 8
  store i32 %y, ptr %f1, align 4, !DIAssignID !22
    #dbg_assign(i32 %y, !9, !DIExpression(DW_OP_LLVM_fragment, 64, 32), !22, ptr %f1, !DIExpression(), !14)
  %v = load volatile i32, ptr %s, align 8
  %f4 = getelementptr inbounds i8, ptr %s, i64 4
  %v2 = load volatile i32, ptr %f4, align 4
  %w = load volatile i32, ptr %f1, align 4
  %r = add i32 %v, %w
  %r2 = add i32 %r, %v2
  ret i32 %r2
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!6 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !7, unit: !0)
!7 = !DISubroutineType(types: !8)
!8 = !{null}
!9 = !DILocalVariable(name: "s", scope: !6, file: !1, line: 2, type: !10)
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !1, size: 128, elements: !11)
!11 = !{!12, !13}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !10, file: !1, baseType: !15, size: 32)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !10, file: !1, baseType: !15, size: 32, offset: 32)
!14 = !DILocation(line: 2, scope: !6)
!15 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!16 = !DILocalVariable(name: "t", scope: !6, file: !1, line: 3, type: !10)
!20 = distinct !DIAssignID()
!21 = distinct !DIAssignID()
!22 = distinct !DIAssignID()
""",
    "dbg_declare_offsets_and_fragments": """
define i32 @f(i32 %x, i32 %y, i32 %z) !dbg !6 {
entry:
  %s = alloca { i32, i32, i32 }, align 4
    #dbg_declare(ptr %s, !9, !DIExpression(), !14)
    #dbg_declare(ptr %s, !16, !DIExpression(DW_OP_plus_uconst, 4), !14)
    #dbg_declare(ptr %s, !17, !DIExpression(DW_OP_plus_uconst, 2, DW_OP_LLVM_fragment, 0, 32), !14)
  store i32 %x, ptr %s, align 4
  %f1 = getelementptr inbounds { i32, i32, i32 }, ptr %s, i32 0, i32 1
  store i32 %y, ptr %f1, align 4
  %f2 = getelementptr inbounds { i32, i32, i32 }, ptr %s, i32 0, i32 2
  store i32 %z, ptr %f2, align 4
  %v = load volatile i32, ptr %s, align 4
  %w = load volatile i32, ptr %f1, align 4
  %u = load volatile i32, ptr %f2, align 4
  %r = add i32 %v, %w
  %r2 = add i32 %r, %u
  ret i32 %r2
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!6 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !7, unit: !0)
!7 = !DISubroutineType(types: !8)
!8 = !{null}
!9 = !DILocalVariable(name: "s", scope: !6, file: !1, line: 2, type: !10)
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !1, size: 96, elements: !11)
!11 = !{!12, !13}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !10, file: !1, baseType: !15, size: 32)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !10, file: !1, baseType: !15, size: 32, offset: 32)
!14 = !DILocation(line: 2, scope: !6)
!15 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!16 = !DILocalVariable(name: "b", scope: !6, file: !1, line: 3, type: !15)
!17 = !DILocalVariable(name: "l", scope: !6, file: !1, line: 4, type: !18)
!18 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
""",
}


@pytest.mark.parametrize("name", sorted({**HAND_CASES, **MODIFY_CFG_CASES, **PASS_CASES}))
@pytest.mark.parametrize("mode", ["sroa<preserve-cfg>", "sroa<modify-cfg>", "debugify,sroa<modify-cfg>"])
def test_whole_pass_matches_opt(name: str, mode: str) -> None:
    require_tools("opt-19")
    if not _sroa_registered():
        pytest.skip("the sroa driver (transform/scalar/sroa.py) is not there yet")
    from opt19_compare import assert_like_opt

    ir = {**HAND_CASES, **MODIFY_CFG_CASES, **PASS_CASES}[name]
    assert_like_opt(ir, mode)


@pytest.mark.parametrize("name", ["dbg_assign_split_store", "dbg_assign_two_variables_one_alloca"])
def test_assignment_marker_cache_gives_the_same_output(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An SROA run inside ``assignment_marker_cache`` prints what opt-19 prints."""
    require_tools("opt-19")
    if not _sroa_registered():
        pytest.skip("the sroa driver (transform/scalar/sroa.py) is not there yet")
    import llvmpy_mid.transform.scalar.sroa as sroa_module
    from opt19_compare import our_output

    from llvmpy_mid.transform.scalar.sroa_debug_info import assignment_marker_cache

    plain = sroa_module.run_sroa

    def cached(fn, dtu, ac, preserve_cfg):  # type: ignore[no-untyped-def]
        with assignment_marker_cache(fn):
            return plain(fn, dtu, ac, preserve_cfg)

    monkeypatch.setattr(sroa_module, "run_sroa", cached)
    ir = PASS_CASES[name]
    for pipeline in ("sroa", "sroa,sroa<modify-cfg>"):
        assert our_output(ir, pipeline) == opt19_output(ir, pipeline)


@pytest.mark.parametrize("name", sorted(MODIFY_CFG_CASES))
def test_dominator_tree_after_predication_matches_opt(name: str) -> None:
    """The tree SROA keeps (through its DomTreeUpdater) after splitting blocks is opt-19's."""
    require_tools("opt-19")
    if not _sroa_registered():
        pytest.skip("the sroa driver (transform/scalar/sroa.py) is not there yet")
    import subprocess
    import sys

    ir = MODIFY_CFG_CASES[name]
    args = ["-passes=sroa<modify-cfg>,print<domtree>", "-disable-output"]
    theirs = subprocess.run(["opt-19", *args], input=ir, capture_output=True, text=True)
    ours = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], input=ir, capture_output=True, text=True)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout + ours.stderr == theirs.stdout + theirs.stderr


# --- random select/phi functions against opt-19 ---------------------------------------------------


def _random_function(seed: int) -> str:
    """A random function with allocas, pointer args, a select and/or phi of pointers and
    loads/stores through them (alignments, volatile, !prof and !tbaa vary)."""
    rng = random.Random(seed)
    nalloca = rng.randint(1, 3)
    args = ["i1 %c0", "i1 %c1", "ptr %p"]
    if rng.random() < 0.5:
        args.append("ptr dereferenceable(8) align %d %%q" % rng.choice([1, 4, 8]))
        ptrs_ext = ["%p", "%q"]
    else:
        ptrs_ext = ["%p"]
    out = ["define i32 @f(%s) {" % ", ".join(args), "entry:"]
    allocas = []
    for i in range(nalloca):
        ty = rng.choice(["i32", "i64", "{ i32, i32 }", "[2 x i32]"])
        al = rng.choice([1, 4, 8])
        out.append("  %%a%d = alloca %s, align %d" % (i, ty, al))
        out.append("  store i32 %d, ptr %%a%d, align %d" % (i + 1, i, min(al, 4)))
        allocas.append("%%a%d" % i)
    ptrs = allocas + ptrs_ext
    kind = rng.choice(["select", "phi", "both"])
    acc = []
    if kind in ("select", "both"):
        a, b = rng.choice(ptrs), rng.choice(ptrs)
        if a not in allocas and b not in allocas:
            a = allocas[0]
        out.append("  %%s = select i1 %%c0, ptr %s, ptr %s%s" % (a, b, ", !prof !0" if rng.random() < 0.3 else ""))
        acc.append("%s")
    nl = rng.randint(1, 3)
    if kind in ("phi", "both"):
        out.append("  br i1 %c1, label %l, label %m")
        out.append("l:")
        if rng.random() < 0.3:
            out.append("  store i32 9, ptr %s" % rng.choice(allocas))
        out.append("  br label %m")
        out.append("m:")
        a = rng.choice(allocas)
        b = rng.choice(ptrs + (["%s"] if kind == "both" else []))
        out.append("  %%ph = phi ptr [ %s, %%l ], [ %s, %%entry ]" % (a, b))
        acc.append("%ph")
    vals = []
    for j in range(nl):
        base = rng.choice(acc)
        op = rng.random()
        al = rng.choice([1, 2, 4, 8])
        if op < 0.2 and base == "%s":
            out.append("  store i32 %d, ptr %s, align %d" % (j + 7, base, al))
        else:
            vol = " volatile" if rng.random() < 0.1 else ""
            md = ", !tbaa !1" if rng.random() < 0.3 else ""
            out.append("  %%v%d = load%s i32, ptr %s, align %d%s" % (j, vol, base, al, md))
            vals.append("%%v%d" % j)
    acc_v = "0"
    for k, v in enumerate(vals):
        out.append("  %%r%d = add i32 %s, %s" % (k, acc_v, v))
        acc_v = "%%r%d" % k
    out.append("  ret i32 %s" % acc_v)
    out.append("}")
    out.append('!0 = !{!"branch_weights", i32 2, i32 7}')
    out.append("!1 = !{!2, !2, i64 0}")
    out.append('!2 = !{!"int", !3, i64 0}')
    out.append('!3 = !{!"root"}')
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("seed", range(30))
def test_random_select_phi_functions_match_opt(seed: int) -> None:
    require_tools("opt-19")
    if not _sroa_registered():
        pytest.skip("the sroa driver (transform/scalar/sroa.py) is not there yet")
    from opt19_compare import our_output

    ir = _random_function(seed)
    for pipeline in ("sroa<preserve-cfg>", "sroa<modify-cfg>"):
        assert our_output(ir, pipeline) == opt19_output(ir, pipeline)


# --- split_block_and_insert_if_then(_else) keeps the analyses --------------------------------------


def _random_loop_cfg(seed: int) -> str:
    rng = random.Random(seed)
    n = 8
    lines = ["define i32 @f(i32 %x, i1 %c) {"]
    for i in range(n):
        lines.append("b%d:" % i)
        lines.append("  %%v%d = add i32 %%x, %d" % (i, i))
        lines.append("  %%w%d = mul i32 %%v%d, 3" % (i, i))
        if i == n - 1:
            lines.append("  ret i32 %%w%d" % i)
        elif rng.random() < 0.5:
            lines.append("  br i1 %%c, label %%b%d, label %%b%d" % (rng.randrange(1, n), i + 1))
        else:
            lines.append("  br label %%b%d" % (i + 1))
    lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("strategy", ["eager", "lazy"])
def test_split_block_and_insert_if_then_else_keeps_analyses(seed: int, strategy: str) -> None:
    """Random if-then / if-then-else splits (some ``unreachable``) with a DomTreeUpdater and
    LoopInfo: the function verifies, the tree and the loops equal fresh ones, the new
    blocks sit before the tail with the split point's debug location."""
    from llvmpy_mid.analysis.loop_info import LoopInfo
    from llvmpy_mid.transform.utils.basic_block_utils import (
        split_block_and_insert_if_then,
        split_block_and_insert_if_then_else,
    )

    rng = random.Random(seed)
    module = parse_assembly(_random_loop_cfg(seed))
    fn = module.get_function("f")
    assert fn is not None
    cond = fn.args[1]
    dt = DominatorTree(fn)
    li = LoopInfo(fn, dt)
    dtu = DomTreeUpdater(dt, strategy=strategy)  # type: ignore[arg-type]
    for _ in range(5):
        candidates = [i for bb in fn.blocks for i in bb.instructions if i.opcode == "mul"]
        at = rng.choice(candidates)
        head = at.parent
        if rng.random() < 0.5:
            term = split_block_and_insert_if_then(cond, at, rng.random() < 0.3, None, dtu, li)
            new_bb = term.parent
            assert new_bb is not None and new_bb.next_block is at.parent
        else:
            then_bb, else_bb = split_block_and_insert_if_then_else(cond, at, dtu=dtu, li=li)
            assert then_bb is not None and else_bb is not None
            assert then_bb.next_block is else_bb and else_bb.next_block is at.parent
        assert head is not None and head.terminator is not None and head.terminator.num_successors == 2
        if strategy == "lazy":
            dtu.flush()
        fresh = DominatorTree(fn)
        for bb in fn.blocks:
            if fresh.is_reachable(bb):
                assert dt.idom(bb) is fresh.idom(bb)
        fresh_li = LoopInfo(fn, fresh)
        for bb in fn.blocks:
            ours_loop, their_loop = li.loop_for(bb), fresh_li.loop_for(bb)
            assert (ours_loop.header if ours_loop else None) is (their_loop.header if their_loop else None)
    llvmpy_mid.verify_module(module)
