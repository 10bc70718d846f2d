"""Functions, arguments and basic blocks as containers: names, order, insertion
and removal, the CFG queries, splitting, RAUW of blocks, erasure, ``delete_body``,
the optional constant operands and the fate of debug records.

LLVM facts checked: local names share one counter per function table
(``ValueSymbolTable::makeUniqueName``: ``x``, ``x1``, ``y2``); predecessors
come in use-list order, most recent use first; ``splitBasicBlock`` puts the
new block after the old one, ends the old one with ``br`` and renames the old
block in the successors' phis; a deleted body turns each ``blockaddress`` into
``inttoptr (i32 1 to ptr)`` and drops the function's metadata and
personality (``opt-19 -passes=elim-avail-extern`` on an
``available_externally`` function with ``!prof`` and a ``blockaddress`` user
prints ``@ba = global ptr inttoptr (i32 1 to ptr)`` and a bare ``declare``);
an erased instruction's debug records move to the front of the next
instruction's records (``DbgMarker::removeMarker``).
"""

from __future__ import annotations

import pytest

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir import (
    BasicBlock,
    BlockAddress,
    ConstantExpr,
    ConstantInt,
    Context,
    Function,
    IRBuilder,
    Instruction,
    Linkage,
    Module,
)
from llvmpy_mid.ir.debug_info import DIExpression, DILocation, DINode
from llvmpy_mid.ir.debug_records import DbgLabelRecord, DbgVariableRecord
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.metadata import MDString, MDTuple


class Env:
    def __init__(self) -> None:
        self.ctx = ctx = Context()
        self.m = Module("m", ctx)
        self.fty = ctx.function_type(ctx.i32, [ctx.i32, ctx.i32, ctx.i1])
        self.f = Function(self.fty, "f", module=self.m, arg_names=("a", "b", "c"))
        self.a, self.b, self.c = self.f.args


@pytest.fixture
def env() -> Env:
    return Env()


def check_block(bb: BasicBlock) -> None:
    """prev/next/parent links and the length agree with iteration both ways."""
    forward = list(bb.instructions)
    assert list(reversed(bb.instructions)) == forward[::-1]
    assert len(bb.instructions) == len(forward)
    prev = None
    for inst in forward:
        assert inst.parent is bb and inst.prev_instruction is prev
        if prev is not None:
            assert prev.next_instruction is inst and prev.comes_before(inst) and not inst.comes_before(prev)
        prev = inst
    assert bb.instructions.first is (forward[0] if forward else None)
    assert bb.instructions.last is (forward[-1] if forward else None)


# --- arguments and names -------------------------------------------------------------------------


def test_arguments(env: Env) -> None:
    f = env.f
    assert [a.name for a in f.args] == ["a", "b", "c"]
    assert [a.arg_no for a in f.args] == [0, 1, 2] and f.get_arg(2) is env.c
    assert all(a.parent is f for a in f.args) and env.c.type is env.ctx.i1
    assert f.return_type is env.ctx.i32 and not f.is_vararg
    unnamed = Function(env.fty, "g", module=env.m)
    assert [a.name for a in unnamed.args] == ["", "", ""]


def test_local_names_share_one_counter(env: Env) -> None:
    ctx = env.ctx
    f = Function(ctx.function_type(ctx.void, [ctx.i32] * 4), "g", module=env.m, arg_names=("x", "x", "y", "y"))
    assert [a.name for a in f.args] == ["x", "x1", "y", "y2"]
    bb = f.append_block("x")
    assert bb.name == "x3"
    b = IRBuilder(bb)
    s = b.add(f.args[0], f.args[1], "y")
    assert s.name == "y4"
    assert f.symbol_table.lookup("y4") is s and f.symbol_table.lookup("x3") is bb
    # Renaming frees the old name; the counter keeps growing.
    f.args[0].name = "z"
    assert f.symbol_table.lookup("x") is None
    t = b.add(s, s, "x")
    assert t.name == "x"
    u = b.add(t, t, "x")
    assert u.name == "x5"
    # Another function has its own table and counter.
    other = Function(ctx.function_type(ctx.void, [ctx.i32, ctx.i32]), "h", module=env.m, arg_names=("x", "x"))
    assert [a.name for a in other.args] == ["x", "x1"]
    # Void values cannot be named.
    r = b.ret_void()
    with pytest.raises(IRError, match="void"):
        r.name = "r"


