"""Runnable examples that ship with the package (``python -m llvmpy_mid.examples.<name>``).

``path("sum_pairs.ll")`` is the path of a shipped ``.ll`` file, for Python code
(``python -m llvmpy_mid.examples sum_pairs.ll`` prints it, for the shell).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def names() -> list[str]:
    """The shipped ``.ll`` examples."""
    return sorted(p.name for p in HERE.glob("*.ll"))


def path(name: str = "sum_pairs.ll") -> Path:
    """The path of the shipped example ``name`` (``ValueError`` naming the shipped ones if unknown)."""
    if name not in names():
        raise ValueError("no example %r (shipped: %s)" % (name, ", ".join(names())))
    return HERE / name


__all__ = ["HERE", "names", "path"]
