"""The alias-analysis aggregate and the provider interface (LLVM's ``AAResults``,
``AAResultBase``, ``AAQueryInfo`` and ``BatchAAResults``; ``lib/Analysis/AliasAnalysis.cpp``).

How it fits together:

- A *provider* (:class:`AAResultBase` subclass: BasicAA, ScopedNoAliasAA, TBAA, GlobalsAA)
  answers the primitive queries; its defaults are the conservative answers.
- :class:`AAResults` chains providers in the ``-aa-pipeline`` order: ``alias`` takes the
  first answer that is not ``MayAlias``; the mod/ref queries intersect every provider's
  answer and then refine it with the memory effects of calls and their arguments,
  exactly as LLVM's ``AAResults`` does. It also has LLVM's per-instruction ``getModRefInfo``
  dispatch, ``callCapturesBefore`` and the range queries.
- :class:`AAQueryInfo` is the state of one query (or of a batch of queries): BasicAA's alias
  cache, the capture information in use, the recursion depth and the assumption-based
  results. Plain :class:`AAResults` calls use a fresh one each time;
  :class:`BatchAAResults` keeps one for many queries while the IR does not change.
- :class:`CaptureInfo` answers "is this object captured before this instruction?";
  :class:`SimpleCaptureInfo` ignores the position (any capture counts) and caches per object.

Python spelling of LLVM's overloads: ``get_mod_ref_info(inst, loc)`` is the per-instruction
query (``loc=None`` for "the instruction as a whole"); ``get_mod_ref_info_call(inst, call)``
is ``getModRefInfo(const Instruction *, const CallBase *)``; ``get_memory_effects(call)``
and ``get_function_memory_effects(fn)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.analysis.alias.alias_result import MAY_ALIAS, MUST_ALIAS, NO_ALIAS, AliasKind, AliasResult
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import AtomicCmpXchgInst, AtomicRMWInst, FenceInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import VAArgInst
from llvmpy_mid.ir.memory_effects import IRMemLocation, MemoryEffects, ModRefInfo
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.function import Function

NO_MOD_REF = ModRefInfo.NO_MOD_REF
REF = ModRefInfo.REF
MOD = ModRefInfo.MOD
MOD_REF = ModRefInfo.MOD_REF


def is_mod_set(mr: ModRefInfo | int) -> bool:
    return bool(mr & MOD)


def is_ref_set(mr: ModRefInfo | int) -> bool:
    return bool(mr & REF)


def is_mod_or_ref_set(mr: ModRefInfo | int) -> bool:
    return bool(mr)


def is_no_mod_ref(mr: ModRefInfo | int) -> bool:
    return not mr


def mod_ref_text(mr: ModRefInfo | int) -> str:
    """LLVM's ``operator<<(ModRefInfo)``: ``NoModRef``, ``Ref``, ``Mod``, ``ModRef``."""
    return ("NoModRef", "Ref", "Mod", "ModRef")[int(mr)]


def memory_effects_text(me: MemoryEffects) -> str:
    """LLVM's ``operator<<(MemoryEffects)``: ``ArgMem: Ref, InaccessibleMem: NoModRef, Other: ModRef, ``."""
    names = ("ArgMem", "InaccessibleMem", "Other")
    return "".join("%s: %s, " % (names[loc], mod_ref_text(me.get_mod_ref(loc))) for loc in IRMemLocation)


# --- capture information ------------------------------------------------------------------------


class CaptureInfo:
    """Is ``obj`` captured before ``inst`` (or at it, when ``or_at``)? LLVM ``CaptureInfo``."""

    def is_not_captured_before(self, obj: Value, inst: Instruction | None, or_at: bool) -> bool:
        raise NotImplementedError


class SimpleCaptureInfo(CaptureInfo):
    """Any capture anywhere counts (LLVM ``SimpleCaptureInfo``: ``isNonEscapingLocalObject``
    with a per-object cache)."""

    __slots__ = ("_cache",)

    def __init__(self) -> None:
        self._cache: dict[Value, bool] = {}

    def is_not_captured_before(self, obj: Value, inst: Instruction | None, or_at: bool) -> bool:
        found = self._cache.get(obj)
        if found is None:
            from llvmpy_mid.analysis.capture_tracking import pointer_may_be_captured
            from llvmpy_mid.analysis.loads import is_identified_function_local

            found = is_identified_function_local(obj) and not pointer_may_be_captured(obj, False, True)
            self._cache[obj] = found
        return found


