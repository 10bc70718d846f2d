"""``print<scalar-evolution>``, ``verify<scalar-evolution>`` and ``-verify-scev`` (LLVM 19.1.7
``lib/Analysis/ScalarEvolution.cpp``: ``SCEV::print``, ``ScalarEvolution::print``,
``PrintLoopInfo``, ``getSmallConstantTripMultiple``, ``getConstantMultiple``,
``ScalarEvolution::verify``, ``ScalarEvolutionPrinterPass``, ``ScalarEvolutionVerifierPass``).

What: :func:`format_scev` writes an expression as ``SCEV::print`` does
(``{0,+,1}<nuw><nsw><%loop>``, ``(zext i32 %x to i64)``, ``(1 + %n)<nsw>``,
``***COULDNOTCOMPUTE***``). :func:`format_scalar_evolution` is ``ScalarEvolution::print``:
each SCEVable non-compare instruction with its expression, unsigned and signed ranges, its value
at the scope of its loop, its value on exit and its loop dispositions, then the loops' counts
(backedge-taken, constant and symbolic maxima, per-exit counts, trip multiple). The text is what
our ScalarEvolution knows: where it is less precise than LLVM's, the lines differ honestly
(there are no predicated counts: those lines are never printed).

:func:`verify_scalar_evolution` is ``ScalarEvolution::verify``: each cached backedge-taken count
and each cached expression of a reachable instruction is recomputed by a fresh analysis; a
constant non-zero difference (any difference with ``-verify-scev-strict``) is reported on stderr
as LLVM's ``dbgs()`` does and stops the run (LLVM aborts). Cached loop dispositions are also
recomputed. ``-verify-scev`` runs that check after each loop pass that left ScalarEvolution
cached, as LLVM's loop pass manager does in builds with assertions (opt-19 is a release build:
the option is accepted there and checks nothing).
"""

from __future__ import annotations

import sys
from math import gcd
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

from llvmpy_mid.analysis.scalar_evolution import (
    LOOP_COMPUTABLE,
    LOOP_INVARIANT,
    ScalarEvolution,
    ScalarEvolutionAnalysis,
)
from llvmpy_mid.analysis.scalar_evolution_expressions import (
    FLAG_NSW,
    FLAG_NUW,
    FLAG_NW,
    SCEV,
    SCEVAddRecExpr,
    SCEVConstant,
    SCEVCouldNotCompute,
    SCEVTypes,
    SCEVUnknown,
    walk_scev,
)
from llvmpy_mid.errors import FatalError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.types import IntegerType
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import Loop
    from llvmpy_mid.asm.printer import AssemblyWriter
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.passes.instrumentation import PassInstrumentation

__all__ = [
    "SCEVVerificationError",
    "ScalarEvolutionPrinterPass",
    "ScalarEvolutionVerifierPass",
    "VerifySCEV",
    "constant_multiple",
    "format_scalar_evolution",
    "format_scev",
    "small_constant_trip_multiple",
    "verify_scalar_evolution",
]

_NARY_OPS = {
    SCEVTypes.ADD: " + ",
    SCEVTypes.MUL: " * ",
    SCEVTypes.UMAX: " umax ",
    SCEVTypes.SMAX: " smax ",
    SCEVTypes.UMIN: " umin ",
    SCEVTypes.SMIN: " smin ",
    SCEVTypes.SEQ_UMIN: " umin_seq ",
}
_CAST_OPS = {
    SCEVTypes.TRUNCATE: "trunc",
    SCEVTypes.ZERO_EXTEND: "zext",
    SCEVTypes.SIGN_EXTEND: "sext",
    SCEVTypes.PTR_TO_INT: "ptrtoint",
}
_DISPOSITION_NAMES = {0: "Variant", LOOP_INVARIANT: "Invariant", LOOP_COMPUTABLE: "Computable"}


class SCEVVerificationError(FatalError):
    """A cached ScalarEvolution answer differs from a fresh one (LLVM aborts)."""


