"""Call rules (LLVM 19 ``visitCallBase``, ``visitCallInst``, ``visitInvokeInst``,
``visitCallBrInst``, ``verifyMustTailCall``, ``verifyInlineAsmCall``, the
operand-bundle checks).

What the parser accepts is checked against the text opt-19 prints (kept here,
so the tests run without opt) and, when opt-19 is installed, against opt-19
itself. What the parser rejects (argument count or types that disagree with
the function type, a non-pointer callee, attributes past the last argument)
is broken through the API and checked against LLVM's wording and values.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.ir.attributes import Attribute, AttributeList, AttributeSet
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier import diagnostics_text, module_diagnostics

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vhelpers import CONFORMANCE, OPT, check, opt_text, parse  # noqa: E402
from vhelpers import function as fn  # noqa: E402


def first(m: Module, opcode: str, name: str = "f") -> Instruction:
    for bb in fn(m, name).blocks:
        for i in bb.instructions:
            if i.opcode == opcode:
                return i
    raise KeyError(opcode)


def line(i: Instruction) -> str:
    return "  " + str(i) + "\n"


# --- the call base (text) --------------------------------------------------------------------------
def test_intrinsic_called_with_another_signature() -> None:
    text = """
declare void @llvm.donothing()
define void @f() {
  call void (i32) @llvm.donothing(i32 0)
  ret void
}
"""
    found = module_diagnostics(parse(text))
    # (opt-19 first reports the declaration's "Invalid user of intrinsic
    # instruction!", a function rule.)
    mine = found[-1]
    assert mine.text == "Intrinsic called with incompatible signature\n  call void @llvm.donothing(i32 0)\n"
    assert mine.function == "@f"
    if OPT is not None:
        assert opt_text(text).endswith(mine.text)


def test_amdgpu_cs_chain_direct_call() -> None:
    check(
        "declare void @g()\ndefine void @f() {\n  call amdgpu_cs_chain void @g()\n  ret void\n}\n",
        "Direct calls to amdgpu_cs_chain/amdgpu_cs_chain_preserve functions not allowed. "
        "Please use the @llvm.amdgpu.cs.chain intrinsic instead.\n  call amdgpu_cs_chain void @g()\n",
    )


def test_speculatable_needs_the_callee() -> None:
    check(
        """
declare void @g()
declare void @sp() speculatable
define void @f() {
  call void @g() speculatable
  call void @sp() speculatable
  ret void
}
""",
        "speculatable attribute may not apply to call sites\n  call void @g() #0\n",
    )


def test_immarg_rules() -> None:
    check(
        """
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1 immarg)
define void @f(ptr %p, i1 %v) {
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 4, i1 %v)
  ret void
}
""",
        "immarg operand has non-immediate parameter\ni1 %v\n"
        "  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 4, i1 %v)\n",
    )


def test_swifterror_arguments() -> None:
    check(
        """
declare void @se(ptr swifterror)
declare ptr @retp()
define void @f(ptr swifterror %p, ptr %q) {
  %a = alloca ptr
  %b = alloca swifterror ptr
  call void @se(ptr swifterror %a)
  call void @se(ptr swifterror %b)
  call void @se(ptr swifterror %p)
  call void @se(ptr swifterror %q)
  %c = call ptr @retp()
  call void @se(ptr swifterror %c)
  ret void
}
""",
        "swifterror argument for call has mismatched alloca\n  %a = alloca ptr, align 8\n"
        "  call void @se(ptr swifterror %a)\n"
        "swifterror argument for call has mismatched parameter\nptr %q\n  call void @se(ptr swifterror %q)\n"
        "swifterror argument should come from an alloca or parameter\n  %c = call ptr @retp()\n"
        "  call void @se(ptr swifterror %c)\n",
    )


def test_inalloca_argument_needs_an_inalloca_alloca() -> None:
    check(
        """
declare void @ia(ptr inalloca(i8))
define void @f() {
  %a = alloca i8
  call void @ia(ptr inalloca(i8) %a)
  %b = alloca inalloca i8
  call void @ia(ptr inalloca(i8) %b)
  ret void
}
""",
        "inalloca argument for call has mismatched alloca\n  %a = alloca i8, align 1\n"
        "  call void @ia(ptr inalloca(i8) %a)\n",
    )


def test_variadic_argument_attributes() -> None:
    check(
        """
