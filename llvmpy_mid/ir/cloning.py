"""Copying IR through a value map (LLVM ``CloneFunction``, ``CloneBasicBlock``,
``RemapInstruction``).

A value map (a plain ``dict``) sends each original value to its copy:
arguments to replacement values, blocks to cloned blocks, instructions to
cloned instructions. Cloning happens in two steps, as in LLVM: copy every
instruction (operands still pointing at the originals), then remap the
operands, phi incoming blocks and debug-record locations (and ``#dbg_assign``
addresses) of the copies through the map. Values absent from the map
(constants, globals, values outside the cloned region) are kept, so cloning
inside one module needs no global map.

Not (yet) done: cloning a function into another module with its debug-info
subprogram duplicated; metadata nodes are shared between original and copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, MutableMapping, cast

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.debug_records import DbgVariableRecord
    from llvmpy_mid.ir.instruction import Instruction

ValueMap = MutableMapping[Value, Value]


def remap_instruction(inst: Instruction, vmap: ValueMap) -> None:
    """Rewrite ``inst``'s operands, phi incoming blocks, debug-record locations and
    ``#dbg_assign`` addresses through ``vmap``; values missing from the map stay
    as they are."""
    get = vmap.get
    for use in inst.operand_uses:
        new = get(use.value)
        if new is not None and new is not use.value:
            use.set(new)
    if inst.is_phi:
        phi = inst
        for i, block in enumerate(phi.incoming_blocks):  # type: ignore[attr-defined]
            new_block = get(block)
            if new_block is not None:
                if not isinstance(new_block, BasicBlock):
                    raise IRError("value map sends block %r to a non-block" % block)
                phi.set_incoming_block(i, new_block)  # type: ignore[attr-defined]
    for record in inst.iter_dbg_records():
        if not record.is_variable_record:
            continue
        var = cast("DbgVariableRecord", record)
        for i, old in enumerate(var.location_values()):
            new = get(old)
            if new is not None and new is not old:
                var.replace_variable_location_op(i, new)
        address = var.address_value
        if address is not None:
            new = get(address)
            if new is not None and new is not address:
                var.set_address_value(new)


def clone_basic_block(
    block: BasicBlock,
    vmap: ValueMap,
    name_suffix: str = "",
    function: Function | None = None,
) -> BasicBlock:
    """Copy ``block`` (not yet remapped) and record every copy in ``vmap``.

    The copy is appended to ``function`` when given. Names get ``name_suffix``;
    unnamed values stay unnamed.
    """
    ctx = block.type.context
    new_block = BasicBlock(ctx, block.name + name_suffix if block.name else "")
    if function is not None:
        function.blocks.append(new_block)
    vmap[block] = new_block
    for inst in block.instructions:
        copy = inst.clone()
        if inst.name:
            copy.set_name(inst.name + name_suffix)
        for record in inst.iter_dbg_records():
            copy.add_dbg_record(record.clone())
        new_block.instructions.append(copy)
        vmap[inst] = copy
    return new_block


def clone_function_into(
    new_function: Function,
    old_function: Function,
    vmap: ValueMap,
    name_suffix: str = "",
) -> list[BasicBlock]:
    """Copy the body of ``old_function`` into ``new_function``.

    Every argument of ``old_function`` must already be mapped. Returns the new
    blocks in order.
    """
    for arg in old_function.args:
        if arg not in vmap:
            raise IRError("clone_function_into: argument %d is not in the value map" % arg.arg_no)
    blocks = [clone_basic_block(bb, vmap, name_suffix, new_function) for bb in old_function.blocks]
    for bb in blocks:
        for inst in bb.instructions:
            remap_instruction(inst, vmap)
    # Block addresses of the old function inside the body point at the old
    # blocks through constants; LLVM leaves those too.
    return blocks


def clone_function(function: Function, vmap: ValueMap | None = None, name: str | None = None) -> Function:
    """A copy of ``function`` in the same module (LLVM ``CloneFunction``).

    The copy has the same type, linkage, attributes, calling convention and
    metadata, is appended to the module (renamed ``f.1``... on a clash, like any
    new global) and its arguments keep their names.
    """
    if vmap is None:
        vmap = {}
    module = function.parent
    copy = Function(
        function.function_type,
        function.name if name is None else name,
        function.linkage,
        address_space=function.address_space,
    )
    copy.copy_attributes_from(function)
    copy.copy_metadata_from(function)
    copy.comdat = function.comdat
    copy.is_dso_local = function.is_dso_local
    if module is not None:
        module.functions.append(copy)
    for old_arg, new_arg in zip(function.args, copy.args):
        if old_arg.name:
            new_arg.set_name(old_arg.name)
        vmap[old_arg] = new_arg
    clone_function_into(copy, function, vmap)
    return copy


def clone_instructions(instructions: Iterable[Instruction], vmap: ValueMap) -> list[Instruction]:
    """Clone a straight-line sequence, remapping later copies to earlier ones."""
    copies: list[Instruction] = []
    for inst in instructions:
        copy = inst.clone()
        remap_instruction(copy, vmap)
        vmap[inst] = copy
        copies.append(copy)
    return copies
