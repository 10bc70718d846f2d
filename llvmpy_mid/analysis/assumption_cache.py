"""The ``llvm.assume`` calls of a function, indexed by the values they speak
about (LLVM 19.1.7 ``llvm/lib/Analysis/AssumptionCache.cpp``).

What: :class:`AssumptionCache` lists a function's assumptions in block order
(``assumptions()``) and, for a value, the assumptions that may tell something
about it (``assumptions_for(v)``: pairs ``(assume call, index)`` where the index
is ``EXPR_RESULT_IDX`` for the condition, or the operand bundle's position for
knowledge such as ``"align"(ptr %p, i64 16)``). The affected values of a
condition are LLVM's (``findValuesAffectedByCondition`` with ``IsAssume``): the
condition, its ``not``, the compared operands, and the ``X`` of ``X & C``,
``X | C``, ``X ^ C``, shifts by constants, ``X + C`` ranges, unsigned
``and``/``or``/``nuw add``/``nuw sub`` bounds, and the pointer behind a
``ptrtoint`` compared with a constant. Passes that create an assume call
``register_assumption``.

``AssumptionAnalysis`` is the function analysis (it asks for
``TargetIRAnalysis`` first, as opt-19's log shows) and ``print<assumptions>``
prints ``Cached assumptions for function: NAME`` and each condition, as
opt-19 does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, ClassVar, TextIO

from llvmpy_mid.analysis.target_transform_info import TargetIRAnalysis
from llvmpy_mid.asm.printer import format_value
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.global_value import GlobalValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.cmp import ICmpInst
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

if TYPE_CHECKING:
    from llvmpy_mid.ir.value import Value

EXPR_RESULT_IDX = -1
"""The index of an assumption's condition (LLVM ``AssumptionCache::ExprResultIdx``)."""

_IGNORE_BUNDLE = "ignore"


def is_assume(inst: object) -> bool:
    """``inst`` is a call of ``llvm.assume``."""
    return isinstance(inst, CallBase) and inst.intrinsic_name == "llvm.assume"


def _op(v: Value) -> str:
    if isinstance(v, (Instruction, ConstantExpr)):
        return v.opcode
    return ""


def _is_const_int(v: Value) -> bool:
    """LLVM ``m_ConstantInt``: an integer constant or an integer splat."""
    if isinstance(v, ConstantInt):
        return True
    from llvmpy_mid.analysis.poison_tracking import match_apint

    return match_apint(v) is not None


def _add_value_affected_by_condition(v: Value, insert: Callable[[Value], None]) -> None:
    """LLVM ``addValueAffectedByCondition``: arguments, globals and instructions,
    and the operand of a ``ptrtoint``/``trunc`` instruction."""
    if isinstance(v, (Argument, GlobalValue)):
        insert(v)
    elif isinstance(v, Instruction):
        insert(v)
        if v.opcode in ("ptrtoint", "trunc"):
            src = v.get_operand(0)
            if isinstance(src, (Argument, Instruction)):
                insert(src)


