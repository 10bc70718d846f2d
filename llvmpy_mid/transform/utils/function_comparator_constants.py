"""The constant and metadata halves of the function comparator (LLVM ``cmpConstants``,
``cmpMetadata``, ``cmpMDNode``), split from :mod:`function_comparator` to keep
each module small. The entry point is :class:`FunctionComparator`; these
functions take the comparator as their first argument and use its global
numbering, serial numbers and explanation record.

How constants compare (a total order, following LLVM 19's ``cmpConstants``):

1. types: equal under the comparator's type order, or else "losslessly
   bitcastable" -- two vectors of the same bit width, or two pointers in the
   same address space -- in which case the contents decide; any other type
   difference decides by the type order (non-first-class types first);
2. null values after non-null ones (two nulls are ordered by their types);
3. two globals by their sticky :class:`GlobalNumberState` numbers;
4. the kind of constant (LLVM's value-ID order), then the content of the kind:
   integers by width then unsigned value, floats by semantics then bits,
   aggregates and data sequences by element count then elements, constant
   expressions by opcode, operand count, operands, then flags, GEP source
   type, ``inrange`` and shuffle masks, ``blockaddress`` by function and then
   block (by layout position inside a third function, by serial number inside
   the two functions compared), ``dso_local_equivalent`` / ``no_cfi`` by the
   wrapped global, ``ptrauth`` by its operands. A kind this module does not
   know compares unequal to any other object (by identity), never crashes.

Nested constants are walked with an explicit stack (no recursion).

Metadata (safer than LLVM 19, whose ``cmpMetadata`` treats any two nodes that
are neither strings nor constants as equal): nodes are compared structurally --
kind, distinctness is ignored, operand count, then operands -- in one lockstep
walk with per-side first-visit numbering, so cyclic graphs terminate and the
order is the lexicographic order of a canonical walk (hence total).
Strings compare by length then bytes (``cmpMem``), constants with
:func:`cmp_constants`, local values by serial number.

What it does not do: fold constants, or look through aliases.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, cast

from llvmpy_mid.ir.structural_hash import OPCODE_NUMBERS
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    BlockAddress,
    Constant,
    ConstantAggregate,
    ConstantAggregateZero,
    ConstantArray,
    ConstantDataArray,
    ConstantDataSequential,
    ConstantDataVector,
    ConstantFP,
    ConstantInt,
    ConstantPointerNull,
    ConstantPtrAuth,
    ConstantStruct,
    ConstantTargetNone,
    ConstantTokenNone,
    ConstantVector,
    DSOLocalEquivalent,
    NoCFIValue,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.debug_info import DINode
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalAlias, GlobalIFunc, GlobalValue, GlobalVariable
from llvmpy_mid.ir.metadata import (
    ConstantAsMetadata,
    DIArgList,
    LocalAsMetadata,
    MDNode,
    MDString,
    Metadata,
    ValueAsMetadata,
)
from llvmpy_mid.ir.types import FloatingPointType, IntegerType, PointerType, Type, TypeID, VectorType

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.function_comparator import FunctionComparator

__all__ = ["cmp_constants", "cmp_metadata", "cmp_md_nodes", "value_kind", "FP_SEMANTICS", "OPCODE_NUMBERS"]

# LLVM 19's ``Value::ValueTy`` order of the constant kinds (only the order matters).
_KIND_ORDER: dict[type, int] = {
    Function: 0,
    GlobalAlias: 1,
    GlobalIFunc: 2,
    GlobalVariable: 3,
    BlockAddress: 4,
    ConstantExpr: 5,
    DSOLocalEquivalent: 6,
    NoCFIValue: 7,
    ConstantPtrAuth: 8,
    ConstantArray: 9,
    ConstantStruct: 10,
    ConstantVector: 11,
    UndefValue: 12,
    PoisonValue: 13,
    ConstantAggregateZero: 14,
    ConstantDataArray: 15,
    ConstantDataVector: 16,
    ConstantInt: 17,
    ConstantFP: 18,
    ConstantTargetNone: 19,
    ConstantPointerNull: 20,
    ConstantTokenNone: 21,
}
_UNKNOWN_KIND = 100

# Floating-point semantics as LLVM orders them: precision, max exponent,
# min exponent, size in bits.
FP_SEMANTICS: dict[TypeID, tuple[int, int, int, int]] = {
    TypeID.HALF: (11, 15, -14, 16),
    TypeID.BFLOAT: (8, 127, -126, 16),
    TypeID.FLOAT: (24, 127, -126, 32),
    TypeID.DOUBLE: (53, 1023, -1022, 64),
    TypeID.X86_FP80: (64, 16383, -16382, 80),
    TypeID.FP128: (113, 16383, -16382, 128),
    TypeID.PPC_FP128: (106, 1023, -969, 128),
}

_Pusher = Callable[[tuple[object, object]], None]

_NULL_KINDS = (ConstantPointerNull, ConstantAggregateZero, ConstantTokenNone, ConstantTargetNone)


def value_kind(c: Constant) -> int:
    """The constant's position in LLVM's value-kind order (unknown kinds last)."""
    return _KIND_ORDER.get(type(c), _UNKNOWN_KIND)


def _is_null(c: Constant) -> bool:
    t = type(c)
    if t is ConstantInt:
        return cast(ConstantInt, c).value == 0
    if t is ConstantFP:
        return cast(ConstantFP, c).bits == 0
    return isinstance(c, _NULL_KINDS)


def _sign(a: int | str | tuple[object, ...], b: int | str | tuple[object, ...]) -> int:
    return -1 if a < b else (1 if a > b else 0)  # type: ignore[operator]


def _fixed_vector_bits(fc: FunctionComparator, ty: Type) -> int:
    """LLVM's ``getPrimitiveSizeInBits`` of a vector (known minimum for scalable ones)."""
    if isinstance(ty, VectorType):
        elem = ty.element_type
        if isinstance(elem, FloatingPointType):
            return ty.count * elem.bits
        if elem.type_id is TypeID.INTEGER:
            return ty.count * cast(IntegerType, elem).width
        # Vectors of pointers: LLVM's getPrimitiveSizeInBits gives 0 for them.
        return 0
    return 0


