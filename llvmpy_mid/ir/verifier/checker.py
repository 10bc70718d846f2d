"""The state of one verifier run and the way findings are written.

:class:`Checker` is what every rule receives. A rule checks one thing and,
when it does not hold, calls :meth:`Checker.fail` with LLVM's message and the
values involved, then returns (LLVM's ``Check`` macro returns from the
visitor; the driver stops the rules of that instruction after the first
finding). The items after the message are written as LLVM's
``Verifier::Write`` writes them:

- an instruction: the instruction line with its two-space indent;
- any other value: as an operand with its type (``ptr @f``, ``label %3``);
- a type: a space and the type, with no newline (it continues the line);
- metadata: the node with its module slot number (``!0 = !{...}``);
- a string or an int (attribute text, an index): itself on a line;
- ``None``: nothing.

The checker also knows where it is (module, function, block, instruction),
so each finding is located, and owns the dominator tree of the function
being checked, built on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

from llvmpy_mid.ir import _printing
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.metadata import Metadata
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ir.verifier.diagnostic import Diagnostic

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.module import Module

Item = Union[Value, Type, Metadata, str, int, None]
"""What a finding may show after its message."""


class Checker:
    """Collects findings for one module (or one function) being verified.

    Attributes a rule may read: ``module`` (None when a lone function is
    checked), ``function``, ``block``, ``instruction`` (the current position,
    set by the driver), ``diagnostics`` (the findings so far) and
    ``memo`` (a dict rules may use to remember per-run facts, keyed by
    a string of their own, e.g. ``"tbaa-ok"``).
    """

    __slots__ = ("module", "function", "block", "instruction", "diagnostics", "memo", "_domtree", "_writer")

    def __init__(self, module: Module | None) -> None:
        self.module = module
        self.function: Function | None = None
        self.block: BasicBlock | None = None
        self.instruction: Instruction | None = None
        self.diagnostics: list[Diagnostic] = []
        self.memo: dict[str, object] = {}
        self._domtree: DominatorTree | None = None
        self._writer: _printing.DiagnosticWriter | None = None

    # --- position ------------------------------------------------------------------------------
    def enter_function(self, function: Function | None) -> None:
        self.function = function
        self.block = None
        self.instruction = None
        self._domtree = None

    @property
    def domtree(self) -> DominatorTree:
        """The dominator tree of the current function (built once per function)."""
        tree = self._domtree
        if tree is None:
            assert self.function is not None, "no function is being verified"
            tree = self._domtree = DominatorTree(self.function)
        return tree

    @property
    def broken(self) -> bool:
        """True once any finding that is not about debug info was made."""
        return any(not d.debug_info for d in self.diagnostics)

    @property
    def count(self) -> int:
        """Number of findings so far (the driver compares it before and after a rule)."""
        return len(self.diagnostics)

    # --- findings ------------------------------------------------------------------------------
    def fail(self, message: str, *items: Item) -> None:
        """Record a finding: LLVM's ``CheckFailed(message, items...)``."""
        self._record(message, items, False)

    def fail_debug_info(self, message: str, *items: Item) -> None:
        """Record a broken-debug-info finding (LLVM's ``DebugInfoCheckFailed``)."""
        self._record(message, items, True)

    def _record(self, message: str, items: tuple[Item, ...], debug_info: bool) -> None:
        detail = "".join(self.write(item) for item in items)
        w = self.writer
        fn = self.function
        block = self.block
        inst = self.instruction
        self.diagnostics.append(
            Diagnostic(
                message,
                detail,
                w.operand(fn).split(" ", 1)[-1] if fn is not None else None,
                w.operand(block).split(" ", 1)[-1] if block is not None else None,
                w.instruction(inst) if inst is not None else None,
                debug_info,
            )
        )

    @property
    def writer(self) -> _printing.DiagnosticWriter:
        """How findings write values: numbered once per run, as LLVM's verifier does."""
        w = self._writer
        if w is None:
            w = self._writer = _printing.diagnostic_writer(self.module)
        return w

    def write(self, item: Item) -> str:
        """One item as LLVM's ``Verifier::Write`` prints it."""
        if item is None:
            return ""
        if isinstance(item, Value):
            if item.is_instruction:
                return "  " + self.writer.instruction(item) + "\n"
            return self.writer.operand(item) + "\n"
        if isinstance(item, Type):
            return " " + str(item)
        if isinstance(item, Metadata):
            return self.format_metadata(item) + "\n"
        return str(item) + "\n"

    def format_metadata(self, md: Metadata) -> str:
        """``md`` as LLVM's ``Metadata::print`` writes it, numbered as in the module being verified."""
        return self.writer.metadata(md)


__all__ = ["Checker", "Item"]
