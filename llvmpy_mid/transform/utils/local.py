"""Local (per-instruction and per-block) transform helpers, as LLVM's
``Transforms/Utils/Local.cpp``.

What: the dead-code queries every cleanup uses (:func:`is_instruction_trivially_dead`,
:func:`would_instruction_be_trivially_dead`), the worklist deleter
:func:`recursively_delete_trivially_dead_instructions` (no recursion: an explicit
stack, as LLVM), :func:`recursively_delete_dead_phi_node`, debug-info salvaging
(:func:`salvage_debug_info`: the ``#dbg_value``/``#dbg_declare``/``#dbg_assign``
records of a deleted cast, GEP, binary operator or ``icmp`` are rewritten onto its
operand with a DWARF expression, else killed), and the CFG-level helpers
:func:`change_to_unreachable`, :func:`change_to_call`, :func:`constant_fold_terminator`,
:func:`remove_unreachable_blocks`, :func:`replace_dominated_uses_with`,
:func:`replace_all_dbg_uses_with`, :func:`remove_all_non_terminator_and_eh_pad_instructions`.

How: each function follows the LLVM 19.1.7 function of the same name; the order in
which operands are revisited and instructions erased is LLVM's, so passes built on
these helpers print what ``opt-19`` prints.

Math-library calls that cannot set errno are dead when unused through
``isMathLibCallNoop`` (:func:`llvmpy_mid.analysis.constant_folding.is_math_lib_call_no_op`).
:func:`invert_condition` and :func:`erase_dead_instruction` are here too.

What it does not do (yet): removable allocation calls and free of null
(``isRemovableAlloc``, ``getFreedOperand``: MemoryBuiltins has no allocation-kind
queries yet), MemorySSA updates, knowledge retention (``salvageKnowledge`` under
``--enable-knowledge-retention``), and salvaging of ``llvm.dbg.*`` intrinsic calls
(the reader turns them into debug records, so only records are met in practice;
such calls stay, never deleted as dead).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue, UndefValue
from llvmpy_mid.ir.debug_records import DbgRecordKind, DbgVariableRecord
from llvmpy_mid.ir.di_expression_edit import (
    OP_AND,
    OP_CONSTS,
    OP_CONSTU,
    OP_DIV,
    OP_EQ,
    OP_GE,
    OP_GT,
    OP_LE,
    OP_LLVM_ARG,
    OP_LT,
    OP_MINUS,
    OP_MOD,
    OP_MUL,
    OP_NE,
    OP_OR,
    OP_PLUS,
    OP_SHL,
    OP_SHR,
    OP_SHRA,
    OP_XOR,
    append_offset,
    append_ops_to_arg,
    expression_from_values,
    ext_ops,
    fold_constant_math,
    num_location_operands,
)
from llvmpy_mid.ir.di_expression import expression_values
from llvmpy_mid.ir.constrained_fp import constrained_exception_behavior
from llvmpy_mid.ir.function import null_pointer_is_defined
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.terminators import UnreachableInst
from llvmpy_mid.ir.metadata import DIArgList, MetadataAsValue, ValueAsMetadata
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.debug_declare import variable_signedness

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.global_value import GlobalObject
    from llvmpy_mid.ir.debug_info import DIExpression
    from llvmpy_mid.ir.instructions.other import PHINode

_MAX_DEBUG_ARGS = 16
_MAX_EXPRESSION_SIZE = 128

# --- intrinsic classification -----------------------------------------------------------------


def _intrinsic_name(inst: Instruction) -> str:
    """The called intrinsic's full name, or "" (not a call of an ``llvm.*`` function)."""
    if not inst.is_call_base:
        return ""
    return inst.intrinsic_name  # type: ignore[attr-defined, no-any-return]


def _is_lifetime_marker(name: str) -> bool:
    return name.startswith("llvm.lifetime.start") or name.startswith("llvm.lifetime.end")


def _is_dbg_variable_intrinsic(name: str) -> bool:
    return name in ("llvm.dbg.value", "llvm.dbg.declare", "llvm.dbg.assign")


# --- trivially dead instructions --------------------------------------------------------------


def is_instruction_trivially_dead(inst: Instruction, tli: object | None = None) -> bool:
    """Unused and removable without changing the program (LLVM ``isInstructionTriviallyDead``)."""
    if inst._use_head is not None:
        return False
    return would_instruction_be_trivially_dead(inst, tli)


def would_instruction_be_trivially_dead_on_unused_paths(inst: Instruction, tli: object | None = None) -> bool:
    """As :func:`would_instruction_be_trivially_dead`, but markers with implied
    meaning (``stacksave``, ``launder.invariant.group``, lifetime markers) are kept."""
    name = _intrinsic_name(inst)
    if name and (
        name.startswith("llvm.stacksave") or name.startswith("llvm.launder.invariant.group") or _is_lifetime_marker(name)
    ):
        return False
    return would_instruction_be_trivially_dead(inst, tli)


def would_instruction_be_trivially_dead(inst: Instruction, tli: object | None = None) -> bool:
    """Removable if it had no uses (LLVM ``wouldInstructionBeTriviallyDead``)."""
    if inst.is_terminator_class or inst.is_eh_pad:
        return False
    name = _intrinsic_name(inst)
    if name:
        if _is_dbg_variable_intrinsic(name) or name == "llvm.dbg.label":
            return False
    if inst.is_call_base and not name:
        from llvmpy_mid.analysis.memory_builtins import is_alloc_like_fn

        if is_alloc_like_fn(inst, tli):  # type: ignore[arg-type]  # LLVM isRemovableAlloc
            return True
    if not inst.will_return():
        if not name:
            return False
        if name == "llvm.experimental.guard":
            cond = inst.get_arg(0)  # type: ignore[attr-defined]
            return isinstance(cond, ConstantInt) and cond.value == 1
        return (
            name.startswith("llvm.wasm.trunc.signed")
            or name.startswith("llvm.wasm.trunc.unsigned")
            or name == "llvm.ptrauth.auth"
            or name == "llvm.ptrauth.resign"
        )
    if not inst.may_have_side_effects():
        return True
    if name:
        if name.startswith("llvm.stacksave") or name.startswith("llvm.launder.invariant.group"):
            return True
        if name in ("llvm.allow.runtime.check", "llvm.allow.ubsan.check"):
            return True
        if _is_lifetime_marker(name):
            arg = inst.get_arg(1)  # type: ignore[attr-defined]
            if isinstance(arg, UndefValue):
                return True
            if arg.is_global_value or arg.is_argument or (arg.is_instruction and arg.opcode == "alloca"):
                for use in arg.uses:
                    user = use.user
                    if not (user.is_instruction and _is_lifetime_marker(_intrinsic_name(user))):
                        return False
                return True
            return False
        if name == "llvm.assume":
            from llvmpy_mid.ir.droppable_uses import is_assume_with_empty_bundle

            if not is_assume_with_empty_bundle(inst):
                return False
            cond = inst.get_arg(0)  # type: ignore[attr-defined]
            if isinstance(cond, ConstantInt):
                return cond.value != 0
            return False
        if name.startswith("llvm.experimental.constrained."):
            return constrained_exception_behavior(inst) not in (None, "fpexcept.strict")  # type: ignore[arg-type]
    if inst.is_call_base and _math_lib_call_is_no_op(inst, tli):
        return True
    if inst.opcode == "load" and not inst.is_volatile:
        base = strip_pointer_casts(inst.operands[0])
        if base.is_global_value and getattr(base, "is_constant_global", False):
            return True
    return False


