"""Functions and their arguments (LLVM ``Function``, ``Argument``).

A function owns its blocks (entry first) in an intrusive list and a symbol
table for the names of its arguments, blocks and instructions. The optional
personality, prefix and prologue constants are operands, as in LLVM, so
replacing a global updates them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, cast

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.attributes import AttributeList, AttributeSet
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.global_value import GlobalObject, GlobalValue, Linkage
from llvmpy_mid.ir.ilist import IList
from llvmpy_mid.ir.symbol_table import ValueSymbolTable
from llvmpy_mid.ir.types import FunctionType, Type
from llvmpy_mid.ir.value import Use, Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.module import Module

# Operand slots of the optional constants (the Use.index of each).
_PERSONALITY = 0
_PREFIX = 1
_PROLOGUE = 2


class Argument(Value):
    """A formal parameter. ``arg_no`` is its position."""

    __slots__ = ("parent", "arg_no")

    is_argument = True

    parent: Function

    def __init__(self, type: Type, parent: Function, arg_no: int, name: str = "") -> None:
        Value.__init__(self, type, name)
        self.parent = parent
        self.arg_no = arg_no

    def _symbol_table(self) -> ValueSymbolTable | None:
        return self.parent.symbol_table

    def _numbering_changed(self) -> None:
        self.parent._repr_cache = None

    @property
    def attributes(self) -> AttributeSet:
        """This parameter's attribute set."""
        return self.parent.attributes.param_attrs(self.arg_no)

    def has_attribute(self, kind: str) -> bool:
        return self.parent.attributes.has_param_attr(self.arg_no, kind)


