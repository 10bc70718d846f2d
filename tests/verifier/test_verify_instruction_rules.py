"""The generic instruction rules (LLVM 19 ``visitInstruction``/``visitTerminator``),
the block rules (``visitBasicBlock``) and the SSA dominance check.

Modules opt-19 can read are compared with its whole output; the others are
broken through the API (the parser rejects them, as llvm-as does) and checked
against LLVM's wording and the values it prints.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import llvmpy_mid
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instructions import AddInst, PHINode
from llvmpy_mid.ir.instructions.terminators import ReturnInst
from llvmpy_mid.ir.value import User
from llvmpy_mid.ir.verifier import diagnostics_text, module_diagnostics
from llvmpy_mid.ir.verifier.block_rules import verify_block
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.instruction_rules import verify_instruction

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vhelpers import OPT, block, inst, messages, parse, same_as_opt  # noqa: E402
from vhelpers import function as fn  # noqa: E402
from vhelpers import opt_text_or_skip as opt_text  # noqa: E402
from oracles import LLVM_TEST_ROOT, require_llvm_tests  # noqa: E402

CONFORMANCE = str(LLVM_TEST_ROOT / "Verifier/dominates.ll")


# --- self reference, names, result types ---------------------------------------------------


def test_self_reference_in_reachable_code() -> None:
    text = "define void @f() {\nentry:\n  %a = add i32 %a, 1\n  ret void\n}\n"
    found = same_as_opt(text)
    assert [d.text for d in found] == ["Only PHI nodes may reference their own value!\n  %a = add i32 %a, 1\n"]
    assert found[0].function == "@f" and found[0].block == "%entry"


def test_self_reference_and_use_before_def_in_unreachable_code_are_fine() -> None:
    text = """define void @f() {
entry:
  ret void
dead:
  %b = add i32 %b, 1
  %c = add i32 %d, 1
  %d = add i32 %c, 1
  ret void
}
"""
    assert same_as_opt(text) == []


def test_phi_may_reference_itself() -> None:
    text = """define i32 @f(i1 %c) {
entry:
  br label %loop
loop:
  %p = phi i32 [ 0, %entry ], [ %p, %loop ]
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %p
}
"""
    assert same_as_opt(text) == []


def test_invoke_findings_are_reported_twice() -> None:
    # visitCallBase and visitTerminator both end in visitInstruction.
    text = """declare i32 @g(i32)
