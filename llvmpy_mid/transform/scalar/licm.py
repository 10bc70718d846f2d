"""``licm`` and ``lnicm``: loop-invariant code motion (LLVM 19.1.7
``lib/Transforms/Scalar/LICM.cpp``).

What: for one loop (``licm``, every loop innermost first) or one loop nest (``lnicm``, the
outermost loop with its inner loops' blocks), with MemorySSA (both require ``loop-mssa``):

1. *sink* (when the exits are dedicated): the loop blocks are walked children before parents
   on the dominator tree, each block bottom-up; a dead instruction is deleted; an instruction
   without side effects whose only users are the LCSSA phis of the exit blocks (or that folds
   into addressing modes in the loop) and whose memory is not written in the loop is cloned
   into each exit block that uses it (``.le``), the exit phis split first where they merge
   several loop edges (``.split.loop.exit``);
2. *hoist* (when there is a preheader): the blocks in reverse post-order, each top-down: an
   instruction whose operands are loop invariant, whose memory the loop does not clobber and
   that may run unconditionally (speculatable, or guaranteed to execute) moves to the end of
   the preheader; ``fdiv arcp x, inv`` becomes ``fmul x, (1/inv)`` with the reciprocal
   hoisted; ``invariant.start`` and guards that run before any write move too; invariant
   phis and branches move with ``-licm-control-flow-hoisting``; otherwise the arithmetic
   reassociations of :mod:`~llvmpy_mid.transform.scalar.licm_arith` are tried;
3. *promote* (dedicated exits, a preheader, few enough memory accesses, no coroutine suspend):
   must-alias sets of loop-invariant pointers are promoted to registers
   (:mod:`~llvmpy_mid.transform.scalar.licm_promotion`), repeatedly, then LCSSA is rebuilt.

MemorySSA is kept up to date; the optimisation remarks ``Hoisted``, ``InstSunk``,
``LoadWithLoopInvariantAddressInvalidated`` and ``LoadWithLoopInvariantAddressCondExecuted``
are emitted as LLVM's; LLVM's statistics are counted. Loops marked ``llvm.licm.disable`` are
left alone.

When the loop standard results carry ScalarEvolution, moved values' block and loop
dispositions are forgotten, and the loop dispositions after a change (as LLVM).
``-licm-force-thread-model-single`` and the reassociation limits are declared here and read by
the promotion and arithmetic modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from llvmpy_mid.passes.pipeline_text import parse_flag_and_int_params
from llvmpy_mid.analysis.loop_info import Loop
from llvmpy_mid.analysis.must_execute import ICFLoopSafetyInfo, LoopSafetyInfo
from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
from llvmpy_mid.analysis.remark import optimization_remark, optimization_remark_missed
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic

if TYPE_CHECKING:
    from llvmpy_mid.analysis.memory_ssa import MemorySSA
    from llvmpy_mid.analysis.memory_ssa_access import MemoryAccess, MemoryUse
    from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
    from llvmpy_mid.analysis.loop_info import LoopInfo
    from llvmpy_mid.ir.dominators import DominatorTree

__all__ = [
    "DEBUG_TYPE",
    "LICMOptions",
    "LICMPass",
    "LNICMPass",
    "LoopInvariantCodeMotion",
    "SinkAndHoistLICMFlags",
    "can_sink_or_hoist_inst",
    "erase_instruction",
    "hoist_region",
    "is_safe_to_execute_unconditionally",
    "move_instruction_before",
    "parse_licm_options",
    "sink_region",
]

DEBUG_TYPE = "licm"


def _stat(name: str, desc: str) -> Statistic:
    return Statistic(DEBUG_TYPE, name, desc)


NUM_CREATED_BLOCKS = _stat("NumCreatedBlocks", "Number of blocks created")
NUM_CLONED_BRANCHES = _stat("NumClonedBranches", "Number of branches cloned")
NUM_SUNK = _stat("NumSunk", "Number of instructions sunk out of loop")
NUM_HOISTED = _stat("NumHoisted", "Number of instructions hoisted out of loop")
NUM_MOVED_LOADS = _stat("NumMovedLoads", "Number of load insts hoisted or sunk")
NUM_MOVED_CALLS = _stat("NumMovedCalls", "Number of call insts hoisted or sunk")
NUM_PROMOTION_CANDIDATES = _stat("NumPromotionCandidates", "Number of promotion candidates")
NUM_LOAD_PROMOTED = _stat("NumLoadPromoted", "Number of load-only promotions")
NUM_LOAD_STORE_PROMOTED = _stat("NumLoadStorePromoted", "Number of load and store promotions")
NUM_MIN_MAX_HOISTED = _stat("NumMinMaxHoisted", "Number of min/max expressions hoisted out of the loop")
NUM_GEPS_HOISTED = _stat("NumGEPsHoisted", "Number of geps reassociated and hoisted out of the loop")
NUM_ADD_SUB_HOISTED = _stat(
    "NumAddSubHoisted", "Number of add/subtract expressions reassociated and hoisted out of the loop"
)
NUM_FP_ASSOCIATIONS_HOISTED = _stat(
    "NumFPAssociationsHoisted", "Number of invariant FP expressions reassociated and hoisted out of the loop"
)
NUM_INT_ASSOCIATIONS_HOISTED = _stat(
    "NumIntAssociationsHoisted", "Number of invariant int expressions reassociated and hoisted out of the loop"
)

_HOISTABLE_OPCODES = frozenset(
    (
        "load store call fence trunc zext sext fptrunc fpext fptoui fptosi uitofp sitofp ptrtoint inttoptr "
        "bitcast addrspacecast fneg add fadd sub fsub mul fmul udiv sdiv fdiv urem srem frem shl lshr ashr and "
        "or xor select getelementptr icmp fcmp insertelement extractelement shufflevector extractvalue "
        "insertvalue freeze"
    ).split()
)


# --- options ---------------------------------------------------------------------------------


class LICMOptions:
    """``licm<allowspeculation|no-allowspeculation>`` plus the two caps (LLVM ``LICMOptions``);
    a cap left None is read from its option when the pass runs."""

    __slots__ = ("_mssa_opt_cap", "_mssa_no_acc_for_promotion_cap", "allow_speculation")

    def __init__(
        self,
        mssa_opt_cap: int | None = None,
        mssa_no_acc_for_promotion_cap: int | None = None,
        allow_speculation: bool = True,
    ) -> None:
        self._mssa_opt_cap = mssa_opt_cap
        self._mssa_no_acc_for_promotion_cap = mssa_no_acc_for_promotion_cap
        self.allow_speculation = allow_speculation

    @property
    def mssa_opt_cap(self) -> int:
        cap = self._mssa_opt_cap
        return int(OPTIONS.value("licm-mssa-optimization-cap")) if cap is None else cap

    @property
    def mssa_no_acc_for_promotion_cap(self) -> int:
        cap = self._mssa_no_acc_for_promotion_cap
        return int(OPTIONS.value("licm-mssa-max-acc-promotion")) if cap is None else cap


def parse_licm_options(params: str | None) -> LICMOptions:
    """``licm<...>`` / ``lnicm<...>`` as opt-19's ``parseLICMOptions`` reads them."""
    result = LICMOptions()
    values = parse_flag_and_int_params(params, "LICM", {"allowspeculation": result.allow_speculation})
    result.allow_speculation = bool(values["allowspeculation"])
    return result