class _Names:
    """Operand and type texts for one module: values as ``printAsOperand(OS, false)`` writes
    them (one slot numbering per function, as LLVM's ``Value::print``), types as the
    assembly printer writes them."""

    def __init__(self, module: Module | None) -> None:
        from llvmpy_mid.asm.print_types import TypePrinter

        self.module = module
        self.types = TypePrinter(module)
        self._writers: dict[Function | None, AssemblyWriter] = {}

    def writer(self, fn: Function | None) -> AssemblyWriter:
        w = self._writers.get(fn)
        if w is None:
            from llvmpy_mid.asm.printer import AssemblyWriter
            from llvmpy_mid.asm.slot_tracker import SlotTracker

            slots = SlotTracker(self.module)
            if fn is not None:
                slots.incorporate_function(fn)
            w = self._writers[fn] = AssemblyWriter(self.module, slots, self.types)
        return w

    def type_text(self, ty: Type | None) -> str:
        return self.types.type_str(ty) if ty is not None else "<null type>"

    def ref(self, v: Value) -> str:
        return self.writer(_function_of(v)).ctx.ref(v)

    def instruction(self, inst: Instruction) -> str:
        from llvmpy_mid.asm.printer import format_value

        text = self.writer(inst.function).instruction_text(inst)
        if _references_md_node(inst):  # LLVM numbers all metadata then
            return "  " + format_value(inst)
        return text


def _function_of(v: Value) -> Function | None:
    if isinstance(v, Instruction):
        return v.function
    if v.is_argument:
        return v.parent  # type: ignore[attr-defined,no-any-return]
    if v.is_basic_block:
        return v.parent  # type: ignore[attr-defined,no-any-return]
    return None


def _references_md_node(inst: Instruction) -> bool:
    for op in inst.operands:
        if op.is_metadata_as_value and op.metadata.is_md_node:  # type: ignore[attr-defined]
            return True
    return False


def _module_of(s: SCEV) -> Module | None:
    for n in walk_scev(s):
        if isinstance(n, SCEVUnknown):
            fn = _function_of(n.value)
            if fn is not None:
                return fn.parent
            parent = getattr(n.value, "parent", None)
            if parent is not None and not isinstance(parent, Function):
                return parent  # type: ignore[no-any-return]
        elif isinstance(n, SCEVAddRecExpr):
            fn = n.loop.header.parent
            if fn is not None:
                return fn.parent
    return None