# --- query state --------------------------------------------------------------------------------


class AACacheEntry:
    """One cached alias answer and how many assumption-based answers it used."""

    __slots__ = ("result", "num_assumption_uses")

    def __init__(self, result: AliasResult, num_assumption_uses: int) -> None:
        self.result = result
        self.num_assumption_uses = num_assumption_uses

    DEFINITIVE = -2
    """``num_assumption_uses`` of a final answer (LLVM ``CacheEntry::Definitive``)."""
    ASSUMPTION_BASED = -1
    """``num_assumption_uses`` of an answer resting on an assumption (LLVM ``AssumptionBased``)."""

    @property
    def is_definitive(self) -> bool:
        return self.num_assumption_uses == AACacheEntry.DEFINITIVE


class AAQueryInfo:
    """The state of one query or batch (LLVM ``AAQueryInfo``).

    ``alias_cache`` maps BasicAA's cache key (``((ptr_a, cross_a, raw_size_a), (ptr_b,
    cross_b, raw_size_b))``, ordered as BasicAA orders them) to an :class:`AACacheEntry`.
    ``may_be_cross_iteration``: the two locations may be in different iterations of a cycle
    (phi translation does this). ``use_dominator_tree``: BasicAA may use the dominator tree
    (DSE and MemorySSA's walker turn it off for some queries)."""

    __slots__ = (
        "aar", "ci", "alias_cache", "depth", "num_assumption_uses", "assumption_based_results",
        "may_be_cross_iteration", "use_dominator_tree",
    )

    def __init__(self, aar: AAResults, ci: CaptureInfo | None = None) -> None:
        self.aar = aar
        self.ci: CaptureInfo = ci if ci is not None else SimpleCaptureInfo()
        self.alias_cache: dict[object, AACacheEntry] = {}
        self.depth = 0
        self.num_assumption_uses = 0
        self.assumption_based_results: list[object] = []
        self.may_be_cross_iteration = False
        self.use_dominator_tree = True


# --- providers ----------------------------------------------------------------------------------


class AAResultBase:
    """A provider's answers; the defaults are LLVM ``AAResultBase``'s (no information)."""

    def alias(self, loc_a: MemoryLocation, loc_b: MemoryLocation, aaqi: AAQueryInfo, ctx_i: Instruction | None) -> AliasResult:
        return MAY_ALIAS

    def get_mod_ref_info_mask(self, loc: MemoryLocation, aaqi: AAQueryInfo, ignore_locals: bool) -> ModRefInfo:
        return MOD_REF

    def get_arg_mod_ref_info(self, call: CallBase, arg_idx: int) -> ModRefInfo:
        return MOD_REF

    def get_memory_effects(self, call: CallBase, aaqi: AAQueryInfo) -> MemoryEffects:
        return MemoryEffects.unknown()

    def get_function_memory_effects(self, fn: Function) -> MemoryEffects:
        return MemoryEffects.unknown()

    def get_mod_ref_info(self, call: CallBase, loc: MemoryLocation, aaqi: AAQueryInfo) -> ModRefInfo:
        return MOD_REF

    def get_mod_ref_info_calls(self, call1: CallBase, call2: CallBase, aaqi: AAQueryInfo) -> ModRefInfo:
        return MOD_REF


# --- the aggregate ------------------------------------------------------------------------------


def _is_stronger_than_unordered(inst: LoadInst | StoreInst) -> bool:
    return bool(inst.ordering.is_stronger_than_unordered)


