"""``gvn`` against opt-19, one small function per feature of GVN.cpp (commuted operators
and swapped compares, ``with.overflow`` results, GEP offsets, read-only calls, dominating
leaders, branch/switch/assume equalities, dead blocks, scalar PRE, local and non-local
load elimination with coercion, load PRE and loop load PRE, the parameters and options),
the pipeline printing, the pass-manager log and ``-stats``; and property tests of the
value table: numbering is stable under commuting the operands of commutative operators
and under swapping a compare's operands with its predicate."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from opt19_compare import assert_like_opt, pass_manager_logs

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.transform.scalar.gvn import parse_gvn_options
from llvmpy_mid.transform.scalar.gvn_value_table import LeaderMap, ValueTable
from tests.oracles import require_tools

require_tools("opt-19")

CASES = {
    "commuted_and_swapped": """
define i1 @f(i32 %a, i32 %b) {
  %x = add i32 %a, %b
  %y = add i32 %b, %a
  %c1 = icmp slt i32 %x, %y
  %c2 = icmp sgt i32 %y, %x
  %s = sub i32 %x, %y
  %z = icmp eq i32 %s, 0
  %r = and i1 %c1, %c2
  %r2 = or i1 %r, %z
  ret i1 %r2
}
""",
    "with_overflow": """
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)
define i32 @f(i32 %a, i32 %b) {
  %wo = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %a, i32 %b)
  %v = extractvalue { i32, i1 } %wo, 0
  %p = add nsw i32 %a, %b
  %r = mul i32 %v, %p
  ret i32 %r
}
""",
    "gep_offsets": """
define ptr @f(ptr %p, i64 %i) {
  %a = getelementptr i32, ptr %p, i64 %i
  %b = getelementptr i8, ptr %a, i64 4
  %c = getelementptr i32, ptr %p, i64 %i
  %d = getelementptr i32, ptr %c, i64 1
  %x = ptrtoint ptr %b to i64
  %y = ptrtoint ptr %d to i64
  %s = sub i64 %x, %y
  %q = getelementptr i8, ptr %p, i64 %s
  ret ptr %q
}
""",
    "dominating_leader_and_phi_pre": """
define i32 @f(i32 %a, i32 %b, i1 %c) {
entry:
  br i1 %c, label %t, label %e
t:
  %m = mul i32 %a, %b
  br label %j
e:
  br label %j
j:
  %m2 = mul i32 %a, %b
  %x = add i32 %m2, 1
  ret i32 %x
}
""",
    "branch_and_switch_equalities": """
declare void @use(i32)
define void @f(i32 %a, i32 %b, i32 %s) {
entry:
  %cmp = icmp eq i32 %a, %b
  br i1 %cmp, label %eq, label %ne
eq:
  %x = add i32 %a, 1
  %y = add i32 %b, 1
  call void @use(i32 %x)
  call void @use(i32 %y)
  %ncmp = icmp ne i32 %a, %b
  %z = zext i1 %ncmp to i32
  call void @use(i32 %z)
  br label %sw
ne:
  br label %sw
sw:
  switch i32 %s, label %d [ i32 3, label %three
                            i32 4, label %four ]
three:
  %t = add i32 %s, 7
  call void @use(i32 %t)
  ret void
four:
  ret void
d:
  ret void
}
""",
    "assume": """
declare void @llvm.assume(i1)
declare void @use(i32)
define i32 @f(i32 %a, i32 %b, i1 %c) {
entry:
  %cmp = icmp eq i32 %a, 5
  call void @llvm.assume(i1 %cmp)
  %x = add i32 %a, %b
  br i1 %cmp, label %t, label %e
t:
  ret i32 %x
e:
  call void @llvm.assume(i1 false)
  ret i32 0
}
""",
    "dead_block": """
define i32 @f(i32 %a) {
entry:
  br i1 true, label %live, label %dead
dead:
  %d = add i32 %a, 1
  br label %join
live:
  br label %join
join:
  %p = phi i32 [ %d, %dead ], [ %a, %live ]
  ret i32 %p
}
""",
    "local_loads": """
