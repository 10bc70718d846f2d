"""Attribute rules for functions, parameters, return values and call sites.

What: LLVM 19's ``Verifier::verifyFunctionAttrs`` (:func:`verify_attribute_list`),
``verifyParameterAttrs`` (:func:`verify_parameter_attributes`) and
``verifyAttributeTypes``: where each attribute may appear (``Attribute 'X'
does not apply to parameters``...), which ones exclude each other (``byval``
/ ``inalloca`` / ``sret``..., ``noinline`` and ``alwaysinline``, ``optnone``
and ``optsize``...), which types each accepts (``Attribute 'nonnull'
applied to incompatible type!``), the one-per-function parameter attributes
(``nest``, ``returned``, ``sret``, ``swift*``), ``allocsize``, ``allockind``,
``vscale_range``, ``memory`` against ``writable``, and the values LLVM checks
in string attributes (``"frame-pointer"``, ``"patchable-function-entry"``,
the true/false ones, ``"vector-function-abi-variant"``...).

How: each function mirrors one LLVM routine and returns at that routine's
first failed ``Check`` (so, as in LLVM, a failure inside
:func:`verify_parameter_attributes` ends only that parameter's checks and
the caller goes on); the few checks LLVM reports without returning go on
too. Both the function rules and the call rules use these functions, with
the function or the call instruction as the value printed after a message.
A call site's attribute list found clean is remembered for the run, so
repeated calls with the same attributes cost one lookup.

What it does not do: the context-ownership checks (``Attribute list does
not match Module context!``: attribute values here belong to no context),
``Attribute 'X' should have an Argument`` (an attribute's form follows from
its kind here, so it cannot lack its argument), and the rules on the
function itself (``function_rules``) or on call sites (``call_rules``).
"""

from __future__ import annotations

from llvmpy_mid.ir.attribute_kinds import (
    AttrKind,
    can_use_as_fn_attr,
    format_fp_class,
    can_use_as_param_attr,
    can_use_as_ret_attr,
)
from llvmpy_mid.ir.attributes import Attribute, AttributeList, AttributeSet
from llvmpy_mid.ir.memory_effects import IRMemLocation, ModRefInfo
from llvmpy_mid.ir.types import FunctionType, Type, TypeID
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ir.verifier.attribute_compat import (
    can_losslessly_bitcast,
    incompatible_kinds,
    is_unsigned_int,
    is_valid_vfabi_variant,
    is_x86_triple,
    primitive_size_in_bits,
)
from llvmpy_mid.ir.verifier.checker import Checker

_NONE = AttrKind.NONE
_MAX_ALIGNMENT = 1 << 32
_HUGE_SIZE = 1 << 32

# The string attributes LLVM 19 declares as true/false-valued (``StrBoolAttr``).
_BOOL_STRING_ATTRS = frozenset(
    (
        "approx-func-fp-math",
        "less-precise-fpmad",
        "no-infs-fp-math",
        "no-inline-line-tables",
        "no-jump-tables",
        "no-nans-fp-math",
        "no-signed-zeros-fp-math",
        "profile-sample-accurate",
        "unsafe-fp-math",
        "use-sample-profile",
    )
)

# At most one parameter attribute of each group may be present; ``inreg`` counts
# with ``sret`` (the only attribute compatible with it).
_PASSING_GROUPS: tuple[tuple[AttrKind, ...], ...] = (
    (AttrKind.BY_VAL,),
    (AttrKind.IN_ALLOCA,),
    (AttrKind.PREALLOCATED,),
    (AttrKind.STRUCT_RET, AttrKind.IN_REG),
    (AttrKind.NEST,),
    (AttrKind.BY_REF,),
)