def _math_lib_call_is_no_op(call: Instruction, tli: object | None) -> bool:
    """A libm call whose arguments cannot make it set errno (LLVM ``isMathLibCallNoop``)."""
    fn = call.called_function  # type: ignore[attr-defined]
    if fn is None or not fn.is_declaration or fn.intrinsic_id:
        return False
    from llvmpy_mid.analysis.constant_folding import is_math_lib_call_no_op

    return is_math_lib_call_no_op(call, tli)  # type: ignore[arg-type]


def was_instruction_trivially_dead(inst: Instruction, tli: object | None = None) -> bool:
    """Alias kept for LLVM's older name: dead now (LLVM ``isInstructionTriviallyDead``)."""
    return is_instruction_trivially_dead(inst, tli)


# --- deleting dead instructions --------------------------------------------------------------


def release_operands(inst: Instruction) -> list[Value]:
    """Drop ``inst``'s operands and return those that became unused, in the order
    LLVM finds them (each when its last use in ``inst`` is nulled)."""
    ops = [u.value for u in inst._operands]
    inst.drop_all_references()
    if len(ops) == 1:
        v = ops[0]
        return [v] if v._use_head is None and v is not inst else []
    last: dict[Value, int] = {}
    for i, v in enumerate(ops):
        last[v] = i
    out: list[Value] = []
    for i, v in enumerate(ops):
        if last[v] == i and v._use_head is None and v is not inst:
            out.append(v)
    return out


def recursively_delete_trivially_dead_instructions(
    values: Value | Sequence[Value | None] | None,
    tli: object | None = None,
    about_to_delete: Callable[[Value], None] | None = None,
) -> bool:
    """Delete a trivially dead instruction (or each of a list, which must all be dead)
    and then every operand that becomes trivially dead, with a stack (LLVM
    ``RecursivelyDeleteTriviallyDeadInstructions``). Returns whether anything went."""
    if values is None:
        return False
    dead: list[Instruction]
    if isinstance(values, Value):
        if not (values.is_instruction and is_instruction_trivially_dead(values, tli)):  # type: ignore[arg-type]
            return False
        dead = [values]  # type: ignore[list-item]
    else:
        dead = [v for v in values if v is not None and v.is_instruction]  # type: ignore[misc]
        if not dead:
            return False
    while dead:
        inst = dead.pop()
        if not inst.is_erased:
            erase_dead_instruction(inst, dead.append, tli, about_to_delete)
    return True


def erase_dead_instruction(
    inst: Instruction,
    on_dead_operand: Callable[[Instruction], object],
    tli: object | None = None,
    about_to_delete: Callable[[Value], None] | None = None,
) -> None:
    """Salvage the debug records of the dead ``inst``, drop its operands, hand each operand
    that became trivially dead to ``on_dead_operand`` (in LLVM's order), and erase it
    (the step LLVM's DCE and ``RecursivelyDeleteTriviallyDeadInstructions`` share)."""
    salvage_debug_info(inst)
    if about_to_delete is not None:
        about_to_delete(inst)
    for op in release_operands(inst):
        if op.is_instruction and is_instruction_trivially_dead(op, tli):  # type: ignore[arg-type]
            on_dead_operand(op)  # type: ignore[arg-type]
    inst.erase_from_parent()


def recursively_delete_trivially_dead_instructions_permissive(
    values: list[Value | None], tli: object | None = None, about_to_delete: Callable[[Value], None] | None = None
) -> bool:
    """As :func:`recursively_delete_trivially_dead_instructions` for a list that may
    hold live values: those are dropped from the list first."""
    alive = 0
    for i, v in enumerate(values):
        if v is None or not v.is_instruction or not is_instruction_trivially_dead(v):  # type: ignore[arg-type]
            values[i] = None
            alive += 1
    if alive == len(values):
        return False
    recursively_delete_trivially_dead_instructions(values, tli, about_to_delete)
    return True


def _all_users_equal(inst: Instruction) -> bool:
    """No uses, or all of them by one user (LLVM ``areAllUsesEqual``)."""
    return inst._use_head is None or inst.has_one_user


def recursively_delete_dead_phi_node(phi: PHINode, tli: object | None = None) -> bool:
    """Delete ``phi`` when it only feeds a chain of single-user values that ends dead
    or cycles back (LLVM ``RecursivelyDeleteDeadPHINode``)."""
    visited: set[Instruction] = set()
    inst: Instruction = phi
    while _all_users_equal(inst) and not inst.may_have_side_effects():
        if inst._use_head is None:
            return recursively_delete_trivially_dead_instructions(inst, tli)
        if inst in visited:
            inst.replace_all_uses_with(PoisonValue.get(inst.type))
            recursively_delete_trivially_dead_instructions(inst, tli)
            return True
        visited.add(inst)
        user = inst._use_head.user
        if not user.is_instruction:
            return False
        inst = user  # type: ignore[assignment]
    return False


# --- debug info ----------------------------------------------------------------------------------


def find_dbg_records(value: Value) -> list[DbgVariableRecord]:
    """The debug variable records whose location or address names ``value``
    (LLVM ``findDbgUsers``, records part), each once."""
    md = ValueAsMetadata.get_if_exists(value)
    if md is None:
        return []
    out: dict[DbgVariableRecord, None] = {}
    users = md._users
    if not users:
        return []
    for holder in list(users):
        if isinstance(holder, DbgVariableRecord):
            out[holder] = None
        elif isinstance(holder, DIArgList):
            for h2 in list(holder._users or ()):
                if isinstance(h2, DbgVariableRecord):
                    out[h2] = None
    return list(out)


def replace_dbg_uses_with_undef(inst: Instruction) -> bool:
    """Kill every debug record's location that names ``inst`` (LLVM ``replaceDbgUsesWithUndef``)."""
    recs = find_dbg_records(inst)
    for r in recs:
        r.set_kill_location()
    return bool(recs)


