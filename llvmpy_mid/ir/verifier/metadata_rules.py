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

Not done here: ``!mmra`` (its instruction rule depends on memory effects),
``!noalias.addrspace`` (not in LLVM 19), the intrinsic forms of debug info
(the parser turns them into records), and the "Debug Info Version" module flag
(the parser drops debug info whose version is not 3, as LLVM's reader does;
LLVM's verifier itself does not look at the flag).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, cast

from llvmpy_mid.ir.constants import ConstantFP, ConstantInt, UndefValue
from llvmpy_mid.ir.debug_info import DI_FLAGS, DIExpression, DILocation, DINode
from llvmpy_mid.ir.debug_records import DbgRecord, DbgVariableRecord
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.metadata import DIArgList, MDNode, MDString, MDTuple, Metadata, MetadataAsValue, ValueAsMetadata
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.types import TypeID
from llvmpy_mid.ir.verifier import debug_info_rules as di
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.debug_info_rules import kind_of, state, visit_md_node
from llvmpy_mid.ir.verifier.function_rules import (
    STOPPED_AFTER_FUNCTION_METADATA,
    STOPPED_BEFORE_DEBUG_INFO,
    STOPPED_BEFORE_METADATA,
    STOPPED_MEMO,
)
from llvmpy_mid.ir.verifier.tbaa_rules import verify_tbaa

if TYPE_CHECKING:
    from llvmpy_mid.ir.global_value import GlobalObject
    from llvmpy_mid.ir.types import Type

_DBG = 0
_LOOP = 18
_MAX_ALIGNMENT = 1 << 32
_CALL_OPCODES = frozenset(("call", "invoke", "callbr"))
_FLAG_ARTIFICIAL = DI_FLAGS["DIFlagArtificial"]


def _ops(node: Metadata | None) -> tuple[Metadata | None, ...]:
    if not isinstance(node, MDNode):
        return ()
    if isinstance(node, DILocation):
        # LLVM's location has one operand, two with an inlined-at location.
        return (node.scope,) if node.inlined_at is None else (node.scope, node.inlined_at)
    try:
        return node.operands
    except Exception:
        return ()


def _const_int(md: Metadata | None) -> ConstantInt | None:
    if isinstance(md, ValueAsMetadata) and md.is_constant_as_metadata:
        value = md.value
        if isinstance(value, ConstantInt) and value.type.is_integer:
            return value
    return None


def _is_string(md: Metadata | None) -> bool:
    return md is not None and md.is_md_string


def _subprogram(fn: Function) -> MDNode | None:
    """LLVM's ``Function::getSubprogram``: the first ``!dbg`` attachment if it is a DISubprogram."""
    md = fn._global_md
    if not md:
        return None
    for kind, node in md:
        if kind == _DBG:
            return node if kind_of(node) == "DISubprogram" else None
    return None


def _sorted_attachments(go: GlobalObject) -> list[tuple[int, MDNode]]:
    md = go._global_md
    if not md:
        return []
    return sorted(md, key=lambda item: item[0]) if len(md) > 1 else list(md)


# --- ranges ------------------------------------------------------------------------------------------


def _intervals(lo: int, hi: int, width: int) -> list[tuple[int, int]]:
    """The half-open pieces of [0, 2**width) a ConstantRange [lo, hi) covers."""
    top = 1 << width
    if lo == hi:
        return [(0, top)] if lo == top - 1 else []
    if lo < hi:
        return [(lo, hi)]
    return [(lo, top), (0, hi)]


def _disjoint(a: tuple[int, int], b: tuple[int, int], width: int) -> bool:
    for x0, x1 in _intervals(a[0], a[1], width):
        for y0, y1 in _intervals(b[0], b[1], width):
            if x0 < y1 and y0 < x1:
                return False
    return True


def _contiguous(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[1] == b[0] or a[0] == b[1]


def _signed(value: int, width: int) -> int:
    if width and value >> (width - 1):
        return value - (1 << width)
    return value


def verify_range_like(c: Checker, value: Any, node: MDNode, ty: Type, absolute: bool) -> None:
    """LLVM's ``verifyRangeMetadata`` for ``!range`` (and ``!absolute_symbol`` with ``absolute``)."""
    ops = _ops(node)
    n = len(ops)
    if n % 2 != 0:
        c.fail("Unfinished range!", node)
        return
    if n == 0:
        c.fail("It should have at least one range!", node)
        return
    scalar = ty.scalar_type
    width = 0
    last: tuple[int, int] | None = None
    first: tuple[int, int] | None = None
    for i in range(0, n, 2):
        low = _const_int(ops[i])
        if low is None:
            c.fail("The lower limit must be an integer!", None)
            return
        high = _const_int(ops[i + 1])
        if high is None:
            c.fail("The upper limit must be an integer!", None)
            return
        if high.type is not low.type or high.type is not scalar:
            c.fail("Range types must match instruction type!", value)
            return
        width = high.type.width
        lo, hi = low.value, high.value
        if lo == hi and lo != (1 << width) - 1 and lo != 0:
            c.fail("The upper and lower limits cannot be the same value", value)
            return
        cur = (lo, hi)
        empty = lo == hi and lo == 0
        full = lo == hi and lo == (1 << width) - 1
        if empty or (not absolute and full):
            c.fail("Range must not be empty!", node)
            return
        if last is not None:
            if not _disjoint(cur, last, width):
                c.fail("Intervals are overlapping", node)
                return
            if not _signed(lo, width) > _signed(last[0], width):
                c.fail("Intervals are not in order", node)
                return
            if _contiguous(cur, last):
                c.fail("Intervals are contiguous", node)
                return
        else:
            first = cur
        last = cur
    if n > 4 and first is not None and last is not None:
        if not _disjoint(first, last, width):
            c.fail("Intervals are overlapping", node)
            return
        if _contiguous(first, last):
            c.fail("Intervals are contiguous", node)


# --- function attachments ------------------------------------------------------------------------------


def _verify_function_prof_kcfi(c: Checker, items: list[tuple[int, MDNode]], prof: int, kcfi: int | None) -> None:
    """LLVM's ``verifyFunctionMetadata`` (stops at the first problem)."""
    for kind, node in items:
        ops = _ops(node)
        if kind == prof:
            if len(ops) < 2:
                c.fail("!prof annotations should have no less than 2 operands", node)
                return
            if ops[0] is None:
                c.fail("first operand should not be null", node)
                return
            if not _is_string(ops[0]):
                c.fail("expected string with name of the !prof annotation", node)
                return
            name = cast(MDString, ops[0]).string
            if name != "function_entry_count" and name != "synthetic_function_entry_count":
                c.fail("first operand should be 'function_entry_count' or 'synthetic_function_entry_count'", node)
                return
            if ops[1] is None:
                c.fail("second operand should not be null", node)
                return
            if not ops[1].is_constant_as_metadata:
                c.fail("expected integer argument to function_entry_count", node)
                return
        elif kind == kcfi:
            if len(ops) != 1:
                c.fail("!kcfi_type must have exactly one operand", node)
                return
            if ops[0] is None:
                c.fail("!kcfi_type operand must not be null", node)
                return
            if not ops[0].is_constant_as_metadata:
                c.fail("expected a constant operand for !kcfi_type", node)
                return
            ci = _const_int(ops[0])
            if ci is None:
                c.fail("expected a constant integer operand for !kcfi_type", node)
                return
            if ci.type.width != 32:
                c.fail("expected a 32-bit integer constant operand for !kcfi_type", node)
                return


def verify_function_metadata(c: Checker, fn: Function) -> None:
    """The function's own attachments (``!dbg`` subprogram, ``!prof``...) and its debug locations.

    When ``function_rules`` stopped visitFunction early, only the checks LLVM
    had reached run (``function_rules.STOPPED_MEMO``)."""
    st = state(c)
    st.fn_id = id(fn)
    st.fn_args = {}
    stage = _stopped_stage(c, fn)
    if stage == STOPPED_BEFORE_METADATA:
        return
    kinds = fn.type.context.md_kinds
    prof = kinds.get("prof", 2)
    kcfi = kinds.get("kcfi_type")
    items = _sorted_attachments(fn)
    if items:
        _verify_function_prof_kcfi(c, items, prof, kcfi)
    if fn.is_declaration:
        if stage == STOPPED_AFTER_FUNCTION_METADATA and not _stopped_on_declaration_personality(c):
            return
        for kind, node in items:
            if kind == _DBG and node.is_distinct:
                c.fail_debug_info("function declaration may only have a unique !dbg attachment", fn)
                return
            if kind == prof:
                c.fail("function declaration may not have a !prof attachment", fn)
                return
            visit_md_node(c, node, True)
        return
    if stage == STOPPED_AFTER_FUNCTION_METADATA:
        return
    n_dbg = n_prof = n_kcfi = 0
    for kind, node in items:
        allow = False
        if kind == _DBG:
            n_dbg += 1
            if n_dbg != 1:
                c.fail_debug_info("function must have a single !dbg attachment", fn, node)
                return
            if kind_of(node) != "DISubprogram":
                c.fail_debug_info("function !dbg attachment must be a subprogram", fn, node)
                return
            if not node.is_distinct:
                c.fail_debug_info("function definition may only have a distinct !dbg attachment", fn)
                return
            attached = st.sp_attached.get(id(node))
            if attached is not None and attached is not fn:
                c.fail_debug_info("DISubprogram attached to more than one function", node, fn)
                return
            st.sp_attached[id(node)] = fn
            allow = True
        elif kind == prof:
            n_prof += 1
            if n_prof != 1:
                c.fail("function must have a single !prof attachment", fn, node)
                return
        elif kind == kcfi:
            n_kcfi += 1
            if n_kcfi != 1:
                c.fail("function must have a single !kcfi_type attachment", fn, node)
                return
        visit_md_node(c, node, allow)
    if stage == STOPPED_BEFORE_DEBUG_INFO:
        return
    sp = _subprogram(fn)
    st.has_debug_info = sp is not None
    if sp is None:
        return
    _verify_debug_locations(c, fn, sp)


def _stopped_stage(c: Checker, fn: Function) -> int | None:
    stopped = c.memo.get(STOPPED_MEMO)
    if isinstance(stopped, tuple) and len(stopped) == 2 and stopped[0] is fn:
        return int(stopped[1])
    return None


def _stopped_on_declaration_personality(c: Checker) -> bool:
    """True when visitFunction stopped on the personality of a declaration (after its attachments)."""
    diags = c.diagnostics
    return bool(diags) and diags[-1].message == "Function declaration shouldn't have a personality routine"


# What a release build of LLVM reads when it takes a node for a DILocation
# (``getInlinedAt``/``getScope`` on a broken ``inlinedAt``): operand 0 is the
# scope, operand 1 the inlined-at location when the node has exactly two operands.
_OPERAND1_OF_TWO = {
    "DILexicalBlock": "scope", "DILexicalBlockFile": "scope", "DIGlobalVariableExpression": "expr",
    "DITemplateTypeParameter": "type", "DIMacro": "value", "DIMacroFile": "nodes",
}  # fmt: skip


def _as_location(node: Metadata) -> tuple[Metadata | None, Metadata | None]:
    """(scope, inlined-at) of ``node`` read as a DILocation."""
    if isinstance(node, DILocation):
        return node.scope, node.inlined_at
    if isinstance(node, MDTuple):
        ops = node.operands
        return (ops[0] if ops else None), (ops[1] if len(ops) == 2 else None)
    kind = kind_of(node)
    if kind is None:
        return None, None
    second = _OPERAND1_OF_TWO.get(kind)
    inlined = node.get_field(second) if second is not None else None  # type: ignore[attr-defined]
    return di.llvm_operand0(node), (inlined if isinstance(inlined, Metadata) else None)


def _inlined_at_scope(loc: DILocation) -> Metadata | None:
    """LLVM's ``DILocation::getInlinedAtScope``: the scope of the last location of the inlined-at chain."""
    node: Metadata = loc
    steps = 0
    while steps < 100000:
        scope, inlined = _as_location(node)
        if inlined is None:
            return scope
        node = inlined
        steps += 1
    return None


def _local_scope_subprogram(scope: Metadata | None) -> Metadata | None:
    """LLVM's ``DILocalScope::getSubprogram`` as a release build runs it on any node."""
    steps = 0
    while scope is not None and steps < 100000:
        kind = kind_of(scope)
        if kind != "DILexicalBlock" and kind != "DILexicalBlockFile":
            return scope
        scope = scope.get_field("scope")  # type: ignore[attr-defined]
        if not isinstance(scope, Metadata):
            return None
        steps += 1
    return None


def _verify_debug_locations(c: Checker, fn: Function, sp: MDNode) -> None:
    """Every ``!dbg`` location (and the locations in ``!llvm.loop``) must lead back to ``sp``."""
    seen: set[int] = set()

    def visit(inst: Instruction, node: Metadata | None) -> bool:
        if not isinstance(node, DILocation) or id(node) in seen:
            return True
        seen.add(id(node))
        parent = node.scope
        if not di.is_local_scope(parent):
            c.fail_debug_info("DILocation's scope must be a DILocalScope", sp, fn, inst, node, parent)
            return False
        scope = _inlined_at_scope(node)
        if scope is None:
            c.fail("Failed to find DILocalScope", node)
            return False
        if id(scope) in seen:
            return True
        seen.add(id(scope))
        sub = _local_scope_subprogram(scope)
        if sub is None:
            return True
        if sub is not scope:
            if id(sub) in seen:
                return True
            seen.add(id(sub))
        if sub is not sp:
            c.fail_debug_info("!dbg attachment points at wrong subprogram for function", sp, fn, inst, node, scope, sub)
            return False
        return True

    for bb in fn.blocks:
        for inst in bb.instructions:
            md = inst._md
            if md:
                visit(inst, md.get(_DBG))
                loop = md.get(_LOOP)
                if loop is not None:
                    for op in _ops(loop)[1:]:
                        if isinstance(op, MDNode):
                            visit(inst, op)
            if di.broken_debug_info(c):
                return


# --- debug records -------------------------------------------------------------------------------------


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
    return isinstance(md, MDNode) and not _ops(md)


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
        for other in _assign_index(c, fn)[0].get(id(assign_id), ()):
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
    var_sp = di.raw_subprogram(var.get_field("scope"))  # type: ignore[attr-defined]
    loc_sp = di.raw_subprogram(loc.scope)
    if var_sp is None or loc_sp is None:
        return
    if var_sp is not loc_sp:
        c.fail_debug_info(
            "mismatched subprogram between #dbg record variable and DILocation",
            text(),
            bb,
            fn,
            var,
            var_sp,
            loc,
            loc_sp,
        )
        return
    _verify_fn_args(c, rec, var, loc, text)


def _verify_fn_args(c: Checker, rec: DbgVariableRecord, var: MDNode, loc: DILocation, text: Callable[[], str]) -> None:
    st = state(c)
    if not st.has_debug_info or loc.inlined_at is not None:
        return
    arg = var.get_field("arg")  # type: ignore[attr-defined]
    if not isinstance(arg, int) or not arg:
        return
    key = arg & 0xFFFFFFFF
    prev = st.fn_args.get(key)
    st.fn_args[key] = var
    if prev is not None and prev is not var:
        c.fail_debug_info("conflicting debug info for argument", text(), prev, var)


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


def _assign_index(c: Checker, fn: Function | None) -> tuple[dict[int, list[Any]], dict[int, list[Any]]]:
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


# --- instruction attachments -------------------------------------------------------------------------


def _float_accuracy_ok(value: ConstantFP) -> bool:
    bits = value.bits
    exponent = (bits >> 23) & 0xFF
    mantissa = bits & 0x7FFFFF
    negative = bool(bits >> 31)
    finite_nonzero = exponent != 0xFF and not (exponent == 0 and mantissa == 0)
    return finite_nonzero and not negative


def _is_mem_intrinsic(inst: Instruction) -> bool:
    if inst.opcode != "call":
        return False
    callee = inst.called_function  # type: ignore[attr-defined]
    if callee is None:
        return False
    name: str = callee.name
    return name.startswith(("llvm.memcpy.", "llvm.memmove.", "llvm.memset.")) and "element.unordered" not in name


def verify_attachments(c: Checker, inst: Instruction) -> None:
    """The instruction's metadata attachments (``!range``, ``!tbaa``, ``!dbg``...).

    LLVM runs an invoke's instruction checks twice (as a call, then as a
    terminator), so their findings appear twice; the node walk is memoised."""
    md = inst._md
    if not md:
        return
    for _ in range(2 if inst.opcode == "invoke" else 1):
        if len(md) == 1 and _DBG in md:
            node = md[_DBG]
            if not isinstance(node, DILocation):
                c.fail_debug_info("invalid !dbg metadata attachment", inst, node)
                continue
            visit_md_node(c, node, True)
            continue
        if not _verify_kinds(c, inst, md):
            continue
        for kind in sorted(md):
            visit_md_node(c, md[kind], kind == _DBG or kind == _LOOP)


def _verify_kinds(c: Checker, inst: Instruction, md: dict[int, MDNode]) -> bool:
    """The per-kind checks of visitInstruction; False when one that ends it failed."""
    kinds = inst.type.context.md_kinds
    ty = inst.type
    opcode = inst.opcode
    node = md.get(kinds.get("fpmath", 3))
    if node is not None:
        if not ty.is_fp_or_fp_vector:
            c.fail("fpmath requires a floating point result!", inst)
            return False
        ops = _ops(node)
        if len(ops) != 1:
            c.fail("fpmath takes one operand!", inst)
            return False
        op = ops[0]
        value = op.value if isinstance(op, ValueAsMetadata) and op.is_constant_as_metadata else None
        if isinstance(value, ConstantFP):
            if value.type.type_id is not TypeID.FLOAT:
                c.fail("fpmath accuracy must have float type", inst)
                return False
            if not _float_accuracy_ok(value):
                c.fail("fpmath accuracy not a positive number!", inst)
                return False
        else:
            c.fail("invalid fpmath accuracy!", inst)
            return False
    node = md.get(kinds.get("range", 4))
    if node is not None:
        if opcode not in ("load", "call", "invoke"):
            c.fail("Ranges are only for loads, calls and invokes!", inst)
            return False
        verify_range_like(c, inst, node, ty, False)
    if kinds.get("invariant.group", 16) in md and opcode not in ("load", "store"):
        c.fail("invariant.group metadata is only for loads and stores", inst)
        return False
    node = md.get(kinds.get("nonnull", 11))
    if node is not None:
        if not ty.is_pointer:
            c.fail("nonnull applies only to pointer types", inst)
            return False
        if opcode != "load":
            c.fail("nonnull applies only to load instructions, use attributes for calls or invokes", inst)
            return False
        if _ops(node):
            c.fail("nonnull metadata must be empty", inst)
            return False
    for name, default in (("dereferenceable", 12), ("dereferenceable_or_null", 13)):
        node = md.get(kinds.get(name, default))
        if node is not None:
            _verify_dereferenceable(c, inst, node)
    node = md.get(kinds.get("tbaa", 1))
    if node is not None:
        verify_tbaa(c, inst, node)
    for name, default in (("noalias", 8), ("alias.scope", 7)):
        node = md.get(kinds.get(name, default))
        if node is not None:
            _verify_scope_list(c, node)
    node = md.get(kinds.get("llvm.access.group", 25))
    if node is not None:
        _verify_access_group(c, node)
    node = md.get(kinds.get("align", 17))
    if node is not None:
        if not ty.is_pointer:
            c.fail("align applies only to pointer types", inst)
            return False
        if opcode != "load":
            c.fail("align applies only to load instructions, use attributes for calls or invokes", inst)
            return False
        ops = _ops(node)
        if len(ops) != 1:
            c.fail("align takes one operand!", inst)
            return False
        ci = _const_int(ops[0])
        if ci is None or ci.type.width != 64:
            c.fail("align metadata value must be an i64!", inst)
            return False
        align = ci.value
        if align == 0 or align & (align - 1):
            c.fail("align metadata value must be a power of 2!", inst)
            return False
        if align > _MAX_ALIGNMENT:
            c.fail("alignment is larger that implementation defined limit", inst)
            return False
    node = md.get(kinds.get("prof", 2))
    if node is not None:
        _verify_prof(c, inst, node)
    kid = kinds.get("memprof")
    node = md.get(kid) if kid is not None else None
    if node is not None:
        _verify_memprof(c, inst, node)
    kid = kinds.get("callsite")
    node = md.get(kid) if kid is not None else None
    if node is not None:
        if opcode not in _CALL_OPCODES:
            c.fail("!callsite metadata should only exist on calls", inst)
        else:
            _verify_call_stack(c, node)
    kid = kinds.get("DIAssignID")
    node = md.get(kid) if kid is not None else None
    if node is not None:
        _verify_assign_id_attachment(c, inst, node)
    node = md.get(kinds.get("annotation", 30))
    if node is not None:
        _verify_annotation(c, node)
    node = md.get(_DBG)
    if node is not None and not isinstance(node, DILocation):
        c.fail_debug_info("invalid !dbg metadata attachment", inst, node)
        return False
    return True


def _verify_dereferenceable(c: Checker, inst: Instruction, node: MDNode) -> None:
    if not inst.type.is_pointer:
        c.fail("dereferenceable, dereferenceable_or_null apply only to pointer types", inst)
        return
    if inst.opcode not in ("load", "inttoptr"):
        c.fail(
            "dereferenceable, dereferenceable_or_null apply only to load and inttoptr instructions, "
            "use attributes for calls or invokes",
            inst,
        )
        return
    ops = _ops(node)
    if len(ops) != 1:
        c.fail("dereferenceable, dereferenceable_or_null take one operand!", inst)
        return
    ci = _const_int(ops[0])
    if ci is None or ci.type.width != 64:
        c.fail("dereferenceable, dereferenceable_or_null metadata value must be an i64!", inst)


def _verify_scope_list(c: Checker, node: MDNode) -> None:
    ok_lists = di.clean_set(c, "scope-list")
    if id(node) in ok_lists:
        return
    before = len(c.diagnostics)
    for op in _ops(node):
        if not isinstance(op, MDNode):
            c.fail("scope list must consist of MDNodes", node)
            return
        _verify_scope(c, op)
    if len(c.diagnostics) == before:
        ok_lists.add(id(node))


def _verify_scope(c: Checker, scope: MDNode) -> None:
    ops = _ops(scope)
    n = len(ops)
    if n < 2 or n > 3:
        c.fail("scope must have two or three operands", scope)
        return
    if not (ops[0] is scope or _is_string(ops[0])):
        c.fail("first scope operand must be self-referential or string", scope)
        return
    if n == 3 and not _is_string(ops[2]):
        c.fail("third scope operand must be string (if used)", scope)
        return
    domain = ops[1]
    if not isinstance(domain, MDNode):
        c.fail("second scope operand must be MDNode", scope)
        return
    dops = _ops(domain)
    if len(dops) < 1 or len(dops) > 2:
        c.fail("domain must have one or two operands", domain)
        return
    if not (dops[0] is domain or _is_string(dops[0])):
        c.fail("first domain operand must be self-referential or string", domain)
        return
    if len(dops) == 2 and not _is_string(dops[1]):
        c.fail("second domain operand must be string (if used)", domain)


def _is_access_scope(node: Metadata | None) -> bool:
    return isinstance(node, MDNode) and not _ops(node) and node.is_distinct


def _verify_access_group(c: Checker, node: MDNode) -> None:
    if _is_access_scope(node):
        return
    for op in _ops(node):
        if not isinstance(op, MDNode):
            c.fail("Access scope list must consist of MDNodes", node)
            return
        if not _is_access_scope(op):
            c.fail("Access scope list contains invalid access scope", node)
            return


def _verify_prof(c: Checker, inst: Instruction, node: MDNode) -> None:
    ops = _ops(node)
    n = len(ops)
    if n < 2:
        c.fail("!prof annotations should have no less than 2 operands", node)
        return
    if ops[0] is None:
        c.fail("first operand should not be null", node)
        return
    if not _is_string(ops[0]):
        c.fail("expected string with name of the !prof annotation", node)
        return
    if cast(MDString, ops[0]).string != "branch_weights":
        return
    offset = 2 if n >= 3 and _is_string(ops[1]) else 1
    weights = n - offset
    opcode = inst.opcode
    if opcode == "invoke":
        if weights != 1 and weights != 2:
            c.fail("Wrong number of InvokeInst branch_weights operands", node)
            return
    else:
        expected = 0
        if opcode in ("br", "switch", "callbr"):
            expected = inst.num_successors
        elif opcode == "call":
            expected = 1
        elif opcode == "indirectbr":
            expected = inst.num_destinations  # type: ignore[attr-defined]
        elif opcode == "select":
            expected = 2
        else:
            c.fail("!prof branch_weights are not allowed for this instruction", node)
        if weights != expected:
            c.fail("Wrong number of operands", node)
            return
    for i in range(offset, n):
        op = ops[i]
        if op is None:
            c.fail("second operand should not be null", node)
            return
        if _const_int(op) is None:
            c.fail("!prof brunch_weights operand is not a const int")
            return


def _verify_call_stack(c: Checker, node: MDNode) -> None:
    ops = _ops(node)
    if not ops:
        c.fail("call stack metadata should have at least 1 operand", node)
        return
    for op in ops:
        if _const_int(op) is None:
            c.fail("call stack metadata operand should be constant integer", op)
            return


def _verify_memprof(c: Checker, inst: Instruction, node: MDNode) -> None:
    if inst.opcode not in _CALL_OPCODES:
        c.fail("!memprof metadata should only exist on calls", inst)
        return
    ops = _ops(node)
    if not ops:
        c.fail("!memprof annotations should have at least 1 metadata operand (MemInfoBlock)", node)
        return
    for mib in ops:
        mops = _ops(mib)
        if len(mops) < 2:
            c.fail("Each !memprof MemInfoBlock should have at least 2 operands", mib)
            return
        if mops[0] is None:
            c.fail("!memprof MemInfoBlock first operand should not be null", mib)
            return
        if not isinstance(mops[0], MDNode):
            c.fail("!memprof MemInfoBlock first operand should be an MDNode", mib)
            return
        _verify_call_stack(c, mops[0])
        if not all(_is_string(op) for op in mops[1:-1]):
            c.fail("Not all !memprof MemInfoBlock operands 1 to N-1 are MDString", mib)
            return
        if not (_is_string(mops[-1]) or _const_int(mops[-1]) is not None):
            c.fail("Last !memprof MemInfoBlock operand not MDString or int", mib)
            return


def _verify_assign_id_attachment(c: Checker, inst: Instruction, node: MDNode) -> None:
    if not (inst.opcode in ("alloca", "store") or _is_mem_intrinsic(inst)):
        c.fail_debug_info("!DIAssignID attached to unexpected instruction kind", inst, node)
        return
    as_value = MetadataAsValue.get_if_exists(inst.type.context, node)
    if as_value is not None:
        for user in as_value.users:
            callee = getattr(user, "called_function", None)
            if callee is None or callee.name != "llvm.dbg.assign":
                c.fail_debug_info("!DIAssignID should only be used by llvm.dbg.assign intrinsics", node, user)
                return
            if getattr(user, "function", None) is not inst.function:
                c.fail_debug_info("dbg.assign not in same function as inst", user, inst)
                return
    fn = inst.function
    for rec in _assign_index(c, fn)[1].get(id(node), ()):
        if not rec.is_dbg_assign:
            c.fail_debug_info("!DIAssignID should only be used by Assign DVRs.", node, di.record_text(c, rec))
            return
        if rec.function is not fn:
            c.fail_debug_info("DVRAssign not in same function as inst", di.record_text(c, rec), inst)
            return


def _verify_annotation(c: Checker, node: MDNode) -> None:
    if not isinstance(node, MDTuple):
        c.fail("annotation must be a tuple")
        return
    ops = node.operands
    if not ops:
        c.fail("annotation must have at least one operand")
        return
    for op in ops:
        ok = _is_string(op) or (isinstance(op, MDTuple) and all(_is_string(x) for x in op.operands))
        if not ok:
            c.fail("operands must be a string or a tuple of strings")
            return


# --- module level ------------------------------------------------------------------------------------


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
