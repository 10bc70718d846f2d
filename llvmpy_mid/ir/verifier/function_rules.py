"""Rules on a function itself (LLVM ``Verifier::visitFunction``): signature, arguments, linkage, intrinsic definitions.

What: everything LLVM 19's visitFunction checks apart from the shared
global-value rules (``module_rules``) and the metadata attachments and debug
info (``metadata_rules``): the function's context and linkage, that its
arguments agree with its type, the attribute list (through
``attribute_rules``), ``builtin``/``elementtype`` only on call sites, the
calling-convention restrictions (void returns, no ``sret``/``byval``/varargs
where a convention forbids them), metadata/token/x86_amx types only on
intrinsics, the uses of a ``swifterror`` argument, the personality
function, that intrinsics are never defined and never have their address
taken, the entry block (no predecessors, no used ``blockaddress``), and the
signatures of ``llvm.experimental.gc.get.pointer.base``/``.offset``.

How: :func:`verify_function` runs the checks in LLVM's order and returns at
the first one that fails (LLVM's ``Check`` returns from visitFunction), but
the attribute-list rules and the ``swifterror`` rule report and return on
their own, as LLVM's helper routines do. When visitFunction itself stopped,
``c.memo[STOPPED_MEMO]`` holds ``(function, stage)``: LLVM never reached the
metadata and debug-info checks that follow the failed one in the same
visitor, and ``stage`` tells ``metadata_rules`` which of them to skip. A ``swifterror``
argument's uses are checked by ``memory_rules.check_swifterror_value``.

What it does not do: the checks LLVM interleaves with these that belong to
``metadata_rules`` (``!prof``/``!kcfi_type``/``!dbg`` attachments) run
after all of these, and ``Function debug format should match parent
module`` has no counterpart here (the IR has one debug-info format).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import is_constant_used
from llvmpy_mid.ir import calling_conv as cc
from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.constants import BlockAddress
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Linkage
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.types import TypeID
from llvmpy_mid.ir.value import Use, User, Value
from llvmpy_mid.ir.verifier.attribute_rules import verify_attribute_list
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.memory_rules import check_swifterror_value

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.instructions.calls import CallBase
    from llvmpy_mid.ir.module import Module

STOPPED_MEMO = "function_rules.stopped"
"""``c.memo`` key: ``(function, stage)`` for the last function whose
visitFunction checks stopped early; ``stage`` says which of the metadata
checks that LLVM interleaves with these it had run by then."""
STOPPED_BEFORE_METADATA = 0
"""LLVM ran none of the function's metadata or debug-info checks."""
STOPPED_AFTER_FUNCTION_METADATA = 1
"""LLVM ran only verifyFunctionMetadata (the ``!prof``/``!kcfi_type`` operands); a
declaration's attachment checks also ran when the failure was about its personality."""
STOPPED_BEFORE_DEBUG_INFO = 2
"""LLVM ran every attachment check; only the subprogram/debug-location part was skipped."""

# Calling conventions with restrictions (LLVM CallingConv ids).
_X86_INTR = 83
_SPIR_KERNEL = 76
_VOID_RETURN_CCS = frozenset((91, _SPIR_KERNEL, 104, 105))  # amdgpu_kernel, spir_kernel, amdgpu_cs_chain(_preserve)
_AMDGPU_SHADER_CCS = frozenset((87, 93, 88, 89, 90))  # amdgpu_vs, _hs, _gs, _ps, _cs
_NO_VARARG_CCS = frozenset((cc.FAST, cc.COLD, 77, 71, 72))  # fast, cold, intel_ocl_bi, ptx_kernel, ptx_device

# Intrinsics whose calls do not count as taking a function's address (LLVM isAssumeLikeIntrinsic).
_ASSUME_LIKE = frozenset(
    (
        "llvm.assume",
        "llvm.sideeffect",
        "llvm.pseudoprobe",
        "llvm.dbg.assign",
        "llvm.dbg.declare",
        "llvm.dbg.value",
        "llvm.dbg.label",
        "llvm.invariant.start",
        "llvm.invariant.end",
        "llvm.lifetime.start",
        "llvm.lifetime.end",
        "llvm.experimental.noalias.scope.decl",
        "llvm.objectsize",
        "llvm.ptr.annotation",
        "llvm.var.annotation",
    )
)

_GC_POINTER_BASE = "llvm.experimental.gc.get.pointer.base"
_GC_POINTER_OFFSET = "llvm.experimental.gc.get.pointer.offset"


def _module_of(c: Checker, fn: Function) -> Module | None:
    return fn.parent if fn.parent is not None else c.module


def verify_function(c: Checker, fn: Function) -> None:
    """Check ``fn`` as LLVM's visitFunction does (before its blocks are visited)."""
    if not _verify_signature(c, fn):
        c.memo[STOPPED_MEMO] = (fn, STOPPED_BEFORE_METADATA)
    elif not _verify_personality_and_body(c, fn):
        c.memo[STOPPED_MEMO] = (fn, STOPPED_AFTER_FUNCTION_METADATA)
    elif fn.intrinsic_id and not _verify_intrinsic_uses(c, fn):
        c.memo[STOPPED_MEMO] = (fn, STOPPED_BEFORE_DEBUG_INFO)


