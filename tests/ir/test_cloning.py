"""Cloning through a value map: ``clone_function``, ``clone_basic_block``,
``clone_function_into``, ``remap_instruction``, ``clone_instructions``.

LLVM facts checked (``CloneFunction``/``CloneBasicBlock``/``RemapInstruction``):
the clone is added to the same module under the same name, so the symbol
table renames it ``f.1``; argument names are copied; every operand, phi
incoming block, branch target and debug-record location (and ``#dbg_assign``
address) inside the cloned region is remapped to the copy, while values
outside it (globals, constants, other functions' values) stay shared;
instruction metadata and the function's attachments are copied; a block
clone's names get the suffix.
"""

from __future__ import annotations

import pytest

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir import (
    BasicBlock,
    ConstantInt,
    Context,
    Function,
    Instruction,
    IRBuilder,
    Linkage,
    Module,
    Visibility,
    clone_basic_block,
    clone_function,
    clone_function_into,
    remap_instruction,
)
from llvmpy_mid.ir.cloning import clone_instructions
from llvmpy_mid.ir.debug_info import DIExpression, DILocation, DINode
from llvmpy_mid.ir.debug_records import DbgLabelRecord, DbgRecordKind, DbgVariableRecord
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.metadata import DIArgList, MDString, MDTuple, ValueAsMetadata
from llvmpy_mid.ir.value import Value


class Loop:
    """``f(n, p)``: a counted loop summing into a global, with debug info.

    entry: br loop
    loop:  i = phi [0, entry], [i.next, loop]; s = add i, n; store s, @g;
           i.next = add i, 1; c = icmp slt i.next, n; br c, loop, exit
    exit:  ret s
    """

    def __init__(self) -> None:
        self.ctx = ctx = Context()
        self.m = m = Module("m", ctx)
        self.g = m.add_global(ctx.i32, "g", initializer=ConstantInt.get(ctx.i32, 0))
        fty = ctx.function_type(ctx.i32, [ctx.i32, ctx.ptr])
        self.f = f = Function(fty, "f", Linkage.INTERNAL, module=m, arg_names=("n", "p"))
        f.visibility = Visibility.DEFAULT
        self.n, self.p = f.args
        self.sp = DINode.distinct(ctx, "DISubprogram", {"name": MDString.get(ctx, "f")})
        self.var = DINode.get(ctx, "DILocalVariable", {"name": MDString.get(ctx, "i"), "scope": self.sp})
        self.loc = DILocation.get(ctx, 2, 1, self.sp)
        self.expr = DIExpression.get(ctx)
        f.set_metadata("dbg", self.sp)
        self.entry = f.append_block("entry")
        self.loop = f.append_block("loop")
        self.exit = f.append_block("exit")
        b = IRBuilder(self.entry)
        b.br(self.loop)
        b.position_at_end(self.loop)
        zero = ConstantInt.get(ctx.i32, 0)
        self.i = b.phi(ctx.i32, "i", [(zero, self.entry)])
        self.s = b.add(self.i, self.n, "s", nsw=True)
        self.s.debug_loc = self.loc
        self.s.set_metadata("note", MDTuple.get(ctx, (MDString.get(ctx, "x"),)))
        self.store = b.store(self.s, self.g)
        self.inext = b.add(self.i, ConstantInt.get(ctx.i32, 1), "i.next")
        self.i.add_incoming(self.inext, self.loop)
        self.c = b.icmp("slt", self.inext, self.n, "c")
        self.br = b.cond_br(self.c, self.loop, self.exit)
        b.position_at_end(self.exit)
        self.ret = b.ret(self.s)
        self.rec = DbgVariableRecord.create_value(self.i, self.var, self.expr, self.loc)
        self.s.add_dbg_record(self.rec)
        self.label = DINode.get(ctx, "DILabel", {"name": MDString.get(ctx, "L"), "scope": self.sp})
        self.ret.add_dbg_record(DbgLabelRecord(self.label, self.loc))


@pytest.fixture
def lp() -> Loop:
    return Loop()


def originals(fn: Function) -> set[Value]:
    out: set[Value] = set(fn.args)
    for bb in fn.blocks:
        out.add(bb)
        out.update(bb.instructions)
    return out


def test_clone_function_structure(lp: Loop) -> None:
    vmap: dict[Value, Value] = {}
    c = clone_function(lp.f, vmap)
    assert c.name == "f.1" and lp.m.get_function("f.1") is c and list(lp.m.functions) == [lp.f, c]
    assert c.function_type is lp.f.function_type and c.linkage is Linkage.INTERNAL and c.is_dso_local
    assert [a.name for a in c.args] == ["n", "p"]
    assert vmap[lp.n] is c.args[0] and vmap[lp.p] is c.args[1]
    assert [b.name for b in c.blocks] == ["entry", "loop", "exit"]
    assert [len(b.instructions) for b in c.blocks] == [1, 6, 1]
    entry, loop, exit_ = c.blocks
    s_copy = vmap[lp.s]
    assert vmap[lp.loop] is loop and isinstance(s_copy, Instruction) and s_copy.parent is loop
    # Names live in the clone's own table, unchanged.
    assert [i.name for i in loop.instructions] == ["i", "s", "", "i.next", "c", ""]
    assert c.symbol_table.lookup("s") is vmap[lp.s]
    # No operand of the clone refers to a value of the original body.
    olds = originals(lp.f)
    for bb in c.blocks:
        for inst in bb.instructions:
            assert inst.parent is bb
            for op in inst.operands:
                assert op not in olds, (inst, op)
    # The original is untouched.
    assert lp.s.operands == [lp.i, lp.n] and lp.i.incoming_blocks == [lp.entry, lp.loop]
    assert lp.loop.predecessors == [lp.loop, lp.entry]


