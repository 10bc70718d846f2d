"""The x86-64 cost model: what opt-19 answers through ``X86TTIImpl`` (LLVM 19.1.7
``lib/Target/X86/X86TargetTransformInfo.cpp`` over ``include/llvm/CodeGen/BasicTTIImpl.h``,
with ``X86TargetLowering::isLegalAddressingMode`` of ``X86ISelLowering.cpp``) for a
function whose module's target triple names x86_64, on opt-19's default subtarget
(the generic x86-64 CPU: SSE2, no AVX; static relocation model, small code model).

What: :class:`X86TargetTransformInfo` answers the cost queries of
:class:`~llvmpy_mid.analysis.target_transform_info.TargetTransformInfo` as opt-19 does
on x86-64, in the four cost kinds:

- scalar integer (``i1``/``i8``/``i16``/``i32``/``i64``/``i128``/``i256``/``i512``,
  and the widths between them as the next one), pointer and floating-point (``half``, ``float``,
  ``double``, ``x86_fp80``, ``fp128``) binary operators (by the second operand's kind:
  variable, constant, power of two, negated power of two), ``fneg``, compares,
  selects, loads, stores (a stored FP or non-zero vector constant adds its
  materialisation to the throughput; outside throughput a store through a
  ``getelementptr`` with a variable index costs 2), casts (a ``zext``/``sext``/``fpext`` of a load
  priced as LLVM's extending-load context), ``memcpy`` and the common intrinsics
  (``ctlz``/``cttz``/``ctpop``/``bswap``/``bitreverse``/``abs``, min/max, saturating and
  overflow arithmetic, funnel shifts, the FP math intrinsics);
- vectors of ``i1``..``i64``/``float``/``double`` up to 512 bits (the SSE2-legal 128-bit
  types, narrower ones, one-lane ones and the wider ones split in parts): binary operators (splat
  or non-splat constants), ``fneg``, compares and selects on a compare by predicate,
  loads, stores, casts between same-length vectors, ``extractelement``/
  ``insertelement`` at a constant or a variable lane;
- those from the table of :mod:`.target_transform_info_x86_table`, measured with
  opt-19's ``print<cost-model>`` and re-checked against it by the tests;
- ``getelementptr``: free when its address is a legal x86 addressing mode (base
  register, index scaled by 1/2/4/8 — or 3/5/9 with no base register — and a signed
  32-bit displacement; a global base only when it is DSO-local, with a displacement
  under 16 MiB), as ``X86TargetLowering::isLegalAddressingMode``;
- control flow: ``br``/``switch``/``ret`` cost 0 in throughput and 1 otherwise, ``phi``
  is free in every kind; other calls as the target-independent model (as opt-19);
- :meth:`X86TargetTransformInfo.is_type_legal`: ``i8``..``i64``, pointers, ``float``,
  ``double``, ``x86_fp80`` and the 128-bit SSE2 vector types (used for lookup tables).

What it does not model (the target-independent answer is given instead):
``shufflevector``, vector types outside the measured ones (say ``<16 x i64>``, ``<3 x i32>``), vector
intrinsics, a select on a vector condition that is not a compare of its own type,
``insertelement`` into ``undef``/``poison``, splats of a variable as operands, integers
wider than 512 bits, intrinsics outside the table, the name-only
:meth:`get_intrinsic_instr_cost` query, other CPUs (``-mcpu``/``target-cpu``
attributes), i386/x32, and the large or kernel code models.
"""

from __future__ import annotations

from llvmpy_mid.analysis.target_transform_info import (
    TCC_BASIC,
    TCC_FREE,
    TCK_RECIP_THROUGHPUT,
    TCK_SIZE_AND_LATENCY,
    InstructionCost,
    TargetTransformInfo,
    _logical_op_operands,
)
from llvmpy_mid.analysis.target_transform_info_x86_table import X86_64_COST_ROWS
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, UndefValue, get_splat_value
from llvmpy_mid.ir.global_value import GlobalValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst, intrinsic_base_name
from llvmpy_mid.ir.instructions.cmp import CmpInst
from llvmpy_mid.ir.instructions.memory import LoadInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import ArrayType, FloatingPointType, IntegerType, PointerType, StructType, Type, VectorType
from llvmpy_mid.ir.value import Value


def _load_table(text: str) -> dict[str, tuple[int, int, int, int]]:
    table: dict[str, tuple[int, int, int, int]] = {}
    for row in text.splitlines():
        fields = row.split()
        if len(fields) < 5:
            continue
        table[" ".join(fields[:-4])] = (int(fields[-4]), int(fields[-3]), int(fields[-2]), int(fields[-1]))
    return table


