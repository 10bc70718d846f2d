"""The per-opcode half of the function comparator: what ``cmpOperations``
compares beyond opcode, operand count, result type, optional flags and operand
types, and ``cmpGEPs``. Split from :mod:`function_comparator` (the entry
point) to keep each module small; every function takes the comparator first.

Per opcode (LLVM 19's order, plus the safer extras marked *):

* load / store: volatile, alignment, ordering, syncscope; loads then every
  non-debug metadata attachment (count, kind ids, nodes compared structurally*);
* call / invoke / callbr: calling convention, call-site attributes, operand
  bundle schema, tail-call kind (call), indirect destination count (callbr*),
  the callee's function type*, ``!range``;
* icmp / fcmp: predicate; alloca: allocated type, alignment, inalloca and
  swifterror*; extractvalue / insertvalue: indices; fence: ordering,
  syncscope; cmpxchg: weak, volatile, both orderings, syncscope, alignment*;
  atomicrmw: operation, volatile, ordering, syncscope, alignment*;
  shufflevector: mask; phi: incoming blocks (by serial number); landingpad:
  cleanup*.

``cmp_geps``: address space; when every index is a constant integer, the byte
offsets accumulated with the DataLayout (index width, wrapping, as LLVM's
``accumulateConstantOffset``; scalable types only at index 0), otherwise the
source element type, operand count and operands; then the result type* and
the no-wrap flags* (inbounds, nusw, nuw -- LLVM 19 ignores them).

The optional-flags word (:func:`optional_word`) is LLVM's raw optional data:
nuw/nsw, exact, disjoint, nneg or the fast-math flags.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, cast

from llvmpy_mid.ir.pointer_casts import accumulate_constant_offset
from llvmpy_mid.ir.attribute_kinds import AttrForm, AttrKind, kind_form
from llvmpy_mid.ir.attributes import Attribute, AttributeList
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.inline_asm import InlineAsm
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.cmp import CmpInst, FCmpInst
from llvmpy_mid.ir.instructions.eh import LandingPadInst
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import (
    AllocaInst,
    AtomicCmpXchgInst,
    AtomicRMWInst,
    FenceInst,
    LoadInst,
    StoreInst,
)
from llvmpy_mid.ir.instructions.optional_flags import FastMathFlagsInst, OptionalFlagsInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import CallBrInst
from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst, _IndexedAggregateInst
from llvmpy_mid.ir.types import IntegerType, PointerType, Type, VectorType

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.function_comparator import FunctionComparator

__all__ = ["special_state", "cmp_geps", "cmp_attrs", "cmp_inline_asm", "optional_word", "flag_text", "MD_DBG"]

MD_DBG = 0
"""The kind id of ``!dbg``, never compared."""


_TAIL_KIND_NUMBER = {"": 0, "tail": 1, "musttail": 2, "notail": 3}

# LLVM's AtomicRMWInst::BinOp order.
_RMW_ORDER = {
    name: i
    for i, name in enumerate(
        (
            "xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min", "umax", "umin",
            "fadd", "fsub", "fmax", "fmin", "uinc_wrap", "udec_wrap",
        )
    )
}  # fmt: skip

_SOLE_FLAG_NAMES = {
    "udiv": "exact",
    "sdiv": "exact",
    "lshr": "exact",
    "ashr": "exact",
    "or": "disjoint",
    "zext": "nneg",
    "uitofp": "nneg",
}


def _sign(a: object, b: object) -> int:
    return -1 if a < b else (1 if a > b else 0)  # type: ignore[operator]


def _sync_scope_key(scope: str) -> tuple[int, str]:
    # LLVM numbers singlethread 0 and system 1; other scopes follow by name.
    if scope == "singlethread":
        return (0, "")
    if scope == "":
        return (1, "")
    return (2, scope)


# --- the optional-flags word ---------------------------------------------------------------------------

_WORD_KIND: dict[type, int] = {}


def optional_word(inst: Instruction) -> int:
    """LLVM's raw optional-flags word: wrap/exact/disjoint/nneg flags or fast-math flags."""
    kind = _WORD_KIND.get(type(inst))
    if kind is None:
        if isinstance(inst, OptionalFlagsInst):
            kind = 1
        elif isinstance(inst, (FastMathFlagsInst, FCmpInst, CallInst)):
            kind = 2
        else:
            kind = 0
        _WORD_KIND[type(inst)] = kind
    if kind == 1:
        return cast(OptionalFlagsInst, inst).flags_word
    if kind == 2:
        return int(cast(FastMathFlagsInst, inst)._fmf)
    return 0


