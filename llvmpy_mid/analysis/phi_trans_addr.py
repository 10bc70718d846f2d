"""Translating an address expression across a CFG edge (LLVM ``PHITransAddr``;
``lib/Analysis/PHITransAddr.cpp``).

A :class:`PHITransAddr` holds an address value and the list of instructions it is built
from that are not themselves part of the translatable expression (its *inputs*). When a
query walks from a block to a predecessor, :meth:`PHITransAddr.translate_value` rewrites
the address as it would be computed in the predecessor: phis of the block take their
incoming value, and casts, GEPs and ``add X, C`` whose operands changed are looked up
(an existing equivalent instruction whose block dominates the predecessor) or
simplified with InstructionSimplify. :meth:`translate_with_insertion` also creates the
missing casts and GEPs at the end of the predecessor (GVN's load PRE), named
``<name>.phi.trans.insert``; ``add`` is only inserted under ``-gvn-add-phi-translation``.

Memory dependence analysis and GVN use it. The translation recurses over the address
expression (its depth is the depth of the address expression, not of the CFG).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.options import OPTIONS

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree


def _can_phi_trans(inst: Instruction) -> bool:
    if isinstance(inst, (PHINode, GetElementPtrInst, CastInst)):
        return True
    return inst.opcode == "add" and isinstance(inst.operands[1], ConstantInt)


def _add_phi_translation_enabled() -> bool:
    return OPTIONS.get("gvn-add-phi-translation") is not None and bool(OPTIONS.value("gvn-add-phi-translation"))


class PHITransAddr:
    """An address and its instruction inputs, translatable into predecessors."""

    __slots__ = ("addr", "dl", "tli", "ac", "inst_inputs")

    def __init__(self, addr: Value | None, dl: DataLayout, ac: AssumptionCache | None) -> None:
        self.addr: Value | None = addr
        self.dl = dl
        self.tli: TargetLibraryInfo | None = None
        self.ac = ac
        self.inst_inputs: list[Instruction] = []
        if addr is not None:
            self._add_as_input(addr)

    def copy(self) -> PHITransAddr:
        other = PHITransAddr(None, self.dl, self.ac)
        other.addr = self.addr
        other.tli = self.tli
        other.inst_inputs = list(self.inst_inputs)
        return other

    def get_addr(self) -> Value | None:
        return self.addr

    def needs_phi_translation_from_block(self, bb: BasicBlock) -> bool:
        """Is one of the inputs defined in ``bb``?"""
        for inst in self.inst_inputs:
            if inst.parent is bb:
                return True
        return False

    def is_potentially_phi_translatable(self) -> bool:
        addr = self.addr
        return not isinstance(addr, Instruction) or _can_phi_trans(addr)

    def _add_as_input(self, v: Value) -> Value:
        if isinstance(v, Instruction):
            self.inst_inputs.append(v)
        return v

    def _query(self, dt: DominatorTree | None) -> SimplifyQuery:
        return SimplifyQuery(self.dl, self.tli, dt, self.ac)

    # --- translation ----------------------------------------------------------------------------
    def translate_value(self, cur_bb: BasicBlock, pred_bb: BasicBlock, dt: DominatorTree | None, must_dominate: bool) -> Value | None:
        """The address as seen in ``pred_bb`` (None when it cannot be translated); the
        result is also the new :attr:`addr`."""
        assert dt is not None or not must_dominate
        if dt is not None and dt.is_reachable(pred_bb) and self.addr is not None:
            self.addr = self._translate_sub_expr(self.addr, cur_bb, pred_bb, dt)
        else:
            self.addr = None
        if must_dominate and isinstance(self.addr, Instruction):
            assert dt is not None
            parent = self.addr.parent
            if parent is None or not dt.dominates(parent, pred_bb):
                self.addr = None
        return self.addr

    def _translate_sub_expr(self, v: Value, cur_bb: BasicBlock, pred_bb: BasicBlock, dt: DominatorTree | None) -> Value | None:
        if not isinstance(v, Instruction):
            return v
        inst = v
        inputs = self.inst_inputs
        if inst in inputs:
            if inst.parent is not cur_bb:
                return inst
            inputs.remove(inst)
            if isinstance(inst, PHINode):
                return self._add_as_input(inst.incoming_value_for_block(pred_bb))
            if not _can_phi_trans(inst):
                return None
            for op in inst.operands:
                self._add_as_input(op)

        if isinstance(inst, CastInst):
            src = inst.operands[0]
            phi_in = self._translate_sub_expr(src, cur_bb, pred_bb, dt)
            if phi_in is None:
                return None
            if phi_in is src:
                return inst
            from llvmpy_mid.analysis.instsimplify.other import simplify_cast_inst

            simplified = simplify_cast_inst(inst.opcode, phi_in, inst.type, self._query(dt))
            if simplified is not None:
                _remove_inst_inputs(phi_in, inputs)
                return self._add_as_input(simplified)
            for user in phi_in.users:
                if (
                    isinstance(user, CastInst)
                    and user.opcode == inst.opcode
                    and user.type is inst.type
                    and user.parent is not None
                    and (dt is None or dt.dominates(user.parent, pred_bb))
                ):
                    return user
            return None

        if isinstance(inst, GetElementPtrInst):
            gep_ops: list[Value] = []
            any_changed = False
            for op in inst.operands:
                new_op = self._translate_sub_expr(op, cur_bb, pred_bb, dt)
                if new_op is None:
                    return None
                any_changed |= new_op is not op
                gep_ops.append(new_op)
            if not any_changed:
                return inst
            from llvmpy_mid.analysis.instsimplify.other import simplify_gep_inst

            simplified = simplify_gep_inst(inst.source_element_type, gep_ops[0], gep_ops[1:], int(inst.gep_flags), self._query(dt))
            if simplified is not None:
                for op in gep_ops:
                    _remove_inst_inputs(op, inputs)
                return self._add_as_input(simplified)
            base = gep_ops[0]
            fn = cur_bb.parent
            for user in base.users:
                if (
                    isinstance(user, GetElementPtrInst)
                    and user.type is inst.type
                    and user.source_element_type is inst.source_element_type
                    and len(user.operands) == len(gep_ops)
                    and user.parent is not None
                    and user.parent.parent is fn
                    and (dt is None or dt.dominates(user.parent, pred_bb))
                    and all(a is b for a, b in zip(user.operands, gep_ops))
                ):
                    return user
            return None

        if inst.opcode == "add" and isinstance(inst.operands[1], ConstantInt):
            assert isinstance(inst, BinaryOperator)
            rhs = inst.operands[1]
            assert isinstance(rhs, ConstantInt)
            is_nsw = inst.nsw
            is_nuw = inst.nuw
            lhs = self._translate_sub_expr(inst.operands[0], cur_bb, pred_bb, dt)
            if lhs is None:
                return None
            if isinstance(lhs, BinaryOperator) and lhs.opcode == "add" and isinstance(lhs.operands[1], ConstantInt):
                bop = lhs
                ci = lhs.operands[1]
                assert isinstance(ci, ConstantInt)
                lhs = bop.operands[0]
                rhs = ConstantInt.get(rhs.type, rhs.zext_value + ci.zext_value)
                is_nsw = is_nuw = False
                if bop in inputs:
                    _remove_inst_inputs(bop, inputs)
                    self._add_as_input(lhs)
            from llvmpy_mid.analysis.instsimplify.binops import simplify_add_inst

            res = simplify_add_inst(lhs, rhs, is_nsw, is_nuw, self._query(dt))
            if res is not None:
                _remove_inst_inputs(lhs, inputs)
                return self._add_as_input(res)
            if lhs is inst.operands[0] and rhs is inst.operands[1]:
                return inst
            fn = cur_bb.parent
            for user in lhs.users:
                if (
                    isinstance(user, BinaryOperator)
                    and user.opcode == "add"
                    and user.operands[0] is lhs
                    and user.operands[1] is rhs
                    and user.parent is not None
                    and user.parent.parent is fn
                    and (dt is None or dt.dominates(user.parent, pred_bb))
                ):
                    return user
            return None
        return None

    # --- translation with insertion --------------------------------------------------------------
    def translate_with_insertion(
        self, cur_bb: BasicBlock, pred_bb: BasicBlock, dt: DominatorTree, new_insts: list[Instruction]
    ) -> Value | None:
        """Translate into ``pred_bb``, inserting the casts/GEPs that are missing at its
        end (appended to ``new_insts``; erased again on failure)."""
        n = len(new_insts)
        assert self.addr is not None
        self.addr = self._insert_translated_sub_expr(self.addr, cur_bb, pred_bb, dt, new_insts)
        if self.addr is not None:
            return self.addr
        while len(new_insts) != n:
            new_insts.pop().erase_from_parent()
        return None

    def _insert_translated_sub_expr(
        self, in_val: Value, cur_bb: BasicBlock, pred_bb: BasicBlock, dt: DominatorTree, new_insts: list[Instruction]
    ) -> Value | None:
        tmp = PHITransAddr(in_val, self.dl, self.ac)
        found = tmp.translate_value(cur_bb, pred_bb, dt, True)
        if found is not None:
            return found
        if not isinstance(in_val, Instruction):
            return None
        inst = in_val
        term = pred_bb.terminator
        assert term is not None
        if isinstance(inst, CastInst):
            op_val = self._insert_translated_sub_expr(inst.operands[0], cur_bb, pred_bb, dt, new_insts)
            if op_val is None:
                return None
            new = CastInst.create(inst.opcode, op_val, inst.type, name=inst.name + ".phi.trans.insert")
            new.insert_before(term)
            new.debug_loc = inst.debug_loc
            new_insts.append(new)
            return new
        if isinstance(inst, GetElementPtrInst):
            ops: list[Value] = []
            gep_bb = inst.parent
            assert gep_bb is not None
            for op in inst.operands:
                op_val = self._insert_translated_sub_expr(op, gep_bb, pred_bb, dt, new_insts)
                if op_val is None:
                    return None
                ops.append(op_val)
            gep = GetElementPtrInst(
                inst.source_element_type, ops[0], ops[1:], flags=inst.gep_flags, name=inst.name + ".phi.trans.insert"
            )
            gep.insert_before(term)
            gep.debug_loc = inst.debug_loc
            new_insts.append(gep)
            return gep
        if _add_phi_translation_enabled() and inst.opcode == "add" and isinstance(inst.operands[1], ConstantInt):
            assert isinstance(inst, BinaryOperator)
            op_val = self._insert_translated_sub_expr(inst.operands[0], cur_bb, pred_bb, dt, new_insts)
            if op_val is None:
                return None
            res = BinaryOperator.create(
                "add", op_val, inst.operands[1], nuw=inst.nuw, nsw=inst.nsw, name=inst.name + ".phi.trans.insert"
            )
            res.insert_before(term)
            new_insts.append(res)
            return res
        return None


def _remove_inst_inputs(v: Value, inputs: list[Instruction]) -> None:
    """Drop ``v`` (or, if it is not an input, the inputs it is built from) from the
    input list (an explicit worklist over the expression)."""
    work: list[Value] = [v]
    while work:
        cur = work.pop()
        if not isinstance(cur, Instruction):
            continue
        if cur in inputs:
            inputs.remove(cur)
            continue
        for op in reversed(cur.operands):
            if isinstance(op, Instruction):
                work.append(op)