def _bitcast_rule(fc: FunctionComparator, tl: Type, tr: Type, types_res: int) -> int | None:
    """LLVM's "losslessly bitcastable" step for constants of different types:
    the deciding result, or None when the contents must decide."""
    first_l = tl.is_first_class
    first_r = tr.is_first_class
    if not first_l:
        return -1 if first_r else types_res
    if not first_r:
        return 1
    wl = _fixed_vector_bits(fc, tl)
    wr = _fixed_vector_bits(fc, tr)
    if wl != wr:
        return _sign(wl, wr)
    if wl == 0:
        pl = tl.type_id is TypeID.POINTER
        pr = tr.type_id is TypeID.POINTER
        if pl and pr:
            asl = cast(PointerType, tl).address_space
            asr = cast(PointerType, tr).address_space
            if asl != asr:
                return _sign(asl, asr)
        if pl:
            return 1
        if pr:
            return -1
        return types_res
    return None


def cmp_constants(fc: FunctionComparator, left: Constant, right: Constant) -> int:
    """Three-way comparison of two constants (see the module docstring)."""
    # Work items: (0, l, r) compares a pair; (1, l, r) runs the checks LLVM
    # makes after a constant expression's operands.
    stack: list[tuple[int, Constant, Constant]] = [(0, left, right)]
    pop = stack.pop
    push = stack.append
    while stack:
        item, l, r = pop()
        if item == 1:
            res = _expr_tail(fc, cast(ConstantExpr, l), cast(ConstantExpr, r))
            if res:
                return res
            continue
        if l is r:
            continue
        tl = l.type
        tr = r.type
        types_res = fc._types(tl, tr)
        if types_res:
            decided = _bitcast_rule(fc, tl, tr, types_res)
            if decided is not None:
                return fc._fail(decided, "cmpConstants: type", "%s vs %s" % (tl, tr), l, r)
        null_l = _is_null(l)
        null_r = _is_null(r)
        if null_l or null_r:
            if null_l and null_r:
                if types_res:
                    return fc._fail(types_res, "cmpConstants: type", "null %s vs null %s" % (tl, tr), l, r)
                continue
            return fc._fail(1 if null_l else -1, "cmpConstants: null", "null vs non-null constant", l, r)
        gl = l.is_global_value
        gr = r.is_global_value
        if gl and gr:
            res = fc.cmp_global_values(cast(GlobalValue, l), cast(GlobalValue, r))
            if res:
                return res
            continue
        kl = _KIND_ORDER.get(type(l), _UNKNOWN_KIND)
        kr = _KIND_ORDER.get(type(r), _UNKNOWN_KIND)
        if kl != kr:
            return fc._fail(
                _sign(kl, kr), "cmpConstants: value kind", "%s vs %s" % (type(l).__name__, type(r).__name__), l, r
            )
        if kl == 17:  # ConstantInt
            il = cast(ConstantInt, l)
            ir = cast(ConstantInt, r)
            res = fc.cmp_aps_ints(il.type.width, il.value, ir.type.width, ir.value)
            if res:
                return fc._fail(res, "cmpConstants: integer value", "%s vs %s" % (il.value, ir.value), l, r)
            continue
        if kl == 18:  # ConstantFP
            res = fc.cmp_ap_floats(cast(ConstantFP, l), cast(ConstantFP, r))
            if res:
                return res
            continue
        if kl in (12, 13, 21):  # undef, poison, none
            if types_res:
                return fc._fail(types_res, "cmpConstants: type", "%s vs %s" % (tl, tr), l, r)
            continue
        if kl in (9, 10, 11):  # aggregates
            res = _sign(l.num_operands, r.num_operands)
            if res:
                return fc._fail(
                    res, "cmpConstants: element count", "%d vs %d elements" % (l.num_operands, r.num_operands), l, r
                )
            ops_l = cast(ConstantAggregate, l).operand_uses
            ops_r = cast(ConstantAggregate, r).operand_uses
            for i in range(len(ops_l) - 1, -1, -1):
                push((0, cast(Constant, ops_l[i].value), cast(Constant, ops_r[i].value)))
            continue
        if kl in (15, 16):  # data arrays and vectors
            res = _cmp_data(fc, cast(ConstantDataSequential, l), cast(ConstantDataSequential, r))
            if res:
                return res
            continue
        if kl == 5:  # constant expression
            el = cast(ConstantExpr, l)
            er = cast(ConstantExpr, r)
            on_l = OPCODE_NUMBERS.get(el.opcode, 0)
            on_r = OPCODE_NUMBERS.get(er.opcode, 0)
            if on_l != on_r:
                return fc._fail(
                    _sign(on_l, on_r), "cmpConstants: expression opcode", "%s vs %s" % (el.opcode, er.opcode), l, r
                )
            nl = el.num_operands
            nr = er.num_operands
            if nl != nr:
                return fc._fail(_sign(nl, nr), "cmpConstants: expression operand count", "%d vs %d" % (nl, nr), l, r)
            push((1, l, r))
            ops_l = el.operand_uses
            ops_r = er.operand_uses
            for i in range(nl - 1, -1, -1):
                push((0, cast(Constant, ops_l[i].value), cast(Constant, ops_r[i].value)))
            continue
        if kl == 4:  # blockaddress
            res = _cmp_block_address(fc, cast(BlockAddress, l), cast(BlockAddress, r))
            if res:
                return res
            continue
        if kl in (6, 7):  # dso_local_equivalent, no_cfi
            gvl = cast(DSOLocalEquivalent, l).global_value
            gvr = cast(DSOLocalEquivalent, r).global_value
            res = fc.cmp_global_values(gvl, gvr)
            if res:
                return res
            continue
        if kl == 8:  # ptrauth: like an aggregate of its operands
            ops_l = l.operand_uses
            ops_r = r.operand_uses
            for i in range(len(ops_l) - 1, -1, -1):
                push((0, cast(Constant, ops_l[i].value), cast(Constant, ops_r[i].value)))
            continue
        # A kind this comparator does not know: different from anything but itself.
        return fc._fail(
            _sign(id(l), id(r)), "cmpConstants: unhandled constant kind", "%s" % type(l).__name__, l, r
        )
    return 0


