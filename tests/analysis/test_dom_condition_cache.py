"""DomConditionCache: known bits from the conditions of registered dominating branches."""

from __future__ import annotations

from llvmpy_mid import parse_assembly
from llvmpy_mid.analysis.dom_condition_cache import DomConditionCache
from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.dominators import DominatorTree

TEXT = """
define i32 @f(i32 %x) {
entry:
  %low = and i32 %x, 1
  %even = icmp eq i32 %low, 0
  br i1 %even, label %e, label %o
e:
  %a = lshr i32 %x, 1
  br label %m
o:
  %b = lshr i32 %x, 1
  br label %m
m:
  %r = phi i32 [ %a, %e ], [ %b, %o ]
  %c = lshr i32 %x, 2
  ret i32 %r
}
"""


def _setup():  # type: ignore[no-untyped-def]
    m = parse_assembly(TEXT)
    fn = m.get_function("f")
    assert fn is not None
    blocks = {bb.name: bb for bb in fn.blocks}
    insts = {i.name: i for bb in fn.blocks for i in bb.instructions if i.name}
    x = fn.args[0]
    dt = DominatorTree(fn)
    return m, blocks, insts, x, dt


def test_true_and_false_edges_give_the_low_bit() -> None:
    m, blocks, insts, x, dt = _setup()
    dc = DomConditionCache()
    dc.register_branch(blocks["entry"].terminator)  # type: ignore[arg-type]
    q = SimplifyQuery(m.data_layout, dt=dt, dc=dc)
    on_even = compute_known_bits(x, q.get_with_instruction(insts["a"]))
    assert on_even.zero & 1 and not on_even.one & 1
    on_odd = compute_known_bits(x, q.get_with_instruction(insts["b"]))
    assert on_odd.one & 1 and not on_odd.zero & 1
    # after the join neither edge dominates: nothing known
    joined = compute_known_bits(x, q.get_with_instruction(insts["c"]))
    assert not (joined.zero | joined.one) & 1


def test_nothing_without_the_cache_or_registration() -> None:
    m, blocks, insts, x, dt = _setup()
    plain = SimplifyQuery(m.data_layout, dt=dt).get_with_instruction(insts["a"])
    assert not (compute_known_bits(x, plain).zero & 1)
    empty = SimplifyQuery(m.data_layout, dt=dt, dc=DomConditionCache()).get_with_instruction(insts["a"])
    assert not (compute_known_bits(x, empty).zero & 1)


def test_cache_records_affected_values_once() -> None:
    _m, blocks, insts, x, _dt = _setup()
    dc = DomConditionCache()
    br = blocks["entry"].terminator
    dc.register_branch(br)  # type: ignore[arg-type]
    dc.register_branch(br)  # type: ignore[arg-type]
    assert dc.conditions_for(x) == [br]
    assert dc.conditions_for(insts["low"]) == [br]
    dc.remove_value(x)
    assert dc.conditions_for(x) == []
