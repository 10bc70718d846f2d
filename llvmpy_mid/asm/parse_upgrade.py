"""The upgrades LLVM 19's parser applies to a module once it is read.

What: after the last token, LLVM's ``LLParser::validateEndOfModule`` runs
the auto-upgrader, which changes what ``opt-19 -S`` prints; this module
reproduces the parts that real inputs meet:

* every intrinsic declaration gets LLVM's intrinsic attributes
  (:func:`llvmpy_mid.ir.intrinsics.intrinsic_attributes`), replacing the
  attributes written in the text;
* intrinsics named with the old typed-pointer mangling
  (``llvm.memcpy.p0i8.p0i8.i64``), intrinsics that became overloaded
  (``llvm.stacksave``) and any described intrinsic whose name's manglings do not
  match its declared types (``declare i16 @llvm.umax.i32(i16, i16)``) are renamed: a declaration with the new name is made
  at the end of the module, the calls move to it, the old one is erased;
* calls of ``llvm.dbg.value``/``declare``/``assign``/``label``/``addr`` become
  debug records (``#dbg_value`` ...) before the following instruction, and
  those declarations are erased (``llvm.dbg.addr`` becomes ``#dbg_value``
  with ``DW_OP_deref`` appended);
* ``PIC Level`` module flags with behaviour Error or Max become Min, ``PIE Level``
  flags with behaviour Error become Max;
* a module whose "Debug Info Version" flag is not 3 loses its debug info
  (``!dbg`` attachments, debug records, ``llvm.dbg.*`` named metadata,
  debug locations inside ``!llvm.loop`` nodes), as LLVM's
  ``StripDebugInfo`` does.

Not done here: the upgrades of long-gone IR forms (old TBAA tags,
ObjC and other target module flags, per-target intrinsic rewrites).
``*.with.overflow`` intrinsics declared with an identified or packed struct return
get the literal struct, their calls rebuilt (see ``_retype_intrinsic``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from llvmpy_mid.ir.attribute_list import AttributeList
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.constants import ConstantInt, ConstantPointerNull, ConstantTokenNone, PoisonValue
from llvmpy_mid.ir.debug_info import DIExpression
from llvmpy_mid.ir.debug_info_strip import strip_debug_info
from llvmpy_mid.ir.debug_records import DbgLabelRecord, DbgRecord, DbgRecordKind, DbgVariableRecord
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Linkage
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.vector import ExtractValueInst, InsertValueInst
from llvmpy_mid.ir.intrinsics import intrinsic_attributes, lookup_intrinsic
from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode, MDString, MDTuple, Metadata, MetadataAsValue
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.module_flags import MODULE_FLAGS, ModuleFlagBehavior, get_module_flag_int
from llvmpy_mid.ir.type_mangling import intrinsic_name, mangle_type
from llvmpy_mid.ir.types import FunctionType, StructType, Type
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction

DEBUG_METADATA_VERSION = 3

_DBG_INTRINSICS = frozenset(("llvm.dbg.value", "llvm.dbg.declare", "llvm.dbg.assign", "llvm.dbg.label", "llvm.dbg.addr"))
# Typed-pointer manglings inside an intrinsic name: ``p0i8``, ``p1f32``, ``p0s_struct.Ss``...
_OLD_POINTER = re.compile(r"\.p(\d+)(?:i\d+|f\d+|s_[^.]*|sl_[^.]*|a\d+[^.]*|v\d+[^.]*|f_[^.]*|p\d+[^.]*|isVoid[^.]*)")
# Where the overloaded types of common intrinsics come from, in mangling order:
# "r" is the return type, a number a parameter. LLVM renames a declaration whose
# name does not carry exactly these manglings (old typed-pointer names such as
# ``llvm.memcpy.p0i8.p0i8.i64``, or names from before the intrinsic was
# overloaded, such as ``llvm.stacksave``).
_MANGLED_OPERANDS: dict[str, tuple[str | int, ...]] = {
    "llvm.stacksave": ("r",),
    "llvm.stackrestore": (0,),
    "llvm.va_start": (0,),
    "llvm.va_end": (0,),
    "llvm.va_copy": (0,),
    "llvm.lifetime.start": (1,),
    "llvm.lifetime.end": (1,),
    "llvm.invariant.start": (1,),
    "llvm.invariant.end": (2,),
    "llvm.launder.invariant.group": ("r",),
    "llvm.strip.invariant.group": ("r",),
    "llvm.memcpy": (0, 1, 2),
    "llvm.memcpy.inline": (0, 1, 2),
    "llvm.memmove": (0, 1, 2),
    "llvm.memset": (0, 2),
    "llvm.memset.inline": (0, 2),
    "llvm.objectsize": ("r", 0),
    "llvm.prefetch": (0,),
    "llvm.ptrmask": ("r", 1),
    "llvm.threadlocal.address": ("r",),
}


def upgrade_module(
    module: Module, saw_debug_info: bool = True, check_debug_info: Callable[[Module], None] | None = None
) -> None:
    """Apply LLVM 19's read-time upgrades to ``module`` (see the module docstring).
    ``saw_debug_info`` false promises that the module holds no debug info
    (no ``!dbg``, records or ``llvm.dbg.*`` named metadata), which spares the
    walk over every instruction that stripping needs. ``check_debug_info`` is called on a
    module of the current debug-info version before its debug intrinsic calls become
    records, as LLVM's reader verifies it (``UpgradeDebugInfo``)."""
    deferred: list[Function] = []
    for fn in list(module.functions):
        name = fn.name
        if not name.startswith("llvm."):
            continue
        if name in _DBG_INTRINSICS:
            if check_debug_info is None:
                _upgrade_debug_intrinsic(module, fn)
            else:  # still calls when the reader checks the module
                old_form = name == "llvm.dbg.addr" or (name == "llvm.dbg.value" and len(fn.function_type.params) == 4)
                deferred.append(_upgrade_old_dbg_value(module, fn) if old_form else fn)
            saw_debug_info = True
            continue
        if name == "llvm.stackprotectorcheck":
            # Gone from LLVM: its calls are dropped, then the declaration.
            for use in fn.use_list():
                call = use.user
                if isinstance(call, CallInst) and call.parent is not None and use is call.called_operand_use:
                    call.erase_from_parent()
            if not fn.has_uses:
                fn.erase_from_parent()
            continue
        literal = _literal_struct_return(fn)
        upgraded = _new_argument_form(fn)
        wasm = _wasm_relaxed_name(fn) if name.startswith("llvm.wasm.") else None
        if wasm is not None:
            fn = _rename_intrinsic(module, fn, wasm)
        elif upgraded is not None:
            fn = _upgrade_argument_form(module, fn, *upgraded)
        elif name == "llvm.coro.end" and len(fn.function_type.params) == 2:
            fn = _upgrade_coro_end(module, fn)
        elif literal is not None:
            # As LLVM: the literal struct first, then the new declaration's own remangling.
            fn = _retype_intrinsic(module, fn, literal)
            new_name = _remangled_name(fn)
            if new_name is not None and new_name != fn.name:
                fn = _rename_intrinsic(module, fn, new_name)
        else:
            new_name = _remangled_name(fn)
            if new_name is not None and new_name != name:
                fn = _rename_intrinsic(module, fn, new_name)
        attrs = intrinsic_attributes(fn.name)
        if attrs is not None:
            fn.attributes = attrs
    version = get_module_flag_int(module, "Debug Info Version") or 0
    if version == DEBUG_METADATA_VERSION:
        if check_debug_info is not None:
            check_debug_info(module)
    elif saw_debug_info:
        strip_debug_info(module)
    _upgrade_module_flags(module)
    for fn in dict.fromkeys(deferred):
        _upgrade_debug_intrinsic(module, fn)


