"""Stack safety analysis: ``stack-safety-local``, ``stack-safety`` and their printers
(LLVM 19.1.7 ``lib/Analysis/StackSafetyAnalysis.cpp``: ``StackSafetyDataFlowAnalysis``,
``findCalleeInModule``, ``resolveAllCalls``, ``createGlobalStackSafetyInfo``,
``StackSafetyInfo``, ``StackSafetyGlobalInfo`` and the printer passes).

What: ``stack-safety-local`` (:class:`StackSafetyAnalysis`) is each function's
:class:`~llvmpy_mid.analysis.stack_safety_local.FunctionInfo`, computed on first use.
``stack-safety`` (:class:`StackSafetyGlobalAnalysis`) joins them over the module: calls that
pass an address to a function defined here (not interposable, dso_local; aliases followed)
are resolved, and a worklist fixed point propagates each parameter's accessed range into its
callers' parameters (a parameter updated more than ``-stack-safety-max-iterations`` times
goes to the full set); then each alloca's range takes in its calls. An alloca whose range is
inside its size is safe; an access is safe unless some alloca walk marked it unsafe. There is
no module summary index here (ThinLTO), so a callee outside the module is unknown.
``print<stack-safety-local>`` and ``print-stack-safety`` write LLVM's text to stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import ClassVar, TextIO

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.stack_safety_local import (
    FunctionInfo,
    UseInfo,
    add_overflow_never,
    analyze_function,
    pointer_size,
    static_alloca_size_range,
)
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalAlias, GlobalValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, ModuleAnalysis
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

_ACCESS_OPCODES = frozenset(("store", "load", "cmpxchg", "atomicrmw"))


# --- the function result ------------------------------------------------------------------------


class StackSafetyInfo:
    """One function's stack safety facts, computed on first use (LLVM ``StackSafetyInfo``)."""

    def __init__(self, fn: Function, get_se: Callable[[], object]) -> None:
        self.function = fn
        self._get_se = get_se
        self._info: FunctionInfo | None = None

    def get_info(self) -> FunctionInfo:
        if self._info is None:
            from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution

            se = self._get_se()
            assert isinstance(se, ScalarEvolution)
            self._info = analyze_function(self.function, se)
        return self._info

    def print_text(self) -> str:
        fn = self.function
        return self.get_info().text(fn.name, fn) + "\n"


class StackSafetyAnalysis(FunctionAnalysis[StackSafetyInfo]):
    """``stack-safety-local``: the function's :class:`StackSafetyInfo`."""

    name: ClassVar[str] = "stack-safety-local"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> StackSafetyInfo:
        from llvmpy_mid.analysis.scalar_evolution import ScalarEvolutionAnalysis

        return StackSafetyInfo(unit, lambda: am.get_result(ScalarEvolutionAnalysis, unit))


# --- the interprocedural fixed point ------------------------------------------------------------


class StackSafetyDataFlowAnalysis:
    """Propagates parameter access ranges through calls until nothing changes (LLVM
    ``StackSafetyDataFlowAnalysis``)."""

    def __init__(self, pointer_bits: int, functions: dict[GlobalValue, FunctionInfo], max_iterations: int) -> None:
        self.functions = functions
        self.unknown = ConstantRange.get_full(pointer_bits)
        self.max_iterations = max_iterations
        self.callers: dict[GlobalValue, list[GlobalValue]] = {}
        self.worklist: list[GlobalValue] = []
        self._in_worklist: set[GlobalValue] = set()

    def argument_access_range(self, callee: GlobalValue, param_no: int, offsets: ConstantRange) -> ConstantRange:
        fs = self.functions.get(callee)
        if fs is None:
            return self.unknown
        param = fs.params.get(param_no)
        if param is None:
            return self.unknown
        access = param.range
        if access.is_empty_set():
            return access
        if access.is_full_set():
            return self.unknown
        return add_overflow_never(access, offsets)

    def _update_one_use(self, us: UseInfo, to_full_set: bool) -> bool:
        changed = False
        for (param_no, callee), offsets in us.sorted_calls():
            callee_range = self.argument_access_range(callee, param_no, offsets)
            if not us.range.contains_range(callee_range):
                changed = True
                if to_full_set:
                    us.range = self.unknown
                else:
                    us.update_range(callee_range)
        return changed

    def _update_one_node(self, callee: GlobalValue, fs: FunctionInfo) -> None:
        to_full_set = fs.update_count > self.max_iterations
        changed = False
        for no in sorted(fs.params):
            changed |= self._update_one_use(fs.params[no], to_full_set)
        if changed:
            for caller in self.callers.get(callee, ()):
                if caller not in self._in_worklist:
                    self._in_worklist.add(caller)
                    self.worklist.append(caller)
            fs.update_count += 1

    def run(self) -> dict[GlobalValue, FunctionInfo]:
        for fn, fs in self.functions.items():
            callees: set[GlobalValue] = set()
            for us in fs.params.values():
                callees.update(c for _, c in us.calls)
            for callee in callees:  # each callee's callers stay in function order
                self.callers.setdefault(callee, []).append(fn)
        for fn, fs in self.functions.items():
            self._update_one_node(fn, fs)
        while self.worklist:
            callee = self.worklist.pop()
            self._in_worklist.discard(callee)
            self._update_one_node(callee, self.functions[callee])
        return self.functions


