"""Printer tests on IR built with IRBuilder: module layout, names, numbering,
float constants and single-value printing, checked against opt-19's output.

Each expected text here is what ``opt-19 -S`` prints for the same module (the
texts were produced by opt-19 and are frozen in the test). When opt-19 is
installed, the tests also check that opt-19 reprints our text unchanged
(``opt -S`` of canonical text is the identity), which catches any spelling
opt would normalise.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from llvmpy_mid.asm.print_constants import fp_text
from llvmpy_mid.asm.print_names import global_name, label_name, local_name, metadata_identifier
from llvmpy_mid.asm.printer import format_value, print_module
from llvmpy_mid.ir import (
    Attribute,
    AttributeList,
    AttributeSet,
    ConstantDataArray,
    ConstantExpr,
    ConstantFP,
    ConstantInt,
    ConstantStruct,
    Constant,
    Context,
    FastMathFlags,
    Function,
    GlobalAlias,
    IRBuilder,
    Linkage,
    Module,
    UnnamedAddr,
    ValueAsMetadata,
)
from llvmpy_mid.ir.metadata import MDString, MDTuple
from llvmpy_mid.ir.types import TypeID

OPT = shutil.which("opt-19")
DL = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"


def opt_reprint(text: str) -> str:
    """opt-19 -S of ``text`` (read from stdin), without its ModuleID line."""
    assert OPT is not None
    proc = subprocess.run([OPT, "-S", "-", "-o", "-"], input=text, capture_output=True, text=True, check=True)
    return proc.stdout.split("\n", 1)[1]


def check_canonical(text: str) -> None:
    if OPT is not None:
        assert opt_reprint(text) == text.split("\n", 1)[1]


def build_layout_module() -> Module:
    ctx = Context()
    m = Module("t2", ctx)
    m.data_layout = DL
    m.target_triple = "x86_64-pc-linux-gnu"
    i32, i8, i64, ptr = ctx.i32, ctx.i8, ctx.i64, ctx.ptr
    s_ty = ctx.named_struct("struct.S", [i32, ptr])
    anon = ctx.named_struct("", [i8])
    s = ConstantDataArray.get_string(i8, b"hi\n\"\\")
    gs = m.add_global(s.type, ".str", linkage=Linkage.PRIVATE, initializer=s, is_constant=True)
    gs.unnamed_addr = UnnamedAddr.GLOBAL
    gs.alignment = 1
    ga = m.add_global(s_ty, "gS", initializer=ConstantStruct.get(s_ty, [ConstantInt.get(i32, -1), gs]))
    ga.alignment = 8
    ga.is_dso_local = True
    m.add_global(anon, "", initializer=Constant.get_null_value(anon))
    ga.comdat = m.get_or_insert_comdat("cd")
    m.add_global(ctx.double, "d", initializer=ConstantFP.get(ctx.double, 0.1))
    m.add_global(ctx.float, "f", initializer=ConstantFP.get(ctx.float, 0.1))
    arr_ty = ctx.array_type(i32, 3)
    arr = m.add_global(arr_ty, "arr", initializer=ConstantDataArray.get_raw(arr_ty, [1, 2, 0xFFFFFFFF]))
    gep = ConstantExpr.get_gep(arr_ty, arr, [ConstantInt.get(i64, 0), ConstantInt.get(i64, 1)], inbounds=True)
    m.add_global(ptr, "gp", initializer=gep)
    GlobalAlias(i32, "al", arr, module=m)
    decl = Function(ctx.function_type(i32, [ptr], True), "printf", module=m)
    decl.attributes = AttributeList(
        AttributeSet([Attribute.enum("nounwind")]), None, [AttributeSet([Attribute.enum("noundef")])]
    )
    fn = Function(ctx.function_type(i32, [i32, ptr]), "main", module=m, arg_names=["", "p"])
    fn.attributes = AttributeList(
        AttributeSet([Attribute.enum("noinline"), Attribute.string("frame-pointer", "all"), Attribute.enum("nounwind")])
    )
    fn.linkage = Linkage.INTERNAL
    entry = fn.append_block("")
    b1 = fn.append_block("")
    b2 = fn.append_block("exit")
    b = IRBuilder(entry)
    x = b.alloca(i32)
    x.alignment = 4
    b.store(fn.args[0], x).alignment = 4
    ld = b.load(i32, x)
    ld.alignment = 4
    b.icmp("sgt", ld, ConstantInt.get(i32, 0))
    b.switch(ld, b2, [(ConstantInt.get(i32, 1), b1), (ConstantInt.get(i32, 2), b1)])
    b.position_at_end(b1)
    call = b.call(decl, [gs, ld], attributes=AttributeList(AttributeSet([Attribute.enum("nounwind")])))
    f2 = b.sitofp(call, ctx.double)
    b.fadd(f2, ConstantFP.get(ctx.double, 1.5), fast_math_flags=FastMathFlags.FAST)
    b.br(b2)
    b.position_at_end(b2)
    ph = b.phi(i32, "r", [(ld, entry), (call, b1)])
    md = MDTuple.get(ctx, [MDString.get(ctx, "clang"), ValueAsMetadata.get(ConstantInt.get(i32, 2))])
    m.get_or_insert_named_metadata("my.named").add_operand(md)
    ph.set_metadata("foo", MDTuple.distinct(ctx, []))
    b.ret(ph)
    return m


LAYOUT_EXPECTED = """; ModuleID = 't2'
source_filename = "t2"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%0 = type { i8 }
%struct.S = type { i32, ptr }

