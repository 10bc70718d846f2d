"""Every pass and analysis name LLVM 19's ``opt`` knows, so that a name llvmpy_mid lacks is
told apart from a name that does not exist.

What: ``llvm19_names/print-passes.txt`` is what ``opt-19 -print-passes`` prints and
``llvm19_names/legacy-passes.txt`` the legacy ``-passname`` flags ``opt-19 --help`` lists
(its "Optimizations available" section). :func:`llvm19_pass_kinds` says at which levels LLVM 19
knows a pipeline name (``instcombine``, ``instcombine<max-iterations=2>``, ``print<scev>``,
``require<aa>``, ``lto<O2>``); :func:`is_llvm19_legacy_flag` whether ``-name`` is one of opt's
legacy pass flags. :func:`not_implemented_note` is the text the pipeline builder adds to
"unknown pass" errors for LLVM 19 names not implemented here.

How: the files are read on first use only (error paths), never at start-up.
``python -m llvmpy_mid.passes.llvm_pass_names --check`` compares them with the installed
``opt-19`` and ``--regenerate`` rewrites them from it.

What it does not do: the machine-function (CodeGen) names are left out; opt runs none of them.
"""

from __future__ import annotations

import subprocess
import sys
from functools import lru_cache
from importlib import resources
from typing import Sequence

__all__ = [
    "NOT_IMPLEMENTED",
    "is_llvm19_legacy_flag",
    "llvm19_pass_kinds",
    "not_implemented_note",
    "opt_legacy_passes_text",
    "opt_print_passes_text",
]

NOT_IMPLEMENTED = "an LLVM 19 pass not implemented in llvmpy_mid yet"
"""What follows ``unknown pass name 'x':`` for a real LLVM 19 pass llvmpy_mid lacks."""

_FILES = "llvm19_names"
_PRINT_PASSES = "print-passes.txt"
_LEGACY = "legacy-passes.txt"

#: ``-print-passes`` section titles -> (level, what): what is "pass", "params" or "analysis".
_SECTIONS: dict[str, tuple[str, str]] = {}
for _label, _kind in (("Module", "module"), ("CGSCC", "cgscc"), ("Function", "function"), ("Loop", "loop")):
    _SECTIONS["%s passes:" % _label] = (_kind, "pass")
    _SECTIONS["%s passes with params:" % _label] = (_kind, "params")
    _SECTIONS["%s analyses:" % _label] = (_kind, "analysis")
    _SECTIONS["%s alias analyses:" % _label] = (_kind, "analysis")
_SECTIONS["LoopNest passes:"] = ("loop", "pass")

#: The whole-pipeline names PassBuilder reads itself (not listed by ``-print-passes``).
_PIPELINES = ("default", "thinlto-pre-link", "thinlto", "lto-pre-link", "lto")
_LEVELS = ("O0", "O1", "O2", "O3", "Os", "Oz")


def _read(name: str) -> str:
    return resources.files("llvmpy_mid.passes").joinpath("%s/%s" % (_FILES, name)).read_text()


def _strip_params(entry: str) -> str:
    """``a<x;y=<int>>`` -> ``a``; ``print<x><y>`` -> ``print<x>`` (the last ``<...>`` group)."""
    if not entry.endswith(">"):
        return entry
    depth = 0
    for i in range(len(entry) - 1, -1, -1):
        ch = entry[i]
        if ch == ">":
            depth += 1
        elif ch == "<":
            depth -= 1
            if depth == 0:
                return entry[:i]
    return entry


