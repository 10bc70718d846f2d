"""The expression nodes of ScalarEvolution (LLVM 19.1.7 ``include/llvm/Analysis/
ScalarEvolutionExpressions.h`` and the ``SCEV`` class of ``ScalarEvolution.h``).

What: one immutable-shaped node class per kind (constant, unknown, truncate/zext/sext, add, mul,
udiv, add recurrence, smax/umax/smin/umin, sequential umin, could-not-compute). Nodes are only
made by a :class:`~llvmpy_mid.analysis.scalar_evolution.ScalarEvolution`, which uniques them, so
two equal expressions of one analysis are the same object and compare by identity. The no-wrap
flags of add, mul and add-recurrence nodes are facts learnt about the node and may only grow
(as in LLVM, where they live on the uniqued node).

Each node has a creation ``serial`` (its analysis's counter): operands of commutative nodes are
kept sorted by (kind, serial), which makes the uniquing key independent of the order the
operands were given in.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from llvmpy_mid.analysis.loop_info import Loop
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value

__all__ = [
    "FLAG_ANY_WRAP",
    "FLAG_NSW",
    "FLAG_NUW",
    "FLAG_NW",
    "SCEV",
    "SCEVAddRecExpr",
    "SCEVCastExpr",
    "SCEVConstant",
    "SCEVCouldNotCompute",
    "SCEVNAryExpr",
    "SCEVTypes",
    "SCEVUDivExpr",
    "SCEVUnknown",
    "walk_scev",
]

FLAG_ANY_WRAP = 0
FLAG_NW = 1
FLAG_NUW = 2
FLAG_NSW = 4


class SCEVTypes(IntEnum):
    """The node kinds, in LLVM's ``SCEVTypes`` order (which is also the complexity order)."""

    CONSTANT = 0
    VSCALE = 1
    TRUNCATE = 2
    ZERO_EXTEND = 3
    SIGN_EXTEND = 4
    ADD = 5
    MUL = 6
    UDIV = 7
    ADD_REC = 8
    UMAX = 9
    SMAX = 10
    UMIN = 11
    SMIN = 12
    SEQ_UMIN = 13
    PTR_TO_INT = 14
    UNKNOWN = 15
    COULD_NOT_COMPUTE = 16


MIN_MAX_KINDS = frozenset((SCEVTypes.UMAX, SCEVTypes.SMAX, SCEVTypes.UMIN, SCEVTypes.SMIN))
CAST_KINDS = frozenset((SCEVTypes.TRUNCATE, SCEVTypes.ZERO_EXTEND, SCEVTypes.SIGN_EXTEND, SCEVTypes.PTR_TO_INT))


class SCEV:
    """A scalar expression. ``type`` is the IR type (integer or pointer); ``operands`` the
    sub-expressions (empty for leaves)."""

    __slots__ = ("kind", "type", "operands", "flags", "serial", "__weakref__")

    def __init__(self, kind: SCEVTypes, ty: Type | None, operands: tuple[SCEV, ...], serial: int) -> None:
        self.kind = kind
        self.type = ty
        self.operands = operands
        self.flags = FLAG_ANY_WRAP
        self.serial = serial

    def is_zero(self) -> bool:
        return False

    def is_one(self) -> bool:
        return False

    def is_all_ones(self) -> bool:
        return False

    def has_flags(self, mask: int) -> bool:
        return (self.flags & mask) == mask

    def __repr__(self) -> str:
        return "<SCEV %s #%d>" % (self.kind.name, self.serial)


class SCEVConstant(SCEV):
    """An integer constant; ``value`` is the unsigned pattern, ``bit_width`` its width."""

    __slots__ = ("value", "bit_width", "ir_value")

    def __init__(self, ty: Type, value: int, bit_width: int, ir_value: Value, serial: int) -> None:
        super().__init__(SCEVTypes.CONSTANT, ty, (), serial)
        self.value = value
        self.bit_width = bit_width
        self.ir_value = ir_value

    @property
    def signed_value(self) -> int:
        v = self.value
        return v - (1 << self.bit_width) if v >> (self.bit_width - 1) else v

    def is_zero(self) -> bool:
        return self.value == 0

    def is_one(self) -> bool:
        return self.value == 1

    def is_all_ones(self) -> bool:
        return self.value == (1 << self.bit_width) - 1

    def __repr__(self) -> str:
        return "<SCEVConstant i%d %d>" % (self.bit_width, self.signed_value)


class SCEVUnknown(SCEV):
    """An opaque IR value."""

    __slots__ = ("value",)

    def __init__(self, ty: Type, value: Value, serial: int) -> None:
        super().__init__(SCEVTypes.UNKNOWN, ty, (), serial)
        self.value = value


class SCEVCastExpr(SCEV):
    """truncate, zero-extend, sign-extend or ptrtoint of one operand to ``type``."""

    __slots__ = ()

    @property
    def operand(self) -> SCEV:
        return self.operands[0]


class SCEVNAryExpr(SCEV):
    """add, mul, the min/max kinds and sequential umin."""

    __slots__ = ()


class SCEVUDivExpr(SCEV):
    """Unsigned division ``lhs /u rhs``."""

    __slots__ = ()

    @property
    def lhs(self) -> SCEV:
        return self.operands[0]

    @property
    def rhs(self) -> SCEV:
        return self.operands[1]


class SCEVAddRecExpr(SCEV):
    """``{start,+,step,+,...}<loop>``: the value on iteration i is sum(op[k] * C(i, k))."""

    __slots__ = ("loop",)

    def __init__(self, ty: Type | None, operands: tuple[SCEV, ...], loop: Loop, serial: int) -> None:
        super().__init__(SCEVTypes.ADD_REC, ty, operands, serial)
        self.loop = loop

    @property
    def start(self) -> SCEV:
        return self.operands[0]

    def is_affine(self) -> bool:
        return len(self.operands) == 2

    def is_quadratic(self) -> bool:
        return len(self.operands) == 3

    def has_no_self_wrap(self) -> bool:
        return bool(self.flags & FLAG_NW)


class SCEVCouldNotCompute(SCEV):
    """The answer "unknown" (LLVM ``SCEVCouldNotCompute``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<SCEVCouldNotCompute>"


def walk_scev(root: SCEV) -> Iterator[SCEV]:
    """Every node reachable from ``root`` once (pre-order, explicit stack)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        s = stack.pop()
        if id(s) in seen:
            continue
        seen.add(id(s))
        yield s
        stack.extend(s.operands)
