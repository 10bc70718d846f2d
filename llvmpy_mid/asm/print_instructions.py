"""Instruction text for the assembly printer (LLVM's ``printInstruction``).

Each instruction class has a handler that returns the instruction's text from
the opcode on (``add nsw i32 %a, 1``, ``tail call fast float @f(float %x) #2``);
the caller adds the indentation, the ``%x = `` and the metadata attachments.
Flags print in LLVM's order: fast-math flags first, then ``nuw``/``nsw``,
``exact``, ``disjoint``, the GEP no-wrap flags or ``nneg``. Operand types
follow LLVM's rule: one type for operands that all share it, otherwise (and
always for select, store, shufflevector, ret, cmpxchg and atomicrmw) a type
before each operand. Handlers are looked up by the instruction's exact
class in :data:`HANDLERS` (no ``isinstance`` chains); prefixes that depend
only on the class and its flags word are precomputed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from llvmpy_mid.asm.print_constants import shuffle_mask_text
from llvmpy_mid.asm.print_names import escape
from llvmpy_mid.ir.calling_conv import name_of as cc_name
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.binary import BINARY_OPCODE_CLASSES, UnaryOperator
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.casts import CAST_OPCODE_CLASSES
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.eh import (
    CatchPadInst,
    CatchReturnInst,
    CatchSwitchInst,
    CleanupPadInst,
    CleanupReturnInst,
    LandingPadInst,
)
from llvmpy_mid.ir.instructions.flags import AtomicOrdering, TailCallKind
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import (
    AllocaInst,
    AtomicCmpXchgInst,
    AtomicRMWInst,
    FenceInst,
    LoadInst,
    StoreInst,
)
from llvmpy_mid.ir.instructions.other import FreezeInst, PHINode, SelectInst, VAArgInst
from llvmpy_mid.ir.instructions.terminators import (
    BranchInst,
    CallBrInst,
    IndirectBrInst,
    InvokeInst,
    ResumeInst,
    ReturnInst,
    SwitchInst,
    UnreachableInst,
)
from llvmpy_mid.ir.instructions.vector import (
    ExtractElementInst,
    ExtractValueInst,
    InsertElementInst,
    InsertValueInst,
    ShuffleVectorInst,
)
from llvmpy_mid.ir.statepoint import GC_RELOCATE, gc_relocate_pointers
from llvmpy_mid.ir.types import TypeID

if TYPE_CHECKING:
    from llvmpy_mid.asm.print_context import WriterContext
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value

Handler = Callable[["WriterContext", Any], str]
"""A handler gets the exact instruction class it is registered for."""

# --- flag words -----------------------------------------------------------------------------------

_FMF_NAMES = ((1, " reassoc"), (2, " nnan"), (4, " ninf"), (8, " nsz"), (16, " arcp"), (32, " contract"), (64, " afn"))


def _fmf_text(bits: int) -> str:
    bits &= 127
    if bits == 127:
        return " fast"
    return "".join([name for bit, name in _FMF_NAMES if bits & bit])


FMF_TEXT: tuple[str, ...] = tuple(_fmf_text(b) for b in range(128))
"""The fast-math flags word (0..127) as LLVM prints it after an opcode (`` nnan ninf``)."""


def _wrap_text(bits: int) -> str:
    return (" nuw" if bits & 1 else "") + (" nsw" if bits & 2 else "")


def _heads(opcode: str, kind: str) -> tuple[str, ...]:
    """``opcode`` followed by the flags each of the 128 flag words stands for."""
    out: list[str] = []
    for bits in range(128):
        if kind == "wrap":
            out.append(opcode + _wrap_text(bits))
        elif kind == "exact":
            out.append(opcode + (" exact" if bits & 1 else ""))
        elif kind == "disjoint":
            out.append(opcode + (" disjoint" if bits & 1 else ""))
        elif kind == "nneg":
            out.append(opcode + (" nneg" if bits & 1 else ""))
        elif kind == "fmf":
            out.append(opcode + FMF_TEXT[bits])
        else:
            out.append(opcode)
    return tuple(out)


_BINARY_HEADS: dict[type, tuple[str, ...]] = {}
for _cls in BINARY_OPCODE_CLASSES.values():
    if _cls.is_fp_op:
        _kind = "fmf"
    elif _cls.has_wrap_flags:
        _kind = "wrap"
    elif _cls.has_exact_flag:
        _kind = "exact"
    elif _cls.has_disjoint_flag:
        _kind = "disjoint"
    else:
        _kind = ""
    _BINARY_HEADS[_cls] = _heads(_cls.opcode, _kind)

_CAST_HEADS: dict[type, tuple[str, ...]] = {}
for _cast_cls in CAST_OPCODE_CLASSES.values():
    _op = _cast_cls.opcode
    _CAST_HEADS[_cast_cls] = _heads(_op, "wrap" if _op == "trunc" else ("nneg" if _op in ("zext", "uitofp") else ""))

_PREDICATES: dict[int, str] = {int(p): " " + p.keyword for p in Predicate}
_GEP_HEADS: tuple[str, ...] = tuple(
    "getelementptr"
    + (" inbounds" if b & 1 else (" nusw" if b & 2 else ""))
    + (" nuw" if b & 4 else "")
    for b in range(8)
)
_TAIL_HEADS = {
    TailCallKind.NONE: "call",
    TailCallKind.TAIL: "tail call",
    TailCallKind.MUSTTAIL: "musttail call",
    TailCallKind.NOTAIL: "notail call",
}
_VOID = TypeID.VOID
_NOT_ATOMIC = AtomicOrdering.NOT_ATOMIC


def _ref(ctx: WriterContext, v: Value) -> str:
    text = ctx.refs.get(id(v))
    return text if text is not None else ctx._ref_slow(v)


def _operands_text(ctx: WriterContext, inst: Instruction, print_all: bool) -> str:
    """LLVM's default operand list: one type when all operands share it."""
    ops = inst._operands
    if not ops:
        return ""
    first_ty = ops[0].value.type
    if not print_all:
        for use in ops:
            if use.value.type is not first_ty:
                print_all = True
                break
    if print_all:
        typed = ctx.typed
        return " " + ", ".join([typed(u.value) for u in ops])
    refs = ctx.refs
    return " " + ctx.tstr(first_ty) + " " + ", ".join(
        [refs.get(id(u.value)) or ctx._ref_slow(u.value) for u in ops]
    )


