"""Instructions as the parser reads them: opcodes, every flag, and the values
LLVM's parser fills in (alignments, address spaces), each checked against
what ``opt-19 -S`` prints for the same input."""

from __future__ import annotations

import pytest

from llvmpy_mid.asm.parser import parse
from llvmpy_mid.errors import ParseError
from llvmpy_mid.ir.inline_asm import AsmDialect, InlineAsm
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions import (
    AllocaInst,
    AtomicCmpXchgInst,
    AtomicOrdering,
    AtomicRMWBinOp,
    AtomicRMWInst,
    CallInst,
    FCmpInst,
    GetElementPtrInst,
    ICmpInst,
    InvokeInst,
    LandingPadInst,
    LoadInst,
    PHINode,
    Predicate,
    ShuffleVectorInst,
    StoreInst,
    SwitchInst,
    TailCallKind,
)

X86_64 = 'target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"\n'


def _insts(body: str, params: str = "ptr %p, i32 %x, float %f", header: str = X86_64) -> list[Instruction]:
    m = parse("%sdefine void @t(%s) {\n%s\n  ret void\n}\n" % (header, params, body), None, "t.ll")
    fn = m.get_function("t")
    assert fn is not None
    return [i for bb in fn.blocks for i in bb][:-1]


def test_binary_flags() -> None:
    insts = _insts(
        "  %a = add nuw nsw i32 %x, 1\n  %b = udiv exact i32 %x, 2\n  %c = or disjoint i32 %x, 8\n"
        "  %d = fadd nnan ninf float %f, %f\n  %e = fmul fast float %f, 2.0\n  %g = shl nsw i32 %x, 1"
    )
    a, b, c, d, e, g = insts
    assert a.nuw and a.nsw  # type: ignore[attr-defined]
    assert b.exact  # type: ignore[attr-defined]
    assert c.disjoint  # type: ignore[attr-defined]
    assert d.fast_math_flags.keywords == "nnan ninf"  # type: ignore[attr-defined]
    assert e.fast_math_flags.keywords == "fast"  # type: ignore[attr-defined]
    assert g.nsw and not g.nuw  # type: ignore[attr-defined]


def test_compare_and_cast_flags() -> None:
    i, f, t, z, u = _insts(
        "  %i = icmp ult i32 %x, 3\n  %c = fcmp reassoc oge float %f, 0.0\n  %t = trunc nuw i32 %x to i8\n"
        "  %z = zext nneg i8 %t to i64\n  %u = uitofp nneg i32 %x to double"
    )
    assert isinstance(i, ICmpInst) and i.predicate is Predicate.ICMP_ULT
    assert isinstance(f, FCmpInst) and f.predicate is Predicate.FCMP_OGE and f.fast_math_flags.keywords == "reassoc"
    assert t.nuw and not t.nsw  # type: ignore[attr-defined]
    assert z.nneg and u.nneg  # type: ignore[attr-defined]


def test_default_alignments_come_from_the_data_layout() -> None:
    # opt-19 prints: load i64 align 8 with this layout, align 4 without one (i64:32:64 default);
    # alloca uses the preferred alignment; cmpxchg/atomicrmw the store size.
    ld, st, al, cx, rmw = _insts(
        "  %l = load i64, ptr %p\n  store <3 x float> zeroinitializer, ptr %p\n  %a = alloca [3 x double]\n"
        "  %c = cmpxchg ptr %p, i64 0, i64 1 seq_cst seq_cst\n  %r = atomicrmw add ptr %p, i128 1 seq_cst"
    )
    assert isinstance(ld, LoadInst) and ld.alignment == 8
    assert isinstance(st, StoreInst) and st.alignment == 16
    assert isinstance(al, AllocaInst) and al.alignment == 8
    assert isinstance(cx, AtomicCmpXchgInst) and cx.alignment == 8
    assert isinstance(rmw, AtomicRMWInst) and rmw.alignment == 16
    (ld2,) = _insts("  %l = load i64, ptr %p", header="")
    assert ld2.alignment == 4  # type: ignore[attr-defined]


def test_alloca_forms_and_address_space() -> None:
    a, b, c = _insts(
        "  %a = alloca i32, i32 %x, align 16\n  %b = alloca inalloca i8, addrspace(5)\n  %c = alloca swifterror ptr",
        header='target datalayout = "A7"\n',
    )
    # An unwritten address space is 0 whatever the layout's "A" says (opt-19 prints none here).
    assert isinstance(a, AllocaInst) and a.is_array_allocation and a.alignment == 16 and a.address_space == 0
    assert isinstance(b, AllocaInst) and b.inalloca and b.address_space == 5
    assert isinstance(c, AllocaInst) and c.swifterror


