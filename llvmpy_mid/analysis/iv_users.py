"""``iv-users``: the users of induction-variable expressions in a loop (LLVM 19.1.7
``lib/Analysis/IVUsers.cpp``, ``include/llvm/Analysis/IVUsers.h``, with the post-increment
normalisation of ``lib/Analysis/ScalarEvolutionNormalization.cpp`` and the printer of
``lib/Transforms/Scalar/IVUsersPrinter.cpp``).

What: :class:`IVUsers` (the result of the loop analysis :class:`IVUsersAnalysis`) starts from
the header phis of its loop and follows their users while the value computed is an
"interesting" expression of ScalarEvolution (an affine add recurrence of the loop, an add
recurrence of another loop whose start is interesting, or a sum with exactly one interesting
term). The first user on each path that is not interesting itself (or lies outside the loop,
or was already seen) is recorded as an :class:`IVStrideUse`: the user instruction, the operand
value it reads, and the loops for which the use reads the value after the increment (a use
outside a loop, dominated by its latch). A use whose expression cannot be normalised and
denormalised back to itself is dropped. ``print<iv-users>`` (:class:`IVUsersPrinterPass`)
writes the uses as opt-19 does.

:func:`normalize_for_post_inc_use`, :func:`normalize_for_post_inc_use_if` and
:func:`denormalize_for_post_inc_use` decrement / increment the add recurrences of chosen
loops in an expression (LLVM's "post-inc" normalisation).

How: the walk over users is LLVM's recursion made iterative: each instruction being inspected
is a generator that yields the user it wants inspected next and receives the answer, driven
from an explicit stack, so long chains of users need no Python recursion and the uses are
recorded in LLVM's order.

What it does not do: LLVM's value handles. A use whose user instruction has been erased since
is dropped when the uses are next listed (LLVM's ``IVStrideUse::deleted``); an operand replaced
by ``replace_all_uses_with`` is not followed (nothing in this project reads these uses after
changing the IR).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Generator, Iterable, Iterator, TextIO

from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.analysis.scalar_evolution_expressions import (
    FLAG_ANY_WRAP,
    FLAG_NW,
    SCEV,
    SCEVAddRecExpr,
    SCEVTypes,
)
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import Analysis, AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import AllAnalysesOnLoop, AnalysisSet, PreservedAnalyses

if TYPE_CHECKING:
    from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution
    from llvmpy_mid.ir.dominators import DominatorTree

__all__ = [
    "IVStrideUse",
    "IVUsers",
    "IVUsersAnalysis",
    "IVUsersPrinterPass",
    "denormalize_for_post_inc_use",
    "get_step_recurrence",
    "normalize_for_post_inc_use",
    "normalize_for_post_inc_use_if",
]

PostIncLoopSet = dict[Loop, None]
"""An insertion-ordered set of loops (LLVM's ``PostIncLoopSet``, a small pointer set whose
iteration order is the insertion order while it holds at most two loops)."""


# --- post-increment normalisation (ScalarEvolutionNormalization.cpp) -----------------------------


def get_step_recurrence(ar: SCEVAddRecExpr, se: ScalarEvolution) -> SCEV:
    """The step of ``ar`` (LLVM ``SCEVAddRecExpr::getStepRecurrence``): its second operand when
    affine, else the recurrence of its operands after the first."""
    if ar.is_affine():
        return ar.operands[1]
    return se.get_add_rec_expr(ar.operands[1:], ar.loop, ar.flags & FLAG_NW)


def _rebuild(s: SCEV, ops: list[SCEV], se: ScalarEvolution) -> SCEV:
    """``s`` with new operands, as LLVM's ``SCEVRewriteVisitor`` rebuilds a node (no flags)."""
    k = s.kind
    if k is SCEVTypes.ADD:
        return se.get_add_expr(ops)
    if k is SCEVTypes.MUL:
        return se.get_mul_expr(ops)
    if k is SCEVTypes.UDIV:
        return se.get_udiv_expr(ops[0], ops[1])
    if k is SCEVTypes.TRUNCATE:
        return se.get_truncate_expr(ops[0], s.type)  # type: ignore[arg-type]
    if k is SCEVTypes.ZERO_EXTEND:
        return se.get_zero_extend_expr(ops[0], s.type)  # type: ignore[arg-type]
    if k is SCEVTypes.SIGN_EXTEND:
        return se.get_sign_extend_expr(ops[0], s.type)  # type: ignore[arg-type]
    if k in (SCEVTypes.UMAX, SCEVTypes.SMAX, SCEVTypes.UMIN, SCEVTypes.SMIN):
        return se.get_min_max_expr(k, ops)
    if k is SCEVTypes.SEQ_UMIN:
        return se.get_umin_expr(ops, sequential=True)
    if k is SCEVTypes.PTR_TO_INT:
        make = getattr(se, "get_ptr_to_int_expr", None)
        if make is not None:
            return make(ops[0], s.type)  # type: ignore[no-any-return]
    return s


