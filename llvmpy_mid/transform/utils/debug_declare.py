"""Turning a ``#dbg_declare`` of a stack slot into ``#dbg_value`` records (the
``ConvertDebugDeclareToDebugValue`` family of LLVM's Transforms/Utils/Local.cpp).

What: when a promotion removes the loads and stores of an ``alloca`` that a
``#dbg_declare`` describes, the variable's value is recorded at each store
(before it), after each load and at the top of each new phi's block, with an
unknown location (line 0) in the declare's scope. A value that does not cover the
variable (or its fragment) records ``undef`` at a store and nothing at a load or
phi, as LLVM 19 does.

How: the checks follow LLVM 19: ``valueCoversEntireFragment`` compares the
value's alloc size in bits with the expression's active bits for the variable
(``DIExpression::getActiveBits``, the size of the variable's type seen through
derived types), falling back to the alloca's size; ``PhiHasDebugValue`` avoids a
second identical record on a phi.

Assignment tracking: :class:`AssignmentIndex` finds the ``#dbg_assign`` records
linked to an instruction's ``!DIAssignID``; :class:`AssignmentTrackingInfo` turns
them into ``#dbg_value`` records when the stores they describe are removed
(LLVM's ``AssignmentTrackingInfo``).

What it does not do: the ``llvm.dbg.declare``/``llvm.dbg.assign`` call forms (the
reader turns those calls into records, as opt-19 does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import UndefValue
from llvmpy_mid.ir.debug_info import DIExpression, DILocation, DINode
from llvmpy_mid.ir.debug_records import DbgRecordKind, DbgVariableRecord
from llvmpy_mid.ir.di_expression import expression_ops, expression_values
from llvmpy_mid.ir.metadata import MDNode, ValueAsMetadata

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
    from llvmpy_mid.ir.instructions.other import PHINode
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value

_OP_DEREF = 0x06
_OP_FRAGMENT = 0x1000
_OP_EXTRACT_BITS_SEXT = 0x1006
_OP_EXTRACT_BITS_ZEXT = 0x1007


def dbg_variable_records_of(value: Value) -> list[DbgVariableRecord]:
    """The variable records whose location mentions ``value``, newest first
    (LLVM ``findDbgUsers`` for records)."""
    md = ValueAsMetadata.get_if_exists(value)
    if md is None or not md._users:
        return []
    out: list[DbgVariableRecord] = []
    seen: set[int] = set()
    for holder in list(md._users):
        if isinstance(holder, DbgVariableRecord):
            if id(holder) not in seen:
                seen.add(id(holder))
                out.append(holder)
        elif getattr(holder, "is_di_arg_list", False):
            for inner in list(holder._users or ()):  # type: ignore[attr-defined]
                if isinstance(inner, DbgVariableRecord) and id(inner) not in seen:
                    seen.add(id(inner))
                    out.append(inner)
    out.reverse()
    return out


def is_address_of_variable(rec: DbgVariableRecord) -> bool:
    """A ``#dbg_declare`` (LLVM ``isAddressOfVariable``)."""
    return rec.kind is DbgRecordKind.DECLARE


def _expr_values(expr: MDNode) -> list[int]:
    return expression_values(expr) if isinstance(expr, DIExpression) else []


def starts_with_deref(expr: MDNode) -> bool:
    """LLVM ``DIExpression::startsWithDeref`` (after a leading ``DW_OP_LLVM_arg 0``)."""
    values = _expr_values(expr)
    if len(values) >= 2 and values[0] == 0x1005 and values[1] == 0:
        values = values[2:]
    return bool(values) and values[0] == _OP_DEREF


def is_deref(expr: MDNode) -> bool:
    """LLVM ``DIExpression::isDeref``: exactly ``DW_OP_deref`` (after a leading ``DW_OP_LLVM_arg 0``)."""
    values = _expr_values(expr)
    if len(values) >= 2 and values[0] == 0x1005 and values[1] == 0:
        values = values[2:]
    return len(values) == 1 and values[0] == _OP_DEREF


def variable_size_in_bits(var: MDNode) -> int | None:
    """LLVM ``DIVariable::getSizeInBits``: the size of the type, looking through derived types."""
    ty = var.get_field("type") if isinstance(var, DINode) and var.has_field("type") else None
    while isinstance(ty, DINode):
        size = ty.get_field("size") if ty.has_field("size") else None
        if isinstance(size, int) and size:
            return size
        if ty.kind == "DIDerivedType":
            ty = ty.get_field("baseType") if ty.has_field("baseType") else None
            continue
        break
    return None


