"""Metadata kept when instructions are merged or re-typed (LLVM 19.1.7
``llvm/lib/Transforms/Utils/Local.cpp``: ``copyMetadataForLoad``, ``combineMetadataForCSE``;
``llvm/lib/IR/Metadata.cpp``: ``MDNode::intersect``, ``getMostGenericAliasScope``,
``getMostGenericFPMath``, ``getMostGenericRange``, ``getMostGenericAlignmentOrDereferenceable``).

What: the rules InstCombine, SimplifyCFG's hoisting, sinking and merged conditional stores, and
later passes share for the metadata of a merged or re-typed instruction; and
``patchReplacementInstruction`` (with ``Instruction::andIRFlags``), which GVN uses to make a
replacement no more restrictive than the value it replaces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.debug_records import DbgVariableRecord
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.metadata_merge import md_intersect, most_generic_alias_scope

if TYPE_CHECKING:
    from llvmpy_mid.ir.metadata import MDNode
    from llvmpy_mid.ir.value import Value


_LOAD_MD_DIRECT = (
    "tbaa", "prof", "fpmath", "tbaa.struct", "invariant.load", "alias.scope", "noalias",
    "nontemporal", "llvm.mem.parallel_loop_access", "llvm.access.group", "noundef",
)  # fmt: skip


def _copy_nonnull_metadata(node: MDNode, dest: LoadInst) -> None:
    """LLVM ``copyNonnullMetadata``: kept on a pointer load, ``!range [1, 0)`` on an integer one."""
    from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode as _MDNode

    new_ty = dest.type
    if new_ty.is_pointer:
        dest.set_metadata("nonnull", node)
    elif new_ty.is_integer:
        ops = [ConstantAsMetadata.get(ConstantInt.get(new_ty, 1)), ConstantAsMetadata.get(ConstantInt.get(new_ty, 0))]
        dest.set_metadata("range", _MDNode.get(new_ty.context, ops))


def _copy_range_metadata(source: LoadInst, node: MDNode, dest: LoadInst) -> None:
    """LLVM ``copyRangeMetadata``: kept for the same type; ``!nonnull`` on a pointer load of the
    same width when the range excludes zero."""
    from llvmpy_mid.analysis.value_tracking_support import _range_md_excludes
    from llvmpy_mid.ir.metadata import MDNode as _MDNode

    new_ty = dest.type
    if new_ty is source.type:
        dest.set_metadata("range", node)
        return
    if not new_ty.is_pointer:
        return
    fn = dest.function
    module = fn.parent if fn is not None else None
    if module is None:
        return
    width = module.data_layout.type_size_in_bits(new_ty)
    old_ty = source.type.scalar_type
    if old_ty.is_integer and width == old_ty.width and _range_md_excludes(node, 0):  # type: ignore[attr-defined]
        dest.set_metadata("nonnull", _MDNode.get(new_ty.context, []))


def copy_metadata_for_load(dest: LoadInst, source: LoadInst) -> None:
    """Copy what still applies to a load of another type (LLVM ``copyMetadataForLoad``)."""
    new_ty = dest.type
    for kind, node in source.metadata_items():
        if kind == "dbg":
            continue
        if kind in _LOAD_MD_DIRECT:
            dest.set_metadata(kind, node)
        elif kind == "nonnull":
            _copy_nonnull_metadata(node, dest)
        elif kind in ("align", "dereferenceable", "dereferenceable_or_null"):
            if new_ty.is_pointer:
                dest.set_metadata(kind, node)
        elif kind == "range":
            _copy_range_metadata(source, node, dest)


_CSE_KNOWN = (
    "tbaa", "alias.scope", "noalias", "range", "fpmath", "invariant.load", "nonnull", "invariant.group",
    "align", "dereferenceable", "dereferenceable_or_null", "llvm.access.group", "llvm.preserve.access.index",
    "prof", "nontemporal", "noundef", "mmra",
)  # fmt: skip


_AA_KNOWN = ("tbaa", "alias.scope", "noalias", "invariant.group", "llvm.access.group")


def combine_metadata_for_cse(k: Instruction, j: Instruction, k_dominates_j: bool) -> None:
    """Keep on ``k`` only the metadata that also holds for ``j`` (LLVM
    ``combineMetadataForCSE``; differing TBAA/scope/range/fpmath nodes are dropped
    rather than generalised)."""
    combine_metadata(k, j, _CSE_KNOWN, k_dominates_j)


def combine_aa_metadata(k: Instruction, j: Instruction) -> None:
    """LLVM ``combineAAMetadata``: ``k`` keeps only its alias-analysis metadata (and debug
    metadata), generalised to hold for ``j`` too, as when ``k`` replaces ``j``."""
    combine_metadata(k, j, _AA_KNOWN, True)


def combine_metadata(k: Instruction, j: Instruction, known: tuple[str, ...], does_k_move: bool) -> None:
    """LLVM ``combineMetadata``: drop from ``k`` every kind not in ``known`` (debug
    metadata stays; ``!DIAssignID`` is merged with ``j``'s), and generalise each kept kind
    so it holds for ``j`` too."""
    k.drop_unknown_non_debug_metadata(known)
    has_noundef = k.get_metadata("noundef") is not None
    for kind, kmd in list(k.metadata_items()):
        if kind == "dbg":
            continue
        jmd = j.get_metadata(kind)
        if kind == "DIAssignID":
            merge_di_assign_id(k, [j])
        elif kind in ("noalias", "llvm.mem.parallel_loop_access"):
            k.set_metadata(kind, md_intersect(jmd, kmd))
        elif kind == "alias.scope":
            k.set_metadata(kind, most_generic_alias_scope(jmd, kmd))
        elif kind == "llvm.access.group":
            k.set_metadata(kind, _intersect_access_groups(k, j))
        elif kind == "tbaa":
            from llvmpy_mid.analysis.type_based_alias_analysis import get_most_generic_tbaa

            k.set_metadata(kind, get_most_generic_tbaa(jmd, kmd))
        elif kind == "fpmath":
            k.set_metadata(kind, most_generic_fpmath(jmd, kmd))
        elif kind == "range":
            if does_k_move or not has_noundef:
                k.set_metadata(kind, most_generic_range(jmd, kmd))
        elif kind == "invariant.load":
            if does_k_move:
                k.set_metadata(kind, jmd)
        elif kind == "nonnull":
            if does_k_move or not has_noundef:
                k.set_metadata(kind, jmd)
        elif kind == "align":
            if does_k_move or not has_noundef:
                k.set_metadata(kind, most_generic_align(jmd, kmd))
        elif kind in ("dereferenceable", "dereferenceable_or_null"):
            if does_k_move:
                k.set_metadata(kind, most_generic_align(jmd, kmd))
        elif kind == "noundef":
            if does_k_move:
                k.set_metadata(kind, jmd)
        elif kind == "nontemporal":
            k.set_metadata(kind, jmd)
        elif kind == "prof":
            if does_k_move:
                from llvmpy_mid.ir.prof_data_utils import get_merged_prof_metadata

                k.set_metadata(kind, get_merged_prof_metadata(kmd, jmd, k, j))
    jig = j.get_metadata("invariant.group")
    if jig is not None and isinstance(k, (LoadInst, StoreInst)):
        k.set_metadata("invariant.group", jig)


def _intersect_access_groups(i1: Instruction, i2: Instruction) -> MDNode | None:
    """LLVM ``intersectAccessGroups``."""
    from llvmpy_mid.ir.metadata import MDNode

    m1 = i1.may_read_or_write_memory()
    m2 = i2.may_read_or_write_memory()
    if not m1 and not m2:
        return None
    if not m1:
        return i2.get_metadata("llvm.access.group")
    if not m2:
        return i1.get_metadata("llvm.access.group")
    a = i1.get_metadata("llvm.access.group")
    b = i2.get_metadata("llvm.access.group")
    if a is None or b is None:
        return None
    if a is b:
        return a
    groups = {id(a)} if a.num_operands == 0 else {id(x) for x in a.operands}
    items: list[object] = [b] if b.num_operands == 0 else list(b.operands)
    inter = [x for x in items if id(x) in groups]
    if not inter:
        return None
    if len(inter) == 1:
        return cast(MDNode, inter[0])
    return MDNode.get(a.context, inter)  # type: ignore[arg-type]


def _md_const(node: object) -> int | None:
    from llvmpy_mid.ir.metadata import ConstantAsMetadata

    ops = getattr(node, "operands", None)
    if ops and isinstance(ops[0], ConstantAsMetadata) and isinstance(ops[0].value, ConstantInt):
        return ops[0].value.value
    return None


def most_generic_fpmath(a: MDNode | None, b: MDNode | None) -> MDNode | None:
    """``MDNode::getMostGenericFPMath``: the node with the smaller accuracy."""
    from llvmpy_mid.ir.constants import ConstantFP
    from llvmpy_mid.ir.metadata import ConstantAsMetadata

    if a is None or b is None:
        return None
    oa = a.get_operand(0)
    ob = b.get_operand(0)
    if not isinstance(oa, ConstantAsMetadata) or not isinstance(ob, ConstantAsMetadata):
        return None
    va = oa.value
    vb = ob.value
    if not isinstance(va, ConstantFP) or not isinstance(vb, ConstantFP):
        return None
    return a if va.value < vb.value else b


def most_generic_range(a: MDNode | None, b: MDNode | None) -> MDNode | None:
    """``MDNode::getMostGenericRange``: the union of two ``!range`` lists, overlapping
    or adjacent intervals merged (also across the wrap), none when it covers everything."""
    from llvmpy_mid.analysis.constant_range import ConstantRange
    from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode, ValueAsMetadata

    if a is None or b is None:
        return None
    if a is b:
        return a

    def ints(node: MDNode) -> list[ConstantInt] | None:
        out: list[ConstantInt] = []
        for i in range(node.num_operands):
            op = node.get_operand(i)
            if not isinstance(op, ConstantAsMetadata) or not isinstance(op.value, ConstantInt):
                return None
            out.append(op.value)
        return out

    av = ints(a)
    bv = ints(b)
    if av is None or bv is None or not av:
        return None
    ty = av[0].type
    width = av[0].type.width
    ends: list[int] = []

    def try_merge(lo: int, hi: int) -> bool:
        new = ConstantRange(width, lo, hi)
        last = ConstantRange(width, ends[-2], ends[-1])
        contiguous = last.upper == new.lower or last.lower == new.upper
        if new.intersect_with(last).is_empty_set() and not contiguous:
            return False
        union = last.union_with(new)
        ends[-2] = union.lower
        ends[-1] = union.upper
        return True

    def add(lo: ConstantInt, hi: ConstantInt) -> None:
        if ends and try_merge(lo.zext_value, hi.zext_value):
            return
        ends.append(lo.zext_value)
        ends.append(hi.zext_value)

    ai = bi = 0
    an = len(av) // 2
    bn = len(bv) // 2
    while ai < an and bi < bn:
        if av[2 * ai].sext_value < bv[2 * bi].sext_value:
            add(av[2 * ai], av[2 * ai + 1])
            ai += 1
        else:
            add(bv[2 * bi], bv[2 * bi + 1])
            bi += 1
    while ai < an:
        add(av[2 * ai], av[2 * ai + 1])
        ai += 1
    while bi < bn:
        add(bv[2 * bi], bv[2 * bi + 1])
        bi += 1
    if len(ends) > 2 and try_merge(ends[0], ends[1]):
        del ends[0:2]
    if len(ends) == 2 and ConstantRange(width, ends[0], ends[1]).is_full_set():
        return None
    return MDNode.get(a.context, [ValueAsMetadata.get(ConstantInt.get(ty, v)) for v in ends])


def most_generic_align(a: MDNode | None, b: MDNode | None) -> MDNode | None:
    """``getMostGenericAlignmentOrDereferenceable``: the smaller of the two."""
    if a is None or b is None:
        return None
    va = _md_const(a)
    vb = _md_const(b)
    if va is None or vb is None:
        return None
    return b if vb < va else a


__all__ = [
    "combine_aa_metadata",
    "combine_metadata",
    "combine_metadata_for_cse",
    "copy_metadata_for_load",
    "md_intersect",
    "most_generic_align",
    "most_generic_alias_scope",
    "most_generic_fpmath",
    "most_generic_range",
    "merge_di_assign_id",
]


def merge_di_assign_id(inst: Instruction, sources: list[Instruction]) -> None:
    """Give ``inst`` one ``!DIAssignID`` standing for its own and those of ``sources``,
    re-pointing every attachment and ``#dbg_assign`` record of the function that named
    another of them (LLVM ``Instruction::mergeDIAssignID`` with ``at::RAUW``).

    Not done: ``llvm.dbg.assign`` intrinsic calls (the old debug-info format) keep the
    ID they name."""
    ids: list[MDNode] = []
    for i in sources:
        md = i.get_metadata("DIAssignID")
        if md is not None:
            ids.append(md)
    own = inst.get_metadata("DIAssignID")
    if own is not None:
        ids.append(own)
    if not ids:
        return
    merged = ids[0]
    old = {id(m) for m in ids[1:] if m is not merged}
    fn = inst.function
    if old and fn is not None:
        for bb in fn.blocks:
            for other in bb.instructions:
                md = other.get_metadata("DIAssignID") if other._md else None
                if md is not None and id(md) in old:
                    other.set_metadata("DIAssignID", merged)
                for rec in other.iter_dbg_records():
                    if isinstance(rec, DbgVariableRecord) and rec.is_dbg_assign and id(rec.assign_id) in old:
                        rec.assign_id = merged
    inst.set_metadata("DIAssignID", merged)


# --- patching a replacement (Local.cpp patchReplacementInstruction) ----------------------------

_EXACT_OPS = frozenset(("udiv", "sdiv", "lshr", "ashr"))
_NNEG_OPS = frozenset(("zext", "uitofp"))
_OBO_OPS = frozenset(("add", "sub", "mul", "shl"))


def _fp_math_flags(inst: Instruction) -> int | None:
    """The fast-math word of an FP math operator (LLVM ``FPMathOperator``), else None."""
    from llvmpy_mid.ir.instructions.flags import type_supports_fast_math_flags

    op = inst.opcode
    if op in ("fneg", "fadd", "fsub", "fmul", "fdiv", "frem", "fcmp"):
        return int(inst.fast_math_flags)  # type: ignore[attr-defined]
    if op in ("phi", "select", "call") and type_supports_fast_math_flags(inst.type):
        return int(inst.fast_math_flags)  # type: ignore[attr-defined]
    return None


def and_ir_flags(dst: Instruction, src: Value) -> None:
    """Keep on ``dst`` only the optional flags ``src`` has too (LLVM ``Instruction::andIRFlags``:
    wrap flags, exact, disjoint, fast-math flags, GEP no-wrap flags, nneg)."""
    if not src.is_instruction:
        return
    s = cast(Instruction, src)
    dop, sop = dst.opcode, s.opcode
    if (dop in _OBO_OPS and sop in _OBO_OPS) or (dop == "trunc" and sop == "trunc"):
        dst.nsw = dst.nsw and s.nsw  # type: ignore[attr-defined]
        dst.nuw = dst.nuw and s.nuw  # type: ignore[attr-defined]
    if dop in _EXACT_OPS and sop in _EXACT_OPS:
        dst.exact = dst.exact and s.exact  # type: ignore[attr-defined]
    if dop == "or" and sop == "or":
        dst.disjoint = dst.disjoint and s.disjoint  # type: ignore[attr-defined]
    sf = _fp_math_flags(s)
    if sf is not None:
        df = _fp_math_flags(dst)
        if df is not None:
            dst.fast_math_flags = df & sf  # type: ignore[attr-defined]
    if dop == "getelementptr" and sop == "getelementptr":
        dst.gep_flags = int(dst.gep_flags) & int(s.gep_flags)  # type: ignore[attr-defined]
    if dop in _NNEG_OPS and sop in _NNEG_OPS:
        dst.nneg = dst.nneg and s.nneg  # type: ignore[attr-defined]


def _is_extract_of_with_overflow(i: Instruction) -> bool:
    if i.opcode != "extractvalue" or tuple(i.indices) != (0,):  # type: ignore[attr-defined]
        return False
    agg = i.get_operand(0)
    if not agg.is_instruction or agg.opcode != "call":  # type: ignore[attr-defined]
        return False
    return ".with.overflow." in agg.intrinsic_name + "."  # type: ignore[attr-defined]


def patch_replacement_instruction(i: Instruction, repl: Value) -> None:
    """Make ``repl`` no more restrictive than ``i``, which it is about to replace (LLVM
    ``patchReplacementInstruction``): its flags are intersected with ``i``'s (or, for
    an overflowing operator replacing a ``*.with.overflow`` result, dropped), its
    metadata combined as for CSE."""
    if not repl.is_instruction:
        return
    r = cast(Instruction, repl)
    if r.opcode in _OBO_OPS and _is_extract_of_with_overflow(i):
        r.drop_poison_generating_flags()  # type: ignore[attr-defined]
    elif i.opcode != "load":
        and_ir_flags(r, i)
    combine_metadata_for_cse(r, i, False)
