"""Core metadata (LLVM ``Metadata``, ``MDString``, ``MDNode``, ``ValueAsMetadata``,
``MetadataAsValue``, ``DIArgList``, ``NamedMDNode``).

Metadata is not a :class:`~llvmpy_mid.ir.value.Value`: it has no type and no
use-list. Strings and uniqued nodes live in their context's tables, so equal
ones are the same object (``MDNode.get(ctx, ops) is MDNode.get(ctx, ops)``);
``distinct`` nodes are never merged; ``temporary`` nodes stand in for nodes
not built yet (a parser's forward reference ``!5``) until
:meth:`MDNode.replace_all_uses_with` swaps in the real one.

How changes reach the holders of metadata. Only metadata that can change
identity keeps a list of its holders (``_users``, a dict used as an ordered
set): a ``ValueAsMetadata`` (its value can be replaced or deleted), a
``DIArgList`` (re-uniqued when one of its values changes), and an *unresolved*
node — a temporary, or a uniqued node that refers (transitively) to a
temporary and so may still be re-uniqued. A resolved node never changes
identity, so nobody tracks it and building the graph costs nothing extra. A
holder is any object with a ``_metadata_changed(old, new)`` method (nodes,
``MetadataAsValue``, ``DIArgList``, ``NamedMDNode``, debug records); register
one with :func:`track_metadata` and :func:`untrack_metadata`.

What follows LLVM 19 exactly (checked with ``opt-19``):

* ``Value.replace_all_uses_with`` re-points the value's wrapper (merging with
  the new value's wrapper if it has one); a local value replaced by a constant
  gets a fresh ``ConstantAsMetadata``; a constant replaced by a local value is
  dropped (holders see ``null``).
* Deleting a value: a node operand becomes ``null`` and a uniqued node that
  loses a constant this way becomes distinct (``globaldce`` turns
  ``!0 = !{ptr @g}`` into ``!0 = distinct !{null}``); a ``DIArgList`` element
  and a debug record's location become ``poison`` of the old type
  (``#dbg_value(ptr poison, ...)``); a ``MetadataAsValue`` becomes ``!{}``.
* A uniqued node whose operand change makes it equal to another node is merged
  into that node when it is still unresolved, else it becomes distinct; a
  uniqued node that comes to refer to itself becomes distinct (``!0 = !{!0}``
  prints as ``distinct !{!0}``).
* ``MetadataAsValue.get`` canonicalises ``!{}``/``!{null}`` to ``!{}`` and looks
  through ``!{<constant>}`` (``metadata !{i32 1}`` prints ``metadata i32 1``).

Not done here: the debug-info node kinds (``debug_info.py``), debug records
(``debug_records.py``), attachments on instructions and globals (their own
classes), text (``llvmpy_mid.asm``). The "a local value moved to another
function" case of LLVM's RAUW (it drops the wrapper) is not modelled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Iterator, Protocol, Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constants import PoisonValue
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.types import Type


class MetadataUser(Protocol):
    """Anything that holds metadata that may change identity."""

    def _metadata_changed(self, old: Metadata, new: Metadata | None) -> None:
        """``old`` is replaced by ``new`` (None: dropped or deleted)."""


# Node storage kinds.
UNIQUED = 0
DISTINCT = 1
TEMPORARY = 2
DELETED = 3


class Metadata:
    """Base of all metadata. Compared by identity."""

    __slots__ = ("_users",)

    is_md_string: ClassVar[bool] = False
    is_md_node: ClassVar[bool] = False
    is_md_tuple: ClassVar[bool] = False
    is_di_node: ClassVar[bool] = False
    is_value_as_metadata: ClassVar[bool] = False
    is_constant_as_metadata: ClassVar[bool] = False
    is_local_as_metadata: ClassVar[bool] = False
    is_di_arg_list: ClassVar[bool] = False

    _users: dict[MetadataUser, None] | None

    @property
    def is_tracked(self) -> bool:
        """True when holders must register (the metadata may change identity)."""
        return self._users is not None

    @property
    def num_tracking_users(self) -> int:
        users = self._users
        return len(users) if users is not None else 0

    def _replace_all_uses_with(self, new: Metadata | None) -> None:
        """Tell every registered holder that ``self`` is now ``new``."""
        users = self._users
        if not users:
            return
        for holder in list(users):
            holder._metadata_changed(self, new)
        # Holders untrack themselves; drop stragglers that did not.
        if self._users is not None:
            self._users.clear()


def track_metadata(md: object, holder: MetadataUser) -> None:
    """Register ``holder`` with ``md`` if ``md`` is metadata that needs tracking."""
    if isinstance(md, Metadata):
        users = md._users
        if users is not None:
            users[holder] = None


def untrack_metadata(md: object, holder: MetadataUser) -> None:
    if isinstance(md, Metadata):
        users = md._users
        if users is not None:
            users.pop(holder, None)


# --- strings ------------------------------------------------------------------------------------


class MDString(Metadata):
    """``!"text"``. ``string`` is the text; bytes that are not UTF-8 are kept as
    surrogate escapes, so :attr:`bytes` gives back the exact byte string."""

    __slots__ = ("string",)

    is_md_string = True

    string: str

    def __init__(self, string: str) -> None:
        self._users = None
        self.string = string

    @staticmethod
    def get(ctx: Context, text: str | bytes) -> MDString:
        if not isinstance(text, str):
            text = text.decode("utf-8", "surrogateescape")
        table = ctx.metadata_strings
        md = table.get(text)
        if md is None:
            md = table[text] = MDString(text)
        return md

    @property
    def bytes(self) -> bytes:
        return self.string.encode("utf-8", "surrogateescape")

    def __len__(self) -> int:
        return len(self.bytes)

    def __repr__(self) -> str:
        return "<MDString %r>" % self.string


# --- nodes ----------------------------------------------------------------------------------------


class MDNode(Metadata):
    """A node of metadata operands: uniqued, distinct or temporary.

    Subclasses store their operands their own way and implement ``_key``,
    ``_refs``, ``_count_refs``, ``_replace_refs``, ``operands`` and
    ``_set_operand_raw``; the uniquing and tracking logic lives here.
    """

    __slots__ = ("context", "_storage", "_unresolved")

    is_md_node = True

    context: Context
    _storage: int
    _unresolved: int

    # --- factories (plain tuples; DI nodes have their own) ----------------------------------
    @staticmethod
    def get(ctx: Context, operands: Sequence[Metadata | None]) -> MDNode:
        """The uniqued tuple ``!{...}`` of ``operands`` (None is ``null``)."""
        return MDTuple.get(ctx, operands)

    @staticmethod
    def distinct(ctx: Context, operands: Sequence[Metadata | None]) -> MDNode:
        """A new ``distinct !{...}``."""
        return MDTuple.distinct(ctx, operands)

    @staticmethod
    def temporary(ctx: Context, operands: Sequence[Metadata | None] = ()) -> MDNode:
        """A new temporary tuple, to be replaced with :meth:`replace_all_uses_with`."""
        return MDTuple.temporary(ctx, operands)

    # --- subclass interface -------------------------------------------------------------------
    def _key(self) -> Any:
        raise NotImplementedError

    def _refs(self) -> Iterable[Metadata]:
        """Every metadata object this node refers to (one entry per slot)."""
        raise NotImplementedError

    def _count_refs(self, md: Metadata) -> int:
        n = 0
        for ref in self._refs():
            if ref is md:
                n += 1
        return n

    def _replace_refs(self, old: Metadata, new: Metadata | None) -> None:
        """Replace every reference to ``old`` by ``new`` in the storage."""
        raise NotImplementedError

    def _set_operand_raw(self, index: int, md: Metadata | None) -> None:
        raise NotImplementedError

    @property
    def operands(self) -> tuple[Metadata | None, ...]:
        raise NotImplementedError

    # --- queries ---------------------------------------------------------------------------------
    @property
    def num_operands(self) -> int:
        return len(self.operands)

    def get_operand(self, index: int) -> Metadata | None:
        return self.operands[index]

    @property
    def is_uniqued(self) -> bool:
        return self._storage == UNIQUED

    @property
    def is_distinct(self) -> bool:
        return self._storage == DISTINCT

    @property
    def is_temporary(self) -> bool:
        return self._storage == TEMPORARY

    @property
    def is_deleted(self) -> bool:
        """True once the node was merged into an equal one or deleted."""
        return self._storage == DELETED

    @property
    def is_resolved(self) -> bool:
        """False for temporaries and for uniqued nodes that still refer to one."""
        return self._users is None

    # --- construction helpers ---------------------------------------------------------------
    def _init_node(self, ctx: Context, storage: int) -> None:
        self.context = ctx
        self._storage = storage
        self._unresolved = 0
        self._users = None

    def _start_tracking(self) -> None:
        """Register with the operands that need it; decide whether we are resolved."""
        unresolved = 0
        for md in self._refs():
            users = md._users
            if users is not None:
                users[self] = None
                if md.is_md_node:
                    unresolved += 1
        self._unresolved = unresolved
        storage = self._storage
        if storage == TEMPORARY or (storage == UNIQUED and unresolved):
            self._users = {}

    def _unique(self) -> MDNode:
        """Insert a freshly built uniqued node, or return the equal existing one."""
        table = self.context.metadata_nodes
        key = self._key()
        existing = table.get(key)
        if existing is not None:
            return existing  # type: ignore[no-any-return]
        table[key] = self
        self._start_tracking()
        return self

    def _stop_tracking(self) -> None:
        for md in self._refs():
            users = md._users
            if users is not None:
                users.pop(self, None)

    # --- changes -------------------------------------------------------------------------------
    def replace_operand_with(self, index: int, md: Metadata | None) -> None:
        """Set operand ``index``. A uniqued node is re-uniqued: if it becomes
        equal to another node it is merged into it when still unresolved (its
        holders move over and this node is deleted), else it turns distinct."""
        old = self.operands[index]
        if old is md:
            return
        self._check_alive()
        self._leave_table()
        self._set_operand_raw(index, md)
        if old is not None and self._count_refs(old) == 0:
            untrack_metadata(old, self)
        self._account(old, md, 1)
        self._reenter_table(old, md)

    def _check_alive(self) -> None:
        if self._storage == DELETED:
            raise IRError("metadata node was deleted (merged into an equal node)")

    def _leave_table(self) -> None:
        if self._storage == UNIQUED:
            table = self.context.metadata_nodes
            key = self._key()
            if table.get(key) is self:
                del table[key]

    def _account(self, old: Metadata | None, new: Metadata | None, slots: int) -> None:
        """Update tracking and the unresolved count after ``slots`` slots moved from old to new.

        Only a node that is itself unresolved counts unresolved operands; a
        resolved uniqued node given a temporary stays resolved and turns
        distinct if the temporary's replacement makes it collide."""
        counting = self._users is not None
        if new is not None:
            users = new._users
            if users is not None:
                users[self] = None
                if counting and new.is_md_node and new is not self:
                    self._unresolved += slots
        if counting and old is not None and old.is_md_node and old._users is not None and old is not self:
            self._unresolved -= slots

    def _reenter_table(self, old: Metadata | None, new: Metadata | None) -> None:
        if self._storage != UNIQUED:
            return
        if new is self or (new is None and old is not None and old.is_constant_as_metadata):
            # Self-reference or a deleted constant: store distinct (LLVM does too).
            self._make_distinct()
            return
        table = self.context.metadata_nodes
        key = self._key()
        existing = table.get(key)
        if existing is None:
            table[key] = self
            if self._users is not None and self._unresolved <= 0:
                self._resolve()
            return
        if self._users is not None:
            # Still unresolved: everyone who holds us moves to the equal node.
            self._stop_tracking()
            self._storage = DELETED
            self._replace_all_uses_with(existing)
            self._users = None
        else:
            self._make_distinct()

    def _make_distinct(self) -> None:
        self._storage = DISTINCT
        if self._users is not None:
            self._resolve()

    def _resolve(self) -> None:
        """Mark resolved and let uniqued holders that only waited for us resolve too."""
        work: list[MDNode] = [self]
        while work:
            node = work.pop()
            users = node._users
            if users is None:
                continue
            node._users = None
            node._unresolved = 0
            for holder in users:
                if isinstance(holder, MDNode) and holder._users is not None and holder._storage == UNIQUED:
                    holder._unresolved -= holder._count_refs(node)
                    if holder._unresolved <= 0:
                        work.append(holder)

    def _metadata_changed(self, old: Metadata, new: Metadata | None) -> None:
        if self._storage == DELETED:
            return
        slots = self._count_refs(old)
        if slots == 0:
            untrack_metadata(old, self)
            return
        self._leave_table()
        self._replace_refs(old, new)
        untrack_metadata(old, self)
        self._account(old, new, slots)
        self._reenter_table(old, new)

    def replace_all_uses_with(self, new: Metadata | None) -> None:
        """Replace this temporary (or unresolved) node everywhere it is held.
        The temporary itself stays alive (delete it with :meth:`delete_temporary`)."""
        if new is self:
            raise IRError("replace_all_uses_with: a node cannot replace itself")
        if self._users is None:
            raise IRError("replace_all_uses_with is only possible on temporary or unresolved nodes")
        self._replace_all_uses_with(new)

    def delete_temporary(self) -> None:
        """Forget a temporary node (it must no longer be held)."""
        if self._storage != TEMPORARY:
            raise IRError("delete_temporary: node is not temporary")
        if self._users:
            raise IRError("delete_temporary: temporary node is still referenced")
        self._stop_tracking()
        self._storage = DELETED
        self._users = None

    def resolve_cycles(self) -> None:
        """Force this node and the unresolved uniqued nodes it reaches to count as
        resolved (after a parser replaced every temporary; uniqued cycles such as
        ``!1 = !{!2}``, ``!2 = !{!1}`` otherwise stay unresolved forever)."""
        stack: list[MDNode] = [self]
        while stack:
            node = stack.pop()
            if node._storage != UNIQUED or node._users is None:
                continue
            for md in node._refs():
                if md.is_md_node and md._users is not None and md is not node:
                    stack.append(md)  # type: ignore[arg-type]
            node._resolve()

    def uniquing_key(self) -> Any:
        """The key under which an equal uniqued node is found."""
        return self._key()

    def __repr__(self) -> str:
        storage = ("uniqued", "distinct", "temporary", "deleted")[self._storage]
        return "<%s %s %d operands>" % (type(self).__name__, storage, len(self.operands))


