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
from llvmpy_mid.errors import LLVMPyError, PipelineError
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantVector
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
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
from llvmpy_mid.transform.instcombine.combiner import InstCombiner, take_name
from llvmpy_mid.transform.utils.instruction_worklist import InstructionWorklist
from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead, salvage_debug_info

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo

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


class FixpointNotReached(LLVMPyError):
    """``instcombine`` with ``verify-fixpoint`` changed the IR after ``max-iterations`` iterations."""


@attrs.frozen(slots=True)
class InstCombineOptions:
    """``instcombine<max-iterations=N;verify-fixpoint>`` (LLVM ``InstCombineOptions``)."""

    max_iterations: int = 1
    verify_fixpoint: bool = True
    """opt-19's pass parser turns verification on unless ``no-verify-fixpoint``."""


def erase_inst_from_function(ic: InstCombiner, i: Instruction) -> None:
    """LLVM ``InstCombinerImpl::eraseInstFromFunction``."""
    wl = ic.worklist
    for op in i.operands:
        if op is not None:
            wl.handle_use_count_decrement(op)
    salvage_debug_info(i)
    wl.remove(i)
    i.erase_from_parent()
    ic.made_ir_change = True


def _is_debug_or_pseudo(i: Instruction) -> bool:
    if i.opcode != "call":
        return False
    callee = i.operands[-1]
    name = callee.name if isinstance(callee, Function) else ""
    return name.startswith("llvm.dbg.") or name == "llvm.pseudoprobe"


def prepare_worklist(ic: InstCombiner, order: list[object]) -> bool:
    """``prepareWorklist``: fold constants in RPO and seed the worklist."""
    changed = False
    dl = ic.dl
    tli = ic.tli
    folded: dict[Constant, Constant] = {}
    seed: list[Instruction] = []
    for bb in order:
        node = bb.instructions._first  # type: ignore[attr-defined]
        while node is not None:
            inst: Instruction = node
            node = node._next
            if inst._use_head is not None and (not inst.operands or isinstance(inst.operands[0], Constant)):
                c = constant_fold_instruction(inst, dl, tli)
                if c is not None:
                    inst.replace_all_uses_with(c)
                    if is_instruction_trivially_dead(inst, tli):
                        inst.erase_from_parent()
                    changed = True
                    continue
            for idx, op in enumerate(inst.operands):
                if isinstance(op, (ConstantVector, ConstantExpr)):
                    res = folded.get(op)
                    if res is None:
                        res = constant_fold_constant(op, dl)
                        folded[op] = res
                    if res is not op:
                        inst.set_operand(idx, res)
                        changed = True
            if not _is_debug_or_pseudo(inst):
                seed.append(inst)
    wl = ic.worklist
    for inst in reversed(seed):
        wl.push(inst)
    return changed


def run_combiner(ic: InstCombiner) -> bool:
    """``InstCombinerImpl::run``: pop and visit until the worklist is empty."""
    wl = ic.worklist
    tli = ic.tli
    builder = ic.builder
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
        builder.position_before(i)
        builder.debug_loc = i.debug_loc
        visitor = VISITORS.get(i.opcode)
        if visitor is None:
            continue
        result = visitor(ic, i)
        if result is None:
            continue
        ic.made_ir_change = True
        if result is not i:
            result.debug_loc = i.debug_loc
            i.replace_all_uses_with(result)
            take_name(result, i)
            bb = i.parent
            assert bb is not None
            if isinstance(result, PHINode) or not isinstance(i, PHINode):
                result.insert_before(i)
            else:
                first = bb.first_non_phi
                assert first is not None
                result.insert_before(first)
            wl.push_users_to_worklist(result)
            wl.push(result)
            erase_inst_from_function(ic, i)
        else:
            if is_instruction_trivially_dead(i, tli):
                erase_inst_from_function(ic, i)
            else:
                wl.push_users_to_worklist(i)
                wl.push(i)
    return ic.made_ir_change


def _rpo(fn: Function) -> list[object]:
    from llvmpy_mid.analysis.block_frequency_bpi import reverse_post_order

    entry = fn.entry_block
    return list(reverse_post_order(entry)) if entry is not None else []


def combine_instructions_over_function(
    fn: Function,
    dl: DataLayout,
    tli: TargetLibraryInfo | None,
    ac: AssumptionCache | None,
    dt: object,
    options: InstCombineOptions = InstCombineOptions(),
) -> bool:
    """``combineInstructionsOverFunction``: iterate to a fixpoint; True if the IR changed."""
    wl = InstructionWorklist()

    def inserter(new: Instruction) -> None:
        wl.add(new)
        if ac is not None and new.opcode == "call":
            callee = new.operands[-1]
            if isinstance(callee, Function) and callee.name == "llvm.assume":
                ac.register_assumption(new)  # type: ignore[arg-type]

    builder = IRBuilder(folder=TargetFolder(dl), inserter=inserter)
    changed = False
    iteration = 0
    while True:
        iteration += 1
        if iteration > options.max_iterations and not options.verify_fixpoint:
            break
        ic = InstCombiner(fn, wl, builder, dl, tli, ac, dt)  # type: ignore[arg-type]
        made = prepare_worklist(ic, _rpo(fn))
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
    for part in params.split(";") if params else ():
        enable = not part.startswith("no-")
        name = part[3:] if not enable else part
        if name == "verify-fixpoint":
            verify = enable
        elif name == "use-loop-info":
            pass  # LoopInfo is only a hint to LLVM's folds; accepted as opt-19 accepts it
        elif enable and part.startswith("max-iterations="):
            text = part[len("max-iterations="):]
            if not text.isdigit():
                raise PipelineError("invalid argument to InstCombine pass max-iterations parameter: '%s' " % text)
            max_iterations = int(text)
        else:
            raise PipelineError("invalid InstCombine pass parameter '%s' " % part)
    return InstCombineOptions(max_iterations, verify)


class InstCombinePass(Pass[Function]):
    """``instcombine``: LLVM's peephole canonicaliser."""

    name: ClassVar[str] = "instcombine"

    def __init__(self, options: InstCombineOptions | None = None) -> None:
        self.options = options if options is not None else InstCombineOptions()

    @property
    def log_name(self) -> str:
        return "InstCombinePass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
        from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis

        dt = am.get_result(DominatorTreeAnalysis, unit)
        tli = am.get_result(TargetLibraryAnalysis, unit)
        ac = am.get_result(AssumptionAnalysis, unit)
        module = unit.parent
        dl = module.data_layout if module is not None else DataLayout()
        if not combine_instructions_over_function(unit, dl, tli, ac, dt, self.options):
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
