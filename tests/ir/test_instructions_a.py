"""Instruction classes of helper A: flags, binary/unary, casts, compares, memory,
vector/aggregate, phi/select/freeze/va_arg.

Facts marked "opt-19" were checked against opt-19 / llvm-as-19 while writing.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import (
    ConstantAggregateZero,
    ConstantInt,
    ConstantVector,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import (
    BINARY_OPCODE_CLASSES,
    AddInst,
    AndInst,
    BinaryOperator,
    FAddInst,
    FMulInst,
    OrInst,
    SDivInst,
    ShlInst,
    SubInst,
    UDivInst,
    UnaryOperator,
)
from llvmpy_mid.ir.instructions.casts import (
    CAST_OPCODES,
    BitCastInst,
    CastInst,
    TruncInst,
    ZExtInst,
    cast_is_valid,
)
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.flags import (
    AtomicOrdering,
    AtomicRMWBinOp,
    FastMathFlags,
    GEPFlags,
    TailCallKind,
    type_supports_fast_math_flags,
)
from llvmpy_mid.ir.instructions.memory import (
    AllocaInst,
    AtomicCmpXchgInst,
    AtomicRMWInst,
    FenceInst,
    GetElementPtrInst,
    LoadInst,
    StoreInst,
    get_indexed_type,
)
from llvmpy_mid.ir.instructions.other import FreezeInst, PHINode, SelectInst, VAArgInst
from llvmpy_mid.ir.instructions.vector import (
    ExtractElementInst,
    ExtractValueInst,
    InsertElementInst,
    InsertValueInst,
    ShuffleVectorInst,
    get_aggregate_indexed_type,
)
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Value

AO = AtomicOrdering
P = Predicate


@pytest.fixture
def ctx() -> Context:
    return Context()


class Env:
    """A module with one function ``f(i32 %a, i32 %b, float %x, float %y, ptr %p,
    <4 x i32> %v, <4 x float> %vf)`` and an entry block."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.m = Module("m", ctx)
        self.v4i32 = ctx.vector_type(ctx.i32, 4)
        self.v4f = ctx.vector_type(ctx.float, 4)
        fty = ctx.function_type(ctx.void, [ctx.i32, ctx.i32, ctx.float, ctx.float, ctx.ptr, self.v4i32, self.v4f])
        self.f = Function(fty, "f", module=self.m, arg_names=["a", "b", "x", "y", "p", "v", "vf"])
        self.a, self.b, self.x, self.y, self.p, self.v, self.vf = self.f.args
        self.bb = BasicBlock(ctx, "entry", self.f)

    def i32(self, n: int) -> ConstantInt:
        return ConstantInt.get(self.ctx.i32, n)

    def i64(self, n: int) -> ConstantInt:
        return ConstantInt.get(self.ctx.i64, n)


@pytest.fixture
def env(ctx: Context) -> Env:
    return Env(ctx)


def uses_of(v: Value) -> list[tuple[object, int]]:
    return [(u.user, u.index) for u in v.uses]


def check_clone(inst: Instruction) -> Instruction:
    c = inst.clone()
    assert c is not inst
    assert type(c) is type(inst)
    assert c.parent is None and c.name == ""
    assert c.operands == inst.operands
    assert c.type is inst.type
    assert c.is_identical_to(inst) and inst.is_identical_to(c)
    return c


# =====================================================================================
# flags.py
# =====================================================================================


def test_fast_math_flags_bits_and_keywords() -> None:
    F = FastMathFlags
    # LLVM's bit positions.
    assert [int(f) for f in (F.REASSOC, F.NNAN, F.NINF, F.NSZ, F.ARCP, F.CONTRACT, F.AFN)] == [1, 2, 4, 8, 16, 32, 64]
    assert F.FAST == F.REASSOC | F.NNAN | F.NINF | F.NSZ | F.ARCP | F.CONTRACT | F.AFN
    assert F.FAST.keywords == "fast"
    assert (F.NINF | F.NNAN).keywords == "nnan ninf"
    assert (F.AFN | F.REASSOC | F.CONTRACT).keywords == "reassoc contract afn"
    assert F.NONE.keywords == ""
    assert F.from_keyword("arcp") is F.ARCP and F.from_keyword("fast") is F.FAST


def test_atomic_ordering_lattice() -> None:
    assert AO.SEQ_CST.keyword == "seq_cst" and AO.ACQ_REL.value == "acq_rel"
    assert [o.llvm_value for o in AO] == [0, 1, 2, 4, 5, 6, 7]
    # acquire and release are incomparable
    assert not AO.ACQUIRE.is_stronger_than(AO.RELEASE)
    assert not AO.RELEASE.is_stronger_than(AO.ACQUIRE)
    assert not AO.ACQUIRE.is_at_least(AO.RELEASE)
    assert AO.ACQ_REL.is_stronger_than(AO.ACQUIRE) and AO.ACQ_REL.is_stronger_than(AO.RELEASE)
    assert AO.SEQ_CST.is_stronger_than(AO.MONOTONIC)
    assert AO.MONOTONIC.is_at_least(AO.MONOTONIC) and not AO.MONOTONIC.is_stronger_than(AO.MONOTONIC)
    assert AO.UNORDERED.is_stronger_than(AO.NOT_ATOMIC)
    assert not AO.UNORDERED.is_stronger_than_unordered and AO.MONOTONIC.is_stronger_than_unordered
    assert AO.ACQUIRE.is_acquire_or_stronger and not AO.RELEASE.is_acquire_or_stronger
    assert AO.RELEASE.is_release_or_stronger and AO.SEQ_CST.is_release_or_stronger
    assert AO.from_keyword("monotonic") is AO.MONOTONIC


def test_atomicrmw_ops_are_llvm19s() -> None:
    # opt-19 accepts exactly these; usub_cond/usub_sat/fmaximum/fminimum are later.
    assert [o.keyword for o in AtomicRMWBinOp] == [
        "xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min", "umax", "umin",
        "fadd", "fsub", "fmax", "fmin", "uinc_wrap", "udec_wrap",
    ]  # fmt: skip
    with pytest.raises(ValueError):
        AtomicRMWBinOp.from_keyword("usub_cond")
    assert AtomicRMWBinOp.FMAX.is_fp_operation and not AtomicRMWBinOp.MAX.is_fp_operation


def test_gep_flags_and_tail_call_kind() -> None:
    assert (GEPFlags.INBOUNDS, GEPFlags.NUSW, GEPFlags.NUW) == (1, 2, 4)
    # opt-19 prints "inbounds nusw" as "inbounds" and keeps "nusw nuw".
    assert (GEPFlags.INBOUNDS | GEPFlags.NUSW).keywords == "inbounds"
    assert (GEPFlags.NUSW | GEPFlags.NUW).keywords == "nusw nuw"
    assert (GEPFlags.INBOUNDS | GEPFlags.NUSW | GEPFlags.NUW).keywords == "inbounds nuw"
    assert [k.keyword for k in TailCallKind] == ["", "tail", "musttail", "notail"]


def test_fmf_type_support(ctx: Context) -> None:
    assert type_supports_fast_math_flags(ctx.float)
    assert type_supports_fast_math_flags(ctx.vector_type(ctx.half, 2))
    assert type_supports_fast_math_flags(ctx.array_type(ctx.array_type(ctx.double, 2), 3))
    # opt-19 rejects "select fast" of { float, float }
    assert not type_supports_fast_math_flags(ctx.struct_type([ctx.float, ctx.float]))
    assert not type_supports_fast_math_flags(ctx.i32)


# =====================================================================================
# binary.py
# =====================================================================================


def test_binary_construction_and_uses(env: Env) -> None:
    add = AddInst(env.a, env.b, nsw=True, name="sum")
    assert add.opcode == "add" and add.type is env.ctx.i32 and add.name == "sum"
    assert add.operands == [env.a, env.b] and add.lhs is env.a and add.rhs is env.b
    assert add.parent is None
    assert uses_of(env.a) == [(add, 0)] and uses_of(env.b) == [(add, 1)]
    assert add.nsw and not add.nuw
    assert add.is_binary_op and not add.is_cast
    env.bb.append(add)
    assert add.parent is env.bb
    via_create = BinaryOperator.create("add", env.a, env.b, nsw=True)
    assert type(via_create) is AddInst and via_create.is_identical_to(add)


def test_every_binary_opcode(env: Env) -> None:
    assert list(BINARY_OPCODE_CLASSES) == [
        "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr",
        "and", "or", "xor", "fadd", "fsub", "fmul", "fdiv", "frem",
    ]  # fmt: skip
    commutative = {"add", "mul", "and", "or", "xor", "fadd", "fmul"}
    associative = {"add", "mul", "and", "or", "xor"}
    for op, cls in BINARY_OPCODE_CLASSES.items():
        fp = op.startswith("f")
        lhs, rhs = (env.x, env.y) if fp else (env.a, env.b)
        inst = BinaryOperator.create(op, lhs, rhs)
        assert inst.opcode == op and type(inst) is cls and inst.type is lhs.type
        assert inst.is_commutative == (op in commutative)
        assert inst.is_associative == (op in associative)
        assert inst.is_fp_op == fp
        assert inst.is_int_div_rem == (op in {"udiv", "sdiv", "urem", "srem"})
        # No arithmetic instruction touches memory, throws or fails to return.
        assert not inst.may_read_from_memory() and not inst.may_write_to_memory()
        assert not inst.may_throw() and inst.will_return() and not inst.may_have_side_effects()
        assert inst.is_safe_to_remove()
        check_clone(inst)
    # vectors
    vadd = AddInst(env.v, env.v)
    assert vadd.type is env.v4i32
    assert FAddInst(env.vf, env.vf).type is env.v4f


