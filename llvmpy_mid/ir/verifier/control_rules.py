"""Per-instruction rules (control_rules). (Being written.)"""

from __future__ import annotations

from llvmpy_mid.ir.verifier.rule import RuleTable

INSTRUCTION_RULES: RuleTable = {}

