"""Calls: :class:`CallBase` (shared by ``call``, ``invoke``, ``callbr``) and :class:`CallInst`.

Operand layout, as LLVM's ``getOperand(i)``: the call arguments, then the
inputs of every operand bundle (bundle after bundle), then the extra operands
of ``invoke`` (normal, unwind dest) or ``callbr`` (default dest, indirect
dests), and the callee last. LLVM's constructors create the ``Use`` s in a
different order -- arguments, extra operands, callee, and only then the bundle
inputs -- and so do these (it fixes the order of use-lists); a clone copies
the operands in index order, as LLVM's copy constructors do.

A call carries its function type (the callee is an opaque ``ptr``), its
call-site attributes (:class:`~llvmpy_mid.ir.attributes.AttributeList`), a
calling-convention id (see :mod:`llvmpy_mid.ir.calling_conv`) and its operand
bundles, each a tag with a range of operand indices. The queries consult the
callee's attributes where LLVM's ``CallBase`` does: ``has_fn_attr`` (and so
``may_throw``, ``will_return``, ``does_not_return``), ``param_has_attr`` and
the ``memory(...)`` effects (with LLVM's widening for operand bundles).

``call`` adds a tail-call kind and fast-math flags (allowed only when the call
returns a floating-point scalar or vector, or an array of them, as opt-19
enforces). ``invoke`` and ``callbr`` are terminators and live in
:mod:`llvmpy_mid.ir.instructions.terminators`.

Intrinsics are recognised by name (``llvm.*``) with a small table of the
intrinsics whose identity changes a generic query (commutativity, volatile
memory intrinsics); the full intrinsic table is not here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar, Iterable, Sequence, Union

import attrs

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.attribute_kinds import AttrKind, find_attribute_kind
from llvmpy_mid.ir.attributes import Attribute, AttributeList, AttributeSet, KindLike
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.flags import FastMathFlags, TailCallKind, type_supports_fast_math_flags
from llvmpy_mid.ir.intrinsics import _load as _intrinsic_table, lookup_intrinsic
from llvmpy_mid.ir.memory_effects import MemoryEffects
from llvmpy_mid.ir.types import FunctionType, Type, TypeID
from llvmpy_mid.ir.value import Use, Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.inline_asm import InlineAsm


@attrs.frozen
class OperandBundle:
    """One operand bundle: ``"tag"(T %v, ...)``. ``inputs`` are ordinary operands of the call."""

    tag: str
    inputs: tuple[Value, ...] = ()

    @property
    def is_deopt(self) -> bool:
        return self.tag == "deopt"

    @property
    def is_funclet(self) -> bool:
        return self.tag == "funclet"


BundleLike = Union[OperandBundle, "tuple[str, Sequence[Value]]"]

# Bundle tags that never make a call read (resp. write) memory (LLVM's
# ``hasReadingOperandBundles`` / ``hasClobberingOperandBundles``).
_NON_READING_TAGS = frozenset(("ptrauth", "kcfi", "convergencectrl"))
_NON_CLOBBERING_TAGS = frozenset(("deopt", "funclet", "ptrauth", "kcfi", "convergencectrl"))

_NO_BUNDLES: tuple[tuple[str, int, int], ...] = ()

# Intrinsics whose identity matters to the generic queries below, by base name
# (:func:`intrinsic_base_name`: ``llvm.memcpy.inline.p0.p0.i64`` is ``llvm.memcpy.inline``).
_COMMUTATIVE_INTRINSICS = frozenset(
    (
        "llvm.maxnum",
        "llvm.minnum",
        "llvm.maximum",
        "llvm.minimum",
        "llvm.smax",
        "llvm.smin",
        "llvm.umax",
        "llvm.umin",
        "llvm.sadd.sat",
        "llvm.uadd.sat",
        "llvm.sadd.with.overflow",
        "llvm.uadd.with.overflow",
        "llvm.smul.with.overflow",
        "llvm.umul.with.overflow",
        "llvm.smul.fix",
        "llvm.umul.fix",
        "llvm.smul.fix.sat",
        "llvm.umul.fix.sat",
        "llvm.fma",
        "llvm.fmuladd",
    )
)
# Intrinsic -> index of its ``i1 volatile`` argument.
_VOLATILE_ARG = {
    "llvm.memcpy": 3,
    "llvm.memcpy.inline": 3,
    "llvm.memmove": 3,
    "llvm.memset": 3,
    "llvm.memset.inline": 3,
    "llvm.matrix.column.major.load": 2,
    "llvm.matrix.column.major.store": 3,
}
_BASE_NAME_CACHE: dict[str, str] = {}
# One type mangling segment of an overloaded intrinsic's name.
_TYPE_MANGLING = re.compile(r"(i\d+|f\d+|bf16|ppcf128|x86_fp80|nxv\d+\w*|v\d+\w*|p\d+|a\d+\w*|s_\w*|sl_\w*|isVoid|f)\Z")


def intrinsic_base_name(name: str) -> str:
    """The intrinsic a (possibly type-mangled) ``llvm.*`` name denotes, as LLVM's
    ``lookupIntrinsicID`` finds it in the intrinsic table (``llvm.abs`` for
    ``llvm.abs.i8``), or ``name`` itself when it is no intrinsic."""
    base = _BASE_NAME_CACHE.get(name)
    if base is None:
        base = lookup_intrinsic(name) or name
        if base.startswith("llvm."):
            # the table also lists some mangled names (``llvm.sqrt.f64``): strip
            # type manglings while an overloaded intrinsic remains
            table = _intrinsic_table()
            cut = base
            while True:
                dot = cut.rfind(".")
                if dot <= 4 or not _TYPE_MANGLING.match(cut, dot + 1):
                    break
                cut = cut[:dot]
                entry = table.get(cut)
                if entry is not None and entry[3]:
                    base = cut
        if len(_BASE_NAME_CACHE) < 8192:
            _BASE_NAME_CACHE[name] = base
    return base


def _normalize_bundles(bundles: Iterable[BundleLike]) -> list[OperandBundle]:
    out: list[OperandBundle] = []
    for b in bundles:
        if isinstance(b, OperandBundle):
            out.append(b)
        else:
            tag, inputs = b
            out.append(OperandBundle(tag, tuple(inputs)))
    return out


def _check_args(what: str, fty: FunctionType, args: Sequence[Value]) -> None:
    params = fty.params
    if len(args) != len(params) and not (fty.is_vararg and len(args) > len(params)):
        raise IRError(
            "%s: %d argument(s) given, but the function type %s takes %s%d"
            % (what, len(args), fty, "at least " if fty.is_vararg else "", len(params))
        )
    for i, (arg, param) in enumerate(zip(args, params)):
        if arg.type is not param:
            raise IRError(
                "%s: argument %d has type %s, but the function type wants %s" % (what, i, arg.type, param)
            )


def _legacy_memory(attrs_: AttributeSet) -> MemoryEffects:
    """The memory effects of a function attribute set: ``memory(...)`` narrowed
    by the pre-LLVM-16 spellings ``readnone``/``readonly``/``writeonly``."""
    me = attrs_.memory_effects
    if attrs_.has(AttrKind.READ_NONE):
        me = MemoryEffects.NONE
    else:
        if attrs_.has(AttrKind.READ_ONLY):
            me = me & MemoryEffects.read_only()
        if attrs_.has(AttrKind.WRITE_ONLY):
            me = me & MemoryEffects.write_only()
    return me


class CallBase(Instruction):
    """What ``call``, ``invoke`` and ``callbr`` share (LLVM ``CallBase``).

    Operands: ``args..., bundle inputs..., [subclass extras...], callee``.
    """

    __slots__ = ("function_type", "attributes", "calling_conv", "_num_args", "_bundles", "_fx")

    is_call_base = True

    function_type: FunctionType
    attributes: AttributeList
    """The call-site attributes."""
    calling_conv: int
    """LLVM calling-convention id (``llvmpy_mid.ir.calling_conv``); 0 is C."""
    _num_args: int
    _bundles: tuple[tuple[str, int, int], ...]

    def _init_call(
        self,
        function_type: FunctionType,
        callee: Value,
        args: Sequence[Value],
        bundles: Iterable[BundleLike],
        extras: Sequence[Value],
        name: str,
        calling_conv: int,
        attributes: AttributeList | None,
    ) -> None:
        """Set up the operands in LLVM's fill order (see the module docstring)."""
        if callee.type.type_id is not TypeID.POINTER:
            raise IRError("%s: the callee must be a pointer, not %s" % (self.opcode, callee.type))
        _check_args(self.opcode, function_type, args)
        self.function_type = function_type
        self.attributes = AttributeList.EMPTY if attributes is None else attributes
        self.calling_conv = calling_conv
        self._fx = None
        nargs = len(args)
        self._num_args = nargs
        blist = _normalize_bundles(bundles) if bundles else None
        if not blist:
            self._bundles = _NO_BUNDLES
            ops: list[Value] = list(args)
            ops.extend(extras)
            ops.append(callee)
            Instruction.__init__(self, function_type.return_type, ops, name)
            return
        Instruction.__init__(self, function_type.return_type, (), name)
        infos: list[tuple[str, int, int]] = []
        pos = nargs
        for b in blist:
            infos.append((b.tag, pos, pos + len(b.inputs)))
            pos += len(b.inputs)
        self._bundles = tuple(infos)
        n_bundle = pos - nargs
        total = pos + len(extras) + 1
        uses: list[Use | None] = [None] * total
        for i, v in enumerate(args):
            uses[i] = Use(v, self, i)
        base = nargs + n_bundle
        for j, v in enumerate(extras):
            uses[base + j] = Use(v, self, base + j)
        uses[total - 1] = Use(callee, self, total - 1)
        i = nargs
        for b in blist:
            for v in b.inputs:
                uses[i] = Use(v, self, i)
                i += 1
        self._operands = uses  # type: ignore[assignment]

    def _copy_call_state(self, copy: CallBase) -> None:
        """Give a clone this call's operands (in index order) and call state."""
        Instruction.__init__(copy, self.type, [u.value for u in self._operands])
        copy.function_type = self.function_type
        copy.attributes = self.attributes
        copy.calling_conv = self.calling_conv
        copy._num_args = self._num_args
        copy._bundles = self._bundles
        copy._fx = None

    # --- callee ---------------------------------------------------------------------
    @property
    def callee(self) -> Value:
        """The called operand (a function, inline asm or any pointer)."""
        return self._operands[-1].value

    @callee.setter
    def callee(self, value: Value) -> None:
        if value.type.type_id is not TypeID.POINTER:
            raise IRError("%s: the callee must be a pointer, not %s" % (self.opcode, value.type))
        self._operands[-1].set(value)

    @property
    def called_operand(self) -> Value:
        return self._operands[-1].value

    @property
    def called_operand_use(self) -> Use:
        return self._operands[-1]

    def set_called_function(self, function: Function, function_type: FunctionType | None = None) -> None:
        """Call ``function`` instead, with its function type unless one is given."""
        fty = function.function_type if function_type is None else function_type
        if fty.return_type is not self.type:
            raise IRError("set_called_function: the return type would change from %s to %s" % (self.type, fty.return_type))
        self.callee = function
        self.function_type = fty

    @property
    def called_function(self) -> Function | None:
        """The callee if it is a function whose type is the call's function type
        (LLVM ``getCalledFunction``), else None."""
        callee = self._operands[-1].value
        if isinstance(callee, Function) and callee.function_type is self.function_type:
            return callee
        return None

    @property
    def is_indirect_call(self) -> bool:
        """The callee is neither a constant (function, global, expression) nor inline asm."""
        callee = self._operands[-1].value
        return not (callee.is_constant or callee.is_inline_asm)

    @property
    def is_inline_asm_call(self) -> bool:
        """The callee is an ``asm`` expression (LLVM ``CallBase::isInlineAsm``).

        Named so because ``Value.is_inline_asm`` is the class flag telling
        whether a value *is* an inline-asm expression."""
        return self._operands[-1].value.is_inline_asm

    @property
    def inline_asm(self) -> InlineAsm | None:
        callee = self._operands[-1].value
        return callee if callee.is_inline_asm else None  # type: ignore[return-value]

    @property
    def caller(self) -> Function | None:
        return self.function

    # --- arguments -------------------------------------------------------------------
    @property
    def num_args(self) -> int:
        return self._num_args

    @property
    def arg_size(self) -> int:
        return self._num_args

    @property
    def args(self) -> list[Value]:
        """The argument values (a fresh list)."""
        ops = self._operands
        return [ops[i].value for i in range(self._num_args)]

    @property
    def arg_operands(self) -> list[Value]:
        return self.args

    @property
    def arg_uses(self) -> list[Use]:
        return self._operands[: self._num_args]

    def get_arg(self, index: int) -> Value:
        if not 0 <= index < self._num_args:
            raise IndexError("argument index %d out of range (%d arguments)" % (index, self._num_args))
        return self._operands[index].value

    def set_arg(self, index: int, value: Value) -> None:
        if not 0 <= index < self._num_args:
            raise IndexError("argument index %d out of range (%d arguments)" % (index, self._num_args))
        self._operands[index].set(value)

    def is_arg_operand(self, use: Use) -> bool:
        return use.user is self and use.index < self._num_args

    @property
    def num_extra_operands(self) -> int:
        """Operands between the bundle inputs and the callee (invoke: 2, callbr: 1 + indirect dests)."""
        end = self._bundles[-1][2] if self._bundles else self._num_args
        return len(self._operands) - 1 - end

    # --- attributes ------------------------------------------------------------------
    def has_fn_attr(self, kind: KindLike) -> bool:
        """On the call site, or else on the called function (LLVM ``hasFnAttr``)."""
        if self.attributes.fn_attrs.has(kind):
            return True
        callee = self._operands[-1].value
        return isinstance(callee, Function) and callee.attributes.fn_attrs.has(kind)

    def get_fn_attr(self, kind: KindLike) -> Attribute | None:
        """The call site's attribute of ``kind``, else the callee's, else None."""
        found = self.attributes.get_fn_attr(kind)
        if found is None:
            callee = self._operands[-1].value
            if isinstance(callee, Function):
                found = callee.attributes.get_fn_attr(kind)
        return found

    def has_ret_attr(self, kind: KindLike) -> bool:
        """On the call site's return, or else on the called function's (LLVM ``hasRetAttr``)."""
        if self.attributes.ret_attrs.has(kind):
            return True
        fn = self.called_function
        return fn is not None and fn.attributes.ret_attrs.has(kind)

    def param_has_attr(self, arg_no: int, kind: KindLike) -> bool:
        """On the call-site argument, or else on the callee's parameter; the
        callee's readnone/readonly/writeonly are weakened by operand bundles
        as in LLVM's ``paramHasAttr``."""
        if self.attributes.param_attrs(arg_no).has(kind):
            return True
        fn = self.called_function
        if fn is None or not fn.attributes.param_attrs(arg_no).has(kind):
            return False
        if not self._bundles:
            return True
        key = kind if isinstance(kind, AttrKind) else find_attribute_kind(kind)
        if key is AttrKind.READ_NONE:
            return not self.has_reading_operand_bundles() and not self.has_clobbering_operand_bundles()
        if key is AttrKind.READ_ONLY:
            return not self.has_clobbering_operand_bundles()
        if key is AttrKind.WRITE_ONLY:
            return not self.has_reading_operand_bundles()
        return True

    def param_by_val_type(self, arg_no: int) -> Type | None:
        """LLVM ``getParamByValType``: the call site's ``byval`` type, else the callee's."""
        ty = self.attributes.param_type_attr(arg_no, "byval")
        if ty is None:
            fn = self.called_function
            if fn is not None:
                ty = fn.attributes.param_type_attr(arg_no, "byval")
        return ty

    def add_fn_attr(self, attr: Attribute) -> None:
        """Add a call-site function attribute."""
        self.attributes = self.attributes.with_fn_attr(attr)

    def remove_fn_attr(self, kind: KindLike) -> None:
        self.attributes = self.attributes.without_fn_attr(kind)

    @property
    def does_not_throw(self) -> bool:
        return self.has_fn_attr(AttrKind.NO_UNWIND)

    @property
    def does_not_return(self) -> bool:
        """``noreturn`` on the call site or callee."""
        return self.has_fn_attr(AttrKind.NO_RETURN)

    @property
    def is_convergent(self) -> bool:
        return self.has_fn_attr(AttrKind.CONVERGENT)

    @property
    def is_no_inline(self) -> bool:
        return self.has_fn_attr(AttrKind.NO_INLINE)

    @property
    def is_no_builtin(self) -> bool:
        """``nobuiltin`` on the call site or callee and ``builtin`` on neither
        (LLVM ``isNoBuiltin``)."""
        return self.has_fn_attr(AttrKind.NO_BUILTIN) and not self.has_fn_attr(AttrKind.BUILTIN)

    @property
    def cannot_duplicate(self) -> bool:
        return self.has_fn_attr(AttrKind.NO_DUPLICATE)

    def will_return(self) -> bool:
        """``willreturn`` on the call site or callee (LLVM ``Instruction::willReturn``)."""
        return self.has_fn_attr(AttrKind.WILL_RETURN)

    # --- memory -----------------------------------------------------------------------
    # ``_fx`` caches (call-site attributes, callee, callee attributes, memory effects,
    # mayHaveSideEffects or None). Attribute lists are immutable (every edit makes a
    # new one) and bundles never change, so the cache is valid while those three
    # objects are the same ones.
    _fx: tuple[AttributeList, Value, object, MemoryEffects, bool | None] | None

    @property
    def memory_effects(self) -> MemoryEffects:
        """The call site's ``memory`` effects intersected with the callee's,
        the callee's widened by operand bundles (LLVM ``getMemoryEffects``)."""
        callee = self._operands[-1].value
        fx = self._fx
        if fx is not None and fx[0] is self.attributes and fx[1] is callee and fx[2] is getattr(callee, "attributes", None):
            return fx[3]
        me = self._compute_memory_effects()
        self._fx = (self.attributes, callee, getattr(callee, "attributes", None), me, None)
        return me

    def may_have_side_effects(self) -> bool:
        """LLVM ``mayHaveSideEffects`` (writes memory, may throw or may not return),
        cached with the memory effects."""
        callee = self._operands[-1].value
        fx = self._fx
        if fx is not None and fx[0] is self.attributes and fx[1] is callee and fx[2] is getattr(callee, "attributes", None):
            side = fx[4]
            if side is not None:
                return side
        side = self.may_write_to_memory() or self.may_throw() or not self.will_return()
        fx = self._fx
        assert fx is not None
        self._fx = (fx[0], fx[1], fx[2], fx[3], side)
        return side

    def _compute_memory_effects(self) -> MemoryEffects:
        me = _legacy_memory(self.attributes.fn_attrs)
        callee = self._operands[-1].value
        if isinstance(callee, Function):
            fn_me = _legacy_memory(callee.attributes.fn_attrs)
            if self._bundles:
                if self.has_reading_operand_bundles():
                    fn_me = fn_me | MemoryEffects.read_only()
                if self.has_clobbering_operand_bundles():
                    fn_me = fn_me | MemoryEffects.write_only()
            me = me & fn_me
        return me

    @property
    def does_not_access_memory(self) -> bool:
        return self.memory_effects.does_not_access_memory

    @property
    def only_reads_memory(self) -> bool:
        return self.memory_effects.only_reads_memory

    @property
    def only_writes_memory(self) -> bool:
        return self.memory_effects.only_writes_memory

    @property
    def only_accesses_arg_memory(self) -> bool:
        return self.memory_effects.only_accesses_arg_pointees

    @property
    def only_accesses_inaccessible_memory(self) -> bool:
        return self.memory_effects.only_accesses_inaccessible_mem

    def may_read_from_memory(self) -> bool:
        return not self.memory_effects.only_writes_memory

    def may_write_to_memory(self) -> bool:
        return not self.memory_effects.only_reads_memory

    # --- operand bundles -------------------------------------------------------------
    @property
    def has_operand_bundles(self) -> bool:
        return bool(self._bundles)

    @property
    def num_operand_bundles(self) -> int:
        return len(self._bundles)

    def _bundle_from_info(self, info: tuple[str, int, int]) -> OperandBundle:
        ops = self._operands
        return OperandBundle(info[0], tuple(ops[i].value for i in range(info[1], info[2])))

    @property
    def operand_bundles(self) -> list[OperandBundle]:
        """Every bundle with its current input values, in order."""
        return [self._bundle_from_info(info) for info in self._bundles]

    def get_operand_bundle_at(self, index: int) -> OperandBundle:
        return self._bundle_from_info(self._bundles[index])

    def get_operand_bundle(self, tag: str) -> OperandBundle | None:
        """The bundle with ``tag`` (a call has at most one per tag), or None."""
        for info in self._bundles:
            if info[0] == tag:
                return self._bundle_from_info(info)
        return None

    def count_operand_bundles_of_type(self, tag: str) -> int:
        return sum(1 for info in self._bundles if info[0] == tag)

    @property
    def operand_bundle_ranges(self) -> tuple[tuple[str, int, int], ...]:
        """Each bundle as ``(tag, first operand index, end operand index)``."""
        return self._bundles

    @property
    def num_total_bundle_operands(self) -> int:
        if not self._bundles:
            return 0
        return self._bundles[-1][2] - self._bundles[0][1]

    def is_bundle_operand(self, index: int) -> bool:
        b = self._bundles
        return bool(b) and b[0][1] <= index < b[-1][2]

    def bundle_of_operand(self, index: int) -> OperandBundle:
        """The bundle whose inputs include operand ``index``."""
        for info in self._bundles:
            if info[1] <= index < info[2]:
                return self._bundle_from_info(info)
        raise IndexError("operand %d is not a bundle input" % index)

    def has_operand_bundles_other_than(self, tags: Iterable[str]) -> bool:
        allowed = set(tags)
        return any(info[0] not in allowed for info in self._bundles)

    def has_identical_operand_bundle_schema(self, other: CallBase) -> bool:
        """Same tags over the same operand ranges (LLVM's test for ``isSameOperationAs``)."""
        return self._bundles == other._bundles

    def has_reading_operand_bundles(self) -> bool:
        """A bundle other than ptrauth/kcfi/convergencectrl (not on ``llvm.assume``)."""
        for info in self._bundles:
            if info[0] not in _NON_READING_TAGS:
                return self.intrinsic_name != "llvm.assume"
        return False

    def has_clobbering_operand_bundles(self) -> bool:
        """A bundle other than deopt/funclet/ptrauth/kcfi/convergencectrl (not on ``llvm.assume``)."""
        for info in self._bundles:
            if info[0] not in _NON_CLOBBERING_TAGS:
                return self.intrinsic_name != "llvm.assume"
        return False

    def with_operand_bundles(self, bundles: Iterable[BundleLike]) -> CallBase:
        """A detached copy of this call with ``bundles`` instead of its own
        (LLVM ``CallBase::Create(CB, Bundles)``): same callee, arguments, dests,
        attributes, calling convention, flags, name and ``!dbg``."""
        raise IRError("%s cannot be rebuilt with new bundles" % self.opcode)

    def with_operand_bundle(self, bundle: BundleLike) -> CallBase:
        """A copy with ``bundle`` added, replacing any bundle of the same tag."""
        new = _normalize_bundles([bundle])[0]
        kept: list[BundleLike] = [b for b in self.operand_bundles if b.tag != new.tag]
        kept.append(new)
        return self.with_operand_bundles(kept)

    def without_operand_bundle(self, tag: str) -> CallBase:
        """A copy without the bundle ``tag`` (self when there is none)."""
        if not any(info[0] == tag for info in self._bundles):
            return self
        return self.with_operand_bundles([b for b in self.operand_bundles if b.tag != tag])

    def _finish_rebuild(self, new: CallBase) -> CallBase:
        new.attributes = self.attributes
        new.calling_conv = self.calling_conv
        loc = self.debug_loc
        if loc is not None:
            new.debug_loc = loc
        return new

    # --- intrinsics -----------------------------------------------------------------------
    @property
    def intrinsic_name(self) -> str:
        """The called function's name when it is an ``llvm.*`` function of the
        call's type (LLVM ``getIntrinsicID`` goes through ``getCalledFunction``),
        else ``""``."""
        fn = self.called_function
        if fn is not None and fn.intrinsic_id:
            return fn.name
        return ""

    @property
    def is_intrinsic_call(self) -> bool:
        """The call site calls an ``llvm.*`` function of the call's own type
        (LLVM's ``isa<IntrinsicInst>`` test on the called function)."""
        fn = self.called_function
        return fn is not None and fn.intrinsic_id

    @property
    def intrinsic_base(self) -> str:
        """:func:`intrinsic_base_name` of the called intrinsic; ``""`` for other calls."""
        fn = self.called_function
        if fn is None or not fn.intrinsic_id:
            return ""
        return intrinsic_base_name(fn.name)

    # --- comparison ---------------------------------------------------------------------
    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        # invoke and callbr; call adds its tail-call kind.
        return isinstance(other, CallBase) and self._same_call_state(other)

    def _same_call_state(self, other: CallBase) -> bool:
        return (
            self.calling_conv == other.calling_conv
            and self.function_type is other.function_type
            and self.attributes == other.attributes
            and self._bundles == other._bundles
        )


