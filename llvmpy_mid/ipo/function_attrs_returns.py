"""The return-value attributes ``function-attrs`` infers (LLVM 19.1.7
``lib/Transforms/IPO/FunctionAttrs.cpp``: ``isFunctionMallocLike``, ``addNoAliasAttrs``,
``isReturnNonNull``, ``addNonNullAttrs``, ``addNoUndefAttrs``).

``noalias``: every function of the SCC returning a pointer is *malloc-like*: what it
returns is null, undef, an alloca or the result of a ``noalias`` call or of a call into
the SCC (looking through casts, GEPs, selects and phis), and never captured other than by
being returned.

``nonnull``: what a function returns is known non-zero, or comes (through casts, inbounds
GEPs, selects and phis) from such values or from calls into the SCC; a function whose
answer needs no SCC call is marked at once, the others when the whole SCC agrees.

``noundef``: every returned value is neither undef nor poison, and keeps the return's
``nonnull``, ``align`` and ``range`` promises (else the attribute would turn it into
poison). Functions with ``sanitize_memory`` are left alone.
"""

from __future__ import annotations

from llvmpy_mid.analysis.capture_tracking import pointer_may_be_captured
from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.constant_range_analysis import compute_constant_range
from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.analysis.loads import get_pointer_alignment
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_undef_or_poison
from llvmpy_mid.ipo.function_attrs_common import (
    NUM_NO_ALIAS,
    NUM_NO_UNDEF_RETURN,
    NUM_NON_NULL_RETURN,
    SCCNodeSet,
    add_ret_attr,
)
from llvmpy_mid.ir.constants import Constant, UndefValue
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.value import Value

__all__ = ["add_no_alias_attrs", "add_no_undef_attrs", "add_non_null_attrs"]


def _returned_values(fn: Function) -> list[Value]:
    out: list[Value] = []
    seen: set[Value] = set()
    for bb in fn.blocks:
        term = bb.terminator
        if term is not None and term.opcode == "ret" and term.operands:
            v = term.operands[0]
            if v not in seen:
                seen.add(v)
                out.append(v)
    return out


def _add_flow(v: Value, flows: list[Value], seen: set[Value]) -> None:
    if v not in seen:
        seen.add(v)
        flows.append(v)


def _is_function_malloc_like(fn: Function, scc_nodes: SCCNodeSet) -> bool:
    flows = _returned_values(fn)
    seen = set(flows)
    i = 0
    while i < len(flows):
        v = flows[i]
        i += 1
        if isinstance(v, Constant):
            if not v.is_null_value and not isinstance(v, UndefValue):
                return False
            continue
        if isinstance(v, Argument):
            return False
        if isinstance(v, Instruction):
            op = v.opcode
            if op in ("bitcast", "getelementptr", "addrspacecast"):
                _add_flow(v.operands[0], flows, seen)
                continue
            if op == "select":
                _add_flow(v.operands[1], flows, seen)
                _add_flow(v.operands[2], flows, seen)
                continue
            if op == "phi":
                for inc in v.incoming_values:  # type: ignore[attr-defined]
                    _add_flow(inc, flows, seen)
                continue
            if op == "alloca":
                pass
            elif op in ("call", "invoke"):
                assert isinstance(v, CallBase)
                callee = v.called_function
                if not v.has_ret_attr("noalias") and not (callee is not None and callee in scc_nodes):
                    return False
            else:
                return False
        if pointer_may_be_captured(v, False, False):
            return False
    return True


def add_no_alias_attrs(scc_nodes: SCCNodeSet, changed: dict[Function, None]) -> None:
    """``noalias`` returns for a malloc-like SCC (LLVM ``addNoAliasAttrs``)."""
    for fn in scc_nodes:
        if fn.attributes.has_ret_attr("noalias"):
            continue
        if not fn.has_exact_definition:
            return
        if not fn.return_type.is_pointer:
            continue
        if not _is_function_malloc_like(fn, scc_nodes):
            return
    for fn in scc_nodes:
        if fn.attributes.has_ret_attr("noalias") or not fn.return_type.is_pointer:
            continue
        add_ret_attr(fn, "noalias")
        NUM_NO_ALIAS.add()
        changed[fn] = None


