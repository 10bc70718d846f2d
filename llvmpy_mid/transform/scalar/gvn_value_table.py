"""GVN's value numbering: expressions, the value table and the leader table (LLVM
19.1.7 ``llvm/lib/Transforms/Scalar/GVN.cpp``, ``GVNPass::ValueTable``,
``GVNPass::Expression`` and ``GVNPass::LeaderMap``).

What: every value gets a number; two instructions get the same number when they
compute the same expression of the same numbered operands. An expression is a
flat tuple ``(opcode, type, *varargs)`` (LLVM's ``Expression``: opcode, type,
operand numbers): commutative operations sort their first two operand numbers,
compares sort them and swap the predicate (the opcode is ``opcode << 8 |
predicate``), ``insertvalue``/``extractvalue`` append their indices and
``shufflevector`` its mask, a ``getelementptr`` is numbered by its base and its
offsets (``collectOffset``: a variable index with its scale, then the constant
offset) so differently typed address computations agree, an ``extractvalue`` of
field 0 of a ``*.with.overflow`` intrinsic is numbered as the plain binary
operation, a phi gets a fresh number (remembered for phi translation) and calls
are numbered by their memory behaviour: calls that do not access memory as
expressions, read-only calls through memdep (equal to an identical dominating
call with no intervening clobber), other calls uniquely. Numbers are handed out
in LLVM's order, so the "older value" heuristics agree with opt-19.

The leader table maps a number to the values known to have it, each with its
block, in LLVM's list order (the first entry stays first; later ones go in
second place), and ``find_leader`` returns the last dominating one, or the first
dominating constant.

``phi_translate`` gives the number a value number has along an edge into a
block with phis (cached per (number, predecessor)), as LLVM does for scalar PRE.

A ``gc.relocate`` is numbered by its statepoint token and the base and derived
pointers its indices select.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Opcode
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.types import ArrayType, StructType, VectorType

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.instructions.other import PHINode
    from llvmpy_mid.ir.value import Value

__all__ = ["Expression", "LeaderMap", "ValueTable", "collect_gep_offset"]

Expression = tuple[Any, ...]
"""``(opcode, type, *varargs)``: LLVM's ``GVNPass::Expression`` as a hashable key."""

_CREATE_EXPR_OPCODES = frozenset(
    (
        "fneg", "add", "fadd", "sub", "fsub", "mul", "fmul", "udiv", "sdiv", "fdiv", "urem",
        "srem", "frem", "shl", "lshr", "ashr", "and", "or", "xor", "icmp", "fcmp", "trunc",
        "zext", "sext", "fptoui", "fptosi", "uitofp", "sitofp", "fptrunc", "fpext", "ptrtoint",
        "inttoptr", "addrspacecast", "bitcast", "select", "freeze", "extractelement",
        "insertelement", "shufflevector", "insertvalue",
    )
)
"""The opcodes LLVM's ``lookupOrAdd`` numbers through ``createExpr``."""

OP_CALL = int(Opcode.of("call"))
OP_INSERTVALUE = int(Opcode.of("insertvalue"))
OP_EXTRACTVALUE = int(Opcode.of("extractvalue"))
OP_SHUFFLEVECTOR = int(Opcode.of("shufflevector"))
OP_ICMP = int(Opcode.of("icmp"))
OP_FCMP = int(Opcode.of("fcmp"))
OP_GEP = int(Opcode.of("getelementptr"))

_GC_RELOCATE = "llvm.experimental.gc.relocate"

_WITH_OVERFLOW_BINOP = {
    "llvm.sadd.with.overflow": int(Opcode.of("add")),
    "llvm.uadd.with.overflow": int(Opcode.of("add")),
    "llvm.ssub.with.overflow": int(Opcode.of("sub")),
    "llvm.usub.with.overflow": int(Opcode.of("sub")),
    "llvm.smul.with.overflow": int(Opcode.of("mul")),
    "llvm.umul.with.overflow": int(Opcode.of("mul")),
}


def _with_overflow_binop(v: Value) -> int | None:
    """The binary opcode of a ``*.with.overflow`` intrinsic call (LLVM ``WithOverflowInst``)."""
    if not v.is_instruction or v.opcode != "call":  # type: ignore[attr-defined]
        return None
    name: str = v.intrinsic_name  # type: ignore[attr-defined]
    if not name:
        return None
    dot = name.find(".with.overflow")
    if dot < 0:
        return None
    return _WITH_OVERFLOW_BINOP.get(name[: dot + len(".with.overflow")])


