"""Helpers of the ``reassociate`` pass (LLVM Reassociate.cpp's static functions): the
PatternMatch shapes it asks about (``m_Neg``, ``m_FNeg``, ``m_Not``, ``m_APInt``,
``m_APFloat``), ``isReassociableOp``, the creation of adds, multiplies and negations
with LLVM's names and fast-math flags at an instruction position (adopting the debug
records there, as LLVM's iterator insertion does), ``LowerNegateToMultiply``,
``ShouldBreakUpSubtract``, the or-to-add and load-combine tests, the negatible FP
constants, the multiply factor collection, ``XorOpnd`` and ``OverflowTracking``.
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.analysis.poison_tracking import (
    is_guaranteed_to_transfer_execution_to_successor,
    is_safe_to_speculatively_execute,
)
from llvmpy_mid.ir import fp_bits
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantFP,
    ConstantInt,
    ConstantVector,
    PoisonValue,
    UndefValue,
    get_splat_value,
)
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator, UnaryOperator
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.types import Type, TypeID, VectorType
from llvmpy_mid.ir.value import Value

# A value entry of an expression: (rank, value); lists of them are kept in decreasing rank.
Entry = tuple[int, Value]

FP_MATH_OPS = frozenset(("fneg", "fadd", "fsub", "fmul", "fdiv", "frem"))
REASSOC_NSZ = int(FastMathFlags.REASSOC | FastMathFlags.NSZ)
ASSOCIATIVE_INT = frozenset(("add", "mul", "and", "or", "xor"))
NUW = 1
NSW = 2


# --- small IR helpers -----------------------------------------------------------------------


def opcode_of(v: Value) -> str:
    op = getattr(v, "opcode", None)
    return op if isinstance(op, str) else ""


def user_back(v: Value) -> Value:
    """LLVM ``user_back()``: the user of the most recently added use."""
    use = v._use_head
    assert use is not None
    return use.user


def fmf_of(v: Value) -> int:
    if isinstance(v, (BinaryOperator, UnaryOperator)) and v.opcode in FP_MATH_OPS:
        return int(v.fast_math_flags)
    return 0


def is_fp_math(v: Value) -> bool:
    return isinstance(v, (BinaryOperator, UnaryOperator)) and v.opcode in FP_MATH_OPS


def has_fp_associative_flags(v: Value) -> bool:
    return fmf_of(v) & REASSOC_NSZ == REASSOC_NSZ


def is_associative(i: Value) -> bool:
    op = opcode_of(i)
    if op in ASSOCIATIVE_INT:
        return isinstance(i, BinaryOperator)
    if op == "fadd" or op == "fmul":
        return has_fp_associative_flags(i)
    return False


def reassociable(v: Value, op1: str, op2: str = "") -> BinaryOperator | None:
    """LLVM ``isReassociableOp``: a one-use binary operator of opcode ``op1`` (or ``op2``),
    which for floating point must carry ``reassoc`` and ``nsz``."""
    if not isinstance(v, BinaryOperator):
        return None
    op = v.opcode
    if op != op1 and op != op2:
        return None
    head = v._use_head
    if head is None or head._next is not None:
        return None
    if v.is_fp_op and v._flags & REASSOC_NSZ != REASSOC_NSZ:
        return None
    return v


def is_zero_int(c: Value) -> bool:
    """PatternMatch ``m_ZeroInt``: zero, or a vector whose non-poison lanes are zero."""
    if isinstance(c, ConstantInt):
        return c.value == 0
    if isinstance(c, Constant) and isinstance(c.type, VectorType) and c.type.element_type.is_integer:
        if c.is_null_value:
            return True
        s = get_splat_value(c)
        if isinstance(s, ConstantInt):
            return s.value == 0
        return lanes_all(c, lambda e: isinstance(e, ConstantInt) and e.value == 0)
    return False


def is_all_ones_int(c: Value) -> bool:
    if isinstance(c, ConstantInt):
        return c.value == c.type.mask
    if isinstance(c, Constant) and isinstance(c.type, VectorType) and c.type.element_type.is_integer:
        s = get_splat_value(c)
        if isinstance(s, ConstantInt):
            return s.value == s.type.mask
        return lanes_all(c, lambda e: isinstance(e, ConstantInt) and e.value == e.type.mask)
    return False


def lanes_all(c: Constant, pred: Callable[[Constant], bool]) -> bool:
    """PatternMatch ``cstval_pred_ty`` on a fixed vector: every lane but poison ones
    satisfies ``pred``, and at least one lane is not poison."""
    ty = c.type
    assert isinstance(ty, VectorType)
    if ty.scalable:
        return False
    seen = False
    for k in range(ty.count):
        e = c.get_aggregate_element(k)
        if e is None:
            return False
        if isinstance(e, PoisonValue):  # poison lanes pass; undef ones do not
            continue
        if not pred(e):
            return False
        seen = True
    return seen


def is_fp_zero(c: Value, negative: bool) -> bool:
    def one(e: Value) -> bool:
        if not isinstance(e, ConstantFP):
            return False
        if not e.is_zero_value:
            return False
        return e.is_negative_zero if negative else True

    if isinstance(c, ConstantFP):
        return one(c)
    if isinstance(c, Constant) and isinstance(c.type, VectorType) and c.type.element_type.is_floating_point:
        s = get_splat_value(c)
        if s is not None:
            return one(s)
        return lanes_all(c, one)
    return False


def neg_operand(v: Value) -> Value | None:
    """``m_Neg(X)``: ``sub 0, X`` (instruction or constant expression) -> X."""
    if opcode_of(v) == "sub":
        ops = v._operands  # type: ignore[attr-defined]
        if is_zero_int(ops[0].value):
            return ops[1].value  # type: ignore[no-any-return]
    return None


def fneg_operand(v: Value) -> Value | None:
    """``m_FNeg(X)``: ``fneg X``, ``fsub -0.0, X`` (``fsub nsz 0.0, X``) -> X."""
    op = opcode_of(v)
    if op == "fneg":
        return v._operands[0].value  # type: ignore[attr-defined,no-any-return]
    if op == "fsub":
        ops = v._operands  # type: ignore[attr-defined]
        nsz = bool(fmf_of(v) & int(FastMathFlags.NSZ)) if isinstance(v, Instruction) else False
        if is_fp_zero(ops[0].value, not nsz):
            return ops[1].value  # type: ignore[no-any-return]
    return None


def not_operand(v: Value) -> Value | None:
    """``m_Not(X)``: ``xor X, -1`` in either order -> X."""
    if opcode_of(v) == "xor":
        ops = v._operands  # type: ignore[attr-defined]
        if is_all_ones_int(ops[1].value):
            return ops[0].value  # type: ignore[no-any-return]
        if is_all_ones_int(ops[0].value):
            return ops[1].value  # type: ignore[no-any-return]
    return None


def apint(v: Value) -> ConstantInt | None:
    """``m_APInt``: an integer constant or a splat of one."""
    if isinstance(v, ConstantInt):
        return v
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if isinstance(s, ConstantInt):
            return s
    return None


def apfloat(v: Value) -> ConstantFP | None:
    """``m_APFloat``: a floating-point constant or a splat of one."""
    if isinstance(v, ConstantFP):
        return v
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if isinstance(s, ConstantFP):
            return s
    return None


def fp_sign_bit(ty_id: TypeID) -> int:
    if ty_id is TypeID.PPC_FP128:
        return 1 << 127
    return 1 << (fp_bits.bit_width(ty_id) - 1)


def fp_is_negative(c: ConstantFP) -> bool:
    return bool(c.bits & fp_sign_bit(c.type.type_id))


def fp_flip_sign(c: ConstantFP) -> ConstantFP:
    tid = c.type.type_id
    if tid is TypeID.PPC_FP128:
        return ConstantFP.from_bits(c.type, c.bits ^ ((1 << 63) | (1 << 127)))
    return ConstantFP.from_bits(c.type, c.bits ^ fp_sign_bit(tid))


def splat_like(ty: object, scalar: Constant) -> Constant:
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, scalar)
    return scalar


def int_const(ty: object, value: int) -> Constant:
    """``ConstantInt::get(Ty, V)``: a splat for a vector type."""
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, ConstantInt.get(ty.element_type, value))
    return ConstantInt.get(ty, value)  # type: ignore[arg-type]


def fp_const(ty: object, value: float) -> Constant:
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, ConstantFP.get(ty.element_type, value))
    return ConstantFP.get(ty, value)  # type: ignore[arg-type]


def is_int_or_int_vector(ty: Type) -> bool:
    return ty.is_int_or_int_vector


def place(inst: Instruction, pos: Instruction, at_head: bool = False) -> None:
    """Insert or move ``inst`` before ``pos`` the way LLVM inserts at an instruction
    iterator: unless ``at_head``, ``inst`` takes over the debug records that were in
    front of ``pos`` (LLVM ``insertBefore``/``moveBeforeImpl`` adopting the marker)."""
    if inst is pos:
        return
    if inst.parent is None:
        inst.insert_before(pos)
    else:
        inst.move_before(pos)
    if not at_head and pos._dbg_records:
        for rec in pos.take_dbg_records():
            inst.add_dbg_record(rec)


def insert_new(inst: Instruction, before: Instruction, name: str = "") -> Instruction:
    place(inst, before)
    if name:
        inst.name = name
    return inst


def create_add(a: Value, b: Value, name: str, before: Instruction, flags_op: Value) -> BinaryOperator:
    if is_int_or_int_vector(a.type):
        new = BinaryOperator.create("add", a, b)
    else:
        new = BinaryOperator.create("fadd", a, b, fast_math_flags=fmf_of(flags_op))
    insert_new(new, before, name)
    return new


def create_mul(a: Value, b: Value, name: str, before: Instruction, flags_op: Value) -> BinaryOperator:
    if is_int_or_int_vector(a.type):
        new = BinaryOperator.create("mul", a, b)
    else:
        new = BinaryOperator.create("fmul", a, b, fast_math_flags=fmf_of(flags_op))
    insert_new(new, before, name)
    return new


def create_neg(v: Value, name: str, before: Instruction, flags_op: Value) -> Instruction:
    new: Instruction
    if is_int_or_int_vector(v.type):
        new = BinaryOperator.create("sub", Constant.get_null_value(v.type), v)
    else:
        new = UnaryOperator(v, fast_math_flags=fmf_of(flags_op) if isinstance(flags_op, Instruction) else 0)
    insert_new(new, before, name)
    return new


def lower_negate_to_multiply(neg: Instruction) -> BinaryOperator:
    """``sub 0, X`` / ``fneg X`` -> ``mul X, -1`` (LLVM ``LowerNegateToMultiply``)."""
    op_no = 1 if isinstance(neg, BinaryOperator) else 0
    ty = neg.type
    neg_one = Constant.get_all_ones_value(ty) if is_int_or_int_vector(ty) else fp_const(ty, -1.0)
    res = create_mul(neg._operands[op_no].value, neg_one, "", neg, neg)
    neg.set_operand(op_no, Constant.get_null_value(ty))
    res.take_name(neg)
    neg.replace_all_uses_with(res)
    res.debug_loc = neg.debug_loc
    return res


def may_have_non_def_use_dependency(inst: Instruction) -> bool:
    if inst.may_read_or_write_memory():
        return True
    if not is_safe_to_speculatively_execute(inst):
        return True
    return not is_guaranteed_to_transfer_execution_to_successor(inst)


def bin_op_absorber(opcode: str, ty: object) -> Constant | None:
    if opcode == "or":
        return Constant.get_all_ones_value(ty)  # type: ignore[arg-type]
    if opcode == "and" or opcode == "mul":
        return Constant.get_null_value(ty)  # type: ignore[arg-type]
    return None


def insertion_point_after_def(op: Instruction) -> Instruction | None:
    bb = op.parent
    assert bb is not None
    if op.is_phi:
        return bb.first_insertion_point
    if op.opcode == "invoke":
        return op.successors[0].first_insertion_point
    if op.opcode == "callbr" or op.is_terminator:
        return None
    return op.next_instruction


class OverflowTracking:
    __slots__ = ("has_nuw", "has_nsw", "all_non_negative", "all_non_zero")

    def __init__(self) -> None:
        self.has_nuw = True
        self.has_nsw = True
        self.all_non_negative = True
        self.all_non_zero = True


class XorOpnd:
    """An operand of a xor expression split as ``symbolic op constant`` (``X | C`` or
    ``X & C``; a plain value is ``X | 0``) (LLVM ``XorOpnd``)."""

    __slots__ = ("orig", "symbolic", "const", "rank", "is_or")

    def __init__(self, v: Value) -> None:
        self.orig: Value | None = v
        self.rank = 0
        op = opcode_of(v)
        if isinstance(v, Instruction) and (op == "or" or op == "and"):
            v0 = v._operands[0].value
            v1 = v._operands[1].value
            if apint(v0) is not None:
                v0, v1 = v1, v0
            c = apint(v1)
            if c is not None:
                self.const = c.value
                self.symbolic: Value | None = v0
                self.is_or = op == "or"
                return
        self.symbolic = v
        self.const = 0
        self.is_or = True

    def invalidate(self) -> None:
        self.symbolic = None
        self.orig = None


def single_use_multiply_factors(bo: BinaryOperator) -> list[Value]:
    """LLVM ``FindSingleUseMultiplyFactors`` (operand 1 before operand 0), without recursion."""
    out: list[Value] = []
    stack: list[Value] = [bo]
    first = True
    while stack:
        v = stack.pop()
        b = v if first else reassociable(v, "mul", "fmul")
        first = False
        if b is None:
            out.append(v)
            continue
        assert isinstance(b, BinaryOperator)
        stack.append(b._operands[0].value)
        stack.append(b._operands[1].value)
    return out


def collect_multiply_factors(ops: list[Entry]) -> list[list[object]] | None:
    power_sum = 0
    idx = 1
    size = len(ops)
    while idx < size:
        op = ops[idx - 1][1]
        count = 1
        while idx < size and ops[idx][1] is op:
            count += 1
            idx += 1
        if count > 1:
            power_sum += count
        idx += 1
    if power_sum < 4:
        return None
    factors: list[list[object]] = []
    idx = 1
    while idx < len(ops):
        op = ops[idx - 1][1]
        count = 1
        while idx < len(ops) and ops[idx][1] is op:
            count += 1
            idx += 1
        if count == 1:
            idx += 1
            continue
        count &= ~1
        idx -= count
        factors.append([op, count])
        del ops[idx : idx + count]
        idx += 1
    factors.sort(key=lambda f: -f[1])  # type: ignore[operator]
    return factors


def negatible_insts(v: Value) -> list[Instruction]:
    """LLVM ``getNegatibleInsts``: one-use fmul/fdiv with a negative constant operand,
    in pre-order (without recursion)."""
    out: list[Instruction] = []
    stack: list[Value] = [v]
    while stack:
        cur = stack.pop()
        if not isinstance(cur, Instruction) or not cur.has_one_use:
            continue
        op = cur.opcode
        if op == "fmul":
            o0 = cur._operands[0].value
            o1 = cur._operands[1].value
            if isinstance(o0, Constant):
                continue
            c = apfloat(o1)
            if c is not None and fp_is_negative(c):
                out.append(cur)
            stack.append(o1)
            stack.append(o0)
        elif op == "fdiv":
            o0 = cur._operands[0].value
            o1 = cur._operands[1].value
            if isinstance(o0, Constant) and isinstance(o1, Constant):
                continue
            c0 = apfloat(o0)
            c1 = apfloat(o1)
            if (c0 is not None and fp_is_negative(c0)) or (c1 is not None and fp_is_negative(c1)):
                out.append(cur)
            stack.append(o1)
            stack.append(o0)
    return out


def should_break_up_subtract(sub: Instruction) -> bool:
    if neg_operand(sub) is not None or fneg_operand(sub) is not None:
        return False
    if isinstance(sub._operands[1].value, UndefValue):
        return False
    v0 = sub._operands[0].value
    if reassociable(v0, "add", "fadd") is not None or reassociable(v0, "sub", "fsub") is not None:
        return True
    v1 = sub._operands[1].value
    if reassociable(v1, "add", "fadd") is not None or reassociable(v1, "sub", "fsub") is not None:
        return True
    if sub.has_one_use:
        vb = user_back(sub)
        if reassociable(vb, "add", "fadd") is not None or reassociable(vb, "sub", "fsub") is not None:
            return True
    return False


def is_interesting_for_or(v: Value) -> bool:
    for op in ("add", "sub", "mul", "shl"):
        if reassociable(v, op) is not None:
            return True
    return False


def should_convert_or_to_add(i: Instruction) -> bool:
    for u in i._operands:
        if is_interesting_for_or(u.value):
            return True
    return i.has_one_use and is_interesting_for_or(user_back(i))


def is_load_combine_candidate(i: Instruction) -> bool:
    work: list[Instruction] = [i]
    visited: set[Instruction] = {i}
    while work:
        cur = work.pop()
        op = cur.opcode
        if op == "or":
            srcs = [u.value for u in cur._operands]
        elif op == "shl" or op == "zext":
            srcs = [cur._operands[0].value]
        elif op == "load":
            continue
        else:
            return False
        for s in srcs:
            if not isinstance(s, Instruction):
                return False
            if s not in visited:
                visited.add(s)
                work.append(s)
    return True
