"""Tests of ``lazy-code-motion`` (ours; LLVM 19 has no such pass, so there is no opt-19 oracle).

Property tests on random small CFGs (acyclic, and with counted loops): a few i4 expressions over
two arguments and constants, some passed to ``@sink`` (an observable trace), the result returned.
For each function and every input (exhaustively: two i4 arguments), a small interpreter runs the
function before and after the pass and checks that

1. the module verifies;
2. no expression over arguments and constants is evaluated more often than before on that input's
   path (lazy code motion is computationally optimal, so never worse than the original placement);
3. the trace of ``@sink`` calls and the returned value are unchanged wherever the original is
   defined (a poison value in the original may become anything; branching on poison is UB, and
   such inputs are skipped).

The course examples are transformed and compared with the shape derived by hand from the four
sets (comments give the sets).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from llvmpy_mid import parse_assembly, run_passes
from llvmpy_mid.analysis.dataflow.expressions import expression_opcode
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ir.verifier import verify_module

W = 4
MASK = (1 << W) - 1
MAX_STEPS = 2000


# --- a tiny interpreter over our IR (integers of width <= 8, poison, phi, br, call @sink) ------------


class _Poison:
    def __repr__(self) -> str:
        return "poison"


POISON: Any = _Poison()


class UB(Exception):
    """The run has undefined behaviour (a branch on poison) or does not end in time."""


def _signed(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) & 1 else v


def _binop(inst: Instruction, a: Any, b: Any) -> Any:
    if a is POISON or b is POISON:
        return POISON
    w = inst.type.width  # type: ignore[attr-defined]
    m = (1 << w) - 1
    op = inst.opcode
    nuw = getattr(inst, "has_no_unsigned_wrap", False)
    nsw = getattr(inst, "has_no_signed_wrap", False)
    if op in ("add", "sub", "mul"):
        sa, sb = _signed(a, w), _signed(b, w)
        full = a + b if op == "add" else a - b if op == "sub" else a * b
        sfull = sa + sb if op == "add" else sa - sb if op == "sub" else sa * sb
        if nuw and not 0 <= full <= m:
            return POISON
        if nsw and not -(1 << (w - 1)) <= sfull < 1 << (w - 1):
            return POISON
        return full & m
    if op == "and":
        return a & b
    if op == "or":
        return a | b
    if op == "xor":
        return a ^ b
    if op in ("shl", "lshr", "ashr"):
        if b >= w:
            return POISON
        if op == "shl":
            r = (a << b) & m
            if nuw and r >> b != a:
                return POISON
            if nsw and _signed(r, w) >> b != _signed(a, w):
                return POISON
            return r
        if op == "lshr":
            return a >> b
        return (_signed(a, w) >> b) & m
    raise AssertionError("interpreter: no %s" % op)


def _icmp(pred: str, a: Any, b: Any, w: int) -> Any:
    if a is POISON or b is POISON:
        return POISON
    sa, sb = _signed(a, w), _signed(b, w)
    table = {
        "eq": a == b, "ne": a != b, "ult": a < b, "ule": a <= b, "ugt": a > b, "uge": a >= b,
        "slt": sa < sb, "sle": sa <= sb, "sgt": sa > sb, "sge": sa >= sb,
    }  # fmt: skip
    return int(table[pred])


def expression_key(inst: Instruction) -> tuple[object, ...] | None:
    """(opcode, type, operands) of an expression over arguments and constants, else None."""
    op = expression_opcode(inst)
    if op is None:
        return None
    keys: list[object] = [op, str(inst.type)]
    for v in inst.operands:
        if v.is_argument:
            keys.append("%" + v.name)
        elif isinstance(v, ConstantInt):
            keys.append(v.value)
        else:
            return None
    return tuple(keys)


def run(fn: Function, args: list[int]) -> tuple[list[Any], Any, Counter[tuple[object, ...]]]:
    """(sink trace, returned value, evaluations per expression key) of ``fn`` on ``args``."""
    env: dict[Value, Any] = dict(zip(fn.args, args))
    trace: list[Any] = []
    counts: Counter[tuple[object, ...]] = Counter()
    keys: dict[Instruction, tuple[object, ...] | None] = {}

    def val(v: Value) -> Any:
        if isinstance(v, ConstantInt):
            return v.value & ((1 << v.type.width) - 1)
        if isinstance(v, PoisonValue):
            return POISON
        return env[v]

    bb: BasicBlock | None = fn.entry_block
    prev: BasicBlock | None = None
    steps = 0
    while bb is not None:
        phis = [(phi, val(phi.incoming_value_for_block(prev))) for phi in bb.phis()]  # type: ignore[arg-type]
        for phi, v in phis:
            env[phi] = v
        nxt: BasicBlock | None = None
        for inst in bb.instructions:
            steps += 1
            if steps > MAX_STEPS:
                raise UB("too many steps")
            op = inst.opcode
            if op == "phi":
                continue
            if inst not in keys:
                keys[inst] = expression_key(inst)
            k = keys[inst]
            if k is not None:
                counts[k] += 1
            if inst.is_binary_op:
                env[inst] = _binop(inst, val(inst.get_operand(0)), val(inst.get_operand(1)))
            elif op == "icmp":
                w = inst.get_operand(0).type.width  # type: ignore[attr-defined]
                env[inst] = _icmp(str(inst.predicate.keyword), val(inst.get_operand(0)), val(inst.get_operand(1)), w)  # type: ignore[attr-defined]
            elif op == "select":
                c = val(inst.get_operand(0))
                env[inst] = POISON if c is POISON else val(inst.get_operand(1 if c else 2))
            elif op == "call":
                trace.append(val(inst.get_operand(0)))
            elif op == "br":
                if inst.num_operands == 1:
                    nxt = inst.get_successor(0)
                else:
                    c = val(inst.get_operand(0))
                    if c is POISON:
                        raise UB("branch on poison")
                    nxt = inst.get_successor(0 if c else 1)
            elif op == "switch":
                c = val(inst.get_operand(0))
                if c is POISON:
                    raise UB("switch on poison")
                nxt = inst.default_dest  # type: ignore[attr-defined]
                for case, dest in inst.cases:  # type: ignore[attr-defined]
                    if case.value & MASK == c:
                        nxt = dest
                        break
            elif op == "ret":
                return trace, val(inst.get_operand(0)), counts
            else:
                raise AssertionError("interpreter: no %s" % op)
        prev, bb = bb, nxt
    raise AssertionError("fell off the function")


# --- random CFGs ---------------------------------------------------------------------------------

_OPS = ("add", "sub", "mul", "xor", "and", "or", "shl", "lshr")
_FLAGGED = ("add", "sub", "mul", "shl")


def _expression_pool(rng: random.Random) -> list[str]:
    """A few expressions over %a, %b and small constants (a small pool, so they repeat)."""
    pool: list[str] = []
    for _ in range(rng.randint(2, 4)):
        op = rng.choice(_OPS)
        lhs = rng.choice(("%a", "%b"))
        rhs = rng.choice(("%a", "%b", str(rng.randint(1, 3)))) if op not in ("shl", "lshr") else str(rng.randint(1, 3))
        pool.append("%s i4 %s, %s" % (op, lhs, rhs))
    return pool


def _with_flags(rng: random.Random, expr: str) -> str:
    op, rest = expr.split(" ", 1)
    if op in _FLAGGED:
        flags = [f for f in ("nuw", "nsw") if rng.random() < 0.3]
        if flags:
            return " ".join([op, *flags, rest])
    return expr


def random_function(seed: int, loops: bool) -> str:
    """A function ``i4 @f(i4 %a, i4 %b)``: blocks in a row, forward branches to later blocks on
    compares of the arguments or of expressions; with ``loops``, some back edges to a dominating
    header whose phi counts the trips (at most 3 per entry)."""
    rng = random.Random(seed)
    n = rng.randint(3, 7)
    pool = _expression_pool(rng)
    succs: list[list[int]] = []
    for i in range(n - 1):
        k = 1 if rng.random() < 0.35 or i == n - 2 else 2
        succs.append(sorted(set(rng.sample(range(i + 1, n), min(k, n - 1 - i)))))
    succs.append([])
    back: dict[int, int] = {}  # latch -> header
    if loops:
        dom = _dag_dominators(succs)
        for _ in range(rng.randint(1, 2)):
            latch = rng.randrange(0, n - 1)
            heads = [h for h in dom[latch] if h != 0 and h not in back.values()]
            if latch in back or not heads:
                continue
            back[latch] = rng.choice(heads)
            succs[latch] = succs[latch][:1]
    switches = {i for i in range(n) if len(succs[i]) == 2 and rng.random() < 0.25}
    preds: list[list[str]] = [[] for _ in range(n)]
    for i, ss in enumerate(succs):
        for s in ss:
            preds[s] += ["%%b%d" % i] * (2 if i in switches else 1)
    lines = ["declare void @sink(i4)", "", "define i4 @f(i4 %a, i4 %b) {"]
    counter = 0
    for i in range(n):
        lines.append("b%d:" % i)
        latch = [l for l, h in back.items() if h == i]
        if latch:
            incoming = ["[ 0, %s ]" % p for p in preds[i]] + ["[ %%i%d.next, %%b%d ]" % (i, latch[0])]
            lines.append("  %%i%d = phi i4 %s" % (i, ", ".join(incoming)))
            lines.append("  %%i%d.next = add i4 %%i%d, 1" % (i, i))
        names: list[str] = []
        for _ in range(rng.randint(0, 3)):
            counter += 1
            name = "%%v%d" % counter
            lines.append("  %s = %s" % (name, _with_flags(rng, rng.choice(pool))))
            names.append(name)
            if rng.random() < 0.5:
                lines.append("  call void @sink(i4 %s)" % name)
        if i in back:
            h = back[i]
            counter += 1
            lines.append("  %%c%d = icmp ult i4 %%i%d.next, %d" % (counter, h, rng.randint(2, 3)))
            lines.append("  br i1 %%c%d, label %%b%d, label %%b%d" % (counter, h, succs[i][0]))
        elif i in switches and i not in back:
            # A switch with two cases to one block (the edges are split one by one).
            s0, s1 = succs[i]
            v = rng.choice(names + ["%a", "%b"])
            lines.append("  switch i4 %s, label %%b%d [ i4 1, label %%b%d i4 2, label %%b%d i4 3, label %%b%d ]"
                         % (v, s0, s1, s1, s0))
        elif len(succs[i]) == 2:
            counter += 1
            lhs = rng.choice(names + ["%a", "%b"])
            pred = rng.choice(("ult", "slt", "eq", "ne", "ugt"))
            lines.append("  %%c%d = icmp %s i4 %s, %s" % (counter, pred, lhs, rng.choice(("%a", "%b", "5"))))
            lines.append("  br i1 %%c%d, label %%b%d, label %%b%d" % (counter, succs[i][0], succs[i][1]))
        elif len(succs[i]) == 1:
            lines.append("  br label %%b%d" % succs[i][0])
        else:
            lines.append("  ret i4 %s" % rng.choice(names + ["%a"]))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dag_dominators(succs: list[list[int]]) -> list[set[int]]:
    """Dominators of each block of a forward-only CFG (blocks in topological order)."""
    n = len(succs)
    preds: list[list[int]] = [[] for _ in range(n)]
    for i, ss in enumerate(succs):
        for s in ss:
            preds[s].append(i)
    dom: list[set[int]] = [set() for _ in range(n)]
    dom[0] = {0}
    for i in range(1, n):
        ps = [dom[p] for p in preds[i] if dom[p]]
        dom[i] = (set.intersection(*ps) | {i}) if ps else set()
    return dom


def _module(text: str) -> Module | None:
    module = parse_assembly(text)
    try:
        verify_module(module)
    except Exception:
        return None  # a back edge broke dominance: not a test case
    return module


def _check(text: str) -> int:
    """Run the properties on one function; how many inputs the original defines."""
    before = _module(text)
    if before is None:
        return -1
    after = parse_assembly(text)
    run_passes(after, "lazy-code-motion")
    verify_module(after)
    f0 = before.get_function("f")
    f1 = after.get_function("f")
    assert f0 is not None and f1 is not None
    defined = 0
    for a in range(1 << W):
        for b in range(1 << W):
            try:
                trace0, ret0, counts0 = run(f0, [a, b])
            except UB:
                continue
            defined += 1
            trace1, ret1, counts1 = run(f1, [a, b])
            for k, c in counts1.items():
                assert c <= counts0[k], "%s evaluated %d times, was %d (a=%d b=%d)\n%s\n%s" % (
                    k, c, counts0[k], a, b, text, after)
            assert len(trace0) == len(trace1), (a, b, text, str(after))
            for x, y in zip(trace0 + [ret0], trace1 + [ret1]):
                assert x is POISON or x == y, "a=%d b=%d: %r became %r\n%s\n%s" % (a, b, x, y, text, after)
    return defined


@pytest.mark.parametrize("seed", range(60))
def test_random_acyclic_cfgs(seed: int) -> None:
    assert _check(random_function(seed, loops=False)) > 0


@pytest.mark.parametrize("seed", range(60))
def test_random_loop_cfgs(seed: int) -> None:
    defined = _check(random_function(1000 + seed, loops=True))
    assert defined != 0


def test_random_cfgs_do_move_code() -> None:
    """The generator gives the pass work: across the seeds it inserts and replaces."""
    inserted = replaced = 0
    for seed in range(40):
        for loops in (False, True):
            module = _module(random_function(seed + 1000 * loops, loops))
            if module is None:
                continue
            stats = run_passes(module, "lazy-code-motion").statistics
            inserted += stats.get("lazy-code-motion.NumInserted", 0)
            replaced += stats.get("lazy-code-motion.NumReplaced", 0)
    assert inserted > 5 and replaced > 10


# --- the course examples, with the result derived by hand from the four sets -------------------------


def _shape(module: Module, name: str) -> dict[str, list[str]]:
    """Each block's instructions as printed (a phi's incoming pairs sorted, metadata-free)."""
    fn = module.get_function(name)
    assert fn is not None
    out: dict[str, list[str]] = {}
    for bb in fn.blocks:
        rows: list[str] = []
        for inst in bb.instructions:
            text = str(inst).strip()
            if inst.opcode == "phi":
                head, _, pairs = text.partition(" [ ")
                text = head + " " + ", ".join(sorted("[ " + p.strip(", ") for p in (" [ " + pairs).split("[ ")[1:]))
            rows.append(text)
        out[bb.name] = rows
    return out


def _transformed(text: str) -> tuple[Module, dict[str, int]]:
    module = parse_assembly(text)
    stats = run_passes(module, "lazy-code-motion").statistics
    verify_module(module)
    return module, stats


# CS 6120's BrilPRE example (tests/analysis/test_dataflow.py keeps its -O0 form), in SSA form:
# a + a on one branch and after the join, with the critical edge entry -> end.
CS6120_SSA = """
define i32 @main(i1 %cmp, i32 %a) {
entry:
  br i1 %cmp, label %here, label %end
here:
  %x = add i32 %a, %a
  br label %end
end:
  %y = add i32 %a, %a
  ret i32 %y
}
"""


def test_cs6120_example_splits_the_critical_edge() -> None:
    # With S = entry.end_crit_edge and e = add %a, %a:
    #   anticipated: everywhere before %y (both paths compute e);
    #   will-be-available: in at every point but the entry's branch;
    #   earliest: the entry's branch only; postponable: in at %x, at S's branch (not at end:
    #   the path through %x uses it);
    #   latest: %x (it uses e) and S's branch (end is not postponable);
    #   used.out: {e} at %x and at S's branch (end's %y is not latest, so it reads the temporary).
    # Insert at %x (the computation is its own definition) and in S; %y reads their phi.
    module, stats = _transformed(CS6120_SSA)
    assert _shape(module, "main") == {
        "entry": ["br i1 %cmp, label %here, label %entry.end_crit_edge"],
        "entry.end_crit_edge": ["%x.lcm = add i32 %a, %a", "br label %end"],
        "here": ["%x = add i32 %a, %a", "br label %end"],
        "end": ["%x.lcm.phi = phi i32 [ %x, %here ], [ %x.lcm, %entry.end_crit_edge ]", "ret i32 %x.lcm.phi"],
    }
    assert stats == {"lazy-code-motion.NumInserted": 1, "lazy-code-motion.NumReplaced": 1}


# The CMU 15-745 lazy-code-motion lecture's flow graph (L12, the running example): b + c in B7 and
# in B10, a loop B3 <-> B4 on the other path.
CMU_L12 = """
declare i1 @more()
declare void @use(i32)

