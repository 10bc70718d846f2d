"""Old scalar ``!tbaa`` tags are upgraded on read into struct-path access tags, as LLVM 19's reader
does, so they print as opt-19 prints them and the verifier's TBAA rules accept them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import llvmpy_mid

SOURCE = """define i32 @f(ptr %p, ptr %q, ptr %r) {
  %a = load i32, ptr %p, !tbaa !1
  %b = load i32, ptr %q, !tbaa !3
  %c = load i32, ptr %r, !tbaa !5
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  ret i32 %t
}
!0 = !{!"root"}
!1 = !{!"int", !0}
!3 = !{!"const int", !0, i64 1}
!4 = !{!"long", !0}
!5 = !{!4, !4, i64 0}
"""

# What `opt-19 -S` prints for SOURCE (metadata part), recorded from opt-19 19.1.
EXPECTED_METADATA = """!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2}
!2 = !{!"root"}
!3 = !{!4, !4, i64 0, i64 1}
!4 = !{!"const int", !2}
!5 = !{!6, !6, i64 0}
!6 = !{!"long", !2}
"""


def test_old_scalar_tags_are_upgraded_and_verify() -> None:
    m = llvmpy_mid.parse_assembly(SOURCE)  # verifies: old tags no longer fail the TBAA rules
    text = llvmpy_mid.print_module(m)
    assert text.endswith("\n" + EXPECTED_METADATA)


@pytest.mark.skipif(shutil.which("opt-19") is None, reason="opt-19 not installed")
def test_matches_opt19(tmp_path: Path) -> None:
    src = tmp_path / "t.ll"
    src.write_text(SOURCE)
    theirs = subprocess.run(["opt-19", "-S", str(src)], capture_output=True, text=True, check=True).stdout
    ours = llvmpy_mid.print_module(llvmpy_mid.parse_file(src))
    assert ours == theirs


SHAPES = ['!{}', '!{!"x"}', '!{!2}', '!{i32 1}', '!{!"x", !2, i64 1, i64 2}', '!{!2, !2}', '!{!2, !2, i64 0}']


@pytest.mark.skipif(shutil.which("opt-19") is None, reason="opt-19 not installed")
@pytest.mark.parametrize("tag", SHAPES)
def test_tag_shapes_match_opt19(tmp_path: Path, tag: str) -> None:
    # Which shapes LLVM upgrades: every non-empty tag that is not already a struct-path tag.
    src = tmp_path / "t.ll"
    src.write_text(
        "define i32 @f(ptr %%p) {\n  %%a = load i32, ptr %%p, !tbaa !1\n  ret i32 %%a\n}\n!1 = %s\n!2 = !{!\"root\"}\n" % tag
    )
    theirs = subprocess.run(["opt-19", "-S", "-disable-verify", str(src)], capture_output=True, text=True, check=True).stdout
    ours = llvmpy_mid.print_module(llvmpy_mid.parse_file(src, verify=False))
    assert ours == theirs