# Pairs of parameter attributes that exclude each other, in LLVM's order.
_PARAM_CONFLICTS: tuple[tuple[AttrKind, AttrKind, str], ...] = (
    (AttrKind.IN_ALLOCA, AttrKind.READ_ONLY, "Attributes 'inalloca and readonly' are incompatible!"),
    (AttrKind.STRUCT_RET, AttrKind.RETURNED, "Attributes 'sret and returned' are incompatible!"),
    (AttrKind.Z_EXT, AttrKind.S_EXT, "Attributes 'zeroext and signext' are incompatible!"),
    (AttrKind.READ_NONE, AttrKind.READ_ONLY, "Attributes 'readnone and readonly' are incompatible!"),
    (AttrKind.READ_NONE, AttrKind.WRITE_ONLY, "Attributes 'readnone and writeonly' are incompatible!"),
    (AttrKind.READ_ONLY, AttrKind.WRITE_ONLY, "Attributes 'readonly and writeonly' are incompatible!"),
    (AttrKind.NO_INLINE, AttrKind.ALWAYS_INLINE, "Attributes 'noinline and alwaysinline' are incompatible!"),
    (AttrKind.WRITABLE, AttrKind.READ_NONE, "Attributes writable and readnone are incompatible!"),
    (AttrKind.WRITABLE, AttrKind.READ_ONLY, "Attributes writable and readonly are incompatible!"),
)

# The pointer parameter attributes whose type must be sized and under 4 GiB.
_SIZED_TYPE_ATTRS: tuple[tuple[AttrKind, str], ...] = (
    (AttrKind.BY_VAL, "byval"),
    (AttrKind.BY_REF, "byref"),
    (AttrKind.IN_ALLOCA, "inalloca"),
    (AttrKind.PREALLOCATED, "preallocated"),
)

_ZA_STATES = ("aarch64_new_za", "aarch64_in_za", "aarch64_inout_za", "aarch64_out_za", "aarch64_preserves_za")
_ZT0_STATES = ("aarch64_new_zt0", "aarch64_in_zt0", "aarch64_inout_zt0", "aarch64_out_zt0", "aarch64_preserves_zt0")
_UNSIGNED_STRING_ATTRS = ("patchable-function-prefix", "patchable-function-entry", "warn-stack-size")
_BOOLISH_STRING_ATTRS = ("branch-target-enforcement", "branch-protection-pauth-lr", "guarded-control-stack")
_FRAME_POINTER_VALUES = frozenset(("all", "non-leaf", "none", "reserved"))

_ALLOC = 1
_REALLOC = 2
_FREE = 4
_UNINITIALIZED = 8
_ZEROED = 16
_ALIGNED = 32

_CLEAN_MEMO = "attribute_rules.clean"


def _alloc_size(c: Checker, ty: Type) -> int | None:
    """Bytes of ``ty`` under the module's data layout (the known minimum for
    scalable types), or None when there is no layout to ask."""
    fn = c.function
    module = c.module if c.module is not None else (fn.parent if fn is not None else None)
    if module is None:
        return None
    try:
        return module.data_layout.type_alloc_size(ty)
    except Exception:  # an unsized or odd type: the sized check reports it
        return None


def _spelling(attr: Attribute) -> str:
    """The attribute as LLVM's getAsString writes it, even for values the
    printer refuses (an attribute built through the API with an odd value)."""
    try:
        return attr.as_string()
    except Exception:
        if attr.kind is AttrKind.NO_FP_CLASS:
            mask = attr.int_value & 1023
            return "nofpclass(%s)" % (format_fp_class(mask) if mask else "none")
        return attr.kind_name


def _check_string_values(c: Checker, attrs: AttributeSet) -> None:
    """LLVM's ``verifyAttributeTypes``: the true/false string attributes."""
    for attr in attrs.string_attributes:
        if attr.key in _BOOL_STRING_ATTRS:
            value = attr.value
            if value and value != "true" and value != "false":
                c.fail("invalid value for '%s' attribute: %s" % (attr.key, value))


