"""Constant text for the assembly printer: integers, floats, aggregates,
strings, constant expressions, ``blockaddress`` and friends.

Floats follow LLVM 19's rule. ``float`` and ``double`` print in decimal
``%e`` form with six fraction digits (``1.500000e+00``) when reading that
text back gives exactly the same double; otherwise the value's double bit
pattern prints in hex (``0x3FB99999A0000000``; a ``float`` is widened to
double first, a NaN keeping its payload shifted into place). The decimal
digits are produced the way LLVM's ``APFloat::toString`` does it (truncate
to about 20 significant bits, then round half up to six digits), which
matters for values near a rounding boundary. ``half`` (``0xH``), ``bfloat``
(``0xR``), ``x86_fp80`` (``0xK``), ``fp128`` (``0xL``) and ``ppc_fp128``
(``0xM``) always print as their bit pattern.

:func:`constant_text` is the constant part of LLVM's ``WriteAsOperandInternal``
(no leading type), including ``ptrauth (...)`` signed pointers; nested
aggregates and expressions are walked with an
explicit stack and every text is cached in the session's ``refs`` table (a long text only
until the constant holding it has been spelled).
Global values, metadata and instructions are spelled by the caller's context.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.asm.print_names import escape_bytes
from llvmpy_mid.ir import fp_bits
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    BlockAddress,
    ConstantAggregateZero,
    ConstantArray,
    ConstantDataArray,
    ConstantDataVector,
    ConstantFP,
    ConstantInt,
    ConstantPointerNull,
    ConstantPtrAuth,
    ConstantStruct,
    ConstantTargetNone,
    ConstantTokenNone,
    ConstantVector,
    DSOLocalEquivalent,
    NoCFIValue,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.types import IntegerType, StructType, TypeID

if TYPE_CHECKING:
    from llvmpy_mid.asm.print_context import WriterContext
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.value import Value

# --- floating point ---------------------------------------------------------------------------

_MASK52 = (1 << 52) - 1
_MASK64 = (1 << 64) - 1
_PRECISION = 6
_BITS_REQUIRED = (_PRECISION * 196 + 58) // 59


def _decimal_text(negative: bool, mant: int, exp2: int) -> str:
    """``mant * 2**exp2`` (mant > 0) in APFloat's ``toString(6, 0, false)`` form."""
    tz = (mant & -mant).bit_length() - 1
    mant >>= tz
    exp = exp2 + tz
    if exp > 0:
        mant <<= exp
        exp = 0
    elif exp < 0:
        mant *= 5 ** (-exp)
    # First, drop whole decimal digits by truncating division (as APFloat does).
    bits = mant.bit_length()
    if bits > _BITS_REQUIRED:
        tens = (bits - _BITS_REQUIRED) * 59 // 196
        if tens:
            exp += tens
            mant //= 10**tens
    digits = str(mant)
    stripped = digits.rstrip("0")
    exp += len(digits) - len(stripped)
    digits = stripped
    n = len(digits)
    if n > _PRECISION:
        first = n - _PRECISION
        kept = digits[:_PRECISION]
        if digits[_PRECISION] < "5":
            trimmed = kept.rstrip("0")
            exp += first + (_PRECISION - len(trimmed))
            digits = trimmed
        else:
            j = _PRECISION - 1
            while j >= 0 and kept[j] == "9":
                j -= 1
            if j < 0:
                exp += n
                digits = "1"
            else:
                digits = kept[:j] + chr(ord(kept[j]) + 1)
                exp += first + (_PRECISION - 1 - j)
    nd = len(digits)
    exp += nd - 1
    frac = digits[1:]
    if _PRECISION > nd - 1:
        frac += "0" * (_PRECISION - nd + 1)
    if exp < 0:
        exp_text = "-%02d" % -exp
    else:
        exp_text = "+%02d" % exp
    return ("-" if negative else "") + digits[0] + "." + frac + "e" + exp_text


def double_text(bits: int) -> str:
    """A double (given by its bit pattern) as LLVM prints it."""
    e = (bits >> 52) & 0x7FF
    negative = bool(bits >> 63)
    if e != 0x7FF:
        f = bits & _MASK52
        if e == 0 and f == 0:
            return "-0.000000e+00" if negative else "0.000000e+00"
        if e == 0:
            text = _decimal_text(negative, f, -1074)
        else:
            text = _decimal_text(negative, f | (1 << 52), e - 1075)
        if float(text) == fp_bits.bits_to_double(bits):
            return text
    return "0x%X" % bits


def _float_as_double_bits(bits: int) -> int:
    """The double bit pattern of a float, exact (NaN payloads shifted into place)."""
    sign = (bits >> 31) & 1
    e = (bits >> 23) & 0xFF
    f = bits & 0x7FFFFF
    if e == 0xFF:
        return (sign << 63) | (0x7FF << 52) | (f << 29)
    return fp_bits.double_to_bits(fp_bits.bits_to_float(TypeID.FLOAT, bits))


