"""``sccp`` and its lattice: property tests of ``ValueLatticeElement`` and identity with opt-19.

* The lattice: on random i4 elements (unknown, undef, single constants, ranges, with or
  without undef, overdefined) a merge is sound (it covers both sides), monotone (merging
  either side again changes nothing) and commutative up to the tie-breaking of LLVM's range union;
  ``get_compare`` only answers what every pair of values in the two ranges agrees on.
* The pass: small hand-made functions and csmith programs (clang-19 -O0, promoted by
  opt-19's mem2reg) give the text opt-19 gives.
"""

from __future__ import annotations

import glob
import os
import random
import subprocess

import pytest
from opt_oracle import assert_same_as_opt, body, ours_text
from oracles import require_tools

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.value_lattice import MergeOptions, ValueLatticeElement
from llvmpy_mid.ir.constants import ConstantInt, UndefValue
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.instructions.cmp import Predicate

W = 4
ALL = range(1 << W)
CTX = Context()
I4 = CTX.int_type(W)


def _random_element(rng: random.Random) -> ValueLatticeElement:
    kind = rng.randrange(7)
    if kind == 0:
        return ValueLatticeElement()
    if kind == 1:
        return ValueLatticeElement.get(UndefValue.get(I4))
    if kind == 2:
        return ValueLatticeElement.get(ConstantInt.get(I4, rng.randrange(16)))
    if kind == 6:
        return ValueLatticeElement.get_overdefined()
    lo = rng.randrange(16)
    hi = rng.randrange(16)
    if lo == hi:
        hi = (lo + 1) % 16
    return ValueLatticeElement.get_range(ConstantRange(W, lo, hi), may_include_undef=kind == 5)


def _values(e: ValueLatticeElement) -> tuple[frozenset[int], bool]:
    """What ``e`` stands for: (its integers, whether it may also be undef); overdefined is everything."""
    if e.is_unknown():
        return frozenset(), False
    if e.is_undef():
        return frozenset(), True
    if e.is_overdefined():
        return frozenset(ALL), True
    r = e.get_constant_range()
    return frozenset(v for v in ALL if r.contains(v)), e.is_constant_range_including_undef()


def _merged(a: ValueLatticeElement, b: ValueLatticeElement, opts: MergeOptions | None = None) -> ValueLatticeElement:
    out = a.copy()
    out.merge_in(b, opts)
    return out


def test_merge_is_sound_monotone_and_commutative() -> None:
    rng = random.Random(1913)
    for _ in range(3000):
        a = _random_element(rng)
        b = _random_element(rng)
        ab = _merged(a, b)
        ba = _merged(b, a)
        va, ua = _values(a)
        vb, ub = _values(b)
        vab, uab = _values(ab)
        # Sound: the join stands for every value of either side.
        assert va | vb <= vab, (a, b, ab)
        assert uab or not (ua or ub) or ab.is_overdefined() or ab.is_constant_range(), (a, b, ab)
        # Monotone: merging either side into the join again changes nothing.
        again = ab.copy()
        assert not again.merge_in(a) and not again.merge_in(b), (a, b, ab)
        assert again == ab
        # Commutative: both orders stand for as many values (LLVM's union of two
        # disjoint ranges breaks a tie between the two smallest covers by operand order).
        assert len(_values(ba)[0]) == len(vab), (a, b, ab, ba)
        assert ab.tag == ba.tag, (a, b, ab, ba)


def test_merge_reports_change_exactly() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        a = _random_element(rng)
        b = _random_element(rng)
        before = a.copy()
        changed = a.merge_in(b)
        assert changed == (a != before), (before, b, a)


def test_widening_goes_overdefined_after_max_steps() -> None:
    e = ValueLatticeElement.get_range(ConstantRange(W, 0, 1))
    opts = MergeOptions().set_max_widen_steps(2)
    assert e.merge_in(ValueLatticeElement.get_range(ConstantRange(W, 0, 2)), opts.copy())
    assert e.merge_in(ValueLatticeElement.get_range(ConstantRange(W, 0, 3)), opts.copy())
    assert e.is_constant_range()
    assert e.merge_in(ValueLatticeElement.get_range(ConstantRange(W, 0, 4)), opts.copy())
    assert e.is_overdefined()


