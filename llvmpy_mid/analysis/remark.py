"""Optimisation remarks: what a pass did, missed or found (LLVM ``lib/IR/DiagnosticInfo.cpp``,
the ``DiagnosticInfoOptimizationBase`` family, and ``LLVMRemarkStreamer::toRemark``).

A :class:`Remark` has a kind (``Passed``, ``Missed``, ``Analysis``...), the pass's name
(LLVM's ``DEBUG_TYPE``, e.g. ``"gvn"``), a remark name (``"LoadElim"``), the function, a
source location and a list of :class:`RemarkArg` — key/value pairs, each with an optional
location, whose values concatenated make the message. Arguments added after
:meth:`Remark.set_extra_args` appear in serialized remarks (YAML) but not in the one-line
message ``remark: file:line:col: message`` that ``-pass-remarks`` prints.

Passes build remarks with the LLVM-like constructors :func:`optimization_remark`,
:func:`optimization_remark_missed` and :func:`optimization_remark_analysis` and hand them
to the function's ``OptimizationRemarkEmitter``::

    r = optimization_remark_missed("gvn", "LoadClobbered", load)
    r.add("load of type ").add_arg("Type", load.type).add(" not eliminated")
    ore.emit(r)

Argument values follow LLVM: an argument or global is shown by its name, a constant as
its operand text without the type, an instruction by its opcode name, a type as printed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from llvmpy_mid.ir.metadata import MDNode, MDString, Metadata

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instruction import Instruction

__all__ = [
    "ANALYSIS",
    "ANALYSIS_ALIASING",
    "ANALYSIS_FP_COMMUTE",
    "FAILURE",
    "MISSED",
    "PASSED",
    "Remark",
    "RemarkArg",
    "RemarkLocation",
    "location_of_debug_loc",
    "location_of_function",
    "optimization_remark",
    "optimization_remark_analysis",
    "optimization_remark_missed",
]

#: Remark kinds, spelled as the YAML tags LLVM writes (``--- !Passed``).
PASSED: Final = "Passed"
MISSED: Final = "Missed"
ANALYSIS: Final = "Analysis"
ANALYSIS_FP_COMMUTE: Final = "AnalysisFPCommute"
ANALYSIS_ALIASING: Final = "AnalysisAliasing"
FAILURE: Final = "Failure"


class RemarkLocation:
    """A source position (LLVM ``DiagnosticLocation``): the file name as its ``DIFile``
    spells it (relative as written), line and column."""

    __slots__ = ("file", "line", "column")

    def __init__(self, file: str, line: int, column: int) -> None:
        self.file = file
        self.line = line
        self.column = column

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, RemarkLocation)
            and (self.file, self.line, self.column) == (other.file, other.line, other.column)
        )

    def __hash__(self) -> int:
        return hash((self.file, self.line, self.column))

    def __repr__(self) -> str:
        return "%s:%d:%d" % (self.file, self.line, self.column)


def _file_name_of_scope(scope: Metadata | None) -> str | None:
    """The ``filename:`` of a scope's file (LLVM ``DIScope::getFile``: a ``DIFile`` is its own)."""
    if not isinstance(scope, MDNode):
        return None
    kind = getattr(scope, "kind", "")
    file_node = scope if kind == "DIFile" else getattr(scope, "file", None)
    if not isinstance(file_node, MDNode) or not hasattr(file_node, "get_field"):
        return None
    name = file_node.get_field("filename")
    if isinstance(name, MDString):
        return name.string
    return name if isinstance(name, str) else ""


def location_of_debug_loc(loc: MDNode | None) -> RemarkLocation | None:
    """The location of a ``!DILocation`` (None when there is none or it has no file)."""
    if loc is None or getattr(loc, "kind", "") != "DILocation":
        return None
    file = _file_name_of_scope(getattr(loc, "scope", None))
    if file is None:
        return None
    return RemarkLocation(file, int(getattr(loc, "line")), int(getattr(loc, "column")))


def location_of_function(fn: Function) -> RemarkLocation | None:
    """A function's location: its ``DISubprogram``'s file and scope line, column 0."""
    sp = fn.get_metadata("dbg")
    if sp is None or getattr(sp, "kind", "") != "DISubprogram":
        return None
    file = _file_name_of_scope(sp)
    if file is None:
        return None
    line = sp.get_field("scopeLine") if hasattr(sp, "get_field") else 0
    return RemarkLocation(file, int(line or 0), 0)


class RemarkArg:
    """One key/value of a remark (LLVM ``DiagnosticInfoOptimizationBase::Argument``)."""

    __slots__ = ("key", "value", "loc")

    def __init__(self, key: str, value: str, loc: RemarkLocation | None = None) -> None:
        self.key = key
        self.value = value
        self.loc = loc

    @staticmethod
    def of(key: str, value: object) -> RemarkArg:
        """An argument made from a string, number, type or IR value as LLVM's ``ore::NV``
        overloads make it."""
        from llvmpy_mid.ir.types import Type
        from llvmpy_mid.ir.value import Value

        if isinstance(value, str):
            return RemarkArg(key, value)
        if isinstance(value, bool):
            return RemarkArg(key, "true" if value else "false")
        if isinstance(value, int):
            return RemarkArg(key, str(value))
        if isinstance(value, float):
            return RemarkArg(key, "%f" % value)
        if isinstance(value, Type):
            return RemarkArg(key, str(value))
        if isinstance(value, Value):
            return _value_arg(key, value)
        raise TypeError("a remark argument is a str, number, Type or Value, not %s" % type(value).__name__)


