"""How far two outputs of an interprocedural pass agree beyond text identity (issue 18).

* **Function attributes** (``function-attrs``): for each function defined in both outputs, its
  whole attribute list (function, return and parameter attributes, attribute groups resolved) is
  the same or not. The share is over the functions of opt-19's output.
* **Inline decisions** (``inline``, ``always-inline``): for each (caller, callee) pair of direct
  calls in the input, the calls to that callee left in that caller in each output (a caller that
  was deleted has none). A pair where both outputs kept the same number of calls counts all its
  input call sites as agreeing; otherwise ``|ours - opt|`` of them disagree. The share is over
  the input's direct call sites.

Both work on printed modules, parsed with our parser (so attribute groups and names resolve as
LLVM resolves them).
"""

from __future__ import annotations

from collections import Counter

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.module import Module


def _defined(module: Module) -> dict[str, Function]:
    return {fn.name: fn for fn in module.functions if not fn.is_declaration}


def attribute_agreement(ours: str, theirs: str) -> tuple[int, int]:
    """(functions whose attribute lists agree, functions defined in opt-19's output)."""
    a = _defined(parse_assembly(ours))
    b = _defined(parse_assembly(theirs))
    same = sum(1 for name, fn in b.items() if name in a and _attr_text(a[name]) == _attr_text(fn))
    return same, len(b)


def _attr_text(fn: Function) -> tuple[str, ...]:
    """The function's attributes as LLVM spells them (type attributes by their printed type,
    so two modules parsed in different contexts compare equal)."""
    al = fn.attributes
    return (al.fn_attrs.as_string(), al.ret_attrs.as_string()) + tuple(
        al.param_attrs(i).as_string() for i in range(len(fn.args))
    )


def call_counts(module: Module) -> Counter[tuple[str, str]]:
    """Direct calls per (caller, callee) name pair."""
    counts: Counter[tuple[str, str]] = Counter()
    for fn in module.functions:
        for bb in fn.blocks:
            for inst in bb.instructions:
                if isinstance(inst, CallBase):
                    callee = inst.called_function
                    if callee is not None and not callee.is_intrinsic:
                        counts[(fn.name, callee.name)] += 1
    return counts


def inline_agreement(source: str, ours: str, theirs: str) -> tuple[int, int]:
    """(input call sites decided alike, input direct call sites)."""
    before = call_counts(parse_assembly(source))
    a = call_counts(parse_assembly(ours))
    b = call_counts(parse_assembly(theirs))
    total = sum(before.values())
    disagree = 0
    for pair, n in before.items():
        disagree += min(n, abs(a.get(pair, 0) - b.get(pair, 0)))
    return total - disagree, total