declare void @va(i32, ...)
declare i32 @vai(i32, ...)
define void @f(ptr %p) {
  call void (i32, ...) @va(i32 0, ptr nest %p, ptr nest %p)
  %r = call i32 (i32, ...) @vai(i32 0, i32 returned 1, i32 returned 2)
  %s = call i32 (i32, ...) @vai(i32 0, i64 returned 1)
  call void (i32, ...) @va(i32 0, ptr sret(i8) %p)
  call void (i32, ...) @va(i32 0, ptr inalloca(i8) %p, i32 1)
  call void (i32, ...) @va(i32 0, ptr inalloca(i8) %p)
  %t = call i32 (i32, ...) @vai(i32 0, i32 returned 1)
  ret void
}
""",
        "More than one parameter has attribute nest!\n"
        "  call void (i32, ...) @va(i32 0, ptr nest %p, ptr nest %p)\n"
        "More than one parameter has attribute returned!\n"
        "  %r = call i32 (i32, ...) @vai(i32 0, i32 returned 1, i32 returned 2)\n"
        "Incompatible argument and return types for 'returned' attribute\n"
        "  %s = call i32 (i32, ...) @vai(i32 0, i64 returned 1)\n"
        "Attribute 'sret' cannot be used for vararg call arguments!\n"
        "  call void (i32, ...) @va(i32 0, ptr sret(i8) %p)\n"
        "inalloca isn't on the last argument!\n"
        "  call void (i32, ...) @va(i32 0, ptr inalloca(i8) %p, i32 1)\n",
    )


def test_variadic_arguments_get_the_parameter_attribute_rules() -> None:
    check(
        """
declare void @va(i32, ...)
define void @f(ptr %p) {
  call void (i32, ...) @va(i32 0, i32 byval(i32) 1)
  call void (i32, ...) @va(i32 0, i32 zeroext 1, ptr align 4 %p)
  ret void
}
""",
        "Attribute 'byval(i32)' applied to incompatible type!\n  call void (i32, ...) @va(i32 0, i32 byval(i32) 1)\n",
    )


def test_token_parameter_and_indirect_token_result() -> None:
    check(
        """
declare void @tk(token)
define void @f(ptr %p) {
  call void @tk(token none)
  %t = call token %p()
  %a = call x86_amx %p()
  ret void
}
""",
        "Function takes token but isn't an intrinsic\ntoken %0\nptr @tk\n"
        "Function has token parameter but isn't an intrinsic\n  call void @tk(token none)\n"
        "Return type cannot be token for indirect call!\n"
        "Return type cannot be x86_amx for indirect call!\n",
    )


def test_over_aligned_arguments_and_results() -> None:
    check(
        """
declare void @big(<1073741824 x i64>)
declare <1073741824 x i64> @bigr()
define void @f(ptr %p) {
  call void @big(<1073741824 x i64> zeroinitializer)
  %r = call <1073741824 x i64> @bigr()
  %s = call {i32, [2 x <1073741824 x i64>]} %p()
  ret void
}
""",
        "Incorrect alignment of argument passed to called function!\n"
        "  call void @big(<1073741824 x i64> zeroinitializer)\n"
        "Incorrect alignment of return type to called function!\n  %r = call <1073741824 x i64> @bigr()\n"
        "Incorrect alignment of return type to called function!\n"
        "  %s = call { i32, [2 x <1073741824 x i64>] } %p()\n",
    )


def test_inlinable_call_needs_a_debug_location() -> None:
    text = """