# --- flags -------------------------------------------------------------------------------------


class SinkAndHoistLICMFlags:
    """LLVM ``SinkAndHoistLICMFlags``: whether we sink or hoist, how many clobber walks are
    left, and whether the loop has too many memory accesses for the costly checks."""

    __slots__ = ("licm_mssa_opt_counter", "licm_mssa_opt_cap", "no_acc_cap", "no_of_mem_acc_too_large", "is_sink")

    def __init__(self, opt_cap: int, no_acc_cap: int, is_sink: bool, loop: Loop, mssa: MemorySSA) -> None:
        self.licm_mssa_opt_counter = 0
        self.licm_mssa_opt_cap = opt_cap
        self.no_acc_cap = no_acc_cap
        self.is_sink = is_sink
        self.no_of_mem_acc_too_large = False
        count = 0
        for bb in loop.blocks:
            accesses = mssa.get_block_accesses(bb)
            if accesses is None:
                continue
            count += len(accesses)
            if count > no_acc_cap:
                self.no_of_mem_acc_too_large = True
                return

    def too_many_memory_accesses(self) -> bool:
        return self.no_of_mem_acc_too_large

    def too_many_clobbering_calls(self) -> bool:
        return self.licm_mssa_opt_counter >= self.licm_mssa_opt_cap

    def increment_clobbering_calls(self) -> None:
        self.licm_mssa_opt_counter += 1

    def get_is_sink(self) -> bool:
        return self.is_sink

    def set_is_sink(self, b: bool) -> None:
        self.is_sink = b


# --- small helpers ------------------------------------------------------------------------------


def _is_loop_invariant(loop: Loop, v: Value) -> bool:
    return not isinstance(v, Instruction) or not loop.contains(v)


def _has_loop_invariant_operands(loop: Loop, inst: Instruction) -> bool:
    for op in inst.operands:
        if isinstance(op, Instruction) and loop.contains(op):
            return False
    return True


def _in_sub_loop(bb: BasicBlock, loop: Loop, li: LoopInfo) -> bool:
    return li.loop_for(bb) is not loop


def _callee_name(inst: Instruction) -> str | None:
    if inst.opcode != "call":
        return None
    fn = getattr(inst, "called_function", None)
    return fn.name if fn is not None else None


def _is_intrinsic(inst: Instruction, name: str) -> bool:
    callee = _callee_name(inst)
    return callee is not None and (callee == name or callee.startswith(name + "."))


def _would_be_out_of_loop_use_requiring_lcssa(li: LoopInfo, v: Value, exit_bb: BasicBlock) -> bool:
    if v.type.is_token:
        return False
    if not isinstance(v, Instruction) or v.parent is None:
        return False
    loop = li.loop_for(v.parent)
    if loop is None:
        return False
    return not loop.contains(exit_bb)


def _has_disable_licm_transforms_hint(loop: Loop) -> bool:
    """``llvm.licm.disable`` in the loop's metadata (LLVM ``getBooleanLoopAttribute``)."""
    from llvmpy_mid.analysis.loop_info import _find_loop_option
    from llvmpy_mid.ir.constants import ConstantInt

    loop_id = loop.loop_id
    if loop_id is None:
        return False
    node = _find_loop_option(loop_id, "llvm.licm.disable")
    if node is None:
        return False
    ops = node.operands
    if len(ops) == 1:
        return True
    val = getattr(ops[1], "value", None)
    if isinstance(val, ConstantInt):
        return val.value != 0
    return False


def _collect_children_in_loop(header: BasicBlock, loop: Loop, dt: DominatorTree) -> list[BasicBlock]:
    """LLVM ``collectChildrenInLoop``: the loop's blocks dominated by ``header``, breadth first."""
    worklist = [header] if loop.contains(header) else []
    i = 0
    while i < len(worklist):
        for child in dt.children(worklist[i]):
            if loop.contains(child):
                worklist.append(child)
        i += 1
    return worklist


def _has_metadata_other_than_debug_loc(inst: Instruction) -> bool:
    return any(kind != "dbg" for kind, _ in inst.metadata_items())


def drop_location(inst: Instruction) -> None:
    """LLVM ``Instruction::dropLocation``: a call that may be lowered to a real call gets a
    line-0 location in its function's subprogram; anything else loses its location."""
    if inst.debug_loc is None:
        return
    may_lower_to_call = False
    if inst.opcode in ("call", "invoke", "callbr"):
        name = _callee_name(inst)
        may_lower_to_call = name is None or not name.startswith("llvm.") or _intrinsic_may_lower_to_call(name)
    if not may_lower_to_call:
        inst.debug_loc = None
        return
    from llvmpy_mid.ir.debug_info import DILocation, DINode

    fn = inst.function
    sp = fn.get_metadata("dbg") if fn is not None else None
    if not isinstance(sp, DINode) or sp.kind != "DISubprogram":
        inst.debug_loc = None
        return
    inst.debug_loc = DILocation.get(sp.context, 0, 0, sp, None)


_OBJC_RUNTIME_INTRINSICS = frozenset(
    "autorelease autoreleasePoolPop autoreleasePoolPush autoreleaseReturnValue copyWeak destroyWeak initWeak "
    "loadWeak loadWeakRetained moveWeak release retain retainAutorelease retainAutoreleaseReturnValue "
    "retainAutoreleasedReturnValue retainBlock storeStrong storeWeak unsafeClaimAutoreleasedReturnValue "
    "retainedObject unretainedObject unretainedPointer retain.autorelease sync.enter sync.exit".split()
)


def _intrinsic_may_lower_to_call(name: str) -> bool:
    """LLVM ``IntrinsicInst::mayLowerToFunctionCall``: the objc runtime intrinsics."""
    return name.startswith("llvm.objc.") and name[len("llvm.objc."):] in _OBJC_RUNTIME_INTRINSICS


# --- erase / move -------------------------------------------------------------------------------


def erase_instruction(inst: Instruction, safety_info: ICFLoopSafetyInfo, mssau: MemorySSAUpdater) -> None:
    """LLVM ``eraseInstruction``: drop its access, tell the safety info, erase it."""
    mssau.remove_memory_access(inst)
    safety_info.remove_instruction(inst)
    inst.erase_from_parent()


def move_instruction_before(
    inst: Instruction, dest: Instruction, safety_info: ICFLoopSafetyInfo, mssau: MemorySSAUpdater, se: Any = None
) -> None:
    """LLVM ``moveInstructionBefore``: ``inst`` goes just before ``dest``; its memory access
    moves before the terminator of ``dest``'s block."""
    from llvmpy_mid.analysis.memory_ssa import BEFORE_TERMINATOR

    bb = dest.parent
    assert bb is not None
    safety_info.remove_instruction(inst)
    safety_info.insert_instruction_to(inst, bb)
    inst.move_before(dest)
    access = mssau.get_memory_ssa().get_memory_access(inst)
    if access is not None:
        mssau.move_to_place(access, bb, BEFORE_TERMINATOR)
    if se is not None:
        forget = getattr(se, "forget_block_and_loop_dispositions", None)
        if forget is not None:
            forget(inst)