def find_callee_in_module(gv: GlobalValue | None) -> Function | None:
    """The function a call of ``gv`` surely runs: defined here, not interposable, dso_local,
    following aliases (LLVM ``findCalleeInModule``)."""
    seen: set[GlobalValue] = set()
    while gv is not None and gv not in seen:
        seen.add(gv)
        if gv.is_declaration or gv.is_interposable or not gv.is_dso_local:
            return None
        if isinstance(gv, Function):
            return gv
        if not isinstance(gv, GlobalAlias):
            return None
        gv = gv.base_object
    return None


def resolve_all_calls(us: UseInfo) -> None:
    """Point each call at the function it runs; a call to anything else makes the range
    the full set and drops the calls not yet resolved (LLVM ``resolveAllCalls`` without an
    index)."""
    full = ConstantRange.get_full(us.range.bit_width)
    old = us.sorted_calls()
    us.calls = {}
    for (param_no, callee), offsets in old:
        fn = find_callee_in_module(callee)
        if fn is None:
            us.update_range(full)
            return
        us.calls.setdefault((param_no, fn), offsets)


def create_global_stack_safety_info(functions: dict[GlobalValue, FunctionInfo], max_iterations: int) -> dict[
        GlobalValue, FunctionInfo]:
    """The module-wide :class:`FunctionInfo` of each defined function (LLVM
    ``createGlobalStackSafetyInfo``)."""
    result: dict[GlobalValue, FunctionInfo] = {}
    if not functions:
        return result
    work = {gv: fi.copy() for gv, fi in functions.items()}
    for fi in work.values():
        for us in fi.params.values():
            resolve_all_calls(us)
            if us.range.is_full_set():
                us.calls = {}
    first = next(iter(functions))
    assert isinstance(first, Function)
    dfa = StackSafetyDataFlowAnalysis(pointer_size(first), work, max_iterations)
    for gv, fi in dfa.run().items():
        out = fi.copy()
        src = functions[gv]
        for ai, us in out.allocas.items():
            resolve_all_calls(us)
            for (param_no, callee), offsets in us.sorted_calls():
                us.update_range(dfa.argument_access_range(callee, param_no, offsets))
            us.calls = dict(src.allocas[ai].calls)
        for no, us in out.params.items():
            us.calls = dict(src.params[no].calls)
        result[gv] = out
    return result


# --- the module result --------------------------------------------------------------------------


