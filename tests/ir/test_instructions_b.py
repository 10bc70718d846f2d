"""Terminators, calls, EH pads and inline asm (helper B's instruction classes).

Facts checked against LLVM 19: predecessor order (``opt-19 -S`` prints
``; preds = %a, %Y, %X`` for the function in ``test_preds_order_matches_opt``),
inline-asm constraint messages (``llvm-as-19``), fast-math flags on calls
(``opt-19`` accepts them on ``[2 x float]`` and ``<2 x double>`` returns and
rejects them on ``{float, float}``), and the ``invoke`` rule of ``mayThrow``
(``opt-19 -passes=function-attrs`` marks a function ``nounwind`` when its
invoke unwinds to ``landingpad ... catch ptr null``, not with ``catch ptr @ti``).
"""

from __future__ import annotations

import pytest

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.attributes import Attribute, AttributeList, AttributeSet
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import (
    ConstantAggregateZero,
    ConstantInt,
    ConstantPointerNull,
    ConstantTokenNone,
)
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.inline_asm import AsmDialect, ConstraintType, InlineAsm, parse_constraints, verify
from llvmpy_mid.ir.instructions.calls import CallInst, OperandBundle, intrinsic_base_name
from llvmpy_mid.ir.instructions.eh import CatchPadInst, CleanupPadInst, LandingPadClause, LandingPadInst
from llvmpy_mid.ir.instructions.flags import FastMathFlags, TailCallKind
from llvmpy_mid.ir.instructions.terminators import (
    BranchInst,
    CallBrInst,
    CatchReturnInst,
    CatchSwitchInst,
    CleanupReturnInst,
    IndirectBrInst,
    InvokeInst,
    ResumeInst,
    ReturnInst,
    SwitchInst,
    UnreachableInst,
)
from llvmpy_mid.ir.memory_effects import MemoryEffects
from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode, MDString
from llvmpy_mid.ir.module import Module


class Env:
    def __init__(self) -> None:
        self.ctx = ctx = Context()
        self.m = Module("m", ctx)
        self.fty = ctx.function_type(ctx.void, [ctx.i1, ctx.i32, ctx.ptr])
        self.f = Function(self.fty, "f", module=self.m)
        self.c, self.v, self.p = self.f.args

    def block(self, name: str) -> BasicBlock:
        return self.f.append_block(name)

    def declare(self, name: str, ret: object, params: list[object] | tuple[object, ...] = (), vararg: bool = False) -> Function:
        fty = self.ctx.function_type(ret, params, vararg)  # type: ignore[arg-type]
        return Function(fty, name, module=self.m)


@pytest.fixture
def env() -> Env:
    return Env()


def use_indices(value: object) -> list[tuple[str, int]]:
    return [(u.user.opcode, u.index) for u in value.uses]  # type: ignore[attr-defined]


# --- br ---------------------------------------------------------------------------------------


def test_preds_order_matches_opt(env: Env) -> None:
    X, Y, a, b = (env.block(n) for n in "XYab")
    br_x = X.append(BranchInst(a, b, env.c))
    br_y = Y.append(BranchInst(a))
    assert a.predecessors == [Y, X]  # most recent use first, as opt prints "; preds = %Y, %X"
    assert b.predecessors == [X]
    assert X.successors == [a, b]
    assert br_x.operands == [env.c, b, a]  # (cond, false, true)
    assert br_x.successors == [a, b]
    assert br_x.get_successor(0) is a and br_x.get_successor(1) is b
    assert br_x.num_successors == 2 and br_y.num_successors == 1
    assert br_x.is_conditional and not br_x.is_unconditional
    assert br_y.is_unconditional and br_y.successors == [a]
    assert br_x.condition is env.c
    assert br_x.is_terminator and br_x.type is env.ctx.void
    # The successor-switch test from opt-19 (; preds = %a, %Y, %X).
    a.append(SwitchInst(env.v, b, [(ConstantInt.get(env.ctx.i32, 1), X), (ConstantInt.get(env.ctx.i32, 2), a)]))
    assert a.predecessors == [a, Y, X]
    assert b.predecessors == [a, X]


def test_br_errors(env: Env) -> None:
    a, b = env.block("a"), env.block("b")
    with pytest.raises(IRError):
        BranchInst(a, b, env.v)  # i32 condition
    with pytest.raises(IRError):
        BranchInst(a, b)
    with pytest.raises(IRError):
        BranchInst(a, None, env.c)
    with pytest.raises(IRError):
        BranchInst(env.v)  # type: ignore[arg-type]
    br = BranchInst(a)
    with pytest.raises(IRError):
        _ = br.condition
    with pytest.raises(IRError):
        br.swap_successors()
    with pytest.raises(IndexError):
        br.get_successor(1)