define void @callee() !dbg !5 {
  ret void, !dbg !8
}
define void @f() !dbg !9 {
  call void @callee()
  ret void, !dbg !10
}
define weak void @wcallee() !dbg !11 {
  ret void, !dbg !12
}
define void @g() !dbg !13 {
  call void @wcallee()
  ret void, !dbg !14
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "callee", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 1, column: 1, scope: !5)
!9 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 2, type: !6, scopeLine: 2, spFlags: DISPFlagDefinition, unit: !0)
!10 = !DILocation(line: 2, column: 1, scope: !9)
!11 = distinct !DISubprogram(name: "wcallee", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!12 = !DILocation(line: 3, column: 1, scope: !11)
!13 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 4, type: !6, scopeLine: 4, spFlags: DISPFlagDefinition, unit: !0)
!14 = !DILocation(line: 4, column: 1, scope: !13)
"""
    found = module_diagnostics(parse(text))
    assert diagnostics_text(found) == (
        "inlinable function call in a function with debug info must have a !dbg location\n  call void @callee()\n"
    )
    assert found[0].debug_info  # opt-19 drops the debug info with a warning
    assert found[0].function == "@f"


# --- operand bundles --------------------------------------------------------------------------------
def test_operand_bundle_rules() -> None:
    check(
        """
declare i32 @__CxxFrameHandler3(...)
declare void @g()
define void @f() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @g() to label %c unwind label %a
c:
  ret void
a:
  %cp = cleanuppad within none []
  call void @g() [ "funclet"(token %cp), "funclet"(token %cp) ]
  call void @g() [ "funclet"(token %cp, token %cp) ]
  call void @g() [ "funclet"(token none) ]
  call void @g() [ "deopt"(i32 0), "deopt"(i32 1) ]
  call void @g() [ "gc-transition"(), "gc-transition"() ]
  call void @g() [ "cfguardtarget"(ptr null, ptr null) ]
  call void @g() [ "cfguardtarget"(ptr null), "cfguardtarget"(ptr null) ]
  call void @g() [ "kcfi"(i32 1), "kcfi"(i32 2) ]
  call void @g() [ "kcfi"(i64 1) ]
  call void @g() [ "kcfi"() ]
  call void @g() [ "gc-live"(), "gc-live"() ]
  call void @g() [ "preallocated"(token none) ]
  call void @g() [ "ptrauth"(i32 1, i64 2) ]
  call void @g() [ "funclet"(token %cp), "deopt"(), "unknown"(i32 0) ]
  cleanupret from %cp unwind to caller
}
define void @h(ptr %f, i32 %k) {
  call void %f() [ "ptrauth"(i32 1, i64 2), "ptrauth"(i32 1, i64 2) ]
  call void %f() [ "ptrauth"(i32 1) ]
  call void %f() [ "ptrauth"(i32 %k, i64 2) ]
  call void %f() [ "ptrauth"(i32 1, i32 2) ]
  call void %f() [ "convergencectrl"(i32 1) ]
  call void %f() [ "convergencectrl"(token none), "convergencectrl"(token none) ]
  ret void
}
""",
        "Multiple funclet operand bundles\n"
        '  call void @g() [ "funclet"(token %cp), "funclet"(token %cp) ]\n'
        "Expected exactly one funclet bundle operand\n"
        '  call void @g() [ "funclet"(token %cp, token %cp) ]\n'
        "Funclet bundle operands should correspond to a FuncletPadInst\n"
        '  call void @g() [ "funclet"(token none) ]\n'
        "Multiple deopt operand bundles\n"
        '  call void @g() [ "deopt"(i32 0), "deopt"(i32 1) ]\n'
        "Multiple gc-transition operand bundles\n"
        '  call void @g() [ "gc-transition"(), "gc-transition"() ]\n'
        "Expected exactly one cfguardtarget bundle operand\n"
        '  call void @g() [ "cfguardtarget"(ptr null, ptr null) ]\n'
        "Multiple CFGuardTarget operand bundles\n"
        '  call void @g() [ "cfguardtarget"(ptr null), "cfguardtarget"(ptr null) ]\n'
        "Multiple kcfi operand bundles\n"
        '  call void @g() [ "kcfi"(i32 1), "kcfi"(i32 2) ]\n'
        "Kcfi bundle operand must be an i32 constant\n"
        '  call void @g() [ "kcfi"(i64 1) ]\n'
        "Expected exactly one kcfi bundle operand\n"
        '  call void @g() [ "kcfi"() ]\n'
        "Multiple gc-live operand bundles\n"
        '  call void @g() [ "gc-live"(), "gc-live"() ]\n'
        '"preallocated" argument must be a token from llvm.call.preallocated.setup\n'
        '  call void @g() [ "preallocated"(token none) ]\n'
        "Direct call cannot have a ptrauth bundle\n"
        '  call void @g() [ "ptrauth"(i32 1, i64 2) ]\n'
        "Multiple ptrauth operand bundles\n"
        '  call void %f() [ "ptrauth"(i32 1, i64 2), "ptrauth"(i32 1, i64 2) ]\n'
        "Expected exactly two ptrauth bundle operands\n"
        '  call void %f() [ "ptrauth"(i32 1) ]\n'
        "Ptrauth bundle key operand must be an i32 constant\n"
        '  call void %f() [ "ptrauth"(i32 %k, i64 2) ]\n'
        "Ptrauth bundle discriminator operand must be an i64\n"
        '  call void %f() [ "ptrauth"(i32 1, i32 2) ]\n'
        "The 'convergencectrl' bundle requires exactly one token use.\n"
        '  call void %f() [ "convergencectrl"(i32 1) ]\n'
        "The 'convergencectrl' bundle can occur at most once on a call\n"
        '  call void %f() [ "convergencectrl"(token none), "convergencectrl"(token none) ]\n',
    )


def test_attached_call_bundle() -> None:
    check(
        """
