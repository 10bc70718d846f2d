"""Rules on global values (LLVM 19 ``Verifier::visitGlobalValue``, ``visitGlobalVariable``,
``visitGlobalAlias``/``visitAliaseeSubExpr``, ``visitGlobalIFunc``), and the walk over
constant expressions (``visitConstantExprsRecursively``) they share with instructions.

:func:`verify_global_value` is LLVM's visitGlobalValue: linkage of declarations,
alignment, the ``!associated`` and ``!absolute_symbol`` attachments, appending
linkage, comdats of declarations, DLL storage, implicit ``dso_local``, and that
every instruction or function using the global belongs to this module.
:func:`visit_global_variable`, :func:`visit_alias` and :func:`visit_ifunc` are
the per-kind visitors (an ifunc gets no visitGlobalValue, as in LLVM 19).

Within each visitor the checks run in LLVM's order and a failed check ends
that visitor (LLVM's ``Check`` returns), so the findings and their order are
those of ``opt-19 -passes=verify``. Two facts are kept per run in
``Checker.memo``: the values already reached while looking for users of
globals in other modules (``"global-value-users"``) and the constants whose
expressions were already checked (``"constant-exprs-visited"``, shared with
any rule that calls :func:`visit_constant_exprs`), so each is looked at once.

The ``!range``-like rules of ``!absolute_symbol`` are ``metadata_rules.verify_range_like``
and the ``!dbg`` attachments of a variable ``debug_info_rules.verify_global_variable_dbg``;
both are called from here, at the place LLVM checks them.
Where LLVM itself recurses forever (an aliasee expression that reaches itself
through an alias operand) we report "Aliases cannot form a cycle" instead; the
aliasee walk, which LLVM does not memoise, stops after 100,000 steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.pointer_casts import strip_pointer_casts as strip_pointer_casts
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantArray, ConstantInt, ConstantPtrAuth
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import (
    DLLStorageClass,
    GlobalAlias,
    GlobalIFunc,
    GlobalObject,
    GlobalValue,
    GlobalVariable,
    Linkage,
)
from llvmpy_mid.ir.instructions.casts import cast_is_valid
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.types import ArrayType, StructType, TargetExtType, Type, TypeID
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ir.verifier import debug_info_rules, metadata_rules
from llvmpy_mid.ir.verifier.checker import Checker

if TYPE_CHECKING:
    from llvmpy_mid.ir.module import Module

MAXIMUM_ALIGNMENT = 1 << 32
"""LLVM's ``Value::MaximumAlignment``."""

_DECLARATION_LINKAGES = frozenset((Linkage.EXTERNAL, Linkage.EXTERN_WEAK))
_ALIAS_LINKAGES = frozenset(
    (
        Linkage.PRIVATE,
        Linkage.INTERNAL,
        Linkage.LINKONCE,
        Linkage.WEAK,
        Linkage.LINKONCE_ODR,
        Linkage.WEAK_ODR,
        Linkage.EXTERNAL,
        Linkage.AVAILABLE_EXTERNALLY,
    )
)
_IFUNC_LINKAGES = _ALIAS_LINKAGES - {Linkage.AVAILABLE_EXTERNALLY}

_ALIAS_WALK_BUDGET = 100_000
"""Most aliasee sub-expressions looked at for one alias (LLVM's walk is not
memoised and can be exponential in a shared expression; we stop there)."""

_MAYBE_SCALABLE = frozenset((TypeID.ARRAY, TypeID.STRUCT, TypeID.SCALABLE_VECTOR, TypeID.TARGET_EXT))

_USERS_KEY = "global-value-users"
_CONSTEXPR_KEY = "constant-exprs-visited"



