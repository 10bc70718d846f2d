"""Global values: variables, aliases, ifuncs (functions are in ``function.py``),
their linkage and the other properties LLVM gives them, and comdats.

A global value is a constant whose value is its address, so its type is a
pointer (``ptr`` or ``ptr addrspace(N)``); ``value_type`` is the type of what
it points to. The predicates (``is_declaration``, ``is_interposable``,
``is_discardable_if_unused``, ...) follow LLVM's ``GlobalValue``.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Sequence, cast

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.types import PointerType, Type
from llvmpy_mid.ir.value import Use, Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.metadata import MDNode
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.symbol_table import ValueSymbolTable


class Linkage(Enum):
    """Linkage kinds, in LLVM's ``LinkageTypes`` order; the value is the keyword."""

    EXTERNAL = "external"
    AVAILABLE_EXTERNALLY = "available_externally"
    LINKONCE = "linkonce"
    LINKONCE_ODR = "linkonce_odr"
    WEAK = "weak"
    WEAK_ODR = "weak_odr"
    APPENDING = "appending"
    INTERNAL = "internal"
    PRIVATE = "private"
    EXTERN_WEAK = "extern_weak"
    COMMON = "common"

    @property
    def index(self) -> int:
        """Position in LLVM's enumeration (used to order linkages)."""
        return _LINKAGE_ORDER[self]

    @property
    def is_local(self) -> bool:
        return self is Linkage.INTERNAL or self is Linkage.PRIVATE

    @property
    def is_interposable(self) -> bool:
        return self in (Linkage.WEAK, Linkage.LINKONCE, Linkage.COMMON, Linkage.EXTERN_WEAK)

    @property
    def is_weak_for_linker(self) -> bool:
        return self in (
            Linkage.WEAK,
            Linkage.WEAK_ODR,
            Linkage.LINKONCE,
            Linkage.LINKONCE_ODR,
            Linkage.COMMON,
            Linkage.EXTERN_WEAK,
        )

    @property
    def is_discardable_if_unused(self) -> bool:
        return self in (
            Linkage.LINKONCE,
            Linkage.LINKONCE_ODR,
            Linkage.INTERNAL,
            Linkage.PRIVATE,
            Linkage.AVAILABLE_EXTERNALLY,
        )


_LINKAGE_ORDER = {lk: i for i, lk in enumerate(Linkage)}


class Visibility(Enum):
    DEFAULT = "default"
    HIDDEN = "hidden"
    PROTECTED = "protected"


class DLLStorageClass(Enum):
    DEFAULT = "default"
    DLLIMPORT = "dllimport"
    DLLEXPORT = "dllexport"


class UnnamedAddr(Enum):
    NONE = ""
    LOCAL = "local_unnamed_addr"
    GLOBAL = "unnamed_addr"


class ThreadLocalMode(Enum):
    """``thread_local`` and its models; the value is the text LLVM prints."""

    NOT_THREAD_LOCAL = ""
    GENERAL_DYNAMIC = "thread_local"
    LOCAL_DYNAMIC = "thread_local(localdynamic)"
    INITIAL_EXEC = "thread_local(initialexec)"
    LOCAL_EXEC = "thread_local(localexec)"


class ComdatSelection(Enum):
    ANY = "any"
    EXACT_MATCH = "exactmatch"
    LARGEST = "largest"
    NO_DEDUPLICATE = "nodeduplicate"
    SAME_SIZE = "samesize"


class Comdat:
    """A COMDAT group of a module: ``$name = comdat any``."""

    __slots__ = ("name", "selection", "users")

    def __init__(self, name: str, selection: ComdatSelection = ComdatSelection.ANY) -> None:
        self.name = name
        self.selection = selection
        self.users: set[GlobalObject] = set()
        """The global objects in this comdat."""

    def __repr__(self) -> str:
        return "<Comdat $%s %s>" % (self.name, self.selection.value)


