"""``tailcallelim``: tail-call marking and tail-recursion elimination (LLVM
``TailCallElimPass``, lib/Transforms/Scalar/TailRecursionElimination.cpp).

What: two things, in LLVM's order.

* **Marking**: a call that cannot see the caller's stack frame gets the ``tail``
  marker. A call to a ``readnone`` callee whose arguments are all constants or
  non-``byval`` arguments is marked at once; any other call is marked when no
  alloca (or ``byval`` argument) of the function reaches it through its operands
  and no such pointer has escaped on any path to it. The walk over the blocks keeps
  "escaped" and "not escaped" work lists, as LLVM does, so a block reached after an
  escape is revisited. Nothing is marked in a function that calls a
  ``returns_twice`` function.
* **Elimination**: a self-recursive ``tail`` call in a returning block, after which
  only movable instructions come (or one associative and commutative operation on
  the call's result feeding the return: accumulator recursion), becomes a branch to
  the old entry block, now the loop header ``tailrecurse`` behind a new entry block
  that keeps the old name and the static allocas. Each argument gets a phi
  ``<arg>.tr``; a non-void function gets ``ret.tr``/``ret.known.tr`` to keep a
  return value already known (with ``current.ret.tr`` selects at the other
  returns), and accumulator recursion an ``accumulator.tr`` phi with the
  operation's identity and ``accumulator.ret.tr`` copies at the returns. A block
  ending in an unconditional branch to a block that only returns gets the return
  folded in first (``FoldReturnIntoUncondBranch``). ``byval`` arguments are copied
  through a temporary. Nothing happens in varargs functions, functions with dynamic
  allocas or with ``"disable-tail-calls"="true"``.

The remarks (``-pass-remarks=tailcallelim``), statistics and the preserved
dominator trees are LLVM's.

What it does not do: nothing of TailRecursionElimination.cpp is left out.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.alias.aa_results import AAResults, is_mod_set
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.capture_tracking import _data_operand_does_not_capture
from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
from llvmpy_mid.analysis.loads import is_safe_to_load_unconditionally_for_type
from llvmpy_mid.analysis.optimization_remark_emitter import (
    OptimizationRemarkEmitter,
    OptimizationRemarkEmitterAnalysis,
)
from llvmpy_mid.analysis.remark import optimization_remark
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.target_transform_info import TargetIRAnalysis, TargetTransformInfo
from llvmpy_mid.analysis.underlying_objects import find_alloca_for_value
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_fold import get_bin_op_identity
from llvmpy_mid.ir.constants import Constant, ConstantInt, PoisonValue
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.flags import TailCallKind
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst, ReturnInst
from llvmpy_mid.ir.types import IntegerType, Type
from llvmpy_mid.ir.value import Use, Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis, PostDominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.basic_block_utils import (
    fold_return_into_uncond_branch,
    is_debug_or_pseudo_probe_call,
)
from llvmpy_mid.transform.utils.build_lib_calls import create_mem_cpy

__all__ = ["TailCallElimPass", "eliminate_tail_recursion"]

DEBUG_TYPE = "tailcallelim"
NUM_ELIMINATED = Statistic(DEBUG_TYPE, "NumEliminated", "Number of tail calls removed")
NUM_RET_DUPED = Statistic(DEBUG_TYPE, "NumRetDuped", "Number of return duplicated")
NUM_ACCUM_ADDED = Statistic(DEBUG_TYPE, "NumAccumAdded", "Number of accumulators introduced")

#: Operand bundles that do not stop a call from being marked ``tail``.
_TAIL_SAFE_BUNDLES = ("clang.arc.attachedcall", "ptrauth", "kcfi")

_UNVISITED, _UNESCAPED, _ESCAPED = 0, 1, 2


def _can_tre(fn: Function) -> bool:
    """No dynamic alloca (LLVM ``canTRE``)."""
    return all(not isinstance(i, AllocaInst) or i.is_static_alloca for bb in fn.blocks for i in bb.instructions)


def _calls_returns_twice(fn: Function) -> bool:
    for bb in fn.blocks:
        for i in bb.instructions:
            if isinstance(i, CallBase) and i.has_fn_attr("returns_twice"):
                return True
    return False


def _is_data_operand(call: CallBase, use: Use) -> bool:
    return use.index < call.num_operands - call.num_extra_operands


class _AllocaDerivedValueTracker:
    """The calls that may see an alloca (or ``byval`` argument) and the places where
    one may escape, from a walk over the uses of each (LLVM ``AllocaDerivedValueTracker``)."""

    __slots__ = ("alloca_users", "escape_points")

    def __init__(self) -> None:
        self.alloca_users: set[Instruction] = set()
        self.escape_points: set[Instruction] = set()

    def walk(self, root: Value) -> None:
        seen: set[Use] = set()
        work: list[Use] = []

        def add_uses(v: Value) -> None:
            for u in v.uses:
                if u not in seen:
                    seen.add(u)
                    work.append(u)

        add_uses(root)
        while work:
            u = work.pop()
            user = u.user
            assert isinstance(user, Instruction)
            op = user.opcode
            if op in ("call", "invoke"):
                assert isinstance(user, CallBase)
                if user.is_arg_operand(u) and user.param_has_attr(u.index, "byval"):
                    continue
                nocapture = _is_data_operand(user, u) and _data_operand_does_not_capture(user, u.index)
                self.alloca_users.add(user)
                if not nocapture and not user.only_reads_memory:
                    self.escape_points.add(user)
                if nocapture:
                    continue
            elif op == "load":
                continue
            elif op == "store":
                if u.index == 0:
                    self.escape_points.add(user)
                continue
            elif op not in ("bitcast", "getelementptr", "phi", "select", "addrspacecast"):
                self.escape_points.add(user)
            add_uses(user)


def mark_tails(fn: Function, ore: OptimizationRemarkEmitter | None) -> bool:
    """Mark the calls that cannot see the caller's frame ``tail`` (LLVM ``markTails``)."""
    if _calls_returns_twice(fn):
        return False
    tracker = _AllocaDerivedValueTracker()
    for arg in fn.args:
        if arg.has_attribute("byval"):
            tracker.walk(arg)
    for block in fn.blocks:
        for i in block.instructions:
            if isinstance(i, AllocaInst):
                tracker.walk(i)

    modified = False
    visited: dict[BasicBlock, int] = {}
    work_unescaped: list[BasicBlock] = []
    work_escaped: list[BasicBlock] = []
    deferred: list[CallInst] = []
    bb: BasicBlock | None = fn.entry_block
    escaped = _UNESCAPED
    while bb is not None:
        for i in bb.instructions:
            if i in tracker.escape_points:
                escaped = _ESCAPED
            if not isinstance(i, CallInst) or i.is_tail_call or is_debug_or_pseudo_probe_call(i):
                continue
            no_tail = i.is_no_tail_call or i.has_operand_bundles_other_than(_TAIL_SAFE_BUNDLES)
            if not no_tail and i.does_not_access_memory:
                safe = True
                for a in i.args:
                    if isinstance(a, Constant):
                        continue
                    if isinstance(a, Argument) and not a.has_attribute("byval"):
                        continue
                    safe = False
                    break
                if safe:
                    if ore is not None:
                        call = i
                        ore.emit(lambda: optimization_remark(DEBUG_TYPE, "tailcall-readnone", call).add(
                            "marked as tail call candidate (readnone)"))
                    i.tail_call_kind = TailCallKind.TAIL
                    modified = True
                    continue
            if not no_tail and escaped == _UNESCAPED and i not in tracker.alloca_users:
                deferred.append(i)
        for succ in bb.successors:
            state = visited.get(succ, _UNVISITED)
            if state < escaped:
                visited[succ] = escaped
                (work_escaped if escaped == _ESCAPED else work_unescaped).append(succ)
        if work_escaped:
            bb = work_escaped.pop()
            escaped = _ESCAPED
        else:
            bb = None
            while work_unescaped:
                nxt = work_unescaped.pop()
                if visited.get(nxt, _UNVISITED) == _UNESCAPED:
                    bb = nxt
                    escaped = _UNESCAPED
                    break
    for call in deferred:
        parent = call.parent
        assert parent is not None
        if visited.get(parent, _UNVISITED) != _ESCAPED:
            call.tail_call_kind = TailCallKind.TAIL
            modified = True
    return modified


