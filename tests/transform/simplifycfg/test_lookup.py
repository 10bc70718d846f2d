"""SimplifyCFG's switch-to-lookup-table conversion (``simplify_cfg_lookup``): each table
kind gives what opt-19 gives (and the kind's mark is in the output), and random
switch functions return the same values under ``lli-19`` before and after
``simplifycfg<switch-to-lookup>``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402
from oracles import require_tools  # noqa: E402
from switch_gen import check_same_under_lli, random_lookup_function, random_switch_module  # noqa: E402

DL = 'target datalayout = "e-i64:64-n8:16:32:64"\n'
P = "simplifycfg<switch-to-lookup>"


def sw(
    ty: str, cases: list[int], default: str, results: list[tuple[str, object]], dres: object = None, extra: str = ""
) -> str:
    """A switch on %x whose cases give results through a phi."""
    lines = ["define %s @f(%s %%x) {" % (results[0][0], ty), "entry:"]
    lines.append("  switch %s %%x, label %%%s [" % (ty, default))
    for i, c in enumerate(cases):
        lines.append("    %s %d, label %%c%d" % (ty, c, i))
    lines.append("  ]")
    inc = []
    for i, (rt, rv) in enumerate(results):
        lines += ["c%d:" % i, "  br label %end"]
        inc.append("[ %s, %%c%d ]" % (rv, i))
    if default == "d":
        lines += ["d:", "  br label %end"]
        inc.append("[ %s, %%d ]" % dres)
    else:
        lines += ["unr:", "  unreachable"]
    lines += ["end:", "  %%r = phi %s %s" % (results[0][0], ", ".join(inc)), "  ret %s %%r" % results[0][0], "}"]
    return DL + extra + "\n".join(lines)

LOOKUP: dict[str, tuple[str, str, dict[str, object]]] = {
"array_table": (sw("i32", [0, 1, 2, 3], "d", [("i32", 55), ("i32", 123), ("i32", 0), ("i32", -1)], 42), P, {}),
"array_table_offset": (sw("i32", [10, 11, 12, 13, 15], "d", [("i32", 5), ("i32", 99), ("i32", 1000), ("i32", 7), ("i32", 3)], 1), P, {}),
"linear_map": (sw("i8", [0, 1, 2, 3], "unr", [("i8", 10), ("i8", 13), ("i8", 16), ("i8", 19)]), P, {}),
"linear_map_wrapped": (sw("i8", [2, 3, 4, 5], "unr", [("i8", 120), ("i8", 124), ("i8", -128), ("i8", -124)]), P, {}),
"bitmap": (sw("i32", [0, 1, 2, 3, 4], "unr", [("i8", 7), ("i8", 1), ("i8", 200), ("i8", 0), ("i8", 33)]), P, {}),
"single_value_unreachable_default": (sw("i32", [3, 4, 5], "unr", [("i32", 8), ("i32", 8), ("i32", 8)]), P, {}),
"float_table": (sw("i32", [1, 2, 3, 4], "d", [("float", "1.0"), ("float", "2.5"), ("float", "-0.0"), ("float", "8.0")], "0.0"), P, {}),
"pointer_table": (sw("i32", [0, 1, 2], "d", [("ptr", "@g1"), ("ptr", "@g2"), ("ptr", "null")], "@g1",
    extra="@g1 = global i32 0\n@g2 = global i32 1\n"), P, {}),
"covered_i2": (sw("i2", [0, 1, 2, 3], "d", [("i32", 100), ("i32", 7), ("i32", 300), ("i32", -5)], 0), P, {}),
"large_i8_index": (sw("i8", list(range(0, 130, 1))[:130], "unr", [("i32", (i * 37) % 101) for i in range(130)]), P, {}),
"grow_to_condition_range": ("""target datalayout = "e-n8:16:32:64"
define i8 @f(i32 %y) {
entry:
  %x = and i32 %y, 7
  switch i32 %x, label %d [
    i32 1, label %a
    i32 2, label %b
    i32 5, label %c
  ]
a:
  br label %end
b:
  br label %end
c:
  br label %end
d:
  br label %end
end:
  %r = phi i8 [ 3, %a ], [ 9, %b ], [ 20, %c ], [ 1, %d ]
  ret i8 %r
}""", P, {}),
"hole_mask": ("""target datalayout = "e-n8:16:32:64"
declare void @g()
define i32 @f(i32 %x) {
entry:
  switch i32 %x, label %d [
    i32 0, label %a
    i32 2, label %b
    i32 3, label %c
    i32 6, label %e
  ]
a:
  br label %end
b:
  br label %end
c:
  br label %end
e:
  br label %end
d:
  call void @g()
  ret i32 0
end:
  %r = phi i32 [ 300, %a ], [ 1000, %b ], [ 70000, %c ], [ 5, %e ]
  ret i32 %r
}""", P, {}),
"reuse_compare": ("""target datalayout = "e-n8:16:32:64"
declare void @g()
define i32 @f(i32 %x) {
entry:
  switch i32 %x, label %sw.default [
    i32 1, label %a
    i32 2, label %b
    i32 3, label %c
  ]
a:
  br label %sw.epilog
b:
  br label %sw.epilog
c:
  br label %sw.epilog
sw.default:
  br label %sw.epilog
sw.epilog:
  %r = phi i32 [ 0, %sw.default ], [ 11, %c ], [ 22, %b ], [ 35, %a ]
  %cmp = icmp eq i32 %r, 0
  br i1 %cmp, label %if.then, label %if.end
if.then:
  call void @g()
  br label %if.end
if.end:
  ret i32 %r
}""", P, {}),
"two_phis": ("""target datalayout = "e-n8:16:32:64"
define i32 @f(i32 %x) {
entry:
  switch i32 %x, label %d [
    i32 0, label %a
    i32 1, label %b
    i32 2, label %c
  ]
a:
  br label %end
b:
  br label %end
c:
  br label %end
d:
  br label %end
end:
  %r = phi i32 [ 5, %a ], [ 80, %b ], [ 3, %c ], [ 1, %d ]
  %s = phi i16 [ 9, %a ], [ 2, %b ], [ 7, %c ], [ 0, %d ]
  %t = zext i16 %s to i32
  %u = add i32 %r, %t
  ret i32 %u
}""", P, {}),
}

# A line each case's output must hold (the table kind that was built); None: the
# switch stays (a type no target-independent table takes); two results: selects.
MARKS: dict[str, str | None] = {
    "array_table": "@switch.table.f = private unnamed_addr constant [4 x i32] [i32 55, i32 123, i32 0, i32 -1], align 4",
    "array_table_offset": "%switch.tableidx = sub i32 %x, 10",
    "linear_map": "%switch.idx.mult = mul nsw i8 %x, 3",
    "linear_map_wrapped": "%switch.idx.mult = mul i8 %switch.tableidx, 4",
    "bitmap": "%switch.masked = trunc i40 %switch.downshift to i8",
    "single_value_unreachable_default": "ret i32 8",
    "float_table": None,
    "pointer_table": "%switch.select2 = select i1 %switch.selectcmp1, ptr null, ptr %switch.select",
    "covered_i2": "%switch.tableidx.zext = zext i2 %switch.tableidx to i3",
    "large_i8_index": "%switch.tableidx.zext = zext i8 %switch.tableidx to i9",
    "grow_to_condition_range": "lshr i64 ",
    "hole_mask": "switch.hole_check:",
    "reuse_compare": "%inverted.cmp = xor i1",
    "two_phis": "%switch.masked = trunc i48 %switch.downshift to i16",
}


@pytest.mark.parametrize("name", sorted(LOOKUP))
def test_table_like_opt19(name: str) -> None:
    text, pipeline, options = LOOKUP[name]
    got = assert_same_as_opt(text, pipeline, options)
    mark = MARKS[name]
    if mark is None:
        assert "switch i32" in got
    else:
        assert mark in got


@pytest.mark.parametrize(
    "seed", [pytest.param(s, marks=[pytest.mark.slow] if s >= 8 else []) for s in range(1000, 1060)]
)
def test_random_switches_keep_their_results(seed: int, tmp_path: Path) -> None:
    require_tools("lli-19")
    text, inputs = random_switch_module(seed)
    check_same_under_lli(text, inputs, "simplifycfg<switch-to-lookup;switch-range-to-icmp>", tmp_path)


@pytest.mark.parametrize(
    "seed", [pytest.param(s, marks=[pytest.mark.slow] if s >= 15 else []) for s in range(300)]
)
def test_random_lookup_switches_like_opt19(seed: int) -> None:
    assert_same_as_opt(random_lookup_function(seed), "simplifycfg<switch-to-lookup>")
