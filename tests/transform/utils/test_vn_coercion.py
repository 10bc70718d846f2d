"""VNCoercion: the IR built to read a load's value out of a store or memset matches what
opt-19's GVN builds (names, order, folding), on little- and big-endian layouts; and, as a
property over random widths, offsets and endianness, the constant a coerced load gets
equals the bytes of the stored value."""

from __future__ import annotations

import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.module import Module
from llvmpy_mid.transform.utils import vn_coercion as vnc
from tests.oracles import require_tools

SOURCE = """
define i8 @f(ptr %p, i32 %x) {
  store i32 %x, ptr %p
  %q = getelementptr i8, ptr %p, i64 1
  %v = load i8, ptr %q
  ret i8 %v
}
define float @g(ptr %p, i64 %x) {
  store i64 %x, ptr %p
  %q = getelementptr i8, ptr %p, i64 4
  %v = load float, ptr %q
  ret float %v
}
define ptr @h(ptr %p, i64 %x) {
  store i64 %x, ptr %p
  %v = load ptr, ptr %p
  ret ptr %v
}
define i16 @k(ptr %p, double %x) {
  store double %x, ptr %p
  %q = getelementptr i8, ptr %p, i64 2
  %v = load i16, ptr %q
  ret i16 %v
}
define i32 @m(ptr %p, i8 %b) {
  call void @llvm.memset.p0.i64(ptr %p, i8 %b, i64 16, i1 false)
  %q = getelementptr i8, ptr %p, i64 3
  %v = load i32, ptr %q
  ret i32 %v
}
define i24 @m3(ptr %p, i8 %b) {
  call void @llvm.memset.p0.i64(ptr %p, i8 %b, i64 16, i1 false)
  %v = load i24, ptr %p
  ret i24 %v
}
define i32 @c(ptr %p) {
  store i64 81985529216486895, ptr %p
  %q = getelementptr i8, ptr %p, i64 2
  %v = load i32, ptr %q
  ret i32 %v
}
define i8 @vc(ptr %p) {
  store <2 x i32> <i32 1, i32 2>, ptr %p
  %q = getelementptr i8, ptr %p, i64 1
  %v = load i8, ptr %q
  ret i8 %v
}
define i16 @dc(ptr %p) {
  store double 1.5, ptr %p
  %q = getelementptr i8, ptr %p, i64 2
  %v = load i16, ptr %q
  ret i16 %v
}
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
"""


def _forward(module: Module) -> None:
    """What GVN does for a load whose local dependence is a clobbering store or memset of
    the same base: analyze the offset, build the value before the load, replace the load."""
    dl = module.data_layout
    for fn in module.functions:
        if fn.is_declaration:
            continue
        insts = [i for bb in fn.blocks for i in bb.instructions]
        load = next(i for i in insts if isinstance(i, LoadInst))
        writer = next(i for i in insts if isinstance(i, StoreInst) or isinstance(i, CallBase))
        ptr = load.operands[0]
        if isinstance(writer, StoreInst):
            offset = vnc.analyze_load_from_clobbering_store(load.type, ptr, writer, dl)
            assert offset >= 0
            value = vnc.get_value_for_load(writer.operands[0], offset, load.type, load, dl)
        else:
            offset = vnc.analyze_load_from_clobbering_mem_inst(load.type, ptr, writer, dl)
            assert offset >= 0
            found = vnc.get_mem_inst_value_for_load(writer, offset, load.type, load, dl)
            assert found is not None
            value = found
        load.replace_all_uses_with(value)
        load.erase_from_parent()


def _functions(text: str) -> str:
    return text[text.index("define") :].split("\n; Function Attrs")[0].split("\ndeclare")[0]


@pytest.mark.parametrize("layout", ["", 'target datalayout = "E-p:64:64"\n'])
def test_forwarded_values_as_gvn(layout: str) -> None:
    require_tools("opt-19")
    text = layout + SOURCE
    ref = subprocess.run(["opt-19", "-S", "-passes=gvn"], input=text, capture_output=True, text=True, check=True).stdout
    module = parse_assembly(text)
    _forward(module)
    assert _functions(str(module)) == _functions(ref)


