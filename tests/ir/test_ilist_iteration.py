"""Hot-path helpers of the IR core: iteration that survives erasing the next
node, integer opcode ids, operand iteration without a list, counted
predecessor queries, and the cached side-effect answer of calls (invalidated
by attribute and callee changes)."""

from __future__ import annotations

import pytest

import llvmpy_mid
from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction, Opcode

IR = """
declare i32 @g(i32)
declare i32 @h(i32)
define i32 @f(i32 %a, i1 %c) {
entry:
  %x1 = add i32 %a, 1
  %x2 = add i32 %a, 2
  %x3 = add i32 %a, 3
  %x4 = add i32 %a, 4
  %x5 = add i32 %a, 5
  %k = call i32 @g(i32 %a)
  br i1 %c, label %l, label %r
l:
  br label %j
r:
  switch i32 %a, label %j [ i32 0, label %j
                            i32 1, label %j ]
j:
  ret i32 %k
}
"""


def fn() -> Function:
    f: Function = llvmpy_mid.parse_assembly(IR).get_function("f")
    return f


def test_erasing_the_next_instruction_keeps_iterating() -> None:
    f = fn()
    bb = f.entry_block
    assert bb is not None
    seen = []
    for inst in bb.instructions:
        seen.append(inst.name)
        nxt = inst.next_instruction
        if inst.name in ("x1", "x3") and nxt is not None:
            nxt.erase_from_parent()  # erase x2, then x4
    assert seen == ["x1", "x3", "x5", "k", ""]
    assert [i.name for i in bb.instructions] == ["x1", "x3", "x5", "k", ""]


def test_erasing_current_and_reversed_iteration() -> None:
    f = fn()
    bb = f.entry_block
    assert bb is not None
    for inst in bb.instructions:
        if inst.name.startswith("x") and inst.name != "x5":
            inst.erase_from_parent()
    assert [i.name for i in bb.instructions] == ["x5", "k", ""]
    seen = []
    for inst in reversed(bb.instructions):
        seen.append(inst.name)
        prev = inst.prev_instruction
        if inst.name == "k" and prev is not None:
            prev.erase_from_parent()  # erase x5 while visiting k, backwards
    assert seen == ["", "k"]


def test_erasing_current_and_next_is_reported() -> None:
    f = fn()
    bb = f.entry_block
    assert bb is not None
    with pytest.raises(IRError, match="both removed"):
        for inst in bb.instructions:
            if inst.name == "x1":
                nxt = inst.next_instruction
                inst.erase_from_parent()
                assert nxt is not None
                nxt.erase_from_parent()


def test_blocks_list_survives_erasing_next_block() -> None:
    m = llvmpy_mid.parse_assembly("define void @f() {\na:\n  ret void\nb:\n  unreachable\nc:\n  unreachable\n}\n")
    f = m.get_function("f")
    seen = []
    for bb in f.blocks:
        seen.append(bb.name)
        if bb.name == "a":
            nxt = bb.next_block
            assert nxt is not None
            nxt.erase_from_parent()
    assert seen == ["a", "c"]


def test_opcode_ids() -> None:
    import importlib

    for mod in ("binary", "casts", "cmp", "calls", "eh", "gep", "memory", "other", "terminators", "vector"):
        importlib.import_module("llvmpy_mid.ir.instructions." + mod)
    classes = []
    work = [Instruction]
    while work:
        c = work.pop()
        work.extend(c.__subclasses__())
        if c.opcode:
            classes.append(c)
    assert len({c.opcode for c in classes}) == len(Opcode)
    for cls in classes:
        assert cls.opcode_id == Opcode.of(cls.opcode), cls
        assert Opcode(cls.opcode_id).keyword == cls.opcode
    f = fn()
    for inst in f.instructions():
        assert inst.opcode_id == Opcode.of(inst.opcode)
    assert Opcode.ADD == 13 and Opcode.FREEZE == 67 and Opcode.CALL == 56  # LLVM's Instruction.def


def test_operand_values_and_predecessor_counts() -> None:
    f = fn()
    blocks = {b.name: b for b in f.blocks}
    k = next(i for i in f.instructions() if i.name == "k")
    assert list(k.operand_values()) == k.operands
    j = blocks["j"]
    assert j.num_predecessors == 4  # l, and r three times (default + two cases)
    assert j.has_n_predecessors(4) and not j.has_n_predecessors(3) and not j.has_n_predecessors(5)
    assert j.has_n_predecessors_or_more(4) and not j.has_n_predecessors_or_more(5)
    assert blocks["entry"].has_n_predecessors(0) and blocks["l"].has_n_predecessors(1)


def test_call_side_effects_cache_follows_attributes_and_callee() -> None:
    m = llvmpy_mid.parse_assembly(IR)
    f = m.get_function("f")
    g = m.get_function("g")
    h = m.get_function("h")
    call = next(i for i in f.instructions() if i.name == "k")
    assert call.may_have_side_effects()
    g.attributes = g.attributes.with_fn_attr(Attribute.enum("nounwind")).with_fn_attr(
        Attribute.enum("willreturn")
    )
    assert call.may_have_side_effects()  # still writes memory
    g.attributes = g.attributes.with_fn_attr(Attribute.enum("readnone"))
    assert not call.may_have_side_effects()
    assert call.does_not_access_memory
    call.set_called_function(h)  # @h has no attributes
    assert call.may_have_side_effects() and not call.does_not_access_memory
    call.add_fn_attr(Attribute.enum("readnone"))
    call.add_fn_attr(Attribute.enum("nounwind"))
    call.add_fn_attr(Attribute.enum("willreturn"))
    assert not call.may_have_side_effects()
    call.remove_fn_attr("willreturn")
    assert call.may_have_side_effects()
