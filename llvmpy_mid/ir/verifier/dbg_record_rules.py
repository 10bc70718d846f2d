"""The ``#dbg_value``/``#dbg_declare``/``#dbg_assign``/``#dbg_label``
records before an instruction (LLVM 19's ``visitDbgRecords``,
``visitDbgVariableRecord``, ``visitDbgLabelRecord``, the fragment and
entry-value checks on a record), and the per-run index of ``!DIAssignID``
uses that the ``#dbg_assign`` and ``!DIAssignID`` rules share.

Not done here: the intrinsic forms of debug info (the parser turns them into
records), the checks of the nodes a record names (the node walk does those).
"""

from __future__ import annotations

from typing import Any, Callable, cast

from llvmpy_mid.ir.constants import UndefValue
from llvmpy_mid.ir.debug_info import DI_FLAGS, DIExpression, DILocation, DINode
from llvmpy_mid.ir.debug_records import DbgRecord, DbgVariableRecord
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.metadata import DIArgList, MDNode, ValueAsMetadata
from llvmpy_mid.ir.verifier import debug_info_rules as di
from llvmpy_mid.ir.verifier.checker import Checker, Item
from llvmpy_mid.ir.verifier.debug_info_rules import kind_of, state, visit_md_node
from llvmpy_mid.ir.verifier.md_operands import llvm_operands

_FLAG_ARTIFICIAL = DI_FLAGS["DIFlagArtificial"]


def verify_dbg_records(c: Checker, inst: Instruction) -> None:
    """The ``#dbg_*`` records attached before ``inst`` (checked before the instruction)."""
    records = inst._dbg_records
    if not records:
        return
    if inst.opcode == "phi":
        c.fail_debug_info("PHI Node must not have any attached DbgRecords", inst)
        return
    for rec in list(records):
        if rec.instruction is not inst:
            c.fail_debug_info("DbgRecord had invalid DebugMarker", inst, di.record_text(c, rec))
            return
        loc = rec.debug_loc
        if isinstance(loc, DILocation):
            visit_md_node(c, loc, True)
        if isinstance(rec, DbgVariableRecord):
            _visit_variable_record(c, inst, rec)
            _verify_record_fragment(c, rec)
            _verify_not_entry_value(c, rec)
        else:
            _visit_label_record(c, inst, rec)


def _is_empty_node(md: object) -> bool:
    return isinstance(md, MDNode) and not llvm_operands(md)


def _visit_variable_record(c: Checker, inst: Instruction, rec: DbgVariableRecord) -> None:
    bb = inst.parent
    fn = bb.parent if bb is not None else None

    def text() -> str:
        return di.record_text(c, rec)

    location = rec.location
    if not (isinstance(location, (ValueAsMetadata, DIArgList)) or _is_empty_node(location)):
        c.fail_debug_info("invalid #dbg record address/value", text(), location)
        return
    if isinstance(location, ValueAsMetadata):
        di.visit_value_as_metadata(c, location, fn)
    elif isinstance(location, DIArgList):
        for arg in location.args:
            di.visit_value_as_metadata(c, arg, fn)
    var = rec.variable
    if kind_of(var) != "DILocalVariable":
        c.fail_debug_info("invalid #dbg record variable", text(), var)
        return
    visit_md_node(c, var, False)
    expr = rec.expression
    if not isinstance(expr, DIExpression):
        c.fail_debug_info("invalid #dbg record expression", text(), expr)
        return
    visit_md_node(c, expr, False)
    if rec.is_dbg_assign:
        assign_id = rec.assign_id
        if assign_id is None or kind_of(assign_id) != "DIAssignID":
            c.fail_debug_info("invalid #dbg_assign DIAssignID", text(), assign_id)
            return
        visit_md_node(c, assign_id, False)
        address = rec.address
        if not (isinstance(address, ValueAsMetadata) or _is_empty_node(address)):
            c.fail_debug_info("invalid #dbg_assign address", text(), address)
            return
        if isinstance(address, ValueAsMetadata):
            di.visit_value_as_metadata(c, address, fn)
        address_expr = rec.address_expression
        if not isinstance(address_expr, DIExpression):
            c.fail_debug_info("invalid #dbg_assign address expression", text(), address_expr)
            return
        visit_md_node(c, address_expr, False)
        for other in assign_index(c, fn)[0].get(id(assign_id), ()):
            if other.function is not rec.function:
                c.fail_debug_info("inst not in same function as #dbg_assign", other, text())
                return
    ty = var.get_field("type")  # type: ignore[attr-defined]
    if not di.is_type(ty):
        c.fail_debug_info("invalid type ref", var, ty)
        return
    loc = rec.debug_loc
    if not isinstance(loc, DILocation):
        c.fail_debug_info("invalid #dbg record DILocation", text(), loc)
        return
    message = "mismatched subprogram between #dbg record variable and DILocation"
    if same_subprogram(c, cast(DINode, var), loc, message, text, bb, fn):
        verify_fn_args(c, cast(DINode, var), loc, text)