class GlobalValue(Constant):
    """Base of functions, global variables, aliases and ifuncs."""

    __slots__ = (
        "parent",
        "_prev",
        "_next",
        "value_type",
        "_linkage",
        "_visibility",
        "dll_storage_class",
        "unnamed_addr",
        "thread_local_mode",
        "_dso_local",
        "partition",
        "sanitizer_metadata",
    )

    is_global_value = True

    parent: Module | None
    value_type: Type
    dll_storage_class: DLLStorageClass
    unnamed_addr: UnnamedAddr
    thread_local_mode: ThreadLocalMode
    partition: str
    sanitizer_metadata: tuple[str, ...]

    def __init__(
        self,
        value_type: Type,
        name: str,
        linkage: Linkage,
        address_space: int,
        operands: Sequence[Value] = (),
    ) -> None:
        ptr = value_type.context.pointer_type(address_space)
        Constant.__init__(self, ptr, operands, name)
        self.parent = None
        self._prev: GlobalValue | None = None
        self._next: GlobalValue | None = None
        self.value_type = value_type
        self._linkage = linkage
        self._visibility = Visibility.DEFAULT
        self.dll_storage_class = DLLStorageClass.DEFAULT
        self.unnamed_addr = UnnamedAddr.NONE
        self.thread_local_mode = ThreadLocalMode.NOT_THREAD_LOCAL
        self._dso_local = linkage.is_local
        self.partition = ""
        self.sanitizer_metadata = ()
        """Sanitizer flags printed after the global (``no_sanitize_address``, ...)."""

    def _key(self) -> None:
        return None

    def _symbol_table(self) -> ValueSymbolTable | None:
        mod = self.parent
        return mod.symbol_table if mod is not None else None

    def _numbering_changed(self) -> None:
        mod = self.parent
        if mod is not None:
            mod._edit_epoch += 1

    def handle_operand_change(self, old: Value, new: Value) -> None:
        # Globals are not uniqued; their operands (initialisers, aliasees) are
        # changed directly by RAUW.
        for use in self._operands:
            if use.value is old:
                use.set(new)

    # --- properties ---------------------------------------------------------------
    @property
    def global_type(self) -> PointerType:
        return cast(PointerType, self.type)

    @property
    def address_space(self) -> int:
        return cast(PointerType, self.type).address_space

    @property
    def linkage(self) -> Linkage:
        return self._linkage

    @linkage.setter
    def linkage(self, linkage: Linkage) -> None:
        if linkage.is_local:
            self._visibility = Visibility.DEFAULT
        self._linkage = linkage
        if self.is_implicit_dso_local:
            self._dso_local = True

    @property
    def visibility(self) -> Visibility:
        return self._visibility

    @visibility.setter
    def visibility(self, visibility: Visibility) -> None:
        if self._linkage.is_local and visibility is not Visibility.DEFAULT:
            raise IRError("local linkage requires default visibility")
        self._visibility = visibility
        if self.is_implicit_dso_local:
            self._dso_local = True

    @property
    def is_dso_local(self) -> bool:
        return self._dso_local

    @is_dso_local.setter
    def is_dso_local(self, flag: bool) -> None:
        self._dso_local = flag

    @property
    def is_implicit_dso_local(self) -> bool:
        """Local linkage, or non-default visibility without extern_weak."""
        return self._linkage.is_local or (
            self._visibility is not Visibility.DEFAULT and self._linkage is not Linkage.EXTERN_WEAK
        )

    @property
    def is_thread_local(self) -> bool:
        return self.thread_local_mode is not ThreadLocalMode.NOT_THREAD_LOCAL

    # --- LLVM's linkage predicates -------------------------------------------------------
    @property
    def is_declaration(self) -> bool:
        return False

    @property
    def has_local_linkage(self) -> bool:
        return self._linkage.is_local

    @property
    def has_external_linkage(self) -> bool:
        return self._linkage is Linkage.EXTERNAL

    @property
    def has_internal_linkage(self) -> bool:
        return self._linkage is Linkage.INTERNAL

    @property
    def has_private_linkage(self) -> bool:
        return self._linkage is Linkage.PRIVATE

    @property
    def has_linkonce_linkage(self) -> bool:
        return self._linkage is Linkage.LINKONCE or self._linkage is Linkage.LINKONCE_ODR

    @property
    def has_linkonce_odr_linkage(self) -> bool:
        return self._linkage is Linkage.LINKONCE_ODR

    @property
    def has_weak_linkage(self) -> bool:
        return self._linkage is Linkage.WEAK or self._linkage is Linkage.WEAK_ODR

    @property
    def has_weak_odr_linkage(self) -> bool:
        return self._linkage is Linkage.WEAK_ODR

    @property
    def has_available_externally_linkage(self) -> bool:
        return self._linkage is Linkage.AVAILABLE_EXTERNALLY

    @property
    def has_appending_linkage(self) -> bool:
        return self._linkage is Linkage.APPENDING

    @property
    def has_extern_weak_linkage(self) -> bool:
        return self._linkage is Linkage.EXTERN_WEAK

    @property
    def has_common_linkage(self) -> bool:
        return self._linkage is Linkage.COMMON

    @property
    def has_default_visibility(self) -> bool:
        return self._visibility is Visibility.DEFAULT

    @property
    def has_hidden_visibility(self) -> bool:
        return self._visibility is Visibility.HIDDEN

    @property
    def has_protected_visibility(self) -> bool:
        return self._visibility is Visibility.PROTECTED

    @property
    def has_global_unnamed_addr(self) -> bool:
        return self.unnamed_addr is UnnamedAddr.GLOBAL

    @property
    def has_at_least_local_unnamed_addr(self) -> bool:
        return self.unnamed_addr is not UnnamedAddr.NONE

    @property
    def is_weak_for_linker(self) -> bool:
        return self._linkage.is_weak_for_linker

    @property
    def is_declaration_for_linker(self) -> bool:
        """A declaration, or an ``available_externally`` definition (the linker
        takes the symbol from elsewhere)."""
        return self._linkage is Linkage.AVAILABLE_EXTERNALLY or self.is_declaration

    @property
    def is_strong_definition_for_linker(self) -> bool:
        return not (self.is_declaration_for_linker or self._linkage.is_weak_for_linker)

    @property
    def is_discardable_if_unused(self) -> bool:
        return self._linkage.is_discardable_if_unused

    @property
    def is_interposable(self) -> bool:
        """May be replaced by a different definition at link or load time
        (interposable linkage, or external with semantic interposition and not dso_local)."""
        if self._linkage.is_interposable:
            return True
        mod = self.parent
        return mod is not None and mod.semantic_interposition and not self._dso_local

    @property
    def may_be_derefined(self) -> bool:
        """The definition seen may not be the one that runs (LLVM ``mayBeDerefined``)."""
        lk = self._linkage
        if lk in (Linkage.WEAK_ODR, Linkage.LINKONCE_ODR, Linkage.AVAILABLE_EXTERNALLY):
            return True
        return self.is_interposable or self._is_nobuiltin_fn_def()

    def _is_nobuiltin_fn_def(self) -> bool:
        return False

    @property
    def has_exact_definition(self) -> bool:
        return not self.is_declaration and not self.may_be_derefined

    @property
    def is_definition_exact(self) -> bool:
        return not self.may_be_derefined

    @property
    def has_comdat(self) -> bool:
        return self.comdat is not None

    @property
    def comdat(self) -> Comdat | None:
        return None

    @property
    def base_object(self) -> GlobalObject | None:
        """The object this value stands for, through aliases."""
        return None

    def remove_from_parent(self) -> None:
        mod = self.parent
        if mod is None:
            raise IRError("global is not in a module")
        mod._list_of(self).remove(self)

    def erase_from_parent(self) -> None:
        """Detach and destroy. Refuses while the global is still used."""
        if self._use_head is not None:
            raise IRError("cannot erase %r: it still has %d use(s)" % (self, self.num_uses))
        if self.parent is not None:
            self.parent._list_of(self).remove(self)
        self._drop_metadata_wrapper()
        self.drop_all_references()

    def copy_attributes_from(self, src: GlobalValue) -> None:
        """Copy visibility, DLL storage, unnamed_addr, thread-local mode, dso_local, partition."""
        self._visibility = src._visibility
        self.dll_storage_class = src.dll_storage_class
        self.unnamed_addr = src.unnamed_addr
        self.thread_local_mode = src.thread_local_mode
        self._dso_local = src._dso_local
        self.partition = src.partition
        self.sanitizer_metadata = src.sanitizer_metadata


