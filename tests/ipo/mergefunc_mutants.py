"""Textual mutants of a ``.ll`` module for the mergefunc differential test.

What: :func:`make_mutant` takes the text of a module (a csmith program compiled by clang-19) and
returns a module in which

* some defined functions have an exact copy under a new name (``@NAME.dup<k>``: the original's
  input text with only the name changed, appended after the last function), and about half of
  the direct call sites of the original (``@NAME(`` in the input's functions, the originals
  included) now call the copy; so an original that calls a copied function differs from its own
  copy until that callee is merged (a second mergefunc round);
* some functions have a near-copy (``@NAME.near<k>``) that differs in one integer constant (the low
  bit flipped, so the value keeps its width and sign class), with the same opcodes in the same
  order, so its structural hash collides with the original's and only the comparator tells them
  apart; a near-copy is called nowhere, or (``call_near=True``) from exactly one former call site
  of the original.

How: line-based: a function is the lines from ``define ... {`` to the next ``}`` line; call sites
are found by the ``@NAME(`` spelling, which never matches a longer name. Everything is
deterministic in ``seed``.

What it does not do: understand the IR (no parsing): modules with debug info are not supported (a
copy would share the original's ``DISubprogram``, which the verifier rejects), and quoted function
names are skipped.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

_DEFINE_NAME = re.compile(r"@([-a-zA-Z$._][-a-zA-Z$._0-9]*)\(")
# Constant operands that can change by one bit without making the module invalid.
_STORE_CONST = re.compile(r"^(\s+store (?:volatile )?i\d+ )(-?\d+)(, )")
_BINOP_CONST = re.compile(r"^(\s+%\S+ = (?:add|sub|mul|and|or|xor|icmp \w+)(?: nuw| nsw| disjoint)* i\d+ [^,]+, )(-?\d+)($|,)")


@dataclass
class Mutant:
    """A mutated module and what was done to it."""

    text: str
    copies: list[tuple[str, str]] = field(default_factory=list)  # (original, exact copy)
    near: list[tuple[str, str]] = field(default_factory=list)  # (original, near-copy)
    redirected: int = 0  # call sites moved to an exact copy
    near_called: int = 0  # near-copies given a call site

    def summary(self) -> str:
        return "%d exact copies (%d call sites redirected), %d near-copies (%d called)" % (
            len(self.copies),
            self.redirected,
            len(self.near),
            self.near_called,
        )


def _functions(lines: list[str]) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of every definition with an unquoted name."""
    out: list[tuple[str, int, int]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("define ") and line.rstrip().endswith("{"):
            j = i
            while lines[j] != "}":
                j += 1
            m = _DEFINE_NAME.search(line)
            if m is not None:
                out.append((m.group(1), i, j))
            i = j
        i += 1
    return out


def _rename_define(line: str, old: str, new: str) -> str:
    return line.replace("@%s(" % old, "@%s(" % new, 1)


def _tweak(body: list[str], rng: random.Random) -> list[str] | None:
    """The body with one constant operand's low bit flipped (stores preferred: they rarely steer
    control flow), or None when there is no candidate."""
    stores = [i for i, ln in enumerate(body) if _STORE_CONST.match(ln)]
    others = [i for i, ln in enumerate(body) if _BINOP_CONST.match(ln)]
    if stores:
        i = rng.choice(stores)
        pattern = _STORE_CONST
    elif others:
        i = rng.choice(others)
        pattern = _BINOP_CONST
    else:
        return None
    m = pattern.match(body[i])
    assert m is not None
    value = int(m.group(2)) ^ 1
    out = list(body)
    out[i] = body[i][: m.start(2)] + str(value) + body[i][m.end(2) :]
    return out


def _call_sites(lines: list[str], name: str, skip: set[int]) -> list[int]:
    needle = "@%s(" % name
    return [
        i
        for i, ln in enumerate(lines)
        if i not in skip and needle in ln and not ln.startswith(("define ", "declare ")) and "call " in ln
    ]


def make_mutant(
    text: str, seed: int, copies: int = 3, near: int = 2, call_near: bool = False
) -> Mutant:
    """Up to ``copies`` exact copies and ``near`` near-copies of randomly chosen functions."""
    rng = random.Random(seed)
    lines = text.split("\n")
    source = list(lines)  # copies are made from the input, before any call site moves
    funcs = _functions(lines)
    if not funcs:
        return Mutant(text)
    result = Mutant(text)
    appended: list[str] = []
    define_lines = {first for _, first, _ in funcs}
    chosen = rng.sample(funcs, min(copies, len(funcs)))
    for k, (name, first, last) in enumerate(chosen):
        new = "%s.dup%d" % (name, k)
        block = source[first : last + 1]
        appended.append("")
        appended.append(_rename_define(block[0], name, new))
        appended.extend(block[1:])
        result.copies.append((name, new))
        for i in _call_sites(lines, name, define_lines):
            if rng.random() < 0.5:
                lines[i] = lines[i].replace("@%s(" % name, "@%s(" % new)
                result.redirected += 1
    candidates = [f for f in funcs if _tweak(source[f[1] + 1 : f[2]], random.Random(0)) is not None]
    for k, (name, first, last) in enumerate(rng.sample(candidates, min(near, len(candidates)))):
        body = _tweak(source[first + 1 : last], rng)
        assert body is not None
        new = "%s.near%d" % (name, k)
        appended.append("")
        appended.append(_rename_define(source[first], name, new))
        appended.extend(body)
        appended.append("}")
        result.near.append((name, new))
        if call_near:
            sites = _call_sites(lines, name, define_lines)
            if sites:
                i = rng.choice(sites)
                lines[i] = lines[i].replace("@%s(" % name, "@%s(" % new)
                result.near_called += 1
    # Copies go after the last function, before attribute groups and metadata.
    last_end = max(last for _, _, last in funcs)
    lines[last_end + 1 : last_end + 1] = appended
    result.text = "\n".join(lines)
    return result
