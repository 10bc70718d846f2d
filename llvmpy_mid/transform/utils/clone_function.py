"""Cloning a function body into another function while pruning what the mapped
arguments make dead (LLVM ``CloneAndPruneFunctionInto`` / ``CloneAndPruneIntoFromInst``,
lib/Transforms/Utils/CloneFunction.cpp, with the value-map tracking of
``ValueMapper.cpp``).

How: blocks are cloned depth-first from the entry block (a stack of successors).
Each copied instruction is remapped at once (phis wait) and constant folded; a
folded, trivially dead copy is dropped and the map sends the original to the
constant. A conditional branch or switch whose condition is (or maps to) a
constant is replaced by an unconditional branch, so unreachable callee blocks are
never copied. The copies are then put in the callee's block order, phis lose the
entries of pruned predecessors (a phi left without entries becomes poison), each
copy is simplified (InstructionSimplify), debug records are remapped, constant
terminators are folded, blocks made unreachable are deleted, and a block ending in
an unconditional branch to a block with no other predecessor absorbs that block.

The value map follows replacements (LLVM's ``WeakTrackingVH`` values): see
:class:`TrackingValueMap`.
"""

from __future__ import annotations

from typing import Iterable

import attrs

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import BlockAddress, ConstantInt, PoisonValue
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, ReturnInst, SwitchInst
from llvmpy_mid.ir.metadata import DIArgList, LocalAsMetadata, MetadataAsValue, ValueAsMetadata
from llvmpy_mid.ir.value import Value

__all__ = ["ClonedCodeInfo", "TrackingValueMap", "clone_and_prune_function_into", "map_value"]


class TrackingValueMap(dict[Value, Value]):
    """A value map whose mapped values follow ``replace_all_uses_with`` done through
    :meth:`value_replaced` and vanish when erased (LLVM ``ValueToValueMapTy``)."""

    def __init__(self) -> None:
        super().__init__()
        self._reverse: dict[Value, list[Value]] = {}

    def __setitem__(self, key: Value, value: Value) -> None:
        dict.__setitem__(self, key, value)
        self._reverse.setdefault(value, []).append(key)

    def get(self, key: Value, default: Value | None = None) -> Value | None:  # type: ignore[override]
        value = dict.get(self, key)
        if value is None:
            return default
        if isinstance(value, Instruction) and value.is_erased:
            return default
        if isinstance(value, BasicBlock) and value.parent is None:
            return default
        return value

    def lookup(self, key: Value) -> Value | None:
        return self.get(key)

    def value_replaced(self, old: Value, new: Value) -> None:
        """Every entry mapped to ``old`` now maps to ``new``."""
        keys = self._reverse.pop(old, None)
        if not keys:
            return
        for key in keys:
            if dict.get(self, key) is old:
                self[key] = new


def replace_and_track(vmap: TrackingValueMap, old: Value, new: Value) -> None:
    """``old.replace_all_uses_with(new)`` with the map following."""
    old.replace_all_uses_with(new)
    vmap.value_replaced(old, new)


@attrs.define
class ClonedCodeInfo:
    """What the cloner saw (LLVM ``ClonedCodeInfo``)."""

    contains_calls: bool = False
    contains_mem_prof_metadata: bool = False
    contains_dynamic_allocas: bool = False
    operand_bundle_call_sites: list[Instruction] = attrs.field(factory=list)
    orig_vmap: dict[Value, Value] = attrs.field(factory=dict)


def map_value(value: Value, vmap: TrackingValueMap) -> Value:
    """``MapValue`` without module-level changes: mapped values, local metadata
    wrappers rebuilt around their mapped values, anything else unchanged."""
    new = vmap.get(value)
    if new is not None:
        return new
    if isinstance(value, MetadataAsValue):
        md = value.metadata
        if isinstance(md, LocalAsMetadata):
            mapped = vmap.get(md.value)
            if mapped is not None and mapped is not md.value:
                return MetadataAsValue.get(value.type.context, ValueAsMetadata.get(mapped))
        elif isinstance(md, DIArgList):
            args = list(md.args)
            changed = False
            new_args: list[ValueAsMetadata] = []
            for arg in args:
                mapped = vmap.get(arg.value) if isinstance(arg, LocalAsMetadata) else None
                if mapped is not None and mapped is not arg.value:
                    new_args.append(ValueAsMetadata.get(mapped))
                    changed = True
                else:
                    new_args.append(arg)
            if changed:
                return MetadataAsValue.get(value.type.context, DIArgList.get(value.type.context, new_args))
    return value