def _value_arg(key: str, v: object) -> RemarkArg:
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.function import Argument, Function
    from llvmpy_mid.ir.global_value import GlobalValue
    from llvmpy_mid.ir.instruction import Instruction

    loc: RemarkLocation | None = None
    if isinstance(v, Function):
        loc = location_of_function(v)
    elif isinstance(v, Instruction):
        loc = location_of_debug_loc(v.debug_loc)
    text = ""
    if isinstance(v, (Argument, GlobalValue)):
        text = v.name[1:] if v.name.startswith("\x01") else v.name
    elif isinstance(v, Constant):
        from llvmpy_mid.asm.print_context import WriterContext
        from llvmpy_mid.asm.print_types import TypePrinter

        text = WriterContext(None, None, TypePrinter(None)).ref(v)
    elif isinstance(v, Instruction):
        text = v.opcode
    elif getattr(v, "is_metadata_as_value", False):
        md = getattr(v, "metadata", None)
        if isinstance(md, MDString):
            text = md.string
    return RemarkArg(key, text, loc)


class Remark:
    """One optimisation remark (see the module docstring). Build it with the ``add``
    methods, which return the remark so calls chain as LLVM's ``<<`` does."""

    __slots__ = ("kind", "pass_name", "name", "function", "loc", "args", "first_extra_arg", "code_region",
                 "hotness", "is_verbose")

    def __init__(
        self, kind: str, pass_name: str, name: str, function: Function, loc: RemarkLocation | None,
        code_region: BasicBlock | None = None,
    ) -> None:
        self.kind = kind
        self.pass_name = pass_name
        self.name = name
        self.function = function
        self.loc = loc
        self.args: list[RemarkArg] = []
        self.first_extra_arg = -1
        self.code_region = code_region
        """The block whose profile count is the remark's hotness (LLVM ``getCodeRegion``)."""
        self.hotness: int | None = None
        """Set by the emitter under ``-pass-remarks-with-hotness`` (LLVM ``setHotness``)."""
        self.is_verbose = False
        """A verbose remark is printed only with a hotness (LLVM ``setIsVerbose``)."""

    def add(self, text: str) -> Remark:
        """A plain string piece of the message (LLVM ``R << "text"``; key ``String``)."""
        self.args.append(RemarkArg("String", text))
        return self

    def add_arg(self, key: str, value: object) -> Remark:
        """A named value (LLVM ``R << ore::NV(key, value)``)."""
        self.args.append(RemarkArg.of(key, value))
        return self

    def set_is_verbose(self) -> Remark:
        """Print this remark only when it has a hotness (LLVM ``ore::setIsVerbose``)."""
        self.is_verbose = True
        return self

    def set_extra_args(self) -> Remark:
        """What follows is left out of the printed message (LLVM ``ore::setExtraArgs``)."""
        self.first_extra_arg = len(self.args)
        return self

    @property
    def function_name(self) -> str:
        name = self.function.name
        return name[1:] if name.startswith("\x01") else name

    @property
    def message(self) -> str:
        """The arguments' values up to the extra ones (LLVM ``getMsg``)."""
        args = self.args if self.first_extra_arg < 0 else self.args[: self.first_extra_arg]
        return "".join(a.value for a in args)

    @property
    def location_text(self) -> str:
        """``file:line:col``, or ``<unknown>:0:0`` (LLVM ``getLocationStr``)."""
        loc = self.loc
        if loc is None:
            return "<unknown>:0:0"
        return "%s:%d:%d" % (loc.file, loc.line, loc.column)

    def __str__(self) -> str:
        """The line ``-pass-remarks`` prints after ``remark: ``."""
        if self.hotness is not None:
            return "%s: %s (hotness: %d)" % (self.location_text, self.message, self.hotness)
        return "%s: %s" % (self.location_text, self.message)

    def __repr__(self) -> str:
        return "<Remark %s %s:%s %s>" % (self.kind, self.pass_name, self.name, str(self))


def _at_instruction(kind: str, pass_name: str, name: str, inst: Instruction) -> Remark:
    fn = inst.function
    if fn is None:
        raise ValueError("a remark needs an instruction inside a function")
    return Remark(kind, pass_name, name, fn, location_of_debug_loc(inst.debug_loc), inst.parent)


def _at(kind: str, pass_name: str, name: str, where: Instruction | Function) -> Remark:
    from llvmpy_mid.ir.function import Function

    if isinstance(where, Function):  # code region: the entry block (LLVM getFirstFunctionBlock)
        return Remark(kind, pass_name, name, where, location_of_function(where), where.blocks._first)
    return _at_instruction(kind, pass_name, name, where)


def optimization_remark(pass_name: str, name: str, where: Instruction | Function) -> Remark:
    """What a pass did (LLVM ``OptimizationRemark``), located at an instruction's debug
    location or a function's subprogram."""
    return _at(PASSED, pass_name, name, where)


def optimization_remark_missed(pass_name: str, name: str, where: Instruction | Function) -> Remark:
    """What a pass could not do (LLVM ``OptimizationRemarkMissed``)."""
    return _at(MISSED, pass_name, name, where)


def optimization_remark_analysis(pass_name: str, name: str, where: Instruction | Function) -> Remark:
    """What a pass found out (LLVM ``OptimizationRemarkAnalysis``)."""
    return _at(ANALYSIS, pass_name, name, where)
