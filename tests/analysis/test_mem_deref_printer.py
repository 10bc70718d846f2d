"""``print-memderefs`` and the dereferenceability rules behind it (``analysis/loads.py``),
compared with opt-19: attributes, metadata, allocas and globals, GEP offsets, alignment,
``-use-dereferenceable-at-point-semantics`` and facts from ``llvm.assume`` bundles (which the
printer does not see: it passes no context instruction; GVN's load PRE does)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "transform"))

from opt_oracle import assert_same_as_opt  # noqa: E402

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")

MODULE = """
target datalayout = "e-i32:32:64"
@g = global [6 x i8] c"hello\\00"
@weak = extern_weak global i32
declare ptr @make() 
declare void @free(ptr) allockind("free")

define void @f(ptr dereferenceable(8) %d, ptr dereferenceable_or_null(8) %dn, ptr align 16 dereferenceable(32) %a16,
               ptr nonnull dereferenceable_or_null(4) %nn, ptr byval(i64) %bv, ptr %plain, i1 %c) nofree nosync {
entry:
  %al = alloca i64, align 8
  %arr = alloca i32, i32 4, align 4
  %v1 = load i32, ptr %d, align 4
  %v2 = load i64, ptr %d, align 8
  %v3 = load i128, ptr %d, align 16
  %v4 = load i32, ptr %dn, align 4
  %g8 = getelementptr inbounds i8, ptr %a16, i64 8
  %v5 = load i64, ptr %g8, align 16
  %v6 = load i64, ptr %g8, align 8
  %v7 = load i32, ptr %nn, align 4
  %v8 = load i64, ptr %bv, align 8
  %v9 = load i64, ptr %al, align 8
  %v10 = load i32, ptr %arr, align 4
  %v11 = load i8, ptr @g, align 1
  %v12 = load i32, ptr @weak, align 4
  %s = select i1 %c, ptr %d, ptr %al
  %v13 = load i32, ptr %s, align 4
  %m = call dereferenceable(16) ptr @make()
  %v14 = load i64, ptr %m, align 8
  %l = load ptr, ptr %plain, align 8, !dereferenceable !0
  %v15 = load i32, ptr %l, align 4
  %v16 = load i32, ptr %plain, align 4
  ret void
}

define void @may_free(ptr dereferenceable(8) %d) {
  %v = load i32, ptr %d, align 4
  call void @free(ptr %d)
  ret void
}

!0 = !{i64 4}
"""


def _run(tool: list[str], src: Path, extra: list[str]) -> str:
    r = subprocess.run([*tool, "-passes=print-memderefs", "-disable-output", str(src), *extra], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    return r.stderr


@needs_opt
@pytest.mark.parametrize("at_point", ["0", "1"])
def test_print_memderefs_like_opt19(at_point: str, tmp_path: Path) -> None:
    src = tmp_path / "m.ll"
    src.write_text(MODULE)
    extra = ["-use-dereferenceable-at-point-semantics=" + at_point]
    theirs = _run(["opt-19"], src, extra)
    ours = _run([sys.executable, "-m", "llvmpy_mid"], src, extra)
    assert ours == theirs
    assert "(aligned)" in ours and "(unaligned)" in ours
    may_free = ours.split("function 'may_free'")[1]
    assert ("%d" in may_free) == (at_point == "0")  # freed later: no fact at the point


ASSUMED = """
declare void @llvm.assume(i1)

define void @f(ptr %p, i1 %c) {
entry:
  br i1 %c, label %then, label %join
then:
  call void @llvm.assume(i1 true) ["dereferenceable"(ptr %p, i64 8), "align"(ptr %p, i64 8)]
  %a = load i32, ptr %p, align 4
  br label %join
join:
  %b = load i32, ptr %p, align 4
  ret void
}
"""


def test_assumed_dereferenceability_holds_where_the_assume_is_valid() -> None:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.loads import is_dereferenceable_and_aligned_pointer
    from llvmpy_mid.asm import parse_assembly
    from llvmpy_mid.ir.dominators import DominatorTree

    m = parse_assembly(ASSUMED)
    fn = m.get_function("f")
    assert fn is not None
    p = fn.args[0]
    _entry, then, join = fn.blocks
    a = [i for i in then.instructions if i.opcode == "load"][0]
    b = [i for i in join.instructions if i.opcode == "load"][0]
    dl, dt, ac = m.data_layout, DominatorTree(fn), AssumptionCache(fn)
    assert is_dereferenceable_and_aligned_pointer(p, 4, 8, dl, a, ac, dt)
    assert is_dereferenceable_and_aligned_pointer(p, 8, 4, dl, a, None, dt)  # found through the uses
    assert not is_dereferenceable_and_aligned_pointer(p, 16, 4, dl, a, ac, dt)  # align too weak
    assert not is_dereferenceable_and_aligned_pointer(p, 4, 16, dl, a, ac, dt)  # too few bytes
    assert not is_dereferenceable_and_aligned_pointer(p, 4, 4, dl, b, ac, dt)  # not valid at %join
    assert not is_dereferenceable_and_aligned_pointer(p, 4, 4, dl, None, ac, dt)  # no context
