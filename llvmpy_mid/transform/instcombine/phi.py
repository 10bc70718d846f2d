"""InstCombine folds of ``phi`` nodes (LLVM ``lib/Transforms/InstCombine/InstCombinePHI.cpp``).

:func:`visit_phi` tries, in LLVM 19's order: InstructionSimplify; a phi of
zexts and constants narrowed (``foldPHIArgZextsIntoPHI``); round-trip
``inttoptr(ptrtoint x)`` operands of a phi only used by ``ptrtoint``; one
operation pulled through the phi when every incoming value is that operation
(casts, binops and compares with a shared constant, binops/compares needing one
new phi, GEPs, loads, ``insertvalue``/``extractvalue``); a phi of pointer casts
of one pointer; dead phi cycles and dead induction variables; incoming values
known non-zero of a phi only compared with zero; phi webs equal to one value;
the incoming-block order of the block's first phi; an identical phi in the
block; a phi of constants equal to the dominating branch/switch condition
(``simplifyUsingControlFlow``); dependent induction variables.

What it does not do (yet): ``foldIntegerTypedPHI`` (int phi used as a pointer),
``SliceUpIllegalIntegerPHI`` and the N-way metadata merge of sunk loads beyond
keeping metadata all loads share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.analysis.constant_folding import constant_fold_cast_operand
from llvmpy_mid.ir.constant_fold import constant_fold_cast_instruction, get_bin_op_identity
from llvmpy_mid.ir.constants import Constant, ConstantInt, PoisonValue
from llvmpy_mid.ir.debug_loc_merge import get_merged_location
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator, UnaryOperator
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import CmpInst, FCmpInst, ICmpInst
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, SwitchInst
from llvmpy_mid.ir.instructions.vector import ExtractValueInst, InsertValueInst
from llvmpy_mid.analysis.value_tracking_support import match_simple_recurrence
from llvmpy_mid.ir.pattern_match import m_c_or, m_specific, m_value, match
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import IntegerType, PointerType

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

_LOAD_MD_KINDS = (
    "tbaa",
    "range",
    "invariant.load",
    "alias.scope",
    "noalias",
    "nonnull",
    "align",
    "dereferenceable",
    "dereferenceable_or_null",
    "access_group",
    "noundef",
)


# --- small shared pieces -----------------------------------------------------------------------


def _is_desirable_int_type(width: int) -> bool:
    return width in (8, 16, 32)


def should_change_type(ic: InstCombiner, from_width: int, to_width: int) -> bool:
    """``InstCombinerImpl::shouldChangeType(FromWidth, ToWidth)``: is an ``iFrom`` -> ``iTo``
    rewrite no worse for the target's legal integer widths."""
    dl = ic.dl
    from_legal = from_width == 1 or dl.is_legal_integer(from_width)
    to_legal = to_width == 1 or dl.is_legal_integer(to_width)
    if to_width < from_width and _is_desirable_int_type(to_width):
        return True
    if (from_legal or _is_desirable_int_type(from_width)) and not to_legal:
        return False
    if not from_legal and not to_legal and to_width > from_width:
        return False
    return True


def _merge_debug_loc(new: Instruction, pn: PHINode) -> None:
    """``PHIArgMergedDebugLoc``: the merged location of the incoming instructions."""
    vals = pn.incoming_values
    loc = cast(Instruction, vals[0]).debug_loc
    for v in vals[1:]:
        loc = get_merged_location(loc, cast(Instruction, v).debug_loc)
    new.debug_loc = loc


def _terminator_is_eh_pad(bb: BasicBlock) -> bool:
    term = bb.terminator
    return term is not None and term.is_eh_pad


# --- operations pulled through the phi ---------------------------------------------------------


def _simplify_int_to_ptr_round_trip(ic: InstCombiner, v: Value) -> Value | None:
    """``simplifyIntToPtrRoundTripCast``: ``inttoptr(ptrtoint x)`` of full-width casts -> ``x``."""
    if not isinstance(v, CastInst) or v.opcode != "inttoptr":
        return None
    dl = ic.dl
    src = v.operands[0]
    if dl.type_size_in_bits(v.type) != dl.type_size_in_bits(src.type):
        return None
    if not isinstance(src, CastInst) or src.opcode != "ptrtoint":
        return None
    inner = src.operands[0]
    if cast(PointerType, v.type.scalar_type).address_space != cast(PointerType, inner.type.scalar_type).address_space:
        return None
    if dl.type_size_in_bits(inner.type) != dl.type_size_in_bits(src.type):
        return None
    return inner


def fold_phi_arg_int_to_ptr_to_phi(ic: InstCombiner, pn: PHINode) -> Instruction | None:
    """ptrtoint(phi [inttoptr(ptrtoint x), ...]) -> ptrtoint(phi [x, ...])"""
    for u in pn.users:
        if not (isinstance(u, CastInst) and u.opcode == "ptrtoint"):
            return None
    changed = False
    for idx in range(pn.num_incoming):
        new = _simplify_int_to_ptr_round_trip(ic, pn.get_incoming_value(idx))
        if new is not None:
            ic.replace_operand(pn, idx, new)
            changed = True
    return pn if changed else None