def _sync_scope(scope: str) -> str:
    if not scope:
        return ""
    return ' syncscope("' + escape(scope) + '")'


# --- handlers -------------------------------------------------------------------------------------


def _binary(ctx: WriterContext, inst: Instruction) -> str:
    ops = inst._operands
    a = ops[0].value
    b = ops[1].value
    head = _BINARY_HEADS[type(inst)][inst._flags]  # type: ignore[attr-defined]
    if a.type is not b.type:
        return head + " " + ctx.typed(a) + ", " + ctx.typed(b)
    refs = ctx.refs
    ta = ctx.typed_refs.get(id(a)) or ctx.typed(a)
    rb = refs.get(id(b)) or ctx._ref_slow(b)
    return f"{head} {ta}, {rb}"


def _fneg(ctx: WriterContext, inst: Instruction) -> str:
    return "fneg" + FMF_TEXT[inst._fmf] + " " + ctx.typed(inst._operands[0].value)  # type: ignore[attr-defined]


def _cast(ctx: WriterContext, inst: Instruction) -> str:
    v = inst._operands[0].value
    tv = ctx.typed_refs.get(id(v)) or ctx.typed(v)
    ty = inst.type
    return f"{_CAST_HEADS[type(inst)][inst._flags]} {tv} to {ctx.tcache.get(id(ty)) or ctx.tstr(ty)}"  # type: ignore[attr-defined]


def _icmp(ctx: WriterContext, inst: Instruction) -> str:
    ops = inst._operands
    a = ops[0].value
    b = ops[1].value
    pred = _PREDICATES[inst._predicate]  # type: ignore[attr-defined]
    if a.type is not b.type:
        return "icmp" + pred + " " + ctx.typed(a) + ", " + ctx.typed(b)
    ta = ctx.typed_refs.get(id(a)) or ctx.typed(a)
    rb = ctx.refs.get(id(b)) or ctx._ref_slow(b)
    return f"icmp{pred} {ta}, {rb}"


def _fcmp(ctx: WriterContext, inst: Instruction) -> str:
    return (
        "fcmp"
        + FMF_TEXT[inst._fmf]  # type: ignore[attr-defined]
        + _PREDICATES[inst._predicate]  # type: ignore[attr-defined]
        + _operands_text(ctx, inst, False)
    )


