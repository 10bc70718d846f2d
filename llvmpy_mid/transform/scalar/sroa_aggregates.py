"""SROA's splitting of first-class-aggregate loads and stores (LLVM 19's
lib/Transforms/Scalar/SROA.cpp: ``AggLoadStoreRewriter`` with its ``OpSplitter``,
``LoadOpSplitter``, ``StoreOpSplitter``, ``unfoldGEPSelect`` and ``unfoldGEPPhi``).

What: before an alloca is sliced, every simple load or store of a struct or array
value through a pointer derived from it (through bitcasts, address-space casts, GEPs,
phis and selects) is split into one load or store per scalar leaf: a load becomes
``<name>.fca.<i>.gep`` / ``.load`` / ``.insert`` chains rebuilding the value, a store
``.extract`` / ``.gep`` / store triples; AA metadata is narrowed to each leaf. A GEP
whose only non-constant operand is a select (or phi) of pointers or of constant
indices becomes a select (phi) of GEPs, so the slices see constant offsets.

How: a worklist of uses, one visit per user, as LLVM's; the builder is SROA's
constant-folding builder, placed before each rewritten instruction with its debug
location.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.alias.memory_location import AAMDNodes, set_aa_metadata
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import ArrayType, StructType, Type
from llvmpy_mid.ir.value import Use, Value
from llvmpy_mid.transform.scalar.sroa_debug_info import assignment_markers, migrate_debug_info

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.transform.scalar.sroa_value_conversion import SROABuilder

__all__ = ["AggLoadStoreRewriter", "set_insert_point"]




def set_insert_point(irb: SROABuilder, inst: Instruction) -> None:
    """LLVM ``IRBuilder::SetInsertPoint(I)``: before ``inst``, taking its debug location."""
    irb.position_before(inst)
    irb.debug_loc = inst.stable_debug_loc


def _common_alignment(align: int, offset: int) -> int:
    """LLVM ``commonAlignment``: the largest power of two dividing ``align`` and ``offset``."""
    return align if offset == 0 else min(align, offset & -offset)


def _delete_assignment_markers(inst: Instruction) -> None:
    """LLVM ``at::deleteAssignmentMarkers``: erase the ``#dbg_assign`` records linked to ``inst``."""
    for rec in assignment_markers(inst):
        rec.erase_from_parent()


class _OpSplitter:
    """Recursive emission of one scalar access per leaf of an aggregate (LLVM ``OpSplitter``)."""

    __slots__ = ("irb", "indices", "gep_indices", "ptr", "base_ty", "base_align", "dl", "aa_tags")

    def __init__(
        self,
        insertion_point: Instruction,
        ptr: Value,
        base_ty: Type,
        aa_tags: AAMDNodes,
        base_align: int,
        dl: DataLayout,
        irb: SROABuilder,
    ) -> None:
        self.irb = irb
        self.indices: list[int] = []
        self.gep_indices: list[int] = [0]
        self.ptr = ptr
        self.base_ty = base_ty
        self.base_align = base_align
        self.dl = dl
        self.aa_tags = aa_tags
        set_insert_point(irb, insertion_point)

    def gep_values(self) -> list[Value]:
        i32 = self.irb.context.i32
        return [ConstantInt.get(i32, i) for i in self.gep_indices]

    def emit_split_ops(self, ty: Type, agg: Value, name: str) -> Value:
        # Explicit stack of (type, name, next child index) frames instead of recursion.
        stack: list[tuple[Type, str, int]] = [(ty, name, 0)]
        while stack:
            cur_ty, cur_name, child = stack.pop()
            if child == 0 and cur_ty.is_single_value:
                offset = self.dl.indexed_offset_in_type(self.base_ty, self.gep_indices)
                agg = self.emit(cur_ty, agg, _common_alignment(self.base_align, offset), cur_name)
                continue
            if isinstance(cur_ty, ArrayType):
                count = cur_ty.count
                elt_ty: Type | None = cur_ty.element_type if child < count else None
            elif isinstance(cur_ty, StructType):
                count = len(cur_ty.elements)
                elt_ty = cur_ty.elements[child] if child < count else None
            else:
                raise AssertionError("Only arrays and structs are aggregate loadable types")
            if child > 0:
                self.indices.pop()
                self.gep_indices.pop()
            if elt_ty is None:
                continue
            stack.append((cur_ty, cur_name, child + 1))
            self.indices.append(child)
            self.gep_indices.append(child)
            stack.append((elt_ty, "%s.%d" % (cur_name, child), 0))
        return agg

    def emit(self, ty: Type, agg: Value, alignment: int, name: str) -> Value:
        raise NotImplementedError


