"""The argument attributes ``function-attrs`` infers (LLVM 19.1.7
``lib/Transforms/IPO/FunctionAttrs.cpp``: ``ArgumentGraph``, ``ArgumentUsesTracker``,
``determinePointerAccessAttrs``, ``addArgumentReturnedAttrs``,
``addArgumentAttrsFromCallsites``, ``addAccessAttr``, ``addArgumentAttrs``).

``returned``: the one argument every ``ret`` returns (looking through pointer casts).

``nonnull`` from call sites: an argument passed, in the entry block before anything that
may not transfer control onwards, to a callee parameter that is ``nonnull`` (and
``noundef``) is non-null in the caller too (``-enable-nonnull-arg-prop``).

``nocapture``: a read-only, non-throwing function returning nothing captures no argument.
Otherwise capture tracking walks each pointer argument's uses; a use as an argument of a
call into the SCC is not a capture yet but an edge of the *argument graph*. An argument
without such edges and not captured is ``nocapture`` at once. The argument graph's SCCs,
visited bottom-up from a synthetic root (LLVM's ``scc_iterator``), are ``nocapture``
together when none of their arguments was captured and all their edges lead to
``nocapture`` arguments or stay inside.

``readnone``/``readonly``/``writeonly``: a walk over the argument's uses (through casts,
GEPs, phis, selects and aliasing intrinsics; calls by their parameter attributes and
argument memory effects) collects reads and writes; a use the walk cannot follow gives up.
For an argument SCC, calls to arguments of the same SCC are assumed to agree, and the
members' answers are met.
"""

from __future__ import annotations

from llvmpy_mid.analysis.capture_tracking import (
    CaptureTracker,
    is_aliasing_intrinsic_without_capture,
    pointer_may_be_captured_by,
)
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_to_transfer_execution_to_successor
from llvmpy_mid.ipo.function_attrs_common import (
    NUM_NO_CAPTURE,
    NUM_READ_NONE_ARG,
    NUM_READ_ONLY_ARG,
    NUM_RETURNED,
    NUM_WRITE_ONLY_ARG,
    SCCNodeSet,
    add_param_attr,
    arg_has_nonnull,
    call_data_operand_has_attr,
    call_operand_does_not_access_memory,
    call_operand_only_reads_memory,
    fn_only_reads_memory,
    option_bool,
    remove_param_attr,
)
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.memory_effects import IRMemLocation, ModRefInfo
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.value import Use

__all__ = [
    "add_argument_attrs",
    "add_argument_attrs_from_callsites",
    "add_argument_returned_attrs",
    "determine_pointer_access_attrs",
]

READ_NONE = "readnone"
READ_ONLY = "readonly"
WRITE_ONLY = "writeonly"


class _ArgNode:
    """An argument of the argument graph and the SCC arguments its value flows into."""

    __slots__ = ("definition", "uses")

    def __init__(self, definition: Argument | None) -> None:
        self.definition = definition
        self.uses: list[_ArgNode] = []


class _ArgumentGraph:
    """The graph of argument-to-argument flows; the synthetic root uses every node
    once per lookup, as LLVM's ``operator[]`` does."""

    def __init__(self) -> None:
        self.nodes: dict[Argument, _ArgNode] = {}
        self.root = _ArgNode(None)

    def __getitem__(self, arg: Argument) -> _ArgNode:
        node = self.nodes.get(arg)
        if node is None:
            node = self.nodes[arg] = _ArgNode(arg)
        self.root.uses.append(node)
        return node

    def sccs(self) -> list[list[_ArgNode]]:
        """The SCCs reachable from the root in LLVM's ``scc_iterator`` order (Tarjan's
        walk with explicit stacks; a finished node's number becomes "infinite")."""
        out: list[list[_ArgNode]] = []
        numbers: dict[_ArgNode, int] = {}
        done = 1 << 62
        node_stack: list[_ArgNode] = []
        visit: list[_Frame] = []

        def visit_one(n: _ArgNode) -> None:
            numbers[n] = len(numbers) + 1
            node_stack.append(n)
            visit.append(_Frame(n, numbers[n]))

        visit_one(self.root)
        while visit:
            top = visit[-1]
            n = top.node
            if top.next_child < len(n.uses):
                child = n.uses[top.next_child]
                top.next_child += 1
                num = numbers.get(child)
                if num is None:
                    visit_one(child)
                elif top.min_visit > num:
                    top.min_visit = num
                continue
            visit.pop()
            if visit and visit[-1].min_visit > top.min_visit:
                visit[-1].min_visit = top.min_visit
            if top.min_visit != numbers[n]:
                continue
            scc: list[_ArgNode] = []
            while True:
                m = node_stack.pop()
                scc.append(m)
                numbers[m] = done
                if m is n:
                    break
            out.append(scc)
        return out


