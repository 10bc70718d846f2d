"""SROA's debug-info migration (part of LLVM 19.1.7 lib/Transforms/Scalar/SROA.cpp:
``calculateFragment``, ``migrateDebugInfo``, and the helpers ``splitAlloca`` uses to
move ``#dbg_declare`` / ``#dbg_assign`` records onto the new allocas: ``getAddress``,
``isKillAddress``, ``getAddressExpression``, ``createOrReplaceFragment``,
``insertNewDbgInst`` and the per-record ``MigrateOne`` step).

What: when SROA splits an alloca, each record describing the old alloca gets, for each
new alloca that overlaps the variable's fragment, a record of the new alloca describing
the overlapping part (a ``DW_OP_LLVM_fragment``, an address offset, an adjusted bit
extract). When the rewriter splits a store (or memory intrinsic) that carries a
``!DIAssignID``, :func:`migrate_debug_info` gives the new instruction its own ID and
a ``#dbg_assign`` for the part it writes.

How: the reader turns ``llvm.dbg.*`` calls into records, so only records are handled
(LLVM's intrinsic overloads have nothing to do). A ``#dbg_assign`` is found from its
instruction's ``!DIAssignID`` by a walk of the function (distinct ``DIAssignID`` nodes
do not list their users here); records come newest first, as LLVM's
``getAllDbgVariableRecordUsers``. The expression editing lives in
``ir/di_expression_edit.py`` (``createFragmentExpression``,
``calculateFragmentIntersect``, ``extractLeadingOffset``...).

What it does not do: the LLVM_DEBUG traces.
"""

from __future__ import annotations

from contextlib import contextmanager
from enum import Enum
from typing import TYPE_CHECKING, Iterator, Sequence

from llvmpy_mid.ir.debug_info import DIExpression, DILocation, DINode
from llvmpy_mid.ir.debug_records import DbgRecordKind, DbgVariableRecord
from llvmpy_mid.ir.di_expression import _op_size, expression_ops, expression_values
from llvmpy_mid.ir.di_expression_edit import (
    OP_LLVM_EXTRACT_BITS_SEXT,
    OP_LLVM_EXTRACT_BITS_ZEXT,
    OP_LLVM_FRAGMENT,
    FragmentInfo,
    calculate_fragment_intersect,
    create_fragment_expression,
    expression_from_values,
    extract_leading_offset,
    is_single_location_expression,
    prepend_offset,
)
from llvmpy_mid.ir.metadata import MDNode, ValueAsMetadata
from llvmpy_mid.transform.utils.debug_declare import variable_size_in_bits

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.instructions.memory import AllocaInst
    from llvmpy_mid.ir.value import Value

__all__ = [
    "FragCalcResult",
    "SplitFragment",
    "assignment_marker_cache",
    "assignment_markers",
    "calculate_fragment",
    "create_or_replace_fragment",
    "declare_records_of",
    "get_address",
    "get_address_expression",
    "insert_new_dbg_inst",
    "is_kill_address",
    "migrate_debug_info",
    "migrate_debug_info_for_split",
]

SplitFragment = tuple["AllocaInst", int, int]
"""A new alloca of a split, with the bit offset and bit size of the old alloca it holds
(LLVM ``splitAlloca``'s ``Fragment``)."""


class FragCalcResult(Enum):
    """LLVM ``FragCalcResult``: use the target fragment, use no fragment, or skip."""

    USE_FRAG = 0
    USE_NO_FRAG = 1
    SKIP = 2


# --- finding records -----------------------------------------------------------------------------


def declare_records_of(value: Value) -> list[DbgVariableRecord]:
    """The ``#dbg_declare`` records whose address is ``value``, newest first (LLVM
    ``findDVRDeclares``)."""
    md = ValueAsMetadata.get_if_exists(value)
    if md is None or not md._users:
        return []
    out = [h for h in md._users if isinstance(h, DbgVariableRecord) and h.kind is DbgRecordKind.DECLARE]
    out.reverse()
    return out


