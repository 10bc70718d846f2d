"""CmpInstAnalysis helpers: predicate codes, and the bit-test reading checked exhaustively on i4."""

from __future__ import annotations

import itertools

from llvmpy_mid.analysis.cmp_inst_analysis import (
    decompose_bit_test_icmp,
    get_constant_for_icmp_code,
    get_fcmp_code,
    get_icmp_code,
    get_pred_for_fcmp_code,
    get_pred_for_icmp_code,
    predicates_foldable,
)
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.function import Argument
from llvmpy_mid.ir.instructions.cmp import Predicate as P

ICMPS = [p for p in P if p.is_int_predicate]


def _holds(pred: P, a: int, b: int, w: int) -> bool:
    sa = a - (1 << w) if a >> (w - 1) else a
    sb = b - (1 << w) if b >> (w - 1) else b
    return {
        P.ICMP_EQ: a == b, P.ICMP_NE: a != b,
        P.ICMP_UGT: a > b, P.ICMP_UGE: a >= b, P.ICMP_ULT: a < b, P.ICMP_ULE: a <= b,
        P.ICMP_SGT: sa > sb, P.ICMP_SGE: sa >= sb, P.ICMP_SLT: sa < sb, P.ICMP_SLE: sa <= sb,
    }[pred]  # fmt: skip


def test_icmp_code_round_trip_and_or_semantics() -> None:
    ctx = Context()
    for p in ICMPS:
        code = get_icmp_code(p)
        back = get_pred_for_icmp_code(code, p.is_signed, ctx.i8)
        assert back == p or (p.is_equality and back == p)
    # or of two codes of one signedness is the code of the or of the predicates
    for p1, p2 in itertools.product(ICMPS, ICMPS):
        if not predicates_foldable(p1, p2):
            assert p1.is_signed != p2.is_signed and not p1.is_equality and not p2.is_equality
            continue
        sign = p1.is_signed or p2.is_signed
        code = get_icmp_code(p1) | get_icmp_code(p2)
        res = get_pred_for_icmp_code(code, sign, ctx.i4 if hasattr(ctx, "i4") else ctx.int_type(4))
        for a, b in itertools.product(range(16), repeat=2):
            want = _holds(p1, a, b, 4) or _holds(p2, a, b, 4)
            if isinstance(res, ConstantInt):
                assert res.value == int(want)
            else:
                assert isinstance(res, P)
                assert _holds(res, a, b, 4) == want
    assert get_constant_for_icmp_code(3, ctx.i8) is None


def test_fcmp_codes() -> None:
    ctx = Context()
    for p in P:
        if p.is_fp_predicate:
            assert get_fcmp_code(p) == int(p)
    assert isinstance(get_pred_for_fcmp_code(0, ctx.double), ConstantInt)
    assert get_pred_for_fcmp_code(4, ctx.double) == P.FCMP_OLT


def test_decompose_bit_test_exhaustive_i4() -> None:
    ctx = Context()
    i4 = ctx.int_type(4)
    x = Argument(i4, None, 0, "x")  # type: ignore[arg-type]
    seen = 0
    for pred in ICMPS:
        for c in range(16):
            res = decompose_bit_test_icmp(x, ConstantInt.get(i4, c), pred)
            if res is None:
                continue
            seen += 1
            xv, mask, npred = res
            assert xv is x and npred in (P.ICMP_EQ, P.ICMP_NE)
            for a in range(16):
                bit = (a & mask) != 0
                assert _holds(pred, a, c, 4) == (bit if npred == P.ICMP_NE else not bit)
    assert seen == 4 + 4 * 4  # sign tests + 4 powers of two (ult/uge) + 4 low masks (ule/ugt)
