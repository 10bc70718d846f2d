"""The README's generated status section: the registered passes and the conformance figures.

What: :func:`render` builds, from the pass registry and the conformance data (``llvm19-opt19.tsv``
for the targets, ``results.tsv`` — the last full run of ``runner.py --write-expected`` — for each
target's result here, the tests' ``RUN:`` lines for which passes each test uses), Markdown tables:

* every registered pass and analysis name, with its kind(s), its class, and how many of the LLVM
  tests that use it (targets only) pass here;
* the seed catalogue of ``DESIGN.md``: each name, whether it exists here, its tests' figures;
* per area (Transforms, Analysis, Other, Verifier, Assembler) and per folder with a target that
  runs: targets, pass, fail, and the unsupported ones by reason (missing pass, target, bitcode,
  missing option, other), with the pass rate.

``python tests/conformance/readme_status.py`` prints the section; ``--write`` replaces the part of
``README.md`` between ``<!-- status:begin -->`` and ``<!-- status:end -->``. The test suite checks
that the README holds exactly what :func:`render` gives, so the README cannot drift from the registry
or from the checked-in list of passing tests (which the conformance test itself keeps honest).

It does not run the tests: it reads ``results.tsv``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from runner import PASS, REPO_ROOT, TEST_ROOT, Result, load_results, load_targets, read_directives  # noqa: E402

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


#: The seed catalogue (``DESIGN.md``): what "all of it" means, marked in the status section.
SEED_ANALYSES = (
    "aa-eval", "basic-aa", "basiccg", "da", "domfrontier", "domtree", "dot-callgraph", "dot-cfg",
    "dot-cfg-only", "dot-dom", "dot-dom-only", "dot-post-dom", "dot-post-dom-only", "globals-aa",
    "instcount", "iv-users", "lazy-value-info", "lint", "loops", "memdep", "postdomtree", "regions",
    "scalar-evolution", "scev-aa", "stack-safety",
)
SEED_TRANSFORMS = (
    "adce", "always-inline", "argpromotion", "break-crit-edges", "codegenprepare", "constmerge", "dce",
    "deadargelim", "deadarghaX0r", "dse", "function-attrs", "globaldce", "globalopt", "gvn", "indvars",
    "inline", "instcombine", "aggressive-instcombine", "internalize", "ipsccp", "jump-threading",
    "lcssa", "licm", "loop-deletion", "loop-extract", "loop-reduce", "loop-rotate", "loop-simplify",
    "loop-unroll", "loop-unroll-and-jam", "lower-global-dtors", "lower-atomic", "lower-invoke",
    "lower-switch", "mem2reg", "memcpyopt", "mergefunc", "mergereturn", "partial-inliner",
    "reassociate", "rel-lookup-table-converter", "reg2mem", "sroa", "sccp", "simplifycfg", "sink",
    "simple-loop-unswitch", "strip", "strip-dead-debug-info", "strip-dead-prototypes",
    "strip-debug-declare", "strip-nondebug", "tailcallelim",
)
SEED_UTILITIES = (
    "extract-blocks", "instnamer", "verify", "view-cfg", "view-cfg-only", "view-dom", "view-dom-only",
    "view-post-dom", "view-post-dom-only", "transform-warning",
)

AREAS = ("Transforms", "Analysis", "Other", "Verifier", "Assembler")
_REASON_CLASSES = (
    ("missing pass", "missing pass"),
    ("requires target", "target"),
    ("bitcode", "bitcode"),
    ("missing option", "missing option"),
)


def reason_class(r: Result) -> str:
    """The column an unsupported test counts in: missing pass, target, bitcode, option, other."""
    for prefix, label in _REASON_CLASSES:
        if r.reason.startswith(prefix):
            return label
    return "other"


def _seed_known(name: str) -> bool:
    if REGISTRY.kind_of(name):
        return True
    for spelled in ("print<%s>" % name, "require<%s>" % name):
        if REGISTRY.kind_of(spelled):
            return True
    return any(REGISTRY.lookup_analysis(name, k) is not None for k in KINDS)


def _usage_key(name: str) -> tuple[str, ...]:
    """The spellings under which a test's pipeline uses a seed name."""
    return (name, "print<%s>" % name, "analysis:" + name)