define i32 @cmu(i32 %b, i32 %c, i1 %p) {
B1:
  br label %B2
B2:
  br i1 %p, label %B3, label %B7
B3:
  br label %B4
B4:
  %m = call i1 @more()
  br i1 %m, label %B3, label %B5
B5:
  br label %B6
B6:
  br label %B10
B7:
  %x = add i32 %b, %c
  call void @use(i32 %x)
  br label %B8
B8:
  br label %B9
B9:
  br label %B10
B10:
  %y = add i32 %b, %c
  ret i32 %y
}
"""


def test_cmu_example_is_lazy() -> None:
    # e = add %b, %c. Anticipated from B1 to B10's %y (every path computes it); will-be-available
    # everywhere after B1's first point, so earliest = {B1:0}. Postponable all the way down both
    # paths (the loop neither uses nor kills e) until a use: B7's %x, and B10 where the B7 path
    # brings nothing postponable. Latest: %x, and the end of B6 (its successor B10 is not
    # postponable). used.out holds at both (B10's %y is not latest: it reads the temporary).
    # So: not hoisted into B2 or the loop (busy code motion would be); B6 computes e before the
    # join, %x is its own definition, %y becomes a phi. The split edges B2->B3 and B4->B3 are
    # not needed and disappear again.
    module, stats = _transformed(CMU_L12)
    shape = _shape(module, "cmu")
    want = _shape(parse_assembly(CMU_L12), "cmu")
    want["B6"] = ["%x.lcm = add i32 %b, %c", "br label %B10"]
    want["B10"] = ["%x.lcm.phi = phi i32 [ %x, %B9 ], [ %x.lcm, %B6 ]", "ret i32 %x.lcm.phi"]
    assert shape == want
    assert stats == {"lazy-code-motion.NumInserted": 1, "lazy-code-motion.NumReplaced": 1}
    # Everything else prints exactly as before (the merged-back edges keep B3's preds order).
    before = str(parse_assembly(CMU_L12)).splitlines()
    after = str(module).splitlines()
    assert [l for l in before if "B3:" in l] == [l for l in after if "B3:" in l]


def test_dragon_loop_invariant_hoisted_from_do_while() -> None:
    # [DRAGON] Fig. 9.30(b): b + c in a loop body that runs at least once: anticipated and
    # earliest at the entry's branch, latest there too (the body is a join: not postponable
    # into it), used in the body: computed once before the loop.
    module, stats = _transformed(
        """
