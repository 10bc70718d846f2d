"""Modules and global values, end to end: the shared module symbol table, lookup,
creation, comdats, named metadata, module flags, data layout, removal/erasure,
initialisers, aliases and ifuncs, and LLVM's linkage predicates.

LLVM facts checked: ``ValueSymbolTable::makeUniqueName`` (one ``LastUnique``
counter per table; globals get ``.N``), ``GlobalValue`` predicates
(``isInterposableLinkage``, ``isDiscardableIfUnused``, ``isWeakForLinker``,
``mayBeDerefined``, ``isImplicitDSOLocal``, ``setLinkage`` resetting
visibility) as documented in LangRef "Linkage Types" and ``GlobalValue.h``;
``Module::getSemanticInterposition`` reads the ``SemanticInterposition`` flag.
"""

from __future__ import annotations

import pytest

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir import (
    ComdatSelection,
    ConstantExpr,
    ConstantInt,
    Context,
    DataLayout,
    GlobalAlias,
    GlobalIFunc,
    GlobalVariable,
    IRBuilder,
    Linkage,
    MDString,
    Module,
    UnnamedAddr,
    Visibility,
)
from llvmpy_mid.ir.metadata import MDTuple
from llvmpy_mid.ir.module_flags import (
    ModuleFlagBehavior,
    add_module_flag,
    get_module_flag,
    get_module_flag_int,
    module_flags,
    set_module_flag,
)


@pytest.fixture
def m() -> Module:
    return Module("m", Context())


def _fty(m: Module) -> object:
    ctx = m.context
    return ctx.function_type(ctx.i32, [ctx.i32])


# --- symbol table ---------------------------------------------------------------------------------


def test_shared_table_renames_with_one_counter(m: Module) -> None:
    ctx = m.context
    fty = ctx.function_type(ctx.void, [])
    f = m.add_function("f", fty)
    g = m.add_global(ctx.i32, "f")
    a = GlobalAlias(ctx.i32, "f", g, module=m)
    i = GlobalIFunc(fty, "f", f, module=m)
    assert [f.name, g.name, a.name, i.name] == ["f", "f.1", "f.2", "f.3"]
    # The counter belongs to the table, not to the base name.
    x1 = m.add_global(ctx.i32, "x")
    x2 = m.add_global(ctx.i32, "x")
    assert (x1.name, x2.name) == ("x", "x.4")
    # Lookup is by kind over the one table.
    assert m.get_function("f") is f and m.get_global("f") is None
    assert m.get_global("f.1") is g and m.get_function("f.1") is None
    assert m.get_alias("f.2") is a and m.get_ifunc("f.3") is i
    assert m.get_named_value("f.2") is a and m.get_named_value("nope") is None
    assert list(m.global_values()) == [g, x1, x2, f, a, i]


def test_counter_is_not_reused_after_removal(m: Module) -> None:
    ctx = m.context
    g0 = m.add_global(ctx.i8, "g")
    g1 = m.add_global(ctx.i8, "g")
    assert g1.name == "g.1"
    g1.erase_from_parent()
    g2 = m.add_global(ctx.i8, "g")
    assert g2.name == "g.2"  # LastUnique only grows
    assert g0.name == "g"


def test_rename_and_clash(m: Module) -> None:
    ctx = m.context
    a = m.add_global(ctx.i8, "a")
    b = m.add_global(ctx.i8, "b")
    assert b.set_name("a") == "a.1"
    assert m.get_global("a.1") is b and m.get_global("b") is None
    b.name = "c"
    assert m.get_global("c") is b and m.get_global("a.1") is None
    a.name = ""
    assert m.get_global("a") is None and not a.has_name
    assert m.add_global(ctx.i8, "a").name == "a"


