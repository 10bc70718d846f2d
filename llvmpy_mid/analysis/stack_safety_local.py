"""The per-function half of the stack safety analysis (LLVM 19.1.7
``lib/Analysis/StackSafetyAnalysis.cpp``: ``UseInfo``, ``FunctionInfo``,
``getStaticAllocaSizeRange``, ``StackSafetyLocalAnalysis``).

What: for each alloca and each pointer argument (not ``byval``) of a function,
:func:`analyze_function` follows the address through its derived values (casts, GEPs, phis,
selects, calls returning an argument...) and records the byte range, relative to the base,
that loads, stores, atomics and memory intrinsics may touch (``full-set`` when the offset is
unknown, the address escapes, is returned, or the alloca is dead at the access), the
accesses that are not proven in bounds, and the calls that receive the address (callee,
argument number, offset range) for the interprocedural part
(``stack_safety.py``). Offsets come from ScalarEvolution: the signed range of
``address - base`` (``stack_safety_scev.py``: LLVM's ``getMinusSCEV`` of two pointers).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_range import ConstantRange, OverflowResult
from llvmpy_mid.analysis.scalar_evolution_expressions import SCEV, SCEVCouldNotCompute
from llvmpy_mid.analysis.stack_safety_scev import PointerOffsets
from llvmpy_mid.analysis.stack_lifetime import MUST, StackLifetime, is_lifetime_start_or_end
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.pointer_casts import get_returned_arg_operand, strip_pointer_casts
from llvmpy_mid.ir.types import IntegerType, Type

if TYPE_CHECKING:
    from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.value import Use, Value

MEM_SET = ("llvm.memset", "llvm.memset.inline")
MEM_TRANSFER = ("llvm.memcpy", "llvm.memcpy.inline", "llvm.memmove")


# --- ranges -----------------------------------------------------------------------------------


def is_unsafe(r: ConstantRange) -> bool:
    """A range the analysis gives up on: empty, full or wrapping in the signed sense."""
    return r.is_empty_set() or r.is_full_set() or r.is_upper_sign_wrapped()


def add_overflow_never(lhs: ConstantRange, rhs: ConstantRange) -> ConstantRange:
    """``lhs + rhs``, or the full set when the signed sum may overflow."""
    if lhs.signed_add_may_overflow(rhs) is not OverflowResult.NEVER_OVERFLOWS:
        return ConstantRange.get_full(lhs.bit_width)
    return lhs.add(rhs)


def union_no_wrap(lhs: ConstantRange, rhs: ConstantRange) -> ConstantRange:
    """The union, or the full set when it wraps in the signed sense."""
    r = lhs.union_with(rhs)
    if r.is_sign_wrapped_set():
        return ConstantRange.get_full(r.bit_width)
    return r


# --- records ----------------------------------------------------------------------------------


class UseInfo:
    """The uses of one address (LLVM ``UseInfo``): the accessed byte range (empty when
    nothing is accessed), the instructions whose access is not proven safe, and the calls
    that receive the address, ``(argument number, callee) -> offset range``."""

    __slots__ = ("range", "unsafe_accesses", "calls")

    def __init__(self, pointer_size: int) -> None:
        self.range = ConstantRange.get_empty(pointer_size)
        self.unsafe_accesses: set[Instruction] = set()
        self.calls: dict[tuple[int, GlobalValue], ConstantRange] = {}

    def copy(self) -> UseInfo:
        new = UseInfo.__new__(UseInfo)
        new.range = self.range
        new.unsafe_accesses = set(self.unsafe_accesses)
        new.calls = dict(self.calls)
        return new

    def update_range(self, r: ConstantRange) -> None:
        self.range = union_no_wrap(self.range, r)

    def add_range(self, inst: Instruction, r: ConstantRange, is_safe: bool) -> None:
        if not is_safe:
            self.unsafe_accesses.add(inst)
        self.update_range(r)

    def add_call(self, callee: GlobalValue, param_no: int, offsets: ConstantRange) -> None:
        key = (param_no, callee)
        old = self.calls.get(key)
        self.calls[key] = offsets if old is None else old.union_with(offsets)

    def sorted_calls(self) -> list[tuple[tuple[int, GlobalValue], ConstantRange]]:
        """The calls by argument number, then callee (in module order)."""
        items = list(self.calls.items())
        if len(items) < 2:
            return items
        if len({k[0] for k, _ in items}) == len(items):  # no two callees share an argument number
            return sorted(items, key=lambda kv: kv[0][0])
        return sorted(items, key=lambda kv: (kv[0][0], global_order(kv[0][1])))

    def text(self) -> str:
        parts = [str(self.range)]
        for (param_no, callee), offsets in self.sorted_calls():
            parts.append("@%s(arg%d, %s)" % (callee.name, param_no, offsets))
        return ", ".join(parts)


def global_order(gv: GlobalValue) -> tuple[int, int]:
    """A stable order of globals (LLVM orders them by address): functions in module order,
    then aliases, then anything else."""
    module = gv.parent
    if module is None:
        return (3, 0)
    seqs: tuple[Iterable[GlobalValue], ...] = (module.functions, module.aliases, module.globals)
    for kind, seq in enumerate(seqs):
        for i, x in enumerate(seq):
            if x is gv:
                return (kind, i)
    return (3, 0)


class FunctionInfo:
    """The uses of a function's allocas and pointer parameters (LLVM ``FunctionInfo``)."""

    __slots__ = ("allocas", "params", "update_count")

    def __init__(self) -> None:
        self.allocas: dict[AllocaInst, UseInfo] = {}
        self.params: dict[int, UseInfo] = {}
        self.update_count = 0

    def copy(self) -> FunctionInfo:
        new = FunctionInfo()
        new.allocas = {k: v.copy() for k, v in self.allocas.items()}
        new.params = {k: v.copy() for k, v in self.params.items()}
        new.update_count = self.update_count
        return new

    def text(self, name: str, fn: Function | None) -> str:
        head = "  @" + name
        if fn is None or not fn.is_dso_local:
            head += " dso_preemptable"
        if fn is not None and fn.is_interposable:
            head += " interposable"
        lines = [head, "    args uses:"]
        for no in sorted(self.params):
            arg_name = fn.args[no].name if fn is not None else "arg%d" % no
            lines.append("      %s[]: %s" % (arg_name, self.params[no].text()))
        lines.append("    allocas uses:")
        if fn is not None:
            for bb in fn.blocks:
                for inst in bb.instructions:
                    if isinstance(inst, AllocaInst):
                        info = self.allocas.get(inst)
                        size = static_alloca_size_range(inst)
                        upper = _signed(size.upper, size.bit_width)
                        lines.append("      %s[%d]: %s" % (inst.name, upper, info.text() if info is not None else ""))
        return "\n".join(lines) + "\n"


