"""Operand-bundle and convergence-control rules of calls (LLVM 19
``visitCallBase``'s bundle loop, ``verifyAttachedCallBundle`` and the
per-call part of ``verifyConvergenceControl``).

What: at most one bundle of each known kind, with well-formed inputs (deopt,
funclet, gc-transition, cfguardtarget, ptrauth, kcfi, preallocated, gc-live,
clang.arc.attachedcall); a direct call has no ptrauth bundle
(:func:`verify_bundles`); the convergence-control rules (one
``convergencectrl`` bundle holding a token made by a convergence intrinsic
and used only by a convergent call; where the entry/anchor/loop intrinsics
may stand; no mix of controlled and uncontrolled convergence in a function:
:func:`verify_convergence`).

How: the "Multiple ... operand bundles" and operand-count rules shared by
most kinds come from two tables; the kind-specific input checks follow in
LLVM's order. The controlled/uncontrolled state of a function is kept in
the checker's memo.

Not here: the rest of the call checks (``call_rules`` calls these where
LLVM checks them); the function-wide convergence rules that need cycle info.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.types import TypeID

if TYPE_CHECKING:
    from llvmpy_mid.ir.instructions.calls import CallBase
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.ir.verifier.checker import Checker

_TOKEN = TypeID.TOKEN
_ATTACHED_CALL_FNS = ("objc_retainAutoreleasedReturnValue", "objc_unsafeClaimAutoreleasedReturnValue")

# The bundle kinds that may occur once per call, with LLVM's message for a second one.
_MULTIPLE: dict[str, str] = {
    "deopt": "Multiple deopt operand bundles",
    "gc-transition": "Multiple gc-transition operand bundles",
    "funclet": "Multiple funclet operand bundles",
    "cfguardtarget": "Multiple CFGuardTarget operand bundles",
    "ptrauth": "Multiple ptrauth operand bundles",
    "kcfi": "Multiple kcfi operand bundles",
    "preallocated": "Multiple preallocated operand bundles",
    "gc-live": "Multiple gc-live operand bundles",
    "clang.arc.attachedcall": 'Multiple "clang.arc.attachedcall" operand bundles',
}

# The bundle kinds with a fixed number of inputs, with LLVM's message when it differs.
_ARITY: dict[str, tuple[int, str]] = {
    "funclet": (1, "Expected exactly one funclet bundle operand"),
    "cfguardtarget": (1, "Expected exactly one cfguardtarget bundle operand"),
    "ptrauth": (2, "Expected exactly two ptrauth bundle operands"),
    "kcfi": (1, "Expected exactly one kcfi bundle operand"),
    "preallocated": (1, "Expected exactly one preallocated bundle operand"),
}


def verify_bundles(c: Checker, call: CallBase, called: Function | None) -> bool:
    """The operand-bundle checks of ``visitCallBase`` (LLVM's loop, then the
    direct-call ptrauth rule); False when one returned early."""
    ops = call._operands
    seen: set[str] = set()
    ptrauth = False
    for tag, start, end in call._bundles:
        multiple = _MULTIPLE.get(tag)
        if multiple is None:
            seen.add(tag)
            continue
        if tag in seen:
            c.fail(multiple, call)
            return False
        inputs = [ops[i].value for i in range(start, end)]
        arity = _ARITY.get(tag)
        if arity is not None and len(inputs) != arity[0]:
            c.fail(arity[1], call)
            return False
        if tag == "funclet":
            pad = inputs[0]
            if not (pad.is_instruction and pad.opcode in ("catchpad", "cleanuppad")):  # type: ignore[attr-defined]
                c.fail("Funclet bundle operands should correspond to a FuncletPadInst", call)
                return False
        elif tag == "ptrauth":
            ptrauth = True
            if not (isinstance(inputs[0], ConstantInt) and inputs[0].type.is_integer_bits(32)):
                c.fail("Ptrauth bundle key operand must be an i32 constant", call)
                return False
            if not inputs[1].type.is_integer_bits(64):
                c.fail("Ptrauth bundle discriminator operand must be an i64", call)
                return False
        elif tag == "kcfi":
            if not (isinstance(inputs[0], ConstantInt) and inputs[0].type.is_integer_bits(32)):
                c.fail("Kcfi bundle operand must be an i32 constant", call)
                return False
        elif tag == "preallocated":
            setup = inputs[0]
            ok = False
            if setup.is_instruction and setup.opcode == "call":  # type: ignore[attr-defined]
                setup_fn = setup.called_function  # type: ignore[attr-defined]
                ok = setup_fn is not None and lookup_intrinsic(setup_fn.name) == "llvm.call.preallocated.setup"
            if not ok:
                c.fail('"preallocated" argument must be a token from llvm.call.preallocated.setup', call)
                return False
        elif tag == "clang.arc.attachedcall":
            _attached_call(c, call, inputs)
        seen.add(tag)
    if called is not None and ptrauth:
        c.fail("Direct call cannot have a ptrauth bundle", call)
        return False
    return True


def _attached_call(c: Checker, call: CallBase, inputs: Sequence[Value]) -> None:
    """LLVM's ``verifyAttachedCallBundle`` (its failures do not stop the call's checks)."""
    ret = call.function_type.return_type
    if not (ret.is_pointer or (ret.is_void and call.does_not_return)):
        c.fail(
            'a call with operand bundle "clang.arc.attachedcall" must call a function returning a pointer or a '
            "non-returning function that has a void return type",
            call,
        )
        return
    if len(inputs) != 1 or not isinstance(inputs[0], Function):
        c.fail('operand bundle "clang.arc.attachedcall" requires one function as an argument', call)
        return
    fn = inputs[0]
    iid = lookup_intrinsic(fn.name)
    if iid is not None:
        ok = iid in ("llvm.objc.retainAutoreleasedReturnValue", "llvm.objc.unsafeClaimAutoreleasedReturnValue")
    else:
        ok = fn.name in _ATTACHED_CALL_FNS
    if not ok:
        c.fail("invalid function argument", call)


_CONV_ENTRY = "llvm.experimental.convergence.entry"
_CONV_ANCHOR = "llvm.experimental.convergence.anchor"
_CONV_LOOP = "llvm.experimental.convergence.loop"
_CONV_INTRINSICS = (_CONV_ENTRY, _CONV_ANCHOR, _CONV_LOOP)
_CONTROLLED = 1
_UNCONTROLLED = 2
_MEMO_CONV = "call-convergence:"


def _intrinsic_of(call: Value) -> str | None:
    """The convergence-control intrinsic a call instruction calls, or None."""
    if not (call.is_instruction and call.is_call_base):  # type: ignore[attr-defined]
        return None
    fn = call.called_function  # type: ignore[attr-defined]
    if fn is None or not fn.intrinsic_id or not fn.name.startswith("llvm.experimental.convergence."):
        return None
    return lookup_intrinsic(fn.name)


def _convergence_token(c: Checker, call: CallBase) -> Value | None:
    """LLVM's ``findAndCheckConvergenceTokenUsed``: the convergence-control
    intrinsic call whose token the ``convergencectrl`` bundle uses (failures
    return None from here only)."""
    count = sum(1 for info in call._bundles if info[0] == "convergencectrl")
    if count > 1:
        c.fail("The 'convergencectrl' bundle can occur at most once on a call", call)
        return None
    if not count:
        return None
    ops = call._operands
    for tag, start, end in call._bundles:
        if tag == "convergencectrl":
            if end - start != 1 or ops[start].value.type.type_id is not _TOKEN:
                c.fail("The 'convergencectrl' bundle requires exactly one token use.", call)
                return None
            token = ops[start].value
            if not token.is_instruction or _intrinsic_of(token) not in _CONV_INTRINSICS:
                c.fail(
                    "Convergence control tokens can only be produced by calls to the convergence control "
                    "intrinsics.",
                    token,
                    call,
                )
                return None
            return token
    return None


def verify_convergence(c: Checker, call: CallBase) -> None:
    """The per-call part of LLVM's convergence verifier (``visit(Instruction)``):
    the ``convergencectrl`` bundle, the entry/anchor/loop intrinsics, and no
    mix of controlled and uncontrolled convergent calls in one function. Its
    failures return from here only. (The function-wide part -- nesting of
    convergence regions, cycle hearts -- is not done.)"""
    iid = _intrinsic_of(call)
    convergent = call.is_convergent
    if not call._bundles and not convergent and iid not in _CONV_INTRINSICS:
        return
    bb = call.parent
    fn = bb.parent if bb is not None else None
    key = _MEMO_CONV + str(id(fn))
    found = c.memo.get(key)
    state: list[object]
    if isinstance(found, list):
        state = found
    else:
        # [block, a convergent call seen in it so far, the function's kind of convergence]
        state = [None, False, 0]
        c.memo[key] = state
    if state[0] is not bb:
        state[0] = bb
        state[1] = False
    token = _convergence_token(c, call) if call._bundles else None
    is_control = True
    if iid == _CONV_ENTRY:
        if fn is None or not fn.attributes.fn_attrs.has(AttrKind.CONVERGENT):
            c.fail("Entry intrinsic can occur only in a convergent function.", call)
            return
        if fn.blocks._first is not bb:
            c.fail("Entry intrinsic can occur only in the entry block.", call)
            return
        if state[1]:
            c.fail("Entry intrinsic cannot be preceded by a convergent operation in the same basic block.", call)
            return
    if iid == _CONV_ENTRY or iid == _CONV_ANCHOR:
        if token is not None:
            c.fail("Entry or anchor intrinsic cannot have a convergencectrl token operand.", call)
            return
    elif iid == _CONV_LOOP:
        if token is None:
            c.fail("Loop intrinsic must have a convergencectrl token operand.", call)
            return
        if state[1]:
            c.fail("Loop intrinsic cannot be preceded by a convergent operation in the same basic block.", call)
            return
    else:
        is_control = False
    if convergent:
        state[1] = True
    if token is not None or is_control:
        if not convergent:
            c.fail("Convergence control token can only be used in a convergent call.", call)
            return
        if state[2] == _UNCONTROLLED:
            c.fail("Cannot mix controlled and uncontrolled convergence in the same function.", call)
            return
        state[2] = _CONTROLLED
    elif convergent:
        if state[2] == _CONTROLLED:
            c.fail("Cannot mix controlled and uncontrolled convergence in the same function.", call)
            return
        state[2] = _UNCONTROLLED


__all__ = ["verify_bundles", "verify_convergence"]