declare ptr @objc_retainAutoreleasedReturnValue(ptr)
declare ptr @other(ptr)
declare ptr @retp()
declare void @g()
declare void @noret() noreturn
define void @f() {
  %a = call ptr @retp() [ "clang.arc.attachedcall"(ptr @objc_retainAutoreleasedReturnValue) ]
  %b = call ptr @retp() [ "clang.arc.attachedcall"(ptr @other) ]
  call void @g() [ "clang.arc.attachedcall"(ptr @objc_retainAutoreleasedReturnValue) ]
  call void @noret() [ "clang.arc.attachedcall"(ptr @objc_retainAutoreleasedReturnValue) ]
  %c = call ptr @retp() [ "clang.arc.attachedcall"() ]
  %d = call ptr @retp() [ "clang.arc.attachedcall"(ptr @objc_retainAutoreleasedReturnValue), "clang.arc.attachedcall"(ptr @objc_retainAutoreleasedReturnValue) ]
  ret void
}
""",
        "invalid function argument\n"
        '  %b = call ptr @retp() [ "clang.arc.attachedcall"(ptr @other) ]\n'
        'a call with operand bundle "clang.arc.attachedcall" must call a function returning a pointer or a '
        "non-returning function that has a void return type\n"
        '  call void @g() [ "clang.arc.attachedcall"(ptr @objc_retainAutoreleasedReturnValue) ]\n'
        'operand bundle "clang.arc.attachedcall" requires one function as an argument\n'
        '  %c = call ptr @retp() [ "clang.arc.attachedcall"() ]\n'
        'Multiple "clang.arc.attachedcall" operand bundles\n'
        '  %d = call ptr @retp() [ "clang.arc.attachedcall"(ptr @objc_retainAutoreleasedReturnValue), '
        '"clang.arc.attachedcall"(ptr @objc_retainAutoreleasedReturnValue) ]\n',
    )


def test_convergence_control_per_call() -> None:
    check(
        """