def test_br_swap_successors_keeps_use_order_and_swaps_weights(env: Env) -> None:
    X, Y, a, b = (env.block(n) for n in "XYab")
    br = X.append(BranchInst.conditional(env.c, a, b))
    Y.append(BranchInst(a))
    Y2 = env.block("Y2")
    Y2.append(BranchInst(b))
    i32 = env.ctx.i32
    w = lambda n: ConstantAsMetadata.get(ConstantInt.get(i32, n))  # noqa: E731
    br.set_metadata("prof", MDNode.get(env.ctx, [MDString.get(env.ctx, "branch_weights"), w(3), w(7)]))
    br.swap_successors()
    assert br.successors == [b, a]
    assert br.operands == [env.c, a, b]
    # Use::swap keeps each block's use-list order.
    assert a.predecessors == [Y, X]
    assert b.predecessors == [Y2, X]
    prof = br.get_metadata("prof")
    assert prof is not None and prof.operands[1] is w(7) and prof.operands[2] is w(3)


def test_set_successor_moves_use_to_head(env: Env) -> None:
    X, Y, a, b = (env.block(n) for n in "XYab")
    br = X.append(BranchInst(a, b, env.c))
    Y.append(BranchInst(a))
    assert a.predecessors == [Y, X]
    br.set_successor(0, a)  # same block: LLVM's Use::set still relinks it
    assert a.predecessors == [X, Y]
    br.set_successor(1, a)
    assert br.successors == [a, a] and b.predecessors == []
    assert a.predecessors == [X, X, Y]


def test_erasing_a_branch_removes_predecessor(env: Env) -> None:
    X, a = env.block("X"), env.block("a")
    br = X.append(BranchInst(a))
    assert a.predecessors == [X]
    br.erase_from_parent()
    assert a.predecessors == [] and a.use_empty


def test_detached_branch_is_not_a_predecessor(env: Env) -> None:
    a = env.block("a")
    br = BranchInst(a)
    assert a.predecessors == [] and a.num_uses == 1
    br.drop_all_references()


def test_br_clone(env: Env) -> None:
    X, a, b = env.block("X"), env.block("a"), env.block("b")
    br = X.append(BranchInst(a, b, env.c))
    copy = br.clone()
    assert copy.parent is None and copy.operands == br.operands
    assert copy.is_identical_to(br)
    assert a.num_uses == 2


def test_block_rauw_updates_branches_and_successor_phis(env: Env) -> None:
    other = pytest.importorskip("llvmpy_mid.ir.instructions.other")
    X, a, b, c = (env.block(n) for n in ("X", "a", "b", "c"))
    br = X.append(BranchInst(a, b, env.c))
    a.append(BranchInst(c))
    phi = other.PHINode(env.ctx.i32)
    c.append(phi)
    phi.add_incoming(ConstantInt.get(env.ctx.i32, 1), a)
    new = env.block("new")
    new.append(BranchInst(c))
    a.replace_all_uses_with(new)
    assert br.successors == [new, b]
    assert new.predecessors == [X]
    assert phi.incoming_blocks == [new]


# --- switch -----------------------------------------------------------------------------------


def test_switch_cases(env: Env) -> None:
    E, d, a, b = (env.block(n) for n in ("E", "d", "a", "b"))
    i32 = env.ctx.i32
    one, two, three = (ConstantInt.get(i32, n) for n in (1, 2, 3))
    sw = E.append(SwitchInst(env.v, d, num_cases=3))
    sw.add_case(one, a)
    sw.add_case(two, b)
    sw.add_case(three, a)
    assert sw.operands == [env.v, d, one, a, two, b, three, a]
    assert sw.cases == [(one, a), (two, b), (three, a)]
    assert sw.case_values == [one, two, three] and sw.case_dests == [a, b, a]
    assert sw.num_cases == 3 and sw.num_successors == 4
    assert sw.successors == [d, a, b, a]
    assert sw.default_dest is d and sw.condition is env.v
    assert sw.find_case_value(two) == 1 and sw.find_case_value(2) == 1
    assert sw.find_case_value(ConstantInt.get(i32, 9)) is None
    assert sw.find_case_dest(b) is two
    assert sw.find_case_dest(a) is None  # two cases go there
    assert sw.find_case_dest(d) is None  # the default
    assert a.predecessors == [E, E]
    # removeCase: the last case moves into the hole.
    sw.remove_case(0)
    assert sw.cases == [(three, a), (two, b)]
    sw.remove_case(1)
    assert sw.cases == [(three, a)]
    assert b.predecessors == []
    sw.set_successor(1, b)
    assert sw.cases == [(three, b)]
    sw.default_dest = a
    assert sw.successors == [a, b]
    with pytest.raises(IRError):
        sw.add_case(ConstantInt.get(env.ctx.i64, 1), a)
    with pytest.raises(IRError):
        SwitchInst(env.p, d)
    with pytest.raises(IndexError):
        sw.remove_case(5)


