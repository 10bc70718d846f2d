"""Compile-time evaluation of a function on constant arguments, recording the
stores it makes to globals (LLVM lib/Transforms/Utils/Evaluator.cpp).

:class:`Evaluator` interprets a function straight-line, block by block (no
block twice, no recursion), folding each instruction on constant operands;
loads read the mutated memory or the global's definitive initializer, stores
must go to a global with a unique initializer and store a value simple enough
to commit; allocas are temporary globals; calls to definitions are evaluated,
calls to declarations constant folded; ``memset`` is accepted when it writes
what memory already holds; ``llvm.invariant.start`` marks globals invariant.
Memory is kept per global as a tree of :class:`MutableValue` (aggregates split
into elements on a partial write).
"""

from __future__ import annotations

from llvmpy_mid.analysis.constant_folding import constant_fold_constant, constant_fold_inst_operands
from llvmpy_mid.analysis.constant_folding import constant_fold_call
from llvmpy_mid.analysis.constant_folding_memory import (
    constant_fold_load_from_const,
    constant_fold_load_through_bitcast,
)
from llvmpy_mid.analysis.loads import is_bit_or_noop_pointer_castable
from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    BlockAddress,
    Constant,
    ConstantAggregate,
    ConstantArray,
    ConstantInt,
    ConstantStruct,
    ConstantVector,
    UndefValue,
)
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalAlias, GlobalValue, GlobalVariable, Linkage, DLLStorageClass
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import (
    BranchInst,
    IndirectBrInst,
    InvokeInst,
    ReturnInst,
    SwitchInst,
)
from llvmpy_mid.ir.pointer_casts import (
    strip_and_accumulate_constant_offsets,
    strip_pointer_casts,
    strip_pointer_casts_for_alias_analysis,
)
from llvmpy_mid.ir.types import ArrayType, IntegerType, PointerType, StructType, Type, VectorType
from llvmpy_mid.ir.value import Value

__all__ = ["Evaluator", "MutableValue", "has_unique_initializer"]


def _gep_index_for_offset(ty: Type, offset: int, dl: DataLayout) -> tuple[int, int, Type] | None:
    """LLVM ``DataLayout::getGEPIndexForOffset``: (index, remaining offset, element type)."""
    if isinstance(ty, ArrayType):
        elt = ty.element_type
        size = dl.type_alloc_size(elt)
        if size == 0 or dl.is_scalable(elt):
            return 0, offset, elt
        index = offset // size
        return index, offset - index * size, elt
    if isinstance(ty, StructType):
        sl = dl.struct_layout(ty)
        if offset < 0 or offset >= sl.size:
            return None
        index = sl.element_containing_offset(offset)
        return index, offset - sl.element_offset(index), ty.elements[index]
    return None


