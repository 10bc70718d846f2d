"""Attributes, attribute sets and lists, checked against LLVM 19.

The expected strings and orders below were printed by ``opt-19 -S`` (LLVM
19.1.7) for the inputs shown beside them, or read from libLLVM 19.1 through
its C API; the tests marked ``live`` repeat such checks against the installed
tools when they are present.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.attribute_kinds import (
    ALL_KINDS,
    AllocFnKind,
    AttrForm,
    AttrKind,
    FPClass,
    UWTableKind,
    attribute_kind,
    can_use_as_fn_attr,
    can_use_as_param_attr,
    can_use_as_ret_attr,
    find_attribute_kind,
    format_fp_class,
    is_function_only,
    is_int_attr_kind,
    is_parameter_only,
    is_type_attr_kind,
    pack_alloc_size,
    unpack_alloc_size,
)
from llvmpy_mid.ir.attributes import (
    FIRST_ARG_INDEX,
    FUNCTION_INDEX,
    RETURN_INDEX,
    Attribute,
    AttributeList,
    AttributeSet,
)
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.memory_effects import IRMemLocation, MemoryEffects, ModRefInfo

OPT = shutil.which("opt-19")
live_opt = pytest.mark.skipif(OPT is None, reason="opt-19 is not installed")

# --- the kind table -----------------------------------------------------------------------

# Every kind of LLVM 19.1, in Attribute::AttrKind order starting at 1, as
# LLVMGetEnumAttributeKindForName in libLLVM.so.19.1 numbers them
# (LLVMGetLastEnumAttributeKind() == 93 == EndAttrKinds).
LLVM19_KINDS = """
allocalign allocptr alwaysinline builtin cold convergent coro_only_destroy_when_complete
dead_on_unwind disable_sanitizer_instrumentation fn_ret_thunk_extern hot hybrid_patchable immarg
inreg inlinehint jumptable minsize mustprogress naked nest noalias nobuiltin nocallback nocapture
nocf_check noduplicate nofree noimplicitfloat noinline nomerge noprofile norecurse noredzone
noreturn nosanitize_bounds nosanitize_coverage nosync noundef nounwind nonlazybind nonnull
null_pointer_is_valid optforfuzzing optdebug optsize optnone presplitcoroutine readnone readonly
returned returns_twice signext safestack sanitize_address sanitize_hwaddress sanitize_memtag
sanitize_memory sanitize_numerical_stability sanitize_thread shadowcallstack skipprofile
speculatable speculative_load_hardening ssp sspreq sspstrong strictfp swiftasync swifterror
swiftself willreturn writable writeonly zeroext byref byval elementtype inalloca preallocated sret
align allockind allocsize dereferenceable dereferenceable_or_null memory nofpclass alignstack
uwtable vscale_range range initializes
""".split()


def test_kind_numbers_match_llvm19() -> None:
    assert len(LLVM19_KINDS) == 92
    assert [k.llvm_name for k in ALL_KINDS] == LLVM19_KINDS
    assert [int(k) for k in ALL_KINDS] == list(range(1, 93))
    assert int(AttrKind.NONE) == 0 and int(AttrKind.END) == 93
    assert attribute_kind("nounwind") is AttrKind.NO_UNWIND and int(AttrKind.NO_UNWIND) == 39
    assert attribute_kind("align") is AttrKind.ALIGNMENT and int(AttrKind.ALIGNMENT) == 81
    assert attribute_kind("initializes") is AttrKind.INITIALIZES and int(AttrKind.INITIALIZES) == 92


def test_kind_groups_are_enum_type_int_range_rangelist() -> None:
    forms = [k.form for k in ALL_KINDS]
    # Groups are contiguous and in this order (opt-19 prints byval before align
    # before nofpclass before range before initializes, see below).
    assert forms == sorted(forms)
    assert forms.count(AttrForm.ENUM) == 74
    assert forms.count(AttrForm.TYPE) == 6
    assert forms.count(AttrForm.INT) == 10
    assert is_type_attr_kind(AttrKind.BY_VAL) and is_int_attr_kind(AttrKind.MEMORY)


def test_kind_lookup_errors() -> None:
    with pytest.raises(IRError, match="unknown attribute kind 'noinlin'"):
        attribute_kind("noinlin")
    # Attributes that only later LLVMs have are unknown to LLVM 19.
    for later in ("captures", "noext", "sanitize_type", "coro_elide_safe", "sanitize_realtime"):
        assert find_attribute_kind(later) is None
    with pytest.raises(IRError, match="'align' is an integer attribute, not an enum one"):
        Attribute.enum("align")
    with pytest.raises(IRError, match="unknown attribute kind"):
        Attribute.enum("frobnicate")


@pytest.mark.skipif(
    not Path("/usr/lib/x86_64-linux-gnu/libLLVM.so.19.1").exists() and ctypes.util.find_library("LLVM-19") is None,
    reason="libLLVM 19 is not installed",
)
def test_kind_numbers_live_from_libllvm() -> None:
    path = "/usr/lib/x86_64-linux-gnu/libLLVM.so.19.1"
    if not Path(path).exists():
        path = ctypes.util.find_library("LLVM-19") or path
    lib = ctypes.CDLL(path)
    lookup = lib.LLVMGetEnumAttributeKindForName
    lookup.restype = ctypes.c_uint
    lookup.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    last = lib.LLVMGetLastEnumAttributeKind
    last.restype = ctypes.c_uint
    assert last() == AttrKind.END
    for kind in ALL_KINDS:
        name = kind.llvm_name.encode()
        assert lookup(name, len(name)) == kind, kind


# Where opt-19's parser accepts each kind (an error "this attribute does not
# apply to functions/parameters/return values" otherwise). Four entries differ
# from the parser on purpose and follow LLVM 19's TableGen properties instead:
# readnone/readonly/writeonly on a function are upgraded to memory(...), the
# parser's "align" on a function is the function alignment, and builtin is a
# function attribute valid only on call sites.
PARSER_FN = set(
    """alwaysinline cold convergent coro_only_destroy_when_complete disable_sanitizer_instrumentation