class _Frame:
    """A node being visited: its next child and the lowest visit number it reaches."""

    __slots__ = ("node", "next_child", "min_visit")

    def __init__(self, node: _ArgNode, number: int) -> None:
        self.node = node
        self.next_child = 0
        self.min_visit = number


class _ArgumentUsesTracker(CaptureTracker):
    """Capture tracker in which passing the pointer to an exactly defined function of the
    SCC is recorded as a flow into that function's argument instead of a capture."""

    def __init__(self, scc_nodes: SCCNodeSet) -> None:
        self.scc_nodes = scc_nodes
        self.is_captured = False
        self.uses: list[Argument] = []

    def too_many_uses(self) -> None:
        self.is_captured = True

    def captured(self, use: Use) -> bool:
        call = use.user
        if not isinstance(call, CallBase):
            self.is_captured = True
            return True
        fn = call.called_function
        if fn is None or not fn.has_exact_definition or fn not in self.scc_nodes:
            self.is_captured = True
            return True
        index = use.index
        if index >= call.arg_size or index >= len(fn.args):
            self.is_captured = True
            return True
        self.uses.append(fn.args[index])
        return False


def _push_uses(value: Instruction, visited: set[Use], worklist: list[Use]) -> None:
    u = value._use_head
    while u is not None:
        if u not in visited:
            visited.add(u)
            worklist.append(u)
        u = u._next


def determine_pointer_access_attrs(arg: Argument, scc_args: set[Argument] | frozenset[Argument]) -> str | None:
    """``readnone``, ``readonly``, ``writeonly`` or None for pointer ``arg``
    (LLVM ``determinePointerAccessAttrs``)."""
    attrs = arg.attributes
    if attrs.has("inalloca") or attrs.has("preallocated"):
        return None
    is_read = False
    is_write = False
    visited: set[Use] = set()
    worklist: list[Use] = []
    u = arg._use_head
    while u is not None:
        visited.add(u)
        worklist.append(u)
        u = u._next
    while worklist:
        if is_read and is_write:
            return None
        use = worklist.pop()
        inst = use.user
        assert isinstance(inst, Instruction)
        op = inst.opcode
        if op in ("bitcast", "getelementptr", "phi", "select", "addrspacecast"):
            _push_uses(inst, visited, worklist)
            continue
        if op in ("call", "invoke"):
            assert isinstance(inst, CallBase)
            index = use.index
            if index == len(inst.operands) - 1:  # the callee
                is_read = True
                continue
            if is_aliasing_intrinsic_without_capture(inst, False):
                _push_uses(inst, visited, worklist)
            elif not call_data_operand_has_attr(inst, index, "nocapture"):
                if not inst.only_reads_memory:
                    return None
                if not inst.type.is_void:
                    _push_uses(inst, visited, worklist)
            arg_mr = inst.memory_effects.get_mod_ref(IRMemLocation.ARG_MEM)
            if not arg_mr:
                continue
            callee = inst.called_function
            if callee is not None and index < inst.arg_size and index < len(callee.args) and callee.args[index] in scc_args:
                continue
            if call_operand_does_not_access_memory(inst, index):
                pass
            elif not arg_mr & ModRefInfo.MOD or call_operand_only_reads_memory(inst, index):
                is_read = True
            elif not arg_mr & ModRefInfo.REF or call_data_operand_has_attr(inst, index, "writeonly"):
                is_write = True
            else:
                return None
            continue
        if op == "load":
            if inst.is_volatile:
                return None
            is_read = True
            continue
        if op == "store":
            if use.index == 0 or inst.is_volatile:
                return None
            is_write = True
            continue
        if op in ("icmp", "ret"):
            continue
        return None
    if is_write and is_read:
        return None
    if is_read:
        return READ_ONLY
    if is_write:
        return WRITE_ONLY
    return READ_NONE


def add_argument_returned_attrs(scc_nodes: SCCNodeSet, changed: dict[Function, None]) -> None:
    """``returned`` on the argument every return gives back (LLVM ``addArgumentReturnedAttrs``)."""
    for fn in scc_nodes:
        if not fn.has_exact_definition or fn.return_type.is_void:
            continue
        if fn.attributes.has_attr_somewhere("returned"):
            continue
        ret_arg = _find_returned_argument(fn)
        if ret_arg is not None:
            add_param_attr(ret_arg, "returned")
            NUM_RETURNED.add()
            changed[fn] = None


def _find_returned_argument(fn: Function) -> Argument | None:
    found: Argument | None = None
    for bb in fn.blocks:
        term = bb.terminator
        if term is None or term.opcode != "ret":
            continue
        if not term.operands:
            return None
        value = strip_pointer_casts(term.operands[0])
        if not isinstance(value, Argument) or value.type is not fn.return_type:
            return None
        if found is None:
            found = value
        elif found is not value:
            return None
    return found


