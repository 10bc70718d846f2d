"""Attributes of inlined code (LLVM InlineFunction.cpp: ``AddReturnAttributes``,
``AddParamAndFnBasicAttributes``; ``AttributeFuncs::mergeAttributesForInlining``
of lib/IR/Attributes.cpp)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.clone_function import ClonedCodeInfo, TrackingValueMap

__all__ = ["add_param_and_fn_basic_attributes", "add_return_attributes", "merge_attributes_for_inlining"]


def add_return_attributes(call: CallBase, vmap: TrackingValueMap, info: ClonedCodeInfo) -> None:
    return None


def add_param_and_fn_basic_attributes(call: CallBase, vmap: TrackingValueMap, info: ClonedCodeInfo) -> None:
    return None


def merge_attributes_for_inlining(caller: Function, callee: Function) -> None:
    return None