class _LoadOpSplitter(_OpSplitter):
    __slots__ = ()

    def emit(self, ty: Type, agg: Value, alignment: int, name: str) -> Value:
        irb = self.irb
        gep = irb.create_gep(self.base_ty, self.ptr, self.gep_values(), name + ".gep", inbounds=True)
        load = irb.load(ty, gep, name + ".load", alignment=alignment)
        if self.aa_tags:
            offset = self.dl.indexed_offset_in_type(self.base_ty, self.gep_indices)
            set_aa_metadata(load, self.aa_tags.adjust_for_access_type(offset, load.type, self.dl))
        return irb.create_insert_value(agg, load, list(self.indices), name + ".insert")


class _StoreOpSplitter(_OpSplitter):
    __slots__ = ("agg_store",)

    def __init__(
        self,
        insertion_point: Instruction,
        ptr: Value,
        base_ty: Type,
        aa_tags: AAMDNodes,
        agg_store: StoreInst,
        base_align: int,
        dl: DataLayout,
        irb: SROABuilder,
    ) -> None:
        super().__init__(insertion_point, ptr, base_ty, aa_tags, base_align, dl, irb)
        self.agg_store = agg_store

    def emit(self, ty: Type, agg: Value, alignment: int, name: str) -> Value:
        irb = self.irb
        extract = irb.create_extract_value(agg, list(self.indices), name + ".extract")
        gep = irb.create_gep(self.base_ty, self.ptr, self.gep_values(), name + ".gep", inbounds=True)
        store = irb.store(extract, gep, alignment=alignment)
        offset = self.dl.indexed_offset_in_type(self.base_ty, self.gep_indices)
        if self.aa_tags:
            set_aa_metadata(store, self.aa_tags.adjust_for_access_type(offset, extract.type, self.dl))
        base = strip_pointer_casts(self.agg_store.pointer_operand, inbounds=True)
        if isinstance(base, AllocaInst):
            size_in_bits = self.dl.type_size_in_bits(store.value_operand.type)
            migrate_debug_info(
                base, True, offset * 8, size_in_bits, self.agg_store, store, store.pointer_operand,
                store.value_operand, self.dl,
            )
        return agg


