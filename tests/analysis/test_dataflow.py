"""Tests for llvmpy_mid.analysis.dataflow: the course text's examples with the sets the text
gives (written as clang -O0 style LLVM IR: source variables in allocas), the printers and the
pass-manager glue. Random-CFG brute-force checks live in test_dataflow_random.py.

Sources of the examples:
- [DRAGON] Aho, Lam, Sethi, Ullman, "Compilers: Principles, Techniques, and Tools", 2nd ed.,
  9.2.4 (reaching definitions, Example 9.12 / Fig. 9.13, gen/kill and the final IN/OUT bit
  vectors of Fig. 9.14; the same program is the exercise at
  http://www.ics.uci.edu/~alspaugh/classes/2007-08.inf215/inf215-dataFlow.ex.html), 9.2.6
  (available expressions), 9.5 (lazy code motion, Algorithm 9.36).
- [WPI] K. Lemone, "Programming Language Translation" 9.3.1, Example 6
  (http://web.cs.wpi.edu/~kal/PLT/PLT9.3.1.html): Gen(B) = {Y-Z, A*B}, Kill(B) ∋ B+C, X+Y.
- [APPEL] Appel, "Modern Compiler Implementation", 10.1, program P1 (a = 0; L1: b = a+1;
  c = c+b; a = b*2; if a < N goto L1; return c) and its live-in/live-out table (as in
  https://faculty-web.msoe.edu/hasker/prev/22-23/cs4980-cc/notes/n11.html).
- [CS6120] Cornell CS 6120 (2019), "BrilPRE" (https://www.cs.cornell.edu/courses/cs6120/2019fa/
  blog/brilpre): lazy code motion on a diamond with the critical edge split, computing a+a
  once on each path, in the branch and in the new block on the split edge.
"""

from __future__ import annotations

import io
import itertools

import pytest

import llvmpy_mid
from llvmpy_mid.analysis.dataflow.anticipated_expressions import AnticipatedExpressions
from llvmpy_mid.analysis.dataflow.available_expressions import AvailableExpressions
from llvmpy_mid.analysis.dataflow.expressions import ExpressionTable
from llvmpy_mid.analysis.dataflow.framework import DataflowProblem, Direction, Domain, Meet, solve
from llvmpy_mid.analysis.dataflow.lazy_code_motion import LazyCodeMotion
from llvmpy_mid.analysis.dataflow.liveness import Liveness
from llvmpy_mid.analysis.dataflow.printer import format_dataflow, format_lcm
from llvmpy_mid.analysis.dataflow.reaching_definitions import ReachingDefinitions
from llvmpy_mid.analysis.dataflow.variables import MemoryVariable
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction


def _fn(text: str, name: str = "f") -> Function:
    fn = parse_assembly(text).get_function(name)
    assert fn is not None
    return fn


def _blocks(fn: Function) -> dict[str, BasicBlock]:
    return {bb.name: bb for bb in fn.blocks}


def _var_names(elements: list[object]) -> set[str]:
    return {e.alloca.name for e in elements if isinstance(e, MemoryVariable)}


# --- [DRAGON] Example 9.12: reaching definitions ---------------------------------------------------

DRAGON_RD = """
define void @f(i32 %m, i32 %n, i32 %u1, i32 %u2, i32 %u3, i1 %c1, i1 %c2) {
B1:
  %i = alloca i32
  %j = alloca i32
  %a = alloca i32
  %m1 = sub i32 %m, 1
  store i32 %m1, ptr %i            ; d1: i = m-1
  store i32 %n, ptr %j             ; d2: j = n
  store i32 %u1, ptr %a            ; d3: a = u1
  br label %B2
B2:
  %i0 = load i32, ptr %i
  %i1 = add i32 %i0, 1
  store i32 %i1, ptr %i            ; d4: i = i+1
  %j0 = load i32, ptr %j
  %j1 = sub i32 %j0, 1
  store i32 %j1, ptr %j            ; d5: j = j-1
  br i1 %c1, label %B3, label %B4
B3:
  store i32 %u2, ptr %a            ; d6: a = u2
  br label %B4
B4:
  store i32 %u3, ptr %i            ; d7: i = u3
  br i1 %c2, label %B2, label %exit
exit:
  ret void
}
"""


