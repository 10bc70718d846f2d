"""``internalize``: gives ``internal`` linkage to every definition the outside world need not
see (LLVM 19.1.7 ``lib/Transforms/IPO/Internalize.cpp``, ``InternalizePass``).

How: a definition is preserved (left external) when it is available_externally, dllexport,
an externally initialized variable, named in ``llvm.used`` or one of the always-preserved
names (``llvm.used``, ``llvm.compiler.used``, ``llvm.global_ctors``, ``llvm.global_dtors``,
``llvm.global.annotations``, ``__stack_chk_fail``, and ``__stack_chk_guard`` —
``__ssp_canary_word`` on AIX), or matched by the public API: with ``internalize<preserve-gv=N;...>``
the exact names given; otherwise the glob patterns (``?``, ``*``, ``[a-z]``, ``[^..]``/``[!..]``,
``\\`` escapes; LLVM's ``GlobPattern`` without braces) of ``-internalize-public-api-list``
(comma separated, repeatable) and of the lines of ``-internalize-public-api-file``. Declarations
and local values are never touched. Functions, then variables, then aliases are visited; each
other definition becomes ``internal`` with default visibility (statistics ``NumFunctions``,
``NumGlobals``, ``NumAliases``).

Comdats: when the module has comdats, members (an alias counts with its aliasee object's comdat)
are counted per comdat, and a comdat with a preserved member keeps all its members external
(as in LLVM, this test runs before the ``llvm.used`` and always-preserved names are added, so
only the other rules and the public API count there).
Otherwise each member is internalized without the preservation test; a global object drops a
comdat it is the only member of, or switches it to ``nodeduplicate`` (not on wasm).

Unreadable API files and bad patterns give LLVM's warnings on stderr and are ignored. Any
change preserves nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import ClassVar

import attrs

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.global_value import (
    Comdat,
    ComdatSelection,
    DLLStorageClass,
    GlobalAlias,
    GlobalObject,
    GlobalValue,
    GlobalVariable,
    Linkage,
    Visibility,
)
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic

NUM_ALIASES = Statistic("internalize", "NumAliases", "Number of aliases internalized")
NUM_FUNCTIONS = Statistic("internalize", "NumFunctions", "Number of functions internalized")
NUM_GLOBALS = Statistic("internalize", "NumGlobals", "Number of global vars internalized")


# --- glob patterns (LLVM's GlobPattern with brace expansion disabled) ---------------------------


class GlobError(ValueError):
    """A pattern GlobPattern rejects; the message is LLVM's."""


def _expand(chars: bytes, original: bytes) -> set[int]:
    """The bytes of a bracket body: ``X-Y`` ranges and single bytes."""
    out: set[int] = set()
    while len(chars) >= 3:
        start, end = chars[0], chars[2]
        if chars[1] != ord("-"):
            out.add(start)
            chars = chars[1:]
            continue
        if start > end:
            raise GlobError("invalid glob pattern: " + original.decode("utf-8", "surrogateescape"))
        out.update(range(start, end + 1))
        chars = chars[3:]
    out.update(chars)
    return out


@attrs.frozen
class _SubGlob:
    pattern: bytes
    brackets: tuple[tuple[int, frozenset[int]], ...]
    """(offset after the ``]``, matched bytes) of each bracket, in order."""

    @staticmethod
    def create(pat: bytes) -> _SubGlob:
        brackets: list[tuple[int, frozenset[int]]] = []
        i, n = 0, len(pat)
        while i < n:
            c = pat[i]
            if c == ord("["):
                i += 1
                j = pat.find(b"]", i + 1)
                if j < 0:
                    raise GlobError("invalid glob pattern, unmatched '['")
                chars = pat[i:j]
                invert = i < n and pat[i] in b"^!"
                body = _expand(chars[1:] if invert else chars, pat)
                if invert:
                    body = set(range(256)) - body
                brackets.append((j + 1, frozenset(body)))
                i = j
            elif c == ord("\\"):
                i += 1
                if i == n:
                    raise GlobError("invalid glob pattern, stray '\\'")
            i += 1
        return _SubGlob(pat, tuple(brackets))

    def match(self, s: bytes) -> bool:
        pat, brackets = self.pattern, self.brackets
        p, pend, i, end = 0, len(pat), 0, len(s)
        segment: int | None = None
        saved_s = 0
        b = saved_b = 0
        while i != end:
            if p != pend:
                c = pat[p]
                if c == 0x2A:  # '*'
                    p += 1
                    segment, saved_s, saved_b = p, i, b
                    continue
                if c == 0x5B:  # '['
                    if s[i] in brackets[b][1]:
                        p = brackets[b][0]
                        b += 1
                        i += 1
                        continue
                elif c == 0x5C:  # '\\'
                    p += 1
                    if pat[p] == s[i]:
                        p += 1
                        i += 1
                        continue
                elif c == s[i] or c == 0x3F:  # '?'
                    p += 1
                    i += 1
                    continue
            if segment is None:
                return False
            p = segment
            saved_s += 1
            i = saved_s
            b = saved_b
        return all(ch == 0x2A for ch in pat[p:])


