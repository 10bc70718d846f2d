"""TypeBasedAA against opt-19 (``aa-eval`` with ``-aa-pipeline=tbaa`` alone: old and new
struct-path formats, constant types, calls with ``!tbaa``, ``-enable-tbaa``), and the
``AAMDNodes`` operations (merge, concat, intersect, shift, extend_to, adjust_for_access)
with LLVM's results worked out by hand."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Iterator

import pytest

from llvmpy_mid.analysis.alias.memory_location import AAMDNodes, set_aa_metadata
from llvmpy_mid.analysis.type_based_alias_analysis import (
    extend_to_tbaa,
    is_tbaa_vtable_access,
    is_type_immutable_tag,
    shift_tbaa_struct,
    tbaa_aliases,
)
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.module import Module
from tests.analysis.alias._aa_oracle import opt19_stderr, ours_stderr
from tests.oracles import llvm_test_path, require_llvm_tests

EVAL: dict[str, str | bool] = {"aa-pipeline": "tbaa", "print-all-alias-modref-info": True, "evaluate-aa-metadata": True}

# Old-format struct path: struct S { int a; long b; struct { int x; float y; } in; }; a
# constant "int" tag; calls carrying tags.
OLD_FORMAT = """
declare void @f(ptr)
define void @old(ptr %p, ptr %q, ptr %r) {
  %a = load i32, ptr %p, !tbaa !10
  store i64 0, ptr %q, !tbaa !11
  store i32 1, ptr %r, !tbaa !12
  %x = load i32, ptr %q, !tbaa !13
  %y = load float, ptr %r, !tbaa !14
  store i32 2, ptr %p, !tbaa !15
  %c = load i32, ptr %q, !tbaa !16
  %d = load i64, ptr %r, !tbaa !17
  call void @f(ptr %p), !tbaa !10
  call void @f(ptr %q), !tbaa !16
  call void @f(ptr %r), !tbaa !17
  ret void
}
!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!2 = !{!"int", !1, i64 0}
!3 = !{!"long", !1, i64 0}
!4 = !{!"float", !1, i64 0}
!5 = !{!"inner", !2, i64 0, !4, i64 4}
!6 = !{!"S", !2, i64 0, !3, i64 8, !5, i64 16}
!7 = !{!"other root"}
!8 = !{!"other int", !7, i64 0}
!10 = !{!6, !2, i64 0}
!11 = !{!6, !3, i64 8}
!12 = !{!6, !2, i64 16}
!13 = !{!5, !2, i64 0}
!14 = !{!6, !4, i64 20}
!15 = !{!2, !2, i64 0}
!16 = !{!2, !2, i64 0, i64 1}
!17 = !{!8, !8, i64 0}
"""

# New (size-aware) format, with aggregate access types and a constant type.
NEW_FORMAT = """
declare void @f(ptr)
define void @new(ptr %p, ptr %q, ptr %r) {
  %a = load i32, ptr %p, !tbaa !10
  store i64 0, ptr %q, !tbaa !11
  store i32 1, ptr %r, !tbaa !12
  %x = load i32, ptr %q, !tbaa !13
  %s = load { i32, i64 }, ptr %p, !tbaa !14
  store i32 2, ptr %p, !tbaa !15
  %c = load i32, ptr %q, !tbaa !16
  call void @f(ptr %p), !tbaa !16
  call void @f(ptr %q), !tbaa !11
  ret void
}
!0 = !{!"root"}
!1 = !{!0, i64 1, !"omnipotent char"}
!2 = !{!1, i64 4, !"int"}
!3 = !{!1, i64 8, !"long"}
!5 = !{!1, i64 8, !"inner", !2, i64 0, i64 4, !2, i64 4, i64 4}
!6 = !{!1, i64 24, !"S", !2, i64 0, i64 4, !3, i64 8, i64 8, !5, i64 16, i64 8}
!10 = !{!6, !2, i64 0, i64 4}
!11 = !{!6, !3, i64 8, i64 8}
!12 = !{!6, !2, i64 20, i64 4}
!13 = !{!5, !2, i64 4, i64 4}
!14 = !{!6, !6, i64 0, i64 24}
!15 = !{!2, !2, i64 0, i64 4}
!16 = !{!2, !2, i64 0, i64 4, i64 1}
"""


@pytest.mark.parametrize("text", [OLD_FORMAT, NEW_FORMAT], ids=["old-format", "new-format"])
def test_tbaa_as_opt19(text: str, tmp_path: Path) -> None:
    """Alias answers between tags, NoModRef for constant tags, call tags against locations
    and calls: every line as opt-19's."""
    assert ours_stderr(text, "aa-eval", EVAL) == opt19_stderr(text, tmp_path, "aa-eval", EVAL)


