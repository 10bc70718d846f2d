"""InstCombine on ``llvm.assume``: ``separate_storage`` hints and, with
``-enable-knowledge-retention``, conditions turned into bundles and bundles canonicalised
(LLVM InstCombineCalls.cpp's assume case); each compared with opt-19."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402

DECL = "declare void @llvm.assume(i1)\ndeclare void @use(ptr)\n"

CASES = {
    "nonnull_condition_to_bundle": """
define void @f(ptr %p) {
  %c = icmp ne ptr %p, null
  call void @llvm.assume(i1 %c)
  call void @use(ptr %p)
  ret void
}""",
    "align_condition_to_bundle": """
define void @f(ptr %p) {
  %i = ptrtoint ptr %p to i64
  %o = add i64 %i, 8
  %m = and i64 %o, 15
  %c = icmp eq i64 %m, 0
  call void @llvm.assume(i1 %c)
  call void @use(ptr %p)
  ret void
}""",
    "align_condition_plain_to_bundle": """
define void @f(ptr %p) {
  %i = ptrtoint ptr %p to i64
  %m = and i64 %i, 31
  %c = icmp eq i64 %m, 0
  call void @llvm.assume(i1 %c)
  call void @use(ptr %p)
  ret void
}""",
    "bundle_on_alloca_dropped": """
define void @f() {
  %a = alloca [4 x i32], align 4
  call void @llvm.assume(i1 true) ["align"(ptr %a, i32 4)]
  call void @use(ptr %a)
  ret void
}""",
    "bundle_known_by_argument_dropped": """
define void @f(ptr nonnull align 16 %p) {
  call void @llvm.assume(i1 true) ["nonnull"(ptr %p), "align"(ptr %p, i64 8)]
  call void @use(ptr %p)
  ret void
}""",
    "bundle_through_inbounds_gep": """
define void @f(ptr %p) {
  %g = getelementptr inbounds i8, ptr %p, i64 16
  call void @llvm.assume(i1 true) ["align"(ptr %g, i64 32), "dereferenceable"(ptr %g, i64 8)]
  call void @use(ptr %g)
  ret void
}""",
    "separate_storage_hints_to_objects": """
define void @f(ptr %p, ptr %q) {
  %g = getelementptr i8, ptr %p, i64 4
  %h = getelementptr i8, ptr %q, i64 12
  call void @llvm.assume(i1 true) ["separate_storage"(ptr %g, ptr %h)]
  call void @use(ptr %g)
  ret void
}""",
}


@pytest.mark.parametrize("retention", [False, True], ids=["default", "knowledge-retention"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_assume_knowledge_like_opt19(name: str, retention: bool) -> None:
    assert_same_as_opt(DECL + CASES[name], "instcombine", {"enable-knowledge-retention": retention})
