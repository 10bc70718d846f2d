"""Code size metrics of blocks and loops (LLVM 19.1.7 ``lib/Analysis/CodeMetrics.cpp``).

What: :func:`collect_ephemeral_values` finds the values that only feed ``llvm.assume`` calls
(of a loop or a function): the assumes themselves, then, through a queue of operands without
side effects, every value all of whose users are ephemeral. :class:`CodeMetrics` sums, over
the blocks given to :meth:`CodeMetrics.analyze_basic_block`, the code-size cost of each
non-ephemeral instruction (``TargetTransformInfo.get_instruction_cost`` with
``TCK_CODE_SIZE``) and records what blocks duplication (``noduplicate`` calls, tokens used
outside their block, ``indirectbr``), convergence, calls, inline candidates, vector
instructions, returns and dynamic allocas.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from llvmpy_mid.analysis.target_transform_info import TCK_CODE_SIZE, InstructionCost
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import Loop
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.function import Function

__all__ = ["CodeMetrics", "ConvergenceKind", "collect_ephemeral_values", "constant_is_dead"]


class ConvergenceKind(IntEnum):
    NONE = 0
    CONTROLLED = 1
    EXTENDED_LOOP = 2
    UNCONTROLLED = 3


def _append_speculatable_operands(v: Value, visited: set[Value], worklist: list[Value]) -> None:
    if not isinstance(v, Instruction):
        return
    for op in v.operands:
        if op in visited:
            continue
        visited.add(op)
        if isinstance(op, Instruction) and not op.may_have_side_effects() and not op.is_terminator:
            worklist.append(op)


def collect_ephemeral_values(scope: Loop | Function, ac: Any) -> set[Value]:
    """The ephemeral values of the assumptions in ``scope`` (a loop or a function) (LLVM
    ``CodeMetrics::collectEphemeralValues``)."""
    from llvmpy_mid.analysis.loop_info import Loop

    eph: set[Value] = set()
    visited: set[Value] = set()
    worklist: list[Value] = []
    if ac is None:
        return eph
    for assume in ac.assumptions():
        if assume is None or assume.parent is None:
            continue
        if isinstance(scope, Loop) and not scope.contains(assume.parent):
            continue
        if assume not in eph:
            eph.add(assume)
            _append_speculatable_operands(assume, visited, worklist)
    i = 0
    while i < len(worklist):
        v = worklist[i]
        i += 1
        if not all(u in eph for u in v.users):
            continue
        eph.add(v)
        _append_speculatable_operands(v, visited, worklist)
    return eph


def constant_is_dead(c: Value) -> bool:
    """LLVM ``constantIsDead`` without removal: a constant (not a global) whose users are
    all dead constants."""
    from llvmpy_mid.ir.global_value import GlobalValue

    stack = [c]
    seen: set[int] = set()
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if isinstance(v, GlobalValue) or not v.is_constant:
            return False
        stack.extend(v.users)
    return True


def _has_one_live_use(fn: Function) -> bool:
    """LLVM ``Constant::hasOneLiveUse``: one use, not counting uses by dead constants."""
    count = 0
    for use in fn.uses:
        user = use.user
        if user.is_constant and constant_is_dead(user):
            continue
        count += 1
    return count == 1


def _extends_convergence_outside_loop(inst: Instruction, loop: Loop | None) -> bool:
    if loop is None or getattr(inst, "intrinsic_name", None) not in _CONVERGENCE_CONTROL:
        return False
    return any(isinstance(u, Instruction) and not loop.contains(u) for u in inst.users)


_CONVERGENCE_CONTROL = frozenset(
    (
        "llvm.experimental.convergence.entry",
        "llvm.experimental.convergence.anchor",
        "llvm.experimental.convergence.loop",
    )
)


class CodeMetrics:
    """Size and duplication facts of the analysed blocks (LLVM ``CodeMetrics``)."""

    def __init__(self) -> None:
        self.is_recursive = False
        self.not_duplicatable = False
        self.convergence = ConvergenceKind.NONE
        self.uses_dynamic_alloca = False
        self.num_insts = InstructionCost(0)
        self.num_blocks = 0
        self.num_bb_insts: dict[BasicBlock, InstructionCost] = {}
        self.num_calls = 0
        self.num_inline_candidates = 0
        self.num_vector_insts = 0
        self.num_rets = 0

    def analyze_basic_block(
        self, bb: BasicBlock, tti: Any, eph_values: set[Value], prepare_for_lto: bool = False, loop: Loop | None = None
    ) -> None:
        """Add ``bb``'s instructions (LLVM ``analyzeBasicBlock``)."""
        from llvmpy_mid.ir.instructions.calls import CallBase
        from llvmpy_mid.ir.instructions.memory import AllocaInst

        self.num_blocks += 1
        fn = bb.parent
        for inst in bb.instructions:
            if inst in eph_values:
                continue
            if isinstance(inst, CallBase):
                callee = inst.called_function
                if callee is not None:
                    lowered = bool(tti.is_lowered_to_call(callee))
                    if (
                        not inst.is_no_inline
                        and lowered
                        and ((callee.has_internal_linkage and _has_one_live_use(callee)) or prepare_for_lto)
                    ):
                        self.num_inline_candidates += 1
                    if callee is fn:
                        self.is_recursive = True
                    if lowered:
                        self.num_calls += 1
                elif not inst.is_inline_asm_call:
                    self.num_calls += 1
            if isinstance(inst, AllocaInst) and not inst.is_static_alloca:
                self.uses_dynamic_alloca = True
            if inst.opcode == "extractelement" or inst.type.is_vector:
                self.num_vector_insts += 1
            is_cc = getattr(inst, "intrinsic_name", None) in _CONVERGENCE_CONTROL
            if inst.type.is_token and not is_cc and _used_outside_block(inst, bb):
                self.not_duplicatable = True
            if isinstance(inst, CallBase):
                if inst.cannot_duplicate:
                    self.not_duplicatable = True
                if self.convergence <= ConvergenceKind.CONTROLLED and inst.is_convergent:
                    if is_cc or _has_convergence_token(inst):
                        if _extends_convergence_outside_loop(inst, loop):
                            self.convergence = ConvergenceKind.EXTENDED_LOOP
                        else:
                            self.convergence = ConvergenceKind.CONTROLLED
                    else:
                        self.convergence = ConvergenceKind.UNCONTROLLED
            self.num_insts = self.num_insts + tti.get_instruction_cost(inst, TCK_CODE_SIZE)
        term = bb.terminator
        if term is not None and term.opcode == "ret":
            self.num_rets += 1
        if term is not None and term.opcode == "indirectbr":
            self.not_duplicatable = True
        self.num_bb_insts[bb] = self.num_insts


def _used_outside_block(inst: Instruction, bb: BasicBlock) -> bool:
    for u in inst.users:
        if not isinstance(u, Instruction) or u.parent is not bb:
            return True
        if u.is_phi:
            return True
    return False


def _has_convergence_token(call: Any) -> bool:
    return call.get_operand_bundle("convergencectrl") is not None
