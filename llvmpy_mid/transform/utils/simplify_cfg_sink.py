"""Sinking code common to all predecessors into their common successor; merging
compatible invokes (LLVM 19.1.7 ``llvm/lib/Transforms/Utils/SimplifyCFG.cpp``:
``canSinkInstructions``, ``sinkLastInstruction``, ``LockstepReverseIterator``,
``SinkCommonCodeFromPredecessors``, ``CompatibleSets``, ``MergeCompatibleInvokesImpl``,
``MergeCompatibleInvokes``; ``canReplaceOperandWithVariable`` of ``Local.cpp`` and
``IsBlockFollowedByDeoptOrUnreachable`` of ``BasicBlockUtils.cpp``).

What: :func:`sink_common_code_from_predecessors` walks the predecessors of a block
that end in an unconditional branch upwards in lockstep, from the instruction before
the branch; while the n-th instructions from the end are the same operation (their
differing operands can become phis, each is used only by the phis of the block in a
consistent way) they are candidates. A profitability rule (at most one new phi per
sunk instruction, counting the operands that are themselves sunk as free; skipped
when the block leads to ``unreachable`` or a deoptimize call) trims the candidates.
When some predecessors are not unconditional, the unconditional ones are first
routed through a new ``<bb>.sink.split`` block, and only if at least one sunk
instruction is not safe to speculate. Each sunk instruction becomes one
instruction in the successor with ``<operand>.sink`` phis for its differing
operands, merged debug location, metadata (``combineMetadataForCSE``) and flags.

:func:`merge_compatible_invokes` groups the invokes unwinding to a landing pad into
sets that may be merged (same callee or all indirect, same normal destination with
agreeing phis or all with an ``unreachable`` one, the same operation, arguments that
may become phis) and replaces each set of two or more with one invoke in a new block
``<bb>.invoke`` that the old blocks branch to (option
``simplifycfg-merge-compatible-invokes``).

The dominator tree is not updated (the pass does not keep one).
"""

from __future__ import annotations

from typing import Sequence

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.debug_loc_merge import get_merged_location
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.cmp import CmpInst, FCmpInst
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.optional_flags import FastMathFlagsInst, OptionalFlagsInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, InvokeInst, UnreachableInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import ArrayType, StructType, Type, VectorType
from llvmpy_mid.ir.value import Use, Value


_MAX_DEOPT_OR_UNREACHABLE_DEPTH = 8
"""LLVM's ``max-deopt-or-unreachable-succ-check-depth`` default."""


# --- small queries --------------------------------------------------------------------------------


_DBG_INFO_INTRINSICS = frozenset(("llvm.dbg.declare", "llvm.dbg.value", "llvm.dbg.assign", "llvm.dbg.label"))


def _is_dbg_intrinsic(inst: Instruction) -> bool:
    """A call of ``llvm.dbg.declare/value/assign/label`` (LLVM ``DbgInfoIntrinsic``; other
    ``llvm.dbg.*`` names such as the old ``llvm.dbg.stoppoint`` are ordinary calls)."""
    if inst.opcode != "call":
        return False
    assert isinstance(inst, CallInst)
    return inst.intrinsic_name in _DBG_INFO_INTRINSICS


def _is_intrinsic_inst(inst: Instruction) -> bool:
    """LLVM ``isa<IntrinsicInst>``: a ``call`` of an ``llvm.*`` function."""
    return inst.opcode == "call" and isinstance(inst, CallInst) and bool(inst.intrinsic_name)


def _is_lifetime_marker(inst: Instruction) -> bool:
    if not _is_intrinsic_inst(inst):
        return False
    assert isinstance(inst, CallInst)
    base = inst.intrinsic_base
    return base in ("llvm.lifetime.start", "llvm.lifetime.end")


def _is_swift_error(v: Value) -> bool:
    """LLVM ``Value::isSwiftError``: a ``swifterror`` argument or alloca."""
    if isinstance(v, AllocaInst):
        return v.swifterror
    from llvmpy_mid.ir.function import Argument

    if isinstance(v, Argument):
        return v.has_attribute("swifterror")
    return False


