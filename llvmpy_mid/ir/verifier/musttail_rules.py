"""The ``musttail`` rules (LLVM 19 ``Verifier::verifyMustTailCall``).

What: a ``musttail`` call does not call inline asm; caller and callee agree
on varargs, on the return type (pointers of one address space count as
equal), on the calling convention; the call is followed by ``ret``, with an
optional ``bitcast`` of the call in between, and the ``ret`` returns the
(cast) result, ``void`` or undef. Under ``tailcc``/``swifttailcc`` no
parameter of the caller or callee carries ``inalloca``, ``inreg``,
``swifterror``, ``preallocated`` or ``byref`` and the caller is not variadic;
otherwise (unless an intrinsic is called) the prototypes have as many
parameters, of congruent types, and every parameter's ABI-impacting
attributes (``sret``, ``byval``, ``inalloca``, ``inreg``, ``alignstack``,
``swiftself``, ``swiftasync``, ``swifterror``, ``preallocated``, ``byref``,
and ``align`` beside ``byval``/``byref``) are the same on the caller and on
the call site.

How: :func:`must_tail_problems` returns the findings instead of reporting
them, so the call rule can put LLVM's ``visitInstruction`` findings in front
(LLVM checks ``musttail`` after the whole call base). Under
``tailcc``/``swifttailcc`` each parameter's first forbidden attribute is one
finding (LLVM's helper returns per parameter), so there may be several;
otherwise the first failure is the only one.

Not here: the call-base checks (``call_rules``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.calling_conv import SWIFT_TAIL, TAIL
from llvmpy_mid.ir.constants import UndefValue
from llvmpy_mid.ir.types import Type, TypeID

if TYPE_CHECKING:
    from llvmpy_mid.ir.attributes import Attribute, AttributeList
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.instructions.calls import CallBase
    from llvmpy_mid.ir.verifier.checker import Checker, Item

Finding = tuple[str, tuple["Item", ...]]

_POINTER = TypeID.POINTER

# LLVM's getParameterABIAttributes, in its order.
_ABI_KINDS = (
    AttrKind.STRUCT_RET,
    AttrKind.BY_VAL,
    AttrKind.IN_ALLOCA,
    AttrKind.IN_REG,
    AttrKind.STACK_ALIGNMENT,
    AttrKind.SWIFT_SELF,
    AttrKind.SWIFT_ASYNC,
    AttrKind.SWIFT_ERROR,
    AttrKind.PREALLOCATED,
    AttrKind.BY_REF,
)
# verifyTailCCMustTailAttrs, in its order.
_TAILCC_FORBIDDEN = (
    (AttrKind.IN_ALLOCA, "inalloca"),
    (AttrKind.IN_REG, "inreg"),
    (AttrKind.SWIFT_ERROR, "swifterror"),
    (AttrKind.PREALLOCATED, "preallocated"),
    (AttrKind.BY_REF, "byref"),
)


def _congruent(a: Type, b: Type) -> bool:
    """Identical, or pointers of the same address space (LLVM ``isTypeCongruent``)."""
    if a is b:
        return True
    if a.type_id is not _POINTER or b.type_id is not _POINTER:
        return False
    return bool(a.address_space == b.address_space)  # type: ignore[attr-defined]


def _abi_attributes(attrs: AttributeList, index: int) -> tuple[Attribute, ...]:
    """The ABI-impacting attributes of parameter ``index``, in a fixed order."""
    s = attrs.param_attrs(index)
    if not s:
        return ()
    found = [a for a in (s.get(k) for k in _ABI_KINDS) if a is not None]
    if s.has(AttrKind.BY_VAL) or s.has(AttrKind.BY_REF):
        align = s.get(AttrKind.ALIGNMENT)
        if align is not None:
            found.append(align)
    return tuple(found)


def must_tail_problems(c: Checker, call: CallBase) -> list[Finding]:
    """Everything wrong with the ``musttail`` call ``call``, in LLVM's order
    (an empty list when the tail call can be guaranteed)."""
    if call._operands and call._operands[-1].value.is_inline_asm:
        return [("cannot use musttail call with inline asm", (call,))]
    bb = call.parent
    fn = bb.parent if bb is not None else None
    if bb is None or fn is None:
        return []
    caller_ty = fn.function_type
    callee_ty = call.function_type
    if caller_ty.is_vararg != callee_ty.is_vararg:
        return [("cannot guarantee tail call due to mismatched varargs", (call,))]
    if not _congruent(caller_ty.return_type, callee_ty.return_type):
        return [("cannot guarantee tail call due to mismatched return types", (call,))]
    if fn.calling_conv != call.calling_conv:
        return [("cannot guarantee tail call due to mismatched calling conv", (call,))]

    result: Instruction = call
    nxt: Instruction | None = call._next
    if nxt is not None and nxt.opcode == "bitcast":
        if nxt._operands[0].value is not result:
            return [("bitcast following musttail call must use the call", (nxt,))]
        result = nxt
        nxt = nxt._next
    if nxt is None or nxt.opcode != "ret":
        return [("musttail call must precede a ret with an optional bitcast", (call,))]
    if nxt._operands:
        returned = nxt._operands[0].value
        if returned is not result and not isinstance(returned, UndefValue):
            return [("musttail call result must be returned", (nxt,))]

    caller_attrs = fn.attributes
    callee_attrs = call.attributes
    cc = call.calling_conv
    if cc == TAIL or cc == SWIFT_TAIL:
        name = "tailcc" if cc == TAIL else "swifttailcc"
        found: list[Finding] = []
        for attrs, n, who in (
            (caller_attrs, len(caller_ty.params), " musttail caller"),
            (callee_attrs, len(callee_ty.params), " musttail callee"),
        ):
            for i in range(n):
                s = attrs.param_attrs(i)
                if not s:
                    continue
                for kind, spelled in _TAILCC_FORBIDDEN:
                    if s.has(kind):
                        found.append((spelled + " attribute not allowed in " + name + who, ()))
                        break
        if caller_ty.is_vararg:
            found.append(("cannot guarantee " + name + " tail call for varargs function", ()))
        return found

    called = call.called_function
    if called is None or not called.intrinsic_id:
        if len(caller_ty.params) != len(callee_ty.params):
            return [("cannot guarantee tail call due to mismatched parameter counts", (call,))]
        for a, b in zip(caller_ty.params, callee_ty.params):
            if not _congruent(a, b):
                return [("cannot guarantee tail call due to mismatched parameter types", (call,))]
    ops = call._operands
    for i in range(len(caller_ty.params)):
        if _abi_attributes(caller_attrs, i) != _abi_attributes(callee_attrs, i):
            operand = ops[i].value if i < len(ops) else None
            return [("cannot guarantee tail call due to mismatched ABI impacting function attributes", (call, operand))]
    return []


__all__ = ["Finding", "must_tail_problems"]