def test_disabled_by_option(tmp_path: Path) -> None:
    opts = dict(EVAL, **{"enable-tbaa": "false"})
    ours = ours_stderr(OLD_FORMAT, "aa-eval", opts)
    assert ours == opt19_stderr(OLD_FORMAT, tmp_path, "aa-eval", opts)
    assert "NoAlias" not in ours


@pytest.mark.parametrize("name", ["tbaa-path.ll", "tbaa-path-new.ll", "aggregates.ll", "placement-tbaa.ll", "aliastest.ll"])
def test_llvm_tests_as_opt19(name: str, tmp_path: Path) -> None:
    """LLVM's TypeBasedAliasAnalysis tests through aa-eval with this provider alone."""
    require_llvm_tests()
    text = llvm_test_path("Analysis/TypeBasedAliasAnalysis/" + name).read_text()
    assert ours_stderr(text, "aa-eval", EVAL) == opt19_stderr(text, tmp_path, "aa-eval", EVAL)


def _random_type_dag_module(seed: int, new: bool) -> str:
    """A random TBAA type DAG (scalars under char, structs of scalars and structs) and
    loads/stores tagged along random valid access paths."""
    r = random.Random(seed)
    md: list[str] = []
    n = [0]

    def node(text: str) -> int:
        i = n[0]; n[0] += 1
        md.append("!%d = %s" % (i, text)); return i
    root = node('!{!"root"}')
    sizes: dict[int, int] = {}
    if new:
        char = node('!{!%d, i64 1, !"char"}' % root)
    else:
        char = node('!{!"char", !%d, i64 0}' % root)
    sizes[char] = 1
    scalars = [char]
    for name, sz in (("short", 2), ("int", 4), ("long", 8), ("float", 4)):
        parent = char if r.random() < 0.8 else r.choice(scalars)
        if new:
            s = node('!{!%d, i64 %d, !"%s"}' % (parent, sz, name))
        else:
            s = node('!{!"%s", !%d, i64 0}' % (name, parent))
        sizes[s] = sz; scalars.append(s)
    structs: list[int] = []
    fields: dict[int, list[tuple[int, int]]] = {}
    for k in range(3):
        fl: list[tuple[int, int]] = []
        off = 0
        for j in range(r.randint(1, 3)):
            t = r.choice(scalars + structs)
            fl.append((t, off)); off += sizes[t]
        if new:
            s = node('!{!%d, i64 %d, !"S%d", %s}' % (char, off, k, ", ".join("!%d, i64 %d, i64 %d" % (t, o, sizes[t]) for t, o in fl)))
        else:
            s = node('!{!"S%d", %s}' % (k, ", ".join("!%d, i64 %d" % (t, o) for t, o in fl)))
        sizes[s] = off; fields[s] = fl; structs.append(s)
    # access tags: (base, scalar access, offset) along a path
    tags: list[int] = []

    def paths(t: int, off: int) -> Iterator[tuple[int, int]]:
        if t in fields:
            for ft, fo in fields[t]:
                yield from paths(ft, off + fo)
        else:
            yield t, off
    for base in scalars + structs:
        for acc, off in paths(base, 0):
            if new:
                tags.append(node('!{!%d, !%d, i64 %d, i64 %d}' % (base, acc, off, sizes[acc])))
            else:
                tags.append(node('!{!%d, !%d, i64 %d}' % (base, acc, off)))
    if new:
        for s in structs:
            tags.append(node('!{!%d, !%d, i64 0, i64 %d}' % (s, s, sizes[s])))
    picked = r.sample(tags, min(len(tags), 9))
    body = "\n".join(("  %%v%d = load i8, ptr %%p, !tbaa !%d" % (i, t)) if i % 2 else ("  store i8 0, ptr %%p, !tbaa !%d" % t) for i, t in enumerate(picked))
    return "define void @f(ptr %p) {\n" + body + "\n  ret void\n}\n" + "\n".join(md) + "\n"


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("new", [False, True], ids=["old-format", "new-format"])
def test_random_type_dags_as_opt19(seed: int, new: bool, tmp_path: Path) -> None:
    """matchAccessTags on random type DAGs and access paths: every answer as opt-19's."""
    text = _random_type_dag_module(seed, new)
    assert ours_stderr(text, "aa-eval", EVAL) == opt19_stderr(text, tmp_path, "aa-eval", EVAL)