@attrs.frozen
class GlobPattern:
    """A glob as LLVM's ``GlobPattern::create(Pat)`` (no brace expansion)."""

    prefix: bytes
    sub: _SubGlob | None

    @staticmethod
    def create(text: str) -> GlobPattern:
        pat = text.encode("utf-8", "surrogateescape")
        cut = min((k for k in (pat.find(ch) for ch in (b"?", b"*", b"[", b"{", b"\\")) if k >= 0), default=-1)
        if cut < 0:
            return GlobPattern(pat, None)
        return GlobPattern(pat[:cut], _SubGlob.create(pat[cut:]))

    def match(self, name: str) -> bool:
        s = name.encode("utf-8", "surrogateescape")
        if not s.startswith(self.prefix):
            return False
        rest = s[len(self.prefix) :]
        if self.sub is None:
            return not rest
        return self.sub.match(rest)


def load_public_api(file_name: str, patterns: Sequence[str]) -> list[GlobPattern]:
    """The globs of ``-internalize-public-api-file`` (one per non-empty line) and of
    ``-internalize-public-api-list``, warning on stderr as LLVM does."""
    texts: list[str] = []
    if file_name:
        try:
            with open(file_name, "rb") as f:
                data = f.read().decode("utf-8", "surrogateescape")
        except OSError:
            sys.stderr.write("WARNING: Internalize couldn't load file '%s'! Continuing as if it's empty.\n" % file_name)
        else:
            texts.extend(line[:-1] if line.endswith("\r") else line for line in data.split("\n") if line not in ("", "\r"))
    texts.extend(patterns)
    globs: list[GlobPattern] = []
    for text in texts:
        try:
            globs.append(GlobPattern.create(text))
        except GlobError as exc:
            sys.stderr.write("WARNING: when loading pattern: '%s' ignoring" % exc)
    return globs


# --- the pass --------------------------------------------------------------------------------------


def parse_internalize_options(params: str) -> tuple[str, ...] | None:
    """``preserve-gv=NAME`` parameters (opt-19's ``parseInternalizeGVs``); None when there are none."""
    names: list[str] = []
    rest = params
    while rest:
        item, _, rest = rest.partition(";")
        if not item.startswith("preserve-gv="):
            raise PipelineError("invalid Internalize pass parameter '%s' " % item)
        names.append(item[len("preserve-gv=") :])
    return tuple(names) if names else None


def _comdat_of(gv: GlobalValue) -> Comdat | None:
    """``GlobalValue::getComdat``: an alias has its aliasee object's comdat."""
    if isinstance(gv, GlobalAlias):
        base = gv.base_object
        return base.comdat if base is not None else None
    return gv.comdat if isinstance(gv, GlobalObject) else None


def _triple_os(triple: str) -> str:
    parts = triple.split("-")
    return parts[2] if len(parts) > 2 else ""


@attrs.define
class _ComdatInfo:
    size: int = 0
    external: bool = False