def flag_text(inst: Instruction) -> str:
    """The optional flags as LLVM spells them, for explanations."""
    word = optional_word(inst)
    if isinstance(inst, OptionalFlagsInst):
        if inst.has_wrap_flags:
            return " ".join(n for bit, n in ((1, "nuw"), (2, "nsw")) if word & bit) or "no flags"
        sole = _SOLE_FLAG_NAMES.get(inst.opcode)
        if sole is not None:
            return sole if word else "no flags"
    return FastMathFlags(word).keywords or "no flags"


def _gep_flag_text(flags: int) -> str:
    parts = []
    if flags & 1:
        parts.append("inbounds")
    elif flags & 2:
        parts.append("nusw")
    if flags & 4:
        parts.append("nuw")
    return " ".join(parts) or "no flags"


# --- per-opcode state ----------------------------------------------------------------------------------------

_Check = Callable[["FunctionComparator", Instruction, Instruction], int]


def _memory_access(fc: FunctionComparator, l: Instruction, r: Instruction) -> int:
    opcode = l.opcode
    ml = cast(LoadInst, l) if opcode == "load" else cast(StoreInst, l)
    mr = cast(LoadInst, r) if opcode == "load" else cast(StoreInst, r)
    if ml.volatile != mr.volatile:
        return fc._fail(
            _sign(ml.volatile, mr.volatile),
            "cmpOperations: %s volatile" % opcode,
            "volatile %s vs %s" % (ml.volatile, mr.volatile),
        )
    if ml.alignment != mr.alignment:
        return fc._fail(
            _sign(ml.alignment, mr.alignment),
            "cmpOperations: %s alignment" % opcode,
            "align %d vs align %d" % (ml.alignment, mr.alignment),
        )
    res = _sign(ml.ordering.llvm_value, mr.ordering.llvm_value)
    if res:
        return fc._fail(
            res, "cmpOperations: %s ordering" % opcode, "%s vs %s" % (ml.ordering.keyword, mr.ordering.keyword)
        )
    if ml.sync_scope != mr.sync_scope:
        res = _sign(_sync_scope_key(ml.sync_scope), _sync_scope_key(mr.sync_scope))
        return fc._fail(res, "cmpOperations: %s syncscope" % opcode, "%r vs %r" % (ml.sync_scope, mr.sync_scope))
    if opcode == "load" and (l._md or r._md):
        return fc.cmp_inst_metadata(l, r)
    return 0