def _alloca(ctx: WriterContext, inst: AllocaInst) -> str:
    text = "alloca "
    if inst._inalloca:
        text += "inalloca "
    if inst._swifterror:
        text += "swifterror "
    aty = inst._allocated_type
    text += ctx.tcache.get(id(aty)) or ctx.tstr(aty)
    size = inst._operands[0].value
    if not (type(size) is ConstantInt and size.value == 1 and size.type.width == 32):
        text += ", " + ctx.typed(size)
    if inst._alignment:
        text += ", align " + str(inst._alignment)
    space = inst.type.address_space  # type: ignore[attr-defined]
    if space:
        text += ", addrspace(" + str(space) + ")"
    return text


def _atomic_suffix(inst: Any) -> str:
    ordering: AtomicOrdering = inst._ordering
    if ordering is _NOT_ATOMIC:
        return ""
    scope: str = inst._sync_scope
    return _sync_scope(scope) + " " + ordering.keyword


def _load(ctx: WriterContext, inst: LoadInst) -> str:
    p = inst._operands[0].value
    tp = ctx.typed_refs.get(id(p)) or ctx.typed(p)
    if inst._ordering is _NOT_ATOMIC and not inst._volatile:
        ty = inst.type
        ts = ctx.tcache.get(id(ty)) or ctx.tstr(ty)
        if inst._alignment:
            return f"load {ts}, {tp}, align {inst._alignment}"
        return f"load {ts}, {tp}"
    atomic = inst._ordering is not _NOT_ATOMIC
    text = "load atomic" if atomic else "load"
    if inst._volatile:
        text += " volatile"
    text += " " + ctx.tstr(inst.type) + ", " + tp
    if atomic:
        text += _atomic_suffix(inst)
    if inst._alignment:
        text += ", align " + str(inst._alignment)
    return text


def _store(ctx: WriterContext, inst: StoreInst) -> str:
    ops = inst._operands
    tr = ctx.typed_refs
    v = ops[0].value
    tv = tr.get(id(v)) or ctx.typed(v)
    p = ops[1].value
    tp = tr.get(id(p)) or ctx.typed(p)
    if inst._ordering is _NOT_ATOMIC and not inst._volatile:
        if inst._alignment:
            return f"store {tv}, {tp}, align {inst._alignment}"
        return f"store {tv}, {tp}"
    atomic = inst._ordering is not _NOT_ATOMIC
    text = "store atomic" if atomic else "store"
    if inst._volatile:
        text += " volatile"
    text += " " + tv + ", " + tp
    if atomic:
        text += _atomic_suffix(inst)
    if inst._alignment:
        text += ", align " + str(inst._alignment)
    return text


def _gep(ctx: WriterContext, inst: GetElementPtrInst) -> str:
    ops = inst._operands
    if len(ops) == 1:
        rest = _operands_text(ctx, inst, False)
    else:
        tr = ctx.typed_refs
        typed = ctx.typed
        rest = " " + ", ".join([tr.get(id(u.value)) or typed(u.value) for u in ops])
    src = inst._source_element_type
    return f"{_GEP_HEADS[inst._gep_flags & 7]} {ctx.tcache.get(id(src)) or ctx.tstr(src)},{rest}"


def _fence(ctx: WriterContext, inst: FenceInst) -> str:
    return "fence" + _sync_scope(inst._sync_scope) + " " + inst._ordering.value


def _cmpxchg(ctx: WriterContext, inst: AtomicCmpXchgInst) -> str:
    text = "cmpxchg"
    if inst._weak:
        text += " weak"
    if inst._volatile:
        text += " volatile"
    text += _operands_text(ctx, inst, True)
    text += _sync_scope(inst._sync_scope) + " " + inst._success.value + " " + inst._failure.value
    return text + ", align " + str(inst._alignment)


def _atomicrmw(ctx: WriterContext, inst: AtomicRMWInst) -> str:
    text = "atomicrmw"
    if inst._volatile:
        text += " volatile"
    text += " " + inst._operation.value + _operands_text(ctx, inst, True)
    text += _atomic_suffix(inst)
    return text + ", align " + str(inst._alignment)


def _normal(opcode: str, print_all: bool) -> Handler:
    def handler(ctx: WriterContext, inst: Instruction) -> str:
        return opcode + _operands_text(ctx, inst, print_all)

    return handler


