"""Property test: random edit sequences on real IR keep every use-list and
every block's instruction list exact.

A random program of steps builds instructions with ``IRBuilder`` (binary
operators, phis, calls with operand bundles) in several blocks of a function,
then RAUWs values, rewrites single operands and phi entries, erases unused
instructions, removes instructions and re-inserts them elsewhere (also in
another function), retargets branches, and clones instructions, blocks and the
whole function. After every step the checker rebuilds, from the live users'
operand slots alone, what each value's use-list must contain and compares it
with the list reached through ``value.uses`` (each slot exactly once, with the
right ``user`` and ``index``; ``num_uses``/``has_one_use``/``users`` agree),
and checks each block's links, parent pointers, length, order numbers and the
function symbol tables.
"""

from __future__ import annotations

from typing import Iterable, Sequence, TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from llvmpy_mid.ir import (
    BasicBlock,
    ConstantInt,
    Context,
    Function,
    Instruction,
    IRBuilder,
    Module,
    User,
    Value,
    clone_basic_block,
    clone_function,
    remap_instruction,
)
from llvmpy_mid.ir.instructions.other import PHINode

N_OPS = 14
T = TypeVar("T")


class World:
    def __init__(self) -> None:
        self.ctx = ctx = Context()
        self.m = m = Module("m", ctx)
        self.i32 = ctx.i32
        self.fty = ctx.function_type(ctx.i32, [ctx.i32, ctx.i32, ctx.i32])
        self.g = m.add_function("g", ctx.function_type(ctx.i32, [ctx.i32, ctx.i32]))
        self.f = Function(self.fty, "f", module=m, arg_names=("a", "b", "a"))
        self.consts = [ConstantInt.get(ctx.i32, k) for k in (0, 1, -1, 7)]
        blocks = [self.f.append_block(n) for n in ("entry", "b1", "b2", "exit")]
        for i, bb in enumerate(blocks[:-1]):
            IRBuilder(bb).br(blocks[i + 1])
        IRBuilder(blocks[-1]).ret(self.f.args[0])
        self.functions: list[Function] = [self.f]
        self.detached: list[Instruction] = []
        self.erased: list[Instruction] = []
        self.clones = 0

    # --- pools ---------------------------------------------------------------------------
    def blocks(self) -> list[BasicBlock]:
        return [bb for fn in self.functions for bb in fn.blocks]

    def placed(self) -> list[Instruction]:
        return [i for bb in self.blocks() for i in bb.instructions]

    def movable(self) -> list[Instruction]:
        return [i for i in self.placed() if not i.is_terminator]

    def live_instructions(self) -> list[Instruction]:
        return self.placed() + self.detached

    def i32_values(self) -> list[Value]:
        vals: list[Value] = []
        for fn in self.functions:
            vals.extend(fn.args)
        vals.extend(self.consts)
        vals.extend(i for i in self.live_instructions() if i.type is self.i32)
        return vals

    @staticmethod
    def pick(seq: Sequence[T], k: int) -> T:
        return seq[k % len(seq)]

    def builder_at(self, k: int) -> IRBuilder:
        """A builder at a random position before some block's terminator."""
        bb = self.blocks()[k % len(self.blocks())]
        insts = list(bb.instructions)
        pos = insts[(k // 7) % len(insts)]
        return IRBuilder(bb, before=pos)

    # --- steps ---------------------------------------------------------------------------------
    def step(self, op: int, x: int, y: int, z: int) -> None:
        vals = self.i32_values()
        if op == 0:  # binary operator
            b = self.builder_at(x)
            kind = ("add", "sub", "mul", "xor", "shl")[z % 5]
            b.binop(kind, self.pick(vals, y), self.pick(vals, y // 3 + z), "v" if z % 2 else "")
        elif op == 1:  # phi at a block start
            bb = self.blocks()[x % len(self.blocks())]
            b = IRBuilder()
            b.position_at_start(bb)
            preds = self.blocks()
            incoming = [(self.pick(vals, y + i), preds[(z + i) % len(preds)]) for i in range(z % 3 + 1)]
            b.phi(self.i32, "p", incoming)
        elif op == 2:  # call, sometimes with a bundle
            b = self.builder_at(x)
            args = [self.pick(vals, y), self.pick(vals, z)]
            bundles = [("deopt", [self.pick(vals, y + z), self.pick(vals, x)])] if z % 2 else []
            b.call(self.g, args, "c", bundles=bundles)
        elif op == 3:  # RAUW
            insts = [i for i in self.live_instructions() if i.type is self.i32]
            if insts:
                old = self.pick(insts, x)
                new = self.pick(vals, y)
                if new is not old:
                    old.replace_all_uses_with(new)
        elif op == 4:  # erase an unused instruction (placed or detached)
            dead = [i for i in self.live_instructions() if not i.has_uses and not i.is_terminator]
            if dead:
                victim = self.pick(dead, x)
                assert isinstance(victim, Instruction)
                if victim in self.detached:
                    self.detached.remove(victim)
                victim.erase_from_parent()
                self.erased.append(victim)
        elif op == 5:  # remove from the block, keep it detached for a while
            movable = self.movable()
            if movable:
                inst = self.pick(movable, x)
                assert isinstance(inst, Instruction)
                inst.remove_from_parent()
                self.detached.append(inst)
        elif op == 6:  # re-insert a detached instruction elsewhere
            if self.detached:
                inst = self.detached.pop(x % len(self.detached))
                b = self.builder_at(y)
                assert b.insert_before is not None
                inst.insert_before(b.insert_before)
        elif op == 7:  # move a placed instruction
            movable = self.movable()
            if movable:
                inst = self.pick(movable, x)
                b = self.builder_at(y)
                target = b.insert_before
                assert isinstance(inst, Instruction) and target is not None
                if target is not inst:
                    if z % 2:
                        inst.move_before(target)
                    elif not target.is_terminator:
                        inst.move_after(target)
        elif op == 8:  # rewrite one operand slot
            users = [i for i in self.live_instructions() if i.num_operands and not i.is_terminator]
            users = [i for i in users if not i.is_call_base or i.num_operands > 1]
            if users:
                inst = self.pick(users, x)
                assert isinstance(inst, Instruction)
                idx = y % inst.num_operands
                if inst.is_call_base and idx == inst.num_operands - 1:
                    idx -= 1  # keep the callee
                if inst.get_operand(idx).type is self.i32:
                    inst.set_operand(idx, self.pick(vals, z))
        elif op == 9:  # phi edits: add or remove an incoming pair
            phis = [i for i in self.live_instructions() if isinstance(i, PHINode)]
            if phis:
                phi = self.pick(phis, x)
                assert isinstance(phi, PHINode)
                if z % 2 and phi.num_incoming:
                    phi.remove_incoming_value(y % phi.num_incoming)
                else:
                    phi.add_incoming(self.pick(vals, y), self.pick(self.blocks(), z))
        elif op == 10:  # retarget a branch
            brs = [i for i in self.placed() if i.opcode == "br"]
            if brs:
                br = self.pick(brs, x)
                assert isinstance(br, Instruction)
                br.set_successor(0, self.pick(self.blocks(), y))
        elif op == 11:  # clone one instruction next to a random position
            movable = self.movable() + self.detached
            if movable:
                src = self.pick(movable, x)
                assert isinstance(src, Instruction)
                copy = src.clone()
                b = self.builder_at(y)
                b.insert(copy, "k" if copy.type is self.i32 else "")
        elif op == 12:  # clone a block into its own function, remapped
            if self.clones < 3:
                self.clones += 1
                bb = self.pick(self.blocks(), x)
                assert isinstance(bb, BasicBlock) and bb.parent is not None
                vmap: dict[Value, Value] = {}
                nb = clone_basic_block(bb, vmap, ".c", bb.parent)
                for inst in nb.instructions:
                    remap_instruction(inst, vmap)
        elif op == 13:  # clone the whole function
            if self.clones < 3 and len(self.functions) < 3:
                self.clones += 1
                src_fn = self.functions[x % len(self.functions)]
                self.functions.append(clone_function(src_fn))
        elif op == 14:  # replace_uses_with_if on a parity predicate
            insts = [i for i in self.live_instructions() if i.type is self.i32]
            if insts:
                old = self.pick(insts, x)
                new = self.pick(vals, y)
                if new is not old:
                    old.replace_uses_with_if(new, lambda u: u.index % 2 == z % 2)

    # --- the invariant -------------------------------------------------------------------------
    def live_users(self) -> list[User]:
        users: list[User] = list(self.live_instructions())
        users.extend(self.functions)
        users.append(self.g)
        return users

    def check(self) -> None:
        users = self.live_users()
        user_ids = {id(u) for u in users}
        expected: dict[int, set[int]] = {}
        values: dict[int, Value] = {}
        for user in users:
            for i, use in enumerate(user.operand_uses):
                assert use.user is user and use.index == i
                v = use.value
                values[id(v)] = v
                expected.setdefault(id(v), set()).add(id(use))
        reachable: list[Value] = list(values.values())
        for fn in self.functions:
            reachable.extend(fn.args)
            reachable.extend(fn.blocks)
            reachable.append(fn)
        reachable.extend(self.consts)
        reachable.extend(self.live_instructions())
        reachable.append(self.g)
        for v in reachable:
            walked = list(v.uses)
            ids = [id(u) for u in walked]
            assert len(ids) == len(set(ids)), "a use appears twice in %r's list" % (v,)
            assert set(ids) == expected.get(id(v), set()), "use-list of %r is wrong" % (v,)
            prev = None
            for use in walked:
                assert use.value is v and use._prev is prev
                assert id(use.user) in user_ids, "%r is used by a dead user" % (v,)
                assert use.user.operand_uses[use.index] is use
                prev = use
            assert v.num_uses == len(walked)
            assert v.has_one_use == (len(walked) == 1)
            assert v.has_uses == bool(walked) and v.use_empty == (not walked)
            assert list(v.users) == [u.user for u in walked]
        for dead in self.erased:
            assert dead.parent is None and dead.num_operands == 0 and not dead.has_uses
        for inst in self.detached:
            assert inst.parent is None and inst.prev_instruction is None and inst.next_instruction is None
        for fn in self.functions:
            self.check_function(fn)

    def check_function(self, fn: Function) -> None:
        table = fn.symbol_table
        named: list[Value] = [a for a in fn.args if a.name]
        prev_bb = None
        for bb in fn.blocks:
            assert bb.parent is fn and bb.prev_block is prev_bb
            prev_bb = bb
            if bb.name:
                named.append(bb)
            self.check_block(bb)
            named.extend(i for i in bb.instructions if i.name)
        assert len(fn.blocks) == sum(1 for _ in fn.blocks)
        for v in named:
            assert table.lookup(v.name) is v, "%r missing from the symbol table" % (v,)
        assert len(table) == len(named)
        for inst in self.detached:
            if inst.name:
                assert table.lookup(inst.name) is not inst

    def check_block(self, bb: BasicBlock) -> None:
        forward = list(bb.instructions)
        assert list(reversed(bb.instructions)) == forward[::-1]
        assert len(bb.instructions) == len(forward) == len(bb)
        assert bb.instructions.first is (forward[0] if forward else None)
        assert bb.instructions.last is (forward[-1] if forward else None)
        prev = None
        for inst in forward:
            assert inst.parent is bb and inst.prev_instruction is prev
            if prev is not None:
                assert prev.next_instruction is inst
                assert prev.comes_before(inst) and not inst.comes_before(prev)
            prev = inst
        # Exactly one terminator, at the end (the steps never move or erase one).
        assert forward and forward[-1].is_terminator
        assert sum(1 for i in forward if i.is_terminator) == 1
        preds: Iterable[BasicBlock] = bb.predecessors
        for p in preds:
            assert p.terminator is not None and bb in p.successors


steps = st.lists(
    st.tuples(st.integers(0, N_OPS), st.integers(0, 10_000), st.integers(0, 10_000), st.integers(0, 10_000)),
    min_size=5,
    max_size=50,
)


@settings(max_examples=200, deadline=None)
@given(steps)
def test_random_ir_edits_keep_use_lists_exact(program: list[tuple[int, int, int, int]]) -> None:
    world = World()
    world.check()
    for op, x, y, z in program:
        world.step(op, x, y, z)
        world.check()
    # Tear-down: erasing everything that is unused, repeatedly, ends with no
    # instruction using an argument except the ones still alive.
    changed = True
    while changed:
        changed = False
        for inst in world.live_instructions():
            if not inst.has_uses and not inst.is_terminator:
                if inst in world.detached:
                    world.detached.remove(inst)
                inst.erase_from_parent()
                world.erased.append(inst)
                changed = True
    world.check()


def test_interleaved_builder_edits_example() -> None:
    """A fixed sequence touching every step kind once, as a readable example."""
    world = World()
    for op in range(N_OPS + 1):
        world.step(op, 3 * op + 1, 5 * op + 2, op)
        world.check()
    assert world.f.instruction_count >= 4