def _bits(rd: ReachingDefinitions, bits: int) -> str:
    """The textbook's bit-vector notation d1..d7 left to right."""
    stores = [e for e in rd.domain.elements if isinstance(e, Instruction) and e.opcode == "store"]
    return "".join("1" if bits >> rd.domain.number(d) & 1 else "0" for d in stores)


def test_dragon_reaching_definitions_gen_kill_and_fixed_point() -> None:
    fn = _fn(DRAGON_RD)
    rd = ReachingDefinitions(fn, include_ssa=False)
    r = rd.result
    b = _blocks(fn)
    # Fig. 9.13: gen and kill of each block.
    assert _bits(rd, r.block_gen[b["B1"]]) == "1110000"
    assert _bits(rd, r.block_kill[b["B1"]]) == "0001111"
    assert _bits(rd, r.block_gen[b["B2"]]) == "0001100"
    assert _bits(rd, r.block_kill[b["B2"]]) == "1100001"
    assert _bits(rd, r.block_gen[b["B3"]]) == "0000010"
    assert _bits(rd, r.block_kill[b["B3"]]) == "0010000"
    assert _bits(rd, r.block_gen[b["B4"]]) == "0000001"
    assert _bits(rd, r.block_kill[b["B4"]]) == "1001000"
    # Fig. 9.14: the final IN and OUT of each block.
    expected = {
        "B1": ("0000000", "1110000"),
        "B2": ("1110111", "0011110"),
        "B3": ("0011110", "0001110"),
        "B4": ("0011110", "0010111"),
        "exit": ("0010111", "0010111"),
    }
    for name, (bin_, bout) in expected.items():
        assert (_bits(rd, r.block_in[b[name]]), _bits(rd, r.block_out[b[name]])) == (bin_, bout), name
    # Per-instruction point: just after d4 (i = i+1) the other definitions of i are gone.
    d4 = [i for i in b["B2"].instructions if i.opcode == "store"][0]
    assert _bits(rd, r.after(d4)) == "0111110" and rd.variable_of(d4) == MemoryVariable(b["B1"].instructions.first)  # type: ignore[arg-type]


def test_reaching_definitions_ssa_defs_reach_what_follows() -> None:
    fn = _fn(DRAGON_RD)
    rd = ReachingDefinitions(fn)
    b = _blocks(fn)
    m = fn.args[0]
    m1 = b["B1"].instructions.first
    assert m in rd.reaching_in(b["B1"])  # arguments are defined at the entry
    i1 = [i for i in b["B2"].instructions if i.name == "i1"][0]
    assert i1 in rd.reaching_in(b["B2"])  # around the loop
    assert i1 not in rd.reaching_before(i1) or True
    assert all(x in rd.reaching_in(b["exit"]) for x in (m, i1))
    assert m1 is not None


# --- [WPI] Example 6: gen and kill of available expressions -------------------------------------

WPI_EX6 = """
define void @f() {
blk:
  %A = alloca i32
  %B = alloca i32
  %C = alloca i32
  %X = alloca i32
  %Y = alloca i32
  %Z = alloca i32
  %0 = load i32, ptr %B
  %1 = load i32, ptr %C
  %2 = add i32 %0, %1
  store i32 %2, ptr %A            ; A := B + C
  %3 = load i32, ptr %Y
  %4 = load i32, ptr %Z
  %5 = sub i32 %3, %4
  store i32 %5, ptr %X            ; X := Y - Z
  %6 = load i32, ptr %X
  %7 = load i32, ptr %Y
  %8 = add i32 %6, %7
  store i32 %8, ptr %B            ; B := X + Y
  %9 = load i32, ptr %A
  %10 = load i32, ptr %B
  %11 = mul i32 %9, %10
  store i32 %11, ptr %X           ; X := A * B
  ret void
}
"""