def _transform(s: SCEV, pred: Callable[[SCEVAddRecExpr], bool], se: ScalarEvolution, normalize: bool) -> SCEV:
    """LLVM's ``NormalizeDenormalizeRewriter``: operands first (memoised, left to right), then
    each add recurrence for which ``pred`` holds is decremented (normalised) or incremented
    (denormalised) by its step; other recurrences are rebuilt without flags."""
    done: dict[SCEV, SCEV] = {}
    stack: list[tuple[SCEV, bool]] = [(s, False)]
    while stack:
        node, ready = stack.pop()
        if node in done:
            continue
        if not ready:
            pending = [op for op in node.operands if op not in done]
            if pending:
                stack.append((node, True))
                stack.extend((op, False) for op in reversed(pending))
                continue
        ops = [done[op] for op in node.operands]
        if isinstance(node, SCEVAddRecExpr):
            if pred(node):
                if normalize:
                    for i in range(len(ops) - 2, -1, -1):
                        ops[i] = se.get_minus_scev(ops[i], ops[i + 1])
                else:
                    for i in range(len(ops) - 1):
                        ops[i] = se.get_add_expr([ops[i], ops[i + 1]])
            done[node] = se.get_add_rec_expr(ops, node.loop, FLAG_ANY_WRAP)
        elif any(a is not b for a, b in zip(ops, node.operands)):
            done[node] = _rebuild(node, ops, se)
        else:
            done[node] = node
    return done[s]


def normalize_for_post_inc_use_if(s: SCEV, pred: Callable[[SCEVAddRecExpr], bool], se: ScalarEvolution) -> SCEV:
    """``s`` with the add recurrences accepted by ``pred`` normalised (LLVM
    ``normalizeForPostIncUseIf``)."""
    return _transform(s, pred, se, True)


def denormalize_for_post_inc_use(s: SCEV, loops: Iterable[Loop], se: ScalarEvolution) -> SCEV:
    """``s`` with the add recurrences of ``loops`` incremented (LLVM ``denormalizeForPostIncUse``)."""
    chosen = set(loops)
    if not chosen:
        return s
    return _transform(s, lambda ar: ar.loop in chosen, se, False)


def normalize_for_post_inc_use(
    s: SCEV, loops: Iterable[Loop], se: ScalarEvolution, check_invertible: bool = True
) -> SCEV | None:
    """``s`` with the add recurrences of ``loops`` decremented (LLVM ``normalizeForPostIncUse``);
    None when ``check_invertible`` and denormalising the result does not give ``s`` back."""
    chosen = set(loops)
    if not chosen:
        return s
    normalized = _transform(s, lambda ar: ar.loop in chosen, se, True)
    if check_invertible and denormalize_for_post_inc_use(normalized, chosen, se) is not s:
        return None
    return normalized


# --- the analysis -------------------------------------------------------------------------------


