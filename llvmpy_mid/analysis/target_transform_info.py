"""``TargetIRAnalysis``: the target transform information of a function (LLVM
19.1.7 ``llvm/lib/Analysis/TargetTransformInfo.cpp`` with the target-independent
``NoTTIImpl`` of ``include/llvm/Analysis/TargetTransformInfoImpl.h``).

What: opt-19 computes this analysis before ``AssumptionAnalysis`` and the
passes that ask for costs; without a target machine LLVM answers with its
default, target-independent implementation, and so does this module. Its result
answers the target-independent queries the middle end needs, among them the
cost model: :meth:`TargetTransformInfo.get_instruction_cost` of an instruction
(or constant expression) in one of the four cost kinds (``TCK_RecipThroughput``,
``TCK_Latency``, ``TCK_CodeSize``, ``TCK_SizeAndLatency``), as an
:class:`InstructionCost` (valid or invalid); the branch-probability threshold
above which a branch is "predictable" (``-predictable-branch-threshold``);
select/compare costs. ``print<cost-model>`` (:class:`CostModelPrinterPass`,
with ``-cost-kind=``) prints the cost of every instruction as opt-19 does.

What it does not do: target-specific costs, except x86-64: a module whose triple
names x86_64 gets :mod:`.target_transform_info_x86`'s model; any other triple is
costed as if it had none (opt-19 would build that target's cost model).
"""

from __future__ import annotations

from typing import ClassVar, TextIO

from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, get_splat_value
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst, intrinsic_base_name
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import ArrayType, StructType, Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

TCK_RECIP_THROUGHPUT = 0
TCK_LATENCY = 1
TCK_CODE_SIZE = 2
TCK_SIZE_AND_LATENCY = 3
"""LLVM ``TargetTransformInfo::TargetCostKind``."""

TCC_FREE = 0
TCC_BASIC = 1
TCC_EXPENSIVE = 4
"""LLVM ``TargetTransformInfo::TargetCostConstants``."""

COST_KIND_NAMES = {
    "throughput": TCK_RECIP_THROUGHPUT,
    "latency": TCK_LATENCY,
    "code-size": TCK_CODE_SIZE,
    "size-latency": TCK_SIZE_AND_LATENCY,
}
"""``-cost-kind=`` values."""


