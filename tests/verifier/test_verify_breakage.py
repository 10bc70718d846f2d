"""Property: breaking one thing in a valid module always gives a VerifierError, never another exception.

The valid modules are the conformance files opt-19 verifies cleanly and that our verifier accepts,
with at least one function body. Each example parses one (``verify=False``), applies one breakage
chosen by hypothesis, and runs ``verify_module``. Every breakage is invalid by LLVM's rules wherever
it applies (the harness skips places where it would not be):

* drop a block's terminator;
* make a non-phi instruction in a reachable block use a value defined after it in the same block
  (a use before its definition);
* retype an operand whose type is fixed by the instruction (binary operands, compare operands, a
  ``ret`` value, a conditional ``br`` condition, a load/store pointer, a fixed call argument);
* remove one incoming entry of a phi;
* put an ``unreachable`` in front of a block's first non-phi instruction (a terminator in the middle).

The default run draws 150 examples; ``--run-slow`` adds a run of 2,000.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asm"))

from corpus import conformance_files  # noqa: E402

import llvmpy_mid  # noqa: E402
from llvmpy_mid import ConstantInt, Instruction, Module, VerifierError, module_diagnostics, verify_module  # noqa: E402
from llvmpy_mid.errors import ParseError  # noqa: E402
from llvmpy_mid.ir.dominators import DominatorTree  # noqa: E402
from llvmpy_mid.ir.instructions.terminators import UnreachableInst  # noqa: E402
from llvmpy_mid.ir.value import Value  # noqa: E402

KINDS = ("drop_terminator", "use_before_def", "retype_operand", "drop_phi_entry", "terminator_in_middle")


@lru_cache(maxsize=1)
def valid_texts() -> tuple[str, ...]:
    texts = []
    for path in conformance_files():
        if path.stat().st_size > 60_000:
            continue
        text = path.read_text(errors="surrogateescape")
        try:
            m = llvmpy_mid.parse_assembly(text, verify=False)
        except ParseError:
            continue
        if module_diagnostics(m):
            continue
        if any(not f.is_declaration and f.instruction_count >= 2 for f in m.functions):
            texts.append(text)
    return tuple(texts)


def _other_typed_constant(v: Value) -> Value:
    ctx = v.type.context
    if v.type.is_integer and getattr(v.type, "width", 0) == 64:
        return ConstantInt.get(ctx.int_type(32), 0)
    return ConstantInt.get(ctx.int_type(64), 0)


def _reachable_instructions(m: Module) -> list[tuple[Instruction, DominatorTree]]:
    out = []
    for f in m.functions:
        if f.is_declaration:
            continue
        dt = DominatorTree(f)
        for bb in f.blocks:
            if dt.is_reachable(bb):
                out.extend((inst, dt) for inst in bb.instructions)
    return out


def _fixed_type_operands(inst: Instruction) -> list[int]:
    op = inst.opcode
    if inst.is_binary_op or op in ("icmp", "fcmp"):
        return [0, 1]
    if op == "ret" and inst.num_operands == 1:
        return [0]
    if op == "br" and inst.num_operands == 3:
        return [0]
    if op == "load":
        return [0]
    if op == "store":
        return [1]
    if op == "call":
        if inst.is_inline_asm_call:  # type: ignore[attr-defined]
            return []
        fty = inst.function_type  # type: ignore[attr-defined]
        if fty.is_vararg:
            return []
        return list(range(len(fty.params)))
    return []


def break_module(m: Module, kind: str, pick: int) -> bool:
    """Apply the breakage ``kind`` at the ``pick``-th candidate place; False if there is none."""
    insts = _reachable_instructions(m)
    if kind == "drop_terminator":
        terms = [i for i, _ in insts if i.is_terminator_class]
        if not terms:
            return False
        t = terms[pick % len(terms)]
        if t.has_uses:
            t.replace_all_uses_with(llvmpy_mid.ir.PoisonValue.get(t.type))
        t.erase_from_parent()
        return True
    if kind == "use_before_def":
        cands = []
        for inst, _ in insts:
            if inst.is_phi or inst.is_eh_pad:
                continue
            later = inst.next_instruction
            while later is not None:
                for k, v in enumerate(inst.operands):
                    if v.type is later.type and not v.type.is_label and not v.type.is_metadata:
                        cands.append((inst, k, later))
                        break
                later = later.next_instruction
        if not cands:
            return False
        inst, k, later = cands[pick % len(cands)]
        inst.set_operand(k, later)
        return True
    if kind == "retype_operand":
        cands = [(i, k) for i, _ in insts for k in _fixed_type_operands(i)]
        if not cands:
            return False
        inst, k = cands[pick % len(cands)]
        inst.set_operand(k, _other_typed_constant(inst.get_operand(k)))
        return True
    if kind == "drop_phi_entry":
        phis = [i for i, _ in insts if i.is_phi and i.num_operands > 0]  # type: ignore[attr-defined]
        if not phis:
            return False
        phi = phis[pick % len(phis)]
        phi.remove_incoming_value(pick % phi.num_incoming)  # type: ignore[attr-defined]
        return True
    if kind == "terminator_in_middle":
        blocks = {id(i.parent): i.parent for i, _ in insts if i.parent is not None}
        cands = [bb for bb in blocks.values() if bb is not None and bb.first_non_phi is not None and not bb.first_non_phi.is_eh_pad]
        if not cands:
            return False
        bb = cands[pick % len(cands)]
        first = bb.first_non_phi
        assert first is not None
        UnreachableInst(bb.parent.context if bb.parent is not None else m.context).insert_before(first)  # type: ignore[union-attr]
        return True
    raise AssertionError(kind)


def check_one_breakage(index: int, kind: str, pick: int) -> None:
    texts = valid_texts()
    if not texts:
        pytest.skip("no conformance corpus")
    m = llvmpy_mid.parse_assembly(texts[index % len(texts)], verify=False)
    assume(break_module(m, kind, pick))
    with pytest.raises(VerifierError) as info:
        verify_module(m)
    assert info.value.diagnostics
    str(info.value)  # every finding prints without error


_SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
_ARGS = dict(index=st.integers(min_value=0), kind=st.sampled_from(KINDS), pick=st.integers(min_value=0, max_value=10_000))


@settings(max_examples=150, **_SETTINGS)  # type: ignore[arg-type]
@given(**_ARGS)
def test_one_breakage_always_gives_a_verifier_error(index: int, kind: str, pick: int) -> None:
    check_one_breakage(index, kind, pick)


@pytest.mark.slow
@settings(max_examples=2000, **_SETTINGS)  # type: ignore[arg-type]
@given(**_ARGS)
def test_one_breakage_always_gives_a_verifier_error_long(index: int, kind: str, pick: int) -> None:
    check_one_breakage(index, kind, pick)


def test_the_corpus_of_valid_modules_is_not_empty() -> None:
    if not conformance_files():
        pytest.skip("no conformance corpus")
    assert len(valid_texts()) >= 50
