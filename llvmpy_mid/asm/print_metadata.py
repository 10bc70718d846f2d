"""Metadata text for the assembly printer: tuples, ``!DI*`` nodes,
``!DIExpression``, ``!DIArgList`` and ``!DILocation``.

Debug-info nodes print their fields in LLVM 19's order with LLVM's rules
for leaving defaults out, from :data:`~llvmpy_mid.ir.debug_info_tables.FIELD_SPECS`
(``ALWAYS`` fields print even when absent, ``SKIP_DEFAULT`` ones only when
they differ from the default, ``INPUT_ONLY`` ones never). The quirks the
table cannot state are handled here: ``flags``/``spFlags`` are printed from
their bit value in LLVM's canonical order; ``spFlags`` is always printed and
is derived from the legacy ``isLocal``/``isDefinition``/``isOptimized``/
``virtuality`` fields when absent; ``virtualIndex`` is printed when the
subprogram is virtual or the index is non-zero; DISubrange bounds held as
``ConstantAsMetadata`` print as integers; and the pointer-authentication
fields of ``DW_TAG_LLVM_ptrauth_type``. (The setter/getter swap of
``DIObjCProperty`` happens in LLVM's parser, and so in ours; fields print as
stored.)

Node bodies only are produced here (``!0 = `` and numbering belong to the
module printer and the slot tracker).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llvmpy_mid.asm.print_names import escape
from llvmpy_mid.ir.debug_info_tables import (
    ALWAYS,
    FIELD_SPECS,
    INPUT_ONLY,
    OPERAND_ORDER,
    DIEnum,
    flags_value,
    split_di_flags,
    split_disp_flags,
)
from llvmpy_mid.ir.metadata import MDString, Metadata
from llvmpy_mid.ir.di_expression import expression_is_well_formed, expression_values

if TYPE_CHECKING:
    from llvmpy_mid.asm.print_context import WriterContext
    from llvmpy_mid.ir.debug_info import DIExpression, DILocation, DINode
    from llvmpy_mid.ir.metadata import DIArgList, MDNode

_VIRTUALITY = {"DW_VIRTUALITY_none": 0, "DW_VIRTUALITY_virtual": 1, "DW_VIRTUALITY_pure_virtual": 2}


_U64 = (1 << 64) - 1

def expression_text(expr: DIExpression) -> str:
    """``!DIExpression(DW_OP_plus_uconst, 8, DW_OP_stack_value)``."""
    elems = expr.elements
    if not elems:
        return "!DIExpression()"
    if not expression_is_well_formed(expr):
        # LLVM prints the elements of an invalid expression as numbers.
        values = expression_values(expr)
        return "!DIExpression(" + ", ".join([str(v & _U64) if v >= 0 else str(e) for v, e in zip(values, elems)]) + ")"
    return "!DIExpression(" + ", ".join([e if type(e) is str else str(e) for e in elems]) + ")"


def arg_list_text(ctx: WriterContext, al: DIArgList) -> str:
    """``!DIArgList(i32 %a, i32 %b)``."""
    typed = ctx.typed
    return "!DIArgList(" + ", ".join([typed(a.value) for a in al.args]) + ")"


def location_text(ctx: WriterContext, loc: DILocation) -> str:
    """``!DILocation(line: 3, column: 7, scope: !5)`` (the body, no ``distinct``)."""
    text = "!DILocation(line: " + str(loc.line)
    if loc.column:
        text += ", column: " + str(loc.column)
    text += ", scope: " + ctx.md_operand(loc.scope)
    if loc.inlined_at is not None:
        text += ", inlinedAt: " + ctx.md_operand(loc.inlined_at)
    if loc.is_implicit_code:
        text += ", isImplicitCode: true"
    return text + ")"


def tuple_text(ctx: WriterContext, ops: tuple[Metadata | None, ...]) -> str:
    """``!{!1, i32 0, null}``."""
    parts: list[str] = []
    for md in ops:
        if md is None:
            parts.append("null")
        elif md.is_value_as_metadata:
            parts.append(ctx.typed(md.value))  # type: ignore[attr-defined]
        else:
            parts.append(ctx.md_operand(md))
    return "!{" + ", ".join(parts) + "}"


def node_text(ctx: WriterContext, node: MDNode) -> str:
    """The body of a numbered node, with ``distinct`` when it is one."""
    storage = node._storage
    prefix = "distinct " if storage == 1 else ("<temporary!> " if storage == 2 else "")
    if node.is_md_tuple:
        return prefix + tuple_text(ctx, node.operands)
    kind = node.kind  # type: ignore[attr-defined]
    if kind == "DILocation":
        return prefix + location_text(ctx, node)  # type: ignore[arg-type]
    if kind == "DIExpression":
        return prefix + expression_text(node)  # type: ignore[arg-type]
    return prefix + di_node_text(ctx, node)  # type: ignore[arg-type]


# Fields LLVM prints as plain strings (``name: "x"``); an ``MDString`` in any
# other field is metadata (``value: !"x"``).
_STRING_FIELDS = frozenset(
    (
        "name",
        "linkageName",
        "producer",
        "splitDebugFilename",
        "sysroot",
        "sdk",
        "filename",
        "directory",
        "checksum",
        "source",
        "header",
        "configMacros",
        "includePath",
        "apinotes",
        "identifier",
        "targetFuncName",
        "setter",
        "getter",
    )
)


def _is_string_field(kind: str, name: str) -> bool:
    if name in _STRING_FIELDS:
        return True
    return (kind == "DICompileUnit" and name == "flags") or (kind == "DIMacro" and name == "value")


def _scalar(ctx: WriterContext, value: Any) -> str:
    if value is None:
        return "null"
    t = type(value)
    if t is bool:
        return "true" if value else "false"
    if t is int:
        return str(value)
    if t is MDString:
        return '"' + escape(value.string) + '"'
    if t is DIEnum:
        return " | ".join(value.names)
    if t is tuple:
        return "{" + ", ".join([ctx.md_operand(v) for v in value]) + "}"
    return ctx.md_operand(value)


def _flag_int(value: Any) -> int:
    if type(value) is DIEnum:
        return flags_value(value.names)
    if value is None:
        return 0
    return int(value)


def _is_absent(value: Any, default: Any) -> bool:
    """True when a SKIP_DEFAULT field should be left out."""
    if value is None:
        return True
    t = type(value)
    if t is MDString and not value.string:
        return True
    if default is None:
        return False
    if t is DIEnum:
        if not value.names:
            return default == 0 and type(default) is int
        return type(default) is DIEnum and value == default
    if t is tuple:
        return not value and default == ()
    if (t is int or t is bool) and (type(default) is int or type(default) is bool):
        return bool(value == default)
    return False


def _const_int_text(value: Any) -> str | None:
    """A ``ConstantAsMetadata`` of an integer printed as a signed number."""
    if value is not None and getattr(value, "is_constant_as_metadata", False):
        c = value.value
        v = getattr(c, "sext_value", None)
        if v is not None:
            return str(v)
    return None


# Print modes of a field in a node's plan.
_ALWAYS = 0
_SKIP = 1
_FLAGS = 2
_SP_FLAGS = 3
_VIRTUAL_INDEX = 4
_PTRAUTH_INT = 5
_PTRAUTH_BOOL = 6
_BOUND = 7
_ALIGN = 8
_SKIP_MD = 9
_ALWAYS_MD = 10

_Step = tuple[str, int, int, Any]
_PLANS: dict[tuple[str, tuple[str, ...]], tuple[_Step, ...]] = {}


def _print_plan(kind: str, names: tuple[str, ...]) -> tuple[_Step, ...]:
    """For one kind and one stored field list: (label, stored index or -1, mode, default)
    per printed field, in LLVM's order."""
    key = (kind, names)
    plan = _PLANS.get(key)
    if plan is not None:
        return plan
    index = {name: i for i, name in enumerate(names)}
    steps: list[_Step] = []
    for spec in FIELD_SPECS[kind]:
        name = spec.name
        if spec.rule == INPUT_ONLY:
            continue
        i = index.get(name, -1)
        if kind == "DISubprogram" and name == "spFlags":
            mode = _SP_FLAGS
        elif kind == "DISubprogram" and name == "virtualIndex":
            mode = _VIRTUAL_INDEX
        elif name == "flags" and kind != "DICompileUnit":
            mode = _FLAGS
        elif kind == "DIDerivedType" and name in ("ptrAuthKey", "ptrAuthExtraDiscriminator"):
            mode = _PTRAUTH_INT
        elif kind == "DIDerivedType" and name.startswith("ptrAuth"):
            mode = _PTRAUTH_BOOL
        elif kind == "DIDerivedType" and name == "align":
            mode = _ALIGN
        elif (kind == "DISubrange" and name in ("count", "lowerBound", "upperBound", "stride")) or (
            kind == "DICompositeType" and name == "rank"
        ):
            mode = _BOUND
        elif spec.rule == ALWAYS:
            mode = _ALWAYS if _is_string_field(kind, name) else _ALWAYS_MD
        else:
            mode = _SKIP if _is_string_field(kind, name) else _SKIP_MD
        steps.append((name + ": ", i, mode, spec.default))
    plan = _PLANS[key] = tuple(steps)
    return plan


