"""The Attributor's memory attributes (LLVM 19.1.7
``lib/Transforms/IPO/AttributorAttributes.cpp``: ``AAMemoryBehavior``,
``AAMemoryLocation``, ``AAUnderlyingObjects``; ``AA::isAssumedReadOnly`` /
``isAssumedReadNone`` from ``Attributor.cpp``).

``AAMemoryBehavior`` holds two bits, "does not read" and "does not write". A function
loses them to the memory instructions of its body (a call contributes its call site's
bits, which come from the callee); a pointer argument to the uses of its value (loads
read, stores through it write, a call site argument contributes that argument's bits;
a use that may capture it makes it follow the function's bits). It manifests as
``memory(...)`` on functions and call sites and ``readnone``/``readonly``/``writeonly``
on arguments.

``AAMemoryLocation`` holds one "not accessed" bit per kind of memory (stack, constant,
internal and external globals, argument pointees, inaccessible, malloced, unknown) and
remembers each access; the underlying objects of the accessed pointers classify them. A
function manifests ``memory(none)``, ``inaccessiblemem``, ``argmem`` or both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.ipo.attributor_aa import (
    IR_ATTR_AAS,
    AbstractAttribute,
    ChangeStatus,
    DepClass,
    IRAttributeAA,
    has_assumed_ir_attr,
)
from llvmpy_mid.ipo.attributor_flags import clamp_from_callees, function_scope
from llvmpy_mid.ipo.attributor_position import IRPosition, PositionKind
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.constants import ConstantPointerNull, PoisonValue, UndefValue
from llvmpy_mid.ir.droppable_uses import is_droppable
from llvmpy_mid.ir.function import Argument, Function, null_pointer_is_defined
from llvmpy_mid.ir.global_value import GlobalValue, GlobalVariable

from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.memory_effects import MemoryEffects
from llvmpy_mid.ir.value import Use, Value

if TYPE_CHECKING:
    from llvmpy_mid.ipo.attributor import Attributor

__all__ = ["AAMemoryBehavior", "AAMemoryLocation", "is_assumed_read_none", "is_assumed_read_only", "underlying_objects"]

NO_READS = 1
NO_WRITES = 2
NO_ACCESSES = 3
_MB_KINDS = ("readnone", "readonly", "writeonly")


def _is_fn_scope_or_pointer(pos: IRPosition) -> bool:
    return pos.is_function_scope or pos.associated_type.is_ptr_or_ptr_vector


def _behavior_effects(bits: int) -> MemoryEffects:
    if bits & NO_ACCESSES == NO_ACCESSES:
        return MemoryEffects.none()
    if bits & NO_WRITES:
        return MemoryEffects.read_only()
    if bits & NO_READS:
        return MemoryEffects.write_only()
    return MemoryEffects.unknown()


class AAMemoryBehavior(IRAttributeAA):
    """``readnone``/``readonly``/``writeonly`` of functions, call sites and pointers."""

    ID = "AAMemoryBehavior"
    IR_KIND = "memory-behavior"
    BEST_STATE = NO_ACCESSES
    has_trivial_initializer = False

    @classmethod
    def is_valid_position_for_init(cls, a: Attributor, pos: IRPosition) -> bool:
        return _is_fn_scope_or_pointer(pos)

    @classmethod
    def is_implied_by_ir_kind(cls, a: Attributor, pos: IRPosition, kind: str, ignore_subsuming: bool) -> bool:
        if isinstance(pos.associated_value, (UndefValue, PoisonValue)):
            return True
        return a.has_attr(pos, (kind,), ignore_subsuming, kind)

    @classmethod
    def is_implied_by_ir(cls, a: Attributor, pos: IRPosition, ignore_subsuming: bool = False) -> bool:
        return False

    # --- initialization -------------------------------------------------------------------------
    def _known_from_value(self, a: Attributor, ignore_subsuming: bool) -> None:
        state = self.state
        for attr in a.get_attrs(self.pos, _MB_KINDS, ignore_subsuming):
            kind = attr.kind_name
            state.add_known_bits(NO_ACCESSES if kind == "readnone" else NO_WRITES if kind == "readonly" else NO_READS)
        anchor = self.pos.anchor
        if isinstance(anchor, Instruction):
            if not anchor.may_read_from_memory():
                state.add_known_bits(NO_READS)
            if not anchor.may_write_to_memory():
                state.add_known_bits(NO_WRITES)

    def initialize(self, a: Attributor) -> None:
        kind = self.pos.kind
        self.state.intersect_assumed_bits(NO_ACCESSES)
        if kind == PositionKind.CALL_SITE_ARGUMENT:
            arg = self.pos.associated_argument
            if arg is None:
                self.indicate_pessimistic_fixpoint()
                return
            if arg.parent.attributes.has_param_attr(arg.arg_no, "byval"):
                self.state.add_known_bits(NO_WRITES)
                self.state.remove_known_bits(NO_READS)
                self.state.remove_assumed_bits(NO_READS)
        if kind in (PositionKind.ARGUMENT, PositionKind.CALL_SITE_ARGUMENT):
            has_by_val = a.has_attr(self.pos, ("byval",), True)
            self._known_from_value(a, has_by_val)
            if kind == PositionKind.CALL_SITE_ARGUMENT:
                callee = self.pos.associated_function
                if callee is None or callee.is_declaration:
                    self.indicate_pessimistic_fixpoint()
            return
        self._known_from_value(a, False)

    # --- updates --------------------------------------------------------------------------------
    def update_impl(self, a: Attributor) -> ChangeStatus:
        kind = self.pos.kind
        if kind == PositionKind.FUNCTION:
            return self._update_function(a)
        if kind == PositionKind.CALL_SITE:
            return self._update_call_site(a)
        if kind == PositionKind.CALL_SITE_ARGUMENT:
            arg = self.pos.associated_argument
            assert arg is not None
            arg_aa = a.get_aa_for(AAMemoryBehavior, self, IRPosition.argument(arg), DepClass.REQUIRED)
            if arg_aa is None:
                return self.indicate_pessimistic_fixpoint()
            return self.state.clamp(arg_aa.state)
        return self._update_floating(a)

    def _update_function(self, a: Attributor) -> ChangeStatus:
        before = self.state.assumed

        def check(inst: Instruction) -> bool:
            if isinstance(inst, CallBase):
                cs_aa = a.get_aa_for(AAMemoryBehavior, self, IRPosition.callsite_function(inst), DepClass.REQUIRED)
                if cs_aa is not None:
                    self.state.intersect_assumed_bits(cs_aa.state.assumed)
                    return not self.state.is_at_fixpoint()
            if inst.may_read_from_memory():
                self.state.remove_assumed_bits(NO_READS)
            if inst.may_write_to_memory():
                self.state.remove_assumed_bits(NO_WRITES)
            return not self.state.is_at_fixpoint()

        if not a.check_for_all_read_write_instructions(check, self):
            return self.indicate_pessimistic_fixpoint()
        return self.changed_since(before)

    def _update_call_site(self, a: Attributor) -> ChangeStatus:
        return clamp_from_callees(self, a, AAMemoryBehavior, IRPosition.function)

    def _update_floating(self, a: Attributor) -> ChangeStatus:
        state = self.state
        arg = self.pos.associated_argument
        fn_assumed = 0
        if arg is None or not arg.parent.attributes.has_param_attr(arg.arg_no, "byval"):
            fn_aa = a.get_aa_for(AAMemoryBehavior, self, function_scope(self.pos), DepClass.OPTIONAL)
            if fn_aa is not None:
                fn_assumed = fn_aa.state.assumed
                state.add_known_bits(fn_aa.state.known)
                if state.assumed & fn_assumed == state.assumed:
                    return ChangeStatus.UNCHANGED
        before = state.assumed
        ok, _, nc_aa = has_assumed_ir_attr(a, self, self.pos, "nocapture", DepClass.OPTIONAL)
        if not ok and (nc_aa is None or not nc_aa.is_assumed(3)):
            state.intersect_assumed_bits(fn_assumed)
            return self.changed_since(before)

        def use_pred(use: Use) -> tuple[bool, bool]:
            user = use.user
            assert isinstance(user, Instruction)
            if is_droppable(user):
                return True, False
            follow = self._follow_users_of_use_in(a, use, user)
            if user.may_read_or_write_memory():
                self._analyze_use_in(a, use, user)
            return not state.is_at_fixpoint(), follow

        if not a.check_for_all_uses(use_pred, self, self.pos.associated_value):
            return self.indicate_pessimistic_fixpoint()
        return self.changed_since(before)

    def _follow_users_of_use_in(self, a: Attributor, use: Use, user: Instruction) -> bool:
        if user.opcode in ("load", "ret"):
            return False
        if not isinstance(user, CallBase) or use.index >= user.arg_size:
            return True
        if use.value.type.is_pointer:
            pos = IRPosition.callsite_argument(user, use.index)
            return not has_assumed_ir_attr(a, self, pos, "nocapture", DepClass.OPTIONAL)[0]
        return True

    def _analyze_use_in(self, a: Attributor, use: Use, user: Instruction) -> None:
        state = self.state
        op = user.opcode
        if op == "load":
            state.remove_assumed_bits(NO_READS)
            return
        if op == "store":
            if use.index == 1:
                state.remove_assumed_bits(NO_WRITES)
            else:
                self.indicate_pessimistic_fixpoint()
            return
        if isinstance(user, CallBase):
            index = use.index
            if user.is_bundle_operand(index):
                self.indicate_pessimistic_fixpoint()
                return
            if index == len(user.operands) - 1:
                state.remove_assumed_bits(NO_READS)
            else:
                if index < user.arg_size and use.value.type.is_pointer:
                    pos = IRPosition.callsite_argument(user, index)
                else:
                    pos = IRPosition.callsite_function(user)
                mb = a.get_aa_for(AAMemoryBehavior, self, pos, DepClass.OPTIONAL)
                if mb is not None:
                    state.intersect_assumed_bits(mb.state.assumed)
                    return
        if user.may_read_from_memory():
            state.remove_assumed_bits(NO_READS)
        if user.may_write_to_memory():
            state.remove_assumed_bits(NO_WRITES)

    # --- manifest -------------------------------------------------------------------------------
    def deduced_attributes(self, a: Attributor) -> list[Attribute]:
        if self.is_assumed(NO_ACCESSES):
            return [Attribute.enum("readnone")]
        if self.is_assumed(NO_WRITES):
            return [Attribute.enum("readonly")]
        if self.is_assumed(NO_READS):
            return [Attribute.enum("writeonly")]
        return []

    def manifest(self, a: Attributor) -> ChangeStatus:
        kind = self.pos.kind
        if kind == PositionKind.CALL_SITE_RETURNED:
            return ChangeStatus.UNCHANGED
        if kind in (PositionKind.FUNCTION, PositionKind.CALL_SITE):
            me = _behavior_effects(self.state.assumed)
            a.remove_attrs(self.pos, _MB_KINDS)
            anchor = self.pos.anchor
            if me.only_reads_memory:
                if isinstance(anchor, Function):
                    for arg in anchor.args:
                        a.remove_attrs(IRPosition.argument(arg), ("writable",))
                else:
                    assert isinstance(anchor, CallBase)
                    for i in range(anchor.arg_size):
                        a.remove_attrs(IRPosition.callsite_argument(anchor, i), ("writable",))
            return a.manifest_attrs(self.pos, [Attribute.memory(me)])
        if kind in (PositionKind.ARGUMENT, PositionKind.CALL_SITE_ARGUMENT):
            if not self.pos.associated_value.type.is_pointer:
                return ChangeStatus.UNCHANGED
            if a.has_attr(self.pos, ("inalloca", "preallocated")):
                self.state.remove_known_bits(NO_WRITES)
                self.state.remove_assumed_bits(NO_WRITES)
            a.remove_attrs(self.pos, _MB_KINDS)
        if a.has_attr(self.pos, ("readnone",), True):
            return ChangeStatus.UNCHANGED
        deduced = self.deduced_attributes(a)
        if all(a.has_attr(self.pos, (attr.kind_name,), True) for attr in deduced):
            return ChangeStatus.UNCHANGED
        a.remove_attrs(self.pos, _MB_KINDS)
        if self.is_assumed(NO_WRITES):
            a.remove_attrs(self.pos, ("writable",))
        return IRAttributeAA.manifest(self, a)


def _is_assumed_read_only_or_none(
    a: Attributor, pos: IRPosition, querying: AbstractAttribute, require_read_none: bool
) -> tuple[bool, bool]:
    kind = "readnone" if require_read_none else "readonly"
    ok, known, _ = has_assumed_ir_attr(a, querying, pos, kind, DepClass.OPTIONAL, True)
    if ok:
        return True, known
    if pos.kind in (PositionKind.FUNCTION, PositionKind.CALL_SITE):
        loc = a.get_aa_for(AAMemoryLocation, querying, pos, DepClass.NONE)
        if loc is not None and loc.is_assumed_read_none():
            known = loc.is_known(0xFF)
            if not known:
                a.record_dependence(loc, querying, DepClass.OPTIONAL)
            return True, known
    mb = a.get_aa_for(AAMemoryBehavior, querying, pos, DepClass.NONE)
    if mb is not None and (mb.is_assumed(NO_ACCESSES) or (not require_read_none and mb.is_assumed(NO_WRITES))):
        known = mb.is_known(NO_ACCESSES if require_read_none else NO_WRITES)
        if not known:
            a.record_dependence(mb, querying, DepClass.OPTIONAL)
        return True, known
    return False, False


def is_assumed_read_only(a: Attributor, pos: IRPosition, querying: AbstractAttribute) -> tuple[bool, bool]:
    """LLVM ``AA::isAssumedReadOnly``: (assumed, known)."""
    return _is_assumed_read_only_or_none(a, pos, querying, False)


def is_assumed_read_none(a: Attributor, pos: IRPosition, querying: AbstractAttribute) -> tuple[bool, bool]:
    return _is_assumed_read_only_or_none(a, pos, querying, True)


# --- underlying objects -----------------------------------------------------------------------
def underlying_objects(a: Attributor, ptr: Value) -> list[Value]:
    """What ``AAUnderlyingObjects`` settles on without value simplification: the
    underlying object, looked through phis (memoized per run). A select yields nothing,
    as in LLVM 19, whose update hands the select itself to ``handleIndirect``."""
    memo = a.caches.setdefault("underlying-objects", {})
    assert isinstance(memo, dict)
    found = memo.get(id(ptr))
    if found is not None:
        return list(found[1])
    out: dict[int, Value] = {}
    seen: set[int] = set()
    stack = [ptr]
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        uo = get_underlying_object(v)
        if uo is not v:
            stack.append(uo)
            continue
        op = getattr(v, "opcode", "")
        if op == "select":
            # LLVM 19 asks the select's own (still empty) set instead of its operands':
            # a select contributes no object at all.
            continue
        if op == "phi":
            assert isinstance(v, Instruction)
            stack.extend(reversed(v.operands))
            continue
        out[id(v)] = v
    result = list(out.values())
    memo[id(ptr)] = (ptr, result)
    return list(result)


# --- memory locations -------------------------------------------------------------------------
NO_LOCAL_MEM = 1
NO_CONST_MEM = 2
NO_GLOBAL_INTERNAL_MEM = 4
NO_GLOBAL_EXTERNAL_MEM = 8
NO_GLOBAL_MEM = 12
NO_ARGUMENT_MEM = 16
NO_INACCESSIBLE_MEM = 32
NO_MALLOCED_MEM = 64
NO_UNKNOWN_MEM = 128
NO_LOCATIONS = 255
VALID_STATE = 256
READ = 1
WRITE = 2


def inverse_location(loc: int, and_local: bool, and_const: bool) -> int:
    return NO_LOCATIONS & ~(loc | (NO_LOCAL_MEM if and_local else 0) | (NO_CONST_MEM if and_const else 0))


def _access_kind(inst: Instruction | None) -> int:
    if inst is None:
        return READ | WRITE
    return (READ if inst.may_read_from_memory() else 0) | (WRITE if inst.may_write_to_memory() else 0)


def _is_gpu(fn: Function | None) -> bool:
    module = fn.parent if fn is not None else None
    triple = str(getattr(module, "target_triple", "") or "")
    return triple.startswith("amdgcn") or triple.startswith("nvptx")


_GPU_CONSTANT_AS = 4

Access = tuple[Instruction | None, Value | None, int]


class AAMemoryLocation(IRAttributeAA):
    """Which kinds of memory a function or call site may access."""

    ID = "AAMemoryLocation"
    IR_KIND = "memory-location"
    BEST_STATE = NO_LOCATIONS | VALID_STATE
    requires_callee_for_call_base = True
    has_trivial_initializer = False
    _LOCATIONS: ClassVar[tuple[int, ...]] = (1, 2, 4, 8, 16, 32, 64, 128)

    __slots__ = ("accesses",)

    def __init__(self, pos: IRPosition) -> None:
        super().__init__(pos)
        self.accesses: dict[int, dict[tuple[int, int, int], Access]] = {}

    @classmethod
    def is_valid_position_for_init(cls, a: Attributor, pos: IRPosition) -> bool:
        return _is_fn_scope_or_pointer(pos)

    @classmethod
    def is_implied_by_ir(cls, a: Attributor, pos: IRPosition, ignore_subsuming: bool = False) -> bool:
        return False

    def is_assumed_read_none(self) -> bool:
        return self.is_assumed(NO_LOCATIONS) or self.is_assumed(inverse_location(NO_LOCAL_MEM, True, True))

    def initialize(self, a: Attributor) -> None:
        self.state.intersect_assumed_bits(self.BEST_STATE)
        use_arg_mem_only = True
        scope = self.pos.anchor_scope
        if scope is not None and a.is_run_on(scope):
            use_arg_mem_only = not scope.has_local_linkage
        for attr in a.get_attrs(self.pos, ("memory",)):
            me = attr.memory_effects
            if me.does_not_access_memory:
                self.state.add_known_bits(NO_LOCAL_MEM | NO_CONST_MEM)
            elif me.only_accesses_inaccessible_mem:
                self.state.add_known_bits(inverse_location(NO_INACCESSIBLE_MEM, True, True))
            elif me.only_accesses_arg_pointees or me.only_accesses_inaccessible_or_arg_mem:
                if use_arg_mem_only:
                    locs = NO_ARGUMENT_MEM if me.only_accesses_arg_pointees else NO_ARGUMENT_MEM | NO_INACCESSIBLE_MEM
                    self.state.add_known_bits(inverse_location(locs, True, True))
                else:
                    widened = MemoryEffects.with_all(me.get_mod_ref())
                    a.manifest_attrs(self.pos, [Attribute.memory(widened)], True)

    # --- accesses -------------------------------------------------------------------------------
    def _record(self, mlk: int, inst: Instruction | None, ptr: Value | None, kind: int) -> bool:
        bucket = self.accesses.setdefault(mlk, {})
        key = (id(inst), id(ptr), kind)
        added = key not in bucket
        if added:
            bucket[key] = (inst, ptr, kind)
        return added

    def _update_state_and_accesses(
        self, state_bits: list[int], mlk: int, inst: Instruction | None, ptr: Value | None, kind: int
    ) -> bool:
        """Record an access of location ``mlk`` and clear its bit in ``state_bits[0]``."""
        added = self._record(mlk, inst, ptr, kind)
        remove = NO_LOCATIONS if mlk == NO_UNKNOWN_MEM else mlk
        state_bits[0] &= ~remove
        return added

    def for_all_accesses(self, requested: int) -> list[tuple[int, Access]] | None:
        """``checkForAllAccessesToMemoryKind`` with an always-true predicate: the accesses
        of the kinds outside ``requested``, None when the state is invalid."""
        if not self.state.is_valid():
            return None
        if self.state.assumed & NO_LOCATIONS == NO_LOCATIONS:
            return []
        out: list[tuple[int, Access]] = []
        for mlk in self._LOCATIONS:
            if mlk & requested:
                continue
            for access in self.accesses.get(mlk, {}).values():
                out.append((mlk, access))
        return out

    def indicate_pessimistic_fixpoint(self) -> ChangeStatus:
        known = self.state.known
        anchor = self.pos.associated_value
        inst = anchor if isinstance(anchor, Instruction) else None
        for mlk in self._LOCATIONS:
            if not mlk & known:
                self._record(mlk, inst, None, _access_kind(inst))
                self.state.remove_assumed_bits(NO_LOCATIONS if mlk == NO_UNKNOWN_MEM else mlk)
        return self.state.indicate_pessimistic_fixpoint()

    def _categorize_ptr_value(
        self, a: Attributor, inst: Instruction, ptr: Value, locs: list[int], access_as: int = 0
    ) -> bool:
        changed = False
        fn = self.pos.associated_function
        kind = _access_kind(inst)
        gpu = _is_gpu(inst.function)
        for obj in underlying_objects(a, ptr):
            obj_as = int(getattr(obj.type, "address_space", 0))
            if gpu and (access_as == _GPU_CONSTANT_AS or (obj_as == _GPU_CONSTANT_AS and _is_identified(obj))):
                continue
            if isinstance(obj, UndefValue):
                continue
            if isinstance(obj, Argument):
                mlk = NO_ARGUMENT_MEM
            elif isinstance(obj, GlobalValue):
                if isinstance(obj, GlobalVariable) and obj.is_constant_global:
                    continue
                mlk = NO_GLOBAL_INTERNAL_MEM if obj.has_local_linkage else NO_GLOBAL_EXTERNAL_MEM
            elif isinstance(obj, ConstantPointerNull) and (
                not null_pointer_is_defined(fn, access_as) or not null_pointer_is_defined(fn, obj_as)
            ):
                continue
            elif isinstance(obj, AllocaInst):
                mlk = NO_LOCAL_MEM
            elif isinstance(obj, CallBase):
                noalias = no_alias_implied_by_ir(a, IRPosition.callsite_returned(obj))
                mlk = NO_MALLOCED_MEM if noalias else NO_UNKNOWN_MEM
            else:
                mlk = NO_UNKNOWN_MEM
            changed |= self._update_state_and_accesses(locs, mlk, inst, obj, kind)
        return changed

    def _categorize_accessed_locations(self, a: Attributor, inst: Instruction) -> tuple[int, bool]:
        locs = [NO_LOCATIONS]
        changed = False
        kind = _access_kind(inst)
        if isinstance(inst, CallBase):
            cs_aa = a.get_aa_for(AAMemoryLocation, self, IRPosition.callsite_function(inst), DepClass.OPTIONAL)
            if cs_aa is None:
                changed |= self._update_state_and_accesses(locs, NO_UNKNOWN_MEM, inst, None, kind)
                return NO_UNKNOWN_MEM, changed
            if cs_aa.is_assumed_read_none():
                return NO_LOCATIONS, changed
            if cs_aa.is_assumed(inverse_location(NO_INACCESSIBLE_MEM, True, True)):
                changed |= self._update_state_and_accesses(locs, NO_INACCESSIBLE_MEM, inst, None, kind)
                return locs[0], changed
            cs_not = cs_aa.state.assumed
            cs_not_no_arg = cs_not | NO_ARGUMENT_MEM | NO_GLOBAL_MEM
            for mlk in self._LOCATIONS:
                if cs_not_no_arg & mlk:
                    continue
                changed |= self._update_state_and_accesses(locs, mlk, inst, None, kind)
            if ~cs_not & NO_GLOBAL_MEM:
                found = cs_aa.for_all_accesses(inverse_location(NO_GLOBAL_MEM, False, False))
                if found is None:
                    return 0, changed
                for mlk, (_, ptr, _) in found:
                    changed |= self._update_state_and_accesses(locs, mlk, inst, ptr, kind)
            if ~cs_not & NO_ARGUMENT_MEM:
                for i in range(inst.arg_size):
                    arg_op = inst.get_arg(i)
                    if not arg_op.type.is_ptr_or_ptr_vector:
                        continue
                    mb = a.get_aa_for(AAMemoryBehavior, self, IRPosition.callsite_argument(inst, i), DepClass.OPTIONAL)
                    if mb is not None and mb.is_assumed(NO_ACCESSES):
                        continue
                    changed |= self._categorize_ptr_value(a, inst, arg_op, locs)
            return locs[0], changed
        ptr = _pointer_operand(inst)
        if ptr is not None:
            changed |= self._categorize_ptr_value(a, inst, ptr, locs, int(getattr(ptr.type, "address_space", 0)))
            return locs[0], changed
        changed |= self._update_state_and_accesses(locs, NO_UNKNOWN_MEM, inst, None, kind)
        return locs[0], changed

    def update_impl(self, a: Attributor) -> ChangeStatus:
        if self.pos.kind == PositionKind.CALL_SITE:
            return self._update_call_site(a)
        mb = a.get_aa_for(AAMemoryBehavior, self, self.pos, DepClass.NONE)
        if mb is not None and mb.is_assumed(NO_ACCESSES):
            if mb.is_known(NO_ACCESSES):
                return self.indicate_optimistic_fixpoint()
            a.record_dependence(mb, self, DepClass.OPTIONAL)
            return ChangeStatus.UNCHANGED
        before = self.state.assumed
        changed = False

        def check(inst: Instruction) -> bool:
            nonlocal changed
            mlk, ch = self._categorize_accessed_locations(a, inst)
            changed |= ch
            self.state.remove_assumed_bits(inverse_location(mlk, False, False))
            return self.state.assumed != VALID_STATE

        if not a.check_for_all_read_write_instructions(check, self):
            return self.indicate_pessimistic_fixpoint()
        return ChangeStatus.CHANGED if changed or before != self.state.assumed else ChangeStatus.UNCHANGED

    def _update_call_site(self, a: Attributor) -> ChangeStatus:
        fn = self.pos.associated_function
        assert fn is not None
        fn_aa = a.get_aa_for(AAMemoryLocation, self, IRPosition.function(fn), DepClass.REQUIRED)
        if fn_aa is None:
            return self.indicate_pessimistic_fixpoint()
        found = fn_aa.for_all_accesses(0)
        if found is None:
            return self.indicate_pessimistic_fixpoint()
        changed = False
        for mlk, (inst, ptr, _) in found:
            bits = [self.state.assumed]
            changed |= self._update_state_and_accesses(bits, mlk, inst, ptr, _access_kind(inst))
            self.state.remove_assumed_bits(~bits[0] & NO_LOCATIONS)
        return ChangeStatus.CHANGED if changed else ChangeStatus.UNCHANGED

    def deduced_attributes(self, a: Attributor) -> list[Attribute]:
        if self.pos.kind != PositionKind.FUNCTION:
            return []
        if self.is_assumed_read_none():
            return [Attribute.memory(MemoryEffects.none())]
        if self.is_assumed(inverse_location(NO_INACCESSIBLE_MEM, True, True)):
            return [Attribute.memory(MemoryEffects.inaccessible_mem_only())]
        if self.is_assumed(inverse_location(NO_ARGUMENT_MEM, True, True)):
            return [Attribute.memory(MemoryEffects.arg_mem_only())]
        if self.is_assumed(inverse_location(NO_INACCESSIBLE_MEM | NO_ARGUMENT_MEM, True, True)):
            return [Attribute.memory(MemoryEffects.inaccessible_or_arg_mem_only())]
        return []

    def manifest(self, a: Attributor) -> ChangeStatus:
        deduced = self.deduced_attributes(a)
        if len(deduced) != 1:
            return ChangeStatus.UNCHANGED
        return a.manifest_attrs(self.pos, deduced)


def no_alias_implied_by_ir(a: Attributor, pos: IRPosition) -> bool:
    """``AANoAlias::isImpliedByIR`` (``noalias`` has no abstract attribute in the light
    configuration, so this is all ``hasAssumedIRAttr`` can answer for it)."""
    val = pos.associated_value
    ignore_subsuming = False
    if pos.kind != PositionKind.CALL_SITE_ARGUMENT:
        if isinstance(val, AllocaInst):
            return True
    else:
        ignore_subsuming = True
    if isinstance(val, UndefValue):
        return True
    if isinstance(val, ConstantPointerNull) and not null_pointer_is_defined(
        pos.anchor_scope, int(getattr(val.type, "address_space", 0))
    ):
        return True
    return a.has_attr(pos, ("byval", "noalias"), ignore_subsuming, "noalias")


def _is_identified(obj: Value) -> bool:
    from llvmpy_mid.analysis.alias.identified_objects import is_identified_object

    return bool(is_identified_object(obj))


def _pointer_operand(inst: Instruction) -> Value | None:
    """LLVM ``getPointerOperand(I, /*AllowVolatile=*/true)``."""
    op = inst.opcode
    if op == "load" or op == "atomicrmw" or op == "cmpxchg":
        return inst.operands[0]
    if op == "store":
        return inst.operands[1]
    return None


IR_ATTR_AAS["memory-behavior"] = AAMemoryBehavior
