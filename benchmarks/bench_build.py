"""Build a large module with IRBuilder: instructions/s and bytes per instruction.

Builds FUNCTIONS functions of INSTRS instructions each (49 integer operations
on the two arguments and a ``ret``), timed without tracing, then again under
``tracemalloc`` to measure the memory the finished module holds per
instruction. When llvmlite is installed the same module is built with
``llvmlite.ir`` in the same run and the speed ratio printed.

    python benchmarks/bench_build.py [--functions N] [--repeat R]
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
from typing import Any, Callable

from llvmpy_mid.ir import ConstantInt, Context, Function, IRBuilder, Module, gc_paused

INSTRS = 50
OPS = ("add", "mul", "xor", "sub", "and_", "or_", "shl")


def build_llvmpy(functions: int) -> Module:
    ctx = Context()
    module = Module("bench", ctx)
    i32 = ctx.i32
    fnty = ctx.function_type(i32, [i32, i32])
    one = ConstantInt.get(i32, 1)
    builder = IRBuilder()
    methods = [getattr(builder, op) for op in OPS]
    nops = len(methods)
    for f in range(functions):
        fn = Function(fnty, "f%d" % f, module=module)
        builder.position_at_end(fn.append_block("entry"))
        a, b = fn.args
        x = a
        for i in range(INSTRS - 1):
            if i % 3 == 2:
                x = methods[i % nops](x, one, "v%d" % i)
            else:
                x = methods[i % nops](x, b if i % 2 else a, "v%d" % i)
        builder.ret(x)
    return module


def build_llvmlite(functions: int) -> Any:
    from llvmlite import ir  # type: ignore[import-not-found,import-untyped,unused-ignore]

    module = ir.Module("bench")
    i32 = ir.IntType(32)
    fnty = ir.FunctionType(i32, [i32, i32])
    one = ir.Constant(i32, 1)
    names = [op for op in OPS]
    for f in range(functions):
        fn = ir.Function(module, fnty, "f%d" % f)
        builder = ir.IRBuilder(fn.append_basic_block("entry"))
        methods = [getattr(builder, op) for op in names]
        nops = len(methods)
        a, b = fn.args
        x = a
        for i in range(INSTRS - 1):
            if i % 3 == 2:
                x = methods[i % nops](x, one, "v%d" % i)
            else:
                x = methods[i % nops](x, b if i % 2 else a, "v%d" % i)
        builder.ret(x)
    return module


def timed(build: Callable[[int], Any], functions: int, repeat: int, pause_gc: bool = False) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        if pause_gc:
            with gc_paused():
                result = build(functions)
        else:
            result = build(functions)
        elapsed = time.perf_counter() - start
        best = min(best, elapsed)
        del result
    return best


def bytes_per_instruction(build: Callable[[int], Any], functions: int) -> float:
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    module = build(functions)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del module
    return (after - before) / (functions * INSTRS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = args.functions * INSTRS
    ours = timed(build_llvmpy, args.functions, args.repeat)
    ours_paused = timed(build_llvmpy, args.functions, args.repeat, pause_gc=True)
    ours_mem = bytes_per_instruction(build_llvmpy, args.functions)
    print("module: %d functions x %d instructions = %d instructions" % (args.functions, INSTRS, n))
    print("llvmpy_mid IRBuilder: %.3f s  %8.0f instructions/s  %5.0f bytes/instruction" % (ours, n / ours, ours_mem))
    print("  same, inside gc_paused(): %.3f s  %8.0f instructions/s" % (ours_paused, n / ours_paused))
    try:
        import llvmlite  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: F401
    except ImportError:
        print("llvmlite not installed: no comparison")
        return
    theirs = timed(build_llvmlite, args.functions, args.repeat)
    theirs_paused = timed(build_llvmlite, args.functions, args.repeat, pause_gc=True)
    theirs_mem = bytes_per_instruction(build_llvmlite, args.functions)
    print("llvmlite.ir IRBuilder: %.3f s  %8.0f instructions/s  %5.0f bytes/instruction" % (theirs, n / theirs, theirs_mem))
    print("  same, inside gc_paused(): %.3f s  %8.0f instructions/s" % (theirs_paused, n / theirs_paused))
    print("speed ratio llvmpy_mid / llvmlite: %.2fx (gc on), %.2fx (gc paused)" % (theirs / ours, theirs_paused / ours_paused))


if __name__ == "__main__":
    main()
