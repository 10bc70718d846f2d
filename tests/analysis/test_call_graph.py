"""CallGraph against opt-19: ``print-callgraph`` (node and call-site addresses normalised) and
``print-callgraph-sccs`` byte for byte, on hand-made modules, LLVM's CallGraph tests and csmith
files; the SCCs against brute-force mutual reachability on random call graphs."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from csmith_files import csmith_paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llvmpy_mid.analysis.call_graph import (
    CallGraph,
    CallGraphNode,
    CallGraphPrinterPass,
    format_call_graph,
    format_call_graph_sccs,
    scc_postorder,
)
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.preserved import AllAnalysesOnModule
from llvmpy_mid.passes.registry import REGISTRY
from oracles import LLVM_TEST_ROOT  # noqa: E402

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 is not installed")
CSMITH = [str(p) for p in csmith_paths()]
CONFORMANCE = LLVM_TEST_ROOT / "Analysis/CallGraph"
_ADDR = re.compile(r"0x[0-9a-f]+")


def _opt(path: Path, passes: str) -> str:
    assert OPT is not None
    proc = subprocess.run([OPT, "-disable-output", "-passes=" + passes, str(path)], capture_output=True, text=True, check=True)
    return "".join(line for line in proc.stderr.splitlines(keepends=True) if not line.startswith("warning:"))


def _check(text: str, path: Path) -> None:
    path.write_text(text)
    graph = CallGraph(parse_assembly(text, name=str(path)))
    ours = format_call_graph(graph)
    assert _ADDR.sub("ADDR", ours) == _ADDR.sub("ADDR", _opt(path, "print-callgraph"))
    assert format_call_graph_sccs(graph) == _opt(path, "print-callgraph-sccs")


HAND_MADE: dict[str, str] = {
    "kinds_of_calls": """
declare void @ext(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.dbg.value(metadata, metadata, metadata)
declare i32 @puts(ptr) nocallback
define internal void @f(ptr %p) {
  call void @g()
  call void @g()
  call void %p()
  call void @ext(ptr @h)
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %p, i64 4, i1 false)
  call i32 @puts(ptr %p)
  ret void
}
define void @g() {
  call void @f(ptr null)
  call void @g()
  ret void
}
define internal void @h() {
  ret void
}
define internal void @dead() {
  call i32 @g(i32 1)
  ret void
}
""",
    "callbacks_aliases_invoke": """
declare !callback !0 void @broker(ptr, ptr, ...)
declare void @llvm.assume(i1)
declare ptr @llvm.ssa.copy.p0(ptr)
@al = alias void (), ptr @cb2
define internal void @cb(ptr %x) {
  ret void
}
define internal void @cb2() {
  ret void
}
define internal void @self() {
  call void @self()
  ret void
}
define internal void @ba() {
  br label %l
l:
  ret void
}
define void @main() personality ptr @pers {
  call void (ptr, ptr, ...) @broker(ptr @cb, ptr null)
  call void asm "nop", ""()
  call ptr @llvm.ssa.copy.p0(ptr @self)
  invoke void @self() to label %ok unwind label %bad
ok:
  store ptr blockaddress(@ba, %l), ptr null
  ret void
bad:
  %lp = landingpad {ptr, i32} cleanup
  ret void
}
define internal i32 @pers(...) { ret i32 0 }
define void @0() {
  call void @1()
  ret void
}
define void @1() { ret void }
!0 = !{!1}
!1 = !{i64 0, i64 1, i1 false}
""",
    "casts_of_functions": """
declare void @llvm.lifetime.start.p0(i64, ptr)
define internal void @unused_cast() {
  %c = bitcast ptr @unused_cast to ptr
  ret void
}
define internal void @cast_to_lifetime() addrspace(1) {
  %c = addrspacecast ptr addrspace(1) @cast_to_lifetime to ptr
  call void @llvm.lifetime.start.p0(i64 4, ptr %c)
  ret void
}
define internal void @cast_stored(ptr %p) {
  %c = bitcast ptr @cast_stored to ptr
  store ptr %c, ptr %p
  ret void
}
define internal void @const_cast_to_lifetime() {
  call void @llvm.lifetime.start.p0(i64 4, ptr bitcast (ptr @const_cast_to_lifetime to ptr))
  ret void
}
""",
    "internal_cycles": """