define i32 @f(ptr %p, ptr %q) {
  store i32 42, ptr %p
  %a = load i32, ptr %p
  %b = load i32, ptr %q
  %c = load i32, ptr %q
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  ret i32 %t
}
""",
    "coerced_loads": """
define i8 @f(ptr %p) {
  store i32 305419896, ptr %p
  %b = getelementptr i8, ptr %p, i64 1
  %v = load i8, ptr %b
  ret i8 %v
}
""",
    "nonlocal_load_phi": """
define i32 @f(ptr %p, i1 %c) {
entry:
  br i1 %c, label %t, label %e
t:
  store i32 1, ptr %p
  br label %j
e:
  store i32 2, ptr %p
  br label %j
j:
  %v = load i32, ptr %p
  ret i32 %v
}
""",
    "load_pre": """
declare void @clobber()
define i32 @f(ptr %p, i1 %c) {
entry:
  br i1 %c, label %t, label %e
t:
  %a = load i32, ptr %p
  br label %j
e:
  call void @clobber()
  br label %j
j:
  %v = load i32, ptr %p
  ret i32 %v
}
""",
    "loop_load_pre": """
declare void @clobber()
define i32 @f(ptr dereferenceable(4) noalias %p, i32 %n) nofree nosync {
entry:
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %latch ]
  %v = load i32, ptr %p
  %c = icmp eq i32 %v, %i
  br i1 %c, label %cold, label %latch
cold:
  call void @clobber()
  br label %latch
latch:
  %s.next = add i32 %s, %v
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %header
exit:
  ret i32 %s.next
}
""",
    "readonly_calls": """
declare i32 @ro(i32) readonly
declare void @w()
define i32 @f(i32 %a, i1 %c) {
entry:
  %x = call i32 @ro(i32 %a)
  %y = call i32 @ro(i32 %a)
  call void @w()
  %z = call i32 @ro(i32 %a)
  %s = add i32 %x, %y
  %t = add i32 %s, %z
  ret i32 %t
}
""",
    "pre_call_crit_edge_hoist_select_memset_lifetime_calloc_atomics": """
declare i32 @llvm.smax.i32(i32, i32)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare noalias ptr @calloc(i64, i64)
declare void @clobber()
define i32 @pre_call(i32 %a, i32 %b, i1 %c) {
entry:
  br i1 %c, label %t, label %e
t:
  %m = call i32 @llvm.smax.i32(i32 %a, i32 %b)
  br label %j
e:
  br label %j
j:
  %m2 = call i32 @llvm.smax.i32(i32 %a, i32 %b)
  ret i32 %m2
}
define i32 @crit_edge(ptr %p, i1 %c, i1 %d) {
entry:
  br i1 %c, label %t, label %j
t:
  %a = load i32, ptr %p
  br i1 %d, label %j, label %x
x:
  ret i32 %a
j:
  %v = load i32, ptr %p
  ret i32 %v
}
define i32 @hoist(ptr %p, i1 %c, i1 %d) {
entry:
  br i1 %c, label %t, label %f
t:
  %a = load i32, ptr %p
  br label %j
f:
  call void @clobber()
  br i1 %d, label %j, label %other
other:
  %o = load i32, ptr %p
  ret i32 %o
j:
  %v = load i32, ptr %p
  ret i32 %v
}
define i32 @select_dep(ptr %p, ptr %q, i1 %c) {
  %a = load i32, ptr %p
  %b = load i32, ptr %q
  %s = select i1 %c, ptr %p, ptr %q
  %v = load i32, ptr %s
  %r = add i32 %v, %a
  %r2 = add i32 %r, %b
  ret i32 %r2
}
define i16 @memset_fwd(ptr %p) {
  call void @llvm.memset.p0.i64(ptr %p, i8 7, i64 16, i1 false)
  %g = getelementptr i8, ptr %p, i64 4
  %v = load i16, ptr %g
  ret i16 %v
}
define i32 @lifetime_calloc() {
  %a = alloca i32
  call void @llvm.lifetime.start.p0(i64 4, ptr %a)
  %v = load i32, ptr %a
  %c = call ptr @calloc(i64 1, i64 4)
  %w = load i32, ptr %c
  %r = add i32 %v, %w
  ret i32 %r
}
define i32 @atomics(ptr %p) {
  store atomic i32 5, ptr %p unordered, align 4
  %v = load atomic i32, ptr %p unordered, align 4
  %w = load i32, ptr %p
  %x = load volatile i32, ptr %p
  %y = load i32, ptr %p
  %r = add i32 %v, %w
  %r2 = add i32 %r, %x
  %r3 = add i32 %r2, %y
  ret i32 %r3
}
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_like_opt19(name: str) -> None:
    assert_like_opt(CASES[name], "gvn")