#: Module-flag behaviours LLVM 19 rewrites on read: key -> {old behaviour: new behaviour}.
_FLAG_BEHAVIOR_UPGRADES: dict[str, dict[int, int]] = {
    "PIC Level": {ModuleFlagBehavior.ERROR: ModuleFlagBehavior.MIN, ModuleFlagBehavior.MAX: ModuleFlagBehavior.MIN},
    "PIE Level": {ModuleFlagBehavior.ERROR: ModuleFlagBehavior.MAX},
}


def _upgrade_module_flags(module: Module) -> None:
    """``PIC Level`` flags become ``Min`` and ``PIE Level`` ``Error`` flags ``Max`` (checked
    against opt-19 for each behaviour)."""
    named = module.named_metadata.get(MODULE_FLAGS)
    if named is None:
        return
    for index, node in enumerate(named.operands):
        ops = node.operands
        if len(ops) != 3 or not isinstance(ops[1], MDString):
            continue
        table = _FLAG_BEHAVIOR_UPGRADES.get(ops[1].string)
        behavior = ops[0]
        if table is None or not isinstance(behavior, ConstantAsMetadata):
            continue
        const = behavior.value
        if not isinstance(const, ConstantInt) or const.value not in table:
            continue
        new = ConstantAsMetadata.get(ConstantInt.get(const.type, table[const.value]))
        named.set_operand(index, MDTuple.get(node.context, [new, ops[1], ops[2]]))