class InstructionCost:
    """LLVM ``InstructionCost``: an integer cost, or invalid (``value is None``).
    Arithmetic with an invalid cost is invalid; a valid cost orders before every
    invalid one."""

    __slots__ = ("value",)

    def __init__(self, value: int | None = 0) -> None:
        self.value = value

    @classmethod
    def invalid(cls) -> InstructionCost:
        return cls(None)

    @property
    def is_valid(self) -> bool:
        return self.value is not None

    def __add__(self, other: InstructionCost | int) -> InstructionCost:
        o = other.value if isinstance(other, InstructionCost) else other
        if self.value is None or o is None:
            return InstructionCost(None)
        return InstructionCost(self.value + o)

    __radd__ = __add__

    def __mul__(self, other: int) -> InstructionCost:
        if self.value is None:
            return self
        return InstructionCost(self.value * other)

    __rmul__ = __mul__

    def _key(self) -> tuple[int, int]:
        return (1, 0) if self.value is None else (0, self.value)

    @staticmethod
    def _other_key(other: InstructionCost | int) -> tuple[int, int]:
        if isinstance(other, InstructionCost):
            return other._key()
        return (0, other)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (InstructionCost, int)):
            return self._key() == self._other_key(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __lt__(self, other: InstructionCost | int) -> bool:
        return self._key() < self._other_key(other)

    def __le__(self, other: InstructionCost | int) -> bool:
        return self._key() <= self._other_key(other)

    def __gt__(self, other: InstructionCost | int) -> bool:
        return self._key() > self._other_key(other)

    def __ge__(self, other: InstructionCost | int) -> bool:
        return self._key() >= self._other_key(other)

    def __repr__(self) -> str:
        return "InstructionCost(%s)" % ("Invalid" if self.value is None else self.value)


# Intrinsics that are no code once lowered (NoTTIImpl ``getIntrinsicInstrCost``).
_FREE_INTRINSICS = frozenset(
    "llvm." + n
    for n in (
        "allow.runtime.check", "allow.ubsan.check", "annotation", "assume", "sideeffect", "pseudoprobe",
        "arithmetic.fence", "dbg.assign", "dbg.declare", "dbg.value", "dbg.label", "invariant.start",
        "invariant.end", "launder.invariant.group", "strip.invariant.group", "is.constant", "lifetime.start",
        "lifetime.end", "experimental.noalias.scope.decl", "objectsize", "ptr.annotation", "var.annotation",
        "experimental.gc.result", "experimental.gc.relocate", "coro.alloc", "coro.begin", "coro.free",
        "coro.end", "coro.frame", "coro.size", "coro.align", "coro.suspend", "coro.subfn.addr",
        "threadlocal.address", "experimental.widenable.condition", "ssa.copy",
    )
)

# Library functions expected to become one instruction or fold (``isLoweredToCall``).
_NOT_LOWERED_TO_CALL = frozenset(
    (
        "copysign copysignf copysignl fabs fabsf fabsl fmin fminf fminl fmax fmaxf fmaxl sin sinf sinl "
        "cos cosf cosl tan tanf tanl sqrt sqrtf sqrtl pow powf powl exp2 exp2l exp2f floor floorf ceil "
        "round ffs ffsl abs labs llabs"
    ).split()
)

_ARITH = frozenset(
    ("add", "fadd", "sub", "fsub", "mul", "fmul", "udiv", "sdiv", "fdiv", "urem", "srem", "frem", "shl", "lshr",
     "ashr", "and", "or", "xor", "fneg")
)
_EXPENSIVE_ARITH = frozenset(("fdiv", "frem", "sdiv", "srem", "udiv", "urem"))
_CASTS = frozenset(
    ("inttoptr", "ptrtoint", "sitofp", "uitofp", "fptoui", "fptosi", "trunc", "fptrunc", "bitcast", "fpext",
     "sext", "zext", "addrspacecast")
)


def _is_widenable_condition(v: Value) -> bool:
    return isinstance(v, CallInst) and v.intrinsic_name == "llvm.experimental.widenable.condition"


class TargetTransformInfo:
    """The target-independent answers (LLVM's ``NoTTIImpl``)."""

    __slots__ = ("function", "_dl")

    TCK_RECIP_THROUGHPUT: ClassVar[int] = TCK_RECIP_THROUGHPUT
    TCK_LATENCY: ClassVar[int] = TCK_LATENCY
    TCK_CODE_SIZE: ClassVar[int] = TCK_CODE_SIZE
    TCK_SIZE_AND_LATENCY: ClassVar[int] = TCK_SIZE_AND_LATENCY

    def __init__(self, function: Function | None = None, dl: DataLayout | None = None) -> None:
        self.function = function
        if dl is None:
            module = function.parent if function is not None else None
            dl = module.data_layout if module is not None else DataLayout()
        self._dl = dl

    def invalidate(self, unit: object, pa: object, inv: object) -> bool:
        """Never invalidated by a pass's changes (as LLVM's result)."""
        return False

    def has_branch_divergence(self) -> bool:
        """No target with divergent branches is modelled."""
        return False

    def is_single_threaded(self) -> bool:
        return False

    def is_type_legal(self, ty: Type) -> bool:
        """No type is legal without a target (``isTypeLegal``)."""
        return False

    def should_build_rel_lookup_tables(self) -> bool:
        """No relative lookup tables without a target (``shouldBuildRelLookupTables``)."""
        return False

    # --- simple queries -------------------------------------------------------------------------

    def get_predictable_branch_threshold(self) -> tuple[int, int]:
        """The probability (numerator, denominator) from which a branch counts as
        predictable: 99/100, or ``-predictable-branch-threshold=N`` as N/100."""
        from llvmpy_mid.passes.options import OPTIONS

        if OPTIONS.get("predictable-branch-threshold") is not None and OPTIONS.is_set("predictable-branch-threshold"):
            value = OPTIONS.value("predictable-branch-threshold")
            assert isinstance(value, int)
            return (value, 100)
        return (99, 100)

    def get_branch_mispredict_penalty(self) -> InstructionCost:
        return InstructionCost(0)

    def is_profitable_to_hoist(self, inst: Instruction) -> bool:
        return True

    def get_cmp_sel_instr_cost(self, opcode: str, val_ty: Type | None, cond_ty: Type | None, kind: int) -> InstructionCost:
        """Cost of a compare or select (always one basic instruction)."""
        return InstructionCost(1)

    def get_arithmetic_instr_cost(
        self, opcode: str, ty: Type, kind: int, args: list[Value] | None = None
    ) -> InstructionCost:
        """Cost of a binary operator or ``fneg`` of type ``ty``."""
        if opcode in _EXPENSIVE_ARITH:
            return InstructionCost(TCC_EXPENSIVE)
        if opcode in ("and", "or") and args is not None and any(_is_widenable_condition(a) for a in args):
            return InstructionCost(TCC_FREE)
        if kind == TCK_LATENCY and ty.scalar_type.is_floating_point:
            return InstructionCost(3)
        return InstructionCost(1)

    def get_cast_instr_cost(self, opcode: str, dst: Type, src: Type) -> InstructionCost:
        """Cost of a cast: free when it is a no-op on the data layout's machine."""
        dl = self._dl
        if opcode == "inttoptr":
            bits = src.scalar_type.width if src.scalar_type.is_integer else 0  # type: ignore[attr-defined]
            if dl.is_legal_integer(bits) and bits <= dl.pointer_type_size_in_bits(dst):
                return InstructionCost(0)
        elif opcode == "ptrtoint":
            bits = dst.scalar_type.width if dst.scalar_type.is_integer else 0  # type: ignore[attr-defined]
            if dl.is_legal_integer(bits) and bits >= dl.pointer_type_size_in_bits(src):
                return InstructionCost(0)
        elif opcode == "bitcast":
            if dst is src or (dst.is_pointer and src.is_pointer):
                return InstructionCost(0)
        elif opcode == "trunc":
            if not dl.is_scalable(dst) and dl.is_legal_integer(dl.type_size_in_bits(dst)):
                return InstructionCost(0)
        return InstructionCost(1)

    def get_intrinsic_instr_cost(self, name: str) -> InstructionCost:
        """Cost of a call of intrinsic ``name`` (its base name or a mangled one)."""
        base = intrinsic_base_name(name)
        if base == "llvm.experimental.vector.histogram.add":
            return InstructionCost.invalid()
        if base in _FREE_INTRINSICS:
            return InstructionCost(0)
        return InstructionCost(1)

    def get_gep_cost(self, source_ty: Type, ptr: Value, indices: list[Value]) -> InstructionCost:
        """Cost of a GEP: free when its address is a plain register or register plus
        register (``isLegalAddressingMode`` with no base global, no offset, scale 0/1)."""
        base_gv = isinstance(strip_pointer_casts(ptr), GlobalValue)
        if not indices:
            return InstructionCost(TCC_BASIC if base_gv else TCC_FREE)
        dl = self._dl
        bits = dl.pointer_type_size_in_bits(ptr.type)
        mask = (1 << bits) - 1
        offset = 0
        scale = 0
        cur: Type = source_ty
        for k, idx in enumerate(indices):
            if k == 0:
                indexed: Type = cur
                is_struct = False
                is_vector = False
            elif isinstance(cur, StructType):
                indexed = cur
                is_struct = True
                is_vector = False
            elif isinstance(cur, (ArrayType, VectorType)):
                indexed = cur.element_type
                is_struct = False
                is_vector = isinstance(cur, VectorType)
            else:
                indexed = cur
                is_struct = False
                is_vector = False
            const_idx: ConstantInt | None = idx if isinstance(idx, ConstantInt) else None
            if const_idx is None and isinstance(idx, Constant):
                splat = get_splat_value(idx)
                if isinstance(splat, ConstantInt):
                    const_idx = splat
            if is_struct:
                assert isinstance(cur, StructType)
                field = const_idx.value if const_idx is not None else 0
                offset += dl.struct_layout(cur).element_offset(field)
                cur = cur.elements[field]
                continue
            if dl.is_scalable(indexed):
                return InstructionCost(TCC_BASIC)
            stride = dl.type_store_size(indexed) if is_vector else dl.type_alloc_size(indexed)
            if const_idx is not None:
                offset += const_idx.sext_value * stride
            else:
                if scale != 0:
                    return InstructionCost(TCC_BASIC)
                scale = stride
            cur = indexed
        offset &= mask
        if not base_gv and offset == 0 and scale in (0, 1):
            return InstructionCost(TCC_FREE)
        return InstructionCost(TCC_BASIC)

    def get_fp_op_cost(self, ty: Type) -> InstructionCost:
        """``getFPOpCost``: the cost of a floating-point operation of type ``ty`` (basic
        without a target; a target without hardware FP makes it expensive)."""
        return InstructionCost(TCC_BASIC)

    def is_lowered_to_call(self, fn: Function) -> bool:
        if fn.is_intrinsic:
            return False
        if fn.has_local_linkage or not fn.has_name:
            return True
        return fn.name not in _NOT_LOWERED_TO_CALL

    # --- the cost of an instruction ------------------------------------------------------------

    def get_instruction_cost(self, u: Value, kind: int = TCK_SIZE_AND_LATENCY) -> InstructionCost:
        """The cost of instruction or constant expression ``u`` in cost kind ``kind``
        (LLVM ``TargetTransformInfoImplCRTPBase::getInstructionCost`` for ``NoTTIImpl``)."""
        if isinstance(u, CallBase):
            if not (isinstance(u, CallInst) and u.is_intrinsic_call):
                fn = u.called_function
                if fn is not None:
                    if not self.is_lowered_to_call(fn):
                        return InstructionCost(TCC_BASIC)
                    return InstructionCost(TCC_BASIC * (len(fn.function_type.params) + 1))
                return InstructionCost(TCC_BASIC * (u.arg_size + 1))
            return self.get_intrinsic_instr_cost(u.intrinsic_name)
        if isinstance(u, Instruction):
            opcode = u.opcode
            ops = [use.value for use in u._operands]
        elif isinstance(u, ConstantExpr):
            opcode = u.opcode
            ops = list(u.operands)
        else:
            return InstructionCost(-1 if kind == TCK_RECIP_THROUGHPUT else TCC_BASIC)
        ty = u.type
        if opcode in ("br", "ret", "phi", "switch"):
            if opcode == "phi" and kind != TCK_RECIP_THROUGHPUT:
                return InstructionCost(0)
            return InstructionCost(1)
        if opcode in ("extractvalue", "freeze"):
            return InstructionCost(TCC_FREE)
        if opcode == "alloca":
            if isinstance(u, AllocaInst) and u.is_static_alloca:
                return InstructionCost(TCC_FREE)
        elif opcode == "getelementptr":
            src = getattr(u, "source_element_type", None)
            assert src is not None
            return self.get_gep_cost(src, ops[0], ops[1:])
        elif opcode in _ARITH:
            return self.get_arithmetic_instr_cost(opcode, ty, kind, ops)
        elif opcode in _CASTS:
            return self.get_cast_instr_cost(opcode, ty, ops[0].type)
        elif opcode == "store":
            return InstructionCost(1)
        elif opcode == "load":
            if kind == TCK_LATENCY:
                return InstructionCost(4)
            return InstructionCost(1)
        elif opcode == "select":
            logical = _logical_op_operands(ops, ty)
            if logical is not None:
                return self.get_arithmetic_instr_cost("and", ty, kind, logical)
            return self.get_cmp_sel_instr_cost("select", ty, ops[0].type, kind)
        elif opcode in ("icmp", "fcmp"):
            return self.get_cmp_sel_instr_cost(opcode, ops[0].type, ty, kind)
        elif opcode in ("insertelement", "extractelement"):
            return InstructionCost(1)
        elif opcode == "shufflevector":
            if not isinstance(u, Instruction):
                return InstructionCost(TCC_BASIC)
            return InstructionCost(_shuffle_cost(ops[0].type, getattr(u, "mask")))
        return InstructionCost(-1 if kind == TCK_RECIP_THROUGHPUT else TCC_BASIC)

    def is_expensive_to_speculatively_execute(self, inst: Instruction) -> bool:
        return self.get_instruction_cost(inst, TCK_SIZE_AND_LATENCY) >= TCC_EXPENSIVE


def _shuffle_cost(src_ty: Type, mask: tuple[int, ...]) -> int:
    """NoTTIImpl's shuffle cost: identity (or identity widened with undef lanes)
    is free, a narrowing shuffle other than a subvector extract costs a shuffle
    and an extract, every other shuffle one."""
    assert isinstance(src_ty, VectorType)
    n_src = src_ty.count
    n = len(mask)
    if src_ty.scalable:
        return 1
    lhs = any(0 <= m < n_src for m in mask)
    rhs = any(m >= n_src for m in mask)
    # LLVM's isSingleSourceMask: an all-poison mask uses neither source, so it is not single-source
    # (nor an identity).
    single = (lhs or rhs) and not (lhs and rhs)
    front = mask[: min(n, n_src)]
    identity = single and all(m == -1 or m == i or m == i + n_src for i, m in enumerate(front))
    if n == n_src:
        return 0 if identity else 1
    if n > n_src:
        return 0 if identity and all(m == -1 for m in mask[n_src:]) else 1
    if single:
        first = next((i, m) for i, m in enumerate(mask) if m != -1) if any(m != -1 for m in mask) else None
        if first is not None:
            start = (first[1] % n_src) - first[0]
            if 0 <= start and start + n <= n_src and all(m == -1 or m % n_src == start + i for i, m in enumerate(mask)):
                return 1
    return 2


def _logical_op_operands(ops: list[Value], ty: Type) -> list[Value] | None:
    """``select c, x, false`` / ``select c, true, x`` on i1 (or vectors of i1): the
    two operands of the logical and/or, else None."""
    scalar = ty.scalar_type
    if not (scalar.is_integer and scalar.width == 1) or ops[0].type is not ty:  # type: ignore[attr-defined]
        return None
    t, f = ops[1], ops[2]
    if isinstance(f, Constant) and f.is_null_value:
        return [ops[0], t]
    if isinstance(t, Constant) and _is_one(t):
        return [ops[0], f]
    return None


def _is_one(c: Constant) -> bool:
    if isinstance(c, ConstantInt):
        return c.value == 1
    splat = get_splat_value(c)
    return isinstance(splat, ConstantInt) and splat.value == 1


class TargetIRAnalysis(FunctionAnalysis[TargetTransformInfo]):
    """LLVM ``TargetIRAnalysis``."""

    name: ClassVar[str] = "target-ir"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> TargetTransformInfo:
        module = unit.parent
        if module is not None and module.target_triple.startswith(("x86_64", "amd64")):
            from llvmpy_mid.analysis.target_transform_info_x86 import X86TargetTransformInfo, is_x86_64_triple

            if is_x86_64_triple(module.target_triple):
                return X86TargetTransformInfo(unit)
        if module is not None and module.target_triple.startswith(("arm", "thumb")):
            from llvmpy_mid.analysis.target_transform_info_arm import ARMTargetTransformInfo, is_arm_triple

            if is_arm_triple(module.target_triple):
                return ARMTargetTransformInfo(unit)
        return TargetTransformInfo(unit)


__all__ = [
    "COST_KIND_NAMES",
    "InstructionCost",
    "TCC_BASIC",
    "TCC_EXPENSIVE",
    "TCC_FREE",
    "TCK_CODE_SIZE",
    "TCK_LATENCY",
    "TCK_RECIP_THROUGHPUT",
    "TCK_SIZE_AND_LATENCY",
    "TargetIRAnalysis",
    "TargetTransformInfo",
]


class CostModelPrinterPass(Pass[Function]):
    """``print<cost-model>``: the cost of every instruction in the kind
    ``-cost-kind=`` names (``throughput`` by default), written to stdout as
    opt-19's ``CostModelPrinterPass`` does (LLVM ``lib/Analysis/CostModel.cpp``)."""

    name: ClassVar[str] = "print<cost-model>"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        import sys

        from llvmpy_mid.errors import PipelineError
        from llvmpy_mid.passes.options import OPTIONS

        kind_name = OPTIONS.value("cost-kind") if OPTIONS.get("cost-kind") is not None else "throughput"
        kind = COST_KIND_NAMES.get(str(kind_name))
        if kind is None:
            raise PipelineError("for the --cost-kind option: Cannot find option named '%s'!" % kind_name)
        tti = am.get_result(TargetIRAnalysis, unit)
        from llvmpy_mid.ir import _printing

        writer = _printing.diagnostic_writer(unit.parent)
        out = self.stream if self.stream is not None else sys.stdout
        lines = ["Printing analysis 'Cost Model Analysis' for function '%s':\n" % unit.name]
        for bb in unit.blocks:
            for inst in bb:
                cost = tti.get_instruction_cost(inst, kind)
                if cost.value is None:
                    head = "Cost Model: Invalid cost"
                else:
                    head = "Cost Model: Found an estimated cost of %d" % cost.value
                lines.append("%s for instruction: %s\n" % (head, "  " + writer.instruction(inst)))
        out.write("".join(lines))
        return PreservedAnalyses.all()
