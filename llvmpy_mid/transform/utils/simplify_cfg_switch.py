"""Switch canonicalisation in SimplifyCFG (LLVM 19.1.7
``llvm/lib/Transforms/Utils/SimplifyCFG.cpp``: ``TurnSwitchRangeIntoICmp``,
``eliminateDeadSwitchCases``, ``ForwardSwitchConditionToPHI``, ``trySwitchToSelect``,
``simplifySwitchOfPowersOfTwo``, ``ReduceSwitchRange`` and their helpers).

What each entry point does, in the order the driver tries them:

- :func:`turn_switch_range_into_icmp`: a switch with two destinations whose cases
  for one of them form a contiguous range becomes ``icmp ult (x - lo), n`` and a
  conditional branch (``x.off``, ``switch``);
- :func:`eliminate_dead_switch_cases`: cases the known bits (or the number of
  significant bits) of the condition rule out are removed; when the cases cover
  every possible value the default becomes an ``.unreachabledefault`` block, and
  when only one value is missing it becomes a case of its own;
- :func:`try_switch_to_select`: a switch feeding one phi with at most two distinct
  constants becomes ``switch.selectcmp`` / ``switch.select`` instructions;
- :func:`forward_switch_condition_to_phi`: phi entries equal to the case value are
  replaced by the condition itself;
- :func:`simplify_switch_of_powers_of_two`: cases that are powers of two under an
  unreachable default switch on ``cttz`` of the condition;
- :func:`reduce_switch_range`: sparse cases with a common stride are rebased and
  divided by it through a rotate (``llvm.fshl``).

:func:`get_case_results` and :func:`valid_lookup_table_constant` are shared with
``simplify_cfg_lookup``. The dominator tree is not updated (the pass does not keep
one while it runs). Target costs are LLVM's target-independent answers.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_folding import constant_fold_inst_operands
from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits
from llvmpy_mid.analysis.num_sign_bits import compute_max_significant_bits
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.target_transform_info import TCC_BASIC, TargetTransformInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantFP, ConstantInt, ConstantPointerNull, UndefValue
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.global_value import DLLStorageClass, GlobalValue, ThreadLocalMode
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst, SwitchInst, UnreachableInst
from llvmpy_mid.ir.prof_data_utils import has_branch_weight_md, set_branch_weights_if_nonzero
from llvmpy_mid.ir.switch_prof_wrapper import SwitchInstProfUpdateWrapper
from llvmpy_mid.ir.types import IntegerType, TypeID
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.basic_block_utils import first_non_phi_or_dbg, remove_predecessor
from llvmpy_mid.transform.utils.simplify_cfg_common import get_branch_weights

if TYPE_CHECKING:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.transform.utils.simplify_cfg import SimplifyCFGOpt

_U64 = (1 << 64) - 1
_U32_MAX = (1 << 32) - 1
_SPECIAL_TERMINATORS = frozenset(("invoke", "catchswitch", "catchret", "cleanupret", "resume", "callbr"))

# (result constant, the case values that give it), in first-seen order.
CaseResults = list[tuple[Constant, list[ConstantInt]]]


def _builder_at(si: Instruction) -> IRBuilder:
    """An IRBuilder with LLVM's default constant folder, before ``si`` and with its location."""
    b = IRBuilder(folder=ConstantFolder())
    b.position_before(si)
    b.debug_loc = si.debug_loc
    return b


def has_unreachable_default(si: SwitchInst) -> bool:
    """The default destination starts (after phis and debug records) with ``unreachable``."""
    return isinstance(first_non_phi_or_dbg(si.default_dest), UnreachableInst)


def _cases_are_contiguous(cases: list[ConstantInt]) -> bool:
    """Sort ``cases`` by decreasing unsigned value and tell whether each is the next one
    plus one (LLVM ``CasesAreContiguous``)."""
    cases.sort(key=lambda c: c.value, reverse=True)
    for i in range(1, len(cases)):
        prev = cases[i - 1]
        if prev.value != (cases[i].value + 1) & prev.type.mask:
            return False
    return True


def create_unreachable_switch_default(si: SwitchInst, remove_orig_default: bool = True) -> None:
    """Point the default at a new ``<bb>.unreachabledefault`` block holding only
    ``unreachable``, placed before the old default (LLVM ``createUnreachableSwitchDefault``)."""
    bb = si.parent
    assert bb is not None and bb.parent is not None
    orig = si.default_dest
    if remove_orig_default:
        remove_predecessor(orig, bb)
    new_bb = BasicBlock(bb.context, bb.name + ".unreachabledefault", bb.parent, orig)
    new_bb.append(UnreachableInst(bb.context))
    si.default_dest = new_bb


