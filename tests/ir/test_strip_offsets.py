"""``ir.pointer_casts.strip_and_accumulate_constant_offsets`` and ``accumulate_constant_offset``:
LLVM 19.1.7 ``Value::stripAndAccumulateConstantOffsets`` / ``GEPOperator::accumulateConstantOffset``
(llvm/lib/IR/Value.cpp, Operator.cpp), the one copy every analysis uses."""

from __future__ import annotations

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.pointer_casts import accumulate_constant_offset, strip_and_accumulate_constant_offsets
from llvmpy_mid.ir.value import Value

SRC = """
target datalayout = "e-p1:32:32-i64:64"
%S = type { i8, i32, [4 x i16] }
@g = global [16 x i32] zeroinitializer
@a = alias i32, getelementptr inbounds (i8, ptr @g, i64 8)
@w = weak alias i32, ptr @g

define void @f(ptr %p, i64 %n, ptr addrspace(1) %q) {
  %s1 = getelementptr inbounds %S, ptr %p, i64 1, i32 2, i64 3
  %n1 = getelementptr i32, ptr %s1, i64 -5
  %v1 = getelementptr inbounds i32, ptr %p, i64 %n
  %v2 = getelementptr inbounds [4 x i32], ptr %v1, i64 0, i64 %n
  %r = call ptr @ret(ptr %n1)
  %l = call ptr @llvm.launder.invariant.group.p0(ptr %s1)
  %c = addrspacecast ptr addrspace(1) %q to ptr
  %big = getelementptr i8, ptr addrspace(1) %q, i32 -1
  %cb = addrspacecast ptr addrspace(1) %big to ptr
  %oncb = getelementptr inbounds i8, ptr %cb, i64 2
  %wide = getelementptr i8, ptr %p, i64 4294967296
  %back = addrspacecast ptr %wide to ptr addrspace(1)
  %seven = getelementptr i8, ptr %p, i64 7
  %back1 = addrspacecast ptr %seven to ptr addrspace(1)
  %it = getelementptr i8, ptr inttoptr (i64 16 to ptr), i64 4
  %x = getelementptr i8, ptr @a, i64 4
  %y = getelementptr i8, ptr @w, i64 4
  ret void
dead:
  %cyc = getelementptr inbounds i8, ptr %cyc, i64 1
  ret void
}
declare ptr @ret(ptr returned)
declare ptr @llvm.launder.invariant.group.p0(ptr)
"""

M = parse_assembly(SRC)
DL = M.data_layout
F = M.get_function("f")
assert F is not None
V: dict[str, Value] = {i.name: i for b in F.blocks for i in b.instructions if i.name}
P = F.get_arg(0)


def strip(name: str, *args: bool) -> tuple[Value, int]:
    return strip_and_accumulate_constant_offsets(V[name], DL, *args)


def test_struct_and_array_steps() -> None:
    # %S is 16 bytes: i8 at 0, i32 at 4, [4 x i16] at 8; element 3 of it is at 8 + 6.
    assert strip("s1", False) == (P, 16 + 14)


def test_non_inbounds_only_when_allowed() -> None:
    assert strip("n1", True) == (P, 30 - 20)
    assert strip("n1", False) == (V["n1"], 0)


def test_variable_index_stops_unless_external_analysis() -> None:
    assert strip("v2", True) == (V["v2"], 0)
    base, off = strip_and_accumulate_constant_offsets(V["v2"], DL, False, external_analysis=lambda idx: 2)
    # %v1: 2 * 4 bytes; %v2: 0 * 16 + 2 * 4 bytes.
    assert (base, off) == (P, 16)
    assert strip_and_accumulate_constant_offsets(V["v2"], DL, False, external_analysis=lambda idx: None)[0] is V["v2"]


def test_external_analysis_overflow_stops() -> None:
    huge = (1 << 62)
    base, off = strip_and_accumulate_constant_offsets(V["v1"], DL, False, external_analysis=lambda idx: huge)
    assert (base, off) == (V["v1"], 0)


def test_returned_argument_and_invariant_group() -> None:
    assert strip("r", True) == (P, 10)
    assert strip("l", False) == (V["l"], 0)
    assert strip("l", False, True) == (P, 30)


def test_addrspacecast_and_index_width() -> None:
    q = F.get_arg(2)
    assert strip("c", True) == (q, 0)
    # -1 in a 32-bit index space is -1 in the 64-bit one.
    assert strip("cb", True) == (q, -1)
    assert strip("oncb", False) == (V["big"], 2)
    # A 64-bit offset that does not fit the 32-bit index of the start's address space stops there.
    assert strip("back", True) == (V["wide"], 0)
    assert strip("back1", True) == (P, 7)


def test_aliases() -> None:
    # @a is not interposable: through it to @g + 8; the weak @w may be replaced: it stays.
    assert strip("x", True) == (M.get_global("g"), 12)
    assert strip("y", True) == (M.get_alias("w"), 4)


def test_other_constant_expression_is_a_base() -> None:
    base, off = strip("it", True)
    assert off == 4 and getattr(base, "opcode", "") == "inttoptr"


def test_cycle_in_unreachable_block_ends() -> None:
    base, off = strip("cyc", False)
    assert base is V["cyc"] and off == 1


def test_not_a_pointer() -> None:
    n = F.get_arg(1)
    assert strip_and_accumulate_constant_offsets(n, DL, True) == (n, 0)


def test_accumulate_wraps_to_width() -> None:
    assert accumulate_constant_offset(DL, V["n1"], 64) == (1 << 64) - 20
    assert accumulate_constant_offset(DL, V["n1"], 32) == (1 << 32) - 20
    assert accumulate_constant_offset(DL, V["v1"], 64) is None
