"""Pass registry tests: names and kinds, lazy loading, the decorator, pseudo-passes,
entry-point plugins, and kind_of feeding pipeline_text.nest."""

from __future__ import annotations

import importlib.metadata
import sys
import types
from typing import Any

import pytest

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes import DominatorTreeAnalysis, Pass, PreservedAnalyses, nest, parse_pipeline, print_pipeline
from llvmpy_mid.passes import registry as registry_mod
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.registry import REGISTRY, PassEntry, PassRegistry, all_names, kind_of, lookup, no_adaptor


def test_builtin_names_and_kinds() -> None:
    # kinds as opt-19 -print-passes lists them
    assert kind_of("verify") == {"module", "function"}
    assert kind_of("print") == {"module", "function"}
    assert kind_of("instcount") == {"function"}
    assert kind_of("instnamer") == {"function"}
    assert kind_of("strip-dead-prototypes") == {"module"}
    assert kind_of("no-such-pass") == set()
    assert kind_of("instcount<x>") == set()  # takes no parameters: unknown, as in opt


def test_pseudo_passes() -> None:
    assert kind_of("require<domtree>") == {"function"}
    assert kind_of("invalidate<postdomtree>") == {"function"}
    assert kind_of("invalidate<all>") == {"module", "cgscc", "function", "loop"}  # opt-19 accepts it at every level
    assert kind_of("require<foo>") == set()
    assert REGISTRY.pseudo_pass("invalidate<all>", "function") == ("invalidate", None)
    found = REGISTRY.pseudo_pass("require<domtree>", "function")
    assert found is not None and found[1] is not None and found[1].load() is DominatorTreeAnalysis


def test_all_names() -> None:
    names = all_names()
    for n in ("verify", "print", "instcount", "require<domtree>", "invalidate<all>", "invalidate<postdomtree>"):
        assert n in names
    assert names == sorted(names)
    assert {"domtree", "postdomtree"} <= set(all_names(analyses=True))
    assert "strip-dead-prototypes" not in all_names("function")
    text = REGISTRY.format_print_passes()
    assert text.startswith("Module passes:\n")
    function_analyses = text.split("Function analyses:\n", 1)[1].split("Loop", 1)[0]
    assert "  domtree\n" in function_analyses and "  loops\n" in function_analyses


def test_lazy_loading() -> None:
    reg = PassRegistry()
    mod = types.ModuleType("_llvmpy_lazy_probe")

    class Probe(Pass[Function]):
        def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
            return PreservedAnalyses.all()

    mod.Probe = Probe  # type: ignore[attr-defined]
    entry = reg.add_pass("probe", "function", "_llvmpy_lazy_probe:Probe")
    assert reg.kind_of("probe") == {"function"}  # no import needed to answer
    with pytest.raises(ModuleNotFoundError):
        entry.load()
    sys.modules["_llvmpy_lazy_probe"] = mod
    try:
        assert entry.load() is Probe and isinstance(entry.instantiate(None), Probe)
    finally:
        del sys.modules["_llvmpy_lazy_probe"]


def test_builtin_specs_import_when_present() -> None:
    for name, kind in (("verify", "module"), ("instcount", "function"), ("strip-dead-prototypes", "module")):
        entry = lookup(name, kind)
        assert entry is not None
        try:
            cls = entry.load()
        except ImportError:
            continue  # written by another helper; may not exist yet
        assert issubclass(cls, Pass)


def test_decorator_and_params() -> None:
    reg = PassRegistry()

    @reg.register_pass("my-pass", "function", params=lambda p: p.split(";"), params_help="<a;b>")
    class MyPass(Pass[Function]):
        def __init__(self, opts: list[str]) -> None:
            self.opts = opts

    entry = reg.lookup("my-pass<x;y>", "function")
    assert entry is not None and entry.load() is MyPass
    obj = entry.instantiate("x;y")
    assert isinstance(obj, MyPass) and obj.opts == ["x", "y"]
    assert reg.kind_of("my-pass") == {"function"} and reg.kind_of("my-pass<z>") == {"function"}
    assert "my-pass<a;b>" in reg.format_print_passes()
    with pytest.raises(ValueError):
        reg.add_pass("my-pass", "function", "elsewhere:Other")
    with pytest.raises(ValueError):
        reg.add_pass("x", "basic-block", "a:b")


def test_global_decorator() -> None:
    @registry_mod.register_pass("test-only-global-pass", "module")
    class G(Pass[Any]):
        pass

    try:
        assert kind_of("test-only-global-pass") == {"module"}
        assert "test-only-global-pass" in all_names("module")
    finally:
        REGISTRY.remove("test-only-global-pass", "module")
    assert kind_of("test-only-global-pass") == set()


def test_entry_points_loaded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[PassRegistry] = []

    def plugin(reg: PassRegistry) -> None:
        calls.append(reg)
        reg.add_pass("plugin-pass", "module", "plugin_pkg:PluginPass")

    class FakeEP:
        name = "fake"

        def load(self) -> Any:
            return plugin

    seen_groups: list[str] = []

    def fake_entry_points(*, group: str) -> list[FakeEP]:
        seen_groups.append(group)
        return [FakeEP()]

    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points)
    reg = PassRegistry(load_entry_points=True)
    assert not calls  # lazily: nothing read at construction
    assert reg.kind_of("plugin-pass") == {"module"}
    assert reg.kind_of("plugin-pass") == {"module"}
    assert len(calls) == 1 and seen_groups == ["llvmpy_mid.passes"]


def test_broken_plugin_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    class BadEP:
        name = "bad"

        def load(self) -> Any:
            raise ImportError("nope")

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda *, group: [BadEP()])
    reg = PassRegistry(load_entry_points=True)
    with pytest.warns(UserWarning, match="bad"):
        assert reg.kind_of("x") == set()


def test_kind_of_feeds_nest() -> None:
    def resolved(text: str) -> str:
        return print_pipeline(nest(parse_pipeline(text), kind_of, no_adaptor=no_adaptor))

    # outputs as opt-19 -print-pipeline-passes prints them (minus its trailing verify)
    with pytest.raises(PipelineError, match="unknown function pass 'strip-dead-prototypes'"):
        resolved("instcount,strip-dead-prototypes")
    assert resolved("strip-dead-prototypes,instcount") == "strip-dead-prototypes,function(instcount)"
    assert resolved("require<domtree>,invalidate<all>") == "function(require<domtree>,invalidate<all>)"
    with pytest.raises(PipelineError, match="unknown module pass 'require<domtree>'"):
        resolved("invalidate<all>,require<domtree>")  # opt-19: no implicit adaptor for require<X>
    assert resolved("invalidate<all>,function(require<domtree>)") == "invalidate<all>,function(require<domtree>)"
    assert resolved("verify,print") == "verify,print"


def test_bad_spec() -> None:
    with pytest.raises(PipelineError):
        PassEntry("x", "module", "no_colon").load()