def variable_signedness(var: object) -> bool | None:
    """True (signed), False (unsigned) or None (unknown), from a variable's basic type (LLVM
    ``DIVariable::getSignedness``: only a ``DIBasicType`` with a signed or unsigned encoding
    answers; derived types and booleans do not)."""
    get_field = getattr(var, "get_field", None)
    has_field = getattr(var, "has_field", None)
    if get_field is None or has_field is None or not has_field("type"):
        return None
    ty = get_field("type")
    if getattr(ty, "kind", None) != "DIBasicType" or not ty.has_field("encoding"):
        return None
    enc = ty.get_field("encoding")
    names = getattr(enc, "names", None)
    if names:
        enc = names[0]
    if enc in ("DW_ATE_signed", "DW_ATE_signed_char", 5, 6):
        return True
    if enc in ("DW_ATE_unsigned", "DW_ATE_unsigned_char", 7, 8):
        return False
    return None


def active_bits(expr: MDNode, var: MDNode) -> int | None:
    """LLVM ``DIExpression::getActiveBits``: the bits of the variable the expression covers."""
    initial = variable_size_in_bits(var)
    bits = initial
    values = _expr_values(expr)
    for pos, op in expression_ops(values):
        if op in (_OP_EXTRACT_BITS_SEXT, _OP_EXTRACT_BITS_ZEXT):
            signed = variable_signedness(var)
            if signed is None or signed != (op == _OP_EXTRACT_BITS_SEXT):
                bits = initial
                continue
        elif op != _OP_FRAGMENT:
            bits = initial
            continue
        if pos + 2 < len(values):
            size = values[pos + 2]
            bits = size if bits is None else min(bits, size)
    return bits


def value_covers_entire_fragment(ty: Type, rec: DbgVariableRecord, dl: DataLayout) -> bool:
    """LLVM ``valueCoversEntireFragment``: a value of ``ty`` describes the whole
    variable (fragment) of ``rec``."""
    value_bits = dl.type_alloc_size_in_bits(ty)
    frag = active_bits(rec.expression, rec.variable)
    if frag is not None:
        return value_bits >= frag
    if is_address_of_variable(rec) and rec.num_variable_location_ops == 1:
        from llvmpy_mid.ir.instructions.memory import AllocaInst

        ai = rec.get_variable_location_op(0)
        if isinstance(ai, AllocaInst):
            size = _alloca_size_in_bits(ai, dl)
            if size is not None:
                return value_bits >= size
    return False


def _alloca_size_in_bits(ai: Value, dl: DataLayout) -> int | None:
    from llvmpy_mid.ir.constants import ConstantInt

    size = dl.type_alloc_size_in_bits(ai.allocated_type)  # type: ignore[attr-defined]
    if ai.is_array_allocation:  # type: ignore[attr-defined]
        count = ai.array_size  # type: ignore[attr-defined]
        if not isinstance(count, ConstantInt):
            return None
        size *= count.value
    return int(size)


def debug_value_loc(rec: DbgVariableRecord) -> DILocation:
    """An unknown location (line 0) in the declare's scope and inlined-at (LLVM ``getDebugValueLoc``)."""
    loc = rec.debug_loc
    assert isinstance(loc, DILocation)
    return DILocation.get(loc.context, 0, 0, loc.scope, loc.inlined_at)


def _insert_before(new: DbgVariableRecord, inst: Instruction) -> None:
    inst.add_dbg_record(new)


def _insert_after(new: DbgVariableRecord, inst: Instruction) -> None:
    nxt = inst.next_instruction
    assert nxt is not None, "a record after the terminator"
    recs = nxt.dbg_records
    nxt.add_dbg_record(new, recs[0] if recs else None)


def convert_declare_for_store(rec: DbgVariableRecord, si: StoreInst, dl: DataLayout) -> None:
    """A ``#dbg_value`` of the stored value before ``si`` (``undef`` when it covers only part)."""
    expr = rec.expression
    value = si.value_operand
    loc = debug_value_loc(rec)
    if not (is_deref(expr) or (not starts_with_deref(expr) and value_covers_entire_fragment(value.type, rec, dl))):
        value = UndefValue.get(value.type)
    _insert_before(DbgVariableRecord.create_value(value, rec.variable, expr, loc), si)


def convert_declare_for_load(rec: DbgVariableRecord, li: LoadInst, dl: DataLayout) -> None:
    """A ``#dbg_value`` of the loaded value just after ``li``."""
    if not value_covers_entire_fragment(li.type, rec, dl):
        return
    _insert_after(DbgVariableRecord.create_value(li, rec.variable, rec.expression, debug_value_loc(rec)), li)


def _phi_has_debug_value(var: MDNode, expr: MDNode, phi: PHINode) -> bool:
    for other in dbg_variable_records_of(phi):
        if other.kind is DbgRecordKind.VALUE and other.variable is var and other.expression is expr:
            return True
    return False


