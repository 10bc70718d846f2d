"""``mldst-motion`` against opt-19: one small diamond per rule of MergedLoadStoreMotion.cpp
(equal values sink without a phi, different values meet in ``<v>.sink``, identical
single-use GEPs sink with the stores, conflicting value types are bitcast, a barrier
(call, load or store of the location after the store, or a throwing call) blocks,
volatile stores stay, triangles are ignored, a tail with a third predecessor is split
only with ``<split-footer-bb>``), the parameter parsing and printing, and the
``-debug-pass-manager`` logs (the CFG analyses are invalidated only when splitting)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from opt19_compare import assert_like_opt, pass_manager_logs

from tests.oracles import require_tools

require_tools("opt-19")

CASES = {
    "same_value": """
define void @f(ptr %p, i1 %c) {
entry:
  br i1 %c, label %t, label %e
t:
  store i32 1, ptr %p, align 4
  br label %j
e:
  store i32 1, ptr %p, align 4
  br label %j
j:
  ret void
}
""",
    "phi_of_values": """
define void @f(ptr %p, i1 %c, i32 %x, i32 %y) {
entry:
  br i1 %c, label %t, label %e
t:
  store i32 %x, ptr %p, align 4
  br label %j
e:
  store i32 %y, ptr %p, align 4
  br label %j
j:
  ret void
}
""",
    "geps_sink_too": """
define void @f(ptr %p, i1 %c, i32 %x, i32 %y) {
entry:
  br i1 %c, label %t, label %e
t:
  %g1 = getelementptr inbounds i32, ptr %p, i64 2
  store i32 %x, ptr %g1, align 4
  br label %j
e:
  %g2 = getelementptr inbounds i32, ptr %p, i64 2
  store i32 %y, ptr %g2, align 4
  br label %j
j:
  ret void
}
""",
    "conflicting_types": """
define void @f(ptr %p, i1 %c, float %x, i32 %y) {
entry:
  br i1 %c, label %t, label %e
t:
  store float %x, ptr %p, align 4
  br label %j
e:
  store i32 %y, ptr %p, align 4
  br label %j
j:
  ret void
}
""",
    "barrier_load": """
define i32 @f(ptr %p, i1 %c) {
entry:
  br i1 %c, label %t, label %e
t:
  store i32 1, ptr %p, align 4
  %v = load i32, ptr %p, align 4
  br label %j
e:
  store i32 2, ptr %p, align 4
  br label %j
j:
  %r = phi i32 [ %v, %t ], [ 0, %e ]
  ret i32 %r
}
""",
    "barrier_call": """
declare void @g()
define void @f(ptr %p, i1 %c) {
entry:
  br i1 %c, label %t, label %e
t:
  store i32 1, ptr %p, align 4
  call void @g()
  br label %j
e:
  store i32 2, ptr %p, align 4
  br label %j
j:
  ret void
}
""",
    "volatile_stays": """
define void @f(ptr %p, i1 %c) {
entry:
  br i1 %c, label %t, label %e
t:
  store volatile i32 1, ptr %p, align 4
  br label %j
e:
  store volatile i32 2, ptr %p, align 4
  br label %j
j:
  ret void
}
""",
    "triangle_ignored": """
define void @f(ptr %p, i1 %c) {
entry:
  br i1 %c, label %t, label %j
t:
  store i32 1, ptr %p, align 4
  br label %j
j:
  ret void
}
""",
    "two_stores_and_debug_locs": """
define void @f(ptr %p, ptr noalias %q, i1 %c) !dbg !4 {
entry:
  br i1 %c, label %t, label %e
t:
  store i32 1, ptr %p, align 4, !dbg !8
  store i32 3, ptr %q, align 4, !dbg !9
  br label %j
e:
  store i32 2, ptr %p, align 4, !dbg !10
  store i32 3, ptr %q, align 4, !dbg !11
  br label %j
j:
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, unit: !0, spFlags: DISPFlagDefinition)
!5 = !DISubroutineType(types: !{})
!8 = !DILocation(line: 2, column: 3, scope: !4)
!9 = !DILocation(line: 3, column: 3, scope: !4)
!10 = !DILocation(line: 5, column: 3, scope: !4)
!11 = !DILocation(line: 3, column: 3, scope: !4)
""",
    "third_predecessor": """
define void @f(ptr %p, i1 %c, i1 %d) {
entry:
  br i1 %d, label %head, label %j
head:
  br i1 %c, label %t, label %e
t:
  store i32 1, ptr %p, align 4
  br label %j
e:
  store i32 2, ptr %p, align 4
  br label %j
j:
  ret void
}
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("pipeline", ["mldst-motion", "mldst-motion<split-footer-bb>"])
def test_mldst_like_opt(name: str, pipeline: str) -> None:
    assert_like_opt(CASES[name], pipeline)


def test_mldst_sinks_something() -> None:
    out = assert_like_opt(CASES["phi_of_values"], "mldst-motion")
    assert "%y.sink = phi i32 [ %x, %t ], [ %y, %e ]" in out


@pytest.mark.parametrize(
    "text", ["mldst-motion", "mldst-motion<split-footer-bb>", "mldst-motion<no-split-footer-bb>", "mldst-motion<foo>",
             "mldst-motion<no-foo>", "mldst-motion<;split-footer-bb>", "mldst-motion<split-footer-bb=1>"]
)  # fmt: skip
def test_mldst_parameters_like_opt(text: str) -> None:
    args = ["-passes=" + text, "-print-pipeline-passes", "-disable-output", "/dev/null"]
    theirs = subprocess.run(["opt-19", *args], capture_output=True, text=True)
    ours = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], capture_output=True, text=True)
    assert ours.returncode == theirs.returncode
    if theirs.returncode == 0:
        assert ours.stdout == theirs.stdout
    else:
        assert theirs.stderr.split(": ", 1)[1] in ours.stderr


@pytest.mark.parametrize("pipeline", ["mldst-motion", "mldst-motion<split-footer-bb>"])
def test_mldst_pass_manager_log(pipeline: str) -> None:
    theirs, ours = pass_manager_logs(CASES["third_predecessor"], "function(" + pipeline + ",require<domtree>)")
    assert ours == theirs
