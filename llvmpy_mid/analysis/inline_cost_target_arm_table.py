"""Measured ARM subtarget features for :mod:`llvmpy_mid.analysis.inline_cost_target_arm`.

What LLVM 19.1.7's ``ARMFeatures.td`` and ``ARMArchitectures.td`` define, as opt-19's
``ARMTTIImpl::areInlineCompatible`` sees it: ``ARM_FEATURE_NAMES`` are every feature
(``-mattr=help``; another name is ignored, as LLVM does); ``ARM_IMPLIES`` maps a feature
to those it directly implies. Produced by probing opt-19 (on ``thumb-none-eabi``: a
caller with ``+F,-H`` cannot inline a callee with ``+F`` exactly when ``F`` implies
``H``); ``v4t`` and ``thumb-mode``, which that triple always has, follow the ``.td``
files (``tests/ipo/test_inline_target_hooks_a.py`` checks samples against opt-19).
"""

from __future__ import annotations

ARM_FEATURE_NAMES = frozenset(
    """32bit 8msecext a12 a15 a17 a32 a35 a5 a53 a55 a57 a7 a72 a73 a75 a76 a77 a78c a8 a9 aapcs-frame-chain aclass
    acquire-release aes armv4 armv4t armv5t armv5te armv5tej armv6 armv6-m armv6j armv6k armv6kz armv6s-m
    armv6t2 armv7-a armv7-m armv7-r armv7e-m armv7k armv7s armv7ve armv8-a armv8-m.base armv8-m.main armv8-r
    armv8.1-a armv8.1-m.main armv8.2-a armv8.3-a armv8.4-a armv8.5-a armv8.6-a armv8.7-a armv8.8-a armv8.9-a
    armv9-a armv9.1-a armv9.2-a armv9.3-a armv9.4-a armv9.5-a atomics-32 avoid-movs-shop avoid-partial-cpsr bf16
    big-endian-instructions cde cdecp0 cdecp1 cdecp2 cdecp3 cdecp4 cdecp5 cdecp6 cdecp7 cheap-predicable-cpsr
    clrbhb cortex-a710 cortex-a78 cortex-a78ae cortex-x1 cortex-x1c crc crypto d32 db dfb
    disable-postra-scheduler dont-widen-vmovs dotprod dsp execute-only expand-fp-mlx exynos
    fix-cmse-cve-2021-35465 fix-cortex-a57-aes-1742098 fp-armv8 fp-armv8d16 fp-armv8d16sp fp-armv8sp fp16
    fp16fml fp64 fpao fpregs fpregs16 fpregs64 fullfp16 fuse-aes fuse-literals harden-sls-blr
    harden-sls-nocomdat harden-sls-retbr hwdiv hwdiv-arm i8mm iwmmxt iwmmxt2 krait kryo lob long-calls
    loop-align m3 m7 mclass mp muxed-units mve mve.fp mve1beat mve2beat mve4beat nacl-trap neon neon-fpmovs
    neonfp neoverse-v1 no-branch-predictor no-bti-at-return-twice no-movt no-neg-immediates noarm
    nonpipelined-vfp pacbti perfmon prefer-ishst prefer-vmovsr prof-unpr r4 r5 r52 r52plus r7 ras rclass
    read-tp-tpidrprw read-tp-tpidruro read-tp-tpidrurw reserve-r9 ret-addr-stack sb sha2 slow-fp-brcc
    slow-load-D-subreg slow-odd-reg slow-vdup32 slow-vgetlni32 slowfpvfmx slowfpvmlx soft-float splat-vfp-neon
    strict-align swift thumb-mode thumb2 trustzone use-mipipeliner use-misched v4t v5t v5te v6 v6k v6m v6t2 v7
    v7clrex v8 v8.1a v8.1m.main v8.2a v8.3a v8.4a v8.5a v8.6a v8.7a v8.8a v8.9a v8m v8m.main v9.1a v9.2a v9.3a
    v9.4a v9.5a v9a vfp2 vfp2sp vfp3 vfp3d16 vfp3d16sp vfp3sp vfp4 vfp4d16 vfp4d16sp vfp4sp virtualization
    vldn-align vmlx-forwarding vmlx-hazards wide-stride-vfp xscale zcz""".split()
)

