"""InstCombine's handling of what an ``llvm.assume`` knows (LLVM ``InstCombineCalls.cpp``,
``case Intrinsic::assume``): the ``separate_storage`` hints pointed at their underlying
objects, and, with ``-enable-knowledge-retention``, conditions turned into operand bundles
(``p != null`` -> ``"nonnull"(p)``, ``(ptrtoint p + c) & mask == 0`` -> ``"align"(p, a)``)
and every bundle canonicalised with ``simplifyRetainedKnowledge`` (knowledge about allocas,
globals, dying values or already known elsewhere is dropped: its bundle becomes
``"ignore"``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.droppable_uses import drop_droppable_use
from llvmpy_mid.ir.instructions.cmp import CmpInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine.combiner import option
from llvmpy_mid.transform.utils.assume_bundle_builder import (
    RetainedKnowledge,
    build_assume_from_knowledge,
    get_knowledge_from_bundle,
    simplify_retained_knowledge,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.instructions.calls import CallInst
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

__all__ = [
    "canonicalize_knowledge_bundles",
    "knowledge_from_condition",
    "knowledge_retention_enabled",
    "simplify_separate_storage_hints",
]

_MASK64 = (1 << 64) - 1


def knowledge_retention_enabled() -> bool:
    return bool(option("enable-knowledge-retention"))


def simplify_separate_storage_hints(ic: InstCombiner, ii: CallInst) -> None:
    """Each ``separate_storage`` input becomes its underlying object (no lookup limit)."""
    for tag, begin, _end in ii.operand_bundle_ranges:
        if tag != "separate_storage":
            continue
        for index in (begin, begin + 1):
            hint = ii.get_operand(index)
            base = get_underlying_object(hint, 0)
            if base is not hint:
                ic.replace_use(ii._operands[index], base)


def _is_zero(v: Value) -> bool:
    return isinstance(v, Constant) and v.is_null_value


def knowledge_from_condition(ic: InstCombiner, ii: CallInst, nxt: Instruction | None) -> bool | None:
    """With knowledge retention, ``assume(p != null)`` and ``assume((ptrtoint p [+ c]) & m == 0)``
    become bundles: True when the condition is to be removed from ``ii``, None otherwise."""
    cond = ii.get_arg(0)
    if not isinstance(cond, CmpInst) or not _is_zero(cond.get_operand(1)):
        return None
    a = cond.get_operand(0)
    keyword = cond.predicate.keyword
    if keyword == "ne" and cond.opcode == "icmp" and a.type.is_pointer and nxt is not None:
        repl = build_assume_from_knowledge([RetainedKnowledge(AttrKind.NON_NULL, 0, a)], nxt, ic.ac, ic.dt)
        if repl is not None:
            repl.insert_before(nxt)
            if ic.ac is not None:
                ic.ac.register_assumption(repl)
            return True
        return None
    if keyword != "eq" or cond.opcode != "icmp" or getattr(a, "opcode", None) != "and":
        return None
    masked, mask_c = a.get_operand(0), a.get_operand(1)  # type: ignore[attr-defined]
    if not isinstance(mask_c, ConstantInt) or mask_c.type.width > 64:
        return None
    mask = mask_c.value & _MASK64
    if ((mask + 1) & _MASK64) == 0 or (mask + 1) & mask:
        return None
    offset = 0
    if getattr(masked, "opcode", None) == "add":
        off_c = masked.get_operand(1)
        if isinstance(off_c, ConstantInt) and off_c.type.width <= 64:
            offset = off_c.value & _MASK64
            masked = masked.get_operand(0)
    if getattr(masked, "opcode", None) != "ptrtoint":
        return None
    ptr = masked.get_operand(0)
    both = offset | (mask + 1)
    align = (both & -both) & 0xFFFFFFFF  # MinAlign, kept in an unsigned as LLVM does
    repl = build_assume_from_knowledge([RetainedKnowledge(AttrKind.ALIGNMENT, align, ptr)], ii, ic.ac, ic.dt)
    if repl is not None:
        repl.insert_after(ii)
        if ic.ac is not None:
            ic.ac.register_assumption(repl)
    return True


def canonicalize_knowledge_bundles(ic: InstCombiner, ii: CallInst) -> Instruction | None:
    """Each bundle's fact simplified (LLVM's "Canonicalize Knowledge in operand bundles"):
    ``ii`` when a bundle was rewritten (it is revisited), else None."""
    for index, (_tag, begin, end) in enumerate(ii.operand_bundle_ranges):
        rk = get_knowledge_from_bundle(ii, index)
        if end - begin > 2:
            continue  # an align with an offset: its knowledge would lose the offset
        canon = simplify_retained_knowledge(ii, rk, ic.ac, ic.dt) if rk is not None else None
        if rk is not None and canon == rk:
            continue
        if canon is None:
            if end - begin > 0:
                ic.worklist.push_value(ii.get_operand(begin))
                drop_droppable_use(ii._operands[begin])
            continue
        assert rk is not None and canon.kind is rk.kind
        if end - begin > 0 and canon.was_on is not None:
            ii._operands[begin].set(canon.was_on)
        if end - begin > 1:
            ii._operands[begin + 1].set(ConstantInt.get(ii.type.context.i64, canon.arg))
        if rk.was_on is not None:
            ic.worklist.push_value(rk.was_on)
        return ii
    return None