def test_switch_growth_reorders_uses_like_llvm(env: Env) -> None:
    E, Y, d, a = (env.block(n) for n in ("E", "Y", "d", "a"))
    i32 = env.ctx.i32
    sw = E.append(SwitchInst(env.v, d, num_cases=1))
    sw.add_case(ConstantInt.get(i32, 1), a)
    Y.append(BranchInst(a))
    assert a.predecessors == [Y, E]
    # The second case does not fit the reserved room (2 + 2*1): LLVM reallocates
    # the operand list, re-creating every use, so the switch's uses of %a come first.
    sw.add_case(ConstantInt.get(i32, 2), d)
    assert a.predecessors == [E, Y]
    assert [u.index for u in a.uses] == [3, 0]
    # A switch made with exact room keeps the order.
    E2 = env.block("E2")
    sw2 = E2.append(SwitchInst(env.v, d, num_cases=2))
    sw2.add_case(ConstantInt.get(i32, 1), a)
    Y2 = env.block("Y2")
    Y2.append(BranchInst(a))
    sw2.add_case(ConstantInt.get(i32, 2), d)
    assert a.predecessors == [Y2, E2, E, Y]


def test_switch_clone(env: Env) -> None:
    E, d, a = (env.block(n) for n in ("E", "d", "a"))
    sw = E.append(SwitchInst(env.v, d, [(ConstantInt.get(env.ctx.i32, 4), a)]))
    copy = sw.clone()
    assert isinstance(copy, SwitchInst) and copy.cases == sw.cases and copy.default_dest is d
    assert copy.is_identical_to(sw)


# --- indirectbr -------------------------------------------------------------------------------


def test_indirectbr(env: Env) -> None:
    E, a, b, c = (env.block(n) for n in "Eabc")
    ib = E.append(IndirectBrInst(env.p, [a, b]))
    assert ib.operands == [env.p, a, b]
    assert ib.successors == [a, b] and ib.destinations == [a, b] and ib.num_destinations == 2
    ib.add_destination(c)
    assert ib.successors == [a, b, c]
    ib.remove_destination(0)  # the last destination fills the hole
    assert ib.successors == [c, b]
    assert a.predecessors == []
    assert ib.address is env.p
    with pytest.raises(IRError):
        IndirectBrInst(env.v)
    copy = ib.clone()
    assert copy.operands == ib.operands


# --- calls ------------------------------------------------------------------------------------


def test_call_basics(env: Env) -> None:
    ctx = env.ctx
    g = env.declare("g", ctx.i32, [ctx.i32, ctx.ptr])
    E = env.block("E")
    call = E.append(CallInst.create(g, [env.v, env.p], name="r"))
    assert call.opcode == "call" and call.is_call_base and call.type is ctx.i32
    assert call.operands == [env.v, env.p, g]
    assert call.callee is g and call.called_function is g
    assert call.args == [env.v, env.p] and call.arg_operands == call.args
    assert call.num_args == 2 and call.get_arg(1) is env.p
    assert not call.is_indirect_call and not call.is_inline_asm_call
    assert call.calling_conv == 0 and call.attributes is AttributeList.EMPTY
    assert call.tail_call_kind is TailCallKind.NONE and not call.is_tail_call
    call.set_arg(0, ConstantInt.get(ctx.i32, 7))
    assert call.get_arg(0) is ConstantInt.get(ctx.i32, 7)
    with pytest.raises(IndexError):
        call.get_arg(2)
    with pytest.raises(IndexError):
        call.set_arg(2, env.v)
    assert not call.is_terminator
    assert call.num_successors == 0
    assert call.name == "r"


def test_call_argument_checks(env: Env) -> None:
    ctx = env.ctx
    g = env.declare("g", ctx.void, [ctx.i32])
    with pytest.raises(IRError):
        CallInst.create(g, [])
    with pytest.raises(IRError):
        CallInst.create(g, [env.p])
    with pytest.raises(IRError):
        CallInst(g.function_type, env.v, [env.v])  # callee is not a pointer
    va = env.declare("va", ctx.void, [ctx.i32], vararg=True)
    call = CallInst.create(va, [env.v, env.p, env.c])
    assert call.num_args == 3
    with pytest.raises(IRError):
        CallInst.create(va, [])


def test_indirect_call_and_called_function(env: Env) -> None:
    ctx = env.ctx
    g = env.declare("g", ctx.void, [ctx.i32])
    fty = ctx.function_type(ctx.void, [])
    ind = CallInst(fty, env.p, [])
    assert ind.is_indirect_call and ind.called_function is None
    # A function called through a different function type is not "the called function".
    mismatched = CallInst(fty, g, [])
    assert mismatched.called_function is None and not mismatched.is_indirect_call
    # A constant callee (null) is not an indirect call, as in LLVM.
    assert not CallInst(fty, ConstantPointerNull.get(ctx.ptr), []).is_indirect_call
    other = env.declare("h", ctx.void, [])
    mismatched.set_called_function(other)
    assert mismatched.called_function is other and mismatched.function_type is other.function_type


