"""The Attributor's boolean function attributes (LLVM 19.1.7
``lib/Transforms/IPO/AttributorAttributes.cpp``: ``AANoUnwind``, ``AANoSync``,
``AANoFree``, ``AAWillReturn``, ``AAMustProgress``, ``AANoReturn``, ``AANoRecurse``,
with ``AACalleeToCallSite`` and the call edges / inter-procedural reachability the
light configuration leaves them).

Each holds one bit, assumed until an update disproves it: a function is ``nounwind``
while every instruction that may throw is a call assumed ``nounwind``; a call site takes
what its callee has (``AACalleeToCallSite``). ``nofree`` also exists for pointer
arguments and call site arguments (their uses must only reach ``nofree`` call site
arguments, loads, stores and returns). ``willreturn`` needs a body without cycles (the
loop analyses are not cached in the light module pass) and calls that will return and do
not recurse; ``mustprogress`` and read-only imply it. ``norecurse`` holds when every call
site is in a known ``norecurse`` function, or when no call reachable from the entry can
reach the function again over the call edges (direct callees; an indirect call or a
declaration without ``nocallback`` may reach anything).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, ClassVar, Iterator, Sequence

from llvmpy_mid.ipo.attributor_aa import (
    IR_ATTR_AAS,
    ChangeStatus,
    DepClass,
    IRAttributeAA,
    has_assumed_ir_attr,
)
from llvmpy_mid.ipo.attributor_position import IRPosition, PositionKind
from llvmpy_mid.ipo.function_attrs_common import inst_may_throw
from llvmpy_mid.ir.attributes import AttributeSet
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.flags import AtomicOrdering
from llvmpy_mid.ir.memory_effects import MemoryEffects

if TYPE_CHECKING:
    from llvmpy_mid.ipo.attributor import Attributor

__all__ = [
    "AAMustProgress",
    "AANoFree",
    "AANoRecurse",
    "AANoReturn",
    "AANoSync",
    "AANoUnwind",
    "AAWillReturn",
    "CallEdges",
    "call_edges",
    "check_for_all_callees",
    "clamp_from_callees",
    "function_scope",
]

_MEM_INTRINSICS = frozenset(("llvm.memcpy", "llvm.memmove", "llvm.memset", "llvm.memcpy.inline", "llvm.memset.inline"))
_RELAXED = (AtomicOrdering.UNORDERED, AtomicOrdering.MONOTONIC)


def function_scope(pos: IRPosition) -> IRPosition:
    """LLVM ``IRPosition::function_scope``."""
    if pos.is_any_call_site_position:
        assert isinstance(pos.anchor, CallBase)
        return IRPosition.callsite_function(pos.anchor)
    fn = pos.associated_function
    assert fn is not None
    return IRPosition.function(fn)


# --- call edges ---------------------------------------------------------------------------------
class CallEdges:
    """The optimistic callees of a call (LLVM ``AACallEdges`` without value simplification)."""

    __slots__ = ("callees", "has_unknown", "has_unknown_non_asm")

    def __init__(self) -> None:
        self.callees: list[Function] = []
        self.has_unknown = False
        self.has_unknown_non_asm = False


def has_assumption(attrs: AttributeSet, assumption: str) -> bool:
    """``hasAssumption``: ``assumption`` among the ``"llvm.assume"`` strings."""
    value = attrs.string_value("llvm.assume")
    return value is not None and assumption in value.split(",")


def call_edges(call: CallBase) -> CallEdges:
    edges = CallEdges()
    asm = call.inline_asm
    if asm is not None:
        caller = call.function
        if (
            asm.has_side_effects
            and not (caller is not None and has_assumption(caller.attributes.fn_attrs, "ompx_no_call_asm"))
            and not has_assumption(call.attributes.fn_attrs, "ompx_no_call_asm")
        ):
            edges.has_unknown = True
        return edges
    callee = call.called_operand
    if isinstance(callee, Function):
        edges.callees.append(callee)
    else:
        edges.has_unknown = edges.has_unknown_non_asm = True
    return edges


def check_for_all_callees(pred: Callable[[Sequence[Function]], bool], call: CallBase) -> bool:
    """LLVM ``checkForAllCallees``."""
    callee = call.called_operand
    if isinstance(callee, Function):
        return pred([callee])
    edges = call_edges(call)
    if edges.has_unknown:
        return False
    return pred(edges.callees)


def callee_to_call_site_update(aa: IRAttributeAA, a: Attributor) -> ChangeStatus:
    """``AACalleeToCallSite::updateImpl`` for a boolean attribute."""
    call = aa.pos.anchor
    assert isinstance(call, CallBase)
    returned = aa.pos.kind == PositionKind.CALL_SITE_RETURNED

    def pred(callees: Sequence[Function]) -> bool:
        for callee in callees:
            fn_pos = IRPosition.returned(callee) if returned else IRPosition.function(callee)
            if not has_assumed_ir_attr(a, aa, fn_pos, aa.IR_KIND, DepClass.REQUIRED)[0]:
                return False
        return True

    if not check_for_all_callees(pred, call):
        return aa.indicate_pessimistic_fixpoint()
    return ChangeStatus.UNCHANGED


def clamp_from_callees(
    aa: IRAttributeAA, a: Attributor, cls: type[IRAttributeAA], callee_position: Callable[[Function], IRPosition]
) -> ChangeStatus:
    """``AACalleeToCallSite::updateImpl`` for a bit-set state: the call site's state meets the
    state of ``cls`` at ``callee_position(callee)`` of every possible callee."""
    call = aa.pos.anchor
    assert isinstance(call, CallBase)
    changed = ChangeStatus.UNCHANGED

    def pred(callees: Sequence[Function]) -> bool:
        nonlocal changed
        for callee in callees:
            fn_aa = a.get_aa_for(cls, aa, callee_position(callee), DepClass.REQUIRED)
            if fn_aa is None:
                return False
            changed = ChangeStatus(changed | aa.state.clamp(fn_aa.state))
            if aa.state.is_at_fixpoint():
                return aa.state.is_valid()
        return True

    if not check_for_all_callees(pred, call):
        return aa.indicate_pessimistic_fixpoint()
    return changed


def _is_fn_scope_or_pointer(pos: IRPosition) -> bool:
    return pos.is_function_scope or pos.associated_type.is_ptr_or_ptr_vector


# --- nounwind --------------------------------------------------------------------------------------
class AANoUnwind(IRAttributeAA):
    ID = "AANoUnwind"
    IR_KIND = "nounwind"
    _OPCODES: ClassVar[tuple[str, ...]] = ("invoke", "callbr", "call", "cleanupret", "catchswitch", "resume")

    def update_impl(self, a: Attributor) -> ChangeStatus:
        if self.pos.kind == PositionKind.CALL_SITE:
            return callee_to_call_site_update(self, a)

        def check(inst: Instruction) -> bool:
            if not inst_may_throw(inst):
                return True
            if isinstance(inst, CallBase):
                return has_assumed_ir_attr(a, self, IRPosition.callsite_function(inst), "nounwind", DepClass.REQUIRED)[0]
            return False

        if not a.check_for_all_instructions(check, self.pos.associated_function, self._OPCODES):
            return self.indicate_pessimistic_fixpoint()
        return ChangeStatus.UNCHANGED


# --- nosync ----------------------------------------------------------------------------------------
def _is_non_relaxed_atomic(inst: Instruction) -> bool:
    if not inst.is_atomic:
        return False
    op = inst.opcode
    if op == "fence":
        return str(getattr(inst, "sync_scope", "")) != "singlethread"
    if op == "cmpxchg":
        success: AtomicOrdering = getattr(inst, "success_ordering")
        failure: AtomicOrdering = getattr(inst, "failure_ordering")
        return success != AtomicOrdering.MONOTONIC or failure != AtomicOrdering.MONOTONIC
    ordering: AtomicOrdering = getattr(inst, "ordering")
    return ordering not in _RELAXED


def _is_no_sync_intrinsic(call: CallBase) -> bool:
    if call.intrinsic_base not in _MEM_INTRINSICS:
        return False
    flag = call.get_arg(3) if call.arg_size > 3 else None
    return not (isinstance(flag, ConstantInt) and flag.value != 0)


def is_no_sync_inst(a: Attributor, inst: Instruction, querying: IRAttributeAA) -> bool:
    """LLVM ``AA::isNoSyncInst``."""
    if isinstance(inst, CallBase):
        if inst.has_fn_attr("nosync"):
            return True
        if not inst.is_convergent and not inst.may_read_or_write_memory():
            return True
        if _is_no_sync_intrinsic(inst):
            return True
        return has_assumed_ir_attr(a, querying, IRPosition.callsite_function(inst), "nosync", DepClass.OPTIONAL)[0]
    if not inst.may_read_or_write_memory():
        return True
    return not inst.is_volatile and not _is_non_relaxed_atomic(inst)


def memory_effects_at(a: Attributor, pos: IRPosition, ignore_subsuming: bool) -> MemoryEffects:
    me = MemoryEffects.unknown()
    for attr in a.get_attrs(pos, ("memory",), ignore_subsuming):
        me = me & attr.memory_effects
    return me


class AANoSync(IRAttributeAA):
    ID = "AANoSync"
    IR_KIND = "nosync"

    @classmethod
    def is_valid_position_for_init(cls, a: Attributor, pos: IRPosition) -> bool:
        return _is_fn_scope_or_pointer(pos)

    @classmethod
    def is_implied_by_ir(cls, a: Attributor, pos: IRPosition, ignore_subsuming: bool = False) -> bool:
        if a.has_attr(pos, ("nosync",), ignore_subsuming, "nosync"):
            return True
        fn = pos.associated_function
        if fn is None or fn.attributes.has_fn_attr("convergent"):
            return False
        if not memory_effects_at(a, pos, ignore_subsuming).only_reads_memory:
            return False
        a.manifest_attrs(pos, [IRAttributeAA.enum_attr("nosync")])
        return True

    def update_impl(self, a: Attributor) -> ChangeStatus:
        if self.pos.kind == PositionKind.CALL_SITE:
            return callee_to_call_site_update(self, a)

        def check_rw(inst: Instruction) -> bool:
            return is_no_sync_inst(a, inst, self)

        def check_call(inst: Instruction) -> bool:
            if inst.may_read_or_write_memory():
                return True
            assert isinstance(inst, CallBase)
            if has_assumed_ir_attr(a, self, IRPosition.callsite_function(inst), "nosync", DepClass.OPTIONAL)[0]:
                return True
            return not inst.is_convergent

        if not a.check_for_all_read_write_instructions(check_rw, self) or not a.check_for_all_call_like_instructions(
            check_call, self
        ):
            return self.indicate_pessimistic_fixpoint()
        return ChangeStatus.UNCHANGED


# --- nofree ----------------------------------------------------------------------------------------
class AANoFree(IRAttributeAA):
    ID = "AANoFree"
    IR_KIND = "nofree"

    @classmethod
    def is_valid_position_for_init(cls, a: Attributor, pos: IRPosition) -> bool:
        return _is_fn_scope_or_pointer(pos)

    @classmethod
    def is_implied_by_ir(cls, a: Attributor, pos: IRPosition, ignore_subsuming: bool = False) -> bool:
        return a.has_attr(pos, ("readnone", "readonly", "nofree"), ignore_subsuming, "nofree")

    def manifest(self, a: Attributor) -> ChangeStatus:
        if self.pos.kind == PositionKind.CALL_SITE_RETURNED:
            return ChangeStatus.UNCHANGED
        return IRAttributeAA.manifest(self, a)

    def update_impl(self, a: Attributor) -> ChangeStatus:
        kind = self.pos.kind
        if kind == PositionKind.CALL_SITE:
            return callee_to_call_site_update(self, a)
        if kind == PositionKind.FUNCTION:

            def check(inst: Instruction) -> bool:
                assert isinstance(inst, CallBase)
                return has_assumed_ir_attr(a, self, IRPosition.callsite_function(inst), "nofree", DepClass.REQUIRED)[0]

            if not a.check_for_all_call_like_instructions(check, self):
                return self.indicate_pessimistic_fixpoint()
            return ChangeStatus.UNCHANGED
        if kind == PositionKind.CALL_SITE_ARGUMENT:
            arg = self.pos.associated_argument
            if arg is None:
                return self.indicate_pessimistic_fixpoint()
            if has_assumed_ir_attr(a, self, IRPosition.argument(arg), "nofree", DepClass.REQUIRED)[0]:
                return ChangeStatus.UNCHANGED
            return self.indicate_pessimistic_fixpoint()
        return self._update_floating(a)

    def _update_floating(self, a: Attributor) -> ChangeStatus:
        if has_assumed_ir_attr(a, self, function_scope(self.pos), "nofree", DepClass.OPTIONAL)[0]:
            return ChangeStatus.UNCHANGED

        def pred(use: object) -> tuple[bool, bool]:
            user = getattr(use, "user")
            index: int = getattr(use, "index")
            if isinstance(user, CallBase):
                if user.is_bundle_operand(index):
                    return False, False
                if index >= user.arg_size:
                    return True, False
                ok = has_assumed_ir_attr(a, self, IRPosition.callsite_argument(user, index), "nofree", DepClass.REQUIRED)[0]
                return ok, False
            op = getattr(user, "opcode", "")
            if op in ("getelementptr", "bitcast", "phi", "select"):
                return True, True
            if op in ("store", "load", "ret"):
                return True, False
            return False, False

        if not a.check_for_all_uses(pred, self, self.pos.associated_value):
            return self.indicate_pessimistic_fixpoint()
        return ChangeStatus.UNCHANGED


# --- willreturn / mustprogress ------------------------------------------------------------------------
def _has_cycle(fn: Function) -> bool:
    """Whether the CFG reachable from the entry has a cycle (LLVM's ``scc_iterator``
    ``hasCycle`` scan, which starts at the entry block): a depth-first walk meeting a
    block still on its stack."""
    entry = fn.entry_block
    state: dict[object, int] = {entry: 1}
    stack = [(entry, iter(entry.successors))]
    while stack:
        bb, succs = stack[-1]
        advanced = False
        for succ in succs:
            st = state.get(succ)
            if st == 1:
                return True
            if st is None:
                state[succ] = 1
                stack.append((succ, iter(succ.successors)))
                advanced = True
                break
        if not advanced:
            state[bb] = 2
            stack.pop()
    return False


def implied_by_mustprogress_and_readonly(a: Attributor, pos: IRPosition) -> bool:
    """``AAWillReturn::isImpliedByMustprogressAndReadonly`` (static, from the IR)."""
    if not a.has_attr(pos, ("mustprogress",)):
        return False
    return memory_effects_at(a, pos, False).only_reads_memory


class AAWillReturn(IRAttributeAA):
    ID = "AAWillReturn"
    IR_KIND = "willreturn"

    @classmethod
    def is_implied_by_ir(cls, a: Attributor, pos: IRPosition, ignore_subsuming: bool = False) -> bool:
        if IRAttributeAA.is_implied_by_ir.__func__(cls, a, pos, ignore_subsuming):  # type: ignore[attr-defined]
            return True
        if not implied_by_mustprogress_and_readonly(a, pos):
            return False
        a.manifest_attrs(pos, [IRAttributeAA.enum_attr("willreturn")])
        return True

    def initialize(self, a: Attributor) -> None:
        if self.pos.kind != PositionKind.FUNCTION:
            return
        fn = self.pos.anchor_scope
        assert fn is not None
        if fn.is_declaration:
            self.indicate_pessimistic_fixpoint()
            return
        check = a.unbounded_cycle_check
        if check(fn) if check is not None else _has_cycle(fn):
            self.indicate_pessimistic_fixpoint()

    def _implied_assumed(self, a: Attributor) -> bool:
        if not a.has_attr(self.pos, ("mustprogress",)):
            return False
        from llvmpy_mid.ipo.attributor_memory import is_assumed_read_only

        return is_assumed_read_only(a, self.pos, self)[0]

    def update_impl(self, a: Attributor) -> ChangeStatus:
        if self._implied_assumed(a):
            return ChangeStatus.UNCHANGED
        if self.pos.kind == PositionKind.CALL_SITE:
            return callee_to_call_site_update(self, a)

        def check(inst: Instruction) -> bool:
            assert isinstance(inst, CallBase)
            cs = IRPosition.callsite_function(inst)
            ok, known, _ = has_assumed_ir_attr(a, self, cs, "willreturn", DepClass.REQUIRED)
            if not ok:
                return False
            if known:
                return True
            return has_assumed_ir_attr(a, self, cs, "norecurse", DepClass.REQUIRED)[0]

        if not a.check_for_all_call_like_instructions(check, self):
            return self.indicate_pessimistic_fixpoint()
        return ChangeStatus.UNCHANGED


class AAMustProgress(IRAttributeAA):
    ID = "AAMustProgress"
    IR_KIND = "mustprogress"

    @classmethod
    def is_implied_by_ir(cls, a: Attributor, pos: IRPosition, ignore_subsuming: bool = False) -> bool:
        return a.has_attr(pos, ("mustprogress", "willreturn"), ignore_subsuming, "mustprogress")

    def update_impl(self, a: Attributor) -> ChangeStatus:
        if self.pos.kind == PositionKind.CALL_SITE:
            scope = self.pos.anchor_scope
            assert scope is not None
            if not has_assumed_ir_attr(a, self, IRPosition.function(scope), "mustprogress", DepClass.REQUIRED)[0]:
                return self.indicate_pessimistic_fixpoint()
            return ChangeStatus.UNCHANGED
        ok, known, _ = has_assumed_ir_attr(a, self, self.pos, "willreturn", DepClass.OPTIONAL)
        if ok:
            if known:
                return self.indicate_optimistic_fixpoint()
            return ChangeStatus.UNCHANGED
        fn = self.pos.anchor_scope
        assert fn is not None

        def check(call: CallBase) -> bool:
            return has_assumed_ir_attr(
                a, self, IRPosition.callsite_function(call), "mustprogress", DepClass.REQUIRED, True
            )[0]

        if not a.check_for_all_call_sites(check, fn, True):
            return self.indicate_pessimistic_fixpoint()
        return ChangeStatus.UNCHANGED


# --- noreturn ----------------------------------------------------------------------------------------
class AANoReturn(IRAttributeAA):
    ID = "AANoReturn"
    IR_KIND = "noreturn"

    def update_impl(self, a: Attributor) -> ChangeStatus:
        if self.pos.kind == PositionKind.CALL_SITE:
            return callee_to_call_site_update(self, a)
        if not a.check_for_all_instructions(lambda inst: False, self.pos.associated_function, ("ret",)):
            return self.indicate_pessimistic_fixpoint()
        return ChangeStatus.UNCHANGED


# --- norecurse -------------------------------------------------------------------------------------
class _CallGraphReach:
    """Which functions may, through calls reachable from their entry, get back to
    themselves (the light configuration's ``AAInterFnReachability`` and
    ``AAIntraFnReachability`` over ``AACallEdges``): a Tarjan walk over the direct call
    edges, with an unknown callee, a declaration without ``nocallback`` or a body the
    Attributor may not look into reaching everything."""

    def __init__(self, a: Attributor) -> None:
        self.a = a
        self.succs: dict[Function, list[Function]] = {}
        self.universal: dict[Function, bool] = {}
        self.recursive: dict[Function, bool] = {}
        self.escapes: dict[Function, bool] = {}

    def _edges(self, fn: Function) -> tuple[list[Function], bool]:
        if fn in self.succs:
            return self.succs[fn], self.universal[fn]
        out: list[Function] = []
        universal = False
        a = self.a
        attrs = fn.attributes
        if (
            fn.is_declaration
            or attrs.has_fn_attr("naked")
            or attrs.has_fn_attr("optnone")
            or not a.is_function_ipo_amendable(fn)
            or not (a.module_pass or a.is_run_on(fn))
        ):
            universal = True
        else:
            # With a dominator tree at hand LLVM's intra-procedural reachability finds every
            # block reachable once the entry has a successor (the entry dominates the
            # reachable blocks and anything dominates an unreachable one).
            entry = fn.entry_block
            every_block = a.analyses is not None and bool(entry.successors)
            reachable = None if every_block else _reachable_blocks(fn)
            for op in ("invoke", "callbr", "call"):
                for inst in self.a.function_info(fn).opcode_insts.get(op, ()):
                    if reachable is not None and inst.parent not in reachable:
                        continue
                    assert isinstance(inst, CallBase)
                    edges = call_edges(inst)
                    if edges.has_unknown:
                        universal = True
                    for callee in edges.callees:
                        if callee.is_declaration:
                            if not callee.attributes.has_fn_attr("nocallback"):
                                universal = True
                            continue
                        out.append(callee)
        self.succs[fn] = out
        self.universal[fn] = universal
        return out, universal

    def can_reach_itself(self, fn: Function) -> bool:
        if fn not in self.recursive:
            self._tarjan(fn)
        return self.recursive[fn]

    def _tarjan(self, root: Function) -> None:
        """Tarjan's walk from ``root``: each finished SCC knows whether it is cyclic and
        whether it reaches a node that reaches everything (successor SCCs finish first)."""
        index: dict[Function, int] = {}
        low: dict[Function, int] = {}
        on_stack: set[Function] = set()
        scc_stack: list[Function] = []

        def visit(fn: Function) -> tuple[Function, Iterator[Function]]:
            index[fn] = low[fn] = len(index)
            scc_stack.append(fn)
            on_stack.add(fn)
            return fn, iter(self._edges(fn)[0])

        work = [visit(root)]
        while work:
            fn, succs = work[-1]
            pushed = False
            for succ in succs:
                if succ in self.recursive:
                    continue
                if succ not in index:
                    work.append(visit(succ))
                    pushed = True
                    break
                if succ in on_stack:
                    low[fn] = min(low[fn], index[succ])
            if pushed:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[fn])
            if low[fn] != index[fn]:
                continue
            members: list[Function] = []
            while True:
                member = scc_stack.pop()
                on_stack.discard(member)
                members.append(member)
                if member is fn:
                    break
            member_set = set(members)
            cyclic = len(members) > 1 or fn in self.succs[fn]
            escapes = any(self.universal[m] for m in members) or any(
                self.escapes[succ] for m in members for succ in self.succs[m] if succ not in member_set
            )
            for member in members:
                self.escapes[member] = escapes
                self.recursive[member] = cyclic or escapes


def _reachable_blocks(fn: Function) -> set[object]:
    entry = fn.entry_block
    seen: set[object] = {entry}
    stack = [entry]
    while stack:
        bb = stack.pop()
        for succ in bb.successors:
            if succ not in seen:
                seen.add(succ)
                stack.append(succ)
    return seen


class AANoRecurse(IRAttributeAA):
    ID = "AANoRecurse"
    IR_KIND = "norecurse"

    def update_impl(self, a: Attributor) -> ChangeStatus:
        if self.pos.kind == PositionKind.CALL_SITE:
            return callee_to_call_site_update(self, a)
        fn = self.pos.anchor_scope
        assert fn is not None

        def caller_known_norecurse(call: CallBase) -> bool:
            caller = call.function
            assert caller is not None
            ok, known, _ = has_assumed_ir_attr(a, self, IRPosition.function(caller), "norecurse", DepClass.NONE)
            return ok and known

        if a.check_for_all_call_sites(caller_known_norecurse, fn, True):
            self.indicate_optimistic_fixpoint()
            return ChangeStatus.UNCHANGED
        reach = a.caches.get("call-graph-reach")
        if not isinstance(reach, _CallGraphReach):
            reach = a.caches["call-graph-reach"] = _CallGraphReach(a)
        if reach.can_reach_itself(fn):
            return self.indicate_pessimistic_fixpoint()
        return ChangeStatus.UNCHANGED


for _cls in (AANoUnwind, AANoSync, AANoFree, AAWillReturn, AAMustProgress, AANoReturn, AANoRecurse):
    IR_ATTR_AAS[_cls.IR_KIND] = _cls