def _stop(c: Checker, message: str, *items: Value | str | None) -> bool:
    c.fail(message, *items)
    return False


def _verify_signature(c: Checker, fn: Function) -> bool:
    """visitFunction up to the metadata: context, linkage, type, attributes, calling
    convention and arguments; False when a check failed (visitFunction returned)."""
    fn_type = fn.function_type
    params = fn_type.params
    ret_ty = fn_type.return_type
    module = c.module
    if module is not None and fn.type.context is not module.context:
        return _stop(c, "Function context does not match Module context!", fn)
    if fn.linkage is Linkage.COMMON:
        return _stop(c, "Functions may not have common linkage", fn)
    if len(fn.args) != len(params):
        c.fail("# formal arguments must match # of arguments for function type!", fn, fn_type)
        return False
    if ret_ty.type_id is TypeID.FUNCTION:
        return _stop(c, "Functions cannot return aggregate values!", fn)
    attrs = fn.attributes
    has_sret = attrs.has_param_attr(0, AttrKind.STRUCT_RET) or attrs.has_param_attr(1, AttrKind.STRUCT_RET)
    if has_sret and ret_ty.type_id is not TypeID.VOID:
        return _stop(c, "Invalid struct return type!", fn)
    if attrs.num_attr_sets > len(params) + 2:
        return _stop(c, "Attribute after last parameter!", fn)
    is_intrinsic = fn.intrinsic_id
    verify_attribute_list(c, fn_type, attrs, fn, is_intrinsic, False)
    if attrs.has_fn_attr(AttrKind.BUILTIN):
        return _stop(c, "Attribute 'builtin' can only be applied to a callsite.", fn)
    if attrs.has_attr_somewhere(AttrKind.ELEMENT_TYPE):
        return _stop(c, "Attribute 'elementtype' can only be applied to a callsite.", fn)
    if not _verify_calling_conv(c, fn, has_sret):
        return False
    if not _verify_arguments(c, fn, is_intrinsic):
        return False
    if not is_intrinsic:
        if ret_ty.type_id is TypeID.TOKEN:
            return _stop(c, "Function returns a token but isn't an intrinsic", fn)
        if ret_ty.type_id is TypeID.X86_AMX:
            return _stop(c, "Function returns a x86_amx but isn't an intrinsic", fn)
    return True


def _verify_personality_and_body(c: Checker, fn: Function) -> bool:
    """The personality function, then a declaration's or a definition's own rules."""
    personality = fn.personality
    if personality is not None:
        target = strip_pointer_casts(personality)
        if isinstance(target, Function) and target.parent is not fn.parent:
            return _stop(
                c,
                "Referencing personality function in another module!",
                fn,
                _module_id(fn.parent),
                target,
                _module_id(target.parent),
            )
    if fn.is_declaration:
        if personality is not None:
            return _stop(c, "Function declaration shouldn't have a personality routine", fn)
        return True
    if fn.intrinsic_id:
        return _stop(c, "llvm intrinsics cannot be defined!", fn)
    return _verify_entry_block(c, fn.entry_block)


def _verify_intrinsic_uses(c: Checker, fn: Function) -> bool:
    """An intrinsic is only called directly, and two intrinsics have fixed signatures."""
    offender = _address_taker(fn)
    if offender is not None:
        return _stop(c, "Invalid user of intrinsic instruction!", offender)
    return _verify_intrinsic_signature(c, fn)


def _module_id(module: Module | None) -> str | None:
    """A module as LLVM's Verifier::Write prints it."""
    if module is None:
        return None
    return "; ModuleID = '%s'" % module.name


def _verify_calling_conv(c: Checker, fn: Function, has_sret: bool) -> bool:
    """The restrictions of the conventions LLVM checks (the switch in visitFunction)."""
    conv = fn.calling_conv
    attrs = fn.attributes
    if conv == _X86_INTR:
        if fn.args and not attrs.has_param_attr(0, AttrKind.BY_VAL):
            return _stop(c, "Calling convention parameter requires byval", fn)
        return True
    void_ret = conv in _VOID_RETURN_CCS
    shader = void_ret or conv in _AMDGPU_SHADER_CCS
    if void_ret and fn.return_type.type_id is not TypeID.VOID:
        return _stop(c, "Calling convention requires void return type", fn)
    if shader:
        if has_sret:
            return _stop(c, "Calling convention does not allow sret", fn)
        if conv != _SPIR_KERNEL:
            module = _module_of(c, fn)
            stack_as = module.data_layout.alloca_addr_space if module is not None else 0
            for i, arg in enumerate(fn.args):
                arg_attrs = attrs.param_attrs(i)
                if not arg_attrs:
                    continue
                if arg_attrs.has(AttrKind.BY_VAL):
                    return _stop(c, "Calling convention disallows byval", fn)
                if arg_attrs.has(AttrKind.PREALLOCATED):
                    return _stop(c, "Calling convention disallows preallocated", fn)
                if arg_attrs.has(AttrKind.IN_ALLOCA):
                    return _stop(c, "Calling convention disallows inalloca", fn)
                if arg_attrs.has(AttrKind.BY_REF) and getattr(arg.type, "address_space", None) == stack_as:
                    return _stop(c, "Calling convention disallows stack byref", fn)
    if (shader or conv in _NO_VARARG_CCS) and fn.is_vararg:
        return _stop(c, "Calling convention does not support varargs or perfect forwarding!", fn)
    return True