ARM_IMPLIES: dict[str, str] = {
    "aes": "neon",
    "armv5t": "v5t",
    "armv5te": "v5te",
    "armv5tej": "v5te",
    "armv6": "dsp v6",
    "armv6-m": "db mclass noarm strict-align thumb-mode v6m",
    "armv6j": "armv6",
    "armv6k": "v6k",
    "armv6kz": "trustzone v6k",
    "armv6s-m": "db mclass noarm strict-align thumb-mode v6m",
    "armv6t2": "dsp v6t2",
    "armv7-a": "aclass db dsp perfmon v7 vfp3",
    "armv7-m": "db hwdiv mclass noarm thumb-mode v7",
    "armv7-r": "db dsp hwdiv perfmon rclass v7",
    "armv7e-m": "db dsp hwdiv mclass noarm thumb-mode v7",
    "armv7k": "armv7-a",
    "armv7s": "armv7-a",
    "armv7ve": "aclass db dsp mp neon perfmon trustzone v7 virtualization",
    "armv8-a": "aclass crc crypto db dsp fp-armv8 mp trustzone v8 virtualization",
    "armv8-m.base": "8msecext acquire-release db hwdiv mclass noarm strict-align thumb-mode v7clrex v8m",
    "armv8-m.main": "8msecext acquire-release db hwdiv mclass noarm thumb-mode v8m.main",
    "armv8-r": "crc db dfb dsp fp-armv8d16sp mp rclass v8 virtualization",
    "armv8.1-a": "aclass crc crypto db dsp fp-armv8 mp trustzone v8.1a virtualization",
    "armv8.1-m.main": "8msecext acquire-release db hwdiv lob mclass noarm ras thumb-mode v8.1m.main",
    "armv8.2-a": "aclass crc crypto db dsp fp-armv8 mp ras trustzone v8.2a virtualization",
    "armv8.3-a": "aclass crc crypto db dsp fp-armv8 mp ras trustzone v8.3a virtualization",
    "armv8.4-a": "aclass crc crypto db dsp fp-armv8 mp ras trustzone v8.4a virtualization",
    "armv8.5-a": "aclass crc crypto db dsp fp-armv8 mp ras trustzone v8.5a virtualization",
    "armv8.6-a": "aclass crc crypto db dsp fp-armv8 mp ras trustzone v8.6a virtualization",
    "armv8.7-a": "aclass crc crypto db dsp fp-armv8 mp ras trustzone v8.7a virtualization",
    "armv8.8-a": "aclass crc crypto db dsp fp-armv8 mp ras trustzone v8.8a virtualization",
    "armv8.9-a": "aclass crc crypto db dsp fp-armv8 mp ras trustzone v8.9a virtualization",
    "armv9-a": "aclass crc db dsp fp-armv8 mp ras trustzone v9a virtualization",
    "armv9.1-a": "aclass crc db dsp fp-armv8 mp ras trustzone v9.1a virtualization",
    "armv9.2-a": "aclass crc db dsp fp-armv8 mp ras trustzone v9.2a virtualization",
    "armv9.3-a": "aclass crc crypto db dsp fp-armv8 mp ras trustzone v9.3a virtualization",
    "armv9.4-a": "aclass crc db dsp fp-armv8 mp ras trustzone v9.4a virtualization",
    "armv9.5-a": "aclass crc db dsp fp-armv8 mp ras trustzone v9.5a virtualization",
    "bf16": "neon",
    "cde": "v8m.main",
    "cdecp0": "cde",
    "cdecp1": "cde",
    "cdecp2": "cde",
    "cdecp3": "cde",
    "cdecp4": "cde",
    "cdecp5": "cde",
    "cdecp6": "cde",
    "cdecp7": "cde",
    "crypto": "aes sha2",
    "dotprod": "neon",
    "exynos": (
        "crc crypto expand-fp-mlx fuse-aes fuse-literals hwdiv hwdiv-arm prof-unpr ret-addr-stack "
        "slow-fp-brcc slow-vdup32 slow-vgetlni32 slowfpvfmx slowfpvmlx splat-vfp-neon wide-stride-vfp zcz"
    ),
    "fp-armv8": "fp-armv8d16 fp-armv8sp vfp4",
    "fp-armv8d16": "fp-armv8d16sp vfp4d16",
    "fp-armv8d16sp": "vfp4d16sp",
    "fp-armv8sp": "fp-armv8d16sp vfp4sp",
    "fp16fml": "fullfp16",
    "fp64": "fpregs64",
    "fpregs16": "fpregs",
    "fpregs64": "fpregs",
    "fullfp16": "fp-armv8d16sp fpregs16",
    "i8mm": "neon",
    "iwmmxt": "armv5te",
    "iwmmxt2": "armv5te",
    "mve": "dsp fpregs16 fpregs64 v8.1m.main",
    "mve.fp": "fullfp16 mve",
    "neon": "vfp3",
    "sha2": "neon",
    "splat-vfp-neon": "dont-widen-vmovs",
    "v5t": "v4t",
    "v5te": "v5t",
    "v6": "v5te",
    "v6k": "v6",
    "v6m": "v6",
    "v6t2": "thumb2 v6k v8m",
    "v7": "v6t2 v7clrex",
    "v8": "acquire-release perfmon v7",
    "v8.1a": "v8",
    "v8.1m.main": "v8m.main",
    "v8.2a": "v8.1a",
    "v8.3a": "v8.2a",
    "v8.4a": "dotprod v8.3a",
    "v8.5a": "sb v8.4a",
    "v8.6a": "bf16 i8mm v8.5a",
    "v8.7a": "v8.6a",
    "v8.8a": "v8.7a",
    "v8.9a": "clrbhb v8.8a",
    "v8m": "v6m",
    "v8m.main": "v7",
    "v9.1a": "v8.6a v9a",
    "v9.2a": "v8.7a v9.1a",
    "v9.3a": "v8.8a v9.2a",
    "v9.4a": "v8.9a v9.3a",
    "v9.5a": "v9.4a",
    "v9a": "v8.5a",
    "vfp2": "fp64 vfp2sp",
    "vfp2sp": "fpregs",
    "vfp3": "vfp3d16 vfp3sp",
    "vfp3d16": "vfp2 vfp3d16sp",
    "vfp3d16sp": "vfp2sp",
    "vfp3sp": "d32 vfp3d16sp",
    "vfp4": "vfp3 vfp4d16 vfp4sp",
    "vfp4d16": "vfp3d16 vfp4d16sp",
    "vfp4d16sp": "fp16 vfp3d16sp",
    "vfp4sp": "vfp3sp vfp4d16sp",
    "virtualization": "hwdiv hwdiv-arm",
    "xscale": "armv5te",
}
"""Feature -> the features it implies directly (space separated)."""
