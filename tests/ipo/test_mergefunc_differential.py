"""``mergefunc`` against opt-19 on csmith programs with planted copies, and on the benchmark corpus.

Inputs:

* the csmith files of the csmith corpus (``tests/csmith_files.py``) (``*.O0.ll`` and ``*.O2.ll``; the ``-g`` builds are
  left out: a textual copy would share the original's ``DISubprogram``), each in three variants:
  ``orig`` (as clang-19 wrote it), ``copies`` (``mergefunc_mutants.make_mutant``: exact copies
  under new names with about half of the call sites redirected to them, plus near-copies that
  differ in one constant and are called nowhere) and ``near-called`` (the same, with each
  near-copy called from one former call site of its original). By default six files are
  sampled; ``LLVMPY_MERGEFUNC_DIFF=all`` runs all thirty. All of them are ``slow``.
* ``mergefunc_corpus.make_module(300, seed)`` modules (a quarter exact copies, an eighth
  hash-colliding near-copies): seed 1 in the default run, more seeds under ``--run-slow``.

Each input goes through ``python -m llvmpy_mid -passes=mergefunc -S`` and
``opt-19 -passes=mergefunc -S``; the printed modules must be identical, ``; ModuleID`` aside.
For csmith inputs ``lli-19`` must print on our output what it prints on the input, and for the
``orig`` and ``copies`` variants what it prints on the original file (its checksum), since the
planted near-copies are not called there.

Where LLVM 19 is known to merge functions that are not equivalent (issue 6, section 3: a
function's own address compared as equal everywhere, GEP and poison-generating flags, fast-math
flags, ``!kcfi_type`` and metadata ignored), opt-19 merges a function that we keep. Such a
difference is accepted only when it is explained: every function opt-19 merged and we did not
must have a hash-equal function from which :func:`explain` separates it by one of those rules,
and we must never merge a function opt-19 keeps. Any other difference fails with a diff.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from csmith_files import csmith_paths

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mergefunc_corpus import make_module  # noqa: E402
from mergefunc_mutants import make_mutant  # noqa: E402

OPT = shutil.which("opt-19")
LLI = shutil.which("lli-19")
CSMITH_FILES = (
    [p for p in csmith_paths() if p.name.endswith((".O0.ll", ".O2.ll"))]
)
SAMPLE = CSMITH_FILES if os.environ.get("LLVMPY_MERGEFUNC_DIFF") == "all" else CSMITH_FILES[::5]
VARIANTS = ("orig", "copies", "near-called")

needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")

# Comparator rules by which we are deliberately stricter than LLVM 19 (issue 6, section 3).
# (rule names of function_comparator's explain(): self-reference, GEP flags, poison-generating and
# fast-math flags, !kcfi_type, metadata).
_LLVM19_WRONG = re.compile(r"self-reference|cmpGEPs: flags|cmpOperations: flags|kcfi_type|metadata")
_DEFINE = re.compile(r"^define [^@]*@([-\w$.]+|\"[^\"]*\")\(", re.M)


def _body(text: str) -> str:
    return "\n".join(ln for ln in text.splitlines() if not ln.startswith("; ModuleID"))


def _ours(path: Path) -> str:
    r = subprocess.run(
        [sys.executable, "-m", "llvmpy_mid", "-passes=mergefunc", "-S", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


def _theirs(path: Path) -> str:
    assert OPT is not None
    r = subprocess.run([OPT, "-passes=mergefunc", "-S", str(path)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


def _lli(path: Path) -> str:
    assert LLI is not None
    try:
        r = subprocess.run([LLI, str(path)], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "timeout"
    return "%d:%s" % (r.returncode, r.stdout)


def _merged_away(before: str, after: str) -> set[str]:
    """Functions of ``before`` that ``after`` no longer has as a real body (erased, or a thunk)."""
    kept: set[str] = set()
    for block in after.split("\ndefine ")[1:]:
        m = _DEFINE.match("define " + block)
        if m is None:
            continue
        body = block.split("\n}", 1)[0].splitlines()[1:]
        if len(body) <= 3 and any("tail call " in ln for ln in body):
            continue
        kept.add(m.group(1))
    return set(_DEFINE.findall(before)) - kept


def _explained(path: Path, names: set[str]) -> list[str]:
    """For each function opt-19 merged and we kept: why (an LLVM 19 miscompile rule) or a failure."""
    from llvmpy_mid.asm import parse_file
    from llvmpy_mid.ir.structural_hash import structural_hash
    from llvmpy_mid.transform.utils.function_comparator import explain

    module = parse_file(str(path))
    by_name = {fn.name: fn for fn in module.functions if not fn.is_declaration}
    hashes = {fn: structural_hash(fn) for fn in by_name.values()}
    notes: list[str] = []
    for name in sorted(names):
        g = by_name[name]
        reasons = []
        for f in by_name.values():
            if f is g or hashes[f] != hashes[g]:
                continue
            diff = explain(f, g)
            if diff is not None and _LLVM19_WRONG.search(diff.rule):
                reasons.append("@%s vs @%s: %s" % (f.name, name, str(diff).replace("\n", " ")))
        if not reasons:
            pytest.fail("opt-19 merged @%s, we did not, and no LLVM 19 miscompile rule explains it" % name)
        notes.append(reasons[0])
    return notes


def check(path: Path) -> list[str]:
    """Ours and opt-19's printed modules are identical, or the difference is an explained LLVM 19 bug."""
    ours = _ours(path)
    theirs = _theirs(path)
    if _body(ours) == _body(theirs):
        return []
    source = path.read_text()
    only_ours = _merged_away(source, ours) - _merged_away(source, theirs)
    only_theirs = _merged_away(source, theirs) - _merged_away(source, ours)
    diff = "\n".join(
        list(difflib.unified_diff(_body(theirs).splitlines(), _body(ours).splitlines(), "opt-19", "ours", lineterm=""))[
            :80
        ]
    )
    assert not only_ours, "we merged %s, opt-19 did not\n%s" % (sorted(only_ours), diff)
    assert only_theirs, "same functions merged, different modules\n%s" % diff
    return _explained(path, only_theirs)