def test_binary_flags(env: Env) -> None:
    sub = SubInst(env.a, env.b, nuw=True, nsw=True)
    assert sub.nuw and sub.nsw and sub.flags_word == 3
    sub.nuw = False
    assert not sub.nuw and sub.nsw
    shl = ShlInst(env.a, env.b, nuw=True)
    assert shl.nuw and not shl.exact
    udiv = UDivInst(env.a, env.b, exact=True)
    assert udiv.exact and not udiv.nuw
    udiv.exact = False
    assert not udiv.exact
    orr = OrInst(env.a, env.b, disjoint=True)
    assert orr.disjoint
    orr.disjoint = False
    assert not orr.disjoint
    fadd = FAddInst(env.x, env.y, fast_math_flags=FastMathFlags.NNAN | FastMathFlags.NINF)
    assert fadd.fast_math_flags == FastMathFlags.NNAN | FastMathFlags.NINF
    fadd.fast_math_flags = FastMathFlags.FAST
    assert fadd.fast_math_flags.keywords == "fast"
    fadd.drop_poison_generating_flags()
    assert not fadd.fast_math_flags & (FastMathFlags.NNAN | FastMathFlags.NINF)
    assert fadd.fast_math_flags & FastMathFlags.REASSOC
    # Flags an opcode lacks.
    with pytest.raises(IRError):
        AndInst(env.a, env.b, nuw=True)
    with pytest.raises(IRError):
        AddInst(env.a, env.b, exact=True)
    with pytest.raises(IRError):
        SDivInst(env.a, env.b, disjoint=True)
    with pytest.raises(IRError):
        AddInst(env.a, env.b, fast_math_flags=FastMathFlags.FAST)
    with pytest.raises(IRError):
        fadd.nsw = True
    add = AddInst(env.a, env.b)
    with pytest.raises(IRError):
        add.fast_math_flags = FastMathFlags.NNAN
    add.exact = False  # clearing an absent flag is harmless
    assert not add.exact and add.fast_math_flags == 0


def test_fp_associativity_needs_reassoc_and_nsz(env: Env) -> None:
    fmul = FMulInst(env.x, env.y, fast_math_flags=FastMathFlags.REASSOC)
    assert not fmul.is_associative
    fmul.fast_math_flags = FastMathFlags.REASSOC | FastMathFlags.NSZ
    assert fmul.is_associative and fmul.is_commutative


def test_binary_type_errors(env: Env) -> None:
    with pytest.raises(IRError):
        AddInst(env.a, env.x)
    with pytest.raises(IRError):
        AddInst(env.x, env.y)
    with pytest.raises(IRError):
        FAddInst(env.a, env.b)
    with pytest.raises(IRError):
        AddInst(env.p, env.p)
    with pytest.raises(IRError):
        BinaryOperator.create("fneg", env.x, env.y)


def test_binary_same_special_state_compares_flags(env: Env) -> None:
    a = AddInst(env.a, env.b, nsw=True)
    b = AddInst(env.a, env.b)
    assert not a.is_identical_to(b)
    b.nsw = True
    assert a.is_identical_to(b)
    assert not AddInst(env.a, env.b).is_identical_to(SubInst(env.a, env.b))
    f1 = FAddInst(env.x, env.y, fast_math_flags=FastMathFlags.NSZ)
    f2 = FAddInst(env.x, env.y)
    assert not f1.is_identical_to(f2)
    c = check_clone(f1)
    assert isinstance(c, FAddInst) and c.fast_math_flags == FastMathFlags.NSZ


def test_swap_operands_keeps_use_list_positions(env: Env) -> None:
    first = AddInst(env.a, env.b)
    second = AddInst(env.a, env.b)
    # a: [second:0, first:0]; b: [second:1, first:1]
    first.swap_operands()
    assert first.operands == [env.b, env.a]
    # each swapped slot took the other's place, so the order of users is unchanged
    assert uses_of(env.a) == [(second, 0), (first, 1)]
    assert uses_of(env.b) == [(second, 1), (first, 0)]
    with pytest.raises(IRError):
        SubInst(env.a, env.b).swap_operands()


def test_unary_fneg(env: Env) -> None:
    neg = UnaryOperator(env.x, fast_math_flags=FastMathFlags.NSZ, name="n")
    assert neg.opcode == "fneg" and neg.is_unary_op and neg.type is env.ctx.float
    assert neg.operand is env.x and neg.fast_math_flags == FastMathFlags.NSZ
    assert UnaryOperator.create("fneg", env.vf).type is env.v4f
    c = check_clone(neg)
    assert isinstance(c, UnaryOperator) and c.fast_math_flags == FastMathFlags.NSZ
    assert not neg.is_identical_to(UnaryOperator(env.x))
    with pytest.raises(IRError):
        UnaryOperator(env.a)
    with pytest.raises(IRError):
        UnaryOperator.create("fabs", env.x)


# =====================================================================================
# casts.py
# =====================================================================================


def _parse_type(ctx: Context, s: str) -> Type:
    s = s.strip()
    if s.startswith("<vscale x "):
        n, _, e = s[len("<vscale x ") : -1].partition(" x ")
        return ctx.vector_type(_parse_type(ctx, e), int(n), True)
    if s.startswith("<"):
        n, _, e = s[1:-1].partition(" x ")
        return ctx.vector_type(_parse_type(ctx, e), int(n))
    if s == "ptr":
        return ctx.ptr
    if s.startswith("ptr addrspace("):
        return ctx.pointer_type(int(s[len("ptr addrspace(") : -1]))
    if s == "x86_mmx":
        return ctx.x86_mmx
    if s[0] == "i":
        return ctx.int_type(int(s[1:]))
    return ctx.fp_type(s)