@pytest.mark.parametrize("params", ["no-pre", "no-load-pre", "no-memdep", "split-backedge-load-pre", "pre;no-memdep"])
def test_parameters_like_opt19(params: str) -> None:
    for name in ("dominating_leader_and_phi_pre", "load_pre", "nonlocal_load_phi"):
        assert_like_opt(CASES[name], "gvn<%s>" % params)


@pytest.mark.parametrize(
    "options",
    [{"enable-pre": False}, {"enable-load-pre": False}, {"enable-load-in-loop-pre": False}, {"gvn-max-num-deps": 1}],
)
def test_options_like_opt19(options: dict[str, object]) -> None:
    for name in ("load_pre", "loop_load_pre", "nonlocal_load_phi", "dominating_leader_and_phi_pre"):
        assert_like_opt(CASES[name], "gvn", options)


def _print_pipeline(tool: list[str], pipeline: str) -> str:
    r = subprocess.run(
        [*tool, "-passes=" + pipeline, "-print-pipeline-passes", "-disable-output"],
        input="define void @f() {\n  ret void\n}\n",
        capture_output=True,
        text=True,
    )
    return r.stdout + r.stderr


@pytest.mark.parametrize("pipeline", ["gvn", "gvn<pre;no-load-pre>", "gvn<no-split-backedge-load-pre;memdep>"])
def test_print_pipeline_like_opt19(pipeline: str) -> None:
    assert _print_pipeline([sys.executable, "-m", "llvmpy_mid"], pipeline) == _print_pipeline(["opt-19"], pipeline)


def test_bad_parameter() -> None:
    with pytest.raises(PipelineError, match="invalid GVN pass parameter 'foo' "):
        parse_gvn_options("pre;foo")


def test_pass_manager_log_like_opt19() -> None:
    theirs, ours = pass_manager_logs(CASES["load_pre"], "gvn")
    assert ours == theirs


def test_stats_counts_loads() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "llvmpy_mid", "-passes=gvn", "-stats", "-disable-output"],
        input=CASES["local_loads"],
        capture_output=True,
        text=True,
    )
    assert "gvn - Number of loads deleted" in r.stderr
    line = next(x for x in r.stderr.splitlines() if "Number of loads deleted" in x)
    assert int(line.split()[0]) == 2


# --- property tests of the value table ------------------------------------------------------

_COMMUTATIVE = ["add", "mul", "and", "or", "xor"]
_PREDS = ["eq", "ne", "slt", "sgt", "sle", "sge", "ult", "ugt", "ule", "uge"]
_SWAPPED = {"eq": "eq", "ne": "ne", "slt": "sgt", "sgt": "slt", "sle": "sge", "sge": "sle",
            "ult": "ugt", "ugt": "ult", "ule": "uge", "uge": "ule"}  # fmt: skip


def _random_function(rng: random.Random) -> tuple[str, list[tuple[str, str]]]:
    """Random straight-line code; each generated instruction has a twin written with
    commuted operands (or a swapped compare); returns the text and the twin pairs."""
    names = ["%a", "%b", "%c"]
    lines: list[str] = []
    pairs: list[tuple[str, str]] = []
    for k in range(12):
        x, y = rng.choice(names), rng.choice(names)
        if rng.random() < 0.3 and x != y:
            pred = rng.choice(_PREDS)
            lines.append("  %%p%d = icmp %s i32 %s, %s" % (k, pred, x, y))
            lines.append("  %%q%d = icmp %s i32 %s, %s" % (k, _SWAPPED[pred], y, x))
            pairs.append(("p%d" % k, "q%d" % k))
            continue
        op = rng.choice(_COMMUTATIVE)
        lines.append("  %%v%d = %s i32 %s, %s" % (k, op, x, y))
        lines.append("  %%w%d = %s i32 %s, %s" % (k, op, y, x))
        pairs.append(("v%d" % k, "w%d" % k))
        names.append("%%v%d" % k)
    text = "define void @f(i32 %a, i32 %b, i32 %c) {\n" + "\n".join(lines) + "\n  ret void\n}\n"
    return text, pairs


