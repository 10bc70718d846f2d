"""The library from a notebook: misuse gets a clear error at the public boundary, Python numbers
work as operands, erased instructions refuse further use, analyses are one call away, and
``run_passes`` hands back what printer passes print.
"""

from __future__ import annotations

import io
import subprocess
import textwrap
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid import analysis, examples
from llvmpy_mid.asm import InputError, InputFileNotFoundError
from llvmpy_mid.ir import ConstantFP, ConstantInt, Context, Function, IRBuilder, Module
from llvmpy_mid.passes import Pass, PreservedAnalyses
from llvmpy_mid.passes.registry import PassRegistry
from tests.oracles import require_tools

SUM_PAIRS = examples.path("sum_pairs.ll")


def _module() -> tuple[Module, Function, IRBuilder]:
    ctx = Context()
    m = Module("nb", ctx)
    fn = Function(
        ctx.function_type(ctx.i32, [ctx.i32, ctx.double, ctx.ptr, ctx.vector_type(ctx.i32, 2)]),
        "f",
        module=m,
        arg_names=["a", "d", "p", "v"],
    )
    return m, fn, IRBuilder(fn.append_block("entry"))


# --- Python numbers as operands ------------------------------------------------------------------


def test_builder_accepts_python_numbers() -> None:
    m, fn, b = _module()
    a, d, p, v = fn.args
    s = b.add(a, 1, "s", nsw=True)
    t = b.sub(7, s, "t")
    f = b.fmul(d, 2)
    c = b.icmp("slt", t, 0, "c")
    fc = b.fcmp("olt", 0.5, f, "fc")
    sel = b.select(c, t, -1, "sel")
    vv = b.mul(v, 3, "vv")
    g = b.gep(m.context.i32, p, [2], "g")
    k = b.call(fn, [sel, 1.5, g, vv], "k")
    b.ret(k)
    assert s.operands[1] is ConstantInt.get(m.context.i32, 1)
    assert f.operands[1] is ConstantFP.get(m.context.double, 2.0)
    assert b.ret is not None and fc.operands[0] is ConstantFP.get(m.context.double, 0.5)
    llvmpy_mid.verify_module(m)
    text = str(fn)
    for line in (
        "%s = add nsw i32 %a, 1",
        "%t = sub i32 7, %s",
        "%0 = fmul double %d, 2.000000e+00",
        "%c = icmp slt i32 %t, 0",
        "%fc = fcmp olt double 5.000000e-01, %0",
        "%sel = select i1 %c, i32 %t, i32 -1",
        "%vv = mul <2 x i32> %v, <i32 3, i32 3>",
        "%g = getelementptr i32, ptr %p, i64 2",
        "%k = call i32 @f(i32 %sel, double 1.500000e+00, ptr %g, <2 x i32> %vv)",
        "ret i32 %k",
    ):
        assert "  " + line + "\n" in text


def test_builder_ret_of_a_number() -> None:
    m, fn, b = _module()
    assert str(b.ret(0)) == "ret i32 0"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda b, a, d, p: b.add(1, 2), "at least one operand must be a Value"),
        (lambda b, a, d, p: b.add(a, 1.5), "1.5 is not an int, and the other operand is i32"),
        (lambda b, a, d, p: b.add(a, "1"), "second operand must be a Value or a Python number, not str '1'"),
        (lambda b, a, d, p: b.add(a, a, True), "name must be a str, not bool"),
        (lambda b, a, d, p: b.icmp(a, "slt", 0), "the predicate comes first"),
        (lambda b, a, d, p: b.load(p, a.type), "the loaded type comes first, then the pointer"),
        (lambda b, a, d, p: b.store(1, p), "the value must be a Value, not int 1"),
        (lambda b, a, d, p: b.alloca(a.type, "x"), "pass the name as name='x'"),
        (lambda b, a, d, p: b.call(b.function, a), "args must be a list of values"),
        (lambda b, a, d, p: b.gep(p, a.type, [0]), "the element type comes first"),
        (lambda b, a, d, p: b.br(b.function), "br needs a BasicBlock, not Function (fn.append_block(name) makes one)"),
        (lambda b, a, d, p: b.cond_br(b.block, b.block, b.block), "the i1 condition comes first"),
        (lambda b, a, d, p: IRBuilder(b.function), "needs a BasicBlock, not Function"),
        (lambda b, a, d, p: b.insert(a), "IRBuilder.insert needs an Instruction, not Argument"),
    ],
)
def test_builder_misuse_is_a_clear_type_error(call: object, message: str) -> None:
    m, fn, b = _module()
    a, d, p, _ = fn.args
    before = str(m)
    with pytest.raises(TypeError, match=_literal(message)):
        call(b, a, d, p)  # type: ignore[operator]
    assert str(m) == before  # nothing half-built was left behind
    assert a.use_empty and p.use_empty