def verify_parameter_attributes(c: Checker, attrs: AttributeSet, ty: Type, where: Value) -> None:
    """LLVM's verifyParameterAttrs: one parameter's (or the return value's) attributes."""
    if not attrs:
        return
    _check_string_values(c, attrs)
    for attr in attrs:
        kind = attr.kind
        if kind is not _NONE and not can_use_as_param_attr(kind):
            c.fail("Attribute '%s' does not apply to parameters" % _spelling(attr), where)
            return
    has = attrs.has
    if has(AttrKind.IMM_ARG) and len(attrs) != 1:
        c.fail("Attribute 'immarg' is incompatible with other attributes", where)
        return
    count = 0
    for group in _PASSING_GROUPS:
        for kind in group:
            if has(kind):
                count += 1
                break
    if count > 1:
        c.fail(
            "Attributes 'byval', 'inalloca', 'preallocated', 'inreg', 'nest', 'byref', and 'sret' are incompatible!",
            where,
        )
        return
    for first, second, message in _PARAM_CONFLICTS:
        if has(first) and has(second):
            c.fail(message, where)
            return
    incompatible = incompatible_kinds(ty)
    for attr in attrs:
        if attr.kind in incompatible:
            c.fail("Attribute '%s' applied to incompatible type!" % _spelling(attr), where)
            return
    if ty.type_id is TypeID.POINTER:
        align = attrs.alignment
        if align is not None and align > _MAX_ALIGNMENT:
            c.fail("huge alignment values are unsupported", where)
            return
        for kind, name in _SIZED_TYPE_ATTRS:
            if not has(kind):
                continue
            pointee = attrs.type_attr(kind)
            if pointee is None or not pointee.is_sized:
                c.fail("Attribute '%s' does not support unsized types!" % name, where)
                return
            size = _alloc_size(c, pointee)
            if size is not None and size >= _HUGE_SIZE:
                c.fail("huge '%s' arguments are unsupported" % name, where)
                return
    if has(AttrKind.INITIALIZES):
        ranges = attrs.initializes
        if not ranges:
            c.fail("Attribute 'initializes' does not support empty list", where)
            return
        prev_hi: int | None = None
        for lo, hi in ranges:
            if lo >= hi or (prev_hi is not None and lo <= prev_hi):
                c.fail("Attribute 'initializes' does not support unordered ranges", where)
                return
            prev_hi = hi
    if has(AttrKind.NO_FP_CLASS):
        fp_attr = attrs.get(AttrKind.NO_FP_CLASS)
        mask = fp_attr.int_value if fp_attr is not None else 0
        if mask == 0:
            c.fail("Attribute 'nofpclass' must have at least one test bit set", where)
            return
        if mask & 0xFFFFFC00:  # LLVM masks with a 32-bit complement
            c.fail("Invalid value for 'nofpclass' test mask", where)
            return
    range_attr = attrs.get(AttrKind.RANGE)
    if range_attr is not None:
        range_ty = range_attr.type_value
        width = getattr(range_ty, "width", None)
        scalar = ty.scalar_type
        if not (scalar.type_id is TypeID.INTEGER and getattr(scalar, "width", None) == width):
            c.fail("Range bit width must match type bit width!", where)
            return


def _fixed_vector_bits(ty: Type) -> int:
    if ty.type_id is TypeID.FIXED_VECTOR:
        return primitive_size_in_bits(ty)[0]
    return 0


def verify_attribute_list(
    c: Checker, fn_type: FunctionType, attrs: AttributeList, where: Value, is_intrinsic: bool, is_inline_asm: bool
) -> None:
    """LLVM's verifyFunctionAttrs: the attribute list of a function or a call site."""
    if not attrs:
        return
    cacheable = not where.is_global_value
    if cacheable:
        clean = c.memo.get(_CLEAN_MEMO)
        if not isinstance(clean, set):
            clean = set()
            c.memo[_CLEAN_MEMO] = clean
        key = (fn_type, attrs, is_intrinsic, is_inline_asm)
        if key in clean:
            return
        before = len(c.diagnostics)
        _verify_attribute_list(c, fn_type, attrs, where, is_intrinsic, is_inline_asm)
        if len(c.diagnostics) == before:
            clean.add(key)
        return
    _verify_attribute_list(c, fn_type, attrs, where, is_intrinsic, is_inline_asm)


