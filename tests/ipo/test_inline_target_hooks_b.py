"""The inliner's AArch64 and AMDGPU target hooks against opt-19, byte for byte.

Modules made in the test cover the rules: SME streaming-mode / ZA / ZT0 compatibility (with
and without calls that may not lower in the other mode), the streaming-mode-change call
penalty, target-feature subsets, switch case clusters (bit tests, jump tables, the
13-entry minimum and ``minsize``, ``no-jump-tables``); on amdgcn the feature ignore list,
the IEEE / DX10-clamp modes of calling conventions and attributes, the threshold
multiplier, the argument-register and private-alloca threshold adjustments and the caller
alloca cost. Decisions are compared through ``-passes=inline`` output, costs and thresholds
through the inliner's remarks; the expected text is what opt-19 prints, made in the test
(the tests skip when opt-19 is not installed).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from llvmpy_mid.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402

AARCH64 = "-mtriple=aarch64-unknown-linux-gnu"
AMDGCN = "-mtriple=amdgcn-amd-amdhsa"


def _clean(text: str) -> str:
    return "\n".join(
        line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename"))
    ).strip()


def _compare(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, flags: list[str], remarks: bool) -> None:
    """Our ``-S`` output (and with ``remarks``, the inliner's remarks with their costs and
    thresholds) equals opt-19's."""
    require_tools("opt-19")
    src = tmp_path / "in.ll"
    src.write_text(text)
    out = tmp_path / "ours.ll"
    if remarks:
        flags = [*flags, "-pass-remarks=inline", "-pass-remarks-missed=inline"]
    ref = subprocess.run(["opt-19", *flags, str(src), "-S", "-o", "-"], capture_output=True, text=True)
    assert ref.returncode == 0, ref.stderr
    capsys.readouterr()
    code = main([*flags, str(src), "-S", "-o", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert _clean(out.read_text()) == _clean(ref.stdout)
    if remarks:
        assert captured.err.strip() == ref.stderr.strip()
        assert "threshold=" in ref.stderr


# --- AArch64 -------------------------------------------------------------------------

_SME_KINDS = {
    "normal": "",
    "sm": '"aarch64_pstate_sm_enabled"',
    "smc": '"aarch64_pstate_sm_compatible"',
    "smb": '"aarch64_pstate_sm_body"',
    "newza": '"aarch64_new_za"',
    "inoutza": '"aarch64_inout_za"',
    "preza": '"aarch64_preserves_za"',
    "inzt0": '"aarch64_in_zt0"',
    "newzt0": '"aarch64_new_zt0"',
    "smcza": '"aarch64_pstate_sm_compatible" "aarch64_inout_za"',
}
_SME_BODIES = {
    "plain": "  %y = add i32 %x, 1\n  ret i32 %y",
    "intr": "  %y = call i32 @llvm.smax.i32(i32 %x, i32 1)\n  ret i32 %y",
    "abi": "  %s = call i64 @__arm_sme_state()\n  %t = trunc i64 %s to i32\n  %y = add i32 %x, %t\n  ret i32 %y",
    "asm": '  %y = call i32 asm "mov $0, $1", "=r,r"(i32 %x)\n  ret i32 %y',
}


def _sme_module(bodies: list[str]) -> str:
    lines = ["declare i32 @llvm.smax.i32(i32, i32)", "declare i64 @__arm_sme_state()"]
    attrs: list[str] = []

    def group(kind: str) -> str:
        text = _SME_KINDS[kind]
        if not text:
            return ""
        attrs.append("attributes #%d = { %s }" % (len(attrs), text))
        return " #%d" % (len(attrs) - 1)

    for callee in _SME_KINDS:
        for body in bodies:
            lines.append("define i32 @%s_%s(i32 %%x)%s {\n%s\n}" % (callee, body, group(callee), _SME_BODIES[body]))
    for caller in _SME_KINDS:
        for callee in _SME_KINDS:
            for body in bodies:
                lines.append(
                    "define i32 @from_%s_to_%s_%s(i32 %%x)%s {\n  %%r = call i32 @%s_%s(i32 %%x)\n  ret i32 %%r\n}"
                    % (caller, callee, body, group(caller), callee, body)
                )
    return "\n".join(lines + attrs) + "\n"


@pytest.mark.parametrize("bodies", [["plain", "intr"], ["abi", "asm"]])
def test_sme_inline_compatibility(tmp_path: Path, capsys: pytest.CaptureFixture[str], bodies: list[str]) -> None:
    _compare(tmp_path, capsys, _sme_module(bodies), [AARCH64, "-mattr=+sme", "-passes=inline"], False)


_SM_PENALTY = """
declare void @normal_f()
declare void @streaming_f() "aarch64_pstate_sm_enabled"
declare void @compatible_f() "aarch64_pstate_sm_compatible"

define void @streaming_callee() "aarch64_pstate_sm_enabled" {
  call void @normal_f()
  call void @streaming_f()
  call void @compatible_f()
  ret void
}
define void @normal_callee() {
  call void @normal_f()
  call void @streaming_f()
  call void @compatible_f()
  ret void
}
define void @normal_caller() {
  call void @streaming_callee()
  call void @normal_callee()
  ret void
}
define void @streaming_caller() "aarch64_pstate_sm_enabled" {
  call void @streaming_callee()
  call void @normal_callee()
  ret void
}
define void @body_caller() "aarch64_pstate_sm_body" {
  call void @streaming_callee()
  call void @normal_callee()
  ret void
}
define void @compatible_caller() "aarch64_pstate_sm_compatible" {
  call void @streaming_callee()
  call void @normal_callee()
  ret void
}
"""


@pytest.mark.parametrize("options", [[], ["-call-penalty-sm-change=2", "-inline-call-penalty-sm-change=30"]])
def test_streaming_mode_change_call_penalty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    _compare(tmp_path, capsys, _SM_PENALTY, [AARCH64, "-mattr=+sme", "-passes=inline", *options], True)


_FEATURES = [
    "",
    "+neon",
    "+crc,+neon",
    "+neon,-neon",
    "-crc,+crc",
    "+sve,+neon,+crc",
    "+fullfp16",
    "-fp-armv8",
    "+crypto",
    "+aes,+sha2",
    "+sme",
    "+bf16",
    "+sve2,-sve",
]


def test_target_feature_subsets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines: list[str] = []
    attrs: list[str] = []
    for i, feats in enumerate(_FEATURES):
        attrs.append('attributes #%d = { "target-cpu"="generic" "target-features"="%s" }' % (i, feats))
        lines.append("define i32 @callee%d(i32 %%x) #%d {\n  %%y = add i32 %%x, 1\n  ret i32 %%y\n}" % (i, i))
    for i in range(len(_FEATURES)):
        for j in range(len(_FEATURES)):
            lines.append(
                "define i32 @caller%d_%d(i32 %%x) #%d {\n  %%r = call i32 @callee%d(i32 %%x)\n  ret i32 %%r\n}"
                % (i, j, i, j)
            )
    _compare(tmp_path, capsys, "\n".join(lines + attrs) + "\n", [AARCH64, "-passes=inline"], False)


def _switch(name: str, values: list[int], dests: int, attrs: str = "", width: int = 32) -> str:
    cases = "\n".join("    i%d %d, label %%bb%d" % (width, v, k % dests) for k, v in enumerate(values))
    blocks = "\n".join("bb%d:\n  store volatile i32 %d, ptr %%p\n  br label %%ret" % (k, k) for k in range(dests))
    return (
        "define i32 @%s(i%d %%a, ptr %%p) %s {\n  switch i%d %%a, label %%def [\n%s\n  ]\n%s\n"
        "def:\n  br label %%ret\nret:\n  ret i32 0\n}\n"
        "define i32 @call_%s(i%d %%a, ptr %%p) {\n  %%r = call i32 @%s(i%d %%a, ptr %%p)\n  ret i32 %%r\n}\n"
        % (name, width, attrs, width, cases, blocks, name, width, name, width)
    )


_SWITCHES = "".join(
    [
        _switch("dense12", list(range(100, 112)), 4),
        _switch("dense13", list(range(100, 113)), 4),
        _switch("dense13_minsize", list(range(100, 113)), 4, "minsize"),
        _switch("dense5_minsize", list(range(0, 10, 2)), 5, "minsize"),
        _switch("third_optsize", list(range(0, 39, 3)), 5, "optsize"),
        _switch("third", list(range(0, 39, 3)), 5),
        _switch("fifth_optsize", list(range(0, 65, 5)), 5, "optsize"),
        _switch("dense13_nojt", list(range(100, 113)), 4, '"no-jump-tables"="true"'),
        _switch("sparse", [k * 1000 for k in range(14)], 4),
        _switch("bits1", [1, 5, 9], 1),
        _switch("bits2", [0, 3, 8, 20, 63], 2),
        _switch("bits3", [-5, 0, 3, 8, 20, 50], 3),
        _switch("bits_wide", [0, 3, 8, 20, 64], 2),
        _switch("negative", list(range(-20, 0)), 5),
        _switch("i64", [-(1 << 62), 0, 1 << 62], 3, "", 64),
    ]
)


@pytest.mark.parametrize("flags", [[AARCH64], [AARCH64, "-aarch64-min-jump-table-entries=5"], [AMDGCN]])
def test_switch_case_clusters(tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]) -> None:
    _compare(tmp_path, capsys, _SWITCHES, [*flags, "-passes=inline"], True)


# --- AMDGPU --------------------------------------------------------------------------

_MODES = {
    "default": "",
    "ieee_on": '"amdgpu-ieee"="true"',
    "ieee_off": '"amdgpu-ieee"="false"',
    "clamp_off": '"amdgpu-dx10-clamp"="false"',
    "both_off": '"amdgpu-ieee"="false" "amdgpu-dx10-clamp"="false"',
    "xnack": '"target-features"="+xnack,+half-rate-64-ops"',
    "dpp": '"target-features"="+dpp"',
    "nodpp": '"target-features"="+dpp,-dpp"',
    "fiji": '"target-cpu"="fiji"',
}


def test_amdgpu_inline_compatibility(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines: list[str] = []
    attrs: list[str] = []
    for i, (name, text) in enumerate(_MODES.items()):
        attrs.append("attributes #%d = { nounwind %s }" % (i, text))
        lines.append("define i32 @callee_%s(i32 %%x) #%d {\n  %%y = add i32 %%x, 1\n  ret i32 %%y\n}" % (name, i))
    for i, caller in enumerate(_MODES):
        for cc in ("", "amdgpu_ps ", "amdgpu_gfx "):
            for callee in _MODES:
                if caller == "fiji" and callee in ("dpp", "nodpp"):
                    continue  # a CPU's own features are not modelled
                lines.append(
                    "define %si32 @%s_%s_to_%s(i32 %%x) #%d {\n  %%r = call i32 @callee_%s(i32 %%x)\n  ret i32 %%r\n}"
                    % (cc, cc.strip() or "c", caller, callee, i, callee)
                )
    _compare(tmp_path, capsys, "\n".join(lines + attrs) + "\n", [AMDGCN, "-passes=inline"], False)


def _many(ty: str, n: int) -> tuple[str, str]:
    params = ", ".join("%s %%a%d" % (ty, k) for k in range(n))
    args = ", ".join("%s %%b" % ty for _ in range(n))
    return params, args


_AMDGPU_COSTS = "\n".join(
    [
        "define i32 @callee_i32x40(%s) {\n  ret i32 %%a0\n}" % _many("i32", 40)[0],
        "define i32 @call_i32x40(i32 %%b) {\n  %%r = call i32 @callee_i32x40(%s)\n  ret i32 %%r\n}" % _many("i32", 40)[1],
        "define i64 @callee_i64x20(%s) {\n  ret i64 %%a0\n}" % _many("i64", 20)[0],
        "define i64 @call_i64x20(i64 %%b) {\n  %%r = call i64 @callee_i64x20(%s)\n  ret i64 %%r\n}" % _many("i64", 20)[1],
        "define <16 x i32> @callee_v16x3(%s) {\n  ret <16 x i32> %%a0\n}" % _many("<16 x i32>", 3)[0],
        "define <16 x i32> @call_v16x3(<16 x i32> %%b) {\n  %%r = call <16 x i32> @callee_v16x3(%s)\n"
        "  ret <16 x i32> %%r\n}" % _many("<16 x i32>", 3)[1],
        "define i32 @callee_ptrx20(%s) {\n  ret i32 0\n}" % _many("ptr", 20)[0],
        "define i32 @call_ptrx20(ptr %%b) {\n  %%r = call i32 @callee_ptrx20(%s)\n  ret i32 %%r\n}" % _many("ptr", 20)[1],
        "define amdgpu_gfx i32 @callee_inreg(%s) {\n  ret i32 %%a0\n}" % ", ".join("i32 inreg %%a%d" % k for k in range(30)),
        "define amdgpu_gfx i32 @call_inreg(i32 %%b) {\n  %%r = call amdgpu_gfx i32 @callee_inreg(%s)\n  ret i32 %%r\n}"
        % ", ".join("i32 inreg %b" for _ in range(30)),
        """
define i32 @callee_alloca(ptr addrspace(5) %p, ptr addrspace(5) %q) {
  %x = load i32, ptr addrspace(5) %p
  %y = load i32, ptr addrspace(5) %q
  %z = add i32 %x, %y
  ret i32 %z
}
define i32 @call_small_allocas() {
  %a = alloca [4 x i32], addrspace(5)
  %b = alloca [8 x i32], addrspace(5)
  %r = call i32 @callee_alloca(ptr addrspace(5) %a, ptr addrspace(5) %b)
  ret i32 %r
}
define i32 @call_big_allocas() {
  %a = alloca [40 x i32], addrspace(5)
  %b = alloca [100 x i32], addrspace(5)
  %r = call i32 @callee_alloca(ptr addrspace(5) %a, ptr addrspace(5) %b)
  ret i32 %r
}
define i32 @callee_alloca_branchy(ptr addrspace(5) %p, i1 %c) {
  br i1 %c, label %t, label %f
t:
  %x = load i32, ptr addrspace(5) %p
  ret i32 %x
f:
  ret i32 0
}
define i32 @call_big_alloca_branchy(i1 %c) {
  %a = alloca [100 x i32], addrspace(5)
  %r = call i32 @callee_alloca_branchy(ptr addrspace(5) %a, i1 %c)
  ret i32 %r
}
define internal i32 @callee_static(i32 %x) {
  %y = mul i32 %x, %x
  ret i32 %y
}
define i32 @call_static(i32 %x) {
  %r = call i32 @callee_static(i32 %x)
  ret i32 %r
}
define <4 x float> @callee_vec(<4 x float> %x) {
  %y = fadd <4 x float> %x, %x
  %z = fmul <4 x float> %y, %x
  ret <4 x float> %z
}
define <4 x float> @call_vec(<4 x float> %x) {
  %r = call <4 x float> @callee_vec(<4 x float> %x)
  ret <4 x float> %r
}
""",
    ]
)


@pytest.mark.parametrize(
    "options",
    [[], ["-amdgpu-inline-arg-alloca-cost=900", "-amdgpu-inline-arg-alloca-cutoff=20", "-amdgpu-inline-max-bb=2"]],
)
def test_amdgpu_threshold_and_alloca_costs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    _compare(tmp_path, capsys, _AMDGPU_COSTS, [AMDGCN, "-passes=inline", *options], True)