def _cmp_data(
    fc: FunctionComparator,
    l: ConstantDataSequential,
    r: ConstantDataSequential,
) -> int:
    raw_l = l.raw
    raw_r = r.raw
    nl = len(raw_l)
    nr = len(raw_r)
    if nl != nr:
        return fc._fail(_sign(nl, nr), "cmpConstants: element count", "%d vs %d elements" % (nl, nr), l, r)
    el = l.element_type
    er = r.element_type
    if el is er:
        if raw_l == raw_r:
            return 0
        for i in range(nl):
            a = raw_l[i]
            b = raw_r[i]
            if a != b:
                return fc._fail(
                    _sign(a, b), "cmpConstants: element value", "element %d: %s vs %s" % (i, a, b), l, r
                )
        return 0
    for i in range(nl):
        res = cmp_constants(fc, l.element_as_constant(i), r.element_as_constant(i))
        if res:
            return res
    return 0


def _expr_tail(fc: FunctionComparator, l: ConstantExpr, r: ConstantExpr) -> int:
    """The properties of a constant expression beyond its operands."""
    if l.opcode == "getelementptr":
        sl = l.source_element_type
        sr = r.source_element_type
        if sl is not None and sr is not None:
            res = fc._types(sl, sr)
            if res:
                return fc._fail(res, "cmpConstants: GEP source type", "%s vs %s" % (sl, sr), l, r)
        if l.flags != r.flags:
            return fc._fail(
                _sign(l.flags, r.flags), "cmpConstants: expression flags", "flags %d vs %d" % (l.flags, r.flags), l, r
            )
        il = l.inrange
        ir = r.inrange
        if il != ir:
            a = (0, 0, 0) if il is None else (1, il[0], il[1])
            b = (0, 0, 0) if ir is None else (1, ir[0], ir[1])
            return fc._fail(_sign(a, b), "cmpConstants: GEP inrange", "%s vs %s" % (il, ir), l, r)
        return 0
    if l.flags != r.flags:
        return fc._fail(
            _sign(l.flags, r.flags), "cmpConstants: expression flags", "flags %d vs %d" % (l.flags, r.flags), l, r
        )
    if l.shuffle_mask != r.shuffle_mask:
        return fc._fail(
            _sign(l.shuffle_mask, r.shuffle_mask),
            "cmpConstants: shuffle mask",
            "%s vs %s" % (list(l.shuffle_mask), list(r.shuffle_mask)),
            l,
            r,
        )
    return 0