# --- tag helpers ----------------------------------------------------------------------------


def _tags(text: str) -> tuple[Module, dict[str, MDNode]]:
    module = parse_assembly(text)
    tags: dict[str, MDNode] = {}
    for fn in module.functions:
        for inst in fn.instructions():
            if inst.name:
                node = inst.get_metadata("tbaa")  # type: ignore[attr-defined]
                if node is not None:
                    tags[inst.name] = node
    return module, tags


def test_aliases_is_symmetric_and_reflexive() -> None:
    _, tags = _tags(OLD_FORMAT)
    nodes = list(tags.values())
    for a in nodes:
        assert tbaa_aliases(a, a) and tbaa_aliases(a, None) and tbaa_aliases(None, a)
        for b in nodes:
            assert tbaa_aliases(a, b) == tbaa_aliases(b, a)


def test_constant_and_vtable_tags() -> None:
    module = parse_assembly(
        """
define void @t(ptr %p) {
  %a = load i32, ptr %p, !tbaa !3
  %b = load i32, ptr %p, !tbaa !4
  %c = load ptr, ptr %p, !tbaa !6
  %d = load i32, ptr %p, !tbaa !7
  ret void
}
!0 = !{!"root"}
!1 = !{!"int", !0, i64 0}
!3 = !{!1, !1, i64 0, i1 true}
!4 = !{!1, !1, i64 0}
!5 = !{!"vtable pointer", !0, i64 0}
!6 = !{!5, !5, i64 0}
!7 = !{!8, !8, i64 0, i64 4, i64 1}
!8 = !{!0, i64 4, !"int"}
"""
    )
    fn = module.get_function("t")
    assert fn is not None
    tags = [i.get_metadata("tbaa") for i in fn.instructions() if i.name]  # type: ignore[attr-defined]
    assert [is_type_immutable_tag(t) for t in tags if t is not None] == [True, False, False, True]
    assert [is_tbaa_vtable_access(t) for t in tags if t is not None] == [False, False, True, False]


def _md(module: Module, text_fn: str) -> AAMDNodes:
    fn = module.get_function(text_fn)
    assert fn is not None
    first = next(iter(fn.instructions()))
    return AAMDNodes.of(first)  # type: ignore[arg-type]


AAMD_MODULE = """
define void @a(ptr %p) {
  store i32 0, ptr %p, !tbaa !10, !alias.scope !20, !noalias !21
  ret void
}
define void @b(ptr %p) {
  store i32 0, ptr %p, !tbaa !11, !alias.scope !22, !noalias !23
  ret void
}
define void @c(ptr %p) {
  store i64 0, ptr %p, !tbaa.struct !30, !alias.scope !20
  ret void
}
!0 = !{!"root"}
!1 = !{!0, i64 1, !"char"}
!2 = !{!1, i64 4, !"int"}
!3 = !{!1, i64 4, !"float"}
!10 = !{!2, !2, i64 0, i64 4}
!11 = !{!3, !3, i64 0, i64 4}
!12 = !{!0, i64 0, !"dom"}
!13 = distinct !{!13, !"D"}
!14 = distinct !{!14, !13, !"s1"}
!15 = distinct !{!15, !13, !"s2"}
!16 = distinct !{!16, !"E"}
!17 = distinct !{!17, !16, !"e1"}
!20 = !{!14}
!21 = !{!15, !17}
!22 = !{!15, !17}
!23 = !{!15}
!30 = !{i64 0, i64 4, !10, i64 4, i64 4, !11}
"""


