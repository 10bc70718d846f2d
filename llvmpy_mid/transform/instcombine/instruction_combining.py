"""InstCombine folds of terminators, aggregates, freeze, fences and atomics (LLVM
``lib/Transforms/InstCombine/InstructionCombining.cpp``: ``visitReturnInst``,
``visitBranchInst``, ``visitSwitchInst``, ``visitUnreachableInst``,
``visitExtractValueInst`` with ``foldExtractOfOverflowIntrinsic``, ``visitFreeze``
and its helpers; ``visitFenceInst`` of InstCombineCalls.cpp; InstCombineAtomicRMW.cpp).

Each visitor tries LLVM's folds in LLVM's order. ``visit_alloc_site`` and ``visit_free``
(called by the alloca and call visitors) delete removable allocations with their users;
the allocation families are the C library's and C++ ``new``/``delete`` (the MSVC
operators are not known). Not done yet: ``visitLandingPadInst`` (clause pruning).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.memory_builtins import (
    get_allocation_family,
    get_freed_operand,
    get_reallocated_operand,
    is_alloc_like_fn,
)
from llvmpy_mid.analysis.instsimplify.other import simplify_extract_value_inst, simplify_freeze_inst
from llvmpy_mid.analysis.poison_tracking import (
    can_create_undef_or_poison,
    is_guaranteed_not_to_be_undef_or_poison,
    is_guaranteed_to_transfer_execution_to_successor,
)
from llvmpy_mid.ir.constants import Constant, ConstantFP, ConstantInt, PoisonValue, UndefValue
from llvmpy_mid.ir.constant_fold import scalar_size_in_bits
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.flags import AtomicOrdering, AtomicRMWBinOp
from llvmpy_mid.ir.instructions.memory import AtomicRMWInst, FenceInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst, ReturnInst, SwitchInst
from llvmpy_mid.ir.instructions.vector import ExtractValueInst, InsertValueInst
from llvmpy_mid.ir.pattern_match import (
    m_add,
    m_apint,
    m_constant_int,
    m_fcmp,
    m_icmp,
    m_logical_and,
    m_not,
    m_one_use,
    m_shl,
    m_specific,
    m_sub,
    m_value,
    match,
)
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

_MASK64 = (1 << 64) - 1


def _mask(w: int) -> int:
    return (1 << w) - 1


def _to_signed(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) & 1 else v


# --- ret --------------------------------------------------------------------------------------------

_FC_ALL = 0x3FF


def visit_ret(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """ret V -> ret V' where the function's ``nofpclass`` return attribute excludes classes of V."""
    ri = cast(ReturnInst, i)
    rv = ri.return_value
    if rv is None:
        return None
    sty = rv.type.scalar_type if rv.type.is_vector else rv.type
    if not sty.is_floating_point:
        return None
    fn = ri.function
    if fn is None:
        return None
    attr = fn.attributes.ret_attrs.get("nofpclass")
    ret_class = int(attr.int_value) if attr is not None else 0
    if ret_class == 0:
        return None
    from llvmpy_mid.transform.instcombine.simplify_demanded import simplify_demanded_use_fp_class

    simplified = simplify_demanded_use_fp_class(ic, rv, ~ret_class & _FC_ALL, 0, ri)
    if simplified is None:
        return None
    return ReturnInst(ri.type.context, simplified)


# --- unreachable ------------------------------------------------------------------------------------


def _prev_non_debug(i: Instruction) -> Instruction | None:
    prev = i.prev_instruction
    while prev is not None and prev.opcode == "call":
        callee = prev.operands[-1]
        if not (isinstance(callee, Function) and (callee.name.startswith("llvm.dbg.") or callee.name == "llvm.pseudoprobe")):
            break
        prev = prev.prev_instruction
    return prev


def remove_instructions_before_unreachable(ic: InstCombiner, i: Instruction) -> bool:
    """Everything that must reach ``unreachable`` (and is no EH pad) is deleted, stores and
    assumes included (LLVM ``removeInstructionsBeforeUnreachable``)."""
    changed = False
    while True:
        prev = _prev_non_debug(i)
        if prev is None or prev.is_eh_pad:
            break
        if not is_guaranteed_to_transfer_execution_to_successor(prev):
            break
        ic.replace_inst_uses_with(prev, PoisonValue.get(prev.type))
        ic.erase_inst_from_function(prev)
        changed = True
    return changed


def visit_unreachable(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """I; unreachable -> unreachable, for each I that always reaches it."""
    remove_instructions_before_unreachable(ic, i)
    return None


# --- br ---------------------------------------------------------------------------------------------

_P_NOT_X = m_not(m_value("x"))
_P_AND_NOT = m_one_use(m_logical_and(m_value("x"), m_one_use(m_not(m_value("y")))))
_P_FCMP_ONE_USE = m_one_use(m_fcmp("pred", m_value(), m_value()))


def _last_sinkable_store(br: Instruction) -> StoreInst | None:
    """The store before ``br``, skipping debug/pseudo calls and pointer bitcasts."""
    bb = br.parent
    assert bb is not None
    first = bb.instructions.first
    cur: Instruction = br
    while True:
        if cur is not first:
            prev = cur.prev_instruction
            assert prev is not None
            cur = prev
        if cur is first:
            break
        if not _is_noop_for_store_merging(cur):
            break
    return cur if isinstance(cur, StoreInst) else None


def _is_noop_for_store_merging(i: Instruction) -> bool:
    if i.opcode == "bitcast":
        return i.type.is_pointer
    if i.opcode == "call":
        callee = i.operands[-1]
        return isinstance(callee, Function) and (callee.name.startswith("llvm.dbg.") or callee.name == "llvm.pseudoprobe")
    return False


def visit_unconditional_branch(ic: InstCombiner, bi: BranchInst) -> Instruction | None:
    """store P, V1; br BB -> the store merged into BB with the other store to P reaching it."""
    si = _last_sinkable_store(bi)
    if si is not None:
        from llvmpy_mid.transform.instcombine.load_store_alloca import merge_store_into_successor

        if merge_store_into_successor(ic, si):
            return bi
    return None


def visit_br(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """br (not X), T, F -> br X, F, T; br (X && !Y), T, F -> br (!X || Y), F, T; br C, T, T -> br false, T, T;
    br (fcmp !canonical), T, F -> br (fcmp inverse), F, T; constant or undef conditions kill edges."""
    bi = cast(BranchInst, i)
    if not bi.is_conditional:
        return visit_unconditional_branch(ic, bi)
    cond = bi.condition
    assert cond is not None
    # (LLVM 19's m_Not and m_FCmp match instructions only)
    cond_is_inst = isinstance(cond, Instruction)
    m = match(cond, _P_NOT_X) if cond_is_inst else None
    if m and not isinstance(m.x, Constant):
        bi.swap_successors()
        return ic.replace_operand(bi, 0, m.x)
    if isinstance(cond, SelectInst):
        m = match(cond, _P_AND_NOT)
        if m:
            x: Value = m.x
            not_x = ic.builder.create_not(x, "not." + x.name)
            new_or = ic.builder.create_logical_or(not_x, m.y)
            bi.swap_successors()
            return ic.replace_operand(bi, 0, new_or)
    if not isinstance(cond, ConstantInt) and bi.get_successor(0) is bi.get_successor(1):
        return ic.replace_operand(bi, 0, ConstantInt.get(cond.type, 0))
    m = match(cond, _P_FCMP_ONE_USE) if cond_is_inst else None
    if m:
        from llvmpy_mid.transform.instcombine.common import is_canonical_predicate

        pred: Predicate = m.pred
        if not is_canonical_predicate(pred):
            cmp = cast(FCmpInst, cond)
            cmp.predicate = pred.inverse
            bi.swap_successors()
            ic.worklist.push(cmp)
            return bi
    if isinstance(cond, UndefValue):
        ic.handle_potentially_dead_successors(bi.parent, None)  # type: ignore[arg-type]
        return None
    if isinstance(cond, ConstantInt):
        ic.handle_potentially_dead_successors(bi.parent, bi.get_successor(0 if cond.value else 1))  # type: ignore[arg-type]
        return None
    ic.dc.register_branch(bi)
    return None


# --- switch -----------------------------------------------------------------------------------------

_P_ADD_CI = m_add(m_value("x"), m_constant_int("c"))
_P_SUB_CI = m_sub(m_constant_int("c"), m_value("x"))
_P_SHL_CI = m_shl(m_value("x"), m_constant_int("c"))


def _case_successor(si: SwitchInst, c: ConstantInt) -> object:
    idx = si.find_case_value(c)
    return si.default_dest if idx is None else si.case_dests[idx]


def _switch_on_select_using_ranges(si: SwitchInst, sel: SelectInst, is_true_arm: bool) -> Value | None:
    """switch (select C, X, K) -> switch X when K and every value C excludes go to the default."""
    cst_idx = 1 if is_true_arm else 2
    c = sel.operands[cst_idx]
    if not isinstance(c, ConstantInt):
        return None
    if _case_successor(si, c) is not si.default_dest:
        return None
    x = sel.operands[3 - cst_idx]
    m = match(sel.operands[0], m_icmp("pred", m_specific(x), m_apint("rhs")))
    if not m:
        return None
    pred: Predicate = m.pred
    if is_true_arm:
        pred = pred.inverse
    cr = ConstantRange.make_exact_icmp_region(pred, m.rhs, c.type.width)
    for case in si.case_values:
        if not cr.contains(case.value):
            return None
    return x


def visit_switch(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """switch (X + C) -> switch X with cases minus C; (C - X); (X << C); (ext X); (select); narrow by
    known bits; constant or undef conditions kill edges."""
    si = cast(SwitchInst, i)
    cond = si.condition
    n_cases = len(si.case_values)
    # (LLVM 19's m_Add/m_Sub/m_Shl match instructions only, not constant expressions)
    is_inst = isinstance(cond, Instruction)
    m = match(cond, _P_ADD_CI) if is_inst else None
    if m:
        add_rhs: ConstantInt = m.c
        w = add_rhs.type.width
        return _set_cases_and_condition(
            ic, si, m.x, [(c.value - add_rhs.value) & _mask(w) for c in si.case_values]
        )
    m = match(cond, _P_SUB_CI) if is_inst else None
    if m:
        sub_lhs: ConstantInt = m.c
        w = sub_lhs.type.width
        return _set_cases_and_condition(
            ic, si, m.x, [(sub_lhs.value - c.value) & _mask(w) for c in si.case_values]
        )
    m = match(cond, _P_SHL_CI) if is_inst else None
    if m:
        op0: Value = m.x
        w = scalar_size_in_bits(op0.type)
        amt = m.c.value
        if amt < w and all(_ctz(c.value, w) >= amt for c in si.case_values):
            shl = cast(BinaryOperator, cond)
            nuw = bool(getattr(shl, "nuw", False))
            nsw = bool(getattr(shl, "nsw", False))
            if nuw or nsw or shl.has_one_use:
                new_cond = op0
                if not nuw and not nsw:
                    new_cond = ic.builder.create_and(op0, ConstantInt.get(op0.type, _mask(w - amt)))
                return _set_cases_and_condition(
                    ic,
                    si,
                    new_cond,
                    [(_to_signed(c.value, w) >> amt) & _mask(w) if nsw else c.value >> amt for c in si.case_values],
                )
    if isinstance(cond, Instruction) and cond.opcode in ("zext", "sext"):
        op0 = cond.operands[0]
        is_zext = cond.opcode == "zext"
        nw = scalar_size_in_bits(op0.type)
        w = scalar_size_in_bits(cond.type)

        def fits(v: int) -> bool:
            if is_zext:
                return v >> nw == 0
            s = _to_signed(v, w)
            return -(1 << (nw - 1)) <= s < (1 << (nw - 1))

        if all(fits(c.value) for c in si.case_values):
            return _set_cases_and_condition(ic, si, op0, [c.value & _mask(nw) for c in si.case_values])
    if isinstance(cond, SelectInst):
        sv = _switch_on_select_using_ranges(si, cond, True)
        if sv is not None:
            return ic.replace_operand(si, 0, sv)
        sv = _switch_on_select_using_ranges(si, cond, False)
        if sv is not None:
            return ic.replace_operand(si, 0, sv)
    known = ic.compute_known_bits(cond, 0, si)
    bw = known.bit_width
    lead_zeros = known.count_min_leading_zeros()
    lead_ones = known.count_min_leading_ones()
    for c in si.case_values:
        lead_zeros = min(lead_zeros, _clz(c.value, bw))
        lead_ones = min(lead_ones, _clz(~c.value & _mask(bw), bw))
    new_width = bw - max(lead_zeros, lead_ones)
    if 0 < new_width < bw and n_cases >= 0:
        from llvmpy_mid.transform.instcombine.common import should_change_type_widths

        if should_change_type_widths(ic, bw, new_width):
            ty = cond.type.context.int_type(new_width)
            ic.builder.position_before(si)
            new_cond = ic.builder.create_trunc(cond, ty, "trunc")
            return _set_cases_and_condition(ic, si, new_cond, [c.value & _mask(new_width) for c in si.case_values])
    if isinstance(cond, UndefValue):
        ic.handle_potentially_dead_successors(si.parent, None)  # type: ignore[arg-type]
        return None
    if isinstance(cond, ConstantInt):
        ic.handle_potentially_dead_successors(si.parent, _case_successor(si, cond))  # type: ignore[arg-type]
        return None
    return None


def _fp_negative(c: ConstantFP) -> bool:
    from llvmpy_mid.ir import fp_bits

    return bool(c.bits >> (fp_bits.bit_width(c.type.type_id) - 1) & 1)


def _fp_infinity(c: ConstantFP) -> bool:
    return not c.is_nan and abs(c.value) == float("inf")


def _set_cases_and_condition(ic: InstCombiner, si: SwitchInst, cond: Value, values: list[int]) -> Instruction:
    """The switch on ``cond`` (its type may differ) with the case values ``values``."""
    old = si.operands[0]
    si.set_operand(0, cond)
    for idx, v in enumerate(values):
        si.set_case_value(idx, ConstantInt.get(cond.type, v))
    ic.worklist.handle_use_count_decrement(old)
    return si


def _ctz(v: int, w: int) -> int:
    return w if v == 0 else (v & -v).bit_length() - 1


def _clz(v: int, w: int) -> int:
    return w - (v & _mask(w)).bit_length()


# --- fence, atomicrmw -------------------------------------------------------------------------------


def _next_non_debug(i: Instruction) -> Instruction | None:
    nxt = i.next_instruction
    while nxt is not None and nxt.opcode == "call":
        callee = nxt.operands[-1]
        if not (isinstance(callee, Function) and (callee.name.startswith("llvm.dbg.") or callee.name == "llvm.pseudoprobe")):
            break
        nxt = nxt.next_instruction
    return nxt


def _identical_or_stronger_fence(f1: FenceInst, f2: FenceInst) -> bool:
    scope = f1.sync_scope
    if scope != f2.sync_scope or scope not in ("", "singlethread"):
        return False
    return f1.ordering.is_at_least(f2.ordering)


def visit_fence(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """fence A; fence B -> the stronger one, when the scopes agree (system or single thread)."""
    fi = cast(FenceInst, i)
    nfi = _next_non_debug(fi)
    if isinstance(nfi, FenceInst) and fi.is_identical_to(nfi):
        ic.erase_inst_from_function(fi)
        return None
    if isinstance(nfi, FenceInst) and _identical_or_stronger_fence(nfi, fi):
        ic.erase_inst_from_function(fi)
        return None
    pfi = _prev_non_debug(fi)
    if isinstance(pfi, FenceInst) and _identical_or_stronger_fence(pfi, fi):
        ic.erase_inst_from_function(fi)
        return None
    return None


_RMW = AtomicRMWBinOp


def _is_idempotent_rmw(rmw: AtomicRMWInst) -> bool:
    v = rmw.operands[1]
    op = rmw.operation
    if isinstance(v, ConstantFP):
        if op is _RMW.FADD:
            return v.is_zero_value and _fp_negative(v)
        if op is _RMW.FSUB:
            return v.is_zero_value and not _fp_negative(v)
        return False
    if not isinstance(v, ConstantInt):
        return False
    w = v.type.width
    c = v.value
    if op in (_RMW.ADD, _RMW.SUB, _RMW.OR, _RMW.XOR):
        return c == 0
    if op is _RMW.AND:
        return c == _mask(w)
    if op is _RMW.MIN:
        return c == _mask(w - 1)
    if op is _RMW.MAX:
        return c == 1 << (w - 1)
    if op is _RMW.UMIN:
        return c == _mask(w)
    if op is _RMW.UMAX:
        return c == 0
    return False


def _is_saturating(rmw: AtomicRMWInst) -> bool:
    v = rmw.operands[1]
    op = rmw.operation
    if isinstance(v, ConstantFP):
        if op is _RMW.FMAX:
            return not _fp_negative(v) and _fp_infinity(v)
        if op is _RMW.FMIN:
            return _fp_negative(v) and _fp_infinity(v)
        if op in (_RMW.FADD, _RMW.FSUB):
            return bool(v.is_nan)
        return False
    if not isinstance(v, ConstantInt):
        return False
    w = v.type.width
    c = v.value
    if op is _RMW.XCHG:
        return True
    if op is _RMW.OR:
        return c == _mask(w)
    if op is _RMW.AND:
        return c == 0
    if op is _RMW.MIN:
        return c == 1 << (w - 1)
    if op is _RMW.MAX:
        return c == _mask(w - 1)
    if op is _RMW.UMIN:
        return c == 0
    if op is _RMW.UMAX:
        return c == _mask(w)
    return False


def visit_atomicrmw(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """atomicrmw op P, C (result in memory known) -> xchg; idempotent -> or 0 / fadd -0.0."""
    rmw = cast(AtomicRMWInst, i)
    if rmw.is_volatile:
        return None
    if _is_saturating(rmw) and rmw.operation is not _RMW.XCHG:
        rmw.operation = _RMW.XCHG
        return rmw
    if not _is_idempotent_rmw(rmw):
        return None
    ty = rmw.type
    if ty.is_integer and rmw.operation is not _RMW.OR:
        rmw.operation = _RMW.OR
        return ic.replace_operand(rmw, 1, ConstantInt.get(ty, 0))
    if ty.is_floating_point and rmw.operation is not _RMW.FADD:
        rmw.operation = _RMW.FADD
        return ic.replace_operand(rmw, 1, ConstantFP.get(ty, -0.0))
    return None


# --- extractvalue -----------------------------------------------------------------------------------

_WITH_OVERFLOW = {
    "llvm.sadd.with.overflow": ("add", False),
    "llvm.uadd.with.overflow": ("add", True),
    "llvm.ssub.with.overflow": ("sub", False),
    "llvm.usub.with.overflow": ("sub", True),
    "llvm.smul.with.overflow": ("mul", False),
    "llvm.umul.with.overflow": ("mul", True),
}


def _with_overflow_kind(v: Value) -> tuple[str, str, bool] | None:
    """(intrinsic base name, binary opcode, unsigned) of an ``llvm.*.with.overflow`` call."""
    if not isinstance(v, Instruction) or v.opcode != "call":
        return None
    callee = v.operands[-1]
    if not isinstance(callee, Function):
        return None
    name = callee.name
    for base, (opcode, unsigned) in _WITH_OVERFLOW.items():
        if name.startswith(base + "."):
            return base, opcode, unsigned
    return None


def _const_int(ty: Type, v: int) -> Constant:
    """``ConstantInt::get(Ty, V)``: a splat for a vector type."""
    from llvmpy_mid.ir.constants import ConstantVector
    from llvmpy_mid.ir.types import VectorType

    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, ConstantInt.get(ty.element_type, v))
    return ConstantInt.get(ty, v)


def fold_extract_of_overflow_intrinsic(ic: InstCombiner, ev: ExtractValueInst) -> Instruction | None:
    """extractvalue (X *.with.overflow C) -> a plain binop or an icmp, LLVM's cases."""
    wo = ev.operands[0]
    kind = _with_overflow_kind(wo)
    if kind is None:
        return None
    assert isinstance(wo, Instruction)
    base, opcode, unsigned = kind
    lhs, rhs = wo.operands[0], wo.operands[1]
    from llvmpy_mid.ir.pattern_match import m_apint_allow_poison

    mc = match(rhs, m_apint_allow_poison("c"))
    c: int | None = mc.c if mc else None
    w = scalar_size_in_bits(lhs.type)
    idx0 = ev.indices[0]
    if c is not None and idx0 == 0 and base in ("llvm.smul.with.overflow", "llvm.umul.with.overflow"):
        if c == _mask(w):
            return BinaryOperator.create("sub", Constant.get_null_value(lhs.type), lhs)
        if c and c & (c - 1) == 0:
            return BinaryOperator.create("shl", lhs, _const_int(lhs.type, c.bit_length() - 1))
    if not wo.has_one_use:
        return None
    if idx0 == 0:
        ic.replace_inst_uses_with(wo, PoisonValue.get(wo.type))
        ic.erase_inst_from_function(wo)
        return BinaryOperator.create(opcode, lhs, rhs)
    if base == "llvm.usub.with.overflow":
        return ICmpInst(Predicate.ICMP_ULT, lhs, rhs)
    if base == "llvm.smul.with.overflow" and w == 1:
        return BinaryOperator.create("and", lhs, rhs)
    if base == "llvm.umul.with.overflow" and lhs is rhs and w % 2 == 0:
        return ICmpInst(Predicate.ICMP_UGT, lhs, _const_int(lhs.type, _mask(w // 2)))
    if c is not None:
        nwr = ConstantRange.make_guaranteed_no_wrap_region(opcode, ConstantRange(w, c), unsigned)
        pred, new_rhs, offset = nwr.get_equivalent_icmp()
        new_lhs = lhs
        if offset != 0:
            new_lhs = ic.builder.create_add(lhs, _const_int(rhs.type, offset))
        return ICmpInst(pred.inverse, new_lhs, _const_int(rhs.type, new_rhs))
    return None


def visit_extractvalue(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """extractvalue of insertvalue / overflow intrinsics / one-use loads / phis / selects."""
    ev = cast(ExtractValueInst, i)
    agg = ev.operands[0]
    idx = ev.indices
    if not idx:
        return ic.replace_inst_uses_with(ev, agg)
    v = simplify_extract_value_inst(agg, idx, ic.query(ev))
    if v is not None:
        return ic.replace_inst_uses_with(ev, v)
    if isinstance(agg, InsertValueInst):
        ins = agg.indices
        n = min(len(idx), len(ins))
        for k in range(n):
            if ins[k] != idx[k]:
                return ExtractValueInst(agg.operands[0], idx)
        if len(idx) == len(ins):
            return ic.replace_inst_uses_with(ev, agg.inserted_value_operand)
        if n == len(idx):
            new_ev = ic.builder.create_extract_value(agg.operands[0], idx)
            return InsertValueInst(new_ev, agg.inserted_value_operand, ins[n:])
        return ExtractValueInst(agg.inserted_value_operand, idx[n:])
    r = fold_extract_of_overflow_intrinsic(ic, ev)
    if r is not None:
        return r
    if isinstance(agg, LoadInst):
        if _contains_scalable_vector(agg.type):
            return None
        if agg.is_simple and agg.has_one_use:
            return _narrow_load(ic, ev, agg)
    if isinstance(agg, PHINode):
        from llvmpy_mid.transform.instcombine.common import fold_op_into_phi

        res = fold_op_into_phi(ic, ev, agg)
        if res is not None:
            return res
    if isinstance(agg, SelectInst):
        from llvmpy_mid.transform.instcombine.common import fold_op_into_select

        res = fold_op_into_select(ic, ev, agg, True)
        if res is not None:
            return res
    return None


def _contains_scalable_vector(ty: object) -> bool:
    from llvmpy_mid.ir.types import StructType

    if not isinstance(ty, StructType):
        return False
    return any(getattr(e, "is_scalable_vector", False) for e in ty.elements)


def _narrow_load(ic: InstCombiner, ev: ExtractValueInst, load: LoadInst) -> Instruction | None:
    """extractvalue (load P), i... -> load (gep inbounds P, 0, i...)."""
    i32 = ev.type.context.int_type(32)
    indices: list[Value] = [ConstantInt.get(i32, 0)]
    indices.extend(ConstantInt.get(i32, k) for k in ev.indices)
    b = ic.builder
    b.position_before(load)
    gep = b.create_gep(load.type, load.pointer_operand, indices, inbounds=True)
    nl = LoadInst(ev.type, gep, alignment=ic.dl.abi_alignment(ev.type))
    b.insert(nl)
    for kind in ("tbaa", "tbaa.struct", "alias.scope", "noalias"):
        md = load.get_metadata(kind)
        if md is not None:
            nl.set_metadata(kind, md)
    return ic.replace_inst_uses_with(ev, nl)


# --- landingpad -------------------------------------------------------------------------------------


def visit_landingpad(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Landing-pad clause pruning (LLVM ``visitLandingPadInst``): not done yet."""
    return None


# --- freeze -----------------------------------------------------------------------------------------


def _drop_poison_generating_annotations(i: Instruction) -> None:
    """``dropPoisonGeneratingAnnotations``, including the ``nnan``/``ninf`` fast-math flags."""
    from llvmpy_mid.transform.instcombine.select_icmp import drop_poison_generating_annotations

    drop_poison_generating_annotations(i)
    fmf = getattr(i, "fast_math_flags", None)
    if fmf is not None and int(fmf) & 6:
        i.fast_math_flags = int(fmf) & ~6  # type: ignore[attr-defined]


def push_freeze_to_prevent_poison_from_propagating(ic: InstCombiner, fi: Instruction) -> Value | None:
    """freeze (op X, NonPoison...) -> op (freeze X), NonPoison... when op makes no poison itself."""
    orig = fi.operands[0]
    if not isinstance(orig, Instruction) or not orig.has_one_use or isinstance(orig, PHINode):
        return None
    if can_create_undef_or_poison(orig, False):
        return None
    maybe_poison = None
    from llvmpy_mid.ir.metadata import MetadataAsValue

    for use in orig.operand_uses:
        v = use.value
        if isinstance(v, MetadataAsValue) or is_guaranteed_not_to_be_undef_or_poison(v):
            continue
        if maybe_poison is None:
            maybe_poison = use
        else:
            return None
    _drop_poison_generating_annotations(orig)
    if maybe_poison is None:
        return orig
    b = ic.builder
    b.position_before(orig)
    frozen = b.create_freeze(maybe_poison.value, maybe_poison.value.name + ".fr")
    ic.replace_use(maybe_poison, frozen)
    return orig


def fold_freeze_into_recurrence(ic: InstCombiner, fi: Instruction, pn: PHINode) -> Instruction | None:
    """freeze (phi [start], [step(phi)]) -> phi [freeze start], [step'] when the steps only propagate poison."""
    start_use = None
    work: list[Value] = []
    dt = ic.dt
    bb = pn.parent
    assert bb is not None
    blocks = pn.incoming_blocks
    for k, use in enumerate(pn.operand_uses):
        if dt.dominates_block(bb, blocks[k]):
            work.append(use.value)
            continue
        if start_use is not None:
            return None
        start_use = (use, blocks[k])
    if start_use is None or not work:
        return None
    su, start_bb = start_use
    start_v = su.value
    start_needs_freeze = not is_guaranteed_not_to_be_undef_or_poison(start_v)
    if start_needs_freeze and start_bb.terminator is start_v:
        return None
    visited: set[Value] = set()
    drop: list[Instruction] = []
    while work:
        v = work.pop()
        if v in visited:
            continue
        visited.add(v)
        if len(visited) > 32:
            return None
        if v is pn or is_guaranteed_not_to_be_undef_or_poison(v):
            continue
        if not isinstance(v, Instruction) or can_create_undef_or_poison(v, False):
            return None
        drop.append(v)
        work.extend(v.operands)
    for inst in drop:
        _drop_poison_generating_annotations(inst)
    if start_needs_freeze:
        term = start_bb.terminator
        assert term is not None
        ic.builder.position_before(term)
        frozen = ic.builder.create_freeze(start_v, start_v.name + ".fr")
        ic.replace_use(su, frozen)
    return ic.replace_inst_uses_with(fi, pn)


def freeze_other_uses(ic: InstCombiner, fi: Instruction) -> bool:
    """freeze X with other uses of X -> the freeze right after X's definition, and X's uses it
    dominates use it."""
    op = fi.operands[0]
    if isinstance(op, Constant) or op.has_one_use:
        return False
    if isinstance(op, Argument):
        fn = fi.function
        assert fn is not None and fn.entry_block is not None
        move_before = _first_non_phi_or_dbg_or_alloca(fn.entry_block)
    else:
        assert isinstance(op, Instruction)
        after_def = _insertion_point_after_def(op)
        if after_def is None:
            return False
        move_before = after_def
    changed = False
    if fi is not move_before:
        # the records in front of move_before stay in front of it (the iterator has no head bit)
        fi.move_before(move_before)
        recs = move_before.take_dbg_records()
        for r in recs:
            fi.add_dbg_record(r)
        changed = True
    dt = ic.dt

    def dominated(use: object) -> bool:
        nonlocal changed
        d = dt.dominates_use(fi, use)  # type: ignore[arg-type]
        changed |= d
        return d

    op.replace_uses_with_if(fi, dominated)
    return changed


def _first_non_phi_or_dbg_or_alloca(bb: object) -> Instruction:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.instructions.memory import AllocaInst

    assert isinstance(bb, BasicBlock)
    node = bb.first_non_phi
    assert node is not None
    if node.is_eh_pad:
        node = node.next_instruction
    while node is not None and isinstance(node, AllocaInst) and node.is_static_alloca:
        node = node.next_instruction
    assert node is not None
    return node


def _insertion_point_after_def(op: Instruction) -> Instruction | None:
    """LLVM ``getInsertionPointAfterDef``."""
    bb = op.parent
    assert bb is not None
    if isinstance(op, PHINode):
        return bb.first_insertion_point
    if op.opcode == "invoke":
        return op.successors[0].first_insertion_point  # the normal destination
    if op.opcode == "callbr":
        return None
    if op.is_terminator:
        return None
    return op.next_instruction


def _is_used_within_shuffle_vector(v: Value) -> bool:
    use = v._use_head
    while use is not None:
        user = use.user
        op = getattr(user, "opcode", "")
        if op == "shufflevector":
            return True
        if op == "bitcast" and _is_used_within_shuffle_vector(user):
            return True
        use = use._next
    return False


def _undef_replacement(fi: Instruction, ty: object) -> Constant:
    from llvmpy_mid.ir.types import Type

    assert isinstance(ty, Type)
    null = Constant.get_null_value(ty)
    best: Constant | None = None
    use = fi._use_head
    while use is not None:
        user = use.user
        c: Constant = null
        op = getattr(user, "opcode", "")
        if op == "or":
            c = Constant.get_all_ones_value(ty)
        elif op == "select" and user.operands[0] is fi and isinstance(user.operands[1], Constant):
            c = ConstantInt.get(ty, 1) if ty.is_integer else null
        if best is None:
            best = c
        elif best is not c:
            best = null
        use = use._next
    assert best is not None
    return best


def _contains_undef_or_poison_element(c: Constant) -> bool:
    """LLVM ``containsUndefOrPoisonElement``: an undef/poison scalar or vector lane."""
    from llvmpy_mid.ir.types import VectorType

    if isinstance(c, UndefValue):
        return True
    ty = c.type
    if not isinstance(ty, VectorType) or ty.scalable:
        return False
    for k in range(ty.count):
        e = c.get_aggregate_element(k)
        if e is None or isinstance(e, UndefValue):
            return e is not None
    return False


def _replace_undefs_with(c: Constant, repl: Constant) -> Constant:
    """LLVM ``Constant::replaceUndefsWith``: each undef/poison lane becomes ``repl``."""
    from llvmpy_mid.ir.constants import ConstantVector
    from llvmpy_mid.ir.types import VectorType

    if isinstance(c, UndefValue):
        return repl
    ty = c.type
    if not isinstance(ty, VectorType) or ty.scalable:
        return c
    elts: list[Constant] = []
    for k in range(ty.count):
        e = c.get_aggregate_element(k)
        if e is None:
            return c
        elts.append(repl if isinstance(e, UndefValue) else e)
    return ConstantVector.get(elts)


def visit_freeze(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """freeze of a non-poison value -> it; freeze (phi) -> phi of freezes; push freeze to the
    one poison operand; freeze undef -> a constant suiting its users; freeze dominates X's uses."""
    op0 = i.operands[0]
    v = simplify_freeze_inst(op0, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    if isinstance(op0, PHINode):
        from llvmpy_mid.transform.instcombine.common import fold_op_into_phi

        nv = fold_op_into_phi(ic, i, op0)
        if nv is not None:
            return nv
        nv = fold_freeze_into_recurrence(ic, i, op0)
        if nv is not None:
            return nv
    ni = push_freeze_to_prevent_poison_from_propagating(ic, i)
    if ni is not None:
        return ic.replace_inst_uses_with(i, ni)
    if isinstance(op0, UndefValue):
        if _is_used_within_shuffle_vector(i):
            return None
        return ic.replace_inst_uses_with(i, _undef_replacement(i, i.type))
    if isinstance(op0, Constant) and _contains_undef_or_poison_element(op0):
        repl = _undef_replacement(i, i.type.scalar_type)
        return ic.replace_inst_uses_with(i, _replace_undefs_with(op0, repl))
    if freeze_other_uses(ic, i):
        return i
    return None


# --- allocation sites -------------------------------------------------------------------------------

def _lib_func(call: Instruction, tli: TargetLibraryInfo | None) -> str | None:
    from llvmpy_mid.ir.instructions.calls import CallBase

    if tli is None or not isinstance(call, CallBase) or call.is_no_builtin:
        return None
    fn = call.called_function
    if fn is None:
        return None
    lf = tli.get_lib_func(fn)
    if lf is None or not tli.has(lf):
        return None
    return lf



def _is_never_equal_to_unescaped_alloc(v: Value, tli: TargetLibraryInfo | None, ai: Instruction) -> bool:
    from llvmpy_mid.ir.constants import ConstantPointerNull
    from llvmpy_mid.ir.global_value import GlobalVariable

    if isinstance(v, ConstantPointerNull):
        return True
    if isinstance(v, LoadInst):
        return isinstance(v.pointer_operand, GlobalVariable)
    return is_alloc_like_fn(v, tli) and v is not ai


def _is_removable_write(cb: Instruction, used: Value) -> bool:
    from llvmpy_mid.ir.instructions.calls import CallBase

    if not isinstance(cb, CallBase) or cb._use_head is not None or cb.is_terminator:
        return False
    if not cb.will_return() or cb.may_throw():
        return False
    from llvmpy_mid.transform.instcombine.driver import _destination_written

    return _destination_written(cb) is used


_REMOVABLE_INTRINSIC_USERS = (
    "llvm.assume", "llvm.invariant.start", "llvm.invariant.end", "llvm.lifetime.start", "llvm.lifetime.end",
    "llvm.objectsize",
)  # fmt: skip


def _intrinsic_base(i: Instruction) -> str:
    callee = i.operands[-1]
    if not isinstance(callee, Function) or not callee.name.startswith("llvm."):
        return ""
    name = callee.name
    for base in _REMOVABLE_INTRINSIC_USERS + ("llvm.memmove", "llvm.memcpy", "llvm.memset",
                                              "llvm.launder.invariant.group", "llvm.strip.invariant.group"):  # fmt: skip
        if name == base or name.startswith(base + "."):
            if base == "llvm.memcpy" and name.startswith("llvm.memcpy.inline"):
                return "llvm.memcpy.inline"
            if base == "llvm.memset" and name.startswith("llvm.memset.inline"):
                return "llvm.memset.inline"
            return base
    return name


def _is_alloc_site_removable(ai: Instruction, users: list[Instruction], tli: TargetLibraryInfo | None) -> bool:
    """LLVM ``isAllocSiteRemovable``: every (transitive) use of the allocation is a cast, GEP,
    equality compare with something it cannot equal, store into it, free, lifetime marker..."""
    family = get_allocation_family(ai, tli)
    work: list[Instruction] = [ai]
    while work:
        pi = work.pop()
        use = pi._use_head
        while use is not None:
            i = use.user
            use = use._next
            assert isinstance(i, Instruction)
            op = i.opcode
            if op in ("addrspacecast", "bitcast", "getelementptr"):
                users.append(i)
                work.append(i)
                continue
            if op == "icmp":
                assert isinstance(i, ICmpInst)
                if not i.is_equality:
                    return False
                other = i.operands[1] if i.operands[0] is pi else i.operands[0]
                if not _is_never_equal_to_unescaped_alloc(other, tli, ai):
                    return False
                if _lib_func(ai, tli) == "aligned_alloc":
                    align = ai.operands[0]
                    size = ai.operands[1]
                    if not (isinstance(align, ConstantInt) and isinstance(size, ConstantInt) and align.value
                            and align.value & (align.value - 1) == 0 and size.value % align.value == 0):  # fmt: skip
                        return False
                users.append(i)
                continue
            if op == "call":
                base = _intrinsic_base(i)
                if base in ("llvm.memmove", "llvm.memcpy", "llvm.memset"):
                    vol = i.operands[3]
                    if (isinstance(vol, ConstantInt) and vol.value) or i.operands[0] is not pi:
                        return False
                    users.append(i)
                    continue
                if base in _REMOVABLE_INTRINSIC_USERS:
                    users.append(i)
                    continue
                if base in ("llvm.launder.invariant.group", "llvm.strip.invariant.group"):
                    users.append(i)
                    work.append(i)
                    continue
                if base.startswith("llvm."):
                    return False
                if _is_removable_write(i, pi):
                    users.append(i)
                    continue
                assert isinstance(i, CallBase)
                if get_freed_operand(i, tli) is pi and get_allocation_family(i, tli) == family:
                    users.append(i)
                    continue
                if get_reallocated_operand(i) is pi and get_allocation_family(i, tli) == family:
                    users.append(i)
                    work.append(i)
                    continue
                return False
            if op == "store":
                assert isinstance(i, StoreInst)
                if i.is_volatile or i.pointer_operand is not pi:
                    return False
                users.append(i)
                continue
            return False
    return True


def visit_alloc_site(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """An allocation only stored to, compared for equality, freed or marked (lifetime,
    objectsize ...) is deleted with all those users (LLVM ``visitAllocSite``)."""
    from llvmpy_mid.analysis.memory_builtins import lower_object_size_call
    from llvmpy_mid.ir.debug_records import DbgRecordKind
    from llvmpy_mid.ir.instructions.calls import CallBase
    from llvmpy_mid.ir.instructions.memory import AllocaInst
    from llvmpy_mid.transform.utils.debug_declare import (
        convert_declare_for_store,
        dbg_variable_records_of,
        starts_with_deref,
    )

    records = dbg_variable_records_of(i) if isinstance(i, AllocaInst) else []
    users: list[Instruction] = []
    if not _is_alloc_site_removable(i, users, ic.tli):
        return None
    live: list[Instruction | None] = list(users)
    for k, u in enumerate(live):
        if u is None or u.is_erased:
            continue
        if u.opcode == "call" and _intrinsic_base(u) == "llvm.objectsize":
            assert isinstance(u, CallBase)
            bb = u.parent
            assert bb is not None
            before = u.prev_instruction
            res = lower_object_size_call(u, ic.dl, ic.tli, True)
            assert res is not None
            # the instructions the lowering inserted (before the call) go on the worklist
            node = before.next_instruction if before is not None else bb.instructions.first
            while node is not None and node is not u:
                ic.worklist.add(node)
                node = node.next_instruction
            ic.replace_inst_uses_with(u, res)
            ic.erase_inst_from_function(u)
            live[k] = None
    for u in live:
        if u is None or u.is_erased:
            continue
        if isinstance(u, ICmpInst):
            ic.replace_inst_uses_with(u, ConstantInt.get(u.type.context.int_type(1), 1 if u.predicate.is_false_when_equal else 0))
        elif isinstance(u, StoreInst):
            for rec in records:
                if rec.kind is DbgRecordKind.DECLARE:
                    convert_declare_for_store(rec, u, ic.dl)
        else:
            ic.replace_inst_uses_with(u, PoisonValue.get(u.type))
        ic.erase_inst_from_function(u)
    if i.opcode == "invoke":
        from llvmpy_mid.ir.instructions.terminators import InvokeInst
        from llvmpy_mid.ir.intrinsics import intrinsic_declaration

        module = i.module
        assert module is not None and i.parent is not None
        ctx = i.type.context
        decl = intrinsic_declaration(module, "llvm.donothing", ctx.function_type(ctx.void, []))
        normal, unwind = i.successors[0], i.successors[1]
        i.parent.append(InvokeInst(decl.function_type, decl, normal, unwind))
    for rec in records:
        if rec.instruction is None:
            continue
        if rec.kind is DbgRecordKind.DECLARE or starts_with_deref(rec.expression):
            rec.erase_from_parent()
    ic.erase_inst_from_function(i)
    return None


def _try_to_move_free_before_null_test(ic: InstCombiner, fi: Instruction) -> Instruction | None:
    """LLVM ``tryToMoveFreeBeforeNullTest``: if (p) free(p) -> free(p) (minsize only)."""
    from llvmpy_mid.ir.instructions.calls import CallBase
    from llvmpy_mid.ir.pointer_casts import strip_pointer_casts

    assert isinstance(fi, CallBase)
    op = fi.operands[0]
    free_bb = fi.parent
    assert free_bb is not None
    pred_bb = free_bb.single_predecessor
    if pred_bb is None:
        return None
    term = free_bb.terminator
    if not isinstance(term, BranchInst) or term.is_conditional:
        return None
    succ_bb = term.get_successor(0)
    insts = list(free_bb.instructions)
    if len(insts) != 2:
        for inst in insts:
            if inst is fi or inst is term:
                continue
            if inst.opcode not in ("bitcast", "ptrtoint", "inttoptr") or not _is_noop_cast(inst, ic):
                return None
    ti = pred_bb.terminator
    if not isinstance(ti, BranchInst) or not ti.is_conditional:
        return None
    cond = ti.condition
    if not isinstance(cond, ICmpInst):
        return None
    lhs, rhs = cond.operands
    if not (lhs is op or lhs is strip_pointer_casts(op)) or not (isinstance(rhs, Constant) and rhs.is_null_value):
        return None
    pred = cond.predicate
    if pred not in (Predicate.ICMP_EQ, Predicate.ICMP_NE):
        return None
    true_bb, false_bb = ti.get_successor(0), ti.get_successor(1)
    if succ_bb is not (true_bb if pred is Predicate.ICMP_EQ else false_bb):
        return None
    for inst in insts:
        if inst is term:
            break
        inst.move_before(ti, preserve_dbg_records=True)
    attrs = fi.attributes
    attrs = attrs.without_param_attr(0, "nonnull")
    deref = attrs.param_attrs(0).get("dereferenceable")
    if deref is not None:
        from llvmpy_mid.ir.attributes import Attribute

        attrs = attrs.without_param_attr(0, "dereferenceable")
        attrs = attrs.with_param_attr(0, Attribute.int("dereferenceable_or_null", int(deref.int_value)))
    fi.attributes = attrs
    return fi


def _is_noop_cast(inst: Instruction, ic: InstCombiner) -> bool:
    if inst.opcode == "bitcast":
        return True
    return scalar_size_in_bits(inst.type) == scalar_size_in_bits(inst.operands[0].type) if not (
        inst.type.is_pointer and inst.operands[0].type.is_pointer) else True  # fmt: skip


def visit_free(ic: InstCombiner, call: Instruction, freed_op: Value) -> Instruction | None:
    """free(undef) -> unreachable marker; free(null) -> nothing; free(realloc(p)) -> free(p)
    when the realloc has no other use; with minsize, if (p) free(p) -> free(p) (LLVM ``visitFree``)."""
    from llvmpy_mid.ir.constants import ConstantPointerNull

    if isinstance(freed_op, UndefValue):
        from llvmpy_mid.transform.instcombine.calls import create_non_terminator_unreachable

        create_non_terminator_unreachable(ic, call)
        ic.erase_inst_from_function(call)
        return None
    if isinstance(freed_op, ConstantPointerNull):
        ic.erase_inst_from_function(call)
        return None
    if isinstance(freed_op, CallBase) and freed_op.opcode == "call" and freed_op.has_one_use:
        realloc_op = get_reallocated_operand(freed_op)
        if realloc_op is not None:
            r = ic.replace_inst_uses_with(freed_op, realloc_op)
            assert r is not None
            ic.erase_inst_from_function(r)
            return None
    if ic.min_size and _lib_func(call, ic.tli) == "free":
        return _try_to_move_free_before_null_test(ic, call)
    return None


__all__ = [
    "fold_extract_of_overflow_intrinsic",
    "remove_instructions_before_unreachable",
    "visit_alloc_site",
    "visit_atomicrmw",
    "visit_br",
    "visit_extractvalue",
    "visit_fence",
    "visit_free",
    "visit_freeze",
    "visit_landingpad",
    "visit_ret",
    "visit_switch",
    "visit_unreachable",
]
