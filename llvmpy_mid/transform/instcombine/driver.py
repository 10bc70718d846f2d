"""The InstCombine driver (LLVM ``lib/Transforms/InstCombine/InstructionCombining.cpp``:
``combineInstructionsOverFunction``, ``InstCombinerImpl::prepareWorklist``,
``InstCombinerImpl::run``, ``eraseInstFromFunction``) and the ``instcombine`` pass.

An iteration: walk the reachable blocks in reverse post-order, constant-fold
what folds, and push every other instruction so that the first comes off the
worklist first; then pop instructions until the worklist is empty, handing each
to its family's visitor (:data:`VISITORS`). Iterations repeat until one makes no
change; with ``verify-fixpoint`` (opt-19's default for ``-passes=instcombine``)
a change in iteration ``max-iterations + 1`` is a fatal error, as in LLVM.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, ClassVar

import attrs

from llvmpy_mid.analysis.constant_folding import constant_fold_constant, constant_fold_instruction
from llvmpy_mid.analysis.target_folder import TargetFolder
from llvmpy_mid.errors import FatalError, PipelineError
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantVector, PoisonValue, UndefValue
from llvmpy_mid.ir.debug_info import DIExpression, DILocation
from llvmpy_mid.ir.debug_records import DbgRecordKind, DbgVariableRecord
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, SwitchInst
from llvmpy_mid.ir.metadata import MDNode, MetadataAsValue
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.transform.instcombine import (
    add_sub,
    and_or_xor,
    calls,
    casts,
    compares,
    gep,
    instruction_combining,
    load_store_alloca,
    mul_div_rem,
    phi,
    select,
    shifts,
    vector_ops,
)
from llvmpy_mid.transform.instcombine.combiner import InstCombiner, option, take_name
from llvmpy_mid.transform.utils.instruction_worklist import InstructionWorklist
from llvmpy_mid.transform.utils.debug_declare import dbg_variable_records_of
from llvmpy_mid.ir.droppable_uses import drop_droppable_uses, is_droppable
from llvmpy_mid.transform.utils.local import (
    is_instruction_trivially_dead,
    remove_all_non_terminator_and_eh_pad_instructions,
    salvage_debug_info,
    salvage_debug_info_for_dbg_values,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.value import Use
    from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
    from llvmpy_mid.analysis.alias.aa_results import AAResults
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.dominators import DominatorTree

Visitor = Callable[[InstCombiner, Instruction], "Instruction | None"]

VISITORS: dict[str, Visitor] = {
    "fneg": add_sub.visit_fneg,
    "add": add_sub.visit_add,
    "fadd": add_sub.visit_fadd,
    "sub": add_sub.visit_sub,
    "fsub": add_sub.visit_fsub,
    "mul": mul_div_rem.visit_mul,
    "fmul": mul_div_rem.visit_fmul,
    "udiv": mul_div_rem.visit_udiv,
    "sdiv": mul_div_rem.visit_sdiv,
    "fdiv": mul_div_rem.visit_fdiv,
    "urem": mul_div_rem.visit_urem,
    "srem": mul_div_rem.visit_srem,
    "frem": mul_div_rem.visit_frem,
    "and": and_or_xor.visit_and,
    "or": and_or_xor.visit_or,
    "xor": and_or_xor.visit_xor,
    "shl": shifts.visit_shl,
    "lshr": shifts.visit_lshr,
    "ashr": shifts.visit_ashr,
    "icmp": compares.visit_icmp,
    "fcmp": compares.visit_fcmp,
    "trunc": casts.visit_trunc,
    "zext": casts.visit_zext,
    "sext": casts.visit_sext,
    "fptrunc": casts.visit_fptrunc,
    "fpext": casts.visit_fpext,
    "fptoui": casts.visit_fptoui,
    "fptosi": casts.visit_fptosi,
    "uitofp": casts.visit_uitofp,
    "sitofp": casts.visit_sitofp,
    "ptrtoint": casts.visit_ptrtoint,
    "inttoptr": casts.visit_inttoptr,
    "bitcast": casts.visit_bitcast,
    "addrspacecast": casts.visit_addrspacecast,
    "select": select.visit_select,
    "call": calls.visit_call,
    "invoke": calls.visit_invoke,
    "callbr": calls.visit_callbr,
    "phi": phi.visit_phi,
    "getelementptr": gep.visit_getelementptr,
    "alloca": load_store_alloca.visit_alloca,
    "load": load_store_alloca.visit_load,
    "store": load_store_alloca.visit_store,
    "atomicrmw": instruction_combining.visit_atomicrmw,
    "br": instruction_combining.visit_br,
    "fence": instruction_combining.visit_fence,
    "switch": instruction_combining.visit_switch,
    "ret": instruction_combining.visit_ret,
    "unreachable": instruction_combining.visit_unreachable,
    "insertvalue": vector_ops.visit_insertvalue,
    "insertelement": vector_ops.visit_insertelement,
    "extractelement": vector_ops.visit_extractelement,
    "shufflevector": vector_ops.visit_shufflevector,
    "extractvalue": instruction_combining.visit_extractvalue,
    "landingpad": instruction_combining.visit_landingpad,
    "freeze": instruction_combining.visit_freeze,
}
"""Opcode -> the family visitor (LLVM's ``InstVisitor`` dispatch)."""


class FixpointNotReached(FatalError):
    """``instcombine`` with ``verify-fixpoint`` changed the IR after ``max-iterations`` iterations
    (LLVM's ``report_fatal_error``: ``llvmpy-opt`` prints ``LLVM ERROR: ...`` and exits 1)."""


@attrs.frozen(slots=True)
class InstCombineOptions:
    """``instcombine<max-iterations=N;verify-fixpoint>`` (LLVM ``InstCombineOptions``)."""

    max_iterations: int = 1
    verify_fixpoint: bool = True
    """opt-19's pass parser turns verification on unless ``no-verify-fixpoint``."""
    use_loop_info: bool = False


def erase_inst_from_function(ic: InstCombiner, i: Instruction) -> None:
    """LLVM ``InstCombinerImpl::eraseInstFromFunction``: salvage the debug uses, take ``i`` off
    the worklist, erase it, then revisit its operands (their use counts dropped)."""
    salvage_debug_info(i)
    ops = i.operands
    wl = ic.worklist
    wl.remove(i)
    ic.dc.remove_value(i)
    i.erase_from_parent()
    for op in ops:
        if op is not None:
            wl.handle_use_count_decrement(op)
    ic.made_ir_change = True


def _is_debug_or_pseudo(i: Instruction) -> bool:
    if i.opcode != "call":
        return False
    callee = i.operands[-1]
    name = callee.name if isinstance(callee, Function) else ""
    return name.startswith("llvm.dbg.") or name == "llvm.pseudoprobe"


def _intrinsic_name(i: Instruction) -> str:
    if i.opcode != "call":
        return ""
    callee = i.operands[-1]
    return callee.name if isinstance(callee, Function) and callee.name.startswith("llvm.") else ""


class _AliasScopeTracker:
    """The scopes named by ``!alias.scope`` and ``!noalias`` in the function; a
    ``llvm.experimental.noalias.scope.decl`` of a scope not in both is dead (LLVM ``AliasScopeTracker``)."""

    __slots__ = ("scopes", "noalias")

    def __init__(self) -> None:
        self.scopes: set[int] = set()
        self.noalias: set[int] = set()

    @staticmethod
    def _track(md: object, into: set[int]) -> None:
        if not isinstance(md, MDNode) or id(md) in into:
            return
        into.add(id(md))
        for op in md.operands:
            if isinstance(op, MDNode):
                into.add(id(op))

    def analyse(self, i: Instruction) -> None:
        if i._md is None:
            return
        self._track(i.get_metadata("alias.scope"), self.scopes)
        self._track(i.get_metadata("noalias"), self.noalias)

    def is_noalias_scope_decl_dead(self, i: Instruction) -> bool:
        if _intrinsic_name(i) != "llvm.experimental.noalias.scope.decl":
            return False
        arg = i.operands[0]
        lst = arg.metadata if isinstance(arg, MetadataAsValue) else None
        if not isinstance(lst, MDNode) or not lst.operands:
            return True
        scope = lst.operands[0]
        if isinstance(scope, MDNode):
            return id(scope) not in self.scopes or id(scope) not in self.noalias
        return True


def prepare_worklist(ic: InstCombiner, order: list[BasicBlock]) -> bool:
    """``prepareWorklist``: walk the blocks in RPO skipping those only dead edges reach,
    constant-fold what folds, give phis poison on dead edges, empty the dead blocks and
    seed the worklist so that the first instruction comes off first."""
    changed = False
    dl = ic.dl
    tli = ic.tli
    dt = ic.dt
    dead_edges = ic.dead_edges
    folded: dict[Constant, Constant] = {}
    seed: list[Instruction] = []
    live: set[BasicBlock] = set()
    scopes = _AliasScopeTracker()

    def only_live_successor(bb: BasicBlock, live_succ: BasicBlock | None) -> None:
        nonlocal changed
        for succ in bb.successors:
            if succ is live_succ or (bb, succ) in dead_edges:
                continue
            dead_edges.add((bb, succ))
            for pn in succ.phis():
                incoming = pn.incoming_blocks
                for idx, use in enumerate(pn.operand_uses):
                    if incoming[idx] is bb and not isinstance(use.value, PoisonValue):
                        use.set(PoisonValue.get(pn.type))
                        changed = True

    entry = order[0] if order else None
    for bb in order:
        if bb is not entry and all((p, bb) in dead_edges or dt.dominates_block(bb, p) for p in bb.predecessors):
            only_live_successor(bb, None)
            continue
        live.add(bb)
        node = bb.instructions._first
        while node is not None:
            inst: Instruction = node
            node = node._next
            if inst._use_head is not None and (not inst._operands or isinstance(inst._operands[0].value, Constant)):
                c = constant_fold_instruction(inst, dl, tli)
                if c is not None:
                    inst.replace_all_uses_with(c)
                    if is_instruction_trivially_dead(inst, tli):
                        inst.erase_from_parent()
                    changed = True
                    continue
            for use in inst._operands:
                op = use.value
                if isinstance(op, (ConstantVector, ConstantExpr)):
                    res = folded.get(op)
                    if res is None:
                        res = constant_fold_constant(op, dl, tli)
                        folded[op] = res
                    if res is not op:
                        use.set(res)
                        changed = True
            if not _is_debug_or_pseudo(inst):
                seed.append(inst)
                scopes.analyse(inst)
        term = bb.terminator
        if isinstance(term, BranchInst) and term.is_conditional:
            cond = term.condition
            if isinstance(cond, UndefValue):
                only_live_successor(bb, None)
            elif isinstance(cond, ConstantInt):
                only_live_successor(bb, term.get_successor(0 if cond.value else 1))
        elif isinstance(term, SwitchInst):
            cond = term.condition
            if isinstance(cond, UndefValue):
                only_live_successor(bb, None)
            elif isinstance(cond, ConstantInt):
                case = term.find_case_value(cond)
                only_live_successor(bb, term.default_dest if case is None else term.case_dests[case])

    fn = ic.fn
    for bb in fn.blocks:
        if bb in live:
            continue
        n_inst, n_dbg = remove_all_non_terminator_and_eh_pad_instructions(bb)
        if n_inst + n_dbg > 0:
            changed = True

    wl = ic.worklist
    for inst in reversed(seed):
        if is_instruction_trivially_dead(inst, tli) or scopes.is_noalias_scope_decl_dead(inst):
            salvage_debug_info(inst)
            inst.erase_from_parent()
            changed = True
            continue
        wl.push(inst)
    return changed


# --- sinking (tryToSinkInstruction) ---------------------------------------------------------------


def _sink_block(ic: InstCombiner, i: Instruction, max_users: int) -> BasicBlock | None:
    """The block of ``i``'s only (non-droppable) users, when sinking ``i`` there is simple
    (that block's unique predecessor is ``i``'s, or it leaves the function)."""
    bb = i.parent
    user_parent: BasicBlock | None = None
    num_users = 0
    use = i._use_head
    while use is not None:
        user = use.user
        if is_droppable(user):
            use = use._next
            continue
        if num_users > max_users:
            return None
        user_bb = user.parent  # type: ignore[attr-defined]
        if isinstance(user, PHINode):
            user_bb = user.get_incoming_block(use.index)
        if user_parent is not None and user_parent is not user_bb:
            return None
        user_parent = user_bb
        if num_users == 0:
            if user_parent is bb or user_parent is None or not ic.dt.is_reachable(user_parent):
                return None
            term = user_parent.terminator
            if user_parent.unique_predecessor is not bb and term is not None and term.num_successors:
                return None
        num_users += 1
        use = use._next
    return user_parent


def _destination_written(call: CallBase) -> Value | None:
    """The one pointer a call writes through (LLVM ``MemoryLocation::getForDest``'s pointer)."""
    name = _intrinsic_name(call)
    if name:
        if name.startswith(("llvm.memset.", "llvm.memcpy.", "llvm.memmove.", "llvm.memcpy.inline.", "llvm.memset.inline.")):
            return call.operands[0]
        if name == "llvm.init.trampoline":
            return call.operands[0]
        if name.startswith("llvm.masked.store."):
            return call.operands[1]
        return None
    if not call.only_accesses_arg_memory or call.has_operand_bundles:
        return None
    used: Value | None = None
    for idx, arg in enumerate(call.arg_operands):
        if not arg.type.is_pointer:
            continue
        if call.param_has_attr(idx, "readonly") or call.param_has_attr(idx, "readnone"):
            continue
        if used is None:
            used = arg
            continue
        if used is not arg:
            return None
    return used


def _sole_write_to_dead_local(i: Instruction) -> bool:
    """LLVM ``SoleWriteToDeadLocal``: ``i`` is a call writing only to an alloca nothing else uses."""
    from llvmpy_mid.analysis.underlying_objects import get_underlying_object
    from llvmpy_mid.ir.instructions.memory import AllocaInst

    if not isinstance(i, CallBase):
        return False
    dest = _destination_written(i)
    if dest is None:
        return False
    ai = get_underlying_object(dest)
    if not isinstance(ai, AllocaInst):
        return False
    visited: set[object] = set()
    stack: list[Instruction] = []

    def push_users(v: Value) -> None:
        use = v._use_head
        while use is not None:
            user = use.user
            if user not in visited:
                visited.add(user)
                stack.append(user)  # type: ignore[arg-type]
            use = use._next

    push_users(ai)
    while stack:
        user = stack.pop()
        if user.opcode in ("bitcast", "getelementptr", "addrspacecast"):
            push_users(user)
            continue
        if user is i:
            continue
        return False
    return True


def _drop_droppable_uses_outside(ic: InstCombiner, i: Instruction, dest: BasicBlock) -> None:
    """LLVM ``dropDroppableUses`` for the users not in ``dest`` (each such user is revisited)."""

    def outside(use: Use) -> bool:
        user = use.user
        if isinstance(user, Instruction) and user.parent is not dest:
            ic.worklist.add(user)
            return True
        return False

    drop_droppable_uses(i, outside)

def try_to_sink_instruction(ic: InstCombiner, i: Instruction, dest: BasicBlock) -> bool:
    """LLVM ``tryToSinkInstruction``: move ``i`` to the top of ``dest`` when nothing on the way
    can observe the move; its debug records follow (``tryToSinkInstructionDbgVariableRecords``)."""
    src = i.parent
    assert src is not None
    if isinstance(i, PHINode) or i.is_eh_pad or i.may_throw() or not i.will_return() or i.is_terminator:
        return False
    if i.opcode == "alloca":
        return False
    term = dest.terminator
    if term is not None and term.opcode == "catchswitch":
        return False
    if isinstance(i, CallBase) and i.opcode == "call" and i.is_convergent:
        return False
    if i.may_write_to_memory() and not _sole_write_to_dead_local(i):
        return False
    if i.may_read_from_memory():
        if dest.unique_predecessor is not src:
            return False
        scan = i.next_instruction
        while scan is not None:
            if scan.may_write_to_memory():
                return False
            scan = scan.next_instruction
    _drop_droppable_uses_outside(ic, i, dest)
    at = dest.first_insertion_point
    assert at is not None
    i.move_before(at)
    records = dbg_variable_records_of(i)
    if records:
        _sink_dbg_records(i, at, src, dest, records)
    return True


def _debug_variable(rec: DbgVariableRecord) -> tuple[int, object, int]:
    expr = rec.expression
    frag = expr.fragment if isinstance(expr, DIExpression) else None
    loc = rec.debug_loc
    inlined = loc.inlined_at if isinstance(loc, DILocation) else None
    return (id(rec.variable), frag, id(inlined))


def _sink_dbg_records(
    i: Instruction, at: Instruction, src: BasicBlock, dest: BasicBlock, records: list[DbgVariableRecord]
) -> None:
    """The records of ``i`` outside ``dest`` are salvaged; the last record of each variable in
    ``src`` is cloned to the top of ``dest`` (LLVM ``tryToSinkInstructionDbgVariableRecords``)."""
    to_salvage = [r for r in records if r.instruction is not None and r.instruction.parent is not dest]
    to_sink = [r for r in to_salvage if r.instruction is not None and r.instruction.parent is src]
    # latest first; records on one instruction keep their relative (findDbgUsers) order
    to_sink.sort(key=lambda r: _position(r), reverse=True)
    last_of: dict[tuple[int, tuple[int, object, int]], DbgVariableRecord | None] = {}
    if len(to_sink) > 1:
        counts: dict[tuple[int, tuple[int, object, int]], int] = {}
        for r in to_sink:
            key = (id(r.instruction), _debug_variable(r))
            counts[key] = counts.get(key, 0) + 1
        dup_insts: dict[int, Instruction] = {}
        for key, n in counts.items():
            if n > 1:
                last_of[key] = None
        for r in to_sink:
            if (id(r.instruction), _debug_variable(r)) in last_of and r.instruction is not None:
                dup_insts[id(r.instruction)] = r.instruction
        for inst in dup_insts.values():
            for other in reversed(inst.dbg_records):
                if not isinstance(other, DbgVariableRecord):
                    continue
                key = (id(inst), _debug_variable(other))
                if key in last_of and last_of[key] is None:
                    last_of[key] = other
    clones: list[DbgVariableRecord] = []
    sunk: set[tuple[int, object, int]] = set()
    for r in to_sink:
        if r.kind is DbgRecordKind.DECLARE:
            continue
        var = _debug_variable(r)
        if last_of:
            key = (id(r.instruction), var)
            if key in last_of and last_of[key] is not r:
                continue
        if var in sunk:
            continue
        sunk.add(var)
        if r.kind is DbgRecordKind.ASSIGN:
            continue
        clones.append(r.clone())
    if not clones:
        return
    salvage_debug_info_for_dbg_values(i, to_salvage)
    for c in clones:
        recs = at.dbg_records
        at.add_dbg_record(c, recs[0] if recs else None)


def _position(rec: DbgVariableRecord) -> int:
    inst = rec.instruction
    assert inst is not None
    n = 0
    node = inst.prev_instruction
    while node is not None:
        n += 1
        node = node.prev_instruction
    return n


def run_combiner(ic: InstCombiner) -> bool:
    """``InstCombinerImpl::run``: pop and visit until the worklist is empty."""
    wl = ic.worklist
    tli = ic.tli
    builder = ic.builder
    sinking = bool(option("instcombine-code-sinking"))
    max_sink_users = int(option("instcombine-max-sink-users"))
    visitors = VISITORS
    while not wl.is_empty():
        while True:
            d = wl.pop_deferred()
            if d is None:
                break
            if is_instruction_trivially_dead(d, tli):
                erase_inst_from_function(ic, d)
                continue
            wl.push(d)
        i = wl.remove_one()
        if i is None:
            continue
        if is_instruction_trivially_dead(i, tli):
            erase_inst_from_function(ic, i)
            continue
        if sinking and i._use_head is not None:
            dest = _sink_block(ic, i, max_sink_users)
            if dest is not None and try_to_sink_instruction(ic, i, dest):
                ic.made_ir_change = True
                for op in i.operands:
                    if isinstance(op, Instruction):
                        wl.push(op)
        builder.position_before(i)
        builder.debug_loc = i.debug_loc
        visitor = visitors.get(i.opcode)
        if visitor is None:
            continue
        result = visitor(ic, i)
        if result is None:
            continue
        if result is not i:
            result.debug_loc = i.debug_loc
            i.replace_all_uses_with(result)
            take_name(result, i)
            bb = i.parent
            assert bb is not None
            result_is_phi = isinstance(result, PHINode)
            if result_is_phi != isinstance(i, PHINode):
                at = bb.first_non_phi if result_is_phi else bb.first_insertion_point
                assert at is not None
                result.insert_before(at)
            else:
                result.insert_before(i)
                recs = i.take_dbg_records()  # the records before i now come before result
                for r in recs:
                    result.add_dbg_record(r)
            wl.push_users_to_worklist(result)
            wl.push(result)
            erase_inst_from_function(ic, i)
        else:
            if is_instruction_trivially_dead(i, tli):
                erase_inst_from_function(ic, i)
            else:
                wl.push_users_to_worklist(i)
                wl.push(i)
        ic.made_ir_change = True
    wl.zap()
    return ic.made_ir_change


def _rpo(fn: Function) -> list[BasicBlock]:
    from llvmpy_mid.analysis.block_frequency_bpi import reverse_post_order

    entry = fn.entry_block
    return list(reverse_post_order(entry)) if entry is not None else []


def combine_instructions_over_function(
    fn: Function,
    dl: DataLayout,
    tli: TargetLibraryInfo | None,
    ac: AssumptionCache | None,
    dt: DominatorTree,
    options: InstCombineOptions = InstCombineOptions(),
    loop_info: object | None = None,
    aa: AAResults | None = None,
    ore: OptimizationRemarkEmitter | None = None,
) -> bool:
    """``combineInstructionsOverFunction``: lower ``#dbg_declare`` records (unless
    ``-instcombine-lower-dbg-declare=0``), then iterate to a fixpoint; True if the IR changed.
    With ``verify_fixpoint``, a change in iteration ``max_iterations + 1`` raises
    :class:`FixpointNotReached`."""
    from llvmpy_mid.transform.utils.debug_declare import lower_dbg_declare

    wl = InstructionWorklist()

    def inserter(new: Instruction) -> None:
        wl.add(new)
        if ac is not None and new.opcode == "call":
            callee = new.operands[-1]
            if isinstance(callee, Function) and callee.name == "llvm.assume":
                ac.register_assumption(new)  # type: ignore[arg-type]

    builder = IRBuilder(folder=TargetFolder(dl), inserter=inserter)
    rpo = _rpo(fn)
    changed = False
    if option("instcombine-lower-dbg-declare"):
        changed = lower_dbg_declare(fn)
    min_size = fn.has_fn_attribute("minsize")
    iteration = 0
    while True:
        iteration += 1
        if iteration > options.max_iterations and not options.verify_fixpoint:
            break
        ic = InstCombiner(
            fn, wl, builder, dl, tli, ac, dt, min_size=bool(min_size), loop_info=loop_info, aa=aa, ore=ore
        )
        made = prepare_worklist(ic, rpo)
        made |= run_combiner(ic)
        if not made:
            break
        changed = True
        if iteration > options.max_iterations:
            raise FixpointNotReached(
                "Instruction Combining did not reach a fixpoint after %d iterations" % options.max_iterations
            )
    return changed


def parse_instcombine_options(params: str) -> InstCombineOptions:
    """``instcombine<max-iterations=N;[no-]verify-fixpoint>`` as opt-19's PassBuilder parses it."""
    max_iterations = 1
    verify = True
    use_loop_info = False
    for part in params.split(";") if params else ():
        enable = not part.startswith("no-")
        name = part[3:] if not enable else part
        if name == "verify-fixpoint":
            verify = enable
        elif name == "use-loop-info":
            use_loop_info = enable
        elif enable and part.startswith("max-iterations="):
            text = part[len("max-iterations="):]
            if not text.isdigit():
                raise PipelineError("invalid argument to InstCombine pass max-iterations parameter: '%s' " % text)
            max_iterations = int(text)
        else:
            raise PipelineError("invalid InstCombine pass parameter '%s' " % part)
    return InstCombineOptions(max_iterations, verify, use_loop_info)


class InstCombinePass(Pass[Function]):
    """``instcombine``: LLVM's peephole canonicaliser."""

    name: ClassVar[str] = "instcombine"

    def __init__(self, options: InstCombineOptions | None = None) -> None:
        self.options = options if options is not None else InstCombineOptions()

    @property
    def log_name(self) -> str:
        return "InstCombinePass"

    def pipeline_params(self) -> str:
        """The parameters as ``-print-pipeline-passes`` writes them (LLVM ``printPipeline``)."""
        o = self.options
        return "max-iterations=%d;%suse-loop-info;%sverify-fixpoint" % (
            o.max_iterations, "" if o.use_loop_info else "no-", "" if o.verify_fixpoint else "no-")

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
        from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis

        from llvmpy_mid.analysis.alias.aa_manager import AAManager
        from llvmpy_mid.analysis.loop_info import LoopAnalysis
        from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitterAnalysis
        from llvmpy_mid.analysis.target_transform_info import TargetIRAnalysis
        from llvmpy_mid.passes.proxies import ModuleAnalysisManagerFunctionProxy

        # In InstCombinePass::run's order, so -debug-pass-manager logs as opt-19 does.
        ac = am.get_result(AssumptionAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        tli = am.get_result(TargetLibraryAnalysis, unit)
        ore = am.get_result(OptimizationRemarkEmitterAnalysis, unit)
        am.get_result(TargetIRAnalysis, unit)
        li: object | None = am.get_cached_result(LoopAnalysis, unit)
        if li is None and self.options.use_loop_info:
            li = am.get_result(LoopAnalysis, unit)
        aa = am.get_result(AAManager, unit)
        am.get_result(ModuleAnalysisManagerFunctionProxy, unit)
        module = unit.parent
        dl = module.data_layout if module is not None else DataLayout()
        if not combine_instructions_over_function(unit, dl, tli, ac, dt, self.options, li, aa, ore):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        return pa


__all__ = [
    "VISITORS",
    "FixpointNotReached",
    "InstCombineOptions",
    "InstCombinePass",
    "combine_instructions_over_function",
    "erase_inst_from_function",
    "parse_instcombine_options",
    "prepare_worklist",
    "run_combiner",
]
