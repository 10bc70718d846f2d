"""Helpers of the SCEV expander (LLVM 19.1.7 ``lib/Transforms/Utils/ScalarEvolutionExpander.cpp``
and the ScalarEvolution / LoopInfo queries it uses that :mod:`~llvmpy_mid.analysis.scalar_evolution`
does not offer yet: ``getAnyExtendExpr``, ``removePointerBase``, ``normalizeForPostIncUse``,
``canReuseInstruction``, ``getStrengthenedNoWrapFlagsFromBinOp``, ``Loop::getCanonicalInductionVariable``,
``LoopInfo::movementPreservesLCSSAForm``, the ``InstSimplifyFolder`` and the safety checks
``isSafeToExpand`` / ``isSafeToExpandAt``). Each uses the analysis's own method when it has one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from llvmpy_mid.analysis.loop_info import Loop
from llvmpy_mid.analysis.scalar_evolution_expressions import (
    FLAG_NW,
    SCEV,
    SCEVAddRecExpr,
    SCEVConstant,
    SCEVTypes,
    SCEVUnknown,
    walk_scev,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.folders import IRBuilderFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.types import IntegerType, Type
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout

SCEV_CHEAP_EXPANSION_BUDGET = 4
"""``-scev-cheap-expansion-budget`` (LLVM default 4)."""


def cheap_expansion_budget() -> int:
    """The value of ``-scev-cheap-expansion-budget``."""
    from llvmpy_mid.passes.options import OPTIONS

    try:
        if OPTIONS.get("scev-cheap-expansion-budget") is not None and OPTIONS.is_set("scev-cheap-expansion-budget"):
            v = OPTIONS.value("scev-cheap-expansion-budget")
            if isinstance(v, int):
                return v
    except Exception:  # pragma: no cover - option table without the entry
        pass
    return SCEV_CHEAP_EXPANSION_BUDGET


# --- small SCEV helpers the analysis does not (yet) provide ------------------------------------------


def contains_add_rec(s: SCEV) -> bool:
    return any(n.kind is SCEVTypes.ADD_REC for n in walk_scev(s))


def is_non_constant_negative(s: SCEV) -> bool:
    """``s`` is ``C * x`` with a negative constant ``C`` (LLVM ``isNonConstantNegative``)."""
    if s.kind is not SCEVTypes.MUL:
        return False
    c = s.operands[0]
    return isinstance(c, SCEVConstant) and c.signed_value < 0


def is_loop_invariant(se: Any, s: SCEV, loop: Loop | None) -> bool:
    if loop is None:
        # The function body: everything but an add recurrence is invariant.
        return not contains_add_rec(s)
    return bool(se.is_loop_invariant(s, loop))


def get_step(se: Any, ar: SCEVAddRecExpr) -> SCEV:
    """LLVM ``getStepRecurrence``."""
    if ar.is_affine():
        return ar.operands[1]
    return se.get_add_rec_expr(list(ar.operands[1:]), ar.loop, ar.flags & FLAG_NW)  # type: ignore[no-any-return]


def type_bits(se: Any, ty: Type) -> int:
    return int(se.get_type_size_in_bits(ty))


def effective_type(se: Any, ty: Type) -> Type:
    f = getattr(se, "get_effective_scev_type", None)
    if f is not None:
        return f(ty)  # type: ignore[no-any-return]
    if ty.is_pointer:
        return ty.context.int_type(type_bits(se, ty))
    return ty


def truncate_or_noop(se: Any, s: SCEV, ty: Type) -> SCEV:
    if s.type is ty or type_bits(se, s.type) == type_bits(se, ty):  # type: ignore[arg-type]
        return s
    return se.get_truncate_expr(s, ty)  # type: ignore[no-any-return]


def any_extend(se: Any, op: SCEV, ty: Type) -> SCEV:
    """LLVM ``getAnyExtendExpr``."""
    f = getattr(se, "get_any_extend_expr", None)
    if f is not None:
        return f(op, ty)  # type: ignore[no-any-return]
    if op.type is ty:
        return op
    if isinstance(op, SCEVConstant) and op.signed_value < 0:
        return se.get_sign_extend_expr(op, ty)  # type: ignore[no-any-return]
    if op.kind is SCEVTypes.TRUNCATE:
        inner = op.operands[0]
        if type_bits(se, inner.type) < type_bits(se, ty):  # type: ignore[arg-type]
            return any_extend(se, inner, ty)
        return truncate_or_noop(se, inner, ty)
    zext: SCEV = se.get_zero_extend_expr(op, ty)
    if zext.kind is not SCEVTypes.ZERO_EXTEND:
        return zext
    sext: SCEV = se.get_sign_extend_expr(op, ty)
    if sext.kind is not SCEVTypes.SIGN_EXTEND:
        return sext
    if isinstance(op, SCEVAddRecExpr):
        ops = [any_extend(se, o, ty) for o in op.operands]
        return se.get_add_rec_expr(ops, op.loop, FLAG_NW)  # type: ignore[no-any-return]
    if op.kind is SCEVTypes.SMAX:
        return sext
    return zext


def noop_or_any_extend(se: Any, s: SCEV, ty: Type) -> SCEV:
    if type_bits(se, s.type) == type_bits(se, ty):  # type: ignore[arg-type]
        return s
    return any_extend(se, s, ty)


def evaluate_at_iteration(se: Any, rec: SCEVAddRecExpr, it: SCEV) -> SCEV | None:
    """``rec`` at iteration ``it``: the analysis's ``evaluate_at_iteration`` when it has one,
    else the affine closed form ``start + step * it`` (None for higher degrees)."""
    f = getattr(se, "evaluate_at_iteration", None)
    if f is not None:
        return f(rec, it)  # type: ignore[no-any-return]
    try:
        from llvmpy_mid.analysis import scalar_evolution as mod

        g = getattr(mod, "evaluate_at_iteration", None)
    except ImportError:  # pragma: no cover
        g = None
    if g is not None:
        return g(rec, it, se)  # type: ignore[no-any-return]
    if rec.is_affine():
        return se.get_add_expr([rec.start, se.get_mul_expr([rec.operands[1], it])])  # type: ignore[no-any-return]
    return None


def normalize_for_post_inc(se: Any, s: SCEV, loops: set[Loop]) -> SCEV:
    """The pre-increment form of ``s`` for the post-inc loops (LLVM ``normalizeForPostIncUse``):
    a recurrence ``{a,+,b,...}`` of one of them becomes ``{a-b,+,b-...,...}``."""
    if not any(isinstance(n, SCEVAddRecExpr) and n.loop in loops for n in walk_scev(s)):
        return s
    if isinstance(s, SCEVAddRecExpr):
        ops = [normalize_for_post_inc(se, o, loops) for o in s.operands]
        if s.loop in loops:
            for i in range(len(ops) - 1):
                ops[i] = se.get_minus_scev(ops[i], ops[i + 1])
        return se.get_add_rec_expr(ops, s.loop)  # type: ignore[no-any-return]
    ops = [normalize_for_post_inc(se, o, loops) for o in s.operands]
    k = s.kind
    if k is SCEVTypes.ADD:
        return se.get_add_expr(ops)  # type: ignore[no-any-return]
    if k is SCEVTypes.MUL:
        return se.get_mul_expr(ops)  # type: ignore[no-any-return]
    if k is SCEVTypes.UDIV:
        return se.get_udiv_expr(ops[0], ops[1])  # type: ignore[no-any-return]
    if k is SCEVTypes.TRUNCATE:
        return se.get_truncate_expr(ops[0], s.type)  # type: ignore[no-any-return]
    if k is SCEVTypes.ZERO_EXTEND:
        return se.get_zero_extend_expr(ops[0], s.type)  # type: ignore[no-any-return]
    if k is SCEVTypes.SIGN_EXTEND:
        return se.get_sign_extend_expr(ops[0], s.type)  # type: ignore[no-any-return]
    if k is SCEVTypes.SEQ_UMIN:
        return se.get_umin_expr(ops, True)  # type: ignore[no-any-return]
    return se.get_min_max_expr(k, ops)  # type: ignore[no-any-return]


def remove_pointer_base(se: Any, p: SCEV) -> SCEV:
    """The integer offset of pointer expression ``p`` from its base (LLVM ``removePointerBase``)."""
    f = getattr(se, "remove_pointer_base", None)
    if f is not None:
        return f(p)  # type: ignore[no-any-return]
    if isinstance(p, SCEVAddRecExpr):
        ops = list(p.operands)
        ops[0] = remove_pointer_base(se, ops[0])
        return se.get_add_rec_expr(ops, p.loop)  # type: ignore[no-any-return]
    if p.kind is SCEVTypes.ADD:
        ops = [(remove_pointer_base(se, o) if o.type is not None and o.type.is_pointer else o) for o in p.operands]
        return se.get_add_expr(ops)  # type: ignore[no-any-return]
    return se.get_zero(effective_type(se, p.type))  # type: ignore[arg-type,no-any-return]


def scev_values(se: Any, s: SCEV) -> list[Value]:
    """The IR values the analysis maps to ``s`` (LLVM ``getSCEVValues``), oldest first."""
    f = getattr(se, "get_scev_values", None)
    if f is not None:
        return list(f(s))
    return [v for v, e in se.value_map.items() if e is s]


def poison_generating_values(s: SCEV) -> set[Value]:
    """The opaque values whose poison makes ``s`` poison (LLVM ``getPoisonGeneratingValues``):
    all unknowns, except under the non-first operands of a sequential umin."""
    out: set[Value] = set()
    stack = [s]
    seen: set[int] = set()
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, SCEVUnknown):
            out.add(n.value)
        elif n.kind is SCEVTypes.SEQ_UMIN:
            stack.append(n.operands[0])
        else:
            stack.extend(n.operands)
    return out


def can_reuse_instruction(se: Any, s: SCEV, inst: Instruction, drop: list[Instruction]) -> bool:
    """LLVM ``ScalarEvolution::canReuseInstruction``."""
    f = getattr(se, "can_reuse_instruction", None)
    if f is not None:
        return bool(f(s, inst, drop))
    from llvmpy_mid.analysis.poison_tracking import (
        can_create_poison,
        has_poison_generating_annotations,
        is_guaranteed_not_to_be_poison,
        program_undefined_if_poison,
    )

    if program_undefined_if_poison(inst):
        return True
    poison_vals = poison_generating_values(s)
    work: list[Value] = [inst]
    visited: set[Value] = set()
    while work:
        v = work.pop()
        if v in visited:
            continue
        visited.add(v)
        if len(visited) > 16:
            return False
        if v in poison_vals or is_guaranteed_not_to_be_poison(v):
            continue
        if not isinstance(v, Instruction):
            return False
        if getattr(v, "disjoint", False):
            return False
        if getattr(v, "intrinsic_name", "") == "llvm.vscale":
            continue
        if can_create_poison(v, False):
            return False
        if has_poison_generating_annotations(v):
            drop.append(v)
        work.extend(v.operands)
    return True


def will_not_overflow(se: Any, opcode: str, signed: bool, lhs: SCEV, rhs: SCEV, ctx: Instruction | None = None) -> bool:
    """LLVM ``willNotOverflow``: the operation done in twice the width equals the extension of
    the narrow operation, or (add/sub of a constant, with a context instruction) the left
    operand is known far enough from the end of the range at ``ctx``."""
    f = getattr(se, "will_not_overflow", None)
    if f is not None:
        return bool(f(opcode, signed, lhs, rhs, ctx))
    ty = lhs.type
    if not isinstance(ty, IntegerType):
        return False
    wide = ty.context.int_type(ty.width * 2)
    ext = se.get_sign_extend_expr if signed else se.get_zero_extend_expr

    def op(a: SCEV, b: SCEV) -> SCEV:
        if opcode == "add":
            return se.get_add_expr([a, b])  # type: ignore[no-any-return]
        if opcode == "sub":
            return se.get_minus_scev(a, b)  # type: ignore[no-any-return]
        return se.get_mul_expr([a, b])  # type: ignore[no-any-return]

    if ext(op(lhs, rhs), wide) is op(ext(lhs, wide), ext(rhs, wide)):
        return True
    known_at = getattr(se, "is_known_predicate_at", None)
    if ctx is None or known_at is None or opcode == "mul" or not isinstance(rhs, SCEVConstant):
        return False
    bits = ty.width
    c = rhs.signed_value if signed else rhs.value
    is_sub = opcode == "sub"
    negative = signed and c < 0
    down = is_sub != negative
    magnitude = c
    if negative:
        if c == -(1 << (bits - 1)):
            return False
        magnitude = -c
    pred = Predicate.ICMP_SLE if signed else Predicate.ICMP_ULE
    if down:
        lo = -(1 << (bits - 1)) if signed else 0
        return bool(known_at(pred, se.get_constant(ty, lo + magnitude), lhs, ctx))
    hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    return bool(known_at(pred, lhs, se.get_constant(ty, hi - magnitude), ctx))


def strengthened_no_wrap_flags(se: Any, inst: Instruction) -> tuple[bool, bool] | None:
    """(nuw, nsw) proved for an add/sub/mul (LLVM ``getStrengthenedNoWrapFlagsFromBinOp``),
    or None when nothing new is deduced."""
    nuw = bool(getattr(inst, "nuw", False))
    nsw = bool(getattr(inst, "nsw", False))
    if nuw and nsw:
        return None
    if inst.opcode not in ("add", "sub", "mul") or not isinstance(inst.type, IntegerType):
        return None
    lhs = se.get_scev(inst.operands[0])
    rhs = se.get_scev(inst.operands[1])
    deduced = False
    if not nuw and will_not_overflow(se, inst.opcode, False, lhs, rhs, inst):
        nuw = deduced = True
    if not nsw and will_not_overflow(se, inst.opcode, True, lhs, rhs, inst):
        nsw = deduced = True
    return (nuw, nsw) if deduced else None


def set_wrap_flags(inst: Instruction, nuw: bool, nsw: bool) -> None:
    if hasattr(inst, "nuw"):
        inst.nuw = nuw
    if hasattr(inst, "nsw"):
        inst.nsw = nsw


def is_overflowing_binop(v: Value) -> bool:
    return isinstance(v, Instruction) and v.opcode in ("add", "sub", "mul", "shl")


def is_dbg_intrinsic(inst: Instruction) -> bool:
    return getattr(inst, "intrinsic_name", "").startswith("llvm.dbg.")


def get_canonical_induction_variable(loop: Loop) -> PHINode | None:
    """The header phi starting at 0 and stepping by ``add %phi, 1`` (LLVM
    ``Loop::getCanonicalInductionVariable``)."""
    header = loop.header
    preds = header.predecessors
    if len(preds) != 2:
        return None
    backedge, incoming = preds[0], preds[1]
    if loop.contains(incoming):
        if loop.contains(backedge):
            return None
        incoming, backedge = backedge, incoming
    elif not loop.contains(backedge):
        return None
    for pn in header.phis():
        ci = pn.incoming_value_for_block(incoming)
        if not (isinstance(ci, ConstantInt) and ci.value == 0):
            continue
        inc = pn.incoming_value_for_block(backedge)
        if isinstance(inc, Instruction) and inc.opcode == "add" and inc.operands[0] is pn:
            one = inc.operands[1]
            if isinstance(one, ConstantInt) and one.value == 1:
                return pn
    return None


def movement_preserves_lcssa(li: Any, inst: Instruction, new_loc: Instruction) -> bool:
    """LLVM ``LoopInfo::movementPreservesLCSSAForm``."""
    old_bb = inst.parent
    new_bb = new_loc.parent
    if old_bb is new_bb:
        return True
    old_loop = li.loop_for(old_bb)
    new_loop = li.loop_for(new_bb)
    if old_loop is new_loop:
        return True

    def contains(outer: Loop | None, inner: Loop | None) -> bool:
        return outer is None or (inner is not None and outer.contains(inner))

    if not contains(new_loop, old_loop):
        for use in inst.uses:
            user = use.user
            if isinstance(user, PHINode):
                ubb = user.get_incoming_block_for_use(use)
            else:
                ubb = user.parent  # type: ignore[attr-defined]
            if ubb is not new_bb and li.loop_for(ubb) is not new_loop:
                return False
    if not contains(old_loop, new_loop):
        if isinstance(inst, PHINode):
            return False
        for op in inst.operands:
            if not isinstance(op, Instruction):
                return False
            dbb = op.parent
            if dbb is not new_bb and li.loop_for(dbb) is not new_loop:
                return False
    return True


class InstSimplifyFolder(IRBuilderFolder):
    """LLVM ``InstSimplifyFolder``: the builder's requests are first answered by
    InstructionSimplify with a data-layout-only query."""

    __slots__ = ("_q",)

    def __init__(self, dl: DataLayout) -> None:
        from llvmpy_mid.analysis.simplify_query import SimplifyQuery

        self._q = SimplifyQuery(dl)

    def fold_bin_op(self, opcode: str, lhs: Value, rhs: Value, nuw: bool = False, nsw: bool = False) -> Value | None:
        from llvmpy_mid.analysis.instsimplify.binops import simplify_binop

        return simplify_binop(opcode, lhs, rhs, self._q)

    def fold_cmp(self, predicate: Predicate, lhs: Value, rhs: Value) -> Value | None:
        from llvmpy_mid.analysis.instsimplify.cmp import simplify_cmp_inst

        return simplify_cmp_inst(predicate, lhs, rhs, self._q)

    def fold_cast(self, opcode: str, value: Value, dest_type: Type) -> Value | None:
        from llvmpy_mid.analysis.instsimplify.other import simplify_cast_inst

        return simplify_cast_inst(opcode, value, dest_type, self._q)

    def fold_gep(self, source_element_type: Type, pointer: Value, indices: Sequence[Value], flags: int) -> Value | None:
        from llvmpy_mid.analysis.instsimplify.other import simplify_gep_inst

        return simplify_gep_inst(source_element_type, pointer, indices, flags, self._q)



def trunc_or_bitcast(b: IRBuilder, v: Value, ty: Type, name: str) -> Value:
    if v.type is ty:
        return v
    if v.type.is_integer and ty.is_integer:
        return b.create_trunc(v, ty, name)
    return b.create_bit_or_pointer_cast(v, ty, name)


def cost_int(c: Any) -> int:
    if isinstance(c, int):
        return c
    v = getattr(c, "value", None)
    if isinstance(v, int):
        return v
    return 1 << 30  # an invalid cost: more than any budget


def is_truncate_free(tti: Any, src: Type, dst: Type) -> bool:
    f = getattr(tti, "is_truncate_free", None)
    if f is not None:
        return bool(f(src, dst))
    if type(tti).__name__.lower().find("x86") >= 0:
        # X86TargetLowering::isTruncateFree: any narrowing integer truncation.
        return bool(src.is_integer and dst.is_integer and src.width > dst.width)  # type: ignore[attr-defined]
    return False


def value_is_loop_invariant(loop: Loop, v: Value) -> bool:
    """LLVM ``Loop::isLoopInvariant``: not an instruction of the loop."""
    return not (isinstance(v, Instruction) and loop.contains(v))


def safe_to_hoist(s: SCEV) -> bool:
    for n in walk_scev(s):
        if n.kind is SCEVTypes.UDIV:
            rhs = n.operands[1]
            if not isinstance(rhs, SCEVConstant) or rhs.value == 0:
                return False
    return True


def is_safe_to_expand(s: SCEV, se: Any, canonical_mode: bool = True) -> bool:
    """Expanding ``s`` cannot divide by zero and every recurrence can be built (LLVM
    ``SCEVExpander::isSafeToExpand``)."""
    for n in walk_scev(s):
        if n.kind is SCEVTypes.UDIV and not se.is_known_non_zero(n.operands[1]):
            return False
        if isinstance(n, SCEVAddRecExpr) and n.loop.preheader is None and (not canonical_mode or not n.is_affine()):
            return False
        if n.kind is SCEVTypes.COULD_NOT_COMPUTE:
            return False
    return True


def dominates_block(se: Any, s: SCEV, bb: BasicBlock) -> bool:
    """Every value of ``s`` is available in ``bb`` (LLVM ``dominates`` block disposition)."""
    f = getattr(se, "dominates", None)
    if f is not None:
        return bool(f(s, bb))
    dt = se.dt
    for n in walk_scev(s):
        if isinstance(n, SCEVUnknown) and isinstance(n.value, Instruction):
            p = n.value.parent
            if p is None or not dt.dominates_block(p, bb):
                return False
        if isinstance(n, SCEVAddRecExpr) and not dt.dominates_block(n.loop.header, bb):
            return False
    return True


def is_safe_to_expand_at(s: SCEV, at: Instruction, se: Any, canonical_mode: bool = True) -> bool:
    """:func:`is_safe_to_expand` and every value ``s`` uses is available at ``at`` (LLVM
    ``isSafeToExpandAt``)."""
    if not is_safe_to_expand(s, se, canonical_mode):
        return False
    bb = at.parent
    assert bb is not None
    if se.properly_dominates(s, bb):
        return True
    if dominates_block(se, s, bb):
        if bb.terminator is at:
            return True
        if isinstance(s, SCEVUnknown) and any(op is s.value for op in at.operands):
            return True
    return False