define internal void @a() {
  call void @b()
  ret void
}
define internal void @b() {
  call void @c()
  call void @a()
  ret void
}
define internal void @c() {
  call void @c()
  ret void
}
define void @root() {
  call void @b()
  ret void
}
""",
}


@needs_opt
@pytest.mark.parametrize("name", sorted(HAND_MADE))
def test_hand_made(name: str, tmp_path: Path) -> None:
    _check(HAND_MADE[name], tmp_path / (name + ".ll"))


@needs_opt
@pytest.mark.skipif(not CONFORMANCE.is_dir(), reason="no conformance tests")
@pytest.mark.parametrize("name", ["2008-09-09-DirectCall.ll", "ignore-assumelike-calls.ll", "llvm-used.ll", "printer.ll"])
def test_llvm_tests(name: str, tmp_path: Path) -> None:
    _check((CONFORMANCE / name).read_text(), tmp_path / name)


def test_contract_and_registry() -> None:
    module = parse_assembly(HAND_MADE["internal_cycles"])
    graph = CallGraph(module)
    fn = {f.name: f for f in module.functions}
    b = graph.node(fn["b"])
    assert [n.function for n in b.callees()] == [fn["c"], fn["a"]]
    assert b.num_references == 2
    assert graph.external_calling_node.function is None and graph.calls_external_node.function is None
    assert graph.external_calling_node.callees() == [graph.node(fn["root"])]
    assert [n.name for n in graph.nodes()] == ["external node", "a", "b", "c", "root"]
    assert [[n.name for n in s] for s in graph.sccs()] == [["c"], ["a", "b"], ["root"], ["external node"]]
    assert REGISTRY.lookup("print-callgraph", "module") is not None and REGISTRY.lookup_analysis("callgraph", "module") is not None
    out = io.StringIO()
    CallGraphPrinterPass(out).run(module, AnalysisManager(AllAnalysesOnModule))
    assert out.getvalue() == format_call_graph(graph)


def _csmith_case(path: str, tmp_path: Path) -> None:
    _check(Path(path).read_text(), tmp_path / Path(path).name)


@needs_opt
@pytest.mark.skipif(not CSMITH, reason="no csmith corpus")
@pytest.mark.parametrize("path", CSMITH[:: max(1, len(CSMITH) // 3)][:3])
def test_csmith_sample(path: str, tmp_path: Path) -> None:
    _csmith_case(path, tmp_path)


@pytest.mark.slow
@needs_opt
@pytest.mark.skipif(not CSMITH, reason="no csmith corpus")
@pytest.mark.parametrize("path", CSMITH)
def test_csmith_all(path: str, tmp_path: Path) -> None:
    _csmith_case(path, tmp_path)


# --- random call graphs ------------------------------------------------------------------------
@st.composite
def _random_module(draw: st.DrawFn) -> str:
    n = draw(st.integers(1, 10))
    local = [draw(st.booleans()) for _ in range(n)]
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
    body: list[list[str]] = [[] for _ in range(n)]
    for src, dst in edges:
        body[src].append("  call void @f%d()" % dst)
    lines: list[str] = []
    for i in range(n):
        lines.append("define %svoid @f%d() {" % ("internal " if local[i] else "", i))
        lines.extend(body[i])
        lines.append("  ret void\n}")
    return "\n".join(lines) + "\n"


def _reachable(start: CallGraphNode) -> set[CallGraphNode]:
    seen = {start}
    stack = [start]
    while stack:
        for t in stack.pop().callees():
            if t not in seen:
                seen.add(t)
                stack.append(t)
    return seen


@settings(max_examples=40, deadline=None)
@given(_random_module())
def test_sccs_are_mutual_reachability_classes(text: str) -> None:
    graph = CallGraph(parse_assembly(text))
    sccs = graph.sccs()
    reach = {n: _reachable(n) for n in _reachable(graph.external_calling_node)}
    assert {n for s in sccs for n in s} == set(reach)
    index = {n: k for k, s in enumerate(sccs) for n in s}
    for a in reach:
        for b in reach:
            same = b in reach[a] and a in reach[b]
            assert (index[a] == index[b]) == same
            if b in reach[a] and not same:
                assert index[b] < index[a]  # bottom-up: callees' SCCs first


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_random_module())
@needs_opt
def test_random_vs_opt(tmp_path: Path, text: str) -> None:
    _check(text, tmp_path / "random.ll")


def test_scc_postorder_deep_chain() -> None:
    succ = {i: [i + 1] for i in range(20000)}
    succ[20000] = [0]
    sccs = scc_postorder(0, lambda n: succ[n])
    assert len(sccs) == 1 and len(sccs[0]) == 20001
