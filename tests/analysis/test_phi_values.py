"""``print<phi-values>`` byte-identical to opt-19: nested loops (phi cycles of several
components), globals, arguments, instructions and constants as values, and a long phi
chain (walked without recursion); ``invalidate_value`` drops the components it reaches."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from llvmpy_mid.analysis.phi_values import PhiValues
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.cli import main
from llvmpy_mid.ir.instructions.other import PHINode
from tests.oracles import require_tools

LOOPS = """
@G = global i32 7
define i32 @f(i32 %a, ptr %p, i1 %c) {
entry:
  %x = add i32 %a, 1
  br label %outer
outer:
  %o = phi i32 [ 0, %entry ], [ %i, %latch ]
  %q = phi ptr [ %p, %entry ], [ @G, %latch ]
  br label %inner
inner:
  %i = phi i32 [ %o, %outer ], [ %j, %inner ], [ %x, %side ]
  %j = phi i32 [ %a, %outer ], [ %i, %inner ], [ 5, %side ]
  br i1 %c, label %inner, label %side
side:
  br i1 %c, label %inner, label %latch
latch:
  %u = phi i32 [ %i, %side ]
  br i1 %c, label %outer, label %exit
exit:
  %e = phi i32 [ %u, %latch ]
  %n = phi i32 [ undef, %latch ]
  ret i32 %e
}
"""


def _chain(n: int) -> str:
    lines = ["define ptr @fn(ptr %arg, i1 %c) {", "entry:", "  br label %b0"]
    prev = "%arg"
    for i in range(n):
        lines += ["b%d:" % i, "  %%phi%d = phi ptr [ %s, %%%s ], [ %%phi%d, %%b%d ]" % (i, prev, "entry" if i == 0 else "b%d" % (i - 1), i, i)]
        lines += ["  br i1 %%c, label %%b%d, label %%b%d" % (i, i + 1)]
        prev = "%%phi%d" % i
    lines += ["b%d:" % n, "  ret ptr %s" % prev, "}"]
    return "\n".join(lines) + "\n"


def _random_phis(seed: int) -> str:
    """A loop header with random phis over each other, the arguments and constants, entered
    from the entry block and from several latches (any phi graph: cycles of any shape)."""
    rng = random.Random(seed)
    n_phis = rng.randrange(3, 12)
    n_latches = rng.randrange(1, 4)
    names = ["%%p%d" % i for i in range(n_phis)]
    lines = ["define i32 @f(i32 %a, i32 %b, i32 %s) {", "entry:", "  br label %h", "h:"]
    for name in names:
        incoming = ["[ %s, %%entry ]" % rng.choice(["%a", "%b", "1", "2"])]
        for k in range(n_latches):
            incoming.append("[ %s, %%l%d ]" % (rng.choice(names + ["%a", "%b", "3"]), k))
        lines.append("  %s = phi i32 %s" % (name, ", ".join(incoming)))
    cases = " ".join("i32 %d, label %%l%d" % (k, k) for k in range(n_latches))
    lines.append("  switch i32 %%s, label %%exit [ %s ]" % cases)
    for k in range(n_latches):
        lines += ["l%d:" % k, "  br label %h"]
    lines += ["exit:", "  ret i32 %p0", "}"]
    return "\n".join(lines) + "\n"


def _compare(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> None:
    require_tools("opt-19")
    path = tmp_path / "f.ll"
    path.write_text(text)
    args = ["-passes=print<phi-values>", "-disable-output", str(path)]
    ref = subprocess.run(["opt-19", *args], capture_output=True, text=True)
    assert ref.returncode == 0, ref.stderr
    assert main(args) == 0
    assert capsys.readouterr().err == ref.stderr


def test_loops_as_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _compare(tmp_path, LOOPS, capsys)


def test_long_chain_as_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _compare(tmp_path, _chain(2500), capsys)


@pytest.mark.parametrize("seed", range(6))
def test_random_phi_graphs_as_opt(seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _compare(tmp_path, _random_phis(seed), capsys)


def test_invalidate_value() -> None:
    module = parse_assembly(LOOPS)
    fn = module.get_function("f")
    assert fn is not None
    pv = PhiValues(fn)
    phis = {pn.name: pn for bb in fn.blocks for pn in bb.phis()}
    assert {str(v).strip() for v in pv.get_values_for_phi(phis["e"])} == {"i32 0", "%x = add i32 %a, 1", "i32 5", "i32 %a"}
    pv.get_values_for_phi(phis["q"])
    x = next(i for i in fn.entry_block.instructions if i.name == "x")
    pv.invalidate_value(x)
    # %e's component reached %x: it is unknown until asked again; %q's is untouched.
    assert "PHI %e has values:\n  UNKNOWN\n" in pv.format()
    assert "PHI %q has values:\n  ptr %p\n  @G = global i32 7\n" in pv.format()
    assert len(pv.get_values_for_phi(phis["e"])) == 4
    assert all(isinstance(p, PHINode) for p in phis.values())
