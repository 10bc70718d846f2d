"""Module flags: the ``!llvm.module.flags`` entries (LLVM ``Module::getModuleFlag``,
``addModuleFlag``, ``setModuleFlag``).

Each flag is a uniqued tuple ``!{i32 <behavior>, !"<key>", <value>}`` listed in
the named metadata ``!llvm.module.flags``; the behavior says how the linker
merges two modules' values (``Error`` = 1 ... ``Min`` = 8, LangRef "Module
Flags Metadata"). Malformed entries are skipped when reading, as LLVM does.

Not done here: merging flags when linking modules, the verifier's checks.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from attrs import frozen

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode, MDString, MDTuple, Metadata, ValueAsMetadata

if TYPE_CHECKING:
    from llvmpy_mid.ir.module import Module

MODULE_FLAGS = "llvm.module.flags"


class ModuleFlagBehavior(IntEnum):
    """How two values of one flag are merged (LLVM ``Module::ModFlagBehavior``)."""

    ERROR = 1
    WARNING = 2
    REQUIRE = 3
    OVERRIDE = 4
    APPEND = 5
    APPEND_UNIQUE = 6
    MAX = 7
    MIN = 8


module_flag_behavior: dict[str, int] = {
    "Error": 1,
    "Warning": 2,
    "Require": 3,
    "Override": 4,
    "Append": 5,
    "AppendUnique": 6,
    "Max": 7,
    "Min": 8,
}
"""LangRef's behavior names and their numbers."""


def behavior_value(behavior: int | str) -> int:
    """The number of a behavior given by number or LangRef name."""
    if isinstance(behavior, str):
        value = module_flag_behavior.get(behavior)
        if value is None:
            raise IRError("unknown module flag behavior %r" % behavior)
        return value
    if not 1 <= int(behavior) <= 8:
        raise IRError("module flag behavior %d out of range 1..8" % behavior)
    return int(behavior)


@frozen
class ModuleFlag:
    """One decoded entry of ``!llvm.module.flags``."""

    behavior: int
    key: str
    value: Metadata | None
    node: MDNode


def _decode(node: MDNode) -> ModuleFlag | None:
    ops = node.operands
    if len(ops) != 3:
        return None
    behavior, key, value = ops
    if not isinstance(behavior, ConstantAsMetadata) or not isinstance(key, MDString):
        return None
    const = behavior.value
    if not isinstance(const, ConstantInt):
        return None
    return ModuleFlag(const.value, key.string, value, node)


def module_flags(module: Module) -> list[ModuleFlag]:
    """The well-formed flags, in order."""
    named = module.named_metadata.get(MODULE_FLAGS)
    if named is None:
        return []
    out: list[ModuleFlag] = []
    for node in named.operands:
        flag = _decode(node)
        if flag is not None:
            out.append(flag)
    return out


def get_module_flag(module: Module, key: str) -> Metadata | None:
    """The value of the first flag called ``key``, or None."""
    for flag in module_flags(module):
        if flag.key == key:
            return flag.value
    return None


def get_module_flag_int(module: Module, key: str) -> int | None:
    """The value of flag ``key`` when it is an integer constant (``i32 2``), else None."""
    value = get_module_flag(module, key)
    if isinstance(value, ConstantAsMetadata) and isinstance(value.value, ConstantInt):
        return value.value.value
    return None


def _flag_node(module: Module, behavior: int | str, key: str, value: Metadata | int) -> MDNode:
    ctx = module.context
    if isinstance(value, int):
        value = ValueAsMetadata.get(ConstantInt.get(ctx.i32, value))
    return MDTuple.get(
        ctx,
        (ValueAsMetadata.get(ConstantInt.get(ctx.i32, behavior_value(behavior))), MDString.get(ctx, key), value),
    )


def add_module_flag(module: Module, behavior: int | str, key: str, value: Metadata | int) -> MDNode:
    """Append a flag (an int value becomes ``i32 <value>``); returns its node.
    Like LLVM's ``addModuleFlag`` it does not look for an existing one."""
    node = _flag_node(module, behavior, key, value)
    module.get_or_insert_named_metadata(MODULE_FLAGS).add_operand(node)
    return node


def set_module_flag(module: Module, behavior: int | str, key: str, value: Metadata | int) -> MDNode:
    """Replace the flag called ``key`` in place, or append it (LLVM ``setModuleFlag``)."""
    node = _flag_node(module, behavior, key, value)
    named = module.get_or_insert_named_metadata(MODULE_FLAGS)
    for i, existing in enumerate(named.operands):
        flag = _decode(existing)
        if flag is not None and flag.key == key:
            named.set_operand(i, node)
            return node
    named.add_operand(node)
    return node
