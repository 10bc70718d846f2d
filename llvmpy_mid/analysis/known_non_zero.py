"""``isKnownNonZero``, ``isKnownToBeAPowerOfTwo`` and ``isKnownNonEqual`` (LLVM 19.1.7
``llvm/lib/Analysis/ValueTracking.cpp``), with LLVM's cases: recurrences, GEPs of
non-null bases, the non-null facts of dominating branches, loads, calls and
arguments (``nonnull``, ``range``, ``returned``), the intrinsics, vector lanes,
and invertible operations for non-equality. They and ``computeKnownBits`` call
each other within the shared depth bound. Import them from
:mod:`llvmpy_mid.analysis.value_tracking`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.analysis.known_bits_analysis import _known
from llvmpy_mid.analysis.poison_tracking import get_splat_value, is_guaranteed_not_to_be_poison, match_apint
from llvmpy_mid.analysis.simplify_query import SimplifyQuery, as_query
from llvmpy_mid.analysis.value_tracking_support import (
    _MAX,
    _all_demanded,
    _apint,
    _cmp_excludes_zero,
    _element,
    _exact,
    _gep_steps,
    _intrinsic,
    _is_all_ones,
    _is_disjoint,
    _is_neg_of,
    _is_operator,
    _is_zero_const,
    _known_non_zero_from_assume,
    _logical_op,
    _nsw,
    _nuw,
    _opcode,
    _operand,
    _range_attribute,
    _range_md_excludes,
    _raw_exact,
    _raw_nsw,
    _raw_nuw,
    _safe_cxt_i,
    _scalar_bit_width,
    _shuffle_demanded,
    _strip_inbounds_constant_offsets,
    get_argument_aliasing_to_returned_pointer,
    get_returned_arg_operand,
    is_valid_assume_for_context,
    match_simple_recurrence,
)
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantDataVector, ConstantInt, ConstantVector, PoisonValue, UndefValue
from llvmpy_mid.ir.function import Argument, null_pointer_is_defined
from llvmpy_mid.ir.global_value import GlobalValue, GlobalVariable, Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst
from llvmpy_mid.ir.types import IntegerType, PointerType, VectorType
from llvmpy_mid.ir.value import User

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.value import Value


def is_known_to_be_a_power_of_two(
    v: Value, q: SimplifyQuery | DataLayout, or_zero: bool = False, depth: int = 0
) -> bool:
    """``v`` has exactly one bit set (or is zero, with ``or_zero``) (LLVM ``isKnownToBeAPowerOfTwo``)."""
    # With a SimplifyQuery the context is the query's, as LLVM's SimplifyQuery overloads.
    sq = as_query(q)
    return _pow2(v, or_zero, depth, sq)


def _is_power2_const(v: Value, or_zero: bool) -> bool:
    """LLVM ``m_Power2`` / ``m_Power2OrZero`` on constants (scalars and every vector lane)."""
    def ok(c: Constant) -> bool:
        if isinstance(c, ConstantInt):
            val = c.value
            return (val == 0 and or_zero) or (val != 0 and not (val & (val - 1)))
        return False

    if isinstance(v, ConstantInt):
        return ok(v)
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if s is not None:
            return ok(s)
        if isinstance(v, (ConstantDataVector, ConstantVector)):
            any_ok = False
            for e in v.elements:
                if isinstance(e, UndefValue):
                    continue
                if not ok(e):
                    return False
                any_ok = True
            return any_ok
    return False


def _is_sign_mask(v: Value) -> bool:
    c = match_apint(v)
    return c is not None and c.value == 1 << (c.width - 1)


def _pow2_recurrence(pn: PHINode, or_zero: bool, depth: int, q: SimplifyQuery) -> bool:
    rec = match_simple_recurrence(pn)
    if rec is None:
        return False
    bo, start, step = rec
    for k in range(pn.num_incoming):
        if pn.get_incoming_value(k) is start:
            rq = q.get_with_instruction(pn.get_incoming_block(k).terminator)
            if not _pow2(start, or_zero, depth, rq):
                return False
    if bo.opcode != "mul" and bo.get_operand(1) is not step:
        return False
    parent = bo.parent
    bq = q.get_with_instruction(parent.terminator if parent is not None else None)
    opc = bo.opcode
    if opc == "mul":
        return (or_zero or _nuw(bq, bo) or _nsw(bq, bo)) and _pow2(step, or_zero, depth, bq)
    if opc in ("sdiv", "udiv"):
        if opc == "sdiv" and (not _is_power2_const(start, False) or _is_sign_mask(start)):
            return False
        return (or_zero or _exact(bq, bo)) and _pow2(step, False, depth, bq)
    if opc == "shl":
        return or_zero or _nuw(bq, bo) or _nsw(bq, bo)
    if opc in ("ashr", "lshr"):
        if opc == "ashr" and (not _is_power2_const(start, False) or _is_sign_mask(start)):
            return False
        return or_zero or _exact(bq, bo)
    return False


def _pow2(v: Value, or_zero: bool, depth: int, q: SimplifyQuery) -> bool:
    if isinstance(v, Constant):
        return _is_power2_const(v, or_zero)
    sty = v.type.element_type if isinstance(v.type, VectorType) else v.type
    if or_zero and isinstance(sty, IntegerType) and sty.width == 1:
        return True
    if not isinstance(v, Instruction):
        return False
    if q.cxt_i is not None and _intrinsic(v) == "llvm.vscale":
        fn = q.cxt_i.function
        return fn is not None and fn.has_fn_attribute("vscale_range")
    op = v.opcode
    if op == "shl":
        c = match_apint(v.get_operand(0))
        if c is not None and c.value == 1:
            return True
    if op == "lshr" and _is_sign_mask(v.get_operand(0)):
        return True
    if depth == _MAX:
        return False
    depth += 1
    if op == "zext":
        return _pow2(v.get_operand(0), or_zero, depth, q)
    if op == "trunc":
        return or_zero and _pow2(v.get_operand(0), or_zero, depth, q)
    if op == "shl":
        if or_zero or _nuw(q, v) or _nsw(q, v):
            return _pow2(v.get_operand(0), or_zero, depth, q)
        return False
    if op == "lshr":
        if or_zero or _exact(q, v):
            return _pow2(v.get_operand(0), or_zero, depth, q)
        return False
    if op == "udiv":
        if _exact(q, v):
            return _pow2(v.get_operand(0), or_zero, depth, q)
        return False
    if op == "mul":
        return (
            _pow2(v.get_operand(1), or_zero, depth, q)
            and _pow2(v.get_operand(0), or_zero, depth, q)
            and (or_zero or _non_zero(v, _all_demanded(v.type), depth, q))
        )
    if op == "and":
        a, b = v.get_operand(0), v.get_operand(1)
        if or_zero and (_pow2(b, True, depth, q) or _pow2(a, True, depth, q)):
            return True
        if _is_neg_of(a, b) or _is_neg_of(b, a):
            return or_zero or _non_zero(a, _all_demanded(a.type), depth, q)
        return False
    if op == "add":
        a, b = v.get_operand(0), v.get_operand(1)
        if or_zero or _nuw(q, v) or _nsw(q, v):
            if _opcode(a) == "and" and (_operand(a, 0) is b or _operand(a, 1) is b) and _pow2(b, or_zero, depth, q):
                return True
            if _opcode(b) == "and" and (_operand(b, 0) is a or _operand(b, 1) is a) and _pow2(a, or_zero, depth, q):
                return True
            ka = _known(a, _all_demanded(a.type), depth, q)
            kb = _known(b, _all_demanded(b.type), depth, q)
            x = ~(ka.zero & kb.zero) & ka.mask
            if x and not (x & (x - 1)):
                if or_zero or kb.one or ka.one:
                    return True
        if or_zero or _nuw(q, v):
            if _opcode(a) == "lshr" and _is_all_ones(_operand(a, 0)):
                c = match_apint(b)
                if c is not None and c.value == 1:
                    return True
        return False
    if op == "select":
        return _pow2(v.get_operand(1), or_zero, depth, q) and _pow2(v.get_operand(2), or_zero, depth, q)
    if op == "phi":
        assert isinstance(v, PHINode)
        if _pow2_recurrence(v, or_zero, depth, q):
            return True
        new_depth = max(depth, _MAX - 1)
        for k in range(v.num_incoming):
            inc = v.get_incoming_value(k)
            if inc is v:
                continue
            rq = q.get_with_instruction(v.get_incoming_block(k).terminator)
            if not _pow2(inc, or_zero, new_depth, rq):
                return False
        return True
    if op in ("call", "invoke"):
        base = _intrinsic(v)
        assert isinstance(v, CallBase)
        if base in ("llvm.umax", "llvm.smax", "llvm.umin", "llvm.smin"):
            return _pow2(v.get_arg(1), or_zero, depth, q) and _pow2(v.get_arg(0), or_zero, depth, q)
        if base in ("llvm.bitreverse", "llvm.bswap"):
            return _pow2(v.get_arg(0), or_zero, depth, q)
        if base in ("llvm.fshr", "llvm.fshl") and v.get_arg(0) is v.get_arg(1):
            return _pow2(v.get_arg(0), or_zero, depth, q)
        return False
    return False


def is_known_non_zero(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> bool:
    """``v`` is never zero (for vectors: no lane is) (LLVM 19 ``isKnownNonZero(V, SQ, Depth)``)."""
    # With a SimplifyQuery the context is the query's, as LLVM's SimplifyQuery overloads.
    sq = as_query(q)
    return _non_zero(v, _all_demanded(v.type), depth, sq)


def _match_op_with_op_eq_zero(a: Value, b: Value) -> bool:
    """``a`` is ``zext/sext(icmp eq b, 0)`` or the other way round."""
    for x, y in ((a, b), (b, a)):
        if _opcode(x) in ("zext", "sext"):
            c = _operand(x, 0)
            if isinstance(c, ICmpInst) and c.predicate == Predicate.ICMP_EQ:
                if c.get_operand(0) is y and _is_zero_const(c.get_operand(1)):
                    return True
                if c.get_operand(1) is y and _is_zero_const(c.get_operand(0)):
                    return True
    return False


def _non_zero_add(demanded: int, depth: int, q: SimplifyQuery, w: int, x: Value, y: Value, nsw: bool, nuw: bool) -> bool:
    if _match_op_with_op_eq_zero(x, y):
        return True
    if nuw:
        return _non_zero(y, demanded, depth, q) or _non_zero(x, demanded, depth, q)
    kx = _known(x, demanded, depth, q)
    ky = _known(y, demanded, depth, q)
    if kx.is_non_negative() and ky.is_non_negative():
        if _non_zero(y, demanded, depth, q) or _non_zero(x, demanded, depth, q):
            return True
    if kx.is_negative() and ky.is_negative():
        mask = (1 << (w - 1)) - 1
        if kx.one & mask or ky.one & mask:
            return True
    if kx.is_non_negative() and _pow2(y, False, depth, q):
        return True
    if ky.is_non_negative() and _pow2(x, False, depth, q):
        return True
    return KnownBits.compute_for_add_sub(True, nsw, nuw, kx, ky).is_non_zero()


def _non_zero_sub(demanded: int, depth: int, q: SimplifyQuery, x: Value, y: Value) -> bool:
    if _match_op_with_op_eq_zero(x, y):
        return True
    if isinstance(x, Constant) and x.is_null_value and _non_zero(y, demanded, depth, q):
        return True
    return _non_equal(x, y, demanded, depth, q)


def _non_zero_mul(demanded: int, depth: int, q: SimplifyQuery, w: int, x: Value, y: Value, nsw: bool, nuw: bool) -> bool:
    if nsw or nuw:
        return _non_zero(x, demanded, depth, q) and _non_zero(y, demanded, depth, q)
    kx = _known(x, demanded, depth, q)
    if kx.one & 1:
        return _non_zero(y, demanded, depth, q)
    ky = _known(y, demanded, depth, q)
    if ky.one & 1:
        return kx.is_non_zero() or _non_zero(x, demanded, depth, q)
    return kx.count_max_trailing_zeros() + ky.count_max_trailing_zeros() < w


def _non_zero_shift(i: Value, demanded: int, depth: int, q: SimplifyQuery, kv: KnownBits) -> bool:
    if kv.is_unknown():
        return False
    op = _opcode(i)
    w = kv.bit_width
    m = (1 << w) - 1
    kc = _known(_operand(i, 1), demanded, depth, q)
    max_shift = kc.get_max_value()
    if max_shift >= w:
        return False

    def shift(x: int, n: int) -> int:
        if op == "shl":
            return (x << n) & m if n < w else 0
        if op == "lshr":
            return x >> n if n < w else 0
        s = x - (1 << w) if x >> (w - 1) else x
        return (s >> min(n, w)) & m

    def inv_shift(x: int, n: int) -> int:
        if op == "shl":
            return x >> n if n < w else 0
        return (x << n) & m if n < w else 0

    if shift(kv.one, max_shift) != 0:
        return True
    if inv_shift(kv.zero, w - max_shift) == inv_shift(m, w - max_shift) and _non_zero(
        _operand(i, 0), demanded, depth, q
    ):
        return True
    return False


def _non_zero_recurrence(pn: PHINode) -> bool:
    rec = match_simple_recurrence(pn)
    if rec is None:
        return False
    bo, start, step = rec
    sc = match_apint(start)
    if sc is None or sc.value == 0:
        return False
    opc = bo.opcode
    if opc == "add":
        if _raw_nuw(bo):
            return True
        st = match_apint(step)
        return _raw_nsw(bo) and st is not None and (sc.value >> (sc.width - 1)) == (st.value >> (st.width - 1))
    if opc == "mul":
        st = match_apint(step)
        return (_raw_nuw(bo) or _raw_nsw(bo)) and st is not None and st.value != 0
    if opc == "shl":
        return _raw_nuw(bo) or _raw_nsw(bo)
    if opc in ("ashr", "lshr"):
        return _raw_exact(bo)
    return False


def _gep_known_non_null(gep: Value, depth: int, q: SimplifyQuery) -> bool:
    fn = gep.function if isinstance(gep, Instruction) else None
    nuw = bool(getattr(gep, "nuw", False)) if isinstance(gep, Instruction) else bool(
        isinstance(gep, ConstantExpr) and gep.flags & 4
    )
    inbounds = bool(getattr(gep, "inbounds", False)) if isinstance(gep, Instruction) else bool(
        isinstance(gep, ConstantExpr) and gep.is_inbounds
    )
    ty = gep.type
    assert isinstance(ty, PointerType)
    if not nuw and not (inbounds and not null_pointer_is_defined(fn, ty.address_space)):
        return False
    base = _operand(gep, 0)
    if _non_zero(base, _all_demanded(base.type), depth, q):
        return True
    dl = q.dl
    for idx, st, elt_ty in _gep_steps(gep):
        if st is not None:
            assert isinstance(idx, ConstantInt)
            if dl.struct_layout(st).element_offset(idx.value) > 0:
                return True
            continue
        if elt_ty.is_sized and dl.type_alloc_size(elt_ty) == 0:
            continue
        if isinstance(idx, ConstantInt):
            if idx.value != 0:
                return True
            continue
        if depth >= _MAX:
            continue
        depth += 1
        if _non_zero(idx, _all_demanded(idx.type), depth, q):
            return True
    return False


def _non_null_from_dominating_condition(v: Value, cxt: Instruction | None, dt: DominatorTree | None) -> bool:
    """LLVM ``isKnownNonNullFromDominatingCondition`` (needs a context and a dominator tree)."""
    if cxt is None or dt is None:
        return False
    explored = 0
    for u in v.users:
        if explored >= 20:
            break
        explored += 1
        if isinstance(u, CallBase):
            fn = u.called_function
            if fn is not None:
                for a in fn.args:
                    if a.arg_no < u.num_args and u.get_arg(a.arg_no) is v and _arg_has_non_null_attr(a, False) and dt.dominates(u, cxt):
                        return True
        if isinstance(u, Instruction) and u.opcode in ("load", "store"):
            ptr = u.get_operand(0 if u.opcode == "load" else 1)
            vty = v.type
            if ptr is v and isinstance(vty, PointerType) and not null_pointer_is_defined(u.function, vty.address_space) and dt.dominates(u, cxt):
                return True
        if isinstance(u, Instruction) and u.opcode in ("udiv", "sdiv", "urem", "srem") and u.get_operand(1) is v:
            if is_valid_assume_for_context(u, cxt, dt):
                return True
        if not isinstance(u, ICmpInst):
            continue
        if u.get_operand(0) is v:
            pred, rhs = u.predicate, u.get_operand(1)
        elif u.get_operand(1) is v:
            pred, rhs = u.predicate.swapped, u.get_operand(0)
        else:
            continue
        if _cmp_excludes_zero(pred, rhs):
            non_null_if_true = True
        elif _cmp_excludes_zero(pred.inverse, rhs):
            non_null_if_true = False
        else:
            continue
        visited: set[int] = set()
        for cu in u.users:
            work: list[Value] = []
            if id(cu) not in visited:
                visited.add(id(cu))
                work.append(cu)
            while work:
                cur = work.pop()
                if non_null_if_true:
                    lop = _logical_op(cur)
                    if lop is not None and lop[0] == "and":
                        for cuu in cur.users:
                            if id(cuu) not in visited:
                                visited.add(id(cuu))
                                work.append(cuu)
                        continue
                if isinstance(cur, BranchInst) and cur.is_conditional:
                    succ = cur.get_successor(0 if non_null_if_true else 1)
                    src = cur.parent
                    if src is not None and cxt.parent is not None and _edge_dominates(dt, src, succ, cxt.parent):
                        return True
                elif non_null_if_true and _intrinsic(cur) == "llvm.experimental.guard":
                    assert isinstance(cur, Instruction)
                    if dt.dominates(cur, cxt):
                        return True
    return False


def _edge_dominates(dt: DominatorTree, src: object, succ: object, bb: object) -> bool:
    """The single edge ``src -> succ`` dominates ``bb`` (LLVM ``dominates(BasicBlockEdge, BB)``)."""
    from llvmpy_mid.ir.basic_block import BasicBlock

    assert isinstance(src, BasicBlock) and isinstance(succ, BasicBlock) and isinstance(bb, BasicBlock)
    term = src.terminator
    if term is None:
        return False
    if sum(1 for s in term.successors if s is succ) != 1:
        return False
    if not dt.dominates_block(succ, bb):
        return False
    if succ.single_predecessor is not None:
        return True
    for pred in succ.predecessors:
        if pred is not src and not dt.dominates_block(succ, pred):
            return False
    return True


def _non_zero_from_operator(i: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    ty = i.type
    w = _scalar_bit_width(ty, q.dl)
    op = _opcode(i)
    dl = q.dl
    if op == "alloca":
        assert isinstance(ty, PointerType)
        return ty.address_space == 0
    if op == "getelementptr":
        if isinstance(ty, PointerType):
            return _gep_known_non_null(i, depth, q)
    elif op == "bitcast":
        src = _operand(i, 0)
        sty = src.type
        if (sty.is_int_or_int_vector or sty.is_ptr_or_ptr_vector) and w % _scalar_bit_width(sty, dl) == 0:
            return _non_zero(src, _all_demanded(sty), depth, q)
    elif op in ("inttoptr", "ptrtoint"):
        src = _operand(i, 0)
        if not (isinstance(ty, VectorType) and ty.scalable) and dl.type_size_in_bits(src.type) <= dl.type_size_in_bits(ty):
            return _non_zero(src, demanded, depth, q)
    elif op == "trunc":
        if isinstance(i, Instruction) and (_raw_nsw(i) or _raw_nuw(i)):
            return _non_zero(_operand(i, 0), demanded, depth, q)
    elif op == "sub":
        return _non_zero_sub(demanded, depth, q, _operand(i, 0), _operand(i, 1))
    elif op == "xor":
        if _match_op_with_op_eq_zero(_operand(i, 0), _operand(i, 1)):
            return True
    elif op == "or":
        if _match_op_with_op_eq_zero(_operand(i, 0), _operand(i, 1)):
            return True
        return _non_zero(_operand(i, 1), demanded, depth, q) or _non_zero(_operand(i, 0), demanded, depth, q)
    elif op in ("sext", "zext"):
        return _non_zero(_operand(i, 0), demanded, depth, q)
    elif op == "shl":
        if _nuw(q, i) or _nsw(q, i):
            return _non_zero(_operand(i, 0), demanded, depth, q)
        k = _known(_operand(i, 0), demanded, depth, q)
        if k.one & 1:
            return True
        return _non_zero_shift(i, demanded, depth, q, k)
    elif op in ("lshr", "ashr"):
        if _raw_exact(i):
            return _non_zero(_operand(i, 0), demanded, depth, q)
        k = _known(_operand(i, 0), demanded, depth, q)
        if k.is_negative():
            return True
        return _non_zero_shift(i, demanded, depth, q, k)
    elif op in ("udiv", "sdiv"):
        if _raw_exact(i):
            return _non_zero(_operand(i, 0), demanded, depth, q)
        kx = _known(_operand(i, 0), demanded, depth, q)
        if kx.is_unknown():
            return False
        ky = _known(_operand(i, 1), demanded, depth, q)
        if op == "sdiv":
            kx = kx.abs(False)
            ky = ky.abs(False)
        return KnownBits.uge(kx, ky) is True
    elif op == "add":
        return _non_zero_add(demanded, depth, q, w, _operand(i, 0), _operand(i, 1), _nsw(q, i), _nuw(q, i))
    elif op == "mul":
        return _non_zero_mul(demanded, depth, q, w, _operand(i, 0), _operand(i, 1), _nsw(q, i), _nuw(q, i))
    elif op == "select":
        cond = _operand(i, 0)

        def arm_non_zero(true_arm: bool) -> bool:
            arm = _operand(i, 1 if true_arm else 2)
            if _non_zero(arm, demanded, depth, q):
                return True
            if not isinstance(cond, ICmpInst):
                return False
            if cond.get_operand(0) is arm:
                pred, x = cond.predicate, cond.get_operand(1)
            elif cond.get_operand(1) is arm:
                pred, x = cond.predicate.swapped, cond.get_operand(0)
            else:
                return False
            if not true_arm:
                pred = pred.inverse
            return _cmp_excludes_zero(pred, x)

        if arm_non_zero(True) and arm_non_zero(False):
            return True
    elif op == "phi":
        assert isinstance(i, PHINode)
        if q.use_instr_info and _non_zero_recurrence(i):
            return True
        new_depth = max(depth, _MAX - 1)
        block = i.parent
        for inc_no in range(i.num_incoming):
            inc = i.get_incoming_value(inc_no)
            if inc is i:
                continue
            term = i.get_incoming_block(inc_no).terminator
            rq = q.get_with_instruction(term)
            if isinstance(term, BranchInst) and term.is_conditional:
                cond = term.condition
                if isinstance(cond, ICmpInst):
                    pred: Predicate | None = None
                    if cond.get_operand(0) is inc:
                        pred, x = cond.predicate, cond.get_operand(1)
                    elif cond.get_operand(1) is inc:
                        pred, x = cond.predicate.swapped, cond.get_operand(0)
                    if pred is not None:
                        ts, fs = term.get_successor(0), term.get_successor(1)
                        if (ts is block) != (fs is block):
                            if fs is block:
                                pred = pred.inverse
                            if _cmp_excludes_zero(pred, x):
                                continue
            if not _non_zero(inc, demanded, new_depth, rq):
                return False
        return True
    elif op == "insertelement":
        assert isinstance(ty, VectorType)
        if not ty.scalable:
            vec, elt, idx = _operand(i, 0), _operand(i, 1), _operand(i, 2)
            vec_demanded = demanded
            skip = False
            if isinstance(idx, ConstantInt) and idx.value < ty.count:
                vec_demanded &= ~(1 << idx.value)
                skip = not (demanded >> idx.value) & 1
            return (skip or _non_zero(elt, 1, depth, q)) and (not vec_demanded or _non_zero(vec, vec_demanded, depth, q))
    elif op == "extractelement":
        vec, idx = _operand(i, 0), _operand(i, 1)
        vty = vec.type
        if isinstance(vty, VectorType) and not vty.scalable:
            vd = (1 << vty.count) - 1
            if isinstance(idx, ConstantInt) and idx.value < vty.count:
                vd = 1 << idx.value
            return _non_zero(vec, vd, depth, q)
    elif op == "shufflevector":
        if isinstance(i, ShuffleVectorInst):
            split = _shuffle_demanded(i, demanded)
            if split is not None:
                dl_, dr_ = split
                return (not dr_ or _non_zero(_operand(i, 1), dr_, depth, q)) and (
                    not dl_ or _non_zero(_operand(i, 0), dl_, depth, q)
                )
    elif op == "freeze":
        src = _operand(i, 0)
        return _non_zero(src, _all_demanded(src.type), depth, q) and is_guaranteed_not_to_be_poison(
            src, q.cxt_i, q.dt, depth
        )
    elif op == "load":
        assert isinstance(i, Instruction)
        if isinstance(ty, PointerType):
            if q.get_metadata(i, "nonnull") is not None or (
                q.get_metadata(i, "dereferenceable") is not None
                and not null_pointer_is_defined(i.function, ty.address_space)
            ):
                return True
        else:
            md = q.get_metadata(i, "range")
            if md is not None:
                return _range_md_excludes(md, 0)
        return False
    elif op == "extractvalue":
        agg = _operand(i, 0)
        indices = getattr(i, "indices", ())
        if isinstance(agg, CallBase) and tuple(indices) == (0,):
            base = _intrinsic(agg)
            if base in ("llvm.uadd.with.overflow", "llvm.sadd.with.overflow"):
                return _non_zero_add(demanded, depth, q, w, agg.get_arg(0), agg.get_arg(1), False, False)
            if base in ("llvm.usub.with.overflow", "llvm.ssub.with.overflow"):
                return _non_zero_sub(demanded, depth, q, agg.get_arg(0), agg.get_arg(1))
            if base in ("llvm.umul.with.overflow", "llvm.smul.with.overflow"):
                return _non_zero_mul(demanded, depth, q, w, agg.get_arg(0), agg.get_arg(1), False, False)
    elif op in ("call", "invoke"):
        assert isinstance(i, CallBase)
        return _non_zero_call(i, demanded, depth, q, w)
    known = _known(i, demanded, depth, q)
    return known.one != 0


def _non_zero_call(call: CallBase, demanded: int, depth: int, q: SimplifyQuery, w: int) -> bool:
    if isinstance(call.type, PointerType):
        if _call_returns_non_null(call):
            return True
        rp = get_argument_aliasing_to_returned_pointer(call, True)
        if rp is not None:
            return _non_zero(rp, _all_demanded(rp.type), depth, q)
    else:
        md = q.get_metadata(call, "range")
        if md is not None:
            return _range_md_excludes(md, 0)
        cr = _range_attribute(call)
        if cr is not None and not cr.contains(0):
            return True
        rv = get_returned_arg_operand(call)
        if rv is not None and rv.type is call.type and _non_zero(rv, _all_demanded(rv.type), depth, q):
            return True
    base = _intrinsic(call)
    if not base:
        return False
    a = call.get_arg
    if base in ("llvm.sshl.sat", "llvm.ushl.sat", "llvm.abs", "llvm.bitreverse", "llvm.bswap", "llvm.ctpop"):
        return _non_zero(a(0), demanded, depth, q)
    if base == "llvm.ssub.sat":
        return _non_zero_sub(demanded, depth, q, a(0), a(1))
    if base == "llvm.sadd.sat":
        return _non_zero_add(demanded, depth, q, w, a(0), a(1), True, False)
    if base in ("llvm.vector.reduce.or", "llvm.vector.reduce.umax", "llvm.vector.reduce.umin",
                "llvm.vector.reduce.smax", "llvm.vector.reduce.smin"):
        return _non_zero(a(0), _all_demanded(a(0).type), depth, q)
    if base in ("llvm.umax", "llvm.uadd.sat"):
        if _match_op_with_op_eq_zero(a(0), a(1)):
            return True
        return _non_zero(a(1), demanded, depth, q) or _non_zero(a(0), demanded, depth, q)
    if base == "llvm.smax":
        k1 = _known(a(1), demanded, depth, q)
        nz1: bool | None = None
        nz0: bool | None = None
        if k1.is_non_negative():
            nz1 = k1.is_non_zero() or _non_zero(a(1), demanded, depth, q)
            if nz1:
                return True
        k0 = _known(a(0), demanded, depth, q)
        if k0.is_non_negative():
            nz0 = k0.is_non_zero() or _non_zero(a(0), demanded, depth, q)
            if nz0:
                return True
        if nz1 is None:
            nz1 = k1.is_non_zero() or _non_zero(a(1), demanded, depth, q)
        if not nz1:
            return False
        if nz0 is None:
            nz0 = k0.is_non_zero() or _non_zero(a(0), demanded, depth, q)
        return nz0
    if base == "llvm.smin":
        k1 = _known(a(1), demanded, depth, q)
        if k1.is_negative():
            return True
        k0 = _known(a(0), demanded, depth, q)
        if k0.is_negative():
            return True
        if k1.is_non_zero() and k0.is_non_zero():
            return True
        return _non_zero(a(0), demanded, depth, q) and _non_zero(a(1), demanded, depth, q)
    if base == "llvm.umin":
        return _non_zero(a(0), demanded, depth, q) and _non_zero(a(1), demanded, depth, q)
    if base == "llvm.cttz":
        return bool(_known(a(0), demanded, depth, q).zero & 1)
    if base == "llvm.ctlz":
        return _known(a(0), demanded, depth, q).is_non_negative()
    if base in ("llvm.fshr", "llvm.fshl"):
        if a(0) is a(1):
            return _non_zero(a(0), demanded, depth, q)
        return _known(call, demanded, depth, q).one != 0  # as LLVM: break to the known-bits answer
    if base == "llvm.vscale":
        return True
    if base == "llvm.experimental.get.vector.length":
        return _non_zero(a(0), _all_demanded(a(0).type), depth, q)
    if base == "llvm.vector.reverse":
        ty = call.type
        assert isinstance(ty, VectorType)
        n = ty.count if not ty.scalable else 1
        rev = int(format(demanded, "0%db" % n)[::-1], 2) if n > 1 else demanded
        return _non_zero(a(0), rev, depth, q)
    # Other intrinsics: LLVM leaves its switch and answers from the known bits.
    return _known(call, demanded, depth, q).one != 0


def _call_returns_non_null(call: CallBase) -> bool:
    """LLVM ``CallBase::isReturnNonNull``: ``nonnull``, or ``dereferenceable(n > 0)`` where null
    is not a valid address (call site or callee return attributes)."""
    if call.has_ret_attr("nonnull"):
        return True
    n = call.attributes.ret_attrs.dereferenceable_bytes
    fn = call.called_function
    if not n and fn is not None:
        n = fn.attributes.ret_attrs.dereferenceable_bytes
    ty = call.type
    return n > 0 and isinstance(ty, PointerType) and not null_pointer_is_defined(call.function, ty.address_space)


def _arg_has_non_null_attr(a: Argument, allow_undef_or_poison: bool) -> bool:
    """LLVM ``Argument::hasNonNullAttr``: ``nonnull`` (with ``noundef`` unless undef/poison
    is allowed), or ``dereferenceable(n > 0)`` where null is not a valid address."""
    ty = a.type
    if not isinstance(ty, PointerType):
        return False
    attrs = a.attributes
    if attrs.has("nonnull") and (allow_undef_or_poison or attrs.has("noundef")):
        return True
    return attrs.dereferenceable_bytes > 0 and not null_pointer_is_defined(a.parent, ty.address_space)


def _non_zero(v: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    ty = v.type
    if isinstance(v, Constant):
        if v.is_null_value:
            return False
        if isinstance(v, ConstantInt):
            return True
        if isinstance(ty, VectorType) and not ty.scalable:
            for k in range(ty.count):
                if not (demanded >> k) & 1:
                    continue
                e = _element(v, k)
                if e is None or e.is_null_value:
                    return False
                if not isinstance(e, PoisonValue) and not isinstance(e, ConstantInt):
                    return False
            return True
        if isinstance(v, GlobalValue):
            vty = v.type
            if (
                not (isinstance(v, GlobalVariable) and v.get_metadata("absolute_symbol") is not None)
                and v.linkage != Linkage.EXTERN_WEAK
                and isinstance(vty, PointerType)
                and vty.address_space == 0
            ):
                return True
        if not isinstance(v, ConstantExpr):
            return False
    if isinstance(v, Argument):
        cr = _range_attribute(v)
        if cr is not None and not cr.contains(0):
            return True
    if not isinstance(v, Constant) and _known_non_zero_from_assume(v, q):
        return True
    if depth >= _MAX:
        return False
    depth += 1
    if isinstance(ty, PointerType) and isinstance(v, Argument):
        attrs = v.attributes
        if (
            (attrs.has("byval") or attrs.has("inalloca") or attrs.has("preallocated"))
            and not null_pointer_is_defined(v.parent, ty.address_space)
        ) or _arg_has_non_null_attr(v, True):
            return True
    if _is_operator(v) and _non_zero_from_operator(v, demanded, depth, q):
        return True
    if not isinstance(v, Constant) and _non_null_from_dominating_condition(v, q.cxt_i, q.dt):
        return True
    return False


def is_known_non_equal(v1: Value, v2: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> bool:
    """``v1`` and ``v2`` never hold the same value (LLVM ``isKnownNonEqual``). As LLVM's entry
    point, it asks a fresh query of the data layout, dominator tree, assumptions and context
    only: no library info and no dominating-condition cache."""
    sq = as_query(q)
    cxt = sq.cxt_i
    if cxt is None or cxt.parent is None:
        # LLVM's safeCxtI(V2, V1, CxtI): the second value first.
        cxt = _safe_cxt_i(v2, None) or _safe_cxt_i(v1, None)
    sq = SimplifyQuery(sq.dl, None, sq.dt, sq.ac, cxt, sq.use_instr_info)
    return _non_equal(v1, v2, _all_demanded(v1.type), depth, sq)


def _invertible_operands(o1: Value, o2: Value) -> tuple[Value, Value] | None:
    op = _opcode(o1)
    if op != _opcode(o2):
        return None
    if op in ("or", "xor", "add"):
        if op == "or" and not (_is_disjoint(o1) and _is_disjoint(o2)):
            return None
        a0, a1 = _operand(o1, 0), _operand(o1, 1)
        b0, b1 = _operand(o2, 0), _operand(o2, 1)
        if b0 is a0:
            return a1, b1
        if b1 is a0:
            return a1, b0
        if b0 is a1:
            return a0, b1
        if b1 is a1:
            return a0, b0
        return None
    if op == "sub":
        if _operand(o1, 0) is _operand(o2, 0):
            return _operand(o1, 1), _operand(o2, 1)
        if _operand(o1, 1) is _operand(o2, 1):
            return _operand(o1, 0), _operand(o2, 0)
        return None
    if op == "mul":
        if (not _raw_nuw(o1) or not _raw_nuw(o2)) and (not _raw_nsw(o1) or not _raw_nsw(o2)):
            return None
        c = _operand(o1, 1)
        if c is _operand(o2, 1) and isinstance(c, ConstantInt) and c.value != 0:
            return _operand(o1, 0), _operand(o2, 0)
        return None
    if op == "shl":
        if (not _raw_nuw(o1) or not _raw_nuw(o2)) and (not _raw_nsw(o1) or not _raw_nsw(o2)):
            return None
        if _operand(o1, 1) is _operand(o2, 1):
            return _operand(o1, 0), _operand(o2, 0)
        return None
    if op in ("ashr", "lshr"):
        if not _raw_exact(o1) or not _raw_exact(o2):
            return None
        if _operand(o1, 1) is _operand(o2, 1):
            return _operand(o1, 0), _operand(o2, 0)
        return None
    if op in ("sext", "zext"):
        if _operand(o1, 0).type is _operand(o2, 0).type:
            return _operand(o1, 0), _operand(o2, 0)
        return None
    if op == "phi":
        assert isinstance(o1, PHINode) and isinstance(o2, PHINode)
        if o1.parent is not o2.parent:
            return None
        r1 = match_simple_recurrence(o1)
        r2 = match_simple_recurrence(o2)
        if r1 is None or r2 is None:
            return None
        vals = _invertible_operands(r1[0], r2[0])
        if vals is None or vals[0] is not o1 or vals[1] is not o2:
            return None
        return r1[1], r2[1]
    return None


def _modifying_binop_of_non_zero(v1: Value, v2: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    op = _opcode(v1) if isinstance(v1, Instruction) else ""
    if op == "or" and not _is_disjoint(v1):
        return False
    if op not in ("or", "xor", "add"):
        return False
    a, b = _operand(v1, 0), _operand(v1, 1)
    if v2 is a:
        other = b
    elif v2 is b:
        other = a
    else:
        return False
    return _non_zero(other, demanded, depth + 1, q)


def _non_equal_mul(v1: Value, v2: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    if _opcode(v2) == "mul" and _operand(v2, 0) is v1:
        c = match_apint(_operand(v2, 1))
        return (
            c is not None
            and (_raw_nuw(v2) or _raw_nsw(v2))
            and c.value not in (0, 1)
            and _non_zero(v1, demanded, depth + 1, q)
        )
    return False


def _non_equal_shl(v1: Value, v2: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    if _opcode(v2) == "shl" and _operand(v2, 0) is v1:
        c = match_apint(_operand(v2, 1))
        return c is not None and (_raw_nuw(v2) or _raw_nsw(v2)) and c.value != 0 and _non_zero(
            v1, demanded, depth + 1, q
        )
    return False


def _non_equal_phis(p1: PHINode, p2: PHINode, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    if p1.parent is not p2.parent:
        return False
    seen: set[int] = set()
    used_full = False
    for bb in p1.incoming_blocks:
        if id(bb) in seen:
            continue
        seen.add(id(bb))
        iv1 = p1.incoming_value_for_block(bb)
        iv2 = p2.incoming_value_for_block(bb)
        c1, c2 = _apint(iv1), _apint(iv2)
        if c1 is not None and c2 is not None and c1 != c2:
            continue
        if used_full:
            return False
        rq = q.get_with_instruction(bb.terminator)
        if not _non_equal(iv1, iv2, demanded, depth + 1, rq):
            return False
        used_full = True
    return True


def _non_equal_select(v1: Value, v2: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    if not isinstance(v1, SelectInst):
        return False
    if isinstance(v2, SelectInst) and v1.condition is v2.condition:
        return _non_equal(v1.true_value, v2.true_value, demanded, depth + 1, q) and _non_equal(
            v1.false_value, v2.false_value, demanded, depth + 1, q
        )
    return _non_equal(v1.true_value, v2, demanded, depth + 1, q) and _non_equal(
        v1.false_value, v2, demanded, depth + 1, q
    )


def _non_equal(v1: Value, v2: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    if v1 is v2 or v1.type is not v2.type:
        return False
    if depth >= _MAX:
        return False
    if _is_operator(v1) and _is_operator(v2) and _opcode(v1) == _opcode(v2):
        vals = _invertible_operands(v1, v2)
        if vals is not None:
            return _non_equal(vals[0], vals[1], demanded, depth + 1, q)
        if isinstance(v1, PHINode) and isinstance(v2, PHINode):
            if _non_equal_phis(v1, v2, demanded, depth, q):
                return True
    if _modifying_binop_of_non_zero(v1, v2, demanded, depth, q) or _modifying_binop_of_non_zero(
        v2, v1, demanded, depth, q
    ):
        return True
    if _non_equal_mul(v1, v2, demanded, depth, q) or _non_equal_mul(v2, v1, demanded, depth, q):
        return True
    if _non_equal_shl(v1, v2, demanded, depth, q) or _non_equal_shl(v2, v1, demanded, depth, q):
        return True
    if v1.type.is_int_or_int_vector:
        k1 = _known(v1, demanded, depth, q)
        if not k1.is_unknown():
            k2 = _known(v2, demanded, depth, q)
            if (k1.zero & k2.one) or (k2.zero & k1.one):
                return True
    if _non_equal_select(v1, v2, demanded, depth, q) or _non_equal_select(v2, v1, demanded, depth, q):
        return True
    if _non_equal_recursive_gep(v1, v2, q) or _non_equal_recursive_gep(v2, v1, q):
        return True
    if _opcode(v1) == "ptrtoint" and _opcode(v2) == "ptrtoint":
        a, b = _operand(v1, 0), _operand(v2, 0)
        dl = q.dl
        if _scalar_bit_width(v1.type, dl) == _scalar_bit_width(a.type, dl) and _scalar_bit_width(
            v2.type, dl
        ) == _scalar_bit_width(b.type, dl):
            return _non_equal(a, b, demanded, depth + 1, q)
    return False


def _non_equal_recursive_gep(a: Value, b: Value, q: SimplifyQuery) -> bool:
    if not isinstance(a.type, PointerType) or not isinstance(b.type, PointerType):
        return False
    if _opcode(a) != "getelementptr":
        return False
    assert isinstance(a, User)
    if a.num_operands != 2 or not isinstance(a.get_operand(1), Constant):
        return False
    pn = a.get_operand(0)
    if not isinstance(pn, PHINode) or pn.num_incoming != 2:
        return False
    if pn.get_incoming_value(0) is a:
        start = pn.get_incoming_value(1)
    elif pn.get_incoming_value(1) is a:
        start = pn.get_incoming_value(0)
    else:
        return False
    dl = q.dl
    start, start_off = _strip_inbounds_constant_offsets(start, dl)
    step, step_off = _strip_inbounds_constant_offsets(a, dl)
    if step is not pn:
        return False
    bb, off_b = _strip_inbounds_constant_offsets(b, dl)
    return start is bb and ((start_off >= off_b and step_off > 0) or (start_off <= off_b and step_off < 0))
