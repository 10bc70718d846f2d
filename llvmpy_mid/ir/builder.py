"""``IRBuilder``: create instructions at an insertion point (LLVM ``IRBuilder``).

The builder inserts each new instruction before a chosen instruction or at the
end of a block, names it, gives it the builder's current debug location and
default fast-math flags, and returns it. There is one method per instruction
(``add``, ``load``, ``call``, ``cond_br`` ...) taking the instruction's flags
as keyword arguments.

The typed methods (``add`` ...) always create the instruction they name, so
their results are precisely typed. The ``create_*`` methods are LLVM's
``IRBuilder::Create*``: they first ask the builder's ``folder`` (an
:class:`~llvmpy_mid.ir.folders.IRBuilderFolder`, e.g. ``ConstantFolder()``;
None folds nothing) and return its value when it has one, so their result is
a :class:`Value`. An ``inserter`` callback, when set, is called with every
instruction the builder inserts (LLVM ``IRBuilderCallbackInserter``; a pass
uses it to put new instructions on its worklist).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, NoReturn, Sequence, TypeVar, Union

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import (
    AddInst,
    AndInst,
    AShrInst,
    BinaryOperator,
    FAddInst,
    FDivInst,
    FMulInst,
    FRemInst,
    FSubInst,
    LShrInst,
    MulInst,
    OrInst,
    SDivInst,
    ShlInst,
    SRemInst,
    SubInst,
    UDivInst,
    UnaryOperator,
    URemInst,
    XorInst,
)
from llvmpy_mid.ir.instructions.calls import BundleLike, CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.eh import (
    CatchPadInst,
    CatchReturnInst,
    CatchSwitchInst,
    CleanupPadInst,
    CleanupReturnInst,
    LandingPadInst,
)
from llvmpy_mid.ir.instructions.flags import (
    AtomicOrdering,
    AtomicRMWBinOp,
    FastMathFlags,
    GEPFlags,
    TailCallKind,
    type_supports_fast_math_flags,
)
from llvmpy_mid.ir.instructions.memory import (
    AllocaInst,
    AtomicCmpXchgInst,
    AtomicRMWInst,
    FenceInst,
    GetElementPtrInst,
    LoadInst,
    StoreInst,
)
from llvmpy_mid.ir.instructions.other import FreezeInst, PHINode, SelectInst, VAArgInst
from llvmpy_mid.ir.instructions.terminators import (
    BranchInst,
    CallBrInst,
    IndirectBrInst,
    InvokeInst,
    ResumeInst,
    ReturnInst,
    SwitchInst,
    UnreachableInst,
)
from llvmpy_mid.ir.instructions.vector import (
    ExtractElementInst,
    ExtractValueInst,
    InsertElementInst,
    InsertValueInst,
    ShuffleVectorInst,
)
from llvmpy_mid.ir.types import FunctionType, Type, VectorType, mismatch_text
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.attributes import AttributeList
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.ir.folders import IRBuilderFolder
    from llvmpy_mid.ir.metadata import MDNode

I = TypeVar("I", bound=Instruction)


def _predicate(pred: Predicate | str, fp: bool) -> Predicate:
    if isinstance(pred, Predicate):
        return pred
    return Predicate.from_keyword(pred, fp)


class IRBuilder:
    """Inserts new instructions at one place: before ``insert_before`` in ``block``,
    or at the end of ``block`` when ``insert_before`` is None."""

    __slots__ = ("block", "insert_before", "debug_loc", "fast_math_flags", "folder", "inserter", "_ctx", "_void")

    block: BasicBlock | None
    insert_before: Instruction | None
    debug_loc: MDNode | None
    fast_math_flags: FastMathFlags
    folder: IRBuilderFolder | None
    inserter: Callable[[Instruction], object] | None

    def __init__(
        self,
        block: BasicBlock | None = None,
        before: Instruction | None = None,
        *,
        folder: IRBuilderFolder | None = None,
        inserter: Callable[[Instruction], object] | None = None,
    ) -> None:
        if block is not None and not isinstance(block, BasicBlock):
            _not_a_block("IRBuilder(block)", block)
        self.folder = folder
        """Asked by the ``create_*`` methods before they create an instruction."""
        self.inserter = inserter
        """Called with each instruction the builder inserts."""
        self.block = None
        self.insert_before = None
        self.debug_loc = None
        """Attached as ``!dbg`` to every instruction the builder creates."""
        self.fast_math_flags = FastMathFlags(0)
        """Default fast-math flags for floating-point operations."""
        self._ctx: Context | None = None
        self._void: Type | None = None
        if before is not None:
            self.position_before(before)
        elif block is not None:
            self.position_at_end(block)

    # --- positioning --------------------------------------------------------------
    def position_at_end(self, block: BasicBlock) -> None:
        if not isinstance(block, BasicBlock):
            _not_a_block("position_at_end", block)
        self.block = block
        self.insert_before = None
        self._ctx = block.type.context
        self._void = self._ctx.void

    def position_at_start(self, block: BasicBlock) -> None:
        """Before the first instruction that is not a phi (or at the end of an empty block)."""
        if not isinstance(block, BasicBlock):
            _not_a_block("position_at_start", block)
        self.block = block
        self.insert_before = block.first_non_phi
        self._ctx = block.type.context
        self._void = self._ctx.void

    def position_before(self, inst: Instruction) -> None:
        if not isinstance(inst, Instruction):
            raise TypeError("position_before needs an Instruction, not %s" % type(inst).__name__)
        if inst.parent is None:
            raise IRError("position_before: the instruction is not in a block")
        self.block = inst.parent
        self.insert_before = inst
        self._ctx = inst.type.context
        self._void = self._ctx.void

    def position_after(self, inst: Instruction) -> None:
        if not isinstance(inst, Instruction):
            raise TypeError("position_after needs an Instruction, not %s" % type(inst).__name__)
        if inst.parent is None:
            raise IRError("position_after: the instruction is not in a block")
        self.block = inst.parent
        self.insert_before = inst._next
        self._ctx = inst.type.context
        self._void = self._ctx.void

    @property
    def context(self) -> Context:
        if self._ctx is None:
            raise IRError("the builder has no insertion point")
        return self._ctx

    @property
    def function(self) -> Function | None:
        return self.block.parent if self.block is not None else None

    # --- insertion -------------------------------------------------------------------
    def insert(self, inst: I, name: str = "") -> I:
        """Insert an instruction made elsewhere (detached, not erased) at the builder's position."""
        if not isinstance(inst, Instruction):
            raise TypeError("IRBuilder.insert needs an Instruction, not %s" % type(inst).__name__)
        inst._check_detached()
        if self._ctx is not None and inst.type.context is not self._ctx:
            raise IRError("%r belongs to a different Context than the builder's block" % inst)
        return self._put(inst, name)

    def _put(self, inst: I, name: str = "") -> I:
        block = self.block
        if block is None:
            raise IRError("the builder has no insertion point")
        if name:
            if type(name) is not str:
                inst.drop_all_references()
                raise TypeError("the instruction name must be a str, not %s (flags are keyword arguments)" % type(name).__name__)
            if inst.type is self._void:
                raise IRError("cannot name a value of type void")
            inst._name = name
        if self.debug_loc is not None and inst._md is None:
            inst._md = {0: self.debug_loc}
        before = self.insert_before
        if before is None:
            block._append_instruction(inst)
        else:
            block.instructions.insert_before(inst, before)
        if self.inserter is not None:
            self.inserter(inst)
        return inst

    # --- folding creation (LLVM ``IRBuilder::Create*``) ------------------------------------------
    def create_bin_op(
        self,
        opcode: str,
        lhs: Operand,
        rhs: Operand,
        name: str = "",
        *,
        nuw: bool = False,
        nsw: bool = False,
        exact: bool = False,
        disjoint: bool = False,
    ) -> Value:
        """``opcode lhs, rhs`` folded by the folder when it can, else created (flags as in ``binop``)."""
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair(opcode, lhs, rhs)
        folder = self.folder
        if folder is not None:
            v = folder.fold_bin_op(opcode, lhs, rhs, nuw, nsw)
            if v is not None:
                return v
        flags: dict[str, bool] = {}
        if nuw:
            flags["nuw"] = True
        if nsw:
            flags["nsw"] = True
        if exact:
            flags["exact"] = True
        if disjoint:
            flags["disjoint"] = True
        return self.binop(opcode, lhs, rhs, name, **flags)

    def create_add(self, lhs: Operand, rhs: Operand, name: str = "", *, nuw: bool = False, nsw: bool = False) -> Value:
        return self.create_bin_op("add", lhs, rhs, name, nuw=nuw, nsw=nsw)

    def create_sub(self, lhs: Operand, rhs: Operand, name: str = "", *, nuw: bool = False, nsw: bool = False) -> Value:
        return self.create_bin_op("sub", lhs, rhs, name, nuw=nuw, nsw=nsw)

    def create_mul(self, lhs: Operand, rhs: Operand, name: str = "", *, nuw: bool = False, nsw: bool = False) -> Value:
        return self.create_bin_op("mul", lhs, rhs, name, nuw=nuw, nsw=nsw)

    def create_shl(self, lhs: Operand, rhs: Operand, name: str = "", *, nuw: bool = False, nsw: bool = False) -> Value:
        return self.create_bin_op("shl", lhs, rhs, name, nuw=nuw, nsw=nsw)

    def create_lshr(self, lhs: Operand, rhs: Operand, name: str = "", *, exact: bool = False) -> Value:
        return self.create_bin_op("lshr", lhs, rhs, name, exact=exact)

    def create_ashr(self, lhs: Operand, rhs: Operand, name: str = "", *, exact: bool = False) -> Value:
        return self.create_bin_op("ashr", lhs, rhs, name, exact=exact)

    def create_and(self, lhs: Operand, rhs: Operand, name: str = "") -> Value:
        return self.create_bin_op("and", lhs, rhs, name)

    def create_or(self, lhs: Operand, rhs: Operand, name: str = "", *, disjoint: bool = False) -> Value:
        return self.create_bin_op("or", lhs, rhs, name, disjoint=disjoint)

    def create_xor(self, lhs: Operand, rhs: Operand, name: str = "") -> Value:
        return self.create_bin_op("xor", lhs, rhs, name)

    def create_neg(self, value: Value, name: str = "", *, nsw: bool = False) -> Value:
        """``sub 0, value`` (folded)."""
        _check_value("create_neg", "value", value)
        return self.create_bin_op("sub", _zero(value.type), value, name, nsw=nsw)

    def create_not(self, value: Value, name: str = "") -> Value:
        """``xor value, -1`` (folded)."""
        _check_value("create_not", "value", value)
        return self.create_bin_op("xor", value, _all_ones(value.type), name)

    def create_fneg(self, value: Value, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> Value:
        folder = self.folder
        if folder is not None:
            v = folder.fold_unary_op("fneg", value)
            if v is not None:
                return v
        return self.fneg(value, name, fast_math_flags=fast_math_flags)

    def create_cast(
        self, opcode: str, value: Value, dest_type: Type, name: str = "", *, nuw: bool = False, nsw: bool = False, nneg: bool = False
    ) -> Value:
        """A cast; ``value`` itself when it already has ``dest_type`` (as LLVM's ``CreateCast``)."""
        _check_value(opcode, "value", value)
        if value.type is dest_type:
            return value
        folder = self.folder
        if folder is not None:
            v = folder.fold_cast(opcode, value, dest_type)
            if v is not None:
                return v
        return self.cast(opcode, value, dest_type, name, nuw=nuw, nsw=nsw, nneg=nneg)

    def create_bit_or_pointer_cast(self, value: Value, dest_type: Type, name: str = "") -> Value:
        """``ptrtoint`` from a pointer to an integer, ``inttoptr`` the other way, else ``bitcast``
        (``value`` itself when the type is already ``dest_type``; LLVM ``CreateBitOrPointerCast``)."""
        src = value.type
        if src.is_ptr_or_ptr_vector and dest_type.is_int_or_int_vector:
            return self.create_cast("ptrtoint", value, dest_type, name)
        if src.is_int_or_int_vector and dest_type.is_ptr_or_ptr_vector:
            return self.create_cast("inttoptr", value, dest_type, name)
        return self.create_cast("bitcast", value, dest_type, name)

    def create_zext_or_bitcast(self, value: Value, dest_type: Type, name: str = "") -> Value:
        """LLVM ``CreateZExtOrBitCast``: ``value`` itself at ``dest_type``, a ``bitcast``
        between types of one scalar size (``getScalarSizeInBits``), else a ``zext``."""
        return self._cast_or_bitcast("zext", value, dest_type, name)

    def create_sext_or_bitcast(self, value: Value, dest_type: Type, name: str = "") -> Value:
        """LLVM ``CreateSExtOrBitCast`` (as :meth:`create_zext_or_bitcast`, with ``sext``)."""
        return self._cast_or_bitcast("sext", value, dest_type, name)

    def create_trunc_or_bitcast(self, value: Value, dest_type: Type, name: str = "") -> Value:
        """LLVM ``CreateTruncOrBitCast`` (as :meth:`create_zext_or_bitcast`, with ``trunc``)."""
        return self._cast_or_bitcast("trunc", value, dest_type, name)

    def _cast_or_bitcast(self, opcode: str, value: Value, dest_type: Type, name: str) -> Value:
        if value.type is dest_type:
            return value
        from llvmpy_mid.ir.constant_fold import scalar_size_in_bits

        if scalar_size_in_bits(value.type) == scalar_size_in_bits(dest_type):
            opcode = "bitcast"
        return self.create_cast(opcode, value, dest_type, name)

    def create_trunc(self, value: Value, dest_type: Type, name: str = "") -> Value:
        return self.create_cast("trunc", value, dest_type, name)

    def create_zext(self, value: Value, dest_type: Type, name: str = "", *, nneg: bool = False) -> Value:
        return self.create_cast("zext", value, dest_type, name, nneg=nneg)

    def create_sext(self, value: Value, dest_type: Type, name: str = "") -> Value:
        return self.create_cast("sext", value, dest_type, name)

    def create_zext_or_trunc(self, value: Value, dest_type: Type, name: str = "") -> Value:
        """zext, trunc or nothing, by the scalar widths (LLVM ``CreateZExtOrTrunc``)."""
        _check_value("create_zext_or_trunc", "value", value)
        src = value.type.scalar_type.width  # type: ignore[attr-defined]
        dst = dest_type.scalar_type.width  # type: ignore[attr-defined]
        if src < dst:
            return self.create_cast("zext", value, dest_type, name)
        if src > dst:
            return self.create_cast("trunc", value, dest_type, name)
        return value

    def create_sext_or_trunc(self, value: Value, dest_type: Type, name: str = "") -> Value:
        _check_value("create_sext_or_trunc", "value", value)
        src = value.type.scalar_type.width  # type: ignore[attr-defined]
        dst = dest_type.scalar_type.width  # type: ignore[attr-defined]
        if src < dst:
            return self.create_cast("sext", value, dest_type, name)
        if src > dst:
            return self.create_cast("trunc", value, dest_type, name)
        return value

    def create_icmp(self, predicate: Predicate | str, lhs: Operand, rhs: Operand, name: str = "") -> Value:
        lhs, rhs = self._cmp_operands("icmp", predicate, lhs, rhs)
        pred = _predicate(predicate, False)
        folder = self.folder
        if folder is not None:
            v = folder.fold_cmp(pred, lhs, rhs)
            if v is not None:
                return v
        return self.icmp(pred, lhs, rhs, name)

    def _cmp_operands(self, opcode: str, predicate: object, lhs: Operand, rhs: Operand) -> tuple[Value, Value]:
        if isinstance(lhs, Value) and isinstance(rhs, Value):
            return lhs, rhs
        _check_predicate(opcode, predicate)
        return self._pair(opcode, lhs, rhs)

    def create_fcmp(
        self,
        predicate: Predicate | str,
        lhs: Operand,
        rhs: Operand,
        name: str = "",
        *,
        fast_math_flags: FastMathFlags | int | None = None,
    ) -> Value:
        lhs, rhs = self._cmp_operands("fcmp", predicate, lhs, rhs)
        pred = _predicate(predicate, True)
        folder = self.folder
        if folder is not None:
            v = folder.fold_cmp(pred, lhs, rhs)
            if v is not None:
                return v
        return self.fcmp(pred, lhs, rhs, name, fast_math_flags=fast_math_flags)

    def create_select(
        self,
        condition: Value,
        true_value: Value,
        false_value: Value,
        name: str = "",
        *,
        fast_math_flags: FastMathFlags | int | None = None,
    ) -> Value:
        folder = self.folder
        if folder is not None and isinstance(condition, Value) and isinstance(true_value, Value) and isinstance(false_value, Value):
            v = folder.fold_select(condition, true_value, false_value)
            if v is not None:
                return v
        return self.select(condition, true_value, false_value, name, fast_math_flags=fast_math_flags)

    def create_is_null(self, value: Value, name: str = "") -> Value:
        """``icmp eq value, 0`` (LLVM ``CreateIsNull``)."""
        return self.create_icmp(Predicate.ICMP_EQ, value, _zero(value.type), name)

    def create_is_not_null(self, value: Value, name: str = "") -> Value:
        """``icmp ne value, 0`` (LLVM ``CreateIsNotNull``)."""
        return self.create_icmp(Predicate.ICMP_NE, value, _zero(value.type), name)

    def create_is_neg(self, value: Value, name: str = "") -> Value:
        """``icmp slt value, 0`` (LLVM ``CreateIsNeg``)."""
        return self.create_icmp(Predicate.ICMP_SLT, value, _zero(value.type), name)

    def create_is_not_neg(self, value: Value, name: str = "") -> Value:
        """``icmp sgt value, -1`` (LLVM ``CreateIsNotNeg``)."""
        return self.create_icmp(Predicate.ICMP_SGT, value, _all_ones(value.type), name)

    def create_logical_and(self, lhs: Value, rhs: Value, name: str = "") -> Value:
        """``select lhs, rhs, false`` (LLVM ``CreateLogicalAnd``)."""
        return self.create_select(lhs, rhs, _zero(rhs.type), name)

    def create_logical_or(self, lhs: Value, rhs: Value, name: str = "") -> Value:
        """``select lhs, true, rhs`` (LLVM ``CreateLogicalOr``)."""
        return self.create_select(lhs, _all_ones(rhs.type), rhs, name)

    def create_logical_op(self, opcode: str, lhs: Value, rhs: Value, name: str = "") -> Value:
        """``create_logical_and`` for ``"and"``, ``create_logical_or`` for ``"or"`` (LLVM ``CreateLogicalOp``)."""
        if opcode == "and":
            return self.create_logical_and(lhs, rhs, name)
        return self.create_logical_or(lhs, rhs, name)

    def create_freeze(self, value: Value, name: str = "") -> Value:
        """``freeze value``, never folded (LLVM ``CreateFreeze``)."""
        return self.freeze(value, name)

    def create_gep(
        self,
        source_element_type: Type,
        pointer: Value,
        indices: Sequence[Value],
        name: str = "",
        *,
        inbounds: bool = False,
        flags: GEPFlags | int = 0,
    ) -> Value:
        folder = self.folder
        if folder is not None and isinstance(pointer, Value) and all(isinstance(i, Value) for i in indices):
            word = int(flags) | (int(GEPFlags.INBOUNDS) if inbounds else 0)
            if word & 1:
                word |= 2
            v = folder.fold_gep(source_element_type, pointer, indices, word)
            if v is not None:
                return v
        return self.gep(source_element_type, pointer, indices, name, inbounds=inbounds, flags=flags)

    def create_extract_element(self, vector: Value, index: Value | int, name: str = "") -> Value:
        idx = self._index(index)
        folder = self.folder
        if folder is not None:
            v = folder.fold_extract_element(vector, idx)
            if v is not None:
                return v
        return self.extract_element(vector, idx, name)

    def create_insert_element(self, vector: Value, element: Value, index: Value | int, name: str = "") -> Value:
        idx = self._index(index)
        folder = self.folder
        if folder is not None:
            v = folder.fold_insert_element(vector, element, idx)
            if v is not None:
                return v
        return self.insert_element(vector, element, idx, name)

    def create_shuffle_vector(self, v1: Value, v2: Value, mask: Sequence[int], name: str = "") -> Value:
        folder = self.folder
        if folder is not None:
            v = folder.fold_shuffle_vector(v1, v2, mask)
            if v is not None:
                return v
        return self.shuffle_vector(v1, v2, mask, name)

    def create_extract_value(self, aggregate: Value, indices: Sequence[int] | int, name: str = "") -> Value:
        idx = [indices] if isinstance(indices, int) else list(indices)
        folder = self.folder
        if folder is not None:
            v = folder.fold_extract_value(aggregate, idx)
            if v is not None:
                return v
        return self.extract_value(aggregate, idx, name)

    def create_insert_value(self, aggregate: Value, value: Value, indices: Sequence[int] | int, name: str = "") -> Value:
        idx = [indices] if isinstance(indices, int) else list(indices)
        folder = self.folder
        if folder is not None:
            v = folder.fold_insert_value(aggregate, value, idx)
            if v is not None:
                return v
        return self.insert_value(aggregate, value, idx, name)

    # --- intrinsics (LLVM ``IRBuilder::CreateIntrinsic`` and its unary/binary forms) -------------
    def create_intrinsic(
        self,
        base: str,
        overloads: Sequence[Type],
        args: Sequence[Value],
        name: str = "",
        *,
        return_type: Type | None = None,
        fmf_source: Instruction | None = None,
    ) -> CallInst:
        """A call of ``llvm.<base>`` mangled with ``overloads`` (declared in the module
        when missing, with LLVM's attributes); the parameter types are the arguments'
        types, the return type ``return_type`` (default: the first overload type). Fast-math
        flags come from ``fmf_source`` when given (LLVM ``CreateIntrinsic``)."""
        from llvmpy_mid.ir.intrinsics import intrinsic_declaration
        from llvmpy_mid.ir.type_mangling import intrinsic_name

        block = self.block
        fn = block.parent if block is not None else None
        module = fn.parent if fn is not None else None
        if module is None:
            raise IRError("create_intrinsic: the builder's block is not in a module")
        full = intrinsic_name("llvm." + base, list(overloads))
        if full is None:
            raise IRError("create_intrinsic: cannot mangle the overload types of llvm.%s" % base)
        ret = return_type if return_type is not None else _default_intrinsic_return(self.context, base, overloads[0])
        decl = intrinsic_declaration(module, full, self.context.function_type(ret, [a.type for a in args]))
        fmf = getattr(fmf_source, "fast_math_flags", None) if fmf_source is not None else None
        return self.call(decl, list(args), name, fast_math_flags=fmf)

    def create_unary_intrinsic(self, base: str, value: Value, name: str = "", *, fmf_source: Instruction | None = None) -> Value:
        """``CreateUnaryIntrinsic``: ``llvm.<base>`` of ``value``, overloaded on its type."""
        return self.create_intrinsic(base, [value.type], [value], name, fmf_source=fmf_source)

    def create_binary_intrinsic(
        self, base: str, lhs: Value, rhs: Value, name: str = "", *, fmf_source: Instruction | None = None
    ) -> Value:
        """``CreateBinaryIntrinsic``: ``llvm.<base>(lhs, rhs)`` overloaded on ``lhs``'s type; the
        folder's ``fold_binary_intrinsic`` (when it has one) folds constant operands first."""
        fold = getattr(self.folder, "fold_binary_intrinsic", None)
        if fold is not None:
            v: Value | None = fold(base, lhs, rhs, _default_intrinsic_return(self.context, base, lhs.type))
            if v is not None:
                return v
        return self.create_intrinsic(base, [lhs.type], [lhs, rhs], name, fmf_source=fmf_source)

    # --- unary and binary operators ------------------------------------------------------
    def add(self, lhs: Operand, rhs: Operand, name: str = "", *, nuw: bool = False, nsw: bool = False) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("add", lhs, rhs)
        return self._put(AddInst(lhs, rhs, nuw=nuw, nsw=nsw) if nuw or nsw else AddInst(lhs, rhs), name)

    def sub(self, lhs: Operand, rhs: Operand, name: str = "", *, nuw: bool = False, nsw: bool = False) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("sub", lhs, rhs)
        return self._put(SubInst(lhs, rhs, nuw=nuw, nsw=nsw) if nuw or nsw else SubInst(lhs, rhs), name)

    def mul(self, lhs: Operand, rhs: Operand, name: str = "", *, nuw: bool = False, nsw: bool = False) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("mul", lhs, rhs)
        return self._put(MulInst(lhs, rhs, nuw=nuw, nsw=nsw) if nuw or nsw else MulInst(lhs, rhs), name)

    def udiv(self, lhs: Operand, rhs: Operand, name: str = "", *, exact: bool = False) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("udiv", lhs, rhs)
        return self._put(UDivInst(lhs, rhs, exact=exact), name)

    def sdiv(self, lhs: Operand, rhs: Operand, name: str = "", *, exact: bool = False) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("sdiv", lhs, rhs)
        return self._put(SDivInst(lhs, rhs, exact=exact), name)

    def urem(self, lhs: Operand, rhs: Operand, name: str = "") -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("urem", lhs, rhs)
        return self._put(URemInst(lhs, rhs), name)

    def srem(self, lhs: Operand, rhs: Operand, name: str = "") -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("srem", lhs, rhs)
        return self._put(SRemInst(lhs, rhs), name)

    def shl(self, lhs: Operand, rhs: Operand, name: str = "", *, nuw: bool = False, nsw: bool = False) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("shl", lhs, rhs)
        return self._put(ShlInst(lhs, rhs, nuw=nuw, nsw=nsw) if nuw or nsw else ShlInst(lhs, rhs), name)

    def lshr(self, lhs: Operand, rhs: Operand, name: str = "", *, exact: bool = False) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("lshr", lhs, rhs)
        return self._put(LShrInst(lhs, rhs, exact=exact), name)

    def ashr(self, lhs: Operand, rhs: Operand, name: str = "", *, exact: bool = False) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("ashr", lhs, rhs)
        return self._put(AShrInst(lhs, rhs, exact=exact), name)

    def and_(self, lhs: Operand, rhs: Operand, name: str = "") -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("and", lhs, rhs)
        return self._put(AndInst(lhs, rhs), name)

    def or_(self, lhs: Operand, rhs: Operand, name: str = "", *, disjoint: bool = False) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("or", lhs, rhs)
        return self._put(OrInst(lhs, rhs, disjoint=True) if disjoint else OrInst(lhs, rhs), name)

    def xor(self, lhs: Operand, rhs: Operand, name: str = "") -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("xor", lhs, rhs)
        return self._put(XorInst(lhs, rhs), name)

    def _fmf(self, flags: FastMathFlags | int | None) -> FastMathFlags | int:
        return self.fast_math_flags if flags is None else flags

    def fadd(self, lhs: Operand, rhs: Operand, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("fadd", lhs, rhs)
        return self._put(FAddInst(lhs, rhs, fast_math_flags=self._fmf(fast_math_flags)), name)

    def fsub(self, lhs: Operand, rhs: Operand, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("fsub", lhs, rhs)
        return self._put(FSubInst(lhs, rhs, fast_math_flags=self._fmf(fast_math_flags)), name)

    def fmul(self, lhs: Operand, rhs: Operand, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("fmul", lhs, rhs)
        return self._put(FMulInst(lhs, rhs, fast_math_flags=self._fmf(fast_math_flags)), name)

    def fdiv(self, lhs: Operand, rhs: Operand, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("fdiv", lhs, rhs)
        return self._put(FDivInst(lhs, rhs, fast_math_flags=self._fmf(fast_math_flags)), name)

    def frem(self, lhs: Operand, rhs: Operand, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> BinaryOperator:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair("frem", lhs, rhs)
        return self._put(FRemInst(lhs, rhs, fast_math_flags=self._fmf(fast_math_flags)), name)

    def fneg(self, value: Value, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> UnaryOperator:
        return self._put(UnaryOperator(value, fast_math_flags=self._fmf(fast_math_flags)), name)

    def binop(self, opcode: str, lhs: Operand, rhs: Operand, name: str = "", **flags: bool) -> BinaryOperator:
        """Any binary operator by LLVM opcode name (``"add"``, ``"fmul"`` ...)."""
        if not isinstance(opcode, str):
            raise TypeError("binop(opcode, lhs, rhs): the opcode comes first, as a str such as 'add'")
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._pair(opcode, lhs, rhs)
        return self._put(BinaryOperator.create(opcode, lhs, rhs, **flags), name)  # type: ignore[arg-type]

    def neg(self, value: Value, name: str = "", *, nsw: bool = False) -> BinaryOperator:
        """``sub 0, value``."""
        _check_value("neg", "value", value)
        return self.sub(ConstantInt.get(value.type, 0) if value.type.is_integer else _zero(value.type), value, name, nsw=nsw)

    def not_(self, value: Value, name: str = "") -> BinaryOperator:
        """``xor value, -1``."""
        _check_value("not_", "value", value)
        return self.xor(value, _all_ones(value.type), name)

    # --- casts --------------------------------------------------------------------------
    def cast(self, opcode: str, value: Value, dest_type: Type, name: str = "", *, nuw: bool = False, nsw: bool = False, nneg: bool = False) -> CastInst:
        if not (isinstance(value, Value) and isinstance(dest_type, Type)):
            _check_value(opcode, "value", value)
            raise TypeError("%s(value, dest_type): dest_type must be a Type, not %s" % (opcode, type(dest_type).__name__))
        return self._put(CastInst.create(opcode, value, dest_type, nuw=nuw, nsw=nsw, nneg=nneg), name)

    def trunc(self, value: Value, dest_type: Type, name: str = "", *, nuw: bool = False, nsw: bool = False) -> CastInst:
        return self.cast("trunc", value, dest_type, name, nuw=nuw, nsw=nsw)

    def zext(self, value: Value, dest_type: Type, name: str = "", *, nneg: bool = False) -> CastInst:
        return self.cast("zext", value, dest_type, name, nneg=nneg)

    def sext(self, value: Value, dest_type: Type, name: str = "") -> CastInst:
        return self.cast("sext", value, dest_type, name)

    def fptrunc(self, value: Value, dest_type: Type, name: str = "") -> CastInst:
        return self.cast("fptrunc", value, dest_type, name)

    def fpext(self, value: Value, dest_type: Type, name: str = "") -> CastInst:
        return self.cast("fpext", value, dest_type, name)

    def fptoui(self, value: Value, dest_type: Type, name: str = "") -> CastInst:
        return self.cast("fptoui", value, dest_type, name)

    def fptosi(self, value: Value, dest_type: Type, name: str = "") -> CastInst:
        return self.cast("fptosi", value, dest_type, name)

    def uitofp(self, value: Value, dest_type: Type, name: str = "", *, nneg: bool = False) -> CastInst:
        return self.cast("uitofp", value, dest_type, name, nneg=nneg)

    def sitofp(self, value: Value, dest_type: Type, name: str = "") -> CastInst:
        return self.cast("sitofp", value, dest_type, name)

    def ptrtoint(self, value: Value, dest_type: Type, name: str = "") -> CastInst:
        return self.cast("ptrtoint", value, dest_type, name)

    def inttoptr(self, value: Value, dest_type: Type, name: str = "") -> CastInst:
        return self.cast("inttoptr", value, dest_type, name)

    def bitcast(self, value: Value, dest_type: Type, name: str = "") -> CastInst:
        return self.cast("bitcast", value, dest_type, name)

    def addrspacecast(self, value: Value, dest_type: Type, name: str = "") -> CastInst:
        return self.cast("addrspacecast", value, dest_type, name)

    # --- comparisons ---------------------------------------------------------------------
    def icmp(self, predicate: Predicate | str, lhs: Operand, rhs: Operand, name: str = "") -> ICmpInst:
        """``icmp``; ``predicate`` is a :class:`Predicate` or its keyword (``"slt"``)."""
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._cmp_operands("icmp", predicate, lhs, rhs)
        return self._put(ICmpInst(_predicate(predicate, False), lhs, rhs), name)

    def fcmp(
        self,
        predicate: Predicate | str,
        lhs: Operand,
        rhs: Operand,
        name: str = "",
        *,
        fast_math_flags: FastMathFlags | int | None = None,
    ) -> FCmpInst:
        if not (isinstance(lhs, Value) and isinstance(rhs, Value)):
            lhs, rhs = self._cmp_operands("fcmp", predicate, lhs, rhs)
        return self._put(FCmpInst(_predicate(predicate, True), lhs, rhs, fast_math_flags=self._fmf(fast_math_flags)), name)

    # --- memory ------------------------------------------------------------------------------
    def alloca(
        self,
        allocated_type: Type,
        array_size: Value | None = None,
        name: str = "",
        *,
        alignment: int = 0,
        address_space: int | None = None,
    ) -> AllocaInst:
        """An ``alloca``; the address space defaults to the module's alloca address space."""
        if not isinstance(allocated_type, Type):
            raise TypeError("alloca(allocated_type, array_size=None, name=''): the first argument must be a Type, not %s"
                            % type(allocated_type).__name__)
        if array_size is not None and not isinstance(array_size, Value):
            if isinstance(array_size, str):
                raise TypeError("alloca: the second argument is the array size; pass the name as name=%r" % array_size)
            if isinstance(array_size, int):
                array_size = ConstantInt.get(self.context.i32, array_size)
            else:
                _check_value("alloca", "array_size", array_size)
        if address_space is None:
            fn = self.function
            module = fn.parent if fn is not None else None
            address_space = module.data_layout.alloca_addr_space if module is not None else 0
        return self._put(AllocaInst(allocated_type, array_size, alignment=alignment, address_space=address_space), name)

    def load(
        self,
        type: Type,
        pointer: Value,
        name: str = "",
        *,
        alignment: int = 0,
        volatile: bool = False,
        ordering: AtomicOrdering = AtomicOrdering.NOT_ATOMIC,
        sync_scope: str = "",
    ) -> LoadInst:
        if not (isinstance(type, Type) and isinstance(pointer, Value)):
            if isinstance(type, Value) and isinstance(pointer, Type):
                raise TypeError("load(type, pointer): the loaded type comes first, then the pointer")
            if not isinstance(type, Type):
                raise TypeError("load(type, pointer): the first argument must be a Type, not %s" % _kind(type))
            _check_value("load", "pointer", pointer)
        return self._put(
            LoadInst(type, pointer, volatile=volatile, alignment=alignment, ordering=ordering, sync_scope=sync_scope), name
        )

    def store(
        self,
        value: Value,
        pointer: Value,
        *,
        alignment: int = 0,
        volatile: bool = False,
        ordering: AtomicOrdering = AtomicOrdering.NOT_ATOMIC,
        sync_scope: str = "",
    ) -> StoreInst:
        if not (isinstance(value, Value) and isinstance(pointer, Value)):
            _check_value("store", "pointer", pointer)
            if not isinstance(value, (bool, int, float)):
                _check_value("store", "value", value)
            raise TypeError("store(value, pointer): the value must be a Value, not %s (a constant needs its type:"
                            " ConstantInt.get(ctx.i32, %r))" % (_kind(value), value))
        return self._put(
            StoreInst(value, pointer, volatile=volatile, alignment=alignment, ordering=ordering, sync_scope=sync_scope)
        )

    def fence(self, ordering: AtomicOrdering, *, sync_scope: str = "") -> FenceInst:
        return self._put(FenceInst(self.context, ordering, sync_scope=sync_scope))

    def cmpxchg(
        self,
        pointer: Value,
        compare: Value,
        new_value: Value,
        success_ordering: AtomicOrdering,
        failure_ordering: AtomicOrdering,
        name: str = "",
        *,
        weak: bool = False,
        volatile: bool = False,
        alignment: int = 0,
        sync_scope: str = "",
    ) -> AtomicCmpXchgInst:
        inst = AtomicCmpXchgInst(
            pointer,
            compare,
            new_value,
            success_ordering,
            failure_ordering,
            weak=weak,
            volatile=volatile,
            alignment=alignment,
            sync_scope=sync_scope,
        )
        return self._put(inst, name)

    def atomicrmw(
        self,
        operation: AtomicRMWBinOp,
        pointer: Value,
        value: Value,
        ordering: AtomicOrdering,
        name: str = "",
        *,
        volatile: bool = False,
        alignment: int = 0,
        sync_scope: str = "",
    ) -> AtomicRMWInst:
        inst = AtomicRMWInst(
            operation, pointer, value, ordering, volatile=volatile, alignment=alignment, sync_scope=sync_scope
        )
        return self._put(inst, name)

    def gep(
        self,
        source_element_type: Type,
        pointer: Value,
        indices: Sequence[Value],
        name: str = "",
        *,
        inbounds: bool = False,
        flags: GEPFlags | int = 0,
    ) -> GetElementPtrInst:
        """``getelementptr``; ``inbounds=True`` adds the inbounds flag to ``flags``; Python ints
        in ``indices`` become ``i64`` constants."""
        if not (isinstance(source_element_type, Type) and isinstance(pointer, Value)):
            if isinstance(source_element_type, Value) and isinstance(pointer, Type):
                raise TypeError("gep(source_element_type, pointer, indices): the element type comes first, then the pointer")
            if not isinstance(source_element_type, Type):
                raise TypeError("gep: the first argument must be a Type, not %s" % _kind(source_element_type))
            _check_value("gep", "pointer", pointer)
        if isinstance(indices, (Value, int)):
            raise TypeError("gep: indices must be a list of values (e.g. [idx])")
        indices = [self._index(i) if not isinstance(i, Value) else i for i in indices]
        if inbounds:
            flags = int(flags) | int(GEPFlags.INBOUNDS)
        return self._put(GetElementPtrInst(source_element_type, pointer, indices, flags=flags), name)

    def struct_gep(self, struct_type: Type, pointer: Value, index: int, name: str = "") -> GetElementPtrInst:
        """``getelementptr inbounds %T, ptr %p, i32 0, i32 index``."""
        i32 = self.context.i32
        return self.gep(struct_type, pointer, [ConstantInt.get(i32, 0), ConstantInt.get(i32, index)], name, inbounds=True)

    # --- vectors and aggregates ---------------------------------------------------------------
    def extract_element(self, vector: Value, index: Value | int, name: str = "") -> ExtractElementInst:
        return self._put(ExtractElementInst(vector, self._index(index)), name)

    def insert_element(self, vector: Value, element: Value, index: Value | int, name: str = "") -> InsertElementInst:
        return self._put(InsertElementInst(vector, element, self._index(index)), name)

    def shuffle_vector(self, v1: Value, v2: Value, mask: Sequence[int], name: str = "") -> ShuffleVectorInst:
        return self._put(ShuffleVectorInst(v1, v2, mask), name)

    def extract_value(self, aggregate: Value, indices: Sequence[int] | int, name: str = "") -> ExtractValueInst:
        idx = [indices] if isinstance(indices, int) else list(indices)
        return self._put(ExtractValueInst(aggregate, idx), name)

    def insert_value(self, aggregate: Value, value: Value, indices: Sequence[int] | int, name: str = "") -> InsertValueInst:
        idx = [indices] if isinstance(indices, int) else list(indices)
        return self._put(InsertValueInst(aggregate, value, idx), name)

    def _index(self, index: Value | int) -> Value:
        if isinstance(index, Value):
            return index
        if isinstance(index, int):
            return ConstantInt.get(self.context.i64, index)
        raise TypeError("an index must be a Value or an int, not %s" % type(index).__name__)

    # --- operand checks (the slow path: only when an operand is not a Value) --------------------
    def _pair(self, opcode: str, lhs: object, rhs: object) -> tuple[Value, Value]:
        """Both operands as Values: a Python number becomes a constant of the other
        operand's type (``b.add(x, 1)``); anything else is a clear TypeError."""
        if isinstance(lhs, Value):
            if isinstance(rhs, Value):
                return lhs, rhs
            return lhs, _constant_like(opcode, lhs.type, rhs, "second")
        if isinstance(rhs, Value):
            return _constant_like(opcode, rhs.type, lhs, "first"), rhs
        if isinstance(lhs, (int, float)) and isinstance(rhs, (int, float)):
            raise TypeError(
                "%s: at least one operand must be a Value to give the type; got %r and %r"
                " (make a constant with ConstantInt.get(ctx.i32, n))" % (opcode, lhs, rhs)
            )
        bad, which = (lhs, "first") if not isinstance(lhs, (int, float)) else (rhs, "second")
        raise TypeError("%s: the %s operand must be a Value or a Python number, not %s" % (opcode, which, _kind(bad)))

    # --- other -----------------------------------------------------------------------------------
    def phi(self, type: Type, name: str = "", incoming: Sequence[tuple[Value, BasicBlock]] = ()) -> PHINode:
        """A phi; one of floating-point type gets the default fast-math flags (as LLVM's ``CreatePHI``)."""
        fmf = self.fast_math_flags if self.fast_math_flags and type_supports_fast_math_flags(type) else 0
        return self._put(PHINode(type, incoming, fast_math_flags=fmf), name)

    def select(
        self,
        condition: Value | bool,
        true_value: Operand,
        false_value: Operand,
        name: str = "",
        *,
        fast_math_flags: FastMathFlags | int | None = None,
    ) -> SelectInst:
        if not (isinstance(condition, Value) and isinstance(true_value, Value) and isinstance(false_value, Value)):
            if isinstance(condition, bool):
                condition = ConstantInt.get(self.context.i1, int(condition))
            elif not isinstance(condition, Value):
                raise TypeError("select: the condition must be an i1 Value or a bool, not %s" % type(condition).__name__)
            true_value, false_value = self._pair("select", true_value, false_value)
        elif true_value.type is not false_value.type:
            raise IRError("select: both values must have the same type (%s)" % mismatch_text(true_value.type, false_value.type))
        flags = self._fmf(fast_math_flags) if type_supports_fast_math_flags(true_value.type) else 0
        return self._put(SelectInst(condition, true_value, false_value, fast_math_flags=flags), name)

    def freeze(self, value: Value, name: str = "") -> FreezeInst:
        return self._put(FreezeInst(value), name)

    def va_arg(self, va_list: Value, type: Type, name: str = "") -> VAArgInst:
        return self._put(VAArgInst(va_list, type), name)

    def call(
        self,
        callee: Function | Value,
        args: Sequence[Value] = (),
        name: str = "",
        *,
        function_type: FunctionType | None = None,
        bundles: Iterable[BundleLike] = (),
        tail_call_kind: TailCallKind = TailCallKind.NONE,
        fast_math_flags: FastMathFlags | int | None = None,
        calling_conv: int | None = None,
        attributes: AttributeList | None = None,
    ) -> CallInst:
        """Call ``callee``. For a Function the type and calling convention come
        from it; for any other callee pass ``function_type``. Python numbers in
        ``args`` become constants of the parameter types."""
        if not isinstance(callee, Value):
            raise TypeError("call(callee, args): the callee must be a Function or a pointer Value, not %s" % _kind(callee))
        if isinstance(args, (Value, str)) or not isinstance(args, Sequence):
            raise TypeError("call(callee, args, name): args must be a list of values, e.g. [x, y], not %s" % _kind(args))
        if function_type is None:
            if not isinstance(callee, Function):
                raise IRError("an indirect call needs function_type")
            function_type = callee.function_type
        if calling_conv is None:
            calling_conv = callee.calling_conv if isinstance(callee, Function) else 0
        args = _call_args(function_type, args)
        ret = function_type.return_type
        fmf: FastMathFlags | int = 0
        if type_supports_fast_math_flags(ret):
            fmf = self._fmf(fast_math_flags)
        inst = CallInst(
            function_type,
            callee,
            args,
            bundles=bundles,
            tail_call_kind=tail_call_kind,
            fast_math_flags=fmf,
            calling_conv=calling_conv,
            attributes=attributes,
        )
        return self._put(inst, name if not ret.is_void else "")

    def invoke(
        self,
        callee: Function | Value,
        args: Sequence[Value],
        normal_dest: BasicBlock,
        unwind_dest: BasicBlock,
        name: str = "",
        *,
        function_type: FunctionType | None = None,
        bundles: Iterable[BundleLike] = (),
        calling_conv: int | None = None,
        attributes: AttributeList | None = None,
    ) -> InvokeInst:
        if function_type is None:
            if not isinstance(callee, Function):
                raise IRError("an indirect invoke needs function_type")
            function_type = callee.function_type
        if calling_conv is None:
            calling_conv = callee.calling_conv if isinstance(callee, Function) else 0
        inst = InvokeInst(
            function_type,
            callee,
            normal_dest,
            unwind_dest,
            args,
            bundles=bundles,
            calling_conv=calling_conv,
            attributes=attributes,
        )
        return self._put(inst, name if not function_type.return_type.is_void else "")

    def callbr(
        self,
        callee: Value,
        function_type: FunctionType,
        default_dest: BasicBlock,
        indirect_dests: Sequence[BasicBlock],
        args: Sequence[Value] = (),
        name: str = "",
        *,
        bundles: Iterable[BundleLike] = (),
        attributes: AttributeList | None = None,
    ) -> CallBrInst:
        inst = CallBrInst(function_type, callee, default_dest, indirect_dests, args, bundles=bundles, attributes=attributes)
        return self._put(inst, name if not function_type.return_type.is_void else "")

    # --- exception handling ---------------------------------------------------------------------
    def landingpad(self, type: Type, clauses: Sequence[Constant] = (), name: str = "", *, cleanup: bool = False) -> LandingPadInst:
        return self._put(LandingPadInst(type, clauses, cleanup=cleanup), name)

    def catchpad(self, catch_switch: Value, args: Sequence[Value] = (), name: str = "") -> CatchPadInst:
        return self._put(CatchPadInst(catch_switch, args), name)

    def cleanuppad(self, parent_pad: Value, args: Sequence[Value] = (), name: str = "") -> CleanupPadInst:
        return self._put(CleanupPadInst(parent_pad, args), name)

    def catchswitch(
        self, parent_pad: Value, unwind_dest: BasicBlock | None, handlers: Sequence[BasicBlock] = (), name: str = ""
    ) -> CatchSwitchInst:
        return self._put(CatchSwitchInst(parent_pad, unwind_dest, handlers), name)

    def catchret(self, catch_pad: Value, successor: BasicBlock) -> CatchReturnInst:
        return self._put(CatchReturnInst(catch_pad, successor))

    def cleanupret(self, cleanup_pad: Value, unwind_dest: BasicBlock | None = None) -> CleanupReturnInst:
        return self._put(CleanupReturnInst(cleanup_pad, unwind_dest))

    def resume(self, value: Value) -> ResumeInst:
        return self._put(ResumeInst(value))

    # --- terminators -------------------------------------------------------------------------------
    def ret(self, value: Operand | None = None) -> ReturnInst:
        """``ret``; a Python number becomes a constant of the function's return type."""
        if value is not None and not isinstance(value, Value):
            fn = self.function
            if fn is None or not isinstance(value, (bool, int, float)):
                raise TypeError("ret: the value must be a Value, not %s" % _kind(value))
            return self._put(ReturnInst(self.context, _constant_like("ret", fn.return_type, value, "")))
        return self._put(ReturnInst(self.context, value))

    def ret_void(self) -> ReturnInst:
        return self._put(ReturnInst(self.context))

    def br(self, dest: BasicBlock) -> BranchInst:
        if not isinstance(dest, BasicBlock):
            _not_a_block("br", dest)
        return self._put(BranchInst(dest))

    def cond_br(self, condition: Value, if_true: BasicBlock, if_false: BasicBlock) -> BranchInst:
        if not (
            isinstance(condition, Value)
            and not condition.is_basic_block
            and isinstance(if_true, BasicBlock)
            and isinstance(if_false, BasicBlock)
        ):
            if isinstance(condition, BasicBlock) or not isinstance(condition, Value):
                raise TypeError("cond_br(condition, if_true, if_false): the i1 condition comes first, not %s" % _kind(condition))
            _not_a_block("cond_br", if_true if not isinstance(if_true, BasicBlock) else if_false)
        return self._put(BranchInst(if_true, if_false, condition))

    def switch(
        self, condition: Value, default_dest: BasicBlock, cases: Sequence[tuple[ConstantInt, BasicBlock]] = ()
    ) -> SwitchInst:
        return self._put(SwitchInst(condition, default_dest, cases))

    def indirect_br(self, address: Value, destinations: Sequence[BasicBlock] = ()) -> IndirectBrInst:
        return self._put(IndirectBrInst(address, destinations))

    def unreachable(self) -> UnreachableInst:
        return self._put(UnreachableInst(self.context))


Operand = Union[Value, int, float]
"""An operand the builder accepts: a Value, or a Python number made a constant of the other operand's type."""


def _default_intrinsic_return(context: Context, base: str, overload: Type) -> Type:
    """The return type of ``llvm.<base>`` overloaded on ``overload``: ``{T, i1}`` (lane-wise
    for vectors) for the ``*.with.overflow`` intrinsics, else ``T``."""
    if base.endswith(".with.overflow"):
        flag: Type = context.int_type(1)
        if isinstance(overload, VectorType):
            flag = context.vector_type(flag, overload.count, overload.scalable)
        return context.struct_type([overload, flag])
    return overload


def _kind(obj: object) -> str:
    return "%s %r" % (type(obj).__name__, obj) if isinstance(obj, (int, float, str)) else type(obj).__name__


def _check_value(opcode: str, what: str, value: object) -> None:
    if not isinstance(value, Value):
        raise TypeError("%s: %s must be a Value, not %s" % (opcode, what, _kind(value)))


def _not_a_block(opcode: str, obj: object) -> NoReturn:
    hint = " (fn.append_block(name) makes one)" if isinstance(obj, Function) else ""
    raise TypeError("%s needs a BasicBlock, not %s%s" % (opcode, _kind(obj), hint))


def _check_predicate(opcode: str, predicate: object) -> None:
    if not isinstance(predicate, (str, Predicate)):
        raise TypeError("%s(predicate, lhs, rhs): the predicate comes first, e.g. 'slt', not %s" % (opcode, _kind(predicate)))


def _constant_like(opcode: str, ty: Type, number: object, which: str) -> Constant:
    """``number`` as a constant of ``ty`` (a splat for vectors)."""
    from llvmpy_mid.ir.constants import ConstantFP, ConstantVector
    from llvmpy_mid.ir.types import VectorType

    where = " %s operand" % which if which else ""
    if not isinstance(number, (int, float)):
        raise TypeError("%s: the%s must be a Value or a Python number, not %s" % (opcode, where, _kind(number)))
    scalar = ty.scalar_type
    element: Constant
    if scalar.is_integer:
        if not isinstance(number, int):
            raise TypeError("%s: the%s %r is not an int, and the other operand is %s" % (opcode, where, number, ty))
        element = ConstantInt.get(scalar, number)
    elif scalar.is_floating_point:
        element = ConstantFP.get(scalar, float(number))
    else:
        raise TypeError("%s: cannot make a constant of type %s from the Python number %r" % (opcode, ty, number))
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, element)
    return element


def _call_args(function_type: FunctionType, args: Sequence[object]) -> Sequence[Value]:
    """The call's arguments, Python numbers made constants of the parameter types."""
    for a in args:
        if not isinstance(a, Value):
            break
    else:
        return args  # type: ignore[return-value]
    params = function_type.params
    out: list[Value] = []
    for i, a in enumerate(args):
        if isinstance(a, Value):
            out.append(a)
        elif i < len(params):
            out.append(_constant_like("call", params[i], a, "argument %d" % i))
        else:
            raise TypeError("call: argument %d (%s) is past the fixed parameters; pass a Value" % (i, _kind(a)))
    return out


def _zero(ty: Type) -> Constant:
    from llvmpy_mid.ir.constants import Constant

    return Constant.get_null_value(ty)


def _all_ones(ty: Type) -> Constant:
    from llvmpy_mid.ir.constants import Constant

    return Constant.get_all_ones_value(ty)
