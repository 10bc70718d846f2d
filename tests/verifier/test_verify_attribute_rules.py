"""The verifier's attribute rules (``attribute_rules`` / ``attribute_compat``):
placement, incompatible pairs, the type each attribute accepts, the
one-per-function parameter attributes, allocsize/allockind/vscale_range,
memory against writable, and the string attributes whose values LLVM checks.

Where the text parser accepts the construct (as llvm-as does) the expected
text below was taken from opt-19, and the whole diagnostics text is compared
with a live opt-19 run as well when opt-19 is installed. What the parser
refuses (an attribute in a place it never applies, values the parser range
checks) is built through the API and checked against LLVM 19's wording.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from llvmpy_mid import module_diagnostics
from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.attributes import Attribute, AttributeList, AttributeSet
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier.attribute_compat import (
    can_losslessly_bitcast,
    incompatible_kinds,
    is_unsigned_int,
    is_valid_vfabi_variant,
    is_x86_triple,
)
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.attribute_rules import verify_attribute_list

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vhelpers import CONFORMANCE, HAVE_OPT, check, opt_text, ours, parse, texts  # noqa: E402


# --- placement and the per-parameter rules (text the parser accepts) ---------------------------

PARAM_CASES = [
    (
        "declare void @a(ptr sret(i32) %a, ptr sret(i32) %b)",
        "Cannot have multiple 'sret' parameters!\nptr @a\n",
    ),
    (
        "declare void @b(ptr %a, ptr %b, ptr sret(i32) %c)",
        "Attribute 'sret' is not on first or second parameter!\nptr @b\n",
    ),
    ("declare void @c(i32 sret(i32) %x)", "Attribute 'sret(i32)' applied to incompatible type!\nptr @c\n"),
    (
        "declare void @d(ptr byval(i64) inalloca(i64) %p)",
        "Attributes 'byval', 'inalloca', 'preallocated', 'inreg', 'nest', 'byref', and 'sret' are incompatible!\n"
        "ptr @d\n",
    ),
    (
        "declare void @d(ptr sret(i64) inreg %p)",
        "",
    ),
    ("declare void @e(ptr readonly inalloca(i64) %p)", "Attributes 'inalloca and readonly' are incompatible!\nptr @e\n"),
    ("declare void @f(ptr inalloca(void()) %p)", "Attribute 'inalloca' does not support unsized types!\nptr @f\n"),
    ("declare void @g(ptr inalloca(i32) %p, i32 %p2)", "inalloca isn't on the last parameter!\nptr @g\n"),
    ("declare void @h(i32 zeroext signext)", "Attributes 'zeroext and signext' are incompatible!\nptr @h\n"),
    ("declare void @h(ptr readnone readonly)", "Attributes 'readnone and readonly' are incompatible!\nptr @h\n"),
    ("declare void @h(ptr readnone writeonly)", "Attributes 'readnone and writeonly' are incompatible!\nptr @h\n"),
    ("declare void @h(ptr readonly writeonly)", "Attributes 'readonly and writeonly' are incompatible!\nptr @h\n"),
    ("declare void @h(ptr writable readonly)", "Attributes writable and readonly are incompatible!\nptr @h\n"),
    (
        "declare void @h(ptr sret(i8) returned)",
        "Attributes 'sret and returned' are incompatible!\nptr @h\n"
        "Incompatible argument and return types for 'returned' attribute\nptr @h\n",
    ),
    ("declare void @i(ptr nest, ptr nest)", "More than one parameter has attribute nest!\nptr @i\n"),
    ("declare ptr @i(ptr returned, ptr returned)", "More than one parameter has attribute returned!\nptr @i\n"),
    ("declare i64 @i(<2 x i32> returned)", "Incompatible argument and return types for 'returned' attribute\nptr @i\n"),
    ("declare <2 x i32> @i(<4 x i16> returned)", ""),
    ("declare <2 x i32> @i(<2 x float> returned)", ""),
    ("declare x86_mmx @i(<2 x i32> returned)", ""),
    ("declare void @j(ptr swiftself, ptr swiftself)", "Cannot have multiple 'swiftself' parameters!\nptr @j\n"),
    ("declare void @j(ptr swiftasync, ptr swiftasync)", "Cannot have multiple 'swiftasync' parameters!\nptr @j\n"),
    ("declare void @j(ptr swifterror, ptr swifterror)", "Cannot have multiple 'swifterror' parameters!\nptr @j\n"),
    ("declare void @k(i32 immarg)", "immarg attribute only applies to intrinsics\nptr @k\n"),
    (
        "declare void @k(ptr elementtype(i32))",
        "Attribute 'elementtype' can only be applied to intrinsics and inline asm.\nptr @k\n"
        "Attribute 'elementtype' can only be applied to a callsite.\nptr @k\n",
    ),
    ("declare void @l(ptr byval(target(\"foo\")))", "Attribute 'byval' does not support unsized types!\nptr @l\n"),
    ("declare void @l(ptr byval([4294967296 x i8]))", "huge 'byval' arguments are unsupported\nptr @l\n"),
    ("declare void @l(ptr byref(void ()))", "Attribute 'byref' does not support unsized types!\nptr @l\n"),
    ("declare void @l(ptr byval({}))", ""),
    ("declare void @m(i8 range(i32 0, 4))", "Range bit width must match type bit width!\nptr @m\n"),
    ("declare void @m(<2 x i32> range(i32 0, 4))", ""),
    ("declare void @n(i32 \"no-jump-tables\"=\"x\")", "invalid value for 'no-jump-tables' attribute: x\n"),
    ("declare noundef void @o()", "Attribute 'noundef' applied to incompatible type!\nptr @o\n"),
    ("declare nofpclass(nan) {float} @o()", "Attribute 'nofpclass(nan)' applied to incompatible type!\nptr @o\n"),
    ("declare nofpclass(nan) [2 x <2 x float>] @o()", ""),
    # A failed parameter check ends that parameter's checks only: the function attributes are still checked.
    (
        "declare void @p(i32 nonnull) noinline alwaysinline",
        "Attribute 'nonnull' applied to incompatible type!\nptr @p\n"
        "Attributes 'noinline and alwaysinline' are incompatible!\nptr @p\n",
    ),
]


@pytest.mark.parametrize("text,expected", PARAM_CASES)
def test_parameter_rules(text: str, expected: str) -> None:
    check(text + "\n", expected)


# Which attributes each kind of type refuses (LLVM's AttributeFuncs::typeIncompatible), with opt-19's text.
TYPE_ATTRS = [
    "allocalign", "allocptr", "dead_on_unwind", "inreg", "nest", "noalias", "nocapture", "nofree", "noundef",
    "nonnull", "readnone", "readonly", "signext", "swifterror", "writable", "writeonly", "zeroext",
    "byref(i32)", "byval(i32)", "inalloca(i32)", "preallocated(i32)", "sret(i32)", "align 4",
    "dereferenceable(4)", "dereferenceable_or_null(4)", "nofpclass(nan)", "range(i32 0, 4)",
    "initializes((0, 4))",
]  # fmt: skip
TYPES = ["i32", "ptr", "float", "<2 x i32>", "<2 x ptr>", "<2 x float>", "[2 x float]", "{float}",
         "<vscale x 2 x float>", "[2 x [2 x half]]", "x86_mmx"]  # fmt: skip
POINTER_ONLY = {"allocptr", "dead_on_unwind", "nest", "noalias", "nocapture", "nonnull", "readnone", "readonly",
                "swifterror", "writable", "byref(i32)", "byval(i32)", "inalloca(i32)", "preallocated(i32)",
                "sret(i32)", "dereferenceable(4)", "dereferenceable_or_null(4)", "initializes((0, 4))"}  # fmt: skip


def _refused(attr: str, ty: str) -> bool:
    if attr in POINTER_ONLY:
        return ty != "ptr"
    if attr in ("allocalign", "signext", "zeroext"):
        return ty != "i32"
    if attr == "range(i32 0, 4)":
        return ty not in ("i32", "<2 x i32>")
    if attr == "align 4":
        return ty not in ("ptr", "<2 x ptr>")
    if attr == "nofpclass(nan)":
        return ty not in ("float", "<2 x float>", "[2 x float]", "<vscale x 2 x float>", "[2 x [2 x half]]")
    return False


@pytest.mark.parametrize("attr", TYPE_ATTRS)
def test_type_incompatible_attributes(attr: str) -> None:
    lines = []
    expected = []
    for i, ty in enumerate(TYPES):
        lines.append("declare void @f%d(%s %s %%x)" % (i, ty, attr))
        if _refused(attr, ty):
            expected.append("Attribute '%s' applied to incompatible type!\nptr @f%d\n" % (attr, i))
    check("\n".join(lines) + "\n", "".join(expected))


def test_conformance_files() -> None:
    for name in ("sret.ll", "inalloca1.ll", "allocsize.ll", "2008-09-02-FunctionNotes2.ll"):
        path = CONFORMANCE / name
        if not path.is_file():
            pytest.skip("conformance corpus not present")
        text = path.read_text()
        found = ours(text)
        assert found
        if HAVE_OPT:
            assert found == opt_text(text), name


# --- function attributes ------------------------------------------------------------------------

FN_CASES = [
    ("define void @f() alwaysinline noinline {\n  ret void\n}", "Attributes 'noinline and alwaysinline' are incompatible!\nptr @f\n"),
    ("declare void @f() optnone", "Attribute 'optnone' requires 'noinline'!\nptr @f\n"),
    ("declare void @f() optnone noinline optsize minsize", "Attributes 'optsize and optnone' are incompatible!\nptr @f\n"),
    ("declare void @f() optnone noinline minsize", "Attributes 'minsize and optnone' are incompatible!\nptr @f\n"),
    ("declare void @f() optnone noinline optdebug", "Attributes 'optdebug and optnone' are incompatible!\nptr @f\n"),
    ("declare void @f() optdebug optsize", "Attributes 'optsize and optdebug' are incompatible!\nptr @f\n"),
    ("declare void @f() optdebug minsize", "Attributes 'minsize and optdebug' are incompatible!\nptr @f\n"),
    ("declare void @f(ptr writable) memory(read)", "Attribute writable and memory without argmem: write are incompatible!\nptr @f\n"),
    ("declare void @f(ptr writable) memory(argmem: write)", ""),
    ("declare void @f(ptr writable)", ""),
    (
        'declare void @f() "aarch64_pstate_sm_enabled" "aarch64_pstate_sm_compatible"',
        "Attributes 'aarch64_pstate_sm_enabled and aarch64_pstate_sm_compatible' are incompatible!\nptr @f\n",
    ),
    (
        'declare void @f() "aarch64_new_za" "aarch64_out_za"',
        "Attributes 'aarch64_new_za', 'aarch64_in_za', 'aarch64_out_za', 'aarch64_inout_za' and "
        "'aarch64_preserves_za' are mutually exclusive\nptr @f\n",
    ),
    (
        'declare void @f() "aarch64_in_zt0" "aarch64_preserves_zt0"',
        "Attributes 'aarch64_new_zt0', 'aarch64_in_zt0', 'aarch64_out_zt0', 'aarch64_inout_zt0' and "
        "'aarch64_preserves_zt0' are mutually exclusive\nptr @f\n",
    ),
    ("define void @f() jumptable {\n  ret void\n}", "Attribute 'jumptable' requires 'unnamed_addr'\nptr @f\n"),
    ("define void @f() unnamed_addr jumptable {\n  ret void\n}", ""),
    ("declare ptr @a(i32) allocsize(1)", "'allocsize' element size argument is out of bounds\nptr @a\n"),
    ("declare ptr @b(ptr) allocsize(0)", "'allocsize' element size argument must refer to an integer parameter\nptr @b\n"),
    ("declare ptr @c(i32) allocsize(0, 1)", "'allocsize' number of elements argument is out of bounds\nptr @c\n"),
    ("declare ptr @d(i32, ptr) allocsize(0, 1)", "'allocsize' number of elements argument must refer to an integer parameter\nptr @d\n"),
    ("declare ptr @d(i32, i64) allocsize(0, 1)", ""),
    (
        'declare ptr @f(i32) allockind("free,zeroed,uninitialized")',
        "'allockind(\"free\")' doesn't allow uninitialized, zeroed, or aligned modifiers.\n"
        "'allockind()' can't be both zeroed and uninitialized\n",
    ),
    ('declare ptr @f(i32) allockind("alloc,realloc")', "'allockind()' requires exactly one of alloc, realloc, and free\n"),
    ('declare ptr @f(i32) allockind("alloc,zeroed,aligned")', ""),
    (
        "declare void @f() vscale_range(3, 2)",
        "'vscale_range' minimum must be power-of-two value\nptr @f\n"
        "'vscale_range' minimum cannot be greater than maximum\nptr @f\n",
    ),
    ("declare void @f() vscale_range(4, 6)", "'vscale_range' maximum must be power-of-two value\nptr @f\n"),
    ("declare void @f() vscale_range(2, 0)", ""),
    ('declare void @f() "frame-pointer"="bogus"', "invalid value for 'frame-pointer' attribute: bogus\nptr @f\n"),
    ('declare void @f() "frame-pointer"="reserved"', ""),
    (
        'declare void @f() "patchable-function-entry"="" "patchable-function-prefix"="+3" "warn-stack-size"="4294967296"',
        '"patchable-function-prefix" takes an unsigned integer: +3\nptr @f\n'
        '"patchable-function-entry" takes an unsigned integer: \nptr @f\n'
        '"warn-stack-size" takes an unsigned integer: 4294967296\nptr @f\n',
    ),
    ('declare void @f() "warn-stack-size"="4294967295" "patchable-function-entry"="007"', ""),
    (
        'declare void @f() "sign-return-address-key"="c_key"',
        "invalid value for 'sign-return-address-key' attribute: c_key\nptr @f\n"
        "'sign-return-address-key' present without `sign-return-address`\n",
    ),
    (
        'declare void @f() "branch-target-enforcement"="no" "guarded-control-stack"="1" '
        '"branch-protection-pauth-lr"="x" "sign-return-address"="some"',
        "invalid value for 'sign-return-address' attribute: some\nptr @f\n"
        "invalid value for 'branch-target-enforcement' attribute: no\nptr @f\n"
        "invalid value for 'branch-protection-pauth-lr' attribute: x\nptr @f\n"
        "invalid value for 'guarded-control-stack' attribute: 1\nptr @f\n",
    ),
    (
        'declare void @f() "sign-return-address"="all" "sign-return-address-key"="b_key" "branch-target-enforcement"',
        "",
    ),
    (
        'declare void @f() "no-jump-tables"="yes" "unsafe-fp-math"="1" "less-precise-fpmad"="false"',
        "invalid value for 'no-jump-tables' attribute: yes\ninvalid value for 'unsafe-fp-math' attribute: 1\n",
    ),
    ('declare i32 @f(i32) "vector-function-abi-variant"="foo"', "invalid name for a VFABI variant: foo\nptr @f\n"),
    ('declare i32 @f(i32) "vector-function-abi-variant"="_ZGVnN2v_foo(vfoo)"', ""),
    (
        'target triple = "x86_64-unknown-linux-gnu"\ndeclare void @f(<8 x i64>) "target-features"="+avx512f,-evex512"',
        "512-bit vector arguments require 'evex512' for AVX512\nptr @f\n",
    ),
    ('declare void @f(<8 x i64>) "target-features"="+avx512f,-evex512"', ""),
]


@pytest.mark.parametrize("text,expected", FN_CASES)
def test_function_attribute_rules(text: str, expected: str) -> None:
    check(text + "\n", expected)


# --- rules only the API can break ---------------------------------------------------------------


def _fn(text: str) -> tuple[Module, Function]:
    m = parse(text)
    return m, next(iter(m.functions))


def test_fn_attribute_on_parameter() -> None:
    m, fn = _fn("declare void @f(i32)\n")
    fn.attributes = fn.attributes.with_param_attr(0, Attribute.enum("noinline"))
    assert texts(m) == "Attribute 'noinline' does not apply to parameters\nptr @f\n"


def test_param_attribute_on_return_value() -> None:
    m, fn = _fn("declare ptr @f()\n")
    fn.attributes = fn.attributes.with_ret_attr(Attribute.enum("nocapture"))
    assert texts(m) == "Attribute 'nocapture' does not apply to function return values\nptr @f\n"


def test_param_attribute_on_function() -> None:
    m, fn = _fn("declare void @f()\n")
    fn.attributes = fn.attributes.with_fn_attr(Attribute.enum("nonnull"))
    assert texts(m) == "Attribute 'nonnull' does not apply to functions!\nptr @f\n"
    fn.attributes = AttributeList(AttributeSet([Attribute.type_attr("byval", fn.context.i32)]))
    assert texts(m) == "Attribute 'byval(i32)' does not apply to functions!\nptr @f\n"


def test_immarg_with_other_attributes() -> None:
    m, fn = _fn("declare void @llvm.foo(i32)\n")
    fn.attributes = fn.attributes.merge_param_attrs(0, [Attribute.enum("immarg"), Attribute.enum("noundef")])
    assert texts(m) == "Attribute 'immarg' is incompatible with other attributes\nptr @llvm.foo\n"


def test_huge_alignment() -> None:
    m, fn = _fn("declare void @f(ptr)\n")
    fn.attributes = fn.attributes.with_param_attr(0, Attribute.int("align", 1 << 33))
    assert texts(m) == "huge alignment values are unsupported\nptr @f\n"


def test_nofpclass_masks() -> None:
    m, fn = _fn("declare void @f(float)\n")
    fn.attributes = fn.attributes.with_param_attr(0, Attribute.int("nofpclass", 0))
    assert texts(m) == "Attribute 'nofpclass' must have at least one test bit set\nptr @f\n"
    fn.attributes = fn.attributes.with_param_attr(0, Attribute.int("nofpclass", 1024 | 3))
    assert texts(m) == "Invalid value for 'nofpclass' test mask\nptr @f\n"


def test_initializes_ranges() -> None:
    m, fn = _fn("declare void @f(ptr)\n")
    fn.attributes = fn.attributes.with_param_attr(0, Attribute(AttrKind.INITIALIZES, ranges=()))
    assert texts(m) == "Attribute 'initializes' does not support empty list\nptr @f\n"
    fn.attributes = fn.attributes.with_param_attr(0, Attribute(AttrKind.INITIALIZES, ranges=((0, 4), (2, 8))))
    assert texts(m) == "Attribute 'initializes' does not support unordered ranges\nptr @f\n"
    fn.attributes = fn.attributes.with_param_attr(0, Attribute.initializes([(0, 4), (8, 12)]))
    assert texts(m) == ""


def test_vscale_range_minimum_zero() -> None:
    m, fn = _fn("declare void @f()\n")
    fn.attributes = fn.attributes.with_fn_attr(Attribute.int("vscale_range", 4))
    assert texts(m) == "'vscale_range' minimum must be greater than 0\nptr @f\n"


def test_call_site_lists_are_checked_with_the_call_printed() -> None:
    m = parse("declare void @g(i32)\ndefine void @f() {\n  call void @g(i32 1)\n  ret void\n}\n")
    fn = m.get_function("f")
    g = m.get_function("g")
    assert fn is not None and g is not None
    call = fn.entry_block.first_instruction
    assert call is not None
    c = Checker(m)
    c.enter_function(fn)
    attrs = AttributeList(param_attrs=[AttributeSet([Attribute.enum("nonnull")])])
    verify_attribute_list(c, g.function_type, attrs, call, False, False)
    verify_attribute_list(c, g.function_type, attrs, call, False, False)
    assert [d.text for d in c.diagnostics] == ["Attribute 'nonnull' applied to incompatible type!\n  call void @g(i32 1)\n"] * 2
    clean = AttributeList(param_attrs=[AttributeSet([Attribute.enum("noundef")])])
    verify_attribute_list(c, g.function_type, clean, call, False, False)
    verify_attribute_list(c, g.function_type, clean, call, False, False)
    assert len(c.diagnostics) == 2


# --- the helpers in attribute_compat ----------------------------------------------------------------


def test_incompatible_kinds_by_type() -> None:
    ctx = Module().context
    assert AttrKind.NON_NULL in incompatible_kinds(ctx.i32)
    assert AttrKind.NON_NULL not in incompatible_kinds(ctx.pointer_type(0))
    assert AttrKind.ALIGNMENT not in incompatible_kinds(ctx.vector_type(ctx.pointer_type(0), 2, False))
    assert AttrKind.NO_UNDEF in incompatible_kinds(ctx.void)
    assert AttrKind.NO_UNDEF not in incompatible_kinds(ctx.i32)


def test_losslessly_bitcast() -> None:
    ctx = Module().context
    v2i32 = ctx.vector_type(ctx.i32, 2, False)
    v4i16 = ctx.vector_type(ctx.int_type(16), 4, False)
    assert can_losslessly_bitcast(v2i32, v4i16)
    assert not can_losslessly_bitcast(v2i32, ctx.int_type(64))
    assert not can_losslessly_bitcast(ctx.pointer_type(0), ctx.pointer_type(1))
    assert can_losslessly_bitcast(ctx.i32, ctx.i32)


def test_unsigned_and_triple_helpers() -> None:
    assert is_unsigned_int("0") and is_unsigned_int("4294967295") and is_unsigned_int("007")
    assert not is_unsigned_int("") and not is_unsigned_int("+1") and not is_unsigned_int("4294967296")
    assert not is_unsigned_int("1 ") and not is_unsigned_int("0x10")
    assert is_x86_triple("x86_64-unknown-linux-gnu") and is_x86_triple("i686-pc-windows-msvc")
    assert not is_x86_triple("aarch64-linux-gnu") and not is_x86_triple("")


VFABI_CASES = [
    ("_ZGVnN2v_foo", 1, True),
    ("_ZGVnN2v_foo(vfoo)", 1, True),
    ("_ZGVnN2v_foo", 2, False),
    ("_ZGVnN0v_foo", 1, False),
    ("_ZGVsMxv_foo", 1, True),
    ("_ZGVnMxv_foo", 1, False),
    ("_ZGV_LLVM_N2v_foo", 1, False),
    ("_ZGV_LLVM_N2v_foo(bar)", 1, True),
    ("_ZGVnN2v_foo()", 1, False),
    ("_ZGVnN2v_", 1, False),
    ("_ZGVnN2ls2Rs3Ln4Us1_foo", 4, True),
    ("_ZGVnN2ls2Rs3Ln4Us_foo", 4, False),
    ("_ZGVnN2ul2a8R_foo", 3, True),
    ("_ZGVnN2lsR_foo", 2, False),
    ("_ZGVnN2va0_foo", 1, False),
    ("_ZGVnN2va16_foo", 1, True),
    ("_ZGV", 1, False),
]


@pytest.mark.parametrize("name,nparams,valid", VFABI_CASES)
def test_vfabi_demangling(name: str, nparams: int, valid: bool) -> None:
    ctx = Module().context
    assert is_valid_vfabi_variant(name, (ctx.i32,) * nparams, ctx.i32) is valid
    if HAVE_OPT:
        text = 'declare i32 @f(%s) "vector-function-abi-variant"="%s"\n' % (", ".join(["i32"] * nparams), name)
        assert (opt_text(text) == "") is valid


# --- robustness: every kind, in every place, on every kind of type ------------------------------------


def _sample_attributes(m: Module) -> list[Attribute]:
    from llvmpy_mid.ir.attribute_kinds import ALL_KINDS, AttrForm, kind_form

    ctx = m.context
    out: list[Attribute] = [Attribute.string("no-jump-tables", "maybe"), Attribute.string("frame-pointer", "x")]
    for kind in ALL_KINDS:
        form = kind_form(kind)
        if form is AttrForm.ENUM:
            out.append(Attribute.enum(kind))
        elif form is AttrForm.TYPE:
            out.append(Attribute.type_attr(kind, ctx.i32))
            out.append(Attribute(kind))  # no type at all
        elif form is AttrForm.INT:
            out.extend(Attribute.int(kind, v) for v in (0, 3, 1 << 40, (1 << 64) - 1))
        elif form is AttrForm.CONSTANT_RANGE:
            out.append(Attribute.range(ctx.int_type(8), 0, 4))
            out.append(Attribute(kind))
        else:
            out.append(Attribute(kind, ranges=((4, 0),)))
    return out


def test_no_exception_for_any_attribute_anywhere() -> None:
    m = parse(
        "declare void @v(i32, ptr, float, <2 x ptr>, {i32}, x86_amx)\n"
        "declare ptr @p(i32, ptr)\n"
        "define void @d(ptr %a) {\n  call void @v(i32 0, ptr null, float 0.0, <2 x ptr> zeroinitializer, "
        "{i32} zeroinitializer, x86_amx undef)\n  ret void\n}\n"
    )
    samples = _sample_attributes(m)
    fns = [f for f in m.functions]
    for attr in samples:
        for fn in fns:
            base = fn.attributes
            variants = [base.with_fn_attr(attr), base.with_ret_attr(attr)]
            variants += [base.with_param_attr(i, attr) for i in range(len(fn.args))]
            for attrs in variants:
                fn.attributes = attrs
                for d in module_diagnostics(m):
                    assert d.message
            fn.attributes = base
