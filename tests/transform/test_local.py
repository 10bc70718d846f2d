"""Local.cpp helpers: the expected effects LLVM 19's functions have on small functions
(constant terminators, unreachable code, dead phi cycles, invokes to calls, inverted
conditions), the DWARF-expression folding used by debug-info salvage, and
``recursively_delete_trivially_dead_instructions`` on long chains (no recursion)."""

from __future__ import annotations

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.di_expression_edit import (
    OP_CONSTU,
    OP_LIT0,
    OP_MINUS,
    OP_MUL,
    OP_PLUS,
    OP_PLUS_UCONST,
    OP_STACK_VALUE,
    append_ops_to_arg,
    fold_constant_math,
)
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.transform.utils.local import (
    change_to_call,
    constant_fold_terminator,
    invert_condition,
    is_instruction_trivially_dead,
    recursively_delete_dead_phi_node,
    recursively_delete_trivially_dead_instructions,
    remove_unreachable_blocks,
)


def _fn(module: Module, name: str) -> Function:
    fn = module.get_function(name)
    assert fn is not None
    return fn


def _block(fn: Function, name: str) -> BasicBlock:
    for bb in fn.blocks:
        if bb.name == name:
            return bb
    raise KeyError(name)


def _ops(bb: BasicBlock) -> list[str]:
    return [i.opcode for i in bb.instructions]


TERMINATORS = """
define i32 @br_const(i32 %a) {
entry:
  br i1 true, label %t, label %f
t:
  ret i32 1
f:
  %p = phi i32 [ %a, %entry ]
  ret i32 %p
}

define i32 @br_same(i1 %c, i32 %a) {
entry:
  %cc = icmp eq i32 %a, 0
  br i1 %cc, label %j, label %j
j:
  %p = phi i32 [ 1, %entry ], [ 1, %entry ]
  ret i32 %p
}

define i32 @switch_const(i32 %a) {
entry:
  switch i32 2, label %d [ i32 1, label %one
                           i32 2, label %two ]
one:
  ret i32 1
two:
  ret i32 2
d:
  ret i32 0
}

define i32 @switch_to_default(i32 %a) {
entry:
  switch i32 %a, label %d [ i32 1, label %d
                            i32 2, label %d ]
d:
  ret i32 0
}

define i32 @switch_one_case(i32 %a) {
entry:
  switch i32 %a, label %d [ i32 7, label %seven ], !prof !0
seven:
  ret i32 1
d:
  ret i32 0
}

define i32 @indirect() {
entry:
  indirectbr ptr blockaddress(@indirect, %two), [label %one, label %two]
one:
  ret i32 1
two:
  ret i32 2
}

!0 = !{!"branch_weights", i32 10, i32 90}
"""


def test_constant_fold_terminator() -> None:
    module = parse_assembly(TERMINATORS)
    fn = _fn(module, "br_const")
    entry = fn.blocks._first
    assert entry is not None
    assert constant_fold_terminator(entry)
    assert entry.successors == [_block(fn, "t")]
    assert _ops(_block(fn, "f")) == ["ret"]  # its phi lost its only entry and went

    fn = _fn(module, "br_same")
    entry = fn.blocks._first
    assert entry is not None
    assert constant_fold_terminator(entry, delete_dead_conditions=True)
    assert _ops(entry) == ["br"]  # the dead icmp went too
    # One entry of the phi went and the phi, now [1, %entry] alone, folded to 1.
    assert _ops(_block(fn, "j")) == ["ret"]
    assert str(_block(fn, "j").terminator).strip() == "ret i32 1"

    fn = _fn(module, "switch_const")
    entry = fn.blocks._first
    assert entry is not None
    assert constant_fold_terminator(entry)
    assert entry.successors == [_block(fn, "two")]

    fn = _fn(module, "switch_to_default")
    entry = fn.blocks._first
    assert entry is not None
    assert constant_fold_terminator(entry)
    assert _ops(entry) == ["br"] and entry.successors == [_block(fn, "d")]

    fn = _fn(module, "switch_one_case")
    entry = fn.blocks._first
    assert entry is not None
    assert constant_fold_terminator(entry)
    assert _ops(entry) == ["icmp", "br"]
    br = entry.terminator
    assert br is not None and br.successors == [_block(fn, "seven"), _block(fn, "d")]
    prof = br.get_metadata("prof")
    assert prof is not None
    weights = [op.value.value for op in prof.operands[1:]]  # type: ignore[union-attr]
    assert weights == [90, 10]  # case weight first, as LLVM swaps them for the branch

    fn = _fn(module, "indirect")
    entry = fn.blocks._first
    assert entry is not None
    assert constant_fold_terminator(entry)
    assert entry.successors == [_block(fn, "two")]
    llvmpy_mid.verify_module(module)


