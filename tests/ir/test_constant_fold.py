"""Target-independent constant folding (ir/constant_fold.py) and exact IEEE
arithmetic (ir/apfloat.py).

Integer operators, comparisons and casts are checked exhaustively on i4/i8
against Python integers; float/double/half arithmetic against numpy (IEEE
hardware arithmetic) on random and special values; x86_fp80 and fp128 (and
NaN payload rules) against opt-19's folding of the same instructions.
"""

from __future__ import annotations

import itertools
import random
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir import apfloat
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constant_fold import (
    constant_fold_binary_instruction,
    constant_fold_cast_instruction,
    constant_fold_compare_instruction,
    constant_fold_extract_element,
    constant_fold_get_element_ptr,
    constant_fold_insert_value,
    constant_fold_select_instruction,
    constant_fold_shuffle_vector,
    constant_fold_unary_instruction,
)
from llvmpy_mid.ir.constants import (
    ConstantFP,
    ConstantInt,
    ConstantPointerNull,
    ConstantStruct,
    ConstantVector,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.types import TypeID

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402

INT_OPS = ("add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor")


def _signed(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) else v


def _expected_int(op: str, a: int, b: int, w: int) -> int | None:
    """The LLVM result of ``op`` on w-bit patterns; None for poison."""
    m = (1 << w) - 1
    sa, sb = _signed(a, w), _signed(b, w)
    if op in ("udiv", "sdiv", "urem", "srem") and b == 0:
        return None
    if op in ("sdiv", "srem") and sb == -1 and sa == -(1 << (w - 1)):
        return None
    if op in ("shl", "lshr", "ashr") and b >= w:
        return None
    if op == "add":
        return (a + b) & m
    if op == "sub":
        return (a - b) & m
    if op == "mul":
        return (a * b) & m
    if op == "udiv":
        return a // b
    if op == "urem":
        return a % b
    if op == "sdiv":
        q = abs(sa) // abs(sb)
        return (q if (sa < 0) == (sb < 0) else -q) & m
    if op == "srem":
        r = abs(sa) % abs(sb)
        return (-r if sa < 0 else r) & m
    if op == "shl":
        return (a << b) & m
    if op == "lshr":
        return a >> b
    if op == "ashr":
        return (sa >> b) & m
    if op == "and":
        return a & b
    if op == "or":
        return a | b
    return a ^ b


@pytest.fixture
def ctx() -> Context:
    return Context()


@pytest.mark.parametrize("width", [4, 8])
def test_integer_binary_ops_exhaustive(ctx: Context, width: int) -> None:
    ty = ctx.int_type(width)
    values = range(1 << width) if width == 4 else sorted(set(range(0, 256, 7)) | {0, 1, 127, 128, 255})
    consts = {v: ConstantInt.get(ty, v) for v in values}
    for op in INT_OPS:
        for a, b in itertools.product(values, repeat=2):
            got = constant_fold_binary_instruction(op, consts[a], consts[b])
            want = _expected_int(op, a, b, width)
            if want is None:
                assert isinstance(got, PoisonValue), (op, a, b, got)
            else:
                assert got is ConstantInt.get(ty, want), (op, a, b, got, want)


def test_integer_compares_exhaustive_i4(ctx: Context) -> None:
    ty = ctx.int_type(4)
    preds = {
        Predicate.ICMP_EQ: lambda a, b, sa, sb: a == b,
        Predicate.ICMP_NE: lambda a, b, sa, sb: a != b,
        Predicate.ICMP_UGT: lambda a, b, sa, sb: a > b,
        Predicate.ICMP_UGE: lambda a, b, sa, sb: a >= b,
        Predicate.ICMP_ULT: lambda a, b, sa, sb: a < b,
        Predicate.ICMP_ULE: lambda a, b, sa, sb: a <= b,
        Predicate.ICMP_SGT: lambda a, b, sa, sb: sa > sb,
        Predicate.ICMP_SGE: lambda a, b, sa, sb: sa >= sb,
        Predicate.ICMP_SLT: lambda a, b, sa, sb: sa < sb,
        Predicate.ICMP_SLE: lambda a, b, sa, sb: sa <= sb,
    }
    for pred, f in preds.items():
        for a, b in itertools.product(range(16), repeat=2):
            got = constant_fold_compare_instruction(pred, ConstantInt.get(ty, a), ConstantInt.get(ty, b))
            assert got is ConstantInt.get(ctx.i1, int(f(a, b, _signed(a, 4), _signed(b, 4)))), (pred, a, b)


def test_integer_casts_exhaustive_i8(ctx: Context) -> None:
    for v in range(256):
        c = ConstantInt.get(ctx.i8, v)
        assert constant_fold_cast_instruction("zext", c, ctx.i16) is ConstantInt.get(ctx.i16, v)
        assert constant_fold_cast_instruction("sext", c, ctx.i16) is ConstantInt.get(ctx.i16, _signed(v, 8))
        assert constant_fold_cast_instruction("trunc", c, ctx.int_type(3)) is ConstantInt.get(ctx.int_type(3), v & 7)
        f = constant_fold_cast_instruction("sitofp", c, ctx.float)
        assert isinstance(f, ConstantFP) and f.value == float(_signed(v, 8))
        back = constant_fold_cast_instruction("fptosi", f, ctx.i8)
        assert back is c


def test_undef_and_poison_rules(ctx: Context) -> None:
    i32 = ctx.i32
    u = UndefValue.get(i32)
    p = PoisonValue.get(i32)
    five = ConstantInt.get(i32, 5)
    assert constant_fold_binary_instruction("add", u, five) is u
    assert constant_fold_binary_instruction("and", u, five) is ConstantInt.get(i32, 0)
    assert constant_fold_binary_instruction("or", u, five) is ConstantInt.get(i32, 0xFFFFFFFF)
    assert constant_fold_binary_instruction("xor", u, u) is ConstantInt.get(i32, 0)
    assert constant_fold_binary_instruction("mul", u, five) is u  # odd constant: undef
    assert constant_fold_binary_instruction("udiv", five, u) is p
    assert constant_fold_binary_instruction("shl", five, u) is p
    assert constant_fold_binary_instruction("add", p, five) is p
    assert constant_fold_cast_instruction("zext", u, ctx.i64) is ConstantInt.get(ctx.i64, 0)
    assert constant_fold_cast_instruction("trunc", u, ctx.i8) is UndefValue.get(ctx.i8)
    t = ConstantInt.get(ctx.i1, 1)
    assert constant_fold_select_instruction(t, five, u) is five
    assert constant_fold_select_instruction(UndefValue.get(ctx.i1), five, u) is u
    assert constant_fold_compare_instruction(Predicate.ICMP_ULT, five, ConstantInt.get(i32, 0)) is ConstantInt.get(
        ctx.i1, 0
    )
    assert constant_fold_compare_instruction(Predicate.ICMP_EQ, u, five) is UndefValue.get(ctx.i1)


def test_vectors_and_aggregates(ctx: Context) -> None:
    i32 = ctx.i32
    a = ConstantVector.get([ConstantInt.get(i32, v) for v in (1, 2, 3, 4)])
    b = ConstantVector.get([ConstantInt.get(i32, v) for v in (10, 0, 30, 40)])
    s = constant_fold_binary_instruction("add", a, b)
    assert str(s) == "<4 x i32> <i32 11, i32 2, i32 33, i32 44>"
    assert isinstance(constant_fold_binary_instruction("udiv", a, b), PoisonValue)  # a zero lane
    assert constant_fold_extract_element(a, ConstantInt.get(i32, 2)) is ConstantInt.get(i32, 3)
    assert isinstance(constant_fold_extract_element(a, ConstantInt.get(i32, 9)), PoisonValue)
    sh = constant_fold_shuffle_vector(a, b, [7, 0, -1])
    assert str(sh) == "<3 x i32> <i32 40, i32 1, i32 undef>"
    st = ctx.struct_type([i32, ctx.i8])
    agg = ConstantStruct.get(st, [ConstantInt.get(i32, 1), ConstantInt.get(ctx.i8, 2)])
    ins = constant_fold_insert_value(agg, ConstantInt.get(ctx.i8, 9), [1])
    assert str(ins) == "{ i32, i8 } { i32 1, i8 9 }"
    neg = constant_fold_unary_instruction("fneg", ConstantFP.get(ctx.double, 2.0))
    assert isinstance(neg, ConstantFP) and neg.value == -2.0


def test_gep_of_poison_and_zero_indices(ctx: Context) -> None:
    null = ConstantPointerNull.get(ctx.ptr)
    zero = ConstantInt.get(ctx.i64, 0)
    assert constant_fold_get_element_ptr(ctx.i8, null, None, [zero]) is null
    assert isinstance(constant_fold_get_element_ptr(ctx.i8, PoisonValue.get(ctx.ptr), None, [zero]), PoisonValue)
    assert constant_fold_get_element_ptr(ctx.i8, null, None, [ConstantInt.get(ctx.i64, 1)]) is None


def test_constant_expr_getters_fold(ctx: Context) -> None:
    i64 = ctx.i64
    assert ConstantExpr.get_add(ConstantInt.get(i64, 1), ConstantInt.get(i64, 2)) is ConstantInt.get(i64, 3)
    m = parse_assembly("@g = global i32 0\n")
    g = m.get_named_value("g")
    assert g is not None
    pg = ConstantExpr.get_cast("ptrtoint", g, i64)
    # (pg + 1) + 2 reassociates to pg + 3; a constant on the left moves right.
    e = ConstantExpr.get_add(ConstantExpr.get_add(pg, ConstantInt.get(i64, 1)), ConstantInt.get(i64, 2))
    assert str(e) == "i64 add (i64 ptrtoint (ptr @g to i64), i64 3)"
    assert ConstantExpr.get_add(ConstantInt.get(i64, 5), pg) is ConstantExpr.get_add(pg, ConstantInt.get(i64, 5))


def test_rauw_with_poison_folds_expressions() -> None:
    m = parse_assembly(
        "@g = global i32 0\n"
        "@p = global ptr getelementptr (i8, ptr @g, i64 4)\n"
        "@q = global i64 add (i64 ptrtoint (ptr @g to i64), i64 1)\n"
    )
    g = m.get_named_value("g")
    assert g is not None
    g.replace_all_uses_with(PoisonValue.get(g.type))
    text = str(m)
    assert "@p = global ptr poison" in text
    assert "@q = global i64 poison" in text


# --- IEEE arithmetic ----------------------------------------------------------------------------------

np = pytest.importorskip("numpy")

SPECIAL_DOUBLES = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.0, 3.0, 1e308, -1e308, 5e-324, 2.2250738585072014e-308,
                   float("inf"), float("-inf"), 1 / 3, 7.0, 1e-310, 123456.789]