def collect_gep_offset(gep: Instruction, dl: DataLayout, bit_width: int) -> tuple[dict[Value, int], int] | None:
    """The variable offsets (index value -> scale, in first-seen order) and the constant
    offset of ``gep``, modulo ``2**bit_width``; None for a scalable type (LLVM
    ``GEPOperator::collectOffset``)."""
    mask = (1 << bit_width) - 1
    variable: dict[Value, int] = {}
    constant = 0
    ty = gep.source_element_type  # type: ignore[attr-defined]
    ops = gep.operands
    for k in range(1, len(ops)):
        v = ops[k]
        if k == 1:
            indexed = ty
            struct = None
        else:
            struct = ty if isinstance(ty, StructType) else None
            if struct is not None:
                indexed = None
            elif isinstance(ty, (ArrayType, VectorType)):
                indexed = ty.element_type
            else:
                return None
        scalable = False
        if indexed is not None:
            scalable = dl.is_scalable(indexed)
        if isinstance(v, ConstantInt):
            if struct is not None:
                idx = v.value
                constant = (constant + dl.struct_layout(struct).element_offset(idx)) & mask
                ty = struct.elements[idx]
                continue
            assert indexed is not None
            ty = indexed
            if v.value == 0:
                continue
            if scalable:
                return None
            sval = v.value
            w = v.type.width
            if sval >> (w - 1) & 1:
                sval -= 1 << w
            constant = (constant + sval * dl.type_alloc_size(indexed)) & mask
            continue
        if struct is not None or scalable or indexed is None:
            return None
        ty = indexed
        stride = dl.type_alloc_size(indexed) & mask
        if stride:
            variable[v] = (variable.get(v, 0) + stride) & mask
    return variable, constant


class LeaderMap:
    """Value number -> [(value, block)] in LLVM's leader-list order (``LeaderMap``)."""

    __slots__ = ("num_to_leaders",)

    def __init__(self) -> None:
        self.num_to_leaders: dict[int, list[tuple[Value, BasicBlock]]] = {}

    def insert(self, num: int, v: Value, bb: BasicBlock) -> None:
        entries = self.num_to_leaders.get(num)
        if entries is None:
            self.num_to_leaders[num] = [(v, bb)]
        elif not entries:
            entries.append((v, bb))
        else:
            entries.insert(1, (v, bb))

    def erase(self, num: int, v: Value, bb: BasicBlock) -> None:
        entries = self.num_to_leaders.get(num)
        if not entries:
            return
        for i, (ev, eb) in enumerate(entries):
            if ev is v and eb is bb:
                del entries[i]
                return

    def get_leaders(self, num: int) -> list[tuple[Value, BasicBlock]]:
        return self.num_to_leaders.get(num) or []

    def clear(self) -> None:
        self.num_to_leaders.clear()


