"""Calling conventions: LLVM 19's numeric ids and the keyword opt-19 prints for each.

A convention without a keyword is written ``ccN``; ``cc 0`` (C) is not
printed at all. Two keywords carry a trailing space in LLVM 19's printer
(``avr_intrcc``, ``avr_signalcc``); the printer should use
:data:`PRINTED_NAMES`, which keeps that quirk, rather than :data:`NAMES`.
"""

from __future__ import annotations

C = 0
FAST = 8
COLD = 9
GHC = 10
TAIL = 18
SWIFT = 16
SWIFT_TAIL = 20

#: keyword -> id, for every keyword LLVM 19's parser accepts.
KEYWORDS: dict[str, int] = {
    "ccc": 0,
    "fastcc": 8,
    "coldcc": 9,
    "ghccc": 10,
    "anyregcc": 13,
    "preserve_mostcc": 14,
    "preserve_allcc": 15,
    "swiftcc": 16,
    "cxx_fast_tlscc": 17,
    "tailcc": 18,
    "cfguard_checkcc": 19,
    "swifttailcc": 20,
    "preserve_nonecc": 21,
    "x86_stdcallcc": 64,
    "x86_fastcallcc": 65,
    "arm_apcscc": 66,
    "arm_aapcscc": 67,
    "arm_aapcs_vfpcc": 68,
    "msp430_intrcc": 69,
    "x86_thiscallcc": 70,
    "ptx_kernel": 71,
    "ptx_device": 72,
    "spir_func": 75,
    "spir_kernel": 76,
    "intel_ocl_bicc": 77,
    "x86_64_sysvcc": 78,
    "win64cc": 79,
    "x86_vectorcallcc": 80,
    "hhvmcc": 81,
    "hhvm_ccc": 82,
    "x86_intrcc": 83,
    "avr_intrcc": 84,
    "avr_signalcc": 85,
    "amdgpu_vs": 87,
    "amdgpu_gs": 88,
    "amdgpu_ps": 89,
    "amdgpu_cs": 90,
    "amdgpu_kernel": 91,
    "x86_regcallcc": 92,
    "amdgpu_hs": 93,
    "amdgpu_ls": 95,
    "amdgpu_es": 96,
    "aarch64_vector_pcs": 97,
    "aarch64_sve_vector_pcs": 98,
    "amdgpu_gfx": 100,
    "aarch64_sme_preservemost_from_x0": 102,
    "aarch64_sme_preservemost_from_x2": 103,
    "amdgpu_cs_chain": 104,
    "amdgpu_cs_chain_preserve": 105,
    "m68k_rtdcc": 106,
    "graalcc": 107,
    "riscv_vector_cc": 110,
    "aarch64_sme_preservemost_from_x1": 111,
}

#: id -> keyword (without LLVM's printing quirks).
NAMES: dict[int, str] = {v: k for k, v in KEYWORDS.items() if k != "ccc"}

#: id -> exactly what opt-19 prints before the return type (checked against opt-19).
PRINTED_NAMES: dict[int, str] = dict(NAMES)
PRINTED_NAMES[84] = "avr_intrcc "
PRINTED_NAMES[85] = "avr_signalcc "


def name_of(cc: int) -> str:
    """The printed form of a calling convention ("" for C)."""
    if cc == 0:
        return ""
    return PRINTED_NAMES.get(cc, "cc%d" % cc)