define i32 @f(i32 %b, i32 %c, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %s = phi i32 [ 0, %entry ], [ %s1, %body ]
  %t = add i32 %b, %c
  %s1 = add i32 %s, %t
  %i1 = add i32 %i, 1
  %k = icmp slt i32 %i1, %n
  br i1 %k, label %body, label %exit
exit:
  ret i32 %s1
}
"""
    )
    shape = _shape(module, "f")
    assert shape["entry"] == ["%t.lcm = add i32 %b, %c", "br label %body"]
    assert "%s1 = add i32 %s, %t.lcm" in shape["body"] and not any("%b, %c" in x for x in shape["body"])
    assert list(shape) == ["entry", "body", "exit"]
    assert stats == {"lazy-code-motion.NumInserted": 1, "lazy-code-motion.NumReplaced": 1}


def test_dragon_full_redundancy_after_a_diamond() -> None:
    # [DRAGON] Fig. 9.30(a): both branches compute b + c and so does the join. Latest: in each
    # branch (the join is not postponable: each branch uses e); used.out there (the join reads
    # the temporary): no insertion but the branches' own computations, the join gets a phi.
    module, stats = _transformed(
        """
define i32 @g(i32 %b, i32 %c, i1 %k) {
entry:
  br i1 %k, label %l, label %r
l:
  %x = add nsw i32 %b, %c
  br label %j
r:
  %y = add nuw nsw i32 %b, %c
  br label %j
j:
  %z = add nsw i32 %b, %c
  ret i32 %z
}
"""
    )
    assert _shape(module, "g") == {
        "entry": ["br i1 %k, label %l, label %r"],
        # The definitions' flags are those of every computation they stand for.
        "l": ["%x = add nsw i32 %b, %c", "br label %j"],
        "r": ["%y = add nsw i32 %b, %c", "br label %j"],
        "j": ["%x.lcm.phi = phi i32 [ %x, %l ], [ %y, %r ]", "ret i32 %x.lcm.phi"],
    }
    assert stats == {"lazy-code-motion.NumReplaced": 1}


def test_clone_takes_the_flags_common_to_what_it_replaces() -> None:
    module, _ = _transformed(CS6120_SSA.replace("%x = add", "%x = add nuw nsw").replace("%y = add", "%y = add nsw"))
    shape = _shape(module, "main")
    assert shape["entry.end_crit_edge"][0] == "%x.lcm = add nsw i32 %a, %a"
    assert shape["here"][0] == "%x = add nsw i32 %a, %a"


@pytest.mark.parametrize(
    "body",
    [
        "%x = udiv i32 %a, %d\n  br label %end\nend:\n  %y = udiv i32 %a, %d",  # may trap
        "%x = load i32, ptr %p\n  br label %end\nend:\n  %y = load i32, ptr %p",  # memory
    ],
)
def test_unsafe_expressions_stay(body: str) -> None:
    text = (
        "define i32 @f(i1 %cmp, i32 %a, i32 %d, ptr %p) {\nentry:\n  br i1 %cmp, label %here, label %end\n"
        "here:\n  " + body + "\n  ret i32 %y\n}\n"
    )
    module, stats = _transformed(text)
    assert str(module) == str(parse_assembly(text)) and stats == {}


def test_clang_o0_memory_variables_are_not_moved() -> None:
    # The analysis sees "a + a" over the memory variable [%a]; the transform only moves
    # expressions of SSA values, so the -O0 form is left as it is.
    text = """
