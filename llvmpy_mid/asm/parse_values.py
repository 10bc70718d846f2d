"""Values in ``.ll`` text: local and global references (with forward
references), every constant form, and constant expressions.

What: :class:`ValueParser` adds :meth:`~ValueParser.parse_value` (a value of
a known type), :meth:`~ValueParser.parse_type_and_value` and the constant
forms: integers (decimal, ``u0x``/``s0x``, ``true``/``false``), floating
point (decimal, ``0x`` double bits, ``0xK``/``0xL``/``0xM``/``0xH``/``0xR``
raw bits, with LLVM's exactness rule for narrower types), ``null``,
``none``, ``undef``, ``poison``, ``zeroinitializer``, ``c"..."``, arrays,
vectors, structs (packed or not), ``splat (...)``, ``blockaddress``,
``dso_local_equivalent``, ``no_cfi`` and the constant expressions LLVM 19
keeps (casts, ``getelementptr`` with ``inrange``, the vector operations,
``add``/``sub``/``mul``/``xor``), folded as LLVM folds them
(:mod:`llvmpy_mid.asm.parse_constfold`). The removed expressions are
rejected with LLVM's "... constexprs are no longer supported".

How forward references work (as in LLVM's parser): a local name used before
its definition gets a :class:`~llvmpy_mid.asm.parse_base.Placeholder` (or,
for a label, a real block appended to the function); a global gets a
placeholder global variable. The definition takes over all uses
(``replace_all_uses_with``), which gives use-lists LLVM's order.
``blockaddress`` of a function not yet parsed is a placeholder replaced when
that function's body is complete.

Not done here: metadata values (``parse_metadata``), inline asm callees and
instructions (``parse_instructions``).
"""

from __future__ import annotations

import re
import struct
from typing import Any, Callable, Generator, cast

from llvmpy_mid.asm.lexer import decimal_value, is_digits
from llvmpy_mid.asm.parse_attributes import AttributeParser
from llvmpy_mid.asm.parse_base import NAME_TOO_LONG, Placeholder, name_too_long
from llvmpy_mid.errors import IRError
from llvmpy_mid.ir import fp_bits
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantArray,
    ConstantDataArray,
    ConstantFP,
    ConstantInt,
    ConstantPointerNull,
    ConstantStruct,
    ConstantTargetNone,
    ConstantTokenNone,
    ConstantVector,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.global_value import GlobalVariable, Linkage
from llvmpy_mid.ir.types import (
    ArrayType,
    FloatingPointType,
    IntegerType,
    PointerType,
    StructType,
    TargetExtType,
    Type,
    TypeID,
)
from llvmpy_mid.ir.value import Value

_FP_DECIMAL = re.compile(r"[-+]?[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?\Z")
_LEADING_INT = re.compile(r"-?[0-9]")
_HEX_FP = re.compile(r"0x([KLMHR]?)([0-9A-Fa-f]+)\Z")
_HEX_KIND_TYPE = {"K": TypeID.X86_FP80, "L": TypeID.FP128, "M": TypeID.PPC_FP128, "H": TypeID.HALF, "R": TypeID.BFLOAT}

_REMOVED_CASTS = frozenset(("zext", "sext", "fptrunc", "fpext", "uitofp", "sitofp", "fptoui", "fptosi"))
_REMOVED_BINARY = frozenset(
    ("udiv", "sdiv", "urem", "srem", "fadd", "fsub", "fmul", "fdiv", "frem", "and", "or", "shl", "lshr", "ashr", "fneg")
)
_TYPE_SUFFIX = frozenset(("*", "(", "addrspace"))
_NOT_FIRST_CLASS = frozenset((TypeID.VOID, TypeID.FUNCTION))


