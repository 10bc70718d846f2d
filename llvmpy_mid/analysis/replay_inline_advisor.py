"""The replay inline advisor: inline what an earlier build's remarks say was inlined
(LLVM 19.1.7 ``lib/Analysis/ReplayInlineAdvisor.cpp``, ``formatCallSiteLocation`` in
``lib/Analysis/InlineAdvisor.cpp`` and the ``-cgscc-inline-replay*`` options of
``lib/Transforms/IPO/Inliner.cpp``).

What: ``-cgscc-inline-replay=FILE`` reads the lines of ``-pass-remarks=inline`` output
(``... 'callee' inlined into 'caller' ... at callsite caller:1:10.2;`` or ``... 'callee' will
not be inlined into 'caller' ... at callsite ...;``) and keys each decision by the callee's name
followed by the call-site location text. At a call site, the advisor formats the call's
location the same way (``-cgscc-inline-replay-format``: ``Line``, ``LineColumn``,
``LineDiscriminator``, ``LineColumnDiscriminator``) and, when the key is known, inlines it as
``always`` (reason ``previously inlined``) or refuses it. Other sites follow
``-cgscc-inline-replay-fallback``: ``Original`` (the default advisor decides), ``AlwaysInline``
or ``NeverInline``. With ``-cgscc-inline-replay-scope=Function`` (the default) only callers named
in the remarks are replayed; the rest go to the default advisor; ``Module`` replays everywhere.

A missing file or a line that is not a remark stops the run with LLVM's words
(``Could not open remarks file: ...``, ``Invalid remark format: ...``).

What it does not do: the sample-profile loader's replay (``-sample-profile-inline-replay``).
"""

from __future__ import annotations

from typing import Final

from llvmpy_mid.analysis.inline_advisor import (
    DefaultInlineAdvice,
    InlineAdvice,
    InlineAdvisor,
)
from llvmpy_mid.analysis.inline_cost import InlineCost, option_str
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager

__all__ = [
    "FALLBACKS",
    "FORMATS",
    "SCOPES",
    "ReplayInlineAdvisor",
    "ReplaySettings",
    "format_call_site_location",
    "replay_advisor_from_options",
]

SCOPES: Final = ("Function", "Module")
FALLBACKS: Final = ("Original", "AlwaysInline", "NeverInline")
FORMATS: Final = ("Line", "LineColumn", "LineDiscriminator", "LineColumnDiscriminator")

_POSITIVE = "' inlined into '"
_NEGATIVE = "' will not be inlined into '"


class ReplaySettings:
    """LLVM ``ReplayInlinerSettings``: the remarks file, scope, fallback and call-site format."""

    __slots__ = ("file", "scope", "fallback", "format")

    def __init__(self, file: str, scope: str = "Function", fallback: str = "Original",
                 format: str = "LineColumnDiscriminator") -> None:
        self.file = file
        self.scope = scope
        self.fallback = fallback
        self.format = format


def _enum_option(name: str, allowed: tuple[str, ...]) -> str:
    value = option_str(name)
    if value not in allowed:
        raise PipelineError("for the --%s option: Cannot find option named '%s'!" % (name, value))
    return value


def settings_from_options() -> ReplaySettings | None:
    """The ``-cgscc-inline-replay*`` options, or None when no replay file is given."""
    path = option_str("cgscc-inline-replay")
    scope = _enum_option("cgscc-inline-replay-scope", SCOPES)
    fallback = _enum_option("cgscc-inline-replay-fallback", FALLBACKS)
    fmt = _enum_option("cgscc-inline-replay-format", FORMATS)
    if not path:
        return None
    return ReplaySettings(path, scope, fallback, fmt)


def format_call_site_location(dloc: MDNode | None, fmt: str) -> str:
    """LLVM ``formatCallSiteLocation``: ``name:line[:column][.discriminator]`` for the location and
    each location it was inlined at, joined by `` @ ``."""
    if dloc is None:
        return ""
    from llvmpy_mid.analysis.inline_advisor_locations import callsite_location_parts

    column = fmt in ("LineColumn", "LineColumnDiscriminator")
    discriminator = fmt in ("LineDiscriminator", "LineColumnDiscriminator")
    out: list[str] = []
    for name, line, col, disc in callsite_location_parts(dloc):
        text = "%s:%d" % (name, line)
        if column:
            text += ":%d" % col
        if discriminator and disc:
            text += ".%d" % disc
        out.append(text)
    return " @ ".join(out)


