"""IR building blocks of ``mergefunc``: forwarding thunks, their casts, the
"too small for a thunk" rule, the debug-info preserving variant of a thunk, and
the metadata a replacement function inherits.

What: :func:`build_forwarding_body` fills an empty block of ``h`` with a call to
``f`` that forwards ``h``'s arguments and returns the result, casting each
value the way LLVM 19's MergeFunctions does (``inttoptr`` for integer to
pointer, ``ptrtoint`` for pointer to integer, element-wise
``extractvalue``/``insertvalue`` through ``poison`` for structs, ``bitcast``
otherwise and nothing when the types already agree). The call is ``tail``
(``musttail`` when both functions use ``swifttailcc``) and carries ``f``'s
calling convention and whole attribute list, as LLVM writes it.
:func:`can_create_thunk_for` is LLVM's rule (no varargs; not a one-block
function of fewer than two real instructions). :func:`copy_cfi_metadata` copies
every ``!type`` and ``!kcfi_type`` attachment. :func:`prepare_pdi_thunk` strips
``g`` down to what ``-mergefunc-preserve-debug-info`` keeps: the entry block's
debug records of parameters, the allocas they describe and the stores of
arguments into them; everything else goes.

What it does not do: decide when a thunk is written (``merge_functions.py``
does, with the tree bookkeeping that must come first); the preserve-debug-info
filter is a simplification of LLVM's (it keeps parameter ``#dbg_declare`` /
``#dbg_value`` records and the allocas and argument stores behind them, and does
not follow old-style ``llvm.dbg.*`` intrinsic calls).
"""

from __future__ import annotations

from typing import cast

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.calling_conv import SWIFT_TAIL
from llvmpy_mid.ir.constants import PoisonValue
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.flags import TailCallKind
from llvmpy_mid.ir.instructions.terminators import ReturnInst
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.types import StructType, Type, TypeID
from llvmpy_mid.ir.value import Value

__all__ = [
    "build_forwarding_body",
    "can_create_thunk_for",
    "copy_cfi_metadata",
    "create_cast",
    "prepare_pdi_thunk",
    "size_without_debug",
]


def _is_debug_or_pseudo(inst: Instruction) -> bool:
    """A call of ``llvm.dbg.*`` or ``llvm.pseudoprobe`` (LLVM ``isDebugOrPseudoInst``)."""
    if not isinstance(inst, CallInst):
        return False
    callee = inst.called_operand
    if not isinstance(callee, Function):
        return False
    name = callee.name
    return name.startswith("llvm.dbg.") or name == "llvm.pseudoprobe"


def size_without_debug(bb: BasicBlock) -> int:
    """The block's instruction count, debug and pseudo-probe intrinsics left out."""
    count = 0
    for inst in bb.instructions:
        if not _is_debug_or_pseudo(inst):
            count += 1
    return count


def can_create_thunk_for(f: Function) -> bool:
    """Whether ``f`` may be replaced by a forwarding thunk: not varargs, and not a
    single block of fewer than two non-debug instructions (a thunk would not be
    smaller)."""
    if f.is_vararg:
        return False
    first = f.blocks._first
    if first is not None and first._next is None and size_without_debug(first) < 2:
        return False
    return True


def create_cast(builder: IRBuilder, value: Value, dest: Type) -> Value:
    """``value`` converted to ``dest`` as MergeFunctions converts thunk arguments
    and results (types the comparator found equivalent)."""
    src = value.type
    if src is dest:
        return value
    if src.type_id is TypeID.STRUCT:
        src_struct = cast(StructType, src)
        dest_struct = cast(StructType, dest)
        result: Value = PoisonValue.get(dest)
        for i in range(len(src_struct.elements)):
            element = builder.extract_value(value, [i])
            converted = create_cast(builder, element, dest_struct.elements[i])
            result = builder.insert_value(result, converted, [i])
        return result
    if src.type_id is TypeID.INTEGER and dest.type_id is TypeID.POINTER:
        return builder.inttoptr(value, dest)
    if src.type_id is TypeID.POINTER and dest.type_id is TypeID.INTEGER:
        return builder.ptrtoint(value, dest)
    return builder.bitcast(value, dest)


