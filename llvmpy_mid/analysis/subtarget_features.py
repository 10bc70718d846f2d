"""A target's subtarget feature bits as ``MCSubtargetInfo`` computes them (LLVM 19.1.7
``lib/MC/MCSubtargetInfo.cpp``: ``getFeatures``, ``SetImpliedBits``, ``ClearImpliedBits``,
``ApplyFeatureFlag``), for the inliner's target hooks that compare a caller's and a
callee's features.

What: a :class:`FeatureTable` holds a target's features with what each implies (its
``SubtargetFeature`` records of the target's ``.td`` files) and its processors' feature
lists. :meth:`FeatureTable.feature_bits` starts from the processor's features (each with
all it implies), then applies the ``target-features`` string in order: ``+f`` sets ``f``
and everything it implies, ``-f`` clears ``f`` and every feature implying it.

What it does not do: warn about an unknown processor or feature (LLVM writes a warning and
ignores it; so does this, silently, unless the table keeps unknown names as opaque bits).
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from llvmpy_mid.ir.function import Function


class FeatureTable:
    """One target's features, implications and processors."""

    def __init__(
        self,
        implies: Mapping[str, Sequence[str]],
        cpus: Mapping[str, Sequence[str]],
        *,
        keep_unknown: bool = False,
    ) -> None:
        self.implies = implies
        self.cpus = cpus
        self.keep_unknown = keep_unknown
        implied_by: dict[str, list[str]] = {}
        for name, implied in implies.items():
            for sub in implied:
                implied_by.setdefault(sub, []).append(name)
        self._implied_by = implied_by
        self._closures: dict[str, frozenset[str]] = {}

    def is_known(self, name: str) -> bool:
        return name in self.implies

    def closure(self, name: str) -> frozenset[str]:
        """``name`` and everything it implies, transitively (``SetImpliedBits``)."""
        found = self._closures.get(name)
        if found is not None:
            return found
        seen = {name}
        stack = [name]
        while stack:
            for sub in self.implies.get(stack.pop(), ()):
                if sub not in seen:
                    seen.add(sub)
                    stack.append(sub)
        result = frozenset(seen)
        self._closures[name] = result
        return result

    def implying(self, name: str) -> set[str]:
        """``name`` and every feature implying it, transitively (``ClearImpliedBits``)."""
        seen = {name}
        stack = [name]
        while stack:
            for sup in self._implied_by.get(stack.pop(), ()):
                if sup not in seen:
                    seen.add(sup)
                    stack.append(sup)
        return seen

    def cpu_features(self, cpu: str) -> frozenset[str]:
        """The bits processor ``cpu`` sets (an unknown one sets none)."""
        bits: set[str] = set()
        for name in self.cpus.get(cpu, ()):
            bits |= self.closure(name)
        return frozenset(bits)

    def apply(self, bits: set[str], flags: Iterable[str]) -> None:
        """Apply ``+f``/``-f`` flags to ``bits`` in order (``ApplyFeatureFlag``)."""
        for flag in flags:
            flag = flag.strip()
            if not flag or flag[0] not in "+-":
                continue
            name = flag[1:]
            if not self.is_known(name) and not self.keep_unknown:
                continue
            if flag[0] == "+":
                bits |= self.closure(name)
            else:
                bits -= self.implying(name)

    def feature_bits(self, cpu: str, flags: Iterable[str]) -> frozenset[str]:
        """The feature bits of processor ``cpu`` with the feature string ``flags`` applied."""
        bits = set(self.cpu_features(cpu))
        self.apply(bits, flags)
        return frozenset(bits)


def function_cpu(fn: Function, default: str = "") -> str:
    """``fn``'s ``"target-cpu"`` (``default`` when it has none)."""
    value = fn.attributes.fn_attrs.string_value("target-cpu")
    return default if value is None else value


def function_feature_flags(fn: Function) -> list[str]:
    """``fn``'s ``"target-features"`` split into its ``+f``/``-f`` flags."""
    value = fn.attributes.fn_attrs.string_value("target-features")
    if not value:
        return []
    return [f for f in value.split(",") if f]


def function_bool_attr(fn: Function, key: str) -> bool:
    """A string attribute read as LLVM's ``getValueAsBool`` (``"true"``)."""
    return fn.attributes.fn_attrs.string_value(key) == "true"


__all__ = ["FeatureTable", "function_bool_attr", "function_cpu", "function_feature_flags"]
