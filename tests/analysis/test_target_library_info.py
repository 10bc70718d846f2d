"""TargetLibraryInfo: library-function recognition and per-triple availability.

The oracle is ``opt-19 -passes=inferattrs``, which adds attributes only to
declarations TargetLibraryInfo recognises (name, prototype, availability on
the module's triple). For each triple, a module declaring all 483 library
functions with their prototypes goes through opt-19: every declaration it
annotates must be one we recognise, and the ones we recognise that it leaves
alone must be the deallocation functions LLVM has no attributes for. Wrong
prototypes and ``no-builtin`` attributes are checked too.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from llvmpy_mid import parse_assembly
from llvmpy_mid.analysis.target_library_info import LibFunc, TargetLibraryInfo
from llvmpy_mid.analysis.target_library_info_table import LIB_FUNCS

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402

_TY = {
    "Void": "void", "Bool": "i8", "Int16": "i16", "Int32": "i32", "Int": "i32", "IntPlus": "i32", "Long": "i64",
    "IntX": "i32", "Int64": "i64", "LLong": "i64", "SizeT": "i64", "SSizeT": "i64", "Flt": "float", "Dbl": "double",
    "LDbl": "x86_fp80", "Floating": "double", "Ptr": "ptr", "Struct": "{ i32, i32 }",
}


def _declaration(enum: str, name: str, sig: tuple[str, ...]) -> str:
    if enum in ("cabs", "cabsf", "cabsl"):
        t = {"cabs": "double", "cabsf": "float", "cabsl": "x86_fp80"}[enum]
        return 'declare %s @"%s"(%s, %s)' % (t, name, t, t)
    if enum in ("sincospi_stret", "sincospif_stret"):
        t = "double" if enum == "sincospi_stret" else "float"
        return 'declare { %s, %s } @"%s"(%s)' % (t, t, name, t)
    ret = _TY[sig[0]]
    params: list[str] = []
    last = ret
    for t in sig[1:]:
        if t == "Void":
            break
        if t == "Ellip":
            params.append("...")
            break
        if t != "Same":
            last = _TY[t]
        params.append(last)
    return 'declare %s @"%s"(%s)' % (ret, name, ", ".join(params))


def _module_text(triple: str) -> str:
    lines = ['target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"', 'target triple = "%s"' % triple]
    lines += [_declaration(e, n, s) for e, n, s in LIB_FUNCS]
    return "\n".join(lines) + "\n"


_ATTR_WORDS = ("#", "noundef", "nocapture", "readonly", "writeonly", "noalias", "signext", "zeroext", "returned",
               "nonnull", "align", "dereferenceable")
_DEALLOCATORS = re.compile(r"^(_Zd[la]Pv|\?\?3@|\?\?_V@|__kmpc_free_shared$)")


def _opt_annotated(text: str, tmp_path: Path) -> set[str]:
    src = tmp_path / "libfuncs.ll"
    src.write_text(text)
    out = subprocess.run(["opt-19", "-passes=inferattrs", "-S", str(src)], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        if not line.startswith("declare"):
            continue
        m = re.search(r'@"([^"]+)"|@([\w.$]+)', line)
        assert m is not None
        rest = line.replace(m.group(0), "@F")
        if any(w in rest for w in _ATTR_WORDS):
            names.add(m.group(1) or m.group(2))
    return names


@pytest.mark.parametrize(
    "triple",
    ["x86_64-unknown-linux-gnu", "x86_64-apple-macosx10.15.0", "x86_64-pc-windows-msvc", "", "x86_64-scei-ps4",
     "nvptx64-nvidia-cuda", "x86_64-unknown-linux-musl", "arm64-apple-ios13.0"],
)
def test_recognition_agrees_with_inferattrs(triple: str, tmp_path: Path) -> None:
    require_tools("opt-19")
    text = _module_text(triple)
    annotated = _opt_annotated(text, tmp_path)
    module = parse_assembly(text)
    ours = set()
    for fn in module.functions:
        tli = TargetLibraryInfo.for_function(fn)
        e = tli.get_lib_func(fn)
        if e is not None and tli.has(e):
            ours.add(fn.name)
    assert annotated <= ours, sorted(annotated - ours)
    extra = ours - annotated
    assert all(_DEALLOCATORS.match(n) for n in extra), sorted(extra)


def test_wrong_prototypes_are_not_library_functions(tmp_path: Path) -> None:
    require_tools("opt-19")
    text = """target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