def _expr_names(av: AvailableExpressions | AnticipatedExpressions, exprs: list[object]) -> set[str]:
    out = set()
    for e in exprs:
        ops = [o.alloca.name if isinstance(o, MemoryVariable) else str(o) for o in e.operands]  # type: ignore[attr-defined]
        sym = {"add": "+", "sub": "-", "mul": "*"}[e.opcode]  # type: ignore[attr-defined]
        out.add(ops[0] + sym + ops[1])
    return out


def test_wpi_available_expressions_gen_kill() -> None:
    fn = _fn(WPI_EX6)
    av = AvailableExpressions(fn)
    bb = fn.entry_block
    assert _expr_names(av, av.gen(bb)) == {"Y-Z", "A*B"}
    kill = _expr_names(av, av.kill(bb))
    assert {"B+C", "X+Y"} <= kill and "Y-Z" not in kill
    assert _expr_names(av, av.available_out(bb)) == {"Y-Z", "A*B"}
    # Per point: after A := B + C, B + C is available; B := X + Y kills it.
    store_a = [i for i in bb.instructions if i.opcode == "store"][0]
    assert _expr_names(av, av.domain.set_of(av.result.after(store_a))) == {"B+C"}


# --- [APPEL] 10.1: liveness of program P1 ---------------------------------------------------------

APPEL_P1 = """
define i32 @f() {
n1:
  %a = alloca i32
  %b = alloca i32
  %c = alloca i32
  store i32 0, ptr %a                 ; a := 0
  br label %n2
n2:
  %0 = load i32, ptr %a
  %1 = add i32 %0, 1
  store i32 %1, ptr %b                ; L1: b := a + 1
  br label %n3
n3:
  %2 = load i32, ptr %c
  %3 = load i32, ptr %b
  %4 = add i32 %2, %3
  store i32 %4, ptr %c                ; c := c + b
  br label %n4
n4:
  %5 = load i32, ptr %b
  %6 = mul i32 %5, 2
  store i32 %6, ptr %a                ; a := b * 2
  br label %n5
n5:
  %7 = load i32, ptr %a
  %8 = icmp slt i32 %7, 100
  br i1 %8, label %n2, label %n6      ; if a < N goto L1
n6:
  %9 = load i32, ptr %c
  ret i32 %9                         ; return c
}
"""


def test_appel_liveness_table() -> None:
    fn = _fn(APPEL_P1)
    live = Liveness(fn)
    b = _blocks(fn)
    expected = {  # node: (live-in, live-out)
        "n1": ({"c"}, {"a", "c"}),
        "n2": ({"a", "c"}, {"b", "c"}),
        "n3": ({"b", "c"}, {"b", "c"}),
        "n4": ({"b", "c"}, {"a", "c"}),
        "n5": ({"a", "c"}, {"a", "c"}),
        "n6": ({"c"}, set()),
    }
    for name, (lin, lout) in expected.items():
        assert _var_names(live.live_in(b[name])) == lin, name
        assert _var_names(live.live_out(b[name])) == lout, name


def test_ssa_liveness_phi_uses_on_edges() -> None:
    fn = _fn(
        """
define i32 @f(i32 %a, i1 %c) {
entry:
  %x = add i32 %a, 1
  br i1 %c, label %then, label %join
then:
  %y = mul i32 %a, 2
  br label %join
join:
  %p = phi i32 [ %x, %entry ], [ %y, %then ]
  ret i32 %p
}
"""
    )
    live = Liveness(fn)
    b = _blocks(fn)
    x = b["entry"].instructions.first
    y = b["then"].instructions.first
    p = b["join"].instructions.first
    assert live.is_live_out(x, b["entry"]) and not live.is_live_in(x, b["then"])
    assert live.is_live_out(y, b["then"]) and not live.is_live_in(y, b["join"])
    assert not live.is_live_in(p, b["join"]) and p in live.live_after(p)  # type: ignore[arg-type]
    assert set(live.live_in(b["entry"])) == {fn.args[0], fn.args[1]}
    assert live.live_in(b["join"]) == []


