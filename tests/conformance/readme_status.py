"""The README's generated status section: the registered passes and the conformance figures.

What: :func:`render` builds, from the pass registry and the conformance data (``opt19-expected.tsv``
for the targets, ``expected-pass.txt`` for what passes here, the tests' ``RUN:`` lines for which
passes each test uses), two Markdown tables:

* every registered pass and analysis name, with its kind(s), its class, and how many of the LLVM
  tests that use it (targets only) pass here;
* per conformance folder: targets (tests opt-19 itself passes), passing here, not passing yet
  (``runner.py -v`` gives each one's reason: missing pass, option, bitcode, target), not targets.

``python tests/conformance/readme_status.py`` prints the section; ``--write`` replaces the part of
``README.md`` between ``<!-- status:begin -->`` and ``<!-- status:end -->``. The test suite checks
that the README holds exactly what :func:`render` gives, so the README cannot drift from the registry
or from the checked-in list of passing tests (which the conformance test itself keeps honest).

It does not run the tests: the passing set is ``expected-pass.txt``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from runner import REPO_ROOT, TEST_ROOT, load_expected_pass, load_targets, read_directives  # noqa: E402

from llvmpy_mid.errors import PipelineError  # noqa: E402
from llvmpy_mid.passes.pipeline_text import PipelineElement, parse_pipeline  # noqa: E402
from llvmpy_mid.passes.registry import KINDS, REGISTRY  # noqa: E402

README = REPO_ROOT / "README.md"
BEGIN = "<!-- status:begin -->"
END = "<!-- status:end -->"

_PASSES_ARG = re.compile(r"""(?:^|\s)--?passes(?:=|\s+)("[^"]*"|'[^']*'|\S+)""")
_OPT_CALL = re.compile(r"(?<![\w-])opt\b(.*?)(?:\||$)")
_LEGACY = re.compile(r"(?:^|\s)-([a-z][\w.-]*)\b")


def _names(elements: list[PipelineElement]) -> set[str]:
    out: set[str] = set()
    work = list(elements)
    while work:
        e = work.pop()
        out.add(e.spelled)
        if e.params is not None:  # name<params>: the registry entry's name
            entry = next((x for k in KINDS if (x := REGISTRY.lookup(e.spelled, k)) is not None), None)
            if entry is not None:
                out.add(entry.name)
        if e.name in ("require", "invalidate") and e.params:
            out.add("analysis:" + e.params)
        if e.children is not None:
            work.extend(e.children)
    return out


def passes_used(test: str) -> set[str]:
    """Registry names a test's RUN lines give to opt (``-passes=`` text and legacy flags)."""
    text = (TEST_ROOT / test).read_text(errors="replace")
    used: set[str] = set()
    for line in read_directives(text).run:
        for call in _OPT_CALL.findall(line):
            for m in _PASSES_ARG.finditer(call):
                try:
                    used |= _names(parse_pipeline(m.group(1).strip("'\"")))
                except PipelineError:
                    pass
            used |= {m.group(1) for m in _LEGACY.finditer(call) if REGISTRY.kind_of(m.group(1))}
    return used


def _entry_rows() -> list[tuple[str, str, str, str]]:
    """(name, what, kinds, class) for every registered name."""
    rows: dict[tuple[str, str], list[str]] = {}
    specs: dict[tuple[str, str], list[str]] = {}
    for analyses in (False, True):
        what = "analysis" if analyses else "pass"
        for e in REGISTRY.entries(analyses=analyses):
            key = (e.name + (e.params_help or "") if e.params else e.name, what)
            rows.setdefault(key, []).append(e.kind)
            cls = e.spec.split(":")[1]
            if cls not in specs.setdefault(key, []):
                specs[key].append(cls)
    out = []
    for (name, what), kinds in rows.items():
        ordered = [k for k in KINDS if k in kinds]
        out.append((name, what, ", ".join(ordered), "`, `".join(specs[(name, what)])))
    return sorted(out, key=lambda r: (r[1] != "pass", r[0]))


def render() -> str:
    targets = {t for t, status in load_targets().items() if status == "PASS"}
    all_tests = sorted(p.relative_to(TEST_ROOT).as_posix() for p in TEST_ROOT.rglob("*.ll"))
    passing = load_expected_pass()
    usage: dict[str, set[str]] = {t: passes_used(t) for t in all_tests if t in targets}

    lines = [BEGIN, "", "Registered pass and analysis names (`llvmpy-opt -print-passes`), with the LLVM tests"]
    lines.append("that use each (targets only: tests opt-19 itself passes) and how many of those pass here:")
    lines += ["", "| name | what | level | class | LLVM tests using it: passing / targets |", "|---|---|---|---|---:|"]
    for name, what, kinds, cls in _entry_rows():
        base = name.split("<", 1)[0] if what == "pass" and name.startswith("default<O") else name
        key = base if what == "pass" else "analysis:" + base
        tests = [t for t, used in usage.items() if key in used]
        score = "%d / %d" % (sum(1 for t in tests if t in passing), len(tests)) if tests else "–"
        lines.append("| `%s` | %s | %s | `%s` | %s |" % (name, what, kinds, cls, score))

    per_folder: dict[str, Counter[str]] = {}
    for t in all_tests:
        folder = t.rsplit("/", 1)[0]
        c = per_folder.setdefault(folder, Counter())
        if t not in targets:
            c["not a target"] += 1
        elif t in passing:
            c["pass"] += 1
        else:
            c["not yet"] += 1
    lines += ["", "LLVM's regression tests through `llvmpy-opt`, per folder (`runner.py -v FOLDER` gives the", ""]
    lines[-2] += " reason for each test not passing yet):"
    lines += ["| folder | targets | pass | not yet | not a target |", "|---|---:|---:|---:|---:|"]
    total: Counter[str] = Counter()
    for folder in sorted(per_folder):
        c = per_folder[folder]
        total.update(c)
        if c["pass"]:
            lines.append("| %s | %d | %d | %d | %d |" % (folder, c["pass"] + c["not yet"], c["pass"], c["not yet"], c["not a target"]))
    lines.append(
        "| all %d folders (those with a passing test shown) | %d | %d | %d | %d |"
        % (len(per_folder), total["pass"] + total["not yet"], total["pass"], total["not yet"], total["not a target"])
    )
    lines += ["", END]
    return "\n".join(lines)


def readme_section(text: str) -> str | None:
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        return None
    return text[start : end + len(END)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="update README.md in place")
    args = ap.parse_args(argv)
    section = render()
    if not args.write:
        print(section)
        return 0
    text = README.read_text()
    old = readme_section(text)
    if old is None:
        print("README.md has no %s ... %s markers" % (BEGIN, END), file=sys.stderr)
        return 1
    README.write_text(text.replace(old, section))
    return 0


if __name__ == "__main__":
    sys.exit(main())
