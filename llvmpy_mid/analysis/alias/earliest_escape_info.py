"""Capture information that knows *where* an object escapes (LLVM 19.1.7
``EarliestEscapeInfo`` in ``lib/Analysis/BasicAliasAnalysis.cpp`` and
``FindEarliestCapture`` in ``lib/Analysis/CaptureTracking.cpp``).

:func:`find_earliest_capture` walks an object's uses and returns the nearest common
dominator of every capturing instruction (returns do not capture here; too many uses
give the function's first instruction). :class:`EarliestEscapeInfo` caches that
instruction per identified function-local object and answers "is ``obj`` not yet
captured before ``inst``?": yes when no capture exists, or when the capture cannot
reach ``inst`` (at the capture itself, when it is not in a cycle and ``or_at`` is
false). A pass that deletes instructions calls :meth:`EarliestEscapeInfo.remove_instruction`
so that objects whose earliest capture was deleted are recomputed.

The reachability queries use the dominator tree and, when given, LoopInfo (as LLVM).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.alias.aa_results import CaptureInfo
from llvmpy_mid.analysis.capture_tracking import CaptureTracker, pointer_may_be_captured_by
from llvmpy_mid.analysis.cfg import is_potentially_reachable_from_many, is_potentially_reachable_inst
from llvmpy_mid.analysis.loads import is_identified_function_local
from llvmpy_mid.ir.instruction import Instruction

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import LoopInfo
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.value import Use, Value

__all__ = ["EarliestEscapeInfo", "find_earliest_capture", "nearest_common_dominator_inst"]


def nearest_common_dominator_inst(dt: DominatorTree, i1: Instruction, i2: Instruction) -> Instruction:
    """LLVM ``DominatorTree::findNearestCommonDominator(Instruction *, Instruction *)``."""
    bb1 = i1.parent
    bb2 = i2.parent
    assert bb1 is not None and bb2 is not None
    if bb1 is bb2:
        return i1 if i1.comes_before(i2) else i2
    if not dt.is_reachable(bb2):
        return i1
    if not dt.is_reachable(bb1):
        return i2
    dom = dt.nearest_common_dominator(bb1, bb2)
    assert dom is not None
    if dom is bb1:
        return i1
    if dom is bb2:
        return i2
    term = dom.terminator
    assert term is not None
    return term


class _EarliestCaptures(CaptureTracker):
    def __init__(self, return_captures: bool, fn: Function, dt: DominatorTree) -> None:
        self.return_captures = return_captures
        self.fn = fn
        self.dt = dt
        self.earliest: Instruction | None = None
        self.is_captured = False

    def too_many_uses(self) -> None:
        self.is_captured = True
        entry = self.fn.entry_block
        self.earliest = entry.first_instruction if entry is not None else None

    def captured(self, use: Use) -> bool:
        inst = use.user
        assert isinstance(inst, Instruction)
        if inst.opcode == "ret" and not self.return_captures:
            return False
        if self.earliest is None:
            self.earliest = inst
        else:
            self.earliest = nearest_common_dominator_inst(self.dt, self.earliest, inst)
        self.is_captured = True
        return False


def find_earliest_capture(v: Value, fn: Function, return_captures: bool, dt: DominatorTree) -> Instruction | None:
    """The instruction dominating every capture of ``v``, or None if it is not captured."""
    tracker = _EarliestCaptures(return_captures, fn, dt)
    pointer_may_be_captured_by(v, tracker)
    return tracker.earliest


def _is_not_in_cycle(inst: Instruction, dt: DominatorTree, li: LoopInfo | None) -> bool:
    bb = inst.parent
    assert bb is not None
    succs = list(bb.successors)
    return not succs or not is_potentially_reachable_from_many(succs, bb, None, dt, li)


class EarliestEscapeInfo(CaptureInfo):
    """Position-aware capture information (see the module docstring)."""

    __slots__ = ("dt", "li", "fn", "earliest_escapes", "inst_to_objects")

    def __init__(self, dt: DominatorTree, fn: Function, li: LoopInfo | None = None) -> None:
        self.dt = dt
        self.li = li
        self.fn = fn
        self.earliest_escapes: dict[Value, Instruction | None] = {}
        self.inst_to_objects: dict[Instruction, list[Value]] = {}

    def is_not_captured_before(self, obj: Value, inst: Instruction | None, or_at: bool) -> bool:
        if not is_identified_function_local(obj):
            return False
        if obj in self.earliest_escapes:
            earliest = self.earliest_escapes[obj]
        else:
            earliest = find_earliest_capture(obj, self.fn, False, self.dt)
            if earliest is not None:
                self.inst_to_objects.setdefault(earliest, []).append(obj)
            self.earliest_escapes[obj] = earliest
        if earliest is None:
            return True
        if inst is None:
            return False
        if inst is earliest:
            if or_at:
                return False
            return _is_not_in_cycle(inst, self.dt, self.li)
        return not is_potentially_reachable_inst(earliest, inst, None, self.dt, self.li)

    def remove_instruction(self, inst: Instruction) -> None:
        """Forget the objects whose earliest capture is ``inst`` (it is being deleted)."""
        objs = self.inst_to_objects.pop(inst, None)
        if objs is not None:
            for obj in objs:
                self.earliest_escapes.pop(obj, None)
