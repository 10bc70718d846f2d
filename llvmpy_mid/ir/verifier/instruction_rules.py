"""Rules every instruction obeys (LLVM 19 ``Verifier::visitInstruction``, with
``visitTerminator`` in front of it for terminators).

What: the instruction is in a block; only phis refer to themselves (in
reachable code); void values have no name; the result is void or first-class
and metadata only from calls; every user is an instruction in a block; and,
for each operand: it is first-class; a function operand is only called (an
intrinsic may not have its address taken, and only a few may be invoked) and
lives in this module; blocks and arguments belong to this function; globals
to this module; an instruction operand belongs to this function and its
definition dominates the use (a phi's use sits at the end of the incoming
block; uses in unreachable blocks are fine; an ``invoke`` whose normal and
unwind destinations are the same block is skipped); inline asm is only
called. Pointer constant expressions (and ``ptrauth`` constants) among the
operands go to ``global_rules.visit_constant_exprs`` (LLVM's
``visitConstantExprsRecursively``, each constant once per run).

How: one walk over the instruction's uses and one over its operands. A use in
the defining block is decided by the block's instruction order numbers (as
``comes_before``: O(1), renumbered lazily after edits); a use in another block
is one O(1) query of the function's dominator tree (built once per function
by the checker); phi uses and invoke results go through the tree's
``dominates_use`` (incoming-block and normal-edge rules). LLVM visits an ``invoke`` twice (``visitCallBase``
and ``visitTerminator`` both end in ``visitInstruction``), so a finding about
an invoke is reported twice, as opt-19 prints it.

Not here: the metadata attachments checked at the end of LLVM's
``visitInstruction`` (``metadata_rules.verify_attachments``, run by the
driver when this passed) and the per-opcode rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import ConstantPtrAuth
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.types import TypeID
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.global_rules import visit_constant_exprs

if TYPE_CHECKING:
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.value import Value

_VOID = TypeID.VOID
_FUNCTION = TypeID.FUNCTION
_METADATA = TypeID.METADATA
_POINTER = TypeID.POINTER
_FIXED_VECTOR = TypeID.FIXED_VECTOR
_SCALABLE_VECTOR = TypeID.SCALABLE_VECTOR

# Intrinsics a non-``call`` instruction (invoke, callbr) may call, by name
# (LLVM 19's list behind "Cannot invoke an intrinsic other than ...").
_INVOKABLE_INTRINSICS = frozenset(
    (
        "llvm.donothing",
        "llvm.seh.try.begin",
        "llvm.seh.try.end",
        "llvm.seh.scope.begin",
        "llvm.seh.scope.end",
        "llvm.coro.resume",
        "llvm.coro.destroy",
        "llvm.coro.await.suspend.void",
        "llvm.coro.await.suspend.bool",
        "llvm.coro.await.suspend.handle",
        "llvm.experimental.patchpoint.void",
        "llvm.experimental.patchpoint",
        "llvm.experimental.gc.statepoint",
        "llvm.wasm.rethrow",
    )
)
# Overloaded ones, known by their name followed by a mangled suffix.
_INVOKABLE_PREFIXES = ("llvm.experimental.patchpoint.", "llvm.experimental.gc.statepoint.")

_CANNOT_INVOKE = (
    "Cannot invoke an intrinsic other than donothing, patchpoint, statepoint, "
    "coro_resume, coro_destroy or clang.arc.attachedcall"
)
_DOES_NOT_DOMINATE = "Instruction does not dominate all uses!"
_ATTACHED_CALL = "clang.arc.attachedcall"


def verify_instruction(c: Checker, inst: Instruction) -> None:
    """The generic checks, run after the opcode's own rules passed.

    For a terminator, LLVM's ``visitTerminator`` check comes first (the block
    must end with it)."""
    if not inst.is_terminator_class:
        visit_instruction(c, inst)
        return
    bb = inst.parent
    in_middle = bb is not None and bb.instructions._last is not inst
    if inst.opcode == "invoke":
        before = len(c.diagnostics)
        visit_instruction(c, inst)
        if in_middle:
            c.fail("Terminator found in the middle of a basic block!", bb)
            return
        if len(c.diagnostics) != before:
            visit_instruction(c, inst)
        return
    if in_middle:
        c.fail("Terminator found in the middle of a basic block!", bb)
        return
    visit_instruction(c, inst)


def _module_line(module: Module | None) -> str | None:
    """LLVM's ``Write(const Module *)``."""
    if module is None:
        return None
    return "; ModuleID = '%s'" % module.name


def _is_invokable(name: str) -> bool:
    if name in _INVOKABLE_INTRINSICS:
        return True
    return name.startswith(_INVOKABLE_PREFIXES)


def _is_attached_call_operand(inst: Instruction, index: int) -> bool:
    """Is operand ``index`` an input of a ``clang.arc.attachedcall`` bundle?"""
    for tag, start, end in inst.operand_bundle_ranges:  # type: ignore[attr-defined]
        if start <= index < end:
            return bool(tag == _ATTACHED_CALL)
    return False


