"""Per-opcode rules for exception handling: ``landingpad``, ``resume``,
``catchswitch``, ``catchpad``, ``cleanuppad``, ``catchret``, ``cleanupret``
(LLVM 19 ``visitLandingPadInst``, ``visitResumeInst``,
``visitCatchSwitchInst``, ``visitCatchPadInst``, ``visitCleanupPadInst``,
``visitFuncletPadInst``, ``visitCatchReturnInst``,
``visitCleanupReturnInst``, ``visitEHPadPredecessors``,
``verifySiblingFuncletUnwinds``).

What: a landingpad has a clause or is a cleanup, is the first non-phi of
its block, has the function's one landingpad/resume type, sits in a
function with a personality, catches pointers and filters with constant
arrays, and is reached only by the unwind edge of invokes. The funclet pads
(catchswitch, catchpad, cleanuppad) need a personality, start their block,
have a proper parent pad, and are entered only through unwind edges that
leave exactly the pads between the edge's origin and the pad's parent; a
catchpad belongs to its catchswitch's handlers. ``catchret``/``cleanupret``
name the right kind of pad; a catchswitch or cleanupret does not unwind to a
landingpad; every unwind edge leaving a funclet pad goes to the same place
(the catchswitch's for a catchpad); sibling funclets do not unwind into each
other in a cycle (checked once the function's last instruction is reached).

How: the per-function state LLVM keeps in the verifier (the landingpad
result type, the sibling-unwind map) is in the checker's memo under a key
with the function's id. Predecessors come from the block's use-list, and a
pad's users from its own (LLVM's order). ``visitEHPadPredecessors`` and
``visitFuncletPadInst`` only return from themselves on a failure, so a rule
that has reported runs LLVM's ``visitInstruction``/``visitTerminator`` itself
(``call_rules.visit_instruction``); a silent rule leaves them to the driver.
The sibling-unwind cycle check is a rule on every terminator opcode that acts
only on the last instruction of a function with sibling unwinds recorded.

Not here: ``invoke`` (``call_rules``: its unwind destination must start with
an EH pad); funclet operand bundles on calls (``call_rules``); the
``eh.exceptionpointer``/``wasm`` intrinsic rules (``intrinsic_rules``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import ConstantAggregateZero, ConstantArray, ConstantTokenNone
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.types import TypeID
from llvmpy_mid.ir.verifier.call_rules import (
    strip_pointer_casts,
    visit_instruction,
    visit_terminator,
)
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.rule import RuleTable

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value

_ARRAY = TypeID.ARRAY
_POINTER = TypeID.POINTER

_MEMO_LPAD_TYPE = "eh-lpad-type:"
_MEMO_SIBLINGS = "eh-siblings:"

_FUNCLET_PADS = ("catchpad", "cleanuppad")
_PARENT_PADS = ("catchpad", "cleanuppad", "catchswitch")


# --- helpers ---------------------------------------------------------------------------------------
def _opcode(v: Value | None) -> str:
    """The opcode of an instruction, "" for anything else."""
    if v is not None and v.is_instruction:
        return v.opcode  # type: ignore[attr-defined,no-any-return]
    return ""


def _parent_pad(pad: Value | None) -> Value | None:
    """LLVM's ``getParentPad`` for a funclet pad or catchswitch; None otherwise."""
    op = _opcode(pad)
    if op == "catchpad" or op == "cleanuppad":
        parent: Value = pad._operands[-1].value  # type: ignore[union-attr]
        return parent
    if op == "catchswitch":
        parent = pad._operands[0].value  # type: ignore[union-attr]
        return parent
    return None


def _function(inst: Instruction) -> Function | None:
    bb = inst.parent
    return bb.parent if bb is not None else None


def _has_personality(fn: Function | None) -> bool:
    return fn is not None and fn.personality is not None


def _first_non_phi(block: object) -> Instruction | None:
    if not getattr(block, "is_basic_block", False):
        return None
    return block.first_non_phi  # type: ignore[attr-defined,no-any-return]


def _none_token(inst: Instruction) -> Value:
    return ConstantTokenNone.get(inst.type.context.token)


def _unwind_dest(term: Value) -> BasicBlock | None:
    """The unwind destination of an invoke, catchswitch or cleanupret."""
    op = _opcode(term)
    if op == "invoke":
        return term._operands[-2].value  # type: ignore[attr-defined,no-any-return]
    if op == "catchswitch" or op == "cleanupret":
        return term.unwind_dest  # type: ignore[attr-defined,no-any-return]
    return None


