"""Underlying objects of pointers (LLVM 19.1.7 ``llvm/lib/Analysis/ValueTracking.cpp``:
``getUnderlyingObject``, ``getUnderlyingObjects``; ``GetPointerBaseWithConstantOffset``
from ``llvm/include/llvm/Analysis/ValueTracking.h``): through GEPs, pointer casts,
non-interposable aliases, one-input phis and calls returning an argument, with
LLVM's lookup limit. Import them from :mod:`llvmpy_mid.analysis.value_tracking`.

What it does not do (yet): loop-aware phi handling (LLVM's ``LoopInfo`` argument).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.value_tracking_support import (
    _opcode,
    _operand,
    get_argument_aliasing_to_returned_pointer,
)
from llvmpy_mid.ir.global_value import GlobalAlias
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets
from llvmpy_mid.ir.types import PointerType

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import LoopInfo
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.instructions.memory import AllocaInst
    from llvmpy_mid.ir.value import Value


def get_underlying_object(v: Value, max_lookup: int = 6) -> Value:
    """The object ``v`` points into, looking through GEPs, casts, aliases,
    one-input phis and calls returning an argument, ``max_lookup`` steps at
    most (0: no limit) (LLVM ``getUnderlyingObject``)."""
    if not isinstance(v.type, PointerType):
        return v
    count = 0
    while max_lookup == 0 or count < max_lookup:
        count += 1
        op = _opcode(v)
        if op == "getelementptr":
            v = _operand(v, 0)
        elif op in ("bitcast", "addrspacecast"):
            nv = _operand(v, 0)
            if not isinstance(nv.type, PointerType):
                return v
            v = nv
        elif isinstance(v, GlobalAlias):
            if v.is_interposable:
                return v
            v = v.aliasee
        else:
            if isinstance(v, PHINode):
                if v.num_incoming == 1:
                    v = v.get_incoming_value(0)
                    continue
            elif isinstance(v, CallBase):
                rp = get_argument_aliasing_to_returned_pointer(v, False)
                if rp is not None:
                    v = rp
                    continue
            return v
    return v


def get_underlying_object_aggressive(v: Value) -> Value:
    """The one object ``v`` points into, looking through selects and phis too (at most
    8 distinct values visited); where they disagree, ``get_underlying_object(v)``
    (LLVM ``getUnderlyingObjectAggressive``)."""
    first_object = get_underlying_object(v)
    visited: set[Value] = set()
    worklist: list[Value] = [v]
    obj: Value | None = None
    first = True
    while worklist:
        p = worklist.pop()
        p = first_object if first else get_underlying_object(p)
        first = False
        if p in visited:
            continue
        visited.add(p)
        if len(visited) == 8:
            return first_object
        if isinstance(p, SelectInst):
            worklist.append(p.true_value)
            worklist.append(p.false_value)
            continue
        if isinstance(p, PHINode):
            worklist.extend(p.incoming_values)
            continue
        if obj is None:
            obj = p
        elif obj is not p:
            return first_object
    assert obj is not None
    return obj


def get_underlying_objects(v: Value, max_lookup: int = 6, li: LoopInfo | None = None) -> list[Value]:
    """Every object ``v`` may point into, through selects and phis too (LLVM
    ``getUnderlyingObjects``). With loop info, a loop-header phi whose value from the
    loop is a load of a pointer that changes in the loop is an object itself (it may
    name a different object on each iteration)."""
    visited: set[int] = set()
    objects: list[Value] = []
    work = [v]
    while work:
        p = get_underlying_object(work.pop(), max_lookup)
        if id(p) in visited:
            continue
        visited.add(id(p))
        if isinstance(p, SelectInst):
            work.append(p.true_value)
            work.append(p.false_value)
            continue
        if isinstance(p, PHINode):
            parent = p.parent
            if li is None or parent is None or not li.is_loop_header(parent) or _same_object_in_loop(p, li):
                work.extend(p.incoming_values)
            else:
                objects.append(p)
            continue
        objects.append(p)
    return objects


def _same_object_in_loop(pn: PHINode, li: LoopInfo) -> bool:
    """LLVM ``isSameUnderlyingObjectInLoop``: the phi's value from the loop is not a load
    through a pointer that varies in the loop."""
    parent = pn.parent
    assert parent is not None
    loop = li.loop_for(parent)
    if pn.num_incoming != 2:
        return True
    prev = pn.get_incoming_value(0)
    if not isinstance(prev, Instruction) or prev.parent is None or li.loop_for(prev.parent) is not loop:
        prev = pn.get_incoming_value(1)
    if not isinstance(prev, Instruction) or prev.parent is None or li.loop_for(prev.parent) is not loop:
        return True
    if prev.opcode == "load" and loop is not None:
        ptr = prev.get_operand(0)
        if isinstance(ptr, Instruction) and loop.contains(ptr):
            return False
    return True


def get_pointer_base_with_constant_offset(
    ptr: Value, dl: DataLayout, allow_non_inbounds: bool = True
) -> tuple[Value, int]:
    """``(base, offset)`` with ``ptr == base + offset`` bytes (LLVM
    ``GetPointerBaseWithConstantOffset``, a wrapper of ``stripAndAccumulateConstantOffsets``)."""
    return strip_and_accumulate_constant_offsets(ptr, dl, allow_non_inbounds)


def find_alloca_for_value(v: Value, offset_zero: bool = False) -> AllocaInst | None:
    """The one alloca ``v`` is derived from through casts, phis, selects, GEPs (only
    all-zero ones when ``offset_zero``) and calls returning an argument, or None when
    there is none or more than one (LLVM ``findAllocaForValue``)."""
    from llvmpy_mid.ir.instructions.casts import CastInst
    from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
    from llvmpy_mid.ir.instructions.memory import AllocaInst as _Alloca
    from llvmpy_mid.ir.pointer_casts import get_returned_arg_operand

    result: AllocaInst | None = None
    seen: set[int] = {id(v)}
    work: list[Value] = [v]

    def add(x: Value) -> None:
        if id(x) not in seen:
            seen.add(id(x))
            work.append(x)

    while work:
        cur = work.pop()
        if isinstance(cur, _Alloca):
            if result is not None and result is not cur:
                return None
            result = cur
        elif isinstance(cur, CastInst):
            add(cur.operands[0])
        elif isinstance(cur, PHINode):
            for inc in cur.incoming_values:
                add(inc)
        elif isinstance(cur, SelectInst):
            add(cur.true_value)
            add(cur.false_value)
        elif isinstance(cur, GetElementPtrInst):
            if offset_zero and not cur.has_all_zero_indices:
                return None
            add(cur.pointer_operand)
        elif isinstance(cur, CallBase):
            returned = get_returned_arg_operand(cur)
            if returned is None:
                return None
            add(returned)
        else:
            return None
    return result
