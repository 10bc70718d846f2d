"""ValueTracking's poison and speculation queries (``llvmpy_mid.analysis.value_tracking``).

Property tests of the rules by exhaustive evaluation on i4: an operation that "cannot create
poison" never yields poison on any non-poison inputs (and for operations on two variables, one
that can does, for some inputs); a value "guaranteed not to be poison" is never poison; integer
division is "safe to speculate" exactly when no numerator makes it undefined, for scalar
divisors and splats (fixed and scalable), and never for a vector divisor that is not a splat
(LLVM asks for a splat). Vector index rules (extractelement/insertelement beyond the element
count, scalable vectors by their minimum count; shufflevector poison lanes), implies_poison's
propagation cases, the depth limit, and the "program undefined if poison" scan. The exit-merge
tests of ``tests/transform/test_loop_simplify.py`` check the same rules against opt-19.
"""

from __future__ import annotations

import pytest

from llvmpy_mid import parse_assembly
from llvmpy_mid.analysis.value_tracking import (
    MAX_ANALYSIS_RECURSION_DEPTH,
    can_create_poison,
    can_create_undef_or_poison,
    get_splat_value,
    implies_poison,
    is_guaranteed_not_to_be_poison,
    is_guaranteed_not_to_be_undef_or_poison,
    is_safe_to_speculatively_execute,
    match_apint,
    program_undefined_if_poison,
    propagates_poison_operand,
)
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value

W = 4
MASK = (1 << W) - 1
POISON = "poison"
UB = "ub"


def _signed(x: int) -> int:
    return x - (1 << W) if x >> (W - 1) else x


def evaluate(op: str, flags: frozenset[str], a: int, b: int) -> int | str:
    """LangRef semantics of ``op flags i4 a, b``: the result, ``POISON`` or ``UB``."""
    sa, sb = _signed(a), _signed(b)
    if op in ("add", "sub", "mul", "shl"):
        if op == "shl":
            if b >= W:
                return POISON
            exact, signed = a << b, sa << b
        elif op == "add":
            exact, signed = a + b, sa + sb
        elif op == "sub":
            exact, signed = a - b, sa - sb
        else:
            exact, signed = a * b, sa * sb
        result = exact & MASK
        if "nuw" in flags and (exact != result if op != "sub" else a < b):
            return POISON
        if "nuw" in flags and op == "shl" and (result >> b) != a:
            return POISON
        if "nsw" in flags and not (-(1 << (W - 1)) <= signed < (1 << (W - 1))):
            return POISON
        if "nsw" in flags and op == "shl" and (_signed(result) >> b) != sa:
            return POISON
        return result
    if op in ("lshr", "ashr"):
        if b >= W:
            return POISON
        result = (a >> b) if op == "lshr" else ((sa >> b) & MASK)
        if "exact" in flags and (a & ((1 << b) - 1)):
            return POISON
        return result
    if op in ("udiv", "urem"):
        if b == 0:
            return UB
        if op == "urem":
            return a % b
        if "exact" in flags and a % b:
            return POISON
        return a // b
    if op in ("sdiv", "srem"):
        if b == 0 or (sa == -(1 << (W - 1)) and sb == -1):
            return UB
        q = abs(sa) // abs(sb) * (1 if (sa < 0) == (sb < 0) else -1)
        r = sa - q * sb
        if op == "srem":
            return r & MASK
        if "exact" in flags and r:
            return POISON
        return q & MASK
    if op == "and":
        return a & b
    if op == "xor":
        return a ^ b
    if op == "or":
        if "disjoint" in flags and a & b:
            return POISON
        return a | b
    raise AssertionError(op)


