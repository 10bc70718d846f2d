"""AggressiveInstCombine: library calls inlined into blocks (LLVM ``foldLibCalls``,
``StrNCmpInliner`` and ``foldMemChr`` of ``lib/Transforms/AggressiveInstCombine/AggressiveInstCombine.cpp``).

* ``strcmp``/``strncmp`` of a short constant string (at most ``-strncmp-inline-threshold``
  bytes compared) whose result is only compared with zero: one block per byte
  (``sub_<i>``: load, zext, subtract, branch to ``ne`` when non-zero), a phi in ``ne``.
* ``memchr`` of a constant string with a constant length up to
  ``-memchr-inline-threshold`` and a variable character: a switch on the character's
  low byte with one ``memchr.case`` block per distinct byte, a ``memchr.success`` block
  computing the address, and a phi of ``null`` and it.

Both change the CFG: the dominator tree is recomputed and the pass reports it.
Not done yet: ``sqrt`` (needs the target's answer on a native square root).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, SwitchInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.options import OPTIONS

if TYPE_CHECKING:
    from llvmpy_mid.transform.aggressive_instcombine.pass_ import FoldContext


def _is_only_used_in_zero_comparison(i: Instruction) -> bool:
    """LLVM ``isOnlyUsedInZeroComparison``: used, and only by ``icmp <any> X, 0``."""
    use = i._use_head
    if use is None:
        return False
    while use is not None:
        user = use.user
        if getattr(user, "opcode", "") != "icmp":
            return False
        rhs = user.operands[1]
        if not (isinstance(rhs, Constant) and rhs.is_null_value):
            return False
        use = use._next
    return True


def _builder() -> IRBuilder:
    return IRBuilder(folder=ConstantFolder())


def _inline_strncmp(ci: CallInst, lhs: Value, rhs: bytes, n: int, swapped: bool) -> None:
    """``StrNCmpInliner::inlineCompare``."""
    from llvmpy_mid.transform.utils.basic_block_utils import split_block

    bb_ci = ci.parent
    assert bb_ci is not None
    fn = bb_ci.parent
    assert fn is not None
    ctx = ci.type.context
    bb_tail = split_block(bb_ci, ci, name=bb_ci.name + ".tail")
    subs: list[BasicBlock] = []
    for k in range(n):
        sub = BasicBlock(ctx, "sub_%d" % k)
        fn.blocks.insert_before(sub, bb_tail)
        subs.append(sub)
    bb_ne = BasicBlock(ctx, "ne")
    fn.blocks.insert_before(bb_ne, bb_tail)
    term = bb_ci.terminator
    assert isinstance(term, BranchInst)
    term.set_successor(0, subs[0])
    b = _builder()
    b.position_at_end(bb_ne)
    phi = b.phi(ci.type)
    b.insert(BranchInst(bb_tail))
    i8 = ctx.int_type(8)
    i64 = ctx.int_type(64)
    ty = ci.type
    for k in range(n):
        b.position_at_end(subs[k])
        ptr = b.create_gep(i8, lhs, [ConstantInt.get(i64, k)], inbounds=True)
        vl = b.create_zext(b.load(i8, ptr, alignment=1), ty)
        vr = ConstantInt.get(ty, rhs[k])
        diff = b.create_sub(vr, vl) if swapped else b.create_sub(vl, vr)
        if k < n - 1:
            b.insert(BranchInst(bb_ne, subs[k + 1], b.create_icmp("ne", diff, ConstantInt.get(ty, 0))))
        else:
            b.insert(BranchInst(bb_ne))
        phi.add_incoming(diff, subs[k])
    ci.replace_all_uses_with(phi)
    ci.erase_from_parent()


def _optimize_strncmp(ci: CallInst, func: str, ctx: FoldContext) -> bool:
    """``StrNCmpInliner::optimizeStrNCmp``."""
    from llvmpy_mid.analysis.constant_strings import get_constant_string_info
    from llvmpy_mid.analysis.loads import get_pointer_dereferenceable_bytes

    threshold = int(OPTIONS.value("strncmp-inline-threshold"))
    if threshold < 2:
        return False
    if not _is_only_used_in_zero_comparison(ci):
        return False
    args = ci.arg_operands
    s1p, s2p = args[0], args[1]
    if s1p is s2p:
        return False
    s1 = get_constant_string_info(s1p, False)
    s2 = get_constant_string_info(s2p, False)
    if (s1 is not None) == (s2 is not None):
        return False
    has1 = s1 is not None
    string = s1 if s1 is not None else s2
    assert string is not None
    strp = s2p if has1 else s1p
    nul = string.find(b"\0")
    n = (1 << 64) - 1 if nul < 0 else nul + 1
    if func == "strncmp":
        length = args[2]
        if not isinstance(length, ConstantInt):
            return False
        n = min(n, int(length.value))
    if n > len(string) or n < 2 or n > threshold:
        return False
    deref, _null, _freed = get_pointer_dereferenceable_bytes(strp, ctx.dl)
    if deref > 1:
        return False
    _inline_strncmp(ci, strp, string, n, has1)
    return True


def _fold_memchr(ci: CallInst, ctx: FoldContext) -> bool:
    """LLVM ``foldMemChr``."""
    from llvmpy_mid.analysis.constant_strings import get_constant_string_info
    from llvmpy_mid.transform.utils.basic_block_utils import split_block

    args = ci.arg_operands
    if isinstance(args[1], Constant):
        return False
    base = args[0]
    string = get_constant_string_info(base, False)
    if string is None:
        return False
    n = len(string)
    length = args[2]
    if not isinstance(length, ConstantInt):
        return False
    if int(length.value) > n:
        return False
    n = int(length.value)
    if n > int(OPTIONS.value("memchr-inline-threshold")):
        return False
    bb = ci.parent
    assert bb is not None
    fn = bb.parent
    assert fn is not None
    tctx = ci.type.context
    bb_next = split_block(bb, ci)
    old_term = bb.terminator
    assert old_term is not None
    old_term.erase_from_parent()
    b = _builder()
    b.position_at_end(bb)
    i8 = tctx.int_type(8)
    sw = b.insert(SwitchInst(b.create_trunc(args[1], i8), bb_next, num_cases=n))
    index_ty = tctx.int_type(ctx.dl.index_type_size_in_bits(ci.type))
    bb_success = BasicBlock(tctx, "memchr.success")
    fn.blocks.insert_before(bb_success, bb_next)
    b.position_at_end(bb_success)
    index_phi = b.phi(index_ty, "memchr.idx")
    first = b.create_gep(i8, base, [index_phi], inbounds=True)
    b.insert(BranchInst(bb_next))
    seen: set[int] = set()
    for k in range(n):
        byte = string[k]
        if byte in seen:
            continue
        seen.add(byte)
        case = BasicBlock(tctx, "memchr.case")
        fn.blocks.insert_before(case, bb_success)
        sw.add_case(ConstantInt.get(i8, byte), case)
        b.position_at_end(case)
        index_phi.add_incoming(ConstantInt.get(index_ty, k), case)
        b.insert(BranchInst(bb_success))
    phi = PHINode(ci.type, name=ci.name)
    at = bb_next.instructions.first
    assert at is not None
    phi.insert_before(at)
    phi.add_incoming(Constant.get_null_value(ci.type), bb)
    phi.add_incoming(first, bb_success)
    ci.replace_all_uses_with(phi)
    ci.erase_from_parent()
    return True


def fold_lib_calls(i: Instruction, ctx: FoldContext) -> bool:
    """strcmp/strncmp against a short constant string, memchr in a short constant string ->
    inline code (LLVM ``foldLibCalls``)."""
    if not isinstance(i, CallInst) or i.is_no_builtin:
        return False
    callee = i.called_function
    if not isinstance(callee, Function):
        return False
    tli = ctx.tli
    if tli is None:
        return False
    func = tli.get_lib_func(callee)
    if func is None:
        return False
    from llvmpy_mid.transform.utils.build_lib_calls import is_lib_func_emittable

    module = i.module
    if module is None or not is_lib_func_emittable(module, tli, func):
        return False
    done = False
    if func in ("strcmp", "strncmp"):
        done = _optimize_strncmp(i, func, ctx)
    elif func == "memchr":
        done = _fold_memchr(i, ctx)
    if done:
        ctx.cfg_changed = True
        ctx.dt.recalculate()
    return done


__all__ = ["fold_lib_calls"]