def test_can_coerce_rules() -> None:
    module = parse_assembly(
        'target datalayout = "ni:1"\n'
        "define void @f(i32 %a, i17 %b, {i32} %s, ptr addrspace(1) %n, <vscale x 2 x i32> %v) { ret void }\n"
    )
    dl = module.data_layout
    ctx = module.context
    a, b, s, n, v = module.get_function("f").args  # type: ignore[union-attr]
    assert vnc.can_coerce_must_aliased_value_to_load(a, ctx.i32, dl)
    assert vnc.can_coerce_must_aliased_value_to_load(a, ctx.i16, dl)
    assert not vnc.can_coerce_must_aliased_value_to_load(a, ctx.i64, dl)  # store smaller than the load
    assert not vnc.can_coerce_must_aliased_value_to_load(b, ctx.i8, dl)  # not a whole number of bytes
    assert not vnc.can_coerce_must_aliased_value_to_load(s, ctx.i32, dl)  # aggregate
    assert not vnc.can_coerce_must_aliased_value_to_load(v, ctx.i32, dl)  # scalable
    assert not vnc.can_coerce_must_aliased_value_to_load(n, ctx.i64, dl)  # non-integral pointer to integer
    null = Constant.get_null_value(ctx.i64)
    assert vnc.can_coerce_must_aliased_value_to_load(null, ctx.pointer_type(1), dl)  # null is zero


def _layout(big_endian: bool) -> DataLayout:
    return DataLayout.parse("E" if big_endian else "e")


def _expected(value: int, store_bytes: int, offset: int, load_bytes: int, big_endian: bool) -> int:
    """The integer a load of ``load_bytes`` at ``offset`` reads from memory holding
    ``value`` stored in ``store_bytes`` bytes."""
    order = "big" if big_endian else "little"
    memory = value.to_bytes(store_bytes, order)
    return int.from_bytes(memory[offset : offset + load_bytes], order)


@settings(max_examples=150, deadline=None)
@given(
    store_bytes=st.integers(1, 16),
    data=st.data(),
    big_endian=st.booleans(),
)
def test_constant_value_for_load_is_the_stored_bytes(store_bytes: int, data: st.DataObject, big_endian: bool) -> None:
    ctx = Context()
    dl = _layout(big_endian)
    value = data.draw(st.integers(0, (1 << (8 * store_bytes)) - 1))
    load_bytes = data.draw(st.integers(1, store_bytes))
    offset = data.draw(st.integers(0, store_bytes - load_bytes))
    stored = ConstantInt.get(ctx.int_type(8 * store_bytes), value)
    load_ty = ctx.int_type(8 * load_bytes)
    expected = _expected(value, store_bytes, offset, load_bytes, big_endian)

    folded = vnc.get_constant_value_for_load(stored, offset, load_ty, dl)
    assert isinstance(folded, ConstantInt) and folded.zext_value == expected

    # The instruction-building path folds to the same constant with the builder's folder.
    module = parse_assembly("define void @f() {\n  ret void\n}\n", context=ctx)
    fn = module.get_function("f")
    assert fn is not None
    ret = fn.entry_block.terminator
    assert ret is not None
    built = vnc.get_value_for_load(stored, offset, load_ty, ret, dl)
    assert isinstance(built, ConstantInt) and built.zext_value == expected
    assert len(list(fn.entry_block.instructions)) == 1


@settings(max_examples=100, deadline=None)
@given(byte=st.integers(0, 255), load_bytes=st.integers(1, 16), big_endian=st.booleans())
def test_memset_value_is_the_splatted_byte(byte: int, load_bytes: int, big_endian: bool) -> None:
    ctx = Context()
    text = (
        "define void @f(ptr %p) {\n  call void @llvm.memset.p0.i64(ptr %p, i8 %d, i64 32, i1 false)\n  ret void\n}\n"
        "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)\n"
    ).replace("%d", str(byte))
    module = parse_assembly(text, context=ctx)
    dl = _layout(big_endian)
    fn = module.get_function("f")
    assert fn is not None
    memset, ret = list(fn.entry_block.instructions)
    load_ty = ctx.int_type(8 * load_bytes)
    expected = int.from_bytes(bytes([byte]) * load_bytes, "little")
    const = vnc.get_constant_mem_inst_value_for_load(memset, 0, load_ty, dl)
    assert isinstance(const, ConstantInt) and const.zext_value == expected
    built = vnc.get_mem_inst_value_for_load(memset, 0, load_ty, ret, dl)
    assert isinstance(built, ConstantInt) and built.zext_value == expected