def _can_move_above_call(inst: Instruction, call: CallInst, aa: AAResults) -> bool:
    """LLVM ``canMoveAboveCall``."""
    if _is_dbg_intrinsic(inst):
        return True
    if isinstance(inst, CallBase) and inst.intrinsic_base == "llvm.lifetime.end":
        if find_alloca_for_value(inst.args[1]) is not None:
            return True
    if inst.may_have_side_effects():
        return False
    if isinstance(inst, LoadInst) and call.may_have_side_effects():
        fn = inst.function
        assert fn is not None and fn.parent is not None
        dl = fn.parent.data_layout
        if is_mod_set(aa.get_mod_ref_info(call, MemoryLocation.get(inst))) or not is_safe_to_load_unconditionally_for_type(
            inst.pointer_operand, inst.type, inst.alignment, dl, inst
        ):
            return False
    return not any(op is call for op in inst.operands)


def _is_dbg_intrinsic(inst: Instruction) -> bool:
    return isinstance(inst, CallBase) and inst.intrinsic_base.startswith("llvm.dbg.")


def _intrinsic_identity(base: str, ty: Type) -> Constant | None:
    """LLVM ``ConstantExpr::getIntrinsicIdentity``."""
    if base == "llvm.umax":
        return Constant.get_null_value(ty)
    if base == "llvm.umin":
        return Constant.get_all_ones_value(ty)
    if base in ("llvm.smax", "llvm.smin") and isinstance(ty, IntegerType):
        w = ty.width
        return ConstantInt.get(ty, -(1 << (w - 1)) if base == "llvm.smax" else (1 << (w - 1)) - 1)
    return None


