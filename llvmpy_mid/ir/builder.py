"""``IRBuilder``: create instructions at an insertion point (LLVM ``IRBuilder``).

The builder inserts each new instruction before a chosen instruction or at the
end of a block, names it, gives it the builder's current debug location and
default fast-math flags, and returns it. There is one method per instruction
(``add``, ``load``, ``call``, ``cond_br`` ...) taking the instruction's flags
as keyword arguments.

Unlike LLVM's builder this one does not constant-fold: ``b.add(c1, c2)``
always creates an instruction (folding belongs to the analyses).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence, TypeVar

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
from llvmpy_mid.ir.types import FunctionType, Type
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.attributes import AttributeList
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.ir.metadata import MDNode

I = TypeVar("I", bound=Instruction)


def _predicate(pred: Predicate | str, fp: bool) -> Predicate:
    if isinstance(pred, Predicate):
        return pred
    return Predicate.from_keyword(pred, fp)


class IRBuilder:
    """Inserts new instructions at one place: before ``insert_before`` in ``block``,
    or at the end of ``block`` when ``insert_before`` is None."""

    __slots__ = ("block", "insert_before", "debug_loc", "fast_math_flags", "_ctx", "_void")

    block: BasicBlock | None
    insert_before: Instruction | None
    debug_loc: MDNode | None
    fast_math_flags: FastMathFlags

    def __init__(self, block: BasicBlock | None = None, before: Instruction | None = None) -> None:
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
        self.block = block
        self.insert_before = None
        self._ctx = block.type.context
        self._void = self._ctx.void

    def position_at_start(self, block: BasicBlock) -> None:
        """Before the first instruction that is not a phi (or at the end of an empty block)."""
        self.block = block
        self.insert_before = block.first_non_phi
        self._ctx = block.type.context
        self._void = self._ctx.void

    def position_before(self, inst: Instruction) -> None:
        if inst.parent is None:
            raise IRError("position_before: the instruction is not in a block")
        self.block = inst.parent
        self.insert_before = inst
        self._ctx = inst.type.context
        self._void = self._ctx.void

    def position_after(self, inst: Instruction) -> None:
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
        """Insert an instruction made elsewhere at the builder's position."""
        block = self.block
        if block is None:
            raise IRError("the builder has no insertion point")
        if name:
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
        return inst

    # --- unary and binary operators ------------------------------------------------------
    def add(self, lhs: Value, rhs: Value, name: str = "", *, nuw: bool = False, nsw: bool = False) -> BinaryOperator:
        return self.insert(AddInst(lhs, rhs, nuw=nuw, nsw=nsw) if nuw or nsw else AddInst(lhs, rhs), name)

    def sub(self, lhs: Value, rhs: Value, name: str = "", *, nuw: bool = False, nsw: bool = False) -> BinaryOperator:
        return self.insert(SubInst(lhs, rhs, nuw=nuw, nsw=nsw) if nuw or nsw else SubInst(lhs, rhs), name)

    def mul(self, lhs: Value, rhs: Value, name: str = "", *, nuw: bool = False, nsw: bool = False) -> BinaryOperator:
        return self.insert(MulInst(lhs, rhs, nuw=nuw, nsw=nsw) if nuw or nsw else MulInst(lhs, rhs), name)

    def udiv(self, lhs: Value, rhs: Value, name: str = "", *, exact: bool = False) -> BinaryOperator:
        return self.insert(UDivInst(lhs, rhs, exact=exact), name)

    def sdiv(self, lhs: Value, rhs: Value, name: str = "", *, exact: bool = False) -> BinaryOperator:
        return self.insert(SDivInst(lhs, rhs, exact=exact), name)

    def urem(self, lhs: Value, rhs: Value, name: str = "") -> BinaryOperator:
        return self.insert(URemInst(lhs, rhs), name)

    def srem(self, lhs: Value, rhs: Value, name: str = "") -> BinaryOperator:
        return self.insert(SRemInst(lhs, rhs), name)

    def shl(self, lhs: Value, rhs: Value, name: str = "", *, nuw: bool = False, nsw: bool = False) -> BinaryOperator:
        return self.insert(ShlInst(lhs, rhs, nuw=nuw, nsw=nsw) if nuw or nsw else ShlInst(lhs, rhs), name)

    def lshr(self, lhs: Value, rhs: Value, name: str = "", *, exact: bool = False) -> BinaryOperator:
        return self.insert(LShrInst(lhs, rhs, exact=exact), name)

    def ashr(self, lhs: Value, rhs: Value, name: str = "", *, exact: bool = False) -> BinaryOperator:
        return self.insert(AShrInst(lhs, rhs, exact=exact), name)

    def and_(self, lhs: Value, rhs: Value, name: str = "") -> BinaryOperator:
        return self.insert(AndInst(lhs, rhs), name)

    def or_(self, lhs: Value, rhs: Value, name: str = "", *, disjoint: bool = False) -> BinaryOperator:
        return self.insert(OrInst(lhs, rhs, disjoint=True) if disjoint else OrInst(lhs, rhs), name)

    def xor(self, lhs: Value, rhs: Value, name: str = "") -> BinaryOperator:
        return self.insert(XorInst(lhs, rhs), name)

    def _fmf(self, flags: FastMathFlags | int | None) -> FastMathFlags | int:
        return self.fast_math_flags if flags is None else flags

    def fadd(self, lhs: Value, rhs: Value, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> BinaryOperator:
        return self.insert(FAddInst(lhs, rhs, fast_math_flags=self._fmf(fast_math_flags)), name)

    def fsub(self, lhs: Value, rhs: Value, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> BinaryOperator:
        return self.insert(FSubInst(lhs, rhs, fast_math_flags=self._fmf(fast_math_flags)), name)

    def fmul(self, lhs: Value, rhs: Value, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> BinaryOperator:
        return self.insert(FMulInst(lhs, rhs, fast_math_flags=self._fmf(fast_math_flags)), name)

    def fdiv(self, lhs: Value, rhs: Value, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> BinaryOperator:
        return self.insert(FDivInst(lhs, rhs, fast_math_flags=self._fmf(fast_math_flags)), name)

    def frem(self, lhs: Value, rhs: Value, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> BinaryOperator:
        return self.insert(FRemInst(lhs, rhs, fast_math_flags=self._fmf(fast_math_flags)), name)

    def fneg(self, value: Value, name: str = "", *, fast_math_flags: FastMathFlags | int | None = None) -> UnaryOperator:
        return self.insert(UnaryOperator(value, fast_math_flags=self._fmf(fast_math_flags)), name)

    def binop(self, opcode: str, lhs: Value, rhs: Value, name: str = "", **flags: bool) -> BinaryOperator:
        """Any binary operator by LLVM opcode name (``"add"``, ``"fmul"`` ...)."""
        return self.insert(BinaryOperator.create(opcode, lhs, rhs, **flags), name)  # type: ignore[arg-type]

    def neg(self, value: Value, name: str = "", *, nsw: bool = False) -> BinaryOperator:
        """``sub 0, value``."""
        return self.sub(ConstantInt.get(value.type, 0) if value.type.is_integer else _zero(value.type), value, name, nsw=nsw)

    def not_(self, value: Value, name: str = "") -> BinaryOperator:
        """``xor value, -1``."""
        return self.xor(value, _all_ones(value.type), name)

    # --- casts --------------------------------------------------------------------------
    def cast(self, opcode: str, value: Value, dest_type: Type, name: str = "", *, nuw: bool = False, nsw: bool = False, nneg: bool = False) -> CastInst:
        return self.insert(CastInst.create(opcode, value, dest_type, nuw=nuw, nsw=nsw, nneg=nneg), name)

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
    def icmp(self, predicate: Predicate | str, lhs: Value, rhs: Value, name: str = "") -> ICmpInst:
        """``icmp``; ``predicate`` is a :class:`Predicate` or its keyword (``"slt"``)."""
        return self.insert(ICmpInst(_predicate(predicate, False), lhs, rhs), name)

    def fcmp(
        self,
        predicate: Predicate | str,
        lhs: Value,
        rhs: Value,
        name: str = "",
        *,
        fast_math_flags: FastMathFlags | int | None = None,
    ) -> FCmpInst:
        return self.insert(FCmpInst(_predicate(predicate, True), lhs, rhs, fast_math_flags=self._fmf(fast_math_flags)), name)

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
        if address_space is None:
            fn = self.function
            module = fn.parent if fn is not None else None
            address_space = module.data_layout.alloca_addr_space if module is not None else 0
        return self.insert(AllocaInst(allocated_type, array_size, alignment=alignment, address_space=address_space), name)

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
        return self.insert(
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
        return self.insert(
            StoreInst(value, pointer, volatile=volatile, alignment=alignment, ordering=ordering, sync_scope=sync_scope)
        )

    def fence(self, ordering: AtomicOrdering, *, sync_scope: str = "") -> FenceInst:
        return self.insert(FenceInst(self.context, ordering, sync_scope=sync_scope))

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
        return self.insert(inst, name)

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
        return self.insert(inst, name)

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
        """``getelementptr``; ``inbounds=True`` adds the inbounds flag to ``flags``."""
        if inbounds:
            flags = int(flags) | int(GEPFlags.INBOUNDS)
        return self.insert(GetElementPtrInst(source_element_type, pointer, indices, flags=flags), name)

    def struct_gep(self, struct_type: Type, pointer: Value, index: int, name: str = "") -> GetElementPtrInst:
        """``getelementptr inbounds %T, ptr %p, i32 0, i32 index``."""
        i32 = self.context.i32
        return self.gep(struct_type, pointer, [ConstantInt.get(i32, 0), ConstantInt.get(i32, index)], name, inbounds=True)

    # --- vectors and aggregates ---------------------------------------------------------------
    def extract_element(self, vector: Value, index: Value | int, name: str = "") -> ExtractElementInst:
        return self.insert(ExtractElementInst(vector, self._index(index)), name)

    def insert_element(self, vector: Value, element: Value, index: Value | int, name: str = "") -> InsertElementInst:
        return self.insert(InsertElementInst(vector, element, self._index(index)), name)

    def shuffle_vector(self, v1: Value, v2: Value, mask: Sequence[int], name: str = "") -> ShuffleVectorInst:
        return self.insert(ShuffleVectorInst(v1, v2, mask), name)

    def extract_value(self, aggregate: Value, indices: Sequence[int] | int, name: str = "") -> ExtractValueInst:
        idx = [indices] if isinstance(indices, int) else list(indices)
        return self.insert(ExtractValueInst(aggregate, idx), name)

    def insert_value(self, aggregate: Value, value: Value, indices: Sequence[int] | int, name: str = "") -> InsertValueInst:
        idx = [indices] if isinstance(indices, int) else list(indices)
        return self.insert(InsertValueInst(aggregate, value, idx), name)

    def _index(self, index: Value | int) -> Value:
        return ConstantInt.get(self.context.i64, index) if isinstance(index, int) else index

    # --- other -----------------------------------------------------------------------------------
    def phi(self, type: Type, name: str = "", incoming: Sequence[tuple[Value, BasicBlock]] = ()) -> PHINode:
        """A phi; one of floating-point type gets the default fast-math flags (as LLVM's ``CreatePHI``)."""
        fmf = self.fast_math_flags if self.fast_math_flags and type_supports_fast_math_flags(type) else 0
        return self.insert(PHINode(type, incoming, fast_math_flags=fmf), name)

    def select(
        self,
        condition: Value,
        true_value: Value,
        false_value: Value,
        name: str = "",
        *,
        fast_math_flags: FastMathFlags | int | None = None,
    ) -> SelectInst:
        flags = self._fmf(fast_math_flags) if type_supports_fast_math_flags(true_value.type) else 0
        return self.insert(SelectInst(condition, true_value, false_value, fast_math_flags=flags), name)

    def freeze(self, value: Value, name: str = "") -> FreezeInst:
        return self.insert(FreezeInst(value), name)

    def va_arg(self, va_list: Value, type: Type, name: str = "") -> VAArgInst:
        return self.insert(VAArgInst(va_list, type), name)

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
        from it; for any other callee pass ``function_type``."""
        if function_type is None:
            if not isinstance(callee, Function):
                raise IRError("an indirect call needs function_type")
            function_type = callee.function_type
        if calling_conv is None:
            calling_conv = callee.calling_conv if isinstance(callee, Function) else 0
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
        return self.insert(inst, name if not ret.is_void else "")

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
        return self.insert(inst, name if not function_type.return_type.is_void else "")

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
        return self.insert(inst, name if not function_type.return_type.is_void else "")

    # --- exception handling ---------------------------------------------------------------------
    def landingpad(self, type: Type, clauses: Sequence[Constant] = (), name: str = "", *, cleanup: bool = False) -> LandingPadInst:
        return self.insert(LandingPadInst(type, clauses, cleanup=cleanup), name)

    def catchpad(self, catch_switch: Value, args: Sequence[Value] = (), name: str = "") -> CatchPadInst:
        return self.insert(CatchPadInst(catch_switch, args), name)

    def cleanuppad(self, parent_pad: Value, args: Sequence[Value] = (), name: str = "") -> CleanupPadInst:
        return self.insert(CleanupPadInst(parent_pad, args), name)

    def catchswitch(
        self, parent_pad: Value, unwind_dest: BasicBlock | None, handlers: Sequence[BasicBlock] = (), name: str = ""
    ) -> CatchSwitchInst:
        return self.insert(CatchSwitchInst(parent_pad, unwind_dest, handlers), name)

    def catchret(self, catch_pad: Value, successor: BasicBlock) -> CatchReturnInst:
        return self.insert(CatchReturnInst(catch_pad, successor))

    def cleanupret(self, cleanup_pad: Value, unwind_dest: BasicBlock | None = None) -> CleanupReturnInst:
        return self.insert(CleanupReturnInst(cleanup_pad, unwind_dest))

    def resume(self, value: Value) -> ResumeInst:
        return self.insert(ResumeInst(value))

    # --- terminators -------------------------------------------------------------------------------
    def ret(self, value: Value | None = None) -> ReturnInst:
        return self.insert(ReturnInst(self.context, value))

    def ret_void(self) -> ReturnInst:
        return self.insert(ReturnInst(self.context))

    def br(self, dest: BasicBlock) -> BranchInst:
        return self.insert(BranchInst(dest))

    def cond_br(self, condition: Value, if_true: BasicBlock, if_false: BasicBlock) -> BranchInst:
        return self.insert(BranchInst(if_true, if_false, condition))

    def switch(
        self, condition: Value, default_dest: BasicBlock, cases: Sequence[tuple[ConstantInt, BasicBlock]] = ()
    ) -> SwitchInst:
        return self.insert(SwitchInst(condition, default_dest, cases))

    def indirect_br(self, address: Value, destinations: Sequence[BasicBlock] = ()) -> IndirectBrInst:
        return self.insert(IndirectBrInst(address, destinations))

    def unreachable(self) -> UnreachableInst:
        return self.insert(UnreachableInst(self.context))


def _zero(ty: Type) -> Constant:
    from llvmpy_mid.ir.constants import Constant

    return Constant.get_null_value(ty)


def _all_ones(ty: Type) -> Constant:
    from llvmpy_mid.ir.constants import Constant

    return Constant.get_all_ones_value(ty)
