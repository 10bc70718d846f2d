"""Pipeline text: parsing, printing, parameters, implicit adaptors and opt-19's errors."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from typing import Iterator

import pytest
from hypothesis import given, strategies as st

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.passes.pipeline_text import (
    PipelineElement,
    PipelineSyntaxError,
    nest,
    parse_flag_and_int_params,
    parse_llvm_unsigned,
    parse_pass_params,
    parse_pipeline,
    print_pipeline,
    split_no_prefix,
)

E = PipelineElement

# A small stand-in for the pass registry: the kinds opt-19 registers these names under.
_KINDS: dict[str, tuple[str, ...]] = {
    "mergefunc": ("module",), "print": ("module",), "verify": ("module", "function"),
    "no-op-module": ("module",), "globaldce": ("module",), "require<globals-aa>": ("module",),
    "invalidate<all>": ("module", "cgscc", "function", "loop"),
    "default<O0>": ("module",), "default<O2>": ("module",),
    "inline": ("cgscc",), "no-op-cgscc": ("cgscc",),
    "mem2reg": ("function",), "instcombine": ("function",), "simplifycfg": ("function",),
    "no-op-function": ("function",), "print<domtree>": ("function",), "require<domtree>": ("function",),
    "invalidate<domtree>": ("function",),
    "licm": ("loop",), "lnicm": ("loop",), "loop-rotate": ("loop",), "no-op-loop": ("loop",),
    "loop-deletion": ("loop",),
}
_WITH_PARAMS = {"instcombine", "simplifycfg", "licm"}


def kind_of(name: str) -> tuple[str, ...]:
    if name in _KINDS:
        return _KINDS[name]
    base = name.partition("<")[0]
    if base in _WITH_PARAMS and name.endswith(">"):
        return _KINDS[base]
    return ()


def resolve(text: str) -> str:
    return print_pipeline(nest(parse_pipeline(text), kind_of))


# --- parsing and printing -------------------------------------------------

def test_parse_shapes() -> None:
    assert parse_pipeline("mem2reg,mergefunc") == [E("mem2reg"), E("mergefunc")]
    assert parse_pipeline("module(function(loop(licm)))") == [
        E("module", None, (E("function", None, (E("loop", None, (E("licm"),)),)),))]
    assert parse_pipeline("print<domtree>") == [E("print", "domtree")]
    assert parse_pipeline("simplifycfg<bonus-inst-threshold=2;no-switch-to-lookup>") == [
        E("simplifycfg", "bonus-inst-threshold=2;no-switch-to-lookup")]
    assert parse_pipeline("function<eager-inv>(instcombine)") == [
        E("function", "eager-inv", (E("instcombine"),))]
    assert parse_pipeline("repeat<3>(instcombine)") == [E("repeat", "3", (E("instcombine"),))]
    assert parse_pipeline("a<b<c>>") == [E("a", "b<c>")]
    assert parse_pipeline("instcombine<>") == [E("instcombine", "")]
    # '<' is not a separator for LLVM: an unclosed one stays part of the name.
    assert parse_pipeline("print<domtree") == [E("print<domtree")]
    # Empty names are kept, as LLVM's tokenizer keeps them.
    assert parse_pipeline("function()") == [E("function", None, (E(""),))]
    assert parse_pipeline("a,,b") == [E("a"), E(""), E("b")]
    assert parse_pipeline("function(mem2reg),") == [E("function", None, (E("mem2reg"),)), E("")]
    assert parse_pipeline("") == []


ROUND_TRIP = [
    "instcombine", "mem2reg,instcombine", "function(mem2reg),mergefunc", "module(function(loop(licm)))",
    "cgscc(devirt<4>(inline,function<eager-inv;no-rerun>(sroa<modify-cfg>,early-cse<>)))",
    "simplifycfg<bonus-inst-threshold=2;no-switch-to-lookup>", "require<domtree>", "invalidate<all>",
    "default<O2>", "repeat<3>(instcombine)", "loop-vectorize<no-interleave-forced-only;;>",
    "a,,b", "function()", "x,", ",x", "()", "a<b<c>>(d)", "f(g(h(i,j),k),l)",
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_round_trip(text: str) -> None:
    assert print_pipeline(parse_pipeline(text)) == text


@given(st.text(alphabet="ab<>;=(),", max_size=30))
def test_round_trip_any_accepted_text(text: str) -> None:
    try:
        parsed = parse_pipeline(text)
    except PipelineSyntaxError:
        return
    assert print_pipeline(parsed) == text


def test_deep_nesting_does_not_recurse() -> None:
    text = "function(" * 5000 + "x" + ")" * 5000
    assert print_pipeline(parse_pipeline(text)) == text


# Messages below were observed from `opt-19 -passes='<text>' -disable-output x.ll`.
@pytest.mark.parametrize("text, offset", [
    ("function(instcombine", 20), ("function(instcombine))", 21), ("instcombine)", 11),
    ("function(instcombine)x", 21), ("function(instcombine)(x)", 21),
    ("function(a<b(c)>)", 15),
])
def test_syntax_errors(text: str, offset: int) -> None:
    with pytest.raises(PipelineSyntaxError) as info:
        parse_pipeline(text)
    assert str(info.value) == "invalid pipeline '%s'" % text
    assert info.value.offset == offset
    assert isinstance(info.value, PipelineError)


# --- nesting and implicit adaptors -----------------------------------------

# Expected text observed from `opt-19 -print-pipeline-passes` (trailing ",verify" and the
# passes' default parameters such as licm<allowspeculation> removed).
@pytest.mark.parametrize("text, expected", [
    ("instcombine", "function(instcombine)"),
    ("licm", "function(loop-mssa(licm))"),
    ("lnicm", "function(loop-mssa(lnicm))"),
    ("loop-rotate,licm", "function(loop(loop-rotate,licm))"),
    ("function(mem2reg),mergefunc", "function(mem2reg),mergefunc"),
    ("mem2reg,instcombine", "function(mem2reg,instcombine)"),
    ("mergefunc,mem2reg", "mergefunc,function(mem2reg)"),
    ("mergefunc,mem2reg,instcombine", "mergefunc,function(mem2reg),function(instcombine)"),
    ("mergefunc,licm", "mergefunc,function(loop(licm))"),
    ("mergefunc,inline", "mergefunc,cgscc(inline)"),
    ("inline", "cgscc(inline)"),
    ("inline,mem2reg", "cgscc(inline,function(mem2reg))"),
    ("loop(licm)", "function(loop(licm))"),
    ("function(licm)", "function(loop(licm))"),
    ("function(licm,instcombine)", "function(loop(licm),instcombine)"),
    ("module(function(loop(licm)))", "function(loop(licm))"),
    ("module(licm)", "function(loop(licm))"),
    ("module(inline)", "cgscc(inline)"),
    ("cgscc(mem2reg)", "cgscc(function(mem2reg))"),
    ("cgscc(licm)", "cgscc(function(loop(licm)))"),
    ("cgscc(function(instcombine))", "cgscc(function(instcombine))"),
    ("cgscc(function<no-rerun;eager-inv>(instcombine))", "cgscc(function<eager-inv;no-rerun>(instcombine))"),
    ("cgscc(function<>(instcombine))", "cgscc(function(instcombine))"),
    ("devirt<0x2>(inline)", "cgscc(devirt<2>(inline))"),
    ("function<eager-inv>(instcombine)", "function<eager-inv>(instcombine)"),
    ("function(function(instcombine))", "function(instcombine)"),
    ("loop(loop(licm))", "function(loop(licm))"),
    ("cgscc(inline,cgscc(inline))", "cgscc(inline,inline)"),
    ("module(module(mergefunc))", "mergefunc"),
    ("loop-mssa(licm),instcombine", "function(loop-mssa(licm),instcombine)"),
    ("print<domtree>", "function(print<domtree>)"),
    ("require<domtree>", "function(require<domtree>)"),
    ("invalidate<all>", "invalidate<all>"),
    ("invalidate<all>,mem2reg", "invalidate<all>,function(mem2reg)"),
    ("require<globals-aa>,mem2reg", "require<globals-aa>,function(mem2reg)"),
    ("no-op-module,no-op-function", "no-op-module,function(no-op-function)"),
    ("cgscc(inline),instcombine", "cgscc(inline),function(instcombine)"),
    ("coro-cond(mergefunc)", "coro-cond(mergefunc)"),
    ("", ""),
])
def test_nest(text: str, expected: str) -> None:
    assert resolve(text) == expected


# Messages observed from opt-19 (printed as "opt-19: <message>").
NEST_ERRORS = [
    ("mem2reg,mergefunc", "unknown function pass 'mergefunc'"),
    ("function(mem2reg,mergefunc)", "unknown function pass 'mergefunc'"),
    ("print<domtree>,mergefunc", "unknown function pass 'mergefunc'"),
    ("licm,instcombine", "unknown loop pass 'instcombine'"),
    ("inline,mergefunc", "unknown cgscc pass 'mergefunc'"),
    ("function(inline)", "unknown function pass 'inline'"),
    ("loop(mem2reg)", "unknown loop pass 'mem2reg'"),
    ("instcombine,", "unknown function pass ''"),
    (",instcombine", "unknown pass name ''"),
    ("a,,b", "unknown pass name 'a'"),
    ("function()", "unknown function pass ''"),
    ("function(,)", "unknown function pass ''"),
    ("function(mem2reg,)", "unknown function pass ''"),
    ("mergefunc,", "unknown module pass ''"),
    ("function(mem2reg),", "unknown module pass ''"),
    ("function(mem2reg),,mergefunc", "unknown module pass ''"),
    ("()", "unknown pipeline name ''"),
    ("foo", "unknown pass name 'foo'"),
    ("a b", "unknown pass name 'a b'"),
    ("foo(bar)", "unknown pipeline name 'foo'"),
    ("function(foo)", "unknown function pass 'foo'"),
    ("function( instcombine)", "unknown function pass ' instcombine'"),
    ("module(foo)", "unknown module pass 'foo'"),
    ("cgscc(foo)", "unknown cgscc pass 'foo'"),
    ("loop(foo)", "unknown loop pass 'foo'"),
    ("print<domtree", "unknown pass name 'print<domtree'"),
    ("function", "unknown module pass 'function'"),
    ("repeat<3>", "unknown pass name 'repeat<3>'"),
    ("repeat<3>(mergefunc)", "unknown pipeline name 'repeat<3>'"),
    ("module(repeat<3>(mergefunc))", "invalid use of 'repeat<3>' pass as module pipeline"),
    ("function(repeat<3>(instcombine))", "invalid use of 'repeat<3>' pass as function pipeline"),
    ("mem2reg(x)", "invalid use of 'mem2reg' pass as function pipeline"),
    ("loop(licm(x))", "invalid use of 'licm' pass as loop pipeline"),
    ("function(instcombine(x))", "invalid use of 'instcombine' pass as function pipeline"),
    ("default<O2>(x)", "invalid use of 'default<O2>' pass as module pipeline"),
    ("function<foo>(instcombine)", "invalid use of 'function<foo>' pass as module pipeline"),
    ("function<no-rerun>(instcombine)", "cannot have a no-rerun module to function adaptor"),
    ("function<eager-inv;no-rerun>(instcombine)", "cannot have a no-rerun module to function adaptor"),
    ("cgscc(function<foo>(instcombine))", "invalid use of 'function<foo>' pass as cgscc pipeline"),
    ("function<eager-inv>(function<eager-inv>(instcombine))",
     "invalid use of 'function<eager-inv>' pass as function pipeline"),
    ("function(cgscc(inline))", "invalid use of 'cgscc' pass as function pipeline"),
    ("function(module(mergefunc))", "invalid use of 'module' pass as function pipeline"),
    ("cgscc(module(mergefunc))", "invalid use of 'module' pass as cgscc pipeline"),
    ("loop(loop-mssa(licm))", "invalid use of 'loop-mssa' pass as loop pipeline"),
    ("cgscc<a>(inline)", "unknown pipeline name 'cgscc<a>'"),
    ("module<x>(mergefunc)", "unknown pipeline name 'module<x>'"),
    ("loop<a>(licm)", "unknown pipeline name 'loop<a>'"),
    ("loop-mssa<x>(licm)", "unknown pipeline name 'loop-mssa<x>'"),
    ("function(loop-mssa<x>(licm))", "invalid use of 'loop-mssa<x>' pass as function pipeline"),
    ("devirt<x>(inline)", "unknown pipeline name 'devirt<x>'"),
    ("devirt<-1>(inline)", "unknown pipeline name 'devirt<-1>'"),
    ("cgscc(devirt<x>(inline))", "invalid use of 'devirt<x>' pass as cgscc pipeline"),
]


@pytest.mark.parametrize("text, message", NEST_ERRORS)
def test_nest_errors(text: str, message: str) -> None:
    with pytest.raises(PipelineError) as info:
        resolve(text)
    assert str(info.value) == message


def test_repeat_when_supported() -> None:
    got = nest(parse_pipeline("repeat<3>(mergefunc),function(repeat<2>(mem2reg))"), kind_of, repeat_supported=True)
    assert print_pipeline(got) == "repeat<3>(mergefunc),function(repeat<2>(mem2reg))"


def test_memory_ssa_callback() -> None:
    got = nest(parse_pipeline("loop-rotate"), kind_of, uses_memory_ssa=lambda n: n == "loop-rotate")
    assert print_pipeline(got) == "function(loop-mssa(loop-rotate))"


# --- parameters ---------------------------------------------------------------

def test_parse_pass_params() -> None:
    assert parse_pass_params("a;no-b;c=3") == [("a", None), ("no-b", None), ("c", "3")]
    assert parse_pass_params("") == []
    assert parse_pass_params("a;") == [("a", None)]
    assert parse_pass_params(";;") == [("", None), ("", None)]
    assert parse_pass_params("k=a=b") == [("k", "a=b")]
    assert split_no_prefix("no-switch-to-lookup") == ("switch-to-lookup", False)
    assert split_no_prefix("keep-loops") == ("keep-loops", True)


def test_llvm_unsigned() -> None:
    # opt-19 printed max-iterations=16 for 0x10 and 8 for 010; refused '+3', '-1' and ''.
    assert parse_llvm_unsigned("0x10") == 16
    assert parse_llvm_unsigned("010") == 8
    assert parse_llvm_unsigned("0b11") == 3
    assert parse_llvm_unsigned("0") == 0
    assert parse_llvm_unsigned("42") == 42
    for bad in ("+3", "-1", "", "x", "0x", "09", "1_0", " 1", "١"):
        assert parse_llvm_unsigned(bad) is None


_SIMPLIFYCFG_FLAGS = {"forward-switch-cond": False, "switch-range-to-icmp": False, "switch-to-lookup": False,
                      "keep-loops": True, "hoist-common-insts": False, "sink-common-insts": False}
_SIMPLIFYCFG_INTS = {"bonus-inst-threshold": ("bonus-threshold", 1)}


def simplifycfg(params: str) -> dict[str, bool | int]:
    return parse_flag_and_int_params(params, "SimplifyCFG", _SIMPLIFYCFG_FLAGS, _SIMPLIFYCFG_INTS)


def test_flag_and_int_params() -> None:
    got = simplifycfg("bonus-inst-threshold=2;no-switch-to-lookup;no-keep-loops;hoist-common-insts")
    assert got["bonus-inst-threshold"] == 2 and got["keep-loops"] is False
    assert got["switch-to-lookup"] is False and got["hoist-common-insts"] is True
    assert parse_flag_and_int_params(None, "X", {"a": True}) == {"a": True}


# Messages observed from opt-19 (note the trailing space LLVM leaves in these).
@pytest.mark.parametrize("params, message", [
    ("bonus-inst-threshold=x", "invalid argument to SimplifyCFG pass bonus-threshold parameter: 'x' "),
    ("bonus-inst-threshold=-1", "invalid argument to SimplifyCFG pass bonus-threshold parameter: '-1' "),
    ("bonus-inst-threshold=", "invalid argument to SimplifyCFG pass bonus-threshold parameter: '' "),
    ("foo", "invalid SimplifyCFG pass parameter 'foo' "),
    ("no-foo", "invalid SimplifyCFG pass parameter 'foo' "),
    ("keep-loops=1", "invalid SimplifyCFG pass parameter 'keep-loops=1' "),
    ("bonus-inst-threshold", "invalid SimplifyCFG pass parameter 'bonus-inst-threshold' "),
    ("no-bonus-inst-threshold=3", "invalid SimplifyCFG pass parameter 'bonus-inst-threshold=3' "),
    (";;", "invalid SimplifyCFG pass parameter '' "),
])
def test_param_errors(params: str, message: str) -> None:
    with pytest.raises(PipelineError) as info:
        simplifycfg(params)
    assert str(info.value) == message


# --- live comparison with opt-19 ----------------------------------------------

OPT = shutil.which("opt-19")
live = pytest.mark.skipif(OPT is None, reason="opt-19 is not installed")

# Default parameters opt prints for passes whose parameters this module does not know.
_OPT_DEFAULTS = {
    "instcombine<max-iterations=1;no-use-loop-info;verify-fixpoint>": "instcombine",
    "licm<allowspeculation>": "licm",
    "lnicm<allowspeculation>": "lnicm",
    "loop-rotate<header-duplication;no-prepare-for-lto>": "loop-rotate",
}


@pytest.fixture(scope="module")
def ll_file() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "x.ll")
        with open(path, "w") as f:
            f.write("define void @f() {\n  ret void\n}\n")
        yield path


def run_opt(text: str, ll: str) -> tuple[bool, str]:
    assert OPT is not None
    proc = subprocess.run([OPT, "-print-pipeline-passes", "-passes=" + text, "-disable-output", ll],
                          capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        line = proc.stderr.splitlines()[0]
        prefix = OPT + ": "  # opt names itself by the path it was run as
        return False, line[len(prefix):] if line.startswith(prefix) else line
    out = proc.stdout.strip()
    out = out[: -len(",verify")] if out.endswith(",verify") else ("" if out == "verify" else out)
    for long, short in _OPT_DEFAULTS.items():
        out = out.replace(long, short)
    return True, out


@live
@pytest.mark.parametrize("text", [
    "instcombine", "licm", "function(mem2reg),mergefunc", "mem2reg,instcombine", "mergefunc,mem2reg,instcombine",
    "inline,mem2reg", "cgscc(licm)", "module(function(loop(licm)))", "loop-rotate,licm",
    "cgscc(function<no-rerun;eager-inv>(instcombine))", "devirt<0x2>(inline)", "invalidate<all>,mem2reg",
    "print<domtree>", "function(function(instcombine))", "module(module(mergefunc))",
])
def test_live_nest(text: str, ll_file: str) -> None:
    ok, expected = run_opt(text, ll_file)
    assert ok, expected
    assert resolve(text) == expected


@live
@pytest.mark.parametrize("text", [t for t, _ in NEST_ERRORS] + [
    "function(instcombine", "function(instcombine))", "function(instcombine)x", "function(a<b(c)>)",
])
def test_live_errors(text: str, ll_file: str) -> None:
    ok, message = run_opt(text, ll_file)
    assert not ok
    with pytest.raises(PipelineError) as info:
        resolve(text)
    assert str(info.value) == message


@live
@pytest.mark.parametrize("params", ["bonus-inst-threshold=x", "no-foo", "keep-loops=1", ";;"])
def test_live_param_errors(params: str, ll_file: str) -> None:
    ok, message = run_opt("simplifycfg<%s>" % params, ll_file)
    assert not ok
    with pytest.raises(PipelineError) as info:
        simplifycfg(params)
    assert str(info.value) == message