def _double_to_narrow(type_id: TypeID, dbits: int) -> int | None:
    """The bits of a double converted exactly to half/bfloat/float, or None
    when LLVM would call the constant invalid for the type (inexact)."""
    sign = dbits >> 63
    exponent = (dbits >> 52) & 0x7FF
    mantissa = dbits & ((1 << 52) - 1)
    if exponent == 0x7FF and mantissa:
        # NaN: keep the top payload bits; dropping set bits is inexact.
        if type_id is TypeID.FLOAT:
            frac_bits, exp_all = 23, 0xFF
        elif type_id is TypeID.HALF:
            frac_bits, exp_all = 10, 0x1F
        else:
            frac_bits, exp_all = 7, 0xFF
        drop = 52 - frac_bits
        if mantissa & ((1 << drop) - 1):
            return None
        exp_width = 8 if exp_all == 0xFF else 5
        return (sign << (exp_width + frac_bits)) | (exp_all << frac_bits) | (mantissa >> drop)
    value = fp_bits.bits_to_double(dbits)
    try:
        if type_id is TypeID.FLOAT or type_id is TypeID.BFLOAT:
            packed = struct.pack("<f", value)
            if struct.unpack("<f", packed)[0] != value:
                return None
            fbits = int.from_bytes(packed, "little")
            if type_id is TypeID.FLOAT:
                return fbits
            if fbits & 0xFFFF:
                return None
            return fbits >> 16
        packed = struct.pack("<e", value)
        if struct.unpack("<e", packed)[0] != value:
            return None
        return int.from_bytes(packed, "little")
    except (OverflowError, struct.error):
        return None



def _hex_int_to_val(digits: str) -> int:
    """LLVM ``LLLexer::HexIntToVal``: the digits accumulated in 64 bits, 0 where LLVM's overflow
    test (the running value getting smaller) fires. LLVM's lexer records that error but its parser
    never reports it, so opt-19 reads ``0x10000000000000000`` as 0.0 without a word, and
    ``0x00010000000000000`` (17 digits, leading zeros) as its value."""
    result = 0
    for ch in digits:
        old = result
        result = (result * 16 + int(ch, 16)) & 0xFFFFFFFFFFFFFFFF
        if result < old:
            return 0
    return result

