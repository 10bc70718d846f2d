"""The rewrite of ``argpromotion`` (LLVM lib/Transforms/IPO/ArgumentPromotion.cpp,
``doPromotion``): a function is replaced by a new one taking the promoted
parts by value.

What, for a function ``F`` and the parts chosen for some of its pointer
arguments:

* ``NF`` has ``F``'s signature with each promoted argument replaced by its
  parts in offset order (an unused promoted argument simply disappears); it
  takes ``F``'s name, attributes (promoted parameters lose theirs,
  ``allocsize`` indices are renumbered), metadata (``F`` loses its
  subprogram) and body; ``min-legal-vector-width`` grows to the widest vector
  passed.
* Each call becomes a call of ``NF``: before it, every part is loaded from
  the old operand (``<name>.val``, through a byte GEP for a non-zero offset)
  with the part's alignment and, when the part has an access guaranteed to
  run, that access's AA, ``!dereferenceable``, ``!noundef``... metadata;
  calling convention, tail kind, bundles, ``!prof`` and ``!dbg`` are kept.
  Operands passed for unused promoted arguments are deleted when dead.
* Inside ``NF`` each part is stored to a new alloca (``<arg>.<off>.allc``) fed
  by the new argument ``<arg>.<off>.val``; the old loads and stores use the
  allocas, the GEPs and bitcasts in between are deleted and the allocas are
  promoted to registers.
"""

from __future__ import annotations

from typing import Sequence, cast

from llvmpy_mid.analysis.alias.memory_location import AAMDNodes, set_aa_metadata
from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
from llvmpy_mid.ir.attribute_list import AttributeList
from llvmpy_mid.ir.attributes import Attribute, AttributeSet
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue, UndefValue
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.terminators import InvokeInst
from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets
from llvmpy_mid.ir.types import IntegerType, Type, TypeID, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ipo.argument_promotion_parts import ArgPart
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.local import recursively_delete_trivially_dead_instructions_permissive
from llvmpy_mid.transform.utils.promote_mem_to_reg import promote_mem_to_reg

__all__ = ["NUM_ARGUMENTS_DEAD", "NUM_ARGUMENTS_PROMOTED", "PromotedParts", "do_promotion"]

NUM_ARGUMENTS_PROMOTED = Statistic("argpromotion", "NumArgumentsPromoted", "Number of pointer arguments promoted")
NUM_ARGUMENTS_DEAD = Statistic("argpromotion", "NumArgumentsDead", "Number of dead pointer args eliminated")

#: The parts of each promoted argument, sorted by offset.
PromotedParts = dict[Argument, list[tuple[int, ArgPart]]]

_COPIED_LOAD_METADATA = ("dereferenceable", "dereferenceable_or_null", "noundef", "nontemporal")
_POISON_METADATA = ("range", "nonnull", "align")


# --- small helpers ------------------------------------------------------------------------------
def _insert_before(inst: Instruction, pos: Instruction, loc: object | None = None, name: str = "") -> None:
    """Insert as LLVM does at an instruction's iterator: the debug records
    before ``pos`` now precede ``inst``; ``loc`` becomes its ``!dbg``."""
    inst.insert_before(pos)
    for rec in pos.take_dbg_records():
        inst.add_dbg_record(rec)
    if loc is not None:
        inst.debug_loc = loc  # type: ignore[assignment]
    if name:
        inst.set_name(name)


def _primitive_size_in_bits(ty: Type) -> int:
    """``Type::getPrimitiveSizeInBits`` (known minimum) of a vector type."""
    assert isinstance(ty, VectorType)
    elem = ty.element_type
    tid = elem.type_id
    if tid is TypeID.INTEGER:
        width = cast(IntegerType, elem).width
    else:
        width = {
            TypeID.HALF: 16, TypeID.BFLOAT: 16, TypeID.FLOAT: 32, TypeID.DOUBLE: 64,
            TypeID.X86_FP80: 80, TypeID.FP128: 128, TypeID.PPC_FP128: 128,
        }.get(tid, 0)  # fmt: skip
    return width * ty.count


def update_min_legal_vector_width(fn: Function, width: int) -> None:
    """Raise ``fn``'s ``min-legal-vector-width`` to ``width`` when it has the
    attribute and it is smaller (LLVM ``updateMinLegalVectorWidthAttr``)."""
    text = fn.attributes.fn_attrs.string_value("min-legal-vector-width")
    if text is None:
        return
    try:
        old = int(text, 0)
    except ValueError:
        old = 0
    if width > old:
        fn.attributes = fn.attributes.with_fn_attr(Attribute.string("min-legal-vector-width", str(width)))