# Oracle: llvm-as-19 was run on "%r = OP SRC %x to DST" for every opcode and every
# pair of the types below; these are exactly the triples it accepted (it
# rejected the other 10582 with "invalid cast opcode").
_CAST_TYPES = [
    "i1",
    "i8",
    "i32",
    "i64",
    "half",
    "bfloat",
    "float",
    "double",
    "x86_fp80",
    "fp128",
    "ppc_fp128",
    "ptr",
    "ptr addrspace(1)",
    "<2 x i32>",
    "<4 x i16>",
    "<2 x float>",
    "<1 x i64>",
    "<1 x ptr>",
    "<2 x ptr>",
    "<2 x ptr addrspace(1)>",
    "<vscale x 2 x i32>",
    "<vscale x 1 x i64>",
    "<vscale x 2 x i64>",
    "<vscale x 2 x ptr>",
    "x86_mmx",
    "<2 x i64>",
    "<2 x double>",
    "<8 x i8>",
    "<1 x double>",
]
_LLVM19_VALID_CASTS = """
trunc|i8|i1
trunc|i32|i1
trunc|i32|i8
trunc|i64|i1
trunc|i64|i8
trunc|i64|i32
trunc|<vscale x 2 x i64>|<vscale x 2 x i32>
trunc|<2 x i64>|<2 x i32>
zext|i1|i8
zext|i1|i32
zext|i1|i64
zext|i8|i32
zext|i8|i64
zext|i32|i64
zext|<2 x i32>|<2 x i64>
zext|<vscale x 2 x i32>|<vscale x 2 x i64>
sext|i1|i8
sext|i1|i32
sext|i1|i64
sext|i8|i32
sext|i8|i64
sext|i32|i64
sext|<2 x i32>|<2 x i64>
sext|<vscale x 2 x i32>|<vscale x 2 x i64>
fptoui|half|i1
fptoui|half|i8
fptoui|half|i32
fptoui|half|i64
fptoui|bfloat|i1
fptoui|bfloat|i8
fptoui|bfloat|i32
fptoui|bfloat|i64
fptoui|float|i1
fptoui|float|i8
fptoui|float|i32
fptoui|float|i64
fptoui|double|i1
fptoui|double|i8
fptoui|double|i32
fptoui|double|i64
fptoui|x86_fp80|i1
fptoui|x86_fp80|i8
fptoui|x86_fp80|i32
fptoui|x86_fp80|i64
fptoui|fp128|i1
fptoui|fp128|i8
fptoui|fp128|i32
fptoui|fp128|i64
fptoui|ppc_fp128|i1
fptoui|ppc_fp128|i8
fptoui|ppc_fp128|i32
fptoui|ppc_fp128|i64
fptoui|<2 x float>|<2 x i32>
fptoui|<2 x float>|<2 x i64>
fptoui|<2 x double>|<2 x i32>
fptoui|<2 x double>|<2 x i64>
fptoui|<1 x double>|<1 x i64>
fptosi|half|i1
fptosi|half|i8
fptosi|half|i32
fptosi|half|i64
fptosi|bfloat|i1
fptosi|bfloat|i8
fptosi|bfloat|i32
fptosi|bfloat|i64
fptosi|float|i1
fptosi|float|i8
fptosi|float|i32
fptosi|float|i64
fptosi|double|i1
fptosi|double|i8
fptosi|double|i32
fptosi|double|i64
fptosi|x86_fp80|i1
fptosi|x86_fp80|i8
fptosi|x86_fp80|i32
fptosi|x86_fp80|i64
fptosi|fp128|i1
fptosi|fp128|i8
fptosi|fp128|i32
fptosi|fp128|i64
fptosi|ppc_fp128|i1
fptosi|ppc_fp128|i8
fptosi|ppc_fp128|i32
fptosi|ppc_fp128|i64
fptosi|<2 x float>|<2 x i32>
fptosi|<2 x float>|<2 x i64>
fptosi|<2 x double>|<2 x i32>
fptosi|<2 x double>|<2 x i64>
fptosi|<1 x double>|<1 x i64>
uitofp|i1|half
uitofp|i1|bfloat
uitofp|i1|float
uitofp|i1|double
uitofp|i1|x86_fp80
uitofp|i1|fp128
uitofp|i1|ppc_fp128
uitofp|i8|half
uitofp|i8|bfloat
uitofp|i8|float
uitofp|i8|double
uitofp|i8|x86_fp80
uitofp|i8|fp128
uitofp|i8|ppc_fp128
uitofp|i32|half
uitofp|i32|bfloat
uitofp|i32|float
uitofp|i32|double
uitofp|i32|x86_fp80
uitofp|i32|fp128
uitofp|i32|ppc_fp128
uitofp|i64|half
uitofp|i64|bfloat
uitofp|i64|float
uitofp|i64|double
uitofp|i64|x86_fp80
uitofp|i64|fp128
uitofp|i64|ppc_fp128
uitofp|<2 x i32>|<2 x float>
uitofp|<2 x i32>|<2 x double>
uitofp|<1 x i64>|<1 x double>
uitofp|<2 x i64>|<2 x float>
uitofp|<2 x i64>|<2 x double>
sitofp|i1|half
sitofp|i1|bfloat
sitofp|i1|float
sitofp|i1|double
sitofp|i1|x86_fp80
sitofp|i1|fp128
sitofp|i1|ppc_fp128
sitofp|i8|half
sitofp|i8|bfloat
sitofp|i8|float
sitofp|i8|double
sitofp|i8|x86_fp80
sitofp|i8|fp128
sitofp|i8|ppc_fp128
sitofp|i32|half
sitofp|i32|bfloat
sitofp|i32|float
sitofp|i32|double
sitofp|i32|x86_fp80
sitofp|i32|fp128
sitofp|i32|ppc_fp128
sitofp|i64|half
sitofp|i64|bfloat
sitofp|i64|float
sitofp|i64|double
sitofp|i64|x86_fp80
sitofp|i64|fp128
sitofp|i64|ppc_fp128
sitofp|<2 x i32>|<2 x float>
sitofp|<2 x i32>|<2 x double>
sitofp|<1 x i64>|<1 x double>
sitofp|<2 x i64>|<2 x float>
sitofp|<2 x i64>|<2 x double>
fptrunc|float|half
fptrunc|float|bfloat
fptrunc|double|half
fptrunc|double|bfloat
fptrunc|double|float
fptrunc|x86_fp80|half
fptrunc|x86_fp80|bfloat
fptrunc|x86_fp80|float
fptrunc|x86_fp80|double
fptrunc|fp128|half
fptrunc|fp128|bfloat
fptrunc|fp128|float
fptrunc|fp128|double
fptrunc|fp128|x86_fp80
fptrunc|ppc_fp128|half
fptrunc|ppc_fp128|bfloat
fptrunc|ppc_fp128|float
fptrunc|ppc_fp128|double
fptrunc|ppc_fp128|x86_fp80
fptrunc|<2 x double>|<2 x float>
fpext|half|float
fpext|half|double
fpext|half|x86_fp80
fpext|half|fp128
fpext|half|ppc_fp128
fpext|bfloat|float
fpext|bfloat|double
fpext|bfloat|x86_fp80
fpext|bfloat|fp128
fpext|bfloat|ppc_fp128
fpext|float|double
fpext|float|x86_fp80
fpext|float|fp128
fpext|float|ppc_fp128
fpext|double|x86_fp80
fpext|double|fp128
fpext|double|ppc_fp128
fpext|x86_fp80|fp128
fpext|x86_fp80|ppc_fp128
fpext|<2 x float>|<2 x double>
ptrtoint|ptr|i1
ptrtoint|ptr|i8
ptrtoint|ptr|i32
ptrtoint|ptr|i64
ptrtoint|ptr addrspace(1)|i1
ptrtoint|ptr addrspace(1)|i8
ptrtoint|ptr addrspace(1)|i32
ptrtoint|ptr addrspace(1)|i64
ptrtoint|<1 x ptr>|<1 x i64>
ptrtoint|<2 x ptr>|<2 x i32>
ptrtoint|<2 x ptr>|<2 x i64>
ptrtoint|<2 x ptr addrspace(1)>|<2 x i32>
ptrtoint|<2 x ptr addrspace(1)>|<2 x i64>
ptrtoint|<vscale x 2 x ptr>|<vscale x 2 x i32>
ptrtoint|<vscale x 2 x ptr>|<vscale x 2 x i64>
inttoptr|i1|ptr
inttoptr|i1|ptr addrspace(1)
inttoptr|i8|ptr
inttoptr|i8|ptr addrspace(1)
inttoptr|i32|ptr
inttoptr|i32|ptr addrspace(1)
inttoptr|i64|ptr
inttoptr|i64|ptr addrspace(1)
inttoptr|<2 x i32>|<2 x ptr>
inttoptr|<2 x i32>|<2 x ptr addrspace(1)>
inttoptr|<1 x i64>|<1 x ptr>
inttoptr|<vscale x 2 x i32>|<vscale x 2 x ptr>
inttoptr|<vscale x 2 x i64>|<vscale x 2 x ptr>
inttoptr|<2 x i64>|<2 x ptr>
inttoptr|<2 x i64>|<2 x ptr addrspace(1)>
bitcast|i1|i1
bitcast|i8|i8
bitcast|i32|i32
bitcast|i32|float
bitcast|i64|i64
bitcast|i64|double
bitcast|i64|<2 x i32>
bitcast|i64|<4 x i16>
bitcast|i64|<2 x float>
bitcast|i64|<1 x i64>
bitcast|i64|x86_mmx
bitcast|i64|<8 x i8>
bitcast|i64|<1 x double>
bitcast|half|half
bitcast|half|bfloat
bitcast|bfloat|half
bitcast|bfloat|bfloat
bitcast|float|i32
bitcast|float|float
bitcast|double|i64
bitcast|double|double
bitcast|double|<2 x i32>
bitcast|double|<4 x i16>
bitcast|double|<2 x float>
bitcast|double|<1 x i64>
bitcast|double|x86_mmx
bitcast|double|<8 x i8>
bitcast|double|<1 x double>
bitcast|x86_fp80|x86_fp80
bitcast|fp128|fp128
bitcast|fp128|ppc_fp128
bitcast|fp128|<2 x i64>
bitcast|fp128|<2 x double>
bitcast|ppc_fp128|fp128
bitcast|ppc_fp128|ppc_fp128
bitcast|ppc_fp128|<2 x i64>
bitcast|ppc_fp128|<2 x double>
bitcast|ptr|ptr
bitcast|ptr|<1 x ptr>
bitcast|ptr addrspace(1)|ptr addrspace(1)
bitcast|<2 x i32>|i64
bitcast|<2 x i32>|double
bitcast|<2 x i32>|<2 x i32>
bitcast|<2 x i32>|<4 x i16>
bitcast|<2 x i32>|<2 x float>
bitcast|<2 x i32>|<1 x i64>
bitcast|<2 x i32>|x86_mmx
bitcast|<2 x i32>|<8 x i8>
bitcast|<2 x i32>|<1 x double>
bitcast|<4 x i16>|i64
bitcast|<4 x i16>|double
bitcast|<4 x i16>|<2 x i32>
bitcast|<4 x i16>|<4 x i16>
bitcast|<4 x i16>|<2 x float>
bitcast|<4 x i16>|<1 x i64>
bitcast|<4 x i16>|x86_mmx
bitcast|<4 x i16>|<8 x i8>
bitcast|<4 x i16>|<1 x double>
bitcast|<2 x float>|i64
bitcast|<2 x float>|double
bitcast|<2 x float>|<2 x i32>
bitcast|<2 x float>|<4 x i16>
bitcast|<2 x float>|<2 x float>
bitcast|<2 x float>|<1 x i64>
bitcast|<2 x float>|x86_mmx
bitcast|<2 x float>|<8 x i8>
bitcast|<2 x float>|<1 x double>
bitcast|<1 x i64>|i64
bitcast|<1 x i64>|double
bitcast|<1 x i64>|<2 x i32>
bitcast|<1 x i64>|<4 x i16>
bitcast|<1 x i64>|<2 x float>
bitcast|<1 x i64>|<1 x i64>
bitcast|<1 x i64>|x86_mmx
bitcast|<1 x i64>|<8 x i8>
bitcast|<1 x i64>|<1 x double>
bitcast|<1 x ptr>|ptr
bitcast|<1 x ptr>|<1 x ptr>
bitcast|<2 x ptr>|<2 x ptr>
bitcast|<2 x ptr addrspace(1)>|<2 x ptr addrspace(1)>
bitcast|<vscale x 2 x i32>|<vscale x 2 x i32>
bitcast|<vscale x 2 x i32>|<vscale x 1 x i64>
bitcast|<vscale x 1 x i64>|<vscale x 2 x i32>
bitcast|<vscale x 1 x i64>|<vscale x 1 x i64>
bitcast|<vscale x 2 x i64>|<vscale x 2 x i64>
bitcast|<vscale x 2 x ptr>|<vscale x 2 x ptr>
bitcast|x86_mmx|i64
bitcast|x86_mmx|double
bitcast|x86_mmx|<2 x i32>
bitcast|x86_mmx|<4 x i16>
bitcast|x86_mmx|<2 x float>
bitcast|x86_mmx|<1 x i64>
bitcast|x86_mmx|x86_mmx
bitcast|x86_mmx|<8 x i8>
bitcast|x86_mmx|<1 x double>
bitcast|<2 x i64>|fp128
bitcast|<2 x i64>|ppc_fp128
bitcast|<2 x i64>|<2 x i64>
bitcast|<2 x i64>|<2 x double>
bitcast|<2 x double>|fp128
bitcast|<2 x double>|ppc_fp128
bitcast|<2 x double>|<2 x i64>
bitcast|<2 x double>|<2 x double>
bitcast|<8 x i8>|i64
bitcast|<8 x i8>|double
bitcast|<8 x i8>|<2 x i32>
bitcast|<8 x i8>|<4 x i16>
bitcast|<8 x i8>|<2 x float>
bitcast|<8 x i8>|<1 x i64>
bitcast|<8 x i8>|x86_mmx
bitcast|<8 x i8>|<8 x i8>
bitcast|<8 x i8>|<1 x double>
bitcast|<1 x double>|i64
bitcast|<1 x double>|double
bitcast|<1 x double>|<2 x i32>
bitcast|<1 x double>|<4 x i16>
bitcast|<1 x double>|<2 x float>
bitcast|<1 x double>|<1 x i64>
bitcast|<1 x double>|x86_mmx
bitcast|<1 x double>|<8 x i8>
bitcast|<1 x double>|<1 x double>
addrspacecast|ptr|ptr addrspace(1)
addrspacecast|ptr addrspace(1)|ptr
addrspacecast|<2 x ptr>|<2 x ptr addrspace(1)>
addrspacecast|<2 x ptr addrspace(1)>|<2 x ptr>
"""


