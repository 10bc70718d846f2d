"""The walk that applies every rule, in LLVM 19's order.

``Verifier::verify(Function)`` for each function in module order, then
``Verifier::verify(Module)``. Within a function: first the terminator check
(a block without a terminator stops the function there, as in LLVM, since
dominance is undefined); then the function's own rules; then each
block's rules and each instruction: its debug records, its opcode's rules (in
the order of ``_RULE_MODULES``, stopping at the first that reports), and, if
those passed, the generic instruction rules and its metadata attachments.
After the functions, the module: llvm.localrecover indices, global variables,
aliases and ifuncs, named metadata, comdats, module flags, idents and command
lines, compile units, and the llvm.experimental.deoptimize declarations.
Every instruction is visited once; the dominator tree is built at most once
per function, so a run is near-linear in the size of the module. The rule
modules are imported on the first check, not with this module; a module with
no functions, globals, aliases, ifuncs, named metadata or comdats has nothing
to check and imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.verifier.checker import Checker

if TYPE_CHECKING:
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.verifier.diagnostic import Diagnostic
    from llvmpy_mid.ir.verifier.rule import Rule

# The rule modules (most of the verifier's code) are imported by the functions below on their
# first call, not when this module is imported: start-up stays cheap, and a module with nothing
# to verify never imports them.


def _rule_table() -> dict[str, tuple[Rule, ...]]:
    from llvmpy_mid.ir.verifier import arith_rules, call_rules, control_rules, eh_rules, intrinsic_rules, memory_rules

    table: dict[str, list[Rule]] = {}
    for mod in (arith_rules, memory_rules, control_rules, call_rules, eh_rules, intrinsic_rules):
        for opcode, rule in mod.INSTRUCTION_RULES.items():
            table.setdefault(opcode, []).append(rule)
    return {op: tuple(rules) for op, rules in table.items()}


_TABLE: dict[str, tuple[Rule, ...]] | None = None


def _rules() -> dict[str, tuple[Rule, ...]]:
    global _TABLE
    if _TABLE is None:
        _TABLE = _rule_table()
    return _TABLE


def check_function(c: Checker, fn: Function) -> None:
    """Apply every function-level rule to ``fn``, recording findings in ``c``."""
    from llvmpy_mid.ir.verifier import block_rules, function_rules, instruction_rules, metadata_rules, module_rules

    c.enter_function(fn)
    # LLVM checks the terminators before anything else: without them dominance is undefined,
    # and the function gets that one finding.
    for bb in fn.blocks:
        term = bb.terminator
        if term is None:
            c.block = bb
            c.fail("Basic Block in function '%s' does not have terminator!" % fn.name, bb)
            c.enter_function(None)
            return
    module_rules.verify_global_value(c, fn)
    function_rules.verify_function(c, fn)
    metadata_rules.verify_function_metadata(c, fn)
    if fn.is_declaration:
        c.enter_function(None)
        return
    table = _rules()
    empty: tuple[Rule, ...] = ()
    verify_instruction = instruction_rules.verify_instruction
    verify_attachments = metadata_rules.verify_attachments
    verify_dbg_records = metadata_rules.verify_dbg_records
    for bb in fn.blocks:
        c.block = bb
        c.instruction = None
        block_rules.verify_block(c, bb)
        for inst in bb.instructions:
            c.instruction = inst
            if inst._dbg_records:
                verify_dbg_records(c, inst)
            before = len(c.diagnostics)
            for rule in table.get(inst.opcode, empty):
                rule(c, inst)
                if len(c.diagnostics) != before:
                    break
            else:
                verify_instruction(c, inst)
                if len(c.diagnostics) == before:
                    verify_attachments(c, inst)
    c.enter_function(None)


def check_module(c: Checker, module: Module) -> None:
    """Apply every rule to ``module``: its functions in order, then the module-level rules."""
    if not (
        module.functions or module.globals or module.aliases or module.ifuncs or module.named_metadata or module.comdats
    ):
        # Every rule looks at one of these (module flags, idents and compile units are named
        # metadata): an empty module has nothing to report, and needs no rule module imported.
        return
    from llvmpy_mid.ir.verifier import intrinsic_rules, metadata_rules, module_rules

    for fn in module.functions:
        check_function(c, fn)
    intrinsic_rules.verify_frame_recover_indices(c)
    module_rules.verify_globals(c, module)
    metadata_rules.verify_named_metadata(c, module)
    module_rules.verify_module_tail(c, module)
    metadata_rules.verify_compile_units(c, module)
    intrinsic_rules.verify_deoptimize_calling_convs(c, module)


def module_diagnostics(module: Module) -> list[Diagnostic]:
    """Every problem in ``module``, in the order LLVM 19's verifier reports them."""
    c = Checker(module)
    check_module(c, module)
    return c.diagnostics


def function_diagnostics(fn: Function) -> list[Diagnostic]:
    """Every problem in ``fn`` alone (module-level rules are not applied)."""
    c = Checker(fn.parent)
    check_function(c, fn)
    return c.diagnostics


__all__ = ["check_function", "check_module", "function_diagnostics", "module_diagnostics"]
