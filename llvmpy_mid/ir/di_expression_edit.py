"""Building new ``DIExpression`` nodes from old ones, as LLVM's
``DIExpression::appendOpsToArg`` / ``prependOpcodes`` / ``appendOffset`` /
``getExtOps`` / ``getNumLocationOperands`` (IR/DebugInfoMetadata.cpp) and
``DIExpression::foldConstantMath`` (IR/DIExpressionOptimizer.cpp) do.

The helpers work on LLVM's integer form of the element list (see
:func:`llvmpy_mid.ir.di_expression.expression_values`) and turn the result back
into the stored form (operation names as strings, ``DW_ATE_*`` encodings after
``DW_OP_LLVM_convert`` as names, other arguments as numbers) with
:func:`expression_from_values`.  Debug-info salvaging (``transform/utils/local.py``)
is the user.

Also the fragment editors SROA needs: ``createFragmentExpression``,
``extractLeadingOffset``, ``isSingleLocationExpression``, ``prepend`` of an offset,
``FragmentInfo::intersect`` and ``calculateFragmentIntersect``.

Not done here: the other DIExpression editors (``append``, ``replaceArg``, entry
values) until a transform needs them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from llvmpy_mid.ir.di_expression import _DW_OPS, ATE_VALUES, _op_size, expression_ops, expression_values

if TYPE_CHECKING:
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.debug_info import DIExpression
    from llvmpy_mid.ir.value import Value

_OP_NAMES: dict[int, str] = {v: k for k, v in _DW_OPS.items()}
_ATE_NAMES: dict[int, str] = {v: k for k, v in ATE_VALUES.items()}

OP_CONSTU = 0x10
OP_CONSTS = 0x11
OP_AND = 0x1A
OP_DIV = 0x1B
OP_MINUS = 0x1C
OP_MOD = 0x1D
OP_MUL = 0x1E
OP_OR = 0x21
OP_PLUS = 0x22
OP_PLUS_UCONST = 0x23
OP_SHL = 0x24
OP_SHR = 0x25
OP_SHRA = 0x26
OP_XOR = 0x27
OP_EQ = 0x29
OP_GE = 0x2A
OP_GT = 0x2B
OP_LE = 0x2C
OP_LT = 0x2D
OP_NE = 0x2E
OP_LIT0 = 0x30
OP_LIT31 = 0x4F
OP_STACK_VALUE = 0x9F
OP_LLVM_FRAGMENT = 0x1000
OP_LLVM_CONVERT = 0x1001
OP_LLVM_ARG = 0x1005
ATE_SIGNED = 5
ATE_UNSIGNED = 7
_U64 = (1 << 64) - 1


def expression_from_values(ctx: Context, values: Sequence[int]) -> DIExpression:
    """The uniqued ``DIExpression`` whose LLVM integer elements are ``values``."""
    from llvmpy_mid.ir.debug_info import DIExpression

    elems: list[str | int] = []
    n = len(values)
    i = 0
    while i < n:
        op = values[i]
        elems.append(_OP_NAMES.get(op, op))
        size = _op_size(op)
        for k in range(1, size):
            if i + k >= n:
                break
            arg = values[i + k]
            if op == OP_LLVM_CONVERT and k == 2:
                elems.append(_ATE_NAMES.get(arg, arg))
            else:
                elems.append(arg)
        i += size
    return DIExpression.get(ctx, elems)


def num_location_operands(values: Sequence[int]) -> int:
    """One more than the largest ``DW_OP_LLVM_arg`` index (LLVM ``getNumLocationOperands``)."""
    result = 0
    for pos, op in expression_ops(list(values)):
        if op == OP_LLVM_ARG and pos + 1 < len(values):
            result = max(result, values[pos + 1] + 1)
    return result


def append_offset(ops: list[int], offset: int) -> None:
    """Add ``offset`` to the top of the stack (LLVM ``appendOffset``)."""
    if offset > 0:
        ops.extend((OP_PLUS_UCONST, offset & _U64))
    elif offset < 0:
        ops.extend((OP_CONSTU, (-offset) & _U64, OP_MINUS))


def ext_ops(from_size: int, to_size: int, signed: bool) -> list[int]:
    """The two ``DW_OP_LLVM_convert`` operations of an extension (LLVM ``getExtOps``)."""
    kind = ATE_SIGNED if signed else ATE_UNSIGNED
    return [OP_LLVM_CONVERT, from_size, kind, OP_LLVM_CONVERT, to_size, kind]


def _with_stack_value(values: Sequence[int], out: list[int], stack_value: bool, arg_no: int, ops: Sequence[int]) -> list[int]:
    """Copy ``values`` after ``out``; a ``DW_OP_stack_value`` goes before a fragment or
    at the end when asked and absent; ``ops`` follow ``DW_OP_LLVM_arg arg_no`` (arg_no >= 0)."""
    n = len(values)
    for pos, op in expression_ops(list(values)):
        if stack_value:
            if op == OP_STACK_VALUE:
                stack_value = False
            elif op == OP_LLVM_FRAGMENT:
                out.append(OP_STACK_VALUE)
                stack_value = False
        end = min(pos + _op_size(op), n)
        out.extend(values[pos:end])
        if arg_no >= 0 and op == OP_LLVM_ARG and pos + 1 < n and values[pos + 1] == arg_no:
            out.extend(ops)
    if stack_value:
        out.append(OP_STACK_VALUE)
    return out


def prepend_opcodes(values: Sequence[int], ops: Sequence[int], stack_value: bool) -> list[int]:
    """``ops`` then ``values`` (LLVM ``prependOpcodes`` without entry values)."""
    if not ops:
        stack_value = False
    return _with_stack_value(values, list(ops), stack_value, -1, ())


def append_ops_to_arg(values: Sequence[int], ops: Sequence[int], arg_no: int, stack_value: bool) -> list[int]:
    """Apply ``ops`` to location operand ``arg_no`` (LLVM ``appendOpsToArg``)."""
    has_arg = any(op == OP_LLVM_ARG for _, op in expression_ops(list(values)))
    if not has_arg:
        return prepend_opcodes(values, ops, stack_value)
    return _with_stack_value(values, [], stack_value, arg_no, ops)


# --- foldConstantMath --------------------------------------------------------------------------


def _split(values: Sequence[int]) -> list[list[int]]:
    """The operations of ``values``, each with its arguments."""
    out: list[list[int]] = []
    n = len(values)
    i = 0
    while i < n:
        size = _op_size(values[i])
        out.append(list(values[i : min(i + size, n)]))
        i += size
    return out


def _fold_pair(c1: int, c2: int, op: int) -> int | None:
    if op == OP_PLUS:
        r = c1 + c2
        return r if r <= _U64 else None
    if op == OP_MINUS:
        return c1 - c2 if c1 >= c2 else None
    if op == OP_SHL:
        lz = 64 - c1.bit_length() if c1 else 64
        return (c1 << c2) & _U64 if lz >= c2 else None
    if op == OP_SHR:
        tz = (c1 & -c1).bit_length() - 1 if c1 else 64
        return c1 >> c2 if tz >= c2 else None
    if op == OP_MUL:
        r = c1 * c2
        return r if r <= _U64 else None
    if op == OP_DIV:
        return c1 // c2 if c2 else None
    return None


def _is_neutral(op: int, value: int) -> bool:
    if op in (OP_PLUS, OP_MINUS, OP_SHL, OP_SHR):
        return value == 0
    if op in (OP_MUL, OP_DIV):
        return value == 1
    return False


def _const(op: list[int] | None) -> int | None:
    if op is not None and op[0] == OP_CONSTU and len(op) > 1:
        return op[1]
    return None


def fold_constant_math(values: Sequence[int]) -> list[int]:
    """LLVM ``DIExpression::foldConstantMath``: canonicalise literals and
    ``plus_uconst`` to ``constu``, fold constant arithmetic, and turn ``constu 0``
    into ``lit0`` and ``constu C, plus`` back into ``plus_uconst C``."""
    ops: list[list[int]] = []
    for op in _split(values):
        code = op[0]
        if OP_LIT0 <= code <= OP_LIT31:
            ops.append([OP_CONSTU, code - OP_LIT0])
        elif code == OP_PLUS_UCONST and len(op) > 1:
            ops.append([OP_CONSTU, op[1]])
            ops.append([OP_PLUS])
        else:
            ops.append(op)
    i = 0
    while i < len(ops):
        c1 = _const(ops[i])
        if c1 is None or i + 1 >= len(ops):
            i += 1
            continue
        op1 = ops[i + 1][0]
        if _is_neutral(op1, c1):
            del ops[i : i + 2]
            i = 0
            continue
        if i + 2 >= len(ops):
            i += 1
            continue
        c2 = _const(ops[i + 1])
        if c2 is not None:
            result = _fold_pair(c1, c2, ops[i + 2][0])
            if result is None:
                i += 1
                continue
            ops[i : i + 3] = [[OP_CONSTU, result]]
            i = 0
            continue
        if i + 3 >= len(ops):
            i += 1
            continue
        c2 = _const(ops[i + 2])
        op2 = ops[i + 3][0]
        if c2 is not None and op1 == op2 and op1 in (OP_PLUS, OP_MUL):
            result = _fold_pair(c1, c2, op1)
            if result is None:
                i += 1
                continue
            # C1 op C2 op -> (C1 op C2) op
            ops[i : i + 4] = [[OP_CONSTU, result], ops[i + 1]]
            i = 0
            continue
        if i + 5 >= len(ops):
            i += 1
            continue
        c2 = _const(ops[i + 4])
        op3 = ops[i + 5][0]
        if (
            c2 is not None
            and ops[i + 2][0] == OP_LLVM_ARG
            and op1 == op2 == op3
            and op1 in (OP_PLUS, OP_MUL)
        ):
            result = _fold_pair(c1, c2, op1)
            if result is None:
                i += 1
                continue
            ops[i : i + 6] = [[OP_CONSTU, result], ops[i + 1], ops[i + 2], ops[i + 3]]
            i = 0
            continue
        i += 1
    out: list[int] = []
    j = 0
    while j < len(ops):
        op = ops[j]
        if op[0] == OP_CONSTU and len(op) > 1 and op[1] == 0:
            out.append(OP_LIT0)
            j += 1
            continue
        if j + 1 >= len(ops):
            out.extend(op)
            break
        if op[0] == OP_CONSTU and len(op) > 1 and ops[j + 1][0] == OP_PLUS:
            out.extend((OP_PLUS_UCONST, op[1]))
            j += 2
            continue
        out.extend(op)
        j += 1
    return out


# --- fragments and leading offsets (DebugInfoMetadata.cpp) ------------------------------------

OP_DEREF = 0x06
OP_SWAP = 0x16
OP_XDEREF = 0x18
OP_DEREF_SIZE = 0x94
OP_XDEREF_SIZE = 0x95
OP_DEREF_TYPE = 0xA6
OP_XDEREF_TYPE = 0xA7
OP_LLVM_EXTRACT_BITS_SEXT = 0x1006
OP_LLVM_EXTRACT_BITS_ZEXT = 0x1007

FragmentInfo = tuple[int, int]
"""A variable fragment as (offset in bits, size in bits), the order of
``DIExpression.fragment``."""


def single_location_expression_elements(values: Sequence[int]) -> list[int] | None:
    """The elements of a valid expression that uses at most ``DW_OP_LLVM_arg 0``, as its
    leading ``DW_OP_LLVM_arg 0`` dropped; None otherwise (LLVM
    ``getSingleLocationExpressionElements``)."""
    from llvmpy_mid.ir.di_expression import values_are_valid

    vals = list(values)
    if not values_are_valid(vals):
        return None
    if not vals:
        return []
    ops = expression_ops(vals)
    start = 0
    if ops[0][1] == OP_LLVM_ARG:
        if len(vals) < 2 or vals[1] != 0:
            return None
        start = 1
    for _, op in ops[start:]:
        if op == OP_LLVM_ARG:
            return None
    return vals[2:] if start else vals


def is_single_location_expression(values: Sequence[int]) -> bool:
    """LLVM ``DIExpression::isSingleLocationExpression``."""
    return single_location_expression_elements(values) is not None


def extract_leading_offset(values: Sequence[int]) -> tuple[int, list[int]] | None:
    """(constant byte offset of the leading ``plus_uconst`` / ``constu .. plus|minus``
    operations, the operations from the first deref, fragment or bit extract on), or
    None when something else comes first (LLVM ``DIExpression::extractLeadingOffset``)."""
    elems = single_location_expression_elements(values)
    if elems is None:
        return None
    n = len(elems)
    offset = 0
    i = 0
    stops = (OP_DEREF, OP_DEREF_SIZE, OP_DEREF_TYPE, OP_LLVM_FRAGMENT, OP_LLVM_EXTRACT_BITS_ZEXT, OP_LLVM_EXTRACT_BITS_SEXT)
    while i < n:
        op = elems[i]
        if op in stops:
            break
        if op == OP_PLUS_UCONST:
            offset += elems[i + 1] if i + 1 < n else 0
        elif op == OP_CONSTU:
            value = elems[i + 1] if i + 1 < n else 0
            i += _op_size(op)
            nxt = elems[i] if i < n else -1
            if nxt == OP_PLUS:
                offset += value
            elif nxt == OP_MINUS:
                offset -= value
            else:
                return None
        else:
            return None
        i += _op_size(elems[i])
    return offset, list(elems[i:])


def prepend_offset(values: Sequence[int], offset: int) -> list[int]:
    """LLVM ``DIExpression::prepend(Expr, 0, Offset)``: add ``offset`` bytes first."""
    ops: list[int] = []
    append_offset(ops, offset)
    return prepend_opcodes(values, ops, False)


def create_fragment_expression(values: Sequence[int], offset_in_bits: int, size_in_bits: int) -> list[int] | None:
    """``values`` describing only the bits [offset, offset + size) of what it described,
    relative to an existing fragment; None when the computed value cannot be split
    (LLVM ``DIExpression::createFragmentExpression``)."""
    out: list[int] = []
    can_split = True
    emit_fragment = True
    vals = list(values)
    n = len(vals)
    for pos, op in expression_ops(vals):
        args = vals[pos + 1 : min(pos + _op_size(op), n)]
        if op in (OP_SHR, OP_SHRA, OP_SHL, OP_PLUS, OP_PLUS_UCONST, OP_MINUS):
            can_split = False
        elif op in (OP_DEREF, OP_DEREF_SIZE, OP_DEREF_TYPE, OP_XDEREF, OP_XDEREF_SIZE, OP_XDEREF_TYPE):
            can_split = True
        elif op == OP_STACK_VALUE:
            if not can_split:
                return None
        elif op == OP_LLVM_FRAGMENT:
            if not emit_fragment:
                return None
            offset_in_bits += args[0] if args else 0
            continue
        elif op in (OP_LLVM_EXTRACT_BITS_ZEXT, OP_LLVM_EXTRACT_BITS_SEXT):
            ext_off = args[0] if args else 0
            ext_size = args[1] if len(args) > 1 else 0
            if ext_off >= offset_in_bits and ext_off + ext_size <= offset_in_bits + size_in_bits:
                out.extend((op, ext_off - offset_in_bits, ext_size))
                emit_fragment = False
                continue
            return None
        out.append(op)
        out.extend(args)
    if emit_fragment:
        out.extend((OP_LLVM_FRAGMENT, offset_in_bits & _U64, size_in_bits & _U64))
    return out


def intersect_fragments(a: FragmentInfo, b: FragmentInfo) -> FragmentInfo:
    """The overlap of two fragments, (0, 0) when none (LLVM ``FragmentInfo::intersect``)."""
    start = max(a[0], b[0])
    end = min(a[0] + a[1], b[0] + b[1])
    if end <= start:
        return (0, 0)
    return (start, end - start)


def calculate_fragment_intersect(
    dl: DataLayout,
    slice_start: Value,
    slice_offset_in_bits: int,
    slice_size_in_bits: int,
    dbg_ptr: Value,
    dbg_ptr_offset_in_bits: int,
    dbg_extract_offset_in_bits: int,
    var_frag: FragmentInfo,
) -> tuple[FragmentInfo | None, int] | None:
    """The part of a variable fragment (``var_frag``, located at ``dbg_ptr`` plus the
    offsets) that a memory slice covers, and the bit offset of the variable location from
    the slice start (LLVM ``DIExpression::calculateFragmentIntersect``): None when it
    cannot be computed; a None fragment when the slice covers all of ``var_frag``; (0, 0)
    when the slice does not overlap it."""
    from llvmpy_mid.ir.pointer_casts import get_pointer_offset_from

    if var_frag[1] == 0:
        return None
    mem_offset = get_pointer_offset_from(slice_start, dbg_ptr, dl)
    if mem_offset is None:
        return None
    mem_start_rel = mem_offset * 8 + slice_offset_in_bits - (dbg_ptr_offset_in_bits + dbg_extract_offset_in_bits)
    offset_from_location = -mem_start_rel
    if mem_start_rel + slice_size_in_bits < 0:
        return (0, 0), offset_from_location
    mem_start_rel_var = mem_start_rel + var_frag[0]
    mem_end_rel_var = mem_start_rel_var + slice_size_in_bits
    frag_start = max(0, mem_start_rel_var)
    frag_size = max(0, mem_end_rel_var - frag_start)
    trimmed = intersect_fragments((frag_start, frag_size), var_frag)
    if trimmed == var_frag:
        return None, offset_from_location
    return trimmed, offset_from_location


def expression_values_of(expr: DIExpression) -> list[int]:
    """The integer form of ``expr`` (a re-export for the editors' users)."""
    return expression_values(expr)


__all__ = [
    "FragmentInfo",
    "append_offset",
    "calculate_fragment_intersect",
    "create_fragment_expression",
    "extract_leading_offset",
    "intersect_fragments",
    "is_single_location_expression",
    "prepend_offset",
    "single_location_expression_elements",
    "append_ops_to_arg",
    "expression_from_values",
    "expression_values_of",
    "ext_ops",
    "fold_constant_math",
    "num_location_operands",
    "prepend_opcodes",
]