def test_call_attributes_consult_callee(env: Env) -> None:
    ctx = env.ctx
    g = env.declare("g", ctx.void, [ctx.ptr])
    call = CallInst.create(g, [env.p])
    assert call.may_throw() and not call.will_return() and not call.does_not_return
    assert call.may_have_side_effects()
    g.attributes = AttributeList(fn_attrs=AttributeSet([Attribute.enum("nounwind"), Attribute.enum("willreturn")]))
    assert not call.may_throw() and call.will_return() and call.does_not_throw
    assert call.has_fn_attr("nounwind") and not call.has_fn_attr("noreturn")
    call.add_fn_attr(Attribute.enum("noreturn"))
    assert call.does_not_return and call.attributes.has_fn_attr("noreturn")
    call.remove_fn_attr("noreturn")
    assert not call.does_not_return
    # Parameter attributes: call site first, then the callee.
    g.attributes = g.attributes.with_param_attr(0, Attribute.enum("nocapture"))
    assert call.param_has_attr(0, "nocapture") and not call.param_has_attr(0, "nonnull")
    call.attributes = call.attributes.with_param_attr(0, Attribute.enum("nonnull"))
    assert call.param_has_attr(0, "nonnull")


def test_call_memory_effects(env: Env) -> None:
    ctx = env.ctx
    g = env.declare("g", ctx.void, [])
    call = CallInst.create(g)
    assert call.may_read_from_memory() and call.may_write_to_memory()
    g.attributes = AttributeList(fn_attrs=AttributeSet([Attribute.memory(MemoryEffects.none())]))
    assert not call.may_read_from_memory() and not call.may_write_to_memory()
    assert call.does_not_access_memory
    # Only the callee says readonly; the call site says writeonly: together none.
    g.attributes = AttributeList(fn_attrs=AttributeSet([Attribute.memory(MemoryEffects.read_only())]))
    assert call.may_read_from_memory() and not call.may_write_to_memory()
    call.attributes = AttributeList(fn_attrs=AttributeSet([Attribute.memory(MemoryEffects.write_only())]))
    assert call.does_not_access_memory
    # The legacy spelling on the call site counts too.
    call2 = CallInst.create(env.declare("k", ctx.void, []))
    call2.attributes = AttributeList(fn_attrs=AttributeSet([Attribute.enum("readonly")]))
    assert call2.may_read_from_memory() and not call2.may_write_to_memory()
    # An indirect call only has the call site's effects.
    ind = CallInst(ctx.function_type(ctx.void, []), env.p)
    ind.attributes = AttributeList(fn_attrs=AttributeSet([Attribute.memory(MemoryEffects.arg_mem_only())]))
    assert ind.only_accesses_arg_memory and ind.may_write_to_memory()


def test_operand_bundles_widen_callee_memory(env: Env) -> None:
    ctx = env.ctx
    g = env.declare("g", ctx.void, [])
    g.attributes = AttributeList(fn_attrs=AttributeSet([Attribute.memory(MemoryEffects.none())]))
    deopt = CallInst.create(g, bundles=[OperandBundle("deopt", (env.v,))])
    assert deopt.may_read_from_memory() and not deopt.may_write_to_memory()
    other = CallInst.create(g, bundles=[("foo", [env.v])])
    assert other.may_read_from_memory() and other.may_write_to_memory()
    ptrauth = CallInst.create(g, bundles=[("ptrauth", [ConstantInt.get(ctx.i32, 0), ConstantInt.get(ctx.i64, 0)])])
    assert not ptrauth.may_read_from_memory() and not ptrauth.may_write_to_memory()
    # llvm.assume's bundles do not count.
    assume = env.declare("llvm.assume", ctx.void, [ctx.i1])
    assume.attributes = g.attributes
    call = CallInst.create(assume, [env.c], bundles=[("align", [env.p, ConstantInt.get(ctx.i64, 8)])])
    assert not call.may_read_from_memory()
    # The callee's readonly parameter attribute is weakened by a clobbering bundle.
    h = env.declare("h", ctx.void, [ctx.ptr])
    h.attributes = h.attributes.with_param_attr(0, Attribute.enum("readonly"))
    assert CallInst.create(h, [env.p]).param_has_attr(0, "readonly")
    assert not CallInst.create(h, [env.p], bundles=[("foo", [])]).param_has_attr(0, "readonly")
    assert CallInst.create(h, [env.p], bundles=[("deopt", [])]).param_has_attr(0, "readonly")