def _dense_map_order(keys: Sequence[int]) -> list[int]:
    """The iteration order of LLVM's ``SmallDenseMap<int64_t, T>`` (four inline
    buckets) holding ``keys`` inserted in this order."""
    count = len(keys)
    buckets = 4 if count <= 2 else 64
    while count * 4 >= buckets * 3:
        buckets *= 2
    table: list[int | None] = [None] * buckets
    mask = buckets - 1
    for key in keys:
        slot = (key * 37) & 0xFFFFFFFF & mask
        probe = 1
        while table[slot] is not None:
            slot = (slot + probe) & mask
            probe += 1
        table[slot] = key
    return [k for k in table if k is not None]


# --- the new function -----------------------------------------------------------------------------
def _new_signature(
    fn: Function, to_promote: PromotedParts
) -> tuple[list[Type], list[AttributeSet], list[int], int]:
    pal = fn.attributes
    params: list[Type] = []
    arg_attrs: list[AttributeSet] = []
    new_indices: list[int] = []
    new_arg_no = 0
    for arg in fn.args:
        parts = to_promote.get(arg)
        if parts is None:
            params.append(arg.type)
            arg_attrs.append(pal.param_attrs(arg.arg_no))
            new_indices.append(new_arg_no)
            new_arg_no += 1
        elif arg.use_empty:
            NUM_ARGUMENTS_DEAD.add()
            new_indices.append(-1)
        else:
            for _, part in parts:
                params.append(part.ty)
                arg_attrs.append(AttributeSet())
            NUM_ARGUMENTS_PROMOTED.add()
            new_indices.append(-1)
            new_arg_no += len(parts)
    largest = 0
    for ty in params:
        if isinstance(ty, VectorType):
            largest = max(largest, _primitive_size_in_bits(ty))
    return params, arg_attrs, new_indices, largest


def _create_function(fn: Function, to_promote: PromotedParts) -> tuple[Function, int]:
    params, arg_attrs, new_indices, largest = _new_signature(fn, to_promote)
    fty = fn.function_type
    nfty = fty.context.function_type(fty.return_type, params, fty.is_vararg)
    nf = Function(nfty, "", fn.linkage, address_space=fn.address_space)
    nf.copy_attributes_from(fn)
    nf.copy_metadata_from(fn)
    fn.set_metadata("dbg", None)
    pal = fn.attributes
    nf.attributes = AttributeList(pal.fn_attrs, pal.ret_attrs, arg_attrs)
    alloc_size = nf.attributes.fn_attrs.alloc_size_args
    if alloc_size is not None:
        first, second = alloc_size
        new_second = new_indices[second] if second is not None else None
        nf.attributes = nf.attributes.with_fn_attr(Attribute.alloc_size(new_indices[first], new_second))
    update_min_legal_vector_width(nf, largest)
    module = fn.parent
    assert module is not None
    module.functions.insert_before(nf, fn)
    nf.take_name(fn)
    return nf, largest


# --- the call sites ---------------------------------------------------------------------------------
def _copy_part_metadata(load: LoadInst, source: Instruction) -> None:
    set_aa_metadata(load, AAMDNodes.of(source))
    for kind in _COPIED_LOAD_METADATA:
        node = source.get_metadata(kind)
        if node is not None:
            load.set_metadata(kind, node)
    if load.get_metadata("noundef") is not None:
        for kind in _POISON_METADATA:
            node = source.get_metadata(kind)
            if node is not None:
                load.set_metadata(kind, node)


def _load_part(cb: CallBase, value: Value, offset: int, part: ArgPart, dl: DataLayout) -> LoadInst:
    loc = cb.stable_debug_loc
    ptr = value
    if offset != 0:
        index_ty = cast(IntegerType, dl.index_type(value.type))
        ctx = value.type.context
        gep = GetElementPtrInst(ctx.i8, value, [ConstantInt.get(index_ty, offset)])
        _insert_before(gep, cb, loc)
        ptr = gep
    load = LoadInst(part.ty, ptr, alignment=part.alignment)
    _insert_before(load, cb, loc, value.name + ".val")
    if part.must_exec_instr is not None:
        _copy_part_metadata(load, part.must_exec_instr)
    return load


