"""``reassociate``: reassociation of commutative expressions (LLVM ``ReassociatePass``,
lib/Transforms/Scalar/Reassociate.cpp, as in LLVM 19.1.7).

Every value gets a rank (arguments first, then each block in reverse post-order, the
instructions that cannot move taking a fixed rank of their block; a movable instruction
ranks one above its highest operand, negations and nots not counting). An expression
tree of one associative opcode (add, mul, and, or, xor, and fadd/fmul carrying both
``reassoc`` and ``nsz``) is flattened to its leaves with their multiplicity, simplified
(constants folded, ``x + -x``, ``x & ~x``, duplicate and/or/xor operands, repeated adds
turned into a multiply, common factors pulled out of sums, powers built as a minimal
multiply DAG, xor of masked values combined) and rewritten in rank order, reusing its
own nodes, so that equal sub-expressions line up for later CSE. Subtracts become adds of
negations, shifts by a constant multiplies and disjoint ors adds when that exposes a
tree; pairs of leaves seen together in other expressions of the function are put first.

This module holds the pass state and LLVM's ``ReassociatePass`` methods;
``reassociate_ir`` holds the file's static helpers (pattern shapes, instruction creation,
``XorOpnd``...) and ``reassociate_xor`` the xor combining (``OptimizeXor``).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.block_frequency_bpi import reverse_post_order
from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands, constant_fold_unary_op_operand
from llvmpy_mid.analysis.known_bits_analysis import have_no_common_bits_set, is_known_non_negative
from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constant_fold import get_bin_op_identity
from llvmpy_mid.ir.constants import Constant, ConstantFP, ConstantInt, PoisonValue
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator, UnaryOperator
from llvmpy_mid.ir.types import TypeID
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.transform.utils.basic_block_utils import first_non_phi_or_dbg
from llvmpy_mid.transform.utils.local import (
    is_instruction_trivially_dead,
    replace_dbg_uses_with_undef,
    salvage_debug_info,
)

from llvmpy_mid.transform.scalar.reassociate_xor import optimize_xor
from llvmpy_mid.transform.scalar.reassociate_ir import (
    Entry,
    NSW,
    NUW,
    OverflowTracking,
    XorOpnd,
    apfloat,
    apint,
    bin_op_absorber,
    collect_multiply_factors,
    create_add,
    create_mul,
    create_neg,
    fmf_of,
    fneg_operand,
    fp_const,
    fp_flip_sign,
    fp_is_negative,
    fp_sign_bit,
    has_fp_associative_flags,
    insert_new,
    insertion_point_after_def,
    int_const,
    is_associative,
    is_fp_math,
    is_int_or_int_vector,
    is_load_combine_candidate,
    lower_negate_to_multiply,
    may_have_non_def_use_dependency,
    neg_operand,
    negatible_insts,
    not_operand,
    opcode_of,
    place,
    reassociable,
    should_break_up_subtract,
    should_convert_or_to_add,
    single_use_multiply_factors,
    splat_like,
    user_back,
)

__all__ = ["ReassociatePass", "reassociate"]

_GLOBAL_REASSOCIATE_LIMIT = 10

# --- the pass -------------------------------------------------------------------------------


def use_cse_local() -> bool:
    """The value of ``-reassociate-use-cse-local`` (LLVM's ``UseCSELocalOpt``, default on)."""
    import llvmpy_mid.passes.registry  # noqa: F401  (declares the option)

    return bool(OPTIONS.value("reassociate-use-cse-local"))


class Reassociator:
    """The state of one run over a function (LLVM ``ReassociatePass``'s members)."""

    __slots__ = ("rank_map", "value_rank", "redo", "pair_map", "changed", "dl", "fn", "cse_local")

    def __init__(self, fn: Function, dl: DataLayout) -> None:
        self.fn = fn
        self.dl = dl
        self.rank_map: dict[BasicBlock, int] = {}
        self.value_rank: dict[Value, int] = {}
        self.redo: dict[Instruction, None] = {}
        self.pair_map: dict[str, dict[tuple[Value, Value], list[object]]] = {}
        self.changed = False
        self.cse_local = use_cse_local()

    # --- ranks ---
    def build_rank_map(self, blocks: list[BasicBlock]) -> None:
        rank = 2
        vr = self.value_rank
        for arg in self.fn.args:
            rank += 1
            vr[arg] = rank
        for bb in blocks:
            rank += 1
            bb_rank = rank << 16
            self.rank_map[bb] = bb_rank
            for inst in bb.instructions:
                if may_have_non_def_use_dependency(inst):
                    bb_rank += 1
                    vr[inst] = bb_rank

    def get_rank(self, v: Value) -> int:
        """LLVM ``getRank``: cached; a movable instruction ranks one above its highest
        operand (capped at its block's rank), negations and nots not counting (an
        explicit stack instead of recursion; operands are ranked in LLVM's order)."""
        vr = self.value_rank
        if not isinstance(v, Instruction):
            if isinstance(v, Argument):
                r0 = vr.get(v)
                if r0 is None:
                    vr[v] = 0
                    return 0
                return r0
            return 0
        r = vr.get(v, 0)
        if r:
            return r
        rank_map = self.rank_map
        insts: list[Instruction] = [v]
        idxs: list[int] = [0]
        ranks: list[int] = [0]
        maxes: list[int] = [rank_map.get(v.parent, 0)]  # type: ignore[arg-type]
        result = 0
        while insts:
            inst = insts[-1]
            ops = inst._operands
            k = idxs[-1]
            cur = ranks[-1]
            mx = maxes[-1]
            descended = False
            while k < len(ops) and cur != mx:
                op = ops[k].value
                k += 1
                if isinstance(op, Instruction):
                    orank = vr.get(op, 0)
                    if not orank:
                        idxs[-1] = k
                        ranks[-1] = cur
                        insts.append(op)
                        idxs.append(0)
                        ranks.append(0)
                        maxes.append(rank_map.get(op.parent, 0))  # type: ignore[arg-type]
                        descended = True
                        break
                elif isinstance(op, Argument):
                    orank = vr.get(op, 0)
                    if op not in vr:
                        vr[op] = 0
                else:
                    orank = 0
                if orank > cur:
                    cur = orank
            if descended:
                continue
            if not_operand(inst) is None and neg_operand(inst) is None and fneg_operand(inst) is None:
                cur += 1
            vr[inst] = cur
            insts.pop()
            idxs.pop()
            ranks.pop()
            maxes.pop()
            result = cur
            if ranks and cur > ranks[-1]:
                ranks[-1] = cur
        return result

    def canonicalize_operands(self, i: BinaryOperator) -> None:
        lhs = i._operands[0].value
        rhs = i._operands[1].value
        if lhs is rhs or isinstance(rhs, Constant):
            return
        if isinstance(lhs, Constant) or self.get_rank(rhs) < self.get_rank(lhs):
            i.swap_operands()

    # --- linearize / rewrite ---
    def linearize(self, root: Instruction, flags: OverflowTracking) -> tuple[list[tuple[Value, int]], bool]:
        """LLVM ``LinearizeExprTree``: the leaves of the tree at ``root`` with their weights."""
        opcode = root.opcode
        worklist: list[tuple[Instruction, int]] = [(root, 1)]
        changed = False
        leaves: dict[Value, int] = {}
        leaf_order: list[Value] = []
        is_mul = opcode == "mul"
        is_fmul = opcode == "fmul"
        while worklist:
            i, weight = worklist.pop()
            if i.opcode in ("add", "sub", "mul", "shl"):
                fl = i._flags  # type: ignore[attr-defined]
                flags.has_nuw = flags.has_nuw and bool(fl & NUW)
                flags.has_nsw = flags.has_nsw and bool(fl & NSW)
            for idx in range(len(i._operands)):
                op = i._operands[idx].value
                bo = reassociable(op, opcode)
                if bo is not None:
                    worklist.append((bo, weight))
                    continue
                w = leaves.get(op)
                if w is None:
                    if not op.has_one_use:
                        leaf_order.append(op)
                        leaves[op] = weight
                        continue
                else:
                    w += weight
                    leaves[op] = w
                    if not op.has_one_use:
                        continue
                    weight = w
                    del leaves[op]
                if isinstance(op, Instruction) and (
                    (is_mul and neg_operand(op) is not None) or (is_fmul and fneg_operand(op) is not None)
                ):
                    mul = lower_negate_to_multiply(op)
                    worklist.append((mul, weight))
                    for u in mul.users:
                        if isinstance(u, BinaryOperator):
                            self.redo[u] = None
                    self.redo[op] = None
                    changed = True
                    continue
                leaf_order.append(op)
                leaves[op] = weight
        ops: list[tuple[Value, int]] = []
        q = SimplifyQuery(self.dl)
        for v in leaf_order:
            w2 = leaves.get(v)
            if w2 is None:
                continue
            leaves[v] = 0  # output once: a repeated entry gets weight 0
            ops.append((v, w2))
            if opcode == "add" and flags.all_non_negative and flags.has_nsw:
                flags.all_non_negative = flags.all_non_negative and is_known_non_negative(v, q)
            elif is_mul:
                if flags.all_non_zero and (flags.has_nuw or (flags.has_nsw and flags.all_non_negative)):
                    flags.all_non_zero = flags.all_non_zero and is_known_non_zero(v, q)
                    if flags.has_nsw and flags.all_non_negative:
                        flags.all_non_negative = flags.all_non_negative and is_known_non_negative(v, q)
        if not ops:
            ident = get_bin_op_identity(opcode, root.type, False)
            assert ident is not None
            ops.append((ident, 1))
        return ops, changed

    def rewrite_expr_tree(self, i: BinaryOperator, ops: list[Entry], flags: OverflowTracking) -> None:
        """LLVM ``RewriteExprTree``: make the tree at ``i`` compute ``ops`` in order, reusing
        its nodes."""
        assert len(ops) > 1
        nodes_to_rewrite: list[BinaryOperator] = []
        opcode = i.opcode
        op = i
        not_rewritable = {e[1] for e in ops}
        changed_start: BinaryOperator | None = None
        changed_end: BinaryOperator | None = None
        k = 0
        while True:
            if k + 2 == len(ops):
                new_lhs = ops[k][1]
                new_rhs = ops[k + 1][1]
                old_lhs = op._operands[0].value
                old_rhs = op._operands[1].value
                if new_lhs is old_lhs and new_rhs is old_rhs:
                    break
                if new_lhs is old_rhs and new_rhs is old_lhs:
                    op.swap_operands()
                    self.changed = True
                    break
                if new_lhs is not old_lhs:
                    bo = reassociable(old_lhs, opcode)
                    if bo is not None and bo not in not_rewritable:
                        nodes_to_rewrite.append(bo)
                    op.set_operand(0, new_lhs)
                if new_rhs is not old_rhs:
                    bo = reassociable(old_rhs, opcode)
                    if bo is not None and bo not in not_rewritable:
                        nodes_to_rewrite.append(bo)
                    op.set_operand(1, new_rhs)
                changed_start = op
                if changed_end is None:
                    changed_end = op
                self.changed = True
                break
            new_rhs = ops[k][1]
            if new_rhs is not op._operands[1].value:
                if new_rhs is op._operands[0].value:
                    op.swap_operands()
                else:
                    bo = reassociable(op._operands[1].value, opcode)
                    if bo is not None and bo not in not_rewritable:
                        nodes_to_rewrite.append(bo)
                    op.set_operand(1, new_rhs)
                    changed_start = op
                    if changed_end is None:
                        changed_end = op
                self.changed = True
            bo = reassociable(op._operands[0].value, opcode)
            if bo is not None and bo not in not_rewritable:
                op = bo
                k += 1
                continue
            new_op: BinaryOperator
            if not nodes_to_rewrite:
                poison = PoisonValue.get(i.type)
                new_op = BinaryOperator.create(opcode, poison, poison)
                if new_op.is_fp_op:
                    new_op._flags = i._flags
                place(new_op, i)
            else:
                new_op = nodes_to_rewrite.pop()
            op.set_operand(0, new_op)
            changed_start = op
            if changed_end is None:
                changed_end = op
            self.changed = True
            op = new_op
            k += 1
        if changed_start is not None:
            clear = True
            cur = changed_start
            while True:
                if clear:
                    if i.is_fp_op:
                        cur._flags = i._flags
                    else:
                        cur._flags = 0
                        cop = cur.opcode
                        if cop == "add" or (cop == "mul" and flags.all_non_zero):
                            fl = 0
                            if flags.has_nuw:
                                fl |= NUW
                            if flags.has_nsw and (flags.all_non_negative or flags.has_nuw):
                                fl |= NSW
                            cur._flags = fl
                if cur is changed_end:
                    clear = False
                if cur is i:
                    break
                if clear:
                    replace_dbg_uses_with_undef(cur)
                place(cur, i)
                nxt = user_back(cur)
                assert isinstance(nxt, BinaryOperator)
                cur = nxt
        for n in nodes_to_rewrite:
            self.redo[n] = None

    # --- negation and subtraction ---
    def negate_value(self, v: Value, bi: Instruction) -> Value:
        """LLVM ``NegateValue``: ``-v`` placed before ``bi``, reusing an existing negation."""
        if isinstance(v, Constant):
            if v.type.scalar_type.is_floating_point:
                res = constant_fold_unary_op_operand("fneg", v, self.dl)
            else:
                res = ConstantExpr.get_neg(v)
            if res is not None:
                return res
        i = reassociable(v, "add", "fadd")
        if i is not None:
            i.set_operand(0, self.negate_value(i._operands[0].value, bi))
            i.set_operand(1, self.negate_value(i._operands[1].value, bi))
            if i.opcode == "add":
                i._flags &= ~(NUW | NSW)
            place(i, bi)
            i.name = i.name + ".neg"
            self.redo[i] = None
            return i
        for u in v.users:
            if neg_operand(u) is None and fneg_operand(u) is None:
                continue
            if not isinstance(u, Instruction):
                continue
            the_neg = u
            if isinstance(the_neg, BinaryOperator):
                c0 = the_neg._operands[0].value
                if isinstance(c0, Constant) and c0.contains_undef_or_poison():
                    continue
            if the_neg.function is not bi.function:
                continue
            insert_pt: Instruction | None
            if isinstance(v, Instruction):
                insert_pt = insertion_point_after_def(v)
                if insert_pt is None:
                    continue
            else:
                insert_pt = first_non_phi_or_dbg(self.fn.entry_block)
                assert insert_pt is not None
            if the_neg.parent is not insert_pt.parent:
                the_neg.debug_loc = None
            # getFirstInsertionPt (after a phi or an invoke) points at the head.
            place(the_neg, insert_pt, isinstance(v, Instruction) and (v.is_phi or v.opcode == "invoke"))
            if the_neg.opcode == "sub":
                the_neg._flags &= ~(NUW | NSW)  # type: ignore[attr-defined]
            elif is_fp_math(bi):
                the_neg.fast_math_flags = fmf_of(the_neg) & fmf_of(bi)  # type: ignore[attr-defined]
            self.redo[the_neg] = None
            return the_neg
        new_neg = create_neg(v, v.name + ".neg", bi, bi)
        self.redo[new_neg] = None
        return new_neg

    def break_up_subtract(self, sub: Instruction) -> BinaryOperator:
        neg_val = self.negate_value(sub._operands[1].value, sub)
        new = create_add(sub._operands[0].value, neg_val, "", sub, sub)
        sub.set_operand(0, Constant.get_null_value(sub.type))
        sub.set_operand(1, Constant.get_null_value(sub.type))
        new.take_name(sub)
        sub.replace_all_uses_with(new)
        new.debug_loc = sub.debug_loc
        return new

    # --- optimize expression ---
    def remove_factor_from_expression(self, v: Value, factor: Value) -> Value | None:
        bo = reassociable(v, "mul", "fmul")
        if bo is None:
            return None
        flags = OverflowTracking()
        tree, ch = self.linearize(bo, flags)
        self.changed |= ch
        factors: list[Entry] = []
        for val, w in tree:
            r = self.get_rank(val)
            factors.extend([(r, val)] * w)
        found = False
        needs_negate = False
        fc1_int = factor if isinstance(factor, ConstantInt) else None
        fc1_fp = factor if isinstance(factor, ConstantFP) else None
        for k in range(len(factors)):
            fv = factors[k][1]
            if fv is factor:
                found = True
                del factors[k]
                break
            if fc1_int is not None:
                if isinstance(fv, ConstantInt) and fc1_int.value == (-fv.value) & fv.type.mask:
                    found = needs_negate = True
                    del factors[k]
                    break
            elif fc1_fp is not None:
                if isinstance(fv, ConstantFP) and fv.type is fc1_fp.type:
                    if _fp_equal(fc1_fp, fp_flip_sign(fv)):
                        found = needs_negate = True
                        del factors[k]
                        break
        if not found:
            self.rewrite_expr_tree(bo, factors, flags)
            return None
        insert_pt = bo.next_instruction
        assert insert_pt is not None
        if len(factors) == 1:
            self.redo[bo] = None
            v = factors[0][1]
        else:
            self.rewrite_expr_tree(bo, factors, flags)
            v = bo
        if needs_negate:
            v = create_neg(v, "neg", insert_pt, bo)
        return v

    def optimize_and_or_xor(self, opcode: str, ops: list[Entry]) -> Value | None:
        k = 0
        while k < len(ops):
            x = not_operand(ops[k][1])
            if x is not None:
                found = self.find_in_operand_list(ops, k, x)
                if found != k:
                    if opcode == "and":
                        return Constant.get_null_value(x.type)
                    if opcode == "or":
                        return Constant.get_all_ones_value(x.type)
            if k + 1 != len(ops) and ops[k + 1][1] is ops[k][1]:
                if opcode == "and" or opcode == "or":
                    del ops[k]
                    continue
                if len(ops) == 2:
                    return Constant.get_null_value(ops[0][1].type)
                del ops[k : k + 2]
                continue
            k += 1
        return None

    @staticmethod
    def find_in_operand_list(ops: list[Entry], i: int, x: Value) -> int:
        xrank = ops[i][0]
        n = len(ops)
        j = i + 1
        while j != n and ops[j][0] == xrank:
            o = ops[j][1]
            if o is x:
                return j
            if isinstance(o, Instruction) and isinstance(x, Instruction) and o.is_identical_to(x):
                return j
            j += 1
        j = i - 1
        while j >= 0 and ops[j][0] == xrank:
            o = ops[j][1]
            if o is x:
                return j
            if isinstance(o, Instruction) and isinstance(x, Instruction) and o.is_identical_to(x):
                return j
            j -= 1
        return i

    def optimize_xor(self, i: Instruction, ops: list[Entry]) -> Value | None:
        """LLVM ``OptimizeXor`` (see reassociate_xor)."""
        return optimize_xor(self, i, ops)

    def optimize_add(self, i: Instruction, ops: list[Entry]) -> Value | None:
        k = 0
        while k < len(ops):
            the_op = ops[k][1]
            if k + 1 != len(ops) and ops[k + 1][1] is the_op:
                num_found = 0
                while True:
                    del ops[k]
                    num_found += 1
                    if k == len(ops) or ops[k][1] is not the_op:
                        break
                ty = the_op.type
                c = int_const(ty, num_found) if is_int_or_int_vector(ty) else fp_const(ty, float(num_found))
                mul = create_mul(the_op, c, "factor", i, i)
                self.redo[mul] = None
                if not ops:
                    return mul
                ops.insert(0, (self.get_rank(mul), mul))
                continue  # revisit position k (LLVM: --i then ++i)
            x = neg_operand(the_op)
            is_not = False
            is_neg = x is not None
            if x is None:
                x = not_operand(the_op)
                is_not = x is not None
            if x is None:
                x = fneg_operand(the_op)
                is_neg = x is not None
            if x is None:
                k += 1
                continue
            found = self.find_in_operand_list(ops, k, x)
            if found == k:
                k += 1
                continue
            if len(ops) == 2 and is_neg:
                return Constant.get_null_value(x.type)
            if len(ops) == 2 and is_not:
                return Constant.get_all_ones_value(x.type)
            del ops[k]
            if k < found:
                found -= 1
            else:
                k -= 1
            del ops[found]
            k -= 1
            if is_not:
                allones = Constant.get_all_ones_value(x.type)
                ops.append((self.get_rank(allones), allones))
            k += 1
            if k < 0:
                k = 0
        # Factor out the most common multiplicand.
        occurrences: dict[Value, int] = {}
        max_occ = 0
        max_occ_val: Value | None = None
        for _, v in ops:
            bop = reassociable(v, "mul", "fmul")
            if bop is None:
                continue
            factors = single_use_multiply_factors(bop)
            dups: set[Value] = set()
            for f in factors:
                if f in dups:
                    continue
                dups.add(f)
                occ = occurrences.get(f, 0) + 1
                occurrences[f] = occ
                if occ > max_occ:
                    max_occ = occ
                    max_occ_val = f
                neg: Value | None = None
                if isinstance(f, ConstantInt):
                    if f.is_negative and f.value != 1 << (f.type.width - 1):
                        neg = ConstantInt.get(f.type, -f.value)
                elif isinstance(f, ConstantFP):
                    if fp_is_negative(f):
                        neg = fp_flip_sign(f)
                if neg is not None:
                    if neg in dups:
                        continue
                    dups.add(neg)
                    occ = occurrences.get(neg, 0) + 1
                    occurrences[neg] = occ
                    if occ > max_occ:
                        max_occ = occ
                        max_occ_val = neg
        if max_occ > 1:
            assert max_occ_val is not None
            dummy = BinaryOperator.create(
                "add" if is_int_or_int_vector(i.type) else "fadd", max_occ_val, max_occ_val
            )
            new_mul_ops: list[Value] = []
            k = 0
            while k < len(ops):
                if reassociable(ops[k][1], "mul", "fmul") is None:
                    k += 1
                    continue
                nv = self.remove_factor_from_expression(ops[k][1], max_occ_val)
                if nv is not None:
                    target = ops[k][1]
                    j = len(ops)
                    while j != k:
                        j -= 1
                        if ops[j][1] is target:
                            new_mul_ops.append(nv)
                            del ops[j]
                    continue
                k += 1
            dummy.drop_all_references()
            acc = new_mul_ops[0]
            for nxt in new_mul_ops[1:]:
                acc = create_add(acc, nxt, "reass.add", i, i)
            if isinstance(acc, Instruction):
                self.redo[acc] = None
            v2 = create_mul(acc, max_occ_val, "reass.mul", i, i)
            self.redo[v2] = None
            if not ops:
                return v2
            ops.insert(0, (self.get_rank(v2), v2))
        return None

    def _multiply_tree(self, i: Instruction, vals: list[Value]) -> Value:
        """``buildMultiplyTree`` through an IRBuilder at ``i``."""
        if len(vals) == 1:
            return vals[-1]
        lhs = vals.pop()
        while vals:
            rhs = vals.pop()
            lhs = self._builder_mul(i, lhs, rhs)
        return lhs

    def _builder_mul(self, i: Instruction, a: Value, b: Value) -> Value:
        fp = not is_int_or_int_vector(a.type)
        opcode = "fmul" if fp else "mul"
        if isinstance(a, Constant) and isinstance(b, Constant):
            folded = constant_fold_binary_op_operands(opcode, a, b, self.dl)
            if folded is not None:
                return folded
        new = BinaryOperator.create(opcode, a, b, fast_math_flags=fmf_of(i) if fp else 0)
        place(new, i)
        new.debug_loc = i.debug_loc
        return new

    def build_minimal_multiply_dag(self, i: Instruction, factors: list[list[object]]) -> Value:
        """LLVM ``buildMinimalMultiplyDAG``; ``factors`` are [base, power] by decreasing power."""
        outer: list[Value] = []
        size = len(factors)
        last = 0
        idx = 1
        while idx < size and factors[idx][1] > 0:  # type: ignore[operator]
            if factors[idx][1] != factors[last][1]:
                last = idx
                idx += 1
                continue
            inner: list[Value] = [factors[last][0]]  # type: ignore[list-item]
            while True:
                inner.append(factors[idx][0])  # type: ignore[arg-type]
                idx += 1
                if not (idx < size and factors[idx][1] == factors[last][1]):
                    break
            m = self._multiply_tree(i, inner)
            factors[last][0] = m
            if isinstance(m, Instruction):
                self.redo[m] = None
            last = idx
            idx += 1
        uniq: list[list[object]] = []
        for f in factors:
            if uniq and uniq[-1][1] == f[1]:
                continue
            uniq.append(f)
        factors[:] = uniq
        for f in factors:
            p = f[1]
            assert isinstance(p, int)
            if p & 1:
                outer.append(f[0])  # type: ignore[arg-type]
            f[1] = p >> 1
        if factors[0][1]:
            root = self.build_minimal_multiply_dag(i, factors)
            outer.append(root)
            outer.append(root)
        if len(outer) == 1:
            return outer[0]
        return self._multiply_tree(i, outer)

    def optimize_mul(self, i: BinaryOperator, ops: list[Entry]) -> Value | None:
        if len(ops) < 4:
            return None
        factors = collect_multiply_factors(ops)
        if factors is None:
            return None
        v = self.build_minimal_multiply_dag(i, factors)
        if not ops:
            return v
        r = self.get_rank(v)
        pos = 0
        while pos < len(ops) and ops[pos][0] > r:
            pos += 1
        ops.insert(pos, (r, v))
        return None

    def optimize_expression(self, i: BinaryOperator, ops: list[Entry]) -> Value | None:
        opcode = i.opcode
        while True:
            cst: Constant | None = None
            while ops:
                c = ops[-1][1]
                if isinstance(c, Constant):
                    if cst is None:
                        ops.pop()
                        cst = c
                        continue
                    folded = constant_fold_binary_op_operands(opcode, c, cst, self.dl)
                    if folded is not None:
                        ops.pop()
                        cst = folded
                        continue
                break
            if not ops:
                return cst
            if cst is not None and cst is not get_bin_op_identity(opcode, i.type, False):
                if cst is bin_op_absorber(opcode, i.type):
                    return cst
                ops.append((0, cst))
            if len(ops) == 1:
                return ops[0][1]
            num = len(ops)
            res: Value | None = None
            if opcode == "and" or opcode == "or":
                res = self.optimize_and_or_xor(opcode, ops)
            elif opcode == "xor":
                res = self.optimize_xor(i, ops)
            elif opcode == "add" or opcode == "fadd":
                res = self.optimize_add(i, ops)
            elif opcode == "mul" or opcode == "fmul":
                res = self.optimize_mul(i, ops)
            if res is not None:
                return res
            if len(ops) == num:
                return None

    # --- canonicalizeNegFPConstants ---
    def _canonicalize_neg_fp_for_op(self, i: Instruction, op: Instruction, other: Value) -> Instruction | None:
        candidates = negatible_insts(op)
        if not candidates:
            return None
        is_fsub = i.opcode == "fsub"
        needs_subtract = not is_fsub and len(candidates) % 2 == 1
        if needs_subtract and should_break_up_subtract(i):
            return None
        for neg in candidates:
            for k in (0, 1):
                c = apfloat(neg._operands[k].value)
                if c is not None:
                    absv = ConstantFP.from_bits(c.type, c.bits & ~fp_sign_bit(c.type.type_id))
                    neg.set_operand(k, splat_like(neg.type, absv))
                    self.changed = True
        if len(candidates) % 2 == 0:
            return i
        new = BinaryOperator.create("fadd" if is_fsub else "fsub", other, op, fast_math_flags=fmf_of(i))
        place(new, i)
        new.debug_loc = i.debug_loc
        i.replace_all_uses_with(new)
        self.redo[i] = None
        return new

    def canonicalize_neg_fp_constants(self, i: Instruction) -> Instruction:
        if i.opcode == "fadd":
            op1 = i._operands[1].value
            if isinstance(op1, Instruction) and op1.has_one_use:
                r = self._canonicalize_neg_fp_for_op(i, op1, i._operands[0].value)
                if r is not None:
                    i = r
        if i.opcode == "fadd":
            op0 = i._operands[0].value
            if isinstance(op0, Instruction) and op0.has_one_use:
                r = self._canonicalize_neg_fp_for_op(i, op0, i._operands[1].value)
                if r is not None:
                    i = r
        if i.opcode == "fsub":
            op1 = i._operands[1].value
            if isinstance(op1, Instruction) and op1.has_one_use:
                r = self._canonicalize_neg_fp_for_op(i, op1, i._operands[0].value)
                if r is not None:
                    i = r
        return i

    # --- OptimizeInst / ReassociateExpression ---
    def optimize_inst(self, i: Instruction) -> None:
        if not isinstance(i, (BinaryOperator, UnaryOperator)):
            return
        redo = self.redo
        if i.opcode == "shl" and isinstance(i._operands[1].value, ConstantInt):
            if reassociable(i._operands[0].value, "mul") is not None or (
                i.has_one_use
                and (
                    reassociable(user_back(i), "mul") is not None or reassociable(user_back(i), "add") is not None
                )
            ):
                ni = self._convert_shift_to_mul(i)
                redo[i] = None
                self.changed = True
                i = ni
        if isinstance(i, BinaryOperator) and i.is_commutative:
            self.canonicalize_operands(i)
        i = self.canonicalize_neg_fp_constants(i)
        if is_fp_math(i) and not has_fp_associative_flags(i):
            return
        if i.type.type_id is TypeID.INTEGER and i.type.width == 1:  # type: ignore[attr-defined]
            return
        if (
            i.opcode == "or"
            and should_convert_or_to_add(i)
            and not is_load_combine_candidate(i)
            and (
                i.disjoint  # type: ignore[attr-defined]
                or have_no_common_bits_set(
                    i._operands[0].value, i._operands[1].value, SimplifyQuery(self.dl, cxt_i=i)
                )
            )
        ):
            new = create_add(i._operands[0].value, i._operands[1].value, "", i, i)
            new._flags = NUW | NSW
            new.take_name(i)
            i.replace_all_uses_with(new)
            new.debug_loc = i.debug_loc
            redo[i] = None
            self.changed = True
            i = new
        op = i.opcode
        if op == "sub":
            if should_break_up_subtract(i):
                ni = self.break_up_subtract(i)
                redo[i] = None
                self.changed = True
                i = ni
            elif neg_operand(i) is not None:
                if reassociable(i._operands[1].value, "mul") is not None and (
                    not i.has_one_use or reassociable(user_back(i), "mul") is None
                ):
                    ni = lower_negate_to_multiply(i)
                    for u in ni.users:
                        if isinstance(u, BinaryOperator):
                            redo[u] = None
                    redo[i] = None
                    self.changed = True
                    i = ni
        elif op == "fneg" or op == "fsub":
            if should_break_up_subtract(i):
                ni = self.break_up_subtract(i)
                redo[i] = None
                self.changed = True
                i = ni
            elif fneg_operand(i) is not None:
                nop = i._operands[1].value if isinstance(i, BinaryOperator) else i._operands[0].value
                if reassociable(nop, "fmul") is not None and (
                    not i.has_one_use or reassociable(user_back(i), "fmul") is None
                ):
                    ni = lower_negate_to_multiply(i)
                    for u in ni.users:
                        if isinstance(u, BinaryOperator):
                            redo[u] = None
                    redo[i] = None
                    self.changed = True
                    i = ni
        if not is_associative(i):
            return
        assert isinstance(i, BinaryOperator)
        opcode = i.opcode
        if i.has_one_use:
            user = user_back(i)
            uop = opcode_of(user)
            if uop == opcode:
                if user is not i and isinstance(user, Instruction) and user.parent is i.parent:
                    redo[user] = None
                return
            if opcode == "add" and uop == "sub":
                return
            if opcode == "fadd" and uop == "fsub":
                return
        self.reassociate_expression(i)

    def _convert_shift_to_mul(self, shl: Instruction) -> BinaryOperator:
        sa = shl._operands[1].value
        assert isinstance(sa, ConstantInt)
        mul_cst = constant_fold_binary_op_operands("shl", ConstantInt.get(shl.type, 1), sa, self.dl)
        assert mul_cst is not None
        mul = BinaryOperator.create("mul", shl._operands[0].value, mul_cst)
        place(mul, shl)
        shl.set_operand(0, PoisonValue.get(shl.type))
        mul.take_name(shl)
        shl.replace_all_uses_with(mul)
        mul.debug_loc = shl.debug_loc
        fl = shl._flags  # type: ignore[attr-defined]
        nsw = bool(fl & NSW)
        nuw = bool(fl & NUW)
        width = shl.type.width  # type: ignore[attr-defined]
        new = 0
        if nsw and (nuw or sa.value < width - 1):
            new |= NSW
        if nuw:
            new |= NUW
        mul._flags = new
        return mul

    def reassociate_expression(self, i: BinaryOperator) -> None:
        flags = OverflowTracking()
        tree, ch = self.linearize(i, flags)
        self.changed |= ch
        ops: list[Entry] = []
        for v, w in tree:
            r = self.get_rank(v)
            if w == 1:
                ops.append((r, v))
            else:
                ops.extend([(r, v)] * w)
        ops.sort(key=_neg_rank)
        v2 = self.optimize_expression(i, ops)
        if v2 is not None:
            if v2 is i:
                return
            i.replace_all_uses_with(v2)
            if isinstance(v2, Instruction) and i.debug_loc is not None:
                v2.debug_loc = i.debug_loc
            self.redo[i] = None
            return
        if i.has_one_use:
            user = user_back(i)
            last = ops[-1][1]
            if i.opcode == "mul" and opcode_of(user) == "add" and isinstance(last, ConstantInt) and last.is_all_ones_value:
                ops.insert(0, ops.pop())
            elif (
                i.opcode == "fmul"
                and opcode_of(user) == "fadd"
                and isinstance(last, ConstantFP)
                and last is ConstantFP.get(last.type, -1.0)
            ):
                ops.insert(0, ops.pop())
        if len(ops) == 1:
            if ops[0][1] is i:
                return
            i.replace_all_uses_with(ops[0][1])
            o = ops[0][1]
            if isinstance(o, Instruction):
                o.debug_loc = i.debug_loc
            self.redo[i] = None
            return
        if 2 < len(ops) <= _GLOBAL_REASSOCIATE_LIMIT:
            self._apply_pair_map(i, ops)
        self.rewrite_expr_tree(i, ops, flags)

    def _apply_pair_map(self, i: BinaryOperator, ops: list[Entry]) -> None:
        best_max = 1
        best_rank = 0
        best = (0, 0)
        limit = 0
        if self.cse_local:
            first_bb: BasicBlock | None = None
            start = len(ops) - 1
            for k in range(start - 1, -1, -1):
                val = ops[k][1]
                seen = val.parent if isinstance(val, Instruction) else self.fn.entry_block
                if first_bb is None:
                    first_bb = seen
                    continue
                if first_bb is not seen:
                    limit = k + 1
                    break
        table = self.pair_map.get(i.opcode)
        if table is None:
            table = {}
        for a in range(len(ops) - 1, limit, -1):
            for b in range(a - 1, limit - 1, -1):
                score = 0
                op0 = ops[a][1]
                op1 = ops[b][1]
                entry = table.get(_pair_key(op0, op1))
                if entry is not None and _pair_valid(entry):
                    s = entry[2]
                    assert isinstance(s, int)
                    score += s
                max_rank = max(ops[a][0], ops[b][0])
                if score > best_max or (score == best_max and max_rank < best_rank):
                    best = (b, a)
                    best_max = score
                    best_rank = max_rank
        if best_max > 1:
            e0 = ops[best[0]]
            e1 = ops[best[1]]
            del ops[best[1]]
            del ops[best[0]]
            ops.append(e0)
            ops.append(e1)

    def build_pair_map(self, blocks: list[BasicBlock]) -> None:
        limit = _GLOBAL_REASSOCIATE_LIMIT
        for bb in blocks:
            for inst in bb.instructions:
                if not isinstance(inst, BinaryOperator) or not is_associative(inst):
                    continue
                opcode = inst.opcode
                if inst.has_one_use and opcode_of(user_back(inst)) == opcode:
                    continue
                work: list[Value] = [inst._operands[0].value, inst._operands[1].value]
                ops: list[Value] = []
                while work and len(ops) <= limit:
                    op = work.pop()
                    if not isinstance(op, Instruction) or op.opcode != opcode or not op.has_one_use:
                        ops.append(op)
                        continue
                    o0 = op._operands[0].value
                    o1 = op._operands[1].value
                    if o0 is not op:
                        work.append(o0)
                    if o1 is not op:
                        work.append(o1)
                if len(ops) > limit:
                    continue
                table = self.pair_map.setdefault(opcode, {})
                visited: set[tuple[Value, Value]] = set()
                for a in range(len(ops) - 1):
                    for b in range(a + 1, len(ops)):
                        key = _pair_key(ops[a], ops[b])
                        if key in visited:
                            continue
                        visited.add(key)
                        entry = table.get(key)
                        if entry is None:
                            table[key] = [key[0], key[1], 1]
                        else:
                            entry[2] += 1  # type: ignore[operator]

    # --- erasure ---
    def erase_inst(self, i: Instruction) -> None:
        ops = [u.value for u in i._operands]
        self.value_rank.pop(i, None)
        self.redo.pop(i, None)
        salvage_debug_info(i)
        i.erase_from_parent()
        visited: set[Instruction] = set()
        for v in ops:
            if not isinstance(v, Instruction):
                continue
            op = v
            opcode = op.opcode
            while op.has_one_use:
                user = user_back(op)
                if opcode_of(user) != opcode or op in visited:
                    break
                visited.add(op)
                assert isinstance(user, Instruction)
                op = user
            if op in self.value_rank:
                self.redo[op] = None
        self.changed = True

    def recursively_erase_dead(self, i: Instruction, insts: dict[Instruction, None]) -> None:
        ops = [u.value for u in i._operands]
        self.value_rank.pop(i, None)
        insts.pop(i, None)
        self.redo.pop(i, None)
        salvage_debug_info(i)
        i.erase_from_parent()
        for v in ops:
            if isinstance(v, Instruction) and v._use_head is None:
                insts[v] = None

    # --- driver ---
    def run(self) -> bool:
        fn = self.fn
        blocks = reverse_post_order(fn.entry_block)
        self.build_rank_map(blocks)
        self.build_pair_map(blocks)
        redo = self.redo
        for bb in blocks:
            node = bb.instructions._first
            while node is not None:
                if is_instruction_trivially_dead(node):
                    nxt = node._next
                    self.erase_inst(node)
                    node = nxt
                else:
                    self.optimize_inst(node)
                    node = node._next
            to_redo = dict(redo)
            while to_redo:
                inst, _ = to_redo.popitem()
                if is_instruction_trivially_dead(inst):
                    self.recursively_erase_dead(inst, to_redo)
                    self.changed = True
            while redo:
                inst = next(iter(redo))
                del redo[inst]
                if is_instruction_trivially_dead(inst):
                    self.erase_inst(inst)
                else:
                    self.optimize_inst(inst)
        return self.changed


# --- free helpers -------------------------------------------------------------------------


def _neg_rank(e: Entry) -> int:
    return -e[0]


def _pair_key(a: Value, b: Value) -> tuple[Value, Value]:
    if id(b) < id(a):
        return (b, a)
    return (a, b)


def _pair_valid(entry: list[object]) -> bool:
    for v in (entry[0], entry[1]):
        if isinstance(v, Instruction) and v.is_erased:
            return False
    return True


def _fp_equal(a: ConstantFP, b: ConstantFP) -> bool:
    """APFloat ``==`` (IEEE comparison: NaNs unequal, +0 == -0)."""
    if a.is_nan or b.is_nan:
        return False
    if a.is_zero_value and b.is_zero_value:
        return True
    return a.bits == b.bits


def reassociate(fn: Function) -> bool:
    """Run reassociate over ``fn``; True if the IR changed."""
    if fn.is_declaration:
        return False
    module = fn.parent
    dl = module.data_layout if module is not None else DataLayout()
    return Reassociator(fn, dl).run()


class ReassociatePass(Pass[Function]):
    """``reassociate``: reorders commutative expressions by rank to expose constant
    folding, CSE and LICM (LLVM ``ReassociatePass``)."""

    name: ClassVar[str] = "reassociate"

    @property
    def log_name(self) -> str:
        """LLVM's class name, as ``-debug-pass-manager`` prints it."""
        return "ReassociatePass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if not reassociate(unit):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        return pa
