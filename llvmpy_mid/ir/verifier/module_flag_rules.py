"""Rules on the module's own metadata lists: ``!llvm.module.flags``, ``!llvm.ident`` and
``!llvm.commandline`` (LLVM 19 ``Verifier::visitModuleFlags``, ``visitModuleFlag``,
``visitModuleFlagCGProfileEntry``, ``visitModuleIdents``, ``visitModuleCommandLines``).

A module flag is ``!{i32 <behavior>, !"<id>", <value>}``. Each flag is checked
on its own (a failed check ends that flag's checks): three operands, a
behavior 1..8, a string id, a value fitting the behavior (``max``/``min`` an
integer, ``require`` a ``!{!"id", value}`` pair, ``append`` a node), ids
unique except for ``require`` flags, and the values of a few known flags
(``wchar_size``, ``Linker Options``, ``SemanticInterposition``, ``CG Profile``).
Then the AArch64 pointer-authentication pair and the ``require`` flags are
checked against the whole list. ``llvm.ident`` and ``llvm.commandline`` hold
one-string nodes; LLVM stops at the first bad one, and so do we.

Not done here: the other named metadata (the metadata graph walk lives in
``metadata_rules``). A ``CG Profile`` flag whose value is not a node makes
LLVM crash; we say nothing about it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.metadata import MDNode, Metadata
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.global_rules import strip_pointer_casts

if TYPE_CHECKING:
    from llvmpy_mid.ir.module import Module

_ERROR, _WARNING, _REQUIRE, _OVERRIDE, _APPEND, _APPEND_UNIQUE, _MAX, _MIN = range(1, 9)
_NO_VALUE = (1 << 64) - 1
"""LLVM's "not seen" marker for the pauthabi flags (a flag holding it counts as absent)."""


def _const_int(md: Metadata | None) -> ConstantInt | None:
    """LLVM ``mdconst::dyn_extract_or_null<ConstantInt>``."""
    if md is not None and md.is_constant_as_metadata:
        value = md.value  # type: ignore[attr-defined]
        if isinstance(value, ConstantInt):
            return value
    return None


def _string(md: Metadata | None) -> str | None:
    if md is not None and md.is_md_string:
        return md.string  # type: ignore[attr-defined, no-any-return]
    return None


def verify_module_flags(c: Checker, module: Module) -> None:
    """Every entry of ``!llvm.module.flags``, then the checks across entries."""
    flags = module.named_metadata.get("llvm.module.flags")
    if flags is None:
        return
    seen: dict[str, MDNode] = {}
    requirements: list[MDNode] = []
    platform = version = _NO_VALUE
    for node in flags.operands:
        _visit_module_flag(c, module, node, seen, requirements)
        ops = node.operands
        if len(ops) != 3:
            continue
        name = _string(ops[1])
        if name == "aarch64-elf-pauthabi-platform":
            value = _const_int(ops[2])
            if value is not None:
                platform = value.zext_value & _NO_VALUE
        elif name == "aarch64-elf-pauthabi-version":
            value = _const_int(ops[2])
            if value is not None:
                version = value.zext_value & _NO_VALUE
    if (platform == _NO_VALUE) != (version == _NO_VALUE):
        c.fail(
            "either both or no 'aarch64-elf-pauthabi-platform' and 'aarch64-elf-pauthabi-version' "
            "module flags must be present"
        )
    for requirement in requirements:
        flag = requirement.get_operand(0)
        required = requirement.get_operand(1)
        key = _string(flag)
        assert flag is not None and key is not None
        found = seen.get(key)
        if found is None:
            c.fail("invalid requirement on flag, flag is not present in module", flag)
            continue
        if found.get_operand(2) is not required:
            c.fail("invalid requirement on flag, flag does not have the required value", flag)
            continue


