"""Values, users and the use-lists that connect them (LLVM ``Value``, ``User``, ``Use``).

Every operand slot of a :class:`User` is a :class:`Use` that records the user,
the operand index and the value. Each value keeps its uses in a doubly linked
list whose head is the most recently added use, exactly LLVM's order (it
decides, for instance, the order of a block's ``; preds =`` comment). Adding or
removing a use is O(1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, ClassVar, Iterator, Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir import _printing

if TYPE_CHECKING:
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.ir.symbol_table import ValueSymbolTable
    from llvmpy_mid.ir.types import Type


class Use:
    """One operand slot: ``user.operands[index] is value``."""

    __slots__ = ("value", "user", "index", "_prev", "_next")

    value: Value
    user: User
    index: int

    def __init__(self, value: Value, user: User, index: int) -> None:
        self.value = value
        self.user = user
        self.index = index
        # Link at the head of the value's use-list.
        head = value._use_head
        self._prev: Use | None = None
        self._next: Use | None = head
        if head is not None:
            head._prev = self
        value._use_head = self

    def set(self, value: Value) -> None:
        """Point this slot at ``value``. As in LLVM, the use always moves to the
        head of ``value``'s use-list, even when the value does not change."""
        old = self.value
        prev = self._prev
        nxt = self._next
        if prev is None:
            old._use_head = nxt
        else:
            prev._next = nxt
        if nxt is not None:
            nxt._prev = prev
        self.value = value
        head = value._use_head
        self._prev = None
        self._next = head
        if head is not None:
            head._prev = self
        value._use_head = self

    def _unlink(self) -> None:
        prev = self._prev
        nxt = self._next
        if prev is None:
            self.value._use_head = nxt
        else:
            prev._next = nxt
        if nxt is not None:
            nxt._prev = prev
        self._prev = self._next = None

    @property
    def operand_no(self) -> int:
        """LLVM's ``getOperandNo``."""
        return self.index

    def __repr__(self) -> str:
        return "<Use %d of %r>" % (self.index, self.user)


class UseView:
    """The uses of one value, as a live view of its use-list (``value.uses``).

    Iterating walks the list (removing the current use is safe); ``bool()`` is
    O(1); ``len()`` and indexing walk the list."""

    __slots__ = ("_value",)

    def __init__(self, value: Value) -> None:
        self._value = value

    def __iter__(self) -> Iterator[Use]:
        use = self._value._use_head
        while use is not None:
            nxt = use._next
            yield use
            use = nxt

    def __len__(self) -> int:
        count = 0
        use = self._value._use_head
        while use is not None:
            count += 1
            use = use._next
        return count

    def __bool__(self) -> bool:
        return self._value._use_head is not None

    def __getitem__(self, index: int) -> Use:
        items = self._value.use_list()
        return items[index]

    def __repr__(self) -> str:
        items = list(self)
        shown = ", ".join(repr(u) for u in items[:8])
        more = ", ..." if len(items) > 8 else ""
        return "<%d use%s of %s: [%s%s]>" % (
            len(items), "" if len(items) == 1 else "s", _printing.value_ref(self._value), shown, more
        )


class UserView(UseView):
    """The user of each use of one value (``value.users``), a live view like :class:`UseView`."""

    __slots__ = ()

    def __iter__(self) -> Iterator[User]:  # type: ignore[override]
        use = self._value._use_head
        while use is not None:
            nxt = use._next
            yield use.user
            use = nxt

    def __getitem__(self, index: int) -> User:  # type: ignore[override]
        return self._value.use_list()[index].user

    def __repr__(self) -> str:
        items = list(self)
        shown = ", ".join(repr(u) for u in items[:8])
        more = ", ..." if len(items) > 8 else ""
        return "<%d user%s of %s: [%s%s]>" % (
            len(items), "" if len(items) == 1 else "s", _printing.value_ref(self._value), shown, more
        )