class MDTuple(MDNode):
    """The plain node ``!{!1, i32 0, null}``."""

    __slots__ = ("_ops",)

    is_md_tuple = True

    _ops: tuple[Metadata | None, ...]

    def __init__(self, ctx: Context, operands: tuple[Metadata | None, ...], storage: int) -> None:
        self._init_node(ctx, storage)
        self._ops = operands

    @staticmethod
    def get(ctx: Context, operands: Sequence[Metadata | None]) -> MDTuple:
        ops = tuple(operands)
        table = ctx.metadata_nodes
        node = table.get(ops)
        if node is None:
            node = MDTuple(ctx, ops, UNIQUED)
            table[ops] = node
            node._start_tracking()
        return node

    @staticmethod
    def distinct(ctx: Context, operands: Sequence[Metadata | None]) -> MDTuple:
        node = MDTuple(ctx, tuple(operands), DISTINCT)
        node._start_tracking()
        return node

    @staticmethod
    def temporary(ctx: Context, operands: Sequence[Metadata | None] = ()) -> MDTuple:
        node = MDTuple(ctx, tuple(operands), TEMPORARY)
        node._start_tracking()
        return node

    def _key(self) -> Any:
        return self._ops

    def _refs(self) -> list[Metadata]:
        return [md for md in self._ops if md is not None]

    def _count_refs(self, md: Metadata) -> int:
        return self._ops.count(md)

    def _replace_refs(self, old: Metadata, new: Metadata | None) -> None:
        self._ops = tuple(new if md is old else md for md in self._ops)

    def _set_operand_raw(self, index: int, md: Metadata | None) -> None:
        ops = list(self._ops)
        ops[index] = md
        self._ops = tuple(ops)

    @property
    def operands(self) -> tuple[Metadata | None, ...]:
        return self._ops

    @property
    def num_operands(self) -> int:
        return len(self._ops)

    def get_operand(self, index: int) -> Metadata | None:
        return self._ops[index]


