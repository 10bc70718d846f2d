"""Build a small module with IRBuilder and inspect it.

Run with ``python -m llvmpy_mid.examples.build_module``. It builds a
function computing ``sum(i * i for i in range(n))`` with a loop (phis,
compare, branches), asks the questions passes ask (predecessors, uses,
data layout sizes), clones the function, and replaces uses, printing what
it finds. (Printing the IR text itself arrives with the assembly printer.)
"""

from __future__ import annotations

from llvmpy_mid.ir import (
    BasicBlock,
    ConstantInt,
    Context,
    Function,
    Instruction,
    IRBuilder,
    Module,
    Value,
    clone_function,
)
from llvmpy_mid.ir.instructions.other import PHINode


def build(ctx: Context) -> tuple[Module, Function]:
    module = Module("example", ctx)
    module.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
    module.target_triple = "x86_64-pc-linux-gnu"
    i64 = ctx.i64
    fn = Function(ctx.function_type(i64, [i64]), "sum_of_squares", module=module, arg_names=["n"])
    (n,) = fn.args
    entry = fn.append_block("entry")
    loop = fn.append_block("loop")
    done = fn.append_block("done")
    b = IRBuilder(entry)
    zero, one = ConstantInt.get(i64, 0), ConstantInt.get(i64, 1)
    b.br(loop)
    b.position_at_end(loop)
    i = b.phi(i64, "i")
    acc = b.phi(i64, "acc")
    sq = b.mul(i, i, "sq", nsw=True)
    acc_next = b.add(acc, sq, "acc.next", nsw=True)
    i_next = b.add(i, one, "i.next", nuw=True, nsw=True)
    more = b.icmp("slt", i_next, n, "more")
    b.cond_br(more, loop, done)
    i.add_incoming(zero, entry)
    i.add_incoming(i_next, loop)
    acc.add_incoming(zero, entry)
    acc.add_incoming(acc_next, loop)
    b.position_at_end(done)
    b.ret(acc_next)
    return module, fn


def _describe_user(user: Value) -> str:
    if user.name:
        return "%" + user.name
    return user.opcode if isinstance(user, Instruction) else repr(user)


def describe(fn: Function) -> None:
    print("function @%s (%s), %d blocks, %d instructions" % (fn.name, fn.function_type, len(fn.blocks), fn.instruction_count))
    for bb in fn.blocks:
        preds = ", ".join("%" + p.name for p in bb.predecessors) or "none"
        print("  %%%s  (preds: %s)" % (bb.name, preds))
        for inst in bb.instructions:
            users = ", ".join(_describe_user(u) for u in inst.users)
            label = "%" + inst.name + " = " if inst.name else ""
            print("    %s%s  [%d operands; used by: %s]" % (label, inst.opcode, inst.num_operands, users or "-"))


def main() -> None:
    ctx = Context()
    module, fn = build(ctx)
    describe(fn)
    dl = module.data_layout
    print("data layout: x86_fp80 alloc size %d bytes, i128 ABI align %d, pointer %d bytes"
          % (dl.type_alloc_size(ctx.x86_fp80), dl.abi_alignment(ctx.i128), dl.pointer_size()))
    copy = clone_function(fn)
    print("cloned as @%s with %d instructions" % (copy.name, copy.instruction_count))
    loop: BasicBlock = list(copy.blocks)[1]
    acc = [inst for inst in loop.instructions if inst.name == "acc"][0]
    assert isinstance(acc, PHINode)
    print("phi %%acc in the copy has incoming blocks: %s" % ", ".join("%" + bb.name for bb in acc.incoming_blocks))
    sq = [inst for inst in loop.instructions if inst.name == "sq"][0]
    print("%%sq has %d uses; replacing them with %%i and erasing it" % sq.num_uses)
    sq.replace_all_uses_with(sq.operands[0])
    sq.erase_from_parent()
    print("the copy now has %d instructions; the original still has %d" % (copy.instruction_count, fn.instruction_count))


if __name__ == "__main__":
    main()