def _gep_salvage_ops(
    gep: Instruction, dl: DataLayout, cur_loc_ops: int, ops: list[int], extra: list[Value]
) -> Value | None:
    from llvmpy_mid.ir.types import ArrayType, StructType, VectorType

    addr_space: int = gep.pointer_address_space  # type: ignore[attr-defined]
    bits = dl.index_size_in_bits(addr_space)
    mask = (1 << bits) - 1
    offsets: dict[Value, int] = {}
    const_off = 0
    ty = gep.source_element_type  # type: ignore[attr-defined]
    indices: list[Value] = gep.indices  # type: ignore[attr-defined]
    for k, idx in enumerate(indices):
        if k == 0:
            cur = ty
            scale_ty = ty
        elif isinstance(cur, StructType):
            if not isinstance(idx, ConstantInt):
                return None
            const_off += dl.struct_layout(cur).element_offset(idx.value)
            cur = cur.elements[idx.value]
            continue
        elif isinstance(cur, (ArrayType, VectorType)):
            if isinstance(cur, VectorType) and cur.scalable:
                return None
            cur = cur.element_type
            scale_ty = cur
        else:
            return None
        if isinstance(scale_ty, VectorType) and scale_ty.scalable:
            return None
        size = dl.type_alloc_size(scale_ty)
        if isinstance(idx, ConstantInt):
            const_off += idx.sext_value * size
            continue
        if not idx.type.is_integer:
            return None
        if size == 0:
            continue
        offsets[idx] = (offsets.get(idx, 0) + size) & mask
    const_off &= mask
    if const_off >> (bits - 1):
        const_off -= 1 << bits
    if offsets and not cur_loc_ops:
        ops[0:0] = [OP_LLVM_ARG, 0]
        cur_loc_ops = 1
    for value, mult in offsets.items():
        if mult == 0:
            return None
        extra.append(value)
        ops.extend((OP_LLVM_ARG, cur_loc_ops, OP_CONSTU, mult, OP_MUL, OP_PLUS))
        cur_loc_ops += 1
    append_offset(ops, const_off)
    return gep.operands[0]


_BINOP_DWARF = {
    "add": OP_PLUS, "sub": OP_MINUS, "mul": OP_MUL, "sdiv": OP_DIV, "srem": OP_MOD, "or": OP_OR,
    "and": OP_AND, "xor": OP_XOR, "shl": OP_SHL, "lshr": OP_SHR, "ashr": OP_SHRA,
}  # fmt: skip
_ICMP_DWARF = {
    "eq": OP_EQ, "ne": OP_NE, "ugt": OP_GT, "sgt": OP_GT, "uge": OP_GE, "sge": OP_GE,
    "ult": OP_LT, "slt": OP_LT, "ule": OP_LE, "sle": OP_LE,
}  # fmt: skip


def _ssa_operand(cur_loc_ops: int, ops: list[int], extra: list[Value], inst: Instruction) -> None:
    if not cur_loc_ops:
        ops.extend((OP_LLVM_ARG, 0))
        cur_loc_ops = 1
    ops.extend((OP_LLVM_ARG, cur_loc_ops))
    extra.append(inst.operands[1])


def salvage_debug_info_impl(inst: Instruction, cur_loc_ops: int, ops: list[int], extra: list[Value]) -> Value | None:
    """The DWARF operations that recompute ``inst`` from one of its operands, which is
    returned (None: cannot be expressed) (LLVM ``salvageDebugInfoImpl``)."""
    opcode = inst.opcode
    mod = inst.module
    if inst.is_cast:
        src = inst.operands[0]
        if mod is None:
            return None
        dl = mod.data_layout
        to_ty = inst.type
        from_ty = src.type
        if opcode == "bitcast":
            return src
        if opcode in ("ptrtoint", "inttoptr"):
            int_ty = to_ty if opcode == "ptrtoint" else from_ty
            ptr_ty = from_ty if opcode == "ptrtoint" else to_ty
            if int_ty.scalar_type.width == dl.pointer_type_size_in_bits(ptr_ty.scalar_type):  # type: ignore[attr-defined]
                return src
        if to_ty.is_vector or opcode not in ("trunc", "sext", "zext", "inttoptr", "ptrtoint"):
            return None
        to_bits = dl.pointer_type_size_in_bits(to_ty) if to_ty.is_pointer else to_ty.width  # type: ignore[attr-defined]
        from_bits = dl.pointer_type_size_in_bits(from_ty) if from_ty.is_pointer else from_ty.scalar_type.width  # type: ignore[attr-defined]
        ops.extend(ext_ops(from_bits, to_bits, opcode == "sext"))
        return src
    if opcode == "getelementptr":
        if mod is None:
            return None
        return _gep_salvage_ops(inst, mod.data_layout, cur_loc_ops, ops, extra)
    if inst.is_binary_op:
        rhs = inst.operands[1]
        if isinstance(rhs, ConstantInt):
            if rhs.type.width > 64:
                return None
            val = rhs.sext_value
            if opcode in ("add", "sub"):
                append_offset(ops, val if opcode == "add" else -val)
                return inst.operands[0]
            ops.extend((OP_CONSTU, val & ((1 << 64) - 1)))
        else:
            _ssa_operand(cur_loc_ops, ops, extra, inst)
        dw = _BINOP_DWARF.get(opcode)
        if dw is None:
            return None
        ops.append(dw)
        return inst.operands[0]
    if opcode == "icmp":
        rhs = inst.operands[1]
        pred = inst.predicate  # type: ignore[attr-defined]
        if isinstance(rhs, ConstantInt):
            if rhs.type.width > 64:
                return None
            ops.extend((OP_CONSTS if pred.is_signed else OP_CONSTU, rhs.sext_value & ((1 << 64) - 1)))
        else:
            _ssa_operand(cur_loc_ops, ops, extra, inst)
        dw = _ICMP_DWARF.get(pred.keyword)
        if dw is None:
            return None
        ops.append(dw)
        return inst.operands[0]
    return None


def _salvage_assign_address(rec: DbgVariableRecord) -> None:
    addr = rec.address_value
    if addr is None or not addr.is_instruction:
        return
    ops: list[int] = []
    extra: list[Value] = []
    new_v = salvage_debug_info_impl(addr, 0, ops, extra)  # type: ignore[arg-type]
    if new_v is None:
        return
    aexpr = rec.address_expression
    assert aexpr is not None
    values = fold_constant_math(append_ops_to_arg(expression_values(aexpr), ops, 0, False))  # type: ignore[arg-type]
    if not extra:
        rec.set_address_value(new_v)
        rec.address_expression = expression_from_values(aexpr.context, values)
    else:
        rec.set_kill_address()


def salvage_debug_info(inst: Instruction) -> None:
    """Rewrite the debug records that name ``inst`` in terms of its operands where a
    DWARF expression can recompute it, else mark them killed (LLVM ``salvageDebugInfo``)."""
    recs = find_dbg_records(inst)
    if recs:
        salvage_debug_info_for_dbg_values(inst, recs)


