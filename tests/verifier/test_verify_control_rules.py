"""Control-flow rules (LLVM 19 ``visitReturnInst``, ``visitBranchInst``,
``visitSwitchInst``, ``visitIndirectBrInst``, ``visitPHINode``) and the phi
rules of ``visitBasicBlock``.

What the parser accepts is compared with opt-19's whole output; the rest
(``ret``/``br``/``switch``/``indirectbr`` of the wrong types: the parser and
llvm-as reject them) is broken through the API and checked against LLVM's
wording and printed values.
"""

from __future__ import annotations

import sys
from pathlib import Path

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instructions import PHINode
from llvmpy_mid.ir.instructions.terminators import ReturnInst
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier import module_diagnostics

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vhelpers import OPT, block, inst, parse, same_as_opt, terminator  # noqa: E402
from vhelpers import function as fn  # noqa: E402
from vhelpers import opt_text_or_skip as opt_text  # noqa: E402


def texts(m: Module) -> list[str]:
    return [d.text for d in module_diagnostics(m)]


# --- ret -------------------------------------------------------------------------------------


def test_ret_value_from_void_function() -> None:
    m = parse("define void @f(i32 %x) {\nentry:\n  ret void\n}\n")
    f = fn(m)
    old = terminator(f, "entry")
    ReturnInst(m.context, f.args[0]).insert_before(old)
    old.erase_from_parent()
    assert texts(m) == ["Found return instr that returns non-void in Function of void return type!\n  ret i32 %x\n void"]


def test_ret_void_from_value_function() -> None:
    m = parse("define i32 @f(i32 %x) {\nentry:\n  ret i32 %x\n}\n")
    f = fn(m)
    old = terminator(f, "entry")
    ReturnInst(m.context).insert_before(old)
    old.erase_from_parent()
    assert texts(m) == ["Function return type does not match operand type of return inst!\n  ret void\n i32"]


def test_ret_of_the_wrong_type() -> None:
    m = parse("define i32 @f(i64 %x) {\nentry:\n  ret i32 0\n}\n")
    f = fn(m)
    terminator(f, "entry").set_operand(0, f.args[0])
    assert texts(m) == ["Function return type does not match operand type of return inst!\n  ret i64 %x\n i32"]


def test_ret_of_the_right_types_is_valid() -> None:
    text = "define i32 @f(i32 %x) {\nentry:\n  ret i32 %x\n}\ndefine void @g() {\nentry:\n  ret void\n}\n"
    assert same_as_opt(text) == []


# --- br --------------------------------------------------------------------------------------


def test_branch_condition_must_be_i1() -> None:
    m = parse("define void @f(i1 %c, i32 %x) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  ret void\nb:\n  ret void\n}\n")
    f = fn(m)
    terminator(f, "entry").set_operand(0, f.args[1])
    assert texts(m) == ["Branch condition is not 'i1' type!\n  br i32 %x, label %a, label %b\ni32 %x\n"]


# --- switch ----------------------------------------------------------------------------------

SWITCH = """define void @f(i32 %x, i64 %y) {
entry:
  switch i32 %x, label %d [
    i32 1, label %a
    i32 2, label %a
  ]
a:
  ret void
d:
  ret void
}
"""


def test_switch_is_valid() -> None:
    assert same_as_opt(SWITCH) == []


def test_switch_case_of_another_type() -> None:
    m = parse(SWITCH)
    f = fn(m)
    sw = terminator(f, "entry")
    sw.set_operand(4, ConstantInt.get(m.context.i64, 2))
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["Switch constants must all be same type as switch value!"]
    assert found[0].detail == (
        "  switch i32 %x, label %d [\n    i32 1, label %a\n    i64 2, label %a\n  ]\n"
    )


def test_switch_duplicate_case() -> None:
    m = parse(SWITCH)
    f = fn(m)
    sw = terminator(f, "entry")
    sw.add_case(ConstantInt.get(m.context.i32, 1), block(f, "d"))  # type: ignore[attr-defined]
    assert texts(m) == [
        "Duplicate integer as switch case\n"
        "  switch i32 %x, label %d [\n    i32 1, label %a\n    i32 2, label %a\n    i32 1, label %d\n  ]\n"
        "i32 1\n"
    ]


def test_switch_case_that_is_not_a_constant() -> None:
    m = parse(SWITCH)
    f = fn(m)
    terminator(f, "entry").set_operand(2, f.args[0])
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["Case value is not a constant integer."]
    assert found[0].detail.startswith("  switch i32 %x, label %d [\n")