def fp_text(type_id: TypeID, bits: int) -> str:
    """A floating-point constant of any kind as LLVM prints it."""
    if type_id is TypeID.DOUBLE:
        return double_text(bits)
    if type_id is TypeID.FLOAT:
        return double_text(_float_as_double_bits(bits))
    if type_id is TypeID.HALF:
        return "0xH%04X" % bits
    if type_id is TypeID.BFLOAT:
        return "0xR%04X" % bits
    if type_id is TypeID.X86_FP80:
        head = (bits >> 64) & 0xFFFF
        low = bits & _MASK64
        if not low >> 63 and head & 0x7FFF not in (0, 0x7FFF):
            # An "unnormal" (integer bit clear): LLVM's APFloat reads it as a NaN.
            head |= 0x7FFF
        return "0xK%04X%016X" % (head, low)
    if type_id is TypeID.FP128:
        return "0xL%016X%016X" % (bits & _MASK64, (bits >> 64) & _MASK64)
    return "0xM%016X%016X" % (bits & _MASK64, (bits >> 64) & _MASK64)


# --- constants ----------------------------------------------------------------------------------

_LEAF = 0
_COMPOSITE = 1

_KINDS: dict[type, int] = {
    ConstantInt: _LEAF,
    ConstantFP: _LEAF,
    ConstantPointerNull: _LEAF,
    ConstantAggregateZero: _LEAF,
    ConstantTargetNone: _LEAF,
    ConstantTokenNone: _LEAF,
    UndefValue: _LEAF,
    PoisonValue: _LEAF,
    ConstantDataArray: _LEAF,
    ConstantDataVector: _LEAF,
    ConstantArray: _COMPOSITE,
    ConstantStruct: _COMPOSITE,
    ConstantVector: _COMPOSITE,
    ConstantExpr: _COMPOSITE,
    BlockAddress: _COMPOSITE,
    DSOLocalEquivalent: _COMPOSITE,
    NoCFIValue: _COMPOSITE,
    ConstantPtrAuth: _COMPOSITE,
}


def int_text(c: ConstantInt) -> str:
    width = c.type.width
    v = c.value
    if width == 1:
        return "true" if v else "false"
    if v >> (width - 1):
        return str(v - (1 << width))
    return str(v)


def _data_elements(ctx: WriterContext, c: ConstantDataArray | ConstantDataVector) -> str:
    ety = c.element_type
    tstr = ctx.tstr(ety)
    if isinstance(ety, IntegerType):
        width = ety.width
        sign = 1 << (width - 1)
        full = 1 << width
        parts = [tstr + " " + str(r - full if r & sign else r) for r in c.raw]
    else:
        tid = ety.type_id
        parts = [tstr + " " + fp_text(tid, r) for r in c.raw]
    return ", ".join(parts)


def _leaf_text(ctx: WriterContext, c: Constant) -> str:
    cls = type(c)
    if cls is ConstantInt:
        return int_text(cast(ConstantInt, c))
    if cls is ConstantFP:
        fc = cast(ConstantFP, c)
        return fp_text(fc.type.type_id, fc.bits)
    if cls is ConstantPointerNull:
        return "null"
    if cls is ConstantAggregateZero or cls is ConstantTargetNone:
        return "zeroinitializer"
    if cls is PoisonValue:
        return "poison"
    if cls is UndefValue:
        return "undef"
    if cls is ConstantTokenNone:
        return "none"
    if cls is ConstantDataArray:
        da = cast(ConstantDataArray, c)
        ety = da.element_type
        if isinstance(ety, IntegerType) and ety.width == 8:
            return 'c"' + escape_bytes(da.raw) + '"'
        return "[" + _data_elements(ctx, da) + "]"
    dv = cast(ConstantDataVector, c)
    return "<" + _data_elements(ctx, dv) + ">"


def _gep_flags_text(flags: int) -> str:
    text = ""
    if flags & 1:
        text = " inbounds"
    elif flags & 2:
        text = " nusw"
    if flags & 4:
        text += " nuw"
    return text


