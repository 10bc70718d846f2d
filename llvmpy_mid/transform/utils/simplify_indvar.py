"""Induction-variable user simplification (LLVM 19.1.7 ``lib/Transforms/Utils/SimplifyIndVar.cpp``,
``include/llvm/Transforms/Utils/SimplifyIndVar.h``; the widening half lives in
:mod:`~llvmpy_mid.transform.utils.simplify_indvar_widen`).

What: :func:`simplify_users_of_iv` walks the users of one loop header phi (and, transitively,
of the users that are add recurrences of the same loop) and rewrites each one that
ScalarEvolution can decide: comparisons folded to a constant, made loop invariant or turned
unsigned; ``sdiv``/``srem`` to ``udiv``/``urem``; ``urem``/``srem`` of an IV below its divisor
removed; overflow and saturating intrinsics turned into plain arithmetic; ``trunc`` feeding
only comparisons against invariants removed; users equal to a loop-invariant expression
replaced by its expansion in the preheader; identities removed; ``nsw``/``nuw``/``exact``
added where SCEV proves them; ``fptosi(sitofp(iv))`` shortened. :func:`simplify_loop_ivs`
runs it for every header phi of a loop.

Dead instructions are not erased here: they are appended to ``dead`` for the caller (as
LLVM's ``DeadInsts``). The ScalarEvolution queries LLVM's code asks (``se_*`` here) use the
analysis's own method when it has one, else a conservative local answer, so a missing fact
only means a rewrite is not done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.scalar_evolution_expressions import (
    FLAG_NSW,
    FLAG_NUW,
    SCEV,
    SCEVAddRecExpr,
    SCEVConstant,
)
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.types import FloatingPointType, IntegerType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.statistics import Statistic

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
    from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution
    from llvmpy_mid.ir.dominators import DominatorTree

__all__ = [
    "IVVisitor",
    "SimplifyIndvar",
    "find_common_dominator",
    "nearest_common_dominator_inst",
    "simplify_loop_ivs",
    "simplify_users_of_iv",
]

DEBUG_TYPE = "indvars"
NUM_ELIM_IDENTITY = Statistic(DEBUG_TYPE, "NumElimIdentity", "Number of IV identities eliminated")
NUM_ELIM_OPERAND = Statistic(DEBUG_TYPE, "NumElimOperand", "Number of IV operands folded into a use")
NUM_FOLDED_USER = Statistic(DEBUG_TYPE, "NumFoldedUser", "Number of IV users folded into a constant")
NUM_ELIM_REM = Statistic(DEBUG_TYPE, "NumElimRem", "Number of IV remainder operations eliminated")
NUM_SIMPLIFIED_SDIV = Statistic(
    DEBUG_TYPE, "NumSimplifiedSDiv", "Number of IV signed division operations converted to unsigned division"
)
NUM_SIMPLIFIED_SREM = Statistic(
    DEBUG_TYPE, "NumSimplifiedSRem", "Number of IV signed remainder operations converted to unsigned remainder"
)
NUM_ELIM_CMP = Statistic(DEBUG_TYPE, "NumElimCmp", "Number of IV comparisons eliminated")

# LLVM's -scev-cheap-expansion-budget default.
SCEV_CHEAP_EXPANSION_BUDGET_DEFAULT = 4

_OVERFLOW_OPS = {
    "llvm.sadd.with.overflow": ("add", True),
    "llvm.uadd.with.overflow": ("add", False),
    "llvm.ssub.with.overflow": ("sub", True),
    "llvm.usub.with.overflow": ("sub", False),
    "llvm.smul.with.overflow": ("mul", True),
    "llvm.umul.with.overflow": ("mul", False),
}
_SATURATING_OPS = {
    "llvm.sadd.sat": ("add", True),
    "llvm.uadd.sat": ("add", False),
    "llvm.ssub.sat": ("sub", True),
    "llvm.usub.sat": ("sub", False),
}


class IVVisitor:
    """Told about each cast user of an IV that :func:`simplify_users_of_iv` meets (LLVM
    ``IVVisitor``); ``dt`` may be set by the subclass."""

    def __init__(self) -> None:
        self.dt: DominatorTree | None = None

    def visit_cast(self, cast: CastInst) -> None:
        raise NotImplementedError


# --- small shared helpers -------------------------------------------------------------------------


def _add(stat: Statistic, n: int = 1) -> None:
    try:
        stat.add(n)
    except Exception:  # statistics outside a pass run
        pass


def nearest_common_dominator_inst(dt: DominatorTree, a: Instruction, b: Instruction) -> Instruction:
    """LLVM ``DominatorTree::findNearestCommonDominator(Instruction*, Instruction*)``."""
    ba, bb = a.parent, b.parent
    assert ba is not None and bb is not None
    if ba is bb:
        return a if a.comes_before(b) else b
    if not dt.is_reachable(bb):
        return a
    if not dt.is_reachable(ba):
        return b
    dom = dt.nearest_common_dominator(ba, bb)
    if dom is ba:
        return a
    if dom is bb:
        return b
    assert dom is not None and dom.terminator is not None
    return dom.terminator


def find_common_dominator(insts: Sequence[Instruction], dt: DominatorTree) -> Instruction | None:
    """An instruction dominating every instruction of ``insts`` (LLVM ``findCommonDominator``)."""
    common: Instruction | None = None
    for inst in insts:
        common = inst if common is None else nearest_common_dominator_inst(dt, common, inst)
    return common


def _builder_before(inst: Instruction) -> IRBuilder:
    b = IRBuilder(folder=ConstantFolder())
    b.position_before(inst)
    b.debug_loc = inst.stable_debug_loc
    return b


# --- ScalarEvolution queries (the contract's names, with safe fallbacks) -------------------------


def se_scev_at_scope(se: ScalarEvolution, v: SCEV | Value, loop: Loop | None) -> SCEV:
    fn = getattr(se, "get_scev_at_scope", None)
    if fn is not None:
        r: SCEV = fn(v, loop)
        return r
    return v if isinstance(v, SCEV) else se.get_scev(v)


def se_is_known_predicate_at(se: ScalarEvolution, pred: Predicate, lhs: SCEV, rhs: SCEV, ctx: Instruction | None) -> bool:
    fn = getattr(se, "is_known_predicate_at", None)
    if fn is not None and ctx is not None:
        return bool(fn(pred, lhs, rhs, ctx))
    return se.is_known_predicate(pred, lhs, rhs)


def se_evaluate_predicate_at(
    se: ScalarEvolution, pred: Predicate, lhs: SCEV, rhs: SCEV, ctx: Instruction | None
) -> bool | None:
    fn = getattr(se, "evaluate_predicate_at", None)
    if fn is not None and ctx is not None:
        r: bool | None = fn(pred, lhs, rhs, ctx)
        return r
    if se.is_known_predicate(pred, lhs, rhs):
        return True
    if se.is_known_predicate(pred.inverse, lhs, rhs):
        return False
    return None


def se_loop_invariant_predicate(
    se: ScalarEvolution, pred: Predicate, lhs: SCEV, rhs: SCEV, loop: Loop, ctx: Instruction | None
) -> tuple[Predicate, SCEV, SCEV] | None:
    fn = getattr(se, "get_loop_invariant_predicate", None)
    if fn is None:
        return None
    r: tuple[Predicate, SCEV, SCEV] | None = fn(pred, lhs, rhs, loop, ctx)
    return r


def _scev_op(se: ScalarEvolution, opcode: str, lhs: SCEV, rhs: SCEV) -> SCEV:
    if opcode == "add":
        return se.get_add_expr([lhs, rhs])
    if opcode == "sub":
        return se.get_minus_scev(lhs, rhs)
    if opcode == "mul":
        return se.get_mul_expr([lhs, rhs])
    assert opcode == "udiv"
    return se.get_udiv_expr(lhs, rhs)


def se_will_not_overflow(
    se: ScalarEvolution, opcode: str, signed: bool, lhs: SCEV, rhs: SCEV, ctx: Instruction | None = None
) -> bool:
    """LLVM ``ScalarEvolution::willNotOverflow``: ``ext(lhs op rhs) == ext(lhs) op ext(rhs)`` in
    twice the width; failing that, a constant operand checked against the other's range (what
    LLVM's no-wrap strengthening of a sum or product with a constant would find)."""
    fn = getattr(se, "will_not_overflow", None)
    if fn is not None:
        return bool(fn(opcode, signed, lhs, rhs, ctx))
    ty = lhs.type
    if not isinstance(ty, IntegerType) or rhs.type is not ty:
        return False
    wide = ty.context.int_type(ty.width * 2)
    ext = se.get_sign_extend_expr if signed else se.get_zero_extend_expr
    a = ext(_scev_op(se, opcode, lhs, rhs), wide)
    b = _scev_op(se, opcode, ext(lhs, wide), ext(rhs, wide))
    if a is b:
        return True
    # What LLVM's extension folds find from ranges: for a sum or difference any operands,
    # for a product only one with a constant factor (StrengthenNoWrapFlags).
    rng = se.get_signed_range if signed else se.get_unsigned_range
    if opcode != "mul" or isinstance(rhs, SCEVConstant):
        region = ConstantRange.make_guaranteed_no_wrap_region(opcode, rng(rhs), not signed)
        if region.contains_range(rng(lhs)):
            return True
    if opcode == "mul" and isinstance(lhs, SCEVConstant):
        region = ConstantRange.make_guaranteed_no_wrap_region(opcode, rng(lhs), not signed)
        if region.contains_range(rng(rhs)):
            return True
    if ctx is None or opcode == "mul" or not isinstance(rhs, SCEVConstant):
        return False
    # The context-sensitive half of LLVM's willNotOverflow.
    c = rhs.value
    w = ty.width
    is_sub = opcode == "sub"
    neg = signed and rhs.signed_value < 0
    down = is_sub != neg
    mag = c
    if neg:
        if c == 1 << (w - 1):
            return False
        mag = (-rhs.signed_value) & ty.mask
    pred = Predicate.ICMP_SLE if signed else Predicate.ICMP_ULE
    if down:
        lo = (1 << (w - 1)) if signed else 0
        return se_is_known_predicate_at(se, pred, se.get_constant(ty, (lo + mag) & ty.mask), lhs, ctx)
    hi = ((1 << (w - 1)) - 1) if signed else ty.mask
    return se_is_known_predicate_at(se, pred, lhs, se.get_constant(ty, (hi - mag) & ty.mask), ctx)