class _AssignmentMarkerIndex:
    """The ``#dbg_assign`` records of one function by the identity of their ``DIAssignID``,
    oldest first; records this module creates are added, erased or re-linked ones are
    filtered out when read."""

    __slots__ = ("function", "by_id")

    def __init__(self, fn: Function) -> None:
        self.function = fn
        by_id: dict[int, list[DbgVariableRecord]] = {}
        assign = DbgRecordKind.ASSIGN
        for bb in fn.blocks:
            inst = bb.instructions._first
            while inst is not None:
                recs = inst._dbg_records
                if recs:
                    for rec in recs:
                        if isinstance(rec, DbgVariableRecord) and rec.kind is assign:
                            aid = rec.assign_id
                            if aid is not None:
                                by_id.setdefault(id(aid), []).append(rec)
                inst = inst._next
        self.by_id = by_id

    def markers(self, aid: MDNode) -> list[DbgVariableRecord]:
        lst = self.by_id.get(id(aid))
        if not lst:
            return []
        live = [r for r in lst if r.instruction is not None and r.assign_id is aid]
        if len(live) != len(lst):
            self.by_id[id(aid)] = list(live)
        live.reverse()
        return live

    def add(self, rec: DbgVariableRecord) -> None:
        aid = rec.assign_id
        if aid is not None:
            self.by_id.setdefault(id(aid), []).append(rec)


_ACTIVE_INDEXES: list[_AssignmentMarkerIndex] = []


@contextmanager
def assignment_marker_cache(fn: Function) -> Iterator[None]:
    """Within this block, :func:`assignment_markers` of ``fn`` reads an index built once
    instead of walking the function each time. Only for code (like one SROA run) that
    creates ``#dbg_assign`` records through this module alone."""
    _ACTIVE_INDEXES.append(_AssignmentMarkerIndex(fn))
    try:
        yield
    finally:
        _ACTIVE_INDEXES.pop()


def _active_index(fn: Function) -> _AssignmentMarkerIndex | None:
    for index in reversed(_ACTIVE_INDEXES):
        if index.function is fn:
            return index
    return None


def _note_new_assign(rec: DbgVariableRecord, fn: Function | None) -> None:
    if fn is not None and _ACTIVE_INDEXES:
        index = _active_index(fn)
        if index is not None:
            index.add(rec)


def assignment_markers(inst: Instruction) -> list[DbgVariableRecord]:
    """The ``#dbg_assign`` records linked to ``inst`` by its ``!DIAssignID``, newest first
    (LLVM ``at::getDVRAssignmentMarkers``)."""
    aid = inst.get_metadata("DIAssignID")
    if aid is None:
        return []
    fn = inst.function
    if fn is None:
        return []
    if _ACTIVE_INDEXES:
        index = _active_index(fn)
        if index is not None:
            return index.markers(aid)
    out: list[DbgVariableRecord] = []
    assign = DbgRecordKind.ASSIGN
    for bb in fn.blocks:
        i = bb.instructions._first
        while i is not None:
            recs = i._dbg_records
            if recs:
                for rec in recs:
                    if isinstance(rec, DbgVariableRecord) and rec.kind is assign and rec.assign_id is aid:
                        out.append(rec)
            i = i._next
    out.reverse()
    return out


# --- record parts --------------------------------------------------------------------------------


def _expr(md: MDNode | None) -> DIExpression:
    assert isinstance(md, DIExpression)
    return md


def _fragment(expr: DIExpression) -> FragmentInfo | None:
    return expr.fragment


def _inlined_at(rec: DbgVariableRecord) -> object:
    loc = rec.debug_loc
    return loc.inlined_at if isinstance(loc, DILocation) else None


def get_address(rec: DbgVariableRecord) -> Value | None:
    """The address a ``#dbg_declare`` or ``#dbg_assign`` names (LLVM ``getAddress``)."""
    if rec.kind is DbgRecordKind.ASSIGN:
        return rec.address_value
    loc = rec.location
    return loc.value if isinstance(loc, ValueAsMetadata) else None


