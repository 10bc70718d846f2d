"""Alloca lifetime analysis and ``print<stack-lifetime><may|must>`` (LLVM 19.1.7
``lib/Analysis/StackLifetime.cpp``, ``include/llvm/Analysis/StackLifetime.h``).

What: :class:`StackLifetime` numbers the "interesting" instructions of the blocks reachable
from the entry (in depth-first preorder): each block's entry, then the ``llvm.lifetime.start``
and ``llvm.lifetime.end`` markers that name one whole alloca. A fixed point over the CFG gives
each block's live-in and live-out allocas — *may* be alive on some path, or *must* be alive on
every path — and each alloca a :class:`LiveRange` (the set of interesting instructions where it
is alive). An alloca with no start marker is alive everywhere; a marker that cannot be tied to
one alloca makes every range the most conservative one. ``print<stack-lifetime>`` writes the
function with ``; Alive: <names>`` after each block label and after each instruction.
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.analysis.depth_first import depth_first
from llvmpy_mid.asm.printer import AssemblyAnnotationWriter, print_function
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

MAY = "may"
MUST = "must"

_LIFETIME_START = "llvm.lifetime.start"
_LIFETIME_END = "llvm.lifetime.end"


def is_lifetime_start_or_end(inst: Instruction) -> bool:
    """``IntrinsicInst::isLifetimeStartOrEnd``."""
    return isinstance(inst, CallBase) and inst.intrinsic_base in (_LIFETIME_START, _LIFETIME_END)


def depth_first_blocks(fn: Function) -> list[BasicBlock]:
    """The blocks reachable from the entry in LLVM's ``depth_first`` preorder."""
    if not fn.blocks:
        return []
    return depth_first(fn.entry_block)


def alloca_allocation_size(ai: AllocaInst) -> int | None:
    """``AllocaInst::getAllocationSize`` in bytes (the known minimum for a scalable type),
    None for a non-constant or overflowing element count."""
    module = ai.module
    if module is None:
        return None
    size: int = module.data_layout.type_alloc_size(ai.allocated_type)
    if ai.is_array_allocation:
        n = ai.array_size
        if not isinstance(n, ConstantInt):
            return None
        size *= n.zext_value
        if size >= 1 << 64:
            return None
    return size


def _find_matching_alloca(call: CallBase) -> AllocaInst | None:
    """The one alloca a lifetime marker names, if the marker covers all of it from its start."""
    from llvmpy_mid.analysis.underlying_objects import find_alloca_for_value

    if call.num_args < 2:
        return None
    ai = find_alloca_for_value(call.get_arg(1), True)
    if ai is None:
        return None
    alloca_size = alloca_allocation_size(ai)
    if alloca_size is None:
        return None
    size = call.get_arg(0)
    if not isinstance(size, ConstantInt):
        return None
    lifetime_size = size.sext_value
    if lifetime_size != -1 and (lifetime_size & ((1 << 64) - 1)) != alloca_size:
        return None
    return ai


class LiveRange:
    """The interesting instructions (by number) where an alloca is alive (a bit set)."""

    __slots__ = ("bits", "size")

    def __init__(self, size: int, full: bool = False) -> None:
        self.size = size
        self.bits = (1 << size) - 1 if full else 0

    def add_range(self, start: int, end: int) -> None:
        if end > start:
            self.bits |= ((1 << (end - start)) - 1) << start

    def overlaps(self, other: LiveRange) -> bool:
        return (self.bits & other.bits) != 0

    def join(self, other: LiveRange) -> None:
        self.bits |= other.bits

    def test(self, idx: int) -> bool:
        return (self.bits >> idx) & 1 == 1

    def __str__(self) -> str:
        return "".join("1" if self.test(i) else "0" for i in range(self.size))


class _BlockInfo:
    __slots__ = ("begin", "end", "live_in", "live_out")

    def __init__(self) -> None:
        self.begin = 0
        self.end = 0
        self.live_in = 0
        self.live_out = 0