def find_values_affected_by_condition(cond: Value, is_assume: bool, insert: Callable[[Value], None]) -> None:
    """The values a branch or assume condition constrains (LLVM ``findValuesAffectedByCondition``)."""

    def add(v: Value) -> None:
        _add_value_affected_by_condition(v, insert)

    def add_cmp_operands(a: Value, b: Value) -> None:
        if is_assume:
            add(a)
            add(b)
        elif isinstance(b, ConstantInt) or _is_constant(b):
            add(a)

    work = [cond]
    visited: set[int] = set()
    while work:
        v = work.pop()
        if id(v) in visited:
            continue
        visited.add(id(v))
        op = _op(v)
        if is_assume:
            add(v)
            if op == "xor" and _is_all_ones(v.get_operand(1)):  # type: ignore[attr-defined]
                add(v.get_operand(0))  # type: ignore[attr-defined]
        logical = _logical_operands(v)
        if logical is not None:
            if not is_assume:
                work.append(logical[0])
                work.append(logical[1])
        elif isinstance(v, ICmpInst):
            a, b = v.get_operand(0), v.get_operand(1)
            pred = v.predicate
            add_cmp_operands(a, b)
            aop = _op(a)
            if pred.is_equality:
                if _is_const_int(b):
                    if (aop in ("and", "or", "xor", "shl", "lshr", "ashr")) and _is_const_int(a.get_operand(1)):  # type: ignore[attr-defined]
                        add(a.get_operand(0))  # type: ignore[attr-defined]
                    elif aop in ("and", "or"):
                        add(a.get_operand(0))  # type: ignore[attr-defined]
                        add(a.get_operand(1))  # type: ignore[attr-defined]
            else:
                if _is_const_int(b):
                    if (aop == "add" or (aop == "or" and bool(getattr(a, "disjoint", False)))) and _is_const_int(
                        a.get_operand(1)  # type: ignore[attr-defined]
                    ):
                        add(a.get_operand(0))  # type: ignore[attr-defined]
                    if pred.is_unsigned:
                        if aop in ("and", "or") or (aop == "add" and _nuw(a)):
                            add(a.get_operand(0))  # type: ignore[attr-defined]
                            add(a.get_operand(1))  # type: ignore[attr-defined]
                        if aop == "sub" and _nuw(a):
                            add(a.get_operand(0))  # type: ignore[attr-defined]
                if aop == "bitcast":
                    src = a.get_operand(0)  # type: ignore[attr-defined]
                    if src.type.is_fp_or_fp_vector and a.type.is_int_or_int_vector:
                        from llvmpy_mid.ir.instructions.cmp import Predicate

                        if (pred == Predicate.ICMP_SLT and _is_zero(b)) or (
                            pred == Predicate.ICMP_SGT and _is_all_ones(b)
                        ):
                            insert(src)
        elif _op(v) == "fcmp":
            a, b = v.get_operand(0), v.get_operand(1)  # type: ignore[attr-defined]
            add_cmp_operands(a, b)
        elif isinstance(v, CallBase) and _base(v) == "llvm.is.fpclass":
            add(v.get_arg(0))
        elif isinstance(v, CallBase) and _base(v) == "llvm.amdgcn.class":
            add(v.get_arg(0))


def _base(call: CallBase) -> str:
    fn = call.called_function
    if fn is None or not fn.intrinsic_id:
        return ""
    return lookup_intrinsic(fn.name) or ""


def _nuw(v: Value) -> bool:
    if isinstance(v, ConstantExpr):
        return v.has_no_unsigned_wrap
    return bool(getattr(v, "nuw", False))


def _is_constant(v: Value) -> bool:
    from llvmpy_mid.ir.constants import Constant

    return isinstance(v, Constant)


def _is_zero(v: Value) -> bool:
    from llvmpy_mid.analysis.poison_tracking import match_apint

    c = match_apint(v)
    return c is not None and c.value == 0


def _is_all_ones(v: Value) -> bool:
    from llvmpy_mid.analysis.poison_tracking import match_apint

    c = match_apint(v)
    return c is not None and c.value == (1 << c.width) - 1


def _logical_operands(v: Value) -> tuple[Value, Value] | None:
    """``(a, b)`` of an i1 ``and``/``or`` or its select form (LLVM ``m_LogicalOp``)."""
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.types import IntegerType, VectorType

    ty = v.type
    sty = ty.element_type if isinstance(ty, VectorType) else ty
    if not (isinstance(sty, IntegerType) and sty.width == 1):
        return None
    op = _op(v)
    if op in ("and", "or"):
        return v.get_operand(0), v.get_operand(1)  # type: ignore[attr-defined]
    if op == "select":
        c, t, f = v.get_operand(0), v.get_operand(1), v.get_operand(2)  # type: ignore[attr-defined]
        if c.type is not v.type:
            return None
        if isinstance(f, Constant) and f.is_null_value:
            return c, t
        if isinstance(t, Constant) and _is_all_ones(t):
            return c, f
    return None