def remap_operands(inst: Instruction, vmap: TrackingValueMap) -> None:
    """Rewrite ``inst``'s operands (and a phi's incoming blocks) through ``vmap``."""
    for use in inst.operand_uses:
        old = use.value
        new = map_value(old, vmap)
        if new is not old:
            use.set(new)
    if isinstance(inst, PHINode):
        for i, block in enumerate(inst.incoming_blocks):
            new_block = vmap.get(block)
            if isinstance(new_block, BasicBlock) and new_block is not block:
                inst.set_incoming_block(i, new_block)


def remap_dbg_records(inst: Instruction, vmap: TrackingValueMap) -> None:
    """Rewrite the locations (and ``#dbg_assign`` addresses) of ``inst``'s debug records."""
    for record in inst.iter_dbg_records():
        if not record.is_variable_record:
            continue
        var = record  # DbgVariableRecord
        for i, old in enumerate(var.location_values()):  # type: ignore[attr-defined]
            new = vmap.get(old)
            if new is not None and new is not old:
                var.replace_variable_location_op(i, new)  # type: ignore[attr-defined]
        address = var.address_value  # type: ignore[attr-defined]
        if address is not None:
            new = vmap.get(address)
            if new is not None and new is not address:
                var.set_address_value(new)  # type: ignore[attr-defined]


def _is_debug_or_pseudo(inst: Instruction) -> bool:
    from llvmpy_mid.transform.utils.basic_block_utils import is_debug_or_pseudo_probe_call

    return is_debug_or_pseudo_probe_call(inst)


# Constrained-FP counterparts (include/llvm/IR/ConstrainedOps.def): name -> (has a
# rounding-mode operand, which overload types: "r" result, "0"/"1" an operand).
_CONSTRAINED_OPCODES = {
    "fadd": (True, "r"), "fsub": (True, "r"), "fmul": (True, "r"), "fdiv": (True, "r"), "frem": (True, "r"),
    "fpext": (False, "r0"), "sitofp": (True, "r0"), "uitofp": (True, "r0"), "fptosi": (False, "r0"),
    "fptoui": (False, "r0"), "fptrunc": (True, "r0"), "fcmp": (False, "0"),
}
_CONSTRAINED_FUNCTIONS = {
    "acos": True, "asin": True, "atan": True, "ceil": False, "cos": True, "cosh": True, "exp": True, "exp2": True,
    "floor": False, "fma": True, "log": True, "log10": True, "log2": True, "lrint": True, "llrint": True,
    "lround": False, "llround": False, "maxnum": False, "minnum": False, "maximum": False, "minimum": False,
    "nearbyint": True, "pow": True, "powi": True, "ldexp": True, "rint": True, "round": False, "roundeven": False,
    "sin": True, "sinh": True, "sqrt": True, "tan": True, "tanh": True, "trunc": False, "fmuladd": True,
}
_TWO_TYPE_FUNCTIONS = {"lrint": "r0", "llrint": "r0", "lround": "r0", "llround": "r0", "ldexp": "r1"}


