"""GlobalsAA: alias and mod/ref answers about internal globals whose address never
escapes, and the memory behaviour of functions over the call graph (LLVM 19.1.7
``lib/Analysis/GlobalsModRef.cpp``).

What:

* *Non-address-taken globals*: an internal function or global variable whose every use
  is a direct load, a store into it, a GEP/bitcast/addrspacecast of it used the same way,
  a comparison with null, a call of it, a ``free`` of it, or an argument of a
  ``nocallback`` declaration that does not capture it. For each such variable the
  functions that read or write it are recorded.
* *Indirect globals*: such a global of pointer type, initialised to null, that only ever
  holds the result of a ``noalias`` call (``malloc``) whose other uses are simple; the
  memory it points to belongs to it.
* *Function mod/ref*: over the (legacy) call graph's SCCs, bottom-up, each function's
  mod/ref of memory in general and of each tracked global, from its own loads and stores,
  its callees' summaries, and the memory attributes of declarations (a declaration that
  may call back into the module or synchronise makes its callers unknown).

``alias`` says two different non-address-taken globals (or an indirect global's memory
and another's) never alias, and that such a global does not alias pointers that can only
come from outside (arguments, call results, loads of other globals, through selects,
phis and loads to a depth of 4). ``get_mod_ref_info(call, loc)`` answers a direct call
against a tracked internal global from the callee's summary and the call's arguments;
``get_function_memory_effects`` gives the summary. ``-enable-unsafe-globalsmodref-alias-results``
(default off) also answers ``NoAlias`` when only one side is a tracked global.

It is a module analysis: ``am.get_result(GlobalsAA, module)`` (``require<globals-aa>``);
the ``AAManager`` of a function uses it only when it is cached. Running it asks for the
function analysis manager proxy and the ``CallGraphAnalysis``, and for a function's
``TargetLibraryAnalysis`` only when a global is passed to a call (to recognise ``free``),
as opt-19 logs them. The result is kept unless a pass abandons ``GlobalsAA`` explicitly.
``recompute-globalsaa`` recomputes a cached result in place.

As in opt-19, the "some internal function has its address taken" flag that limits
``get_mod_ref_info`` is set only by ``recompute-globalsaa``: opt-19's ``GlobalsAA`` result
loses it when the pass manager stores it (see :meth:`GlobalsAA.run`).

What it does not do: LLVM's value handles that drop a deleted function, global or
allocation from the tables as it is erased (entries of erased values stay and are never
queried again); LLVM's ``CollectSCCMembership`` table, which nothing reads.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterable

from llvmpy_mid.ir.constants import is_constant_used
from llvmpy_mid.analysis.alias.aa_results import MOD, MOD_REF, NO_MOD_REF, REF, AAQueryInfo, AAResultBase
from llvmpy_mid.analysis.alias.alias_result import MAY_ALIAS, NO_ALIAS, AliasKind, AliasResult
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.call_graph import CallGraph, CallGraphAnalysis
from llvmpy_mid.analysis.loads import is_identified_object, is_no_alias_call
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis, TargetLibraryInfo
from llvmpy_mid.analysis.underlying_objects import get_underlying_object, get_underlying_objects
from llvmpy_mid.ir.constants import ConstantPointerNull
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.global_value import GlobalValue, GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import InvokeInst
from llvmpy_mid.ir.memory_effects import MemoryEffects, ModRefInfo
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts_for_alias_analysis
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager, Invalidator, ModuleAnalysis
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = ["FunctionInfo", "GlobalsAA", "GlobalsAAResult", "RecomputeGlobalsAAPass"]

_MAY_READ_ANY_GLOBAL = 4
"""A function-info flag beside the two mod/ref bits: it may read globals it does not name."""

_MAX_ESCAPE_DEPTH = 4
"""How many selects, phis and loads the non-escaping-global rule looks through."""


def _unsafe_results() -> bool:
    return bool(OPTIONS.value("enable-unsafe-globalsmodref-alias-results"))


class FunctionInfo:
    """What one function (or SCC) does to memory (LLVM ``GlobalsAAResult::FunctionInfo``):
    the mod/ref of memory in general, whether it may read globals it does not name, and
    the mod/ref of particular tracked globals."""

    __slots__ = ("bits", "globals")

    def __init__(self) -> None:
        self.bits = 0
        self.globals: dict[GlobalValue, int] = {}

    def copy(self) -> FunctionInfo:
        other = FunctionInfo()
        other.bits = self.bits
        other.globals = dict(self.globals)
        return other

    @property
    def mod_ref(self) -> ModRefInfo:
        return ModRefInfo(self.bits & MOD_REF)

    def add_mod_ref(self, mr: ModRefInfo | int) -> None:
        self.bits |= int(mr)

    @property
    def may_read_any_global(self) -> bool:
        return bool(self.bits & _MAY_READ_ANY_GLOBAL)

    def set_may_read_any_global(self) -> None:
        self.bits |= _MAY_READ_ANY_GLOBAL

    def mod_ref_for_global(self, gv: GlobalValue) -> ModRefInfo:
        mr = REF if self.may_read_any_global else NO_MOD_REF
        return ModRefInfo(mr | self.globals.get(gv, 0))

    def add_function_info(self, other: FunctionInfo) -> None:
        self.add_mod_ref(other.mod_ref)
        if other.may_read_any_global:
            self.set_may_read_any_global()
        for gv, mr in list(other.globals.items()):
            self.add_mod_ref_for_global(gv, mr)

    def add_mod_ref_for_global(self, gv: GlobalValue, mr: ModRefInfo | int) -> None:
        self.globals[gv] = self.globals.get(gv, 0) | int(mr)

    def erase_mod_ref_for_global(self, gv: GlobalValue) -> None:
        self.globals.pop(gv, None)


def _operator_opcode(v: Value) -> str | None:
    """``Operator::getOpcode``: the opcode of an instruction or constant expression."""
    if v.is_instruction or getattr(v, "is_constant_expr", False):
        return v.opcode  # type: ignore[attr-defined,no-any-return]
    return None


class GlobalsAAResult(AAResultBase):
    """GlobalsAA's tables for one module (see the module docstring)."""

    def __init__(self, module: Module, get_tli: Callable[[Function], TargetLibraryInfo] | None = None) -> None:
        self.module = module
        self.dl = module.data_layout
        self._get_tli = get_tli
        self.non_address_taken_globals: set[GlobalValue] = set()
        self.unknown_functions_with_local_linkage = False
        self.indirect_globals: set[GlobalVariable] = set()
        self.allocs_for_indirect_globals: dict[Value, GlobalVariable] = {}
        self.function_infos: dict[Function, FunctionInfo] = {}

    # --- building -----------------------------------------------------------------------------
    @classmethod
    def analyze_module(
        cls, module: Module, get_tli: Callable[[Function], TargetLibraryInfo] | None, cg: CallGraph
    ) -> GlobalsAAResult:
        """``GlobalsAAResult::analyzeModule``."""
        result = cls(module, get_tli)
        result._analyze(cg)
        return result

    def _analyze(self, cg: CallGraph) -> None:
        self._analyze_globals(self.module)
        self._analyze_call_graph(cg)

    def _reset(self) -> None:
        self.non_address_taken_globals.clear()
        self.unknown_functions_with_local_linkage = False
        self.indirect_globals.clear()
        self.allocs_for_indirect_globals.clear()
        self.function_infos.clear()

    def _tli(self, fn: Function | None) -> TargetLibraryInfo | None:
        if fn is None or self._get_tli is None:
            return None
        return self._get_tli(fn)

    def _analyze_globals(self, module: Module) -> None:
        for fn in module.functions:
            if fn.has_local_linkage:
                if not self._analyze_uses_of_pointer(fn):
                    self.non_address_taken_globals.add(fn)
                else:
                    self.unknown_functions_with_local_linkage = True
        for gv in module.globals:
            if not gv.has_local_linkage:
                continue
            readers: set[Function] = set()
            writers: set[Function] | None = None if gv.is_constant_global else set()
            if self._analyze_uses_of_pointer(gv, readers, writers):
                continue
            self.non_address_taken_globals.add(gv)
            for reader in readers:
                self.function_infos.setdefault(reader, FunctionInfo()).add_mod_ref_for_global(gv, REF)
            if writers is not None:
                for writer in writers:
                    self.function_infos.setdefault(writer, FunctionInfo()).add_mod_ref_for_global(gv, MOD)
            if gv.value_type.is_pointer:
                self._analyze_indirect_global_memory(gv)

    def _analyze_uses_of_pointer(
        self,
        v: Value,
        readers: set[Function] | None = None,
        writers: set[Function] | None = None,
        okay_store_dest: GlobalValue | None = None,
    ) -> bool:
        """True if ``v`` escapes (is used in any way but the simple ones); the functions
        that read and write through it are collected in ``readers`` / ``writers``
        (LLVM ``AnalyzeUsesOfPointer``; an explicit worklist instead of recursion)."""
        if not v.type.is_pointer:
            return True
        work: list[tuple[Value, GlobalValue | None]] = [(v, okay_store_dest)]
        while work:
            cur, okay = work.pop()
            for use in list(cur.uses):
                user = use.user
                tp = type(user)
                if tp is LoadInst:
                    if readers is not None:
                        readers.add(user.function)  # type: ignore[attr-defined]
                    continue
                if tp is StoreInst:
                    if user.operands[1] is cur:  # (LLVM compares the operand, not the use)
                        if writers is not None:
                            writers.add(user.function)  # type: ignore[attr-defined]
                    elif user.operands[1] is not okay:
                        return True
                    continue
                op = _operator_opcode(user)
                if op == "getelementptr":
                    work.append((user, None))
                    continue
                if op == "bitcast" or op == "addrspacecast":
                    work.append((user, okay))
                    continue
                if isinstance(user, CallBase):
                    if self._call_use_escapes(user, use.index, cur, readers, writers, work):
                        return True
                    continue
                if isinstance(user, ICmpInst):
                    if not isinstance(user.operands[1], ConstantPointerNull):
                        return True
                    continue
                if user.is_constant:
                    if user.is_global_value or is_constant_used(user):
                        return True
                    continue
                return True
        return False

    def _call_use_escapes(
        self,
        call: CallBase,
        index: int,
        v: Value,
        readers: set[Function] | None,
        writers: set[Function] | None,
        work: list[tuple[Value, GlobalValue | None]],
    ) -> bool:
        if call.intrinsic_base == "llvm.threadlocal.address" and index == 0:
            work.append((call, None))
            return False
        n_args = call.arg_size
        if index >= n_args + call.num_total_bundle_operands:
            return False  # the callee (or another non-data operand)
        fn = call.function
        assert fn is not None
        if index < n_args:
            from llvmpy_mid.analysis.memory_builtins import get_freed_operand

            if get_freed_operand(call, self._tli(fn)) is v:
                if writers is not None:
                    writers.add(fn)
                return False
        callee = call.called_function
        if callee is None or not callee.is_declaration:
            return True
        if not call.has_fn_attr("nocallback") or index >= n_args or not call.param_has_attr(index, "nocapture"):
            return True
        if readers is not None:
            readers.add(fn)
        if writers is not None:
            writers.add(fn)
        return False

    def _analyze_indirect_global_memory(self, gv: GlobalVariable) -> bool:
        """``AnalyzeIndirectGlobalMemory``: ``gv`` only ever holds fresh ``noalias``
        allocations that do not escape otherwise."""
        init = gv.initializer
        if init is not None and not init.is_null_value:
            return False
        alloc_related: list[Value] = []
        for user in list(gv.users):
            if type(user) is LoadInst:
                if self._analyze_uses_of_pointer(user):
                    return False
            elif type(user) is StoreInst:
                stored = user.operands[0]
                if stored is gv:
                    return False
                if isinstance(stored, ConstantPointerNull):
                    continue
                ptr = get_underlying_object(stored)
                if not is_no_alias_call(ptr):
                    return False
                if self._analyze_uses_of_pointer(ptr, None, None, gv):
                    return False
                alloc_related.append(ptr)
            else:
                return False
        for ptr in alloc_related:
            self.allocs_for_indirect_globals[ptr] = gv
        self.indirect_globals.add(gv)
        return True

    def _analyze_call_graph(self, cg: CallGraph) -> None:
        """``AnalyzeCallGraph``: bottom-up over the SCCs, each SCC's mod/ref summary."""
        infos = self.function_infos
        for scc in cg.sccs():
            f = scc[0].function
            if f is None or not f.is_definition_exact:
                for node in scc:
                    if node.function is not None:
                        infos.pop(node.function, None)
                continue
            fi = infos.get(f)
            if fi is None:
                fi = infos[f] = FunctionInfo()
            know_nothing = False
            scc_set = {id(node) for node in scc}
            for node in scc:
                if know_nothing:
                    break
                # LLVM tests the SCC's first function here, for every member.
                if f.is_declaration or f.has_fn_attribute("optnone"):
                    me = f.attributes.fn_attrs.memory_effects
                    if me.does_not_access_memory:
                        pass
                    elif me.only_reads_memory:
                        fi.add_mod_ref(REF)
                        if not me.only_accesses_arg_pointees and _may_sync_or_call_into_module(f):
                            fi.set_may_read_any_global()
                    else:
                        fi.add_mod_ref(MOD_REF)
                        if not me.only_accesses_arg_pointees:
                            fi.set_may_read_any_global()
                        if _may_sync_or_call_into_module(f):
                            know_nothing = True
                            break
                    continue
                for _, target in node.records:
                    callee = target.function
                    if callee is None:
                        know_nothing = True
                        break
                    callee_fi = infos.get(callee)
                    if callee_fi is not None:
                        fi.add_function_info(callee_fi)
                    elif callee not in cg or id(cg.node(callee)) not in scc_set:
                        know_nothing = True
                        break
            if know_nothing:
                for node in scc:
                    if node.function is not None:
                        infos.pop(node.function, None)
                continue
            for node in scc:
                if fi.mod_ref == MOD_REF:
                    break
                fn = node.function
                assert fn is not None
                if fn.has_fn_attribute("optnone"):
                    continue
                for bb in fn.blocks:
                    if fi.mod_ref == MOD_REF:
                        break
                    for inst in bb.instructions:
                        if fi.mod_ref == MOD_REF:
                            break
                        if isinstance(inst, CallBase):
                            continue
                        if inst.may_read_from_memory():
                            fi.add_mod_ref(REF)
                        if inst.may_write_to_memory():
                            fi.add_mod_ref(MOD)
            for node in scc[1:]:
                if node.function is not None:
                    infos[node.function] = fi.copy()

    # --- queries ------------------------------------------------------------------------------
    def get_function_info(self, fn: Function) -> FunctionInfo | None:
        return self.function_infos.get(fn)

    def get_function_memory_effects(self, fn: Function) -> MemoryEffects:
        fi = self.function_infos.get(fn)
        if fi is not None:
            return MemoryEffects.with_all(fi.mod_ref)
        return MemoryEffects.unknown()

    def _is_non_escaping_global_no_alias(self, gv: GlobalValue, v: Value) -> bool:
        """``isNonEscapingGlobalNoAlias``: ``v`` can only be a pointer from outside the
        function (so it cannot be the non-escaping ``gv``)."""
        visited: set[int] = {id(v)}
        inputs: list[Value] = [v]
        depth = [0]
        dl = self.dl
        while inputs:
            inp = inputs.pop()
            if isinstance(inp, GlobalValue):
                if inp is gv:
                    return False
                if (
                    isinstance(gv, GlobalVariable)
                    and isinstance(inp, GlobalVariable)
                    and not gv.is_declaration
                    and not inp.is_declaration
                    and not gv.is_interposable
                    and not inp.is_interposable
                ):
                    gv_init = gv.initializer
                    inp_init = inp.initializer
                    assert gv_init is not None and inp_init is not None
                    t1 = gv_init.type
                    t2 = inp_init.type
                    if t1.is_sized and t2.is_sized and dl.type_alloc_size(t1) > 0 and dl.type_alloc_size(t2) > 0:
                        continue
                return False
            if isinstance(inp, (Argument, CallInst, InvokeInst)):
                continue
            depth[0] += 1
            if depth[0] > _MAX_ESCAPE_DEPTH:
                return False
            if isinstance(inp, LoadInst):
                ptr = get_underlying_object(inp.operands[0])
                if _non_escaping_global_no_alias_with_load(ptr, depth):
                    continue
                return False
            if _queue_choices(inp, visited, inputs):
                continue
            return False
        return True

    def alias(self, loc_a: MemoryLocation, loc_b: MemoryLocation, aaqi: AAQueryInfo, ctx_i: Instruction | None) -> AliasResult:
        assert loc_a.ptr is not None and loc_b.ptr is not None
        uv1 = get_underlying_object(strip_pointer_casts_for_alias_analysis(loc_a.ptr))
        uv2 = get_underlying_object(strip_pointer_casts_for_alias_analysis(loc_b.ptr))
        tracked = self.non_address_taken_globals
        gv1: GlobalValue | None = uv1 if isinstance(uv1, GlobalValue) else None
        gv2: GlobalValue | None = uv2 if isinstance(uv2, GlobalValue) else None
        if gv1 is not None or gv2 is not None:
            if gv1 is not None and gv1 not in tracked:
                gv1 = None
            if gv2 is not None and gv2 not in tracked:
                gv2 = None
            if gv1 is not None and gv2 is not None and gv1 is not gv2:
                return NO_ALIAS
            if (gv1 is not None) != (gv2 is not None):
                if _unsafe_results():
                    return NO_ALIAS
                if gv1 is not None:
                    if self._is_non_escaping_global_no_alias(gv1, uv2):
                        return NO_ALIAS
                else:
                    assert gv2 is not None
                    if self._is_non_escaping_global_no_alias(gv2, uv1):
                        return NO_ALIAS
        ig1 = self._indirect_global_of(uv1)
        ig2 = self._indirect_global_of(uv2)
        if ig1 is not None and ig2 is not None and ig1 is not ig2:
            return NO_ALIAS
        if _unsafe_results() and (ig1 is not None) != (ig2 is not None):
            return NO_ALIAS
        return MAY_ALIAS

    def _indirect_global_of(self, uv: Value) -> GlobalVariable | None:
        if isinstance(uv, LoadInst):
            src = uv.operands[0]
            if isinstance(src, GlobalVariable) and src in self.indirect_globals:
                return src
        return self.allocs_for_indirect_globals.get(uv)

    def _mod_ref_info_for_argument(self, call: CallBase, gv: GlobalValue, aaqi: AAQueryInfo) -> ModRefInfo:
        """``getModRefInfoForArgument``: none of the call's arguments may point to ``gv``."""
        if call.does_not_access_memory:
            return NO_MOD_REF
        conservative = REF if call.only_reads_memory else MOD_REF
        gv_loc = MemoryLocation.get_before_or_after(gv)
        for arg in call.args:
            objects = get_underlying_objects(arg)
            if not all(is_identified_object(o) for o in objects):
                if not all(
                    self.alias(MemoryLocation.get_before_or_after(o), gv_loc, aaqi, None).kind is AliasKind.NO_ALIAS
                    for o in objects
                ):
                    return conservative
            if any(o is gv for o in objects):
                return conservative
        return NO_MOD_REF

    def get_mod_ref_info(self, call: CallBase, loc: MemoryLocation, aaqi: AAQueryInfo) -> ModRefInfo:
        known = MOD_REF
        ptr = loc.ptr
        if ptr is None:
            return known
        gv = get_underlying_object(ptr)
        if isinstance(gv, GlobalValue) and gv.has_local_linkage and not self.unknown_functions_with_local_linkage:
            fn = call.called_function
            if fn is not None and gv in self.non_address_taken_globals:
                fi = self.function_infos.get(fn)
                if fi is not None:
                    known = ModRefInfo(fi.mod_ref_for_global(gv) | self._mod_ref_info_for_argument(call, gv, aaqi))
        return known

    # --- invalidation -----------------------------------------------------------------------
    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        """Kept unless ``GlobalsAA`` itself was abandoned (LLVM: stateless otherwise)."""
        return not pa.checker(GlobalsAA).preserved_when_stateless()


