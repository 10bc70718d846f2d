"""Branch and assume facts as ``llvm.ssa.copy`` renames (LLVM ``PredicateInfo``).

Follows LLVM 19.1.7's ``lib/Transforms/Utils/PredicateInfo.cpp``. For every
conditional branch (conditions looked through logical ``and`` on the true edge
and logical ``or`` on the false edge, at most 8 conditions), every ``switch`` and
every ``llvm.assume``, the compared values (and the condition itself) that have
more than one use get a *possible copy* scoped to the edge or to the point after
the assume. Uses of the value are then walked in dominator-tree DFS order with a
renaming stack; the first use a possible copy dominates materialises the copies
on the stack as ``llvm.ssa.copy`` calls (before the branch terminator for edge
facts, after the assume for assume facts) and the use is rewritten to the top
copy. Edges into a block with several predecessors only rename ``phi`` uses
along that edge.

:class:`PredicateInfo` maps each inserted copy to its :class:`PredicateBase`;
:meth:`PredicateBase.get_constraint` gives the comparison a copy satisfies. The
consumer (``ipsccp``) removes the copies when it is done, and
:meth:`PredicateInfo.erase_created_declarations` drops the ``llvm.ssa.copy.*``
declarations this created.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Iterator

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.intrinsics import intrinsic_declaration, lookup_intrinsic
from llvmpy_mid.ir.type_mangling import mangle_type
from llvmpy_mid.ir.value import Use, Value

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.ir.dominators import DominatorTree

MAX_CONDS_PER_BRANCH = 8

PT_BRANCH = 0
PT_ASSUME = 1
PT_SWITCH = 2

_LN_FIRST = 0
_LN_MIDDLE = 1
_LN_LAST = 2


class PredicateBase:
    """One fact about ``original_op``: a branch edge, a switch case edge or an assume."""

    __slots__ = ("kind", "original_op", "renamed_op", "condition", "from_bb", "to_bb", "true_edge", "case_value", "inst")

    def __init__(self, kind: int, op: Value, condition: Value, inst: Instruction) -> None:
        self.kind = kind
        self.original_op = op
        self.renamed_op: Value | None = None
        self.condition = condition
        self.inst = inst
        self.from_bb: BasicBlock | None = None
        self.to_bb: BasicBlock | None = None
        self.true_edge = True
        self.case_value: ConstantInt | None = None

    @property
    def has_edge(self) -> bool:
        return self.kind != PT_ASSUME

    def get_constraint(self) -> tuple[Predicate, Value] | None:
        """``(predicate, other operand)`` the renamed value satisfies, or None
        (LLVM ``PredicateBase::getConstraint``)."""
        if self.kind == PT_SWITCH:
            if self.condition is not self.renamed_op:
                return None
            assert self.case_value is not None
            return Predicate.ICMP_EQ, self.case_value
        true_edge = self.true_edge
        cond = self.condition
        if cond is self.renamed_op:
            return Predicate.ICMP_EQ, ConstantInt.get(cond.type, 1 if true_edge else 0)
        if getattr(cond, "opcode", None) not in ("icmp", "fcmp"):
            return None
        ops = cond._operands  # type: ignore[attr-defined]
        if ops[0].value is self.renamed_op:
            pred = cond.predicate  # type: ignore[attr-defined]
            other = ops[1].value
        elif ops[1].value is self.renamed_op:
            pred = cond.swapped_predicate  # type: ignore[attr-defined]
            other = ops[0].value
        else:
            return None
        if not true_edge:
            pred = pred.inverse
        return pred, other


class _ValueDFS:
    __slots__ = ("dfs_in", "dfs_out", "local_num", "defn", "use", "pinfo", "edge_only")

    def __init__(self) -> None:
        self.dfs_in = 0
        self.dfs_out = 0
        self.local_num = _LN_MIDDLE
        self.defn: Instruction | None = None
        self.use: Use | None = None
        self.pinfo: PredicateBase | None = None
        self.edge_only = False


def _should_rename(v: Value) -> bool:
    return (isinstance(v, Instruction) or isinstance(v, Argument)) and not v.has_one_use


def _conditions(root: Value, taken: bool) -> Iterator[Value]:
    """``root`` and, through logical and (``taken``) or or (not ``taken``), the conditions it
    joins, each once, depth first, at most ``MAX_CONDS_PER_BRANCH`` (LLVM's collection of
    branch and assume conditions)."""
    worklist: list[Value] = [root]
    visited: set[Value] = set()
    while worklist:
        cond = worklist.pop()
        if cond in visited:
            continue
        visited.add(cond)
        if len(visited) > MAX_CONDS_PER_BRANCH:
            return
        pair = _logical_operands(cond, taken)
        if pair is not None:
            worklist.append(pair[1])
            worklist.append(pair[0])
        yield cond


def _logical_operands(cond: Value, is_and: bool) -> tuple[Value, Value] | None:
    """The operands of ``and``/``or i1`` or its select form (``m_LogicalAnd``/``m_LogicalOr``)."""
    ty = cond.type
    if not ty.scalar_type.is_integer or ty.scalar_type.width != 1:  # type: ignore[attr-defined]
        return None
    op = getattr(cond, "opcode", None)
    if op is None:
        return None
    ops = cond._operands  # type: ignore[attr-defined]
    if op == ("and" if is_and else "or"):
        return ops[0].value, ops[1].value
    if op == "select":
        a = ops[0].value
        if a.type is not ty:
            return None
        if is_and:
            c = ops[2].value
            if isinstance(c, ConstantInt) and c.value == 0 or (c.is_constant and getattr(c, "is_null_value", False)):
                return a, ops[1].value
        else:
            c = ops[1].value
            if _is_one(c):
                return a, ops[2].value
    return None


def _is_one(c: Value) -> bool:
    if isinstance(c, ConstantInt):
        return c.value == 1 or c.type.width == 1 and c.value != 0
    splat = getattr(c, "splat_value", None)
    if callable(splat):
        s = splat()
        return isinstance(s, ConstantInt) and s.value != 0
    return False


class PredicateInfo:
    """The copies inserted into one function and the fact behind each."""

    __slots__ = ("function", "predicate_map", "created_declarations", "_dt", "_infos", "_edge_uses_only", "_ops")

    def __init__(self, fn: Function, dt: DominatorTree, ac: AssumptionCache) -> None:
        self.function = fn
        self.predicate_map: dict[Instruction, PredicateBase] = {}
        self.created_declarations: list[Function] = []
        self._dt = dt
        self._infos: dict[Value, list[PredicateBase]] = {}
        self._edge_uses_only: set[tuple[BasicBlock, BasicBlock]] = set()
        self._ops: list[Value] = []
        self._build(ac)

    def get_predicate_info_for(self, inst: Instruction) -> PredicateBase | None:
        return self.predicate_map.get(inst)

    # --- collecting ------------------------------------------------------------------------
    def _add_info(self, op: Value, pb: PredicateBase) -> None:
        lst = self._infos.get(op)
        if lst is None:
            lst = self._infos[op] = []
            self._ops.append(op)
        lst.append(pb)

    def _build(self, ac: AssumptionCache) -> None:
        dt = self._dt
        fn = self.function
        entry = fn.entry_block
        stack = [entry]
        while stack:
            bb = stack.pop()
            term = bb.terminator
            if term is not None:
                if term.opcode == "br" and term.is_conditional:  # type: ignore[attr-defined]
                    if term.get_successor(0) is not term.get_successor(1):
                        self._process_branch(term, bb)
                elif term.opcode == "switch":
                    self._process_switch(term, bb)
            children = dt.children(bb)
            for child in reversed(children):
                stack.append(child)
        for assume in ac.assumptions():
            if lookup_intrinsic(getattr(assume.called_function, "name", "")) != "llvm.assume":
                continue
            parent = assume.parent
            if parent is not None and dt.is_reachable(parent):
                self._process_assume(assume)
        self._rename_uses()

    def _process_assume(self, assume: CallBase) -> None:
        for cond in _conditions(assume.get_arg(0), True):
            for v in self._values_of(cond):
                if _should_rename(v):
                    self._add_info(v, PredicateBase(PT_ASSUME, v, cond, assume))

    @staticmethod
    def _values_of(cond: Value) -> list[Value]:
        values = [cond]
        if getattr(cond, "opcode", None) in ("icmp", "fcmp"):
            ops = cond._operands  # type: ignore[attr-defined]
            if ops[0].value is not ops[1].value:
                values.append(ops[0].value)
                values.append(ops[1].value)
        return values

    def _process_branch(self, br: Instruction, bb: BasicBlock) -> None:
        first = br.get_successor(0)
        second = br.get_successor(1)
        for succ in (first, second):
            taken = succ is first
            if succ is bb:
                continue
            for cond in _conditions(br.condition, taken):  # type: ignore[attr-defined]
                for v in self._values_of(cond):
                    if _should_rename(v):
                        pb = PredicateBase(PT_BRANCH, v, cond, br)
                        pb.from_bb = bb
                        pb.to_bb = succ
                        pb.true_edge = taken
                        self._add_info(v, pb)
                        if succ.single_predecessor is None:
                            self._edge_uses_only.add((bb, succ))

    def _process_switch(self, sw: Instruction, bb: BasicBlock) -> None:
        op = sw.condition  # type: ignore[attr-defined]
        if not (isinstance(op, Instruction) or isinstance(op, Argument)) or op.has_one_use:
            return
        edges: dict[BasicBlock, int] = {}
        for i in range(sw.num_successors):
            s = sw.get_successor(i)
            edges[s] = edges.get(s, 0) + 1
        for value, target in sw.cases:  # type: ignore[attr-defined]
            if edges.get(target, 0) == 1:
                pb = PredicateBase(PT_SWITCH, op, op, sw)
                pb.from_bb = bb
                pb.to_bb = target
                pb.case_value = value
                self._add_info(op, pb)
                if target.single_predecessor is None:
                    self._edge_uses_only.add((bb, target))

    # --- renaming --------------------------------------------------------------------------
    def _less(self, a: _ValueDFS, b: _ValueDFS) -> bool:
        if a is b:
            return False
        same_block = a.dfs_in == b.dfs_in
        if same_block and a.local_num == _LN_LAST and b.local_num == _LN_LAST:
            return self._compare_phi_related(a, b)
        a_def = a.defn is not None
        b_def = b.defn is not None
        if not same_block or a.local_num != _LN_MIDDLE or b.local_num != _LN_MIDDLE:
            return (a.dfs_in, a.local_num, a_def) < (b.dfs_in, b.local_num, b_def)
        return self._local_comes_before(a, b)

    def _edge_of(self, vd: _ValueDFS) -> tuple[BasicBlock, BasicBlock]:
        if vd.defn is None and vd.use is not None:
            phi = vd.use.user
            return phi.incoming_blocks[vd.use.index], phi.parent  # type: ignore[attr-defined]
        pb = vd.pinfo
        assert pb is not None and pb.from_bb is not None and pb.to_bb is not None
        return pb.from_bb, pb.to_bb

    def _compare_phi_related(self, a: _ValueDFS, b: _ValueDFS) -> bool:
        a_dest = self._edge_of(a)[1]
        b_dest = self._edge_of(b)[1]
        a_in = self._dt.dfs_numbers(a_dest)[0]
        b_in = self._dt.dfs_numbers(b_dest)[0]
        return (a_in, a.defn is not None) < (b_in, b.defn is not None)

    @staticmethod
    def _middle_inst(vd: _ValueDFS) -> Instruction:
        if vd.defn is not None:
            return vd.defn
        if vd.use is None:
            assert vd.pinfo is not None
            nxt = vd.pinfo.inst._next
            assert isinstance(nxt, Instruction)
            return nxt
        user = vd.use.user
        assert isinstance(user, Instruction)
        return user

    def _local_comes_before(self, a: _ValueDFS, b: _ValueDFS) -> bool:
        ia = self._middle_inst(a)
        ib = self._middle_inst(b)
        if ia is ib:
            return False
        return ia.comes_before(ib)

    def _cmp(self, a: _ValueDFS, b: _ValueDFS) -> int:
        if self._less(a, b):
            return -1
        if self._less(b, a):
            return 1
        return 0

    def _in_scope(self, stack: list[_ValueDFS], vd: _ValueDFS) -> bool:
        if not stack:
            return False
        top = stack[-1]
        if top.edge_only:
            use = vd.use
            if use is None:
                return False
            phi = use.user
            if getattr(phi, "opcode", None) != "phi":
                return False
            pb = top.pinfo
            assert pb is not None and pb.from_bb is not None and pb.to_bb is not None
            pred = phi.incoming_blocks[use.index]  # type: ignore[attr-defined]
            if pred is not pb.from_bb:
                return False
            if phi.parent is pb.to_bb:  # type: ignore[attr-defined]
                return True
            return self._dt.dominates_edge(pb.from_bb, pb.to_bb, pred)
        return vd.dfs_in >= top.dfs_in and vd.dfs_out <= top.dfs_out

    def _uses_in_dfs_order(self, op: Value, out: list[_ValueDFS]) -> None:
        dt = self._dt
        for use in list(op.uses):
            user = use.user
            if not isinstance(user, Instruction):
                continue
            vd = _ValueDFS()
            if user.opcode == "phi":
                block = user.incoming_blocks[use.index]  # type: ignore[attr-defined]
                vd.local_num = _LN_LAST
            else:
                block = user.parent
                vd.local_num = _LN_MIDDLE
            if block is None or not dt.is_reachable(block):
                continue
            vd.dfs_in, vd.dfs_out = dt.dfs_numbers(block)
            vd.use = use
            out.append(vd)

    def _rename_uses(self) -> None:
        dt = self._dt
        key = functools.cmp_to_key(self._cmp)
        for op in self._ops:
            counter = [0]
            ordered: list[_ValueDFS] = []
            for pb in self._infos[op]:
                vd = _ValueDFS()
                if pb.kind == PT_ASSUME:
                    parent = pb.inst.parent
                    if parent is None or not dt.is_reachable(parent):
                        continue
                    vd.local_num = _LN_MIDDLE
                    vd.dfs_in, vd.dfs_out = dt.dfs_numbers(parent)
                    vd.pinfo = pb
                    ordered.append(vd)
                    continue
                assert pb.from_bb is not None and pb.to_bb is not None
                if (pb.from_bb, pb.to_bb) in self._edge_uses_only:
                    if dt.is_reachable(pb.from_bb):
                        vd.local_num = _LN_LAST
                        vd.dfs_in, vd.dfs_out = dt.dfs_numbers(pb.from_bb)
                        vd.pinfo = pb
                        vd.edge_only = True
                        ordered.append(vd)
                elif dt.is_reachable(pb.to_bb):
                    vd.local_num = _LN_FIRST
                    vd.dfs_in, vd.dfs_out = dt.dfs_numbers(pb.to_bb)
                    vd.pinfo = pb
                    ordered.append(vd)
            self._uses_in_dfs_order(op, ordered)
            ordered.sort(key=key)
            stack: list[_ValueDFS] = []
            for vd in ordered:
                possible_copy = vd.pinfo is not None
                should_push = vd.defn is not None or possible_copy
                if should_push or not self._in_scope(stack, vd):
                    while stack and not self._in_scope(stack, vd):
                        stack.pop()
                    if should_push:
                        stack.append(vd)
                if not stack or should_push:
                    continue
                result = stack[-1]
                if result.defn is None:
                    result.defn = self._materialize(counter, stack, op)
                use = vd.use
                assert use is not None
                use.set(result.defn)

    def _materialize(self, counter: list[int], stack: list[_ValueDFS], orig: Value) -> Instruction:
        start = len(stack)
        while start > 0 and stack[start - 1].defn is None:
            start -= 1
        renamed = orig if start == 0 else stack[start - 1].defn
        for i in range(start, len(stack)):
            op = orig if i == 0 else stack[i - 1].defn
            assert op is not None
            entry = stack[i]
            pb = entry.pinfo
            assert pb is not None
            pb.renamed_op = renamed
            decl = self._declaration(op)
            if pb.has_edge:
                assert pb.from_bb is not None
                term = pb.from_bb.terminator
                assert term is not None
                name = f"{op.name}.{counter[0]}" if op.name else ""
                counter[0] += 1
                call = CallInst.create(decl, [op], name=name)
                call.insert_before(term)
            else:
                call = CallInst.create(decl, [op])
                nxt = pb.inst._next
                assert isinstance(nxt, Instruction)
                call.insert_before(nxt)
            self.predicate_map[call] = pb
            entry.defn = call
        top = stack[-1].defn
        assert top is not None
        return top

    def _declaration(self, op: Value) -> Function:
        module = self.function.parent
        assert module is not None
        suffix = mangle_type(op.type)
        name = "llvm.ssa.copy." + (suffix or "")
        existing = module.get_function(name)
        if existing is not None:
            return existing
        decl = intrinsic_declaration(module, name, op.type.context.function_type(op.type, [op.type]))
        self.created_declarations.append(decl)
        return decl

    def erase_created_declarations(self) -> None:
        """Drop the ``llvm.ssa.copy`` declarations this created (once the copies are gone)."""
        for decl in self.created_declarations:
            if decl.parent is not None and decl.use_empty:
                decl.erase_from_parent()
        self.created_declarations.clear()


__all__ = ["MAX_CONDS_PER_BRANCH", "PT_ASSUME", "PT_BRANCH", "PT_SWITCH", "PredicateBase", "PredicateInfo"]
