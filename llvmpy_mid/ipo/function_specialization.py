"""Function specialization inside ``ipsccp`` (LLVM ``FunctionSpecializer``).

Follows LLVM 19.1.7's ``lib/Transforms/IPO/FunctionSpecialization.cpp``. A
candidate function (with arguments, executable, not ``nodup``/``optsize``/
``alwaysinline``, at least ``-funcspec-min-function-size`` instructions of code
size unless ``noinline``) is looked at call site by call site: the arguments
that are still overdefined (pointers; integers, floats and structs only with
``-funcspec-for-literal-constant``) and receive a constant there form a
signature. Each new signature is scored with :class:`InstCostVisitor` (the code
size and frequency-weighted latency of the users that fold, and of the blocks
that become dead) and an inlining bonus (the inline cost of indirect calls
through a function-pointer argument); profitable ones compete for
``-funcspec-max-clones`` clones per candidate (libstdc++'s heap order decides
ties). Each chosen signature becomes a clone ``F.specialized.N`` (internal, its
``llvm.ssa.copy`` calls removed) whose arguments are seeded in the solver; the
call sites are redirected, the solver re-run, and a function all of whose calls
went to clones is dropped at the end. Recursive functions get constant stack
arguments promoted to ``specialized.arg.N`` globals between rounds.
"""

from __future__ import annotations

from typing import Any, Callable

from llvmpy_mid.analysis.code_metrics import CodeMetrics, collect_ephemeral_values
from llvmpy_mid.analysis.constant_folding import (
    can_constant_fold_call_to,
    constant_fold_call,
    constant_fold_cast_operand,
    constant_fold_compare_inst_operands,
    constant_fold_inst_operands,
    constant_fold_load_from_const_ptr,
    constant_fold_unary_op_operand,
)
from llvmpy_mid.analysis.inline_cost import INDIRECT_CALL_THRESHOLD, get_inline_params, has_opt_size
from llvmpy_mid.analysis.instruction_simplify import simplify_binop
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.target_transform_info import TCK_CODE_SIZE, TCK_LATENCY
from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.analysis.value_tracking import is_guaranteed_not_to_be_undef_or_poison
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.cloning import clone_function
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantPointerNull, PoisonValue
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.global_value import GlobalVariable, Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.casts import CAST_OPCODES
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.sccp_solver import SCCPSolver, is_overdefined

NUM_SPECS_CREATED = Statistic("function-specialization", "NumSpecsCreated", "Number of specializations created")

_U32 = 0xFFFFFFFF


def _opt(name: str) -> Any:
    return OPTIONS.value(name)


def _cost(c: object) -> int:
    v = getattr(c, "value", c)
    return int(v) if v is not None else 0  # type: ignore[call-overload]


def _remove_ssa_copy(fn: Function) -> None:
    for bb in fn.blocks:
        inst = bb.first_instruction
        while inst is not None:
            nxt = inst._next
            if isinstance(inst, CallBase) and _is_ssa_copy(inst):
                inst.replace_all_uses_with(inst.get_arg(0))
                inst.erase_from_parent()
            inst = nxt


def _is_ssa_copy(inst: Instruction) -> bool:
    if not isinstance(inst, CallBase) or inst.opcode != "call":
        return False
    fn = inst.called_function
    return fn is not None and lookup_intrinsic(fn.name) == "llvm.ssa.copy"