_COSTS = _load_table(X86_64_COST_ROWS)

_INT_NAMES = {8: "i8", 16: "i16", 32: "i32", 64: "i64", 128: "i128", 256: "i256", 512: "i512"}
_BINARY = frozenset(
    ("add", "fadd", "sub", "fsub", "mul", "fmul", "udiv", "sdiv", "fdiv", "urem", "srem", "frem", "shl", "lshr",
     "ashr", "and", "or", "xor")
)
_CASTS = frozenset(
    ("inttoptr", "ptrtoint", "sitofp", "uitofp", "fptoui", "fptosi", "trunc", "fptrunc", "bitcast", "fpext",
     "sext", "zext")
)
_FLAG_INTRINSICS = frozenset(("llvm.ctlz", "llvm.cttz", "llvm.abs"))
_SAT_CONVERSIONS = frozenset(("llvm.fptosi.sat", "llvm.fptoui.sat"))
_ROUND_TO_INT = frozenset(("llvm.lrint", "llvm.llrint", "llvm.lround", "llvm.llround"))
_LEGAL_VECTORS = frozenset(((16, 8), (8, 16), (4, 32), (2, 64)))
_SMALL_CODE_MODEL_LIMIT = 16 * 1024 * 1024


def _type_name(ty: Type) -> str | None:
    """The table's name of a scalar type, or None when the table has no rows for it."""
    if isinstance(ty, IntegerType):
        # Type legalization: a width between the measured ones is promoted to the next
        # (i24 costs as i32, i96 as i128, i136 as i256); wider than i512 is not modelled.
        w = ty.width
        if w == 1:
            return "i1"
        for legal in (8, 16, 32, 64, 128, 256, 512):
            if w <= legal:
                return _INT_NAMES[legal]
        return None
    if isinstance(ty, FloatingPointType):
        name = str(ty)
        return name if name in ("half", "float", "double", "x86_fp80", "fp128") else None
    if isinstance(ty, PointerType):
        return "ptr" if ty.address_space == 0 else None
    if isinstance(ty, VectorType) and not ty.scalable:
        elt = ty.element_type
        if isinstance(elt, IntegerType):
            lane = "i%d" % elt.width
        elif isinstance(elt, FloatingPointType) and str(elt) in ("float", "double"):
            lane = "f32" if str(elt) == "float" else "f64"
        else:
            return None
        return "v%d%s" % (ty.count, lane)
    return None


def _lane_class(c: ConstantInt) -> str:
    ty = c.type
    assert isinstance(ty, IntegerType)
    x = c.value & ty.mask
    if x and not x & (x - 1):
        return "p"
    neg = -x & ty.mask
    if neg and not neg & (neg - 1):
        return "n"
    return "c"


def _operand_class(v: Value | None) -> str:
    """LLVM ``getOperandInfo``: variable (``v``); a scalar or splat constant (``c``),
    power of two (``p``) or negated power of two (``n``); a non-splat constant vector
    (``k``, ``kp`` when every lane is a power of two)."""
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        if isinstance(v, UndefValue):
            return "v"
        splat = get_splat_value(v)
        if isinstance(splat, ConstantInt):
            return _lane_class(splat)
        lanes = [v.get_aggregate_element(i) for i in range(v.type.count)]
        if lanes and all(isinstance(x, ConstantInt) and _lane_class(x) == "p" for x in lanes):
            return "kp"
        return "k"
    c: Constant | None = None
    if isinstance(v, ConstantInt):
        c = v
    elif isinstance(v, Constant):
        splat = get_splat_value(v)
        if isinstance(splat, ConstantInt):
            c = splat
    if not isinstance(c, ConstantInt):
        return "c" if isinstance(v, Constant) else "v"
    return _lane_class(c)


def _is_legal_scale(scale: int, has_base_reg: bool) -> bool:
    if scale in (0, 1, 2, 4, 8):
        return True
    return scale in (3, 5, 9) and not has_base_reg