def test_add_function_and_get_or_insert(m: Module) -> None:
    ctx = m.context
    fty = ctx.function_type(ctx.i32, [ctx.i32, ctx.ptr])
    f = m.add_function("f", fty)
    assert f.parent is m and f.is_declaration and f.linkage is Linkage.EXTERNAL
    assert f.function_type is fty and f.value_type is fty and f.type is ctx.ptr
    assert [a.type for a in f.args] == [ctx.i32, ctx.ptr]
    assert m.get_or_insert_function("f", fty) is f
    h = m.get_or_insert_function("h", fty)
    assert h is m.get_function("h") and list(m.functions) == [f, h]
    m.add_global(ctx.i32, "gv")
    with pytest.raises(IRError, match="not a function"):
        m.get_or_insert_function("gv", fty)
    dup = m.add_function("f", fty, Linkage.INTERNAL)
    assert dup.name == "f.1" and dup.linkage is Linkage.INTERNAL


def test_add_global_and_initializer(m: Module) -> None:
    ctx = m.context
    five = ConstantInt.get(ctx.i32, 5)
    g = m.add_global(ctx.i32, "g", Linkage.INTERNAL, five, is_constant=True)
    assert g.initializer is five and g.has_initializer and not g.is_declaration
    assert g.is_constant_global and g.value_type is ctx.i32 and g.type is ctx.ptr
    assert list(five.users) == [g]
    g.initializer = None
    assert g.initializer is None and g.is_declaration and not five.has_uses
    seven = ConstantInt.get(ctx.i32, 7)
    g.initializer = seven
    assert g.initializer is seven and not g.is_declaration
    with pytest.raises(IRError):
        g.initializer = ConstantInt.get(ctx.i64, 1)
    with pytest.raises(IRError):
        m.add_global(ctx.i32, "bad", initializer=ConstantInt.get(ctx.i8, 1))
    with pytest.raises(IRError, match="constant"):
        m.add_global(ctx.i32, "bad", initializer=object())
    g3 = m.add_global(ctx.i32, "g3", address_space=3)
    assert g3.address_space == 3 and g3.type is ctx.pointer_type(3)


def test_remove_and_erase_globals(m: Module) -> None:
    ctx = m.context
    g = m.add_global(ctx.i32, "g")
    user = m.add_global(ctx.ptr, "user", initializer=g)
    with pytest.raises(IRError, match="use"):
        g.erase_from_parent()
    assert m.get_global("g") is g and g.parent is m
    # remove_from_parent detaches but keeps the uses and the name.
    g.remove_from_parent()
    assert g.parent is None and m.get_global("g") is None and g.name == "g"
    assert list(m.globals) == [user] and user.initializer is g
    m.globals.append(g)
    assert m.get_global("g") is g and g.parent is m
    user.initializer = None
    g.erase_from_parent()
    assert g.parent is None and list(m.globals) == [user] and m.get_global("g") is None
    # A function used by a call cannot be erased either.
    fty = ctx.function_type(ctx.void, [])
    callee = m.add_function("callee", fty)
    caller = m.add_function("caller", fty)
    b = IRBuilder(caller.append_block("entry"))
    call = b.call(callee)
    b.ret_void()
    with pytest.raises(IRError, match="still has 1 use"):
        callee.erase_from_parent()
    call.erase_from_parent()
    callee.erase_from_parent()
    assert m.get_function("callee") is None and list(m.functions) == [caller]
    with pytest.raises(IRError):
        callee.remove_from_parent()


def test_global_from_another_module_or_context_is_refused(m: Module) -> None:
    other = Module("o", m.context)
    g = other.add_global(m.context.i32, "g")
    with pytest.raises(IRError, match="another module"):
        m.globals.append(g)
    foreign = GlobalVariable(Context().i32, "h")
    with pytest.raises(IRError, match="another context"):
        m.globals.append(foreign)


