"""The harness's results log: outcomes are appended as they are known, and a second run with
the same log takes them from it (resumption) instead of checking the cases again. The checks
themselves are replaced by a stand-in here, so no LLVM tool is needed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import harness  # noqa: E402


def _fake_check(calls: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    def check(case: harness.Case, spec: harness.PassSpec) -> harness.Outcome:
        name = next(n for n, s in harness.PASSES.items() if s is spec)
        calls.append((name, case.name))
        outcome = harness.DIFFERS if case.stress_seed == 2 else harness.IDENTICAL
        return harness.Outcome(case.name, outcome, "line 1\nlast line", 0.5, 1.0, 1.0)

    return check


def test_log_is_written_case_by_case_and_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []
    monkeypatch.setattr(harness, "check", _fake_check(calls))
    names = ["dse", "gvn"]
    log = tmp_path / "results.jsonl"
    cases = harness.stress_cases([1, 2, 3])
    first = harness.run_table(names, cases, jobs=1, log=log)
    # Case-major order: every pass on a case before the next case.
    assert calls == [(n, "stress/%d" % s) for s in (1, 2, 3) for n in names]
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(r["pass"], r["case"]) for r in records] == calls
    assert records[2]["outcome"] == harness.DIFFERS and records[2]["detail"] == "last line"
    assert first["gvn"].counts[harness.DIFFERS] == 1 and first["gvn"].counts[harness.IDENTICAL] == 2

    # Cut the log short (as an interrupted run leaves it, last line half written) and resume.
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:3]) + lines[3][:10])
    calls.clear()
    second = harness.run_table(names, cases, jobs=1, log=log)
    assert calls == [("gvn", "stress/2"), ("dse", "stress/3"), ("gvn", "stress/3")]
    for n in names:
        assert second[n].counts == first[n].counts
    assert len(harness._read_log(log)) == 6