class AAResults:
    """The chain of providers of one function (LLVM ``AAResults``); the result of
    ``AAManager``."""

    def __init__(self, tli: TargetLibraryInfo | None) -> None:
        self.tli = tli
        self.providers: list[AAResultBase] = []
        self.dependencies: list[type] = []
        """The function analyses whose invalidation invalidates this result."""

    def add_provider(self, provider: AAResultBase) -> None:
        self.providers.append(provider)

    def query_info(self) -> AAQueryInfo:
        return AAQueryInfo(self)

    # --- alias ------------------------------------------------------------------------------
    def alias(
        self, loc_a: MemoryLocation, loc_b: MemoryLocation, aaqi: AAQueryInfo | None = None, ctx_i: Instruction | None = None
    ) -> AliasResult:
        if aaqi is None:
            aaqi = AAQueryInfo(self)
        result = MAY_ALIAS
        aaqi.depth += 1
        try:
            for aa in self.providers:
                result = aa.alias(loc_a, loc_b, aaqi, ctx_i)
                if result.kind is not AliasKind.MAY_ALIAS:
                    break
        finally:
            aaqi.depth -= 1
        return result

    def alias_values(self, v1: Value, size1: object, v2: Value, size2: object) -> AliasResult:
        """``alias(V1, Size1, V2, Size2)`` with :class:`LocationSize` sizes."""
        from llvmpy_mid.analysis.alias.memory_location import LocationSize

        assert isinstance(size1, LocationSize) and isinstance(size2, LocationSize)
        return self.alias(MemoryLocation(v1, size1), MemoryLocation(v2, size2))

    def is_no_alias(self, loc_a: MemoryLocation, loc_b: MemoryLocation) -> bool:
        return self.alias(loc_a, loc_b) == NO_ALIAS

    def is_must_alias(self, loc_a: MemoryLocation, loc_b: MemoryLocation) -> bool:
        return self.alias(loc_a, loc_b) == MUST_ALIAS

    # --- masks and effects --------------------------------------------------------------------
    def get_mod_ref_info_mask(self, loc: MemoryLocation, ignore_locals: bool = False, aaqi: AAQueryInfo | None = None) -> ModRefInfo:
        if aaqi is None:
            aaqi = AAQueryInfo(self)
        result = MOD_REF
        for aa in self.providers:
            result &= aa.get_mod_ref_info_mask(loc, aaqi, ignore_locals)
            if not result:
                return NO_MOD_REF
        return ModRefInfo(result)

    def points_to_constant_memory(self, loc: MemoryLocation, or_local: bool = False) -> bool:
        """LLVM ``pointsToConstantMemory``: the mask has no ``Mod``."""
        return not is_mod_set(self.get_mod_ref_info_mask(loc, or_local))

    def get_arg_mod_ref_info(self, call: CallBase, arg_idx: int) -> ModRefInfo:
        result = MOD_REF
        for aa in self.providers:
            result &= aa.get_arg_mod_ref_info(call, arg_idx)
            if not result:
                return NO_MOD_REF
        return ModRefInfo(result)

    def get_memory_effects(self, call: CallBase, aaqi: AAQueryInfo | None = None) -> MemoryEffects:
        if aaqi is None:
            aaqi = AAQueryInfo(self)
        result = MemoryEffects.unknown()
        for aa in self.providers:
            result = result & aa.get_memory_effects(call, aaqi)
            if result.does_not_access_memory:
                return result
        return result

    def get_function_memory_effects(self, fn: Function) -> MemoryEffects:
        result = MemoryEffects.unknown()
        for aa in self.providers:
            result = result & aa.get_function_memory_effects(fn)
            if result.does_not_access_memory:
                return result
        return result

    def does_not_access_memory(self, call: CallBase) -> bool:
        return self.get_memory_effects(call).does_not_access_memory

    def only_reads_memory(self, call: CallBase) -> bool:
        return self.get_memory_effects(call).only_reads_memory

    # --- mod/ref of calls -----------------------------------------------------------------------
    def get_mod_ref_info_call_loc(self, call: CallBase, loc: MemoryLocation, aaqi: AAQueryInfo) -> ModRefInfo:
        """``getModRefInfo(const CallBase *, const MemoryLocation &, AAQueryInfo &)``."""
        result = MOD_REF
        for aa in self.providers:
            result &= aa.get_mod_ref_info(call, loc, aaqi)
            if not result:
                return NO_MOD_REF
        me = self.get_memory_effects(call, aaqi).without_location(IRMemLocation.INACCESSIBLE_MEM)
        if me.does_not_access_memory:
            return NO_MOD_REF
        arg_mr = me.get_mod_ref(IRMemLocation.ARG_MEM)
        other_mr = me.without_location(IRMemLocation.ARG_MEM).get_mod_ref()
        if (arg_mr | other_mr) != other_mr:
            all_args = 0
            tli = self.tli
            for idx, arg in enumerate(call.args):
                if not arg.type.is_pointer:
                    continue
                arg_loc = MemoryLocation.get_for_argument(call, idx, tli)
                if self.alias(arg_loc, loc, aaqi, call).kind is not AliasKind.NO_ALIAS:
                    all_args |= self.get_arg_mod_ref_info(call, idx)
            arg_mr = ModRefInfo(arg_mr & all_args)
        result &= arg_mr | other_mr
        if result:
            result &= self.get_mod_ref_info_mask(loc)
        return ModRefInfo(result)

    def get_mod_ref_info_calls(self, call1: CallBase, call2: CallBase, aaqi: AAQueryInfo | None = None) -> ModRefInfo:
        """``getModRefInfo(const CallBase *, const CallBase *)``."""
        if aaqi is None:
            aaqi = AAQueryInfo(self)
        result = MOD_REF
        for aa in self.providers:
            result &= aa.get_mod_ref_info_calls(call1, call2, aaqi)
            if not result:
                return NO_MOD_REF
        b1 = self.get_memory_effects(call1, aaqi)
        if b1.does_not_access_memory:
            return NO_MOD_REF
        b2 = self.get_memory_effects(call2, aaqi)
        if b2.does_not_access_memory:
            return NO_MOD_REF
        if b1.only_reads_memory and b2.only_reads_memory:
            return NO_MOD_REF
        if b1.only_reads_memory:
            result &= REF
        elif b1.only_writes_memory:
            result &= MOD
        tli = self.tli
        if b2.only_accesses_arg_pointees:
            if not b2.get_mod_ref(IRMemLocation.ARG_MEM):
                return NO_MOD_REF
            r = 0
            for idx, arg in enumerate(call2.args):
                if not arg.type.is_pointer:
                    continue
                loc2 = MemoryLocation.get_for_argument(call2, idx, tli)
                c2 = self.get_arg_mod_ref_info(call2, idx)
                mask = MOD_REF if is_mod_set(c2) else (MOD if is_ref_set(c2) else NO_MOD_REF)
                mask &= self.get_mod_ref_info_call_loc(call1, loc2, aaqi)
                r = (r | mask) & result
                if r == result:
                    break
            return ModRefInfo(r)
        if b1.only_accesses_arg_pointees:
            if not b1.get_mod_ref(IRMemLocation.ARG_MEM):
                return NO_MOD_REF
            r = 0
            for idx, arg in enumerate(call1.args):
                if not arg.type.is_pointer:
                    continue
                loc1 = MemoryLocation.get_for_argument(call1, idx, tli)
                c1 = self.get_arg_mod_ref_info(call1, idx)
                c2 = self.get_mod_ref_info_call_loc(call2, loc1, aaqi)
                if (is_mod_set(c1) and c2) or (is_ref_set(c1) and is_mod_set(c2)):
                    r = (r | c1) & result
                if r == result:
                    break
            return ModRefInfo(r)
        return ModRefInfo(result)

    def get_mod_ref_info_call(self, inst: Instruction, call2: CallBase, aaqi: AAQueryInfo | None = None) -> ModRefInfo:
        """``getModRefInfo(const Instruction *, const CallBase *)``: may ``inst`` and the
        call interfere?"""
        if aaqi is None:
            aaqi = AAQueryInfo(self)
        if isinstance(inst, CallBase):
            return self.get_mod_ref_info_calls(inst, call2, aaqi)
        if _is_fence_like(inst):
            return MOD_REF
        mr = self.get_mod_ref_info_call_loc(call2, MemoryLocation.get(inst), aaqi)
        return MOD_REF if mr else NO_MOD_REF

    # --- the per-instruction dispatch ------------------------------------------------------------
    def get_mod_ref_info(self, inst: Instruction, loc: MemoryLocation | None, aaqi: AAQueryInfo | None = None) -> ModRefInfo:
        """What ``inst`` may do to ``loc`` (to any memory when ``loc`` is None)."""
        if aaqi is None:
            aaqi = AAQueryInfo(self)
        if loc is None:
            if isinstance(inst, CallBase):
                return self.get_memory_effects(inst, aaqi).get_mod_ref()
            loc = _EMPTY
        ptr = loc.ptr
        tp = type(inst)
        if tp is LoadInst:
            assert isinstance(inst, LoadInst)
            if _is_stronger_than_unordered(inst):
                return MOD_REF
            if ptr is not None and self.alias(MemoryLocation.get(inst), loc, aaqi, inst).kind is AliasKind.NO_ALIAS:
                return NO_MOD_REF
            return REF
        if tp is StoreInst:
            assert isinstance(inst, StoreInst)
            if _is_stronger_than_unordered(inst):
                return MOD_REF
            if ptr is not None:
                if self.alias(MemoryLocation.get(inst), loc, aaqi, inst).kind is AliasKind.NO_ALIAS:
                    return NO_MOD_REF
                if not is_mod_set(self.get_mod_ref_info_mask(loc)):
                    return NO_MOD_REF
            return MOD
        if isinstance(inst, CallBase):
            return self.get_mod_ref_info_call_loc(inst, loc, aaqi)
        if tp is FenceInst:
            return self.get_mod_ref_info_mask(loc) if ptr is not None else MOD_REF
        if tp is VAArgInst:
            if ptr is not None:
                if self.alias(MemoryLocation.get(inst), loc, aaqi, inst).kind is AliasKind.NO_ALIAS:
                    return NO_MOD_REF
                return self.get_mod_ref_info_mask(loc, False, aaqi)
            return MOD_REF
        if tp is AtomicCmpXchgInst or tp is AtomicRMWInst:
            ordering = inst.success_ordering if tp is AtomicCmpXchgInst else inst.ordering  # type: ignore[attr-defined]
            if ordering.is_stronger_than_monotonic:
                return MOD_REF
            if ptr is not None and self.alias(MemoryLocation.get(inst), loc, aaqi, inst).kind is AliasKind.NO_ALIAS:
                return NO_MOD_REF
            return MOD_REF
        op = inst.opcode
        if op == "catchpad" or op == "catchret":
            return self.get_mod_ref_info_mask(loc, False, aaqi) if ptr is not None else MOD_REF
        return NO_MOD_REF

    def call_captures_before(
        self, inst: Instruction, loc: MemoryLocation, dt: DominatorTree | None, aaqi: AAQueryInfo | None = None
    ) -> ModRefInfo:
        """LLVM ``callCapturesBefore``: what the call ``inst`` may do to ``loc``'s object when
        that object is a function-local one not captured before the call."""
        from llvmpy_mid.analysis.capture_tracking import pointer_may_be_captured_before
        from llvmpy_mid.analysis.loads import is_identified_function_local
        from llvmpy_mid.analysis.underlying_objects import get_underlying_object

        if dt is None or loc.ptr is None:
            return MOD_REF
        if aaqi is None:
            aaqi = AAQueryInfo(self)
        obj = get_underlying_object(loc.ptr)
        if not is_identified_function_local(obj):
            return MOD_REF
        if not isinstance(inst, CallBase) or inst is obj:
            return MOD_REF
        if pointer_may_be_captured_before(obj, True, True, inst, dt, include_i=True):
            return MOD_REF
        r = NO_MOD_REF
        n_args = inst.arg_size
        for arg_no, operand in enumerate(_data_operands(inst)):
            if not operand.type.is_pointer:
                continue
            if arg_no < n_args and not inst.param_has_attr(arg_no, "nocapture") and not inst.param_has_attr(arg_no, "byval"):
                continue
            ar = self.alias(MemoryLocation.get_before_or_after(operand), MemoryLocation.get_before_or_after(obj), aaqi, inst)
            if ar.kind is AliasKind.NO_ALIAS:
                continue
            if _operand_does_not_access_memory(inst, arg_no):
                continue
            if _operand_only_reads_memory(inst, arg_no):
                r = REF
                continue
            return MOD_REF
        return r

    # --- ranges -------------------------------------------------------------------------------
    def can_basic_block_modify(self, bb: BasicBlock, loc: MemoryLocation) -> bool:
        first = bb.instructions.first
        last = bb.instructions.last
        if first is None or last is None:
            return False
        return self.can_instruction_range_mod_ref(first, last, loc, MOD)

    def can_instruction_range_mod_ref(self, i1: Instruction, i2: Instruction, loc: MemoryLocation, mode: ModRefInfo) -> bool:
        """May any instruction of ``[i1, i2]`` (one block, inclusive) mod/ref ``loc``?"""
        inst: Instruction | None = i1
        while inst is not None:
            if self.get_mod_ref_info(inst, loc) & mode:
                return True
            if inst is i2:
                break
            inst = inst.next_instruction
        return False