def test_comdats(m: Module) -> None:
    ctx = m.context
    c = m.get_or_insert_comdat("grp")
    assert c.name == "grp" and c.selection is ComdatSelection.ANY
    assert m.get_or_insert_comdat("grp") is c and m.comdats == {"grp": c}
    d = m.get_or_insert_comdat("big", ComdatSelection.LARGEST)
    assert d.selection is ComdatSelection.LARGEST
    g = m.add_global(ctx.i32, "g", initializer=ConstantInt.get(ctx.i32, 0))
    f = m.add_function("f", ctx.function_type(ctx.void, []))
    assert not g.has_comdat and g.comdat is None
    g.comdat = c
    f.comdat = c
    assert g.has_comdat and g.comdat is c and c.users == {g, f}
    g.comdat = d
    assert c.users == {f} and d.users == {g}
    f.comdat = None
    assert c.users == set() and not f.has_comdat
    # Removing keeps the membership (the object lives on); erasing leaves the comdat.
    g.remove_from_parent()
    assert d.users == {g}
    m.globals.append(g)
    g.erase_from_parent()
    assert d.users == set() and g.comdat is None
    # Aliases have no comdat of their own.
    a = GlobalAlias(ctx.i32, "a", f, module=m)
    assert a.comdat is None and not a.has_comdat


def test_named_metadata(m: Module) -> None:
    ctx = m.context
    assert m.get_named_metadata("llvm.ident") is None
    nmd = m.get_or_insert_named_metadata("llvm.ident")
    assert m.get_or_insert_named_metadata("llvm.ident") is nmd
    assert m.get_named_metadata("llvm.ident") is nmd and nmd.name == "llvm.ident"
    node = MDTuple.get(ctx, (MDString.get(ctx, "clang"),))
    nmd.add_operand(node)
    nmd.add_operand(node)
    assert nmd.operands == [node, node] and len(nmd) == 2
    nmd.erase()
    assert m.get_named_metadata("llvm.ident") is None


def test_module_flags(m: Module) -> None:
    ctx = m.context
    assert module_flags(m) == [] and get_module_flag(m, "PIC Level") is None
    add_module_flag(m, "Max", "PIC Level", 2)
    add_module_flag(m, ModuleFlagBehavior.ERROR, "wchar_size", 4)
    flags = module_flags(m)
    assert [(f.behavior, f.key) for f in flags] == [(7, "PIC Level"), (1, "wchar_size")]
    assert get_module_flag_int(m, "PIC Level") == 2 and get_module_flag_int(m, "wchar_size") == 4
    node = set_module_flag(m, "Max", "PIC Level", 1)
    assert get_module_flag_int(m, "PIC Level") == 1
    assert m.get_named_metadata("llvm.module.flags").operands[0] is node  # type: ignore[union-attr]
    assert len(module_flags(m)) == 2
    set_module_flag(m, "Warning", "new", MDString.get(ctx, "v"))
    assert get_module_flag(m, "new") is MDString.get(ctx, "v") and get_module_flag_int(m, "new") is None
    with pytest.raises(IRError):
        add_module_flag(m, "Sometimes", "k", 1)
    with pytest.raises(IRError):
        add_module_flag(m, 9, "k", 1)
    # Malformed entries are skipped, as LLVM does when reading.
    m.get_or_insert_named_metadata("llvm.module.flags").add_operand(MDTuple.get(ctx, (MDString.get(ctx, "odd"),)))
    assert [f.key for f in module_flags(m)] == ["PIC Level", "wchar_size", "new"]


def test_data_layout_default_and_string(m: Module) -> None:
    ctx = m.context
    assert m.data_layout_text == ""
    dl = m.data_layout
    assert dl is m.data_layout  # cached
    # LLVM's default layout: little endian, 64-bit pointers, i64 aligned to 4 bytes.
    assert dl.is_little_endian and dl.pointer_size() == 8
    assert dl.abi_alignment(ctx.i64) == 4 and dl.pref_alignment(ctx.i64) == 8
    text = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
    m.data_layout = text
    assert m.data_layout_text == text
    assert m.data_layout.abi_alignment(ctx.i64) == 8 and m.data_layout.legal_int_widths == (8, 16, 32, 64)
    m.data_layout = "E-p:32:32"
    assert m.data_layout.is_big_endian and m.data_layout.pointer_size() == 4
    m.data_layout = DataLayout.parse(text)
    assert m.data_layout.abi_alignment(ctx.i64) == 8
    m.data_layout = ""
    assert m.data_layout_text == "" and m.data_layout.abi_alignment(ctx.i64) == 4


