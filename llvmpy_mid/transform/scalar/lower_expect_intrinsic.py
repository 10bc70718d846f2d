"""``lower-expect``: turns ``llvm.expect`` / ``llvm.expect.with.probability``
into ``!prof`` branch weights and removes the calls (LLVM
``LowerExpectIntrinsicPass``, lib/Transforms/Scalar/LowerExpectIntrinsic.cpp).

How, per block in order:
- a conditional ``br`` (or, walking the block backwards, a ``select``) whose
  condition is an expect call, or ``icmp eq/ne`` of an expect call with an
  integer constant, gets ``!{!"branch_weights", !"expected", i32 L, i32 U}``
  (``-likely-branch-weight`` 2000 / ``-unlikely-branch-weight`` 1, or weights
  derived from the probability argument), and reads the expect's argument;
- a ``switch`` on an expect call gets one weight per successor, the expected
  case (or the default) likely;
- every expect call is replaced by its argument; before that, a phi behind the
  argument (through zext/sext/xor-by-constant copies) whose constant incoming
  value contradicts the expectation marks the branch that leads to that
  incoming edge.

What it does not do: the ``-pgo-warn-misexpect`` diagnostics (LLVM's
MisExpect checks only report, they never change the IR).
"""

from __future__ import annotations

import math
from typing import ClassVar

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantFP, ConstantInt
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, SwitchInst
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.prof_data_utils import create_branch_weights
from llvmpy_mid.ir.metadata import MDNode, MDString, Metadata, ValueAsMetadata
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS, declare_option
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = ["LowerExpectIntrinsicPass", "create_branch_weights", "lower_expect_intrinsic"]

_EXPECT = "llvm.expect"
_EXPECT_PROB = "llvm.expect.with.probability"
_INT32_MAX = 2147483647

# Declared in the registry too (so the command line knows them before this module is imported).
declare_option("likely-branch-weight", "uint", 2000, "Weight of the branch likely to be taken (default = 2000)", "lower-expect")
declare_option("unlikely-branch-weight", "uint", 1, "Weight of the branch unlikely to be taken (default = 1)", "lower-expect")


def _expect_kind(call: CallInst) -> str:
    """``llvm.expect`` / ``llvm.expect.with.probability`` for such calls, else ``""``."""
    fn = call.called_function
    if fn is None or not fn.intrinsic_id:
        return ""
    base = lookup_intrinsic(fn.name)
    return base if base is not None and base in (_EXPECT, _EXPECT_PROB) else ""


def _probability(call: CallInst) -> float:
    conf = call.get_arg(2)
    assert isinstance(conf, ConstantFP)
    return conf.value


def _branch_weights(kind: str, call: CallInst, branch_count: int) -> tuple[int, int]:
    """(likely, unlikely) weights of an expect call choosing among ``branch_count`` successors."""
    if kind == _EXPECT:
        return int(OPTIONS.value("likely-branch-weight")), int(OPTIONS.value("unlikely-branch-weight"))
    true_prob = _probability(call)
    false_prob = (1.0 - true_prob) / (branch_count - 1)
    likely = math.ceil(true_prob * float(_INT32_MAX - 1) + 1.0) & 0xFFFFFFFF
    unlikely = math.ceil(false_prob * float(_INT32_MAX - 1) + 1.0) & 0xFFFFFFFF
    return likely, unlikely


def _expect_call(v: Value) -> tuple[CallInst, str, ConstantInt] | None:
    if not isinstance(v, CallInst):
        return None
    kind = _expect_kind(v)
    if not kind:
        return None
    expected = v.get_arg(1)
    if not isinstance(expected, ConstantInt):
        return None
    return v, kind, expected


def _handle_switch(si: SwitchInst) -> bool:
    found = _expect_call(si.condition)
    if found is None:
        return False
    call, kind, expected = found
    n = si.num_cases
    likely, unlikely = _branch_weights(kind, call, n + 1)
    weights = [unlikely] * (n + 1)
    idx = si.find_case_value(expected)
    weights[0 if idx is None else idx + 1] = likely
    si.condition = call.get_arg(0)
    si.set_metadata("prof", create_branch_weights(si.type.context, weights, True))
    return True