class MutableValue:
    """A global's evolving content: a constant, or an aggregate split into elements."""

    __slots__ = ("val", "agg_type", "elements")

    def __init__(self, c: Constant) -> None:
        self.val: Constant | None = c
        self.agg_type: Type | None = None
        self.elements: list[MutableValue] = []

    @property
    def type(self) -> Type:
        if self.val is not None:
            return self.val.type
        assert self.agg_type is not None
        return self.agg_type

    def read(self, ty: Type, offset: int, dl: DataLayout) -> Constant | None:
        size = dl.type_store_size(ty)
        mv = self
        while mv.val is None:
            agg_ty = mv.agg_type
            assert agg_ty is not None
            found = _gep_index_for_offset(agg_ty, offset, dl)
            if found is None:
                return None
            index, offset, _ = found
            if index < 0 or index >= len(mv.elements) or size > dl.type_store_size(agg_ty):
                return None
            mv = mv.elements[index]
        return constant_fold_load_from_const(mv.val, ty, dl, offset)

    def _make_mutable(self) -> bool:
        c = self.val
        assert c is not None
        ty = c.type
        if isinstance(ty, VectorType) and not ty.scalable:
            n = ty.count
        elif isinstance(ty, ArrayType):
            n = ty.count
        elif isinstance(ty, StructType):
            n = len(ty.elements)
        else:
            return False
        elems: list[MutableValue] = []
        for i in range(n):
            e = c.get_aggregate_element(i)
            if e is None:
                return False
            elems.append(MutableValue(e))
        self.val = None
        self.agg_type = ty
        self.elements = elems
        return True

    def write(self, v: Constant, offset: int, dl: DataLayout) -> bool:
        ty = v.type
        size = dl.type_store_size(ty)
        mv = self
        while offset != 0 or not is_bit_or_noop_pointer_castable(ty, mv.type, dl):
            if mv.val is not None and not mv._make_mutable():
                return False
            agg_ty = mv.agg_type
            assert agg_ty is not None
            found = _gep_index_for_offset(agg_ty, offset, dl)
            if found is None:
                return False
            index, offset, _ = found
            if index < 0 or index >= len(mv.elements) or size > dl.type_store_size(agg_ty):
                return False
            mv = mv.elements[index]
        mv_ty = mv.type
        mv.elements = []
        mv.agg_type = None
        if isinstance(ty, IntegerType) and isinstance(mv_ty, PointerType):
            mv.val = ConstantExpr.get_cast("inttoptr", v, mv_ty)
        elif isinstance(ty, PointerType) and isinstance(mv_ty, IntegerType):
            mv.val = ConstantExpr.get_cast("ptrtoint", v, mv_ty)
        elif ty is not mv_ty:
            mv.val = ConstantExpr.get_cast("bitcast", v, mv_ty)
        else:
            mv.val = v
        return True

    def to_constant(self) -> Constant:
        if self.val is not None:
            return self.val
        consts = [e.to_constant() for e in self.elements]
        ty = self.agg_type
        if isinstance(ty, StructType):
            return ConstantStruct.get(ty, consts)
        if isinstance(ty, ArrayType):
            return ConstantArray.get(ty, consts)
        return ConstantVector.get(consts)


class _Fail(Exception):
    """Evaluation cannot continue."""


