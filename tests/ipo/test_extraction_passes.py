"""``extract-blocks`` and ``loop-extract`` against opt-19, byte for byte: exits numbered
into ``void``/``i1``/``i16`` returns, outputs through ``.loc`` allocas, severed phis of the
header and exits, alloca sinking with lifetime markers, EH regions, attribute copying, debug
info (with ``debugify``), ``-extract-blocks-erase-funcs``, the file's error messages and
``loop-extract<single>``. Expected texts come from opt-19 in the test; the tests skip when
opt-19 is not installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.errors import FatalError, PipelineError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402


def _body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename"))).strip()


def _opt19(text: str, pipeline: str, *flags: str) -> str:
    require_tools("opt-19")
    r = subprocess.run(["opt-19", "-passes=" + pipeline, *flags, "-S", "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _ours(text: str, pipeline: str, options: dict[str, object] | None = None) -> str:
    module = parse_assembly(text, name="<stdin>")
    llvmpy_mid.run_passes(module, pipeline, options=options)  # type: ignore[arg-type]
    llvmpy_mid.verify_module(module)
    return print_module(module)


def _same_blocks(text: str, groups: str, tmp_path: Path, pipeline: str = "extract-blocks", *flags: str,
                 options: dict[str, object] | None = None) -> str:
    f = tmp_path / "blocks.txt"
    f.write_text(groups)
    opts: dict[str, object] = {"extract-blocks-file": str(f)}
    opts.update(options or {})
    ours = _ours(text, pipeline, opts)
    assert _body(ours) == _body(_opt19(text, pipeline, "-extract-blocks-file=" + str(f), *flags))
    return ours


MULTI = """
declare void @use(i32)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)

define i32 @f(i32 %a, i32 %b, i1 %c) {
entry:
  %tmp = alloca i32, align 4
  br i1 %c, label %left, label %right
left:
  %x = add i32 %a, 1
  br label %body
right:
  %y = add i32 %b, 2
  br label %body
body:
  %p = phi i32 [ %x, %left ], [ %y, %right ], [ %z, %latch ]
  call void @llvm.lifetime.start.p0(i64 4, ptr %tmp)
  store i32 %p, ptr %tmp
  %z = add i32 %p, %b
  %cmp = icmp slt i32 %z, 100
  br i1 %cmp, label %latch, label %out1
latch:
  %w = mul i32 %z, 3
  call void @llvm.lifetime.end.p0(i64 4, ptr %tmp)
  switch i32 %w, label %body [ i32 7, label %out2
                               i32 9, label %out3
                               i32 11, label %out1 ]
out1:
  %q = phi i32 [ %z, %body ], [ %w, %latch ]
  call void @use(i32 %q)
  ret i32 %q
out2:
  ret i32 %z
out3:
  %r = phi i32 [ %w, %latch ]
  ret i32 %r
}
"""

EH = """
declare void @g()
declare i32 @__gxx_personality_v0(...)
declare void @abort() noreturn

