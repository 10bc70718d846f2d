"""ValueTracking on small IR functions checked against brute-force evaluation.

Random straight-line i4 functions (add/sub/mul with wrap flags, divisions and
remainders, bit operations, shifts, exact flags, select on icmp, zext/sext/
trunc round trips, the bit intrinsics and min/max) are evaluated for every
input; for every instruction, whatever ``compute_known_bits``,
``is_known_non_zero``, ``is_known_to_be_a_power_of_two``,
``compute_num_sign_bits`` and ``is_known_non_equal`` claim must hold on every
input where the value is not poison. Targeted cases check what LLVM proves
(assumptions with a context, range metadata, alignment, GEP offsets, phis).
"""

from __future__ import annotations

import itertools
import random

import pytest

from llvmpy_mid import parse_assembly
from llvmpy_mid.analysis.assumption_cache import AssumptionCache
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.value_tracking import (
    compute_constant_range,
    compute_known_bits,
    compute_num_sign_bits,
    get_pointer_base_with_constant_offset,
    get_underlying_object,
    get_underlying_objects,
    have_no_common_bits_set,
    is_known_non_equal,
    is_known_non_zero,
    is_known_to_be_a_power_of_two,
    masked_value_is_zero,
)
from llvmpy_mid.ir.dominators import DominatorTree

W = 4
M = (1 << W) - 1
POISON = None


def sx(v: int, w: int = W) -> int:
    return v - (1 << w) if (v >> (w - 1)) & 1 else v