def _mmra_key(inst: Instruction) -> frozenset[object] | None:
    """The set of memory-model relaxation tags on ``inst`` (LLVM ``MMRAMetadata``)."""
    md = inst.get_metadata("mmra")
    if md is None:
        return None
    from llvmpy_mid.ir.metadata import MDNode, MDString

    ops = [md.get_operand(i) for i in range(md.num_operands)]
    if len(ops) == 2 and all(isinstance(o, MDString) for o in ops):
        return frozenset([(ops[0], ops[1])])
    tags: set[object] = set()
    for o in ops:
        if isinstance(o, MDNode) and o.num_operands == 2:
            tags.add((o.get_operand(0), o.get_operand(1)))
        else:
            tags.add(o)
    return frozenset(tags)


def _can_replace_operand_with_variable(inst: Instruction, idx: int) -> bool:
    """LLVM ``canReplaceOperandWithVariable``: operand ``idx`` of ``inst`` may become a
    phi (a non-constant value)."""
    op = inst.operands[idx]
    if op.type.is_metadata:
        return False
    if not isinstance(op, Constant):
        return True
    opcode = inst.opcode
    if opcode == "call" or opcode == "invoke":
        assert isinstance(inst, CallBase)
        if inst.is_inline_asm_call:
            return False
        if inst.is_bundle_operand(idx):
            return False
        intrinsic = inst.intrinsic_name if opcode == "call" else ""
        if idx < inst.num_args:
            if intrinsic and idx >= len(inst.function_type.params):
                return inst.intrinsic_base == "llvm.experimental.stackmap"
            if inst.intrinsic_base == "llvm.gcroot":
                return False
            return not inst.param_has_attr(idx, "immarg")
        return not intrinsic
    if opcode == "shufflevector":
        return idx != 2
    if opcode == "switch" or opcode == "extractvalue":
        return idx == 0
    if opcode == "insertvalue":
        return idx < 2
    if opcode == "alloca":
        assert isinstance(inst, AllocaInst)
        return not inst.is_static_alloca
    if opcode == "getelementptr":
        if idx == 0:
            return True
        assert isinstance(inst, GetElementPtrInst)
        ty = inst.source_element_type
        ops = inst.operands
        for j in range(2, idx + 1):
            if ty.is_struct:
                return False
            ty = _indexed_type(ty, ops[j - 1])
        return True
    return True


def _indexed_type(ty: Type, index: Value) -> Type:
    """The type one GEP index steps into from ``ty`` (struct field, array or vector element)."""
    from llvmpy_mid.ir.constants import ConstantInt

    if isinstance(ty, StructType):
        fields = ty.elements
        if isinstance(index, ConstantInt) and 0 <= index.value < len(fields):
            return fields[index.value]
        return ty
    if isinstance(ty, (ArrayType, VectorType)):
        return ty.element_type
    return ty


def _is_block_followed_by_deopt_or_unreachable(bb: BasicBlock | None) -> bool:
    """LLVM ``IsBlockFollowedByDeoptOrUnreachable``: along unique successors (at most
    eight blocks, no block twice) a block ends in ``unreachable`` or a deoptimize call."""
    from llvmpy_mid.transform.utils.simplify_cfg import option_int

    limit = option_int("max-deopt-or-unreachable-succ-check-depth", _MAX_DEOPT_OR_UNREACHABLE_DEPTH)
    seen: set[BasicBlock] = set()
    depth = 0
    while bb is not None and depth < limit and bb not in seen:
        depth += 1
        seen.add(bb)
        term = bb.terminator
        if isinstance(term, UnreachableInst):
            return True
        if term is not None and term.opcode == "ret":
            prev = term.prev_instruction
            while prev is not None and _is_dbg_intrinsic(prev):
                prev = prev.prev_instruction
            if prev is not None and prev.opcode == "call":
                assert isinstance(prev, CallInst)
                if prev.intrinsic_base == "llvm.experimental.deoptimize":
                    return True
        bb = bb.unique_successor
    return False


