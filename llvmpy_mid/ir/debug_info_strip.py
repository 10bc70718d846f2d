"""Removing all debug info from a module, as LLVM's ``StripDebugInfo`` does.

What: :func:`strip_debug_info` erases the ``llvm.dbg.*`` and ``llvm.gcov``
named metadata, the ``!dbg`` attachments of functions, instructions and
global variables, debug records, calls of ``llvm.dbg.*`` intrinsics,
``heapallocsite`` and ``DIAssignID`` attachments, and the ``DILocation``
operands of ``!llvm.loop`` nodes (a loop ID left with nothing else is dropped).

How: one walk over functions, blocks and instructions; each distinct loop ID
is rewritten once.

What it does not do: metadata no longer referenced is simply left unreachable
(the printer does not print it); module flags (``Debug Info Version``) stay,
and declarations of ``llvm.dbg.*`` intrinsics are not erased, as in LLVM.
"""

from __future__ import annotations

from llvmpy_mid.ir.debug_info import DILocation
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.metadata import MDNode, MDTuple, Metadata
from llvmpy_mid.ir.module import Module


def _drop_records(inst: Instruction) -> None:
    """Forget the records before ``inst``: detached, and no longer users of their metadata."""
    for rec in inst.take_dbg_records():
        rec.drop_references()


def strip_debug_info(module: Module) -> bool:
    """Remove all debug info from ``module`` (LLVM ``StripDebugInfo``); True if
    anything was removed."""
    changed = False
    for name in list(module.named_metadata):
        if name.startswith("llvm.dbg.") or name == "llvm.gcov":
            module.named_metadata[name].erase()
            changed = True
    ctx = module.context
    dbg = 0
    loop_kind = ctx.md_kinds.get("llvm.loop")
    assign_kind = ctx.md_kinds.get("DIAssignID")
    heap_kind = ctx.md_kinds.get("heapallocsite")
    loop_map: dict[int, MDNode | None] = {}
    for fn in list(module.functions):
        if fn.get_metadata("dbg") is not None:
            fn.set_metadata("dbg", None)
            changed = True
        for bb in fn.blocks:
            for inst in list(bb.instructions):
                if isinstance(inst, CallInst):
                    callee = inst.called_function
                    if callee is not None and callee.name.startswith("llvm.dbg."):
                        _drop_records(inst)
                        inst.erase_from_parent()
                        changed = True
                        continue
                md = inst._md
                if md:
                    if dbg in md:
                        del md[dbg]
                        changed = True
                    if loop_kind is not None and loop_kind in md:
                        old = md[loop_kind]
                        if id(old) not in loop_map:
                            loop_map[id(old)] = _strip_loop_locations(old)
                        new = loop_map[id(old)]
                        if new is None:
                            del md[loop_kind]
                        else:
                            md[loop_kind] = new
                    for kid in (heap_kind, assign_kind):
                        if kid is not None:
                            md.pop(kid, None)
                    if not md:
                        inst._md = None
                if inst._dbg_records:
                    _drop_records(inst)
                    changed = True
    for gv in module.globals:
        if gv.get_metadata("dbg") is not None:
            gv.set_metadata("dbg", None)
            changed = True
    return changed


def _strip_loop_locations(node: MDNode) -> MDNode | None:
    """A loop ID without its DILocation operands (LLVM ``stripDebugLocFromLoopID``)."""
    ops = list(node.operands)
    rest = ops[1:]
    if not any(isinstance(op, DILocation) for op in rest):
        return node
    if all(isinstance(op, DILocation) for op in rest):
        return None
    kept: list[Metadata | None] = [None]
    kept.extend(op for op in rest if not isinstance(op, DILocation))
    new = MDTuple.distinct(node.context, kept)
    new.replace_operand_with(0, new)
    return new


__all__ = ["strip_debug_info"]