def _cmp_block_address(fc: FunctionComparator, l: BlockAddress, r: BlockAddress) -> int:
    fl = l.function
    fr = r.function
    res = fc._cmp_self_or_global(fl, fr)
    if res:
        return res
    if fl is fr:
        bl = l.block
        br = r.block
        if bl is br:
            return 0
        pos = fc._block_positions(fl)
        pl = pos.get(bl, -1)
        pr = pos.get(br, -1)
        return fc._fail(_sign(pl, pr), "cmpConstants: blockaddress block", "block position %d vs %d" % (pl, pr), l, r)
    # The two functions compared: their blocks correspond by serial number.
    return fc.cmp_values(l.block, r.block)


# --- metadata -------------------------------------------------------------------------------------------


def _scalar_key(value: object) -> tuple[int, int | str]:
    if isinstance(value, bool):
        return (0, int(value))
    if isinstance(value, int):
        return (1, value)
    if value is None:
        return (2, 0)
    return (3, "%s:%s" % (type(value).__name__, value))


def cmp_metadata(fc: FunctionComparator, left: Metadata | None, right: Metadata | None) -> int:
    """Structural three-way comparison of two metadata operands (see the module docstring)."""
    seen_l: dict[int, int] = {}
    seen_r: dict[int, int] = {}
    stack: list[tuple[object, object]] = [(left, right)]
    pop = stack.pop
    push = stack.append
    while stack:
        a, b = pop()
        if a is b and (a is None or not isinstance(a, MDNode)):
            continue
        # null operands first
        if a is None or b is None:
            return fc._fail(-1 if a is None else 1, "cmpMetadata: null operand", "null vs metadata", None, None)
        if not isinstance(a, Metadata) or not isinstance(b, Metadata):
            # scalar fields of debug-info nodes
            ka = _scalar_key(a)
            kb = _scalar_key(b)
            if ka != kb:
                return fc._fail(_sign(ka, kb), "cmpMetadata: field", "%s vs %s" % (a, b), None, None)
            continue
        ra = _md_rank(a)
        rb = _md_rank(b)
        if ra != rb:
            return fc._fail(
                _sign(ra, rb), "cmpMetadata: kind", "%s vs %s" % (type(a).__name__, type(b).__name__), None, None
            )
        if ra == 0:  # MDString
            sa = cast(MDString, a).bytes
            sb = cast(MDString, b).bytes
            res = fc.cmp_mem(sa, sb)
            if res:
                return fc._fail(res, "cmpMetadata: string", "!%s vs !%s" % (_text(sa), _text(sb)), None, None)
            continue
        if ra == 1:  # ConstantAsMetadata
            res = fc.cmp_constants(cast(Constant, cast(ConstantAsMetadata, a).value), cast(Constant, cast(ConstantAsMetadata, b).value))
            if res:
                return res
            continue
        if ra == 2:  # LocalAsMetadata
            res = fc.cmp_values(cast(ValueAsMetadata, a).value, cast(ValueAsMetadata, b).value)
            if res:
                return res
            continue
        if ra == 3:  # DIArgList
            args_a = cast(DIArgList, a).args
            args_b = cast(DIArgList, b).args
            if len(args_a) != len(args_b):
                return fc._fail(_sign(len(args_a), len(args_b)), "cmpMetadata: operand count", "", None, None)
            for i in range(len(args_a) - 1, -1, -1):
                push((args_a[i], args_b[i]))
            continue
        if ra == 4:  # MDNode (tuple or debug-info node)
            na = seen_l.get(id(a))
            nb = seen_r.get(id(b))
            if na is not None or nb is not None:
                if na is None:
                    return fc._fail(1, "cmpMetadata: node shape", "new node vs back-reference", None, None)
                if nb is None:
                    return fc._fail(-1, "cmpMetadata: node shape", "back-reference vs new node", None, None)
                if na != nb:
                    return fc._fail(_sign(na, nb), "cmpMetadata: node shape", "back-references differ", None, None)
                continue
            seen_l[id(a)] = len(seen_l)
            seen_r[id(b)] = len(seen_r)
            res = _push_node(fc, cast(MDNode, a), cast(MDNode, b), push)
            if res:
                return res
            continue
        # Unknown metadata: by identity.
        if a is not b:
            return fc._fail(_sign(id(a), id(b)), "cmpMetadata: unhandled metadata", type(a).__name__, None, None)
    return 0