_EMPTY = MemoryLocation(None)


def _is_fence_like(inst: Instruction) -> bool:
    """``Instruction::isFenceLike`` for a non-call: a fence, ``catchpad`` or ``catchret``
    (accesses without a memory location)."""
    return type(inst) is FenceInst or inst.opcode == "catchpad" or inst.opcode == "catchret"


def _data_operands(call: CallBase) -> list[Value]:
    """The call's arguments followed by its bundle operands (LLVM ``data_ops``)."""
    return list(call.operands[: call.arg_size + call.num_total_bundle_operands])


def _operand_does_not_access_memory(call: CallBase, op_no: int) -> bool:
    """``CallBase::doesNotAccessMemory(OpNo)``: a ``readnone`` argument (bundle operands
    never are)."""
    return op_no < call.arg_size and call.param_has_attr(op_no, "readnone")


def _operand_only_reads_memory(call: CallBase, op_no: int) -> bool:
    """``CallBase::onlyReadsMemory(OpNo)``: a ``byval``, ``readonly`` or ``readnone``
    argument, or a pointer operand of a ``deopt`` bundle."""
    if op_no < call.arg_size:
        return call.param_has_attr(op_no, "byval") or call.param_has_attr(op_no, "readonly") or call.param_has_attr(op_no, "readnone")
    return call.bundle_of_operand(op_no).tag == "deopt" and call.operands[op_no].type.is_pointer


