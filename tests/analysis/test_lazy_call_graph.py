"""LazyCallGraph against opt-19: the ``print-lcg`` text byte for byte, and the order and
spelling of the SCCs that ``cgscc(no-op-cgscc)`` visits (the ``NoOpCGSCCPass`` lines of
``-debug-pass-manager``), on hand-made modules, csmith files and random call graphs."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from csmith_files import csmith_paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llvmpy_mid.analysis.lazy_call_graph import LazyCallGraph, LazyCallGraphPrinterPass, format_lcg
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.preserved import AllAnalysesOnModule
from llvmpy_mid.passes.registry import REGISTRY

OPT = shutil.which("opt-19")
pytestmark = pytest.mark.skipif(OPT is None, reason="opt-19 is not installed")

CSMITH = [str(p) for p in csmith_paths()]


def _opt(path: Path, *args: str) -> str:
    assert OPT is not None
    proc = subprocess.run([OPT, "-disable-output", *args, str(path)], capture_output=True, text=True, check=True)
    return proc.stdout + proc.stderr


def _opt_scc_lines(path: Path) -> list[str]:
    log = _opt(path, "-debug-pass-manager", "-passes=cgscc(no-op-cgscc)")
    return [line for line in log.splitlines() if line.startswith("Running pass: NoOpCGSCCPass on ")]


def _our_scc_lines(graph: LazyCallGraph) -> list[str]:
    return [
        "Running pass: NoOpCGSCCPass on %s (%d node%s)" % (scc, len(scc), "" if len(scc) == 1 else "s")
        for scc in graph.sccs_in_postorder()
    ]


def _check_text(text: str, path: Path) -> None:
    path.write_text(text)
    module = parse_assembly(text, name=str(path))
    graph = LazyCallGraph(module)
    assert format_lcg(graph, module) == _opt(path, "-passes=print-lcg")
    assert _our_scc_lines(graph) == _opt_scc_lines(path)


HAND_MADE: dict[str, str] = {
    "mutual_and_self": """
define void @main() {
  call void @a()
  ret void
}
define internal void @a() {
  call void @b()
  call void @self()
  ret void
}
define internal void @b() {
  call void @a()
  ret void
}
define internal void @self() {
  call void @self()
  ret void
}
""",
    "globals_aliases_constexprs": """
@g = global ptr @f3
@h = internal global { ptr, ptr } { ptr @f4, ptr @g }
@arr = internal constant [2 x ptr] [ptr @f8, ptr getelementptr (i8, ptr @f9, i64 4)]
@al = alias void (), ptr @f5
@al2 = internal alias void (), ptr @f7
@al3 = alias i8, getelementptr (i8, ptr @f10, i64 1)
declare void @ext()
define void @main() {
  call void @a()
  store ptr @h, ptr null
  store i64 ptrtoint (ptr @f6 to i64), ptr null
  call void @ext()
  ret void
}
define internal void @a() {
  %p = load ptr, ptr @arr
  call void %p()
  ret void
}
define internal void @f3() { ret void }
define internal void @f4() { call void @main()
  ret void }
define internal void @f5() { ret void }
define internal void @f6() { ret void }
define internal void @f7() { ret void }
define internal void @f8() { call void @f9()
  ret void }
define internal void @f9() { call void @f8()
  ret void }
define internal void @f10() { ret void }
define internal void @dead() { call void @main()
  ret void }
define linkonce_odr void @lo() { ret void }
define available_externally void @ae() { ret void }
define weak void @wk() { call void @f3()
  ret void }
""",
    "blockaddress_casts_indirect_invoke_callbr": """
@i = ifunc void (), ptr @resolver
define internal ptr @resolver() { ret ptr @f8 }
define internal void @f8() { ret void }
define internal void @pers() { ret void }
define internal void @mism(i32 %x) { ret void }
define internal void @target() { ret void }
define internal void @ba() {
  br label %e
e:
  store ptr blockaddress(@ba, %e), ptr null
  ret void
}
define void @main(ptr %fp) personality ptr @pers {
  call void @i()
  call void @mism()
  call void %fp()
  call void @ba2()
  store ptr dso_local_equivalent @target, ptr null
  invoke void @inv() to label %ok unwind label %bad
ok:
  callbr void asm "", "r,!i"(ptr @cb) to label %x [label %y]
x:
  ret void
y:
  ret void
bad:
  %l = landingpad { ptr, i32 } cleanup
  ret void
}
define internal void @inv() { call void @main(ptr null)
  ret void }
define internal void @cb() { ret void }
define internal void @ba2() {
  br label %e
e:
  store ptr blockaddress(@ba, %e), ptr null
  ret void
}
""",
    "declarations_intrinsics_libfuncs": """
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare i32 @printf(ptr, ...)
define internal ptr @malloc(i64 %n) { ret ptr null }
define i32 @puts(ptr %s) { ret i32 0 }
define i64 @strlen(i32 %s) { ret i64 0 }
define double @sqrt(double %x) { ret double %x }
define void @main(ptr %a, ptr %b) {
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 4, i1 false)
  %r = call i32 (ptr, ...) @printf(ptr @puts)
  %m = call ptr @malloc(i64 4)
  ret void
}
""",
    "ref_before_call": """