def _verify_arguments(c: Checker, fn: Function, is_intrinsic: bool) -> bool:
    params = fn.function_type.params
    attrs = fn.attributes
    for i, arg in enumerate(fn.args):
        ty = arg.type
        if ty is not params[i]:
            c.fail("Argument value does not match function argument type!", arg, params[i])
            return False
        tid = ty.type_id
        if tid is TypeID.VOID or tid is TypeID.FUNCTION:
            return _stop(c, "Function arguments must have first-class types!", arg)
        if not is_intrinsic:
            if tid is TypeID.METADATA:
                return _stop(c, "Function takes metadata but isn't an intrinsic", arg, fn)
            if tid is TypeID.TOKEN:
                return _stop(c, "Function takes token but isn't an intrinsic", arg, fn)
            if tid is TypeID.X86_AMX:
                return _stop(c, "Function takes x86_amx but isn't an intrinsic", arg, fn)
        if attrs.has_param_attr(i, AttrKind.SWIFT_ERROR):
            check_swifterror_value(c, arg)
    return True


def _verify_entry_block(c: Checker, entry: BasicBlock) -> bool:
    """No branch to the entry block, and no ``blockaddress`` of it in use."""
    address_taken: list[BlockAddress] = []
    use = entry._use_head
    while use is not None:
        user = use.user
        if user.is_instruction and getattr(user, "is_terminator_class", False):
            if getattr(user, "parent", None) is not None:
                return _stop(c, "Entry block to function must not have predecessors!", entry)
        elif isinstance(user, BlockAddress):
            address_taken.append(user)
        use = use._next
    for ba in address_taken:
        if is_constant_used(ba):
            return _stop(c, "blockaddress may not be used with the entry block!", entry)
    return True


def _address_taker(fn: Function) -> User | None:
    """The first user (in use order) that takes the intrinsic's address, as
    LLVM's ``hasAddressTaken`` with assume-like calls and ARC-attached-call
    bundles ignored; None when every use is a direct call of the intrinsic's own type."""
    for use in fn.uses:
        user = use.user
        if isinstance(user, BlockAddress):
            continue
        if not getattr(user, "is_call_base", False):
            if getattr(user, "opcode", None) in ("bitcast", "addrspacecast") and all(
                _is_assume_like_call(u) for u in user.users
            ):
                continue
            return user
        call: CallBase = user  # type: ignore[assignment]
        if _is_assume_like_call(call):
            continue
        if use is not call.called_operand_use or call.function_type is not fn.function_type:
            if _in_bundle(call, use, "clang.arc.attachedcall"):
                continue
            return call
    return None


def _is_assume_like_call(user: Value) -> bool:
    if getattr(user, "opcode", None) != "call":
        return False
    name: str = user.intrinsic_name  # type: ignore[attr-defined]
    return bool(name) and lookup_intrinsic(name) in _ASSUME_LIKE


def _in_bundle(call: CallBase, use: Use, tag: str) -> bool:
    index = use.index
    for bundle_tag, begin, end in call.operand_bundle_ranges:
        if begin <= index < end:
            return bundle_tag == tag
    return False


def _verify_intrinsic_signature(c: Checker, fn: Function) -> bool:
    """The two intrinsics whose declarations visitFunction checks."""
    name = lookup_intrinsic(fn.name)
    if name != _GC_POINTER_BASE and name != _GC_POINTER_OFFSET:
        return True
    params = fn.function_type.params
    ret_ty = fn.return_type
    if len(params) != 1:
        return _stop(c, "wrong number of parameters", fn)
    if name == _GC_POINTER_BASE:
        if ret_ty.type_id is not TypeID.POINTER:
            return _stop(c, "gc.get.pointer.base must return a pointer", fn)
        if params[0] is not ret_ty:
            return _stop(c, "gc.get.pointer.base operand and result must be of the same type", fn)
        return True
    if params[0].type_id is not TypeID.POINTER:
        return _stop(c, "gc.get.pointer.offset operand must be a pointer", fn)
    if ret_ty.type_id is not TypeID.INTEGER:
        return _stop(c, "gc.get.pointer.offset must return integer", fn)
    return True


__all__ = [
    "STOPPED_AFTER_FUNCTION_METADATA",
    "STOPPED_BEFORE_DEBUG_INFO",
    "STOPPED_BEFORE_METADATA",
    "STOPPED_MEMO",
    "verify_function",
]