def _np_kind(tid: TypeID):  # type: ignore[no-untyped-def]
    return {TypeID.HALF: (np.float16, np.uint16), TypeID.FLOAT: (np.float32, np.uint32),
            TypeID.DOUBLE: (np.float64, np.uint64)}[tid]


@pytest.mark.parametrize("tid", [TypeID.HALF, TypeID.FLOAT, TypeID.DOUBLE])
def test_ieee_ops_match_hardware(tid: TypeID) -> None:
    sem = apfloat.SEMANTICS[tid]
    fty, uty = _np_kind(tid)
    rng = random.Random(1234 + int(tid))
    vals = [fty(v) for v in SPECIAL_DOUBLES]
    for _ in range(300):
        bits = rng.getrandbits(sem.width)
        vals.append(np.array([bits], dtype=uty).view(fty)[0])
        vals.append(fty(rng.uniform(-100, 100)))
    vals = [v for v in vals if not np.isnan(v)]
    ops = {
        "add": (lambda x, y: x + y, lambda a, b: apfloat.add(sem, a, b)),
        "sub": (lambda x, y: x - y, lambda a, b: apfloat.add(sem, a, b, subtract=True)),
        "mul": (lambda x, y: x * y, lambda a, b: apfloat.multiply(sem, a, b)),
        "div": (lambda x, y: x / y, lambda a, b: apfloat.divide(sem, a, b)),
        "fmod": (np.fmod, lambda a, b: apfloat.mod(sem, a, b)),
    }
    with np.errstate(all="ignore"):
        for x, y in zip(vals, reversed(vals)):
            xb = int(np.array([x], dtype=fty).view(uty)[0])
            yb = int(np.array([y], dtype=fty).view(uty)[0])
            for name, (hw, ours) in ops.items():
                want = hw(fty(x), fty(y))
                got = ours(xb, yb)
                if np.isnan(want):
                    assert apfloat.category(sem, got) == apfloat.NAN, (name, x, y)
                else:
                    wb = int(np.array([want], dtype=fty).view(uty)[0])
                    assert got == wb, (name, x, y, hex(got), hex(wb))
            c = apfloat.compare(sem, xb, yb)
            assert c == (apfloat.CMP_LESS if x < y else apfloat.CMP_EQUAL if x == y else apfloat.CMP_GREATER)
            if tid is not TypeID.HALF:
                if x >= 0:
                    s = apfloat.sqrt(sem, xb)
                    assert s == int(np.array([np.sqrt(x)], dtype=fty).view(uty)[0]), x


