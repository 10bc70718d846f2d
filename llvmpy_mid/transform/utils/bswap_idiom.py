"""Recognise a bswap or bitreverse built from shifts, masks and ors (LLVM
``lib/Transforms/Utils/Local.cpp``: ``collectBitParts``,
``recognizeBSwapOrBitReverseIdiom``).

:func:`recognize_bswap_or_bitreverse_idiom` follows every bit of the result
back through ``or``, constant logical shifts, constant ``and`` masks, ``zext``,
``trunc``, ``bswap``, ``bitreverse`` and constant funnel shifts to one source
value; when the bit permutation is a byte swap (or a bit reversal) it inserts
``llvm.bswap``/``llvm.bitreverse`` of that source (truncated, masked and
zero-extended as needed) before the instruction and reports the new
instructions. Vector types are analysed per element; constant masks must be
splats. The walk is bounded (48 levels), as LLVM's.
"""

from __future__ import annotations

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.constants import ConstantVector, get_splat_value
from llvmpy_mid.ir.types import Type, VectorType
from llvmpy_mid.ir.value import Value

BIT_PART_RECURSION_MAX_DEPTH = 48
"""LLVM's ``BitPartRecursionMaxDepth``."""

UNSET = -1


class BitPart:
    """The value a bswap/bitreverse would be of (``provider``) and, per result bit,
    the provider bit it comes from (``provenance``; -1 when the bit is zero)."""

    __slots__ = ("provider", "provenance")

    def __init__(self, provider: Value, provenance: list[int]) -> None:
        self.provider = provider
        self.provenance = provenance


def _width(ty: Type) -> int:
    w: int = ty.scalar_type.width  # type: ignore[attr-defined]
    return w


def _splat_int(v: Value) -> int | None:
    if type(v) is ConstantInt:
        return v.value
    if v.is_constant and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if type(s) is ConstantInt:
            return s.value
    return None