def _literal(text: str) -> str:
    import re

    return re.escape(text)


def test_constructors_check_their_arguments() -> None:
    ctx = Context()
    with pytest.raises(TypeError, match=r"ConstantInt.get\(type, value\): the first argument must be an integer Type"):
        ConstantInt.get(32, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="the value must be an int, not str"):
        ConstantInt.get(ctx.i32, "1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"must be a FunctionType, not IntegerType \(i32\); make one with ctx.function_type"):
        Function(ctx.i32, "g")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="the function type comes first, then the name"):
        Function("g", ctx.function_type(ctx.void))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="the name must be a str, not int"):
        Function(ctx.function_type(ctx.void), 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="linkage must be a Linkage"):
        Function(ctx.function_type(ctx.void), "g", Module("m", ctx))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="the name must be a str, not Context"):
        Module(ctx)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="the first argument must be a Context"):
        from llvmpy_mid.ir import BasicBlock

        BasicBlock("entry")  # type: ignore[arg-type]


def test_values_of_two_contexts_say_so() -> None:
    m, fn, b = _module()
    other = ConstantInt.get(Context().i32, 1)
    with pytest.raises(llvmpy_mid.IRError, match="i32 vs i32: the values belong to different Contexts"):
        b.add(fn.args[0], other)
    with pytest.raises(llvmpy_mid.IRError, match="different Contexts"):
        b.icmp("eq", fn.args[0], other)


# --- erased instructions -------------------------------------------------------------------------


def test_erased_instruction_refuses_every_use() -> None:
    m, fn, b = _module()
    a = fn.args[0]
    x = b.add(a, 1)
    keep = b.mul(a, 2)
    ret = b.ret(keep)
    x.erase_from_parent()
    assert x.is_erased and repr(x) == "<erased AddInst>"
    for action, call in [
        ("print", lambda: str(x)),
        ("erase", x.erase_from_parent),
        ("remove", x.remove_from_parent),
        ("insert", lambda: x.insert_before(ret)),
        ("insert", lambda: b.insert(x)),
        ("insert", lambda: fn.entry_block.append(x)),
        ("move", lambda: x.move_before(ret)),
        ("replace the uses of", lambda: x.replace_all_uses_with(a)),
        ("set an operand of", lambda: x.set_operand(0, a)),
    ]:
        with pytest.raises(llvmpy_mid.IRError, match="cannot %s an erased AddInst" % action):
            call()
    assert [i.opcode for i in fn.entry_block] == ["mul", "ret"]
    llvmpy_mid.verify_module(m)


# --- parsing -------------------------------------------------------------------------------------


def test_parse_assembly_accepts_utf8_bytes() -> None:
    text = SUM_PAIRS.read_text()
    assert str(llvmpy_mid.parse_assembly(text.encode())) == str(llvmpy_mid.parse_assembly(text))
    with pytest.raises(TypeError, match="text must be a str"):
        llvmpy_mid.parse_assembly(1234)  # type: ignore[arg-type]


def test_parse_file_missing_and_bitcode(tmp_path: Path) -> None:
    with pytest.raises(InputFileNotFoundError) as info:
        llvmpy_mid.parse_file(tmp_path / "nope.ll")
    assert isinstance(info.value, FileNotFoundError) and isinstance(info.value, llvmpy_mid.ParseError)
    assert str(info.value) == "%s: error: no such file" % (tmp_path / "nope.ll")
    require_tools("llvm-as-19")
    bc = tmp_path / "m.bc"
    subprocess.run(["llvm-as-19", str(SUM_PAIRS), "-o", str(bc)], check=True)
    with pytest.raises(InputError, match="bitcode input is not supported"):
        llvmpy_mid.parse_file(bc)
    with pytest.raises(InputError, match="bitcode input is not supported"):
        llvmpy_mid.parse_assembly(bc.read_bytes())


# --- running passes ------------------------------------------------------------------------------