@pytest.mark.parametrize("seed", range(20))
def test_value_numbers_stable_under_commuting(seed: int) -> None:
    rng = random.Random(seed)
    text, pairs = _random_function(rng)
    module = parse_assembly(text)
    fn = module.get_function("f")
    assert fn is not None
    vt = ValueTable(DataLayout())
    by_name = {}
    for inst in fn.entry_block.instructions:
        if inst.name:
            by_name[inst.name] = vt.lookup_or_add(inst)
    for x, y in pairs:
        assert by_name[x] == by_name[y], (x, y, text)


def test_non_commutative_operands_not_sorted() -> None:
    module = parse_assembly(
        "define void @f(i32 %a, i32 %b) {\n  %x = sub i32 %a, %b\n  %y = sub i32 %b, %a\n"
        "  %p = icmp slt i32 %a, %b\n  %q = icmp slt i32 %b, %a\n  ret void\n}\n"
    )
    fn = module.get_function("f")
    assert fn is not None
    vt = ValueTable(DataLayout())
    nums = [vt.lookup_or_add(i) for i in fn.entry_block.instructions if i.name]
    assert len(set(nums)) == 4


def test_leader_table_order() -> None:
    module = parse_assembly("define void @f(i32 %a, i32 %b, i32 %c) {\n  ret void\n}\n")
    fn = module.get_function("f")
    assert fn is not None
    bb = fn.entry_block
    a, b, c = fn.args
    lt = LeaderMap()
    for v in (a, b, c):
        lt.insert(7, v, bb)
    # LLVM keeps the first entry first and puts later ones second.
    assert [v for v, _ in lt.get_leaders(7)] == [a, c, b]
    lt.erase(7, a, bb)
    assert [v for v, _ in lt.get_leaders(7)] == [c, b]


# --- random programs (llvm-stress-19) --------------------------------------------------------