def _prev_non_debug(inst: Instruction | None) -> Instruction | None:
    while inst is not None and _is_dbg_intrinsic(inst):
        inst = inst.prev_instruction
    return inst


def _next_non_debug(inst: Instruction | None) -> Instruction | None:
    while inst is not None and _is_dbg_intrinsic(inst):
        inst = inst.next_instruction
    return inst


# --- the lockstep walk ----------------------------------------------------------------------------


class _LockstepReverseIterator:
    """The n-th non-debug instructions from the end (before the terminator) of each
    block, moved up or down in step (LLVM ``LockstepReverseIterator``)."""

    __slots__ = ("blocks", "insts", "fail")

    def __init__(self, blocks: Sequence[BasicBlock]) -> None:
        self.blocks = blocks
        self.insts: list[Instruction] = []
        self.fail = False
        self.reset()

    def reset(self) -> None:
        self.fail = False
        self.insts = []
        for bb in self.blocks:
            term = bb.terminator
            assert term is not None
            inst = _prev_non_debug(term.prev_instruction)
            if inst is None:
                self.fail = True
                return
            self.insts.append(inst)

    @property
    def valid(self) -> bool:
        return not self.fail

    def up(self) -> None:
        if self.fail:
            return
        insts = self.insts
        for k, inst in enumerate(insts):
            prev = _prev_non_debug(inst.prev_instruction)
            if prev is None:
                self.fail = True
                return
            insts[k] = prev

    def down(self) -> None:
        if self.fail:
            return
        insts = self.insts
        for k, inst in enumerate(insts):
            nxt = _next_non_debug(inst.next_instruction)
            if nxt is None:
                self.fail = True
                return
            insts[k] = nxt


# --- can the n-th instructions be sunk ------------------------------------------------------------


def _can_sink_instructions(insts: list[Instruction], phi_operands: dict[Use, list[Value]]) -> bool:
    """LLVM ``canSinkInstructions``: the instructions (one per predecessor) can become
    one in the successor; the operands that differ are recorded in ``phi_operands``."""
    num_uses = -1
    for inst in insts:
        if inst.is_phi or inst.is_eh_pad or isinstance(inst, AllocaInst) or inst.type.is_token:
            return False
        parent = inst.parent
        assert parent is not None
        if parent.single_successor is parent:
            return False
        if isinstance(inst, CallBase):
            if inst.is_inline_asm_call or inst.has_fn_attr("nomerge") or inst.is_convergent:
                return False
        n = inst.num_uses
        if num_uses < 0:
            num_uses = n
        elif n != num_uses:
            return False

    i0 = insts[0]
    mmra0 = _mmra_key(i0)
    for inst in insts:
        if not inst.is_same_operation_as(i0):
            return False
        if isinstance(inst, StoreInst) and _is_swift_error(inst.operands[1]):
            return False
        if isinstance(inst, LoadInst) and _is_swift_error(inst.operands[0]):
            return False
        if _mmra_key(inst) != mmra0:
            return False

    for use in i0.uses:
        expected = phi_operands.get(use)
        if expected is None:
            return False
        if len(expected) != len(insts):
            return False
        for a, b in zip(insts, expected):
            if a is not b:
                return False

    if isinstance(i0, StoreInst) and any(isinstance(strip_pointer_casts(i.operands[1]), AllocaInst) for i in insts):
        return False
    if isinstance(i0, LoadInst) and any(isinstance(strip_pointer_casts(i.operands[0]), AllocaInst) for i in insts):
        return False
    if _is_lifetime_marker(i0) and any(isinstance(strip_pointer_casts(i.operands[1]), AllocaInst) for i in insts):
        return False

    if isinstance(i0, CallBase):
        indirect = [isinstance(i, CallBase) and i.is_indirect_call for i in insts]
        if any(indirect):
            if not all(indirect):
                return False
        else:
            callee = i0.called_operand
            for inst in insts:
                assert isinstance(inst, CallBase)
                if inst.called_operand is not callee:
                    return False

    ops0 = i0.operands
    others = [i.operands for i in insts]
    for oi, op in enumerate(ops0):
        if op.type.is_token:
            return False
        if all(ops[oi] is op for ops in others):
            continue
        if (isinstance(op, Constant) and _is_intrinsic_inst(i0)) or not _can_replace_operand_with_variable(i0, oi):
            return False
        entry = phi_operands.setdefault(i0.get_operand_use(oi), [])
        for ops in others:
            entry.append(ops[oi])
    return True