def test_remove_unreachable_blocks() -> None:
    module = parse_assembly(
        """
declare void @exit(i32) noreturn

define i32 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  call void @exit(i32 1)
  %x = add i32 1, 2
  br label %b
b:
  %p = phi i32 [ 0, %entry ], [ %x, %a ]
  br i1 false, label %dead, label %done
dead:
  ret i32 5
done:
  ret i32 %p
orphan:
  ret i32 9
}
"""
    )
    fn = _fn(module, "f")
    assert remove_unreachable_blocks(fn)
    assert [bb.name for bb in fn.blocks] == ["entry", "a", "b", "done"]
    assert _ops(_block(fn, "a")) == ["call", "unreachable"]
    # %a no longer reaches %b: the phi is left with [0, %entry] and folds to 0.
    assert _ops(_block(fn, "b")) == ["br"]
    assert str(_block(fn, "done").terminator).strip() == "ret i32 0"
    llvmpy_mid.verify_module(module)
    assert not remove_unreachable_blocks(fn)


def test_dead_phi_cycle_and_chains() -> None:
    module = parse_assembly(
        """
define i32 @f(i1 %c, i32 %a) {
entry:
  br label %loop
loop:
  %p = phi i32 [ 0, %entry ], [ %n, %loop ]
  %n = add i32 %p, 1
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %a
}
"""
    )
    fn = _fn(module, "f")
    phi = _block(fn, "loop").instructions._first
    assert phi is not None
    assert recursively_delete_dead_phi_node(phi)  # type: ignore[arg-type]
    assert _ops(_block(fn, "loop")) == ["br"]
    llvmpy_mid.verify_module(module)
    # A 5,000-long chain of dead adds goes without recursion.
    lines = ["define void @g(i32 %a) {", "  %v0 = add i32 %a, 1"]
    lines += ["  %%v%d = add i32 %%v%d, 1" % (i, i - 1) for i in range(1, 5000)]
    lines += ["  ret void", "}"]
    m2 = parse_assembly("\n".join(lines))
    g = _fn(m2, "g")
    last = g.blocks._first.terminator.prev_instruction  # type: ignore[union-attr]
    assert last is not None and is_instruction_trivially_dead(last)
    assert recursively_delete_trivially_dead_instructions(last)
    assert _ops(g.blocks._first) == ["ret"]  # type: ignore[arg-type]


def test_change_to_call_and_invert_condition() -> None:
    module = parse_assembly(
        """
declare i32 @callee(i32)
declare i32 @__gxx_personality_v0(...)

define i32 @f(i32 %a, i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @callee(i32 %a) to label %ok unwind label %lp
ok:
  %n = xor i1 %c, true
  ret i32 %r
lp:
  %l = landingpad { ptr, i32 } cleanup
  ret i32 0
}
"""
    )
    fn = _fn(module, "f")
    inv = fn.blocks._first.terminator  # type: ignore[union-attr]
    assert inv is not None
    call = change_to_call(inv)
    assert call.name == "r" and call.opcode == "call"
    assert _ops(fn.blocks._first) == ["call", "br"]  # type: ignore[arg-type]
    llvmpy_mid.verify_module(module)
    c = fn.args[1]
    ok = _block(fn, "ok")
    assert invert_condition(ok.instructions._first) is c  # type: ignore[arg-type]
    inv_a = invert_condition(call)
    assert inv_a.opcode == "xor" and inv_a.name == "r.inv"  # type: ignore[attr-defined]


