"""Measured x86 subtarget features for :mod:`llvmpy_mid.analysis.inline_cost_target_x86`.

What LLVM 19.1.7's ``X86.td`` defines, as opt-19 (``X86TTIImpl::areInlineCompatible``)
sees it: ``X86_IMPLIES`` maps a feature to the features it directly implies;
``X86_CPUS`` maps a processor to the features it enables (the fewest that imply all
the others, tuning flags included, ignored ones left out); ``X86_INLINE_IGNORED`` are
the features ``InlineFeatureIgnoreList`` leaves out of the comparison (with the tuning
flags that follow the processor name). Produced by probing opt-19 with pairs of functions
(``tests/ipo/test_inline_target_hooks_a.py`` checks samples against opt-19 when it is
installed).
"""

from __future__ import annotations

X86_INLINE_IGNORED = frozenset(
    """64bit allow-light-256-bit branchfusion cx16 false-deps-getmant false-deps-lzcnt-tzcnt false-deps-mulc
    false-deps-mullq false-deps-perm false-deps-popcnt false-deps-range fast-11bytenop fast-15bytenop fast-bextr
    fast-dpwssd fast-gather fast-hops fast-lzcnt fast-scalar-fsqrt fast-scalar-shift-masks fast-shld-rotate
    fast-variable-crosslane-shuffle fast-variable-perlane-shuffle fast-vector-fsqrt fast-vector-shift-masks
    faster-shift-than-shuffle idivl-to-divb idivq-to-divl lea-sp lea-uses-ag macrofusion no-bypass-delay
    no-bypass-delay-blend no-bypass-delay-mov no-bypass-delay-shuffle nopl pad-short-functions prefer-128-bit
    prefer-256-bit prefer-mask-registers sahf slow-3ops-lea slow-incdec slow-lea slow-pmaddwd slow-pmulld
    slow-shld slow-two-mem-ops slow-unaligned-mem-16 slow-unaligned-mem-32 sse-unaligned-mem
    tuning-fast-imm-vector-shift use-glm-div-sqrt-costs use-slm-arith-costs vzeroupper""".split()
)

X86_FEATURE_NAMES = frozenset(
    """64bit adx aes allow-light-256-bit amx-bf16 amx-complex amx-fp16 amx-int8 amx-tile avx avx10.1-256
    avx10.1-512 avx2 avx512bf16 avx512bitalg avx512bw avx512cd avx512dq avx512f avx512fp16 avx512ifma
    avx512vbmi avx512vbmi2 avx512vl avx512vnni avx512vp2intersect avx512vpopcntdq avxifma avxneconvert avxvnni
    avxvnniint16 avxvnniint8 bmi bmi2 branch-hint branchfusion ccmp cf cldemote clflushopt clwb clzero cmov
    cmpccxadd crc32 cx16 cx8 egpr enqcmd ermsb evex512 f16c false-deps-getmant false-deps-lzcnt-tzcnt
    false-deps-mulc false-deps-mullq false-deps-perm false-deps-popcnt false-deps-range fast-11bytenop
    fast-15bytenop fast-7bytenop fast-bextr fast-dpwssd fast-gather fast-hops fast-imm16 fast-lzcnt fast-movbe
    fast-scalar-fsqrt fast-scalar-shift-masks fast-shld-rotate fast-variable-crosslane-shuffle
    fast-variable-perlane-shuffle fast-vector-fsqrt fast-vector-shift-masks faster-shift-than-shuffle fma fma4
    fsgsbase fsrm fxsr gfni harden-sls-ijmp harden-sls-ret hreset idivl-to-divb idivq-to-divl
    inline-asm-use-gpr32 invpcid kl lea-sp lea-uses-ag lvi-cfi lvi-load-hardening lwp lzcnt macrofusion mmx
    movbe movdir64b movdiri mwaitx ndd nf no-bypass-delay no-bypass-delay-blend no-bypass-delay-mov
    no-bypass-delay-shuffle nopl pad-short-functions pclmul pconfig pku popcnt ppx prefer-128-bit
    prefer-256-bit prefer-mask-registers prefer-movmsk-over-vtest prefer-no-gather prefer-no-scatter prefetchi
    prfchw ptwrite push2pop2 raoint rdpid rdpru rdrnd rdseed retpoline retpoline-external-thunk
    retpoline-indirect-branches retpoline-indirect-calls rtm sahf sbb-dep-breaking serialize seses sgx sha
    sha512 shstk slow-3ops-lea slow-incdec slow-lea slow-pmaddwd slow-pmulld slow-shld slow-two-mem-ops
    slow-unaligned-mem-16 slow-unaligned-mem-32 sm3 sm4 soft-float sse sse-unaligned-mem sse2 sse3 sse4.1
    sse4.2 sse4a ssse3 tagged-globals tbm tsxldtrk tuning-fast-imm-vector-shift uintr use-glm-div-sqrt-costs
    use-slm-arith-costs usermsr vaes vpclmulqdq vzeroupper waitpkg wbnoinvd widekl x87 xop xsave xsavec
    xsaveopt xsaves zu""".split()
)
"""Every x86 subtarget feature (``-mattr=help``)."""