class StackSafetyGlobalInfo:
    """Module-wide stack safety (LLVM ``StackSafetyGlobalInfo``): which allocas are safe
    and which accesses are not, computed on first use."""

    def __init__(self, module: Module, get_ssi: Callable[[Function], StackSafetyInfo]) -> None:
        self.module = module
        self._get_ssi = get_ssi
        self._info: dict[GlobalValue, FunctionInfo] | None = None
        self.safe_allocas: set[AllocaInst] = set()
        self.unsafe_accesses: set[Instruction] = set()
        if OPTIONS.value("stack-safety-run"):
            self.get_info()

    def get_info(self) -> dict[GlobalValue, FunctionInfo]:
        if self._info is None:
            functions: dict[GlobalValue, FunctionInfo] = {}
            for fn in self.module.functions:
                if not fn.is_declaration:
                    functions[fn] = self._get_ssi(fn).get_info()
            max_iterations = int(OPTIONS.value("stack-safety-max-iterations"))
            self._info = info = create_global_stack_safety_info(functions, max_iterations)
            for fi in info.values():
                for ai, us in fi.allocas.items():
                    if static_alloca_size_range(ai).contains_range(us.range):
                        self.safe_allocas.add(ai)
                    self.unsafe_accesses.update(us.unsafe_accesses)
            if OPTIONS.value("stack-safety-print"):
                sys.stderr.write(self.print_text())
        return self._info

    def is_safe(self, ai: AllocaInst) -> bool:
        self.get_info()
        return ai in self.safe_allocas

    def stack_access_is_safe(self, inst: Instruction) -> bool:
        self.get_info()
        return inst not in self.unsafe_accesses

    def print_text(self) -> str:
        info = self.get_info()
        if not info:
            return ""
        from llvmpy_mid.analysis.scalar_evolution_printer import _Names

        names = _Names(self.module)
        out: list[str] = []
        for fn in self.module.functions:
            if fn.is_declaration:
                continue
            out.append(info[fn].text(fn.name, fn))
            out.append("    safe accesses:\n")
            for bb in fn.blocks:
                for inst in bb.instructions:
                    if _is_reported_access(inst) and inst not in self.unsafe_accesses:
                        out.append("     " + names.instruction(inst) + "\n")
            out.append("\n")
        return "".join(out)


def _is_reported_access(inst: Instruction) -> bool:
    if inst.opcode in _ACCESS_OPCODES:
        return True
    if not isinstance(inst, CallBase):
        return False
    from llvmpy_mid.analysis.stack_safety_local import MEM_SET, MEM_TRANSFER

    base = inst.intrinsic_base
    if base in MEM_SET or base in MEM_TRANSFER:
        return True
    return isinstance(inst, CallInst) and inst.attributes.has_attr_somewhere("byval")


class StackSafetyGlobalAnalysis(ModuleAnalysis[StackSafetyGlobalInfo]):
    """``stack-safety``: the module's :class:`StackSafetyGlobalInfo`."""

    name: ClassVar[str] = "stack-safety"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> StackSafetyGlobalInfo:
        from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy

        fam = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager

        def get_ssi(fn: Function) -> StackSafetyInfo:
            return fam.get_result(StackSafetyAnalysis, fn)

        return StackSafetyGlobalInfo(unit, get_ssi)


# --- printers -----------------------------------------------------------------------------------


class StackSafetyPrinterPass(Pass[Function]):
    """``print<stack-safety-local>``: each function's local facts (to stderr)."""

    name: ClassVar[str] = "print<stack-safety-local>"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        out = self.stream if self.stream is not None else sys.stderr
        text = "'Stack Safety Local Analysis' for function '%s'\n" % unit.name
        out.write(text + am.get_result(StackSafetyAnalysis, unit).print_text())
        return PreservedAnalyses.all()


class StackSafetyGlobalPrinterPass(Pass[Module]):
    """``print-stack-safety``: the module-wide facts and each function's safe accesses."""

    name: ClassVar[str] = "print-stack-safety"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        out = self.stream if self.stream is not None else sys.stderr
        text = "'Stack Safety Analysis' for module '%s'\n" % unit.name
        out.write(text + am.get_result(StackSafetyGlobalAnalysis, unit).print_text())
        return PreservedAnalyses.all()


__all__ = [
    "StackSafetyAnalysis",
    "StackSafetyDataFlowAnalysis",
    "StackSafetyGlobalAnalysis",
    "StackSafetyGlobalInfo",
    "StackSafetyGlobalPrinterPass",
    "StackSafetyInfo",
    "StackSafetyPrinterPass",
    "create_global_stack_safety_info",
    "find_callee_in_module",
    "resolve_all_calls",
]