def convert_declare_for_phi(rec: DbgVariableRecord, phi: PHINode, dl: DataLayout) -> None:
    """A ``#dbg_value`` of ``phi`` at its block's first insertion point (none in a catchswitch block)."""
    var = rec.variable
    expr = rec.expression
    if _phi_has_debug_value(var, expr, phi):
        return
    if not value_covers_entire_fragment(phi.type, rec, dl):
        return
    bb = phi.parent
    assert bb is not None
    at = bb.first_insertion_point
    if at is None:
        return
    # getFirstInsertionPt carries the head bit: the record goes before the ones already there.
    recs = at.dbg_records
    at.add_dbg_record(DbgVariableRecord.create_value(phi, var, expr, debug_value_loc(rec)), recs[0] if recs else None)


# --- assignment tracking (#dbg_assign) ---------------------------------------------------------


class AssignmentIndex:
    """The ``#dbg_assign`` records of a function by their ``DIAssignID``, newest first
    (LLVM ``at::getDVRAssignmentMarkers`` through the ID's users)."""

    __slots__ = ("_by_id",)

    def __init__(self, fn: Function) -> None:
        by_id: dict[int, list[DbgVariableRecord]] = {}
        for bb in fn.blocks:
            for inst in bb.instructions:
                recs = inst._dbg_records
                if not recs:
                    continue
                for rec in recs:
                    if isinstance(rec, DbgVariableRecord) and rec.kind is DbgRecordKind.ASSIGN:
                        aid = rec.assign_id
                        if aid is not None:
                            by_id.setdefault(id(aid), []).append(rec)
        for lst in by_id.values():
            lst.reverse()
        self._by_id = by_id

    def markers(self, inst: Instruction) -> list[DbgVariableRecord]:
        """The live ``#dbg_assign`` records linked to ``inst``'s ``!DIAssignID``."""
        aid = inst.get_metadata("DIAssignID")
        if aid is None:
            return []
        lst = self._by_id.get(id(aid))
        if not lst:
            return []
        return [r for r in lst if r.instruction is not None]

    def delete_markers(self, inst: Instruction) -> None:
        """Erase the records linked to ``inst`` (LLVM ``at::deleteAssignmentMarkers``)."""
        for rec in self.markers(inst):
            rec.erase_from_parent()


def _debug_variable(rec: DbgVariableRecord) -> tuple[int, tuple[int, int] | None, int]:
    expr = rec.expression
    frag = expr.fragment if isinstance(expr, DIExpression) else None
    loc = rec.debug_loc
    inlined = loc.inlined_at if isinstance(loc, DILocation) else None
    return (id(rec.variable), frag, id(inlined))


def _debug_variable_aggregate(rec: DbgVariableRecord) -> tuple[int, int]:
    loc = rec.debug_loc
    inlined = loc.inlined_at if isinstance(loc, DILocation) else None
    return (id(rec.variable), id(inlined))


class AssignmentTrackingInfo:
    """The ``#dbg_assign`` records of an alloca, one per variable fragment, and the
    updates promotion makes to them (LLVM's ``AssignmentTrackingInfo`` in
    PromoteMemoryToRegister.cpp)."""

    __slots__ = ("assigns", "index")

    def __init__(self, index: AssignmentIndex | None = None, ai: Instruction | None = None) -> None:
        self.assigns: list[DbgVariableRecord] = []
        self.index = index
        if index is None or ai is None:
            return
        seen: set[tuple[int, tuple[int, int] | None, int]] = set()
        for rec in index.markers(ai):
            key = _debug_variable(rec)
            if key not in seen:
                seen.add(key)
                self.assigns.append(rec)

    @property
    def empty(self) -> bool:
        return not self.assigns

    def update_for_deleted_store(self, si: StoreInst, to_delete: dict[DbgVariableRecord, None], dl: DataLayout) -> None:
        """Before ``si`` goes: each of its markers gets a ``#dbg_value`` of the assigned
        value just before it (the marker is queued for deletion); variables of the
        alloca without a marker on this store get the store's value (or undef)."""
        if not self.assigns or self.index is None:
            return
        has_marker: set[tuple[int, int]] = set()
        for rec in self.index.markers(si):
            has_marker.add(_debug_variable_aggregate(rec))
            to_delete[rec] = None
            holder = rec.instruction
            assert holder is not None
            value = rec.get_variable_location_op(0)
            new = DbgVariableRecord.create_value(value, rec.variable, rec.expression, rec.debug_loc)
            holder.add_dbg_record(new, rec)
        for rec in self.assigns:
            if _debug_variable_aggregate(rec) not in has_marker:
                convert_declare_for_store(rec, si, dl)

    def update_for_new_phi(self, phi: PHINode, dl: DataLayout) -> None:
        """A ``#dbg_value`` of the new phi for each tracked variable."""
        for rec in self.assigns:
            convert_declare_for_phi(rec, phi, dl)


