"""``lint``: LLVM 19's ``LintPass``, which reports code that is undefined or
suspicious -- with LLVM's messages, written to stderr as opt-19 writes them.

What: for each defined function (in order; the messages of a function come
out when it is done) the pass writes each finding as LLVM does: the message
line, then the offending instruction as ``Value::print`` writes it (two
leading spaces), or ``printAsOperand`` for a non-instruction (``ptr @0``).
As in LLVM, a visitor stops at its first finding. The checks (messages
verbatim from opt-19, found by experiment):

* function: ``Unusual: Unnamed function with non-local linkage``;
* memory references (load, store, va_arg, callee,
  indirectbr address, ``sret`` arguments, memcpy/memmove/memset, va_start/
  va_copy/va_end, stackrestore): null, undef, all-ones and address-one
  pointers; writes to constant globals and to functions or block addresses;
  loads from functions or block addresses; calls to block addresses; branches
  to non-blockaddress constants; accesses outside a known alloca/global
  (``Buffer overflow``) and alignments above the base's
  (``Memory reference address is misaligned``);
* calls to a known function: calling convention, argument count, return
  type, argument types, ``noalias`` arguments aliasing another argument,
  ``tail`` calls passing an alloca; memcpy overlap; va_start in a
  non-varargs function; ``get_active_lane_mask`` with a zero trip count;
* returns: ``ret`` in a ``noreturn`` function, returning an alloca;
* ``xor``/``sub`` of two undefs, shifts by at least the width, division or
  remainder by a (known or undef) zero, ``extractelement``/``insertelement``
  with an index out of range, constant-size allocas outside the entry block,
  ``indirectbr`` without destinations, ``unreachable`` after an instruction
  without side effects.

How: values are traced as LLVM's Lint traces them (``findValue``): through
the underlying object (GEPs, casts, non-interposable aliases, single-input
phis, ``returned`` arguments), no-op casts, phis of one value, extractvalue of
insertvalue, loads of a value just stored or loaded (the last 6 instructions
of a block, then the unique predecessor), and a small instruction simplifier.

What it does not do (approximations, since LLVM asks its alias analysis,
InstSimplify and ValueTracking here): aliasing is decided locally -- two
pointers must-alias when they are the same pointer (or, for memcpy of a
constant length, the same base at the same constant offset); a store or call clobbers a forwarded load unless both pointers lead to
distinct allocas/globals or the call does not write memory. Known-zero
divisors come from ValueTracking's known bits, without assumptions (the
pass does not ask for the assumption cache). The simplifier folds constant operands and the plain
identities (``x & 0``, ``x * 0``, ``x | 0``, ``select c, x, x`` ...), not all
of InstSimplify. As opt-19's Lint, ``cmpxchg``/``atomicrmw`` are not checked. ``-lint-abort-on-error`` is not provided; the AMDGPU
constant-address-space check is not done.
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.analysis.value_tracking import compute_known_bits
from llvmpy_mid.asm.printer import DiagnosticWriter, format_value
from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.analysis.value_tracking_support import opcode_of as _opcode
from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets, strip_pointer_casts
from llvmpy_mid.ir.constant_fold import constant_fold_binary_instruction, constant_fold_cast_instruction
from llvmpy_mid.ir.constants import (
    BlockAddress,
    Constant,
    ConstantInt,
    ConstantPointerNull,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.types import IntegerType, Type, TypeID, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

READ, WRITE, CALLEE, BRANCHEE = 1, 2, 4, 8
_MAX_SCAN = 6

_CAST_OPCODES = frozenset(
    ("trunc", "zext", "sext", "fptoui", "fptosi", "uitofp", "sitofp", "fptrunc", "fpext", "ptrtoint",
     "inttoptr", "bitcast", "addrspacecast")
)  # fmt: skip
_BINARY_OPCODES = frozenset(
    ("add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor")
)


def _operands(v: Value) -> list[Value]:
    return v.operands  # type: ignore[attr-defined,no-any-return]


def base_with_constant_offset(v: Value, dl: DataLayout) -> tuple[Value, int]:
    """LLVM's ``GetPointerBaseWithConstantOffset`` (non-inbounds GEPs too)."""
    return strip_and_accumulate_constant_offsets(v, dl, True)