declare i32 @__gxx_personality_v0(...)
define void @f() personality ptr @__gxx_personality_v0 {
bb0:
  %y1 = invoke i32 @g(i32 %y1) to label %bb1 unwind label %bb2
bb1:
  ret void
bb2:
  %y3 = landingpad i32
          cleanup
  ret void
}
"""
    found = same_as_opt(text)
    assert [d.message for d in found] == ["Only PHI nodes may reference their own value!"] * 2


def test_void_value_with_a_name() -> None:
    m = parse("declare void @g()\ndefine void @f() {\nentry:\n  call void @g()\n  ret void\n}\n")
    call = block(fn(m, "f"), "entry").instructions.first
    assert call is not None
    call._name = "x"  # Value.set_name refuses it; a broken builder might not
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["Instruction has a name, but provides a void value!"]
    # LLVM prints "  %x = call void @g()"; the printer leaves the name of a void value out.
    assert found[0].detail.endswith("call void @g()\n")


def test_result_of_function_type() -> None:
    m = parse("define void @f() {\nentry:\n  ret void\n}\n")
    entry = block(fn(m, "f"), "entry")
    phi = PHINode(m.context.function_type(m.context.void, []), name="p")
    phi.insert_into(entry, entry.instructions.first)
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["Instruction returns a non-scalar type!"]
    assert found[0].detail.startswith("  %p = phi void ()")


def test_result_of_metadata_type_only_from_calls() -> None:
    m = parse("define void @f() {\nentry:\n  ret void\n}\n")
    entry = block(fn(m, "f"), "entry")
    phi = PHINode(m.context.metadata, name="p")
    phi.insert_into(entry, entry.instructions.first)
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["Invalid use of metadata!"]
    assert found[0].detail.startswith("  %p = phi metadata")


# --- users and operands -----------------------------------------------------------------------


def test_user_not_in_a_block() -> None:
    m = parse("define i32 @f(i32 %x) {\nentry:\n  %a = add i32 %x, 1\n  ret i32 %a\n}\n")
    a = inst(fn(m, "f"), "a")
    AddInst(a, ConstantInt.get(m.context.i32, 2))  # detached user of %a
    found = module_diagnostics(m)
    assert [d.text for d in found] == [
        "Instruction referencing instruction not embedded in a basic block!\n"
        "  %a = add i32 %x, 1\n"
        "  <badref> = add i32 %a, 2\n"
    ]


def test_user_that_is_not_an_instruction() -> None:
    m = parse("define i32 @f(i32 %x) {\nentry:\n  %a = add i32 %x, 1\n  ret i32 %a\n}\n")
    a = inst(fn(m, "f"), "a")
    User(m.context.i32, [a])
    found = module_diagnostics(m)
    assert [d.text for d in found] == ["Use of instruction is not an instruction!\n  %a = add i32 %x, 1\n"]


def test_operand_that_is_not_first_class() -> None:
    # A switch without cases: no opcode rule looks at the condition's type.
    m = parse(
        "declare void @g()\ndefine void @f(i32 %x) {\nentry:\n  call void @g()\n"
        "  switch i32 %x, label %d []\nd:\n  ret void\n}\n"
    )
    entry = block(fn(m, "f"), "entry")
    call, switch = list(entry.instructions)
    switch.set_operand(0, call)
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["Instruction operands must be first-class values!"]
    assert found[0].detail.startswith("  switch void ")


TWO_FUNCTIONS = """@gv = global i32 0
define i32 @f(i32 %x) {
entry:
  %a = add i32 %x, 1
  br label %next
next:
  ret i32 %a
}
define i32 @g(i32 %y) {
entry:
  %b = add i32 %y, 2
  br label %other
other:
  ret i32 %b
}
"""


def test_block_of_another_function() -> None:
    m = parse(TWO_FUNCTIONS)
    br = block(fn(m, "f"), "entry").instructions.last
    assert br is not None
    br.set_operand(0, block(fn(m, "g"), "other"))
    found = [d for d in module_diagnostics(m) if d.function == "@f"]
    assert found[0].text == "Referring to a basic block in another function!\n  br label %other\n"


def test_argument_of_another_function() -> None:
    m = parse(TWO_FUNCTIONS)
    inst(fn(m, "f"), "a").set_operand(0, fn(m, "g").args[0])
    found = module_diagnostics(m)
    assert [d.text for d in found] == ["Referring to an argument in another function!\n  %a = add i32 %y, 1\n"]


def test_instruction_of_another_function() -> None:
    m = parse(TWO_FUNCTIONS)
    inst(fn(m, "f"), "a").set_operand(0, inst(fn(m, "g"), "b"))
    found = module_diagnostics(m)
    assert [d.text for d in found] == ["Referring to an instruction in another function!\n  %a = add i32 %b, 1\n"]


def test_global_of_another_module() -> None:
    m = parse("@gv = global i32 0\ndefine i32 @f() {\nentry:\n  %v = load i32, ptr @gv, align 4\n  ret i32 %v\n}\n")
    other = llvmpy_mid.parse_assembly("@other = global i32 1\n", m.context, "other.ll")
    inst(fn(m, "f"), "v").set_operand(0, other.globals[0])
    found = module_diagnostics(m)
    assert [d.text for d in found] == [
        "Referencing global in another module!\n"
        "  %v = load i32, ptr @other, align 4\n"
        "; ModuleID = '" + m.name + "'\n"
        "ptr @other\n"
        "; ModuleID = 'other.ll'\n"
    ]


def test_function_of_another_module() -> None:
    m = parse("declare void @h()\ndefine void @f() {\nentry:\n  call void @h()\n  ret void\n}\n")
    other = llvmpy_mid.parse_assembly("declare void @h2()\n", m.context, "other.ll")
    call = block(fn(m, "f"), "entry").instructions.first
    assert call is not None
    call.set_operand(0, other.functions[0])
    found = module_diagnostics(m)
    assert [d.text for d in found] == [
        "Referencing function in another module!\n"
        "  call void @h2()\n"
        "; ModuleID = '%s'\n"
        "ptr @h2\n"
        "; ModuleID = 'other.ll'\n" % m.name
    ]


def test_global_of_another_module_inside_a_constant_expression() -> None:
    m = parse(
        "@gv = global [2 x i32] zeroinitializer\n"
        "define i32 @f() {\nentry:\n"
        "  %v = load i32, ptr getelementptr inbounds ([2 x i32], ptr @gv, i64 0, i64 1), align 4\n"
        "  ret i32 %v\n}\n"
    )
    other = llvmpy_mid.parse_assembly(
        "@o = global [2 x i32] zeroinitializer\n"
        "@p = global ptr getelementptr inbounds ([2 x i32], ptr @o, i64 0, i64 1)\n",
        m.context,
        "other.ll",
    )
    expr = other.globals[1].initializer
    assert expr is not None
    inst(fn(m, "f"), "v").set_operand(0, expr)
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["Referencing global in another module!"]
    assert found[0].detail == (
        "ptr getelementptr inbounds ([2 x i32], ptr @o, i64 0, i64 1)\n"
        "; ModuleID = '%s'\nptr @o\n; ModuleID = 'other.ll'\n" % m.name
    )


def test_address_of_inline_asm() -> None:
    m = parse(
        "declare void @take(ptr)\n"
        "define void @f(ptr %p) {\nentry:\n"
        '  call void asm sideeffect "nop", ""()\n'
        "  call void @take(ptr %p)\n"
        "  ret void\n}\n"
    )
    calls = list(block(fn(m, "f"), "entry").instructions)
    asm = calls[0].get_operand(0)
    assert asm.is_inline_asm
    calls[1].set_operand(0, asm)
    found = module_diagnostics(m)
    assert [d.text for d in found] == [
        'Cannot take the address of an inline asm!\n  call void @take(ptr asm sideeffect "nop", "")\n'
    ]


def test_intrinsics_may_only_be_called() -> None:
    text = """declare i32 @__gxx_personality_v0(...)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
