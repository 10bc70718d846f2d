"""The metadata node walk (LLVM 19's ``visitMDNode``), ``visitNamedMDNode``,
``verifyCompileUnits`` and a global variable's ``!dbg``; and the entry point
to the debug-info checks for the other rule modules (re-exported below).

:func:`visit_md_node` walks a node and everything it reaches, depth first in
operand order, exactly once per verifier run (the set of visited nodes lives
in the checker's memo), so a module with a large ``-g`` graph is checked in
time linear in the graph. The walk is iterative (a deep graph cannot
overflow the Python stack); for each node it runs the node's own visitor
(:mod:`~llvmpy_mid.ir.verifier.di_visitors`), then its operands, then the
"forward declaration" and "resolved" checks, in LLVM's order. Findings about
debug info use ``c.fail_debug_info`` (opt-19 then drops the debug info and
only warns); the few generic metadata findings (a function-local value in a
global node, a temporary node) use ``c.fail``.

Layout: node readers in :mod:`~llvmpy_mid.ir.verifier.di_nodes`, expression
reading in :mod:`llvmpy_mid.ir.di_expression`, the per-run state in
:mod:`~llvmpy_mid.ir.verifier.metadata_state`, diagnostic text in
:mod:`~llvmpy_mid.ir.verifier.metadata_text`.

Checks run as ``opt-19`` runs them: its context uniques debug types by ODR
identifier, so "DICompileUnit not listed in llvm.dbg.cu" is skipped and the
nested-definition rule applies (:data:`ODR_UNIQUING_DEBUG_TYPES`). Where LLVM
reads a broken node through an unchecked cast (a release build), the same
fields are read here, so the findings and the values printed agree.

Not done here: the checks of each node kind (``di_visitors``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llvmpy_mid.ir.debug_info import OPERAND_ORDER, DIEnum, DIExpression, DIFieldNode, DILocation
from llvmpy_mid.ir.di_expression import expression_is_well_formed, expression_values, fragment_info, is_entry_value
from llvmpy_mid.ir.metadata import MDNode, MDTuple, Metadata, NamedMDNode, ValueAsMetadata
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.di_nodes import (
    di_flags,
    is_definition,
    is_local_scope,
    is_type,
    kind_of,
    llvm_operand0,
    llvm_tag,
    raw_subprogram,
    variable_size,
)
from llvmpy_mid.ir.verifier.di_visitors import (
    VISITORS,
    expression_is_valid,
    verify_fragment,
    visit_global_variable_expression,
)
from llvmpy_mid.ir.verifier.metadata_state import MDState, broken_debug_info, clean_set, state
from llvmpy_mid.ir.verifier.metadata_text import md_ref, named_md_text, record_text

if TYPE_CHECKING:
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.global_value import GlobalVariable
    from llvmpy_mid.ir.module import Module

ODR_UNIQUING_DEBUG_TYPES = True
"""Check as ``opt-19`` does: its context uniques debug types by their ODR
identifier (``-disable-debug-info-type-map`` turns that off), which makes the
verifier skip the "DICompileUnit not listed in llvm.dbg.cu" check and forbid a
subprogram definition nested in an identified composite type without a
declaration. ``llvm-as-19`` runs with it off; set False to check as it does."""

# --- the node walk -------------------------------------------------------------------------------------

_OPERAND_PLANS: dict[tuple[str, tuple[str, ...]], tuple[int, ...]] = {}


def node_operands(node: MDNode) -> tuple[Metadata | None, ...] | list[Metadata | None]:
    """The node's metadata operands in LLVM's operand order (absent ones may be left out)."""
    t = type(node)
    if t is MDTuple:
        return node._ops  # type: ignore[attr-defined,no-any-return]
    if t is DILocation:
        return (node.scope, node.inlined_at)  # type: ignore[attr-defined]
    if t is DIExpression:
        return ()
    if t is DIFieldNode and node.kind != "GenericDINode":  # type: ignore[attr-defined]
        names: tuple[str, ...] = node._names  # type: ignore[attr-defined]
        key = (node.kind, names)  # type: ignore[attr-defined]
        plan = _OPERAND_PLANS.get(key)
        if plan is None:
            index = {name: i for i, name in enumerate(names)}
            plan = _OPERAND_PLANS[key] = tuple(index[n] for n in OPERAND_ORDER.get(key[0], ()) if n in index)
        values = node._values  # type: ignore[attr-defined]
        return [v for v in [values[i] for i in plan] if isinstance(v, Metadata)]
    try:
        return node.operands
    except Exception:
        return ()



def visit_md_node(c: Checker, root: MDNode, allow_locations: bool) -> None:
    """LLVM's ``visitMDNode``: check ``root`` and every node it reaches, each once per run."""
    visited = state(c).visited
    if id(root) in visited:
        return
    module = c.module
    ctx = module.context if module is not None else None
    # Each frame: [node, allow, operands, next operand index].
    stack: list[list[Any]] = []

    def enter(node: MDNode, allow: bool) -> None:
        visited.add(id(node))
        if ctx is not None and node.context is not ctx:
            c.fail("MDNode context does not match Module context!", node)
            return
        kind = kind_of(node)
        if kind is not None:
            visitor = VISITORS.get(kind)
            if visitor is not None:
                visitor(c, node)
        stack.append([node, allow, node_operands(node), 0])

    enter(root, allow_locations)
    while stack:
        frame = stack[-1]
        node, allow, ops, i = frame
        if i < len(ops):
            frame[3] = i + 1
            op = ops[i]
            if op is None:
                continue
            if op.is_local_as_metadata:
                c.fail("Invalid operand for global metadata!", node, op)
                stack.pop()
                continue
            if not allow and isinstance(op, DILocation):
                c.fail_debug_info("DILocation not allowed within this metadata node", node, op)
                stack.pop()
                continue
            if op.is_md_node and id(op) not in visited:
                enter(op, allow)
            continue
        stack.pop()
        if node.is_temporary:
            c.fail("Expected no forward declarations!", node)
        elif not node.is_resolved:
            c.fail("All nodes should be resolved!", node)