# --- visitGlobalValue --------------------------------------------------------------------------------
def verify_global_value(c: Checker, gv: GlobalValue) -> None:
    """LLVM's visitGlobalValue: the checks shared by functions, variables and aliases."""
    if gv.is_declaration and gv.linkage not in _DECLARATION_LINKAGES:
        c.fail("Global is external, but doesn't have external or weak linkage!", gv)
        return
    if isinstance(gv, GlobalObject):
        alignment = gv.alignment
        if alignment is not None and alignment > MAXIMUM_ALIGNMENT:
            c.fail("huge alignment values are unsupported", gv)
            return
        if gv._global_md:
            if not _check_associated(c, gv):
                return
            absolute = gv.get_metadata("absolute_symbol")
            if absolute is not None:
                _check_absolute_symbol(c, gv, absolute)
    if gv.has_appending_linkage:
        if not isinstance(gv, GlobalVariable):
            c.fail("Only global variables can have appending linkage!", gv)
            return
        if not gv.value_type.is_array:
            c.fail("Only global arrays can have appending linkage!", gv)
            return
    if gv.is_declaration_for_linker and _comdat_of(gv) is not None:
        c.fail("Declaration may not be in a Comdat!", gv)
        return
    storage = gv.dll_storage_class
    if storage is DLLStorageClass.DLLEXPORT and gv.has_hidden_visibility:
        c.fail("dllexport GlobalValue must have default or protected visibility", gv)
        return
    if storage is DLLStorageClass.DLLIMPORT:
        if not gv.has_default_visibility:
            c.fail("dllimport GlobalValue must have default visibility", gv)
            return
        if gv.is_dso_local:
            c.fail("GlobalValue with DLLImport Storage is dso_local!", gv)
            return
        external_decl = gv.is_declaration and (gv.has_external_linkage or gv.has_extern_weak_linkage)
        if not (external_decl or gv.has_available_externally_linkage):
            c.fail("Global is marked as dllimport, but not external", gv)
            return
    if gv.is_implicit_dso_local and not gv.is_dso_local:
        c.fail("GlobalValue with local linkage or non-default visibility must be dso_local!", gv)
        return
    _check_users_in_module(c, gv)



# --- global variables -------------------------------------------------------------------------------
def visit_global_variable(c: Checker, gv: GlobalVariable) -> None:
    init = gv.initializer if gv.has_initializer else None
    if init is not None:
        if init.type is not gv.value_type:
            c.fail("Global variable initializer type does not match global variable type!", gv)
            return
        if gv.has_common_linkage:
            if not init.is_null_value:
                c.fail("'common' global must have a zero initializer!", gv)
                return
            if gv.is_constant_global:
                c.fail("'common' global may not be marked constant!", gv)
                return
            if gv.comdat is not None:
                c.fail("'common' global may not be in a Comdat!", gv)
                return
    name = gv.name
    if name in ("llvm.global_ctors", "llvm.global_dtors"):
        if not _check_structors(c, gv):
            return
    elif name in ("llvm.used", "llvm.compiler.used"):
        if not _check_used(c, gv, name):
            return
    if gv._global_md and not debug_info_rules.verify_global_variable_dbg(c, gv):
        return
    value_type = gv.value_type
    if is_scalable_type(value_type):
        c.fail("Globals cannot contain scalable types", gv)
        return
    if isinstance(value_type, TargetExtType) and not target_type_can_be_global(value_type):
        c.fail("Global @" + name + " has illegal target extension type", value_type)
        return
    if init is not None:
        visit_constant_exprs(c, init)
    verify_global_value(c, gv)


def _intrinsic_global_linkage_and_uses_ok(c: Checker, gv: GlobalVariable) -> bool:
    """An intrinsic global (``llvm.global_ctors``, ``llvm.used``...) that is
    defined has appending linkage, and nothing uses it; reports LLVM's message if not."""
    if gv.has_initializer and not gv.has_appending_linkage:
        c.fail("invalid linkage for intrinsic global variable", gv)
        return False
    if gv._use_head is not None:
        c.fail("invalid uses of intrinsic global variable", gv)
        return False
    return True


def _check_structors(c: Checker, gv: GlobalVariable) -> bool:
    """``llvm.global_ctors``/``llvm.global_dtors``: appending ``[N x { i32, ptr, ptr }]``, unused."""
    if not _intrinsic_global_linkage_and_uses_ok(c, gv):
        return False
    ty = gv.value_type
    if isinstance(ty, ArrayType):
        elem = ty.element_type
        module = gv.parent
        program_as = module.data_layout.program_addr_space if module is not None else 0
        ok = (
            isinstance(elem, StructType)
            and not elem.is_opaque
            and len(elem.elements) in (2, 3)
            and elem.elements[0].is_integer_bits(32)
            and elem.elements[1] is ty.context.pointer_type(program_as)
        )
        if not ok:
            c.fail("wrong type for intrinsic global variable", gv)
            return False
        assert isinstance(elem, StructType)
        if len(elem.elements) != 3:
            c.fail(
                "the third field of the element type is mandatory, specify ptr null to migrate from "
                "the obsoleted 2-field form"
            )
            return False
        if not elem.elements[2].is_pointer:
            c.fail("wrong type for intrinsic global variable", gv)
            return False
    return True


