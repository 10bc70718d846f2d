"""Shared pieces of ``function-attrs`` (LLVM 19.1.7 ``lib/Transforms/IPO/FunctionAttrs.cpp``):
the pass's statistics (LLVM's names and texts), its command-line options, the SCC node set
type and the attribute queries and edits on functions, arguments and call sites that the
inference modules share (LLVM's ``Function``/``Argument``/``CallBase`` cover functions).
"""

from __future__ import annotations

from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.function import Argument, Function, null_pointer_is_defined
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.memory_effects import MemoryEffects
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.statistics import Statistic

__all__ = [
    "SCCNodeSet",
    "add_fn_attr",
    "add_param_attr",
    "add_ret_attr",
    "arg_has_nonnull",
    "call_data_operand_has_attr",
    "call_operand_does_not_access_memory",
    "call_operand_only_reads_memory",
    "fn_does_not_free_memory",
    "fn_memory_effects",
    "fn_only_reads_memory",
    "inst_may_throw",
    "option_bool",
    "remove_param_attr",
    "set_fn_memory_effects",
]

_DT = "function-attrs"
NUM_MEMORY_ATTR = Statistic(_DT, "NumMemoryAttr", "Number of functions with improved memory attribute")
NUM_NO_CAPTURE = Statistic(_DT, "NumNoCapture", "Number of arguments marked nocapture")
NUM_RETURNED = Statistic(_DT, "NumReturned", "Number of arguments marked returned")
NUM_READ_NONE_ARG = Statistic(_DT, "NumReadNoneArg", "Number of arguments marked readnone")
NUM_READ_ONLY_ARG = Statistic(_DT, "NumReadOnlyArg", "Number of arguments marked readonly")
NUM_WRITE_ONLY_ARG = Statistic(_DT, "NumWriteOnlyArg", "Number of arguments marked writeonly")
NUM_NO_ALIAS = Statistic(_DT, "NumNoAlias", "Number of function returns marked noalias")
NUM_NON_NULL_RETURN = Statistic(_DT, "NumNonNullReturn", "Number of function returns marked nonnull")
NUM_NO_UNDEF_RETURN = Statistic(_DT, "NumNoUndefReturn", "Number of function returns marked noundef")
NUM_NO_RECURSE = Statistic(_DT, "NumNoRecurse", "Number of functions marked as norecurse")
NUM_NO_UNWIND = Statistic(_DT, "NumNoUnwind", "Number of functions marked as nounwind")
NUM_NO_FREE = Statistic(_DT, "NumNoFree", "Number of functions marked as nofree")
NUM_WILL_RETURN = Statistic(_DT, "NumWillReturn", "Number of functions marked as willreturn")
NUM_NO_SYNC = Statistic(_DT, "NumNoSync", "Number of functions marked as nosync")

SCCNodeSet = dict[Function, None]
"""The functions of the SCC being inferred, in the SCC's order (LLVM's ``SmallSetVector``)."""


def option_bool(name: str, default: bool) -> bool:
    """A boolean ``cl::opt`` of the pass (``default`` when the registry does not know it)."""
    try:
        return bool(OPTIONS.value(name))
    except KeyError:
        return default


# --- functions ------------------------------------------------------------------------------
def fn_memory_effects(fn: Function) -> MemoryEffects:
    """``Function::getMemoryEffects``."""
    return fn.attributes.fn_attrs.memory_effects


def fn_only_reads_memory(fn: Function) -> bool:
    return fn_memory_effects(fn).only_reads_memory


def fn_does_not_free_memory(fn: Function) -> bool:
    """``Function::doesNotFreeMemory``: read-only or ``nofree``."""
    return fn_only_reads_memory(fn) or fn.attributes.has_fn_attr("nofree")


def set_fn_memory_effects(fn: Function, effects: MemoryEffects) -> None:
    fn.attributes = fn.attributes.with_fn_attr(Attribute.memory(effects))


def add_fn_attr(fn: Function, kind: str) -> None:
    if not fn.attributes.has_fn_attr(kind):
        fn.attributes = fn.attributes.with_fn_attr(Attribute.enum(kind))


def add_ret_attr(fn: Function, kind: str) -> None:
    if not fn.attributes.has_ret_attr(kind):
        fn.attributes = fn.attributes.with_ret_attr(Attribute.enum(kind))


def add_param_attr(arg: Argument, kind: str) -> None:
    fn = arg.parent
    if not fn.attributes.has_param_attr(arg.arg_no, kind):
        fn.attributes = fn.attributes.with_param_attr(arg.arg_no, Attribute.enum(kind))


def remove_param_attr(arg: Argument, kind: str) -> None:
    fn = arg.parent
    if fn.attributes.has_param_attr(arg.arg_no, kind):
        fn.attributes = fn.attributes.without_param_attr(arg.arg_no, kind)


def arg_has_nonnull(arg: Argument, allow_undef_or_poison: bool = True) -> bool:
    """``Argument::hasNonNullAttr``: ``nonnull`` (with ``noundef`` unless undef is
    allowed), or ``dereferenceable`` where null is not a valid address."""
    ty = arg.type
    if not ty.is_pointer:
        return False
    attrs = arg.attributes
    if attrs.has("nonnull") and (allow_undef_or_poison or attrs.has("noundef")):
        return True
    if attrs.dereferenceable_bytes > 0:
        return not null_pointer_is_defined(arg.parent, getattr(ty, "address_space", 0))
    return False


# --- call sites -----------------------------------------------------------------------------
def call_data_operand_has_attr(call: CallBase, index: int, kind: str) -> bool:
    """``CallBase::dataOperandHasImpliedAttr``: a parameter attribute for an argument;
    for a bundle input only a deopt bundle's pointers are ``readonly``/``nocapture``."""
    if index < call.arg_size:
        return call.param_has_attr(index, kind)
    if kind not in ("readonly", "nocapture"):
        return False
    bundle = call.bundle_of_operand(index)
    return bundle.tag == "deopt" and call.operands[index].type.is_pointer


def call_operand_does_not_access_memory(call: CallBase, index: int) -> bool:
    """``CallBase::doesNotAccessMemory(OpNo)``."""
    return call_data_operand_has_attr(call, index, "readnone")


def call_operand_only_reads_memory(call: CallBase, index: int) -> bool:
    """``CallBase::onlyReadsMemory(OpNo)``: ``readonly`` or ``readnone`` (LLVM 19 does not
    count ``byval`` here)."""
    return call_data_operand_has_attr(call, index, "readonly") or call_data_operand_has_attr(call, index, "readnone")


def inst_may_throw(inst: Instruction) -> bool:
    """``Instruction::mayThrow(/*IncludePhaseOneUnwind=*/true)``."""
    if inst.opcode in ("invoke", "cleanuppad"):
        return bool(inst.may_throw(True))  # type: ignore[call-arg]
    return inst.may_throw()