FLAGS: dict[str, list[frozenset[str]]] = {
    "add": [frozenset(), frozenset({"nuw"}), frozenset({"nsw"}), frozenset({"nuw", "nsw"})],
    "sub": [frozenset(), frozenset({"nuw"}), frozenset({"nsw"}), frozenset({"nuw", "nsw"})],
    "mul": [frozenset(), frozenset({"nuw"}), frozenset({"nsw"}), frozenset({"nuw", "nsw"})],
    "shl": [frozenset(), frozenset({"nuw"}), frozenset({"nsw"})],
    "lshr": [frozenset(), frozenset({"exact"})],
    "ashr": [frozenset(), frozenset({"exact"})],
    "udiv": [frozenset(), frozenset({"exact"})],
    "sdiv": [frozenset(), frozenset({"exact"})],
    "urem": [frozenset()],
    "srem": [frozenset()],
    "and": [frozenset()],
    "or": [frozenset(), frozenset({"disjoint"})],
    "xor": [frozenset()],
}
OP_CASES = [(op, f) for op, fl in FLAGS.items() for f in fl]


def _flag_text(flags: frozenset[str]) -> str:
    return "".join(f + " " for f in sorted(flags, key=["nuw", "nsw", "exact", "disjoint"].index))


def _function(text: str) -> Function:
    module = parse_assembly(text)
    fn = module.get_function("f")
    assert fn is not None
    return fn


def _named(fn: Function, name: str) -> Value:
    for bb in fn.blocks:
        for inst in bb.instructions:
            if inst.name == name:
                return inst
    for arg in fn.args:
        if arg.name == name:
            return arg
    raise KeyError(name)


def _inst(fn: Function, name: str) -> Instruction:
    v = _named(fn, name)
    assert isinstance(v, Instruction)
    return v


def _binop(op: str, flags: frozenset[str], lhs: str, rhs: str, noundef: bool = True) -> Instruction:
    attr = "noundef " if noundef else ""
    fn = _function(
        "define void @f(i4 %s%%a, i4 %s%%b) {\n  %%r = %s %si4 %s, %s\n  ret void\n}\n"
        % (attr, attr, op, _flag_text(flags), lhs, rhs)
    )
    return _inst(fn, "r")


def _results(op: str, flags: frozenset[str], lhs: int | None, rhs: int | None) -> list[int | str]:
    out: list[int | str] = []
    for a in range(1 << W) if lhs is None else [lhs]:
        for b in range(1 << W) if rhs is None else [rhs]:
            out.append(evaluate(op, flags, a, b))
    return out


# --- can_create_poison / is_guaranteed_not_to_be_poison, exhaustively on i4 ----------------------


@pytest.mark.parametrize("op,flags", OP_CASES, ids=["%s%s" % (op, "_" + "_".join(sorted(f)) if f else "") for op, f in OP_CASES])
def test_variable_operands_poison_rule_is_exact(op: str, flags: frozenset[str]) -> None:
    """On two variables: cannot create poison <=> no input pair gives poison; with noundef
    arguments the result is guaranteed not poison exactly when the operation cannot create it."""
    inst = _binop(op, flags, "%a", "%b")
    creates = POISON in _results(op, flags, None, None)
    assert can_create_poison(inst) == creates
    assert is_guaranteed_not_to_be_poison(inst) == (not creates)
    assert is_guaranteed_not_to_be_undef_or_poison(inst) == (not creates)
    # Arguments that may be poison: nothing is guaranteed (no later use makes poison UB).
    assert not is_guaranteed_not_to_be_poison(_binop(op, flags, "%a", "%b", noundef=False))


@pytest.mark.parametrize("op,flags", OP_CASES, ids=["%s%s" % (op, "_" + "_".join(sorted(f)) if f else "") for op, f in OP_CASES])
def test_constant_operand_poison_rule_is_sound(op: str, flags: frozenset[str]) -> None:
    """With a constant operand: whenever the query says the result cannot be poison, no input
    makes it poison; shifts by a constant amount below the width create no poison (without
    flags) and by one at or above it always do."""
    for c in range(1 << W):
        for lhs, rhs, cl, cr in (("%a", str(_signed(c)), None, c), (str(_signed(c)), "%b", c, None)):
            inst = _binop(op, flags, lhs, rhs)
            results = _results(op, flags, cl, cr)
            if is_guaranteed_not_to_be_poison(inst):
                assert POISON not in results, (op, flags, lhs, rhs)
            if not can_create_poison(inst):
                assert POISON not in results, (op, flags, lhs, rhs)
            if op in ("shl", "lshr", "ashr") and not flags and cr is not None:
                assert can_create_poison(inst) == (c >= W)
                assert (POISON in results) == (c >= W)


