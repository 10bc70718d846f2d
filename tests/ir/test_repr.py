"""``repr()`` of IR objects: what a person needs to see in a notebook or a traceback.

Numbered values show the number ``opt-19 -S`` gives them (checked against opt-19's own
output of the shipped example); the numbering is cached per function and dropped on
every edit, so a repr of every instruction numbers the function once.
"""

from __future__ import annotations

import subprocess

import pytest

import llvmpy_mid
from llvmpy_mid import analysis, examples
from llvmpy_mid.ir import ConstantInt, Context, Function, IRBuilder, Module
from tests.oracles import require_tools

SUM_PAIRS = examples.path("sum_pairs.ll")


@pytest.fixture()
def m() -> Module:
    return llvmpy_mid.parse_file(SUM_PAIRS)


def _inside(text: str) -> str:
    """``<AddInst %7 = add i32 %5, 1>`` -> ``%7 = add i32 %5, 1``."""
    assert text.startswith("<") and text.endswith(">")
    return text[1:-1].split(" ", 1)[1]


def test_instruction_reprs_are_opt19_lines(m: Module) -> None:
    require_tools("opt-19")
    out = subprocess.run(["opt-19", "-S", str(SUM_PAIRS)], capture_output=True, text=True, check=True).stdout
    opt_lines = {line.strip() for line in out.splitlines()}
    count = 0
    for fn in m.functions:
        for inst in fn.instructions():
            text = repr(inst)
            assert text.startswith("<%s " % type(inst).__name__)
            assert _inside(text) in opt_lines, text
            count += 1
    assert count == 20


def test_value_reprs(m: Module) -> None:
    fn = m.get_function("sum_pairs")
    assert fn is not None
    entry = fn.entry_block
    assert repr(fn) == "<Function i32 (i32) @sum_pairs>"
    assert repr(m.get_function("printf")) == "<Function i32 (ptr, ...) @printf (declaration)>"
    assert repr(fn.args[0]) == "<Argument i32 %0>"
    assert repr(entry) == "<BasicBlock %1 in @sum_pairs>"
    assert repr(entry.next_block) == "<BasicBlock %3 in @sum_pairs>"
    assert repr(entry.first_instruction) == "<ICmpInst %2 = icmp sgt i32 %0, 0>"
    assert repr(entry.terminator) == "<BranchInst br i1 %2, label %3, label %exit>"
    assert repr(m.get_global(".fmt")) == "<GlobalVariable [4 x i8] @.fmt>"
    assert repr(m) == "<Module '%s' (4 functions, 1 global)>" % SUM_PAIRS
    assert repr(ConstantInt.get(m.context.i32, 1)) == "<ConstantInt i32 1>"
    assert repr(m.context.i32) == "<IntegerType i32>"
    assert repr(fn.function_type) == "<FunctionType i32 (i32)>"
    assert repr(m.context.ptr) == "<PointerType ptr>"


def test_containers_and_use_views(m: Module) -> None:
    fn = m.get_function("sum_pairs")
    assert fn is not None
    assert len(fn.blocks) == 5
    assert repr(fn.blocks).startswith("<IList of 5: [<BasicBlock %1 in @sum_pairs>, <BasicBlock %3 in @sum_pairs>, ")
    n = fn.args[0]
    assert len(n.uses) == 3 and bool(n.uses) and len(n.users) == 3
    # Most recent use first (LLVM's order), each user an icmp.
    assert [u.opcode for u in n.users] == ["icmp", "icmp", "icmp"]  # type: ignore[attr-defined]
    assert n.uses[0].user is n.users[0] and n.uses[-1].user is fn.entry_block.first_instruction
    assert repr(n.uses).startswith("<3 uses of i32 %0: [<Use 1 of <ICmpInst %11 = icmp eq i32 %i.next, %0>>")
    assert repr(n.users).startswith("<3 users of i32 %0: [<ICmpInst %11 = ")
    main = m.get_function("main")
    assert main is not None
    ret = main.entry_block.terminator
    assert ret is not None and not ret.uses and len(ret.uses) == 0 and list(ret.users) == []


def test_numbering_is_cached_and_dropped_on_edit(m: Module) -> None:
    fn = m.get_function("sum_pairs")
    assert fn is not None
    insts = list(fn.instructions())
    reprs = [repr(i) for i in insts]
    cache = fn._repr_cache
    assert cache is not None
    assert [repr(i) for i in insts] == reprs and fn._repr_cache is cache  # reused, not rebuilt
    # Insert an unnamed instruction at the top: every later number moves by one.
    b = IRBuilder()
    b.position_before(fn.entry_block.first_instruction)  # type: ignore[arg-type]
    b.add(fn.args[0], 1)
    assert fn._repr_cache is None
    assert repr(insts[0]) == "<ICmpInst %3 = icmp sgt i32 %0, 0>"
    assert repr(fn.entry_block.next_block) == "<BasicBlock %4 in @sum_pairs>"
    # A rename drops it too.
    insts[0].name = "positive"
    assert repr(insts[0]) == "<ICmpInst %positive = icmp sgt i32 %0, 0>"
    assert repr(fn.entry_block.terminator) == "<BranchInst br i1 %positive, label %3, label %exit>"
    # So does removing an instruction.
    fn.entry_block.first_instruction.replace_all_uses_with(fn.args[0])  # type: ignore[union-attr]
    fn.entry_block.first_instruction.erase_from_parent()  # type: ignore[union-attr]
    assert repr(fn.entry_block.next_block) == "<BasicBlock %2 in @sum_pairs>"
    # The text always equals what the printer writes for the instruction.
    for inst in fn.instructions():
        assert _inside(repr(inst)) == str(inst)