def _identity(inst: Instruction) -> Constant | None:
    """LLVM ``ConstantExpr::getIdentity`` (no right-hand-side-only identities, NSZ off)."""
    if isinstance(inst, CallBase):
        return _intrinsic_identity(inst.intrinsic_base, inst.type)
    return get_bin_op_identity(inst.opcode, inst.type, False)


def _can_transform_accumulator_recursion(inst: Instruction, call: CallInst) -> bool:
    """LLVM ``canTransformAccumulatorRecursion``."""
    if not inst.is_associative or not inst.is_commutative:
        return False
    if isinstance(inst, CallBase) and _intrinsic_identity(inst.intrinsic_base, inst.type) is None:
        return False
    a, b = inst.operands[0], inst.operands[1]
    if (a is call) == (b is call):
        return False
    if not inst.has_one_use:
        return False
    user = next(iter(inst.users))
    return isinstance(user, ReturnInst)


def _first_non_dbg(inst: Instruction | None) -> Instruction | None:
    while inst is not None and _is_dbg_intrinsic(inst):
        inst = inst.next_instruction
    return inst


class _TailRecursionEliminator:
    """The state of one function's elimination (LLVM ``TailRecursionEliminator``)."""

    def __init__(
        self, fn: Function, tti: TargetTransformInfo, aa: AAResults, ore: OptimizationRemarkEmitter, dtu: DomTreeUpdater
    ) -> None:
        self.fn = fn
        self.tti = tti
        self.aa = aa
        self.ore = ore
        self.dtu = dtu
        self.header: BasicBlock | None = None
        self.argument_phis: list[PHINode] = []
        self.ret_pn: PHINode | None = None
        self.ret_known_pn: PHINode | None = None
        self.ret_selects: list[SelectInst] = []
        self.acc_pn: PHINode | None = None
        self.acc_inst: Instruction | None = None

    def find_tre_candidate(self, bb: BasicBlock) -> CallInst | None:
        term = bb.terminator
        assert term is not None
        if bb.first_instruction is term:
            return None
        cur: Instruction | None = term
        call: CallInst | None = None
        while cur is not None:
            if isinstance(cur, CallInst) and cur.called_function is self.fn:
                call = cur
                break
            cur = cur.prev_instruction
        if call is None or not call.is_tail_call:
            return None
        fn = self.fn
        if bb is fn.entry_block:
            first = _first_non_dbg(bb.first_instruction)
            second = _first_non_dbg(first.next_instruction if first is not None else None)
            callee = call.called_function
            if first is call and second is term and callee is not None and not self.tti.is_lowered_to_call(callee):
                args = call.args
                if len(args) == len(fn.args) and all(a is p for a, p in zip(args, fn.args)):
                    return None
        return call

    def create_header(self) -> None:
        fn = self.fn
        header = fn.entry_block
        new_entry = BasicBlock(fn.type.context, "", fn, insert_before=header)
        new_entry.take_name(header)
        header.set_name("tailrecurse")
        new_entry.append(BranchInst(header))
        branch = new_entry.terminator
        assert branch is not None
        for inst in list(header.instructions):
            if isinstance(inst, AllocaInst) and isinstance(inst.operands[0], ConstantInt):
                inst.move_before(branch)
        insert_pos = header.first_instruction
        assert insert_pos is not None
        for arg in fn.args:
            phi = PHINode(arg.type, name=arg.name + ".tr" if arg.has_name else "")
            phi.insert_before(insert_pos)
            arg.replace_all_uses_with(phi)
            phi.add_incoming(arg, new_entry)
            self.argument_phis.append(phi)
        ret_ty = fn.return_type
        if not ret_ty.is_void:
            i1 = fn.type.context.i1
            self.ret_pn = PHINode(ret_ty, name="ret.tr")
            self.ret_pn.insert_before(insert_pos)
            self.ret_known_pn = PHINode(i1, name="ret.known.tr")
            self.ret_known_pn.insert_before(insert_pos)
            self.ret_pn.add_incoming(PoisonValue.get(ret_ty), new_entry)
            self.ret_known_pn.add_incoming(ConstantInt.get(i1, 0), new_entry)
        self.header = header
        self.dtu.recalculate(fn)

    def insert_accumulator(self, acc: Instruction) -> None:
        header = self.header
        assert header is not None and self.acc_pn is None
        self.acc_inst = acc
        acc_pn = PHINode(self.fn.return_type, name="accumulator.tr")
        first = header.first_instruction
        assert first is not None
        acc_pn.insert_before(first)
        self.acc_pn = acc_pn
        entry = self.fn.entry_block
        for pred in header.predecessors:
            if pred is entry:
                identity = _identity(acc)
                assert identity is not None
                acc_pn.add_incoming(identity, pred)
            else:
                acc_pn.add_incoming(acc_pn, pred)
        NUM_ACCUM_ADDED.add()

    def _byval_parts(self, call: CallInst, index: int) -> tuple[Type, int]:
        ty = call.param_by_val_type(index)
        align = call.attributes.param_alignment(index)
        callee = call.called_function
        if align is None and callee is not None:
            align = callee.attributes.param_alignment(index)
        assert ty is not None
        return ty, align or 1

    def copy_byval_into_temp(self, call: CallInst, index: int) -> None:
        fn = self.fn
        assert fn.parent is not None
        dl = fn.parent.data_layout
        ty, align = self._byval_parts(call, index)
        src = call.get_arg(index)
        temp = AllocaInst(ty, alignment=align, address_space=dl.alloca_addr_space, name=src.name if src.has_name else "")
        entry_first = fn.entry_block.first_instruction
        assert entry_first is not None
        temp.insert_before(entry_first)
        b = IRBuilder(call.parent)
        b.position_before(call)
        size = ConstantInt.get(fn.type.context.i64, dl.type_alloc_size(ty))
        create_mem_cpy(b, temp, align, src, align, size)
        call.set_arg(index, temp)

    def copy_temp_into_argument(self, call: CallInst, index: int) -> None:
        fn = self.fn
        assert fn.parent is not None
        dl = fn.parent.data_layout
        ty, align = self._byval_parts(call, index)
        b = IRBuilder(call.parent)
        b.position_before(call)
        size = ConstantInt.get(fn.type.context.i64, dl.type_alloc_size(ty))
        create_mem_cpy(b, fn.args[index], align, call.get_arg(index), align, size)

    def eliminate_call(self, call: CallInst) -> bool:
        bb = call.parent
        assert bb is not None
        ret = bb.terminator
        assert isinstance(ret, ReturnInst)
        acc: Instruction | None = None
        cur = call.next_instruction
        while cur is not None and cur is not ret:
            if not _can_move_above_call(cur, call, self.aa):
                if self.acc_pn is not None or not _can_transform_accumulator_recursion(cur, call):
                    return False
                acc = cur
            cur = cur.next_instruction
        self.ore.emit(lambda: optimization_remark(DEBUG_TYPE, "tailcall-recursion", call).add(
            "transforming tail recursion into loop"))
        if self.header is None:
            self.create_header()
        header = self.header
        assert header is not None
        n_args = call.arg_size
        for i in range(n_args):
            if call.param_has_attr(i, "byval"):
                self.copy_byval_into_temp(call, i)
        fn = self.fn
        for i in range(n_args):
            if call.param_has_attr(i, "byval"):
                self.copy_temp_into_argument(call, i)
                fn.attributes = fn.attributes.without_param_attr(i, "readonly")
                self.argument_phis[i].add_incoming(fn.args[i], bb)
            else:
                self.argument_phis[i].add_incoming(call.get_arg(i), bb)
        if acc is not None:
            self.insert_accumulator(acc)
            assert self.acc_pn is not None
            acc.set_operand(0 if acc.operands[0] is call else 1, self.acc_pn)
        ret_pn, known = self.ret_pn, self.ret_known_pn
        if ret_pn is not None and known is not None:
            ret_value = ret.operands[0] if ret.operands else None
            if ret_value is call or acc is not None:
                ret_pn.add_incoming(ret_pn, bb)
                known.add_incoming(known, bb)
            else:
                assert ret_value is not None
                sel = SelectInst(known, ret_pn, ret_value, name="current.ret.tr")
                sel.insert_before(ret)
                self.ret_selects.append(sel)
                ret_pn.add_incoming(sel, bb)
                known.add_incoming(ConstantInt.get(known.type, 1), bb)
            if self.acc_pn is not None:
                self.acc_pn.add_incoming(acc if acc is not None else self.acc_pn, bb)
        new_br = BranchInst(header)
        new_br.insert_before(ret)
        new_br.debug_loc = call.debug_loc
        ret.erase_from_parent()
        call.erase_from_parent()
        self.dtu.apply_updates([("insert", bb, header)])
        NUM_ELIMINATED.add()
        return True

    def cleanup_and_finalize(self) -> None:
        fn = self.fn
        assert fn.parent is not None
        sq = SimplifyQuery(fn.parent.data_layout)
        for phi in self.argument_phis:
            v = simplify_instruction(phi, sq)
            if v is not None:
                phi.replace_all_uses_with(v)
                phi.erase_from_parent()
        ret_pn, known = self.ret_pn, self.ret_known_pn
        if ret_pn is None or known is None:
            return
        acc_inst, acc_pn = self.acc_inst, self.acc_pn
        returns = [bb.terminator for bb in fn.blocks if isinstance(bb.terminator, ReturnInst)]
        if not self.ret_selects:
            ret_pn.drop_all_references()
            ret_pn.erase_from_parent()
            known.drop_all_references()
            known.erase_from_parent()
            if acc_pn is not None and acc_inst is not None:
                for ri in returns:
                    assert ri is not None
                    new = acc_inst.clone()
                    new.set_name("accumulator.ret.tr")
                    new.set_operand(1 if acc_inst.operands[0] is acc_pn else 0, ri.operands[0])
                    new.insert_before(ri)
                    new.debug_loc = None
                    ri.set_operand(0, new)
            return
        for ri in returns:
            assert ri is not None
            sel = SelectInst(known, ret_pn, ri.operands[0], name="current.ret.tr")
            sel.insert_before(ri)
            self.ret_selects.append(sel)
            ri.set_operand(0, sel)
        if acc_pn is not None and acc_inst is not None:
            for sel in self.ret_selects:
                new = acc_inst.clone()
                new.set_name("accumulator.ret.tr")
                new.set_operand(1 if acc_inst.operands[0] is acc_pn else 0, sel.false_value)
                new.insert_before(sel)
                new.debug_loc = None
                sel.set_operand(2, new)

    def process_block(self, bb: BasicBlock) -> bool:
        term = bb.terminator
        if isinstance(term, BranchInst):
            if term.is_conditional:
                return False
            succ = term.successors[0]
            first = _first_non_phi_or_dbg(succ)
            if not isinstance(first, ReturnInst):
                return False
            call = self.find_tre_candidate(bb)
            if call is None:
                return False
            fold_return_into_uncond_branch(first, succ, bb, self.dtu)
            NUM_RET_DUPED.add()
            if not succ.predecessors:
                self.dtu.delete_bb(succ)
            self.eliminate_call(call)
            return True
        if isinstance(term, ReturnInst):
            call = self.find_tre_candidate(bb)
            if call is not None:
                return self.eliminate_call(call)
        return False