def test_poison_generating_metadata_and_attributes() -> None:
    fn = _function(
        "declare i4 @g()\n"
        "define void @f(ptr %p) {\n"
        "  %l = load i4, ptr %p, !range !0\n"
        "  %m = load i4, ptr %p\n"
        "  %n = load i4, ptr %p, !noundef !1\n"
        "  %c = call range(i4 0, 3) i4 @g()\n"
        "  %d = call noundef i4 @g()\n"
        "  %e = call i4 @g()\n"
        "  %k = call noundef range(i4 0, 3) i4 @g()\n"
        "  ret void\n}\n"
        "!0 = !{i4 0, i4 3}\n!1 = !{}\n"
    )
    assert can_create_poison(_inst(fn, "l"))
    # A range on a noundef call's return makes poison; without flags and metadata it cannot.
    assert can_create_poison(_inst(fn, "k"))
    assert not can_create_poison(_inst(fn, "k"), consider_flags_and_metadata=False)
    assert is_guaranteed_not_to_be_poison(_inst(fn, "n"))
    assert not is_guaranteed_not_to_be_poison(_inst(fn, "m"))
    assert can_create_poison(_inst(fn, "c"))
    assert not can_create_poison(_inst(fn, "d"))
    assert is_guaranteed_not_to_be_poison(_inst(fn, "d"))
    assert can_create_poison(_inst(fn, "e"))


# --- vector index rules ---------------------------------------------------------------------------


@pytest.mark.parametrize("scalable", [False, True])
def test_extract_and_insert_element_indices(scalable: bool) -> None:
    vty = "<vscale x 4 x i4>" if scalable else "<4 x i4>"
    for index in range(9):
        fn = _function(
            "define void @f(%s noundef %%v, i4 noundef %%x) {\n"
            "  %%e = extractelement %s %%v, i32 %d\n"
            "  %%i = insertelement %s %%v, i4 %%x, i32 %d\n"
            "  ret void\n}\n" % (vty, vty, index, vty, index)
        )
        out_of_range = index >= 4  # the (minimum) element count
        assert can_create_poison(_inst(fn, "e")) == out_of_range
        assert can_create_poison(_inst(fn, "i")) == out_of_range
        assert is_guaranteed_not_to_be_poison(_inst(fn, "e")) == (not out_of_range)
        assert can_create_undef_or_poison(_inst(fn, "e")) == out_of_range


def test_variable_index_and_shuffle_masks() -> None:
    fn = _function(
        "define void @f(<4 x i4> noundef %v, i32 noundef %k) {\n"
        "  %e = extractelement <4 x i4> %v, i32 %k\n"
        "  %s = shufflevector <4 x i4> %v, <4 x i4> %v, <4 x i32> <i32 0, i32 5, i32 2, i32 7>\n"
        "  %t = shufflevector <4 x i4> %v, <4 x i4> %v, <4 x i32> <i32 0, i32 poison, i32 2, i32 7>\n"
        "  ret void\n}\n"
    )
    assert can_create_poison(_inst(fn, "e"))
    assert not can_create_poison(_inst(fn, "s"))
    assert is_guaranteed_not_to_be_poison(_inst(fn, "s"))
    assert can_create_poison(_inst(fn, "t"))