declare token @llvm.experimental.convergence.anchor()
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.loop()
declare void @g()
declare void @cg() convergent
define void @f(ptr %p) {
  %t = call token @llvm.experimental.convergence.anchor()
  call void %p() [ "convergencectrl"(token none) ]
  call void @g() [ "convergencectrl"(token %t) ]
  call void @cg() [ "convergencectrl"(token %t) ]
  call void @cg()
  ret void
}
define void @h(ptr %p) {
  %t = call token @llvm.experimental.convergence.anchor()
  %u = call token @llvm.experimental.convergence.anchor() [ "convergencectrl"(token %t) ]
  %e = call token @llvm.experimental.convergence.entry()
  ret void
}
define void @k() convergent {
entry:
  call void @cg()
  %e = call token @llvm.experimental.convergence.entry()
  br label %l
l:
  %e2 = call token @llvm.experimental.convergence.entry()
  %lp = call token @llvm.experimental.convergence.loop()
  call void @cg()
  %lp2 = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %lp) ]
  ret void
}
define void @m() {
  call void @cg()
  %t = call token @llvm.experimental.convergence.anchor()
  ret void
}
define void @ok() convergent {
  %e = call token @llvm.experimental.convergence.entry()
  call void @cg() [ "convergencectrl"(token %e) ]
  ret void
}
""",
        "Convergence control tokens can only be produced by calls to the convergence control intrinsics.\n"
        'token none\n  call void %p() [ "convergencectrl"(token none) ]\n'
        "Convergence control token can only be used in a convergent call.\n"
        '  call void @g() [ "convergencectrl"(token %t) ]\n'
        "Cannot mix controlled and uncontrolled convergence in the same function.\n  call void @cg()\n"
        "Entry or anchor intrinsic cannot have a convergencectrl token operand.\n"
        '  %u = call token @llvm.experimental.convergence.anchor() [ "convergencectrl"(token %t) ]\n'
        "Entry intrinsic can occur only in a convergent function.\n"
        "  %e = call token @llvm.experimental.convergence.entry()\n"
        "Entry intrinsic cannot be preceded by a convergent operation in the same basic block.\n"
        "  %e = call token @llvm.experimental.convergence.entry()\n"
        "Entry intrinsic can occur only in the entry block.\n"
        "  %e2 = call token @llvm.experimental.convergence.entry()\n"
        "Loop intrinsic must have a convergencectrl token operand.\n"
        "  %lp = call token @llvm.experimental.convergence.loop()\n"
        "Loop intrinsic cannot be preceded by a convergent operation in the same basic block.\n"
        '  %lp2 = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %lp) ]\n'
        "Cannot mix controlled and uncontrolled convergence in the same function.\n"
        "  %t = call token @llvm.experimental.convergence.anchor()\n",
    )


# --- inline asm and callbr -----------------------------------------------------------------------------
def test_inline_asm_indirect_constraints() -> None:
    check(
        """
define void @f(ptr %p) {
  call void asm "", "=*m"(ptr %p)
  call void asm "", "*m"(ptr elementtype(i32) %p)
  call void asm "", "r"(ptr elementtype(i32) %p)
  call void asm sideeffect "#x", "!i"()
  ret void
}
""",
        'Operand for indirect constraint must have elementtype attribute\n  call void asm "", "=*m"(ptr %p)\n'
        "Elementtype attribute can only be applied for indirect constraints\n"
        '  call void asm "", "r"(ptr elementtype(i32) %p)\n'
        'Label constraints can only be used with callbr\n  call void asm sideeffect "#x", "!i"()\n',
    )


def test_callbr_rules() -> None:
    check(
        """
declare void @g()
define void @f(ptr %p) {
  callbr void @g() to label %a []
a:
  callbr void %p() to label %b []
b:
  callbr void asm unwind "", "!i"() to label %c [label %d]
c:
  callbr void asm "", "!i"() to label %d [label %d, label %c]
d:
  ret void
}
""",
        "Callbr is currently only used for asm-goto!\n  callbr void @g()\n          to label %a []\n"
        "Callbr is currently only used for asm-goto!\n  callbr void %p()\n          to label %b []\n"
        "Unwinding from Callbr is not allowed\n"
        "Number of label constraints does not match number of callbr dests\n"
        '  callbr void asm "", "!i"()\n          to label %d [label %d, label %c]\n',
    )


def test_callbr_checks_no_call_base() -> None:
    # LLVM 19's visitCallBrInst does not run visitCallBase: duplicate bundles pass.
    check(
        """
define void @f() {
  callbr void asm "", "!i"() [ "deopt"(i32 0), "deopt"(i32 1) ] to label %a [label %b]
a:
  ret void
b:
  ret void
}
""",
        "",
    )


# --- invoke ---------------------------------------------------------------------------------------------
def test_invoke_unwind_destination_must_be_an_eh_pad() -> None:
    check(
        """
define i32 @f() {
  %A = invoke i32 @f() to label %L unwind label %L
L:
  ret i32 %A
}
""",
        "The unwind destination does not have an exception handling instruction!\n"
        "  %A = invoke i32 @f()\n          to label %L unwind label %L\n",
    )


def test_invoke_of_an_intrinsic_is_reported_twice() -> None:
    # visitCallBase and visitTerminator both end in visitInstruction.
    text = """