def _variant(path: Path, variant: str, tmp_path: Path) -> Path:
    if variant == "orig":
        return path
    mutant = make_mutant(path.read_text(), seed=7, copies=4, near=3, call_near=variant == "near-called")
    out = tmp_path / ("%s.%s.ll" % (path.stem, variant))
    out.write_text(mutant.text)
    return out


@needs_opt
@pytest.mark.parametrize("variant", ("copies", "near-called"))
@pytest.mark.parametrize("path", CSMITH_FILES[:2], ids=lambda p: p.name)
def test_csmith_default_sample(path: Path, variant: str, tmp_path: Path) -> None:
    """Two csmith files in every run; the sweep below runs the rest with --run-slow."""
    test_csmith(path, variant, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.name)
def test_csmith(path: Path, variant: str, tmp_path: Path) -> None:
    source = _variant(path, variant, tmp_path)
    notes = check(source)
    for note in notes:
        print("LLVM 19 merges what we keep: %s" % note)
    if LLI is None:
        return
    out = tmp_path / "ours.ll"
    out.write_text(_ours(source))
    result = _lli(out)
    assert result == _lli(source)
    if variant != "near-called":
        assert result == _lli(path)
        assert "checksum" in result


@needs_opt
@pytest.mark.parametrize("seed", [1])
def test_corpus(seed: int, tmp_path: Path) -> None:
    path = tmp_path / "corpus.ll"
    path.write_text(make_module(300, seed))
    assert check(path) == []


@needs_opt
@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4, 5, 6])
def test_corpus_more_seeds(seed: int, tmp_path: Path) -> None:
    path = tmp_path / "corpus.ll"
    path.write_text(make_module(300, seed))
    assert check(path) == []


def test_mutants_are_what_they_claim() -> None:
    """The mutant maker itself: copies are verbatim, near-copies differ in one line, all parse."""
    from llvmpy_mid.asm import parse_assembly

    text = make_module(40, 3)
    mutant = make_mutant(text, seed=1, copies=3, near=2, call_near=True)
    module = parse_assembly(mutant.text)
    names = {fn.name for fn in module.functions}
    for original, copy in mutant.copies + mutant.near:
        assert original in names and copy in names
    assert len(mutant.copies) == 3 and len(mutant.near) == 2
    def block(name: str, text: str) -> list[str]:
        lines = text.split("\n")
        start = next(i for i, ln in enumerate(lines) if ln.startswith("define ") and "@%s(" % name in ln)
        end = lines.index("}", start)
        return lines[start + 1 : end]

    for original, copy in mutant.copies:
        assert block(original, text) == block(copy, mutant.text)
    for original, copy in mutant.near:
        changed = [(a, b) for a, b in zip(block(original, text), block(copy, mutant.text)) if a != b]
        assert len(changed) == 1
        assert re.sub(r"-?\d+", "#", changed[0][0]) == re.sub(r"-?\d+", "#", changed[0][1])
