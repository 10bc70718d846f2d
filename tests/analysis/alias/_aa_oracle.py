"""Shared helpers of the metadata-AA, alias-set and GlobalsAA tests: run a module through
opt-19 and through llvmpy_mid with the same pipeline and options, and compare what they
write to stderr."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.passes.run import run_passes
from tests.oracles import require_tools


def opt19_stderr(text: str, tmp_path: Path, passes: str, options: dict[str, str | bool]) -> str:
    """What ``opt-19 -disable-output -passes=<passes> -<name>=<value>...`` writes to stderr."""
    require_tools("opt-19")
    path = tmp_path / "in.ll"
    path.write_text(text)
    args = ["opt-19", "-disable-output", "-passes=" + passes]
    for name, value in options.items():
        args.append("-%s" % name if value is True else "-%s=%s" % (name, value))
    proc = subprocess.run([*args, str(path)], capture_output=True, text=True, check=True)
    return proc.stderr


def ours_stderr(text: str, passes: str, options: dict[str, str | bool]) -> str:
    """What llvmpy_mid writes for the same pipeline and options."""
    return run_passes(parse_assembly(text), passes, options=dict(options)).output


def normalize_addresses(text: str) -> str:
    """Alias-set addresses replaced by their order of first appearance in each function
    (the addresses themselves are meaningless, their identity is not)."""
    out: list[str] = []
    names: dict[str, str] = {}
    for line in text.splitlines(keepends=True):
        if line.startswith("Alias sets for function"):
            names = {}

        def rename(m: re.Match[str]) -> str:
            return names.setdefault(m.group(0), "A%d" % len(names))

        out.append(re.sub(r"0x[0-9a-f]+", rename, line))
    return "".join(out)

