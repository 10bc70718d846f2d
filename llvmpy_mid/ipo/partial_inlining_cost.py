"""The partial inliner's size and runtime cost estimates (LLVM 19.1.7
``lib/Transforms/IPO/PartialInlining.cpp``: ``computeBBInlineCost``,
``computeOutliningCosts``, the ``BranchProbability``/``BlockFrequency`` arithmetic of
``getOutliningCallBBRelativeFreq`` and ``tryPartialInline``).

What: :func:`compute_bb_inline_cost` is the partial inliner's own simplified inline cost
of a block (an instruction cost per instruction, casts, allocas, phis, all-zero GEPs and
lifetime markers free, intrinsics at their target cost, calls at the inliner's call-site
cost, switches per case); :func:`outlining_costs` gives the call-sequence size and the
runtime overhead of a set of outlined functions; the small helpers reproduce LLVM's
fixed-point probability (numerator over 2**31) and 64-bit frequency arithmetic.
"""

from __future__ import annotations

import struct
from typing import Callable, Sequence

from llvmpy_mid.analysis.block_frequency_scaled import ONE, probability
from llvmpy_mid.analysis.inline_cost import get_callsite_cost, instr_cost
from llvmpy_mid.analysis.target_transform_info import TargetTransformInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.terminators import InvokeInst, SwitchInst

__all__ = [
    "U64_MAX",
    "branch_probability",
    "compute_bb_inline_cost",
    "float32",
    "outlining_costs",
    "scale_frequency",
]

U64_MAX = (1 << 64) - 1
_U32_MAX = (1 << 32) - 1
_FREE_OPCODES = frozenset(("bitcast", "ptrtoint", "inttoptr", "alloca", "phi"))


def float32(value: float) -> float:
    """``value`` rounded to a C ``float`` (the type of LLVM's ``cl::opt<float>``)."""
    return float(struct.unpack("f", struct.pack("f", value))[0])


def branch_probability(numerator: int, denominator: int) -> int:
    """LLVM ``BranchProbability::getBranchProbability`` of two 64-bit counts: the
    denominator shifted below 2**32 (the numerator with it), then rounded to 2**31ths."""
    shift = 0
    while denominator > _U32_MAX:
        denominator >>= 1
        shift += 1
    if denominator == 0:
        return ONE
    return probability(numerator >> shift, denominator)


def scale_frequency(frequency: int, prob: int) -> int:
    """``BlockFrequency(frequency) * BranchProbability(prob)``: ``frequency`` taken as an
    unsigned 64-bit value, times ``prob / 2**31`` rounded down."""
    frequency &= U64_MAX
    return (frequency * prob // ONE) & U64_MAX


def _is_debug_or_pseudo(name: str) -> bool:
    return name.startswith("llvm.dbg.") or name == "llvm.pseudoprobe"


def compute_bb_inline_cost(bb: BasicBlock, tti: TargetTransformInfo) -> int:
    """LLVM ``PartialInlinerImpl::computeBBInlineCost``."""
    unit = instr_cost()
    cost = 0
    for inst in bb:
        opcode = inst.opcode
        callee_name = ""
        if isinstance(inst, CallBase):
            callee = inst.called_function
            if callee is not None:
                callee_name = callee.name
            if _is_debug_or_pseudo(callee_name):
                continue
        if opcode in _FREE_OPCODES:
            continue
        if opcode == "getelementptr" and getattr(inst, "has_all_zero_indices", False):
            continue
        if isinstance(inst, CallInst) and callee_name.startswith("llvm."):
            if callee_name.startswith("llvm.lifetime.start") or callee_name.startswith("llvm.lifetime.end"):
                continue
            intrinsic_cost = tti.get_intrinsic_instr_cost(callee_name)
            cost += intrinsic_cost.value if intrinsic_cost.value is not None else 0
            continue
        if isinstance(inst, (CallInst, InvokeInst)):
            cost += get_callsite_cost(tti, inst)
            continue
        if isinstance(inst, SwitchInst):
            cost += (inst.num_cases + 1) * unit
            continue
        cost += unit
    return cost


def outlining_costs(
    outlined: Sequence[tuple[Function, BasicBlock]],
    outlined_region_cost: int,
    get_tti: Callable[[Function], TargetTransformInfo],
    extra_penalty: int,
) -> tuple[int, int]:
    """LLVM ``computeOutliningCosts``: (the size of the call sequences to the outlined
    functions, the runtime overhead of calling them). The overhead counts the outlined
    functions' growth over the region they came from, less the two branches per function
    (new root and exit stub) that block layout removes."""
    call_cost = 0
    function_cost = 0
    for fn, call_bb in outlined:
        tti = get_tti(fn)
        call_cost += compute_bb_inline_cost(call_bb, tti)
        for bb in fn.blocks:
            function_cost += compute_bb_inline_cost(bb, tti)
    function_cost -= 2 * instr_cost() * len(outlined)
    overhead = call_cost + (function_cost - outlined_region_cost) + extra_penalty
    return call_cost, overhead