def _is_interesting(s: SCEV, inst: Instruction, loop: Loop, se: ScalarEvolution, li: LoopInfo) -> bool:
    """LLVM's ``isInteresting``: an affine recurrence of ``loop`` (or a non-affine one used
    outside the loop whose value there is simpler), a recurrence of another loop with an
    interesting start and an uninteresting step, or a sum with exactly one interesting term."""
    if isinstance(s, SCEVAddRecExpr):
        if s.loop is loop:
            if s.is_affine():
                return True
            if loop.contains(inst):
                return False
            at_scope = getattr(se, "get_scev_at_scope", None)
            if at_scope is None:
                return False
            bb = inst.parent
            scope = li.loop_for(bb) if bb is not None else None
            return at_scope(s, scope) is not s
        return _is_interesting(s.start, inst, loop, se, li) and not _is_interesting(
            get_step_recurrence(s, se), inst, loop, se, li
        )
    if s.kind is SCEVTypes.ADD:
        seen = False
        for op in s.operands:
            if _is_interesting(op, inst, loop, se, li):
                if seen:
                    return False
                seen = True
        return seen
    return False


def _use_should_use_post_inc_value(user: Instruction, operand: Value | None, loop: Loop, dt: DominatorTree) -> bool:
    """LLVM's ``IVUseShouldUsePostIncValue``: ``user`` is outside ``loop`` and dominated by its
    latch (for a phi: every incoming edge carrying ``operand`` comes from a block the latch
    dominates)."""
    if loop.contains(user):
        return False
    latch = loop.latch
    if latch is None:
        return False
    bb = user.parent
    if bb is not None and dt.dominates_block(latch, bb):
        return True
    if not isinstance(user, PHINode) or operand is None:
        return False
    for i in range(user.num_incoming):
        if user.get_incoming_value(i) is operand and not dt.dominates_block(latch, user.get_incoming_block(i)):
            return False
    return True


class IVStrideUse:
    """One recorded use: ``user`` reads ``operand_val_to_replace``, an expression of an
    induction variable; ``post_inc_loops`` are the loops for which it reads the incremented
    value."""

    __slots__ = ("parent", "user", "operand_val_to_replace", "post_inc_loops")

    def __init__(self, parent: IVUsers, user: Instruction, operand: Value) -> None:
        self.parent = parent
        self.user = user
        self.operand_val_to_replace = operand
        self.post_inc_loops: PostIncLoopSet = {}

    def transform_to_post_inc(self, loop: Loop) -> None:
        self.post_inc_loops[loop] = None

    def __repr__(self) -> str:
        return "<IVStrideUse of %r in %r>" % (self.operand_val_to_replace, self.user)


