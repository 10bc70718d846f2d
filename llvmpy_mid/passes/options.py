"""Options that belong to passes (LLVM's ``cl::opt`` globals such as
``-mergefunc-use-aliases``), declared with the pass registry so the command line
knows them before any pass module is imported.

What: :class:`PassOption` declares one option (name, kind ``bool`` / ``uint`` /
``int`` / ``str``, default, help, owning pass). :data:`OPTIONS` holds every
declared option and the values in force; a pass reads its setting with
``OPTIONS.value("mergefunc-use-aliases")``. ``llvmpy-opt -name=value`` and
``run_passes(..., options={"name": value})`` set values for one run
(:meth:`OptionTable.overriding`). Values given as text are read as LLVM's
command-line parser reads them, with its error wording
(``for the --x option: '3' is invalid value for boolean argument! Try 0 or 1``).

What it does not do: list-valued or enum options; options of the tool itself
(``-S``, ``-o``, ...) live in ``cli.py``.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Mapping, Union

import attrs

from llvmpy_mid.errors import PipelineError

__all__ = ["OPTIONS", "OptionTable", "OptionValue", "PassOption", "declare_option"]

OptionValue = Union[bool, int, str]
_KINDS = ("bool", "uint", "int", "str")


@attrs.frozen
class PassOption:
    """One pass option: ``-name=value`` on the command line."""

    name: str
    kind: str
    default: OptionValue
    help: str = ""
    owner: str = ""
    """The pass name the option belongs to (for ``--help`` and the README)."""
    max_value: int | None = None
    """The largest value a ``uint`` option takes (LLVM's range-checking parsers), if any."""

    def parse(self, text: str | None) -> OptionValue:
        """The value of ``-name`` (``text`` None) or ``-name=text``, as LLVM's parser reads it."""
        if self.kind == "bool":
            if text is None or text in ("true", "TRUE", "True", "1"):
                return True
            if text in ("false", "FALSE", "False", "0"):
                return False
            raise PipelineError(
                "for the --%s option: '%s' is invalid value for boolean argument! Try 0 or 1" % (self.name, text)
            )
        if text is None:
            raise PipelineError("for the --%s option: requires a value!" % self.name)
        if self.kind == "str":
            return text
        word = "uint" if self.kind == "uint" else "integer"
        try:
            number = int(text, 0)
        except ValueError:
            number = -1
            word_valid = False
        else:
            word_valid = self.kind != "uint" or number >= 0
        if not word_valid:
            raise PipelineError("for the --%s option: '%s' value invalid for %s argument!" % (self.name, text, word))
        if self.max_value is not None and number > self.max_value:
            raise PipelineError(
                "for the --%s option: '%s' value must be in the range [0, %d]!" % (self.name, text, self.max_value)
            )
        return number


class OptionTable:
    """Declared pass options and their values in force."""

    __slots__ = ("_options", "_values")

    def __init__(self) -> None:
        self._options: dict[str, PassOption] = {}
        self._values: dict[str, OptionValue] = {}

    def declare(self, option: PassOption) -> PassOption:
        if option.kind not in _KINDS:
            raise ValueError("option kind must be one of %s, not '%s'" % (", ".join(_KINDS), option.kind))
        old = self._options.get(option.name)
        if old is not None and old != option:
            raise ValueError("option '%s' is already declared by '%s'" % (option.name, old.owner))
        self._options[option.name] = option
        return option

    def remove(self, name: str) -> None:
        """Forget option ``name`` (and any value set for it)."""
        self._options.pop(name, None)
        self._values.pop(name, None)

    def get(self, name: str) -> PassOption | None:
        return self._options.get(name)

    def names(self) -> list[str]:
        return sorted(self._options)

    def options(self) -> list[PassOption]:
        return [self._options[n] for n in self.names()]

    def value(self, name: str) -> OptionValue:
        """The value in force (the default unless set)."""
        if name in self._values:
            return self._values[name]
        option = self._options.get(name)
        if option is None:
            raise KeyError("no pass option '%s' is declared" % name)
        return option.default

    def is_set(self, name: str) -> bool:
        """The option was given a value (LLVM's ``getNumOccurrences() != 0``)."""
        return name in self._values

    def set(self, name: str, value: OptionValue | str | None) -> None:
        """Set ``name``; a ``str`` (or None, meaning a bare ``-name``) is parsed as the command line does."""
        option = self._options.get(name)
        if option is None:
            raise PipelineError("Unknown command line argument '-%s'." % name)
        if value is None or (isinstance(value, str) and option.kind != "str"):
            value = option.parse(value)
        elif option.kind == "bool" and not isinstance(value, bool):
            raise PipelineError("option '%s' takes a bool, not %r" % (name, value))
        elif option.kind in ("int", "uint") and (isinstance(value, bool) or not isinstance(value, int)):
            raise PipelineError("option '%s' takes an integer, not %r" % (name, value))
        elif option.kind == "uint" and isinstance(value, int) and value < 0:
            raise PipelineError("option '%s' takes an unsigned integer, not %r" % (name, value))
        self._values[name] = value

    def reset(self) -> None:
        self._values.clear()

    @contextmanager
    def overriding(self, values: Mapping[str, OptionValue | str | None]) -> Iterator[None]:
        """Set ``values`` for the ``with`` body, then restore the previous values."""
        saved = dict(self._values)
        try:
            for name, v in values.items():
                self.set(name, v)
            yield
        finally:
            self._values.clear()
            self._values.update(saved)


OPTIONS = OptionTable()


def declare_option(
    name: str, kind: str, default: OptionValue, help: str = "", owner: str = "", max_value: int | None = None
) -> PassOption:
    """Declare a pass option in :data:`OPTIONS` (pass authors call this at import of their
    plugin, or register it with their entry point); ``max_value`` bounds a ``uint`` option."""
    return OPTIONS.declare(PassOption(name, kind, default, help, owner, max_value))