# --- indirectbr ------------------------------------------------------------------------------

INDIRECTBR = """define void @f(ptr %p, i64 %n) {
entry:
  indirectbr ptr %p, [label %a, label %b]
a:
  ret void
b:
  ret void
}
"""


def test_indirectbr_is_valid() -> None:
    assert same_as_opt(INDIRECTBR) == []


def test_indirectbr_address_must_be_a_pointer() -> None:
    m = parse(INDIRECTBR)
    f = fn(m)
    terminator(f, "entry").set_operand(0, f.args[1])
    assert texts(m) == ["Indirectbr operand must have pointer type!\n  indirectbr i64 %n, [label %a, label %b]\n"]


def test_indirectbr_destinations_must_be_labels() -> None:
    m = parse(INDIRECTBR)
    f = fn(m)
    terminator(f, "entry").set_operand(2, f.args[0])
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["Indirectbr destinations must all have pointer type!"]
    assert found[0].detail.startswith("  indirectbr ptr %p, [label %a, ")


# --- phi (visitPHINode) ----------------------------------------------------------------------


def test_phi_not_grouped_at_top() -> None:
    text = """define i32 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  %y = add i32 1, 2
  %x = phi i32 [ 1, %entry ], [ 2, %a ]
  ret i32 %x
}
"""
    found = same_as_opt(text)
    assert [d.text for d in found] == [
        "PHI nodes not grouped at top of basic block!\n  %x = phi i32 [ 1, %entry ], [ 2, %a ]\nlabel %b\n"
    ]


def test_phi_moved_after_a_non_phi() -> None:
    m = parse(
        "define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %b\n"
        "b:\n  %x = phi i32 [ 1, %entry ], [ 2, %a ]\n  %y = add i32 %x, 2\n  ret i32 %y\n}\n"
    )
    f = fn(m)
    x, y = inst(f, "x"), inst(f, "y")
    x.move_after(y)
    # %y (now first) uses %x before its definition; then the phi is out of place.
    assert texts(m) == [
        "Instruction does not dominate all uses!\n  %x = phi i32 [ 1, %entry ], [ 2, %a ]\n  %y = add i32 %x, 2\n",
        "PHI nodes not grouped at top of basic block!\n  %x = phi i32 [ 1, %entry ], [ 2, %a ]\nlabel %b\n",
    ]


def test_phi_of_token_type() -> None:
    text = """declare token @llvm.experimental.convergence.anchor()
define void @f(i1 %c) {
entry:
  %t = call token @llvm.experimental.convergence.anchor()
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  %p = phi token [ %t, %entry ], [ %t, %a ]
  ret void
}
"""
    found = [d for d in module_diagnostics(parse(text))]
    assert found[0].text == "PHI nodes cannot have token type!\n"
    if OPT is not None:
        assert opt_text(text).startswith(found[0].text)


def test_phi_operand_of_another_type() -> None:
    m = parse(
        "define i32 @f(i1 %c, i64 %w) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %b\n"
        "b:\n  %x = phi i32 [ 1, %entry ], [ 2, %a ]\n  ret i32 %x\n}\n"
    )
    f = fn(m)
    inst(f, "x").set_operand(1, f.args[1])
    assert texts(m) == [
        "PHI node operands are not the same type as the result!\n  %x = phi i32 [ 1, %entry ], [ %w, %a ]\n"
    ]


# --- phi entries (visitBasicBlock) -----------------------------------------------------------

PHIS = """define i32 @f(i1 %c, i32 %x, i32 %y) {
entry:
  br i1 %c, label %m, label %m
m:
  %p = phi i32 [ %x, %entry ], [ %y, %entry ]
  ret i32 %p
}
define i32 @g(i1 %c, i32 %x, i32 %y) {
entry:
  br i1 %c, label %m, label %m
m:
  %p = phi i32 [ 7, %entry ], [ 3, %entry ]
  ret i32 %p
}
define i32 @h(i1 %c, i32 %x, i32 %y) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %m
b:
  br label %m
z:
  br label %m
m:
  %p = phi i32 [ 7, %a ], [ 3, %z ]
  ret i32 %p
}
define i32 @h2(i1 %c, i32 %x, i32 %y) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %m
b:
  br label %m
m:
  %p = phi i32 [ 7, %a ], [ 3, %entry ]
  %q = phi i32 [ 7, %a ], [ 3, %z ]
  ret i32 %p
z:
  ret i32 0
}
define i32 @h3(i1 %c, i32 %x, i32 %y) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %m
b:
  br label %m
m:
  %p = phi i32 [ 7, %entry ], [ 3, %b ]
  ret i32 %p
}
define i32 @count(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  %x = phi i32 [ 1, %entry ], [ 2, %a ], [ 3, %entry ]
  %z = phi i32 [ 1, %entry ]
  ret i32 %x
}
"""


