"""InstCombine: LLVM 19's peephole canonicaliser (``lib/Transforms/InstCombine``).

One module per family, as LLVM splits it: :mod:`.driver` (the worklist loop
and the pass), :mod:`.combiner` (the state folds share), :mod:`.add_sub`,
:mod:`.mul_div_rem`, :mod:`.and_or_xor`, :mod:`.shifts`, :mod:`.compares`,
:mod:`.casts`, :mod:`.select`, :mod:`.phi`, :mod:`.calls`,
:mod:`.load_store_alloca`, :mod:`.vector_ops`, :mod:`.gep`,
:mod:`.instruction_combining` (terminators, aggregates, freeze ...),
:mod:`.simplify_demanded`.
"""

from __future__ import annotations

__all__: list[str] = []