class InstCostVisitor:
    """What specialising one function on constant arguments saves (LLVM ``InstCostVisitor``)."""

    def __init__(self, dl: object, bfi: Any, tti: Any, solver: SCCPSolver, entry: BasicBlock) -> None:
        self.dl = dl
        self.bfi = bfi
        self.tti = tti
        self.solver = solver
        self.entry_freq = max(1, bfi.frequency(entry))
        self.known: dict[Value, Constant] = {}
        self.dead_blocks: set[BasicBlock] = set()
        self.pending_phis: list[Instruction] = []
        self.visited_phis: set[Instruction] = set()
        self.last: tuple[Value, Constant] | None = None

    def _executable(self, bb: BasicBlock | None) -> bool:
        return bb is not None and self.solver.is_block_executable(bb) and bb not in self.dead_blocks

    def _can_eliminate_successor(self, bb: BasicBlock, succ: BasicBlock) -> bool:
        i = 0
        for pred in succ.predecessors:
            if not i < _opt("funcspec-max-block-predecessors"):
                return False
            i += 1
            if not (pred is bb or pred is succ or pred in self.dead_blocks):
                return False
        return True

    def _estimate_basic_blocks(self, worklist: list[BasicBlock]) -> int:
        size = 0
        while worklist:
            bb = worklist.pop()
            if bb in self.dead_blocks:
                continue
            self.dead_blocks.add(bb)
            for inst in bb:
                if _is_ssa_copy(inst):
                    continue
                if inst in self.known:
                    continue
                size += _cost(self.tti.get_instruction_cost(inst, TCK_CODE_SIZE))
            term = bb.terminator
            if term is None:
                continue
            for succ in term.successors:
                if self._executable(succ) and self._can_eliminate_successor(bb, succ):
                    worklist.append(succ)
        return size

    def _find_constant(self, v: Value) -> Constant | None:
        if v.is_constant:
            return v  # type: ignore[return-value]
        return self.known.get(v)

    def bonus_from_pending_phis(self) -> tuple[int, int]:
        size = lat = 0
        while self.pending_phis:
            phi = self.pending_phis.pop()
            if self._executable(phi.parent):
                s, lt = self.user_bonus(phi, None, None)
                size += s
                lat += lt
        return size & _U32, lat & _U32

    def specialization_bonus(self, arg: Argument, c: Constant) -> tuple[int, int]:
        size = lat = 0
        for user in list(arg.users):
            if isinstance(user, Instruction) and self._executable(user.parent):
                s, lt = self.user_bonus(user, arg, c)
                size += s
                lat += lt
        return size & _U32, lat & _U32

    def user_bonus(self, user: Instruction, use: Value | None, c: Constant | None) -> tuple[int, int]:
        """The bonus of ``user`` folding (``use`` known to be ``c``) and of its users in turn,
        depth first as LLVM's recursive ``getUserBonus`` (with an explicit stack)."""
        first = self._node_bonus(user, use, c)
        if first is None:
            return 0, 0
        size, lat, folded = first
        stack: list[tuple[list[Value], int, Instruction, Constant | None]] = [(list(user.users), 0, user, folded)]
        while stack:
            users, i, node, nc = stack[-1]
            if i >= len(users):
                stack.pop()
                continue
            stack[-1] = (users, i + 1, node, nc)
            u = users[i]
            if not isinstance(u, Instruction) or u is node or not self._executable(u.parent):
                continue
            r = self._node_bonus(u, node, nc)
            if r is None:
                continue
            size += r[0]
            lat += r[1]
            stack.append((list(u.users), 0, u, r[2]))
        return size & _U32, lat & _U32

    def _node_bonus(
        self, user: Instruction, use: Value | None, c: Constant | None
    ) -> tuple[int, int, Constant | None] | None:
        """``user``'s own code size and latency bonus and the constant it folds to (None: nothing)."""
        if user in self.known:
            return None
        if use is not None:
            assert c is not None
            if use not in self.known:
                self.known[use] = c
            self.last = (use, self.known[use])
        else:
            self.last = None
        size = 0
        op = user.opcode
        if op == "switch":
            size = self._estimate_switch(user)
        elif op == "br":
            size = self._estimate_branch(user)
        else:
            c = self._visit(user)
            if c is None:
                return None
        if user not in self.known:
            self.known[user] = c  # type: ignore[assignment]
        size += _cost(self.tti.get_instruction_cost(user, TCK_CODE_SIZE))
        parent = user.parent
        assert parent is not None
        weight = self.bfi.frequency(parent) // self.entry_freq
        latency = weight * _cost(self.tti.get_instruction_cost(user, TCK_LATENCY))
        return size & _U32, latency & _U32, c

    def _estimate_switch(self, sw: Instruction) -> int:
        last = self.last
        if last is None or sw.condition is not last[0]:  # type: ignore[attr-defined]
            return 0
        c = last[1]
        if not isinstance(c, ConstantInt):
            return 0
        succ = sw.default_dest  # type: ignore[attr-defined]
        for value, dest in sw.cases:  # type: ignore[attr-defined]
            if value is c:
                succ = dest
                break
        worklist: list[BasicBlock] = []
        bb = sw.parent
        assert bb is not None
        for _, dest in sw.cases:  # type: ignore[attr-defined]
            if dest is not succ and self._executable(dest) and self._can_eliminate_successor(bb, dest):
                worklist.append(dest)
        return self._estimate_basic_blocks(worklist)

    def _estimate_branch(self, br: Instruction) -> int:
        last = self.last
        if last is None or not br.is_conditional or br.condition is not last[0]:  # type: ignore[attr-defined]
            return 0
        c = last[1]
        is_one = isinstance(c, ConstantInt) and c.value == 1
        succ = br.get_successor(1 if is_one else 0)
        bb = br.parent
        assert bb is not None
        worklist: list[BasicBlock] = []
        if self._executable(succ) and self._can_eliminate_successor(bb, succ):
            worklist.append(succ)
        return self._estimate_basic_blocks(worklist)

    # --- folding the users ---------------------------------------------------------------------
    def _visit(self, inst: Instruction) -> Constant | None:
        op = inst.opcode
        last = self.last
        if op == "phi":
            return self._visit_phi(inst)
        if op == "freeze":
            assert last is not None
            return last[1] if is_guaranteed_not_to_be_undef_or_poison(last[1]) else None
        if op in ("call", "invoke", "callbr"):
            assert isinstance(inst, CallBase)
            fn = inst.called_function
            if fn is None or not can_constant_fold_call_to(inst, fn):
                return None
            operands: list[Constant] = []
            for use in inst._operands[:-1]:
                c = self._find_constant(use.value)
                if c is None:
                    return None
                operands.append(c)
            return constant_fold_call(inst, fn, operands[: inst.arg_size], None)
        if op == "load":
            assert last is not None
            if isinstance(last[1], ConstantPointerNull):
                return None
            return constant_fold_load_from_const_ptr(last[1], inst.type, self.dl)  # type: ignore[arg-type]
        if op == "getelementptr":
            ops: list[Constant] = []
            for use in inst._operands:
                c = self._find_constant(use.value)
                if c is None:
                    return None
                ops.append(c)
            return constant_fold_inst_operands(inst, ops, self.dl)  # type: ignore[arg-type]
        if op == "select":
            assert last is not None
            if inst._operands[0].value is not last[0]:
                return None
            zero = last[1].is_zero_value if hasattr(last[1], "is_zero_value") else last[1].is_null_value
            if callable(zero):
                zero = zero()
            v = inst._operands[2].value if zero else inst._operands[1].value
            return self._find_constant(v)
        if op in CAST_OPCODES:
            assert last is not None
            return constant_fold_cast_operand(op, last[1], inst.type, self.dl)  # type: ignore[arg-type]
        if op in ("icmp", "fcmp"):
            assert last is not None
            swap = inst._operands[1].value is last[0]
            other_v = inst._operands[0].value if swap else inst._operands[1].value
            other = self._find_constant(other_v)
            if other is None:
                return None
            pred = inst.predicate  # type: ignore[attr-defined]
            if swap:
                return constant_fold_compare_inst_operands(pred, other, last[1], self.dl)  # type: ignore[arg-type]
            return constant_fold_compare_inst_operands(pred, last[1], other, self.dl)  # type: ignore[arg-type]
        if op == "fneg":
            assert last is not None
            return constant_fold_unary_op_operand(op, last[1], self.dl)  # type: ignore[arg-type]
        if len(inst._operands) == 2 and op in _BINARY:
            assert last is not None
            swap = inst._operands[1].value is last[0]
            other_v = inst._operands[0].value if swap else inst._operands[1].value
            other = self._find_constant(other_v)
            if other is None:
                return None
            q = SimplifyQuery(self.dl)  # type: ignore[arg-type]
            r = simplify_binop(op, other, last[1], q) if swap else simplify_binop(op, last[1], other, q)
            return r if r is not None and r.is_constant else None  # type: ignore[return-value]
        return None

    def _visit_phi(self, phi: Instruction) -> Constant | None:
        ops = phi._operands
        if len(ops) > _opt("funcspec-max-incoming-phi-values"):
            return None
        inserted = phi not in self.visited_phis
        self.visited_phis.add(phi)
        const: Constant | None = None
        seen_phi = False
        blocks = phi.incoming_blocks  # type: ignore[attr-defined]
        for i, use in enumerate(ops):
            v = use.value
            if isinstance(v, Instruction) and (v is phi or blocks[i] in self.dead_blocks):
                continue
            c = self._find_constant(v)
            if c is not None:
                if const is None:
                    const = c
                if c is not const:
                    return None
                continue
            if inserted:
                self.pending_phis.append(phi)
                return None
            if getattr(v, "opcode", None) == "phi":
                seen_phi = True
                continue
            return None
        if const is None:
            return None
        if not seen_phi:
            return const
        if not self._transitive_incoming(const, phi):
            return None
        return const

    def _transitive_incoming(self, const: Constant, root: Instruction) -> bool:
        worklist = [root]
        seen: set[Instruction] = set()
        it = 0
        while worklist:
            pn = worklist.pop()
            it += 1
            if it > _opt("funcspec-max-discovery-iterations") or len(pn._operands) > _opt("funcspec-max-incoming-phi-values"):
                return False
            if pn in seen:
                continue
            seen.add(pn)
            blocks = pn.incoming_blocks  # type: ignore[attr-defined]
            for i, use in enumerate(pn._operands):
                v = use.value
                if isinstance(v, Instruction) and (v is pn or blocks[i] in self.dead_blocks):
                    continue
                c = self._find_constant(v)
                if c is not None:
                    if c is not const:
                        return False
                    continue
                if getattr(v, "opcode", None) == "phi":
                    worklist.append(v)  # type: ignore[arg-type]
                    continue
                return False
        return True


