"""InstructionSimplify: is an instruction equal to a value that already exists?
(LLVM 19.1.7 ``llvm/lib/Analysis/InstructionSimplify.cpp``.)

What: :func:`simplify_instruction` answers with a constant, an operand, or
another existing instruction the given one always equals (refinement allowed:
where the instruction would be poison, any answer will do), or None. It never
creates or changes an instruction, so any pass may ask. The folds live in the
package :mod:`llvmpy_mid.analysis.instsimplify`, one module per family; this
module is the front door: the dispatch on the opcode
(:func:`simplify_instruction_with_operands`, which can also ask "what would this
instruction be with these operands?"), the per-family entry points under LLVM's
names, and :func:`replace_and_recursively_simplify`.

How: every fold follows LLVM's case analysis and order; recursion through the
threading over selects and phis, reassociation and distribution is bounded by
:data:`RECURSION_LIMIT` (3), as in LLVM, so the depth is fixed whatever the
input. Constants fold through :mod:`llvmpy_mid.analysis.constant_folding`;
facts about values come from value tracking (known bits, non-zero, power of
two, sign bits, poison).

What it does not do (yet): see the family modules (the folds that need
``computeKnownFPClass``, dominating-condition implication, constrained FP).
"""

from __future__ import annotations

from typing import Callable, Sequence

from llvmpy_mid.analysis.instsimplify import _util as u
from llvmpy_mid.analysis.instsimplify import binops, calls, cmp, fp, logic, other, select

# The per-family entry points, re-exported under LLVM's names (each family's ``__all__``).
from llvmpy_mid.analysis.instsimplify.binops import *  # noqa: F403
from llvmpy_mid.analysis.instsimplify.calls import *  # noqa: F403
from llvmpy_mid.analysis.instsimplify.cmp import *  # noqa: F403
from llvmpy_mid.analysis.instsimplify.fp import *  # noqa: F403
from llvmpy_mid.analysis.instsimplify.logic import *  # noqa: F403
from llvmpy_mid.analysis.instsimplify.other import *  # noqa: F403
from llvmpy_mid.analysis.instsimplify.select import *  # noqa: F403
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.constants import Constant, PoisonValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.cmp import CmpInst
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import LoadInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.vector import ExtractValueInst, InsertValueInst, ShuffleVectorInst
from llvmpy_mid.ir.value import Value

_Handler = Callable[[Instruction, Sequence[Value], SimplifyQuery, int], "Value | None"]


def _fmf(i: Instruction) -> int:
    return int(getattr(i, "fast_math_flags", 0))


def _nsw(q: SimplifyQuery, i: Instruction) -> bool:
    return q.has_no_signed_wrap(i)


def _nuw(q: SimplifyQuery, i: Instruction) -> bool:
    return q.has_no_unsigned_wrap(i)


def _call(i: Instruction, ops: Sequence[Value], q: SimplifyQuery, r: int) -> Value | None:
    assert isinstance(i, CallBase)
    if i.opcode != "call":
        return _default(i, ops, q, r)
    n = i.num_args
    return simplify_call(i, ops[-1], list(ops[:n]), q)


def _default(i: Instruction, ops: Sequence[Value], q: SimplifyQuery, r: int) -> Value | None:
    """Any other opcode: constant folding when every operand is a constant."""
    consts: list[Constant] = []
    for op in ops:
        if not isinstance(op, Constant):
            return None
        consts.append(op)
    return u.fold_inst_operands(i, consts, q)


def _cast(i: Instruction, ops: Sequence[Value], q: SimplifyQuery, r: int) -> Value | None:
    return simplify_cast_inst(i.opcode, ops[0], i.type, q, r)


def _gep(i: Instruction, ops: Sequence[Value], q: SimplifyQuery, r: int) -> Value | None:
    assert isinstance(i, GetElementPtrInst)
    return simplify_gep_inst(i.source_element_type, ops[0], list(ops[1:]), int(i.gep_flags), q, r)