def _verify_attribute_list(
    c: Checker, fn_type: FunctionType, attrs: AttributeList, where: Value, is_intrinsic: bool, is_inline_asm: bool
) -> None:
    ret_attrs = attrs.ret_attrs
    for attr in ret_attrs:
        kind = attr.kind
        if kind is not _NONE and not can_use_as_ret_attr(kind):
            c.fail("Attribute '%s' does not apply to function return values" % _spelling(attr), where)
            return
    ret_ty = fn_type.return_type
    max_width = _fixed_vector_bits(ret_ty)
    verify_parameter_attributes(c, ret_attrs, ret_ty, where)
    if not _verify_params(c, fn_type, attrs, where, is_intrinsic, is_inline_asm):
        return
    fn_attrs = attrs.fn_attrs
    if not fn_attrs:
        return
    for ty in fn_type.params:
        width = _fixed_vector_bits(ty)
        if width > max_width:
            max_width = width
    _verify_fn_attrs(c, fn_type, attrs, fn_attrs, where, max_width)


def _verify_params(
    c: Checker, fn_type: FunctionType, attrs: AttributeList, where: Value, is_intrinsic: bool, is_inline_asm: bool
) -> bool:
    """The per-parameter part of verifyFunctionAttrs; False when a check ended it."""
    params = fn_type.params
    if attrs.num_params_with_attrs == 0:
        return True
    saw_nest = saw_returned = saw_sret = saw_swift_self = saw_swift_async = saw_swift_error = False
    last = len(params) - 1
    for i, ty in enumerate(params):
        arg_attrs = attrs.param_attrs(i)
        if not arg_attrs:
            continue
        has = arg_attrs.has
        if not is_intrinsic:
            if has(AttrKind.IMM_ARG):
                c.fail("immarg attribute only applies to intrinsics", where)
                return False
            if not is_inline_asm and has(AttrKind.ELEMENT_TYPE):
                c.fail("Attribute 'elementtype' can only be applied to intrinsics and inline asm.", where)
                return False
        verify_parameter_attributes(c, arg_attrs, ty, where)
        if has(AttrKind.NEST):
            if saw_nest:
                c.fail("More than one parameter has attribute nest!", where)
                return False
            saw_nest = True
        if has(AttrKind.RETURNED):
            if saw_returned:
                c.fail("More than one parameter has attribute returned!", where)
                return False
            if not can_losslessly_bitcast(ty, fn_type.return_type):
                c.fail("Incompatible argument and return types for 'returned' attribute", where)
                return False
            saw_returned = True
        if has(AttrKind.STRUCT_RET):
            if saw_sret:
                c.fail("Cannot have multiple 'sret' parameters!", where)
                return False
            if i > 1:
                c.fail("Attribute 'sret' is not on first or second parameter!", where)
                return False
            saw_sret = True
        if has(AttrKind.SWIFT_SELF):
            if saw_swift_self:
                c.fail("Cannot have multiple 'swiftself' parameters!", where)
                return False
            saw_swift_self = True
        if has(AttrKind.SWIFT_ASYNC):
            if saw_swift_async:
                c.fail("Cannot have multiple 'swiftasync' parameters!", where)
                return False
            saw_swift_async = True
        if has(AttrKind.SWIFT_ERROR):
            if saw_swift_error:
                c.fail("Cannot have multiple 'swifterror' parameters!", where)
                return False
            saw_swift_error = True
        if has(AttrKind.IN_ALLOCA) and i != last:
            c.fail("inalloca isn't on the last parameter!", where)
            return False
    return True