# --- legality -----------------------------------------------------------------------------------


def _is_load_invariant_in_loop(load: Instruction, dt: DominatorTree, loop: Loop) -> bool:
    """An unused ``invariant.start`` covering the loaded bytes dominates the loop (LLVM
    ``isLoadInvariantInLoop``)."""
    from llvmpy_mid.ir.constants import Constant, ConstantInt

    addr = load.get_operand(0)
    fn = load.function
    module = fn.parent if fn is not None else None
    if module is None:
        return False
    dl = module.data_layout
    if dl.is_scalable(load.type):
        return False
    if isinstance(addr, Constant):
        return False
    size_bits = dl.type_size_in_bits(load.type)
    visited = 0
    limit = int(OPTIONS.value("licm-max-num-uses-traversed"))
    for user in addr.users:
        visited += 1
        if visited > limit:
            return False
        if not isinstance(user, Instruction) or not _is_intrinsic(user, "llvm.invariant.start"):
            continue
        if user._use_head is not None:
            continue
        size = user.get_operand(0)
        if not isinstance(size, ConstantInt):
            continue
        if size.is_negative:
            continue
        sval = size.sext_value
        if size_bits <= sval * 8 and user.parent is not None and dt.properly_dominates(user.parent, loop.header):
            return True
    return False


def _is_read_only(mssau: MemorySSAUpdater, loop: Loop) -> bool:
    mssa = mssau.get_memory_ssa()
    for bb in loop.blocks:
        if mssa.get_block_defs(bb):
            return False
    return True


def _is_only_memory_access(inst: Instruction, loop: Loop, mssau: MemorySSAUpdater) -> bool:
    from llvmpy_mid.analysis.memory_ssa_access import MemoryPhi

    mssa = mssau.get_memory_ssa()
    for bb in loop.blocks:
        accs = mssa.get_block_accesses(bb)
        if not accs:
            continue
        not_a_phi = 0
        for acc in accs:
            if isinstance(acc, MemoryPhi):
                continue
            if acc.get_memory_inst() is not inst:  # type: ignore[attr-defined]
                return False
            not_a_phi += 1
            if not_a_phi - 1 == 1:
                return False
    return True


def _get_clobbering_memory_access(mssa: MemorySSA, baa: Any, flags: SinkAndHoistLICMFlags, ma: Any) -> MemoryAccess:
    if flags.too_many_clobbering_calls():
        return ma.get_defining_access()  # type: ignore[no-any-return]
    source = mssa.get_skip_self_walker().get_clobbering_memory_access(ma, baa)
    flags.increment_clobbering_calls()
    return source


def _pointer_invalidated_by_block(bb: BasicBlock, mssa: MemorySSA, mu: MemoryUse) -> bool:
    from llvmpy_mid.analysis.memory_ssa_access import MemoryDef

    defs = mssa.get_block_defs(bb)
    if defs:
        for ma in defs:
            if isinstance(ma, MemoryDef):
                if mu.block is not ma.block or not mssa.locally_dominates(ma, mu):
                    return True
    return False


def _pointer_invalidated_by_loop(
    mssa: MemorySSA, mu: MemoryUse, loop: Loop, inst: Instruction, flags: SinkAndHoistLICMFlags, invariant_group: bool
) -> bool:
    from llvmpy_mid.analysis.alias.aa_results import BatchAAResults
    from llvmpy_mid.analysis.memory_ssa_access import MemoryPhi

    if not flags.get_is_sink():
        baa = BatchAAResults(mssa.get_aa())
        source = _get_clobbering_memory_access(mssa, baa, flags, mu)
        return (
            not mssa.is_live_on_entry_def(source)
            and loop.contains(source.block)
            and not (invariant_group and source.block is loop.header and isinstance(source, MemoryPhi))
        )
    if flags.too_many_memory_accesses():
        return True
    for bb in loop.blocks:
        if _pointer_invalidated_by_block(bb, mssa, mu):
            return True
    if not loop.contains(inst):
        parent = inst.parent
        assert parent is not None
        return _pointer_invalidated_by_block(parent, mssa, mu)
    return False


def can_sink_or_hoist_inst(
    inst: Instruction,
    aa: Any,
    dt: DominatorTree,
    loop: Loop,
    mssau: MemorySSAUpdater,
    target_executes_once_per_loop: bool,
    flags: SinkAndHoistLICMFlags,
    ore: OptimizationRemarkEmitter | None,
) -> bool:
    """LLVM ``canSinkOrHoistInst``: ``inst`` is of a kind LICM moves and the loop does not
    write the memory it reads (nor read or write what it writes); speculation safety is the
    caller's business."""
    from llvmpy_mid.analysis.alias.aa_results import BatchAAResults, is_mod_or_ref_set, is_mod_set
    from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
    from llvmpy_mid.analysis.memory_ssa_access import MemoryDef, MemoryUse

    opcode = inst.opcode
    if opcode not in _HOISTABLE_OPCODES:
        return False
    mssa = mssau.get_memory_ssa()
    if opcode == "load":
        if not inst.is_unordered:  # type: ignore[attr-defined]
            return False
        ptr = inst.get_operand(0)
        if not is_mod_set(aa.get_mod_ref_info_mask(MemoryLocation.get_before_or_after(ptr))):
            return True
        if inst.get_metadata("invariant.load") is not None:
            return True
        if inst.is_atomic and not target_executes_once_per_loop:
            return False
        if _is_load_invariant_in_loop(inst, dt, loop):
            return True
        mu = mssa.get_memory_access(inst)
        if not isinstance(mu, MemoryUse):
            return False
        invariant_group = inst.get_metadata("invariant.group") is not None
        invalidated = _pointer_invalidated_by_loop(mssa, mu, loop, inst, flags, invariant_group)
        if ore is not None and invalidated and _is_loop_invariant(loop, ptr):
            ore.emit(
                lambda: optimization_remark_missed(DEBUG_TYPE, "LoadWithLoopInvariantAddressInvalidated", inst).add(
                    "failed to move load with loop-invariant address because the loop may invalidate its value"
                )
            )
        return not invalidated
    if opcode == "call":
        callee = _callee_name(inst)
        if callee is not None and (callee.startswith("llvm.dbg.")):
            return False
        if inst.may_throw():
            return False
        if inst.is_convergent:  # type: ignore[attr-defined]
            return False
        fn = inst.function
        if fn is not None and fn.has_fn_attribute("presplitcoroutine"):
            return False
        if callee == "llvm.assume":
            return True
        behavior = aa.get_memory_effects(inst)
        if behavior.does_not_access_memory:
            return True
        if behavior.only_reads_memory:
            if behavior.only_accesses_arg_pointees:
                mu = mssa.get_memory_access(inst)
                for op in inst.args:  # type: ignore[attr-defined]
                    if op.type.is_pointer:
                        if not isinstance(mu, MemoryUse):
                            return False
                        if _pointer_invalidated_by_loop(mssa, mu, loop, inst, flags, False):
                            return False
                return True
            if _is_read_only(mssau, loop):
                return True
        return False
    if opcode == "fence":
        return _is_only_memory_access(inst, loop, mssau)
    if opcode == "store":
        if not inst.is_unordered:  # type: ignore[attr-defined]
            return False
        if _is_only_memory_access(inst, loop, mssau):
            return True
        if flags.too_many_memory_accesses():
            return False
        simd = mssa.get_memory_access(inst)
        baa = BatchAAResults(aa)
        source = _get_clobbering_memory_access(mssa, baa, flags, simd)
        if not mssa.is_live_on_entry_def(source) and loop.contains(source.block):
            return False
        store_loc: MemoryLocation | None = None
        for bb in loop.blocks:
            accesses = mssa.get_block_accesses(bb)
            if not accesses:
                continue
            for ma in list(accesses):
                if isinstance(ma, MemoryUse):
                    md = _get_clobbering_memory_access(mssa, baa, flags, ma)
                    if not mssa.is_live_on_entry_def(md) and loop.contains(md.block):
                        return False
                    if not flags.get_is_sink() and not mssa.dominates(simd, ma):
                        return False
                elif isinstance(ma, MemoryDef):
                    mi = ma.get_memory_inst()
                    if mi is not None and mi.opcode == "load":
                        return False
                    if mi is not None and mi.opcode == "call":
                        if store_loc is None:
                            store_loc = MemoryLocation.get(inst)
                        if is_mod_or_ref_set(baa.get_mod_ref_info(mi, store_loc)):
                            return False
        return True
    return True


