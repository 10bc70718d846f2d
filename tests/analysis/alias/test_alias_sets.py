"""Alias sets and ``print-alias-sets`` against opt-19, and the tracker's invariants.

The oracle runs use AA pipelines that do not need BasicAA (none, ``tbaa``), so every
difference is the tracker's own: merging, must/may sets, access kinds, unknown
instructions, argmem-only calls, memory intrinsics, reference counts, forwarding and
saturation. Set addresses are compared by identity (first-appearance order)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from llvmpy_mid.analysis.alias.aa_results import AAResults, BatchAAResults
from llvmpy_mid.analysis.alias.alias_result import AliasKind
from llvmpy_mid.analysis.alias.type_based_aa import TypeBasedAAResult
from llvmpy_mid.analysis.alias_set_tracker import AliasSetTracker
from llvmpy_mid.asm import parse_assembly
from tests.analysis.alias._aa_oracle import normalize_addresses, opt19_stderr, ours_stderr
from tests.oracles import llvm_test_path, require_llvm_tests

DECLS = """
declare void @unk(ptr)
declare void @ro(ptr) readonly
declare void @am(ptr, ptr) argmemonly
declare void @amw(ptr writeonly, ptr readonly) argmemonly
declare void @nomem(ptr) readnone
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.assume(i1)
declare ptr @llvm.invariant.start.p0(i64, ptr)
"""

TBAA_MD = """
!0 = !{!"root"}
!1 = !{!"char", !0, i64 0}
!2 = !{!"int", !1, i64 0}
!3 = !{!"long", !1, i64 0}
!4 = !{!"S", !2, i64 0, !3, i64 8}
!5 = !{!"float", !1, i64 0}
!10 = !{!2, !2, i64 0}
!11 = !{!3, !3, i64 0}
!12 = !{!4, !2, i64 0}
!13 = !{!4, !3, i64 8}
!14 = !{!5, !5, i64 0, i64 1}
"""


def _random_module(seed: int) -> str:
    rng = random.Random(seed)
    funcs = []
    for f in range(5):
        nargs = rng.randint(2, 5)
        args = ", ".join("ptr %%p%d" % i for i in range(nargs))
        body = []
        for k in range(rng.randint(3, 14)):
            p = "%%p%d" % rng.randrange(nargs)
            q = "%%p%d" % rng.randrange(nargs)
            tag = rng.choice(["", ", !tbaa !10", ", !tbaa !11", ", !tbaa !12", ", !tbaa !13", ", !tbaa !14"])
            ty = rng.choice(["i32", "i64", "i8"])
            c = rng.randrange(14)
            if c < 4:
                body.append("  %%v%d = load %s, ptr %s%s" % (k, ty, p, tag))
            elif c < 8:
                body.append("  store %s 0, ptr %s%s" % (ty, p, tag))
            elif c == 8:
                body.append("  call void @%s(ptr %s)%s" % (rng.choice(["unk", "ro", "nomem"]), p, tag))
            elif c == 9:
                body.append("  call void @%s(ptr %s, ptr %s)" % (rng.choice(["am", "amw"]), p, q))
            elif c == 10:
                fn = rng.choice(["memcpy", "memmove"])
                body.append("  call void @llvm.%s.p0.p0.i64(ptr %s, ptr %s, i64 %d, i1 false)%s" % (fn, p, q, rng.choice([1, 4, 8]), tag))
            elif c == 11:
                body.append("  call void @llvm.memset.p0.i64(ptr %s, i8 0, i64 %d, i1 false)%s" % (p, rng.choice([1, 4, 16]), tag))
            elif c == 12:
                body.append("  %%v%d = load atomic i32, ptr %s %s, align 4" % (k, p, rng.choice(["monotonic", "acquire", "seq_cst"])))
            else:
                body.append("  %%v%d = call ptr @llvm.invariant.start.p0(i64 4, ptr %s)" % (k, p))
        funcs.append("define void @f%d(%s) {\n%s\n  ret void\n}\n" % (f, args, "\n".join(body)))
    return DECLS + "".join(funcs) + TBAA_MD


def _compare(text: str, tmp_path: Path, options: dict[str, str | bool]) -> None:
    ours = ours_stderr(text, "print-alias-sets", options)
    expected = opt19_stderr(text, tmp_path, "print-alias-sets", options)
    assert normalize_addresses(ours) == normalize_addresses(expected)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("aa", ["", "tbaa"], ids=["no-aa", "tbaa"])
def test_random_functions_as_opt19(seed: int, aa: str, tmp_path: Path) -> None:
    """Random loads, stores (some atomic), calls, memory intrinsics with and without TBAA:
    the same sets, counts, access kinds and forwarding, saturating at small thresholds."""
    threshold = (2, 5, 9, 250)[seed % 4]
    _compare(_random_module(seed), tmp_path, {"aa-pipeline": aa, "alias-set-saturation-threshold": str(threshold)})


@pytest.mark.parametrize("name", ["argmemonly.ll", "guards.ll", "intrinsics.ll", "memloc-vscale.ll", "memset.ll", "memtransfer.ll", "saturation.ll"])
def test_llvm_tests_as_opt19(name: str, tmp_path: Path) -> None:
    """LLVM's AliasSet tests (with the TBAA pipeline only, so the sets are the tracker's)."""
    require_llvm_tests()
    text = llvm_test_path("Analysis/AliasSet/" + name).read_text()
    _compare(text, tmp_path, {"aa-pipeline": "tbaa", "alias-set-saturation-threshold": "3"})
    _compare(text, tmp_path, {"aa-pipeline": "tbaa"})


def test_unknown_instruction_printing(tmp_path: Path) -> None:
    """Unnamed unknown instructions print in full with their attachments, named ones as operands."""
    text = DECLS + """