declare i32 @__gxx_personality_v0(...)
declare void @llvm.trap()
declare void @llvm.donothing()
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @llvm.trap() to label %c unwind label %l
c:
  invoke void @llvm.donothing() to label %d unwind label %l
d:
  ret void
l:
  %x = landingpad { ptr, i32 } cleanup
  ret void
}
"""
    message = (
        "Cannot invoke an intrinsic other than donothing, patchpoint, statepoint, coro_resume, coro_destroy "
        "or clang.arc.attachedcall\n  invoke void @llvm.trap()\n          to label %c unwind label %l\n"
    )
    check(text, message * 2)


def test_invoke_conformance_file_matches_opt() -> None:
    path = CONFORMANCE / "invoke.ll"
    if not path.is_file():
        pytest.skip("conformance tests not present")
    text = path.read_text()
    found = module_diagnostics(parse(text))
    messages = [d.message for d in found]
    assert messages[:2] == ["The unwind destination does not have an exception handling instruction!"] * 2
    assert messages[-1] == "Block containing LandingPadInst must be jumped to only by the unwind edge of an invoke."
    if OPT is not None:
        assert diagnostics_text(found) == opt_text(text)


# --- musttail --------------------------------------------------------------------------------------------
def test_musttail_conformance_file_matches_opt() -> None:
    path = CONFORMANCE / "musttail-invalid.ll"
    if not path.is_file():
        pytest.skip("conformance tests not present")
    text = path.read_text()
    found = module_diagnostics(parse(text))
    assert [d.message.split(" due to ")[-1] for d in found] == [
        "mismatched calling conv",
        "mismatched parameter counts",
        "mismatched parameter types",
        "mismatched varargs",
        "mismatched return types",
        "mismatched ABI impacting function attributes",
        "mismatched ABI impacting function attributes",
        "mismatched ABI impacting function attributes",
        "mismatched ABI impacting function attributes",
        "musttail call must precede a ret with an optional bitcast",
        "cannot use musttail call with inline asm",
    ]
    assert found[5].detail == "  musttail call void @mismatched_byval_callee(ptr %a)\nptr %a\n"
    if OPT is not None:
        assert diagnostics_text(found) == opt_text(text)


def test_callbr_conformance_file_call_findings() -> None:
    path = CONFORMANCE / "callbr.ll"
    if not path.is_file():
        pytest.skip("conformance tests not present")
    found = module_diagnostics(parse(path.read_text()))
    assert [d.message for d in found][:4] == [
        "Number of label constraints does not match number of callbr dests",
        "Number of label constraints does not match number of callbr dests",
        "Label constraints can only be used with callbr",
        "Number of label constraints does not match number of callbr dests",
    ]


def test_musttail_position_and_result() -> None:
    check(
        """
declare ptr @pc(ptr)
declare i32 @ic()
define ptr @bitcast_ok(ptr %p) {
  %r = musttail call ptr @pc(ptr %p)
  %b = bitcast ptr %r to ptr
  ret ptr %b
}
define ptr @bitcast_other(ptr %p) {
  %r = musttail call ptr @pc(ptr %p)
  %b = bitcast ptr %p to ptr
  ret ptr %b
}
define i32 @not_returned() {
  %r = musttail call i32 @ic()
  ret i32 0
}
define i32 @undef_returned() {
  %r = musttail call i32 @ic()
  ret i32 undef
}
define void @as1(ptr addrspace(1) %p) {
  musttail call void @as1(ptr addrspace(1) %p)
  ret void
}
""",
        "bitcast following musttail call must use the call\n  %b = bitcast ptr %p to ptr\n"
        "musttail call result must be returned\n  ret i32 0\n",
    )


def test_musttail_tailcc_attributes() -> None:
    check(
        """