def _cmp(i: Instruction, ops: Sequence[Value], q: SimplifyQuery, r: int) -> Value | None:
    assert isinstance(i, CmpInst)
    if i.opcode == "icmp":
        return simplify_icmp_inst(i.predicate, ops[0], ops[1], q, r)
    return simplify_fcmp_inst(i.predicate, ops[0], ops[1], _fmf(i), q, r)


def _load(i: Instruction, ops: Sequence[Value], q: SimplifyQuery, r: int) -> Value | None:
    assert isinstance(i, LoadInst)
    return simplify_load_inst(i, ops[0], q)


def _phi(i: Instruction, ops: Sequence[Value], q: SimplifyQuery, r: int) -> Value | None:
    assert isinstance(i, PHINode)
    return simplify_phi_node(i, ops, q)


def _insert_value(i: Instruction, ops: Sequence[Value], q: SimplifyQuery, r: int) -> Value | None:
    assert isinstance(i, InsertValueInst)
    return simplify_insert_value_inst(ops[0], ops[1], i.indices, q, r)


def _extract_value(i: Instruction, ops: Sequence[Value], q: SimplifyQuery, r: int) -> Value | None:
    assert isinstance(i, ExtractValueInst)
    return simplify_extract_value_inst(ops[0], i.indices, q, r)


def _shuffle(i: Instruction, ops: Sequence[Value], q: SimplifyQuery, r: int) -> Value | None:
    assert isinstance(i, ShuffleVectorInst)
    return simplify_shuffle_vector_inst(ops[0], ops[1], i.mask, i.type, q, r)


_DISPATCH: dict[str, _Handler] = {
    "fneg": lambda i, o, q, r: simplify_fneg_inst(o[0], _fmf(i), q, r),
    "fadd": lambda i, o, q, r: simplify_fadd_inst(o[0], o[1], _fmf(i), q, r),
    "fsub": lambda i, o, q, r: simplify_fsub_inst(o[0], o[1], _fmf(i), q, r),
    "fmul": lambda i, o, q, r: simplify_fmul_inst(o[0], o[1], _fmf(i), q, r),
    "fdiv": lambda i, o, q, r: simplify_fdiv_inst(o[0], o[1], _fmf(i), q, r),
    "frem": lambda i, o, q, r: simplify_frem_inst(o[0], o[1], _fmf(i), q, r),
    "add": lambda i, o, q, r: simplify_add_inst(o[0], o[1], _nsw(q, i), _nuw(q, i), q, r),
    "sub": lambda i, o, q, r: simplify_sub_inst(o[0], o[1], _nsw(q, i), _nuw(q, i), q, r),
    "mul": lambda i, o, q, r: simplify_mul_inst(o[0], o[1], _nsw(q, i), _nuw(q, i), q, r),
    "sdiv": lambda i, o, q, r: simplify_sdiv_inst(o[0], o[1], q.is_exact(i), q, r),
    "udiv": lambda i, o, q, r: simplify_udiv_inst(o[0], o[1], q.is_exact(i), q, r),
    "srem": lambda i, o, q, r: simplify_srem_inst(o[0], o[1], q, r),
    "urem": lambda i, o, q, r: simplify_urem_inst(o[0], o[1], q, r),
    "shl": lambda i, o, q, r: simplify_shl_inst(o[0], o[1], _nsw(q, i), _nuw(q, i), q, r),
    "lshr": lambda i, o, q, r: simplify_lshr_inst(o[0], o[1], q.is_exact(i), q, r),
    "ashr": lambda i, o, q, r: simplify_ashr_inst(o[0], o[1], q.is_exact(i), q, r),
    "and": lambda i, o, q, r: simplify_and_inst(o[0], o[1], q, r),
    "or": lambda i, o, q, r: simplify_or_inst(o[0], o[1], q, r),
    "xor": lambda i, o, q, r: simplify_xor_inst(o[0], o[1], q, r),
    "icmp": _cmp,
    "fcmp": _cmp,
    "select": lambda i, o, q, r: simplify_select_inst(o[0], o[1], o[2], q, r),
    "getelementptr": _gep,
    "insertvalue": _insert_value,
    "insertelement": lambda i, o, q, r: simplify_insert_element_inst(o[0], o[1], o[2], q),
    "extractvalue": _extract_value,
    "extractelement": lambda i, o, q, r: simplify_extract_element_inst(o[0], o[1], q, r),
    "shufflevector": _shuffle,
    "phi": _phi,
    "call": _call,
    "freeze": lambda i, o, q, r: simplify_freeze_inst(o[0], q),
    "alloca": lambda i, o, q, r: None,
    "load": _load,
}
for _opc in (
    "trunc",
    "zext",
    "sext",
    "fptrunc",
    "fpext",
    "fptoui",
    "fptosi",
    "uitofp",
    "sitofp",
    "ptrtoint",
    "inttoptr",
    "bitcast",
    "addrspacecast",
):
    _DISPATCH[_opc] = _cast