define void @t(ptr %p, ptr %q) {
  store i32 1, ptr %p, !tbaa !10
  call void @unk(ptr %q), !tbaa !11
  %x = load atomic i32, ptr %q seq_cst, align 4
  call void @llvm.assume(i1 true)
  ret void
}
""" + TBAA_MD
    _compare(text, tmp_path, {"aa-pipeline": "tbaa"})


def _tracker_invariants(tracker: AliasSetTracker, aa: BatchAAResults) -> None:
    live = [s for s in tracker.alias_sets if not s.is_forwarding]
    assert sum(len(s) for s in live) == tracker.total_alias_set_size
    owner = {}
    for s in live:
        for loc in s:
            owner[id(loc)] = s
    for ptr, s in tracker.pointer_map.items():
        final = s
        while final.forward is not None:
            final = final.forward
        assert any(loc.ptr is ptr for loc in final), "a pointer's set holds its locations"
    if tracker.is_saturated:
        assert len(live) == 1
        return
    # locations in different sets never alias
    for a in live:
        for b in live:
            if a is b:
                continue
            for la in a:
                for lb in b:
                    assert aa.alias(la, lb).kind is AliasKind.NO_ALIAS


@pytest.mark.parametrize("seed", range(10))
def test_tracker_invariants(seed: int) -> None:
    """Sizes add up, each tracked pointer's (collapsed) set holds it, and locations of
    different live sets are NoAlias."""
    module = parse_assembly(_random_module(100 + seed))
    for fn in module.functions:
        if fn.is_declaration:
            continue
        aa = AAResults(None)
        aa.add_provider(TypeBasedAAResult())
        batch = BatchAAResults(aa)
        tracker = AliasSetTracker(batch)
        for bb in fn.blocks:
            tracker.add_block(bb)
        _tracker_invariants(tracker, batch)
        # a second tracker fed from the first holds the same locations
        other = AliasSetTracker(batch)
        other.add_tracker(tracker)
        assert sorted(len(s) for s in other.alias_sets if not s.is_forwarding) == sorted(
            len(s) for s in tracker.alias_sets if not s.is_forwarding
        ) or tracker.is_saturated