def test_names_follow_instructions_and_blocks_between_functions(env: Env) -> None:
    ctx = env.ctx
    f = env.f
    bb = f.append_block("entry")
    b = IRBuilder(bb)
    s = b.add(env.a, env.b, "s")
    b.ret(s)
    assert f.symbol_table.lookup("s") is s
    s.remove_from_parent()
    assert f.symbol_table.lookup("s") is None and s.name == "s"
    s.insert_before(bb.terminator)  # type: ignore[arg-type]
    assert f.symbol_table.lookup("s") is s
    # Moving a whole block moves the names of the block and its instructions.
    g = Function(env.fty, "g", module=env.m)
    clash = IRBuilder(g.append_block("gentry")).add(g.args[0], g.args[1], "s")
    bb.remove_from_parent()
    assert f.symbol_table.lookup("entry") is None and f.symbol_table.lookup("s") is None
    g.blocks.append(bb)
    assert bb.parent is g and g.symbol_table.lookup("entry") is bb
    assert clash.name == "s" and s.name == "s1" and g.symbol_table.lookup("s1") is s
    # Instructions named in a detached block enter the table on insertion.
    loose = BasicBlock(ctx, "loose")
    x = BinaryAdd(env.a)
    loose.append(x)
    x.name = "s"
    assert x.name == "s"  # no table yet
    f.blocks.append(loose)
    assert x.name == "s" and f.symbol_table.lookup("s") is x


def BinaryAdd(v: object) -> Instruction:
    from llvmpy_mid.ir.instructions.binary import AddInst

    return AddInst(v, v)  # type: ignore[arg-type]


# --- blocks in a function -------------------------------------------------------------------------


def test_blocks_entry_first_and_positions(env: Env) -> None:
    f = env.f
    assert f.is_declaration
    with pytest.raises(IRError):
        _ = f.entry_block
    entry = f.append_block("entry")
    exit_ = f.append_block("exit")
    mid = BasicBlock(env.ctx, "mid", parent=f, insert_before=exit_)
    first = BasicBlock(env.ctx, "first", parent=f, insert_before=entry)
    assert list(f.blocks) == [first, entry, mid, exit_]
    assert f.entry_block is first and first.is_entry_block and not entry.is_entry_block
    assert not f.is_declaration and len(f.blocks) == 4
    assert mid.prev_block is entry and mid.next_block is exit_ and first.prev_block is None
    assert f.blocks[2] is mid and f.blocks[-1] is exit_ and f.blocks.index(exit_) == 3
    first.move_after(exit_)
    assert list(f.blocks) == [entry, mid, exit_, first] and f.entry_block is entry
    first.move_before(entry)
    assert list(f.blocks) == [first, entry, mid, exit_]
    assert mid.module is env.m and all(b.parent is f for b in f.blocks)
    other = Function(env.fty, "g", module=env.m)
    gb = other.append_block("gb")
    with pytest.raises(IRError):
        gb.move_before(entry)


def test_comes_before_with_middle_insertions(env: Env) -> None:
    bb = env.f.append_block("entry")
    b = IRBuilder(bb)
    i0 = b.add(env.a, env.b, "i0")
    i1 = b.add(i0, env.b, "i1")
    i2 = b.add(i1, env.b, "i2")
    assert i0.comes_before(i1) and i1.comes_before(i2) and not i2.comes_before(i0)
    # Insert in the middle: the cached order must be renumbered.
    b.position_before(i1)
    m1 = b.mul(i0, i0, "m1")
    m2 = b.mul(m1, i0, "m2")
    assert list(bb.instructions) == [i0, m1, m2, i1, i2]
    assert i0.comes_before(m1) and m1.comes_before(m2) and m2.comes_before(i1)
    assert not i1.comes_before(m2) and not m1.comes_before(m1)
    # Insert at the front, then after the last.
    b.position_at_start(bb)
    head = b.sub(env.a, env.b, "head")
    assert head.comes_before(i0) and not i0.comes_before(head)
    tail = BinaryAdd(env.a)
    tail.insert_after(i2)
    assert i2.comes_before(tail)
    # Removal keeps the order valid; a moved instruction is ordered at its new place.
    m1.move_after(i2)
    assert list(bb.instructions) == [head, i0, m2, i1, i2, m1, tail]
    assert i2.comes_before(m1) and m1.comes_before(tail) and m2.comes_before(m1)
    i2.move_before(head)
    assert i2.comes_before(head) and i2.comes_before(tail)
    check_block(bb)
    other = env.f.append_block("other")
    o = IRBuilder(other).add(env.a, env.a)
    with pytest.raises(IRError, match="same block"):
        o.comes_before(i0)