def salvage_debug_info_for_dbg_values(inst: Instruction, records: Iterable[DbgVariableRecord]) -> None:
    """LLVM ``salvageDebugInfoForDbgValues`` for debug records."""
    records = list(records)
    salvaged = False
    for rec in records:
        if rec.kind is DbgRecordKind.ASSIGN:
            if rec.address_value is inst:
                _salvage_assign_address(rec)
                salvaged = True
            locs = rec.location_values()
            if not locs or locs[0] is not inst:
                continue
        stack_value = rec.kind is not DbgRecordKind.DECLARE
        locations = rec.location_values()
        extra: list[Value] = []
        op0: Value | None = None
        expr: DIExpression = rec.expression  # type: ignore[assignment]
        values = expression_values(expr)
        for loc_no, loc in enumerate(locations):
            if loc is not inst:
                continue
            ops: list[int] = []
            op0 = salvage_debug_info_impl(inst, num_location_operands(values), ops, extra)
            if op0 is None:
                break
            values = append_ops_to_arg(values, ops, loc_no, stack_value)
        if op0 is None:
            break
        values = fold_constant_math(values)
        rec.replace_variable_location_op(inst, op0)
        valid = len(values) <= _MAX_EXPRESSION_SIZE
        new_expr = expression_from_values(expr.context, values)
        if not extra and valid:
            rec.expression = new_expr
        elif (
            rec.kind is not DbgRecordKind.DECLARE
            and valid
            and rec.num_variable_location_ops + len(extra) <= _MAX_DEBUG_ARGS
        ):
            rec.add_variable_location_ops(extra, new_expr)
        else:
            rec.set_kill_location()
        salvaged = True
    if salvaged:
        return
    for rec in records:
        rec.set_kill_location()


# --- CFG helpers -----------------------------------------------------------------------------------


def change_to_unreachable(inst: Instruction, preserve_lcssa: bool = False, dtu: object | None = None) -> int:
    """Replace ``inst`` and everything after it by ``unreachable``, removing the block
    from its successors' phis (LLVM ``changeToUnreachable``). Returns how many
    instructions were removed. ``dtu`` (a DomTreeUpdater) gets the deleted edges."""
    from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor

    bb = inst.parent
    assert bb is not None
    unique_succs: dict[BasicBlock, None] = {}
    for succ in bb.successors:
        remove_predecessor(succ, bb, preserve_lcssa)
        unique_succs[succ] = None
    ui = UnreachableInst(bb.type.context)
    ui.insert_before(inst)
    ui.debug_loc = inst.debug_loc
    removed = 0
    node: Instruction | None = inst
    while node is not None:
        nxt = node.next_instruction
        if node.has_uses:
            node.replace_all_uses_with(PoisonValue.get(node.type))
        node.erase_from_parent()
        removed += 1
        node = nxt
    if dtu is not None and unique_succs:
        dtu.apply_updates([("delete", bb, s) for s in unique_succs])  # type: ignore[attr-defined]
    return removed



def _is_not_of(inst: Value, cond: Value | None) -> Value | None:
    """``x`` when ``inst`` is ``xor x, -1`` (either order; ``cond`` given: x must be it)."""
    if not (inst.is_instruction and inst.opcode == "xor"):  # type: ignore[attr-defined]
        return None
    a, b = inst.operands  # type: ignore[attr-defined]
    for x, ones in ((a, b), (b, a)):
        if isinstance(ones, ConstantInt) and ones.is_all_ones_value and (cond is None or x is cond):
            return x  # type: ignore[no-any-return]
    return None


def invert_condition(cond: Value) -> Value:
    """The negation of the i1 ``cond``: folded for a constant, the operand of a ``not``,
    an existing ``not`` in the same block, or a new ``<cond>.inv`` right after it
    (LLVM ``invertCondition``)."""
    from llvmpy_mid.ir.constant_expr import ConstantExpr
    from llvmpy_mid.ir.instructions.binary import XorInst

    if cond.is_constant:
        return ConstantExpr.get_not(cond)  # type: ignore[arg-type]
    inner = _is_not_of(cond, None)
    if inner is not None:
        return inner
    if cond.is_instruction:
        parent = cond.parent  # type: ignore[attr-defined]
    else:
        parent = cond.parent.entry_block  # type: ignore[attr-defined]
    for user in cond.users:
        if user.is_instruction and user.parent is parent and _is_not_of(user, cond) is not None:  # type: ignore[attr-defined]
            return user
    inverted = XorInst(cond, ConstantInt.get(cond.type, -1), name=cond.name + ".inv")
    if cond.is_instruction and not cond.is_phi:  # type: ignore[attr-defined]
        inverted.insert_after(cond)  # type: ignore[arg-type]
    else:
        pos = parent.first_insertion_point
        inverted.insert_into(parent, pos)
    return inverted


# --- folding terminators, unreachable code -------------------------------------------------------


def _replace_with_branch(term: Instruction, dest: BasicBlock, keep_md: tuple[str, ...] = ()) -> Instruction:
    """A ``br label %dest`` put before ``term`` with its debug location (LLVM's
    ``IRBuilder(T).CreateBr``) and the metadata kinds ``keep_md`` of ``term``."""
    from llvmpy_mid.ir.instructions.terminators import BranchInst

    br = BranchInst(dest)
    br.insert_before(term)
    # Inserted before ``term`` (no head bit): ``term``'s debug records now precede ``br``.
    for record in term.take_dbg_records():
        br.add_dbg_record(record)
    br.debug_loc = term.debug_loc
    for kind in keep_md:
        md = term.get_metadata(kind)
        if md is not None:
            br.set_metadata(kind, md)
    return br


def _branch_to_only_dest(
    term: Instruction, only: BasicBlock, cond: Value, delete_dead_conditions: bool, tli: object | None, dtu: object | None
) -> bool:
    """Replace ``term`` by ``br label %only``: the other successors (and extra edges to
    ``only``) forget the block, the dead condition may go; True if ``only`` was a successor."""
    from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor

    bb = term.parent
    assert bb is not None
    _replace_with_branch(term, only)
    removed: dict[BasicBlock, None] = {}
    keep: BasicBlock | None = only
    for succ in term.successors:
        if succ is not only:
            removed[succ] = None
        if succ is keep:
            keep = None
        else:
            remove_predecessor(succ, bb)
    term.erase_from_parent()
    if delete_dead_conditions:
        recursively_delete_trivially_dead_instructions(cond, tli)
    if dtu is not None:
        dtu.apply_updates([("delete", bb, s) for s in removed])  # type: ignore[attr-defined]
    return keep is None