def test_cast_is_valid_against_llvm_as_19(ctx: Context) -> None:
    valid = {tuple(line.split("|")) for line in _LLVM19_VALID_CASTS.split("\n") if line}
    assert len(valid) == 351
    types = {t: _parse_type(ctx, t) for t in _CAST_TYPES}
    for op in CAST_OPCODES:
        for a, b in itertools.product(_CAST_TYPES, _CAST_TYPES):
            assert cast_is_valid(op, types[a], types[b]) == ((op, a, b) in valid), (op, a, b)


@pytest.mark.parametrize(
    "op,src,dst,ok",
    [
        ("trunc", "i32", "i8", True),
        ("trunc", "i8", "i8", False),
        ("trunc", "<2 x i64>", "<2 x i32>", True),
        ("trunc", "<2 x i64>", "i32", False),
        ("zext", "i1", "i64", True),
        ("sext", "<vscale x 2 x i32>", "<vscale x 2 x i64>", True),
        ("sext", "<vscale x 2 x i32>", "<2 x i64>", False),
        ("fptrunc", "double", "float", True),
        ("fptrunc", "fp128", "ppc_fp128", False),  # same width
        ("fpext", "half", "bfloat", False),
        ("fpext", "bfloat", "float", True),
        ("fpext", "x86_fp80", "fp128", True),
        ("fptoui", "<2 x float>", "<2 x i32>", True),
        ("sitofp", "i1", "fp128", True),
        ("uitofp", "i32", "<2 x float>", False),
        ("ptrtoint", "<2 x ptr>", "<2 x i64>", True),
        ("ptrtoint", "ptr", "<1 x i64>", False),
        ("inttoptr", "i8", "ptr addrspace(1)", True),
        ("bitcast", "i64", "<2 x float>", True),
        ("bitcast", "i64", "double", True),
        ("bitcast", "i64", "x86_mmx", True),
        ("bitcast", "<8 x i8>", "<1 x double>", True),
        ("bitcast", "i64", "<vscale x 1 x i64>", False),
        ("bitcast", "<vscale x 2 x i32>", "<vscale x 1 x i64>", True),
        ("bitcast", "ptr", "<1 x ptr>", True),
        ("bitcast", "<1 x ptr>", "ptr", True),
        ("bitcast", "<2 x ptr>", "ptr", False),
        ("bitcast", "ptr", "ptr addrspace(1)", False),
        ("bitcast", "ptr", "i64", False),
        ("bitcast", "ptr", "ptr", True),
        ("bitcast", "i32", "i32", True),
        ("addrspacecast", "ptr", "ptr addrspace(1)", True),
        ("addrspacecast", "ptr", "ptr", False),
        ("addrspacecast", "<2 x ptr>", "<1 x ptr>", False),
    ],
)
def test_cast_is_valid_matches_llvm(ctx: Context, op: str, src: str, dst: str, ok: bool) -> None:
    assert cast_is_valid(op, _parse_type(ctx, src), _parse_type(ctx, dst)) is ok
    assert CastInst.cast_is_valid(op, _parse_type(ctx, src), _parse_type(ctx, dst)) is ok


def test_cast_rejects_aggregates_and_unknown_opcodes(ctx: Context) -> None:
    st = ctx.struct_type([ctx.i32])
    arr = ctx.array_type(ctx.i32, 1)
    assert not cast_is_valid("bitcast", st, st)
    assert not cast_is_valid("bitcast", arr, ctx.i32)
    assert not cast_is_valid("frobnicate", ctx.i32, ctx.i32)


def test_every_cast_opcode(env: Env) -> None:
    ctx = env.ctx
    examples = {
        "trunc": (env.a, ctx.i8),
        "zext": (env.a, ctx.i64),
        "sext": (env.a, ctx.i64),
        "fptoui": (env.x, ctx.i32),
        "fptosi": (env.x, ctx.i32),
        "uitofp": (env.a, ctx.double),
        "sitofp": (env.a, ctx.double),
        "fptrunc": (env.x, ctx.half),
        "fpext": (env.x, ctx.double),
        "ptrtoint": (env.p, ctx.i64),
        "inttoptr": (env.a, ctx.ptr),
        "bitcast": (env.a, ctx.float),
        "addrspacecast": (env.p, ctx.pointer_type(3)),
    }
    assert tuple(examples) == CAST_OPCODES
    for op, (src, dst) in examples.items():
        inst = CastInst.create(op, src, dst, name="c")
        assert inst.opcode == op and inst.is_cast and inst.type is dst
        assert inst.dest_type is dst and inst.src_type is src.type and inst.operand is src
        assert not inst.may_read_or_write_memory()
        check_clone(inst)
    with pytest.raises(IRError):
        CastInst.create("trunc", env.a, ctx.i64)
    with pytest.raises(IRError):
        CastInst.create("fpext", env.x, ctx.half)
    with pytest.raises(IRError):
        CastInst.create("bogus", env.a, ctx.i64)


def test_cast_flags(env: Env) -> None:
    ctx = env.ctx
    # opt-19 accepts "trunc nuw nsw", "zext nneg", "uitofp nneg".
    t = TruncInst(env.a, ctx.i8, nuw=True, nsw=True)
    assert t.nuw and t.nsw and not t.nneg
    t.nsw = False
    assert t.nuw and not t.nsw
    z = ZExtInst(env.a, ctx.i64, nneg=True)
    assert z.nneg
    u = CastInst.create("uitofp", env.a, ctx.float, nneg=True)
    assert u.nneg
    c = check_clone(z)
    assert isinstance(c, ZExtInst) and c.nneg
    assert not z.is_identical_to(ZExtInst(env.a, ctx.i64))
    z.drop_poison_generating_flags()
    assert not z.nneg
    with pytest.raises(IRError):
        CastInst.create("sext", env.a, ctx.i64, nneg=True)
    with pytest.raises(IRError):
        ZExtInst(env.a, ctx.i64, nuw=True)
    with pytest.raises(IRError):
        BitCastInst(env.a, ctx.float).nneg = True


# =====================================================================================
# cmp.py
# =====================================================================================


def test_predicate_numbers_and_keywords() -> None:
    assert P.FCMP_FALSE == 0 and P.FCMP_TRUE == 15 and P.ICMP_EQ == 32 and P.ICMP_SLE == 41
    assert [p.keyword for p in P if p < 16] == [
        "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
        "uno", "ueq", "ugt", "uge", "ult", "ule", "une", "true",
    ]  # fmt: skip
    assert [p.keyword for p in P if p >= 32] == ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"]
    assert P.from_keyword("ugt", fp=False) is P.ICMP_UGT
    assert P.from_keyword("ugt", fp=True) is P.FCMP_UGT
    with pytest.raises(IRError):
        P.from_keyword("ord", fp=False)


