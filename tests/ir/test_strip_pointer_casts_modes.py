"""``strip_pointer_casts`` in LLVM's three modes (``stripPointerCastsAndOffsets``):
zero indices (``stripPointerCasts``), in-bounds offsets (``stripInBoundsOffsets``) and
``PSK_ForAliasAnalysis`` (``stripPointerCastsForAliasAnalysis``), which alone looks
through one-input phis and ``launder``/``strip.invariant.group``."""

from __future__ import annotations

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir import Function, Value
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts, strip_pointer_casts_for_alias_analysis

_SRC = """
declare ptr @llvm.launder.invariant.group.p0(ptr)
declare ptr @llvm.strip.invariant.group.p0(ptr)
declare ptr @ret(ptr returned)

define void @f(ptr %p) {
entry:
  %z = getelementptr i32, ptr %p, i64 0
  %c = addrspacecast ptr %z to ptr addrspace(1)
  %back = addrspacecast ptr addrspace(1) %c to ptr
  %r = call ptr @ret(ptr %back)
  %l = call ptr @llvm.launder.invariant.group.p0(ptr %r)
  %s = call ptr @llvm.strip.invariant.group.p0(ptr %l)
  %ib = getelementptr inbounds i32, ptr %p, i64 3
  %nib = getelementptr i32, ptr %p, i64 3
  br label %next
next:
  %phi = phi ptr [ %r, %entry ]
  ret void
}
"""


def _fn() -> tuple[Function, Value]:
    fn = parse_assembly(_SRC).get_function("f")
    assert fn is not None
    return fn, fn.args[0]


def _v(fn: Function, name: str) -> Value:
    v = fn.symbol_table.lookup(name)
    assert v is not None
    return v


def test_zero_indices_mode() -> None:
    fn, p = _fn()
    assert strip_pointer_casts(_v(fn, "r")) is p  # returned arg, casts, zero GEP
    assert strip_pointer_casts(_v(fn, "s")) is _v(fn, "s")  # invariant.group: no
    assert strip_pointer_casts(_v(fn, "phi")) is _v(fn, "phi")  # phi: no
    assert strip_pointer_casts(_v(fn, "ib")) is _v(fn, "ib")  # offset: no


def test_inbounds_mode() -> None:
    fn, p = _fn()
    assert strip_pointer_casts(_v(fn, "ib"), inbounds=True) is p
    assert strip_pointer_casts(_v(fn, "nib"), inbounds=True) is _v(fn, "nib")


def test_alias_analysis_mode() -> None:
    fn, p = _fn()
    assert strip_pointer_casts_for_alias_analysis(_v(fn, "s")) is p
    assert strip_pointer_casts_for_alias_analysis(_v(fn, "phi")) is p
    assert strip_pointer_casts_for_alias_analysis(_v(fn, "ib")) is _v(fn, "ib")