def same_subprogram(
    c: Checker, var: DINode, loc: DILocation, message: str, subject: Callable[[], Item], *where: Item
) -> bool:
    """Whether the variable's scope and the location's lead to one subprogram (or either chain is
    broken); a mismatch is reported with ``message``. Shared by records and ``llvm.dbg.*`` calls."""
    var_sp = di.raw_subprogram(var.get_field("scope"))
    loc_sp = di.raw_subprogram(loc.scope)
    if var_sp is None or loc_sp is None:
        return False
    if var_sp is not loc_sp:
        c.fail_debug_info(message, subject(), *where, var, var_sp, loc, loc_sp)
        return False
    return True


def verify_fn_args(c: Checker, var: DINode, loc: DILocation, subject: Callable[[], Item]) -> None:
    """LLVM's verifyFnArgs: one variable per argument number in a function with debug info
    (records and ``llvm.dbg.*`` calls alike)."""
    st = state(c)
    if not st.has_debug_info or loc.inlined_at is not None:
        return
    arg = var.get_field("arg")
    if not isinstance(arg, int) or not arg:
        return
    key = arg & 0xFFFFFFFF
    prev = st.fn_args.get(key)
    st.fn_args[key] = var
    if prev is not None and prev is not var:
        c.fail_debug_info("conflicting debug info for argument", subject(), prev, var)


def _verify_record_fragment(c: Checker, rec: DbgVariableRecord) -> None:
    var = rec.variable
    expr = rec.expression
    if kind_of(var) != "DILocalVariable" or not isinstance(expr, DIExpression):
        return
    if not di.expression_is_valid(c, expr):
        return
    fragment = di.fragment_info(expr)
    if fragment is None:
        return
    if di.di_flags(cast(DINode, var)) & _FLAG_ARTIFICIAL:
        return
    di.verify_fragment(c, cast(DINode, var), fragment, lambda: di.record_text(c, rec))


def _verify_not_entry_value(c: Checker, rec: DbgVariableRecord) -> None:
    expr = rec.expression
    if not isinstance(expr, DIExpression) or not di.expression_is_valid(c, expr):
        return
    location = rec.location
    if isinstance(location, ValueAsMetadata):
        value: Any = location.value
        if isinstance(value, UndefValue):
            return
        if value.is_argument and value.has_attribute("swiftasync"):
            return
    if di.is_entry_value(expr):
        c.fail_debug_info(
            "Entry values are only allowed in MIR unless they target a swiftasync Argument", di.record_text(c, rec)
        )


def _visit_label_record(c: Checker, inst: Instruction, rec: DbgRecord) -> None:
    label = rec.label  # type: ignore[attr-defined]
    if kind_of(label) != "DILabel":
        c.fail_debug_info("invalid #dbg_label intrinsic variable", di.record_text(c, rec), label)
        return
    loc = rec.debug_loc
    if not isinstance(loc, DILocation):
        return
    label_sp = di.raw_subprogram(label.get_field("scope"))
    loc_sp = di.raw_subprogram(loc.scope)
    if label_sp is None or loc_sp is None:
        return
    if label_sp is not loc_sp:
        bb = inst.parent
        c.fail_debug_info(
            "mismatched subprogram between #dbg_label label and !dbg attachment",
            di.record_text(c, rec),
            bb,
            bb.parent if bb is not None else None,
            label,
            label_sp,
            loc,
            loc_sp,
        )


def assign_index(c: Checker, fn: Function | None) -> tuple[dict[int, list[Any]], dict[int, list[Any]]]:
    """(instructions by !DIAssignID, #dbg_assign records by assign id), built once per run."""
    st = state(c)
    if st.assign_index is not None:
        return st.assign_index
    insts: dict[int, list[Any]] = {}
    records: dict[int, list[Any]] = {}
    module = c.module if c.module is not None else (fn.parent if fn is not None else None)
    functions = list(module.functions) if module is not None else ([fn] if fn is not None else [])
    for f in functions:
        kid = f.type.context.md_kinds.get("DIAssignID")
        for bb in f.blocks:
            for inst in bb.instructions:
                md = inst._md
                if md and kid is not None:
                    node = md.get(kid)
                    if node is not None:
                        insts.setdefault(id(node), []).append(inst)
                recs = inst._dbg_records
                if recs:
                    for rec in recs:
                        aid = getattr(rec, "assign_id", None)
                        if aid is not None:
                            records.setdefault(id(aid), []).append(rec)
    st.assign_index = (insts, records)
    return st.assign_index


__all__ = ["assign_index", "verify_dbg_records"]