INT_PREDICATES = [p for p in Predicate if p.is_int_predicate]


def _icmp(pred: Predicate, a: int, b: int) -> bool:
    sa = a - 16 if a >= 8 else a
    sb = b - 16 if b >= 8 else b
    return {
        Predicate.ICMP_EQ: a == b,
        Predicate.ICMP_NE: a != b,
        Predicate.ICMP_UGT: a > b,
        Predicate.ICMP_UGE: a >= b,
        Predicate.ICMP_ULT: a < b,
        Predicate.ICMP_ULE: a <= b,
        Predicate.ICMP_SGT: sa > sb,
        Predicate.ICMP_SGE: sa >= sb,
        Predicate.ICMP_SLT: sa < sb,
        Predicate.ICMP_SLE: sa <= sb,
    }[pred]


def test_get_compare_is_sound_on_ranges() -> None:
    rng = random.Random(99)
    dl = DataLayout.default()
    for _ in range(1500):
        a = _random_element(rng)
        b = _random_element(rng)
        pred = rng.choice(INT_PREDICATES)
        c = a.get_compare(pred, CTX.i1, b, dl)
        if c is None:
            continue
        assert not a.is_unknown_or_undef() and not b.is_unknown_or_undef()
        va, _ = _values(a)
        vb, _ = _values(b)
        want = c.value == 1  # type: ignore[attr-defined]
        for x in va:
            for y in vb:
                assert _icmp(pred, x, y) == want, (a, pred, b, c)


# --- the pass against opt-19 -------------------------------------------------------------

SMALL = """
define i32 @diamond(i1 %c) {
entry:
  br i1 true, label %a, label %b
a:
  %x = add i32 1, 2
  br label %m
b:
  %y = add i32 3, 4
  br label %m
m:
  %p = phi i32 [ %x, %a ], [ %y, %b ]
  %q = sext i32 %p to i64
  %r = trunc i64 %q to i32
  ret i32 %r
}

define i32 @loop(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %loop ]
  %inc = add i32 %i, 1
  %c = icmp ult i32 %inc, 100
  br i1 %c, label %loop, label %exit
exit:
  %s = sext i32 %inc to i64
  %d = sdiv i32 %inc, 2
  ret i32 %d
}

define i64 @signed_to_unsigned(i8 %x, i1 %c) {
entry:
  %a = zext i8 %x to i32
  %b = and i32 %a, 127
  %s = sext i32 %b to i64
  %sh = ashr i32 %b, 2
  %dv = sdiv i32 %b, 3
  %rm = srem i32 %b, 5
  %f = sitofp i32 %b to float
  %t = trunc i32 %b to i8
  %add = add i32 %b, %sh
  %mul = mul i32 %b, 3
  %sum = add i32 %add, %mul
  %sum2 = add i32 %sum, %dv
  %sum3 = add i32 %sum2, %rm
  %z = zext i32 %sum3 to i64
  %r = add i64 %s, %z
  ret i64 %r
}

define i32 @switch_ranges(i8 %x) {
entry:
  %a = and i8 %x, 3
  switch i8 %a, label %d [ i8 0, label %z
                           i8 1, label %o
                           i8 9, label %n ], !prof !0
z:
  ret i32 0
o:
  ret i32 1
n:
  ret i32 9
d:
  %p = phi i32 [ 5, %entry ]
  ret i32 %p
}

define i32 @undef_branch(i32 %x) {
entry:
  br i1 undef, label %a, label %b
a:
  ret i32 1
b:
  ret i32 2
}

define i32 @select_and_overflow(i32 %x, i1 %c) {
  %a = and i32 %x, 255
  %s = select i1 %c, i32 %a, i32 7
  %wo = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 %s, i32 1)
  %o = extractvalue { i32, i1 } %wo, 1
  %v = extractvalue { i32, i1 } %wo, 0
  %m = call i32 @llvm.umin.i32(i32 %v, i32 300)
  %cmp = icmp ult i32 %m, 300
  %z = zext i1 %o to i32
  %r = select i1 %cmp, i32 %m, i32 %z
  ret i32 %r
}

define ptr @struct_and_ptr(ptr %p) {
  %ins = insertvalue { i32, ptr } undef, i32 4, 0
  %ins2 = insertvalue { i32, ptr } %ins, ptr null, 1
  %e = extractvalue { i32, ptr } %ins2, 1
  ret ptr %e
}

declare { i32, i1 } @llvm.uadd.with.overflow.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)

!0 = !{!"branch_weights", i32 1, i32 2, i32 3, i32 4}
"""