def _check_result_type(c: Checker, fn: Function | None, ty: Type) -> bool:
    """LLVM's ``LandingPadResultTy``: the first landingpad or resume sets it."""
    key = _MEMO_LPAD_TYPE + str(id(fn))
    seen = c.memo.get(key)
    if seen is None:
        c.memo[key] = ty
        return True
    return seen is ty


def _siblings(c: Checker, fn: Function | None, create: bool) -> dict[Instruction, Instruction] | None:
    key = _MEMO_SIBLINGS + str(id(fn))
    table = c.memo.get(key)
    if table is None and create:
        table = c.memo[key] = {}
    return table  # type: ignore[return-value]


def _may_lower_to_function_call(name: str) -> bool:
    """LLVM's ``IntrinsicInst::mayLowerToFunctionCall``: the ObjC ARC runtime intrinsics."""
    return name.startswith("llvm.objc.")


# --- visitEHPadPredecessors ---------------------------------------------------------------------------
def _eh_pad_predecessors(c: Checker, pad: Instruction) -> None:
    """How an EH pad may be entered (failures return from here only)."""
    bb = pad.parent
    fn = bb.parent if bb is not None else None
    if bb is None or fn is None:
        return
    if fn.blocks._first is bb:
        c.fail("EH pad cannot be in entry block.", pad)
        return
    op = pad.opcode
    preds = bb.predecessors
    if op == "landingpad":
        for pred in preds:
            term = pred.terminator
            if not (
                _opcode(term) == "invoke"
                and term._operands[-2].value is bb  # type: ignore[union-attr]
                and term._operands[-3].value is not bb  # type: ignore[union-attr]
            ):
                c.fail("Block containing LandingPadInst must be jumped to only by the unwind edge of an invoke.", pad)
                return
        return
    if op == "catchpad":
        switch = pad._operands[-1].value
        if preds:
            unique = bb.unique_predecessor
            if unique is None or unique is not switch.parent:  # type: ignore[attr-defined]
                c.fail("Block containg CatchPadInst must be jumped to only by its catchswitch.", pad)
                return
        if _unwind_dest(switch) is bb:
            c.fail("Catchswitch cannot unwind to one of its catchpads", switch, pad)
        return

    to_parent = _parent_pad(pad)
    none = _none_token(pad)
    for pred in preds:
        term = pred.terminator
        top = _opcode(term)
        from_pad: Value | None
        if top == "invoke":
            ops = term._operands  # type: ignore[union-attr]
            if not (ops[-2].value is bb and ops[-3].value is not bb):
                c.fail("EH pad must be jumped to via an unwind edge", pad, term)
                return
            callee = strip_pointer_casts(ops[-1].value)
            if isinstance(callee, Function) and callee.intrinsic_id and term.does_not_throw:  # type: ignore[union-attr]
                iid = lookup_intrinsic(callee.name)
                if iid is None or not _may_lower_to_function_call(iid):
                    continue
            from_pad = none
            for tag, start, end in term._bundles:  # type: ignore[union-attr]
                if tag == "funclet":
                    from_pad = ops[start].value if end > start else None
                    break
        elif top == "cleanupret":
            from_pad = term._operands[0].value  # type: ignore[union-attr]
            if from_pad is to_parent:
                c.fail("A cleanupret must exit its cleanup", term)
                return
        elif top == "catchswitch":
            from_pad = term
        else:
            c.fail("EH pad must be jumped to via an unwind edge", pad, term)
            return
        # The edge may leave any number of nested pads.
        seen: set[int] = set()
        while True:
            if from_pad is pad:
                c.fail("EH pad cannot handle exceptions raised within it", from_pad, term)
                return
            if from_pad is to_parent:
                break
            if isinstance(from_pad, ConstantTokenNone):
                c.fail("A single unwind edge may only enter one EH pad", term)
                return
            if id(from_pad) in seen:
                c.fail("EH pad jumps through a cycle of pads", from_pad)
                return
            seen.add(id(from_pad))
            if _opcode(from_pad) not in _PARENT_PADS:
                c.fail("Parent pad must be catchpad/cleanuppad/catchswitch", term)
                return
            from_pad = _parent_pad(from_pad)