def _constrained_clone(old: Instruction, module: object) -> Instruction | None:
    """LLVM ``PruningFunctionCloner::cloneInstruction`` under ``strictfp``: the
    constrained intrinsic call standing for ``old`` (operands not yet remapped)."""
    from llvmpy_mid.ir.instructions.calls import intrinsic_base_name
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration
    from llvmpy_mid.ir.metadata import MDString as _MDString
    from llvmpy_mid.ir.type_mangling import intrinsic_name

    ops: list[Value]
    if isinstance(old, CallInst):
        fn = old.called_function
        if fn is None or not fn.is_intrinsic:
            return None
        base = intrinsic_base_name(fn.name)[len("llvm."):] if intrinsic_base_name(fn.name).startswith("llvm.") else ""
        if base not in _CONSTRAINED_FUNCTIONS:
            return None
        rounding = _CONSTRAINED_FUNCTIONS[base]
        kinds = _TWO_TYPE_FUNCTIONS.get(base, "r")
        ops = list(old.args)
    else:
        base = old.opcode
        if base not in _CONSTRAINED_OPCODES:
            return None
        rounding, kinds = _CONSTRAINED_OPCODES[base]
        ops = list(old.operand_values())
    overloads = [old.type if k == "r" else ops[int(k)].type for k in kinds]
    ctx = old.type.context
    full = intrinsic_name("llvm.experimental.constrained." + base, overloads)
    if full is None:
        return None
    args: list[Value] = list(ops)
    if base == "fcmp":
        pred = getattr(old, "predicate", None)
        pred_name = str(getattr(pred, "keyword", ""))
        args.append(MetadataAsValue.get(ctx, _MDString.get(ctx, pred_name)))
    if rounding:
        args.append(MetadataAsValue.get(ctx, _MDString.get(ctx, "round.tonearest")))
    args.append(MetadataAsValue.get(ctx, _MDString.get(ctx, "fpexcept.ignore")))
    decl = intrinsic_declaration(module, full, ctx.function_type(old.type, [a.type for a in args]))  # type: ignore[arg-type]
    call = CallInst(decl.function_type, decl, args)
    return call


class _PruningCloner:
    """LLVM ``PruningFunctionCloner``."""

    def __init__(
        self, new_fn: Function, old_fn: Function, vmap: TrackingValueMap, suffix: str, info: ClonedCodeInfo | None
    ) -> None:
        self.new_fn = new_fn
        self.old_fn = old_fn
        self.vmap = vmap
        self.suffix = suffix
        self.info = info
        self.host_strict_fp = new_fn.attributes.fn_attrs.has("strictfp")
        module = new_fn.parent
        assert module is not None
        self.dl = module.data_layout

    def clone_block(self, bb: BasicBlock, to_clone: list[BasicBlock]) -> None:
        from llvmpy_mid.analysis.constant_folding import constant_fold_instruction
        from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead

        vmap = self.vmap
        if dict.get(vmap, bb) is not None:
            return
        new_bb = BasicBlock(bb.type.context, bb.name + self.suffix if bb.name else "")
        self.new_fn.blocks.append(new_bb)
        vmap[bb] = new_bb
        if bb.has_address_taken:
            vmap[BlockAddress.get(self.old_fn, bb)] = BlockAddress.get(self.new_fn, new_bb)

        has_calls = has_dynamic = has_static = has_memprof = False
        pending: list[Instruction] = []  # cloned-then-dropped originals whose debug records move on
        info = self.info
        term = bb.terminator
        assert term is not None
        for old in bb.instructions:
            if old is term:
                break
            new = None
            if self.host_strict_fp:
                new = _constrained_clone(old, self.new_fn.parent)
                if new is not None and not old.name:
                    new._name = ".strict"  # LLVM names the call <name>.strict before renaming
            if new is None:
                new = old.clone()
            new_bb.instructions.append(new)
            if self.host_strict_fp and isinstance(new, CallInst):
                from llvmpy_mid.ir.attributes import Attribute

                new.add_fn_attr(Attribute.enum("strictfp"))
            if not isinstance(new, PHINode) and not _is_debug_or_pseudo(new):
                remap_operands(new, vmap)
                folded = constant_fold_instruction(new, self.dl)
                if folded is not None and is_instruction_trivially_dead(new):
                    vmap[old] = folded
                    new.erase_from_parent()
                    pending.append(old)
                    continue
            if old.name:
                new.set_name(old.name + self.suffix)
            vmap[old] = new
            if isinstance(old, CallInst) and not _is_debug_or_pseudo(old):
                has_calls = True
                has_memprof = has_memprof or old.get_metadata("memprof") is not None
            self._clone_records(new, pending, old)
            if info is not None:
                info.orig_vmap[old] = new
                if isinstance(old, CallBase) and old.has_operand_bundles:
                    info.operand_bundle_call_sites.append(new)
            if isinstance(old, AllocaInst):
                if isinstance(old.array_size, ConstantInt):
                    has_static = True
                else:
                    has_dynamic = True

        done = False
        if isinstance(term, BranchInst) and term.is_conditional:
            cond = term.condition
            if not isinstance(cond, ConstantInt):
                mapped = vmap.get(cond)
                cond = mapped if isinstance(mapped, ConstantInt) else None  # type: ignore[assignment]
            if isinstance(cond, ConstantInt):
                dest = term.get_successor(0 if cond.value else 1)
                br = BranchInst(dest)
                new_bb.instructions.append(br)
                vmap[term] = br
                to_clone.append(dest)
                done = True
        elif isinstance(term, SwitchInst):
            cond = term.condition
            if not isinstance(cond, ConstantInt):
                mapped = vmap.get(cond)
                cond = mapped if isinstance(mapped, ConstantInt) else None  # type: ignore[assignment]
            if isinstance(cond, ConstantInt):
                idx = term.find_case_value(cond)
                dest = term.default_dest if idx is None else term.get_case_dest(idx)
                br = BranchInst(dest)
                new_bb.instructions.append(br)
                vmap[term] = br
                to_clone.append(dest)
                done = True
        if not done:
            new_term = term.clone()
            if term.name:
                new_term.set_name(term.name + self.suffix)
            new_bb.instructions.append(new_term)
            self._clone_records(new_term, pending, term)
            vmap[term] = new_term
            if info is not None:
                info.orig_vmap[term] = new_term
                if isinstance(term, CallBase) and term.has_operand_bundles:
                    info.operand_bundle_call_sites.append(new_term)
            to_clone.extend(term.successors)
        else:
            last = new_bb.terminator
            assert last is not None
            self._clone_records(last, pending, term)

        if info is not None:
            info.contains_calls |= has_calls
            info.contains_mem_prof_metadata |= has_memprof
            info.contains_dynamic_allocas |= has_dynamic
            info.contains_dynamic_allocas |= has_static and bb is not self.old_fn.entry_block

    @staticmethod
    def _clone_records(new: Instruction, pending: list[Instruction], old: Instruction) -> None:
        for src in pending:
            for record in src.iter_dbg_records():
                new.add_dbg_record(record.clone())
        pending.clear()
        for record in old.iter_dbg_records():
            new.add_dbg_record(record.clone())


