"""An instruction's metadata attachments (the metadata part of LLVM 19's
``visitInstruction``): ``!fpmath``, ``!range``, ``!invariant.group``,
``!nonnull``, ``!dereferenceable[_or_null]``, ``!tbaa``, ``!noalias``/
``!alias.scope``, ``!llvm.access.group``, ``!align``, ``!prof``,
``!memprof``/``!callsite``, ``!DIAssignID``, ``!mmra``, ``!annotation`` and ``!dbg``,
in LLVM's order; then every attached node through the metadata walk.

A check LLVM makes directly in ``visitInstruction`` ends the instruction's
metadata checks when it fails; one made in a helper (``visitProfMetadata``,
the TBAA verifier...) ends only that helper.

Not done here: ``!noalias.addrspace`` (not in LLVM 19), a function's own attachments
(``function_metadata_rules``).
"""

from __future__ import annotations

from typing import cast

from llvmpy_mid.ir.constants import ConstantFP
from llvmpy_mid.ir.debug_info import DILocation
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.metadata import MDNode, MDString, MDTuple, Metadata, MetadataAsValue, ValueAsMetadata
from llvmpy_mid.ir.types import TypeID
from llvmpy_mid.ir.verifier import debug_info_rules as di
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.dbg_record_rules import assign_index
from llvmpy_mid.ir.verifier.dbg_intrinsic_rules import DBG_VARIABLE_INTRINSICS, verify_dbg_intrinsic_expression
from llvmpy_mid.ir.verifier.debug_info_rules import visit_md_node
from llvmpy_mid.ir.verifier.md_operands import const_int, is_md_string, llvm_operands
from llvmpy_mid.ir.verifier.range_rules import verify_range_like
from llvmpy_mid.ir.verifier.tbaa_rules import verify_tbaa

_DBG = 0
_LOOP = 18
_MAX_ALIGNMENT = 1 << 32
_CALL_OPCODES = frozenset(("call", "invoke", "callbr"))


def _float_accuracy_ok(value: ConstantFP) -> bool:
    bits = value.bits
    exponent = (bits >> 23) & 0xFF
    mantissa = bits & 0x7FFFFF
    negative = bool(bits >> 31)
    finite_nonzero = exponent != 0xFF and not (exponent == 0 and mantissa == 0)
    return finite_nonzero and not negative


def _is_mem_intrinsic(inst: Instruction) -> bool:
    if inst.opcode != "call":
        return False
    callee = inst.called_function  # type: ignore[attr-defined]
    if callee is None:
        return False
    name: str = callee.name
    return name.startswith(("llvm.memcpy.", "llvm.memmove.", "llvm.memset.")) and "element.unordered" not in name


def verify_attachments(c: Checker, inst: Instruction) -> None:
    """The instruction's metadata attachments (``!range``, ``!tbaa``, ``!dbg``...).

    LLVM runs an invoke's instruction checks twice (as a call, then as a
    terminator), so their findings appear twice; the node walk is memoised."""
    md = inst._md
    dbg_call = _is_dbg_variable_call(inst)
    if not md:
        if dbg_call:
            verify_dbg_intrinsic_expression(c, inst)  # type: ignore[arg-type]
        return
    for _ in range(2 if inst.opcode == "invoke" else 1):
        if len(md) == 1 and _DBG in md:
            node = md[_DBG]
            if not isinstance(node, DILocation):
                c.fail_debug_info("invalid !dbg metadata attachment", inst, node)
                continue
            visit_md_node(c, node, True)
            if dbg_call:
                verify_dbg_intrinsic_expression(c, inst)  # type: ignore[arg-type]
            continue
        if not _verify_kinds(c, inst, md):
            continue
        if _DBG in md:
            visit_md_node(c, md[_DBG], True)
        if dbg_call:
            verify_dbg_intrinsic_expression(c, inst)  # type: ignore[arg-type]
        for kind in sorted(md):
            visit_md_node(c, md[kind], kind == _DBG or kind == _LOOP)


def _is_dbg_variable_call(inst: Instruction) -> bool:
    if inst.opcode != "call":
        return False
    callee = inst.called_function  # type: ignore[attr-defined]
    return callee is not None and callee.name in DBG_VARIABLE_INTRINSICS