def _rewrite_call(
    cb: CallBase,
    fn: Function,
    nf: Function,
    to_promote: PromotedParts,
    dl: DataLayout,
    dead_args: list[Value | None],
    largest_vector_width: int,
) -> None:
    call_pal = cb.attributes
    operands = cb.args
    args: list[Value] = []
    arg_attrs: list[AttributeSet] = []
    num_params = len(fn.args)
    for arg in fn.args:
        value = operands[arg.arg_no]
        parts = to_promote.get(arg)
        if parts is None:
            args.append(value)
            arg_attrs.append(call_pal.param_attrs(arg.arg_no))
        elif not arg.use_empty:
            for offset, part in parts:
                args.append(_load_part(cb, value, offset, part, dl))
                arg_attrs.append(AttributeSet())
        else:
            dead_args.append(value)
    for arg_no in range(num_params, len(operands)):
        args.append(operands[arg_no])
        arg_attrs.append(call_pal.param_attrs(arg_no))

    bundles = cb.operand_bundles
    nfty = nf.function_type
    new_cb: CallBase
    if isinstance(cb, InvokeInst):
        new_cb = InvokeInst(nfty, nf, cb.normal_dest, cb.unwind_dest, args, bundles=bundles)
    else:
        new_cb = CallInst(nfty, nf, args, bundles=bundles, tail_call_kind=cast(CallInst, cb).tail_call_kind)
    _insert_before(new_cb, cb)
    new_cb.calling_conv = cb.calling_conv
    new_cb.attributes = AttributeList(call_pal.fn_attrs, call_pal.ret_attrs, arg_attrs)
    prof = cb.get_metadata("prof")
    if prof is not None:
        new_cb.set_metadata("prof", prof)
    loc = cb.debug_loc
    if loc is not None:
        new_cb.debug_loc = loc
    caller = cb.function
    if caller is not None:
        update_min_legal_vector_width(caller, largest_vector_width)
    replaced = not cb.use_empty
    if replaced:
        cb.replace_all_uses_with(new_cb)
        new_cb.take_name(cb)
    for i, dead in enumerate(dead_args):  # LLVM's weak tracking handles follow the call
        if dead is cb:
            dead_args[i] = new_cb if replaced else None
    cb.erase_from_parent()


# --- inside the new function ------------------------------------------------------------------------
def _retarget_users(arg: Argument, offset_to_alloca: dict[int, AllocaInst], dl: DataLayout) -> None:
    def alloca_for(ptr: Value) -> AllocaInst:
        base, offset = strip_and_accumulate_constant_offsets(ptr, dl, True)
        assert base is arg, "not a constant offset from the argument"
        return offset_to_alloca[offset]

    worklist: list[Value] = list(arg.users)
    dead: list[Instruction] = []
    while worklist:
        value = worklist.pop()
        if isinstance(value, GetElementPtrInst) or (value.is_instruction and getattr(value, "opcode", "") == "bitcast"):
            dead.append(cast(Instruction, value))
            worklist.extend(value.users)
            continue
        if isinstance(value, LoadInst):
            value.set_operand(0, alloca_for(value.pointer_operand))
            continue
        if isinstance(value, StoreInst):
            value.set_operand(1, alloca_for(value.pointer_operand))
            continue
        raise AssertionError("unexpected user of a promoted argument: %r" % value)
    for inst in dead:
        inst.replace_all_uses_with(PoisonValue.get(inst.type))
        inst.erase_from_parent()


def _promote_in_body(nf: Function, arg: Argument, parts: list[tuple[int, ArgPart]], new_args: list[Argument],
                     dl: DataLayout) -> list[AllocaInst]:
    entry = nf.entry_block
    front = entry.instructions.first
    assert front is not None
    loc = front.stable_debug_loc
    offset_to_alloca: dict[int, AllocaInst] = {}
    for (offset, part), new_arg in zip(parts, new_args):
        new_arg.set_name("%s.%d.val" % (arg.name, offset))
        alloca = AllocaInst(part.ty, None, alignment=part.alignment, address_space=dl.alloca_addr_space)
        _insert_before(alloca, front, loc, "%s.%d.allc" % (arg.name, offset))
        store = StoreInst(new_arg, alloca, alignment=part.alignment)
        _insert_before(store, front, loc)
        offset_to_alloca[offset] = alloca
    _retarget_users(arg, offset_to_alloca, dl)
    return [offset_to_alloca[k] for k in _dense_map_order(list(offset_to_alloca))]


def do_promotion(fn: Function, fam: AnalysisManager[Function], to_promote: PromotedParts) -> Function:
    """Replace ``fn`` by a function taking the parts of ``to_promote`` by value;
    ``fn`` is left empty and unused (the caller erases it)."""
    nf, largest = _create_function(fn, to_promote)
    module = fn.parent
    assert module is not None
    dl = module.data_layout

    dead_args: list[Value | None] = []
    while not fn.use_empty:
        cb = fn.uses[0].user
        assert isinstance(cb, CallBase)
        _rewrite_call(cb, fn, nf, to_promote, dl, dead_args, largest)
    recursively_delete_trivially_dead_instructions_permissive(dead_args)

    for bb in list(fn.blocks):
        fn.blocks.remove(bb)
        nf.blocks.append(bb)

    allocas: list[AllocaInst] = []
    new_args = iter(nf.args)
    for arg in fn.args:
        parts = to_promote.get(arg)
        if parts is None:
            new_arg = next(new_args)
            arg.replace_all_uses_with(new_arg)
            new_arg.take_name(arg)
            continue
        if not arg.use_empty:
            mine = [next(new_args) for _ in parts]
            allocas.extend(_promote_in_body(nf, arg, parts, mine, dl))
        arg.replace_all_uses_with(UndefValue.get(arg.type))

    if allocas:
        dt = fam.get_result(DominatorTreeAnalysis, nf)
        ac = fam.get_result(AssumptionAnalysis, nf)
        promote_mem_to_reg(allocas, dt, ac)
    return nf
