"""LLVM 19.1's ``StructuralHash`` of a function and of a module, bit for bit.

What: a 64-bit unsigned fingerprint of a function's shape, as ``opt-19``
computes it (``print<structural-hash>``, and MergeFunctions' first sort key).
Two functions that differ only in names, constants, call targets or operand
values hash alike in the plain mode; the *detailed* mode also mixes in
result and operand types, comparison predicates and some operand values.

How (the facts, from LLVM 19's ``StructuralHash.cpp`` and ``ADT/Hashing.h``,
checked against opt-19):

* a running 64-bit state, starting at 4, folds each 64-bit word ``v`` in as
  ``state = hash_16_bytes(state, v)`` (a Murmur-style 128-to-64-bit mix);
* a function definition mixes a header word, whether it is varargs, its
  argument count, then walks its blocks depth first from the entry with an
  explicit stack (successors pushed in ``getSuccessor`` order, each block once;
  the last pushed is visited next; unreachable blocks are never seen); each
  block mixes a block-header word then, per instruction, LLVM's opcode number;
* detailed mode adds, per instruction, the result type (type id, and the
  width of an integer), a cmp's predicate, and per operand (in LLVM's operand
  order) its type plus: the argument number of an argument; for a ConstantInt,
  a ConstantFP and a Function (its name) the value of LLVM's ``hash_combine``
  of LLVM's ``hash_value`` -- the CityHash-derived short/long byte hashes of
  ``ADT/Hashing.h`` with the fixed execution seed of a release build;
* a declaration adds nothing (its hash is the initial 4);
* the module hash threads one state through every global variable that is a
  definition and not named ``llvm.*`` (a header word and its value type's id),
  then through every function, in module order.

What it does not do: hash anything LLVM 19 ignores (attributes, linkage,
flags, metadata, the contents of constants other than scalar ints and
floats, inline asm, global variables' initializers). Output is checked
against opt-19 in ``tests/ir/test_structural_hash.py`` (every float kind,
wide integers, names over 64 bytes, every terminator's successor order).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import ConstantFP, ConstantInt
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instructions.cmp import CmpInst
from llvmpy_mid.ir.types import IntegerType, TypeID

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value

__all__ = ["OPCODE_NUMBERS", "module_structural_hash", "structural_hash"]

_M64 = 0xFFFFFFFFFFFFFFFF
# Hashing.h's primes and multiplier, and the execution seed of a release build.
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F
_K3 = 0xC949D7C7509E6557
_KMUL = 0x9DDFEA08EB382D69
_SEED = 0xFF51AFD7ED558CCD

_INITIAL = 4
_FUNCTION_HEADER = 0x62642D6B6B2D6B72
_BLOCK_HEADER = 45798
_GLOBAL_HEADER = 23456

OPCODE_NUMBERS: dict[str, int] = {
    name: number
    for number, name in enumerate(
        (
            # terminators (1 .. 11)
            "ret", "br", "switch", "indirectbr", "invoke", "resume", "unreachable",
            "cleanupret", "catchret", "catchswitch", "callbr",
            # unary (12)
            "fneg",
            # binary (13 .. 30)
            "add", "fadd", "sub", "fsub", "mul", "fmul", "udiv", "sdiv", "fdiv",
            "urem", "srem", "frem", "shl", "lshr", "ashr", "and", "or", "xor",
            # memory (31 .. 37)
            "alloca", "load", "store", "getelementptr", "fence", "cmpxchg", "atomicrmw",
            # casts (38 .. 50)
            "trunc", "zext", "sext", "fptoui", "fptosi", "uitofp", "sitofp", "fptrunc",
            "fpext", "ptrtoint", "inttoptr", "bitcast", "addrspacecast",
            # funclet pads (51, 52)
            "cleanuppad", "catchpad",
            # other (53 .. 67)
            "icmp", "fcmp", "phi", "call", "select", "<userop1>", "<userop2>", "va_arg",
            "extractelement", "insertelement", "shufflevector", "extractvalue",
            "insertvalue", "landingpad", "freeze",
        ),
        start=1,
    )
}  # fmt: skip
"""LLVM 19's ``Instruction::getOpcode()`` number of each textual opcode."""


# --- ADT/Hashing.h -------------------------------------------------------------------