def turn_switch_range_into_icmp(opt: SimplifyCFGOpt, si: SwitchInst) -> bool:
    """A two-destination switch whose cases for one destination are contiguous becomes
    a range compare and a conditional branch (LLVM ``TurnSwitchRangeIntoICmp``)."""
    has_default = not has_unreachable_default(si)
    dest_a: BasicBlock | None = si.default_dest if has_default else None
    dest_b: BasicBlock | None = None
    cases_a: list[ConstantInt] = []
    cases_b: list[ConstantInt] = []
    for value, dest in si.cases:
        if dest_a is None:
            dest_a = dest
        if dest is dest_a:
            cases_a.append(value)
            continue
        if dest_b is None:
            dest_b = dest
        if dest is dest_b:
            cases_b.append(value)
            continue
        return False
    if dest_b is None or dest_a is None:
        return False
    if cases_a and _cases_are_contiguous(cases_a):
        contiguous, contiguous_dest, other_dest = cases_a, dest_a, dest_b
    elif _cases_are_contiguous(cases_b):
        contiguous, contiguous_dest, other_dest = cases_b, dest_b, dest_a
    else:
        return False
    bb = si.parent
    assert bb is not None
    cond = si.condition
    ty = cond.type
    assert isinstance(ty, IntegerType)
    offset = ConstantInt.get(ty, -contiguous[-1].value)
    num_cases = ConstantInt.get(ty, len(contiguous))
    b = _builder_at(si)
    sub: Value = cond
    if not offset.is_null_value:
        sub = b.create_add(cond, offset, cond.name + ".off")
    cmp: Value
    if num_cases.is_null_value and contiguous:
        cmp = ConstantInt.get_true(ty)
    else:
        cmp = b.create_icmp("ult", sub, num_cases, "switch")
    new_bi = b.cond_br(cmp, contiguous_dest, other_dest)
    if has_branch_weight_md(si):
        weights = get_branch_weights(si)
        if len(weights) == 1 + si.num_cases:
            true_w = 0
            false_w = 0
            for i, w in enumerate(weights):
                if si.get_successor(i) is contiguous_dest:
                    true_w += w
                else:
                    false_w += w
            while true_w > _U32_MAX or false_w > _U32_MAX:
                true_w //= 2
                false_w //= 2
            set_branch_weights_if_nonzero(new_bi, [true_w, false_w])
    default = si.default_dest
    previous = len(contiguous) + (1 if contiguous_dest is default else 0)
    for phi in list(contiguous_dest.phis()):
        for _ in range(previous - 1):
            phi.remove_incoming_value(bb, delete_if_empty=True)
    previous = si.num_cases - len(contiguous) + (1 if other_dest is default else 0)
    for phi in list(other_dest.phis()):
        for _ in range(previous - 1):
            phi.remove_incoming_value(bb, delete_if_empty=True)
    if not has_default:
        create_unreachable_switch_default(si)
    si.erase_from_parent()
    return True


def eliminate_dead_switch_cases(si: SwitchInst, ac: object | None, dl: DataLayout) -> bool:
    """Remove the cases the condition's known bits rule out; make the default
    unreachable when the cases cover every possible value, or a case when one value
    is missing (LLVM ``eliminateDeadSwitchCases``)."""
    cond = si.condition
    ty = cond.type
    assert isinstance(ty, IntegerType)
    q = SimplifyQuery(dl, ac=_as_assumption_cache(ac), cxt_i=si)
    known = compute_known_bits(cond, q)
    max_significant = compute_max_significant_bits(cond, q)
    width = ty.width
    dead: list[ConstantInt] = []
    for value, _dest in si.cases:
        v = value.value
        if known.zero & v or (known.one & ~v) or _significant_bits(value.sext_value) > max_significant:
            dead.append(value)
    has_default = not has_unreachable_default(si)
    num_unknown = width - bin(known.zero | known.one).count("1")
    if has_default and not dead and num_unknown < 64:
        all_cases = 1 << num_unknown
        if si.num_cases == all_cases:
            create_unreachable_switch_default(si)
            return True
        if si.num_cases == all_cases - 1:
            if width > 64 or not dl.fits_in_legal_integer(width):
                return False
            missing = 0
            for value in si.case_values:
                missing ^= value.value
            wrapper = SwitchInstProfUpdateWrapper(si)
            wrapper.add_case(ConstantInt.get(ty, missing), si.default_dest, wrapper.get_successor_weight(0))
            create_unreachable_switch_default(si, remove_orig_default=False)
            wrapper.set_successor_weight(0, 0)
            wrapper.commit()
            return True
    if not dead:
        return False
    bb = si.parent
    assert bb is not None
    wrapper = SwitchInstProfUpdateWrapper(si)
    # Where each case value is now: a removal moves the last case into the hole.
    position: dict[ConstantInt, int] = {v: i for i, v in enumerate(si.case_values)}
    for value in dead:
        index = position.pop(value)
        remove_predecessor(si.get_case_dest(index), bb)
        last = si.num_cases - 1
        if index != last:
            position[si.get_case_value(last)] = index
        wrapper.remove_case(index)
    wrapper.commit()
    return True


