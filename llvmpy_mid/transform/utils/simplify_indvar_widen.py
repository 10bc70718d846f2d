"""Induction-variable widening (the ``WidenIV`` half of LLVM 19.1.7
``lib/Transforms/Utils/SimplifyIndVar.cpp``; the rest is in
:mod:`~llvmpy_mid.transform.utils.simplify_indvar`).

What: :func:`create_wide_iv` takes a narrow header phi and the widest integer type its sign or
zero extensions reach (:class:`WideIVInfo`), asks the SCEV expander for a wide phi with the
extended recurrence (``indvars.iv``/``indvars.iv.next``), then walks the narrow IV's def-use
chain: extensions of it disappear, arithmetic users that stay recurrences after widening are
cloned wide (reusing the expander's increment when it matches), comparisons are widened with
the other operand extended (hoisted out of loops as far as it is invariant), add/sub/mul users
whose result is only extended are widened too, LCSSA phis get a wide phi and a ``trunc``, and
every other user is given a ``trunc`` of the wide value, leaving the narrow IV dead for the
caller to delete. Post-increment ranges (from the in-loop conditions that dominate a use of
``iv + C``) let a narrow value be treated as non-negative where it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.scalar_evolution_expressions import SCEV, SCEVAddRecExpr
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.types import IntegerType, Type
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.simplify_indvar import find_common_dominator, se_is_known_predicate_at

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
    from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.dominators import DominatorTree

__all__ = ["WideIVInfo", "WidenIV", "create_wide_iv"]

_ZERO = 0
_SIGN = 1
_UNKNOWN = 2

_ARITH_CLONE = frozenset(("add", "mul", "udiv", "sub"))
_BITWISE_CLONE = frozenset(("and", "or", "xor", "shl", "lshr", "ashr"))


@attrs.define
class WideIVInfo:
    """A narrow IV, the widest type it is extended to, and whether a ``sext`` was seen
    before a ``zext`` (LLVM ``WideIVInfo``)."""

    narrow_iv: PHINode | None = None
    width_ty: Type | None = None
    is_signed: bool = False


class _DefUse:
    """One edge of the narrow IV's def-use chain with the wide value of its def (LLVM
    ``NarrowIVDefUse``)."""

    __slots__ = ("narrow_def", "narrow_use", "wide_def", "never_negative")

    def __init__(self, narrow_def: Instruction, narrow_use: Instruction, wide_def: Instruction, never_negative: bool) -> None:
        self.narrow_def = narrow_def
        self.narrow_use = narrow_use
        self.wide_def = wide_def
        self.never_negative = never_negative


def _binary_op(op: Instruction) -> tuple[str, Value, Value, bool, bool] | None:
    """The integer operation ``op`` stands for, as (opcode, lhs, rhs, nsw, nuw): add, sub and
    mul as they are, ``or disjoint`` as ``add nsw nuw``, ``shl`` by a constant as ``mul``
    (LLVM ``matchBinaryOp`` of SimplifyIndVar)."""
    opc = op.opcode
    if opc not in ("add", "sub", "mul", "or", "shl"):
        return None
    a, b = op.operands[0], op.operands[1]
    if opc in ("add", "sub", "mul"):
        return opc, a, b, bool(getattr(op, "nsw", False)), bool(getattr(op, "nuw", False))
    if opc == "or":
        if getattr(op, "disjoint", False):
            return "add", a, b, True, True
        return None
    if opc == "shl" and isinstance(b, ConstantInt) and isinstance(b.type, IntegerType):
        width = b.type.width
        if b.value < width:
            nuw = bool(getattr(op, "nuw", False))
            nsw = bool(getattr(op, "nsw", False)) and (nuw or b.value < width - 1)
            return "mul", a, ConstantInt.get(b.type, 1 << b.value), nsw, nuw
    return None


def _insert_point_for_uses(user: Instruction, defn: Value, dt: DominatorTree, li: LoopInfo) -> Instruction | None:
    """Where to put code for the uses of ``defn`` by ``user``: before it, or for a phi at the
    end of the nearest common dominator of its incoming blocks, in ``defn``'s loop (LLVM
    ``getInsertPointForUses``)."""
    if not isinstance(user, PHINode):
        return user
    insert_pt: Instruction | None = None
    for i in range(user.num_incoming):
        if user.get_incoming_value(i) is not defn:
            continue
        bb = user.get_incoming_block(i)
        if not dt.is_reachable(bb):
            continue
        if insert_pt is None:
            insert_pt = bb.terminator
            continue
        assert insert_pt.parent is not None
        ncd = dt.nearest_common_dominator(insert_pt.parent, bb)
        assert ncd is not None
        insert_pt = ncd.terminator
    if insert_pt is None:
        return None
    if not isinstance(defn, Instruction):
        return insert_pt
    assert defn.parent is not None and insert_pt.parent is not None
    loop = li.loop_for(defn.parent)
    node: BasicBlock | None = insert_pt.parent
    while node is not None:
        if li.loop_for(node) is loop:
            return node.terminator
        node = dt.idom(node)
    return insert_pt


def _builder_before(inst: Instruction) -> IRBuilder:
    """LLVM ``IRBuilder<> Builder(Inst)``: before ``inst``, with its stable debug location."""
    b = IRBuilder(folder=ConstantFolder())
    b.position_before(inst)
    b.debug_loc = inst.stable_debug_loc
    return b


def _is_single_edge(start: BasicBlock, end: BasicBlock) -> bool:
    return sum(1 for s in start.successors if s is end) == 1


def _expander_can_reuse_flags(orig_phi: PHINode, wide_phi: PHINode, orig_inc: Instruction, wide_inc: Instruction) -> bool:
    """LLVM ``SCEVExpander::canReuseFlagsFromOriginalIVInc``."""
    from llvmpy_mid.transform.utils.scalar_evolution_expander import SCEVExpander

    return SCEVExpander.can_reuse_flags_from_original_iv_inc(orig_phi, wide_phi, orig_inc, wide_inc)


class WidenIV:
    """Widens one narrow IV (LLVM ``WidenIV``)."""

    def __init__(
        self,
        wi: WideIVInfo,
        li: LoopInfo,
        se: ScalarEvolution,
        dt: DominatorTree,
        dead: list[Value],
        has_guards: bool,
        use_post_inc_ranges: bool = True,
    ) -> None:
        assert wi.narrow_iv is not None and wi.width_ty is not None
        self.orig_phi: PHINode = wi.narrow_iv
        self.wide_type: Type = wi.width_ty
        self.li = li
        assert self.orig_phi.parent is not None
        loop = li.loop_for(self.orig_phi.parent)
        assert loop is not None
        self.loop: Loop = loop
        self.se = se
        self.dt = dt
        self.has_guards = has_guards
        self.use_post_inc_ranges = use_post_inc_ranges
        self.dead = dead
        self.num_elim_ext = 0
        self.num_widened = 0
        self.wide_phi: PHINode | None = None
        self.wide_inc: Instruction | None = None
        self.wide_inc_expr: SCEV | None = None
        self.widened: set[Instruction] = set()
        self.extend_kind: dict[Instruction, int] = {self.orig_phi: _SIGN if wi.is_signed else _ZERO}
        self.post_inc_ranges: dict[tuple[Value, Instruction], ConstantRange] = {}
        self.narrow_iv_users: list[_DefUse] = []

    # --- post-increment ranges --------------------------------------------------------------
    def _update_post_inc_range(self, defn: Value, use: Instruction, r: ConstantRange) -> None:
        key = (defn, use)
        old = self.post_inc_ranges.get(key)
        self.post_inc_ranges[key] = r if old is None else r.intersect_with(old)

    def _calculate_post_inc_range(self, narrow_def: Instruction, narrow_user: Instruction) -> None:
        if narrow_def.opcode != "add" or not getattr(narrow_def, "nsw", False):
            return
        def_lhs, def_rhs = narrow_def.operands[0], narrow_def.operands[1]
        if not isinstance(def_rhs, ConstantInt) or not isinstance(def_rhs.type, IntegerType):
            return
        width = def_rhs.type.width
        if def_rhs.value >> (width - 1):
            return
        se = self.se
        rhs_range = ConstantRange(width, def_rhs.value)

        def update_from_condition(cond: Value, true_dest: bool) -> None:
            if not isinstance(cond, ICmpInst) or cond.operands[0] is not def_lhs:
                return
            cmp_rhs = cond.operands[1]
            p = cond.predicate if true_dest else cond.predicate.inverse
            if not se.is_scevable(cmp_rhs.type):
                return
            cmp_rhs_range = se.get_signed_range(se.get_scev(cmp_rhs))
            lhs_range = ConstantRange.make_allowed_icmp_region(p, cmp_rhs_range)
            self._update_post_inc_range(narrow_def, narrow_user, lhs_range.add_with_no_wrap(rhs_range, False, True))

        def update_from_guards(ctx: Instruction) -> None:
            if not self.has_guards:
                return
            node: Instruction | None = ctx
            while node is not None:
                if getattr(node, "intrinsic_name", "") == "llvm.experimental.guard":
                    update_from_condition(node.operands[0], True)
                node = node.prev_instruction

        update_from_guards(narrow_user)
        user_bb = narrow_user.parent
        assert user_bb is not None
        if not self.dt.is_reachable(user_bb):
            return
        bb = self.dt.idom(user_bb)
        while bb is not None and self.loop.contains(bb):
            ti = bb.terminator
            if ti is not None:
                update_from_guards(ti)
                if ti.opcode == "br" and ti.num_operands == 3:
                    cond = ti.operands[0]
                    true_succ, false_succ = bb.successors[0], bb.successors[1]
                    if _is_single_edge(bb, true_succ) and self.dt.dominates_edge(bb, true_succ, user_bb):
                        update_from_condition(cond, True)
                    if _is_single_edge(bb, false_succ) and self.dt.dominates_edge(bb, false_succ, user_bb):
                        update_from_condition(cond, False)
            bb = self.dt.idom(bb)

    def calculate_post_inc_ranges(self, orig_phi: PHINode) -> None:
        visited: set[Instruction] = {orig_phi}
        work: list[Instruction] = [orig_phi]
        while work:
            narrow_def = work.pop()
            for use in list(narrow_def.uses):
                user = use.user
                if not isinstance(user, Instruction) or user.parent is None:
                    continue
                user_loop = self.li.loop_for(user.parent)
                if user_loop is None or not self.loop.contains(user_loop):
                    continue
                if user in visited:
                    continue
                visited.add(user)
                work.append(user)
                self._calculate_post_inc_range(narrow_def, user)

    # --- building wide code -----------------------------------------------------------------
    def _create_extend_inst(self, narrow_oper: Value, wide_type: Type, is_signed: bool, use: Instruction) -> Value:
        b = _builder_before(use)
        assert use.parent is not None
        loop = self.li.loop_for(use.parent)
        while loop is not None and loop.preheader is not None and _is_invariant(loop, narrow_oper):
            term = loop.preheader.terminator
            assert term is not None
            b.position_before(term)
            b.debug_loc = term.stable_debug_loc
            loop = loop.parent_loop
        if is_signed:
            return b.create_sext(narrow_oper, wide_type)
        return b.create_zext(narrow_oper, wide_type)

    def _get_extend_kind(self, inst: Instruction) -> int:
        return self.extend_kind[inst]

    def _scev_by_opcode(self, lhs: SCEV, rhs: SCEV, opcode: str) -> SCEV:
        se = self.se
        if opcode == "add":
            return se.get_add_expr([lhs, rhs])
        if opcode == "sub":
            return se.get_minus_scev(lhs, rhs)
        if opcode == "mul":
            return se.get_mul_expr([lhs, rhs])
        assert opcode == "udiv"
        return se.get_udiv_expr(lhs, rhs)

    def _ext(self, s: SCEV, signed: bool) -> SCEV:
        if signed:
            return self.se.get_sign_extend_expr(s, self.wide_type)
        return self.se.get_zero_extend_expr(s, self.wide_type)

    def _make_wide_bo(self, du: _DefUse, signed_other: bool) -> BinaryOperator:
        use = du.narrow_use
        ops = use.operands
        lhs = du.wide_def if ops[0] is du.narrow_def else self._create_extend_inst(ops[0], self.wide_type, signed_other, use)
        rhs = du.wide_def if ops[1] is du.narrow_def else self._create_extend_inst(ops[1], self.wide_type, signed_other, use)
        wide = BinaryOperator.create(use.opcode, lhs, rhs)
        # IRBuilder::Insert(I) with its default empty name: the clone is unnamed.
        wide.insert_before(use)
        wide.debug_loc = use.stable_debug_loc
        from llvmpy_mid.transform.instcombine.common import copy_ir_flags

        copy_ir_flags(wide, use)
        return wide

    def _clone_bitwise(self, du: _DefUse) -> Instruction:
        return self._make_wide_bo(du, self._get_extend_kind(du.narrow_def) == _SIGN)

    def _clone_arithmetic(self, du: _DefUse, wide_ar: SCEVAddRecExpr) -> Instruction | None:
        se = self.se
        use = du.narrow_use
        iv_idx = 0 if use.operands[0] is du.narrow_def else 1

        def guess(sign_ext: bool) -> bool:
            if iv_idx == 0:
                wl = se.get_scev(du.wide_def)
                wr = self._ext(se.get_scev(use.operands[1]), sign_ext)
            else:
                wl = self._ext(se.get_scev(use.operands[0]), sign_ext)
                wr = se.get_scev(du.wide_def)
            return self._scev_by_opcode(wl, wr, use.opcode) is wide_ar

        sign_ext = self._get_extend_kind(du.narrow_def) == _SIGN
        if not guess(sign_ext):
            sign_ext = not sign_ext
            if not guess(sign_ext):
                return None
        return self._make_wide_bo(du, sign_ext)

    def _clone_iv_user(self, du: _DefUse, wide_ar: SCEVAddRecExpr) -> Instruction | None:
        opc = du.narrow_use.opcode
        if opc in _ARITH_CLONE:
            return self._clone_arithmetic(du, wide_ar)
        if opc in _BITWISE_CLONE:
            return self._clone_bitwise(du)
        return None

    # --- recurrences of users ---------------------------------------------------------------
    def _extended_operand_recurrence(self, du: _DefUse) -> tuple[SCEVAddRecExpr | None, int]:
        op = _binary_op(du.narrow_use)
        if op is None:
            return None, _UNKNOWN
        opcode, a, b, nsw, nuw = op
        ext_idx = 1 if a is du.narrow_def else 0
        kind = self._get_extend_kind(du.narrow_def)
        if not (kind == _SIGN and nsw) and not (kind == _ZERO and nuw):
            kind = _UNKNOWN
            if du.never_negative:
                if nsw:
                    kind = _SIGN
                elif nuw:
                    kind = _ZERO
        if kind == _UNKNOWN:
            return None, _UNKNOWN
        se = self.se
        other = (a, b)[ext_idx]
        if not se.is_scevable(other.type):
            return None, _UNKNOWN
        ext_expr = self._ext(se.get_scev(other), kind == _SIGN)
        lhs = se.get_scev(du.wide_def)
        rhs = ext_expr
        if ext_idx == 0:
            lhs, rhs = rhs, lhs
        rec = self._scev_by_opcode(lhs, rhs, opcode)
        if not isinstance(rec, SCEVAddRecExpr) or rec.loop is not self.loop:
            return None, _UNKNOWN
        return rec, kind

    def _wide_recurrence(self, du: _DefUse) -> tuple[SCEVAddRecExpr | None, int]:
        use = du.narrow_use
        if not isinstance(use.type, IntegerType):
            return None, _UNKNOWN
        se = self.se
        narrow = se.get_scev(use)
        if se.get_type_size_in_bits(narrow.type) >= se.get_type_size_in_bits(self.wide_type):  # type: ignore[arg-type]
            return None, _UNKNOWN
        if du.never_negative:
            wide = self._ext(narrow, True)
            if isinstance(wide, SCEVAddRecExpr):
                kind = _SIGN
            else:
                wide = self._ext(narrow, False)
                kind = _ZERO
        elif self._get_extend_kind(du.narrow_def) == _SIGN:
            wide, kind = self._ext(narrow, True), _SIGN
        else:
            wide, kind = self._ext(narrow, False), _ZERO
        if not isinstance(wide, SCEVAddRecExpr) or wide.loop is not self.loop:
            return None, _UNKNOWN
        return wide, kind

    # --- rewriting one use ------------------------------------------------------------------
    def _create_trunc(self, b: IRBuilder, v: Value, ty: Type, nuw: bool, nsw: bool) -> Value:
        return b.create_cast("trunc", v, ty, "", nuw=nuw, nsw=nsw)

    def truncate_iv_use(self, du: _DefUse) -> None:
        """Give the use a ``trunc`` of the wide value (LLVM ``truncateIVUse``)."""
        insert_pt = _insert_point_for_uses(du.narrow_use, du.narrow_def, self.dt, self.li)
        if insert_pt is None:
            return
        kind = self._get_extend_kind(du.narrow_def)
        b = _builder_before(insert_pt)
        trunc = self._create_trunc(
            b, du.wide_def, du.narrow_def.type, du.never_negative or kind == _ZERO, du.never_negative or kind == _SIGN
        )
        du.narrow_use.replace_uses_of_with(du.narrow_def, trunc)

    def widen_loop_compare(self, du: _DefUse) -> bool:
        """Compare the wide IV with the other operand extended (LLVM ``widenLoopCompare``)."""
        cmp = du.narrow_use
        if not isinstance(cmp, ICmpInst):
            return False
        is_signed = self._get_extend_kind(du.narrow_def) == _SIGN
        if not (du.never_negative or is_signed == cmp.is_signed):
            return False
        op = cmp.operands[1] if cmp.operands[0] is du.narrow_def else cmp.operands[0]
        se = self.se
        cast_width = se.get_type_size_in_bits(op.type)
        iv_width = se.get_type_size_in_bits(self.wide_type)
        if cast_width > iv_width:
            return False
        cmp.replace_uses_of_with(du.narrow_def, du.wide_def)
        if cast_width < iv_width:
            ext = self._create_extend_inst(op, self.wide_type, cmp.is_signed, cmp)
            cmp.replace_uses_of_with(op, ext)
        return True

    def widen_with_variant_use(self, du: _DefUse) -> bool:
        """Widen an add/sub/mul whose result is only extended, compared or used by LCSSA phis,
        even though it is no recurrence (LLVM ``widenWithVariantUse``)."""
        use = du.narrow_use
        narrow_def = du.narrow_def
        opc = use.opcode
        if opc not in ("add", "sub", "mul"):
            return False
        loop = self.loop
        kind = self._get_extend_kind(narrow_def)
        can_sext = kind == _SIGN and bool(getattr(use, "nsw", False))
        can_zext = kind == _ZERO and bool(getattr(use, "nuw", False))
        other_kind = kind
        ext_users: list[Instruction] = []
        lcssa_users: list[PHINode] = []
        icmp_users: list[ICmpInst] = []
        for u in list(use.uses):
            user = u.user
            if not isinstance(user, Instruction):
                return False
            if user is narrow_def:
                continue
            if not loop.contains(user):
                if not isinstance(user, PHINode) or user.num_operands != 1:
                    return False
                lcssa_users.append(user)
                continue
            if isinstance(user, ICmpInst):
                pred = user.predicate
                if kind == _ZERO and pred.is_signed:
                    return False
                if kind == _SIGN and pred.is_unsigned:
                    return False
                icmp_users.append(user)
                continue
            want = "sext" if kind == _SIGN else "zext"
            if user.opcode != want or user.type is not self.wide_type:
                return False
            ext_users.append(user)
        if not ext_users:
            self.dead.append(use)
            return True
        ctx = find_common_dominator(ext_users, self.dt)
        se = self.se
        if not can_sext and not can_zext:
            if opc != "add" or kind != _ZERO:
                return False
            if use.operands[0] is not narrow_def:
                return False
            lhs = se.get_scev(use.operands[0])
            rhs = se.get_scev(use.operands[1])
            if not se.is_known_negative(rhs):
                return False
            if not se_is_known_predicate_at(se, Predicate.ICMP_UGE, lhs, se.get_negative_scev(rhs), ctx):
                return False
            other_kind = _SIGN
        op1 = se.get_scev(du.wide_def)
        if not isinstance(op1, SCEVAddRecExpr) or op1.loop is not loop:
            return False
        wide_bo = self._make_wide_bo(du, other_kind == _SIGN)
        self.extend_kind[use] = kind
        for user in ext_users:
            self.num_elim_ext += 1
            user.replace_all_uses_with(wide_bo)
            self.dead.append(user)
        for phi in lcssa_users:
            exit_bb = phi.parent
            assert exit_bb is not None
            wide_pn = PHINode(wide_bo.type, name=phi.name + ".wide")
            wide_pn.insert_before(phi)
            loc = phi.stable_debug_loc
            wide_pn.debug_loc = loc
            exiting = exit_bb.single_predecessor
            assert exiting is not None
            wide_pn.add_incoming(wide_bo, exiting)
            b = IRBuilder(folder=ConstantFolder())
            ip = exit_bb.first_insertion_point
            if ip is not None:
                b.position_before(ip)
            else:
                b.position_at_end(exit_bb)
            b.debug_loc = loc
            trunc = b.create_trunc(wide_pn, phi.type)
            phi.replace_all_uses_with(trunc)
            self.dead.append(phi)
        for ic in icmp_users:
            b = _builder_before(ic)

            def extended(v: Value) -> Value:
                if v is use:
                    return wide_bo
                if kind == _ZERO:
                    return b.create_zext(v, wide_bo.type)
                return b.create_sext(v, wide_bo.type)

            new_l = extended(ic.operands[0])
            new_r = extended(ic.operands[1])
            wide_cmp = b.create_icmp(ic.predicate, new_l, new_r, ic.name + ".wide")
            ic.replace_all_uses_with(wide_cmp)
            self.dead.append(ic)
        return True

    def widen_iv_use(self, du: _DefUse, rewriter: Any, orig_phi: PHINode, wide_phi: PHINode) -> Instruction | None:
        """Rewrite one use of a narrow IV value; returns its wide clone, to follow further
        (LLVM ``widenIVUse``)."""
        can_sext = du.never_negative or self._get_extend_kind(du.narrow_def) == _SIGN
        can_zext = du.never_negative or self._get_extend_kind(du.narrow_def) == _ZERO
        use = du.narrow_use
        if isinstance(use, PHINode):
            assert use.parent is not None
            if self.li.loop_for(use.parent) is not self.loop:
                if use.num_operands != 1:
                    self.truncate_iv_use(du)
                else:
                    bb = use.parent
                    term = bb.terminator
                    if term is not None and term.opcode == "catchswitch":
                        return None
                    wpn = PHINode(du.wide_def.type, name=use.name + ".wide")
                    wpn.insert_before(use)
                    wpn.add_incoming(du.wide_def, use.get_incoming_block(0))
                    b = IRBuilder(folder=ConstantFolder())
                    ip = bb.first_insertion_point
                    if ip is not None:
                        b.position_before(ip)
                    else:
                        b.position_at_end(bb)
                    trunc = self._create_trunc(b, wpn, du.narrow_def.type, can_zext, can_sext)
                    use.replace_all_uses_with(trunc)
                    self.dead.append(use)
                return None

        is_sext_like = use.opcode == "sext" or (use.opcode == "zext" and bool(getattr(use, "nneg", False)))
        if (is_sext_like and can_sext) or (use.opcode == "zext" and can_zext):
            new_def: Value = du.wide_def
            se = self.se
            if use.type is not self.wide_type:
                cast_width = se.get_type_size_in_bits(use.type)
                iv_width = se.get_type_size_in_bits(self.wide_type)
                if cast_width < iv_width:
                    b = _builder_before(use)
                    new_def = self._create_trunc(b, du.wide_def, use.type, can_zext, can_sext)
                else:
                    use.replace_uses_of_with(du.narrow_def, du.wide_def)
                    new_def = use
            if new_def is not use:
                self.num_elim_ext += 1
                use.replace_all_uses_with(new_def)
                self.dead.append(use)
            return None

        wide_use = self._try_add_rec_expansion(du, rewriter, orig_phi, wide_phi)
        if wide_use is not None:
            return wide_use
        if self.widen_loop_compare(du):
            return None
        if self.widen_with_variant_use(du):
            return None
        self.truncate_iv_use(du)
        return None

    def _try_add_rec_expansion(self, du: _DefUse, rewriter: Any, orig_phi: PHINode, wide_phi: PHINode) -> Instruction | None:
        rec, kind = self._extended_operand_recurrence(du)
        if rec is None:
            rec, kind = self._wide_recurrence(du)
        if rec is None:
            return None
        use = du.narrow_use
        wide_use: Instruction | None = None
        wide_inc = self.wide_inc
        if wide_inc is not None and rec is self.wide_inc_expr:
            hoist = getattr(rewriter, "hoist_iv_inc", None)
            if hoist is not None:
                recompute = (
                    not _expander_can_reuse_flags(orig_phi, wide_phi, use, wide_inc)
                    or bool(getattr(use, "nuw", False)) != bool(getattr(wide_inc, "nuw", False))
                    or bool(getattr(use, "nsw", False)) != bool(getattr(wide_inc, "nsw", False))
                )
                if hoist(wide_inc, use, recompute):
                    wide_use = wide_inc
        if wide_use is None:
            wide_use = self._clone_iv_user(du, rec)
            if wide_use is None:
                return None
        if rec is not self.se.get_scev(wide_use):
            self.dead.append(wide_use)
            return None
        from llvmpy_mid.transform.utils.local import replace_all_dbg_uses_with

        replace_all_dbg_uses_with(use, wide_use, wide_use, self.dt)
        self.extend_kind[use] = kind
        return wide_use

    # --- the walk ---------------------------------------------------------------------------
    def push_narrow_iv_users(self, narrow_def: Instruction, wide_def: Instruction) -> None:
        se = self.se
        narrow = se.get_scev(narrow_def)
        non_negative_def = se.is_known_predicate(Predicate.ICMP_SGE, narrow, se.get_zero(narrow.type))  # type: ignore[arg-type]
        for u in list(narrow_def.users):
            if not isinstance(u, Instruction):
                continue
            if u in self.widened:
                continue
            self.widened.add(u)
            non_negative_use = False
            if not non_negative_def:
                r = self.post_inc_ranges.get((narrow_def, u))
                if r is not None:
                    non_negative_use = r.get_signed_min() >= 0
            self.narrow_iv_users.append(_DefUse(narrow_def, u, wide_def, non_negative_def or non_negative_use))

    def create_wide_iv(self, rewriter: Any) -> PHINode | None:
        """LLVM ``WidenIV::createWideIV``."""
        se = self.se
        loop = self.loop
        orig_phi = self.orig_phi
        if not isinstance(orig_phi.type, IntegerType) or not isinstance(self.wide_type, IntegerType):
            return None
        add_rec = se.get_scev(orig_phi)
        if not isinstance(add_rec, SCEVAddRecExpr):
            return None
        wide_expr = self._ext(add_rec, self._get_extend_kind(orig_phi) == _SIGN)
        if not isinstance(wide_expr, SCEVAddRecExpr) or wide_expr.loop is not loop:
            return None
        if rewriter is None or getattr(rewriter, "expand_code_for", None) is None:
            return None
        if self.use_post_inc_ranges:
            self.calculate_post_inc_ranges(orig_phi)
        insert_pt = loop.header.first_insertion_point
        assert insert_pt is not None
        expanded = rewriter.expand_code_for(wide_expr, self.wide_type, insert_pt)
        if not isinstance(expanded, PHINode):
            if isinstance(expanded, Instruction) and expanded.use_empty:
                is_inserted = getattr(rewriter, "is_inserted_instruction", None)
                if is_inserted is not None and is_inserted(expanded):
                    self.dead.append(expanded)
            return None
        wide_phi = expanded
        self.wide_phi = wide_phi
        latch = loop.latch
        if latch is not None:
            wi = wide_phi.incoming_value_for_block(latch)
            if isinstance(wi, Instruction):
                self.wide_inc = wi
                self.wide_inc_expr = se.get_scev(wi)
                orig_inc = orig_phi.incoming_value_for_block(latch)
                if isinstance(orig_inc, Instruction):
                    wi.debug_loc = orig_inc.debug_loc
                    if (
                        _expander_can_reuse_flags(orig_phi, wide_phi, orig_inc, wi)
                        and orig_inc.opcode in ("add", "sub", "mul", "shl")
                        and wi.opcode in ("add", "sub", "mul", "shl")
                    ):
                        wi.nuw = bool(wi.nuw or orig_inc.nuw)  # type: ignore[attr-defined]
                        wi.nsw = bool(wi.nsw or orig_inc.nsw)  # type: ignore[attr-defined]
        self.num_widened += 1
        self.widened.add(orig_phi)
        self.push_narrow_iv_users(orig_phi, wide_phi)
        while self.narrow_iv_users:
            du = self.narrow_iv_users.pop()
            if du.narrow_use.parent is None:
                continue
            wide_use = self.widen_iv_use(du, rewriter, orig_phi, wide_phi)
            if wide_use is not None:
                self.push_narrow_iv_users(du.narrow_use, wide_use)
            if du.narrow_def.use_empty:
                self.dead.append(du.narrow_def)
        from llvmpy_mid.transform.utils.local import replace_all_dbg_uses_with

        replace_all_dbg_uses_with(orig_phi, wide_phi, wide_phi, self.dt)
        return wide_phi


def _is_invariant(loop: Loop, v: Value) -> bool:
    return not (isinstance(v, Instruction) and loop.contains(v))


def create_wide_iv(
    wi: WideIVInfo,
    li: LoopInfo,
    se: ScalarEvolution,
    rewriter: Any,
    dt: DominatorTree,
    dead: list[Value],
    has_guards: bool,
    use_post_inc_ranges: bool,
) -> tuple[PHINode | None, int, int]:
    """Widen ``wi.narrow_iv`` to ``wi.width_ty`` (LLVM ``createWideIV``). Returns the wide phi
    (None when the IV could not be widened), the number of extensions eliminated and the
    number of IVs widened (0 or 1)."""
    widener = WidenIV(wi, li, se, dt, dead, has_guards, use_post_inc_ranges)
    phi = widener.create_wide_iv(rewriter)
    return phi, widener.num_elim_ext, widener.num_widened