def constant_fold_terminator(
    bb: BasicBlock, delete_dead_conditions: bool = False, tli: object | None = None, dtu: object | None = None
) -> bool:
    """Fold a terminator whose destination is known: a conditional branch on a constant
    or to one block twice, a switch on a constant or with all cases going one way (or
    a switch with one case into ``icmp eq`` + ``br``), an ``indirectbr`` of a
    ``blockaddress`` (LLVM ``ConstantFoldTerminator``)."""
    from llvmpy_mid.analysis.block_frequency_bpi import _branch_weights
    from llvmpy_mid.ir.constants import BlockAddress
    from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
    from llvmpy_mid.ir.instructions.terminators import BranchInst
    from llvmpy_mid.transform.scalar.lower_expect_intrinsic import create_branch_weights
    from llvmpy_mid.transform.utils.basic_block_utils import first_non_phi_or_dbg, remove_predecessor

    term = bb.terminator
    if term is None:
        return False
    opcode = term.opcode
    keep = ("llvm.loop", "dbg", "annotation")
    if opcode == "br":
        if not term.is_conditional:  # type: ignore[attr-defined]
            return False
        dest1 = term.get_successor(0)
        dest2 = term.get_successor(1)
        if dest1 is dest2:
            remove_predecessor(dest1, bb)
            _replace_with_branch(term, dest1, keep)
            cond = term.condition  # type: ignore[attr-defined]
            term.erase_from_parent()
            if delete_dead_conditions:
                recursively_delete_trivially_dead_instructions(cond, tli)
            return True
        cond = term.condition  # type: ignore[attr-defined]
        if isinstance(cond, ConstantInt):
            dest, old = (dest1, dest2) if cond.value else (dest2, dest1)
            remove_predecessor(old, bb)
            _replace_with_branch(term, dest, keep)
            term.erase_from_parent()
            if dtu is not None:
                dtu.apply_updates([("delete", bb, old)])  # type: ignore[attr-defined]
            return True
        return False
    if opcode == "switch":
        si = term
        ci = si.condition  # type: ignore[attr-defined]
        if not isinstance(ci, ConstantInt):
            ci = None
        default = si.default_dest  # type: ignore[attr-defined]
        only: BasicBlock | None = default
        first = first_non_phi_or_dbg(default)
        if first is not None and first.opcode == "unreachable" and si.num_cases > 0:  # type: ignore[attr-defined]
            only = si.get_case_dest(0)  # type: ignore[attr-defined]
        changed = False
        i = 0
        while i < si.num_cases:  # type: ignore[attr-defined]
            value = si.get_case_value(i)  # type: ignore[attr-defined]
            dest = si.get_case_dest(i)  # type: ignore[attr-defined]
            if value is ci:
                only = dest
                break
            if dest is default:
                weights = _branch_weights(si, si.num_successors)
                n_cases = si.num_cases  # type: ignore[attr-defined]
                if n_cases > 1 and weights is not None:
                    prof = si.get_metadata("prof")
                    expected = prof is not None and any(
                        getattr(op, "string", None) == "expected" for op in prof.operands
                    )
                    weights[0] += weights[i + 1]
                    weights[i + 1], weights[-1] = weights[-1], weights[i + 1]
                    weights.pop()
                    si.set_metadata("prof", create_branch_weights(si.type.context, weights, expected))
                remove_predecessor(default, bb)
                si.remove_case(i)  # type: ignore[attr-defined]
                new_ci = si.condition  # type: ignore[attr-defined]
                if isinstance(new_ci, ConstantInt):
                    ci = new_ci
                    i = 0
                changed = True
                continue
            if dest is not only:
                only = None
            i += 1
        if ci is not None and only is None:
            only = si.default_dest  # type: ignore[attr-defined]
        if only is not None:
            _branch_to_only_dest(si, only, si.condition, delete_dead_conditions, tli, dtu)  # type: ignore[attr-defined]
            return True
        if si.num_cases == 1:  # type: ignore[attr-defined]
            cmp = ICmpInst(Predicate.ICMP_EQ, si.condition, si.get_case_value(0), name="cond")  # type: ignore[attr-defined]
            cmp.insert_before(si)
            cmp.debug_loc = si.debug_loc
            new_br = BranchInst(si.get_case_dest(0), si.default_dest, cmp)  # type: ignore[attr-defined]
            new_br.insert_before(si)
            new_br.debug_loc = si.debug_loc
            weights = _branch_weights(si, 2)
            if weights is not None:
                new_br.set_metadata("prof", create_branch_weights(si.type.context, [weights[1], weights[0]]))
            implicit = si.get_metadata("make.implicit")
            if implicit is not None:
                new_br.set_metadata("make.implicit", implicit)
            si.erase_from_parent()
            return True
        return changed
    if opcode == "indirectbr":
        address = strip_pointer_casts(term.operands[0])
        if isinstance(address, BlockAddress):
            only_dest: BasicBlock = address.block
            listed = _branch_to_only_dest(term, only_dest, term.operands[0], delete_dead_conditions, tli, dtu)
            if not address.has_uses:
                address.destroy_constant()
            if not listed:
                # The address names a block the indirectbr does not list: nothing is reached.
                new_term = bb.terminator
                assert new_term is not None
                new_term.erase_from_parent()
                bb.append(UnreachableInst(bb.type.context))
            return True
    return False


def create_call_matching_invoke(invoke: Instruction) -> Instruction:
    """A detached call with the invoke's callee, arguments, bundles, calling convention,
    attributes, debug location and metadata (LLVM ``createCallMatchingInvoke``)."""
    from llvmpy_mid.ir.instructions.calls import CallInst

    call = CallInst(
        invoke.function_type,  # type: ignore[attr-defined]
        invoke.called_operand,  # type: ignore[attr-defined]
        invoke.args,  # type: ignore[attr-defined]
        bundles=invoke.operand_bundles,  # type: ignore[attr-defined]
        calling_conv=invoke.calling_conv,  # type: ignore[attr-defined]
        attributes=invoke.attributes,  # type: ignore[attr-defined]
    )
    for kind, md in invoke.metadata_items():
        call.set_metadata(kind, md)
    prof = call.get_metadata("prof")
    if prof is not None:
        total = _prof_total_weight(prof)
        if total is not None:
            from llvmpy_mid.transform.scalar.lower_expect_intrinsic import create_branch_weights

            call.set_metadata("prof", create_branch_weights(call.type.context, [total]) if total < (1 << 32) else None)
    return call


def _prof_total_weight(prof: object) -> int | None:
    """The sum of a ``branch_weights`` node's weights (LLVM ``extractProfTotalWeight``)."""
    from llvmpy_mid.ir.metadata import ConstantAsMetadata

    ops = list(getattr(prof, "operands", ()))
    if not ops or getattr(ops[0], "string", None) != "branch_weights":
        return None
    ops = ops[1:]
    if ops and getattr(ops[0], "string", None) == "expected":
        ops = ops[1:]
    total = 0
    for op in ops:
        if not isinstance(op, ConstantAsMetadata) or not isinstance(op.value, ConstantInt):
            return None
        total += op.value.value
    return total


def change_to_call(invoke: Instruction, dtu: object | None = None) -> Instruction:
    """Replace ``invoke`` by a call and a branch to its normal destination; its unwind
    destination forgets the block (LLVM ``changeToCall``)."""
    from llvmpy_mid.ir.instructions.terminators import BranchInst
    from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor

    call = create_call_matching_invoke(invoke)
    name = invoke.name
    if name:
        invoke.set_name("")
        call.set_name(name)
    call.insert_before(invoke)
    invoke.replace_all_uses_with(call)
    normal = invoke.normal_dest  # type: ignore[attr-defined]
    BranchInst(normal).insert_before(invoke)
    bb = invoke.parent
    assert bb is not None
    unwind = invoke.unwind_dest  # type: ignore[attr-defined]
    remove_predecessor(unwind, bb)
    invoke.erase_from_parent()
    if dtu is not None:
        dtu.apply_updates([("delete", bb, unwind)])  # type: ignore[attr-defined]
    return call


def _next_non_debug(inst: Instruction) -> Instruction | None:
    """LLVM ``getNextNonDebugInstruction``."""
    node = inst.next_instruction
    while node is not None and node.is_call_base and node.intrinsic_name.startswith("llvm.dbg."):  # type: ignore[attr-defined]
        node = node.next_instruction
    return node