def _select(ctx: WriterContext, inst: Instruction) -> str:
    tr = ctx.typed_refs
    typed = ctx.typed
    ops = inst._operands
    items = ", ".join([tr.get(id(u.value)) or typed(u.value) for u in ops])
    return f"select{FMF_TEXT[inst._fmf]} {items}"  # type: ignore[attr-defined]


def _shufflevector(ctx: WriterContext, inst: ShuffleVectorInst) -> str:
    return "shufflevector" + _operands_text(ctx, inst, True) + shuffle_mask_text(inst.type, inst._mask)


def _extractvalue(ctx: WriterContext, inst: ExtractValueInst) -> str:
    text = "extractvalue " + ctx.typed(inst._operands[0].value)
    for i in inst._indices:
        text += ", " + str(i)
    return text


def _insertvalue(ctx: WriterContext, inst: InsertValueInst) -> str:
    ops = inst._operands
    text = "insertvalue " + ctx.typed(ops[0].value) + ", " + ctx.typed(ops[1].value)
    for i in inst._indices:
        text += ", " + str(i)
    return text


def _phi(ctx: WriterContext, inst: PHINode) -> str:
    refs = ctx.refs
    slow = ctx._ref_slow
    pairs = []
    for use, bb in zip(inst._operands, inst._blocks):
        v = use.value
        rv = refs.get(id(v))
        if rv is None:
            rv = slow(v)
        rb = refs.get(id(bb))
        if rb is None:
            rb = slow(bb)
        pairs.append("[ " + rv + ", " + rb + " ]")
    return "phi" + FMF_TEXT[inst._fmf] + " " + ctx.tstr(inst.type) + " " + ", ".join(pairs)


def _vaarg(ctx: WriterContext, inst: Instruction) -> str:
    return "va_arg " + ctx.typed(inst._operands[0].value) + ", " + ctx.tstr(inst.type)


def _ret(ctx: WriterContext, inst: Instruction) -> str:
    ops = inst._operands
    if not ops:
        return "ret void"
    v = ops[0].value
    return "ret " + (ctx.typed_refs.get(id(v)) or ctx.typed(v))


def _br(ctx: WriterContext, inst: Instruction) -> str:
    ops = inst._operands
    tr = ctx.typed_refs
    typed = ctx.typed
    if len(ops) == 3:
        c = ops[0].value
        t = ops[2].value
        f = ops[1].value
        return f"br {tr.get(id(c)) or typed(c)}, {tr.get(id(t)) or typed(t)}, {tr.get(id(f)) or typed(f)}"
    d = ops[0].value
    return "br " + (tr.get(id(d)) or typed(d))


def _switch(ctx: WriterContext, inst: Instruction) -> str:
    ops = inst._operands
    typed = ctx.typed
    parts = ["switch ", typed(ops[0].value), ", ", typed(ops[1].value), " ["]
    for i in range(2, len(ops) - 1, 2):
        parts.append("\n    " + typed(ops[i].value) + ", " + typed(ops[i + 1].value))
    parts.append("\n  ]")
    return "".join(parts)


def _indirectbr(ctx: WriterContext, inst: Instruction) -> str:
    ops = inst._operands
    typed = ctx.typed
    return "indirectbr " + typed(ops[0].value) + ", [" + ", ".join([typed(u.value) for u in ops[1:]]) + "]"


def _unreachable(ctx: WriterContext, inst: Instruction) -> str:
    return "unreachable"


def _call_addrspace(ctx: WriterContext, callee: Value) -> str:
    ty = callee.type
    space = ty.address_space if ty.type_id is TypeID.POINTER else 0  # type: ignore[attr-defined]
    if space:
        return " addrspace(" + str(space) + ")"
    module = ctx.module
    if module is None or module.data_layout.program_addr_space != 0:
        return " addrspace(" + str(space) + ")"
    return ""