class X86TargetTransformInfo(TargetTransformInfo):
    """opt-19's answers for x86-64 (``X86TTIImpl``, generic CPU); see the module docstring."""

    __slots__ = ()

    def _row(self, key: str, kind: int) -> InstructionCost | None:
        costs = _COSTS.get(key)
        return None if costs is None else InstructionCost(costs[kind])

    # --- type legality ----------------------------------------------------------------------

    def should_build_rel_lookup_tables(self) -> bool:
        """``BasicTTIImpl::shouldBuildRelLookupTables``: position-independent code outside the
        medium and large code models (x86-64 is a 64-bit architecture)."""
        from llvmpy_mid.analysis.target_codegen_options import code_model, x86_relocation_model

        module = self.function.parent if self.function is not None else None
        triple = module.target_triple if module is not None else ""
        return x86_relocation_model(triple) == "pic" and code_model() not in ("medium", "large")

    def is_type_legal(self, ty: Type) -> bool:
        """``isTypeLegal``: a type the generic x86-64 CPU holds in one register."""
        if isinstance(ty, IntegerType):
            return ty.width in (8, 16, 32, 64)
        if isinstance(ty, PointerType):
            return ty.address_space == 0
        if isinstance(ty, FloatingPointType):
            return str(ty) in ("float", "double", "x86_fp80")
        if isinstance(ty, VectorType) and not ty.scalable:
            elt = ty.element_type
            if isinstance(elt, IntegerType):
                return (ty.count, elt.width) in _LEGAL_VECTORS
            if isinstance(elt, FloatingPointType):
                return (ty.count, str(elt)) in ((4, "float"), (2, "double"))
        return False

    # --- the individual queries -------------------------------------------------------------

    def get_arithmetic_instr_cost(
        self, opcode: str, ty: Type, kind: int, args: list[Value] | None = None
    ) -> InstructionCost:
        name = _type_name(ty)
        if name is not None and opcode in _BINARY:
            if opcode in ("and", "or") and args is not None and any(
                isinstance(a, CallInst) and a.intrinsic_name == "llvm.experimental.widenable.condition" for a in args
            ):
                return InstructionCost(TCC_FREE)
            cls = "v"
            if isinstance(ty.scalar_type, IntegerType) and args is not None and len(args) > 1:
                shift_amount = args[1]
                cls = _operand_class(shift_amount)
                if opcode in ("shl", "lshr", "ashr") and isinstance(ty, VectorType) and isinstance(
                        shift_amount, Constant) and shift_amount.is_null_value:
                    cls = "v"  # opt-19 prices a vector shift by zeroinitializer as a variable shift
            cost = self._row("bin %s %s %s" % (opcode, name, cls), kind)
            if cost is not None:
                return cost
        elif name is not None and opcode == "fneg":
            cost = self._row("fneg " + name, kind)
            if cost is not None:
                return cost
        return super().get_arithmetic_instr_cost(opcode, ty, kind, args)

    def get_cmp_sel_instr_cost(self, opcode: str, val_ty: Type | None, cond_ty: Type | None, kind: int) -> InstructionCost:
        name = _type_name(val_ty) if val_ty is not None else None
        if name is not None:
            if opcode == "select":
                key = "select " + name
            elif isinstance(val_ty, VectorType):
                pred = "eq" if opcode == "icmp" else "oeq"
                key = "%s %s %s" % ("vicmp" if opcode == "icmp" else "fcmp", pred, name)
            elif opcode == "icmp" or (opcode == "fcmp" and isinstance(val_ty, PointerType)):
                key = "icmp " + name
            else:
                key = "fcmp oeq " + name
            cost = self._row(key, kind)
            if cost is not None:
                return cost
        return super().get_cmp_sel_instr_cost(opcode, val_ty, cond_ty, kind)

    def get_cast_instr_cost(self, opcode: str, dst: Type, src: Type, kind: int = TCK_SIZE_AND_LATENCY,
                            from_load: bool = False) -> InstructionCost:
        """Cost of a cast; ``from_load`` when its operand is a load (an extending load
        may absorb a ``zext``/``sext``)."""
        d, s = _type_name(dst), _type_name(src)
        if d is not None and s is not None:
            if opcode == "bitcast" and dst is src:
                return InstructionCost(TCC_FREE)
            prefix = "castL" if from_load and opcode in ("zext", "sext", "fpext") else "cast"
            cost = self._row("%s %s %s %s" % (prefix, opcode, d, s), kind)
            if cost is not None:
                return cost
        return super().get_cast_instr_cost(opcode, dst, src)

    def get_call_intrinsic_cost(self, call: CallInst, kind: int) -> InstructionCost:
        """Cost of an intrinsic call, from its name and operand types."""
        name = intrinsic_base_name(call.intrinsic_name)
        args = call.args
        cost: InstructionCost | None = None
        if args:
            arg_ty = args[0].type
            if name in _SAT_CONVERSIONS:
                rn, an = _type_name(call.type), _type_name(arg_ty)
                if rn is not None and an is not None:
                    cost = self._row("intr %s %s %s" % (name, rn, an), kind)
            else:
                tn = _type_name(arg_ty)
                if tn is not None:
                    extra = "-"
                    if name in _FLAG_INTRINSICS and len(args) > 1 and isinstance(args[1], ConstantInt):
                        extra = "true" if args[1].value else "false"
                    elif name in _ROUND_TO_INT:
                        extra = _type_name(call.type) or "?"
                    cost = self._row("intr %s %s %s" % (name, tn, extra), kind)
        if cost is not None:
            return cost
        if name == "llvm.memcpy":
            return InstructionCost(4)  # BasicTTIImpl's getMemcpyCost: TCC_Expensive in every kind.
        return self.get_intrinsic_instr_cost(call.intrinsic_name)

    def get_gep_cost(self, source_ty: Type, ptr: Value, indices: list[Value]) -> InstructionCost:
        """Free when the address is a legal x86 addressing mode (``isLegalAddressingMode``)."""
        base = strip_pointer_casts(ptr)
        base_gv = base if isinstance(base, GlobalValue) else None
        if not indices:
            return InstructionCost(TCC_BASIC if base_gv is not None else TCC_FREE)
        dl = self._dl
        bits = dl.pointer_type_size_in_bits(ptr.type)
        offset = 0
        scale = 0
        cur: Type = source_ty
        for k, idx in enumerate(indices):
            if k == 0:
                indexed: Type = cur
                is_vector = False
            elif isinstance(cur, StructType):
                field = idx.value if isinstance(idx, ConstantInt) else 0
                if not isinstance(idx, ConstantInt) and isinstance(idx, Constant):
                    splat = get_splat_value(idx)
                    field = splat.value if isinstance(splat, ConstantInt) else 0
                offset += dl.struct_layout(cur).element_offset(field)
                cur = cur.elements[field]
                continue
            elif isinstance(cur, (ArrayType, VectorType)):
                indexed = cur.element_type
                is_vector = isinstance(cur, VectorType)
            else:
                indexed = cur
                is_vector = False
            const_idx: ConstantInt | None = idx if isinstance(idx, ConstantInt) else None
            if const_idx is None and isinstance(idx, Constant):
                splat = get_splat_value(idx)
                if isinstance(splat, ConstantInt):
                    const_idx = splat
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
        # The offset wraps at the pointer width, then is read as a signed 64-bit value.
        offset &= (1 << bits) - 1
        if offset >> (bits - 1):
            offset -= 1 << bits
        if self._is_legal_addressing_mode(base_gv, offset, base_gv is None, scale):
            return InstructionCost(TCC_FREE)
        return InstructionCost(TCC_BASIC)

    @staticmethod
    def _is_legal_addressing_mode(base_gv: GlobalValue | None, offset: int, has_base_reg: bool, scale: int) -> bool:
        """``X86TargetLowering::isLegalAddressingMode`` (64-bit, static, small code model)."""
        if not -(1 << 31) <= offset < (1 << 31):
            return False
        if base_gv is not None:
            if offset >= _SMALL_CODE_MODEL_LIMIT:
                return False
            # A global that is not DSO-local is reached through the GOT: an extra load.
            if not base_gv.is_dso_local:
                return False
        return _is_legal_scale(scale, has_base_reg)

    # --- the cost of an instruction ---------------------------------------------------------

    def get_instruction_cost(self, u: Value, kind: int = TCK_SIZE_AND_LATENCY) -> InstructionCost:
        if isinstance(u, Instruction):
            opcode = u.opcode
        elif isinstance(u, ConstantExpr):
            opcode = u.opcode
        else:
            return super().get_instruction_cost(u, kind)
        if opcode == "phi":
            return InstructionCost(0)
        if opcode in ("br", "switch", "ret"):
            return InstructionCost(0 if kind == TCK_RECIP_THROUGHPUT else 1)
        if isinstance(u, CallInst):
            if u.is_intrinsic_call:
                return self.get_call_intrinsic_cost(u, kind)
            return super().get_instruction_cost(u, kind)
        if opcode in _BINARY:
            ops = self._operands(u)
            return self.get_arithmetic_instr_cost(opcode, u.type, kind, ops)
        if opcode in _CASTS:
            src = self._operands(u)[0]
            return self.get_cast_instr_cost(opcode, u.type, src.type, kind, isinstance(src, LoadInst))
        if opcode == "fneg":
            return self.get_arithmetic_instr_cost(opcode, u.type, kind, self._operands(u))
        if opcode in ("icmp", "fcmp"):
            op_ty = self._operands(u)[0].type
            if isinstance(op_ty, VectorType) and isinstance(u, CmpInst):
                name = _type_name(op_ty)
                head = "fcmp"
                if opcode == "icmp":
                    rhs = self._operands(u)[1]
                    head = "vicmp" if not isinstance(rhs, Constant) else ("vicmpz" if rhs.is_null_value else "vicmpc")
                vkey = "%s %s %s" % (head, _predicate_name(u), name)
                cost = self._row(vkey, kind) if name is not None else None
                if cost is not None:
                    return cost
                return super().get_instruction_cost(u, kind)
            return self.get_cmp_sel_instr_cost(opcode, op_ty, u.type, kind)
        if opcode == "select":
            ops = self._operands(u)
            logical = _logical_op_operands(ops, u.type)
            if logical is not None:
                return self.get_arithmetic_instr_cost("and", u.type, kind, logical)
            cond = ops[0]
            if isinstance(cond.type, IntegerType):
                return self.get_cmp_sel_instr_cost("select", u.type, cond.type, kind)
            name = _type_name(u.type)
            if name is not None and isinstance(cond, CmpInst) and cond.lhs.type is u.type:
                cost = self._row("vselect %s %s" % (_predicate_name(cond), name), kind)
                if cost is not None:
                    return cost
        elif opcode in ("extractelement", "insertelement"):
            ops = self._operands(u)
            vec_ty = ops[0].type
            idx = ops[1] if opcode == "extractelement" else ops[2]
            name = _type_name(vec_ty)
            # Inserting into an undefined vector is priced differently: not modelled.
            if name is not None and not (opcode == "insertelement" and isinstance(ops[0], UndefValue)):
                assert isinstance(vec_ty, VectorType)
                if isinstance(idx, ConstantInt):
                    # LLVM reads the lane as a 32-bit unsigned number, all ones meaning "unknown".
                    bits = idx.value & 0xFFFFFFFF
                    lane = "x" if bits == 0xFFFFFFFF else str(bits % vec_ty.count)
                else:
                    lane = "x" if not isinstance(idx, Constant) else "?"
                cost = self._row("%s %s %s" % (opcode, name, lane), kind)
                if cost is not None:
                    return cost
        elif opcode in ("load", "store") and isinstance(u, Instruction):
            stored = self._operands(u)[0] if opcode == "store" else None
            ty = u.type if stored is None else stored.type
            name = _type_name(ty)
            if name is not None:
                cost = self._row("%s %s" % (opcode, name), kind)
                if cost is not None:
                    if stored is not None:
                        if kind == TCK_RECIP_THROUGHPUT:
                            cost = cost + _store_immediate_cost(stored, cost)
                        elif _has_variable_gep_address(self._operands(u)[1]):
                            return InstructionCost(2 * TCC_BASIC)  # an indexed store is two micro-ops
                    return cost
        return super().get_instruction_cost(u, kind)

    @staticmethod
    def _operands(u: Value) -> list[Value]:
        if isinstance(u, Instruction):
            return [use.value for use in u._operands]
        assert isinstance(u, ConstantExpr)
        return list(u.operands)


