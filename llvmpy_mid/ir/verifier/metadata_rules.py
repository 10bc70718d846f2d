"""Rules on metadata attachments and debug records (the metadata parts of LLVM
19's ``visitFunction``, ``visitInstruction``, ``visitDbgRecords``, and of
``verify(Module)``).

Four entry points, called by the driver in LLVM's order:

* :func:`verify_function_metadata` - a function's own attachments (``!prof``
  entry counts, ``!kcfi_type``, the ``!dbg`` subprogram) and the check that
  every ``!dbg`` location of a definition leads back to the function's
  subprogram;
* :func:`verify_dbg_records` - the ``#dbg_value``/``#dbg_declare``/
  ``#dbg_assign``/``#dbg_label`` records before an instruction;
* :func:`verify_attachments` - an instruction's attachments (``!fpmath``,
  ``!range``, ``!nonnull``, ``!dereferenceable[_or_null]``, ``!tbaa``,
  ``!noalias``/``!alias.scope``, ``!llvm.access.group``, ``!align``,
  ``!prof``, ``!memprof``/``!callsite``, ``!DIAssignID``, ``!annotation``,
  ``!dbg``), then every attached node through the metadata walk;
* :func:`verify_module_metadata` - the named metadata and ``llvm.dbg.cu``
  (a global variable's ``!dbg`` is checked by ``global_rules`` through
  ``debug_info_rules.verify_global_variable_dbg``, in LLVM's order).

The rules live in ``function_metadata_rules``, ``dbg_record_rules``,
``attachment_rules`` (with ``range_rules`` and ``tbaa_rules``) and
``debug_info_rules``; this module re-exports their entry points.

Findings about debug info go through ``c.fail_debug_info``; the others through
``c.fail``. A check that LLVM makes directly in a visitor ends that visitor's
metadata checks when it fails; a check made in one of LLVM's helpers
(``visitProfMetadata``, the TBAA verifier...) ends only that helper.
Node checks are memoised for the run (see ``debug_info_rules``), so the cost
is linear in the module and its metadata.

Elsewhere: ``!absolute_symbol`` and ``!associated`` (``global_rules``, with
:func:`verify_range_like`), the "inlinable function call ... must have a !dbg
location" rule (``call_rules``), a global variable's ``!dbg`` (``global_rules``
calls ``debug_info_rules.verify_global_variable_dbg``).

``!mmra`` is checked with the other attachments (``attachment_rules``).

Not done here: ``!noalias.addrspace`` (not in LLVM 19), the intrinsic forms of debug info
(the parser turns them into records), and the "Debug Info Version" module flag
(the parser drops debug info whose version is not 3, as LLVM's reader does;
LLVM's verifier itself does not look at the flag).
"""

from __future__ import annotations

from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier import debug_info_rules as di
from llvmpy_mid.ir.verifier.attachment_rules import verify_attachments
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.dbg_record_rules import verify_dbg_records
from llvmpy_mid.ir.verifier.function_metadata_rules import verify_function_metadata
from llvmpy_mid.ir.verifier.range_rules import verify_range_like


def verify_module_metadata(c: Checker, module: Module) -> None:
    """The named metadata and the compile-unit list (after module_rules)."""
    verify_named_metadata(c, module)
    verify_compile_units(c, module)


def verify_named_metadata(c: Checker, module: Module) -> None:
    """Each named metadata node (LLVM visits them after the globals, before the comdats)."""
    for nmd in list(module.named_metadata.values()):
        di.visit_named_metadata(c, nmd)


def verify_compile_units(c: Checker, module: Module) -> None:
    """Every compile unit reached is listed in ``!llvm.dbg.cu`` (after the module flags)."""
    di.verify_compile_units(c, module)


__all__ = [
    "verify_attachments",
    "verify_compile_units",
    "verify_dbg_records",
    "verify_function_metadata",
    "verify_module_metadata",
    "verify_named_metadata",
    "verify_range_like",
]