def _call_common(ctx: WriterContext, inst: CallBase, head: str, addrspace: bool) -> str:
    """``[cc] [ret attrs] [addrspace] T callee(args`` after ``head``."""
    ops = inst._operands
    callee = ops[-1].value
    sets = inst.attributes._sets
    nsets = len(sets)
    cc = inst.calling_conv
    if cc:
        head += " " + cc_name(cc)
    if nsets > 1 and sets[1]._attrs:
        head += " " + ctx.attr_text(sets[1])
    if addrspace and (callee.type is not ctx.ptr0 or ctx.explicit_addrspace):
        head += _call_addrspace(ctx, callee)
    fty = inst.function_type
    tstr = ctx.tstr
    rty = fty if fty.is_vararg else fty.return_type
    ret = ctx.tcache.get(id(rty)) or tstr(rty)
    callee_ref = ctx.refs.get(id(callee)) or ctx._ref_slow(callee)
    nargs = inst._num_args
    if not nargs:
        return f"{head} {ret} {callee_ref}("
    tr = ctx.typed_refs
    typed = ctx.typed
    if nsets <= 2:
        args = ", ".join([tr.get(id(ops[i].value)) or typed(ops[i].value) for i in range(nargs)])
    else:
        items: list[str] = []
        refs = ctx.refs
        tcache = ctx.tcache
        attr_ids = ctx._attr_id_text
        for i in range(nargs):
            a = ops[i].value
            pset = sets[i + 2] if i + 2 < nsets else None
            if pset is not None and pset._attrs:
                r = refs.get(id(a)) or ctx._ref_slow(a)
                aty = a.type
                at = attr_ids.get(id(pset)) or ctx.attr_text(pset)
                items.append(f"{tcache.get(id(aty)) or tstr(aty)} {at} {r}")
            else:
                items.append(tr.get(id(a)) or typed(a))
        args = ", ".join(items)
    return f"{head} {ret} {callee_ref}({args}"


def _call_tail(ctx: WriterContext, inst: CallBase) -> str:
    """`` #N`` and the operand bundles."""
    sets = inst.attributes._sets
    bundles = inst._bundles
    if not bundles:
        if sets and sets[0]._attrs:
            return " " + ctx.attr_group(sets[0])
        return ""
    text = ""
    if sets and sets[0]._attrs:
        text = " " + ctx.attr_group(sets[0])
    if bundles:
        ops = inst._operands
        typed = ctx.typed
        items = []
        for tag, start, end in bundles:
            items.append('"' + escape(tag) + '"(' + ", ".join([typed(ops[i].value) for i in range(start, end)]) + ")")
        text += " [ " + ", ".join(items) + " ]"
    return text


def _call(ctx: WriterContext, inst: CallInst) -> str:
    head = _TAIL_HEADS[inst._tck] + FMF_TEXT[inst._fmf]
    text = _call_common(ctx, inst, head, True)
    if inst._tck is TailCallKind.MUSTTAIL:
        bb = inst.parent
        fn = bb.parent if bb is not None else None
        if fn is not None and fn.function_type.is_vararg:
            text += ", ..." if inst._num_args else "..."
    return text + ")" + _call_tail(ctx, inst)


def _invoke(ctx: WriterContext, inst: InvokeInst) -> str:
    ops = inst._operands
    typed = ctx.typed
    return (
        _call_common(ctx, inst, "invoke", True)
        + ")"
        + _call_tail(ctx, inst)
        + "\n          to "
        + typed(ops[-3].value)
        + " unwind "
        + typed(ops[-2].value)
    )


def _callbr(ctx: WriterContext, inst: CallBrInst) -> str:
    ops = inst._operands
    typed = ctx.typed
    n = len(ops)
    k = inst._num_indirect
    indirect = ", ".join([typed(ops[i].value) for i in range(n - 1 - k, n - 1)])
    return (
        _call_common(ctx, inst, "callbr", False)
        + ")"
        + _call_tail(ctx, inst)
        + "\n          to "
        + typed(ops[n - 2 - k].value)
        + " ["
        + indirect
        + "]"
    )


def _resume(ctx: WriterContext, inst: Instruction) -> str:
    return "resume " + ctx.typed(inst._operands[0].value)


def _landingpad(ctx: WriterContext, inst: LandingPadInst) -> str:
    parts = ["landingpad ", ctx.tstr(inst.type)]
    ops = inst._operands
    cleanup = inst._cleanup
    if cleanup or ops:
        parts.append("\n")
    if cleanup:
        parts.append("          cleanup")
    typed = ctx.typed
    for i, use in enumerate(ops):
        if i or cleanup:
            parts.append("\n")
        clause = use.value
        parts.append(("          filter " if clause.type.type_id is TypeID.ARRAY else "          catch ") + typed(clause))
    return "".join(parts)


def _funclet_pad(opcode: str) -> Handler:
    def handler(ctx: WriterContext, inst: Instruction) -> str:
        ops = inst._operands
        typed = ctx.typed
        return (
            opcode
            + " within "
            + _ref(ctx, ops[-1].value)
            + " ["
            + ", ".join([typed(u.value) for u in ops[:-1]])
            + "]"
        )

    return handler