def fold_phi_arg_zexts_into_phi(ic: InstCombiner, pn: PHINode) -> Instruction | None:
    """phi [zext x, zext y, C] -> zext (phi [x, y, trunc C]) (three or more inputs)"""
    if _terminator_is_eh_pad(pn.parent):  # type: ignore[arg-type]
        return None
    n = pn.num_incoming
    if n < 3:
        return None
    vals = pn.incoming_values
    narrow = None
    for v in vals:
        if isinstance(v, CastInst) and v.opcode == "zext":
            narrow = v.operands[0].type
            break
    if narrow is None:
        return None
    new_in: list[Value] = []
    zexts = consts = 0
    for v in vals:
        if isinstance(v, CastInst) and v.opcode == "zext":
            if v.operands[0].type is not narrow or not v.has_one_user:
                return None
            new_in.append(v.operands[0])
            zexts += 1
        elif isinstance(v, Constant):
            t = _lossless_trunc(ic, v, narrow, "zext")
            if t is None:
                return None
            new_in.append(t)
            consts += 1
        else:
            return None
    if consts == 0 or zexts < 2:
        return None
    blocks = pn.incoming_blocks
    new_phi = PHINode(narrow, [(new_in[k], blocks[k]) for k in range(n)], name=pn.name + ".shrunk")
    ic.insert_new_inst_before(new_phi, pn)
    return CastInst.create("zext" if narrow is not pn.type else "bitcast", new_phi, pn.type)


def _lossless_trunc(ic: InstCombiner, c: Constant, ty: object, ext_op: str) -> Constant | None:
    """``getLosslessTrunc``: ``trunc c`` when extending it back gives ``c``."""
    t = constant_fold_cast_instruction("trunc", c, ty)  # type: ignore[arg-type]
    if t is None:
        return None
    back = constant_fold_cast_operand(ext_op, t, c.type, ic.dl)
    return t if back is c else None


def fold_phi_arg_insert_value_into_phi(ic: InstCombiner, pn: PHINode) -> Instruction | None:
    """phi [insertvalue(a, b, i), insertvalue(c, d, i)] -> insertvalue(phi [a, c], phi [b, d], i)"""
    first = cast(InsertValueInst, pn.get_incoming_value(0))
    for v in pn.incoming_values[1:]:
        if not isinstance(v, InsertValueInst) or not v.has_one_user or v.indices != first.indices:
            return None
    news: list[PHINode] = []
    for op_idx in (0, 1):
        op = first.operands[op_idx]
        np = PHINode(op.type, name=op.name + ".pn")
        for v, bb in pn.incoming:
            np.add_incoming(cast(Instruction, v).operands[op_idx], bb)
        ic.insert_new_inst_before(np, pn)
        news.append(np)
    new = InsertValueInst(news[0], news[1], first.indices, name=pn.name)
    _merge_debug_loc(new, pn)
    return new


def fold_phi_arg_extract_value_into_phi(ic: InstCombiner, pn: PHINode) -> Instruction | None:
    """phi [extractvalue(a, i), extractvalue(b, i)] -> extractvalue(phi [a, b], i)"""
    first = cast(ExtractValueInst, pn.get_incoming_value(0))
    agg_ty = first.operands[0].type
    for v in pn.incoming_values[1:]:
        if (
            not isinstance(v, ExtractValueInst)
            or not v.has_one_user
            or v.indices != first.indices
            or v.operands[0].type is not agg_ty
        ):
            return None
    np = PHINode(agg_ty, name=first.operands[0].name + ".pn")
    for v, bb in pn.incoming:
        np.add_incoming(cast(Instruction, v).operands[0], bb)
    ic.insert_new_inst_before(np, pn)
    new = ExtractValueInst(np, first.indices, name=pn.name)
    _merge_debug_loc(new, pn)
    return new


def _and_ir_flags(new: BinaryOperator, vals: list[Value]) -> None:
    """``copyIRFlags(V0)`` then ``andIRFlags(Vi)`` for each other incoming value."""
    flags = cast(BinaryOperator, vals[0]).flags_word
    for v in vals[1:]:
        flags &= cast(BinaryOperator, v).flags_word
    new._flags = flags


def fold_phi_arg_bin_op_into_phi(ic: InstCombiner, pn: PHINode) -> Instruction | None:
    """phi [op(a, b), op(a, c)] -> op(a, phi [b, c]) (one operand may differ)"""
    first = cast(Instruction, pn.get_incoming_value(0))
    opc = first.opcode
    lhs_val: Value | None = first.operands[0]
    rhs_val: Value | None = first.operands[1]
    lty = first.operands[0].type
    rty = first.operands[1].type
    vals = pn.incoming_values
    for v in vals[1:]:
        if (
            not isinstance(v, Instruction)
            or v.opcode != opc
            or not v.has_one_user
            or v.operands[0].type is not lty
            or v.operands[1].type is not rty
        ):
            return None
        if isinstance(v, CmpInst) and v.predicate != cast(CmpInst, first).predicate:
            return None
        if v.operands[0] is not lhs_val:
            lhs_val = None
        if v.operands[1] is not rhs_val:
            rhs_val = None
    if lhs_val is None and rhs_val is None:
        return None
    blocks = pn.incoming_blocks
    new_l = new_r = None
    if lhs_val is None:
        new_l = PHINode(lty, [(first.operands[0], blocks[0])], name=first.operands[0].name + ".pn")
        ic.insert_new_inst_before(new_l, pn)
        lhs_val = new_l
    if rhs_val is None:
        new_r = PHINode(rty, [(first.operands[1], blocks[0])], name=first.operands[1].name + ".pn")
        ic.insert_new_inst_before(new_r, pn)
        rhs_val = new_r
    if new_l is not None or new_r is not None:
        for k in range(1, len(vals)):
            inst = cast(Instruction, vals[k])
            if new_l is not None:
                new_l.add_incoming(inst.operands[0], blocks[k])
            if new_r is not None:
                new_r.add_incoming(inst.operands[1], blocks[k])
    new: Instruction
    if isinstance(first, CmpInst):
        if isinstance(first, ICmpInst):
            new = ICmpInst(first.predicate, lhs_val, rhs_val)
        else:
            new = FCmpInst(first.predicate, lhs_val, rhs_val)
        _merge_debug_loc(new, pn)
        return new
    bo = BinaryOperator.create(opc, lhs_val, rhs_val)
    _and_ir_flags(bo, vals)
    _merge_debug_loc(bo, pn)
    return bo


