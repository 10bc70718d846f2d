"""Profile counts of inlined code (LLVM ``updateCallProfile`` / ``updateProfileCallee``,
lib/Transforms/Utils/InlineFunction.cpp; ``scaleProfData`` and
``extractProfTotalWeight`` of lib/IR/ProfDataUtils.cpp; the call-site count of
``ProfileSummaryInfo::getProfileCount``).

When the callee has a real entry count, the inlined call site's count (the call's
``!prof`` total under a sample profile, else the caller's block count from its block
frequencies) — capped at the entry count — moves from the callee to the clone: the
cloned calls' ``!prof`` (branch weights and value profiles) are scaled by
count/entry, the callee's entry count drops by the count and its own calls are scaled
by new/old entry count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.terminators import InvokeInst
from llvmpy_mid.ir.metadata import ConstantAsMetadata, Metadata, MDNode, MDString
from llvmpy_mid.ir.module import Module

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.clone_function import TrackingValueMap
    from llvmpy_mid.transform.utils.inline_function import InlineFunctionInfo

__all__ = ["extract_prof_total_weight", "has_sample_profile", "scale_prof_data", "update_call_profile",
           "update_profile_callee"]

_U64 = (1 << 64) - 1
_U32 = (1 << 32) - 1


def _entry_count(fn: Function) -> tuple[int, bool] | None:
    """``(count, synthetic)`` of ``fn``'s ``!prof`` entry count."""
    md = fn.get_metadata("prof")
    if md is None or md.num_operands < 2:
        return None
    name = md.get_operand(0)
    if not isinstance(name, MDString):
        return None
    kind = name.string
    if kind not in ("function_entry_count", "synthetic_function_entry_count"):
        return None
    op = md.get_operand(1)
    value = op.value if isinstance(op, ConstantAsMetadata) else None
    if not isinstance(value, ConstantInt):
        return None
    count = value.value & _U64
    if kind == "function_entry_count" and count == _U64:
        return None
    return count, kind != "function_entry_count"


def _int_op(md: MDNode, i: int) -> int | None:
    op = md.get_operand(i)
    value = op.value if isinstance(op, ConstantAsMetadata) else None
    return value.value & _U64 if isinstance(value, ConstantInt) else None


def _branch_weight_offset(md: MDNode) -> int:
    op = md.get_operand(1) if md.num_operands > 1 else None
    return 2 if isinstance(op, MDString) and op.string == "expected" else 1


def extract_prof_total_weight(md: MDNode | None) -> int | None:
    """LLVM ``extractProfTotalWeight``."""
    if md is None or md.num_operands == 0:
        return None
    name = md.get_operand(0)
    if not isinstance(name, MDString):
        return None
    if name.string == "branch_weights":
        total = 0
        for i in range(_branch_weight_offset(md), md.num_operands):
            total += _int_op(md, i) or 0
        return total
    if name.string == "VP" and md.num_operands > 3:
        return _int_op(md, 2)
    return None


def has_sample_profile(module: Module) -> bool:
    """The module's ``ProfileSummary`` flag says ``SampleProfile``."""
    from llvmpy_mid.ir.module_flags import get_module_flag

    summary = get_module_flag(module, "ProfileSummary")
    if not isinstance(summary, MDNode):
        return False
    for entry in summary.operands:
        if isinstance(entry, MDNode) and entry.num_operands == 2:
            key, value = entry.get_operand(0), entry.get_operand(1)
            if isinstance(key, MDString) and key.string == "ProfileFormat":
                return isinstance(value, MDString) and value.string == "SampleProfile"
    return False


