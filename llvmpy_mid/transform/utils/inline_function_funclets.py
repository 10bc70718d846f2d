"""Where a funclet unwinds to (LLVM ``getUnwindDestToken`` /
``getUnwindDestTokenHelper``, lib/Transforms/Utils/InlineFunction.cpp).

The answer for an EH pad is the first pad outside it that an unwind edge leaving it
reaches, ``none`` (a ``ConstantTokenNone``) when it unwinds to the caller, or None
when nothing inside says. Answers are memoised per pad (catch pads go through their
catchswitch); a pad whose descendants say nothing inherits the answer of the nearest
ancestor that knows.
"""

from __future__ import annotations

from llvmpy_mid.ir.constants import ConstantTokenNone
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.eh import (
    CatchPadInst,
    CatchSwitchInst,
    CleanupPadInst,
    CleanupReturnInst,
    FuncletPadInst,
)
from llvmpy_mid.ir.instructions.terminators import InvokeInst
from llvmpy_mid.ir.value import Value

__all__ = ["UnwindDestMemo", "get_parent_pad", "get_unwind_dest_token"]

UnwindDestMemo = dict[Instruction, "Value | None"]


def get_parent_pad(pad: Value) -> Value:
    if isinstance(pad, FuncletPadInst):
        return pad.parent_pad
    assert isinstance(pad, CatchSwitchInst)
    return pad.parent_pad


def _first_non_phi(block: object) -> Instruction:
    first = block.first_non_phi  # type: ignore[attr-defined]
    assert first is not None
    return first  # type: ignore[no-any-return]


def _helper(eh_pad: Instruction, memo: UnwindDestMemo) -> Value | None:
    worklist: list[Instruction] = [eh_pad]
    while worklist:
        current = worklist.pop()
        token: Value | None = None
        if isinstance(current, CatchSwitchInst):
            dest = current.unwind_dest
            if dest is not None:
                token = _first_non_phi(dest)
            else:
                for handler in current.handlers:
                    if token is not None:
                        break
                    catch_pad = _first_non_phi(handler)
                    for child in catch_pad.users:
                        if not isinstance(child, (CleanupPadInst, CatchSwitchInst)):
                            continue
                        if child not in memo:
                            worklist.append(child)
                            continue
                        child_token = memo[child]
                        if child_token is None:
                            continue
                        if isinstance(child_token, ConstantTokenNone):
                            token = child_token
                            break
        else:
            assert isinstance(current, CleanupPadInst)
            for user in current.users:
                if isinstance(user, CleanupReturnInst):
                    ret_dest = user.unwind_dest if user.has_unwind_dest else None
                    if ret_dest is not None:
                        token = _first_non_phi(ret_dest)
                    else:
                        token = ConstantTokenNone.get(current.type.context.token)
                    break
                sub_token: Value | None
                if isinstance(user, InvokeInst):
                    sub_token = _first_non_phi(user.unwind_dest)
                elif isinstance(user, (CleanupPadInst, CatchSwitchInst)):
                    if user not in memo:
                        worklist.append(user)
                        continue
                    sub_token = memo[user]
                    if sub_token is None:
                        continue
                else:
                    continue
                if isinstance(sub_token, Instruction) and get_parent_pad(sub_token) is current:
                    continue
                token = sub_token
                break
        if token is None:
            continue
        unwind_parent = get_parent_pad(token) if isinstance(token, Instruction) else None
        exited_original = False
        exited: Value | None = current
        while isinstance(exited, Instruction) and exited is not unwind_parent:
            if not isinstance(exited, CatchPadInst):
                memo[exited] = token
                exited_original = exited_original or exited is eh_pad
            exited = get_parent_pad(exited)
        if exited_original:
            return token
    return None


def get_unwind_dest_token(eh_pad: Instruction, memo: UnwindDestMemo) -> Value | None:
    """LLVM ``getUnwindDestToken``."""
    if isinstance(eh_pad, CatchPadInst):
        eh_pad = eh_pad.catch_switch
    if eh_pad in memo:
        return memo[eh_pad]
    token = _helper(eh_pad, memo)
    if token is not None:
        return token
    memo[eh_pad] = None
    last_useless: Instruction = eh_pad
    ancestor: Value = get_parent_pad(eh_pad)
    while isinstance(ancestor, Instruction):
        if isinstance(ancestor, CatchPadInst):
            ancestor = get_parent_pad(ancestor)
            continue
        if ancestor not in memo:
            token = _helper(ancestor, memo)
        else:
            token = memo[ancestor]
        if token is not None:
            break
        last_useless = ancestor
        memo[last_useless] = None
        ancestor = get_parent_pad(ancestor)
    worklist: list[Instruction] = [last_useless]
    while worklist:
        useless = worklist.pop()
        if memo.get(useless) is not None:
            continue
        memo[useless] = token
        if isinstance(useless, CatchSwitchInst):
            for handler in useless.handlers:
                catch_pad = _first_non_phi(handler)
                for user in catch_pad.users:
                    if isinstance(user, (CatchSwitchInst, CleanupPadInst)):
                        worklist.append(user)
        else:
            for user in useless.users:
                if isinstance(user, (CatchSwitchInst, CleanupPadInst)):
                    worklist.append(user)
    return token