def test_atomics() -> None:
    ld, st, cx, rmw, fence = _insts(
        "  %l = load atomic volatile i32, ptr %p syncscope(\"agent\") acquire, align 4\n"
        "  store atomic i32 1, ptr %p release, align 4\n"
        "  %c = cmpxchg weak volatile ptr %p, i32 0, i32 1 syncscope(\"singlethread\") acq_rel monotonic, align 8\n"
        "  %r = atomicrmw volatile fmax ptr %p, float 1.0 seq_cst\n  fence syncscope(\"singlethread\") seq_cst"
    )
    assert isinstance(ld, LoadInst) and ld.volatile and ld.ordering is AtomicOrdering.ACQUIRE and ld.sync_scope == "agent"
    assert isinstance(st, StoreInst) and st.ordering is AtomicOrdering.RELEASE
    assert isinstance(cx, AtomicCmpXchgInst) and cx.weak and cx.volatile and cx.alignment == 8
    assert cx.success_ordering is AtomicOrdering.ACQ_REL and cx.failure_ordering is AtomicOrdering.MONOTONIC
    assert isinstance(rmw, AtomicRMWInst) and rmw.operation is AtomicRMWBinOp.FMAX and rmw.alignment == 4
    assert fence.sync_scope == "singlethread"  # type: ignore[attr-defined]


def test_getelementptr_flags_and_vectors() -> None:
    a, b, c = _insts(
        "  %a = getelementptr inbounds nuw { i32, [4 x i8] }, ptr %p, i64 0, i32 1, i64 2\n"
        "  %b = getelementptr nusw i8, ptr %p, i32 %x\n"
        "  %c = getelementptr i32, ptr %p, <2 x i64> <i64 0, i64 1>"
    )
    assert isinstance(a, GetElementPtrInst) and a.result_element_type is a.context.i8
    assert int(a._gep_flags) == 7
    assert int(b._gep_flags) == 2  # type: ignore[attr-defined]
    assert str(c.type) == "<2 x ptr>"


def test_vector_and_aggregate_operations() -> None:
    sv, ev, iv = _insts(
        "  %s = shufflevector <2 x i32> zeroinitializer, <2 x i32> undef, <3 x i32> <i32 0, i32 poison, i32 3>\n"
        "  %e = extractvalue { i32, { i8, i64 } } zeroinitializer, 1, 1\n"
        "  %i = insertvalue [2 x float] undef, float %f, 1"
    )
    assert isinstance(sv, ShuffleVectorInst) and sv.mask == (0, -1, 3)
    assert ev.indices == (1, 1) and str(ev.type) == "i64"  # type: ignore[attr-defined]
    assert iv.indices == (1,)  # type: ignore[attr-defined]


def test_calls_attributes_and_inline_asm() -> None:
    m = parse(
        "declare i32 @g(i32, ...)\n"
        "define void @t(ptr %p) {\n"
        "  %a = tail call fastcc noundef i32 (i32, ...) @g(i32 signext 1, ptr nonnull %p) #0 [ \"deopt\"(i32 7) ]\n"
        "  %b = call i32 asm sideeffect inteldialect \"mov $0, $1\", \"=r,r\"(i32 1)\n"
        "  notail call void %p()\n"
        "  ret void\n}\nattributes #0 = { cold \"k\"=\"v\" }\n",
        None,
        "t.ll",
    )
    a, b, c, _ = list(m.get_function("t").entry_block)  # type: ignore[union-attr]
    assert isinstance(a, CallInst) and a.tail_call_kind is TailCallKind.TAIL and a.calling_conv == 8
    assert a.attributes.has_ret_attr("noundef") and a.attributes.has_param_attr(0, "signext")
    assert a.attributes.has_fn_attr("cold") and a.attributes.fn_attrs.string_value("k") == "v"
    assert [(bnd.tag, len(bnd.inputs)) for bnd in a.operand_bundles] == [("deopt", 1)]
    asm = b.callee  # type: ignore[attr-defined]
    assert isinstance(asm, InlineAsm) and asm.has_side_effects and asm.dialect is AsmDialect.INTEL
    assert asm.asm_string == "mov $0, $1" and asm.constraint_string == "=r,r"
    assert isinstance(c, CallInst) and c.tail_call_kind is TailCallKind.NOTAIL and c.is_indirect_call


