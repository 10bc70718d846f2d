"""The verifier's rules for fneg, the binary operators, compares, casts, select,
the vector element instructions and extractvalue/insertvalue (``arith_rules``).

The text parser refuses every one of these broken forms (as llvm-as does), so each
test parses a valid module with ``verify=False`` and breaks it through the API
(``set_operand``, a retyped result as LLVM's ``mutateType`` would give, a changed
predicate or mask), then checks LLVM 19's message and the lines printed after it.
Each rule also has a valid counterpart that must give no finding, and the valid
module is compared with opt-19 (no finding there either) when opt-19 is installed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid import module_diagnostics
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier import diagnostics_text
from llvmpy_mid.ir.verifier.arith_rules import INSTRUCTION_RULES

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vhelpers  # noqa: E402
from vhelpers import HAVE_OPT, arg, inst, only, parse, run_opt  # noqa: E402

ARGS = (
    "i32 %a, i64 %l, float %f, double %d, ptr %p, <4 x i32> %v4, <2 x i32> %v2, "
    "<4 x float> %vf, <2 x ptr> %vp, i1 %c, <4 x i1> %c4, { i32, float } %s"
)


def text_of(body: str) -> str:
    return "define void @f(%s) {\n%s\n  ret void\n}\n" % (ARGS, body)


def module(body: str) -> Module:
    """A module with one function @f taking ARGS, ``body`` then ``ret void``."""
    return parse(text_of(body))


def assert_finding(m: Module, message: str, detail: str) -> None:
    vhelpers.assert_finding(m, message, detail, "@f")


def assert_valid(body: str) -> None:
    m = module(body)
    assert module_diagnostics(m) == []
    if HAVE_OPT:
        code, err, _ = run_opt(text_of(body))
        assert code == 0, err


# --- the table ----------------------------------------------------------------------------------


def test_every_opcode_of_the_area_has_a_rule() -> None:
    expected = {
        "fneg", "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or",
        "xor", "fadd", "fsub", "fmul", "fdiv", "frem", "icmp", "fcmp", "trunc", "zext", "sext", "fptrunc",
        "fpext", "fptoui", "fptosi", "uitofp", "sitofp", "ptrtoint", "inttoptr", "bitcast", "addrspacecast",
        "select", "extractelement", "insertelement", "shufflevector", "extractvalue", "insertvalue",
    }  # fmt: skip
    assert set(INSTRUCTION_RULES) == expected


# --- fneg ---------------------------------------------------------------------------------------


def test_fneg_operand_of_another_type() -> None:
    m = module("  %n = fneg float %f")
    inst(m, "n").set_operand(0, arg(m, "d"))
    assert_finding(m, "Unary operators must have same type foroperands and result!", "  %n = fneg double %d\n")


def test_fneg_of_an_integer() -> None:
    m = module("  %n = fneg float %f")
    n = inst(m, "n")
    n.set_operand(0, arg(m, "a"))
    n.type = arg(m, "a").type  # what LLVM's mutateType would give
    assert_finding(m, "FNeg operator only works with float types!", "  %n = fneg i32 %a\n")


def test_fneg_valid() -> None:
    assert_valid("  %n = fneg float %f\n  %m = fneg <4 x float> %vf")


# --- binary operators ---------------------------------------------------------------------------


def test_binary_operands_of_different_types() -> None:
    m = module("  %r = add i32 %a, %a")
    inst(m, "r").set_operand(1, arg(m, "l"))
    assert_finding(
        m, "Both operands to a binary operator are not of the same type!", "  %r = add i32 %a, i64 %l\n"
    )


def _retype_both(m: Module, name: str, value: str, result: bool) -> None:
    i = inst(m, name)
    v = arg(m, value)
    i.set_operand(0, v)
    i.set_operand(1, v)
    if result:
        i.type = v.type


@pytest.mark.parametrize(
    ("opcode", "message"),
    [
        ("add", "Integer arithmetic operators only work with integral types!"),
        ("sdiv", "Integer arithmetic operators only work with integral types!"),
        ("and", "Logical operators only work with integral types!"),
        ("xor", "Logical operators only work with integral types!"),
        ("shl", "Shifts only work with integral types!"),
        ("ashr", "Shifts only work with integral types!"),
    ],
)
def test_integer_families_on_floating_point(opcode: str, message: str) -> None:
    m = module("  %%r = %s i32 %%a, %%a" % opcode)
    _retype_both(m, "r", "f", True)
    assert_finding(m, message, "  %%r = %s float %%f, %%f\n" % opcode)


@pytest.mark.parametrize(
    ("opcode", "message"),
    [
        ("mul", "Integer arithmetic operators must have same type for operands and result!"),
        ("or", "Logical operators must have same type for operands and result!"),
        ("lshr", "Shift return type must be same as operands!"),
    ],
)
def test_integer_families_result_type_differs(opcode: str, message: str) -> None:
    m = module("  %%r = %s i32 %%a, %%a" % opcode)
    _retype_both(m, "r", "l", False)
    assert_finding(m, message, "  %%r = %s i64 %%l, %%l\n" % opcode)


def test_floating_point_arithmetic_on_integers() -> None:
    m = module("  %r = fadd float %f, %f")
    _retype_both(m, "r", "a", True)
    assert_finding(
        m, "Floating-point arithmetic operators only work with floating-point types!", "  %r = fadd i32 %a, %a\n"
    )


def test_floating_point_arithmetic_result_type_differs() -> None:
    m = module("  %r = frem float %f, %f")
    _retype_both(m, "r", "d", False)
    assert_finding(
        m,
        "Floating-point arithmetic operators must have same type for operands and result!",
        "  %r = frem double %d, %d\n",
    )


def test_binary_valid() -> None:
    assert_valid(
        "  %r1 = add nsw i32 %a, %a\n  %r2 = shl <4 x i32> %v4, %v4\n  %r3 = fmul fast <4 x float> %vf, %vf\n"
        "  %r4 = or disjoint i64 %l, %l\n  %r5 = frem double %d, %d\n  %r6 = udiv exact i32 %a, 3"
    )


# --- compares -----------------------------------------------------------------------------------


def test_icmp_operands_of_different_types() -> None:
    m = module("  %q = icmp eq i32 %a, %a")
    inst(m, "q").set_operand(0, arg(m, "l"))
    assert_finding(
        m, "Both operands to ICmp instruction are not of the same type!", "  %q = icmp eq i64 %l, i32 %a\n"
    )


def test_icmp_of_floating_point() -> None:
    m = module("  %q = icmp eq i32 %a, %a")
    _retype_both(m, "q", "f", False)
    assert_finding(m, "Invalid operand types for ICmp instruction", "  %q = icmp eq float %f, %f\n")


def test_icmp_with_a_floating_point_predicate() -> None:
    m = module("  %q = icmp eq i32 %a, %a")
    inst(m, "q")._predicate = Predicate.FCMP_OLT  # type: ignore[attr-defined]
    found = only(m)
    assert found.message == "Invalid predicate in ICmp instruction!"


def test_fcmp_operands_of_different_types() -> None:
    m = module("  %q = fcmp olt float %f, %f")
    inst(m, "q").set_operand(1, arg(m, "d"))
    assert_finding(
        m, "Both operands to FCmp instruction are not of the same type!", "  %q = fcmp olt float %f, double %d\n"
    )


def test_fcmp_of_integers() -> None:
    m = module("  %q = fcmp olt float %f, %f")
    _retype_both(m, "q", "p", False)
    assert_finding(m, "Invalid operand types for FCmp instruction", "  %q = fcmp olt ptr %p, %p\n")


def test_fcmp_with_an_integer_predicate() -> None:
    m = module("  %q = fcmp olt float %f, %f")
    inst(m, "q")._predicate = Predicate.ICMP_SLT  # type: ignore[attr-defined]
    assert only(m).message == "Invalid predicate in FCmp instruction!"


def test_compares_valid() -> None:
    assert_valid(
        "  %q1 = icmp ult ptr %p, %p\n  %q2 = icmp eq <2 x ptr> %vp, %vp\n  %q3 = icmp sgt <4 x i32> %v4, %v4\n"
        "  %q4 = fcmp nnan uno <4 x float> %vf, %vf\n  %q5 = fcmp true double %d, %d"
    )


# --- casts --------------------------------------------------------------------------------------


def _cast(text: str, operand: str, result: str | None = None) -> Module:
    """``text`` defines %x; its operand becomes the argument ``operand`` and, if
    given, its type that of the argument ``result``."""
    m = module(text)
    x = inst(m, "x")
    x.set_operand(0, arg(m, operand))
    if result is not None:
        x.type = arg(m, result).type
    return m


@pytest.mark.parametrize(
    ("text", "operand", "result", "message"),
    [
        ("  %x = trunc i64 %l to i32", "f", None, "Trunc only operates on integer"),
        ("  %x = trunc i64 %l to i32", "l", "f", "Trunc only produces integer"),
        ("  %x = trunc i64 %l to i32", "v4", None, "trunc source and destination must both be a vector or neither"),
        ("  %x = trunc i64 %l to i32", "a", None, "DestTy too big for Trunc"),
        ("  %x = zext i32 %a to i64", "d", None, "ZExt only operates on integer"),
        ("  %x = zext i32 %a to i64", "a", "p", "ZExt only produces an integer"),
        ("  %x = zext i32 %a to i64", "v2", None, "zext source and destination must both be a vector or neither"),
        ("  %x = zext i32 %a to i64", "l", None, "Type too small for ZExt"),
        ("  %x = sext i32 %a to i64", "p", None, "SExt only operates on integer"),
        ("  %x = sext i32 %a to i64", "a", "d", "SExt only produces an integer"),
        ("  %x = sext i32 %a to i64", "v4", None, "sext source and destination must both be a vector or neither"),
        ("  %x = sext i32 %a to i64", "l", None, "Type too small for SExt"),
        ("  %x = fptrunc double %d to float", "l", None, "FPTrunc only operates on FP"),
        ("  %x = fptrunc double %d to float", "d", "a", "FPTrunc only produces an FP"),
        ("  %x = fptrunc double %d to float", "vf", None, "fptrunc source and destination must both be a vector or neither"),
        ("  %x = fptrunc double %d to float", "f", None, "DestTy too big for FPTrunc"),
        ("  %x = fpext float %f to double", "a", None, "FPExt only operates on FP"),
        ("  %x = fpext float %f to double", "f", "l", "FPExt only produces an FP"),
        ("  %x = fpext float %f to double", "vf", None, "fpext source and destination must both be a vector or neither"),
        ("  %x = fpext float %f to double", "d", None, "DestTy too small for FPExt"),
        ("  %x = fptoui float %f to i32", "vf", None, "FPToUI source and dest must both be vector or scalar"),
        ("  %x = fptoui float %f to i32", "a", None, "FPToUI source must be FP or FP vector"),
        ("  %x = fptoui float %f to i32", "f", "d", "FPToUI result must be integer or integer vector"),
        ("  %x = fptosi double %d to i64", "vf", None, "FPToSI source and dest must both be vector or scalar"),
        ("  %x = fptosi double %d to i64", "l", None, "FPToSI source must be FP or FP vector"),
        ("  %x = fptosi double %d to i64", "d", "p", "FPToSI result must be integer or integer vector"),
        ("  %x = uitofp i32 %a to float", "v4", None, "UIToFP source and dest must both be vector or scalar"),
        ("  %x = uitofp i32 %a to float", "d", None, "UIToFP source must be integer or integer vector"),
        ("  %x = uitofp i32 %a to float", "a", "l", "UIToFP result must be FP or FP vector"),
        ("  %x = sitofp i64 %l to double", "v2", None, "SIToFP source and dest must both be vector or scalar"),
        ("  %x = sitofp i64 %l to double", "f", None, "SIToFP source must be integer or integer vector"),
        ("  %x = sitofp i64 %l to double", "l", "p", "SIToFP result must be FP or FP vector"),
        ("  %x = ptrtoint ptr %p to i64", "l", None, "PtrToInt source must be pointer"),
        ("  %x = ptrtoint ptr %p to i64", "p", "f", "PtrToInt result must be integral"),
        ("  %x = ptrtoint ptr %p to i64", "vp", None, "PtrToInt type mismatch"),
        ("  %x = inttoptr i64 %l to ptr", "p", None, "IntToPtr source must be an integral"),
        ("  %x = inttoptr i64 %l to ptr", "l", "a", "IntToPtr result must be a pointer"),
        ("  %x = inttoptr i64 %l to ptr", "v2", None, "IntToPtr type mismatch"),
        ("  %x = bitcast i32 %a to float", "l", None, "Invalid bitcast"),
        ("  %x = bitcast i32 %a to float", "p", None, "Invalid bitcast"),
        ("  %x = bitcast ptr %p to ptr", "a", None, "Invalid bitcast"),
        ("  %x = addrspacecast ptr %p to ptr addrspace(1)", "a", None, "AddrSpaceCast source must be a pointer"),
        ("  %x = addrspacecast ptr %p to ptr addrspace(1)", "p", "a", "AddrSpaceCast result must be a pointer"),
        ("  %x = addrspacecast ptr %p to ptr addrspace(1)", "p", "p", "AddrSpaceCast must be between different address spaces"),
    ],
)  # fmt: skip
def test_cast_rules(text: str, operand: str, result: str | None, message: str) -> None:
    m = _cast(text, operand, result)
    d = only(m)
    assert d.message == message
    x = inst(m, "x")
    assert d.detail == "  " + str(x) + "\n"
    assert d.instruction == str(x)


def test_cast_detail_is_the_instruction_line() -> None:
    m = _cast("  %x = trunc i64 %l to i32", "a")
    assert_finding(m, "DestTy too big for Trunc", "  %x = trunc i32 %a to i32\n")


@pytest.mark.parametrize(
    ("opcode", "prefix"), [("fptoui", "FPToUI"), ("fptosi", "FPToSI")]
)
def test_fp_to_int_vector_length_mismatch(opcode: str, prefix: str) -> None:
    m = module("  %%x = %s <4 x float> %%vf to <4 x i32>" % opcode)
    inst(m, "x").type = arg(m, "v2").type
    assert only(m).message == prefix + " source and dest vector length mismatch"


@pytest.mark.parametrize(("opcode", "prefix"), [("uitofp", "UIToFP"), ("sitofp", "SIToFP")])
def test_int_to_fp_vector_length_mismatch(opcode: str, prefix: str) -> None:
    m = module("  %%x = %s <4 x i32> %%v4 to <4 x float>" % opcode)
    inst(m, "x").set_operand(0, arg(m, "v2"))
    assert only(m).message == prefix + " source and dest vector length mismatch"


def test_pointer_int_vector_width_mismatch() -> None:
    m = module("  %x = ptrtoint <2 x ptr> %vp to <2 x i64>\n  %y = inttoptr <2 x i32> %v2 to <2 x ptr>")
    inst(m, "x").type = arg(m, "v4").type
    inst(m, "y").set_operand(0, arg(m, "v4"))
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["PtrToInt Vector width mismatch", "IntToPtr Vector width mismatch"]


def test_addrspacecast_vector_length_mismatch() -> None:
    m = module("  %x = addrspacecast <2 x ptr> %vp to <2 x ptr addrspace(1)>")
    x = inst(m, "x")
    x.type = m.context.vector_type(m.context.pointer_type(1), 4)
    assert only(m).message == "AddrSpaceCast vector pointer number of elements mismatch"


def test_casts_valid() -> None:
    assert_valid(
        "  %k1 = trunc nuw <4 x i32> %v4 to <4 x i8>\n  %k2 = zext nneg i32 %a to i64\n"
        "  %k3 = sext <2 x i32> %v2 to <2 x i64>\n  %k4 = fptrunc double %d to half\n"
        "  %k5 = fpext <4 x float> %vf to <4 x double>\n  %k6 = fptoui <4 x float> %vf to <4 x i1>\n"
        "  %k7 = sitofp i64 %l to bfloat\n  %k8 = uitofp nneg i32 %a to double\n"
        "  %k9 = ptrtoint <2 x ptr> %vp to <2 x i8>\n  %k10 = inttoptr i1 %c to ptr addrspace(3)\n"
        "  %k11 = bitcast <2 x i32> %v2 to double\n  %k12 = bitcast <4 x i32> %v4 to <4 x float>\n"
        "  %k13 = bitcast ptr %p to <1 x ptr>\n  %k14 = addrspacecast <2 x ptr> %vp to <2 x ptr addrspace(7)>"
    )


# --- select -------------------------------------------------------------------------------------


def test_select_values_of_different_types() -> None:
    m = module("  %s1 = select i1 %c, i32 %a, i32 %a")
    inst(m, "s1").set_operand(2, arg(m, "l"))
    assert_finding(m, "Invalid operands for select instruction!", "  %s1 = select i1 %c, i32 %a, i64 %l\n")


def test_select_condition_not_i1() -> None:
    m = module("  %s1 = select i1 %c, i32 %a, i32 %a")
    inst(m, "s1").set_operand(0, arg(m, "a"))
    assert only(m).message == "Invalid operands for select instruction!"


def test_select_vector_condition_length() -> None:
    m = module("  %s1 = select <4 x i1> %c4, <4 x i32> %v4, <4 x i32> %v4")
    s = inst(m, "s1")
    s.set_operand(1, arg(m, "v2"))
    s.set_operand(2, arg(m, "v2"))
    assert only(m).message == "Invalid operands for select instruction!"


def test_select_values_of_another_type_than_the_select() -> None:
    m = module("  %s1 = select i1 %c, i32 %a, i32 %a")
    s = inst(m, "s1")
    s.set_operand(1, arg(m, "l"))
    s.set_operand(2, arg(m, "l"))
    assert_finding(
        m, "Select values must have same type as select instruction!", "  %s1 = select i1 %c, i64 %l, i64 %l\n"
    )


def test_select_valid() -> None:
    assert_valid(
        "  %s1 = select i1 %c, ptr %p, ptr null\n  %s2 = select <4 x i1> %c4, <4 x float> %vf, <4 x float> %vf\n"
        "  %s3 = select i1 %c, <4 x i32> %v4, <4 x i32> zeroinitializer\n"
        "  %s4 = select i1 %c, { i32, float } %s, { i32, float } %s"
    )


# --- vector elements ------------------------------------------------------------------------------


def test_extractelement_of_a_scalar() -> None:
    m = module("  %e = extractelement <4 x i32> %v4, i32 0")
    inst(m, "e").set_operand(0, arg(m, "a"))
    assert_finding(m, "Invalid extractelement operands!", "  %e = extractelement i32 %a, 0\n")


def test_extractelement_index_not_integer() -> None:
    m = module("  %e = extractelement <4 x i32> %v4, i32 0")
    inst(m, "e").set_operand(1, arg(m, "f"))
    assert only(m).message == "Invalid extractelement operands!"


def test_extractelement_result_not_the_element_type() -> None:
    # LLVM's own classes keep these in step; ours can be broken through set_operand.
    m = module("  %e = extractelement <4 x i32> %v4, i32 0")
    inst(m, "e").set_operand(0, arg(m, "vf"))
    assert only(m).message == "Invalid extractelement operands!"


def test_insertelement_element_of_another_type() -> None:
    m = module("  %e = insertelement <4 x i32> %v4, i32 %a, i64 1")
    inst(m, "e").set_operand(1, arg(m, "f"))
    assert_finding(m, "Invalid insertelement operands!", "  %e = insertelement <4 x i32> %v4, float %f, i64 1\n")


def test_insertelement_bad_vector_index_or_result() -> None:
    m = module(
        "  %e1 = insertelement <4 x i32> %v4, i32 %a, i64 1\n  %e2 = insertelement <4 x i32> %v4, i32 %a, i64 1\n"
        "  %e3 = insertelement <2 x i32> %v2, i32 %a, i64 1"
    )
    inst(m, "e1").set_operand(0, arg(m, "a"))
    inst(m, "e2").set_operand(2, arg(m, "v4"))
    inst(m, "e3").set_operand(0, arg(m, "v4"))
    assert [d.message for d in module_diagnostics(m)] == ["Invalid insertelement operands!"] * 3


def test_shufflevector_operands_of_different_types() -> None:
    m = module("  %h = shufflevector <4 x i32> %v4, <4 x i32> %v4, <2 x i32> <i32 0, i32 7>")
    inst(m, "h").set_operand(1, arg(m, "vf"))
    assert_finding(
        m,
        "Invalid shufflevector operands!",
        "  %h = shufflevector <4 x i32> %v4, <4 x float> %vf, <2 x i32> <i32 0, i32 7>\n",
    )


def test_shufflevector_mask_out_of_range() -> None:
    m = module("  %h = shufflevector <4 x i32> %v4, <4 x i32> %v4, <2 x i32> <i32 0, i32 7>")
    h = inst(m, "h")
    h.set_operand(0, arg(m, "v2"))
    h.set_operand(1, arg(m, "v2"))
    assert only(m).message == "Invalid shufflevector operands!"


def test_extractvalue_indices_or_type() -> None:
    m = module("  %x1 = extractvalue { i32, float } %s, 1\n  %x2 = extractvalue { i32, float } %s, 1")
    inst(m, "x1")._indices = (2,)  # type: ignore[attr-defined]
    inst(m, "x2")._indices = (0,)  # type: ignore[attr-defined]
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["Invalid ExtractValueInst operands!"] * 2
    assert found[1].detail == "  %x2 = extractvalue { i32, float } %s, 0\n"


def test_extractvalue_of_a_non_aggregate() -> None:
    m = module("  %x1 = extractvalue { i32, float } %s, 1")
    inst(m, "x1").set_operand(0, arg(m, "vf"))
    assert only(m).message == "Invalid ExtractValueInst operands!"


def test_insertvalue_value_of_another_type() -> None:
    m = module("  %y = insertvalue { i32, float } %s, float %f, 1")
    inst(m, "y").set_operand(1, arg(m, "a"))
    assert_finding(m, "Invalid InsertValueInst operands!", "  %y = insertvalue { i32, float } %s, i32 %a, 1\n")


def test_vector_and_aggregate_valid() -> None:
    assert_valid(
        "  %e = extractelement <4 x i32> %v4, i64 %l\n  %i = insertelement <2 x ptr> %vp, ptr %p, i32 %a\n"
        "  %h = shufflevector <4 x i32> %v4, <4 x i32> poison, <8 x i32> <i32 0, i32 poison, i32 2, i32 3, "
        "i32 4, i32 5, i32 6, i32 7>\n  %x = extractvalue { i32, float } %s, 0\n"
        "  %y = insertvalue { i32, float } %s, i32 %a, 0\n  %z = insertvalue [2 x { i32, float }] poison, "
        "{ i32, float } %s, 1"
    )


def test_scalable_shufflevector_valid() -> None:
    m = llvmpy_mid.parse_assembly(
        "define <vscale x 4 x i32> @f(<vscale x 4 x i32> %v) {\n"
        "  %h = shufflevector <vscale x 4 x i32> %v, <vscale x 4 x i32> poison, <vscale x 4 x i32> zeroinitializer\n"
        "  ret <vscale x 4 x i32> %h\n}\n",
        verify=False,
    )
    assert module_diagnostics(m) == []


# --- all findings of a function, in order -----------------------------------------------------------


def test_every_broken_instruction_is_reported_in_order() -> None:
    m = module("  %r = add i32 %a, %a\n  %q = icmp eq i32 %a, %a\n  %x = zext i32 %a to i64")
    inst(m, "r").set_operand(0, arg(m, "l"))
    inst(m, "q").set_operand(1, arg(m, "f"))
    inst(m, "x").set_operand(0, arg(m, "l"))
    found = module_diagnostics(m)
    assert diagnostics_text(found) == (
        "Both operands to a binary operator are not of the same type!\n  %r = add i64 %l, i32 %a\n"
        "Both operands to ICmp instruction are not of the same type!\n  %q = icmp eq i32 %a, float %f\n"
        "Type too small for ZExt\n  %x = zext i64 %l to i64\n"
    )