class StackLifetime:
    """Liveness of ``allocas`` in ``fn`` (LLVM ``StackLifetime``); ``kind`` is :data:`MAY`
    or :data:`MUST`. Call :meth:`run` before asking."""

    def __init__(self, fn: Function, allocas: list[AllocaInst], kind: str = MUST) -> None:
        self.function = fn
        self.kind = kind
        self.allocas = list(allocas)
        self.num_allocas = len(self.allocas)
        self.alloca_numbering: dict[AllocaInst, int] = {ai: i for i, ai in enumerate(self.allocas)}
        self.instructions: list[Instruction | None] = []
        self.block_inst_range: dict[BasicBlock, tuple[int, int]] = {}
        self.block_liveness: dict[BasicBlock, _BlockInfo] = {}
        self.bb_markers: dict[BasicBlock, list[tuple[int, int, bool]]] = {}
        self.live_ranges: list[LiveRange] = []
        self.interesting_allocas = 0
        self.has_unknown_lifetime_start_or_end = False
        self._order: list[BasicBlock] = depth_first_blocks(fn)
        self._collect_markers()

    # --- construction ---------------------------------------------------------------------
    def _collect_markers(self) -> None:
        numbering = self.alloca_numbering
        block_markers: dict[BasicBlock, list[tuple[Instruction, int, bool]]] = {}
        for bb in self._order:
            for inst in bb.instructions:
                if not is_lifetime_start_or_end(inst):
                    continue
                assert isinstance(inst, CallBase)
                ai = _find_matching_alloca(inst)
                if ai is None:
                    self.has_unknown_lifetime_start_or_end = True
                    continue
                no = numbering.get(ai)
                if no is None:
                    continue
                is_start = inst.intrinsic_base == _LIFETIME_START
                if is_start:
                    self.interesting_allocas |= 1 << no
                block_markers.setdefault(bb, []).append((inst, no, is_start))

        instructions = self.instructions
        for bb in self._order:
            bb_start = len(instructions)
            instructions.append(None)
            info = self.block_liveness[bb] = _BlockInfo()
            markers = block_markers.get(bb)
            if markers:
                out = self.bb_markers[bb] = []
                for inst, no, is_start in markers:
                    out.append((len(instructions), no, is_start))
                    instructions.append(inst)
                    bit = 1 << no
                    if is_start:
                        info.end &= ~bit
                        info.begin |= bit
                    else:
                        info.begin &= ~bit
                        info.end |= bit
            self.block_inst_range[bb] = (bb_start, len(instructions))

    def run(self) -> None:
        n = len(self.instructions)
        if self.has_unknown_lifetime_start_or_end:
            full = self.kind == MAY
            self.live_ranges = [LiveRange(n, full) for _ in range(self.num_allocas)]
            return
        self.live_ranges = [
            LiveRange(n, not (self.interesting_allocas >> i) & 1) for i in range(self.num_allocas)
        ]
        self._calculate_local_liveness()
        self._calculate_live_intervals()

    def _calculate_local_liveness(self) -> None:
        all_bits = (1 << self.num_allocas) - 1
        must = self.kind == MUST
        liveness = self.block_liveness
        changed = True
        while changed:
            changed = False
            for bb in self._order:
                info = liveness[bb]
                bits_in = 0
                has_pred = False
                for pred in bb.predecessors:
                    p = liveness.get(pred)
                    if p is None:
                        continue
                    has_pred = True
                    bits_in |= p.live_out
                if must and not has_pred and self.num_allocas:
                    bits_in = all_bits
                if bits_in & ~info.live_in:
                    info.live_in |= bits_in
                if must:
                    bits_in = (bits_in & ~info.begin) | info.end
                else:
                    bits_in = (bits_in & ~info.end) | info.begin
                if bits_in & ~info.live_out:
                    changed = True
                    info.live_out |= bits_in
        if must:
            for info in liveness.values():
                info.live_in ^= all_bits
                info.live_out ^= all_bits

    def _calculate_live_intervals(self) -> None:
        ranges = self.live_ranges
        for bb in self._order:
            info = self.block_liveness[bb]
            bb_start, bb_end = self.block_inst_range[bb]
            started = 0
            start = [0] * self.num_allocas
            for no in range(self.num_allocas):
                if (info.live_in >> no) & 1:
                    started |= 1 << no
                    start[no] = bb_start
            for inst_no, no, is_start in self.bb_markers.get(bb, ()):
                bit = 1 << no
                if is_start:
                    if not started & bit:
                        started |= bit
                        start[no] = inst_no
                else:
                    if started & bit:
                        ranges[no].add_range(start[no], inst_no)
                        started &= ~bit
            for no in range(self.num_allocas):
                if (started >> no) & 1:
                    ranges[no].add_range(start[no], bb_end)

    # --- queries --------------------------------------------------------------------------
    def get_live_range(self, ai: AllocaInst) -> LiveRange:
        return self.live_ranges[self.alloca_numbering[ai]]

    def get_full_live_range(self) -> LiveRange:
        return LiveRange(len(self.instructions), True)

    def is_reachable(self, inst: Instruction) -> bool:
        """The instruction's block is reachable from the entry."""
        return inst.parent in self.block_inst_range

    def instruction_number(self, inst: Instruction) -> int:
        """The number of the last interesting instruction at or before ``inst`` in its block."""
        bb = inst.parent
        assert bb is not None
        lo, end = self.block_inst_range[bb]
        instructions = self.instructions
        # First marker after ``inst`` (upper bound), then one back.
        first, last = lo + 1, end
        while first < last:
            mid = (first + last) // 2
            marker = instructions[mid]
            assert marker is not None
            if marker is inst or marker.comes_before(inst):
                first = mid + 1
            else:
                last = mid
        return first - 1

    def is_alive_after(self, ai: AllocaInst, inst: Instruction) -> bool:
        """The alloca is alive right after ``inst`` (a reachable instruction)."""
        return self.get_live_range(ai).test(self.instruction_number(inst))

    def markers(self) -> list[Instruction]:
        return [i for i in self.instructions if i is not None]

    # --- printing -------------------------------------------------------------------------
    def print_text(self) -> str:
        return print_function(self.function, _LifetimeAnnotationWriter(self))