# --- visitFuncletPadInst --------------------------------------------------------------------------------
def _funclet_pad(c: Checker, fpi: Instruction) -> bool:
    """LLVM's ``visitFuncletPadInst`` without its final ``visitInstruction``:
    every unwind edge that leaves ``fpi`` goes to the same place. False when
    a check returned early."""
    none = _none_token(fpi)
    first_user: Value | None = None
    first_unwind_pad: Value | None = None
    worklist: list[Instruction] = [fpi]
    seen: set[Instruction] = set()
    while worklist:
        current = worklist.pop()
        if current in seen:
            c.fail("FuncletPadInst must not be nested within itself", current)
            return False
        seen.add(current)
        unresolved: Value | None = None
        use = current._use_head
        while use is not None:
            user = use.user
            use = use._next
            uop = _opcode(user)
            if uop == "cleanupret":
                unwind_dest = user.unwind_dest  # type: ignore[attr-defined]
            elif uop == "catchswitch":
                if not user.has_unwind_dest:  # type: ignore[attr-defined]
                    continue
                unwind_dest = user.unwind_dest  # type: ignore[attr-defined]
            elif uop == "invoke":
                unwind_dest = user._operands[-2].value
            elif uop == "call":
                continue
            elif uop == "cleanuppad":
                worklist.append(user)  # type: ignore[arg-type]
                continue
            else:
                if uop != "catchret":
                    c.fail("Bogus funclet pad use", user)
                    return False
                continue

            exits_fpi = False
            if unwind_dest is not None:
                unwind_pad: Value | None = _first_non_phi(unwind_dest)
                if unwind_pad is None or not unwind_pad.is_eh_pad:  # type: ignore[attr-defined]
                    continue
                unwind_parent = _parent_pad(unwind_pad)
                if unwind_parent is current:
                    continue
                exited: Value | None = current
                walked: set[int] = set()
                while True:
                    if exited is fpi:
                        exits_fpi = True
                        unresolved = fpi
                        break
                    exited_parent = _parent_pad(exited)
                    if exited_parent is unwind_parent:
                        unresolved = exited_parent
                        break
                    exited = exited_parent
                    # (LLVM stops at ``none``; a broken parent chain stops here too.)
                    if exited is None or isinstance(exited, ConstantTokenNone) or id(exited) in walked:
                        break
                    walked.add(id(exited))
            else:
                unwind_pad = none
                exits_fpi = True
                unresolved = fpi

            if exits_fpi:
                if first_user is not None:
                    if unwind_pad is not first_unwind_pad:
                        c.fail("Unwind edges out of a funclet pad must have the same unwind dest", fpi, user, first_user)
                        return False
                else:
                    first_user = user
                    first_unwind_pad = unwind_pad
                    if (
                        fpi.opcode == "cleanuppad"
                        and unwind_pad is not none
                        and _parent_pad(unwind_pad) is _parent_pad(fpi)
                    ):
                        table = _siblings(c, _function(fpi), True)
                        assert table is not None
                        table[fpi] = user  # type: ignore[assignment]
            if current is not fpi:
                break
        if unresolved is not None:
            if current is unresolved:
                continue
            # Drop from the worklist the nested pads whose unwind destination
            # is now known (the uncles of ``current`` up to ``unresolved``).
            resolved: Value | None = current
            while worklist:
                ancestor = _parent_pad(worklist[-1])
                climbed: set[int] = set()
                while resolved is not ancestor:
                    resolved_parent = _parent_pad(resolved)
                    if resolved_parent is unresolved:
                        break
                    resolved = resolved_parent
                    if resolved is None or id(resolved) in climbed:
                        break
                    climbed.add(id(resolved))
                if resolved is not ancestor:
                    break
                worklist.pop()

    if first_unwind_pad is not None:
        switch = fpi._operands[-1].value
        if _opcode(switch) == "catchswitch":
            dest = _unwind_dest(switch)
            switch_pad: Value | None = _first_non_phi(dest) if dest is not None else none
            if switch_pad is not first_unwind_pad:
                c.fail(
                    "Unwind edges out of a catch must have the same unwind dest as the parent catchswitch",
                    fpi,
                    first_user,
                    switch,
                )
                return False
    return True