def is_kill_address(rec: DbgVariableRecord) -> bool:
    """The record's address is gone (LLVM ``isKillAddress``)."""
    if rec.kind is DbgRecordKind.ASSIGN:
        return rec.is_kill_address
    return rec.is_kill_location


def get_address_expression(rec: DbgVariableRecord) -> DIExpression:
    """The expression applied to the address (LLVM ``getAddressExpression``)."""
    if rec.kind is DbgRecordKind.ASSIGN:
        return _expr(rec.address_expression)
    return _expr(rec.expression)


def _fragment_or_entire_variable(rec: DbgVariableRecord) -> FragmentInfo:
    """LLVM ``getFragmentOrEntireVariable``: (offset, size); (0, 0) when unknown."""
    frag = _fragment(_expr(rec.expression))
    if frag is not None:
        return frag
    size = variable_size_in_bits(rec.variable)
    if size is not None:
        return (0, size)
    return (0, 0)


# --- migrateDebugInfo ------------------------------------------------------------------------------


def calculate_fragment(
    variable: MDNode,
    new_storage_slice_offset_in_bits: int,
    new_storage_slice_size_in_bits: int,
    storage_fragment: FragmentInfo | None,
    current_fragment: FragmentInfo | None,
) -> tuple[FragCalcResult, FragmentInfo]:
    """The fragment of ``variable`` a new storage slice holds, and whether to use it
    (LLVM ``calculateFragment``; fragments are (offset, size) in bits)."""
    if storage_fragment is not None:
        target = (
            new_storage_slice_offset_in_bits + storage_fragment[0],
            min(new_storage_slice_size_in_bits, storage_fragment[1]),
        )
    else:
        target = (new_storage_slice_offset_in_bits, new_storage_slice_size_in_bits)
    if current_fragment is None:
        size = variable_size_in_bits(variable)
        if size is not None:
            current_fragment = (0, size)
            if target == current_fragment:
                return FragCalcResult.USE_NO_FRAG, target
    if current_fragment is None or current_fragment == target:
        return FragCalcResult.USE_FRAG, target
    if target[0] < current_fragment[0] or target[0] + target[1] > current_fragment[0] + current_fragment[1]:
        return FragCalcResult.SKIP, target
    return FragCalcResult.USE_FRAG, target


def _new_assign_id(inst: Instruction) -> MDNode:
    aid = DINode.distinct(inst.type.context, "DIAssignID", {})
    inst.set_metadata("DIAssignID", aid)
    return aid


def _linked_assign(
    value: Value | None,
    orig: DbgVariableRecord,
    expr: DIExpression,
    aid: MDNode,
    address: Value,
    address_expr: DIExpression,
    loc: MDNode,
) -> DbgVariableRecord:
    """A ``#dbg_assign`` of ``orig``'s variable; its value is ``value`` or, when None,
    ``orig``'s first location value (``orig``'s location as it is when it has none)."""
    if value is None:
        values = orig.location_values()
        if values:
            value = values[0]
    if value is not None:
        return DbgVariableRecord.create_assign(value, orig.variable, expr, aid, address, address_expr, loc)
    return DbgVariableRecord(
        DbgRecordKind.ASSIGN, orig.location, orig.variable, expr, loc, aid, ValueAsMetadata.get(address), address_expr
    )