def _must_alias(a: Value, b: Value, dl: DataLayout, sized: bool = False) -> bool:
    """A local stand-in for AA's MustAlias: the same pointer; for accesses of one known
    size (``sized``) also the same base at the same constant offset."""
    if strip_pointer_casts(a) is strip_pointer_casts(b):
        return True
    if not sized:
        return False
    base_a, off_a = base_with_constant_offset(a, dl)
    base_b, off_b = base_with_constant_offset(b, dl)
    return base_a is base_b and off_a == off_b


def _is_identified_object(v: Value) -> bool:
    return isinstance(v, (AllocaInst, GlobalVariable))


def _castable(src: Type, dst: Type, dl: DataLayout) -> bool:
    """``isBitOrNoopPointerCastable``, roughly: same type, or same-sized first-class scalars."""
    if src is dst:
        return True
    if src.is_pointer and dst.is_pointer:
        return True
    scalar = (TypeID.INTEGER, TypeID.POINTER, TypeID.HALF, TypeID.FLOAT, TypeID.DOUBLE, TypeID.BFLOAT)
    if src.type_id not in scalar or dst.type_id not in scalar:
        return False
    if (src.is_pointer or dst.is_pointer) and not (
        src.type_id is TypeID.INTEGER or dst.type_id is TypeID.INTEGER
    ):
        return False
    return dl.type_size_in_bits(src) == dl.type_size_in_bits(dst)


def _is_zero(v: Value, dl: DataLayout) -> bool:
    """Lint's ``isZero``: undef counts; scalars by ValueTracking's known bits;
    vectors per constant element."""
    if isinstance(v, UndefValue):
        return True
    ty = v.type
    if not isinstance(ty, VectorType):
        return isinstance(ty, IntegerType) and compute_known_bits(v, dl).is_zero()
    if not isinstance(v, Constant):
        return False
    if v.is_zero_value:
        return True
    if ty.scalable:
        return False
    for i in range(ty.count):
        elem = v.get_aggregate_element(i)
        if elem is None:
            return False
        if isinstance(elem, UndefValue):
            return True
        if isinstance(elem, ConstantInt) and elem.value == 0:
            return True
    return False