def _as_assumption_cache(ac: object | None) -> AssumptionCache | None:
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache

    return ac if isinstance(ac, AssumptionCache) else None


def _significant_bits(v: int) -> int:
    """The bits a signed ``v`` needs, sign bit included (APInt ``getSignificantBits``)."""
    return (v if v >= 0 else ~v).bit_length() + 1


# --- condition forwarding ---------------------------------------------------------------------


def _find_phi_for_condition_forwarding(case_value: ConstantInt, bb: BasicBlock) -> tuple[PHINode, int] | None:
    """When ``bb`` is an empty block reached only from the switch and branching on,
    the first phi of its successor taking ``case_value`` from it, with the index
    (LLVM ``FindPHIForConditionForwarding``)."""
    term = bb.terminator
    if first_non_phi_or_dbg(bb) is not term or bb.single_predecessor is None:
        return None
    if not isinstance(term, BranchInst) or not term.is_unconditional:
        return None
    for phi in term.get_successor(0).phis():
        idx = phi.basic_block_index(bb)
        assert idx >= 0, "PHI has no entry for predecessor?"
        if phi.get_incoming_value(idx) is case_value:
            return phi, idx
    return None


def forward_switch_condition_to_phi(si: SwitchInst) -> bool:
    """Replace phi entries that repeat the case value by the switch condition, when
    that lets blocks fold away (LLVM ``ForwardSwitchConditionToPHI``)."""
    switch_bb = si.parent
    assert switch_bb is not None
    cond = si.condition
    forwarding: dict[PHINode, list[int]] = {}
    changed = False
    for case_value, case_dest in si.cases:
        for phi in case_dest.phis():
            idx = phi.basic_block_index(switch_bb)
            if phi.get_incoming_value(idx) is case_value and phi.incoming_blocks.count(switch_bb) == 1:
                phi.set_incoming_value(idx, cond)
                changed = True
        found = _find_phi_for_condition_forwarding(case_value, case_dest)
        if found is not None:
            forwarding.setdefault(found[0], []).append(found[1])
    for phi, indexes in forwarding.items():
        if len(indexes) < 2 and not any(v is cond for v in phi.incoming_values):
            continue
        for idx in indexes:
            phi.set_incoming_value(idx, cond)
        changed = True
    return changed


# --- case results (shared with the lookup tables) ---------------------------------------------


def _is_thread_or_dllimport_dependent(c: Constant) -> bool:
    """``c`` is or uses a thread-local or dllimport global (LLVM ``isThreadDependent`` /
    ``isDLLImportDependent``)."""
    stack: list[Value] = [c]
    seen: set[int] = set()
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if isinstance(v, GlobalValue):
            if v.thread_local_mode is not ThreadLocalMode.NOT_THREAD_LOCAL:
                return True
            if v.dll_storage_class is DLLStorageClass.DLLIMPORT:
                return True
            continue
        if isinstance(v, Constant):
            for op in v.operands:
                if isinstance(op, Constant):
                    stack.append(op)
    return False


def _strip_in_bounds_constant_offsets(c: ConstantExpr) -> Value:
    """Through pointer casts and inbounds GEPs of constant indices (LLVM
    ``stripInBoundsConstantOffsets``, for constants)."""
    v: Value = c
    if v.type.type_id is not TypeID.POINTER:
        return v
    while isinstance(v, ConstantExpr):
        op = v.opcode
        ops = v.operands
        if op == "getelementptr":
            if not v.flags & 1 or not all(isinstance(i, ConstantInt) for i in ops[1:]):
                return v
        elif op not in ("bitcast", "addrspacecast") or ops[0].type.type_id is not TypeID.POINTER:
            return v
        v = ops[0]
    return v


