"""The verifier's rules for alloca, load, store, getelementptr, fence, cmpxchg and
atomicrmw (``memory_rules``).

Where the text parser accepts the broken construct (as llvm-as does: atomic access
types and sizes, cmpxchg operand types, swifterror allocas and their users), the
whole diagnostics text is compared with opt-19's, byte for byte. The rest is refused
by the parser, so a valid module is parsed with ``verify=False`` and broken through
the API; the message and the printed lines are checked against LLVM 19's wording.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid import module_diagnostics
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions import (
    AllocaInst,
    AtomicOrdering,
    AtomicRMWBinOp,
    LoadInst,
    StoreInst,
)
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier.memory_rules import INSTRUCTION_RULES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vhelpers import CONFORMANCE, HAVE_OPT, arg, assert_finding, function, inst, only, parse  # noqa: E402
from vhelpers import check as assert_same_as_opt  # noqa: E402

ARGS = (
    "ptr %p, ptr addrspace(1) %p1, i32 %a, i64 %l, i4 %n, float %f, x86_fp80 %xf, <2 x ptr> %vp, "
    "<4 x ptr> %vp4, <2 x i64> %vi, <4 x i64> %vi4, <2 x float> %vf, <vscale x 2 x float> %sf, i1 %c"
)


def text_of(body: str, prefix: str = "") -> str:
    return "%sdefine void @f(%s) {\n%s\n  ret void\n}\n" % (prefix, ARGS, body)


def module(body: str, prefix: str = "") -> Module:
    return parse(text_of(body, prefix))


def nth(m: Module, index: int) -> Instruction:
    return list(function(m).entry_block.instructions)[index]


def assert_valid(body: str, prefix: str = "") -> None:
    """``body`` in @f (after ``prefix``) gives no finding, nor does opt-19 find any."""
    assert_same_as_opt(text_of(body, prefix), "")


def test_every_memory_opcode_has_a_rule() -> None:
    assert set(INSTRUCTION_RULES) == {"alloca", "load", "store", "getelementptr", "fence", "cmpxchg", "atomicrmw"}


# --- alloca ----------------------------------------------------------------------------------------


def test_alloca_of_an_opaque_struct() -> None:
    # unsized-types-alloca.ll, built through the API (the parser refuses it, as opt-19's does).
    m = llvmpy_mid.parse_assembly("%X = type opaque\ndefine void @f_2() {\n  ret void\n}\n", verify=False)
    fn = m.get_function("f_2")
    assert fn is not None
    opaque = next(s for s in m.context.named_structs() if s.name == "X")
    t = AllocaInst(opaque, name="t")
    t.insert_before(fn.entry_block.instructions.first)  # type: ignore[arg-type]
    d = only(m)
    assert d.message == "Cannot allocate unsized type"
    assert d.detail.startswith("  %t = alloca %X")


@pytest.mark.parametrize(
    "ty",
    ["{ <vscale x 4 x i32>, i32 }", "{ [2 x <vscale x 4 x i32>] }", "{ <vscale x 4 x i32>, <vscale x 2 x i64> }",
     "{ { <vscale x 4 x i32> }, { <vscale x 4 x i32> } }", '{ target("aarch64.svcount") }'],
)  # fmt: skip
def test_alloca_of_types_llvm19_counts_unsized(ty: str) -> None:
    # opt-19's parser refuses these with the same words ("Cannot allocate unsized type").
    m = module("  %%t = alloca %s" % ty)
    assert only(m).message == "Cannot allocate unsized type"


def test_alloca_of_an_unsized_target_type() -> None:
    m = module("  %t = alloca i32")
    u = AllocaInst(m.context.target_ext_type("foo"), name="u")
    u.insert_before(inst(m, "t"))
    assert_finding(m, "Cannot allocate unsized type", '  %u = alloca target("foo")\n')


def test_alloca_array_size_not_an_integer() -> None:
    m = module("  %t = alloca i32, i32 %a")
    inst(m, "t").set_operand(0, arg(m, "f"))
    assert_finding(m, "Alloca array size must have integer type", "  %t = alloca i32, float %f, align 4\n")


def test_alloca_huge_alignment() -> None:
    m = module("  %t = alloca i32")
    inst(m, "t")._alignment = 1 << 33  # type: ignore[attr-defined]
    assert only(m).message == "huge alignment values are unsupported"


def test_swifterror_alloca_of_a_non_pointer() -> None:
    assert_same_as_opt(
        text_of("  %t = alloca swifterror i32"),
        "swifterror alloca must have pointer type\n  %t = alloca swifterror i32, align 4\n",
    )


def test_swifterror_alloca_array() -> None:
    assert_same_as_opt(
        text_of("  %t = alloca swifterror ptr, i32 2"),
        "swifterror alloca must not be array allocation\n  %t = alloca swifterror ptr, i32 2, align 8\n",
    )


SWIFT_DECLS = "declare void @g(ptr swifterror)\ndeclare void @h(ptr)\n"


def test_swifterror_value_stored_as_a_value() -> None:
    assert_same_as_opt(
        text_of(
            "  %t = alloca swifterror ptr\n  store ptr %t, ptr %p\n  call void @g(ptr swifterror %t)\n"
            "  store ptr null, ptr %t",
            SWIFT_DECLS,
        ),
        "swifterror value should be the second operand when used by stores\n"
        "  %t = alloca swifterror ptr, align 8\n  store ptr %t, ptr %p, align 8\n",
    )


def test_swifterror_value_used_by_a_gep() -> None:
    assert_same_as_opt(
        text_of("  %t = alloca swifterror ptr\n  %g = getelementptr ptr, ptr %t, i32 1\n  %v = load ptr, ptr %t"),
        "swifterror value can only be loaded and stored from, or as a swifterror argument!\n"
        "  %t = alloca swifterror ptr, align 8\n  %g = getelementptr ptr, ptr %t, i32 1\n",
    )


def test_swifterror_value_passed_without_the_attribute() -> None:
    # Each such call is reported; the walk over the users goes on (LLVM's helper returns alone).
    assert_same_as_opt(
        text_of("  %t = alloca swifterror ptr\n  call void @h(ptr %t)\n  call void @h(ptr %t)", SWIFT_DECLS),
        "swifterror value when used in a callsite should be marked with swifterror attribute\n"
        "  %t = alloca swifterror ptr, align 8\n  call void @h(ptr %t)\n" * 2,
    )


def test_alloca_valid() -> None:
    assert_valid(
        "  %t1 = alloca i32, i64 %l, align 16\n  %t2 = alloca { <vscale x 4 x i32>, <vscale x 4 x i32> }\n"
        "  %t3 = alloca [2 x <vscale x 4 x i32>]\n  %t4 = alloca [2 x { <vscale x 4 x i32> }]\n"
        '  %t5 = alloca target("spirv.Image")\n  %t6 = alloca swifterror ptr\n  store ptr null, ptr %t6\n'
        "  %t7 = load ptr, ptr %t6\n  call void @g(ptr swifterror %t6)\n  %t8 = alloca i8, align 4294967296",
        SWIFT_DECLS,
    )


# --- load / store ----------------------------------------------------------------------------------


def test_load_from_a_non_pointer() -> None:
    m = module("  %v = load i32, ptr %p")
    inst(m, "v").set_operand(0, arg(m, "l"))
    assert_finding(m, "Load operand must be a pointer.", "  %v = load i32, i64 %l, align 4\n")


def test_load_huge_alignment() -> None:
    m = module("  %v = load i32, ptr %p")
    inst(m, "v")._alignment = 1 << 40  # type: ignore[attr-defined]
    assert only(m).message == "huge alignment values are unsupported"


def test_load_of_an_unsized_type() -> None:
    # unsized-types-load.ll, built through the API.
    m = llvmpy_mid.parse_assembly("%X = type opaque\ndefine void @f_0(ptr %ptr) {\n  ret void\n}\n", verify=False)
    fn = m.get_function("f_0")
    assert fn is not None
    opaque = next(s for s in m.context.named_structs() if s.name == "X")
    t = LoadInst(opaque, fn.args[0], name="t")
    t.insert_before(fn.entry_block.instructions.first)  # type: ignore[arg-type]
    d = only(m)
    assert d.message == "loading unsized types is not allowed"
    assert d.detail.startswith("  %t = load %X, ptr %ptr")


def test_load_with_release_ordering() -> None:
    for ordering in (AtomicOrdering.RELEASE, AtomicOrdering.ACQ_REL):
        m = module("  %v = load atomic i32, ptr %p seq_cst, align 4")
        inst(m, "v").ordering = ordering  # type: ignore[attr-defined]
        assert_finding(
            m, "Load cannot have Release ordering", "  %%v = load atomic i32, ptr %%p %s, align 4\n" % ordering.value
        )


def test_atomic_load_types_and_sizes_like_opt() -> None:
    assert_same_as_opt(
        text_of(
            "  %v1 = load atomic x86_fp80, ptr %p seq_cst, align 16\n  %v2 = load atomic i4, ptr %p seq_cst, align 1\n"
            "  %v3 = load atomic i24, ptr %p acquire, align 4\n  %v4 = load atomic <2 x i64>, ptr %p seq_cst, align 16\n"
            "  %v5 = load atomic ptr, ptr %p unordered, align 8"
        ),
        "atomic memory access' operand must have a power-of-two size\n"
        " x86_fp80  %v1 = load atomic x86_fp80, ptr %p seq_cst, align 16\n"
        "atomic memory access' size must be byte-sized\n i4  %v2 = load atomic i4, ptr %p seq_cst, align 1\n"
        "atomic memory access' operand must have a power-of-two size\n"
        " i24  %v3 = load atomic i24, ptr %p acquire, align 4\n"
        "atomic load operand must have integer, pointer, or floating point type!\n"
        " <2 x i64>  %v4 = load atomic <2 x i64>, ptr %p seq_cst, align 16\n",
    )


def test_non_atomic_load_with_a_sync_scope() -> None:
    m = module("  %v = load i32, ptr %p")
    inst(m, "v").sync_scope = "singlethread"  # type: ignore[attr-defined]
    assert only(m).message == "Non-atomic load cannot have SynchronizationScope specified"


def test_store_to_a_non_pointer() -> None:
    m = module("  store i32 %a, ptr %p")
    nth(m, 0).set_operand(1, arg(m, "a"))
    assert_finding(m, "Store operand must be a pointer.", "  store i32 %a, i32 %a, align 4\n")


def test_store_huge_alignment() -> None:
    m = module("  store i32 %a, ptr %p")
    nth(m, 0)._alignment = 1 << 33  # type: ignore[attr-defined]
    assert only(m).message == "huge alignment values are unsupported"


def test_store_of_an_unsized_type() -> None:
    # unsized-types-store.ll, built through the API.
    m = llvmpy_mid.parse_assembly("define void @f_1(ptr %ptr) {\n  ret void\n}\n", verify=False)
    fn = m.get_function("f_1")
    assert fn is not None
    target = m.context.target_ext_type("foo")
    val = llvmpy_mid.ir.PoisonValue.get(target)
    s = StoreInst(val, fn.args[0])
    s.insert_before(fn.entry_block.instructions.first)  # type: ignore[arg-type]
    d = only(m)
    assert d.message == "storing unsized types is not allowed"
    assert d.detail.startswith('  store target("foo") poison, ptr %ptr')


def test_store_with_acquire_ordering() -> None:
    for ordering in (AtomicOrdering.ACQUIRE, AtomicOrdering.ACQ_REL):
        m = module("  store atomic i32 %a, ptr %p seq_cst, align 4")
        nth(m, 0).ordering = ordering  # type: ignore[attr-defined]
        assert only(m).message == "Store cannot have Acquire ordering"


def test_atomic_store_types_and_sizes_like_opt() -> None:
    assert_same_as_opt(
        text_of(
            "  store atomic i4 %n, ptr %p release, align 1\n  store atomic <2 x float> %vf, ptr %p seq_cst, align 8\n"
            "  store atomic x86_fp80 %xf, ptr %p monotonic, align 16"
        ),
        "atomic memory access' size must be byte-sized\n i4  store atomic i4 %n, ptr %p release, align 1\n"
        "atomic store operand must have integer, pointer, or floating point type!\n"
        " <2 x float>  store atomic <2 x float> %vf, ptr %p seq_cst, align 8\n"
        "atomic memory access' operand must have a power-of-two size\n"
        " x86_fp80  store atomic x86_fp80 %xf, ptr %p monotonic, align 16\n",
    )


def test_non_atomic_store_with_a_sync_scope() -> None:
    m = module("  store i32 %a, ptr %p")
    nth(m, 0).sync_scope = "agent"  # type: ignore[attr-defined]
    assert only(m).message == "Non-atomic store cannot have SynchronizationScope specified"


def test_atomic_pointer_size_follows_the_data_layout() -> None:
    # A 24-bit pointer in address space 1 is not a power-of-two access.
    prefix = 'target datalayout = "p1:24:32"\n'
    text = text_of("  %v = load atomic ptr addrspace(1), ptr %p seq_cst, align 4", prefix)
    assert_same_as_opt(
        text,
        "atomic memory access' operand must have a power-of-two size\n"
        " ptr addrspace(1)  %v = load atomic ptr addrspace(1), ptr %p seq_cst, align 4\n",
    )


def test_load_store_valid() -> None:
    assert_valid(
        "  %v1 = load atomic float, ptr %p acquire, align 4\n  %v2 = load volatile <2 x float>, ptr %p\n"
        "  store atomic ptr %p, ptr %p syncscope(\"singlethread\") release, align 8\n"
        "  %v3 = load atomic i128, ptr %p seq_cst, align 16\n  store atomic half 0xH0000, ptr %p unordered, align 2\n"
        "  %v4 = load { <vscale x 4 x i32>, <vscale x 4 x i32> }, ptr %p\n  %v5 = load atomic i8, ptr %p monotonic, align 1"
    )


# --- getelementptr ---------------------------------------------------------------------------------


def test_gep_base_not_a_pointer() -> None:
    m = module("  %g = getelementptr i32, ptr %p, i64 1")
    inst(m, "g").set_operand(0, arg(m, "l"))
    assert_finding(
        m, "GEP base pointer is not a vector or a vector of pointers", "  %g = getelementptr i32, i64 %l, i64 1\n"
    )


def test_gep_into_an_unsized_type() -> None:
    m = module("  %g = getelementptr i32, ptr %p, i64 1", "%X = type opaque\n")
    inst(m, "g").source_element_type = next(s for s in m.context.named_structs() if s.name == "X")  # type: ignore[attr-defined]
    assert_finding(m, "GEP into unsized type!", "  %g = getelementptr %X, ptr %p, i64 1\n")


def test_gep_into_a_scalable_struct() -> None:
    # opt-19's parser refuses it ("... scalable vector type"); the verifier's words lack that space.
    m = module("  %g = getelementptr { <vscale x 4 x i32>, <vscale x 4 x i32> }, ptr %p, i64 1")
    assert only(m).message == "getelementptr cannot target structure that contains scalable vectortype"


def test_gep_without_indices_into_an_unsized_type_like_opt() -> None:
    # The parser lets it through (no index), as opt-19's does; the verifier refuses it.
    assert_same_as_opt(
        text_of("  %g = getelementptr %X, ptr %p\n  %h = getelementptr %X, <2 x ptr> %vp", "%X = type opaque\n"),
        "GEP into unsized type!\n  %g = getelementptr %X, ptr %p\nGEP into unsized type!\n  %h = getelementptr %X, <2 x ptr> %vp\n",
    )


def test_gep_index_not_an_integer() -> None:
    m = module("  %g = getelementptr i32, ptr %p, i64 1")
    inst(m, "g").set_operand(1, arg(m, "f"))
    assert_finding(m, "GEP indexes must be integers", "  %g = getelementptr i32, ptr %p, float %f\n")


def test_gep_invalid_struct_index() -> None:
    m = module("  %g = getelementptr { i32, float }, ptr %p, i64 0, i32 1")
    inst(m, "g").set_operand(2, ConstantInt.get(m.context.i32, 2))
    assert only(m).message == "Invalid indices for GEP pointer type!"


def test_gep_result_element_type_disagrees() -> None:
    m = module("  %g = getelementptr { i32, float }, ptr %p, i64 0, i32 1")
    inst(m, "g").set_operand(2, ConstantInt.get(m.context.i32, 0))
    assert_finding(
        m, "GEP is not of right type for indices!", "  %g = getelementptr { i32, float }, ptr %p, i64 0, i32 0\n i32"
    )


def test_gep_vector_result_width_differs_from_base() -> None:
    m = module("  %g = getelementptr i32, <2 x ptr> %vp, i64 1")
    inst(m, "g").set_operand(0, arg(m, "vp4"))
    assert only(m).message == "Vector GEP result width doesn't match operand's"


def test_gep_index_vector_width() -> None:
    m = module("  %g = getelementptr i32, ptr %p, <2 x i64> %vi")
    inst(m, "g").set_operand(1, arg(m, "vi4"))
    assert_finding(m, "Invalid GEP index vector width", "  %g = getelementptr i32, ptr %p, <4 x i64> %vi4\n")


def test_gep_address_space_differs_from_the_result() -> None:
    m = module("  %g = getelementptr i8, ptr %p, i64 1")
    inst(m, "g").set_operand(0, arg(m, "p1"))
    assert_finding(m, "GEP address space doesn't match type", "  %g = getelementptr i8, ptr addrspace(1) %p1, i64 1\n")


def test_gep_valid() -> None:
    assert_valid(
        "  %g1 = getelementptr inbounds { i32, [4 x float] }, ptr %p, i64 0, i32 1, i64 %l\n"
        "  %g2 = getelementptr i8, <2 x ptr> %vp, <2 x i64> %vi\n  %g3 = getelementptr i32, ptr %p, <2 x i64> %vi\n"
        "  %g4 = getelementptr { i32, float }, <2 x ptr> %vp, <2 x i64> zeroinitializer, <2 x i32> <i32 1, i32 1>\n"
        "  %g5 = getelementptr <vscale x 4 x i32>, ptr %p, i64 2\n  %g6 = getelementptr [0 x i8], ptr addrspace(1) %p1\n"
        "  %g7 = getelementptr nusw nuw i8, ptr %p, i4 %n"
    )


# --- fence / cmpxchg / atomicrmw ---------------------------------------------------------------------


def test_fence_ordering() -> None:
    for ordering in (AtomicOrdering.MONOTONIC, AtomicOrdering.UNORDERED, AtomicOrdering.NOT_ATOMIC):
        m = module("  fence acquire")
        nth(m, 0)._ordering = ordering  # type: ignore[attr-defined]
        d = only(m)
        assert d.message == "fence instructions may only have acquire, release, acq_rel, or seq_cst ordering."


def test_cmpxchg_orderings_built_through_the_api() -> None:
    cases = [
        (AtomicOrdering.NOT_ATOMIC, AtomicOrdering.MONOTONIC, "cmpxchg instructions must be atomic."),
        (AtomicOrdering.SEQ_CST, AtomicOrdering.NOT_ATOMIC, "cmpxchg instructions must be atomic."),
        (AtomicOrdering.UNORDERED, AtomicOrdering.MONOTONIC, "cmpxchg instructions cannot be unordered."),
        (AtomicOrdering.ACQUIRE, AtomicOrdering.UNORDERED, "cmpxchg instructions cannot be unordered."),
        (AtomicOrdering.SEQ_CST, AtomicOrdering.RELEASE, "cmpxchg failure ordering cannot include release semantics"),
        (AtomicOrdering.ACQ_REL, AtomicOrdering.ACQ_REL, "cmpxchg failure ordering cannot include release semantics"),
    ]
    for success, failure, message in cases:
        m = module("  %x = cmpxchg ptr %p, i32 %a, i32 %a seq_cst seq_cst")
        x = inst(m, "x")
        x.success_ordering = success  # type: ignore[attr-defined]
        x.failure_ordering = failure  # type: ignore[attr-defined]
        assert only(m).message == message


def test_cmpxchg_operand_types_like_opt() -> None:
    assert_same_as_opt(
        text_of("  %x = cmpxchg ptr %p, float %f, float %f seq_cst seq_cst"),
        "cmpxchg operand must have integer or pointer type\n"
        " float  %x = cmpxchg ptr %p, float %f, float %f seq_cst seq_cst, align 4\n",
    )


def test_cmpxchg_size() -> None:
    m = module("  %x = cmpxchg ptr %p, i32 %a, i32 %a seq_cst seq_cst")
    x = inst(m, "x")
    x.set_operand(1, arg(m, "n"))
    x.set_operand(2, arg(m, "n"))
    d = only(m)
    assert d.message == "atomic memory access' size must be byte-sized"
    assert d.detail.startswith(" i4  %x = cmpxchg ptr %p, i4 %n, i4 %n seq_cst seq_cst")


def test_atomicrmw_orderings() -> None:
    for ordering, message in (
        (AtomicOrdering.UNORDERED, "atomicrmw instructions cannot be unordered."),
        (AtomicOrdering.NOT_ATOMIC, "atomicrmw instructions must be atomic."),
    ):
        m = module("  %r = atomicrmw add ptr %p, i32 %a seq_cst")
        inst(m, "r").ordering = ordering  # type: ignore[attr-defined]
        assert only(m).message == message


@pytest.mark.parametrize(
    ("operation", "value", "message"),
    [
        (AtomicRMWBinOp.XCHG, "vf", "atomicrmw xchg operand must have integer or floating point type!"),
        (AtomicRMWBinOp.ADD, "f", "atomicrmw add operand must have integer type!"),
        (AtomicRMWBinOp.UMIN, "p", "atomicrmw umin operand must have integer type!"),
        (AtomicRMWBinOp.UDEC_WRAP, "vi", "atomicrmw udec_wrap operand must have integer type!"),
        (AtomicRMWBinOp.FADD, "a", "atomicrmw fadd operand must have floating-point or fixed vector of floating-point type!"),
        (AtomicRMWBinOp.FMIN, "sf", "atomicrmw fmin operand must have floating-point or fixed vector of floating-point type!"),
    ],
)  # fmt: skip
def test_atomicrmw_operand_types(operation: AtomicRMWBinOp, value: str, message: str) -> None:
    m = module("  %r = atomicrmw add ptr %p, i32 %a seq_cst")
    r = inst(m, "r")
    r.operation = operation  # type: ignore[attr-defined]
    r.set_operand(1, arg(m, value))
    r.type = arg(m, value).type
    d = only(m)
    assert d.message == message
    assert d.detail == "  %s\n %s" % (r, arg(m, value).type)


def test_atomicrmw_scalable_fadd_refused_by_parser_and_verifier() -> None:
    # The parser refuses it as opt-19's does; built through the API, the verifier catches it.
    with pytest.raises(llvmpy_mid.errors.ParseError, match="atomicrmw operand may not be scalable"):
        module("  %r = atomicrmw fadd ptr %p, <vscale x 2 x float> %sf seq_cst")
    m = module("  %r = atomicrmw fadd ptr %p, float %f seq_cst")
    inst(m, "r").set_operand(1, arg(m, "sf"))
    assert only(m).message == (
        "atomicrmw fadd operand must have floating-point or fixed vector of floating-point type!"
    )


def test_atomicrmw_sizes() -> None:
    m = module("  %r = atomicrmw add ptr %p, i32 %a seq_cst\n  %s = atomicrmw xchg ptr %p, float %f seq_cst")
    inst(m, "r").set_operand(1, arg(m, "n"))
    inst(m, "s").set_operand(1, arg(m, "xf"))
    found = module_diagnostics(m)
    assert [d.message for d in found] == [
        "atomic memory access' size must be byte-sized",
        "atomic memory access' operand must have a power-of-two size",
    ]
    assert found[0].detail.startswith(" i4  %r = atomicrmw add ptr %p, i4 %n seq_cst")


def test_atomic_operand_types_and_sizes_in_text_like_opt() -> None:
    assert_same_as_opt(
        text_of(
            "  %x1 = cmpxchg ptr %p, <2 x i64> %vi, <2 x i64> %vi seq_cst seq_cst\n"
            "  %x2 = cmpxchg ptr %p, i4 %n, i4 %n seq_cst seq_cst\n  %r1 = atomicrmw xchg ptr %p, i4 %n seq_cst\n"
            "  %v1 = load atomic { i32 }, ptr %p seq_cst, align 4\n  %v2 = load atomic <2 x ptr>, ptr %p seq_cst, align 16"
        ),
        "cmpxchg operand must have integer or pointer type\n"
        " <2 x i64>  %x1 = cmpxchg ptr %p, <2 x i64> %vi, <2 x i64> %vi seq_cst seq_cst, align 16\n"
        "atomic memory access' size must be byte-sized\n i4  %x2 = cmpxchg ptr %p, i4 %n, i4 %n seq_cst seq_cst, align 1\n"
        "atomic memory access' size must be byte-sized\n i4  %r1 = atomicrmw xchg ptr %p, i4 %n seq_cst, align 1\n"
        "atomic load operand must have integer, pointer, or floating point type!\n"
        " { i32 }  %v1 = load atomic { i32 }, ptr %p seq_cst, align 4\n"
        "atomic load operand must have integer, pointer, or floating point type!\n"
        " <2 x ptr>  %v2 = load atomic <2 x ptr>, ptr %p seq_cst, align 16\n",
    )


def test_atomics_valid() -> None:
    assert_valid(
        "  fence syncscope(\"singlethread\") acq_rel\n  %x1 = cmpxchg weak ptr %p, ptr %p, ptr null monotonic seq_cst\n"
        "  %x2 = cmpxchg volatile ptr %p, i64 %l, i64 0 acq_rel acquire, align 8\n"
        "  %r1 = atomicrmw fadd ptr %p, <2 x float> %vf seq_cst\n  %r2 = atomicrmw xchg ptr %p, ptr null monotonic\n"
        "  %r3 = atomicrmw uinc_wrap ptr %p, i32 %a release\n  %r4 = atomicrmw fmax ptr %p, float %f acquire\n"
        "  %r5 = atomicrmw xchg ptr %p, float %f seq_cst"
    )


# --- the conformance files of this area ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["unsized-types-alloca.ll", "unsized-types-load.ll", "unsized-types-store.ll"])
def test_unsized_types_conformance_files_are_rejected_with_llvms_words(name: str) -> None:
    path = CONFORMANCE / name
    if not path.is_file():
        pytest.skip("no conformance corpus")
    text = path.read_text()
    message = next(line.split("CHECK:", 1)[1].strip() for line in text.splitlines() if "; CHECK:" in line)
    shown = next(line.split("CHECK-NEXT:", 1)[1].strip() for line in text.splitlines() if "CHECK-NEXT:" in line)
    # As opt-19 does, our parser refuses these already, with the verifier's words,
    # pointing at the line FileCheck's CHECK-NEXT expects.
    with pytest.raises(llvmpy_mid.errors.ParseError) as info:
        llvmpy_mid.parse_file(path)
    assert info.value.message == message
    assert shown in info.value.source_line
    if HAVE_OPT:
        err = subprocess.run(["opt-19", "-passes=verify", "-disable-output", str(path)], capture_output=True).stderr
        first = err.decode().splitlines()[0]
        assert first == "opt-19: %s:%d:%d: error: %s" % (path, info.value.line, info.value.column, message)
