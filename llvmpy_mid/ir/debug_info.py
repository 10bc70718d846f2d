"""The specialised debug-info nodes (LLVM ``DINode`` family, ``DILocation``,
``DIExpression``) as generic records of kind and fields.

A :class:`DINode` is an :class:`~llvmpy_mid.ir.metadata.MDNode` with a
``kind`` (``"DISubprogram"``, ``"DILocalVariable"``, ... every kind LLVM 19
has, listed in :data:`DI_KINDS`) and an ordered mapping of field name to
value. A value is an ``int``, a ``bool``, an ``MDString``, other metadata
(``None`` for ``null``), a :class:`DIEnum` (``DW_TAG_member``,
``DIFlagPrototyped | DIFlagArtificial``, ``FullDebug``, ``CSK_MD5``) or, for
``GenericDINode``'s ``operands:``, a tuple of metadata. Fields are stored
exactly as given, in the given order; absent fields read as their LLVM
default through :meth:`DINode.get_field`. Nodes are uniqued like tuples; the
uniquing key ignores field order and fields equal to their default (an empty
string counts as absent), so ``!DILocation(line: 3, column: 0, scope: !1)``
and ``!DILocation(line: 3, scope: !1)`` are one node, as in LLVM.

``DILocation`` (the most numerous node) and ``DIExpression`` (an element
list, not fields) have their own compact classes.

The tables the nodes follow live in :mod:`llvmpy_mid.ir.debug_info_tables`
and are re-exported here with :class:`DIEnum`: :data:`FIELD_SPECS` (each
kind's fields in LLVM's print order, with default and printing rule),
:data:`OPERAND_ORDER` (the order of LLVM's node operands, which decides
metadata slot numbering; ``DINode.operands`` follows it), :data:`PRINT_NOTES`,
and the flag words :data:`DI_FLAGS` / :data:`DISP_FLAGS` with
:func:`split_di_flags`, :func:`split_disp_flags`, :func:`flags_value` and
:func:`sp_flags_from_legacy`.

Not done here: printing and parsing (``llvmpy_mid.asm``), the verifier's
checks on field types, DWARF constant tables beyond the flag words.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence, Union

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.debug_info_tables import (
    ALWAYS as ALWAYS,
    DI_FLAGS as DI_FLAGS,
    DI_KINDS as DI_KINDS,
    DISP_FLAGS as DISP_FLAGS,
    FIELD_SPECS as FIELD_SPECS,
    INPUT_ONLY as INPUT_ONLY,
    OPERAND_ORDER as OPERAND_ORDER,
    PRINT_NOTES as PRINT_NOTES,
    SKIP_DEFAULT as SKIP_DEFAULT,
    SPECIAL as SPECIAL,
    DIEnum as DIEnum,
    FieldSpec as FieldSpec,
    flags_value as flags_value,
    sp_flags_from_legacy as sp_flags_from_legacy,
    split_di_flags as split_di_flags,
    split_disp_flags as split_disp_flags,
)
from llvmpy_mid.ir.metadata import (
    DISTINCT,
    TEMPORARY,
    UNIQUED,
    MDNode,
    MDString,
    Metadata,
)

FieldValue = Union[int, Metadata, DIEnum, tuple[Optional[Metadata], ...], None]
"""What a debug-info field may hold (``bool`` is an ``int``; ``MDString`` is metadata)."""

# Per kind, from FIELD_SPECS: each field's print position, and each field's default.
_SPEC_ORDER: dict[str, dict[str, int]] = {k: {s.name: i for i, s in enumerate(v)} for k, v in FIELD_SPECS.items()}
_SPEC_DEFAULT: dict[str, dict[str, Any]] = {k: {s.name: s.default for s in v} for k, v in FIELD_SPECS.items()}

# --- nodes ---------------------------------------------------------------------------------------

class _Plan:
    """How to build the uniquing key for one kind and one tuple of field names:
    the names (interned), and the field positions in print order with defaults."""

    __slots__ = ("names", "order")

    def __init__(self, names: tuple[str, ...], order: tuple[tuple[int, str, Any], ...]) -> None:
        self.names = names
        self.order = order


_PLANS: dict[tuple[str, tuple[str, ...]], _Plan] = {}


def _plan(kind: str, names: tuple[str, ...]) -> _Plan:
    plan = _PLANS.get((kind, names))
    if plan is not None:
        return plan
    order = _SPEC_ORDER.get(kind)
    if order is None:
        raise IRError("unknown debug-info node kind %r" % kind)
    seen: set[str] = set()
    for name in names:
        if name not in order:
            raise IRError("invalid field '%s' for !%s" % (name, kind))
        if name in seen:
            raise IRError("field '%s' cannot be specified more than once" % name)
        seen.add(name)
    defaults = _SPEC_DEFAULT[kind]
    positions = sorted(range(len(names)), key=lambda i: order[names[i]])
    plan = _Plan(names, tuple([(i, names[i], defaults[names[i]]) for i in positions]))
    _PLANS[(kind, names)] = plan
    return plan


def _field_key(kind: str, plan: _Plan, values: tuple[FieldValue, ...]) -> Any:
    """``(kind, ((name, value), ...))`` in print order, without fields equal to
    their default; an empty string is absent and an empty flag list is 0."""
    items: list[tuple[str, Any]] = []
    for i, name, default in plan.order:
        value: Any = values[i]
        tv = type(value)
        if value is None:
            if default is None:
                continue
        elif tv is int or tv is bool:
            td = type(default)
            if (td is int or td is bool) and value == default:
                continue
        elif tv is MDString:
            if value.string == "":
                if default is None:
                    continue
                value = None
        elif tv is DIEnum:
            if not value.names:
                value = 0
                if default == 0 and type(default) is int:
                    continue
            elif value == default:
                continue
        elif tv is tuple:
            if not value and default == ():
                continue
        items.append((name, value))
    return (kind, tuple(items))


def _split_fields(
    fields: Mapping[str, FieldValue] | Sequence[tuple[str, FieldValue]],
) -> tuple[tuple[str, ...], tuple[FieldValue, ...]]:
    if type(fields) is dict:
        return tuple(fields), tuple(fields.values())
    items = list(fields.items()) if isinstance(fields, Mapping) else list(fields)
    return tuple([n for n, _ in items]), tuple([v for _, v in items])


class DINode(MDNode):
    """A debug-info node: ``kind`` plus fields (see the module docstring)."""

    __slots__ = ("kind",)

    is_di_node = True

    kind: str

    # --- factories -----------------------------------------------------------------------------------
    @staticmethod
    def get(  # type: ignore[override]
        ctx: Context, kind: str, fields: Mapping[str, FieldValue] | Sequence[tuple[str, FieldValue]] = ()
    ) -> DINode:
        """The uniqued node ``!Kind(fields...)``."""
        return _make(ctx, kind, fields, UNIQUED)

    @staticmethod
    def distinct(  # type: ignore[override]
        ctx: Context, kind: str, fields: Mapping[str, FieldValue] | Sequence[tuple[str, FieldValue]] = ()
    ) -> DINode:
        """A new ``distinct !Kind(fields...)``."""
        return _make(ctx, kind, fields, DISTINCT)

    @staticmethod
    def temporary(  # type: ignore[override]
        ctx: Context, kind: str, fields: Mapping[str, FieldValue] | Sequence[tuple[str, FieldValue]] = ()
    ) -> DINode:
        return _make(ctx, kind, fields, TEMPORARY)

    # --- fields ------------------------------------------------------------------------------------------
    @property
    def field_names(self) -> tuple[str, ...]:
        """The fields as stored (given order)."""
        raise NotImplementedError

    @property
    def field_values(self) -> tuple[FieldValue, ...]:
        raise NotImplementedError

    def field_items(self) -> list[tuple[str, FieldValue]]:
        return list(zip(self.field_names, self.field_values))

    @property
    def fields(self) -> dict[str, FieldValue]:
        """The stored fields as a new ordered dict."""
        return dict(zip(self.field_names, self.field_values))

    def has_field(self, name: str) -> bool:
        """True when the field was given explicitly."""
        return name in self.field_names

    def get_field(self, name: str) -> Any:
        """The field's value, or LLVM's default when it was not given."""
        names = self.field_names
        if name in names:
            return self.field_values[names.index(name)]
        defaults = _SPEC_DEFAULT[self.kind]
        if name not in defaults:
            raise IRError("!%s has no field '%s'" % (self.kind, name))
        return defaults[name]

    def get_string(self, name: str) -> str:
        """A string field's text (``""`` when absent)."""
        value = self.get_field(name)
        return value.string if isinstance(value, MDString) else ""

    @property
    def operands(self) -> tuple[Metadata | None, ...]:
        """The metadata fields in LLVM's operand order (None where absent or not
        metadata, e.g. a ``count: 4`` stored as an int); for ``GenericDINode`` the
        header followed by the ``operands:`` list."""
        out: list[Metadata | None] = []
        for name in OPERAND_ORDER[self.kind]:
            value = self.get_field(name)
            out.append(value if isinstance(value, Metadata) else None)
        if self.kind == "GenericDINode":
            extra = self.get_field("operands")
            if type(extra) is tuple:
                out.extend(extra)
        return tuple(out)

    def __repr__(self) -> str:
        storage = ("", "distinct ", "temporary ", "deleted ")[self._storage]
        return "<%s!%s(%s)>" % (
            storage,
            self.kind,
            ", ".join("%s: %s" % (n, _short(v)) for n, v in zip(self.field_names, self.field_values)),
        )