def _visit_module_flag(
    c: Checker, module: Module, node: MDNode, seen: dict[str, MDNode], requirements: list[MDNode]
) -> None:
    ops = node.operands
    if len(ops) != 3:
        c.fail("incorrect number of operands in module flag", node)
        return
    behavior_md, id_md, value_md = ops
    behavior_int = _const_int(behavior_md)
    if behavior_int is None:
        c.fail("invalid behavior operand in module flag (expected constant integer)", behavior_md)
        return
    behavior = behavior_int.zext_value
    if not _ERROR <= behavior <= _MIN:
        c.fail("invalid behavior operand in module flag (unexpected constant)", behavior_md)
        return
    key = _string(id_md)
    if key is None:
        c.fail("invalid ID operand in module flag (expected metadata string)", id_md)
        return
    assert id_md is not None
    if behavior == _MIN:
        value = _const_int(value_md)
        if value is None or value.sext_value < 0:
            c.fail("invalid value for 'min' module flag (expected constant non-negative integer)", value_md)
            return
    elif behavior == _MAX:
        if _const_int(value_md) is None:
            c.fail("invalid value for 'max' module flag (expected constant integer)", value_md)
            return
    elif behavior == _REQUIRE:
        if not isinstance(value_md, MDNode) or value_md.num_operands != 2:
            c.fail("invalid value for 'require' module flag (expected metadata pair)", value_md)
            return
        first = value_md.get_operand(0)
        if _string(first) is None:
            c.fail("invalid value for 'require' module flag (first value operand should be a string)", first)
            return
        requirements.append(value_md)
    elif behavior in (_APPEND, _APPEND_UNIQUE):
        if not isinstance(value_md, MDNode):
            c.fail("invalid value for 'append'-type module flag (expected a metadata node)", value_md)
            return
    if behavior != _REQUIRE:
        if key in seen:
            c.fail("module flag identifiers must be unique (or of 'require' type)", id_md)
            return
        seen[key] = node
    if key == "wchar_size":
        if _const_int(value_md) is None:
            c.fail("wchar_size metadata requires constant integer argument")
            return
    if key == "Linker Options":
        if module.named_metadata.get("llvm.linker.options") is None:
            c.fail("'Linker Options' named metadata no longer supported")
            return
    if key == "SemanticInterposition":
        if _const_int(value_md) is None:
            c.fail("SemanticInterposition metadata requires constant integer argument")
            return
    if key == "CG Profile" and isinstance(value_md, MDNode):
        for entry in value_md.operands:
            _visit_cg_profile_entry(c, entry)


def _visit_cg_profile_entry(c: Checker, entry: Metadata | None) -> None:
    """One ``!{ptr @caller, ptr @callee, i64 count}`` of the ``CG Profile`` flag."""
    if not isinstance(entry, MDNode) or entry.num_operands != 3:
        c.fail("expected a MDNode triple", entry)
        return
    caller, callee, count = entry.operands
    for fn_md in (caller, callee):
        # A failed function check ends only that check (LLVM checks it in a lambda).
        if fn_md is None:
            continue
        if fn_md.is_value_as_metadata:
            if isinstance(strip_pointer_casts(fn_md.value), Function):  # type: ignore[attr-defined]
                continue
        c.fail("expected a Function or null", fn_md)
    count_type = count.value.type if count is not None and count.is_constant_as_metadata else None  # type: ignore[attr-defined]
    if count_type is None or not count_type.is_integer:
        c.fail("expected an integer constant", count)
        return


def _verify_string_list(c: Checker, module: Module, name: str) -> None:
    named = module.named_metadata.get(name)
    if named is None:
        return
    for node in named.operands:
        if node.num_operands != 1:
            c.fail("incorrect number of operands in %s metadata" % name, node)
            return
        op = node.get_operand(0)
        if _string(op) is None:
            c.fail("invalid value for %s metadata entry operand(the operand should be a string)" % name, op)
            return


def verify_module_idents(c: Checker, module: Module) -> None:
    """``!llvm.ident``: nodes of one string each."""
    _verify_string_list(c, module, "llvm.ident")


def verify_module_command_lines(c: Checker, module: Module) -> None:
    """``!llvm.commandline``: nodes of one string each."""
    _verify_string_list(c, module, "llvm.commandline")


__all__ = ["verify_module_command_lines", "verify_module_flags", "verify_module_idents"]