_BINARY = frozenset(
    ("add", "fadd", "sub", "fsub", "mul", "fmul", "udiv", "sdiv", "fdiv", "urem", "srem", "frem",
     "shl", "lshr", "ashr", "and", "or", "xor")
)  # fmt: skip


class _Spec:
    __slots__ = ("fn", "sig", "score", "call_sites", "clone")

    def __init__(self, fn: Function, sig: tuple[tuple[Argument, Constant], ...], score: int) -> None:
        self.fn = fn
        self.sig = sig
        self.score = score
        self.call_sites: list[CallBase] = []
        self.clone: Function | None = None


def _sig_key(sig: tuple[tuple[Argument, Constant], ...]) -> tuple[tuple[int, int], ...]:
    return tuple((id(a), id(c)) for a, c in sig)


# --- libstdc++'s heap, for LLVM's choice of the best specialisations ---------------------------
def _push_heap(a: list[int], hole: int, top: int, value: int, less: Callable[[int, int], bool]) -> None:
    parent = (hole - 1) // 2
    while hole > top and less(a[parent], value):
        a[hole] = a[parent]
        hole = parent
        parent = (hole - 1) // 2
    a[hole] = value


def _adjust_heap(a: list[int], hole: int, length: int, value: int, less: Callable[[int, int], bool]) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[child], a[child - 1]):
            child -= 1
        a[hole] = a[child]
        hole = child
    if (length & 1) == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[hole] = a[child - 1]
        hole = child - 1
    _push_heap(a, hole, top, value, less)