def _short(value: Any) -> str:
    if isinstance(value, MDString):
        return repr(value.string)
    if isinstance(value, DIEnum):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Metadata):
        return type(value).__name__ if not isinstance(value, DINode) else "!" + value.kind
    if value is None:
        return "null"
    return str(value)


class DIFieldNode(DINode):
    """The generic storage of every kind except DILocation and DIExpression."""

    __slots__ = ("_names", "_values")

    _names: tuple[str, ...]
    _values: tuple[FieldValue, ...]

    def __init__(
        self, ctx: Context, kind: str, names: tuple[str, ...], values: tuple[FieldValue, ...], storage: int
    ) -> None:
        self._init_node(ctx, storage)
        self.kind = kind
        self._names = names
        self._values = values

    @property
    def field_names(self) -> tuple[str, ...]:
        return self._names

    @property
    def field_values(self) -> tuple[FieldValue, ...]:
        return self._values

    def _key(self) -> Any:
        return _field_key(self.kind, _plan(self.kind, self._names), self._values)

    def _refs(self) -> list[Metadata]:
        out: list[Metadata] = []
        for value in self._values:
            if isinstance(value, Metadata):
                out.append(value)
            elif type(value) is tuple:
                out.extend([v for v in value if v is not None])
        return out

    def _replace_refs(self, old: Metadata, new: Metadata | None) -> None:
        values: list[FieldValue] = []
        for value in self._values:
            if value is old:
                values.append(new)
            elif type(value) is tuple:
                values.append(tuple([new if v is old else v for v in value]))
            else:
                values.append(value)
        self._values = tuple(values)

    def _set_operand_raw(self, index: int, md: Metadata | None) -> None:
        order = OPERAND_ORDER[self.kind]
        if index < len(order):
            self._set_raw(order[index], md)
            return
        if self.kind != "GenericDINode":
            raise IndexError(index)
        ops = list(self.get_field("operands") or ())
        ops[index - len(order)] = md
        self._set_raw("operands", tuple(ops))

    def _set_raw(self, name: str, value: FieldValue) -> None:
        names = self._names
        if name in names:
            values = list(self._values)
            values[names.index(name)] = value
            self._values = tuple(values)
        else:
            self._names = _plan(self.kind, names + (name,)).names
            self._values = self._values + (value,)

    def set_field(self, name: str, value: FieldValue) -> None:
        """Set (or add) a field; a uniqued node is re-uniqued as in
        :meth:`MDNode.replace_operand_with`."""
        if name not in _SPEC_ORDER[self.kind]:
            raise IRError("invalid field '%s' for !%s" % (name, self.kind))
        self._check_alive()
        old = self.get_field(name) if name in self._names else None
        self._leave_table()
        old_md = old if isinstance(old, Metadata) else None
        new_md = value if isinstance(value, Metadata) else None
        if type(value) is tuple or type(old) is tuple:
            # GenericDINode operand lists: re-track wholesale.
            self._stop_tracking()
            self._set_raw(name, value)
            self._start_tracking_keep_state()
        else:
            self._set_raw(name, value)
            if old_md is not None and self._count_refs(old_md) == 0:
                users = old_md._users
                if users is not None:
                    users.pop(self, None)
            self._account(old_md, new_md, 1)
        self._reenter_table(old_md, new_md)

    def _start_tracking_keep_state(self) -> None:
        """Register again with every tracked operand, recounting unresolved ones
        (only an unresolved node counts them, see ``MDNode._account``)."""
        unresolved = 0
        for md in self._refs():
            users = md._users
            if users is not None:
                users[self] = None
                if md.is_md_node and md is not self:
                    unresolved += 1
        if self._users is not None:
            self._unresolved = unresolved

    # --- conveniences for common fields ---------------------------------------------------------------
    @property
    def name(self) -> str:
        """The ``name:`` field's text ("" when absent)."""
        return self.get_string("name")

    @property
    def line(self) -> int:
        return int(self.get_field("line"))

    @property
    def scope(self) -> Metadata | None:
        value = self.get_field("scope")
        return value if isinstance(value, Metadata) else None

    @property
    def file(self) -> Metadata | None:
        value = self.get_field("file")
        return value if isinstance(value, Metadata) else None

    @property
    def tag(self) -> Any:
        return self.get_field("tag")


