"""The inliner's AMDGPU hooks (LLVM 19.1.7 ``lib/Target/AMDGPU/AMDGPUTargetTransformInfo.cpp``:
``GCNTTIImpl::areInlineCompatible`` with its ``InlineFeatureIgnoreList``,
``getInliningThresholdMultiplier``,
``adjustInliningThreshold``, ``getCallerAllocaCost``, ``getInlinerVectorBonusPercent``;
``SIModeRegisterDefaults`` of ``SIModeRegisterDefaults.cpp``; ``SITargetLowering::
getNumRegistersForCallingConv`` and ``AMDGPU::isArgPassedInSGPR`` for the argument registers).

What: on ``amdgcn`` a callee is inlined only when its target features, less the codegen
and environment ones LLVM ignores (``load-store-opt``, ``xnack``, ``sramecc``,
``half-rate-64-ops``...), are within the caller's; when both agree on the ``amdgpu-ieee``
mode (default: on, except for shader calling conventions) and ``amdgpu-dx10-clamp`` (default
on), and — unless the callee is ``alwaysinline`` or ``inlinehint`` or a single block — the
two bodies together have at most ``-amdgpu-inline-max-bb`` (1100) blocks. The threshold is
multiplied by 11, there is no vector bonus, a call passing more than 26 SGPRs or 32 VGPRs
of arguments raises the threshold by 15 per register over, a call passing a static private
alloca raises it by ``-amdgpu-inline-arg-alloca-cost`` (4000), taken back per alloca (in
proportion to its size) when the allocas passed exceed ``-amdgpu-inline-arg-alloca-cutoff``
(256 bytes) and SROA of the callee fails. ``r600`` gets the generic feature-subset rule.
Switches count as bit tests or one cluster per case (no jump tables on AMDGPU).

What it does not do: CPU feature sets (a callee ``target-cpu`` other than unset,
``generic`` or the caller's is refused), implied features, the GFX12 modes (no IEEE or
DX10 clamp bits from ``gfx12`` CPUs on).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.inline_cost import option_int
from llvmpy_mid.analysis.inline_cost_target_aarch64 import cpu_allows, subtarget_features
from llvmpy_mid.analysis.inline_cost_target_basic import BasicInlinerHooks
from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.ir.calling_conv import KEYWORDS
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.types import ArrayType, IntegerType, PointerType, StructType, Type, VectorType

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout

INLINE_FEATURE_IGNORE_LIST = frozenset(
    {
        "load-store-opt",
        "si-scheduler",
        "unsafe-ds-offset-folding",
        "flat-for-global",
        "promote-alloca",
        "unaligned-scratch-access",
        "unaligned-access-mode",
        "auto-waitcnt-before-barrier",
        "sgpr-init-bug",
        "xnack",
        "trap-handler",
        "sramecc",
        "sram-ecc",  # not an LLVM 19 feature name: the subtarget drops it
        "fast-fmaf",
        "half-rate-64-ops",
    }
)
THRESHOLD_MULTIPLIER = 11
_SGPRS_UNTIL_SPILL = 26
_VGPRS_UNTIL_SPILL = 32
_ARG_STACK_COST = 3
"""One instruction plus an ``i32`` private store and load (1 each) per argument on the stack."""
_INSTR_COST = 5
_FLAT_ADDRESS = 0
_PRIVATE_ADDRESS = 5

_SHADER_CCS = frozenset(
    KEYWORDS[name]
    for name in (
        "amdgpu_vs",
        "amdgpu_ls",
        "amdgpu_hs",
        "amdgpu_es",
        "amdgpu_gs",
        "amdgpu_ps",
        "amdgpu_cs",
        "amdgpu_cs_chain",
        "amdgpu_cs_chain_preserve",
    )
)
_INREG_SGPR_CCS = frozenset(
    KEYWORDS[name]
    for name in (
        "amdgpu_vs",
        "amdgpu_ls",
        "amdgpu_hs",
        "amdgpu_es",
        "amdgpu_gs",
        "amdgpu_ps",
        "amdgpu_cs",
        "amdgpu_gfx",
        "amdgpu_cs_chain",
        "amdgpu_cs_chain_preserve",
    )
)
_KERNEL_CCS = frozenset((KEYWORDS["amdgpu_kernel"], KEYWORDS["spir_kernel"]))

# CPUs before GFX8 (Southern and Sea Islands): no 16-bit instructions.
_NO_16BIT_CPUS = frozenset(
    {"", "generic", "generic-hsa", "tahiti", "pitcairn", "verde", "oland", "hainan", "bonaire", "kabini", "kaveri",
     "hawaii", "mullins", "gfx600", "gfx601", "gfx602", "gfx700", "gfx701", "gfx702", "gfx703", "gfx704", "gfx705"}
)


def _cpu(fn: Function) -> str:
    attr = fn.attributes.get_fn_attr("target-cpu")
    return "" if attr is None else attr.value


def _mode(fn: Function) -> tuple[bool, bool]:
    """``SIModeRegisterDefaults``' ``(IEEE, DX10Clamp)`` of ``fn``."""
    ieee = fn.calling_conv not in _SHADER_CCS
    dx10_clamp = True
    if not _cpu(fn).startswith("gfx12"):
        attr = fn.attributes.get_fn_attr("amdgpu-ieee")
        if attr is not None and attr.value:
            ieee = attr.value == "true"
        attr = fn.attributes.get_fn_attr("amdgpu-dx10-clamp")
        if attr is not None and attr.value:
            dx10_clamp = attr.value == "true"
    return ieee, dx10_clamp