def test_small_functions_as_opt19() -> None:
    assert_same_as_opt(SMALL, "sccp")


def test_dead_blocks_and_debug_records_as_opt19() -> None:
    text = """
define i32 @f(i32 %x) !dbg !4 {
entry:
  %a = and i32 %x, 15
    #dbg_value(i32 %a, !9, !DIExpression(), !10)
  %s = sext i32 %a to i64, !dbg !10
    #dbg_value(i64 %s, !9, !DIExpression(), !10)
  %t = trunc i64 %s to i32
  %c = icmp ugt i32 %a, 20
    #dbg_value(i1 %c, !9, !DIExpression(), !10)
  br i1 %c, label %dead, label %live, !dbg !10
dead:
  %u = add i32 %a, 1
  br label %live
live:
  %p = phi i32 [ %t, %entry ], [ %u, %dead ]
  ret i32 %p
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "a.c", directory: "/")
!2 = !{}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!5 = !DISubroutineType(types: !6)
!6 = !{!7}
!7 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocalVariable(name: "a", scope: !4, file: !1, line: 1, type: !7)
!10 = !DILocation(line: 1, column: 1, scope: !4)
"""
    assert_same_as_opt(text, "sccp")


def _csmith_files() -> list[str]:
    return sorted(glob.glob(os.path.expanduser("~/.cache/llvmpy-mid/csmith-*/w*/*.O0.ll")))


def _csmith_check(path: str) -> None:
    require_tools("opt-19")
    ssa = subprocess.run(["opt-19", "-passes=mem2reg", "-S", path], capture_output=True, text=True, check=True).stdout
    expected = subprocess.run(
        ["opt-19", "-passes=sccp", "-S", "-"], input=ssa, capture_output=True, text=True, check=True
    ).stdout
    assert body(ours_text(ssa, "sccp")) == body(expected)


@pytest.mark.parametrize("index", range(3))
def test_csmith_sample_as_opt19(index: int) -> None:
    files = _csmith_files()
    if len(files) <= index:
        pytest.skip("no csmith corpus (scripts/make-csmith-corpus.sh)")
    _csmith_check(files[index * 7 % len(files)])


@pytest.mark.slow
def test_csmith_all_as_opt19() -> None:
    files = _csmith_files()
    if not files:
        pytest.skip("no csmith corpus (scripts/make-csmith-corpus.sh)")
    failed = []
    for path in files:
        try:
            _csmith_check(path)
        except AssertionError:
            failed.append(path)
    assert not failed, failed


# --- the interprocedural side of the solver (what ipsccp drives) ---------------------------

IPO = """
@g = internal global i32 5

define internal i32 @callee(i32 %a) {
  %s = add i32 %a, 1
  store i32 7, ptr @g
  ret i32 %s
}

define internal { i32, i8 } @pair(i32 %a) {
  %p = insertvalue { i32, i8 } undef, i32 %a, 0
  %q = insertvalue { i32, i8 } %p, i8 3, 1
  ret { i32, i8 } %q
}

define i32 @caller() {
  %r = call i32 @callee(i32 41)
  %v = load i32, ptr @g
  %p = call { i32, i8 } @pair(i32 9)
  %e = extractvalue { i32, i8 } %p, 1
  ret i32 %r
}
"""