def test_unnamed_globals_follow_module_edits() -> None:
    ctx = Context()
    m = Module("g", ctx)
    g = m.add_global(ctx.i32, "", initializer=ConstantInt.get(ctx.i32, 0))
    fn = Function(ctx.function_type(ctx.i32, []), "f", module=m)
    b = IRBuilder(fn.append_block())
    load = b.load(ctx.i32, g)
    assert repr(load) == "<LoadInst %1 = load i32, ptr @0>"
    assert repr(g) == "<GlobalVariable i32 @0>"
    g2 = m.add_global(ctx.i64, "", initializer=ConstantInt.get(ctx.i64, 0))
    load2 = b.load(ctx.i64, g2)
    assert repr(load2) == "<LoadInst %2 = load i64, ptr @1>"
    # Naming @0 renumbers the other unnamed global; the function's cached numbering follows.
    g.name = "counter"
    assert repr(load) == "<LoadInst %1 = load i32, ptr @counter>"
    assert repr(load2) == "<LoadInst %2 = load i64, ptr @0>"
    assert repr(g2) == "<GlobalVariable i64 @0>"
    assert repr(fn.entry_block) == "<BasicBlock %0 in @f>"


def test_detached_and_erased_instructions() -> None:
    ctx = Context()
    m = Module("d", ctx)
    fn = Function(ctx.function_type(ctx.i32, [ctx.i32]), "f", module=m, arg_names=["x"])
    b = IRBuilder(fn.append_block("entry"))
    x = fn.args[0]
    y = b.mul(x, 3)
    b.ret(y)
    y2 = b.add(x, 1)
    y2.remove_from_parent()
    assert repr(y2) == "<AddInst <badref> = add i32 %x, 1>"
    y2.erase_from_parent()
    assert repr(y2) == "<erased AddInst>"
    with pytest.raises(llvmpy_mid.IRError, match="cannot print an erased AddInst"):
        str(y2)


def test_long_text_is_one_bounded_line() -> None:
    ctx = Context()
    m = Module("s", ctx)
    fn = Function(ctx.function_type(ctx.void, [ctx.i32]), "f", module=m)
    entry = fn.append_block("entry")
    b = IRBuilder(entry)
    blocks = [fn.append_block("case%d" % i) for i in range(40)]
    sw = b.switch(fn.args[0], blocks[0], [(ConstantInt.get(ctx.i32, i), bb) for i, bb in enumerate(blocks)])
    text = repr(sw)
    assert "\n" not in text and len(text) <= 320 and text.endswith("...>")
    assert text.startswith("<SwitchInst switch i32 %0, label %case0 [ i32 0, label %case0 i32 1, label %case1 ")


def test_analysis_reprs(m: Module) -> None:
    fn = m.get_function("sum_pairs")
    assert fn is not None
    assert repr(analysis.domtree(fn)) == "<DominatorTree of @sum_pairs: 5 blocks, root %1>"
    assert repr(analysis.postdomtree(fn)) == "<PostDominatorTree of @sum_pairs: 5 blocks, root %exit>"
    assert repr(analysis.loops(fn)) == "<LoopInfo of @sum_pairs: 2 loops (1 top-level), max depth 2>"
    assert [repr(loop) for loop in analysis.loops(fn).loops_in_preorder()] == ["<Loop %3 depth 1>", "<Loop %inner depth 2>"]
    assert repr(analysis.regions(fn)) == "<RegionInfo of @sum_pairs: 4 regions>"
    assert repr(analysis.callgraph(m)).startswith("<CallGraph of module '%s': 4 function nodes, " % SUM_PAIRS)
    assert repr(analysis.domfrontier(fn)).startswith("<DominanceFrontier (dominance) of @sum_pairs: %1: {}, %3: {")


def test_repr_html_escapes(m: Module) -> None:
    html = m._repr_html_()
    assert html.startswith("<pre") and html.endswith("</pre>")
    assert "&lt;" not in html  # nothing to escape in sum_pairs but the quotes and percent signs
    assert '<span style="color:#777">; preds = %latch, %1</span>' in html
    ctx = Context()
    vec = Module("v", ctx)
    Function(ctx.function_type(ctx.vector_type(ctx.i32, 4), [ctx.ptr]), "<odd&name>", module=vec)
    text = vec._repr_html_()
    assert "declare &lt;4 x i32&gt; @\"&lt;odd&amp;name&gt;\"(ptr)" in text
    fn = vec.functions.first
    assert fn is not None and fn._repr_html_().count("<pre") == 1