class BatchAAResults:
    """Many queries on unchanging IR with one query state (LLVM ``BatchAAResults``)."""

    __slots__ = ("aa", "aaqi")

    def __init__(self, aa: AAResults, ci: CaptureInfo | None = None) -> None:
        self.aa = aa
        self.aaqi = AAQueryInfo(aa, ci)

    def alias(self, loc_a: MemoryLocation, loc_b: MemoryLocation, ctx_i: Instruction | None = None) -> AliasResult:
        return self.aa.alias(loc_a, loc_b, self.aaqi, ctx_i)

    def is_must_alias(self, loc_a: MemoryLocation, loc_b: MemoryLocation) -> bool:
        return self.alias(loc_a, loc_b) == MUST_ALIAS

    def is_no_alias(self, loc_a: MemoryLocation, loc_b: MemoryLocation) -> bool:
        return self.alias(loc_a, loc_b) == NO_ALIAS

    def get_mod_ref_info_mask(self, loc: MemoryLocation, ignore_locals: bool = False) -> ModRefInfo:
        return self.aa.get_mod_ref_info_mask(loc, ignore_locals, self.aaqi)

    def points_to_constant_memory(self, loc: MemoryLocation, or_local: bool = False) -> bool:
        return not is_mod_set(self.get_mod_ref_info_mask(loc, or_local))

    def get_mod_ref_info(self, inst: Instruction, loc: MemoryLocation | None) -> ModRefInfo:
        return self.aa.get_mod_ref_info(inst, loc, self.aaqi)

    def get_mod_ref_info_call(self, inst: Instruction, call2: CallBase) -> ModRefInfo:
        return self.aa.get_mod_ref_info_call(inst, call2, self.aaqi)

    def get_memory_effects(self, call: CallBase) -> MemoryEffects:
        return self.aa.get_memory_effects(call, self.aaqi)

    def get_arg_mod_ref_info(self, call: CallBase, arg_idx: int) -> ModRefInfo:
        return self.aa.get_arg_mod_ref_info(call, arg_idx)

    def call_captures_before(self, inst: Instruction, loc: MemoryLocation, dt: DominatorTree | None) -> ModRefInfo:
        return self.aa.call_captures_before(inst, loc, dt, self.aaqi)

    def enable_cross_iteration_mode(self) -> None:
        self.aaqi.may_be_cross_iteration = True

    def disable_dominator_tree(self) -> None:
        self.aaqi.use_dominator_tree = False


ProviderFactory = Callable[[], AAResultBase]