class ValueParser(AttributeParser):
    """Values and constants."""

    __slots__ = ()

    # --- entry points ----------------------------------------------------------------------------
    def parse_type_and_value(self) -> Value:
        ty = self.parse_type()
        return self.parse_value(ty)

    def parse_value(self, ty: Type) -> Value:
        """A value of type ``ty`` (a local or global name, a constant, or
        metadata when ``ty`` is ``metadata``)."""
        p = self.p
        tok = self.toks[p]
        c = tok[:1]
        if c == "%" or c == "@":
            if len(tok) == 1:  # a sigil without a name: LLVM's lexer makes an error token
                self.fail("expected value token")
        if c == "%":
            fs = self.fs
            if fs is None:
                self.fail("invalid use of function-local name")
            key = tok if tok[1:2] != '"' else self.local_key(tok)
            v = fs.values.get(key)
            if v is not None and v.type is ty:
                self.p = p + 1
                return v
            return self.local_value_slow(key, ty, p)
        if c == "@":
            return self.global_ref(tok, ty, p)
        return self.parse_constant_token(ty)

    def parse_constant(self, ty: Type) -> Constant:
        """A constant of type ``ty`` (no local names)."""
        at = self.p
        if self.toks[at][:1] == "%":
            # LLVM reads constants without the function's names in scope.
            self.fail("invalid use of function-local name")
        v = self.parse_value(ty)
        if not v.is_constant:
            self.fail("expected a constant value", at)
        return cast(Constant, v)

    def parse_type_and_constant(self) -> Constant:
        toks = self.toks
        p = self.p
        ty = self.value_words.get(toks[p])
        if ty is not None and toks[p + 1] not in _TYPE_SUFFIX:
            # ``iN 42``: the commonest element of an initializer, read directly.
            tok = toks[p + 1]
            if ty.type_id is TypeID.INTEGER:
                cache = self.int_cache.get(ty)
                if cache is not None:
                    c = cache.get(tok)
                    if c is not None:
                        self.p = p + 2
                        return c
            self.p = p + 1
            if tok == "{":
                return self.parse_struct_constant(ty, False)
            if tok == "[":
                return self.parse_array_constant(ty)
        else:
            ty = self.parse_type()
        return self.parse_constant(ty)

    # --- local names ---------------------------------------------------------------------------------
    def local_value_slow(self, key: str, ty: Type, at: int) -> Value:
        fs = self.fs
        assert fs is not None
        self.p = at + 1
        v = fs.values.get(key)
        if v is None:
            v = fs.fwd.get(key)
        if v is not None:
            if v.type is not ty:
                if ty.type_id is TypeID.LABEL:
                    self.fail("'%s' is not a basic block" % key, at)
                self.fail("'%s' defined with type '%s' but expected '%s'" % (key, self.type_text(v.type), self.type_text(ty)), at)
            return v
        tid = ty.type_id
        if tid is TypeID.LABEL:
            name = key[1:] if not is_digits(key[1:]) and key[1:2] != '"' else ""
            if key[1:2] == '"':
                name = key[2:]
            if name_too_long(name):
                self.fail(NAME_TOO_LONG, at)
            bb = BasicBlock(self.ctx, name, parent=fs.fn)
            fs.fwd[key] = bb
            fs.fwd_index[key] = at
            return bb
        if tid in _NOT_FIRST_CLASS or tid is TypeID.METADATA:
            self.fail("invalid use of a non-first-class type", at)
        ph = Placeholder(ty, at)
        fs.fwd[key] = ph
        fs.fwd_index[key] = at
        return ph

    def parse_label_ref(self) -> BasicBlock:
        """``label %bb`` (the current token is ``label``)."""
        toks = self.toks
        p = self.p
        if toks[p] != "label":
            # As LLVM's parseTypeAndBasicBlock: any type and value, then the block check.
            self.parse_value(self.parse_type())
            self.fail("expected a basic block", p)
        tok = toks[p + 1]
        if tok[:1] != "%":
            self.p = p + 1
            self.fail("expected value token")
        fs = self.fs
        assert fs is not None
        key = tok if tok[1:2] != '"' else self.local_key(tok)
        v = fs.values.get(key)
        if v is not None and v.is_basic_block:
            self.p = p + 2
            return cast(BasicBlock, v)
        return cast(BasicBlock, self.local_value_slow(key, self.ctx.label, p + 1))

    def parse_block_value(self) -> BasicBlock:
        """``%bb`` as a block (the type ``label`` was already read)."""
        tok = self.toks[self.p]
        if tok[:1] != "%":
            self.fail("expected a basic block")
        return cast(BasicBlock, self.parse_value(self.ctx.label))

    # --- global names ---------------------------------------------------------------------------------
    def global_ref(self, tok: str, ty: Type, at: int) -> Value:
        self.p = at + 1
        key = self.local_key(tok)
        if not isinstance(ty, PointerType):
            self.fail("global variable reference must have pointer type", at)
        gv = self.globals.get(key)
        if gv is not None:
            if gv.type is not ty:
                self.fail("'%s' defined with type '%s' but expected '%s'" % (key, gv.type, ty), at)
            return gv
        fwd = self.fwd_globals.get(key)
        if fwd is not None:
            ph = fwd[0]
            if ph.type is not ty:
                self.fail("'%s' defined with type '%s' but expected '%s'" % (key, ph.type, ty), at)
            return ph
        ph = GlobalVariable(self.ctx.i8, "", Linkage.EXTERN_WEAK, None, False, ty.address_space)
        self.fwd_globals[key] = (ph, at)
        return ph

    # --- constants ----------------------------------------------------------------------------------------
    def parse_constant_token(self, ty: Type) -> Value:
        toks = self.toks
        at = self.p
        tok = toks[at]
        c = tok[:1]
        if is_digits(c) or c == "-" or c == "+":
            self.p = at + 1
            if isinstance(ty, IntegerType):
                if is_digits(tok) or (c == "-" and is_digits(tok[1:])):
                    return self.int_constant(ty, tok)
                if tok[:2] == "0x" or _FP_DECIMAL.match(tok) is not None:
                    self.fail("floating point constant invalid for type", at)
                self.fail("expected value token", at)
            return self.fp_constant(tok, ty, at)
        handler = _CONSTANT_WORDS.get(tok)
        if handler is not None:
            return handler(self, ty, at)
        if (c == "u" or c == "s") and tok[1:3] == "0x":
            self.p = at + 1
            value = self.parse_hex_int(tok, at)
            if not isinstance(ty, IntegerType):
                self.fail("integer constant must have integer type", at)
            return ConstantInt.get(ty, value)
        if tok == "[":
            return self.parse_array_constant(ty)
        if tok == "<":
            return self.parse_vector_constant(ty)
        if tok == "{":
            return self.parse_struct_constant(ty, False)
        if c == "!":
            if ty.type_id is TypeID.METADATA:
                return self.parse_metadata_as_value()
            self.fail("expected value token")
        if ty.type_id is TypeID.METADATA:
            return self.parse_metadata_as_value()
        if tok in _REMOVED_CASTS or tok in _REMOVED_BINARY or tok in ("icmp", "fcmp", "select", "extractvalue", "insertvalue"):
            self.fail("%s constexprs are no longer supported" % tok)
        self.fail("expected value token")

    def int_constant(self, ty: IntegerType, tok: str) -> ConstantInt:
        """The constant of decimal token ``tok`` (cached per type and token)."""
        cache = self.int_cache.get(ty)
        if cache is None:
            cache = self.int_cache[ty] = {}
        c = cache.get(tok)
        if c is None:
            c = cache[tok] = ConstantInt.get(ty, decimal_value(tok))
        return c

    def operand(self, ty: Type) -> Value:
        """A value of type ``ty``: the fast paths for a defined local and a
        decimal integer, else :meth:`parse_value`."""
        p = self.p
        tok = self.toks[p]
        v = self.values.get(tok)
        if v is not None and v.type is ty:
            self.p = p + 1
            return v
        c = tok[:1]
        if (is_digits(c) or c == "-") and ty.type_id is TypeID.INTEGER:
            cache = self.int_cache.get(ty)
            if cache is not None:
                ci = cache.get(tok)
                if ci is not None:
                    self.p = p + 1
                    return ci
        return self.parse_value(ty)

    def typed_operand(self) -> Value:
        """``T value`` with the fast paths of :meth:`operand`."""
        toks = self.toks
        p = self.p
        ty = self.value_words.get(toks[p])
        if ty is not None and toks[p + 1] not in _TYPE_SUFFIX:
            self.p = p + 1
        else:
            ty = self.parse_type()
        return self.operand(ty)

    def parse_hex_int(self, tok: str, at: int) -> int:
        try:
            value = int(tok[3:], 16)
        except ValueError:
            self.fail("expected value token", at)
        if tok[0] == "s":
            bits = 4 * len(tok[3:])
            if value >> (bits - 1):
                value -= 1 << bits
        return value

    def fp_constant(self, tok: str, ty: Type, at: int) -> Constant:
        if is_digits(tok) or (tok[:1] in "-+" and is_digits(tok[1:])):
            self.fail("integer constant must have integer type", at)
        if not isinstance(ty, FloatingPointType):
            if tok[:2] == "0x" or _FP_DECIMAL.match(tok) is not None:
                self.fail("floating point constant invalid for type", at)
            self.fail("expected value token", at)
        tid = ty.type_id
        m = _HEX_FP.match(tok)
        if m is not None:
            kind, digits = m.group(1), m.group(2)
            if kind:
                if _HEX_KIND_TYPE[kind] is not tid:
                    self.fail("floating point constant does not have type '%s'" % ty, at)
                if kind == "K":
                    if len(digits) > 20:
                        self.fail("constant bigger than 128 bits detected!", at)
                    head, tail = digits[:-16] if len(digits) > 16 else "", digits[-16:]
                    # LLVM reads the first four digits as the top 16 bits.
                    head = digits[:4]
                    tail = digits[4:20]
                    bits = (int(head or "0", 16) << 64) | int(tail or "0", 16)
                    if len(digits) < 4:
                        bits = int(digits, 16) << 64
                    return ConstantFP.from_bits(ty, bits)
                if kind == "L" or kind == "M":
                    if len(digits) > 32:
                        self.fail("constant bigger than 128 bits detected!", at)
                    if len(digits) >= 16:
                        low = int(digits[:16], 16)
                        high = int(digits[16:] or "0", 16)
                    else:
                        low = 0
                        high = int(digits, 16)
                    return ConstantFP.from_bits(ty, low | (high << 64))
                return ConstantFP.from_bits(ty, _hex_int_to_val(digits))
            dbits = _hex_int_to_val(digits)
        elif _FP_DECIMAL.match(tok) is not None:
            dbits = fp_bits.double_to_bits(float(tok))
        elif _LEADING_INT.match(tok) is not None:
            # LLVM's lexer reads the leading digits as an integer (``1e40`` is ``1``, ``e40``).
            self.fail("integer constant must have integer type", at)
        else:
            self.fail("expected value token", at)
        if tid is TypeID.DOUBLE:
            return ConstantFP.from_bits(ty, dbits)
        if tid is TypeID.FLOAT or tid is TypeID.HALF or tid is TypeID.BFLOAT:
            narrow = _double_to_narrow(tid, dbits)
            if narrow is None:
                self.fail("floating point constant invalid for type", at)
            return ConstantFP.from_bits(ty, narrow)
        self.fail("floating point constant does not have type '%s'" % ty, at)

    def check_constant_type(self, c: Constant, ty: Type, at: int) -> Constant:
        if c.type is not ty:
            self.fail("constant expression type mismatch: got type '%s' but expected '%s'" % (self.type_text(c.type), self.type_text(ty)), at)
        return c

    # --- keyword constants --------------------------------------------------------------------------
    def const_true(self, ty: Type, at: int) -> Constant:
        self.p = at + 1
        return self.check_constant_type(ConstantInt.get(self.ctx.i1, 1), ty, at)

    def const_false(self, ty: Type, at: int) -> Constant:
        self.p = at + 1
        return self.check_constant_type(ConstantInt.get(self.ctx.i1, 0), ty, at)

    def const_null(self, ty: Type, at: int) -> Constant:
        self.p = at + 1
        if not isinstance(ty, PointerType):
            self.fail("null must be a pointer type", at)
        return ConstantPointerNull.get(ty)

    def const_none(self, ty: Type, at: int) -> Constant:
        self.p = at + 1
        if ty.type_id is not TypeID.TOKEN:
            self.fail("invalid type for none constant", at)
        return ConstantTokenNone.get(ty)

    def const_undef(self, ty: Type, at: int) -> Constant:
        self.p = at + 1
        if ty.type_id in _NOT_FIRST_CLASS or ty.type_id is TypeID.LABEL:
            self.fail("invalid type for undef constant", at)
        return UndefValue.get(ty)

    def const_poison(self, ty: Type, at: int) -> Constant:
        self.p = at + 1
        if ty.type_id in _NOT_FIRST_CLASS or ty.type_id is TypeID.LABEL:
            self.fail("invalid type for poison constant", at)
        return PoisonValue.get(ty)

    def const_zero(self, ty: Type, at: int) -> Constant:
        self.p = at + 1
        tid = ty.type_id
        if tid in _NOT_FIRST_CLASS or tid is TypeID.LABEL or tid is TypeID.METADATA:
            self.fail("invalid type for null constant", at)
        if isinstance(ty, TargetExtType):
            if not ((ty.name.startswith("spirv.") and ty.name != "spirv.Image") or ty.name == "aarch64.svcount"):
                self.fail("invalid type for null constant", at)
            return ConstantTargetNone.get(ty)
        if tid is TypeID.X86_AMX or tid is TypeID.X86_MMX:
            self.fail("invalid type for null constant", at)
        try:
            return Constant.get_null_value(ty)
        except IRError:
            self.fail("invalid type for null constant", at)

    def const_string(self, ty: Type, at: int) -> Constant:
        self.p = at + 1
        data = self.parse_string_bytes("expected string")
        c = ConstantDataArray.get_string(self.ctx.i8, data, add_null=False)
        return self.check_constant_type(c, ty, at)

    def const_asm(self, ty: Type, at: int) -> Constant:
        """Inline asm where a constant is read: LLVM reads it all, then has no function type
        to give it."""
        toks = self.toks
        self.p = at + 1
        for flag in ("sideeffect", "alignstack", "inteldialect", "unwind"):
            if toks[self.p] == flag:
                self.p += 1
        self.parse_string()
        self.expect(",", "expected comma in inline asm expression")
        self.parse_string("expected constraint string")
        self.fail("invalid type for inline asm constraint string", at)

    # --- aggregates --------------------------------------------------------------------------------------
    def gen_constant_elements(self, close: str, message: str = "") -> Generator[None, Constant, list[Constant]]:
        """The ``T v, ...`` elements up to ``close``; each element is asked of the driver
        (:meth:`run_nested`) by a ``yield``, so nesting needs no recursion."""
        toks = self.toks
        message = message or _CLOSE_MESSAGES[close]
        elts: list[Constant] = []
        tok = toks[self.p]
        if tok in _CLOSERS:
            # LLVM stops an element list at any closing token, then wants its own.
            if tok != close:
                self.fail(message)
            self.p += 1
            return elts
        while True:
            elts.append((yield))
            tok = toks[self.p]
            self.p += 1
            if tok == ",":
                continue
            if tok == close:
                break
            self.p -= 1
            self.fail(message)
        return elts

    # --- nested constants without recursion ---------------------------------------------------------
    def run_nested(self, gen: Nested) -> Constant:
        """Drive a compound constant's reader (a generator that yields each time it needs a
        ``T v`` operand at the current token and receives that constant) with an explicit
        stack of readers: a nested aggregate or constant expression pushes its own reader, so
        any depth reads without Python recursion (opt-19 reads thousands of levels)."""
        stack: list[Nested] = [gen]
        value: Any = None
        while True:
            try:
                stack[-1].send(value)
            except StopIteration as done:
                stack.pop()
                value = done.value
                if not stack:
                    return cast(Constant, value)
                continue
            step = self.typed_constant_step()
            if isinstance(step, Constant):
                value = step
            else:
                stack.append(step)
                value = None

    def typed_constant_step(self) -> Constant | Nested:
        """``T v`` at the current token: the constant, or the reader of a compound one (not yet
        started) for :meth:`run_nested` to drive."""
        toks = self.toks
        p = self.p
        ty = self.value_words.get(toks[p])
        if ty is not None and toks[p + 1] not in _TYPE_SUFFIX:
            if ty.type_id is TypeID.INTEGER:
                cache = self.int_cache.get(ty)
                if cache is not None:
                    c = cache.get(toks[p + 1])
                    if c is not None:
                        self.p = p + 2
                        return c
            self.p = p + 1
        else:
            ty = self.parse_type()
        at = self.p
        start = _NESTED_READERS.get(toks[at])
        if start is not None:
            return start(self, ty, at)
        return self.parse_constant(ty)

    def parse_array_constant(self, ty: Type) -> Constant:
        return self.run_nested(self.gen_array_constant(ty, self.p))

    def gen_array_constant(self, ty: Type, at: int) -> Nested:
        if isinstance(ty, ArrayType):
            ety = ty.element_type
            if isinstance(ety, IntegerType) and ety.width in (8, 16, 32, 64):
                fast = self.scan_int_array(ty, ety)
                if fast is not None:
                    return fast
        self.p += 1
        first = self.p
        elts = yield from self.gen_constant_elements("]")
        if not elts:
            if not isinstance(ty, ArrayType) or ty.count != 0:
                self.fail("invalid empty array initializer", at)
            return UndefValue.get(ty)
        ety = elts[0].type
        if ety.type_id in _NOT_FIRST_CLASS or ety.type_id is TypeID.LABEL or ety.type_id is TypeID.METADATA:
            self.fail("invalid array element type: %s" % ety, first)
        for i, e in enumerate(elts):
            if e.type is not ety:
                self.fail("array element #%d is not of type '%s'" % (i, self.type_text(ety)), first)
        aty = self.ctx.array_type(ety, len(elts))
        if aty is not ty:
            self.fail("constant expression type mismatch: got type '%s' but expected '%s'" % (self.type_text(aty), self.type_text(ty)), at)
        return ConstantArray.get(aty, elts)

    def scan_int_struct(self, ty: StructType) -> Constant | None:
        """``{ i32 1, i8 -2, ... }`` of an all-integer struct, read directly;
        None (position unchanged) when the text is anything else."""
        toks = self.toks
        p = self.p + 1
        elts: list[Constant] = []
        int_constant = self.int_constant
        last = len(ty.elements) - 1
        for i, ety in enumerate(ty.elements):
            if not isinstance(ety, IntegerType) or toks[p] != ety._text:
                return None
            tok = toks[p + 1]
            if not (is_digits(tok) or (tok[:1] == "-" and is_digits(tok[1:]))) or not tok.isascii():
                return None
            elts.append(int_constant(ety, tok))
            sep = toks[p + 2]
            p += 3
            if sep != ("}" if i == last else ","):
                return None
        self.p = p
        return ConstantStruct.get(ty, elts)

    def scan_int_array(self, ty: ArrayType, ety: IntegerType) -> Constant | None:
        """``[iN a, iN b, ...]`` read straight into a data array (no per-element
        constants); None (position unchanged) when the text is anything else."""
        toks = self.toks
        p = self.p + 1
        word = str(ety)
        mask = ety.mask
        raw: list[int] = []
        append = raw.append
        count = ty.count
        for _ in range(count):
            if toks[p] != word:
                return None
            tok = toks[p + 1]
            if not (is_digits(tok) or (tok[:1] == "-" and is_digits(tok[1:]))) or not tok.isascii():
                return None
            append(decimal_value(tok) & mask)
            sep = toks[p + 2]
            p += 3
            if sep != ",":
                if sep == "]" and len(raw) == count:
                    self.p = p
                    return ConstantDataArray.get_raw(ty, raw)
                return None
        return None

    def parse_vector_constant(self, ty: Type) -> Constant:
        return self.run_nested(self.gen_vector_constant(ty, self.p))

    def gen_vector_constant(self, ty: Type, at: int) -> Nested:
        toks = self.toks
        if toks[at + 1] == "{":
            self.p = at + 1
            c = yield from self.gen_struct_constant(ty, at + 1, True)
            self.expect(">", "expected '>' at end of packed struct")
            return c
        self.p = at + 1
        first = self.p
        elts = yield from self.gen_constant_elements(">")
        if not elts:
            self.fail("constant vector must not be empty", at)
        ety = elts[0].type
        if ety.type_id is not TypeID.INTEGER and ety.type_id is not TypeID.POINTER and not ety.is_floating_point:
            self.fail("vector elements must have integer, pointer or floating point type", first)
        for i, e in enumerate(elts):
            if e.type is not ety:
                # LLVM's message lacks the closing quote.
                self.fail("vector element #%d is not of type '%s" % (i, self.type_text(ety)), first)
        c = ConstantVector.get(elts)
        return self.check_constant_type(c, ty, at)

    def parse_struct_constant(self, ty: Type, packed: bool) -> Constant:
        return self.run_nested(self.gen_struct_constant(ty, self.p, packed))

    def gen_literal_struct_constant(self, ty: Type, at: int) -> Nested:
        return self.gen_struct_constant(ty, at, False)

    def gen_struct_constant(self, ty: Type, at: int, packed: bool) -> Nested:
        if isinstance(ty, StructType) and ty.packed == packed and ty.elements:
            fast = self.scan_int_struct(ty)
            if fast is not None:
                return fast
        self.p += 1
        elts = yield from self.gen_constant_elements("}", "expected end of packed struct" if packed else "")
        if not isinstance(ty, StructType):
            self.fail("constant expression type mismatch", at)
        if len(ty.elements) != len(elts):
            self.fail("initializer with struct type has wrong # elements", at)
        if ty.packed != packed:
            self.fail("packed'ness of initializer and type don't match", at)
        for i, (e, t) in enumerate(zip(elts, ty.elements)):
            if e.type is not t:
                self.fail("element %d of struct initializer doesn't match struct element type" % i, at)
        return ConstantStruct.get(ty, elts)