def _catchswitch(ctx: WriterContext, inst: CatchSwitchInst) -> str:
    ops = inst._operands
    typed = ctx.typed
    first = 2 if inst._has_unwind else 1
    text = "catchswitch within " + _ref(ctx, ops[0].value) + " [" + ", ".join([typed(u.value) for u in ops[first:]])
    text += "] unwind "
    return text + (typed(ops[1].value) if inst._has_unwind else "to caller")


def _catchret(ctx: WriterContext, inst: Instruction) -> str:
    ops = inst._operands
    return "catchret from " + _ref(ctx, ops[0].value) + " to " + ctx.typed(ops[1].value)


def _cleanupret(ctx: WriterContext, inst: Instruction) -> str:
    ops = inst._operands
    text = "cleanupret from " + _ref(ctx, ops[0].value) + " unwind "
    return text + (ctx.typed(ops[1].value) if len(ops) > 1 else "to caller")


HANDLERS: dict[type, Handler] = {}
for _cls in BINARY_OPCODE_CLASSES.values():
    HANDLERS[_cls] = _binary
for _cast_cls in CAST_OPCODE_CLASSES.values():
    HANDLERS[_cast_cls] = _cast
HANDLERS.update(
    {
        UnaryOperator: _fneg,
        ICmpInst: _icmp,
        FCmpInst: _fcmp,
        AllocaInst: _alloca,
        LoadInst: _load,
        StoreInst: _store,
        GetElementPtrInst: _gep,
        FenceInst: _fence,
        AtomicCmpXchgInst: _cmpxchg,
        AtomicRMWInst: _atomicrmw,
        ExtractElementInst: _normal("extractelement", False),
        InsertElementInst: _normal("insertelement", False),
        ShuffleVectorInst: _shufflevector,
        ExtractValueInst: _extractvalue,
        InsertValueInst: _insertvalue,
        PHINode: _phi,
        SelectInst: _select,
        FreezeInst: _normal("freeze", False),
        VAArgInst: _vaarg,
        CallInst: _call,
        InvokeInst: _invoke,
        CallBrInst: _callbr,
        ReturnInst: _ret,
        BranchInst: _br,
        SwitchInst: _switch,
        IndirectBrInst: _indirectbr,
        ResumeInst: _resume,
        UnreachableInst: _unreachable,
        LandingPadInst: _landingpad,
        CatchPadInst: _funclet_pad("catchpad"),
        CleanupPadInst: _funclet_pad("cleanuppad"),
        CatchSwitchInst: _catchswitch,
        CatchReturnInst: _catchret,
        CleanupReturnInst: _cleanupret,
    }
)
"""Instruction class -> its text handler."""


def gc_relocate_comment(ctx: WriterContext, inst: CallInst) -> str:
    """`` ; (base, derived)`` after a ``gc.relocate`` call (LLVM's ``printGCRelocateComment``):
    the pointers its two indices select among the statepoint's ``gc-live`` inputs (or its
    arguments), ``undef`` for an undef/none token; empty for any other call."""
    callee = inst._operands[-1].value
    if not isinstance(callee, Function) or not callee._name.startswith(GC_RELOCATE):
        return ""
    gcr = gc_relocate_pointers(inst)
    if gcr is None:
        return ""
    return " ; (" + _ref(ctx, gcr[1]) + ", " + _ref(ctx, gcr[2]) + ")"


def instruction_body(ctx: WriterContext, inst: Instruction) -> str:
    """The text of ``inst`` from its opcode on (no name, no attachments).

    A subclass of an instruction class (defined outside this package) prints
    as its nearest known base; the choice is remembered in :data:`HANDLERS`."""
    cls = type(inst)
    handler = HANDLERS.get(cls)
    if handler is None:
        for base in cls.__mro__[1:]:
            handler = HANDLERS.get(base)
            if handler is not None:
                HANDLERS[cls] = handler
                for heads in (_BINARY_HEADS, _CAST_HEADS):
                    if base in heads:
                        heads[cls] = heads[base]
                break
        else:
            return "<unknown instruction " + cls.__name__ + ">"
    return handler(ctx, inst)


__all__ = ["FMF_TEXT", "HANDLERS", "gc_relocate_comment", "instruction_body"]