# --- old scalar TBAA tags ---------------------------------------------------------------------------


def upgrade_tbaa_tags(insts: list[Instruction]) -> None:
    """Rewrite old scalar ``!tbaa`` tags into struct-path access tags, as LLVM's
    reader does: a tag whose first operand is a node and that has at least three
    operands is already a struct-path tag; an old tag ``!{!"name", !parent}``
    becomes ``!{T, T, i64 0}`` with ``T`` the old node itself, and an old tag with
    a third (constant) operand ``!{!"name", !parent, i64 1}`` becomes
    ``!{T', T', i64 0, i64 1}`` with ``T' = !{!"name", !parent}``."""
    for inst in insts:
        md = inst._md
        node = md.get(1) if md is not None else None
        if node is None:
            continue
        new = _upgraded_tbaa_node(node)
        if new is not node:
            inst.set_metadata("tbaa", new)


def _upgraded_tbaa_node(node: MDNode) -> MDNode:
    ops = node.operands
    if not ops or (ops[0] is not None and ops[0].is_md_node and len(ops) >= 3):
        return node  # empty (left for the verifier to report), or already a struct-path tag
    ctx = node.context
    zero = ConstantAsMetadata.get(ConstantInt.get(ctx.i64, 0))
    if len(ops) == 3:
        scalar = MDTuple.get(ctx, ops[:2])
        return MDTuple.get(ctx, (scalar, scalar, zero, ops[2]))
    return MDTuple.get(ctx, (node, node, zero))


# --- implicit declarations -------------------------------------------------------------------------


def implicit_intrinsic_declaration(module: Module, name: str, fty: FunctionType, address_space: int) -> Function | None:
    """The declaration LLVM 19's reader makes for a call of the undeclared intrinsic ``name``
    with type ``fty`` (``Intrinsic::getDeclaration`` with the overloaded types of the call):
    the name is mangled from the call's types, an existing function of that name is reused.
    None when the call's type does not fit the intrinsic ("invalid intrinsic signature")."""
    from llvmpy_mid.ir.verifier.intrinsic_signatures import (
        MATCH,
        intrinsic_base,
        match_signature,
        vararg_mismatch,
    )

    found = intrinsic_base(name)
    wanted: str | None = name
    sig = found[1] if found is not None else None
    if found is not None and sig is not None:
        base = found[0]
        result, overloads = match_signature(sig, fty)
        if result != MATCH or vararg_mismatch(sig, fty):
            return None
        wanted = intrinsic_name(base, overloads)
    elif found is not None and lookup_intrinsic(found[0]) == found[0] and not _is_overloaded(found[0]):
        wanted = found[0]
    if wanted is None:
        wanted = name
    existing = module.get_function(wanted)
    if existing is not None:
        return existing
    return Function(fty, wanted, Linkage.EXTERNAL, module, address_space)


