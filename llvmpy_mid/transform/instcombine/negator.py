"""Sinking a negation into the expression it negates (LLVM
``lib/Transforms/InstCombine/InstCombineNegator.cpp``, ``Negator``).

:func:`negate` answers ``0 - v`` as a value built from ``v``'s operands when that
costs no more than the ``sub`` it replaces: constants fold, ``0 - (a - b)`` is
``b - a``, ``0 - (x + 1)`` is ``~x``, and the walk goes through selects, phis,
``shl``, ``add``, ``mul``, shuffles ... as LLVM's ``Negator::visitImpl`` does,
in its order of cases.

Two phases, as in LLVM: the new instructions are built in place (each before
the instruction it negates, named ``<name>.neg``) by a private builder with the
target folder; if the walk fails anywhere, every one of them is erased again
(newest first) and nothing changed. On success they are handed to the
combiner's worklist. Results are cached per value for one attempt, so a value
reached twice is negated once.

Depth: LLVM's default (``-instcombine-negator-max-depth``) is unlimited; here the
walk stops at :data:`MAX_DEPTH` levels so that Python's stack is never at risk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.target_folder import TargetFolder
from llvmpy_mid.analysis.value_tracking_support import is_known_negation
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, UndefValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.vector import ExtractElementInst, InsertElementInst, ShuffleVectorInst
from llvmpy_mid.ir.pattern_match import (
    m_and,
    m_apint,
    m_cst_pred,
    m_imm_constant,
    m_lshr,
    m_neg,
    m_not,
    m_one,
    m_trunc_or_self,
    m_one_use,
    m_specific,
    m_value,
    match,
)
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

MAX_DEPTH = 200
"""How deep the walk goes before giving up (LLVM: unlimited by default)."""

ENABLED = True
"""``-instcombine-negator-enabled``."""

_P_NEG = m_neg(m_value("x"))
_P_NOT = m_not(m_value("x"))
_P_ANY_INT_CONST = m_cst_pred(lambda c: True)
_P_ONE = m_one()
_P_IMM = m_imm_constant("c")
_P_APINT = m_apint("c")
_P_AND_LSHR_ONE = m_and(m_one_use(m_trunc_or_self(m_lshr(m_value("x"), m_imm_constant("sh")))), m_one())


def _scalar_bits(ty: object) -> int:
    return int(ty.scalar_type.width)  # type: ignore[attr-defined]


def _is_bool(ty: object) -> bool:
    st = ty.scalar_type  # type: ignore[attr-defined]
    return bool(st.is_integer and st.width == 1)


def _const_int(ty: object, value: int) -> Constant:
    from llvmpy_mid.analysis.instsimplify._util import const_int

    return const_int(ty, value)  # type: ignore[arg-type]


class Negator:
    """One attempt at sinking a negation (LLVM ``Negator``)."""

    __slots__ = ("builder", "is_truly_negation", "new_instructions", "cache")

    def __init__(self, ic: InstCombiner, is_truly_negation: bool) -> None:
        self.new_instructions: list[Instruction] = []
        self.builder = IRBuilder(folder=TargetFolder(ic.dl), inserter=self.new_instructions.append)
        self.is_truly_negation = is_truly_negation
        self.cache: dict[Value, Value | None] = {}

    def _sorted_operands(self, i: Instruction) -> tuple[Value, Value]:
        """The operands, the more complex first when the operator commutes."""
        from llvmpy_mid.transform.instcombine.common import get_complexity

        a, b = i.operands[0], i.operands[1]
        if i.is_commutative and get_complexity(a) < get_complexity(b):
            return b, a
        return a, b

    def negate(self, v: Value, is_nsw: bool, depth: int) -> Value | None:
        """``0 - v`` built from ``v``'s parts, or None (cached per value)."""
        cache = self.cache
        if v in cache:
            return cache[v]
        r = self._visit(v, is_nsw, depth)
        cache[v] = r
        return r

    def _visit(self, v: Value, is_nsw: bool, depth: int) -> Value | None:  # noqa: C901 - LLVM's case list
        if isinstance(v, UndefValue):
            return v
        if _is_bool(v.type):
            return v
        m = match(v, _P_NEG)
        if m is not None:
            return m.value("x")
        if isinstance(v, Constant) and match(v, _P_ANY_INT_CONST) is not None:
            return ConstantExpr.get_neg(v)
        if not isinstance(v, Instruction):
            return None
        if not v.has_one_use and not self.is_truly_negation:
            return None
        i = v
        b = self.builder
        b.position_before(i)
        b.debug_loc = i.debug_loc
        name = i.name + ".neg"
        op = i.opcode
        bw = _scalar_bits(i.type)

        # Cases that need no recursion.
        if op == "add":
            o0, o1 = self._sorted_operands(i)
            if match(o1, _P_ONE) is not None:
                return b.create_not(o0, name)
        elif op == "xor":
            m = match(i, _P_NOT)
            if m is not None:
                x = m.value("x")
                return b.create_add(x, _const_int(x.type, 1), name)
        elif op == "ashr" or op == "lshr":
            m = match(i.operands[1], _P_APINT)
            if m is not None and m.apint("c") == bw - 1:
                if op == "ashr":
                    bo = b.create_lshr(i.operands[0], i.operands[1])
                else:
                    bo = b.create_ashr(i.operands[0], i.operands[1])
                if isinstance(bo, Instruction):
                    bo._flags = i._flags  # type: ignore[attr-defined]  # copyIRFlags: exact
                    bo.name = name
                return bo
        elif op == "sext" or op == "zext":
            src = i.operands[0]
            if _is_bool(src.type):
                if op == "sext":
                    return b.create_zext(src, i.type, name)
                return b.create_sext(src, i.type, name)
        elif op == "select":
            assert isinstance(i, SelectInst)
            tv, fv = i.true_value, i.false_value
            if match(tv, _P_IMM) is not None and match(fv, _P_IMM) is not None:
                assert isinstance(tv, Constant) and isinstance(fv, Constant)
                sel = b.create_select(i.condition, ConstantExpr.get_neg(tv), ConstantExpr.get_neg(fv), name)
                _copy_select_md(sel, i)
                return sel
        elif op == "call":
            base = getattr(i, "intrinsic_base", "")
            if (base == "llvm.scmp" or base == "llvm.ucmp") and i.has_one_use:
                args = i.operands
                return _create_cmp_intrinsic(b, i, base, args[1], args[0])

        if op == "sub" and (i.has_one_use or match(i.operands[0], m_imm_constant()) is not None):
            return b.create_sub(i.operands[1], i.operands[0], name, nsw=is_nsw and bool(i.nsw))  # type: ignore[attr-defined]

        if not v.has_one_use:
            return None

        if op == "zext":
            src = i.operands[0]
            sw = _scalar_bits(src.type)
            if self.is_truly_negation:
                m = match(src, m_lshr(m_value("x"), m_apint("c", allow_poison=True)))
                if m is not None and m.apint("c") == sw - 1:
                    x = m.value("x")
                    ashr = b.create_ashr(x, _const_int(x.type, sw - 1))
                    return b.create_sext(ashr, i.type)
        elif op == "and":
            m = match(i, _P_AND_LSHR_ONE)
            if m is not None:
                x = m.value("x")
                sh = m.constant("sh")
                bwm1 = _const_int(x.type, _scalar_bits(x.type) - 1)
                r = b.create_shl(x, b.create_sub(bwm1, sh))
                r = b.create_ashr(r, bwm1)
                return b.create_trunc_or_bitcast(r, i.type)
        elif op == "sdiv":
            c1 = i.operands[1]
            if isinstance(c1, Constant) and _sdiv_divisor_negatable(c1):
                bo = b.create_bin_op("sdiv", i.operands[0], ConstantExpr.get_neg(c1), name)
                if isinstance(bo, Instruction):
                    bo.exact = bool(i.exact)  # type: ignore[attr-defined]
                return bo

        if depth > MAX_DEPTH:
            return None
        d = depth + 1

        if op == "freeze":
            n = self.negate(i.operands[0], is_nsw, d)
            if n is None:
                return None
            b.position_before(i)
            return b.create_freeze(n, name)
        if op == "phi":
            assert isinstance(i, PHINode)
            negs: list[Value] = []
            for inc in i.incoming_values:
                n = self.negate(inc, is_nsw, d)
                if n is None:
                    return None
                negs.append(n)
            b.position_before(i)
            b.debug_loc = i.debug_loc
            phi = b.phi(i.type, name)
            for n, blk in zip(negs, i.incoming_blocks):
                phi.add_incoming(n, blk)
            return phi
        if op == "select":
            assert isinstance(i, SelectInst)
            if is_known_negation(i.operands[1], i.operands[2], False, False):
                ns = i.clone()
                assert isinstance(ns, SelectInst)
                ns.swap_values()
                tv, fv = ns.true_value, ns.false_value
                if match(tv, m_neg(m_specific(fv))) is not None:
                    _drop_poison_flags(tv)
                elif match(fv, m_neg(m_specific(tv))) is not None:
                    _drop_poison_flags(fv)
                else:
                    _drop_poison_flags(tv)
                    _drop_poison_flags(fv)
                b.position_before(i)
                b.insert(ns)  # LLVM's Insert(I) with an empty name clears the ``.neg`` name
                return ns
            n1 = self.negate(i.operands[1], is_nsw, d)
            if n1 is None:
                return None
            n2 = self.negate(i.operands[2], is_nsw, d)
            if n2 is None:
                return None
            b.position_before(i)
            b.debug_loc = i.debug_loc
            sel = b.create_select(i.operands[0], n1, n2, name)
            _copy_select_md(sel, i)
            return sel
        if op == "shufflevector":
            assert isinstance(i, ShuffleVectorInst)
            n0 = self.negate(i.operands[0], is_nsw, d)
            if n0 is None:
                return None
            n1 = self.negate(i.operands[1], is_nsw, d)
            if n1 is None:
                return None
            b.position_before(i)
            b.debug_loc = i.debug_loc
            return b.create_shuffle_vector(n0, n1, i.mask, name)
        if op == "extractelement":
            assert isinstance(i, ExtractElementInst)
            n = self.negate(i.operands[0], is_nsw, d)
            if n is None:
                return None
            b.position_before(i)
            b.debug_loc = i.debug_loc
            return b.create_extract_element(n, i.operands[1], name)
        if op == "insertelement":
            assert isinstance(i, InsertElementInst)
            n0 = self.negate(i.operands[0], is_nsw, d)
            if n0 is None:
                return None
            n1 = self.negate(i.operands[1], is_nsw, d)
            if n1 is None:
                return None
            b.position_before(i)
            b.debug_loc = i.debug_loc
            return b.create_insert_element(n0, n1, i.operands[2], name)
        if op == "trunc":
            n = self.negate(i.operands[0], False, d)
            if n is None:
                return None
            b.position_before(i)
            b.debug_loc = i.debug_loc
            return b.create_trunc(n, i.type, name)
        if op == "shl":
            is_nsw = is_nsw and bool(i.nsw)  # type: ignore[attr-defined]
            n = self.negate(i.operands[0], is_nsw, d)
            b.position_before(i)
            b.debug_loc = i.debug_loc
            if n is not None:
                return b.create_shl(n, i.operands[1], name, nsw=is_nsw)
            c = i.operands[1]
            if match(c, _P_IMM) is None or not self.is_truly_negation:
                return None
            assert isinstance(c, Constant)
            return b.create_mul(
                i.operands[0], b.create_shl(Constant.get_all_ones_value(c.type), c), name, nsw=is_nsw
            )
        if op == "or" or op == "add":
            if op == "or":
                if not i.disjoint:  # type: ignore[attr-defined]
                    return None
                o0, o1 = self._sorted_operands(i)
                if match(o1, _P_ONE) is not None:
                    return b.create_not(o0, name)
            negated: list[Value] = []
            kept: list[Value] = []
            for o in i.operands:
                n = self.negate(o, False, d)
                if n is not None:
                    negated.append(n)
                    continue
                if not self.is_truly_negation:
                    return None
                kept.append(o)
            b.position_before(i)
            b.debug_loc = i.debug_loc
            if len(negated) == 2:
                return b.create_add(negated[0], negated[1], name)
            if len(kept) == 2:
                return None
            return b.create_sub(negated[0], kept[0], name)
        if op == "xor":
            o0, o1 = self._sorted_operands(i)
            if isinstance(o1, Constant) and self.is_truly_negation:
                xo = b.create_xor(o0, ConstantExpr.get_not(o1))
                return b.create_add(xo, _const_int(xo.type, 1), name)
            return None
        if op == "mul":
            o0, o1 = self._sorted_operands(i)
            n = self.negate(o1, False, d)
            if n is not None:
                other = o0
            else:
                n = self.negate(o0, False, d)
                if n is None:
                    return None
                other = o1
            b.position_before(i)
            b.debug_loc = i.debug_loc
            return b.create_mul(n, other, name, nsw=is_nsw and bool(i.nsw))  # type: ignore[attr-defined]
        return None

    def run(self, root: Value, is_nsw: bool) -> Value | None:
        """Negate ``root``; on failure erase whatever was built (newest first)."""
        try:
            r = self.negate(root, is_nsw, 0)
        except RecursionError:  # pragma: no cover - MAX_DEPTH keeps this away
            r = None
        if r is None:
            for inst in reversed(self.new_instructions):
                if inst.parent is not None:
                    inst.erase_from_parent()
            self.new_instructions.clear()
        return r


