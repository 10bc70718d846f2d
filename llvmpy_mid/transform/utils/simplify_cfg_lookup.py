"""Switches to lookup tables (LLVM 19.1.7 ``llvm/lib/Transforms/Utils/SimplifyCFG.cpp``:
``SwitchToLookupTable``, ``SwitchLookupTable``, ``ShouldBuildLookupTable``,
``ShouldUseSwitchConditionAsTableIndex``, ``isTypeLegalForLookupTable``,
``reuseTableCompare``).

What: a switch whose only job is to give the phis of one common destination a
constant per case is replaced by a computation of each phi's value from the
table index (the condition, or the condition minus the smallest case,
``switch.tableidx``), in a new ``switch.lookup`` block reached after a range check
(or directly when the default is unreachable or the table covers every value).
Each phi's table takes the cheapest form: one value; a linear map
(``switch.idx.mult`` / ``switch.offset``); a bitmap in a legal integer
(``switch.shiftamt`` / ``switch.downshift`` / ``switch.masked``); or a
``switch.table.<function>`` private constant array read through ``switch.gep`` /
``switch.load``. A table with holes whose default gives no constant checks a hole
mask first (``switch.hole_check``).

Legal types come from the target cost model (``TargetTransformInfo.is_type_legal``:
none without a target); lookup tables are allowed for every constant. The dominator tree is not updated.
"""
from __future__ import annotations

from llvmpy_mid.analysis.constant_folding import constant_fold_compare_inst_operands
from llvmpy_mid.analysis.constant_range_analysis import compute_constant_range
from llvmpy_mid.analysis.target_transform_info import TargetTransformInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import Constant, ConstantArray, ConstantInt, UndefValue
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.global_value import GlobalVariable, Linkage, UnnamedAddr
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.cmp import ICmpInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst, SwitchInst
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.types import ArrayType, IntegerType, Type
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor
from llvmpy_mid.transform.utils.simplify_cfg_common import add_predecessor_to_block
from llvmpy_mid.transform.utils.simplify_cfg_switch import get_case_results, has_unreachable_default, is_switch_dense

_U64 = (1 << 64) - 1
_UINT_MAX = (1 << 32) - 1

_SINGLE_VALUE = 0
_LINEAR_MAP = 1
_BIT_MAP = 2
_ARRAY = 3


def _limited(v: int) -> int:
    """APInt ``getLimitedValue``: the unsigned value, saturated at 2**64 - 1."""
    return v if v <= _U64 else _U64


def _signed(v: int, width: int) -> int:
    return v - (1 << width) if v >> (width - 1) & 1 else v


def would_fit_in_register(dl: DataLayout, table_size: int, element_type: Type) -> bool:
    """A table of ``table_size`` integers of ``element_type`` fits in a legal integer
    (LLVM ``SwitchLookupTable::WouldFitInRegister``)."""
    if not isinstance(element_type, IntegerType):
        return False
    width = element_type.width
    if table_size >= _UINT_MAX // width:
        return False
    return dl.fits_in_legal_integer(table_size * width)


