"""``called-value-propagation`` against opt-19, byte for byte.

Small modules where indirect callees come through selects, phis, internal
arguments, return values and global variables, with the limit of four functions
per value (and ``-cvp-max-functions-per-value``), a null callee, and values the
lattice cannot follow. The expected text is what opt-19 prints, made in the
test; the tests skip when opt-19 is not installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402


def _body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename"))).strip()


def _opt19(text: str, *flags: str) -> str:
    require_tools("opt-19")
    r = subprocess.run(
        ["opt-19", "-passes=called-value-propagation", *flags, "-S", "-"], input=text, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    return r.stdout


def _ours(text: str, options: dict[str, object] | None = None) -> str:
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, "called-value-propagation", options=options)  # type: ignore[arg-type]
    llvmpy_mid.verify_module(module)
    return print_module(module)


_FUNCS = "".join("define void @f%d() {\n  ret void\n}\n" % i for i in range(6))

CASES = {
    "select_phi": _FUNCS + """
define void @a(i1 %c, i1 %d) {
entry:
  %s = select i1 %c, ptr @f1, ptr @f0
  br i1 %d, label %x, label %y
x:
  br label %y
y:
  %p = phi ptr [ %s, %entry ], [ @f2, %x ]
  call void %p()
  call void %s()
  ret void
}
""",
    "internal_arg_and_return": _FUNCS + """
define internal void @callit(ptr %fp) {
  call void %fp()
  ret void
}
define internal ptr @pick(i1 %c) {
  %r = select i1 %c, ptr @f3, ptr @f4
  ret ptr %r
}
define void @b(i1 %c) {
  call void @callit(ptr @f0)
  call void @callit(ptr @f5)
  %q = call ptr @pick(i1 %c)
  call void %q()
  ret void
}
""",
    "global_memory": _FUNCS + """
@fp = internal global ptr @f0
@ext = global ptr @f1
define void @c(i1 %c) {
  br i1 %c, label %s, label %l
s:
  store ptr @f2, ptr @fp
  br label %l
l:
  %v = load ptr, ptr @fp
  call void %v()
  %w = load ptr, ptr @ext
  call void %w()
  ret void
}
""",
    "too_many_and_null": _FUNCS + """
define void @d(i32 %k) {
  %a = icmp eq i32 %k, 0
  %b = icmp eq i32 %k, 1
  %c = icmp eq i32 %k, 2
  %d = icmp eq i32 %k, 3
  %s1 = select i1 %a, ptr @f0, ptr @f1
  %s2 = select i1 %b, ptr %s1, ptr @f2
  %s3 = select i1 %c, ptr %s2, ptr @f3
  call void %s3()
  %s4 = select i1 %d, ptr %s3, ptr @f4
  call void %s4()
  %n = select i1 %a, ptr null, ptr @f5
  call void %n()
  %z = select i1 %a, ptr null, ptr null
  call void %z()
  ret void
}
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_like_opt19(name: str) -> None:
    assert _body(_ours(CASES[name])) == _body(_opt19(CASES[name]))


def test_max_functions_option() -> None:
    text = CASES["too_many_and_null"]
    ours = _ours(text, {"cvp-max-functions-per-value": 2})
    assert _body(ours) == _body(_opt19(text, "-cvp-max-functions-per-value=2"))
