"""GlobalsAA against opt-19: ``aa-eval`` with ``-aa-pipeline=globals-aa`` on LLVM's
GlobalsModRef tests and on random modules (internal globals read, written and escaping,
indirect globals fed by ``malloc``, call graphs with cycles, declarations with memory
attributes, ``optnone``), the ``-debug-pass-manager`` log of building, keeping,
abandoning and recomputing it, and the result's tables."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from llvmpy_mid.analysis.alias.globals_aa import GlobalsAA, GlobalsAAResult
from llvmpy_mid.analysis.call_graph import CallGraph
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.memory_effects import MemoryEffects, ModRefInfo
from llvmpy_mid.passes.proxies import make_analysis_managers
from tests.analysis.alias._aa_oracle import opt19_stderr, ours_stderr
from tests.oracles import llvm_test_files, require_llvm_tests

PIPELINE = "require<globals-aa>,aa-eval"
EVAL: dict[str, str | bool] = {"aa-pipeline": "globals-aa", "print-all-alias-modref-info": True}


def _same(text: str, tmp_path: Path, passes: str, options: dict[str, str | bool]) -> None:
    def clean(out: str) -> str:
        return "".join(line for line in out.splitlines(True) if not line.startswith("warning:"))

    assert clean(ours_stderr(text, passes, options)) == clean(opt19_stderr(text, tmp_path, passes, options))


def _llvm_globals_tests() -> list[str]:
    return [p.name for p in llvm_test_files("Analysis/GlobalsModRef", sample=False)]


@pytest.mark.parametrize("name", _llvm_globals_tests() or ["(LLVM tests not fetched)"])
def test_llvm_tests_as_opt19(name: str, tmp_path: Path) -> None:
    """Every LLVM GlobalsModRef test module through aa-eval with GlobalsAA alone."""
    root = require_llvm_tests()
    text = (root / "Analysis/GlobalsModRef" / name).read_text()
    _same(text, tmp_path, PIPELINE, EVAL)


def _random_module(seed: int) -> str:
    rng = random.Random(seed)
    out = []
    for i in range(4):
        kind = "constant" if rng.random() < 0.2 else "global"
        out.append("@g%d = %s%s i32 0" % (i, rng.choice(["internal ", "internal ", ""]), kind))
    out += [
        "@ig = internal global ptr null",
        "@e = global ptr null",
        "declare noalias ptr @malloc(i64)",
        "declare void @free(ptr allocptr nocapture) allockind(\"free\")",
        "declare void @d_none(ptr)",
        "declare void @d_ro(ptr) readonly",
        "declare void @d_rn(ptr) readnone",
        "declare void @d_cb(ptr nocapture) nocallback nosync",
        "declare void @d_am(ptr) argmemonly nocallback nosync",
        "declare void @d_rocb() readonly nocallback nosync",
    ]
    for f in range(5):
        body = []
        attrs = rng.choice(["", "", "optnone noinline ", "nosync "])
        for k in range(rng.randint(2, 9)):
            g = "@g%d" % rng.randrange(4)
            c = rng.randrange(16)
            if c < 3:
                body.append("  %%l%d = load i32, ptr %s" % (k, g))
            elif c < 5:
                body.append("  store i32 1, ptr %s" % g)
            elif c < 8:
                body.append("  call void @f%d(ptr %%p)" % rng.randrange(5))
            elif c == 8:
                callee = rng.choice(["d_none", "d_ro", "d_rn", "d_cb", "d_am"])
                body.append("  call void @%s(ptr %s)" % (callee, rng.choice([g, "%p"])))
            elif c == 9:
                body.append("  call void @d_rocb()")
            elif c == 10:
                if rng.random() < 0.3:
                    body.append("  store ptr %s, ptr @e" % rng.choice([g, "@f%d" % rng.randrange(5)]))
            elif c == 11:
                body.append("  %%m%d = call ptr @malloc(i64 4)\n  store ptr %%m%d, ptr @ig" % (k, k))
            elif c == 12:
                body.append("  %%q%d = load ptr, ptr @ig\n  store i32 3, ptr %%q%d\n  call void @free(ptr %%q%d)" % (k, k, k))
            elif c == 13:
                body.append("  %%c%d = icmp eq ptr %s, null" % (k, g))
            elif c == 14:
                body.append("  %%x%d = load ptr, ptr %%p\n  %%y%d = load i32, ptr %%x%d" % (k, k, k))
            else:
                body.append("  %%s%d = select i1 %%b, ptr %s, ptr %%p\n  %%t%d = load i32, ptr %%s%d" % (k, g, k, k))
        link = rng.choice(["internal ", "", "internal "])
        out.append(
            "define %svoid @f%d(ptr %%p) %s{\n  %%b = icmp eq ptr %%p, null\n%s\n  ret void\n}" % (link, f, attrs, "\n".join(body))
        )
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("seed", range(8))
def test_random_modules_as_opt19(seed: int, tmp_path: Path) -> None:
    _same(_random_module(seed), tmp_path, PIPELINE, EVAL)


def test_global_stored_into_itself_does_not_escape(tmp_path: Path) -> None:
    """LLVM checks a store's pointer operand, not which use it is looking at: ``store ptr
    @g, ptr @g`` writes @g and @g stays tracked."""
    text = """