def render() -> str:
    results = {r.name: r for r in load_results()}
    targets = {t for t, status in load_targets().items() if status == "PASS"}
    usage: dict[str, set[str]] = {t: passes_used(t) for t in sorted(targets) if (TEST_ROOT / t).is_file()}

    def score(keys: tuple[str, ...]) -> str:
        tests = [t for t, used in usage.items() if any(k in used for k in keys)]
        passing = sum(1 for t in tests if t in results and results[t].status == PASS)
        return "%d / %d" % (passing, len(tests)) if tests else "–"

    lines = [BEGIN, "", "Registered pass and analysis names (`llvmpy-opt -print-passes`), with the LLVM 19.1.7 tests"]
    lines.append("that use each (targets only: tests opt-19 itself passes) and how many of those pass here:")
    lines += ["", "| name | what | level | class | LLVM tests using it: passing / targets |", "|---|---|---|---|---:|"]
    for name, what, kinds, cls in _entry_rows():
        # A row of a pass with parameters is labelled name<params...>; tests count by its name.
        base = name.split("<", 1)[0] if what == "pass" else name
        key = base if what == "pass" else "analysis:" + base
        lines.append("| `%s` | %s | %s | `%s` | %s |" % (name, what, kinds, cls, score((key,))))

    lines += ["", "The seed catalogue (`DESIGN.md`): each name, whether llvmpy_mid has it, and the LLVM 19.1.7",
              "tests whose RUN lines use it (passing here / targets):", ""]
    lines += ["| seed name | kind | here | LLVM tests using it |", "|---|---|---|---:|"]
    for kind, names in (("analysis", SEED_ANALYSES), ("transform", SEED_TRANSFORMS), ("utility", SEED_UTILITIES)):
        for name in names:
            here = "yes" if _seed_known(name) else "not yet"
            lines.append("| `%s` | %s | %s | %s |" % (name, kind, here, score(_usage_key(name))))

    per_folder: dict[str, Counter[str]] = {}
    for t in sorted(targets):
        r = results.get(t)
        c = per_folder.setdefault(t.rsplit("/", 1)[0], Counter())
        c["targets"] += 1
        if r is None:
            c["not run"] += 1
        elif r.status == PASS:
            c["pass"] += 1
        elif r.status == "FAIL":
            c["fail"] += 1
        else:
            c[reason_class(r)] += 1
    cols = ("targets", "pass", "fail", "missing pass", "target", "bitcode", "missing option", "other", "not run")
    head = "| %s | " + " | ".join(cols) + " | pass rate |"
    rule = "|---|" + "---:|" * (len(cols) + 1)

    def row(label: str, c: Counter[str]) -> str:
        rate = "%.1f%%" % (100.0 * c["pass"] / c["targets"]) if c["targets"] else "–"
        return "| %s | " % label + " | ".join(str(c[k]) for k in cols) + " | %s |" % rate

    lines += ["", "LLVM 19.1.7's regression tests through `llvmpy-opt` (`python tests/conformance/runner.py -v",
              "[FOLDER]` gives each test's reason). Targets are the tests opt-19 itself passes; the",
              "unsupported columns say why a target is not run here: a pass not implemented yet, a target",
              "(lit.local.cfg / REQUIRES) this runner does not register, bitcode, an option not implemented,",
              "other (tools, features). By area:", ""]
    lines += [head % "area", rule]
    total: Counter[str] = Counter()
    for area in AREAS:
        c: Counter[str] = Counter()
        for folder, fc in per_folder.items():
            if folder == area or folder.startswith(area + "/"):
                c.update(fc)
        total.update(c)
        lines.append(row(area, c))
    lines.append(row("**all**", total))
    lines += ["", "Per folder with a passing or failing target (the others: no target runs here yet):", ""]
    lines += [head % "folder", rule]
    for folder in sorted(per_folder):
        c = per_folder[folder]
        if c["pass"] or c["fail"]:
            lines.append(row(folder, c))
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
