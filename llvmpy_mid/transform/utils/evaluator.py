"""Evaluator placeholder."""
from __future__ import annotations

from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalVariable


class Evaluator:
    def __init__(self, dl: DataLayout, tli: TargetLibraryInfo | None) -> None:
        self.dl = dl
        self.tli = tli
        self.invariants: list[GlobalVariable] = []

    def evaluate_function(self, fn: Function, args: list[Constant]) -> Constant | None:
        return None

    def mutated_initializers(self) -> list[tuple[GlobalVariable, Constant]]:
        return []
