"""Rules on calls of the ``llvm.dbg.*`` intrinsics (LLVM 19's ``visitDbgIntrinsic``,
``visitDbgLabelIntrinsic``, and the intrinsic forms of ``verifyFragmentExpression``,
``verifyNotEntryValue`` and ``verifyFnArgs`` in ``Verifier.cpp``).

Where they matter: LLVM's reader verifies a module of the current debug-info version while
its ``llvm.dbg.*`` calls are still calls (the parser turns them into ``#dbg_*`` records only
afterwards, as LLVM does), and modules built through the API may hold them too.

* :func:`dbg_variable` / :func:`dbg_label` - the operand kinds, the ``!dbg`` location, the
  variable's and the location's subprograms, the variable's type, the ``DIAssignID`` links
  of ``llvm.dbg.assign``, and duplicate argument variables; run with the intrinsic's own
  rules (``intrinsic_rules``);
* :func:`verify_dbg_intrinsic_expression` - the fragment and entry-value checks LLVM makes
  in ``visitInstruction``, after the ``!dbg`` location (``attachment_rules`` calls it).

The nodes the operands reach are checked by the metadata walk (``intrinsic_rules`` visits
every node argument first, as LLVM's ``visitIntrinsicCall`` does).
"""

from __future__ import annotations

from typing import Any, Callable, cast

from llvmpy_mid.ir.constants import UndefValue
from llvmpy_mid.ir.debug_info import DI_FLAGS, DIExpression, DILocation, DINode
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.metadata import DIArgList, MDNode, Metadata, MetadataAsValue, ValueAsMetadata
from llvmpy_mid.ir.verifier import debug_info_rules as di
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.dbg_record_rules import assign_index, same_subprogram, verify_fn_args
from llvmpy_mid.ir.verifier.debug_info_rules import kind_of, state
from llvmpy_mid.ir.verifier.md_operands import llvm_operands

_FLAG_ARTIFICIAL = DI_FLAGS["DIFlagArtificial"]
#: The variable intrinsics and where their variable and expression operands are.
DBG_VARIABLE_INTRINSICS = frozenset(("llvm.dbg.declare", "llvm.dbg.value", "llvm.dbg.assign"))


def _md_arg(call: CallBase, index: int) -> Metadata | None:
    if index >= call.num_args:
        return None
    arg = call.get_arg(index)
    return arg.metadata if isinstance(arg, MetadataAsValue) else None


def _is_empty_node(md: object) -> bool:
    return isinstance(md, MDNode) and kind_of(md) is None and not llvm_operands(md)


def dbg_variable(kind: str) -> Callable[[Checker, CallBase], None]:
    """The rules of ``llvm.dbg.<kind>`` (declare, value, assign)."""

    def check(c: Checker, call: CallBase) -> None:
        if kind == "declare" and not isinstance(call.get_arg(0) if call.num_args else None, MetadataAsValue):
            c.fail("invalid llvm.dbg.declare intrinsic call 1", call)
            return
        location = _md_arg(call, 0)
        if not (isinstance(location, (ValueAsMetadata, DIArgList)) or _is_empty_node(location)):
            c.fail_debug_info("invalid llvm.dbg.%s intrinsic address/value" % kind, call, location)
            return
        var = _md_arg(call, 1)
        if kind_of(var) != "DILocalVariable":
            c.fail_debug_info("invalid llvm.dbg.%s intrinsic variable" % kind, call, var)
            return
        expr = _md_arg(call, 2)
        if kind_of(expr) != "DIExpression":
            c.fail_debug_info("invalid llvm.dbg.%s intrinsic expression" % kind, call, expr)
            return
        if kind == "assign" and not _assign_operands(c, call):
            return
        assert isinstance(var, DINode)
        _location(c, call, kind, var, "variable", True)

    return check


def _assign_operands(c: Checker, call: CallBase) -> bool:
    assign_id = _md_arg(call, 3)
    if kind_of(assign_id) != "DIAssignID":
        c.fail_debug_info("invalid llvm.dbg.assign intrinsic DIAssignID", call, assign_id)
        return False
    address = _md_arg(call, 4)
    if not (isinstance(address, ValueAsMetadata) or _is_empty_node(address)):
        c.fail_debug_info("invalid llvm.dbg.assign intrinsic address", call, address)
        return False
    if kind_of(_md_arg(call, 5)) != "DIExpression":
        c.fail_debug_info("invalid llvm.dbg.assign intrinsic address expression", call, _md_arg(call, 5))
        return False
    fn = call.function
    for other in assign_index(c, fn)[0].get(id(assign_id), ()):
        if other.function is not fn:
            c.fail_debug_info("inst not in same function as dbg.assign", other, call)
            return False
    return True


def dbg_label(c: Checker, call: CallBase) -> None:
    """The rules of ``llvm.dbg.label``."""
    label = _md_arg(call, 0)
    if kind_of(label) != "DILabel":
        c.fail_debug_info("invalid llvm.dbg.label intrinsic variable", call, label)
        return
    assert isinstance(label, DINode)
    _location(c, call, "label", label, "label", False)


def _location(c: Checker, call: CallBase, kind: str, var: DINode, what: str, variable: bool) -> None:
    """The ``!dbg`` location and the subprograms (a missing location of ``llvm.dbg.label`` is
    not a debug-info finding in LLVM 19)."""
    loc = call.debug_loc
    if loc is not None and not isinstance(loc, DILocation):
        return  # a broken !dbg attachment is reported with the attachments
    bb = call.parent
    fn = call.function
    if loc is None:
        message = "llvm.dbg.%s intrinsic requires a !dbg attachment" % kind
        if variable:
            c.fail_debug_info(message, call, bb, fn)
        else:
            c.fail(message, call, bb, fn)
        return
    message = "mismatched subprogram between llvm.dbg.%s %s and !dbg attachment" % (kind, what)
    if not same_subprogram(c, var, loc, message, lambda: call, bb, fn) or not variable:
        return
    ty = var.get_field("type")
    if not di.is_type(ty):
        c.fail_debug_info("invalid type ref", var, ty)
        return
    verify_fn_args(c, var, loc, lambda: call)


def verify_dbg_intrinsic_expression(c: Checker, call: CallBase) -> None:
    """The fragment and entry-value checks of a variable intrinsic's expression."""
    var = _md_arg(call, 1)
    expr = _md_arg(call, 2)
    if not isinstance(expr, DIExpression) or not di.expression_is_valid(c, expr):
        return
    if kind_of(var) == "DILocalVariable":
        fragment = di.fragment_info(expr)
        if fragment is not None and not di.di_flags(cast(DINode, var)) & _FLAG_ARTIFICIAL:
            di.verify_fragment(c, cast(DINode, var), fragment, call)
    location = _md_arg(call, 0)
    if isinstance(location, ValueAsMetadata):
        value: Any = location.value
        if isinstance(value, UndefValue):
            return
        if value.is_argument and value.has_attribute("swiftasync"):
            return
    if di.is_entry_value(expr):
        c.fail_debug_info("Entry values are only allowed in MIR unless they target a swiftasync Argument", call)


__all__ = ["DBG_VARIABLE_INTRINSICS", "dbg_label", "dbg_variable", "verify_dbg_intrinsic_expression"]
