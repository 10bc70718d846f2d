"""The Attributor: a fixpoint engine over abstract attributes (LLVM 19.1.7
``lib/Transforms/IPO/Attributor.cpp``, ``Attributor`` and ``InformationCache``).

How it works: abstract attributes (:mod:`~llvmpy_mid.ipo.attributor_aa`) are created for
positions, seeded from the IR and then updated from an optimistic start. An update that
asks another attribute records a dependence; when an attribute changes, the ones that
depend on it are updated again, and an attribute that became invalid sends those that
required it straight to their pessimistic fixpoint. When nothing changes any more (or
after ``attributor-max-iterations`` rounds, which undoes the unsettled attributes and
everything depending on them) every valid attribute manifests what it assumes. IR
attribute edits go to a side table (read back by every attribute query) and reach the IR
only at the end, so the IR the updates see stays the input's.

This is the engine only: liveness (``AAIsDead``) is not modelled, as in the light
configuration (``UseLiveness`` off), and value simplification has no callbacks.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Callable, Iterable, Protocol, Sequence, TypeVar

from llvmpy_mid.ipo.attributor_aa import AbstractAttribute, ChangeStatus, DepClass
from llvmpy_mid.ipo.attributor_position import IRPosition, PositionKind, subsuming_positions
from llvmpy_mid.ir.attributes import Attribute, AttributeList, AttributeSet
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.attribute_kinds import find_attribute_kind, is_enum_attr_kind
from llvmpy_mid.ir.constants import BlockAddress, ConstantInt, ConstantPointerNull, UndefValue
from llvmpy_mid.ir.droppable_uses import is_droppable
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function, null_pointer_is_defined
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import StoreInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import ReturnInst
from llvmpy_mid.ir.memory_effects import MemoryEffects
from llvmpy_mid.ir.value import Use, Value

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.loop_info import LoopInfo
    from llvmpy_mid.ir.dominators import DominatorTree

__all__ = ["Attributor", "AttributorPhase", "FunctionAnalyses", "FunctionInfo"]

AAT = TypeVar("AAT", bound=AbstractAttribute)

MAX_INITIALIZATION_CHAIN_LENGTH = 1024
"""LLVM ``attributor-max-initialization-chain-length``."""

CALL_LIKE_OPCODES = ("invoke", "callbr", "call")

_INTERESTING_OPCODES = frozenset(
    (
        "call", "callbr", "invoke", "cleanupret", "catchswitch", "atomicrmw", "cmpxchg", "br",
        "resume", "ret", "load", "store", "alloca", "addrspacecast",
    )
)


class AttributorPhase(enum.IntEnum):
    SEEDING = 0
    UPDATE = 1
    MANIFEST = 2
    CLEANUP = 3


class FunctionAnalyses(Protocol):
    """What ``AnalysisGetter`` hands out (each may be None)."""

    def loop_info(self, fn: Function) -> LoopInfo | None: ...

    def dominator_tree(self, fn: Function) -> DominatorTree | None: ...

    def post_dominator_tree(self, fn: Function) -> DominatorTree | None: ...

    def assumption_cache(self, fn: Function) -> AssumptionCache | None: ...


class FunctionInfo:
    """What the information cache knows of one function: its instructions of interesting
    opcodes and those that may read or write memory."""

    __slots__ = ("opcode_insts", "rw_insts", "assumes")

    def __init__(self, fn: Function) -> None:
        self.opcode_insts: dict[str, list[Instruction]] = {}
        self.rw_insts: list[Instruction] = []
        self.assumes: list[CallBase] = []
        for inst in fn.instructions():
            assert isinstance(inst, Instruction)
            op = inst.opcode
            if op in _INTERESTING_OPCODES:
                self.opcode_insts.setdefault(op, []).append(inst)
                if op == "call" and isinstance(inst, CallBase) and inst.intrinsic_base == "llvm.assume":
                    self.assumes.append(inst)
            if inst.may_read_or_write_memory():
                self.rw_insts.append(inst)


DepKey = tuple[AbstractAttribute, DepClass]


class Attributor:
    """One Attributor run over ``functions`` (the whole module for the module pass)."""

    def __init__(
        self,
        functions: Sequence[Function],
        allowed: frozenset[str],
        *,
        module_pass: bool,
        max_iterations: int,
        inlineable: Iterable[Function] = (),
        unbounded_cycle_check: Callable[[Function], bool] | None = None,
        analyses: FunctionAnalyses | None = None,
    ) -> None:
        self.functions: dict[Function, None] = dict.fromkeys(functions)
        self.allowed = allowed
        self.module_pass = module_pass
        self.max_iterations = max_iterations
        self.inlineable_functions = set(inlineable)
        self.phase = AttributorPhase.SEEDING
        self.aa_map: dict[tuple[str, IRPosition], AbstractAttribute] = {}
        self.all_aas: list[AbstractAttribute] = []
        self.deps: dict[AbstractAttribute, dict[DepKey, None]] = {}
        self.dependence_stack: list[list[tuple[AbstractAttribute, AbstractAttribute, DepClass]]] = []
        self.attrs_map: dict[int, tuple[Function | CallBase, AttributeList]] = {}
        self.attrs_version = 0
        """Bumped on every edit of ``attrs_map``: a query of the IR attributes answered
        "no" stays "no" while it is unchanged (the IR itself is not edited before the end)."""
        self.init_chain_length = 0
        self._infos: dict[Function, FunctionInfo] = {}
        self.visited_functions: set[Function] = set()
        self.query_aas_awaiting_update: dict[AbstractAttribute, None] = {}
        self.unbounded_cycle_check = unbounded_cycle_check
        self.analyses = analyses
        """The function analyses at hand (the CGSCC pass); None: nothing is cached."""
        """``mayContainUnboundedCycle`` when loop analyses are at hand (the CGSCC pass);
        None: any cycle of the CFG counts."""
        self.knowledge: dict[tuple[int, str], dict[CallBase, int]] = {}
        """What the ``llvm.assume`` bundles seen so far state: (value, kind) -> assumes."""
        self.caches: dict[str, object] = {}
        """Per-run memos of the attribute families (keyed by a name of their choosing)."""

    # --- information cache ------------------------------------------------------------------
    def function_info(self, fn: Function) -> FunctionInfo:
        info = self._infos.get(fn)
        if info is None:
            info = self._infos[fn] = FunctionInfo(fn)
            for assume in info.assumes:
                self._fill_knowledge_from_assume(assume)
        return info

    def _fill_knowledge_from_assume(self, assume: CallBase) -> None:
        """``fillMapFromAssume``: each bundle ``"kind"(value[, int])`` states ``kind`` of ``value``."""
        for bundle in assume.operand_bundles:
            if not bundle.inputs or find_attribute_kind(bundle.tag) is None:
                continue
            was_on = bundle.inputs[0]
            value = 0
            if len(bundle.inputs) > 1:
                arg = bundle.inputs[1]
                if not isinstance(arg, ConstantInt):
                    continue
                value = arg.value
            entries = self.knowledge.setdefault((id(was_on), bundle.tag), {})
            entries[assume] = max(entries.get(assume, value), value)

    def _assumes_in_context(self, pos: IRPosition, kind: str) -> list[int]:
        """``getAttrsFromAssumes``: the values of the assumes stating ``kind`` of the
        position's value that surely run when the position's context instruction does."""
        entries = self.knowledge.get((id(pos.associated_value), kind))
        if not entries:
            return []
        ctx = pos.ctx_i
        if ctx is None:
            return []
        from llvmpy_mid.ipo.attributor_mbec import explorer

        context = explorer(self).context(ctx)
        return [value for assume, value in entries.items() if assume in context]

    @property
    def data_layout(self) -> DataLayout | None:
        """The module's data layout (None when no function belongs to a module)."""
        for fn in self.functions:
            module = fn.parent
            if module is not None:
                return module.data_layout
        return None

    def is_run_on(self, fn: Function | None) -> bool:
        return not self.functions or (fn is not None and fn in self.functions)

    def is_function_ipo_amendable(self, fn: Function) -> bool:
        return fn.has_exact_definition or fn in self.inlineable_functions

    # --- abstract attribute creation ------------------------------------------------------------
    def _should_update_aa(self, cls: type[AbstractAttribute], pos: IRPosition) -> bool:
        if self.phase in (AttributorPhase.MANIFEST, AttributorPhase.CLEANUP):
            return False
        fn = pos.associated_function
        if pos.is_any_call_site_position:
            if fn is None and cls.requires_callee_for_call_base:
                return False
            call = pos.anchor
            assert isinstance(call, CallBase)
            if cls.requires_non_asm_for_call_base and call.is_inline_asm_call:
                return False
        if cls.requires_callers_for_arg_or_function and pos.kind in (PositionKind.FUNCTION, PositionKind.ARGUMENT):
            if fn is None or not fn.has_local_linkage:
                return False
        if not cls.is_valid_position_for_update(self, pos):
            return False
        return fn is None or self.module_pass or self.is_run_on(fn) or self.is_run_on(pos.anchor_scope)

    def _should_initialize(self, cls: type[AbstractAttribute], pos: IRPosition) -> tuple[bool, bool]:
        if not cls.is_valid_position_for_init(self, pos):
            return False, False
        if cls.ID not in self.allowed:
            return False, False
        scope = pos.anchor_scope
        if scope is not None and (scope.attributes.has_fn_attr("naked") or scope.attributes.has_fn_attr("optnone")):
            return False, False
        if self.init_chain_length > MAX_INITIALIZATION_CHAIN_LENGTH:
            return False, False
        should_update = self._should_update_aa(cls, pos)
        return (not cls.has_trivial_initializer) or should_update, should_update

    def lookup_aa(self, cls: type[AAT], pos: IRPosition) -> AAT | None:
        aa = self.aa_map.get((cls.ID, pos))
        return aa  # type: ignore[return-value]

    def get_or_create_aa(
        self,
        cls: type[AAT],
        pos: IRPosition,
        querying: AbstractAttribute | None = None,
        dep: DepClass = DepClass.NONE,
    ) -> AAT | None:
        """LLVM ``getOrCreateAAFor``: the attribute of ``cls`` at ``pos`` (created, seeded
        and updated once when new), None when it may not exist there."""
        found = self.aa_map.get((cls.ID, pos))
        if found is not None:
            if querying is not None and dep != DepClass.NONE and found.state.is_valid():
                self.record_dependence(found, querying, dep)
            return found  # type: ignore[return-value]
        ok, should_update = self._should_initialize(cls, pos)
        if not ok:
            return None
        aa = cls.create_for_position(pos)
        self.aa_map[(cls.ID, pos)] = aa
        self.all_aas.append(aa)
        self.init_chain_length += 1
        aa.initialize(self)
        self.init_chain_length -= 1
        if not should_update:
            aa.indicate_pessimistic_fixpoint()
            return aa
        old = self.phase
        self.phase = AttributorPhase.UPDATE
        self.update_aa(aa)
        self.phase = old
        if querying is not None and aa.state.is_valid():
            self.record_dependence(aa, querying, dep)
        return aa

    def get_aa_for(
        self, cls: type[AAT], querying: AbstractAttribute, pos: IRPosition, dep: DepClass
    ) -> AAT | None:
        return self.get_or_create_aa(cls, pos, querying, dep)

    def record_dependence(self, from_aa: AbstractAttribute, to_aa: AbstractAttribute, dep: DepClass) -> None:
        if dep == DepClass.NONE or not self.dependence_stack:
            return
        if from_aa.state.is_at_fixpoint():
            return
        self.dependence_stack[-1].append((from_aa, to_aa, dep))

    def register_for_update(self, aa: AbstractAttribute) -> None:
        self.query_aas_awaiting_update[aa] = None

    # --- the fixpoint ---------------------------------------------------------------------
    def update_aa(self, aa: AbstractAttribute) -> ChangeStatus:
        dv: list[tuple[AbstractAttribute, AbstractAttribute, DepClass]] = []
        self.dependence_stack.append(dv)
        cs = aa.update(self)
        state = aa.state
        if not aa.is_query_aa and not dv and not state.is_at_fixpoint():
            rerun = ChangeStatus.UNCHANGED
            if cs == ChangeStatus.CHANGED:
                rerun = aa.update(self)
            if rerun == ChangeStatus.UNCHANGED and not dv:
                state.indicate_optimistic_fixpoint()
        if not state.is_at_fixpoint():
            for from_aa, to_aa, dep in dv:
                self.deps.setdefault(from_aa, {})[(to_aa, dep)] = None
        popped = self.dependence_stack.pop()
        assert popped is dv
        return cs

    def _take_deps(self, aa: AbstractAttribute) -> list[DepKey]:
        found = self.deps.pop(aa, None)
        return list(found) if found else []

    def run_till_fixpoint(self) -> None:
        iteration = 1
        changed: list[AbstractAttribute] = []
        worklist: dict[AbstractAttribute, None] = dict.fromkeys(self.all_aas)
        invalid: dict[AbstractAttribute, None] = {}
        while True:
            num_aas = len(self.all_aas)
            invalid_list = list(invalid)
            u = 0
            while u < len(invalid_list):
                inv = invalid_list[u]
                u += 1
                for dep_aa, dep_class in self._take_deps(inv):
                    if dep_class == DepClass.OPTIONAL:
                        worklist[dep_aa] = None
                        continue
                    dep_aa.indicate_pessimistic_fixpoint()
                    if not dep_aa.state.is_valid():
                        if dep_aa not in invalid:
                            invalid[dep_aa] = None
                            invalid_list.append(dep_aa)
                    else:
                        changed.append(dep_aa)
            for changed_aa in changed:
                for dep_aa, _ in self._take_deps(changed_aa):
                    worklist[dep_aa] = None
            changed = []
            invalid = {}
            for aa in list(worklist):
                if not aa.state.is_at_fixpoint():
                    if self.update_aa(aa) == ChangeStatus.CHANGED:
                        changed.append(aa)
                if not aa.state.is_valid():
                    invalid[aa] = None
            changed.extend(self.all_aas[num_aas:])
            worklist = dict.fromkeys(changed)
            worklist.update(self.query_aas_awaiting_update)
            self.query_aas_awaiting_update = {}
            if not worklist:
                break
            iteration += 1
            if iteration > self.max_iterations:
                break
        # Undo what did not settle: the changed attributes and all that depend on them.
        visited: set[AbstractAttribute] = set()
        u = 0
        while u < len(changed):
            aa = changed[u]
            u += 1
            if aa in visited:
                continue
            visited.add(aa)
            if not aa.state.is_at_fixpoint():
                aa.indicate_pessimistic_fixpoint()
            changed.extend(dep_aa for dep_aa, _ in self._take_deps(aa))

    def manifest_attributes(self) -> ChangeStatus:
        result = ChangeStatus.UNCHANGED
        for aa in list(self.all_aas):
            state = aa.state
            if not state.is_at_fixpoint():
                state.indicate_optimistic_fixpoint()
            if not state.is_valid():
                continue
            if aa.pos.ctx_i is not None and not self.is_run_on(aa.pos.anchor_scope):
                continue
            if aa.manifest(self) == ChangeStatus.CHANGED:
                result = ChangeStatus.CHANGED
        for anchor, attrs in self.attrs_map.values():
            anchor.attributes = attrs
        return result

    def run(self) -> ChangeStatus:
        self.phase = AttributorPhase.UPDATE
        self.run_till_fixpoint()
        self.phase = AttributorPhase.MANIFEST
        result = self.manifest_attributes()
        self.phase = AttributorPhase.CLEANUP
        return result

    def modified_functions(self) -> list[Function]:
        out: dict[Function, None] = {}
        for anchor, _ in self.attrs_map.values():
            fn = anchor if isinstance(anchor, Function) else anchor.function
            if fn is not None:
                out[fn] = None
        return list(out)

    # --- IR attributes through the side table ----------------------------------------------------
    def _attr_list(self, pos: IRPosition) -> tuple[Function | CallBase, AttributeList] | None:
        anchor = pos.attr_list_anchor
        if anchor is None:
            return None
        entry = self.attrs_map.get(id(anchor))
        return (anchor, entry[1] if entry is not None else anchor.attributes)

    def attr_set(self, pos: IRPosition) -> AttributeSet | None:
        found = self._attr_list(pos)
        if found is None:
            return None
        return found[1].attrs_at_index(pos.attr_index)

    def _store_attr_set(self, pos: IRPosition, new: AttributeSet) -> None:
        found = self._attr_list(pos)
        assert found is not None
        anchor, attrs = found
        self.attrs_map[id(anchor)] = (anchor, attrs.with_attrs_at_index(pos.attr_index, new))
        self.attrs_version += 1

    def has_attr(
        self, pos: IRPosition, kinds: Sequence[str], ignore_subsuming: bool = False, implied_kind: str = ""
    ) -> bool:
        """LLVM ``Attributor::hasAttr``; an attribute found only on a subsuming position
        (or of another kind) is also manifested at ``pos`` as ``implied_kind``."""
        implied = False
        has = False
        for equiv in subsuming_positions(pos):
            attrs = self.attr_set(equiv)
            if attrs is not None:
                for kind in kinds:
                    if attrs.has(kind):
                        implied |= kind != implied_kind
                        has = True
            if has or ignore_subsuming:
                break
            implied = True
        if not has:
            implied = True
            has = any(self._assumes_in_context(pos, kind) for kind in kinds)
        if implied_kind and has and implied:
            self.manifest_attrs(pos, [Attribute.enum(implied_kind)])
        return has

    def get_attrs(self, pos: IRPosition, kinds: Sequence[str], ignore_subsuming: bool = False) -> list[Attribute]:
        out: list[Attribute] = []
        for equiv in subsuming_positions(pos):
            attrs = self.attr_set(equiv)
            if attrs is not None:
                for kind in kinds:
                    found = attrs.get(kind)
                    if found is not None:
                        out.append(found)
            if ignore_subsuming:
                break
        for kind in kinds:
            attr_kind = find_attribute_kind(kind)
            if attr_kind is None:
                continue
            for value in self._assumes_in_context(pos, kind):
                out.append(Attribute.enum(kind) if is_enum_attr_kind(attr_kind) else Attribute.int(kind, value))
        return out

    def remove_attrs(self, pos: IRPosition, kinds: Sequence[str]) -> ChangeStatus:
        attrs = self.attr_set(pos)
        if attrs is None or not any(attrs.has(kind) for kind in kinds):
            return ChangeStatus.UNCHANGED
        self._store_attr_set(pos, attrs.remove_all(kinds))
        return ChangeStatus.CHANGED

    def manifest_attrs(self, pos: IRPosition, new_attrs: Sequence[Attribute], force_replace: bool = False) -> ChangeStatus:
        """LLVM ``manifestAttrs``: add what ``pos`` lacks; a ``memory`` attribute is met
        with the present effects unless ``force_replace``."""
        attrs = self.attr_set(pos)
        if attrs is None or not new_attrs:
            return ChangeStatus.UNCHANGED
        updated = attrs
        for attr in new_attrs:
            kind = attr.kind_name
            if attr.is_enum_attr:
                if updated.has(kind):
                    continue
                updated = updated.add(attr)
            elif kind == "memory" and not force_replace:
                me: MemoryEffects = attr.memory_effects & attrs.memory_effects
                if me == attrs.memory_effects:
                    continue
                updated = updated.add(Attribute.memory(me))
            else:
                old = updated.get(kind)
                if old is not None and not force_replace:
                    continue
                updated = updated.add(attr)
        if updated is attrs:
            return ChangeStatus.UNCHANGED
        self._store_attr_set(pos, updated)
        return ChangeStatus.CHANGED

    # --- walks -----------------------------------------------------------------------------
    def check_for_all_instructions(
        self, pred: Callable[[Instruction], bool], fn: Function | None, opcodes: Sequence[str]
    ) -> bool:
        if fn is None or fn.is_declaration:
            return False
        info = self.function_info(fn)
        for op in opcodes:
            for inst in info.opcode_insts.get(op, ()):
                if not pred(inst):
                    return False
        return True

    def check_for_all_call_like_instructions(self, pred: Callable[[Instruction], bool], aa: AbstractAttribute) -> bool:
        return self.check_for_all_instructions(pred, aa.pos.associated_function, CALL_LIKE_OPCODES)

    def check_for_all_read_write_instructions(self, pred: Callable[[Instruction], bool], aa: AbstractAttribute) -> bool:
        fn = aa.pos.associated_function
        if fn is None:
            return False
        if fn.is_declaration:
            return True
        for inst in self.function_info(fn).rw_insts:
            if not pred(inst):
                return False
        return True

    def check_for_all_call_sites(
        self,
        pred: Callable[[CallBase], bool],
        fn: Function,
        require_all: bool,
    ) -> bool:
        """LLVM ``checkForAllCallSites`` (no callback calls are modelled)."""
        if require_all and not fn.has_local_linkage:
            return False
        uses: list[Use] = list(fn.uses)
        u = 0
        while u < len(uses):
            use = uses[u]
            u += 1
            user = use.user
            if isinstance(user, ConstantExpr) and user.is_cast and user.type.is_pointer:
                uses.extend(user.uses)
                continue
            if not isinstance(user, CallBase) or use.index != len(user.operands) - 1:
                if isinstance(user, BlockAddress):
                    continue
                return False
            for i in range(min(user.arg_size, len(fn.args))):
                if fn.args[i].type != user.get_arg(i).type:
                    return False
            if not pred(user):
                return False
        return True

    def _stored_value_has_no_copies(self, store: StoreInst) -> bool:
        """``AA::getPotentialCopiesOfStoredValue`` as far as the light configuration gets:
        without ``AAPointerInfo`` only a store to no object at all (undefined memory, a null
        pointer where null is not valid, or the empty object set of a select) has its
        copies known, and there are none."""
        from llvmpy_mid.ipo.attributor_memory import underlying_objects

        ptr = store.operands[1]
        fn = store.function
        for obj in underlying_objects(self, ptr):
            if isinstance(obj, UndefValue):
                continue
            if (
                isinstance(obj, ConstantPointerNull)
                and obj is ptr
                and not null_pointer_is_defined(fn, int(getattr(ptr.type, "address_space", 0)))
            ):
                continue
            return False
        return True

    def check_for_all_uses(
        self,
        pred: Callable[[Use], tuple[bool, bool]],
        aa: AbstractAttribute,
        value: Value,
    ) -> bool:
        """LLVM ``checkForAllUses``: ``pred`` answers (ok, follow the user's uses); uses
        returned from the function continue at its call sites."""
        if value.use_empty:
            return True
        worklist: list[Use] = list(value.uses)
        visited: set[int] = set()
        while worklist:
            use = worklist.pop()
            user = use.user
            if isinstance(user, PHINode) or not isinstance(user, Instruction):
                key = id(use)
                if key in visited:
                    continue
                visited.add(key)
            if isinstance(user, Instruction) and is_droppable(user):
                continue
            if isinstance(user, StoreInst) and use.index == 0:
                key = id(use)
                if key in visited:
                    continue
                visited.add(key)
                if self._stored_value_has_no_copies(user):
                    continue
            ok, follow = pred(use)
            if not ok:
                return False
            if not follow:
                continue
            worklist.extend(user.uses)
            if not isinstance(user, ReturnInst):
                continue
            fn = user.function
            assert fn is not None

            def add_call_users(call: CallBase) -> bool:
                worklist.extend(call.uses)
                return True

            if not self.check_for_all_call_sites(add_call_users, fn, True):
                return False
        return True
