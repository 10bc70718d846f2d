"""Scoped-noalias metadata for the ``noalias`` arguments of an inlined call (LLVM
``AddAliasScopeMetadata``, lib/Transforms/Utils/InlineFunction.cpp).

Each ``noalias`` argument (on the call site) that the callee uses gets a fresh
anonymous scope in a fresh domain named after the callee, announced by an
``llvm.experimental.noalias.scope.decl`` before the call. Each inlined memory
access (not simplified away) then gets ``!noalias`` with the scopes of the noalias
arguments its pointers cannot be based on (when the access needs it, only those
not captured before it in the callee), and ``!alias.scope`` with the scopes of the
arguments its pointers are based on when every underlying object is a noalias
argument (calls: only argument-memory-only ones). Accesses with an unidentified
underlying object are left alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import ConstantDataVector, ConstantFP, ConstantInt, ConstantPointerNull, UndefValue
from llvmpy_mid.ir.function import Argument
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import AtomicCmpXchgInst, AtomicRMWInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import VAArgInst
from llvmpy_mid.ir.metadata import Metadata, MDNode, MDString, MDTuple
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.builder import IRBuilder
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.transform.utils.clone_function import ClonedCodeInfo, TrackingValueMap

__all__ = ["add_alias_scope_metadata", "create_anonymous_aa_root"]


def create_anonymous_aa_root(ctx: object, name: str, extra: MDNode | None = None) -> MDNode:
    """LLVM ``MDBuilder::createAnonymousAARoot``: ``distinct !{!self, [extra,] !"name"}``."""
    ops: list[Metadata | None] = [None]
    if extra is not None:
        ops.append(extra)
    if name:
        ops.append(MDString.get(ctx, name))  # type: ignore[arg-type]
    root = MDTuple.distinct(ctx, ops)  # type: ignore[arg-type]
    root.replace_operand_with(0, root)
    return root


def _pointer_operands(inst: Instruction) -> list[Value] | None:
    if isinstance(inst, (LoadInst, StoreInst, AtomicCmpXchgInst, AtomicRMWInst)):
        return [inst.pointer_operand]
    if isinstance(inst, VAArgInst):
        return [inst.pointer_operand]
    return None


def add_alias_scope_metadata(
    call: CallBase, vmap: TrackingValueMap, dl: object, aa: object | None, info: ClonedCodeInfo
) -> None:
    from llvmpy_mid.analysis.alias.basic_aa import _is_escape_source
    from llvmpy_mid.analysis.alias.identified_objects import is_identified_object
    from llvmpy_mid.analysis.capture_tracking import pointer_may_be_captured_before
    from llvmpy_mid.analysis.underlying_objects import get_underlying_objects
    from llvmpy_mid.ir.builder import IRBuilder
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.passes.options import OPTIONS
    from llvmpy_mid.transform.utils.inline_function_metadata import concatenate

    if not bool(OPTIONS.value("enable-noalias-to-md-conversion")):
        return
    callee = call.called_function
    assert callee is not None
    noalias_args = [a for a in callee.args if call.param_has_attr(a.arg_no, "noalias") and a.has_uses]
    if not noalias_args:
        return
    ctx = callee.type.context
    use_intrinsic = bool(OPTIONS.value("use-noalias-intrinsic-during-inlining"))
    dt = DominatorTree(callee)
    domain = create_anonymous_aa_root(ctx, callee.name)
    scopes: dict[Argument, MDNode] = {}
    for i, arg in enumerate(noalias_args):
        name = callee.name + (": %" + arg.name if arg.name else ": argument " + str(i))
        scope = create_anonymous_aa_root(ctx, name, domain)
        scopes[arg] = scope
        b = IRBuilder(before=call)
        b.debug_loc = call.stable_debug_loc
        scope_list = MDNode.get(ctx, [scope])
        if use_intrinsic:
            _decl(b, ctx, scope_list)

    for old in list(vmap.keys()):
        if not isinstance(old, Instruction):
            continue
        ni = vmap.get(old)
        if not isinstance(ni, Instruction) or info.orig_vmap.get(old) is not ni:
            continue
        is_arg_mem_only = is_func_call = False
        ptr_args = _pointer_operands(old)
        if ptr_args is None:
            ptr_args = []
            if isinstance(old, CallBase):
                if old.does_not_access_memory:
                    continue
                is_func_call = True
                # LLVM asks the callee's AA; without one, the call's own effects stand in.
                me = aa.get_memory_effects(old) if aa is not None else old.memory_effects  # type: ignore[attr-defined]
                if me.only_accesses_inaccessible_mem:
                    continue
                if me.only_accesses_arg_pointees:
                    is_arg_mem_only = True
                for a in old.args:
                    if a.type.is_pointer:
                        ptr_args.append(a)
        if not ptr_args and not is_func_call:
            continue
        objects: list[Value] = []
        seen: set[int] = set()
        for v in ptr_args:
            for o in get_underlying_objects(v):
                if id(o) not in seen:
                    seen.add(id(o))
                    objects.append(o)
        requires_no_capture = uses_aliasing = uses_unknown = False
        for o in objects:
            if isinstance(o, (ConstantInt, ConstantFP, ConstantPointerNull, ConstantDataVector, UndefValue)):
                continue
            if isinstance(o, Argument):
                if not call.param_has_attr(o.arg_no, "noalias"):
                    uses_aliasing = True
            else:
                uses_aliasing = True
            if _is_escape_source(o):
                requires_no_capture = True
            elif not isinstance(o, Argument) and not is_identified_object(o):
                uses_unknown = True
        if uses_unknown:
            continue
        if is_func_call and not is_arg_mem_only:
            requires_no_capture = True
        noaliases: list[Metadata | None] = []
        for a in noalias_args:
            if id(a) in seen:
                continue
            if not requires_no_capture or not pointer_may_be_captured_before(a, False, False, old, dt):
                noaliases.append(scopes[a])
        if noaliases:
            ni.set_metadata("noalias", concatenate(ctx, ni.get_metadata("noalias"), MDNode.get(ctx, noaliases)))
        can_add = not uses_aliasing
        if can_add and is_func_call:
            can_add = is_arg_mem_only
        if can_add:
            alias_scopes: list[Metadata | None] = [scopes[a] for a in noalias_args if id(a) in seen]
            if alias_scopes:
                ni.set_metadata(
                    "alias.scope", concatenate(ctx, ni.get_metadata("alias.scope"), MDNode.get(ctx, alias_scopes))
                )


def _decl(b: IRBuilder, ctx: Context, scope_list: MDNode) -> None:
    """``IRBuilder::CreateNoAliasScopeDeclaration``."""
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration
    from llvmpy_mid.ir.metadata import MetadataAsValue

    block = b.block
    assert block is not None and block.parent is not None and block.parent.parent is not None
    fty = ctx.function_type(ctx.void, [ctx.metadata])
    decl = intrinsic_declaration(block.parent.parent, "llvm.experimental.noalias.scope.decl", fty)
    b.call(decl, [MetadataAsValue.get(ctx, scope_list)])
