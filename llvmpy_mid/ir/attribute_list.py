"""The attribute sets of a function or call, as one immutable value: :class:`AttributeList`.

An :class:`AttributeList` holds a function's (or call's) function attributes,
return attributes, then one :class:`~llvmpy_mid.ir.attributes.AttributeSet`
per parameter, addressed with LLVM's indices (:data:`FUNCTION_INDEX`,
:data:`RETURN_INDEX`, :data:`FIRST_ARG_INDEX` + i) or by parameter number.
Trailing empty sets are dropped, so equal lists compare and hash equal
however they were built; every modifier returns a new list and leaves the
old one untouched (LLVM ``AttributeList``).

:mod:`llvmpy_mid.ir.attributes` defines the attributes and sets this is made
of, and re-exports :class:`AttributeList` and the index constants, so
``from llvmpy_mid.ir.attributes import AttributeList`` keeps working. The two
modules import each other; each binds the other's names on its last lines,
so either may be imported first.

What it does not do: it does not check that an attribute suits its position
(the verifier does), does not know the function's parameter count (a list
may hold sets past the last parameter, as LLVM's may), and does not print
``#N`` attribute groups (the printer does).
"""

from __future__ import annotations

from typing import ClassVar, Iterable, Iterator, Sequence

from llvmpy_mid.ir.types import Type

__all__ = ["FIRST_ARG_INDEX", "FUNCTION_INDEX", "RETURN_INDEX", "AttributeList"]

FUNCTION_INDEX = -1
"""Index of the function attributes in an :class:`AttributeList` (LLVM ``FunctionIndex``)."""
RETURN_INDEX = 0
"""Index of the return attributes (LLVM ``ReturnIndex``)."""
FIRST_ARG_INDEX = 1
"""Index of parameter 0's attributes; parameter ``i`` is at ``FIRST_ARG_INDEX + i``."""