BIN = ["add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "udiv", "urem", "sdiv", "srem"]
FLAGS = {"add": ["", "nuw ", "nsw ", "nuw nsw "], "sub": ["", "nuw ", "nsw "], "mul": ["", "nuw ", "nsw "],
         "shl": ["", "nuw ", "nsw "], "lshr": ["", "exact "], "ashr": ["", "exact "], "udiv": ["", "exact "],
         "sdiv": ["", "exact "]}
INTRINSICS = ["umin", "umax", "smin", "smax", "ctpop", "ctlz", "cttz", "abs", "bitreverse", "uadd.sat", "usub.sat",
              "sadd.sat", "ssub.sat"]
PREDS = ["eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge"]


def ev_bin(op: str, flags: str, a: int, b: int) -> int | None:
    sa, sb = sx(a), sx(b)
    if op == "add":
        r = a + b
        if "nuw" in flags and r > M:
            return POISON
        if "nsw" in flags and not -8 <= sa + sb <= 7:
            return POISON
        return r & M
    if op == "sub":
        if "nuw" in flags and a < b:
            return POISON
        if "nsw" in flags and not -8 <= sa - sb <= 7:
            return POISON
        return (a - b) & M
    if op == "mul":
        if "nuw" in flags and a * b > M:
            return POISON
        if "nsw" in flags and not -8 <= sa * sb <= 7:
            return POISON
        return (a * b) & M
    if op == "and":
        return a & b
    if op == "or":
        return a | b
    if op == "xor":
        return a ^ b
    if op in ("shl", "lshr", "ashr"):
        if b >= W:
            return POISON
        if op == "shl":
            r = (a << b) & M
            if "nuw" in flags and (a << b) > M:
                return POISON
            if "nsw" in flags and sx(r) != sa * (1 << b):
                return POISON
            return r
        if "exact" in flags and a & ((1 << b) - 1):
            return POISON
        return a >> b if op == "lshr" else (sa >> b) & M
    if op in ("udiv", "urem"):
        if b == 0:
            return POISON
        if op == "udiv" and "exact" in flags and a % b:
            return POISON
        return a // b if op == "udiv" else a % b
    if b == 0 or (sa == -8 and sb == -1):
        return POISON
    q = abs(sa) // abs(sb)
    q = q if (sa < 0) == (sb < 0) else -q
    if op == "sdiv":
        if "exact" in flags and q * sb != sa:
            return POISON
        return q & M
    return (sa - q * sb) & M


def ev_intr(name: str, a: int, b: int) -> int | None:
    sa, sb = sx(a), sx(b)
    return {
        "umin": min(a, b), "umax": max(a, b), "smin": min(sa, sb) & M, "smax": max(sa, sb) & M,
        "ctpop": bin(a).count("1"), "ctlz": W - a.bit_length(), "cttz": (a & -a).bit_length() - 1 if a else W,
        "abs": abs(sa) & M, "bitreverse": int(format(a, "04b")[::-1], 2),
        "uadd.sat": min(a + b, M), "usub.sat": max(a - b, 0),
        "sadd.sat": min(max(sa + sb, -8), 7) & M, "ssub.sat": min(max(sa - sb, -8), 7) & M,
    }[name]


def ev_cmp(p: str, a: int, b: int) -> int:
    sa, sb = sx(a), sx(b)
    return int({"eq": a == b, "ne": a != b, "ult": a < b, "ule": a <= b, "ugt": a > b, "uge": a >= b,
                "slt": sa < sb, "sle": sa <= sb, "sgt": sa > sb, "sge": sa >= sb}[p])


def random_function(rng: random.Random, n: int) -> tuple[str, list[tuple]]:
    """Text of ``define i4 @f(i4 %a, i4 %b)`` and a program to evaluate it."""
    names = ["%a", "%b"]
    lines = []
    prog: list[tuple] = []
    decls = set()

    def operand() -> str:
        if rng.random() < 0.3:
            return str(rng.choice([0, 1, 2, 3, 4, 7, 8, 12, 15, -1, -8]))
        return rng.choice(names)

    for k in range(n):
        name = "%%v%d" % k
        kind = rng.random()
        if kind < 0.55:
            op = rng.choice(BIN)
            flags = rng.choice(FLAGS.get(op, [""]))
            x, y = operand(), operand()
            lines.append("  %s = %s %si4 %s, %s" % (name, op, flags, x, y))
            prog.append(("bin", name, op, flags, x, y))
        elif kind < 0.75:
            intr = rng.choice(INTRINSICS)
            x, y = operand(), operand()
            if intr in ("ctpop", "bitreverse"):
                decls.add("declare i4 @llvm.%s.i4(i4)" % intr)
                lines.append("  %s = call i4 @llvm.%s.i4(i4 %s)" % (name, intr, x))
            elif intr in ("ctlz", "cttz", "abs"):
                decls.add("declare i4 @llvm.%s.i4(i4, i1)" % intr)
                lines.append("  %s = call i4 @llvm.%s.i4(i4 %s, i1 false)" % (name, intr, x))
            else:
                decls.add("declare i4 @llvm.%s.i4(i4, i4)" % intr)
                lines.append("  %s = call i4 @llvm.%s.i4(i4 %s, i4 %s)" % (name, intr, x, y))
            prog.append(("intr", name, intr, x, y))
        elif kind < 0.9:
            p = rng.choice(PREDS)
            x, y, t, f = operand(), operand(), operand(), operand()
            lines.append("  %s.c = icmp %s i4 %s, %s" % (name, p, x, y))
            lines.append("  %s = select i1 %s.c, i4 %s, i4 %s" % (name, name, t, f))
            prog.append(("sel", name, p, x, y, t, f))
        else:
            x = operand()
            ext = rng.choice(["zext", "sext"])
            lines.append("  %s.w = %s i4 %s to i8" % (name, ext, x))
            lines.append("  %s.s = lshr i8 %s.w, 1" % (name, name))
            lines.append("  %s = trunc i8 %s.s to i4" % (name, name))
            prog.append(("ext", name, ext, x))
        names.append(name)
    lines.append("  ret i4 %s" % names[-1])
    text = "\n".join(sorted(decls)) + "\ndefine i4 @f(i4 %a, i4 %b) {\n" + "\n".join(lines) + "\n}\n"
    return text, prog


def evaluate(prog: list[tuple], a: int, b: int) -> dict[str, int | None]:
    env: dict[str, int | None] = {"%a": a, "%b": b}

    def val(x: str) -> int | None:
        return env[x] if x.startswith("%") else int(x) & M

    for step in prog:
        kind, name = step[0], step[1]
        if kind == "bin":
            x, y = val(step[4]), val(step[5])
            env[name] = POISON if x is None or y is None else ev_bin(step[2], step[3], x, y)
        elif kind == "intr":
            x, y = val(step[3]), val(step[4])
            if step[2] in ("ctpop", "bitreverse", "ctlz", "cttz", "abs"):
                env[name] = POISON if x is None else ev_intr(step[2], x, 0)
            else:
                env[name] = POISON if x is None or y is None else ev_intr(step[2], x, y)
        elif kind == "sel":
            x, y, t, f = val(step[3]), val(step[4]), val(step[5]), val(step[6])
            if x is None or y is None:
                env[name] = POISON
            else:
                env[name] = t if ev_cmp(step[2], x, y) else f
        else:
            x = val(step[3])
            if x is None:
                env[name] = POISON
            else:
                wide = x if step[2] == "zext" else sx(x) & 0xFF
                env[name] = (wide >> 1) & M
    return env


@pytest.mark.parametrize("seed", range(40))
def test_random_functions_sound(seed: int) -> None:
    rng = random.Random(seed)
    text, prog = random_function(rng, 12)
    m = parse_assembly(text)
    fn = m.get_function("f")
    dl = m.data_layout
    insts = {("%" + i.name): i for bb in fn.blocks for i in bb if i.name}
    envs = [evaluate(prog, a, b) for a, b in itertools.product(range(16), repeat=2)]
    for step in prog:
        name = step[1]
        inst = insts[name]
        kb = compute_known_bits(inst, dl)
        nz = is_known_non_zero(inst, dl)
        p2 = is_known_to_be_a_power_of_two(inst, dl)
        p2z = is_known_to_be_a_power_of_two(inst, dl, or_zero=True)
        sb = compute_num_sign_bits(inst, dl)
        ranges = [compute_constant_range(inst, False), compute_constant_range(inst, True)]
        for env in envs:
            v = env[name]
            if v is None:
                continue
            assert v & kb.zero == 0 and v & kb.one == kb.one, (text, name, kb, v)
            assert not nz or v != 0, (text, name, v)
            assert not p2 or (v and not v & (v - 1)), (text, name, v)
            assert not p2z or not v & (v - 1), (text, name, v)
            s = sx(v)
            bits = W - (s.bit_length() if s >= 0 else (~s).bit_length())
            assert bits >= sb, (text, name, sb, v)
            assert all(r.contains(v) for r in ranges), (text, name, ranges, v)
    # pairs of values: non-equal claims
    names = [s[1] for s in prog]
    for x, y in itertools.combinations(names[-6:], 2):
        if is_known_non_equal(insts[x], insts[y], dl):
            for env in envs:
                if env[x] is not None and env[y] is not None:
                    assert env[x] != env[y], (text, x, y)


def _fn(text: str):  # type: ignore[no-untyped-def]
    m = parse_assembly(text)
    return m, m.functions[0] if hasattr(m, "functions") else next(iter(m))


def _inst(fn, name: str):  # type: ignore[no-untyped-def]
    for bb in fn.blocks:
        for i in bb:
            if i.name == name:
                return i
    raise KeyError(name)


def test_assume_with_context() -> None:
    m = parse_assembly("""
declare void @llvm.assume(i1)
declare void @opaque()
define i32 @f(i32 %a, ptr %p) {
  %x = add i32 %a, 1
  call void @opaque()
  %u = mul i32 %a, 3
  %c = icmp ult i32 %a, 16
  call void @llvm.assume(i1 %c)
  %y = and i32 %a, 255
  %n = icmp ne ptr %p, null
  call void @llvm.assume(i1 %n)
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 32) ]
  %z = getelementptr i8, ptr %p, i64 8
  ret i32 %y
}""")
    fn = m.get_function("f")
    ac = AssumptionCache(fn)
    dt = DominatorTree(fn)
    a = fn.args[0]
    p = fn.args[1]
    y = _inst(fn, "y")
    x = _inst(fn, "x")
    q = SimplifyQuery(m.data_layout, ac=ac, dt=dt)
    assert compute_known_bits(a, q.get_with_instruction(y)).count_min_leading_zeros() == 28
    # Before a call that may not return, the later assume says nothing.
    assert compute_known_bits(a, q.get_with_instruction(x)).is_unknown()
    assert is_known_non_zero(p, q.get_with_instruction(_inst(fn, "z")))
    assert not is_known_non_zero(p, q.get_with_instruction(x))
    # Between the call and the assume, execution surely reaches the assume (LLVM's rule).
    assert compute_known_bits(a, q.get_with_instruction(_inst(fn, "u"))).count_min_leading_zeros() == 28
    # ... but not at the condition itself, which only feeds the assume (an ephemeral value).
    assert compute_known_bits(a, q.get_with_instruction(_inst(fn, "c"))).is_unknown()
    assert compute_known_bits(p, q.get_with_instruction(_inst(fn, "z"))).count_min_trailing_zeros() == 5
    cr = compute_constant_range(a, False, True, ac, y, dt)
    assert (cr.lower, cr.upper) == (0, 16)


def test_metadata_alignment_and_gep() -> None:
    m = parse_assembly("""
@g = global [4 x i32] zeroinitializer, align 16
define i64 @f(ptr %p, i64 %i) {
  %v = load i8, ptr %p, !range !0
  %q = getelementptr inbounds [4 x i32], ptr @g, i64 0, i64 %i
  %r = getelementptr inbounds i8, ptr @g, i64 4
  %a = alloca i64, align 8
  %s = select i1 true, ptr %q, ptr %a
  %pi = ptrtoint ptr %q to i64
  ret i64 %pi
}
!0 = !{i8 4, i8 8}
""")
    fn = m.get_function("f")
    dl = m.data_layout
    v = _inst(fn, "v")
    kb = compute_known_bits(v, dl)
    assert kb.to_string() == "000001??"
    assert is_known_non_zero(v, dl)
    assert compute_known_bits(_inst(fn, "q"), dl).count_min_trailing_zeros() == 2
    assert compute_known_bits(_inst(fn, "r"), dl).count_min_trailing_zeros() == 2
    assert compute_known_bits(_inst(fn, "a"), dl).count_min_trailing_zeros() == 3
    assert is_known_non_zero(_inst(fn, "a"), dl)
    g = m.get_global_variable("g") if hasattr(m, "get_global_variable") else _inst(fn, "q").get_operand(0)
    assert get_underlying_object(_inst(fn, "q")) is g
    objs = get_underlying_objects(_inst(fn, "s"))
    assert set(map(id, objs)) == {id(g), id(_inst(fn, "a"))}
    base, off = get_pointer_base_with_constant_offset(_inst(fn, "r"), dl)
    assert base is g and off == 4
    assert masked_value_is_zero(_inst(fn, "pi"), 3, dl)
    assert compute_constant_range(v, False).lower == 4


def test_phi_and_recurrences() -> None:
    m = parse_assembly("""
define i32 @f(i1 %c, i32 %n) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %j
b:
  br label %j
j:
  %p = phi i32 [ 4, %a ], [ 12, %b ]
  br label %loop
loop:
  %i = phi i32 [ 8, %j ], [ %i.next, %loop ]
  %d = phi i32 [ 1, %j ], [ %d.next, %loop ]
  %i.next = shl nuw i32 %i, 1
  %d.next = add nuw i32 %d, 2
  %cmp = icmp ult i32 %i.next, %n
  br i1 %cmp, label %loop, label %exit
exit:
  ret i32 %p
}""")
    fn = m.get_function("f")
    dl = m.data_layout
    p = _inst(fn, "p")
    assert compute_known_bits(p, dl).to_string().endswith("?100") and compute_known_bits(p, dl).count_min_leading_zeros() == 28
    assert is_known_to_be_a_power_of_two(_inst(fn, "i"), dl)
    assert is_known_non_zero(_inst(fn, "d"), dl)
    assert compute_known_bits(_inst(fn, "i"), dl).count_min_trailing_zeros() == 3
    # %p is 4 or 12 (bits 2..3), %d is odd: bit 0 only is known apart.
    assert not have_no_common_bits_set(p, _inst(fn, "d"), dl)
    assert have_no_common_bits_set(p, _inst(fn, "i"), dl) is False


def test_target_independent_signatures() -> None:
    """Entry points accept a DataLayout or a SimplifyQuery."""
    m = parse_assembly("define i8 @f(i8 %x) {\n  %y = or i8 %x, 1\n  ret i8 %y\n}")
    fn = m.get_function("f")
    y = _inst(fn, "y")
    assert is_known_non_zero(y, m.data_layout)
    assert is_known_non_zero(y, SimplifyQuery(m.data_layout))
    assert is_known_non_equal(y, fn.args[0], m.data_layout) is False


def test_non_null_pointers_as_llvm() -> None:
    """Arguments and calls are non-null by ``nonnull`` or ``dereferenceable`` (not in
    address spaces where null is valid); byval arguments; allocas; inbounds GEPs of them."""
    m = parse_assembly("""
declare dereferenceable(8) ptr @get()
declare ptr @plain()
define void @f(ptr nonnull %a, ptr dereferenceable(4) %b, ptr addrspace(1) dereferenceable(4) %c, ptr byval(i32) %d, ptr %e) {
  %x = call ptr @get()
  %y = call ptr @plain()
  %g = getelementptr inbounds i8, ptr %e, i64 4
  %h = getelementptr inbounds i8, ptr %a, i64 %0
  ret void
}
""".replace("%0", "0"))
    fn = m.get_function("f")
    dl = m.data_layout
    a, b, c, d, e = fn.args
    assert is_known_non_zero(a, dl) and is_known_non_zero(b, dl) and is_known_non_zero(d, dl)
    assert not is_known_non_zero(c, dl) and not is_known_non_zero(e, dl)
    assert is_known_non_zero(_inst(fn, "x"), dl) and not is_known_non_zero(_inst(fn, "y"), dl)
    assert is_known_non_zero(_inst(fn, "g"), dl)
    assert is_known_non_zero(_inst(fn, "h"), dl)


def test_global_alignment_as_llvm() -> None:
    """A strong definition without ``align`` gets DataLayout's preferred alignment (16 for
    initialised globals over 128 bits); a weak one only its type's ABI alignment (checked
    with opt-19's instsimplify on the same globals)."""
    m = parse_assembly("""
@big = global [10 x i32] zeroinitializer
@small = global i32 0
@weak = weak global [10 x i32] zeroinitializer
@ext = external global [10 x i32]
@al = global i8 0, align 8
""")
    dl = m.data_layout
    tz = {g.name: compute_known_bits(g, dl).count_min_trailing_zeros() for g in m.globals}
    assert tz == {"big": 4, "small": 2, "weak": 2, "ext": 2, "al": 3}


@pytest.mark.parametrize("seed", range(12))
def test_overflow_queries_sound(seed: int) -> None:
    """NeverOverflows / AlwaysOverflows answers hold on every input where both operands
    are defined, for the six computeOverflowFor* queries."""
    from llvmpy_mid.analysis.value_tracking import (
        OverflowResult,
        compute_overflow_for_signed_add,
        compute_overflow_for_signed_mul,
        compute_overflow_for_signed_sub,
        compute_overflow_for_unsigned_add,
        compute_overflow_for_unsigned_mul,
        compute_overflow_for_unsigned_sub,
    )

    rng = random.Random(1000 + seed)
    text, prog = random_function(rng, 8)
    m = parse_assembly(text)
    fn = m.get_function("f")
    dl = m.data_layout
    insts = {("%" + i.name): i for bb in fn.blocks for i in bb if i.name}
    envs = [evaluate(prog, a, b) for a, b in itertools.product(range(16), repeat=2)]
    names = ["%a", "%b"] + [s[1] for s in prog]
    vals = {"%a": fn.args[0], "%b": fn.args[1], **insts}
    checks = {
        "uadd": (compute_overflow_for_unsigned_add, lambda x, y: x + y > M, lambda x, y: False),
        "usub": (compute_overflow_for_unsigned_sub, lambda x, y: False, lambda x, y: x < y),
        "umul": (compute_overflow_for_unsigned_mul, lambda x, y: x * y > M, lambda x, y: False),
        "sadd": (compute_overflow_for_signed_add, lambda x, y: sx(x) + sx(y) > 7, lambda x, y: sx(x) + sx(y) < -8),
        "ssub": (compute_overflow_for_signed_sub, lambda x, y: sx(x) - sx(y) > 7, lambda x, y: sx(x) - sx(y) < -8),
        "smul": (compute_overflow_for_signed_mul, lambda x, y: sx(x) * sx(y) > 7, lambda x, y: sx(x) * sx(y) < -8),
    }
    for xn, yn in itertools.combinations(names, 2):
        for name, (fn_q, high, low) in checks.items():
            r = fn_q(vals[xn], vals[yn], dl)
            pairs = [(e[xn], e[yn]) for e in envs if e[xn] is not None and e[yn] is not None]
            if r == OverflowResult.NEVER_OVERFLOWS:
                assert not any(high(x, y) or low(x, y) for x, y in pairs), (text, name, xn, yn)
            elif r == OverflowResult.ALWAYS_OVERFLOWS_HIGH:
                assert all(high(x, y) for x, y in pairs), (text, name, xn, yn)
            elif r == OverflowResult.ALWAYS_OVERFLOWS_LOW:
                assert all(low(x, y) for x, y in pairs), (text, name, xn, yn)


def test_is_known_negation() -> None:
    from llvmpy_mid.analysis.value_tracking import is_known_negation

    m = parse_assembly("""
define void @f(i8 %x, i8 %y) {
  %n = sub i8 0, %x
  %nn = sub nsw i8 0, %x
  %a = sub i8 %x, %y
  %b = sub i8 %y, %x
  %c = sub nsw i8 %x, %y
  %d = sub nsw i8 %y, %x
  ret void
}""")
    fn = m.get_function("f")
    x = fn.args[0]
    g = lambda n: _inst(fn, n)  # noqa: E731
    assert is_known_negation(g("n"), x) and is_known_negation(x, g("n"))
    assert not is_known_negation(g("n"), x, need_nsw=True) and is_known_negation(g("nn"), x, need_nsw=True)
    assert is_known_negation(g("a"), g("b")) and not is_known_negation(g("a"), g("b"), need_nsw=True)
    assert is_known_negation(g("c"), g("d"), need_nsw=True)
    assert not is_known_negation(g("a"), g("a"))


def test_underlying_objects_with_loop_info() -> None:
    """A loop-header phi fed by a load through a pointer that changes in the loop is an
    object of its own when loop info is given (LLVM isSameUnderlyingObjectInLoop)."""
    from llvmpy_mid.analysis.loop_info import LoopInfo

    m = parse_assembly("""
@a = global ptr null
define void @f(ptr %start, ptr %q) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %start, %entry ], [ %next, %loop ]
  %slot = getelementptr i8, ptr %p, i64 8
  %next = load ptr, ptr %slot
  %c = icmp eq ptr %next, null
  br i1 %c, label %exit, label %loop
exit:
  ret void
}""")
    fn = m.get_function("f")
    p = _inst(fn, "p")
    li = LoopInfo(fn, DominatorTree(fn))
    assert get_underlying_objects(p, 6, li) == [p]
    without = get_underlying_objects(p)
    assert fn.args[0] in without and _inst(fn, "next") in without


def test_no_common_bits_special_cases() -> None:
    """LLVM's special cases of haveNoCommonBitsSet hold on every i4 input; a pair that
    shares bits is never claimed disjoint."""
    m = parse_assembly("""
define void @f(i4 noundef %x, i4 noundef %y, i4 noundef %m, i2 noundef %s) {
  %nm = xor i4 %m, -1
  %a1 = and i4 %x, %nm
  %a2 = and i4 %y, %m
  %nx = xor i4 %x, -1
  %b = and i4 %y, %nx
  %xy = and i4 %x, %y
  %c = xor i4 %xy, %y
  %ns = xor i2 %s, -1
  %e1 = zext i2 %s to i4
  %e2 = zext i2 %ns to i4
  %or = or i4 %x, %y
  %nor = xor i4 %or, -1
  %bad = or i4 %x, %y
  ret void
}""")
    fn = m.get_function("f")
    dl = m.data_layout
    g = lambda n: _inst(fn, n)  # noqa: E731
    x, y = fn.args[0], fn.args[1]
    pairs = [(g("a1"), g("a2")), (x, g("b")), (x, g("c")), (g("e1"), g("e2")), (g("xy"), g("nor"))]
    for lhs, rhs in pairs:
        assert have_no_common_bits_set(lhs, rhs, dl) and have_no_common_bits_set(rhs, lhs, dl)
    assert not have_no_common_bits_set(g("bad"), x, dl)
    assert not have_no_common_bits_set(g("xy"), g("or"), dl)