# --- LowerDbgDeclare ----------------------------------------------------------------------------

_OP_DEREF_LIST = [_OP_DEREF]


def _append_ops(expr: MDNode, ops: list[int]) -> MDNode:
    """LLVM ``DIExpression::append``: ``ops`` go before a ``DW_OP_stack_value`` or fragment, else at the end."""
    from llvmpy_mid.ir.di_expression import _op_size
    from llvmpy_mid.ir.di_expression_edit import OP_STACK_VALUE, expression_from_values

    values = _expr_values(expr)
    out: list[int] = []
    pending = list(ops)
    for pos, op in expression_ops(values):
        if op == OP_STACK_VALUE or op == _OP_FRAGMENT:
            out.extend(pending)
            pending = []
        out.extend(values[pos : pos + _op_size(op)])
    out.extend(pending)
    return expression_from_values(expr.context, out)


def _lower_one_declare(rec: DbgVariableRecord, dl: DataLayout) -> bool:
    from llvmpy_mid.ir.function import Function as _Function
    from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
    from llvmpy_mid.ir.types import ArrayType, StructType

    ai = rec.get_variable_location_op(0) if rec.num_variable_location_ops else None
    if not isinstance(ai, AllocaInst):
        return False
    ty = ai.allocated_type
    if ai.is_array_allocation or isinstance(ty, (ArrayType, StructType)):
        return False
    use = ai._use_head
    while use is not None:
        user = use.user
        if isinstance(user, (LoadInst, StoreInst)) and user.is_volatile:
            return False
        use = use._next
    work: list[Value] = [ai]
    while work:
        v = work.pop()
        use = v._use_head
        while use is not None:
            user = use.user
            op = user.opcode if user.is_instruction else ""  # type: ignore[attr-defined]
            if op == "store":
                if use.index == 1:
                    convert_declare_for_store(rec, user, dl)  # type: ignore[arg-type]
            elif op == "load":
                convert_declare_for_load(rec, user, dl)  # type: ignore[arg-type]
            elif op == "call":
                callee = user.operands[-1]
                name = callee.name if isinstance(callee, _Function) else ""
                if name not in ("llvm.lifetime.start", "llvm.lifetime.end") and not name.startswith(
                    ("llvm.lifetime.start.", "llvm.lifetime.end.")
                ):
                    new = DbgVariableRecord.create_value(
                        ai, rec.variable, _append_ops(rec.expression, _OP_DEREF_LIST), debug_value_loc(rec)
                    )
                    _insert_before(new, user)  # type: ignore[arg-type]
            elif op == "bitcast" and user.type.is_pointer:
                work.append(user)
            use = use._next
    rec.erase_from_parent()
    return True


def lower_dbg_declare(fn: Function) -> bool:
    """Replace each ``#dbg_declare`` of a scalar ``alloca`` by ``#dbg_value`` records at its
    stores, loads and the calls that take its address, then drop redundant records (LLVM
    ``LowerDbgDeclare``, which InstCombine runs first). True if anything changed."""
    from llvmpy_mid.transform.utils.basic_block_utils import remove_redundant_dbg_instrs

    declares: list[DbgVariableRecord] = []
    for bb in fn.blocks:
        inst = bb.instructions.first
        while inst is not None:
            recs = inst._dbg_records
            if recs:
                for r in recs:
                    if isinstance(r, DbgVariableRecord) and r.kind is DbgRecordKind.DECLARE:
                        declares.append(r)
            inst = inst.next_instruction
    if not declares:
        return False
    module = fn.parent
    from llvmpy_mid.ir.data_layout import DataLayout as _DataLayout

    dl = module.data_layout if module is not None else _DataLayout()
    changed = False
    for rec in declares:
        changed |= _lower_one_declare(rec, dl)
    if changed:
        for bb in fn.blocks:
            remove_redundant_dbg_instrs(bb)
    return changed


__all__ = [
    "AssignmentIndex",
    "AssignmentTrackingInfo",
    "active_bits",
    "convert_declare_for_load",
    "convert_declare_for_phi",
    "convert_declare_for_store",
    "dbg_variable_records_of",
    "debug_value_loc",
    "is_address_of_variable",
    "is_deref",
    "lower_dbg_declare",
    "starts_with_deref",
    "value_covers_entire_fragment",
    "variable_signedness",
    "variable_size_in_bits",
]