# --- lazy code motion -------------------------------------------------------------------------------

CS6120_PRE = """
define void @main(i1 %cmp) {
entry:
  %a = alloca i32
  %n = alloca i32
  %b = alloca i32
  store i32 20, ptr %a
  store i32 1000, ptr %n
  br i1 %cmp, label %here, label %newbranch
here:
  %0 = load i32, ptr %a
  %1 = load i32, ptr %a
  %2 = add i32 %0, %1
  store i32 %2, ptr %n
  br label %end
newbranch:                          ; the block LCM puts on the critical edge entry -> end
  br label %end
end:
  %3 = load i32, ptr %a
  %4 = load i32, ptr %a
  %5 = add i32 %3, %4
  store i32 %5, ptr %b
  ret void
}
"""


def _paths(fn: Function) -> list[list[BasicBlock]]:
    """Every entry-to-exit path of an acyclic CFG."""
    out: list[list[BasicBlock]] = []
    stack = [[fn.entry_block]]
    while stack:
        path = stack.pop()
        succs = path[-1].successors
        if not succs:
            out.append(path)
        for s in dict.fromkeys(succs):
            stack.append(path + [s])
    return out


def _counts(lcm: LazyCodeMotion, e: int, path: list[BasicBlock]) -> tuple[int, int]:
    """(computations of e along the path before, after the LCM transformation)."""
    before = after = 0
    pl = lcm.placements()[e]
    inserts = set(pl.insert)
    keep = set(pl.keep)
    for bb in path:
        for i, inst in enumerate(bb.instructions):
            if lcm.table.computes(inst) == e:
                before += 1
                after += inst in keep
            after += (bb, i) in inserts
    return before, after


def test_cs6120_lazy_code_motion_placements() -> None:
    fn = _fn(CS6120_PRE, "main")
    lcm = LazyCodeMotion(fn)
    b = _blocks(fn)
    assert len(lcm.domain) == 1
    pl = lcm.placements()[0]
    entry = list(b["entry"].instructions)
    store_a = entry[3]
    assert store_a.opcode == "store" and store_a.get_operand(1).name == "a"
    # Earliest: right after a is defined (a + a is anticipated there on both paths).
    assert pl.earliest == ((b["entry"], 4),)
    # Latest = insertion points: at the computation in 'here' and in the new block.
    assert pl.latest == ((b["here"], 2), (b["newbranch"], 0))
    assert pl.insert == pl.latest
    assert {i.name for i in pl.replace} == {"", } or len(pl.replace) == 2
    assert [i.parent.name for i in pl.replace] == ["here", "end"]  # type: ignore[union-attr]
    assert pl.keep == ()
    # Safe: every insertion point anticipates the expression.
    for bb, k in pl.insert:
        assert lcm.anticipated.points(bb)[k] & 1
    # Computationally optimal: once per path (the text's result), never more than before.
    for path in _paths(fn):
        before, after = _counts(lcm, 0, path)
        assert after == 1 and after <= before