def test_predicate_algebra() -> None:
    # inverse: LLVM getInversePredicate
    assert P.ICMP_EQ.inverse is P.ICMP_NE and P.ICMP_SLT.inverse is P.ICMP_SGE
    assert P.ICMP_UGT.inverse is P.ICMP_ULE
    assert P.FCMP_OLT.inverse is P.FCMP_UGE and P.FCMP_ORD.inverse is P.FCMP_UNO
    assert P.FCMP_FALSE.inverse is P.FCMP_TRUE and P.FCMP_OEQ.inverse is P.FCMP_UNE
    # swapped: LLVM getSwappedPredicate
    assert P.ICMP_SLT.swapped is P.ICMP_SGT and P.ICMP_ULE.swapped is P.ICMP_UGE
    assert P.ICMP_EQ.swapped is P.ICMP_EQ
    assert P.FCMP_OLT.swapped is P.FCMP_OGT and P.FCMP_UGE.swapped is P.FCMP_ULE
    assert P.FCMP_ONE.swapped is P.FCMP_ONE and P.FCMP_UNO.swapped is P.FCMP_UNO
    for p in P:
        assert p.inverse.inverse is p and p.swapped.swapped is p
    assert {p for p in P if p.is_signed} == {P.ICMP_SGT, P.ICMP_SGE, P.ICMP_SLT, P.ICMP_SLE}
    assert {p for p in P if p.is_unsigned} == {P.ICMP_UGT, P.ICMP_UGE, P.ICMP_ULT, P.ICMP_ULE}
    assert {p for p in P if p.is_equality} == {P.ICMP_EQ, P.ICMP_NE, P.FCMP_OEQ, P.FCMP_ONE, P.FCMP_UEQ, P.FCMP_UNE}
    assert P.ICMP_ULT.signed is P.ICMP_SLT and P.ICMP_SGE.unsigned is P.ICMP_UGE
    assert P.ICMP_EQ.signed is P.ICMP_EQ and P.ICMP_SLT.flipped_signedness is P.ICMP_ULT
    assert P.ICMP_SLE.strict is P.ICMP_SLT and P.FCMP_OGT.non_strict is P.FCMP_OGE
    assert P.FCMP_OLT.is_ordered and P.FCMP_ULT.is_unordered and not P.FCMP_TRUE.is_ordered
    assert P.FCMP_UEQ.is_true_when_equal and not P.FCMP_OEQ.is_true_when_equal
    assert P.FCMP_OLT.is_false_when_equal and P.ICMP_NE.is_false_when_equal


def test_icmp(env: Env) -> None:
    ctx = env.ctx
    c = ICmpInst(P.ICMP_SLT, env.a, env.b, name="lt")
    assert c.opcode == "icmp" and c.type is ctx.i1 and c.predicate is P.ICMP_SLT
    assert c.is_signed and not c.is_unsigned and not c.is_equality and not c.is_commutative
    assert c.inverse_predicate is P.ICMP_SGE and c.swapped_predicate is P.ICMP_SGT
    assert c.signed_predicate is P.ICMP_SLT and c.unsigned_predicate is P.ICMP_ULT
    assert ICmpInst(P.ICMP_EQ, env.p, env.p).is_commutative
    vc = ICmpInst(P.ICMP_EQ, env.v, env.v)
    assert vc.type is ctx.vector_type(ctx.i1, 4)
    sv = ctx.vector_type(ctx.i8, 2, True)
    assert ICmpInst(P.ICMP_EQ, PoisonValue.get(sv), PoisonValue.get(sv)).type is ctx.vector_type(ctx.i1, 2, True)
    clone = check_clone(c)
    assert isinstance(clone, ICmpInst) and clone.predicate is P.ICMP_SLT
    assert not c.is_identical_to(ICmpInst(P.ICMP_SLE, env.a, env.b))
    c.swap_operands()
    assert c.operands == [env.b, env.a] and c.predicate is P.ICMP_SGT
    c.predicate = P.ICMP_NE
    assert c.is_equality
    with pytest.raises(IRError):
        c.predicate = P.FCMP_OEQ
    with pytest.raises(IRError):
        ICmpInst(P.FCMP_OEQ, env.a, env.b)
    with pytest.raises(IRError):
        ICmpInst(P.ICMP_EQ, env.x, env.y)
    with pytest.raises(IRError):
        ICmpInst(P.ICMP_EQ, env.a, env.p)


def test_fcmp(env: Env) -> None:
    c = FCmpInst(P.FCMP_OLT, env.x, env.y, fast_math_flags=FastMathFlags.FAST)
    assert c.opcode == "fcmp" and c.type is env.ctx.i1
    assert c.fast_math_flags == FastMathFlags.FAST
    assert not c.is_commutative and FCmpInst(P.FCMP_ORD, env.x, env.y).is_commutative
    assert FCmpInst(P.FCMP_UNE, env.vf, env.vf).type is env.ctx.vector_type(env.ctx.i1, 4)
    clone = check_clone(c)
    assert isinstance(clone, FCmpInst) and clone.fast_math_flags == FastMathFlags.FAST
    assert not c.is_identical_to(FCmpInst(P.FCMP_OLT, env.x, env.y))
    with pytest.raises(IRError):
        FCmpInst(P.ICMP_EQ, env.x, env.y)
    with pytest.raises(IRError):
        FCmpInst(P.FCMP_OEQ, env.a, env.b)


# =====================================================================================
# memory.py
# =====================================================================================


def test_alloca(env: Env) -> None:
    ctx = env.ctx
    a = AllocaInst(ctx.i32, alignment=4, name="x")
    assert a.opcode == "alloca" and a.type is ctx.ptr and a.allocated_type is ctx.i32
    assert a.array_size is env.i32(1) and not a.is_array_allocation and a.alignment == 4
    assert a.address_space == 0 and not a.inalloca and not a.swifterror
    assert not a.may_read_or_write_memory()
    assert not a.is_static_alloca  # detached
    env.bb.append(a)
    assert a.is_static_alloca
    dyn = AllocaInst(ctx.i32, env.a, alignment=16, address_space=5)
    assert dyn.type is ctx.pointer_type(5) and dyn.is_array_allocation and dyn.address_space == 5
    env.bb.append(dyn)
    assert not dyn.is_static_alloca
    assert AllocaInst(ctx.i32, env.i64(4)).is_array_allocation
    flags = AllocaInst(ctx.ptr, inalloca=True, swifterror=True)
    assert flags.inalloca and flags.swifterror
    c = check_clone(dyn)
    assert isinstance(c, AllocaInst) and c.alignment == 16 and c.address_space == 5
    assert not a.is_identical_to(AllocaInst(ctx.i32, alignment=8))
    assert not a.is_identical_to(AllocaInst(ctx.float, alignment=4))
    assert not a.is_identical_to(AllocaInst(ctx.i32, alignment=4, inalloca=True))
    a.alignment = 1 << 32  # opt-19 accepts 4294967296
    with pytest.raises(IRError):
        a.alignment = 1 << 33  # "huge alignments are not supported yet"
    with pytest.raises(IRError):
        AllocaInst(ctx.i32, alignment=3)
    with pytest.raises(IRError):
        AllocaInst(ctx.i32, env.x)


def test_load_memory_semantics(env: Env) -> None:
    ctx = env.ctx
    ld = LoadInst(ctx.i32, env.p, alignment=4, name="v")
    assert ld.opcode == "load" and ld.type is ctx.i32 and ld.pointer_operand is env.p
    assert ld.may_read_from_memory() and not ld.may_write_to_memory()
    assert ld.is_simple and ld.is_unordered and not ld.is_atomic and not ld.is_volatile
    assert ld.will_return() and ld.is_safe_to_remove()
    unord = LoadInst(ctx.i32, env.p, ordering=AO.UNORDERED, alignment=4)
    assert unord.is_atomic and unord.is_unordered and not unord.may_write_to_memory()
    acq = LoadInst(ctx.i32, env.p, ordering=AO.ACQUIRE, sync_scope="agent", alignment=4)
    assert acq.may_write_to_memory() and acq.sync_scope == "agent" and not acq.is_unordered
    vol = LoadInst(ctx.i32, env.p, volatile=True, alignment=4)
    assert vol.is_volatile and vol.may_write_to_memory() and not vol.is_simple
    assert vol.will_return()  # opt-19 function-attrs infers willreturn over a volatile load
    c = check_clone(acq)
    assert isinstance(c, LoadInst) and c.ordering is AO.ACQUIRE and c.sync_scope == "agent"
    for other in (
        LoadInst(ctx.i32, env.p, ordering=AO.ACQUIRE, sync_scope="", alignment=4),
        LoadInst(ctx.i32, env.p, ordering=AO.SEQ_CST, sync_scope="agent", alignment=4),
        LoadInst(ctx.i32, env.p, ordering=AO.ACQUIRE, sync_scope="agent", alignment=8),
        LoadInst(ctx.i32, env.p, ordering=AO.ACQUIRE, sync_scope="agent", alignment=4, volatile=True),
    ):
        assert not acq.is_identical_to(other)
    with pytest.raises(IRError):
        LoadInst(ctx.i32, env.a)


