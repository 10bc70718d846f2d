"""The text of ``opt -passes=`` pipelines, read and written as LLVM 19 does.

What: :func:`parse_pipeline` turns pipeline text into a tree of
:class:`PipelineElement` records, :func:`print_pipeline` writes such a tree
back (the same text for every text the parser accepts), :func:`nest` applies
LLVM's rules for pipeline kinds (module / cgscc / function / loop), the
implicit adaptors and the "unknown function pass 'x'" style errors, and
:func:`parse_pass_params` with its helpers reads ``<a;no-b;c=3>`` parameter
lists the way LLVM's passes read them, with LLVM's error words.

How: the tokenizer, like LLVM's, only knows three separators, ``,``, ``(``
and ``)``; everything between them is one pass name, so ``<...>`` may hold
anything except those three (nested ``<>`` included).  A name of the shape
``base<params>`` is split into ``name`` and ``params`` for convenience; the
split never changes the printed text.  :func:`nest` is told which kinds know
a pass name through a callback (the pass registry supplies it); pass-manager
and adaptor names (``module``, ``cgscc``, ``function<eager-inv>``, ``loop``,
``loop-mssa``, ``devirt<N>``, ``coro-cond``) are handled here.

What it does not do: it knows no pass names itself and builds no pass
managers; the ``default<O2>`` expansion, ``require<X>``/``invalidate<X>``/
``print<X>`` resolution and each pass's own parameter table belong to the
registry and to the passes.  ``repeat<N>(...)`` parses, but :func:`nest`
rejects it exactly as opt-19 does unless ``repeat_supported=True``.
"""

from __future__ import annotations

from typing import Callable, Collection, Iterable, Mapping, Sequence

import attrs

from llvmpy_mid.errors import PipelineError

__all__ = [
    "PipelineElement",
    "PipelineSyntaxError",
    "PIPELINE_KINDS",
    "parse_pipeline",
    "print_pipeline",
    "print_element",
    "nest",
    "parse_pass_params",
    "split_no_prefix",
    "parse_llvm_unsigned",
    "invalid_param_error",
    "invalid_argument_error",
    "parse_flag_and_int_params",
]

#: The four pipeline kinds, outermost first.
PIPELINE_KINDS: tuple[str, ...] = ("module", "cgscc", "function", "loop")

#: Passes whose implicit top-level loop adaptor is ``loop-mssa`` (as opt-19 wraps them).
_DEFAULT_MSSA_PASSES: frozenset[str] = frozenset({"licm", "lnicm"})


@attrs.frozen
class PipelineElement:
    """One entry of a pipeline: ``name<params>(children)``.

    ``params`` is None when the text had no ``<...>`` suffix (``""`` for
    ``name<>``); ``children`` is None for a plain pass and a tuple (possibly
    holding one empty-named element, as LLVM reads ``function()``) for a
    nested pipeline.
    """

    name: str
    params: str | None = None
    children: tuple[PipelineElement, ...] | None = None
    implicit: bool = attrs.field(default=False, eq=False, repr=False)
    """An adaptor :func:`nest` added around one pass of an inner kind (opt-19 wraps that
    pass directly, with no pass manager in between); never changes the printed text."""

    @property
    def spelled(self) -> str:
        """The name as written, parameters included (``print<domtree>``)."""
        if self.params is None:
            return self.name
        return "%s<%s>" % (self.name, self.params)