# Function attribute pairs LLVM refuses together, in the order it checks them
# (after "optnone requires noinline").
_EXCLUSIVE_FN_ATTRS: tuple[tuple[AttrKind, AttrKind, str], ...] = (
    (AttrKind.OPTIMIZE_NONE, AttrKind.OPTIMIZE_FOR_SIZE, "Attributes 'optsize and optnone' are incompatible!"),
    (AttrKind.OPTIMIZE_NONE, AttrKind.MIN_SIZE, "Attributes 'minsize and optnone' are incompatible!"),
    (AttrKind.OPTIMIZE_NONE, AttrKind.OPTIMIZE_FOR_DEBUGGING, "Attributes 'optdebug and optnone' are incompatible!"),
    (AttrKind.OPTIMIZE_FOR_DEBUGGING, AttrKind.OPTIMIZE_FOR_SIZE, "Attributes 'optsize and optdebug' are incompatible!"),
    (AttrKind.OPTIMIZE_FOR_DEBUGGING, AttrKind.MIN_SIZE, "Attributes 'minsize and optdebug' are incompatible!"),
)


def _verify_fn_attrs(
    c: Checker, fn_type: FunctionType, attrs: AttributeList, fn_attrs: AttributeSet, where: Value, max_width: int
) -> None:
    """The function-attribute part of verifyFunctionAttrs."""
    _check_string_values(c, fn_attrs)
    for attr in fn_attrs:
        kind = attr.kind
        if kind is not _NONE and not can_use_as_fn_attr(kind):
            c.fail("Attribute '%s' does not apply to functions!" % _spelling(attr), where)
            return
    has = fn_attrs.has
    if has(AttrKind.NO_INLINE) and has(AttrKind.ALWAYS_INLINE):
        c.fail("Attributes 'noinline and alwaysinline' are incompatible!", where)
        return
    if has(AttrKind.OPTIMIZE_NONE) and not has(AttrKind.NO_INLINE):
        c.fail("Attribute 'optnone' requires 'noinline'!", where)
        return
    for first, second, message in _EXCLUSIVE_FN_ATTRS:
        if has(first) and has(second):
            c.fail(message, where)
            return
    if attrs.has_attr_somewhere(AttrKind.WRITABLE):
        if not fn_attrs.memory_effects.get_mod_ref(IRMemLocation.ARG_MEM) & ModRefInfo.MOD:
            c.fail("Attribute writable and memory without argmem: write are incompatible!", where)
            return
    has_string = fn_attrs.has_string
    for keys, message in _EXCLUSIVE_STRING_ATTRS:
        if sum(1 for key in keys if has_string(key)) > 1:
            c.fail(message, where)
            return
    if has(AttrKind.JUMP_TABLE) and where.is_global_value:
        if not where.has_global_unnamed_addr:  # type: ignore[attr-defined]
            c.fail("Attribute 'jumptable' requires 'unnamed_addr'", where)
            return
    size_attr = fn_attrs.get(AttrKind.ALLOC_SIZE)
    if size_attr is not None:
        elem_arg, num_arg = size_attr.alloc_size_args
        if not _check_alloc_size_param(c, fn_type, "element size", elem_arg, where):
            return
        if num_arg is not None and not _check_alloc_size_param(
            c, fn_type, "number of elements", num_arg, where
        ):
            return
    if has(AttrKind.ALLOC_KIND):
        _check_alloc_kind(c, fn_attrs.alloc_kind)
    vscale_attr = fn_attrs.get(AttrKind.VSCALE_RANGE)
    if vscale_attr is not None:
        _check_vscale_range(c, vscale_attr, where)
    value = fn_attrs.string_value("frame-pointer")
    if value is not None and value not in _FRAME_POINTER_VALUES:
        c.fail("invalid value for 'frame-pointer' attribute: " + value, where)
    if max_width >= 512:
        features = fn_attrs.string_value("target-features")
        if features is not None and "+avx512f" in features and "-evex512" in features and _is_x86(c):
            c.fail("512-bit vector arguments require 'evex512' for AVX512", where)
            return
    for key in _UNSIGNED_STRING_ATTRS:
        value = fn_attrs.string_value(key)
        if value is not None and not is_unsigned_int(value):
            c.fail('"%s" takes an unsigned integer: %s' % (key, value), where)
    _check_branch_protection(c, fn_attrs, where)
    value = fn_attrs.string_value("vector-function-abi-variant")
    if value is not None and not is_valid_vfabi_variant(value, fn_type.params, fn_type.return_type):
        c.fail("invalid name for a VFABI variant: " + value, where)


