"""The verifier's rules on a function itself (``function_rules``, LLVM's visitFunction).

Constructs the text parser accepts (as llvm-as does) are compared with opt-19:
the expected text below was taken from opt-19, and a live opt-19 run is
compared too when it is installed. What the parser refuses (common linkage on
a function, an argument whose type differs from the function type, a
personality in another module...) is built through the API and checked
against LLVM 19's wording.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from llvmpy_mid.errors import IRError

from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.calling_conv import KEYWORDS
from llvmpy_mid.ir.constants import BlockAddress
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Linkage
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.function_rules import (
    STOPPED_AFTER_FUNCTION_METADATA,
    STOPPED_BEFORE_DEBUG_INFO,
    STOPPED_BEFORE_METADATA,
    STOPPED_MEMO,
    verify_function,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vhelpers import CONFORMANCE, HAVE_OPT, check, opt_text, ours, parse, texts  # noqa: E402


def first_function(m: Module) -> Function:
    return next(iter(m.functions))


# --- text the parser accepts ---------------------------------------------------------------------

TEXT_CASES = [
    (
        "define void @llvm.memcpy.p0.p0.i32(ptr, ptr, i32, i1) {\nentry:\n  ret void\n}",
        "llvm intrinsics cannot be defined!\nptr @llvm.memcpy.p0.p0.i32\n",
    ),
    (
        "define void @f() {\nentry:\n  br label %entry\n}",
        "Entry block to function must not have predecessors!\nlabel %entry\n",
    ),
    (
        "define void @f() {\nentry:\n  ret void\nnext:\n  br i1 true, label %entry, label %next\n}",
        "Entry block to function must not have predecessors!\nlabel %entry\n",
    ),
    (
        "@g = global ptr blockaddress(@f, %entry)\ndefine void @f() {\nentry:\n  ret void\n}",
        "blockaddress may not be used with the entry block!\nlabel %entry\n",
    ),
    (
        "define void @f() {\nentry:\n  %x = getelementptr i8, ptr blockaddress(@f, %entry), i64 0\n  ret void\n}",
        "blockaddress may not be used with the entry block!\nlabel %entry\n",
    ),
    (
        "define void @f() {\nentry:\n  br label %b\nb:\n  %x = getelementptr i8, ptr blockaddress(@f, %b), i64 0\n"
        "  ret void\n}",
        "",
    ),
    (
        "declare void @k()\ndeclare void @d() personality ptr @k",
        "Function declaration shouldn't have a personality routine\nptr @d\n",
    ),
    ("declare token @f()", "Function returns a token but isn't an intrinsic\nptr @f\n"),
    ("declare x86_amx @f()", "Function returns a x86_amx but isn't an intrinsic\nptr @f\n"),
    ("declare void @f(token)", "Function takes token but isn't an intrinsic\ntoken %0\nptr @f\n"),
    ("declare void @f(metadata)", "Function takes metadata but isn't an intrinsic\nmetadata %0\nptr @f\n"),
    ("declare void @f(i32, x86_amx %t)", "Function takes x86_amx but isn't an intrinsic\nx86_amx %t\nptr @f\n"),
    ("declare void @llvm.x(ptr elementtype(i32))", "Attribute 'elementtype' can only be applied to a callsite.\nptr @llvm.x\n"),
    (
        "declare i32 @llvm.experimental.gc.get.pointer.base.i32.i32(i32)",
        "Attribute 'nocapture' applied to incompatible type!\nptr @llvm.experimental.gc.get.pointer.base.i32.i32\n"
        "gc.get.pointer.base must return a pointer\nptr @llvm.experimental.gc.get.pointer.base.i32.i32\n",
    ),
    (
        "declare ptr @llvm.experimental.gc.get.pointer.base.p0.p1(ptr addrspace(1))",
        "gc.get.pointer.base operand and result must be of the same type\n"
        "ptr @llvm.experimental.gc.get.pointer.base.p0.p1\n",
    ),
    ("declare ptr addrspace(1) @llvm.experimental.gc.get.pointer.base.p1.p1(ptr addrspace(1))", ""),
    (
        "declare ptr @llvm.experimental.gc.get.pointer.offset.p0(ptr)",
        "gc.get.pointer.offset must return integer\nptr @llvm.experimental.gc.get.pointer.offset.p0\n",
    ),
    ("declare i64 @llvm.experimental.gc.get.pointer.offset.p0(ptr)", ""),
    (
        "declare void @llvm.donothing()\n@g = global ptr @llvm.donothing",
        "Invalid user of intrinsic instruction!\nptr @g\n",
    ),
    (
        "declare void @llvm.donothing()\ndefine void @f() {\n  call void @llvm.donothing()\n  ret void\n}",
        "",
    ),
    (
        "declare void @llvm.donothing()\ndefine void @f() {\n  call void @llvm.donothing()\n  ret void\n}",
        "",
    ),
    (
        "declare void @llvm.donothing()\n@g = global ptr @llvm.donothing\n"
        "define void @f(ptr %p) {\n  store ptr @llvm.donothing, ptr %p\n  ret void\n}",
        "Invalid user of intrinsic instruction!\n  store ptr @llvm.donothing, ptr %p, align 8\n"
        "Cannot take the address of an intrinsic!\n  store ptr @llvm.donothing, ptr %p, align 8\n",
    ),
    # swifterror arguments: loads, stores to them and swifterror call arguments only, in use-list order.
    (
        "declare void @take(ptr)\ndefine void @h(ptr swifterror %e) {\n  %v = load ptr, ptr %e\n"
        "  store ptr %e, ptr %v\n  call void @take(ptr %e)\n  %q = getelementptr i8, ptr %e, i32 1\n  ret void\n}",
        "swifterror value can only be loaded and stored from, or as a swifterror argument!\nptr %e\n"
        "  %q = getelementptr i8, ptr %e, i32 1\n",
    ),
    (
        "declare void @take(ptr)\ndefine void @h(ptr swifterror %e) {\n  call void @take(ptr %e)\n"
        "  store ptr %e, ptr null\n  ret void\n}",
        "swifterror value should be the second operand when used by stores\nptr %e\n  store ptr %e, ptr null, align 8\n",
    ),
    (
        "declare void @take(ptr swifterror)\ndeclare void @take2(ptr)\ndefine void @h(ptr swifterror %e) {\n"
        "  call void @take(ptr %e)\n  call void @take2(ptr %e)\n  call void @take2(ptr swifterror %e)\n"
        "  store ptr null, ptr %e\n  ret void\n}",
        "swifterror value when used in a callsite should be marked with swifterror attribute\nptr %e\n"
        "  call void @take2(ptr %e)\n",
    ),
    # A failed attribute check does not end visitFunction: the argument checks still run.
    (
        "declare void @f(i32 nonnull, token) noinline alwaysinline",
        "Attribute 'nonnull' applied to incompatible type!\nptr @f\n"
        "Attributes 'noinline and alwaysinline' are incompatible!\nptr @f\n"
        "Function takes token but isn't an intrinsic\ntoken %1\nptr @f\n",
    ),
]


@pytest.mark.parametrize("text,expected", TEXT_CASES)
def test_function_rules(text: str, expected: str) -> None:
    check(text + "\n", expected)


def test_intrinsic_definition_conformance_file() -> None:
    path = CONFORMANCE / "2006-12-12-IntrinsicDefine.ll"
    if not path.is_file():
        pytest.skip("conformance corpus not present")
    text = path.read_text()
    assert ours(text) == "llvm intrinsics cannot be defined!\nptr @llvm.memcpy.p0.p0.i32\n"
    if HAVE_OPT:
        assert opt_text(text) == ours(text)


# Calling conventions: each convention with every construct some convention forbids.
CC_CASES = [
    "declare {cc} i32 @f0()",
    "declare {cc} void @f1(ptr sret(i32))",
    "declare {cc} void @f2(ptr byval(i32))",
    "declare {cc} void @f3(ptr preallocated(i32))",
    "declare {cc} void @f4(ptr inalloca(i32))",
    "declare {cc} void @f5(ptr byref(i32))",
    "declare {cc} void @f6(i32, ptr addrspace(5) byref(i32))",
    "declare {cc} void @f7(...)",
    "declare {cc} void @f8(i32)",
]
VOID_ONLY = {"amdgpu_kernel", "spir_kernel", "amdgpu_cs_chain", "amdgpu_cs_chain_preserve"}
SHADERS = VOID_ONLY | {"amdgpu_vs", "amdgpu_hs", "amdgpu_gs", "amdgpu_ps", "amdgpu_cs"}
NO_VARARGS = SHADERS | {"fastcc", "coldcc", "intel_ocl_bicc", "ptx_kernel", "ptx_device"}


def _cc_expected(kw: str, stack_as: int) -> str:
    out = []

    def fail(message: str, i: int) -> None:
        out.append("%s\nptr @f%d\n" % (message, i))

    for i in range(9):
        if kw == "x86_intrcc":
            if i in (1, 3, 4, 5, 6, 8):
                fail("Calling convention parameter requires byval", i)
            continue
        if i == 0 and kw in VOID_ONLY:
            fail("Calling convention requires void return type", i)
        elif i == 1 and kw in SHADERS:
            fail("Calling convention does not allow sret", i)
        elif kw in SHADERS and kw != "spir_kernel" and i in (2, 3, 4):
            fail("Calling convention disallows %s" % ("byval", "preallocated", "inalloca")[i - 2], i)
        elif kw in SHADERS and kw != "spir_kernel" and i in (5, 6) and (0, 5)[i - 5] == stack_as:
            fail("Calling convention disallows stack byref", i)
        elif i == 7 and kw in NO_VARARGS:
            fail("Calling convention does not support varargs or perfect forwarding!", i)
    return "".join(out)


@pytest.mark.parametrize("kw", sorted(KEYWORDS))
def test_calling_convention_rules(kw: str) -> None:
    body = "\n".join(t.format(cc=kw) for t in CC_CASES) + "\n"
    check(body, _cc_expected(kw, 0))
    if kw in SHADERS:
        check('target datalayout = "A5"\n' + body, _cc_expected(kw, 5))


# --- rules only the API can break -----------------------------------------------------------------


def test_function_context_mismatch() -> None:
    m = parse("declare void @f()\n")
    fn = first_function(m)
    fn.type = Context().pointer_type(0)
    assert texts(m).startswith("Function context does not match Module context!\n")


def test_common_linkage() -> None:
    m = parse("declare void @f()\n")
    first_function(m).linkage = Linkage.COMMON
    assert "Functions may not have common linkage\nptr @f\n" in texts(m)


def test_formal_argument_count() -> None:
    m = parse("declare void @f(i32, i32)\n")
    fn = first_function(m)
    fn.args = fn.args[:1]
    assert texts(m) == "# formal arguments must match # of arguments for function type!\nptr @f\n void (i32, i32)"


def test_function_returning_function() -> None:
    # LLVM's FunctionType constructor refuses a function return type, and so does ours; the
    # verifier's rule stays as a second line of defence.
    m = Module("m")
    ctx = m.context
    with pytest.raises(IRError, match="invalid function return type"):
        Function(ctx.function_type(ctx.function_type(ctx.void)), "f", module=m)


def test_struct_return_with_a_value() -> None:
    m = parse("declare i32 @f(ptr)\n")
    fn = first_function(m)
    fn.attributes = fn.attributes.with_param_attr(0, Attribute.type_attr("sret", m.context.i32))
    assert texts(m) == "Invalid struct return type!\nptr @f\n"


def test_attribute_after_last_parameter() -> None:
    m = parse("declare void @f(i32)\n")
    fn = first_function(m)
    fn.attributes = fn.attributes.with_param_attr(1, Attribute.enum("noundef"))
    assert texts(m) == "Attribute after last parameter!\nptr @f\n"
    fn.attributes = fn.attributes.without_param_attrs(1).with_param_attr(0, Attribute.enum("noundef"))
    assert texts(m) == ""


def test_builtin_on_a_function() -> None:
    m = parse("declare void @f()\n")
    fn = first_function(m)
    fn.attributes = fn.attributes.with_fn_attr(Attribute.enum("builtin"))
    assert texts(m) == "Attribute 'builtin' can only be applied to a callsite.\nptr @f\n"


def test_argument_type_differs_from_function_type() -> None:
    m = parse("declare void @f(i32 %x)\n")
    fn = first_function(m)
    fn.args[0].type = m.context.int_type(64)
    assert texts(m) == "Argument value does not match function argument type!\ni64 %x\n i32"


def test_void_argument() -> None:
    m = Module("m")
    ctx = m.context
    with pytest.raises(IRError, match="invalid type for function argument"):
        Function(ctx.function_type(ctx.void, (ctx.void,)), "f", module=m)


def test_personality_in_another_module() -> None:
    m = parse("define void @f() {\n  ret void\n}\n")
    other = parse("declare i32 @pers(...)\n")
    other.name = "other"
    m.name = "main"
    fn = first_function(m)
    fn.personality = first_function(other)
    assert texts(m).startswith(
        "Referencing personality function in another module!\nptr @f\n; ModuleID = 'main'\nptr @pers\n"
        "; ModuleID = 'other'\n"
    )


def test_unused_blockaddress_of_entry_is_allowed() -> None:
    m = parse("define void @f() {\nentry:\n  ret void\n}\n")
    fn = first_function(m)
    BlockAddress.get(fn, fn.entry_block)
    assert texts(m) == ""


def test_stopped_stage_is_recorded() -> None:
    m = parse(
        "declare token @a()\n"
        "declare void @k()\ndeclare void @b() personality ptr @k\n"
        "declare ptr @llvm.experimental.gc.get.pointer.offset.p0(ptr)\n"
        "declare void @ok()\n"
    )
    c = Checker(m)
    stages = {}
    for fn in m.functions:
        c.memo.pop(STOPPED_MEMO, None)
        verify_function(c, fn)
        stages[fn.name] = c.memo.get(STOPPED_MEMO)
    assert stages["a"] == (m.get_function("a"), STOPPED_BEFORE_METADATA)
    assert stages["b"] == (m.get_function("b"), STOPPED_AFTER_FUNCTION_METADATA)
    gc = m.get_function("llvm.experimental.gc.get.pointer.offset.p0")
    assert stages["llvm.experimental.gc.get.pointer.offset.p0"] == (gc, STOPPED_BEFORE_DEBUG_INFO)
    assert stages["ok"] is None and stages["k"] is None


def test_valid_functions_have_no_findings() -> None:
    text = (
        "declare void @llvm.donothing()\n"
        "declare i32 @__gxx_personality_v0(...)\n"
        "define fastcc i32 @f(ptr sret(i32) %s, ptr swifterror %e, i32 %x) personality ptr @__gxx_personality_v0 {\n"
        "entry:\n  store ptr null, ptr %e\n  %v = load ptr, ptr %e\n  call void @llvm.donothing()\n"
        "  br label %b\nb:\n  ret i32 %x\n}\n"
    )
    text = text.replace("define fastcc i32", "define fastcc void").replace("ret i32 %x", "ret void")
    check(text, "")
