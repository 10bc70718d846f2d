"""Cost of one pattern-match hit and miss (``llvmpy_mid.ir.pattern_match``).

Builds ``%n = sub i32 0, %a`` and ``%r = add i32 %n, %b`` and times, per call:
a 2-level hit ``m_add(m_neg(m_value("a")), m_value("b"))``, a commutative
hit where the first order fails, a 1-level ``m_add(m_value, m_apint)`` hit on
``add %a, 7``, a miss on the opcode, and the same rule written as a ``match``
statement on the instruction classes. The last line, two property reads,
is a yardstick for the machine's speed at the time of the run.

    python benchmarks/bench_pattern_match.py [--n N]
"""

from __future__ import annotations

import argparse
import timeit

from llvmpy_mid.ir import ConstantInt, Context, Function, IRBuilder, Module
from llvmpy_mid.ir.instructions.binary import AddInst, SubInst
from llvmpy_mid.ir.pattern_match import m_add, m_apint, m_c_add, m_neg, m_value, match


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200_000)
    n = ap.parse_args().n
    ctx = Context()
    mod = Module("m", ctx)
    fn = Function(ctx.function_type(ctx.i32, [ctx.i32, ctx.i32]), "f", module=mod)
    b = IRBuilder(fn.append_block("entry"))
    a, y = fn.args
    neg = b.sub(ConstantInt.get(ctx.i32, 0), a)
    add = b.add(neg, y)
    add_rev = b.add(y, neg)
    add_c = b.add(a, ConstantInt.get(ctx.i32, 7))
    mul = b.mul(a, y)
    two = m_add(m_neg(m_value("a")), m_value("b"))
    comm = m_c_add(m_neg(m_value("a")), m_value("b"))
    one = m_add(m_value("x"), m_apint("c"))
    assert match(add, two) is not None and match(add_rev, comm) is not None
    assert match(add_c, one) is not None and match(mul, two) is None

    def stmt(v: object) -> object:
        match v:
            case AddInst(SubInst(ConstantInt(value=0), x), z):
                return (x, z)
        return None

    assert stmt(add) == (a, y)
    cases = [
        ("2-level hit  m_add(m_neg(a), b)", lambda: match(add, two)),
        ("commutative hit, 2nd order", lambda: match(add_rev, comm)),
        ("1-level hit  m_add(x, m_apint)", lambda: match(add_c, one)),
        ("miss on opcode (mul)", lambda: match(mul, two)),
        ("match statement, 2-level hit", lambda: stmt(add)),
        ("reference: add.lhs.rhs (2 props)", lambda: add.lhs.rhs),  # type: ignore[attr-defined]
    ]
    for label, fn_ in cases:
        best = min(timeit.repeat(fn_, number=n, repeat=5))
        print("%-34s %6.3f us" % (label, best / n * 1e6))


if __name__ == "__main__":
    main()