def fold_phi_arg_gep_into_phi(ic: InstCombiner, pn: PHINode) -> Instruction | None:
    """phi [gep(p, i), gep(p, j)] -> gep(p, phi [i, j]) (one operand may differ)"""
    first = cast(GetElementPtrInst, pn.get_incoming_value(0))
    fixed: list[Value | None] = list(first.operands)
    all_allocas = True
    needed_phi = False
    nw = int(first.gep_flags)
    nops = len(fixed)
    for v in pn.incoming_values[1:]:
        if (
            not isinstance(v, GetElementPtrInst)
            or not v.has_one_user
            or v.source_element_type is not first.source_element_type
            or len(v.operands) != nops
        ):
            return None
        nw &= int(v.gep_flags)
        if all_allocas and (not isinstance(v.operands[0], AllocaInst) or not v.has_all_constant_indices):
            all_allocas = False
        for k in range(nops):
            a = first.operands[k]
            b = v.operands[k]
            if a is b:
                continue
            if isinstance(a, ConstantInt) or isinstance(b, ConstantInt):
                return None
            if a.type is not b.type:
                return None
            if needed_phi:
                return None
            fixed[k] = None
            needed_phi = True
    if all_allocas:
        return None
    operand_phis: list[PHINode | None] = [None] * nops
    any_phi = False
    blocks = pn.incoming_blocks
    for k in range(nops):
        if fixed[k] is not None:
            continue
        op = first.operands[k]
        np = PHINode(op.type, name=op.name + ".pn")
        ic.insert_new_inst_before(np, pn)
        np.add_incoming(op, blocks[0])
        operand_phis[k] = np
        fixed[k] = np
        any_phi = True
    if any_phi:
        vals = pn.incoming_values
        for j in range(1, len(vals)):
            g = cast(Instruction, vals[j])
            for k in range(nops):
                p = operand_phis[k]
                if p is not None:
                    p.add_incoming(g.operands[k], blocks[j])
    ops = cast("list[Value]", fixed)
    new = GetElementPtrInst(first.source_element_type, ops[0], ops[1:], flags=nw)
    _merge_debug_loc(new, pn)
    return new


def _is_safe_and_profitable_to_sink_load(li: LoadInst) -> bool:
    """``isSafeAndProfitableToSinkLoad``: nothing after the load in its block writes memory,
    and the address is not a plain (non-address-taken) alloca slot."""
    node = li.next_instruction
    while node is not None:
        if node.may_write_to_memory():
            if isinstance(node, CallBase) and node.only_accesses_inaccessible_memory:
                node = node.next_instruction
                continue
            return False
        node = node.next_instruction
    ptr = li.operands[0]
    if isinstance(ptr, AllocaInst):
        taken = False
        for u in ptr.users:
            if isinstance(u, LoadInst):
                continue
            if isinstance(u, StoreInst) and u.operands[1] is ptr:
                continue
            taken = True
            break
        if not taken and ptr.is_static_alloca:
            return False
    if isinstance(ptr, GetElementPtrInst):
        base = ptr.operands[0]
        if isinstance(base, AllocaInst) and base.is_static_alloca and ptr.has_all_constant_indices:
            return False
    return True


def _is_swift_error(v: Value) -> bool:
    if isinstance(v, AllocaInst):
        return bool(v._swifterror)
    from llvmpy_mid.ir.function import Argument

    if isinstance(v, Argument):
        return v.has_attribute("swifterror")
    return False


