"""mergefunc with an API-built all-zero-index GEP in ``llvm.used`` (it used to
call the ``is_null_value`` property and crash with TypeError): the GEP is
looked through, so the used function is kept as a thunk, as opt-19 does for
``[ptr @b]`` (the parser folds the zero GEP away, so text cannot show the case)."""

from __future__ import annotations

import llvmpy_mid
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import ConstantArray, ConstantInt
from llvmpy_mid.ir.global_value import Linkage
from llvmpy_mid.passes.run import run_passes

IR = """
define internal i32 @a(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}
define internal i32 @b(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}
define i32 @use(i32 %x) {
  %p = call i32 @a(i32 %x)
  %q = call i32 @b(i32 %p)
  ret i32 %q
}
"""


def test_zero_index_gep_in_llvm_used() -> None:
    m = llvmpy_mid.parse_assembly(IR)
    ctx = m.context
    b = m.get_function("b")
    gep = ConstantExpr.create_gep(ctx.i8, b, [ConstantInt.get(ctx.i64, 0)])
    assert isinstance(gep, ConstantExpr)  # not folded away: the case the parser never makes
    arr = ConstantArray.get(ctx.array_type(ctx.ptr, 1), [gep])
    used = m.add_global(arr.type, "llvm.used", Linkage.APPENDING, arr)
    used.section = "llvm.metadata"
    run_passes(m, "mergefunc")
    text = str(m)
    # opt-19 on the same module with [ptr @b]: @b stays, as a thunk to @a; calls go to @a
    assert "define internal i32 @b(i32 %0) {\n  %2 = tail call i32 @a(i32 %0)\n  ret i32 %2\n}" in text
    assert "%q = call i32 @a(i32 %p)" in text