def test_functions_take_program_address_space(m: Module) -> None:
    ctx = m.context
    m.data_layout = "e-P1"
    f = m.add_function("f", ctx.function_type(ctx.void, []))
    assert f.address_space == 1 and f.type is ctx.pointer_type(1)


# --- aliases and ifuncs ----------------------------------------------------------------------------


def test_alias_base_object_through_chain(m: Module) -> None:
    ctx = m.context
    arr = ctx.array_type(ctx.i32, 4)
    g = m.add_global(arr, "g", initializer=None)
    gep = ConstantExpr.get_gep(arr, g, [ConstantInt.get(ctx.i64, 0), ConstantInt.get(ctx.i64, 2)], inbounds=True)
    a1 = GlobalAlias(ctx.i32, "a1", gep, module=m)
    a2 = GlobalAlias(ctx.i32, "a2", a1, module=m)
    cast = ConstantExpr.get_cast("addrspacecast", a2, ctx.pointer_type(1))
    a3 = GlobalAlias(ctx.i32, "a3", cast, address_space=1, module=m)
    assert a1.aliasee is gep and a2.aliasee is a1
    assert a1.base_object is g and a2.base_object is g
    assert a3.base_object is None  # LLVM's findBaseObject does not look through addrspacecast
    # inttoptr (add (ptrtoint @g), 4) finds @g; add of two objects or sub of one finds none.
    i64 = ctx.i64
    four = ConstantInt.get(i64, 4)
    pg = ConstantExpr.get_cast("ptrtoint", g, i64)
    added = ConstantExpr.get_cast("inttoptr", ConstantExpr.get_add(pg, four), ctx.ptr)
    assert GlobalAlias(ctx.i8, "sum", added, module=m).base_object is g
    other = m.add_global(ctx.i32, "other")
    po = ConstantExpr.get_cast("ptrtoint", other, i64)
    both = ConstantExpr.get_cast("inttoptr", ConstantExpr.get_add(pg, po), ctx.ptr)
    assert GlobalAlias(ctx.i8, "both", both, module=m).base_object is None
    diff = ConstantExpr.get_cast("inttoptr", ConstantExpr.get_sub(pg, four), ctx.ptr)
    assert GlobalAlias(ctx.i8, "diff", diff, module=m).base_object is g
    rel = ConstantExpr.get_cast("inttoptr", ConstantExpr.get_sub(pg, po), ctx.ptr)
    assert GlobalAlias(ctx.i8, "rel", rel, module=m).base_object is None
    # A cycle of aliases has no base object.
    c1 = GlobalAlias(ctx.i8, "c1", g, module=m)
    c2 = GlobalAlias(ctx.i8, "c2", c1, module=m)
    c1.aliasee = c2
    assert c1.base_object is None and c2.base_object is None
    assert g.base_object is g and list(m.aliases)[:3] == [a1, a2, a3]
    assert not a1.is_declaration  # aliases are never declarations
    # Re-pointing the alias updates the use-lists.
    h = m.add_global(ctx.i32, "h")
    a2.aliasee = h
    assert a2.base_object is h and not a1.is_used_by(a2) and h.is_used_by(a2)
    # An alias of something that is not an object has no base object.
    a4 = GlobalAlias(ctx.i32, "a4", ConstantExpr.get_cast("inttoptr", ConstantInt.get(ctx.i64, 8), ctx.ptr), module=m)
    assert a4.base_object is None
    # RAUW of the aliasee follows into the alias.
    g2 = m.add_global(arr, "g2")
    g.replace_all_uses_with(g2)
    assert a1.base_object is g2


def test_ifunc(m: Module) -> None:
    ctx = m.context
    fty = ctx.function_type(ctx.i32, [])
    resolver = m.add_function("resolve", ctx.function_type(ctx.ptr, []))
    i = GlobalIFunc(fty, "foo", resolver, module=m)
    assert i.resolver is resolver and i.value_type is fty and i.type is ctx.ptr
    assert m.get_ifunc("foo") is i and m.get_function("foo") is None
    assert not i.is_declaration and i.base_object is i
    assert list(resolver.users) == [i]
    other = m.add_function("other", ctx.function_type(ctx.ptr, []))
    i.resolver = other
    assert not resolver.has_uses and list(other.users) == [i]
    with pytest.raises(IRError):
        other.erase_from_parent()
    i.erase_from_parent()
    assert m.get_ifunc("foo") is None and not other.has_uses


