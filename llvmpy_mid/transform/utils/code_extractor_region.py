"""The region side of code extraction (LLVM ``lib/Transforms/Utils/CodeExtractor.cpp``):
which blocks may be extracted (``isBlockValidForExtraction``, ``buildExtractionBlockSet``),
``CodeExtractorAnalysisCache`` (the function's allocas and the blocks that may clobber
memory other than through them), and the small queries ``CodeExtractor`` shares.
"""

from __future__ import annotations

from typing import Sequence

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import BlockAddress, ConstantInt
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.pointer_casts import get_returned_arg_operand
from llvmpy_mid.ir.value import Value

ValueSet = dict[Value, None]
BlockSet = dict[BasicBlock, None]
_DEBUG_INTRINSICS = frozenset({"llvm.dbg.declare", "llvm.dbg.value", "llvm.dbg.assign", "llvm.dbg.label"})


# --- small queries ----------------------------------------------------------------------------
def _intrinsic_name(inst: Value) -> str:
    """The callee name of a call of an intrinsic, else ""."""
    if getattr(inst, "opcode", None) != "call":
        return ""
    callee = inst.called_function  # type: ignore[attr-defined]
    if callee is None or not callee.intrinsic_id:
        return ""
    name: str = callee.name
    return name


def _is_intrinsic(name: str, base: str) -> bool:
    return name == base or name.startswith(base + ".")


def _is_lifetime_marker(inst: Value) -> bool:
    name = _intrinsic_name(inst)
    return _is_intrinsic(name, "llvm.lifetime.start") or _is_intrinsic(name, "llvm.lifetime.end")


def _is_debug_intrinsic(inst: Value) -> bool:
    return _intrinsic_name(inst) in _DEBUG_INTRINSICS


def strip_in_bounds_constant_offsets(v: Value) -> Value:
    """LLVM ``Value::stripInBoundsConstantOffsets``: through casts of pointers, inbounds
    GEPs with constant indices and calls' ``returned`` arguments."""
    if not v.type.is_pointer:
        return v
    seen: set[int] = set()
    while id(v) not in seen:
        seen.add(id(v))
        op = getattr(v, "opcode", None)
        if op == "getelementptr":
            flags = v._gep_flags if v.is_instruction else v.flags  # type: ignore[attr-defined]
            ops = v.operands  # type: ignore[attr-defined]
            if not flags & 1 or not all(isinstance(i, ConstantInt) for i in ops[1:]):
                return v
            v = ops[0]
        elif op in ("bitcast", "addrspacecast"):
            nxt = v.operands[0]  # type: ignore[attr-defined]
            if not nxt.type.is_pointer:
                return v
            v = nxt
        elif op in ("call", "invoke", "callbr"):
            ret = get_returned_arg_operand(v)  # type: ignore[arg-type]
            if ret is None:
                return v
            v = ret
        else:
            return v
    return v


def _defined_in_region(blocks: BlockSet, v: Value) -> bool:
    return v.is_instruction and v.parent in blocks  # type: ignore[attr-defined]


def _defined_in_caller(blocks: BlockSet, v: Value) -> bool:
    if getattr(v, "is_argument", False):
        return True
    return v.is_instruction and v.parent not in blocks  # type: ignore[attr-defined]


# --- block set validation ---------------------------------------------------------------------
def is_block_valid_for_extraction(bb: BasicBlock, result: BlockSet, allow_var_args: bool, allow_alloca: bool) -> bool:
    """LLVM ``isBlockValidForExtraction``."""
    if bb.has_address_taken:
        return False
    visited: set[int] = set()
    stack: list[Value] = list(bb)
    while stack:
        cur = stack.pop()
        if id(cur) in visited:
            continue
        visited.add(id(cur))
        if isinstance(cur, BlockAddress):
            return False
        if cur.is_instruction and cur.parent is not bb:  # type: ignore[attr-defined]
            continue
        ops = getattr(cur, "operands", None)
        if ops is None:
            continue
        for op in ops:
            if op is not None and hasattr(op, "operands"):
                stack.append(op)
    for inst in bb:
        op = inst.opcode
        if op == "alloca":
            if not allow_alloca:
                return False
        elif op == "invoke":
            if inst.successors[1] not in result:
                return False
        elif op == "catchswitch":
            unwind = inst.unwind_dest  # type: ignore[attr-defined]
            if unwind is not None and unwind not in result:
                return False
            if any(h not in result for h in inst.handlers):  # type: ignore[attr-defined]
                return False
        elif op in ("catchpad", "cleanuppad"):
            ret_op = "catchret" if op == "catchpad" else "cleanupret"
            for user in inst.users:
                if getattr(user, "opcode", None) == ret_op and user.parent not in result:  # type: ignore[attr-defined]
                    return False
        elif op == "cleanupret":
            unwind = inst.unwind_dest  # type: ignore[attr-defined]
            if unwind is not None and unwind not in result:
                return False
        elif op == "call":
            name = _intrinsic_name(inst)
            if _is_intrinsic(name, "llvm.va_start"):
                if not allow_var_args:
                    return False
            elif _is_intrinsic(name, "llvm.eh.typeid.for"):
                return False
    return True