def _check_used(c: Checker, gv: GlobalVariable, name: str) -> bool:
    """``llvm.used``/``llvm.compiler.used``: appending arrays of named globals, unused."""
    if not _intrinsic_global_linkage_and_uses_ok(c, gv):
        return False
    ty = gv.value_type
    if not isinstance(ty, ArrayType):
        return True
    if not ty.element_type.is_pointer:
        c.fail("wrong type for intrinsic global variable", gv)
        return False
    init = gv.initializer
    if init is None:
        return True
    if not isinstance(init, ConstantArray):
        c.fail("wrong initalizer for intrinsic global variable", init)
        return False
    for op in init.operands:
        member = strip_pointer_casts(op)
        if not isinstance(member, (GlobalVariable, Function, GlobalAlias)):
            c.fail("invalid " + name + " member", member)
            return False
        if not member.name:
            c.fail("members of " + name + " must be named", member)
            return False
    return True


def is_scalable_type(ty: Type) -> bool:
    """LLVM 19's ``Type::isScalableTy``: a scalable vector, ``aarch64.svcount``, an array of
    such, or a struct with a scalable vector among its (nested struct) members."""
    if ty.type_id not in _MAYBE_SCALABLE:
        return False
    while isinstance(ty, ArrayType):
        ty = ty.element_type
    if isinstance(ty, StructType):
        return _struct_contains_scalable_vector(ty)
    if ty.type_id is TypeID.SCALABLE_VECTOR:
        return True
    return isinstance(ty, TargetExtType) and ty.name == "aarch64.svcount"


def _struct_contains_scalable_vector(root: StructType) -> bool:
    seen: set[StructType] = set()
    stack: list[StructType] = [root]
    while stack:
        st = stack.pop()
        if st in seen:
            continue
        seen.add(st)
        for elem in st.elements:
            if elem.type_id is TypeID.SCALABLE_VECTOR:
                return True
            if isinstance(elem, StructType):
                stack.append(elem)
    return False


def target_type_can_be_global(ty: TargetExtType) -> bool:
    """LLVM 19 gives the ``CanBeGlobal`` property to the ``spirv.*`` target types only."""
    return ty.name.startswith("spirv.")


# --- aliases -----------------------------------------------------------------------------------------
def visit_alias(c: Checker, ga: GlobalAlias) -> None:
    if ga.linkage not in _ALIAS_LINKAGES:
        c.fail(
            "Alias should have private, internal, linkonce, weak, linkonce_odr, weak_odr, external, "
            "or available_externally linkage!",
            ga,
        )
        return
    aliasee = ga.aliasee if ga.num_operands else None
    if aliasee is None:
        c.fail("Aliasee cannot be NULL!", ga)
        return
    if ga.type is not aliasee.type:
        c.fail("Alias and aliasee types should match!", ga)
        return
    if not (aliasee.is_global_value or isinstance(aliasee, ConstantExpr)):
        c.fail("Aliasee should be either GlobalValue or ConstantExpr", ga)
        return
    _visit_aliasee(c, ga, aliasee)
    verify_global_value(c, ga)


def _visit_aliasee(c: Checker, ga: GlobalAlias, aliasee: Constant) -> None:
    """LLVM's visitAliaseeSubExpr, as an explicit pre-order walk.

    Each step checks one sub-expression; a failed check skips that step's
    operands (LLVM returns from that recursion level) but the walk goes on.
    An operand that is an alias is replaced by its aliasee. ``visited`` holds
    the aliases reached as aliasees (a repeat is a cycle). ``path`` is the
    current chain of sub-expressions: meeting one of them again with no alias
    in between is a loop LLVM never leaves; we report it as a cycle and stop."""
    avail_ext = ga.has_available_externally_linkage
    visited: set[GlobalValue] = {ga}
    stack: list[tuple[Constant, int]] = [(aliasee, 0)]
    path: list[Constant] = []
    budget = _ALIAS_WALK_BUDGET
    while stack:
        budget -= 1
        if budget < 0:
            return
        const, depth = stack.pop()
        del path[depth:]
        if avail_ext and not (isinstance(const, GlobalValue) and const.has_available_externally_linkage):
            c.fail("available_externally alias must point to available_externally global value", ga)
            continue
        if isinstance(const, GlobalValue):
            if not avail_ext and const.is_declaration_for_linker:
                c.fail("Alias must point to a definition", ga)
                continue
            if not isinstance(const, GlobalAlias):
                continue
            if const in visited:
                c.fail("Aliases cannot form a cycle", ga)
                continue
            visited.add(const)
            if const.is_interposable:
                c.fail("Alias cannot point to an interposable alias", ga)
                continue
        else:
            if _loops_back(path, const):
                c.fail("Aliases cannot form a cycle", ga)
                return
            if isinstance(const, ConstantExpr):
                visit_constant_exprs(c, const)
        path.append(const)
        children: list[Constant] = []
        for op in const.operands:
            if isinstance(op, GlobalAlias):
                if op.num_operands:
                    children.append(op.aliasee)
            elif isinstance(op, Constant):
                children.append(op)
        for child in reversed(children):
            stack.append((child, depth + 1))