def test_run_passes_arguments() -> None:
    m = llvmpy_mid.parse_file(SUM_PAIRS)
    fn = m.get_function("sum_pairs")
    with pytest.raises(TypeError, match="the first argument must be a Module, not Function; pass the function's module"):
        llvmpy_mid.run_passes(fn, "instnamer")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="options must be a mapping"):
        llvmpy_mid.run_passes(m, "instnamer", options=["x"])  # type: ignore[arg-type]
    by_list = llvmpy_mid.parse_file(SUM_PAIRS)
    llvmpy_mid.run_passes(by_list, ["loop-simplify", "instnamer"])
    llvmpy_mid.run_passes(m, "loop-simplify,instnamer")
    assert str(by_list) == str(m)


def test_run_passes_keeps_printer_output() -> None:
    require_tools("opt-19")
    expected = subprocess.run(
        ["opt-19", "-disable-output", "-passes=print<loops>,print<domtree>", str(SUM_PAIRS)],
        capture_output=True, text=True, check=True,
    ).stderr
    m = llvmpy_mid.parse_file(SUM_PAIRS)
    sink = io.StringIO()
    result = llvmpy_mid.run_passes(m, "print<loops>,print<domtree>", stream=sink)
    assert result.output == expected and sink.getvalue() == expected


def test_run_passes_output_also_reaches_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    m = llvmpy_mid.parse_file(SUM_PAIRS)
    result = llvmpy_mid.run_passes(m, "print<loops>")
    assert result.output.startswith("Loop info for function 'sum_pairs':\nLoop at depth 1 containing: %3<header>")
    assert capsys.readouterr().err == result.output


def test_pass_classes_are_checked() -> None:
    registry = PassRegistry()

    class Plain:
        def run(self, fn: Function, am: object) -> PreservedAnalyses:
            return PreservedAnalyses.all()

    with pytest.raises(TypeError, match=r"Plain is not a Pass; subclass llvmpy_mid.passes.Pass"):
        registry.register_pass("plain", "function")(Plain)

    @registry.register_pass("forgets-result", "function")
    class ForgetsResult(Pass[Function]):
        def run(self, fn: Function, am: object) -> PreservedAnalyses:
            return None  # type: ignore[return-value]

    m = llvmpy_mid.parse_file(SUM_PAIRS)
    with pytest.raises(llvmpy_mid.PipelineError, match="pass ForgetsResult returned None from run"):
        llvmpy_mid.run_passes(m, "forgets-result", registry=registry)


# --- analyses ------------------------------------------------------------------------------------


def test_analyses_from_python() -> None:
    m = llvmpy_mid.parse_file(SUM_PAIRS)
    fn = m.get_function("sum_pairs")
    assert fn is not None
    blocks = {bb.name or "entry": bb for bb in fn.blocks}
    dt = analysis.domtree(fn)
    assert dt.idom(blocks["latch"]) is blocks["inner"] and dt.idom(blocks["exit"]) is fn.entry_block
    pdt = analysis.postdomtree(fn)
    assert pdt.roots == [blocks["exit"]]
    outer, inner = analysis.loops(fn).loops_in_preorder()
    assert outer.depth == 1 and inner.depth == 2 and inner.header is blocks["inner"]
    assert analysis.domfrontier(fn)[blocks["latch"]] == [blocks["exit"], outer.header]
    assert len(analysis.regions(fn).regions()) == 4
    cg = analysis.callgraph(m)
    assert [n.function for n in cg.node(m.get_function("main")).callees()] == [fn, m.get_function("printf")]  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"loops needs a Function, not Module \(m.get_function\(name\) gives one\)"):
        analysis.loops(m)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="domtree: @printf is a declaration"):
        analysis.domtree(m.get_function("printf"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="callgraph needs a Module"):
        analysis.callgraph(fn)  # type: ignore[arg-type]


def test_help_opens_with_a_quickstart_that_runs(capsys: pytest.CaptureFixture[str]) -> None:
    doc = llvmpy_mid.__doc__ or ""
    assert doc.splitlines()[0].startswith("llvmpy_mid:")
    assert doc.split("\n\n")[1].startswith("Quickstart")
    code = textwrap.dedent(doc.split("::\n", 1)[1].split("\n\nThe IR object model")[0])
    exec(compile(code, "<llvmpy_mid quickstart>", "exec"), {})
    out = capsys.readouterr().out
    assert out.startswith("<Function i32 (i32) @sum_pairs> <ICmpInst %2 = icmp sgt i32 %0, 0>\n")
    assert "<LoopInfo of @sum_pairs: 2 loops (1 top-level), max depth 2>" in out
    assert "True Loop info for function 'sum_pairs':" in out