class _Collector:
    __slots__ = ("match_bswaps", "match_bit_reversals", "bps", "found_root")

    def __init__(self, match_bswaps: bool, match_bit_reversals: bool) -> None:
        self.match_bswaps = match_bswaps
        self.match_bit_reversals = match_bit_reversals
        self.bps: dict[Value, BitPart | None] = {}
        self.found_root = False

    def collect(self, v: Value, depth: int) -> BitPart | None:
        bps = self.bps
        if v in bps:
            return bps[v]
        bps[v] = None
        r = self._collect(v, depth)
        bps[v] = r
        return r

    def _collect(self, v: Value, depth: int) -> BitPart | None:
        bw = _width(v.type)
        if bw > 128:
            return None
        if depth == BIT_PART_RECURSION_MAX_DEPTH:
            return None
        if isinstance(v, Instruction):
            opc = v.opcode
            if opc == "or":
                a = self.collect(v.get_operand(0), depth + 1)
                if a is None:
                    return None
                b = self.collect(v.get_operand(1), depth + 1)
                if b is None or a.provider is not b.provider:
                    return None
                prov = []
                for k in range(bw):
                    pa = a.provenance[k]
                    pb = b.provenance[k]
                    if pa != UNSET and pb != UNSET and pa != pb:
                        return None
                    prov.append(pb if pa == UNSET else pa)
                return BitPart(a.provider, prov)
            if opc in ("shl", "lshr"):
                sh = _splat_int(v.get_operand(1))
                if sh is not None:
                    if sh >= bw:
                        return None
                    if not self.match_bit_reversals and sh % 8:
                        return None
                    res = self.collect(v.get_operand(0), depth + 1)
                    if res is None:
                        return None
                    p = res.provenance
                    if opc == "shl":
                        prov = [UNSET] * sh + p[: bw - sh]
                    else:
                        prov = p[sh:] + [UNSET] * sh
                    return BitPart(res.provider, prov)
            if opc == "and":
                mask = _splat_int(v.get_operand(1))
                if mask is not None:
                    if not self.match_bit_reversals and bin(mask).count("1") % 8:
                        return None
                    res = self.collect(v.get_operand(0), depth + 1)
                    if res is None:
                        return None
                    prov = [p if (mask >> k) & 1 else UNSET for k, p in enumerate(res.provenance)]
                    return BitPart(res.provider, prov)
            if opc == "zext":
                x = v.get_operand(0)
                res = self.collect(x, depth + 1)
                if res is None:
                    return None
                nw = _width(x.type)
                return BitPart(res.provider, res.provenance[:nw] + [UNSET] * (bw - nw))
            if opc == "trunc":
                res = self.collect(v.get_operand(0), depth + 1)
                if res is None:
                    return None
                return BitPart(res.provider, res.provenance[:bw])
            if opc == "call" and isinstance(v, CallInst):
                base = v.intrinsic_base
                if base == "llvm.bitreverse":
                    res = self.collect(v.get_operand(0), depth + 1)
                    if res is None:
                        return None
                    return BitPart(res.provider, res.provenance[:bw][::-1])
                if base == "llvm.bswap":
                    res = self.collect(v.get_operand(0), depth + 1)
                    if res is None:
                        return None
                    prov = [UNSET] * bw
                    for byte in range(bw // 8):
                        ofs = byte * 8
                        for k in range(8):
                            prov[(bw - 8 - ofs) + k] = res.provenance[ofs + k]
                    return BitPart(res.provider, prov)
                if base in ("llvm.fshl", "llvm.fshr"):
                    c = _splat_int(v.get_operand(2))
                    if c is not None:
                        mod = c % bw
                        if base == "llvm.fshr":
                            mod = bw - mod
                        if not self.match_bit_reversals and mod % 8:
                            return None
                        lhs = self.collect(v.get_operand(0), depth + 1)
                        if lhs is None:
                            return None
                        rhs = self.collect(v.get_operand(1), depth + 1)
                        if rhs is None or lhs.provider is not rhs.provider:
                            return None
                        start = bw - mod
                        prov = [UNSET] * bw
                        for k in range(start):
                            prov[k + mod] = lhs.provenance[k]
                        for k in range(mod):
                            prov[k] = rhs.provenance[k + start]
                        return BitPart(lhs.provider, prov)
        if self.found_root:
            return None
        self.found_root = True
        return BitPart(v, list(range(bw)))


def _is_bswap_move(frm: int, to: int, bw: int) -> bool:
    if frm % 8 != to % 8:
        return False
    return frm >> 3 == (bw >> 3) - (to >> 3) - 1


def _integer_cast(v: Value, ty: Type, name: str, before: Instruction) -> Instruction:
    """``CastInst::CreateIntegerCast(V, Ty, /*isSigned*/ false, name, before)``."""
    opc = "trunc" if _width(v.type) > _width(ty) else "zext"
    c = CastInst.create(opc, v, ty, name=name)
    c.insert_before(before)
    return c


def recognize_bswap_or_bitreverse_idiom(
    i: Instruction, match_bswaps: bool, match_bit_reversals: bool, inserted: list[Instruction]
) -> bool:
    """Insert a bswap/bitreverse computing ``i`` before it; the new instructions (the last
    one computes ``i``'s value) are appended to ``inserted``. False when ``i`` is no such idiom."""
    opc = i.opcode
    if opc == "call":
        base = i.intrinsic_base if isinstance(i, CallInst) else ""
        if base not in ("llvm.fshl", "llvm.fshr", "llvm.bswap"):
            return False
    elif opc != "or":
        return False
    if not match_bswaps and not match_bit_reversals:
        return False
    ity = i.type
    if not ity.scalar_type.is_integer or _width(ity) > 128:
        return False
    col = _Collector(match_bswaps, match_bit_reversals)
    res = col.collect(i, 0)
    if res is None:
        return False
    prov = res.provenance
    ctx = ity.context
    demanded_ty: Type = ity
    if prov[-1] == UNSET:
        n = len(prov)
        while n and prov[n - 1] == UNSET:
            n -= 1
        if n == 0:
            return False
        prov = prov[:n]
        demanded_ty = ctx.int_type(n)
        if isinstance(ity, VectorType):
            demanded_ty = ctx.vector_type(demanded_ty, ity.count, ity.scalable)
    dbw = _width(demanded_ty)
    if dbw > _width(ity):
        return False
    demanded_mask = (1 << dbw) - 1
    ok_bswap = match_bswaps and dbw % 16 == 0
    ok_rev = match_bit_reversals
    k = 0
    while k < dbw and (ok_bswap or ok_rev):
        p = prov[k]
        if p == UNSET:
            demanded_mask &= ~(1 << k)
            k += 1
            continue
        ok_bswap = ok_bswap and _is_bswap_move(p, k, dbw)
        ok_rev = ok_rev and p == dbw - k - 1
        k += 1
    if ok_bswap:
        base = "bswap"
    elif ok_rev:
        base = "bitreverse"
    else:
        return False
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration
    from llvmpy_mid.ir.type_mangling import intrinsic_name

    module = i.module
    assert module is not None
    full = intrinsic_name("llvm." + base, [demanded_ty])
    assert full is not None
    decl = intrinsic_declaration(module, full, ctx.function_type(demanded_ty, [demanded_ty]))
    provider = res.provider
    if demanded_ty is not provider.type:
        provider = _integer_cast(provider, demanded_ty, "trunc", i)
        inserted.append(provider)
    result: Instruction = CallInst.create(decl, [provider], name="rev")
    result.insert_before(i)
    inserted.append(result)
    if demanded_mask != (1 << dbw) - 1:
        mask_c = ConstantInt.get(demanded_ty.scalar_type, demanded_mask)
        mask: Value = mask_c
        if isinstance(demanded_ty, VectorType):
            mask = ConstantVector.get_splat(demanded_ty, mask_c)
        result = BinaryOperator.create("and", result, mask, name="mask")
        result.insert_before(i)
        inserted.append(result)
    if ity is not result.type:
        inserted.append(_integer_cast(result, ity, "zext", i))
    return True


__all__ = ["BIT_PART_RECURSION_MAX_DEPTH", "BitPart", "recognize_bswap_or_bitreverse_idiom"]