# --- values as metadata -----------------------------------------------------------------------


class ValueAsMetadata(Metadata):
    """A value used as metadata (``i32 %x``, ``ptr @g``), one wrapper per value."""

    __slots__ = ("value",)

    is_value_as_metadata = True

    value: Value

    def __init__(self, value: Value) -> None:
        self._users = {}
        self.value = value

    @staticmethod
    def get(value: Value) -> ValueAsMetadata:
        """The wrapper of ``value`` (a ``ConstantAsMetadata`` for constants and
        globals, else a ``LocalAsMetadata``)."""
        table = value.type.context.value_metadata
        md = table.get(value)
        if md is None:
            if value.is_metadata_as_value:
                raise IRError("metadata cannot wrap a metadata-as-value")
            md = ConstantAsMetadata(value) if value.is_constant else LocalAsMetadata(value)
            table[value] = md
        return md

    @staticmethod
    def get_if_exists(value: Value) -> ValueAsMetadata | None:
        return value.type.context.value_metadata.get(value)

    @property
    def type(self) -> Type:
        return self.value.type

    @property
    def context(self) -> Context:
        return self.value.type.context

    def handle_rauw(self, new: Value) -> None:
        """Called by ``Value.replace_all_uses_with`` before the uses move."""
        old = self.value
        table = old.type.context.value_metadata
        if table.get(old) is self:
            del table[old]
        if self.is_local_as_metadata:
            if new.is_constant:
                # A local value became a constant: holders get a constant wrapper.
                self._replace_all_uses_with(ValueAsMetadata.get(new))
                return
        elif not new.is_constant:
            # A constant became a function-local value: metadata drops it.
            self._replace_all_uses_with(None)
            return
        existing = table.get(new)
        if existing is not None:
            self._replace_all_uses_with(existing)
            return
        self.value = new
        table[new] = self

    def handle_deletion(self) -> None:
        """Called when the value is destroyed: holders see null / poison / ``!{}``."""
        old = self.value
        table = old.type.context.value_metadata
        if table.get(old) is self:
            del table[old]
        self._replace_all_uses_with(None)

    def __repr__(self) -> str:
        return "<%s %r>" % (type(self).__name__, self.value)