$cd = comdat any

@.str = private unnamed_addr constant [6 x i8] c"hi\\0A\\22\\\\\\00", align 1
@gS = dso_local global %struct.S { i32 -1, ptr @.str }, comdat($cd), align 8
@0 = global %0 zeroinitializer
@d = global double 1.000000e-01
@f = global float 0x3FB99999A0000000
@arr = global [3 x i32] [i32 1, i32 2, i32 -1]
@gp = global ptr getelementptr inbounds ([3 x i32], ptr @arr, i64 0, i64 1)

@al = alias i32, ptr @arr

; Function Attrs: nounwind
declare i32 @printf(ptr noundef, ...) #0

; Function Attrs: noinline nounwind
define internal i32 @main(i32 %0, ptr %p) #1 {
  %2 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
  %3 = load i32, ptr %2, align 4
  %4 = icmp sgt i32 %3, 0
  switch i32 %3, label %exit [
    i32 1, label %5
    i32 2, label %5
  ]

5:                                                ; preds = %1, %1
  %6 = call i32 (ptr, ...) @printf(ptr @.str, i32 %3) #0
  %7 = sitofp i32 %6 to double
  %8 = fadd fast double %7, 1.500000e+00
  br label %exit

exit:                                             ; preds = %5, %1
  %r = phi i32 [ %3, %1 ], [ %6, %5 ], !foo !1
  ret i32 %r
}

attributes #0 = { nounwind }
attributes #1 = { noinline nounwind "frame-pointer"="all" }

!my.named = !{!0}