def format_scev(s: SCEV, names: _Names | None = None) -> str:
    """``s`` as LLVM's ``SCEV::print`` writes it."""
    if names is None:
        names = _Names(_module_of(s))
    done: dict[int, str] = {}
    stack: list[tuple[SCEV, bool]] = [(s, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in done:
            continue
        if not expanded and node.operands:
            stack.append((node, True))
            stack.extend((op, False) for op in reversed(node.operands) if id(op) not in done)
            continue
        done[id(node)] = _node_text(node, [done[id(op)] for op in node.operands], names)
    return done[id(s)]


def _node_text(s: SCEV, ops: list[str], names: _Names) -> str:
    k = s.kind
    if isinstance(s, SCEVConstant):
        return names.ref(s.ir_value)
    if isinstance(s, SCEVUnknown):
        return names.ref(s.value)
    if isinstance(s, SCEVCouldNotCompute) or k is SCEVTypes.COULD_NOT_COMPUTE:
        return "***COULDNOTCOMPUTE***"
    if k is SCEVTypes.VSCALE:
        return "vscale"
    cast = _CAST_OPS.get(k)
    if cast is not None:
        return "(%s %s %s to %s)" % (cast, names.type_text(s.operands[0].type), ops[0], names.type_text(s.type))
    if isinstance(s, SCEVAddRecExpr):
        text = "{" + ",+,".join(ops) + "}<"
        if s.flags & FLAG_NUW:
            text += "nuw><"
        if s.flags & FLAG_NSW:
            text += "nsw><"
        if s.flags & FLAG_NW and not s.flags & (FLAG_NUW | FLAG_NSW):
            text += "nw><"
        return text + names.ref(s.loop.header) + ">"
    if k is SCEVTypes.UDIV:
        return "(%s /u %s)" % (ops[0], ops[1])
    sep = _NARY_OPS.get(k)
    if sep is not None:
        text = "(" + sep.join(ops) + ")"
        if k is SCEVTypes.ADD or k is SCEVTypes.MUL:
            if s.flags & FLAG_NUW:
                text += "<nuw>"
            if s.flags & FLAG_NSW:
                text += "<nsw>"
        return text
    return "<unknown SCEV %s>" % k.name


# --- trip multiples ------------------------------------------------------------------------------


def constant_multiple(se: ScalarEvolution, s: SCEV) -> int:
    """The largest constant known to divide ``s`` (0 when ``s`` is 0), as an unsigned value
    of ``s``'s width (LLVM ``getConstantMultiple``): the analysis's own when it has one."""
    own = getattr(se, "get_constant_multiple", None)
    if own is not None:
        return int(own(s))
    cache: dict[int, int] = {}
    stack: list[tuple[SCEV, bool]] = [(s, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in cache:
            continue
        if not expanded and node.operands:
            stack.append((node, True))
            stack.extend((op, False) for op in node.operands if id(op) not in cache)
            continue
        cache[id(node)] = _constant_multiple_of(se, node, cache)
    return cache[id(s)]


def _trailing_zeros(v: int, w: int) -> int:
    if v == 0:
        return w
    return (v & -v).bit_length() - 1


def _constant_multiple_of(se: ScalarEvolution, s: SCEV, cache: dict[int, int]) -> int:
    w = se.get_type_size_in_bits(s.type)  # type: ignore[arg-type]
    mask = (1 << w) - 1

    def shifted(tz: int) -> int:
        return 0 if tz >= w else 1 << tz

    def min_tz(op: SCEV) -> int:
        ow = se.get_type_size_in_bits(op.type)  # type: ignore[arg-type]
        return min(_trailing_zeros(cache[id(op)], ow), ow)

    def gcd_of_ops() -> int:
        res = cache[id(s.operands[0])]
        for op in s.operands[1:]:
            if res == 1:
                break
            res = gcd(res, cache[id(op)])
        return res

    k = s.kind
    if isinstance(s, SCEVConstant):
        return s.value
    if k is SCEVTypes.PTR_TO_INT:
        return cache[id(s.operands[0])] & mask
    if k is SCEVTypes.UDIV or k is SCEVTypes.VSCALE:
        return 1
    if k is SCEVTypes.TRUNCATE or k is SCEVTypes.SIGN_EXTEND:
        return shifted(min_tz(s.operands[0]))
    if k is SCEVTypes.ZERO_EXTEND:
        return cache[id(s.operands[0])]
    if k is SCEVTypes.MUL:
        if s.flags & FLAG_NUW:
            res = 1
            for op in s.operands:
                res = (res * cache[id(op)]) & mask
            return res
        return shifted(sum(min_tz(op) for op in s.operands))
    if k is SCEVTypes.ADD or k is SCEVTypes.ADD_REC:
        if s.flags & FLAG_NUW:
            return gcd_of_ops()
        return shifted(min(min_tz(op) for op in s.operands))
    if k in (SCEVTypes.UMAX, SCEVTypes.SMAX, SCEVTypes.UMIN, SCEVTypes.SMIN, SCEVTypes.SEQ_UMIN):
        return gcd_of_ops()
    if isinstance(s, SCEVUnknown):
        dl = se.data_layout
        if dl is None:
            return 1
        from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits

        v = s.value
        if isinstance(v, Instruction) and v.parent is None:
            return 1
        try:
            known = compute_known_bits(v, dl)
        except Exception:  # noqa: BLE001 - an unexpected value kind: nothing is known
            return 1
        return shifted(known.count_min_trailing_zeros())
    return 1


def small_constant_trip_multiple(se: ScalarEvolution, loop: Loop) -> int:
    """LLVM ``getSmallConstantTripMultiple(L)``: the gcd over the exiting blocks of the largest
    constant dividing the trip count of each (1 when unknown). Loop guards are not applied."""
    res: int | None = None
    for exiting in loop.exiting_blocks:
        m = _trip_multiple_for_count(se, se.get_exit_count(loop, exiting))
        res = m if res is None else gcd(res, m)
    return 1 if res is None else res


def _trip_multiple_for_count(se: ScalarEvolution, count: SCEV) -> int:
    if isinstance(count, SCEVCouldNotCompute):
        return 1
    tc = se.get_add_expr([count, se.get_one(count.type)])  # type: ignore[arg-type]
    m = constant_multiple(se, tc)
    if m == 0:
        m = 1
    if m.bit_length() > 32:
        return 1 << min(31, _trailing_zeros(m, m.bit_length()))
    return m


# --- ScalarEvolution::print ----------------------------------------------------------------------


def _at_scope(se: ScalarEvolution, s: SCEV, loop: Loop | None) -> SCEV:
    fn = getattr(se, "get_scev_at_scope", None)
    if fn is not None:
        return fn(s, loop)  # type: ignore[no-any-return]
    # Without getSCEVAtScope: an expression whose recurrences all run in loops containing the
    # scope is its own value there; anything else is not known here.
    for n in walk_scev(s):
        if isinstance(n, SCEVAddRecExpr) and (loop is None or not n.loop.contains(loop)):
            return se.get_could_not_compute()
    return s


def _exit_count(se: ScalarEvolution, loop: Loop, exiting: BasicBlock, kind: str) -> SCEV:
    getter: Any = se.get_exit_count
    try:
        return getter(loop, exiting, kind)  # type: ignore[no-any-return]
    except TypeError:
        pass
    if kind == "exact":
        return se.get_exit_count(loop, exiting)
    info = se.get_backedge_taken_info(loop)
    for bb, el in info.exits:
        if bb is exiting:
            return el.symbolic_max if kind == "symbolic_max" else el.constant_max
    return se.get_could_not_compute()


def _ranges_text(se: ScalarEvolution, s: SCEV) -> str:
    if isinstance(s, SCEVCouldNotCompute):
        return ""
    return " U: %s S: %s" % (se.get_unsigned_range(s), se.get_signed_range(s))


def _classify(se: ScalarEvolution, fn: Function, names: _Names, out: list[str]) -> None:
    li = se.li
    for bb in fn.blocks:
        for inst in bb.instructions:
            if not se.is_scevable(inst.type) or inst.opcode in ("icmp", "fcmp"):
                continue
            out.append(names.instruction(inst) + "\n")
            sv = se.get_scev(inst)
            line = "  -->  " + format_scev(sv, names) + _ranges_text(se, sv)
            loop = li.loop_for(bb)
            at_use = _at_scope(se, sv, loop)
            if at_use is not sv:
                line += "  -->  " + format_scev(at_use, names) + _ranges_text(se, at_use)
            if loop is not None:
                exit_value = _at_scope(se, sv, loop.parent_loop)
                if not se.is_loop_invariant(exit_value, loop):
                    line += "\t\tExits: <<Unknown>>"
                else:
                    line += "\t\tExits: " + format_scev(exit_value, names)
                parts: list[str] = []
                it: Loop | None = loop
                while it is not None:
                    parts.append("%s: %s" % (names.ref(it.header), _DISPOSITION_NAMES[se.get_loop_disposition(sv, it)]))
                    it = it.parent_loop
                for inner in loop.loops_in_preorder()[1:]:
                    parts.append("%s: %s" % (names.ref(inner.header), _DISPOSITION_NAMES[se.get_loop_disposition(sv, inner)]))
                line += "\t\tLoopDispositions: { " + ", ".join(parts) + " }"
            out.append(line + "\n")


def _with_type_hint(s: SCEV, names: _Names) -> str:
    text = format_scev(s, names)
    if isinstance(s, SCEVConstant):
        return names.type_text(s.type) + " " + text
    return text


def _loops_inner_first(top: Loop) -> list[Loop]:
    """``PrintLoopInfo``'s order: a loop after all the loops nested in it, sub-loops in order."""
    out: list[Loop] = []
    stack: list[tuple[Loop, bool]] = [(top, False)]
    while stack:
        loop, expanded = stack.pop()
        if expanded:
            out.append(loop)
            continue
        stack.append((loop, True))
        stack.extend((sub, False) for sub in reversed(loop.sub_loops))
    return out


def _print_loop(se: ScalarEvolution, loop: Loop, names: _Names, out: list[str]) -> None:
    head = "Loop %s: " % names.ref(loop.header)
    exiting = loop.exiting_blocks
    btc = se.get_backedge_taken_count(loop)
    line = head + ("<multiple exits> " if len(exiting) != 1 else "")
    if not isinstance(btc, SCEVCouldNotCompute):
        line += "backedge-taken count is " + _with_type_hint(btc, names)
    else:
        line += "Unpredictable backedge-taken count."
    out.append(line + "\n")
    if len(exiting) > 1:
        for bb in exiting:
            out.append("  exit count for %s: %s\n" % (bb.name, _with_type_hint(_exit_count(se, loop, bb, "exact"), names)))
    info = se.get_backedge_taken_info(loop)
    max_or_zero = bool(info.max_or_zero)
    cmax = se.get_constant_max_backedge_taken_count(loop)
    if not isinstance(cmax, SCEVCouldNotCompute):
        line = head + "constant max backedge-taken count is " + _with_type_hint(cmax, names)
        if max_or_zero:
            line += ", actual taken count either this or zero."
    else:
        line = head + "Unpredictable constant max backedge-taken count. "
    out.append(line + "\n")
    smax = se.get_symbolic_max_backedge_taken_count(loop)
    if not isinstance(smax, SCEVCouldNotCompute):
        line = head + "symbolic max backedge-taken count is " + _with_type_hint(smax, names)
        if max_or_zero:
            line += ", actual taken count either this or zero."
    else:
        line = head + "Unpredictable symbolic max backedge-taken count. "
    out.append(line + "\n")
    if len(exiting) > 1:
        for bb in exiting:
            count = _exit_count(se, loop, bb, "symbolic_max")
            out.append("  symbolic max exit count for %s: %s\n" % (bb.name, _with_type_hint(count, names)))
    # No predicated counts are computed here: the predicated lines are never printed.
    if not isinstance(btc, SCEVCouldNotCompute):
        out.append(head + "Trip multiple is %d\n" % small_constant_trip_multiple(se, loop))


def format_scalar_evolution(se: ScalarEvolution, classify: bool = True) -> str:
    """``ScalarEvolution::print`` for the analysis's function."""
    fn = se.function
    names = _Names(fn.parent)
    fn_ref = names.ref(fn)
    out: list[str] = []
    if classify:
        out.append("Classifying expressions for: %s\n" % fn_ref)
        _classify(se, fn, names, out)
    out.append("Determining loop execution counts for: %s\n" % fn_ref)
    for top in se.li:
        for loop in _loops_inner_first(top):
            _print_loop(se, loop, names, out)
    return "".join(out)


class ScalarEvolutionPrinterPass(Pass[Function]):
    """``print<scalar-evolution>``: :func:`format_scalar_evolution` on stderr, after LLVM's
    ``Printing analysis 'Scalar Evolution Analysis' for function 'NAME':`` line."""

    name: ClassVar[str] = "print<scalar-evolution>"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        out = self.stream if self.stream is not None else sys.stderr
        se = am.get_result(ScalarEvolutionAnalysis, unit)
        classify = OPTIONS.get("scalar-evolution-classify-expressions") is None or bool(
            OPTIONS.value("scalar-evolution-classify-expressions")
        )
        text = format_scalar_evolution(se, classify)
        out.write("Printing analysis 'Scalar Evolution Analysis' for function '%s':\n" % unit.name + text)
        return PreservedAnalyses.all()


# --- ScalarEvolution::verify ---------------------------------------------------------------------


def _map_into(se2: ScalarEvolution, s: SCEV) -> SCEV:
    """``s`` (an expression of another analysis) rebuilt in ``se2`` (LLVM's ``SCEVMapper``)."""
    done: dict[int, SCEV] = {}
    stack: list[tuple[SCEV, bool]] = [(s, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in done:
            continue
        if not expanded and node.operands:
            stack.append((node, True))
            stack.extend((op, False) for op in node.operands if id(op) not in done)
            continue
        done[id(node)] = _rebuild(se2, node, [done[id(op)] for op in node.operands])
    return done[id(s)]


def _rebuild(se2: ScalarEvolution, s: SCEV, ops: list[SCEV]) -> SCEV:
    k = s.kind
    if isinstance(s, SCEVConstant):
        return se2.get_constant(s.type, s.value)  # type: ignore[arg-type]
    if isinstance(s, SCEVUnknown):
        return se2.get_unknown(s.value)
    if isinstance(s, SCEVAddRecExpr):
        return se2.get_add_rec_expr(ops, s.loop, s.flags)
    ty: Any = s.type
    if k is SCEVTypes.TRUNCATE:
        return se2.get_truncate_expr(ops[0], ty)
    if k is SCEVTypes.ZERO_EXTEND:
        return se2.get_zero_extend_expr(ops[0], ty)
    if k is SCEVTypes.SIGN_EXTEND:
        return se2.get_sign_extend_expr(ops[0], ty)
    if k is SCEVTypes.PTR_TO_INT:
        get_ptr_to_int = getattr(se2, "get_ptr_to_int_expr", None)
        if get_ptr_to_int is not None:
            return get_ptr_to_int(ops[0], ty)  # type: ignore[no-any-return]
        return se2.get_could_not_compute()
    if k is SCEVTypes.ADD:
        return se2.get_add_expr(ops, s.flags)
    if k is SCEVTypes.MUL:
        return se2.get_mul_expr(ops, s.flags)
    if k is SCEVTypes.UDIV:
        return se2.get_udiv_expr(ops[0], ops[1])
    if k is SCEVTypes.SEQ_UMIN:
        return se2.get_umin_expr(ops, sequential=True)
    if k in (SCEVTypes.UMAX, SCEVTypes.SMAX, SCEVTypes.UMIN, SCEVTypes.SMIN):
        return se2.get_min_max_expr(k, ops)
    return se2.get_could_not_compute()


def _contains_undefs(s: SCEV) -> bool:
    from llvmpy_mid.ir.constants import UndefValue

    return any(isinstance(n, SCEVUnknown) and isinstance(n.value, UndefValue) for n in walk_scev(s))


def _reachable_blocks(fn: Function) -> set[BasicBlock]:
    entry = fn.entry_block if hasattr(fn, "entry_block") else next(iter(fn.blocks))
    seen = {entry}
    stack = [entry]
    while stack:
        bb = stack.pop()
        for succ in bb.successors:
            if succ not in seen:
                seen.add(succ)
                stack.append(succ)
    return seen


def verify_scalar_evolution(se: ScalarEvolution, strict: bool | None = None, err: TextIO | None = None) -> None:
    """LLVM ``ScalarEvolution::verify``: raise :class:`SCEVVerificationError` (after writing
    LLVM's message to ``err``, stderr by default) when a cached answer is wrong."""
    if strict is None:
        strict = OPTIONS.get("verify-scev-strict") is not None and bool(OPTIONS.value("verify-scev-strict"))
    fn = se.function
    if not len(fn.blocks):
        return
    se2 = ScalarEvolution(fn, se.tli, se.ac, se.dt, se.li)
    names = _Names(fn.parent)
    reachable = _reachable_blocks(fn)
    cnc2 = se2.get_could_not_compute()

    def delta_of(old: SCEV, new: SCEV) -> SCEV | None:
        if old is new or _contains_undefs(old) or _contains_undefs(new):
            return None
        if not (isinstance(old.type, IntegerType) and old.type is new.type):
            # Pointers: LLVM subtracts them only with a common base, then a constant
            # difference is rare; here such pairs are not compared.
            return None
        d = se2.get_minus_scev(old, new)
        if not strict and not isinstance(d, SCEVConstant):
            return None
        return d

    def fail(lines: list[str]) -> None:
        text = "".join(lines)
        (err if err is not None else sys.stderr).write(text)
        raise SCEVVerificationError(text.splitlines()[0])

    stack: list[Loop] = list(se.li)
    while stack:
        loop = stack.pop()
        stack.extend(loop.sub_loops)
        if loop.header not in reachable:
            continue
        info = se.backedge_taken_counts.get(loop)
        if info is None:
            continue
        cur = _map_into(se2, info.get_exact(se))
        new = se2.get_backedge_taken_count(loop)
        if cur is cnc2 or new is cnc2 or isinstance(cur, SCEVCouldNotCompute) or isinstance(new, SCEVCouldNotCompute):
            continue
        cw = se.get_type_size_in_bits(cur.type)  # type: ignore[arg-type]
        nw = se.get_type_size_in_bits(new.type)  # type: ignore[arg-type]
        if cw > nw:
            new = se2.get_zero_extend_expr(new, cur.type)  # type: ignore[arg-type]
        elif cw < nw:
            cur = se2.get_zero_extend_expr(cur, new.type)  # type: ignore[arg-type]
        d = delta_of(cur, new)
        if d is not None and not d.is_zero():
            fail(
                [
                    "Trip Count for %s Changed!\n" % _loop_text(loop, names),
                    "Old: %s\n" % format_scev(cur, names),
                    "New: %s\n" % format_scev(new, names),
                    "Delta: %s\n" % format_scev(d, names),
                ]
            )
    for v, s in list(se.value_map.items()):
        if not isinstance(v, Instruction) or v.parent is None or v.parent not in reachable:
            continue
        old = _map_into(se2, s)
        new = se2.get_scev(v)
        d = delta_of(old, new)
        if d is not None and not d.is_zero():
            fail(
                [
                    "SCEV for value %s changed!\n" % names.instruction(v),
                    "Old: %s\n" % format_scev(old, names),
                    "New: %s\n" % format_scev(new, names),
                    "Delta: %s\n" % format_scev(d, names),
                ]
            )
    for (s, loop), cached in list(se.loop_dispositions.items()):
        actual = se2.get_loop_disposition(s, loop)
        if actual != cached:
            fail(
                [
                    "Cached disposition of %s for loop %s is incorrect: cached %s, actual %s\n"
                    % (format_scev(s, names), _loop_text(loop, names), _DISPOSITION_NAMES[cached], _DISPOSITION_NAMES[actual])
                ]
            )


def _loop_text(loop: Loop, names: _Names) -> str:
    """``raw_ostream << Loop``: the loop and the loops nested in it, one line each."""
    lines: list[str] = []
    stack: list[tuple[Loop, int]] = [(loop, 0)]
    while stack:
        cur, indent = stack.pop()
        parts = []
        header = cur.header
        for bb in cur.blocks:
            text = names.ref(bb)
            if bb is header:
                text += "<header>"
            if cur.is_loop_latch(bb):
                text += "<latch>"
            if cur.is_loop_exiting(bb):
                text += "<exiting>"
            parts.append(text)
        parallel = "Parallel " if cur.is_annotated_parallel() else ""
        lines.append("%s%sLoop at depth %d containing: %s\n" % (" " * indent, parallel, cur.depth, ",".join(parts)))
        stack.extend((sub, indent + 2) for sub in reversed(cur.sub_loops))
    return "".join(lines)


class ScalarEvolutionVerifierPass(Pass[Function]):
    """``verify<scalar-evolution>``: :func:`verify_scalar_evolution` on the function's analysis."""

    name: ClassVar[str] = "verify<scalar-evolution>"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        verify_scalar_evolution(am.get_result(ScalarEvolutionAnalysis, unit))
        return PreservedAnalyses.all()


class VerifySCEV:
    """``-verify-scev``: after each loop pass, the function's cached ScalarEvolution (if any)
    is verified (LLVM's loop pass manager, ``if (VerifySCEV) LAR.SE.verify()``)."""

    def __init__(self, instrumentation: PassInstrumentation) -> None:
        self._fam: AnalysisManager[Function] | None = None
        instrumentation.after_pass.append(self._after)

    def attach(self, fam: AnalysisManager[Function]) -> None:
        self._fam = fam

    def _after(self, pass_: Pass[Any], unit: object, pa: PreservedAnalyses) -> None:
        fam = self._fam
        if fam is None or pass_.is_special or isinstance(unit, Function) or not OPTIONS.value("verify-scev"):
            return
        parent = getattr(getattr(unit, "header", None), "parent", None)  # a Loop: its function
        if not isinstance(parent, Function):
            return
        se = fam.get_cached_result(ScalarEvolutionAnalysis, parent)
        if se is not None:
            verify_scalar_evolution(se)