def fold_phi_arg_load_into_phi(ic: InstCombiner, pn: PHINode) -> Instruction | None:
    """phi [load p, load q] -> load (phi [p, q]) (loads at the ends of their blocks)"""
    first = cast(LoadInst, pn.get_incoming_value(0))
    if _is_swift_error(first.operands[0]) or first.is_atomic:
        return None
    volatile = first.is_volatile
    align = first.alignment
    aspace = cast(PointerType, first.operands[0].type).address_space
    blocks = pn.incoming_blocks
    if first.parent is not blocks[0] or not _is_safe_and_profitable_to_sink_load(first):
        return None
    if volatile and first.parent.terminator.num_successors != 1:  # type: ignore[union-attr]
        return None
    vals = pn.incoming_values
    for k in range(1, len(vals)):
        li = vals[k]
        if not isinstance(li, LoadInst) or not li.has_one_user or li.is_atomic:
            return None
        if li.is_volatile != volatile or cast(PointerType, li.operands[0].type).address_space != aspace:
            return None
        if _is_swift_error(li.operands[0]):
            return None
        if li.parent is not blocks[k] or not _is_safe_and_profitable_to_sink_load(li):
            return None
        align = min(align, li.alignment)
        if volatile and li.parent.terminator.num_successors != 1:  # type: ignore[union-attr]
            return None
    in_val: Value | None = first.operands[0]
    np = PHINode(first.operands[0].type, name=pn.name + ".in")
    np.add_incoming(first.operands[0], blocks[0])
    for k in range(1, len(vals)):
        p = cast(LoadInst, vals[k]).operands[0]
        if p is not in_val:
            in_val = None
        np.add_incoming(p, blocks[k])
    new_ptr: Value
    if in_val is not None:
        np.drop_all_references()
        new_ptr = in_val
    else:
        ic.insert_new_inst_before(np, pn)
        new_ptr = np
    new = LoadInst(first.type, new_ptr, volatile=volatile, alignment=align)
    for kind in _LOAD_MD_KINDS:
        md = first.get_metadata(kind)
        if md is not None:
            new.set_metadata(kind, md)
    from llvmpy_mid.transform.utils.local_metadata import combine_metadata_for_cse

    for v in vals[1:]:
        # LLVM combineMetadata(NewLI, LI, KnownIDs, /*DoesKMove=*/true): NewLI carries only KnownIDs.
        combine_metadata_for_cse(new, cast(LoadInst, v), True)
    if volatile:
        for v in vals:
            cast(LoadInst, v).volatile = False
    _merge_debug_loc(new, pn)
    return new


def fold_phi_arg_op_into_phi(ic: InstCombiner, pn: PHINode) -> Instruction | None:
    """phi [op(a, C), op(b, C)] -> op(phi [a, b], C); likewise casts of one source type"""
    if _terminator_is_eh_pad(pn.parent):  # type: ignore[arg-type]
        return None
    first = cast(Instruction, pn.get_incoming_value(0))
    if isinstance(first, GetElementPtrInst):
        return fold_phi_arg_gep_into_phi(ic, pn)
    if isinstance(first, LoadInst):
        return fold_phi_arg_load_into_phi(ic, pn)
    if isinstance(first, InsertValueInst):
        return fold_phi_arg_insert_value_into_phi(ic, pn)
    if isinstance(first, ExtractValueInst):
        return fold_phi_arg_extract_value_into_phi(ic, pn)
    const_op: Constant | None = None
    cast_src = None
    if isinstance(first, CastInst):
        cast_src = first.operands[0].type
        if isinstance(pn.type, IntegerType) and isinstance(cast_src, IntegerType):
            if not should_change_type(ic, pn.type.width, cast_src.width):
                return None
    elif isinstance(first, (BinaryOperator, CmpInst)):
        op1 = first.operands[1]
        if not isinstance(op1, Constant):
            return fold_phi_arg_bin_op_into_phi(ic, pn)
        const_op = op1
    else:
        return None
    vals = pn.incoming_values
    for v in vals[1:]:
        if not isinstance(v, Instruction) or not v.has_one_user or not v.is_same_operation_as(first):
            return None
        if cast_src is not None:
            if v.operands[0].type is not cast_src:
                return None
        elif v.operands[1] is not const_op:
            return None
    blocks = pn.incoming_blocks
    in_val: Value | None = first.operands[0]
    np = PHINode(first.operands[0].type, [(first.operands[0], blocks[0])], name=pn.name + ".in")
    for k in range(1, len(vals)):
        nv = cast(Instruction, vals[k]).operands[0]
        if nv is not in_val:
            in_val = None
        np.add_incoming(nv, blocks[k])
    phi_val: Value
    if in_val is not None:
        np.drop_all_references()
        phi_val = in_val
    else:
        ic.insert_new_inst_before(np, pn)
        phi_val = np
    new: Instruction
    if isinstance(first, CastInst):
        new = CastInst.create(first.opcode, phi_val, pn.type)
    elif isinstance(first, BinaryOperator):
        assert const_op is not None
        bo = BinaryOperator.create(first.opcode, phi_val, const_op)
        _and_ir_flags(bo, vals)
        new = bo
    else:
        assert const_op is not None and isinstance(first, CmpInst)
        if isinstance(first, ICmpInst):
            new = ICmpInst(first.predicate, phi_val, const_op)
        else:
            new = FCmpInst(first.predicate, phi_val, const_op)
    _merge_debug_loc(new, pn)
    return new


