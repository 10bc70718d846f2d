"""Extraction of a single-entry region of blocks into a new function (LLVM
``lib/Transforms/Utils/CodeExtractor.cpp``, ``include/llvm/Transforms/Utils/CodeExtractor.h``).

``CodeExtractor(blocks, ...)`` validates the block set at construction (no address-taken
blocks, no block addresses, unwind destinations inside the set, no entries into the
middle of the region); ``extract_code_region(cache)`` then

* drops ``llvm.assume`` calls of the region, splits ``ret`` off the returning blocks,
* severs the phis of the header and of the exits that mix region and outside edges
  (``<phi>.ce`` phis, ``<exit>.split`` blocks),
* sinks allocas only used in the region (with their lifetime markers) and hoists
  ``lifetime.end`` markers to the common exit (``findAllocas``),
* builds ``<fn>.<header>`` (or ``<fn>.<suffix>``; ``<fn>.extracted`` for an unnamed header)
  taking the inputs as parameters and the outputs as pointers (or one struct pointer with
  ``aggregate_args``), returning void, ``i1`` or ``i16`` by the number of exits,
* replaces the region with a ``codeRepl`` block that calls it, reloads the outputs from
  ``<v>.loc`` allocas (inside lifetime markers) and branches on the returned exit number.

Debug information is fixed up by ``code_extractor_debug`` (a new ``DISubprogram``), the
block-set checks and the analysis cache live in ``code_extractor_region``. ``bfi``/``bpi``
are only stored here: ``code_extractor_profile.ProfileCodeExtractor`` keeps the profile.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.debug_records import DbgRecord
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.casts import BitCastInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, ReturnInst, SwitchInst, UnreachableInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.transform.utils.basic_block_utils import split_block
from llvmpy_mid.transform.utils.code_extractor_region import (
    _DEBUG_INTRINSICS,
    BlockSet,
    CodeExtractorAnalysisCache,
    ValueSet,
    _common_exit_block,
    _defined_in_caller,
    _defined_in_region,
    _intrinsic_name,
    _is_debug_intrinsic,
    _is_intrinsic,
    _is_lifetime_marker,
    build_extraction_block_set,
    is_block_valid_for_extraction,
    strip_in_bounds_constant_offsets,
)
from llvmpy_mid.transform.utils.code_extractor_debug import fixup_debug_info_post_extraction, function_subprogram



# Function attributes that do not carry over to the extracted function.
_DROPPED_FN_ATTRS = frozenset({
    "allocsize", "builtin", "convergent", "jumptable", "naked", "nobuiltin", "nomerge", "noreturn", "nosync",
    "returns_twice", "speculatable", "alignstack", "willreturn", "allockind", "presplitcoroutine", "memory",
    "nofpclass", "coro_only_destroy_when_complete",
})  # fmt: skip


def _aggregate_args_option() -> bool:
    """``-aggregate-extracted-args`` (declared in the registry; off when it is not loaded)."""
    try:
        return bool(OPTIONS.value("aggregate-extracted-args"))
    except KeyError:
        return False


class _LifetimeMarkerInfo:
    __slots__ = ("life_start", "life_end", "sink_life_start", "hoist_life_end")

    def __init__(self) -> None:
        self.life_start: Instruction | None = None
        self.life_end: Instruction | None = None
        self.sink_life_start = False
        self.hoist_life_end = False


# --- the extractor ----------------------------------------------------------------------------
class CodeExtractor:
    """LLVM ``CodeExtractor`` (see the module docstring)."""

    def __init__(
        self,
        blocks: Sequence[BasicBlock],
        dt: DominatorTree | None = None,
        aggregate_args: bool = False,
        bfi: object | None = None,
        bpi: object | None = None,
        ac: object | None = None,
        allow_var_args: bool = False,
        allow_alloca: bool = False,
        allocation_block: BasicBlock | None = None,
        suffix: str = "",
    ) -> None:
        self.dt = dt
        self.aggregate_args = aggregate_args or _aggregate_args_option()
        self.bfi = bfi
        self.bpi = bpi
        self.ac = ac
        self.allow_var_args = allow_var_args
        self.allocation_block = allocation_block
        self.suffix = suffix
        self.blocks: BlockSet = build_extraction_block_set(blocks, dt, allow_var_args, allow_alloca) if blocks else {}
        self.old_targets: list[BasicBlock] = []
        self.num_exit_blocks = 0
        self.exclude_args_from_aggregate: ValueSet = {}

    def exclude_arg_from_aggregate(self, arg: Value) -> None:
        self.exclude_args_from_aggregate[arg] = None

    # --- eligibility ---
    def is_eligible(self) -> bool:
        if not self.blocks:
            return False
        header = next(iter(self.blocks))
        fn = header.parent
        assert fn is not None
        if self.allow_var_args and fn.is_vararg:
            for bb in fn.blocks:
                if bb in self.blocks:
                    continue
                for inst in bb:
                    name = _intrinsic_name(inst)
                    if _is_intrinsic(name, "llvm.va_start") or _is_intrinsic(name, "llvm.va_end"):
                        return False
        return True

    # --- allocas and lifetime markers ---
    def _is_legal_to_shrinkwrap_lifetime_markers(self, cache: CodeExtractorAnalysisCache, addr: Value) -> bool:
        ai = strip_in_bounds_constant_offsets(addr)
        fn = next(iter(self.blocks)).parent
        assert fn is not None
        for bb in fn.blocks:
            if bb in self.blocks:
                continue
            if cache.does_block_contain_clobber_of_addr(bb, ai):
                return False
        return True

    def _lifetime_markers(
        self, cache: CodeExtractorAnalysisCache, addr: Value, exit_block: BasicBlock | None
    ) -> _LifetimeMarkerInfo:
        info = _LifetimeMarkerInfo()
        for user in addr.users:
            name = _intrinsic_name(user)
            if name:
                if _is_intrinsic(name, "llvm.lifetime.start"):
                    if info.life_start is not None:
                        return _LifetimeMarkerInfo()
                    info.life_start = user  # type: ignore[assignment]
                    continue
                if _is_intrinsic(name, "llvm.lifetime.end"):
                    if info.life_end is not None:
                        return _LifetimeMarkerInfo()
                    info.life_end = user  # type: ignore[assignment]
                    continue
                if name in _DEBUG_INTRINSICS:
                    continue
            if not _defined_in_region(self.blocks, user):
                return _LifetimeMarkerInfo()
        if info.life_start is None or info.life_end is None:
            return _LifetimeMarkerInfo()
        info.sink_life_start = not _defined_in_region(self.blocks, info.life_start)
        info.hoist_life_end = not _defined_in_region(self.blocks, info.life_end)
        if (info.sink_life_start or info.hoist_life_end) and not self._is_legal_to_shrinkwrap_lifetime_markers(
            cache, addr
        ):
            return _LifetimeMarkerInfo()
        if info.hoist_life_end and exit_block is None:
            return _LifetimeMarkerInfo()
        return info

    def find_allocas(
        self, cache: CodeExtractorAnalysisCache, sink_cands: ValueSet, hoist_cands: ValueSet
    ) -> BasicBlock | None:
        """LLVM ``findAllocas``; returns the common exit block (or None)."""
        fn = next(iter(self.blocks)).parent
        exit_block = _common_exit_block(self.blocks)

        def move_or_ignore(lmi: _LifetimeMarkerInfo) -> bool:
            if lmi.life_start is None:
                return False
            if lmi.sink_life_start:
                sink_cands[lmi.life_start] = None
            if lmi.hoist_life_end:
                assert lmi.life_end is not None
                hoist_cands[lmi.life_end] = None
            return True

        for ai in cache.allocas:
            bb = ai.parent
            if bb is None or bb in self.blocks or bb.parent is not fn:
                continue
            if move_or_ignore(self._lifetime_markers(cache, ai, exit_block)):
                sink_cands[ai] = None
                continue
            lifetime_bitcast_users: list[Instruction] = []
            for user in list(ai.users):
                if not _defined_in_region(self.blocks, user):
                    continue
                if strip_in_bounds_constant_offsets(user) is not ai:
                    continue
                for bu in user.users:
                    if not _is_lifetime_marker(bu) or _defined_in_region(self.blocks, bu):
                        continue
                    lifetime_bitcast_users.append(bu)  # type: ignore[arg-type]
            for marker in lifetime_bitcast_users:
                cast = BitCastInst(ai, ai.type.context.pointer_type(0))
                cast.set_name("lt.cast")
                cast.insert_before(marker)
                marker.replace_uses_of_with(marker.operands[1], cast)
            bitcasts: list[Instruction] = []
            infos: list[_LifetimeMarkerInfo] = []
            for user in list(ai.users):
                if strip_in_bounds_constant_offsets(user) is ai:
                    lmi = self._lifetime_markers(cache, user, exit_block)
                    if lmi.life_start is not None:
                        bitcasts.append(user)  # type: ignore[arg-type]
                        infos.append(lmi)
                        continue
                if not _defined_in_region(self.blocks, user):
                    bitcasts.clear()
                    break
            if not bitcasts:
                continue
            sink_cands[ai] = None
            for bc, lmi in zip(bitcasts, infos):
                move_or_ignore(lmi)
                if not _defined_in_region(self.blocks, bc):
                    sink_cands[bc] = None
        return exit_block

    def _find_or_create_block_for_hoisting(self, common_exit: BasicBlock) -> BasicBlock:
        single: BasicBlock | None = None
        for pred in common_exit.predecessors:
            if pred not in self.blocks:
                continue
            if single is None:
                single = pred
            elif single is not pred:
                single = None
                break
        if single is not None:
            return single
        first = common_exit.first_non_phi
        assert first is not None
        recs = first.take_dbg_records()
        new_exit = common_exit.split(first)
        _reattach_records(recs, common_exit)
        for pred in list(common_exit.predecessors):
            if pred in self.blocks:
                continue
            term = pred.terminator
            assert term is not None
            term.replace_uses_of_with(common_exit, new_exit)
        self.blocks[common_exit] = None
        self.old_targets.append(new_exit)
        return common_exit

    # --- inputs and outputs ---
    def find_inputs_outputs(self, inputs: ValueSet, outputs: ValueSet, sink_cands: ValueSet | None = None) -> None:
        """LLVM ``findInputsOutputs``: values defined outside and used inside the region,
        and values defined inside and used outside it."""
        sinks = sink_cands if sink_cands is not None else {}
        blocks = self.blocks
        for bb in blocks:
            for inst in bb:
                for v in inst.operands:
                    if v is not None and v not in sinks and _defined_in_caller(blocks, v):
                        inputs[v] = None
                for user in inst.users:
                    if not _defined_in_region(blocks, user):
                        outputs[inst] = None
                        break

    # --- splitting phis and returns ---
    def _sever_split_phi_nodes_of_entry(self, header: BasicBlock) -> BasicBlock:
        fn = header.parent
        assert fn is not None
        preds_from_region = 0
        if header is not fn.entry_block:
            first = header.first_instruction
            if not isinstance(first, PHINode):
                return header
            outside = 0
            for blk in first.incoming_blocks:
                if blk in self.blocks:
                    preds_from_region += 1
                else:
                    outside += 1
            if outside <= 1:
                return header
        first_non_phi = header.first_non_phi
        assert first_non_phi is not None
        recs = first_non_phi.take_dbg_records()
        new_bb = split_block(header, first_non_phi, self.dt)
        _reattach_records(recs, header)
        old_pred = header
        del self.blocks[old_pred]
        self.blocks[new_bb] = None
        if preds_from_region:
            first_phi = old_pred.first_instruction
            assert isinstance(first_phi, PHINode)
            for blk in first_phi.incoming_blocks:
                if blk in self.blocks:
                    term = blk.terminator
                    assert term is not None
                    term.replace_uses_of_with(old_pred, new_bb)
            for pn in list(old_pred.phis()):
                new_pn = PHINode(pn.type, ())
                new_pn.set_name(pn.name + ".ce")
                first_new = new_bb.first_instruction
                new_bb.instructions.insert_before(new_pn, first_new)
                pn.replace_all_uses_with(new_pn)
                new_pn.add_incoming(pn, old_pred)
                i = 0
                while i < pn.num_incoming:
                    blk = pn.incoming_blocks[i]
                    if blk in self.blocks:
                        new_pn.add_incoming(pn.incoming_values[i], blk)
                        pn.remove_incoming_value(i)
                    else:
                        i += 1
        return new_bb

    def _sever_split_phi_nodes_of_exits(self, exits: Iterable[BasicBlock]) -> None:
        for exit_bb in exits:
            new_bb: BasicBlock | None = None
            for pn in list(exit_bb.phis()):
                idxs = [i for i, blk in enumerate(pn.incoming_blocks) if blk in self.blocks]
                if len(idxs) <= 1:
                    continue
                if new_bb is None:
                    fn = exit_bb.parent
                    new_bb = BasicBlock(exit_bb.type.context, exit_bb.name + ".split", fn, exit_bb)
                    for pred in exit_bb.predecessors:
                        if pred in self.blocks:
                            term = pred.terminator
                            assert term is not None
                            term.replace_uses_of_with(exit_bb, new_bb)
                    new_bb.instructions.append(BranchInst(exit_bb))
                    self.blocks[new_bb] = None
                vals = pn.incoming_values
                blks = pn.incoming_blocks
                new_pn = PHINode(pn.type, [(vals[i], blks[i]) for i in idxs])
                new_pn.set_name(pn.name + ".ce")
                new_bb.instructions.insert_before(new_pn, new_bb.first_non_phi)
                for i in reversed(idxs):
                    pn.remove_incoming_value(i, False)
                pn.add_incoming(new_pn, new_bb)

    def _split_return_blocks(self) -> None:
        for bb in list(self.blocks):
            term = bb.terminator
            if term is None or term.opcode != "ret":
                continue
            recs = term.take_dbg_records()
            new_bb = bb.split(term, bb.name + ".ret")
            _reattach_records(recs, bb)
            dt = self.dt
            if dt is not None and bb in dt:
                children = dt.children(bb)
                dt.add_new_block(new_bb, bb)
                for child in children:
                    dt.change_immediate_dominator(child, new_bb)

    # --- the new function ---
    def _construct_function(
        self,
        inputs: list[Value],
        outputs: list[Value],
        header: BasicBlock,
        new_root: BasicBlock,
        new_header: BasicBlock,
        old_fn: Function,
    ) -> tuple[Function, list[Value], Type | None]:
        ctx = header.type.context
        module = old_fn.parent
        assert module is not None
        n = self.num_exit_blocks
        ret_ty = ctx.void if n <= 1 else (ctx.i1 if n == 2 else ctx.int_type(16))
        alloca_as = module.data_layout.alloca_addr_space
        param_tys: list[Type] = []
        agg_tys: list[Type] = []
        struct_values: list[Value] = []
        for v in inputs:
            if self.aggregate_args and v not in self.exclude_args_from_aggregate:
                agg_tys.append(v.type)
                struct_values.append(v)
            else:
                param_tys.append(v.type)
        for v in outputs:
            if self.aggregate_args and v not in self.exclude_args_from_aggregate:
                agg_tys.append(v.type)
                struct_values.append(v)
            else:
                param_tys.append(ctx.pointer_type(alloca_as))
        num_scalar = len(param_tys)
        struct_ty: Type | None = None
        if self.aggregate_args and agg_tys:
            struct_ty = ctx.struct_type(agg_tys)
            param_tys.append(ctx.pointer_type(alloca_as))
        fty = ctx.function_type(ret_ty, param_tys, self.allow_var_args and old_fn.is_vararg)
        suffix = self.suffix or (header.name if header.name else "extracted")
        new_fn = Function(fty, old_fn.name + "." + suffix, Linkage.INTERNAL, module=module,
                          address_space=old_fn.address_space)
        kept: list[Attribute] = []
        for attr in old_fn.attributes.fn_attrs:
            if attr.is_string_attr:
                if attr.kind_name == "thunk":
                    continue
            elif attr.kind_name in _DROPPED_FN_ATTRS:
                continue
            kept.append(attr)
        if kept:
            new_fn.attributes = new_fn.attributes.merge_fn_attrs(kept)
        if n == 0:
            if not any(b.terminator is not None and b.terminator.opcode in ("ret", "resume") for b in self.blocks):
                new_fn.attributes = new_fn.attributes.with_fn_attr(Attribute.enum("noreturn"))
        new_fn.blocks.append(new_root)
        struct_set = set(map(id, struct_values))
        scalar_args = iter(new_fn.args[:num_scalar])
        agg_arg = new_fn.args[num_scalar] if struct_ty is not None else None
        agg_idx = 0
        i32 = ctx.i32
        for v in inputs:
            if id(v) in struct_set:
                assert agg_arg is not None and struct_ty is not None
                root_term = new_root.terminator
                assert root_term is not None
                b = IRBuilder(before=root_term)
                gep = b.gep(struct_ty, agg_arg, [ConstantInt.get(i32, 0), ConstantInt.get(i32, agg_idx)],
                            "gep_" + v.name)
                rewrite: Value = b.load(agg_tys[agg_idx], gep, "loadgep_" + v.name,
                                        alignment=module.data_layout.abi_alignment(agg_tys[agg_idx]))
                agg_idx += 1
            else:
                rewrite = next(scalar_args)
            for user in list(v.users):
                if user.is_instruction and user.parent in self.blocks:  # type: ignore[attr-defined]
                    user.replace_uses_of_with(v, rewrite)
        if num_scalar:
            args = iter(new_fn.args)
            for v in inputs:
                arg = next(args)
                if id(v) not in struct_set:
                    arg.set_name(v.name)
            for v in outputs:
                arg = next(args)
                if id(v) not in struct_set:
                    arg.set_name(v.name + ".out")
        for user in list(header.users):
            if (user.is_instruction and user.is_terminator  # type: ignore[attr-defined]
                    and user.function is old_fn  # type: ignore[attr-defined]
                    and user.parent not in self.blocks):  # type: ignore[attr-defined]
                user.replace_uses_of_with(header, new_header)
        return new_fn, struct_values, struct_ty

    def _emit_call_and_branch(
        self,
        new_fn: Function,
        code_repl: BasicBlock,
        inputs: list[Value],
        outputs: list[Value],
        struct_values: list[Value],
        struct_ty: Type | None,
    ) -> Instruction:
        ctx = code_repl.type.context
        old_fn = code_repl.parent
        assert old_fn is not None
        i32 = ctx.i32
        i16 = ctx.int_type(16)
        module = old_fn.parent
        assert module is not None
        dl = module.data_layout
        struct_set = set(map(id, struct_values))
        params: list[Value] = []
        reload_outputs: list[Value] = []
        swift_error_args: list[int] = []
        for idx, v in enumerate(inputs):
            if id(v) not in struct_set:
                params.append(v)
                if getattr(v, "is_swifterror", False) is True:
                    swift_error_args.append(idx)
        scalar_input_count = len(inputs)
        scalar_output_count = 0
        for v in outputs:
            if id(v) in struct_set:
                continue
            entry = old_fn.entry_block
            first = entry.first_instruction
            b = IRBuilder(entry, before=first) if first is not None else IRBuilder(entry)
            loc = b.alloca(v.type, None, v.name + ".loc", alignment=dl.pref_alignment(v.type))
            reload_outputs.append(loc)
            params.append(loc)
            scalar_output_count += 1
        struct_alloca: Value | None = None
        num_agg_inputs = 0
        rb = IRBuilder(code_repl)
        if struct_ty is not None:
            if self.allocation_block is not None:
                at = self.allocation_block.first_insertion_point
                sb = IRBuilder(self.allocation_block, before=at) if at is not None else IRBuilder(self.allocation_block)
            else:
                entry = old_fn.entry_block
                first = entry.first_instruction
                sb = IRBuilder(entry, before=first) if first is not None else IRBuilder(entry)
            struct_alloca = sb.alloca(struct_ty, None, "structArg", alignment=dl.pref_alignment(struct_ty))
            params.append(struct_alloca)
            for i, v in enumerate(struct_values):
                if v in inputs:
                    gep = rb.gep(struct_ty, struct_alloca, [ConstantInt.get(i32, 0), ConstantInt.get(i32, i)],
                                 "gep_" + v.name)
                    rb.store(v, gep, alignment=dl.abi_alignment(v.type))
                    num_agg_inputs += 1
        call = rb.call(new_fn, params, "targetBlock" if self.num_exit_blocks > 1 else "")
        if function_subprogram(old_fn) is not None:
            entry_term = new_fn.entry_block.terminator
            if entry_term is not None and entry_term.debug_loc is not None:
                call.debug_loc = entry_term.debug_loc
        for arg_no in swift_error_args:
            call.attributes = call.attributes.with_param_attr(arg_no, Attribute.enum("swifterror"))
            new_fn.attributes = new_fn.attributes.with_param_attr(arg_no, Attribute.enum("swifterror"))
        scalar_idx = 0
        agg_idx = num_agg_inputs
        for v in outputs:
            if id(v) in struct_set:
                assert struct_ty is not None and struct_alloca is not None
                ptr: Value = rb.gep(struct_ty, struct_alloca, [ConstantInt.get(i32, 0), ConstantInt.get(i32, agg_idx)],
                                    "gep_reload_" + v.name)
                agg_idx += 1
            else:
                ptr = reload_outputs[scalar_idx]
                scalar_idx += 1
            load = rb.load(v.type, ptr, v.name + ".reload", alignment=dl.abi_alignment(v.type))
            for user in list(v.users):
                if user.parent not in self.blocks:  # type: ignore[attr-defined]
                    user.replace_uses_of_with(v, load)
        # exit stubs, numbered in the order the region's edges leave it
        exit_map: dict[BasicBlock, BasicBlock] = {}
        targets: list[BasicBlock] = []
        n = self.num_exit_blocks
        for old_target in self.old_targets:
            if old_target in self.blocks or old_target in exit_map:
                continue
            stub = BasicBlock(ctx, old_target.name + ".exitStub", new_fn)
            exit_map[old_target] = stub
            succ_num = len(targets)
            targets.append(old_target)
            if n <= 1:
                stub.instructions.append(ReturnInst(ctx))
            elif n == 2:
                stub.instructions.append(ReturnInst(ctx, ConstantInt.get(ctx.i1, 0 if succ_num else 1)))
            else:
                stub.instructions.append(ReturnInst(ctx, ConstantInt.get(i16, succ_num)))
        for bb in self.blocks:
            term = bb.terminator
            assert term is not None
            for i, succ in enumerate(term.successors):
                if succ in self.blocks:
                    continue
                term.set_successor(i, exit_map[succ])
        # stores of the outputs inside the new function
        scalar_out_args = iter(new_fn.args[scalar_input_count:])
        agg_idx = num_agg_inputs
        agg_arg = new_fn.args[-1] if struct_ty is not None else None
        for v in outputs:
            if not v.is_instruction:
                continue
            out_inst: Instruction = v  # type: ignore[assignment]
            if out_inst.opcode == "invoke":
                insert_pt = out_inst.successors[0].first_insertion_point
            elif out_inst.opcode == "phi":
                parent = out_inst.parent
                assert parent is not None
                insert_pt = parent.first_insertion_point
            else:
                insert_pt = out_inst.next_instruction
            assert insert_pt is not None
            ob = IRBuilder(before=insert_pt)
            after_records = out_inst.opcode not in ("invoke", "phi")
            if id(v) in struct_set:
                assert struct_ty is not None and agg_arg is not None
                gep = ob.gep(struct_ty, agg_arg, [ConstantInt.get(i32, 0), ConstantInt.get(i32, agg_idx)],
                             "gep_" + v.name)
                if after_records:
                    _absorb_dbg_records(gep, insert_pt)
                ob.store(v, gep, alignment=dl.abi_alignment(v.type))
                agg_idx += 1
            else:
                st = ob.store(v, next(scalar_out_args), alignment=dl.abi_alignment(v.type))
                if after_records:
                    _absorb_dbg_records(st, insert_pt)
        # the terminator of codeRepl
        if n == 0:
            ret_ty = old_fn.return_type
            if new_fn.does_not_return:
                code_repl.instructions.append(UnreachableInst(ctx))
            elif ret_ty.is_void:
                code_repl.instructions.append(ReturnInst(ctx))
            else:
                from llvmpy_mid.ir.constants import Constant

                code_repl.instructions.append(ReturnInst(ctx, Constant.get_null_value(ret_ty)))
        elif n == 1:
            code_repl.instructions.append(BranchInst(targets[0]))
        elif n == 2:
            code_repl.instructions.append(BranchInst(targets[0], targets[1], call))
        else:
            cases = [(ConstantInt.get(i16, k), targets[k]) for k in range(n - 1)]
            code_repl.instructions.append(SwitchInst(call, targets[n - 1], cases))
        _insert_lifetime_markers_surrounding_call(reload_outputs, reload_outputs, call)
        return call

    def _move_code_to_function(self, new_fn: Function) -> None:
        after = new_fn.blocks.first
        assert after is not None
        for bb in self.blocks:
            bb.remove_from_parent()
            new_fn.blocks.insert_before(bb, after._next)
            after = bb

    # --- the driver ---
    def extract_code_region(
        self, cache: CodeExtractorAnalysisCache, inputs: ValueSet | None = None, outputs: ValueSet | None = None
    ) -> Function | None:
        """Extract the region; None when it is not eligible. ``inputs``/``outputs``
        receive the region's live-in and live-out values when given."""
        if not self.is_eligible():
            return None
        ins: ValueSet = inputs if inputs is not None else {}
        outs: ValueSet = outputs if outputs is not None else {}
        header = next(iter(self.blocks))
        old_fn = header.parent
        assert old_fn is not None
        ctx = header.type.context
        for bb in self.blocks:
            for inst in list(bb):
                if _is_intrinsic(_intrinsic_name(inst), "llvm.assume"):
                    if self.ac is not None:
                        self.ac.unregister_assumption(inst)  # type: ignore[attr-defined]
                    inst.erase_from_parent()
        self._split_return_blocks()
        exit_blocks: BlockSet = {}
        for bb in self.blocks:
            for succ in bb.successors:
                if succ not in self.blocks:
                    exit_blocks[succ] = None
        self.num_exit_blocks = len(exit_blocks)
        for bb in self.blocks:
            for succ in bb.successors:
                if succ not in self.blocks:
                    self.old_targets.append(succ)
        header = self._sever_split_phi_nodes_of_entry(header)
        self._sever_split_phi_nodes_of_exits(exit_blocks)
        code_repl = BasicBlock(ctx, "codeRepl", old_fn, header)
        new_root = BasicBlock(ctx, "newFuncRoot")
        root_br = BranchInst(header)
        if function_subprogram(old_fn) is not None:
            for bb in self.blocks:
                loc = next((i.debug_loc for i in bb if i.debug_loc is not None and not _is_debug_intrinsic(i)), None)
                if loc is not None:
                    root_br.debug_loc = loc
                    break
        new_root.instructions.append(root_br)
        sinks: ValueSet = {}
        hoists: ValueSet = {}
        common_exit = self.find_allocas(cache, sinks, hoists)
        self.find_inputs_outputs(ins, outs, sinks)
        first_sunk: Instruction | None = None
        for v in sinks:
            if getattr(v, "opcode", None) == "alloca":
                sunk_inst: Instruction = v  # type: ignore[assignment]
                at = new_root.first_insertion_point
                assert at is not None
                sunk_inst.move_before(at)
                if first_sunk is None:
                    first_sunk = sunk_inst
        for v in sinks:
            if getattr(v, "opcode", None) != "alloca":
                assert first_sunk is not None
                v.move_after(first_sunk)  # type: ignore[attr-defined]
        if hoists:
            assert common_exit is not None
            hoist_to = self._find_or_create_block_for_hoisting(common_exit)
            term = hoist_to.terminator
            assert term is not None
            for v in hoists:
                v.move_before(term)  # type: ignore[attr-defined]
                _absorb_dbg_records(v, term)  # type: ignore[arg-type]
        lifetimes_start: ValueSet = {}
        _erase_lifetime_markers_on_inputs(self.blocks, sinks, lifetimes_start)
        in_list = list(ins)
        out_list = list(outs)
        new_fn, struct_values, struct_ty = self._construct_function(
            in_list, out_list, header, new_root, code_repl, old_fn)
        call = self._emit_call_and_branch(new_fn, code_repl, in_list, out_list, struct_values, struct_ty)
        self._move_code_to_function(new_fn)
        _insert_lifetime_markers_surrounding_call(list(lifetimes_start), [], call)
        if old_fn.personality is not None:
            new_fn.personality = old_fn.personality
        for pn in header.phis():
            for i, blk in enumerate(pn.incoming_blocks):
                if blk not in self.blocks:
                    pn.set_incoming_block(i, new_root)
        for exit_bb in exit_blocks:
            for pn in exit_bb.phis():
                seen = False
                for i, blk in enumerate(pn.incoming_blocks):
                    if blk not in self.blocks:
                        continue
                    if not seen:
                        pn.set_incoming_block(i, code_repl)
                        seen = True
        fixup_debug_info_post_extraction(old_fn, new_fn, call)
        return new_fn


