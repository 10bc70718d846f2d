"""BasicAA: the stateless, on-demand local alias analysis (LLVM 19.1.7
``lib/Analysis/BasicAliasAnalysis.cpp``).

What it answers:

- ``alias`` (LLVM ``aliasCheck``): empty and undef locations, the same value (unless the
  query may compare two iterations of a cycle), distinct identified objects, arguments
  against function-local objects, escape sources against objects not captured before
  them (through the query's :class:`CaptureInfo`), accesses larger than the other
  object, ``separate_storage`` assumptions; then, with the query cache and LLVM's
  assumption-based results (a recursive query first assumes ``NoAlias``; an answer
  built on a disproved assumption is purged), ``aliasGEP`` (both pointers decomposed
  into a base, a constant offset and scaled variable indices — linear expressions
  through add/sub/mul/shl/disjoint or and zext/sext/trunc with their nuw/nsw/nneg —
  then the constant-offset overlap, vscale, modulo-GCD, offset-range,
  non-zero/non-equal index and constant-offset-difference rules), ``aliasPHI`` (same
  block phis edge by edge; other phis through their sources, recursive phis with
  unknown sizes, in cross-iteration mode) and ``aliasSelect``, and finally
  "one access covers the whole object" (``PartialAlias``).
- ``get_mod_ref_info`` of a call and a location: tail calls and allocas, stackrestore
  and dynamic allocas, objects not captured before the call reached only through
  arguments (per-operand readonly/writeonly/readnone), malloc-like calls,
  ``invariant.start``; of two calls: ``experimental.guard``.
- ``get_memory_effects`` of a call (call-site attributes meet the callee's effects as
  the whole chain sees them, widened by operand bundles) and of a function
  (``experimental.guard``/``experimental.deoptimize`` read anything and write
  inaccessible memory), ``get_arg_mod_ref_info`` (parameter attributes) and
  ``get_mod_ref_info_mask`` (constant globals, ``noalias readonly`` arguments, allocas
  when locals are ignored, through phis and selects of those).

Options (``cl::opt``): ``-basic-aa-recphi`` (default on), ``-basic-aa-separate-storage``
(default on). Limits as LLVM: 6 steps of GEP decomposition and underlying-object search,
depth 512 of recursive queries, 8 values for the mod/ref mask.

What it does not do (yet): nothing of LLVM's BasicAA is knowingly left out; LoopInfo is
not consulted by the cycle checks (LLVM passes none either).
"""

from __future__ import annotations

from typing import Any, ClassVar

from llvmpy_mid.analysis.alias.aa_results import MOD, MOD_REF, NO_MOD_REF, REF, AACacheEntry, AAQueryInfo, AAResultBase
from llvmpy_mid.analysis.alias.alias_result import MAY_ALIAS, MUST_ALIAS, NO_ALIAS, PARTIAL_ALIAS, AliasKind, AliasResult
from llvmpy_mid.analysis.alias.memory_location import (
    AFTER_POINTER,
    BEFORE_OR_AFTER_POINTER,
    LocationSize,
    MemoryLocation,
)
from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis, AssumptionCache
from llvmpy_mid.analysis.capture_tracking import is_aliasing_intrinsic_without_capture
from llvmpy_mid.analysis.cfg import is_potentially_reachable_from_many
from llvmpy_mid.analysis.constant_range import ConstantRange, PreferredRangeType
from llvmpy_mid.analysis.constant_range_analysis import compute_constant_range
from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits
from llvmpy_mid.analysis.known_non_zero import is_known_non_equal, is_known_non_zero
from llvmpy_mid.analysis.loads import get_pointer_dereferenceable_bytes
from llvmpy_mid.analysis.memory_builtins import ObjectSizeOpts, get_object_size, is_malloc_or_calloc_like_fn
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis, TargetLibraryInfo
from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.analysis.value_tracking_support import (
    get_argument_aliasing_to_returned_pointer,
    get_vscale_range,
    is_valid_assume_for_context,
)
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantPointerNull, UndefValue
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Argument, Function, null_pointer_is_defined
from llvmpy_mid.ir.global_value import GlobalAlias, GlobalValue, GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst, intrinsic_base_name
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.memory_effects import MemoryEffects, ModRefInfo
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts_for_alias_analysis
from llvmpy_mid.ir.types import TypeID
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = [
    "BasicAA",
    "BasicAAResult",
    "CastedValue",
    "DecomposedGEP",
    "LinearExpression",
    "VariableGEPIndex",
    "decompose_gep_expression",
    "get_linear_expression",
]

MAX_LOOKUP_SEARCH_DEPTH = 6
"""LLVM ``MaxLookupSearchDepth``: steps of GEP decomposition and of the underlying-object search."""

_STRUCT = TypeID.STRUCT
_FIXED_VECTOR = TypeID.FIXED_VECTOR
_SCALABLE_VECTOR = TypeID.SCALABLE_VECTOR
_INT32_MAX = (1 << 31) - 1
_NO = AliasKind.NO_ALIAS
_MAY = AliasKind.MAY_ALIAS
_PARTIAL = AliasKind.PARTIAL_ALIAS
_MUST = AliasKind.MUST_ALIAS
#: ``AAQueryInfo::CacheEntry`` markers (LLVM's constants).
_DEFINITIVE = AACacheEntry.DEFINITIVE
_ASSUMPTION_BASED = AACacheEntry.ASSUMPTION_BASED
_EXPR_RESULT_IDX = -1


# --- fixed-width integer helpers (APInt values kept as signed Python ints) ------------------------


def _sw(x: int, w: int) -> int:
    """``x`` wrapped to ``w`` bits, read as signed."""
    half = 1 << (w - 1)
    return ((x + half) & ((1 << w) - 1)) - half


def _uw(x: int, w: int) -> int:
    """``x`` wrapped to ``w`` bits, read as unsigned."""
    return x & ((1 << w) - 1)


def _ctz(x: int, w: int) -> int:
    x &= (1 << w) - 1
    if x == 0:
        return w
    return (x & -x).bit_length() - 1