class ConstantAsMetadata(ValueAsMetadata):
    __slots__ = ()

    is_constant_as_metadata = True


class LocalAsMetadata(ValueAsMetadata):
    __slots__ = ()

    is_local_as_metadata = True


def poison_as_metadata(ty: Type) -> ValueAsMetadata:
    """``<ty> poison`` as metadata: what a deleted location becomes."""
    return ValueAsMetadata.get(PoisonValue.get(ty))


class DIArgList(Metadata):
    """``!DIArgList(i32 %a, i32 %b)``: the location list of a variadic debug record.

    Uniqued per context by its arguments and re-uniqued when one of them
    changes; a deleted argument becomes ``poison`` of its type.
    """

    __slots__ = ("context", "_args")

    is_di_arg_list = True

    context: Context
    _args: tuple[ValueAsMetadata, ...]

    def __init__(self, ctx: Context, args: tuple[ValueAsMetadata, ...]) -> None:
        self._users = {}
        self.context = ctx
        self._args = args

    @staticmethod
    def get(ctx: Context, args: Sequence[ValueAsMetadata]) -> DIArgList:
        key = (DIArgList, tuple(args))
        table = ctx.metadata_nodes
        node = table.get(key)
        if node is None:
            node = table[key] = DIArgList(ctx, key[1])
            for arg in key[1]:
                track_metadata(arg, node)
        return node

    @property
    def args(self) -> tuple[ValueAsMetadata, ...]:
        return self._args

    @property
    def values(self) -> list[Value]:
        return [a.value for a in self._args]

    def _metadata_changed(self, old: Metadata, new: Metadata | None) -> None:
        if not isinstance(old, ValueAsMetadata) or old not in self._args:
            untrack_metadata(old, self)
            return
        if new is None:
            new = poison_as_metadata(old.type)
        if not isinstance(new, ValueAsMetadata):
            raise IRError("a DIArgList can only hold values")
        table = self.context.metadata_nodes
        key = (DIArgList, self._args)
        if table.get(key) is self:
            del table[key]
        untrack_metadata(old, self)
        self._args = tuple(new if a is old else a for a in self._args)
        track_metadata(new, self)
        key = (DIArgList, self._args)
        existing = table.get(key)
        if existing is None:
            table[key] = self
            return
        for arg in self._args:
            untrack_metadata(arg, self)
        self._replace_all_uses_with(existing)

    def __repr__(self) -> str:
        return "<DIArgList %r>" % (self.values,)