def fold_integer_typed_phi(ic: InstCombiner, pn: PHINode) -> bool:
    """phi iN [ptrtoint p, ...] used as inttoptr -> phi ptr [p, ...] (an existing pointer phi when one matches)"""
    if not isinstance(pn.type, IntegerType) or not pn.has_one_use:
        return False
    i2p = pn._use_head.user  # type: ignore[union-attr]
    if not (isinstance(i2p, CastInst) and i2p.opcode == "inttoptr"):
        return False
    ptr_ty = i2p.type
    has_pointer_use = False
    for u in i2p.users:
        if isinstance(u, LoadInst) and u.operands[0] is i2p:
            has_pointer_use = True
        elif isinstance(u, StoreInst) and u.operands[1] is i2p:
            has_pointer_use = True
        elif isinstance(u, GetElementPtrInst) and u.operands[0] is i2p:
            has_pointer_use = True
        if has_pointer_use:
            break
    if not has_pointer_use:
        return False
    if not isinstance(ptr_ty, PointerType):
        return False
    dl = ic.dl
    if dl.pointer_size_in_bits(ptr_ty.address_space) != dl.type_size_in_bits(i2p.operands[0].type):
        return False
    dt = ic.dt
    avail: list[Value] = []
    for bb, arg in zip(pn.incoming_blocks, pn.incoming_values):
        if isinstance(arg, CastInst) and arg.opcode == "ptrtoint":
            avail.append(arg.operands[0])
            continue
        found: Value | None = None
        for u in arg.users:
            if (
                isinstance(u, CastInst)
                and u.opcode == "inttoptr"
                and u.type is ptr_ty
                and (u.parent is bb or _inst_dominates_block(dt, u, bb))
            ):
                found = u
                break
        if found is not None:
            avail.append(found)
            continue
        if isinstance(arg, PHINode):
            avail.append(arg)
            continue
        if not isinstance(arg, LoadInst) or not arg.has_one_use:
            return False
        avail.append(arg)
    bb0 = pn.parent
    assert bb0 is not None
    matching: PHINode | None = None
    nphis = 0
    blocks = pn.incoming_blocks
    for ptr_phi in bb0.phis():
        nphis += 1
        if nphis > 513:
            return False
        if ptr_phi is pn or ptr_phi.type is not ptr_ty:
            continue
        if any(_incoming_for(ptr_phi, b) is not v for b, v in zip(blocks, avail)):
            continue
        matching = ptr_phi
        break
    if matching is not None:
        ic.replace_inst_uses_with(i2p, matching)
        ic.erase_inst_from_function(i2p)
        ic.erase_inst_from_function(pn)
        return True
    if all(v.type is not ptr_ty or (isinstance(v, CastInst) and v.opcode == "inttoptr") for v in avail):
        return False
    for v in avail:
        if v.type is ptr_ty or not isinstance(v, Instruction):
            continue
        if v.is_terminator:
            return False
        if isinstance(v, PHINode) and v.parent is not None and v.parent.first_insertion_point is None:
            return False
    new_phi = PHINode(ptr_ty, name=pn.name + ".ptr")
    ic.insert_new_inst_before(new_phi, pn)
    casts: dict[int, Instruction] = {}
    for bb, v in zip(blocks, avail):
        if v.type is ptr_ty:
            new_phi.add_incoming(v, bb)
            continue
        ci = casts.get(id(v))
        if ci is None:
            opc = "inttoptr" if isinstance(v.type, IntegerType) else ("ptrtoint" if isinstance(ptr_ty, IntegerType) else "bitcast")
            ci = CastInst.create(opc, v, ptr_ty, name=v.name + ".ptr" if v.name else "")
            if isinstance(v, Instruction):
                vb = v.parent
                assert vb is not None
                pos = vb.first_insertion_point if isinstance(v, PHINode) else v.next_instruction
                assert pos is not None
                ic.insert_new_inst_before(ci, pos)
            else:
                fn = bb.parent
                assert fn is not None and fn.entry_block is not None
                pos2 = fn.entry_block.first_insertion_point
                assert pos2 is not None
                ic.insert_new_inst_before(ci, pos2)
            casts[id(v)] = ci
        new_phi.add_incoming(ci, bb)
    ic.replace_inst_uses_with(i2p, new_phi)
    ic.erase_inst_from_function(i2p)
    ic.erase_inst_from_function(pn)
    return True


def _incoming_for(pn: PHINode, bb: BasicBlock) -> Value | None:
    k = pn.basic_block_index(bb)
    return pn.get_incoming_value(k) if k >= 0 else None


def _inst_dominates_block(dt: DominatorTree, i: Instruction, bb: BasicBlock) -> bool:
    """``DominatorTree::dominates(const Instruction *, const BasicBlock *)``."""
    if not dt.is_reachable(bb):
        return True
    ib = i.parent
    if ib is None or not dt.is_reachable(ib):
        return False
    if ib is bb:
        return False
    return dt.dominates_block(ib, bb)