def se_strengthened_no_wrap_flags(se: ScalarEvolution, bo: BinaryOperator) -> int | None:
    """LLVM ``getStrengthenedNoWrapFlagsFromBinOp``: the flags of ``bo`` plus those proved, or
    None when nothing new is proved."""
    fn = getattr(se, "get_strengthened_no_wrap_flags_from_bin_op", None)
    if fn is not None:
        r: int | None = fn(bo)
        return r
    if bo.nuw and bo.nsw:
        return None
    if bo.opcode not in ("add", "sub", "mul"):
        return None
    flags = (FLAG_NUW if bo.nuw else 0) | (FLAG_NSW if bo.nsw else 0)
    lhs = se.get_scev(bo.operands[0])
    rhs = se.get_scev(bo.operands[1])
    deduced = False
    if not bo.nuw and se_will_not_overflow(se, bo.opcode, False, lhs, rhs, bo):
        flags |= FLAG_NUW
        deduced = True
    if not bo.nsw and se_will_not_overflow(se, bo.opcode, True, lhs, rhs, bo):
        flags |= FLAG_NSW
        deduced = True
    return flags if deduced else None


def se_can_reuse_instruction(se: ScalarEvolution, s: SCEV, inst: Instruction, drop: list[Instruction]) -> bool:
    """LLVM ``ScalarEvolution::canReuseInstruction`` (ScalarEvolution's when it has one, else the
    expander's copy)."""
    fn = getattr(se, "can_reuse_instruction", None)
    if fn is not None:
        return bool(fn(s, inst, drop))
    from llvmpy_mid.transform.utils.scalar_evolution_expander_support import can_reuse_instruction

    return can_reuse_instruction(se, s, inst, drop)