def build_extraction_block_set(
    bbs: Sequence[BasicBlock], dt: DominatorTree | None, allow_var_args: bool, allow_alloca: bool
) -> BlockSet:
    """LLVM ``buildExtractionBlockSet``: the blocks (unreachable ones dropped when a
    dominator tree is given), or an empty set when the region cannot be extracted."""
    result: BlockSet = {}
    for bb in bbs:
        if dt is not None and not dt.is_reachable(bb):
            continue
        if bb in result:
            raise ValueError("Repeated basic blocks in extraction input")
        result[bb] = None
    if not result:
        return result
    front = next(iter(result))
    for bb in result:
        if not is_block_valid_for_extraction(bb, result, allow_var_args, allow_alloca):
            return {}
        if bb is front:
            first = bb.first_instruction
            if first is not None and first.is_eh_pad:
                return {}
            continue
        for pred in bb.predecessors:
            if pred not in result:
                return {}
    return result


def _common_exit_block(blocks: BlockSet) -> BasicBlock | None:
    common: BasicBlock | None = None
    for bb in blocks:
        for succ in bb.successors:
            if succ in blocks:
                continue
            if common is None:
                common = succ
            elif common is not succ:
                return None
    return common


# --- the analysis cache -----------------------------------------------------------------------
class CodeExtractorAnalysisCache:
    """LLVM ``CodeExtractorAnalysisCache``: the function's allocas and, per block,
    whether it may clobber memory other than through known allocas."""

    def __init__(self, fn: Function) -> None:
        self.allocas: list[Instruction] = []
        self.side_effecting_blocks: set[BasicBlock] = set()
        self.base_mem_addrs: dict[BasicBlock, set[Value]] = {}
        for bb in fn.blocks:
            for inst in bb:
                if inst.opcode == "alloca":
                    self.allocas.append(inst)
            self._find_side_effect_info_for_block(bb)

    def _find_side_effect_info_for_block(self, bb: BasicBlock) -> None:
        for inst in bb:
            op = inst.opcode
            if op in ("load", "store"):
                addr: Value = inst.pointer_operand  # type: ignore[attr-defined]
                if addr.is_constant:
                    continue
                base = strip_in_bounds_constant_offsets(addr)
                if getattr(base, "opcode", None) != "alloca":
                    self.side_effecting_blocks.add(bb)
                    return
                self.base_mem_addrs.setdefault(bb, set()).add(base)
                continue
            name = _intrinsic_name(inst)
            if name:
                if name in _DEBUG_INTRINSICS or name == "llvm.pseudoprobe":
                    continue
                if _is_lifetime_marker(inst):
                    continue
                self.side_effecting_blocks.add(bb)
                return
            if inst.may_have_side_effects():
                self.side_effecting_blocks.add(bb)
                return

    def does_block_contain_clobber_of_addr(self, bb: BasicBlock, addr: Value) -> bool:
        if bb in self.side_effecting_blocks:
            return True
        addrs = self.base_mem_addrs.get(bb)
        return addrs is not None and addr in addrs


__all__ = [
    "BlockSet",
    "CodeExtractorAnalysisCache",
    "ValueSet",
    "build_extraction_block_set",
    "is_block_valid_for_extraction",
    "strip_in_bounds_constant_offsets",
]