def test_solver_tracks_returns_arguments_and_globals() -> None:
    from llvmpy_mid.asm import parse_assembly
    from llvmpy_mid.transform.utils.sccp_solver import SCCPSolver

    module = parse_assembly(IPO)
    callee = module.get_function("callee")
    pair = module.get_function("pair")
    caller = module.get_function("caller")
    g = module.get_global("g")
    assert callee is not None and pair is not None and caller is not None and g is not None
    solver = SCCPSolver(module.data_layout)
    for fn in (callee, pair):
        solver.add_tracked_function(fn)
        solver.add_argument_tracked_function(fn)
    solver.track_value_of_global_variable(g)
    solver.mark_block_executable(caller.blocks.first)  # type: ignore[arg-type]
    solver.solve_while_resolved_undefs_in([caller, callee, pair])

    assert solver.is_block_executable(callee.blocks.first)  # type: ignore[arg-type]
    ret = solver.get_tracked_ret_vals()[callee]
    assert ret.as_constant_integer() == 42
    call = caller.blocks.first.first_instruction  # type: ignore[union-attr]
    assert solver.get_lattice_value_for(call).as_constant_integer() == 42  # type: ignore[arg-type]
    # The global holds 5 or 7: a range, not a constant, and the load sees it.
    load = call._next  # type: ignore[union-attr]
    rng = solver.get_lattice_value_for(load).get_constant_range()  # type: ignore[arg-type]
    assert rng.contains(5) and rng.contains(7) and not rng.contains(8)
    # Struct returns are tracked per field.
    assert solver.is_struct_lattice_constant(pair, pair.return_type)
    fields = [solver.tracked_multiple_ret_vals[(pair, i)].as_constant_integer() for i in range(2)]
    assert fields == [9, 3]


# --- refinement on random straight-line programs, by exhaustive evaluation ------------------

_POISON = None


def _random_program(rng: random.Random) -> str:
    """One i4 argument, a chain of integer operations (i4, some through i8), returning i4."""
    lines = ["define i4 @f(i4 %x) {"]
    vals = ["%x"]
    wide: list[str] = []
    for k in range(rng.randrange(3, 9)):
        name = "%%v%d" % k
        kind = rng.randrange(10)
        a = rng.choice(vals)
        b = rng.choice(vals + [str(rng.randrange(-8, 8))])
        if kind < 4:
            op = rng.choice(["add", "sub", "mul", "and", "or", "xor"])
            flags = rng.choice(["", "", "nsw ", "nuw "]) if op in ("add", "sub", "mul") else ""
            lines.append("  %s = %s %si4 %s, %s" % (name, op, flags, a, b))
        elif kind == 4:
            op = rng.choice(["shl", "lshr", "ashr"])
            lines.append("  %s = %s i4 %s, %d" % (name, op, a, rng.randrange(4)))
        elif kind == 5:
            op = rng.choice(["udiv", "sdiv", "urem", "srem"])
            lines.append("  %s = %s i4 %s, %d" % (name, op, a, rng.randrange(1, 8)))
        elif kind == 6:
            c = rng.choice(["eq", "ne", "ult", "slt", "ugt", "sge"])
            cname = "%%c%d" % k
            lines.append("  %s = icmp %s i4 %s, %s" % (cname, c, a, b))
            lines.append("  %s = select i1 %s, i4 %s, i4 %s" % (name, cname, a, rng.choice(vals)))
        elif kind == 7:
            w = "%%w%d" % k
            lines.append("  %s = %s i4 %s to i8" % (w, rng.choice(["sext", "zext"]), a))
            wide.append(w)
            lines.append("  %s = trunc i8 %s to i4" % (name, w))
        elif kind == 8:
            lines.append("  %s = and i4 %s, %d" % (name, a, rng.randrange(8)))
        else:
            lines.append("  %s = call i4 @llvm.%s.i4(i4 %s, i4 %s)" % (name, rng.choice(["umin", "smax"]), a, b))
        vals.append(name)
    lines.append("  ret i4 %s" % vals[-1])
    lines.append("}")
    lines.append("declare i4 @llvm.umin.i4(i4, i4)")
    lines.append("declare i4 @llvm.smax.i4(i4, i4)")
    return "\n".join(lines) + "\n"


def _sx(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) else v


