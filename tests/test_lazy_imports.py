"""Start-up imports: ``import llvmpy_mid`` stays cheap, and its lazy re-exports all resolve.

The package ``__init__`` files re-export lazily (PEP 562) and the verifier driver imports its rule
modules on the first check, so ``import llvmpy_mid`` (and ``llvmpy-opt`` on an empty module) does
not compile the verifier rules, the instruction set or the pass layer. Each check runs in a fresh
interpreter, since this test process has long imported everything.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def _run(code: str) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter; it prints one JSON value, returned here."""
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True, timeout=120
    )
    result = json.loads(out.stdout)
    assert isinstance(result, dict)
    return result


_LOADED_AFTER_IMPORT = """
    import json, sys
    import llvmpy_mid
    print(json.dumps({"modules": sorted(m for m in sys.modules if m.startswith("llvmpy_mid"))}))
"""

# Modules that are not needed until a name from them is used.
_NOT_AT_IMPORT = (
    "llvmpy_mid.ir.verifier.driver",
    "llvmpy_mid.ir.verifier.call_rules",
    "llvmpy_mid.ir.verifier.instruction_rules",
    "llvmpy_mid.ir.verifier.intrinsic_rules",
    "llvmpy_mid.ir.verifier.metadata_rules",
    "llvmpy_mid.ir.verifier.module_rules",
    "llvmpy_mid.ir.builder",
    "llvmpy_mid.ir.cloning",
    "llvmpy_mid.ir.instructions.binary",
    "llvmpy_mid.ir.instructions.terminators",
    "llvmpy_mid.asm.parser",
    "llvmpy_mid.asm.printer",
    "llvmpy_mid.passes",
    "llvmpy_mid.passes.run",
    "llvmpy_mid.passes.registry",
)


def test_import_llvmpy_mid_is_lazy() -> None:
    modules = _run(_LOADED_AFTER_IMPORT)["modules"]
    assert isinstance(modules, list)
    loaded = {str(m) for m in modules}
    assert "llvmpy_mid.asm" in loaded  # it installs the printer behind str()
    assert not loaded & set(_NOT_AT_IMPORT), sorted(loaded & set(_NOT_AT_IMPORT))


def test_printer_installed_by_import_llvmpy_mid() -> None:
    result = _run(
        """
        import json
        import llvmpy_mid
        from llvmpy_mid.ir.module import Module
        print(json.dumps({"text": str(Module("m"))}))
        """
    )
    text = result["text"]
    assert isinstance(text, str) and text.startswith("; ModuleID = 'm'")


_PACKAGES = ["llvmpy_mid", "llvmpy_mid.ir", "llvmpy_mid.ir.instructions", "llvmpy_mid.ir.verifier"]


@pytest.mark.parametrize("package", _PACKAGES)
def test_every_exported_name_resolves(package: str) -> None:
    result = _run(
        """
        import importlib, json
        pkg = importlib.import_module(%r)
        missing = [n for n in pkg.__all__ if getattr(pkg, n, None) is None]
        from_import = {}
        for n in pkg.__all__:
            ns = {}
            exec("from %%s import %%s as x" %% (pkg.__name__, n), ns)
            from_import[n] = ns["x"] is getattr(pkg, n)
        print(json.dumps({
            "missing": missing,
            "same": all(from_import.values()),
            "dir_has_all": set(pkg.__all__) <= set(dir(pkg)),
            "unknown_raises": not hasattr(pkg, "no_such_name_here"),
        }))
        """
        % package
    )
    assert result == {"missing": [], "same": True, "dir_has_all": True, "unknown_raises": True}


_NOT_DOMINATED = "define i32 @f() {\nentry:\n  %x = add i32 %y, 1\n  %y = add i32 0, 1\n  ret i32 %x\n}\n"


def test_empty_module_run_skips_verifier_rules(tmp_path: Path) -> None:
    """Verifying an empty module needs no rule module; a module with something in it is still
    verified (the rules are imported then) and reported as opt-19 reports it."""
    result = _run(
        """
        import json, sys
        from llvmpy_mid.asm import parse_assembly
        from llvmpy_mid.ir.verifier import diagnostics_text, module_diagnostics
        empty = module_diagnostics(parse_assembly("", verify=False))
        before = "llvmpy_mid.ir.verifier.call_rules" in sys.modules
        found = diagnostics_text(module_diagnostics(parse_assembly(%r, verify=False)))
        after = "llvmpy_mid.ir.verifier.call_rules" in sys.modules
        print(json.dumps({"empty": len(empty), "before": before, "found": found, "after": after}))
        """
        % _NOT_DOMINATED
    )
    assert result["empty"] == 0
    assert result["before"] is False
    assert result["after"] is True
    if shutil.which("opt-19") is None:
        pytest.skip("opt-19 is not installed")
    src = tmp_path / "bad.ll"
    src.write_text(_NOT_DOMINATED)
    theirs = subprocess.run(["opt-19", "-passes=verify", "-disable-output", str(src)], capture_output=True, text=True)
    assert theirs.returncode != 0
    assert isinstance(result["found"], str) and result["found"] and result["found"] in theirs.stderr
