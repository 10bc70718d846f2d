"""The ``CodeExtractor`` API used directly (as the partial inliner and hot/cold splitting
do): extracting a region by hand gives what opt-19's ``extract-blocks`` prints for the same
blocks; ineligible regions (address-taken blocks, ``va_start`` without ``allow_var_args``,
entries into the middle, allocas without ``allow_alloca``) are refused; inputs and outputs
are the live-in and live-out values. The tests that need opt-19 skip without it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.transform.utils.code_extractor import CodeExtractor, CodeExtractorAnalysisCache

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402

SRC = """
declare void @use(i32)

define i32 @f(i32 %a, i32 %b) {
entry:
  %c = icmp sgt i32 %a, 0
  br i1 %c, label %then, label %else
then:
  %x = mul i32 %a, %b
  %d = icmp eq i32 %x, 5
  br i1 %d, label %join, label %other
other:
  call void @use(i32 %x)
  br label %join
else:
  br label %join
join:
  %r = phi i32 [ %x, %then ], [ %b, %else ], [ 0, %other ]
  ret i32 %r
}

define void @v(i32 %n, ...) {
entry:
  %ap = alloca ptr
  br label %body
body:
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_end.p0(ptr %ap)
  ret void
}
declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)

define ptr @addr() {
entry:
  br label %target
target:
  ret ptr blockaddress(@addr, %target)
}
"""


def _blocks(module: Module, fn_name: str, names: list[str]) -> list:  # type: ignore[type-arg]
    fn = module.get_function(fn_name)
    assert fn is not None
    by_name = {bb.name: bb for bb in fn.blocks}
    return [by_name[n] for n in names]


def _body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename"))).strip()


def test_extracting_by_hand_matches_extract_blocks(tmp_path: Path) -> None:
    require_tools("opt-19")
    module = parse_assembly(SRC, name="<stdin>")
    fn = module.get_function("f")
    assert fn is not None
    ce = CodeExtractor(_blocks(module, "f", ["then", "other"]))
    assert ce.is_eligible()
    new_fn = ce.extract_code_region(CodeExtractorAnalysisCache(fn))
    assert isinstance(new_fn, Function) and new_fn.name == "f.then"
    llvmpy_mid.verify_module(module)
    f = tmp_path / "b.txt"
    f.write_text("f then;other\n")
    r = subprocess.run(["opt-19", "-passes=extract-blocks", "-extract-blocks-file=" + str(f), "-S", "-"],
                       input=SRC, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert _body(print_module(module)) == _body(r.stdout)


def test_suffix_names_the_function() -> None:
    module = parse_assembly(SRC)
    fn = module.get_function("f")
    assert fn is not None
    new_fn = CodeExtractor(_blocks(module, "f", ["other"]), suffix="cold.1").extract_code_region(
        CodeExtractorAnalysisCache(fn))
    assert new_fn is not None and new_fn.name == "f.cold.1"
    llvmpy_mid.verify_module(module)


def test_inputs_and_outputs() -> None:
    module = parse_assembly(SRC)
    ce = CodeExtractor(_blocks(module, "f", ["then", "other"]))
    ins: dict = {}  # type: ignore[type-arg]
    outs: dict = {}  # type: ignore[type-arg]
    ce.find_inputs_outputs(ins, outs)
    assert [v.name for v in ins] == ["a", "b"]
    assert [v.name for v in outs] == ["x"]


def test_ineligible_regions_are_refused() -> None:
    module = parse_assembly(SRC)
    text_before = print_module(module)
    assert not CodeExtractor(_blocks(module, "f", ["then", "join"])).is_eligible()  # join entered from else
    assert not CodeExtractor(_blocks(module, "v", ["body"])).is_eligible()  # va_start
    assert not CodeExtractor(_blocks(module, "v", ["entry"])).is_eligible()  # alloca
    assert CodeExtractor(_blocks(module, "v", ["entry"]), allow_alloca=True).is_eligible()
    assert not CodeExtractor(_blocks(module, "addr", ["target"])).is_eligible()  # address taken
    fn = module.get_function("f")
    assert fn is not None
    assert CodeExtractor(_blocks(module, "f", ["then", "join"])).extract_code_region(
        CodeExtractorAnalysisCache(fn)) is None
    assert print_module(module) == text_before