def test_conversions_match_hardware() -> None:
    dbl = apfloat.SEMANTICS[TypeID.DOUBLE]
    rng = random.Random(99)
    values = SPECIAL_DOUBLES + [struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(500)]
    with np.errstate(all="ignore"):
        for v in values:
            if v != v:
                continue
            db = struct.unpack("<Q", struct.pack("<d", v))[0]
            for tid in (TypeID.FLOAT, TypeID.HALF):
                fty, uty = _np_kind(tid)
                want = int(np.array([fty(v)], dtype=fty).view(uty)[0])
                assert apfloat.convert(dbl, apfloat.SEMANTICS[tid], db) == want, (v, tid)
            n = rng.randrange(-(1 << 70), 1 << 70)
            assert apfloat.from_integer(dbl, n) == struct.unpack("<Q", struct.pack("<d", float(n)))[0]
            if abs(v) < 2**62:
                assert apfloat.to_integer(dbl, db, 64, True) == int(v)


def test_nan_rules() -> None:
    dbl = apfloat.SEMANTICS[TypeID.DOUBLE]
    snan = 0x7FF0000000000001
    qnan_payload = 0xFFF8000000000042
    one = 0x3FF0000000000000
    assert apfloat.add(dbl, snan, one) == 0x7FF8000000000001  # quieted, payload kept
    assert apfloat.multiply(dbl, one, qnan_payload) == qnan_payload  # sign kept
    inf = 0x7FF0000000000000
    assert apfloat.add(dbl, inf, inf | (1 << 63)) == 0x7FF8000000000000  # default NaN
    flt = apfloat.SEMANTICS[TypeID.FLOAT]
    assert apfloat.convert(dbl, flt, 0x7FF0000000000001) == 0x7FC00000  # sNaN -> qNaN