class ValueTable:
    """Value -> number, expression -> number (LLVM ``GVNPass::ValueTable``)."""

    __slots__ = (
        "value_numbering",
        "expression_numbering",
        "expressions",
        "expr_idx",
        "numbering_phi",
        "phi_translate_table",
        "next_value_number",
        "aa",
        "md",
        "dt",
        "dl",
    )

    def __init__(self, dl: DataLayout) -> None:
        self.value_numbering: dict[Value, int] = {}
        self.expression_numbering: dict[Expression, int] = {}
        self.expressions: list[tuple[Expression, bool]] = []
        self.expr_idx: dict[int, int] = {}
        self.numbering_phi: dict[int, PHINode] = {}
        self.phi_translate_table: dict[tuple[int, BasicBlock], int] = {}
        self.next_value_number = 1
        self.aa: Any = None
        self.md: Any = None
        self.dt: DominatorTree | None = None
        self.dl = dl

    # --- numbers -------------------------------------------------------------------------------
    def _fresh(self, v: Value) -> int:
        n = self.next_value_number
        self.value_numbering[v] = n
        self.next_value_number = n + 1
        return n

    def add(self, v: Value, num: int) -> None:
        """Give ``v`` the number ``num`` (LLVM ``add``; an existing entry is kept)."""
        self.value_numbering.setdefault(v, num)
        if v.is_instruction and v.is_phi:  # type: ignore[attr-defined]
            self.numbering_phi[num] = v  # type: ignore[assignment]

    def exists(self, v: Value) -> bool:
        return v in self.value_numbering

    def lookup(self, v: Value, verify: bool = True) -> int:
        n = self.value_numbering.get(v)
        if n is None:
            assert not verify, "value not numbered"
            return 0
        return n

    def get_next_unused_value_number(self) -> int:
        return self.next_value_number

    def erase(self, v: Value) -> None:
        num = self.value_numbering.pop(v, 0)
        if v.is_instruction and v.is_phi:  # type: ignore[attr-defined]
            self.numbering_phi.pop(num, None)

    def clear(self) -> None:
        self.value_numbering.clear()
        self.expression_numbering.clear()
        self.numbering_phi.clear()
        self.phi_translate_table.clear()
        self.next_value_number = 1
        self.expressions.clear()
        self.expr_idx.clear()

    def assign_exp_new_value_num(self, exp: Expression, commutative: bool) -> tuple[int, bool]:
        """The number of ``exp`` and whether it is new (LLVM ``assignExpNewValueNum``)."""
        e = self.expression_numbering.get(exp)
        if e:
            return e, False
        n = self.next_value_number
        self.expression_numbering[exp] = n
        self.expr_idx[n] = len(self.expressions)
        self.expressions.append((exp, commutative))
        self.next_value_number = n + 1
        return n, True

    # --- expressions ---------------------------------------------------------------------------
    def create_expr(self, inst: Instruction) -> tuple[Expression, bool]:
        lookup_or_add = self.lookup_or_add
        if inst.opcode == "call" and inst.intrinsic_base == _GC_RELOCATE:  # type: ignore[attr-defined]
            from llvmpy_mid.ir.statepoint import gc_relocate_pointers

            gcr = gc_relocate_pointers(inst)  # type: ignore[arg-type]
            varargs = [lookup_or_add(op) for op in (gcr if gcr is not None else inst.operands)]
        else:
            varargs = [lookup_or_add(op) for op in inst.operands]
        opcode: int = inst.opcode_id
        commutative = False
        if inst.is_commutative:
            if varargs[0] > varargs[1]:
                varargs[0], varargs[1] = varargs[1], varargs[0]
            commutative = True
        op = inst.opcode
        if op == "icmp" or op == "fcmp":
            pred = inst.predicate  # type: ignore[attr-defined]
            if varargs[0] > varargs[1]:
                varargs[0], varargs[1] = varargs[1], varargs[0]
                pred = pred.swapped
            opcode = (opcode << 8) | int(pred)
            commutative = True
        elif op == "insertvalue":
            varargs.extend(inst.indices)  # type: ignore[attr-defined]
        elif op == "shufflevector":
            varargs.extend(m & 0xFFFFFFFF for m in inst.mask)  # type: ignore[attr-defined]
        return (opcode, inst.type, *varargs), commutative

    def create_cmp_expr(self, opcode: int, pred: Predicate, lhs: Value, rhs: Value) -> Expression:
        ty = lhs.type
        ctx = ty.context
        i1 = ctx.int_type(1)
        res_ty = ctx.vector_type(i1, ty.count, ty.scalable) if isinstance(ty, VectorType) else i1
        a = self.lookup_or_add(lhs)
        b = self.lookup_or_add(rhs)
        if a > b:
            a, b = b, a
            pred = pred.swapped
        return ((opcode << 8) | int(pred), res_ty, a, b)

    def create_extractvalue_expr(self, ev: Instruction) -> tuple[Expression, bool]:
        agg = ev.get_operand(0)
        indices: tuple[int, ...] = ev.indices  # type: ignore[attr-defined]
        binop = _with_overflow_binop(agg)
        if binop is not None and len(indices) == 1 and indices[0] == 0:
            call_args = agg.args  # type: ignore[attr-defined]
            a = self.lookup_or_add(call_args[0])
            b = self.lookup_or_add(call_args[1])
            return (binop, ev.type, a, b), False
        varargs = [self.lookup_or_add(op) for op in ev.operands]
        varargs.extend(indices)
        return (ev.opcode_id, ev.type, *varargs), False

    def create_gep_expr(self, gep: Instruction) -> tuple[Expression, bool]:
        dl = self.dl
        ptr_ty = gep.type
        bit_width = dl.index_type_size_in_bits(ptr_ty.element_type if isinstance(ptr_ty, VectorType) else ptr_ty)
        collected = collect_gep_offset(gep, dl, bit_width)
        if collected is not None:
            variable, constant = collected
            ctx = ptr_ty.context
            int_ty = ctx.int_type(bit_width)
            varargs = [self.lookup_or_add(gep.get_operand(0))]
            for v, scale in variable.items():
                varargs.append(self.lookup_or_add(v))
                varargs.append(self.lookup_or_add(ConstantInt.get(int_ty, scale)))
            if constant:
                varargs.append(self.lookup_or_add(ConstantInt.get(int_ty, constant)))
            return (OP_GEP, None, *varargs), False
        varargs = [self.lookup_or_add(op) for op in gep.operands]
        return (OP_GEP, gep.source_element_type, *varargs), False  # type: ignore[attr-defined]

    # --- lookup_or_add -------------------------------------------------------------------------
    def lookup_or_add(self, v: Value) -> int:
        """The number of ``v``, numbering it first if needed (LLVM ``lookupOrAdd``)."""
        n = self.value_numbering.get(v)
        if n is not None:
            return n
        if not v.is_instruction:
            return self._fresh(v)
        inst: Instruction = v  # type: ignore[assignment]
        op = inst.opcode
        if op in _CREATE_EXPR_OPCODES:
            exp, comm = self.create_expr(inst)
        elif op == "call":
            return self.lookup_or_add_call(inst)
        elif op == "getelementptr":
            exp, comm = self.create_gep_expr(inst)
        elif op == "extractvalue":
            exp, comm = self.create_extractvalue_expr(inst)
        elif op == "phi":
            n = self._fresh(v)
            self.numbering_phi[n] = v  # type: ignore[assignment]
            return n
        else:
            return self._fresh(v)
        e = self.assign_exp_new_value_num(exp, comm)[0]
        self.value_numbering[v] = e
        return e

    def lookup_or_add_cmp(self, opcode: int, pred: Predicate, lhs: Value, rhs: Value) -> int:
        """The number of ``lhs pred rhs`` (LLVM ``lookupOrAddCmp``)."""
        return self.assign_exp_new_value_num(self.create_cmp_expr(opcode, pred, lhs, rhs), True)[0]

    def _args_equal(self, c: Instruction, other: Instruction) -> bool:
        a1 = c.args  # type: ignore[attr-defined]
        a2 = other.args  # type: ignore[attr-defined]
        if len(a1) != len(a2):
            return False
        for x, y in zip(a1, a2):
            if self.lookup_or_add(x) != self.lookup_or_add(y):
                return False
        return True

    def lookup_or_add_call(self, c: Instruction) -> int:
        """LLVM ``lookupOrAddCall``."""
        fn = c.function
        if fn is not None and fn.has_fn_attribute("presplitcoroutine"):
            return self._fresh(c)
        if c.is_convergent:  # type: ignore[attr-defined]
            return self._fresh(c)
        aa = self.aa
        if aa.does_not_access_memory(c):
            exp, comm = self.create_expr(c)
            e = self.assign_exp_new_value_num(exp, comm)[0]
            self.value_numbering[c] = e
            return e
        md = self.md
        if md is not None and aa.only_reads_memory(c):
            exp, comm = self.create_expr(c)
            num, new = self.assign_exp_new_value_num(exp, comm)
            if new:
                self.value_numbering[c] = num
                return num
            local_dep = md.get_dependency(c)
            if not local_dep.is_def() and not local_dep.is_non_local():
                return self._fresh(c)
            if local_dep.is_def():
                cdep = local_dep.get_inst()
                if cdep is None or cdep.opcode != "call" or not self._args_equal(c, cdep):
                    return self._fresh(c)
                v = self.lookup_or_add(cdep)
                self.value_numbering[c] = v
                return v
            deps = md.get_non_local_call_dependency(c)
            cdep = None
            dt = self.dt
            assert dt is not None
            for entry in deps:
                res = entry.get_result()
                if res.is_non_local():
                    continue
                if not res.is_def() or cdep is not None:
                    cdep = None
                    break
                dep_inst = res.get_inst()
                if dep_inst is not None and dep_inst.opcode == "call" and dt.properly_dominates(entry.get_bb(), c.parent):  # type: ignore[arg-type]
                    cdep = dep_inst
                    continue
                cdep = None
                break
            if cdep is None or not self._args_equal(c, cdep):
                return self._fresh(c)
            v = self.lookup_or_add(cdep)
            self.value_numbering[c] = v
            return v
        return self._fresh(c)

    # --- phi translation -----------------------------------------------------------------------
    def phi_translate(self, pred: BasicBlock, phi_block: BasicBlock, num: int, gvn: Any) -> int:
        """``num`` as seen along ``pred -> phi_block`` (LLVM ``phiTranslate``, cached)."""
        key = (num, pred)
        got = self.phi_translate_table.get(key)
        if got is not None:
            return got
        new = self._phi_translate_impl(pred, phi_block, num, gvn)
        self.phi_translate_table[key] = new
        return new

    def _phi_translate_impl(self, pred: BasicBlock, phi_block: BasicBlock, num: int, gvn: Any) -> int:
        phi = self.numbering_phi.get(num)
        if phi is not None:
            if phi.parent is phi_block:
                for i, bb in enumerate(phi.incoming_blocks):
                    if bb is pred:
                        trans = self.lookup(phi.get_incoming_value(i), False)
                        if trans:
                            return trans
            return num
        leaders = gvn.leader_table.get_leaders(num)
        for _, bb in leaders:
            if bb is not phi_block:
                return num
        idx = self.expr_idx.get(num, 0)
        if idx == 0:
            return num
        exp, commutative = self.expressions[idx]
        opcode = exp[0]
        varargs = list(exp[2:])
        for i in range(len(varargs)):
            if (i > 1 and opcode == OP_INSERTVALUE) or (i > 0 and opcode == OP_EXTRACTVALUE) or (
                i > 1 and opcode == OP_SHUFFLEVECTOR
            ):
                continue
            varargs[i] = self.phi_translate(pred, phi_block, varargs[i], gvn)
        if commutative and varargs[0] > varargs[1]:
            varargs[0], varargs[1] = varargs[1], varargs[0]
            base = opcode >> 8
            if base == OP_ICMP or base == OP_FCMP:
                opcode = (base << 8) | int(Predicate(opcode & 255).swapped)
        new = self.expression_numbering.get((opcode, exp[1], *varargs))
        if new:
            if opcode == OP_CALL and new != num:
                return new if self._are_call_vals_equal(num, new, pred, phi_block, gvn) else num
            return new
        return num

    def _are_call_vals_equal(self, num: int, new: int, pred: BasicBlock, phi_block: BasicBlock, gvn: Any) -> bool:
        """LLVM ``areCallValsEqual``."""
        call = None
        for v, _ in gvn.leader_table.get_leaders(num):
            call = v if v.is_instruction and v.opcode == "call" else None
            if call is not None and call.parent is phi_block:
                break
        aa = self.aa
        if call is None:
            return False
        if aa.does_not_access_memory(call):
            return True
        md = self.md
        if md is None or not aa.only_reads_memory(call):
            return False
        if not md.get_dependency(call).is_non_local():
            return False
        for entry in md.get_non_local_call_dependency(call):
            if entry.get_result().is_non_func_local():
                return True
        return False

    def erase_translate_cache_entry(self, num: int, block: BasicBlock) -> None:
        table = self.phi_translate_table
        for pred in block.predecessors:
            table.pop((num, pred), None)