def migrate_debug_info(
    old_alloca: AllocaInst,
    is_split: bool,
    old_alloca_offset_in_bits: int,
    slice_size_in_bits: int,
    old_inst: Instruction,
    inst: Instruction,
    dest: Value,
    value: Value | None,
    dl: DataLayout,
) -> None:
    """Give ``inst`` (which does part or all of ``old_inst``'s store into ``dest``) a new
    ``!DIAssignID`` and, next to each ``#dbg_assign`` of ``old_inst``, a ``#dbg_assign``
    of the part written (the fragment at ``old_alloca_offset_in_bits`` of
    ``slice_size_in_bits`` when ``is_split``); ``value`` None keeps the old value
    (LLVM ``migrateDebugInfo``)."""
    markers = assignment_markers(old_inst)
    if not markers:
        return
    base_fragments: dict[tuple[int, int], FragmentInfo | None] = {}
    for rec in assignment_markers(old_alloca):
        base_fragments[(id(rec.variable), id(_inlined_at(rec)))] = _fragment(_expr(rec.expression))
    new_id: MDNode | None = None
    ctx = inst.type.context
    for dbg_assign in markers:
        expr = _expr(dbg_assign.expression)
        set_kill_location = False
        if is_split:
            key = (id(dbg_assign.variable), id(_inlined_at(dbg_assign)))
            if key not in base_fragments:
                continue
            base_fragment = base_fragments[key]
            current = _fragment(expr)
            result, new_frag = calculate_fragment(
                dbg_assign.variable, old_alloca_offset_in_bits, slice_size_in_bits, base_fragment, current
            )
            if result is FragCalcResult.SKIP:
                continue
            if result is FragCalcResult.USE_FRAG and new_frag != current:
                offset, size = new_frag
                if current is not None:
                    offset -= current[0]
                values = create_fragment_expression(expression_values(expr), offset, size)
                if values is not None:
                    expr = expression_from_values(ctx, values)
                else:
                    expr = expression_from_values(ctx, [OP_LLVM_FRAGMENT, offset, size])
                    set_kill_location = True
        if new_id is None:
            new_id = _new_assign_id(inst)
        new_assign = _linked_assign(
            value, dbg_assign, expr, new_id, dest, DIExpression.get(ctx, ()), dbg_assign.debug_loc
        )
        old_expr = _expr(dbg_assign.expression)
        if value is not None and (
            dbg_assign.has_arg_list or not is_single_location_expression(expression_values(old_expr))
        ):
            set_kill_location = True
        if set_kill_location:
            new_assign.set_kill_location()
        owner = dbg_assign.instruction
        assert owner is not None
        owner.add_dbg_record(new_assign, before=dbg_assign)
        _note_new_assign(new_assign, owner.function)


# --- splitAlloca's migration -----------------------------------------------------------------------


def create_or_replace_fragment(expr: DIExpression, frag: FragmentInfo, bit_extract_offset: int) -> DIExpression | None:
    """``expr`` with its fragment replaced by the absolute ``frag`` (or, with a bit
    extract, the extract moved by ``bit_extract_offset``); None when that cannot be
    expressed (LLVM ``createOrReplaceFragment``)."""
    values = expression_values(expr)
    out: list[int] = []
    has_fragment = False
    has_bit_extract = False
    n = len(values)
    for pos, op in expression_ops(values):
        args = values[pos + 1 : min(pos + _op_size(op), n)]
        if op == OP_LLVM_FRAGMENT:
            has_fragment = True
            continue
        if op in (OP_LLVM_EXTRACT_BITS_ZEXT, OP_LLVM_EXTRACT_BITS_SEXT):
            has_bit_extract = True
            ext_off = args[0] if args else 0
            ext_size = args[1] if len(args) > 1 else 0
            if frag[1] < ext_size:
                return None
            adjusted = ext_off + bit_extract_offset
            if adjusted < 0:
                return None
            out.extend((op, max(0, adjusted), ext_size))
            continue
        out.append(op)
        out.extend(args)
    if has_fragment and has_bit_extract:
        return None
    if not has_bit_extract:
        out.extend((OP_LLVM_FRAGMENT, frag[0], frag[1]))
    return expression_from_values(expr.context, out)