class Evaluator:
    """Evaluates functions at compile time; see the module docstring."""

    def __init__(self, dl: DataLayout, tli: TargetLibraryInfo | None) -> None:
        self.dl = dl
        self.tli = tli
        self.value_stack: list[dict[int, Constant]] = [{}]
        self.call_stack: list[Function] = []
        self.mutated_memory: dict[GlobalVariable, MutableValue] = {}
        self.alloca_tmps: list[GlobalVariable] = []
        self.invariants: list[GlobalVariable] = []
        self._simple: set[int] = set()

    # --- values ---------------------------------------------------------------------
    def get_val(self, v: Value) -> Constant:
        if isinstance(v, Constant):
            return v
        c = self.value_stack[-1].get(id(v))
        if c is None:
            raise _Fail()
        return c

    def set_val(self, v: Value, c: Constant) -> None:
        self.value_stack[-1][id(v)] = c

    def mutated_initializers(self) -> list[tuple[GlobalVariable, Constant]]:
        return [(gv, mv.to_constant()) for gv, mv in self.mutated_memory.items()]

    def finish(self) -> None:
        """Point what still uses a temporary alloca global at null (LLVM's destructor)."""
        for tmp in self.alloca_tmps:
            if not tmp.use_empty:
                tmp.replace_all_uses_with(Constant.get_null_value(tmp.type))
            tmp.drop_all_references()

    # --- commit checks ----------------------------------------------------------------
    def _simple_enough(self, c: Constant) -> bool:
        if id(c) in self._simple:
            return True
        self._simple.add(id(c))
        return self._simple_helper(c)

    def _simple_helper(self, c: Constant) -> bool:
        dl = self.dl
        if isinstance(c, GlobalValue):
            return c.dll_storage_class is not DLLStorageClass.DLLIMPORT and not c.is_thread_local
        if c.num_operands == 0 or isinstance(c, BlockAddress):
            return True
        if isinstance(c, ConstantAggregate):
            return all(isinstance(op, Constant) and self._simple_enough(op) for op in c.operands)
        if not isinstance(c, ConstantExpr):
            return False
        op0 = c.get_operand(0)
        assert isinstance(op0, Constant)
        opc = c.opcode
        if opc == "bitcast":
            return self._simple_enough(op0)
        if opc in ("inttoptr", "ptrtoint"):
            if dl.type_size_in_bits(c.type) != dl.type_size_in_bits(op0.type):
                return False
            return self._simple_enough(op0)
        if opc == "getelementptr":
            if not all(isinstance(op, ConstantInt) for op in c.operands[1:]):
                return False
            return self._simple_enough(op0)
        if opc == "add":
            if not isinstance(c.get_operand(1), ConstantInt):
                return False
            return self._simple_enough(op0)
        return False

    # --- memory --------------------------------------------------------------------------
    def _strip(self, p: Constant) -> tuple[Value, int]:
        base, offset = strip_and_accumulate_constant_offsets(p, self.dl, True)
        return base, offset

    def compute_load_result(self, p: Constant, ty: Type) -> Constant | None:
        base, offset = self._strip(p)
        if isinstance(base, GlobalVariable):
            return self._load_global(base, ty, offset)
        return None

    def _load_global(self, gv: GlobalVariable, ty: Type, offset: int) -> Constant | None:
        mv = self.mutated_memory.get(gv)
        if mv is not None:
            return mv.read(ty, offset, self.dl)
        if not gv.has_definitive_initializer:
            return None
        init = gv.initializer
        assert init is not None
        return constant_fold_load_from_const(init, ty, self.dl, offset)

    # --- calls --------------------------------------------------------------------------------
    def _formal_params(self, cb: CallBase, fn: Function) -> list[Constant] | None:
        params = fn.function_type.params
        if len(params) > cb.arg_size:
            return None
        formals: list[Constant] = []
        for i, pty in enumerate(params):
            c = constant_fold_load_through_bitcast(self.get_val(cb.get_arg(i)), pty, self.dl)
            if c is None:
                return None
            formals.append(c)
        return formals

    def _cast_result(self, ty: Type, rv: Constant | None) -> Constant | None:
        if rv is None or rv.type is ty:
            return rv
        return constant_fold_load_through_bitcast(rv, ty, self.dl)

    def _memset(self, call: CallBase) -> bool:
        if not _is_false(call.get_arg(3)):
            return False
        length = self.get_val(call.get_arg(2))
        if not isinstance(length, ConstantInt):
            return False
        base, offset = self._strip(self.get_val(call.get_arg(0)))
        if not isinstance(base, GlobalVariable):
            return False
        val = self.get_val(call.get_arg(1))
        init = base.initializer
        if (
            not val.is_null_value
            or base in self.mutated_memory
            or not base.has_definitive_initializer
            or init is None
            or not init.is_null_value
        ):
            n = length.value
            if n > 64 * 1024:
                return False
            while n:
                if self._load_global(base, val.type, offset) is not val:
                    return False
                offset += 1
                n -= 1
        return True

    def _eval_call(self, call: CallBase) -> tuple[bool, Constant | None, bool]:
        """(ok, result, stripped-for-alias-analysis); a skipped intrinsic gives (True, None, False)."""
        callee_fn = call.called_function
        if call.is_inline_asm_call:
            return False, None, False
        if callee_fn is not None and callee_fn.intrinsic_id:
            name = call.intrinsic_base
            if name.startswith("llvm.dbg."):
                return True, None, False
            if name in ("llvm.memset", "llvm.memset.inline"):
                return self._memset(call), None, False
            if name in ("llvm.lifetime.start", "llvm.lifetime.end"):
                return True, None, False
            if name == "llvm.invariant.start":
                if not call.use_empty:
                    return False, None, False
                size = call.get_arg(0)
                ptr = strip_pointer_casts(self.get_val(call.get_arg(1)))
                if isinstance(ptr, GlobalVariable) and isinstance(size, ConstantInt):
                    width = size.type.width
                    if size.value != (1 << width) - 1 and size.value >= self.dl.type_store_size(ptr.value_type):
                        if ptr not in self.invariants:
                            self.invariants.append(ptr)
                return True, None, False
            if name in ("llvm.assume", "llvm.sideeffect", "llvm.pseudoprobe"):
                return True, None, False
            stripped = strip_pointer_casts_for_alias_analysis(call)
            if stripped is not call:
                inner = self.get_val(stripped)
                return True, ConstantExpr.get_cast("bitcast", inner, call.type), True
            return False, None, False
        target = self.get_val(strip_pointer_casts(call.called_operand))
        fn: Function | None = None
        if isinstance(target, Function):
            fn = target
        elif isinstance(target, GlobalAlias) and isinstance(target.aliasee, Function):
            fn = target.aliasee
        if fn is None:
            return False, None, False
        formals = self._formal_params(call, fn)
        if formals is None or fn.is_interposable:
            return False, None, False
        if fn.is_declaration:
            c = constant_fold_call(call, fn, formals, self.tli)
            if c is None:
                return False, None, False
            res = self._cast_result(call.type, c)
            return res is not None, res, False
        if fn.function_type.is_vararg:
            return False, None, False
        self.value_stack.append({})
        ok, rv = self.evaluate_function_impl(fn, formals)
        if not ok:
            return False, None, False
        self.value_stack.pop()
        res = self._cast_result(call.type, rv)
        if rv is not None and res is None:
            return False, None, False
        return True, res, False

    # --- blocks ---------------------------------------------------------------------------------
    def _evaluate_block(self, inst: Instruction | None) -> tuple[bool, BasicBlock | None, bool]:
        dl = self.dl
        tli = self.tli
        stripped_for_aa = False
        result: Constant | None
        while inst is not None:
            result = None
            if isinstance(inst, StoreInst):
                if inst.volatile:
                    return False, None, stripped_for_aa
                ptr = constant_fold_constant(self.get_val(inst.pointer_operand), dl, tli)
                base, offset = self._strip(ptr)
                if not isinstance(base, GlobalVariable) or not has_unique_initializer(base):
                    return False, None, stripped_for_aa
                val = self.get_val(inst.value_operand)
                if not self._simple_enough(val):
                    return False, None, stripped_for_aa
                mv = self.mutated_memory.get(base)
                if mv is None:
                    init = base.initializer
                    assert init is not None
                    mv = self.mutated_memory[base] = MutableValue(init)
                if not mv.write(val, offset, dl):
                    return False, None, stripped_for_aa
            elif isinstance(inst, LoadInst):
                if inst.volatile:
                    return False, None, stripped_for_aa
                ptr = constant_fold_constant(self.get_val(inst.pointer_operand), dl, tli)
                result = self.compute_load_result(ptr, inst.type)
                if result is None:
                    return False, None, stripped_for_aa
            elif isinstance(inst, AllocaInst):
                size = inst.get_operand(0)
                if not (isinstance(size, ConstantInt) and size.value == 1):
                    return False, None, stripped_for_aa
                ty = inst.allocated_type
                tmp = GlobalVariable(ty, inst.name, Linkage.INTERNAL, UndefValue.get(ty), False, inst.address_space)
                self.alloca_tmps.append(tmp)
                result = tmp
            elif isinstance(inst, (CallInst, InvokeInst)):
                ok, result, stripped = self._eval_call(inst)
                if not ok:
                    return False, None, stripped_for_aa
                stripped_for_aa |= stripped
                if result is None and not isinstance(inst, InvokeInst) and not self._needs_value(inst):
                    inst = inst.next_instruction
                    continue
            elif inst.is_terminator:
                nxt: BasicBlock | None
                if isinstance(inst, BranchInst):
                    if inst.is_unconditional:
                        nxt = inst.get_successor(0)
                    else:
                        cond = self.get_val(inst.condition)
                        if not isinstance(cond, ConstantInt):
                            return False, None, stripped_for_aa
                        nxt = inst.get_successor(0 if cond.value else 1)
                elif isinstance(inst, SwitchInst):
                    cond = self.get_val(inst.condition)
                    if not isinstance(cond, ConstantInt):
                        return False, None, stripped_for_aa
                    idx = inst.find_case_value(cond)
                    if idx is None:
                        nxt = inst.default_dest
                    else:
                        dest = inst.get_operand(3 + 2 * idx)
                        assert isinstance(dest, BasicBlock)
                        nxt = dest
                elif isinstance(inst, IndirectBrInst):
                    addr = strip_pointer_casts(self.get_val(inst.get_operand(0)))
                    if not isinstance(addr, BlockAddress):
                        return False, None, stripped_for_aa
                    nxt = addr.block
                elif isinstance(inst, ReturnInst):
                    nxt = None
                else:
                    return False, None, stripped_for_aa
                return True, nxt, stripped_for_aa
            else:
                ops = [self.get_val(op) for op in inst.operands]
                result = constant_fold_inst_operands(inst, ops, dl, tli)
                if result is None:
                    return False, None, stripped_for_aa
            if result is not None and not inst.use_empty:
                self.set_val(inst, constant_fold_constant(result, dl, tli))
            elif result is None and not inst.use_empty and not inst.type.is_void:
                # A call that produced nothing but is used: LLVM stores a null result.
                return False, None, stripped_for_aa
            if isinstance(inst, InvokeInst):
                return True, inst.normal_dest, stripped_for_aa
            inst = inst.next_instruction
        return False, None, stripped_for_aa

    @staticmethod
    def _needs_value(inst: Instruction) -> bool:
        return not inst.use_empty

    def evaluate_function_impl(self, fn: Function, args: list[Constant]) -> tuple[bool, Constant | None]:
        if fn in self.call_stack:
            return False, None
        self.call_stack.append(fn)
        for arg, c in zip(fn.args, args):
            self.set_val(arg, c)
        executed: set[BasicBlock] = set()
        cur_bb = fn.entry_block
        inst = cur_bb.instructions.first
        while True:
            ok, next_bb, stripped = self._evaluate_block(inst)
            if not ok:
                return False, None
            if next_bb is None:
                ret = cur_bb.terminator
                assert isinstance(ret, ReturnInst)
                rv: Constant | None = None
                if ret.num_operands:
                    if stripped and not ret.get_operand(0).type.is_void:
                        return False, None
                    rv = self.get_val(ret.get_operand(0))
                self.call_stack.pop()
                return True, rv
            if next_bb in executed:
                return False, None
            executed.add(next_bb)
            node = next_bb.instructions.first
            while isinstance(node, PHINode):
                self.set_val(node, self.get_val(node.incoming_value_for_block(cur_bb)))
                node = node.next_instruction
            inst = node
            cur_bb = next_bb

    def evaluate_function(self, fn: Function, args: list[Constant]) -> bool:
        """Evaluate ``fn`` on ``args``; whether it could be evaluated to its end."""
        try:
            ok, _ = self.evaluate_function_impl(fn, args)
        except _Fail:
            return False
        return ok


def has_unique_initializer(gv: GlobalVariable) -> bool:
    """LLVM ``GlobalVariable::hasUniqueInitializer``: a strong definition for the linker
    whose initializer no one changes at run time."""
    return gv.has_initializer and gv.is_strong_definition_for_linker and not gv.externally_initialized


def _is_false(v: Value) -> bool:
    return isinstance(v, ConstantInt) and v.value == 0
