"""Measured RISC-V subtarget features for :mod:`llvmpy_mid.analysis.inline_cost_target_riscv`.

What LLVM 19.1.7's ``RISCVFeatures.td`` and ``RISCVProcessors.td`` define, as opt-19's
``RISCVTTIImpl::areInlineCompatible`` sees it: ``RISCV_FEATURE_NAMES`` are every feature
(``-mattr=help``; another name is ignored, as LLVM does); ``RISCV_IMPLIES`` maps a
feature to those it directly implies; ``RISCV_CPUS`` maps a 64-bit processor to the
features it enables (the fewest that imply the others, tuning flags included). Produced
by probing opt-19 with pairs of functions; the vector crypto and ``zvl*b`` extensions,
which opt-19 refuses alone, follow ``RISCVFeatures.td``
(``tests/ipo/test_inline_target_hooks_a.py`` checks samples against opt-19).
"""

from __future__ import annotations

RISCV_FEATURE_NAMES = frozenset(
    """32bit 64bit a auipc-addi-fusion b c conditional-cmv-fusion d dlen-factor-2 e experimental
    experimental-rva23s64 experimental-rva23u64 experimental-rvb23s64 experimental-rvb23u64
    experimental-rvm23u32 experimental-smmpm experimental-smnpm experimental-ssnpm experimental-sspm
    experimental-ssqosid experimental-supm experimental-zacas experimental-zalasr experimental-zicfilp
    experimental-zicfiss f forced-atomics forced-sw-shadow-stack h i ld-add-fusion lui-addi-fusion m
    no-default-unroll no-rvc-hints no-sink-splat-operands no-trailing-seq-cst-fence optimized-zero-stride-load
    predictable-select-expensive prefer-w-inst relax reserve-x1 reserve-x10 reserve-x11 reserve-x12 reserve-x13
    reserve-x14 reserve-x15 reserve-x16 reserve-x17 reserve-x18 reserve-x19 reserve-x2 reserve-x20 reserve-x21
    reserve-x22 reserve-x23 reserve-x24 reserve-x25 reserve-x26 reserve-x27 reserve-x28 reserve-x29 reserve-x3
    reserve-x30 reserve-x31 reserve-x4 reserve-x5 reserve-x6 reserve-x7 reserve-x8 reserve-x9 rva20s64 rva20u64
    rva22s64 rva22u64 rvi20u32 rvi20u64 save-restore shcounterenw shgatpa shifted-zextw-fusion
    short-forward-branch-opt shtvala shvsatpa shvstvala shvstvecd sifive7 smaia smcdeleg smcsrind smepmp
    smstateen ssaia ssccfg ssccptr sscofpmf sscounterenw sscsrind ssstateen ssstrict sstc sstvala sstvecd
    ssu64xl svade svadu svbare svinval svnapot svpbmt tagged-globals unaligned-scalar-mem unaligned-vector-mem
    use-postra-scheduler v ventana-veyron xcvalu xcvbi xcvbitmanip xcvelw xcvmac xcvmem xcvsimd xsfcease xsfvcp
    xsfvfnrclipxfqf xsfvfwmaccqqq xsfvqmaccdod xsfvqmaccqoq xsifivecdiscarddlone xsifivecflushdlone xtheadba
    xtheadbb xtheadbs xtheadcmo xtheadcondmov xtheadfmemidx xtheadmac xtheadmemidx xtheadmempair xtheadsync
    xtheadvdot xventanacondops xwchc za128rs za64rs zaamo zabha zalrsc zama16b zawrs zba zbb zbc zbkb zbkc zbkx
    zbs zca zcb zcd zce zcf zcmop zcmp zcmt zdinx zexth-fusion zextw-fusion zfa zfbfmin zfh zfhmin zfinx zhinx
    zhinxmin zic64b zicbom zicbop zicboz ziccamoa ziccif zicclsm ziccrse zicntr zicond zicsr zifencei zihintntl
    zihintpause zihpm zimop zk zkn zknd zkne zknh zkr zks zksed zksh zkt zmmul ztso zvbb zvbc zve32f zve32x
    zve64d zve64f zve64x zvfbfmin zvfbfwma zvfh zvfhmin zvkb zvkg zvkn zvknc zvkned zvkng zvknha zvknhb zvks
    zvksc zvksed zvksg zvksh zvkt zvl1024b zvl128b zvl16384b zvl2048b zvl256b zvl32768b zvl32b zvl4096b zvl512b
    zvl64b zvl65536b zvl8192b""".split()
)

