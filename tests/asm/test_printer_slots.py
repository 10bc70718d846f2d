"""Printer tests for numbering: slots of unnamed values, metadata and
attribute groups in the order LLVM's SlotTracker creates them, and the
numbering single-value printing uses.

The expected module text is opt-19's output for the same source (frozen).
"""

from __future__ import annotations

from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.asm.printer import format_value
from llvmpy_mid.ir import Context, Function, IRBuilder, Module

SOURCE = '@a = global i32 0, !m !10\n@b = global i32 0 #2\ndefine void @f1() #0 !m !11 {\n  call void @f2() #1, !m !12\n  call void @llvm.x(metadata !13)\n  call void @f2() #3\n  ret void, !m !14, !n !15\n}\ndefine void @f2() #1 {\n  ret void, !m !16\n}\ndeclare void @llvm.x(metadata)\n!named = !{!17, !10}\n!10 = !{!"a", !18}\n!11 = !{!"f1"}\n!12 = !{!"call"}\n!13 = !{!"intrinsic arg"}\n!14 = !{!"ret m"}\n!15 = !{!"ret n"}\n!16 = !{!"f2 ret"}\n!17 = !{!"named"}\n!18 = !{!"a child"}\nattributes #0 = { nounwind }\nattributes #1 = { cold }\nattributes #2 = { "g"="1" }\nattributes #3 = { nounwind cold }\n'

EXPECTED = 'source_filename = "slots.ll"\n\n@a = global i32 0, !m !0\n@b = global i32 0 #0\n\n; Function Attrs: nounwind\ndefine void @f1() #1 !m !3 {\n  call void @f2() #2, !m !4\n  call void @llvm.x(metadata !5)\n  call void @f2() #3\n  ret void, !m !6, !n !7\n}\n\n; Function Attrs: cold\ndefine void @f2() #2 {\n  ret void, !m !8\n}\n\ndeclare void @llvm.x(metadata)\n\nattributes #0 = { "g"="1" }\nattributes #1 = { nounwind }\nattributes #2 = { cold }\nattributes #3 = { cold nounwind }\n\n!named = !{!2, !0}\n\n!0 = !{!"a", !1}\n!1 = !{!"a child"}\n!2 = !{!"named"}\n!3 = !{!"f1"}\n!4 = !{!"call"}\n!5 = !{!"intrinsic arg"}\n!6 = !{!"ret m"}\n!7 = !{!"ret n"}\n!8 = !{!"f2 ret"}\n'


def test_metadata_and_attribute_group_numbering_order() -> None:
    """Globals' attachments (and their operands, depth first) come first, then
    named metadata, then each function's attachments, intrinsic ``metadata``
    operands and instruction attachments; attribute groups: globals', then every
    function's own, then call sites' as the functions are printed."""
    text = print_module(parse_assembly(SOURCE, name="slots.ll"))
    assert text.split("\n", 1)[1] == EXPECTED


def test_unnamed_values_are_numbered_per_function() -> None:
    ctx = Context()
    m = Module("n", ctx)
    fn = Function(ctx.function_type(ctx.i32, [ctx.i32, ctx.i32]), "f", module=m, arg_names=["", "b"])
    entry = fn.append_block("")
    other = fn.append_block("")
    b = IRBuilder(entry)
    s = b.add(fn.args[0], fn.args[1])
    b.store(s, b.alloca(ctx.i32))  # void: takes no number
    b.br(other)
    b.position_at_end(other)
    r = b.mul(s, s)
    b.ret(r)
    text = print_module(m)
    assert "define i32 @f(i32 %0, i32 %b) {\n  %2 = add i32 %0, %b\n  %3 = alloca i32" in text
    assert "\n4:                                                ; preds = %1\n  %5 = mul i32 %2, %2\n" in text
    # Single values use the numbering of their function.
    assert format_value(r) == "%5 = mul i32 %2, %2"
    assert format_value(fn.args[0]) == "i32 %0"
    assert format_value(other) == "4:                                                ; preds = %1\n  %5 = mul i32 %2, %2\n  ret i32 %5"
    # A detached instruction has no number.
    detached = r.clone()
    assert format_value(detached) == "<badref> = mul i32 %2, %2"


def test_format_value_of_instruction_with_attachments() -> None:
    m = parse_assembly(SOURCE, name="slots.ll")
    f1 = m.get_function("f1")
    assert f1 is not None
    insts = list(f1.entry_block)
    # Printed alone, an instruction numbers the module-level metadata (globals,
    # named) and then only its own function's, as LLVM's Value::print does.
    assert format_value(insts[0]) == "call void @f2() #2, !m !4"
    assert format_value(insts[3]) == "ret void, !m !6, !n !7"
    f2 = m.get_function("f2")
    assert f2 is not None
    ret = f2.entry_block.first_instruction
    assert ret is not None
    assert format_value(ret) == "ret void, !m !3"