declare void @llvm.donothing()
declare void @llvm.trap()
define void @f(ptr %q) personality ptr @__gxx_personality_v0 {
bb0:
  %r = invoke i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 0, i32 0, ptr null, i32 0) to label %bb1 unwind label %bb2
bb1:
  invoke void @llvm.donothing() to label %bb3 unwind label %bb2
bb3:
  invoke void @llvm.trap() to label %bb4 unwind label %bb2
bb4:
  store ptr @llvm.trap, ptr %q
  ret void
bb2:
  %y3 = landingpad i32
          cleanup
  ret void
}
"""
    found = [d for d in module_diagnostics(parse(text)) if d.function == "@f"]
    cannot_invoke = (
        "Cannot invoke an intrinsic other than donothing, patchpoint, statepoint, coro_resume, "
        "coro_destroy or clang.arc.attachedcall\n  invoke void @llvm.trap()\n          to label %bb4 unwind label %bb2\n"
    )
    assert [d.text for d in found] == [
        cannot_invoke,
        cannot_invoke,
        "Cannot take the address of an intrinsic!\n  store ptr @llvm.trap, ptr %q, align 8\n",
    ]
    if OPT is not None:
        theirs = opt_text(text)
        assert diagnostics_text(found) in theirs


def test_instruction_not_in_a_block() -> None:
    m = parse("define i32 @f(i32 %x) {\nentry:\n  ret i32 %x\n}\n")
    f = fn(m, "f")
    loose = AddInst(f.args[0], ConstantInt.get(m.context.i32, 1), name="loose")
    c = Checker(m)
    c.enter_function(f)
    verify_instruction(c, loose)
    assert [d.text for d in c.diagnostics] == ["Instruction not embedded in basic block!\n  %loose = add i32 %x, 1\n"]


def test_branch_to_a_value_that_is_not_a_block_does_not_crash() -> None:
    # LLVM has no rule for it (its dominator tree would misread the value);
    # here the tree skips such a successor and the walk goes on.
    m = parse("define void @f(i32 %x) {\nentry:\n  br label %next\nnext:\n  ret void\n}\n")
    f = fn(m, "f")
    br = block(f, "entry").terminator
    assert br is not None
    br.set_operand(0, f.args[0])
    assert module_diagnostics(m) == []


# --- terminators and blocks ------------------------------------------------------------------


def test_terminator_in_the_middle_of_a_block() -> None:
    m = parse("define void @f() {\nentry:\n  %a = add i32 1, 2\n  br label %next\nnext:\n  ret void\n}\n")
    f = fn(m, "f")
    a = inst(f, "a")
    ReturnInst(m.context).insert_before(a)
    found = module_diagnostics(m)
    assert [d.text for d in found] == ["Terminator found in the middle of a basic block!\nlabel %entry\n"]


def test_block_without_terminator_is_reported_by_the_block_rule() -> None:
    m = parse("define void @f() {\nentry:\n  %a = add i32 1, 2\n  ret void\n}\n")
    f = fn(m, "f")
    entry = block(f, "entry")
    last = entry.instructions.last
    assert last is not None
    last.erase_from_parent()
    c = Checker(m)
    c.enter_function(f)
    c.block = entry
    verify_block(c, entry)
    assert [d.text for d in c.diagnostics] == ["Basic Block does not have terminator!\nlabel %entry\n"]
    # The walk itself stops at the function's first such block, as LLVM does.
    assert [d.text for d in module_diagnostics(m)] == ["Basic Block in function 'f' does not have terminator!\nlabel %entry\n"]


# --- dominance -------------------------------------------------------------------------------


def test_conformance_dominates_ll() -> None:
    require_llvm_tests()
    with open(CONFORMANCE) as fh:
        text = fh.read()
    found = same_as_opt(text)
    assert [d.message for d in found] == ["Instruction does not dominate all uses!"] * 5
    assert [d.function for d in found] == ["@f1", "@f2", "@f3", "@f4", "@f5"]


def test_use_before_definition_in_the_same_block() -> None:
    m = parse("define i32 @f(i32 %x) {\nentry:\n  %a = add i32 %x, 1\n  %b = add i32 %x, 2\n  ret i32 %b\n}\n")
    f = fn(m, "f")
    inst(f, "a").set_operand(1, inst(f, "b"))
    found = module_diagnostics(m)
    assert [d.text for d in found] == [
        "Instruction does not dominate all uses!\n  %b = add i32 %x, 2\n  %a = add i32 %x, %b\n"
    ]


def test_instruction_moved_after_its_user() -> None:
    m = parse("define i32 @f(i32 %x) {\nentry:\n  %a = add i32 %x, 1\n  %b = add i32 %a, 2\n  ret i32 %b\n}\n")
    f = fn(m, "f")
    a, b = inst(f, "a"), inst(f, "b")
    a.move_after(b)
    found = module_diagnostics(m)
    assert [d.text for d in found] == [
        "Instruction does not dominate all uses!\n  %a = add i32 %x, 1\n  %b = add i32 %a, 2\n"
    ]


DIAMOND = """define i32 @f(i1 %c, i32 %x) {
entry:
  br i1 %c, label %then, label %else
then:
  %t = add i32 %x, 1
  br label %join
else:
  %e = add i32 %x, 2
  br label %join
join:
  %p = phi i32 [ %t, %then ], [ %e, %else ]
  %r = add i32 %p, 1
  ret i32 %r
dead:
  %d = add i32 %t, %e
  br label %join2
join2:
  ret i32 %d
}
"""


def test_diamond_and_unreachable_uses_are_valid() -> None:
    assert same_as_opt(DIAMOND) == []


def test_use_in_a_block_not_dominated() -> None:
    m = parse(DIAMOND)
    f = fn(m, "f")
    inst(f, "r").set_operand(0, inst(f, "t"))
    found = module_diagnostics(m)
    assert [d.text for d in found] == [
        "Instruction does not dominate all uses!\n  %t = add i32 %x, 1\n  %r = add i32 %t, 1\n"
    ]


def test_phi_value_must_dominate_the_end_of_its_incoming_block() -> None:
    m = parse(DIAMOND)
    f = fn(m, "f")
    phi = inst(f, "p")
    phi.set_operand(0, inst(f, "e"))  # %e flows in from %then, which %else does not dominate
    found = module_diagnostics(m)
    assert [d.text for d in found] == [
        "Instruction does not dominate all uses!\n  %e = add i32 %x, 2\n  %p = phi i32 [ %e, %then ], [ %e, %else ]\n"
    ]


def test_phi_incoming_from_an_unreachable_block_is_fine() -> None:
    text = """define i32 @f(i32 %x) {
entry:
  br label %join
dead:
  %d = add i32 %x, 1
  br label %join
join:
  %p = phi i32 [ %x, %entry ], [ %d, %dead ]
  ret i32 %p
}
"""
    assert same_as_opt(text) == []


def test_invoke_result_and_same_normal_unwind_destination() -> None:
    # The result is defined on the normal edge; an invoke whose two destinations
    # are the same block is not checked for dominance (its own rule rejects it).
    text = """declare i32 @g()