def slice_up_illegal_integer_phi(ic: InstCombiner, first: PHINode) -> Instruction | None:
    """phi iN (illegal) only used by trunc / trunc(lshr C) -> one narrow phi per extracted piece"""
    users: list[tuple[int, int, Instruction]] = []
    to_slice: list[PHINode] = [first]
    inspected: set[PHINode] = {first}
    k = 0
    while k < len(to_slice):
        pn = to_slice[k]
        for bb, v in zip(pn.incoming_blocks, pn.incoming_values):
            if isinstance(v, Instruction) and v.opcode == "invoke" and v.parent is bb:
                return None
        for bb in pn.incoming_blocks:
            if bb.first_insertion_point is None:
                return None
        for u in pn.users:
            if isinstance(u, PHINode):
                if u not in inspected:
                    inspected.add(u)
                    to_slice.append(u)
                continue
            if isinstance(u, CastInst) and u.opcode == "trunc":
                users.append((k, 0, u))
                continue
            if not (isinstance(u, Instruction) and u.opcode == "lshr" and u.has_one_use):
                return None
            t = u._use_head.user  # type: ignore[union-attr]
            amt = u.operands[1]
            if not (isinstance(t, CastInst) and t.opcode == "trunc") or not isinstance(amt, ConstantInt):
                return None
            if amt.value >= cast(IntegerType, u.type).width:
                return None
            users.append((k, amt.value, t))
        k += 1
    if not users:
        return ic.replace_inst_uses_with(first, PoisonValue.get(first.type))
    users.sort(key=lambda r: (r[0], r[1], cast(IntegerType, r[2].type).width))
    extracted: dict[tuple[int, int, int], PHINode] = {}
    b = ic.builder
    idx = 0
    while idx < len(users):
        phi_id, offset, inst = users[idx]
        pn = to_slice[phi_id]
        ty = inst.type
        width = cast(IntegerType, ty).width
        key = (id(pn), offset, width)
        elt = extracted.get(key)
        if elt is None:
            elt = PHINode(ty, name=pn.name + ".off" + str(offset))
            elt.insert_before(pn)
            ic.worklist.add(elt)
            pred_values: dict[BasicBlock, Value] = {}
            for pred, in_val in zip(pn.incoming_blocks, pn.incoming_values):
                pv = pred_values.get(pred)
                if pv is not None:
                    elt.add_incoming(pv, pred)
                    continue
                if in_val is pn:
                    pred_values[pred] = elt
                    elt.add_incoming(elt, pred)
                    continue
                term = pred.terminator
                assert term is not None
                b.position_before(term)
                res: Value = in_val
                if offset:
                    res = b.create_lshr(res, ConstantInt.get(in_val.type, offset), "extract")
                res = b.create_trunc(res, ty, "extract.t")
                pred_values[pred] = res
                elt.add_incoming(res, pred)
                if isinstance(in_val, PHINode) and in_val in inspected and isinstance(res, Instruction):
                    users.append((to_slice.index(in_val), offset, res))
            extracted[key] = elt
        ic.replace_inst_uses_with(inst, elt)
        idx += 1
    poison = PoisonValue.get(first.type)
    for other in to_slice[1:]:
        ic.replace_inst_uses_with(other, poison)
    return ic.replace_inst_uses_with(first, poison)


# --- phi cycles and webs -----------------------------------------------------------------------


def _is_dead_phi_cycle(pn: PHINode, seen: set[PHINode]) -> bool:
    """``isDeadPHICycle``: ``pn`` is only used by a cycle of single-use phis."""
    cur = pn
    while True:
        if cur._use_head is None:
            return True
        if not cur.has_one_use:
            return False
        if cur in seen:
            return True
        seen.add(cur)
        if len(seen) == 16:
            return False
        user = cur._use_head.user
        if not isinstance(user, PHINode):
            return False
        cur = user


def _phis_equal_value(pn: PHINode, non_phi: list[Value | None], seen: set[PHINode]) -> bool:
    """``PHIsEqualValue``: ``pn`` always equals ``non_phi[0]`` (cyclic phis merging one value)."""
    if pn in seen:
        return True
    seen.add(pn)
    if len(seen) == 16:
        return False
    for op in pn.incoming_values:
        if isinstance(op, PHINode):
            if not _phis_equal_value(op, non_phi, seen):
                if non_phi[0] is not None:
                    return False
                non_phi[0] = op
        elif op is not non_phi[0]:
            return False
    return True


def _any_non_zero_const_int(pn: PHINode) -> ConstantInt:
    """``getAnyNonZeroConstInt``: an incoming non-zero ConstantInt, else 1."""
    for v in pn.incoming_values:
        if isinstance(v, ConstantInt) and v.value != 0:
            return v
    return ConstantInt.get(pn.type, 1)


def _edge_dominates_edge(ic: InstCombiner, s1: BasicBlock, e1: BasicBlock, s2: BasicBlock, e2: BasicBlock) -> bool:
    """``DominatorTree::dominates(BasicBlockEdge, BasicBlockEdge)``."""
    if s1 is s2 and e1 is e2:
        return True
    return bool(ic.dt._edge_dominates_block(s1, e1, s2))


def simplify_using_control_flow(ic: InstCombiner, pn: PHINode) -> Value | None:
    """phi [true, false] after ``br cond`` -> cond (or ``not cond``); likewise switch case values"""
    vals = pn.incoming_values
    for v in vals:
        if not isinstance(v, ConstantInt):
            return None
    bb = pn.parent
    assert bb is not None
    dt = ic.dt
    if not dt.is_reachable(bb):
        return None
    idom = dt.idom(bb)
    if idom is None:
        return None
    term = idom.terminator
    succ_for: dict[int, BasicBlock] = {}
    succ_count: dict[BasicBlock, int] = {}
    ctx = pn.type.context
    if isinstance(term, BranchInst):
        if not term.is_conditional:
            return None
        cond = term.condition
        s0 = term.get_successor(0)
        s1 = term.get_successor(1)
        succ_for[id(ConstantInt.get(ctx.i1, 1))] = s0
        succ_count[s0] = succ_count.get(s0, 0) + 1
        succ_for[id(ConstantInt.get(ctx.i1, 0))] = s1
        succ_count[s1] = succ_count.get(s1, 0) + 1
    elif isinstance(term, SwitchInst):
        cond = term.condition
        d = term.default_dest
        succ_count[d] = succ_count.get(d, 0) + 1
        for cv, dest in term.cases:
            succ_for[id(cv)] = dest
            succ_count[dest] = succ_count.get(dest, 0) + 1
    else:
        return None
    if cond.type is not pn.type:
        return None
    invert: bool | None = None
    for v, pred in pn.incoming:

        def correct(c: Constant) -> bool:
            s = succ_for.get(id(c))
            return (
                s is not None and succ_count[s] == 1 and _edge_dominates_edge(ic, idom, s, pred, bb)
            )

        ci = cast(ConstantInt, v)
        if correct(ci):
            needs = False
        else:
            mask = (1 << ci.type.width) - 1
            if correct(ConstantInt.get(ci.type, ci.value ^ mask)):
                needs = True
            else:
                return None
        if invert is not None and invert != needs:
            return None
        invert = needs
    if not invert:
        return cond
    ip = bb.first_insertion_point
    if ip is not None:
        ic.builder.position_before(ip)
        return ic.builder.create_not(cond)
    return None