def _call(fc: FunctionComparator, l: Instruction, r: Instruction) -> int:
    cl = cast(CallBase, l)
    cr = cast(CallBase, r)
    if cl.calling_conv != cr.calling_conv:
        return fc._fail(
            _sign(cl.calling_conv, cr.calling_conv),
            "cmpOperations: calling convention",
            "cc %d vs cc %d" % (cl.calling_conv, cr.calling_conv),
        )
    res = fc.cmp_attrs(cl.attributes, cr.attributes)
    if res:
        return res
    res = fc.cmp_operand_bundles(cl, cr)
    if res:
        return res
    opcode = l.opcode
    if opcode == "call":
        kl = _TAIL_KIND_NUMBER[cast(CallInst, l).tail_call_kind.keyword]
        kr = _TAIL_KIND_NUMBER[cast(CallInst, r).tail_call_kind.keyword]
        if kl != kr:
            return fc._fail(_sign(kl, kr), "cmpOperations: tail call kind", "tail kind %d vs %d" % (kl, kr))
    elif opcode == "callbr":
        nl = cast(CallBrInst, l).num_indirect_dests
        nr = cast(CallBrInst, r).num_indirect_dests
        if nl != nr:
            return fc._fail(_sign(nl, nr), "cmpOperations: callbr indirect destinations", "%d vs %d" % (nl, nr))
    if cl.function_type is not cr.function_type:
        res = fc._types(cl.function_type, cr.function_type)
        if res:
            return fc._fail(
                res, "cmpOperations: call function type", "%s vs %s" % (cl.function_type, cr.function_type)
            )
    if l._md or r._md:
        res = fc.cmp_range_metadata(l.get_metadata("range"), r.get_metadata("range"))
        if res:
            rec = fc._record
            if rec is not None and not rec.placed:
                rec.detail = "!range differs (%s: %s)" % (rec.rule, rec.detail)
                rec.rule = "cmpOperations: call !range"
            return res
    return 0


def _compare(fc: FunctionComparator, l: Instruction, r: Instruction) -> int:
    pl = cast(CmpInst, l).predicate
    pr = cast(CmpInst, r).predicate
    if pl is not pr:
        return fc._fail(_sign(int(pl), int(pr)), "cmpOperations: predicate", "%s vs %s" % (pl.keyword, pr.keyword))
    return 0


def _alloca(fc: FunctionComparator, l: Instruction, r: Instruction) -> int:
    al = cast(AllocaInst, l)
    ar = cast(AllocaInst, r)
    res = fc._types(al.allocated_type, ar.allocated_type)
    if res:
        return fc._fail(res, "cmpOperations: alloca type", "%s vs %s" % (al.allocated_type, ar.allocated_type))
    if al.alignment != ar.alignment:
        return fc._fail(
            _sign(al.alignment, ar.alignment),
            "cmpOperations: alloca alignment",
            "align %d vs align %d" % (al.alignment, ar.alignment),
        )
    if al.inalloca != ar.inalloca or al.swifterror != ar.swifterror:
        return fc._fail(
            _sign((al.inalloca, al.swifterror), (ar.inalloca, ar.swifterror)),
            "cmpOperations: alloca flags",
            "inalloca/swifterror differ",
        )
    return 0


def _indices(fc: FunctionComparator, l: Instruction, r: Instruction) -> int:
    xl = cast(_IndexedAggregateInst, l).indices
    xr = cast(_IndexedAggregateInst, r).indices
    if xl != xr:
        res = _sign(len(xl), len(xr)) or _sign(xl, xr)
        return fc._fail(res, "cmpOperations: %s indices" % l.opcode, "%s vs %s" % (list(xl), list(xr)))
    return 0


def _fence(fc: FunctionComparator, l: Instruction, r: Instruction) -> int:
    fl = cast(FenceInst, l)
    fr = cast(FenceInst, r)
    res = _sign(fl.ordering.llvm_value, fr.ordering.llvm_value)
    if res:
        return fc._fail(res, "cmpOperations: fence ordering", "%s vs %s" % (fl.ordering.keyword, fr.ordering.keyword))
    res = _sign(_sync_scope_key(fl.sync_scope), _sync_scope_key(fr.sync_scope))
    if res:
        return fc._fail(res, "cmpOperations: fence syncscope", "%r vs %r" % (fl.sync_scope, fr.sync_scope))
    return 0