def _is_overloaded(base: str) -> bool:
    from llvmpy_mid.ir.intrinsics import _load

    entry = _load().get(base)
    return entry is not None and entry[3]


# --- renamed intrinsics ---------------------------------------------------------------------------


def _remangled_name(fn: Function) -> str | None:
    name = fn.name
    base = lookup_intrinsic(name)
    operands = _MANGLED_OPERANDS.get(base) if base is not None else None
    if operands is None and base is None:
        # A name unknown in its old spelling: try without typed-pointer manglings.
        if ".p" not in name:
            return None
        stripped = _OLD_POINTER.sub(lambda m: ".p" + m.group(1), name)
        base = lookup_intrinsic(stripped)
        if base is None:
            return None
        operands = _MANGLED_OPERANDS.get(base)
        if operands is None:
            return stripped
    if base is None:
        return None
    if operands is None:
        # Any other described intrinsic: LLVM's remangling from its signature (lazy import: the
        # signature tables are only needed when a module declares such an intrinsic).
        from llvmpy_mid.ir.verifier.intrinsic_signatures import remangled_name

        return remangled_name(fn)
    fty = fn.function_type
    parts = [base]
    for op in operands:
        if op == "r":
            ty: Type = fty.return_type
        else:
            assert isinstance(op, int)
            if op >= len(fty.params):
                return None
            ty = fty.params[op]
        mangled = mangle_type(ty)
        if mangled is None:
            return None
        parts.append(mangled)
    return ".".join(parts)


def _rename_intrinsic(module: Module, fn: Function, new_name: str) -> Function:
    existing = module.get_function(new_name)
    if existing is not None and existing.function_type is fn.function_type:
        target = existing
    else:
        if existing is not None:
            existing.set_name(new_name + ".renamed")
        target = Function(fn.function_type, new_name, Linkage.EXTERNAL, module, fn.address_space)
    target.calling_conv = fn.calling_conv
    for use in fn.use_list():
        use.set(target)
    fn.erase_from_parent()
    return target


# WebAssembly's relaxed-SIMD intrinsics under their pre-"relaxed" names: old prefix -> new base
# (the overloaded ones take the return type's mangling, as LLVM's AutoUpgrade declares them).
_WASM_RELAXED_OVERLOADED = {
    "llvm.wasm.fma.": "llvm.wasm.relaxed.madd",
    "llvm.wasm.fms.": "llvm.wasm.relaxed.nmadd",
    "llvm.wasm.laneselect.": "llvm.wasm.relaxed.laneselect",
}
_WASM_RELAXED_PLAIN = {
    "llvm.wasm.dot.i8x16.i7x16.signed": "llvm.wasm.relaxed.dot.i8x16.i7x16.signed",
    "llvm.wasm.dot.i8x16.i7x16.add.signed": "llvm.wasm.relaxed.dot.i8x16.i7x16.add.signed",
}


def _wasm_relaxed_name(fn: Function) -> str | None:
    """The relaxed-SIMD name LLVM 19 gives an old ``llvm.wasm.fma/fms/laneselect/dot`` intrinsic."""
    name = fn.name
    plain = _WASM_RELAXED_PLAIN.get(name)
    if plain is not None:
        return plain
    for prefix, base in _WASM_RELAXED_OVERLOADED.items():
        if name.startswith(prefix):
            mangled = mangle_type(fn.function_type.return_type)
            return None if mangled is None else base + "." + mangled
    return None


# Intrinsics whose old forms took other arguments: base -> declared parameter counts upgraded.
_OLD_ARGUMENT_FORMS: dict[str, tuple[int, ...]] = {
    "llvm.ctlz": (1,),
    "llvm.cttz": (1,),
    "llvm.objectsize": (2, 3),
    "llvm.memcpy": (5,),
    "llvm.memmove": (5,),
    "llvm.memset": (5,),
    "llvm.var.annotation": (4,),
    "llvm.ptr.annotation": (4,),
}


