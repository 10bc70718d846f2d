"""The CGSCC walk when passes change the call graph (LLVM 19's
``updateCGAndAnalysisManagerForPass``): SCCs split by removed calls, merged by new
calls, dead functions dropped; the order of the pass runs is checked against
opt-19's ``-debug-pass-manager`` log (its ``Running pass``/``Clearing`` lines)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from llvmpy_mid import parse_assembly, run_passes
from llvmpy_mid.analysis.lazy_call_graph import LazyCallGraph
from llvmpy_mid.analysis.lazy_call_graph_update import switch_internal_edge_to_call, switch_internal_edge_to_ref

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")


def _keep(line: str) -> bool:
    return line.startswith("Running pass") or line.startswith("Clearing all")


def _opt_lines(text: str, pipeline: str, tmp_path: Path) -> list[str]:
    assert OPT is not None
    src = tmp_path / "in.ll"
    src.write_text(text)
    r = subprocess.run(
        [OPT, "-disable-output", "-disable-verify", "-debug-pass-manager", "-passes=" + pipeline, str(src)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    return [line for line in r.stderr.splitlines() if _keep(line)]


def _our_lines(text: str, pipeline: str) -> list[str]:
    log = run_passes(parse_assembly(text), pipeline, debug_pass_manager=True).log
    return [line for line in log if _keep(line)]


# A cycle broken by simplifycfg (dead blocks hold the back edges): the SCC splits,
# the caller's SCC is run again, then the split-off callees.
SPLIT = """declare void @ext()
define void @a() {
  call void @b1()
  call void @b2()
  ret void
}
define void @b1() {
  call void @ext()
  br i1 false, label %dead, label %exit
dead:
  call void @a()
  br label %exit
exit:
  ret void
}
define void @b2() {
  br i1 false, label %dead, label %exit
dead:
  call void @a()
  br label %exit
exit:
  ret void
}
"""

# Only ref edges keep the RefSCC together: the SCCs split, the RefSCC stays.
SPLIT_REF = """declare void @use(ptr)
define void @a() {
  call void @b()
  call void @c()
  ret void
}
define void @b() {
  call void @use(ptr @a)
  br i1 false, label %dead, label %exit
dead:
  call void @a()
  br label %exit
exit:
  ret void
}
define void @c() {
  call void @use(ptr @a)
  ret void
}
"""

# gvn turns an indirect call through memory into a direct call back to the caller's
# caller: two SCCs of one RefSCC merge.
MERGE = """define void @a(ptr %p) {
  store ptr @b, ptr %p
  %f = load ptr, ptr %p
  call void %f(ptr %p)
  ret void
}
define void @b(ptr %p) {
  call void @a(ptr %p)
  ret void
}
"""

# The inliner deletes an internal callee of a cycle.
DEAD = """define void @tester() noinline {
  call void @foo()
  ret void
}
define internal void @foo() alwaysinline {
  call void @tester()
  ret void
}
"""


@needs_opt
@pytest.mark.parametrize(
    "text,pipeline",
    [
        (SPLIT, "cgscc(function(simplifycfg))"),
        (SPLIT, "cgscc(no-op-cgscc,function(simplifycfg),no-op-cgscc)"),
        (SPLIT_REF, "cgscc(function(simplifycfg),no-op-cgscc)"),
        (MERGE, "cgscc(function(gvn),no-op-cgscc)"),
        (DEAD, "inline"),
        (DEAD, "cgscc(inline,no-op-cgscc)"),
    ],
    ids=["split", "split-pm", "split-ref", "merge", "dead", "dead-pm"],
)
def test_walk_follows_graph_changes_as_opt(text: str, pipeline: str, tmp_path: Path) -> None:
    assert _our_lines(text, pipeline) == _opt_lines(text, pipeline, tmp_path)


def test_split_puts_the_target_scc_last() -> None:
    """Dropping b -> a from the cycle a -> b -> a: (b) comes first, the old SCC keeps a."""
    m = parse_assembly(
        """define void @a() {
  call void @b()
  ret void
}
define void @b() {
  call void @a()
  ret void
}
"""
    )
    g = LazyCallGraph(m)
    a, b = m.get_function("a"), m.get_function("b")
    assert a is not None and b is not None
    old = g.scc_of(a)
    assert old is not None and g.scc_of(b) is old
    nb, na = g.node(b), g.node(a)
    assert nb is not None and na is not None
    nb._call_succ = []  # the call b -> a is now a ref edge
    new = switch_internal_edge_to_ref(g, old, na)
    assert [s.functions for s in new] == [[b]]
    assert old.functions == [a]
    assert old.ref_scc.sccs == [new[0], old]
    # and back: the call b -> a again merges (b) into a's SCC
    merged = switch_internal_edge_to_call(g, new[0], old)
    nb._call_succ = [na]
    assert merged == [new[0]]
    assert sorted(f.name for f in old.functions) == ["a", "b"]
    assert g.scc_of(b) is old and old.ref_scc.sccs == [old]