class AggLoadStoreRewriter:
    """Splits the aggregate loads and stores reached from one alloca (LLVM ``AggLoadStoreRewriter``)."""

    __slots__ = ("queue", "visited", "u", "dl", "irb")

    def __init__(self, dl: DataLayout, irb: SROABuilder) -> None:
        self.queue: list[Use] = []
        self.visited: set[Instruction] = set()
        self.u: Use | None = None
        self.dl = dl
        self.irb = irb

    def rewrite(self, inst: Instruction) -> bool:
        self.enqueue_users(inst)
        changed = False
        queue = self.queue
        while queue:
            self.u = queue.pop()
            user = self.u.user
            assert isinstance(user, Instruction)
            if self.visit(user):
                changed = True
        return changed

    def enqueue_users(self, inst: Value) -> None:
        visited = self.visited
        for use in inst.uses:
            user = use.user
            assert isinstance(user, Instruction)
            if user not in visited:
                visited.add(user)
                self.queue.append(use)

    def visit(self, inst: Instruction) -> bool:
        op = inst.opcode
        if op == "load":
            assert isinstance(inst, LoadInst)
            return self.visit_load(inst)
        if op == "store":
            assert isinstance(inst, StoreInst)
            return self.visit_store(inst)
        if op == "bitcast" or op == "addrspacecast" or op == "phi" or op == "select":
            self.enqueue_users(inst)
            return False
        if op == "getelementptr":
            assert isinstance(inst, GetElementPtrInst)
            return self.visit_gep(inst)
        return False

    def visit_load(self, li: LoadInst) -> bool:
        assert self.u is not None
        if not li.is_simple or li.type.is_single_value:
            return False
        splitter = _LoadOpSplitter(li, self.u.value, li.type, AAMDNodes.of(li), li.alignment, self.dl, self.irb)
        v: Value = PoisonValue.get(li.type)
        v = splitter.emit_split_ops(li.type, v, li.name + ".fca")
        self.visited.discard(li)
        li.replace_all_uses_with(v)
        li.erase_from_parent()
        return True

    def visit_store(self, si: StoreInst) -> bool:
        assert self.u is not None
        if not si.is_simple or si.pointer_operand is not self.u.value:
            return False
        v = si.value_operand
        if v.type.is_single_value:
            return False
        splitter = _StoreOpSplitter(si, self.u.value, v.type, AAMDNodes.of(si), si, si.alignment, self.dl, self.irb)
        splitter.emit_split_ops(v.type, v, v.name + ".fca")
        self.visited.discard(si)
        _delete_assignment_markers(si)
        si.erase_from_parent()
        return True

    def unfold_gep_select(self, gepi: GetElementPtrInst) -> bool:
        ptr = gepi.pointer_operand
        sel: SelectInst | None = ptr if isinstance(ptr, SelectInst) else None
        for op in gepi.indices:
            if isinstance(op, SelectInst):
                if sel is not None:
                    return False
                sel = op
                if not isinstance(sel.true_value, ConstantInt) or not isinstance(sel.false_value, ConstantInt):
                    return False
                continue
            if not isinstance(op, ConstantInt):
                return False
        if sel is None:
            return False
        chosen = sel

        def new_ops(sel_op: Value) -> list[Value]:
            return [sel_op if op is chosen else op for op in gepi.operands]

        true_v = sel.true_value
        false_v = sel.false_value
        true_ops = new_ops(true_v)
        false_ops = new_ops(false_v)
        irb = self.irb
        set_insert_point(irb, gepi)
        flags = int(gepi.gep_flags)
        ty = gepi.source_element_type
        n_true = irb.create_gep(ty, true_ops[0], true_ops[1:], true_v.name + ".sroa.gep", flags=flags)
        n_false = irb.create_gep(ty, false_ops[0], false_ops[1:], false_v.name + ".sroa.gep", flags=flags)
        n_sel = irb.create_select(sel.condition, n_true, n_false, sel.name + ".sroa.sel")
        self.visited.discard(gepi)
        gepi.replace_all_uses_with(n_sel)
        gepi.erase_from_parent()
        assert isinstance(n_sel, Instruction)
        self.visited.add(n_sel)
        self.enqueue_users(n_sel)
        return True

    def unfold_gep_phi(self, gepi: GetElementPtrInst) -> bool:
        ptr = gepi.pointer_operand
        phi: PHINode | None = ptr if isinstance(ptr, PHINode) else None

        def is_invalid_pointer_operand(v: Value) -> bool:
            if not isinstance(v, Instruction):
                return False
            if isinstance(v, AllocaInst):
                return not v.is_static_alloca
            return True

        if phi is not None:
            if any(is_invalid_pointer_operand(v) for v in phi.operands):
                return False
        elif is_invalid_pointer_operand(ptr):
            return False
        for op in gepi.indices:
            if isinstance(op, PHINode):
                if phi is not None:
                    return False
                phi = op
                if not all(isinstance(v, ConstantInt) for v in phi.incoming_values):
                    return False
                continue
            if not isinstance(op, ConstantInt):
                return False
        if phi is None:
            return False
        chosen = phi

        def new_ops(phi_op: Value) -> list[Value]:
            return [phi_op if op is chosen else op for op in gepi.operands]

        irb = self.irb
        set_insert_point(irb, phi)
        new_phi = irb.phi(gepi.type, phi.name + ".sroa.phi")
        source_ty = gepi.source_element_type
        fn = gepi.function
        assert fn is not None
        term = fn.entry_block.terminator
        assert term is not None
        set_insert_point(irb, term)
        flags = int(gepi.gep_flags)
        for i in range(phi.num_incoming):
            op = phi.get_incoming_value(i)
            bb = phi.get_incoming_block(i)
            ni = new_phi.basic_block_index(bb)
            if ni >= 0:
                new_gep = new_phi.get_incoming_value(ni)
            else:
                ops = new_ops(op)
                new_gep = irb.create_gep(source_ty, ops[0], ops[1:], phi.name + ".sroa.gep", flags=flags)
            new_phi.add_incoming(new_gep, bb)
        self.visited.discard(gepi)
        gepi.replace_all_uses_with(new_phi)
        gepi.erase_from_parent()
        self.visited.add(new_phi)
        self.enqueue_users(new_phi)
        return True

    def visit_gep(self, gepi: GetElementPtrInst) -> bool:
        if self.unfold_gep_select(gepi):
            return True
        if self.unfold_gep_phi(gepi):
            return True
        self.enqueue_users(gepi)
        return False
