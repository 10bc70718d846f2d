"""``scalar-evolution``: closed forms of integer values in loops (LLVM 19.1.7
``lib/Analysis/ScalarEvolution.cpp``).

What: :class:`ScalarEvolution` maps IR values to uniqued expressions
(:mod:`~llvmpy_mid.analysis.scalar_evolution_expressions`): constants, opaque values, casts,
sums, products, unsigned quotients, min/max and add recurrences ``{start,+,step}<loop>`` for
the header phis of loops. From the exit conditions of a loop it computes how many times its
backedge is taken (:meth:`get_backedge_taken_count`, the constant and symbolic maxima), see
:mod:`~llvmpy_mid.analysis.scalar_evolution_exit_limits`. Transforms tell it what they changed
with :meth:`forget_loop`, :meth:`forget_value`, :meth:`forget_topmost_loop` and
:meth:`forget_block_and_loop_dispositions`.

The rule of this implementation: an answer is either exactly what LLVM would prove or the
honest "unknown" (:class:`SCEVCouldNotCompute`, an "unknown" range, ``False`` for a "known"
query). The expression folds follow LLVM's ``getAddExpr``/``getMulExpr``/extension folds in part
(constants folded, sums and products flattened, like terms combined, loop-invariant terms and
factors folded into recurrences, products of recurrences, extensions of non-wrapping
recurrences, see :mod:`~llvmpy_mid.analysis.scalar_evolution_extend`), with operands in LLVM's
complexity order (:mod:`~llvmpy_mid.analysis.scalar_evolution_complexity`). Ranges follow
``getRangeRef`` (recurrences bounded by the constant maximum count); no-wrap flags come from
the IR when its poison would be undefined, from ranges and from induction over backedge
conditions. Predicates use ranges, induction, and the branches dominating a block or a
backedge (:mod:`~llvmpy_mid.analysis.scalar_evolution_queries`, a subset of LLVM's
``isImpliedCond``); assumptions, guard intrinsics, ``applyLoopGuards``, pointer arithmetic
(GEPs are opaque values) and predicated counts are not used.

The analysis is kept by passes that preserve it (and the dominator tree, loop info and
assumption cache), as LLVM's ``ScalarEvolution::invalidate``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Sequence

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.loop_info import Loop, LoopAnalysis, LoopInfo
from llvmpy_mid.analysis.scalar_evolution_expressions import (
    CAST_KINDS,
    FLAG_ANY_WRAP,
    FLAG_NSW,
    FLAG_NUW,
    FLAG_NW,
    SCEV,
    SCEVAddRecExpr,
    SCEVCastExpr,
    SCEVConstant,
    SCEVCouldNotCompute,
    SCEVNAryExpr,
    SCEVTypes,
    SCEVUDivExpr,
    SCEVUnknown,
    walk_scev,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.types import IntegerType, Type
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, PreservedAnalyses

if TYPE_CHECKING:
    from llvmpy_mid.analysis.scalar_evolution_exit_limits import BackedgeTakenInfo
    from llvmpy_mid.ir.dominators import DominatorTree

__all__ = [
    "LOOP_COMPUTABLE",
    "LOOP_INVARIANT",
    "LOOP_VARIANT",
    "ScalarEvolution",
    "ScalarEvolutionAnalysis",
]

LOOP_VARIANT = 0
LOOP_INVARIANT = 1
LOOP_COMPUTABLE = 2

_COMMUTATIVE = frozenset(
    (SCEVTypes.ADD, SCEVTypes.MUL, SCEVTypes.UMAX, SCEVTypes.SMAX, SCEVTypes.UMIN, SCEVTypes.SMIN)
)


#: opcodes whose SCEVable operands are given expressions before the instruction itself
_OPERAND_FIRST_OPCODES = frozenset(
    ("add", "sub", "mul", "udiv", "urem", "sdiv", "srem", "or", "shl", "lshr", "ashr", "and", "trunc", "zext", "sext")
)


def _signed(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) else v


class ScalarEvolution:
    """The scalar evolution of one function (LLVM ``ScalarEvolution``)."""

    def __init__(self, function: Function, tli: Any, ac: Any, dt: DominatorTree, li: LoopInfo) -> None:
        self.function = function
        self.tli = tli
        self.ac = ac
        self.dt = dt
        self.li = li
        module = function.parent
        self.data_layout = module.data_layout if module is not None else None
        self._serial = 0
        self._uniques: dict[tuple[Any, ...], SCEV] = {}
        self._cnc = SCEVCouldNotCompute(SCEVTypes.COULD_NOT_COMPUTE, None, (), self._next_serial())
        self.value_map: dict[Value, SCEV] = {}
        self.backedge_taken_counts: dict[Loop, BackedgeTakenInfo] = {}
        self.loop_dispositions: dict[tuple[SCEV, Loop], int] = {}
        self.block_dispositions: dict[tuple[SCEV, BasicBlock], bool] = {}
        self.unsigned_ranges: dict[SCEV, ConstantRange] = {}
        self.signed_ranges: dict[SCEV, ConstantRange] = {}
        self.loop_properties: dict[Loop, tuple[bool, bool]] = {}
        self.values_at_scopes: dict[tuple[SCEV, Loop | None], SCEV] = {}
        self._scev_depth = 0
        self.walking_be_dominating_conds = False
        self._pending_phi_ranges: set[Value] = set()
        self.unsigned_wrap_via_induction_tried: set[SCEV] = set()
        self.signed_wrap_via_induction_tried: set[SCEV] = set()
        self._loops_with_new_counts: set[Loop] = set()
        self.constant_evolution_exit_values: dict[tuple[Value, int], Any] = {}

    # --- node construction --------------------------------------------------------------------
    def _next_serial(self) -> int:
        self._serial += 1
        return self._serial

    def get_could_not_compute(self) -> SCEVCouldNotCompute:
        return self._cnc

    def get_constant(self, ty: Type, value: int) -> SCEVConstant:
        assert isinstance(ty, IntegerType)
        w = ty.width
        v = value & ((1 << w) - 1)
        key = (SCEVTypes.CONSTANT, ty, v)
        s = self._uniques.get(key)
        if s is None:
            s = SCEVConstant(ty, v, w, ConstantInt.get(ty, v), self._next_serial())
            self._uniques[key] = s
        assert isinstance(s, SCEVConstant)
        return s

    def get_zero(self, ty: Type) -> SCEVConstant:
        return self.get_constant(ty, 0)

    def get_one(self, ty: Type) -> SCEVConstant:
        return self.get_constant(ty, 1)

    def get_minus_one(self, ty: Type) -> SCEVConstant:
        return self.get_constant(ty, -1)

    def get_unknown(self, v: Value) -> SCEV:
        key = (SCEVTypes.UNKNOWN, v)
        s = self._uniques.get(key)
        if s is None:
            s = SCEVUnknown(v.type, v, self._next_serial())
            self._uniques[key] = s
        return s

    def _node(self, cls: type[SCEV], kind: SCEVTypes, ty: Type | None, ops: Sequence[SCEV], flags: int = 0) -> SCEV:
        key = (kind, ty, tuple(op.serial for op in ops))
        s = self._uniques.get(key)
        if s is None:
            s = cls(kind, ty, tuple(ops), self._next_serial())
            self._uniques[key] = s
        s.flags |= flags
        return s

    def _group_by_complexity(self, ops: list[SCEV]) -> list[SCEV]:
        from llvmpy_mid.analysis.scalar_evolution_complexity import group_by_complexity

        return group_by_complexity(ops, self.li, self.dt)

    # --- types --------------------------------------------------------------------------------
    @staticmethod
    def is_scevable(ty: Type) -> bool:
        return ty.is_integer or ty.is_pointer

    def get_effective_scev_type(self, ty: Type) -> Type:
        """Integers stay; a pointer becomes its index-sized integer (LLVM
        ``getEffectiveSCEVType``)."""
        if isinstance(ty, IntegerType):
            return ty
        assert ty.is_pointer and self.data_layout is not None
        return self.data_layout.index_type(ty)

    def get_pointer_base(self, s: SCEV) -> SCEV:
        """The base pointer of a pointer expression (LLVM ``getPointerBase``)."""
        if s.type is None or not s.type.is_pointer:
            return s
        while True:
            if isinstance(s, SCEVAddRecExpr):
                s = s.start
            elif s.kind is SCEVTypes.ADD:
                ptrs = [o for o in s.operands if o.type is not None and o.type.is_pointer]
                if len(ptrs) != 1:
                    return s
                s = ptrs[0]
            else:
                return s

    def get_type_size_in_bits(self, ty: Type) -> int:
        if isinstance(ty, IntegerType):
            return ty.width
        assert self.data_layout is not None
        return self.data_layout.index_type_size_in_bits(ty)

    def _int_type(self, width: int) -> IntegerType:
        return self.function.type.context.int_type(width)

    # --- casts --------------------------------------------------------------------------------
    def get_truncate_expr(self, op: SCEV, ty: Type) -> SCEV:
        assert isinstance(ty, IntegerType) and isinstance(op.type, IntegerType)
        if op.type is ty:
            return op
        if isinstance(op, SCEVConstant):
            return self.get_constant(ty, op.value)
        if op.kind is SCEVTypes.TRUNCATE:
            return self.get_truncate_expr(op.operands[0], ty)
        if op.kind in (SCEVTypes.ZERO_EXTEND, SCEVTypes.SIGN_EXTEND):
            inner = op.operands[0]
            iw = self.get_type_size_in_bits(inner.type)  # type: ignore[arg-type]
            if iw == ty.width:
                return inner
            if iw < ty.width:
                if op.kind is SCEVTypes.ZERO_EXTEND:
                    return self.get_zero_extend_expr(inner, ty)
                return self.get_sign_extend_expr(inner, ty)
            return self.get_truncate_expr(inner, ty)
        if isinstance(op, SCEVAddRecExpr):
            return self.get_add_rec_expr([self.get_truncate_expr(o, ty) for o in op.operands], op.loop)
        return self._node(SCEVCastExpr, SCEVTypes.TRUNCATE, ty, [op])

    def get_zero_extend_expr(self, op: SCEV, ty: Type) -> SCEV:
        """``zext op to ty`` (LLVM ``getZeroExtendExpr``), see
        :mod:`~llvmpy_mid.analysis.scalar_evolution_extend`."""
        from llvmpy_mid.analysis.scalar_evolution_extend import get_zero_extend_expr

        return get_zero_extend_expr(self, op, ty)

    def get_sign_extend_expr(self, op: SCEV, ty: Type) -> SCEV:
        """``sext op to ty`` (LLVM ``getSignExtendExpr``)."""
        from llvmpy_mid.analysis.scalar_evolution_extend import get_sign_extend_expr

        return get_sign_extend_expr(self, op, ty)

    def get_any_extend_expr(self, op: SCEV, ty: Type) -> SCEV:
        """LLVM ``getAnyExtendExpr``: the extension (zero or sign) that folds, else the
        recurrence extended operand-wise, else sign-extension of an smax, else zero-extension."""
        if isinstance(op, SCEVConstant) and op.signed_value < 0:
            return self.get_sign_extend_expr(op, ty)
        if op.kind is SCEVTypes.TRUNCATE:
            x = op.operands[0]
            xw = self.get_type_size_in_bits(x.type)  # type: ignore[arg-type]
            tw = self.get_type_size_in_bits(ty)
            if xw < tw:
                return self.get_any_extend_expr(x, ty)
            return x if xw == tw else self.get_truncate_expr(x, ty)
        zext = self.get_zero_extend_expr(op, ty)
        if zext.kind is not SCEVTypes.ZERO_EXTEND:
            return zext
        sext = self.get_sign_extend_expr(op, ty)
        if sext.kind is not SCEVTypes.SIGN_EXTEND:
            return sext
        if isinstance(op, SCEVAddRecExpr):
            return self.get_add_rec_expr([self.get_any_extend_expr(o, ty) for o in op.operands], op.loop, FLAG_NW)
        if op.kind is SCEVTypes.SMAX:
            return sext
        return zext

    def get_truncate_or_zero_extend(self, op: SCEV, ty: Type) -> SCEV:
        src = self.get_type_size_in_bits(op.type)  # type: ignore[arg-type]
        dst = self.get_type_size_in_bits(ty)
        if src == dst:
            return op
        if src > dst:
            return self.get_truncate_expr(op, ty)
        return self.get_zero_extend_expr(op, ty)

    # --- n-ary expressions --------------------------------------------------------------------
    def get_add_expr(self, ops: Sequence[SCEV], flags: int = FLAG_ANY_WRAP) -> SCEV:
        """The sum of ``ops`` (LLVM ``getAddExpr``, a subset of its folds)."""
        if len(ops) == 1:
            return ops[0]
        ty = ops[0].type
        assert isinstance(ty, IntegerType)
        mask = ty.mask
        const = 0
        coeffs: dict[SCEV, int] = {}
        flat: list[SCEV] = []
        for op in ops:
            if op.kind is SCEVTypes.ADD:
                flat.extend(op.operands)
            else:
                flat.append(op)
        for op in flat:
            if isinstance(op, SCEVConstant):
                const = (const + op.value) & mask
                continue
            c, term = self._split_coefficient(op)
            coeffs[term] = (coeffs.get(term, 0) + c) & mask
        terms = self._rebuild_terms(coeffs, ty)
        folded = self._fold_add_recs(terms, const, ty, flags if len(flat) == len(ops) and len(terms) + (1 if const else 0) == len(flat) else 0)
        if folded is not None:
            terms = folded
            const = 0
        all_ops: list[SCEV] = []
        if const:
            all_ops.append(self.get_constant(ty, const))
        all_ops.extend(terms)
        if not all_ops:
            return self.get_zero(ty)
        if len(all_ops) == 1:
            return all_ops[0]
        all_ops = self._group_by_complexity(all_ops)
        if len(all_ops) != len(ops) or len(flat) != len(ops):
            flags = FLAG_ANY_WRAP
        return self._flagged_node(SCEVTypes.ADD, ty, all_ops, flags)

    def _flagged_node(self, kind: SCEVTypes, ty: IntegerType, ops: list[SCEV], flags: int) -> SCEV:
        """The uniqued add or mul of ``ops``; a new node gets ``flags`` strengthened, an existing
        one only when ``flags`` tell something new (LLVM ``getAddExpr``/``getMulExpr``)."""
        key = (kind, ty, tuple(op.serial for op in ops))
        s = self._uniques.get(key)
        if s is None:
            s = SCEVNAryExpr(kind, ty, tuple(ops), self._next_serial())
            self._uniques[key] = s
            s.flags = self._strengthen(flags, ops, kind)
        elif flags & ~s.flags:
            s.flags |= self._strengthen(flags, ops, kind)
        return s

    def _strengthen(self, flags: int, ops: Sequence[SCEV], kind: SCEVTypes = SCEVTypes.ADD_REC) -> int:
        """LLVM ``StrengthenNoWrapFlags``: nsw with non-negative operands is nuw; a sum or
        product of a constant and one operand whose range cannot overflow gets nsw/nuw; a
        product ``(x /u y) * y`` is nuw."""
        sign_bits = flags & (FLAG_NUW | FLAG_NSW)
        if sign_bits == FLAG_NSW and all(self.is_known_non_negative(o) for o in ops):
            flags |= FLAG_NUW
        sign_bits = flags & (FLAG_NUW | FLAG_NSW)
        if (
            sign_bits != FLAG_NUW | FLAG_NSW
            and kind in (SCEVTypes.ADD, SCEVTypes.MUL)
            and len(ops) == 2
            and isinstance(ops[0], SCEVConstant)
        ):
            opcode = "add" if kind is SCEVTypes.ADD else "mul"
            c = ops[0]
            crange = ConstantRange(c.bit_width, c.value)
            if not sign_bits & FLAG_NSW:
                if ConstantRange.make_guaranteed_no_wrap_region(opcode, crange, False).contains_range(
                    self.get_signed_range(ops[1])
                ):
                    flags |= FLAG_NSW
            if not sign_bits & FLAG_NUW:
                if ConstantRange.make_guaranteed_no_wrap_region(opcode, crange, True).contains_range(
                    self.get_unsigned_range(ops[1])
                ):
                    flags |= FLAG_NUW
        if kind is SCEVTypes.MUL and not flags & FLAG_NUW and len(ops) == 2:
            a, b = ops
            if (a.kind is SCEVTypes.UDIV and a.operands[1] is b) or (b.kind is SCEVTypes.UDIV and b.operands[1] is a):
                flags |= FLAG_NUW
        return flags

    def _rebuild_terms(self, coeffs: dict[SCEV, int], ty: IntegerType) -> list[SCEV]:
        return [t if c == 1 else self.get_mul_expr([self.get_constant(ty, c), t]) for t, c in coeffs.items() if c]

    def _split_coefficient(self, op: SCEV) -> tuple[int, SCEV]:
        """``(c, x)`` with ``op == c * x`` for a product with a constant first factor."""
        if op.kind is SCEVTypes.MUL and isinstance(op.operands[0], SCEVConstant):
            rest = op.operands[1:]
            if len(rest) == 1:
                return op.operands[0].value, rest[0]
            return op.operands[0].value, self._node(SCEVNAryExpr, SCEVTypes.MUL, op.type, list(rest))
        return 1, op

    def _fold_add_recs(self, terms: list[SCEV], const: int, ty: IntegerType, flags: int) -> list[SCEV] | None:
        """Merge recurrences of one loop and fold the terms available at the entry of the
        innermost recurrence's loop into its start; None when there is no recurrence."""
        recs = [t for t in terms if isinstance(t, SCEVAddRecExpr)]
        if not recs:
            return None
        others = [t for t in terms if not isinstance(t, SCEVAddRecExpr)]
        by_loop: dict[Loop, list[SCEVAddRecExpr]] = {}
        for r in recs:
            assert isinstance(r, SCEVAddRecExpr)
            by_loop.setdefault(r.loop, []).append(r)
        merged: list[SCEVAddRecExpr] = []
        for loop, group in by_loop.items():
            if len(group) == 1:
                merged.append(group[0])
                continue
            width = max(len(g.operands) for g in group)
            sums: list[SCEV] = []
            for k in range(width):
                parts = [g.operands[k] for g in group if k < len(g.operands)]
                sums.append(self.get_add_expr(parts))
            rec = self.get_add_rec_expr(sums, loop)
            if isinstance(rec, SCEVAddRecExpr):
                merged.append(rec)
            else:
                others.append(rec)
        if not merged:
            result = others[:]
            if const:
                result.append(self.get_constant(ty, const))
            return result
        merged.sort(key=lambda r: r.loop.depth, reverse=True)
        inner = merged[0]
        rest: list[SCEV] = [m for m in merged[1:]] + others
        foldable = [t for t in rest if self.is_available_at_loop_entry(t, inner.loop)]
        kept = [t for t in rest if not any(t is f for f in foldable)]
        if foldable or const:
            li_ops: list[SCEV] = ([self.get_constant(ty, const)] if const else []) + foldable
            # X + {A,+,B} --> {X + A,+,B}: the flags of the sum in the recurrence's scope
            # (strengthened), kept on the recurrence where it has them too (NW always), and on
            # the new start when entering X's scope enters the loop (LLVM getAddExpr).
            fl = 0
            if len(merged) == 1 and len(recs) == 1:
                fl = self._strengthen(flags, self._group_by_complexity(li_ops + [inner]), SCEVTypes.ADD)
            add_flags = fl
            if add_flags:
                defi = self._defining_scope_bound(li_ops)
                if not self._guaranteed_to_transfer_execution_to(defi, inner.loop.header.first_instruction):  # type: ignore[arg-type]
                    add_flags = 0
            new_start = self.get_add_expr([inner.start] + li_ops, add_flags)
            rec_flags = inner.flags & (fl | FLAG_NW)
            inner_new = self.get_add_rec_expr([new_start] + list(inner.operands[1:]), inner.loop, rec_flags)
        else:
            inner_new = inner
        return [inner_new] + kept

    def get_mul_expr(self, ops: Sequence[SCEV], flags: int = FLAG_ANY_WRAP) -> SCEV:
        """The product of ``ops`` (LLVM ``getMulExpr``, a subset of its folds)."""
        if len(ops) == 1:
            return ops[0]
        ty = ops[0].type
        assert isinstance(ty, IntegerType)
        mask = ty.mask
        const = 1
        rest: list[SCEV] = []
        for op in ops:
            parts = op.operands if op.kind is SCEVTypes.MUL else (op,)
            if op.kind is SCEVTypes.MUL:
                flags = FLAG_ANY_WRAP  # an inlined product's flags say nothing of the whole
            for p in parts:
                if isinstance(p, SCEVConstant):
                    const = (const * p.value) & mask
                else:
                    rest.append(p)
        if const == 0 or not rest:
            return self.get_constant(ty, const)
        if const != 1 and len(rest) == 1:
            only = rest[0]
            c = self.get_constant(ty, const)
            if only.kind is SCEVTypes.ADD:
                # C1 * (C2 + V) --> C1 * C2 + C1 * V
                if len(only.operands) == 2 and _constant_in_add_mul_chain(only):
                    return self.get_add_expr([self.get_mul_expr([c, o]) for o in only.operands])
                if c.is_all_ones():
                    negated = [self.get_mul_expr([c, o]) for o in only.operands]
                    if any(n.kind is not SCEVTypes.MUL for n in negated):
                        return self.get_add_expr(negated)
            elif isinstance(only, SCEVAddRecExpr) and c.is_all_ones():
                # Negation keeps no-self-wrap, and nsw unless the recurrence reaches INT_MIN.
                mask = FLAG_NW
                if only.has_flags(FLAG_NSW):
                    w = ty.width
                    if self.get_signed_range_min(only) != -(1 << (w - 1)):
                        mask |= FLAG_NSW
                return self.get_add_rec_expr([self.get_mul_expr([c, o]) for o in only.operands], only.loop, only.flags & mask)
        rest = self._group_by_complexity(rest)
        folded = self._fold_mul_add_rec(rest, const, ty, flags)
        if folded is not None:
            return folded
        all_ops = ([self.get_constant(ty, const)] if const != 1 else []) + rest
        if len(all_ops) == 1:
            return all_ops[0]
        return self._flagged_node(SCEVTypes.MUL, ty, all_ops, flags)

    def _fold_mul_add_rec(self, rest: list[SCEV], const: int, ty: IntegerType, flags: int) -> SCEV | None:
        """``LI * {Start,+,Step}`` --> ``{LI * Start,+,LI * Step}`` for the factors available
        at the entry of the first recurrence's loop (LLVM ``getMulExpr``)."""
        for idx, rec in enumerate(rest):
            if not isinstance(rec, SCEVAddRecExpr):
                continue
            li_ops: list[SCEV] = [self.get_constant(ty, const)] if const != 1 else []
            others: list[SCEV] = []
            for j, o in enumerate(rest):
                if j != idx and self.is_available_at_loop_entry(o, rec.loop):
                    li_ops.append(o)
                elif j != idx:
                    others.append(o)
            if not li_ops:
                return self._fold_mul_add_recs_of_one_loop(rest, idx, ty)
            scale = self.get_mul_expr(li_ops) if len(li_ops) > 1 else li_ops[0]
            rec_flags = rec.flags & self._strengthen(flags, [scale, rec], SCEVTypes.MUL)
            new_ops: list[SCEV] = []
            for op in rec.operands:
                new_ops.append(self.get_mul_expr([scale, op]))
                if rec_flags & FLAG_NSW and not rec_flags & FLAG_NUW:
                    region = ConstantRange.make_guaranteed_no_wrap_region("mul", self.get_signed_range(scale), False)
                    if not region.contains_range(self.get_signed_range(op)):
                        rec_flags &= ~FLAG_NSW
            new_rec = self.get_add_rec_expr(new_ops, rec.loop, rec_flags)
            if not others:
                return new_rec
            return self.get_mul_expr(others + [new_rec])
        return None

    def _fold_mul_add_recs_of_one_loop(self, rest: list[SCEV], idx: int, ty: IntegerType) -> SCEV | None:
        """The product of two recurrences of one loop as one recurrence (LLVM getMulExpr's
        binomial formula), or None."""
        from math import comb

        rec = rest[idx]
        assert isinstance(rec, SCEVAddRecExpr)
        ops = list(rest)
        modified = False
        other_idx = idx + 1
        while other_idx < len(ops) and isinstance(ops[other_idx], SCEVAddRecExpr):
            other = ops[other_idx]
            assert isinstance(other, SCEVAddRecExpr)
            if other.loop is not rec.loop or len(rec.operands) + len(other.operands) - 1 > 8:
                other_idx += 1
                continue
            n_a, n_b = len(rec.operands), len(other.operands)
            new_ops: list[SCEV] = []
            for x in range(n_a + n_b - 1):
                sum_ops: list[SCEV] = []
                for y in range(x, 2 * x + 1):
                    c1 = comb(x, 2 * x - y)
                    for z in range(max(y - x, y - n_a + 1), min(x + 1, n_b)):
                        coeff = c1 * comb(2 * x - y, x - z)
                        sum_ops.append(
                            self.get_mul_expr([self.get_constant(ty, coeff), rec.operands[y - z], other.operands[z]])
                        )
                new_ops.append(self.get_add_expr(sum_ops) if sum_ops else self.get_zero(ty))
            new_rec = self.get_add_rec_expr(new_ops, rec.loop)
            if len(ops) == 2:
                return new_rec
            ops[idx] = new_rec
            del ops[other_idx]
            modified = True
            if not isinstance(new_rec, SCEVAddRecExpr):
                break
            rec = new_rec
        if modified:
            return self.get_mul_expr(ops)
        return None

    def get_udiv_expr(self, lhs: SCEV, rhs: SCEV) -> SCEV:
        """``lhs /u rhs`` (LLVM ``getUDivExpr``, constant folds only)."""
        if isinstance(rhs, SCEVConstant):
            if rhs.value == 1:
                return lhs
            if rhs.value != 0 and isinstance(lhs, SCEVConstant):
                return self.get_constant(lhs.type, lhs.value // rhs.value)  # type: ignore[arg-type]
        if isinstance(lhs, SCEVConstant) and lhs.value == 0:
            return lhs
        return self._node(SCEVUDivExpr, SCEVTypes.UDIV, lhs.type, [lhs, rhs])

    def get_urem_expr(self, lhs: SCEV, rhs: SCEV) -> SCEV:
        """``lhs urem rhs`` (LLVM ``getURemExpr``): 0 for 1, a zero-extended truncation for a
        power of two, else ``lhs - (lhs /u rhs) * rhs``."""
        ty = lhs.type
        assert isinstance(ty, IntegerType)
        if isinstance(rhs, SCEVConstant):
            if rhs.value == 1:
                return self.get_zero(ty)
            if rhs.value and rhs.value & (rhs.value - 1) == 0:
                narrow = self._int_type(rhs.value.bit_length() - 1)
                return self.get_zero_extend_expr(self.get_truncate_expr(lhs, narrow), ty)
        mult = self.get_mul_expr([self.get_udiv_expr(lhs, rhs), rhs], FLAG_NUW)
        return self.get_minus_scev(lhs, mult, FLAG_NUW)

    def get_udiv_ceil_scev(self, n: SCEV, d: SCEV) -> SCEV:
        """``ceil(n / d)`` computed without overflow as ``(n != 0) ? ((n - 1) /u d) + 1 : 0``
        for constants (LLVM ``getUDivCeilSCEV``); symbolic operands give an umin-guarded sum."""
        if isinstance(n, SCEVConstant) and isinstance(d, SCEVConstant) and d.value:
            if n.value == 0:
                return n
            return self.get_constant(n.type, (n.value - 1) // d.value + 1)  # type: ignore[arg-type]
        one = self.get_one(n.type)  # type: ignore[arg-type]
        min_nz = self.get_umin_expr([n, one])
        return self.get_add_expr([self.get_udiv_expr(self.get_minus_scev(n, min_nz), d), min_nz])

    def get_add_rec_expr(self, ops: Sequence[SCEV], loop: Loop, flags: int = FLAG_ANY_WRAP) -> SCEV:
        ops = list(ops)
        while len(ops) > 1 and ops[-1].is_zero():
            ops.pop()
            flags = FLAG_ANY_WRAP
        if len(ops) == 1:
            return ops[0]
        if flags & (FLAG_NUW | FLAG_NSW):
            flags |= FLAG_NW
        flags = self._strengthen(flags, ops)
        if flags & FLAG_NW and not flags & FLAG_NUW and len(ops) == 2 and ops[0].is_zero() and self.is_known_non_negative(ops[1]):
            flags |= FLAG_NUW
        ty = ops[0].type
        key = (SCEVTypes.ADD_REC, ty, tuple(op.serial for op in ops), loop)
        s = self._uniques.get(key)
        if s is None:
            s = SCEVAddRecExpr(ty, tuple(ops), loop, self._next_serial())
            self._uniques[key] = s
        s.flags |= flags
        return s

    def get_min_max_expr(self, kind: SCEVTypes, ops: Sequence[SCEV]) -> SCEV:
        ty = ops[0].type
        assert isinstance(ty, IntegerType)
        w = ty.width
        flat: list[SCEV] = []
        for op in ops:
            flat.extend(op.operands if op.kind is kind else (op,))
        consts = [op for op in flat if isinstance(op, SCEVConstant)]
        rest: list[SCEV] = []
        for op in flat:
            if not isinstance(op, SCEVConstant) and not any(op is r for r in rest):
                rest.append(op)
        signed = kind in (SCEVTypes.SMAX, SCEVTypes.SMIN)
        is_max = kind in (SCEVTypes.UMAX, SCEVTypes.SMAX)
        folded: SCEVConstant | None = None
        if consts:
            key: Callable[[SCEVConstant], int] = (lambda c: c.signed_value) if signed else (lambda c: c.value)
            folded = max(consts, key=key) if is_max else min(consts, key=key)
            absorbing = (
                ((1 << (w - 1)) - 1 if signed else (1 << w) - 1)
                if is_max
                else ((1 << (w - 1)) if signed else 0)
            )
            neutral = (1 << (w - 1) if signed else 0) if is_max else (((1 << (w - 1)) - 1) if signed else (1 << w) - 1)
            if folded.value == absorbing:
                return folded
            if folded.value == neutral:
                folded = None
        all_ops = ([folded] if folded is not None else []) + self._group_by_complexity(rest)
        if not all_ops:
            return consts[0]
        if len(all_ops) == 1:
            return all_ops[0]
        return self._node(SCEVNAryExpr, kind, ty, all_ops)

    def get_umax_expr(self, ops: Sequence[SCEV]) -> SCEV:
        return self.get_min_max_expr(SCEVTypes.UMAX, ops)

    def get_smax_expr(self, ops: Sequence[SCEV]) -> SCEV:
        return self.get_min_max_expr(SCEVTypes.SMAX, ops)

    def get_umin_expr(self, ops: Sequence[SCEV], sequential: bool = False) -> SCEV:
        if not sequential:
            return self.get_min_max_expr(SCEVTypes.UMIN, ops)
        uniq: list[SCEV] = []
        for op in ops:
            if not any(op is u for u in uniq):
                uniq.append(op)
        if len(uniq) == 1:
            return uniq[0]
        if all(isinstance(op, SCEVConstant) for op in uniq):
            return min(uniq, key=lambda c: c.value)  # type: ignore[attr-defined]
        if uniq[0].is_zero():
            return uniq[0]
        return self._node(SCEVNAryExpr, SCEVTypes.SEQ_UMIN, uniq[0].type, uniq)

    def get_smin_expr(self, ops: Sequence[SCEV]) -> SCEV:
        return self.get_min_max_expr(SCEVTypes.SMIN, ops)

    def get_umin_from_mismatched_types(self, ops: Sequence[SCEV], sequential: bool = False) -> SCEV:
        width = max(self.get_type_size_in_bits(op.type) for op in ops)  # type: ignore[arg-type]
        ty = self._int_type(width)
        return self.get_umin_expr([self.get_truncate_or_zero_extend(op, ty) for op in ops], sequential)

    def get_umax_from_mismatched_types(self, ops: Sequence[SCEV]) -> SCEV:
        width = max(self.get_type_size_in_bits(op.type) for op in ops)  # type: ignore[arg-type]
        ty = self._int_type(width)
        return self.get_umax_expr([self.get_truncate_or_zero_extend(op, ty) for op in ops])

    def get_negative_scev(self, v: SCEV, flags: int = FLAG_ANY_WRAP) -> SCEV:
        return self.get_mul_expr([self.get_minus_one(v.type), v], flags)  # type: ignore[arg-type]

    def get_minus_scev(self, lhs: SCEV, rhs: SCEV, flags: int = FLAG_ANY_WRAP) -> SCEV:
        """``lhs + (-1 * rhs)`` (LLVM ``getMinusSCEV``): the negation is nsw when ``rhs`` is not
        the smallest signed value; an nsw subtraction stays nsw when that or ``lhs >= 0`` holds."""
        if lhs is rhs:
            return self.get_zero(lhs.type)  # type: ignore[arg-type]
        w = self.get_type_size_in_bits(rhs.type)  # type: ignore[arg-type]
        not_min = self.get_signed_range_min(rhs) != -(1 << (w - 1))
        add_flags = FLAG_ANY_WRAP
        if flags & FLAG_NSW and (not_min or self.is_known_non_negative(lhs)):
            add_flags = FLAG_NSW
        neg = self.get_negative_scev(rhs, FLAG_NSW if not_min else FLAG_ANY_WRAP)
        return self.get_add_expr([lhs, neg], add_flags)

    # --- from IR ------------------------------------------------------------------------------
    def get_existing_scev(self, v: Value) -> SCEV | None:
        return self.value_map.get(v)

    def get_scev(self, v: Value) -> SCEV:
        """The expression of ``v`` (an integer or pointer value), computed once."""
        s = self.value_map.get(v)
        if s is not None:
            return s
        # Operands first, with an explicit stack (LLVM createSCEVIter).
        stack: list[tuple[Value, bool]] = [(v, False)]
        self._scev_depth += 1
        try:
            while stack:
                cur, ready = stack.pop()
                if cur in self.value_map:
                    continue
                if not ready:
                    deps = self._operands_to_create(cur)
                    pending = [d for d in deps if d not in self.value_map]
                    if pending:
                        stack.append((cur, True))
                        stack.extend((d, False) for d in pending)
                        continue
                self.value_map[cur] = self._create_scev(cur)
            result = self.value_map[v]
        finally:
            self._scev_depth -= 1
        if self._scev_depth == 0 and self._loops_with_new_counts:
            self._forget_values_using_loops()
        return result

    def _forget_values_using_loops(self) -> None:
        """Drop the IR values' expressions that use recurrences of loops whose counts became
        known, so that they are rebuilt with what the counts prove (LLVM's
        ``forgetMemoizedResults`` of the loop users in ``getBackedgeTakenInfo``)."""
        loops = self._loops_with_new_counts
        self._loops_with_new_counts = set()

        def uses(s: SCEV) -> bool:
            return any(isinstance(n, SCEVAddRecExpr) and n.loop in loops for n in walk_scev(s))

        for val in [val for val, e in self.value_map.items() if uses(e)]:
            del self.value_map[val]

    def _operands_to_create(self, v: Value) -> list[Value]:
        if not isinstance(v, Instruction) or isinstance(v, PHINode):
            return []
        if not self.dt.is_reachable(v.parent):  # type: ignore[arg-type]
            return []
        op = v.opcode
        if op in _OPERAND_FIRST_OPCODES:
            return [o for o in v.operands if self.is_scevable(o.type)]
        if op == "call" and getattr(v, "intrinsic_name", "") in _MIN_MAX_INTRINSICS:
            return [v.operands[0], v.operands[1]]
        if op == "bitcast" and self.is_scevable(v.type) and self.is_scevable(v.operands[0].type):
            return [v.operands[0]]
        if op == "select" and v.type.is_pointer and isinstance(v.operands[0], ConstantInt):
            return [v.operands[1] if v.operands[0].value else v.operands[2]]
        if op == "select" and isinstance(v.type, IntegerType):
            deps = [v.operands[1], v.operands[2]]
            c = v.operands[0]
            if isinstance(c, Instruction) and c.opcode == "icmp":
                deps.extend(o for o in c.operands if self.is_scevable(o.type))
            return deps
        return []

    def _create_scev(self, v: Value) -> SCEV:
        if isinstance(v, ConstantInt):
            return self.get_constant(v.type, v.value)
        if not isinstance(v, Instruction):
            return self.get_unknown(v)
        if not self.dt.is_reachable(v.parent):  # type: ignore[arg-type]
            return self.get_unknown(v)
        ty = v.type
        op = v.opcode
        if op == "bitcast" and self.is_scevable(ty) and self.is_scevable(v.operands[0].type):
            # A bitcast between SCEVable types (pointer to pointer) changes no value.
            return self.get_scev(v.operands[0])
        if isinstance(v, PHINode) and ty.is_pointer:
            return self._create_node_for_phi(v)
        if op == "select" and ty.is_pointer and isinstance(v.operands[0], ConstantInt):
            # createNodeForSelectOrPHI: a constant condition picks an arm, whatever the type.
            return self.get_scev(v.operands[1] if v.operands[0].value else v.operands[2])
        if not isinstance(ty, IntegerType):
            return self.get_unknown(v)
        if isinstance(v, PHINode):
            return self._create_node_for_phi(v)
        ops = v.operands
        if op == "add":
            return self.get_add_expr([self.get_scev(ops[0]), self.get_scev(ops[1])], self._no_wrap_flags_from_ub(v))
        if op == "sub":
            return self.get_minus_scev(self.get_scev(ops[0]), self.get_scev(ops[1]), self._no_wrap_flags_from_ub(v))
        if op == "mul":
            return self.get_mul_expr([self.get_scev(ops[0]), self.get_scev(ops[1])], self._no_wrap_flags_from_ub(v))
        if op == "udiv":
            return self.get_udiv_expr(self.get_scev(ops[0]), self.get_scev(ops[1]))
        if op == "urem":
            return self.get_urem_expr(self.get_scev(ops[0]), self.get_scev(ops[1]))
        if op in ("sdiv", "srem"):
            # With both operands non-negative these are the unsigned operations.
            lhs, rhs = self.get_scev(ops[0]), self.get_scev(ops[1])
            if self.is_known_non_negative(lhs) and self.is_known_non_negative(rhs):
                if op == "sdiv":
                    return self.get_udiv_expr(lhs, rhs)
                return self.get_urem_expr(lhs, rhs)
            return self.get_unknown(v)
        if op == "or" and getattr(v, "disjoint", False):
            # A disjoint or is a sum (LLVM MatchBinaryOp).
            return self.get_add_expr([self.get_scev(ops[0]), self.get_scev(ops[1])])
        if op in ("shl", "lshr") and isinstance(ops[1], ConstantInt) and ops[1].value < ty.width:
            factor = self.get_constant(ty, 1 << ops[1].value)
            if op == "shl":
                return self.get_mul_expr([self.get_scev(ops[0]), factor])
            return self.get_udiv_expr(self.get_scev(ops[0]), factor)
        if op == "ashr" and isinstance(ops[1], ConstantInt) and ops[1].value < ty.width:
            folded = self._create_scev_for_ashr(ops[0], ops[1].value, ty)
            if folded is not None:
                return folded
        if op == "and" and isinstance(ops[1], ConstantInt):
            mask = ops[1].value
            if mask and (mask & (mask + 1)) == 0:
                bits = mask.bit_length()
                if bits == ty.width:
                    return self.get_scev(ops[0])
                narrow = self.get_truncate_expr(self.get_scev(ops[0]), self._int_type(bits))
                return self.get_zero_extend_expr(narrow, ty)
        if op == "trunc" and ops[0].type.is_integer:
            return self.get_truncate_expr(self.get_scev(ops[0]), ty)
        if op == "zext" and ops[0].type.is_integer:
            return self.get_zero_extend_expr(self.get_scev(ops[0]), ty)
        if op == "sext" and ops[0].type.is_integer:
            return self.get_sign_extend_expr(self.get_scev(ops[0]), ty)
        if op == "select":
            return self._create_node_for_select(v, ty)
        if op == "call":
            kind = _MIN_MAX_INTRINSICS.get(getattr(v, "intrinsic_name", ""))
            if kind is not None:
                return self.get_min_max_expr(kind, [self.get_scev(ops[0]), self.get_scev(ops[1])])
        return self.get_unknown(v)

    def _create_scev_for_ashr(self, lhs: Value, amount: int, ty: IntegerType) -> SCEV | None:
        """LLVM ``createSCEV``'s ``ashr X, C``: a shift by zero is X; ``ashr (shl A, n), m`` with
        n >= m is ``sext(trunc(A) * 2^(n-m))``, and ``ashr (add (shl A, n), c), m`` adds
        ``c >> m`` inside the extension."""
        if amount == 0:
            return self.get_scev(lhs)
        if not isinstance(lhs, Instruction):
            return None
        narrow = self._int_type(ty.width - amount)
        add_const: SCEV | None = None
        shl = lhs
        if lhs.opcode == "add":
            c = lhs.operands[1]
            shl_v = lhs.operands[0]
            if not isinstance(c, ConstantInt) or not isinstance(shl_v, Instruction) or shl_v.opcode != "shl":
                return None
            signed_c = _signed(c.value, ty.width) >> amount
            add_const = self.get_constant(narrow, signed_c & ((1 << narrow.width) - 1))
            shl = shl_v
        elif lhs.opcode != "shl":
            return None
        shl_amt = shl.operands[1]
        if not isinstance(shl_amt, ConstantInt) or not (amount <= shl_amt.value < ty.width):
            return None
        trunc = self.get_truncate_expr(self.get_scev(shl.operands[0]), narrow)
        expr = self.get_mul_expr([trunc, self.get_constant(narrow, 1 << (shl_amt.value - amount))])
        if add_const is not None:
            expr = self.get_add_expr([expr, add_const])
        return self.get_sign_extend_expr(expr, ty)

    def _create_node_for_select(self, v: Instruction, ty: IntegerType) -> SCEV:
        """LLVM ``createNodeForSelectOrPHI`` for a select: a constant condition picks an arm;
        ``a > b ? a + x : b + x`` is ``max(a, b) + x`` (and the min forms); ``x == 0 ? C + y :
        x + y`` is ``umax(x, C) + y`` for C <= 1."""
        from llvmpy_mid.ir.instructions.cmp import ICmpInst

        cond, tv, fv = v.operands[0], v.operands[1], v.operands[2]
        if isinstance(cond, ConstantInt):
            return self.get_scev(tv if cond.value else fv)
        if not isinstance(cond, ICmpInst):
            return self.get_unknown(v)
        lhs_v, rhs_v = cond.operands[0], cond.operands[1]
        if not isinstance(lhs_v.type, IntegerType) or lhs_v.type.width > ty.width:
            return self.get_unknown(v)
        pred = cond.predicate
        if pred in (Predicate.ICMP_SLT, Predicate.ICMP_SLE, Predicate.ICMP_ULT, Predicate.ICMP_ULE):
            lhs_v, rhs_v = rhs_v, lhs_v
            pred = pred.swapped
        if pred in (Predicate.ICMP_SGT, Predicate.ICMP_SGE, Predicate.ICMP_UGT, Predicate.ICMP_UGE):
            signed = pred.is_signed
            la, ra = self.get_scev(tv), self.get_scev(fv)
            ext = self.get_sign_extend_expr if signed else self.get_zero_extend_expr
            ls, rs = ext(self.get_scev(lhs_v), ty), ext(self.get_scev(rhs_v), ty)
            if self.get_minus_scev(la, ls) is self.get_minus_scev(ra, rs):
                mx = self.get_smax_expr([ls, rs]) if signed else self.get_umax_expr([ls, rs])
                return self.get_add_expr([mx, self.get_minus_scev(la, ls)])
            if self.get_minus_scev(la, rs) is self.get_minus_scev(ra, ls):
                mn = self.get_smin_expr([ls, rs]) if signed else self.get_umin_expr([ls, rs])
                return self.get_add_expr([mn, self.get_minus_scev(la, rs)])
            return self.get_unknown(v)
        if pred in (Predicate.ICMP_EQ, Predicate.ICMP_NE):
            if pred is Predicate.ICMP_NE:
                tv, fv = fv, tv
            if isinstance(rhs_v, ConstantInt) and rhs_v.value == 0:
                x = self.get_zero_extend_expr(self.get_scev(lhs_v), ty) if lhs_v.type is not ty else self.get_scev(lhs_v)
                y = self.get_minus_scev(self.get_scev(fv), x)
                c = self.get_minus_scev(self.get_scev(tv), y)
                if isinstance(c, SCEVConstant) and c.value <= 1:
                    return self.get_add_expr([self.get_umax_expr([x, c]), y])
        return self.get_unknown(v)

    def _no_wrap_flags_from_ub(self, inst: Instruction) -> int:
        """The nuw/nsw flags of ``inst`` when its poison would make the program undefined and
        it runs whenever its operands are defined (LLVM ``getNoWrapFlagsFromUB`` with
        ``isSCEVExprNeverPoison``)."""
        flags = 0
        if getattr(inst, "nuw", False):
            flags |= FLAG_NUW
        if getattr(inst, "nsw", False):
            flags |= FLAG_NSW
        if not flags:
            return 0
        from llvmpy_mid.analysis.poison_tracking import program_undefined_if_poison

        if not program_undefined_if_poison(inst):
            return 0
        bound = self._defining_scope_bound([self.get_scev(o) for o in inst.operands if self.is_scevable(o.type)])
        return flags if self._guaranteed_to_transfer_execution_to(bound, inst) else 0

    def _is_scev_expr_never_poison(self, inst: Instruction) -> bool:
        """LLVM ``isSCEVExprNeverPoison``: poison of ``inst`` is undefined behaviour, and
        ``inst`` runs whenever the scope defining its operands' expressions is entered."""
        from llvmpy_mid.analysis.poison_tracking import program_undefined_if_poison

        if not program_undefined_if_poison(inst):
            return False
        bound = self._defining_scope_bound([self.get_scev(o) for o in inst.operands if self.is_scevable(o.type)])
        return self._guaranteed_to_transfer_execution_to(bound, inst)

    def _is_add_rec_never_poison(self, inst: Instruction, loop: Loop) -> bool:
        """LLVM ``isAddRecNeverPoison``: ``inst`` (a post-increment value) being poison would
        make the loop's single exit, or an instruction dominating it, undefined."""
        from llvmpy_mid.analysis.poison_tracking import must_trigger_ub, propagates_poison

        if self._is_scev_expr_never_poison(inst):
            return True
        exiting = loop.exiting_block
        if exiting is None or not self.loop_has_no_abnormal_exits(loop):
            return False
        known: set[Value] = {inst}
        work: list[Instruction] = [inst]
        while work:
            poison = work.pop()
            for use in poison.uses:
                user = use.user
                if not isinstance(user, Instruction) or user.parent is None:
                    continue
                if must_trigger_ub(user, known) and self.dt.dominates_block(user.parent, exiting):
                    return True
                if propagates_poison(use) and loop.contains(user) and user not in known:
                    known.add(user)
                    work.append(user)
        return False

    def prove_no_wrap_via_constant_ranges(self, rec: SCEVAddRecExpr) -> int:
        """The no-wrap flags the ranges of an affine recurrence prove (LLVM
        ``proveNoWrapViaConstantRanges``)."""
        if not rec.is_affine():
            return FLAG_ANY_WRAP
        result = FLAG_ANY_WRAP
        step = rec.operands[1]
        w = self.get_type_size_in_bits(rec.type)  # type: ignore[arg-type]
        if not rec.has_flags(FLAG_NW):
            count = self.get_constant_max_backedge_taken_count(rec.loop)
            if isinstance(count, SCEVConstant):
                bits = count.value.bit_length() + self.get_signed_range(step).get_min_signed_bits()
                if bits <= w:
                    result |= FLAG_NW
        if not rec.has_flags(FLAG_NSW):
            region = ConstantRange.make_guaranteed_no_wrap_region("add", self.get_signed_range(step), False)
            if region.contains_range(self.get_signed_range(rec)):
                result |= FLAG_NSW
        if not rec.has_flags(FLAG_NUW):
            region = ConstantRange.make_guaranteed_no_wrap_region("add", self.get_unsigned_range(step), True)
            if region.contains_range(self.get_unsigned_range(rec)):
                result |= FLAG_NUW
        return result

    def _defining_scope_bound(self, ops: list[SCEV]) -> Instruction | None:
        seen: set[SCEV] = set()
        stack = list(ops)
        bound: Instruction | None = None
        while stack:
            s = stack.pop()
            if s in seen:
                continue
            seen.add(s)
            if len(seen) > 30:
                break
            defi: Instruction | None = None
            if isinstance(s, SCEVAddRecExpr):
                defi = s.loop.header.first_instruction
            elif isinstance(s, SCEVUnknown) and isinstance(s.value, Instruction):
                defi = s.value
            if defi is not None:
                if bound is None or self.dt.dominates(bound, defi):
                    bound = defi
            else:
                stack.extend(s.operands)
        if bound is None:
            bound = self.function.entry_block.first_instruction
        return bound

    def _guaranteed_to_transfer_execution_to(self, a: Instruction | None, b: Instruction) -> bool:
        from llvmpy_mid.analysis.poison_tracking import is_guaranteed_to_transfer_execution_to_successor as transfers

        if a is None:
            return False

        def run(start: Instruction | None, stop: Instruction | None) -> bool:
            node = start
            while node is not None and node is not stop:
                if not transfers(node):
                    return False
                node = node.next_instruction
            return True

        if a.parent is b.parent and a.comes_before(b) or a is b:
            return run(a, b)
        bb = b.parent
        assert bb is not None
        bloop = self.li.loop_for(bb)
        if bloop is not None and bloop.header is bb and bloop.preheader is a.parent:
            return run(a, None) and run(bb.first_instruction, b)
        return False

    def _create_node_for_phi(self, pn: PHINode) -> SCEV:
        bb = pn.parent
        assert bb is not None
        loop = self.li.loop_for(bb)
        if isinstance(pn.type, IntegerType) and loop is not None and loop.header is bb:
            rec = self._create_add_rec_from_phi(pn, loop)
            if rec is not None:
                return rec
        if self.data_layout is not None:
            # LLVM createNodeForPHI: a phi InstSimplify folds (one incoming value, as an LCSSA
            # phi) is the value it folds to.
            from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
            from llvmpy_mid.analysis.simplify_query import SimplifyQuery

            folded = simplify_instruction(pn, SimplifyQuery(self.data_layout, self.tli, self.dt, self.ac))
            if folded is not None and folded is not pn:
                return self.get_scev(folded)
        return self.get_unknown(pn)

    def _create_add_rec_from_phi(self, pn: PHINode, loop: Loop) -> SCEV | None:
        """``{start,+,step}<loop>`` for a header phi whose backedge value is the phi plus a
        loop-invariant step (LLVM ``createAddRecFromPHI``), or None."""
        start_v: Value | None = None
        be_v: Value | None = None
        for i in range(pn.num_incoming):
            pred = pn.get_incoming_block(i)
            val = pn.get_incoming_value(i)
            if loop.contains(pred):
                if be_v is None:
                    be_v = val
                elif be_v is not val:
                    return None
            else:
                if start_v is None:
                    start_v = val
                elif start_v is not val:
                    return None
        if start_v is None or be_v is None:
            return None
        symbolic = self.get_unknown(pn)
        before = set(self.value_map)
        self.value_map[pn] = symbolic
        try:
            be = self.get_scev(be_v)
        finally:
            # Forget everything computed while the phi stood for itself.
            for key in [k for k in self.value_map if k not in before]:
                del self.value_map[key]
        result: SCEV | None = None
        if be.kind is SCEVTypes.ADD and any(o is symbolic for o in be.operands):
            others = [o for o in be.operands if o is not symbolic]
            if len(others) == len(be.operands) - 1:
                accum = self.get_add_expr(others) if len(others) > 1 else others[0]
                accum_is_rec = isinstance(accum, SCEVAddRecExpr) and accum.loop is loop
                if (accum_is_rec or self.is_loop_invariant(accum, loop)) and not self._contains(accum, symbolic):
                    flags = FLAG_ANY_WRAP
                    if isinstance(be_v, Instruction) and be_v.opcode == "add" and be_v.operands[0] is pn:
                        if getattr(be_v, "nuw", False):
                            flags |= FLAG_NUW
                        if getattr(be_v, "nsw", False):
                            flags |= FLAG_NSW
                    start = self.get_scev(start_v)
                    if accum_is_rec:
                        # {start,+,{a,+,b}} is {start,+,a,+,b}; only NW is kept (LLVM getAddRecExpr).
                        result = self.get_add_rec_expr([start, *accum.operands], loop, flags & FLAG_NW)
                    else:
                        result = self.get_add_rec_expr([start, accum], loop, flags)
                    # The phi stands for the recurrence from here on (LLVM inserts it in the
                    # value map before proving more flags).
                    self.value_map[pn] = result
                    if isinstance(result, SCEVAddRecExpr):
                        proved = self.prove_no_wrap_via_constant_ranges(result)
                        if proved & ~result.flags:
                            self.get_add_rec_expr(list(result.operands), loop, proved)
                    # The post-increment recurrence gets the increment's flags when its
                    # overflow would be undefined behaviour.
                    if flags and isinstance(be_v, Instruction) and self._is_add_rec_never_poison(be_v, loop):
                        self.get_add_rec_expr([self.get_add_expr([start, accum]), accum], loop, flags)
        elif isinstance(be, SCEVAddRecExpr) and be.loop is loop and be.is_affine() and not self._contains(be, symbolic):
            start = self.get_scev(start_v)
            step = be.operands[1]
            if self.get_add_expr([start, step]) is be.start:
                result = self.get_add_rec_expr([start, step], loop)
        return result

    @staticmethod
    def _contains(s: SCEV, needle: SCEV) -> bool:
        return any(n is needle for n in walk_scev(s))

    # --- loop and block dispositions ----------------------------------------------------------
    def get_loop_disposition(self, s: SCEV, loop: Loop) -> int:
        key = (s, loop)
        d = self.loop_dispositions.get(key)
        if d is None:
            d = self._compute_loop_disposition(s, loop)
            self.loop_dispositions[key] = d
        return d

    def _compute_loop_disposition(self, s: SCEV, loop: Loop) -> int:
        k = s.kind
        if k is SCEVTypes.CONSTANT:
            return LOOP_INVARIANT
        if isinstance(s, SCEVUnknown):
            v = s.value
            if isinstance(v, Instruction):
                if v.parent is None:  # deleted since: nothing is known of it
                    return LOOP_VARIANT
                return LOOP_VARIANT if loop.contains(v) else LOOP_INVARIANT
            return LOOP_INVARIANT
        if isinstance(s, SCEVAddRecExpr):
            if s.loop is loop:
                return LOOP_COMPUTABLE
            if self.dt.dominates_block(loop.header, s.loop.header):
                return LOOP_VARIANT
            if s.loop.contains(loop):
                return LOOP_INVARIANT
            for op in s.operands:
                if not self.is_loop_invariant(op, loop):
                    return LOOP_VARIANT
            return LOOP_INVARIANT
        if k is SCEVTypes.COULD_NOT_COMPUTE:
            return LOOP_VARIANT
        has_varying = False
        for op in s.operands:
            d = self.get_loop_disposition(op, loop)
            if d == LOOP_VARIANT:
                return LOOP_VARIANT
            if d == LOOP_COMPUTABLE:
                has_varying = True
        return LOOP_COMPUTABLE if has_varying else LOOP_INVARIANT

    def is_loop_invariant(self, s: SCEV, loop: Loop) -> bool:
        return self.get_loop_disposition(s, loop) == LOOP_INVARIANT

    def has_computable_loop_evolution(self, s: SCEV, loop: Loop) -> bool:
        return self.get_loop_disposition(s, loop) == LOOP_COMPUTABLE

    def properly_dominates(self, s: SCEV, bb: BasicBlock) -> bool:
        """Every value ``s`` uses is available at the start of ``bb`` (LLVM's
        ``properlyDominates`` block disposition)."""
        key = (s, bb)
        d = self.block_dispositions.get(key)
        if d is None:
            d = self._compute_properly_dominates(s, bb)
            self.block_dispositions[key] = d
        return d

    def _compute_properly_dominates(self, s: SCEV, bb: BasicBlock) -> bool:
        if isinstance(s, SCEVUnknown):
            v = s.value
            if isinstance(v, Instruction):
                if v.parent is None:
                    return False
                return self.dt.properly_dominates(v.parent, bb)
            return True
        if isinstance(s, SCEVAddRecExpr) and not self.dt.dominates_block(s.loop.header, bb):
            return False
        return all(self.properly_dominates(op, bb) for op in s.operands)

    def is_available_at_loop_entry(self, s: SCEV, loop: Loop) -> bool:
        return self.is_loop_invariant(s, loop) and self.properly_dominates(s, loop.header)

    # --- ranges -------------------------------------------------------------------------------
    def get_unsigned_range(self, s: SCEV) -> ConstantRange:
        r = self.unsigned_ranges.get(s)
        if r is None:
            r = self._compute_range(s, False)
            self.unsigned_ranges[s] = r
        return r

    def get_signed_range(self, s: SCEV) -> ConstantRange:
        r = self.signed_ranges.get(s)
        if r is None:
            r = self._compute_range(s, True)
            self.signed_ranges[s] = r
        return r

    def _range(self, s: SCEV, signed: bool) -> ConstantRange:
        return self.get_signed_range(s) if signed else self.get_unsigned_range(s)

    def _compute_range(self, s: SCEV, signed: bool) -> ConstantRange:
        """LLVM ``getRangeRef``: a conservative range from the trailing zeros / constant multiple
        of ``s``, intersected with the range of its kind (operands taken with the same
        signedness hint, as LLVM does)."""
        from llvmpy_mid.analysis.constant_range import PreferredRangeType

        w = self.get_type_size_in_bits(s.type)  # type: ignore[arg-type]
        if isinstance(s, SCEVConstant):
            return ConstantRange(w, s.value)
        kind = PreferredRangeType.SIGNED if signed else PreferredRangeType.UNSIGNED
        k = s.kind
        conservative = ConstantRange.get_full(w)
        if k is SCEVTypes.COULD_NOT_COMPUTE:
            return conservative
        if not signed:
            multiple = self.get_constant_multiple(s) or 1
            rem = ((1 << w) - 1) % multiple
            if rem:
                conservative = ConstantRange(w, 0, ((1 << w) - 1) - rem + 1)
        else:
            tz = self.get_min_trailing_zeros(s)
            if tz:
                hi = (((1 << (w - 1)) - 1) >> tz) << tz
                conservative = ConstantRange(w, 1 << (w - 1), hi + 1)
        if isinstance(s, SCEVUnknown):
            return self._unknown_range(s, signed, w, conservative)
        if isinstance(s, SCEVAddRecExpr):
            return conservative.intersect_with(self._add_rec_range(s, signed, w), kind)
        ops = s.operands
        if k is SCEVTypes.ADD:
            r = self._range(ops[0], signed)
            nuw = s.has_flags(FLAG_NUW)
            nsw = s.has_flags(FLAG_NSW)
            for op in ops[1:]:
                r = r.add_with_no_wrap(self._range(op, signed), nuw, nsw, kind)
        elif k is SCEVTypes.MUL:
            r = self._range(ops[0], signed)
            for op in ops[1:]:
                r = r.multiply(self._range(op, signed))
        elif k is SCEVTypes.UDIV:
            r = self._range(ops[0], signed).udiv(self._range(ops[1], signed))
        elif k is SCEVTypes.ZERO_EXTEND:
            r = self._range(ops[0], signed).zero_extend(w)
        elif k is SCEVTypes.SIGN_EXTEND:
            r = self._range(ops[0], signed).sign_extend(w)
        elif k is SCEVTypes.TRUNCATE:
            r = self._range(ops[0], signed).truncate(w)
        elif k in (SCEVTypes.UMAX, SCEVTypes.UMIN, SCEVTypes.SMAX, SCEVTypes.SMIN, SCEVTypes.SEQ_UMIN):
            fn = {
                SCEVTypes.UMAX: ConstantRange.umax,
                SCEVTypes.UMIN: ConstantRange.umin,
                SCEVTypes.SMAX: ConstantRange.smax,
                SCEVTypes.SMIN: ConstantRange.smin,
                SCEVTypes.SEQ_UMIN: ConstantRange.umin,
            }[k]
            r = self._range(ops[0], signed)
            for op in ops[1:]:
                r = fn(r, self._range(op, signed))
        else:
            return conservative
        return conservative.intersect_with(r, kind)

    def _unknown_range(self, s: SCEVUnknown, signed: bool, w: int, conservative: ConstantRange) -> ConstantRange:
        from llvmpy_mid.analysis.constant_range import PreferredRangeType

        kind = PreferredRangeType.SIGNED if signed else PreferredRangeType.UNSIGNED
        v = s.value
        if isinstance(v, Instruction) and v.parent is None:
            return conservative
        if isinstance(v, Instruction):
            md = v.get_metadata("range")
            if md is not None:
                conservative = conservative.intersect_with(ConstantRange.from_metadata(md), kind)
        if not isinstance(v.type, IntegerType) or self.data_layout is None:
            return conservative
        from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits
        from llvmpy_mid.analysis.num_sign_bits import compute_num_sign_bits

        known = compute_known_bits(v, self.data_layout)
        umin, umax = known.one, ((1 << w) - 1) & ~known.zero
        if umin != (umax + 1) & ((1 << w) - 1):
            conservative = conservative.intersect_with(ConstantRange(w, umin, umax + 1), kind)
        ns = compute_num_sign_bits(v, self.data_layout)
        zero, one = known.zero, known.one
        if ns > 1:
            hi_mask = ((1 << ns) - 1) << (w - ns)
            if zero & hi_mask:
                zero |= hi_mask
            if one & hi_mask:
                one |= hi_mask
        sign = 1 << (w - 1)
        # The smallest signed value: sign bit set unless known zero, other bits at their minimum.
        smin_u = (one | (sign if not zero & sign else 0)) & ((1 << w) - 1)
        smax_u = (((1 << w) - 1) & ~zero) & ~(sign if not one & sign else 0)
        if smin_u != (smax_u + 1) & ((1 << w) - 1):
            conservative = conservative.intersect_with(ConstantRange(w, smin_u, smax_u + 1), kind)
        if ns > 1:
            lo = _signed(sign, w) >> (ns - 1)
            hi = ((sign - 1) >> (ns - 1)) + 1
            conservative = conservative.intersect_with(ConstantRange(w, lo, hi), kind)
        if isinstance(v, PHINode) and v not in self._pending_phi_ranges:
            self._pending_phi_ranges.add(v)
            try:
                union = ConstantRange.get_empty(w)
                for op in v.operands:
                    union = union.union_with(self._range(self.get_scev(op), signed))
                    if union.is_full_set():
                        break
            finally:
                self._pending_phi_ranges.discard(v)
            conservative = conservative.intersect_with(union, kind)
        return conservative

    def get_constant_multiple(self, s: SCEV) -> int:
        """The largest constant known to divide ``s`` (0 for zero; LLVM ``getConstantMultiple``)."""
        w = self.get_type_size_in_bits(s.type)  # type: ignore[arg-type]
        mask = (1 << w) - 1

        def shifted(tz: int) -> int:
            return (1 << tz) if tz < w else 0

        k = s.kind
        if isinstance(s, SCEVConstant):
            return s.value
        if k in (SCEVTypes.UDIV, SCEVTypes.VSCALE, SCEVTypes.COULD_NOT_COMPUTE):
            return 1
        if k is SCEVTypes.TRUNCATE:
            return shifted(min(self.get_min_trailing_zeros(s.operands[0]), w))
        if k is SCEVTypes.ZERO_EXTEND or k is SCEVTypes.PTR_TO_INT:
            return self.get_constant_multiple(s.operands[0])
        if k is SCEVTypes.SIGN_EXTEND:
            inner = s.operands[0]
            iw = self.get_type_size_in_bits(inner.type)  # type: ignore[arg-type]
            return _signed(self.get_constant_multiple(inner), iw) & mask
        if k is SCEVTypes.MUL:
            if s.has_flags(FLAG_NUW):
                res = 1
                for op in s.operands:
                    res = res * self.get_constant_multiple(op) & mask
                return res
            return shifted(sum(self.get_min_trailing_zeros(op) for op in s.operands))
        if k in (SCEVTypes.ADD, SCEVTypes.ADD_REC):
            if s.has_flags(FLAG_NUW):
                return self._gcd_multiple(s)
            return shifted(min(self.get_min_trailing_zeros(op) for op in s.operands))
        if k in (SCEVTypes.UMAX, SCEVTypes.SMAX, SCEVTypes.UMIN, SCEVTypes.SMIN, SCEVTypes.SEQ_UMIN):
            return self._gcd_multiple(s)
        if isinstance(s, SCEVUnknown) and isinstance(s.value.type, IntegerType) and self.data_layout is not None:
            from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits

            if isinstance(s.value, Instruction) and s.value.parent is None:
                return 1
            known = compute_known_bits(s.value, self.data_layout)
            tz = 0
            while tz < w and known.zero >> tz & 1:
                tz += 1
            return shifted(tz)
        return 1

    def _gcd_multiple(self, s: SCEV) -> int:
        from math import gcd

        res = self.get_constant_multiple(s.operands[0])
        for op in s.operands[1:]:
            res = gcd(res, self.get_constant_multiple(op))
        return res

    def get_min_trailing_zeros(self, s: SCEV) -> int:
        w = self.get_type_size_in_bits(s.type)  # type: ignore[arg-type]
        m = self.get_constant_multiple(s)
        if m == 0:
            return w
        return min((m & -m).bit_length() - 1, w)

    def _add_rec_range(self, rec: SCEVAddRecExpr, signed: bool, w: int) -> ConstantRange:
        """LLVM ``getRangeRef`` of an add recurrence: bounds from its no-wrap flags and, for an
        affine one, ``getRangeForAffineAR`` with the loop's constant maximum count."""
        from llvmpy_mid.analysis.constant_range import PreferredRangeType

        kind = PreferredRangeType.SIGNED if signed else PreferredRangeType.UNSIGNED
        result = ConstantRange.get_full(w)
        smin = 1 << (w - 1)
        if rec.has_flags(FLAG_NUW):
            lo = self.get_unsigned_range_min(rec.start)
            if lo:
                result = result.intersect_with(ConstantRange(w, lo, 0), kind)
        if rec.has_flags(FLAG_NSW):
            steps = rec.operands[1:]
            if all(self.is_known_non_negative(o) for o in steps):
                result = result.intersect_with(
                    ConstantRange.get_non_empty(w, self.get_signed_range_min(rec.start), smin), kind
                )
            elif all(self.is_known_non_positive(o) for o in steps):
                result = result.intersect_with(
                    ConstantRange.get_non_empty(w, smin, self.get_signed_range_max(rec.start) + 1), kind
                )
        if rec.is_affine():
            max_be = self.get_constant_max_backedge_taken_count(rec.loop)
            if isinstance(max_be, SCEVConstant):
                count = max_be.value
                if max_be.bit_width == w or count.bit_length() <= w:
                    result = result.intersect_with(self._range_for_affine_ar(rec.start, rec.operands[1], count, w), kind)
        return result

    def _range_for_affine_ar(self, start: SCEV, step: SCEV, max_be: int, w: int) -> ConstantRange:
        """LLVM ``getRangeForAffineAR``."""
        from llvmpy_mid.analysis.constant_range import PreferredRangeType

        start_s = self.get_signed_range(start)
        step_s = self.get_signed_range(step)
        sr = _range_for_affine_ar_helper(step_s.signed_min(), start_s, max_be, w, True)
        sr = sr.union_with(_range_for_affine_ar_helper(step_s.signed_max(), start_s, max_be, w, True))
        ur = _range_for_affine_ar_helper(
            self.get_unsigned_range_max(step), self.get_unsigned_range(start), max_be, w, False
        )
        return sr.intersect_with(ur, PreferredRangeType.SMALLEST)

    def get_unsigned_range_max(self, s: SCEV) -> int:
        return self.get_unsigned_range(s).get_unsigned_max()

    def get_unsigned_range_min(self, s: SCEV) -> int:
        return self.get_unsigned_range(s).get_unsigned_min()

    def get_signed_range_max(self, s: SCEV) -> int:
        """The largest signed value of ``s`` (a Python signed int)."""
        return self.get_signed_range(s).signed_max()

    def get_signed_range_min(self, s: SCEV) -> int:
        """The smallest signed value of ``s`` (a Python signed int)."""
        return self.get_signed_range(s).signed_min()

    def is_known_negative(self, s: SCEV) -> bool:
        return self.get_signed_range_max(s) < 0

    def is_known_positive(self, s: SCEV) -> bool:
        return self.get_signed_range_min(s) > 0

    def is_known_non_negative(self, s: SCEV) -> bool:
        return self.get_signed_range_min(s) >= 0

    def is_known_non_positive(self, s: SCEV) -> bool:
        return self.get_signed_range_max(s) <= 0

    def is_known_non_zero(self, s: SCEV) -> bool:
        return self.is_known_via_non_recursive_reasoning(Predicate.ICMP_NE, s, self.get_zero(s.type))  # type: ignore[arg-type]

    def is_known_predicate(self, pred: Predicate, lhs: SCEV, rhs: SCEV) -> bool:
        """True when ``lhs pred rhs`` holds for every value (LLVM ``isKnownPredicate``: the
        operands simplified, then induction over the loops of their recurrences, then ranges;
        False = unknown)."""
        from llvmpy_mid.analysis.scalar_evolution_exit_limits import _simplify_icmp_operands
        from llvmpy_mid.analysis.scalar_evolution_queries import is_known_via_induction

        if lhs.type is rhs.type:
            pred, lhs, rhs = _simplify_icmp_operands(self, pred, lhs, rhs)
        if lhs.type is rhs.type and is_known_via_induction(self, pred, lhs, rhs):
            return True
        return self.is_known_via_non_recursive_reasoning(pred, lhs, rhs)

    def is_known_via_non_recursive_reasoning(self, pred: Predicate, lhs: SCEV, rhs: SCEV) -> bool:
        """``lhs pred rhs`` from constants, ranges and no-wrap sums with constants alone (LLVM
        ``isKnownViaNonRecursiveReasoning``)."""
        return self._known_via_ranges(pred, lhs, rhs) or self._known_via_no_overflow(pred, lhs, rhs)

    def _known_via_no_overflow(self, pred: Predicate, lhs: SCEV, rhs: SCEV) -> bool:
        """LLVM ``isKnownPredicateViaNoOverflow``: ``(X + C1)<nw> pred (X + C2)<nw>``."""
        if pred in (Predicate.ICMP_SGE, Predicate.ICMP_SGT, Predicate.ICMP_UGE, Predicate.ICMP_UGT):
            pred, lhs, rhs = pred.swapped, rhs, lhs
        if pred not in (Predicate.ICMP_SLE, Predicate.ICMP_SLT, Predicate.ICMP_ULE, Predicate.ICMP_ULT):
            return False
        if not isinstance(lhs.type, IntegerType) or lhs.type is not rhs.type:
            return False
        need = FLAG_NSW if pred.is_signed else FLAG_NUW

        def split(x: SCEV) -> tuple[SCEVConstant, SCEV] | None:
            if x.kind is SCEVTypes.ADD and len(x.operands) == 2:
                c, rest = x.operands
                if not isinstance(c, SCEVConstant) or not x.has_flags(need):
                    return None
                return c, rest
            ty = x.type
            assert ty is not None
            return self.get_zero(ty), x

        a = split(lhs)
        b = split(rhs)
        if a is None or b is None or a[1] is not b[1]:
            return False
        c1 = a[0].signed_value if pred.is_signed else a[0].value
        c2 = b[0].signed_value if pred.is_signed else b[0].value
        return c1 < c2 if pred.is_strict else c1 <= c2

    def _known_via_ranges(self, pred: Predicate, lhs: SCEV, rhs: SCEV) -> bool:
        if lhs is rhs:
            return pred.is_true_when_equal
        if isinstance(lhs, SCEVConstant) and isinstance(rhs, SCEVConstant):
            return _eval_icmp(pred, lhs.value, rhs.value, lhs.bit_width)
        signed = pred.is_signed
        lr = self._range(lhs, signed)
        rr = self._range(rhs, signed)
        if lr.icmp(pred, rr):
            return True
        if pred in (Predicate.ICMP_NE, Predicate.ICMP_EQ) and lhs.type is rhs.type and isinstance(lhs.type, IntegerType):
            diff = self.get_minus_scev(lhs, rhs)
            for sg in (False, True):
                dr = self._range(diff, sg)
                if pred is Predicate.ICMP_NE and not dr.contains(0):
                    return True
                if pred is Predicate.ICMP_NE:
                    o = self._range(lhs, not sg).icmp(pred, self._range(rhs, not sg))
                    if o:
                        return True
        return False

    def is_loop_entry_guarded_by_cond(self, loop: Loop, pred: Predicate, lhs: SCEV, rhs: SCEV) -> bool:
        """Whether ``lhs pred rhs`` holds on entry to ``loop``: everywhere, or by a branch on
        the chain of unique predecessors into its header (LLVM ``isLoopEntryGuardedByCond``)."""
        from llvmpy_mid.analysis.scalar_evolution_queries import is_basic_block_entry_guarded_by_cond

        if self.is_known_via_non_recursive_reasoning(pred, lhs, rhs):
            return True
        return is_basic_block_entry_guarded_by_cond(self, loop.header, pred, lhs, rhs)

    def is_basic_block_entry_guarded_by_cond(self, bb: BasicBlock, pred: Predicate, lhs: SCEV, rhs: SCEV) -> bool:
        from llvmpy_mid.analysis.scalar_evolution_queries import is_basic_block_entry_guarded_by_cond

        return is_basic_block_entry_guarded_by_cond(self, bb, pred, lhs, rhs)

    def is_loop_backedge_guarded_by_cond(self, loop: Loop, pred: Predicate, lhs: SCEV, rhs: SCEV) -> bool:
        from llvmpy_mid.analysis.scalar_evolution_queries import is_loop_backedge_guarded_by_cond

        return is_loop_backedge_guarded_by_cond(self, loop, pred, lhs, rhs)

    def is_known_predicate_at(self, pred: Predicate, lhs: SCEV, rhs: SCEV, ctx: Instruction) -> bool:
        """``lhs pred rhs`` holds at ``ctx`` (LLVM ``isKnownPredicateAt``)."""
        if self.is_known_predicate(pred, lhs, rhs):
            return True
        bb = ctx.parent
        return bb is not None and self.is_basic_block_entry_guarded_by_cond(bb, pred, lhs, rhs)

    def evaluate_predicate(self, pred: Predicate, lhs: SCEV, rhs: SCEV) -> bool | None:
        """True/False when ``lhs pred rhs`` is known to hold/fail everywhere, else None."""
        if self.is_known_predicate(pred, lhs, rhs):
            return True
        if self.is_known_predicate(pred.inverse, lhs, rhs):
            return False
        return None

    def evaluate_predicate_at(self, pred: Predicate, lhs: SCEV, rhs: SCEV, ctx: Instruction) -> bool | None:
        """:meth:`evaluate_predicate`, also using the branches guarding ``ctx``'s block."""
        known = self.evaluate_predicate(pred, lhs, rhs)
        if known is not None:
            return known
        bb = ctx.parent
        if bb is None:
            return None
        if self.is_basic_block_entry_guarded_by_cond(bb, pred, lhs, rhs):
            return True
        if self.is_basic_block_entry_guarded_by_cond(bb, pred.inverse, lhs, rhs):
            return False
        return None

    def is_known_on_every_iteration(self, pred: Predicate, lhs: SCEVAddRecExpr, rhs: SCEV) -> bool:
        """``lhs pred rhs`` on loop entry and whenever the backedge is taken, for the
        post-increment value (LLVM ``isKnownOnEveryIteration``)."""
        loop = lhs.loop
        from llvmpy_mid.analysis.scalar_evolution_queries import step_recurrence

        if not self.is_loop_entry_guarded_by_cond(loop, pred, lhs.start, rhs):
            return False
        post_inc = self.get_add_expr([lhs, step_recurrence(self, lhs)])
        return self.is_loop_backedge_guarded_by_cond(loop, pred, post_inc, rhs)

    def get_loop_invariant_predicate(
        self, pred: Predicate, lhs: SCEV, rhs: SCEV, loop: Loop, ctx: Instruction | None = None
    ) -> tuple[Predicate, SCEV, SCEV] | None:
        """A loop-invariant ``(pred, lhs', rhs')`` equivalent to ``lhs pred rhs`` on every
        iteration where it is evaluated (LLVM ``getLoopInvariantPredicate``), or None."""
        from llvmpy_mid.analysis.scalar_evolution_queries import get_loop_invariant_predicate

        return get_loop_invariant_predicate(self, pred, lhs, rhs, loop, ctx)

    def get_loop_invariant_exit_cond_during_first_iterations(
        self, pred: Predicate, lhs: SCEV, rhs: SCEV, loop: Loop, ctx: Instruction, max_iter: SCEV
    ) -> tuple[Predicate, SCEV, SCEV] | None:
        """LLVM ``getLoopInvariantExitCondDuringFirstIterations``."""
        from llvmpy_mid.analysis.scalar_evolution_queries import get_loop_invariant_exit_cond_during_first_iterations

        return get_loop_invariant_exit_cond_during_first_iterations(self, pred, lhs, rhs, loop, ctx, max_iter)

    # --- values at scope ----------------------------------------------------------------------
    def get_scev_at_scope(self, v: SCEV | Value, loop: Loop | None) -> SCEV:
        """The value of ``v`` as seen from ``loop`` (None: outside all loops): recurrences of
        loops not containing ``loop`` evaluated at their exit (LLVM ``getSCEVAtScope``)."""
        from llvmpy_mid.analysis.scalar_evolution_queries import get_scev_at_scope

        s = v if isinstance(v, SCEV) else self.get_scev(v)
        return get_scev_at_scope(self, s, loop)

    def evaluate_at_iteration(self, rec: SCEVAddRecExpr, it: SCEV) -> SCEV:
        from llvmpy_mid.analysis.scalar_evolution_queries import evaluate_at_iteration

        return evaluate_at_iteration(rec, it, self)

    # --- loop properties ----------------------------------------------------------------------
    def _loop_properties(self, loop: Loop) -> tuple[bool, bool]:
        props = self.loop_properties.get(loop)
        if props is None:
            from llvmpy_mid.analysis.poison_tracking import is_guaranteed_to_transfer_execution_to_successor

            no_abnormal = True
            no_side_effects = True
            for bb in loop.blocks:
                for inst in bb.instructions:
                    if no_abnormal and not is_guaranteed_to_transfer_execution_to_successor(inst):
                        no_abnormal = False
                    if no_side_effects:
                        if inst.opcode == "store":
                            if not inst.is_simple:  # type: ignore[attr-defined]
                                no_side_effects = False
                        elif inst.may_throw() or inst.may_write_to_memory():
                            no_side_effects = False
                    if not no_abnormal and not no_side_effects:
                        break
            props = (no_abnormal, no_side_effects)
            self.loop_properties[loop] = props
        return props

    def loop_has_no_abnormal_exits(self, loop: Loop) -> bool:
        return self._loop_properties(loop)[0]

    def loop_has_no_side_effects(self, loop: Loop) -> bool:
        return self._loop_properties(loop)[1]

    def loop_is_finite_by_assumption(self, loop: Loop) -> bool:
        from llvmpy_mid.transform.utils.loop_utils import is_finite, is_must_progress

        return is_finite(loop) or (is_must_progress(loop) and self.loop_has_no_side_effects(loop))

    # --- backedge-taken counts ----------------------------------------------------------------
    def get_backedge_taken_info(self, loop: Loop) -> BackedgeTakenInfo:
        from llvmpy_mid.analysis.scalar_evolution_exit_limits import BackedgeTakenInfo, compute_backedge_taken_count

        info = self.backedge_taken_counts.get(loop)
        if info is not None:
            return info
        self.backedge_taken_counts[loop] = BackedgeTakenInfo.unknown(self)
        info = compute_backedge_taken_count(self, loop)
        self.backedge_taken_counts[loop] = info
        if info.exits or not isinstance(info.constant_max, SCEVCouldNotCompute):
            # What was computed about the loop's recurrences without the count is forgotten.
            self._forget_loop_users(loop)
        return info

    def _forget_loop_users(self, loop: Loop) -> None:
        def uses(s: SCEV) -> bool:
            return any(isinstance(n, SCEVAddRecExpr) and n.loop is loop for n in walk_scev(s))

        self._forget_values_at_scope()
        for table in (self.unsigned_ranges, self.signed_ranges):
            for key in [k for k in table if uses(k)]:
                del table[key]
        self._loops_with_new_counts.add(loop)
        if self._scev_depth == 0:
            self._forget_values_using_loops()

    def get_backedge_taken_count(self, loop: Loop) -> SCEV:
        """How many times the backedge of ``loop`` is taken before it exits, or could-not-compute."""
        return self.get_backedge_taken_info(loop).get_exact(self)

    def get_constant_max_backedge_taken_count(self, loop: Loop) -> SCEV:
        """A constant upper bound of :meth:`get_backedge_taken_count`, or could-not-compute."""
        return self.get_backedge_taken_info(loop).constant_max

    def get_symbolic_max_backedge_taken_count(self, loop: Loop) -> SCEV:
        return self.get_backedge_taken_info(loop).get_symbolic_max(self)

    def get_exit_count(self, loop: Loop, exiting: BasicBlock, kind: str = "exact") -> SCEV:
        """How many times the backedge is taken before the exit from ``exiting`` (LLVM
        ``getExitCount``; kind "exact", "symbolic_max" or "constant_max")."""
        info = self.get_backedge_taken_info(loop)
        if kind == "exact":
            return info.get_exact_for(exiting, self)
        if kind not in ("symbolic_max", "constant_max"):
            raise ValueError("unknown exit count kind %r" % kind)
        for bb, el in info.exits:
            if bb is exiting:
                return el.symbolic_max if kind == "symbolic_max" else el.constant_max
        return self.get_could_not_compute()

    def has_loop_invariant_backedge_taken_count(self, loop: Loop) -> bool:
        return not isinstance(self.get_backedge_taken_count(loop), SCEVCouldNotCompute)

    # --- invalidation -------------------------------------------------------------------------
    def _forget_values_at_scope(self) -> None:
        self.values_at_scopes.clear()
        self.constant_evolution_exit_values.clear()
        self.unsigned_wrap_via_induction_tried.clear()
        self.signed_wrap_via_induction_tried.clear()

    def _forget_memoized(self, to_forget: Iterable[SCEV]) -> None:
        self._forget_values_at_scope()
        dead = set(to_forget)
        if not dead:
            return
        # Every cached entry whose expression uses a forgotten one goes too.
        def uses_dead(s: SCEV) -> bool:
            return any(n in dead for n in walk_scev(s))

        for v in [v for v, s in self.value_map.items() if uses_dead(s)]:
            del self.value_map[v]
        for loop in [lp for lp, info in self.backedge_taken_counts.items() if any(uses_dead(s) for s in info.expressions())]:
            del self.backedge_taken_counts[loop]
        for table in (self.unsigned_ranges, self.signed_ranges):
            for s in [s for s in table if uses_dead(s)]:
                del table[s]
        for key in [k for k in self.loop_dispositions if uses_dead(k[0])]:
            del self.loop_dispositions[key]
        for bkey in [k for k in self.block_dispositions if uses_dead(k[0])]:
            del self.block_dispositions[bkey]

    def _visit_and_clear_users(self, worklist: list[Instruction], visited: set[Instruction], to_forget: list[SCEV]) -> None:
        while worklist:
            inst = worklist.pop()
            if not self.is_scevable(inst.type):
                continue
            s = self.value_map.pop(inst, None)
            if s is not None:
                to_forget.append(s)
            for user in inst.users:
                if isinstance(user, Instruction) and user not in visited:
                    visited.add(user)
                    worklist.append(user)

    def forget_loop(self, loop: Loop) -> None:
        """Drop what is known about ``loop``, its sub-loops and the values depending on their
        header phis (LLVM ``forgetLoop``)."""
        self._forget_values_at_scope()
        loops = [loop]
        worklist: list[Instruction] = []
        visited: set[Instruction] = set()
        to_forget: list[SCEV] = []
        while loops:
            cur = loops.pop()
            self.backedge_taken_counts.pop(cur, None)
            for s in self._uniques.values():
                if isinstance(s, SCEVAddRecExpr) and s.loop is cur:
                    to_forget.append(s)
            for pn in cur.header.phis():
                if pn not in visited:
                    visited.add(pn)
                    worklist.append(pn)
            self._visit_and_clear_users(worklist, visited, to_forget)
            self.loop_properties.pop(cur, None)
            loops.extend(cur.sub_loops)
        self._forget_memoized(to_forget)

    def forget_topmost_loop(self, loop: Loop) -> None:
        top = loop
        while top.parent_loop is not None:
            top = top.parent_loop
        self.forget_loop(top)

    def forget_value(self, v: Value) -> None:
        """Drop the expressions of ``v`` and of the instructions using it (LLVM ``forgetValue``)."""
        if not isinstance(v, Instruction):
            return
        to_forget: list[SCEV] = []
        self._visit_and_clear_users([v], {v}, to_forget)
        self._forget_memoized(to_forget)

    def forget_all_loops(self) -> None:
        self._forget_values_at_scope()
        self.value_map.clear()
        self.backedge_taken_counts.clear()
        self.loop_dispositions.clear()
        self.block_dispositions.clear()
        self.unsigned_ranges.clear()
        self.signed_ranges.clear()
        self.loop_properties.clear()

    def forget_loop_dispositions(self) -> None:
        self._forget_values_at_scope()
        self.loop_dispositions.clear()

    def forget_block_and_loop_dispositions(self, v: Value | None = None) -> None:
        """Drop cached loop and block dispositions: all of them, or those of ``v``'s expression
        and the expressions using it (LLVM ``forgetBlockAndLoopDispositions``)."""
        self._forget_values_at_scope()
        if v is None:
            self.block_dispositions.clear()
            self.loop_dispositions.clear()
            return
        s = self.value_map.get(v)
        if s is None:
            return
        for key in [k for k in self.loop_dispositions if any(n is s for n in walk_scev(k[0]))]:
            del self.loop_dispositions[key]
        for bkey in [k for k in self.block_dispositions if any(n is s for n in walk_scev(k[0]))]:
            del self.block_dispositions[bkey]

    def invalidate(self, unit: Function, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
        from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis

        checker = pa.checker(ScalarEvolutionAnalysis)
        return (
            not (checker.preserved() or checker.preserved_set(AllAnalysesOnFunction))
            or inv.invalidate(AssumptionAnalysis)
            or inv.invalidate(DominatorTreeAnalysis)
            or inv.invalidate(LoopAnalysis)
        )


_MIN_MAX_INTRINSICS = {
    "llvm.umax": SCEVTypes.UMAX,
    "llvm.smax": SCEVTypes.SMAX,
    "llvm.umin": SCEVTypes.UMIN,
    "llvm.smin": SCEVTypes.SMIN,
}


def _constant_in_add_mul_chain(s: SCEV) -> bool:
    """A constant among ``s`` and the operands of its nested sums and products."""
    stack = [s]
    while stack:
        cur = stack.pop()
        if isinstance(cur, SCEVConstant):
            return True
        if cur.kind in (SCEVTypes.ADD, SCEVTypes.MUL):
            stack.extend(cur.operands)
    return False


def _range_for_affine_ar_helper(step: int, start: ConstantRange, max_be: int, w: int, signed: bool) -> ConstantRange:
    """The values of ``{start,+,step}`` over ``max_be`` backedges (LLVM
    ``getRangeForAffineARHelper``); ``step`` is a signed value when ``signed``."""
    mask = (1 << w) - 1
    step &= mask
    if step == 0 or max_be == 0:
        return start
    if start.is_full_set():
        return ConstantRange.get_full(w)
    descending = signed and bool(step >> (w - 1))
    if signed and descending:
        step = (-step) & mask  # |INT_MIN| is INT_MIN's pattern, as in APInt::abs
    if mask // step < max_be:
        return ConstantRange.get_full(w)
    offset = step * max_be
    lower = start.lower
    upper = (start.upper - 1) & mask
    moved = (lower - offset) & mask if descending else (upper + offset) & mask
    if start.contains(moved):
        return ConstantRange.get_full(w)
    new_lower = moved if descending else lower
    new_upper = (upper if descending else moved) + 1
    return ConstantRange.get_non_empty(w, new_lower, new_upper & mask)


def _eval_icmp(pred: Predicate, a: int, b: int, w: int) -> bool:
    if pred.is_signed:
        a, b = _signed(a, w), _signed(b, w)
    if pred in (Predicate.ICMP_EQ,):
        return a == b
    if pred is Predicate.ICMP_NE:
        return a != b
    if pred in (Predicate.ICMP_ULT, Predicate.ICMP_SLT):
        return a < b
    if pred in (Predicate.ICMP_ULE, Predicate.ICMP_SLE):
        return a <= b
    if pred in (Predicate.ICMP_UGT, Predicate.ICMP_SGT):
        return a > b
    return a >= b


class ScalarEvolutionAnalysis(FunctionAnalysis[ScalarEvolution]):
    """``scalar-evolution``: the function's :class:`ScalarEvolution`."""

    name: ClassVar[str] = "scalar-evolution"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> ScalarEvolution:
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
        from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis
        from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis

        tli = am.get_result(TargetLibraryAnalysis, unit)
        ac = am.get_result(AssumptionAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        li = am.get_result(LoopAnalysis, unit)
        return ScalarEvolution(unit, tli, ac, dt, li)