def test_iterate_while_erasing_current(env: Env) -> None:
    bb = env.f.append_block("entry")
    b = IRBuilder(bb)
    dead = [b.add(env.a, ConstantInt.get(env.ctx.i32, k)) for k in range(6)]
    keep = b.add(env.a, env.b, "keep")
    b.ret(keep)
    seen = []
    for inst in bb.instructions:
        seen.append(inst)
        if not inst.has_uses and not inst.is_terminator:
            inst.erase_from_parent()
    assert seen == dead + [keep, bb.terminator]
    assert list(bb.instructions) == [keep, bb.terminator]
    assert all(d.parent is None and d.num_operands == 0 for d in dead)
    assert not env.a.is_used_by(dead[0]) and env.a.num_uses == 1
    check_block(bb)
    # Reverse iteration survives erasure too.
    b.position_before(keep)
    more = [b.mul(env.b, env.b) for _ in range(3)]
    for inst in reversed(bb.instructions):
        if inst in more:
            inst.erase_from_parent()
    assert list(bb.instructions) == [keep, bb.terminator] and env.b.num_uses == 1


def test_erase_used_instruction_raises(env: Env) -> None:
    bb = env.f.append_block("entry")
    b = IRBuilder(bb)
    s = b.add(env.a, env.b, "s")
    t = b.mul(s, s, "t")
    b.ret(t)
    with pytest.raises(IRError, match=r"cannot erase .*%s.*2 use\(s\).*replace its uses first"):
        s.erase_from_parent()
    assert s.parent is bb and list(s.users) == [t, t] and env.f.symbol_table.lookup("s") is s


def test_remove_and_reinsert_keeps_operands_and_uses(env: Env) -> None:
    f = env.f
    entry = f.append_block("entry")
    other = f.append_block("other")
    b = IRBuilder(entry)
    s = b.add(env.a, env.b, "s")
    t = b.mul(s, env.a, "t")
    b.br(other)
    r = IRBuilder(other).ret(t)
    s_uses_before = [(u.user, u.index) for u in s.uses]
    t.remove_from_parent()
    assert t.parent is None and t.operands == [s, env.a]
    assert [(u.user, u.index) for u in s.uses] == s_uses_before
    assert r.get_operand(0) is t and t.is_used_by(r)
    with pytest.raises(IRError):
        t.remove_from_parent()
    t.insert_before(r)
    assert list(other.instructions) == [t, r] and t.parent is other and t.function is f
    assert t.operands == [s, env.a] and list(t.users) == [r] and t.name == "t"
    with pytest.raises(IRError, match="already in a block"):
        t.insert_before(r)
    # insert_into with an explicit position, and a position from another block is refused.
    u = BinaryAdd(env.b)
    with pytest.raises(IRError):
        u.insert_into(entry, r)
    u.insert_into(other, r)
    assert list(other.instructions) == [t, u, r]
    check_block(entry)
    check_block(other)


def test_move_before_after_across_blocks(env: Env) -> None:
    f = env.f
    e = f.append_block("e")
    x = f.append_block("x")
    b = IRBuilder(e)
    p = b.add(env.a, env.b, "p")
    q = b.add(p, env.b, "q")
    b.br(x)
    rb = IRBuilder(x)
    r = rb.ret(q)
    p_uses = p.use_list()
    q.move_before(r)
    assert list(x.instructions) == [q, r] and q.parent is x and q.get_operand(0) is p
    assert p.use_list() == p_uses
    p.move_after(q)
    assert list(x.instructions) == [q, p, r] and list(e.instructions) == [e.terminator]
    assert f.symbol_table.lookup("p") is p
    check_block(e)
    check_block(x)


# --- CFG -----------------------------------------------------------------------------------------


def test_predecessors_most_recent_first_and_successors(env: Env) -> None:
    f = env.f
    entry = f.append_block("entry")
    left = f.append_block("left")
    right = f.append_block("right")
    join = f.append_block("join")
    IRBuilder(entry).cond_br(env.c, left, right)
    IRBuilder(left).br(join)
    IRBuilder(right).br(join)
    ret = IRBuilder(join).ret(env.a)
    assert entry.successors == [left, right] and join.successors == []
    assert left.predecessors == [entry] and left.single_predecessor is entry
    assert join.predecessors == [right, left]  # the most recent branch first
    assert join.num_predecessors == 2 and join.single_predecessor is None and join.unique_predecessor is None
    assert entry.predecessors == [] and entry.unique_predecessor is None
    assert left.single_successor is join and entry.single_successor is None
    assert join.terminator is ret and ret.successors == []
    # Both edges to one block: duplicates are kept; the false edge's use is newer.
    loop = f.append_block("loop")
    IRBuilder(loop).cond_br(env.c, join, join)
    assert join.predecessors == [loop, loop, right, left]
    assert loop.unique_successor is join and loop.single_successor is None
    # A detached branch or a non-terminator user (blockaddress) is no predecessor.
    BlockAddress.get(f, join)
    BranchInst(join)
    assert join.predecessors == [loop, loop, right, left]