def _text(data: bytes) -> str:
    return '"%s"' % data.decode("utf-8", "backslashreplace")


def _md_rank(md: Metadata) -> int:
    if isinstance(md, MDString):
        return 0
    if isinstance(md, ConstantAsMetadata):
        return 1
    if isinstance(md, LocalAsMetadata):
        return 2
    if isinstance(md, DIArgList):
        return 3
    if isinstance(md, MDNode):
        return 4
    return 5


def _push_node(fc: FunctionComparator, a: MDNode, b: MDNode, pusher: _Pusher) -> int:
    da = isinstance(a, DINode)
    db = isinstance(b, DINode)
    if da != db:
        return fc._fail(-1 if not da else 1, "cmpMetadata: kind", "tuple vs debug-info node", None, None)
    if da:
        ka = cast(DINode, a)
        kb = cast(DINode, b)
        if ka.kind != kb.kind:
            return fc._fail(_sign(ka.kind, kb.kind), "cmpMetadata: kind", "!%s vs !%s" % (ka.kind, kb.kind), None, None)
        names_a = ka.field_names
        names_b = kb.field_names
        if names_a != names_b:
            return fc._fail(_sign(names_a, names_b), "cmpMetadata: fields", "%s vs %s" % (names_a, names_b), None, None)
        va = ka.field_values
        vb = kb.field_values
        for i in range(len(va) - 1, -1, -1):
            x = va[i]
            y = vb[i]
            if isinstance(x, tuple) or isinstance(y, tuple):
                tx: tuple[object, ...] = x if isinstance(x, tuple) else (x,)
                ty: tuple[object, ...] = y if isinstance(y, tuple) else (y,)
                if len(tx) != len(ty):
                    return fc._fail(_sign(len(tx), len(ty)), "cmpMetadata: operand count", "", None, None)
                for j in range(len(tx) - 1, -1, -1):
                    pusher((tx[j], ty[j]))
            else:
                pusher((x, y))
        return 0
    ops_a = a.operands
    ops_b = b.operands
    if len(ops_a) != len(ops_b):
        return fc._fail(
            _sign(len(ops_a), len(ops_b)), "cmpMetadata: operand count", "%d vs %d operands" % (len(ops_a), len(ops_b)), None, None
        )
    for i in range(len(ops_a) - 1, -1, -1):
        pusher((ops_a[i], ops_b[i]))
    return 0


def cmp_md_nodes(fc: FunctionComparator, left: MDNode | None, right: MDNode | None) -> int:
    """LLVM ``cmpMDNode`` (absent before present), then structurally."""
    if left is right:
        return 0
    if left is None:
        return fc._fail(-1, "cmpMetadata: absent node", "none vs node", None, None)
    if right is None:
        return fc._fail(1, "cmpMetadata: absent node", "node vs none", None, None)
    return cmp_metadata(fc, left, right)
