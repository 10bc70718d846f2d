"""Attribute rules for functions, parameters, return values and call sites. (Being written.)"""

from __future__ import annotations

from llvmpy_mid.ir.attributes import AttributeList, AttributeSet
from llvmpy_mid.ir.types import FunctionType, Type
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ir.verifier.checker import Checker


def verify_attribute_list(
    c: Checker, fn_type: FunctionType, attrs: AttributeList, where: Value, is_intrinsic: bool, is_inline_asm: bool
) -> None:
    """LLVM's verifyFunctionAttrs: the attribute list of a function or a call site."""


def verify_parameter_attributes(c: Checker, attrs: AttributeSet, ty: Type, where: Value) -> None:
    """LLVM's verifyParameterAttrs: one parameter's (or the return value's) attributes."""