def _signed(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) & 1 else v


def pointer_size(fn: Function) -> int:
    module = fn.parent
    return module.data_layout.pointer_size_in_bits(0) if module is not None else 64


def static_alloca_size_range(ai: AllocaInst) -> ConstantRange:
    """``[0, size)`` of a fixed-size alloca, the empty set otherwise (LLVM
    ``getStaticAllocaSizeRange``)."""
    module = ai.module
    dl = module.data_layout if module is not None else None
    ps = dl.pointer_type_size_in_bits(ai.type) if dl is not None else 64
    empty = ConstantRange.get_empty(ps)
    if dl is None or dl.is_scalable(ai.allocated_type):
        return empty
    size = _signed(dl.type_alloc_size(ai.allocated_type) & ((1 << ps) - 1), ps)
    if size <= 0:
        return empty
    if ai.is_array_allocation:
        n = ai.array_size
        if not isinstance(n, ConstantInt):
            return empty
        mul = n.sext_value
        if mul <= 0:
            return empty
        mul = _signed(mul & ((1 << ps) - 1), ps)
        size *= mul
        if not -(1 << (ps - 1)) <= size < (1 << (ps - 1)):
            return empty
    return ConstantRange(ps, 0, size)


# --- the local analysis -------------------------------------------------------------------------