def _new_argument_form(fn: Function) -> tuple[str, FunctionType] | None:
    """The name and type LLVM 19 gives an intrinsic declared in an older argument form (as
    ``UpgradeIntrinsicFunction``): ``ctlz``/``cttz`` gained the ``i1`` "zero is poison" flag,
    ``objectsize`` its two ``i1`` flags, ``memcpy``/``memmove``/``memset`` lost the ``i32``
    alignment, the annotations gained a ``ptr``; also ``objectsize`` named without its
    manglings. None when ``fn`` is in its current form."""
    name = fn.name
    base = lookup_intrinsic(name)
    counts = _OLD_ARGUMENT_FORMS.get(base) if base is not None else None
    if counts is None or base is None:
        return None
    fty = fn.function_type
    params = fty.params
    n = len(params)
    if base == "llvm.ptr.annotation" and not name.startswith("llvm.ptr.annotation."):
        return None
    if n not in counts and base != "llvm.objectsize":
        return None
    ctx = fn.context
    ret = fty.return_type
    i1 = ctx.int_type(1)
    overloads: list[Type]
    if base in ("llvm.ctlz", "llvm.cttz"):
        new_params, overloads = [params[0], i1], [ret]
    elif base == "llvm.objectsize":
        if n == 0:
            return None
        overloads = [ret, params[0]]
        wanted = intrinsic_name(base, overloads)
        if n not in counts and (wanted is None or wanted == name):
            return None
        new_params = [params[0], i1, i1, i1]
    elif base == "llvm.memset":
        new_params, overloads = [params[0], params[1], params[2], params[4]], [params[0], params[2]]
    elif base in ("llvm.memcpy", "llvm.memmove"):
        new_params, overloads = [params[0], params[1], params[2], params[4]], [params[0], params[1], params[2]]
    else:
        new_params, overloads = [*params, ctx.ptr], [params[0], params[1]]
    new_name = intrinsic_name(base, overloads)
    if new_name is None:
        return None
    return new_name, ctx.function_type(ret, new_params, False)


def _upgrade_argument_form(module: Module, fn: Function, new_name: str, new_fty: FunctionType) -> Function:
    """Move every call of ``fn`` to the declaration ``new_name`` of type ``new_fty`` with the
    arguments LLVM's ``UpgradeIntrinsicCall`` passes (the new call keeps the old one's name and
    debug location; ``mem*`` calls keep their attributes and get ``align`` from the dropped
    operand)."""
    base = lookup_intrinsic(new_name)
    fn.set_name(fn.name + ".old")
    target = module.get_function(new_name)
    if target is None:
        target = Function(new_fty, new_name, Linkage.EXTERNAL, module, fn.address_space)
    ctx = module.context
    false = ConstantInt.get(ctx.int_type(1), 0)
    for use in fn.use_list():
        call = use.user
        if not (isinstance(call, CallInst) and call.parent is not None and use is call.called_operand_use):
            continue
        args = list(call.args)
        attrs: AttributeList | None = None
        if base in ("llvm.ctlz", "llvm.cttz"):
            if len(args) != 1:
                continue
            args.append(false)
        elif base == "llvm.objectsize":
            if len(args) < 2:
                continue
            args = [args[0], args[1], args[2] if len(args) > 2 else false, args[3] if len(args) > 3 else false]
        elif base in ("llvm.memcpy", "llvm.memmove", "llvm.memset"):
            align = args[3] if len(args) == 5 else None
            if not isinstance(align, ConstantInt):
                continue
            old = call.attributes
            sets = [old.param_attrs(i) for i in (0, 1, 2, 4)]
            attrs = AttributeList(old.fn_attrs, old.ret_attrs, sets)
            places = (0,) if base == "llvm.memset" else (0, 1)
            for i in places:
                attrs = attrs.without_param_attr(i, "align")
                if align.value:
                    attrs = attrs.with_param_attr(i, Attribute.alignment(align.value))
            args = [args[0], args[1], args[2], args[4]]
        else:
            if len(args) != 4:
                continue
            args.append(ConstantPointerNull.get(ctx.ptr))
        new = CallInst(new_fty, target, args)
        if attrs is not None:
            new.attributes = attrs
        _replace_call(call, new)
    if not fn.has_uses:
        fn.erase_from_parent()
    return target