class GlobalObject(GlobalValue):
    """A global with storage or code: functions and global variables."""

    __slots__ = ("alignment", "section", "_comdat", "_global_md")

    alignment: int | None
    section: str

    def __init__(
        self,
        value_type: Type,
        name: str,
        linkage: Linkage,
        address_space: int,
        operands: Sequence[Value] = (),
    ) -> None:
        GlobalValue.__init__(self, value_type, name, linkage, address_space, operands)
        self.alignment = None
        """Alignment in bytes, or None when unspecified."""
        self.section = ""
        self._comdat: Comdat | None = None
        self._global_md: list[tuple[int, MDNode]] | None = None

    @property
    def comdat(self) -> Comdat | None:
        return self._comdat

    @comdat.setter
    def comdat(self, comdat: Comdat | None) -> None:
        if self._comdat is not None:
            self._comdat.users.discard(self)
        self._comdat = comdat
        if comdat is not None:
            comdat.users.add(self)

    @property
    def base_object(self) -> GlobalObject | None:
        return self

    def erase_from_parent(self) -> None:
        """As :meth:`GlobalValue.erase_from_parent`; also leaves its comdat
        (LLVM's ``GlobalObject`` destructor), so ``comdat.users`` stays exact."""
        GlobalValue.erase_from_parent(self)
        self.comdat = None

    # --- metadata attachments (several of one kind are allowed, as ``!type``) ---------------
    def get_metadata(self, kind: str) -> MDNode | None:
        """The first attachment of ``kind``."""
        kid = self.type.context.md_kinds.get(kind)
        if kid is None or not self._global_md:
            return None
        for k, node in self._global_md:
            if k == kid:
                return node
        return None

    def get_all_metadata(self, kind: str) -> list[MDNode]:
        kid = self.type.context.md_kinds.get(kind)
        if kid is None or not self._global_md:
            return []
        return [node for k, node in self._global_md if k == kid]

    def add_metadata(self, kind: str, node: MDNode) -> None:
        """Add an attachment (keeping existing ones of the same kind)."""
        kid = self.type.context.md_kind_id(kind)
        if self._global_md is None:
            self._global_md = []
        self._global_md.append((kid, node))

    def set_metadata(self, kind: str, node: MDNode | None) -> None:
        """Replace all attachments of ``kind`` by ``node`` (None removes them)."""
        kid = self.type.context.md_kind_id(kind)
        kept = [(k, n) for k, n in (self._global_md or []) if k != kid]
        if node is not None:
            kept.append((kid, node))
        self._global_md = kept or None

    def metadata_items(self) -> list[tuple[str, MDNode]]:
        """All attachments as (kind name, node), in attachment order."""
        if not self._global_md:
            return []
        names = self.type.context.md_kind_names
        return [(names[k], n) for k, n in self._global_md]

    def clear_metadata(self) -> None:
        self._global_md = None

    def copy_metadata_from(self, src: GlobalObject) -> None:
        self._global_md = list(src._global_md) if src._global_md else None

    def copy_attributes_from(self, src: GlobalValue) -> None:
        GlobalValue.copy_attributes_from(self, src)
        if isinstance(src, GlobalObject):
            self.alignment = src.alignment
            self.section = src.section


