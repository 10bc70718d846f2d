"""InstCombine's getelementptr folds (``gep.py``, LLVM visitGetElementPtrInst / visitGEPOfGEP):
LLVM 19's canonical ``i8`` GEPs, index types, GEP chains, GEP of phi/select, inbounds inference,
each against opt-19."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from oracles import require_llvm_tests  # noqa: E402
from opt_oracle import assert_same_as_opt  # noqa: E402

RULES = {
"const_gep_to_i8": """
%S = type { i32, [4 x i16] }
define ptr @f(ptr %p) {
  %g = getelementptr %S, ptr %p, i64 1, i32 1, i64 2
  ret ptr %g
}""",
"index_sext": """
define ptr @f(ptr %p, i32 %i) {
  %g = getelementptr inbounds i32, ptr %p, i32 %i
  ret ptr %g
}""",
"index_trunc": """
target datalayout = "p:32:32"
define ptr @f(ptr %p, i64 %i) {
  %g = getelementptr i16, ptr %p, i64 %i
  ret ptr %g
}""",
"zero_sized_index": """
define ptr @f(ptr %p, i64 %i) {
  %g = getelementptr {}, ptr %p, i64 %i
  ret ptr %g
}""",
"mul_index_to_i8": """
define ptr @f(ptr %p, i64 %i) {
  %m = mul i64 %i, 3
  %g = getelementptr inbounds i32, ptr %p, i64 %m
  ret ptr %g
}""",
"gep_of_gep_sum": """
define ptr @f(ptr %p, i64 %i) {
  %n = sub i64 0, %i
  %a = getelementptr i32, ptr %p, i64 %i
  %b = getelementptr i32, ptr %a, i64 %n
  ret ptr %b
}""",
"gep_of_gep_consts": """
define ptr @f(ptr %p) {
  %a = getelementptr inbounds [10 x i32], ptr %p, i64 0, i64 2
  %b = getelementptr inbounds i32, ptr %a, i64 3
  ret ptr %b
}""",
"gep_of_const_i8_gep": """
define ptr @f(ptr %p, i64 %i) {
  %a = getelementptr i8, ptr %p, i64 4
  %x = add i64 %i, 1
  %b = getelementptr i32, ptr %a, i64 %x
  ret ptr %b
}""",
"gep_phi_of_geps": """
define ptr @f(i1 %c, ptr %p, i64 %i, i64 %j) {
entry:
  br i1 %c, label %t, label %e
t:
  %a = getelementptr i32, ptr %p, i64 %i
  br label %m
e:
  %b = getelementptr i32, ptr %p, i64 %j
  br label %m
m:
  %q = phi ptr [ %a, %t ], [ %b, %e ]
  %r = getelementptr i32, ptr %q, i64 1
  ret ptr %r
}""",
"select_of_const_ptrs": """
@A = global [4 x i32] zeroinitializer
@B = global [4 x i32] zeroinitializer
define ptr @f(i1 %c) {
  %s = select i1 %c, ptr @A, ptr @B
  %g = getelementptr inbounds i32, ptr %s, i64 1
  ret ptr %g
}""",
"exact_div_index": """
define ptr @f(ptr %p, i64 %v) {
  %d = udiv exact i64 %v, 4
  %g = getelementptr i32, ptr %p, i64 %d
  ret ptr %g
}""",
"exact_shr_index_scaled": """
define ptr @f(ptr %p, i64 %v) {
  %d = lshr exact i64 %v, 4
  %g = getelementptr i32, ptr %p, i64 %d
  ret ptr %g
}""",
"add_index_split": """
define ptr @f(ptr %p, i64 %a, i64 %b) {
  %x = add i64 %a, %b
  %g = getelementptr i32, ptr %p, i64 %x
  ret ptr %g
}""",
"sext_nsw_add_index": """
define ptr @f(ptr %p, i32 %a) {
  %x = add nsw i32 %a, 2
  %s = sext i32 %x to i64
  %g = getelementptr inbounds i32, ptr %p, i64 %s
  ret ptr %g
}""",
"infer_inbounds": """
@G = global [8 x i32] zeroinitializer
define ptr @f() {
  %a = alloca [8 x i32]
  %g = getelementptr [8 x i32], ptr %a, i64 0, i64 3
  store ptr %g, ptr @sink
  ret ptr null
}
@sink = global ptr null""",
"ptrdiff_to_ptr": """
define i1 @f(ptr %x, ptr %y) {
  %xi = ptrtoint ptr %x to i64
  %yi = ptrtoint ptr %y to i64
  %d = sub i64 %yi, %xi
  %g = getelementptr i8, ptr %x, i64 %d
  %c = icmp eq ptr %g, %y
  ret i1 %c
}""",
"scalable_gep": """
define ptr @f(ptr %p, i64 %i) {
  %g = getelementptr <vscale x 4 x i32>, ptr %p, i64 %i
  ret ptr %g
}""",
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_matches_opt19(name: str) -> None:
    assert_same_as_opt(RULES[name], "instcombine")


# LLVM 19.1.7 test files of this family whose whole output equals opt-19's.
LLVM_FILES = [
    "getelementptr-folding.ll",
    "gepgep.ll",
    "gep-merge-constant-indices.ll",
    "canonicalize-gep-mul.ll",
    "gepofconstgepi8.ll",
    "vscale_gep.ll",
    "select-gep.ll",
    "2010-11-21-SizeZeroTypeGEP.ll",
    "2011-05-13-InBoundsGEP.ll",
    "phi-merge-gep.ll",
    "gep-can-replace-gep-idx-with-zero-typesize.ll",
    "gep-alias.ll",
    "gep-vector.ll",
    "gep-canonicalize-constant-indices.ll",
    "gep-addrspace.ll",
    "inbounds-gep.ll",
    "gepphigep.ll",
    "gep-combine-loop-invariant.ll",
]


@pytest.mark.parametrize("name", LLVM_FILES)
def test_llvm_file_matches_opt19(name: str) -> None:
    root = require_llvm_tests()
    assert_same_as_opt((root / "Transforms" / "InstCombine" / name).read_text(), "instcombine")
