"""How closely our alias analysis agrees with opt-19's: every answer ``aa-eval
-print-all-alias-modref-info`` prints, compared pair by pair.

For each input (csmith programs by default; ``optnone`` is dropped so that opt-19 runs the
pass, and with ``--mem2reg`` each is first put through ``opt-19 -passes=mem2reg``) both
tools print every pointer pair's alias answer and every call's mod/ref answer; pairs are
matched by their printed text within each function. Printed figures:

- ``unsound``: pairs where we answer NoAlias and opt-19 answers MustAlias (must be 0),
  and pairs where we answer NoAlias and opt-19 anything but NoAlias (should be 0: we
  follow the same rules, a stronger answer means a bug);
- ``no-alias share``: the share of opt-19's NoAlias answers we also give (aim >= 98%);
- ``exact``: the share of all alias and mod/ref lines that are identical;
- the time each tool took (opt-19: whole processes; ours: in-process pass runs).

Usage: ``python benchmarks/aa_agreement.py [--count 50] [--mem2reg] [--aa basic-aa]
[--max-pointers N] [--show 10] [--progress] [FILES...]`` (default files: the csmith corpus of ``tests/csmith_files.py``'s
cache folder, ``$LLVMPY_MID_CSMITH_DIR``, or ``~/.cache/llvmpy-mid/csmith-*``).
"""

from __future__ import annotations

import argparse
import glob
import io
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Iterable

import attrs

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_LINE = re.compile(
    r"^  (NoAlias|MayAlias|MustAlias|PartialAlias(?: \(off -?\d+\))?|NoModRef|Just Ref|Just Mod|Both ModRef):(.*)$"
)


@attrs.define
class Agreement:
    """Tallies of one comparison."""

    files: int = 0
    functions: int = 0
    alias_pairs: int = 0
    modref_pairs: int = 0
    exact: int = 0
    opt_no_alias: int = 0
    both_no_alias: int = 0
    ours_no_opt_must: int = 0
    ours_no_opt_other: int = 0
    missing: int = 0
    opt_seconds: float = 0.0
    our_seconds: float = 0.0
    kinds: Counter[tuple[str, str]] = attrs.field(factory=Counter)
    examples: list[str] = attrs.field(factory=list)

    @property
    def no_alias_share(self) -> float:
        return self.both_no_alias / self.opt_no_alias if self.opt_no_alias else 1.0

    @property
    def exact_share(self) -> float:
        total = self.alias_pairs + self.modref_pairs
        return self.exact / total if total else 1.0

    def report(self) -> str:
        lines = [
            "files: %d, functions: %d, alias pairs: %d, mod/ref pairs: %d"
            % (self.files, self.functions, self.alias_pairs, self.modref_pairs),
            "unsound (ours NoAlias, opt-19 MustAlias): %d" % self.ours_no_opt_must,
            "stronger (ours NoAlias, opt-19 not NoAlias): %d" % self.ours_no_opt_other,
            "no-alias share: %d/%d = %.2f%%" % (self.both_no_alias, self.opt_no_alias, 100 * self.no_alias_share),
            "exact lines: %d/%d = %.2f%%" % (self.exact, self.alias_pairs + self.modref_pairs, 100 * self.exact_share),
            "lines missing on one side: %d" % self.missing,
            "time: opt-19 %.2fs, ours %.2fs" % (self.opt_seconds, self.our_seconds),
        ]
        if self.kinds:
            lines.append("differences (opt-19 -> ours): " + ", ".join("%s->%s %d" % (a, b, n) for (a, b), n in self.kinds.most_common(12)))
        return "\n".join(lines)


def _kind(answer: str) -> str:
    return answer.split(" ", 1)[0] if answer.startswith("PartialAlias") else answer


def parse_answers(text: str) -> dict[tuple[str, str], str]:
    """(function, pair text) -> answer, from aa-eval's output."""
    out: dict[tuple[str, str], str] = {}
    fn = ""
    for line in text.splitlines():
        if line.startswith("Function: "):
            fn = line.split(":", 2)[1].strip()
            continue
        m = _LINE.match(line)
        if m:
            out[(fn, m.group(2))] = m.group(1)
    return out


def prepare(path: Path, mem2reg: bool) -> str:
    """The input text: without ``optnone`` (and through opt-19's mem2reg when asked)."""
    text = re.sub(r"\boptnone\b", "", path.read_text())
    if mem2reg:
        proc = subprocess.run(["opt-19", "-passes=mem2reg", "-S", "-"], input=text, capture_output=True, text=True, check=True)
        text = proc.stdout
    return text


