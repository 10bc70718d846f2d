"""Scoped-noalias metadata for the ``noalias`` arguments of an inlined call (LLVM
``AddAliasScopeMetadata``, lib/Transforms/Utils/InlineFunction.cpp)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.instructions.calls import CallBase

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.clone_function import ClonedCodeInfo, TrackingValueMap

__all__ = ["add_alias_scope_metadata"]


def add_alias_scope_metadata(
    call: CallBase, vmap: TrackingValueMap, dl: object, aa: object | None, info: ClonedCodeInfo
) -> None:
    return None