def build_forwarding_body(f: Function, h: Function, g: Function, block: BasicBlock) -> tuple[CallInst, ReturnInst]:
    """Append to ``block`` (in ``h``) a call of ``f`` with ``h``'s arguments and a
    return of its result; ``g`` is the function being replaced (its calling
    convention decides ``musttail``). Returns the call and the return."""
    builder = IRBuilder(block)
    params = f.function_type.params
    args = [create_cast(builder, arg, params[i]) for i, arg in enumerate(h.args)]
    must = f.calling_conv == SWIFT_TAIL and g.calling_conv == SWIFT_TAIL
    call = builder.call(
        f,
        args,
        tail_call_kind=TailCallKind.MUSTTAIL if must else TailCallKind.TAIL,
        calling_conv=f.calling_conv,
        attributes=f.attributes,
    )
    if h.return_type.is_void:
        ret = builder.ret_void()
    else:
        ret = builder.ret(create_cast(builder, call, h.return_type))
    return call, ret


def copy_cfi_metadata(src: Function, dst: Function) -> None:
    """Give ``dst`` every ``!type`` and ``!kcfi_type`` attachment of ``src``
    (control-flow-integrity type identifiers must survive the replacement)."""
    for kind in ("type", "kcfi_type"):
        for node in src.get_all_metadata(kind):
            dst.add_metadata(kind, node)


# --- -mergefunc-preserve-debug-info -----------------------------------------------------------


def _is_parameter_variable(variable: object) -> bool:
    get_field = getattr(variable, "get_field", None)
    if get_field is None:
        return False
    try:
        arg = get_field("arg")
    except (KeyError, AttributeError, ValueError):
        return False
    return isinstance(arg, int) and arg > 0


def prepare_pdi_thunk(g: Function) -> Instruction:
    """Reduce ``g`` to its entry block holding only what describes its
    parameters (see the module docstring). Returns the entry block's old
    terminator, left in place without operands and carrying the kept debug
    records that trail the block: append the forwarding body after it, then
    erase it (its records move to the call)."""
    entry = g.entry_block
    term = entry.terminator
    if term is None:
        raise ValueError("@%s: entry block without terminator" % g.name)
    term.drop_all_references()
    later: list[BasicBlock] = []
    block = entry.next_block
    while block is not None:
        later.append(block)
        block = block.next_block
    for bb in later:
        for inst in bb.instructions:
            inst.drop_all_references()
    for bb in later:
        for inst in bb.instructions:
            if inst.has_uses:
                inst.replace_all_uses_with(PoisonValue.get(inst.type))
        bb.erase_from_parent()
    keep: set[Instruction] = set()
    for inst in entry.instructions:
        for record in inst.iter_dbg_records():
            if record.is_variable_record and _is_parameter_variable(getattr(record, "variable", None)):
                for loc in record.location_values():  # type: ignore[attr-defined]
                    if isinstance(loc, Instruction) and loc.opcode == "alloca":
                        keep.add(loc)
    for inst in entry.instructions:
        if inst.opcode == "store" and inst.get_operand(0).is_argument and inst.get_operand(1) in keep:
            keep.add(inst)
    for inst in list(entry.instructions):
        for record in list(inst.iter_dbg_records()):
            wanted = record.is_variable_record and _is_parameter_variable(getattr(record, "variable", None))
            if wanted:
                locs = record.location_values()  # type: ignore[attr-defined]
                wanted = all(loc.is_argument or loc in keep for loc in locs)
            if not wanted:
                record.erase_from_parent()
        if inst is term or inst in keep:
            continue
        if inst.has_uses:
            inst.replace_all_uses_with(PoisonValue.get(inst.type))
        inst.erase_from_parent()
    return term


def pdi_debug_loc(g: Function) -> MDNode | None:
    """``!DILocation(line: scopeLine, column: 0, scope: g's subprogram)``, or None
    when ``g`` has no subprogram."""
    from llvmpy_mid.ir.debug_info import DILocation, DINode

    sp = g.get_metadata("dbg")
    if not isinstance(sp, DINode):
        return None
    line = sp.get_field("scopeLine") if sp.has_field("scopeLine") else 0
    return DILocation.get(g.type.context, int(line or 0), 0, sp)
