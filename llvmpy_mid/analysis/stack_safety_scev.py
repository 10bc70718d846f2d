"""Pointers as ``base + offset`` expressions for the stack safety analysis (LLVM 19.1.7
``lib/Analysis/ScalarEvolution.cpp``: ``getGEPExpr``, ``removePointerBase``, the pointer
case of ``getMinusSCEV`` and of ``createAddRecFromPHI``).

What: our ScalarEvolution keeps pointer values opaque (a GEP is an unknown), while LLVM's
stack safety asks for ``getSCEV(address) - getSCEV(base)``. :class:`PointerOffsets` gives a
pointer value its base (the expression of the value that starts the chain: an alloca, an
argument, a load...) and its byte offset from that base as an integer expression of the
index type, following GEPs (indices sign-extended or truncated and scaled by the element
sizes, struct fields by their offsets, nsw/nuw as LLVM derives them from the GEP flags),
pointer bitcasts, calls returning an argument, selects on a constant and loop-header phis
whose backedge value is a GEP of the phi by a loop-invariant step (an add recurrence). The
difference of two pointers with the same base is the difference of their offsets
(:meth:`PointerOffsets.difference`); different bases could not be compared. Nothing is
added to the ScalarEvolution's own maps: the expressions are built with its public
constructors and cached here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_range import ConstantRange, PreferredRangeType
from llvmpy_mid.analysis.scalar_evolution_expressions import (
    FLAG_NSW,
    FLAG_NUW,
    SCEV,
    SCEVAddRecExpr,
    SCEVConstant,
    SCEVCouldNotCompute,
    SCEVTypes,
)
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.pointer_casts import get_returned_arg_operand
from llvmpy_mid.ir.types import ArrayType, IntegerType, StructType, Type, VectorType

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import Loop
    from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution
    from llvmpy_mid.ir.value import Value

_MAX_CHAIN = 64


class PointerOffsets:
    """``(base, offset)`` of pointer values in one function, over one ScalarEvolution."""

    def __init__(self, se: ScalarEvolution) -> None:
        self.se = se
        self._cache: dict[Value, tuple[SCEV, SCEV] | None] = {}
        self._counts: dict[Loop, int | None] = {}

    # --- helpers ------------------------------------------------------------------------------
    def _index_type(self, ptr_ty: Type) -> IntegerType:
        ty = self.se.get_effective_scev_type(ptr_ty)
        assert isinstance(ty, IntegerType)
        return ty

    def _trunc_or_sext(self, s: SCEV, ty: IntegerType) -> SCEV:
        se = self.se
        w = se.get_type_size_in_bits(s.type)  # type: ignore[arg-type]
        if w == ty.width:
            return s
        if w > ty.width:
            return se.get_truncate_expr(s, ty)
        return se.get_sign_extend_expr(s, ty)

    def gep_offset(self, gep: GetElementPtrInst) -> SCEV | None:
        """The byte offset ``gep`` adds to its pointer operand (LLVM ``getGEPExpr`` without
        the base), None for scalable element types or vector indices."""
        se = self.se
        ptr = gep.pointer_operand
        if not ptr.type.is_pointer:
            return None
        module = gep.module
        if module is None:
            return None
        dl = module.data_layout
        idx_ty = self._index_type(ptr.type)
        flags = 0
        if gep.nusw or gep.nuw:
            if se._is_scev_expr_never_poison(gep):
                if gep.nusw:
                    flags |= FLAG_NSW
                if gep.nuw:
                    flags |= FLAG_NUW
        cur: Type | None = None
        offsets: list[SCEV] = []
        for idx in gep.indices:
            if not idx.type.is_integer:
                return None
            if isinstance(cur, StructType):
                if not isinstance(idx, ConstantInt):
                    return None
                field = idx.zext_value
                offsets.append(se.get_constant(idx_ty, dl.struct_layout(cur).element_offset(field)))
                cur = cur.elements[field]
                continue
            if cur is None:
                cur = gep.source_element_type
            elif isinstance(cur, (ArrayType, VectorType)):
                cur = cur.element_type
            else:
                return None
            if dl.is_scalable(cur):
                return None
            size = se.get_constant(idx_ty, dl.type_alloc_size(cur))
            index = self._trunc_or_sext(se.get_scev(idx), idx_ty)
            offsets.append(se.get_mul_expr([index, size], flags))
        if not offsets:
            return se.get_zero(idx_ty)
        return se.get_add_expr(offsets, flags)

    # --- decomposition ------------------------------------------------------------------------
    def decompose(self, v: Value) -> tuple[SCEV, SCEV] | None:
        """``(base, offset)`` of pointer ``v``; None when the offset cannot be expressed."""
        if v in self._cache:
            return self._cache[v]
        result = self._decompose(v)
        self._cache[v] = result
        return result

    def _step(self, v: Value) -> tuple[Value, SCEV | None] | None:
        """One link of a chain: the pointer ``v`` is derived from and the offset it adds
        (None for no offset); None when ``v`` starts a chain."""
        if not isinstance(v, Instruction):
            return None
        if isinstance(v, GetElementPtrInst):
            if not v.type.is_pointer:
                return None
            off = self.gep_offset(v)
            if off is None:
                return None
            return v.pointer_operand, off
        op = v.opcode
        if op == "bitcast" and v.operands[0].type.is_pointer:
            return v.operands[0], None
        if op == "select" and isinstance(v.operands[0], ConstantInt):
            return (v.operands[1] if v.operands[0].value else v.operands[2]), None
        if isinstance(v, PHINode):
            # A phi of one value (LCSSA, or the same value on every edge) is that value, as
            # InstSimplify folds it for createNodeForPHI.
            only: Value | None = None
            for i in range(v.num_incoming):
                inc = v.get_incoming_value(i)
                if inc is v:
                    continue
                if only is not None and inc is not only:
                    return None
                only = inc
            return (only, None) if only is not None else None
        if isinstance(v, CallBase):
            rv = get_returned_arg_operand(v)
            if rv is not None and rv.type.is_pointer:
                return rv, None
        return None

    def _decompose(self, v: Value) -> tuple[SCEV, SCEV] | None:
        se = self.se
        if not v.type.is_pointer:
            return None
        idx_ty = self._index_type(v.type)
        offsets: list[SCEV] = []
        cur = v
        for _ in range(_MAX_CHAIN):
            if cur is not v and cur in self._cache:
                found = self._cache[cur]
                if found is None:
                    return None
                return found[0], self._sum(offsets + [found[1]], idx_ty)
            if isinstance(cur, Instruction) and not se.dt.is_reachable(cur.parent):  # type: ignore[arg-type]
                return se.get_unknown(cur), self._sum(offsets, idx_ty)
            step = self._step(cur)
            if step is None:
                if isinstance(cur, PHINode):
                    rec = self._phi_recurrence(cur)
                    if rec is not None:
                        return rec[0], self._sum(offsets + [rec[1]], idx_ty)
                return se.get_scev(cur), self._sum(offsets, idx_ty)
            nxt, off = step
            if off is not None:
                offsets.append(off)
            cur = nxt
        return None

    def _sum(self, offsets: list[SCEV], ty: IntegerType) -> SCEV:
        se = self.se
        if not offsets:
            return se.get_zero(ty)
        if len(offsets) == 1:
            return offsets[0]
        # The outermost GEP is added last, as nested getGEPExpr calls do.
        acc = offsets[-1]
        for off in reversed(offsets[:-1]):
            acc = se.get_add_expr([acc, off])
        return acc

    def _phi_recurrence(self, pn: PHINode) -> tuple[SCEV, SCEV] | None:
        """A loop-header pointer phi ``p = phi [start, outside], [gep p, step, backedge]``:
        start's base and ``{start offset,+,step}<loop>`` (LLVM ``createAddRecFromPHI``)."""
        se = self.se
        bb = pn.parent
        if bb is None:
            return None
        loop = se.li.loop_for(bb)
        if loop is None or loop.header is not bb:
            return None
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
            elif start_v is None:
                start_v = val
            elif start_v is not val:
                return None
        if start_v is None or be_v is None:
            return None
        idx_ty = self._index_type(pn.type)
        offsets: list[SCEV] = []
        cur = be_v
        for _ in range(_MAX_CHAIN):
            if cur is pn:
                break
            step = self._step(cur)
            if step is None:
                return None
            if step[1] is not None:
                offsets.append(step[1])
            cur = step[0]
        else:
            return None
        if not offsets:
            return None
        accum = self._sum(offsets, idx_ty)
        if not se.is_loop_invariant(accum, loop):
            return None
        self._cache[pn] = None  # a cycle back to the phi through its start gives up
        start = self.decompose(start_v)
        del self._cache[pn]
        if start is None:
            return None
        return start[0], se.get_add_rec_expr([start[1], accum], loop)

    # --- loops compared through pointers ----------------------------------------------------
    def max_backedge_count(self, loop: Loop) -> int | None:
        """The loop's constant maximum backedge-taken count, also when an exit compares two
        pointers of one base for (in)equality (LLVM sees pointer recurrences there; our
        ScalarEvolution sees opaque pointers). None when unknown."""
        if loop in self._counts:
            return self._counts[loop]
        from llvmpy_mid.analysis.scalar_evolution_exit_limits import compute_exit_limit_from_icmp

        se = self.se
        found: int | None = None
        known = se.get_constant_max_backedge_taken_count(loop)
        if isinstance(known, SCEVConstant):
            found = known.value
        else:
            latch = loop.latch
            exiting = loop.exiting_blocks
            for bb in exiting:
                term = bb.terminator
                if latch is None or term is None or not se.dt.dominates_block(bb, latch):
                    continue
                if term.opcode != "br" or len(term.operands) != 3:
                    continue
                cond = term.operands[0]
                if not isinstance(cond, ICmpInst) or not cond.operands[0].type.is_pointer:
                    continue
                pred = cond.predicate
                if not loop.contains(term.successors[0]):
                    pred = pred.inverse
                if pred not in (Predicate.ICMP_EQ, Predicate.ICMP_NE):
                    continue
                a = self.decompose(cond.operands[0])
                b = self.decompose(cond.operands[1])
                if a is None or b is None or a[0] is not b[0] or a[1].type is not b[1].type:
                    continue
                el = compute_exit_limit_from_icmp(se, loop, pred, a[1], b[1], len(exiting) == 1)
                cm = el.constant_max
                if isinstance(cm, SCEVCouldNotCompute):
                    continue
                count = se.get_unsigned_range_max(cm)
                found = count if found is None else min(found, count)
        self._counts[loop] = found
        return found

    def signed_range(self, s: SCEV) -> ConstantRange:
        """ScalarEvolution's signed range of an offset expression, narrowed for recurrences
        of loops whose count only :meth:`max_backedge_count` knows (``getRangeForAffineAR``)."""
        se = self.se
        r = se.get_signed_range(s)
        w = r.bit_width
        if isinstance(s, SCEVAddRecExpr) and s.is_affine():
            if isinstance(se.get_constant_max_backedge_taken_count(s.loop), SCEVConstant):
                return r
            count = self.max_backedge_count(s.loop)
            if count is None or count.bit_length() > w:
                return r
            extra = se._range_for_affine_ar(s.start, s.operands[1], count, w)
            return r.intersect_with(extra, PreferredRangeType.SIGNED)
        if s.kind is SCEVTypes.ADD and any(isinstance(o, SCEVAddRecExpr) for o in s.operands):
            acc = self.signed_range(s.operands[0])
            for o in s.operands[1:]:
                acc = acc.add(self.signed_range(o))
            return r.intersect_with(acc, PreferredRangeType.SIGNED)
        return r

    def difference(self, lhs: Value, rhs: Value) -> SCEV | None:
        """``lhs - rhs`` for two pointers with the same base (LLVM ``getMinusSCEV`` of
        pointers), None otherwise."""
        a = self.decompose(lhs)
        b = self.decompose(rhs)
        if a is None or b is None or a[0] is not b[0]:
            return None
        se = self.se
        if a[1] is b[1]:
            return se.get_zero(a[1].type)  # type: ignore[arg-type]
        if se.get_type_size_in_bits(a[1].type) != se.get_type_size_in_bits(b[1].type):  # type: ignore[arg-type]
            return None
        return se.get_minus_scev(a[1], b[1])


__all__ = ["PointerOffsets"]