def scale_prof_data(inst: Instruction, s: int, t: int) -> None:
    """LLVM ``scaleProfData``: branch weights and value-profile counts times s/t."""
    if t == 0:
        return
    md = inst.get_metadata("prof")
    if md is None or md.num_operands == 0:
        return
    name = md.get_operand(0)
    if not isinstance(name, MDString) or name.string not in ("branch_weights", "VP"):
        return
    # hasCountTypeMD: value profiles, or a call's !prof that is not a (two or more)
    # branch-weight list.
    if name.string == "branch_weights" and (not isinstance(inst, CallBase) or md.num_operands >= 3):
        return
    ctx = inst.type.context
    vals: list[Metadata | None] = [name]
    if name.string == "branch_weights":
        w = _int_op(md, _branch_weight_offset(md))
        if w is None:
            return
        vals.append(ConstantAsMetadata.get(ConstantInt.get(ctx.i32, min(w * s // t, _U32))))
    else:
        for i in range(1, md.num_operands - 1, 2):
            vals.append(md.get_operand(i))
            count = _int_op(md, i + 1)
            if count is None:
                return
            if count == _U64:
                vals.append(md.get_operand(i + 1))
                continue
            vals.append(ConstantAsMetadata.get(ConstantInt.get(ctx.i64, min(count * s // t, _U64))))
    inst.set_metadata("prof", MDNode.get(ctx, vals))


def _vtable_instruction(call: CallBase) -> Instruction | None:
    """LLVM ``PGOIndirectCallVisitor::tryGetVTableInstruction``: the instruction the
    loaded function pointer of an indirect call is addressed from."""
    from llvmpy_mid.ir.instructions.casts import CastInst
    from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
    from llvmpy_mid.ir.instructions.memory import LoadInst

    if not call.is_indirect_call:
        return None
    load = call.called_operand
    if not isinstance(load, LoadInst):
        return None
    v = load.pointer_operand
    while True:
        if isinstance(v, GetElementPtrInst) and v.inbounds and all(isinstance(i, ConstantInt) for i in v.indices):
            v = v.pointer_operand
        elif isinstance(v, CastInst) and v.opcode in ("bitcast", "addrspacecast"):
            v = v.get_operand(0)
        else:
            break
    return v if isinstance(v, Instruction) else None


def _scale_call(call: CallBase, s: int, t: int) -> None:
    scale_prof_data(call, s, t)
    vptr = _vtable_instruction(call)
    if vptr is not None:
        scale_prof_data(vptr, s, t)


def update_profile_callee(fn: Function, entry_delta: int, vmap: TrackingValueMap | None) -> None:
    """LLVM ``updateProfileCallee``."""
    found = _entry_count(fn)
    if found is None:
        return
    prior = found[0]
    new = 0 if entry_delta < 0 and -entry_delta > prior else prior + entry_delta
    if vmap is not None and prior != 0:
        clone_count = prior - new
        for old in list(vmap.keys()):
            if isinstance(old, (CallInst, InvokeInst)):
                copy = vmap.get(old)
                if isinstance(copy, type(old)):
                    _scale_call(copy, clone_count, prior)
    if entry_delta:
        ctx = fn.type.context
        fn.set_metadata(
            "prof",
            MDNode.get(ctx, [MDString.get(ctx, "function_entry_count"), ConstantAsMetadata.get(ConstantInt.get(ctx.i64, new))]),
        )
        if prior == 0:
            return
        for bb in fn.blocks:
            if vmap is not None and bb not in vmap:
                continue
            for inst in bb.instructions:
                if isinstance(inst, (CallInst, InvokeInst)):
                    _scale_call(inst, new, prior)


def _call_site_count(call: CallBase, ifi: InlineFunctionInfo) -> int | None:
    """``ProfileSummaryInfo::getProfileCount`` of the call (None without a PSI)."""
    if ifi.psi is None:
        return None
    fn = call.function
    assert fn is not None and fn.parent is not None
    if has_sample_profile(fn.parent):
        return extract_prof_total_weight(call.get_metadata("prof"))
    bfi: Any = ifi.caller_bfi
    if bfi is None:
        return None
    bfi = ifi.caller_bfi = _resolve(bfi)
    from llvmpy_mid.analysis.block_frequency_printers import function_entry_count, profile_count

    entry = function_entry_count(fn)
    block = call.parent
    if entry is None or block is None:
        return None
    freq = bfi.frequency(block)
    entry_freq = bfi.frequency(fn.entry_block)
    return profile_count(entry, freq, entry_freq)


def _resolve(bfi: object | None) -> Any:
    if bfi is not None and callable(bfi) and not hasattr(bfi, "frequency"):
        return bfi()
    return bfi


def update_caller_bfi(call_site_block: BasicBlock, vmap: TrackingValueMap, ifi: InlineFunctionInfo, callee: Function) -> None:
    """LLVM ``updateCallerBFI``: the cloned blocks take the callee's frequencies (the
    largest when several map to one), scaled so the cloned entry has the call site's."""
    if ifi.caller_bfi is None or ifi.callee_bfi is None:
        return
    # Without an entry count the frequencies still matter: the inline cost's cold and locally hot
    # call sites compare them, and the module inliner keeps the caller's BFI across inlinings.
    caller_bfi = ifi.caller_bfi = _resolve(ifi.caller_bfi)
    callee_bfi = ifi.callee_bfi = _resolve(ifi.callee_bfi)
    cloned: dict[BasicBlock, None] = {}
    for old in list(vmap.keys()):
        if not isinstance(old, BasicBlock):
            continue
        new = vmap.get(old)
        if not isinstance(new, BasicBlock):
            continue
        freq = callee_bfi.frequency(old)
        if new in cloned:
            freq = max(freq, caller_bfi.frequency(new))
        cloned[new] = None
        caller_bfi.set_block_freq(new, freq)
    entry_clone = vmap.get(callee.entry_block)
    assert isinstance(entry_clone, BasicBlock)
    caller_bfi.set_block_freq_and_scale(entry_clone, caller_bfi.frequency(call_site_block), list(cloned))


def update_call_profile(callee: Function, vmap: TrackingValueMap, call: CallBase, ifi: InlineFunctionInfo) -> None:
    """LLVM ``updateCallProfile`` (entry count taken before inlining)."""
    found = _entry_count(callee)
    if found is None:
        return
    count, synthetic = found
    if synthetic or count < 1:
        return
    site = _call_site_count(call, ifi)
    call_count = min(site if site is not None else 0, count)
    update_profile_callee(callee, -call_count, vmap)
