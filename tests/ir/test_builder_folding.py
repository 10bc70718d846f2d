"""IRBuilder's folder and inserter hooks: ``create_*`` fold all-constant operands
through ConstantFolder (checked exhaustively on i4 against the integer rules),
keep constant expressions where LLVM 19 keeps them, create instructions
otherwise, and report every inserted instruction to the inserter."""

from __future__ import annotations

import llvmpy_mid
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue
from llvmpy_mid.ir.folders import ConstantFolder, NoFolder
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.module import Module
from llvmpy_mid.transform.utils.instruction_worklist import InstructionWorklist


def setup() -> tuple[llvmpy_mid.Context, Function, IRBuilder]:
    ctx = llvmpy_mid.Context()
    mod = Module("m", ctx)
    fn = Function(ctx.function_type(ctx.i32, [ctx.i32]), "f", module=mod)
    b = IRBuilder(fn.append_block("entry"), folder=ConstantFolder())
    return ctx, fn, b


def _sx(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) else v


RULES = {
    "add": lambda a, b, w: (a + b) % (1 << w),
    "sub": lambda a, b, w: (a - b) % (1 << w),
    "mul": lambda a, b, w: (a * b) % (1 << w),
    "and": lambda a, b, w: a & b,
    "or": lambda a, b, w: a | b,
    "xor": lambda a, b, w: a ^ b,
    "shl": lambda a, b, w: None if b >= w else (a << b) % (1 << w),
    "lshr": lambda a, b, w: None if b >= w else a >> b,
    "ashr": lambda a, b, w: None if b >= w else (_sx(a, w) >> b) % (1 << w),
    "udiv": lambda a, b, w: None if b == 0 else a // b,
    "urem": lambda a, b, w: None if b == 0 else a % b,
}


def test_binops_fold_exhaustively_on_i4() -> None:
    ctx, fn, b = setup()
    i4 = ctx.int_type(4)
    for op, rule in RULES.items():
        for x in range(16):
            for y in range(16):
                got = b.create_bin_op(op, ConstantInt.get(i4, x), ConstantInt.get(i4, y))
                want = rule(x, y, 4)
                if want is None:
                    assert isinstance(got, PoisonValue), (op, x, y, got)
                else:
                    assert got is ConstantInt.get(i4, want), (op, x, y, got)
    assert fn.entry_block is not None and len(fn.entry_block.instructions) == 0


def test_icmp_and_casts_fold() -> None:
    ctx, fn, b = setup()
    three = ConstantInt.get(ctx.i32, 3)
    assert b.create_icmp("slt", three, ConstantInt.get(ctx.i32, -1)) is ConstantInt.get(ctx.i1, 0)
    assert b.create_icmp(Predicate.ICMP_ULT, three, ConstantInt.get(ctx.i32, -1)) is ConstantInt.get(ctx.i1, 1)
    assert b.create_zext(ConstantInt.get(ctx.i8, 255), ctx.i32) is ConstantInt.get(ctx.i32, 255)
    assert b.create_sext(ConstantInt.get(ctx.i8, 255), ctx.i32) is ConstantInt.get(ctx.i32, -1)
    assert b.create_trunc(ConstantInt.get(ctx.i32, 257), ctx.i8) is ConstantInt.get(ctx.i8, 1)
    x = fn.args[0]
    assert b.create_cast("zext", x, ctx.i32) is x  # same type: the value itself
    assert b.create_zext_or_trunc(x, ctx.i32) is x


def test_constant_expressions_stay_where_llvm_keeps_them() -> None:
    ctx, fn, b = setup()
    g = fn.parent.add_global(ctx.i32, "g", initializer=ConstantInt.get(ctx.i32, 0))  # type: ignore[union-attr]
    p2i = b.create_cast("ptrtoint", g, ctx.i64)
    assert isinstance(p2i, ConstantExpr) and p2i.opcode == "ptrtoint"
    s = b.create_add(p2i, ConstantInt.get(ctx.i64, 4))
    assert isinstance(s, ConstantExpr) and s.opcode == "add"
    assert fn.entry_block is not None and len(fn.entry_block.instructions) == 0


def test_non_constants_create_instructions_and_feed_the_inserter() -> None:
    ctx, fn, b = setup()
    wl = InstructionWorklist()
    b.inserter = wl.push
    x = fn.args[0]
    a = b.create_add(x, ConstantInt.get(ctx.i32, 1), "a")
    n = b.create_not(a, "n")
    c = b.create_icmp("eq", n, x, "c")
    folded = b.create_mul(ConstantInt.get(ctx.i32, 2), ConstantInt.get(ctx.i32, 3))
    assert folded is ConstantInt.get(ctx.i32, 6)
    r = b.ret(x)
    assert all(isinstance(v, Instruction) for v in (a, n, c))
    assert str(a) == "%a = add i32 %0, 1"
    assert [wl.pop() for _ in range(4)] == [r, c, n, a]
    assert wl.pop() is None


def test_no_folder_always_creates() -> None:
    ctx, fn, b = setup()
    b.folder = NoFolder()
    v = b.create_add(ConstantInt.get(ctx.i32, 1), ConstantInt.get(ctx.i32, 2))
    assert isinstance(v, Instruction)
    b.folder = None
    v = b.create_add(ConstantInt.get(ctx.i32, 1), ConstantInt.get(ctx.i32, 2))
    assert isinstance(v, Instruction)