def _sdiv_divisor_negatable(c: Constant) -> bool:
    """No undef/poison lane, not INT_MIN, not 1 in any lane (LLVM's checks on sdiv's divisor)."""
    from llvmpy_mid.ir.types import VectorType

    from llvmpy_mid.ir.constants import get_splat_value

    ty = c.type
    sp = get_splat_value(c) if isinstance(ty, VectorType) else None
    if sp is not None:
        elts: list[Constant | None] = [sp]
    elif isinstance(ty, VectorType):
        if ty.scalable:
            return False
        elts = [c.get_aggregate_element(k) for k in range(ty.count)]
    else:
        elts = [c]
    for e in elts:
        if not isinstance(e, ConstantInt):
            return False
        w = e.type.width
        if e.value == 1 << (w - 1) or e.value == 1:
            return False
    return True


def _drop_poison_flags(v: Value) -> None:
    drop = getattr(v, "drop_poison_generating_flags", None)
    if drop is not None:
        drop()


def _copy_select_md(sel: Value, src: Instruction) -> None:
    """``CreateSelect(..., MDFrom)``: the new select takes ``!prof`` and ``!unpredictable``."""
    if not isinstance(sel, SelectInst):
        return
    for kind in ("prof", "unpredictable"):
        node = src.get_metadata(kind)
        if node is not None:
            sel.set_metadata(kind, node)


def _create_cmp_intrinsic(b: IRBuilder, i: Instruction, base: str, lhs: Value, rhs: Value) -> Value:
    from llvmpy_mid.ir.instructions.calls import CallInst

    callee = i.operands[-1]
    assert isinstance(i, CallInst)
    return b.call(callee, [lhs, rhs], function_type=i.function_type)


def negate(ic: InstCombiner, v: Value, is_nsw: bool, lhs_is_zero: bool = True) -> Value | None:
    """``Negator::Negate(LHSIsZero, IsNSW, Root, IC)``: ``0 - v`` without a ``sub``,
    or None. ``lhs_is_zero`` says the caller's ``sub`` really is a negation (then
    multi-use values and partially negatable adds are allowed)."""
    if not ENABLED:
        return None
    n = Negator(ic, lhs_is_zero)
    r = n.run(v, is_nsw)
    if r is None:
        return None
    add = ic.builder.inserter
    if add is not None:
        for inst in n.new_instructions:
            if inst.parent is not None:
                add(inst)
    return r


__all__ = ["Negator", "negate", "MAX_DEPTH"]