class _LifetimeAnnotationWriter(AssemblyAnnotationWriter):
    def __init__(self, sl: StackLifetime) -> None:
        self.sl = sl

    @staticmethod
    def _line(names: list[str]) -> str:
        return "  ; Alive: <" + " ".join(sorted(names)) + ">\n"

    def emit_basic_block_start_annot(self, bb: BasicBlock) -> str:
        sl = self.sl
        r = sl.block_inst_range.get(bb)
        if r is None:
            return ""
        no = r[0]
        return self._line([ai.name for ai, i in sl.alloca_numbering.items() if sl.live_ranges[i].test(no)])

    def print_info_comment(self, inst: Instruction) -> str:
        sl = self.sl
        if not sl.is_reachable(inst):
            return ""
        no = sl.instruction_number(inst)
        return "\n" + self._line([ai.name for ai, i in sl.alloca_numbering.items() if sl.live_ranges[i].test(no)])


def parse_stack_lifetime_options(params: str) -> str:
    """``may`` / ``must`` (opt-19's ``parseStackLifetimeOptions``; ``may`` by default)."""
    result = MAY
    rest = params
    while rest:
        item, _, rest = rest.partition(";")
        if item == MAY:
            result = MAY
        elif item == MUST:
            result = MUST
        else:
            raise PipelineError("invalid StackLifetime parameter '%s' " % item)
    return result


class StackLifetimePrinterPass(Pass[Function]):
    """``print<stack-lifetime><may|must>``: the function annotated with the allocas alive
    after each block entry and each instruction (written to stderr)."""

    name: ClassVar[str] = "print<stack-lifetime>"
    required: ClassVar[bool | None] = True

    def __init__(self, kind: str = MAY, stream: TextIO | None = None) -> None:
        self.kind = kind
        self.stream = stream

    @property
    def log_name(self) -> str:
        return "StackLifetimePrinterPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if unit.is_declaration:
            return PreservedAnalyses.all()
        allocas = [i for bb in unit.blocks for i in bb.instructions if isinstance(i, AllocaInst)]
        sl = StackLifetime(unit, allocas, self.kind)
        sl.run()
        out = self.stream if self.stream is not None else sys.stderr
        out.write(sl.print_text())
        return PreservedAnalyses.all()


class StackLifetimeMayPrinterPass(StackLifetimePrinterPass):
    """``print<stack-lifetime><may>``: allocas that may be alive on some path."""

    name: ClassVar[str] = "print<stack-lifetime><may>"

    def __init__(self, stream: TextIO | None = None) -> None:
        StackLifetimePrinterPass.__init__(self, MAY, stream)


class StackLifetimeMustPrinterPass(StackLifetimePrinterPass):
    """``print<stack-lifetime><must>``: allocas that are alive on every path."""

    name: ClassVar[str] = "print<stack-lifetime><must>"

    def __init__(self, stream: TextIO | None = None) -> None:
        StackLifetimePrinterPass.__init__(self, MUST, stream)


__all__ = [
    "StackLifetimeMayPrinterPass",
    "StackLifetimeMustPrinterPass",
    "MAY",
    "MUST",
    "LiveRange",
    "StackLifetime",
    "StackLifetimePrinterPass",
    "alloca_allocation_size",
    "depth_first_blocks",
    "is_lifetime_start_or_end",
    "parse_stack_lifetime_options",
]