def valid_lookup_table_constant(c: Constant) -> bool:
    """The backend can put ``c`` in a constant table (LLVM ``ValidLookupTableConstant``;
    the target-independent answer accepts every constant kind it checks)."""
    if isinstance(c, ConstantInt):
        return True
    if _is_thread_or_dllimport_dependent(c):
        return False
    if not isinstance(c, (ConstantFP, ConstantInt, ConstantPointerNull, GlobalValue, UndefValue, ConstantExpr)):
        return False
    if isinstance(c, ConstantExpr):
        stripped = _strip_in_bounds_constant_offsets(c)
        if stripped is c or not isinstance(stripped, Constant) or not valid_lookup_table_constant(stripped):
            return False
    return True


def _lookup_constant(v: Value, pool: dict[Value, Constant]) -> Constant | None:
    if isinstance(v, Constant):
        return v
    return pool.get(v)


def _constant_fold(inst: Instruction, dl: DataLayout, pool: dict[Value, Constant]) -> Constant | None:
    """``inst`` evaluated with the pool's constants for its operands (SimplifyCFG's
    ``ConstantFold``)."""
    if isinstance(inst, SelectInst):
        a = _lookup_constant(inst.condition, pool)
        if a is None:
            return None
        if isinstance(a, ConstantInt) and a.value == a.type.mask:
            return _lookup_constant(inst.true_value, pool)
        if a.is_null_value:
            return _lookup_constant(inst.false_value, pool)
        return None
    if isinstance(inst, PHINode):
        return None
    ops: list[Constant] = []
    for op in inst.operands:
        c = _lookup_constant(op, pool)
        if c is None:
            return None
        ops.append(c)
    return constant_fold_inst_operands(inst, ops, dl)


def get_case_results(
    si: SwitchInst,
    case_val: ConstantInt | None,
    case_dest: BasicBlock,
    common_dest: list[BasicBlock | None],
    dl: DataLayout,
    index_cache: dict[PHINode, dict[BasicBlock, int]] | None = None,
) -> list[tuple[PHINode, Constant]] | None:
    """The constants the phis of the common destination receive when the switch goes
    to ``case_dest`` for ``case_val`` (None for the default), through at most one
    block of side-effect-free instructions; None when that cannot be told
    (LLVM ``getCaseResults``). ``common_dest[0]`` is set on first use. A caller asking
    for many cases passes ``index_cache`` (the phis' first index of each incoming
    block, built once per phi) so the phi lookups stay linear overall."""
    pred = si.parent
    assert pred is not None
    pool: dict[Value, Constant] = {}
    if case_val is not None:
        pool[si.condition] = case_val
    for inst in case_dest:
        if _is_debug_intrinsic(inst):
            continue
        if inst.is_terminator:
            succs = inst.successors
            if len(succs) != 1 or inst.opcode in _SPECIAL_TERMINATORS:
                return None
            pred = case_dest
            case_dest = succs[0]
            continue
        c = _constant_fold(inst, dl, pool)
        if c is None:
            break
        for use in inst.uses:
            user = use.user
            if isinstance(user, Instruction) and user.parent is case_dest:
                continue
            if isinstance(user, PHINode) and user.get_incoming_block_for_use(use) is case_dest:
                continue
            return None
        pool[inst] = c
    if common_dest[0] is None:
        common_dest[0] = case_dest
    if case_dest is not common_dest[0]:
        return None
    res: list[tuple[PHINode, Constant]] = []
    for phi in case_dest.phis():
        if index_cache is None:
            idx = phi.basic_block_index(pred)
        else:
            first = index_cache.get(phi)
            if first is None:
                first = index_cache[phi] = _first_index_of_blocks(phi)
            idx = first.get(pred, -1)
        if idx == -1:
            continue
        const = _lookup_constant(phi.get_incoming_value(idx), pool)
        if const is None or not valid_lookup_table_constant(const):
            return None
        res.append((phi, const))
    return res if res else None


def _first_index_of_blocks(phi: PHINode) -> dict[BasicBlock, int]:
    first: dict[BasicBlock, int] = {}
    for i, b in enumerate(phi.incoming_blocks):
        first.setdefault(b, i)
    return first


def _is_debug_intrinsic(inst: Instruction) -> bool:
    if inst.opcode != "call":
        return False
    callee = inst.operands[-1] if inst.operands else None
    name = getattr(callee, "name", "")
    return isinstance(name, str) and name.startswith("llvm.dbg.")