# --- the visitors -------------------------------------------------------------------------------------
def _landingpad(c: Checker, lp: Instruction) -> None:
    ops = lp._operands
    if not ops and not lp.cleanup:  # type: ignore[attr-defined]
        c.fail("LandingPadInst needs at least one clause or to be a cleanup.", lp)
        return
    n0 = len(c.diagnostics)
    _eh_pad_predecessors(c, lp)
    fn = _function(lp)
    if not _check_result_type(c, fn, lp.type):
        c.fail("The landingpad instruction should have a consistent result type inside a function.", lp)
        return
    if not _pad_has_personality(c, fn, lp, "LandingPadInst"):
        return
    if not _pad_is_first(c, lp, "LandingPadInst"):
        return
    for use in ops:
        clause = use.value
        if clause.type.type_id is not _ARRAY:
            if clause.type.type_id is not _POINTER:
                c.fail("Catch operand does not have pointer type!", lp)
                return
        elif not isinstance(clause, (ConstantArray, ConstantAggregateZero)):
            c.fail("Filter operand is not an array of constants!", lp)
            return
    if len(c.diagnostics) != n0:
        visit_instruction(c, lp)


def _resume(c: Checker, ri: Instruction) -> None:
    n0 = len(c.diagnostics)
    fn = _function(ri)
    if not _has_personality(fn):
        c.fail("ResumeInst needs to be in a function with a personality.", ri)
    elif ri._operands and not _check_result_type(c, fn, ri._operands[0].value.type):
        c.fail("The resume instruction should have a consistent result type inside a function.", ri)
    _function_end(c, ri, n0)


def _pad_has_personality(c: Checker, fn: Function | None, pad: Instruction, name: str) -> bool:
    """An EH pad's function has a personality; reports LLVM's message if not."""
    if _has_personality(fn):
        return True
    c.fail(name + " needs to be in a function with a personality.", pad)
    return False


def _pad_is_first(c: Checker, pad: Instruction, name: str) -> bool:
    """An EH pad is its block's first non-phi instruction; reports LLVM's message if not."""
    bb = pad.parent
    if bb is not None and bb.first_non_phi is pad:
        return True
    c.fail(name + " not the first non-PHI instruction in the block.", pad)
    return False


def _funclet_pad_tail(c: Checker, pad: Instruction) -> None:
    """The predecessor and funclet checks a catchpad or cleanuppad ends with;
    the pad is printed again when they reported."""
    n0 = len(c.diagnostics)
    _eh_pad_predecessors(c, pad)
    if _funclet_pad(c, pad) and len(c.diagnostics) != n0:
        visit_instruction(c, pad)


def _catchpad(c: Checker, cpi: Instruction) -> None:
    fn = _function(cpi)
    if not _pad_has_personality(c, fn, cpi, "CatchPadInst"):
        return
    parent = cpi._operands[-1].value
    if _opcode(parent) != "catchswitch":
        c.fail("CatchPadInst needs to be directly nested in a CatchSwitchInst.", parent)
        return
    if not _pad_is_first(c, cpi, "CatchPadInst"):
        return
    _funclet_pad_tail(c, cpi)


def _cleanuppad(c: Checker, cpi: Instruction) -> None:
    fn = _function(cpi)
    if not _pad_has_personality(c, fn, cpi, "CleanupPadInst"):
        return
    if not _pad_is_first(c, cpi, "CleanupPadInst"):
        return
    parent = cpi._operands[-1].value
    if not (isinstance(parent, ConstantTokenNone) or _opcode(parent) in _FUNCLET_PADS):
        c.fail("CleanupPadInst has an invalid parent.", cpi)
        return
    _funclet_pad_tail(c, cpi)


def _catchswitch_body(c: Checker, cs: Instruction) -> None:
    fn = _function(cs)
    if not _pad_has_personality(c, fn, cs, "CatchSwitchInst"):
        return
    if not _pad_is_first(c, cs, "CatchSwitchInst"):
        return
    parent = cs._operands[0].value
    if not (isinstance(parent, ConstantTokenNone) or _opcode(parent) in _FUNCLET_PADS):
        c.fail("CatchSwitchInst has an invalid parent.", parent)
        return
    dest = _unwind_dest(cs)
    if dest is not None:
        first = _first_non_phi(dest)
        if first is None or not first.is_eh_pad or first.opcode == "landingpad":
            c.fail("CatchSwitchInst must unwind to an EH block which is not a landingpad.", cs)
            return
        if _parent_pad(first) is parent:
            table = _siblings(c, fn, True)
            assert table is not None
            table[cs] = cs
    handlers = cs.handlers  # type: ignore[attr-defined]
    if not handlers:
        c.fail("CatchSwitchInst cannot have empty handler list", cs)
        return
    for handler in handlers:
        if _opcode(_first_non_phi(handler)) != "catchpad":
            c.fail("CatchSwitchInst handlers must be catchpads", cs, handler)
            return
    n0 = len(c.diagnostics)
    _eh_pad_predecessors(c, cs)
    if len(c.diagnostics) != n0:
        visit_terminator(c, cs)