def _loops_back(path: list[Constant], const: Constant) -> bool:
    """``const`` is already on ``path`` with no alias after it (LLVM would recurse forever)."""
    for i in range(len(path) - 1, -1, -1):
        step = path[i]
        if step is const:
            return True
        if isinstance(step, GlobalAlias):
            return False
    return False


# --- ifuncs ------------------------------------------------------------------------------------------
def visit_ifunc(c: Checker, gi: GlobalIFunc) -> None:
    if gi.linkage not in _IFUNC_LINKAGES:
        c.fail(
            "IFunc should have private, internal, linkonce, weak, linkonce_odr, weak_odr, or external linkage!",
            gi,
        )
        return
    resolver_op = gi.resolver if gi.num_operands else None
    resolver = strip_pointer_casts_and_aliases(resolver_op) if resolver_op is not None else None
    if not isinstance(resolver, Function):
        c.fail("IFunc must have a Function resolver", gi)
        return
    if resolver.is_declaration_for_linker:
        c.fail("IFunc resolver must be a definition", gi)
        return
    if not resolver.function_type.return_type.is_pointer:
        c.fail("IFunc resolver must return a pointer", gi)
        return
    assert resolver_op is not None
    if resolver_op.type is not gi.context.pointer_type(gi.address_space):
        c.fail("IFunc resolver has incorrect type", gi)
        return


# --- shared pieces ---------------------------------------------------------------------------------
def _comdat_of(gv: GlobalValue) -> object:
    """LLVM ``GlobalValue::getComdat``: an alias has its aliasee object's comdat, an ifunc none."""
    if isinstance(gv, GlobalAlias):
        base = gv.base_object
        return base.comdat if base is not None else None
    if isinstance(gv, GlobalIFunc):
        return None
    return gv.comdat


def _module_line(module: Module | None) -> str | None:
    """How LLVM's verifier writes a module: its ModuleID line."""
    if module is None:
        return None
    return "; ModuleID = '%s'" % module.name


def _check_users_in_module(c: Checker, gv: GlobalValue) -> None:
    """Every instruction or function using ``gv`` (through constants) is in this module."""
    memo = c.memo.get(_USERS_KEY)
    if memo is None:
        memo = c.memo[_USERS_KEY] = set()
    visited: set[Value] = memo  # type: ignore[assignment]
    if gv in visited:
        return
    visited.add(gv)
    module = c.module if c.module is not None else gv.parent
    work: list[Value] = list(gv.users)
    while work:
        cur = work.pop()
        if cur in visited:
            continue
        visited.add(cur)
        if cur.is_instruction:
            bb = cur.parent  # type: ignore[attr-defined]
            fn = bb.parent if bb is not None else None
            if fn is None:
                c.fail("Global is referenced by parentless instruction!", gv, _module_line(module), cur)
            elif fn.parent is not module:
                c.fail(
                    "Global is referenced in a different module!",
                    gv,
                    _module_line(module),
                    cur,
                    fn,
                    _module_line(fn.parent),
                )
            continue
        if isinstance(cur, Function):
            if cur.parent is not module:
                c.fail(
                    "Global is used by function in a different module",
                    gv,
                    _module_line(module),
                    cur,
                    _module_line(cur.parent),
                )
            continue
        work.extend(cur.users)


