"""The function attributes ``function-attrs`` and ``rpo-function-attrs`` infer from whole
bodies and from the call graph (LLVM 19.1.7 ``lib/Transforms/IPO/FunctionAttrs.cpp``:
``AttributeInferer``, ``inferConvergent``, ``inferAttrsFromFunctionBodies``,
``addNoRecurseAttrs``, ``addNoReturnAttrs``, ``addWillReturn``, ``addNoRecurseAttrsTopDown``,
``deduceFunctionAttributeInRPO``).

The *attribute inferer* checks several SCC-wide attributes in one scan: each request names
the functions it may skip (those that already have the attribute), the instructions that
break it and how to set it. A request is dropped for the whole SCC at the first function
that has no body (or no exact one, when required) or the first breaking instruction. The
requests that survive are applied to every function not skipped. Removing ``convergent``
is one such request; ``nounwind``, ``nofree`` and ``nosync`` are the others (calls into
the SCC are assumed not to break them).

``norecurse``: a one-function SCC whose calls all go to other ``norecurse`` functions (or
to ``nocallback`` declarations). ``noreturn``: no ``ret`` is reachable from the entry
without a ``noreturn`` call in its block. ``willreturn``: a ``mustprogress`` read-only
function, or a body without cycles whose instructions all return.

Top-down (``rpo-function-attrs``): an internal function all of whose uses are calls from
``norecurse`` functions is ``norecurse``, visited in reverse post-order of the call graph.
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.analysis.cfg import find_function_backedges
from llvmpy_mid.analysis.lazy_call_graph import LazyCallGraph
from llvmpy_mid.ipo.function_attrs_common import (
    NUM_NO_FREE,
    NUM_NO_RECURSE,
    NUM_NO_SYNC,
    NUM_NO_UNWIND,
    NUM_WILL_RETURN,
    SCCNodeSet,
    add_fn_attr,
    fn_does_not_free_memory,
    fn_only_reads_memory,
    inst_may_throw,
    option_bool,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.module import Module

__all__ = [
    "InferenceDescriptor",
    "add_no_recurse_attrs",
    "add_no_return_attrs",
    "add_will_return",
    "deduce_function_attribute_in_rpo",
    "infer_attrs_from_function_bodies",
    "infer_convergent",
    "run_attribute_inferer",
]


class InferenceDescriptor:
    """One attribute request of the attribute inferer (LLVM ``InferenceDescriptor``)."""

    __slots__ = ("kind", "skip_function", "instr_breaks_attribute", "set_attribute", "requires_exact_definition")

    def __init__(
        self,
        kind: str,
        skip_function: Callable[[Function], bool],
        instr_breaks_attribute: Callable[[Instruction], bool],
        set_attribute: Callable[[Function], None],
        requires_exact_definition: bool,
    ) -> None:
        self.kind = kind
        self.skip_function = skip_function
        self.instr_breaks_attribute = instr_breaks_attribute
        self.set_attribute = set_attribute
        self.requires_exact_definition = requires_exact_definition


def run_attribute_inferer(
    descriptors: list[InferenceDescriptor], scc_nodes: SCCNodeSet, changed: dict[Function, None]
) -> None:
    """Scan the SCC once for all ``descriptors``, then set the surviving attributes
    (LLVM ``AttributeInferer::run``)."""
    in_scc = list(descriptors)
    for fn in scc_nodes:
        if not in_scc:
            return
        in_scc = [
            d
            for d in in_scc
            if d.skip_function(fn) or not (fn.is_declaration or (d.requires_exact_definition and not fn.has_exact_definition))
        ]
        in_this_fn = [d for d in in_scc if not d.skip_function(fn)]
        if not in_this_fn:
            continue
        for bb in fn.blocks:
            for inst in bb.instructions:
                broken = [d for d in in_this_fn if d.instr_breaks_attribute(inst)]
                if broken:
                    kinds = {d.kind for d in broken}
                    in_this_fn = [d for d in in_this_fn if d.kind not in kinds]
                    in_scc = [d for d in in_scc if d.kind not in kinds]
                if not in_this_fn:
                    break
            if not in_this_fn:
                break
    if not in_scc:
        return
    for fn in scc_nodes:
        for d in in_scc:
            if d.skip_function(fn):
                continue
            changed[fn] = None
            d.set_attribute(fn)


def _callee_in_scc(call: CallBase, scc_nodes: SCCNodeSet) -> bool:
    callee = call.called_function
    return callee is not None and callee in scc_nodes


def infer_convergent(scc_nodes: SCCNodeSet, changed: dict[Function, None]) -> None:
    """Drop ``convergent`` when no call outside the SCC is convergent (LLVM ``inferConvergent``)."""

    def breaks(inst: Instruction) -> bool:
        # LLVM looks the callee up in the SCC even when it is indirect (null is never there).
        return isinstance(inst, CallBase) and inst.is_convergent and not _callee_in_scc(inst, scc_nodes)

    def unset(fn: Function) -> None:
        fn.attributes = fn.attributes.without_fn_attr("convergent")

    request = InferenceDescriptor("convergent", lambda fn: not fn.attributes.has_fn_attr("convergent"), breaks, unset, False)
    run_attribute_inferer([request], scc_nodes, changed)


def _breaks_non_throwing(inst: Instruction, scc_nodes: SCCNodeSet) -> bool:
    if not inst_may_throw(inst):
        return False
    if isinstance(inst, CallInst) and _callee_in_scc(inst, scc_nodes):
        return False
    return True


def _breaks_no_free(inst: Instruction, scc_nodes: SCCNodeSet) -> bool:
    if not isinstance(inst, CallBase):
        return False
    if inst.has_fn_attr("nofree"):
        return False
    return not _callee_in_scc(inst, scc_nodes)


def _is_ordered_atomic(inst: Instruction) -> bool:
    """Atomic with an ordering stronger than ``unordered`` (a cross-thread fence counts)."""
    if not inst.is_atomic:
        return False
    op = inst.opcode
    if op == "fence":
        scope: str = inst.sync_scope  # type: ignore[attr-defined]
        return scope != "singlethread"
    if op in ("cmpxchg", "atomicrmw"):
        return True
    return not bool(inst.is_unordered)  # type: ignore[attr-defined]


_MEM_INTRINSICS = frozenset(("llvm.memcpy", "llvm.memmove", "llvm.memset", "llvm.memcpy.inline", "llvm.memset.inline"))


def _breaks_no_sync(inst: Instruction, scc_nodes: SCCNodeSet) -> bool:
    if inst.is_volatile:
        return True
    if _is_ordered_atomic(inst):
        return True
    if not isinstance(inst, CallBase):
        return False
    if inst.has_fn_attr("nosync"):
        return False
    if inst.intrinsic_base in _MEM_INTRINSICS and not inst.is_volatile:
        return False
    return not _callee_in_scc(inst, scc_nodes)


def _set_no_unwind(fn: Function) -> None:
    add_fn_attr(fn, "nounwind")
    NUM_NO_UNWIND.add()


def _set_no_free(fn: Function) -> None:
    add_fn_attr(fn, "nofree")
    NUM_NO_FREE.add()


def _set_no_sync(fn: Function) -> None:
    add_fn_attr(fn, "nosync")
    NUM_NO_SYNC.add()


def infer_attrs_from_function_bodies(scc_nodes: SCCNodeSet, changed: dict[Function, None]) -> None:
    """``nounwind``, ``nofree`` and ``nosync`` for the SCC (LLVM ``inferAttrsFromFunctionBodies``)."""
    requests: list[InferenceDescriptor] = []
    if not option_bool("disable-nounwind-inference", False):
        requests.append(
            InferenceDescriptor(
                "nounwind",
                lambda fn: fn.does_not_throw,
                lambda inst: _breaks_non_throwing(inst, scc_nodes),
                _set_no_unwind,
                True,
            )
        )
    if not option_bool("disable-nofree-inference", False):
        requests.append(
            InferenceDescriptor(
                "nofree",
                fn_does_not_free_memory,
                lambda inst: _breaks_no_free(inst, scc_nodes),
                _set_no_free,
                True,
            )
        )
    requests.append(
        InferenceDescriptor(
            "nosync",
            lambda fn: fn.attributes.has_fn_attr("nosync"),
            lambda inst: _breaks_no_sync(inst, scc_nodes),
            _set_no_sync,
            True,
        )
    )
    run_attribute_inferer(requests, scc_nodes, changed)


_SKIPPED_BY_NORECURSE = frozenset(
    ("llvm.dbg.declare", "llvm.dbg.value", "llvm.dbg.label", "llvm.dbg.assign", "llvm.pseudoprobe")
)
"""Debug intrinsics and pseudo probes: ``instructionsWithoutDebug`` does not show them."""


def add_no_recurse_attrs(scc_nodes: SCCNodeSet, changed: dict[Function, None]) -> None:
    """``norecurse`` for a one-function SCC calling only non-recursive functions
    (LLVM ``addNoRecurseAttrs``)."""
    if len(scc_nodes) != 1:
        return
    fn = next(iter(scc_nodes))
    if not fn.has_exact_definition or fn.attributes.has_fn_attr("norecurse"):
        return
    for bb in fn.blocks:
        for inst in bb.instructions:
            if not isinstance(inst, CallBase) or inst.intrinsic_base in _SKIPPED_BY_NORECURSE:
                continue
            callee = inst.called_function
            if callee is None or callee is fn:
                return
            cattrs = callee.attributes
            if not cattrs.has_fn_attr("norecurse") and not (callee.is_declaration and cattrs.has_fn_attr("nocallback")):
                return
    add_fn_attr(fn, "norecurse")
    NUM_NO_RECURSE.add()
    changed[fn] = None


def _block_can_return(bb: BasicBlock) -> bool:
    term = bb.terminator
    if term is None or term.opcode != "ret":
        return False
    for inst in bb.instructions:
        if isinstance(inst, CallBase) and inst.has_fn_attr("noreturn"):
            return False
    return True


def _can_return(fn: Function) -> bool:
    entry = fn.entry_block
    visited = {entry}
    worklist = [entry]
    while worklist:
        bb = worklist.pop()
        if _block_can_return(bb):
            return True
        for succ in bb.successors:
            if succ not in visited:
                visited.add(succ)
                worklist.append(succ)
    return False


def add_no_return_attrs(scc_nodes: SCCNodeSet, changed: dict[Function, None]) -> None:
    """``noreturn`` when no return is reachable (LLVM ``addNoReturnAttrs``)."""
    for fn in scc_nodes:
        attrs = fn.attributes
        if not fn.has_exact_definition or attrs.has_fn_attr("naked") or attrs.has_fn_attr("noreturn"):
            continue
        if not _can_return(fn):
            add_fn_attr(fn, "noreturn")
            changed[fn] = None


def _function_will_return(fn: Function) -> bool:
    if not fn.has_exact_definition:
        return False
    attrs = fn.attributes
    must_progress = attrs.has_fn_attr("mustprogress") or attrs.has_fn_attr("willreturn")
    if must_progress and fn_only_reads_memory(fn):
        return True
    if fn.is_declaration:
        return False
    if find_function_backedges(fn):
        return False
    for bb in fn.blocks:
        for inst in bb.instructions:
            if not inst.will_return():
                return False
    return True


def add_will_return(scc_nodes: SCCNodeSet, changed: dict[Function, None]) -> None:
    """``willreturn`` (LLVM ``addWillReturn``)."""
    for fn in scc_nodes:
        if fn.attributes.has_fn_attr("willreturn") or not _function_will_return(fn):
            continue
        add_fn_attr(fn, "willreturn")
        NUM_WILL_RETURN.add()
        changed[fn] = None


def _add_no_recurse_top_down(fn: Function) -> bool:
    """``norecurse`` when every use of internal ``fn`` is a call from a ``norecurse`` function."""
    u = fn._use_head
    while u is not None:
        user = u.user
        if not isinstance(user, CallBase) or u.index != len(user.operands) - 1:
            return False
        caller = user.function
        if caller is None or not caller.attributes.has_fn_attr("norecurse"):
            return False
        u = u._next
    add_fn_attr(fn, "norecurse")
    NUM_NO_RECURSE.add()
    return True


def deduce_function_attribute_in_rpo(module: Module, graph: LazyCallGraph) -> bool:
    """Top-down ``norecurse`` over the one-function SCCs (LLVM ``deduceFunctionAttributeInRPO``)."""
    worklist: list[Function] = []
    for ref_scc in graph.postorder_ref_sccs():
        for scc in ref_scc.sccs:
            if len(scc) != 1:
                continue
            fn = scc.functions[0]
            if not fn.is_declaration and not fn.attributes.has_fn_attr("norecurse") and fn.has_internal_linkage:
                worklist.append(fn)
    changed = False
    for fn in reversed(worklist):
        changed |= _add_no_recurse_top_down(fn)
    return changed
