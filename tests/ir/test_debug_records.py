"""Debug records (#dbg_value, #dbg_declare, #dbg_assign, #dbg_label).

What a record's location becomes when its value is replaced or deleted was
checked with opt-19 (see metadata.py's docstring)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue, UndefValue
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.debug_info import DIExpression, DILocation, DINode
from llvmpy_mid.ir.debug_records import DbgLabelRecord, DbgRecordKind, DbgVariableRecord
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.metadata import DIArgList, MDNode, MDString, ValueAsMetadata
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.value import Value


class Env:
    def __init__(self) -> None:
        ctx = self.ctx = Context()
        self.sp = DINode.distinct(ctx, "DISubprogram", {"name": MDString.get(ctx, "f")})
        self.var = DINode.get(ctx, "DILocalVariable", {"name": MDString.get(ctx, "v"), "scope": self.sp})
        self.expr = DIExpression.get(ctx)
        self.loc = DILocation.get(ctx, 3, 0, self.sp)


@pytest.fixture
def env() -> Env:
    return Env()


def test_value_record_basics(env: Env) -> None:
    x = Value(env.ctx.i32)
    rec = DbgVariableRecord.create_value(x, env.var, env.expr, env.loc)
    assert rec.kind is DbgRecordKind.VALUE and rec.is_dbg_value and not rec.is_dbg_declare
    assert rec.location is ValueAsMetadata.get(x)
    assert rec.location_values() == [x] and rec.num_variable_location_ops == 1
    assert rec.variable is env.var and rec.expression is env.expr and rec.debug_loc is env.loc
    assert not rec.has_arg_list and not rec.is_kill_location
    assert rec.instruction is None and rec.is_variable_record and not rec.is_label_record
    assert rec.assign_id is None and rec.address is None


def test_declare_and_kinds(env: Env) -> None:
    p = Value(env.ctx.ptr)
    rec = DbgVariableRecord.create_declare(p, env.var, env.expr, env.loc)
    assert rec.is_dbg_declare and rec.kind.value == "declare"
    with pytest.raises(IRError):
        rec.assign_id = DINode.distinct(env.ctx, "DIAssignID")
    with pytest.raises(IRError):
        DbgVariableRecord(DbgRecordKind.ASSIGN, ValueAsMetadata.get(p), env.var, env.expr, env.loc)


def test_record_follows_rauw(env: Env) -> None:
    a, b = Value(env.ctx.i32), Value(env.ctx.i32)
    rec = DbgVariableRecord.create_value(a, env.var, env.expr, env.loc)
    a.replace_all_uses_with(b)
    assert rec.location_values() == [b]
    c = ConstantInt.get(env.ctx.i32, 9)
    b.replace_all_uses_with(c)  # local -> constant: `#dbg_value(i32 9, ...)`
    assert rec.location_values() == [c]


def test_record_follows_rauw_merge(env: Env) -> None:
    a, b = Value(env.ctx.i32), Value(env.ctx.i32)
    ra = DbgVariableRecord.create_value(a, env.var, env.expr, env.loc)
    rb = DbgVariableRecord.create_value(b, env.var, env.expr, env.loc)
    a.replace_all_uses_with(b)
    assert ra.location is rb.location is ValueAsMetadata.get(b)


def test_deleted_value_becomes_poison(env: Env) -> None:
    # opt-19 (dce, globaldce): `#dbg_value(i32 %x, ...)` -> `#dbg_value(i32 poison, ...)`,
    # `#dbg_value(ptr @g, ...)` -> `#dbg_value(ptr poison, ...)`.
    m = Module("m", env.ctx)
    g = m.add_global(env.ctx.i32, "g")
    rec = DbgVariableRecord.create_value(g, env.var, env.expr, env.loc)
    g.erase_from_parent()
    assert rec.location is ValueAsMetadata.get(PoisonValue.get(env.ctx.ptr))
    assert rec.is_kill_location


def test_deleted_instruction_location_becomes_undef(env: Env) -> None:
    # LLVM 19's ~Instruction turns metadata uses of an erased instruction into undef
    # (passes that salvage, like dce, set poison themselves first).
    inst = Instruction(env.ctx.i32)
    nxt = Instruction(env.ctx.void)
    rec = DbgVariableRecord.create_value(inst, env.var, env.expr, env.loc)
    nxt.add_dbg_record(rec)
    assert rec.instruction is nxt and nxt.dbg_records == [rec]
    inst.erase_from_parent()
    assert rec.location_values() == [UndefValue.get(env.ctx.i32)]


def test_arg_list_location(env: Env) -> None:
    ctx = env.ctx
    x, a, n = Value(ctx.i32), Value(ctx.i32), Value(ctx.i32)
    args = DIArgList.get(ctx, [ValueAsMetadata.get(x), ValueAsMetadata.get(a)])
    expr = DIExpression.get(ctx, ["DW_OP_LLVM_arg", 0, "DW_OP_LLVM_arg", 1, "DW_OP_plus", "DW_OP_stack_value"])
    rec = DbgVariableRecord(DbgRecordKind.VALUE, args, env.var, expr, env.loc)
    assert rec.has_arg_list and rec.location_values() == [x, a]
    rec.replace_variable_location_op(a, n)
    assert rec.location_values() == [x, n]
    assert rec.location is DIArgList.get(ctx, [ValueAsMetadata.get(x), ValueAsMetadata.get(n)])
    rec.replace_variable_location_op(0, a)
    assert rec.location_values() == [a, n]
    x2 = Value(ctx.i32)
    a.replace_all_uses_with(x2)
    assert rec.location_values() == [x2, n]
    with pytest.raises(IRError):
        rec.replace_variable_location_op(Value(ctx.i32), n)


def test_arg_list_element_deleted_becomes_poison(env: Env) -> None:
    ctx = env.ctx
    m = Module("m", ctx)
    g = m.add_global(ctx.i32, "g")
    v = Value(ctx.ptr)
    args = DIArgList.get(ctx, [ValueAsMetadata.get(g), ValueAsMetadata.get(v)])
    rec = DbgVariableRecord(DbgRecordKind.VALUE, args, env.var, env.expr, env.loc)
    g.erase_from_parent()
    assert rec.location_values() == [PoisonValue.get(ctx.ptr), v]
    assert rec.is_kill_location


def test_replace_single_location(env: Env) -> None:
    a, b = Value(env.ctx.i32), Value(env.ctx.i32)
    rec = DbgVariableRecord.create_value(a, env.var, env.expr, env.loc)
    rec.replace_variable_location_op(a, b)
    assert rec.location_values() == [b]
    assert ValueAsMetadata.get(a).num_tracking_users == 0
    with pytest.raises(IRError):
        rec.replace_variable_location_op(a, b)


def test_kill_locations(env: Env) -> None:
    ctx = env.ctx
    x = Value(ctx.i32)
    rec = DbgVariableRecord.create_value(x, env.var, env.expr, env.loc)
    rec.set_kill_location()
    assert rec.location_values() == [PoisonValue.get(ctx.i32)] and rec.is_kill_location
    undef = DbgVariableRecord.create_value(UndefValue.get(ctx.i32), env.var, env.expr, env.loc)
    assert undef.is_kill_location
    empty = DbgVariableRecord(DbgRecordKind.VALUE, MDNode.get(ctx, []), env.var, env.expr, env.loc)
    assert empty.is_kill_location and empty.location_values() == []
    two = DbgVariableRecord(
        DbgRecordKind.VALUE,
        DIArgList.get(ctx, [ValueAsMetadata.get(x), ValueAsMetadata.get(Value(ctx.i32))]),
        env.var, env.expr, env.loc,
    )
    two.set_kill_location()
    assert two.location_values() == [PoisonValue.get(ctx.i32)] * 2 and two.has_arg_list
    # A one-element list keeps its form: opt prints `!DIArgList(i32 poison)`.
    one = DbgVariableRecord(
        DbgRecordKind.VALUE, DIArgList.get(ctx, [ValueAsMetadata.get(x)]), env.var, env.expr, env.loc
    )
    one.set_kill_location()
    assert one.location is DIArgList.get(ctx, [ValueAsMetadata.get(PoisonValue.get(ctx.i32))])


def test_add_variable_location_ops(env: Env) -> None:
    ctx = env.ctx
    a, b = Value(ctx.i32), Value(ctx.i32)
    rec = DbgVariableRecord.create_value(a, env.var, env.expr, env.loc)
    expr = DIExpression.get(ctx, ["DW_OP_LLVM_arg", 0, "DW_OP_LLVM_arg", 1, "DW_OP_plus", "DW_OP_stack_value"])
    rec.add_variable_location_ops([b], expr)
    assert rec.has_arg_list and rec.location_values() == [a, b] and rec.expression is expr


def test_assign_record(env: Env) -> None:
    ctx = env.ctx
    v, p, q = Value(ctx.i32), Value(ctx.ptr), Value(ctx.ptr)
    aid = DINode.distinct(ctx, "DIAssignID")
    rec = DbgVariableRecord.create_assign(v, env.var, env.expr, aid, p, env.expr, env.loc)
    assert rec.is_dbg_assign and rec.assign_id is aid and rec.address_value is p
    assert rec.address_expression is env.expr and not rec.is_kill_address
    p.replace_all_uses_with(q)
    assert rec.address_value is q
    rec.set_kill_address()
    assert rec.is_kill_address and rec.address_value is PoisonValue.get(ctx.ptr)
    rec.set_address_value(p)
    assert rec.address_value is p
    copy = rec.clone()
    assert copy.is_dbg_assign and copy.assign_id is aid and copy.address_value is p


def test_clone_is_independent(env: Env) -> None:
    a, b = Value(env.ctx.i32), Value(env.ctx.i32)
    rec = DbgVariableRecord.create_value(a, env.var, env.expr, env.loc)
    copy = rec.clone()
    assert copy is not rec and copy.location is rec.location and copy.instruction is None
    copy.replace_variable_location_op(a, b)
    assert rec.location_values() == [a] and copy.location_values() == [b]
    a.replace_all_uses_with(Value(env.ctx.i32))
    assert copy.location_values() == [b]


def test_records_follow_forward_references(env: Env) -> None:
    ctx = env.ctx
    tvar, tloc = MDNode.temporary(ctx), MDNode.temporary(ctx)
    rec = DbgVariableRecord.create_value(Value(ctx.i32), tvar, env.expr, tloc)
    label_t = MDNode.temporary(ctx)
    lab = DbgLabelRecord(label_t, tloc)
    tvar.replace_all_uses_with(env.var)
    tloc.replace_all_uses_with(env.loc)
    label = DINode.get(ctx, "DILabel", {"scope": env.sp, "name": MDString.get(ctx, "l")})
    label_t.replace_all_uses_with(label)
    assert rec.variable is env.var and rec.debug_loc is env.loc
    assert lab.label is label and lab.debug_loc is env.loc


def test_label_record(env: Env) -> None:
    label = DINode.get(env.ctx, "DILabel", {"scope": env.sp, "name": MDString.get(env.ctx, "l"), "line": 4})
    rec = DbgLabelRecord(label, env.loc)
    assert rec.is_label_record and rec.label is label and rec.debug_loc is env.loc
    copy = rec.clone()
    assert copy.label is label and copy is not rec
    other = DILocation.get(env.ctx, 9, 1, env.sp)
    rec.debug_loc = other
    assert rec.debug_loc is other and copy.debug_loc is env.loc


def test_erase_from_parent_untracks(env: Env) -> None:
    x = Value(env.ctx.i32)
    inst = Instruction(env.ctx.void)
    rec = DbgVariableRecord.create_value(x, env.var, env.expr, env.loc)
    inst.add_dbg_record(rec)
    md = ValueAsMetadata.get(x)
    assert md.num_tracking_users == 1
    rec.erase_from_parent()
    assert inst.dbg_records == [] and rec.instruction is None
    assert md.num_tracking_users == 0
    with pytest.raises(IRError):
        rec.remove_from_parent()


@pytest.mark.skipif(shutil.which("opt-19") is None, reason="opt-19 not installed")
def test_oracle_deleted_location_prints_poison() -> None:
    text = """
define i32 @f(i32 %a, ptr %p) !dbg !5 {
  %x = load i32, ptr %p, !dbg !10
    #dbg_value(i32 %x, !8, !DIExpression(), !10)
    #dbg_value(!DIArgList(i32 %x, i32 %a), !8, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !10)
  ret i32 %a, !dbg !10
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocalVariable(name: "v", scope: !5, file: !1, line: 2, type: !9)
!9 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = !DILocation(line: 3, scope: !5)
"""
    out = subprocess.run(["opt-19", "-S", "-passes=dce"], input=text, capture_output=True, text=True, check=True).stdout
    assert "#dbg_value(i32 poison, " in out
    assert "#dbg_value(!DIArgList(i32 poison, i32 poison), " in out
