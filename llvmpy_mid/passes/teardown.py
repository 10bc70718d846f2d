"""Work a pass does when its pipeline is torn down (what LLVM passes do in their
destructors, e.g. ``AAEvaluator``'s summary report).

What: :class:`PipelineTeardown` collects callbacks while a pipeline runs (inside
:meth:`PipelineTeardown.active`); a pass registers one with :func:`at_pipeline_end`
(it returns False when no pipeline is active, e.g. a pass run by hand). The driver
calls :meth:`PipelineTeardown.finish` once the pipeline is done and its output written,
as opt destroys its pass manager after the output: callbacks run in registration order
(the order of the passes' first runs, which is pipeline order).

What it does not do: nothing runs when the pipeline fails (opt exits on a fatal error
without running destructors).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

__all__ = ["PipelineTeardown", "at_pipeline_end"]

_ACTIVE: list[PipelineTeardown] = []


class PipelineTeardown:
    """The end-of-pipeline callbacks of one run."""

    __slots__ = ("callbacks",)

    def __init__(self) -> None:
        self.callbacks: list[Callable[[], None]] = []

    @contextmanager
    def active(self) -> Iterator[PipelineTeardown]:
        """Passes run inside this block register their callbacks here."""
        _ACTIVE.append(self)
        try:
            yield self
        finally:
            _ACTIVE.pop()

    def finish(self) -> None:
        """Run the callbacks (once)."""
        callbacks, self.callbacks = self.callbacks, []
        for callback in callbacks:
            callback()


def at_pipeline_end(callback: Callable[[], None]) -> bool:
    """Run ``callback`` when the active pipeline is torn down; False if none is active."""
    if not _ACTIVE:
        return False
    _ACTIVE[-1].callbacks.append(callback)
    return True
