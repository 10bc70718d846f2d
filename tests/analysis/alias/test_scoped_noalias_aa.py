"""ScopedNoAliasAA against opt-19: ``aa-eval`` with ``-aa-pipeline=scoped-noalias-aa``
alone (so no other provider decides), on hand-written scope layouts, on LLVM's own tests
and on random scope lists; plus the rule's own properties."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from llvmpy_mid.analysis.alias.scoped_noalias_aa import may_alias_in_scopes
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.metadata import MDNode
from tests.analysis.alias._aa_oracle import opt19_stderr, ours_stderr
from tests.oracles import llvm_test_path, require_llvm_tests

EVAL: dict[str, str | bool] = {"aa-pipeline": "scoped-noalias-aa", "print-all-alias-modref-info": True, "evaluate-aa-metadata": True}

MODULE = """
declare void @f(ptr)
declare void @g(ptr) memory(argmem: readwrite)
define void @two_domains(ptr %a, ptr %b, ptr %c) {
  %x = load i32, ptr %a, !alias.scope !10
  store i32 %x, ptr %b, !noalias !10
  store i32 %x, ptr %c, !noalias !11
  %y = load i32, ptr %c, !alias.scope !12, !noalias !13
  store i32 %y, ptr %a, !alias.scope !13, !noalias !12
  store i32 %y, ptr %b, !alias.scope !14
  call void @f(ptr %a), !noalias !10
  call void @g(ptr %b), !alias.scope !12
  call void @f(ptr %c), !alias.scope !13, !noalias !12
  ret void
}
define void @partial_domain(ptr %a, ptr %b) {
  %x = load i32, ptr %a, !alias.scope !15
  store i32 %x, ptr %b, !noalias !10
  store i32 %x, ptr %b, !noalias !15
  %y = load i32, ptr %a, !alias.scope !16
  store i32 %y, ptr %b, !noalias !16
  ret void
}
!0 = distinct !{!0, !"domain A"}
!1 = distinct !{!1, !"domain B"}
!2 = distinct !{!2, !0, !"A: scope 1"}
!3 = distinct !{!3, !0, !"A: scope 2"}
!4 = distinct !{!4, !1, !"B: scope 1"}
!5 = distinct !{!5, !6, !"C: scope 1"}
!6 = distinct !{!6, !"domain C"}
!10 = !{!2}
!11 = !{!3}
!12 = !{!2, !4}
!13 = !{!3, !4}
!14 = !{!5}
!15 = !{!2, !3}
!16 = !{!2, !4, !5}
"""


def test_scoped_noalias_as_opt19(tmp_path: Path) -> None:
    """Pointer pairs, instruction pairs and call mod/ref: every answer and line as opt-19's."""
    assert ours_stderr(MODULE, "aa-eval", EVAL) == opt19_stderr(MODULE, tmp_path, "aa-eval", EVAL)


def test_disabled_by_option(tmp_path: Path) -> None:
    """``-enable-scoped-noalias=false`` turns the provider off (everything MayAlias/ModRef)."""
    opts = dict(EVAL, **{"enable-scoped-noalias": "false"})
    ours = ours_stderr(MODULE, "aa-eval", opts)
    assert ours == opt19_stderr(MODULE, tmp_path, "aa-eval", opts)
    assert "NoAlias" not in ours and "NoModRef:" not in ours


@pytest.mark.parametrize("name", ["basic.ll", "basic2.ll", "basic-domains.ll"])
def test_llvm_tests_as_opt19(name: str, tmp_path: Path) -> None:
    """LLVM's ScopedNoAliasAA tests, with this provider alone."""
    require_llvm_tests()
    text = llvm_test_path("Analysis/ScopedNoAliasAA/" + name).read_text()
    assert ours_stderr(text, "aa-eval", EVAL) == opt19_stderr(text, tmp_path, "aa-eval", EVAL)


def _random_module(seed: int) -> str:
    rng = random.Random(seed)
    scopes = ["!%d" % i for i in range(2, 8)]  # three per domain
    lists: list[str] = []
    for _ in range(12):
        picked = rng.sample(scopes, rng.randint(1, 4))
        lists.append("!{%s}" % ", ".join(picked))
    body = []
    for i in range(10):
        md = []
        if rng.random() < 0.7:
            md.append("!alias.scope !%d" % (20 + rng.randrange(12)))
        if rng.random() < 0.7:
            md.append("!noalias !%d" % (20 + rng.randrange(12)))
        tail = (", " + ", ".join(md)) if md else ""
        body.append("  store i32 %d, ptr %%p%d%s" % (i, i % 3, tail))
    text = "define void @r(ptr %p0, ptr %p1, ptr %p2) {\n" + "\n".join(body) + "\n  ret void\n}\n"
    text += '!0 = distinct !{!0, !"D0"}\n!1 = distinct !{!1, !"D1"}\n'
    for i in range(6):
        text += '!%d = distinct !{!%d, !%d, !"s%d"}\n' % (i + 2, i + 2, i // 3, i)
    for i, lst in enumerate(lists):
        text += "!%d = %s\n" % (20 + i, lst)
    return text


@pytest.mark.parametrize("seed", range(6))
def test_random_scope_lists_as_opt19(seed: int, tmp_path: Path) -> None:
    text = _random_module(seed)
    assert ours_stderr(text, "aa-eval", EVAL) == opt19_stderr(text, tmp_path, "aa-eval", EVAL)


def test_more_noalias_scopes_never_alias_more() -> None:
    """Monotonic: a ``!noalias`` list with extra scopes keeps every NoAlias answer, and a
    missing list on either side always means "may alias"."""
    module = parse_assembly(_random_module(99))
    fn = module.get_function("r")
    assert fn is not None
    lists = sorted({id(n): n for i in fn.instructions() for _, n in i.metadata_items()}.values(), key=id)  # type: ignore[attr-defined]
    ctx = module.context
    for scopes in lists:
        assert may_alias_in_scopes(scopes, None) and may_alias_in_scopes(None, scopes)
        for noalias in lists:
            if may_alias_in_scopes(scopes, noalias):
                continue
            for extra in lists:
                wider = MDNode.get(ctx, list(noalias.operands) + list(extra.operands))
                assert not may_alias_in_scopes(scopes, wider)