def _catchswitch(c: Checker, cs: Instruction) -> None:
    n0 = len(c.diagnostics)
    _catchswitch_body(c, cs)
    _function_end(c, cs, n0)


def _catchret(c: Checker, cr: Instruction) -> None:
    n0 = len(c.diagnostics)
    pad = cr._operands[0].value
    if _opcode(pad) != "catchpad":
        c.fail("CatchReturnInst needs to be provided a CatchPad", cr, pad)
    _function_end(c, cr, n0)


def _cleanupret(c: Checker, cri: Instruction) -> None:
    n0 = len(c.diagnostics)
    pad = cri._operands[0].value
    if _opcode(pad) != "cleanuppad":
        c.fail("CleanupReturnInst needs to be provided a CleanupPad", cri, pad)
    else:
        dest = _unwind_dest(cri)
        if dest is not None:
            first = _first_non_phi(dest)
            if first is None or not first.is_eh_pad or first.opcode == "landingpad":
                c.fail("CleanupReturnInst must unwind to an EH block which is not a landingpad.", cri)
    _function_end(c, cri, n0)


# --- verifySiblingFuncletUnwinds -------------------------------------------------------------------
def _succ_pad(term: Instruction) -> Instruction | None:
    dest = _unwind_dest(term)
    return _first_non_phi(dest) if dest is not None else None


def _sibling_cycle(table: dict[Instruction, Instruction]) -> list[Instruction] | None:
    """The first cycle of sibling funclets unwinding into each other, in
    LLVM's order (pad, then its terminator when that is another instruction)."""
    visited: set[Instruction] = set()
    for pred_pad, term in list(table.items()):
        if pred_pad in visited:
            continue
        active = {pred_pad}
        while True:
            succ = _succ_pad(term)
            if succ is None:
                break
            if succ in active:
                cycle: list[Instruction] = []
                pad: Instruction | None = succ
                for _ in range(2 * len(table) + 2):
                    if pad is None or pad not in table:
                        break
                    cycle.append(pad)
                    cycle_term = table[pad]
                    if cycle_term is not pad:
                        cycle.append(cycle_term)
                    pad = _succ_pad(cycle_term)
                    if pad is succ:
                        break
                return cycle
            if succ in visited:
                break
            visited.add(succ)
            nxt = table.get(succ)
            if nxt is None:
                break
            term = nxt
            active.add(succ)
    return None


def _function_end(c: Checker, inst: Instruction, n0: int) -> None:
    """At the function's last instruction, LLVM's ``verifySiblingFuncletUnwinds``
    (after the instruction's own visit, done here when no rule reported)."""
    bb = inst.parent
    if inst._next is not None or bb is None or bb._next is not None:
        return
    table = _siblings(c, bb.parent, False)
    if not table:
        return
    cycle = _sibling_cycle(table)
    if cycle is None:
        return
    if len(c.diagnostics) == n0:
        visit_terminator(c, inst)
    c.fail("EH pads can't handle each other's exceptions", *cycle)


def _other_terminator(c: Checker, inst: Instruction) -> None:
    _function_end(c, inst, len(c.diagnostics))


INSTRUCTION_RULES: RuleTable = {
    "landingpad": _landingpad,
    "resume": _resume,
    "catchswitch": _catchswitch,
    "catchpad": _catchpad,
    "cleanuppad": _cleanuppad,
    "catchret": _catchret,
    "cleanupret": _cleanupret,
    "ret": _other_terminator,
    "br": _other_terminator,
    "switch": _other_terminator,
    "indirectbr": _other_terminator,
    "unreachable": _other_terminator,
    "invoke": _other_terminator,
    "callbr": _other_terminator,
}

__all__ = ["INSTRUCTION_RULES"]