def test_constant_vectors() -> None:
    fn = _function(
        "define void @f() {\n"
        "  %a = add <2 x i4> <i4 1, i4 2>, zeroinitializer\n"
        "  %b = add <2 x i4> <i4 1, i4 poison>, zeroinitializer\n"
        "  %c = add <2 x i4> <i4 1, i4 undef>, zeroinitializer\n"
        "  ret void\n}\n"
    )
    a, b, c = (_inst(fn, n) for n in "abc")
    assert is_guaranteed_not_to_be_poison(a.get_operand(0))
    assert not is_guaranteed_not_to_be_poison(b.get_operand(0))
    assert is_guaranteed_not_to_be_poison(c.get_operand(0))  # undef is not poison
    assert not is_guaranteed_not_to_be_undef_or_poison(c.get_operand(0))
    assert is_guaranteed_not_to_be_poison(a)


# --- speculation of division ------------------------------------------------------------------------


def _division(op: str, divisor: str, numerator: str = "%a", vty: str = "i4") -> Instruction:
    fn = _function("define void @f(%s %%a) {\n  %%r = %s %s %s, %s\n  ret void\n}\n" % (vty, op, vty, numerator, divisor))
    return _inst(fn, "r")


def _scalable_splat(value: int) -> str:
    return (
        "shufflevector (<vscale x 2 x i4> insertelement (<vscale x 2 x i4> poison, i4 %d, i64 0),"
        " <vscale x 2 x i4> poison, <vscale x 2 x i32> zeroinitializer)" % value
    )


@pytest.mark.parametrize("op", ["udiv", "urem", "sdiv", "srem"])
def test_division_speculation_matches_semantics(op: str) -> None:
    """Safe to speculate <=> no numerator makes the division undefined; the same for a fixed
    splat and a scalable splat of the divisor; never for a non-splat vector divisor."""
    for d in range(1 << W):
        never_ub = all(evaluate(op, frozenset(), a, d) != UB for a in range(1 << W))
        sd = _signed(d)
        assert is_safe_to_speculatively_execute(_division(op, str(sd))) == never_ub, (op, sd)
        splat = "<i4 %d, i4 %d>" % (sd, sd)
        assert is_safe_to_speculatively_execute(_division(op, splat, vty="<2 x i4>")) == never_ub
        scal = _scalable_splat(sd)
        assert is_safe_to_speculatively_execute(_division(op, scal, vty="<vscale x 2 x i4>")) == never_ub
        other = _signed((d + 1) & MASK)
        mixed = "<i4 %d, i4 %d>" % (sd, other)
        assert not is_safe_to_speculatively_execute(_division(op, mixed, vty="<2 x i4>"))
        # A constant numerator: safe exactly when this numerator is defined.
        for n in range(1 << W):
            defined = evaluate(op, frozenset(), n, d) != UB
            assert is_safe_to_speculatively_execute(_division(op, str(sd), str(_signed(n)))) == defined


def test_other_speculation_rules() -> None:
    fn = _function(
        "declare i4 @pure() speculatable\n"
        "declare i4 @g()\n"
        "define void @f(ptr %p, i4 %a) {\n"
        "  %x = add i4 %a, 1\n"
        "  %l = load i4, ptr %p\n"
        "  %c = call i4 @pure()\n"
        "  %d = call i4 @g()\n"
        "  %s = alloca i4\n"
        "  ret void\n}\n"
    )
    assert is_safe_to_speculatively_execute(_inst(fn, "x"))
    assert not is_safe_to_speculatively_execute(_inst(fn, "l"))
    assert is_safe_to_speculatively_execute(_inst(fn, "c"))
    assert not is_safe_to_speculatively_execute(_inst(fn, "d"))
    assert not is_safe_to_speculatively_execute(_inst(fn, "s"))