def _cmpxchg(fc: FunctionComparator, l: Instruction, r: Instruction) -> int:
    xl = cast(AtomicCmpXchgInst, l)
    xr = cast(AtomicCmpXchgInst, r)
    for name, a, b in (
        ("weak", int(xl.weak), int(xr.weak)),
        ("volatile", int(xl.volatile), int(xr.volatile)),
        ("success ordering", xl.success_ordering.llvm_value, xr.success_ordering.llvm_value),
        ("failure ordering", xl.failure_ordering.llvm_value, xr.failure_ordering.llvm_value),
    ):
        if a != b:
            return fc._fail(_sign(a, b), "cmpOperations: cmpxchg " + name, "%s vs %s" % (a, b))
    res = _sign(_sync_scope_key(xl.sync_scope), _sync_scope_key(xr.sync_scope))
    if res:
        return fc._fail(res, "cmpOperations: cmpxchg syncscope", "%r vs %r" % (xl.sync_scope, xr.sync_scope))
    if xl.alignment != xr.alignment:
        return fc._fail(
            _sign(xl.alignment, xr.alignment),
            "cmpOperations: cmpxchg alignment",
            "align %d vs align %d" % (xl.alignment, xr.alignment),
        )
    return 0


def _atomicrmw(fc: FunctionComparator, l: Instruction, r: Instruction) -> int:
    rl = cast(AtomicRMWInst, l)
    rr = cast(AtomicRMWInst, r)
    ol = _RMW_ORDER.get(rl.operation.keyword, 99)
    orr = _RMW_ORDER.get(rr.operation.keyword, 99)
    if ol != orr:
        return fc._fail(
            _sign(ol, orr),
            "cmpOperations: atomicrmw operation",
            "%s vs %s" % (rl.operation.keyword, rr.operation.keyword),
        )
    if rl.volatile != rr.volatile:
        return fc._fail(
            _sign(rl.volatile, rr.volatile), "cmpOperations: atomicrmw volatile", "%s vs %s" % (rl.volatile, rr.volatile)
        )
    res = _sign(rl.ordering.llvm_value, rr.ordering.llvm_value)
    if res:
        return fc._fail(
            res, "cmpOperations: atomicrmw ordering", "%s vs %s" % (rl.ordering.keyword, rr.ordering.keyword)
        )
    res = _sign(_sync_scope_key(rl.sync_scope), _sync_scope_key(rr.sync_scope))
    if res:
        return fc._fail(res, "cmpOperations: atomicrmw syncscope", "%r vs %r" % (rl.sync_scope, rr.sync_scope))
    if rl.alignment != rr.alignment:
        return fc._fail(
            _sign(rl.alignment, rr.alignment),
            "cmpOperations: atomicrmw alignment",
            "align %d vs align %d" % (rl.alignment, rr.alignment),
        )
    return 0


def _shuffle(fc: FunctionComparator, l: Instruction, r: Instruction) -> int:
    sl = cast(ShuffleVectorInst, l).mask
    sr = cast(ShuffleVectorInst, r).mask
    if sl != sr:
        res = _sign(len(sl), len(sr)) or _sign(tuple(sl), tuple(sr))
        return fc._fail(res, "cmpOperations: shuffle mask", "%s vs %s" % (list(sl), list(sr)))
    return 0


def _phi(fc: FunctionComparator, l: Instruction, r: Instruction) -> int:
    bl = cast(PHINode, l).incoming_blocks
    br = cast(PHINode, r).incoming_blocks
    for i in range(len(bl)):
        res = fc.cmp_values(bl[i], br[i])
        if res:
            rec = fc._record
            if rec is not None and not rec.placed:
                rec.rule = "cmpOperations: phi incoming block"
                rec.detail = "incoming block %d: %s" % (i, rec.detail)
            return res
    return 0


def _landingpad(fc: FunctionComparator, l: Instruction, r: Instruction) -> int:
    cl = cast(LandingPadInst, l).is_cleanup
    cr = cast(LandingPadInst, r).is_cleanup
    if cl != cr:
        return fc._fail(_sign(cl, cr), "cmpOperations: landingpad cleanup", "%s vs %s" % (cl, cr))
    return 0