def test_operand_bundle_layout_and_use_order(env: Env) -> None:
    ctx = env.ctx
    g = env.declare("g", ctx.void, [ctx.i32])
    x = ConstantInt.get(ctx.i32, 42)
    call = CallInst.create(g, [env.v], bundles=[OperandBundle("deopt", (env.c, g)), OperandBundle("funclet", ())])
    assert call.operands == [env.v, env.c, g, g]  # args, bundle inputs, callee
    assert call.num_args == 1 and call.args == [env.v]
    assert call.num_operand_bundles == 2 and call.has_operand_bundles
    assert call.operand_bundles == [OperandBundle("deopt", (env.c, g)), OperandBundle("funclet", ())]
    assert call.get_operand_bundle("deopt") == OperandBundle("deopt", (env.c, g))
    assert call.get_operand_bundle("gc-live") is None
    assert call.operand_bundle_ranges == (("deopt", 1, 3), ("funclet", 3, 3))
    assert call.is_bundle_operand(2) and not call.is_bundle_operand(0) and not call.is_bundle_operand(3)
    assert call.bundle_of_operand(1).tag == "deopt"
    # LLVM fills the callee before the bundle inputs: g's newest use is the bundle input.
    assert [u.index for u in g.uses][:2] == [2, 3]
    # A clone copies operands in index order: the callee use is now the newest.
    copy = call.clone()
    assert [u.index for u in g.uses if u.user is copy] == [3, 2]
    assert copy.operand_bundles == call.operand_bundles and copy.is_identical_to(call)
    # Rebuilding with other bundles.
    E = env.block("E")
    E.append(call)
    rebuilt = call.with_operand_bundle(OperandBundle("deopt", (x,)))
    assert rebuilt.operands == [env.v, x, g]
    assert [b.tag for b in rebuilt.operand_bundles] == ["funclet", "deopt"]
    assert rebuilt.get_operand_bundle("deopt") == OperandBundle("deopt", (x,))
    stripped = call.without_operand_bundle("deopt")
    assert stripped.operands == [env.v, g] and [b.tag for b in stripped.operand_bundles] == ["funclet"]
    assert call.without_operand_bundle("nope") is call
    assert not call.is_identical_to(stripped)


def test_call_tail_kind_and_fast_math(env: Env) -> None:
    ctx = env.ctx
    fd = env.declare("fd", ctx.double, [])
    call = CallInst.create(fd, tail_call_kind=TailCallKind.MUSTTAIL, fast_math_flags=FastMathFlags.NNAN)
    assert call.is_must_tail_call and call.is_tail_call and not call.is_no_tail_call
    assert call.fast_math_flags == FastMathFlags.NNAN and call.is_fp_math_operator
    call.tail_call_kind = TailCallKind.NOTAIL
    assert call.is_no_tail_call and not call.is_tail_call
    call.is_tail_call = True
    assert call.tail_call_kind is TailCallKind.TAIL
    call.fast_math_flags = FastMathFlags.FAST
    assert call.fast_math_flags == FastMathFlags.FAST
    # Arrays of FP and FP vectors may carry flags; structs and integers may not (opt-19).
    arr = env.declare("arr", ctx.array_type(ctx.float, 2), [])
    CallInst.create(arr, fast_math_flags=FastMathFlags.NNAN)
    vec = env.declare("vec", ctx.vector_type(ctx.double, 2), [])
    CallInst.create(vec, fast_math_flags=FastMathFlags.NNAN)
    st = env.declare("st", ctx.struct_type([ctx.float, ctx.float]), [])
    with pytest.raises(IRError):
        CallInst.create(st, fast_math_flags=FastMathFlags.NNAN)
    i = env.declare("i", ctx.i32, [])
    with pytest.raises(IRError):
        CallInst.create(i, fast_math_flags=FastMathFlags.FAST)
    assert not CallInst.create(i).is_fp_math_operator
    # Same special state: tail kind (tail vs none) and flags matter.
    a = CallInst.create(fd)
    b = CallInst.create(fd)
    assert a.is_identical_to(b)
    b.is_tail_call = True
    assert not a.is_identical_to(b)
    b.is_tail_call = False
    b.fast_math_flags = FastMathFlags.NSZ
    assert not a.is_identical_to(b)
    c = CallInst.create(fd)
    c.calling_conv = 8
    assert not a.is_identical_to(c)
    clone = call.clone()
    assert isinstance(clone, CallInst) and clone.tail_call_kind is call.tail_call_kind
    assert clone.fast_math_flags == call.fast_math_flags and clone.is_identical_to(call)