def test_identity_levels_follow_llvm(env: Env) -> None:
    """isIdenticalTo > isIdenticalToWhenDefined (optional flags ignored) >
    isSameOperationAs (operands may differ; alignment optionally ignored)."""
    ctx = env.ctx
    a = AddInst(env.a, env.b, nsw=True)
    b = AddInst(env.a, env.b)
    assert not a.is_identical_to(b) and a.is_identical_to_when_defined(b)
    assert a.is_same_operation_as(AddInst(env.b, env.b))
    assert not a.is_identical_to_when_defined(AddInst(env.b, env.b))
    assert not a.is_same_operation_as(SubInst(env.a, env.b))
    f1 = FCmpInst(Predicate.FCMP_OLT, env.x, env.y, fast_math_flags=FastMathFlags.NNAN)
    f2 = FCmpInst(Predicate.FCMP_OLT, env.x, env.y)
    assert not f1.is_identical_to(f2) and f1.is_identical_to_when_defined(f2)
    assert not f1.is_same_operation_as(FCmpInst(Predicate.FCMP_OGT, env.x, env.y))
    l4 = LoadInst(ctx.i32, env.p, alignment=4)
    l8 = LoadInst(ctx.i32, env.p, alignment=8)
    assert not l4.is_same_operation_as(l8) and l4.is_same_operation_as(l8, ignore_alignment=True)
    assert not l4.is_same_operation_as(LoadInst(ctx.i32, env.p, alignment=4, volatile=True), ignore_alignment=True)
    assert not l4.is_same_operation_as(LoadInst(ctx.i64, env.p, alignment=4))
    va = LoadInst(env.v4i32, env.p, alignment=16)
    wide = LoadInst(ctx.vector_type(ctx.i32, 8), env.p, alignment=16)
    assert not va.is_same_operation_as(wide) and va.is_same_operation_as(wide, use_scalar_types=True)


def test_store_memory_semantics(env: Env) -> None:
    ctx = env.ctx
    st = StoreInst(env.a, env.p, alignment=4)
    assert st.opcode == "store" and st.type is ctx.void
    assert st.operands == [env.a, env.p] and st.value_operand is env.a and st.pointer_operand is env.p
    assert st.may_write_to_memory() and not st.may_read_from_memory()
    assert st.will_return() and st.may_have_side_effects() and not st.is_safe_to_remove()
    rel = StoreInst(env.a, env.p, ordering=AO.RELEASE, sync_scope="singlethread", alignment=4)
    assert rel.may_read_from_memory() and rel.is_atomic
    assert not StoreInst(env.a, env.p, ordering=AO.UNORDERED).may_read_from_memory()
    vol = StoreInst(env.a, env.p, volatile=True)
    assert vol.may_read_from_memory() and vol.is_volatile
    # opt-19 function-attrs: no willreturn for a function with a volatile store
    assert not vol.will_return()
    c = check_clone(rel)
    assert isinstance(c, StoreInst) and c.ordering is AO.RELEASE and c.sync_scope == "singlethread"
    assert not rel.is_identical_to(StoreInst(env.a, env.p, ordering=AO.RELEASE, alignment=4))
    with pytest.raises(IRError):
        StoreInst(env.a, env.b)


def test_fence(env: Env) -> None:
    ctx = env.ctx
    f = FenceInst(ctx, AO.SEQ_CST, sync_scope="singlethread")
    assert f.opcode == "fence" and f.type is ctx.void and f.num_operands == 0
    assert f.may_read_from_memory() and f.may_write_to_memory() and f.is_atomic
    c = check_clone(f)
    assert isinstance(c, FenceInst) and c.sync_scope == "singlethread"
    assert not f.is_identical_to(FenceInst(ctx, AO.SEQ_CST))
    assert not f.is_identical_to(FenceInst(ctx, AO.ACQUIRE, sync_scope="singlethread"))
    for bad in (AO.MONOTONIC, AO.UNORDERED, AO.NOT_ATOMIC):
        with pytest.raises(IRError):
            FenceInst(ctx, bad)


def test_cmpxchg(env: Env) -> None:
    ctx = env.ctx
    cx = AtomicCmpXchgInst(
        env.p, env.a, env.b, AO.ACQ_REL, AO.MONOTONIC, weak=True, volatile=True, alignment=4, sync_scope="agent"
    )
    assert cx.opcode == "cmpxchg" and cx.type is ctx.struct_type([ctx.i32, ctx.i1])
    assert cx.operands == [env.p, env.a, env.b]
    assert cx.pointer_operand is env.p and cx.compare_operand is env.a and cx.new_value_operand is env.b
    assert cx.weak and cx.volatile and cx.is_volatile and cx.is_atomic
    assert cx.may_read_from_memory() and cx.may_write_to_memory()
    assert cx.success_ordering is AO.ACQ_REL and cx.failure_ordering is AO.MONOTONIC
    assert AtomicCmpXchgInst(env.p, env.a, env.b, AO.RELEASE, AO.ACQUIRE).merged_ordering is AO.ACQ_REL
    assert AtomicCmpXchgInst(env.p, env.a, env.b, AO.MONOTONIC, AO.SEQ_CST).merged_ordering is AO.SEQ_CST
    c = check_clone(cx)
    assert isinstance(c, AtomicCmpXchgInst) and c.weak and c.sync_scope == "agent"
    other = AtomicCmpXchgInst(
        env.p, env.a, env.b, AO.ACQ_REL, AO.MONOTONIC, volatile=True, alignment=4, sync_scope="agent"
    )
    assert not cx.is_identical_to(other)
    with pytest.raises(IRError):
        AtomicCmpXchgInst(env.p, env.a, env.x, AO.SEQ_CST, AO.SEQ_CST)


def test_atomicrmw(env: Env) -> None:
    ctx = env.ctx
    rmw = AtomicRMWInst(AtomicRMWBinOp.ADD, env.p, env.a, AO.SEQ_CST, alignment=4)
    assert rmw.opcode == "atomicrmw" and rmw.type is ctx.i32
    assert rmw.operands == [env.p, env.a] and rmw.value_operand is env.a
    assert rmw.operation is AtomicRMWBinOp.ADD and not rmw.is_floating_point_operation
    assert rmw.may_read_from_memory() and rmw.may_write_to_memory() and rmw.is_atomic
    frmw = AtomicRMWInst(AtomicRMWBinOp.FADD, env.p, env.x, AO.MONOTONIC, volatile=True)
    assert frmw.type is ctx.float and frmw.is_floating_point_operation and frmw.is_volatile
    c = check_clone(rmw)
    assert isinstance(c, AtomicRMWInst) and c.operation is AtomicRMWBinOp.ADD
    assert not rmw.is_identical_to(AtomicRMWInst(AtomicRMWBinOp.SUB, env.p, env.a, AO.SEQ_CST, alignment=4))
    assert not rmw.is_identical_to(AtomicRMWInst(AtomicRMWBinOp.ADD, env.p, env.a, AO.ACQUIRE, alignment=4))


def test_get_indexed_type(ctx: Context) -> None:
    inner = ctx.struct_type([ctx.i8, ctx.array_type(ctx.i16, 4)])
    outer = ctx.named_struct("S", [ctx.i32, inner, ctx.vector_type(ctx.float, 4)])
    i32 = lambda n: ConstantInt.get(ctx.i32, n)  # noqa: E731
    i64 = lambda n: ConstantInt.get(ctx.i64, n)  # noqa: E731
    assert get_indexed_type(outer, []) is outer
    assert get_indexed_type(outer, [i64(0)]) is outer
    assert get_indexed_type(outer, [i64(3), i32(1), i32(1), i64(2)]) is ctx.i16
    assert get_indexed_type(outer, [i64(0), i32(2), i64(1)]) is ctx.float
    assert get_indexed_type(outer, [0, 1, 0]) is ctx.i8
    # opt-19: "invalid getelementptr indices" for an i64 struct index
    assert get_indexed_type(outer, [i64(0), i64(1)]) is None
    assert get_indexed_type(outer, [i64(0), i32(3)]) is None
    assert get_indexed_type(ctx.i32, [i64(0), i64(0)]) is None
    # splat vector struct index
    splat = ConstantVector.get([i32(1), i32(1)])
    assert get_indexed_type(outer, [i64(0), splat]) is inner
    assert get_indexed_type(outer, [i64(0), ConstantAggregateZero.get(ctx.vector_type(ctx.i32, 2))]) is ctx.i32
    mixed = ConstantVector.get([i32(0), i32(1)])
    assert get_indexed_type(outer, [i64(0), mixed]) is None
    assert GetElementPtrInst.get_indexed_type(ctx.array_type(ctx.i8, 3), [0, 2]) is ctx.i8


def test_gep(env: Env) -> None:
    ctx = env.ctx
    st = ctx.struct_type([ctx.i32, ctx.array_type(ctx.double, 4)])
    g = GetElementPtrInst(st, env.p, [env.i64(0), env.i32(1), env.a], flags=GEPFlags.INBOUNDS, name="g")
    assert g.opcode == "getelementptr" and g.type is ctx.ptr
    assert g.source_element_type is st and g.result_element_type is ctx.double
    assert g.pointer_operand is env.p and g.indices == [env.i64(0), env.i32(1), env.a] and g.num_indices == 3
    # inbounds implies nusw
    assert g.inbounds and g.nusw and not g.nuw and g.gep_flags == GEPFlags.INBOUNDS | GEPFlags.NUSW
    assert not g.has_all_constant_indices and not g.has_all_zero_indices
    assert not g.may_read_or_write_memory()
    assert uses_of(env.p) == [(g, 0)] and uses_of(env.a) == [(g, 3)]
    z = GetElementPtrInst(st, env.p, [env.i64(0), env.i32(0)])
    assert z.has_all_zero_indices and z.has_all_constant_indices and z.result_element_type is ctx.i32
    assert GetElementPtrInst(ctx.i8, env.p, []).result_element_type is ctx.i8
    # flag setters follow LLVM's GEPNoWrapFlags
    g.nuw = True
    assert g.gep_flags.keywords == "inbounds nuw"
    g.inbounds = False
    assert g.nusw and not g.inbounds
    g.nusw = False
    assert g.gep_flags == GEPFlags.NUW
    g.inbounds = True
    assert g.nusw
    g.drop_poison_generating_flags()
    assert g.gep_flags == 0
    c = check_clone(z)
    assert isinstance(c, GetElementPtrInst) and c.result_element_type is ctx.i32
    assert not z.is_identical_to(GetElementPtrInst(st, env.p, [env.i64(0), env.i32(0)], flags=GEPFlags.NUW))
    st2 = ctx.struct_type([ctx.i32, ctx.i64])
    assert not z.is_identical_to(GetElementPtrInst(st2, env.p, [env.i64(0), env.i32(0)]))
    with pytest.raises(IRError):
        GetElementPtrInst(st, env.p, [env.i64(0), env.i64(1)])
    with pytest.raises(IRError):
        GetElementPtrInst(ctx.i8, env.a, [env.i64(0)])
    with pytest.raises(IRError):
        GetElementPtrInst(ctx.i8, env.p, [env.x])
    with pytest.raises(IRError):
        GetElementPtrInst(ctx.named_struct("opaque"), env.p, [env.i64(0)])