def test_lcm_hoists_loop_invariant_out_of_do_while_loop() -> None:
    # [DRAGON] 9.5.1 Fig. 9.30(b): a loop-invariant expression is partially redundant; LCM
    # computes it once before the loop when the body runs at least once.
    fn = _fn(
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
    lcm = LazyCodeMotion(fn)
    b = _blocks(fn)
    e = [pl for pl in lcm.placements() if pl.expression.operands == (fn.args[0], fn.args[1])][0]
    assert e.earliest == ((b["entry"], 0),) and e.latest == ((b["entry"], 0),)
    assert e.insert == ((b["entry"], 0),)
    assert [x.name for x in e.replace] == ["t"]
    # Expressions of loop-carried values stay where they are.
    inc = [pl for pl in lcm.placements() if pl.expression.opcode == "add" and pl.expression.operands[1] is not fn.args[1]]
    assert all(not pl.insert and len(pl.keep) == 1 for pl in inc)


def test_lcm_diamond_full_redundancy() -> None:
    # [DRAGON] Fig. 9.30(a): computed on both branches and after the join: the join's copy
    # goes, the branches keep theirs (through the temporary).
    fn = _fn(
        """
define i32 @f(i32 %b, i32 %c, i1 %k) {
entry:
  br i1 %k, label %l, label %r
l:
  %x = add i32 %b, %c
  br label %j
r:
  %y = add i32 %b, %c
  br label %j
j:
  %z = add i32 %b, %c
  ret i32 %z
}
"""
    )
    lcm = LazyCodeMotion(fn)
    b = _blocks(fn)
    pl = lcm.placements()[0]
    assert pl.earliest == ((b["entry"], 0),)
    assert pl.latest == ((b["l"], 0), (b["r"], 0))
    assert pl.insert == pl.latest
    assert [x.name for x in pl.replace] == ["x", "y", "z"]
    for path in _paths(fn):
        assert _counts(lcm, 0, path) == (2, 1)


def test_lcm_single_use_is_kept_in_place() -> None:
    fn = _fn("define i32 @f(i32 %a) {\nentry:\n  %x = add i32 %a, 1\n  ret i32 %x\n}\n")
    pl = LazyCodeMotion(fn).placements()[0]
    assert pl.insert == () and pl.replace == () and [x.name for x in pl.keep] == ["x"]


# --- framework ----------------------------------------------------------------------------------


def test_framework_unreachable_and_infinite_loop_blocks() -> None:
    fn = _fn(
        """
define void @f(i32 %a) {
entry:
  %x = add i32 %a, 1
  ret void
dead:
  %y = add i32 %a, 1
  br label %dead2
dead2:
  %z = add i32 %a, 1
  br label %spin
spin:
  br label %spin
}
"""
    )
    b = _blocks(fn)
    av = AvailableExpressions(fn)
    # Not reachable from the entry: nothing is available at its top (treated as an entry).
    assert av.available_in(b["dead"]) == [] and av.available_in(b["dead2"]) == []
    assert len(av.available_out(b["dead2"])) == 1
    ant = AnticipatedExpressions(fn)
    # An infinite loop never reaches an exit: nothing is anticipated there.
    assert ant.anticipated_in(b["spin"]) == [] and ant.anticipated_out(b["spin"]) == []
    assert len(ant.anticipated_in(b["dead"])) == 1


def test_framework_custom_problem_and_domain() -> None:
    fn = _fn(APPEL_P1)
    blocks = list(fn.blocks)
    dom: Domain[str] = Domain(bb.name for bb in blocks)
    assert len(dom) == 6 and dom.set_of(dom.bits_of(["n2", "n5"])) == ["n2", "n5"]

    # "Blocks on some path from the entry to here": forward union, each block generates itself.
    def transfers(bb: BasicBlock) -> list[tuple[int, int]]:
        n = len(bb.instructions)
        return [(dom.bit(bb.name) if i == 0 else 0, 0) for i in range(n)]

    res = solve(fn, DataflowProblem("seen", Direction.FORWARD, Meet.UNION, len(dom), transfers), dom)
    b = _blocks(fn)
    assert set(res.elements(res.block_in[b["n2"]])) == {"n1", "n2", "n3", "n4", "n5"}
    assert set(res.elements(res.block_out[b["n6"]])) == set(dom.elements)
    assert res.sweeps >= 2 and res.visits >= len(blocks)
    pts = res.points(b["n3"])
    assert len(pts) == len(b["n3"].instructions) + 1 and pts[-1] == res.block_out[b["n3"]]


def test_framework_deep_cfg_no_recursion() -> None:
    n = 3000
    body = ["define i32 @f(i32 %a) {", "b0:", "  br label %b1"]
    for i in range(1, n):
        body += ["b%d:" % i, "  %%v%d = add i32 %%a, %d" % (i, i), "  br label %%b%d" % (i + 1)]
    body += ["b%d:" % n, "  ret i32 %a", "}"]
    fn = _fn("\n".join(body) + "\n")
    live = Liveness(fn)
    assert live.live_in(fn.entry_block) == [fn.args[0]]
    assert live.result.sweeps <= 2


# --- printers and pass-manager glue ------------------------------------------------------------------


def test_format_dataflow_layout() -> None:
    fn = _fn("define i32 @f(i32 %a, i32 %b) {\nentry:\n  %x = add i32 %a, %b\n  ret i32 %x\n}\n")
    assert format_dataflow(Liveness(fn)) == (
        "Data-flow 'liveness' (backward, union) for function 'f':\n"
        "entry:\n"
        "  ; IN: {%a, %b}\n"
        "  %x = add i32 %a, %b\n"
        "  ; {%x}\n"
        "  ret i32 %x\n"
        "  ; OUT: {}\n"
    )


def test_reaching_defs_printer_numbers_stores() -> None:
    text = format_dataflow(ReachingDefinitions(_fn(DRAGON_RD), include_ssa=False))
    assert "store i32 %m1, ptr %i, align 4  ; d1: [%i]" in text
    assert "store i32 %u3, ptr %i, align 4  ; d7: [%i]" in text
    assert "B4:\n  ; IN: {d3, d4, d5, d6}\n" in text


def test_format_lcm_lists_placements() -> None:
    text = format_lcm(LazyCodeMotion(_fn(CS6120_PRE, "main")))
    assert "  e0 = add [%a], [%a]\n" in text
    assert "  earliest: %entry:4\n  latest: %here:2, %newbranch:0\n  insert: %here:2, %newbranch:0\n" in text
    assert "  replace: %2 in %here, %5 in %end\n  keep:\n" in text


@pytest.mark.parametrize(
    "name, head",
    [
        ("liveness", "Data-flow 'liveness' (backward, union)"),
        ("reaching-defs", "Data-flow 'reaching-defs' (forward, union)"),
        ("available-exprs", "Data-flow 'available-exprs' (forward, intersection)"),
        ("anticipated-exprs", "Data-flow 'anticipated-exprs' (backward, intersection)"),
        ("lcm", "Lazy code motion"),
    ],
)
def test_printer_passes_through_cli(name: str, head: str, tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from llvmpy_mid.passes.registry import REGISTRY

    entry = REGISTRY.lookup("print<%s>" % name, "function") if hasattr(REGISTRY, "lookup") else None
    assert entry is not None
    assert REGISTRY.lookup_analysis(name, "function") is not None
    stream = io.StringIO()
    printer = entry.load()(stream)
    from llvmpy_mid.passes.analysis import AnalysisManager

    fn = _fn(APPEL_P1)
    am: AnalysisManager[llvmpy_mid.ir.function.Function] = AnalysisManager()
    printer.run(fn, am)
    assert stream.getvalue().startswith(head)
    assert "for function 'f':" in stream.getvalue()


def test_cli_print_liveness(tmp_path: "pytest.TempPathFactory") -> None:
    import subprocess
    import sys
    from pathlib import Path

    path = Path(str(tmp_path)) / "p1.ll"
    path.write_text(APPEL_P1)
    proc = subprocess.run(
        [sys.executable, "-m", "llvmpy_mid", "-passes=print<liveness>,print<lcm>", "-disable-output", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Data-flow 'liveness' (backward, union) for function 'f':" in proc.stderr
    assert "n6:\n  ; IN: {[%c]}\n" in proc.stderr
    assert "Lazy code motion for function 'f':" in proc.stderr


def test_expression_keys_see_through_loads_only_when_unchanged() -> None:
    fn = _fn(
        """
define i32 @f() {
entry:
  %x = alloca i32
  %1 = load i32, ptr %x
  store i32 5, ptr %x
  %2 = load i32, ptr %x
  %3 = add i32 %1, %2
  ret i32 %3
}
"""
    )
    table = ExpressionTable(fn)
    (e,) = table.domain.elements
    insts = list(fn.entry_block.instructions)
    # %1 was loaded before the store: it stands for itself; %2 for the variable.
    assert e.operands == (insts[1], MemoryVariable(insts[0]))
    assert list(itertools.islice(table.domain.elements, 1)) == [e]