def fold_dependent_ivs(ic: InstCombiner, pn: PHINode) -> Value | None:
    """iv = phi(start, iv2.next op start), iv2 = phi(identity, iv2 + step) -> iv2 op start"""
    bb = pn.parent
    assert bb is not None
    if pn.num_incoming != 2:
        return None
    found: tuple[Value, Instruction, BinaryOperator] | None = None
    for v1, v2 in ((pn.get_incoming_value(0), pn.get_incoming_value(1)), (pn.get_incoming_value(1), pn.get_incoming_value(0))):
        if isinstance(v2, BinaryOperator):
            ops = v2.operands
            if ops[0] is v1 and isinstance(ops[1], BinaryOperator):
                found = (v1, v2, ops[1])
            elif ops[1] is v1 and isinstance(ops[0], BinaryOperator):
                found = (v1, v2, ops[0])
        elif isinstance(v2, GetElementPtrInst) and len(v2.operands) == 2 and v2.operands[0] is v1:
            if isinstance(v2.operands[1], BinaryOperator):
                found = (v1, v2, v2.operands[1])
        if found is not None:
            break
    if found is None:
        return None
    start, iv_next, iv2_next = found
    iv2 = None
    for k in (0, 1):
        cand = iv2_next.operands[k]
        if isinstance(cand, PHINode):
            iv2 = cand
            break
    if iv2 is None:
        return None
    rec = match_simple_recurrence(iv2)
    if rec is None or rec[0] is not iv2_next or iv2.parent is not bb:
        return None
    iv2_start = rec[1]
    if isinstance(iv_next, BinaryOperator):
        identity = get_bin_op_identity(iv_next.opcode, iv2_start.type, False)
    else:
        identity = Constant.get_null_value(iv2_start.type)
    if iv2_start is not identity:
        return None
    ip = bb.first_insertion_point
    b = ic.builder
    if ip is None:
        b.position_at_end(bb)
    else:
        b.position_before(ip)
    if isinstance(iv_next, GetElementPtrInst):
        return b.create_gep(iv_next.source_element_type, start, [iv2], "", flags=int(iv_next.gep_flags))
    bo = cast(BinaryOperator, iv_next)
    res = b.create_bin_op(bo.opcode, iv2, start)
    if isinstance(res, BinaryOperator):
        res._flags = bo.flags_word
    return res


# --- the visitor ---------------------------------------------------------------------------------