def _opt_fold(lines: list[str]) -> list[str]:
    """opt-19 -passes=instsimplify over functions each returning one folded instruction; the
    returned operands in order."""
    proc = subprocess.run(
        ["opt-19", "-passes=instsimplify", "-S"], input="\n".join(lines), capture_output=True, text=True, check=True
    )
    return re.findall(r"^  ret \S+ (.*)$", proc.stdout, re.M)


def _our_fold(lines: list[str]) -> list[str]:
    from llvmpy_mid.analysis.constant_folding import constant_fold_instruction

    m = parse_assembly("\n".join(lines))
    out: list[str] = []
    for fn in m.functions:
        if fn.is_declaration:
            continue
        inst = fn.entry_block.instructions.first
        assert inst is not None
        c = constant_fold_instruction(inst, m.data_layout)
        if c is not None:
            inst.replace_all_uses_with(c)
            inst.erase_from_parent()
        ret = fn.entry_block.instructions.last
        assert ret is not None
        out.append(re.sub(r"^ *ret \S+ ", "", str(ret)))
    return out


def _fp_literal(tid: TypeID, bits: int) -> str:
    if tid is TypeID.BFLOAT:
        return "0xR%04X" % bits
    if tid is TypeID.HALF:
        return "0xH%04X" % bits
    if tid is TypeID.X86_FP80:
        return "0xK%04X%016X" % (bits >> 64, bits & (2**64 - 1))
    return "0xL%016X%016X" % (bits & (2**64 - 1), bits >> 64)


@pytest.mark.parametrize(
    "tid,name", [(TypeID.X86_FP80, "x86_fp80"), (TypeID.FP128, "fp128"), (TypeID.BFLOAT, "bfloat"), (TypeID.HALF, "half")]
)
def test_wide_formats_match_opt19(tid: TypeID, name: str) -> None:
    require_tools("opt-19")
    sem = apfloat.SEMANTICS[tid]
    rng = random.Random(7 + int(tid))
    dbl = apfloat.SEMANTICS[TypeID.DOUBLE]

    def value() -> int:
        k = rng.randrange(6)
        if k == 0:
            return rng.getrandbits(sem.width)
        if k == 1:
            return apfloat.default_nan(sem) | rng.getrandbits(20)
        d = struct.unpack("<Q", struct.pack("<d", rng.uniform(-1e6, 1e6)))[0]
        return apfloat.convert(dbl, sem, d) ^ rng.getrandbits(min(30, sem.frac_bits))

    lines: list[str] = []
    for i in range(60):
        a, b = value(), value()
        if tid is TypeID.X86_FP80:
            a |= 1 << 63  # keep the explicit integer bit of normal values
            b |= 1 << 63
        op = ("fadd", "fsub", "fmul", "fdiv", "frem")[i % 5]
        lines.append("define %s @f%d() {\n  %%r = %s %s %s, %s\n  ret %s %%r\n}" % (
            name, i, op, name, _fp_literal(tid, a), _fp_literal(tid, b), name))
    for i in range(20):
        d = struct.unpack("<Q", struct.pack("<d", rng.uniform(-1e10, 1e10)))[0]
        wide = apfloat.convert(dbl, sem, d) ^ rng.getrandbits(min(40, sem.frac_bits))
        conv = "fptrunc" if sem.width > 64 else "fpext"
        lines.append("define double @t%d() {\n  %%r = %s %s %s to double\n  ret double %%r\n}" % (
            i, conv, name, _fp_literal(tid, wide | ((1 << 63) if tid is TypeID.X86_FP80 else 0))))
        lines.append("define i32 @i%d() {\n  %%r = fptosi %s %s to i32\n  ret i32 %%r\n}" % (
            i, name, _fp_literal(tid, apfloat.from_integer(sem, rng.randrange(-(1 << 33), 1 << 33)))))
    assert _our_fold(lines) == _opt_fold(lines)