# --- linkage predicates ------------------------------------------------------------------------------

# linkage: (is_interposable, is_discardable_if_unused, has_local_linkage, is_weak_for_linker, may_be_derefined)
_LINKAGE_TABLE = {
    Linkage.EXTERNAL: (False, False, False, False, False),
    Linkage.AVAILABLE_EXTERNALLY: (False, True, False, False, True),
    Linkage.LINKONCE: (True, True, False, True, True),
    Linkage.LINKONCE_ODR: (False, True, False, True, True),
    Linkage.WEAK: (True, False, False, True, True),
    Linkage.WEAK_ODR: (False, False, False, True, True),
    Linkage.APPENDING: (False, False, False, False, False),
    Linkage.INTERNAL: (False, True, True, False, False),
    Linkage.PRIVATE: (False, True, True, False, False),
    Linkage.EXTERN_WEAK: (True, False, False, True, True),
    Linkage.COMMON: (True, False, False, True, True),
}


def test_linkage_table_covers_every_linkage() -> None:
    assert set(_LINKAGE_TABLE) == set(Linkage)
    assert [lk.value for lk in Linkage][:3] == ["external", "available_externally", "linkonce"]
    assert [lk.index for lk in Linkage] == list(range(11))


@pytest.mark.parametrize("linkage", list(Linkage))
def test_linkage_predicates(linkage: Linkage) -> None:
    m = Module("m")
    ctx = m.context
    interposable, discardable, local, weak, derefined = _LINKAGE_TABLE[linkage]
    init = ConstantInt.get(ctx.i32, 0)
    g = m.add_global(ctx.i32, "g", linkage, init)
    decl = m.add_global(ctx.i32, "d", linkage)
    for gv in (g, decl):
        assert gv.linkage is linkage
        assert gv.is_interposable is interposable
        assert gv.is_discardable_if_unused is discardable
        assert gv.has_local_linkage is local
        assert gv.is_weak_for_linker is weak
        assert gv.may_be_derefined is derefined
        assert gv.is_dso_local is local  # local linkage implies dso_local
        assert gv.has_internal_linkage is (linkage is Linkage.INTERNAL)
        assert gv.has_private_linkage is (linkage is Linkage.PRIVATE)
        assert gv.has_external_linkage is (linkage is Linkage.EXTERNAL)
        assert gv.has_common_linkage is (linkage is Linkage.COMMON)
        assert gv.has_extern_weak_linkage is (linkage is Linkage.EXTERN_WEAK)
        assert gv.has_appending_linkage is (linkage is Linkage.APPENDING)
        assert gv.has_available_externally_linkage is (linkage is Linkage.AVAILABLE_EXTERNALLY)
        assert gv.has_linkonce_linkage is (linkage in (Linkage.LINKONCE, Linkage.LINKONCE_ODR))
        assert gv.has_weak_linkage is (linkage in (Linkage.WEAK, Linkage.WEAK_ODR))
    assert not g.is_declaration and decl.is_declaration
    assert g.has_exact_definition is (not derefined)
    assert not decl.has_exact_definition
    avail = linkage is Linkage.AVAILABLE_EXTERNALLY
    assert g.is_declaration_for_linker is avail and decl.is_declaration_for_linker
    assert g.is_strong_definition_for_linker is (not weak and not avail)
    assert not decl.is_strong_definition_for_linker
    # The same predicates through a function definition.
    f = m.add_function("f", ctx.function_type(ctx.void, []), linkage)
    assert f.is_declaration
    IRBuilder(f.append_block("entry")).ret_void()
    assert not f.is_declaration and f.has_exact_definition is (not derefined)
    assert f.is_interposable is interposable and f.is_dso_local is local


