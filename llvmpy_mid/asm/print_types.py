"""Type text for the assembly printer, and the walk that finds a module's struct types.

:class:`TypePrinter` spells types as ``opt-19 -S`` does (``i32``,
``[4 x { ptr, i8 }]``, ``<vscale x 2 x i64>``, ``%struct.S``, ``%3``) and caches
each spelling for the printing session. Identified structs print by name; the
unnamed ones get numbers (``%0``, ``%1``...) in the order a module walk finds
them, and that walk (:func:`find_struct_types`) visits the module the way
LLVM's ``TypeFinder`` does: globals (value type, then initialiser), aliases,
ifuncs, then each function (its type, attribute types, its constant operands,
then every instruction's type, non-instruction operands, GEP source and alloca
types, call attribute types, non-``!dbg`` attachments and debug-record
values), then named metadata. Every walk is iterative (deeply nested types
and constants cannot overflow the stack).

It does not print values or metadata (``print_constants``, ``print_metadata``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from llvmpy_mid.ir.attributes import AttributeList, AttributeSet
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.names import escape_string
from llvmpy_mid.ir.types import (
    ArrayType,
    FunctionType,
    StructType,
    TargetExtType,
    Type,
    TypeID,
    VectorType,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.metadata import Metadata
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.value import Value

from llvmpy_mid.asm.print_metadata import node_operands
from llvmpy_mid.asm.print_names import local_name

_STRUCT = TypeID.STRUCT
_ARRAY = TypeID.ARRAY
_FUNCTION = TypeID.FUNCTION
_TARGET_EXT = TypeID.TARGET_EXT
_FIXED_VECTOR = TypeID.FIXED_VECTOR
_SCALABLE_VECTOR = TypeID.SCALABLE_VECTOR
_POINTER = TypeID.POINTER
_INTEGER = TypeID.INTEGER


def _subtypes(ty: Type) -> tuple[Type, ...]:
    """The contained types in LLVM's ``subtypes()`` order."""
    tid = ty.type_id
    if tid is _STRUCT:
        return ty.elements  # type: ignore[attr-defined,no-any-return]
    if tid is _ARRAY or tid is _FIXED_VECTOR or tid is _SCALABLE_VECTOR:
        return (ty.element_type,)  # type: ignore[attr-defined]
    if tid is _FUNCTION:
        assert isinstance(ty, FunctionType)
        return (ty.return_type,) + ty.params
    if tid is _TARGET_EXT:
        return ty.type_params  # type: ignore[attr-defined,no-any-return]
    return ()


class _AllFound(Exception):
    """Raised when every identified struct of the context has been found."""


class _TypeFinder:
    """LLVM's ``TypeFinder`` over one module, keeping only identified structs."""

    __slots__ = ("types", "structs", "constants", "metadata", "total")

    def __init__(self, total: int) -> None:
        self.total = total
        self.types: set[int] = set()
        self.structs: list[StructType] = []
        self.constants: set[int] = set()
        self.metadata: set[int] = set()

    def add_type(self, ty: Type) -> None:
        seen = self.types
        if id(ty) in seen:
            return
        seen.add(id(ty))
        work = [ty]
        while work:
            t = work.pop()
            if t.type_id is _STRUCT and not t.is_literal:  # type: ignore[attr-defined]
                self.structs.append(t)  # type: ignore[arg-type]
                if len(self.structs) >= self.total:
                    raise _AllFound
            subs = _subtypes(t)
            for i in range(len(subs) - 1, -1, -1):
                sub = subs[i]
                if id(sub) not in seen:
                    seen.add(id(sub))
                    work.append(sub)

    def add_attributes(self, attrs: AttributeList) -> None:
        for aset in attrs._sets:
            self.add_attribute_set(aset)

    def add_attribute_set(self, aset: AttributeSet) -> None:
        for attr in aset._attrs:
            ty = attr.type_value
            if ty is not None and attr.kind_number != 0:
                self.add_type(ty)

    def add_value(self, value: Value) -> None:
        """Constants (not globals) and metadata wrapped as values."""
        work: list[Value] = [value]
        seen = self.constants
        while work:
            v = work.pop()
            if v.is_metadata_as_value:
                self._add_md_of_value(v)
                continue
            if not v.is_constant or v.is_global_value:
                continue
            if id(v) in seen:
                continue
            seen.add(id(v))
            self.add_type(v.type)
            if type(v) is ConstantExpr:
                src = v.source_element_type
                if src is not None:
                    self.add_type(src)
            ops = v._operands  # type: ignore[attr-defined]
            for i in range(len(ops) - 1, -1, -1):
                work.append(ops[i].value)

    def _add_md_of_value(self, v: Value) -> None:
        md = v.metadata  # type: ignore[attr-defined]
        if md.is_md_node:
            self.add_md(md)
        elif md.is_value_as_metadata:
            self.add_value(md.value)
        elif md.is_di_arg_list:
            for arg in md.args:
                self.add_value(arg.value)

    def add_md(self, node: Metadata) -> None:
        """Depth-first over node operands in order, as LLVM's recursion does."""
        seen = self.metadata
        if id(node) in seen:
            return
        seen.add(id(node))
        if node.is_di_arg_list:
            for arg in node.args:  # type: ignore[attr-defined]
                self.add_value(arg.value)
            return
        frames: list[tuple[Sequence[Metadata | None], int]] = [(node_operands(node), 0)]  # type: ignore[arg-type]
        while frames:
            ops, i = frames.pop()
            n = len(ops)
            while i < n:
                op = ops[i]
                i += 1
                if op is None:
                    continue
                if op.is_md_node or op.is_di_arg_list:
                    if id(op) in seen:
                        continue
                    seen.add(id(op))
                    if op.is_di_arg_list:
                        for arg in op.args:  # type: ignore[attr-defined]
                            self.add_value(arg.value)
                        continue
                    frames.append((ops, i))
                    frames.append((node_operands(op), 0))  # type: ignore[arg-type]
                    break
                if op.is_constant_as_metadata:
                    self.add_value(op.value)  # type: ignore[attr-defined]