def _can_simplify_invoke_no_unwind(fn: object) -> bool:
    """LLVM ``canSimplifyInvokeNoUnwind``: not under a personality that catches
    asynchronous exceptions (the SEH ones), nor in a module flagged ``eh-asynch``."""
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.module_flags import get_module_flag
    from llvmpy_mid.ir.pointer_casts import strip_pointer_casts

    assert isinstance(fn, Function)
    if fn.personality is not None:
        pers = strip_pointer_casts(fn.personality)
        if isinstance(pers, Function) and pers.name in ("_except_handler3", "_except_handler4", "__C_specific_handler"):
            return False
    module = fn.parent
    return module is None or get_module_flag(module, "eh-asynch") is None


def _remove_duplicate_catch_handlers(cs: Instruction) -> bool:
    """Drop each handler of a catchswitch whose catchpad is identical to an earlier
    handler's (LLVM ``markAliveBlocks``)."""
    from llvmpy_mid.ir.instructions.eh import CatchSwitchInst

    assert isinstance(cs, CatchSwitchInst)
    seen: set[tuple[object, ...]] = set()
    changed = False
    pos = 0
    for handler in cs.handlers:
        pad = handler.first_non_phi
        assert pad is not None
        key = (pad.opcode, pad.type, *(id(op) for op in pad.operands))
        if key in seen:
            cs.remove_handler(pos)
            changed = True
            continue
        seen.add(key)
        pos += 1
    return changed


def _mark_alive_blocks(fn: object, reachable: set[BasicBlock], dtu: object | None) -> bool:
    from llvmpy_mid.ir.constants import ConstantPointerNull
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instructions.terminators import BranchInst
    from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor

    assert isinstance(fn, Function)
    entry = fn.blocks._first
    assert entry is not None
    worklist = [entry]
    reachable.add(entry)
    changed = False
    while worklist:
        bb = worklist.pop()
        node = bb.instructions._first
        while node is not None:
            inst = node
            node = node._next
            if inst.opcode == "call":
                callee = inst.called_operand
                if isinstance(callee, Function):
                    name = inst.intrinsic_name
                    if name == "llvm.assume":
                        arg = inst.get_arg(0)
                        if (isinstance(arg, ConstantInt) and arg.value == 0) or isinstance(arg, UndefValue):
                            change_to_unreachable(inst, False, dtu)
                            changed = True
                            break
                    elif name == "llvm.experimental.guard":
                        arg = inst.get_arg(0)
                        nxt = inst.next_instruction
                        if isinstance(arg, ConstantInt) and arg.value == 0 and nxt is not None:
                            if nxt.opcode != "unreachable":
                                change_to_unreachable(nxt, False, dtu)
                                changed = True
                                break
                elif (
                    isinstance(callee, ConstantPointerNull)
                    and not null_pointer_is_defined(fn, callee.type.address_space)  # type: ignore[attr-defined]
                ) or isinstance(callee, UndefValue):
                    change_to_unreachable(inst, False, dtu)
                    changed = True
                    break
                if inst.does_not_return and not inst.is_must_tail_call:
                    nxt2 = _next_non_debug(inst)
                    if nxt2 is not None and nxt2.opcode != "unreachable":
                        change_to_unreachable(nxt2, False, dtu)
                        changed = True
                    break
            elif inst.opcode == "store":
                if inst.is_volatile:
                    continue
                ptr = inst.operands[1]
                if isinstance(ptr, UndefValue) or (
                    isinstance(ptr, ConstantPointerNull)
                    and not null_pointer_is_defined(fn, ptr.type.address_space)  # type: ignore[attr-defined]
                ):
                    change_to_unreachable(inst, False, dtu)
                    changed = True
                    break
        term = bb.terminator
        if term is not None and term.opcode == "invoke":
            callee = term.called_operand
            if (isinstance(callee, ConstantPointerNull) and not null_pointer_is_defined(fn)) or isinstance(
                callee, UndefValue
            ):
                change_to_unreachable(term, False, dtu)
                changed = True
            else:
                normal = term.normal_dest
                front = normal.instructions._first
                if term.does_not_return and (front is None or front.opcode != "unreachable"):
                    remove_predecessor(normal, bb)
                    new_dest = BasicBlock(bb.type.context, normal.name + ".unreachable")
                    fn.blocks.insert_before(new_dest, normal)
                    new_dest.append(UnreachableInst(bb.type.context))
                    term.normal_dest = new_dest
                    if dtu is not None:
                        dtu.apply_updates([("delete", bb, normal), ("insert", bb, new_dest)])  # type: ignore[attr-defined]
                    changed = True
                if term.does_not_throw and _can_simplify_invoke_no_unwind(fn):
                    if not term.has_uses and not term.may_have_side_effects():
                        normal = term.normal_dest
                        unwind = term.unwind_dest
                        BranchInst(normal).insert_before(term)
                        remove_predecessor(unwind, bb)
                        term.erase_from_parent()
                        if dtu is not None:
                            dtu.apply_updates([("delete", bb, unwind)])  # type: ignore[attr-defined]
                    else:
                        change_to_call(term, dtu)
                    changed = True
        elif term is not None and term.opcode == "catchswitch":
            changed |= _remove_duplicate_catch_handlers(term)
        changed |= constant_fold_terminator(bb, True, None, dtu)
        for succ in bb.successors:
            if succ not in reachable:
                reachable.add(succ)
                worklist.append(succ)
    return changed


def remove_unreachable_blocks(fn: object, dtu: object | None = None) -> bool:
    """Cut code after calls that cannot return, ``assume(false)`` and stores to null,
    fold constant terminators on the way, and delete the blocks no path from the entry
    reaches (LLVM ``removeUnreachableBlocks``)."""
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.transform.utils.basic_block_utils import delete_dead_blocks

    assert isinstance(fn, Function)
    reachable: set[BasicBlock] = set()
    changed = _mark_alive_blocks(fn, reachable, dtu)
    if len(reachable) == len(fn.blocks):
        return changed
    dead: list[BasicBlock] = []
    for bb in fn.blocks:
        if bb in reachable:
            continue
        if dtu is not None and dtu.is_bb_pending_deletion(bb):  # type: ignore[attr-defined]
            continue
        dead.append(bb)
    if not dead:
        return changed
    delete_dead_blocks(dead, dtu)  # type: ignore[arg-type]
    return True


# --- replacing uses ------------------------------------------------------------------------------


def replace_dominated_uses_with(
    frm: Value,
    to: Value,
    dt: object,
    root: BasicBlock | tuple[BasicBlock, BasicBlock],
    should_replace: Callable[[object, Value], bool] | None = None,
) -> int:
    """Replace the uses of ``frm`` dominated by ``root`` (a block, or an edge (from, to))
    with ``to``, when ``should_replace(use, to)`` agrees; returns how many (LLVM
    ``replaceDominatedUsesWith`` / ``replaceDominatedUsesWithIf``)."""
    count = 0
    for use in list(frm.uses):
        if isinstance(root, tuple):
            ok = _edge_dominates_use(dt, root[0], root[1], use)
        else:
            ok = _block_dominates_use(dt, root, use)
        if not ok or (should_replace is not None and not should_replace(use, to)):
            continue
        use.set(to)
        count += 1
    return count