!0 = !{!"clang", i32 2}
!1 = distinct !{}
"""


def test_module_layout_matches_opt() -> None:
    text = print_module(build_layout_module())
    assert text == LAYOUT_EXPECTED
    check_canonical(text)


def test_str_of_module_and_values() -> None:
    m = build_layout_module()
    assert str(m) == LAYOUT_EXPECTED
    fn = m.get_function("main")
    assert fn is not None
    blocks = list(fn.blocks)
    insts = list(blocks[0])
    assert format_value(insts[0]) == "%2 = alloca i32, align 4"
    assert str(insts[1]) == "store i32 %0, ptr %2, align 4"
    assert str(blocks[2].first_instruction) == "%r = phi i32 [ %3, %1 ], [ %6, %5 ], !foo !1"
    assert str(fn.args[0]) == "i32 %0"
    assert str(fn.args[1]) == "ptr %p"
    g = m.get_global("gS")
    assert g is not None
    assert str(g) == "@gS = dso_local global %struct.S { i32 -1, ptr @.str }, comdat($cd), align 8"
    assert str(ConstantInt.get(m.context.i32, -7)) == "i32 -7"
    assert str(ConstantInt.get(m.context.i1, 1)) == "i1 true"
    assert str(blocks[1]) == (
        "5:                                                ; preds = %1, %1\n"
        "  %6 = call i32 (ptr, ...) @printf(ptr @.str, i32 %3) #0\n"
        "  %7 = sitofp i32 %6 to double\n"
        "  %8 = fadd fast double %7, 1.500000e+00\n"
        "  br label %exit"
    )
    decl = m.get_function("printf")
    assert decl is not None
    assert str(decl) == "; Function Attrs: nounwind\ndeclare i32 @printf(ptr noundef, ...) #0"


def test_names_are_quoted_as_llvm_does() -> None:
    assert global_name("a$b") == '@"a$b"'
    assert local_name("x.1-_") == "%x.1-_"
    assert local_name("1x") == '%"1x"'
    assert local_name("a b") == '%"a b"'
    assert global_name("q\"") == '@"q\\22"'
    assert label_name("é") == '"\\C3\\A9"'
    assert metadata_identifier("llvm.module.flags") == "llvm.module.flags"
    assert metadata_identifier("a$b") == "a$b"
    assert metadata_identifier("1a b") == "\\31a\\20b"


def test_preds_comment_pads_to_column_50() -> None:
    ctx = Context()
    m = Module("p", ctx)
    fn = Function(ctx.function_type(ctx.void, []), "f", module=m)
    entry = fn.append_block("entry")
    long_name = "a_rather_long_block_name_that_passes_column_fifty_for_sure"
    target = fn.append_block(long_name)
    IRBuilder(entry).br(target)
    IRBuilder(target).ret_void()
    text = print_module(m)
    assert "\n" + long_name + ": ; preds = %entry\n" in text
    check_canonical(text)


FLOAT_CASES = [
    ("double", 0x3FB999999999999A, "1.000000e-01"),
    ("double", 0xBFB999999999999A, "-1.000000e-01"),
    ("float", 0x3DCCCCCD, "0x3FB99999A0000000"),
    ("double", 0x3FE0000000000000, "5.000000e-01"),
    ("double", 0xBFE0000000000000, "-5.000000e-01"),
    ("float", 0x3F000000, "5.000000e-01"),
    ("double", 0x3FF8000000000000, "1.500000e+00"),
    ("double", 0xBFF8000000000000, "-1.500000e+00"),
    ("float", 0x3FC00000, "1.500000e+00"),
    ("double", 0x4202A05F20000000, "1.000000e+10"),
    ("double", 0xC202A05F20000000, "-1.000000e+10"),
    ("float", 0x501502F9, "1.000000e+10"),
    ("double", 0x40FE240800000000, "0x40FE240800000000"),
    ("double", 0xC0FE240800000000, "0xC0FE240800000000"),
    ("float", 0x47F12040, "0x40FE240800000000"),
    ("double", 0x4023FFFFEF39085F, "0x4023FFFFEF39085F"),
    ("double", 0xC023FFFFEF39085F, "0xC023FFFFEF39085F"),
    ("float", 0x411FFFFF, "0x4023FFFFE0000000"),
    ("double", 0x40F869FF33333333, "0x40F869FF33333333"),
    ("double", 0xC0F869FF33333333, "0xC0F869FF33333333"),
    ("float", 0x47C34FFA, "0x40F869FF40000000"),
    ("double", 0x412E847F00000000, "0x412E847F00000000"),
    ("double", 0xC12E847F00000000, "0xC12E847F00000000"),
    ("float", 0x497423F8, "0x412E847F00000000"),
    ("double", 0x4132D68700000000, "0x4132D68700000000"),
    ("double", 0xC132D68700000000, "0xC132D68700000000"),
    ("float", 0x4996B438, "0x4132D68700000000"),
    ("double", 0x400921FB54442D11, "0x400921FB54442D11"),
    ("double", 0xC00921FB54442D11, "0xC00921FB54442D11"),
    ("float", 0x40490FDB, "0x400921FB60000000"),
    ("double", 0x1BAC9A7B3B7302F, "2.500000e-300"),
    ("double", 0x81BAC9A7B3B7302F, "-2.500000e-300"),
    ("float", 0x0, "0.000000e+00"),
    ("double", 0x7FE1CCF385EBC8A0, "1.000000e+308"),
    ("double", 0xFFE1CCF385EBC8A0, "-1.000000e+308"),
    ("double", 0x7FEFFFFFFFFFFFFF, "0x7FEFFFFFFFFFFFFF"),
    ("double", 0xFFEFFFFFFFFFFFFF, "0xFFEFFFFFFFFFFFFF"),
    ("double", 0x1, "4.940660e-324"),
    ("double", 0x8000000000000001, "-4.940660e-324"),
    ("float", 0x0, "0.000000e+00"),
    ("float", 0xDEEE53A3, "0xC3DDCA7460000000"),
    ("float", 0x3CC00000, "2.343750e-02"),
    ("double", 0x404219999999999A, "3.620000e+01"),
    ("double", 0x1C6C347D9B7A3939, "0x1C6C347D9B7A3939"),
    ("float", 0x450FA16B, "0x40A1F42D60000000"),
    ("double", 0x42AFF0DA97E60000, "0x42AFF0DA97E60000"),
    ("double", 0x41BDE92A60000000, "5.018200e+08"),
    ("float", 0x3EE6F000, "0x3FDCDE0000000000"),
    ("double", 0x4074C2307F23CC8E, "0x4074C2307F23CC8E"),
    ("double", 0x4737FED1EFB82825, "0x4737FED1EFB82825"),
    ("double", 0x4022000000000000, "9.000000e+00"),
    ("double", 0x3D4882A5CE5B2A92, "0x3D4882A5CE5B2A92"),
    ("float", 0x42FF87B2, "0x405FF0F640000000"),
    ("float", 0xA94EE297, "0xBD29DC52E0000000"),
    ("double", 0x3EDE27AAB643EBB5, "7.189500e-06"),
    ("float", 0xBA9A78, "0x3817534F00000000"),
    ("float", 0xA96CBE5D, "0xBD2D97CBA0000000"),
    ("fp128", 0x81D3891B72DEFE7F77CF083CC9D95814, "0xL77CF083CC9D9581481D3891B72DEFE7F"),
    ("double", 0x3F83DD97F62B6AE8, "9.700000e-03"),
    ("float", 0x3E0B1B80, "0x3FC1637000000000"),
    ("float", 0x3F1F9B00, "0x3FE3F36000000000"),
    ("double", 0x3FE4C49E42D44398, "0x3FE4C49E42D44398"),
    ("double", 0x3F1300E84E2DC386, "0x3F1300E84E2DC386"),
    ("double", 0x3F0711947CFA26A2, "4.400000e-05"),
    ("double", 0x3DA32B0F90325DA2, "0x3DA32B0F90325DA2"),
    ("float", 0x4DB925DB, "0x41B724BB60000000"),
    ("float", 0x43215C00, "0x40642B8000000000"),
    ("double", 0x1C4FF9EF32760110, "0x1C4FF9EF32760110"),
    ("float", 0x41184800, "0x4023090000000000"),
    ("double", 0x3EF93EB0E3E4CBAF, "2.407540e-05"),
    ("x86_fp80", 0xB31449495AFC3F2BCAF6, "0xKFFFF49495AFC3F2BCAF6"),
    ("double", 0x6F15B6AD2DB3997F, "0x6F15B6AD2DB3997F"),
    ("x86_fp80", 0x483D359CFE4313835F75, "0xK7FFF359CFE4313835F75"),
    ("double", 0xE2BCE763FB52882F, "0xE2BCE763FB52882F"),
    ("double", 0xF7F19A782E355B29, "0xF7F19A782E355B29"),
    ("half", 0xC8DC, "0xHC8DC"),
    ("double", 0x41FDA6CF12000000, "7.959540e+09"),
    ("double", 0xE5174EBDC3C9F7E3, "0xE5174EBDC3C9F7E3"),
    ("float", 0x3FC20000, "0x3FF8400000000000"),
    ("double", 0xA31A49DD22126540, "0xA31A49DD22126540"),
    ("float", 0xCD572F7C, "0xC1AAE5EF80000000"),
    ("float", 0x400E0000, "2.218750e+00"),
    ("double", 0x426C516A38400000, "9.730000e+11"),
    ("fp128", 0x48EE336E6FC9AD79681F930966703B75, "0xL681F930966703B7548EE336E6FC9AD79"),
    ("double", 0x3E2240ECA6A943FE, "2.125000e-09"),
    ("x86_fp80", 0x6618266394CD9E79685E, "0xK7FFF266394CD9E79685E"),
    ("double", 0x3EDF88431E7A76E4, "7.517880e-06"),
    ("float", 0x46006880, "0x40C00D1000000000"),
    ("fp128", 0x883103034828E2594C4B7AE87B02EEDD, "0xL4C4B7AE87B02EEDD883103034828E259"),
    ("double", 0x3F4EFF5ACFC0834F, "9.459680e-04"),
    ("double", 0x3E049DA7E361CE4C, "6.000000e-10"),
    ("double", 0x5DDD479A516D8B3B, "0x5DDD479A516D8B3B"),
    ("double", 0x3F081E03F705857B, "4.600000e-05"),
    ("double", 0x8B2CA282E8EA1B43, "0x8B2CA282E8EA1B43"),
    ("double", 0x60487E15580DC5AB, "0x60487E15580DC5AB"),
    ("double", 0x3F3F20D96113B67, "0x3F3F20D96113B67"),
    ("double", 0x3F4AA25EA05A8F29, "8.128130e-04"),
    ("float", 0xAA568415, "0xBD4AD082A0000000"),
    ("float", 0xF6AE5B5B, "0xC6D5CB6B60000000"),
    ("half", 0x64BA, "0xH64BA"),
    ("double", 0x3EE34C795A7DDDA3, "9.202350e-06"),
    ("float", 0x38400000, "0x3F08000000000000"),
    ("double", 0x3F43B286C7D2338C, "0x3F43B286C7D2338C"),
    ("double", 0x4022000000000000, "9.000000e+00"),
    ("double", 0x3E7AD7F29ABCAF48, "0x3E7AD7F29ABCAF48"),
    ("double", 0x42EDE64EB26E0000, "2.630000e+14"),
    ("double", 0x4374E1A6D8A92E80, "9.404170e+16"),
    ("float", 0x3C9C0000, "0x3F93800000000000"),
    ("double", 0x3EE4F8B588E368F0, "0x3EE4F8B588E368F0"),
    ("float", 0x405B4000, "0x400B680000000000"),
    ("float", 0x40C00000, "6.000000e+00"),
    ("double", 0x40C1940000000000, "9.000000e+03"),
    ("float", 0x2ECC39E9, "0x3DD9873D20000000"),
    ("float", 0x400D0000, "0x4001A00000000000"),
    ("fp128", 0x2DD088633DC33677B873A26FBD339736, "0xLB873A26FBD3397362DD088633DC33677"),
    ("double", 0xC6B789EF81365ACC, "0xC6B789EF81365ACC"),
    ("double", 0x4235A041DC400000, "0x4235A041DC400000"),
    ("float", 0x3A640000, "0x3F4C800000000000"),
    ("half", 0xEE9F, "0xHEE9F"),
    ("x86_fp80", 0x28DA6F29BBF9539511B6, "0xK7FFF6F29BBF9539511B6"),
]

_TYPE_IDS = {
    "double": TypeID.DOUBLE,
    "float": TypeID.FLOAT,
    "half": TypeID.HALF,
    "bfloat": TypeID.BFLOAT,
    "x86_fp80": TypeID.X86_FP80,
    "fp128": TypeID.FP128,
}


@pytest.mark.parametrize("kind, bits, expected", FLOAT_CASES)
def test_float_constants_print_as_opt_does(kind: str, bits: int, expected: str) -> None:
    assert fp_text(_TYPE_IDS[kind], bits) == expected


def test_instruction_subclass_prints_as_its_base() -> None:
    from llvmpy_mid.ir.instructions import AddInst

    class TracedAdd(AddInst):
        __slots__ = ()

    ctx = Context()
    m = Module("sub", ctx)
    fn = Function(ctx.function_type(ctx.i32, [ctx.i32]), "f", module=m)
    b = IRBuilder(fn.append_block(""))
    total = b.insert(TracedAdd(fn.args[0], fn.args[0], nsw=True))
    b.ret(total)
    assert "  %2 = add nsw i32 %0, %0\n  ret i32 %2\n" in print_module(m)