def test_split_block(env: Env) -> None:
    ctx = env.ctx
    f = env.f
    entry = f.append_block("entry")
    body = f.append_block("body")
    exit_ = f.append_block("exit")
    IRBuilder(entry).br(body)
    b = IRBuilder(body)
    s = b.add(env.a, env.b, "s")
    t = b.mul(s, s, "t")
    b.cond_br(env.c, exit_, body)
    xb = IRBuilder(exit_)
    phi = xb.phi(ctx.i32, "p", [(t, body), (env.a, entry)])
    xb.ret(phi)
    loc = DILocation.get(ctx, 7, 3, DINode.distinct(ctx, "DISubprogram", {}))
    t.debug_loc = loc
    new = body.split(t, "body.split")
    assert list(f.blocks) == [entry, body, new, exit_]
    assert new.name == "body.split" and new.parent is f
    assert list(body.instructions)[0] is s and isinstance(body.terminator, BranchInst)
    br = body.terminator
    assert br is not None and br.successors == [new] and br.debug_loc is loc
    assert list(new.instructions)[0] is t and t.parent is new
    assert new.successors == [exit_, body]
    # The phi in the successor now names the new block; the loop edge makes the
    # old block a successor too, but its phis had no entry for it.
    assert phi.incoming_blocks == [new, entry]
    assert body.predecessors == [new, entry]  # the moved loop branch is the newer use
    assert new.predecessors == [body]
    check_block(body)
    check_block(new)
    with pytest.raises(IRError):
        body.split(t)
    empty = f.append_block("noterm")
    with pytest.raises(IRError, match="terminator"):
        IRBuilder(empty).add(env.a, env.a)
        empty.split(empty.instructions.first)  # type: ignore[arg-type]


def test_block_rauw_updates_branches_and_successor_phis(env: Env) -> None:
    ctx = env.ctx
    f = env.f
    entry = f.append_block("entry")
    old = f.append_block("old")
    new = f.append_block("new")
    join = f.append_block("join")
    IRBuilder(entry).cond_br(env.c, old, join)
    IRBuilder(old).br(join)
    IRBuilder(new).br(join)
    jb = IRBuilder(join)
    phi = jb.phi(ctx.i32, "p", [(env.a, old), (env.b, entry)])
    jb.ret(phi)
    old.replace_all_uses_with(new)
    assert entry.successors == [new, join] and not old.has_uses
    assert phi.incoming_blocks == [new, entry]
    with pytest.raises(IRError):
        new.replace_all_uses_with(env.a)


def test_block_erase(env: Env) -> None:
    f = env.f
    entry = f.append_block("entry")
    dead = f.append_block("dead")
    IRBuilder(entry).br(dead)
    db = IRBuilder(dead)
    x = db.add(env.a, env.b, "x")
    y = db.mul(x, x, "y")
    db.ret(y)
    with pytest.raises(IRError, match="still has uses"):
        dead.erase_from_parent()
    # An instruction used outside the block also blocks the erase.
    lonely = f.append_block("lonely")
    z = IRBuilder(lonely).add(y, y, "z")
    entry.terminator.erase_from_parent()  # type: ignore[union-attr]
    with pytest.raises(IRError, match="used outside"):
        dead.erase_from_parent()
    z.erase_from_parent()
    dead.erase_from_parent()
    assert list(f.blocks) == [entry, lonely] and dead.parent is None
    assert env.a.num_uses == 0 and env.b.num_uses == 0
    assert f.symbol_table.lookup("x") is None and f.symbol_table.lookup("dead") is None
    with pytest.raises(IRError):
        dead.remove_from_parent()


def test_block_address_of_erased_block(env: Env) -> None:
    f = env.f
    entry = f.append_block("entry")
    target = f.append_block("target")
    IRBuilder(entry).ret(env.a)
    IRBuilder(target).ret(env.b)
    ba = BlockAddress.get(f, target)
    g = env.m.add_global(env.ctx.ptr, "ba", initializer=ba)
    assert ba.function is f and ba.block is target
    with pytest.raises(IRError, match="blockaddress"):
        target.erase_from_parent()