def _is_guard(inst: Instruction) -> bool:
    return _callee_name(inst) == "llvm.experimental.guard"


def is_safe_to_execute_unconditionally(
    inst: Instruction,
    dt: DominatorTree,
    tli: Any,
    loop: Loop,
    safety_info: LoopSafetyInfo,
    ore: OptimizationRemarkEmitter | None,
    ctx_i: Instruction | None,
    ac: Any,
    allow_speculation: bool,
) -> bool:
    """LLVM ``isSafeToExecuteUnconditionally``: speculatable at ``ctx_i``, or guaranteed to
    run whenever the loop is entered."""
    if allow_speculation and _is_safe_to_speculatively_execute(inst, ctx_i, ac, dt, tli):
        return True
    guaranteed = safety_info.is_guaranteed_to_execute(inst, dt, loop)
    if not guaranteed and inst.opcode == "load" and ore is not None and _is_loop_invariant(loop, inst.get_operand(0)):
        ore.emit(
            lambda: optimization_remark_missed(DEBUG_TYPE, "LoadWithLoopInvariantAddressCondExecuted", inst).add(
                "failed to hoist load with loop-invariant address because load is conditionally executed"
            )
        )
    return guaranteed


def _is_safe_to_speculatively_execute(inst: Instruction, ctx_i: Instruction | None, ac: Any, dt: Any, tli: Any) -> bool:
    """LLVM ``isSafeToSpeculativelyExecute(I, CtxI, AC, DT, TLI)``."""
    from llvmpy_mid.analysis.poison_tracking import is_safe_to_speculatively_execute

    if inst.opcode != "load":
        return is_safe_to_speculatively_execute(inst)
    if not inst.is_unordered:  # type: ignore[attr-defined]
        return False
    fn = inst.function
    if fn is None or fn.parent is None:
        return False
    if any(fn.has_fn_attribute(a) for a in ("sanitize_thread", "sanitize_address", "sanitize_hwaddress")):
        return False
    from llvmpy_mid.analysis.loads import is_dereferenceable_and_aligned_pointer_for_type

    dl = fn.parent.data_layout
    align = inst.alignment or dl.abi_alignment(inst.type)  # type: ignore[attr-defined]
    return is_dereferenceable_and_aligned_pointer_for_type(inst.get_operand(0), inst.type, align, dl, ctx_i, ac, dt, tli)


# --- sinking ------------------------------------------------------------------------------------


def _is_trivially_replaceable_phi(pn: PHINode, inst: Instruction) -> bool:
    return all(v is inst for v in pn.incoming_values)


def _is_foldable_in_loop(inst: Instruction, loop: Loop, tti: Any) -> bool:
    if inst.opcode != "getelementptr" or tti is None:
        return False
    from llvmpy_mid.analysis.target_transform_info import TCC_FREE, TCK_SIZE_AND_LATENCY

    if tti.get_instruction_cost(inst, TCK_SIZE_AND_LATENCY) != TCC_FREE:
        return False
    bb = inst.parent
    for user in inst.users:
        assert isinstance(user, Instruction)
        if loop.contains(user) and (bb is not user.parent or user.opcode not in ("store", "load")):
            return False
    return True


def _is_not_used_or_foldable_in_loop(
    inst: Instruction, loop: Loop, safety_info: LoopSafetyInfo, tti: Any, loop_nest_mode: bool
) -> tuple[bool, bool]:
    """LLVM ``isNotUsedOrFoldableInLoop``: (only used outside the loop or foldable, foldable in loop)."""
    colors = safety_info.get_block_colors()
    foldable = _is_foldable_in_loop(inst, loop, tti)
    foldable_in_loop = False
    for user in inst.users:
        assert isinstance(user, Instruction)
        ui: Instruction = user
        if isinstance(ui, PHINode):
            bb = ui.parent
            assert bb is not None
            term = bb.terminator
            if term is not None and term.opcode == "catchswitch":
                return False, foldable_in_loop
            if inst.opcode == "call" and colors and len(colors.get(bb, [])) != 1:
                return False, foldable_in_loop
            if loop_nest_mode:
                while isinstance(ui, PHINode) and ui.num_operands == 1 and _has_one_user(ui):
                    if not loop.contains(ui):
                        break
                    nxt = next(iter(ui.users))
                    assert isinstance(nxt, Instruction)
                    ui = nxt
        if loop.contains(ui):
            if foldable:
                foldable_in_loop = True
                continue
            return False, foldable_in_loop
    return True, foldable_in_loop


def _has_one_user(v: Value) -> bool:
    users = set()
    for u in v.users:
        users.add(u)
        if len(users) > 1:
            return False
    return len(users) == 1