class Lint:
    """One run of the checks over a function; findings collect in ``messages``."""

    __slots__ = ("module", "dl", "messages", "_writer")

    def __init__(self, fn: Function) -> None:
        self.module = fn.parent
        self.dl: DataLayout = fn.parent.data_layout if fn.parent is not None else DataLayout()
        self.messages: list[str] = []
        self._writer: DiagnosticWriter | None = None

    # --- reporting ------------------------------------------------------------------------------
    def fail(self, message: str, value: Value) -> None:
        self.messages.append(message + "\n")
        if value.is_instruction:
            self.messages.append("  " + format_value(value) + "\n")
        else:
            if self._writer is None:
                self._writer = DiagnosticWriter(self.module)
            self.messages.append(self._writer.operand(value) + "\n")

    # --- tracing values -------------------------------------------------------------------------
    def find_value(self, v: Value, offset_ok: bool) -> Value:
        """LLVM Lint's ``findValue`` (see the module docstring for what it follows)."""
        visited: set[Value] = set()
        while True:
            if v in visited:
                return PoisonValue.get(v.type)
            visited.add(v)
            v = get_underlying_object(v) if offset_ok else strip_pointer_casts(v)
            nxt = self._step(v)
            if nxt is None or nxt is v:
                return v
            v = nxt

    def _step(self, v: Value) -> Value | None:
        op = _opcode(v)
        if isinstance(v, Instruction):
            if op == "load":
                return self._available_loaded_value(v)
            if op == "phi":
                found = self._phi_constant_value(v)
                if found is not None:
                    return found
            elif op in _CAST_OPCODES:
                if self._is_noop_cast(op, _operands(v)[0].type, v.type):
                    return _operands(v)[0]
            elif op == "extractvalue":
                found = _find_inserted_value(_operands(v)[0], tuple(getattr(v, "indices")))
                if found is not None:
                    return found
            return self._simplify(v)
        if op in _CAST_OPCODES and isinstance(v, Constant):
            if self._is_noop_cast(op, _operands(v)[0].type, v.type):
                return _operands(v)[0]
        return None

    def _is_noop_cast(self, op: str, src: Type, dst: Type) -> bool:
        if op == "bitcast":
            return True
        if op == "ptrtoint":
            return dst.type_id is TypeID.INTEGER and self.dl.type_size_in_bits(dst) == self.dl.pointer_type_size_in_bits(src)
        if op == "inttoptr":
            return src.type_id is TypeID.INTEGER and self.dl.type_size_in_bits(src) == self.dl.pointer_type_size_in_bits(dst)
        return False

    @staticmethod
    def _phi_constant_value(phi: Value) -> Value | None:
        found: Value | None = None
        for inc in _operands(phi):
            if inc is phi or inc is found:
                continue
            if found is not None:
                return None
            found = inc
        return found if found is not None else PoisonValue.get(phi.type)

    def _simplify(self, inst: Instruction) -> Value | None:
        op = inst.opcode
        ops = _operands(inst)
        if op in _BINARY_OPCODES:
            a, b = ops
            if isinstance(a, Constant) and isinstance(b, Constant):
                return constant_fold_binary_instruction(op, a, b)
            if isinstance(b, ConstantInt) and b.value == 0:
                if op in ("and", "mul"):
                    return b
                if op in ("or", "xor", "add", "sub", "shl", "lshr", "ashr"):
                    return a
            if isinstance(b, ConstantInt) and b.value == 1 and op in ("mul", "udiv", "sdiv"):
                return a
            if a is b and op in ("and", "or"):
                return a
            return None
        if op in _CAST_OPCODES:
            src = ops[0]
            if isinstance(src, Constant):
                return constant_fold_cast_instruction(op, src, inst.type)
            return None
        if op == "select":
            cond, t, f = ops
            if t is f:
                return t
            if isinstance(cond, ConstantInt):
                return t if cond.value else f
        return None

    def _available_loaded_value(self, load: Value) -> Value | None:
        ptr = strip_pointer_casts(_operands(load)[0])
        ty = load.type
        atomic = bool(getattr(load, "is_atomic", False))
        inst: Instruction | None = load._prev  # type: ignore[attr-defined]
        bb = load.parent  # type: ignore[attr-defined]
        visited: set[object] = set()
        while bb is not None and bb not in visited:
            visited.add(bb)
            budget = _MAX_SCAN
            while inst is not None:
                if budget == 0:
                    return None
                budget -= 1
                op = inst.opcode
                if op == "load":
                    if (not atomic or inst.is_atomic) and strip_pointer_casts(_operands(inst)[0]) is ptr:
                        if _castable(inst.type, ty, self.dl):
                            return inst
                elif op == "store":
                    val, sptr = _operands(inst)
                    sptr = strip_pointer_casts(sptr)
                    if sptr is ptr:
                        return val if _castable(val.type, ty, self.dl) else None
                    if self._distinct_objects(ptr, sptr):
                        inst = inst._prev
                        continue
                    return None
                elif inst.may_write_to_memory():
                    return None
                inst = inst._prev
            bb = bb.unique_predecessor
            if bb is not None:
                inst = bb.instructions.last if hasattr(bb.instructions, "last") else _last_instruction(bb)
        return None

    @staticmethod
    def _distinct_objects(a: Value, b: Value) -> bool:
        ua, ub = get_underlying_object(a), get_underlying_object(b)
        return _is_identified_object(ua) and _is_identified_object(ub) and ua is not ub

    # --- memory references ----------------------------------------------------------------------
    def memory_reference(
        self, inst: Instruction, ptr: Value, size: int | None, align: int | None, ty: Type | None, flags: int
    ) -> None:
        if size == 0:
            return
        obj = self.find_value(ptr, True)
        if isinstance(obj, ConstantPointerNull):
            return self.fail("Undefined behavior: Null pointer dereference", inst)
        if isinstance(obj, UndefValue):
            return self.fail("Undefined behavior: Undef pointer dereference", inst)
        if isinstance(obj, ConstantInt) and obj.value == (1 << obj.type.width) - 1:
            return self.fail("Unusual: All-ones pointer dereference", inst)
        if isinstance(obj, ConstantInt) and obj.value == 1:
            return self.fail("Unusual: Address one pointer dereference", inst)
        if flags & WRITE:
            if isinstance(obj, GlobalVariable) and obj.is_constant_global:
                return self.fail("Undefined behavior: Write to read-only memory", inst)
            if isinstance(obj, (Function, BlockAddress)):
                return self.fail("Undefined behavior: Write to text section", inst)
        if flags & READ:
            if isinstance(obj, Function):
                return self.fail("Unusual: Load from function body", inst)
            if isinstance(obj, BlockAddress):
                return self.fail("Undefined behavior: Load from block address", inst)
        if flags & CALLEE and isinstance(obj, BlockAddress):
            return self.fail("Undefined behavior: Call to block address", inst)
        if flags & BRANCHEE and isinstance(obj, Constant) and not isinstance(obj, BlockAddress):
            return self.fail("Undefined behavior: Branch to non-blockaddress", inst)
        base, offset = base_with_constant_offset(ptr, self.dl)
        base_size: int | None = None
        base_align: int | None = None
        if isinstance(base, AllocaInst):
            aty = base.allocated_type
            if not base.is_array_allocation and aty.is_sized and not self.dl.is_scalable(aty):
                base_size = self.dl.type_alloc_size(aty)
            base_align = base.alignment
        elif isinstance(base, GlobalVariable):
            if base.has_definitive_initializer:
                gty = base.value_type
                if gty.is_sized:
                    base_size = self.dl.type_alloc_size(gty)
                base_align = base.alignment or None
                if base_align is None and gty.is_sized:
                    base_align = self.dl.abi_alignment(gty)
        if size is not None and base_size is not None and not (offset >= 0 and offset + size <= base_size):
            return self.fail("Undefined behavior: Buffer overflow", inst)
        if align is None and ty is not None and ty.is_sized:
            align = self.dl.abi_alignment(ty)
        if base_align and align:
            common = base_align if offset == 0 else min(base_align, offset & -offset)
            if align > common:
                return self.fail("Undefined behavior: Memory reference address is misaligned", inst)
        return None

    # --- visitors -------------------------------------------------------------------------------
    def run(self, fn: Function) -> list[str]:
        if not fn.name and not fn.has_local_linkage:
            self.fail("Unusual: Unnamed function with non-local linkage", fn)
        entry = fn.blocks._first
        for bb in fn.blocks:
            for inst in bb.instructions:
                self.visit(inst, bb is entry)
        return self.messages

    def visit(self, inst: Instruction, in_entry: bool) -> None:
        op = inst.opcode
        ops = _operands(inst)
        dl = self.dl
        if op == "load":
            return self.memory_reference(inst, ops[0], dl.type_store_size(inst.type), getattr(inst, "alignment"), inst.type, READ)
        if op == "store":
            vty = ops[0].type
            return self.memory_reference(inst, ops[1], dl.type_store_size(vty), getattr(inst, "alignment"), vty, WRITE)
        if op == "va_arg":
            return self.memory_reference(inst, ops[0], None, None, None, READ | WRITE)
        if op in ("call", "invoke", "callbr"):
            return self.visit_call(inst)  # type: ignore[arg-type]
        if op == "ret":
            return self.visit_return(inst)
        if op in ("xor", "sub"):
            if isinstance(ops[0], UndefValue) and isinstance(ops[1], UndefValue):
                self.fail("Undefined result: %s(undef, undef)" % op, inst)
            return None
        if op in ("shl", "lshr", "ashr"):
            amount = self.find_value(ops[1], False)
            if isinstance(amount, ConstantInt) and isinstance(inst.type, IntegerType) and amount.value >= inst.type.width:
                self.fail("Undefined result: Shift count out of range", inst)
            return None
        if op in ("sdiv", "udiv", "srem", "urem"):
            if _is_zero(ops[1], self.dl):
                self.fail("Undefined behavior: Division by zero", inst)
            return None
        if op == "alloca":
            if isinstance(ops[0], ConstantInt) and not in_entry:
                self.fail("Pessimization: Static alloca outside of entry block", inst)
            return None
        if op == "indirectbr":
            self.memory_reference(inst, ops[0], None, None, None, BRANCHEE)
            if len(ops) == 1:
                self.fail("Undefined behavior: indirectbr with no destinations", inst)
            return None
        if op in ("extractelement", "insertelement"):
            vty = ops[0].type
            index = self.find_value(ops[1] if op == "extractelement" else ops[2], False)
            if isinstance(index, ConstantInt) and isinstance(vty, VectorType) and index.value >= vty.count:
                self.fail("Undefined result: %s index out of range" % op, inst)
            return None
        if op == "unreachable":
            prev: Instruction | None = inst._prev
            if prev is not None and not prev.may_have_side_effects():
                self.fail("Unusual: unreachable immediately preceded by instruction without side effects", inst)
            return None
        return None

    def visit_return(self, inst: Instruction) -> None:
        fn = inst.function
        if fn is not None and fn.does_not_return:
            return self.fail("Unusual: Return statement in function with noreturn attribute", inst)
        ops = _operands(inst)
        if ops and isinstance(self.find_value(ops[0], True), AllocaInst):
            return self.fail("Unusual: Returning alloca value", inst)
        return None

    def visit_call(self, call: CallBase) -> None:
        self.memory_reference(call, call.called_operand, None, None, None, CALLEE)
        callee = self.find_value(call.called_operand, False)
        if isinstance(callee, Function):
            if call.calling_conv != callee.calling_conv:
                return self.fail("Undefined behavior: Caller and callee calling convention differ", call)
            fty = callee.function_type
            nargs = call.num_args
            nparams = len(fty.params)
            if not (nparams <= nargs if fty.is_vararg else nparams == nargs):
                return self.fail("Undefined behavior: Call argument count mismatches callee argument count", call)
            if fty.return_type is not call.type:
                return self.fail("Undefined behavior: Call return type mismatches callee return type", call)
            args = call.args
            for i, actual in enumerate(args):
                if i >= nparams:
                    break
                if self._check_argument(call, callee, i, actual, args):
                    return None
            if getattr(call, "opcode") == "call" and getattr(call, "is_tail_call", False):
                for i, arg in enumerate(args):
                    if call.attributes.get_param_attr(i, "byval") is not None:
                        continue
                    if isinstance(self.find_value(arg, True), AllocaInst):
                        return self.fail('Undefined behavior: Call with "tail" keyword references alloca', call)
        fn = call.called_function
        if fn is not None and fn.intrinsic_id:
            self._visit_intrinsic(call, lookup_intrinsic(fn.name) or "")
        return None

    def _check_argument(self, call: CallBase, callee: Function, i: int, actual: Value, args: list[Value]) -> bool:
        """Checks of actual argument ``i``; True when a finding ends the call's checks."""
        formal_ty = callee.function_type.params[i]
        if formal_ty is not actual.type:
            self.fail("Undefined behavior: Call argument type mismatches callee parameter type", call)
            return True
        fattrs = callee.attributes
        if fattrs.get_param_attr(i, "noalias") is not None and actual.type.is_pointer:
            formal_reads_only = (
                fattrs.get_param_attr(i, "readonly") is not None or fattrs.get_param_attr(i, "readnone") is not None
            )
            for j, other in enumerate(args):
                if call.attributes.get_param_attr(j, "byval") is not None:
                    continue
                if formal_reads_only and self._call_only_reads(call, j):
                    continue
                if call.param_has_attr(j, "readnone"):
                    continue
                if j != i and other.type.is_pointer and not isinstance(other, ConstantPointerNull):
                    if _must_alias(actual, other, self.dl):
                        self.fail("Unusual: noalias argument aliases another argument", call)
                        return True
        sret = fattrs.param_type_attr(i, "sret")
        if sret is not None and actual.type.is_pointer:
            self.memory_reference(
                call, actual, self.dl.type_store_size(sret), self.dl.abi_alignment(sret), sret, READ | WRITE
            )
        return False

    @staticmethod
    def _call_only_reads(call: CallBase, j: int) -> bool:
        if call.attributes.get_param_attr(j, "byval") is not None:
            return True
        return call.param_has_attr(j, "readonly") or call.param_has_attr(j, "readnone")

    def _visit_intrinsic(self, call: CallBase, name: str) -> None:
        args = call.args
        attrs = call.attributes
        fn = call.called_function

        def param_align(i: int) -> int | None:
            a = attrs.param_alignment(i)
            if a is None and fn is not None:
                a = fn.attributes.param_alignment(i)
            return a

        def length() -> int | None:
            n = args[2]
            return n.value if isinstance(n, ConstantInt) else None

        def ref(ptr_index: int, size: int | None, align: int | None, flags: int) -> None:
            self.memory_reference(call, args[ptr_index], size, align, None, flags)

        if name in ("llvm.memcpy", "llvm.memcpy.inline"):
            ref(0, length(), param_align(0), WRITE)
            ref(1, length(), param_align(1), READ)
            n = self.find_value(args[2], False)
            sized = isinstance(n, ConstantInt) and n.value < (1 << 32)
            if _must_alias(args[1], args[0], self.dl, sized):
                self.fail("Undefined behavior: memcpy source and destination overlap", call)
        elif name == "llvm.memmove":
            ref(0, length(), param_align(0), WRITE)
            ref(1, length(), param_align(1), READ)
        elif name in ("llvm.memset", "llvm.memset.inline"):
            ref(0, length(), param_align(0), WRITE)
        elif name == "llvm.va_start":
            caller = call.function
            if caller is not None and not caller.is_vararg:
                self.fail("Undefined behavior: va_start called in a non-varargs function", call)
                return
            ref(0, None, None, READ | WRITE)
        elif name == "llvm.va_copy":
            ref(0, None, None, WRITE)
            ref(1, None, None, READ)
        elif name == "llvm.va_end":
            ref(0, None, None, READ | WRITE)
        elif name == "llvm.stackrestore":
            ref(0, None, None, READ)
        elif name == "llvm.get.active.lane.mask":
            trip = args[1]
            if isinstance(trip, ConstantInt) and trip.value == 0:
                self.fail("get_active_lane_mask: operand #2 must be greater than 0", call)


