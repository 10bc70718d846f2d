"""Modules (LLVM ``Module``): the unit of IR a program reads, transforms and prints.

A module holds, each in insertion order, its global variables, functions,
aliases and ifuncs (one shared name table, with ``.N`` suffixes on
clashes), named metadata, comdats, the data layout and target triple, and
module-level inline assembly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Union

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir import _printing
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import (
    Comdat,
    ComdatSelection,
    GlobalAlias,
    GlobalIFunc,
    GlobalValue,
    GlobalVariable,
    Linkage,
)
from llvmpy_mid.ir.ilist import IList
from llvmpy_mid.ir.symbol_table import ValueSymbolTable
from llvmpy_mid.ir.types import FunctionType, Type

if TYPE_CHECKING:
    from llvmpy_mid.ir.metadata import NamedMDNode

AnyGlobal = Union[GlobalVariable, Function, GlobalAlias, GlobalIFunc]


class Module:
    """A module. ``Module(name, ctx)``; a fresh context is made when none is given."""

    __slots__ = (
        "name",
        "context",
        "source_filename",
        "_data_layout_text",
        "_data_layout",
        "target_triple",
        "module_asm",
        "globals",
        "functions",
        "aliases",
        "ifuncs",
        "named_metadata",
        "comdats",
        "symbol_table",
        "_edit_epoch",
    )

    def __init__(self, name: str = "", context: Context | None = None) -> None:
        if not isinstance(name, str):
            raise TypeError("Module(name='', context=None): the name must be a str, not %s" % type(name).__name__)
        if context is not None and not isinstance(context, Context):
            raise TypeError("Module: context must be a Context, not %s" % type(context).__name__)
        self._edit_epoch = 0
        """Counts changes of the global lists and global names (keys ``repr()``'s cached numbering)."""
        self.name = name
        self.context = context if context is not None else Context()
        self.source_filename = name
        self._data_layout_text = ""
        self._data_layout: DataLayout | None = None
        self.target_triple = ""
        self.module_asm: list[str] = []
        """Lines of module-level inline assembly."""
        self.symbol_table = ValueSymbolTable(is_global=True)
        self.globals: IList[GlobalVariable] = IList(self)
        self.functions: IList[Function] = IList(self)
        self.aliases: IList[GlobalAlias] = IList(self)
        self.ifuncs: IList[GlobalIFunc] = IList(self)
        self.named_metadata: dict[str, NamedMDNode] = {}
        self.comdats: dict[str, Comdat] = {}

    # --- ownership hooks ---------------------------------------------------------------
    def _node_added(self, gv: GlobalValue) -> None:
        if gv.parent is not None and gv.parent is not self:
            raise IRError("global %r belongs to another module" % gv)
        if gv.type.context is not self.context:
            raise IRError("global %r was made in another context" % gv)
        gv.parent = self
        self._edit_epoch += 1
        if gv._name:
            gv._name = self.symbol_table.insert_unique(gv._name, gv)

    def _node_removed(self, gv: GlobalValue) -> None:
        self._edit_epoch += 1
        if gv._name:
            self.symbol_table.remove(gv)
        gv.parent = None

    def _list_of(self, gv: GlobalValue) -> IList[Any]:
        if isinstance(gv, Function):
            return self.functions
        if isinstance(gv, GlobalVariable):
            return self.globals
        if isinstance(gv, GlobalAlias):
            return self.aliases
        return self.ifuncs

    # --- data layout -------------------------------------------------------------------------
    @property
    def data_layout(self) -> DataLayout:
        """The parsed layout (LLVM's default when the module has none)."""
        dl = self._data_layout
        if dl is None:
            dl = DataLayout.parse(self._data_layout_text) if self._data_layout_text else DataLayout.default()
            self._data_layout = dl
        return dl

    @data_layout.setter
    def data_layout(self, layout: DataLayout | str) -> None:
        if isinstance(layout, str):
            self._data_layout = DataLayout.parse(layout) if layout else None
            self._data_layout_text = layout
        else:
            self._data_layout = layout
            self._data_layout_text = str(layout)

    @property
    def data_layout_text(self) -> str:
        """The layout string as given (empty when the module has none)."""
        return self._data_layout_text

    # --- lookup ---------------------------------------------------------------------------------
    def get_named_value(self, name: str) -> GlobalValue | None:
        value = self.symbol_table.lookup(name)
        return value if isinstance(value, GlobalValue) else None

    def get_function(self, name: str) -> Function | None:
        value = self.symbol_table.lookup(name)
        return value if isinstance(value, Function) else None

    def get_global(self, name: str) -> GlobalVariable | None:
        """The global variable ``name`` (LLVM ``getGlobalVariable``, internal ones included)."""
        value = self.symbol_table.lookup(name)
        return value if isinstance(value, GlobalVariable) else None

    def get_alias(self, name: str) -> GlobalAlias | None:
        value = self.symbol_table.lookup(name)
        return value if isinstance(value, GlobalAlias) else None

    def get_ifunc(self, name: str) -> GlobalIFunc | None:
        value = self.symbol_table.lookup(name)
        return value if isinstance(value, GlobalIFunc) else None

    def global_values(self) -> Iterator[GlobalValue]:
        """Variables, then functions, then aliases, then ifuncs."""
        yield from self.globals
        yield from self.functions
        yield from self.aliases
        yield from self.ifuncs

    # --- creation ---------------------------------------------------------------------------------
    def add_function(self, name: str, function_type: FunctionType, linkage: Linkage = Linkage.EXTERNAL) -> Function:
        """A new function appended to the module (renamed ``name.N`` on a clash)."""
        return Function(function_type, name, linkage, module=self)

    def get_or_insert_function(self, name: str, function_type: FunctionType) -> Function:
        """The existing function ``name`` or a new declaration of it."""
        existing = self.symbol_table.lookup(name)
        if existing is not None:
            if not isinstance(existing, Function):
                raise IRError("@%s exists and is not a function" % name)
            return existing
        return Function(function_type, name, Linkage.EXTERNAL, module=self)

    def add_global(
        self,
        value_type: Type,
        name: str = "",
        linkage: Linkage = Linkage.EXTERNAL,
        initializer: object = None,
        is_constant: bool = False,
        address_space: int = 0,
    ) -> GlobalVariable:
        from llvmpy_mid.ir.constants import Constant

        if initializer is not None and not isinstance(initializer, Constant):
            raise IRError("a global's initializer must be a constant")
        return GlobalVariable(value_type, name, linkage, initializer, is_constant, address_space, module=self)

    def get_or_insert_comdat(self, name: str, selection: ComdatSelection = ComdatSelection.ANY) -> Comdat:
        comdat = self.comdats.get(name)
        if comdat is None:
            comdat = self.comdats[name] = Comdat(name, selection)
        return comdat

    # --- named metadata -----------------------------------------------------------------------------
    def get_named_metadata(self, name: str) -> NamedMDNode | None:
        return self.named_metadata.get(name)

    def get_or_insert_named_metadata(self, name: str) -> NamedMDNode:
        from llvmpy_mid.ir.metadata import NamedMDNode

        node = self.named_metadata.get(name)
        if node is None:
            node = NamedMDNode(name, self)
            self.named_metadata[name] = node
        return node

    @property
    def semantic_interposition(self) -> bool:
        """The ``SemanticInterposition`` module flag."""
        from llvmpy_mid.ir.module_flags import get_module_flag_int

        return bool(get_module_flag_int(self, "SemanticInterposition"))

    # --- printing --------------------------------------------------------------------------------------
    def callgraph_dot(self) -> str:
        """The ``dot-callgraph`` text of this module (imports the analysis layer lazily)."""
        from llvmpy_mid.analysis.dot_graphs import module_callgraph_dot

        return module_callgraph_dot(self)

    def __str__(self) -> str:
        return _printing.format_module(self)

    def __repr__(self) -> str:
        n_fn = len(self.functions)
        n_gv = len(self.globals)
        counts = "%d function%s" % (n_fn, "" if n_fn == 1 else "s")
        if n_gv:
            counts += ", %d global%s" % (n_gv, "" if n_gv == 1 else "s")
        return "<Module %r (%s)>" % (self.name, counts)

    def _repr_html_(self) -> str:
        """The module's IR text in a ``<pre>`` block (Jupyter shows it)."""
        return _printing.html_listing(str(self))