def _hash_16_bytes(low: int, high: int) -> int:
    a = ((low ^ high) * _KMUL) & _M64
    a ^= a >> 47
    b = ((high ^ a) * _KMUL) & _M64
    b ^= b >> 47
    return (b * _KMUL) & _M64


def _rotr(v: int, s: int) -> int:
    return ((v >> s) | (v << (64 - s))) & _M64 if s else v


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _f64(data: bytes, at: int) -> int:
    return int.from_bytes(data[at : at + 8], "little")


def _f32(data: bytes, at: int) -> int:
    return int.from_bytes(data[at : at + 4], "little")


def _hash_short(s: bytes, seed: int) -> int:
    """Hashing.h ``hash_short``: 0 to 64 bytes."""
    n = len(s)
    if 4 <= n <= 8:
        a = _f32(s, 0)
        return _hash_16_bytes((n + (a << 3)) & _M64, seed ^ _f32(s, n - 4))
    if 8 < n <= 16:
        a = _f64(s, 0)
        b = _f64(s, n - 8)
        return _hash_16_bytes(seed ^ a, _rotr((b + n) & _M64, n)) ^ b
    if 16 < n <= 32:
        a = (_f64(s, 0) * _K1) & _M64
        b = _f64(s, 8)
        c = (_f64(s, n - 8) * _K2) & _M64
        d = (_f64(s, n - 16) * _K0) & _M64
        return _hash_16_bytes(
            (_rotr((a - b) & _M64, 43) + _rotr(c ^ seed, 30) + d) & _M64,
            (a + _rotr(b ^ _K3, 20) - c + n + seed) & _M64,
        )
    if n > 32:
        z = _f64(s, 24)
        a = (_f64(s, 0) + (n + _f64(s, n - 16)) * _K0) & _M64
        b = _rotr((a + z) & _M64, 52)
        c = _rotr(a, 37)
        a = (a + _f64(s, 8)) & _M64
        c = (c + _rotr(a, 7)) & _M64
        a = (a + _f64(s, 16)) & _M64
        vf = (a + z) & _M64
        vs = (b + _rotr(a, 31) + c) & _M64
        a = (_f64(s, 16) + _f64(s, n - 32)) & _M64
        z = _f64(s, n - 8)
        b = _rotr((a + z) & _M64, 52)
        c = _rotr(a, 37)
        a = (a + _f64(s, n - 24)) & _M64
        c = (c + _rotr(a, 7)) & _M64
        a = (a + _f64(s, n - 16)) & _M64
        wf = (a + z) & _M64
        ws = (b + _rotr(a, 31) + c) & _M64
        r = _shift_mix(((vf + ws) * _K2 + (wf + vs) * _K0) & _M64)
        return (_shift_mix((seed ^ ((r * _K0) & _M64)) + vs & _M64) * _K2) & _M64
    if n:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_shift_mix(((y * _K2) ^ (z * _K3) ^ seed) & _M64) * _K2) & _M64
    return _K2 ^ seed


class _HashState:
    """Hashing.h ``hash_state``: the CityHash-style state for inputs over 64 bytes."""

    __slots__ = ("h0", "h1", "h2", "h3", "h4", "h5", "h6")

    def __init__(self, s: bytes, at: int, seed: int) -> None:
        self.h0 = 0
        self.h1 = seed
        self.h2 = _hash_16_bytes(seed, _K1)
        self.h3 = _rotr(seed ^ _K1, 49)
        self.h4 = (seed * _K1) & _M64
        self.h5 = _shift_mix(seed)
        self.h6 = _hash_16_bytes(self.h4, self.h5)
        self.mix(s, at)

    @staticmethod
    def _mix_32(s: bytes, at: int, a: int, b: int) -> tuple[int, int]:
        a = (a + _f64(s, at)) & _M64
        c = _f64(s, at + 24)
        b = _rotr((b + a + c) & _M64, 21)
        d = a
        a = (a + _f64(s, at + 8) + _f64(s, at + 16)) & _M64
        b = (b + _rotr(a, 44) + d) & _M64
        a = (a + c) & _M64
        return a, b

    def mix(self, s: bytes, at: int) -> None:
        h0 = (_rotr((self.h0 + self.h1 + self.h3 + _f64(s, at + 8)) & _M64, 37) * _K1) & _M64
        h1 = (_rotr((self.h1 + self.h4 + _f64(s, at + 48)) & _M64, 42) * _K1) & _M64
        h0 ^= self.h6
        h1 = (h1 + self.h3 + _f64(s, at + 40)) & _M64
        h2 = (_rotr((self.h2 + self.h5) & _M64, 33) * _K1) & _M64
        h3 = (self.h4 * _K1) & _M64
        h4 = (h0 + self.h5) & _M64
        h3, h4 = self._mix_32(s, at, h3, h4)
        h5 = (h2 + self.h6) & _M64
        h6 = (h1 + _f64(s, at + 16)) & _M64
        h5, h6 = self._mix_32(s, at + 32, h5, h6)
        # the state ends with h0 and h2 exchanged
        self.h0, self.h1, self.h2, self.h3, self.h4, self.h5, self.h6 = h2, h1, h0, h3, h4, h5, h6

    def finalize(self, length: int) -> int:
        return _hash_16_bytes(
            (_hash_16_bytes(self.h3, self.h5) + _shift_mix(self.h1) * _K1 + self.h2) & _M64,
            (_hash_16_bytes(self.h4, self.h6) + _shift_mix(length) * _K1 + self.h0) & _M64,
        )


