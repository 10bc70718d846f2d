"""``ComputeNumSignBits`` (LLVM 19.1.7 ``llvm/lib/Analysis/ValueTracking.cpp``): how
many high bits of a value equal its sign bit, from sign extensions, arithmetic
shifts, signed division and remainder by constants, bit operations, select and
min/max clamps, add/sub/mul bounds, phis of up to four inputs, truncations and
vector constants, falling back on known bits. Import it from
:mod:`llvmpy_mid.analysis.value_tracking`.

What it does not do (yet): LLVM's full ``matchSelectPattern``; a clamp is
recognised when the select compares exactly its two arms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.known_bits_analysis import _known
from llvmpy_mid.analysis.poison_tracking import match_apint
from llvmpy_mid.analysis.select_pattern import match_select_pattern
from llvmpy_mid.analysis.simplify_query import SimplifyQuery, as_query
from llvmpy_mid.analysis.value_tracking_support import (
    _MAX,
    _all_demanded,
    _element,
    _intrinsic,
    _is_all_ones_value,
    _opcode,
    _operand,
    _scalar_bit_width,
    _shuffle_demanded,
    _with_cxt,
)
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst
from llvmpy_mid.ir.types import VectorType

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.value import Value


def compute_num_sign_bits(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> int:
    """How many high bits of ``v`` are known equal to its sign bit (at least 1)
    (LLVM ``ComputeNumSignBits``)."""
    sq = _with_cxt(as_query(q), v)
    return _sign_bits(v, _all_demanded(v.type), depth, sq)


def compute_max_significant_bits(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> int:
    """The bits needed to hold ``v`` as a signed value (LLVM ``ComputeMaxSignificantBits``)."""
    sq = as_query(q)
    w = _scalar_bit_width(v.type, sq.dl)
    return w - compute_num_sign_bits(v, sq, depth) + 1


def _num_sign_bits_of(value: int, w: int) -> int:
    """APInt ``getNumSignBits``."""
    if (value >> (w - 1)) & 1:
        return w - (~value & ((1 << w) - 1)).bit_length()
    return w - value.bit_length()


def _signed_minmax_intrinsic_clamp(call: CallBase) -> tuple[int, int, int] | None:
    base = _intrinsic(call)
    inverse = "llvm.smax" if base == "llvm.smin" else "llvm.smin"
    inner = call.get_arg(0)
    if not isinstance(inner, CallBase) or _intrinsic(inner) != inverse:
        return None
    lo = match_apint(call.get_arg(1))
    hi = match_apint(inner.get_arg(1))
    if lo is None or hi is None:
        return None
    if base == "llvm.smin":
        lo, hi = hi, lo
    if lo.sext_value > hi.sext_value:
        return None
    return lo.value, hi.value, lo.width


def _sign_bits(v: Value, demanded: int, depth: int, q: SimplifyQuery) -> int:
    ty = v.type
    ty_bits = _scalar_bit_width(ty, q.dl)
    first = 1
    if depth == _MAX:
        return 1
    op = _opcode(v)
    if op:
        if op == "sext":
            src = _operand(v, 0)
            return _sign_bits(src, demanded, depth + 1, q) + ty_bits - _scalar_bit_width(src.type, q.dl)
        if op == "sdiv":
            d = match_apint(_operand(v, 1))
            if d is not None and d.sext_value > 0:
                n = _sign_bits(_operand(v, 0), demanded, depth + 1, q)
                return min(ty_bits, n + d.value.bit_length() - 1)
        elif op == "srem":
            tmp = _sign_bits(_operand(v, 0), demanded, depth + 1, q)
            d = match_apint(_operand(v, 1))
            if d is not None and d.sext_value > 0:
                ceil_log2 = (d.value - 1).bit_length()
                tmp = max(tmp, ty_bits - ceil_log2)
            return tmp
        elif op == "ashr":
            tmp = _sign_bits(_operand(v, 0), demanded, depth + 1, q)
            sh = match_apint(_operand(v, 1))
            if sh is not None:
                if sh.value >= ty_bits:
                    tmp = -1
                else:
                    tmp = min(tmp + sh.value, ty_bits)
            if tmp >= 0:
                return tmp
        elif op == "shl":
            sh = match_apint(_operand(v, 1))
            if sh is not None and sh.value < ty_bits:
                src = _operand(v, 0)
                if _opcode(src) == "zext" and sh.value >= ty_bits - _scalar_bit_width(_operand(src, 0).type, q.dl):
                    x = _operand(src, 0)
                    tmp = _sign_bits(x, demanded, depth + 1, q) + ty_bits - _scalar_bit_width(x.type, q.dl)
                else:
                    tmp = _sign_bits(src, demanded, depth + 1, q)
                if sh.value < tmp:
                    return tmp - sh.value
        elif op in ("and", "or", "xor"):
            tmp = _sign_bits(_operand(v, 0), demanded, depth + 1, q)
            if tmp != 1:
                tmp2 = _sign_bits(_operand(v, 1), demanded, depth + 1, q)
                first = min(tmp, tmp2)
        elif op == "select":
            clamp = _select_clamp(v)
            if clamp is not None:
                lo, hi, w = clamp
                return min(_num_sign_bits_of(lo, w), _num_sign_bits_of(hi, w))
            tmp = _sign_bits(_operand(v, 1), demanded, depth + 1, q)
            if tmp != 1:
                tmp2 = _sign_bits(_operand(v, 2), demanded, depth + 1, q)
                return min(tmp, tmp2)
        elif op == "add":
            a = _operand(v, 0)
            tmp = _sign_bits(a, _all_demanded(a.type), depth + 1, q)
            if tmp != 1:
                b = _operand(v, 1)
                if isinstance(b, Constant) and _is_all_ones_value(b):
                    k = _known(a, demanded, depth + 1, q)
                    if (k.zero | 1) == k.mask:
                        return ty_bits
                    if k.is_non_negative():
                        return tmp
                tmp2 = _sign_bits(b, demanded, depth + 1, q)
                if tmp2 != 1:
                    return min(tmp, tmp2) - 1
        elif op == "sub":
            b = _operand(v, 1)
            tmp2 = _sign_bits(b, demanded, depth + 1, q)
            if tmp2 != 1:
                a = _operand(v, 0)
                done = False
                if isinstance(a, Constant) and a.is_null_value:
                    k = _known(b, demanded, depth + 1, q)
                    if (k.zero | 1) == k.mask:
                        return ty_bits
                    if k.is_non_negative():
                        return tmp2
                if not done:
                    tmp = _sign_bits(a, demanded, depth + 1, q)
                    if tmp != 1:
                        return min(tmp, tmp2) - 1
        elif op == "mul":
            s0 = _sign_bits(_operand(v, 0), demanded, depth + 1, q)
            if s0 != 1:
                s1 = _sign_bits(_operand(v, 1), demanded, depth + 1, q)
                if s1 != 1:
                    out_valid = (ty_bits - s0 + 1) + (ty_bits - s1 + 1)
                    return 1 if out_valid > ty_bits else ty_bits - out_valid + 1
        elif op == "phi":
            assert isinstance(v, PHINode)
            n = v.num_incoming
            if 0 < n <= 4:
                tmp = ty_bits
                for inc_no in range(n):
                    if tmp == 1:
                        return tmp
                    rq = q.get_with_instruction(v.get_incoming_block(inc_no).terminator)
                    tmp = min(tmp, _sign_bits(v.get_incoming_value(inc_no), demanded, depth + 1, rq))
                return tmp
        elif op == "trunc":
            src = _operand(v, 0)
            tmp = _sign_bits(src, _all_demanded(src.type), depth + 1, q)
            src_bits = _scalar_bit_width(src.type, q.dl)
            if tmp > src_bits - ty_bits:
                return tmp - (src_bits - ty_bits)
            return 1
        elif op == "extractelement":
            src = _operand(v, 0)
            return _sign_bits(src, _all_demanded(src.type), depth + 1, q)
        elif op == "shufflevector":
            if not isinstance(v, ShuffleVectorInst):
                return 1
            split = _shuffle_demanded(v, demanded)
            if split is None:
                return 1
            dl_, dr_ = split
            tmp = 1 << 62
            if dl_:
                tmp = _sign_bits(_operand(v, 0), dl_, depth + 1, q)
            if tmp != 1:
                if dr_:
                    tmp = min(tmp, _sign_bits(_operand(v, 1), dr_, depth + 1, q))
                if tmp != 1:
                    return tmp
        elif op == "call":
            assert isinstance(v, CallBase)
            base = _intrinsic(v)
            if base == "llvm.abs":
                tmp = _sign_bits(v.get_operand(0), demanded, depth + 1, q)
                if tmp != 1:
                    return tmp - 1
            elif base in ("llvm.smin", "llvm.smax"):
                clamp = _signed_minmax_intrinsic_clamp(v)
                if clamp is not None:
                    lo, hi, w = clamp
                    return min(_num_sign_bits_of(lo, w), _num_sign_bits_of(hi, w))
    vec_bits = _vector_constant_sign_bits(v, demanded, ty_bits)
    if vec_bits:
        return vec_bits
    known = _known(v, demanded, depth, q)
    return max(first, known.count_min_sign_bits())


def _select_clamp(sel: Value) -> tuple[int, int, int] | None:
    """LLVM ``isSignedMinMaxClamp``: ``smax(smin(x, hi), lo)`` or ``smin(smax(x, lo), hi)`` as
    selects, with ``lo <= hi``; returns ``(lo, hi, width)``."""
    flavor, lhs, rhs = match_select_pattern(sel)
    if flavor not in ("smax", "smin") or lhs is None or rhs is None:
        return None
    lo = match_apint(rhs)
    if lo is None:
        return None
    inner, _lhs2, rhs2 = match_select_pattern(lhs)
    if inner != ("smin" if flavor == "smax" else "smax") or rhs2 is None:
        return None
    hi = match_apint(rhs2)
    if hi is None:
        return None
    if flavor == "smin":
        lo, hi = hi, lo
    if lo.sext_value > hi.sext_value:
        return None
    return lo.value, hi.value, lo.width


def _vector_constant_sign_bits(v: Value, demanded: int, ty_bits: int) -> int:
    ty = v.type
    if not isinstance(v, Constant) or not isinstance(ty, VectorType) or ty.scalable:
        return 0
    best = ty_bits
    for k in range(ty.count):
        if not (demanded >> k) & 1:
            continue
        e = _element(v, k)
        if not isinstance(e, ConstantInt):
            return 0
        best = min(best, _num_sign_bits_of(e.value, e.width))
    return best