def _handle_br_or_select(inst: Instruction, cond_index: int) -> bool:
    """A conditional br (``cond_index`` 0) or select (0) reading an expect call."""
    cond = inst.get_operand(cond_index)
    cmp_const: ConstantInt | None = None
    pred = Predicate.ICMP_NE
    if isinstance(cond, ICmpInst):
        pred = cond.predicate
        if pred != Predicate.ICMP_EQ and pred != Predicate.ICMP_NE:
            return False
        rhs = cond.get_operand(1)
        if not isinstance(rhs, ConstantInt):
            return False
        cmp_const = rhs
        call_v: Value = cond.get_operand(0)
    else:
        call_v = cond
    found = _expect_call(call_v)
    if found is None:
        return False
    if cmp_const is not None and cmp_const.width > 64:
        return False
    call, kind, expected = found
    compared_to = 0 if cmp_const is None else cmp_const.value
    likely, unlikely = _branch_weights(kind, call, 2)
    if ((expected.value & 0xFFFFFFFFFFFFFFFF) == compared_to) == (pred == Predicate.ICMP_EQ):
        weights = [likely, unlikely]
    else:
        weights = [unlikely, likely]
    if isinstance(cond, ICmpInst):
        cond.set_operand(0, call.get_arg(0))
    else:
        inst.set_operand(cond_index, call.get_arg(0))
    inst.set_metadata("prof", create_branch_weights(inst.type.context, weights, True))
    return True


def _dom_conditional(phi: PHINode, i: int) -> BranchInst | None:
    """The conditional br ending the ``i``-th incoming block, or its single predecessor."""
    bb: BasicBlock | None = phi.get_incoming_block(i)
    assert bb is not None
    term = bb.terminator
    if isinstance(term, BranchInst) and term.is_conditional:
        return term
    bb = bb.single_predecessor
    if bb is None:
        return None
    term = bb.terminator
    if not isinstance(term, BranchInst) or term.is_unconditional:
        return None
    return term


def _handle_phi_def(call: CallInst, kind: str) -> None:
    expected = call.get_arg(1)
    if not isinstance(expected, ConstantInt):
        return
    expected_is_likely = True
    if kind == _EXPECT_PROB:
        expected_is_likely = _probability(call) > 0.5
    v: Value = call.get_arg(0)
    ops: list[Instruction] = []
    while not isinstance(v, PHINode):
        opc = getattr(v, "opcode", "")
        if opc in ("zext", "sext"):
            assert isinstance(v, Instruction)
            ops.append(v)
            v = v.get_operand(0)
            continue
        if opc != "xor" or not isinstance(v.get_operand(1), ConstantInt):  # type: ignore[attr-defined]
            return
        assert isinstance(v, Instruction)
        ops.append(v)
        v = v.get_operand(0)
    phi = v

    def apply(c: ConstantInt) -> int:
        value, width = c.value, c.width
        for op in reversed(ops):
            if op.opcode == "xor":
                k = op.get_operand(1)
                assert isinstance(k, ConstantInt)
                value ^= k.value
            elif op.opcode == "zext":
                width = op.type.width  # type: ignore[attr-defined]
            else:
                new_width: int = op.type.width  # type: ignore[attr-defined]
                if value >> (width - 1):
                    value |= ((1 << new_width) - 1) ^ ((1 << width) - 1)
                width = new_width
        return value

    ctx = call.type.context
    for i in range(phi.num_incoming):
        c = phi.get_incoming_value(i)
        if not isinstance(c, ConstantInt):
            continue
        if expected_is_likely == (expected.value == apply(c)):
            continue
        bi = _dom_conditional(phi, i)
        if bi is None:
            continue
        incoming_bb = phi.get_incoming_block(i)

        def from_successor(succ: BasicBlock) -> bool:
            if incoming_bb is succ:
                return True
            return incoming_bb is bi.parent and succ is phi.parent

        likely, unlikely = _branch_weights(kind, call, 2)
        if not expected_is_likely:
            likely, unlikely = unlikely, likely
        if from_successor(bi.get_successor(1)):
            bi.set_metadata("prof", create_branch_weights(ctx, [likely, unlikely], True))
        elif from_successor(bi.get_successor(0)):
            bi.set_metadata("prof", create_branch_weights(ctx, [unlikely, likely], True))


def lower_expect_intrinsic(fn: Function) -> bool:
    """Lower every expect call of ``fn``; True when any was removed."""
    changed = False
    for bb in fn.blocks:
        term = bb.terminator
        if isinstance(term, BranchInst):
            if term.is_conditional:
                _handle_br_or_select(term, 0)
        elif isinstance(term, SwitchInst):
            _handle_switch(term)
        inst = bb.instructions.last
        while inst is not None:
            prev = inst.prev_instruction
            if isinstance(inst, CallInst):
                kind = _expect_kind(inst)
                if kind:
                    _handle_phi_def(inst, kind)
                    inst.replace_all_uses_with(inst.get_arg(0))
                    inst.erase_from_parent()
                    changed = True
            elif inst.opcode == "select":
                _handle_br_or_select(inst, 0)
            inst = prev
    return changed


class LowerExpectIntrinsicPass(Pass[Function]):
    """Expect intrinsics become ``!prof`` branch weights."""

    name: ClassVar[str] = "lower-expect"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if lower_expect_intrinsic(unit):
            return PreservedAnalyses.none()
        return PreservedAnalyses.all()