class IVUsers:
    """The IV uses of one loop (LLVM's ``IVUsers``); iterate it for the :class:`IVStrideUse`
    records in the order they were found."""

    def __init__(
        self, loop: Loop, ac: Any, li: LoopInfo, dt: DominatorTree, se: ScalarEvolution
    ) -> None:
        from llvmpy_mid.analysis.code_metrics import collect_ephemeral_values

        self.loop = loop
        self.ac = ac
        self.li = li
        self.dt = dt
        self.se = se
        self.processed: set[Instruction] = set()
        self.iv_uses: list[IVStrideUse] = []
        self.eph_values: set[Value] = collect_ephemeral_values(loop, ac)
        for inst in list(loop.header.instructions):
            if not isinstance(inst, PHINode):
                break
            self.add_users_if_interesting(inst)

    # --- building ----------------------------------------------------------------------------
    def add_users_if_interesting(self, inst: Instruction) -> bool:
        """Inspect ``inst``: when its expression is interesting, record (or follow) its users
        and answer True; else False (LLVM ``AddUsersIfInteresting``)."""
        stack: list[Generator[Instruction, bool, bool]] = [self._inspect(inst)]
        answer = False
        send: bool | None = None
        while stack:
            try:
                child = stack[-1].send(send)  # type: ignore[arg-type]
            except StopIteration as stop:
                stack.pop()
                answer = send = bool(stop.value)
                continue
            stack.append(self._inspect(child))
            send = None
        return answer

    def _inspect(self, inst: Instruction) -> Generator[Instruction, bool, bool]:
        """One frame of ``add_users_if_interesting``: yields a user to inspect, receives its
        answer."""
        from llvmpy_mid.analysis.poison_tracking import is_safe_to_speculatively_execute

        if inst in self.processed:
            return True
        self.processed.add(inst)
        se = self.se
        ty = inst.type
        if not se.is_scevable(ty):
            return False
        if not isinstance(inst, PHINode) and not is_safe_to_speculatively_execute(inst):
            return False
        bb = inst.parent
        fn = bb.parent if bb is not None else None
        module = fn.parent if fn is not None else None
        if module is None:
            return False
        dl = module.data_layout
        if ty.is_pointer:
            width = dl.index_type_size_in_bits(ty)
        else:
            width = se.get_type_size_in_bits(ty)
        if width > 64 or not dl.is_legal_integer(width):
            return False
        if inst in self.eph_values:
            return False
        ise = se.get_scev(inst)
        loop = self.loop
        if not _is_interesting(ise, inst, loop, se, self.li):
            return False
        seen_users: set[Instruction] = set()
        for use in inst.use_list():
            user = use.user
            if not isinstance(user, Instruction) or user in seen_users:
                continue
            seen_users.add(user)
            if isinstance(user, PHINode) and user in self.processed:
                continue
            ubb = user.parent
            if ubb is None:
                continue
            record = False
            if self.li.loop_for(ubb) is not loop:
                if isinstance(user, PHINode) or user in self.processed or not (yield user):
                    record = True
            elif user in self.processed or not (yield user):
                record = True
            if not record:
                continue
            new_use = self.add_user(user, inst)
            original = ise

            def should_post_inc(ar: SCEVAddRecExpr, user: Instruction = user, new_use: IVStrideUse = new_use) -> bool:
                result = _use_should_use_post_inc_value(user, inst, ar.loop, self.dt)
                if result:
                    new_use.post_inc_loops[ar.loop] = None
                return result

            ise = normalize_for_post_inc_use_if(ise, should_post_inc, se)
            if original is not ise:
                if denormalize_for_post_inc_use(ise, new_use.post_inc_loops, se) is not original:
                    self.iv_uses.pop()
                    return False
        return True

    def add_user(self, user: Instruction, operand: Value) -> IVStrideUse:
        use = IVStrideUse(self, user, operand)
        self.iv_uses.append(use)
        return use

    # --- queries -------------------------------------------------------------------------------
    def _drop_deleted(self) -> None:
        """Forget the uses whose user instruction was erased (LLVM ``IVStrideUse::deleted``)."""
        if any(u.user.parent is None for u in self.iv_uses):
            for u in self.iv_uses:
                if u.user.parent is None:
                    self.processed.discard(u.user)
            self.iv_uses = [u for u in self.iv_uses if u.user.parent is not None]

    def __iter__(self) -> Iterator[IVStrideUse]:
        self._drop_deleted()
        return iter(list(self.iv_uses))

    def __len__(self) -> int:
        self._drop_deleted()
        return len(self.iv_uses)

    def empty(self) -> bool:
        return len(self) == 0

    def is_iv_user_or_operand(self, inst: Instruction) -> bool:
        return inst in self.processed

    def get_replacement_expr(self, use: IVStrideUse) -> SCEV:
        """The expression of the value the use reads (LLVM ``getReplacementExpr``)."""
        return self.se.get_scev(use.operand_val_to_replace)

    def get_expr(self, use: IVStrideUse) -> SCEV | None:
        """The use's expression normalised for its post-inc loops; None when not invertible
        (LLVM ``getExpr``)."""
        return normalize_for_post_inc_use(self.get_replacement_expr(use), use.post_inc_loops, self.se)

    def get_stride(self, use: IVStrideUse, loop: Loop) -> SCEV | None:
        """The step of the recurrence of ``loop`` within the use's expression (LLVM
        ``getStride``)."""
        expr = self.get_expr(use)
        if expr is None:
            return None
        ar = _find_add_rec_for_loop(expr, loop)
        return get_step_recurrence(ar, self.se) if ar is not None else None

    def release_memory(self) -> None:
        self.processed.clear()
        self.iv_uses.clear()

    # --- printing ------------------------------------------------------------------------------
    def print(self, out: TextIO) -> None:
        """LLVM's ``IVUsers::print``."""
        out.write(self.print_text())

    def print_text(self) -> str:
        from llvmpy_mid.asm.printer import format_value

        from llvmpy_mid.analysis.scalar_evolution_printer import format_scev as fmt

        refs = _OperandNames(self.loop)
        se = self.se
        parts = ["IV Users for loop ", refs.block(self.loop.header)]
        if se.has_loop_invariant_backedge_taken_count(self.loop):
            parts.append(" with backedge-taken count " + fmt(se.get_backedge_taken_count(self.loop)))
        parts.append(":\n")
        for use in self:
            parts.append("  " + refs.value(use.operand_val_to_replace) + " = " + fmt(self.get_replacement_expr(use)))
            for pl in use.post_inc_loops:
                parts.append(" (post-inc with loop " + refs.block(pl.header) + ")")
            parts.append(" in    " + format_value(use.user) + "\n")
        return "".join(parts)