def test_delete_body(env: Env) -> None:
    ctx = env.ctx
    m = env.m
    f = env.f
    f.linkage = Linkage.AVAILABLE_EXTERNALLY
    pers = m.add_function("pers", ctx.function_type(ctx.i32, [], True))
    f.personality = pers
    f.set_metadata("prof", MDTuple.get(ctx, (MDString.get(ctx, "function_entry_count"),)))
    entry = f.append_block("entry")
    nxt = f.append_block("next")
    b = IRBuilder(entry)
    s = b.add(env.a, env.b, "s")
    b.br(nxt)
    nb = IRBuilder(nxt)
    nb.ret(s)
    ba = BlockAddress.get(f, nxt)
    g = m.add_global(ctx.ptr, "ba", initializer=ba)
    f.delete_body()
    assert f.is_declaration and list(f.blocks) == [] and f.linkage is Linkage.EXTERNAL
    assert f.personality is None and not pers.has_uses
    assert f.metadata_items() == []  # LLVM clears the function's attachments
    assert env.a.num_uses == 0 and env.b.num_uses == 0
    assert f.symbol_table.lookup("s") is None and f.symbol_table.lookup("entry") is None
    one = ConstantInt.get(ctx.i32, 1)
    assert g.initializer is ConstantExpr.get_cast("inttoptr", one, ctx.ptr)
    assert not ba.has_uses and not f.is_used_by(ba)
    # Arguments survive with their names; a new body can be built.
    assert [a.name for a in f.args] == ["a", "b", "c"]
    IRBuilder(f.append_block("again")).ret(env.a)
    assert not f.is_declaration


def test_optional_constants_are_operands(env: Env) -> None:
    ctx = env.ctx
    m = env.m
    f = env.f
    assert f.personality is None and f.prefix_data is None and f.prologue_data is None
    assert f.num_operands == 0
    pers = m.add_function("__gxx_personality_v0", ctx.function_type(ctx.i32, [], True))
    pre = ConstantInt.get(ctx.i32, 7)
    pro = ConstantInt.get(ctx.i8, 1)
    f.prologue_data = pro
    f.personality = pers
    f.prefix_data = pre
    assert f.personality is pers and f.prefix_data is pre and f.prologue_data is pro
    assert [u.index for u in f.operand_uses] == [0, 1, 2]
    assert list(pers.users) == [f] and pers.use_list()[0].index == 0
    # RAUW of the personality function updates the function's operand.
    pers2 = m.add_function("pers2", pers.function_type)
    pers.replace_all_uses_with(pers2)
    assert f.personality is pers2 and not pers.has_uses and list(pers2.users) == [f]
    pers.erase_from_parent()
    f.prefix_data = None
    assert f.prefix_data is None and f.prologue_data is pro and not pre.is_used_by(f)
    assert [u.index for u in f.operand_uses] == [0, 2]
    # copy_attributes_from copies them into another function's own operands.
    g = Function(env.fty, "g", module=m)
    g.copy_attributes_from(f)
    assert g.personality is pers2 and g.prologue_data is pro and pers2.num_uses == 2


def test_instruction_queries_of_position(env: Env) -> None:
    f = env.f
    bb = f.append_block("entry")
    b = IRBuilder(bb)
    s = b.add(env.a, env.b)
    ret = b.ret(s)
    assert s.function is f and s.module is env.m and ret.is_terminator and bb.terminator is ret
    assert bb.first_instruction is s and bb.first_non_phi is s and bb.first_insertion_point is s
    assert f.instruction_count == 2 and list(f.instructions()) == [s, ret]
    loose = BinaryAdd(env.a)
    assert loose.function is None and loose.module is None


# --- debug records ----------------------------------------------------------------------------