RISCV_IMPLIES: dict[str, str] = {
    "b": "zba zbb zbs",
    "d": "f",
    "experimental-rva23s64": (
        "a c experimental-ssnpm h m shcounterenw shgatpa shtvala shvsatpa shvstvala shvstvecd ssccptr "
        "sscofpmf sscounterenw ssstateen sstc sstvala sstvecd ssu64xl svade svbare svinval svnapot svpbmt v "
        "za64rs zawrs zba zbb zbs zcb zcmop zfa zfhmin zic64b zicbom zicbop zicboz ziccamoa ziccif zicclsm "
        "ziccrse zicntr zicond zifencei zihintntl zihintpause zihpm zimop zkt zvfhmin zvkt"
    ),
    "experimental-rva23u64": (
        "a c m v za64rs zawrs zba zbb zbs zcb zcmop zfa zfhmin zic64b zicbom zicbop zicboz ziccamoa ziccif "
        "zicclsm ziccrse zicntr zicond zihintntl zihintpause zihpm zimop zkt zvfhmin zvkt"
    ),
    "experimental-rvb23s64": (
        "a c d m ssccptr sscofpmf sscounterenw sstc sstvala sstvecd ssu64xl svade svbare svinval svnapot "
        "svpbmt za64rs zawrs zba zbb zbs zcb zcmop zfa zic64b zicbom zicbop zicboz ziccamoa ziccif zicclsm "
        "ziccrse zicntr zicond zifencei zihintntl zihintpause zihpm zimop zkt"
    ),
    "experimental-rvb23u64": (
        "a c d m za64rs zawrs zba zbb zbs zcb zcmop zfa zic64b zicbom zicbop zicboz ziccamoa ziccif zicclsm "
        "ziccrse zicntr zicond zihintntl zihintpause zihpm zimop zkt"
    ),
    "experimental-zicfilp": "zicsr",
    "experimental-zicfiss": "zicsr zimop",
    "f": "zicsr",
    "m": "zmmul",
    "rva20s64": (
        "a c d m ssccptr sstvala sstvecd svade svbare za128rs ziccamoa ziccif zicclsm ziccrse zicntr zifencei"
    ),
    "rva20u64": "a c d m za128rs ziccamoa ziccif zicclsm ziccrse zicntr",
    "rva22s64": (
        "a c d m ssccptr sscounterenw sstvala sstvecd svade svbare svinval svpbmt za64rs zba zbb zbs zfhmin "
        "zic64b zicbom zicbop zicboz ziccamoa ziccif zicclsm ziccrse zicntr zifencei zihintpause zihpm zkt"
    ),
    "rva22u64": (
        "a c d m za64rs zba zbb zbs zfhmin zic64b zicbom zicbop zicboz ziccamoa ziccif zicclsm ziccrse zicntr "
        "zihintpause zihpm zkt"
    ),
    "sifive7": "no-default-unroll short-forward-branch-opt",
    "v": "zve64d zvl128b",
    "xsfvcp": "zve32x",
    "xsfvfnrclipxfqf": "zve32f",
    "xsfvfwmaccqqq": "zvfbfmin",
    "xsfvqmaccdod": "zve32x",
    "xsfvqmaccqoq": "zve32x",
    "xtheadvdot": "v",
    "zcb": "zca",
    "zcd": "d zca",
    "zce": "zcb zcmp zcmt",
    "zcmop": "zca",
    "zcmp": "zca",
    "zcmt": "zca zicsr",
    "zdinx": "zfinx",
    "zfa": "f",
    "zfbfmin": "f",
    "zfh": "zfhmin",
    "zfhmin": "f",
    "zfinx": "zicsr",
    "zhinx": "zhinxmin",
    "zhinxmin": "zfinx",
    "zicntr": "zicsr",
    "zihpm": "zicsr",
    "zk": "zkn zkr zkt",
    "zkn": "zbkb zbkc zbkx zknd zkne zknh",
    "zks": "zbkb zbkc zbkx zksed zksh",
    "zve32f": "f zve32x",
    "zve32x": "zicsr zvl32b",
    "zve64d": "d zve64f",
    "zve64f": "zve32f zve64x",
    "zve64x": "zve32x zvl64b",
    "zvfbfmin": "zve32f",
    "zvfbfwma": "zfbfmin zvfbfmin",
    "zvfh": "zfhmin zvfhmin",
    "zvfhmin": "zve32f",
    "zvkn": "zvkb zvkned zvknhb zvkt",
    "zvknc": "zvbc zvkn",
    "zvkng": "zvkg zvkn",
    "zvknhb": "zve64x",
    "zvkb": "zve32x",
    "zvbb": "zvkb",
    "zvbc": "zve64x",
    "zvkg": "zve32x",
    "zvkned": "zve32x",
    "zvknha": "zve32x",
    "zvksed": "zve32x",
    "zvksh": "zve32x",
    "zvks": "zvksed zvksh zvkb zvkt",
    "zvksc": "zvks zvbc",
    "zvksg": "zvks zvkg",
    "zcf": "f zca",
    "zvl64b": "zvl32b",
    "zvl128b": "zvl64b",
    "zvl256b": "zvl128b",
    "zvl512b": "zvl256b",
    "zvl1024b": "zvl512b",
    "zvl2048b": "zvl1024b",
    "zvl4096b": "zvl2048b",
    "zvl8192b": "zvl4096b",
    "zvl16384b": "zvl8192b",
    "zvl32768b": "zvl16384b",
    "zvl65536b": "zvl32768b",
}
"""Feature -> the features it implies directly (space separated)."""