def test_fold_constant_math() -> None:
    # constu 1, plus, constu 2, plus -> plus_uconst 3
    assert fold_constant_math([OP_CONSTU, 1, OP_PLUS, OP_CONSTU, 2, OP_PLUS]) == [OP_PLUS_UCONST, 3]
    # plus_uconst 5, constu 7, minus stays (5 - 7 would underflow)
    values = [OP_PLUS_UCONST, 5, OP_CONSTU, 7, OP_MINUS, OP_STACK_VALUE]
    assert fold_constant_math(values) == values
    # constu 2, constu 3, mul -> constu 6; constu 0 -> lit0; a neutral "constu 1, mul" goes
    assert fold_constant_math([OP_CONSTU, 2, OP_CONSTU, 3, OP_MUL]) == [OP_CONSTU, 6]
    assert fold_constant_math([OP_CONSTU, 0]) == [OP_LIT0]
    assert fold_constant_math([OP_CONSTU, 1, OP_MUL, OP_STACK_VALUE]) == [OP_STACK_VALUE]
    # Ops prepended to a non-variadic expression get a stack value once.
    assert append_ops_to_arg([OP_STACK_VALUE], [OP_PLUS_UCONST, 1], 0, True) == [OP_PLUS_UCONST, 1, OP_STACK_VALUE]


def test_replace_dominated_uses_with() -> None:
    from llvmpy_mid.ir.constants import ConstantInt
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.transform.utils.local import replace_dominated_uses_with

    module = parse_assembly(
        """
define i32 @f(i32 %a, i1 %c) {
entry:
  %e = add i32 %a, 1
  br i1 %c, label %t, label %j
t:
  %u = add i32 %a, 2
  br label %j
j:
  %p = phi i32 [ %a, %entry ], [ %a, %t ]
  ret i32 %p
}
"""
    )
    fn = _fn(module, "f")
    a = fn.args[0]
    dt = DominatorTree(fn)
    seven = ConstantInt.get(a.type, 7)
    # As LLVM's DominatorTree::dominates(BB, Use): a block dominates a phi entry coming from a
    # block it dominates, and a non-phi use only in a block it *properly* dominates. So %t
    # dominates the phi entry from %t, not the add in %t itself.
    assert replace_dominated_uses_with(a, seven, dt, _block(fn, "t")) == 1
    phi = _block(fn, "j").instructions._first
    assert phi is not None and phi.get_incoming_value(0) is a  # type: ignore[attr-defined]
    assert phi.get_incoming_value(1) is seven  # type: ignore[attr-defined]
    assert _block(fn, "t").instructions._first.operands[0] is a  # type: ignore[union-attr]
    # The edge entry -> j dominates only the phi entry for %entry.
    assert replace_dominated_uses_with(a, seven, dt, (_block(fn, "entry"), _block(fn, "j"))) == 1
    assert phi.get_incoming_value(0) is seven  # type: ignore[attr-defined]
    assert _block(fn, "entry").instructions._first.operands[0] is a  # type: ignore[union-attr]


def test_replace_all_dbg_uses_with() -> None:
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.transform.utils.local import find_dbg_records, replace_all_dbg_uses_with

    module = parse_assembly(
        """
define i64 @f(i64 %a, i32 %b) {
  %w = add i64 %a, 1
  %n = add i32 %b, 1
  %z = zext i32 %n to i64
  ret i64 %w
}
"""
    )
    llvmpy_mid.run_passes(module, "debugify")  # unsigned ty64/ty32 variables
    fn = _fn(module, "f")
    insts = list(fn.blocks._first.instructions)  # type: ignore[union-attr]
    w, n, z = insts[0], insts[1], insts[2]
    dt = DominatorTree(fn)
    # Same type: the record simply follows (moved after the dominating point when needed).
    assert replace_all_dbg_uses_with(w, z, z, dt)
    (rec,) = find_dbg_records(z)
    assert rec.location_values() == [z]
    # i64 -> i32 narrowing: zero extension of the low bits, the variable being unsigned.
    assert replace_all_dbg_uses_with(z, n, z, dt)
    recs = find_dbg_records(n)
    assert len(recs) == 2
    exprs = sorted((r.expression.elements for r in recs), key=len)  # type: ignore[attr-defined]
    assert exprs[0] == ()
    assert exprs[1] == (
        "DW_OP_LLVM_convert", 32, "DW_ATE_unsigned", "DW_OP_LLVM_convert", 64, "DW_ATE_unsigned", "DW_OP_stack_value"
    )
    llvmpy_mid.verify_module(module)