def _make(
    ctx: Context, kind: str, fields: Mapping[str, FieldValue] | Sequence[tuple[str, FieldValue]], storage: int
) -> DINode:
    names, values = _split_fields(fields)
    plan = _plan(kind, names)
    if kind == "DILocation":
        f = dict(zip(names, values))
        scope = f.get("scope")
        inlined = f.get("inlinedAt")
        if not isinstance(scope, MDNode) or not (inlined is None or isinstance(inlined, MDNode)):
            raise IRError("DILocation needs a scope node (and an optional inlinedAt node)")
        return DILocation._make(
            ctx, _int(f.get("line", 0)), _int(f.get("column", 0)), scope, inlined,
            bool(f.get("isImplicitCode", False)), storage,
        )
    if kind == "DIExpression":
        raise IRError("build DIExpression nodes with DIExpression.get(ctx, elements)")
    if storage == UNIQUED:
        key = _field_key(kind, plan, values)
        table = ctx.metadata_nodes
        found = table.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        node = DIFieldNode(ctx, kind, plan.names, values, storage)
        table[key] = node
    else:
        node = DIFieldNode(ctx, kind, plan.names, values, storage)
    node._start_tracking()
    return node


def _int(value: Any) -> int:
    if not isinstance(value, int):
        raise IRError("expected an integer field, got %r" % (value,))
    return value