define void @main(i1 %cmp) {
entry:
  %a = alloca i32
  store i32 20, ptr %a
  br i1 %cmp, label %here, label %end
here:
  %0 = load i32, ptr %a
  %1 = load i32, ptr %a
  %2 = add i32 %0, %1
  br label %end
end:
  %3 = load i32, ptr %a
  %4 = load i32, ptr %a
  %5 = add i32 %3, %4
  ret void
}
"""
    module, _ = _transformed(text)
    assert str(module) == str(parse_assembly(text))


def test_unreachable_code_and_declarations() -> None:
    text = """
declare i32 @ext(i32)

define i32 @f(i32 %a) {
entry:
  %x = add i32 %a, 1
  %y = add i32 %a, 1
  ret i32 %y
dead:
  %z = add i32 %a, 1
  %w = add i32 %w, 1
  br label %dead
}
"""
    module, stats = _transformed(text)
    shape = _shape(module, "f")
    assert shape["entry"] == ["%x = add i32 %a, 1", "ret i32 %x"]
    assert shape["dead"] == ["%z = add i32 %a, 1", "%w = add i32 %w, 1", "br label %dead"]
    assert stats == {"lazy-code-motion.NumReplaced": 1}


def test_pass_is_listed_and_runs_through_the_cli(tmp_path: Any) -> None:
    import subprocess
    import sys

    path = tmp_path / "in.ll"
    path.write_text(CS6120_SSA)
    r = subprocess.run([sys.executable, "-m", "llvmpy_mid", "-passes=lazy-code-motion", "-S", str(path)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "%x.lcm = add i32 %a, %a" in r.stdout
    r = subprocess.run([sys.executable, "-m", "llvmpy_mid", "-print-passes"], capture_output=True, text=True)
    assert "lazy-code-motion" in r.stdout


def _computations(fn: Function, opcode: str, path: list[str]) -> int:
    """How many ``opcode`` instructions run along the blocks named in ``path``."""
    blocks = {bb.name: bb for bb in fn.blocks}
    return sum(1 for name in path for inst in blocks[name].instructions if inst.opcode == opcode)


def test_unsplittable_edge_into_a_landing_pad() -> None:
    # t -> lp cannot be split (lp is an EH pad): the latest point of a * b on t's paths is
    # before the invoke; the analysis also makes t's split normal edge a latest point, an
    # insertion the expression is already available at, which the pass drops.
    text = """