class AttributeList:
    """The attribute sets of a function or call: function, return, then each parameter.

    Trailing empty sets are not stored, so equal lists compare and hash equal
    however they were built. Every modifier returns a new list; ``EMPTY`` is
    the list with no attributes.
    """

    __slots__ = ("_sets", "_hash")

    EMPTY: ClassVar[AttributeList]
    FUNCTION_INDEX: ClassVar[int] = FUNCTION_INDEX
    RETURN_INDEX: ClassVar[int] = RETURN_INDEX
    FIRST_ARG_INDEX: ClassVar[int] = FIRST_ARG_INDEX

    _sets: tuple[AttributeSet, ...]
    _hash: int

    def __init__(
        self,
        fn_attrs: AttributeSet | None = None,
        ret_attrs: AttributeSet | None = None,
        param_attrs: Sequence[AttributeSet] = (),
    ) -> None:
        """The list of ``fn_attrs``, ``ret_attrs`` and one set per parameter;
        an omitted (None) function or return set means the empty set."""
        empty = AttributeSet.EMPTY
        self._sets = _trim(
            (empty if fn_attrs is None else fn_attrs, empty if ret_attrs is None else ret_attrs, *param_attrs)
        )
        self._hash = -1

    @classmethod
    def _from_sets(cls, sets: Sequence[AttributeSet]) -> AttributeList:
        trimmed = _trim(sets)
        if not trimmed:
            return AttributeList.EMPTY
        result = cls.__new__(cls)
        result._sets = trimmed
        result._hash = -1
        return result

    # --- access -----------------------------------------------------------------------------
    @property
    def fn_attrs(self) -> AttributeSet:
        sets = self._sets
        return sets[0] if sets else AttributeSet.EMPTY

    @property
    def ret_attrs(self) -> AttributeSet:
        sets = self._sets
        return sets[1] if len(sets) > 1 else AttributeSet.EMPTY

    def param_attrs(self, arg_no: int) -> AttributeSet:
        """The attributes of parameter ``arg_no`` (0-based); EMPTY past the last stored one."""
        if arg_no < 0:
            raise IndexError("negative parameter number %d" % arg_no)
        pos = arg_no + 2
        sets = self._sets
        return sets[pos] if pos < len(sets) else AttributeSet.EMPTY

    def attrs_at_index(self, index: int) -> AttributeSet:
        """The set at an LLVM index: FUNCTION_INDEX, RETURN_INDEX or FIRST_ARG_INDEX + i."""
        pos = _position(index)
        sets = self._sets
        return sets[pos] if pos < len(sets) else AttributeSet.EMPTY

    @property
    def num_params_with_attrs(self) -> int:
        """One more than the last parameter with attributes (0 when none has any)."""
        return max(0, len(self._sets) - 2)

    @property
    def num_attr_sets(self) -> int:
        """Stored slots, trailing empty ones dropped (LLVM ``getNumAttrSets``)."""
        return len(self._sets)

    @property
    def param_sets(self) -> tuple[AttributeSet, ...]:
        """The parameter sets up to the last non-empty one."""
        return self._sets[2:]

    def __iter__(self) -> Iterator[tuple[int, AttributeSet]]:
        """(index, set) for every stored slot: function, return, then parameters in order."""
        # Slot k holds LLVM index k - 1: function (-1), return (0), parameters (1...).
        for pos, attrs_ in enumerate(self._sets):
            yield pos - 1, attrs_

    # --- queries ----------------------------------------------------------------------------
    def has_fn_attr(self, kind: KindLike) -> bool:
        return self.fn_attrs.has(kind)

    def has_ret_attr(self, kind: KindLike) -> bool:
        return self.ret_attrs.has(kind)

    def has_param_attr(self, arg_no: int, kind: KindLike) -> bool:
        return self.param_attrs(arg_no).has(kind)

    def get_fn_attr(self, kind: KindLike) -> Attribute | None:
        return self.fn_attrs.get(kind)

    def get_ret_attr(self, kind: KindLike) -> Attribute | None:
        return self.ret_attrs.get(kind)

    def get_param_attr(self, arg_no: int, kind: KindLike) -> Attribute | None:
        return self.param_attrs(arg_no).get(kind)

    def param_type_attr(self, arg_no: int, kind: KindLike) -> Type | None:
        """The type of parameter ``arg_no``'s type attribute ``kind`` (``"byval"``...), or None."""
        return self.param_attrs(arg_no).type_attr(kind)

    def param_alignment(self, arg_no: int) -> int | None:
        return self.param_attrs(arg_no).alignment

    @property
    def ret_alignment(self) -> int | None:
        return self.ret_attrs.alignment

    def has_attr_somewhere(self, kind: KindLike) -> bool:
        """Whether any slot (function, return or parameter) has ``kind``."""
        key = _kind_of(kind)
        return any(key in s._index for s in self._sets)

    def param_with_attr(self, kind: KindLike) -> int | None:
        """The first parameter number carrying ``kind``, or None."""
        key = _kind_of(kind)
        for arg_no, s in enumerate(self._sets[2:]):
            if key in s._index:
                return arg_no
        return None

    # --- new lists --------------------------------------------------------------------------
    def with_attrs_at_index(self, index: int, attributes: AttributeSet) -> AttributeList:
        """This list with the set at LLVM ``index`` replaced by ``attributes``."""
        pos = _position(index)
        sets = list(self._sets)
        if pos < len(sets):
            if sets[pos] == attributes:
                return self
            sets[pos] = attributes
        else:
            if not attributes:
                return self
            sets.extend([AttributeSet.EMPTY] * (pos - len(sets)))
            sets.append(attributes)
        return AttributeList._from_sets(sets)

    def with_fn_attrs(self, attributes: AttributeSet) -> AttributeList:
        """This list with the function attributes replaced by ``attributes``."""
        return self.with_attrs_at_index(FUNCTION_INDEX, attributes)

    def with_ret_attrs(self, attributes: AttributeSet) -> AttributeList:
        """This list with the return attributes replaced by ``attributes``."""
        return self.with_attrs_at_index(RETURN_INDEX, attributes)

    def with_param_attrs(self, arg_no: int, attributes: AttributeSet) -> AttributeList:
        """This list with parameter ``arg_no``'s set replaced by ``attributes``."""
        return self.with_attrs_at_index(_param_index(arg_no), attributes)

    def with_param_sets(self, param_attrs: Sequence[AttributeSet]) -> AttributeList:
        """This list with every parameter set replaced (e.g. after deleting arguments)."""
        return AttributeList._from_sets((self.fn_attrs, self.ret_attrs, *param_attrs))

    def with_fn_attr(self, attr: Attribute) -> AttributeList:
        """This list with ``attr`` added to the function attributes (replacing its kind)."""
        return self.with_fn_attrs(self.fn_attrs.add(attr))

    def with_ret_attr(self, attr: Attribute) -> AttributeList:
        return self.with_ret_attrs(self.ret_attrs.add(attr))

    def with_param_attr(self, arg_no: int, attr: Attribute) -> AttributeList:
        return self.with_param_attrs(arg_no, self.param_attrs(arg_no).add(attr))

    def merge_fn_attrs(self, attributes: Iterable[Attribute]) -> AttributeList:
        """This list with all of ``attributes`` added to the function attributes."""
        return self.with_fn_attrs(self.fn_attrs.add_all(attributes))

    def merge_ret_attrs(self, attributes: Iterable[Attribute]) -> AttributeList:
        return self.with_ret_attrs(self.ret_attrs.add_all(attributes))

    def merge_param_attrs(self, arg_no: int, attributes: Iterable[Attribute]) -> AttributeList:
        return self.with_param_attrs(arg_no, self.param_attrs(arg_no).add_all(attributes))

    def without_fn_attr(self, kind: KindLike) -> AttributeList:
        return self.with_fn_attrs(self.fn_attrs.remove(kind))

    def without_ret_attr(self, kind: KindLike) -> AttributeList:
        return self.with_ret_attrs(self.ret_attrs.remove(kind))

    def without_param_attr(self, arg_no: int, kind: KindLike) -> AttributeList:
        return self.with_param_attrs(arg_no, self.param_attrs(arg_no).remove(kind))

    def without_param_attrs(self, arg_no: int) -> AttributeList:
        """This list with no attributes on parameter ``arg_no``."""
        return self.with_param_attrs(arg_no, AttributeSet.EMPTY)

    def without_attr_everywhere(self, kind: KindLike) -> AttributeList:
        """This list with ``kind`` removed from every slot."""
        return AttributeList._from_sets([s.remove(kind) for s in self._sets])

    # --- value protocol ---------------------------------------------------------------------
    def __bool__(self) -> bool:
        return bool(self._sets)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, AttributeList):
            return NotImplemented
        return self._sets == other._sets

    def __hash__(self) -> int:
        h = self._hash
        if h == -1:
            h = hash(self._sets)
            if h == -1:
                h = -2
            self._hash = h
        return h

    def __repr__(self) -> str:
        parts = []
        for index, s in self:
            if s:
                where = "fn" if index == FUNCTION_INDEX else "ret" if index == RETURN_INDEX else "arg%d" % (index - 1)
                parts.append("%s: {%s}" % (where, s.as_string()))
        return "AttributeList(%s)" % ", ".join(parts)


def _trim(sets: Sequence[AttributeSet]) -> tuple[AttributeSet, ...]:
    end = len(sets)
    while end and not sets[end - 1]:
        end -= 1
    return tuple(sets[:end])


def _position(index: int) -> int:
    """Slot of an LLVM index in the stored tuple: function 0, return 1, parameter i at i + 2."""
    if index < FUNCTION_INDEX:
        raise IndexError("invalid attribute index %d" % index)
    return index + 1


def _param_index(arg_no: int) -> int:
    if arg_no < 0:
        raise IndexError("negative parameter number %d" % arg_no)
    return arg_no + FIRST_ARG_INDEX


# Imported only now that AttributeList exists: llvmpy_mid.ir.attributes imports
# this module on its last line to re-export AttributeList, so binding its names
# here (not at the top) lets either module be imported first.
from llvmpy_mid.ir.attributes import Attribute, AttributeSet, KindLike, _kind_of  # noqa: E402

AttributeList.EMPTY = AttributeList()