def _value_registers(ty: Type, dl: DataLayout, has_16bit: bool) -> int:
    """32-bit registers the pieces of ``ty`` take as call arguments (``ComputeValueVTs`` then
    ``getNumRegistersForCallingConv`` per piece)."""
    total = 0
    stack: list[Type] = [ty]
    while stack:
        t = stack.pop()
        if isinstance(t, StructType):
            stack.extend(t.elements)
        elif isinstance(t, ArrayType):
            stack.extend([t.element_type] * t.count)
        elif isinstance(t, VectorType):
            elem = t.element_type
            size = dl.pointer_size_in_bits(elem.address_space) if isinstance(elem, PointerType) else dl.type_size_in_bits(elem)
            n = t.count
            if size == 16 and has_16bit:
                total += (n + 1) // 2
            elif size <= 32:
                total += n
            else:
                total += n * ((size + 31) // 32)
        elif isinstance(t, PointerType):
            total += max(1, (dl.pointer_size_in_bits(t.address_space) + 31) // 32)
        elif isinstance(t, IntegerType) or t.is_floating_point:
            total += max(1, (dl.type_size_in_bits(t) + 31) // 32)
    return total


def _arg_in_sgpr(call: CallBase, index: int) -> bool:
    """``AMDGPU::isArgPassedInSGPR``."""
    cc = call.calling_conv
    if cc in _KERNEL_CCS:
        return True
    if cc in _INREG_SGPR_CCS:
        return call.attributes.has_param_attr(index, "inreg") or call.attributes.has_param_attr(index, "byval")
    return False


def _call_args_total_alloca_size(call: CallBase, dl: DataLayout) -> int:
    """Bytes of the distinct static allocas whose (flat or private) pointers the call passes."""
    seen: set[int] = set()
    size = 0
    for arg in call.args:
        ty = arg.type
        if not isinstance(ty, PointerType) or ty.address_space not in (_FLAT_ADDRESS, _PRIVATE_ADDRESS):
            continue
        base = get_underlying_object(arg)
        if not isinstance(base, AllocaInst) or not base.is_static_alloca or id(base) in seen:
            continue
        seen.add(id(base))
        size += dl.type_alloc_size(base.allocated_type)
    return size


def _data_layout(call: CallBase) -> DataLayout | None:
    fn = call.function
    module = fn.parent if fn is not None else None
    return module.data_layout if module is not None else None


class GCNInlinerHooks(BasicInlinerHooks):
    """``GCNTTIImpl``'s inliner hooks (``amdgcn``)."""

    def are_inline_compatible(self, caller: Function, callee: Function) -> bool:
        if not cpu_allows(caller, callee):
            return False
        wanted = subtarget_features(callee) - INLINE_FEATURE_IGNORE_LIST
        if not wanted <= subtarget_features(caller):
            return False
        if _mode(caller) != _mode(callee):
            return False
        if callee.attributes.has_fn_attr("alwaysinline") or callee.attributes.has_fn_attr("inlinehint"):
            return True
        callee_blocks = len(callee.blocks)
        if callee_blocks == 1:
            return True
        return len(caller.blocks) + callee_blocks - 1 <= option_int("amdgpu-inline-max-bb")

    def get_inlining_threshold_multiplier(self) -> int:
        return THRESHOLD_MULTIPLIER

    def get_inliner_vector_bonus_percent(self) -> int:
        return 0

    def adjust_inlining_threshold(self, call: CallBase) -> int:
        dl = _data_layout(call)
        if dl is None:
            return 0
        caller = call.function
        has_16bit = caller is not None and _cpu(caller) not in _NO_16BIT_CPUS
        sgprs = vgprs = 0
        for index, arg in enumerate(call.args):
            regs = _value_registers(arg.type, dl, has_16bit)
            if _arg_in_sgpr(call, index):
                sgprs += regs
            else:
                vgprs += regs
        threshold = max(0, sgprs - _SGPRS_UNTIL_SPILL) * _ARG_STACK_COST * _INSTR_COST
        threshold += max(0, vgprs - _VGPRS_UNTIL_SPILL) * _ARG_STACK_COST * _INSTR_COST
        if _call_args_total_alloca_size(call, dl) > 0:
            threshold += option_int("amdgpu-inline-arg-alloca-cost")
        return threshold

    def get_caller_alloca_cost(self, call: CallBase, alloca: object) -> int:
        dl = _data_layout(call)
        if dl is None or not isinstance(alloca, AllocaInst):
            return 0
        total = _call_args_total_alloca_size(call, dl)
        if total <= option_int("amdgpu-inline-arg-alloca-cutoff"):
            return 0
        threshold = option_int("amdgpu-inline-arg-alloca-cost") * THRESHOLD_MULTIPLIER
        callee = call.called_function
        if callee is not None and all(
            bb.terminator is None or bb.terminator.num_successors <= 1 for bb in callee.blocks
        ):
            threshold += threshold // 2
        return threshold * dl.type_alloc_size(alloca.allocated_type) // total

    def are_jts_allowed(self, fn: Function) -> bool:
        """``BR_JT`` and ``BRIND`` expand on AMDGPU: no jump tables."""
        return False


class R600InlinerHooks(BasicInlinerHooks):
    """``R600TTIImpl``: the generic feature-subset rule of ``BasicTTIImplBase``."""

    def are_inline_compatible(self, caller: Function, callee: Function) -> bool:
        return cpu_allows(caller, callee) and subtarget_features(callee) <= subtarget_features(caller)

    def are_jts_allowed(self, fn: Function) -> bool:
        """``BR_JT`` and ``BRIND`` expand on AMDGPU: no jump tables."""
        return False