# --- the pass's statistics (LLVM's STATISTIC counters of GVN.cpp) ------------------------------

from llvmpy_mid.passes.statistics import Statistic  # noqa: E402

NUM_GVN_INSTR = Statistic("gvn", "NumGVNInstr", "Number of instructions deleted")
NUM_GVN_LOAD = Statistic("gvn", "NumGVNLoad", "Number of loads deleted")
NUM_GVN_PRE = Statistic("gvn", "NumGVNPRE", "Number of instructions PRE'd")
NUM_GVN_BLOCKS = Statistic("gvn", "NumGVNBlocks", "Number of blocks merged")
NUM_GVN_SIMPL = Statistic("gvn", "NumGVNSimpl", "Number of instructions simplified")
NUM_GVN_EQ_PROP = Statistic("gvn", "NumGVNEqProp", "Number of equalities propagated")
NUM_PRE_LOAD = Statistic("gvn", "NumPRELoad", "Number of loads PRE'd")
NUM_PRE_LOOP_LOAD = Statistic("gvn", "NumPRELoopLoad", "Number of loop loads PRE'd")
NUM_PRE_LOAD_MOVED_2_CE_PRED = Statistic(
    "gvn", "NumPRELoadMoved2CEPred", "Number of loads moved to predecessor of a critical edge in PRE"
)
IS_VALUE_FULLY_AVAILABLE_IN_BLOCK_NUM_SPECULATIONS_MAX = Statistic(
    "gvn",
    "IsValueFullyAvailableInBlockNumSpeculationsMax",
    "Number of blocks speculated as available in IsValueFullyAvailableInBlock(), max",
)
MAX_BB_SPECULATION_CUTOFF_REACHED_TIMES = Statistic(
    "gvn",
    "MaxBBSpeculationCutoffReachedTimes",
    "Number of times we we reached gvn-max-block-speculations cut-off preventing further exploration",
)
