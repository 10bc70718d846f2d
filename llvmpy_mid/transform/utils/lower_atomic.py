"""Helpers that lower atomic instructions to plain memory operations (LLVM
lib/Transforms/Utils/LowerAtomic.cpp), used by ``lower-atomic``.

- :func:`lower_atomic_cmpxchg`: ``cmpxchg`` -> load, ``icmp eq``, select, store
  and the ``{old, success}`` pair built with two ``insertvalue``;
- :func:`build_atomic_rmw_value`: the new value an ``atomicrmw`` operation
  computes from the loaded one (named ``new``, as LLVM's builder names it);
- :func:`lower_atomic_rmw`: ``atomicrmw`` -> load, that value, store.

Loads and stores get the ABI alignment of their type (what LLVM's IRBuilder
gives an unaligned ``CreateLoad``/``CreateStore``) and the atomic instruction's
debug location.

What it does not do: constrained floating point (LLVM builds
``llvm.experimental.constrained.*`` calls in ``strictfp`` functions; here the
plain ``fadd``/``fsub`` are built).
"""

from __future__ import annotations

from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.flags import AtomicRMWBinOp
from llvmpy_mid.ir.instructions.memory import AtomicCmpXchgInst, AtomicRMWInst
from llvmpy_mid.ir.intrinsics import intrinsic_declaration
from llvmpy_mid.ir.type_mangling import intrinsic_name
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Value

__all__ = ["build_atomic_rmw_value", "lower_atomic_cmpxchg", "lower_atomic_rmw"]


def _builder_at(inst: AtomicCmpXchgInst | AtomicRMWInst) -> tuple[IRBuilder, int]:
    """A builder before ``inst`` with its debug location, and the ABI alignment of its value type."""
    b = IRBuilder(before=inst)
    b.debug_loc = inst.debug_loc
    fn = inst.function
    assert fn is not None and fn.parent is not None
    ty = inst.new_value_operand.type if isinstance(inst, AtomicCmpXchgInst) else inst.value_operand.type
    return b, fn.parent.data_layout.abi_alignment(ty)


def lower_atomic_cmpxchg(cxi: AtomicCmpXchgInst) -> bool:
    """Replace ``cmpxchg`` by its single-threaded equivalent (LLVM ``lowerAtomicCmpXchgInst``)."""
    b, align = _builder_at(cxi)
    ptr = cxi.pointer_operand
    cmp = cxi.compare_operand
    val = cxi.new_value_operand
    orig = b.load(val.type, ptr, alignment=align)
    equal = b.icmp(Predicate.ICMP_EQ, orig, cmp)
    res: Value = b.select(equal, val, orig)
    b.store(res, ptr, alignment=align)
    res = b.insert_value(PoisonValue.get(cxi.type), orig, 0)
    res = b.insert_value(res, equal, 1)
    cxi.replace_all_uses_with(res)
    cxi.erase_from_parent()
    return True


def _binary_intrinsic(b: IRBuilder, base: str, lhs: Value, rhs: Value) -> Value:
    fn = b.function
    assert fn is not None and fn.parent is not None
    name = intrinsic_name(base, [lhs.type])
    assert name is not None
    decl = intrinsic_declaration(fn.parent, name, b.context.function_type(lhs.type, [lhs.type, lhs.type]))
    return b.call(decl, [lhs, rhs])


def build_atomic_rmw_value(op: AtomicRMWBinOp, b: IRBuilder, loaded: Value, val: Value) -> Value:
    """The value ``atomicrmw op`` stores, given the ``loaded`` one (LLVM ``buildAtomicRMWValue``)."""
    ty: Type = loaded.type
    if op is AtomicRMWBinOp.XCHG:
        return val
    if op is AtomicRMWBinOp.ADD:
        return b.add(loaded, val, "new")
    if op is AtomicRMWBinOp.SUB:
        return b.sub(loaded, val, "new")
    if op is AtomicRMWBinOp.AND:
        return b.and_(loaded, val, "new")
    if op is AtomicRMWBinOp.NAND:
        return b.not_(b.and_(loaded, val), "new")
    if op is AtomicRMWBinOp.OR:
        return b.or_(loaded, val, "new")
    if op is AtomicRMWBinOp.XOR:
        return b.xor(loaded, val, "new")
    if op is AtomicRMWBinOp.FADD:
        return b.fadd(loaded, val, "new")
    if op is AtomicRMWBinOp.FSUB:
        return b.fsub(loaded, val, "new")
    if op is AtomicRMWBinOp.FMAX:
        return _binary_intrinsic(b, "llvm.maxnum", loaded, val)
    if op is AtomicRMWBinOp.FMIN:
        return _binary_intrinsic(b, "llvm.minnum", loaded, val)
    selects = {
        AtomicRMWBinOp.MAX: Predicate.ICMP_SGT,
        AtomicRMWBinOp.MIN: Predicate.ICMP_SLE,
        AtomicRMWBinOp.UMAX: Predicate.ICMP_UGT,
        AtomicRMWBinOp.UMIN: Predicate.ICMP_ULE,
    }
    pred = selects.get(op)
    if pred is not None:
        return b.select(b.icmp(pred, loaded, val), loaded, val, "new")
    zero = ConstantInt.get(ty, 0)
    one = ConstantInt.get(ty, 1)
    if op is AtomicRMWBinOp.UINC_WRAP:
        inc = b.add(loaded, one)
        cmp = b.icmp(Predicate.ICMP_UGE, loaded, val)
        return b.select(cmp, zero, inc, "new")
    assert op is AtomicRMWBinOp.UDEC_WRAP, op
    dec = b.sub(loaded, one)
    eq0 = b.icmp(Predicate.ICMP_EQ, loaded, zero)
    gt = b.icmp(Predicate.ICMP_UGT, loaded, val)
    return b.select(b.or_(eq0, gt), val, dec, "new")


def lower_atomic_rmw(rmw: AtomicRMWInst) -> bool:
    """Replace ``atomicrmw`` by load, compute, store (LLVM ``lowerAtomicRMWInst``)."""
    b, align = _builder_at(rmw)
    ptr = rmw.pointer_operand
    val = rmw.value_operand
    orig = b.load(val.type, ptr, alignment=align)
    res = build_atomic_rmw_value(rmw.operation, b, orig, val)
    b.store(res, ptr, alignment=align)
    rmw.replace_all_uses_with(orig)
    rmw.erase_from_parent()
    return True