_CLOSERS = frozenset(("]", "}", ">", ")"))
_CLOSE_MESSAGES = {
    "]": "expected end of array constant",
    ">": "expected end of constant",
    "}": "expected end of struct constant",
}

Nested = Generator[None, Constant, Constant]
"""A compound constant's reader: yields for each ``T v`` operand, returns the constant."""

_NESTED_READERS: dict[str, Callable[[Any, Type, int], Nested]] = {
    "[": ValueParser.gen_array_constant,
    "<": ValueParser.gen_vector_constant,
    "{": ValueParser.gen_literal_struct_constant,
}
"""Readers of the constants that nest (the constant expressions add theirs), by first token."""

_ConstantHandler = Callable[[Any, Type, int], Value]
"""A keyword constant's reader: (parser, expected type, token index) -> value."""

_CONSTANT_WORDS: dict[str, _ConstantHandler] = {
    "true": ValueParser.const_true,
    "false": ValueParser.const_false,
    "null": ValueParser.const_null,
    "none": ValueParser.const_none,
    "undef": ValueParser.const_undef,
    "poison": ValueParser.const_poison,
    "zeroinitializer": ValueParser.const_zero,
    "c": ValueParser.const_string,
    "asm": ValueParser.const_asm,
}
"""Readers of the constants that start with a keyword; the constant
expressions add theirs (:mod:`llvmpy_mid.asm.parse_constexprs`)."""