class PipelineSyntaxError(PipelineError):
    """Malformed pipeline text; ``offset`` is where in the text it went wrong
    (opt itself prints no position, only LLVM's message)."""

    def __init__(self, message: str, text: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.offset = offset


def _element_from_token(token: str) -> PipelineElement:
    """Split ``base<params>`` into its parts; any other token is a bare name."""
    if token.endswith(">"):
        lt = token.find("<")
        if lt > 0:
            return PipelineElement(token[:lt], token[lt + 1:-1])
    return PipelineElement(token)


class _Frame:
    """A pipeline under construction during parsing (an explicit stack, no recursion)."""

    __slots__ = ("items", "owner")

    def __init__(self, owner: str | None) -> None:
        self.owner = owner
        self.items: list[PipelineElement] = []


def parse_pipeline(text: str) -> list[PipelineElement]:
    """Read pipeline text as LLVM 19's PassBuilder tokenizes it.

    Empty text gives an empty list (opt runs no passes).  Unbalanced
    parentheses, or a ``)`` followed by anything but ``,`` or another ``)``,
    raise :class:`PipelineSyntaxError` with opt's message
    ``invalid pipeline '<text>'``.  Empty names are kept (LLVM reports them
    later as unknown passes; :func:`nest` does the same).
    """
    if text == "":
        return []

    def fail(offset: int) -> PipelineSyntaxError:
        return PipelineSyntaxError("invalid pipeline '%s'" % text, text, offset)

    stack: list[_Frame] = [_Frame(None)]
    pos = 0
    n = len(text)
    while True:
        frame = stack[-1]
        end = pos
        while end < n and text[end] not in ",()":
            end += 1
        token = text[pos:end]
        if end == n:
            frame.items.append(_element_from_token(token))
            break
        sep = text[end]
        pos = end + 1
        if sep == ",":
            frame.items.append(_element_from_token(token))
            continue
        if sep == "(":
            stack.append(_Frame(token))
            continue
        # sep == ")": close this pipeline and any directly following ones.
        frame.items.append(_element_from_token(token))
        while True:
            if len(stack) == 1:
                raise fail(pos - 1)
            done = stack.pop()
            assert done.owner is not None
            owner = _element_from_token(done.owner)
            stack[-1].items.append(attrs.evolve(owner, children=tuple(done.items)))
            if pos < n and text[pos] == ")":
                pos += 1
                continue
            break
        if pos == n:
            break
        if text[pos] != ",":
            raise fail(pos)
        pos += 1  # a trailing comma leaves one more, empty, name to read
    if len(stack) > 1:
        raise fail(n)
    return stack[0].items


def print_element(element: PipelineElement) -> str:
    """The text of one element and everything nested in it."""
    # Iterative, so that deep nesting cannot exhaust the Python stack.
    out: list[str] = []
    work: list[PipelineElement | str] = [element]
    while work:
        item = work.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        out.append(item.spelled)
        if item.children is not None:
            out.append("(")
            work.append(")")
            kids = item.children
            for i in range(len(kids) - 1, -1, -1):
                work.append(kids[i])
                if i:
                    work.append(",")
    return "".join(out)


def print_pipeline(elements: Iterable[PipelineElement]) -> str:
    """Write a pipeline back as text; ``print_pipeline(parse_pipeline(t)) == t``."""
    return ",".join(print_element(e) for e in elements)


# ---------------------------------------------------------------------------
# Pipeline kinds and implicit adaptors


KindOf = Callable[[str], Collection[str]]


def _parse_unsigned_param(params: str | None) -> int | None:
    return None if params is None else parse_llvm_unsigned(params)


def _function_adaptor_params(params: str | None) -> tuple[bool, bool] | None:
    """(eager-inv, no-rerun) for ``function<...>``; None when a parameter is unknown."""
    eager = rerun = False
    if params is None:
        return (eager, rerun)
    for key, value in parse_pass_params(params):
        if value is not None:
            return None
        if key == "eager-inv":
            eager = True
        elif key == "no-rerun":
            rerun = True
        else:
            return None
    return (eager, rerun)


def _function_params_text(eager: bool, no_rerun: bool) -> str | None:
    parts = [p for p, on in (("eager-inv", eager), ("no-rerun", no_rerun)) if on]
    return ";".join(parts) if parts else None


#: The levels nested inside each level, outermost first (where an implicit adaptor may lead).
_INNER_LEVELS: dict[str, tuple[str, ...]] = {
    "module": ("cgscc", "function", "loop"),
    "cgscc": ("function", "loop"),
    "function": ("loop",),
    "loop": (),
}


class _Nester:
    """Resolves one pipeline against the kinds that the callback reports."""

    __slots__ = ("kind_of", "repeat_supported", "no_adaptor")

    def __init__(self, kind_of: KindOf, repeat_supported: bool, no_adaptor: Callable[[str], bool] | None = None) -> None:
        self.kind_of = kind_of
        self.repeat_supported = repeat_supported
        self.no_adaptor = no_adaptor

    def _adaptable(self, spelled: str) -> bool:
        """False for names opt accepts only at their own level (``require<X>`` of an inner analysis)."""
        return self.no_adaptor is None or not self.no_adaptor(spelled)

    def _repeat(self, e: PipelineElement) -> bool:
        return self.repeat_supported and e.name == "repeat" and _parse_unsigned_param(e.params) is not None

    def _plain(self, e: PipelineElement, level: str) -> PipelineElement:
        """A pass written in a ``level`` pipeline: itself when ``level`` knows it, else wrapped in
        the implicit adaptor(s) of the first inner level that knows it (opt-19's order), else
        opt-19's "unknown <level> pass" error."""
        kinds = self.kind_of(e.spelled)
        if level in kinds:
            return e
        if self._adaptable(e.spelled):
            for inner in _INNER_LEVELS[level]:
                if inner not in kinds:
                    continue
                wrapped = PipelineElement(inner, None, (e,), implicit=True)
                if inner == "loop" and level != "function":  # loop passes reach modules via function(...)
                    wrapped = PipelineElement("function", None, (wrapped,), implicit=True)
                return wrapped
        raise PipelineError("unknown %s pass '%s'" % (level, e.spelled))

    # The pipeline of each kind.  Each returns the resolved elements.

    def module(self, elements: Sequence[PipelineElement]) -> list[PipelineElement]:
        out: list[PipelineElement] = []
        for e in elements:
            if e.children is not None:
                if e.spelled == "module":
                    out.extend(self.module(e.children))
                elif e.spelled == "cgscc":
                    out.append(attrs.evolve(e, children=tuple(self.cgscc(e.children))))
                elif e.name == "function" and (fp := _function_adaptor_params(e.params)) is not None:
                    if fp[1]:
                        raise PipelineError("cannot have a no-rerun module to function adaptor")
                    out.append(PipelineElement("function", _function_params_text(*fp), tuple(self.function(e.children))))
                elif e.spelled == "coro-cond":
                    out.append(attrs.evolve(e, children=tuple(self.module(e.children))))
                elif self._repeat(e):
                    out.append(attrs.evolve(e, children=tuple(self.module(e.children))))
                else:
                    raise PipelineError("invalid use of '%s' pass as module pipeline" % e.spelled)
                continue
            out.append(self._plain(e, "module"))
        return out

    def cgscc(self, elements: Sequence[PipelineElement]) -> list[PipelineElement]:
        out: list[PipelineElement] = []
        for e in elements:
            if e.children is not None:
                if e.spelled == "cgscc":
                    out.extend(self.cgscc(e.children))
                elif e.name == "function" and (fp := _function_adaptor_params(e.params)) is not None:
                    out.append(PipelineElement("function", _function_params_text(*fp), tuple(self.function(e.children))))
                elif e.name == "devirt" and (count := _parse_unsigned_param(e.params)) is not None:
                    out.append(PipelineElement("devirt", str(count), tuple(self.cgscc(e.children))))
                elif self._repeat(e):
                    out.append(attrs.evolve(e, children=tuple(self.cgscc(e.children))))
                else:
                    raise PipelineError("invalid use of '%s' pass as cgscc pipeline" % e.spelled)
                continue
            out.append(self._plain(e, "cgscc"))
        return out

    def function(self, elements: Sequence[PipelineElement]) -> list[PipelineElement]:
        out: list[PipelineElement] = []
        for e in elements:
            if e.children is not None:
                if e.spelled == "function":
                    out.extend(self.function(e.children))
                elif e.spelled in ("loop", "loop-mssa"):
                    out.append(attrs.evolve(e, children=tuple(self.loop(e.children))))
                elif self._repeat(e):
                    out.append(attrs.evolve(e, children=tuple(self.function(e.children))))
                else:
                    raise PipelineError("invalid use of '%s' pass as function pipeline" % e.spelled)
                continue
            out.append(self._plain(e, "function"))
        return out

    def loop(self, elements: Sequence[PipelineElement]) -> list[PipelineElement]:
        out: list[PipelineElement] = []
        for e in elements:
            if e.children is not None:
                if e.spelled == "loop":
                    out.extend(self.loop(e.children))
                elif self._repeat(e):
                    out.append(attrs.evolve(e, children=tuple(self.loop(e.children))))
                else:
                    raise PipelineError("invalid use of '%s' pass as loop pipeline" % e.spelled)
                continue
            out.append(self._plain(e, "loop"))
        return out

    def top_kind(self, first: PipelineElement) -> str | None:
        """The kind the first element gives a top-level pipeline (None: unknown)."""
        s = first.spelled
        if s in ("module", "cgscc", "coro-cond") or first.name == "function" or self._repeat(first):
            return "module"
        kinds = self.kind_of(s)
        if "module" in kinds:
            return "module"
        if "cgscc" in kinds or (first.name == "devirt" and _parse_unsigned_param(first.params) is not None):
            return "cgscc"
        if s in ("loop", "loop-mssa") or "function" in kinds:
            return "function"
        if "loop" in kinds:
            return "loop"
        return None


def nest(
    elements: Sequence[PipelineElement],
    kind_of: KindOf,
    *,
    uses_memory_ssa: Callable[[str], bool] | None = None,
    repeat_supported: bool = False,
    no_adaptor: Callable[[str], bool] | None = None,
) -> list[PipelineElement]:
    """Resolve a top-level pipeline into the module pipeline opt-19 runs.

    ``kind_of(spelled_name)`` returns the kinds (``"module"``, ``"cgscc"``,
    ``"function"``, ``"loop"``) under which a pass name is registered; it is
    asked with parameters included (``print<domtree>``).  The first element
    decides the kind of the whole text, as in LLVM: ``mem2reg,mergefunc`` is a
    function pipeline and fails with ``unknown function pass 'mergefunc'``.
    Inside a pipeline a pass of an inner kind gets its own adaptor
    (``mergefunc,mem2reg`` -> ``mergefunc,function(mem2reg)``); same-kind
    nesting is flattened (``module(function(x))`` -> ``function(x)``).  The
    result prints as ``opt-19 -print-pipeline-passes`` does, without the
    trailing ``verify`` opt adds and without the passes' own default
    parameters.  ``uses_memory_ssa(name)`` picks ``loop-mssa`` over ``loop``
    when a loop pass starts the text (default: ``licm`` and ``lnicm``).
    ``repeat<N>(...)`` is refused as opt-19 refuses it unless
    ``repeat_supported`` (then it is a pipeline of the enclosing kind).
    ``no_adaptor(spelled)`` true marks a name that gets no implicit adaptor
    inside an outer pipeline (opt-19: ``verify,require<domtree>`` is an
    ``unknown module pass``); it still decides the kind of a whole text.
    """
    if not elements:
        return []
    nester = _Nester(kind_of, repeat_supported, no_adaptor)
    first = elements[0]
    kind = nester.top_kind(first)
    if kind is None:
        word = "pass" if first.children is None else "pipeline"
        raise PipelineError("unknown %s name '%s'" % (word, first.spelled))
    body = tuple(elements)
    if kind == "cgscc":
        body = (PipelineElement("cgscc", None, body),)
    elif kind == "function":
        body = (PipelineElement("function", None, body),)
    elif kind == "loop":
        mssa = (
            uses_memory_ssa(first.spelled) if uses_memory_ssa is not None
            else first.spelled.partition("<")[0] in _DEFAULT_MSSA_PASSES
        )
        inner = PipelineElement("loop-mssa" if mssa else "loop", None, body)
        body = (PipelineElement("function", None, (inner,)),)
    return nester.module(body)


# ---------------------------------------------------------------------------
# Pass parameters


def parse_pass_params(params: str) -> list[tuple[str, str | None]]:
    """Split ``a;no-b;c=3`` into ``[("a", None), ("no-b", None), ("c", "3")]``.

    Like LLVM, a trailing ``;`` adds no item but ``a;;b`` holds an empty one.
    The value is what follows the first ``=``.
    """
    out: list[tuple[str, str | None]] = []
    rest = params
    while rest:
        item, _, rest = rest.partition(";")
        key, eq, value = item.partition("=")
        out.append((key, value) if eq else (item, None))
    return out


def split_no_prefix(name: str) -> tuple[str, bool]:
    """LLVM's boolean convention: ``no-x`` -> ``("x", False)``, ``x`` -> ``("x", True)``."""
    if name.startswith("no-"):
        return (name[3:], False)
    return (name, True)


_RADIX_PREFIXES: tuple[tuple[str, int], ...] = (("0x", 16), ("0X", 16), ("0b", 2), ("0B", 2), ("0o", 8))


def parse_llvm_unsigned(text: str) -> int | None:
    """An unsigned integer as LLVM's ``getAsInteger(0, ...)`` reads it.

    The radix is sensed from the prefix (``0x`` hex, ``0b`` binary, ``0o``
    or a leading ``0`` octal, else decimal); signs, spaces, ``_`` and an empty
    string are refused (None).
    """
    radix = 10
    digits = text
    for prefix, r in _RADIX_PREFIXES:
        if text.startswith(prefix):
            radix, digits = r, text[2:]
            break
    else:
        if len(text) > 1 and text[0] == "0":
            radix, digits = 8, text[1:]
    if not digits:
        return None
    value = 0
    for ch in digits:
        d = int(ch, 36) if ch.isascii() and ch.isalnum() else 99
        if d >= radix:
            return None
        value = value * radix + d
    return value


def invalid_param_error(pass_label: str, param: str) -> PipelineError:
    """``invalid SimplifyCFG pass parameter 'foo' `` (opt-19's words, trailing space included)."""
    return PipelineError("invalid %s pass parameter '%s' " % (pass_label, param))


def invalid_argument_error(pass_label: str, param_label: str, value: str) -> PipelineError:
    """``invalid argument to SimplifyCFG pass bonus-threshold parameter: 'x' `` (opt-19's words)."""
    return PipelineError("invalid argument to %s pass %s parameter: '%s' " % (pass_label, param_label, value))


def parse_flag_and_int_params(
    params: str | None,
    pass_label: str,
    flags: Mapping[str, bool],
    integers: Mapping[str, tuple[str, int]] | None = None,
) -> dict[str, bool | int]:
    """Read a pass's ``<...>`` the common LLVM way.

    ``flags`` maps each boolean parameter to its default (written ``x`` or
    ``no-x``); ``integers`` maps each ``key=value`` parameter to the label
    LLVM uses in its error and the default.  Unknown items raise
    :func:`invalid_param_error` (with the ``no-`` stripped, as opt reports
    ``simplifycfg<no-foo>``); bad numbers raise :func:`invalid_argument_error`.
    """
    ints = integers or {}
    result: dict[str, bool | int] = dict(flags)
    for key, (_, default) in ints.items():
        result[key] = default
    if params is None:
        return result
    for key, value in parse_pass_params(params):
        base, enabled = split_no_prefix(key)
        if value is not None and enabled and key in ints:
            number = parse_llvm_unsigned(value)
            if number is None:
                raise invalid_argument_error(pass_label, ints[key][0], value)
            result[key] = number
        elif value is None and base in flags:
            result[base] = enabled
        else:
            shown = base if value is None else "%s=%s" % (base, value)
            raise invalid_param_error(pass_label, shown)
    return result