class AssumptionCache:
    """A function's ``llvm.assume`` calls and the values each one constrains."""

    __slots__ = ("function", "_assumes", "_affected", "_scanned")

    def __init__(self, function: Function) -> None:
        self.function = function
        self._assumes: list[CallBase] = []
        self._affected: dict[Value, list[tuple[CallBase, int]]] = {}
        self._scanned = False

    def invalidate(self, unit: object, pa: object, inv: object) -> bool:
        """Never invalidated by a pass's changes (as LLVM's result)."""
        return False

    def _scan(self) -> None:
        self._scanned = True
        for bb in self.function.blocks:
            for inst in bb.instructions:
                if is_assume(inst):
                    assert isinstance(inst, CallBase)
                    self._assumes.append(inst)
        for a in self._assumes:
            self._update_affected(a)

    def _find_affected(self, call: CallBase) -> list[tuple[Value, int]]:
        from llvmpy_mid.analysis.value_tracking import get_underlying_object

        out: list[tuple[Value, int]] = []

        def add_val(v: Value, idx: int) -> None:
            if isinstance(v, (Argument, GlobalValue, Instruction)):
                out.append((v, idx))

        for idx, bundle in enumerate(call.operand_bundles):
            if bundle.tag == "separate_storage":
                if len(bundle.inputs) == 2:
                    add_val(get_underlying_object(bundle.inputs[0]), idx)
                    add_val(get_underlying_object(bundle.inputs[1]), idx)
            elif bundle.inputs and bundle.tag != _IGNORE_BUNDLE:
                add_val(bundle.inputs[0], idx)
        find_values_affected_by_condition(call.get_arg(0), True, lambda v: out.append((v, EXPR_RESULT_IDX)))
        return out

    def _update_affected(self, call: CallBase) -> None:
        for v, idx in self._find_affected(call):
            lst = self._affected.setdefault(v, [])
            if not any(a is call and i == idx for a, i in lst):
                lst.append((call, idx))

    def assumptions(self) -> list[CallBase]:
        """Every assume call of the function, in the order found (block order, then registrations)."""
        if not self._scanned:
            self._scan()
        return [a for a in self._assumes if a.parent is not None]

    def is_empty(self) -> bool:
        """The function has no assumptions (a fast exit for the queries)."""
        if not self._scanned:
            self._scan()
        return not self._affected

    def assumptions_for(self, v: Value) -> list[tuple[CallBase, int]]:
        """``(assume, index)`` pairs that may constrain ``v`` (LLVM ``assumptionsFor``)."""
        if not self._scanned:
            self._scan()
        lst = self._affected.get(v)
        if not lst:
            return []
        return [(a, i) for a, i in lst if a.parent is not None]

    def register_assumption(self, call: CallBase) -> None:
        """Add an assume call created after the cache was built."""
        if not self._scanned:
            return
        if any(a is call for a in self._assumes):
            return
        self._assumes.append(call)
        self._update_affected(call)

    def unregister_assumption(self, call: CallBase) -> None:
        """Forget an assume call (before it is erased)."""
        if not self._scanned:
            return
        self._assumes = [a for a in self._assumes if a is not call]
        for key in list(self._affected):
            lst = [(a, i) for a, i in self._affected[key] if a is not call]
            if lst:
                self._affected[key] = lst
            else:
                del self._affected[key]

    def update_affected_values(self, call: CallBase) -> None:
        """Recompute what ``call`` constrains (after its condition changed)."""
        if self._scanned:
            self._update_affected(call)

    def transfer_affected_values(self, old: Value, new: Value) -> None:
        """Assumptions about ``old`` now speak of ``new`` (after a replace-all-uses)."""
        lst = self._affected.pop(old, None)
        if not lst:
            return
        dst = self._affected.setdefault(new, [])
        for item in lst:
            if not any(a is item[0] and i == item[1] for a, i in dst):
                dst.append(item)

    def clear(self) -> None:
        self._assumes = []
        self._affected = {}
        self._scanned = False


class AssumptionAnalysis(FunctionAnalysis[AssumptionCache]):
    """LLVM ``AssumptionAnalysis``: the function's :class:`AssumptionCache`."""

    name: ClassVar[str] = "assumptions"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> AssumptionCache:
        am.get_result(TargetIRAnalysis, unit)
        return AssumptionCache(unit)


class AssumptionPrinterPass(Pass[Function]):
    """``print<assumptions>``: each function's cached assumption conditions."""

    name: ClassVar[str] = "print<assumptions>"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, fn: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        import sys

        out = self.stream if self.stream is not None else sys.stderr
        ac = am.get_result(AssumptionAnalysis, fn)
        lines = ["Cached assumptions for function: %s\n" % fn.name]
        for call in ac.assumptions():
            cond = call.get_arg(0)
            # LLVM prints an instruction with its own two-space indent.
            indent = "    " if isinstance(cond, Instruction) else "  "
            lines.append("%s%s\n" % (indent, format_value(cond)))
        out.write("".join(lines))
        return PreservedAnalyses.all()