class _Names:
    """The parsed ``-print-passes`` listing."""

    __slots__ = ("plain", "with_params", "analyses")

    def __init__(self, text: str) -> None:
        self.plain: dict[str, set[str]] = {}
        self.with_params: dict[str, set[str]] = {}
        self.analyses: dict[str, set[str]] = {}
        section: tuple[str, str] | None = None
        for line in text.splitlines():
            if not line.startswith(" "):
                section = _SECTIONS.get(line.strip())
                continue
            if section is None:
                continue
            kind, what = section
            name = line.strip()
            if what == "pass":
                self.plain.setdefault(name, set()).add(kind)
            elif what == "params":
                self.with_params.setdefault(_strip_params(name), set()).add(kind)
            else:
                self.analyses.setdefault(name, set()).add(kind)
        for pipeline in _PIPELINES:
            self.with_params.setdefault(pipeline, set()).add("module")

    def kinds(self, spelled: str) -> set[str]:
        found = set(self.plain.get(spelled, ()))
        found.update(self.with_params.get(spelled, ()))
        lt = spelled.find("<")
        if lt > 0 and spelled.endswith(">"):
            base, params = spelled[:lt], spelled[lt + 1 : -1]
            if base in ("require", "invalidate"):
                if base == "invalidate" and params == "all":
                    found.update(("module", "cgscc", "function", "loop"))
                found.update(self.analyses.get(params, ()))
            elif base in _PIPELINES:
                if params in _LEVELS:
                    found.add("module")
            else:
                # ``name<params>``: the longest listed base wins (``print<x><y>`` before ``print``).
                head = _strip_params(spelled)
                found.update(self.with_params.get(head, ()))
        return found


@lru_cache(maxsize=1)
def _names() -> _Names:
    return _Names(_read(_PRINT_PASSES))


@lru_cache(maxsize=1)
def _legacy() -> frozenset[str]:
    return frozenset(line.strip() for line in _read(_LEGACY).splitlines() if line.strip())


def llvm19_pass_kinds(spelled: str) -> set[str]:
    """The levels (``module``, ``cgscc``, ``function``, ``loop``) at which ``opt-19`` knows the
    pipeline name ``spelled`` (parameters included); empty when it knows none."""
    return _names().kinds(spelled)


def is_llvm19_legacy_flag(name: str) -> bool:
    """Whether ``opt-19 -name`` names a legacy pass (opt then asks for ``-passes=``)."""
    return name in _legacy()


#: The levels whose pipelines may hold a pass of each level (through implicit adaptors).
_REACHABLE: dict[str | None, tuple[str, ...]] = {
    None: ("module", "cgscc", "function", "loop"),
    "module": ("module", "cgscc", "function", "loop"),
    "cgscc": ("cgscc", "function", "loop"),
    "function": ("function", "loop"),
    "loop": ("loop",),
}


def not_implemented_note(spelled: str, level: str | None) -> str | None:
    """:data:`NOT_IMPLEMENTED` when ``spelled`` is an LLVM 19 pass that ``opt-19`` would accept
    in a ``level`` pipeline (None: as the first name of the text), else None."""
    kinds = llvm19_pass_kinds(spelled)
    if not kinds:
        return None
    lt = spelled.find("<")
    if lt > 0 and spelled[:lt] in ("require", "invalidate") and level is not None:
        ok = level in kinds  # no implicit adaptor for these
    else:
        ok = any(k in kinds for k in _REACHABLE.get(level, ()))
    return NOT_IMPLEMENTED if ok else None


def opt_print_passes_text(opt: str = "opt-19") -> str:
    """What ``opt -print-passes`` prints now."""
    return subprocess.run([opt, "-print-passes"], check=True, capture_output=True, text=True).stdout


def opt_legacy_passes_text(opt: str = "opt-19") -> str:
    """The legacy pass flags ``opt --help`` lists, one a line."""
    out = subprocess.run([opt, "--help"], check=True, capture_output=True, text=True).stdout
    names: list[str] = []
    inside = False
    for line in out.splitlines():
        if "Optimizations available" in line:
            inside = True
            continue
        if inside:
            if not line.startswith("      -"):
                break
            names.append(line.split()[0].lstrip("-"))
    return "".join(n + "\n" for n in names)


def main(argv: Sequence[str] | None = None) -> int:
    """``--check``: exit 1 when the data files differ from ``opt-19``'s; ``--regenerate``: rewrite them."""
    args = list(sys.argv[1:] if argv is None else argv)
    opt = "opt-19"
    fresh = {_PRINT_PASSES: opt_print_passes_text(opt), _LEGACY: opt_legacy_passes_text(opt)}
    if "--regenerate" in args:
        folder = resources.files("llvmpy_mid.passes").joinpath(_FILES)
        for name, text in fresh.items():
            with open(str(folder.joinpath(name)), "w") as f:
                f.write(text)
        return 0
    stale = [name for name, text in fresh.items() if _read(name) != text]
    for name in stale:
        sys.stderr.write("llvm_pass_names: %s differs from %s's\n" % (name, opt))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