def test_intrinsic_calls(env: Env) -> None:
    ctx = env.ctx
    smax = env.declare("llvm.smax.i32", ctx.i32, [ctx.i32, ctx.i32])
    call = CallInst.create(smax, [env.v, env.v])
    assert call.is_intrinsic_call and call.intrinsic_name == "llvm.smax.i32"
    assert call.intrinsic_base == "llvm.smax" and call.is_commutative
    g = env.declare("g", ctx.void, [])
    assert not CallInst.create(g).is_intrinsic_call and CallInst.create(g).intrinsic_name == ""
    sadd = env.declare("llvm.ssub.sat.i32", ctx.i32, [ctx.i32, ctx.i32])
    assert not CallInst.create(sadd, [env.v, env.v]).is_commutative
    memcpy = env.declare("llvm.memcpy.p0.p0.i64", ctx.void, [ctx.ptr, ctx.ptr, ctx.i64, ctx.i1])
    n = ConstantInt.get(ctx.i64, 8)
    assert CallInst.create(memcpy, [env.p, env.p, n, ConstantInt.get(ctx.i1, 1)]).is_volatile
    assert not CallInst.create(memcpy, [env.p, env.p, n, ConstantInt.get(ctx.i1, 0)]).is_volatile
    atomic = env.declare("llvm.memcpy.element.unordered.atomic.p0.p0.i64", ctx.void, [ctx.ptr, ctx.ptr, ctx.i64, ctx.i32])
    assert not CallInst.create(atomic, [env.p, env.p, n, ConstantInt.get(ctx.i32, 1)]).is_volatile
    assert intrinsic_base_name("llvm.memcpy.inline.p0.p0.i64") == "llvm.memcpy.inline"
    assert intrinsic_base_name("llvm.smul.fix.sat.i32") == "llvm.smul.fix.sat"
    assert intrinsic_base_name("llvm.unknown.thing") == "llvm.unknown.thing"


def test_call_inline_asm(env: Env) -> None:
    ctx = env.ctx
    fty = ctx.function_type(ctx.i32, [ctx.i32])
    asm = InlineAsm.get(fty, "mov $1, $0", "=r,r", has_side_effects=True)
    call = CallInst(fty, asm, [env.v])
    assert call.is_inline_asm_call and call.inline_asm is asm
    assert not call.is_indirect_call and call.called_function is None
    assert not call.is_inline_asm  # the call is not itself an asm expression
    assert asm.num_uses == 1


# --- invoke / callbr --------------------------------------------------------------------------


def make_landingpad(env: Env, block: BasicBlock, **kw: object) -> LandingPadInst:
    lp_ty = env.ctx.struct_type([env.ctx.ptr, env.ctx.i32])
    return block.append(LandingPadInst(lp_ty, **kw))  # type: ignore[arg-type]


def test_invoke(env: Env) -> None:
    ctx = env.ctx
    g = env.declare("g", ctx.i32, [ctx.i32])
    E, N, U, Y = (env.block(n) for n in ("E", "N", "U", "Y"))
    Y.append(BranchInst(N))
    inv = E.append(InvokeInst(g.function_type, g, N, U, [env.v], name="r"))
    assert inv.operands == [env.v, N, U, g]
    assert inv.successors == [N, U] and inv.normal_dest is N and inv.unwind_dest is U
    assert inv.num_successors == 2 and inv.is_terminator and inv.is_call_base
    assert N.predecessors == [E, Y] and U.predecessors == [E]
    assert inv.args == [env.v] and inv.called_function is g
    inv.unwind_dest = N
    assert inv.successors == [N, N]
    inv.set_successor(1, U)
    assert inv.successors == [N, U]
    with pytest.raises(IndexError):
        inv.set_successor(2, U)
    # mayThrow depends on the landingpad (LLVM 19).
    lp = make_landingpad(env, U, cleanup=True)
    U.append(ResumeInst(lp))
    assert inv.landing_pad is lp
    assert not inv.may_throw() and inv.may_throw(include_phase_one_unwind=True)
    lp.cleanup = False
    lp.add_catch(env.m.add_global(ctx.ptr, "typeinfo"))
    assert inv.may_throw()  # catches only some exceptions
    lp.add_catch(ConstantPointerNull.get(ctx.ptr))
    assert not inv.may_throw()  # catch ptr null catches everything
    copy = inv.clone()
    assert isinstance(copy, InvokeInst) and copy.operands == inv.operands and copy.is_identical_to(inv)
    assert not inv.is_identical_to(CallInst.create(g, [env.v]))
    rebuilt = inv.with_operand_bundles([("deopt", [env.v])])
    assert rebuilt.operands == [env.v, env.v, N, U, g] and rebuilt.normal_dest is N


def test_invoke_to_non_landingpad_does_not_throw(env: Env) -> None:
    ctx = env.ctx
    g = env.declare("g", ctx.void, [])
    E, N, U = (env.block(n) for n in ("E", "N", "U"))
    inv = E.append(InvokeInst(g.function_type, g, N, U))
    cs = U.append(CatchSwitchInst(ConstantTokenNone.get(ctx.token)))
    assert cs.unwinds_to_caller
    assert not inv.may_throw()