def _canonical_for_value(ctx: Context, md: Metadata | None) -> Metadata:
    if md is None:
        return MDTuple.get(ctx, ())
    if md.is_md_tuple:
        ops = md.operands  # type: ignore[attr-defined]
        if len(ops) == 1:
            op = ops[0]
            if op is None:
                return MDTuple.get(ctx, ())
            if op.is_constant_as_metadata:
                return op  # type: ignore[no-any-return]
    return md


class MetadataAsValue(Value):
    """Metadata used as a call argument (``metadata !5``, ``metadata i32 %x``).

    Uniqued per metadata; its type is ``ctx.metadata``. When the metadata it
    wraps is replaced, it follows (merging with an existing wrapper if needed).
    """

    __slots__ = ("metadata",)

    is_metadata_as_value = True

    metadata: Metadata

    def __init__(self, ctx: Context, md: Metadata) -> None:
        Value.__init__(self, ctx.metadata)
        self.metadata = md

    @staticmethod
    def get(ctx: Context, md: Metadata | None) -> MetadataAsValue:
        md = _canonical_for_value(ctx, md)
        key = (MetadataAsValue, md)
        table = ctx.metadata_nodes
        value = table.get(key)
        if value is None:
            value = table[key] = MetadataAsValue(ctx, md)
            track_metadata(md, value)
        return value

    @staticmethod
    def get_if_exists(ctx: Context, md: Metadata | None) -> MetadataAsValue | None:
        if md is None:
            return None
        return ctx.metadata_nodes.get((MetadataAsValue, _canonical_for_value(ctx, md)))

    def _metadata_changed(self, old: Metadata, new: Metadata | None) -> None:
        if old is not self.metadata:
            untrack_metadata(old, self)
            return
        ctx = self.type.context
        new_md = _canonical_for_value(ctx, new)
        table = ctx.metadata_nodes
        key = (MetadataAsValue, old)
        if table.get(key) is self:
            del table[key]
        untrack_metadata(old, self)
        existing = table.get((MetadataAsValue, new_md))
        if existing is not None and existing is not self:
            self._replace_all_uses(existing)
            return
        self.metadata = new_md
        table[(MetadataAsValue, new_md)] = self
        track_metadata(new_md, self)

    def __repr__(self) -> str:
        return "<MetadataAsValue %r>" % (self.metadata,)


