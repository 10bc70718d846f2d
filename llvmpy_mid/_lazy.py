"""Lazy package re-exports (PEP 562), shared by the package ``__init__`` modules.

``lazy_exports(package_globals, exports)`` returns the ``__getattr__`` and ``__dir__`` a package
defines: a name listed in ``exports`` (module path -> names) is imported from its module on first
access and then kept in the package's namespace; ``dir()`` lists the namespace plus ``__all__``.
Packages define ``__getattr__`` only ``if not TYPE_CHECKING`` and import the names for the type
checker under ``if TYPE_CHECKING``, so mypy still rejects misspelled names.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Callable, Mapping


def lazy_exports(
    package_globals: dict[str, Any], exports: Mapping[str, tuple[str, ...]]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    origin = {name: module for module, names in exports.items() for name in names}
    package = package_globals["__name__"]

    def __getattr__(name: str) -> object:
        module = origin.get(name)
        if module is None:
            raise AttributeError("module %r has no attribute %r" % (package, name))
        value = getattr(import_module(module), name)
        package_globals[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(package_globals) | set(package_globals.get("__all__", ())))

    return __getattr__, __dir__