def _may_sync_or_call_into_module(fn: Function) -> bool:
    return not fn.is_declaration or not fn.has_fn_attribute("nosync") or not fn.has_fn_attribute("nocallback")


def _queue_choices(inp: Value, visited: set[int], inputs: list[Value]) -> bool:
    """For a select or phi, queue the underlying objects of its choices not seen before and
    answer True; False for any other value (the escape walks' shared step)."""
    if isinstance(inp, SelectInst):
        ops: Iterable[Value] = (inp.true_value, inp.false_value)
    elif isinstance(inp, PHINode):
        ops = inp.incoming_values
    else:
        return False
    for op in ops:
        u = get_underlying_object(op)
        if id(u) not in visited:
            visited.add(id(u))
            inputs.append(u)
    return True


def _non_escaping_global_no_alias_with_load(v: Value, depth: list[int]) -> bool:
    """``isNonEscapingGlobalNoAliasWithLoad``: ``v`` (a pointer a value was loaded from)
    must itself come from outside; shares the depth budget with the caller."""
    visited: set[int] = {id(v)}
    inputs: list[Value] = [v]
    while inputs:
        inp = inputs.pop()
        if isinstance(inp, (GlobalValue, Argument, CallInst, InvokeInst)):
            continue
        depth[0] += 1
        if depth[0] > _MAX_ESCAPE_DEPTH:
            return False
        if isinstance(inp, LoadInst):
            inputs.append(get_underlying_object(inp.operands[0]))
            continue
        if _queue_choices(inp, visited, inputs):
            continue
        return False
    return True