class GlobalVariable(GlobalObject):
    """``@g = [linkage] global|constant T init``. Operand 0 is the initialiser, if any."""

    __slots__ = ("is_constant_global", "externally_initialized", "code_model", "attributes")

    def __init__(
        self,
        value_type: Type,
        name: str = "",
        linkage: Linkage = Linkage.EXTERNAL,
        initializer: Constant | None = None,
        is_constant: bool = False,
        address_space: int = 0,
        module: Module | None = None,
    ) -> None:
        if initializer is not None and initializer.type is not value_type:
            raise IRError("initializer of type %s for a global of type %s" % (initializer.type, value_type))
        ops: tuple[Value, ...] = (initializer,) if initializer is not None else ()
        GlobalObject.__init__(self, value_type, name, linkage, address_space, ops)
        self.is_constant_global = is_constant
        """True for ``constant``, False for ``global``."""
        self.externally_initialized = False
        self.code_model = ""
        """``tiny``, ``small``, ``kernel``, ``medium``, ``large`` or empty."""
        from llvmpy_mid.ir.attributes import AttributeSet

        self.attributes = AttributeSet.EMPTY
        """Attributes of the variable (``attributes #0`` on globals)."""
        if module is not None:
            module.globals.append(self)

    @property
    def initializer(self) -> Constant | None:
        ops = self._operands
        return cast(Constant, ops[0].value) if ops else None

    @initializer.setter
    def initializer(self, init: Constant | None) -> None:
        ops = self._operands
        if init is None:
            if ops:
                self._truncate_operands(0)
            return
        if init.type is not self.value_type:
            raise IRError("initializer of type %s for a global of type %s" % (init.type, self.value_type))
        if ops:
            ops[0].set(init)
        else:
            ops.append(Use(init, self, 0))

    @property
    def has_initializer(self) -> bool:
        return bool(self._operands)

    @property
    def is_declaration(self) -> bool:
        return not self._operands

    @property
    def has_definitive_initializer(self) -> bool:
        """An initialiser that cannot change at link time or at run time."""
        return (
            bool(self._operands)
            and not self.is_interposable
            and not self.externally_initialized
            and not self.is_declaration
        )

    @property
    def has_unique_initializer(self) -> bool:
        return self.has_initializer and not self.is_weak_for_linker and not self.externally_initialized