def _gcd_unsigned(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _int_width(v: Value) -> int:
    return v.type.width  # type: ignore[attr-defined,no-any-return]


def _opcode(v: Value) -> str:
    if v.is_instruction:
        return v.opcode  # type: ignore[attr-defined,no-any-return]
    if type(v) is ConstantExpr:
        return v.opcode
    return ""


def _is_vscale(v: Value) -> bool:
    """``m_VScale()``: a call of ``llvm.vscale``."""
    return isinstance(v, CallBase) and v.intrinsic_base == "llvm.vscale"


def _are_both_vscale(v1: Value, v2: Value) -> bool:
    return _is_vscale(v1) and _is_vscale(v2)


# --- casted values and linear expressions --------------------------------------------------------


class CastedValue:
    """``zext(sext(trunc(v)))`` with the bits each cast adds or removes (LLVM ``CastedValue``)."""

    __slots__ = ("v", "zext_bits", "sext_bits", "trunc_bits", "is_non_negative")

    def __init__(self, v: Value, zext_bits: int = 0, sext_bits: int = 0, trunc_bits: int = 0, is_non_negative: bool = False) -> None:
        self.v = v
        self.zext_bits = zext_bits
        self.sext_bits = sext_bits
        self.trunc_bits = trunc_bits
        self.is_non_negative = is_non_negative

    @property
    def bit_width(self) -> int:
        return _int_width(self.v) - self.trunc_bits + self.zext_bits + self.sext_bits

    def with_value(self, new_v: Value, preserve_non_neg: bool) -> CastedValue:
        return CastedValue(new_v, self.zext_bits, self.sext_bits, self.trunc_bits, self.is_non_negative and preserve_non_neg)

    def with_zext_of_value(self, new_v: Value, zext_non_negative: bool) -> CastedValue:
        """This with ``v`` replaced by ``zext(new_v)``."""
        extend_by = _int_width(self.v) - _int_width(new_v)
        if extend_by <= self.trunc_bits:
            return CastedValue(new_v, self.zext_bits, self.sext_bits, self.trunc_bits - extend_by, self.is_non_negative)
        extend_by -= self.trunc_bits
        return CastedValue(new_v, self.zext_bits + self.sext_bits + extend_by, 0, 0, zext_non_negative)

    def with_sext_of_value(self, new_v: Value) -> CastedValue:
        """This with ``v`` replaced by ``sext(new_v)``."""
        extend_by = _int_width(self.v) - _int_width(new_v)
        if extend_by <= self.trunc_bits:
            return CastedValue(new_v, self.zext_bits, self.sext_bits, self.trunc_bits - extend_by, self.is_non_negative)
        extend_by -= self.trunc_bits
        return CastedValue(new_v, self.zext_bits, self.sext_bits + extend_by, 0, self.is_non_negative)

    def evaluate_with(self, n: int) -> int:
        """The casts applied to the ``v``-wide value ``n`` (result signed, of :attr:`bit_width` bits)."""
        w = _int_width(self.v)
        if self.trunc_bits:
            w -= self.trunc_bits
            n = _sw(n, w)
        else:
            n = _sw(n, w)
        if self.sext_bits:
            w += self.sext_bits
        if self.zext_bits:
            n = _uw(n, w)
            w += self.zext_bits
        return _sw(n, w)

    def evaluate_range(self, cr: ConstantRange) -> ConstantRange:
        w = cr.bit_width
        if self.trunc_bits:
            w -= self.trunc_bits
            cr = cr.truncate(w)
        if self.sext_bits:
            w += self.sext_bits
            cr = cr.sign_extend(w)
        if self.zext_bits:
            w += self.zext_bits
            cr = cr.zero_extend(w)
        return cr

    def can_distribute_over(self, nuw: bool, nsw: bool) -> bool:
        return (not self.zext_bits or nuw) and (not self.sext_bits or nsw)

    def has_same_casts_as(self, other: CastedValue) -> bool:
        if self.zext_bits == other.zext_bits and self.sext_bits == other.sext_bits and self.trunc_bits == other.trunc_bits:
            return True
        if self.is_non_negative or other.is_non_negative:
            return (
                self.zext_bits + self.sext_bits == other.zext_bits + other.sext_bits
                and self.trunc_bits == other.trunc_bits
            )
        return False


class LinearExpression:
    """``casted * scale + offset`` (LLVM ``LinearExpression``); ``scale`` and ``offset``
    are signed values of the casted value's width."""

    __slots__ = ("val", "scale", "offset", "is_nsw")

    def __init__(self, val: CastedValue, scale: int = 1, offset: int = 0, is_nsw: bool = True) -> None:
        self.val = val
        self.scale = scale
        self.offset = offset
        self.is_nsw = is_nsw

    def mul(self, other: int, mul_is_nsw: bool) -> LinearExpression:
        w = self.val.bit_width
        nsw = self.is_nsw and (other == 1 or (mul_is_nsw and self.offset == 0))
        return LinearExpression(self.val, _sw(self.scale * other, w), _sw(self.offset * other, w), nsw)


_OBO_OPCODES = frozenset(("add", "sub", "mul", "shl"))


def get_linear_expression(val: CastedValue, depth: int = 0) -> LinearExpression:
    """``val`` as ``A * x + B`` (LLVM ``GetLinearExpression``), at most 6 levels deep."""
    if depth == 6:
        return LinearExpression(val)
    v = val.v
    if type(v) is ConstantInt:
        return LinearExpression(val, 0, val.evaluate_with(v.value), True)
    if v.is_instruction:
        op: str = v.opcode  # type: ignore[attr-defined]
        ops = v._operands  # type: ignore[attr-defined]
        if len(ops) == 2 and op in _LINEAR_OPCODES:
            rhs_c = ops[1].value
            if type(rhs_c) is ConstantInt:
                rhs = val.evaluate_with(rhs_c.value)
                nuw = nsw = True
                if op in _OBO_OPCODES:
                    nuw = bool(v.nuw)  # type: ignore[attr-defined]
                    nsw = bool(v.nsw)  # type: ignore[attr-defined]
                if not val.can_distribute_over(nuw, nsw):
                    return LinearExpression(val)
                if val.trunc_bits:
                    nuw = nsw = False
                w = val.bit_width
                lhs = ops[0].value
                if op == "or":
                    if not v.disjoint:  # type: ignore[attr-defined]
                        return LinearExpression(val)
                    e = get_linear_expression(val.with_value(lhs, False), depth + 1)
                    e.offset = _sw(e.offset + rhs, w)
                    e.is_nsw = e.is_nsw and nsw
                    return e
                if op == "add":
                    e = get_linear_expression(val.with_value(lhs, False), depth + 1)
                    e.offset = _sw(e.offset + rhs, w)
                    e.is_nsw = e.is_nsw and nsw
                    return e
                if op == "sub":
                    e = get_linear_expression(val.with_value(lhs, False), depth + 1)
                    e.offset = _sw(e.offset - rhs, w)
                    e.is_nsw = e.is_nsw and nsw
                    return e
                if op == "mul":
                    return get_linear_expression(val.with_value(lhs, False), depth + 1).mul(rhs, nsw)
                # shl
                amount = _uw(rhs, w)
                if amount > w:
                    return LinearExpression(val)
                e = get_linear_expression(val.with_value(lhs, nsw), depth + 1)
                e.offset = _sw(e.offset << amount, w)
                e.scale = _sw(e.scale << amount, w)
                e.is_nsw = e.is_nsw and nsw
                return e
            if op in _LINEAR_OPCODES:
                return LinearExpression(val)
        if op == "zext":
            return get_linear_expression(val.with_zext_of_value(ops[0].value, bool(v.nneg)), depth + 1)  # type: ignore[attr-defined]
        if op == "sext":
            return get_linear_expression(val.with_sext_of_value(ops[0].value), depth + 1)
    return LinearExpression(val)


_LINEAR_OPCODES = frozenset(("add", "sub", "mul", "shl", "or"))


class VariableGEPIndex:
    """``casted * scale`` of a decomposed GEP, subtracted when ``is_negated`` (LLVM
    ``VariableGEPIndex``); ``scale`` is a signed value of the maximum index width."""

    __slots__ = ("val", "scale", "cxt_i", "is_nsw", "is_negated")

    def __init__(self, val: CastedValue, scale: int, cxt_i: Instruction | None, is_nsw: bool, is_negated: bool) -> None:
        self.val = val
        self.scale = scale
        self.cxt_i = cxt_i
        self.is_nsw = is_nsw
        self.is_negated = is_negated

    def has_negated_scale_of(self, other: VariableGEPIndex, w: int) -> bool:
        if self.is_negated == other.is_negated:
            return self.scale == _sw(-other.scale, w)
        return self.scale == other.scale

    def __repr__(self) -> str:
        v = self.val
        return "(V=%s, zextbits=%d, sextbits=%d, truncbits=%d, scale=%d, nsw=%d, negated=%d)" % (
            v.v.name, v.zext_bits, v.sext_bits, v.trunc_bits, self.scale, self.is_nsw, self.is_negated,
        )  # fmt: skip


class DecomposedGEP:
    """A pointer as ``base + offset + sum(var_indices)`` (LLVM ``DecomposedGEP``);
    ``in_bounds`` is None when no GEP was involved."""

    __slots__ = ("base", "offset", "var_indices", "in_bounds", "width")

    def __init__(self, width: int) -> None:
        self.base: Value | None = None
        self.offset = 0
        self.var_indices: list[VariableGEPIndex] = []
        self.in_bounds: bool | None = None
        self.width = width

    def __repr__(self) -> str:
        base = self.base.name if self.base is not None else "?"
        return "(DecomposedGEP Base=%s, Offset=%d, VarIndices=[%s])" % (
            base, self.offset, ", ".join(repr(i) for i in self.var_indices),
        )  # fmt: skip


def max_index_size_in_bits(dl: DataLayout) -> int:
    """LLVM ``DataLayout::getMaxIndexSizeInBits``: the widest index of any address space."""
    spaces = dl._pointers  # the parsed pointer specifications, by address space
    return max(dl.index_size_in_bits(a) for a in spaces)


def _sequential_stride(dl: DataLayout, indexed_ty: Any, container_tid: TypeID | None) -> tuple[int, bool]:
    """(stride in bytes, scalable) of one sequential GEP step."""
    if container_tid is _FIXED_VECTOR or container_tid is _SCALABLE_VECTOR:
        return dl.type_store_size(indexed_ty), dl.is_scalable(indexed_ty)
    return dl.type_alloc_size(indexed_ty), dl.is_scalable(indexed_ty)


def decompose_gep_expression(v: Value, dl: DataLayout, max_index_size: int | None = None) -> DecomposedGEP:
    """``v`` as a base pointer, a constant offset and scaled variable indices (LLVM
    ``DecomposeGEPExpression``), through casts, non-interposable aliases, one-input phis,
    calls returning an argument and at most 6 GEP/cast steps."""
    if max_index_size is None:
        max_index_size = max_index_size_in_bits(dl)
    w = max_index_size
    cxt_i = v if isinstance(v, Instruction) else None
    d = DecomposedGEP(w)
    for _ in range(MAX_LOOKUP_SEARCH_DEPTH):
        op = _opcode(v)
        if not op:
            if isinstance(v, GlobalAlias) and not v.is_interposable:
                v = v.aliasee
                continue
            d.base = v
            return d
        if op == "bitcast" or op == "addrspacecast":
            v = v._operands[0].value  # type: ignore[attr-defined]
            continue
        if op != "getelementptr":
            if op == "phi":
                assert isinstance(v, PHINode)
                if v.num_incoming == 1:
                    v = v.get_incoming_value(0)
                    continue
            elif isinstance(v, CallBase):
                rp = get_argument_aliasing_to_returned_pointer(v, False)
                if rp is not None:
                    v = rp
                    continue
            d.base = v
            return d
        ops = v._operands  # type: ignore[attr-defined]
        flags = v._gep_flags if v.is_instruction else v.flags  # type: ignore[attr-defined]
        inbounds = bool(flags & 1)
        if d.in_bounds is None:
            d.in_bounds = inbounds
        elif not inbounds:
            d.in_bounds = False
        ty: Any = v.source_element_type  # type: ignore[attr-defined]
        address_space = ops[0].value.type.address_space
        index_size = dl.index_size_in_bits(address_space)
        gep_has_constant_offset = True
        container: TypeID | None = None  # the first index steps over the source type
        for i in range(1, len(ops)):
            index = ops[i].value
            if i > 1:
                tid = ty.type_id
                if tid is _STRUCT:
                    field = index.value if type(index) is ConstantInt else 0
                    if field:
                        d.offset = _sw(d.offset + dl.struct_layout(ty).element_offset(field), w)
                    ty = ty.elements[field]
                    continue
                container = tid
                ty = ty.element_type
            if type(index) is ConstantInt:
                if index.value == 0:
                    continue
                stride, scalable = _sequential_stride(dl, ty, container)
                if scalable:
                    d.base = v
                    return d
                d.offset = _sw(d.offset + stride * _sw(index.value, min(index.type.width, w)), w)
                continue
            stride, scalable = _sequential_stride(dl, ty, container)
            if scalable:
                d.base = v
                return d
            gep_has_constant_offset = False
            width = _int_width(index)
            sext_bits = index_size - width if index_size > width else 0
            trunc_bits = width - index_size if index_size < width else 0
            le = get_linear_expression(CastedValue(index, 0, sext_bits, trunc_bits, False))
            le = le.mul(_sw(stride, index_size), inbounds)
            d.offset = _sw(d.offset + le.offset, w)
            scale = le.scale
            le_nsw = le.is_nsw
            lv = le.val
            vis = d.var_indices
            for j in range(len(vis)):
                other = vis[j]
                if (other.val.v is lv.v or _are_both_vscale(other.val.v, lv.v)) and other.val.has_same_casts_as(lv):
                    scale += other.scale
                    le_nsw = False
                    del vis[j]
                    break
            scale = _sw(scale, index_size)
            if scale:
                vis.append(VariableGEPIndex(lv, scale, cxt_i, le_nsw, False))
        if gep_has_constant_offset:
            d.offset = _sw(d.offset, index_size)
        v = ops[0].value
    d.base = v
    return d


# --- object sizes -------------------------------------------------------------------------------


def _object_size(v: Value, dl: DataLayout, tli: TargetLibraryInfo, null_is_valid: bool, round_to_align: bool = False) -> int | None:
    return get_object_size(v, dl, tli, ObjectSizeOpts(round_to_align=round_to_align, null_is_unknown_size=null_is_valid))


def _is_identified_object(v: Value) -> bool:
    if type(v) is AllocaInst:
        return True
    if isinstance(v, GlobalValue):
        return not isinstance(v, GlobalAlias)
    if isinstance(v, CallBase):
        return v.has_ret_attr("noalias")
    if type(v) is Argument:
        a = v.attributes
        return a.has("noalias") or a.has("byval")
    return False


def _is_identified_function_local(v: Value) -> bool:
    if type(v) is AllocaInst:
        return True
    if isinstance(v, CallBase):
        return v.has_ret_attr("noalias")
    if type(v) is Argument:
        a = v.attributes
        return a.has("noalias") or a.has("byval")
    return False


def _is_escape_source(v: Value) -> bool:
    if isinstance(v, CallBase):
        return not is_aliasing_intrinsic_without_capture(v, True)
    op = _opcode(v)
    return op == "load" or op == "inttoptr"


def _is_base_of_object(v: Value) -> bool:
    return type(v) is AllocaInst or type(v) is GlobalVariable


def _merge_alias_results(a: AliasResult, b: AliasResult) -> AliasResult:
    """LLVM ``MergeAliasResults``: results agree only with equal kinds *and* offsets
    (``AliasResult::operator==``), so a PartialAlias at offset 2 and one at an
    unknown offset merge to MayAlias."""
    if a.kind is b.kind and a.offset == b.offset:
        return a
    ka, kb = a.kind, b.kind
    if (ka is _PARTIAL and kb is _MUST) or (kb is _PARTIAL and ka is _MUST):
        return PARTIAL_ALIAS
    return MAY_ALIAS


def _attr_memory_effects(attrs: Any) -> MemoryEffects:
    """The effects of a function attribute set: ``memory(...)`` narrowed by the legacy
    readnone/readonly/writeonly (``Function::getMemoryEffects``)."""
    me: MemoryEffects = attrs.memory_effects
    if attrs.has("readnone"):
        return MemoryEffects.none()
    if attrs.has("readonly"):
        me = me & MemoryEffects.read_only()
    if attrs.has("writeonly"):
        me = me & MemoryEffects.write_only()
    return me


def _is_not_in_cycle(inst: Instruction, dt: DominatorTree | None) -> bool:
    bb = inst.parent
    assert bb is not None
    succs = list(bb.successors)
    return not succs or not is_potentially_reachable_from_many(succs, bb, None, dt)


_MR: tuple[ModRefInfo, ModRefInfo, ModRefInfo, ModRefInfo] = (NO_MOD_REF, REF, MOD, MOD_REF)
"""``ModRefInfo`` by value, without the enum call."""

_GUARD_OR_DEOPT = frozenset(("llvm.experimental.guard", "llvm.experimental.deoptimize"))


class BasicAAResult(AAResultBase):
    """BasicAA's answers for one function."""

    def __init__(
        self, dl: DataLayout, fn: Function, tli: TargetLibraryInfo, ac: AssumptionCache, dt: DominatorTree | None
    ) -> None:
        self.dl = dl
        self.function = fn
        self.tli = tli
        self.ac = ac
        self.dt = dt
        self._max_index_size = max_index_size_in_bits(dl)
        self._null_is_valid = null_pointer_is_defined(fn)
        self._me_cache: dict[int, tuple[object, MemoryEffects]] = {}
        self._size_cache: dict[tuple[Value, bool], tuple[tuple[object, ...], int | None]] = {}

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        return inv.invalidate(AssumptionAnalysis) or (self.dt is not None and inv.invalidate(DominatorTreeAnalysis))

    def _get_dt(self, aaqi: AAQueryInfo) -> DominatorTree | None:
        return self.dt if aaqi.use_dominator_tree else None

    # --- alias ----------------------------------------------------------------------------------
    def alias(self, loc_a: MemoryLocation, loc_b: MemoryLocation, aaqi: AAQueryInfo, ctx_i: Instruction | None) -> AliasResult:
        pa = loc_a.ptr
        pb = loc_b.ptr
        assert pa is not None and pb is not None
        return self.alias_check(pa, loc_a.size, pb, loc_b.size, aaqi, ctx_i)

    def is_value_equal_in_potential_cycles(self, v: Value, v2: Value, aaqi: AAQueryInfo) -> bool:
        """LLVM ``isValueEqualInPotentialCycles``."""
        if v is not v2:
            return False
        if not aaqi.may_be_cross_iteration:
            return True
        if not isinstance(v, Instruction):
            return True
        bb = v.parent
        if bb is None or bb.is_entry_block:
            return True
        return _is_not_in_cycle(v, self._get_dt(aaqi))

    def alias_check(
        self, v1: Value, v1_size: LocationSize, v2: Value, v2_size: LocationSize, aaqi: AAQueryInfo, ctx_i: Instruction | None
    ) -> AliasResult:
        """LLVM ``aliasCheck``."""
        if v1_size.is_zero or v2_size.is_zero:
            return NO_ALIAS
        v1 = strip_pointer_casts_for_alias_analysis(v1)
        v2 = strip_pointer_casts_for_alias_analysis(v2)
        if isinstance(v1, UndefValue) or isinstance(v2, UndefValue):
            return NO_ALIAS
        if v1 is v2 and self.is_value_equal_in_potential_cycles(v1, v2, aaqi):
            return MUST_ALIAS
        if not v1.type.is_pointer or not v2.type.is_pointer:
            return NO_ALIAS

        o1 = get_underlying_object(v1, MAX_LOOKUP_SEARCH_DEPTH)
        o2 = get_underlying_object(v2, MAX_LOOKUP_SEARCH_DEPTH)
        fn = self.function
        if type(o1) is ConstantPointerNull and not null_pointer_is_defined(fn, o1.type.address_space):  # type: ignore[attr-defined]
            return NO_ALIAS
        if type(o2) is ConstantPointerNull and not null_pointer_is_defined(fn, o2.type.address_space):  # type: ignore[attr-defined]
            return NO_ALIAS

        if o1 is not o2:
            if _is_identified_object(o1) and _is_identified_object(o2):
                return NO_ALIAS
            if (type(o1) is Argument and _is_identified_function_local(o2)) or (
                type(o2) is Argument and _is_identified_function_local(o1)
            ):
                return NO_ALIAS
            ci = aaqi.ci
            if _is_escape_source(o1) and ci.is_not_captured_before(o2, o1 if isinstance(o1, Instruction) else None, True):
                return NO_ALIAS
            if _is_escape_source(o2) and ci.is_not_captured_before(o1, o2 if isinstance(o2, Instruction) else None, True):
                return NO_ALIAS

        if self._is_object_smaller_than(o2, self._minimal_extent_from(v1, v1_size)) or self._is_object_smaller_than(
            o1, self._minimal_extent_from(v2, v2_size)
        ):
            return NO_ALIAS

        if OPTIONS.value("basic-aa-separate-storage") and self._separate_storage(v1, v2, o1, o2, aaqi, ctx_i):
            return NO_ALIAS

        if v1_size.may_be_before_pointer or v2_size.may_be_before_pointer:
            v1_size = AFTER_POINTER
            v2_size = AFTER_POINTER

        if aaqi.depth >= 512:
            return MAY_ALIAS

        cross = aaqi.may_be_cross_iteration
        k1 = (v1, v1_size.raw, cross)
        k2 = (v2, v2_size.raw, cross)
        swapped = id(v1) > id(v2)
        locs = (k2, k1) if swapped else (k1, k2)
        cache = aaqi.alias_cache
        entry = cache.get(locs)
        if entry is not None:
            if entry.num_assumption_uses != _DEFINITIVE:
                aaqi.num_assumption_uses += 1
                if entry.num_assumption_uses >= 0:
                    entry.num_assumption_uses += 1
            return entry.result.swap(swapped)

        entry = AACacheEntry(NO_ALIAS, 0)
        cache[locs] = entry

        orig_num_assumption_uses = aaqi.num_assumption_uses
        orig_num_assumption_based = len(aaqi.assumption_based_results)
        result = self._alias_check_recursive(v1, v1_size, v2, v2_size, aaqi, o1, o2)

        entry = cache[locs]
        assumption_disproven = entry.num_assumption_uses > 0 and result.kind is not _NO
        if assumption_disproven:
            result = MAY_ALIAS
        aaqi.num_assumption_uses -= entry.num_assumption_uses
        entry.result = result.swap(swapped)
        based = aaqi.assumption_based_results
        if assumption_disproven:
            while len(based) > orig_num_assumption_based:
                cache.pop(based.pop(), None)
        if orig_num_assumption_uses != aaqi.num_assumption_uses and result.kind is not _MAY:
            based.append(locs)
            entry.num_assumption_uses = _ASSUMPTION_BASED
        else:
            entry.num_assumption_uses = _DEFINITIVE

        if aaqi.depth == 1:
            for loc in based:
                found = cache.get(loc)
                if found is not None:
                    found.num_assumption_uses = _DEFINITIVE
            based.clear()
            aaqi.num_assumption_uses = 0
        return result

    def _alias_check_recursive(
        self, v1: Value, v1_size: LocationSize, v2: Value, v2_size: LocationSize, aaqi: AAQueryInfo, o1: Value, o2: Value
    ) -> AliasResult:
        op1 = _opcode(v1)
        op2 = _opcode(v2)
        if op1 == "getelementptr":
            r = self._alias_gep(v1, v1_size, v2, v2_size, o1, o2, aaqi)
            if r.kind is not _MAY:
                return r
        elif op2 == "getelementptr":
            r = self._alias_gep(v2, v2_size, v1, v1_size, o2, o1, aaqi).swap()
            if r.kind is not _MAY:
                return r

        if op1 == "phi":
            r = self._alias_phi(v1, v1_size, v2, v2_size, aaqi)  # type: ignore[arg-type]
            if r.kind is not _MAY:
                return r
        elif op2 == "phi":
            r = self._alias_phi(v2, v2_size, v1, v1_size, aaqi).swap()  # type: ignore[arg-type]
            if r.kind is not _MAY:
                return r

        if op1 == "select" and v1.is_instruction:
            r = self._alias_select(v1, v1_size, v2, v2_size, aaqi)  # type: ignore[arg-type]
            if r.kind is not _MAY:
                return r
        elif op2 == "select" and v2.is_instruction:
            r = self._alias_select(v2, v2_size, v1, v1_size, aaqi).swap()  # type: ignore[arg-type]
            if r.kind is not _MAY:
                return r

        if o1 is o2:
            if v1_size.is_precise and v2_size.is_precise and (
                self._is_object_size(o1, v1_size) or self._is_object_size(o2, v2_size)
            ):
                return PARTIAL_ALIAS
        return MAY_ALIAS

    # --- helpers of aliasCheck --------------------------------------------------------------------
    def _cached_object_size(self, v: Value, round_to_align: bool) -> int | None:
        """``getObjectSize`` of an object; an alloca's or a global's answer is kept while the
        properties it depends on stay the same (the hot case: every query asks about both
        underlying objects)."""
        tp = type(v)
        if tp is AllocaInst:
            sig: tuple[object, ...] = (v.allocated_type, v._operands[0].value, v.alignment)  # type: ignore[attr-defined]
        elif tp is GlobalVariable:
            sig = (v.value_type, v.initializer is not None, v.linkage, v.alignment)  # type: ignore[attr-defined]
        else:
            return _object_size(v, self.dl, self.tli, self._null_is_valid, round_to_align)
        key = (v, round_to_align)
        found = self._size_cache.get(key)
        if found is not None and found[0] == sig:
            return found[1]
        size = _object_size(v, self.dl, self.tli, self._null_is_valid, round_to_align)
        self._size_cache[key] = (sig, size)
        return size

    def _is_object_smaller_than(self, v: Value, size: int) -> bool:
        if not _is_identified_object(v):
            return False
        obj = self._cached_object_size(v, True)
        return obj is not None and obj < size

    def _minimal_extent_from(self, v: Value, size: LocationSize) -> int:
        deref, can_be_null, _freed = get_pointer_dereferenceable_bytes(v, self.dl)
        if can_be_null and self._null_is_valid:
            deref = 0
        if size.is_precise:
            deref = max(deref, size.value)
        return deref

    def _is_object_size(self, v: Value, size: LocationSize) -> bool:
        if size.is_scalable:
            return False
        obj = self._cached_object_size(v, False)
        return obj is not None and obj == size.value

    def _separate_storage(self, v1: Value, v2: Value, o1: Value, o2: Value, aaqi: AAQueryInfo, ctx_i: Instruction | None) -> bool:
        for assume, index in self.ac.assumptions_for(o1):
            if index == _EXPR_RESULT_IDX:
                continue
            bundle = assume.get_operand_bundle_at(index)
            if bundle.tag != "separate_storage":
                continue
            hint_o1 = get_underlying_object(bundle.inputs[0])
            hint_o2 = get_underlying_object(bundle.inputs[1])
            if not ((o1 is hint_o1 and o2 is hint_o2) or (o1 is hint_o2 and o2 is hint_o1)):
                continue
            dt = self._get_dt(aaqi)
            if ctx_i is not None and is_valid_assume_for_context(assume, ctx_i, dt, True):
                return True
            for ptr in (v1, v2):
                if isinstance(ptr, Instruction):
                    if is_valid_assume_for_context(assume, ptr, dt, True):
                        return True
                elif type(ptr) is Argument:
                    first = ptr.parent.entry_block.instructions.first
                    if first is not None and is_valid_assume_for_context(assume, first, dt, True):
                        return True
        return False

    # --- GEPs -------------------------------------------------------------------------------------
    def _alias_gep(
        self,
        gep1: Value,
        v1_size: LocationSize,
        v2: Value,
        v2_size: LocationSize,
        underlying_v1: Value,
        underlying_v2: Value,
        aaqi: AAQueryInfo,
    ) -> AliasResult:
        """LLVM ``aliasGEP``: ``gep1`` is a GEP, ``v2`` anything."""
        aar = aaqi.aar
        if not v1_size.has_value and not v2_size.has_value:
            if _opcode(v2) != "getelementptr":
                return MAY_ALIAS
            base = aar.alias(
                MemoryLocation(underlying_v1, BEFORE_OR_AFTER_POINTER), MemoryLocation(underlying_v2, BEFORE_OR_AFTER_POINTER), aaqi
            )
            return NO_ALIAS if base.kind is _NO else MAY_ALIAS

        dl = self.dl
        w = self._max_index_size
        d1 = decompose_gep_expression(gep1, dl, w)
        d2 = decompose_gep_expression(v2, dl, w)
        if d1.base is gep1 and d2.base is v2:
            return MAY_ALIAS
        self._subtract_decomposed_geps(d1, d2, aaqi)
        base1 = d1.base
        base2 = d2.base
        assert base1 is not None and base2 is not None
        off = d1.offset
        var_indices = d1.var_indices

        if (
            d1.in_bounds
            and not var_indices
            and v2_size.has_value
            and not v2_size.is_scalable
            and off >= v2_size.value
            and _is_base_of_object(base2)
        ):
            return NO_ALIAS
        if _opcode(v2) == "getelementptr":
            if (
                d2.in_bounds
                and not var_indices
                and v1_size.has_value
                and not v1_size.is_scalable
                and off <= -v1_size.value
                and _is_base_of_object(base1)
            ):
                return NO_ALIAS

        if off == 0 and not var_indices:
            return aar.alias(MemoryLocation(base1, v1_size), MemoryLocation(base2, v2_size), aaqi)

        base_alias = aar.alias(
            MemoryLocation(base1, BEFORE_OR_AFTER_POINTER), MemoryLocation(base2, BEFORE_OR_AFTER_POINTER), aaqi
        )
        if base_alias.kind is not _MUST:
            return base_alias

        if not var_indices:
            left_size, right_size = v2_size, v1_size
            swapped = off < 0
            if swapped:
                left_size, right_size = right_size, left_size
                off = _sw(-off, w)
            if not left_size.has_value:
                return MAY_ALIAS
            lsize = left_size.value
            uoff = _uw(off, w)
            if not left_size.is_scalable:
                if uoff < lsize:
                    ar = PARTIAL_ALIAS
                    if (
                        right_size.has_value
                        and not right_size.is_scalable
                        and uoff <= _INT32_MAX
                        and _uw(off + right_size.value, w) <= lsize
                    ):
                        ar = ar.with_offset(-off).swap(swapped)
                    return ar
                return NO_ALIAS
            cr = get_vscale_range(self.function, w)
            upper = cr.get_unsigned_max() * lsize
            if upper < (1 << w) and uoff >= upper:
                return NO_ALIAS

        if (
            len(var_indices) == 1
            and var_indices[0].val.trunc_bits == 0
            and off == 0
            and _is_vscale(var_indices[0].val.v)
        ):
            sv = var_indices[0]
            scale = _sw(-sv.scale, w) if sv.is_negated else sv.scale
            left = v1_size if scale < 0 else v2_size
            overflows = not sv.is_nsw
            if overflows:
                cr = get_vscale_range(self.function, w)
                prod = _sw(cr.get_signed_max(), w) * scale
                overflows = not (-(1 << (w - 1)) <= prod < (1 << (w - 1)))
            if not overflows and left.has_value and _uw(abs(scale), w) >= left.value:
                return NO_ALIAS

        if v1_size.is_scalable or v2_size.is_scalable:
            return MAY_ALIAS
        if not v1_size.has_value or not v2_size.has_value:
            return MAY_ALIAS
        s1 = v1_size.value
        s2 = v2_size.value

        gcd = 0
        offset_range = ConstantRange(w, _uw(off, w))
        dt = self._get_dt(aaqi)
        ac = self.ac
        for i, index in enumerate(var_indices):
            scale = index.scale
            scale_for_gcd = scale if index.is_nsw else (1 << _ctz(scale, w))
            a = _uw(abs(_sw(scale_for_gcd, w)), w)
            gcd = a if i == 0 else _gcd_unsigned(gcd, a)
            iv = index.val.v
            cr = compute_constant_range(iv, False, True, ac, index.cxt_i)
            known = compute_known_bits(iv, SimplifyQuery(dl, None, dt, ac, _safe_cxt(iv, index.cxt_i)))
            cr = cr.intersect_with(ConstantRange.from_known_bits(known, True), PreferredRangeType.SIGNED)
            cr = index.val.evaluate_range(cr).sext_or_trunc(w)
            scale_range = ConstantRange(w, _uw(scale, w))
            cr = cr.smul_sat(scale_range) if index.is_nsw else cr.smul_fast(scale_range)
            offset_range = offset_range.sub(cr) if index.is_negated else offset_range.add(cr)

        sgcd = _sw(gcd, w)
        if sgcd != 0:
            mod = _srem(off, sgcd)
            if mod < 0:
                mod += sgcd
            mod = _uw(mod, w)
            if mod >= s2 and _uw(gcd - mod, w) >= s1:
                return NO_ALIAS

        range1 = offset_range.add(ConstantRange(w, 0, _uw(s1, w)))
        range2 = ConstantRange(w, 0, _uw(s2, w))
        if range1.intersect_with(range2).is_empty_set():
            return NO_ALIAS

        min_abs: int | None = None
        if len(var_indices) == 1:
            var = var_indices[0]
            if var.val.trunc_bits == 0 and is_known_non_zero(var.val.v, SimplifyQuery(dl, None, dt, ac, var.cxt_i)):
                if self._multiply_by_scale_no_wrap(var, w):
                    min_abs = _uw(abs(var.scale), w)
        elif len(var_indices) == 2:
            var0, var1 = var_indices
            if (
                var0.has_negated_scale_of(var1, w)
                and var0.val.trunc_bits == 0
                and var0.val.has_same_casts_as(var1.val)
                and not aaqi.may_be_cross_iteration
                and is_known_non_equal(var0.val.v, var1.val.v, SimplifyQuery(dl, None, dt, ac, None))
            ):
                min_abs = _uw(abs(var0.scale), w)

        if min_abs is not None:
            lo = _sw(off - min_abs, w)
            hi = _sw(off + min_abs, w)
            if lo < 0 and _uw(-lo, w) >= s1 and hi >= 0 and hi >= s2:
                return NO_ALIAS

        if self._constant_offset_heuristic(d1, s1, s2, aaqi):
            return NO_ALIAS
        return MAY_ALIAS

    @staticmethod
    def _multiply_by_scale_no_wrap(var: VariableGEPIndex, w: int) -> bool:
        if var.is_nsw:
            return True
        orig_bw = _int_width(var.val.v)
        max_scale_bw = var.val.bit_width - orig_bw
        if max_scale_bw <= 0:
            return False
        return _uw(var.scale, w) <= (1 << max_scale_bw) - 1

    def _subtract_decomposed_geps(self, dest: DecomposedGEP, src: DecomposedGEP, aaqi: AAQueryInfo) -> None:
        """LLVM ``subtractDecomposedGEPs``: ``dest -= src``."""
        w = dest.width
        dest.offset = _sw(dest.offset - src.offset, w)
        dvis = dest.var_indices
        for s in src.var_indices:
            found = False
            for j in range(len(dvis)):
                d = dvis[j]
                if (
                    not self.is_value_equal_in_potential_cycles(d.val.v, s.val.v, aaqi)
                    and not _are_both_vscale(d.val.v, s.val.v)
                ) or not d.val.has_same_casts_as(s.val):
                    continue
                if d.is_negated:
                    d.scale = _sw(-d.scale, w)
                    d.is_negated = False
                    d.is_nsw = False
                if d.scale != s.scale:
                    d.scale = _sw(d.scale - s.scale, w)
                    d.is_nsw = False
                else:
                    del dvis[j]
                found = True
                break
            if not found:
                dvis.append(VariableGEPIndex(s.val, s.scale, s.cxt_i, s.is_nsw, True))

    def _constant_offset_heuristic(self, gep: DecomposedGEP, v1_size: int, v2_size: int, aaqi: AAQueryInfo) -> bool:
        if len(gep.var_indices) != 2:
            return False
        var0, var1 = gep.var_indices
        w = gep.width
        if (
            var0.val.trunc_bits != 0
            or not var0.val.has_same_casts_as(var1.val)
            or not var0.has_negated_scale_of(var1, w)
            or var0.val.v.type is not var1.val.v.type
        ):
            return False
        e0 = get_linear_expression(CastedValue(var0.val.v))
        e1 = get_linear_expression(CastedValue(var1.val.v))
        if (
            e0.scale != e1.scale
            or not e0.val.has_same_casts_as(e1.val)
            or not self.is_value_equal_in_potential_cycles(e0.val.v, e1.val.v, aaqi)
        ):
            return False
        bw = e0.val.bit_width
        diff = _uw(e0.offset - e1.offset, bw)
        wrapped = _uw(-diff, bw)
        min_diff = min(diff, wrapped)
        min_diff_bytes = _uw(_uw(min_diff, w) * _uw(abs(var0.scale), w), w)
        goff = _uw(abs(gep.offset), w)
        return min_diff_bytes >= _uw(v1_size + goff, w) and min_diff_bytes >= _uw(v2_size + goff, w)

    # --- phis and selects -------------------------------------------------------------------------
    def _alias_select(self, si: SelectInst, si_size: LocationSize, v2: Value, v2_size: LocationSize, aaqi: AAQueryInfo) -> AliasResult:
        aar = aaqi.aar
        ops = si._operands
        if isinstance(v2, SelectInst):
            ops2 = v2._operands
            if self.is_value_equal_in_potential_cycles(ops[0].value, ops2[0].value, aaqi):
                a = aar.alias(MemoryLocation(ops[1].value, si_size), MemoryLocation(ops2[1].value, v2_size), aaqi)
                if a.kind is _MAY:
                    return MAY_ALIAS
                b = aar.alias(MemoryLocation(ops[2].value, si_size), MemoryLocation(ops2[2].value, v2_size), aaqi)
                return _merge_alias_results(b, a)
        loc2 = MemoryLocation(v2, v2_size)
        a = aar.alias(MemoryLocation(ops[1].value, si_size), loc2, aaqi)
        if a.kind is _MAY:
            return MAY_ALIAS
        b = aar.alias(MemoryLocation(ops[2].value, si_size), loc2, aaqi)
        return _merge_alias_results(b, a)

    def _alias_phi(self, pn: PHINode, pn_size: LocationSize, v2: Value, v2_size: LocationSize, aaqi: AAQueryInfo) -> AliasResult:
        n = pn.num_incoming
        if not n:
            return NO_ALIAS
        aar = aaqi.aar
        if isinstance(v2, PHINode) and v2.parent is pn.parent:
            alias: AliasResult | None = None
            for i in range(n):
                this = aar.alias(
                    MemoryLocation(pn.get_incoming_value(i), pn_size),
                    MemoryLocation(v2.incoming_value_for_block(pn.get_incoming_block(i)), v2_size),
                    aaqi,
                )
                alias = this if alias is None else _merge_alias_results(alias, this)
                if alias.kind is _MAY:
                    break
            assert alias is not None
            return alias

        v1_srcs: list[Value] = []
        is_recursive = False
        rec_phi = bool(OPTIONS.value("basic-aa-recphi"))
        unique: set[Value] = set()
        one_phi: Value | None = None
        for pv1 in pn.incoming_values:
            if pv1 is pn:
                continue
            if isinstance(pv1, PHINode):
                if one_phi is not None and one_phi is not pv1:
                    return MAY_ALIAS
                one_phi = pv1
            if rec_phi and get_underlying_object(pv1) is pn:
                is_recursive = True
                continue
            if pv1 not in unique:
                unique.add(pv1)
                v1_srcs.append(pv1)
        if one_phi is not None and len(unique) > 1:
            return MAY_ALIAS
        if not v1_srcs:
            return MAY_ALIAS
        if is_recursive:
            pn_size = BEFORE_OR_AFTER_POINTER

        saved = aaqi.may_be_cross_iteration
        aaqi.may_be_cross_iteration = True
        try:
            loc2 = MemoryLocation(v2, v2_size)
            alias = aar.alias(MemoryLocation(v1_srcs[0], pn_size), loc2, aaqi)
            if alias.kind is _MAY:
                return MAY_ALIAS
            if is_recursive and alias.kind is not _NO:
                return MAY_ALIAS
            for i in range(1, len(v1_srcs)):
                this = aar.alias(MemoryLocation(v1_srcs[i], pn_size), loc2, aaqi)
                alias = _merge_alias_results(this, alias)
                if alias.kind is _MAY:
                    break
            return alias
        finally:
            aaqi.may_be_cross_iteration = saved

    # --- mod/ref --------------------------------------------------------------------------------
    def get_mod_ref_info_mask(self, loc: MemoryLocation, aaqi: AAQueryInfo, ignore_locals: bool) -> ModRefInfo:
        ptr = loc.ptr
        if ptr is None:
            return MOD_REF
        max_lookup = 8
        worklist: list[Value] = [ptr]
        visited: set[Value] = set()
        result = 0
        while True:
            v = get_underlying_object(worklist.pop())
            if v not in visited:
                visited.add(v)
                if ignore_locals and type(v) is AllocaInst:
                    pass
                elif type(v) is Argument and v.attributes.has("noalias") and (
                    v.attributes.has("readonly") or v.attributes.has("readnone")
                ):
                    result |= REF
                elif type(v) is GlobalVariable:
                    if not v.is_constant_global:
                        return MOD_REF
                elif type(v) is SelectInst:
                    worklist.append(v._operands[1].value)
                    worklist.append(v._operands[2].value)
                elif type(v) is PHINode:
                    if v.num_incoming > max_lookup:
                        return MOD_REF
                    worklist.extend(v.incoming_values)
                else:
                    return MOD_REF
            max_lookup -= 1
            if not worklist or not max_lookup:
                break
        if worklist:
            return MOD_REF
        return _MR[result]

    def get_memory_effects(self, call: CallBase, aaqi: AAQueryInfo) -> MemoryEffects:
        me = self._attr_me(call.attributes.fn_attrs)
        callee = call.called_operand
        if isinstance(callee, Function):
            fn_me = aaqi.aar.get_function_memory_effects(callee)
            if call.has_operand_bundles:
                if call.has_reading_operand_bundles():
                    fn_me = fn_me | MemoryEffects.read_only()
                if call.has_clobbering_operand_bundles():
                    fn_me = fn_me | MemoryEffects.write_only()
            me = me & fn_me
        return me

    def get_function_memory_effects(self, fn: Function) -> MemoryEffects:
        if fn.intrinsic_id and intrinsic_base_name(fn.name) in _GUARD_OR_DEOPT:
            return MemoryEffects.read_only() | MemoryEffects.inaccessible_mem_only(MOD_REF)
        return self._attr_me(fn.attributes.fn_attrs)

    def _attr_me(self, attrs: Any) -> MemoryEffects:
        """:func:`_attr_memory_effects` of an (immutable) attribute set, remembered."""
        found = self._me_cache.get(id(attrs))
        if found is not None and found[0] is attrs:
            return found[1]
        me = _attr_memory_effects(attrs)
        self._me_cache[id(attrs)] = (attrs, me)
        return me

    def get_arg_mod_ref_info(self, call: CallBase, arg_idx: int) -> ModRefInfo:
        if call.param_has_attr(arg_idx, "writeonly"):
            return MOD
        if call.param_has_attr(arg_idx, "readonly"):
            return REF
        if call.param_has_attr(arg_idx, "readnone"):
            return NO_MOD_REF
        return MOD_REF

    def get_mod_ref_info(self, call: CallBase, loc: MemoryLocation, aaqi: AAQueryInfo) -> ModRefInfo:
        ptr = loc.ptr
        if ptr is None:
            return MOD_REF
        obj = get_underlying_object(ptr)
        if type(obj) is AllocaInst:
            if type(call) is CallInst and call.is_tail_call and not call.attributes.has_attr_somewhere("byval"):
                return NO_MOD_REF
            if not obj.is_static_alloca and call.intrinsic_base == "llvm.stackrestore":
                return MOD

        if not isinstance(obj, Constant) and call is not obj and aaqi.ci.is_not_captured_before(obj, call, False):
            result = 0
            aar = aaqi.aar
            obj_loc = MemoryLocation(obj, BEFORE_OR_AFTER_POINTER)
            n_args = call.arg_size
            ops = call._operands
            for op_no in range(n_args + call.num_total_bundle_operands):
                operand = ops[op_no].value
                if not operand.type.is_pointer:
                    continue
                if _operand_has_implied_attr(call, op_no, "readnone", n_args):
                    continue
                ar = aar.alias(MemoryLocation(operand, BEFORE_OR_AFTER_POINTER), obj_loc, aaqi)
                if ar.kind is _NO:
                    continue
                if _operand_only_reads(call, op_no, n_args):
                    result |= REF
                    continue
                if _operand_has_implied_attr(call, op_no, "writeonly", n_args) or _operand_has_implied_attr(
                    call, op_no, "readnone", n_args
                ):
                    result |= MOD
                    continue
                result = MOD_REF
                break
            if result != MOD_REF:
                return _MR[result]

        if is_malloc_or_calloc_like_fn(call, self.tli):
            if aaqi.aar.alias(MemoryLocation(call, BEFORE_OR_AFTER_POINTER), loc, aaqi).kind is _NO:
                return NO_MOD_REF

        if call.intrinsic_base == "llvm.invariant.start":
            return REF
        return MOD_REF

    def get_mod_ref_info_calls(self, call1: CallBase, call2: CallBase, aaqi: AAQueryInfo) -> ModRefInfo:
        if call1.intrinsic_base == "llvm.experimental.guard":
            return REF if self.get_memory_effects(call2, aaqi).get_mod_ref() & MOD else NO_MOD_REF
        if call2.intrinsic_base == "llvm.experimental.guard":
            return MOD if self.get_memory_effects(call1, aaqi).get_mod_ref() & MOD else NO_MOD_REF
        return MOD_REF


def _safe_cxt(v: Value, cxt: Instruction | None) -> Instruction | None:
    if cxt is not None and cxt.parent is not None:
        return cxt
    if isinstance(v, Instruction) and v.parent is not None:
        return v
    return None


def _srem(a: int, b: int) -> int:
    """Signed remainder with C's sign rule (the sign of ``a``)."""
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def _operand_has_implied_attr(call: CallBase, op_no: int, kind: str, n_args: int) -> bool:
    """``CallBase::dataOperandHasImpliedAttr``: a parameter attribute, or what a bundle implies
    (a ``deopt`` bundle's pointer inputs are readonly and nocapture)."""
    if op_no < n_args:
        return call.param_has_attr(op_no, kind)
    if kind == "readonly":
        return call.bundle_of_operand(op_no).tag == "deopt" and call._operands[op_no].value.type.is_pointer
    return False


def _operand_only_reads(call: CallBase, op_no: int, n_args: int) -> bool:
    """``CallBase::onlyReadsMemory(OpNo)``."""
    if op_no < n_args and call.param_has_attr(op_no, "byval"):
        return True
    return _operand_has_implied_attr(call, op_no, "readonly", n_args) or _operand_has_implied_attr(
        call, op_no, "readnone", n_args
    )


class BasicAA(FunctionAnalysis[BasicAAResult]):
    name: ClassVar[str] = "basic-aa"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> BasicAAResult:
        tli = am.get_result(TargetLibraryAnalysis, unit)
        ac = am.get_result(AssumptionAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        module = unit.parent
        dl = module.data_layout if module is not None else DataLayout.default()
        return BasicAAResult(dl, unit, tli, ac, dt)