def _make_heap(a: list[int], length: int, less: Callable[[int, int], bool]) -> None:
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(a, parent, length, a[parent], less)
        if parent == 0:
            return
        parent -= 1


class FunctionSpecializer:
    """The specialisation state kept across ``run`` rounds of one ``ipsccp`` run."""

    def __init__(
        self,
        solver: SCCPSolver,
        module: Module,
        fam: Any,
        get_bfi: Callable[[Function], Any],
        get_tli: Callable[[Function], Any],
        get_tti: Callable[[Function], Any],
        get_ac: Callable[[Function], Any],
    ) -> None:
        self.solver = solver
        self.module = module
        self.fam = fam
        self.get_bfi = get_bfi
        self.get_tli = get_tli
        self.get_tti = get_tti
        self.get_ac = get_ac
        self.specializations: dict[Function, None] = {}
        self.fully_specialized: dict[Function, None] = {}
        self.function_metrics: dict[Function, CodeMetrics] = {}
        self.function_growth: dict[Function, int] = {}
        self.n_globals = 0

    def is_candidate_function(self, fn: Function) -> bool:
        if fn.is_declaration or not fn.args:
            return False
        if fn.has_fn_attribute("noduplicate"):
            return False
        if fn in self.specializations:
            return False
        if has_opt_size(fn):
            return False
        if not self.solver.is_block_executable(fn.entry_block):
            return False
        if fn.has_fn_attribute("alwaysinline"):
            return False
        return True

    def run(self) -> bool:
        all_specs: list[_Spec] = []
        sm: dict[Function, list[int]] = {}
        num_candidates = 0
        for fn in list(self.module.functions):
            if not self.is_candidate_function(fn):
                continue
            inserted = fn not in self.function_metrics
            if inserted:
                metrics = CodeMetrics()
                eph = collect_ephemeral_values(fn, self.get_ac(fn))
                tti = self.get_tti(fn)
                for bb in fn.blocks:
                    metrics.analyze_basic_block(bb, tti, eph)
                self.function_metrics[fn] = metrics
            metrics = self.function_metrics[fn]
            if (
                metrics.not_duplicatable
                or not metrics.num_insts.is_valid
                or (
                    not _opt("force-specialization")
                    and not fn.has_fn_attribute("noinline")
                    and _cost(metrics.num_insts) < _opt("funcspec-min-function-size")
                )
            ):
                continue
            if not inserted and not metrics.is_recursive and not _opt("funcspec-for-literal-constant"):
                continue
            size = _cost(metrics.num_insts) & _U32
            if inserted and metrics.is_recursive:
                self.promote_constant_stack_values(fn)
            if not self.find_specializations(fn, size, all_specs, sm):
                continue
            num_candidates += 1
        if not num_candidates:
            return False

        def less(i: int, j: int) -> bool:
            si = all_specs[i].score
            sj = all_specs[j].score
            if si != sj:
                return si > sj
            return i > j

        nspecs = min(num_candidates * _opt("funcspec-max-clones"), len(all_specs))
        best = list(range(nspecs)) + [0]
        if len(all_specs) > nspecs:
            _make_heap(best, nspecs, less)
            for i in range(nspecs, len(all_specs)):
                best[nspecs] = i
                _push_heap(best, nspecs, 0, best[nspecs], less)
                # pop_heap over best[0..nspecs]
                if nspecs + 1 > 1:
                    value = best[nspecs]
                    best[nspecs] = best[0]
                    _adjust_heap(best, 0, nspecs, value, less)

        original: dict[Function, None] = {}
        clones: list[Function] = []
        for i in range(nspecs):
            spec = all_specs[best[i]]
            spec.clone = self.create_specialization(spec.fn, spec.sig)
            for call in spec.call_sites:
                call.set_called_function(spec.clone)
            clones.append(spec.clone)
            original[spec.fn] = None

        self.solver.solve_while_resolved_undefs_in(clones)
        for fn in original:
            begin, end = sm[fn]
            self.update_call_sites(fn, all_specs[begin:end])

        for fn in clones:
            rty = fn.return_type
            if rty.is_void:
                continue
            if rty.is_struct:
                if not self.solver.is_struct_lattice_constant(fn, rty):
                    continue
            else:
                lv = self.solver.get_tracked_ret_vals().get(fn)
                if lv is None or is_overdefined(lv):
                    continue
            for user in list(fn.users):
                if isinstance(user, CallBase) and user.called_function is fn:
                    self.solver.reset_lattice_value_for(user)

        self.solver.solve_while_resolved_undefs()
        for fn in original:
            if self.function_metrics[fn].is_recursive:
                self.promote_constant_stack_values(fn)
        return True

    def find_specializations(
        self, fn: Function, size: int, all_specs: list[_Spec], sm: dict[Function, list[int]]
    ) -> bool:
        unique: dict[tuple[tuple[int, int], ...], int] = {}
        args = [a for a in fn.args if self.is_argument_interesting(a)]
        if not args:
            return False
        for user in list(fn.users):
            if not isinstance(user, CallBase) or user.opcode not in ("call", "invoke"):
                continue
            cs = user
            if cs.called_function is not fn:
                continue
            if cs.attributes.has_fn_attr("minsize") or (
                cs.called_function is not None and cs.called_function.has_fn_attribute("minsize")
            ):
                continue
            if cs.parent is None or not self.solver.is_block_executable(cs.parent):
                continue
            sig_list: list[tuple[Argument, Constant]] = []
            for a in args:
                c = self.get_candidate_constant(cs.get_arg(a.arg_no))
                if c is None:
                    continue
                sig_list.append((a, c))
            if not sig_list:
                continue
            sig = tuple(sig_list)
            key = _sig_key(sig)
            idx = unique.get(key)
            if idx is not None:
                if cs.function is fn:
                    continue
                all_specs[idx].call_sites.append(cs)
                continue
            visitor = InstCostVisitor(
                self.module.data_layout, self.get_bfi(fn), self.get_tti(fn), self.solver, fn.entry_block
            )
            b_size = b_lat = 0
            score = 0
            for a, c in sig:
                s, lt = visitor.specialization_bonus(a, c)
                b_size = (b_size + s) & _U32
                b_lat = (b_lat + lt) & _U32
                score = (score + self.get_inlining_bonus(a, c)) & _U32
            s, lt = visitor.bonus_from_pending_phis()
            b_size = (b_size + s) & _U32
            b_lat = (b_lat + lt) & _U32
            growth = (self.function_growth.get(fn, 0) + ((size - b_size) & _U32)) & _U32
            self.function_growth[fn] = growth
            if not self._is_profitable(b_size, b_lat, score, size, growth):
                continue
            score = (score + max(b_size, b_lat)) & _U32
            spec = _Spec(fn, sig, score)
            all_specs.append(spec)
            if cs.function is not fn:
                spec.call_sites.append(cs)
            index = len(all_specs) - 1
            unique[key] = index
            if fn in sm:
                sm[fn][1] = index + 1
            else:
                sm[fn] = [index, index + 1]
        return bool(unique)

    @staticmethod
    def _is_profitable(b_size: int, b_lat: int, score: int, size: int, growth: int) -> bool:
        if _opt("force-specialization"):
            return True
        if score > (_opt("funcspec-min-inlining-bonus") * size & _U32) // 100:
            return True
        if b_size < (_opt("funcspec-min-codesize-savings") * size & _U32) // 100:
            return False
        if b_lat < (_opt("funcspec-min-latency-savings") * size & _U32) // 100:
            return False
        if size and growth // size > _opt("funcspec-max-codesize-growth"):
            return False
        return True

    def is_argument_interesting(self, a: Argument) -> bool:
        if a.use_empty:
            return False
        ty = a.type
        if not ty.is_pointer and (
            not _opt("funcspec-for-literal-constant") or (not ty.is_integer and not ty.is_floating_point and not ty.is_struct)
        ):
            return False
        if a.has_attribute("byval") and not a.parent.attributes.fn_attrs.memory_effects.only_reads_memory:
            return False
        if not self.solver.is_argument_tracked_function(a.parent):
            return True
        if ty.is_struct:
            n = len(ty.elements)  # type: ignore[attr-defined]
            return any(is_overdefined(self.solver.get_struct_value_state(a, i)) for i in range(n))
        return is_overdefined(self.solver.get_value_state(a))

    def get_candidate_constant(self, v: Value) -> Constant | None:
        if isinstance(v, PoisonValue):
            return None
        c: Constant | None
        if v.is_constant:
            c = v  # type: ignore[assignment]
        else:
            if v.type.is_struct:
                n = len(v.type.elements)  # type: ignore[attr-defined]
                for i in range(n):
                    self.solver.get_struct_value_state(v, i)
            elif v not in self.solver.value_state:
                self.solver.get_value_state(v)
            c = self.solver.get_constant_or_null(v)
        if c is not None and c.type.is_pointer and not c.is_null_value:
            gv = get_underlying_object(c)
            if isinstance(gv, GlobalVariable) and not (gv.is_constant_global or _opt("funcspec-on-address")):
                return None
        return c

    def get_inlining_bonus(self, a: Argument, c: Constant) -> int:
        called = strip_pointer_casts(c)
        if not isinstance(called, Function):
            return 0
        from llvmpy_mid.analysis.inline_cost_decision import get_inline_cost

        tti = self.get_tti(called)
        bonus = 0
        for user in list(a.users):
            if not isinstance(user, CallBase) or user.opcode not in ("call", "invoke"):
                continue
            if user.called_operand is not a:
                continue
            if user.function_type is not called.function_type:
                continue
            params = get_inline_params()
            params.default_threshold += INDIRECT_CALL_THRESHOLD
            ic = get_inline_cost(user, params, tti, self.get_ac, self.get_tli, callee=called)
            if ic.is_always:
                bonus += params.default_threshold
            elif ic.is_variable and ic.cost_delta > 0:
                bonus += ic.cost_delta
        return bonus & _U32 if bonus > 0 else 0

    def create_specialization(self, fn: Function, sig: tuple[tuple[Argument, Constant], ...]) -> Function:
        clone = clone_function(fn, None, "%s.specialized.%d" % (fn.name, len(self.specializations) + 1))
        _remove_ssa_copy(clone)
        clone.linkage = Linkage.INTERNAL
        self.solver.set_lattice_value_for_specialization_arguments(clone, list(sig))
        self.solver.mark_block_executable(clone.entry_block)
        self.solver.add_argument_tracked_function(clone)
        self.solver.add_tracked_function(clone)
        self.specializations[clone] = None
        NUM_SPECS_CREATED.add()
        return clone

    def update_call_sites(self, fn: Function, specs: list[_Spec]) -> None:
        to_update = [
            u
            for u in list(fn.users)
            if isinstance(u, CallBase)
            and u.called_function is fn
            and u.parent is not None
            and self.solver.is_block_executable(u.parent)
        ]
        left = len(to_update)
        for cs in to_update:
            dec = cs.function is fn
            best: _Spec | None = None
            for s in specs:
                if s.clone is None or (best is not None and s.score <= best.score):
                    continue
                if any(self.get_candidate_constant(cs.get_arg(a.arg_no)) is not c for a, c in s.sig):
                    continue
                best = s
            if best is not None:
                assert best.clone is not None
                cs.set_called_function(best.clone)
                dec = True
            if dec:
                left -= 1
        if left == 0 and self.solver.is_argument_tracked_function(fn):
            self.solver.mark_function_unreachable(fn)
            self.fully_specialized[fn] = None

    # --- recursive functions: constant stack arguments become globals ---------------------------
    def promote_constant_stack_values(self, fn: Function) -> None:
        for user in list(fn.users):
            if not isinstance(user, CallBase) or user.opcode != "call":
                continue
            call = user
            if call.parent is None or not self.solver.is_block_executable(call.parent):
                continue
            for idx in range(call.arg_size):
                arg = call.get_arg(idx)
                if not arg.type.is_pointer or not self._call_only_reads(call, idx):
                    continue
                const = self._constant_stack_value(call, arg)
                if const is None:
                    continue
                self.n_globals += 1
                gv = GlobalVariable(
                    const.type,
                    "specialized.arg.%d" % self.n_globals,
                    Linkage.INTERNAL,
                    const,
                    True,
                    module=self.module,
                )
                call.set_arg(idx, gv)

    @staticmethod
    def _call_only_reads(call: CallBase, idx: int) -> bool:
        for kind in ("readonly", "readnone"):
            if call.attributes.has_param_attr(idx, kind):
                return True
            callee = call.called_function
            if callee is not None and callee.attributes.has_param_attr(idx, kind):
                return True
        return False

    def _constant_stack_value(self, call: CallBase, val: Value) -> Constant | None:
        val = strip_pointer_casts(val)
        if isinstance(val, ConstantInt):
            return val
        if getattr(val, "opcode", None) != "alloca" or not val.allocated_type.is_integer:  # type: ignore[attr-defined]
            return None
        store_value: Value | None = None
        for user in list(val.users):
            if user is call:
                continue
            op = getattr(user, "opcode", None)
            if op == "bitcast":
                if not user.has_one_use or next(iter(user.users)) is not call:
                    return None
                continue
            if op == "store":
                if store_value is not None or user.is_volatile:  # type: ignore[attr-defined]
                    return None
                store_value = user._operands[0].value
                continue
            return None
        if store_value is None:
            return None
        return self.get_candidate_constant(store_value)

    def finish(self) -> None:
        """LLVM's destructor: drop the fully specialised functions and the clones' copies."""
        for fn in self.fully_specialized:
            if self.fam is not None:
                self.fam.clear(fn)
            fn.erase_from_parent()
        self.fully_specialized.clear()
        for fn in self.specializations:
            if fn.parent is not None:
                _remove_ssa_copy(fn)


__all__ = ["FunctionSpecializer", "InstCostVisitor"]
