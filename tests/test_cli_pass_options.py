"""``llvmpy-opt`` options added for the pass layer: ``-stats``, pass-declared options,
``-print-pipeline-passes``, ``-verify-analysis-invalidation``, ``default<On>``; and the same
through ``run_passes``. Wording is checked against opt-19's where opt-19 has the same case."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

from llvmpy_mid import parse_assembly, run_passes
from llvmpy_mid.cli import main
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS, PassOption, declare_option
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.registry import REGISTRY
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.passes.verify_invalidation import AnalysisInvalidationError

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")

IR = """define i32 @f(i32 %a) {
entry:
  %0 = add i32 %a, 1
  br label %next
next:
  ret i32 %0
}

declare void @unused()
"""


def _write(tmp_path: Path) -> str:
    p = tmp_path / "x.ll"
    p.write_text(IR)
    return str(p)


def _opt(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    assert OPT is not None
    return subprocess.run(["opt-19", *args, _write(tmp_path)], capture_output=True, text=True)


def _ours(args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main([*args, _write(tmp_path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# --- a pass with a statistic and an option, and a lying pass -----------------------------

NUM_SEEN = Statistic("test-counting", "NumSeen", "Number of functions seen")


class CountingPass(Pass[Function]):
    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        amount = OPTIONS.value("test-count-by")
        assert isinstance(amount, int)
        NUM_SEEN.add(amount)
        return PreservedAnalyses.all()


class LyingPass(Pass[Function]):
    """Renames nothing but adds an instruction, and claims to keep every analysis."""

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        from llvmpy_mid.ir.builder import IRBuilder

        bb = unit.blocks[-1]
        terminator = bb.terminator
        assert terminator is not None
        IRBuilder(before=terminator).add(unit.args[0], unit.args[0])
        return PreservedAnalyses.all()


@pytest.fixture(autouse=True, scope="module")
def _test_passes() -> Iterator[None]:
    """Register the test passes and options for this module only."""
    declare_option("test-count-by", "uint", 1, "what to add per function", "test-counting")
    declare_option("test-loud", "bool", False, "a flag", "test-counting")
    REGISTRY.register_pass("test-counting", "function")(CountingPass)
    REGISTRY.register_pass("test-lying", "function")(LyingPass)
    yield
    for name in ("test-counting", "test-lying"):
        REGISTRY.remove(name, "function")
    for option in ("test-count-by", "test-loud"):
        OPTIONS.remove(option)


def test_stats_report_as_llvm_lays_it_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _ours(["-stats", "-passes=test-counting,instcount", "-disable-output"], tmp_path, capsys)
    rule = "===" + "-" * 73 + "===\n"
    assert code == 0 and out == ""
    assert err.startswith(rule + "                          ... Statistics Collected ...\n" + rule + "\n")
    assert "1 test-counting - Number of functions seen\n" in err
    assert "3 instcount     - Number of instructions (of all types)\n" in err  # type column padded


def test_pass_option_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _ours(["-stats", "-test-count-by=5", "-passes=test-counting", "-disable-output"], tmp_path, capsys)
    assert code == 0 and "5 test-counting - Number of functions seen" in err
    assert OPTIONS.value("test-count-by") == 1  # only for that run


def test_value_option_takes_the_next_argument(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # cl::opt<unsigned> reads "-name value" as "-name=value"; a bool option never takes the next one
    code, _, err = _ours(["-stats", "-test-count-by", "5", "-passes=test-counting", "-disable-output"], tmp_path, capsys)
    assert code == 0 and "5 test-counting - Number of functions seen" in err
    code, _, err = _ours(["-test-loud", "-passes=test-counting", "-disable-output"], tmp_path, capsys)
    assert code == 0


def test_disable_builtin_accumulates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # -disable-builtin is a cl::list: every occurrence disables one more library function
    src = tmp_path / "lib.ll"
    src.write_text('@s = constant [4 x i8] c"abc\\00"\ndeclare i64 @strlen(ptr)\n'
                   "define i64 @f() {\n  %n = call i64 @strlen(ptr @s)\n  ret i64 %n\n}\n")
    for flags, folded in (([], True), (["-disable-builtin", "strcat"], True),
                          (["-disable-builtin=strcat", "-disable-builtin=strlen"], False)):
        code = main(["-S", "-passes=instcombine", *flags, str(src)])
        out = capsys.readouterr().out
        assert code == 0
        assert ("ret i64 3" in out) == folded, (flags, out)


@needs_opt
def test_bad_option_values_worded_as_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # opt-19's wording for its own bool / uint pass options, with our option names in.
    ref_bool = _opt(["-mergefunc-use-aliases=3", "-disable-output"], tmp_path).stderr
    ref_uint = _opt(["-mergefunc-verify=x", "-disable-output"], tmp_path).stderr
    code, _, err = _ours(["-test-loud=3", "-disable-output"], tmp_path, capsys)
    assert code == 1
    assert err == ref_bool.replace("opt-19", "llvmpy-opt").replace("mergefunc-use-aliases", "test-loud")
    code, _, err = _ours(["-test-count-by=x", "-disable-output"], tmp_path, capsys)
    assert code == 1
    assert err == ref_uint.replace("opt-19", "llvmpy-opt").replace("mergefunc-verify", "test-count-by")


@needs_opt
def test_unknown_option_suggests_a_pass_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = _opt(["-mergefunc-use-aliase", "-disable-output"], tmp_path).stderr
    code, _, err = _ours(["-test-lou", "-disable-output"], tmp_path, capsys)
    assert code == 1
    expected = ref.replace("opt-19", "llvmpy-opt").replace("--mergefunc-use-aliases", "--test-loud")
    assert err == expected.replace("-mergefunc-use-aliase", "-test-lou")


def test_option_values_parse_as_llvm() -> None:
    flag = PassOption("x", "bool", False)
    assert flag.parse(None) is True and flag.parse("true") is True and flag.parse("0") is False
    with pytest.raises(PipelineError, match="invalid value for boolean argument"):
        flag.parse("yes")
    number = PassOption("n", "uint", 0)
    assert number.parse("0x10") == 16
    with pytest.raises(PipelineError, match="value invalid for uint argument"):
        number.parse("-1")


@needs_opt
@pytest.mark.parametrize(
    "pipeline",
    ["instcount,no-op-function", "no-op-loop", "verify,no-op-cgscc,no-op-function", "print<loops>", "strip,instnamer"],
)
@pytest.mark.parametrize("output", [["-disable-output"], ["-S"], ["-S", "-disable-verify"]])
def test_print_pipeline_passes_matches_opt(
    pipeline: str, output: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = _opt(["-passes=" + pipeline, "-print-pipeline-passes", *output], tmp_path)
    code, out, err = _ours(["-passes=" + pipeline, "-print-pipeline-passes", *output], tmp_path, capsys)
    assert code == ref.returncode == 0
    assert out == ref.stdout and err == ""


def test_verify_analysis_invalidation_catches_a_lying_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _ours(["-verify-analysis-invalidation", "-passes=test-lying", "-disable-output"], tmp_path, capsys)
    assert code == 1
    assert err == "LLVM ERROR: Function @f changed by LyingPass without invalidating analyses\n"
    code, _, err = _ours(["-verify-analysis-invalidation", "-passes=strip-dead-prototypes,instnamer", "-S"], tmp_path, capsys)
    assert code == 0  # renaming is not a structural change (as LLVM's hash); removed declarations neither
    with pytest.raises(AnalysisInvalidationError):
        run_passes(parse_assembly(IR), "test-lying", verify_analysis_invalidation=True)


@needs_opt
@pytest.mark.parametrize("level", ["O0", "O1", "O2", "O3", "Os", "Oz"])
def test_default_pipelines_refused_until_complete(level: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from llvmpy_mid.passes.default_pipeline import missing_passes

    ref = _opt(["-passes=default<%s>" % level, "-S"], tmp_path)
    assert ref.returncode == 0
    missing = missing_passes(level)
    assert "coro-cleanup" in missing  # not implemented yet: no level is complete
    code, out, err = _ours(["-passes=default<%s>" % level, "-S"], tmp_path, capsys)
    assert code == 1 and out == ""
    assert err.startswith("llvmpy-opt: unknown pass name 'default<%s>': LLVM 19's default<%s> pipeline" % (level, level))
    assert ", ".join(missing) in err and "-allow-partial-pipeline" in err
    code, out, _ = _ours(["-%s" % level, "-S"], tmp_path, capsys)  # -On is default<On>
    assert code == 1 and out == ""
    code, out, _ = _ours(["-passes=default<%s>" % level, "-S", "-allow-partial-pipeline"], tmp_path, capsys)
    assert code == 0
    if level == "O0":  # opt-19's O0 passes all leave this module alone
        assert out == ref.stdout


@needs_opt
@pytest.mark.parametrize("pipeline", ["default<O4>", "instcount,default<O0>", "function(default<O2>)"])
def test_default_pipeline_errors_as_opt(pipeline: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = _opt(["-passes=" + pipeline, "-disable-output"], tmp_path)
    code, _, err = _ours(["-passes=" + pipeline, "-disable-output"], tmp_path, capsys)
    assert code == ref.returncode == 1
    assert err == ref.stderr.replace("opt-19", "llvmpy-opt") + ("" if ref.stderr.endswith("\n") else "\n")


def test_default_pipeline_is_llvms_with_what_exists() -> None:
    from llvmpy_mid.passes.default_pipeline import default_pipeline_text, llvm_default_pipeline_text

    assert llvm_default_pipeline_text("O0").startswith("function(ee-instrument<>),always-inline")
    from llvmpy_mid.passes.pipeline_text import parse_pipeline

    reg_text = default_pipeline_text("O2")
    leaves, work = [], list(parse_pipeline(reg_text))
    while work:
        e = work.pop()
        if e.children is None:
            leaves.append(e.spelled)
        else:
            assert e.name in ("module", "cgscc", "function", "loop", "loop-mssa", "devirt"), e.name
            work.extend(e.children)
    assert leaves and all(REGISTRY.kind_of(n) for n in leaves), leaves
    assert "devirt<4>(inline" in reg_text and "coro-cond" not in reg_text and "mem2reg" in leaves


def test_run_passes_statistics_and_options() -> None:
    r = run_passes(parse_assembly(IR), "test-counting,instcount", options={"test-count-by": 7})
    assert r.statistics["test-counting.NumSeen"] == 7
    assert r.statistics["instcount.TotalInsts"] == 3
    with pytest.raises(PipelineError):
        run_passes(parse_assembly(IR), "test-counting", options={"no-such-option": 1})
