"""Labels are not put in aggregates or returned; other types LLVM's constructors refuse.

LLVM's type constructors refuse these types outright (its parser reports them with the words
used here, checked with llvm-as-19), so no module can hold them: the IR layer raises IRError when
asked for one. A label used as a returned value is caught by the verifier's ``ret`` rule.
"""

from __future__ import annotations

import pytest

import llvmpy_mid
from llvmpy_mid import IRError
from llvmpy_mid.ir import Context


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda c: c.struct_type([c.label]), "invalid element type for struct"),
        (lambda c: c.struct_type([c.void]), "invalid element type for struct"),
        (lambda c: c.struct_type([c.metadata]), "invalid element type for struct"),
        (lambda c: c.named_struct("s", [c.label]), "invalid element type for struct"),
        (lambda c: c.array_type(c.label, 2), "invalid array element type"),
        (lambda c: c.array_type(c.token, 2), "invalid array element type"),
        (lambda c: c.vector_type(c.label, 2), "invalid vector element type"),
        (lambda c: c.vector_type(c.struct_type([c.i32]), 2), "invalid vector element type"),
        (lambda c: c.function_type(c.label, []), "invalid function return type"),
        (lambda c: c.function_type(c.metadata, []), "invalid function return type"),
        (lambda c: c.function_type(c.void, [c.void]), "invalid type for function argument"),
    ],
)
def test_type_constructors_refuse_what_llvm_refuses(make: object, words: str) -> None:
    ctx = Context()
    with pytest.raises(IRError, match=words):
        make(ctx)  # type: ignore[operator]


def test_valid_neighbours_are_accepted() -> None:
    ctx = Context()
    ctx.struct_type([ctx.i32, ctx.ptr])
    ctx.array_type(ctx.struct_type([ctx.i8]), 3)
    ctx.vector_type(ctx.ptr, 4)
    ctx.function_type(ctx.struct_type([ctx.i32, ctx.i1]), [ctx.label, ctx.metadata])


def test_returning_a_label_is_a_verifier_error() -> None:
    m = llvmpy_mid.parse_assembly("define i32 @f() {\nentry:\n  br label %next\nnext:\n  ret i32 0\n}\n")
    f = m.get_function("f")
    assert f is not None
    nxt = f.entry_block.next_block
    assert nxt is not None and nxt.terminator is not None
    nxt.terminator.set_operand(0, f.entry_block)
    found = llvmpy_mid.module_diagnostics(m)
    # A terminator using the entry block counts as its predecessor (LLVM's pred_empty walks the
    # block's terminator users), so LLVM reports that first; then the mismatched return. A type
    # printed after a message continues the line, with no newline, as in LLVM.
    assert [d.text for d in found] == [
        "Entry block to function must not have predecessors!\nlabel %entry\n",
        "Function return type does not match operand type of return inst!\n  ret label %entry\n i32",
    ]


def test_label_parameters_are_accepted_as_llvm_as_does() -> None:
    # llvm-as-19 accepts `define void @f(label %l)` (a label is a first-class type) and the verifier
    # has no rule against it; a function type as a parameter is refused by both.
    m = llvmpy_mid.parse_assembly("define void @f(label %l) {\n  ret void\n}\n")
    assert llvmpy_mid.module_diagnostics(m) == []
    with pytest.raises(llvmpy_mid.ParseError, match="invalid type for function argument"):
        llvmpy_mid.parse_assembly("define void @f(void () %l) {\n  ret void\n}\n")