@g = internal global ptr null
@h = internal global i32 0
define void @f(ptr %p) {
  store ptr @g, ptr @g
  store i32 1, ptr @h
  %v = load i32, ptr %p
  ret void
}
"""
    _same(text, tmp_path, PIPELINE, EVAL)
    assert "NoAlias:\tptr* @g, i32* @h" in ours_stderr(text, PIPELINE, EVAL)


def test_unsafe_alias_results_option(tmp_path: Path) -> None:
    """A tracked global against a local object: MayAlias unless the unsafe option is on."""
    text = """
@g = internal global i32 0
define void @f(i64 %i) {
  %a = alloca [4 x i32]
  %p = getelementptr i32, ptr %a, i64 %i
  store i32 0, ptr %p
  store i32 1, ptr @g
  ret void
}
"""
    options = dict(EVAL, **{"enable-unsafe-globalsmodref-alias-results": True})
    _same(text, tmp_path, PIPELINE, options)
    _same(text, tmp_path, PIPELINE, EVAL)
    assert "NoAlias:\ti32* %p, i32* @g" in ours_stderr(text, PIPELINE, options)
    assert "MayAlias:\ti32* %p, i32* @g" in ours_stderr(text, PIPELINE, EVAL)


FREE_MODULE = """
@g = internal global i32 0
@ig = internal global ptr null
@tab = internal global ptr @cb0
declare void @free(ptr allocptr nocapture) allockind("free")
declare noalias ptr @malloc(i64)
declare void @cb(ptr nocapture) nocallback
declare ptr @llvm.stacksave()
define internal void @cb0() {
  store i32 2, ptr @g
  ret void
}
define void @a() {
  %m = call ptr @malloc(i64 4)
  store ptr %m, ptr @ig
  ret void
}
define void @b() {
  %q = load ptr, ptr @ig
  call void @free(ptr %q)
  call void @cb(ptr @g)
  ret void
}
define void @c(ptr %p) {
  store i32 1, ptr @g
  %s = call ptr @llvm.stacksave()
  call void @b()
  %v = load i32, ptr @g
  ret void
}
"""

LOG_PIPELINES = [
    "require<globals-aa>,function(aa-eval)",
    "require<globals-aa>,function(instcombine),require<globals-aa>,invalidate<globals-aa>,require<globals-aa>",
    "require<globals-aa>,function(aa-eval),recompute-globalsaa,function(aa-eval)",
    "require<globals-aa>,function(aa-eval),invalidate<globals-aa>,function(aa-eval),require<globals-aa>,function(aa-eval)",
    "require<globals-aa>,function(aa-eval),function(invalidate<aa>),invalidate<globals-aa>",
]


@pytest.mark.parametrize("passes", LOG_PIPELINES)
def test_debug_pass_manager_log_as_opt19(passes: str, tmp_path: Path) -> None:
    """GlobalsAA asks for the function-manager proxy and the call graph, a function's TLI
    only when a global is passed to a call; it survives everything but abandonment, and
    abandoning it drops the AA managers that used it first."""
    import contextlib
    import io

    from llvmpy_mid.cli import main

    args = ["-aa-pipeline=globals-aa,basic-aa", "-passes=" + passes, "-debug-pass-manager", "-disable-output"]
    expected = opt19_stderr(FREE_MODULE, tmp_path, passes, {"aa-pipeline": "globals-aa,basic-aa", "debug-pass-manager": True})
    buf = io.StringIO()
    with contextlib.redirect_stderr(buf), contextlib.redirect_stdout(io.StringIO()):
        assert main([*args, str(tmp_path / "in.ll")]) == 0
    assert "Running analysis: GlobalsAA on [module]" in expected
    assert buf.getvalue() == expected


def test_recompute_keeps_address_taken_flag(tmp_path: Path) -> None:
    """opt-19 forgets "an internal function has its address taken" in a computed result
    (stacksave's call: Ref), but ``recompute-globalsaa`` keeps it (ModRef)."""
    options = dict(EVAL, **{"aa-pipeline": "globals-aa"})
    plain = ours_stderr(FREE_MODULE, PIPELINE, options)
    recomputed = ours_stderr(FREE_MODULE, "require<globals-aa>,recompute-globalsaa,aa-eval", options)
    assert "Just Ref:  Ptr: i32* @g\t<->  %s = call ptr @llvm.stacksave" in plain
    assert "Both ModRef:  Ptr: i32* @g\t<->  %s = call ptr @llvm.stacksave" in recomputed
    _same(FREE_MODULE, tmp_path, "require<globals-aa>,recompute-globalsaa,aa-eval", options)


def _result(text: str) -> tuple[GlobalsAAResult, object]:
    module = parse_assembly(text)
    mam, _ = make_analysis_managers()
    return mam.get_result(GlobalsAA, module), module


def test_result_tables() -> None:
    result, module = _result(FREE_MODULE + """
define void @d() {
  %v = load i32, ptr @g
  %s = call ptr @llvm.stacksave()
  ret void
}
""")
    names = sorted(gv.name for gv in result.non_address_taken_globals)
    # @cb0's address is in @tab's initializer (it escapes); @g only goes to a nocallback
    # nocapture call, @ig only holds malloc's memory, which is only freed
    assert names == ["g", "ig", "tab"]
    assert [gv.name for gv in result.indirect_globals] == ["ig"]
    assert [v.name for v in result.allocs_for_indirect_globals] == ["m"]
    fn = {f.name: f for f in module.functions}  # type: ignore[attr-defined]
    g = module.get_global("g")  # type: ignore[attr-defined]
    # free and malloc may call anything: their callers get no summary
    for name in ("free", "malloc", "a", "b", "c"):
        assert result.get_function_info(fn[name]) is None
        assert result.get_function_memory_effects(fn[name]) == MemoryEffects.unknown()
    assert result.get_function_memory_effects(fn["cb0"]) == MemoryEffects.with_all(ModRefInfo.MOD)
    # stacksave (nocallback nosync, no memory attribute) may touch memory and read any global
    info_d = result.get_function_info(fn["d"])
    assert info_d is not None and info_d.mod_ref == ModRefInfo.MOD_REF and info_d.may_read_any_global
    assert info_d.mod_ref_for_global(g) == ModRefInfo.REF


def test_scc_shares_one_summary() -> None:
    text = """
@g = internal global i32 0
@h = internal global i32 0
define internal void @x() {
  %v = load i32, ptr @g
  call void @y()
  ret void
}
define internal void @y() {
  call void @x()
  ret void
}
define void @z() {
  store i32 0, ptr @h
  call void @x()
  ret void
}
"""
    result, module = _result(text)
    fns = {f.name: f for f in module.functions}  # type: ignore[attr-defined]
    cg = CallGraph(module)  # type: ignore[arg-type]
    sccs = [[n.function.name for n in scc if n.function is not None] for scc in cg.sccs()]
    assert sorted(sccs[0]) == ["x", "y"]
    ix = result.get_function_info(fns["x"])
    iy = result.get_function_info(fns["y"])
    assert ix is not None and iy is not None and ix is not iy
    g = module.get_global("g")  # type: ignore[attr-defined]
    h = module.get_global("h")  # type: ignore[attr-defined]
    assert ix.mod_ref == iy.mod_ref == ModRefInfo.REF
    assert ix.mod_ref_for_global(g) == iy.mod_ref_for_global(g) == ModRefInfo.REF
    iz = result.get_function_info(fns["z"])
    assert iz is not None and iz.mod_ref == ModRefInfo.MOD_REF
    assert iz.mod_ref_for_global(h) == ModRefInfo.MOD and iz.mod_ref_for_global(g) == ModRefInfo.REF
