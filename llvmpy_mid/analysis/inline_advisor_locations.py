"""Call-site locations as the inliner's remarks write them (LLVM 19.1.7
``addLocationToRemarks`` and ``formatCallSiteLocation`` in ``lib/Analysis/InlineAdvisor.cpp``).

What: the chain of a ``!DILocation`` and its ``inlinedAt`` locations as
``(subprogram linkage name or name, line offset from the subprogram's line, column,
base discriminator)``.
"""

from __future__ import annotations

from llvmpy_mid.ir.metadata import MDNode, MDString


def _field(node: object, name: str) -> object:
    getter = getattr(node, "get_field", None)
    if getter is not None:
        try:
            return getter(name)
        except Exception:  # a field the node does not have
            return getattr(node, name, None)
    return getattr(node, name, None)


def _subprogram(scope: object) -> MDNode | None:
    seen = 0
    while isinstance(scope, MDNode) and seen < 1000:
        if getattr(scope, "kind", "") == "DISubprogram":
            return scope
        scope = _field(scope, "scope")
        seen += 1
    return None


def _text(v: object) -> str:
    if isinstance(v, MDString):
        return v.string
    return v if isinstance(v, str) else ""


def base_discriminator(d: int) -> int:
    """LLVM ``getUnsignedFromPrefixEncoding`` of a discriminator (its base part)."""
    if d & 1:
        return 0
    d >>= 1
    if d & 0x40:
        return ((d >> 1) & 0xFE0) | (d & 0x1F)
    return d & 0x3F


def callsite_location_parts(loc: MDNode) -> list[tuple[str, int, int, int]]:
    """``(name, line offset, column, discriminator)`` for ``loc`` and each location it
    was inlined at."""
    parts: list[tuple[str, int, int, int]] = []
    node: object = loc
    guard = 0
    while isinstance(node, MDNode) and getattr(node, "kind", "") == "DILocation" and guard < 1000:
        guard += 1
        sp = _subprogram(_field(node, "scope"))
        line = int(_field(node, "line") or 0)  # type: ignore[call-overload]
        column = int(_field(node, "column") or 0)  # type: ignore[call-overload]
        scope = _field(node, "scope")
        disc = 0
        if isinstance(scope, MDNode) and getattr(scope, "kind", "") == "DILexicalBlockFile":
            disc = int(_field(scope, "discriminator") or 0)  # type: ignore[call-overload]
        name = ""
        sp_line = 0
        if sp is not None:
            name = _text(_field(sp, "linkageName")) or _text(_field(sp, "name"))
            sp_line = int(_field(sp, "line") or 0)  # type: ignore[call-overload]
        parts.append((name, (line - sp_line) & 0xFFFFFFFF, column, base_discriminator(disc)))
        node = _field(node, "inlinedAt")
    return parts