class GlobalsAA(ModuleAnalysis[GlobalsAAResult]):
    """``globals-aa``: the module's :class:`GlobalsAAResult`."""

    name: ClassVar[str] = "globals-aa"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> GlobalsAAResult:
        get_tli = _tli_getter(am, unit)
        cg = am.get_result(CallGraphAnalysis, unit)
        result = GlobalsAAResult.analyze_module(unit, get_tli, cg)
        # opt-19 loses this flag when its new pass manager moves the result into the
        # analysis cache (GlobalsAAResult's move constructor does not copy it), so a
        # computed result always answers as if no internal function had its address
        # taken; ``recompute-globalsaa`` sets it in place and keeps it.
        result.unknown_functions_with_local_linkage = False
        return result


def _tli_getter(am: AnalysisManager[Module], module: Module) -> Callable[[Function], TargetLibraryInfo] | None:
    """``FAM.getResult<TargetLibraryAnalysis>(F)`` through the function-manager proxy
    (asked for first, as LLVM's ``GlobalsAA::run`` does)."""
    from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy

    if not am.is_registered(FunctionAnalysisManagerModuleProxy):
        return None
    fam = am.get_result(FunctionAnalysisManagerModuleProxy, module).manager

    def get_tli(fn: Function) -> TargetLibraryInfo:
        return fam.get_result(TargetLibraryAnalysis, fn)

    return get_tli


class RecomputeGlobalsAAPass(Pass[Module]):
    """``recompute-globalsaa``: recompute a cached :class:`GlobalsAAResult` in place."""

    name: ClassVar[str] = "recompute-globalsaa"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        result = am.get_cached_result(GlobalsAA, unit)
        if result is not None:
            cg = am.get_result(CallGraphAnalysis, unit)
            result._reset()
            result._analyze(cg)
        return PreservedAnalyses.all()
