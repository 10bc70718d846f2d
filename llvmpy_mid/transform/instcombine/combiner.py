"""The state every InstCombine fold works with (LLVM ``InstCombiner`` and
``InstCombinerImpl``, ``llvm/include/llvm/Transforms/InstCombine/InstCombiner.h``
and ``lib/Transforms/InstCombine/InstCombineInternal.h``).

One :class:`InstCombiner` lives for one iteration over one function. A fold
(``visit_*`` function of a family module) receives it and the instruction, and
returns as LLVM's visitors do:

* ``None`` — nothing changed;
* the instruction itself — it was changed in place, or its uses were replaced
  (:meth:`InstCombiner.replace_inst_uses_with` returns it) and the driver
  deletes it when it is dead;
* a new, not yet inserted instruction — the driver inserts it before the old
  one, moves the uses and the name to it, and deletes the old one.

New instructions that a fold needs beside its result are made with
:attr:`InstCombiner.builder` (an :class:`~llvmpy_mid.ir.builder.IRBuilder`
with LLVM's ``TargetFolder``, positioned before the instruction being visited,
carrying its debug location); the builder puts each one on the worklist.

Options: InstCombine's ``cl::opt`` settings (``-instcombine-max-num-phis``,
``-disable-i2p-p2i-opt``, ...) are declared in ``passes/registry.py`` and read
with :func:`option` (``option("instcombine-max-num-phis")`` -> 512 unless the
command line or ``run_passes(options=...)`` set it). Read it where LLVM reads
the ``cl::opt``; it is a dictionary lookup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits, masked_value_is_zero
from llvmpy_mid.analysis.known_non_zero import is_known_to_be_a_power_of_two
from llvmpy_mid.analysis.num_sign_bits import compute_max_significant_bits, compute_num_sign_bits
from llvmpy_mid.analysis.constant_range import OverflowResult
from llvmpy_mid.analysis.overflow_analysis import (
    compute_overflow_for_signed_add,
    compute_overflow_for_signed_mul,
    compute_overflow_for_signed_sub,
    compute_overflow_for_unsigned_add,
    compute_overflow_for_unsigned_mul,
    compute_overflow_for_unsigned_sub,
)
from llvmpy_mid.analysis.alias.aa_results import AAResults
from llvmpy_mid.analysis.dom_condition_cache import DomConditionCache
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.constants import PoisonValue
from llvmpy_mid.passes.options import OPTIONS, OptionValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.builder import IRBuilder
    from llvmpy_mid.ir.value import Use
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.transform.utils.instruction_worklist import InstructionWorklist


class InstCombiner:
    """What a fold may read and the combiner-aware ways to change the IR."""

    __slots__ = (
        "fn",
        "worklist",
        "builder",
        "dl",
        "tli",
        "ac",
        "dt",
        "sq",
        "_sq_plain",
        "min_size",
        "made_ir_change",
        "loop_info",
        "extra",
        "dead_edges",
        "dc",
        "max_array_size",
        "aa",
        "ore",
    )

    def __init__(
        self,
        fn: Function,
        worklist: InstructionWorklist,
        builder: IRBuilder,
        dl: DataLayout,
        tli: TargetLibraryInfo | None,
        ac: AssumptionCache | None,
        dt: DominatorTree,
        *,
        min_size: bool = False,
        loop_info: object | None = None,
        aa: AAResults | None = None,
        ore: OptimizationRemarkEmitter | None = None,
    ) -> None:
        self.fn = fn
        self.ore = ore
        """The function's remark emitter (LLVM ``ORE``); None: remarks are dropped."""
        self.worklist = worklist
        self.builder = builder
        self.dl = dl
        self.tli = tli
        self.ac = ac
        self.dt = dt
        self.dc = DomConditionCache()
        """The conditional branches visited so far in this iteration (LLVM's ``DC``): known bits
        use the conditions of those whose edges dominate the context instruction."""
        self.sq = SimplifyQuery(dl, tli, dt, ac, dc=self.dc)
        # sign bits and powers of two are asked without TLI and dominating conditions, as
        # InstCombiner's wrappers build a fresh SimplifyQuery(DL, DT, AC, CxtI) for them
        self._sq_plain = SimplifyQuery(dl, None, dt, ac)
        """The base query (no context instruction); :meth:`query` adds one."""
        self.min_size = min_size
        self.made_ir_change = False
        self.loop_info = loop_info
        self.extra: dict[str, object] = {}
        """Per-iteration caches a fold family may keep (keyed by the family's name)."""
        self.dead_edges: set[tuple[BasicBlock, BasicBlock]] = set()
        """CFG edges known never taken in this iteration (LLVM ``DeadEdges``)."""
        self.max_array_size = int(option("instcombine-maxarray-size"))
        """``MaxArraySizeForCombine`` (``-instcombine-maxarray-size``)."""
        self.aa: AAResults = aa if aa is not None else AAResults(tli)
        """The function's alias analysis (LLVM's ``AA``, the ``AAManager`` result); without
        one, a chain with no providers (every answer the conservative one)."""

    # --- queries --------------------------------------------------------------------------
    def query(self, cxt_i: Instruction | None) -> SimplifyQuery:
        """``SQ.getWithInstruction(cxt_i)``."""
        return self.sq.get_with_instruction(cxt_i)

    def compute_known_bits(self, v: Value, depth: int = 0, cxt_i: Instruction | None = None) -> KnownBits:
        return compute_known_bits(v, self.sq.get_with_instruction(cxt_i), depth)

    def masked_value_is_zero(self, v: Value, mask: int, depth: int = 0, cxt_i: Instruction | None = None) -> bool:
        return masked_value_is_zero(v, mask, self.sq.get_with_instruction(cxt_i), depth)

    def compute_num_sign_bits(self, v: Value, depth: int = 0, cxt_i: Instruction | None = None) -> int:
        return compute_num_sign_bits(v, self._plain_query(v, cxt_i), depth)

    def compute_max_significant_bits(self, v: Value, depth: int = 0, cxt_i: Instruction | None = None) -> int:
        return compute_max_significant_bits(v, self._plain_query(v, cxt_i), depth)

    def is_known_to_be_a_power_of_two(
        self, v: Value, or_zero: bool = False, depth: int = 0, cxt_i: Instruction | None = None
    ) -> bool:
        return is_known_to_be_a_power_of_two(v, self._plain_query(v, cxt_i), or_zero, depth)

    def _plain_query(self, v: Value, cxt_i: Instruction | None) -> SimplifyQuery:
        """``SimplifyQuery(DL, DT, AC, safeCxtI(V, CxtI))``: no TLI, no dominating conditions."""
        if cxt_i is None or cxt_i.parent is None:
            cxt_i = v if isinstance(v, Instruction) and v.parent is not None else None
        return self._sq_plain.get_with_instruction(cxt_i)

    def compute_overflow_for_unsigned_mul(self, lhs: Value, rhs: Value, cxt_i: Instruction) -> OverflowResult:
        return compute_overflow_for_unsigned_mul(lhs, rhs, self.sq.get_with_instruction(cxt_i))

    def compute_overflow_for_signed_mul(self, lhs: Value, rhs: Value, cxt_i: Instruction) -> OverflowResult:
        return compute_overflow_for_signed_mul(lhs, rhs, self.sq.get_with_instruction(cxt_i))

    def compute_overflow_for_unsigned_add(self, lhs: Value, rhs: Value, cxt_i: Instruction) -> OverflowResult:
        return compute_overflow_for_unsigned_add(lhs, rhs, self.sq.get_with_instruction(cxt_i))

    def compute_overflow_for_signed_add(self, lhs: Value, rhs: Value, cxt_i: Instruction) -> OverflowResult:
        return compute_overflow_for_signed_add(lhs, rhs, self.sq.get_with_instruction(cxt_i))

    def compute_overflow_for_unsigned_sub(self, lhs: Value, rhs: Value, cxt_i: Instruction) -> OverflowResult:
        return compute_overflow_for_unsigned_sub(lhs, rhs, self.sq.get_with_instruction(cxt_i))

    def compute_overflow_for_signed_sub(self, lhs: Value, rhs: Value, cxt_i: Instruction) -> OverflowResult:
        return compute_overflow_for_signed_sub(lhs, rhs, self.sq.get_with_instruction(cxt_i))

    # --- changing the IR ------------------------------------------------------------------
    def add_to_worklist(self, i: Instruction) -> None:
        """``addToWorklist``: push ``i`` on the stack."""
        self.worklist.push(i)

    def insert_new_inst_before(self, new: Instruction, old: Instruction) -> Instruction:
        """``InsertNewInstBefore``: insert the detached ``new`` before ``old`` and defer it."""
        new.insert_before(old)
        self.worklist.add(new)
        return new

    def insert_new_inst_with(self, new: Instruction, old: Instruction) -> Instruction:
        """``InsertNewInstWith``: as :meth:`insert_new_inst_before`, taking ``old``'s debug location."""
        new.debug_loc = old.debug_loc
        return self.insert_new_inst_before(new, old)

    def replace_inst_uses_with(self, i: Instruction, v: Value) -> Instruction | None:
        """``replaceInstUsesWith``: every use of ``i`` now uses ``v``; returns ``i``
        (None when ``i`` had no uses: nothing changed)."""
        if i._use_head is None:
            return None
        self.worklist.push_users_to_worklist(i)
        if v is i:
            v = PoisonValue.get(i.type)
        if v._use_head is None and isinstance(v, Instruction) and not v.name and i.name:
            take_name(v, i)
        i.replace_all_uses_with(v)
        return i

    def replace_operand(self, i: Instruction, op_num: int, v: Value) -> Instruction:
        """``replaceOperand``: set operand ``op_num`` of ``i`` to ``v``; the old operand is revisited."""
        old = i.operands[op_num]
        i.set_operand(op_num, v)
        self.worklist.handle_use_count_decrement(old)
        return i

    def replace_use(self, use: Use, v: Value) -> None:
        """``replaceUse``: the slot ``use`` now holds ``v``; the old value is revisited."""
        old = use.value
        use.set(v)
        self.worklist.handle_use_count_decrement(old)

    # --- dead edges and blocks (InstructionCombining.cpp) -----------------------------------
    def add_dead_edge(self, frm: BasicBlock, to: BasicBlock, blocks: list[BasicBlock]) -> None:
        """``addDeadEdge``: ``to``'s phis get poison from ``frm``; ``to`` may now be dead."""
        key = (frm, to)
        if key in self.dead_edges:
            return
        self.dead_edges.add(key)
        for pn in to.phis():
            incoming = pn.incoming_blocks
            for idx, use in enumerate(pn.operand_uses):
                if incoming[idx] is frm and not isinstance(use.value, PoisonValue):
                    self.replace_use(use, PoisonValue.get(pn.type))
                    self.worklist.add(pn)
                    self.made_ir_change = True
        blocks.append(to)

    def handle_unreachable_from(self, i: Instruction, blocks: list[BasicBlock]) -> None:
        """``handleUnreachableFrom``: ``i`` and what follows it up to the terminator never run."""
        from llvmpy_mid.transform.utils.local import handle_unreachable_terminator

        bb = i.parent
        assert bb is not None
        term = bb.terminator
        assert term is not None
        node = term.prev_instruction if i is not term else None  # from the terminator: nothing before it goes
        while node is not None:
            prev = node.prev_instruction
            is_token = node.type.is_token
            if node._use_head is not None and not is_token:
                self.replace_inst_uses_with(node, PoisonValue.get(node.type))
                self.made_ir_change = True
            if not (node.is_eh_pad or is_token):
                for r in node.take_dbg_records():
                    r.drop_references()
                self.erase_inst_from_function(node)
                self.made_ir_change = True
            if node is i:
                break
            node = prev
        poisoned: list[Value] = []
        if handle_unreachable_terminator(term, poisoned):
            self.made_ir_change = True
            for v in poisoned:
                self.worklist.add(v)  # type: ignore[arg-type]
        for succ in bb.successors:
            self.add_dead_edge(bb, succ, blocks)

    def handle_potentially_dead_blocks(self, blocks: list[BasicBlock]) -> None:
        """``handlePotentiallyDeadBlocks``: a block whose every edge in is dead (or a back edge
        it dominates) is unreachable from its first instruction on."""
        dead = self.dead_edges
        dt = self.dt
        while blocks:
            bb = blocks.pop()
            if not all((p, bb) in dead or dt.dominates_block(bb, p) for p in bb.predecessors):
                continue
            first = bb.instructions.first
            assert first is not None
            self.handle_unreachable_from(first, blocks)

    def handle_potentially_dead_successors(self, bb: BasicBlock, live_succ: BasicBlock | None) -> None:
        """``handlePotentiallyDeadSuccessors``: every edge out of ``bb`` but to ``live_succ`` is dead."""
        blocks: list[BasicBlock] = []
        for succ in bb.successors:
            if succ is live_succ:
                continue
            self.add_dead_edge(bb, succ, blocks)
        self.handle_potentially_dead_blocks(blocks)

    def erase_inst_from_function(self, i: Instruction) -> None:
        """``eraseInstFromFunction``: the driver's erasure (operands revisited, debug
        uses salvaged, the worklist cleaned). Returns None, as LLVM's returns nullptr."""
        from llvmpy_mid.transform.instcombine.driver import erase_inst_from_function

        erase_inst_from_function(self, i)

    # --- demanded bits / elements (InstCombineSimplifyDemanded) ------------------------------
    def simplify_demanded_bits(self, i: Instruction, op_num: int, demanded: int, known: KnownBits, depth: int = 0) -> bool:
        """``SimplifyDemandedBits(I, OpNo, DemandedMask, Known, Depth)``: True when the operand was replaced."""
        from llvmpy_mid.transform.instcombine.simplify_demanded import simplify_demanded_bits

        return simplify_demanded_bits(self, i, op_num, demanded, known, depth)

    def simplify_demanded_instruction_bits(self, i: Instruction) -> bool:
        """``SimplifyDemandedInstructionBits(I)``: all bits demanded."""
        from llvmpy_mid.transform.instcombine.simplify_demanded import simplify_demanded_instruction_bits

        return simplify_demanded_instruction_bits(self, i)


def option(name: str) -> OptionValue:
    """The value in force of the pass option ``name`` (an InstCombine ``cl::opt``)."""
    import llvmpy_mid.passes.registry  # noqa: F401  (declares the built-in options)

    return OPTIONS.value(name)


def take_name(new: Value, old: Value) -> None:
    """``new->takeName(old)`` (:meth:`Value.take_name`)."""
    new.take_name(old)


__all__ = ["InstCombiner", "option", "take_name"]