def _map_case_to_result(case_val: ConstantInt, unique: CaseResults, result: Constant) -> int:
    for res, vals in unique:
        if res is result:
            vals.append(case_val)
            return len(vals)
    unique.append((result, [case_val]))
    return 1


def initialize_unique_cases(
    si: SwitchInst, dl: DataLayout, max_unique_results: int
) -> tuple[PHINode, CaseResults, Constant | None] | None:
    """The one phi the switch feeds, its results grouped by value, and the default's
    result (None when the default is unreachable); None when the switch does not fit
    (LLVM ``initializeUniqueCases``)."""
    from llvmpy_mid.transform.utils.simplify_cfg import option_int

    max_per_result = option_int("max-switch-cases-per-result", 16)
    phi: PHINode | None = None
    common: list[BasicBlock | None] = [None]
    unique: CaseResults = []
    cache: dict[PHINode, dict[BasicBlock, int]] = {}
    for case_val, case_dest in si.cases:
        results = get_case_results(si, case_val, case_dest, common, dl, cache)
        if results is None or len(results) > 1:
            return None
        if _map_case_to_result(case_val, unique, results[0][1]) > max_per_result:
            return None
        if len(unique) > max_unique_results:
            return None
        if phi is None:
            phi = results[0][0]
        elif phi is not results[0][0]:
            return None
    default_results = get_case_results(si, None, si.default_dest, common, dl, cache)
    default_result = default_results[0][1] if default_results is not None and len(default_results) == 1 else None
    if default_result is None and not has_unreachable_default(si):
        return None
    if phi is None:
        return None
    return phi, unique, default_result


def _fold_switch_to_select(
    results: CaseResults, default: Constant | None, cond: Value, b: IRBuilder
) -> Value | None:
    """The select chain that replaces a switch with two results (LLVM ``foldSwitchToSelect``)."""
    if len(results) == 2 and len(results[0][1]) == 1 and len(results[1][1]) == 1:
        first_case = results[0][1][0]
        second_case = results[1][1][0]
        select_value: Value = results[1][0]
        if default is not None:
            cmp = b.create_icmp("eq", cond, second_case, "switch.selectcmp")
            select_value = b.create_select(cmp, results[1][0], default, "switch.select")
        cmp = b.create_icmp("eq", cond, first_case, "switch.selectcmp")
        return b.create_select(cmp, results[0][0], select_value, "switch.select")
    if len(results) == 1 and default is not None:
        case_values = results[0][1]
        count = len(case_values)
        if count & (count - 1) == 0:
            min_case = case_values[0]
            for c in case_values:
                if c.sext_value < min_case.sext_value:
                    min_case = c
            ty = min_case.type
            mask = 0
            for c in case_values:
                mask |= (c.value - min_case.value) & ty.mask
            if bin(mask).count("1") == count.bit_length() - 1:
                if not min_case.is_null_value:
                    cond = b.create_sub(cond, min_case)
                and_ = b.create_and(cond, ConstantInt.get(ty, ~mask), "switch.and")
                cmp = b.create_icmp("eq", and_, ConstantInt.get(ty, 0), "switch.selectcmp")
                return b.create_select(cmp, results[0][0], default)
        if count == 2:
            cmp1 = b.create_icmp("eq", cond, case_values[0], "switch.selectcmp.case1")
            cmp2 = b.create_icmp("eq", cond, case_values[1], "switch.selectcmp.case2")
            cmp = b.create_or(cmp1, cmp2, "switch.selectcmp")
            return b.create_select(cmp, results[0][0], default)
    return None


def _remove_switch_after_select_fold(si: SwitchInst, phi: PHINode, select_value: Value, b: IRBuilder) -> None:
    """Branch to the phi's block with the select as its entry and drop the switch
    (LLVM ``removeSwitchAfterSelectFold``)."""
    select_bb = si.parent
    dest_bb = phi.parent
    assert select_bb is not None and dest_bb is not None
    b.br(dest_bb)
    phi.remove_incoming_value_if(lambda i: phi.get_incoming_block(i) is select_bb)
    phi.add_incoming(select_value, select_bb)
    for succ in si.successors:
        if succ is dest_bb:
            continue
        remove_predecessor(succ, select_bb)
    si.erase_from_parent()