def _rsplit_second(text: str, sep: str) -> str:
    """LLVM ``StringRef::rsplit(sep).second``: after the last ``sep``, or empty."""
    i = text.rfind(sep)
    return "" if i < 0 else text[i + len(sep):]


def _rsplit_first(text: str, sep: str) -> str:
    """LLVM ``StringRef::rsplit(sep).first``: before the last ``sep``, or all of it."""
    i = text.rfind(sep)
    return text if i < 0 else text[:i]


def parse_replay_remarks(text: str, function_scope: bool) -> tuple[dict[str, bool], set[str]]:
    """The decisions of a remarks text (callee + call-site location -> inlined) and, for the
    ``Function`` scope, the callers named."""
    sites: dict[str, bool] = {}
    callers: set[str] = set()
    for line in text.splitlines():
        if not line.strip():
            continue
        head, _, tail = line.partition(" at callsite ")
        positive = _NEGATIVE not in head
        callee_part, _, caller_part = head.partition(_POSITIVE if positive else _NEGATIVE)
        callee = _rsplit_second(callee_part, ": '")
        caller = _rsplit_first(caller_part, "'")
        call_site = tail.partition(";")[0]
        if not callee or not caller or not call_site:
            raise PipelineError("Invalid remark format: " + line)
        sites[callee + call_site] = positive
        if function_scope:
            callers.add(caller)
    return sites, callers


class ReplayInlineAdvisor(InlineAdvisor):
    """LLVM ``ReplayInlineAdvisor`` over an ``original`` advisor."""

    def __init__(
        self, module: Module, fam: AnalysisManager[Function], original: InlineAdvisor, settings: ReplaySettings,
        context: str = "replay-cgscc-inline",
    ) -> None:
        super().__init__(module, fam, original.params, context)
        self.original = original
        self.settings = settings
        try:
            with open(settings.file, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError as exc:
            raise PipelineError("Could not open remarks file: %s" % (exc.strerror or exc)) from None
        self.sites, self.callers = parse_replay_remarks(text, settings.scope == "Function")

    def has_inline_advice(self, fn: Function) -> bool:
        return self.settings.scope == "Module" or fn.name in self.callers

    def _original_advice(self, call: CallBase) -> InlineAdvice:
        self.original.psi = self.psi
        return self.original.get_advice(call)

    def get_advice(self, call: CallBase, mandatory_only: bool = False) -> InlineAdvice:
        if mandatory_only:
            return super().get_advice(call, True)
        caller = call.function
        callee = call.called_function
        assert caller is not None and callee is not None
        if not self.has_inline_advice(caller):
            return self._original_advice(call)
        ore = self._ore(caller)
        key = callee.name + format_call_site_location(call.debug_loc, self.settings.format)
        decision = self.sites.get(key)
        if decision is not None:
            return DefaultInlineAdvice(self, call, InlineCost.always("previously inlined") if decision else None, ore)
        if self.settings.fallback == "AlwaysInline":
            return DefaultInlineAdvice(self, call, InlineCost.always("AlwaysInline Fallback"), ore)
        if self.settings.fallback == "NeverInline":
            return DefaultInlineAdvice(self, call, None, ore)
        return self._original_advice(call)

    def on_pass_entry(self) -> None:
        self.original.on_pass_entry()

    def on_pass_exit(self) -> None:
        self.original.on_pass_exit()

    def finish(self) -> None:
        self.original.finish()


def replay_advisor_from_options(
    module: Module, fam: AnalysisManager[Function], original: InlineAdvisor, context: str = "replay-cgscc-inline"
) -> InlineAdvisor:
    """``original`` wrapped in a :class:`ReplayInlineAdvisor` when ``-cgscc-inline-replay`` names a
    file (LLVM ``getReplayInlineAdvisor``), else ``original``; ``context`` names its remarks'
    pass under ``-annotate-inline-phase``."""
    settings = settings_from_options()
    if settings is None:
        return original
    return ReplayInlineAdvisor(module, fam, original, settings, context)