def opt19_answers(text: str, aa: str) -> tuple[str, float]:
    start = time.perf_counter()
    proc = subprocess.run(
        ["opt-19", "-disable-output", "-passes=aa-eval", "-aa-pipeline=" + aa, "-print-all-alias-modref-info", "-"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stderr, time.perf_counter() - start


def our_answers(text: str, aa: str, only: set[str] | None = None) -> tuple[str, float]:
    """Our aa-eval output (of the functions named in ``only``, when given)."""
    import contextlib

    import llvmpy_mid.passes.registry  # noqa: F401  (declares the options)
    from llvmpy_mid.analysis.alias.aa_eval import AAEvaluator
    from llvmpy_mid.analysis.alias.aa_manager import AAManager
    from llvmpy_mid.asm import parse_assembly
    from llvmpy_mid.passes.instrumentation import PassInstrumentation
    from llvmpy_mid.passes.options import OPTIONS
    from llvmpy_mid.passes.proxies import make_analysis_managers
    from llvmpy_mid.passes.run import run_passes

    module = parse_assembly(text)
    start = time.perf_counter()
    stream = io.StringIO()
    options: dict[str, bool | int | str | None] = {"aa-pipeline": aa, "print-all-alias-modref-info": True}
    if only is None:
        run_passes(module, "aa-eval", options=options, stream=stream)
    else:
        _mam, fam = make_analysis_managers(PassInstrumentation())
        evaluator = AAEvaluator()
        with OPTIONS.overriding(options), contextlib.redirect_stderr(stream):
            for fn in module.functions:
                if fn.name in only and not fn.is_declaration:
                    evaluator.evaluate(fn, fam.get_result(AAManager, fn))
    return stream.getvalue(), time.perf_counter() - start


def function_sizes(text: str) -> dict[str, int]:
    """Pointers per function, from aa-eval's ``Function:`` lines."""
    out: dict[str, int] = {}
    for line in text.splitlines():
        if line.startswith("Function: "):
            m = re.match(r"Function: (.*): (\d+) pointers, (\d+) call sites$", line)
            if m:
                out[m.group(1)] = int(m.group(2))
    return out


def compare(theirs: dict[tuple[str, str], str], ours: dict[tuple[str, str], str], agg: Agreement, name: str, show: int) -> None:
    for key, a_opt in theirs.items():
        a_ours = ours.get(key)
        if a_ours is None:
            agg.missing += 1
            continue
        is_alias = "Alias" in a_opt
        if is_alias:
            agg.alias_pairs += 1
        else:
            agg.modref_pairs += 1
        if a_ours == a_opt:
            agg.exact += 1
        else:
            agg.kinds[(_kind(a_opt), _kind(a_ours))] += 1
            if len(agg.examples) < show:
                agg.examples.append("%s %s:%s  opt-19 %s, ours %s" % (name, key[0], key[1], a_opt, a_ours))
        if a_opt == "NoAlias":
            agg.opt_no_alias += 1
            if a_ours == "NoAlias":
                agg.both_no_alias += 1
        elif a_ours == "NoAlias":
            agg.ours_no_opt_other += 1
            if a_opt == "MustAlias":
                agg.ours_no_opt_must += 1
    agg.missing += sum(1 for key in ours if key not in theirs)


def default_files(count: int) -> list[Path]:
    folders = [os.environ.get("LLVMPY_MID_CSMITH_DIR", "")] + sorted(glob.glob(str(Path.home() / ".cache/llvmpy-mid/csmith-*/w0")))
    for folder in folders:
        if folder and Path(folder).is_dir():
            files = sorted(Path(folder).glob("s*.O0.ll"), key=lambda p: int(re.sub(r"\D", "", p.name.split(".")[0]) or 0))
            if files:
                return files[:count]
    return []


def run(
    files: Iterable[Path], mem2reg: bool, aa: str, show: int = 0, progress: bool = False, max_pointers: int = 0
) -> Agreement:
    """Compare every file's answers; with ``max_pointers``, only functions with at most that
    many pointers (counted by opt-19's ``Function:`` line) are compared."""
    agg = Agreement()
    for path in files:
        if progress:
            print("%s (%d done: %d exact of %d)" % (path.name, agg.files, agg.exact, agg.alias_pairs + agg.modref_pairs), file=sys.stderr)
        text = prepare(path, mem2reg)
        if max_pointers:
            text = keep_small_functions(text, max_pointers)
            if not text:
                continue
        theirs, t_opt = opt19_answers(text, aa)
        ours, t_ours = our_answers(text, aa)
        agg.files += 1
        agg.functions += sum(1 for n in function_sizes(theirs).values() if n)
        agg.opt_seconds += t_opt
        agg.our_seconds += t_ours
        compare(parse_answers(theirs), parse_answers(ours), agg, path.name, show)
    return agg


def keep_small_functions(text: str, max_pointers: int) -> str:
    """The module with only the bodies of functions with 1..``max_pointers`` pointers (the
    others become declarations, by ``llvm-extract-19``); "" when none is left."""
    import llvmpy_mid.passes.registry  # noqa: F401
    from llvmpy_mid.asm import parse_assembly
    from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst

    module = parse_assembly(text)
    keep: list[str] = []
    for fn in module.functions:
        if fn.is_declaration:
            continue
        pointers: set[tuple[object, object]] = set()
        for bb in fn.blocks:
            for inst in bb.instructions:
                if type(inst) is LoadInst:
                    pointers.add((inst.operands[0], inst.type))
                elif type(inst) is StoreInst:
                    pointers.add((inst.operands[1], inst.operands[0].type))
        if 0 < len(pointers) <= max_pointers:
            keep.append(fn.name)
    if not keep:
        return ""
    proc = subprocess.run(
        ["llvm-extract-19", "-S", *("--func=" + name for name in keep), "-"], input=text, capture_output=True, text=True, check=True
    )
    return proc.stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--mem2reg", action="store_true")
    ap.add_argument("--aa", default="default")
    ap.add_argument("--show", type=int, default=10, help="print this many differing pairs")
    ap.add_argument("--max-pointers", type=int, default=0, help="compare only functions with at most this many pointers")
    ap.add_argument("--progress", action="store_true", help="name each file on stderr as it starts")
    args = ap.parse_args(argv)
    files = args.files or default_files(args.count)
    if not files:
        print("no input files (csmith corpus not found)", file=sys.stderr)
        return 1
    agg = run(files, args.mem2reg, args.aa, args.show, args.progress, args.max_pointers)
    print(agg.report())
    for ex in agg.examples:
        print("  " + ex)
    return 0 if agg.ours_no_opt_must == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