def test_clone_remaps_phis_branches_and_keeps_outside_values(lp: Loop) -> None:
    vmap: dict[Value, Value] = {}
    c = clone_function(lp.f, vmap)
    entry, loop, exit_ = c.blocks
    phi = vmap[lp.i]
    assert isinstance(phi, PHINode)
    assert phi.incoming_blocks == [entry, loop]
    assert phi.incoming_values == [ConstantInt.get(lp.ctx.i32, 0), vmap[lp.inext]]
    br = loop.terminator
    assert br is vmap[lp.br] and br is not None and br.successors == [loop, exit_]
    assert entry.successors == [loop] and loop.predecessors == [loop, entry]
    assert exit_.predecessors == [loop] and lp.exit.predecessors == [lp.loop]
    # Values outside the function stay shared: the global and the constants.
    store = vmap[lp.store]
    assert isinstance(store, Instruction) and store.operands == [vmap[lp.s], lp.g]
    assert lp.g.num_uses == 2
    s = vmap[lp.s]
    assert isinstance(s, BinaryOperator) and s.nsw and s.operands == [phi, c.args[0]]
    assert lp.n.num_uses == 2 and c.args[0].num_uses == 2


def test_clone_copies_metadata_and_debug_records(lp: Loop) -> None:
    vmap: dict[Value, Value] = {}
    c = clone_function(lp.f, vmap)
    assert c.get_metadata("dbg") is lp.sp  # shared node, copied attachment
    s = vmap[lp.s]
    assert isinstance(s, Instruction)
    assert s.debug_loc is lp.loc and s.get_metadata("note") is lp.s.get_metadata("note")
    recs = s.dbg_records
    assert len(recs) == 1 and recs[0] is not lp.rec and recs[0].instruction is s
    rec = recs[0]
    assert isinstance(rec, DbgVariableRecord)
    assert rec.location_values() == [vmap[lp.i]] and rec.variable is lp.var and rec.debug_loc is lp.loc
    assert lp.rec.location_values() == [lp.i]  # the original record is untouched
    ret = vmap[lp.ret]
    assert isinstance(ret, Instruction)
    (lab,) = ret.dbg_records
    assert isinstance(lab, DbgLabelRecord) and lab.label is lp.label and lab is not lp.ret.dbg_records[0]
    # The copied record follows RAUW of the copy, not of the original.
    phi = vmap[lp.i]
    lp.i.replace_all_uses_with(ConstantInt.get(lp.ctx.i32, 3))
    assert rec.location_values() == [phi]


def test_clone_with_explicit_name_and_without_module() -> None:
    ctx = Context()
    f = Function(ctx.function_type(ctx.void, []), "lone")
    IRBuilder(f.append_block("e")).ret_void()
    c = clone_function(f, name="twin")
    assert c.parent is None and c.name == "twin" and len(c.blocks) == 1
    m = Module("m", ctx)
    m.functions.append(f)
    c2 = clone_function(f, name="lone")
    assert c2.name == "lone.1" and c2.parent is m


def test_clone_basic_block_with_suffix_and_remap(lp: Loop) -> None:
    vmap: dict[Value, Value] = {}
    nb = clone_basic_block(lp.loop, vmap, ".c", lp.f)
    assert nb.name == "loop.c" and nb.parent is lp.f and list(lp.f.blocks)[-1] is nb
    assert [i.name for i in nb.instructions] == ["i.c", "s.c", "", "i.next.c", "c.c", ""]
    assert vmap[lp.loop] is nb
    # Before remapping, the copies still use the originals.
    s_c = vmap[lp.s]
    assert isinstance(s_c, Instruction) and s_c.operands == [lp.i, lp.n]
    for inst in nb.instructions:
        remap_instruction(inst, vmap)
    assert s_c.operands == [vmap[lp.i], lp.n]  # the argument is outside the region
    phi_c = vmap[lp.i]
    assert isinstance(phi_c, PHINode) and phi_c.incoming_blocks == [lp.entry, nb]
    assert phi_c.incoming_values == [ConstantInt.get(lp.ctx.i32, 0), vmap[lp.inext]]
    assert nb.successors == [nb, lp.exit]
    assert nb.predecessors == [nb]
    rec = s_c.dbg_records[0]
    assert isinstance(rec, DbgVariableRecord) and rec.location_values() == [phi_c]
    # Unnamed values stay unnamed; an unnamed block stays unnamed.
    anon = lp.f.append_block()
    IRBuilder(anon).ret(lp.n)
    assert clone_basic_block(anon, {}, ".x").name == ""