def _clone_instruction_in_exit_block(
    inst: Instruction, exit_block: BasicBlock, pn: PHINode, li: LoopInfo, safety_info: LoopSafetyInfo,
    mssau: MemorySSAUpdater,
) -> Instruction:
    from llvmpy_mid.analysis.memory_ssa import BEGINNING
    from llvmpy_mid.analysis.memory_ssa_access import MemoryDef, MemoryUse

    new = _clone_for_exit_block(inst, exit_block, safety_info)
    new.insert_into(exit_block, exit_block.first_insertion_point)
    if inst.name:
        new.name = inst.name + ".le"
    mssa = mssau.get_memory_ssa()
    if mssa.get_memory_access(inst) is not None:
        acc = mssau.create_memory_access_in_bb(new, None, exit_block, BEGINNING, False)
        if isinstance(acc, MemoryDef):
            mssau.insert_def(acc, True)
        elif isinstance(acc, MemoryUse):
            mssau.insert_use(acc, True)
    for i, op in enumerate(list(new.operands)):
        if _would_be_out_of_loop_use_requiring_lcssa(li, op, exit_block):
            assert isinstance(op, Instruction)
            op_pn = PHINode(op.type, name=op.name + ".lcssa")
            op_pn.insert_into(exit_block, exit_block.first_instruction)
            for j in range(pn.num_incoming):
                op_pn.add_incoming(op, pn.get_incoming_block(j))
            new.set_operand(i, op_pn)
    return new


def _clone_for_exit_block(inst: Instruction, exit_block: BasicBlock, safety_info: LoopSafetyInfo) -> Instruction:
    """A copy of ``inst``; a call gets the ``funclet`` bundle of the exit block's funclet
    instead of its own."""
    from llvmpy_mid.ir.instructions.calls import CallInst, OperandBundle

    if not isinstance(inst, CallInst):
        return inst.clone()
    colors = safety_info.get_block_colors()
    bundles = [b for b in inst.operand_bundles if b.tag != "funclet"]
    if colors:
        cv = colors.get(exit_block, [])
        if cv:
            pad = cv[0].first_non_phi
            if pad is not None and pad.is_eh_pad:
                bundles.append(OperandBundle("funclet", (pad,)))
    # LLVM's CallInst::Create(CI, Bundles) takes the call's name: inserting the copy next to
    # the original bumps the function's unique-name counter before the ``.le`` rename.
    if not colors and len(bundles) == inst.num_operand_bundles:
        copy = inst.clone()
        copy.name = inst.name
        return copy
    new = inst.with_operand_bundles(bundles)
    for kind, node in inst.metadata_items():
        new.set_metadata(kind, node)
    return new


def _can_split_predecessors(pn: PHINode, safety_info: LoopSafetyInfo) -> bool:
    bb = pn.parent
    assert bb is not None
    first = bb.first_non_phi
    if first is not None and first.opcode != "landingpad" and first.is_eh_pad:
        return False
    if safety_info.get_block_colors() and first is not None and first.is_eh_pad:
        return False
    for pred in bb.predecessors:
        term = pred.terminator
        if term is not None and term.opcode == "indirectbr":
            return False
    return True


def _split_predecessors_of_loop_exit(
    pn: PHINode, dt: DominatorTree, li: LoopInfo, loop: Loop, safety_info: LoopSafetyInfo, mssau: MemorySSAUpdater
) -> None:
    from llvmpy_mid.transform.utils.basic_block_utils import split_block_predecessors

    exit_bb = pn.parent
    assert exit_bb is not None
    colors = safety_info.get_block_colors()
    pred_bbs: list[BasicBlock] = []
    for p in exit_bb.predecessors:
        if p not in pred_bbs:
            pred_bbs.append(p)
    for pred in pred_bbs:
        if pn.basic_block_index(pred) >= 0:
            new_pred = split_block_predecessors(exit_bb, [pred], ".split.loop.exit", dt, li, True)
            if new_pred is not None:
                mssau.wire_old_predecessors_to_new_immediate_predecessor(exit_bb, new_pred, [pred])
                if colors:
                    safety_info.copy_colors(new_pred, pred)


def _sink(
    inst: Instruction, li: LoopInfo, dt: DominatorTree, loop: Loop, safety_info: ICFLoopSafetyInfo,
    mssau: MemorySSAUpdater, ore: OptimizationRemarkEmitter | None,
) -> bool:
    """LLVM ``sink``: replace the exit-block LCSSA phis using ``inst`` by clones of it."""
    from llvmpy_mid.ir.constants import PoisonValue

    changed = False
    visited: set[Instruction] = set()
    restart = True
    while restart:
        restart = False
        for use in list(inst.uses):
            user = use.user
            if use.value is not inst:
                continue
            assert isinstance(user, Instruction)
            if user in visited or loop.contains(user):
                continue
            ubb = user.parent
            assert ubb is not None
            if not dt.is_reachable(ubb):
                use.set(PoisonValue.get(inst.type))
                changed = True
                continue
            assert isinstance(user, PHINode)
            inc = user.get_incoming_block_for_use(use)
            if not dt.is_reachable(inc):
                use.set(PoisonValue.get(inst.type))
                changed = True
                continue
            visited.add(user)
            if _is_trivially_replaceable_phi(user, inst):
                continue
            if not _can_split_predecessors(user, safety_info):
                return changed
            _split_predecessors_of_loop_exit(user, dt, li, loop, safety_info, mssau)
            restart = True
            break
    if not visited:
        return changed
    if ore is not None:
        ore.emit(lambda: optimization_remark(DEBUG_TYPE, "InstSunk", inst).add("sinking ").add_arg("Inst", inst))
    if inst.opcode == "load":
        NUM_MOVED_LOADS.add()
    elif inst.opcode == "call":
        NUM_MOVED_CALLS.add()
    NUM_SUNK.add()
    sunk_copies: dict[BasicBlock, Instruction] = {}
    users: list[Any] = list(dict.fromkeys(inst.users))
    for u in users:
        assert isinstance(u, Instruction)
        if loop.contains(u):
            continue
        assert isinstance(u, PHINode)
        exit_block = u.parent
        assert exit_block is not None
        new = sunk_copies.get(exit_block)
        if new is None:
            new = sunk_copies[exit_block] = _clone_instruction_in_exit_block(inst, exit_block, u, li, safety_info, mssau)
        drop_location(new)
        u.replace_all_uses_with(new)
        erase_instruction(u, safety_info, mssau)
        changed = True
    return changed


def sink_region(
    header: BasicBlock, aa: Any, li: LoopInfo, dt: DominatorTree, tli: Any, tti: Any, loop: Loop,
    mssau: MemorySSAUpdater, safety_info: ICFLoopSafetyInfo, flags: SinkAndHoistLICMFlags,
    ore: OptimizationRemarkEmitter | None, outermost_loop: Loop | None = None,
) -> bool:
    """LLVM ``sinkRegion``: children before parents on the dominator tree, each block bottom-up."""
    from llvmpy_mid.transform.utils.assume_bundle_builder import salvage_knowledge
    from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead, salvage_debug_info

    worklist = _collect_children_in_loop(header, loop, dt)
    changed = False
    loop_nest_mode = outermost_loop is not None
    for bb in reversed(worklist):
        if _in_sub_loop(bb, loop, li):
            continue
        inst = bb.terminator
        while inst is not None:
            prev = inst.prev_instruction
            if is_instruction_trivially_dead(inst, tli):
                salvage_knowledge(inst)
                salvage_debug_info(inst)
                prev = inst.prev_instruction
                erase_instruction(inst, safety_info, mssau)
                changed = True
                inst = prev
                continue
            if not inst.may_have_side_effects():
                ok, foldable_in_loop = _is_not_used_or_foldable_in_loop(
                    inst, outermost_loop if outermost_loop is not None else loop, safety_info, tti, loop_nest_mode
                )
                if ok and can_sink_or_hoist_inst(inst, aa, dt, loop, mssau, True, flags, ore):
                    if _sink(inst, li, dt, loop, safety_info, mssau, ore):
                        if not foldable_in_loop:
                            prev = inst.prev_instruction
                            salvage_debug_info(inst)
                            erase_instruction(inst, safety_info, mssau)
                        changed = True
            if inst.parent is bb:
                prev = inst.prev_instruction
            inst = prev
    if OPTIONS.value("verify-memoryssa"):
        mssau.get_memory_ssa().verify_memory_ssa()
    return changed


