"""Printer tests for constants: floats of every kind against opt-19, strings,
and very deep constants, types and metadata (printed without recursion).
"""

from __future__ import annotations

import random
import shutil
import struct
import subprocess

import pytest

from llvmpy_mid.asm.print_constants import fp_text
from llvmpy_mid.asm.printer import format_value, print_module
from llvmpy_mid.ir import Constant, ConstantDataArray, ConstantExpr, ConstantInt, Context, Module
from llvmpy_mid.ir.metadata import MDTuple
from llvmpy_mid.ir.types import Type, TypeID

OPT = shutil.which("opt-19")

_KINDS = {
    "double": (TypeID.DOUBLE, 64),
    "float": (TypeID.FLOAT, 32),
    "half": (TypeID.HALF, 16),
    "bfloat": (TypeID.BFLOAT, 16),
    "x86_fp80": (TypeID.X86_FP80, 80),
    "fp128": (TypeID.FP128, 128),
    "ppc_fp128": (TypeID.PPC_FP128, 128),
}


def _literal(kind: str, bits: int) -> str:
    """A literal opt reads back as exactly ``bits`` (hex forms only)."""
    if kind == "double":
        return "0x%016X" % bits
    if kind == "float":
        value = struct.unpack("<f", struct.pack("<I", bits))[0]
        if (bits >> 23) & 0xFF == 0xFF:
            wide = ((bits >> 31) << 63) | (0x7FF << 52) | ((bits & 0x7FFFFF) << 29)
        else:
            wide = struct.unpack("<Q", struct.pack("<d", value))[0]
        return "0x%016X" % wide
    if kind == "half":
        return "0xH%04X" % bits
    if kind == "bfloat":
        return "0xR%04X" % bits
    if kind == "x86_fp80":
        return "0xK%04X%016X" % (bits >> 64, bits & ((1 << 64) - 1))
    if kind == "fp128":
        return "0xL%016X%016X" % (bits & ((1 << 64) - 1), bits >> 64)
    return "0xM%016X%016X" % (bits & ((1 << 64) - 1), bits >> 64)


def _samples() -> list[tuple[str, int]]:
    rng = random.Random(1234)
    out: list[tuple[str, int]] = []
    for kind, (_, width) in _KINDS.items():
        for _ in range(300):
            out.append((kind, rng.getrandbits(width)))
    # Decimal-looking values, where the decimal/hex choice is decided.
    for _ in range(600):
        d = rng.randint(1, 10 ** rng.randint(1, 9)) * 10.0 ** rng.randint(-12, 12)
        out.append(("double", struct.unpack("<Q", struct.pack("<d", d))[0]))
        f = rng.randint(1, 10 ** rng.randint(1, 7)) / 2 ** rng.randint(0, 20)
        out.append(("float", struct.unpack("<I", struct.pack("<f", f))[0]))
    for special in (0.0, -0.0, 0.5, 1e300, 5e-324, 2.2250738585072014e-308, 9.999995e-5, 123456.5):
        out.append(("double", struct.unpack("<Q", struct.pack("<d", special))[0]))
    return out


