"""``aggressive-instcombine``: the folds LLVM keeps out of InstCombine because they
are costlier or reach further (``lib/Transforms/AggressiveInstCombine``).

One module per concept: :mod:`.pass_` (the pass and the walk over the blocks),
:mod:`.trunc_inst_combine` (``TruncInstCombine``: evaluate an expression tree
feeding a ``trunc`` in the narrower type), and the "unusual patterns" of
``AggressiveInstCombine.cpp`` in their own modules.
"""

from __future__ import annotations

__all__: list[str] = []