declare tailcc void @tc(ptr inreg, ptr swifterror)
declare swifttailcc void @stc(ptr byref(i32))
declare tailcc void @tcv(...)
define tailcc void @f(ptr inreg %a, ptr inalloca(i8) %b) {
  musttail call tailcc void @tc(ptr inreg %a, ptr swifterror %b)
  ret void
}
define swifttailcc void @g(ptr byref(i32) %a) {
  musttail call swifttailcc void @stc(ptr byref(i32) %a)
  ret void
}
define tailcc void @h(...) {
  musttail call tailcc void (...) @tcv(...)
  ret void
}
""",
        # The call-base finding comes first: visitCallInst checks musttail last.
        "swifterror argument for call has mismatched parameter\nptr %b\n"
        "  musttail call tailcc void @tc(ptr inreg %a, ptr swifterror %b)\n"
        "inreg attribute not allowed in tailcc musttail caller\n"
        "inalloca attribute not allowed in tailcc musttail caller\n"
        "inreg attribute not allowed in tailcc musttail callee\n"
        "swifterror attribute not allowed in tailcc musttail callee\n"
        "byref attribute not allowed in swifttailcc musttail caller\n"
        "byref attribute not allowed in swifttailcc musttail callee\n"
        "cannot guarantee tailcc tail call for varargs function\n",
    )


# --- broken through the API ---------------------------------------------------------------------------
CALLS = """
declare void @g(i32)
declare void @v(i32, ...)
define void @f(i32 %x) {
  call void @g(i32 %x)
  call void (i32, ...) @v(i32 %x, i32 1)
  ret void
}
"""


def test_callee_must_be_a_pointer() -> None:
    m = parse(CALLS)
    call = first(m, "call")
    call.set_operand(call.num_operands - 1, ConstantInt.get(m.context.i32, 7))
    found = module_diagnostics(m)
    assert found[0].message == "Called function must be a pointer!"
    assert found[0].detail == line(call)


def test_argument_count_must_match() -> None:
    m = parse(CALLS)
    ctx = m.context
    call = first(m, "call")
    call.function_type = ctx.function_type(ctx.void, [ctx.i32, ctx.i32])  # type: ignore[attr-defined]
    found = module_diagnostics(m)
    assert found[0].message == "Incorrect number of arguments passed to called function!"
    assert found[0].detail == line(call)
    assert found[0].instruction == str(call)


def test_variadic_call_needs_the_fixed_arguments() -> None:
    m = parse(CALLS)
    ctx = m.context
    calls = [i for i in fn(m).entry_block.instructions if i.opcode == "call"]
    calls[1].function_type = ctx.function_type(ctx.void, [ctx.i32, ctx.i32, ctx.i32], True)  # type: ignore[attr-defined]
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["Called function requires more parameters than were provided!"]
    assert found[0].detail == line(calls[1])


def test_argument_types_must_match() -> None:
    m = parse(CALLS)
    call = first(m, "call")
    byte = ConstantInt.get(m.context.i8, 0)
    call.set_operand(0, byte)
    found = module_diagnostics(m)
    assert found[0].message == "Call parameter type does not match function signature!"
    # The argument, the expected type (continuing its line), then the call.
    assert found[0].detail == "i8 0\n i32" + line(call)


def test_attribute_after_last_parameter() -> None:
    m = parse(CALLS)
    call = first(m, "call")
    noundef = AttributeSet([Attribute.enum("noundef")])
    call.attributes = AttributeList(None, None, [AttributeSet(), AttributeSet(), noundef])  # type: ignore[attr-defined]
    found = module_diagnostics(m)
    assert found[0].message == "Attribute after last parameter!"
    assert found[0].detail == line(call)


@pytest.mark.parametrize(
    "opcode, text, then",
    [
        # A failed call base does not stop visitInvokeInst: the unwind rule follows.
        (
            "invoke",
            """
declare void @g(i32)
define void @f() {
entry:
  invoke void @g(i32 0) to label %a unwind label %a
a:
  ret void
}
""",
            "The unwind destination does not have an exception handling instruction!",
        ),
        # Nor the musttail rules of visitCallInst.
        (
            "call",
            """
declare void @g(i32)
define void @f() {
  musttail call void @g(i32 0)
  ret void
}
""",
            "cannot guarantee tail call due to mismatched parameter counts",
        ),
    ],
    ids=["invoke_reports_call_base_and_unwind_problems", "musttail_checked_after_a_failed_call_base"],
)
def test_rules_after_a_failed_call_base(opcode: str, text: str, then: str) -> None:
    m = parse(text)
    first(m, opcode).set_operand(0, ConstantInt.get(m.context.i8, 0))
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["Call parameter type does not match function signature!", then]


# --- valid code ----------------------------------------------------------------------------------------
VALID = """
declare i32 @__gxx_personality_v0(...)
declare void @g(i32)
declare void @v(i32, ...)
declare ptr @pc(ptr)
declare void @llvm.donothing()
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1 immarg)
declare tailcc void @tc(ptr)
declare void @se(ptr swifterror)
declare void @ia(ptr inalloca(i8))