define void @h(i32 %n) nounwind uwtable "thunk" willreturn "foo"="bar" personality ptr @__gxx_personality_v0 {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %dead, label %work
work:
  invoke void @g() to label %cont unwind label %lpad
cont:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
dead:
  call void @abort()
  unreachable
}
"""


@pytest.mark.parametrize("group", ["body;latch", "body", "latch", "left", "body;latch;out2", "out1", "right;left"])
def test_exits_outputs_and_split_phis(group: str, tmp_path: Path) -> None:
    _same_blocks(MULTI, "f %s\n" % group, tmp_path)


def test_three_exits_switch_on_i16(tmp_path: Path) -> None:
    ours = _same_blocks(MULTI, "f body;latch\n", tmp_path)
    assert "switch i16 %targetBlock" in ours and "%p.ce = phi" in ours and "%q.ce.loc = alloca" in ours


@pytest.mark.parametrize("group", ["work", "dead", "cont", "work;cont"])
def test_eh_regions_noreturn_and_attributes(group: str, tmp_path: Path) -> None:
    _same_blocks(EH, "h %s\n" % group, tmp_path)


@pytest.mark.parametrize("group", ["f body;latch", "f left", "f out1"])
def test_debug_info_moves_to_a_new_subprogram(group: str, tmp_path: Path) -> None:
    ours = _same_blocks(MULTI, group + "\n", tmp_path, "debugify,extract-blocks")
    assert "linkageName: \"f." in ours


def test_several_groups_and_erase_funcs(tmp_path: Path) -> None:
    groups = "f left\nf right\n"
    _same_blocks(MULTI, groups, tmp_path)
    f = tmp_path / "b2.txt"
    f.write_text(groups)
    ours = _ours(MULTI, "extract-blocks", {"extract-blocks-file": str(f), "extract-blocks-erase-funcs": True})
    ref = _opt19(MULTI, "extract-blocks", "-extract-blocks-file=" + str(f), "-extract-blocks-erase-funcs")
    assert _body(ours) == _body(ref)
    assert "declare i32 @f(" in ours


def test_a_region_entered_in_the_middle_is_left_alone(tmp_path: Path) -> None:
    ours = _same_blocks(MULTI, "f body;out2\n", tmp_path)
    assert "codeRepl" not in ours


@pytest.mark.parametrize(("line", "message"), [
    ("f", "Invalid line format, expecting lines like: 'funcname bb1[;bb2..]'"),
    ("nofunc bb", "Invalid function name specified in the input file"),
    ("f nobb", "Invalid block name specified in the input file"),
])  # fmt: skip
def test_bad_block_files_are_fatal_errors(line: str, message: str, tmp_path: Path) -> None:
    f = tmp_path / "bad.txt"
    f.write_text(line + "\n")
    with pytest.raises(FatalError, match=message.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        _ours(MULTI, "extract-blocks", {"extract-blocks-file": str(f)})
    require_tools("opt-19")
    r = subprocess.run(["opt-19", "-passes=extract-blocks", "-extract-blocks-file=" + str(f), "-S", "-"],
                       input=MULTI, capture_output=True, text=True)
    assert r.returncode != 0 and message in r.stderr


LOOPS = """
declare void @foo()
define void @two(i32 %n) {
entry:
  br label %l1
l1:
  %i = phi i32 [ 0, %entry ], [ %i.next, %l1 ]
  call void @foo()
  %i.next = add i32 %i, 1
  %c1 = icmp slt i32 %i.next, %n
  br i1 %c1, label %l1, label %mid
mid:
  br label %l2
l2:
  %j = phi i32 [ 0, %mid ], [ %j.next, %l2.latch ]
  %j.next = add i32 %j, %i.next
  %c2 = icmp slt i32 %j.next, 100
  br i1 %c2, label %l2.latch, label %exit
l2.latch:
  br label %l2
exit:
  ret void
}
define i32 @wrapper(i32 %n) {
entry:
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop.latch ]
  br label %inner
inner:
  %m = phi i32 [ 0, %loop ], [ %m.next, %inner ]
  %m.next = add i32 %m, 1
  %ci = icmp slt i32 %m.next, %n
  br i1 %ci, label %inner, label %loop.latch
loop.latch:
  %k.next = add i32 %k, %m.next
  %ck = icmp slt i32 %k.next, 1000
  br i1 %ck, label %loop, label %exit
exit:
  ret i32 %k.next
}
"""


@pytest.mark.parametrize("pipeline", ["function(loop-simplify),loop-extract", "function(loop-simplify),loop-extract<single>",
                                      "loop-extract"])
def test_loop_extract(pipeline: str) -> None:
    assert _body(_ours(LOOPS, pipeline)) == _body(_opt19(LOOPS, pipeline))


def test_loop_extract_rejects_unknown_parameters() -> None:
    with pytest.raises(PipelineError, match="invalid LoopExtractorPass pass parameter 'double'"):
        _ours(LOOPS, "loop-extract<double>")


def test_aggregate_args_without_outputs(tmp_path: Path) -> None:
    _same_blocks(MULTI, "f out1\n", tmp_path, "extract-blocks", "-aggregate-extracted-args",
                 options={"aggregate-extracted-args": True})