RISCV_CPUS: dict[str, str] = {
    "generic-rv64": "64bit i",
    "rocket-rv64": "64bit i zicsr zifencei",
    "sifive-p450": (
        "64bit a auipc-addi-fusion c conditional-cmv-fusion d i lui-addi-fusion m no-default-unroll "
        "unaligned-scalar-mem unaligned-vector-mem use-postra-scheduler za64rs zba zbb zbs zfhmin zic64b "
        "zicbom zicbop zicboz ziccamoa ziccif zicclsm ziccrse zifencei zihintntl zihintpause zihpm"
    ),
    "sifive-p670": (
        "64bit a auipc-addi-fusion c conditional-cmv-fusion i lui-addi-fusion m no-default-unroll "
        "no-sink-splat-operands unaligned-scalar-mem unaligned-vector-mem use-postra-scheduler v za64rs zba "
        "zbb zbs zfhmin zic64b zicbom zicbop zicboz ziccamoa ziccif zicclsm ziccrse zifencei zihintntl "
        "zihintpause zihpm zvknc zvkng"
    ),
    "sifive-s21": "64bit a c i m zicsr zifencei",
    "sifive-s51": "64bit a c i m zicsr zifencei",
    "sifive-s54": "64bit a c d i m zifencei",
    "sifive-s76": "64bit a c d i m sifive7 use-postra-scheduler zifencei zihintpause",
    "sifive-u54": "64bit a c d i m zifencei",
    "sifive-u74": "64bit a c d i m sifive7 use-postra-scheduler zifencei",
    "sifive-x280": (
        "64bit a c dlen-factor-2 i m optimized-zero-stride-load sifive7 use-postra-scheduler v zba zbb zfh "
        "zifencei zvfh"
    ),
    "spacemit-x60": (
        "64bit a c dlen-factor-2 i m ssccptr sscofpmf sscounterenw sstc sstvala sstvecd svade svbare svinval "
        "svnapot svpbmt v za64rs zba zbb zbc zbkc zbs zfh zic64b zicbom zicbop zicboz ziccamoa ziccif zicclsm "
        "ziccrse zicntr zicond zifencei zihintpause zihpm zkt zvfh zvkt"
    ),
    "syntacore-scr3-rv64": "64bit a c i m no-default-unroll use-postra-scheduler zicsr zifencei",
    "veyron-v1": (
        "64bit a auipc-addi-fusion c d i ld-add-fusion lui-addi-fusion m shifted-zextw-fusion ventana-veyron "
        "xventanacondops zba zbb zbc zbs zexth-fusion zextw-fusion zicbom zicbop zicboz zicntr zifencei "
        "zihintpause zihpm"
    ),
    "xiangshan-nanhu": (
        "64bit a c d i m no-default-unroll shifted-zextw-fusion svinval zba zbb zbc zbs zexth-fusion "
        "zextw-fusion zicbom zicboz zifencei zkn zksed zksh"
    ),
}
"""64-bit processor -> the features it enables (space separated; each with what it implies)."""