def _expr_text(ctx: WriterContext, ce: ConstantExpr) -> str:
    opcode = ce.opcode
    typed = ctx.typed
    parts: list[str] = [opcode]
    if opcode == "getelementptr":
        parts.append(_gep_flags_text(ce.flags))
        if ce.inrange is not None:
            parts.append(" inrange(%d, %d)" % ce.inrange)
        parts.append(" (")
        assert ce.source_element_type is not None
        parts.append(ctx.tstr(ce.source_element_type))
        parts.append(", ")
    else:
        if ce.flags and (opcode == "add" or opcode == "sub" or opcode == "mul"):
            if ce.flags & 1:
                parts.append(" nuw")
            if ce.flags & 2:
                parts.append(" nsw")
        parts.append(" (")
    parts.append(", ".join([typed(u.value) for u in ce._operands]))
    if opcode in _CAST_OPCODES:
        parts.append(" to ")
        parts.append(ctx.tstr(ce.type))
    elif opcode == "shufflevector":
        parts.append(shuffle_mask_text(ce.type, ce.shuffle_mask))
    parts.append(")")
    return "".join(parts)


_CAST_OPCODES = frozenset(("trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp",
                           "ptrtoint", "inttoptr", "bitcast", "addrspacecast"))


def shuffle_mask_text(ty: object, mask: tuple[int, ...]) -> str:
    """``, <4 x i32> <i32 0, i32 poison, ...>`` (or ``zeroinitializer``/``poison``)."""
    scalable = getattr(ty, "scalable", False)
    head = ", <" + ("vscale x " if scalable else "") + str(len(mask)) + " x i32> "
    if all(m == 0 for m in mask):
        return head + "zeroinitializer"
    if all(m == -1 for m in mask):
        return head + "poison"
    return head + "<" + ", ".join(["i32 poison" if m == -1 else "i32 " + str(m) for m in mask]) + ">"


def _composite_text(ctx: WriterContext, c: Constant) -> str:
    cls = type(c)
    ref = ctx.ref
    if cls is ConstantArray or cls is ConstantVector:
        ety = c.type.element_type  # type: ignore[attr-defined]
        tstr = ctx.tstr(ety) + " "
        inner = ", ".join([tstr + ref(u.value) for u in c._operands])
        return "[" + inner + "]" if cls is ConstantArray else "<" + inner + ">"
    if cls is ConstantStruct:
        st = c.type
        assert isinstance(st, StructType)
        typed = ctx.typed
        ops = c._operands
        body = "{ " + ", ".join([typed(u.value) for u in ops]) + " }" if ops else "{}"
        return "<" + body + ">" if st.packed else body
    if cls is ConstantExpr:
        return _expr_text(ctx, cast(ConstantExpr, c))
    if cls is BlockAddress:
        ops = c._operands
        return "blockaddress(" + ref(ops[0].value) + ", " + ref(ops[1].value) + ")"
    if cls is DSOLocalEquivalent:
        return "dso_local_equivalent " + ref(c._operands[0].value)
    if cls is ConstantPtrAuth:
        # ptrauth (ptr P, i32 key[, i64 disc[, ptr addrdisc]]): trailing null operands are left out.
        signed = [cast("Constant", u.value) for u in c._operands]
        count = 2
        if not signed[2].is_null_value:
            count = 3
        if not signed[3].is_null_value:
            count = 4
        typed = ctx.typed
        return "ptrauth (" + ", ".join([typed(op) for op in signed[:count]]) + ")"
    return "no_cfi " + ref(c._operands[0].value)


def constant_text(ctx: WriterContext, c: Constant) -> str:
    """The text of constant ``c`` without its type (cached in ``ctx.refs``)."""
    refs = ctx.refs
    text = refs.get(id(c))
    if text is not None:
        return text
    kinds = _KINDS
    kind = kinds.get(type(c))
    if kind is None:
        return "<placeholder or erroneous Constant>"
    if kind == _LEAF:
        text = refs[id(c)] = _leaf_text(ctx, c)
        return text
    work: list[tuple[Value, bool]] = [(c, False)]
    while work:
        k, ready = work.pop()
        if id(k) in refs:
            continue
        kk = kinds.get(type(k))
        if kk is None:
            continue
        if kk == _LEAF:
            refs[id(k)] = _leaf_text(ctx, cast("Constant", k))
            continue
        if not ready:
            work.append((k, True))
            for use in k._operands:  # type: ignore[attr-defined]
                v = use.value
                if v.is_constant and not v.is_global_value and id(v) not in refs:
                    work.append((v, False))
            continue
        text = refs[id(k)] = _composite_text(ctx, cast("Constant", k))
        if len(text) > _KEEP_LONG:
            # A long operand text is now part of this one: drop it, so a deep nest keeps its
            # texts once, not once per level (memory linear in the output, not quadratic).
            for use in k._operands:  # type: ignore[attr-defined]
                inner = refs.get(id(use.value))
                if inner is not None and len(inner) > _KEEP_LONG and not use.value.is_global_value:
                    del refs[id(use.value)]
    return refs[id(c)]


_KEEP_LONG = 1024
"""Texts longer than this are not kept once a constant holding them has been spelled."""


__all__ = ["constant_text", "double_text", "fp_text", "int_text", "shuffle_mask_text"]