def test_debug_records_move_to_next_instruction(env: Env) -> None:
    ctx = env.ctx
    sp = DINode.distinct(ctx, "DISubprogram", {"name": MDString.get(ctx, "f")})
    var = DINode.get(ctx, "DILocalVariable", {"name": MDString.get(ctx, "v"), "scope": sp})
    label = DINode.get(ctx, "DILabel", {"name": MDString.get(ctx, "L"), "scope": sp})
    loc = DILocation.get(ctx, 1, 1, sp)
    expr = DIExpression.get(ctx)
    bb = env.f.append_block("entry")
    b = IRBuilder(bb)
    x = b.add(env.a, env.b, "x")
    y = b.add(env.a, env.a, "y")
    z = b.mul(y, y, "z")
    r = b.ret(z)
    r1 = DbgVariableRecord.create_value(env.a, var, expr, loc)
    r2 = DbgLabelRecord(label, loc)
    r3 = DbgVariableRecord.create_value(env.b, var, expr, loc)
    x.add_dbg_record(r1)
    x.add_dbg_record(r2)
    y.add_dbg_record(r3)
    x.erase_from_parent()
    # The erased instruction's records go first, before y's own.
    assert y.dbg_records == [r1, r2, r3] and all(r.instruction is y for r in (r1, r2, r3))
    assert r1.function is env.f
    # remove_from_parent hands them on as well; the removed instruction keeps none.
    y.remove_from_parent()
    assert y.dbg_records == [] and z.dbg_records == [r1, r2, r3]
    y.insert_before(z)
    # Erasing the last instruction of a block leaves its records unattached.
    z.replace_all_uses_with(env.a)
    z.erase_from_parent()
    assert r.dbg_records == [r1, r2, r3]
    r.erase_from_parent()
    assert r1.instruction is None and r2.instruction is None
    # A record whose location value is erased becomes a poison location.
    r4 = DbgVariableRecord.create_value(y, var, expr, loc)
    tail = IRBuilder(bb).ret(env.a)
    tail.add_dbg_record(r4)
    y.erase_from_parent()
    assert r4.is_kill_location and r4.location_values()[0].type is ctx.i32


def test_moving_leaves_debug_records_behind_unless_preserving(env: Env) -> None:
    # opt-19 -passes=licm hoists `%x = mul` out of a loop and the `#dbg_value`
    # that preceded it stays in the loop, in front of the next instruction
    # (LLVM `moveBefore`); `moveBeforePreserving` takes the records along.
    ctx = env.ctx
    sp = DINode.distinct(ctx, "DISubprogram", {})
    var = DINode.get(ctx, "DILocalVariable", {"scope": sp})
    loc = DILocation.get(ctx, 1, 1, sp)
    expr = DIExpression.get(ctx)
    pre = env.f.append_block("pre")
    loop = env.f.append_block("loop")
    pb = IRBuilder(pre)
    pre_br = pb.br(loop)
    lb = IRBuilder(loop)
    x = lb.mul(env.a, env.a, "x")
    y = lb.add(x, env.b, "y")
    ret = lb.ret(y)
    rec = DbgVariableRecord.create_value(env.b, var, expr, loc)
    x.add_dbg_record(rec)
    x.move_before(pre_br)
    assert x.parent is pre and x.dbg_records == [] and y.dbg_records == [rec] and rec.instruction is y
    # Preserving: the records travel with the instruction.
    y.move_before(ret, preserve_dbg_records=True)  # already there: nothing changes
    assert y.dbg_records == [rec]
    y.move_after(x, preserve_dbg_records=True)
    assert y.parent is pre and y.dbg_records == [rec] and ret.dbg_records == []
    # move_after to where it already is keeps the records too.
    y.move_after(x)
    assert y.dbg_records == [rec]
    y.move_before(ret)
    assert y.parent is loop and y.dbg_records == [] and pre_br.dbg_records == [rec]


def test_erasing_a_function_releases_its_body(env: Env) -> None:
    ctx = env.ctx
    m = env.m
    g = m.add_global(ctx.i32, "g")
    callee = m.add_function("callee", ctx.function_type(ctx.void, []))
    f = env.f
    b = IRBuilder(f.append_block("entry"))
    b.call(callee)
    b.store(env.a, g)
    rec = b.call(f, [env.a, env.b, env.c])  # recursion: f uses itself
    b.ret(rec)
    with pytest.raises(IRError, match="use"):
        f.erase_from_parent()  # the recursive call is a use
    # LLVM: drop the body's references first, then erase.
    f.drop_all_references()
    assert f.is_declaration and not f.has_uses
    f.erase_from_parent()
    assert not callee.has_uses and not g.has_uses and m.get_function("f") is None
    # Erasing a defined, unused function deletes its body on the way out.
    h = m.add_function("h", ctx.function_type(ctx.void, []))
    hb = IRBuilder(h.append_block("entry"))
    hb.call(callee)
    hb.store(ConstantInt.get(ctx.i32, 0), g)
    hb.ret_void()
    h.erase_from_parent()
    assert not callee.has_uses and not g.has_uses and list(m.functions) == [callee]
