"""Reading and writing ``!prof`` branch weights (LLVM 19.1.7
``llvm/lib/IR/ProfDataUtils.cpp`` and ``MDBuilder::createBranchWeights``).

What: :func:`create_branch_weights` builds ``!{!"branch_weights", [!"expected",] i32 ...}``;
:func:`extract_branch_weights` reads the weights of an instruction (None when it has
no valid ``branch_weights`` node); :func:`has_branch_weight_origin` tells whether the
weights came from ``llvm.expect`` (the ``"expected"`` marker);
:func:`has_valid_branch_weight_md` checks the count against the successors;
:func:`set_branch_weights` attaches weights (dropping the node when every weight is
zero, as SimplifyCFG does with :func:`set_branch_weights_if_nonzero`).
"""

from __future__ import annotations

from typing import Sequence

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode, MDString, Metadata, ValueAsMetadata

_U32 = 0xFFFFFFFF


def create_branch_weights(ctx: Context, weights: Sequence[int], is_expected: bool = False) -> MDNode:
    """``!{!"branch_weights", [!"expected",] i32 w...}`` (LLVM ``MDBuilder::createBranchWeights``)."""
    ops: list[Metadata | None] = [MDString.get(ctx, "branch_weights")]
    if is_expected:
        ops.append(MDString.get(ctx, "expected"))
    i32 = ctx.i32
    ops.extend(ValueAsMetadata.get(ConstantInt.get(i32, w & _U32)) for w in weights)
    return MDNode.get(ctx, ops)


def _weight_operands(md: MDNode | None) -> list[Metadata | None] | None:
    if not isinstance(md, MDNode):
        return None
    ops = list(md.operands)
    if len(ops) < 2 or not isinstance(ops[0], MDString) or ops[0].string != "branch_weights":
        return None
    ops = ops[1:]
    if ops and isinstance(ops[0], MDString):
        if ops[0].string != "expected":
            return None
        ops = ops[1:]
    return ops


def is_branch_weight_md(md: MDNode | None) -> bool:
    """LLVM ``isBranchWeightMD``: the node is a ``branch_weights`` node."""
    return _weight_operands(md) is not None


def has_branch_weight_md(inst: Instruction) -> bool:
    """LLVM ``hasBranchWeightMD``."""
    return is_branch_weight_md(inst.get_metadata("prof"))


def has_branch_weight_origin(inst: Instruction) -> bool:
    """LLVM ``hasBranchWeightOrigin``: the weights carry the ``"expected"`` marker."""
    md = inst.get_metadata("prof")
    if not isinstance(md, MDNode) or not is_branch_weight_md(md):
        return False
    ops = md.operands
    return len(ops) > 1 and isinstance(ops[1], MDString) and ops[1].string == "expected"


def extract_branch_weights_md(md: MDNode | None) -> list[int] | None:
    """The weights of a ``branch_weights`` node as unsigned 32-bit numbers (LLVM
    ``extractBranchWeights(const MDNode *, ...)``); None if it is not one."""
    ops = _weight_operands(md)
    if ops is None:
        return None
    weights: list[int] = []
    for op in ops:
        if not isinstance(op, ConstantAsMetadata) or not isinstance(op.value, ConstantInt):
            return None
        weights.append(op.value.value & _U32)
    return weights


def extract_branch_weights(inst: Instruction) -> list[int] | None:
    """LLVM ``extractBranchWeights(const Instruction &, ...)``."""
    return extract_branch_weights_md(inst.get_metadata("prof"))


def has_valid_branch_weight_md(inst: Instruction) -> bool:
    """LLVM ``hasValidBranchWeightMD``: weights present and (for a terminator) one per successor."""
    weights = extract_branch_weights(inst)
    if weights is None:
        return False
    if inst.is_terminator:
        return len(weights) == len(inst.successors)
    return True


def set_branch_weights(inst: Instruction, weights: Sequence[int], is_expected: bool = False) -> None:
    """LLVM ``setBranchWeights``: attach the weights unconditionally."""
    inst.set_metadata("prof", create_branch_weights(inst.context, weights, is_expected))


def set_branch_weights_if_nonzero(inst: Instruction, weights: Sequence[int], is_expected: bool = False) -> None:
    """SimplifyCFG's ``setBranchWeights``: the node when some weight is non-zero, else no ``!prof``."""
    if any(w != 0 for w in weights):
        set_branch_weights(inst, weights, is_expected)
    else:
        inst.set_metadata("prof", None)


def fit_weights(weights: list[int]) -> list[int]:
    """Halve 64-bit weights until the largest fits in 32 bits (SimplifyCFG's ``FitWeights``)."""
    if not weights:
        return weights
    largest = max(weights)
    if largest > _U32:
        shift = largest.bit_length() - 32
        return [w >> shift for w in weights]
    return weights


__all__ = [
    "create_branch_weights",
    "extract_branch_weights",
    "extract_branch_weights_md",
    "fit_weights",
    "get_merged_prof_metadata",
    "has_branch_weight_md",
    "has_branch_weight_origin",
    "has_valid_branch_weight_md",
    "is_branch_weight_md",
    "set_branch_weights",
    "set_branch_weights_if_nonzero",
]


def get_merged_prof_metadata(
    a: MDNode | None, b: MDNode | None, a_inst: Instruction, b_inst: Instruction
) -> MDNode | None:
    """The ``!prof`` of one instruction replacing ``a_inst`` and ``b_inst`` (LLVM
    ``MDNode::getMergedProfMetadata``): either node when the other is missing; for two
    direct calls with ``branch_weights``, one i64 weight, the saturated sum
    (``mergeDirectCallProfMetadata``); otherwise none."""
    if a is None or b is None:
        return a if a is not None else b
    from llvmpy_mid.ir.instructions.calls import CallInst

    if not (
        isinstance(a_inst, CallInst)
        and isinstance(b_inst, CallInst)
        and a_inst.called_function is not None
        and b_inst.called_function is not None
    ):
        return None
    wa = _weight_operands(a)
    wb = _weight_operands(b)
    if not wa or not wb:
        return None
    ca = getattr(wa[0], "value", None)
    cb = getattr(wb[0], "value", None)
    if not isinstance(ca, ConstantInt) or not isinstance(cb, ConstantInt):
        return None
    ctx = a_inst.context
    za = ca.value & ((1 << ca.type.width) - 1)
    zb = cb.value & ((1 << cb.type.width) - 1)
    total = min(za + zb, (1 << 64) - 1)
    return MDNode.get(ctx, [MDString.get(ctx, "branch_weights"), ValueAsMetadata.get(ConstantInt.get(ctx.i64, total))])
