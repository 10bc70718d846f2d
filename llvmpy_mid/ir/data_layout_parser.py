"""Reading LLVM 19's ``target datalayout`` string into specification records.

:func:`parse_layout` walks the ``-``-separated specifications of a layout
string (LangRef, "Data Layout") and returns a :class:`LayoutSpecs`: LLVM's
default entries, overridden by what the string says. It accepts every
specification LLVM 19 accepts (``e``/``E``, ``S``, ``P``/``A``/``G``, ``p``,
``i``/``v``/``f``/``a``, ``F``, ``m``, ``n``, ``ni`` and the obsolete ``s``)
and rejects what LLVM 19 rejects, raising
:class:`~llvmpy_mid.errors.DataLayoutError` with LLVM's wording. The small
immutable records a layout is made of (:class:`PointerSpec`,
:class:`ManglingMode`, :class:`FunctionPtrAlignType`) live here too.

What it does not do: it answers no queries about types (sizes, alignments,
struct layouts are :class:`~llvmpy_mid.ir.data_layout.DataLayout`'s job, which
is also the public way in), and it does not print a layout string back.
"""

from __future__ import annotations

from bisect import bisect_left
from enum import Enum

from attrs import frozen

from llvmpy_mid.errors import DataLayoutError

__all__ = [
    "AlignTable",
    "FunctionPtrAlignType",
    "LayoutSpecs",
    "ManglingMode",
    "PointerSpec",
    "parse_layout",
]


class ManglingMode(Enum):
    """Symbol mangling named by ``m:<c>`` (``NONE`` when the string has none)."""

    NONE = ""
    ELF = "e"
    GOFF = "l"
    MIPS = "m"
    MACHO = "o"
    WIN_COFF = "w"
    WIN_COFF_X86 = "x"
    XCOFF = "a"


class FunctionPtrAlignType(Enum):
    """How ``F<type><abi>`` relates function pointer alignment to functions."""

    INDEPENDENT = "i"
    """``Fi``: function pointers are aligned to the given value, whatever the function's alignment."""
    MULTIPLE_OF_FUNCTION_ALIGN = "n"
    """``Fn``: function pointers are aligned to a multiple of the function's own alignment."""


@frozen
class PointerSpec:
    """One ``p[n]:<size>:<abi>:<pref>:<idx>`` entry (sizes in bits, alignments in bytes)."""

    address_space: int
    size_in_bits: int
    abi_alignment: int
    pref_alignment: int
    index_size_in_bits: int


# --- lexical helpers ------------------------------------------------------------

_U32 = (1 << 32) - 1
_U64 = (1 << 64) - 1
_U24 = (1 << 24) - 1
_U16 = (1 << 16) - 1

_ERR_NOT_A_NUMBER = "not a number, or does not fit in an unsigned int"


def _split(text: str, sep: str) -> tuple[str, str]:
    """Split at the first ``sep`` with LLVM's two separator diagnostics."""
    at = text.find(sep)
    if at < 0:
        return text, ""
    first = text[:at]
    rest = text[at + 1 :]
    if not rest:
        raise DataLayoutError("Trailing separator in datalayout string")
    if not first:
        raise DataLayoutError("Expected token before separator in datalayout string")
    return first, rest


def _get_int(text: str, limit: int = _U32) -> int:
    if not text or not text.isascii() or not text.isdigit():
        raise DataLayoutError(_ERR_NOT_A_NUMBER)
    digits = text.lstrip("0")
    if len(digits) > 20:  # beyond any limit, and too long for int() to take quickly
        raise DataLayoutError(_ERR_NOT_A_NUMBER)
    value = int(digits or "0")
    if value > limit:
        raise DataLayoutError(_ERR_NOT_A_NUMBER)
    return value


def _get_bytes(text: str, limit: int = _U32) -> int:
    bits = _get_int(text, limit)
    if bits % 8:
        raise DataLayoutError("number of bits must be a byte width multiple")
    return bits // 8


def _get_addr_space(text: str) -> int:
    value = _get_int(text)
    if value > _U24:
        raise DataLayoutError("Invalid address space, must be a 24-bit integer")
    return value