def add_argument_attrs_from_callsites(fn: Function) -> bool:
    """``nonnull`` on arguments passed to ``nonnull`` parameters by calls certain to run
    (LLVM ``addArgumentAttrsFromCallsites``)."""
    if not option_bool("enable-nonnull-arg-prop", True):
        return False
    changed = False
    for inst in fn.entry_block.instructions:
        if isinstance(inst, CallBase):
            callee = inst.called_function
            if callee is not None:
                for cs_arg in callee.args:
                    if not arg_has_nonnull(cs_arg, False):
                        continue
                    if cs_arg.arg_no >= inst.arg_size:
                        continue
                    f_arg = inst.args[cs_arg.arg_no]
                    if isinstance(f_arg, Argument) and f_arg.parent is fn and not arg_has_nonnull(f_arg):
                        add_param_attr(f_arg, "nonnull")
                        changed = True
        if not is_guaranteed_to_transfer_execution_to_successor(inst):
            break
    return changed


def _add_access_attr(arg: Argument, kind: str) -> bool:
    """Replace ``arg``'s access attribute by ``kind`` (LLVM ``addAccessAttr``)."""
    if arg.has_attribute(kind):
        return False
    remove_param_attr(arg, WRITE_ONLY)
    remove_param_attr(arg, READ_ONLY)
    remove_param_attr(arg, READ_NONE)
    if kind in (READ_NONE, READ_ONLY):
        remove_param_attr(arg, "writable")
    add_param_attr(arg, kind)
    if kind == READ_ONLY:
        NUM_READ_ONLY_ARG.add()
    elif kind == WRITE_ONLY:
        NUM_WRITE_ONLY_ARG.add()
    else:
        NUM_READ_NONE_ARG.add()
    return True


def _arg_only_reads_memory(arg: Argument) -> bool:
    attrs = arg.attributes
    return attrs.has(READ_ONLY) or attrs.has(READ_NONE)


def _mark_nocapture(arg: Argument, changed: dict[Function, None]) -> None:
    add_param_attr(arg, "nocapture")
    NUM_NO_CAPTURE.add()
    changed[arg.parent] = None


def _meet_access(a: str | None, b: str | None) -> str | None:
    if a == b:
        return a
    if a == READ_NONE:
        return b
    if b == READ_NONE:
        return a
    return None


def add_argument_attrs(scc_nodes: SCCNodeSet, changed: dict[Function, None]) -> None:
    """``nocapture`` and access attributes of the SCC's pointer arguments
    (LLVM ``addArgumentAttrs``)."""
    graph = _ArgumentGraph()
    for fn in scc_nodes:
        if not fn.has_exact_definition:
            continue
        if add_argument_attrs_from_callsites(fn):
            changed[fn] = None
        if fn_only_reads_memory(fn) and fn.does_not_throw and fn.return_type.is_void:
            for arg in fn.args:
                if arg.type.is_pointer and not arg.has_attribute("nocapture"):
                    _mark_nocapture(arg, changed)
            continue
        for arg in fn.args:
            if not arg.type.is_pointer:
                continue
            has_non_local_uses = False
            if not arg.has_attribute("nocapture"):
                tracker = _ArgumentUsesTracker(scc_nodes)
                pointer_may_be_captured_by(arg, tracker)
                if not tracker.is_captured:
                    if not tracker.uses:
                        _mark_nocapture(arg, changed)
                    else:
                        node = graph[arg]
                        for target in tracker.uses:
                            node.uses.append(graph[target])
                            if target is not arg:
                                has_non_local_uses = True
            if not has_non_local_uses and not _arg_only_reads_memory(arg):
                kind = determine_pointer_access_attrs(arg, frozenset((arg,)))
                if kind is not None and _add_access_attr(arg, kind):
                    changed[fn] = None
    for scc in graph.sccs():
        if len(scc) == 1:
            only = scc[0]
            self_arg = only.definition
            if self_arg is None:
                continue
            if len(only.uses) == 1 and only.uses[0] is only:
                _mark_nocapture(self_arg, changed)
                kind = determine_pointer_access_attrs(self_arg, frozenset((self_arg,)))
                if kind is not None:
                    _add_access_attr(self_arg, kind)
            continue
        members: set[Argument] = set()
        captured = False
        for member in scc:
            assert member.definition is not None
            if not member.uses and not member.definition.has_attribute("nocapture"):
                captured = True
                break
            members.add(member.definition)
        if captured:
            continue
        for member in scc:
            for dest in member.uses:
                t = dest.definition
                assert t is not None
                if not t.has_attribute("nocapture") and t not in members:
                    captured = True
                    break
            if captured:
                break
        if captured:
            continue
        scc_args = [m.definition for m in scc if m.definition is not None]
        for a in scc_args:
            _mark_nocapture(a, changed)
        access: str | None = READ_NONE
        for a in scc_args:
            access = _meet_access(access, determine_pointer_access_attrs(a, members))
            if access is None:
                break
        if access is not None:
            for a in scc_args:
                if _add_access_attr(a, access):
                    changed[a.parent] = None