def insert_new_dbg_inst(
    orig: DbgVariableRecord,
    new_addr: AllocaInst,
    new_addr_expr: DIExpression,
    before_inst: Instruction,
    new_fragment: FragmentInfo | None,
    bit_extract_adjustment: int,
) -> None:
    """A ``#dbg_declare`` of ``new_addr`` before ``before_inst``, or a ``#dbg_assign``
    linked to ``new_addr`` after it, copying ``orig``'s variable and location (LLVM
    ``insertNewDbgInst`` for records); ``new_fragment`` is absolute."""
    is_assign = orig.kind is DbgRecordKind.ASSIGN
    frag_expr: DIExpression | None = _expr(orig.expression) if is_assign else new_addr_expr
    if new_fragment is not None:
        assert frag_expr is not None
        frag_expr = create_or_replace_fragment(frag_expr, new_fragment, bit_extract_adjustment)
    if frag_expr is None:
        return
    if not is_assign:
        rec = DbgVariableRecord.create_declare(new_addr, orig.variable, frag_expr, orig.debug_loc)
        before_inst.add_dbg_record(rec)
        return
    aid = new_addr.get_metadata("DIAssignID")
    if aid is None:
        aid = _new_assign_id(new_addr)
    new_assign = _linked_assign(None, orig, frag_expr, aid, new_addr, new_addr_expr, orig.debug_loc)
    nxt = new_addr._next
    assert nxt is not None, "an alloca is never a block's last instruction"
    recs = nxt._dbg_records
    nxt.add_dbg_record(new_assign, before=recs[0] if recs else None)
    _note_new_assign(new_assign, nxt.function)


def _same_variable(a: DbgVariableRecord, b: DbgVariableRecord) -> bool:
    return a.variable is b.variable and _inlined_at(a) is _inlined_at(b)


def _migrate_one(ai: AllocaInst, rec: DbgVariableRecord, fragments: Sequence[SplitFragment], dl: DataLayout) -> None:
    if is_kill_address(rec):
        return
    dbg_ptr = get_address(rec)
    if dbg_ptr is None:
        return
    var_frag = _fragment_or_entire_variable(rec)
    addr_values = expression_values(get_address_expression(rec))
    leading = extract_leading_offset(addr_values)
    if leading is None:
        return
    cur_offset_bytes, post_offset_ops = leading
    extract_offset = 0
    for pos, op in expression_ops(addr_values):
        if op in (OP_LLVM_EXTRACT_BITS_ZEXT, OP_LLVM_EXTRACT_BITS_SEXT):
            extract_offset = addr_values[pos + 1] if pos + 1 < len(addr_values) else 0
            break
    ctx = ai.type.context
    for new_ai, frag_offset, frag_size in fragments:
        got = calculate_fragment_intersect(
            dl, ai, frag_offset, frag_size, dbg_ptr, cur_offset_bytes * 8, extract_offset, var_frag
        )
        if got is None:
            continue
        new_frag, offset_from_location = got
        if new_frag is not None and new_frag[1] == 0:
            continue
        if new_frag is None:
            new_frag = _fragment(_expr(rec.expression))
        offset_from_new = offset_from_location - extract_offset
        bit_extract_offset = min(0, offset_from_new)
        offset_from_new = max(0, offset_from_new)
        new_values = list(post_offset_ops)
        if offset_from_new > 0:
            new_values = prepend_offset(new_values, (offset_from_new + 7) // 8)
        new_expr = expression_from_values(ctx, new_values)
        for old in declare_records_of(new_ai):
            if _same_variable(old, rec):
                old.erase_from_parent()
        insert_new_dbg_inst(rec, new_ai, new_expr, ai, new_frag, bit_extract_offset)


def migrate_debug_info_for_split(ai: AllocaInst, fragments: Sequence[SplitFragment], dl: DataLayout) -> None:
    """Describe the variables of ``ai``'s ``#dbg_declare`` and ``#dbg_assign`` records on
    the new allocas of its split (``fragments``: (new alloca, bit offset, bit size) in
    ``ai``), as the end of LLVM's ``SROA::splitAlloca`` does. The old records stay (they
    go with ``ai``)."""
    for rec in declare_records_of(ai):
        _migrate_one(ai, rec, fragments, dl)
    for rec in assignment_markers(ai):
        _migrate_one(ai, rec, fragments, dl)