def _is_pow2(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


# An alignment table: parallel sorted lists of widths and (abi, pref) pairs.
AlignTable = tuple[list[int], list[tuple[int, int]]]


def _set_entry(table: AlignTable, width: int, abi: int, pref: int) -> None:
    widths, aligns = table
    at = bisect_left(widths, width)
    if at < len(widths) and widths[at] == width:
        aligns[at] = (abi, pref)
    else:
        widths.insert(at, width)
        aligns.insert(at, (abi, pref))


_MANGLING = {m.value: m for m in ManglingMode if m is not ManglingMode.NONE}


class LayoutSpecs:
    """What a layout string specifies, with LLVM's defaults where it is silent.

    Alignments are in bytes, widths in bits. A fresh instance holds LLVM's
    default layout (what the empty string gives); :func:`parse_layout` fills
    one in. The lists and tables are the parser's working copies:
    :class:`~llvmpy_mid.ir.data_layout.DataLayout` freezes what it keeps.
    """

    __slots__ = (
        "big_endian",
        "stack_alignment",
        "function_ptr_alignment",
        "function_ptr_align_type",
        "program_as",
        "alloca_as",
        "globals_as",
        "mangling",
        "legal_int_widths",
        "non_integral",
        "ints",
        "floats",
        "vectors",
        "struct_abi",
        "struct_pref",
        "pointers",
    )

    def __init__(self) -> None:
        self.big_endian = False
        self.stack_alignment: int | None = None
        self.function_ptr_alignment: int | None = None
        self.function_ptr_align_type = FunctionPtrAlignType.INDEPENDENT
        self.program_as = 0
        self.alloca_as = 0
        self.globals_as = 0
        self.mangling = ManglingMode.NONE
        # The native integer widths (n) and non-integral address spaces (ni), in the order given.
        self.legal_int_widths: list[int] = []
        self.non_integral: list[int] = []
        # LLVM's defaults; the string overrides entries of the same width.
        self.ints: AlignTable = ([1, 8, 16, 32, 64], [(1, 1), (1, 1), (2, 2), (4, 4), (4, 8)])
        self.floats: AlignTable = ([16, 32, 64, 128], [(2, 2), (4, 4), (8, 8), (16, 16)])
        self.vectors: AlignTable = ([64, 128], [(8, 8), (16, 16)])
        self.struct_abi = 1
        self.struct_pref = 8
        self.pointers: dict[int, PointerSpec] = {0: PointerSpec(0, 64, 8, 8, 64)}


def parse_layout(text: str) -> LayoutSpecs:
    """Parse a layout string (``""`` gives LLVM's defaults); raises
    :class:`DataLayoutError` where LLVM 19 would, with its message."""
    specs = LayoutSpecs()
    _parse_into(specs, text)
    return specs


# --- the specifications -----------------------------------------------------------


def _parse_into(specs: LayoutSpecs, text: str) -> None:
    desc = text
    while desc:
        token, desc = _split(desc, "-")
        tok, rest = _split(token, ":")
        if tok == "ni":
            while True:
                field, rest = _split(rest, ":")
                space = _get_int(field)
                if space == 0:
                    raise DataLayoutError("Address space 0 can never be non-integral")
                specs.non_integral.append(space)
                if not rest:
                    break
            continue
        spec = tok[0]
        tok = tok[1:]
        if spec in "ivfa":
            _parse_alignment(specs, spec, tok, rest)
        elif spec == "p":
            _parse_pointer(specs, tok, rest)
        elif spec == "e":
            specs.big_endian = False
        elif spec == "E":
            specs.big_endian = True
        elif spec == "s":
            pass  # obsolete stack-object specification, accepted and ignored
        elif spec == "n":
            while True:
                width = _get_int(tok)
                if width == 0:
                    raise DataLayoutError("Zero width native integer type in datalayout string")
                specs.legal_int_widths.append(width)
                if not rest:
                    break
                tok, rest = _split(rest, ":")
        elif spec == "S":
            alignment = _get_bytes(tok, _U64)
            if alignment and not _is_pow2(alignment):
                raise DataLayoutError("Alignment is neither 0 nor a power of 2")
            specs.stack_alignment = alignment or None
        elif spec == "F":
            kind = tok[:1]
            if kind == "i":
                specs.function_ptr_align_type = FunctionPtrAlignType.INDEPENDENT
            elif kind == "n":
                specs.function_ptr_align_type = FunctionPtrAlignType.MULTIPLE_OF_FUNCTION_ALIGN
            else:
                raise DataLayoutError("Unknown function pointer alignment type in datalayout string")
            alignment = _get_bytes(tok[1:], _U64)
            if alignment and not _is_pow2(alignment):
                raise DataLayoutError("Alignment is neither 0 nor a power of 2")
            specs.function_ptr_alignment = alignment or None
        elif spec == "P":
            specs.program_as = _get_addr_space(tok)
        elif spec == "A":
            specs.alloca_as = _get_addr_space(tok)
        elif spec == "G":
            specs.globals_as = _get_addr_space(tok)
        elif spec == "m":
            if tok:
                raise DataLayoutError(
                    "Unexpected trailing characters after mangling specifier in datalayout string"
                )
            if not rest:
                raise DataLayoutError("Expected mangling specifier in datalayout string")
            if len(rest) > 1:
                raise DataLayoutError("Unknown mangling specifier in datalayout string")
            mode = _MANGLING.get(rest)
            if mode is None:
                raise DataLayoutError("Unknown mangling in datalayout string")
            specs.mangling = mode
        else:
            raise DataLayoutError("Unknown specifier in datalayout string")


def _parse_pointer(specs: LayoutSpecs, tok: str, rest: str) -> None:
    space = _get_addr_space(tok) if tok else 0
    if not rest:
        raise DataLayoutError("Missing size specification for pointer in datalayout string")
    field, rest = _split(rest, ":")
    size = _get_int(field)
    if size == 0:
        raise DataLayoutError("Invalid pointer size of 0 bytes")
    if not rest:
        raise DataLayoutError("Missing alignment specification for pointer in datalayout string")
    field, rest = _split(rest, ":")
    abi = _get_bytes(field)
    if not _is_pow2(abi):
        raise DataLayoutError("Pointer ABI alignment must be a power of 2")
    pref = abi
    index = size
    if rest:
        field, rest = _split(rest, ":")
        pref = _get_bytes(field)
        if not _is_pow2(pref):
            raise DataLayoutError("Pointer preferred alignment must be a power of 2")
        if rest:
            field, rest = _split(rest, ":")
            index = _get_int(field)
            if index == 0:
                raise DataLayoutError("Invalid index size of 0 bytes")
    if pref < abi:
        raise DataLayoutError("Preferred alignment cannot be less than the ABI alignment")
    if index > size:
        raise DataLayoutError("Index width cannot be larger than pointer width")
    specs.pointers[space] = PointerSpec(space, size, abi, pref, index)


def _parse_alignment(specs: LayoutSpecs, spec: str, tok: str, rest: str) -> None:
    width = _get_int(tok) if tok else 0
    if spec == "a" and width != 0:
        raise DataLayoutError("Sized aggregate specification in datalayout string")
    if not rest:
        raise DataLayoutError("Missing alignment specification in datalayout string")
    field, rest = _split(rest, ":")
    abi = _get_bytes(field)
    if spec != "a" and abi == 0:
        raise DataLayoutError("ABI alignment specification must be >0 for non-aggregate types")
    if abi > _U16:
        raise DataLayoutError("Invalid ABI alignment, must be a 16bit integer")
    if abi and not _is_pow2(abi):
        raise DataLayoutError("Invalid ABI alignment, must be a power of 2")
    if spec == "i" and width == 8 and abi != 1:
        raise DataLayoutError("Invalid ABI alignment, i8 must be naturally aligned")
    pref = abi
    if rest:
        field, rest = _split(rest, ":")
        pref = _get_bytes(field)
    if pref > _U16:
        raise DataLayoutError("Invalid preferred alignment, must be a 16bit integer")
    if pref and not _is_pow2(pref):
        raise DataLayoutError("Invalid preferred alignment, must be a power of 2")
    if width > _U24:
        raise DataLayoutError("Invalid bit width, must be a 24-bit integer")
    # An alignment of 0 means 1 byte.
    abi = abi or 1
    pref = pref or 1
    if pref < abi:
        raise DataLayoutError("Preferred alignment cannot be less than the ABI alignment")
    if spec == "a":
        specs.struct_abi = abi
        specs.struct_pref = pref
    else:
        table = specs.ints if spec == "i" else specs.vectors if spec == "v" else specs.floats
        _set_entry(table, width, abi, pref)