def _replace_call(call: CallInst, new: CallInst) -> None:
    """Put ``new`` where ``call`` is: before it, with its debug records, debug location and
    name; ``call``'s uses move to it and ``call`` is erased."""
    new.insert_before(call)
    loc = call.debug_loc
    if loc is not None:
        new.debug_loc = loc
    call._dbg_records, new._dbg_records = None, call._dbg_records
    if new._dbg_records:
        for r in new._dbg_records:
            r.instruction = new
    name = call.name
    call.replace_all_uses_with(new)
    call.erase_from_parent()
    if name:
        new.name = name


def _upgrade_coro_end(module: Module, fn: Function) -> Function:
    """``llvm.coro.end(ptr, i1)`` gained a ``token`` operand: calls pass ``none``."""
    ctx = module.context
    fty = fn.function_type
    new_fty = ctx.function_type(fty.return_type, [*fty.params, ctx.token], False)
    name = fn.name
    fn.set_name(name + ".old")
    target = Function(new_fty, name, Linkage.EXTERNAL, module, fn.address_space)
    none = ConstantTokenNone.get(ctx.token)
    for use in fn.use_list():
        call = use.user
        if isinstance(call, CallInst) and call.parent is not None and use is call.called_operand_use:
            new = CallInst(new_fty, target, [*call.args, none], name=call.name, calling_conv=call.calling_conv)
            new.tail_call_kind = call.tail_call_kind
            new._md = dict(call._md) if call._md else None
            new.insert_before(call)
            call._dbg_records, new._dbg_records = None, call._dbg_records
            if new._dbg_records:
                for r in new._dbg_records:
                    r.instruction = new
            call.replace_all_uses_with(new)
            name_of_call = call.name
            call.erase_from_parent()
            if name_of_call:
                new.name = name_of_call
    if not fn.has_uses:
        fn.erase_from_parent()
    return target


def _literal_struct_return(fn: Function) -> StructType | None:
    """The literal struct an intrinsic declared to return an identified (or
    packed) struct is given by LLVM, if this is such an intrinsic."""
    ret = fn.return_type
    if not isinstance(ret, StructType) or (ret.is_literal and not ret.packed):
        return None
    base = lookup_intrinsic(fn.name)
    if base is None:
        return None
    # Only for intrinsics whose return is a struct of their own (LLVM's IIT ``Struct``), not an
    # overloaded one; without a description, a struct return is taken to be such a struct.
    from llvmpy_mid.ir.verifier.intrinsic_signatures import signature_of

    sig = signature_of(base)
    if sig is not None and not sig.text.startswith("{"):  # the description's return is no struct
        return None
    return fn.context.struct_type(ret.elements, False)


def _retype_intrinsic(module: Module, fn: Function, ret: StructType) -> Function:
    fty = fn.function_type
    new_fty = module.context.function_type(ret, fty.params, fty.is_vararg)
    name = fn.name
    fn.set_name(name + ".old")
    target = Function(new_fty, name, Linkage.EXTERNAL, module, fn.address_space)
    old_ty = fn.return_type
    for use in fn.use_list():
        call = use.user
        if not (isinstance(call, CallInst) and call.parent is not None and use is call.called_operand_use):
            continue
        # As LLVM: an unnamed call of the new declaration, then the old struct rebuilt field by
        # field (extractvalue / insertvalue pairs) in place of the old call's result.
        new = CallInst(new_fty, target, list(call.args), calling_conv=call.calling_conv)  # no tail kind, as LLVM
        new.insert_before(call)
        acc: Value = PoisonValue.get(old_ty)
        for i in range(len(ret.elements)):
            field = ExtractValueInst(new, [i])
            field.insert_before(call)
            rebuilt = InsertValueInst(acc, field, [i])
            rebuilt.insert_before(call)
            acc = rebuilt
        call.replace_all_uses_with(acc)
        call.erase_from_parent()
    if not fn.has_uses:
        fn.erase_from_parent()
    return target