def _has_variable_gep_address(ptr: Value) -> bool:
    """The address is a ``getelementptr`` instruction with a non-constant index."""
    if not isinstance(ptr, Instruction) or ptr.opcode != "getelementptr":
        return False
    return any(not isinstance(use.value, Constant) for use in ptr._operands[1:])


def _store_immediate_cost(stored: Value, store_cost: InstructionCost) -> InstructionCost:
    """Throughput of materialising a stored constant (``getStoreImmCost``): an FP
    constant is loaded from the constant pool first; a vector constant other than zero
    once per register stored; integers are immediates."""
    if not isinstance(stored, Constant) or isinstance(stored, UndefValue):
        return InstructionCost(0)
    ty = stored.type
    if isinstance(ty, VectorType):
        return InstructionCost(0) if stored.is_null_value else store_cost
    return InstructionCost(1 if isinstance(ty, FloatingPointType) else 0)


def _predicate_name(cmp: CmpInst) -> str:
    """``icmp``/``fcmp`` predicate keyword (``slt``, ``oeq``, ...)."""
    return cmp.predicate.name.split("_", 1)[1].lower()


def is_x86_64_triple(triple: str) -> bool:
    """The triple's architecture is x86-64 (``x86_64``/``amd64``; not the x32 ABI)."""
    arch = triple.split("-", 1)[0]
    return arch in ("x86_64", "amd64", "x86_64h") and not triple.endswith("gnux32")


__all__ = ["X86TargetTransformInfo", "is_x86_64_triple"]