def _verify_kinds(c: Checker, inst: Instruction, md: dict[int, MDNode]) -> bool:
    """The per-kind checks of visitInstruction; False when one that ends it failed."""
    kinds = inst.type.context.md_kinds
    ty = inst.type
    opcode = inst.opcode
    node = md.get(kinds.get("fpmath", 3))
    if node is not None:
        if not ty.is_fp_or_fp_vector:
            c.fail("fpmath requires a floating point result!", inst)
            return False
        ops = llvm_operands(node)
        if len(ops) != 1:
            c.fail("fpmath takes one operand!", inst)
            return False
        op = ops[0]
        value = op.value if isinstance(op, ValueAsMetadata) and op.is_constant_as_metadata else None
        if isinstance(value, ConstantFP):
            if value.type.type_id is not TypeID.FLOAT:
                c.fail("fpmath accuracy must have float type", inst)
                return False
            if not _float_accuracy_ok(value):
                c.fail("fpmath accuracy not a positive number!", inst)
                return False
        else:
            c.fail("invalid fpmath accuracy!", inst)
            return False
    node = md.get(kinds.get("range", 4))
    if node is not None:
        if opcode not in ("load", "call", "invoke"):
            c.fail("Ranges are only for loads, calls and invokes!", inst)
            return False
        verify_range_like(c, inst, node, ty, False)
    if kinds.get("invariant.group", 16) in md and opcode not in ("load", "store"):
        c.fail("invariant.group metadata is only for loads and stores", inst)
        return False
    node = md.get(kinds.get("nonnull", 11))
    if node is not None:
        if not _pointer_load_only(c, inst, "nonnull"):
            return False
        if llvm_operands(node):
            c.fail("nonnull metadata must be empty", inst)
            return False
    for name, default in (("dereferenceable", 12), ("dereferenceable_or_null", 13)):
        node = md.get(kinds.get(name, default))
        if node is not None:
            _verify_dereferenceable(c, inst, node)
    node = md.get(kinds.get("tbaa", 1))
    if node is not None:
        verify_tbaa(c, inst, node)
    for name, default in (("noalias", 8), ("alias.scope", 7)):
        node = md.get(kinds.get(name, default))
        if node is not None:
            _verify_scope_list(c, node)
    node = md.get(kinds.get("llvm.access.group", 25))
    if node is not None:
        _verify_access_group(c, node)
    node = md.get(kinds.get("align", 17))
    if node is not None:
        if not _pointer_load_only(c, inst, "align"):
            return False
        ops = llvm_operands(node)
        if len(ops) != 1:
            c.fail("align takes one operand!", inst)
            return False
        ci = const_int(ops[0])
        if ci is None or ci.type.width != 64:
            c.fail("align metadata value must be an i64!", inst)
            return False
        align = ci.value
        if align == 0 or align & (align - 1):
            c.fail("align metadata value must be a power of 2!", inst)
            return False
        if align > _MAX_ALIGNMENT:
            c.fail("alignment is larger that implementation defined limit", inst)
            return False
    node = md.get(kinds.get("prof", 2))
    if node is not None:
        _verify_prof(c, inst, node)
    kid = kinds.get("memprof")
    node = md.get(kid) if kid is not None else None
    if node is not None:
        _verify_memprof(c, inst, node)
    kid = kinds.get("callsite")
    node = md.get(kid) if kid is not None else None
    if node is not None:
        if opcode not in _CALL_OPCODES:
            c.fail("!callsite metadata should only exist on calls", inst)
        else:
            _verify_call_stack(c, node)
    kid = kinds.get("DIAssignID")
    node = md.get(kid) if kid is not None else None
    if node is not None:
        _verify_assign_id_attachment(c, inst, node)
    kid = kinds.get("mmra")
    node = md.get(kid) if kid is not None else None
    if node is not None and not _verify_mmra(c, inst, node):
        return False
    node = md.get(kinds.get("annotation", 30))
    if node is not None:
        _verify_annotation(c, node)
    node = md.get(_DBG)
    if node is not None and not isinstance(node, DILocation):
        c.fail_debug_info("invalid !dbg metadata attachment", inst, node)
        return False
    return True


def _pointer_load_only(c: Checker, inst: Instruction, what: str) -> bool:
    """``!nonnull``/``!align`` stand only on a load of a pointer."""
    if not inst.type.is_pointer:
        c.fail("%s applies only to pointer types" % what, inst)
        return False
    if inst.opcode != "load":
        c.fail("%s applies only to load instructions, use attributes for calls or invokes" % what, inst)
        return False
    return True