def try_switch_to_select(si: SwitchInst, dl: DataLayout, tti: object) -> bool:
    """A switch that only picks one of two constants for a phi becomes selects
    (LLVM ``trySwitchToSelect``)."""
    found = initialize_unique_cases(si, dl, 2)
    if found is None:
        return False
    phi, unique, default = found
    b = _builder_at(si)
    select_value = _fold_switch_to_select(unique, default, si.condition, b)
    if select_value is None:
        return False
    _remove_switch_after_select_fold(si, phi, select_value, b)
    return True


# --- range reduction --------------------------------------------------------------------------


def is_switch_dense(num_cases: int, case_range: int) -> bool:
    """At least 40% of the range is covered (LLVM ``isSwitchDense``)."""
    if case_range >= _U64 // 100:
        return False
    return num_cases * 100 >= case_range * 40


def _is_switch_dense_values(values: list[int]) -> bool:
    """:func:`is_switch_dense` of sorted signed 64-bit values."""
    diff = (values[-1] - values[0]) & _U64
    rng = (diff + 1) & _U64
    if rng < diff:
        return False
    return is_switch_dense(len(values), rng)


def _to_i64(v: int) -> int:
    v &= _U64
    return v - (1 << 64) if v >> 63 else v


def simplify_switch_of_powers_of_two(si: SwitchInst, dl: DataLayout, tti: object) -> bool:
    """Cases that are all powers of two, under an unreachable default, switch on the
    condition's trailing-zero count when ``cttz`` is cheap (LLVM ``simplifySwitchOfPowersOfTwo``)."""
    cond = si.condition
    ty = cond.type
    assert isinstance(ty, IntegerType)
    if ty.width > 64 or not dl.fits_in_legal_integer(ty.width):
        return False
    if isinstance(tti, TargetTransformInfo) and tti.get_intrinsic_instr_cost("llvm.cttz") > TCC_BASIC:
        return False
    if si.num_cases < 4 or not has_unreachable_default(si):
        return False
    values: list[int] = []
    for v in si.case_values:
        x = v.value
        if x == 0 or x & (x - 1):
            return False
        values.append(x)
    values.sort()
    if not is_switch_dense(len(values), _ctz(values[-1]) - _ctz(values[0]) + 1):
        return False
    b = _builder_at(si)
    for i in range(si.num_cases):
        orig = si.get_case_value(i)
        si.set_case_value(i, ConstantInt.get(ty, _ctz(orig.value)))
    tz = b.create_intrinsic("cttz", [ty], [cond, ConstantInt.get_true(ty)])
    si.condition = tz
    return True


def _ctz(v: int) -> int:
    return (v & -v).bit_length() - 1


def reduce_switch_range(si: SwitchInst, dl: DataLayout, tti: object) -> bool:
    """Sparse cases with a common power-of-two stride switch on
    ``fshl(x - base, x - base, width - shift)`` with the cases rebased and divided
    (LLVM ``ReduceSwitchRange``)."""
    ty = si.condition.type
    assert isinstance(ty, IntegerType)
    width = ty.width
    if width > 64 or not dl.fits_in_legal_integer(width):
        return False
    if si.num_cases < 4:
        return False
    values = sorted(c.sext_value for c in si.case_values)
    if _is_switch_dense_values(values):
        return False
    base = values[0]
    values = [_to_i64(v - base) for v in values]
    shift = 64
    for v in values:
        u = v & _U64
        shift = min(shift, 64 if u == 0 else _ctz(u))
    assert shift < 64
    if shift > 0:
        values = [_to_i64((v & _U64) >> shift) for v in values]
    if not _is_switch_dense_values(values):
        return False
    b = _builder_at(si)
    cond = si.condition
    sub = b.create_sub(cond, ConstantInt.get(ty, base))
    rot = b.create_intrinsic("fshl", [ty], [sub, sub, ConstantInt.get(ty, width - shift)])
    si.condition = rot
    base_w = base & ty.mask
    for i in range(si.num_cases):
        orig = si.get_case_value(i)
        si.set_case_value(i, ConstantInt.get(ty, ((orig.value - base_w) & ty.mask) >> shift))
    return True


__all__ = [
    "CaseResults",
    "create_unreachable_switch_default",
    "eliminate_dead_switch_cases",
    "forward_switch_condition_to_phi",
    "get_case_results",
    "has_unreachable_default",
    "initialize_unique_cases",
    "is_switch_dense",
    "reduce_switch_range",
    "simplify_switch_of_powers_of_two",
    "try_switch_to_select",
    "turn_switch_range_into_icmp",
    "valid_lookup_table_constant",
]