_PTRAUTH_TAG = DIEnum.of("DW_TAG_LLVM_ptrauth_type")


def di_node_text(ctx: WriterContext, node: DINode) -> str:
    """``!DISubprogram(name: "f", ...)`` and every other specialised kind."""
    kind = node.kind
    names = node.field_names
    values: tuple[Any, ...] = node.field_values
    plan = _print_plan(kind, names)
    parts: list[str] = []
    add = parts.append
    ptrauth = False
    sp = 0
    if kind == "DIDerivedType":
        ptrauth = "tag" in names and values[names.index("tag")] == _PTRAUTH_TAG
    elif kind == "DISubprogram":
        sp = _sp_flags(dict(zip(names, values)))
    scalar = _scalar
    md_refs = ctx.slots.md_refs if ctx.slots is not None else {}
    for label, i, mode, default in plan:
        if mode <= _SKIP or mode >= _SKIP_MD:
            # The common modes, with the common value types handled inline.
            if i < 0:
                if mode == _ALWAYS or mode == _ALWAYS_MD:
                    add(label + scalar(ctx, default))
                continue
            value = values[i]
            t = type(value)
            if t is int:
                if (mode == _SKIP or mode == _SKIP_MD) and type(default) is int and value == default:
                    continue
                add(label + str(value))
                continue
            if value is not None and t is not MDString and t is not DIEnum and t is not bool and t is not tuple:
                ref = md_refs.get(id(value))
                add(label + (ref if ref is not None else ctx.md_operand(value)))
                continue
            if mode == _SKIP_MD:
                if t is MDString:
                    add(label + ctx.md_operand(value))
                elif not _is_absent(value, default):
                    add(label + scalar(ctx, value))
            elif mode == _SKIP:
                if not _is_absent(value, default):
                    add(label + scalar(ctx, value))
            elif mode == _ALWAYS_MD and t is MDString:
                add(label + ctx.md_operand(value))
            else:
                add(label + scalar(ctx, value))
            continue
        value = values[i] if i >= 0 else None
        if mode == _FLAGS:
            bits = _flag_int(value)
            if bits:
                add(label + " | ".join(split_di_flags(bits)))
        elif mode == _SP_FLAGS:
            add(label + (" | ".join(split_disp_flags(sp)) if sp else "0"))
        elif mode == _VIRTUAL_INDEX:
            index = _flag_int(value) if i >= 0 else 0
            if sp & 3 or index:
                add(label + str(index))
        elif mode == _BOUND:
            if value is not None:
                as_int = _const_int_text(value)
                add(label + (as_int if as_int is not None else scalar(ctx, value)))
        elif mode == _ALIGN:
            if not ptrauth and i >= 0 and not _is_absent(value, default):
                add(label + scalar(ctx, value))
        elif ptrauth:
            if mode == _PTRAUTH_INT:
                if value:
                    add(label + scalar(ctx, value))
            else:
                add(label + ("true" if value else "false"))
    return "!" + kind + "(" + ", ".join(parts) + ")"