declare i32 @__gxx_personality_v0(...)
declare void @may_throw()

define i32 @eh(i32 %a, i32 %b, i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %t, label %f
t:
  invoke void @may_throw() to label %ok unwind label %lp
f:
  %x = mul i32 %a, %b
  invoke void @may_throw() to label %ok unwind label %lp
ok:
  %y = mul i32 %a, %b
  ret i32 %y
lp:
  %l = landingpad { ptr, i32 } cleanup
  %z = mul i32 %a, %b
  ret i32 %z
}
"""
    module, stats = _transformed(text)
    fn = module.get_function("eh")
    assert fn is not None
    assert [bb.name for bb in fn.blocks] == ["entry", "t", "f", "ok", "lp"]
    for path in (["entry", "t", "ok"], ["entry", "t", "lp"], ["entry", "f", "ok"], ["entry", "f", "lp"]):
        assert _computations(fn, "mul", path) == 1, path
    assert [i.opcode for i in fn.blocks.last.instructions][:2] == ["phi", "landingpad"]  # type: ignore[union-attr]
    assert stats == {"lazy-code-motion.NumInserted": 1, "lazy-code-motion.NumReplaced": 2}


def test_switch_with_two_edges_to_one_block() -> None:
    text = """
define i32 @sw(i32 %a, i32 %b, i32 %k) {
entry:
  switch i32 %k, label %d [ i32 0, label %j
                            i32 1, label %j
                            i32 2, label %l ]
l:
  %x = add i32 %a, %b
  br label %j
d:
  %y = add i32 %a, %b
  br label %j
j:
  %p = phi i32 [ 1, %entry ], [ 1, %entry ], [ %x, %l ], [ %y, %d ]
  %z = add i32 %a, %b
  %r = add i32 %z, %p
  ret i32 %r
}
"""
    module, stats = _transformed(text)
    fn = module.get_function("sw")
    assert fn is not None
    # Each way into j computes a + b exactly once; j itself no longer does.
    assert _computations(fn, "add", ["j"]) == 1  # %r
    for pred in fn.blocks:
        if pred.name != "j" and pred.name != "entry":
            assert _computations(fn, "add", [pred.name]) == 1, pred.name
    assert stats["lazy-code-motion.NumReplaced"] == 1


def test_indirectbr_edges_are_not_split() -> None:
    text = """
