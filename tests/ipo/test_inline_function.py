"""``inline_function`` (LLVM ``InlineFunction``) and ``is_inline_viable`` used directly:
failures leave the IR alone and carry LLVM's reason, success deletes the call and keeps
the callee, and the InlineFunctionInfo lists the moved allocas and the inlined call
sites. The printed result is checked against opt-19's ``always-inline`` on the same call.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from llvmpy_mid.analysis.inline_viability import is_inline_viable
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.transform.utils.inline_function import InlineFunctionInfo, inline_function

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402

SRC = """
declare void @g()
define i32 @callee(i32 %x) {
entry:
  %a = alloca i32
  store i32 %x, ptr %a
  call void @g()
  %v = load i32, ptr %a
  ret i32 %v
}
define i32 @caller(i32 %x) {
  %r = call i32 @callee(i32 %x)
  ret i32 %r
}
"""


def _call_in(module: object, fn_name: str) -> CallBase:
    fn = module.get_function(fn_name)  # type: ignore[attr-defined]
    for bb in fn.blocks:
        for inst in bb.instructions:
            if isinstance(inst, CallBase):
                return inst
    raise AssertionError("no call")


def test_inline_success_keeps_callee_and_fills_info() -> None:
    m = parse_assembly(SRC)
    call = _call_in(m, "caller")
    ifi = InlineFunctionInfo()
    result = inline_function(call, ifi)
    assert result.success
    assert m.get_function("callee") is not None
    assert [a.name for a in ifi.static_allocas] == ["a.i"]
    assert [c.called_function.name for c in ifi.inlined_call_sites] == ["g"]  # type: ignore[union-attr]
    require_tools("opt-19")
    text = SRC.replace("define i32 @callee(i32 %x) {", "define i32 @callee(i32 %x) alwaysinline {")
    r = subprocess.run(["opt-19", "-passes=always-inline", "-S", "-"], input=text, capture_output=True, text=True)
    expected = r.stdout.split("define i32 @caller", 1)[1].split("}", 1)[0]
    ours = print_module(m).split("define i32 @caller", 1)[1].split("}", 1)[0]
    assert ours == expected


def test_inline_failures_have_llvm_reasons() -> None:
    m = parse_assembly(
        """
declare i32 @ext(i32)
define i32 @caller(ptr %f) {
  %a = call i32 @ext(i32 1)
  %b = call i32 %f(i32 2)
  ret i32 %a
}
"""
    )
    fn = m.get_function("caller")
    calls = [i for bb in fn.blocks for i in bb.instructions if isinstance(i, CallBase)]
    before = print_module(m)
    for call in calls:
        result = inline_function(call, InlineFunctionInfo())
        assert not result.success and result.message == "external or indirect"
    assert print_module(m) == before


def test_is_inline_viable_reasons() -> None:
    m = parse_assembly(
        """
declare void @llvm.va_start.p0(ptr)
define void @rec() {
  call void @rec()
  ret void
}
define void @va(...) {
  %ap = alloca ptr
  call void @llvm.va_start.p0(ptr %ap)
  ret void
}
define void @ok() {
  ret void
}
"""
    )
    assert is_inline_viable(m.get_function("rec")).message == "recursive call"
    assert is_inline_viable(m.get_function("va")).message == "contains VarArgs initialized with va_start"
    assert is_inline_viable(m.get_function("ok")).success
