"""The AA manager and ``-aa-pipeline`` against opt-19: the error for an unknown name, the
``-debug-pass-manager`` log of the analyses each pipeline runs, and AAResults' combination rules."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from llvmpy_mid.analysis.alias import MAY_ALIAS, MUST_ALIAS, NO_ALIAS, PARTIAL_ALIAS, AAResultBase, AAResults, LocationSize, MemoryLocation
from llvmpy_mid.analysis.alias.aa_manager import DEFAULT_AA_PIPELINE, parse_aa_pipeline
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.cli import main
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.memory_effects import ModRefInfo
from tests.oracles import require_tools

SOURCE = """@g = global i32 0
define i32 @f(ptr %p, ptr %q) {
  store i32 1, ptr %p
  %a = load i32, ptr %q
  %b = load i32, ptr @g
  ret i32 %a
}
"""


def _opt(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["opt-19", *args], capture_output=True, text=True)


@pytest.fixture()
def source(tmp_path: Path) -> Path:
    path = tmp_path / "f.ll"
    path.write_text(SOURCE)
    return path


def test_parse_aa_pipeline() -> None:
    assert parse_aa_pipeline("default") == DEFAULT_AA_PIPELINE
    assert parse_aa_pipeline("") == ()
    assert parse_aa_pipeline("tbaa,basic-aa") == ("tbaa", "basic-aa")
    with pytest.raises(PipelineError, match="unknown alias analysis name 'x'"):
        parse_aa_pipeline("basic-aa,x")


def test_unknown_aa_name_as_opt(source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_tools("opt-19")
    args = ["-S", "-passes=instcombine", "-aa-pipeline=foo", str(source)]
    ref = _opt(args)
    code = main(args)
    err = capsys.readouterr().err
    assert code == ref.returncode == 1
    assert err == ref.stderr.replace("opt-19", "llvmpy-opt")


@pytest.mark.parametrize("aa", [None, "basic-aa", "tbaa,scoped-noalias-aa", "", "globals-aa,basic-aa"])
def test_aa_log_as_opt(aa: str | None, source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_tools("opt-19")
    args = ["-disable-output", "-passes=instcombine,loop(no-op-loop)", "-debug-pass-manager", str(source)]
    if aa is not None:
        args.append("-aa-pipeline=" + aa)
    ref = _opt(args)
    code = main(args)
    err = capsys.readouterr().err
    assert code == ref.returncode == 0
    assert err.splitlines() == [line for line in ref.stderr.splitlines() if "ScalarEvolution" not in line]


class _Fixed(AAResultBase):
    def __init__(self, answer: object, mask: ModRefInfo) -> None:
        self.answer = answer
        self.mask = mask

    def alias(self, loc_a, loc_b, aaqi, ctx_i):  # type: ignore[no-untyped-def]
        return self.answer

    def get_mod_ref_info_mask(self, loc, aaqi, ignore_locals):  # type: ignore[no-untyped-def]
        return self.mask


@pytest.mark.parametrize(
    "answers, expected",
    [
        ((MAY_ALIAS, MAY_ALIAS), MAY_ALIAS),
        ((MAY_ALIAS, NO_ALIAS), NO_ALIAS),
        ((MUST_ALIAS, NO_ALIAS), MUST_ALIAS),  # the first definite answer wins, as LLVM's chain
        ((PARTIAL_ALIAS, MAY_ALIAS), PARTIAL_ALIAS),
    ],
)
def test_chain_takes_first_definite_answer(answers: tuple[object, object], expected: object) -> None:
    m = parse_assembly(SOURCE)
    fn = m.get_function("f")
    assert fn is not None
    aa = AAResults(None)
    masks = (ModRefInfo.MOD_REF, ModRefInfo.REF)
    for answer, mask in zip(answers, masks):
        aa.add_provider(_Fixed(answer, mask))
    p, q = fn.args
    loc_p = MemoryLocation(p, LocationSize.precise(4))
    loc_q = MemoryLocation(q, LocationSize.precise(4))
    assert aa.alias(loc_p, loc_q) == expected
    # masks intersect across providers
    assert aa.get_mod_ref_info_mask(loc_p) == ModRefInfo.REF
    assert aa.points_to_constant_memory(loc_p)


def test_location_size_text_and_union() -> None:
    assert str(LocationSize.precise(4)) == "LocationSize::precise(4)"
    assert str(LocationSize.upper_bound(8)) == "LocationSize::upperBound(8)"
    assert str(LocationSize.upper_bound(0)) == "LocationSize::precise(0)"
    assert str(LocationSize.after_pointer()) == "LocationSize::afterPointer"
    assert str(LocationSize.before_or_after_pointer()) == "LocationSize::beforeOrAfterPointer"
    assert str(LocationSize.precise(16, scalable=True)) == "LocationSize::precise(vscale x 16)"
    assert LocationSize.precise(4).union_with(LocationSize.precise(8)) == LocationSize.upper_bound(8)
    assert LocationSize.precise(4).union_with(LocationSize.after_pointer()) == LocationSize.after_pointer()
    assert LocationSize.precise(4).union_with(LocationSize.before_or_after_pointer()) == LocationSize.before_or_after_pointer()
    assert str(PARTIAL_ALIAS.with_offset(-4)) == "PartialAlias (off -4)"
    assert PARTIAL_ALIAS.with_offset(4).swap().offset == -4


def test_llvm_aa_not_built_is_reported_as_such() -> None:
    from llvmpy_mid.passes.llvm_pass_names import NOT_IMPLEMENTED

    with pytest.raises(PipelineError, match="unknown alias analysis name 'scev-aa': " + NOT_IMPLEMENTED):
        parse_aa_pipeline("basic-aa,scev-aa")
