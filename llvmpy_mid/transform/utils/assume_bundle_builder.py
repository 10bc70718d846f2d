"""Knowledge retention: before a pass deletes a load, store or call, keep what it told
about its pointers as an ``llvm.assume`` with operand bundles (LLVM 19.1.7
``llvm/lib/Transforms/Utils/AssumeBundleBuilder.cpp``: ``salvageKnowledge``,
``AssumeBuilderState``; the bundle reading of ``llvm/lib/Analysis/AssumeBundleQueries.cpp``:
``getKnowledgeFromBundle``, ``getKnowledgeForValue`` with an assumption cache).

What: with ``-enable-knowledge-retention`` (off by default),
:func:`salvage_knowledge` turns an access of N bytes through ``p`` into
``"dereferenceable"(p, N)``, ``"nonnull"(p)`` (unless null is defined in the address
space) and ``"align"(p, A)`` (A > 1), and a call's ``nonnull``/``noundef``/``align``/
``dereferenceable``/``dereferenceable_or_null``/``cold`` attributes (all kinds with
``-assume-preserve-all``) into bundles. Knowledge is canonicalised (``nonnull`` on
the underlying object, ``dereferenceable`` on the base plus the constant offset,
``align`` through in-bounds GEPs), dropped when worthless (allocas and globals,
arguments that already carry it, values that are about to die), and not repeated
when an assumption valid at the instruction already says as much (a weaker one that
the instruction dominates is strengthened in place). The assume is inserted before
the instruction and registered in the cache.

:func:`build_assume_from_knowledge` and :func:`simplify_retained_knowledge` serve InstCombine's
assume canonicalisation. What it does not do: the ``assume-simplify``/``assume-builder``
passes; the ``assume-builder-counter`` debug counter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.assume_bundle_queries import (
    RetainedKnowledge,
    get_knowledge_for_value,
    get_knowledge_from_bundle,
    min_align,
)
from llvmpy_mid.analysis.underlying_objects import get_pointer_base_with_constant_offset, get_underlying_object
from llvmpy_mid.analysis.value_tracking_support import is_valid_assume_for_context
from llvmpy_mid.ir.attribute_kinds import AttrKind, is_int_attr_kind, kind_name
from llvmpy_mid.ir.attributes import Attribute, AttributeList
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.droppable_uses import is_droppable
from llvmpy_mid.ir.function import Argument, Function, null_pointer_is_defined
from llvmpy_mid.ir.global_value import GlobalValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.types import PointerType, StructType, Type
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.options import OPTIONS

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.module import Module

__all__ = [
    "RetainedKnowledge",
    "build_assume_from_knowledge",
    "get_knowledge_from_bundle",
    "salvage_knowledge",
    "simplify_retained_knowledge",
]

_USEFUL = frozenset(
    (AttrKind.NON_NULL, AttrKind.NO_UNDEF, AttrKind.ALIGNMENT, AttrKind.DEREFERENCEABLE,
     AttrKind.DEREFERENCEABLE_OR_NULL, AttrKind.COLD)
)
_MAX_ALIGNMENT = 1 << 32


def _max_preserved_alignment(gep: Value, dl: DataLayout) -> int:
    """The alignment every offset the GEP may add keeps (LLVM ``getMaxPreservedAlignment``)."""
    result = _MAX_ALIGNMENT
    ops = gep._operands  # type: ignore[attr-defined]
    ty: Type | None = gep.source_element_type  # type: ignore[attr-defined]
    for i in range(1, len(ops)):
        idx = ops[i].value
        if i == 1:
            cur = ty
        if isinstance(cur, StructType):
            if not isinstance(idx, ConstantInt):
                return 1
            offset = dl.struct_layout(cur).element_offsets[idx.value]
            if offset:
                result = min_align(result, offset)
            cur = cur.elements[idx.value]
            continue
        assert cur is not None
        size = dl.type_alloc_size(cur)
        if isinstance(idx, ConstantInt):
            offset = size * idx.value
            if offset:
                result = min_align(result, abs(offset))
        elif size:
            result = min_align(result, size)
        if i + 1 < len(ops):
            cur = getattr(cur, "element_type", None)
    return result


def _canonicalized(rk: RetainedKnowledge, dl: DataLayout) -> RetainedKnowledge:
    """LLVM ``canonicalizedKnowledge``."""
    v = rk.was_on
    if v is None:
        return rk
    if rk.kind is AttrKind.NON_NULL:
        return RetainedKnowledge(rk.kind, rk.arg, get_underlying_object(v))
    if rk.kind is AttrKind.ALIGNMENT:
        arg = rk.arg
        seen: set[int] = set()
        while id(v) not in seen:
            seen.add(id(v))
            op = getattr(v, "opcode", None)
            if op == "getelementptr" and int(getattr(v, "gep_flags", 0) or getattr(v, "flags", 0)) & 1:
                arg = min_align(arg, _max_preserved_alignment(v, dl))
                v = v._operands[0].value  # type: ignore[attr-defined,union-attr]
            elif op in ("bitcast", "addrspacecast") and isinstance(v.type, PointerType):
                v = v._operands[0].value  # type: ignore[attr-defined,union-attr]
            else:
                break
        return RetainedKnowledge(rk.kind, arg, v)
    if rk.kind in (AttrKind.DEREFERENCEABLE, AttrKind.DEREFERENCEABLE_OR_NULL):
        base, offset = get_pointer_base_with_constant_offset(v, dl, False)
        if offset < 0:
            return rk
        return RetainedKnowledge(rk.kind, rk.arg + offset, base)
    return rk


class _AssumeBuilder:
    """LLVM ``AssumeBuilderState``: facts by (value, kind), in the order first added."""

    def __init__(self, module: Module, inst: Instruction, ac: AssumptionCache | None, dt: DominatorTree | None) -> None:
        self.module = module
        self.inst = inst
        self.ac = ac
        self.dt = dt
        self.known: dict[tuple[int, AttrKind], tuple[Value | None, int]] = {}

    def _try_to_preserve_without_adding_assume(self, rk: RetainedKnowledge) -> bool:
        """An assumption valid here already states ``rk`` (or a weaker one the instruction
        dominates is strengthened in place): no new bundle needed."""
        was_on = rk.was_on
        if was_on is None:
            return False
        preserved = False
        to_update: list[tuple[CallInst, int]] = []

        def accept(other: RetainedKnowledge, assume: CallInst, begin: int) -> bool:
            nonlocal preserved
            if not is_valid_assume_for_context(assume, self.inst, self.dt):
                return False
            if other.arg >= rk.arg:
                preserved = True
                return True
            if is_valid_assume_for_context(self.inst, assume, self.dt):
                preserved = True
                to_update.append((assume, begin + 1))
                return True
            return False

        get_knowledge_for_value(was_on, (rk.kind,), self.ac, accept)
        for assume, index in to_update:
            assume.set_operand(index, ConstantInt.get(self.module.context.i64, rk.arg))
        return preserved

    def _is_worth_preserving(self, rk: RetainedKnowledge) -> bool:
        v = rk.was_on
        if v is None:
            return True
        if isinstance(v.type, PointerType):
            base = get_underlying_object(v)
            if isinstance(base, (AllocaInst, GlobalValue)):
                return False
        if isinstance(v, Argument):
            attr = v.parent.attributes.param_attrs(v.arg_no).get(rk.kind)
            if attr is not None and (not is_int_attr_kind(rk.kind) or attr.int_value >= rk.arg):
                return False
            return True
        if isinstance(v, Instruction):
            from llvmpy_mid.transform.utils.local import would_instruction_be_trivially_dead

            if would_instruction_be_trivially_dead(v):
                if v._use_head is None:
                    return False
                uses = [u for u in v.uses if not is_droppable(u.user)]
                if len(uses) == 1 and uses[0].user is self.inst:
                    return False
        return True

    def add_knowledge(self, rk: RetainedKnowledge) -> None:
        rk = _canonicalized(rk, self.module.data_layout)
        if not self._is_worth_preserving(rk):
            return
        if self._try_to_preserve_without_adding_assume(rk):
            return
        key = (id(rk.was_on), rk.kind)
        old = self.known.get(key)
        self.known[key] = (rk.was_on, rk.arg if old is None else max(old[1], rk.arg))

    def _add_attribute(self, attr: Attribute, was_on: Value | None) -> None:
        kind = attr.kind
        if kind is AttrKind.NONE or attr.is_type_attr:
            return
        if not OPTIONS.value("assume-preserve-all") and kind not in _USEFUL:
            return
        self.add_knowledge(RetainedKnowledge(kind, attr.int_value if attr.is_int_attr else 0, was_on))

    def add_call(self, call: CallBase) -> None:
        def add_list(attrs: AttributeList, num_args: int) -> None:
            for i in range(num_args):
                for attr in attrs.param_attrs(i):
                    poison_attr = attr.kind in (AttrKind.NON_NULL, AttrKind.ALIGNMENT)
                    if not poison_attr or _is_passing_undef_ub(call, i):
                        self._add_attribute(attr, call.get_arg(i))
            for attr in attrs.fn_attrs:
                self._add_attribute(attr, None)

        add_list(call.attributes, call.num_args)
        fn = call.called_function
        if fn is not None:
            add_list(fn.attributes, len(fn.args))

    def add_accessed_ptr(self, inst: Instruction, ptr: Value, ty: Type, align: int) -> None:
        size = self.module.data_layout.type_store_size(ty)
        if size:
            self.add_knowledge(RetainedKnowledge(AttrKind.DEREFERENCEABLE, size, ptr))
            fn = inst.function
            ptr_ty = ptr.type
            space = ptr_ty.address_space if isinstance(ptr_ty, PointerType) else 0
            if not null_pointer_is_defined(fn, space):
                self.add_knowledge(RetainedKnowledge(AttrKind.NON_NULL, 0, ptr))
        if align > 1:
            self.add_knowledge(RetainedKnowledge(AttrKind.ALIGNMENT, align, ptr))

    def add_instruction(self, inst: Instruction) -> None:
        if isinstance(inst, CallBase):
            self.add_call(inst)
        elif isinstance(inst, LoadInst):
            self.add_accessed_ptr(inst, inst._operands[0].value, inst.type, inst.alignment or 1)
        elif isinstance(inst, StoreInst):
            self.add_accessed_ptr(inst, inst._operands[1].value, inst._operands[0].value.type, inst.alignment or 1)

    def build(self) -> CallInst | None:
        if not self.known:
            return None
        ctx = self.module.context
        bundles = []
        for (_, kind), (was_on, arg) in self.known.items():
            args: list[Value] = []
            if was_on is not None:
                args.append(was_on)
            if arg:
                args.append(ConstantInt.get(ctx.i64, arg))
            bundles.append((kind_name(kind), args))
        decl = _assume_declaration(self.module)
        return CallInst(decl.function_type, decl, [ConstantInt.get_true(ctx.i1)], bundles=bundles)


def _is_passing_undef_ub(cb: CallBase, arg_no: int) -> bool:
    """LLVM ``CallBase::isPassingUndefUB``."""
    return (
        cb.param_has_attr(arg_no, AttrKind.NO_UNDEF)
        or cb.param_has_attr(arg_no, AttrKind.DEREFERENCEABLE)
        or cb.param_has_attr(arg_no, AttrKind.DEREFERENCEABLE_OR_NULL)
    )


def _assume_declaration(module: Module) -> Function:
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration

    ctx = module.context
    return intrinsic_declaration(module, "llvm.assume", ctx.function_type(ctx.void, [ctx.i1]))


def build_assume_from_knowledge(
    knowledge: list[RetainedKnowledge], ctx: Instruction, ac: AssumptionCache | None = None,
    dt: DominatorTree | None = None,
) -> CallInst | None:
    """A detached ``llvm.assume(true)`` stating the facts of ``knowledge`` worth keeping at
    ``ctx`` (canonicalised, none already known there), or None when nothing is left (LLVM
    ``buildAssumeFromKnowledge``). The caller inserts and registers it."""
    fn = ctx.function
    module = fn.parent if fn is not None else None
    if module is None:
        return None
    builder = _AssumeBuilder(module, ctx, ac, dt)
    for rk in knowledge:
        builder.add_knowledge(rk)
    return builder.build()


def simplify_retained_knowledge(
    assume: CallInst, rk: RetainedKnowledge, ac: AssumptionCache | None = None, dt: DominatorTree | None = None
) -> RetainedKnowledge | None:
    """``rk`` (from a bundle of ``assume``) canonicalised, or None when it is not worth
    keeping or another assumption valid there already states it (LLVM
    ``simplifyRetainedKnowledge``)."""
    fn = assume.function
    module = fn.parent if fn is not None else None
    if module is None:
        return rk
    builder = _AssumeBuilder(module, assume, ac, dt)
    rk = _canonicalized(rk, module.data_layout)
    if not builder._is_worth_preserving(rk):
        return None
    if builder._try_to_preserve_without_adding_assume(rk):
        return None
    return rk


def salvage_knowledge(inst: Instruction, ac: AssumptionCache | None = None, dt: DominatorTree | None = None) -> bool:
    """Before ``inst`` goes, state what it told about its pointers in an ``llvm.assume``
    (only with ``-enable-knowledge-retention``; LLVM ``salvageKnowledge``)."""
    if not OPTIONS.value("enable-knowledge-retention") or inst.is_terminator:
        return False
    fn = inst.function
    module = fn.parent if fn is not None else None
    if module is None:
        return False
    builder = _AssumeBuilder(module, inst, ac, dt)
    builder.add_instruction(inst)
    assume = builder.build()
    if assume is None:
        return False
    assume.insert_before(inst)
    if ac is not None:
        ac.register_assumption(assume)
    return True