# --- sinking one instruction ---------------------------------------------------------------------


def _and_ir_flags(dst: Instruction, src: Instruction) -> None:
    """LLVM ``andIRFlags`` for two instructions of the same opcode: keep only the
    optional flags both have."""
    if isinstance(dst, OptionalFlagsInst) and isinstance(src, OptionalFlagsInst):
        dst._flags &= src._flags
    elif isinstance(dst, (FastMathFlagsInst, FCmpInst, CallInst)) and isinstance(
        src, (FastMathFlagsInst, FCmpInst, CallInst)
    ):
        dst._fmf &= src._fmf
    elif isinstance(dst, GetElementPtrInst) and isinstance(src, GetElementPtrInst):
        dst._gep_flags &= src._gep_flags


def _sink_last_instruction(blocks: list[BasicBlock]) -> None:
    """LLVM ``sinkLastInstruction``: the last non-debug instruction of every block
    becomes one instruction at the top of their common successor."""
    from llvmpy_mid.transform.utils.local_metadata import combine_metadata_for_cse

    term0 = blocks[0].terminator
    assert term0 is not None
    bb_end = term0.get_successor(0)
    insts: list[Instruction] = []
    for bb in blocks:
        term = bb.terminator
        assert term is not None
        inst = term.prev_instruction
        assert inst is not None
        first = bb.first_instruction
        while _is_dbg_intrinsic(inst) and inst is not first:
            prev = inst.prev_instruction
            assert prev is not None
            inst = prev
        if not _is_dbg_intrinsic(inst):
            insts.append(inst)

    i0 = insts[0]
    new_operands: list[Value] = []
    for o, op in enumerate(i0.operands):
        if all(i.operands[o] is op for i in insts):
            new_operands.append(op)
            continue
        pn = PHINode(op.type, name=op.name + ".sink")
        head = bb_end.first_instruction
        assert head is not None
        pn.insert_before(head)
        for i in insts:
            parent = i.parent
            assert parent is not None
            pn.add_incoming(i.operands[o], parent)
        new_operands.append(pn)

    for o, v in enumerate(new_operands):
        i0.get_operand_use(o).set(v)

    at = bb_end.first_insertion_point
    assert at is not None
    i0.move_before(at)

    for i in insts:
        if i is i0:
            continue
        i0.debug_loc = get_merged_location(i0.debug_loc, i.debug_loc)
        combine_metadata_for_cse(i0, i, True)
        _and_ir_flags(i0, i)

    for user in list(i0.users):
        assert isinstance(user, PHINode)
        user.replace_all_uses_with(i0)
        user.erase_from_parent()

    for i in insts:
        if i is i0:
            continue
        i.replace_all_uses_with(i0)
        i.erase_from_parent()


# --- SinkCommonCodeFromPredecessors --------------------------------------------------------------