class SwitchLookupTable:
    """One phi's table, in the cheapest of LLVM's four forms (LLVM ``SwitchLookupTable``)."""

    __slots__ = ("kind", "single_value", "bitmap", "bitmap_element_type", "linear_offset",
                 "linear_multiplier", "linear_map_val_wrapped", "array")

    def __init__(
        self,
        module: Module,
        table_size: int,
        offset: ConstantInt,
        values: list[tuple[ConstantInt, Constant]],
        default_value: Constant | None,
        dl: DataLayout,
        func_name: str,
    ) -> None:
        assert values and table_size >= len(values)
        self.bitmap: ConstantInt | None = None
        self.bitmap_element_type: IntegerType | None = None
        self.linear_offset: ConstantInt | None = None
        self.linear_multiplier: ConstantInt | None = None
        self.linear_map_val_wrapped = False
        self.array: GlobalVariable | None = None
        single: Constant | None = values[0][1]
        value_type = values[0][1].type
        contents: list[Constant | None] = [None] * table_size
        mask = offset.type.mask
        for case_val, case_res in values:
            idx = _limited((case_val.value - offset.value) & mask)
            contents[idx] = case_res
            if case_res is not single:
                single = None
        if len(values) < table_size:
            assert default_value is not None, "Need a default value to fill the lookup table holes."
            for i in range(table_size):
                if contents[i] is None:
                    contents[i] = default_value
            if default_value is not single:
                single = None
        table: list[Constant] = [c for c in contents if c is not None]
        self.single_value = single
        if single is not None:
            self.kind = _SINGLE_VALUE
            return
        if isinstance(value_type, IntegerType) and self._try_linear_map(table, value_type, table_size):
            self.kind = _LINEAR_MAP
            return
        if would_fit_in_register(dl, table_size, value_type):
            assert isinstance(value_type, IntegerType)
            ew = value_type.width
            bits = 0
            for i in range(table_size, 0, -1):
                bits <<= ew
                c = table[i - 1]
                if not isinstance(c, UndefValue):
                    assert isinstance(c, ConstantInt)
                    bits |= c.value
            self.bitmap = ConstantInt.get(value_type.context.int_type(table_size * ew), bits)
            self.bitmap_element_type = value_type
            self.kind = _BIT_MAP
            return
        ctx = value_type.context
        array_ty = ctx.array_type(value_type, table_size)
        init = ConstantArray.get(array_ty, table)
        gv = GlobalVariable(array_ty, "switch.table." + func_name, Linkage.PRIVATE, init, True, module=module)
        gv.unnamed_addr = UnnamedAddr.GLOBAL
        gv.alignment = dl.pref_alignment(value_type)
        self.array = gv
        self.kind = _ARRAY

    def _try_linear_map(self, table: list[Constant], ty: IntegerType, table_size: int) -> bool:
        width = ty.width
        mask = ty.mask
        prev = 0
        dist = 0
        non_monotonic = False
        for i, c in enumerate(table):
            if not isinstance(c, ConstantInt):
                return False
            val = c.value
            if i != 0:
                d = (val - prev) & mask
                if i == 1:
                    dist = d
                elif d != dist:
                    return False
                if _signed(d, width) > 0:
                    non_monotonic |= _signed(val, width) <= _signed(prev, width)
                else:
                    non_monotonic |= _signed(val, width) > _signed(prev, width)
            prev = val
        first = table[0]
        assert isinstance(first, ConstantInt)
        self.linear_offset = first
        self.linear_multiplier = ConstantInt.get(ty, dist)
        product = _signed(dist, width) * _signed((table_size - 1) & mask, width)
        may_wrap = not (-(1 << (width - 1)) <= product < (1 << (width - 1)))
        self.linear_map_val_wrapped = non_monotonic or may_wrap
        return True

    def build_lookup(self, index: Value, b: IRBuilder, dl: DataLayout) -> Value:
        """The instructions that read the value at ``index`` (LLVM ``BuildLookup``)."""
        if self.kind == _SINGLE_VALUE:
            assert self.single_value is not None
            return self.single_value
        if self.kind == _LINEAR_MAP:
            mult = self.linear_multiplier
            off = self.linear_offset
            assert mult is not None and off is not None
            result = b.create_zext_or_trunc(index, mult.type, "switch.idx.cast")
            nsw = not self.linear_map_val_wrapped
            if mult.value != 1:
                result = b.create_mul(result, mult, "switch.idx.mult", nsw=nsw)
            if off.value != 0:
                result = b.create_add(result, off, "switch.offset", nsw=nsw)
            return result
        if self.kind == _BIT_MAP:
            bitmap = self.bitmap
            ety = self.bitmap_element_type
            assert bitmap is not None and ety is not None
            map_ty = bitmap.type
            shift = b.create_zext_or_trunc(index, map_ty, "switch.cast")
            shift = b.create_mul(shift, ConstantInt.get(map_ty, ety.width), "switch.shiftamt", nuw=True, nsw=True)
            down = b.create_lshr(bitmap, shift, "switch.downshift")
            return b.create_trunc(down, ety, "switch.masked")
        gv = self.array
        assert gv is not None
        ity = index.type
        assert isinstance(ity, IntegerType)
        array_ty = gv.value_type
        assert isinstance(array_ty, ArrayType)
        size = array_ty.count
        if size > (1 << min(ity.width - 1, 63)):
            index = b.create_zext(index, ity.context.int_type(ity.width + 1), "switch.tableidx.zext")
        gep = b.create_gep(array_ty, gv, [ConstantInt.get(ity.context.i32, 0), index], "switch.gep", inbounds=True)
        elem_ty = array_ty.element_type
        return b.load(elem_ty, gep, "switch.load", alignment=dl.abi_alignment(elem_ty))


def _is_type_legal_for_lookup_table(ty: Type, dl: DataLayout, tti: object = None) -> bool:
    """A type the target holds in a register (``isTypeLegal``; none without a target), or a
    power-of-two integer of 8 bits or more that fits a legal integer (LLVM
    ``isTypeLegalForLookupTable``)."""
    if isinstance(tti, TargetTransformInfo) and tti.is_type_legal(ty):
        return True
    if not isinstance(ty, IntegerType):
        return False
    w = ty.width
    return w >= 8 and w & (w - 1) == 0 and dl.fits_in_legal_integer(w)