def _use_block(use: object) -> tuple[object, BasicBlock]:
    user = use.user  # type: ignore[attr-defined]
    if user.is_phi:
        return user, user.get_incoming_block(use.index)  # type: ignore[attr-defined]
    return user, user.parent


def _block_dominates_use(dt: object, bb: BasicBlock, use: object) -> bool:
    """LLVM ``DominatorTree::dominates(const BasicBlock *, const Use &)``: a phi use sits
    at the end of its incoming block; any other use must be in a block ``bb`` properly
    dominates."""
    user, use_bb = _use_block(use)
    if user.is_phi:  # type: ignore[attr-defined]
        return dt.dominates_block(bb, use_bb)  # type: ignore[attr-defined, no-any-return]
    return bb is not use_bb and dt.dominates_block(bb, use_bb)  # type: ignore[attr-defined]


def _edge_dominates_use(dt: object, start: BasicBlock, end: BasicBlock, use: object) -> bool:
    """LLVM ``DominatorTree::dominates(const BasicBlockEdge &, const Use &)``."""
    user, use_bb = _use_block(use)
    if user.is_phi and user.parent is end and use_bb is start:  # type: ignore[attr-defined]
        return True
    return dt._edge_dominates_block(start, end, use_bb)  # type: ignore[attr-defined, no-any-return]


def replace_non_local_uses_with(frm: Instruction, to: Value) -> int:
    """Replace the uses of ``frm`` outside its own block (LLVM ``replaceNonLocalUsesWith``)."""
    bb = frm.parent
    count = 0
    for use in list(frm.uses):
        user = use.user
        if user.is_instruction and user.parent is bb:  # type: ignore[attr-defined]
            continue
        use.set(to)
        count += 1
    return count


def handle_unreachable_terminator(term: Instruction, poisoned: list[Value]) -> bool:
    """Drop the debug records before ``term`` and make each of its non-token instruction
    operands poison, collecting them in ``poisoned`` (LLVM ``handleUnreachableTerminator``)."""
    for r in term.take_dbg_records():
        r.drop_references()
    changed = False
    for use in term.operand_uses:
        op = use.value
        if op.is_instruction and not op.type.is_token:
            use.set(PoisonValue.get(op.type))
            poisoned.append(op)
            changed = True
    return changed


def remove_all_non_terminator_and_eh_pad_instructions(bb: BasicBlock) -> tuple[int, int]:
    """Poison the terminator's instruction operands, then erase everything in ``bb`` but its
    terminator, EH pads and token-typed instructions, last first (uses become poison); returns
    (instructions, debug instructions) removed (LLVM ``removeAllNonTerminatorAndEHPadInstructions``;
    debug records are dropped, not counted, as LLVM 19 does)."""
    count = 0
    term = bb.terminator
    if term is not None:
        handle_unreachable_terminator(term, [])
    node = term.prev_instruction if term is not None else bb.instructions._last
    while node is not None:
        prev = node.prev_instruction
        is_token = node.type.is_token
        if node.has_uses and not is_token:
            node.replace_all_uses_with(PoisonValue.get(node.type))
        for r in node.take_dbg_records():
            r.drop_references()
        if node.is_eh_pad or is_token:
            node = prev
            continue
        node.erase_from_parent()
        count += 1
        node = prev
    return count, 0


# --- rewriting debug uses -------------------------------------------------------------------------


def _rewrite_debug_users(
    frm: Instruction,
    to: Value,
    dom_point: Instruction,
    dt: object,
    rewrite: Callable[[DbgVariableRecord], list[int] | None],
) -> bool:
    """LLVM ``rewriteDebugUsers`` for debug records."""
    records = find_dbg_records(frm)
    if not records:
        return False
    changed = False
    undef_or_salvage: set[DbgVariableRecord] = set()
    if to.is_instruction:
        dom_after_from = _next_non_debug(frm) is dom_point
        for rec in records:
            marked = rec.instruction
            if marked is None:
                continue
            nxt = marked
            if nxt.is_call_base and _is_dbg_variable_intrinsic(nxt.intrinsic_name):  # type: ignore[attr-defined]
                nxt = _next_non_debug(nxt)  # type: ignore[assignment]
            if dom_after_from and nxt is dom_point:
                marked.remove_dbg_record(rec)
                after = dom_point.next_instruction
                if after is not None:
                    after.add_dbg_record(rec, after.dbg_records[0] if after.dbg_records else None)
                changed = True
            elif not dt.dominates(dom_point, marked):  # type: ignore[attr-defined]
                undef_or_salvage.add(rec)
    for rec in records:
        if rec in undef_or_salvage:
            continue
        values = rewrite(rec)
        if values is None:
            continue
        expr = rec.expression
        rec.replace_variable_location_op(frm, to)
        rec.expression = expression_from_values(expr.context, values)
        changed = True
    if undef_or_salvage:
        salvage_debug_info(frm)
        changed = True
    return changed


def replace_all_dbg_uses_with(frm: Instruction, to: Value, dom_point: Instruction, dt: object) -> bool:
    """Point the debug records of ``frm`` at ``to`` (same bits: as is; a wider integer: as
    is; a narrower integer: with a sign/zero extension by the variable's signedness),
    moving or salvaging those ``to`` would not dominate (LLVM ``replaceAllDbgUsesWith``)."""
    if not find_dbg_records(frm):
        return False
    from_ty = frm.type
    to_ty = to.type

    def identity(rec: DbgVariableRecord) -> list[int] | None:
        return expression_values(rec.expression)  # type: ignore[arg-type]

    mod = frm.module
    if from_ty is to_ty:
        return _rewrite_debug_users(frm, to, dom_point, dt, identity)
    int_or_ptr = (from_ty.is_integer or from_ty.is_pointer) and (to_ty.is_integer or to_ty.is_pointer)
    if int_or_ptr and mod is not None:
        dl = mod.data_layout
        if (
            dl.type_size_in_bits(from_ty) == dl.type_size_in_bits(to_ty)
            and not dl.is_non_integral_pointer_type(from_ty)
            and not dl.is_non_integral_pointer_type(to_ty)
        ):
            return _rewrite_debug_users(frm, to, dom_point, dt, identity)
    if from_ty.is_integer and to_ty.is_integer:
        from_bits = from_ty.width  # type: ignore[attr-defined]
        to_bits = to_ty.width  # type: ignore[attr-defined]
        if from_bits < to_bits:
            return _rewrite_debug_users(frm, to, dom_point, dt, identity)

        def sign_or_zero_ext(rec: DbgVariableRecord) -> list[int] | None:
            signed = variable_signedness(rec.variable)
            if signed is None:
                return None
            values = expression_values(rec.expression)  # type: ignore[arg-type]
            return _append_to_stack(values, ext_ops(to_bits, from_bits, signed))

        return _rewrite_debug_users(frm, to, dom_point, dt, sign_or_zero_ext)
    return False