X86_IMPLIES: dict[str, str] = {
    "aes": "sse2",
    "amx-bf16": "amx-tile",
    "amx-complex": "amx-tile",
    "amx-fp16": "amx-tile",
    "amx-int8": "amx-tile",
    "avx": "sse4.2",
    "avx10.1-256": (
        "avx512bf16 avx512bitalg avx512cd avx512fp16 avx512ifma avx512vbmi avx512vbmi2 avx512vnni "
        "avx512vpopcntdq vaes vpclmulqdq"
    ),
    "avx10.1-512": "avx10.1-256 evex512",
    "avx2": "avx",
    "avx512bf16": "avx512bw",
    "avx512bitalg": "avx512bw",
    "avx512bw": "avx512f",
    "avx512cd": "avx512f",
    "avx512dq": "avx512f",
    "avx512f": "avx2 f16c fma",
    "avx512fp16": "avx512bw avx512dq avx512vl",
    "avx512ifma": "avx512f",
    "avx512vbmi": "avx512bw",
    "avx512vbmi2": "avx512bw",
    "avx512vl": "avx512f",
    "avx512vnni": "avx512f",
    "avx512vp2intersect": "avx512f",
    "avx512vpopcntdq": "avx512f",
    "avxifma": "avx2",
    "avxneconvert": "avx2",
    "avxvnni": "avx2",
    "avxvnniint16": "avx2",
    "avxvnniint8": "avx2",
    "cx16": "cx8",
    "f16c": "avx",
    "fma": "avx",
    "fma4": "avx sse4a",
    "gfni": "sse2",
    "kl": "sse2",
    "pclmul": "sse2",
    "retpoline": "retpoline-indirect-branches retpoline-indirect-calls",
    "retpoline-external-thunk": "retpoline-indirect-calls",
    "seses": "lvi-cfi",
    "sha": "sse2",
    "sha512": "avx2",
    "sm3": "avx",
    "sm4": "avx2",
    "sse2": "sse",
    "sse3": "sse2",
    "sse4.1": "ssse3",
    "sse4.2": "sse4.1",
    "sse4a": "sse3",
    "ssse3": "sse3",
    "vaes": "aes avx2",
    "vpclmulqdq": "avx pclmul",
    "widekl": "kl",
    "xop": "fma4",
    "xsavec": "xsave",
    "xsaveopt": "xsave",
    "xsaves": "xsave",
}
"""Feature -> the features it implies directly (space separated)."""