def visit_constant_exprs(c: Checker, entry: Constant) -> None:
    """LLVM's visitConstantExprsRecursively: every constant expression reachable from
    ``entry`` (not through globals) is a valid bitcast or ptrauth, and the globals reached
    are in this module. Each constant is looked at once per verifier run."""
    memo = c.memo.get(_CONSTEXPR_KEY)
    if memo is None:
        memo = c.memo[_CONSTEXPR_KEY] = set()
    seen: set[Value] = memo  # type: ignore[assignment]
    if entry in seen:
        return
    seen.add(entry)
    module = c.module
    stack: list[Value] = [entry]
    while stack:
        const = stack.pop()
        if isinstance(const, ConstantExpr):
            if const.opcode == "bitcast" and const.num_operands == 1:
                if not cast_is_valid("bitcast", const.get_operand(0).type, const.type):
                    c.fail("Invalid bitcast", const)
        elif isinstance(const, ConstantPtrAuth):
            _check_ptrauth(c, const)
        elif const.is_global_value:
            owner = const.parent  # type: ignore[attr-defined]
            if module is not None and owner is not module:
                c.fail("Referencing global in another module!", entry, _module_line(module), const, _module_line(owner))
                return
            continue
        for op in const.operands:  # type: ignore[attr-defined]
            if op.is_constant and op not in seen:
                seen.add(op)
                stack.append(op)


def _check_ptrauth(c: Checker, cpa: ConstantPtrAuth) -> None:
    if cpa.num_operands < 4:
        return
    pointer = cpa.get_operand(0)
    if not pointer.type.is_pointer:
        c.fail("signed ptrauth constant base pointer must have pointer type")
        return
    if cpa.type is not pointer.type:
        c.fail("signed ptrauth constant must have same type as its base pointer")
        return
    if not cpa.get_operand(1).type.is_integer_bits(32):
        c.fail("signed ptrauth constant key must be i32 constant integer")
        return
    if not cpa.get_operand(3).type.is_pointer:
        c.fail("signed ptrauth constant address discriminator must be a pointer")
        return
    if not cpa.get_operand(2).type.is_integer_bits(64):
        c.fail("signed ptrauth constant discriminator must be i64 constant integer")
        return


def strip_pointer_casts_and_aliases(value: Value) -> Value:
    """LLVM ``stripPointerCastsAndAliases``: also through aliases that cannot be interposed."""
    return _strip(value, True)


def _strip(value: Value, aliases: bool) -> Value:
    if not value.type.is_ptr_or_ptr_vector:
        return value
    seen: set[Value] = {value}
    while True:
        if isinstance(value, ConstantExpr):
            opcode = value.opcode
            if opcode == "getelementptr":
                if not all(isinstance(i, ConstantInt) and i.value == 0 for i in value.operands[1:]):
                    return value
                nxt = value.get_operand(0)
            elif opcode == "bitcast":
                nxt = value.get_operand(0)
                if not nxt.type.is_pointer:
                    return nxt
            elif opcode == "addrspacecast":
                nxt = value.get_operand(0)
            else:
                return value
        elif aliases and isinstance(value, GlobalAlias) and value.num_operands:
            if value.is_interposable:
                return value
            nxt = value.aliasee
        else:
            return value
        if nxt in seen:
            return value
        seen.add(nxt)
        value = nxt


# --- global metadata attachments ----------------------------------------------------------------------
def _check_absolute_symbol(c: Checker, go: GlobalObject, node: MDNode) -> None:
    """``!absolute_symbol``: the rules of ``!range`` on the pointer-sized integer, full set allowed."""
    module = go.parent if go.parent is not None else c.module
    if module is None:
        return
    width = module.data_layout.pointer_size_in_bits(go.address_space)
    metadata_rules.verify_range_like(c, go, node, go.context.int_type(width), True)


def _check_associated(c: Checker, go: GlobalObject) -> bool:
    """``!associated``: one operand, a pointer-typed constant other than the object itself."""
    node = go.get_metadata("associated")
    if node is None:
        return True
    ops = node.operands
    if len(ops) != 1:
        c.fail("associated metadata must have one operand", go, node)
        return False
    op = ops[0]
    if op is None:
        c.fail("associated metadata must have a global value", go, node)
        return False
    if not op.is_value_as_metadata:
        c.fail("associated metadata must be ValueAsMetadata", go, node)
        return False
    value: Value = op.value  # type: ignore[attr-defined]
    if not value.type.is_pointer:
        c.fail("associated value must be pointer typed", go, node)
        return False
    stripped = strip_pointer_casts_and_aliases(value)
    if not stripped.is_constant:
        c.fail("associated metadata must point to a GlobalObject", go, stripped)
        return False
    if stripped is go:
        c.fail("global values should not associate to themselves", go, node)
        return False
    return True


__all__ = [
    "is_scalable_type",
    "strip_pointer_casts",
    "strip_pointer_casts_and_aliases",
    "target_type_can_be_global",
    "verify_global_value",
    "visit_alias",
    "visit_constant_exprs",
    "visit_global_variable",
    "visit_ifunc",
]
