"""Stack handling of inlining (LLVM InlineFunction.cpp: ``HandleByValArgument``,
``HandleByValArgumentInit``, the static-alloca move, lifetime markers and
``llvm.stacksave``/``llvm.stackrestore`` around dynamic allocas).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.instructions.terminators import ReturnInst
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.inline_function import InlineFunctionInfo

__all__ = [
    "alloca_would_be_static_in_entry",
    "handle_byval_argument",
    "handle_byval_argument_init",
    "insert_lifetime_markers",
    "insert_stack_save_restore",
    "move_static_allocas",
    "add_alignment_assumptions",
]


def alloca_would_be_static_in_entry(ai: AllocaInst) -> bool:
    """LLVM ``allocaWouldBeStaticInEntry``: constant size and not ``inalloca``."""
    return isinstance(ai.array_size, Constant) and not ai.inalloca


def _builder_before(inst: Instruction) -> IRBuilder:
    """``IRBuilder<>(I)``: insert before ``inst`` with its debug location."""
    b = IRBuilder(before=inst)
    b.debug_loc = inst.stable_debug_loc
    return b


def handle_byval_argument(
    byval_type: Type, arg: Value, call: CallBase, callee: Function, ifi: InlineFunctionInfo, align: int | None
) -> Value:
    """The value the callee's ``byval`` parameter maps to: the argument itself when
    the callee only reads memory and the alignment is (made) sufficient, else a new
    entry-block alloca of the caller."""
    caller = call.function
    assert caller is not None
    module = caller.parent
    assert module is not None
    dl = module.data_layout
    if callee.attributes.fn_attrs.memory_effects.only_reads_memory:
        if align is None or align == 1:
            return arg
        from llvmpy_mid.transform.utils.local import get_or_enforce_known_alignment

        ac = ifi.get_assumption_cache(caller) if ifi.get_assumption_cache is not None else None
        if get_or_enforce_known_alignment(arg, align, dl, call, ac, None) >= align:  # type: ignore[arg-type]
            return arg
    alignment = dl.pref_alignment(byval_type)
    if align is not None:
        alignment = max(alignment, align)
    addr_space = getattr(arg.type, "address_space", 0)
    alloca = AllocaInst(byval_type, address_space=addr_space, alignment=alignment)
    entry = caller.entry_block
    first = entry.first_instruction
    if first is None:
        entry.instructions.append(alloca)
    else:
        entry.instructions.insert_before(alloca, first)
    if arg.name:
        alloca.set_name(arg.name)
    ifi.static_allocas.append(alloca)
    return alloca


def handle_byval_argument_init(byval_type: Type, dst: Value, src: Value, block: BasicBlock, callee: Function) -> None:
    """The ``memcpy`` that fills a ``byval`` copy, at the start of the inlined code."""
    from llvmpy_mid.transform.utils.build_lib_calls import create_mem_cpy

    fn = block.parent
    assert fn is not None and fn.parent is not None
    dl = fn.parent.data_layout
    first = block.first_instruction
    b = IRBuilder(block) if first is None else _builder_before(first)
    size = ConstantInt.get(b.context.i64, dl.type_store_size(byval_type))
    ci = create_mem_cpy(b, dst, 1, src, 1, size)
    if ci.debug_loc is None and fn.get_metadata("dbg") is not None:
        sp = callee.get_metadata("dbg")
        if sp is not None:
            from llvmpy_mid.ir.debug_info import DILocation

            ci.debug_loc = DILocation.get(b.context, 0, 0, sp)


def move_static_allocas(caller: Function, first_new: BasicBlock, ifi: InlineFunctionInfo) -> None:
    """Move the inlined entry block's static allocas (in runs) to the caller's entry
    block, before its first instruction; dead ones are erased."""
    entry = caller.entry_block
    insert_point = entry.first_instruction
    node = first_new.instructions.first
    while node is not None:
        ai = node
        node = node._next
        if not isinstance(ai, AllocaInst):
            continue
        if ai.use_empty:
            ai.erase_from_parent()
            continue
        if not alloca_would_be_static_in_entry(ai):
            continue
        run = [ai]
        while isinstance(node, AllocaInst) and not node.use_empty and alloca_would_be_static_in_entry(node):
            run.append(node)
            node = node._next
        ifi.static_allocas.extend(run)
        for moved in run:
            first_new.instructions.remove(moved)
            if insert_point is None:
                entry.instructions.append(moved)
            else:
                entry.instructions.insert_before(moved, insert_point)


def _is_lifetime_user(v: Value) -> bool:
    for user in v.users:
        if isinstance(user, CallBase):
            fn = user.called_function
            if fn is not None and fn.name.startswith(("llvm.lifetime.start", "llvm.lifetime.end")):
                return True
    return False


def _has_lifetime_markers(ai: AllocaInst) -> bool:
    """LLVM ``hasLifetimeMarkers``."""
    from llvmpy_mid.ir.pointer_casts import strip_pointer_casts

    ptr_ty = ai.type
    if _is_lifetime_user(ai):
        return True
    for user in ai.users:
        if getattr(user, "type", None) is not ptr_ty:
            continue
        if isinstance(user, Value) and strip_pointer_casts(user) is ai and _is_lifetime_user(user):
            return True
    return False


def insert_lifetime_markers(
    caller: Function,
    first_new: BasicBlock,
    allocas: Sequence[AllocaInst],
    returns: Sequence[ReturnInst],
    skip_return: Callable[[ReturnInst], bool],
) -> None:
    """``llvm.lifetime.start`` at the start of the inlined code and ``llvm.lifetime.end``
    before each return, for each static alloca without markers of its own."""
    module = caller.parent
    assert module is not None
    dl = module.data_layout
    first = first_new.first_instruction
    assert first is not None
    start_builder = _builder_before(first)
    ctx = caller.type.context
    for ai in allocas:
        if ai.swifterror:
            continue
        if _has_lifetime_markers(ai):
            continue
        size: ConstantInt | None = None
        count = ai.array_size
        if isinstance(count, ConstantInt):
            n = count.value & ((1 << 64) - 1) if count.value >= 0 else count.value & ((1 << 64) - 1)
            if n == 0:
                continue
            elem = dl.type_alloc_size(ai.allocated_type)
            fixed = not dl.is_scalable(ai.allocated_type)
            if fixed and n != (1 << 64) - 1 and ((1 << 64) - 1) // n >= elem:
                size = ConstantInt.get(ctx.i64, n * elem)
        if size is None:
            size = ConstantInt.get(ctx.i64, -1)
        start_builder.create_intrinsic("lifetime.start", [ai.type], [size, ai], return_type=ctx.void)
        for ri in returns:
            if skip_return(ri):
                continue
            _builder_before(ri).create_intrinsic("lifetime.end", [ai.type], [size, ai], return_type=ctx.void)


def insert_stack_save_restore(
    first_new: BasicBlock, returns: Sequence[ReturnInst], skip_return: Callable[[ReturnInst], bool]
) -> None:
    """``%savedstack = call ptr @llvm.stacksave.p0()`` at the start of the inlined
    code and a ``llvm.stackrestore`` before each return."""
    fn = first_new.parent
    assert fn is not None and fn.parent is not None
    ctx = fn.type.context
    addr_space = fn.parent.data_layout.alloca_addr_space
    ptr = ctx.pointer_type(addr_space) if addr_space else ctx.ptr
    first = first_new.first_instruction
    assert first is not None
    saved = _builder_before(first).create_intrinsic("stacksave", [ptr], [], "savedstack", return_type=ptr)
    for ri in returns:
        if skip_return(ri):
            continue
        _builder_before(ri).create_intrinsic("stackrestore", [ptr], [saved], return_type=ctx.void)


def add_alignment_assumptions(call: CallBase, ifi: InlineFunctionInfo) -> None:
    """``llvm.assume`` with an ``"align"`` bundle for each pointer parameter of the
    callee with ``align`` the caller cannot already prove, under
    ``-preserve-alignment-assumptions-during-inlining`` (LLVM ``AddAlignmentAssumptions``)."""
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.passes.options import OPTIONS
    from llvmpy_mid.transform.utils.local import get_or_enforce_known_alignment

    if not OPTIONS.value("preserve-alignment-assumptions-during-inlining") or ifi.get_assumption_cache is None:
        return
    caller = call.function
    callee = call.called_function
    assert caller is not None and callee is not None and caller.parent is not None
    ac = ifi.get_assumption_cache(caller)
    dl = caller.parent.data_layout
    dt: DominatorTree | None = None
    ctx = caller.type.context
    for arg in callee.args:
        if not arg.type.is_pointer or arg.use_empty:
            continue
        attrs = arg.attributes
        if attrs.has("byval") or attrs.has("inalloca") or attrs.has("preallocated"):
            continue
        align = attrs.alignment
        if not align:
            continue
        if dt is None:
            dt = DominatorTree(caller)
        value = call.get_arg(arg.arg_no)
        if get_or_enforce_known_alignment(value, None, dl, call, ac, dt) >= align:  # type: ignore[arg-type]
            continue
        b = _builder_before(call)
        assume = _create_alignment_assumption(b, value, align)
        register = getattr(ac, "register_assumption", None)
        if register is not None:
            register(assume)


def _create_alignment_assumption(b: IRBuilder, ptr: Value, align: int) -> Instruction:
    """``IRBuilder::CreateAlignmentAssumption``: ``assume(true) ["align"(ptr, i64 align)]``."""
    from llvmpy_mid.ir.instructions.calls import OperandBundle
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration

    ctx = b.context
    block = b.block
    assert block is not None and block.parent is not None and block.parent.parent is not None
    decl = intrinsic_declaration(block.parent.parent, "llvm.assume", ctx.function_type(ctx.void, [ctx.i1]))
    bundle = OperandBundle("align", (ptr, ConstantInt.get(ctx.i64, align)))
    return b.call(decl, [ConstantInt.get(ctx.i1, 1)], bundles=[bundle])