def _blocks_from(start: BasicBlock) -> Iterable[BasicBlock]:
    bb: BasicBlock | None = start
    while bb is not None:
        nxt = bb.next_block
        yield bb
        bb = nxt


def clone_and_prune_function_into(
    new_fn: Function,
    old_fn: Function,
    vmap: TrackingValueMap,
    returns: list[ReturnInst],
    name_suffix: str = "",
    info: ClonedCodeInfo | None = None,
) -> None:
    """LLVM ``CloneAndPruneFunctionInto``: append ``old_fn``'s body (arguments
    already mapped in ``vmap``) to ``new_fn``, pruned; the surviving returns are
    appended to ``returns``."""
    from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
    from llvmpy_mid.analysis.simplify_query import SimplifyQuery
    from llvmpy_mid.transform.utils.basic_block_utils import delete_dead_blocks
    from llvmpy_mid.transform.utils.local import constant_fold_terminator, is_instruction_trivially_dead

    cloner = _PruningCloner(new_fn, old_fn, vmap, name_suffix, info)
    entry = old_fn.entry_block
    worklist: list[BasicBlock] = []
    cloner.clone_block(entry, worklist)
    while worklist:
        bb = worklist.pop()
        cloner.clone_block(bb, worklist)

    phis_to_resolve: list[PHINode] = []
    for old_bb in old_fn.blocks:
        new_bb = vmap.get(old_bb)
        if not isinstance(new_bb, BasicBlock):
            continue
        new_fn.blocks.remove(new_bb)
        new_fn.blocks.append(new_bb)
        for pn in old_bb.phis():
            if isinstance(vmap.get(pn), PHINode):
                phis_to_resolve.append(pn)
            else:
                break
        term = new_bb.terminator
        assert term is not None
        remap_operands(term, vmap)

    i = 0
    n = len(phis_to_resolve)
    while i < n:
        phi_bb = phis_to_resolve[i].parent
        assert phi_bb is not None
        new_bb = vmap.get(phi_bb)
        assert isinstance(new_bb, BasicBlock)
        while i < n and phis_to_resolve[i].parent is phi_bb:
            new_phi = vmap.get(phis_to_resolve[i])
            assert isinstance(new_phi, PHINode)
            pred = 0
            while pred < new_phi.num_incoming:
                mapped_block = vmap.get(new_phi.get_incoming_block(pred))
                if isinstance(mapped_block, BasicBlock):
                    new_phi.set_incoming_value(pred, map_value(new_phi.get_incoming_value(pred), vmap))
                    new_phi.set_incoming_block(pred, mapped_block)
                    pred += 1
                else:
                    new_phi.remove_incoming_value(pred, False)
            i += 1
        first = new_bb.first_instruction
        assert isinstance(first, PHINode)
        preds = new_bb.predecessors
        if len(preds) != first.num_incoming:
            counts: dict[BasicBlock, int] = {}
            for p in preds:
                counts[p] = counts.get(p, 0) - 1
            for b in first.incoming_blocks:
                counts[b] = counts.get(b, 0) + 1
            for pn in list(new_bb.phis()):
                for block, excess in counts.items():
                    for _ in range(excess):
                        pn.remove_incoming_value(block, False)
        first = new_bb.first_instruction
        assert isinstance(first, PHINode)
        if first.num_incoming == 0:
            old_phis = list(phi_bb.phis())
            for k, pn in enumerate(list(new_bb.phis())):
                poison = PoisonValue.get(pn.type)
                replace_and_track(vmap, pn, poison)
                if k < len(old_phis):
                    vmap[old_phis[k]] = poison
                pn.erase_from_parent()

    module = new_fn.parent
    assert module is not None
    query = SimplifyQuery(module.data_layout)
    for old_bb in old_fn.blocks:
        for old in old_bb.instructions:
            new_i = vmap.get(old)
            if not isinstance(new_i, Instruction):
                continue
            simplified = simplify_instruction(new_i, query)
            if simplified is not None:
                replace_and_track(vmap, new_i, simplified)
                if is_instruction_trivially_dead(new_i):
                    new_i.erase_from_parent()
                else:
                    vmap[old] = new_i

    begin = vmap.get(entry)
    assert isinstance(begin, BasicBlock)
    for bb in _blocks_from(begin):
        for inst in bb.instructions:
            remap_dbg_records(inst, vmap)
    for bb in list(_blocks_from(begin)):
        constant_fold_terminator(bb)

    reachable: set[BasicBlock] = set()
    stack = [begin]
    while stack:
        bb = stack.pop()
        if bb in reachable:
            continue
        reachable.add(bb)
        stack.extend(bb.successors)
    dead = [bb for bb in _blocks_from(begin) if bb not in reachable]
    if dead:
        delete_dead_blocks(dead)

    cur: BasicBlock | None = begin
    while cur is not None:
        br = cur.terminator
        if not isinstance(br, BranchInst) or br.is_conditional:
            cur = cur.next_block
            continue
        dest = br.get_successor(0)
        if dest.single_predecessor is None or dest is cur:
            cur = cur.next_block
            continue
        br.erase_from_parent()
        replace_and_track(vmap, dest, cur)
        _splice_all(cur, dest)
        dest.erase_from_parent()

    for bb in _blocks_from(begin):
        term = bb.terminator
        if isinstance(term, ReturnInst):
            returns.append(term)


def _splice_all(into: BasicBlock, src: BasicBlock, before: Instruction | None = None) -> None:
    """Move every instruction of ``src`` into ``into`` (before ``before``, else at the end)."""
    node = src.instructions.first
    while node is not None:
        nxt = node._next
        src.instructions.remove(node)
        if before is None:
            into.instructions.append(node)
        else:
            into.instructions.insert_before(node, before)
        node = nxt