def sink_common_code_from_predecessors(bb: BasicBlock) -> bool:
    """Sink the instructions the unconditional predecessors of ``bb`` end with into
    ``bb`` (LLVM ``SinkCommonCodeFromPredecessors``)."""
    uncond_preds: list[BasicBlock] = []
    have_non_uncond = False
    for pred in bb.predecessors:
        br = pred.terminator
        if isinstance(br, BranchInst) and br.is_unconditional:
            uncond_preds.append(pred)
        else:
            have_non_uncond = True
    if len(uncond_preds) < 2:
        return False

    phi_operands: dict[Use, list[Value]] = {}
    for pn in bb.phis():
        incoming_uses: dict[BasicBlock, Use] = {}
        uses = pn.operand_uses
        for k, blk in enumerate(pn.incoming_blocks):
            if blk not in incoming_uses:
                incoming_uses[blk] = uses[k]
        key = incoming_uses[uncond_preds[0]]
        ops = phi_operands.setdefault(key, [])
        for p in uncond_preds:
            ops.append(incoming_uses[p].value)

    scan_idx = 0
    to_sink: set[Value] = set()
    lri = _LockstepReverseIterator(uncond_preds)
    while lri.valid and _can_sink_instructions(lri.insts, phi_operands):
        to_sink.update(lri.insts)
        scan_idx += 1
        lri.up()
    if scan_idx == 0:
        return False

    followed_by_deopt_or_unreachable = _is_block_followed_by_deopt_or_unreachable(bb)

    if not followed_by_deopt_or_unreachable:

        def profitable(it: _LockstepReverseIterator, sinking: set[Value]) -> bool:
            num_phis = 0
            for use in it.insts[0].operand_uses:
                vals = phi_operands.get(use)
                if vals is not None and not all(v in sinking for v in vals):
                    num_phis += 1
            return num_phis <= 1

        lri.reset()
        idx = 0
        profitable_set: set[Value] = set()
        while idx < scan_idx:
            if not profitable(lri, to_sink):
                break
            profitable_set.update(lri.insts)
            lri.up()
            idx += 1
        if idx == 0:
            return False
        if idx < scan_idx:
            scan_idx = idx
            to_sink = set(profitable_set)
            lri.down()
            idx -= 1
            while idx >= 0:
                for inst in lri.insts:
                    profitable_set.discard(inst)
                if not profitable(lri, to_sink):
                    scan_idx = idx
                    to_sink = set(profitable_set)
                lri.down()
                idx -= 1
        if scan_idx == 0:
            return False

    changed = False
    if have_non_uncond:
        if not followed_by_deopt_or_unreachable:
            from llvmpy_mid.analysis.poison_tracking import is_safe_to_speculatively_execute

            lri.reset()
            idx = 0
            worth = False
            while idx < scan_idx:
                if not is_safe_to_speculatively_execute(lri.insts[0]):
                    worth = True
                    break
                lri.up()
                idx += 1
            if not worth:
                return False
        from llvmpy_mid.transform.utils.basic_block_utils import split_block_predecessors

        if split_block_predecessors(bb, uncond_preds, ".sink.split") is None:
            return False
        changed = True

    for _ in range(scan_idx):
        _sink_last_instruction(uncond_preds)
        changed = True
    return changed


# --- merging compatible invokes ------------------------------------------------------------------


def _has_normal_dest(ii: InvokeInst) -> bool:
    from llvmpy_mid.transform.utils.basic_block_utils import first_non_phi_or_dbg

    return not isinstance(first_non_phi_or_dbg(ii.normal_dest), UnreachableInst)


def _data_operand_count(ii: InvokeInst) -> int:
    """Arguments and bundle inputs: every operand but the two destinations and the callee."""
    return ii.num_operands - 3


def _should_belong_to_same_set(a: InvokeInst, b: InvokeInst) -> bool:
    """LLVM ``CompatibleSets::shouldBelongToSameSet`` for two invokes."""
    from llvmpy_mid.transform.utils.simplify_cfg_common import incoming_values_are_compatible

    pair = (a, b)
    for ii in pair:
        if ii.has_fn_attr("nomerge") or ii.is_inline_asm_call:
            return False
    ind_a = a.is_indirect_call
    ind_b = b.is_indirect_call
    if ind_a or ind_b:
        if not (ind_a and ind_b):
            return False
    elif a.called_operand is not b.called_operand:
        return False
    pa = a.parent
    pb = b.parent
    assert pa is not None and pb is not None
    nd_a = _has_normal_dest(a)
    nd_b = _has_normal_dest(b)
    if nd_a or nd_b:
        if not (nd_a and nd_b):
            return False
        if a.normal_dest is not b.normal_dest:
            return False
        if not incoming_values_are_compatible(a.normal_dest, (pa, pb), {a, b}):
            return False
    if not incoming_values_are_compatible(a.unwind_dest, (pa, pb)):
        return False
    if not b.is_same_operation_as(a):
        return False
    ops_a = a.operands
    ops_b = b.operands
    for k in range(_data_operand_count(a)):
        if ops_a[k] is ops_b[k]:
            continue
        if ops_a[k].type.is_token or not _can_replace_operand_with_variable(a, k):
            return False
    return True