def _simplify_with_operands(i: Instruction, ops: Sequence[Value], q: SimplifyQuery, max_recurse: int) -> Value | None:
    if q.cxt_i is None:
        q = q.get_with_instruction(i)
    handler = _DISPATCH.get(i.opcode, _default)
    return handler(i, ops, q, max_recurse)


def simplify_instruction_with_operands(i: Instruction, new_ops: Sequence[Value], q: SimplifyQuery) -> Value | None:
    """What ``i`` would simplify to with ``new_ops`` as its operands (LLVM
    ``simplifyInstructionWithOperands``)."""
    if len(new_ops) != i.num_operands:
        raise ValueError("simplify_instruction_with_operands: %d operands for an instruction of %d" % (len(new_ops), i.num_operands))
    return _simplify_with_operands(i, new_ops, q, RECURSION_LIMIT)


def simplify_instruction(i: Instruction, q: SimplifyQuery) -> Value | None:
    """A value ``i`` always equals, or None (LLVM ``simplifyInstruction``). An
    instruction that would simplify to itself (only in unreachable code) gives poison."""
    result = _simplify_with_operands(i, i.operands, q, RECURSION_LIMIT)
    if result is i:
        return PoisonValue.get(i.type)
    return result


def replace_and_recursively_simplify(
    i: Instruction,
    simple_v: Value,
    tli: object | None = None,
    dt: object | None = None,
    ac: object | None = None,
    unsimplified_users: list[Instruction] | None = None,
) -> bool:
    """Replace ``i`` by ``simple_v`` and simplify its users in turn, transitively
    (LLVM ``replaceAndRecursivelySimplify``). Returns whether a user simplified."""
    if i is simple_v:
        raise ValueError("replace_and_recursively_simplify(X, X) is not valid")
    fn = i.function
    if fn is None or fn.parent is None:
        raise ValueError("replace_and_recursively_simplify needs an instruction inside a module")
    dl = fn.parent.data_layout
    q = SimplifyQuery(dl, tli, dt, ac)  # type: ignore[arg-type]
    worklist: list[Instruction] = []
    seen: set[int] = set()

    def push(v: Value) -> None:
        if isinstance(v, Instruction) and id(v) not in seen:
            seen.add(id(v))
            worklist.append(v)

    def replace(inst: Instruction, v: Value) -> None:
        for user in list(inst.users):
            if user is not inst:
                push(user)
        inst.replace_all_uses_with(v)
        if not inst.is_terminator and not getattr(inst, "is_eh_pad", False) and not inst.may_have_side_effects():
            inst.erase_from_parent()

    replace(i, simple_v)
    simplified = False
    idx = 0
    while idx < len(worklist):
        inst = worklist[idx]
        idx += 1
        if inst.is_erased:
            continue
        v = simplify_instruction(inst, q)
        if v is None:
            if unsimplified_users is not None:
                unsimplified_users.append(inst)
            continue
        simplified = True
        replace(inst, v)
    return simplified


__all__ = [
    "SimplifyQuery",
    "simplify_instruction",
    "simplify_instruction_with_operands",
    "replace_and_recursively_simplify",
    *binops.__all__,
    *calls.__all__,
    *cmp.__all__,
    *fp.__all__,
    *logic.__all__,
    *other.__all__,
    *select.__all__,
    "binops",
    "calls",
    "cmp",
    "fp",
    "logic",
    "other",
    "select",
]