def visit_instruction(c: Checker, inst: Instruction) -> None:
    """LLVM's ``visitInstruction`` alone (no terminator placement check, one
    visit even for an invoke): for rules that call it themselves."""
    bb = inst.parent
    if bb is None:
        c.fail("Instruction not embedded in basic block!", inst)
        return

    # One walk over the uses: a use by the instruction itself, and the first
    # user that is not an instruction in a block.
    self_use = False
    bad_user: Value | None = None
    use = inst._use_head
    while use is not None:
        user = use.user
        if user is inst:
            self_use = True
        elif bad_user is None and (not user.is_instruction or user.parent is None):  # type: ignore[attr-defined]
            bad_user = user
        use = use._next

    if self_use and not inst.is_phi and c.domtree.is_reachable(bb):
        c.fail("Only PHI nodes may reference their own value!", inst)
        return
    tid = inst.type.type_id
    if tid is _VOID:
        if inst._name:
            c.fail("Instruction has a name, but provides a void value!", inst)
            return
    elif tid is _FUNCTION:
        c.fail("Instruction returns a non-scalar type!", inst)
        return
    elif tid is _METADATA and inst.opcode != "call" and inst.opcode != "invoke":
        c.fail("Invalid use of metadata!", inst)
        return
    if bad_user is not None:
        if bad_user.is_instruction:
            c.fail("Instruction referencing instruction not embedded in a basic block!", inst, bad_user)
        else:
            c.fail("Use of instruction is not an instruction!", inst)
        return

    fn = bb.parent
    is_phi = inst.is_phi
    order = -1  # the instruction's order number, read when first needed
    for use in inst._operands:
        v = use.value
        if v is None:
            c.fail("Instruction has null operand!", inst)
            return
        vtid = v.type.type_id
        if vtid is _VOID or vtid is _FUNCTION:
            c.fail("Instruction operands must be first-class values!", inst)
            return
        if v.is_instruction:
            d: Instruction = v  # type: ignore[assignment]
            dbb = d.parent
            if dbb is bb:
                if is_phi:
                    pass  # a phi's use is at the end of the incoming block: the tree decides
                elif d.opcode != "invoke":
                    # Same block: the definition must come first (LLVM's quick check,
                    # and the tree's same-block rule), unless the block is unreachable.
                    if order < 0:
                        if not bb._order_valid:
                            bb._renumber()
                        order = inst._order
                    if d._order < order or not c.domtree.is_reachable(bb):
                        continue
                    c.fail(_DOES_NOT_DOMINATE, d, inst)
                    return
            elif dbb is None or dbb.parent is not fn:
                c.fail("Referring to an instruction in another function!", inst)
                return
            elif not is_phi and d.opcode != "invoke":
                if c.domtree.dominates_block(dbb, bb):
                    continue
                c.fail(_DOES_NOT_DOMINATE, d, inst)
                return
            if d.opcode == "invoke":
                dops = d._operands
                if dops[-3].value is dops[-2].value:
                    continue  # LLVM skips an invoke whose destinations coincide
            if not c.domtree.dominates_use(d, use):
                c.fail(_DOES_NOT_DOMINATE, d, inst)
                return
        elif v.is_constant:
            if v.is_global_value:
                if not _global_operand_ok(c, inst, v, use.index):
                    return
            elif vtid is _POINTER or (
                (vtid is _FIXED_VECTOR or vtid is _SCALABLE_VECTOR) and v.type.scalar_type.type_id is _POINTER
            ):
                if isinstance(v, (ConstantExpr, ConstantPtrAuth)):
                    visit_constant_exprs(c, v)
        elif v.is_argument:
            if v.parent is not fn:  # type: ignore[attr-defined]
                c.fail("Referring to an argument in another function!", inst)
                return
        elif v.is_basic_block:
            if v.parent is not fn:  # type: ignore[attr-defined]
                c.fail("Referring to a basic block in another function!", inst)
                return
        elif v.is_inline_asm:
            if not (inst.is_call_base and use.index == len(inst._operands) - 1):
                c.fail("Cannot take the address of an inline asm!", inst)
                return


def _global_operand_ok(c: Checker, inst: Instruction, v: Value, index: int) -> bool:
    """The operand loop's checks for a global operand; False once one reported."""
    module = c.module
    if module is None:
        bb = inst.parent
        fn = bb.parent if bb is not None else None
        module = fn.parent if fn is not None else None
    if isinstance(v, Function):
        if v.intrinsic_id:
            is_call = inst.is_call_base
            attached = is_call and _is_attached_call_operand(inst, index)
            if not (is_call and index == len(inst._operands) - 1) and not attached:
                c.fail("Cannot take the address of an intrinsic!", inst)
                return False
            if inst.opcode != "call" and not attached and not _is_invokable(v.name):
                c.fail(_CANNOT_INVOKE, inst)
                return False
        if v.parent is not module:
            c.fail("Referencing function in another module!", inst, _module_line(module), v, _module_line(v.parent))
            return False
        return True
    owner = v.parent  # type: ignore[attr-defined]
    if owner is not module:
        c.fail("Referencing global in another module!", inst, _module_line(module), v, _module_line(owner))
        return False
    return True


__all__ = ["visit_instruction", "verify_instruction"]