def _drop_poison_generating_annotations(inst: Instruction) -> None:
    from llvmpy_mid.transform.instcombine.select_icmp import drop_poison_generating_annotations

    drop_poison_generating_annotations(inst)


def _copy_ir_flags(dst: Instruction, src: Instruction) -> None:
    from llvmpy_mid.transform.instcombine.common import copy_ir_flags

    copy_ir_flags(dst, src)


def _cheap_budget() -> int:
    from llvmpy_mid.transform.utils.scalar_evolution_expander import cheap_expansion_budget

    return cheap_expansion_budget()


def _is_safe_to_expand_at(rewriter: Any, s: SCEV, at: Instruction, se: ScalarEvolution) -> bool:
    if rewriter is not None:
        return bool(rewriter.is_safe_to_expand_at(s, at))
    from llvmpy_mid.transform.utils.scalar_evolution_expander import is_safe_to_expand_at

    return is_safe_to_expand_at(s, at, se)


def _is_high_cost(rewriter: Any, exprs: Sequence[SCEV], loop: Loop, budget: int, tti: Any, at: Instruction) -> bool:
    """Without an expander nothing is expanded (as if every expansion were too costly)."""
    if rewriter is None:
        return True
    return bool(rewriter.is_high_cost_expansion(list(exprs), loop, budget, tti, at))


def _is_loop_invariant_value(loop: Loop, v: Value) -> bool:
    return not (isinstance(v, Instruction) and loop.contains(v))


# --- the simplifier -----------------------------------------------------------------------------