def _merge_compatible_invokes_impl(invokes: list[InvokeInst]) -> None:
    """LLVM ``MergeCompatibleInvokesImpl``: one invoke in ``<bb>.invoke`` replaces them all."""
    from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor
    from llvmpy_mid.transform.utils.simplify_cfg_common import add_predecessor_to_block

    ii0 = invokes[0]
    ii0_bb = ii0.parent
    assert ii0_bb is not None
    fn = ii0_bb.parent
    assert fn is not None
    ctx = ii0_bb.context
    has_normal_dest = _has_normal_dest(ii0)
    insert_before = ii0_bb.next_block
    merged_bb = BasicBlock(ctx, ii0_bb.name + ".invoke", fn, insert_before)
    merged = ii0.clone()
    assert isinstance(merged, InvokeInst)
    merged_bb.append(merged)
    if not has_normal_dest:
        cont = BasicBlock(ctx, ii0_bb.name + ".cont", fn, insert_before)
        cont.append(UnreachableInst(ctx))
        merged.normal_dest = cont

    is_indirect = ii0.is_indirect_call
    n_ops = merged.num_operands
    callee_idx = n_ops - 1
    n_data = _data_operand_count(merged)
    for k in range(n_ops):
        if k == callee_idx:
            if not is_indirect:
                continue
        elif k >= n_data:
            continue
        use = merged.get_operand_use(k)
        cur = use.value
        if all(ii.operands[k] is cur for ii in invokes):
            continue
        pn = PHINode(cur.type)
        pn.insert_before(merged)
        for ii in invokes:
            parent = ii.parent
            assert parent is not None
            pn.add_incoming(ii.operands[k], parent)
        use.set(pn)

    for succ in merged.successors:
        add_predecessor_to_block(succ, merged_bb, ii0_bb)

    merged_loc = None
    first = True
    for ii in invokes:
        if first:
            merged_loc = ii.debug_loc
            first = False
        else:
            merged_loc = get_merged_location(merged_loc, ii.debug_loc)
        parent = ii.parent
        assert parent is not None
        for succ in parent.successors:
            remove_predecessor(succ, parent)
        br = BranchInst(merged_bb)
        br.insert_after(ii)
        ii.replace_all_uses_with(merged)
        ii.erase_from_parent()
    merged.debug_loc = merged_loc


def merge_compatible_invokes(bb: BasicBlock) -> bool:
    """Merge the compatible invokes that unwind to the landing pad ``bb`` (LLVM
    ``MergeCompatibleInvokes``)."""
    from llvmpy_mid.transform.utils.simplify_cfg import option_enabled

    if not option_enabled("simplifycfg-merge-compatible-invokes", True):
        return False
    first = bb.first_non_phi
    if first is None or first.opcode != "landingpad":
        return False
    sets: list[list[InvokeInst]] = []
    for pred in bb.predecessors:
        ii = pred.terminator
        assert isinstance(ii, InvokeInst)
        for s in sets:
            if _should_belong_to_same_set(s[0], ii):
                s.append(ii)
                break
        else:
            sets.append([ii])
    changed = False
    for s in sets:
        if len(s) < 2:
            continue
        changed = True
        _merge_compatible_invokes_impl(s)
    return changed


__all__ = ["merge_compatible_invokes", "sink_common_code_from_predecessors"]
