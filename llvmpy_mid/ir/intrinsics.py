"""Which names are LLVM 19 intrinsics, and the attributes LLVM gives each.

What: :func:`lookup_intrinsic` maps a function name to the intrinsic it
denotes (``llvm.memcpy.p0.p0.i64`` is ``llvm.memcpy``), following LLVM's
``Function::lookupIntrinsicID``: the longest known name that is the whole
name or a prefix followed by ``.``, where a prefix match counts only for
overloaded intrinsics. :func:`intrinsic_attributes` gives the
:class:`~llvmpy_mid.ir.attributes.AttributeList` of LLVM's
``Intrinsic::getAttributes``: LLVM 19 puts exactly these on every
intrinsic declaration when it reads a module (replacing whatever the text
said), and ``opt-19 -S`` prints them.

How the data was made: the table in :mod:`llvmpy_mid.ir.intrinsic_table`
holds, for each of LLVM 19.1's ~11,800 intrinsics (all targets), its
function attributes (an index into a list of the 79 distinct sets), return
attributes, parameter attributes and whether it is overloaded. It was read
from ``opt-19 -S`` itself: every name in libLLVM's intrinsic name table was
declared with 24 ``ptr`` parameters (once as is, once with a ``.zzqq``
suffix to see whether a prefix match is accepted, i.e. whether it is
overloaded) and the printed declarations were collected. To regenerate,
repeat that with a newer opt and rebuild the zlib/base64 blob.

Not done here: intrinsic signatures, name mangling of overloaded types,
and the upgrades of renamed intrinsics (the assembly parser does the few it
needs).
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING
import zlib

from llvmpy_mid.ir.attributes import Attribute, AttributeList, AttributeSet
from llvmpy_mid.ir.memory_effects import LOCATION_BY_NAME, MOD_REF_BY_NAME, MemoryEffects, ModRefInfo

if TYPE_CHECKING:
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.types import FunctionType

_TABLE: dict[str, tuple[int, str, str, bool]] | None = None
_FN_SETS: list[AttributeSet] | None = None
_CACHE: dict[str, AttributeList] = {}


# Intrinsics the generated table lacks or gets wrong (their declarations with ``ptr`` parameters were rejected
# or rewritten when it was made); attributes as opt-19 prints them (44 is the empty set, 16 the
# debug intrinsics' ``nocallback nofree nosync nounwind speculatable willreturn memory(none)``).
_NOT_IN_BLOB: dict[str, tuple[int, str, str, bool]] = {
    "llvm.dbg.declare": (16, "", "", False),
    "llvm.dbg.value": (16, "", "", False),
    "llvm.dbg.assign": (16, "", "", False),
    "llvm.dbg.label": (16, "", "", False),
    "llvm.coro.resume": (44, "", "", False),
    "llvm.coro.destroy": (44, "", "", False),
    "llvm.coro.await.suspend.void": (44, "", "", False),
    "llvm.coro.await.suspend.bool": (44, "", "", False),
    "llvm.coro.await.suspend.handle": (44, "", "", False),
    "llvm.experimental.deoptimize": (44, "", "", True),
    "llvm.experimental.guard": (44, "", "", False),
    "llvm.experimental.patchpoint": (44, "", "", True),
    "llvm.experimental.patchpoint.void": (44, "", "", False),
    # Overloaded (on its return and pointer types), which the generator's probe missed.
    "llvm.objectsize": (16, "", ";immarg;immarg;immarg", True),
}


def _load() -> dict[str, tuple[int, str, str, bool]]:
    global _TABLE
    table = _TABLE
    if table is None:
        from llvmpy_mid.ir.intrinsic_table import TABLE_BLOB

        text = zlib.decompress(base64.b64decode(TABLE_BLOB)).decode()
        table = {}
        for line in text.split("\n"):
            name, fn_set, ret, params, overloaded = line.split("|")
            table[name] = (int(fn_set), ret, params, overloaded == "O")
        table.update(_NOT_IN_BLOB)
        _TABLE = table
    return table


def lookup_intrinsic(name: str) -> str | None:
    """The intrinsic (its base name) that a function called ``name`` is, or None."""
    if not name.startswith("llvm."):
        return None
    table = _load()
    entry = table.get(name)
    if entry is not None:
        return name
    cut = len(name)
    while True:
        cut = name.rfind(".", 0, cut)
        if cut <= 4:
            return None
        base = name[:cut]
        entry = table.get(base)
        if entry is not None:
            return base if entry[3] else None


def _memory(text: str) -> MemoryEffects:
    body = text[len("memory(") : -1]
    me = MemoryEffects.none()
    for part in body.split(","):
        part = part.strip()
        if ":" in part:
            loc, access = (s.strip() for s in part.split(":"))
            me = me.with_mod_ref(LOCATION_BY_NAME[loc], MOD_REF_BY_NAME[access])
        else:
            me = MemoryEffects.with_all(ModRefInfo(MOD_REF_BY_NAME[part]))
    return me


def _attrs(text: str) -> AttributeSet:
    """An attribute set from the few spellings the table uses."""
    if not text:
        return AttributeSet.EMPTY
    out: list[Attribute] = []
    words = text.replace(": ", ":").replace(", ", ",").split()
    i = 0
    while i < len(words):
        w = words[i]
        if w.startswith("memory("):
            out.append(Attribute.memory(_memory(w.replace(":", ": ").replace(",", ", "))))
        elif w == "align":
            i += 1
            out.append(Attribute.alignment(int(words[i])))
        else:
            out.append(Attribute.enum(w))
        i += 1
    return AttributeSet(out)


def intrinsic_attributes(name: str) -> AttributeList | None:
    """LLVM 19's attributes for the intrinsic a function called ``name`` is
    (None when it is not one)."""
    global _FN_SETS
    base = lookup_intrinsic(name)
    if base is None:
        return None
    cached = _CACHE.get(base)
    if cached is not None:
        return cached
    if _FN_SETS is None:
        from llvmpy_mid.ir.intrinsic_table import FN_ATTR_SETS

        _FN_SETS = [_attrs(s) for s in FN_ATTR_SETS]
    fn_set, ret, params, _ = _load()[base]
    param_sets = [_attrs(p) for p in params.split(";")] if params else []
    result = AttributeList(_FN_SETS[fn_set], _attrs(ret), param_sets)
    _CACHE[base] = result
    return result


__all__ = ["intrinsic_attributes", "lookup_intrinsic"]


def intrinsic_declaration(module: Module, name: str, function_type: FunctionType) -> Function:
    """The declaration of intrinsic ``name`` (a full, mangled name) in ``module``, added with
    LLVM's attributes when missing (LLVM ``Intrinsic::getDeclaration``)."""
    existing = module.get_function(name)
    if existing is not None:
        return existing
    fn = module.get_or_insert_function(name, function_type)
    attrs = intrinsic_attributes(name)
    if attrs is not None:
        fn.attributes = attrs
    return fn
