"""Tests of llvmpy_mid.ir.data_layout against LLVM 19 itself.

Every expected number below came from the real toolchain, not from memory:

* ``ORACLE`` and ``OFFSETS`` were produced by feeding opt-19 one function per
  type ``T`` under each layout::

      %a = alloca T                 ; opt -S prints "align N" = preferred alignment
      %l = load T, ptr %q           ; opt -S prints "align N" = ABI alignment
      store T poison, ptr %a

  ``opt-19 -passes='print<stack-safety-local>'`` then prints ``a[ALLOC]: [0,STORE)``
  (alloc size of the alloca, store size of the store), and field offsets come
  from ``getelementptr T, ptr %p, i64 0, i32 k`` folded by
  ``opt-19 -passes=instcombine`` into ``getelementptr i8, ptr %p, i64 OFFSET``.
  The layouts are the strings clang-19 writes for x86_64-linux-gnu,
  s390x-linux-gnu, i386-linux-gnu and amdgcn-amd-amdhsa, LLVM's default (a
  module with no datalayout line) and one hand-written layout.
* ``C_STRUCTS`` comes from a C program compiled with ``clang-19 -fms-extensions
  -O0`` for x86_64-linux-gnu that prints ``sizeof``/``_Alignof``/``offsetof``;
  the IR types are the ``%struct.*`` types clang-19 emitted for the same structs.
* ``ERRORS`` are opt-19's messages for ``target datalayout = "..."`` lines.
* GEP offsets, pointer-sized integers and index types come from
  ``opt-19 -passes=instcombine`` output (see each test).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llvmpy_mid.errors import DataLayoutError, IRError
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.data_layout import DataLayout, FunctionPtrAlignType, ManglingMode
from llvmpy_mid.ir.types import StructType, Type

X86_64 = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
LAYOUTS = {
    "x86_64": X86_64,
    "default": "",
    "s390x": "E-m:e-i1:8:16-i8:8:16-i64:64-f128:64-v128:64-a:8:16-n32:64",
    "i386": "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128",
    "amdgpu": (
        "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128"
        "-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512"
        "-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
    ),
    "custom": "e-a:64:128-i32:16:64-i24:8-v96:32:64-f80:32-p:32:16:32:16",
}


# --- a tiny reader for the type spellings used in the tables -----------------------

_TOKEN = re.compile(r"\s*(<\{|\}>|[{}\[\]<>(),]|x(?![a-z_0-9])|[a-z_0-9]+)")


def parse_type(ctx: Context, text: str) -> Type:
    tokens: list[str] = _TOKEN.findall(text)
    pos = 0

    def take(expected: str | None = None) -> str:
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        assert expected is None or tok == expected, (text, tok, expected)
        return tok

    def one() -> Type:
        tok = take()
        if tok == "ptr":
            if pos < len(tokens) and tokens[pos] == "addrspace":
                take()
                take("(")
                space = int(take())
                take(")")
                return ctx.pointer_type(space)
            return ctx.ptr
        if re.fullmatch(r"i\d+", tok):
            return ctx.int_type(int(tok[1:]))
        if tok in ("[", "<"):
            scalable = tok == "<" and tokens[pos] == "vscale"
            if scalable:
                take()
                take("x")
            count = int(take())
            take("x")
            elt = one()
            take("]" if tok == "[" else ">")
            if tok == "[":
                return ctx.array_type(elt, count)
            return ctx.vector_type(elt, count, scalable)
        if tok in ("{", "<{"):
            close = "}" if tok == "{" else "}>"
            elements: list[Type] = []
            while tokens[pos] != close:
                elements.append(one())
                if tokens[pos] == ",":
                    take()
            take(close)
            return ctx.struct_type(elements, packed=tok == "<{")
        if tok == "x86_mmx":
            return ctx.x86_mmx
        return ctx.fp_type(tok)

    ty = one()
    assert pos == len(tokens), text
    return ty


ORACLE: dict[str, dict[str, tuple[int, int, int, int]]] = {
    "x86_64": {
        "i1": (1, 1, 1, 1),
        "i7": (1, 1, 1, 1),
        "i8": (1, 1, 1, 1),
        "i16": (2, 2, 2, 2),
        "i24": (4, 4, 4, 3),
        "i32": (4, 4, 4, 4),
        "i33": (8, 8, 8, 5),
        "i48": (8, 8, 8, 6),
        "i64": (8, 8, 8, 8),
        "i65": (16, 16, 16, 9),
        "i96": (16, 16, 16, 12),
        "i128": (16, 16, 16, 16),
        "i129": (16, 16, 32, 17),
        "i256": (16, 16, 32, 32),
        "half": (2, 2, 2, 2),
        "bfloat": (2, 2, 2, 2),
        "float": (4, 4, 4, 4),
        "double": (8, 8, 8, 8),
        "x86_fp80": (16, 16, 16, 10),
        "fp128": (16, 16, 16, 16),
        "ppc_fp128": (16, 16, 16, 16),
        "x86_mmx": (8, 8, 8, 8),
        "ptr": (8, 8, 8, 8),
        "ptr addrspace(270)": (4, 4, 4, 4),
        "ptr addrspace(271)": (4, 4, 4, 4),
        "ptr addrspace(272)": (8, 8, 8, 8),
        "ptr addrspace(1)": (8, 8, 8, 8),
        "<2 x i8>": (2, 2, 2, 2),
        "<3 x i8>": (4, 4, 4, 3),
        "<5 x i1>": (1, 1, 1, 1),
        "<8 x i1>": (1, 1, 1, 1),
        "<16 x i1>": (2, 2, 2, 2),
        "<3 x i32>": (16, 16, 16, 12),
        "<4 x i32>": (16, 16, 16, 16),
        "<3 x float>": (16, 16, 16, 12),
        "<2 x double>": (16, 16, 16, 16),
        "<3 x double>": (32, 32, 32, 24),
        "<4 x i64>": (32, 32, 32, 32),
        "<1 x i128>": (16, 16, 16, 16),
        "<2 x x86_fp80>": (32, 32, 32, 20),
        "<3 x i33>": (16, 16, 16, 13),
        "<2 x ptr>": (16, 16, 16, 16),
        "<4 x ptr addrspace(270)>": (16, 16, 16, 16),
        "[0 x i32]": (4, 4, 0, 0),
        "[3 x i8]": (1, 1, 3, 3),
        "[3 x x86_fp80]": (16, 16, 48, 48),
        "[2 x [3 x i16]]": (2, 2, 12, 12),
        "[4 x { i8, i32 }]": (4, 8, 32, 32),
        "[3 x i1]": (1, 1, 3, 3),
        "[2 x <3 x i32>]": (16, 16, 32, 32),
        "{}": (1, 8, 0, 0),
        "<{}>": (1, 8, 0, 0),
        "{ i8 }": (1, 8, 1, 1),
        "{ i8, i32 }": (4, 8, 8, 8),
        "{ i8, i64, i8 }": (8, 8, 24, 24),
        "<{ i8, i32 }>": (1, 8, 5, 5),
        "<{ i8, i64, i16 }>": (1, 8, 11, 11),
        "{ i8, <{ i8, i32 }> }": (1, 8, 6, 6),
        "{ i8, x86_fp80 }": (16, 16, 32, 32),
        "{ x86_fp80, i8 }": (16, 16, 32, 32),
        "{ i32, { i8, double }, i8 }": (8, 8, 32, 32),
        "{ i1, i128 }": (16, 16, 32, 32),
        "{ [3 x { i8, i16 }], i8 }": (2, 8, 14, 14),
        "{ i8, <3 x i32> }": (16, 16, 32, 32),
        "{ i8, <3 x i8>, i16 }": (4, 8, 12, 12),
        "{ ptr addrspace(270), i8 }": (4, 8, 8, 8),
        "{ i8, ptr addrspace(270), i8, ptr }": (8, 8, 24, 24),
        "{ i8, [0 x i32] }": (4, 8, 4, 4),
        "{ i33, i8 }": (8, 8, 16, 16),
        "{ i8, { i8, { i8, i64 } } }": (8, 8, 32, 32),
        "{ [0 x i8] }": (1, 8, 0, 0),
        "{ i8, {}, i32 }": (4, 8, 8, 8),
        "{ i1, i1, i16 }": (2, 8, 4, 4),
        "<{ i8, x86_fp80 }>": (1, 8, 17, 17),
    },
    "default": {
        "i1": (1, 1, 1, 1),
        "i8": (1, 1, 1, 1),
        "i16": (2, 2, 2, 2),
        "i24": (4, 4, 4, 3),
        "i32": (4, 4, 4, 4),
        "i33": (4, 8, 8, 5),
        "i64": (4, 8, 8, 8),
        "i65": (4, 8, 12, 9),
        "i128": (4, 8, 16, 16),
        "i256": (4, 8, 32, 32),
        "half": (2, 2, 2, 2),
        "float": (4, 4, 4, 4),
        "double": (8, 8, 8, 8),
        "x86_fp80": (16, 16, 16, 10),
        "fp128": (16, 16, 16, 16),
        "ptr": (8, 8, 8, 8),
        "ptr addrspace(3)": (8, 8, 8, 8),
        "<3 x i32>": (16, 16, 16, 12),
        "<2 x i32>": (8, 8, 8, 8),
        "<4 x i32>": (16, 16, 16, 16),
        "<8 x i32>": (32, 32, 32, 32),
        "<3 x i8>": (4, 4, 4, 3),
        "{ i8 }": (1, 8, 1, 1),
        "{ i8, i64 }": (4, 8, 12, 12),
        "{ i8, i128 }": (4, 8, 20, 20),
        "<{ i8, i64 }>": (1, 8, 9, 9),
        "{ i8, x86_fp80 }": (16, 16, 32, 32),
        "[3 x i64]": (4, 8, 24, 24),
        "{ i8, double }": (8, 8, 16, 16),
    },
    "s390x": {
        "i1": (1, 2, 1, 1),
        "i8": (1, 2, 1, 1),
        "i16": (2, 2, 2, 2),
        "i32": (4, 4, 4, 4),
        "i64": (8, 8, 8, 8),
        "i128": (8, 8, 16, 16),
        "fp128": (8, 8, 16, 16),
        "double": (8, 8, 8, 8),
        "<4 x i32>": (8, 8, 16, 16),
        "<2 x i64>": (8, 8, 16, 16),
        "<3 x i32>": (16, 16, 16, 12),
        "{ i8 }": (1, 2, 1, 1),
        "{ i8, i8 }": (1, 2, 2, 2),
        "<{ i8, i32 }>": (1, 2, 5, 5),
        "{ i1, fp128 }": (8, 8, 24, 24),
        "[3 x i8]": (1, 2, 3, 3),
        "{ i8, <4 x i32> }": (8, 8, 24, 24),
    },
    "i386": {
        "i64": (4, 8, 8, 8),
        "i128": (16, 16, 16, 16),
        "double": (4, 8, 8, 8),
        "x86_fp80": (4, 4, 12, 10),
        "ptr": (4, 4, 4, 4),
        "ptr addrspace(272)": (8, 8, 8, 8),
        "{ i8, double }": (4, 8, 12, 12),
        "{ i8, i64 }": (4, 8, 12, 12),
        "{ i8, x86_fp80 }": (4, 8, 16, 16),
        "[2 x x86_fp80]": (4, 4, 24, 24),
    },
    "amdgpu": {
        "ptr addrspace(7)": (32, 32, 32, 20),
        "ptr addrspace(8)": (16, 16, 16, 16),
        "ptr addrspace(9)": (32, 32, 32, 24),
        "ptr addrspace(5)": (4, 4, 4, 4),
        "ptr addrspace(42)": (8, 8, 8, 8),
        "<3 x i8>": (4, 4, 4, 3),
        "<3 x i16>": (8, 8, 8, 6),
        "<3 x i32>": (16, 16, 16, 12),
        "<6 x i32>": (32, 32, 32, 24),
        "<2 x i8>": (2, 2, 2, 2),
        "{ i8, ptr addrspace(7) }": (32, 32, 64, 64),
    },
    "custom": {
        "{ i8 }": (8, 16, 8, 1),
        "<{ i8 }>": (1, 16, 1, 1),
        "{ i8, i32 }": (8, 16, 8, 6),
        "i32": (2, 8, 4, 4),
        "i24": (1, 1, 3, 3),
        "i20": (1, 1, 3, 3),
        "i25": (2, 8, 4, 4),
        "i33": (4, 8, 8, 5),
        "i64": (4, 8, 8, 8),
        "<3 x i32>": (4, 8, 12, 12),
        "<4 x i32>": (16, 16, 16, 16),
        "x86_fp80": (4, 4, 12, 10),
        "ptr": (2, 4, 4, 4),
        "{ i8, ptr }": (8, 16, 8, 6),
        "[3 x { i8 }]": (8, 16, 24, 24),
        "{ { i8 }, i8 }": (8, 16, 16, 16),
    },
}

OFFSETS: list[tuple[str, str, tuple[int, ...]]] = [
    ("x86_64", "{ i8, i64, i8 }", (0, 8, 16)),
    ("x86_64", "<{ i8, i64, i16 }>", (0, 1, 9)),
    ("x86_64", "{ i8, <{ i8, i32 }> }", (0, 1)),
    ("x86_64", "{ i8, x86_fp80 }", (0, 16)),
    ("x86_64", "{ x86_fp80, i8 }", (0, 16)),
    ("x86_64", "{ i32, { i8, double }, i8 }", (0, 8, 24)),
    ("x86_64", "{ i1, i128 }", (0, 16)),
    ("x86_64", "{ [3 x { i8, i16 }], i8 }", (0, 12)),
    ("x86_64", "{ i8, <3 x i32> }", (0, 16)),
    ("x86_64", "{ i8, <3 x i8>, i16 }", (0, 4, 8)),
    ("x86_64", "{ i8, ptr addrspace(270), i8, ptr }", (0, 4, 8, 16)),
    ("x86_64", "{ i8, [0 x i32] }", (0, 4)),
    ("x86_64", "{ i33, i8 }", (0, 8)),
    ("x86_64", "{ i8, {}, i32 }", (0, 1, 4)),
    ("x86_64", "{ i1, i1, i16 }", (0, 1, 2)),
    ("x86_64", "<{ i8, x86_fp80 }>", (0, 1)),
    ("default", "{ i8, i64 }", (0, 4)),
    ("default", "{ i8, i128 }", (0, 4)),
    ("default", "{ i8, x86_fp80 }", (0, 16)),
    ("s390x", "{ i8, i8 }", (0, 1)),
    ("s390x", "{ i1, fp128 }", (0, 8)),
    ("s390x", "{ i8, <4 x i32> }", (0, 8)),
    ("i386", "{ i8, double }", (0, 4)),
    ("i386", "{ i8, i64 }", (0, 4)),
    ("i386", "{ i8, x86_fp80 }", (0, 4)),
    ("amdgpu", "{ i8, ptr addrspace(7) }", (0, 32)),
    ("custom", "{ i8, i32 }", (0, 2)),
    ("custom", "{ i8, ptr }", (0, 2)),
    ("custom", "{ { i8 }, i8 }", (0, 8)),
]


# --- oracle tables -------------------------------------------------------------------


@pytest.mark.parametrize(
    "layout_name, type_text",
    [(name, text) for name, table in ORACLE.items() for text in table],
)
def test_sizes_and_alignments_match_opt19(layout_name: str, type_text: str) -> None:
    ctx = Context()
    dl = DataLayout.parse(LAYOUTS[layout_name])
    ty = parse_type(ctx, type_text)
    abi, pref, alloc, store = ORACLE[layout_name][type_text]
    assert dl.abi_alignment(ty) == abi
    assert dl.pref_alignment(ty) == pref
    assert dl.type_alloc_size(ty) == alloc
    assert dl.type_store_size(ty) == store
    assert dl.type_alloc_size_in_bits(ty) == alloc * 8
    assert dl.type_store_size_in_bits(ty) == store * 8
    assert not dl.is_scalable(ty)


@pytest.mark.parametrize("layout_name, type_text, offsets", OFFSETS)
def test_struct_field_offsets_match_opt19(layout_name: str, type_text: str, offsets: tuple[int, ...]) -> None:
    ctx = Context()
    dl = DataLayout.parse(LAYOUTS[layout_name])
    ty = parse_type(ctx, type_text)
    assert isinstance(ty, StructType)
    layout = dl.struct_layout(ty)
    assert layout.element_offsets == offsets
    assert [layout.element_offset(i) for i in range(len(offsets))] == list(offsets)
    assert layout.element_offset_in_bits(len(offsets) - 1) == offsets[-1] * 8
    assert layout.num_elements == len(offsets)
    assert layout.size == dl.type_store_size(ty)


# sizeof, _Alignof and offsetof printed by a clang-19 x86-64 program, for the IR
# struct type clang-19 emitted for each C struct. (name, IR type, sizeof, alignof,
# offsets of the named C fields as (field index, offset)).
C_STRUCTS: list[tuple[str, str, int, int, list[tuple[int, int]]]] = [
    ("struct Inner { char c; double d; }", "{ i8, double }", 16, 8, [(1, 8)]),
    ("struct Nested { int i; struct Inner in; char tail; }", "{ i32, { i8, double }, i8 }", 32, 8, [(1, 8), (2, 24)]),
    ("struct LD { char c; long double ld; }", "{ i8, x86_fp80 }", 32, 16, [(1, 16)]),
    ("struct I128 { char c; __int128 x; }", "{ i8, i128 }", 32, 16, [(1, 16)]),
    ("struct __attribute__((packed)) Packed { char c; int i; long l; }", "<{ i8, i32, i64 }>", 13, 1, [(1, 1), (2, 5)]),
    ("struct InPacked { char c; struct Packed p; }", "{ i8, <{ i8, i32, i64 }> }", 14, 1, [(1, 1)]),
    ("struct Small { char c; short s; }", "{ i8, i16 }", 4, 2, [(1, 2)]),
    ("struct ArrS { struct Small a[3]; char c; }", "{ [3 x { i8, i16 }], i8 }", 14, 2, [(1, 12)]),
    ("struct Vec { char c; int3 v; }", "{ i8, <3 x i32> }", 32, 16, [(1, 16)]),
    ("struct VecD { char c; double3 v; }", "{ i8, <3 x double> }", 64, 32, [(1, 32)]),
    ("struct VecC { char c; char3 v; short s; }", "{ i8, <3 x i8>, i16 }", 12, 4, [(1, 4), (2, 8)]),
    ("struct Flex { char c; int tail[]; }", "{ i8, [0 x i32] }", 4, 4, [(1, 4)]),
    (
        "struct Ptrs { char c; int *__ptr32 p32; char d; int *__ptr64 p64; }",
        "{ i8, ptr addrspace(270), i8, ptr }",
        24,
        8,
        [(1, 4), (2, 8), (3, 16)],
    ),
    ("struct Bits { char c; _BitInt(33) b; }", "{ i8, i64 }", 16, 8, [(1, 8)]),
    ("long double", "x86_fp80", 16, 16, []),
    ("__int128", "i128", 16, 16, []),
    ("int3 (ext_vector_type(3))", "<3 x i32>", 16, 16, []),
    ("double3", "<3 x double>", 32, 32, []),
    ("char3", "<3 x i8>", 4, 4, []),
]


@pytest.mark.parametrize("c_decl, type_text, size, align, fields", C_STRUCTS)
def test_c_layouts_from_clang19(c_decl: str, type_text: str, size: int, align: int, fields: list[tuple[int, int]]) -> None:
    ctx = Context()
    dl = DataLayout.parse(X86_64)
    ty = parse_type(ctx, type_text)
    assert dl.type_alloc_size(ty) == size, c_decl
    assert dl.abi_alignment(ty) == align, c_decl
    if fields:
        assert isinstance(ty, StructType)
        layout = dl.struct_layout(ty)
        for index, offset in fields:
            assert layout.element_offset(index) == offset, c_decl


# --- sizes in bits, i1, x86_fp80 --------------------------------------------------------


def test_bit_sizes_x86_64() -> None:
    ctx = Context()
    dl = DataLayout.parse(X86_64)
    cases = {
        "i1": (1, 1, 8, 1, 8),
        "i33": (33, 5, 40, 8, 64),
        "x86_fp80": (80, 10, 80, 16, 128),
        "<5 x i1>": (5, 1, 8, 1, 8),
        "<3 x i32>": (96, 12, 96, 16, 128),
        "[3 x i1]": (24, 3, 24, 3, 24),
        "ptr addrspace(270)": (32, 4, 32, 4, 32),
        "i128": (128, 16, 128, 16, 128),
    }
    for text, (bits, store, store_bits, alloc, alloc_bits) in cases.items():
        ty = parse_type(ctx, text)
        assert dl.type_size_in_bits(ty) == bits, text
        assert dl.type_store_size(ty) == store, text
        assert dl.type_store_size_in_bits(ty) == store_bits, text
        assert dl.type_alloc_size(ty) == alloc, text
        assert dl.type_alloc_size_in_bits(ty) == alloc_bits, text
    assert dl.type_size_equals_store_size(ctx.x86_fp80)
    assert dl.type_size_equals_store_size(ctx.i32)
    assert not dl.type_size_equals_store_size(ctx.i1)
    assert not dl.type_size_equals_store_size(ctx.int_type(33))
    assert dl.type_size_in_bits(ctx.x86_amx) == 8192
    assert dl.abi_alignment(ctx.x86_amx) == 64


def test_scalable_vectors_use_known_minimum() -> None:
    # opt-19 -S prints "alloca <vscale x 4 x i32>, align 16" and "load ..., align 16"
    # (default layout), and "alloca target("aarch64.svcount"), align 2".
    ctx = Context()
    dl = DataLayout.default()
    nxv4i32 = ctx.vector_type(ctx.i32, 4, scalable=True)
    assert dl.is_scalable(nxv4i32)
    assert dl.type_size_in_bits(nxv4i32) == 128
    assert dl.type_store_size(nxv4i32) == 16
    assert dl.type_alloc_size(nxv4i32) == 16
    assert dl.abi_alignment(nxv4i32) == 16
    assert dl.pref_alignment(nxv4i32) == 16
    pair = ctx.struct_type([nxv4i32, nxv4i32])
    assert dl.is_scalable(pair)
    layout = dl.struct_layout(pair)
    assert layout.is_scalable and layout.element_offsets == (0, 16) and layout.size == 32
    with pytest.raises(IRError):
        layout.element_containing_offset(0)
    svcount = ctx.target_ext_type("aarch64.svcount")
    assert dl.is_scalable(svcount)
    assert dl.abi_alignment(svcount) == 2
    assert dl.type_size_in_bits(svcount) == 16
    spirv = ctx.target_ext_type("spirv.Image")
    assert not dl.is_scalable(spirv)
    assert dl.type_alloc_size(spirv) == 8 and dl.pref_alignment(spirv) == 8
    assert not dl.is_scalable(ctx.struct_type([ctx.i32, ctx.array_type(ctx.i8, 4)]))


def test_unsized_types_raise_ir_error() -> None:
    ctx = Context()
    dl = DataLayout.parse(X86_64)
    opaque = ctx.named_struct("opaque.t")
    unsized: list[Type] = [
        ctx.void,
        ctx.metadata,
        ctx.token,
        ctx.function_type(ctx.void, [ctx.i32]),
        opaque,
        ctx.target_ext_type("foo"),
        ctx.struct_type([ctx.i32, opaque]),
        ctx.array_type(opaque, 2),
    ]
    for ty in unsized:
        with pytest.raises(IRError):
            dl.type_size_in_bits(ty)
        with pytest.raises(IRError):
            dl.abi_alignment(ty)
        with pytest.raises(IRError):
            dl.type_alloc_size(ty)
    with pytest.raises(IRError, match="opaque"):
        dl.struct_layout(opaque)
    # Once the body is set, the layout exists.
    opaque.set_body([ctx.i8, ctx.i64])
    assert dl.struct_layout(opaque).element_offsets == (0, 8)
    assert dl.type_alloc_size(ctx.array_type(opaque, 2)) == 32


def test_recursive_struct_by_value_raises() -> None:
    ctx = Context()
    dl = DataLayout.parse(X86_64)
    node = ctx.named_struct("node")
    node.set_body([ctx.i32, node])
    with pytest.raises(IRError):
        dl.struct_layout(node)
    a = ctx.named_struct("a")
    b = ctx.named_struct("b")
    a.set_body([ctx.array_type(b, 2)])
    b.set_body([ctx.i8, a])
    with pytest.raises(IRError):
        dl.type_alloc_size(a)
    # Through a pointer it is fine.
    lst = ctx.named_struct("list")
    lst.set_body([ctx.i32, ctx.ptr])
    assert dl.type_alloc_size(lst) == 16


# --- struct layouts ---------------------------------------------------------------------


def test_struct_layout_details() -> None:
    ctx = Context()
    dl = DataLayout.parse(X86_64)
    s = parse_type(ctx, "{ i8, {}, i32 }")
    assert isinstance(s, StructType)
    layout = dl.struct_layout(s)
    assert layout.has_padding
    assert layout.size == 8 and layout.size_in_bits == 64 and layout.alignment == 4
    # The last field starting at or before the offset.
    assert [layout.element_containing_offset(o) for o in range(8)] == [0, 1, 1, 1, 2, 2, 2, 2]
    zero_sized = parse_type(ctx, "{ i8, {}, i8 }")
    assert isinstance(zero_sized, StructType)
    assert dl.struct_layout(zero_sized).element_containing_offset(1) == 2
    with pytest.raises(IRError):
        layout.element_offset(3)
    with pytest.raises(IRError):
        layout.element_containing_offset(-1)
    tight = parse_type(ctx, "{ i32, i32 }")
    assert isinstance(tight, StructType)
    assert not dl.struct_layout(tight).has_padding
    tail = parse_type(ctx, "{ i64, i8 }")
    assert isinstance(tail, StructType)
    assert dl.struct_layout(tail).has_padding  # tail padding only
    packed = parse_type(ctx, "<{ i8, i64, i16 }>")
    assert isinstance(packed, StructType)
    assert dl.struct_layout(packed).alignment == 1
    assert not dl.struct_layout(packed).has_padding
    assert dl.struct_layout(ctx.struct_type([])).size == 0


def test_struct_layout_is_cached_and_follows_body_changes() -> None:
    ctx = Context()
    dl = DataLayout.parse(X86_64)
    s = ctx.struct_type([ctx.i8, ctx.i32])
    assert dl.struct_layout(s) is dl.struct_layout(s)
    other = DataLayout.parse(X86_64)
    assert other.struct_layout(s) is not dl.struct_layout(s)
    named = ctx.named_struct("t", [ctx.i8, ctx.i32])
    first = dl.struct_layout(named)
    assert first.size == 8
    named.set_body([ctx.i8, ctx.i64, ctx.i8])
    assert dl.struct_layout(named).element_offsets == (0, 8, 16)


def test_deeply_nested_structs_do_not_recurse() -> None:
    ctx = Context()
    dl = DataLayout.parse(X86_64)
    ty: Type = ctx.i8
    depth = 5000
    for _ in range(depth):
        ty = ctx.struct_type([ctx.i32, ty])
    # { i32, i8 } is 8 bytes; each wrapper adds one i32.
    assert dl.type_alloc_size(ty) == 8 + 4 * (depth - 1)
    assert dl.abi_alignment(ty) == 4
    arrays: Type = ctx.i16
    for _ in range(3000):
        arrays = ctx.array_type(arrays, 1)
    assert dl.type_alloc_size(arrays) == 2
    assert dl.abi_alignment(arrays) == 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["i1", "i8", "i16", "i32", "i64", "i128", "x86_fp80", "<3 x i32>", "ptr", "{ i8, i32 }"]), max_size=8), st.booleans())
def test_struct_layout_invariants(fields: list[str], packed: bool) -> None:
    ctx = Context()
    dl = DataLayout.parse(X86_64)
    elements = [parse_type(ctx, f) for f in fields]
    s = ctx.struct_type(elements, packed=packed)
    layout = dl.struct_layout(s)
    end = 0
    for elt, offset in zip(elements, layout.element_offsets):
        assert offset >= end
        assert packed or offset % dl.abi_alignment(elt) == 0
        assert packed or offset - end < dl.abi_alignment(elt)
        end = offset + dl.type_alloc_size(elt)
    assert layout.size >= end and layout.size % layout.alignment == 0
    assert layout.has_padding == (layout.size != sum(dl.type_alloc_size(e) for e in elements))
    if packed:
        assert layout.size == end and dl.abi_alignment(s) == 1
    assert dl.type_alloc_size(ctx.array_type(s, 3)) == 3 * dl.type_alloc_size(s)


# --- pointers, address spaces, int-ptr and index types ------------------------------


def test_pointer_queries_x86_64() -> None:
    dl = DataLayout.parse(X86_64)
    assert dl.pointer_size() == 8 and dl.pointer_size_in_bits() == 64
    assert dl.pointer_size(270) == 4 and dl.pointer_size_in_bits(271) == 32
    assert dl.pointer_size(272) == 8
    assert dl.pointer_abi_alignment(270) == 4 and dl.pointer_pref_alignment(270) == 4
    # An address space without an entry uses that of address space 0.
    assert dl.pointer_size(3) == 8 and dl.index_size_in_bits(3) == 64
    assert dl.index_size(270) == 4 and dl.index_size_in_bits(270) == 32


def test_int_ptr_and_index_types() -> None:
    # opt-19 -passes=instcombine under "e-m:e-p:64:64:64:32-p270:32:32-p272:64:64-p7:160:256:256:32":
    #   ptrtoint ptr addrspace(270) %p to i64        -> ptrtoint ... to i32 + zext
    #   ptrtoint <2 x ptr addrspace(270)> to <2 x i64> -> ... to <2 x i32> + zext
    #   ptrtoint ptr addrspace(7) %p to i256         -> ptrtoint ... to i160 + zext
    #   getelementptr i32, ptr %p, i64 %i            -> index truncated to i32
    #   getelementptr i32, ptr addrspace(7) %p, i64  -> index truncated to i32
    ctx = Context()
    dl = DataLayout.parse("e-m:e-p:64:64:64:32-p270:32:32-p272:64:64-p7:160:256:256:32")
    p270 = ctx.pointer_type(270)
    assert dl.int_ptr_type(p270) is ctx.i32
    assert dl.int_ptr_type(ctx.vector_type(p270, 2)) is ctx.vector_type(ctx.i32, 2)
    assert dl.int_ptr_type(ctx.pointer_type(7)) is ctx.int_type(160)
    assert dl.int_ptr_type(ctx.ptr) is ctx.i64
    assert dl.index_type(ctx.ptr) is ctx.i32
    assert dl.index_type(ctx.pointer_type(7)) is ctx.i32
    assert dl.index_type(ctx.vector_type(ctx.ptr, 4, scalable=True)) is ctx.vector_type(ctx.i32, 4, scalable=True)
    assert dl.int_ptr_type_for(ctx, 7) is ctx.int_type(160)
    assert dl.pointer_type_size_in_bits(ctx.vector_type(p270, 2)) == 32
    assert dl.index_type_size_in_bits(ctx.pointer_type(7)) == 32
    assert dl.pointer_size(7) == 20 and dl.index_size(7) == 4
    with pytest.raises(IRError):
        dl.int_ptr_type(ctx.i64)
    with pytest.raises(IRError):
        dl.index_type(ctx.vector_type(ctx.i64, 2))


def test_indexed_offset_in_type_matches_opt19() -> None:
    # Each GEP below, folded by opt-19 -passes=instcombine (x86-64 layout), became
    # "getelementptr i8, ptr %p, i64 OFFSET".
    ctx = Context()
    dl = DataLayout.parse(X86_64)
    cases = [
        ("{ i32, [4 x { i8, i64 }] }", [2, 1, 3, 1], 208),
        ("{ i8, x86_fp80 }", [-1, 1], -16),
        ("[2 x <4 x i32>]", [0, 1, 3], 28),
        ("[3 x [5 x i16]]", [1, 2, 4], 58),
        ("<{ i8, { i8, i64 } }>", [0, 1, 1], 9),
        ("[4 x i33]", [0, -3], -24),
        # Vector elements are stepped by their store size, not their alloc size.
        ("<4 x x86_fp80>", [0, 3], 30),
        ("<4 x i24>", [0, 3], 9),
    ]
    for text, indices, offset in cases:
        assert dl.indexed_offset_in_type(parse_type(ctx, text), indices) == offset, text
    assert dl.indexed_offset_in_type(ctx.i32, []) == 0
    assert dl.indexed_offset_in_type(ctx.named_struct("opaque"), [0]) == 0
    with pytest.raises(IRError):
        dl.indexed_offset_in_type(parse_type(ctx, "{ i8, i32 }"), [0, 2])
    with pytest.raises(IRError):
        dl.indexed_offset_in_type(ctx.i32, [0, 1])
    with pytest.raises(IRError):
        dl.indexed_offset_in_type(parse_type(ctx, "<4 x i1>"), [0, 1])


def test_gep_indices_for_offset() -> None:
    ctx = Context()
    dl = DataLayout.parse(X86_64)
    s = parse_type(ctx, "{ i32, [4 x { i8, i64 }] }")
    indices, ty, rest = dl.gep_indices_for_offset(s, 208)
    assert indices == [2, 1, 3, 1] and ty is ctx.i64 and rest == 0
    assert dl.indexed_offset_in_type(s, indices) == 208
    indices, ty, rest = dl.gep_indices_for_offset(s, 4)  # padding after the i32
    assert indices == [0, 0] and ty is ctx.i32 and rest == 4
    indices, ty, rest = dl.gep_indices_for_offset(ctx.i32, -6)
    assert indices == [-2] and ty is ctx.i32 and rest == 2
    indices, ty, rest = dl.gep_indices_for_offset(parse_type(ctx, "<4 x i32>"), 20)
    assert indices == [1] and rest == 4  # vectors are not descended


# --- the parsed specification ----------------------------------------------------------


def test_x86_64_properties() -> None:
    dl = DataLayout.parse(X86_64)
    assert str(dl) == X86_64
    assert dl.is_little_endian and not dl.is_big_endian
    assert dl.mangling is ManglingMode.ELF
    assert dl.stack_alignment == 16
    assert dl.legal_int_widths == (8, 16, 32, 64)
    assert dl.is_legal_integer(32) and not dl.is_legal_integer(128)
    assert dl.largest_legal_int_width == 64
    assert dl.fits_in_legal_integer(33) and not dl.fits_in_legal_integer(65)
    ctx = Context()
    assert dl.largest_legal_int_type(ctx) is ctx.i64
    assert dl.smallest_legal_int_type(ctx, 9) is ctx.i16
    assert dl.smallest_legal_int_type(ctx, 65) is None
    assert dl.alloca_addr_space == dl.program_addr_space == dl.globals_addr_space == 0
    assert dl.function_ptr_alignment is None
    assert dl.non_integral_address_spaces == ()
    assert dl.exceeds_natural_stack_alignment(32) and not dl.exceeds_natural_stack_alignment(16)


def test_default_layout() -> None:
    dl = DataLayout.default()
    assert str(dl) == ""
    assert dl == DataLayout.parse("") == DataLayout()
    assert dl.is_little_endian
    assert dl.mangling is ManglingMode.NONE
    assert dl.stack_alignment is None and not dl.exceeds_natural_stack_alignment(1024)
    assert dl.legal_int_widths == () and dl.largest_legal_int_width == 0
    assert dl.largest_legal_int_type(Context()) is None
    assert dl.pointer_size() == 8 and dl.index_size_in_bits() == 64
    # Spelling out LLVM's documented defaults gives the same layout.
    spelled = DataLayout.parse(
        "e-p:64:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:32:64-f16:16:16-f32:32:32-f64:64:64"
        "-f128:128:128-v64:64:64-v128:128:128-a:0:64"
    )
    assert spelled == dl
    assert hash(spelled) == hash(dl)
    assert str(spelled) != str(dl)


def test_big_endian_and_other_targets() -> None:
    s390x = DataLayout.parse(LAYOUTS["s390x"])
    assert s390x.is_big_endian and not s390x.is_little_endian
    assert s390x.legal_int_widths == (32, 64)
    ppc = DataLayout.parse("E-m:e-p:32:32-Fn32-i64:64-n32")
    assert ppc.is_big_endian and ppc.pointer_size() == 4
    assert ppc.function_ptr_align_type is FunctionPtrAlignType.MULTIPLE_OF_FUNCTION_ALIGN
    assert ppc.function_ptr_alignment == 4
    aix = DataLayout.parse("E-m:a-Fi64-i64:64-n32:64-S128-v256:256:256-v512:512:512")
    assert aix.mangling is ManglingMode.XCOFF
    assert aix.function_ptr_align_type is FunctionPtrAlignType.INDEPENDENT
    assert aix.function_ptr_alignment == 8
    amdgpu = DataLayout.parse(LAYOUTS["amdgpu"])
    assert amdgpu.alloca_addr_space == 5 and amdgpu.globals_addr_space == 1 and amdgpu.program_addr_space == 0
    assert amdgpu.non_integral_address_spaces == (7, 8, 9)
    assert amdgpu.is_non_integral_address_space(7) and not amdgpu.is_non_integral_address_space(1)
    ctx = Context()
    assert amdgpu.is_non_integral_pointer_type(ctx.vector_type(ctx.pointer_type(8), 2))
    assert not amdgpu.is_non_integral_pointer_type(ctx.ptr)
    assert amdgpu.stack_alignment == 4
    assert DataLayout.parse("P1").program_addr_space == 1
    manglings = {
        "e-m:w-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128": ManglingMode.WIN_COFF,
        "e-m:x-p:32:32-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32-a:0:32-S32": ManglingMode.WIN_COFF_X86,
        "e-m:o-i64:64-i128:128-n32:64-S128-Fn32": ManglingMode.MACHO,
        "E-m:m-p:32:32-i8:8:32-i16:16:32-i64:64-n32-S64": ManglingMode.MIPS,
        "E-m:l-i1:8:16-i8:8:16-i64:64-f128:64-v128:64-a:8:16-n32:64": ManglingMode.GOFF,
    }
    for text, mode in manglings.items():
        assert DataLayout.parse(text).mangling is mode, text
    # Later entries replace earlier ones; "s" is accepted and ignored.
    dl = DataLayout.parse("E-e-s:foo-i32:64-i32:16-p:32:32-p:16:16")
    assert dl.is_little_endian
    assert dl.abi_alignment(ctx.i32) == 2 and dl.pointer_size() == 2


def test_repeated_native_integer_specs_accumulate() -> None:
    # opt-19 -passes=instcombine widens `zext i40 (add i40 (trunc i64 %x), 1) to i64`
    # into `and (add i64 %x, 1), 2**40-1` only when i64 is legal: it does so under
    # "n64", "n32:64", "n32-n64" and "n64-n32", and not under "n32". So a later
    # `n` adds widths instead of replacing the earlier ones.
    for text in ["n64-n32", "n32-n64", "n32:64"]:
        dl = DataLayout.parse(text)
        assert dl.is_legal_integer(64) and dl.is_legal_integer(32), text
        assert dl.largest_legal_int_width == 64
    assert DataLayout.parse("n64-n32").legal_int_widths == (64, 32)
    assert not DataLayout.parse("n32").is_legal_integer(64)


def test_layouts_clang19_writes_all_parse() -> None:
    # The datalayout lines of `clang-19 --target=T -S -emit-llvm` for several targets.
    for text in [
        X86_64,
        "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128",
        "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32",
        "e-i64:64-i128:128-v16:16-v32:32-n16:32:64",
        "e-m:e-p:32:32-p10:8:8-p20:8:8-i64:64-n32:64-S128-ni:1:10:20",
        "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128",
        "E-m:e-p:32:32-i64:64-f128:64-n32-S64",
        "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1",
        "e-m:e-p:32:32:32-a:0-n16:32-i64:64:64-i32:32:32-i16:16:16-i1:8:8-f32:32:32-f64:64:64-v32:32:32"
        "-v64:64:64-v512:512:512-v1024:1024:1024-v2048:2048:2048",
        *LAYOUTS.values(),
    ]:
        assert str(DataLayout.parse(text)) == text


def test_accepted_oddities() -> None:
    # Each of these is accepted by opt-19 (see test docstring for how).
    for text in [
        "e5", "E:x", "e::", "p:64:64:64:64:64", "p:12:8", "p:064:64", "p00:32:32", "p16777215:32:32",
        "i0:8", "i:8", "i1:16", "i32:32:64:128", "i32:32:64::", "i32:262144", "v0:8", "f0:8", "a:0", "a0:8",
        "a:8:0", "a:0:0", "Fi0", "Fi8:16", "S0", "S128:4", "S9223372036854775808", "Fi4294967296", "P1:2",
        "P1::", "n16777216", "n4294967295", "ni:16777216", "ni:1-ni:2", "m:a",
    ]:
        DataLayout.parse(text)
    odd = DataLayout.parse("p:12:8")
    assert odd.pointer_size_in_bits() == 12 and odd.pointer_size() == 2
    assert DataLayout.parse("i1:16").abi_alignment(Context().i1) == 2
    assert DataLayout.parse("a:8:0").pref_alignment(Context().struct_type([Context().i8])) == 1


ERRORS: list[tuple[str, str]] = [
    ("x", "Unknown specifier in datalayout string"),
    ("e-x", "Unknown specifier in datalayout string"),
    ("-", "Trailing separator in datalayout string"),
    ("e-", "Trailing separator in datalayout string"),
    (":", "Trailing separator in datalayout string"),
    ("p:-1:8", "Trailing separator in datalayout string"),
    ("i32:32::", "Trailing separator in datalayout string"),
    ("-e", "Expected token before separator in datalayout string"),
    ("e--E", "Expected token before separator in datalayout string"),
    ("p::64", "Expected token before separator in datalayout string"),
    ("p", "Missing size specification for pointer in datalayout string"),
    ("p:64", "Missing alignment specification for pointer in datalayout string"),
    ("p:0:64", "Invalid pointer size of 0 bytes"),
    ("p:64:0", "Pointer ABI alignment must be a power of 2"),
    ("p:64:48", "Pointer ABI alignment must be a power of 2"),
    ("p:64:64:48", "Pointer preferred alignment must be a power of 2"),
    ("p:64:64:0", "Pointer preferred alignment must be a power of 2"),
    ("p:64:64:32", "Preferred alignment cannot be less than the ABI alignment"),
    ("p:64:64:32:128", "Preferred alignment cannot be less than the ABI alignment"),
    ("p:64:64:64:128", "Index width cannot be larger than pointer width"),
    ("p:64:64:64:0", "Invalid index size of 0 bytes"),
    ("p16777216:32:32", "Invalid address space, must be a 24-bit integer"),
    ("px:32:32", "not a number, or does not fit in an unsigned int"),
    ("p:+64:64", "not a number, or does not fit in an unsigned int"),
    ("p: 64:64", "not a number, or does not fit in an unsigned int"),
    ("p:4294967296:8", "not a number, or does not fit in an unsigned int"),
    ("p:64:12", "number of bits must be a byte width multiple"),
    ("i", "Missing alignment specification in datalayout string"),
    ("f80", "Missing alignment specification in datalayout string"),
    ("i32:0", "ABI alignment specification must be >0 for non-aggregate types"),
    ("v128:0", "ABI alignment specification must be >0 for non-aggregate types"),
    ("i32:24", "Invalid ABI alignment, must be a power of 2"),
    ("i16777216:24", "Invalid ABI alignment, must be a power of 2"),
    ("i32:12", "number of bits must be a byte width multiple"),
    ("i32:32:24", "Invalid preferred alignment, must be a power of 2"),
    ("i32:64:32", "Preferred alignment cannot be less than the ABI alignment"),
    ("i32:32:0", "Preferred alignment cannot be less than the ABI alignment"),
    ("a:16:8", "Preferred alignment cannot be less than the ABI alignment"),
    ("i8:16", "Invalid ABI alignment, i8 must be naturally aligned"),
    ("i16777216:8", "Invalid bit width, must be a 24-bit integer"),
    ("i16777216:64:32", "Invalid bit width, must be a 24-bit integer"),
    ("f16777216:8", "Invalid bit width, must be a 24-bit integer"),
    ("i32:524288", "Invalid ABI alignment, must be a 16bit integer"),
    ("i32:32:1048576", "Invalid preferred alignment, must be a 16bit integer"),
    ("a64:64", "Sized aggregate specification in datalayout string"),
    ("ix:8", "not a number, or does not fit in an unsigned int"),
    ("F", "Unknown function pointer alignment type in datalayout string"),
    ("Fx8", "Unknown function pointer alignment type in datalayout string"),
    ("Fi", "not a number, or does not fit in an unsigned int"),
    ("Fi12", "number of bits must be a byte width multiple"),
    ("Fi24", "Alignment is neither 0 nor a power of 2"),
    ("S", "not a number, or does not fit in an unsigned int"),
    ("S12", "number of bits must be a byte width multiple"),
    ("S24", "Alignment is neither 0 nor a power of 2"),
    ("S18446744073709551616", "not a number, or does not fit in an unsigned int"),
    ("P", "not a number, or does not fit in an unsigned int"),
    ("P16777216", "Invalid address space, must be a 24-bit integer"),
    ("A", "not a number, or does not fit in an unsigned int"),
    ("G", "not a number, or does not fit in an unsigned int"),
    ("m", "Expected mangling specifier in datalayout string"),
    ("m:", "Trailing separator in datalayout string"),
    ("m:q", "Unknown mangling in datalayout string"),
    ("m::", "Unknown mangling in datalayout string"),
    ("m:ee", "Unknown mangling specifier in datalayout string"),
    ("m:e:x", "Unknown mangling specifier in datalayout string"),
    ("me:e", "Unexpected trailing characters after mangling specifier in datalayout string"),
    ("n", "not a number, or does not fit in an unsigned int"),
    ("n0", "Zero width native integer type in datalayout string"),
    ("n8:0", "Zero width native integer type in datalayout string"),
    ("n8:16:", "Trailing separator in datalayout string"),
    ("ni", "not a number, or does not fit in an unsigned int"),
    ("ni:0", "Address space 0 can never be non-integral"),
    ("ni:1::2", "Expected token before separator in datalayout string"),
    ("ni1", "not a number, or does not fit in an unsigned int"),
]


@pytest.mark.parametrize("text, message", ERRORS)
def test_malformed_layouts_raise_llvm_messages(text: str, message: str) -> None:
    # Messages from opt-19 on a module holding `target datalayout = "<text>"`.
    with pytest.raises(DataLayoutError) as info:
        DataLayout.parse(text)
    assert str(info.value) == message
    assert isinstance(info.value, IRError)


def test_repr_and_equality() -> None:
    a = DataLayout.parse(X86_64)
    b = DataLayout.parse(X86_64)
    assert a == b and hash(a) == hash(b)
    assert a != DataLayout.default()
    assert repr(a) == "DataLayout(%r)" % X86_64
    assert a != X86_64
