"""The inliner's x86, ARM, RISC-V and WebAssembly target hooks against opt-19, byte for byte.

Modules made in the test cover the rules: which caller/callee pairs of processors and
``target-features`` may be inlined (x86's feature lattice and ignore list, the 64-bit
``+sse2``, the default processors' ``+evex512``, the ABI check of calls in a callee with
fewer features; ARM's exact-match features and ``InlineFeaturesAllowed``, Thumb mode and
soft float; RISC-V's extension implications and ``-ext``; WebAssembly's processors), switch
case clusters (bit tests, jump-table density with and without ``optsize``, the 4/5-entry
minimum, ``no-jump-tables``, retpolines) and ARM's soft-float FP operations (the call
penalty, seen in the inliner's remarks). The expected text is what opt-19 prints, made in
the test (the tests skip when opt-19 is not installed).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from llvmpy_mid.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402


def _clean(text: str) -> str:
    return "\n".join(
        line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename"))
    ).strip()


def _compare(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, flags: list[str], remarks: bool) -> None:
    """Our ``-S`` output (and with ``remarks``, the inliner's remarks) equals opt-19's."""
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


def _attrs(cpu: str | None, features: str | None) -> str:
    parts = ["nounwind"]
    if cpu is not None:
        parts.append('"target-cpu"="%s"' % cpu)
    if features is not None:
        parts.append('"target-features"="%s"' % features)
    return " ".join(parts)


def _pairs_module(pairs: list[tuple[str, str]], callee_body: str = "  ret i32 7") -> str:
    """One caller and one external callee per (caller attributes, callee attributes) pair."""
    groups: dict[str, int] = {}
    lines = []
    for i, (caller, callee) in enumerate(pairs):
        ce = groups.setdefault(callee, len(groups))
        cr = groups.setdefault(caller, len(groups))
        lines.append("define i32 @callee%d() #%d {\n%s\n}" % (i, ce, callee_body))
        lines.append("define i32 @caller%d() #%d {\n  %%r = call i32 @callee%d()\n  ret i32 %%r\n}" % (i, cr, i))
    lines.extend("attributes #%d = { %s }" % (n, a) for a, n in groups.items())
    return "\n".join(lines) + "\n"


def _all_pairs(attrs: list[str]) -> list[tuple[str, str]]:
    return [(a, b) for a in attrs for b in attrs if a != b]


# --- x86 -------------------------------------------------------------------------------

_X86_CPUS = [
    "i386", "i686", "pentium4", "prescott", "nocona", "core2", "nehalem", "sandybridge", "haswell", "skylake",
    "skylake-avx512", "icelake-server", "atom", "goldmont", "k8", "btver2", "znver1", "znver4", "x86-64",
    "x86-64-v3", "generic", "lakemont",
]  # fmt: skip


@pytest.mark.parametrize("triple", ["x86_64-unknown-linux-gnu", "i686-unknown-unknown"])
def test_x86_processor_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str], triple: str) -> None:
    only32 = ("i386", "i686", "pentium4", "prescott", "lakemont")
    cpus = [c for c in _X86_CPUS if triple.startswith("i686") or c not in only32]
    text = _pairs_module(_all_pairs([_attrs(c, None) for c in cpus]))
    _compare(tmp_path, capsys, text, ["-passes=inline", "-mtriple=" + triple], False)


_X86_FEATURES = [
    "+sse2", "+sse3", "+sse4.2", "+avx", "+avx2", "+avx512f", "+avx512bw", "+avx512vl", "+avx512f,-avx512f",
    "+avx2,-sse3", "+fma", "+f16c", "+avx10.1-256", "+evex512", "+cx16", "+sahf", "+nopl", "+popcnt",
    "+slow-unaligned-mem-16", "+sbb-dep-breaking", "+retpoline", "-sse2", "+bogus-feature",
]  # fmt: skip


@pytest.mark.parametrize("cpu", [None, "x86-64", "nocona", "haswell"])
def test_x86_feature_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str], cpu: str | None) -> None:
    attrs = [_attrs(cpu, f) for f in _X86_FEATURES] + [_attrs(cpu, None)]
    text = _pairs_module(_all_pairs(attrs))
    _compare(tmp_path, capsys, text, ["-passes=inline", "-mtriple=x86_64-unknown-linux-gnu"], False)


def test_x86_tune_cpu_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The tuning flags outside the ignore list follow ``tune-cpu``."""
    attrs = [
        "nounwind \"target-cpu\"=\"%s\"%s" % (cpu, "" if tune is None else " \"tune-cpu\"=\"%s\"" % tune)
        for cpu in ("x86-64", "znver4")
        for tune in (None, "generic", "znver4", "goldmont", "graniterapids-d", "skylake")
    ]
    text = _pairs_module(_all_pairs(attrs))
    _compare(tmp_path, capsys, text, ["-passes=inline", "-mtriple=x86_64-unknown-linux-gnu"], False)


def test_x86_nested_call_abi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A callee with fewer features is inlined only when its vector calls keep their ABI."""
    text = """
define i64 @same(<4 x i64> %a) noinline {
  %v = extractelement <4 x i64> %a, i64 1
  ret i64 %v
}
define i64 @wide(<4 x i64> %a) noinline "target-features"="+avx" {
  %v = extractelement <4 x i64> %a, i64 1
  ret i64 %v
}
declare i64 @unknown(<4 x i64>)
declare i64 @llvm.some.intrinsic(<4 x i64>)
declare i64 @simple(i64)
declare { i32, i32 } @agg()
define internal void @c1() {
  call i64 @same(<4 x i64> zeroinitializer)
  ret void
}
define internal void @c2() {
  call i64 @unknown(<4 x i64> zeroinitializer)
  ret void
}
define internal void @c3() {
  call i64 @llvm.some.intrinsic(<4 x i64> zeroinitializer)
  ret void
}
define internal void @c4() {
  call i64 @simple(i64 1)
  ret void
}
define internal void @c5(ptr %f) {
  call i64 %f(<4 x i64> zeroinitializer)
  ret void
}
define internal void @c6() {
  call { i32, i32 } @agg()
  ret void
}
define internal void @c7() {
  call <4 x i64> asm "nop", "=x"()
  ret void
}
define internal void @c8() "target-features"="+avx" {
  call i64 @wide(<4 x i64> zeroinitializer)
  ret void
}
define void @top(ptr %f) "target-features"="+avx" {
  call void @c1()
  call void @c2()
  call void @c3()
  call void @c4()
  call void @c5(ptr %f)
  call void @c6()
  call void @c7()
  call void @c8()
  ret void
}
define void @top512(ptr %f) "target-cpu"="skylake-avx512" "min-legal-vector-width"="512" {
  call void @c1()
  call void @c4()
  call void @c8()
  ret void
}
"""
    _compare(tmp_path, capsys, text, ["-passes=inline", "-mtriple=x86_64-unknown-linux-gnu"], False)


def _switch_module(switches: dict[str, tuple[list[int], list[int]]], fn_attrs: str = "") -> str:
    """One callee with a switch (and a caller of it) per named switch."""
    out = []
    for name, (values, dests) in switches.items():
        cases = "".join("    i32 %d, label %%b%d\n" % (v, d) for v, d in zip(values, dests))
        block = "b%d:\n  store volatile i32 %d, ptr %%p\n  br label %%r\n"
        blocks = "".join(block % (d, d) for d in sorted(set(dests)))
        out.append(
            "define i32 @%s(i32 %%a, ptr %%p) %s {\n  switch i32 %%a, label %%r [\n%s  ]\n%sr:\n  ret i32 0\n}\n"
            "define i32 @call_%s(i32 %%a, ptr %%p) {\n  %%x = call i32 @%s(i32 %%a, ptr %%p)\n  ret i32 %%x\n}\n"
            % (name, fn_attrs, cases, blocks, name, name)
        )
    return "".join(out)


_SWITCHES = {
    "bittest1": (list(range(0, 12, 3)), [0] * 4),
    "bittest2": ([1, 5, 9, 13, 17], [0, 1, 0, 1, 0]),
    "bittest3": ([1, 2, 3, 4, 5, 6], [0, 1, 2, 0, 1, 2]),
    "dense3": ([0, 1, 2], [0, 1, 2]),
    "dense4": ([0, 1, 2, 3], [0, 1, 2, 3]),
    "dense5": ([0, 1, 2, 3, 4], [0, 1, 2, 3, 4]),
    "sparse": ([0, 100, 200, 300, 400], [0, 1, 2, 3, 4]),
    "ten_percent": ([0, 10, 20, 30, 39], [0, 1, 2, 3, 4]),
    "wide": ([0, 70, 140, 210, 280, 350, 420, 490], [0, 1, 2, 3, 4, 5, 6, 7]),
    "negative": ([-3, -2, -1, 0, 1], [0, 1, 2, 3, 4]),
}


_SWITCH_RUNS = [
    (triple, attrs)
    for triple in ("x86_64-unknown-linux-gnu", "i686-unknown-unknown", "riscv64-unknown-linux-gnu",
                   "wasm32-unknown-unknown", "arm-unknown-linux-gnueabi")
    for attrs in ("", "optsize", '"no-jump-tables"="true"')
] + [("x86_64-unknown-linux-gnu", '"target-features"="+retpoline"')]  # fmt: skip


@pytest.mark.parametrize(("triple", "attrs"), _SWITCH_RUNS)
def test_switch_case_clusters(tmp_path: Path, capsys: pytest.CaptureFixture[str], triple: str, attrs: str) -> None:
    _compare(tmp_path, capsys, _switch_module(_SWITCHES, attrs), ["-passes=inline", "-mtriple=" + triple], True)


# --- ARM -------------------------------------------------------------------------------

_ARM_FEATURES = [
    "+dsp,+neon", "+dsp,+neon,+fp16", "+dsp,+neon,+thumb-mode", "+dsp,+neon,+strict-align", "+soft-float",
    "+vfp2", "+vfp2sp", "+vfp3", "+vfp4", "+neon", "+fp-armv8", "+fullfp16", "+vfp2,-fp64", "+crc", "+crypto",
    "+hwdiv", "+d32", "+fp64", "+v5te", "+armv8.2-a", "+armv8.7-a,+dotprod", "+mve.fp", "+slow-load-D-subreg",
    "+vmlx-hazards", "+bogus-feature",
]  # fmt: skip


@pytest.mark.parametrize("triple", ["arm-unknown-linux-gnueabi", "thumbv7-unknown-linux-gnueabi"])
def test_arm_feature_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str], triple: str) -> None:
    attrs = [_attrs("generic", f) for f in _ARM_FEATURES] + [_attrs(None, None), _attrs("cortex-a9", None)]
    _compare(tmp_path, capsys, _pairs_module(_all_pairs(attrs)), ["-passes=inline", "-mtriple=" + triple], False)


_ARM_FP_BODIES = {
    "float": "  %c = sitofp i32 %x to float\n  %m = fmul float %c, 2.0\n  %d = fdiv float %m, 3.0\n"
    "  %r = fptosi float %d to i32\n  ret i32 %r",
    "double": "  %c = sitofp i32 %x to double\n  %m = fmul double %c, 2.0\n  %d = fdiv double %m, 3.0\n"
    "  %r = fptosi double %d to i32\n  ret i32 %r",
    "half": "  %c = sitofp i32 %x to half\n  %m = fmul half %c, 2.0\n  %r = fptosi half %m to i32\n  ret i32 %r",
    "fneg": "  %c = sitofp i32 %x to float\n  %m = fsub float -0.0, %c\n  %n = fsub nsz float 0.0, %m\n"
    "  %o = fsub float 0.0, %n\n  %r = fptosi float %o to i32\n  ret i32 %r",
    "fpext": "  %c = bitcast i32 %x to float\n  %e = fpext float %c to double\n  %t = fptrunc double %e to float\n"
    "  %r = bitcast float %t to i32\n  ret i32 %r",
    "vector": "  %v = insertelement <4 x i32> poison, i32 %x, i32 0\n  %c = sitofp <4 x i32> %v to <4 x float>\n"
    "  %h = sitofp <4 x i32> %v to <4 x half>\n  %d = fpext <4 x float> %c to <4 x double>\n"
    "  %b = fptosi <4 x float> %c to <4 x i8>\n  %r = extractelement <4 x i8> %b, i32 0\n"
    "  %z = zext i8 %r to i32\n  ret i32 %z",
    "wide": "  %c = sitofp i32 %x to double\n  %t = fptosi double %c to i64\n  %u = fptosi double %c to i16\n"
    "  %r = trunc i64 %t to i32\n  ret i32 %r",
}


@pytest.mark.parametrize(
    ("triple", "mattr"),
    [("arm-eabi", None), ("arm-eabi", "+vfp2"), ("arm-eabi", "+vfp2,-fp64"), ("arm-eabi", "+fullfp16"),
     ("arm-eabi", "+vfp2,+soft-float"), ("armv7-eabi", "+neon"), ("armv7-eabi", "+neon,+fullfp16,+soft-float"),
     ("thumbv6m-none-eabi", "+vfp2")],
)  # fmt: skip
def test_arm_soft_float_costs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], triple: str, mattr: str | None
) -> None:
    lines = []
    for name, body in _ARM_FP_BODIES.items():
        for soft in ("", ' "use-soft-float"="true"'):
            tag = name + ("_soft" if soft else "")
            lines.append("define i32 @%s(i32 %%x) optsize%s {\n%s\n}" % (tag, soft, body))
            lines.append(
                "define i32 @call_%s(i32 %%x) optsize%s {\n  %%r = call i32 @%s(i32 %%x)\n  ret i32 %%r\n}"
                % (tag, soft, tag)
            )
    flags = ["-passes=inline", "-mtriple=" + triple] + (["-mattr=" + mattr] if mattr else [])
    _compare(tmp_path, capsys, "\n".join(lines) + "\n", flags, True)


# --- RISC-V ----------------------------------------------------------------------------

_RISCV_FEATURES = [
    "+f,+d", "+f,+d,+m,+v", "+v", "+d", "+f", "+zve32x", "+zve64d", "+m", "+zmmul", "+c", "+zca", "+zcd",
    "+zfh", "+zfhmin", "+zvfh", "+v,-f", "+zk", "+zbkb", "+a", "+relax", "+zba,+zbb",
]  # fmt: skip


@pytest.mark.parametrize("triple", ["riscv64-unknown-linux-gnu", "riscv32-unknown-elf"])
def test_riscv_feature_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str], triple: str) -> None:
    generic = "generic-rv64" if triple.startswith("riscv64") else "generic-rv32"
    attrs = [_attrs(generic, f) for f in _RISCV_FEATURES] + [_attrs(None, None), _attrs("generic", "+m")]
    if triple.startswith("riscv64"):
        attrs.append(_attrs("sifive-u74", None))
    _compare(tmp_path, capsys, _pairs_module(_all_pairs(attrs)), ["-passes=inline", "-mtriple=" + triple], False)


# --- WebAssembly -----------------------------------------------------------------------

_WASM_ATTRS = [
    _attrs("mvp", "+simd128"), _attrs("bleeding-edge", "+simd128"), _attrs("mvp", "+multivalue"), _attrs(None, None),
    _attrs("generic", None), _attrs("mvp", None), _attrs("bleeding-edge", None), _attrs("generic", "-sign-ext"),
    _attrs("mvp", "+relaxed-simd"), _attrs("mvp", "+atomics,+bulk-memory"), _attrs("bleeding-edge", "-atomics"),
    _attrs("mvp", "+unknown-thing"),
]  # fmt: skip


def test_wasm_feature_pairs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _pairs_module(_all_pairs(_WASM_ATTRS))
    _compare(tmp_path, capsys, text, ["-passes=inline", "-mtriple=wasm32-unknown-unknown"], False)