def _last_instruction(bb: object) -> Instruction | None:
    last: Instruction | None = None
    for inst in getattr(bb, "instructions"):
        last = inst
    return last


def _find_inserted_value(agg: Value, indices: tuple[int, ...]) -> Value | None:
    """``FindInsertedValue``, for the common shapes: insertvalue chains and constants."""
    for _ in range(64):
        if not indices:
            return agg
        if isinstance(agg, Constant):
            c: Constant | None = agg
            for i in indices:
                c = c.get_aggregate_element(i) if c is not None else None
            return c
        if _opcode(agg) != "insertvalue":
            return None
        ins_idx = tuple(getattr(agg, "indices"))
        ops = _operands(agg)
        common = min(len(ins_idx), len(indices))
        if ins_idx[:common] != indices[:common]:
            agg = ops[0]
            continue
        if len(ins_idx) <= len(indices):
            agg, indices = ops[1], indices[len(ins_idx):]
            continue
        return None
    return None


def lint_function(fn: Function) -> str:
    """The ``lint`` findings of one function, as opt-19 writes them."""
    if fn.is_declaration:
        return ""
    return "".join(Lint(fn).run(fn))


class LintPass(Pass[Function]):
    """``lint``: writes :func:`lint_function` to ``stream`` (stderr by default, as opt)."""

    name: ClassVar[str] = "lint"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        text = lint_function(unit)
        if text:
            out = self.stream if self.stream is not None else sys.stderr
            out.write(text)
        return PreservedAnalyses.all()


__all__ = [
    "Lint",
    "LintPass",
    "base_with_constant_offset",
    "lint_function",
    "strip_pointer_casts",
]
