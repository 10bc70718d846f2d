"""Demanded bits: which bits of each integer value can affect the function's
observable behaviour (LLVM ``DemandedBits``, lib/Analysis/DemandedBits.cpp), and
its printer ``print<demanded-bits>``.

What: :class:`DemandedBits` answers :meth:`~DemandedBits.demanded_bits` of an
instruction (a bit mask over its scalar width) or of one operand use,
:meth:`~DemandedBits.is_instruction_dead` and :meth:`~DemandedBits.is_use_dead`.

How: roots are terminators, debug intrinsics, EH pads and instructions with side
effects (their integer operands wholly demanded); the demanded bits of a user's
output flow backwards to each operand through per-opcode rules (masks through
and/or with known bits, carries through add/sub, shifts by constants, extensions
and truncations, bswap/bitreverse/funnel shifts/min/max, ...), iterated to a
fixed point over a set-like work list, as LLVM does.  Uses whose operand has no
demanded bit are recorded as dead.

What it does not do: LLVM prints the results in hash-map order; here they come in
instruction order (LLVM's tests match them unordered).
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis, AssumptionCache
from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.value_tracking import compute_known_bits
from llvmpy_mid.ir import _printing
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.pattern_match import m_apint, match
from llvmpy_mid.ir.types import IntegerType, PointerType, Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = ["DemandedBits", "DemandedBitsAnalysis", "DemandedBitsPrinterPass"]

_CONST_AMOUNT = m_apint("c")
_WITH_KNOWN = frozenset(("add", "sub", "and", "or"))


def int_scalar_width(ty: Type) -> int:
    """The scalar bit width of an integer or integer-vector type; 0 for any other type."""
    cls = ty.__class__
    if cls is IntegerType:
        return ty.width  # type: ignore[attr-defined, no-any-return]
    if cls is VectorType:
        ty = ty.element_type  # type: ignore[attr-defined]
    return ty.width if isinstance(ty, IntegerType) else 0


def _scalar_size_in_bits(ty: Type, dl: DataLayout) -> int:
    if isinstance(ty, VectorType):
        ty = ty.element_type
    if isinstance(ty, IntegerType):
        return ty.width
    if isinstance(ty, PointerType):
        return dl.pointer_size_in_bits(ty.address_space)
    try:
        return dl.type_size_in_bits(ty)
    except Exception:  # labels, metadata, tokens: LLVM has no size for them either
        return 0


def _is_always_live(inst: Instruction) -> bool:
    if inst.is_terminator or inst.is_eh_pad or inst.may_have_side_effects():
        return True
    if inst.opcode == "call":
        callee = inst.called_function  # type: ignore[attr-defined]
        return callee is not None and callee.name.startswith("llvm.dbg.")
    return False


def _reverse_bits(v: int, width: int) -> int:
    return int(format(v, "0%db" % width)[::-1], 2) if width else 0


def _byte_swap(v: int, width: int) -> int:
    n = width // 8
    return int.from_bytes(v.to_bytes(n, "little"), "big")


def _high_bits(width: int, n: int) -> int:
    n = min(n, width)
    return ((1 << n) - 1) << (width - n)


def _countr_zero(v: int, width: int) -> int:
    return (v & -v).bit_length() - 1 if v else width


def _live_operand_bits_add_carry(
    operand_no: int, aout: int, lhs: KnownBits, rhs_zero: int, rhs_one: int, width: int, carry_zero: bool, carry_one: bool
) -> int:
    """The bits of operand ``operand_no`` of an add (or, with the RHS known bits swapped and carry
    one, a sub) that can reach the demanded output bits ``aout`` (LLVM
    ``determineLiveOperandBitsAddCarry``)."""
    mask = (1 << width) - 1
    lz, lo = lhs.zero, lhs.one
    bound = (lz & rhs_zero) | (lo & rhs_one)
    rbound = _reverse_bits(bound, width)
    raout = _reverse_bits(aout, width)
    rprop = (raout + (raout | (~rbound & mask))) & mask
    racarry = rprop ^ (~rbound & mask)
    acarry = _reverse_bits(racarry, width)
    if operand_no == 0:
        need_zero = lz | (~rhs_zero & mask)
        need_one = lo | (~rhs_one & mask)
    else:
        need_zero = rhs_zero | (~lz & mask)
        need_one = rhs_one | (~lo & mask)
    possible_sum_zero = ((~lz & mask) + (~rhs_zero & mask) + (0 if carry_zero else 1)) & mask
    possible_sum_one = (lo + rhs_one + (1 if carry_one else 0)) & mask
    needed = ((~possible_sum_zero & mask) | need_zero) & (possible_sum_one | need_one)
    return aout | (acarry & needed)




class DemandedBits:
    """The demanded bits of one function (computed on the first query)."""

    __slots__ = ("fn", "dt", "ac", "_analyzed", "_visited", "_alive", "_dead_uses", "_dl", "_roots")

    def __init__(self, fn: Function, dt: DominatorTree | None = None, ac: AssumptionCache | None = None) -> None:
        self.fn = fn
        self.dt = dt
        self.ac = ac
        self._analyzed = False
        self._visited: set[Instruction] = set()
        self._alive: dict[Instruction, int] = {}
        self._dead_uses: set[tuple[Instruction, int]] = set()
        self._roots: dict[Instruction, bool] = {}
        module = fn.parent
        self._dl = module.data_layout if module is not None else DataLayout("")

    # --- known bits ---------------------------------------------------------------------------
    def _known(self, v: Value, ctx: Instruction) -> KnownBits:
        """Value tracking's known bits of ``v`` at ``ctx``."""
        return compute_known_bits(v, SimplifyQuery(self._dl, dt=self.dt, ac=self.ac, cxt_i=ctx))

    # --- the transfer rules -------------------------------------------------------------------
    def _live_operand_bits(
        self, user: Instruction, operand_no: int, aout: int, width: int, cache: list[KnownBits | None]
    ) -> int:
        """The bits of operand ``operand_no`` of ``user`` that can reach its demanded output bits
        ``aout`` (LLVM ``determineLiveOperandBits``); ``cache`` holds the operands' known bits
        once computed for this user."""
        mask = (1 << width) - 1
        opc = user.opcode
        ab = mask

        def known_pair() -> tuple[KnownBits, KnownBits]:
            if cache[0] is None:
                cache[0] = self._known(user.get_operand(0), user)
                cache[1] = self._known(user.get_operand(1), user)
            k0, k1 = cache[0], cache[1]
            assert k0 is not None and k1 is not None
            return k0, k1

        if opc in ("call", "invoke"):
            assert isinstance(user, CallBase)
            callee = user.called_function
            iid = lookup_intrinsic(callee.name) if callee is not None and callee.intrinsic_id else None
            if iid == "llvm.bswap":
                ab = _byte_swap(aout, width)
            elif iid == "llvm.bitreverse":
                ab = _reverse_bits(aout, width)
            elif iid in ("llvm.ctlz", "llvm.cttz"):
                if operand_no == 0:
                    if cache[0] is None:
                        cache[0] = self._known(user.get_operand(0), user)
                    k = cache[0]
                    assert k is not None
                    if iid == "llvm.ctlz":
                        ab = _high_bits(width, min(width, k.count_max_leading_zeros() + 1))
                    else:
                        ab = (1 << min(width, k.count_max_trailing_zeros() + 1)) - 1
            elif iid in ("llvm.fshl", "llvm.fshr"):
                if operand_no == 2:
                    if width & (width - 1) == 0:
                        ab = width - 1
                else:
                    m = match(user.get_operand(2), _CONST_AMOUNT)
                    if m is not None:
                        amount = m.c % width
                        if iid == "llvm.fshr":
                            amount = width - amount
                        if operand_no == 0:
                            ab = aout >> amount
                        elif operand_no == 1:
                            ab = (aout << (width - amount)) & mask if width - amount < width else 0
            elif iid in ("llvm.umax", "llvm.umin", "llvm.smax", "llvm.smin"):
                ab = mask & ~((1 << _countr_zero(aout, width)) - 1)
        elif opc in _WITH_KNOWN:
            if opc in ("add", "sub"):
                if aout and (aout & (aout + 1)) == 0:
                    ab = aout
                else:
                    k0, k1 = known_pair()
                    if opc == "add":
                        ab = _live_operand_bits_add_carry(operand_no, aout, k0, k1.zero, k1.one, width, True, False)
                    else:
                        ab = _live_operand_bits_add_carry(operand_no, aout, k0, k1.one, k1.zero, width, False, True)
            else:
                k0, k1 = known_pair()
                if opc == "and":
                    ab = aout & ~(k1.zero if operand_no == 0 else (k0.zero & ~k1.zero))
                else:
                    ab = aout & ~(k1.one if operand_no == 0 else (k0.one & ~k1.one))
                ab &= mask
        elif opc == "mul":
            ab = (1 << aout.bit_length()) - 1
        elif opc in ("shl", "lshr", "ashr"):
            if operand_no == 0:
                m = match(user.get_operand(1), _CONST_AMOUNT)
                if m is not None:
                    amount = min(m.c, width - 1)
                    flags = user
                    if opc == "shl":
                        ab = aout >> amount
                        if getattr(flags, "nsw", False):
                            ab |= _high_bits(width, amount + 1)
                        elif getattr(flags, "nuw", False):
                            ab |= _high_bits(width, amount)
                    else:
                        ab = (aout << amount) & mask
                        if opc == "ashr" and aout & _high_bits(width, amount):
                            ab |= 1 << (width - 1)
                        if getattr(flags, "exact", False):
                            ab |= (1 << amount) - 1
        elif opc in ("xor", "phi"):
            ab = aout
        elif opc == "trunc":
            ab = aout
        elif opc in ("zext", "sext"):
            ab = aout & mask
            if opc == "sext":
                out_width = int_scalar_width(user.type)
                if aout & _high_bits(out_width, out_width - width):
                    ab |= 1 << (width - 1)
        elif opc == "select":
            if operand_no != 0:
                ab = aout
        elif opc == "extractelement":
            if operand_no == 0:
                ab = aout
        elif opc in ("insertelement", "shufflevector"):
            if operand_no in (0, 1):
                ab = aout
        return ab

    # --- the fixed point ---------------------------------------------------------------------
    def _perform_analysis(self) -> None:
        if self._analyzed:
            return
        self._analyzed = True
        alive = self._alive
        visited = self._visited
        dead_uses = self._dead_uses
        work: list[Instruction] = []
        queued: set[Instruction] = set()

        def push(i: Instruction) -> None:
            if i not in queued:
                queued.add(i)
                work.append(i)

        roots = self._roots
        for bb in self.fn.blocks:
            for inst in bb.instructions:
                live = roots[inst] = _is_always_live(inst)
                if not live:
                    continue
                w = int_scalar_width(inst.type)
                if w:
                    if inst not in alive:
                        alive[inst] = 0
                        push(inst)
                    continue
                for op in inst.operands:
                    if isinstance(op, Instruction):
                        ow = int_scalar_width(op.type)
                        if ow:
                            alive[op] = (1 << ow) - 1
                        else:
                            visited.add(op)
                        push(op)
        while work:
            user = work.pop()
            queued.discard(user)
            aout = 0
            input_dead = False
            if int_scalar_width(user.type):
                aout = alive[user]
                input_dead = aout == 0 and not self._always_live(user)
            cache: list[KnownBits | None] = [None, None]
            for index, op in enumerate(user.operands):
                is_inst = isinstance(op, Instruction)
                if not is_inst and not isinstance(op, Argument):
                    continue
                w = int_scalar_width(op.type)
                if w:
                    if input_dead:
                        ab = 0
                    else:
                        ab = self._live_operand_bits(user, index, aout, w, cache)
                        if ab == 0:
                            dead_uses.add((user, index))
                        else:
                            dead_uses.discard((user, index))
                    if is_inst:
                        assert isinstance(op, Instruction)
                        old = alive.get(op)
                        if old is None or (ab | old) != old:
                            alive[op] = ab | (old or 0)
                            push(op)
                elif is_inst:
                    assert isinstance(op, Instruction)
                    if op not in visited:
                        visited.add(op)
                        push(op)

    def _always_live(self, inst: Instruction) -> bool:
        live = self._roots.get(inst)
        if live is None:
            live = self._roots[inst] = _is_always_live(inst)
        return live

    # --- queries ------------------------------------------------------------------------------
    def demanded_bits(self, inst: Instruction) -> int:
        """The demanded bits of ``inst``'s value (all ones when not tracked)."""
        self._perform_analysis()
        found = self._alive.get(inst)
        if found is not None:
            return found
        return (1 << _scalar_size_in_bits(inst.type, self._dl)) - 1

    def demanded_use_bits(self, user: Instruction, index: int) -> int:
        """The demanded bits of operand ``index`` of ``user``."""
        op = user.get_operand(index)
        width = _scalar_size_in_bits(op.type, self._dl)
        if not int_scalar_width(op.type):
            return (1 << width) - 1
        if self.is_use_dead(user, index):
            return 0
        self._perform_analysis()
        aout = self.demanded_bits(user)
        return self._live_operand_bits(user, index, aout, width, [None, None])

    def is_instruction_dead(self, inst: Instruction) -> bool:
        self._perform_analysis()
        return inst not in self._visited and inst not in self._alive and not self._always_live(inst)

    def is_use_dead(self, user: Instruction, index: int) -> bool:
        """Operand ``index`` of ``user`` has no demanded bit (integer operands only)."""
        if not int_scalar_width(user.get_operand(index).type):
            return False
        self._perform_analysis()
        if self._always_live(user):
            return False
        if (user, index) in self._dead_uses:
            return True
        if int_scalar_width(user.type):
            return self._alive.get(user, -1) == 0
        return False

    def format(self) -> str:
        """``print<demanded-bits>``'s text for the function (instructions in function order)."""
        self._perform_analysis()
        writer = _printing.diagnostic_writer(self.fn.parent)
        out = ["Printing analysis 'Demanded Bits Analysis' for function '%s':\n" % self.fn.name]
        limit = (1 << 64) - 1
        alive = self._alive
        for bb in self.fn.blocks:
            for inst in bb.instructions:
                bits = alive.get(inst)
                if bits is None:
                    continue
                text = "  " + writer.instruction(inst)
                out.append("DemandedBits: 0x%x for %s\n" % (min(bits, limit), text))
                for index, op in enumerate(inst.operands):
                    ref = writer.operand(op)
                    ty = str(op.type) + " "
                    if ref.startswith(ty):
                        ref = ref[len(ty) :]
                    db = min(self.demanded_use_bits(inst, index), limit)
                    out.append("DemandedBits: 0x%x for %s in %s\n" % (db, ref, text))
        return "".join(out)


class DemandedBitsAnalysis(FunctionAnalysis[DemandedBits]):
    """``demanded-bits``: the function's :class:`DemandedBits` (computed lazily)."""

    name: ClassVar[str] = "demanded-bits"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> DemandedBits:
        ac = am.get_result(AssumptionAnalysis, unit)
        return DemandedBits(unit, am.get_result(DominatorTreeAnalysis, unit), ac)


class DemandedBitsPrinterPass(Pass[Function]):
    """``print<demanded-bits>``: writes :meth:`DemandedBits.format` to stderr (or ``stream``)."""

    name: ClassVar[str] = "print<demanded-bits>"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        out = self.stream if self.stream is not None else sys.stderr
        out.write(am.get_result(DemandedBitsAnalysis, unit).format())
        return PreservedAnalyses.all()
