"""TargetFolder (IRBuilder folding with the DataLayout): what opt-19's
``instsimplify`` folds for the same constants, the builder folds with a
TargetFolder, while ConstantFolder (no DataLayout) leaves some of it."""

from __future__ import annotations

import subprocess

import llvmpy_mid
from llvmpy_mid.analysis.target_folder import TargetFolder
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.instruction import Instruction
from tests.oracles import require_tools

DL = 'target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"\n'
IR = DL + "@g = global [4 x i32] zeroinitializer\ndefine void @f() {\n  ret void\n}\n"


def builders() -> tuple[llvmpy_mid.ir.module.Module, IRBuilder, IRBuilder]:
    m = llvmpy_mid.parse_assembly(IR)
    f = m.get_function("f")
    bb = f.entry_block
    assert bb is not None and bb.terminator is not None
    plain = IRBuilder(bb, bb.terminator, folder=ConstantFolder())
    target = IRBuilder(bb, bb.terminator, folder=TargetFolder(m.data_layout))
    return m, plain, target


def test_target_folder_uses_the_data_layout() -> None:
    m, plain, target = builders()
    ctx = m.context
    g = m.get_global("g")
    assert g is not None
    p2i = target.create_cast("ptrtoint", g, ctx.i64)
    assert isinstance(p2i, ConstantExpr)
    # ptrtoint(@g) - ptrtoint(@g) and icmp eq ptrtoint(@g), 0 need the layout
    assert target.create_sub(p2i, p2i) is ConstantInt.get(ctx.i64, 0)
    assert target.create_icmp("eq", p2i, ConstantInt.get(ctx.i64, 0)) is ConstantInt.get(ctx.i1, 0)
    assert isinstance(plain.create_icmp("eq", p2i, ConstantInt.get(ctx.i64, 0)), Instruction)
    i2p = ConstantExpr.create_cast("inttoptr", ConstantInt.get(ctx.i64, 5), ctx.ptr)
    assert target.create_cast("ptrtoint", i2p, ctx.i64) is ConstantInt.get(ctx.i64, 5)


def test_matches_opt19_instsimplify() -> None:
    """The GEP and compare the TargetFolder makes are the constants opt-19's
    instsimplify folds the same instructions to."""
    require_tools("opt-19")
    src = DL + (
        "@g = global [4 x i32] zeroinitializer\n"
        "define ptr @p() {\n  %q = getelementptr i32, ptr @g, i64 1\n  ret ptr %q\n}\n"
        "define i1 @c() {\n  %c = icmp eq i64 ptrtoint (ptr @g to i64), 0\n  ret i1 %c\n}\n"
    )
    out = subprocess.run(["opt-19", "-passes=instsimplify", "-S"], input=src, capture_output=True, text=True, check=True).stdout
    m, _, target = builders()
    ctx = m.context
    g = m.get_global("g")
    assert g is not None
    gep = target.create_gep(ctx.i32, g, [ConstantInt.get(ctx.i64, 1)])
    assert ("ret ptr " + str(gep).split(" ", 1)[1]) in out, (str(gep), out)
    cmp = target.create_icmp("eq", target.create_cast("ptrtoint", g, ctx.i64), ConstantInt.get(ctx.i64, 0))
    assert "ret i1 %s" % str(cmp).split(" ", 1)[1] in out