def hash_bytes(s: bytes) -> int:
    """``hash_combine_range`` over contiguous bytes (LLVM's ``hash_value(StringRef)``,
    and the hash of a range of integers laid out little-endian)."""
    n = len(s)
    if n <= 64:
        return _hash_short(s, _SEED)
    state = _HashState(s, 0, _SEED)
    aligned_end = n & ~63
    at = 64
    while at != aligned_end:
        state.mix(s, at)
        at += 64
    if n & 63:
        state.mix(s, n - 64)
    return state.finalize(n)


def _hash_combine_code(code: int) -> int:
    """``hash_combine(x)`` for one argument whose ``hash_value`` is ``code``."""
    return _hash_short(struct.pack("<Q", code), _SEED)


def hash_value_apint(width: int, value: int) -> int:
    """LLVM 19's ``hash_value(const APInt &)``: the width (32 bits) beside the
    word (one word) or beside the hash of the words (several)."""
    if width <= 64:
        return _hash_short(struct.pack("<IQ", width, value), _SEED)
    nwords = (width + 63) >> 6
    words = value.to_bytes(nwords * 8, "little")
    return _hash_short(struct.pack("<IQ", width, hash_bytes(words)), _SEED)


# IEEE-like layouts: (exponent bits, stored fraction bits, explicit integer bit, precision)
_FP_LAYOUT: dict[TypeID, tuple[int, int, bool, int]] = {
    TypeID.HALF: (5, 10, False, 11),
    TypeID.BFLOAT: (8, 7, False, 8),
    TypeID.FLOAT: (8, 23, False, 24),
    TypeID.DOUBLE: (11, 52, False, 53),
    TypeID.X86_FP80: (15, 64, True, 64),
    TypeID.FP128: (15, 112, False, 113),
}
# APFloat's fltCategory
_FC_INFINITY, _FC_NAN, _FC_NORMAL, _FC_ZERO = 0, 1, 2, 3


def hash_value_ieee(type_id: TypeID, bits: int) -> int:
    """LLVM's ``hash_value(const IEEEFloat &)`` of the value with this bit pattern:
    category, sign and precision; finite non-zero values add the unbiased
    exponent and the significand words (integer bit explicit, denormals at the
    minimum exponent without it)."""
    ebits, fbits, explicit, precision = _FP_LAYOUT[type_id]
    total = ebits + fbits + 1
    sign = (bits >> (total - 1)) & 1
    exp_field = (bits >> fbits) & ((1 << ebits) - 1)
    frac = bits & ((1 << fbits) - 1)
    emax = (1 << ebits) - 1
    bias = (1 << (ebits - 1)) - 1
    if explicit:
        int_bit = 1 << (fbits - 1)
        if exp_field == 0 and frac == 0:
            category = _FC_ZERO
        elif exp_field == emax and frac == int_bit:
            category = _FC_INFINITY
        elif exp_field == emax or (exp_field != 0 and not frac & int_bit):
            category = _FC_NAN
        else:
            category = _FC_NORMAL
        significand = frac
    else:
        if exp_field == 0 and frac == 0:
            category = _FC_ZERO
        elif exp_field == emax:
            category = _FC_INFINITY if frac == 0 else _FC_NAN
        else:
            category = _FC_NORMAL
        significand = frac if exp_field == 0 else frac | (1 << fbits)
    if category != _FC_NORMAL:
        s = 0 if category == _FC_NAN else sign
        return _hash_short(struct.pack("<BBI", category, s, precision), _SEED)
    exponent = (1 - bias) if exp_field == 0 else exp_field - bias
    nparts = (precision + 1 + 63) >> 6
    parts = hash_bytes(significand.to_bytes(nparts * 8, "little"))
    return _hash_short(struct.pack("<BBIiQ", category, sign, precision, exponent, parts), _SEED)