def test_splat_values() -> None:
    fn = _function(
        "define void @f(<2 x i4> %v, <vscale x 2 x i4> %w) {\n"
        "  %a = add <2 x i4> %v, <i4 3, i4 3>\n"
        "  %b = add <2 x i4> %v, <i4 3, i4 4>\n"
        "  %c = add <2 x i4> %v, zeroinitializer\n"
        "  %d = add <vscale x 2 x i4> %w, " + _scalable_splat(5) + "\n"
        "  ret void\n}\n"
    )
    for name, expected in (("a", 3), ("b", None), ("c", 0), ("d", 5)):
        op = _inst(fn, name).get_operand(1)
        m = match_apint(op)
        assert (m.value if m is not None else None) == expected
        splat = get_splat_value(op)  # type: ignore[arg-type]
        assert (splat is None) == (expected is None)
        if expected is not None:
            assert isinstance(splat, ConstantInt) and splat.value == expected


# --- implies_poison, propagation, depth, later undefined behaviour -------------------------------


def test_implies_poison_cases() -> None:
    fn = _function(
        "define void @f(i4 %x, i1 %b) {\n"
        "  %y = add i4 %x, 1\n"
        "  %c = icmp eq i4 %y, 0\n"
        "  %s = select i1 %b, i4 %x, i4 0\n"
        "  %t = select i1 %c, i4 0, i4 1\n"
        "  %z = freeze i4 %x\n"
        "  %n = icmp eq i4 %z, 0\n"
        "  ret void\n}\n"
    )
    x, y, c, s, t, n = (_named(fn, k) for k in ("x", "y", "c", "s", "t", "n"))
    assert implies_poison(x, c)  # x -> y -> c, each propagating
    assert implies_poison(y, c)
    assert not implies_poison(x, s)  # a select arm does not propagate
    assert implies_poison(c, t)  # the select condition does
    assert not implies_poison(x, n)  # freeze stops poison
    # c cannot create poison, so c poison means x (its only variable source) is: x poison -> y.
    assert implies_poison(c, y)
    assert propagates_poison_operand(_inst(fn, "s"), 0)
    assert not propagates_poison_operand(_inst(fn, "s"), 1)


def _chain(length: int) -> Function:
    lines = ["define void @f(i4 noundef %a) {", "  %r0 = add i4 %a, 1"]
    lines += ["  %%r%d = add i4 %%r%d, 1" % (k, k - 1) for k in range(1, length)]
    lines += ["  ret void", "}", ""]
    return _function("\n".join(lines))


def test_depth_limit() -> None:
    """The proof follows operands MAX_ANALYSIS_RECURSION_DEPTH (6) levels, as LLVM: the argument
    is reached from the fifth add of a chain, not from the sixth; a long chain answers at once."""
    assert MAX_ANALYSIS_RECURSION_DEPTH == 6
    fn = _chain(6)
    assert is_guaranteed_not_to_be_poison(_named(fn, "r4"))
    assert not is_guaranteed_not_to_be_poison(_named(fn, "r5"))
    long_chain = _chain(5000)
    assert not is_guaranteed_not_to_be_poison(_named(long_chain, "r4999"))


def test_program_undefined_if_poison() -> None:
    fn = _function(
        "declare void @g()\n"
        "declare void @h() willreturn nounwind\n"
        "define void @f(i4 %a, i4 %b, i4 %c) {\n"
        "  %x = add nsw i4 %a, %b\n"
        "  %y = add i4 %x, 1\n"
        "  %q = udiv i4 1, %y\n"
        "  %u = add nsw i4 %a, %c\n"
        "  call void @g()\n"
        "  %v = udiv i4 1, %u\n"
        "  %w = add nsw i4 %b, %c\n"
        "  call void @h()\n"
        "  %z = udiv i4 1, %w\n"
        "  ret void\n}\n"
    )
    # A later division by a value x poisons is undefined if x is poison.
    assert program_undefined_if_poison(_named(fn, "x"))
    assert is_guaranteed_not_to_be_poison(_named(fn, "x"))
    # ...but not across a call that may not return.
    assert not program_undefined_if_poison(_named(fn, "u"))
    assert not is_guaranteed_not_to_be_poison(_named(fn, "u"))
    # A call that returns and does not throw is no barrier.
    assert program_undefined_if_poison(_named(fn, "w"))