# --- helpers of the driver ------------------------------------------------------------------
def _reattach_records(recs: list[DbgRecord], bb: BasicBlock) -> None:
    """Records that stood before a split point stay in the old block, before its new
    branch (LLVM ``splitBasicBlock`` at an iterator without the head bit)."""
    term = bb.terminator
    if term is None:
        return
    for rec in recs:
        term.add_dbg_record(rec)


def _absorb_dbg_records(inst: Instruction, pos: Instruction) -> None:
    """LLVM's insertion before a position without its head bit: the debug records in
    front of ``pos`` end up in front of ``inst``, just inserted before it."""
    recs = pos.take_dbg_records()
    for rec in recs:
        inst.add_dbg_record(rec)


def _erase_lifetime_markers_on_inputs(blocks: BlockSet, sunk: ValueSet, lifetimes_start: ValueSet) -> None:
    for bb in blocks:
        for inst in list(bb):
            if not _is_lifetime_marker(inst):
                continue
            mem = strip_pointer_casts(inst.operands[1], inbounds=True)
            if mem in sunk or _defined_in_region(blocks, mem):
                continue
            if _is_intrinsic(_intrinsic_name(inst), "llvm.lifetime.start"):
                lifetimes_start[mem] = None
            inst.erase_from_parent()


def _insert_lifetime_markers_surrounding_call(starts: list[Value], ends: list[Value], call: Instruction) -> None:
    block = call.parent
    assert block is not None
    ctx = block.type.context
    neg1 = ConstantInt.get(ctx.i64, -1)
    term = block.terminator
    for mem in starts:
        IRBuilder(before=call).create_intrinsic("lifetime.start", [mem.type], [neg1, mem], return_type=ctx.void)
    for mem in ends:
        b = IRBuilder(before=term) if term is not None else IRBuilder(block)
        b.create_intrinsic("lifetime.end", [mem.type], [neg1, mem], return_type=ctx.void)


__all__ = [
    "CodeExtractor",
    "CodeExtractorAnalysisCache",
    "build_extraction_block_set",
    "is_block_valid_for_extraction",
    "strip_in_bounds_constant_offsets",
]