def _evaluate(fn: object, x: int) -> int | None:
    """The value ``fn`` returns for ``x``; None when it is poison."""
    env: dict[object, int | None] = {fn.args[0]: x}  # type: ignore[attr-defined]

    def val(v: object) -> int | None:
        if isinstance(v, ConstantInt):
            return v.value
        if isinstance(v, UndefValue):
            return _POISON
        return env[v]

    for inst in fn.blocks.first:  # type: ignore[attr-defined]
        op = inst.opcode
        uses = inst._operands[:-1] if op == "call" else inst._operands
        ops = [val(u.value) for u in uses]
        if op == "ret":
            return ops[0]
        w = inst.type.width
        m = (1 << w) - 1
        if any(o is None for o in ops):
            env[inst] = _POISON
            continue
        r: int | None
        if op in ("add", "sub", "mul"):
            a, b = ops
            exact = {"add": a + b, "sub": a - b, "mul": a * b}[op]
            sexact = {"add": _sx(a, w) + _sx(b, w), "sub": _sx(a, w) - _sx(b, w), "mul": _sx(a, w) * _sx(b, w)}[op]
            r = exact & m
            if (inst.nuw and exact != r) or (inst.nsw and sexact != _sx(r, w)):
                r = _POISON
        elif op in ("and", "or", "xor"):
            a, b = ops
            r = {"and": a & b, "or": a | b, "xor": a ^ b}[op]
        elif op in ("shl", "lshr", "ashr"):
            a, b = ops
            if b >= w:
                r = _POISON
            elif op == "shl":
                r = (a << b) & m
                if (inst.nuw and (a << b) >> b != a) or (inst.nsw and _sx(r, w) >> b != _sx(a, w)):
                    r = _POISON
            else:
                r = (a >> b) if op == "lshr" else (_sx(a, w) >> b) & m
                if inst.exact and ((a >> b) << b) != a:
                    r = _POISON
        elif op in ("udiv", "urem"):
            a, b = ops
            r = a // b if op == "udiv" else a % b
            if op == "udiv" and inst.exact and a % b:
                r = _POISON
        elif op in ("sdiv", "srem"):
            a, b = _sx(ops[0], w), _sx(ops[1], w)
            q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
            r = (q if op == "sdiv" else a - q * b) & m
            if op == "sdiv" and inst.exact and a - q * b:
                r = _POISON
        elif op == "icmp":
            r = int(_icmp(inst.predicate, ops[0], ops[1]))
        elif op == "select":
            r = ops[1] if ops[0] else ops[2]
        elif op in ("sext", "zext", "trunc"):
            a = ops[0]
            sw = inst._operands[0].value.type.width
            if op == "sext":
                r = _sx(a, sw) & m
            elif op == "zext":
                r = a
                if inst.nneg and a >> (sw - 1):
                    r = _POISON
            else:
                r = a & m
                if (inst.nuw and r != a) or (inst.nsw and _sx(r, w) != _sx(a, sw)):
                    r = _POISON
        elif op == "call":
            a, b = ops
            name = inst.called_function.name
            r = min(a, b) if "umin" in name else max(_sx(a, w), _sx(b, w)) & m
        else:  # pragma: no cover - the generator makes nothing else
            raise AssertionError(op)
        env[inst] = r
    raise AssertionError("no ret")


def test_sccp_refines_random_programs() -> None:
    """Wherever the original function is not poison, the optimised one returns the same value."""
    from llvmpy_mid import run_passes
    from llvmpy_mid.asm import parse_assembly

    rng = random.Random(2024)
    defined = 0
    for _ in range(250):
        text = _random_program(rng)
        before = parse_assembly(text).get_function("f")
        module = parse_assembly(text)
        run_passes(module, "sccp")
        after = module.get_function("f")
        for x in ALL:
            want = _evaluate(before, x)
            if want is not _POISON:
                defined += 1
                assert _evaluate(after, x) == want, (text, str(module), x)
    assert defined > 250 * 16 // 2  # most inputs are defined: the check has teeth


# --- random control flow: loops, phis, branches and switches on ranges, against opt-19 ------


