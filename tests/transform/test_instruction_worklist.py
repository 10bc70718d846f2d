"""InstructionWorklist: LLVM's stack/deferred discipline, checked against a
plain list model on random operation sequences, and the user-pushing order."""

from __future__ import annotations

import random

import llvmpy_mid
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.transform.utils.instruction_worklist import InstructionWorklist

IR = """
define i32 @f(i32 %a) {
  %x = add i32 %a, 1
  %y = mul i32 %x, 2
  %z = sub i32 %x, %y
  %w = xor i32 %x, %z
  ret i32 %w
}
"""


def insts() -> list[Instruction]:
    fn: Function = llvmpy_mid.parse_assembly(IR).get_function("f")
    return list(fn.instructions())


def test_stack_is_lifo_and_unique() -> None:
    x, y, z, w, ret = insts()
    wl = InstructionWorklist()
    assert wl.is_empty()
    for i in (x, y, z, y):
        wl.push(i)
    assert len(wl) == 3
    assert [wl.pop(), wl.pop(), wl.pop(), wl.pop()] == [z, y, x, None]
    assert wl.is_empty()


def test_remove_blanks_the_slot() -> None:
    x, y, z, w, ret = insts()
    wl = InstructionWorklist()
    wl.push(x)
    wl.push(y)
    wl.push(z)
    wl.remove(y)
    assert y not in wl
    assert wl.remove_one() is z
    assert wl.remove_one() is None  # the blanked slot of y
    assert not wl.is_empty()
    assert wl.remove_one() is x
    assert wl.is_empty()
    wl.push(y)  # can come back after removal
    assert wl.pop() is y


def test_deferred_come_out_in_order_of_adding() -> None:
    x, y, z, w, ret = insts()
    wl = InstructionWorklist()
    for i in (x, y, z, x):
        wl.add(i)
    # the driver moves deferred ones onto the stack, last added first ...
    while (i := wl.pop_deferred()) is not None:
        wl.push(i)
    # ... so they leave the stack in the order they were added (re-adding x kept its place)
    assert [wl.pop(), wl.pop(), wl.pop()] == [x, y, z]
    wl.add(w)
    wl.remove(w)
    assert wl.is_empty()


def test_push_users_and_use_count_decrement() -> None:
    x, y, z, w, ret = insts()
    wl = InstructionWorklist()
    wl.push_users_to_worklist(x)
    # users in use-list order (most recent use first: w, z, y), pushed on a stack
    got = [wl.pop(), wl.pop(), wl.pop()]
    assert sorted(i.name for i in got) == ["w", "y", "z"]
    assert got == list(reversed([u for u in x.users]))
    wl.handle_use_count_decrement(z)  # z has one use (w): both deferred
    assert [wl.pop_deferred(), wl.pop_deferred(), wl.pop_deferred()] == [w, z, None]
    wl.push_value(x.get_operand(0))  # an argument: ignored
    assert wl.is_empty()


def test_random_against_model() -> None:
    pool = insts()
    rng = random.Random(7)
    for _ in range(200):
        wl = InstructionWorklist()
        stack: list[Instruction] = []
        deferred: list[Instruction] = []
        for _ in range(30):
            op = rng.randrange(5)
            i = rng.choice(pool)
            if op == 0:
                wl.push(i)
                if i not in stack:
                    stack.append(i)
            elif op == 1:
                wl.add(i)
                if i not in deferred:
                    deferred.append(i)
            elif op == 2:
                wl.remove(i)
                if i in stack:
                    stack.remove(i)
                if i in deferred:
                    deferred.remove(i)
            elif op == 3:
                got = wl.pop()
                assert got is (stack.pop() if stack else None)
            else:
                got = wl.pop_deferred()
                assert got is (deferred.pop() if deferred else None)
            # blanked slots keep the stack non-empty until popped, as in LLVM
            if stack or deferred:
                assert not wl.is_empty()
            assert len(wl) == len(stack) + len(deferred)