@pytest.mark.parametrize("seed", [3, 17, 58])
def test_llvm_stress_like_opt19(seed: int) -> None:
    require_tools("llvm-stress-19")
    r = subprocess.run(["llvm-stress-19", "-seed=%d" % seed, "-size=300"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert_like_opt(r.stdout, "gvn")


DEAD_CODE_LEADERS = """
declare void @use(i32)
define void @f(i8 %x, i1 %c, i1 %d) {
entry:
  br i1 true, label %live, label %dead1
dead1:
  %a1 = zext i8 %x to i32
  br label %dead2
dead2:
  %a2 = zext i8 %x to i32
  br i1 %d, label %live, label %join
live:
  br i1 %c, label %l, label %r
l:
  %z = zext i8 %x to i32
  call void @use(i32 %z)
  br label %join
r:
  br label %join
join:
  %w = zext i8 %x to i32
  call void @use(i32 %w)
  ret void
}
"""


def test_dead_code_leaders_like_opt19() -> None:
    """Dead blocks are value numbered in LLVM's order before scalar PRE."""
    assert_like_opt(DEAD_CODE_LEADERS, "gvn")


PHI_OF_TWO_OFFSETS = """
define i8 @f(i1 %c, i64 %offset, ptr %ptr) {
start:
  %alloca = alloca [8 x i8], align 8
  store i64 1234605616436508552, ptr %alloca, align 8
  %gep.2 = getelementptr i8, ptr %alloca, i64 2
  %gep.unknown = getelementptr i8, ptr %alloca, i64 %offset
  br i1 %c, label %join, label %if
if:
  br label %join
join:
  %phi = phi ptr [ %gep.unknown, %start ], [ %gep.2, %if ]
  store i8 0, ptr %alloca, align 8
  %load1 = load i64, ptr %alloca, align 8
  store i64 %load1, ptr %ptr, align 8
  %load2 = load i8, ptr %phi, align 1
  ret i8 %load2
}
"""


def test_phi_of_two_offsets_not_forwarded() -> None:
    """A load through a phi of two different offsets is not a clobber at a known offset
    (BasicAA merges PartialAlias results only when their offsets agree; LLVM pr63019)."""
    out = assert_like_opt(PHI_OF_TWO_OFFSETS, "gvn")
    assert "%load2 = load i8, ptr %phi" in out


# --- a cached MemorySSA kept up to date (early-cse<memssa> before gvn) -----------------------

MSSA_CASES = {
    "load_pre_and_crit_edge": """
define i32 @f(ptr %p, ptr %q, i1 %c, i1 %d) {
entry:
  br i1 %c, label %a, label %b
a:
  store i32 1, ptr %q
  br i1 %d, label %join, label %out
b:
  store i32 2, ptr %p
  br label %join
join:
  %v = load i32, ptr %p
  store i32 %v, ptr %q
  %w = load i32, ptr %p
  ret i32 %w
out:
  store i32 3, ptr %q
  ret i32 0
}
""",
    "merge_blocks_and_loop": """
define void @f(ptr %p, ptr %q, i32 %n) {
entry:
  store i32 0, ptr %p
  br label %next
next:
  store i32 1, ptr %q
  br label %loop
loop:
  %i = phi i32 [ 0, %next ], [ %i1, %latch ]
  %x = load i32, ptr %p
  %c = icmp eq i32 %x, %i
  br i1 %c, label %then, label %latch
then:
  store i32 %i, ptr %p
  br label %latch
latch:
  %y = load i32, ptr %p
  store i32 %y, ptr %q
  %i1 = add i32 %i, 1
  %e = icmp slt i32 %i1, %n
  br i1 %e, label %loop, label %exit
exit:
  ret void
}
""",
    "assume_false_and_dead_store": """
declare void @llvm.assume(i1)
define i32 @f(ptr %p, i1 %c) {
entry:
  store i32 1, ptr %p
  br i1 %c, label %t, label %e
t:
  %a = load i32, ptr %p
  call void @llvm.assume(i1 false)
  store i32 %a, ptr %p
  br label %e
e:
  store i32 2, ptr %p
  %b = load i32, ptr %p
  ret i32 %b
}
""",
}


def _cli_stderr(tool: list[str], ir: str, pipeline: str) -> str:
    r = subprocess.run([*tool, "-passes=" + pipeline, "-disable-output"], input=ir, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stderr


def _stress_module(seed: int, size: int) -> str:
    require_tools("llvm-stress-19")
    r = subprocess.run(["llvm-stress-19", "-seed=%d" % seed, "-size=%d" % size], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("name", sorted(MSSA_CASES))
def test_updated_memory_ssa_like_opt19(name: str) -> None:
    ir = MSSA_CASES[name]
    pipeline = "early-cse<memssa>,gvn,print<memoryssa>"
    assert _cli_stderr([sys.executable, "-m", "llvmpy_mid"], ir, pipeline) == _cli_stderr(["opt-19"], ir, pipeline)
    assert_like_opt(ir, "early-cse<memssa>,gvn,dse")


def test_memory_ssa_preserved_through_gvn_like_opt19() -> None:
    """DSE after gvn reuses the updated MemorySSA (no second MemorySSAAnalysis run)."""
    theirs, ours = pass_manager_logs(MSSA_CASES["load_pre_and_crit_edge"], "early-cse<memssa>,gvn,dse")
    assert ours == theirs
    assert theirs.count("Running analysis: MemorySSAAnalysis") == 1


def test_updated_memory_ssa_stress_like_opt19() -> None:
    """llvm-stress-19 seed 4 (size 300), a memory-o0 differential case where a fresh
    MemorySSA numbers accesses and orders phi inputs other than GVN's updated one."""
    ir = _stress_module(4, 300)
    assert_like_opt(ir, "early-cse<memssa>,gvn,dse")
    pipeline = "early-cse<memssa>,gvn,print<memoryssa>"
    assert _cli_stderr([sys.executable, "-m", "llvmpy_mid"], ir, pipeline) == _cli_stderr(["opt-19"], ir, pipeline)