is_fp_math_call_type = type_supports_fast_math_flags
"""Whether a call returning a type may carry fast-math flags: a floating-point
scalar or vector, or (nested) arrays of them (checked with opt-19); the rule
of phi and select too."""


class CallInst(CallBase):
    """``[tail|musttail|notail] call [fmf] [cc] [ret attrs] T callee(args) [fn attrs] [bundles]``.

    Operands: ``args..., bundle inputs..., callee``. Build with the function type
    (``CallInst(fty, callee, args)``) or from a function (``CallInst.create(fn, args)``).
    """

    __slots__ = ("_tck", "_fmf")

    opcode: ClassVar[str] = "call"

    _tck: TailCallKind
    _fmf: int

    def __init__(
        self,
        function_type: FunctionType,
        callee: Value,
        args: Sequence[Value] = (),
        *,
        bundles: Iterable[BundleLike] = (),
        name: str = "",
        tail_call_kind: TailCallKind = TailCallKind.NONE,
        fast_math_flags: FastMathFlags | int = 0,
        calling_conv: int = 0,
        attributes: AttributeList | None = None,
    ) -> None:
        self._init_call(function_type, callee, args, bundles, (), name, calling_conv, attributes)
        self._tck = tail_call_kind
        self._fmf = 0
        if fast_math_flags:
            self.fast_math_flags = fast_math_flags

    @classmethod
    def create(
        cls,
        function: Function,
        args: Sequence[Value] = (),
        *,
        bundles: Iterable[BundleLike] = (),
        name: str = "",
        tail_call_kind: TailCallKind = TailCallKind.NONE,
        fast_math_flags: FastMathFlags | int = 0,
    ) -> CallInst:
        """A call of ``function`` with its own function type and calling convention."""
        return cls(
            function.function_type,
            function,
            args,
            bundles=bundles,
            name=name,
            tail_call_kind=tail_call_kind,
            fast_math_flags=fast_math_flags,
            calling_conv=function.calling_conv,
        )

    # --- tail calls ---------------------------------------------------------------------
    @property
    def tail_call_kind(self) -> TailCallKind:
        return self._tck

    @tail_call_kind.setter
    def tail_call_kind(self, kind: TailCallKind) -> None:
        self._tck = kind

    @property
    def is_tail_call(self) -> bool:
        """``tail`` or ``musttail`` (LLVM ``isTailCall``)."""
        return self._tck is TailCallKind.TAIL or self._tck is TailCallKind.MUSTTAIL

    @is_tail_call.setter
    def is_tail_call(self, flag: bool) -> None:
        self._tck = TailCallKind.TAIL if flag else TailCallKind.NONE

    @property
    def is_must_tail_call(self) -> bool:
        return self._tck is TailCallKind.MUSTTAIL

    @property
    def is_no_tail_call(self) -> bool:
        return self._tck is TailCallKind.NOTAIL

    # --- fast-math flags ------------------------------------------------------------------
    @property
    def is_fp_math_operator(self) -> bool:
        """Whether this call may carry fast-math flags (LLVM ``isa<FPMathOperator>``)."""
        return type_supports_fast_math_flags(self.type)

    @property
    def fast_math_flags(self) -> FastMathFlags:
        return FastMathFlags(self._fmf)

    @fast_math_flags.setter
    def fast_math_flags(self, flags: FastMathFlags | int) -> None:
        value = int(flags) & 127
        if value and not type_supports_fast_math_flags(self.type):
            raise IRError(
                "fast-math flags on a call need a floating-point scalar or vector return type, not %s" % self.type
            )
        self._fmf = value

    # --- queries ------------------------------------------------------------------------------
    def may_throw(self) -> bool:
        """Unless ``nounwind`` is on the call site or callee."""
        return not self.has_fn_attr(AttrKind.NO_UNWIND)

    @property
    def is_volatile(self) -> bool:
        """A memory intrinsic (or column-major matrix load/store) with its volatile flag set."""
        base = self.intrinsic_base
        if not base:
            return False
        idx = _VOLATILE_ARG.get(base)
        if idx is None or idx >= self._num_args:
            return False
        flag = self._operands[idx].value
        return isinstance(flag, ConstantInt) and flag.value != 0

    @property
    def is_commutative(self) -> bool:
        """True for the intrinsics whose first two arguments commute (LLVM
        ``IntrinsicInst::isCommutative``)."""
        base = self.intrinsic_base
        return bool(base) and base in _COMMUTATIVE_INTRINSICS

    @property
    def is_associative(self) -> bool:
        """True for the integer min/max intrinsics (LLVM ``IntrinsicInst::isAssociative``)."""
        return self.intrinsic_base in ("llvm.smax", "llvm.smin", "llvm.umax", "llvm.umin")

    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        return isinstance(other, CallInst) and self.is_tail_call == other.is_tail_call and self._same_call_state(other)

    def _same_optional_data(self, other: Instruction) -> bool:
        return isinstance(other, CallInst) and self._fmf == other._fmf

    def _clone_impl(self) -> CallInst:
        copy = CallInst.__new__(CallInst)
        self._copy_call_state(copy)
        copy._tck = self._tck
        copy._fmf = self._fmf
        return copy

    def with_operand_bundles(self, bundles: Iterable[BundleLike]) -> CallInst:
        new = CallInst(
            self.function_type,
            self.callee,
            self.args,
            bundles=bundles,
            name=self.name,
            tail_call_kind=self._tck,
            calling_conv=self.calling_conv,
        )
        new._fmf = self._fmf
        self._finish_rebuild(new)
        return new


__all__ = [
    "BundleLike",
    "CallBase",
    "CallInst",
    "OperandBundle",
    "intrinsic_base_name",
    "is_fp_math_call_type",
]
