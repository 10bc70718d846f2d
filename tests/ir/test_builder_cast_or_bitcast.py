"""``IRBuilder.create_{zext,sext,trunc}_or_bitcast`` follow LLVM ``CastInst::Create*OrBitCast``:
the value itself at the same type, ``bitcast`` when ``getScalarSizeInBits`` agree (float
and i32 are both 32 bits), else the named extension or truncation."""

from __future__ import annotations

from llvmpy_mid.ir import Context, Function, IRBuilder, Module
from llvmpy_mid.ir.instructions.casts import CastInst


def _setup() -> tuple[Context, IRBuilder, Function]:
    ctx = Context()
    m = Module("m", ctx)
    fty = ctx.function_type(ctx.void, [ctx.i8, ctx.i32, ctx.i64, ctx.float, ctx.vector_type(ctx.i32, 2)])
    f = Function(fty, "f", module=m)
    return ctx, IRBuilder(f.append_block("entry")), f


def test_same_type_is_the_value() -> None:
    ctx, b, f = _setup()
    a32 = f.args[1]
    assert b.create_zext_or_bitcast(a32, ctx.i32) is a32
    assert b.create_sext_or_bitcast(a32, ctx.i32) is a32
    assert b.create_trunc_or_bitcast(a32, ctx.i32) is a32


def test_opcode_by_scalar_size() -> None:
    ctx, b, f = _setup()
    a8, a32, a64, fl, v2 = f.args
    cases = [
        (b.create_zext_or_bitcast(a8, ctx.i32), "zext"),
        (b.create_sext_or_bitcast(a8, ctx.i32), "sext"),
        (b.create_trunc_or_bitcast(a64, ctx.i32), "trunc"),
        (b.create_zext_or_bitcast(a32, ctx.float), "bitcast"),
        (b.create_trunc_or_bitcast(fl, ctx.i32), "bitcast"),
        (b.create_sext_or_bitcast(v2, ctx.vector_type(ctx.float, 2)), "bitcast"),
    ]
    for v, opcode in cases:
        assert isinstance(v, CastInst) and v.opcode == opcode