declare i32 @__gxx_personality_v0(...)
define i32 @f() personality ptr @__gxx_personality_v0 {
bb0:
  %y = invoke i32 @g() to label %ok unwind label %lp
ok:
  ret i32 %y
lp:
  %l = landingpad i32
          cleanup
  ret i32 0
}
"""
    assert same_as_opt(text) == []
    m = parse(text)
    f = fn(m, "f")
    invoke = inst(f, "y")
    # Use the result in the unwind destination: not dominated.
    lp = block(f, "lp")
    ret = lp.instructions.last
    assert ret is not None
    ret.set_operand(0, invoke)
    assert messages(m) == ["Instruction does not dominate all uses!"]


def test_invoke_with_the_same_normal_and_unwind_destination_skips_dominance() -> None:
    text = """declare i32 @foo()
declare i32 @__gxx_personality_v0(...)
define i32 @f() personality ptr @__gxx_personality_v0 {
entry:
  %A = invoke i32 @foo() to label %L unwind label %L
L:
  ret i32 %A
}
"""
    found = same_as_opt(text)
    assert "Instruction does not dominate all uses!" not in [d.message for d in found]


def test_callbr_result_may_be_used_in_an_indirect_destination() -> None:
    text = """define i32 @f() {
bb0:
  %y1 = callbr i32 asm "", "=r,!i"() to label %bb1 [label %bb2]
bb1:
  ret i32 0
bb2:
  ret i32 %y1
}
"""
    assert same_as_opt(text) == []


# --- scale -----------------------------------------------------------------------------------


def chain_module(n: int) -> str:
    lines = ["define i32 @chain(i32 %x0) {", "b0:", "  br label %b1"]
    for i in range(1, n):
        lines.append("b%d:" % i)
        lines.append("  %%x%d = add i32 %%x%d, %d" % (i, i - 1, i))
        lines.append("  br label %%b%d" % (i + 1))
    lines.append("b%d:" % n)
    lines.append("  ret i32 %%x%d" % (n - 1))
    lines.append("}")
    return "\n".join(lines) + "\n"


def nested_module(depth: int) -> str:
    """``depth`` nested if-diamonds: h_i branches to h_{i+1} or j_i; each j_i
    merges a value defined in h_i with the one coming up from j_{i+1}."""
    lines = ["define i32 @nest(i1 %c, i32 %x) {", "entry:", "  br label %h0"]
    for i in range(depth):
        lines.append("h%d:" % i)
        lines.append("  %%v%d = add i32 %%x, %d" % (i, i))
        lines.append("  br i1 %%c, label %%h%d, label %%j%d" % (i + 1, i))
    lines.append("h%d:" % depth)
    lines.append("  br label %%j%d" % (depth - 1))
    for i in range(depth - 1, -1, -1):
        lines.append("j%d:" % i)
        if i == depth - 1:
            lines.append("  %%p%d = phi i32 [ %%v%d, %%h%d ], [ %%x, %%h%d ]" % (i, i, i, depth))
        else:
            lines.append("  %%p%d = phi i32 [ %%v%d, %%h%d ], [ %%p%d, %%j%d ]" % (i, i, i, i + 1, i + 1))
        lines.append("  %%s%d = add i32 %%p%d, %%v0" % (i, i))
        lines.append("  br label %%j%d" % (i - 1) if i else "  ret i32 %s0")
    lines.append("}")
    return "\n".join(lines) + "\n"


def test_long_chain_and_deep_nesting_verify_without_recursion() -> None:
    chain = parse(chain_module(10_000))
    nested = parse(nested_module(3_000))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # any recursion over the CFG would overflow this
    try:
        start = time.perf_counter()
        chain_found = module_diagnostics(chain)
        nested_found = module_diagnostics(nested)
        elapsed = time.perf_counter() - start
    finally:
        sys.setrecursionlimit(limit)
    assert chain_found == [] and nested_found == []
    assert elapsed < 10.0
    # A use near the entry of a value defined at the far end is not dominated.
    f = fn(chain, "chain")
    inst(f, "x1").set_operand(0, inst(f, "x9999"))
    found = module_diagnostics(chain)
    assert [d.text for d in found] == [
        "Instruction does not dominate all uses!\n  %x9999 = add i32 %x9998, 9999\n  %x1 = add i32 %x9999, 1\n"
    ]


def test_nested_module_agrees_with_opt() -> None:
    assert same_as_opt(nested_module(40)) == []