class Value:
    """Anything that can be an operand: constants, arguments, instructions, blocks, globals."""

    __slots__ = ("type", "_name", "_use_head")

    # Class-level kind flags: cheap alternatives to isinstance ladders.
    is_constant: ClassVar[bool] = False
    is_global_value: ClassVar[bool] = False
    is_instruction: ClassVar[bool] = False
    is_argument: ClassVar[bool] = False
    is_basic_block: ClassVar[bool] = False
    is_metadata_as_value: ClassVar[bool] = False
    is_inline_asm: ClassVar[bool] = False

    type: Type

    def __init__(self, type: Type, name: str = "") -> None:
        self.type = type
        self._name = name
        self._use_head: Use | None = None

    # Identity: values compare and hash by identity (object's own, C-level
    # __eq__/__hash__, which dicts and sets of values rely on for speed).

    @property
    def context(self) -> Context:
        return self.type.context

    # --- names ----------------------------------------------------------------
    @property
    def name(self) -> str:
        """The value's name without sigil; ``""`` for an unnamed (numbered) value."""
        return self._name

    @name.setter
    def name(self, new: str) -> None:
        self.set_name(new)

    def set_name(self, new: str) -> str:
        """Rename the value; a clash in its symbol table gets a unique suffix
        (``x``, ``x1``, ``x2``... for locals; ``f.1``... for globals). Returns the
        name actually given."""
        if not isinstance(new, str):
            raise TypeError("a value's name must be a str, not %s" % type(new).__name__)
        if new == self._name:
            return new
        if new and self.type.is_void:
            raise IRError("cannot name a value of type void")
        if "\0" in new:
            raise IRError("value names may not contain NUL characters")
        self._numbering_changed()
        table = self._symbol_table()
        if table is None:
            self._name = new
            return new
        if self._name:
            table.remove(self)
        self._name = ""
        if new:
            self._name = table.insert_unique(new, self)
        return self._name

    def take_name(self, other: Value) -> None:
        """LLVM ``Value::takeName``: this value gets ``other``'s name exactly and ``other``
        becomes unnamed; when ``other`` has no name this value loses its own. A value that
        cannot carry a name (a constant other than a global, inline asm, metadata) keeps
        none, but ``other`` still loses its name. ``v.take_name(v)`` changes nothing."""
        if other is self:
            return
        name = other._name
        if not (self.is_instruction or self.is_argument or self.is_basic_block or self.is_global_value):
            if name:
                other.set_name("")
            return
        if not name:
            if self._name:
                self.set_name("")
            return
        if self.type.is_void:
            raise IRError("cannot name a value of type void")
        other.set_name("")
        self.set_name(name)

    def _numbering_changed(self) -> None:
        """Called before this value's name changes: drops the cached slot numbering
        of the function or module it is numbered in (see ``_printing.value_repr``)."""

    @property
    def has_name(self) -> bool:
        return self._name != ""

    def _symbol_table(self) -> ValueSymbolTable | None:
        """The table this value's name lives in, if it is inserted in one."""
        return None

    # --- uses -----------------------------------------------------------------
    @property
    def uses(self) -> UseView:
        """The uses of this value, most recently added first: a live view
        (``len()``, truthiness, indexing); removing the current use while
        iterating is safe."""
        return UseView(self)

    @property
    def users(self) -> UserView:
        """The user of each use, in use order (a user appears once per use): a
        live view like :attr:`uses`."""
        return UserView(self)

    def use_list(self) -> list[Use]:
        """A snapshot of the uses as a list."""
        out: list[Use] = []
        use = self._use_head
        while use is not None:
            out.append(use)
            use = use._next
        return out

    @property
    def has_uses(self) -> bool:
        return self._use_head is not None

    @property
    def use_empty(self) -> bool:
        return self._use_head is None

    @property
    def has_one_use(self) -> bool:
        head = self._use_head
        return head is not None and head._next is None

    def has_n_uses(self, n: int) -> bool:
        use = self._use_head
        while use is not None and n > 0:
            use = use._next
            n -= 1
        return n == 0 and use is None

    def has_n_uses_or_more(self, n: int) -> bool:
        use = self._use_head
        while use is not None and n > 0:
            use = use._next
            n -= 1
        return n == 0

    @property
    def num_uses(self) -> int:
        count = 0
        use = self._use_head
        while use is not None:
            count += 1
            use = use._next
        return count

    @property
    def has_one_user(self) -> bool:
        use = self._use_head
        if use is None:
            return False
        user = use.user
        use = use._next
        while use is not None:
            if use.user is not user:
                return False
            use = use._next
        return True

    def is_used_by(self, user: User) -> bool:
        use = self._use_head
        while use is not None:
            if use.user is user:
                return True
            use = use._next
        return False

    def replace_all_uses_with(self, new: Value) -> None:
        """Make every use of this value use ``new`` instead (LLVM ``RAUW``).

        Constants that use this value are rebuilt (a uniqued constant cannot
        change in place), as LLVM does; metadata wrapping this value follows it.
        """
        if new is self:
            raise IRError("replace_all_uses_with: a value cannot replace itself")
        if new.type is not self.type:
            from llvmpy_mid.ir.types import mismatch_text

            raise IRError("replace_all_uses_with: type mismatch (%s)" % mismatch_text(self.type, new.type))
        self._replace_all_uses(new)

    def _replace_all_uses(self, new: Value) -> None:
        md = self.type.context.value_metadata.get(self)
        if md is not None:
            md.handle_rauw(new)
        use = self._use_head
        while use is not None:
            user = use.user
            if user.is_constant and not user.is_global_value:
                user.handle_operand_change(self, new)  # type: ignore[attr-defined]
            else:
                use.set(new)
            use = self._use_head

    def replace_uses_with_if(self, new: Value, predicate: Callable[[Use], bool]) -> None:
        """Replace the uses for which ``predicate(use)`` holds. Uses inside
        constants are not changed (as in LLVM, where constants need RAUW)."""
        if new.type is not self.type:
            raise IRError("replace_uses_with_if: type mismatch (%s replaced by %s)" % (self.type, new.type))
        use = self._use_head
        while use is not None:
            nxt = use._next
            user = use.user
            if not (user.is_constant and not user.is_global_value) and predicate(use):
                use.set(new)
            use = nxt

    def _drop_metadata_wrapper(self) -> None:
        """Tell metadata that wraps this value that the value is going away."""
        md = self.type.context.value_metadata.get(self)
        if md is not None:
            md.handle_deletion()

    # --- text -----------------------------------------------------------------
    def __str__(self) -> str:
        return _printing.format_value(self)

    def __repr__(self) -> str:
        return _printing.value_repr(self)


