"""Demanded bits and ``bdce``.

Property (exhaustive on i4): for ``%r = OP %a, %b`` with ``%a = and %x, K1``, ``%b = or %y, K2`` and
the result masked, changing an operand only in bits the analysis says are not demanded (to any
other value that operand can take) never changes a demanded bit of the result.  Oracles:
``print<demanded-bits>`` lines equal opt-19's (as a set: LLVM prints them in hash order) and
``bdce`` output equals opt-19's, on the same functions and a csmith sample."""

from __future__ import annotations

import io
import random
import subprocess
from pathlib import Path

import pytest
from csmith_files import csmith_paths
from opt_oracle import assert_file_same_as_opt, assert_same_as_opt

import llvmpy_mid
from llvmpy_mid.analysis.demanded_bits import DemandedBits
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.dominators import DominatorTree
from oracles import require_tools

W = 4
M = (1 << W) - 1


def _sx(v: int) -> int:
    return v - 16 if v & 8 else v


EVAL = {
    "add": lambda a, b: (a + b) & M,
    "sub": lambda a, b: (a - b) & M,
    "mul": lambda a, b: (a * b) & M,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
}
SHIFTS = {
    "shl": lambda a, s: (a << s) & M,
    "lshr": lambda a, s: a >> s,
    "ashr": lambda a, s: (_sx(a) >> s) & M,
}


def binop_function(op: str, k1: int, k2: int, mask: int) -> str:
    return (
        "define i4 @f(i4 %%x, i4 %%y) {\n  %%a = and i4 %%x, %d\n  %%b = or i4 %%y, %d\n"
        "  %%r = %s i4 %%a, %%b\n  %%m = and i4 %%r, %d\n  ret i4 %%m\n}\n" % (_sx(k1), _sx(k2), op, _sx(mask))
    )


def shift_function(op: str, k1: int, amount: int, mask: int) -> str:
    return (
        "define i4 @f(i4 %%x) {\n  %%a = and i4 %%x, %d\n  %%r = %s i4 %%a, %d\n"
        "  %%m = and i4 %%r, %d\n  ret i4 %%m\n}\n" % (_sx(k1), op, amount, _sx(mask))
    )


def _analysis(text: str) -> tuple[DemandedBits, dict[str, object]]:
    module = parse_assembly(text)
    fn = module.get_function("f")
    assert fn is not None
    insts = {i.name: i for bb in fn.blocks for i in bb.instructions if i.name}
    return DemandedBits(fn, DominatorTree(fn)), insts  # type: ignore[return-value]


CASES = [(op, random.Random(i).randrange(16), random.Random(i + 99).randrange(16), random.Random(i + 7).randrange(1, 16))
         for op in sorted(EVAL) for i in range(6)]


@pytest.mark.parametrize("op, k1, k2, mask", CASES)
def test_undemanded_operand_bits_never_change_demanded_result_bits(op: str, k1: int, k2: int, mask: int) -> None:
    db, insts = _analysis(binop_function(op, k1, k2, mask))
    r = insts["r"]
    aout = db.demanded_bits(r)  # type: ignore[arg-type]
    ab0 = db.demanded_use_bits(r, 0)  # type: ignore[arg-type]
    ab1 = db.demanded_use_bits(r, 1)  # type: ignore[arg-type]
    avals = sorted({x & k1 for x in range(16)})
    bvals = sorted({y | k2 for y in range(16)})
    f = EVAL[op]
    for a in avals:
        for b in bvals:
            want = f(a, b) & aout
            for a2 in avals:
                if (a ^ a2) & ab0 == 0:
                    assert f(a2, b) & aout == want, (a, a2, b)
            for b2 in bvals:
                if (b ^ b2) & ab1 == 0:
                    assert f(a, b2) & aout == want, (a, b, b2)


@pytest.mark.parametrize("op", sorted(SHIFTS))
@pytest.mark.parametrize("amount", [0, 1, 3])
def test_shift_operand_bits_sound(op: str, amount: int) -> None:
    for mask in (1, 6, 8, 15):
        db, insts = _analysis(shift_function(op, 13, amount, mask))
        r = insts["r"]
        aout = db.demanded_bits(r)  # type: ignore[arg-type]
        ab0 = db.demanded_use_bits(r, 0)  # type: ignore[arg-type]
        avals = sorted({x & 13 for x in range(16)})
        for a in avals:
            for a2 in avals:
                if (a ^ a2) & ab0 == 0:
                    assert SHIFTS[op](a, amount) & aout == SHIFTS[op](a2, amount) & aout


def _opt_demanded_bits(text: str) -> list[str]:
    require_tools("opt-19")
    r = subprocess.run(
        ["opt-19", "-disable-output", "-passes=print<demanded-bits>"], input=text, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    return sorted(r.stderr.splitlines())


def _our_demanded_bits(text: str) -> list[str]:
    module = parse_assembly(text)
    result = llvmpy_mid.run_passes(module, "print<demanded-bits>", stream=io.StringIO())
    return sorted(result.output.splitlines())


@pytest.mark.parametrize("op, k1, k2, mask", CASES[::5])
def test_printer_same_lines_as_opt(op: str, k1: int, k2: int, mask: int) -> None:
    text = binop_function(op, k1, k2, mask)
    assert _our_demanded_bits(text) == _opt_demanded_bits(text)


@pytest.mark.parametrize("op, k1, k2, mask", CASES[::3])
def test_bdce_same_as_opt(op: str, k1: int, k2: int, mask: int) -> None:
    assert_same_as_opt(binop_function(op, k1, k2, mask), "bdce")


SEXT = """
define i32 @g(i8 %x, i16 %y) {
  %s = sext i8 %x to i32, !dbg !4
  %t = and i32 %s, 255
  %u = sext i16 %y to i32
  %v = add nsw i32 %u, %t
  %w = lshr exact i32 %v, 4
  %z = xor i32 %w, 65536
  %q = and i32 %z, 4095
  ret i32 %q
}
!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_C99, file: !2, emissionKind: FullDebug)
!2 = !DIFile(filename: "t.c", directory: "/")
!3 = distinct !DISubprogram(name: "g", scope: !2, file: !2, line: 1, spFlags: DISPFlagDefinition, unit: !1)
!4 = !DILocation(line: 1, column: 1, scope: !3)
"""


def test_bdce_sext_to_zext_and_masks() -> None:
    out = assert_same_as_opt(SEXT, "bdce")
    assert "zext i8 %x to i32" in out


@pytest.mark.parametrize("path", csmith_paths()[:3], ids=lambda p: Path(p).name)
def test_bdce_csmith_same_as_opt(path: Path) -> None:
    assert_file_same_as_opt(path, "bdce")


def test_sext_of_constant_becomes_a_folded_zext() -> None:
    """The zext replacing a sext goes through LLVM's constant folder: of a constant it is a constant."""
    text = """
define i32 @f(i64 %a) {
  %s = sext i32 -7 to i64
  %r = and i64 %s, %a
  %t = trunc i64 %r to i32
  ret i32 %t
}
"""
    out = assert_same_as_opt(text, "bdce")
    assert "and i64 4294967289, %a" in out