def _should_build_lookup_table(
    si: SwitchInst, table_size: int, dl: DataLayout, result_types: list[Type], tti: object = None
) -> bool:
    """LLVM ``ShouldBuildLookupTable``."""
    if si.num_cases > table_size:
        return False
    all_fit = True
    has_illegal = False
    for ty in result_types:
        has_illegal = has_illegal or not _is_type_legal_for_lookup_table(ty, dl, tti)
        all_fit = all_fit and would_fit_in_register(dl, table_size, ty)
        if has_illegal and not all_fit:
            break
    if all_fit:
        return True
    if has_illegal:
        return False
    return is_switch_dense(si.num_cases, table_size)


def _should_use_switch_condition_as_table_index(
    min_case: ConstantInt, max_case: ConstantInt, has_default_results: bool, result_types: list[Type], dl: DataLayout
) -> bool:
    """LLVM ``ShouldUseSwitchConditionAsTableIndex``."""
    if min_case.is_null_value:
        return True
    if min_case.sext_value < 0 or _limited(max_case.value) == _U64 or not has_default_results:
        return False
    size = _limited(max_case.value) + 1
    return all(would_fit_in_register(dl, size, ty) for ty in result_types)


def _reuse_table_compare(
    user: Value,
    phi_block: BasicBlock,
    range_check: BranchInst,
    default_value: Constant | None,
    values: list[tuple[ConstantInt, Constant]],
    dl: DataLayout,
) -> None:
    """Replace a compare of the phi against a constant by the range check (or its
    inverse) when it tells the same (LLVM ``reuseTableCompare``)."""
    if not isinstance(user, ICmpInst) or user.parent is not phi_block or default_value is None:
        return
    cmp_op1 = user.operands[1]
    if not isinstance(cmp_op1, Constant):
        return
    range_cmp = range_check.condition
    true_c = ConstantInt.get_true(range_cmp.type)
    false_c = ConstantInt.get_false(range_cmp.type)
    default_const = constant_fold_compare_inst_operands(user.predicate, default_value, cmp_op1, dl)
    if default_const is not true_c and default_const is not false_c:
        return
    for _case, res in values:
        case_const = constant_fold_compare_inst_operands(user.predicate, res, cmp_op1, dl)
        if case_const is None or case_const is default_const or (case_const is not true_c and case_const is not false_c):
            return
    branch_block = range_check.parent
    for pred in phi_block.predecessors:
        if pred is not branch_block and pred.unique_predecessor is not branch_block:
            return
    if default_const is false_c:
        user.replace_all_uses_with(range_cmp)
    else:
        inverted = BinaryOperator.create("xor", range_cmp, ConstantInt.get(range_cmp.type, 1), name="inverted.cmp")
        inverted.insert_before(range_check)
        user.replace_all_uses_with(inverted)