# Constant expressions LLVM's ``findBaseObject`` looks through (operand 0);
# ``add``/``sub`` are handled apart. ``addrspacecast`` is not among them.
_ALIASEE_WRAPPERS = frozenset(("bitcast", "inttoptr", "ptrtoint", "getelementptr"))


def _find_base_object(start: Value, seen: set[int]) -> GlobalObject | None:
    """The object behind ``start`` (LLVM ``findBaseObject``): through aliases
    (each visited once), pointer casts and GEPs; of ``add`` the one side that
    has an object, of ``sub`` the left side unless the right one has one too."""
    current = start
    while True:
        if isinstance(current, GlobalObject):
            return current
        if isinstance(current, GlobalAlias):
            if id(current) in seen:
                return None
            seen.add(id(current))
            current = current.aliasee
            continue
        if not isinstance(current, ConstantExpr):
            return None
        opcode = current.opcode
        if opcode in _ALIASEE_WRAPPERS:
            current = current.get_operand(0)
        elif opcode == "add":
            lhs = _find_base_object(current.get_operand(0), seen)
            rhs = _find_base_object(current.get_operand(1), seen)
            return None if lhs is not None and rhs is not None else lhs or rhs
        elif opcode == "sub":
            if _find_base_object(current.get_operand(1), seen) is not None:
                return None
            current = current.get_operand(0)
        else:
            return None


class GlobalAlias(GlobalValue):
    """``@a = [linkage] alias T, ptr @aliasee``. Operand 0 is the aliasee."""

    __slots__ = ()

    def __init__(
        self,
        value_type: Type,
        name: str,
        aliasee: Constant,
        linkage: Linkage = Linkage.EXTERNAL,
        address_space: int = 0,
        module: Module | None = None,
    ) -> None:
        GlobalValue.__init__(self, value_type, name, linkage, address_space, (aliasee,))
        if module is not None:
            module.aliases.append(self)

    @property
    def aliasee(self) -> Constant:
        return cast(Constant, self._operands[0].value)

    @aliasee.setter
    def aliasee(self, value: Constant) -> None:
        self._operands[0].set(value)

    @property
    def base_object(self) -> GlobalObject | None:
        """Follow aliases and constant-expression wrappers to the object (LLVM ``getAliaseeObject``)."""
        return _find_base_object(self.aliasee, {id(self)})


class GlobalIFunc(GlobalObject):
    """``@f = [linkage] ifunc T, ptr @resolver``. Operand 0 is the resolver."""

    __slots__ = ()

    def __init__(
        self,
        value_type: Type,
        name: str,
        resolver: Constant,
        linkage: Linkage = Linkage.EXTERNAL,
        address_space: int = 0,
        module: Module | None = None,
    ) -> None:
        GlobalObject.__init__(self, value_type, name, linkage, address_space, (resolver,))
        if module is not None:
            module.ifuncs.append(self)

    @property
    def resolver(self) -> Constant:
        return cast(Constant, self._operands[0].value)

    @resolver.setter
    def resolver(self, value: Constant) -> None:
        self._operands[0].set(value)
