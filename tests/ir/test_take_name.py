"""``Value.take_name`` follows LLVM ``Value::takeName`` (lib/IR/Value.cpp):

- the name moves exactly (no uniquing suffix) when both values live in one table, and the
  table then maps it to the new value;
- a taker with a name of its own loses it first; when the giver is unnamed the taker ends
  unnamed;
- a taker outside any table keeps the exact name, uniqued only when inserted;
- a value that cannot be named (a non-global constant) takes nothing, but the giver still
  loses its name.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.errors import IRError
from llvmpy_mid.ir import ConstantInt, Function, Instruction, Value

_SRC = """
define i32 @f(i32 %a, i32 %b) {
entry:
  %x = add i32 %a, %b
  %y = mul i32 %x, %b
  %0 = sub i32 %y, %a
  %x1 = xor i32 %0, %a
  store i32 %x1, ptr null
  ret i32 %x1
}
"""


def _fn() -> Function:
    fn = parse_assembly(_SRC).get_function("f")
    assert fn is not None
    return fn


def _inst(fn: Function, name: str) -> Instruction:
    v = fn.symbol_table.lookup(name)
    assert isinstance(v, Instruction)
    return v


def test_name_moves_exactly_within_one_table() -> None:
    fn = _fn()
    x, y = _inst(fn, "x"), _inst(fn, "y")
    y.take_name(x)
    assert (y.name, x.name) == ("x", "")
    assert fn.symbol_table.lookup("x") is y
    assert fn.symbol_table.lookup("y") is None


def test_unnamed_giver_leaves_taker_unnamed() -> None:
    fn = _fn()
    y = _inst(fn, "y")
    zero = next(i for i in fn.entry_block if i.opcode == "sub")
    y.take_name(zero)
    assert (y.name, zero.name) == ("", "")
    assert fn.symbol_table.lookup("y") is None


def test_taker_outside_table_keeps_exact_name_until_inserted() -> None:
    fn = _fn()
    x = _inst(fn, "x")
    clone = x.clone()
    clone.take_name(x)
    assert (clone.name, x.name) == ("x", "")
    x.name = "x"  # the name is free again in the table: x gets it back exactly
    assert x.name == "x"
    clone.insert_before(x)
    assert clone.name not in ("x", "")  # uniqued on insertion, as LLVM's reinsertValue
    assert fn.symbol_table.lookup(clone.name) is clone


def test_constant_takes_nothing_but_giver_loses_name() -> None:
    fn = _fn()
    x = _inst(fn, "x")
    c = ConstantInt.get(x.type, 7)  # type: ignore[arg-type]
    c.take_name(x)
    assert (c.name, x.name) == ("", "")
    assert fn.symbol_table.lookup("x") is None


def test_self_and_void() -> None:
    fn = _fn()
    x = _inst(fn, "x")
    x.take_name(x)
    assert x.name == "x"
    store = next(i for i in fn.entry_block if i.opcode == "store")
    with pytest.raises(IRError):
        store.take_name(x)
    assert x.name == "x"  # nothing changed by the refused call


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=12))
def test_table_stays_exact(pairs: list[tuple[int, int]]) -> None:
    """After any sequence of take_name calls among the args and instructions, the table
    maps each live name to the one value carrying it, and names are never duplicated."""
    fn = _fn()
    values: list[Value] = [*fn.args, *(i for i in fn.entry_block if not i.type.is_void)]
    for i, j in pairs:
        a, b = values[i % len(values)], values[j % len(values)]
        before = b.name
        a.take_name(b)
        if a is not b:
            assert a.name == before and b.name == ""
    names = [v.name for v in values if v.name]
    assert len(names) == len(set(names))
    for v in values:
        if v.name:
            assert fn.symbol_table.lookup(v.name) is v
    assert len(fn.symbol_table) == len(names) + 1  # and the block `entry`