_SPECIAL: dict[str, _Check] = {
    "load": _memory_access,
    "store": _memory_access,
    "call": _call,
    "invoke": _call,
    "callbr": _call,
    "icmp": _compare,
    "fcmp": _compare,
    "alloca": _alloca,
    "extractvalue": _indices,
    "insertvalue": _indices,
    "fence": _fence,
    "cmpxchg": _cmpxchg,
    "atomicrmw": _atomicrmw,
    "shufflevector": _shuffle,
    "phi": _phi,
    "landingpad": _landingpad,
}


def special_state(fc: FunctionComparator, l: Instruction, r: Instruction) -> int:
    """The per-opcode properties of two instructions of the same opcode."""
    check = _SPECIAL.get(l.opcode)
    if check is None:
        return 0
    return check(fc, l, r)


# --- GEPs -------------------------------------------------------------------------------------------------------


def _address_space(ty: Type) -> int:
    if isinstance(ty, VectorType):
        ty = ty.element_type
    return ty.address_space if isinstance(ty, PointerType) else 0


def _signed(value: int, width: int) -> int:
    return value - (1 << width) if value >> (width - 1) else value


def constant_offset(dl: DataLayout, gep: GetElementPtrInst, width: int) -> int | None:
    """The GEP's constant byte offset wrapped to ``width`` bits (LLVM
    ``accumulateConstantOffset``), or None when an index is not a constant integer."""
    return accumulate_constant_offset(dl, gep, width)


def cmp_geps(fc: FunctionComparator, l: GetElementPtrInst, r: GetElementPtrInst) -> int:
    """LLVM ``cmpGEPs`` (see the module docstring); the pointer operands were
    compared by the caller."""
    asl = _address_space(l._operands[0].value.type)
    asr = _address_space(r._operands[0].value.type)
    if asl != asr:
        return fc._fail(_sign(asl, asr), "cmpGEPs: address space", "%d vs %d" % (asl, asr))
    dl = fc.data_layout
    width = dl.index_size_in_bits(asl)
    off_l = constant_offset(dl, l, width)
    off_r = constant_offset(dl, r, width) if off_l is not None else None
    if off_l is not None and off_r is not None:
        if off_l != off_r:
            return fc._fail(
                _sign(off_l, off_r),
                "cmpGEPs: constant offset",
                "offset %d vs %d bytes" % (_signed(off_l, width), _signed(off_r, width)),
            )
    else:
        sl = l.source_element_type
        sr = r.source_element_type
        res = fc._types(sl, sr)
        if res:
            return fc._fail(res, "cmpGEPs: source element type", "%s vs %s" % (sl, sr))
        ops_l = l._operands
        ops_r = r._operands
        if len(ops_l) != len(ops_r):
            return fc._fail(
                _sign(len(ops_l), len(ops_r)), "cmpGEPs: operand count", "%d vs %d" % (len(ops_l), len(ops_r))
            )
        for i in range(len(ops_l)):
            res = fc.cmp_values(ops_l[i].value, ops_r[i].value)
            if res:
                fc._place_operand(i)
                return res
    if l.type is not r.type:
        res = fc._types(l.type, r.type)
        if res:
            return fc._fail(res, "cmpGEPs: result type", "%s vs %s" % (l.type, r.type))
    fl = l._gep_flags
    fr = r._gep_flags
    if fl != fr:
        return fc._fail(_sign(fl, fr), "cmpGEPs: flags", "%r vs %r" % (_gep_flag_text(fl), _gep_flag_text(fr)))
    return 0


# --- attributes and inline asm ---------------------------------------------------------------------------