def visit_value_as_metadata(c: Checker, md: ValueAsMetadata, fn: Function | None) -> None:
    """LLVM's ``visitValueAsMetadata``: a function-local value must be in ``fn``."""
    if not md.is_local_as_metadata:
        return
    if fn is None:
        c.fail("function-local metadata used outside a function", md)
        return
    value: Any = md.value
    actual = None
    if value.is_instruction:
        if value.parent is None:
            c.fail("function-local metadata not in basic block", md, value)
            return
        actual = value.parent.parent
    elif value.is_basic_block or value.is_argument:
        actual = value.parent
    if actual is not fn:
        c.fail("function-local metadata used in wrong function", md)


# --- module level -------------------------------------------------------------------------------------


def verify_global_variable_dbg(c: Checker, gv: GlobalVariable) -> bool:
    """The ``!dbg`` attachments of a global variable (LLVM's visitGlobalVariable
    part); False when one is not an expression (LLVM then leaves the variable)."""
    for node in gv.get_all_metadata("dbg"):
        if kind_of(node) == "DIGlobalVariableExpression":
            visit_global_variable_expression(c, node)  # type: ignore[arg-type]
        else:
            c.fail_debug_info("!dbg attachment of global variable must be a DIGlobalVariableExpression")
            return False
    return True


def visit_named_metadata(c: Checker, nmd: NamedMDNode) -> None:
    """LLVM's ``visitNamedMDNode``."""
    name = nmd.name
    if name.startswith("llvm.dbg.") and name != "llvm.dbg.cu":
        c.fail_debug_info("unrecognized named metadata node in the llvm.dbg namespace", named_md_text(c, nmd))
        return
    is_cu_list = name == "llvm.dbg.cu"
    for node in nmd.operands:
        if is_cu_list and kind_of(node) != "DICompileUnit":
            c.fail_debug_info("invalid compile unit", named_md_text(c, nmd), node)
            return
        if node is None:
            continue
        visit_md_node(c, node, True)


def verify_compile_units(c: Checker, module: Module) -> None:
    """LLVM's ``verifyCompileUnits``: every compile unit reached is listed in
    ``llvm.dbg.cu`` (skipped under ODR uniquing, see :data:`ODR_UNIQUING_DEBUG_TYPES`)."""
    st = state(c)
    if ODR_UNIQUING_DEBUG_TYPES:
        st.cu_visited.clear()
        return
    cus = module.get_named_metadata("llvm.dbg.cu")
    listed: set[int] = {id(n) for n in cus.operands} if cus is not None else set()
    for key, cu in st.cu_visited.items():
        if key not in listed:
            c.fail_debug_info("DICompileUnit not listed in llvm.dbg.cu", cu)
    st.cu_visited.clear()



__all__ = [
    "ODR_UNIQUING_DEBUG_TYPES",
    "DIEnum",
    "MDState",
    "broken_debug_info",
    "clean_set",
    "di_flags",
    "expression_is_valid",
    "expression_is_well_formed",
    "expression_values",
    "fragment_info",
    "is_definition",
    "is_entry_value",
    "is_local_scope",
    "is_type",
    "kind_of",
    "llvm_operand0",
    "llvm_tag",
    "md_ref",
    "node_operands",
    "raw_subprogram",
    "record_text",
    "state",
    "variable_size",
    "verify_compile_units",
    "verify_fragment",
    "verify_global_variable_dbg",
    "visit_md_node",
    "visit_named_metadata",
    "visit_value_as_metadata",
]