class Function(GlobalObject):
    """``define``/``declare`` of a function. ``blocks`` is O(1)-editable; entry first."""

    __slots__ = (
        "function_type",
        "args",
        "blocks",
        "symbol_table",
        "calling_conv",
        "attributes",
        "gc",
        "intrinsic_id",
        "_repr_cache",
    )

    function_type: FunctionType
    args: tuple[Argument, ...]
    calling_conv: int
    attributes: AttributeList
    gc: str

    def __init__(
        self,
        function_type: FunctionType,
        name: str = "",
        linkage: Linkage = Linkage.EXTERNAL,
        module: Module | None = None,
        address_space: int | None = None,
        arg_names: tuple[str, ...] | list[str] = (),
    ) -> None:
        if not isinstance(function_type, FunctionType):
            if isinstance(name, FunctionType):
                raise TypeError("Function(function_type, name, ...): the function type comes first, then the name")
            raise TypeError(
                "Function(function_type, name, ...): the first argument must be a FunctionType, not %s%s;"
                " make one with ctx.function_type(return_type, [param types])"
                % (type(function_type).__name__, " (%s)" % function_type if isinstance(function_type, Type) else "")
            )
        if not isinstance(name, str):
            raise TypeError("Function: the name must be a str, not %s" % type(name).__name__)
        if not isinstance(linkage, Linkage):
            raise TypeError("Function: linkage must be a Linkage, not %s (pass module= by keyword)" % type(linkage).__name__)
        if module is not None and not hasattr(module, "functions"):
            raise TypeError("Function: module must be a Module, not %s" % type(module).__name__)
        if isinstance(arg_names, str):
            raise TypeError("Function: arg_names must be a list of str, not one str")
        if address_space is None:
            address_space = module.data_layout.program_addr_space if module is not None else 0
        GlobalObject.__init__(self, function_type, name, linkage, address_space)
        self._repr_cache: object | None = None
        """The slot numbering ``repr()`` of this function's values uses; dropped on every edit."""
        self.function_type = function_type
        self.symbol_table = ValueSymbolTable(is_global=False)
        self.blocks: IList[BasicBlock] = IList(self)
        self.calling_conv = 0
        """LLVM calling-convention id (see ``calling_conv``); 0 is C."""
        self.attributes = AttributeList.EMPTY
        self.gc = ""
        """Garbage-collector name, or empty."""
        self.intrinsic_id = name.startswith("llvm.")
        args = []
        for i, ty in enumerate(function_type.params):
            args.append(Argument(ty, self, i))
        self.args = tuple(args)
        for arg, arg_name in zip(self.args, arg_names):
            if arg_name:
                arg.set_name(arg_name)
        if module is not None:
            module.functions.append(self)

    # --- list ownership hooks (blocks) ------------------------------------------------
    def _node_added(self, bb: BasicBlock) -> None:
        bb.parent = self
        self._repr_cache = None
        table = self.symbol_table
        if bb._name:
            bb._name = table.insert_unique(bb._name, bb)
        for inst in bb.instructions:
            if inst._name:
                inst._name = table.insert_unique(inst._name, inst)

    def _node_removed(self, bb: BasicBlock) -> None:
        self._repr_cache = None
        table = self.symbol_table
        if bb._name:
            table.remove(bb)
        for inst in bb.instructions:
            if inst._name:
                table.remove(inst)
        bb.parent = None

    def set_name(self, new: str) -> str:
        result = GlobalObject.set_name(self, new)
        self.intrinsic_id = result.startswith("llvm.")
        return result

    # --- structure -------------------------------------------------------------------------
    @property
    def return_type(self) -> Type:
        return self.function_type.return_type

    @property
    def is_vararg(self) -> bool:
        return self.function_type.is_vararg

    @property
    def is_declaration(self) -> bool:
        return self.blocks._first is None

    @property
    def is_intrinsic(self) -> bool:
        """Named ``llvm.*``."""
        return self.intrinsic_id

    @property
    def entry_block(self) -> BasicBlock:
        first: BasicBlock | None = self.blocks._first
        if first is None:
            raise IRError("function %s has no body" % self.name)
        return first

    def append_block(self, name: str = "") -> BasicBlock:
        """Create a new block at the end of the function."""
        return BasicBlock(self.type.context, name, parent=self)

    def instructions(self) -> Iterator[Value]:
        """Every instruction, block by block."""
        for bb in self.blocks:
            yield from bb.instructions

    @property
    def instruction_count(self) -> int:
        return sum(len(bb.instructions) for bb in self.blocks)

    def get_arg(self, index: int) -> Argument:
        return self.args[index]

    def delete_body(self) -> None:
        """Drop every block, turning the definition into a declaration (LLVM ``deleteBody``)."""
        self.drop_all_references()
        self.linkage = Linkage.EXTERNAL

    def drop_all_references(self) -> None:
        """Delete the body, the personality/prefix/prologue operands and the
        metadata attachments (LLVM ``Function::dropAllReferences``); erasing the
        function calls this, so its instructions stop using other values."""
        for bb in self.blocks:
            for inst in bb.instructions:
                inst.drop_all_references()
        for bb in list(self.blocks):
            for inst in list(bb.instructions):
                inst._dbg_records = None
                inst.erase_from_parent()
            bb._drop_address_taken_uses()
            self.blocks.remove(bb)
        self.personality = None
        self.prefix_data = None
        self.prologue_data = None
        self.clear_metadata()

    # --- optional constant operands --------------------------------------------------------
    def _get_optional(self, slot: int) -> Constant | None:
        for use in self._operands:
            if use.index == slot:
                return cast(Constant, use.value)
        return None

    def _set_optional(self, slot: int, value: Constant | None) -> None:
        ops = self._operands
        for i, use in enumerate(ops):
            if use.index == slot:
                if value is None:
                    use._unlink()
                    del ops[i]
                else:
                    use.set(value)
                return
        if value is not None:
            ops.append(Use(value, self, slot))
            ops.sort(key=lambda u: u.index)

    @property
    def personality(self) -> Constant | None:
        return self._get_optional(_PERSONALITY)

    @personality.setter
    def personality(self, value: Constant | None) -> None:
        self._set_optional(_PERSONALITY, value)

    @property
    def prefix_data(self) -> Constant | None:
        return self._get_optional(_PREFIX)

    @prefix_data.setter
    def prefix_data(self, value: Constant | None) -> None:
        self._set_optional(_PREFIX, value)

    @property
    def prologue_data(self) -> Constant | None:
        return self._get_optional(_PROLOGUE)

    @prologue_data.setter
    def prologue_data(self, value: Constant | None) -> None:
        self._set_optional(_PROLOGUE, value)

    # --- attributes ---------------------------------------------------------------------------
    def has_fn_attribute(self, kind: str) -> bool:
        return self.attributes.has_fn_attr(kind)

    def has_param_attribute(self, index: int, kind: str) -> bool:
        return self.attributes.has_param_attr(index, kind)

    def _is_nobuiltin_fn_def(self) -> bool:
        return not self.is_declaration and self.attributes.has_fn_attr("nobuiltin")

    @property
    def does_not_throw(self) -> bool:
        return self.attributes.has_fn_attr("nounwind")

    @property
    def does_not_return(self) -> bool:
        return self.attributes.has_fn_attr("noreturn")

    def _repr_html_(self) -> str:
        """The function's IR text in a ``<pre>`` block (Jupyter shows it)."""
        from llvmpy_mid.ir import _printing

        return _printing.html_listing(str(self))

    def to_dot(self, *, cfg_only: bool = False) -> str:
        """The ``dot-cfg`` (``cfg_only``: ``dot-cfg-only``) text of this function (imports the
        analysis layer lazily)."""
        from llvmpy_mid.analysis.dot_graphs import function_to_dot

        return function_to_dot(self, cfg_only=cfg_only)

    def to_dot_graph(self, *, cfg_only: bool = False) -> object:
        """A :class:`llvmpy_mid.analysis.dot_graphs.DotGraph` (SVG in notebooks when Graphviz is installed)."""
        from llvmpy_mid.analysis.dot_graphs import DotGraph, function_to_dot

        return DotGraph(function_to_dot(self, cfg_only=cfg_only))

    def copy_attributes_from(self, src: GlobalValue) -> None:
        """Copy linkage-independent properties of another global (LLVM
        ``Function::copyAttributesFrom``): visibility, section, alignment and,
        from a function, attributes, calling convention, GC and the optional
        constants."""
        GlobalObject.copy_attributes_from(self, src)
        if isinstance(src, Function):
            self.calling_conv = src.calling_conv
            self.attributes = src.attributes
            self.gc = src.gc
            self.personality = src.personality
            self.prefix_data = src.prefix_data
            self.prologue_data = src.prologue_data


def null_pointer_is_defined(fn: Function | None, address_space: int = 0) -> bool:
    """LLVM ``NullPointerIsDefined`` (IR/Function.cpp): address 0 is a valid
    object in ``fn`` -- any non-zero address space, or a function marked
    ``null_pointer_is_valid``."""
    if fn is not None and fn.attributes.has_fn_attr("null_pointer_is_valid"):
        return True
    return address_space != 0