class User(Value):
    """A value with operands (instructions, constant aggregates and expressions, globals)."""

    __slots__ = ("_operands",)

    def __init__(self, type: Type, operands: Sequence[Value] = (), name: str = "") -> None:
        Value.__init__(self, type, name)
        self._operands: list[Use] = [Use(v, self, i) for i, v in enumerate(operands)]

    @property
    def operands(self) -> list[Value]:
        """The operand values, in LLVM's operand order (a fresh list)."""
        return [u.value for u in self._operands]

    @property
    def operand_uses(self) -> list[Use]:
        """The operand slots (the list itself; do not mutate it)."""
        return self._operands

    @property
    def num_operands(self) -> int:
        return len(self._operands)

    def get_operand(self, index: int) -> Value:
        return self._operands[index].value

    def set_operand(self, index: int, value: Value) -> None:
        self._operands[index].set(value)

    def get_operand_use(self, index: int) -> Use:
        return self._operands[index]

    def _append_operand(self, value: Value) -> Use:
        use = Use(value, self, len(self._operands))
        self._operands.append(use)
        return use

    def _remove_operand(self, index: int) -> None:
        """Remove one operand slot, shifting the later ones down."""
        ops = self._operands
        ops[index]._unlink()
        del ops[index]
        for i in range(index, len(ops)):
            ops[i].index = i

    def _truncate_operands(self, count: int) -> None:
        ops = self._operands
        for use in ops[count:]:
            use._unlink()
        del ops[count:]

    def replace_uses_of_with(self, old: Value, new: Value) -> None:
        """Replace every operand equal to ``old`` with ``new`` (LLVM ``replaceUsesOfWith``)."""
        for use in self._operands:
            if use.value is old:
                use.set(new)

    def drop_all_references(self) -> None:
        """Unlink every operand, leaving the user without operands (LLVM sets them
        to null). Used before deleting groups of values that refer to each other."""
        for use in self._operands:
            use._unlink()
        self._operands = []