def sink_region_for_loop_nest(
    header: BasicBlock, aa: Any, li: LoopInfo, dt: DominatorTree, tli: Any, tti: Any, loop: Loop,
    mssau: MemorySSAUpdater, safety_info: ICFLoopSafetyInfo, flags: SinkAndHoistLICMFlags,
    ore: OptimizationRemarkEmitter | None,
) -> bool:
    """LLVM ``sinkRegionForLoopNest``: sink in every loop of the nest, innermost first."""
    worklist: list[Loop] = [loop]
    for root in reversed(list(loop.sub_loops)):
        preorder: list[Loop] = []
        stack = [root]
        while stack:
            lp = stack.pop()
            stack.extend(lp.sub_loops)
            preorder.append(lp)
        worklist.extend(preorder)
    changed = False
    while worklist:
        lp = worklist.pop()
        changed |= sink_region(lp.header, aa, li, dt, tli, tti, lp, mssau, safety_info, flags, ore, loop)
    return changed


# --- hoisting -----------------------------------------------------------------------------------


def _hoist(
    inst: Instruction, dt: DominatorTree, loop: Loop, dest: BasicBlock, safety_info: ICFLoopSafetyInfo,
    mssau: MemorySSAUpdater, se: Any, ore: OptimizationRemarkEmitter | None,
) -> None:
    """LLVM ``hoist``: move ``inst`` to the end of ``dest`` (phis after its phis)."""
    if ore is not None:
        ore.emit(lambda: optimization_remark(DEBUG_TYPE, "Hoisted", inst).add("hoisting ").add_arg("Inst", inst))
    if (_has_metadata_other_than_debug_loc(inst) or inst.opcode == "call") and not safety_info.is_guaranteed_to_execute(
        inst, dt, loop
    ):
        from llvmpy_mid.transform.instcombine.common import drop_ub_implying_attrs_and_metadata

        drop_ub_implying_attrs_and_metadata(inst)
    if isinstance(inst, PHINode):
        dest_inst = dest.first_non_phi
    else:
        dest_inst = dest.terminator
    assert dest_inst is not None
    move_instruction_before(inst, dest_inst, safety_info, mssau, se)
    drop_location(inst)
    if inst.opcode == "load":
        NUM_MOVED_LOADS.add()
    elif inst.opcode == "call":
        NUM_MOVED_CALLS.add()
    NUM_HOISTED.add()


def _control_flow_hoisting() -> bool:
    return bool(OPTIONS.value("licm-control-flow-hoisting"))


class ControlFlowHoister:
    """LLVM's ``ControlFlowHoister``: with ``-licm-control-flow-hoisting``, invariant
    conditional branches are copied before the loop so that phis (and what they depend on)
    can be hoisted into the copies of their blocks."""

    def __init__(self, li: LoopInfo, dt: DominatorTree, loop: Loop, mssau: MemorySSAUpdater) -> None:
        self.li = li
        self.dt = dt
        self.loop = loop
        self.mssau = mssau
        self.hoist_destination_map: dict[BasicBlock, BasicBlock] = {}
        self.hoistable_branches: dict[Instruction, BasicBlock] = {}

    def register_possibly_hoistable_branch(self, bi: Instruction) -> None:
        loop = self.loop
        if not _control_flow_hoisting() or bi.num_operands != 3 or not _has_loop_invariant_operands(loop, bi):
            return
        true_dest = bi.get_successor(0)
        false_dest = bi.get_successor(1)
        if not loop.contains(true_dest) or not loop.contains(false_dest) or true_dest is false_dest:
            return
        true_succ = list(dict.fromkeys(true_dest.successors))
        false_succ = list(dict.fromkeys(false_dest.successors))
        common: BasicBlock | None = None
        if false_dest in true_succ:
            common = false_dest
        elif true_dest in false_succ:
            common = true_dest
        else:
            both = [b for b in true_succ if b in false_succ]
            if len(both) == 1:
                common = both[0]
            elif both:
                fn = true_dest.parent
                assert fn is not None
                for b in fn.blocks:
                    if b in both:
                        common = b
                        break
        if common is not None and self.dt.dominates(bi, common):
            self.hoistable_branches[bi] = common

    def can_hoist_phi(self, pn: PHINode) -> bool:
        if not _control_flow_hoisting() or not _has_loop_invariant_operands(self.loop, pn):
            return False
        bb = pn.parent
        assert bb is not None
        preds_all = bb.predecessors
        pred_blocks = set(preds_all)
        if len(pred_blocks) != len(preds_all):
            return False
        for bi, succ in self.hoistable_branches.items():
            if succ is bb:
                s0 = bi.get_successor(0)
                s1 = bi.get_successor(1)
                if s0 is bb:
                    pred_blocks.discard(bi.parent)
                    pred_blocks.discard(s1)
                elif s1 is bb:
                    pred_blocks.discard(bi.parent)
                    pred_blocks.discard(s0)
                else:
                    pred_blocks.discard(s0)
                    pred_blocks.discard(s1)
        return not pred_blocks

    def get_or_create_hoisted_block(self, bb: BasicBlock) -> BasicBlock:
        from llvmpy_mid.ir.instructions.terminators import BranchInst

        loop = self.loop
        initial_preheader = loop.preheader
        assert initial_preheader is not None
        if not _control_flow_hoisting():
            return initial_preheader
        hdm = self.hoist_destination_map
        if bb in hdm:
            return hdm[bb]
        found: Instruction | None = None
        for bi, succ in self.hoistable_branches.items():
            if bb is not succ and (bi.get_successor(0) is bb or bi.get_successor(1) is bb):
                found = bi
                break
        if found is None:
            hdm[bb] = initial_preheader
            return initial_preheader
        bi = found
        true_dest = bi.get_successor(0)
        false_dest = bi.get_successor(1)
        common_succ = self.hoistable_branches[bi]
        bi_parent = bi.parent
        assert bi_parent is not None
        hoist_target = self.get_or_create_hoisted_block(bi_parent)

        def create_hoisted_block(orig: BasicBlock) -> BasicBlock:
            if orig in hdm:
                return hdm[orig]
            fn = orig.parent
            assert fn is not None
            new = BasicBlock(orig.type.context, orig.name + ".licm")
            fn.blocks.append(new)
            hdm[orig] = new
            self.dt.add_new_block(new, hoist_target)
            parent = loop.parent_loop
            if parent is not None:
                self.li.add_block_to_loop(new, parent)
            NUM_CREATED_BLOCKS.add()
            return new

        hoist_true = create_hoisted_block(true_dest)
        hoist_false = create_hoisted_block(false_dest)
        hoist_common = create_hoisted_block(common_succ)
        if hoist_common.terminator is None:
            target_succ = hoist_target.single_successor
            assert target_succ is not None
            hoist_common.move_before(target_succ)
            hoist_common.append(BranchInst(target_succ))
        if hoist_true.terminator is None:
            hoist_true.move_before(hoist_common)
            hoist_true.append(BranchInst(hoist_common))
        if hoist_false.terminator is None:
            hoist_false.move_before(hoist_common)
            hoist_false.append(BranchInst(hoist_common))
        if hoist_target is initial_preheader:
            target_succ2 = hoist_target.single_successor
            assert target_succ2 is not None
            initial_preheader.replace_successors_phi_uses_with(initial_preheader, hoist_common)
            self.mssau.wire_old_predecessors_to_new_immediate_predecessor(target_succ2, hoist_common, [hoist_target])
            self.dt.change_immediate_dominator(loop.header, hoist_common)
            for k in list(hdm):
                if hdm[k] is initial_preheader and k is not bi_parent:
                    hdm[k] = hoist_common
        old_term = hoist_target.terminator
        assert old_term is not None
        new_br = BranchInst(hoist_true, hoist_false, bi.get_operand(0))
        new_br.debug_loc = old_term.debug_loc
        new_br.insert_before(old_term)
        old_term.erase_from_parent()
        NUM_CLONED_BRANCHES.add()
        return hdm[bb]