def _verify_dereferenceable(c: Checker, inst: Instruction, node: MDNode) -> None:
    if not inst.type.is_pointer:
        c.fail("dereferenceable, dereferenceable_or_null apply only to pointer types", inst)
        return
    if inst.opcode not in ("load", "inttoptr"):
        c.fail(
            "dereferenceable, dereferenceable_or_null apply only to load and inttoptr instructions, "
            "use attributes for calls or invokes",
            inst,
        )
        return
    ops = llvm_operands(node)
    if len(ops) != 1:
        c.fail("dereferenceable, dereferenceable_or_null take one operand!", inst)
        return
    ci = const_int(ops[0])
    if ci is None or ci.type.width != 64:
        c.fail("dereferenceable, dereferenceable_or_null metadata value must be an i64!", inst)


def _verify_scope_list(c: Checker, node: MDNode) -> None:
    ok_lists = di.clean_set(c, "scope-list")
    if id(node) in ok_lists:
        return
    before = len(c.diagnostics)
    for op in llvm_operands(node):
        if not isinstance(op, MDNode):
            c.fail("scope list must consist of MDNodes", node)
            return
        _verify_scope(c, op)
    if len(c.diagnostics) == before:
        ok_lists.add(id(node))


def _verify_scope(c: Checker, scope: MDNode) -> None:
    ops = llvm_operands(scope)
    n = len(ops)
    if n < 2 or n > 3:
        c.fail("scope must have two or three operands", scope)
        return
    if not (ops[0] is scope or is_md_string(ops[0])):
        c.fail("first scope operand must be self-referential or string", scope)
        return
    if n == 3 and not is_md_string(ops[2]):
        c.fail("third scope operand must be string (if used)", scope)
        return
    domain = ops[1]
    if not isinstance(domain, MDNode):
        c.fail("second scope operand must be MDNode", scope)
        return
    dops = llvm_operands(domain)
    if len(dops) < 1 or len(dops) > 2:
        c.fail("domain must have one or two operands", domain)
        return
    if not (dops[0] is domain or is_md_string(dops[0])):
        c.fail("first domain operand must be self-referential or string", domain)
        return
    if len(dops) == 2 and not is_md_string(dops[1]):
        c.fail("second domain operand must be string (if used)", domain)


def _is_access_scope(node: Metadata | None) -> bool:
    return isinstance(node, MDNode) and not llvm_operands(node) and node.is_distinct


def _verify_access_group(c: Checker, node: MDNode) -> None:
    if _is_access_scope(node):
        return
    for op in llvm_operands(node):
        if not isinstance(op, MDNode):
            c.fail("Access scope list must consist of MDNodes", node)
            return
        if not _is_access_scope(op):
            c.fail("Access scope list contains invalid access scope", node)
            return


def prof_name(c: Checker, node: MDNode, ops: tuple[Metadata | None, ...]) -> str | None:
    """The name of a ``!prof`` node (its first operand), or None after reporting
    that it has too few operands or no name (the checks shared by instructions and functions)."""
    if len(ops) < 2:
        c.fail("!prof annotations should have no less than 2 operands", node)
        return None
    if ops[0] is None:
        c.fail("first operand should not be null", node)
        return None
    if not is_md_string(ops[0]):
        c.fail("expected string with name of the !prof annotation", node)
        return None
    return cast(MDString, ops[0]).string


def _verify_prof(c: Checker, inst: Instruction, node: MDNode) -> None:
    ops = llvm_operands(node)
    n = len(ops)
    if prof_name(c, node, ops) != "branch_weights":
        return
    offset = 2 if n >= 3 and is_md_string(ops[1]) else 1
    weights = n - offset
    opcode = inst.opcode
    if opcode == "invoke":
        if weights != 1 and weights != 2:
            c.fail("Wrong number of InvokeInst branch_weights operands", node)
            return
    else:
        expected = 0
        if opcode in ("br", "switch", "callbr"):
            expected = inst.num_successors
        elif opcode == "call":
            expected = 1
        elif opcode == "indirectbr":
            expected = inst.num_destinations  # type: ignore[attr-defined]
        elif opcode == "select":
            expected = 2
        else:
            c.fail("!prof branch_weights are not allowed for this instruction", node)
        if weights != expected:
            c.fail("Wrong number of operands", node)
            return
    for i in range(offset, n):
        op = ops[i]
        if op is None:
            c.fail("second operand should not be null", node)
            return
        if const_int(op) is None:
            c.fail("!prof brunch_weights operand is not a const int")
            return


