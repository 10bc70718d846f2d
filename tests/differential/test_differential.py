"""Each toolkit transform through the differential harness (``harness.py``): csmith and llvm-stress.

Default run: for every pass, three csmith programs and three llvm-stress-19 modules (a different
slice of the corpus for each pass, so the sample covers more programs). Every case must verify,
must not crash, must keep the csmith checksum under ``lli-19``, and must print exactly what opt-19
prints for the same pipeline — unless the case is listed, with the reason, in
``known-differences.txt`` (a listed case that has become identical must be removed from the list),
or the spec is marked ``in_progress`` (its pass is being written: differences are printed, not
failed on). A spec whose pass is not registered yet is skipped with the reason; an lli-only spec
(opt-19 cannot run it) is checked without the comparison.

``--run-slow``: 1,000 csmith programs and 1,000 llvm-stress-19 modules per pass (the csmith corpus
is generated once per machine into the cache); there the identity share on csmith must reach the
pass's target (``PassSpec.identity_target``), and there must be no crash, invalid output or
miscompile at all.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import harness  # noqa: E402
from csmith_files import csmith_paths  # noqa: E402
from oracles import csmith_cache_dir, require_tools  # noqa: E402

SAMPLE_CSMITH = 3
SAMPLE_STRESS = 3
SLOW_COUNT = 1000
KNOWN_FILE = HERE / "known-differences.txt"


def load_known() -> dict[tuple[str, str], str]:
    """(pass, case) -> reason, from ``known-differences.txt`` (tab-separated; ``#`` comments)."""
    known: dict[tuple[str, str], str] = {}
    if KNOWN_FILE.is_file():
        for line in KNOWN_FILE.read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            name, case, reason = (line.split("\t") + ["", ""])[:3]
            known[(name, case)] = reason
    return known


def _require_pass(name: str) -> None:
    from llvmpy_mid.passes.registry import REGISTRY

    import re

    # The pass names of the pipeline: adaptors (function(...), loop-mssa(...)) and parameters aside.
    text = re.sub(r"<[^>]*>", "", harness.PASSES[name].pipeline)
    for element in re.split(r"[(),]", text):
        if not element or element in ("module", "cgscc", "function", "loop", "loop-mssa"):
            continue
        if all(REGISTRY.lookup(element, kind) is None for kind in ("function", "module", "cgscc", "loop")):
            # A spec may be added before its pass lands (another change is writing it).
            pytest.skip("pass %r of harness spec %r is not registered (yet)" % (element, name))


def _sample(index: int) -> list[harness.Case]:
    csmith = harness.csmith_cases(csmith_paths())
    picked: list[harness.Case] = []
    if csmith:
        start = (index * SAMPLE_CSMITH) % len(csmith)
        picked = [csmith[(start + k) % len(csmith)] for k in range(min(SAMPLE_CSMITH, len(csmith)))]
    seeds = [1 + index * SAMPLE_STRESS + k for k in range(SAMPLE_STRESS)]
    return picked + harness.stress_cases(seeds)


NAMES = list(harness.PASSES)


@pytest.mark.parametrize("name", NAMES)
def test_sample(name: str) -> None:
    require_tools("opt-19", "lli-19", "llvm-stress-19")
    _require_pass(name)
    known = load_known()
    tally = harness.run_table([name], _sample(NAMES.index(name)))[name]
    problems = ["%s %s: %s" % (o.case, o.outcome, o.detail) for o in tally.bad]
    if harness.PASSES[name].in_progress:  # a pass still being written: identity is not required yet
        for o in tally.differing:
            print("%s %s differs from opt-19 (in progress): %s" % (name, o.case, o.detail))
        tally.differing = []
    problems += ["%s differs from opt-19 (not in known-differences.txt): %s" % (o.case, o.detail)
                 for o in tally.differing if (name, o.case) not in known]
    differing = {o.case for o in tally.differing}
    ran = {c.name for c in _sample(NAMES.index(name))}
    problems += ["%s is listed in known-differences.txt but now matches opt-19: remove it" % case
                 for (n, case) in known if n == name and case in ran and case not in differing]
    assert not problems, "\n".join(problems)


def test_known_differences_name_harness_passes() -> None:
    stray = sorted({n for (n, _c) in load_known() if n not in harness.PASSES})
    assert not stray, "known-differences.txt names passes the harness does not run: %s" % stray


def test_outcome_classification(tmp_path: Path) -> None:
    """The harness tells a miscompile from a match: a program whose checksum changes is caught."""
    require_tools("lli-19")
    prog = ('@.s = private constant [4 x i8] c"%s\\0A\\00"\n'
            "declare i32 @printf(ptr, ...)\n"
            "define i32 @main() {\n  %%r = call i32 (ptr, ...) @printf(ptr @.s, i32 %d)\n  ret i32 0\n}\n")
    out, err = harness.run_lli(prog % ("%d", 7))
    assert err == "" and out == "7\n"
    src = tmp_path / "p.O0.ll"
    src.write_text(prog % ("%d", 7))
    (tmp_path / "p.expected").write_text("8\n")
    case = harness.csmith_cases([src])[0]
    outcome = harness.check(case, harness.PassSpec("verify", "O0"))
    assert outcome.outcome == harness.MISCOMPILE, outcome
    (tmp_path / "p.expected").write_text("7\n")
    require_tools("opt-19")
    assert harness.check(case, harness.PassSpec("verify", "O0")).outcome == harness.IDENTICAL


def test_lli_only_mode(tmp_path: Path) -> None:
    """A pipeline opt-19 cannot run is checked without it: a kept checksum is *checked*, a
    changed one still a miscompile."""
    require_tools("lli-19")
    prog = ('@.s = private constant [4 x i8] c"%d\\0A\\00"\n'
            "declare i32 @printf(ptr, ...)\n"
            "define i32 @main() {\n  %r = call i32 (ptr, ...) @printf(ptr @.s, i32 7)\n  ret i32 0\n}\n")
    src = tmp_path / "p.O0.ll"
    src.write_text(prog)
    (tmp_path / "p.expected").write_text("7\n")
    case = harness.csmith_cases([src])[0]
    spec = harness.PassSpec("function(mem2reg,lazy-code-motion)", "O0", lli_only=True)
    assert harness.check(case, spec).outcome == harness.CHECKED
    (tmp_path / "p.expected").write_text("8\n")
    assert harness.check(case, spec).outcome == harness.MISCOMPILE
    table = harness.format_table({"lazy-code-motion": harness.run_table(["lazy-code-motion"], [])["lazy-code-motion"]})
    assert table.startswith("| pass | cases | checked |")


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_thousand_programs(name: str) -> None:
    require_tools("opt-19", "lli-19", "llvm-stress-19", "csmith", "clang-19")
    _require_pass(name)
    from corpus import generate_csmith

    folder = csmith_cache_dir()
    assert folder is not None, "no csmith cache folder"
    corpus = generate_csmith(folder, range(1, SLOW_COUNT + 1))
    cases = harness.csmith_cases(corpus.all_files()) + harness.stress_cases(range(1, SLOW_COUNT + 1))
    tally = harness.run_table([name], cases, jobs=2)[name]
    print(harness.format_table({name: tally}))
    problems = ["%s %s: %s" % (o.case, o.outcome, o.detail) for o in tally.bad]
    target = harness.PASSES[name].identity_target
    if target is not None and tally.identity < target:
        problems.append("identity with opt-19 on csmith %.1f%% < %.0f%%" % (100 * tally.identity, 100 * target))
    assert not problems, "\n".join(problems[:50])