def test_callbr(env: Env) -> None:
    ctx = env.ctx
    fty = ctx.function_type(ctx.void, [ctx.i32])
    asm = InlineAsm.get(fty, "jmp ${1:l}", "r,!i")
    E, D, I1, I2 = (env.block(n) for n in ("E", "D", "I1", "I2"))
    cb = E.append(CallBrInst(fty, asm, D, [I1, I2], [env.v]))
    assert cb.operands == [env.v, D, I1, I2, asm]
    assert cb.successors == [D, I1, I2] and cb.num_successors == 3
    assert cb.default_dest is D and cb.indirect_dests == [I1, I2] and cb.num_indirect_dests == 2
    assert cb.get_indirect_dest(1) is I2 and cb.get_successor(2) is I2
    cb.set_indirect_dest(0, I2)
    assert cb.indirect_dests == [I2, I2] and I1.predecessors == []
    cb.default_dest = I1
    assert cb.successors == [I1, I2, I2]
    assert not cb.may_throw()  # LLVM 19's mayThrow has no callbr case
    copy = cb.clone()
    assert isinstance(copy, CallBrInst) and copy.successors == cb.successors and copy.is_identical_to(cb)


# --- ret, resume, unreachable -----------------------------------------------------------------


def test_simple_terminators(env: Env) -> None:
    ctx = env.ctx
    r = ReturnInst(ctx)
    assert r.return_value is None and r.operands == [] and r.successors == [] and r.is_terminator
    r2 = ReturnInst(ctx, env.v)
    assert r2.return_value is env.v and r2.clone().operands == [env.v]
    assert not r2.may_have_side_effects()
    u = UnreachableInst(ctx)
    assert u.opcode == "unreachable" and u.num_successors == 0 and not u.may_have_side_effects()
    res = ResumeInst(env.p)
    assert res.value is env.p and res.may_throw() and res.may_have_side_effects()
    assert res.clone().operands == [env.p]


# --- EH pads ----------------------------------------------------------------------------------


def test_landingpad(env: Env) -> None:
    ctx = env.ctx
    B = env.block("B")
    lp = make_landingpad(env, B, cleanup=True)
    assert lp.is_eh_pad and lp.cleanup and lp.is_cleanup and lp.num_clauses == 0
    null = ConstantPointerNull.get(ctx.ptr)
    empty = ConstantAggregateZero.get(ctx.array_type(ctx.ptr, 0))
    lp.add_catch(null)
    lp.add_filter(empty)
    assert lp.num_clauses == 2 and lp.operands == [null, empty]
    assert lp.is_catch(0) and lp.is_filter(1) and lp.clause_kind(1) is LandingPadClause.FILTER
    assert lp.clauses == [(LandingPadClause.CATCH, null), (LandingPadClause.FILTER, empty)]
    assert lp.get_clause(1) is empty and lp.catches_all()
    with pytest.raises(IRError):
        lp.add_catch(empty)
    with pytest.raises(IRError):
        lp.add_filter(null)
    assert not lp.may_throw() and not lp.may_read_from_memory()
    copy = lp.clone()
    assert isinstance(copy, LandingPadInst) and copy.cleanup and copy.operands == lp.operands
    assert B.first_insertion_point is None  # an EH pad is skipped by insertion points


def test_catchswitch_catchpad_catchret(env: Env) -> None:
    ctx = env.ctx
    none = ConstantTokenNone.get(ctx.token)
    D, H1, H2, U, C = (env.block(n) for n in ("D", "H1", "H2", "U", "C"))
    cs = D.append(CatchSwitchInst(none, U, [H1], name="cs"))
    assert cs.type is ctx.token and cs.is_eh_pad and cs.is_terminator
    assert cs.operands == [none, U, H1] and cs.successors == [U, H1]
    assert cs.parent_pad is none and cs.unwind_dest is U and cs.has_unwind_dest
    assert not cs.may_throw()
    cs.add_handler(H2)
    assert cs.handlers == [H1, H2] and cs.num_handlers == 2 and cs.successors == [U, H1, H2]
    cs.remove_handler(0)  # later handlers shift up
    assert cs.handlers == [H2] and H1.predecessors == []
    cs.remove_handler(H2)
    assert cs.handlers == [] and cs.successors == [U]
    cs.add_handler(H1)
    cp = H1.append(CatchPadInst(cs, [env.p]))
    assert cp.catch_switch is cs and cp.parent_pad is cs and cp.args == [env.p] and cp.num_args == 1
    assert cp.is_eh_pad and cp.type is ctx.token and cp.may_read_from_memory() and cp.may_write_to_memory()
    cr = H1.append(CatchReturnInst(cp, C))
    assert cr.successors == [C] and cr.catch_pad is cp and cr.successor is C
    assert cr.catch_switch_parent_pad is none
    assert cr.may_read_from_memory() and cr.may_write_to_memory() and not cr.may_throw()
    assert C.predecessors == [H1]
    caller = CatchSwitchInst(none, None, num_handlers=1)
    assert caller.unwinds_to_caller and caller.may_throw() and caller.unwind_dest is None
    with pytest.raises(IRError):
        caller.unwind_dest = U
    with pytest.raises(IRError):
        CatchSwitchInst(env.p)
    copy = cs.clone()
    assert isinstance(copy, CatchSwitchInst) and copy.operands == cs.operands and copy.has_unwind_dest


