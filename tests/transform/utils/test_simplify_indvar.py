"""SimplifyIndvar (LLVM SimplifyIndVar.cpp): the IV-user rules, called directly on loops whose IV is
a header phi SCEV cannot turn into a recurrence (a masked counter: ``indvars`` then does nothing
but simplify its users, so opt-19's ``-passes=indvars`` output is the oracle for our direct call
followed by the deletion of what it reports dead); random loops checked with ``lli-19`` (same
output) and ``opt-19 -passes=verify`` after the rewrite."""

from __future__ import annotations

import random
import subprocess

import pytest

from llvmpy_mid.analysis.loop_info import LoopInfo
from llvmpy_mid.analysis.scalar_evolution import ScalarEvolution
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.local import recursively_delete_trivially_dead_instructions_permissive
from llvmpy_mid.transform.utils.simplify_indvar import IVVisitor, simplify_loop_ivs, simplify_users_of_iv
from oracles import lli_output, require_tools


def _run_direct(text: str) -> tuple[str, bool]:
    module = parse_assembly(text)
    changed = False
    for fn in module.functions:
        if fn.is_declaration:
            continue
        dt = DominatorTree(fn)
        li = LoopInfo(fn, dt)
        se = ScalarEvolution(fn, None, None, dt, li)
        for loop in li.loops_in_preorder():
            dead: list[Value] = []
            changed |= simplify_loop_ivs(loop, se, dt, li, None, dead)
            recursively_delete_trivially_dead_instructions_permissive(dead)  # type: ignore[arg-type]
    return print_module(module), changed


def _functions(text: str) -> str:
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("define "):
            inside = True
        if inside:
            out.append(line)
        if line == "}":
            inside = False
    return "\n".join(out)