def test_nobuiltin_definition_may_be_derefined() -> None:
    from llvmpy_mid.ir import Attribute

    m = Module("m")
    ctx = m.context
    f = m.add_function("f", ctx.function_type(ctx.void, []))
    IRBuilder(f.append_block("entry")).ret_void()
    assert f.has_exact_definition
    f.attributes = f.attributes.with_fn_attr(Attribute.enum("nobuiltin"))
    assert f.may_be_derefined and not f.has_exact_definition


def test_dso_local_visibility_and_unnamed_addr(m: Module) -> None:
    ctx = m.context
    g = m.add_global(ctx.i32, "g")
    assert not g.is_dso_local and g.visibility is Visibility.DEFAULT and g.has_default_visibility
    g.visibility = Visibility.HIDDEN
    assert g.is_dso_local and g.has_hidden_visibility  # hidden implies dso_local
    p = m.add_global(ctx.i32, "p")
    p.visibility = Visibility.PROTECTED
    assert p.is_dso_local and p.has_protected_visibility
    # extern_weak with hidden visibility is not implicitly dso_local.
    w = m.add_global(ctx.i32, "w", Linkage.EXTERN_WEAK)
    w.visibility = Visibility.HIDDEN
    assert not w.is_dso_local
    # Setting a local linkage resets the visibility to default and makes it dso_local.
    h = m.add_global(ctx.i32, "h")
    h.visibility = Visibility.HIDDEN
    h.linkage = Linkage.PRIVATE
    assert h.visibility is Visibility.DEFAULT and h.is_dso_local and h.has_local_linkage
    with pytest.raises(IRError, match="default visibility"):
        h.visibility = Visibility.HIDDEN
    e = m.add_global(ctx.i32, "e")
    e.linkage = Linkage.INTERNAL
    assert e.is_dso_local
    # unnamed_addr
    assert not e.has_global_unnamed_addr and not e.has_at_least_local_unnamed_addr
    e.unnamed_addr = UnnamedAddr.LOCAL
    assert not e.has_global_unnamed_addr and e.has_at_least_local_unnamed_addr
    e.unnamed_addr = UnnamedAddr.GLOBAL
    assert e.has_global_unnamed_addr and e.has_at_least_local_unnamed_addr


def test_semantic_interposition_flag(m: Module) -> None:
    ctx = m.context
    g = m.add_global(ctx.i32, "g", initializer=ConstantInt.get(ctx.i32, 1))
    local = m.add_global(ctx.i32, "l", Linkage.INTERNAL, ConstantInt.get(ctx.i32, 1))
    odr = m.add_global(ctx.i32, "o", Linkage.WEAK_ODR, ConstantInt.get(ctx.i32, 1))
    assert not m.semantic_interposition
    assert not g.is_interposable and g.has_exact_definition and g.has_definitive_initializer
    add_module_flag(m, "Error", "SemanticInterposition", 1)
    assert m.semantic_interposition
    # External and not dso_local: interposable, so the definition is not exact.
    assert g.is_interposable and not g.has_exact_definition and not g.has_definitive_initializer
    # Local linkage is dso_local; weak_odr is not, so it becomes interposable too.
    assert not local.is_interposable and odr.is_interposable
    g.is_dso_local = True
    assert not g.is_interposable and g.has_exact_definition
    set_module_flag(m, "Error", "SemanticInterposition", 0)
    g.is_dso_local = False
    assert not m.semantic_interposition and not g.is_interposable
    # A global outside any module has no flag to consult.
    g.remove_from_parent()
    assert not g.is_interposable


def test_unique_and_definitive_initializers(m: Module) -> None:
    ctx = m.context
    zero = ConstantInt.get(ctx.i32, 0)
    g = m.add_global(ctx.i32, "g", initializer=zero)
    assert g.has_unique_initializer and g.has_definitive_initializer
    g.externally_initialized = True
    assert not g.has_unique_initializer and not g.has_definitive_initializer
    w = m.add_global(ctx.i32, "w", Linkage.WEAK_ODR, zero)
    assert not w.has_unique_initializer and w.has_definitive_initializer
    c = m.add_global(ctx.i32, "c", Linkage.COMMON, zero)
    assert not c.has_definitive_initializer and not c.has_unique_initializer