class DILocation(DINode):
    """``!DILocation(line: 3, column: 7, scope: !5, inlinedAt: !9)``.

    ``line``, ``column``, ``scope``, ``inlined_at`` and ``is_implicit_code``
    are read-only: make another location with :meth:`DILocation.get`.
    """

    __slots__ = ("line", "column", "scope", "inlined_at", "is_implicit_code")

    line: int
    column: int
    scope: MDNode
    inlined_at: MDNode | None
    is_implicit_code: bool

    def __init__(
        self,
        ctx: Context,
        line: int,
        column: int,
        scope: MDNode,
        inlined_at: MDNode | None,
        is_implicit_code: bool,
        storage: int,
    ) -> None:
        self._init_node(ctx, storage)
        self.kind = "DILocation"
        self.line = line
        self.column = column
        self.scope = scope
        self.inlined_at = inlined_at
        self.is_implicit_code = is_implicit_code

    @staticmethod
    def get(  # type: ignore[override]
        ctx: Context,
        line: int,
        column: int,
        scope: MDNode,
        inlined_at: MDNode | None = None,
        is_implicit_code: bool = False,
    ) -> DILocation:
        """The uniqued location."""
        key = ("DILocation", line, column, scope, inlined_at, is_implicit_code)
        table = ctx.metadata_nodes
        node = table.get(key)
        if node is None:
            node = DILocation(ctx, line, column, scope, inlined_at, is_implicit_code, UNIQUED)
            table[key] = node
            node._start_tracking()
        return node

    @staticmethod
    def distinct(  # type: ignore[override]
        ctx: Context,
        line: int,
        column: int,
        scope: MDNode,
        inlined_at: MDNode | None = None,
        is_implicit_code: bool = False,
    ) -> DILocation:
        return DILocation._make(ctx, line, column, scope, inlined_at, is_implicit_code, DISTINCT)

    @staticmethod
    def _make(
        ctx: Context,
        line: int,
        column: int,
        scope: MDNode,
        inlined_at: MDNode | None,
        is_implicit_code: bool,
        storage: int,
    ) -> DILocation:
        if storage == UNIQUED:
            return DILocation.get(ctx, line, column, scope, inlined_at, is_implicit_code)
        node = DILocation(ctx, line, column, scope, inlined_at, is_implicit_code, storage)
        node._start_tracking()
        return node

    # --- MDNode storage interface ----------------------------------------------------------------------
    def _key(self) -> Any:
        return ("DILocation", self.line, self.column, self.scope, self.inlined_at, self.is_implicit_code)

    def _refs(self) -> list[Metadata]:
        if self.inlined_at is None:
            return [self.scope]
        return [self.scope, self.inlined_at]

    def _replace_refs(self, old: Metadata, new: Metadata | None) -> None:
        if self.scope is old:
            if not isinstance(new, MDNode):
                raise IRError("a DILocation's scope must be a node")
            self.scope = new
        if self.inlined_at is old:
            if new is not None and not isinstance(new, MDNode):
                raise IRError("a DILocation's inlinedAt must be a node")
            self.inlined_at = new

    def _set_operand_raw(self, index: int, md: Metadata | None) -> None:
        if index == 0:
            if not isinstance(md, MDNode):
                raise IRError("a DILocation's scope must be a node")
            self.scope = md
        elif index == 1:
            if md is not None and not isinstance(md, MDNode):
                raise IRError("a DILocation's inlinedAt must be a node")
            self.inlined_at = md
        else:
            raise IndexError(index)

    @property
    def operands(self) -> tuple[Metadata | None, ...]:
        return (self.scope, self.inlined_at)

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple([n for n, _ in self._canonical_fields()])

    @property
    def field_values(self) -> tuple[FieldValue, ...]:
        return tuple([v for _, v in self._canonical_fields()])

    def _canonical_fields(self) -> list[tuple[str, FieldValue]]:
        out: list[tuple[str, FieldValue]] = [("line", self.line)]
        if self.column:
            out.append(("column", self.column))
        out.append(("scope", self.scope))
        if self.inlined_at is not None:
            out.append(("inlinedAt", self.inlined_at))
        if self.is_implicit_code:
            out.append(("isImplicitCode", True))
        return out

    # --- queries passes use ------------------------------------------------------------------------------
    @property
    def subprogram(self) -> DINode | None:
        """The DISubprogram enclosing the scope (through lexical blocks)."""
        scope: Any = self.scope
        while isinstance(scope, DINode):
            if scope.kind == "DISubprogram":
                return scope
            if scope.kind not in ("DILexicalBlock", "DILexicalBlockFile"):
                return None
            scope = scope.get_field("scope")
        return None

    @property
    def inlined_at_location(self) -> DILocation | None:
        """The outermost call-site location (the end of the ``inlinedAt`` chain)."""
        loc = self.inlined_at
        last: DILocation | None = None
        while isinstance(loc, DILocation):
            last = loc
            loc = loc.inlined_at
        return last

    def __repr__(self) -> str:
        return "<%s!DILocation(line: %d, column: %d)>" % (
            ("", "distinct ", "temporary ", "deleted ")[self._storage],
            self.line,
            self.column,
        )


