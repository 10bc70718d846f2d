"""``TruncInstCombine``: evaluate the expression tree under a ``trunc`` in a narrower
integer type (LLVM ``lib/Transforms/AggressiveInstCombine/TruncInstCombine.cpp``).

How, per ``trunc`` of a reachable block (last found first): collect the graph of
operands that can be evaluated in another width (casts, add/sub/mul/and/or/xor,
shifts, udiv/urem, insert/extractelement, select arms, phis), post-order; refuse when
a node has users outside the graph (an extension may keep them when all agree on the
width); compute the width each node needs (shift amounts, known bits of udiv/urem and
lshr operands, sign bits of ashr operands) and take the smallest legal integer type
that holds it; then rebuild the graph in that type (names move to the new
instructions), and delete the old nodes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_folding import constant_fold_constant
from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits
from llvmpy_mid.analysis.num_sign_bits import compute_num_sign_bits
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constant_fold import scalar_size_in_bits
from llvmpy_mid.ir.constants import Constant, PoisonValue
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.types import IntegerType, Type, VectorType
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.transform.aggressive_instcombine.pass_ import FoldContext

_BINOPS = frozenset(("add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "udiv", "urem"))
_CASTS = frozenset(("trunc", "zext", "sext"))


class _Info:
    __slots__ = ("valid_bit_width", "min_bit_width", "new_value")

    def __init__(self) -> None:
        self.valid_bit_width = 0
        self.min_bit_width = 0
        self.new_value: Value | None = None


def _relevant_operands(i: Instruction) -> list[Value]:
    op = i.opcode
    ops = i.operands
    if op in _CASTS:
        return []
    if op in _BINOPS or op == "insertelement":
        return [ops[0], ops[1]]
    if op == "extractelement":
        return [ops[0]]
    if op == "select":
        return [ops[1], ops[2]]
    if op == "phi":
        return list(ops)
    raise AssertionError("unexpected opcode " + op)


def _reduced_type(v: Value, scalar: Type) -> Type:
    ty = v.type
    if isinstance(ty, VectorType):
        return ty.context.vector_type(scalar, ty.count, ty.scalable)
    return scalar


class TruncInstCombine:
    """Reduce the width of expression trees feeding a ``trunc`` (LLVM ``TruncInstCombine``)."""

    __slots__ = ("ctx", "worklist", "current", "info", "q")

    def __init__(self, ctx: FoldContext) -> None:
        self.ctx = ctx
        self.worklist: list[Instruction] = []
        self.current: Instruction | None = None
        self.info: dict[Instruction, _Info] = {}
        self.q = SimplifyQuery(ctx.dl, ctx.tli, ctx.dt, ctx.ac)

    # --- analysis ---------------------------------------------------------------------------------
    def _build_graph(self) -> bool:
        """``buildTruncExpressionGraph``: the nodes in post-order; False on an unsupported node."""
        cur = self.current
        assert cur is not None
        info = self.info
        info.clear()
        work: list[Value] = [cur.operands[0]]
        stack: list[Instruction] = []
        while work:
            v = work[-1]
            if isinstance(v, Constant):
                work.pop()
                continue
            if not isinstance(v, Instruction):
                return False
            if stack and stack[-1] is v:
                work.pop()
                stack.pop()
                info.setdefault(v, _Info())
                continue
            if v in info:
                work.pop()
                continue
            stack.append(v)
            op = v.opcode
            if op in _CASTS:
                continue
            if op in _BINOPS or op in ("insertelement", "extractelement", "select"):
                work.extend(_relevant_operands(v))
                continue
            if op == "phi":
                for o in _relevant_operands(v):
                    if o not in stack:
                        work.append(o)
                continue
            return False
        return True

    def _known_bits_max(self, v: Value) -> int:
        kb = compute_known_bits(v, self.q.get_with_instruction(self.current), 0)
        return kb.get_max_value()

    def _min_bit_width(self) -> int:
        """``getMinBitWidth``: the width every node of the graph needs."""
        cur = self.current
        assert cur is not None
        src = cur.operands[0]
        dst_ty = cur.type
        trunc_bw = scalar_size_in_bits(dst_ty)
        orig_bw = scalar_size_in_bits(src.type)
        if isinstance(src, Constant):
            return trunc_bw
        info = self.info
        assert isinstance(src, Instruction)
        info.setdefault(src, _Info()).valid_bit_width = trunc_bw
        work: list[Instruction] = [src]
        stack: list[Instruction] = []
        while work:
            i = work[-1]
            inf = info.setdefault(i, _Info())
            ops = _relevant_operands(i)
            if stack and stack[-1] is i:
                work.pop()
                stack.pop()
                for o in ops:
                    if isinstance(o, Instruction):
                        inf.min_bit_width = max(inf.min_bit_width, info.setdefault(o, _Info()).min_bit_width)
                continue
            stack.append(i)
            valid = inf.valid_bit_width
            inf.min_bit_width = max(inf.min_bit_width, valid)
            for o in ops:
                if isinstance(o, Instruction):
                    oi = info.get(o)
                    if (oi.valid_bit_width if oi is not None else 0) >= valid:
                        continue
                    info.setdefault(o, _Info()).valid_bit_width = valid
                    work.append(o)
        mbw = info[src].min_bit_width
        dl = self.ctx.dl
        if mbw > trunc_bw:
            if isinstance(dst_ty, VectorType):
                return orig_bw
            ty = dl.smallest_legal_int_type(dst_ty.context, mbw)
            return ty.width if ty is not None else orig_bw
        from_legal = mbw == 1 or dl.is_legal_integer(orig_bw)
        to_legal = mbw == 1 or dl.is_legal_integer(mbw)
        if not isinstance(dst_ty, VectorType) and from_legal and not to_legal:
            return orig_bw
        return mbw

    def _best_truncated_type(self) -> IntegerType | None:
        """``getBestTruncatedType``: the narrow type, or None when the graph cannot shrink."""
        if not self._build_graph():
            return None
        cur = self.current
        assert cur is not None
        info = self.info
        desired = 0
        for i in info:
            head = i._use_head
            if head is not None and head._next is None:
                continue
            is_ext = i.opcode in ("zext", "sext")
            use = head
            while use is not None:
                user = use.user
                if isinstance(user, Instruction) and user is not cur and user not in info:
                    if not is_ext:
                        return None
                    ext_bw = scalar_size_in_bits(i.operands[0].type)
                    if desired and desired != ext_bw:
                        return None
                    desired = ext_bw
                use = use._next
        orig_bw = scalar_size_in_bits(cur.operands[0].type)
        for i, inf in info.items():
            op = i.opcode
            if op in ("shl", "lshr", "ashr"):
                max_amt = self._known_bits_max(i.operands[1])
                mbw = min(max_amt + 1, orig_bw)
                if mbw == orig_bw:
                    return None
                if op == "lshr":
                    mbw = max(mbw, self._known_bits_max(i.operands[0]).bit_length())
                if op == "ashr":
                    sign_bits = compute_num_sign_bits(i.operands[0], self.q.get_with_instruction(cur), 0)
                    mbw = max(mbw, orig_bw - sign_bits + 1)
                if mbw >= orig_bw:
                    return None
                inf.min_bit_width = mbw
            if op in ("udiv", "urem"):
                mbw = 0
                for o in i.operands:
                    mbw = max(self._known_bits_max(o).bit_length(), mbw)
                    if mbw >= orig_bw:
                        return None
                inf.min_bit_width = mbw
        mbw = self._min_bit_width()
        if mbw >= orig_bw or (desired and desired != mbw):
            return None
        return cur.type.context.int_type(mbw)

    # --- rewriting --------------------------------------------------------------------------------
    def _reduced_operand(self, v: Value, scalar: Type) -> Value:
        ty = _reduced_type(v, scalar)
        if isinstance(v, Constant):
            c = ConstantExpr.get_cast("trunc", v, ty)
            return constant_fold_constant(c, self.ctx.dl, self.ctx.tli)
        assert isinstance(v, Instruction)
        nv = self.info[v].new_value
        assert nv is not None
        return nv

    def _builder_at(self, i: Instruction) -> IRBuilder:
        b = IRBuilder(folder=ConstantFolder())
        b.position_before(i)
        b.debug_loc = i.debug_loc
        return b

    def _reduce(self, scalar: IntegerType) -> None:
        """``ReduceExpressionGraph``."""
        cur = self.current
        assert cur is not None
        info = self.info
        old_new_phis: list[tuple[PHINode, PHINode]] = []
        wl = self.worklist
        for i, inf in list(info.items()):
            b = self._builder_at(i)
            op = i.opcode
            res: Value
            if op in _CASTS:
                ty = _reduced_type(i, scalar)
                src = i.operands[0]
                if src.type is ty:
                    inf.new_value = src
                    continue
                res = _int_cast(b, src, ty, op == "sext")
                new_trunc = res if isinstance(res, Instruction) and res.opcode == "trunc" else None
                if i in wl:
                    at = wl.index(i)
                    if new_trunc is not None:
                        wl[at] = new_trunc
                    else:
                        del wl[at]
                elif new_trunc is not None:
                    wl.append(new_trunc)
            elif op in _BINOPS:
                lhs = self._reduced_operand(i.operands[0], scalar)
                rhs = self._reduced_operand(i.operands[1], scalar)
                res = b.create_bin_op(op, lhs, rhs)
                if op in ("udiv", "lshr", "ashr") and isinstance(res, Instruction):
                    res.exact = bool(getattr(i, "exact", False))  # type: ignore[attr-defined]
            elif op == "extractelement":
                res = b.create_extract_element(self._reduced_operand(i.operands[0], scalar), i.operands[1])
            elif op == "insertelement":
                vec = self._reduced_operand(i.operands[0], scalar)
                elt = self._reduced_operand(i.operands[1], scalar)
                res = b.create_insert_element(vec, elt, i.operands[2])
            elif op == "select":
                lhs = self._reduced_operand(i.operands[1], scalar)
                rhs = self._reduced_operand(i.operands[2], scalar)
                res = b.create_select(i.operands[0], lhs, rhs)
            else:
                assert isinstance(i, PHINode)
                new_phi = b.phi(_reduced_type(i, scalar))
                old_new_phis.append((i, new_phi))
                res = new_phi
            inf.new_value = res
            if isinstance(res, Instruction):
                res.take_name(i)
        for old, new in old_new_phis:
            for v, bb in old.incoming:
                new.add_incoming(self._reduced_operand(v, scalar), bb)
        res = self._reduced_operand(cur.operands[0], scalar)
        dst = cur.type
        if res.type is not dst:
            b = self._builder_at(cur)
            res = _int_cast(b, res, dst, False)
            if isinstance(res, Instruction):
                res.take_name(cur)
        cur.replace_all_uses_with(res)
        cur.erase_from_parent()
        for old, _new in old_new_phis:
            old.replace_all_uses_with(PoisonValue.get(old.type))
            del info[old]
            old.erase_from_parent()
        for i in reversed(list(info)):
            if i._use_head is None:
                i.erase_from_parent()

    def run(self) -> bool:
        """LLVM ``TruncInstCombine::run``: every ``trunc`` of the reachable blocks, last first."""
        fn = self.ctx.fn
        dt = self.ctx.dt
        wl = self.worklist
        for bb in fn.blocks:
            if not dt.is_reachable(bb):
                continue
            for i in bb.instructions:
                if i.opcode == "trunc":
                    wl.append(i)
        changed = False
        while wl:
            self.current = wl.pop()
            ty = self._best_truncated_type()
            if ty is not None:
                self._reduce(ty)
                changed = True
        return changed


def _int_cast(b: IRBuilder, v: Value, ty: Type, signed: bool) -> Value:
    """``CreateIntCast``: trunc, zext or sext to ``ty`` (nothing when the type is the same)."""
    if v.type is ty:
        return v
    src_bw = scalar_size_in_bits(v.type)
    dst_bw = scalar_size_in_bits(ty)
    opcode = "trunc" if src_bw > dst_bw else ("sext" if signed else "zext") if src_bw < dst_bw else "bitcast"
    return b.create_cast(opcode, v, ty)


__all__ = ["TruncInstCombine"]
