"""The alias-analysis stack (LLVM ``lib/Analysis/AliasAnalysis.cpp`` and the providers).

- :mod:`.alias_result`: :class:`AliasResult` (``NoAlias``/``MayAlias``/``PartialAlias``/``MustAlias``).
- :mod:`.memory_location`: :class:`LocationSize`, :class:`AAMDNodes`, :class:`MemoryLocation`.
- :mod:`.aa_results`: :class:`AAResults` (the provider chain and LLVM's mod/ref refinement),
  :class:`BatchAAResults`, :class:`AAQueryInfo`, capture information, the provider base.
- :mod:`.aa_manager`: the ``AAManager`` analysis and ``-aa-pipeline``.
- Providers: :mod:`.basic_aa`, :mod:`.scoped_noalias_aa`, :mod:`.type_based_aa`, :mod:`.globals_aa`.

Passes get the chain with ``am.get_result(AAManager, fn)``.
"""

from llvmpy_mid.analysis.alias.aa_results import (
    AAQueryInfo,
    AAResultBase,
    AAResults,
    BatchAAResults,
    CaptureInfo,
    SimpleCaptureInfo,
)
from llvmpy_mid.analysis.alias.alias_result import MAY_ALIAS, MUST_ALIAS, NO_ALIAS, PARTIAL_ALIAS, AliasKind, AliasResult
from llvmpy_mid.analysis.alias.memory_location import AAMDNodes, LocationSize, MemoryLocation

__all__ = [
    "AAMDNodes",
    "AAQueryInfo",
    "AAResultBase",
    "AAResults",
    "AliasKind",
    "AliasResult",
    "BatchAAResults",
    "CaptureInfo",
    "LocationSize",
    "MAY_ALIAS",
    "MUST_ALIAS",
    "MemoryLocation",
    "NO_ALIAS",
    "PARTIAL_ALIAS",
    "SimpleCaptureInfo",
]