declare ptr @malloc(i32)
declare i32 @strlen(ptr)
declare i32 @printf(ptr)
declare float @sqrt(float)
declare ptr @memcpy(ptr, ptr, i64, i64)
declare i64 @strlen.1(ptr)
"""
    assert _opt_annotated(text, tmp_path) == set()
    module = parse_assembly(text)
    tli = TargetLibraryInfo.for_triple("x86_64-unknown-linux-gnu")
    assert all(tli.get_lib_func(fn) is None for fn in module.functions)


def test_no_builtin_attributes_and_disable() -> None:
    module = parse_assembly("""target triple = "x86_64-unknown-linux-gnu"
define void @f() "no-builtin-memcpy" { ret void }
define void @g() "no-builtins" { ret void }
define void @h() { ret void }
""")
    f, g, h = (module.get_function(n) for n in "fgh")
    assert not TargetLibraryInfo.for_function(f).has("memcpy")
    assert TargetLibraryInfo.for_function(f).has("memset")
    assert not TargetLibraryInfo.for_function(g).has("memset")
    tli = TargetLibraryInfo.for_function(h)
    assert tli.has("memcpy")
    tli.disable("memcpy")
    assert not tli.has("memcpy") and TargetLibraryInfo.for_function(h).has("memcpy")
    with pytest.raises(KeyError):
        tli.disable("no_such_function")


def test_names_and_custom_names() -> None:
    assert LibFunc.from_symbol("__strdup") == "dunder_strdup"
    assert LibFunc.symbol("Znwm") == "_Znwm"
    assert LibFunc.from_symbol("\x01malloc") == "malloc"
    assert LibFunc.from_symbol("not_a_libfunc") is None
    assert TargetLibraryInfo.for_triple("x86_64-apple-macosx10.15.0").get_name("exp10") == "__exp10"
    assert TargetLibraryInfo.for_triple("x86_64-unknown-linux-gnu").get_name("exp10") == ""
    assert TargetLibraryInfo.for_triple("i686-pc-windows-msvc17").get_name("copysign") == "_copysign"
    assert TargetLibraryInfo.for_triple("x86_64-unknown-linux-gnu").has("bcmp")
    assert not TargetLibraryInfo.for_triple("").has("bcmp")


def test_tool_options_disable_builtins() -> None:
    """opt's -disable-builtin=NAME and -disable-simplify-libcalls reach the analysis result;
    a name that is no library function is refused as opt-19 refuses it."""
    import llvmpy_mid.passes.registry  # noqa: F401  (declares the options)
    from llvmpy_mid.analysis.target_library_info import apply_tool_options
    from llvmpy_mid.errors import PipelineError
    from llvmpy_mid.passes.options import OPTIONS

    def fresh() -> TargetLibraryInfo:
        return TargetLibraryInfo.for_triple("x86_64-unknown-linux-gnu")

    with OPTIONS.overriding({"disable-builtin": "memcpy"}):
        tli = fresh()
        apply_tool_options(tli)
        assert not tli.has("memcpy") and tli.has("memset")
    with OPTIONS.overriding({"disable-simplify-libcalls": None}):
        tli = fresh()
        apply_tool_options(tli)
        assert not tli.has("memset")
    with OPTIONS.overriding({"disable-builtin": "foo"}):
        with pytest.raises(PipelineError, match="cannot disable nonexistent builtin function foo"):
            apply_tool_options(fresh())
    tli = fresh()
    apply_tool_options(tli)
    assert tli.has("memcpy")
