"""One verifier finding (LLVM's ``CheckFailed`` / ``DebugInfoCheckFailed``).

A :class:`Diagnostic` keeps the message exactly as LLVM 19's verifier words
it, the text LLVM writes after it (each offending value on its own line, as
``Verifier::Write`` prints them), and where it was found: the function, the
block and the instruction, printed as LLVM prints them. ``text`` is what
``opt-19 -passes=verify`` writes for the same problem; ``str()`` adds the
location in front.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Diagnostic:
    """A verifier finding.

    ``message``: LLVM's wording; ``detail``: the lines LLVM prints after it
    (values, types, metadata), newline-terminated; ``function``: ``@name`` of the
    function being checked (None at module level); ``block``: ``%label`` of the
    block; ``instruction``: the instruction as printed; ``debug_info``: True for
    a broken-debug-info finding (opt-19 drops the debug info and only warns).
    """

    message: str
    detail: str = ""
    function: str | None = None
    block: str | None = None
    instruction: str | None = None
    debug_info: bool = False

    @property
    def text(self) -> str:
        """The finding exactly as LLVM's verifier prints it (newline-terminated)."""
        return self.message + "\n" + self.detail

    @property
    def location(self) -> str:
        """``in function @f, block %bb, at: %x = add i32 %x, 1`` (empty at module level)."""
        parts = []
        if self.function is not None:
            parts.append("in function " + self.function)
        if self.block is not None:
            parts.append("block " + self.block)
        if self.instruction is not None:
            parts.append("at: " + self.instruction)
        return ", ".join(parts)

    def __str__(self) -> str:
        loc = self.location
        head = loc + ": " if loc else ""
        return head + self.text.rstrip("\n")


__all__ = ["Diagnostic"]