def test_aamdnodes_merge_concat_intersect() -> None:
    module = parse_assembly(AAMD_MODULE)
    a = _md(module, "a")
    b = _md(module, "b")
    assert a.intersect(a) == a
    both = a.intersect(b)
    assert not both
    merged = a.merge(b)
    # int and float share only the char type: the generic tag is char's access tag
    assert merged.tbaa is not None and merged.tbaa.get_operand(0) is a.tbaa.get_operand(0).get_operand(0)  # type: ignore[union-attr]
    assert merged.tbaa_struct is None
    # scopes of the shared domain D: s1 and s2 (b's first, then a's)
    assert merged.scope is not None and [op for op in merged.scope.operands] == [b.scope.get_operand(0), a.scope.get_operand(0)]  # type: ignore[union-attr]
    # noalias: the common scope s2
    assert merged.noalias is not None and list(merged.noalias.operands) == [b.noalias.get_operand(0)]  # type: ignore[union-attr]
    cat = a.concat(b)
    assert cat.tbaa is None and cat.scope is merged.scope and cat.noalias is merged.noalias


def test_aamdnodes_shift_and_adjust_for_access() -> None:
    module = parse_assembly(AAMD_MODULE)
    c = _md(module, "c")
    assert c.tbaa_struct is not None
    # bytes 0..3 are the int field: its tag becomes !tbaa for a 4-byte access at 0
    at0 = c.adjust_for_access(4)
    assert at0.tbaa is c.tbaa_struct.get_operand(2) and at0.tbaa_struct is None and at0.scope is c.scope
    # an 8-byte access matches no field: no !tbaa
    assert c.adjust_for_access(8).tbaa is None
    # shifted by 4, the float field starts at 0
    at4 = c.adjust_for_access(4, offset=4)
    assert at4.tbaa is c.tbaa_struct.get_operand(5)
    shifted = shift_tbaa_struct(c.tbaa_struct, 2)
    # (0, 4, int), (4, 4, float) from byte 2 on: (0, 2, int), (2, 4, float)
    fields = [shifted.get_operand(i).value.zext_value for i in (0, 1, 3, 4)]  # type: ignore[union-attr]
    assert fields == [0, 2, 2, 4]
    assert shifted.get_operand(2) is c.tbaa_struct.get_operand(2) and shifted.get_operand(5) is c.tbaa_struct.get_operand(5)
    assert shift_tbaa_struct(c.tbaa_struct, 8).num_operands == 0
    assert shift_tbaa_struct(c.tbaa_struct, 0) is c.tbaa_struct


def test_extend_to_tbaa() -> None:
    module = parse_assembly(AAMD_MODULE)
    a = _md(module, "a")
    tag = a.tbaa
    assert tag is not None
    assert extend_to_tbaa(tag, 0) is None
    assert extend_to_tbaa(tag, -1) is None
    assert extend_to_tbaa(tag, 4) is tag
    wider = extend_to_tbaa(tag, 16)
    assert wider is not None and wider.get_operand(3).value.zext_value == 16  # type: ignore[union-attr]
    assert a.extend_to(16).tbaa is wider and a.extend_to(16).scope is a.scope


def test_set_aa_metadata_round_trip() -> None:
    module = parse_assembly(AAMD_MODULE)
    fa = module.get_function("a")
    fb = module.get_function("b")
    assert fa is not None and fb is not None
    store_a = next(iter(fa.instructions()))
    store_b = next(iter(fb.instructions()))
    merged = AAMDNodes.of(store_a).merge(AAMDNodes.of(store_b))  # type: ignore[arg-type]
    set_aa_metadata(store_a, merged)  # type: ignore[arg-type]
    assert AAMDNodes.of(store_a) == merged  # type: ignore[arg-type]