def test_vector_gep(env: Env) -> None:
    ctx = env.ctx
    v4p = ctx.vector_type(ctx.ptr, 4)
    g = GetElementPtrInst(ctx.i32, env.p, [env.v])
    assert g.type is v4p and g.result_element_type is ctx.i32
    ptrs = PoisonValue.get(v4p)
    g2 = GetElementPtrInst(ctx.i32, ptrs, [env.i64(1)])
    assert g2.type is v4p
    with pytest.raises(IRError):
        GetElementPtrInst(ctx.i32, ptrs, [PoisonValue.get(ctx.vector_type(ctx.i64, 2))])
    assert GetElementPtrInst(ctx.i32, ptrs, [env.v]).pointer_address_space == 0


# =====================================================================================
# vector.py
# =====================================================================================


def test_extract_insert_element(env: Env) -> None:
    ctx = env.ctx
    e = ExtractElementInst(env.v, env.i64(2), name="e")
    assert e.opcode == "extractelement" and e.type is ctx.i32
    assert e.vector_operand is env.v and e.index_operand is env.i64(2)
    check_clone(e)
    i = InsertElementInst(env.v, env.a, env.i32(0))
    assert i.opcode == "insertelement" and i.type is env.v4i32 and i.element_operand is env.a
    check_clone(i)
    with pytest.raises(IRError):
        ExtractElementInst(env.a, env.i32(0))
    with pytest.raises(IRError):
        InsertElementInst(env.v, env.x, env.i32(0))
    with pytest.raises(IRError):
        ExtractElementInst(env.v, env.x)


def test_shufflevector(env: Env) -> None:
    ctx = env.ctx
    s = ShuffleVectorInst(env.v, env.v, [0, 5, -1], name="s")
    assert s.opcode == "shufflevector" and s.type is ctx.vector_type(ctx.i32, 3)
    assert s.operands == [env.v, env.v] and s.mask == (0, 5, -1) and s.get_mask_value(1) == 5
    assert s.changes_length and not s.is_identity
    assert not s.may_read_or_write_memory()
    c = check_clone(s)
    assert isinstance(c, ShuffleVectorInst) and c.mask == s.mask
    assert not s.is_identical_to(ShuffleVectorInst(env.v, env.v, [0, 5, 1]))
    assert ShuffleVectorInst(env.v, env.v, [0, -1, 2, 3]).is_identity
    assert ShuffleVectorInst(env.v, env.v, [4, 5, -1, 7]).is_identity
    assert not ShuffleVectorInst(env.v, env.v, [0, 5, 2, 3]).is_identity
    other = InsertElementInst(env.v, env.a, env.i32(0))
    com = ShuffleVectorInst(env.v, other, [0, 4, -1, 7])
    com.commute()
    assert com.operands == [other, env.v] and com.mask == (4, 0, -1, 3)
    s.set_mask([1, 1, 1])
    assert s.mask == (1, 1, 1)
    with pytest.raises(IRError):
        s.set_mask([1])
    with pytest.raises(IRError):
        ShuffleVectorInst(env.v, env.v, [8])
    with pytest.raises(IRError):
        ShuffleVectorInst(env.v, env.vf, [0])
    # scalable: only all-zero or all-poison masks
    sv = ctx.vector_type(ctx.i32, 4, True)
    pv = PoisonValue.get(sv)
    ss = ShuffleVectorInst(pv, pv, [0, 0, 0, 0])
    assert ss.type is sv
    with pytest.raises(IRError):
        ShuffleVectorInst(pv, pv, [0, 1, 0, 0])


def test_extract_insert_value(env: Env) -> None:
    ctx = env.ctx
    st = ctx.struct_type([ctx.i32, ctx.array_type(ctx.float, 2)])
    agg = UndefValue.get(st)
    assert get_aggregate_indexed_type(st, [1, 1]) is ctx.float
    assert get_aggregate_indexed_type(st, [1, 2]) is None  # arrays are bounds-checked
    assert get_aggregate_indexed_type(st, [2]) is None
    assert get_aggregate_indexed_type(env.v4i32, [0]) is None  # vectors are not aggregates
    ev = ExtractValueInst(agg, [1, 0], name="ev")
    assert ev.opcode == "extractvalue" and ev.type is ctx.float and ev.indices == (1, 0)
    assert ev.aggregate_operand is agg and ev.num_operands == 1
    c = check_clone(ev)
    assert isinstance(c, ExtractValueInst) and c.indices == (1, 0)
    assert not ev.is_identical_to(ExtractValueInst(agg, [1, 1]))
    iv = InsertValueInst(agg, env.a, [0])
    assert iv.opcode == "insertvalue" and iv.type is st and iv.inserted_value_operand is env.a
    assert ExtractValueInst.get_indexed_type(st, [0]) is ctx.i32
    check_clone(iv)
    pair = UndefValue.get(ctx.struct_type([ctx.i32, ctx.i32]))
    assert not InsertValueInst(pair, env.a, [0]).is_identical_to(InsertValueInst(pair, env.a, [1]))
    with pytest.raises(IRError):
        InsertValueInst(agg, env.x, [0])
    with pytest.raises(IRError):
        ExtractValueInst(agg, [])
    with pytest.raises(IRError):
        ExtractValueInst(agg, [5])


# =====================================================================================
# other.py
# =====================================================================================


def _blocks(env: Env, n: int) -> list[BasicBlock]:
    return [BasicBlock(env.ctx, "b%d" % i, env.f) for i in range(n)]


def test_phi_incoming_api(env: Env) -> None:
    ctx = env.ctx
    b0, b1, b2 = _blocks(env, 3)
    phi = PHINode(ctx.i32, [(env.a, b0)], name="phi")
    assert phi.opcode == "phi" and phi.is_phi and phi.type is ctx.i32
    phi.add_incoming(env.b, b1)
    phi.add_incoming(env.i32(7), b2)
    assert phi.num_incoming == 3
    assert phi.incoming == [(env.a, b0), (env.b, b1), (env.i32(7), b2)]
    assert phi.incoming_values == phi.operands == [env.a, env.b, env.i32(7)]
    assert phi.incoming_blocks == [b0, b1, b2]
    # incoming blocks are not uses
    assert not b0.has_uses and not b1.has_uses
    assert phi.get_incoming_value(1) is env.b and phi.get_incoming_block(2) is b2
    assert phi.basic_block_index(b1) == 1 and phi.basic_block_index(env.bb) == -1
    assert phi.incoming_value_for_block(b2) is env.i32(7)
    assert phi.get_incoming_block_for_use(phi.get_operand_use(1)) is b1
    phi.set_incoming_value(2, env.a)
    assert uses_of(env.a) == [(phi, 2), (phi, 0)]
    phi.set_incoming_block(2, b0)
    assert phi.incoming_blocks == [b0, b1, b0]
    phi.replace_incoming_block_with(b0, b2)
    assert phi.incoming_blocks == [b2, b1, b2]
    with pytest.raises(IRError):
        phi.add_incoming(env.x, b0)
    with pytest.raises(IRError):
        phi.incoming_value_for_block(b0)
    with pytest.raises(IRError):
        phi.set_incoming_value(0, env.x)


def test_phi_remove_incoming_shifts_like_llvm(env: Env) -> None:
    ctx = env.ctx
    b0, b1, b2, b3 = _blocks(env, 4)
    phi = PHINode(ctx.i32, [(env.a, b0), (env.b, b1), (env.a, b2), (env.b, b3)])
    # use-lists before: a: [2, 0]; b: [3, 1]
    removed = phi.remove_incoming_value(1)
    assert removed is env.b
    assert phi.incoming == [(env.a, b0), (env.a, b2), (env.b, b3)]
    assert [u.index for u in phi.operand_uses] == [0, 1, 2]
    # every shifted slot was re-pointed, moving it to the head of its value's list
    assert uses_of(env.a) == [(phi, 1), (phi, 0)]
    assert uses_of(env.b) == [(phi, 2)]
    assert phi.remove_incoming_value(b3) is env.b
    assert phi.incoming == [(env.a, b0), (env.a, b2)]
    assert not env.b.has_uses
    with pytest.raises(IRError):
        phi.remove_incoming_value(b3)
    with pytest.raises(IRError):
        phi.remove_incoming_value(5)