# --- random nested constant expressions read back as opt-19 prints them ------------------------------


def _rand_int_expr(rng: random.Random, w: int, d: int) -> str:
    k = rng.randrange(9 if d < 3 else 2)
    if k == 0:
        return "i%d %d" % (w, rng.choice([0, 1, -1, 2, 7, rng.randrange(-1000, 1000)]))
    if k == 1:
        return "i%d %s" % (w, rng.choice(["undef", "poison", "0", "1"]))
    if k in (2, 3):
        return "i%d ptrtoint (ptr %s to i%d)" % (w, _rand_ptr_expr(rng, d + 1), w)
    if k in (4, 5, 6):
        op = rng.choice(["add", "sub", "mul", "xor", "add nsw", "sub nuw"])
        return "i%d %s (%s, %s)" % (w, op, _rand_int_expr(rng, w, d + 1), _rand_int_expr(rng, w, d + 1))
    if k == 7 and w < 64:
        return "i%d trunc (%s to i%d)" % (w, _rand_int_expr(rng, 64, d + 1), w)
    return "i%d extractelement (<2 x i%d> <i%d 3, i%d %d>, i32 %d)" % (w, w, w, w, rng.randrange(9), rng.randrange(3))


def _rand_ptr_expr(rng: random.Random, d: int) -> str:
    k = rng.randrange(6 if d < 3 else 2)
    if k == 0:
        return rng.choice(["@a", "@b", "@f", "@ew", "null"])
    if k == 1:
        return rng.choice(["@a", "@b", "undef", "poison"])
    if k in (2, 3):
        flags = rng.choice(["", "inbounds ", "nuw ", "nusw "])
        ty = rng.choice(["i8", "i32", "[4 x i16]"])
        idx = ", ".join(_rand_int_expr(rng, 64, d + 1) for _ in range(2 if ty[0] == "[" else 1))
        return "getelementptr %s(%s, ptr %s, %s)" % (flags, ty, _rand_ptr_expr(rng, d + 1), idx)
    if k == 4:
        return "inttoptr (%s to ptr)" % _rand_int_expr(rng, 64, d + 1)
    return "addrspacecast (ptr addrspace(1) @g1 to ptr)"


@pytest.mark.parametrize("seed", range(6))
def test_random_constant_expressions_read_as_opt19(seed: int) -> None:
    """ConstantExpr getters fold nested add/sub/mul/xor, casts, GEPs and vector element
    expressions of globals, integers, undef and poison exactly as opt-19's reader does."""
    require_tools("opt-19")
    rng = random.Random(seed)
    lines = ["@a = global [4 x i16] zeroinitializer", "@b = global i32 1", "@ew = extern_weak global i8",
             "@g1 = addrspace(1) global i8 0", "define void @f() {\n  ret void\n}"]
    for i in range(40):
        if rng.random() < 0.5:
            lines.append("@x%d = global %s" % (i, _rand_int_expr(rng, rng.choice([8, 32, 64]), 0)))
        else:
            lines.append("@x%d = global ptr %s" % (i, _rand_ptr_expr(rng, 0)))
    text = "\n".join(lines) + "\n"
    proc = subprocess.run(["opt-19", "-S"], input=text, capture_output=True, text=True, check=True)
    theirs = [x for x in proc.stdout.splitlines() if x.startswith("@x")]
    ours = [x for x in str(parse_assembly(text)).splitlines() if x.startswith("@x")]
    assert ours == theirs