def switch_to_lookup_table(si: SwitchInst, dl: DataLayout, tti: object) -> bool:
    """Replace a switch that only selects constants for phis by table lookups
    (LLVM ``SwitchToLookupTable``)."""
    bb = si.parent
    assert bb is not None
    fn = bb.parent
    assert fn is not None
    attr = fn.attributes.get_fn_attr("no-jump-tables")
    if attr is not None and str(attr.value) == "true":
        return False
    if si.num_cases < 3:
        return False
    cases = si.cases
    min_case = cases[0][0]
    max_case = cases[0][0]
    common: list[BasicBlock | None] = [None]
    result_lists: dict[PHINode, list[tuple[ConstantInt, Constant]]] = {}
    phis: list[PHINode] = []
    cache: dict[PHINode, dict[BasicBlock, int]] = {}
    for case_val, case_dest in cases:
        if case_val.sext_value < min_case.sext_value:
            min_case = case_val
        if case_val.sext_value > max_case.sext_value:
            max_case = case_val
        results = get_case_results(si, case_val, case_dest, common, dl, cache)
        if results is None:
            return False
        for phi, value in results:
            lst = result_lists.get(phi)
            if lst is None:
                lst = result_lists[phi] = []
                phis.append(phi)
            lst.append((case_val, value))
    common_dest = common[0]
    assert common_dest is not None
    result_types: list[Type] = [result_lists[phi][0][1].type for phi in phis]
    num_results = len(result_lists[phis[0]])
    default_list = get_case_results(si, None, si.default_dest, common, dl, cache)
    has_default_results = default_list is not None
    default_results: dict[PHINode, Constant] = {}
    for phi, value in default_list or ():
        default_results[phi] = value
    use_cond_as_index = _should_use_switch_condition_as_table_index(
        min_case, max_case, has_default_results, result_types, dl
    )
    # A 64-bit count, wrapping as LLVM's uint64_t does.
    if use_cond_as_index:
        table_size = (_limited(max_case.value) + 1) & _U64
    else:
        table_size = (_limited((max_case.value - min_case.value) & max_case.type.mask) + 1) & _U64
    default_is_reachable = not has_unreachable_default(si)
    table_has_holes = num_results < table_size
    all_holes_are_undefined = table_has_holes and not has_default_results
    need_mask = all_holes_are_undefined and default_is_reachable
    if need_mask:
        if si.num_cases < 4:
            return False
        if not dl.fits_in_legal_integer(table_size):
            return False
    if not _should_build_lookup_table(si, table_size, dl, result_types, tti):
        return False
    case_ty = min_case.type
    case_size = case_ty.width
    max_table_size = _U64 if case_size > 63 else 1 << case_size
    module = fn.parent
    assert module is not None
    ctx = bb.context
    lookup_bb = BasicBlock(ctx, "switch.lookup", fn, common_dest)
    b = IRBuilder(folder=ConstantFolder())
    b.position_before(si)
    b.debug_loc = si.debug_loc
    table_index: Value
    if use_cond_as_index:
        offset = ConstantInt.get(case_ty, 0)
        table_index = si.condition
    else:
        offset = min_case
        may_wrap = True
        if not default_is_reachable:
            diff = max_case.sext_value - min_case.sext_value
            may_wrap = not (-(1 << (case_size - 1)) <= diff < (1 << (case_size - 1)))
        table_index = b.create_sub(si.condition, offset, "switch.tableidx", nsw=not may_wrap)
    range_check: BranchInst | None = None
    if use_cond_as_index and has_default_results:
        cr = compute_constant_range(table_index, False)
        upper = _limited(cr.upper)
        if not cr.is_upper_wrapped() and all(would_fit_in_register(dl, upper, ty) for ty in result_types):
            table_size = max(upper, table_size)
            default_is_reachable = False
    covered = max_table_size == table_size
    default_dest = si.default_dest
    if not default_is_reachable or covered:
        b.br(lookup_bb)
    else:
        cmp = b.create_icmp("ult", table_index, ConstantInt.get(case_ty, table_size))
        range_check = b.cond_br(cmp, lookup_bb, default_dest)
    b.position_at_end(lookup_bb)
    if need_mask:
        mask_bb = lookup_bb
        mask_bb.name = "switch.hole_check"
        lookup_bb = BasicBlock(ctx, "switch.lookup", fn, common_dest)
        pow2 = _next_power_of_2(max(7, table_size - 1))
        mask_int = 0
        for case_val, _res in result_lists[phis[0]]:
            idx = _limited((case_val.value - offset.value) & case_ty.mask)
            mask_int |= 1 << idx
        map_ty = ctx.int_type(pow2)
        table_mask = ConstantInt.get(map_ty, mask_int)
        mask_index = b.create_zext_or_trunc(table_index, map_ty, "switch.maskindex")
        shifted = b.create_lshr(table_mask, mask_index, "switch.shifted")
        lobit = b.create_trunc(shifted, ctx.i1, "switch.lobit")
        b.cond_br(lobit, lookup_bb, default_dest)
        b.position_at_end(lookup_bb)
        add_predecessor_to_block(default_dest, mask_bb, bb)
    if not default_is_reachable or covered:
        remove_predecessor(default_dest, bb, keep_one_input_phis=True)
    for phi in phis:
        result_list = result_lists[phi]
        dv = result_list[0][1] if all_holes_are_undefined else default_results.get(phi)
        table = SwitchLookupTable(module, table_size, offset, result_list, dv, dl, fn.name)
        result = table.build_lookup(table_index, b, dl)
        if not table_has_holes and has_default_results and range_check is not None:
            phi_block = phi.parent
            assert phi_block is not None
            for user in [u.user for u in phi.uses]:
                _reuse_table_compare(user, phi_block, range_check, dv, result_list, dl)
        phi.add_incoming(result, lookup_bb)
    b.br(common_dest)
    for succ in si.successors[1:]:
        if succ is default_dest:
            continue
        remove_predecessor(succ, bb)
    si.erase_from_parent()
    return True


def _next_power_of_2(a: int) -> int:
    """The smallest power of two strictly greater than ``a`` (LLVM ``NextPowerOf2``)."""
    return 1 << a.bit_length()


__all__ = ["SwitchLookupTable", "switch_to_lookup_table", "would_fit_in_register"]