def hoist_region(
    header: BasicBlock, aa: Any, li: LoopInfo, dt: DominatorTree, ac: Any, tli: Any, loop: Loop,
    mssau: MemorySSAUpdater, se: Any, safety_info: ICFLoopSafetyInfo, flags: SinkAndHoistLICMFlags,
    ore: OptimizationRemarkEmitter | None, loop_nest_mode: bool, allow_speculation: bool,
) -> bool:
    """LLVM ``hoistRegion``: the loop blocks in reverse post-order, each top-down."""
    from llvmpy_mid.analysis.loop_iterator import loop_blocks_rpo
    from llvmpy_mid.ir.constants import ConstantFP
    from llvmpy_mid.ir.instructions.binary import FDivInst, FMulInst
    from llvmpy_mid.ir.instructions.flags import FastMathFlags

    cfh = ControlFlowHoister(li, dt, loop, mssau)
    hoisted: list[Instruction] = []
    changed = False
    preheader = loop.preheader
    assert preheader is not None
    ctx_term = preheader.terminator
    for bb in loop_blocks_rpo(loop):
        if not loop_nest_mode and _in_sub_loop(bb, loop, li):
            continue
        inst = bb.first_instruction
        while inst is not None:
            nxt = inst.next_instruction
            if (
                _has_loop_invariant_operands(loop, inst)
                and can_sink_or_hoist_inst(inst, aa, dt, loop, mssau, True, flags, ore)
                and is_safe_to_execute_unconditionally(
                    inst, dt, tli, loop, safety_info, ore, ctx_term, ac, allow_speculation
                )
            ):
                _hoist(inst, dt, loop, cfh.get_or_create_hoisted_block(bb), safety_info, mssau, se, ore)
                hoisted.append(inst)
                changed = True
                inst = nxt
                continue
            if (
                inst.opcode == "fdiv"
                and int(inst.fast_math_flags) & FastMathFlags.ARCP  # type: ignore[attr-defined]
                and _is_loop_invariant(loop, inst.get_operand(1))
            ):
                divisor = inst.get_operand(1)
                one = ConstantFP.get(divisor.type, 1.0)
                fmf = inst.fast_math_flags  # type: ignore[attr-defined]
                recip = FDivInst(one, divisor, fast_math_flags=fmf)
                safety_info.insert_instruction_to(recip, bb)
                recip.insert_before(inst)
                recip.debug_loc = inst.debug_loc
                product = FMulInst(inst.get_operand(0), recip, fast_math_flags=fmf)
                safety_info.insert_instruction_to(product, bb)
                product.insert_after(inst)
                product.debug_loc = inst.debug_loc
                inst.replace_all_uses_with(product)
                erase_instruction(inst, safety_info, mssau)
                _hoist(recip, dt, loop, cfh.get_or_create_hoisted_block(bb), safety_info, mssau, se, ore)
                hoisted.append(recip)
                changed = True
                inst = nxt
                continue
            is_invariant_start = inst._use_head is None and _is_intrinsic(inst, "llvm.invariant.start")
            if (
                (is_invariant_start or _is_guard(inst))
                and _has_loop_invariant_operands(loop, inst)
                and safety_info.is_guaranteed_to_execute(inst, dt, loop)
                and safety_info.does_not_write_memory_before(inst, loop)
            ):
                _hoist(inst, dt, loop, cfh.get_or_create_hoisted_block(bb), safety_info, mssau, se, ore)
                hoisted.append(inst)
                changed = True
                inst = nxt
                continue
            if isinstance(inst, PHINode) and cfh.can_hoist_phi(inst):
                for i in range(inst.num_incoming):
                    inst.set_incoming_block(i, cfh.get_or_create_hoisted_block(inst.get_incoming_block(i)))
                _hoist(inst, dt, loop, cfh.get_or_create_hoisted_block(bb), safety_info, mssau, se, ore)
                changed = True
                inst = nxt
                continue
            if _hoist_arithmetics(inst, loop, safety_info, mssau, ac, dt):
                changed = True
                inst = nxt
                continue
            if inst.opcode == "br":
                cfh.register_possibly_hoistable_branch(inst)
            inst = nxt
    if _control_flow_hoisting():
        hoist_point: Instruction | None = None
        for inst in reversed(hoisted):
            if not all(dt.dominates_use(inst, u) for u in inst.uses):
                ibb = inst.parent
                assert ibb is not None
                dominator = dt.idom(ibb)
                assert dominator is not None
                if hoist_point is None or not dt.dominates_block(hoist_point.parent, dominator):  # type: ignore[arg-type]
                    hoist_point = dominator.terminator
                assert hoist_point is not None
                move_instruction_before(inst, hoist_point, safety_info, mssau, se)
                hoist_point = inst
                changed = True
    if OPTIONS.value("verify-memoryssa"):
        mssau.get_memory_ssa().verify_memory_ssa()
    return changed