define void @main() {
  store ptr @b, ptr null
  store ptr @a, ptr null
  call void @a()
  call void @c()
  ret void
}
define internal void @a() { store ptr @main, ptr null
  ret void }
define internal void @b() { call void @c()
  ret void }
define internal void @c() { store ptr @b, ptr null
  ret void }
""",
    "large_scc_elision": "define void @f0() {\n  call void @f1()\n  ret void\n}\n"
    + "".join(
        "define internal void @f%d() {\n  call void @f%d()\n  store ptr @g%d, ptr null\n  ret void\n}\n"
        % (i, (i + 1) % 12, i)
        for i in range(1, 12)
    )
    + "".join("define internal void @g%d() {\n  call void @f0()\n  ret void\n}\n" % i for i in range(1, 12)),
}


@pytest.mark.parametrize("name", sorted(HAND_MADE))
def test_hand_made(name: str, tmp_path: Path) -> None:
    _check_text(HAND_MADE[name], tmp_path / ("%s.ll" % name))


def test_queries_and_strings(tmp_path: Path) -> None:
    module = parse_assembly(HAND_MADE["mutual_and_self"])
    graph = LazyCallGraph(module)
    a, b, main, dead = (module.get_function(n) for n in ("a", "b", "main", "self"))
    assert a is not None and b is not None and main is not None and dead is not None
    scc = graph.scc_of(a)
    assert scc is not None and scc is graph.scc_of(b) and len(scc) == 2
    assert str(scc) == "(a, b)"
    ref = graph.ref_scc_of(main)
    assert ref is not None and str(ref) == "[(main)]"
    node = graph.node(a)
    assert node is not None and [n.function.name for n in node.call_edges] == ["b", "self"]
    assert [str(s) for s in graph.sccs_in_postorder()] == ["(self)", "(a, b)", "(main)"]


def test_registered_and_printer_pass(tmp_path: Path) -> None:
    assert REGISTRY.lookup("print-lcg", "module") is not None
    assert REGISTRY.lookup_analysis("lcg", "module") is not None
    path = tmp_path / "m.ll"
    text = HAND_MADE["globals_aliases_constexprs"]
    path.write_text(text)
    module = parse_assembly(text, name=str(path))
    out = io.StringIO()
    LazyCallGraphPrinterPass(out).run(module, AnalysisManager(AllAnalysesOnModule))
    assert out.getvalue() == _opt(path, "-passes=print-lcg")


def _csmith_case(path: str, tmp_path: Path) -> None:
    _check_text(Path(path).read_text(), tmp_path / Path(path).name)


@pytest.mark.skipif(not CSMITH, reason="no csmith corpus")
@pytest.mark.parametrize("path", CSMITH[:: max(1, len(CSMITH) // 4)][:4])
def test_csmith_sample(path: str, tmp_path: Path) -> None:
    _csmith_case(path, tmp_path)


@pytest.mark.slow
@pytest.mark.skipif(not CSMITH, reason="no csmith corpus")
@pytest.mark.parametrize("path", CSMITH)
def test_csmith_all(path: str, tmp_path: Path) -> None:
    _csmith_case(path, tmp_path)


# --- random call graphs ------------------------------------------------------------------------
_EDGE_KINDS = ("call", "store", "global", "alias", "cast", "lib")


@st.composite
def _random_module(draw: st.DrawFn) -> str:
    n = draw(st.integers(1, 9))
    local = [draw(st.booleans()) for _ in range(n)]
    defined = [draw(st.integers(0, 5)) > 0 for _ in range(n)]
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from(_EDGE_KINDS)), max_size=3 * n))
    lines = ["define internal ptr @malloc(i64 %n) { ret ptr null }"] if draw(st.booleans()) else []
    body: list[list[str]] = [[] for _ in range(n)]
    for k, (src, dst, kind) in enumerate(edges):
        if kind == "call":
            body[src].append("  call void @f%d()" % dst)
        elif kind == "store":
            body[src].append("  store ptr @f%d, ptr null" % dst)
        elif kind == "global":
            lines.append("@g%d = %sglobal ptr @f%d" % (k, "internal " if k % 2 else "", dst))
            body[src].append("  store ptr @g%d, ptr null" % k)
        elif kind == "alias" and defined[dst]:
            lines.append("@a%d = %salias void (), ptr @f%d" % (k, "internal " if k % 3 == 0 else "", dst))
            body[src].append("  call void @a%d()" % k)
        elif kind == "cast":
            body[src].append("  call void @f%d(i32 1)" % dst)
        elif kind == "lib":
            body[src].append("  %%m%d = call ptr @malloc(i64 1)" % k if any("@malloc" in x for x in lines) else "  call void @f%d()" % dst)
    for i in range(n):
        if defined[i]:
            lines.append("define %svoid @f%d() {" % ("internal " if local[i] else "", i))
            lines.extend(body[i])
            lines.append("  ret void\n}")
        else:
            lines.append("declare void @f%d()" % i)
    return "\n".join(lines) + "\n"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_random_module())
def test_random_call_graphs(tmp_path: Path, text: str) -> None:
    _check_text(text, tmp_path / "random.ll")