def _first_non_phi_or_dbg(bb: BasicBlock) -> Instruction | None:
    """LLVM ``getFirstNonPHIOrDbg(/*SkipPseudoOp=*/true)``."""
    for inst in bb.instructions:
        if isinstance(inst, PHINode) or is_debug_or_pseudo_probe_call(inst):
            continue
        return inst
    return None


def eliminate_tail_recursion(
    fn: Function, tti: TargetTransformInfo, aa: AAResults, ore: OptimizationRemarkEmitter, dtu: DomTreeUpdater
) -> bool:
    """Mark tail calls and turn self-recursive tail calls into a loop (LLVM
    ``TailRecursionEliminator::eliminate``). True when the function changed."""
    disable = fn.attributes.get_fn_attr("disable-tail-calls")
    if disable is not None and str(disable.value) == "true":
        return False
    changed = mark_tails(fn, ore)
    if fn.is_vararg or not _can_tre(fn):
        return changed
    tre = _TailRecursionEliminator(fn, tti, aa, ore, dtu)
    for bb in list(fn.blocks):
        if bb.parent is fn:
            changed |= tre.process_block(bb)
    tre.cleanup_and_finalize()
    return changed


class TailCallElimPass(Pass[Function]):
    """``tailcallelim``."""

    name: ClassVar[str] = "tailcallelim"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if unit.is_declaration:
            return PreservedAnalyses.all()
        tti = am.get_result(TargetIRAnalysis, unit)
        aa = am.get_result(AAManager, unit)
        ore = am.get_result(OptimizationRemarkEmitterAnalysis, unit)
        dt = am.get_cached_result(DominatorTreeAnalysis, unit)
        pdt = am.get_cached_result(PostDominatorTreeAnalysis, unit)
        dtu = DomTreeUpdater(dt, pdt, "eager")
        if not eliminate_tail_recursion(unit, tti, aa, ore, dtu):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve(DominatorTreeAnalysis)
        pa.preserve(PostDominatorTreeAnalysis)
        return pa