def test_phi_entries_against_predecessors() -> None:
    found = same_as_opt(PHIS)
    assert [(d.function, d.message) for d in found] == [
        ("@f", "PHI node has multiple entries for the same basic block with different incoming values!"),
        ("@g", "PHI node has multiple entries for the same basic block with different incoming values!"),
        ("@h", "PHINode should have one entry for each predecessor of its parent basic block!"),
        ("@h2", "PHI node entries do not match predecessors!"),
        ("@h3", "PHI node entries do not match predecessors!"),
        ("@count", "PHINode should have one entry for each predecessor of its parent basic block!"),
    ]
    assert found[0].detail == "  %p = phi i32 [ %x, %entry ], [ %y, %entry ]\nlabel %entry\ni32 %y\ni32 %x\n"


def test_same_value_twice_from_a_block_with_two_edges_is_valid() -> None:
    text = """define i32 @f(i1 %c, i32 %x) {
entry:
  br i1 %c, label %m, label %m
m:
  %p = phi i32 [ %x, %entry ], [ %x, %entry ]
  ret i32 %p
}
define i32 @g(i32 %x) {
entry:
  switch i32 %x, label %m [
    i32 1, label %m
    i32 2, label %o
  ]
o:
  br label %m
m:
  %p = phi i32 [ 5, %o ], [ %x, %entry ], [ %x, %entry ]
  ret i32 %p
}
"""
    assert same_as_opt(text) == []


def test_phi_in_the_entry_block() -> None:
    text = "define i32 @f() {\nentry:\n  %p = phi i32 [ 0, %entry ]\n  ret i32 %p\n}\n"
    found = module_diagnostics(parse(text))
    assert "PHINode should have one entry for each predecessor of its parent basic block!\n  %p = phi i32 [ 0, %entry ]\n" in [
        d.text for d in found
    ]


def test_phi_without_entries_in_a_block_without_predecessors_is_valid() -> None:
    # LLVM 19 has no "at least one entry" rule: zero entries match zero predecessors.
    m = parse("define i32 @f() {\nentry:\n  ret i32 0\ndead:\n  ret i32 1\n}\n")
    dead = block(fn(m), "dead")
    PHINode(m.context.i32, name="p").insert_into(dead, dead.instructions.first)
    assert module_diagnostics(m) == []


def test_phi_without_entries_in_a_block_with_predecessors() -> None:
    m = parse("define i32 @f() {\nentry:\n  br label %next\nnext:\n  ret i32 1\n}\n")
    nxt = block(fn(m), "next")
    PHINode(m.context.i32, name="p").insert_into(nxt, nxt.instructions.first)
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["PHINode should have one entry for each predecessor of its parent basic block!"]


def test_phi_entry_added_through_the_api() -> None:
    m = parse(
        "define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %b\n"
        "b:\n  %x = phi i32 [ 1, %entry ], [ 2, %a ]\n  ret i32 %x\n}\n"
    )
    f = fn(m)
    phi = inst(f, "x")
    phi.add_incoming(ConstantInt.get(m.context.i32, 3), block(f, "b"))  # type: ignore[attr-defined]
    assert texts(m) == [
        "PHINode should have one entry for each predecessor of its parent basic block!\n"
        "  %x = phi i32 [ 1, %entry ], [ 2, %a ], [ 3, %b ]\n"
    ]


def test_only_the_first_bad_phi_of_a_block_is_reported() -> None:
    m = parse(
        "define i32 @f(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %b\n"
        "b:\n  %x = phi i32 [ 1, %entry ], [ 2, %a ]\n  %y = phi i32 [ 1, %entry ], [ 2, %a ]\n  ret i32 %x\n}\n"
    )
    f = fn(m)
    for name in ("x", "y"):
        inst(f, name).set_incoming_block(1, block(f, "b"))  # type: ignore[attr-defined]
    assert texts(m) == ["PHI node entries do not match predecessors!\n  %x = phi i32 [ 1, %entry ], [ 2, %b ]\nlabel %b\nlabel %a\n"]