define i32 @ib(i32 %a, i32 %b, ptr %dst) {
entry:
  %x = xor i32 %a, %b
  indirectbr ptr %dst, [label %one, label %two]
one:
  %y = xor i32 %a, %b
  br label %two
two:
  %z = xor i32 %a, %b
  ret i32 %z
}
"""
    module, stats = _transformed(text)
    assert _shape(module, "ib") == {
        "entry": ["%x = xor i32 %a, %b", "indirectbr ptr %dst, [label %one, label %two]"],
        "one": ["br label %two"],
        "two": ["ret i32 %x"],
    }
    assert stats == {"lazy-code-motion.NumReplaced": 2}


def test_fast_math_flags_and_vectors() -> None:
    text = """
define float @fp(float %a, float %b, i1 %c) {
entry:
  br i1 %c, label %t, label %j
t:
  %x = fadd fast float %a, %b
  br label %j
j:
  %y = fadd nnan float %a, %b
  ret float %y
}

define <2 x i8> @vec(<2 x i8> %a, i1 %c) {
entry:
  br i1 %c, label %t, label %j
t:
  %x = shl nuw <2 x i8> %a, <i8 1, i8 2>
  br label %j
j:
  %y = shl <2 x i8> %a, <i8 1, i8 2>
  ret <2 x i8> %y
}
"""
    module, _ = _transformed(text)
    fp = _shape(module, "fp")
    assert fp["t"][0] == "%x = fadd nnan float %a, %b"
    assert fp["entry.j_crit_edge"][0] == "%x.lcm = fadd nnan float %a, %b"
    vec = _shape(module, "vec")
    assert vec["t"][0] == "%x = shl <2 x i8> %a, <i8 1, i8 2>"
    assert vec["entry.j_crit_edge"][0] == "%x.lcm = shl <2 x i8> %a, <i8 1, i8 2>"