X86_CPUS: dict[str, str] = {
    "alderlake": (
        "adx avxvnni bmi bmi2 cldemote clflushopt clwb cmov crc32 cx8 f16c fma fsgsbase fxsr gfni hreset "
        "invpcid lzcnt mmx movbe movdir64b movdiri pconfig pku popcnt prefer-movmsk-over-vtest prfchw ptwrite "
        "rdpid rdrnd rdseed serialize sha shstk vaes vpclmulqdq waitpkg widekl x87 xsavec xsaveopt xsaves"
    ),
    "amdfam10": "cmov cx8 fxsr lzcnt popcnt prfchw sbb-dep-breaking sse4a x87",
    "arrowlake": (
        "adx avxifma avxneconvert avxvnni avxvnniint8 bmi bmi2 cldemote clflushopt clwb cmov cmpccxadd crc32 "
        "cx8 enqcmd f16c fma fsgsbase fxsr gfni hreset invpcid lzcnt mmx movbe movdir64b movdiri pconfig "
        "pku popcnt prefer-movmsk-over-vtest prfchw ptwrite rdpid rdrnd rdseed serialize sha shstk uintr vaes "
        "vpclmulqdq waitpkg widekl x87 xsavec xsaveopt xsaves"
    ),
    "arrowlake-s": (
        "adx avxifma avxneconvert avxvnni avxvnniint16 avxvnniint8 bmi bmi2 cldemote clflushopt clwb cmov "
        "cmpccxadd crc32 cx8 enqcmd f16c fma fsgsbase fxsr gfni hreset invpcid lzcnt mmx movbe movdir64b "
        "movdiri pconfig pku popcnt prefer-movmsk-over-vtest prfchw ptwrite rdpid rdrnd rdseed serialize sha "
        "sha512 shstk sm3 sm4 uintr vaes vpclmulqdq waitpkg widekl x87 xsavec xsaveopt xsaves"
    ),
    "arrowlake_s": (
        "adx avxifma avxneconvert avxvnni avxvnniint16 avxvnniint8 bmi bmi2 cldemote clflushopt clwb cmov "
        "cmpccxadd crc32 cx8 enqcmd f16c fma fsgsbase fxsr gfni hreset invpcid lzcnt mmx movbe movdir64b "
        "movdiri pconfig pku popcnt prefer-movmsk-over-vtest prfchw ptwrite rdpid rdrnd rdseed serialize sha "
        "sha512 shstk sm3 sm4 uintr vaes vpclmulqdq waitpkg widekl x87 xsavec xsaveopt xsaves"
    ),
    "athlon": "cmov cx8 mmx prfchw x87",
    "athlon-4": "cmov cx8 fxsr mmx prfchw sse x87",
    "athlon-fx": "cmov cx8 fxsr mmx prfchw sbb-dep-breaking sse2 x87",
    "athlon-mp": "cmov cx8 fxsr mmx prfchw sse x87",
    "athlon-tbird": "cmov cx8 mmx prfchw x87",
    "athlon-xp": "cmov cx8 fxsr mmx prfchw sse x87",
    "athlon64": "cmov cx8 fxsr mmx prfchw sbb-dep-breaking sse2 x87",
    "athlon64-sse3": "cmov cx8 fxsr mmx prfchw sbb-dep-breaking sse3 x87",
    "atom": "cmov cx8 fast-imm16 fxsr mmx movbe ssse3 x87",
    "atom_sse4_2": (
        "cmov crc32 cx8 fast-7bytenop fast-imm16 fast-movbe fxsr mmx movbe pclmul popcnt prfchw rdrnd "
        "sse4.2 x87"
    ),
    "atom_sse4_2_movbe": (
        "aes clflushopt cmov crc32 cx8 fast-7bytenop fast-imm16 fast-movbe fsgsbase fxsr mmx movbe pclmul "
        "popcnt prfchw rdrnd rdseed sha sse4.2 x87 xsavec xsaveopt xsaves"
    ),
    "barcelona": "cmov cx8 fxsr lzcnt popcnt prfchw sbb-dep-breaking sse4a x87",
    "bdver1": "aes cmov crc32 cx8 fxsr lwp lzcnt mmx pclmul popcnt prfchw sbb-dep-breaking x87 xop xsave",
    "bdver2": (
        "aes bmi cmov crc32 cx8 f16c fast-movbe fma fxsr lwp lzcnt mmx pclmul popcnt prfchw "
        "sbb-dep-breaking tbm x87 xop xsave"
    ),
    "bdver3": (
        "aes bmi cmov crc32 cx8 f16c fast-movbe fma fsgsbase fxsr lwp lzcnt mmx pclmul popcnt prfchw "
        "sbb-dep-breaking tbm x87 xop xsaveopt"
    ),
    "bdver4": (
        "aes avx2 bmi bmi2 cmov crc32 cx8 f16c fast-movbe fma fsgsbase fxsr lwp lzcnt mmx movbe mwaitx "
        "pclmul popcnt prfchw rdrnd sbb-dep-breaking tbm x87 xop xsaveopt"
    ),
    "bonnell": "cmov cx8 fast-imm16 fxsr mmx movbe ssse3 x87",
    "broadwell": (
        "adx avx2 bmi bmi2 cmov crc32 cx8 ermsb f16c fma fsgsbase fxsr invpcid lzcnt mmx movbe pclmul "
        "popcnt prfchw rdrnd rdseed x87 xsaveopt"
    ),
    "btver1": "cmov cx8 fast-imm16 fxsr lzcnt mmx popcnt prfchw sbb-dep-breaking sse4a ssse3 x87",
    "btver2": (
        "aes bmi cmov crc32 cx8 f16c fast-imm16 fast-movbe fxsr lzcnt mmx movbe pclmul popcnt prfchw "
        "sbb-dep-breaking sse4a x87 xsaveopt"
    ),
    "c3": "mmx prfchw x87",
    "c3-2": "cmov cx8 fxsr mmx sse x87",
    "cannonlake": (
        "adx aes avx512cd avx512dq avx512ifma avx512vbmi avx512vl bmi bmi2 clflushopt cmov crc32 cx8 ermsb "
        "evex512 fsgsbase fxsr invpcid lzcnt mmx movbe pclmul pku popcnt prfchw rdrnd rdseed sha x87 xsavec "
        "xsaveopt xsaves"
    ),
    "cascadelake": (
        "adx aes avx512bw avx512cd avx512dq avx512vl avx512vnni bmi bmi2 clflushopt clwb cmov crc32 cx8 "
        "ermsb evex512 fsgsbase fxsr invpcid lzcnt mmx movbe pclmul pku popcnt prfchw rdrnd rdseed x87 xsavec "
        "xsaveopt xsaves"
    ),
    "clearwaterforest": (
        "adx avxifma avxneconvert avxvnni avxvnniint16 avxvnniint8 bmi bmi2 cldemote clflushopt clwb cmov "
        "cmpccxadd crc32 cx8 enqcmd f16c fma fsgsbase fxsr gfni hreset invpcid lzcnt mmx movbe movdir64b "
        "movdiri pconfig pku popcnt prefer-movmsk-over-vtest prefetchi prfchw ptwrite rdpid rdrnd rdseed "
        "serialize sha sha512 shstk sm3 sm4 uintr usermsr vaes vpclmulqdq waitpkg widekl x87 xsavec xsaveopt "
        "xsaves"
    ),
    "cooperlake": (
        "adx aes avx512bf16 avx512cd avx512dq avx512vl avx512vnni bmi bmi2 clflushopt clwb cmov crc32 cx8 "
        "ermsb evex512 fsgsbase fxsr invpcid lzcnt mmx movbe pclmul pku popcnt prfchw rdrnd rdseed x87 xsavec "
        "xsaveopt xsaves"
    ),
    "core-avx-i": "cmov crc32 cx8 f16c fsgsbase fxsr mmx pclmul popcnt rdrnd x87 xsaveopt",
    "core-avx2": (
        "avx2 bmi bmi2 cmov crc32 cx8 ermsb f16c fma fsgsbase fxsr invpcid lzcnt mmx movbe pclmul popcnt "
        "rdrnd x87 xsaveopt"
    ),
    "core2": "cmov cx8 fxsr mmx ssse3 x87",
    "core_2_duo_sse4_1": "cmov cx8 fxsr mmx sse4.1 x87",
    "core_2_duo_ssse3": "cmov cx8 fxsr mmx ssse3 x87",
    "core_2nd_gen_avx": "avx cmov crc32 cx8 fxsr mmx pclmul popcnt x87 xsaveopt",
    "core_3rd_gen_avx": "cmov crc32 cx8 f16c fsgsbase fxsr mmx pclmul popcnt rdrnd x87 xsaveopt",
    "core_4th_gen_avx": (
        "avx2 bmi bmi2 cmov crc32 cx8 ermsb f16c fma fsgsbase fxsr invpcid lzcnt mmx movbe pclmul popcnt "
        "rdrnd x87 xsaveopt"
    ),
    "core_4th_gen_avx_tsx": (
        "avx2 bmi bmi2 cmov crc32 cx8 ermsb f16c fma fsgsbase fxsr invpcid lzcnt mmx movbe pclmul popcnt "
        "rdrnd x87 xsaveopt"
    ),
    "core_5th_gen_avx": (
        "adx avx2 bmi bmi2 cmov crc32 cx8 ermsb f16c fma fsgsbase fxsr invpcid lzcnt mmx movbe pclmul "
        "popcnt prfchw rdrnd rdseed x87 xsaveopt"
    ),
    "core_5th_gen_avx_tsx": (
        "adx avx2 bmi bmi2 cmov crc32 cx8 ermsb f16c fma fsgsbase fxsr invpcid lzcnt mmx movbe pclmul "
        "popcnt prfchw rdrnd rdseed x87 xsaveopt"
    ),
    "core_aes_pclmulqdq": "cmov crc32 cx8 fxsr mmx pclmul popcnt sse4.2 x87",
    "core_i7_sse4_2": "cmov crc32 cx8 fxsr mmx popcnt sse4.2 x87",
    "corei7": "cmov crc32 cx8 fxsr mmx popcnt sse4.2 x87",
    "corei7-avx": "avx cmov crc32 cx8 fxsr mmx pclmul popcnt x87 xsaveopt",
    "emeraldrapids": (
        "adx amx-bf16 amx-int8 avx512bf16 avx512bitalg avx512cd avx512fp16 avx512ifma avx512vbmi avx512vbmi2 "
        "avx512vnni avx512vpopcntdq avxvnni bmi bmi2 cldemote clflushopt clwb cmov crc32 cx8 enqcmd ermsb "
        "evex512 fsgsbase fsrm fxsr gfni invpcid lzcnt mmx movbe movdir64b movdiri pconfig pku popcnt prfchw "
        "ptwrite rdpid rdrnd rdseed serialize sha shstk tsxldtrk uintr vaes vpclmulqdq waitpkg wbnoinvd x87 "
        "xsavec xsaveopt xsaves"
    ),
    "generic": "cx8 x87",
    "geode": "cx8 mmx prfchw x87",
    "goldmont": (
        "aes clflushopt cmov crc32 cx8 fast-imm16 fast-movbe fsgsbase fxsr mmx movbe pclmul popcnt prfchw "
        "rdrnd rdseed sha sse4.2 x87 xsavec xsaveopt xsaves"
    ),
    "goldmont-plus": (
        "aes clflushopt cmov crc32 cx8 fast-imm16 fast-movbe fsgsbase fxsr mmx movbe pclmul popcnt prfchw "
        "ptwrite rdpid rdrnd rdseed sha sse4.2 x87 xsavec xsaveopt xsaves"
    ),
    "goldmont_plus": (
        "aes clflushopt cmov crc32 cx8 fast-imm16 fast-movbe fsgsbase fxsr mmx movbe pclmul popcnt prfchw "
        "ptwrite rdpid rdrnd rdseed sha sse4.2 x87 xsavec xsaveopt xsaves"
    ),
    "gracemont": (
        "adx avxvnni bmi bmi2 cldemote clflushopt clwb cmov crc32 cx8 f16c fma fsgsbase fxsr gfni hreset "
        "invpcid lzcnt mmx movbe movdir64b movdiri pconfig pku popcnt prfchw ptwrite rdpid rdrnd rdseed "
        "serialize sha shstk vaes vpclmulqdq waitpkg widekl x87 xsavec xsaveopt xsaves"
    ),
    "grandridge": (
        "adx avxifma avxneconvert avxvnni avxvnniint8 bmi bmi2 cldemote clflushopt clwb cmov cmpccxadd crc32 "
        "cx8 enqcmd f16c fma fsgsbase fxsr gfni hreset invpcid lzcnt mmx movbe movdir64b movdiri pconfig "
        "pku popcnt prfchw ptwrite rdpid rdrnd rdseed serialize sha shstk uintr vaes vpclmulqdq waitpkg widekl "
        "x87 xsavec xsaveopt xsaves"
    ),
    "graniterapids": (
        "adx amx-bf16 amx-fp16 amx-int8 avx512bf16 avx512bitalg avx512cd avx512fp16 avx512ifma avx512vbmi "
        "avx512vbmi2 avx512vnni avx512vpopcntdq avxvnni bmi bmi2 branch-hint cldemote clflushopt clwb cmov "
        "crc32 cx8 enqcmd ermsb evex512 fsgsbase fsrm fxsr gfni invpcid lzcnt mmx movbe movdir64b movdiri "
        "pconfig pku popcnt prefetchi prfchw ptwrite rdpid rdrnd rdseed serialize sha shstk tsxldtrk uintr vaes "
        "vpclmulqdq waitpkg wbnoinvd x87 xsavec xsaveopt xsaves"
    ),
    "graniterapids-d": (
        "adx amx-bf16 amx-complex amx-fp16 amx-int8 avx512bf16 avx512bitalg avx512cd avx512fp16 avx512ifma "
        "avx512vbmi avx512vbmi2 avx512vnni avx512vpopcntdq avxvnni bmi bmi2 branch-hint cldemote clflushopt "
        "clwb cmov crc32 cx8 enqcmd ermsb evex512 fsgsbase fsrm fxsr gfni invpcid lzcnt mmx movbe "
        "movdir64b movdiri pconfig pku popcnt prefetchi prfchw ptwrite rdpid rdrnd rdseed serialize sha shstk "
        "tsxldtrk uintr vaes vpclmulqdq waitpkg wbnoinvd x87 xsavec xsaveopt xsaves"
    ),
    "graniterapids_d": (
        "adx amx-bf16 amx-complex amx-fp16 amx-int8 avx512bf16 avx512bitalg avx512cd avx512fp16 avx512ifma "
        "avx512vbmi avx512vbmi2 avx512vnni avx512vpopcntdq avxvnni bmi bmi2 branch-hint cldemote clflushopt "
        "clwb cmov crc32 cx8 enqcmd ermsb evex512 fsgsbase fsrm fxsr gfni invpcid lzcnt mmx movbe "
        "movdir64b movdiri pconfig pku popcnt prefetchi prfchw ptwrite rdpid rdrnd rdseed serialize sha shstk "
        "tsxldtrk uintr vaes vpclmulqdq waitpkg wbnoinvd x87 xsavec xsaveopt xsaves"
    ),
    "haswell": (
        "avx2 bmi bmi2 cmov crc32 cx8 ermsb f16c fma fsgsbase fxsr invpcid lzcnt mmx movbe pclmul popcnt "
        "rdrnd x87 xsaveopt"
    ),
    "i386": "x87",
    "i486": "x87",
    "i586": "cx8 x87",
    "i686": "cmov cx8 x87",
    "icelake-client": (
        "adx avx512bitalg avx512cd avx512dq avx512ifma avx512vbmi avx512vbmi2 avx512vl avx512vnni "
        "avx512vpopcntdq bmi bmi2 clflushopt cmov crc32 cx8 ermsb evex512 fsgsbase fsrm fxsr gfni invpcid "
        "lzcnt mmx movbe pku popcnt prfchw rdpid rdrnd rdseed sha vaes vpclmulqdq x87 xsavec xsaveopt xsaves"
    ),
    "icelake-server": (
        "adx avx512bitalg avx512cd avx512dq avx512ifma avx512vbmi avx512vbmi2 avx512vl avx512vnni "
        "avx512vpopcntdq bmi bmi2 clflushopt clwb cmov crc32 cx8 ermsb evex512 fsgsbase fsrm fxsr gfni "
        "invpcid lzcnt mmx movbe pconfig pku popcnt prfchw rdpid rdrnd rdseed sha vaes vpclmulqdq wbnoinvd x87 "
        "xsavec xsaveopt xsaves"
    ),
    "icelake_client": (
        "adx avx512bitalg avx512cd avx512dq avx512ifma avx512vbmi avx512vbmi2 avx512vl avx512vnni "
        "avx512vpopcntdq bmi bmi2 clflushopt cmov crc32 cx8 ermsb evex512 fsgsbase fsrm fxsr gfni invpcid "
        "lzcnt mmx movbe pku popcnt prfchw rdpid rdrnd rdseed sha vaes vpclmulqdq x87 xsavec xsaveopt xsaves"
    ),
    "icelake_server": (
        "adx avx512bitalg avx512cd avx512dq avx512ifma avx512vbmi avx512vbmi2 avx512vl avx512vnni "
        "avx512vpopcntdq bmi bmi2 clflushopt clwb cmov crc32 cx8 ermsb evex512 fsgsbase fsrm fxsr gfni "
        "invpcid lzcnt mmx movbe pconfig pku popcnt prfchw rdpid rdrnd rdseed sha vaes vpclmulqdq wbnoinvd x87 "
        "xsavec xsaveopt xsaves"
    ),
    "ivybridge": "cmov crc32 cx8 f16c fsgsbase fxsr mmx pclmul popcnt rdrnd x87 xsaveopt",
    "k6": "cx8 mmx x87",
    "k6-2": "cx8 mmx prfchw x87",
    "k6-3": "cx8 mmx prfchw x87",
    "k8": "cmov cx8 fxsr mmx prfchw sbb-dep-breaking sse2 x87",
    "k8-sse3": "cmov cx8 fxsr mmx prfchw sbb-dep-breaking sse3 x87",
    "knl": (
        "adx aes avx512cd bmi bmi2 cmov crc32 cx8 evex512 fast-imm16 fast-movbe fsgsbase fxsr lzcnt mmx "
        "movbe pclmul popcnt prfchw rdrnd rdseed x87 xsaveopt"
    ),
    "knm": (
        "adx aes avx512cd avx512vpopcntdq bmi bmi2 cmov crc32 cx8 evex512 fast-imm16 fast-movbe fsgsbase "
        "fxsr lzcnt mmx movbe pclmul popcnt prfchw rdrnd rdseed x87 xsaveopt"
    ),
    "lakemont": "cx8",
    "lunarlake": (
        "adx avxifma avxneconvert avxvnni avxvnniint16 avxvnniint8 bmi bmi2 cldemote clflushopt clwb cmov "
        "cmpccxadd crc32 cx8 enqcmd f16c fma fsgsbase fxsr gfni hreset invpcid lzcnt mmx movbe movdir64b "
        "movdiri pconfig pku popcnt prefer-movmsk-over-vtest prfchw ptwrite rdpid rdrnd rdseed serialize sha "
        "sha512 shstk sm3 sm4 uintr vaes vpclmulqdq waitpkg widekl x87 xsavec xsaveopt xsaves"
    ),
    "meteorlake": (
        "adx avxvnni bmi bmi2 cldemote clflushopt clwb cmov crc32 cx8 f16c fma fsgsbase fxsr gfni hreset "
        "invpcid lzcnt mmx movbe movdir64b movdiri pconfig pku popcnt prefer-movmsk-over-vtest prfchw ptwrite "
        "rdpid rdrnd rdseed serialize sha shstk vaes vpclmulqdq waitpkg widekl x87 xsavec xsaveopt xsaves"
    ),
    "mic_avx512": (
        "adx aes avx512cd bmi bmi2 cmov crc32 cx8 evex512 fast-imm16 fast-movbe fsgsbase fxsr lzcnt mmx "
        "movbe pclmul popcnt prfchw rdrnd rdseed x87 xsaveopt"
    ),
    "nehalem": "cmov crc32 cx8 fxsr mmx popcnt sse4.2 x87",
    "nocona": "cmov cx8 fxsr mmx sse3 x87",
    "opteron": "cmov cx8 fxsr mmx prfchw sbb-dep-breaking sse2 x87",
    "opteron-sse3": "cmov cx8 fxsr mmx prfchw sbb-dep-breaking sse3 x87",
    "pantherlake": (
        "adx avxifma avxneconvert avxvnni avxvnniint16 avxvnniint8 bmi bmi2 cldemote clflushopt clwb cmov "
        "cmpccxadd crc32 cx8 enqcmd f16c fma fsgsbase fxsr gfni hreset invpcid lzcnt mmx movbe movdir64b "
        "movdiri pconfig pku popcnt prefer-movmsk-over-vtest prefetchi prfchw ptwrite rdpid rdrnd rdseed "
        "serialize sha sha512 shstk sm3 sm4 uintr vaes vpclmulqdq waitpkg widekl x87 xsavec xsaveopt xsaves"
    ),
    "penryn": "cmov cx8 fxsr mmx sse4.1 x87",
    "pentium": "cx8 x87",
    "pentium-m": "cmov cx8 fxsr mmx sse2 x87",
    "pentium-mmx": "cx8 mmx x87",
    "pentium2": "cmov cx8 fxsr mmx x87",
    "pentium3": "cmov cx8 fxsr mmx sse x87",
    "pentium3m": "cmov cx8 fxsr mmx sse x87",
    "pentium4": "cmov cx8 fxsr mmx sse2 x87",
    "pentium4m": "cmov cx8 fxsr mmx sse2 x87",
    "pentium_4": "cmov cx8 fxsr mmx sse2 x87",
    "pentium_4_sse3": "cmov cx8 fxsr mmx sse3 x87",
    "pentium_ii": "cmov cx8 fxsr mmx x87",
    "pentium_iii": "cmov cx8 fxsr mmx sse x87",
    "pentium_iii_no_xmm_regs": "cmov cx8 fxsr mmx sse x87",
    "pentium_m": "cmov cx8 fxsr mmx sse2 x87",
    "pentium_mmx": "cx8 mmx x87",
    "pentium_pro": "cmov cx8 x87",
    "pentiumpro": "cmov cx8 x87",
    "prescott": "cmov cx8 fxsr mmx sse3 x87",
    "raptorlake": (
        "adx avxvnni bmi bmi2 cldemote clflushopt clwb cmov crc32 cx8 f16c fma fsgsbase fxsr gfni hreset "
        "invpcid lzcnt mmx movbe movdir64b movdiri pconfig pku popcnt prefer-movmsk-over-vtest prfchw ptwrite "
        "rdpid rdrnd rdseed serialize sha shstk vaes vpclmulqdq waitpkg widekl x87 xsavec xsaveopt xsaves"
    ),
    "rocketlake": (
        "adx avx512bitalg avx512cd avx512dq avx512ifma avx512vbmi avx512vbmi2 avx512vl avx512vnni "
        "avx512vpopcntdq bmi bmi2 clflushopt cmov crc32 cx8 ermsb evex512 fsgsbase fsrm fxsr gfni invpcid "
        "lzcnt mmx movbe pku popcnt prfchw rdpid rdrnd rdseed sha vaes vpclmulqdq x87 xsavec xsaveopt xsaves"
    ),
    "sandybridge": "avx cmov crc32 cx8 fxsr mmx pclmul popcnt x87 xsaveopt",
    "sapphirerapids": (
        "adx amx-bf16 amx-int8 avx512bf16 avx512bitalg avx512cd avx512fp16 avx512ifma avx512vbmi avx512vbmi2 "
        "avx512vnni avx512vpopcntdq avxvnni bmi bmi2 cldemote clflushopt clwb cmov crc32 cx8 enqcmd ermsb "
        "evex512 fsgsbase fsrm fxsr gfni invpcid lzcnt mmx movbe movdir64b movdiri pconfig pku popcnt prfchw "
        "ptwrite rdpid rdrnd rdseed serialize sha shstk tsxldtrk uintr vaes vpclmulqdq waitpkg wbnoinvd x87 "
        "xsavec xsaveopt xsaves"
    ),
    "sierraforest": (
        "adx avxifma avxneconvert avxvnni avxvnniint8 bmi bmi2 cldemote clflushopt clwb cmov cmpccxadd crc32 "
        "cx8 enqcmd f16c fma fsgsbase fxsr gfni hreset invpcid lzcnt mmx movbe movdir64b movdiri pconfig "
        "pku popcnt prfchw ptwrite rdpid rdrnd rdseed serialize sha shstk uintr vaes vpclmulqdq waitpkg widekl "
        "x87 xsavec xsaveopt xsaves"
    ),
    "silvermont": (
        "cmov crc32 cx8 fast-7bytenop fast-imm16 fast-movbe fxsr mmx movbe pclmul popcnt prfchw rdrnd "
        "sse4.2 x87"
    ),
    "skx": (
        "adx aes avx512bw avx512cd avx512dq avx512vl bmi bmi2 clflushopt clwb cmov crc32 cx8 ermsb evex512 "
        "fsgsbase fxsr invpcid lzcnt mmx movbe pclmul pku popcnt prfchw rdrnd rdseed x87 xsavec xsaveopt xsaves"
    ),
    "skylake": (
        "adx aes avx2 bmi bmi2 clflushopt cmov crc32 cx8 ermsb f16c fma fsgsbase fxsr invpcid lzcnt mmx "
        "movbe pclmul popcnt prfchw rdrnd rdseed x87 xsavec xsaveopt xsaves"
    ),
    "skylake-avx512": (
        "adx aes avx512bw avx512cd avx512dq avx512vl bmi bmi2 clflushopt clwb cmov crc32 cx8 ermsb evex512 "
        "fsgsbase fxsr invpcid lzcnt mmx movbe pclmul pku popcnt prfchw rdrnd rdseed x87 xsavec xsaveopt xsaves"
    ),
    "skylake_avx512": (
        "adx aes avx512bw avx512cd avx512dq avx512vl bmi bmi2 clflushopt clwb cmov crc32 cx8 ermsb evex512 "
        "fsgsbase fxsr invpcid lzcnt mmx movbe pclmul pku popcnt prfchw rdrnd rdseed x87 xsavec xsaveopt xsaves"
    ),
    "slm": (
        "cmov crc32 cx8 fast-7bytenop fast-imm16 fast-movbe fxsr mmx movbe pclmul popcnt prfchw rdrnd "
        "sse4.2 x87"
    ),
    "tigerlake": (
        "adx avx512bitalg avx512cd avx512dq avx512ifma avx512vbmi avx512vbmi2 avx512vl avx512vnni "
        "avx512vp2intersect avx512vpopcntdq bmi bmi2 clflushopt clwb cmov crc32 cx8 ermsb evex512 fsgsbase "
        "fsrm fxsr gfni invpcid lzcnt mmx movbe movdir64b movdiri pku popcnt prfchw rdpid rdrnd rdseed sha "
        "shstk vaes vpclmulqdq x87 xsavec xsaveopt xsaves"
    ),
    "tremont": (
        "aes clflushopt clwb cmov crc32 cx8 fast-imm16 fast-movbe fsgsbase fxsr gfni mmx movbe pclmul "
        "popcnt prfchw ptwrite rdpid rdrnd rdseed sha sse4.2 x87 xsavec xsaveopt xsaves"
    ),
    "westmere": "cmov crc32 cx8 fxsr mmx pclmul popcnt sse4.2 x87",
    "winchip-c6": "mmx x87",
    "winchip2": "mmx prfchw x87",
    "x86-64": "cmov cx8 fxsr mmx sse2 x87",
    "x86-64-v2": "cmov crc32 cx8 fxsr mmx popcnt sse4.2 x87",
    "x86-64-v3": "avx2 bmi bmi2 cmov crc32 cx8 f16c fma fxsr lzcnt mmx movbe popcnt x87 xsave",
    "x86-64-v4": (
        "avx512bw avx512cd avx512dq avx512vl bmi bmi2 cmov crc32 cx8 evex512 fxsr lzcnt mmx movbe popcnt "
        "x87 xsave"
    ),
    "yonah": "cmov cx8 fxsr mmx sse3 x87",
    "znver1": (
        "adx aes avx2 bmi bmi2 clflushopt clzero cmov crc32 cx8 f16c fast-imm16 fast-movbe fma fsgsbase "
        "fxsr lzcnt mmx movbe mwaitx pclmul popcnt prfchw rdrnd rdseed sbb-dep-breaking sha sse4a x87 xsavec "
        "xsaveopt xsaves"
    ),
    "znver2": (
        "adx aes avx2 bmi bmi2 clflushopt clwb clzero cmov crc32 cx8 f16c fast-imm16 fast-movbe fma "
        "fsgsbase fxsr lzcnt mmx movbe mwaitx pclmul popcnt prfchw rdpid rdpru rdrnd rdseed sbb-dep-breaking "
        "sha sse4a wbnoinvd x87 xsavec xsaveopt xsaves"
    ),
    "znver3": (
        "adx bmi bmi2 clflushopt clwb clzero cmov crc32 cx8 f16c fast-imm16 fast-movbe fma fsgsbase fsrm "
        "fxsr invpcid lzcnt mmx movbe mwaitx pku popcnt prfchw rdpid rdpru rdrnd rdseed sbb-dep-breaking sha "
        "sse4a vaes vpclmulqdq wbnoinvd x87 xsavec xsaveopt xsaves"
    ),
    "znver4": (
        "adx avx512bf16 avx512bitalg avx512cd avx512dq avx512ifma avx512vbmi avx512vbmi2 avx512vl avx512vnni "
        "avx512vpopcntdq bmi bmi2 clflushopt clwb clzero cmov crc32 cx8 evex512 fast-imm16 fast-movbe "
        "fsgsbase fsrm fxsr gfni invpcid lzcnt mmx movbe mwaitx pku popcnt prfchw rdpid rdpru rdrnd rdseed "
        "sbb-dep-breaking sha shstk sse4a vaes vpclmulqdq wbnoinvd x87 xsavec xsaveopt xsaves"
    ),
    "znver5": (
        "adx avx512bf16 avx512bitalg avx512cd avx512dq avx512ifma avx512vbmi avx512vbmi2 avx512vl avx512vnni "
        "avx512vp2intersect avx512vpopcntdq avxvnni bmi bmi2 clflushopt clwb clzero cmov crc32 cx8 evex512 "
        "fast-imm16 fast-movbe fsgsbase fsrm fxsr gfni invpcid lzcnt mmx movbe movdir64b movdiri mwaitx pku "
        "popcnt prefetchi prfchw rdpid rdpru rdrnd rdseed sbb-dep-breaking sha shstk sse4a vaes vpclmulqdq "
        "wbnoinvd x87 xsavec xsaveopt xsaves"
    ),
}
"""Processor -> the features it enables (space separated; each with what it implies)."""