def _opt19(text: str, pipeline: str) -> str:
    require_tools("opt-19")
    r = subprocess.run(["opt-19", "-passes=" + pipeline, "-S", "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


LOOP = """
declare void @use(i32)
declare void @use1(i1)
declare void @use64(i64)
declare {{i32, i1}} @llvm.sadd.with.overflow.i32(i32, i32)
declare {{i32, i1}} @llvm.umul.with.overflow.i32(i32, i32)
declare i32 @llvm.uadd.sat.i32(i32, i32)
declare i32 @llvm.ssub.sat.i32(i32, i32)
define void @f(i32 %n, i32 %x) {{
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
{body}
  %a = add i32 %i, 1
  %i.next = and i32 %a, 127
  %c = icmp ne i32 %i.next, 0
  br i1 %c, label %loop, label %exit
exit:
  ret void
}}
"""

RULES = {
    "sdiv_to_udiv": "  %d = sdiv i32 %i, 4\n  call void @use(i32 %d)",
    "sdiv_exact": "  %d = sdiv exact i32 %i, 4\n  call void @use(i32 %d)",
    "sdiv_neg_divisor_kept": "  %d = sdiv i32 %i, -4\n  call void @use(i32 %d)",
    "srem_to_urem": "  %r = srem i32 %i, 7\n  call void @use(i32 %r)",
    "srem_unknown_divisor_kept": "  %r = srem i32 %i, %n\n  call void @use(i32 %r)",
    "urem_is_numerator": "  %r = urem i32 %i, 200\n  call void @use(i32 %r)",
    "srem_is_numerator": "  %r = srem i32 %i, 128\n  call void @use(i32 %r)",
    "urem_numerator_or_zero": "  %r = urem i32 %i, 127\n  call void @use(i32 %r)",
    "urem_divisor_is_iv_kept": "  %r = urem i32 %n, %i\n  call void @use(i32 %r)",
    "icmp_true": "  %c0 = icmp slt i32 %i, 1000\n  call void @use1(i1 %c0)",
    "icmp_false_swapped": "  %c0 = icmp slt i32 500, %i\n  call void @use1(i1 %c0)",
    "icmp_ule": "  %c0 = icmp ule i32 %i, 127\n  call void @use1(i1 %c0)",
    "icmp_unknown_kept": "  %c0 = icmp sgt i32 %i, %n\n  call void @use1(i1 %c0)",
    "icmp_signed_to_unsigned": "  %m = and i32 %n, 255\n  %c0 = icmp slt i32 %i, %m\n  call void @use1(i1 %c0)",
    "nsw_nuw_add": "  %s = add i32 %i, 5\n  call void @use(i32 %s)",
    "nsw_nuw_mul": "  %s = mul i32 %i, 3\n  call void @use(i32 %s)",
    "nsw_sub": "  %s = sub i32 %i, 5\n  call void @use(i32 %s)",
    "shl_lshr_exact": "  %s = shl i32 %x, %i\n  %t = lshr i32 %s, 0\n  call void @use(i32 %t)",
    "overflow_intrinsic": (
        "  %w = call {i32, i1} @llvm.sadd.with.overflow.i32(i32 %i, i32 7)\n"
        "  %w0 = extractvalue {i32, i1} %w, 0\n  %w1 = extractvalue {i32, i1} %w, 1\n"
        "  call void @use(i32 %w0)\n  call void @use1(i1 %w1)"
    ),
    "overflow_intrinsic_mul": (
        "  %w = call {i32, i1} @llvm.umul.with.overflow.i32(i32 %i, i32 1000)\n"
        "  %w1 = extractvalue {i32, i1} %w, 1\n  call void @use1(i1 %w1)"
    ),
    "overflow_intrinsic_kept": (
        "  %w = call {i32, i1} @llvm.sadd.with.overflow.i32(i32 %i, i32 %n)\n"
        "  %w1 = extractvalue {i32, i1} %w, 1\n  call void @use1(i1 %w1)"
    ),
    "saturating": "  %s = call i32 @llvm.uadd.sat.i32(i32 %i, i32 9)\n  call void @use(i32 %s)",
    "saturating_sub": "  %s = call i32 @llvm.ssub.sat.i32(i32 %i, i32 9)\n  call void @use(i32 %s)",
    "float_iv": "  %f = sitofp i32 %i to float\n  %g = fptosi float %f to i64\n  call void @use64(i64 %g)",
    "float_iv_same": "  %f = uitofp i32 %i to double\n  %g = fptoui double %f to i32\n  call void @use(i32 %g)",
    "identity": "  %s = add i32 %i, 0\n  %t = udiv i32 %s, 2\n  call void @use(i32 %t)",
    "chain": "  %s = add i32 %i, 3\n  %t = srem i32 %s, 5\n  %u = sdiv i32 %s, 2\n  call void @use(i32 %t)\n  call void @use(i32 %u)",
}


@pytest.mark.parametrize("rule", sorted(RULES))
def test_rule_like_opt19(rule: str) -> None:
    text = LOOP.format(body=RULES[rule])
    expected = _opt19(text, "indvars")
    got, _ = _run_direct(text)
    assert _functions(got) == _functions(expected)
    _opt19(got, "verify")


def test_flag_strengthening_is_not_a_change() -> None:
    # As in LLVM, strengthenOverflowingOperation does not set Changed: the latch add gains
    # nuw nsw while the result says nothing changed.
    text = LOOP.format(body="  %c0 = icmp sgt i32 %i, %n\n  call void @use1(i1 %c0)")
    got, changed = _run_direct(text)
    assert not changed
    assert "%a = add nuw nsw i32 %i, 1" in got
    assert _functions(got).replace("add nuw nsw", "add") == _functions(print_module(parse_assembly(text)))


class _Casts(IVVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def visit_cast(self, cast: object) -> None:
        self.seen.append(getattr(cast, "name", ""))


def test_visitor_sees_casts_and_pair_result() -> None:
    text = LOOP.format(body="  %z = zext i32 %i to i64\n  call void @use64(i64 %z)\n  %y = sext i32 %n to i64\n  call void @use64(i64 %y)")
    module = parse_assembly(text)
    fn = next(f for f in module.functions if not f.is_declaration)
    dt = DominatorTree(fn)
    li = LoopInfo(fn, dt)
    se = ScalarEvolution(fn, None, None, dt, li)
    loop = li.loops_in_preorder()[0]
    phi = loop.header.first_instruction
    visitor = _Casts()
    dead: list[Value] = []
    changed, unswitch = simplify_users_of_iv(phi, se, dt, li, None, dead, None, visitor)  # type: ignore[arg-type]
    assert visitor.seen == ["z"]
    assert (changed, unswitch) == (False, False)


# --- random loops: same program output, verifier-clean -----------------------------------------

_OPS = [
    "sdiv i32 {iv}, {c}",
    "srem i32 {iv}, {c}",
    "urem i32 {iv}, {c}",
    "udiv i32 {iv}, {c}",
    "add i32 {iv}, {s}",
    "sub i32 {iv}, {s}",
    "mul i32 {iv}, {s}",
    "lshr i32 {iv}, {sh}",
    "srem i32 {s}, {ivnz}",
]
_PREDS = ["eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge"]


def _random_program(rng: random.Random) -> str:
    mask = rng.choice([7, 63, 127, 255, 1023])
    step = rng.choice([1, 2, 3, 5])
    lines: list[str] = []
    ivs = ["%i"]
    k = 0
    for _ in range(rng.randint(2, 7)):
        k += 1
        iv = rng.choice(ivs)
        if rng.random() < 0.3:
            pred = rng.choice(_PREDS)
            lines.append("  %%c%d = icmp %s i32 %s, %d" % (k, pred, iv, rng.randint(-5, 1100)))
            lines.append("  %%v%d = zext i1 %%c%d to i32" % (k, k))
        else:
            op = rng.choice(_OPS)
            if "{ivnz}" in op:
                lines.append("  %%nz%d = or i32 %s, 1" % (k, iv))
            lines.append(
                "  %%v%d = " % k
                + op.format(
                    iv=iv,
                    c=rng.choice([1, 2, 3, 7, 100, 2000, -3]),
                    s=rng.choice([0, 1, 5, -7, 1000, 2147483647, -2147483648]),
                    sh=rng.randint(0, 31),
                    ivnz="%%nz%d" % k,
                )
            )
            ivs.append("%%v%d" % k)
        lines.append("  %%acc%d = add i32 %%acc%d, %%v%d" % (k, k - 1, k))
    acc_final = "%%acc%d" % k
    return """
@fmt = private constant [4 x i8] c"%d\\0A\\00"
declare i32 @printf(ptr, ...)
define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %t = phi i32 [ 0, %entry ], [ %t.next, %loop ]
  %acc0 = phi i32 [ 0, %entry ], [ %acc.out, %loop ]
""" + "\n".join(lines) + """
  %%acc.out = add i32 %s, 0
  %%a = add i32 %%i, %d
  %%i.next = and i32 %%a, %d
  %%t.next = add i32 %%t, 1
  %%c = icmp ult i32 %%t.next, 300
  br i1 %%c, label %%loop, label %%exit
exit:
  %%r = phi i32 [ %%acc.out, %%loop ]
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %%r)
  ret i32 0
}
""" % (acc_final, step, mask)


@pytest.mark.parametrize("seed", range(12))
def test_random_loops_keep_behaviour(seed: int) -> None:
    require_tools("lli-19", "opt-19")
    text = _random_program(random.Random(seed))
    _opt19(text, "verify")
    before = lli_output(text)
    got, _ = _run_direct(text)
    _opt19(got, "verify")
    assert lli_output(got) == before


# --- random loops through the whole indvars pass (overflow and saturating intrinsics, float
# casts, div/rem, truncs, extensions, an early exit): same lli-19 output as the input --------

_USER_TEMPLATES = [
    "  {n}.e = sext {ty} {a} to i64\n  {n} = trunc i64 {n}.e to {ty}",
    "  {n}.e = zext {ty} {a} to i64\n  {n}.m = mul i64 {n}.e, 5\n  {n} = trunc i64 {n}.m to {ty}",
    "  {n} = add {ty} {a}, {c}",
    "  {n} = sub {ty} {c}, {a}",
    "  {n}.d = or {ty} {a}, 1\n  {n} = {div} {ty} {c2}, {n}.d",
    "  {n} = {div} {ty} {a}, {d}",
    "  {n}.c = icmp {pred} {ty} {a}, {c}\n  {n} = zext i1 {n}.c to {ty}",
    "  {n}.w = call {{{ty}, i1}} @llvm.{ovf}.with.overflow.{ty}({ty} {a}, {ty} {c})\n"
    "  {n}.a = extractvalue {{{ty}, i1}} {n}.w, 0\n  {n}.b = extractvalue {{{ty}, i1}} {n}.w, 1\n"
    "  {n}.z = zext i1 {n}.b to {ty}\n  {n} = add {ty} {n}.a, {n}.z",
    "  {n} = call {ty} @llvm.{sat}.sat.{ty}({ty} {a}, {ty} {c})",
    "  {n}.f = sitofp {ty} {a} to double\n  {n} = fptosi double {n}.f to {ty}",
    "  {n}.t = trunc {ty} {a} to i8\n  {n}.c = icmp slt i8 {n}.t, 20\n  {n} = zext i1 {n}.c to {ty}",
    "  {n} = shl {ty} {a}, {sh}",
    "  {n}.k = and {ty} {b}, 7\n  {n}.s = shl {ty} 255, {n}.k\n  {n}.sa = and {ty} {n}.s, 0\n  {n} = lshr {ty} {n}.sa, 1",
    "  {n}.e = sext {ty} {a} to i64\n  {n}.r = and i64 {n}.e, 63\n  {n}.p = getelementptr inbounds i32, ptr @buf, i64 {n}.r\n"
    "  {n}.l = load i32, ptr {n}.p\n  {n} = {load_cast}",
    "  {n} = mul {ty} {a}, {b}",
    "  {n}.u = udiv {ty} {a}, 4\n  {n} = lshr {ty} {n}.u, 1",
    "  {n} = and {ty} {a}, {mask}",
]
_OVERFLOW = ["sadd", "uadd", "ssub", "usub", "smul", "umul"]
_SATURATING = ["sadd", "uadd", "ssub", "usub"]


def _random_indvars_program(rng: random.Random) -> str:
    """A loop over an i16 or i32 IV (start, step, trip count and increment flags chosen so
    the IV never wraps) whose users are drawn from ``_USER_TEMPLATES`` (no poison-making
    flags on the users), folded into an accumulator printed at the exit."""
    ty = rng.choice(["i16", "i32"])
    start = rng.choice([0, 1, 3, -2, 100])
    step = rng.choice([1, 1, 2, -1, 3])
    end = start + step * rng.randint(1, 30)
    if start >= 0 and step > 0:
        inc_flags = rng.choice(["", "nsw", "nuw", "nuw nsw"])
    else:
        inc_flags = rng.choice(["", "nsw"])
    pred = rng.choice(["slt", "ne"]) if step > 0 else rng.choice(["sgt", "ne"])
    if pred == "ne" and step not in (1, -1):
        pred = "slt" if step > 0 else "sgt"
    body: list[str] = []
    vals = ["%i"]
    for k in range(1, rng.randint(2, 9) + 1):
        n = "%%t%d" % k
        body.append(
            rng.choice(_USER_TEMPLATES).format(
                n=n,
                ty=ty,
                a=rng.choice(vals),
                b=rng.choice(vals),
                c=rng.choice([0, 1, 2, 3, 7, 100, -1, -5]),
                c2=rng.choice([0, 1, 2, 3, 7, 100, -1, -5, 77]),
                d=rng.choice([1, 2, 3, 7, 100, -3]),
                div=rng.choice(["sdiv", "udiv", "srem", "urem"]),
                pred=rng.choice(["slt", "sgt", "ult", "ugt", "eq", "ne", "sle", "uge"]),
                ovf=rng.choice(_OVERFLOW),
                sat=rng.choice(_SATURATING),
                sh=rng.randint(0, 3),
                mask=rng.choice([1, 15, 255]),
                load_cast=("add i32 %s.l, 0" % n) if ty == "i32" else ("trunc i32 %s.l to %s" % (n, ty)),
            )
        )
        vals.append(n)
    acc = "%acc"
    for j, x in enumerate(vals[1:]):
        body.append("  %%h%d.x = xor %s %s, %s\n  %%h%d = mul %s %%h%d.x, 31" % (j, ty, acc, x, j, ty, j))
        acc = "%%h%d" % j
    decls = "".join("declare {%s, i1} @llvm.%s.with.overflow.%s(%s, %s)\n" % (ty, o, ty, ty, ty) for o in _OVERFLOW)
    decls += "".join("declare %s @llvm.%s.sat.%s(%s, %s)\n" % (ty, o, ty, ty, ty) for o in _SATURATING)
    return (
        'target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"\n'
        '@fmt = private constant [11 x i8] c"%lld %lld\\0A\\00"\n'
        "@buf = global [64 x i32] zeroinitializer\n"
        "declare i32 @printf(ptr, ...)\n" + decls + "define i32 @main() {\nentry:\n  br label %loop\nloop:\n"
        + "  %%i = phi %s [ %d, %%entry ], [ %%i.next, %%latch ]\n" % (ty, start)
        + "  %%acc = phi %s [ 0, %%entry ], [ %s, %%latch ]\n" % (ty, acc)
        + "\n".join(body)
        + "\n  %%early = icmp eq %s %s, 12345\n  br i1 %%early, label %%exit, label %%latch\n" % (ty, acc)
        + "latch:\n  %%i.next = add %s %s %%i, %d\n  %%c = icmp %s %s %%i.next, %d\n" % (inc_flags, ty, step, pred, ty, end)
        + "  br i1 %c, label %loop, label %exit\nexit:\n"
        + "  %%r = phi %s [ %s, %%loop ], [ %s, %%latch ]\n" % (ty, acc, acc)
        + "  %%ri = phi %s [ %%i, %%loop ], [ %%i.next, %%latch ]\n" % ty
        + "  %%r64 = sext %s %%r to i64\n  %%ri64 = sext %s %%ri to i64\n" % (ty, ty)
        + "  call i32 (ptr, ...) @printf(ptr @fmt, i64 %r64, i64 %ri64)\n  ret i32 0\n}\n"
    )


@pytest.mark.parametrize("seed", range(200, 212))
def test_random_loops_through_indvars_keep_behaviour(seed: int) -> None:
    import llvmpy_mid

    require_tools("lli-19", "opt-19")
    text = _random_indvars_program(random.Random(seed))
    _opt19(text, "verify")
    before = lli_output(text)
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, "indvars")
    got = print_module(module)
    _opt19(got, "verify")
    assert lli_output(got) == before


# --- the rules on a recurrence IV, through the whole indvars pass, against opt-19 -----------------

THROUGH_HEADER = """target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
declare void @use1(i1)
declare void @use(i32)
declare void @use64(i64)
declare {i32, i1} @llvm.sadd.with.overflow.i32(i32, i32)
declare {i32, i1} @llvm.usub.with.overflow.i32(i32, i32)
declare i32 @llvm.usub.sat.i32(i32, i32)
"""

THROUGH_LOOP = """define void @f(i32 %n, i32 %m, i64 %k) {{
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
{body}
  %i.next = add nuw nsw i32 %i, 1
  %j.next = add nuw nsw i64 %j, 1
  %c = icmp ult i32 %i.next, 1000
  br i1 %c, label %loop, label %exit
exit:
  ret void
}}
"""

THROUGH = {
    "overflow_add_folded": (
        "  %w = call {i32, i1} @llvm.sadd.with.overflow.i32(i32 %i, i32 5)\n"
        "  %w0 = extractvalue {i32, i1} %w, 0\n  %w1 = extractvalue {i32, i1} %w, 1\n"
        "  call void @use(i32 %w0)\n  call void @use1(i1 %w1)"
    ),
    "overflow_usub_kept": (
        "  %w = call {i32, i1} @llvm.usub.with.overflow.i32(i32 %i, i32 5)\n"
        "  %w1 = extractvalue {i32, i1} %w, 1\n  call void @use1(i1 %w1)"
    ),
    "usub_sat_of_increment": "  %a = add i32 %i, 10\n  %s = call i32 @llvm.usub.sat.i32(i32 %a, i32 3)\n  call void @use(i32 %s)",
    "srem_and_sdiv": "  %r = srem i32 %i, %n\n  call void @use(i32 %r)\n  %d = sdiv i32 %i, 7\n  call void @use(i32 %d)",
    "urem_below_divisor": "  %r = urem i32 %i, 1000\n  call void @use(i32 %r)",
    "compares": (
        "  %c1 = icmp ult i32 %i, 1000\n  call void @use1(i1 %c1)\n  %c2 = icmp sgt i32 %i, -1\n"
        "  call void @use1(i1 %c2)\n  %c3 = icmp slt i32 %i, %m\n  call void @use1(i1 %c3)"
    ),
    "float_iv": "  %f = sitofp i32 %i to double\n  %g = fptosi double %f to i64\n  call void @use64(i64 %g)",
    "shl_then_ashr_exact": "  %s = shl i32 %n, %i\n  %t = ashr i32 %s, 0\n  call void @use(i32 %t)",
    "trunc_compared_with_invariants": (
        "  %t = trunc i64 %j to i32\n  %t1 = icmp slt i32 %t, %n\n  call void @use1(i1 %t1)\n"
        "  %t2 = icmp ult i32 %m, %t\n  call void @use1(i1 %t2)\n  %t3 = icmp eq i32 %t, 17\n  call void @use1(i1 %t3)"
    ),
}


@pytest.mark.parametrize("name", sorted(THROUGH))
def test_rule_through_indvars_like_opt19(name: str) -> None:
    import llvmpy_mid

    text = THROUGH_HEADER + THROUGH_LOOP.format(body=THROUGH[name])
    expected = _opt19(text, "indvars")
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, "indvars")
    assert _functions(print_module(module)) == _functions(expected)
