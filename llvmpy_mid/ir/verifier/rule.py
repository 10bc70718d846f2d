"""The shape of a per-instruction verifier rule.

A rule is ``rule(checker, inst) -> None``: it checks one instruction of the
opcodes it is registered for and reports through ``checker.fail``. Rule
modules export ``INSTRUCTION_RULES``, a dict from LLVM's opcode name to the
rule; the driver runs the rules registered for an opcode in a fixed module
order and stops at the first that reports, as LLVM's visitors return at the
first failed check.
"""

from __future__ import annotations

from typing import Any, Callable

from llvmpy_mid.ir.verifier.checker import Checker

Rule = Callable[[Checker, Any], None]
"""``rule(checker, instruction)``; the instruction is of the opcode(s) registered."""

RuleTable = dict[str, Rule]

__all__ = ["Rule", "RuleTable"]