def hash_value_fp(type_id: TypeID, bits: int) -> int:
    """LLVM's ``hash_value(const APFloat &)``; ``ppc_fp128`` hashes its two doubles
    (stored high double in the low 64 bits)."""
    if type_id is TypeID.PPC_FP128:
        hi = hash_value_ieee(TypeID.DOUBLE, bits & _M64)
        lo = hash_value_ieee(TypeID.DOUBLE, bits >> 64)
        return _hash_short(struct.pack("<QQ", hi, lo), _SEED)
    return hash_value_ieee(type_id, bits)


# --- StructuralHash -------------------------------------------------------------------------


def _type_words(ty: Type) -> tuple[int, ...]:
    if type(ty) is IntegerType:
        return (TypeID.INTEGER, ty.width)
    return (int(ty.type_id),)


def _operand_words(v: Value) -> tuple[int, ...]:
    head = _type_words(v.type)
    if isinstance(v, ConstantInt):
        return head + (_hash_combine_code(hash_value_apint(v.type.width, v.value)),)
    if isinstance(v, ConstantFP):
        return head + (_hash_combine_code(hash_value_fp(v.type.type_id, v.bits)),)
    if isinstance(v, Argument):
        return head + (v.arg_no,)
    if isinstance(v, Function):
        return head + (_hash_combine_code(hash_bytes(v.name.encode("utf-8", "surrogateescape"))),)
    return head


def _mix_function(h: int, fn: Function, detailed: bool) -> int:
    if fn.is_declaration:
        return h
    mul = _KMUL
    m64 = _M64
    opcode_numbers = OPCODE_NUMBERS
    words: list[int] = [_FUNCTION_HEADER, 1 if fn.function_type.is_vararg else 0, len(fn.args)]
    append = words.append
    entry = fn.entry_block
    stack: list[BasicBlock] = [entry]
    seen = {id(entry)}
    while stack:
        bb = stack.pop()
        append(_BLOCK_HEADER)
        last = None
        for inst in bb.instructions:
            last = inst
            append(opcode_numbers[inst.opcode])
            if detailed:
                words.extend(_type_words(inst.type))
                if isinstance(inst, CmpInst):
                    append(int(inst.predicate))
                for use in inst._operands:
                    words.extend(_operand_words(use.value))
        if last is not None and last.is_terminator_class:
            for succ in last.successors:
                key = id(succ)
                if key not in seen:
                    seen.add(key)
                    stack.append(succ)
    # fold the words in, hash_16_bytes inlined
    for v in words:
        a = ((h ^ v) * mul) & m64
        a ^= a >> 47
        b = ((v ^ a) * mul) & m64
        b ^= b >> 47
        h = (b * mul) & m64
    return h


def structural_hash(fn: Function, detailed: bool = False) -> int:
    """LLVM 19.1's ``StructuralHash(F, DetailedHash)``: 64-bit unsigned."""
    return _mix_function(_INITIAL, fn, detailed)


def module_structural_hash(m: Module, detailed: bool = False) -> int:
    """LLVM 19.1's ``StructuralHash(M, DetailedHash)``: global variable
    definitions not named ``llvm.*`` (header and value type id), then every
    function, through one running state."""
    h = _INITIAL
    for gv in m.globals:
        if gv.is_declaration or gv.name.startswith("llvm."):
            continue
        h = _hash_16_bytes(h, _GLOBAL_HEADER)
        h = _hash_16_bytes(h, int(gv.value_type.type_id))
    for fn in m.functions:
        h = _mix_function(h, fn, detailed)
    return h