define ptr @f(ptr %p, ptr swifterror %e) personality ptr @__gxx_personality_v0 {
entry:
  call void @g(i32 1)
  call void (i32, ...) @v(i32 1, i32 2, ptr %p, double 1.0)
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 4, i1 false)
  call void @se(ptr swifterror %e)
  %s = alloca swifterror ptr
  call void @se(ptr swifterror %s)
  %ia = alloca inalloca i8
  call void @ia(ptr inalloca(i8) %ia)
  call void asm sideeffect "nop", "~{memory}"()
  %o = call i32 asm "mov $1, $0", "=r,r"(i32 1)
  call void asm "", "=*m"(ptr elementtype(i32) %p)
  call void @g(i32 2) [ "deopt"(i32 0), "gc-live"(ptr %p), "unknown"() ]
  call void %p() [ "ptrauth"(i32 1, i64 2), "kcfi"(i32 3) ]
  invoke void @llvm.donothing() to label %n unwind label %l
n:
  invoke void @g(i32 3) to label %cb unwind label %l
cb:
  callbr void asm "", "r,!i"(i32 1) to label %t [label %l2]
l2:
  br label %t
t:
  %r = call ptr @pc(ptr %p)
  ret ptr %r
l:
  %x = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %x
}

define ptr @mt(ptr %p) {
  %r = musttail call ptr @pc(ptr %p)
  ret ptr %r
}

define tailcc void @tail(ptr %p) {
  musttail call tailcc void @tc(ptr %p)
  ret void
}
"""


def test_valid_calls_have_no_findings() -> None:
    check(VALID, "")


def test_clang_cxx_exceptions_have_no_findings(tmp_path: Path) -> None:
    clang = shutil.which("clang-19")
    if clang is None:
        pytest.skip("clang-19 not installed")
    src = tmp_path / "x.cpp"
    src.write_text(
        "struct S { S(); ~S(); };\n"
        "void may_throw(int);\n"
        "int f(int x) {\n"
        "  S s;\n"
        "  try { S t; may_throw(x); try { may_throw(x + 1); } catch (int e) { may_throw(e); throw; } }\n"
        "  catch (int i) { S u; may_throw(i); return i; }\n"
        "  catch (...) { try { may_throw(2); } catch (...) { return 3; } return 1; }\n"
        "  return 0;\n"
        "}\n"
    )
    for target in ("x86_64-linux-gnu", "x86_64-pc-windows-msvc"):
        for level in ("-O0", "-O2"):
            out = tmp_path / ("x%s%s.ll" % (target, level))
            subprocess.run(
                [clang, "--target=" + target, "-fcxx-exceptions", "-fexceptions", "-S", "-emit-llvm", level, str(src), "-o", str(out)],
                check=True,
                capture_output=True,
            )
            m = llvmpy_mid.parse_file(out, verify=False)
            assert module_diagnostics(m) == [], (target, level)


def test_odd_calls_never_crash() -> None:
    """Calls broken in ways the parser never produces still give findings, not exceptions."""
    m = parse(CALLS)
    ctx = m.context
    call = first(m, "call")
    call.function_type = ctx.function_type(ctx.void, [], True)  # type: ignore[attr-defined]
    call.attributes = AttributeList(None, None, [AttributeSet([Attribute.enum("nest")])] * 3)  # type: ignore[attr-defined]
    module_diagnostics(m)
    m2 = parse(VALID)
    seven = ConstantInt.get(m2.context.i32, 7)
    for bb in fn(m2).blocks:
        for i in bb.instructions:
            if i.opcode in ("call", "invoke", "callbr"):
                i.set_operand(i.num_operands - 1, seven)
    found = module_diagnostics(m2)
    assert "Called function must be a pointer!" in [d.message for d in found]
    assert "Callbr is currently only used for asm-goto!" in [d.message for d in found]