class SimplifyIndvar:
    """Simplifies the users of the IVs of one loop (LLVM ``SimplifyIndvar``)."""

    def __init__(
        self,
        loop: Loop,
        se: ScalarEvolution,
        dt: DominatorTree,
        li: LoopInfo,
        tti: Any,
        rewriter: Any,
        dead: list[Value],
    ) -> None:
        self.loop = loop
        self.se = se
        self.dt = dt
        self.li = li
        self.tti = tti
        self.rewriter = rewriter
        self.dead = dead
        self.changed = False
        self.run_unswitching = False

    # --- folding an IV operand into its user ------------------------------------------------
    def fold_iv_user(self, use_inst: Instruction, iv_operand: Instruction) -> Value | None:
        """``udiv``/``lshr`` of ``iv + C`` by a constant that SCEV shows equal to the same
        operation on ``iv`` (LLVM ``foldIVUser``)."""
        se = self.se
        op = use_inst.opcode
        if op not in ("udiv", "lshr"):
            return None
        ops = use_inst.operands
        if iv_operand is not ops[0] or not isinstance(ops[1], ConstantInt):
            return None
        if not isinstance(iv_operand, BinaryOperator) or not isinstance(iv_operand.operands[1], ConstantInt):
            return None
        iv_src = iv_operand.operands[0]
        if not se.is_scevable(iv_src.type) or not isinstance(use_inst.type, IntegerType):
            return None
        d_val = ops[1].value
        width = use_inst.type.width
        if op == "lshr":
            if d_val >= width:
                return None
            d_val = 1 << d_val
        lhs = se.get_scev(iv_src)
        rhs = se.get_constant(use_inst.type, d_val)
        folded = se.get_udiv_expr(lhs, rhs)
        must_drop_exact = bool(getattr(use_inst, "exact", False)) and lhs is not se.get_mul_expr([folded, rhs])
        if se.get_scev(use_inst) is not folded:
            return None
        use_inst.set_operand(0, iv_src)
        if must_drop_exact:
            use_inst.drop_poison_generating_flags()  # type: ignore[attr-defined]
        _add(NUM_ELIM_OPERAND)
        self.changed = True
        if iv_operand.use_empty:
            self.dead.append(iv_operand)
        return iv_src

    # --- comparisons ------------------------------------------------------------------------
    def _icmp_operands(self, icmp: ICmpInst, iv_operand: Instruction) -> tuple[Predicate, SCEV, SCEV, int]:
        idx = 0
        pred = icmp.predicate
        if iv_operand is not icmp.operands[0]:
            idx = 1
            pred = pred.swapped
        assert icmp.parent is not None
        icmp_loop = self.li.loop_for(icmp.parent)
        s = se_scev_at_scope(self.se, icmp.operands[idx], icmp_loop)
        x = se_scev_at_scope(self.se, icmp.operands[1 - idx], icmp_loop)
        return pred, s, x, idx

    def make_iv_comparison_invariant(self, icmp: ICmpInst, iv_operand: Instruction) -> bool:
        """Rewrite ``icmp`` as an equivalent comparison of loop invariants computed in the
        preheader (LLVM ``makeIVComparisonInvariant``)."""
        preheader = self.loop.preheader
        if preheader is None:
            return False
        pred, s, x, _ = self._icmp_operands(icmp, iv_operand)
        lip = se_loop_invariant_predicate(self.se, pred, s, x, self.loop, icmp)
        if lip is None:
            return False
        inv_pred, inv_lhs, inv_rhs = lip
        ph_term = preheader.terminator
        assert ph_term is not None
        rw = self.rewriter
        if (
            _is_high_cost(rw, [inv_lhs, inv_rhs], self.loop, 2 * _cheap_budget(), self.tti, ph_term)
            or not _is_safe_to_expand_at(rw, inv_lhs, ph_term, self.se)
            or not _is_safe_to_expand_at(rw, inv_rhs, ph_term, self.se)
        ):
            return False
        new_lhs = rw.expand_code_for(inv_lhs, iv_operand.type, ph_term)
        new_rhs = rw.expand_code_for(inv_rhs, iv_operand.type, ph_term)
        icmp.predicate = inv_pred
        icmp.set_operand(0, new_lhs)
        icmp.set_operand(1, new_rhs)
        self.run_unswitching = True
        return True

    def eliminate_iv_comparison(self, icmp: ICmpInst, iv_operand: Instruction) -> None:
        """Fold, make invariant or make unsigned a comparison of an IV (LLVM
        ``eliminateIVComparison``)."""
        se = self.se
        original = icmp.predicate
        pred, s, x, _ = self._icmp_operands(icmp, iv_operand)
        users = [u for u in icmp.users if isinstance(u, Instruction)]
        ctx = find_common_dominator(users, self.dt) if users else icmp
        ev = se_evaluate_predicate_at(se, pred, s, x, ctx)
        if ev is not None:
            se.forget_value(icmp)
            icmp.replace_all_uses_with(ConstantInt.get(icmp.type, 1 if ev else 0))
            self.dead.append(icmp)
        elif self.make_iv_comparison_invariant(icmp, iv_operand):
            pass
        elif original.is_signed and se.is_known_non_negative(s) and se.is_known_non_negative(x):
            icmp.predicate = original.unsigned
        else:
            return
        _add(NUM_ELIM_CMP)
        self.changed = True

    # --- division and remainder -------------------------------------------------------------
    def eliminate_sdiv(self, sdiv: BinaryOperator) -> bool:
        """``sdiv`` of non-negative operands becomes ``udiv`` (LLVM ``eliminateSDiv``)."""
        se = self.se
        assert sdiv.parent is not None
        loop = self.li.loop_for(sdiv.parent)
        n = se_scev_at_scope(se, se.get_scev(sdiv.operands[0]), loop)
        d = se_scev_at_scope(se, se.get_scev(sdiv.operands[1]), loop)
        if not (se.is_known_non_negative(n) and se.is_known_non_negative(d)):
            return False
        udiv = BinaryOperator.create("udiv", sdiv.operands[0], sdiv.operands[1], exact=sdiv.exact)
        udiv.insert_before(sdiv)
        udiv.name = sdiv.name + ".udiv"
        sdiv.replace_all_uses_with(udiv)
        udiv.debug_loc = sdiv.debug_loc
        _add(NUM_SIMPLIFIED_SDIV)
        self.changed = True
        self.dead.append(sdiv)
        return True

    def _replace_srem_with_urem(self, rem: BinaryOperator) -> None:
        urem = BinaryOperator.create("urem", rem.operands[0], rem.operands[1])
        urem.insert_before(rem)
        urem.name = rem.name + ".urem"
        rem.replace_all_uses_with(urem)
        urem.debug_loc = rem.debug_loc
        _add(NUM_SIMPLIFIED_SREM)
        self.changed = True
        self.dead.append(rem)

    def _replace_rem_with_numerator(self, rem: BinaryOperator) -> None:
        rem.replace_all_uses_with(rem.operands[0])
        _add(NUM_ELIM_REM)
        self.changed = True
        self.dead.append(rem)

    def _replace_rem_with_numerator_or_zero(self, rem: BinaryOperator) -> None:
        from llvmpy_mid.ir.instructions.other import SelectInst

        n, d = rem.operands[0], rem.operands[1]
        icmp = ICmpInst(Predicate.ICMP_EQ, n, d)
        icmp.insert_before(rem)
        sel = SelectInst(icmp, ConstantInt.get(rem.type, 0), n)
        sel.insert_before(rem)
        sel.name = "iv.rem"
        rem.replace_all_uses_with(sel)
        sel.debug_loc = rem.debug_loc
        _add(NUM_ELIM_REM)
        self.changed = True
        self.dead.append(rem)

    def simplify_iv_remainder(self, rem: BinaryOperator, iv_operand: Instruction, is_signed: bool) -> None:
        """``i % n -> i`` for ``i`` in ``[0, n)``, ``(i+1) % n -> (i+1 == n) ? 0 : i+1``, and
        ``srem -> urem`` for non-negative operands (LLVM ``simplifyIVRemainder``)."""
        se = self.se
        n_val, d_val = rem.operands[0], rem.operands[1]
        used_as_numerator = iv_operand is n_val
        if not used_as_numerator and not is_signed:
            return
        assert rem.parent is not None
        loop = self.li.loop_for(rem.parent)
        n = se_scev_at_scope(se, se.get_scev(n_val), loop)
        if is_signed and not se.is_known_non_negative(n):
            return
        d = se_scev_at_scope(se, se.get_scev(d_val), loop)
        if used_as_numerator:
            lt = Predicate.ICMP_SLT if is_signed else Predicate.ICMP_ULT
            if se.is_known_predicate(lt, n, d):
                self._replace_rem_with_numerator(rem)
                return
            n_less_one = se.get_minus_scev(n, se.get_one(rem.type))
            if se.is_known_predicate(lt, n_less_one, d):
                self._replace_rem_with_numerator_or_zero(rem)
                return
        if not is_signed or not se.is_known_non_negative(d):
            return
        self._replace_srem_with_urem(rem)

    # --- intrinsics -------------------------------------------------------------------------
    def eliminate_overflow_intrinsic(self, wo: Instruction) -> bool:
        """``*.with.overflow`` that cannot overflow: plain ``nsw``/``nuw`` arithmetic and a
        ``false`` overflow bit (LLVM ``eliminateOverflowIntrinsic``)."""
        from llvmpy_mid.ir.instructions.vector import ExtractValueInst

        opcode, signed = _OVERFLOW_OPS[getattr(wo, "intrinsic_base", "")]
        a, b = wo.operands[0], wo.operands[1]
        se = self.se
        if not se.is_scevable(a.type) or not isinstance(a.type, IntegerType):
            return False
        if not se_will_not_overflow(se, opcode, signed, se.get_scev(a), se.get_scev(b)):
            return False
        new = BinaryOperator.create(opcode, a, b, nsw=signed, nuw=not signed)
        new.insert_before(wo)
        to_delete: list[Instruction] = []
        for u in list(wo.users):
            if isinstance(u, ExtractValueInst):
                idx = u.indices[0]
                if idx == 1:
                    u.replace_all_uses_with(ConstantInt.get(u.type, 0))
                else:
                    u.replace_all_uses_with(new)
                    new.debug_loc = u.debug_loc
                if u not in to_delete:
                    to_delete.append(u)
        for u in to_delete:
            u.erase_from_parent()
        if wo.use_empty:
            wo.erase_from_parent()
        self.changed = True
        return True

    def eliminate_saturating_intrinsic(self, si: Instruction) -> bool:
        """``*.sat`` that cannot saturate: plain ``nsw``/``nuw`` arithmetic (LLVM
        ``eliminateSaturatingIntrinsic``)."""
        opcode, signed = _SATURATING_OPS[getattr(si, "intrinsic_base", "")]
        a, b = si.operands[0], si.operands[1]
        se = self.se
        if not isinstance(a.type, IntegerType):
            return False
        if not se_will_not_overflow(se, opcode, signed, se.get_scev(a), se.get_scev(b)):
            return False
        bo = BinaryOperator.create(opcode, a, b, nsw=signed, nuw=not signed)
        bo.insert_before(si)
        bo.name = si.name
        si.replace_all_uses_with(bo)
        bo.debug_loc = si.debug_loc
        self.dead.append(si)
        self.changed = True
        return True

    # --- truncation -------------------------------------------------------------------------
    def eliminate_trunc(self, ti: CastInst) -> bool:
        """A ``trunc`` of the IV used only by comparisons against loop invariants: compare the
        IV with the extended invariant instead (LLVM ``eliminateTrunc``)."""
        se = self.se
        loop = self.loop
        iv = ti.operands[0]
        iv_ty = iv.type
        if not isinstance(iv_ty, IntegerType) or not isinstance(ti.type, IntegerType):
            return False
        iv_scev = se.get_scev(iv)
        ti_scev = se.get_scev(ti)
        sext_collapses = iv_scev is se.get_sign_extend_expr(ti_scev, iv_ty)
        zext_collapses = iv_scev is se.get_zero_extend_expr(ti_scev, iv_ty)
        if not sext_collapses and not zext_collapses:
            return False
        icmp_users: list[ICmpInst] = []
        for u in ti.users:
            if isinstance(u, Instruction) and u.parent is not None and not self.dt.is_reachable(u.parent):
                continue
            if not isinstance(u, ICmpInst):
                return False
            if u in icmp_users:
                continue
            ops = u.operands
            if not (ops[0] is ti and _is_loop_invariant_value(loop, ops[1])) and not (
                ops[1] is ti and _is_loop_invariant_value(loop, ops[0])
            ):
                return False
            if u.is_signed and not sext_collapses:
                return False
            if u.is_unsigned and not zext_collapses:
                return False
            icmp_users.append(u)

        def can_use_zext(ici: ICmpInst) -> bool:
            if ici.is_unsigned:
                return True
            if not zext_collapses:
                return False
            if ici.is_equality:
                return True
            return se.is_known_non_negative(se.get_scev(ici.operands[0])) and se.is_known_non_negative(
                se.get_scev(ici.operands[1])
            )

        from llvmpy_mid.transform.scalar.loop_deletion import make_loop_invariant

        for ici in icmp_users:
            swapped = _is_loop_invariant_value(loop, ici.operands[0])
            op1 = ici.operands[0] if swapped else ici.operands[1]
            b = _builder_before(ici)
            pred = ici.predicate
            if swapped:
                pred = pred.swapped
            if can_use_zext(ici):
                ext = b.create_zext(op1, iv_ty, "zext")
                pred = pred.unsigned
            else:
                ext = b.create_sext(op1, iv_ty, "sext")
            preheader = loop.preheader
            if preheader is not None and preheader.terminator is not None:
                make_loop_invariant(loop, ext, preheader.terminator, None)
            new_cmp = b.create_icmp(pred, iv, ext)
            ici.replace_all_uses_with(new_cmp)
            self.dead.append(ici)
        from llvmpy_mid.ir.constants import PoisonValue

        ti.replace_all_uses_with(PoisonValue.get(ti.type))
        self.dead.append(ti)
        return True

    # --- dispatch ---------------------------------------------------------------------------
    def eliminate_iv_user(self, use_inst: Instruction, iv_operand: Instruction) -> bool:
        """LLVM ``eliminateIVUser``."""
        if isinstance(use_inst, ICmpInst):
            self.eliminate_iv_comparison(use_inst, iv_operand)
            return True
        if isinstance(use_inst, BinaryOperator):
            op = use_inst.opcode
            if op in ("srem", "urem"):
                self.simplify_iv_remainder(use_inst, iv_operand, op == "srem")
                return True
            if op == "sdiv":
                return self.eliminate_sdiv(use_inst)
        base = getattr(use_inst, "intrinsic_base", "") if use_inst.opcode == "call" else ""
        if base in _OVERFLOW_OPS and self.eliminate_overflow_intrinsic(use_inst):
            return True
        if base in _SATURATING_OPS and self.eliminate_saturating_intrinsic(use_inst):
            return True
        if use_inst.opcode == "trunc" and isinstance(use_inst, CastInst) and self.eliminate_trunc(use_inst):
            return True
        return self.eliminate_identity_scev(use_inst, iv_operand)

    def replace_iv_user_with_loop_invariant(self, inst: Instruction) -> bool:
        """Replace ``inst`` by the expansion of its loop-invariant SCEV (LLVM
        ``replaceIVUserWithLoopInvariant``)."""
        se = self.se
        loop = self.loop
        if not se.is_scevable(inst.type):
            return False
        s = se.get_scev(inst)
        if not se.is_loop_invariant(s, loop):
            return False
        rw = self.rewriter
        if _is_high_cost(rw, [s], loop, _cheap_budget(), self.tti, inst):
            return False
        preheader = loop.preheader
        ip = preheader.terminator if preheader is not None else inst
        assert ip is not None
        if not _is_safe_to_expand_at(rw, s, ip, se):
            return False
        invariant = rw.expand_code_for(s, inst.type, ip)
        need_lcssa = not self.li.replacement_preserves_lcssa_form(inst, invariant)
        inst.replace_all_uses_with(invariant)
        if need_lcssa and isinstance(invariant, Instruction):
            from llvmpy_mid.transform.utils.lcssa import form_lcssa_for_instructions

            form_lcssa_for_instructions([invariant], self.dt, self.li)
        _add(NUM_FOLDED_USER)
        self.changed = True
        self.dead.append(inst)
        return True

    def replace_float_iv_with_integer_iv(self, use_inst: Instruction) -> bool:
        """``fptosi/fptoui(sitofp/uitofp(iv))`` becomes the IV (or its cast) when the float
        type holds every IV value exactly (LLVM ``replaceFloatIVWithIntegerIV``)."""
        op = use_inst.opcode
        if op not in ("sitofp", "uitofp"):
            return False
        iv_operand = use_inst.operands[0]
        if not isinstance(iv_operand, Instruction) or not isinstance(iv_operand.type, IntegerType):
            return False
        se = self.se
        iv = se.get_scev(iv_operand)
        if op == "sitofp":
            mask_bits = se.get_signed_range(iv).get_min_signed_bits()
        else:
            mask_bits = se.get_unsigned_range(iv).get_active_bits()
        fty = use_inst.type
        if not isinstance(fty, FloatingPointType):
            return self.changed
        dest_bits = fty.mantissa_bits
        if mask_bits <= dest_bits:
            for u in list(use_inst.users):
                if not isinstance(u, CastInst) or u.opcode not in ("fptosi", "fptoui"):
                    continue
                conv: Value
                if iv_operand.type is not u.type:
                    b = _builder_before(u)
                    name = iv_operand.name
                    if se.get_type_size_in_bits(iv_operand.type) > se.get_type_size_in_bits(u.type):
                        conv = b.create_trunc(iv_operand, u.type, name + ".trunc")
                    elif u.opcode == "fptoui" or op == "uitofp":
                        conv = b.create_zext(iv_operand, u.type, name + ".zext")
                    else:
                        conv = b.create_sext(iv_operand, u.type, name + ".sext")
                else:
                    conv = iv_operand
                u.replace_all_uses_with(conv)
                self.dead.append(u)
                _add(NUM_FOLDED_USER)
                self.changed = True
        return self.changed

    def eliminate_identity_scev(self, use_inst: Instruction, iv_operand: Instruction) -> bool:
        """A user with the same SCEV as its IV operand is replaced by it (LLVM
        ``eliminateIdentitySCEV``)."""
        se = self.se
        if not se.is_scevable(use_inst.type) or use_inst.type is not iv_operand.type:
            return False
        use_scev = se.get_scev(use_inst)
        if use_scev is not se.get_scev(iv_operand):
            return False
        if isinstance(use_inst, PHINode):
            if self.dt is None or not self.dt.dominates(iv_operand, use_inst):
                return False
        if not self.li.replacement_preserves_lcssa_form(use_inst, iv_operand):
            return False
        from llvmpy_mid.analysis.poison_tracking import implies_poison

        if not implies_poison(iv_operand, use_inst):
            drop: list[Instruction] = []
            if not se_can_reuse_instruction(se, use_scev, iv_operand, drop):
                return False
            for i in drop:
                _drop_poison_generating_annotations(i)
        se.forget_value(use_inst)
        use_inst.replace_all_uses_with(iv_operand)
        _add(NUM_ELIM_IDENTITY)
        self.changed = True
        self.dead.append(use_inst)
        return True

    # --- flags ------------------------------------------------------------------------------
    def strengthen_binary_op(self, bo: BinaryOperator, iv_operand: Instruction) -> bool:
        if bo.opcode in ("add", "sub", "mul", "shl") and self.strengthen_overflowing_operation(bo, iv_operand):
            return True
        return bo.opcode == "shl" and self.strengthen_right_shift(bo, iv_operand)

    def strengthen_overflowing_operation(self, bo: BinaryOperator, iv_operand: Instruction) -> bool:
        """Add the ``nuw``/``nsw`` SCEV proves (LLVM ``strengthenOverflowingOperation``)."""
        flags = se_strengthened_no_wrap_flags(self.se, bo)
        if flags is None:
            return False
        bo.nuw = bool(flags & FLAG_NUW)
        bo.nsw = bool(flags & FLAG_NSW)
        return True

    def strengthen_right_shift(self, bo: BinaryOperator, iv_operand: Instruction) -> bool:
        """``(x << iv) >> C`` is ``exact`` when ``iv >= C`` always (LLVM ``strengthenRightShift``)."""
        if bo.opcode != "shl":
            return False
        changed = False
        iv_range = self.se.get_unsigned_range(self.se.get_scev(iv_operand))
        for u in list(bo.users):
            if not isinstance(u, BinaryOperator) or u.opcode not in ("ashr", "lshr"):
                continue
            shl = u.operands[0]
            c = u.operands[1]
            if not isinstance(shl, BinaryOperator) or shl.opcode != "shl" or shl.operands[1] is not iv_operand:
                continue
            if not isinstance(c, ConstantInt):
                continue
            if not u.exact and iv_range.get_unsigned_min() >= c.value:
                u.exact = True
                changed = True
        return changed

    # --- the worklist -----------------------------------------------------------------------
    def push_iv_users(
        self, defn: Instruction, simplified: set[Instruction], worklist: list[tuple[Instruction, Instruction]]
    ) -> None:
        """Queue the users of ``defn`` in the loop not seen before (LLVM ``pushIVUsers``)."""
        loop = self.loop
        for u in list(defn.users):
            if not isinstance(u, Instruction) or u is defn:
                continue
            if not loop.contains(u):
                continue
            if u in simplified:
                continue
            simplified.add(u)
            worklist.append((u, defn))

    def _is_simple_iv_user(self, inst: Instruction) -> bool:
        se = self.se
        if not se.is_scevable(inst.type):
            return False
        s = se.get_scev(inst)
        return isinstance(s, SCEVAddRecExpr) and s.loop is self.loop

    def simplify_users(self, cur_iv: PHINode, visitor: IVVisitor | None = None) -> None:
        """LLVM ``SimplifyIndvar::simplifyUsers``."""
        from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead

        if not self.se.is_scevable(cur_iv.type):
            return
        simplified: set[Instruction] = set()
        worklist: list[tuple[Instruction, Instruction]] = []
        self.push_iv_users(cur_iv, simplified, worklist)
        while worklist:
            use_inst, iv_operand_or_none = worklist.pop()
            if use_inst.parent is None:
                continue
            if is_instruction_trivially_dead(use_inst):
                self.dead.append(use_inst)
                continue
            if use_inst is cur_iv:
                continue
            if self.replace_iv_user_with_loop_invariant(use_inst):
                continue
            if use_inst.opcode in ("ptrtoint", "trunc"):
                for u in list(use_inst.users):
                    if isinstance(u, Instruction) and self.replace_iv_user_with_loop_invariant(u):
                        break
            iv_operand: Instruction | None = iv_operand_or_none
            folds = 0
            while iv_operand is not None and folds <= len(simplified):
                folds += 1
                new_oper = self.fold_iv_user(use_inst, iv_operand)
                if new_oper is None:
                    break
                iv_operand = new_oper if isinstance(new_oper, Instruction) else None
            if iv_operand is None:
                continue
            if self.eliminate_iv_user(use_inst, iv_operand):
                self.push_iv_users(iv_operand, simplified, worklist)
                continue
            if isinstance(use_inst, BinaryOperator):
                if self.strengthen_binary_op(use_inst, iv_operand):
                    self.push_iv_users(iv_operand, simplified, worklist)
            if self.replace_float_iv_with_integer_iv(use_inst):
                self.push_iv_users(iv_operand, simplified, worklist)
                continue
            if visitor is not None and isinstance(use_inst, CastInst):
                visitor.visit_cast(use_inst)
                continue
            if self._is_simple_iv_user(use_inst):
                self.push_iv_users(use_inst, simplified, worklist)


