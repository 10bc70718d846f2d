"""A function's own metadata (the metadata parts of LLVM 19's
``visitFunction`` and ``verifyFunctionMetadata``): its ``!prof`` entry count,
``!kcfi_type`` and ``!dbg`` subprogram attachments, and the check that every
``!dbg`` location of a definition (and every location in its ``!llvm.loop``
nodes) leads back to the function's subprogram.

When ``function_rules`` stopped ``visitFunction`` early, only the checks LLVM
had reached run (``function_rules.STOPPED_MEMO``). Where LLVM reads a broken
inlined-at chain through an unchecked cast, the same fields are read here.

Not done here: an instruction's attachments (``attachment_rules``), debug
records (``dbg_record_rules``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.debug_info import DILocation
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.metadata import MDNode, MDTuple, Metadata
from llvmpy_mid.ir.verifier import debug_info_rules as di
from llvmpy_mid.ir.verifier.attachment_rules import prof_name
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.debug_info_rules import kind_of, state, visit_md_node
from llvmpy_mid.ir.verifier.function_rules import (
    STOPPED_AFTER_FUNCTION_METADATA,
    STOPPED_BEFORE_DEBUG_INFO,
    STOPPED_BEFORE_METADATA,
    STOPPED_MEMO,
)
from llvmpy_mid.ir.verifier.md_operands import const_int, llvm_operands

if TYPE_CHECKING:
    from llvmpy_mid.ir.global_value import GlobalObject

_DBG = 0
_LOOP = 18


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


def _verify_function_prof_kcfi(c: Checker, items: list[tuple[int, MDNode]], prof: int, kcfi: int | None) -> None:
    """LLVM's ``verifyFunctionMetadata`` (stops at the first problem)."""
    for kind, node in items:
        ops = llvm_operands(node)
        if kind == prof:
            name = prof_name(c, node, ops)
            if name is None:
                return
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
            ci = const_int(ops[0])
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
                    for op in llvm_operands(loop)[1:]:
                        if isinstance(op, MDNode):
                            visit(inst, op)
            if di.broken_debug_info(c):
                return


__all__ = ["verify_function_metadata"]