_OPERAND_PLANS: dict[tuple[str, tuple[str, ...]], tuple[int, ...]] = {}


def node_operands(node: MDNode) -> tuple[Metadata | None, ...] | list[Metadata | None]:
    """A node's operands in LLVM's operand order (what slot numbering walks),
    without the per-call cost of ``DINode.operands``."""
    if node.is_md_tuple:
        return node._ops  # type: ignore[attr-defined,no-any-return]
    kind = node.kind  # type: ignore[attr-defined]
    if kind == "DILocation":
        return (node.scope, node.inlined_at)  # type: ignore[attr-defined]
    if kind == "DIExpression" or kind == "GenericDINode":
        return node.operands
    names: tuple[str, ...] = node._names  # type: ignore[attr-defined]
    key = (kind, names)
    plan = _OPERAND_PLANS.get(key)
    if plan is None:
        index = {name: i for i, name in enumerate(names)}
        plan = _OPERAND_PLANS[key] = tuple(index[n] for n in OPERAND_ORDER[kind] if n in index)
    values = node._values  # type: ignore[attr-defined]
    return [v for v in [values[i] for i in plan] if isinstance(v, Metadata)]


def _sp_flags(fields: dict[str, Any]) -> int:
    if "spFlags" in fields:
        return _flag_int(fields["spFlags"])
    virtuality = fields.get("virtuality", 0)
    if type(virtuality) is DIEnum:
        virtuality = _VIRTUALITY.get(virtuality.name, 0)
    value = int(virtuality or 0) & 3
    if fields.get("isLocal"):
        value |= 1 << 2
    if fields.get("isDefinition", True):
        value |= 1 << 3
    if fields.get("isOptimized"):
        value |= 1 << 4
    return value


__all__ = [
    "arg_list_text",
    "di_node_text",
    "expression_text",
    "location_text",
    "node_operands",
    "node_text",
    "tuple_text",
]