def simplify_users_of_iv(
    cur_iv: PHINode,
    se: ScalarEvolution,
    dt: DominatorTree,
    li: LoopInfo,
    tti: Any,
    dead: list[Value],
    rewriter: Any,
    visitor: IVVisitor | None = None,
) -> tuple[bool, bool]:
    """Simplify the users of the header phi ``cur_iv`` (LLVM ``simplifyUsersOfIV``). Returns
    ``(changed, run_unswitching)``: whether the IR changed, and whether a comparison was made
    loop invariant (an opportunity for loop unswitching)."""
    assert cur_iv.parent is not None
    loop = li.loop_for(cur_iv.parent)
    if loop is None:
        return False, False
    siv = SimplifyIndvar(loop, se, dt, li, tti, rewriter, dead)
    siv.simplify_users(cur_iv, visitor)
    return siv.changed, siv.run_unswitching


def simplify_loop_ivs(loop: Loop, se: ScalarEvolution, dt: DominatorTree, li: LoopInfo, tti: Any, dead: list[Value]) -> bool:
    """Simplify the users of every header phi of ``loop`` (LLVM ``simplifyLoopIVs``)."""
    from llvmpy_mid.transform.utils.scalar_evolution_expander import SCEVExpander

    rewriter = SCEVExpander(se, se.data_layout, "indvars")
    changed = False
    phis = [i for i in loop.header.instructions if isinstance(i, PHINode)]
    for phi in phis:
        if phi.parent is None:
            continue
        c, _ = simplify_users_of_iv(phi, se, dt, li, tti, dead, rewriter)
        changed |= c
    return changed