def _find_add_rec_for_loop(s: SCEV, loop: Loop) -> SCEVAddRecExpr | None:
    while True:
        if isinstance(s, SCEVAddRecExpr):
            if s.loop is loop:
                return s
            s = s.start
            continue
        if s.kind is SCEVTypes.ADD:
            for op in s.operands:
                found = _find_add_rec_for_loop(op, loop)
                if found is not None:
                    return found
        return None


# --- printing helpers ---------------------------------------------------------------------------


class _OperandNames:
    """Untyped operand texts (LLVM ``printAsOperand(OS, false)``) with one numbering of the
    loop's function."""

    def __init__(self, loop: Loop) -> None:
        from llvmpy_mid.asm.print_types import TypePrinter
        from llvmpy_mid.asm.printer import AssemblyWriter
        from llvmpy_mid.asm.slot_tracker import SlotTracker

        fn = loop.header.parent
        module = fn.parent if fn is not None else None
        slots = SlotTracker(module)
        if fn is not None:
            slots.incorporate_function(fn)
        self.ctx = AssemblyWriter(module, slots, TypePrinter(module)).ctx

    def value(self, v: Value) -> str:
        return self.ctx.ref(v)

    def block(self, bb: Any) -> str:
        return self.ctx.ref(bb)


# --- the pass-manager side ----------------------------------------------------------------------


class IVUsersAnalysis(Analysis[Loop, IVUsers]):
    """The loop analysis ``iv-users`` (LLVM ``IVUsersAnalysis``)."""

    name: ClassVar[str] = "iv-users"
    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnLoop

    def run(self, unit: Loop, am: AnalysisManager[Loop]) -> IVUsers:
        ar = getattr(am, "standard", None)
        if ar is None or ar.se is None:
            raise PipelineError("iv-users needs the loop pass manager's standard analyses")
        return IVUsers(unit, ar.ac, ar.li, ar.dt, ar.se)


class IVUsersPrinterPass(Pass[Loop]):
    """``print<iv-users>``: the IV uses of each loop, to stderr (LLVM ``IVUsersPrinterPass``)."""

    name: ClassVar[str] = "print<iv-users>"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Loop, am: AnalysisManager[Loop]) -> PreservedAnalyses:
        result = am.get_result(IVUsersAnalysis, unit)
        out = self.stream if self.stream is not None else sys.stderr
        result.print(out)
        return PreservedAnalyses.all()