def _is_return_non_null(fn: Function, scc_nodes: SCCNodeSet) -> tuple[bool, bool]:
    """(returns only non-null values, the answer assumes SCC calls return non-null)."""
    speculative = False
    flows = _returned_values(fn)
    seen = set(flows)
    module = fn.parent
    assert module is not None
    dl = module.data_layout
    i = 0
    while i < len(flows):
        v = flows[i]
        i += 1
        if is_known_non_zero(v, dl):
            continue
        if not isinstance(v, Instruction):
            return False, speculative
        op = v.opcode
        if op in ("bitcast", "addrspacecast"):
            _add_flow(v.operands[0], flows, seen)
            continue
        if op == "getelementptr":
            if v.inbounds:  # type: ignore[attr-defined]
                _add_flow(v.operands[0], flows, seen)
                continue
            return False, speculative
        if op == "select":
            _add_flow(v.operands[1], flows, seen)
            _add_flow(v.operands[2], flows, seen)
            continue
        if op == "phi":
            for inc in v.incoming_values:  # type: ignore[attr-defined]
                _add_flow(inc, flows, seen)
            continue
        if op in ("call", "invoke"):
            assert isinstance(v, CallBase)
            callee = v.called_function
            if callee is not None and callee in scc_nodes:
                speculative = True
                continue
        return False, speculative
    return True, speculative


def add_non_null_attrs(scc_nodes: SCCNodeSet, changed: dict[Function, None]) -> None:
    """``nonnull`` returns (LLVM ``addNonNullAttrs``)."""
    scc_returns_non_null = True
    for fn in scc_nodes:
        if fn.attributes.has_ret_attr("nonnull"):
            continue
        if not fn.has_exact_definition:
            return
        if not fn.return_type.is_pointer:
            continue
        non_null, speculative = _is_return_non_null(fn, scc_nodes)
        if non_null:
            if not speculative:
                add_ret_attr(fn, "nonnull")
                NUM_NON_NULL_RETURN.add()
                changed[fn] = None
            continue
        scc_returns_non_null = False
    if scc_returns_non_null:
        for fn in scc_nodes:
            if fn.attributes.has_ret_attr("nonnull") or not fn.return_type.is_pointer:
                continue
            add_ret_attr(fn, "nonnull")
            NUM_NON_NULL_RETURN.add()
            changed[fn] = None


def _return_keeps_promises(fn: Function, v: Value) -> bool:
    """``v`` is well defined and satisfies the return's nonnull/align/range attributes."""
    if not is_guaranteed_not_to_be_undef_or_poison(v):
        return False
    attrs = fn.attributes
    module = fn.parent
    assert module is not None
    dl = module.data_layout
    if attrs.has_ret_attr("nonnull") and not is_known_non_zero(v, dl):
        return False
    align = attrs.ret_alignment
    if align is not None and get_pointer_alignment(v, dl) < align:
        return False
    rng = attrs.get_ret_attr("range")
    if rng is not None:
        want = ConstantRange(rng.range_type.width, rng.range_lower, rng.range_upper)
        if not want.contains_range(compute_constant_range(v, False)):
            return False
    return True


def add_no_undef_attrs(scc_nodes: SCCNodeSet, changed: dict[Function, None]) -> None:
    """``noundef`` returns (LLVM ``addNoUndefAttrs``)."""
    for fn in scc_nodes:
        attrs = fn.attributes
        if attrs.has_ret_attr("noundef"):
            continue
        if not fn.has_exact_definition:
            return
        if attrs.has_fn_attr("sanitize_memory"):
            continue
        if fn.return_type.is_void:
            continue
        ok = True
        for bb in fn.blocks:
            term = bb.terminator
            if term is not None and term.opcode == "ret" and term.operands:
                if not _return_keeps_promises(fn, term.operands[0]):
                    ok = False
                    break
        if ok:
            add_ret_attr(fn, "noundef")
            NUM_NO_UNDEF_RETURN.add()
            changed[fn] = None