# --- named metadata ---------------------------------------------------------------------------


class NamedMDNode:
    """``!name = !{!0, !1}``: a module-level, ordered list of nodes.

    ``NamedMDNode(name, module)`` does not insert itself; the module keeps it
    in ``module.named_metadata`` (``Module.get_or_insert_named_metadata``).
    """

    __slots__ = ("name", "module", "_operands")

    name: str
    module: Module | None
    _operands: list[MDNode]

    def __init__(self, name: str, module: Module | None = None) -> None:
        self.name = name
        self.module = module
        self._operands = []

    @property
    def operands(self) -> list[MDNode]:
        """The nodes, in order (a copy)."""
        return list(self._operands)

    def __iter__(self) -> Iterator[MDNode]:
        return iter(list(self._operands))

    def __len__(self) -> int:
        return len(self._operands)

    @property
    def num_operands(self) -> int:
        return len(self._operands)

    def get_operand(self, index: int) -> MDNode:
        return self._operands[index]

    def add_operand(self, node: MDNode) -> None:
        self._operands.append(node)
        track_metadata(node, self)

    def set_operand(self, index: int, node: MDNode) -> None:
        old = self._operands[index]
        self._operands[index] = node
        if old not in self._operands:
            untrack_metadata(old, self)
        track_metadata(node, self)

    def clear_operands(self) -> None:
        for node in self._operands:
            untrack_metadata(node, self)
        self._operands = []

    def erase(self) -> None:
        """Remove from the module and drop the operands."""
        module = self.module
        if module is not None and module.named_metadata.get(self.name) is self:
            del module.named_metadata[self.name]
        self.clear_operands()
        self.module = None

    def _metadata_changed(self, old: Metadata, new: Metadata | None) -> None:
        untrack_metadata(old, self)
        if new is None:
            self._operands = [n for n in self._operands if n is not old]
            return
        if not isinstance(new, MDNode):
            raise IRError("named metadata operands must be nodes")
        self._operands = [new if n is old else n for n in self._operands]
        track_metadata(new, self)

    def __repr__(self) -> str:
        return "<NamedMDNode !%s with %d operands>" % (self.name, len(self._operands))