def find_struct_types(module: Module) -> list[StructType]:
    """The identified struct types a module uses, in LLVM's ``TypeFinder`` order.

    The walk stops as soon as every identified struct of the module's context
    has been found (nothing later could change the order)."""
    total = module.context.identified_struct_count
    if total == 0:
        return []
    tf = _TypeFinder(total)
    try:
        _walk(module, tf)
    except _AllFound:
        pass
    return tf.structs


def _walk(module: Module, tf: _TypeFinder) -> None:
    add_type = tf.add_type
    add_value = tf.add_value
    for gv in module.globals:
        add_type(gv.value_type)
        if gv._operands:
            add_value(gv._operands[0].value)
    for ga in module.aliases:
        add_type(ga.value_type)
        if ga._operands:
            add_value(ga._operands[0].value)
    for gi in module.ifuncs:
        add_type(gi.value_type)
    seen_types = tf.types
    seen_consts = tf.constants
    for fn in module.functions:
        add_type(fn.function_type)
        tf.add_attributes(fn.attributes)
        for use in fn._operands:
            add_value(use.value)
        for bb in fn.blocks:
            inst = bb.instructions._first
            while inst is not None:
                ty = inst.type
                if id(ty) not in seen_types:
                    add_type(ty)
                for use in inst._operands:
                    v = use.value
                    if v.is_constant:
                        # Globals add nothing; seen constants were walked already.
                        if not v.is_global_value and id(v) not in seen_consts:
                            add_value(v)
                    elif v.is_metadata_as_value:
                        add_value(v)
                cls = type(inst)
                if cls is GetElementPtrInst:
                    src = inst._source_element_type
                    if id(src) not in seen_types:
                        add_type(src)
                elif cls is AllocaInst:
                    alloc = inst._allocated_type
                    if id(alloc) not in seen_types:
                        add_type(alloc)
                if inst.is_call_base:
                    tf.add_attributes(inst.attributes)
                md = inst._md
                if md:
                    for kind in sorted(md):
                        if kind != 0:
                            tf.add_md(md[kind])
                recs = inst._dbg_records
                if recs:
                    for rec in recs:
                        if rec.is_variable_record:
                            for v in rec.location_values():
                                add_value(v)
                            if rec.is_dbg_assign:
                                addr = rec.address_value
                                if addr is not None:
                                    add_value(addr)
                inst = inst._next
    for nmd in module.named_metadata.values():
        for node in nmd._operands:
            tf.add_md(node)