def visit_phi(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``phi`` (LLVM ``InstCombinerImpl::visitPHINode``)."""
    pn = cast(PHINode, i)
    v = simplify_instruction(pn, ic.query(pn))
    if v is not None:
        return ic.replace_inst_uses_with(pn, v)
    r = fold_phi_arg_zexts_into_phi(ic, pn)
    if r is not None:
        return r
    r = fold_phi_arg_int_to_ptr_to_phi(ic, pn)
    if r is not None:
        return r
    if pn.num_incoming >= 2:
        inst0 = pn.get_incoming_value(0)
        inst1 = pn.get_incoming_value(1)
        if (
            isinstance(inst0, Instruction)
            and isinstance(inst1, Instruction)
            and inst0.opcode == inst1.opcode
            and inst0.has_one_user
        ):
            r = fold_phi_arg_op_into_phi(ic, pn)
            if r is not None:
                return r
    bb = pn.parent
    assert bb is not None
    # A phi of pointer casts of one pointer: one cast.
    if isinstance(pn.type, PointerType) and bb.first_insertion_point is not None and pn.num_incoming:
        iv0 = pn.get_incoming_value(0)
        stripped = strip_pointer_casts(iv0)
        if iv0 is not stripped:
            checked = {id(iv0)}
            ok = True
            for iv in pn.incoming_values:
                if id(iv) in checked:
                    continue
                checked.add(id(iv))
                if strip_pointer_casts(iv) is not stripped:
                    ok = False
                    break
            if ok:
                return _pointer_cast(stripped, pn.type)
    if pn.has_one_use:
        if fold_integer_typed_phi(ic, pn):
            return None
        user = pn._use_head.user  # type: ignore[union-attr]
        if isinstance(user, PHINode):
            if _is_dead_phi_cycle(user, {pn}):
                return ic.replace_inst_uses_with(pn, PoisonValue.get(pn.type))
        if (
            isinstance(user, (BinaryOperator, UnaryOperator, GetElementPtrInst))
            and user.has_one_use
            and user._use_head.user is pn  # type: ignore[union-attr]
        ):
            return ic.replace_inst_uses_with(pn, PoisonValue.get(pn.type))
    # A phi only compared with zero: known non-zero inputs become one non-zero constant.
    if not pn.has_n_uses_or_more(3):
        r = _fold_phi_compared_with_zero(ic, pn)
        if r is not None:
            return r
    # Phi webs merging one value.
    n = pn.num_incoming
    vals = pn.incoming_values
    k = 0
    while k != n and isinstance(vals[k], PHINode):
        k += 1
    non_phi: Value | None = vals[k] if k != n else None
    if non_phi is not None:
        k += 1
        while k != n:
            if vals[k] is not non_phi and not isinstance(vals[k], PHINode):
                break
            k += 1
    if k == n:
        box: list[Value | None] = [non_phi]
        if _phis_equal_value(pn, box, set()):
            res = box[0]
            if res is not None:
                return ic.replace_inst_uses_with(pn, res)
    # The incoming-block order of the block's first visited phi.
    orders = ic.extra.get("phi.pred_order")
    if orders is None:
        orders = {}
        ic.extra["phi.pred_order"] = orders
    order_map = cast("dict[BasicBlock, list[BasicBlock]]", orders)
    preds = order_map.get(bb)
    if preds is not None:
        for idx in range(n):
            bba = pn.get_incoming_block(idx)
            bbb = preds[idx] if idx < len(preds) else bba
            if bba is not bbb:
                va = pn.get_incoming_value(idx)
                j = pn.basic_block_index(bbb)
                if j < 0:
                    continue
                vb = pn.get_incoming_value(j)
                pn.set_incoming_block(idx, bbb)
                pn.set_incoming_value(idx, vb)
                pn.set_incoming_block(j, bba)
                pn.set_incoming_value(j, va)
    else:
        order_map[bb] = pn.incoming_blocks
    # An identical phi in the block.
    for other in bb.phis():
        if other is pn:
            continue
        if pn.is_identical_to_when_defined(other):
            return ic.replace_inst_uses_with(pn, other)
    if isinstance(pn.type, IntegerType) and not ic.dl.is_legal_integer(pn.type.width):
        r = slice_up_illegal_integer_phi(ic, pn)
        if r is not None:
            return r
    v = simplify_using_control_flow(ic, pn)
    if v is not None:
        return ic.replace_inst_uses_with(pn, v)
    v = fold_dependent_ivs(ic, pn)
    if v is not None:
        return ic.replace_inst_uses_with(pn, v)
    return None


def _pointer_cast(v: Value, ty: object) -> Instruction:
    """``CastInst::CreatePointerCast``: addrspacecast across address spaces, else bitcast."""
    src_as = v.type.scalar_type.address_space if isinstance(v.type.scalar_type, PointerType) else 0
    dst_as = ty.address_space if isinstance(ty, PointerType) else 0
    return CastInst.create("addrspacecast" if src_as != dst_as else "bitcast", v, ty)  # type: ignore[arg-type]


def _fold_phi_compared_with_zero(ic: InstCombiner, pn: PHINode) -> Instruction | None:
    """phi [v, ...] only compared ==/!= 0 (maybe through an or): known non-zero v -> a non-zero constant"""
    if not isinstance(pn.type, IntegerType):
        return None
    drop: list[Instruction] = []
    p_or = m_c_or(m_specific(pn), m_value())
    for u in pn.users:
        cmp = u if isinstance(u, ICmpInst) else None
        if cmp is None:
            if u.has_one_use and match(u, p_or) is not None:
                drop.append(cast(Instruction, u))
                nxt = u._use_head.user  # type: ignore[union-attr]
                cmp = nxt if isinstance(nxt, ICmpInst) else None
        if cmp is None or not cmp.predicate.is_equality:
            return None
        rhs = cmp.operands[1]
        if not (isinstance(rhs, Constant) and rhs.is_null_value):
            return None
    nz: ConstantInt | None = None
    changed = False
    for idx in range(pn.num_incoming):
        ctx_i = pn.get_incoming_block(idx).terminator
        va = pn.get_incoming_value(idx)
        if is_known_non_zero(va, ic.query(ctx_i)):
            if nz is None:
                nz = _any_non_zero_const_int(pn)
            if nz is not va:
                ic.replace_operand(pn, idx, nz)
                for d in drop:
                    d.drop_poison_generating_flags()  # type: ignore[attr-defined]
                changed = True
    return pn if changed else None


__all__ = [
    "fold_dependent_ivs",
    "fold_integer_typed_phi",
    "fold_phi_arg_bin_op_into_phi",
    "fold_phi_arg_extract_value_into_phi",
    "fold_phi_arg_gep_into_phi",
    "fold_phi_arg_insert_value_into_phi",
    "fold_phi_arg_int_to_ptr_to_phi",
    "fold_phi_arg_load_into_phi",
    "fold_phi_arg_op_into_phi",
    "fold_phi_arg_zexts_into_phi",
    "should_change_type",
    "simplify_using_control_flow",
    "slice_up_illegal_integer_phi",
    "visit_phi",
]