def test_cleanuppad_cleanupret(env: Env) -> None:
    ctx = env.ctx
    none = ConstantTokenNone.get(ctx.token)
    B, U = env.block("B"), env.block("U")
    pad = B.append(CleanupPadInst(none, []))
    assert pad.parent_pad is none and pad.args == [] and pad.is_eh_pad
    assert not pad.may_throw() and pad.may_throw(include_phase_one_unwind=True)
    ret = B.append(CleanupReturnInst(pad))
    assert ret.unwinds_to_caller and ret.may_throw() and ret.successors == []
    ret2 = CleanupReturnInst(pad, U)
    assert ret2.unwind_dest is U and ret2.successors == [U] and not ret2.may_throw()
    ret2.set_successor(0, B)
    assert ret2.unwind_dest is B
    with pytest.raises(IndexError):
        ret.set_successor(0, U)
    assert pad.clone().operands == [none]
    with pytest.raises(IRError):
        CleanupPadInst(env.p)


# --- inline asm -------------------------------------------------------------------------------


def test_inline_asm_uniquing_and_flags(env: Env) -> None:
    ctx = env.ctx
    fty = ctx.function_type(ctx.void, [])
    a = InlineAsm.get(fty, "nop", "", has_side_effects=True)
    assert a is InlineAsm.get(fty, "nop", "", has_side_effects=True)
    assert a is not InlineAsm.get(fty, "nop", "")
    b = InlineAsm.get(fty, "nop", "", is_align_stack=True, dialect=AsmDialect.INTEL, can_throw=True)
    assert b.is_align_stack and b.is_intel_dialect and b.can_throw and not b.has_side_effects
    assert a.type is ctx.ptr and a.is_inline_asm and not a.is_constant
    assert a.function_type is fty and a.asm_string == "nop" and a.constraint_string == ""
    assert any(isinstance(k, tuple) and k[0] == "inlineasm" and v is a for k, v in ctx.constants.items())


@pytest.mark.parametrize(
    "ret, params, constraints, message",
    [
        ("i32", ["i32"], "=r,r", None),
        ("i32", ["i32"], "r,=r", "output constraint occurs after input, clobber or label constraint"),
        ("i32", ["i32"], "=r", "number of input constraints does not match number of parameters"),
        ("i32", ["i32"], "", "inline asm without outputs must return void"),
        ("i32", ["i32"], "=r,=r", "number of output constraints does not match number of return struct elements"),
        ("i32", ["i32"], "~{memory},r", "input constraint occurs after clobber constraint"),
        ("i32", ["i32"], "=*m,r", "inline asm without outputs must return void"),
        ("i32", ["i32"], "r,", "failed to parse constraints"),
        ("i32", ["i32"], "=&r,0", None),
        ("pair", ["i32"], "=r,r", "inline asm with one output cannot return struct"),
        ("pair", [], "=r,=r", None),
        ("void", ["i32"], "r,~{dirflag}", None),
        ("void", ["i32"], "!i,~{x},r", "input constraint occurs after clobber constraint"),
    ],
)
def test_inline_asm_verify_messages(ret: str, params: list[str], constraints: str, message: str | None) -> None:
    # Messages as llvm-as-19 prints them for `call <ret> asm sideeffect "nop", "<constraints>"(...)`.
    ctx = Context()
    types = {"i32": ctx.i32, "void": ctx.void, "pair": ctx.struct_type([ctx.i32, ctx.i32])}
    fty = ctx.function_type(types[ret], [types[p] for p in params])
    assert verify(fty, constraints) == message
    if message is None:
        InlineAsm.get(fty, "nop", constraints)
    else:
        with pytest.raises(IRError):
            InlineAsm.get(fty, "nop", constraints)


def test_inline_asm_variadic_rejected() -> None:
    ctx = Context()
    assert verify(ctx.function_type(ctx.void, [], True), "") == "inline asm cannot be variadic"


def test_parse_constraints() -> None:
    infos = parse_constraints("=&{ax},=r,0,%r|m,^Rg,@3abc,~{memory}")
    assert [i.type for i in infos] == [
        ConstraintType.OUTPUT,
        ConstraintType.OUTPUT,
        ConstraintType.INPUT,
        ConstraintType.INPUT,
        ConstraintType.INPUT,
        ConstraintType.INPUT,
        ConstraintType.CLOBBER,
    ]
    assert infos[0].is_early_clobber and infos[0].codes == ["{ax}"]
    assert infos[0].matching_input == 2 and infos[2].codes == ["0"]
    assert infos[3].is_commutative and infos[3].is_multiple_alternative
    assert infos[3].alternatives == [["r"], ["m"]] and infos[3].codes == ["r"]
    assert infos[4].codes == ["Rg"] and infos[5].codes == ["abc"]
    assert infos[6].codes == ["{memory}"]
    assert parse_constraints("") == []
    for bad in ("r,,r", "~x", "=", "&r", "1", "=r,1", "{ax", "#r", "=&&r"):
        assert parse_constraints(bad) == [], bad