def test_clobbering_write_offsets() -> None:
    module = parse_assembly(
        "define void @f(ptr %p, i64 %x) {\n"
        "  store i64 %x, ptr %p\n"
        "  %a = getelementptr i8, ptr %p, i64 6\n"
        "  %b = getelementptr i8, ptr %p, i64 7\n"
        "  %c = getelementptr i8, ptr %p, i64 -1\n"
        "  ret void\n}\n"
    )
    dl = module.data_layout
    ctx = module.context
    fn = module.get_function("f")
    assert fn is not None
    store, a, b, c, _ = list(fn.entry_block.instructions)
    assert isinstance(store, StoreInst)
    assert vnc.analyze_load_from_clobbering_store(ctx.i16, a, store, dl) == 6
    assert vnc.analyze_load_from_clobbering_store(ctx.i16, b, store, dl) == -1  # runs past the store
    assert vnc.analyze_load_from_clobbering_store(ctx.i8, c, store, dl) == -1  # before the store
    assert vnc.analyze_load_from_clobbering_store(ctx.i8, b, store, dl) == 7


@settings(max_examples=120, deadline=None)
@given(
    kind=st.sampled_from(["double", "float", "v4i16", "v2i32"]),
    data=st.data(),
    big_endian=st.booleans(),
)
def test_non_integer_stored_values_give_their_bytes(kind: str, data: st.DataObject, big_endian: bool) -> None:
    """A load of an integer out of a stored float, double or vector constant reads the
    bytes memory would hold (struct packing is the reference)."""
    import struct

    from llvmpy_mid.ir.constants import ConstantFP, ConstantVector

    ctx = Context()
    dl = _layout(big_endian)
    order = ">" if big_endian else "<"
    stored: Constant
    if kind in ("double", "float"):
        x = data.draw(st.floats(allow_nan=False, width=64 if kind == "double" else 32))
        ty = ctx.double if kind == "double" else ctx.float
        stored = ConstantFP.get(ty, x)
        memory = struct.pack(order + ("d" if kind == "double" else "f"), x)
    else:
        width, count = (16, 4) if kind == "v4i16" else (32, 2)
        elems = [data.draw(st.integers(0, (1 << width) - 1)) for _ in range(count)]
        stored = ConstantVector.get([ConstantInt.get(ctx.int_type(width), e) for e in elems])
        memory = b"".join(e.to_bytes(width // 8, "big" if big_endian else "little") for e in elems)
    load_bytes = data.draw(st.sampled_from([b for b in (1, 2, 4) if b <= len(memory)]))
    offset = data.draw(st.integers(0, len(memory) - load_bytes))
    expected = int.from_bytes(memory[offset : offset + load_bytes], "big" if big_endian else "little")
    load_ty = ctx.int_type(8 * load_bytes)

    folded = vnc.get_constant_value_for_load(stored, offset, load_ty, dl)
    assert isinstance(folded, ConstantInt) and folded.zext_value == expected
    if kind in ("double", "float"):
        # The builder's plain constant folder folds a scalar bitcast; a vector-to-integer
        # bitcast needs the DataLayout, so (as in LLVM) instructions remain for vectors.
        module = parse_assembly("define void @f() {\n  ret void\n}\n", context=ctx)
        fn = module.get_function("f")
        assert fn is not None and fn.entry_block.terminator is not None
        built = vnc.get_value_for_load(stored, offset, load_ty, fn.entry_block.terminator, dl)
        assert isinstance(built, ConstantInt) and built.zext_value == expected