class Internalizer:
    """One run of the internalization over a module (LLVM ``InternalizePass::internalizeModule``)."""

    def __init__(self, must_preserve: Callable[[GlobalValue], bool]) -> None:
        self.must_preserve = must_preserve
        self.always_preserved: set[str] = set()
        self.is_wasm = False

    def should_preserve(self, gv: GlobalValue) -> bool:
        if gv.is_declaration or gv.linkage is Linkage.AVAILABLE_EXTERNALLY:
            return True
        if gv.dll_storage_class is DLLStorageClass.DLLEXPORT:
            return True
        if isinstance(gv, GlobalVariable) and gv.externally_initialized:
            return True
        if gv.has_local_linkage:
            return False
        if gv.name in self.always_preserved:
            return True
        return self.must_preserve(gv)

    def maybe_internalize(self, gv: GlobalValue, comdats: dict[Comdat, _ComdatInfo]) -> bool:
        comdat = _comdat_of(gv)
        if comdat is not None:
            info = comdats.get(comdat)
            if info is not None and info.external:
                return False
            if isinstance(gv, GlobalObject) and info is not None:
                if info.size == 1:
                    gv.comdat = None
                elif not self.is_wasm:
                    comdat.selection = ComdatSelection.NO_DEDUPLICATE
            if gv.has_local_linkage:
                return False
        elif gv.has_local_linkage or self.should_preserve(gv):
            return False
        gv.visibility = Visibility.DEFAULT
        gv.linkage = Linkage.INTERNAL
        return True

    def check_comdat(self, gv: GlobalValue, comdats: dict[Comdat, _ComdatInfo]) -> None:
        comdat = _comdat_of(gv)
        if comdat is None:
            return
        info = comdats.setdefault(comdat, _ComdatInfo())
        info.size += 1
        if self.should_preserve(gv):
            info.external = True

    def run(self, module: Module) -> bool:
        # As in LLVM, the comdats are counted before the always-preserved names are known.
        comdats: dict[Comdat, _ComdatInfo] = {}
        if module.comdats:
            for fn in module.functions:
                self.check_comdat(fn, comdats)
            for var in module.globals:
                self.check_comdat(var, comdats)
            for alias in module.aliases:
                self.check_comdat(alias, comdats)
        used = module.get_global("llvm.used")
        if used is not None and not used.has_local_linkage and used.initializer is not None:
            for op in used.initializer.operands:
                target = strip_pointer_casts(op)
                if isinstance(target, GlobalValue):
                    self.always_preserved.add(target.name)
        triple = module.target_triple
        self.always_preserved.update(
            ("llvm.used", "llvm.compiler.used", "llvm.global_ctors", "llvm.global_dtors", "llvm.global.annotations")
        )
        self.always_preserved.add("__stack_chk_fail")
        os_name = _triple_os(triple)
        self.always_preserved.add("__ssp_canary_word" if os_name.startswith("aix") else "__stack_chk_guard")
        self.is_wasm = triple.startswith(("wasm32", "wasm64")) or triple.endswith("-wasm")
        changed = False
        for fn in module.functions:
            if self.maybe_internalize(fn, comdats):
                changed = True
                NUM_FUNCTIONS.add()
        for var in module.globals:
            if self.maybe_internalize(var, comdats):
                changed = True
                NUM_GLOBALS.add()
        for alias in module.aliases:
            if self.maybe_internalize(alias, comdats):
                changed = True
                NUM_ALIASES.add()
        return changed


def internalize_module(module: Module, must_preserve: Callable[[GlobalValue], bool]) -> bool:
    """Internalize ``module``'s definitions that neither the fixed rules nor
    ``must_preserve`` keep external; True on change."""
    return Internalizer(must_preserve).run(module)


class InternalizePass(Pass[Module]):
    """Makes every definition outside the public API internal."""

    name: ClassVar[str] = "internalize"
    debug_type: ClassVar[str] = "internalize"

    def __init__(self, preserved_gvs: tuple[str, ...] | None = None) -> None:
        self.preserved_gvs = preserved_gvs

    def pipeline_params(self) -> str | None:
        """None: opt-19 prints the pass without its ``preserve-gv`` parameters."""
        return None

    def _must_preserve(self) -> Callable[[GlobalValue], bool]:
        names = self.preserved_gvs
        if names is not None:
            name_set = frozenset(names)
            return lambda gv: gv.name in name_set
        api_list = str(OPTIONS.value("internalize-public-api-list"))
        globs = load_public_api(
            str(OPTIONS.value("internalize-public-api-file")),
            [p for p in api_list.split(",")] if api_list else [],
        )
        return lambda gv: any(g.match(gv.name) for g in globs)

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        changed = internalize_module(unit, self._must_preserve())
        return PreservedAnalyses.none() if changed else PreservedAnalyses.all()


__all__ = [
    "NUM_ALIASES",
    "NUM_FUNCTIONS",
    "NUM_GLOBALS",
    "GlobPattern",
    "InternalizePass",
    "internalize_module",
    "load_public_api",
    "parse_internalize_options",
]