fn_ret_thunk_extern hot hybrid_patchable inlinehint jumptable minsize mustprogress naked nobuiltin
nocallback nocf_check noduplicate nofree noimplicitfloat noinline nomerge noprofile norecurse
noredzone noreturn nosanitize_bounds nosanitize_coverage nosync nounwind nonlazybind
null_pointer_is_valid optforfuzzing optdebug optsize optnone presplitcoroutine readnone readonly
returns_twice safestack sanitize_address sanitize_hwaddress sanitize_memtag sanitize_memory
sanitize_numerical_stability sanitize_thread shadowcallstack skipprofile speculatable
speculative_load_hardening ssp sspreq sspstrong strictfp willreturn writeonly preallocated align
allockind allocsize memory alignstack uwtable vscale_range""".split()
)
PARSER_PARAM = set(
    """allocalign allocptr dead_on_unwind immarg inreg nest noalias nocapture nofree noundef nonnull
readnone readonly returned signext swiftasync swifterror swiftself writable writeonly zeroext byref
byval elementtype inalloca preallocated sret align dereferenceable dereferenceable_or_null nofpclass
alignstack range initializes""".split()
)
PARSER_RET = set(
    """inreg noalias noundef nonnull signext zeroext align dereferenceable dereferenceable_or_null
nofpclass range""".split()
)


def test_where_attributes_may_appear() -> None:
    fn = {k.llvm_name for k in ALL_KINDS if can_use_as_fn_attr(k)}
    assert fn == (PARSER_FN - {"readnone", "readonly", "writeonly", "align"}) | {"builtin"}
    assert {k.llvm_name for k in ALL_KINDS if can_use_as_param_attr(k)} == PARSER_PARAM
    assert {k.llvm_name for k in ALL_KINDS if can_use_as_ret_attr(k)} == PARSER_RET
    assert is_function_only(AttrKind.NO_UNWIND) and not is_function_only(AttrKind.NO_FREE)
    assert is_parameter_only(AttrKind.BY_VAL) and not is_parameter_only(AttrKind.PREALLOCATED)
    assert not can_use_as_ret_attr(AttrKind.STACK_ALIGNMENT)  # LLVM 19: fn and param only


# --- printing order against opt-19 ----------------------------------------------------------


def _shuffled(items: list[Attribute], seed: int) -> list[Attribute]:
    out = list(items)
    random.Random(seed).shuffle(out)
    return out


def _attrs_from_names(ctx: Context, text: str) -> list[Attribute]:
    out: list[Attribute] = []
    for word in text.split():
        kind = find_attribute_kind(word.split("(")[0])
        if kind is None:  # the rest of "align 16", "initializes((0, 4))"...
            continue
        if kind.form is AttrForm.ENUM:
            out.append(Attribute.enum(kind))
        elif kind.form is AttrForm.TYPE:
            out.append(Attribute.type_attr(kind, ctx.i8))
    return out


def test_function_attribute_group_order_matches_opt() -> None:
    ctx = Context()
    # Input: the same attributes in reverse order (readonly etc. left out, they
    # become memory(...)); opt-19 printed this attribute group:
    expected = (
        "alwaysinline cold convergent coro_only_destroy_when_complete disable_sanitizer_instrumentation "
        "fn_ret_thunk_extern hot hybrid_patchable inlinehint jumptable minsize mustprogress naked nobuiltin "
        "nocallback nocf_check noduplicate nofree noimplicitfloat noinline nomerge noprofile norecurse "
        "noredzone noreturn nosanitize_bounds nosanitize_coverage nosync nounwind nonlazybind "
        "null_pointer_is_valid optforfuzzing optdebug optsize optnone presplitcoroutine returns_twice "
        "safestack sanitize_address sanitize_hwaddress sanitize_memtag sanitize_memory "
        "sanitize_numerical_stability sanitize_thread shadowcallstack skipprofile speculatable "
        "speculative_load_hardening ssp sspreq sspstrong strictfp willreturn preallocated(i32) "
        'allockind("alloc") allocsize(0) memory(none) alignstack=8 uwtable(sync) vscale_range(2,4) '
        '"aaa"="1" "b" "zzz"'
    )
    attrs = _attrs_from_names(ctx, expected.split(" preallocated")[0])
    attrs += [
        Attribute.type_attr("preallocated", ctx.i32),
        Attribute.alloc_kind(AllocFnKind.ALLOC),
        Attribute.alloc_size(0),
        Attribute.memory(MemoryEffects.none()),
        Attribute.stack_alignment(8),
        Attribute.uwtable(UWTableKind.SYNC),
        Attribute.vscale_range(2, 4),
        Attribute.string("zzz"),
        Attribute.string("aaa", "2"),
        Attribute.string("b"),
        Attribute.string("aaa", "1"),  # the later one wins, as in opt
    ]
    for seed in range(5):
        shuffled = _shuffled(attrs, seed)
        # Keep "aaa"="1" after "aaa"="2" so that the last-wins rule picks it.
        shuffled.remove(Attribute.string("aaa", "1"))
        shuffled.append(Attribute.string("aaa", "1"))
        assert AttributeSet(shuffled).as_string(in_attr_group=True) == expected
    assert sorted(attrs)[0] == Attribute.enum("alwaysinline")


def test_parameter_and_return_order_matches_opt() -> None:
    ctx = Context()
    # declare void @f(ptr writeonly writable ... align 16, i32 ..., float nofpclass(nan) inreg)
    expected_ptr = (
        "allocptr dead_on_unwind immarg inreg nest noalias nocapture nofree noundef nonnull readnone "
        "readonly returned swiftasync swifterror swiftself writable writeonly byref(i8) byval(i8) "
        "elementtype(i8) inalloca(i8) preallocated(i8) sret(i8) align 16 dereferenceable(8) "
        "dereferenceable_or_null(4) alignstack(4) initializes((0, 4))"
    )
    attrs = _attrs_from_names(ctx, expected_ptr)
    attrs += [
        Attribute.alignment(16),
        Attribute.dereferenceable(8),
        Attribute.dereferenceable_or_null(4),
        Attribute.stack_alignment(4),
        Attribute.initializes([(0, 4)]),
    ]
    assert AttributeSet(reversed(attrs)).as_string() == expected_ptr
    expected_i32 = "allocalign noundef signext zeroext range(i32 0, 5)"
    i32_attrs = _attrs_from_names(ctx, expected_i32) + [Attribute.range(ctx.i32, 0, 5)]
    assert AttributeSet(_shuffled(i32_attrs, 1)).as_string() == expected_i32
    fp = [Attribute.nofpclass(FPClass.NAN), Attribute.enum("inreg")]
    assert AttributeSet(fp).as_string() == "inreg nofpclass(nan)"
    # Return attributes: declare noalias nonnull noundef align 8 ... ptr @r()
    ret = [
        Attribute.dereferenceable_or_null(4),
        Attribute.dereferenceable(4),
        Attribute.alignment(8),
        Attribute.enum("noundef"),
        Attribute.enum("nonnull"),
        Attribute.enum("noalias"),
    ]
    assert AttributeSet(ret).as_string() == (
        "noalias noundef nonnull align 8 dereferenceable(4) dereferenceable_or_null(4)"
    )
    # With the verifier off, one parameter may mix every form:
    # ptr initializes((0,4)) range(i32 0, 5) nofpclass(nan) align 4 byval(i8)
    mixed = [
        Attribute.initializes([(0, 4)]),
        Attribute.range(ctx.i32, 0, 5),
        Attribute.nofpclass(FPClass.NAN),
        Attribute.alignment(4),
        Attribute.type_attr("byval", ctx.i8),
    ]
    assert AttributeSet(mixed).as_string() == "byval(i8) align 4 nofpclass(nan) range(i32 0, 5) initializes((0, 4))"


def test_string_attribute_order_and_escaping_matches_opt() -> None:
    # declare void @st() "a\22b"="c\5Cd" "" "x"="" "\01"="é" "y"="1" "B" "b"
    # printed: { "" "\01"="\C3\A9" "B" "a"b"="c\\d" "b" "x" "y"="1" }
    # The key is printed raw (the \01 byte and the quote are not escaped); the
    # value is escaped, a backslash as two backslashes.
    attrs = [
        Attribute.string('a"b', "c\\d"),
        Attribute.string(""),
        Attribute.string("x", ""),
        Attribute.string("\x01", "é"),
        Attribute.string("y", "1"),
        Attribute.string("B"),
        Attribute.string("b"),
    ]
    assert AttributeSet(attrs).as_string(True) == '"" "\x01"="\\C3\\A9" "B" "a"b"="c\\\\d" "b" "x" "y"="1"'
    assert Attribute.string("x", "") == Attribute.string("x")


def test_integer_attribute_spellings_match_opt() -> None:
    ctx = Context()
    cases = [
        (Attribute.alloc_size(0), "allocsize(0)"),
        (Attribute.alloc_size(0, 1), "allocsize(0,1)"),
        (Attribute.alloc_size(3, 4), "allocsize(3,4)"),
        (Attribute.vscale_range(2, 2), "vscale_range(2,2)"),  # input vscale_range(2)
        (Attribute.vscale_range(1), "vscale_range(1,0)"),  # input vscale_range(1,0)
        (Attribute.vscale_range(1, 16), "vscale_range(1,16)"),
        (Attribute.uwtable(), "uwtable"),  # input uwtable and uwtable(async)
        (Attribute.uwtable(UWTableKind.SYNC), "uwtable(sync)"),
        (Attribute.alloc_kind(AllocFnKind.FREE), 'allockind("free")'),
        # input allockind("aligned,zeroed,uninitialized,alloc,realloc,free")
        (Attribute.alloc_kind(AllocFnKind(63)), 'allockind("alloc,realloc,free,uninitialized,zeroed,aligned")'),
        (Attribute.stack_alignment(16), "alignstack(16)"),
        (Attribute.alignment(1), "align 1"),
        (Attribute.alignment(1 << 32), "align 4294967296"),
        (Attribute.range(ctx.i8, -1, 5), "range(i8 -1, 5)"),
        (Attribute.range(ctx.i8, 200, 5), "range(i8 -56, 5)"),
        (Attribute.range(ctx.i8, 5, -128), "range(i8 5, -128)"),
        (Attribute.range(ctx.i32, -5, -1), "range(i32 -5, -1)"),
        (Attribute.range(ctx.i1, 0, 1), "range(i1 0, -1)"),
        (Attribute.range(ctx.i1, 1, 0), "range(i1 -1, 0)"),
        (Attribute.range(ctx.i64, (1 << 63) - 1, 0), "range(i64 9223372036854775807, 0)"),
        (
            Attribute.range(ctx.i128, 0, (1 << 127) - 1),
            "range(i128 0, 170141183460469231731687303715884105727)",
        ),
        (Attribute.initializes([(0, 4), (8, 12)]), "initializes((0, 4), (8, 12))"),
        (Attribute.initializes([(-8, 0)]), "initializes((-8, 0))"),
        (Attribute.initializes([(0, 4), (5, 8)]), "initializes((0, 4), (5, 8))"),
    ]
    for attr, text in cases:
        assert attr.as_string() == text
    assert Attribute.stack_alignment(16).as_string(in_attr_group=True) == "alignstack=16"
    assert Attribute.range(ctx.i8, 200, 5).range_lower == 200


def test_invalid_values_are_refused_like_llvm() -> None:
    ctx = Context()
    with pytest.raises(IRError, match="full or empty set"):
        Attribute.range(ctx.i8, 3, 3)  # opt-19: "the range should not represent ..."
    with pytest.raises(IRError, match="unordered or overlapping"):
        Attribute.initializes([(0, 4), (4, 8)])  # adjacent ranges are refused too
    with pytest.raises(IRError, match="unordered or overlapping"):
        Attribute.initializes([(8, 12), (0, 4)])
    with pytest.raises(IRError, match="full or empty set"):
        Attribute.initializes([(4, 4)])
    with pytest.raises(IRError, match="non-zero"):
        Attribute.dereferenceable(0)
    with pytest.raises(IRError, match="power of two"):
        Attribute.alignment(12)
    with pytest.raises(IRError, match="larger than 2"):
        Attribute.alignment(1 << 33)
    with pytest.raises(IRError, match="nofpclass"):
        Attribute.nofpclass(1024)
    with pytest.raises(IRError, match="nofpclass"):
        Attribute.nofpclass(0)
    with pytest.raises(IRError, match="does not fit"):
        Attribute.range(ctx.i8, 256, 0)
    with pytest.raises(IRError):
        Attribute.vscale_range(0)  # LLVM keeps no attribute for a zero minimum


# --- memory(...) ----------------------------------------------------------------------------

# opt-19 on "declare void @f() memory(<other>, argmem: <a>, inaccessiblemem: <i>)"
# for all 64 combinations; key is (argmem, inaccessiblemem, other) with
# 0 none, 1 read, 2 write, 3 readwrite.
MEMORY_ORACLE = {
    (0, 0, 0): "memory(none)",
    (0, 0, 1): "memory(read, argmem: none, inaccessiblemem: none)",
    (0, 0, 2): "memory(write, argmem: none, inaccessiblemem: none)",
    (0, 0, 3): "memory(readwrite, argmem: none, inaccessiblemem: none)",
    (0, 1, 0): "memory(inaccessiblemem: read)",
    (0, 1, 1): "memory(read, argmem: none)",
    (0, 1, 2): "memory(write, argmem: none, inaccessiblemem: read)",
    (0, 1, 3): "memory(readwrite, argmem: none, inaccessiblemem: read)",
    (0, 2, 0): "memory(inaccessiblemem: write)",
    (0, 2, 1): "memory(read, argmem: none, inaccessiblemem: write)",
    (0, 2, 2): "memory(write, argmem: none)",
    (0, 2, 3): "memory(readwrite, argmem: none, inaccessiblemem: write)",
    (0, 3, 0): "memory(inaccessiblemem: readwrite)",
    (0, 3, 1): "memory(read, argmem: none, inaccessiblemem: readwrite)",
    (0, 3, 2): "memory(write, argmem: none, inaccessiblemem: readwrite)",
    (0, 3, 3): "memory(readwrite, argmem: none)",
    (1, 0, 0): "memory(argmem: read)",
    (1, 0, 1): "memory(read, inaccessiblemem: none)",
    (1, 0, 2): "memory(write, argmem: read, inaccessiblemem: none)",
    (1, 0, 3): "memory(readwrite, argmem: read, inaccessiblemem: none)",
    (1, 1, 0): "memory(argmem: read, inaccessiblemem: read)",
    (1, 1, 1): "memory(read)",
    (1, 1, 2): "memory(write, argmem: read, inaccessiblemem: read)",
    (1, 1, 3): "memory(readwrite, argmem: read, inaccessiblemem: read)",
    (1, 2, 0): "memory(argmem: read, inaccessiblemem: write)",
    (1, 2, 1): "memory(read, inaccessiblemem: write)",
    (1, 2, 2): "memory(write, argmem: read)",
    (1, 2, 3): "memory(readwrite, argmem: read, inaccessiblemem: write)",
    (1, 3, 0): "memory(argmem: read, inaccessiblemem: readwrite)",
    (1, 3, 1): "memory(read, inaccessiblemem: readwrite)",
    (1, 3, 2): "memory(write, argmem: read, inaccessiblemem: readwrite)",
    (1, 3, 3): "memory(readwrite, argmem: read)",
    (2, 0, 0): "memory(argmem: write)",
    (2, 0, 1): "memory(read, argmem: write, inaccessiblemem: none)",
    (2, 0, 2): "memory(write, inaccessiblemem: none)",
    (2, 0, 3): "memory(readwrite, argmem: write, inaccessiblemem: none)",
    (2, 1, 0): "memory(argmem: write, inaccessiblemem: read)",
    (2, 1, 1): "memory(read, argmem: write)",
    (2, 1, 2): "memory(write, inaccessiblemem: read)",
    (2, 1, 3): "memory(readwrite, argmem: write, inaccessiblemem: read)",
    (2, 2, 0): "memory(argmem: write, inaccessiblemem: write)",
    (2, 2, 1): "memory(read, argmem: write, inaccessiblemem: write)",
    (2, 2, 2): "memory(write)",
    (2, 2, 3): "memory(readwrite, argmem: write, inaccessiblemem: write)",
    (2, 3, 0): "memory(argmem: write, inaccessiblemem: readwrite)",
    (2, 3, 1): "memory(read, argmem: write, inaccessiblemem: readwrite)",
    (2, 3, 2): "memory(write, inaccessiblemem: readwrite)",
    (2, 3, 3): "memory(readwrite, argmem: write)",
    (3, 0, 0): "memory(argmem: readwrite)",
    (3, 0, 1): "memory(read, argmem: readwrite, inaccessiblemem: none)",
    (3, 0, 2): "memory(write, argmem: readwrite, inaccessiblemem: none)",
    (3, 0, 3): "memory(readwrite, inaccessiblemem: none)",
    (3, 1, 0): "memory(argmem: readwrite, inaccessiblemem: read)",
    (3, 1, 1): "memory(read, argmem: readwrite)",
    (3, 1, 2): "memory(write, argmem: readwrite, inaccessiblemem: read)",
    (3, 1, 3): "memory(readwrite, inaccessiblemem: read)",
    (3, 2, 0): "memory(argmem: readwrite, inaccessiblemem: write)",
    (3, 2, 1): "memory(read, argmem: readwrite, inaccessiblemem: write)",
    (3, 2, 2): "memory(write, argmem: readwrite)",
    (3, 2, 3): "memory(readwrite, inaccessiblemem: write)",
    (3, 3, 0): "memory(argmem: readwrite, inaccessiblemem: readwrite)",
    (3, 3, 1): "memory(read, argmem: readwrite, inaccessiblemem: readwrite)",
    (3, 3, 2): "memory(write, argmem: readwrite, inaccessiblemem: readwrite)",
    (3, 3, 3): "memory(readwrite)",
}


def test_memory_printing_matches_opt_for_all_combinations() -> None:
    assert len(MEMORY_ORACLE) == 64
    for (a, i, o), text in MEMORY_ORACLE.items():
        me = MemoryEffects.from_locations(argmem=a, inaccessiblemem=i, other=o)
        assert me.as_string() == text
        assert Attribute.memory(me).as_string() == text
        # The raw attribute value packs two bits per location, argmem lowest.
        assert me.to_int() == a | (i << 2) | (o << 4)


def test_memory_effects_queries() -> None:
    assert MemoryEffects.none().does_not_access_memory
    assert MemoryEffects.unknown().is_unknown and MemoryEffects.unknown() == MemoryEffects.UNKNOWN
    assert MemoryEffects.read_only().only_reads_memory
    assert not MemoryEffects.read_only().only_writes_memory
    argmem = MemoryEffects.arg_mem_only(ModRefInfo.REF)
    assert argmem.only_accesses_arg_pointees and argmem.only_reads_memory
    assert argmem.get_mod_ref(IRMemLocation.ARG_MEM) is ModRefInfo.REF
    assert argmem.get_mod_ref(IRMemLocation.OTHER) is ModRefInfo.NO_MOD_REF
    both = argmem | MemoryEffects.inaccessible_mem_only(ModRefInfo.MOD)
    assert both.only_accesses_inaccessible_or_arg_mem and not both.only_accesses_arg_pointees
    assert both.get_mod_ref() is ModRefInfo.MOD_REF
    assert (both & MemoryEffects.read_only()) == argmem
    assert both.includes(argmem) and not argmem.includes(both)
    assert both.with_mod_ref(IRMemLocation.OTHER, ModRefInfo.REF).as_string() == (
        "memory(read, inaccessiblemem: write)"
    )
    # A set without memory(...) may touch anything.
    assert AttributeSet.EMPTY.memory_effects == MemoryEffects.unknown()
    s = AttributeSet([Attribute.memory(argmem)])
    assert s.memory_effects == argmem and s.get("memory") == Attribute.memory(argmem)


# --- nofpclass --------------------------------------------------------------------------------

# opt-19 printing "declare void @f(float nofpclass(N))" for a sample of the
# 1023 masks (all 1023 were checked when this module was written).
NOFPCLASS_ORACLE = {
    1: "snan",
    2: "qnan",
    3: "nan",
    4: "ninf",
    7: "nan ninf",
    8: "nnorm",
    15: "nan ninf nnorm",
    16: "nsub",
    24: "nsub nnorm",
    31: "nan ninf nsub nnorm",
    32: "nzero",
    40: "nzero nnorm",
    96: "zero",
    144: "sub",
    264: "norm",
    500: "ninf zero sub pnorm",
    504: "zero sub norm",
    510: "qnan ninf zero sub norm",
    512: "pinf",
    516: "inf",
    1015: "nan inf zero sub pnorm",
    1016: "pinf zero sub norm",
    1020: "inf zero sub norm",
    1022: "qnan inf zero sub norm",
    1023: "all",
}


def test_nofpclass_printing_matches_opt() -> None:
    for mask, text in NOFPCLASS_ORACLE.items():
        assert format_fp_class(mask) == text
        assert Attribute.nofpclass(mask).as_string() == "nofpclass(%s)" % text
    assert AttributeSet([Attribute.nofpclass(FPClass.INF | FPClass.S_NAN)]).nofpclass == FPClass(517)
    assert Attribute.nofpclass(3).fp_class_mask is FPClass.NAN


def test_alloc_size_and_vscale_packing() -> None:
    # LLVM packs allocsize as elem << 32 | (num or 0xFFFFFFFF) and
    # vscale_range as min << 32 | (max or 0); integer attributes of one kind
    # order by that raw value.
    assert Attribute.alloc_size(0).int_value == 0xFFFFFFFF
    assert Attribute.alloc_size(3, 4).int_value == (3 << 32) | 4
    assert unpack_alloc_size(pack_alloc_size(2)) == (2, None)
    assert Attribute.alloc_size(1, 2).alloc_size_args == (1, 2)
    assert Attribute.alloc_size(0, 1) < Attribute.alloc_size(0)
    assert Attribute.vscale_range(2, 4).int_value == (2 << 32) | 4
    assert Attribute.vscale_range(1).vscale_range_args == (1, None)
    s = AttributeSet([Attribute.vscale_range(1, 16), Attribute.alloc_size(0)])
    assert s.vscale_range_args == (1, 16) and s.alloc_size_args == (0, None)
    assert AttributeSet.EMPTY.vscale_range_args is None


# --- ordering, equality and hashing ------------------------------------------------------------

_CTX = Context()
_TYPES = [_CTX.i8, _CTX.i32, _CTX.ptr, _CTX.array_type(_CTX.i8, 4), _CTX.struct_type([_CTX.i32, _CTX.i64])]
_ENUM_KINDS = [k for k in ALL_KINDS if k.form is AttrForm.ENUM]
_TYPE_KINDS = [k for k in ALL_KINDS if k.form is AttrForm.TYPE]

attributes_st = st.one_of(
    st.sampled_from(_ENUM_KINDS).map(Attribute.enum),
    st.builds(Attribute.type_attr, st.sampled_from(_TYPE_KINDS), st.sampled_from(_TYPES)),
    st.builds(Attribute.alignment, st.integers(0, 32).map(lambda e: 1 << e)),
    st.builds(Attribute.dereferenceable, st.integers(1, 1 << 40)),
    st.builds(Attribute.dereferenceable_or_null, st.integers(1, 64)),
    st.builds(Attribute.memory, st.integers(0, 63).map(MemoryEffects.from_int)),
    st.builds(Attribute.nofpclass, st.integers(1, 1023)),
    st.builds(Attribute.uwtable, st.sampled_from([UWTableKind.SYNC, UWTableKind.ASYNC])),
    st.integers(0, 255).filter(lambda v: v != 7).map(lambda lo: Attribute.range(_CTX.i8, lo, 7)),
    st.lists(st.integers(-20, 20), min_size=2, max_size=6, unique=True)
    .map(sorted)
    .map(lambda xs: Attribute.initializes([(xs[i], xs[i + 1]) for i in range(0, len(xs) - 1, 2)])),
    st.builds(Attribute.string, st.sampled_from(["a", "b", "no-jump-tables", ""]), st.sampled_from(["", "1", "x"])),
)


@given(st.lists(attributes_st, max_size=6), st.lists(attributes_st, max_size=6))
@settings(max_examples=200)
def test_ordering_is_a_total_order_consistent_with_equality(xs: list[Attribute], ys: list[Attribute]) -> None:
    for a in xs:
        for b in ys:
            assert (a < b) + (b < a) + (a == b) == 1
            assert (a <= b) == (not b < a)
            assert (a > b) == (b < a)
            if a == b:
                assert hash(a) == hash(b)
    everything = sorted(xs + ys)
    assert all(not everything[i + 1] < everything[i] for i in range(len(everything) - 1))


@given(st.lists(attributes_st, max_size=10), st.randoms())
@settings(max_examples=200)
def test_sets_are_values(attrs_: list[Attribute], rnd: random.Random) -> None:
    s = AttributeSet(attrs_)
    shuffled = list(s)
    rnd.shuffle(shuffled)
    t = AttributeSet(shuffled)
    assert s == t and hash(s) == hash(t) and {s: 1}[t] == 1
    listed = list(s)
    assert listed == sorted(listed)
    # One attribute per kind (per key for strings), the last given one kept.
    kinds = [a.kind_name if a.is_string_attr else a.kind for a in listed]
    assert len(kinds) == len(set(kinds))
    def slot(attr: Attribute) -> object:
        return ("string", attr.key) if attr.is_string_attr else attr.kind

    for a in attrs_:
        kept = s.get_string(a.key) if a.is_string_attr else s.get(a.kind)
        assert kept == [b for b in attrs_ if slot(b) == slot(a)][-1]


def test_type_attributes_order_deterministically() -> None:
    ctx = Context()
    # LLVM leaves two type attributes of one kind unordered; we order by type id
    # (integer 13 < pointer 15 < struct 16) and then by printed type.
    a = Attribute.type_attr("byval", ctx.i32)
    b = Attribute.type_attr("byval", ctx.ptr)
    c = Attribute.type_attr("byval", ctx.i8)
    assert sorted([b, a, c]) == [a, c, b]
    assert Attribute.type_attr("byval", ctx.i32) == a and hash(Attribute.type_attr("byval", ctx.i32)) == hash(a)
    assert Attribute.type_attr("byval", ctx.i32) != Attribute.type_attr("sret", ctx.i32)


def test_ranges_order_by_width_then_bounds() -> None:
    ctx = Context()
    r = [Attribute.range(ctx.i32, 0, 5), Attribute.range(ctx.i8, 1, 2), Attribute.range(ctx.i8, 0, 9)]
    assert sorted(r) == [r[2], r[1], r[0]]
    assert Attribute.range(ctx.i8, -1, 5) == Attribute.range(ctx.i8, 255, 5)


def test_every_kinded_attribute_precedes_string_attributes() -> None:
    s = Attribute.string("\x00")
    for kind in _ENUM_KINDS:
        assert Attribute.enum(kind) < s and not s < Attribute.enum(kind)
    assert Attribute.enum("nounwind") is Attribute.enum(AttrKind.NO_UNWIND)  # shared instances
    assert Attribute.enum("nounwind").kind_number == 39


# --- AttributeSet -----------------------------------------------------------------------------


def test_attribute_set_operations() -> None:
    ctx = Context()
    s = AttributeSet.EMPTY
    assert not s and len(s) == 0 and list(s) == []
    s1 = s.add(Attribute.alignment(4))
    assert s1 is not s and not s and s1.alignment == 4
    s2 = s1.add(Attribute.alignment(16))  # replaces align 4
    assert len(s2) == 1 and s2.alignment == 16 and s1.alignment == 4
    s3 = s2.add(Attribute.enum("noundef")).add(Attribute.type_attr("byval", ctx.i32)).add(Attribute.string("k", "v"))
    assert s3.as_string() == 'noundef byval(i32) align 16 "k"="v"'
    assert s3.has("noundef") and s3.has(AttrKind.NO_UNDEF) and "byval" in s3
    assert Attribute.enum("noundef") in s3 and Attribute.alignment(4) not in s3
    assert s3.has("k") and s3.string_value("k") == "v" and s3.get("k") == Attribute.string("k", "v")
    assert s3.type_attr("byval") is ctx.i32 and s3.by_val_type is ctx.i32 and s3.struct_ret_type is None
    assert s3.dereferenceable_bytes == 0 and s3.add(Attribute.dereferenceable(8)).dereferenceable_bytes == 8
    assert s3.remove("align").alignment is None and s3.alignment == 16
    assert s3.remove("nonnull") is s3
    assert s3.remove_all(["noundef", "byval", "align", "k"]) is AttributeSet.EMPTY
    assert s3.add(Attribute.alignment(16)) is s3
    assert s3.add_all([Attribute.enum("nonnull"), Attribute.alignment(8)]).as_string() == (
        'noundef nonnull byval(i32) align 8 "k"="v"'
    )
    # A string attribute spelled like a kind is reached only through has_string.
    odd = AttributeSet([Attribute.string("noinline")])
    assert not odd.has("noinline") and odd.has_string("noinline")
    with pytest.raises(IRError):
        s3.type_attr("align")
    assert repr(s3) == 'AttributeSet(noundef byval(i32) align 16 "k"="v")'


def test_attribute_set_typed_getters() -> None:
    ctx = Context()
    s = AttributeSet(
        [
            Attribute.uwtable(UWTableKind.SYNC),
            Attribute.alloc_kind(AllocFnKind.ALLOC | AllocFnKind.ZEROED),
            Attribute.stack_alignment(16),
            Attribute.dereferenceable_or_null(12),
            Attribute.range(ctx.i16, -3, 3),
            Attribute.initializes([(0, 8)]),
            Attribute.type_attr("elementtype", ctx.i64),
        ]
    )
    assert s.uwtable_kind is UWTableKind.SYNC and AttributeSet.EMPTY.uwtable_kind is UWTableKind.NONE
    assert s.alloc_kind == AllocFnKind.ALLOC | AllocFnKind.ZEROED
    allockind = s.get("allockind")
    assert allockind is not None and allockind.as_string() == 'allockind("alloc,zeroed")'
    assert s.stack_alignment == 16 and s.dereferenceable_or_null_bytes == 12
    assert s.constant_range == (ctx.i16, 0xFFFD, 3)
    assert s.initializes == ((0, 8),) and AttributeSet.EMPTY.initializes == ()
    assert s.element_type is ctx.i64


# --- AttributeList ----------------------------------------------------------------------------


def test_attribute_list_indices_and_iteration() -> None:
    assert (FUNCTION_INDEX, RETURN_INDEX, FIRST_ARG_INDEX) == (-1, 0, 1)
    empty = AttributeList.EMPTY
    assert not empty and list(empty) == [] and empty.num_attr_sets == 0
    assert empty.param_attrs(7) is AttributeSet.EMPTY and empty.fn_attrs is AttributeSet.EMPTY
    nounwind = Attribute.enum("nounwind")
    noundef = Attribute.enum("noundef")
    l1 = empty.with_fn_attr(nounwind)
    assert l1.num_attr_sets == 1 and list(l1) == [(FUNCTION_INDEX, AttributeSet([nounwind]))]
    l2 = l1.with_param_attr(2, noundef)
    assert l2.num_params_with_attrs == 3 and l2.num_attr_sets == 5
    assert [i for i, _ in l2] == [-1, 0, 1, 2, 3]
    assert l2.attrs_at_index(FIRST_ARG_INDEX + 2) == AttributeSet([noundef])
    assert l2.param_attrs(0) is AttributeSet.EMPTY and l2.param_attrs(99) is AttributeSet.EMPTY
    assert l2.has_param_attr(2, "noundef") and not l2.has_param_attr(1, "noundef")
    assert l2.has_fn_attr("nounwind") and not l2.has_ret_attr("noundef")
    assert l2.has_attr_somewhere("noundef") and l2.param_with_attr("noundef") == 2
    assert l2.get_param_attr(2, "noundef") is noundef and l2.get_fn_attr("cold") is None
    # Removing the last parameter attribute trims the trailing empty slots.
    l3 = l2.without_param_attr(2, "noundef")
    assert l3 == l1 and hash(l3) == hash(l1) and l3.num_attr_sets == 1
    assert l1.without_fn_attr("nounwind") is AttributeList.EMPTY
    assert l2.without_attr_everywhere("noundef").without_attr_everywhere("nounwind") is AttributeList.EMPTY
    with pytest.raises(IndexError):
        l2.param_attrs(-1)


def test_attribute_list_values_and_replacement() -> None:
    ctx = Context()
    byval = Attribute.type_attr("byval", ctx.i32)
    a = AttributeList(
        fn_attrs=AttributeSet([Attribute.enum("nounwind")]),
        param_attrs=[AttributeSet.EMPTY, AttributeSet([byval]), AttributeSet.EMPTY],
    )
    b = AttributeList.EMPTY.with_param_attr(1, byval).with_fn_attr(Attribute.enum("nounwind"))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.param_type_attr(1, "byval") is ctx.i32 and a.param_type_attr(0, "byval") is None
    ret = AttributeSet([Attribute.enum("noundef"), Attribute.alignment(8)])
    c = a.with_ret_attrs(ret)
    assert c.ret_attrs == ret and c.ret_alignment == 8 and c != a
    d = c.with_param_attrs(1, AttributeSet([Attribute.alignment(4)]))  # replaces, not merges
    assert d.param_attrs(1).as_string() == "align 4" and d.param_alignment(1) == 4
    e = c.merge_param_attrs(1, [Attribute.alignment(4)])
    assert e.param_attrs(1).as_string() == "byval(i32) align 4"
    f = e.with_param_sets([AttributeSet([Attribute.enum("nonnull")])])
    assert f.num_params_with_attrs == 1 and f.fn_attrs == a.fn_attrs and f.ret_attrs == ret
    assert f.with_ret_attr(Attribute.alignment(16)).ret_alignment == 16
    assert f.without_ret_attr("align").ret_attrs.as_string() == "noundef"
    assert f.merge_fn_attrs([Attribute.enum("cold")]).fn_attrs.as_string() == "cold nounwind"
    assert f.without_param_attrs(0) == f.with_param_sets([])
    assert repr(f) == "AttributeList(fn: {nounwind}, ret: {noundef align 8}, arg0: {nonnull})"


# --- live oracle ------------------------------------------------------------------------------


def _random_fn_set(rnd: random.Random) -> AttributeSet:
    fn_enum = [k for k in _ENUM_KINDS if can_use_as_fn_attr(k) and k is not AttrKind.BUILTIN]
    attrs_ = [Attribute.enum(k) for k in rnd.sample(fn_enum, rnd.randint(0, 12))]
    extra = [
        Attribute.memory(MemoryEffects.from_int(rnd.randint(0, 63))),
        Attribute.stack_alignment(1 << rnd.randint(0, 8)),
        Attribute.uwtable(rnd.choice([UWTableKind.SYNC, UWTableKind.ASYNC])),
        Attribute.alloc_size(rnd.randint(0, 3), rnd.choice([None, 4, 5])),
        Attribute.vscale_range(rnd.randint(1, 4), rnd.choice([None, 8, 16])),
        Attribute.alloc_kind(rnd.randint(1, 63)),
        Attribute.type_attr("preallocated", rnd.choice(_TYPES)),
        Attribute.string(rnd.choice(["a", "b", "key-x", "no-jump-tables"]), rnd.choice(["", "1", "v\\w", "é"])),
        Attribute.string(rnd.choice(["z", "frame-pointer"]), rnd.choice(["", "all"])),
    ]
    attrs_ += rnd.sample(extra, rnd.randint(0, len(extra)))
    rnd.shuffle(attrs_)
    return AttributeSet(attrs_)


def _random_param_set(rnd: random.Random) -> AttributeSet:
    param_enum = [k for k in _ENUM_KINDS if can_use_as_param_attr(k)]
    attrs_ = [Attribute.enum(k) for k in rnd.sample(param_enum, rnd.randint(0, 8))]
    extra = [
        Attribute.alignment(1 << rnd.randint(0, 32)),
        Attribute.dereferenceable(rnd.randint(1, 1 << 20)),
        Attribute.dereferenceable_or_null(rnd.randint(1, 64)),
        Attribute.nofpclass(rnd.randint(1, 1023)),
        Attribute.stack_alignment(1 << rnd.randint(0, 8)),
        Attribute.range(_CTX.int_type(rnd.choice([1, 8, 32, 64])), 0, 1),
        Attribute.range(_CTX.i32, rnd.randint(-100, -1), rnd.randint(0, 100)),
        Attribute.initializes([(rnd.randint(-16, -1), 0), (4, rnd.randint(5, 64))]),
        Attribute.type_attr(rnd.choice(_TYPE_KINDS), rnd.choice(_TYPES)),
    ]
    attrs_ += rnd.sample(extra, rnd.randint(0, 4))
    rnd.shuffle(attrs_)
    return AttributeSet(attrs_)


@live_opt
def test_live_random_attribute_sets_print_as_opt() -> None:
    """Random sets printed by us, read and re-printed by opt-19 -S: the text must not change."""
    rnd = random.Random(19)
    decls: list[tuple[AttributeSet, list[AttributeSet]]] = []
    lines: list[str] = []
    for n in range(300):
        fn = _random_fn_set(rnd)
        params = [_random_param_set(rnd) for _ in range(rnd.randint(0, 3))]
        decls.append((fn, params))
        plist = ", ".join(("ptr " + p.as_string()).rstrip() for p in params)
        lines.append("declare void @f%d(%s) %s" % (n, plist, fn.as_string()))
    proc = subprocess.run(
        [str(OPT), "-S", "-disable-verify"], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True
    )
    groups = dict(re.findall(r"^attributes #(\d+) = \{ (.*) \}$", proc.stdout, re.M))
    seen = 0
    for m in re.finditer(r"^declare void @f(\d+)\((.*)\)(?: #(\d+))?$", proc.stdout, re.M):
        fn, params = decls[int(m.group(1))]
        assert groups.get(m.group(3) or "", "") == fn.as_string(in_attr_group=True)
        assert m.group(2) == ", ".join(("ptr " + p.as_string()).rstrip() for p in params)
        seen += 1
    assert seen == 300


@live_opt
def test_live_memory_and_nofpclass_against_opt() -> None:
    lines = ["declare void @m%d() %s" % (v, MemoryEffects.from_int(v).as_string()) for v in range(64)]
    lines += ["declare void @n%d(float nofpclass(%d))" % (v, v) for v in range(1, 1024)]
    proc = subprocess.run([str(OPT), "-S"], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    groups = dict(re.findall(r"^attributes #(\d+) = \{ (.*) \}$", proc.stdout, re.M))
    for m in re.finditer(r"^declare void @m(\d+)\(\) #(\d+)$", proc.stdout, re.M):
        assert groups[m.group(2)] == MemoryEffects.from_int(int(m.group(1))).as_string()
    printed = re.findall(r"^declare void @n(\d+)\(float (nofpclass\(.*\))\)$", proc.stdout, re.M)
    assert len(printed) == 1023
    for value, text in printed:
        assert Attribute.nofpclass(int(value)).as_string() == text
