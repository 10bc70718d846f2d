"""The SCEV expander: IR instructions that compute a scalar-evolution expression (LLVM 19.1.7
``lib/Transforms/Utils/ScalarEvolutionExpander.cpp`` and
``include/llvm/Transforms/Utils/ScalarEvolutionExpander.h``).

What: :class:`SCEVExpander` turns a :class:`~llvmpy_mid.analysis.scalar_evolution_expressions.SCEV`
into IR at an insertion point. Each sub-expression is placed as far out of the loop nest as it is
invariant (its loop's preheader), or right after the header phis of the loop it evolves in;
values the analysis already maps to the expression are reused when they dominate the point and
reusing them is poison-safe; a binary operator or ``i8`` GEP identical to one of the six
instructions before the point is reused; casts of a value are shared. In canonical mode (the
default) an add recurrence ``{X,+,F}<L>`` becomes ``X + F * i`` over the loop's canonical
induction variable ``i`` (``indvar``, created when missing); with canonical mode off it becomes a
phi of its own (``<name>.iv`` / ``<name>.iv.next``), reusing a matching header phi, and post-inc
expansion (LFTR) gives the incremented value. Values used outside their loop get LCSSA phis
(``.lcssa``). The builder folds through InstructionSimplify as LLVM's ``InstSimplifyFolder``.

Also here: :meth:`SCEVExpander.is_high_cost_expansion` and
:meth:`SCEVExpander.get_related_existing_expansion` (the cost model, in
:mod:`.scalar_evolution_expander_cost`), :meth:`SCEVExpander.replace_congruent_ivs` (in
:mod:`.scalar_evolution_expander_ivs`), :func:`is_safe_to_expand` / :func:`is_safe_to_expand_at`
and the SCEV queries the analysis lacks (in :mod:`.scalar_evolution_expander_support`), and
:class:`SCEVExpanderCleaner`. ``rewrite_loop_exit_values`` (LoopUtils.cpp) is in
:mod:`.loop_utils`.

What it does not do: runtime predicate checks (``expandCodeForPredicate``), vscale, LSR mode's
IV chains beyond the ``chained phi`` marks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Sequence

from llvmpy_mid.analysis.loop_info import Loop
from llvmpy_mid.analysis.scalar_evolution_expressions import (
    FLAG_ANY_WRAP,
    FLAG_NSW,
    FLAG_NUW,
    FLAG_NW,
    SCEV,
    SCEVAddRecExpr,
    SCEVConstant,
    SCEVTypes,
    SCEVUnknown,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import Constant, ConstantInt, PoisonValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.types import IntegerType, Type
from llvmpy_mid.ir.value import Value

from llvmpy_mid.transform.utils.scalar_evolution_expander_support import (
    SCEV_CHEAP_EXPANSION_BUDGET,
    cheap_expansion_budget,
    get_canonical_induction_variable,
    is_safe_to_expand,
    is_safe_to_expand_at,
    any_extend as _any_extend,
    can_reuse_instruction as _can_reuse_instruction,
    contains_add_rec as _contains_add_rec,
    effective_type as _effective_type,
    evaluate_at_iteration as _evaluate_at_iteration,
    get_step as _get_step,
    InstSimplifyFolder as _InstSimplifyFolder,
    is_dbg_intrinsic as _is_dbg_intrinsic,
    is_loop_invariant as _is_loop_invariant,
    is_non_constant_negative as _is_non_constant_negative,
    is_overflowing_binop as _is_overflowing_binop,
    movement_preserves_lcssa as _movement_preserves_lcssa,
    noop_or_any_extend as _noop_or_any_extend,
    normalize_for_post_inc as _normalize_for_post_inc,
    remove_pointer_base as _remove_pointer_base,
    safe_to_hoist as _safe_to_hoist,
    scev_values as _scev_values,
    set_wrap_flags as _set_wrap_flags,
    strengthened_no_wrap_flags as _strengthened_no_wrap_flags,
    truncate_or_noop as _truncate_or_noop,
    type_bits as _type_bits,
    value_is_loop_invariant as _value_is_loop_invariant,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree

__all__ = [
    "SCEV_CHEAP_EXPANSION_BUDGET",
    "SCEVExpander",
    "SCEVExpanderCleaner",
    "cheap_expansion_budget",
    "get_canonical_induction_variable",
    "is_safe_to_expand",
    "is_safe_to_expand_at",
]

_CAST_KINDS = (SCEVTypes.TRUNCATE, SCEVTypes.ZERO_EXTEND, SCEVTypes.SIGN_EXTEND, SCEVTypes.PTR_TO_INT)
_MIN_MAX = {
    SCEVTypes.SMAX: ("smax", "smax"),
    SCEVTypes.UMAX: ("umax", "umax"),
    SCEVTypes.SMIN: ("smin", "smin"),
    SCEVTypes.UMIN: ("umin", "umin"),
    SCEVTypes.SEQ_UMIN: ("umin", "umin"),
}


class _InsertPointGuard:
    """Saves the builder's position and debug location and restores them on exit (LLVM
    ``SCEVInsertPointGuard``); the expander fixes a saved position when it moves the
    instruction it names."""

    __slots__ = ("expander", "block", "point", "debug_loc")

    def __init__(self, expander: SCEVExpander) -> None:
        b = expander.builder
        self.expander = expander
        self.block = b.block
        self.point = b.insert_before
        self.debug_loc = b.debug_loc

    def __enter__(self) -> _InsertPointGuard:
        self.expander._guards.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        g = self.expander._guards.pop()
        assert g is self
        b = self.expander.builder
        if self.block is not None:
            if self.point is not None and self.point.parent is not None:
                b.position_before(self.point)
            else:
                b.position_at_end(self.block)
        b.debug_loc = self.debug_loc


class SCEVExpander:
    """Expands SCEV expressions into IR (LLVM ``SCEVExpander``)."""

    def __init__(self, se: Any, dl: DataLayout | None, name: str, preserve_lcssa: bool = True) -> None:
        self.se = se
        if dl is None:
            dl = se.data_layout
        assert dl is not None
        self.dl: DataLayout = dl
        self.iv_name = name
        self.preserve_lcssa = preserve_lcssa
        self.inserted_expressions: dict[tuple[SCEV, object], Value] = {}
        self.inserted_values: dict[Value, None] = {}
        self.inserted_post_inc_values: dict[Value, None] = {}
        self.reused_values: set[Value] = set()
        self.orig_flags: dict[Instruction, dict[str, bool]] = {}
        self.relevant_loops: dict[SCEV, Loop | None] = {}
        self.post_inc_loops: set[Loop] = set()
        self.iv_inc_insert_loop: Loop | None = None
        self.iv_inc_insert_pos: Instruction | None = None
        self.chained_phis: set[PHINode] = set()
        self.canonical_mode = True
        self.lsr_mode = False
        self.inserted_ivs: list[PHINode] = []
        self._guards: list[_InsertPointGuard] = []
        self.builder = IRBuilder(folder=_InstSimplifyFolder(dl), inserter=self._remember_instruction)

    # --- state --------------------------------------------------------------------------------
    @property
    def dt(self) -> DominatorTree:
        return self.se.dt  # type: ignore[no-any-return]

    @property
    def li(self) -> Any:
        return self.se.li

    def clear(self) -> None:
        self.inserted_expressions.clear()
        self.inserted_values.clear()
        self.inserted_post_inc_values.clear()
        self.reused_values.clear()
        self.orig_flags.clear()
        self.chained_phis.clear()
        self.inserted_ivs.clear()

    def get_all_inserted_instructions(self) -> list[Instruction]:
        out: list[Instruction] = []
        for table in (self.inserted_values, self.inserted_post_inc_values):
            for v in table:
                if v in self.reused_values:
                    continue
                if isinstance(v, Instruction):
                    out.append(v)
        return out

    def get_inserted_ivs(self) -> list[PHINode]:
        return list(self.inserted_ivs)

    def is_inserted_instruction(self, i: Instruction) -> bool:
        return i in self.inserted_values or i in self.inserted_post_inc_values

    def set_iv_inc_insert_pos(self, loop: Loop | None, pos: Instruction | None) -> None:
        assert not self.canonical_mode, "IV increment positions are not supported in canonical mode"
        self.iv_inc_insert_loop = loop
        self.iv_inc_insert_pos = pos

    def set_post_inc(self, loops: set[Loop] | Sequence[Loop]) -> None:
        assert not self.canonical_mode, "post-inc expansion is not supported in canonical mode"
        self.post_inc_loops = set(loops)

    set_post_inc_loops = set_post_inc

    def clear_post_inc(self) -> None:
        self.post_inc_loops = set()
        self.inserted_post_inc_values.clear()

    def disable_canonical_mode(self) -> None:
        self.canonical_mode = False

    def enable_lsr_mode(self) -> None:
        self.lsr_mode = True

    def set_chained_phi(self, pn: PHINode) -> None:
        self.chained_phis.add(pn)

    def set_insert_point(self, ip: Instruction) -> None:
        self._set_ip(ip.parent, ip)  # type: ignore[arg-type]

    def clear_insert_point(self) -> None:
        self.builder.block = None
        self.builder.insert_before = None

    def _set_ip(self, block: BasicBlock, before: Instruction | None) -> None:
        b = self.builder
        if before is not None:
            b.position_before(before)
            b.debug_loc = before.stable_debug_loc
        else:
            b.position_at_end(block)

    def _remember_instruction(self, v: Value) -> None:
        if self.post_inc_loops:
            self.inserted_post_inc_values[v] = None
        else:
            self.inserted_values[v] = None

    def _remember_flags(self, inst: Instruction) -> None:
        if inst not in self.orig_flags:
            flags = {}
            for k in ("nuw", "nsw", "exact", "disjoint", "nneg"):
                if hasattr(inst, k):
                    flags[k] = bool(getattr(inst, k))
            self.orig_flags[inst] = flags

    # --- entry points -------------------------------------------------------------------------
    def expand_code_for(self, s: SCEV, ty: Type | None = None, at: Instruction | None = None) -> Value:
        """Code computing ``s`` before ``at`` (or at the current insertion point), of type ``ty``
        when given (a no-op cast of the expression's type)."""
        if at is not None:
            self.set_insert_point(at)
        v = self._expand(s)
        if ty is not None:
            src_bits = _type_bits(self.se, s.type)  # type: ignore[arg-type]
            assert _type_bits(self.se, ty) == src_bits, "non-trivial casts go through SCEV"
            v = self._insert_noop_cast_of_to(v, ty)
        return v

    def _expand_at(self, s: SCEV, block: BasicBlock, before: Instruction | None) -> Value:
        self._set_ip(block, before)
        return self._expand(s)

    # --- casts --------------------------------------------------------------------------------
    def _reuse_or_create_cast(
        self, v: Value, ty: Type, opcode: str, ip_block: BasicBlock, ip: Instruction | None
    ) -> Value:
        bip = self.builder.insert_before
        for user in v.users:
            if user.type is not ty or not isinstance(user, CastInst) or user.opcode != opcode:
                continue
            if ip is None or ip.parent is not user.parent or user is bip:
                continue
            if ip is user or user.comes_before(ip):
                return user
        with _InsertPointGuard(self):
            self._set_ip(ip_block, ip)
            return self.builder.create_cast(opcode, v, ty, v.name)

    def find_insert_point_after(
        self, inst: Instruction, must_dominate: Instruction | None
    ) -> tuple[BasicBlock, Instruction | None]:
        """LLVM ``findInsertPointAfter``: the position after ``inst`` (after phis, EH pads and
        the expander's own instructions)."""
        if inst.opcode == "invoke":
            block: BasicBlock = inst.normal_dest  # type: ignore[attr-defined]
            ip = block.first_instruction
        else:
            block = inst.parent  # type: ignore[assignment]
            ip = inst.next_instruction
        while ip is not None and isinstance(ip, PHINode):
            ip = ip.next_instruction
        if ip is not None and ip.opcode in ("landingpad", "catchpad", "cleanuppad"):
            ip = ip.next_instruction
        elif ip is not None and ip.opcode == "catchswitch" and must_dominate is not None:
            block = must_dominate.parent  # type: ignore[assignment]
            ip = block.first_insertion_point
        while ip is not None and self.is_inserted_instruction(ip) and ip is not must_dominate:
            ip = ip.next_instruction
        return block, ip

    def _optimal_insertion_point_for_cast_of(self, v: Value) -> tuple[BasicBlock, Instruction | None]:
        from llvmpy_mid.ir.function import Argument

        if isinstance(v, Argument):
            entry = v.parent.entry_block
            ip = entry.first_instruction
            while ip is not None and (
                (ip.opcode == "bitcast" and isinstance(ip.operands[0], Argument) and ip.operands[0] is not v)
                or _is_dbg_intrinsic(ip)
            ):
                ip = ip.next_instruction
            return entry, ip
        if isinstance(v, Instruction):
            return self.find_insert_point_after(v, self.builder.insert_before)
        fn = self.builder.function
        assert fn is not None
        entry = fn.entry_block
        return entry, entry.first_insertion_point

    def _insert_noop_cast_of_to(self, v: Value, ty: Type) -> Value:
        src = v.type
        if src is ty:
            return v
        if src.is_pointer and ty.is_integer:
            opcode = "ptrtoint"
        elif src.is_integer and ty.is_pointer:
            opcode = "inttoptr"
        else:
            opcode = "bitcast"
        if opcode == "inttoptr" and self.dl.is_non_integral_pointer_type(ty):
            return self.builder.create_gep(ty.context.i8, Constant.get_null_value(ty), [v], "scevgep")
        if opcode == "bitcast" and isinstance(v, CastInst) and v.operands[0].type is ty:
            return v.operands[0]
        if opcode in ("ptrtoint", "inttoptr"):
            inner_op = getattr(v, "opcode", None)
            if inner_op in ("ptrtoint", "inttoptr") and isinstance(v, (CastInst,)) or (
                v.is_constant and inner_op in ("ptrtoint", "inttoptr")
            ):
                op0 = v.operands[0]  # type: ignore[attr-defined]
                if _type_bits(self.se, v.type) == _type_bits(self.se, op0.type):
                    return op0  # type: ignore[no-any-return]
        if isinstance(v, Constant):
            from llvmpy_mid.ir.constant_expr import ConstantExpr

            return ConstantExpr.get_cast(opcode, v, ty)
        block, ip = self._optimal_insertion_point_for_cast_of(v)
        return self._reuse_or_create_cast(v, ty, opcode, block, ip)

    # --- binary operators ---------------------------------------------------------------------
    def _insert_binop(self, opcode: str, lhs: Value, rhs: Value, flags: int, safe_to_hoist: bool) -> Value:
        if isinstance(lhs, Constant) and isinstance(rhs, Constant):
            from llvmpy_mid.ir.constant_fold import constant_fold_binary_instruction

            res = constant_fold_binary_instruction(opcode, lhs, rhs)
            if res is not None:
                return res
        b = self.builder
        block = b.block
        assert block is not None
        ip = b.insert_before.prev_instruction if b.insert_before is not None else block.instructions.last
        limit = 6
        want_nsw = bool(flags & FLAG_NSW)
        want_nuw = bool(flags & FLAG_NUW)
        while ip is not None and limit:
            if _is_dbg_intrinsic(ip):
                limit += 1
            elif ip.opcode == opcode and ip.operands[0] is lhs and ip.operands[1] is rhs:
                ok = True
                if _is_overflowing_binop(ip):
                    if bool(getattr(ip, "nsw", False)) != want_nsw or bool(getattr(ip, "nuw", False)) != want_nuw:
                        ok = False
                if getattr(ip, "exact", False):
                    ok = False
                if ok:
                    return ip
            ip = ip.prev_instruction
            limit -= 1
        loc = b.insert_before.debug_loc if b.insert_before is not None else None
        with _InsertPointGuard(self):
            if safe_to_hoist:
                loop = self.li.loop_for(b.block)
                while loop is not None:
                    if not (_value_is_loop_invariant(loop, lhs) and _value_is_loop_invariant(loop, rhs)):
                        break
                    pre = loop.preheader
                    if pre is None:
                        break
                    self._set_ip(pre, pre.terminator)
                    loop = self.li.loop_for(pre)
            kw: dict[str, bool] = {}
            if opcode in ("add", "sub", "mul", "shl"):
                kw = {"nuw": want_nuw, "nsw": want_nsw}
            saved = b.debug_loc
            b.debug_loc = loc
            try:
                bo = b.binop(opcode, lhs, rhs, "", **kw)
            finally:
                b.debug_loc = saved
            return bo

    def _expand_add_to_gep(self, offset: SCEV, v: Value) -> Value:
        idx = self._expand(offset)
        b = self.builder
        i8 = b.context.i8
        if isinstance(v, Constant) and isinstance(idx, Constant):
            return b.create_gep(i8, v, [idx])
        block = b.block
        assert block is not None
        ip = b.insert_before.prev_instruction if b.insert_before is not None else block.instructions.last
        limit = 6
        while ip is not None and limit:
            if _is_dbg_intrinsic(ip):
                limit += 1
            elif (
                ip.opcode == "getelementptr"
                and ip.operands[0] is v
                and len(ip.operands) > 1
                and ip.operands[1] is idx
                and ip.source_element_type is i8  # type: ignore[attr-defined]
            ):
                return ip
            ip = ip.prev_instruction
            limit -= 1
        with _InsertPointGuard(self):
            loop = self.li.loop_for(b.block)
            while loop is not None:
                if not (_value_is_loop_invariant(loop, v) and _value_is_loop_invariant(loop, idx)):
                    break
                pre = loop.preheader
                if pre is None:
                    break
                self._set_ip(pre, pre.terminator)
                loop = self.li.loop_for(pre)
            return b.create_gep(i8, v, [idx], "scevgep")

    # --- relevant loops -----------------------------------------------------------------------
    def _pick_most_relevant_loop(self, a: Loop | None, b: Loop | None) -> Loop | None:
        if a is None:
            return b
        if b is None:
            return a
        if a.contains(b):
            return b
        if b.contains(a):
            return a
        dt = self.dt
        if dt.dominates_block(a.header, b.header):
            return b
        if dt.dominates_block(b.header, a.header):
            return a
        return a

    def _get_relevant_loop(self, s: SCEV) -> Loop | None:
        if s in self.relevant_loops:
            return self.relevant_loops[s]
        result: Loop | None = None
        if isinstance(s, SCEVUnknown):
            v = s.value
            if isinstance(v, Instruction) and v.parent is not None:
                result = self.li.loop_for(v.parent)
        elif s.kind is not SCEVTypes.CONSTANT:
            if isinstance(s, SCEVAddRecExpr):
                result = s.loop
            for op in s.operands:
                result = self._pick_most_relevant_loop(result, self._get_relevant_loop(op))
        self.relevant_loops[s] = result
        return result

    def _sorted_ops_and_loops(self, s: SCEV) -> list[tuple[Loop | None, SCEV]]:
        items = [(self._get_relevant_loop(op), op) for op in reversed(s.operands)]
        # A stable insertion sort with LLVM's LoopCompare ordering.
        out: list[tuple[Loop | None, SCEV]] = []
        for it in items:
            pos = len(out)
            while pos > 0 and self._loop_less(it, out[pos - 1]):
                pos -= 1
            out.insert(pos, it)
        return out

    def _loop_less(self, lhs: tuple[Loop | None, SCEV], rhs: tuple[Loop | None, SCEV]) -> bool:
        lp = bool(lhs[1].type.is_pointer)  # type: ignore[union-attr]
        rp = bool(rhs[1].type.is_pointer)  # type: ignore[union-attr]
        if lp != rp:
            return lp
        if lhs[0] is not rhs[0]:
            return self._pick_most_relevant_loop(lhs[0], rhs[0]) is not lhs[0]
        if _is_non_constant_negative(lhs[1]):
            return False
        return _is_non_constant_negative(rhs[1])

    # --- the visitor --------------------------------------------------------------------------
    def _visit(self, s: SCEV) -> Value:
        k = s.kind
        if isinstance(s, SCEVConstant):
            return s.ir_value
        if isinstance(s, SCEVUnknown):
            return s.value
        if k is SCEVTypes.ADD:
            return self._visit_add(s)
        if k is SCEVTypes.MUL:
            return self._visit_mul(s)
        if k is SCEVTypes.UDIV:
            return self._visit_udiv(s)
        if isinstance(s, SCEVAddRecExpr):
            return self._visit_add_rec(s)
        if k is SCEVTypes.TRUNCATE:
            v = self._expand(s.operands[0])
            return self.builder.create_trunc(v, s.type) if v.type is not s.type else v  # type: ignore[arg-type]
        if k is SCEVTypes.ZERO_EXTEND:
            v = self._expand(s.operands[0])
            nneg = self.se.is_known_non_negative(s.operands[0])
            return self._create_cast("zext", v, s.type, nneg=nneg)  # type: ignore[arg-type]
        if k is SCEVTypes.SIGN_EXTEND:
            v = self._expand(s.operands[0])
            return self._create_cast("sext", v, s.type)  # type: ignore[arg-type]
        if k is SCEVTypes.PTR_TO_INT:
            v = self._expand(s.operands[0])
            block, ip = self._optimal_insertion_point_for_cast_of(v)
            return self._reuse_or_create_cast(v, s.type, "ptrtoint", block, ip)  # type: ignore[arg-type]
        if k in _MIN_MAX:
            base, name = _MIN_MAX[k]
            return self._expand_min_max(s, base, name, k is SCEVTypes.SEQ_UMIN)
        raise ValueError("cannot expand %r" % s)

    def _create_cast(self, opcode: str, v: Value, ty: Type, *, nneg: bool = False) -> Value:
        if v.type is ty:
            return v
        b = self.builder
        folded = b.folder.fold_cast(opcode, v, ty) if b.folder is not None else None
        if folded is not None:
            return folded
        if opcode == "zext":
            return b.zext(v, ty, "", nneg=nneg)
        return b.cast(opcode, v, ty, "")

    def _visit_add(self, s: SCEV) -> Value:
        ops = self._sorted_ops_and_loops(s)
        total: Value | None = None
        i = 0
        n = len(ops)
        while i < n:
            cur_loop, op = ops[i]
            if total is None:
                total = self._expand(op)
                i += 1
                continue
            if total.type.is_pointer:
                new_ops: list[SCEV] = []
                while i < n and ops[i][0] is cur_loop:
                    x = ops[i][1]
                    if isinstance(x, SCEVUnknown) and not isinstance(x.value, Instruction):
                        x = self.se.get_scev(x.value)
                    new_ops.append(x)
                    i += 1
                total = self._expand_add_to_gep(self.se.get_add_expr(new_ops), total)
            elif _is_non_constant_negative(op):
                w = self._expand(self.se.get_negative_scev(op))
                total = self._insert_binop("sub", total, w, FLAG_ANY_WRAP, True)
                i += 1
            else:
                w = self._expand(op)
                if isinstance(total, Constant):
                    total, w = w, total
                total = self._insert_binop("add", total, w, s.flags & (FLAG_NUW | FLAG_NSW), True)
                i += 1
        assert total is not None
        return total

    def _visit_mul(self, s: SCEV) -> Value:
        ty = s.type
        assert isinstance(ty, IntegerType)
        ops = self._sorted_ops_and_loops(s)
        n = len(ops)
        pos = 0

        def bin_pow() -> Value:
            nonlocal pos
            end = pos
            exponent = 0
            while end < n and ops[end][0] is ops[pos][0] and ops[end][1] is ops[pos][1]:
                exponent += 1
                end += 1
            p = self._expand(ops[pos][1])
            result: Value | None = p if exponent & 1 else None
            bexp = 2
            while bexp <= exponent:
                p = self._insert_binop("mul", p, p, FLAG_ANY_WRAP, True)
                if exponent & bexp:
                    result = self._insert_binop("mul", result, p, FLAG_ANY_WRAP, True) if result is not None else p
                bexp <<= 1
            pos = end
            assert result is not None
            return result

        prod: Value | None = None
        wrap = s.flags & (FLAG_NUW | FLAG_NSW)
        while pos < n:
            if prod is None:
                prod = bin_pow()
            elif ops[pos][1].is_all_ones():
                prod = self._insert_binop("sub", ConstantInt.get(ty, 0), prod, FLAG_ANY_WRAP, True)
                pos += 1
            else:
                w = bin_pow()
                if isinstance(prod, Constant):
                    prod, w = w, prod
                if isinstance(w, ConstantInt) and w.value and (w.value & (w.value - 1)) == 0:
                    log2 = w.value.bit_length() - 1
                    nw = wrap
                    if log2 == ty.width - 1:
                        nw &= ~FLAG_NSW
                    prod = self._insert_binop("shl", prod, ConstantInt.get(ty, log2), nw, True)
                else:
                    prod = self._insert_binop("mul", prod, w, wrap, True)
        assert prod is not None
        return prod

    def _visit_udiv(self, s: SCEV) -> Value:
        lhs = self._expand(s.operands[0])
        rhs_s = s.operands[1]
        if isinstance(rhs_s, SCEVConstant) and rhs_s.value and (rhs_s.value & (rhs_s.value - 1)) == 0:
            shift = ConstantInt.get(rhs_s.type, rhs_s.value.bit_length() - 1)  # type: ignore[arg-type]
            return self._insert_binop("lshr", lhs, shift, FLAG_ANY_WRAP, True)
        rhs = self._expand(rhs_s)
        return self._insert_binop("udiv", lhs, rhs, FLAG_ANY_WRAP, bool(self.se.is_known_non_zero(rhs_s)))

    def _expand_min_max(self, s: SCEV, base: str, name: str, sequential: bool) -> Value:
        b = self.builder
        lhs = self._expand(s.operands[-1])
        ty = lhs.type
        if sequential:
            lhs = b.create_freeze(lhs)
        for i in range(len(s.operands) - 2, -1, -1):
            rhs = self._expand(s.operands[i])
            if sequential and i != 0:
                rhs = b.create_freeze(rhs)
            if ty.is_integer:
                lhs = b.create_intrinsic(base, [ty], [lhs, rhs], name)
            else:
                pred = {
                    "smax": Predicate.ICMP_SGT,
                    "umax": Predicate.ICMP_UGT,
                    "smin": Predicate.ICMP_SLT,
                    "umin": Predicate.ICMP_ULT,
                }[base]
                cmp = b.create_icmp(pred, lhs, rhs)
                lhs = b.create_select(cmp, lhs, rhs, name)
        return lhs

    # --- add recurrences ----------------------------------------------------------------------
    def _visit_add_rec(self, s: SCEVAddRecExpr) -> Value:
        if not self.canonical_mode or len(s.operands) > 2:
            return self._expand_add_rec_literally(s)
        se = self.se
        ty = _effective_type(se, s.type)  # type: ignore[arg-type]
        loop = s.loop
        canonical_iv: PHINode | None = None
        pn = get_canonical_induction_variable(loop)
        if pn is not None and _type_bits(se, pn.type) >= _type_bits(se, ty):
            canonical_iv = pn
        is_pointer = bool(s.type.is_pointer)  # type: ignore[union-attr]
        if canonical_iv is not None and _type_bits(se, canonical_iv.type) > _type_bits(se, ty) and not is_pointer:
            new_ops = [_any_extend(se, op, canonical_iv.type) for op in s.operands]
            v = self._expand(se.get_add_rec_expr(new_ops, loop, s.flags & FLAG_NW))
            if not isinstance(v, Instruction):
                return self._expand(se.get_truncate_expr(se.get_scev(v), ty))
            block, ip = self.find_insert_point_after(v, self.builder.insert_before)
            return self._expand_at(se.get_truncate_expr(se.get_unknown(v), ty), block, ip)
        if not s.start.is_zero():
            if s.type.is_pointer:  # type: ignore[union-attr]
                start_v = self._expand(se.get_pointer_base(s))
                return self._expand_add_to_gep(_remove_pointer_base(se, s), start_v)
            new_ops = list(s.operands)
            new_ops[0] = se.get_zero(ty)
            rest = se.get_add_rec_expr(new_ops, loop, s.flags & FLAG_NW)
            lhs = se.get_unknown(self._expand(s.start))
            rhs = se.get_unknown(self._expand(rest))
            return self._expand(se.get_add_expr([lhs, rhs]))
        if canonical_iv is None:
            header = loop.header
            preds = header.predecessors
            canonical_iv = PHINode(ty, ())
            canonical_iv.insert_before(header.first_instruction)  # type: ignore[arg-type]
            canonical_iv.set_name("indvar")
            self._remember_instruction(canonical_iv)
            one = ConstantInt.get(ty, 1)
            seen: set[BasicBlock] = set()
            for hp in preds:
                if hp in seen:
                    canonical_iv.add_incoming(canonical_iv.incoming_value_for_block(hp), hp)
                    continue
                seen.add(hp)
                if loop.contains(hp):
                    from llvmpy_mid.ir.instructions.binary import AddInst

                    term = hp.terminator
                    assert term is not None
                    add = AddInst(canonical_iv, one)
                    add.insert_before(term)
                    add.set_name("indvar.next")
                    if term.debug_loc is not None:
                        add.debug_loc = term.debug_loc
                    self._remember_instruction(add)
                    canonical_iv.add_incoming(add, hp)
                else:
                    canonical_iv.add_incoming(ConstantInt.get(ty, 0), hp)
        if s.is_affine() and s.operands[1].is_one():
            return canonical_iv
        civ = se.get_unknown(canonical_iv)
        if s.is_affine():
            prod = se.get_mul_expr([civ, _noop_or_any_extend(se, s.operands[1], canonical_iv.type)])
            return self._expand(_truncate_or_noop(se, prod, ty))
        new_s: SCEV = s
        ext = _noop_or_any_extend(se, s, canonical_iv.type)
        if isinstance(ext, SCEVAddRecExpr):
            new_s = ext
        assert isinstance(new_s, SCEVAddRecExpr)
        val = _evaluate_at_iteration(se, new_s, civ)
        if val is None:
            return self._expand_add_rec_literally(s)
        return self._expand(_truncate_or_noop(se, val, ty))

    def _is_normal_add_rec_expr_phi(self, pn: PHINode, inc: Instruction, loop: Loop) -> bool:
        cur: Instruction | None = inc
        while True:
            assert cur is not None
            if not cur.operands or isinstance(cur, PHINode) or (isinstance(cur, CastInst) and cur.opcode != "bitcast"):
                return False
            if loop is self.iv_inc_insert_loop and self.iv_inc_insert_pos is not None:
                for op in cur.operands[1:]:
                    if isinstance(op, Instruction) and not self.dt.dominates(op, self.iv_inc_insert_pos):
                        return False
            nxt = cur.operands[0]
            if not isinstance(nxt, Instruction):
                return False
            if nxt.may_have_side_effects():
                return False
            if nxt is pn:
                return True
            cur = nxt

    def get_iv_inc_operand(self, inc: Instruction, insert_pos: Instruction, allow_scale: bool) -> Instruction | None:
        """The induction-variable operand of an IV increment (LLVM ``getIVIncOperand``)."""
        if inc is insert_pos:
            return None
        op = inc.opcode
        if op in ("add", "sub"):
            o = inc.operands[1]
            if not isinstance(o, Instruction) or self.dt.dominates(o, insert_pos):
                r = inc.operands[0]
                return r if isinstance(r, Instruction) else None
            return None
        if op == "bitcast":
            r = inc.operands[0]
            return r if isinstance(r, Instruction) else None
        if op == "getelementptr":
            for u in inc.operands[1:]:
                if isinstance(u, Constant):
                    continue
                if isinstance(u, Instruction) and not self.dt.dominates(u, insert_pos):
                    return None
                if allow_scale:
                    continue
                src = inc.source_element_type  # type: ignore[attr-defined]
                if not (isinstance(src, IntegerType) and src.width == 8):
                    return None
                break
            r = inc.operands[0]
            return r if isinstance(r, Instruction) else None
        return None

    def _fixup_insert_points(self, inst: Instruction) -> None:
        nxt = inst.next_instruction
        b = self.builder
        if b.insert_before is inst:
            if nxt is not None:
                b.position_before(nxt)
            else:
                b.position_at_end(inst.parent)  # type: ignore[arg-type]
        for g in self._guards:
            if g.point is inst:
                g.point = nxt

    def hoist_iv_inc(self, inc: Instruction, insert_pos: Instruction, recompute_poison_flags: bool = False) -> bool:
        """Move an IV increment (and its chain back to the phi) before ``insert_pos`` (LLVM
        ``hoistIVInc``)."""

        def fixup(i: Instruction) -> None:
            self._remember_flags(i)
            if hasattr(i, "drop_poison_generating_flags"):
                i.drop_poison_generating_flags()
            if _is_overflowing_binop(i):
                fl = _strengthened_no_wrap_flags(self.se, i)
                if fl is not None:
                    _set_wrap_flags(i, fl[0], fl[1])

        if self.dt.dominates(inc, insert_pos):
            if recompute_poison_flags:
                fixup(inc)
            return True
        if isinstance(insert_pos, PHINode):
            return False
        if not self.dt.dominates_block(insert_pos.parent, inc.parent):  # type: ignore[arg-type]
            return False
        if not _movement_preserves_lcssa(self.li, inc, insert_pos):
            return False
        chain: list[Instruction] = []
        cur = inc
        while True:
            oper = self.get_iv_inc_operand(cur, insert_pos, True)
            if oper is None:
                return False
            chain.append(cur)
            cur = oper
            if self.dt.dominates(cur, insert_pos):
                break
        for i in reversed(chain):
            self._fixup_insert_points(i)
            i.move_before(insert_pos)
            if recompute_poison_flags:
                fixup(i)
        return True

    @staticmethod
    def can_reuse_flags_from_original_iv_inc(
        orig_phi: PHINode, wide_phi: PHINode, orig_inc: Instruction, wide_inc: Instruction
    ) -> bool:
        def binop_of(inc: Instruction, pn: PHINode) -> bool:
            from llvmpy_mid.ir.instructions.binary import BinaryOperator

            return isinstance(inc, BinaryOperator) and (inc.operands[0] is pn or inc.operands[1] is pn)

        return binop_of(orig_inc, orig_phi) and binop_of(wide_inc, wide_phi) and orig_inc.opcode == wide_inc.opcode

    def is_expanded_add_rec_expr_phi(self, pn: PHINode, inc: Instruction, loop: Loop) -> bool:
        pre = loop.preheader
        if pre is None or pre.terminator is None:
            return False
        term = pre.terminator
        oper: Instruction | None = inc
        while True:
            oper = self.get_iv_inc_operand(oper, term, False)  # type: ignore[arg-type]
            if oper is None:
                return False
            if oper is pn:
                return True

    def _expand_iv_inc(self, pn: PHINode, step_v: Value, loop: Loop, use_subtract: bool) -> Value:
        b = self.builder
        if pn.type.is_pointer:
            return b.create_gep(b.context.i8, pn, [step_v], "scevgep")
        if use_subtract:
            return b.create_sub(pn, step_v, self.iv_name + ".iv.next")
        return b.create_add(pn, step_v, self.iv_name + ".iv.next")

    def _can_be_cheaply_transformed(self, phi: SCEVAddRecExpr, requested: SCEVAddRecExpr) -> bool | None:
        """None when no; else whether the step must be inverted (LLVM ``canBeCheaplyTransformed``)."""
        se = self.se
        if phi.type.is_pointer or requested.type.is_pointer:  # type: ignore[union-attr]
            return None
        if requested.type.width > phi.type.width:  # type: ignore[union-attr]
            return None
        tr = _truncate_or_noop(se, phi, requested.type)  # type: ignore[arg-type]
        if not isinstance(tr, SCEVAddRecExpr):
            return None
        if tr is requested:
            return False
        if se.get_minus_scev(requested.start, requested) is tr:
            return True
        return None

    def _is_increment_nw(self, ar: SCEVAddRecExpr, signed: bool) -> bool:
        se = self.se
        ty = ar.type
        if not isinstance(ty, IntegerType):
            return False
        wide = ty.context.int_type(ty.width * 2)
        ext = se.get_sign_extend_expr if signed else se.get_zero_extend_expr
        step = _get_step(se, ar)
        after = se.get_add_expr([ext(step, wide), ext(ar, wide)])
        before = ext(se.get_add_expr([ar, step]), wide)
        return bool(after is before)

    def _get_add_rec_expr_phi_literally(
        self, normalized: SCEVAddRecExpr, loop: Loop
    ) -> tuple[PHINode, Type | None, bool]:
        se = self.se
        dt = self.dt
        latch = loop.latch
        if latch is not None:
            match: PHINode | None = None
            inc_v: Instruction | None = None
            trunc_ty: Type | None = None
            invert = False
            try_non_matching = self.iv_inc_insert_loop is not None and dt.properly_dominates(
                latch, self.iv_inc_insert_loop.header
            )
            for pn in loop.header.phis():
                if not se.is_scevable(pn.type) or not pn.is_complete:
                    continue
                phi_scev = se.get_scev(pn)
                if not isinstance(phi_scev, SCEVAddRecExpr):
                    continue
                matching = phi_scev is normalized
                if not matching and not try_non_matching:
                    continue
                temp_inc = pn.incoming_value_for_block(latch)
                if not isinstance(temp_inc, Instruction):
                    continue
                if self.lsr_mode:
                    if not self.is_expanded_add_rec_expr_phi(pn, temp_inc, loop):
                        continue
                elif not self._is_normal_add_rec_expr_phi(pn, temp_inc, loop):
                    continue
                if matching:
                    inc_v = temp_inc
                    trunc_ty = None
                    invert = False
                    match = pn
                    break
                if trunc_ty is None or invert:
                    inv = self._can_be_cheaply_transformed(phi_scev, normalized)
                    if inv is not None:
                        invert = inv
                        match = pn
                        inc_v = temp_inc
                        trunc_ty = normalized.type
            if match is not None:
                assert inc_v is not None
                self.inserted_values[match] = None
                self._remember_instruction(inc_v)
                self.reused_values.add(match)
                self.reused_values.add(inc_v)
                return match, trunc_ty, invert
        with _InsertPointGuard(self):
            saved_post_inc = self.post_inc_loops
            self.post_inc_loops = set()
            pre = loop.preheader
            assert pre is not None, "cannot expand add recurrences without a loop preheader"
            start_v = self._expand_at(normalized.start, pre, pre.terminator)
            step = _get_step(se, normalized)
            expand_ty = normalized.type
            use_subtract = not expand_ty.is_pointer and _is_non_constant_negative(step)  # type: ignore[union-attr]
            if use_subtract:
                step = se.get_negative_scev(step)
            header = loop.header
            step_v = self._expand_at(step, header, header.first_insertion_point)
            inc_nuw = not use_subtract and self._is_increment_nw(normalized, False)
            inc_nsw = not use_subtract and self._is_increment_nw(normalized, True)
            self._set_ip(header, header.first_instruction)
            pn = self.builder.phi(expand_ty, self.iv_name + ".iv")  # type: ignore[arg-type]
            for pred in header.predecessors:
                if not loop.contains(pred):
                    pn.add_incoming(start_v, pred)
                    continue
                pos = self.iv_inc_insert_pos if loop is self.iv_inc_insert_loop else pred.terminator
                assert pos is not None
                self._set_ip(pos.parent, pos)  # type: ignore[arg-type]
                inc = self._expand_iv_inc(pn, step_v, loop, use_subtract)
                if _is_overflowing_binop(inc):
                    if inc_nuw:
                        inc.nuw = True  # type: ignore[attr-defined]
                    if inc_nsw:
                        inc.nsw = True  # type: ignore[attr-defined]
                pn.add_incoming(inc, pred)
            self.post_inc_loops = saved_post_inc
            self.inserted_values[pn] = None
            self.inserted_ivs.append(pn)
            return pn, None, False

    def _expand_add_rec_literally(self, s: SCEVAddRecExpr) -> Value:
        se = self.se
        loop = s.loop
        normalized: SCEV = s
        if loop in self.post_inc_loops:
            normalized = _normalize_for_post_inc(se, s, {loop})
        assert isinstance(normalized, SCEVAddRecExpr)
        step = _get_step(se, normalized)
        pn, trunc_ty, invert = self._get_add_rec_expr_phi_literally(normalized, loop)
        result: Value
        if loop not in self.post_inc_loops:
            result = pn
        else:
            latch = loop.latch
            assert latch is not None, "post-inc mode needs a unique loop latch"
            result = pn.incoming_value_for_block(latch)
            if _is_overflowing_binop(result):
                if not s.has_flags(FLAG_NUW):
                    result.nuw = False  # type: ignore[attr-defined]
                if not s.has_flags(FLAG_NSW):
                    result.nsw = False  # type: ignore[attr-defined]
            b = self.builder
            here = b.insert_before
            if isinstance(result, Instruction) and here is not None and not self.dt.dominates(result, here):
                use_subtract = not s.type.is_pointer and _is_non_constant_negative(step)  # type: ignore[union-attr]
                if use_subtract:
                    step = se.get_negative_scev(step)
                with _InsertPointGuard(self):
                    header = loop.header
                    step_v = self._expand_at(step, header, header.first_insertion_point)
                result = self._expand_iv_inc(pn, step_v, loop, use_subtract)
        if trunc_ty is not None:
            if trunc_ty is not result.type:
                result = self.builder.create_trunc(result, trunc_ty)
            if invert:
                result = self.builder.create_sub(self._expand(normalized.start), result)
        return result

    # --- expand -------------------------------------------------------------------------------
    def find_value_in_expr_value_map(self, s: SCEV, at: Instruction | None, drop: list[Instruction]) -> Value | None:
        if not self.canonical_mode and _contains_add_rec(s):
            return None
        if isinstance(s, SCEVConstant) or at is None:
            return None
        li = self.li
        for v in _scev_values(self.se, s):
            if not isinstance(v, Instruction) or v.parent is None:
                continue
            if s.type is not v.type or not self.dt.dominates(v, at):
                continue
            vl = li.loop_for(v.parent)
            if vl is not None and not vl.contains(at):
                continue
            if _can_reuse_instruction(self.se, s, v, drop):
                return v
            drop.clear()
        return None

    def _expand(self, s: SCEV) -> Value:
        b = self.builder
        block = b.block
        assert block is not None, "the expander has no insertion point"
        ip_block: BasicBlock = block
        ip: Instruction | None = b.insert_before
        if _safe_to_hoist(s):
            loop = self.li.loop_for(block)
            while True:
                if _is_loop_invariant(self.se, s, loop):
                    if loop is None:
                        break
                    pre = loop.preheader
                    if pre is not None:
                        ip_block, ip = pre, pre.terminator
                    else:
                        ip_block, ip = loop.header, loop.header.first_insertion_point
                else:
                    if (
                        loop is not None
                        and self.se.has_computable_loop_evolution(s, loop)
                        and loop not in self.post_inc_loops
                    ):
                        ip_block, ip = loop.header, loop.header.first_insertion_point
                    while (
                        ip is not None
                        and ip is not b.insert_before
                        and (self.is_inserted_instruction(ip) or _is_dbg_intrinsic(ip))
                    ):
                        ip = ip.next_instruction
                    break
                loop = loop.parent_loop
        key = (s, ip if ip is not None else ip_block)
        found = self.inserted_expressions.get(key)
        if found is not None and not (isinstance(found, Instruction) and found.parent is None):
            return found
        with _InsertPointGuard(self):
            self._set_ip(ip_block, ip)
            drop: list[Instruction] = []
            v = self.find_value_in_expr_value_map(s, ip, drop)
            if v is None:
                v = self._visit(s)
                v = self._fixup_lcssa_form_for(v)
            else:
                self._drop_poison_for_reuse(drop)
            self.inserted_expressions[key] = v
        return v

    def _drop_poison_for_reuse(self, drop: list[Instruction]) -> None:
        from llvmpy_mid.analysis.implied_condition import is_implied_by_dom_condition_pred
        from llvmpy_mid.transform.instcombine.select_icmp import drop_poison_generating_annotations

        for inst in drop:
            self._remember_flags(inst)
            drop_poison_generating_annotations(inst)
            if _is_overflowing_binop(inst):
                fl = _strengthened_no_wrap_flags(self.se, inst)
                if fl is not None:
                    _set_wrap_flags(inst, fl[0], fl[1])
            if inst.opcode in ("zext", "uitofp"):
                src = inst.operands[0]
                if src.type.is_integer:
                    zero = ConstantInt.get(src.type, 0)
                    if is_implied_by_dom_condition_pred(Predicate.ICMP_SGE, src, zero, inst, self.dl):
                        inst.nneg = True  # type: ignore[attr-defined]

    def _fixup_lcssa_form_for(self, v: Value) -> Value:
        if not self.preserve_lcssa or not isinstance(v, Instruction):
            return v
        b = self.builder
        li = self.li
        use_block = b.block
        assert use_block is not None
        def_loop = li.loop_for(v.parent)
        use_loop = li.loop_for(use_block)
        if def_loop is None or use_loop is def_loop or (use_loop is not None and def_loop.contains(use_loop)):
            return v
        from llvmpy_mid.transform.utils.lcssa import form_lcssa_for_instructions

        ctx = v.type.context
        to_ty = ctx.pointer_type(0) if v.type.is_integer else ctx.i32
        user_op = "inttoptr" if v.type.is_integer else ("ptrtoint" if v.type.is_pointer else "bitcast")
        user = CastInst.create(user_op, v, to_ty)
        if b.insert_before is not None:
            user.insert_before(b.insert_before)
        else:
            use_block._append_instruction(user)
        user.set_name("tmp.lcssa.user")
        try:
            to_remove: list[PHINode] = []
            inserted: list[PHINode] = []
            form_lcssa_for_instructions([v], self.dt, li, None, to_remove, inserted)
            for pn in inserted:
                self._remember_instruction(pn)
            for pn in to_remove:
                if pn.has_uses:
                    continue
                self.inserted_values.pop(pn, None)
                self.inserted_post_inc_values.pop(pn, None)
                pn.erase_from_parent()
            return user.operands[0]
        finally:
            user.drop_all_references()
            user.erase_from_parent()

    # --- existing expansions and costs (scalar_evolution_expander_cost) -----------------------
    def get_related_existing_expansion(self, s: SCEV, at: Instruction, loop: Loop) -> Value | None:
        """A value computing ``s`` available at ``at``: an instruction operand of an exit
        compare of ``loop`` or a value the analysis maps to ``s`` (LLVM
        ``getRelatedExistingExpansion``)."""
        from llvmpy_mid.transform.utils.scalar_evolution_expander_cost import get_related_existing_expansion

        return get_related_existing_expansion(self, s, at, loop)

    def has_related_existing_expansion(self, s: SCEV, at: Instruction, loop: Loop) -> bool:
        return self.get_related_existing_expansion(s, at, loop) is not None

    def is_high_cost_expansion(self, exprs: Sequence[SCEV], loop: Loop, budget: int, tti: Any, at: Instruction) -> bool:
        """Whether expanding ``exprs`` at ``at`` costs more than ``budget`` basic instructions
        (LLVM ``isHighCostExpansion``); without a TTI every expansion is high-cost."""
        from llvmpy_mid.transform.utils.scalar_evolution_expander_cost import is_high_cost_expansion

        return is_high_cost_expansion(self, exprs, loop, budget, tti, at)

    # --- congruent induction variables (scalar_evolution_expander_ivs) ------------------------
    def replace_congruent_ivs(self, loop: Loop, dt: Any, dead: list[Value], tti: Any = None) -> int:
        """Replace the header phis SCEV proves equal to another (or to a truncation of a wider
        one) by it; returns how many (LLVM ``replaceCongruentIVs``)."""
        from llvmpy_mid.transform.utils.scalar_evolution_expander_ivs import replace_congruent_ivs

        return replace_congruent_ivs(self, loop, dt, dead, tti)

    # --- safety -------------------------------------------------------------------------------
    def is_safe_to_expand(self, s: SCEV) -> bool:
        return is_safe_to_expand(s, self.se, self.canonical_mode)

    def is_safe_to_expand_at(self, s: SCEV, at: Instruction) -> bool:
        return is_safe_to_expand_at(s, at, self.se, self.canonical_mode)


class SCEVExpanderCleaner:
    """Removes what an expander inserted unless :meth:`mark_result_used` is called (LLVM
    ``SCEVExpanderCleaner``); use it as a context manager or call :meth:`cleanup`."""

    def __init__(self, expander: SCEVExpander) -> None:
        self.expander = expander
        self.result_used = False

    def mark_result_used(self) -> None:
        self.result_used = True

    def __enter__(self) -> SCEVExpanderCleaner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()

    def cleanup(self) -> None:
        if self.result_used:
            return
        ex = self.expander
        for inst, flags in ex.orig_flags.items():
            for k, v in flags.items():
                setattr(inst, k, v)
        inserted = ex.get_all_inserted_instructions()
        ex.clear()
        for inst in reversed(inserted):
            if inst.parent is None:
                continue
            inst.replace_all_uses_with(PoisonValue.get(inst.type))
            inst.erase_from_parent()


def iter_inserted(expander: SCEVExpander) -> Iterator[Instruction]:
    """The instructions ``expander`` inserted (and did not merely reuse)."""
    return iter(expander.get_all_inserted_instructions())