def _is_x86(c: Checker) -> bool:
    fn = c.function
    module = c.module if c.module is not None else (fn.parent if fn is not None else None)
    return module is not None and is_x86_triple(module.target_triple)


def _check_alloc_size_param(c: Checker, fn_type: FunctionType, what: str, arg_no: int, where: Value) -> bool:
    params = fn_type.params
    if arg_no >= len(params):
        c.fail("'allocsize' %s argument is out of bounds" % what, where)
        return False
    if params[arg_no].type_id is not TypeID.INTEGER:
        c.fail("'allocsize' %s argument must refer to an integer parameter" % what, where)
        return False
    return True


def _check_alloc_kind(c: Checker, kind: int) -> None:
    """``allockind``: LLVM reports these without returning and without a value."""
    family = kind & (_ALLOC | _REALLOC | _FREE)
    if family not in (_ALLOC, _REALLOC, _FREE):
        c.fail("'allockind()' requires exactly one of alloc, realloc, and free")
    if family == _FREE and kind & (_UNINITIALIZED | _ZEROED | _ALIGNED):
        c.fail("'allockind(\"free\")' doesn't allow uninitialized, zeroed, or aligned modifiers.")
    if kind & (_UNINITIALIZED | _ZEROED) == _UNINITIALIZED | _ZEROED:
        c.fail("'allockind()' can't be both zeroed and uninitialized")


#: String attributes of which a function may carry at most one, with LLVM's message, in its order.
_EXCLUSIVE_STRING_ATTRS: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("aarch64_pstate_sm_enabled", "aarch64_pstate_sm_compatible"),
        "Attributes 'aarch64_pstate_sm_enabled and aarch64_pstate_sm_compatible' are incompatible!",
    ),
    (
        _ZA_STATES,
        "Attributes 'aarch64_new_za', 'aarch64_in_za', 'aarch64_out_za', 'aarch64_inout_za' and "
        "'aarch64_preserves_za' are mutually exclusive",
    ),
    (
        _ZT0_STATES,
        "Attributes 'aarch64_new_zt0', 'aarch64_in_zt0', 'aarch64_out_zt0', 'aarch64_inout_zt0' and "
        "'aarch64_preserves_zt0' are mutually exclusive",
    ),
)


def _is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


def _check_vscale_range(c: Checker, attr: Attribute, where: Value) -> None:
    vmin, vmax = attr.vscale_range_args
    if vmin == 0:
        c.fail("'vscale_range' minimum must be greater than 0", where)
    elif not _is_power_of_two(vmin):
        c.fail("'vscale_range' minimum must be power-of-two value", where)
    if vmax and vmin > vmax:
        c.fail("'vscale_range' minimum cannot be greater than maximum", where)
    elif vmax and not _is_power_of_two(vmax):
        c.fail("'vscale_range' maximum must be power-of-two value", where)


def _check_branch_protection(c: Checker, fn_attrs: AttributeSet, where: Value) -> None:
    """The AArch64 return-address signing and branch-protection string attributes."""
    sign = fn_attrs.string_value("sign-return-address")
    if sign is not None and sign not in ("none", "all", "non-leaf"):
        c.fail("invalid value for 'sign-return-address' attribute: " + sign, where)
    key = fn_attrs.string_value("sign-return-address-key")
    if key is not None:
        if key != "a_key" and key != "b_key":
            c.fail("invalid value for 'sign-return-address-key' attribute: " + key, where)
        if sign is None:
            c.fail("'sign-return-address-key' present without `sign-return-address`")
    for name in _BOOLISH_STRING_ATTRS:
        value = fn_attrs.string_value(name)
        if value is not None and value != "" and value != "true" and value != "false":
            c.fail("invalid value for '%s' attribute: %s" % (name, value), where)


__all__ = ["verify_attribute_list", "verify_parameter_attributes"]