# --- debug intrinsics ---------------------------------------------------------------------------------


def _md_arg(call: CallBase, index: int) -> Metadata | None:
    if index >= call.num_args:
        return None
    arg = call.get_arg(index)
    return arg.metadata if isinstance(arg, MetadataAsValue) else None


def _upgrade_debug_intrinsic(module: Module, fn: Function) -> None:
    kind = fn.name[len("llvm.dbg.") :]
    for use in fn.use_list():
        call = use.user
        if not isinstance(call, CallInst) or call.parent is None:
            continue
        record = _record_for(kind, call)
        if record is not None:
            call.add_dbg_record(record)
        call.erase_from_parent()
    if not fn.has_uses:
        fn.erase_from_parent()


def _upgrade_old_dbg_value(module: Module, fn: Function) -> Function:
    """Calls of ``llvm.dbg.addr`` and of the four-operand ``llvm.dbg.value`` (with an offset)
    become calls of the three-operand ``llvm.dbg.value`` (LLVM's ``UpgradeIntrinsicCall``):
    ``DW_OP_deref`` is appended to a ``dbg.addr`` expression, a call with an offset other than
    zero is dropped."""
    ctx = module.context
    md = ctx.metadata
    fn.set_name(fn.name + ".old")
    target = module.get_function("llvm.dbg.value")
    if target is None:
        target = Function(ctx.function_type(ctx.void, [md, md, md], False), "llvm.dbg.value", Linkage.EXTERNAL, module)
    addr = fn.name.startswith("llvm.dbg.addr")
    for use in fn.use_list():
        call = use.user
        if not (isinstance(call, CallInst) and call.parent is not None and use is call.called_operand_use):
            continue
        args = list(call.args)
        if addr and len(args) == 3:
            expression = _md_arg(call, 2)
            if isinstance(expression, DIExpression):
                args[2] = MetadataAsValue.get(ctx, expression.append(["DW_OP_deref"]))
        elif len(args) == 4:
            offset = args[1]
            if not (offset.is_constant and getattr(offset, "is_zero_value", False)):
                call.erase_from_parent()
                continue
            args = [args[0], args[2], args[3]]
        else:
            continue
        _replace_call(call, CallInst(target.function_type, target, args))
    if not fn.has_uses:
        fn.erase_from_parent()
    return target


def _record_for(kind: str, call: CallInst) -> DbgRecord | None:
    loc = call.debug_loc
    if loc is None:
        return None
    if kind == "label":
        label = _md_arg(call, 0)
        return DbgLabelRecord(label, loc) if isinstance(label, MDNode) else None
    location = _md_arg(call, 0)
    var_op, expr_op = 1, 2
    if kind == "value" and call.num_args == 4:
        offset = call.get_arg(1)
        if not (offset.is_constant and getattr(offset, "is_zero_value", False)):
            return None
        var_op, expr_op = 2, 3
    variable = _md_arg(call, var_op)
    expression = _md_arg(call, expr_op)
    if location is None or not isinstance(variable, MDNode) or not isinstance(expression, MDNode):
        return None
    if kind == "assign":
        assign_id = _md_arg(call, 3)
        address = _md_arg(call, 4)
        address_expr = _md_arg(call, 5)
        if not isinstance(assign_id, MDNode) or address is None or not isinstance(address_expr, MDNode):
            return None
        return DbgVariableRecord(
            DbgRecordKind.ASSIGN, location, variable, expression, loc, assign_id, address, address_expr
        )
    if kind == "declare":
        return DbgVariableRecord(DbgRecordKind.DECLARE, location, variable, expression, loc)
    if kind == "addr" and isinstance(expression, DIExpression):
        expression = expression.append(["DW_OP_deref"])
    return DbgVariableRecord(DbgRecordKind.VALUE, location, variable, expression, loc)