def _append_to_stack(values: list[int], ops: list[int]) -> list[int]:
    """LLVM ``DIExpression::appendToStack``: a location description is first dereferenced,
    ``ops`` go before a final stack value / fragment, and one stack value is ensured."""
    from llvmpy_mid.ir.di_expression import expression_ops
    from llvmpy_mid.ir.di_expression_edit import OP_LLVM_FRAGMENT, OP_STACK_VALUE

    op_list = expression_ops(values)
    has_fragment = any(op == OP_LLVM_FRAGMENT for _, op in op_list)
    drop = 3 if has_fragment else 0
    before = values[: len(values) - drop]
    needs_deref = len(values) > drop and before[-1] != OP_STACK_VALUE
    needs_stack = needs_deref or not before
    new_ops = ([0x06] if needs_deref else []) + list(ops) + ([OP_STACK_VALUE] if needs_stack else [])
    out: list[int] = []
    inserted = False
    n = len(values)
    for k, (pos, op) in enumerate(op_list):
        if not inserted and op in (OP_STACK_VALUE, OP_LLVM_FRAGMENT):
            out.extend(new_ops)
            inserted = True
        end = op_list[k + 1][0] if k + 1 < len(op_list) else n
        out.extend(values[pos:end])
    if not inserted:
        out.extend(new_ops)
    return out


def _simplify_and_dce_instruction(inst: Instruction, work: dict[Instruction, None], q: object, tli: object | None) -> bool:
    from llvmpy_mid.analysis.instruction_simplify import simplify_instruction

    if is_instruction_trivially_dead(inst, tli):
        erase_dead_instruction(inst, lambda op: work.__setitem__(op, None), tli)
        return True
    simple = simplify_instruction(inst, q)  # type: ignore[arg-type]
    if simple is None:
        return False
    use = inst._use_head
    while use is not None:
        user = use.user
        if user is not inst:
            work[user] = None  # type: ignore[index]
        use = use._next
    changed = False
    if inst._use_head is not None:
        inst.replace_all_uses_with(simple)
        changed = True
    if is_instruction_trivially_dead(inst, tli):
        inst.erase_from_parent()
        changed = True
    return changed


def simplify_instructions_in_block(bb: BasicBlock, tli: object | None = None) -> bool:
    """Simplify each instruction of ``bb`` (InstructionSimplify, no context) and delete what
    is or becomes trivially dead, revisiting users and dead operands with a set-vector
    worklist (LLVM ``SimplifyInstructionsInBlock``). True if anything changed."""
    from llvmpy_mid.analysis.simplify_query import SimplifyQuery
    from llvmpy_mid.ir.data_layout import DataLayout

    fn = bb.parent
    module = fn.parent if fn is not None else None
    q = SimplifyQuery(module.data_layout if module is not None else DataLayout())
    work: dict[Instruction, None] = {}
    changed = False
    term = bb.terminator
    inst = bb.instructions.first
    while inst is not None and inst is not term:
        nxt = inst.next_instruction
        if inst not in work:
            changed |= _simplify_and_dce_instruction(inst, work, q, tli)
        inst = nxt
    while work:
        inst = work.popitem()[0]
        if not inst.is_erased:
            changed |= _simplify_and_dce_instruction(inst, work, q, tli)
    return changed


__all__ = [
    "get_or_enforce_known_alignment",
    "try_enforce_alignment",
    "change_to_call",
    "change_to_unreachable",
    "erase_dead_instruction",
    "constant_fold_terminator",
    "create_call_matching_invoke",
    "remove_all_non_terminator_and_eh_pad_instructions",
    "remove_unreachable_blocks",
    "replace_all_dbg_uses_with",
    "replace_dominated_uses_with",
    "replace_non_local_uses_with",
    "find_dbg_records",
    "handle_unreachable_terminator",
    "invert_condition",
    "is_instruction_trivially_dead",
    "recursively_delete_dead_phi_node",
    "release_operands",
    "recursively_delete_trivially_dead_instructions",
    "recursively_delete_trivially_dead_instructions_permissive",
    "replace_dbg_uses_with_undef",
    "salvage_debug_info",
    "salvage_debug_info_for_dbg_values",
    "salvage_debug_info_impl",
    "simplify_instructions_in_block",
    "was_instruction_trivially_dead",
    "would_instruction_be_trivially_dead",
    "would_instruction_be_trivially_dead_on_unused_paths",
]


def _can_increase_alignment(go: GlobalObject) -> bool:
    """LLVM ``GlobalObject::canIncreaseAlignment``."""
    from llvmpy_mid.ir.global_value import GlobalVariable

    if not go.is_strong_definition_for_linker:
        return False
    if go.section and go.alignment:
        return False
    module = go.parent
    triple = getattr(module, "target_triple", "") if module is not None else ""
    is_elf = not any(t in (triple or "") for t in ("darwin", "macos", "ios", "windows", "aix", "wasm", "uefi", "-coff"))
    if is_elf and not go.is_dso_local:
        return False
    if isinstance(go, GlobalVariable):
        attrs = getattr(go, "attributes", None)
        if attrs is not None and "toc-data" in str(attrs):
            return False
    return True


def try_enforce_alignment(v: Value, pref_align: int, dl: DataLayout) -> int:
    """Raise the alignment of the alloca or global ``v`` points to up to ``pref_align``
    where allowed (LLVM ``tryEnforceAlignment``); the alignment it now has."""
    from llvmpy_mid.analysis.loads import get_pointer_alignment
    from llvmpy_mid.ir.global_value import GlobalObject
    from llvmpy_mid.ir.instructions.memory import AllocaInst

    v = strip_pointer_casts(v)
    if isinstance(v, AllocaInst):
        cur = v.alignment or 1
        if pref_align <= cur:
            return cur
        if dl.exceeds_natural_stack_alignment(pref_align):
            return cur
        v.alignment = pref_align
        return pref_align
    if isinstance(v, GlobalObject):
        cur = get_pointer_alignment(v, dl)
        if pref_align <= cur:
            return cur
        if not _can_increase_alignment(v):
            return cur
        v.alignment = pref_align
        return pref_align
    return 1


def get_or_enforce_known_alignment(
    v: Value, pref_align: int | None, dl: DataLayout, cxt_i: Instruction | None, ac: AssumptionCache | None, dt: DominatorTree | None
) -> int:
    """LLVM ``getOrEnforceKnownAlignment``: the alignment the known bits of ``v`` prove,
    raised towards ``pref_align`` where the alloca or global allows."""
    from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits
    from llvmpy_mid.analysis.simplify_query import SimplifyQuery

    known = compute_known_bits(v, SimplifyQuery(dl, None, dt, ac, cxt_i))
    tz = min(known.count_min_trailing_zeros(), 32)
    align = 1 << min(known.bit_width - 1, tz)
    if pref_align is not None and pref_align > align:
        align = max(align, try_enforce_alignment(v, pref_align, dl))
    return align