def cmp_attrs(fc: FunctionComparator, l: AttributeList, r: AttributeList) -> int:
    """Attribute lists set by set (LLVM ``cmpAttrs``)."""
    if l is r or l == r:
        # Equal lists compare equal, except that type attributes compare by
        # the comparator's type order; equal lists hold identical types.
        return 0
    nl = l.num_attr_sets
    nr = r.num_attr_sets
    if nl != nr:
        return fc._fail(_sign(nl, nr), "cmpAttrs: attribute set count", "%d vs %d sets" % (nl, nr))
    sets_r = dict(r)
    for index, set_l in l:
        set_r = sets_r[index]
        if set_l == set_r:
            continue
        where = "function" if index == -1 else ("return" if index == 0 else "parameter %d" % (index - 1))
        attrs_l = list(set_l)
        attrs_r = list(set_r)
        for a, b in zip(attrs_l, attrs_r):
            res = _cmp_attribute(fc, a, b)
            if res:
                return fc._fail(
                    res, "cmpAttrs: attribute", "%s vs %s (%s attributes)" % (a.as_string(), b.as_string(), where)
                )
        if len(attrs_l) != len(attrs_r):
            if len(attrs_l) > len(attrs_r):
                extra = attrs_l[len(attrs_r)].as_string()
                return fc._fail(1, "cmpAttrs: attribute", "%s vs none (%s attributes)" % (extra, where))
            extra = attrs_r[len(attrs_l)].as_string()
            return fc._fail(-1, "cmpAttrs: attribute", "none vs %s (%s attributes)" % (extra, where))
    return 0

def _cmp_attribute(fc: FunctionComparator, a: Attribute, b: Attribute) -> int:
    ka = a.kind
    kb = b.kind
    if ka is not AttrKind.NONE and ka is kb:
        form = kind_form(ka)
        if form is AttrForm.TYPE:
            ta = a.type_value
            tb = b.type_value
            if ta is not None and tb is not None:
                return fc._types(ta, tb)
            return _sign(ta is not None, tb is not None)
        if form is AttrForm.CONSTANT_RANGE:
            wa = a.type_value.width if isinstance(a.type_value, IntegerType) else 0
            wb = b.type_value.width if isinstance(b.type_value, IntegerType) else 0
            res = fc.cmp_aps_ints(wa, a.ranges[0][0], wb, b.ranges[0][0])
            if res:
                return res
            return fc.cmp_aps_ints(wa, a.ranges[0][1], wb, b.ranges[0][1])
        if form is AttrForm.CONSTANT_RANGE_LIST:
            ra = a.ranges
            rb = b.ranges
            if len(ra) != len(rb):
                return _sign(len(ra), len(rb))
            for (la, ua), (lb, ub) in zip(ra, rb):
                # 64-bit bounds compared as unsigned patterns
                res = _sign(la & 0xFFFFFFFFFFFFFFFF, lb & 0xFFFFFFFFFFFFFFFF)
                if res:
                    return res
                res = _sign(ua & 0xFFFFFFFFFFFFFFFF, ub & 0xFFFFFFFFFFFFFFFF)
                if res:
                    return res
            return 0
    if a == b:
        return 0
    if a < b:
        return -1
    if b < a:
        return 1
    return 0



def cmp_inline_asm(fc: FunctionComparator, l: InlineAsm, r: InlineAsm) -> int:
    """Inline asm by type, template, constraints, then flags."""
    if l is r:
        return 0
    res = fc._types(l.function_type, r.function_type)
    if res:
        return fc._fail(res, "cmpInlineAsm: function type", "%s vs %s" % (l.function_type, r.function_type))
    res = fc.cmp_mem(l.asm_string, r.asm_string)
    if res:
        return fc._fail(res, "cmpInlineAsm: asm string", "%r vs %r" % (l.asm_string, r.asm_string))
    res = fc.cmp_mem(l.constraint_string, r.constraint_string)
    if res:
        return fc._fail(
            res, "cmpInlineAsm: constraints", "%r vs %r" % (l.constraint_string, r.constraint_string)
        )
    for name, a, b in (
        ("sideeffect", l.has_side_effects, r.has_side_effects),
        ("alignstack", l.is_align_stack, r.is_align_stack),
        ("dialect", int(l.dialect), int(r.dialect)),
        ("unwind", l.can_throw, r.can_throw),
    ):
        if a != b:
            return fc._fail(_sign(a, b), "cmpInlineAsm: " + name, "%s vs %s" % (a, b))
    return 0