class TypePrinter:
    """Spells types for one printing session (LLVM's ``TypePrinting``).

    With a module, identified structs without a name are numbered in the
    order :func:`find_struct_types` meets them; ``numbered`` and ``named``
    list the struct types the module header defines.
    """

    __slots__ = ("module", "_cache", "_numbers", "numbered", "named", "_incorporated")

    def __init__(self, module: Module | None = None) -> None:
        self.module = module
        self._cache: dict[int, str] = {}
        self._numbers: dict[int, int] = {}
        self.numbered: list[StructType] = []
        self.named: list[StructType] = []
        self._incorporated = module is None

    def incorporate(self) -> None:
        """Find the module's identified structs and number the unnamed ones."""
        if self._incorporated:
            return
        self._incorporated = True
        assert self.module is not None
        for st in find_struct_types(self.module):
            if st.name:
                self.named.append(st)
            else:
                self._numbers[id(st)] = len(self.numbered)
                self.numbered.append(st)

    @property
    def is_empty(self) -> bool:
        """No identified struct to define in the module header."""
        self.incorporate()
        return not self.numbered and not self.named

    def struct_body(self, st: StructType) -> str:
        """``{ i32, ptr }``, ``<{ i8 }>``, ``{}``, ``<{}>`` or ``opaque``."""
        if st.is_opaque:
            return "opaque"
        tstr = self.type_str
        if not st.elements:
            inner = "{}"
        else:
            inner = "{ " + ", ".join([tstr(e) for e in st.elements]) + " }"
        return "<" + inner + ">" if st.packed else inner

    def _leaf(self, ty: Type) -> str | None:
        """The text of a type that needs no sub-type text, or None."""
        tid = ty.type_id
        if tid is _INTEGER or tid is _POINTER:
            return ty._text  # type: ignore[attr-defined,no-any-return]
        if tid is _STRUCT:
            assert isinstance(ty, StructType)
            if ty.is_literal:
                return None
            if ty.name:
                return local_name(ty.name)
            self.incorporate()
            num = self._numbers.get(id(ty))
            if num is not None:
                return "%" + str(num)
            return '%"type ' + hex(id(ty)) + '"'
        if tid is _ARRAY or tid is _FUNCTION or tid is _TARGET_EXT or tid is _FIXED_VECTOR or tid is _SCALABLE_VECTOR:
            return None
        return str(ty)

    def type_str(self, ty: Type) -> str:
        """The text of ``ty`` (cached)."""
        cache = self._cache
        text = cache.get(id(ty))
        if text is not None:
            return text
        leaf = self._leaf(ty)
        if leaf is not None:
            cache[id(ty)] = leaf
            return leaf
        # Post-order over the composite types, without recursion.
        work: list[tuple[Type, bool]] = [(ty, False)]
        while work:
            t, ready = work.pop()
            if id(t) in cache:
                continue
            if not ready:
                leaf = self._leaf(t)
                if leaf is not None:
                    cache[id(t)] = leaf
                    continue
                work.append((t, True))
                for sub in _subtypes(t):
                    if id(sub) not in cache:
                        work.append((sub, False))
                continue
            cache[id(t)] = self._compose(t, cache)
        return cache[id(ty)]

    def _compose(self, t: Type, cache: dict[int, str]) -> str:
        tid = t.type_id
        if tid is _ARRAY:
            assert isinstance(t, ArrayType)
            return "[%d x %s]" % (t.count, cache[id(t.element_type)])
        if tid is _FIXED_VECTOR or tid is _SCALABLE_VECTOR:
            assert isinstance(t, VectorType)
            if t.scalable:
                return "<vscale x %d x %s>" % (t.count, cache[id(t.element_type)])
            return "<%d x %s>" % (t.count, cache[id(t.element_type)])
        if tid is _FUNCTION:
            assert isinstance(t, FunctionType)
            parts = [cache[id(p)] for p in t.params]
            if t.is_vararg:
                parts.append("...")
            return "%s (%s)" % (cache[id(t.return_type)], ", ".join(parts))
        if tid is _TARGET_EXT:
            assert isinstance(t, TargetExtType)
            items = ['"' + escape_string(t.name) + '"']
            items.extend(cache[id(p)] for p in t.type_params)
            items.extend(str(i) for i in t.int_params)
            return "target(" + ", ".join(items) + ")"
        assert isinstance(t, StructType)
        return _literal_body(t, cache)

    def type_list(self, types: Iterable[Type]) -> str:
        return ", ".join([self.type_str(t) for t in types])


def _literal_body(st: StructType, cache: dict[int, str]) -> str:
    if not st.elements:
        inner = "{}"
    else:
        inner = "{ " + ", ".join([cache[id(e)] for e in st.elements]) + " }"
    return "<" + inner + ">" if st.packed else inner


__all__ = ["TypePrinter", "find_struct_types"]
