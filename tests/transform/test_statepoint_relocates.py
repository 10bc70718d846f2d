"""``ir.statepoint.gc_relocate_pointers`` (LLVM ``GCRelocateInst::getBasePtr``/
``getDerivedPtr``), the one helper behind early-cse's and gvn's relocate keys, instsimplify's
relocate folds and the printer's ``; (base, derived)`` comment.

Checked against opt-19: the printed comments (gc-live inputs, statepoint arguments without
a bundle, an invoke's landingpad token, an undef token), and early-cse/gvn/instsimplify on
relocates that select the same pointers through different indices, undef and null.
"""

from __future__ import annotations

from opt_oracle import assert_same_as_opt

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir import Function
from llvmpy_mid.ir.constants import UndefValue
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.statepoint import gc_relocate_pointers

_DECLS = """
declare void @func()
declare i32 @personality()
declare void @use(ptr addrspace(1), ptr addrspace(1))
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
"""

_SRC = _DECLS + """
define void @live(ptr addrspace(1) %p, ptr addrspace(1) %q) gc "statepoint-example" {
entry:
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @func, i32 0, i32 0, i32 0, i32 0) ["gc-live"(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(1) %p)]
  %a = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 1)
  %b = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 2, i32 1)
  %c = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 1, i32 1)
  call void @use(ptr addrspace(1) %a, ptr addrspace(1) %b)
  call void @use(ptr addrspace(1) %c, ptr addrspace(1) %c)
  ret void
}

define void @undef_token() gc "statepoint-example" {
entry:
  %a = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token undef, i32 0, i32 0)
  %b = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token undef, i32 1, i32 1)
  call void @use(ptr addrspace(1) %a, ptr addrspace(1) %b)
  ret void
}

define void @null_live() gc "statepoint-example" {
entry:
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @func, i32 0, i32 0, i32 0, i32 0) ["gc-live"(ptr addrspace(1) null, ptr addrspace(1) undef)]
  %a = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 0)
  %b = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 1, i32 1)
  call void @use(ptr addrspace(1) %a, ptr addrspace(1) %b)
  ret void
}

define void @unwind(ptr addrspace(1) %p, ptr addrspace(1) %q) gc "statepoint-example" personality ptr @personality {
entry:
  %t = invoke token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @func, i32 0, i32 0, i32 0, i32 0) ["gc-live"(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(1) %q)]
          to label %ok unwind label %bad
ok:
  %a = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 1, i32 2)
  %b = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 1, i32 1)
  call void @use(ptr addrspace(1) %a, ptr addrspace(1) %b)
  ret void
bad:
  %lp = landingpad token cleanup
  %c = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %lp, i32 0, i32 1)
  %d = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %lp, i32 0, i32 2)
  call void @use(ptr addrspace(1) %c, ptr addrspace(1) %d)
  ret void
}
"""


class _Named:
    def __init__(self, fn: Function) -> None:
        self.fn = fn

    def __getitem__(self, name: str) -> CallBase:
        v = self.fn.symbol_table.lookup(name)
        assert v is not None
        return v  # type: ignore[return-value]


def _relocates(fn: Function) -> _Named:
    return _Named(fn)


def test_pointers_selected_by_the_indices() -> None:
    m = parse_assembly(_SRC)
    fn = m.get_function("live")
    assert fn is not None
    p, q = fn.args
    r = _relocates(fn)
    assert gc_relocate_pointers(r["a"])[1:] == (p, q)  # type: ignore[index]
    assert gc_relocate_pointers(r["b"])[1:] == (p, q)  # type: ignore[index]
    assert gc_relocate_pointers(r["c"])[1:] == (q, q)  # type: ignore[index]
    assert gc_relocate_pointers(r["t"]) is None  # the statepoint is no relocate
    uw = m.get_function("unwind")
    assert uw is not None
    p, q = uw.args
    r = _relocates(uw)
    token, base, derived = gc_relocate_pointers(r["c"])  # type: ignore[misc]
    assert token is r["lp"] and (base, derived) == (p, q)  # through the landingpad to the invoke
    undef = m.get_function("undef_token")
    assert undef is not None
    _, base, derived = gc_relocate_pointers(_relocates(undef)["a"])  # type: ignore[misc]
    assert isinstance(base, UndefValue) and base is derived and base.type.is_token


def test_printer_comment_as_opt() -> None:
    assert_same_as_opt(_SRC, "verify")


def test_early_cse_as_opt() -> None:
    assert_same_as_opt(_SRC, "early-cse")


def test_gvn_as_opt() -> None:
    assert_same_as_opt(_SRC, "gvn")


def test_instsimplify_as_opt() -> None:
    assert_same_as_opt(_SRC, "instsimplify")