def _verify_call_stack(c: Checker, node: MDNode) -> None:
    ops = llvm_operands(node)
    if not ops:
        c.fail("call stack metadata should have at least 1 operand", node)
        return
    for op in ops:
        if const_int(op) is None:
            c.fail("call stack metadata operand should be constant integer", op)
            return


def _verify_memprof(c: Checker, inst: Instruction, node: MDNode) -> None:
    if inst.opcode not in _CALL_OPCODES:
        c.fail("!memprof metadata should only exist on calls", inst)
        return
    ops = llvm_operands(node)
    if not ops:
        c.fail("!memprof annotations should have at least 1 metadata operand (MemInfoBlock)", node)
        return
    for mib in ops:
        mops = llvm_operands(mib)
        if len(mops) < 2:
            c.fail("Each !memprof MemInfoBlock should have at least 2 operands", mib)
            return
        if mops[0] is None:
            c.fail("!memprof MemInfoBlock first operand should not be null", mib)
            return
        if not isinstance(mops[0], MDNode):
            c.fail("!memprof MemInfoBlock first operand should be an MDNode", mib)
            return
        _verify_call_stack(c, mops[0])
        if not all(is_md_string(op) for op in mops[1:-1]):
            c.fail("Not all !memprof MemInfoBlock operands 1 to N-1 are MDString", mib)
            return
        if not (is_md_string(mops[-1]) or const_int(mops[-1]) is not None):
            c.fail("Last !memprof MemInfoBlock operand not MDString or int", mib)
            return


def _verify_assign_id_attachment(c: Checker, inst: Instruction, node: MDNode) -> None:
    if not (inst.opcode in ("alloca", "store") or _is_mem_intrinsic(inst)):
        c.fail_debug_info("!DIAssignID attached to unexpected instruction kind", inst, node)
        return
    as_value = MetadataAsValue.get_if_exists(inst.type.context, node)
    if as_value is not None:
        for user in as_value.users:
            callee = getattr(user, "called_function", None)
            if callee is None or callee.name != "llvm.dbg.assign":
                c.fail_debug_info("!DIAssignID should only be used by llvm.dbg.assign intrinsics", node, user)
                return
            if getattr(user, "function", None) is not inst.function:
                c.fail_debug_info("dbg.assign not in same function as inst", user, inst)
                return
    fn = inst.function
    for rec in assign_index(c, fn)[1].get(id(node), ()):
        if not rec.is_dbg_assign:
            c.fail_debug_info("!DIAssignID should only be used by Assign DVRs.", node, di.record_text(c, rec))
            return
        if rec.function is not fn:
            c.fail_debug_info("DVRAssign not in same function as inst", di.record_text(c, rec), inst)
            return


_MMRA_OPCODES = frozenset(("load", "store", "cmpxchg", "atomicrmw", "fence"))


def _is_mmra_tag(node: Metadata | None) -> bool:
    """A memory-model relaxation tag: a tuple of two strings (``!{!"kind", !"value"}``)."""
    if not isinstance(node, MDTuple):
        return False
    ops = node.operands
    return len(ops) == 2 and is_md_string(ops[0]) and is_md_string(ops[1])


def _verify_mmra(c: Checker, inst: Instruction, node: MDNode) -> bool:
    """``!mmra``: on a memory instruction (or a call that may touch memory), a tag or a
    tuple of tags; False when a check that ends the instruction's checks failed."""
    opcode = inst.opcode
    if opcode not in _MMRA_OPCODES:
        accesses = opcode in _CALL_OPCODES and (
            inst.may_read_or_write_memory() or not inst.does_not_access_memory  # type: ignore[attr-defined]
        )
        if not accesses:
            c.fail("!mmra metadata attached to unexpected instruction kind", inst, node)
            return False
    if _is_mmra_tag(node):
        return True
    if not isinstance(node, MDTuple):
        c.fail("!mmra expected to be a metadata tuple", inst, node)
        return False
    for op in node.operands:
        if not _is_mmra_tag(op):
            c.fail("!mmra metadata tuple operand is not an MMRA tag", inst, op)
            return False
    return True


def _verify_annotation(c: Checker, node: MDNode) -> None:
    if not isinstance(node, MDTuple):
        c.fail("annotation must be a tuple")
        return
    ops = node.operands
    if not ops:
        c.fail("annotation must have at least one operand")
        return
    for op in ops:
        ok = is_md_string(op) or (isinstance(op, MDTuple) and all(is_md_string(x) for x in op.operands))
        if not ok:
            c.fail("operands must be a string or a tuple of strings")
            return


__all__ = ["prof_name", "verify_attachments"]