def test_remap_instruction_rules() -> None:
    ctx = Context()
    m = Module("m", ctx)
    f = Function(ctx.function_type(ctx.i32, [ctx.i32, ctx.i32]), "f", module=m)
    a, b = f.args
    bb = f.append_block("bb")
    other = f.append_block("other")
    bld = IRBuilder(bb)
    x = bld.add(a, b, "x")
    phi = bld.phi(ctx.i32, "phi", [(a, bb), (a, other)])
    # Each operand slot is mapped from its original value, independently.
    y = bld.add(a, b, "y")
    remap_instruction(y, {a: b, b: a})
    assert y.operands == [b, a]
    remap_instruction(phi, {a: x, bb: other})
    assert phi.incoming == [(x, other), (x, other)]
    with pytest.raises(IRError, match="non-block"):
        remap_instruction(phi, {other: x})
    # An identity or missing mapping leaves the use alone (no use-list churn).
    before = a.use_list()
    remap_instruction(x, {a: a})
    assert a.use_list() == before


def test_remap_arg_list_and_assign_records() -> None:
    ctx = Context()
    m = Module("m", ctx)
    f = Function(ctx.function_type(ctx.void, [ctx.i32, ctx.i32, ctx.ptr]), "f", module=m)
    a, b, p = f.args
    sp = DINode.distinct(ctx, "DISubprogram", {})
    var = DINode.get(ctx, "DILocalVariable", {"scope": sp})
    loc = DILocation.get(ctx, 1, 1, sp)
    expr = DIExpression.get(ctx)
    bb = f.append_block("bb")
    bld = IRBuilder(bb)
    slot = bld.alloca(ctx.i32, name="slot")
    r = bld.ret_void()
    lst = DbgVariableRecord(
        DbgRecordKind.VALUE,
        DIArgList.get(ctx, [ValueAsMetadata.get(a), ValueAsMetadata.get(b), ValueAsMetadata.get(a)]),
        var,
        expr,
        loc,
    )
    r.add_dbg_record(lst)
    assign_id = DINode.distinct(ctx, "DIAssignID")
    asg = DbgVariableRecord.create_assign(a, var, expr, assign_id, slot, expr, loc)
    r.add_dbg_record(asg)
    g = Function(f.function_type, "g", module=m)
    ga, gb, gp = g.args
    vmap: dict[Value, Value] = {a: ga, b: gb, p: gp}
    copies = clone_instructions([slot, r], vmap)
    assert copies[0].opcode == "alloca" and copies[0].parent is None and copies[1].num_operands == 0
    assert vmap[slot] is copies[0]
    # clone_instructions does not carry debug records; clone_basic_block does.
    assert copies[1].dbg_records == []
    vmap2: dict[Value, Value] = {a: ga, b: gb, p: gp}
    nb = clone_basic_block(bb, vmap2, "", g)
    for inst in nb.instructions:
        remap_instruction(inst, vmap2)
    r2 = nb.terminator
    assert r2 is not None
    lst2, asg2 = r2.dbg_records
    assert isinstance(lst2, DbgVariableRecord) and isinstance(asg2, DbgVariableRecord)
    assert lst2.has_arg_list and lst2.location_values() == [ga, gb, ga]
    assert asg2.location_values() == [ga]
    assert asg2.address_value is vmap2[slot]  # the #dbg_assign address follows the clone
    assert asg.address_value is slot and lst.location_values() == [a, b, a]


def test_clone_function_into_requires_mapped_args() -> None:
    ctx = Context()
    m = Module("m", ctx)
    fty = ctx.function_type(ctx.i32, [ctx.i32])
    f = Function(fty, "f", module=m)
    IRBuilder(f.append_block("e")).ret(f.args[0])
    g = Function(fty, "g", module=m)
    with pytest.raises(IRError, match="argument 0"):
        clone_function_into(g, f, {})
    # Mapping the argument to a constant specialises the body.
    seven = ConstantInt.get(ctx.i32, 7)
    blocks = clone_function_into(g, f, {f.args[0]: seven}, ".s")
    assert [b.name for b in blocks] == ["e.s"] and list(g.blocks) == blocks
    assert blocks[0].terminator.operands == [seven]  # type: ignore[union-attr]
    assert not g.args[0].has_uses and f.args[0].num_uses == 1


def test_clone_keeps_use_lists_exact(lp: Loop) -> None:
    c = clone_function(lp.f)
    for fn in (lp.f, c):
        for bb in fn.blocks:
            for inst in bb.instructions:
                for idx, use in enumerate(inst.operand_uses):
                    assert use.index == idx and use.user is inst
                    assert sum(1 for u in use.value.uses if u is use) == 1
    assert isinstance(c.blocks.first, BasicBlock)