def test_phi_remove_last_and_delete(env: Env) -> None:
    ctx = env.ctx
    (b0,) = _blocks(env, 1)
    phi = PHINode(ctx.i32, [(env.a, b0)])
    env.bb.append(phi)
    user = AddInst(phi, env.b)
    env.bb.append(user)
    phi.remove_incoming_value(0, delete_if_empty=True)
    assert phi.parent is None
    assert user.lhs is PoisonValue.get(ctx.i32)
    assert list(env.bb) == [user]
    keep = PHINode(ctx.i32, [(env.a, b0)])
    keep.remove_incoming_value(b0)
    assert keep.num_incoming == 0


def test_phi_remove_incoming_value_if(env: Env) -> None:
    ctx = env.ctx
    bs = _blocks(env, 5)
    vals = [env.i32(i) for i in range(5)]
    phi = PHINode(ctx.i32, list(zip(vals, bs)))
    phi.remove_incoming_value_if(lambda i: i in (1, 3))
    assert phi.incoming == [(vals[0], bs[0]), (vals[2], bs[2]), (vals[4], bs[4])]
    assert [u.index for u in phi.operand_uses] == [0, 1, 2]
    for v in (vals[1], vals[3]):
        assert not v.is_used_by(phi)


def test_phi_constant_value_and_identity(env: Env) -> None:
    ctx = env.ctx
    b0, b1, b2 = _blocks(env, 3)
    phi = PHINode(ctx.i32, [(env.a, b0)])
    phi.add_incoming(phi, b1)
    phi.add_incoming(env.a, b2)
    assert phi.has_constant_value() is env.a and phi.has_constant_or_undef_value()
    phi.set_incoming_value(2, env.b)
    assert phi.has_constant_value() is None and not phi.has_constant_or_undef_value()
    phi.set_incoming_value(2, UndefValue.get(ctx.i32))
    assert phi.has_constant_value() is None and phi.has_constant_or_undef_value()
    self_only = PHINode(ctx.i32, [])
    self_only.add_incoming(self_only, b0)
    assert self_only.has_constant_value() is PoisonValue.get(ctx.i32)
    p1 = PHINode(ctx.i32, [(env.a, b0), (env.b, b1)])
    p2 = PHINode(ctx.i32, [(env.a, b1), (env.b, b0)])
    assert not p1.is_identical_to(p2)
    c = check_clone(p1)
    assert isinstance(c, PHINode) and c.incoming_blocks == [b0, b1]
    assert uses_of(env.a)[0] == (c, 0)


def test_phi_fast_math_flags(env: Env) -> None:
    ctx = env.ctx
    (b0,) = _blocks(env, 1)
    fp = PHINode(ctx.float, [(env.x, b0)], fast_math_flags=FastMathFlags.NNAN)
    assert fp.fast_math_flags == FastMathFlags.NNAN
    c = check_clone(fp)
    assert isinstance(c, PHINode) and c.fast_math_flags == FastMathFlags.NNAN
    assert not fp.is_identical_to(PHINode(ctx.float, [(env.x, b0)]))
    arr = PHINode(ctx.array_type(ctx.float, 2), fast_math_flags=FastMathFlags.FAST)
    assert arr.fast_math_flags == FastMathFlags.FAST
    with pytest.raises(IRError):
        PHINode(ctx.i32, fast_math_flags=FastMathFlags.NNAN)
    with pytest.raises(IRError):
        PHINode(ctx.i32).fast_math_flags = FastMathFlags.NSZ


def test_phi_is_complete(env: Env) -> None:
    from llvmpy_mid.ir.instructions.terminators import BranchInst

    ctx = env.ctx
    b0, b1, join = _blocks(env, 3)
    b0.append(BranchInst(join))
    b1.append(BranchInst(join))
    phi = PHINode(ctx.i32, [(env.a, b0)])
    join.append(phi)
    assert not phi.is_complete
    phi.add_incoming(env.b, b1)
    assert phi.is_complete
    # basic_block.py renames incoming blocks through the phi
    join.replace_phi_uses_with(b1, b0)
    assert phi.incoming_blocks == [b0, b0]


def test_select(env: Env) -> None:
    ctx = env.ctx
    cond = ICmpInst(P.ICMP_EQ, env.a, env.b)
    s = SelectInst(cond, env.a, env.b, name="s")
    assert s.opcode == "select" and s.type is ctx.i32 and s.operands == [cond, env.a, env.b]
    assert s.condition is cond and s.true_value is env.a and s.false_value is env.b
    check_clone(s)
    fs = SelectInst(cond, env.x, env.y, fast_math_flags=FastMathFlags.NNAN)
    assert fs.fast_math_flags == FastMathFlags.NNAN
    assert not fs.is_identical_to(SelectInst(cond, env.x, env.y))
    c = check_clone(fs)
    assert isinstance(c, SelectInst) and c.fast_math_flags == FastMathFlags.NNAN
    vcond = ICmpInst(P.ICMP_EQ, env.v, env.v)
    assert SelectInst(vcond, env.v, env.v).type is env.v4i32
    s.swap_values()
    assert s.operands == [cond, env.b, env.a]
    with pytest.raises(IRError, match="same type"):
        SelectInst(cond, env.a, env.x)
    with pytest.raises(IRError, match="must be i1"):
        SelectInst(env.a, env.a, env.b)
    with pytest.raises(IRError, match="must be vectors"):
        SelectInst(vcond, env.a, env.b)
    with pytest.raises(IRError, match="same vector length"):
        v2 = PoisonValue.get(ctx.vector_type(ctx.i32, 2))
        SelectInst(vcond, v2, v2)
    with pytest.raises(IRError, match="fast-math-flags"):
        SelectInst(cond, env.a, env.b, fast_math_flags=FastMathFlags.FAST)
    st = ctx.struct_type([ctx.float, ctx.float])
    with pytest.raises(IRError):
        SelectInst(cond, UndefValue.get(st), UndefValue.get(st), fast_math_flags=FastMathFlags.FAST)


def test_freeze_and_va_arg(env: Env) -> None:
    ctx = env.ctx
    fr = FreezeInst(env.a, name="fr")
    assert fr.opcode == "freeze" and fr.type is ctx.i32 and fr.operand is env.a
    assert not fr.may_read_or_write_memory()
    check_clone(fr)
    va = VAArgInst(env.p, ctx.i32)
    assert va.opcode == "va_arg" and va.type is ctx.i32 and va.pointer_operand is env.p
    assert va.may_read_from_memory() and va.may_write_to_memory()
    check_clone(va)


def test_clone_keeps_metadata_and_insertion(env: Env) -> None:
    add = AddInst(env.a, env.b, nuw=True)
    env.bb.append(add)
    c = add.clone()
    c.insert_after(add)
    assert list(env.bb) == [add, c]
    assert isinstance(c, AddInst) and c.nuw


def test_opcode_is_a_class_attribute_everywhere(env: Env) -> None:
    ctx = env.ctx
    classes = list(BINARY_OPCODE_CLASSES.values())
    for cls in classes:
        assert "opcode" in cls.__dict__
    for name in CAST_OPCODES:
        assert CastInst.class_for(name).opcode == name
    # one opcode string per class across the whole family
    insts: list[Instruction] = [
        AllocaInst(ctx.i32),
        LoadInst(ctx.i32, env.p),
        StoreInst(env.a, env.p),
        FenceInst(ctx, AO.ACQUIRE),
        PHINode(ctx.i32),
        FreezeInst(env.a),
    ]
    assert [i.opcode for i in insts] == ["alloca", "load", "store", "fence", "phi", "freeze"]


# =====================================================================================
# property: phi edits keep use-lists exact
# =====================================================================================


@settings(max_examples=150, deadline=None)
@given(
    hs.lists(
        hs.tuples(hs.sampled_from(["add", "remove", "remove_block", "set", "remove_if"]), hs.integers(0, 7)),
        max_size=40,
    )
)
def test_phi_edit_sequences_keep_use_lists_exact(ops: list[tuple[str, int]]) -> None:
    ctx = Context()
    env = Env(ctx)
    blocks = _blocks(env, 4)
    values: list[Value] = [env.a, env.b, ConstantInt.get(ctx.i32, 3)]
    phi = PHINode(ctx.i32)
    model: list[tuple[Value, BasicBlock]] = []
    for op, k in ops:
        if op == "add":
            pair = (values[k % 3], blocks[k % 4])
            phi.add_incoming(*pair)
            model.append(pair)
        elif op == "remove" and model:
            i = k % len(model)
            assert phi.remove_incoming_value(i) is model.pop(i)[0]
        elif op == "remove_block" and model:
            bb = blocks[k % 4]
            idx = next((i for i, (_, b) in enumerate(model) if b is bb), -1)
            assert phi.basic_block_index(bb) == idx
            if idx >= 0:
                phi.remove_incoming_value(bb)
                model.pop(idx)
        elif op == "set" and model:
            i = k % len(model)
            phi.set_incoming_value(i, values[k % 3])
            model[i] = (values[k % 3], model[i][1])
        elif op == "remove_if" and model:
            phi.remove_incoming_value_if(lambda i: i % 2 == k % 2)
            model = [p for i, p in enumerate(model) if i % 2 != k % 2]
        assert phi.incoming == model
        assert [u.index for u in phi.operand_uses] == list(range(len(model)))
        for v in values:
            slots = sorted(u.index for u in v.uses if u.user is phi)
            assert slots == [i for i, (w, _) in enumerate(model) if w is v]
            for u in v.uses:
                assert u.value is v