@pytest.mark.skipif(OPT is None, reason="opt-19 is not installed")
def test_float_constants_match_opt_on_random_patterns() -> None:
    samples = _samples()
    lines = ["@g%d = global %s %s" % (i, kind, _literal(kind, bits)) for i, (kind, bits) in enumerate(samples)]
    assert OPT is not None
    proc = subprocess.run([OPT, "-S", "-", "-o", "-"], input="\n".join(lines) + "\n", capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    printed = [line.split(" global ", 1)[1].split(" ", 1)[1] for line in proc.stdout.splitlines() if " = global " in line]
    assert len(printed) == len(samples)
    mismatches = [
        (kind, hex(bits), fp_text(_KINDS[kind][0], bits), want)
        for (kind, bits), want in zip(samples, printed)
        if fp_text(_KINDS[kind][0], bits) != want
    ]
    assert mismatches == []


def test_decimal_or_hex_choice() -> None:
    dbl = TypeID.DOUBLE

    def d(x: float) -> str:
        return fp_text(dbl, struct.unpack("<Q", struct.pack("<d", x))[0])

    assert d(0.0) == "0.000000e+00"
    assert d(-0.0) == "-0.000000e+00"
    assert d(1.5) == "1.500000e+00"
    assert d(1e10) == "1.000000e+10"
    assert d(0.1) == "1.000000e-01"
    assert d(1 / 3) == "0x3FD5555555555555"
    assert d(float("inf")) == "0x7FF0000000000000"
    assert d(float("-inf")) == "0xFFF0000000000000"
    # float 0.1 widened to double does not read back from six digits
    assert fp_text(TypeID.FLOAT, 0x3DCCCCCD) == "0x3FB99999A0000000"
    assert fp_text(TypeID.FLOAT, 0x3FC00000) == "1.500000e+00"
    # a float signalling NaN keeps its payload shifted into the double
    assert fp_text(TypeID.FLOAT, 0x7F800001) == "0x7FF0000020000000"


def test_other_float_kinds_print_their_bits() -> None:
    assert fp_text(TypeID.HALF, 0x3C00) == "0xH3C00"
    assert fp_text(TypeID.BFLOAT, 0x3FC0) == "0xR3FC0"
    assert fp_text(TypeID.X86_FP80, 0x3FFF8000000000000000) == "0xK3FFF8000000000000000"
    assert fp_text(TypeID.FP128, 0x40008000000000000000000000000000) == "0xL00000000000000004000800000000000"
    assert fp_text(TypeID.PPC_FP128, 0x3FF0000000000000) == "0xM3FF00000000000000000000000000000"
    # An x86_fp80 "unnormal" (exponent set, integer bit clear) is a NaN to LLVM.
    assert fp_text(TypeID.X86_FP80, 0x05265A1265F342002E1F) == "0xK7FFF5A1265F342002E1F"


def test_strings_and_integers() -> None:
    ctx = Context()
    s = ConstantDataArray.get_string(ctx.i8, bytes(range(0, 256, 17)) + b'"\\')
    assert format_value(s) == (
        '[19 x i8] c"\\00\\11\\223DUfw\\88\\99\\AA\\BB\\CC\\DD\\EE\\FF\\22\\\\\\00"'
    )
    assert format_value(ConstantInt.get(ctx.int_type(8), 255)) == "i8 -1"
    assert format_value(ConstantInt.get(ctx.int_type(128), 1 << 127)) == "i128 -170141183460469231731687303715884105728"
    assert format_value(ConstantInt.get(ctx.i1, 0)) == "i1 false"


def test_deep_constants_types_and_metadata_print_without_recursion() -> None:
    ctx = Context()
    m = Module("deep", ctx)
    depth = 5000
    base = m.add_global(ctx.i8, "base", initializer=ConstantInt.get(ctx.i8, 0))
    value: Constant = base
    for _ in range(depth):
        value = ConstantExpr.get_gep(ctx.i8, value, [ConstantInt.get(ctx.i64, 1)])
    m.add_global(ctx.ptr, "g", initializer=value)
    ty: Type = ctx.i8
    for _ in range(depth):
        ty = ctx.array_type(ty, 1)
    m.add_global(ty, "z", initializer=Constant.get_null_value(ty))
    node = MDTuple.get(ctx, [])
    for _ in range(depth):
        node = MDTuple.get(ctx, [node])
    m.get_or_insert_named_metadata("deep").add_operand(node)
    text = print_module(m)
    assert "@g = global ptr " + "getelementptr (i8, ptr " * depth + "@base" + ", i64 1)" * depth + "\n" in text
    assert "@z = global " + "[1 x " * depth + "i8" + "]" * depth + " zeroinitializer\n" in text
    assert text.count("\n!") == depth + 2  # "!deep = ..." and nodes !0 .. !depth
    assert "!0 = !{!1}\n" in text
    assert "!%d = !{}\n" % depth in text