def _mem_intrinsic_kind(inst: Instruction) -> str:
    """"set", "transfer" or "" (LLVM ``MemIntrinsic`` / ``MemTransferInst``)."""
    if not isinstance(inst, CallBase):
        return ""
    base = inst.intrinsic_base
    if base in MEM_SET:
        return "set"
    if base in MEM_TRANSFER:
        return "transfer"
    return ""


def _is_mem_address(mi: CallBase, kind: str, use: Use) -> bool:
    """The used value is the intrinsic's raw destination (or a transfer's raw source)."""
    v = use.value
    return mi.get_arg(0) is v or (kind == "transfer" and mi.get_arg(1) is v)


class StackSafetyLocalAnalysis:
    """One function's :class:`FunctionInfo` (LLVM ``StackSafetyLocalAnalysis``)."""

    def __init__(self, fn: Function, se: ScalarEvolution) -> None:
        self.function = fn
        self.se = se
        module = fn.parent
        assert module is not None
        self.dl: DataLayout = module.data_layout
        self.pointer_size = self.dl.pointer_size_in_bits(0)
        self.unknown = ConstantRange.get_full(self.pointer_size)
        self.calc_type: IntegerType = fn.type.context.int_type(self.pointer_size)
        self.offsets = PointerOffsets(se)
        self._dead_entries: dict[BasicBlock, bool] = {}

    # --- SCEV queries -------------------------------------------------------------------------
    def _difference(self, addr: Value, base: Value) -> SCEV | None:
        """``getMinusSCEV(getSCEV(addr), getSCEV(base))`` for two pointers of address space
        0 with the same base; None where LLVM's answer is could-not-compute or the pass's
        address-space bail-out (an integer address never shares a pointer's base)."""
        for v in (addr, base):
            ty = v.type
            if not ty.is_pointer or ty.address_space != 0:  # type: ignore[attr-defined]
                return None
        return self.offsets.difference(addr, base)

    def offset_from(self, addr: Value, base: Value) -> ConstantRange:
        diff = self._difference(addr, base)
        if diff is None:
            return self.unknown
        offset = self.offsets.signed_range(diff)
        if is_unsafe(offset):
            return self.unknown
        return offset.sext_or_trunc(self.pointer_size)

    def access_range(self, addr: Value, base: Value, size_range: ConstantRange) -> ConstantRange:
        if size_range.is_empty_set():
            return ConstantRange.get_empty(self.pointer_size)
        offsets = self.offset_from(addr, base)
        if is_unsafe(offsets):
            return self.unknown
        offsets = add_overflow_never(offsets, size_range)
        if is_unsafe(offsets):
            return self.unknown
        return offsets

    def access_range_of_size(self, addr: Value, base: Value, size: int | None) -> ConstantRange:
        ps = self.pointer_size
        if size is None or size >= 1 << (ps - 1):
            return self.unknown
        return self.access_range(addr, base, ConstantRange(ps, 0, size))

    def mem_intrinsic_access_range(self, mi: CallBase, kind: str, use: Use, base: Value) -> ConstantRange:
        ps = self.pointer_size
        if not _is_mem_address(mi, kind, use):
            return ConstantRange.get_empty(ps)
        length = mi.get_arg(2)
        se = self.se
        if not se.is_scevable(length.type):
            return self.unknown
        expr = se.get_truncate_or_zero_extend(se.get_scev(length), self.calc_type)
        sizes = se.get_signed_range(expr)
        upper = _signed(sizes.upper, sizes.bit_width)
        if upper <= 0 or is_unsafe(sizes):
            return self.unknown
        sizes = sizes.sext_or_trunc(ps)
        upper = _signed(sizes.upper, ps)
        return self.access_range(use.value, base, ConstantRange(ps, 0, upper - 1))

    def _store_size(self, ty: Type) -> int | None:
        if self.dl.is_scalable(ty):
            return None
        size: int = self.dl.type_store_size(ty)
        return size

    def is_safe_access(self, use: Use, ai: AllocaInst | None, access_size: SCEV | int | None) -> bool:
        """The access through ``use`` stays inside the alloca (always true for a parameter)."""
        if ai is None:
            return True
        if access_size is None or isinstance(access_size, SCEVCouldNotCompute):
            return False
        se = self.se
        inst = use.user
        assert isinstance(inst, Instruction)
        diff = self._difference(use.value, ai)
        if diff is None:
            return False
        size = static_alloca_size_range(ai)
        calc = self.calc_type
        if isinstance(access_size, int):
            access_scev: SCEV = se.get_constant(calc, access_size)
        else:
            access_scev = access_size
        size_ty = self.function.type.context.int_type(size.bit_width)
        lo = se.get_truncate_or_zero_extend(se.get_constant(size_ty, size.lower), calc)
        hi = se.get_minus_scev(
            se.get_truncate_or_zero_extend(se.get_constant(size_ty, size.upper), calc),
            se.get_truncate_or_zero_extend(access_scev, calc),
        )
        diff_bits = se.get_type_size_in_bits(diff.type)  # type: ignore[arg-type]
        if diff_bits < self.pointer_size:  # an index narrower than the pointer
            diff = se.get_sign_extend_expr(diff, calc)
        elif diff_bits > self.pointer_size:
            return False
        return self._holds(Predicate.ICMP_SGE, diff, lo, inst) and self._holds(Predicate.ICMP_SLE, diff, hi, inst)

    def _holds(self, pred: Predicate, lhs: SCEV, rhs: SCEV, ctx: Instruction) -> bool:
        """``evaluatePredicateAt(pred, lhs, rhs, ctx)`` is true; the ranges also count loops
        whose trip count only the pointer view knows (:class:`PointerOffsets`)."""
        se = self.se
        known = se.evaluate_predicate(pred, lhs, rhs)
        if known is not None:
            return known
        bb = ctx.parent
        if bb is not None and self._entry_contradicts(bb):
            return True
        known = se.evaluate_predicate_at(pred, lhs, rhs, ctx)
        if known is not None:
            return known
        return self.offsets.signed_range(lhs).icmp(pred, se.get_signed_range(rhs))

    def _entry_contradicts(self, bb: BasicBlock) -> bool:
        """A branch on a constant leads into ``bb`` only along its never-taken edge, so any
        predicate is implied at the block's entry (LLVM ``isImpliedCond``'s "false implies
        anything" on the ``isBasicBlockEntryGuardedByCond`` chain)."""
        found = self._dead_entries.get(bb)
        if found is not None:
            return found
        se = self.se
        result = False
        seen: set[BasicBlock] = set()
        cur = bb
        while cur not in seen:
            seen.add(cur)
            pred_bb = cur.single_predecessor
            succ = cur
            if pred_bb is None:
                loop = se.li.loop_for(cur)
                if loop is None:
                    break
                pred_bb, succ = loop.loop_predecessor, loop.header
            if pred_bb is None:
                break
            term = pred_bb.terminator
            if term is not None and term.opcode == "br" and len(term.operands) == 3:
                cond = term.operands[0]
                if isinstance(cond, ConstantInt) and (cond.value != 0) == (term.successors[0] is not succ):
                    result = True
                    break
            cur = pred_bb
        self._dead_entries[bb] = result
        return result

    # --- the walk -----------------------------------------------------------------------------
    def analyze_all_uses(self, ptr: Value, us: UseInfo, sl: StackLifetime) -> None:
        ai = ptr if isinstance(ptr, AllocaInst) else None
        unknown = self.unknown
        visited: set[Value] = set()
        work: list[Value] = [ptr]
        while work:
            v = work.pop()
            for use in list(v.uses):
                inst = use.user
                if not isinstance(inst, Instruction) or not sl.is_reachable(inst):
                    continue
                op = inst.opcode
                if op == "load":
                    if ai is not None and not sl.is_alive_after(ai, inst):
                        us.add_range(inst, unknown, False)
                        continue
                    size = self._store_size(inst.type)
                    us.add_range(inst, self.access_range_of_size(use.value, ptr, size),
                                 self.is_safe_access(use, ai, size))
                elif op == "va_arg":
                    continue
                elif op in ("store", "cmpxchg", "atomicrmw"):
                    stored = inst.operands[0] if op == "store" else inst.operands[2 if op == "cmpxchg" else 1]
                    if v is stored:
                        us.add_range(inst, unknown, False)
                    elif ai is not None and not sl.is_alive_after(ai, inst):
                        us.add_range(inst, unknown, False)
                    else:
                        size = self._store_size(stored.type)
                        us.add_range(inst, self.access_range_of_size(use.value, ptr, size),
                                     self.is_safe_access(use, ai, size))
                elif op == "ret":
                    us.add_range(inst, unknown, False)
                elif op in ("call", "invoke"):
                    assert isinstance(inst, CallBase)
                    self._call_use(inst, use, v, ptr, ai, us, sl, visited, work)
                elif inst not in visited:
                    visited.add(inst)
                    work.append(inst)

    def _call_use(
        self, cb: CallBase, use: Use, v: Value, ptr: Value, ai: AllocaInst | None, us: UseInfo,
        sl: StackLifetime, visited: set[Value], work: list[Value],
    ) -> None:
        unknown = self.unknown
        if is_lifetime_start_or_end(cb):
            return
        if ai is not None and not sl.is_alive_after(ai, cb):
            us.add_range(cb, unknown, False)
            return
        kind = _mem_intrinsic_kind(cb)
        if kind:
            access = self.mem_intrinsic_access_range(cb, kind, use, ptr)
            safe = not _is_mem_address(cb, kind, use)
            if not safe:
                se = self.se
                length = cb.get_arg(2)
                safe = self.is_safe_access(use, ai, se.get_scev(length) if se.is_scevable(length.type) else None)
            us.add_range(cb, access, safe)
            return
        if get_returned_arg_operand(cb) is v and cb not in visited:
            visited.add(cb)
            work.append(cb)
        if not cb.is_arg_operand(use):
            us.add_range(cb, unknown, False)
            return
        arg_no = use.index
        if cb.param_has_attr(arg_no, "byval"):
            by_val = cb.param_by_val_type(arg_no)
            size = self._store_size(by_val) if by_val is not None else None
            us.add_range(cb, self.access_range_of_size(use.value, ptr, size), self.is_safe_access(use, ai, size))
            return
        callee = strip_pointer_casts(cb.called_operand)
        if not isinstance(callee, GlobalValue):
            us.add_range(cb, unknown, False)
            return
        us.add_call(callee, arg_no, self.offset_from(use.value, ptr))

    def run(self) -> FunctionInfo:
        fn = self.function
        info = FunctionInfo()
        allocas = [i for bb in fn.blocks for i in bb.instructions if isinstance(i, AllocaInst)]
        sl = StackLifetime(fn, allocas, MUST)
        sl.run()
        for ai in allocas:
            us = info.allocas[ai] = UseInfo(self.pointer_size)
            self.analyze_all_uses(ai, us, sl)
        for arg in fn.args:
            if arg.type.is_pointer and not arg.has_attribute("byval"):
                us = info.params[arg.arg_no] = UseInfo(self.pointer_size)
                self.analyze_all_uses(arg, us, sl)
        return info


def analyze_function(fn: Function, se: ScalarEvolution) -> FunctionInfo:
    """The stack safety :class:`FunctionInfo` of a defined function."""
    return StackSafetyLocalAnalysis(fn, se).run()


__all__ = [
    "FunctionInfo",
    "StackSafetyLocalAnalysis",
    "UseInfo",
    "add_overflow_never",
    "analyze_function",
    "global_order",
    "is_unsafe",
    "pointer_size",
    "static_alloca_size_range",
    "union_no_wrap",
]