def test_switch_invoke_landingpad() -> None:
    m = parse(
        "declare i32 @h(...)\n@ti = external global ptr\n"
        "define void @t(i32 %x) personality ptr @h {\n"
        "entry:\n  switch i32 %x, label %d [ i32 0, label %a\n i32 -1, label %b ]\n"
        "a:\n  %v = invoke i32 (...) @h() to label %d unwind label %lp\n"
        "b:\n  br label %d\n"
        "lp:\n  %l = landingpad { ptr, i32 } cleanup catch ptr @ti filter [1 x ptr] [ptr @ti]\n  resume { ptr, i32 } %l\n"
        "d:\n  ret void\n}\n",
        None,
        "t.ll",
    )
    fn = m.get_function("t")
    assert fn is not None and fn.personality is m.get_function("h")
    sw = fn.entry_block.terminator
    assert isinstance(sw, SwitchInst) and [c.sext_value for c in sw.case_values] == [0, -1]
    inv = fn.blocks[1].terminator
    assert isinstance(inv, InvokeInst) and inv.normal_dest.name == "d" and inv.unwind_dest.name == "lp"
    lp = fn.blocks[3].first_instruction
    assert isinstance(lp, LandingPadInst) and lp.cleanup and lp.num_clauses == 2 and lp.is_filter(1)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("  %a = add float %f, %f", "invalid operand type for instruction"),
        ("  %a = fadd i32 %x, %x", "invalid operand type for instruction"),
        ("  %a = icmp foo i32 %x, 1", "expected icmp predicate (e.g. 'eq')"),
        ("  %a = fcmp ueq i32 %x, 1", "fcmp requires floating point operands"),
        ("  %a = zext i32 %x to i8", "invalid cast opcode for cast from 'i32' to 'i8'"),
        ("  %a = load atomic i32, ptr %p seq_cst", "atomic load must have explicit non-zero alignment"),
        ("  %a = load i32, ptr %p, align 3", "alignment is not a power of two"),
        ("  %a = select i32 %x, i32 1, i32 2", "select condition must be i1 or <n x i1>"),
        ("  %a = getelementptr i32, i32 %x, i32 1", "base of getelementptr must be a pointer"),
        ("  %a = alloca void", "void type only allowed for function results"),
        ("  %a = alloca label", "invalid type for alloca"),
        ("  %a = alloca target(\"foo\")", "Cannot allocate unsized type"),
        ("  %a = call i32 @nope(i32 %x)", "use of undefined value '@nope'"),
        ("  %a = add i32 %x, 1\n  %a = add i32 %x, 2", "multiple definition of local value named 'a'"),
        ("  store i32 1, ptr %p, align 4, !foo", "expected '!' here"),
    ],
)
def test_instruction_errors(body: str, message: str) -> None:
    with pytest.raises(ParseError) as info:
        _insts(body)
    assert info.value.message == message


def test_phi_with_forward_values_and_fast_math() -> None:
    m = parse(
        "define float @t(float %a) {\nentry:\n  br label %loop\n"
        "loop:\n  %p = phi nnan float [ %a, %entry ], [ %n, %loop ]\n  %n = fadd float %p, 1.0\n"
        "  %c = fcmp olt float %n, 10.0\n  br i1 %c, label %loop, label %exit\n"
        "exit:\n  ret float %n\n}\n",
        None,
        "t.ll",
    )
    fn = m.get_function("t")
    assert fn is not None
    phi = fn.blocks[1].first_instruction
    assert isinstance(phi, PHINode) and phi.fast_math_flags.keywords == "nnan"
    n = phi.get_incoming_value(1)
    assert n.name == "n" and n.parent is fn.blocks[1]  # type: ignore[attr-defined]
    assert [b.name for b in phi.incoming_blocks] == ["entry", "loop"]


def test_alloca_with_alignment_of_a_struct_defined_later() -> None:
    """LLParser checks sizedness only for an alloca without an alignment: with one, a named
    struct defined further down (still opaque at the alloca) is accepted, as opt-19 does."""
    from llvmpy_mid.asm import parse_assembly, print_module
    from llvmpy_mid.errors import ParseError

    text = "define void @f() {\n  %a = alloca %S, align 4\n  ret void\n}\n%S = type { i32, i32 }\n"
    m = parse_assembly(text)
    assert "%a = alloca %S, align 4" in print_module(m)
    with pytest.raises(ParseError, match="Cannot allocate unsized type"):
        parse_assembly(text.replace(", align 4", ""))