def _hoist_arithmetics(
    inst: Instruction, loop: Loop, safety_info: ICFLoopSafetyInfo, mssau: MemorySSAUpdater, ac: Any, dt: DominatorTree
) -> bool:
    """LICM-B's ``hoistArithmetics`` (:mod:`~llvmpy_mid.transform.scalar.licm_arith`)."""
    try:
        from llvmpy_mid.transform.scalar import licm_arith
    except ImportError:
        return False
    fn = getattr(licm_arith, "hoist_arithmetics", None)
    if fn is None:
        return False
    return bool(fn(inst, loop, safety_info, mssau, ac, dt))


# --- the driver ---------------------------------------------------------------------------------


class LoopInvariantCodeMotion:
    """LLVM ``LoopInvariantCodeMotion``: one run over a loop."""

    def __init__(self, mssa_opt_cap: int, mssa_no_acc_for_promotion_cap: int, allow_speculation: bool) -> None:
        self.mssa_opt_cap = mssa_opt_cap
        self.mssa_no_acc_for_promotion_cap = mssa_no_acc_for_promotion_cap
        self.allow_speculation = allow_speculation

    def run_on_loop(
        self, loop: Loop, aa: Any, li: LoopInfo, dt: DominatorTree, ac: Any, tli: Any, tti: Any, se: Any,
        mssa: MemorySSA, ore: OptimizationRemarkEmitter | None, loop_nest_mode: bool = False,
    ) -> bool:
        from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater

        if _has_disable_licm_transforms_hint(loop):
            return False
        changed = False
        has_coro_suspend = any(
            _callee_name(i) == "llvm.coro.suspend" for bb in loop.blocks for i in bb.instructions
        )
        mssau = MemorySSAUpdater(mssa)
        flags = SinkAndHoistLICMFlags(self.mssa_opt_cap, self.mssa_no_acc_for_promotion_cap, True, loop, mssa)
        preheader = loop.preheader
        safety_info = ICFLoopSafetyInfo()
        safety_info.compute_loop_safety_info(loop)
        if loop.has_dedicated_exits:
            if loop_nest_mode:
                changed |= sink_region_for_loop_nest(
                    loop.header, aa, li, dt, tli, tti, loop, mssau, safety_info, flags, ore
                )
            else:
                changed |= sink_region(loop.header, aa, li, dt, tli, tti, loop, mssau, safety_info, flags, ore)
        flags.set_is_sink(False)
        if preheader is not None:
            changed |= hoist_region(
                loop.header, aa, li, dt, ac, tli, loop, mssau, se, safety_info, flags, ore, loop_nest_mode,
                self.allow_speculation,
            )
        if (
            not OPTIONS.value("disable-licm-promotion")
            and preheader is not None
            and loop.has_dedicated_exits
            and not flags.too_many_memory_accesses()
            and not has_coro_suspend
        ):
            changed |= self._promote(loop, aa, li, dt, ac, tli, tti, mssa, mssau, safety_info, ore)
        if OPTIONS.value("verify-memoryssa"):
            mssa.verify_memory_ssa()
        if changed and se is not None:
            forget = getattr(se, "forget_loop_dispositions", None)
            if forget is not None:
                forget()
        return changed

    def _promote(
        self, loop: Loop, aa: Any, li: LoopInfo, dt: DominatorTree, ac: Any, tli: Any, tti: Any, mssa: MemorySSA,
        mssau: MemorySSAUpdater, safety_info: ICFLoopSafetyInfo, ore: OptimizationRemarkEmitter | None,
    ) -> bool:
        try:
            from llvmpy_mid.transform.scalar import licm_promotion
        except ImportError:
            return False
        collect = getattr(licm_promotion, "collect_promotion_candidates", None)
        promote = getattr(licm_promotion, "promote_loop_accesses_to_scalars", None)
        if collect is None or promote is None:
            return False
        exit_blocks = list(loop.unique_exit_blocks)
        for eb in exit_blocks:
            term = eb.terminator
            if term is not None and term.opcode == "catchswitch":
                return False
        insert_pts: list[Instruction] = []
        for eb in exit_blocks:
            pt = eb.first_insertion_point
            assert pt is not None
            insert_pts.append(pt)
        mssa_insert_pts: list[MemoryAccess | None] = [None] * len(exit_blocks)
        promoted = False
        while True:
            local = False
            for must_aliases, has_reads_outside in collect(mssa, aa, loop):
                local |= bool(
                    promote(
                        must_aliases, exit_blocks, insert_pts, mssa_insert_pts, None, li, dt, ac, tli, tti, loop,
                        mssau, safety_info, ore, self.allow_speculation, has_reads_outside,
                    )
                )
            promoted |= local
            if not local:
                break
        if promoted:
            from llvmpy_mid.transform.utils.lcssa import form_lcssa_recursively

            form_lcssa_recursively(loop, dt, li)
        return promoted


def _run(pass_name: str, loop: Loop, am: AnalysisManager[Loop], options: LICMOptions, nest: bool) -> PreservedAnalyses:
    from llvmpy_mid.analysis.memory_ssa import MemorySSAAnalysis
    from llvmpy_mid.passes.loop_pass_manager import loop_pass_preserved_analyses

    ar = am.standard  # type: ignore[attr-defined]
    if ar is None or ar.mssa is None:
        raise PipelineError("%s requires MemorySSA (loop-mssa)" % pass_name)
    fn = loop.header.parent
    assert fn is not None
    ore = OptimizationRemarkEmitter(fn)
    licm = LoopInvariantCodeMotion(options.mssa_opt_cap, options.mssa_no_acc_for_promotion_cap, options.allow_speculation)
    se = getattr(ar, "se", None)
    if not licm.run_on_loop(loop, ar.aa, ar.li, ar.dt, ar.ac, ar.tli, ar.tti, se, ar.mssa, ore, nest):
        return PreservedAnalyses.all()
    pa = loop_pass_preserved_analyses()
    pa.preserve(MemorySSAAnalysis)
    return pa


class LICMPass(Pass[Loop]):
    """``licm<[no-]allowspeculation>`` (LLVM ``LICMPass``)."""

    name: ClassVar[str] = "licm"

    def __init__(self, options: LICMOptions | None = None) -> None:
        self.options = options if options is not None else LICMOptions()

    @property
    def log_name(self) -> str:
        return "LICMPass"

    def pipeline_params(self) -> str:
        return ("" if self.options.allow_speculation else "no-") + "allowspeculation"

    def run(self, unit: Loop, am: AnalysisManager[Loop]) -> PreservedAnalyses:
        return _run("LICM", unit, am, self.options, False)


class LNICMPass(Pass[Loop]):
    """``lnicm<[no-]allowspeculation>`` (LLVM ``LNICMPass``): LICM over a whole loop nest."""

    name: ClassVar[str] = "lnicm"
    is_loop_nest_pass: ClassVar[bool] = True

    def __init__(self, options: LICMOptions | None = None) -> None:
        self.options = options if options is not None else LICMOptions()

    @property
    def log_name(self) -> str:
        return "LNICMPass"

    def pipeline_params(self) -> str:
        return ("" if self.options.allow_speculation else "no-") + "allowspeculation"

    def run(self, unit: Loop, am: AnalysisManager[Loop]) -> PreservedAnalyses:
        return _run("LNICM", unit, am, self.options, True)