DIExpressionElement = Union[int, str]


class DIExpression(DINode):
    """``!DIExpression(DW_OP_plus_uconst, 8, DW_OP_stack_value)``.

    ``elements`` holds opcodes and other identifiers as strings
    (``"DW_OP_plus_uconst"``, ``"DW_ATE_signed"``) and numbers as ints; an
    opcode's arguments are the elements up to the next ``DW_OP_`` name.
    """

    __slots__ = ("elements",)

    elements: tuple[DIExpressionElement, ...]

    def __init__(self, ctx: Context, elements: tuple[DIExpressionElement, ...], storage: int) -> None:
        self._init_node(ctx, storage)
        self.kind = "DIExpression"
        self.elements = elements

    @staticmethod
    def get(ctx: Context, elements: Sequence[DIExpressionElement] = ()) -> DIExpression:  # type: ignore[override]
        elems = tuple(elements)
        key = ("DIExpression", elems)
        table = ctx.metadata_nodes
        node = table.get(key)
        if node is None:
            node = table[key] = DIExpression(ctx, elems, UNIQUED)
        return node

    def _key(self) -> Any:
        return ("DIExpression", self.elements)

    def _refs(self) -> list[Metadata]:
        return []

    def _replace_refs(self, old: Metadata, new: Metadata | None) -> None:
        pass

    def _set_operand_raw(self, index: int, md: Metadata | None) -> None:
        raise IndexError(index)

    @property
    def operands(self) -> tuple[Metadata | None, ...]:
        return ()

    @property
    def field_names(self) -> tuple[str, ...]:
        return ()

    @property
    def field_values(self) -> tuple[FieldValue, ...]:
        return ()

    # --- expression queries -------------------------------------------------------------------------
    def ops(self) -> list[tuple[DIExpressionElement, tuple[DIExpressionElement, ...]]]:
        """The expression as (opcode, arguments) pairs."""
        out: list[tuple[DIExpressionElement, tuple[DIExpressionElement, ...]]] = []
        elems = self.elements
        i = 0
        n = len(elems)
        while i < n:
            op = elems[i]
            j = i + 1
            if isinstance(op, str):
                while j < n and not _is_op(elems[j]):
                    j += 1
            out.append((op, elems[i + 1 : j]))
            i = j
        return out

    @property
    def is_empty(self) -> bool:
        return not self.elements

    @property
    def is_complex(self) -> bool:
        """True when it computes something (any op but fragment, tag offset and arg)."""
        for op, _ in self.ops():
            if op not in ("DW_OP_LLVM_fragment", "DW_OP_LLVM_tag_offset", "DW_OP_LLVM_arg"):
                return True
        return False

    @property
    def fragment(self) -> tuple[int, int] | None:
        """(offset in bits, size in bits) of a trailing ``DW_OP_LLVM_fragment``."""
        for op, args in self.ops():
            if op == "DW_OP_LLVM_fragment" and len(args) == 2:
                offset, size = args
                if isinstance(offset, int) and isinstance(size, int):
                    return offset, size
        return None

    @property
    def is_stack_value(self) -> bool:
        """True when ``DW_OP_stack_value`` ends the computation (before any fragment)."""
        ops = [op for op, _ in self.ops() if op != "DW_OP_LLVM_fragment"]
        return bool(ops) and ops[-1] == "DW_OP_stack_value"

    @property
    def has_arg_list(self) -> bool:
        return "DW_OP_LLVM_arg" in self.elements

    @property
    def num_location_operands(self) -> int:
        """One more than the highest ``DW_OP_LLVM_arg`` index (0 when none)."""
        count = 0
        for op, args in self.ops():
            if op == "DW_OP_LLVM_arg" and args and isinstance(args[0], int):
                count = max(count, args[0] + 1)
        return count

    def append(self, ops: Sequence[DIExpressionElement]) -> DIExpression:
        """A new expression with ``ops`` added before any ``DW_OP_stack_value``
        and ``DW_OP_LLVM_fragment`` (LLVM ``DIExpression::append``)."""
        out: list[DIExpressionElement] = []
        pending: Sequence[DIExpressionElement] | None = ops
        for op, args in self.ops():
            if pending is not None and op in ("DW_OP_stack_value", "DW_OP_LLVM_fragment"):
                out.extend(pending)
                pending = None
            out.append(op)
            out.extend(args)
        if pending is not None:
            out.extend(pending)
        return DIExpression.get(self.context, out)

    def prepend_opcodes(self, ops: Sequence[DIExpressionElement], stack_value: bool = False) -> DIExpression:
        """A new expression computing ``ops`` first (LLVM ``prependOpcodes``);
        ``stack_value`` adds ``DW_OP_stack_value`` unless present, before any fragment."""
        out: list[DIExpressionElement] = list(ops)
        if not out:
            stack_value = False
        for op, args in self.ops():
            if stack_value:
                if op == "DW_OP_stack_value":
                    stack_value = False
                elif op == "DW_OP_LLVM_fragment":
                    out.append("DW_OP_stack_value")
                    stack_value = False
            out.append(op)
            out.extend(args)
        if stack_value:
            out.append("DW_OP_stack_value")
        return DIExpression.get(self.context, out)

    def __repr__(self) -> str:
        return "<!DIExpression(%s)>" % ", ".join(str(e) for e in self.elements)


def _is_op(element: DIExpressionElement) -> bool:
    return isinstance(element, str) and element.startswith("DW_OP_")