def _random_cfg(rng: random.Random) -> str:
    """A function of ``%x``/``%y`` (i8) over a random CFG: each block computes from values of
    blocks that dominate it (its phis merge the predecessors' counters), then branches on a
    comparison, switches on a masked value, or jumps (back edges make loops)."""
    n = rng.randrange(3, 8)
    preds: dict[int, list[int]] = {i: [] for i in range(n)}
    terms: list[tuple[str, list[int], list[int]]] = []
    for i in range(n - 1):
        kind = rng.randrange(4)
        fwd = list(range(i + 1, n))
        values: list[int] = []
        if kind == 0:
            succs = [i + 1]
        elif kind == 1:
            succs = [rng.choice(fwd), rng.randrange(1, n)]
        elif kind == 2:
            succs = [i + 1, rng.choice(fwd)]
        else:
            succs = [i + 1]
            for _ in range(rng.randrange(1, 4)):
                v = rng.randrange(0, 9)
                if v not in values:
                    values.append(v)
                    succs.append(rng.choice(fwd))
        terms.append(("br" if kind < 3 else "switch", succs, values))
        for succ in succs:  # one phi entry per edge, as the verifier wants
            preds[succ].append(i)
    lines = ["define i8 @f(i8 %x, i8 %y) {", "b0:", "  br label %b0.body"]
    # Each block i has a counter %k<i>: a phi of its predecessors' counters (entry: a masked %x).
    body: list[str] = []
    for i in range(n):
        label = "b%d.body" % i if i == 0 else "b%d" % i
        body.append("%s:" % label)
        if i == 0:
            body.append("  %%k0 = and i8 %%x, %d" % rng.choice([3, 7, 15, 127]))
        else:
            incoming = []
            for p in preds[i]:
                src = "%%b%d" % p if p else "%b0.body"
                incoming.append("[ %%n%d, %s ]" % (p, src))
            if not incoming:
                body.append("  %%k%d = add i8 %%y, 0" % i)
            else:
                body.append("  %%k%d = phi i8 %s" % (i, ", ".join(incoming)))
        op = rng.choice(["add nuw", "add", "sub", "mul", "and", "or", "shl", "udiv", "lshr", "srem"])
        amount = rng.choice([1, 2, 3, "%y"]) if op not in ("udiv", "srem") else rng.choice([1, 2, 3, 5])
        body.append("  %%n%d = %s i8 %%k%d, %s" % (i, op, i, amount))
        if i == n - 1:
            body.append("  ret i8 %%n%d" % i)
            continue
        kind, succs, values = terms[i]
        names = ["%%b%d" % succ for succ in succs]
        if kind == "br" and len(succs) == 1:
            body.append("  br label %s" % names[0])
        elif kind == "br":
            pred = rng.choice(["ult", "slt", "eq", "ne", "ugt"])
            body.append("  %%c%d = icmp %s i8 %%n%d, %d" % (i, pred, i, rng.randrange(0, 20)))
            body.append("  br i1 %%c%d, label %s, label %s" % (i, names[0], names[1]))
        else:
            body.append("  %%m%d = and i8 %%n%d, %d" % (i, i, rng.choice([1, 3, 7])))
            cases = " ".join("i8 %d, label %s" % (v, name) for v, name in zip(values, names[1:]))
            body.append("  switch i8 %%m%d, label %s [ %s ]" % (i, names[0], cases))
    return "\n".join(lines + body + ["}"]) + "\n"


def _valid_ir(text: str) -> bool:
    require_tools("opt-19")
    return subprocess.run(["opt-19", "-passes=verify", "-disable-output", "-"], input=text, capture_output=True, text=True).returncode == 0


@pytest.mark.parametrize("seed", range(12))
def test_random_cfg_as_opt19(seed: int) -> None:
    rng = random.Random(seed * 7919)
    for _ in range(4):
        text = _random_cfg(rng)
        if _valid_ir(text):
            assert_same_as_opt(text, "sccp")


def test_statistics_count_llvms_events() -> None:
    """LLVM's three sccp counters: dead blocks, removed and replaced instructions."""
    from llvmpy_mid import run_passes
    from llvmpy_mid.asm import parse_assembly

    text = """
define i32 @f(i32 %x) {
entry:
  %a = and i32 %x, 7
  %s = sext i32 %a to i64
  %c = icmp ugt i32 %a, 9
  br i1 %c, label %dead, label %live
dead:
  %u = add i32 %a, 1
  br label %live
live:
  %p = phi i32 [ 0, %entry ], [ %u, %dead ]
  ret i32 %p
}
"""
    counts = run_passes(parse_assembly(text), "sccp").statistics
    assert counts.get("sccp.NumDeadBlocks") == 1
    # %c and %p become constants; %u and the branch go with the dead block.
    assert counts.get("sccp.NumInstRemoved") == 4
    assert counts.get("sccp.NumInstReplaced") == 1  # sext -> zext nneg
