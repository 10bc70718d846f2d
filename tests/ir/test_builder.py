"""``IRBuilder``: one method per instruction kind, checked for opcode, type,
flags, operands (in LLVM's operand order), names and insertion position; the
positioning methods; ``debug_loc`` attachment; default fast-math flags.

LLVM facts checked: the builder applies its default fast-math flags to every
``FPMathOperator`` it creates -- the FP binary operators, ``fneg``, ``fcmp``,
and ``phi``/``select``/``call`` whose type is floating point (LLVM 19
``IRBuilder::CreatePHI``/``CreateSelect``/``CreateCall`` call ``setFPAttrs``),
but not integer ``select``; ``alloca`` takes the data layout's alloca address
space; a ``struct_gep`` is ``getelementptr inbounds %T, ptr %p, i32 0, i32 i``
(``CreateStructGEP``); a void value cannot be named.
"""

from __future__ import annotations

import pytest

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir import (
    AtomicOrdering,
    AtomicRMWBinOp,
    BasicBlock,
    ConstantInt,
    ConstantTokenNone,
    Context,
    FastMathFlags,
    Function,
    GEPFlags,
    InlineAsm,
    IRBuilder,
    Module,
    PoisonValue,
    Predicate,
    TailCallKind,
)
from llvmpy_mid.ir.constants import ConstantPointerNull, ConstantFP
from llvmpy_mid.ir.debug_info import DILocation, DINode
from llvmpy_mid.ir.instructions.calls import OperandBundle
from llvmpy_mid.ir.instructions.eh import LandingPadClause
from llvmpy_mid.ir.instructions.memory import StoreInst


class Env:
    def __init__(self) -> None:
        self.ctx = ctx = Context()
        self.m = Module("m", ctx)
        params = [ctx.i32, ctx.i32, ctx.float, ctx.float, ctx.ptr, ctx.i1, ctx.vector_type(ctx.i32, 4)]
        self.fty = ctx.function_type(ctx.i32, params)
        self.f = Function(self.fty, "f", module=self.m, arg_names=("a", "b", "x", "y", "p", "c", "v"))
        self.a, self.b, self.x, self.y, self.p, self.c, self.v = self.f.args
        self.entry = self.f.append_block("entry")
        self.bld = IRBuilder(self.entry)

    def i32(self, v: int) -> ConstantInt:
        return ConstantInt.get(self.ctx.i32, v)


@pytest.fixture
def env() -> Env:
    return Env()


def test_integer_binary_ops_and_flags(env: Env) -> None:
    b, a, c = env.bld, env.a, env.b
    cases = [
        (b.add(a, c, "add", nuw=True, nsw=True), "add", dict(nuw=True, nsw=True)),
        (b.add(a, c, "add0"), "add", dict(nuw=False, nsw=False)),
        (b.sub(a, c, "sub", nsw=True), "sub", dict(nuw=False, nsw=True)),
        (b.mul(a, c, "mul", nuw=True), "mul", dict(nuw=True, nsw=False)),
        (b.shl(a, c, "shl", nuw=True, nsw=True), "shl", dict(nuw=True, nsw=True)),
        (b.udiv(a, c, "udiv", exact=True), "udiv", dict(exact=True)),
        (b.sdiv(a, c, "sdiv"), "sdiv", dict(exact=False)),
        (b.lshr(a, c, "lshr", exact=True), "lshr", dict(exact=True)),
        (b.ashr(a, c, "ashr"), "ashr", dict(exact=False)),
        (b.urem(a, c, "urem"), "urem", {}),
        (b.srem(a, c, "srem"), "srem", {}),
        (b.and_(a, c, "and"), "and", {}),
        (b.or_(a, c, "or", disjoint=True), "or", dict(disjoint=True)),
        (b.or_(a, c, "or0"), "or", dict(disjoint=False)),
        (b.xor(a, c, "xor"), "xor", {}),
    ]
    for inst, opcode, flags in cases:
        assert inst.opcode == opcode and inst.type is env.ctx.i32 and inst.is_binary_op
        assert inst.operands == [a, c] and inst.lhs is a and inst.rhs is c
        for flag, value in flags.items():
            assert getattr(inst, flag) is value, (opcode, flag)
    assert [i.name for i, _, _ in cases] == [
        "add", "add0", "sub", "mul", "shl", "udiv", "sdiv", "lshr", "ashr", "urem", "srem", "and", "or", "or0", "xor"
    ]
    assert list(env.entry.instructions) == [i for i, _, _ in cases]
    # binop by opcode name, neg and not.
    dyn = b.binop("mul", a, c, "dyn", nsw=True)
    assert dyn.opcode == "mul" and dyn.nsw
    neg = b.neg(a, "neg", nsw=True)
    assert neg.opcode == "sub" and neg.operands == [env.i32(0), a] and neg.nsw
    inv = b.not_(a, "inv")
    assert inv.opcode == "xor" and inv.operands == [a, env.i32(-1)]
    vnot = b.not_(env.v)
    assert vnot.type is env.v.type and vnot.get_operand(1).is_constant
    with pytest.raises(IRError):
        b.add(a, env.x)


def test_fp_ops_and_default_fast_math_flags(env: Env) -> None:
    b, x, y = env.bld, env.x, env.y
    ctx = env.ctx
    plain = b.fadd(x, y, "plain")
    assert plain.fast_math_flags == FastMathFlags.NONE
    b.fast_math_flags = FastMathFlags.NNAN | FastMathFlags.NSZ
    made = [b.fadd(x, y), b.fsub(x, y), b.fmul(x, y), b.fdiv(x, y), b.frem(x, y)]
    assert [i.opcode for i in made] == ["fadd", "fsub", "fmul", "fdiv", "frem"]
    assert all(i.fast_math_flags == FastMathFlags.NNAN | FastMathFlags.NSZ and i.type is ctx.float for i in made)
    fneg = b.fneg(x, "n")
    assert fneg.opcode == "fneg" and fneg.operands == [x] and fneg.fast_math_flags == FastMathFlags.NNAN | FastMathFlags.NSZ
    explicit = b.fmul(x, y, fast_math_flags=FastMathFlags.FAST)
    assert explicit.fast_math_flags == FastMathFlags.FAST
    none = b.fmul(x, y, fast_math_flags=0)
    assert none.fast_math_flags == FastMathFlags.NONE
    fc = b.fcmp("olt", x, y, "fc")
    assert fc.fast_math_flags == FastMathFlags.NNAN | FastMathFlags.NSZ
    sel = b.select(env.c, x, y, "fsel")
    assert sel.fast_math_flags == FastMathFlags.NNAN | FastMathFlags.NSZ
    isel = b.select(env.c, env.a, env.b, "isel")
    assert isel.fast_math_flags == FastMathFlags.NONE  # not an FP math operator
    fphi = b.phi(ctx.float, "fphi")
    assert fphi.fast_math_flags == FastMathFlags.NNAN | FastMathFlags.NSZ
    iphi = b.phi(ctx.i32, "iphi")
    assert iphi.fast_math_flags == FastMathFlags.NONE
    sqrt = env.m.add_function("llvm.sqrt.f32", ctx.function_type(ctx.float, [ctx.float]))
    call = b.call(sqrt, [x], "sq")
    assert call.fast_math_flags == FastMathFlags.NNAN | FastMathFlags.NSZ
    icall = b.call(env.f, list(env.f.args), "rec")
    assert icall.fast_math_flags == FastMathFlags.NONE
    # Arrays of floating point are FP math operators too (phi, select, call).
    arr_t = ctx.array_type(ctx.float, 2)
    two = env.m.add_function("two", ctx.function_type(arr_t, []))
    acall = b.call(two, [], "acall")
    asel = b.select(env.c, acall, acall, "asel")
    aphi = b.phi(arr_t, "aphi")
    assert acall.fast_math_flags == asel.fast_math_flags == aphi.fast_math_flags == FastMathFlags.NNAN | FastMathFlags.NSZ
    st_t = ctx.struct_type([ctx.float, ctx.float])
    assert b.phi(st_t).fast_math_flags == FastMathFlags.NONE


def test_casts(env: Env) -> None:
    b, ctx = env.bld, env.ctx
    a, x, p = env.a, env.x, env.p
    i64, i8, double = ctx.i64, ctx.i8, ctx.double
    casts = [
        (b.trunc(a, i8, "t", nuw=True, nsw=True), "trunc", i8),
        (b.zext(a, i64, "z", nneg=True), "zext", i64),
        (b.sext(a, i64, "s"), "sext", i64),
        (b.fpext(x, double, "fe"), "fpext", double),
        (b.fptrunc(b.fpext(x, double), ctx.half, "ft"), "fptrunc", ctx.half),
        (b.fptoui(x, ctx.i32, "fu"), "fptoui", ctx.i32),
        (b.fptosi(x, ctx.i32, "fs"), "fptosi", ctx.i32),
        (b.uitofp(a, ctx.float, "uf", nneg=True), "uitofp", ctx.float),
        (b.sitofp(a, ctx.float, "sf"), "sitofp", ctx.float),
        (b.ptrtoint(p, i64, "pi"), "ptrtoint", i64),
        (b.inttoptr(a, ctx.ptr, "ip"), "inttoptr", ctx.ptr),
        (b.bitcast(a, ctx.float, "bc"), "bitcast", ctx.float),
        (b.addrspacecast(p, ctx.pointer_type(1), "asc"), "addrspacecast", ctx.pointer_type(1)),
        (b.cast("sext", a, i64, "viaop"), "sext", i64),
    ]
    for inst, opcode, ty in casts:
        assert inst.opcode == opcode and inst.type is ty and inst.dest_type is ty and inst.is_cast
        assert inst.num_operands == 1 and inst.src_type is inst.operand.type
    assert casts[0][0].nuw and casts[0][0].nsw
    assert casts[1][0].nneg and not casts[2][0].nneg and casts[7][0].nneg
    with pytest.raises(IRError):
        b.zext(a, ctx.i8)  # zext must widen
    with pytest.raises(IRError):
        b.cast("sext", a, i64, nneg=True)  # nneg is for zext and uitofp only


def test_compares_by_keyword_and_predicate(env: Env) -> None:
    b, ctx = env.bld, env.ctx
    for kw in ("eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"):
        inst = b.icmp(kw, env.a, env.b, kw)
        assert inst.opcode == "icmp" and inst.predicate.keyword == kw and inst.type is ctx.i1
        assert inst.operands == [env.a, env.b] and inst.name == kw
    for kw in ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"):
        finst = b.fcmp(kw, env.x, env.y)
        assert finst.opcode == "fcmp" and finst.predicate.keyword == kw
    by_enum = b.icmp(Predicate.from_keyword("slt", False), env.a, env.b)
    assert by_enum.predicate.keyword == "slt"
    vcmp = b.icmp("eq", env.v, env.v)
    assert vcmp.type is ctx.vector_type(ctx.i1, 4)
    with pytest.raises(IRError, match="predicate"):
        b.icmp("olt", env.a, env.b)
    with pytest.raises(IRError, match="predicate"):
        b.fcmp("slt", env.x, env.y)


def test_memory(env: Env) -> None:
    b, ctx = env.bld, env.ctx
    st = ctx.struct_type([ctx.i32, ctx.double, ctx.array_type(ctx.i8, 3)])
    slot = b.alloca(ctx.i32, name="slot", alignment=4)
    assert slot.opcode == "alloca" and slot.allocated_type is ctx.i32 and slot.alignment == 4
    assert slot.type is ctx.ptr and slot.is_static_alloca and not slot.is_array_allocation
    arr = b.alloca(ctx.i8, env.a, "arr")
    assert arr.is_array_allocation and arr.array_size is env.a
    env.m.data_layout = "e-A5"
    as5 = b.alloca(ctx.i32, name="as5")
    assert as5.address_space == 5 and as5.type is ctx.pointer_type(5)
    ld = b.load(ctx.i32, slot, "ld", alignment=4, volatile=True)
    assert ld.opcode == "load" and ld.type is ctx.i32 and ld.operands == [slot] and ld.volatile and ld.alignment == 4
    ald = b.load(ctx.i32, slot, "ald", alignment=4, ordering=AtomicOrdering.ACQUIRE, sync_scope="singlethread")
    assert ald.is_atomic and ald.ordering is AtomicOrdering.ACQUIRE and ald.sync_scope == "singlethread"
    store = b.store(ld, slot, alignment=4, ordering=AtomicOrdering.RELEASE)
    assert store.opcode == "store" and store.operands == [ld, slot] and store.type.is_void
    assert store.ordering is AtomicOrdering.RELEASE and store.value_operand is ld and store.pointer_operand is slot
    fence = b.fence(AtomicOrdering.SEQ_CST, sync_scope="agent")
    assert fence.opcode == "fence" and fence.ordering is AtomicOrdering.SEQ_CST and fence.sync_scope == "agent"
    assert fence.num_operands == 0
    cx = b.cmpxchg(slot, env.a, env.b, AtomicOrdering.ACQ_REL, AtomicOrdering.ACQUIRE, "cx", weak=True, alignment=4)
    assert cx.opcode == "cmpxchg" and cx.operands == [slot, env.a, env.b] and cx.weak
    assert cx.type is ctx.struct_type([ctx.i32, ctx.i1])
    assert cx.success_ordering is AtomicOrdering.ACQ_REL and cx.failure_ordering is AtomicOrdering.ACQUIRE
    rmw = b.atomicrmw(AtomicRMWBinOp.ADD, slot, env.a, AtomicOrdering.MONOTONIC, "rmw", volatile=True, alignment=4)
    assert rmw.opcode == "atomicrmw" and rmw.operation is AtomicRMWBinOp.ADD and rmw.operands == [slot, env.a]
    assert rmw.type is ctx.i32 and rmw.volatile and rmw.ordering is AtomicOrdering.MONOTONIC
    frmw = b.atomicrmw(AtomicRMWBinOp.FADD, slot, env.x, AtomicOrdering.SEQ_CST)
    assert frmw.is_floating_point_operation and frmw.type is ctx.float
    gep = b.gep(st, env.p, [env.i32(1), env.i32(2), env.a], "gep", inbounds=True)
    assert gep.opcode == "getelementptr" and gep.source_element_type is st and gep.result_element_type is ctx.i8
    assert gep.operands == [env.p, env.i32(1), env.i32(2), env.a] and gep.inbounds and gep.nusw
    assert gep.type is ctx.ptr
    nuw = b.gep(ctx.i8, env.p, [env.a], flags=GEPFlags.NUW)
    assert nuw.nuw and not nuw.inbounds
    sg = b.struct_gep(st, env.p, 1, "sg")
    assert sg.operands == [env.p, ConstantInt.get(ctx.i32, 0), ConstantInt.get(ctx.i32, 1)]
    assert sg.inbounds and sg.result_element_type is ctx.double
    vg = b.gep(ctx.i32, env.p, [env.v])
    assert vg.type is ctx.vector_type(ctx.ptr, 4)
    with pytest.raises(IRError):
        b.store(env.a, env.a)


def test_vector_and_aggregate_ops(env: Env) -> None:
    b, ctx = env.bld, env.ctx
    v = env.v
    ee = b.extract_element(v, 2, "ee")
    assert ee.opcode == "extractelement" and ee.type is ctx.i32
    assert ee.operands == [v, ConstantInt.get(ctx.i64, 2)]
    ie = b.insert_element(v, env.a, env.b, "ie")
    assert ie.opcode == "insertelement" and ie.operands == [v, env.a, env.b] and ie.type is v.type
    sv = b.shuffle_vector(v, PoisonValue.get(v.type), [3, 2, -1], "sv")
    assert sv.opcode == "shufflevector" and sv.mask == (3, 2, -1) and sv.type is ctx.vector_type(ctx.i32, 3)
    agg_t = ctx.struct_type([ctx.i32, ctx.array_type(ctx.float, 2)])
    undef = PoisonValue.get(agg_t)
    iv = b.insert_value(undef, env.x, [1, 0], "iv")
    assert iv.opcode == "insertvalue" and iv.indices == (1, 0) and iv.operands == [undef, env.x] and iv.type is agg_t
    ev = b.extract_value(iv, [1, 1], "ev")
    assert ev.opcode == "extractvalue" and ev.type is ctx.float and ev.indices == (1, 1)
    ev0 = b.extract_value(iv, 0)
    assert ev0.indices == (0,) and ev0.type is ctx.i32
    with pytest.raises(IRError):
        b.extract_value(iv, [5])


def test_phi_select_freeze_va_arg(env: Env) -> None:
    b, ctx = env.bld, env.ctx
    other = env.f.append_block("other")
    phi = b.phi(ctx.i32, "phi", [(env.a, env.entry), (env.b, other)])
    assert phi.opcode == "phi" and phi.operands == [env.a, env.b] and phi.incoming_blocks == [env.entry, other]
    assert not env.entry.has_uses  # incoming blocks are not uses
    sel = b.select(env.c, env.a, env.b, "sel")
    assert sel.opcode == "select" and sel.operands == [env.c, env.a, env.b] and sel.type is ctx.i32
    fr = b.freeze(env.a, "fr")
    assert fr.opcode == "freeze" and fr.operands == [env.a] and fr.type is ctx.i32
    va = b.va_arg(env.p, ctx.i64, "va")
    assert va.opcode == "va_arg" and va.operands == [env.p] and va.type is ctx.i64
    with pytest.raises(IRError):
        b.select(env.a, env.a, env.b)


def test_calls_invokes_callbr_with_bundles(env: Env) -> None:
    b, ctx, m = env.bld, env.ctx, env.m
    g = m.add_function("g", ctx.function_type(ctx.i32, [ctx.i32]))
    g.calling_conv = 8  # fastcc
    vfn = m.add_function("vfn", ctx.function_type(ctx.void, []))
    call = b.call(g, [env.a], "call", bundles=[OperandBundle("deopt", (env.b,))], tail_call_kind=TailCallKind.TAIL)
    assert call.opcode == "call" and call.callee is g and call.args == [env.a]
    assert call.operands == [env.a, env.b, g]  # args, bundle inputs, callee last
    assert call.operand_bundles == [OperandBundle("deopt", (env.b,))] and call.is_tail_call
    assert call.calling_conv == 8 and call.type is ctx.i32 and call.name == "call"
    vcall = b.call(vfn)
    assert vcall.type.is_void and vcall.name == ""
    ind = b.call(env.p, [env.a], "ind", function_type=g.function_type)
    assert ind.is_indirect_call and ind.called_function is None and ind.calling_conv == 0
    with pytest.raises(IRError, match="function_type"):
        b.call(env.p, [env.a])
    with pytest.raises(IRError):
        b.call(g, [env.x])  # wrong argument type
    normal = env.f.append_block("normal")
    lpad = env.f.append_block("lpad")
    inv = b.invoke(g, [env.a], normal, lpad, "inv", bundles=[("foo", [env.a])])
    assert inv.opcode == "invoke" and inv.is_terminator and inv.successors == [normal, lpad]
    assert inv.operands == [env.a, env.a, normal, lpad, g] and inv.normal_dest is normal and inv.unwind_dest is lpad
    assert normal.predecessors == [env.entry] and lpad.predecessors == [env.entry]
    # callbr on inline asm.
    bb2 = env.f.append_block("cbr")
    d0 = env.f.append_block("d0")
    i0 = env.f.append_block("i0")
    asm_ty = ctx.function_type(ctx.void, [ctx.i32])
    asm = InlineAsm.get(asm_ty, "jmp ${1:l}", "r,!i")
    cb = IRBuilder(bb2).callbr(asm, asm_ty, d0, [i0], [env.a])
    assert cb.opcode == "callbr" and cb.successors == [d0, i0] and cb.operands == [env.a, d0, i0, asm]
    assert cb.default_dest is d0 and cb.indirect_dests == [i0] and cb.is_inline_asm_call


def test_eh_pads_and_resume(env: Env) -> None:
    b, ctx = env.bld, env.ctx
    f = env.f
    lp_ty = ctx.struct_type([ctx.ptr, ctx.i32])
    lp_bb = f.append_block("lp")
    lb = IRBuilder(lp_bb)
    null = ConstantPointerNull.get(ctx.ptr)
    lp = lb.landingpad(lp_ty, [null], "lp", cleanup=True)
    assert lp.opcode == "landingpad" and lp.is_eh_pad and lp.is_cleanup and lp.type is lp_ty
    assert lp.clauses == [(LandingPadClause.CATCH, null)]
    res = lb.resume(lp)
    assert res.opcode == "resume" and res.operands == [lp] and res.is_terminator and res.successors == []
    # Funclet pads.
    dispatch = f.append_block("dispatch")
    handler = f.append_block("handler")
    cont = f.append_block("cont")
    cleanup = f.append_block("cleanup")
    none = ConstantTokenNone.get(ctx.token)
    cs = IRBuilder(dispatch).catchswitch(none, None, [handler], "cs")
    assert cs.opcode == "catchswitch" and cs.handlers == [handler] and cs.unwind_dest is None
    assert cs.successors == [handler] and cs.type is ctx.token
    hb = IRBuilder(handler)
    cp = hb.catchpad(cs, [null], "cp")
    assert cp.opcode == "catchpad" and cp.catch_switch is cs and cp.args == [null] and cp.operands == [null, cs]
    cr = hb.catchret(cp, cont)
    assert cr.opcode == "catchret" and cr.successors == [cont] and cr.operands == [cp, cont]
    cb = IRBuilder(cleanup)
    pad = cb.cleanuppad(none, [], "pad")
    assert pad.opcode == "cleanuppad" and pad.parent_pad is none and pad.operands == [none]
    cret = cb.cleanupret(pad, dispatch)
    assert cret.opcode == "cleanupret" and cret.unwind_dest is dispatch and cret.successors == [dispatch]
    assert dispatch.predecessors == [cleanup] and cont.predecessors == [handler]


def test_terminators(env: Env) -> None:
    b, ctx = env.bld, env.ctx
    f = env.f
    t, e, d, c1, c2 = (f.append_block(n) for n in ("t", "e", "d", "c1", "c2"))
    br = IRBuilder(t).br(e)
    assert br.opcode == "br" and br.is_unconditional and br.successors == [e] and br.operands == [e]
    cbr = b.cond_br(env.c, t, e)
    assert cbr.is_conditional and cbr.successors == [t, e] and cbr.condition is env.c
    assert cbr.operands == [env.c, e, t]  # LLVM: cond, false dest, true dest
    sw = IRBuilder(e).switch(env.a, d, [(env.i32(1), c1), (env.i32(2), c2)])
    assert sw.opcode == "switch" and sw.default_dest is d and sw.successors == [d, c1, c2]
    assert sw.cases == [(env.i32(1), c1), (env.i32(2), c2)] and sw.operands[:2] == [env.a, d]
    ibr = IRBuilder(d).indirect_br(env.p, [c1, c2])
    assert ibr.opcode == "indirectbr" and ibr.successors == [c1, c2] and ibr.address is env.p
    r = IRBuilder(c1).ret(env.a)
    assert r.opcode == "ret" and r.return_value is env.a and r.type.is_void and r.successors == []
    u = IRBuilder(c2).unreachable()
    assert u.opcode == "unreachable" and u.num_operands == 0
    g = env.m.add_function("g", ctx.function_type(ctx.void, []))
    rv = IRBuilder(g.append_block("entry")).ret_void()
    assert rv.return_value is None and rv.num_operands == 0
    assert c1.predecessors == [d, e] and all(bb.terminator is not None for bb in (t, e, d, c1, c2))


def test_positioning(env: Env) -> None:
    b, ctx = env.bld, env.ctx
    i1 = b.add(env.a, env.b, "i1")
    i3 = b.add(env.a, env.b, "i3")
    ret = b.ret(i3)
    b.position_before(i3)
    i2 = b.add(env.a, env.b, "i2")
    b.position_after(i3)
    i4 = b.add(env.a, env.b, "i4")
    b.position_at_start(env.entry)
    i0 = b.add(env.a, env.b, "i0")
    assert list(env.entry.instructions) == [i0, i1, i2, i3, i4, ret]
    b.position_after(ret)
    assert b.insert_before is None and b.block is env.entry
    # position_at_start skips phis.
    loop = env.f.append_block("loop")
    lb = IRBuilder(loop)
    phi = lb.phi(ctx.i32, "phi", [(env.a, env.entry)])
    lb.ret(phi)
    lb.position_at_start(loop)
    first = lb.mul(phi, phi, "first")
    assert list(loop.instructions)[:2] == [phi, first]
    # An empty block: at start == at end.
    empty = env.f.append_block("empty")
    eb = IRBuilder()
    with pytest.raises(IRError, match="insertion point"):
        eb.add(env.a, env.b)
    eb.position_at_start(empty)
    x = eb.add(env.a, env.b)
    y = eb.add(env.a, env.b)
    assert list(empty.instructions) == [x, y] and eb.function is env.f and eb.context is ctx
    # The constructor's `before` argument wins over the block.
    bb = IRBuilder(env.entry, before=i1)
    z = bb.add(env.a, env.b, "z")
    assert z.next_instruction is i1
    detached = BasicBlock(ctx, "d")
    from llvmpy_mid.ir.instructions.binary import AddInst

    loose = AddInst(env.a, env.b)
    with pytest.raises(IRError):
        eb.position_before(loose)
    with pytest.raises(IRError):
        eb.position_after(loose)
    # A builder works on a block outside any function (names stay as given).
    db = IRBuilder(detached)
    w = db.add(env.a, env.b, "i1")
    assert w.name == "i1" and w.parent is detached


def test_names_and_void(env: Env) -> None:
    b, ctx = env.bld, env.ctx
    n = b.add(env.a, env.b, "n")
    n2 = b.add(env.a, env.b, "n")
    anon = b.add(env.a, env.b)
    clash = b.add(env.a, env.b, "x")  # the argument %x has that name
    assert (n.name, n2.name, anon.name, clash.name) == ("n", "n1", "", "x2")
    st = StoreInst(env.a, env.p)
    with pytest.raises(IRError, match="void"):
        b.insert(st, "s")
    assert st.parent is None
    s = b.store(env.a, env.p)
    with pytest.raises(IRError, match="void"):
        s.name = "s"
    assert s.name == ""


def test_debug_loc_attachment(env: Env) -> None:
    b, ctx = env.bld, env.ctx
    sp = DINode.distinct(ctx, "DISubprogram", {})
    loc = DILocation.get(ctx, 4, 2, sp)
    loc2 = DILocation.get(ctx, 5, 1, sp)
    before = b.add(env.a, env.b)
    b.debug_loc = loc
    made = [b.add(env.a, env.b), b.store(env.a, env.p), b.fence(AtomicOrdering.SEQ_CST)]
    assert before.debug_loc is None and all(i.debug_loc is loc for i in made)
    assert made[0].metadata_items() == [("dbg", loc)]
    # An instruction inserted through `insert` that already carries metadata keeps it.
    from llvmpy_mid.ir.instructions.binary import MulInst

    own = MulInst(env.a, env.b)
    own.debug_loc = loc2
    b.insert(own)
    assert own.debug_loc is loc2
    b.debug_loc = None
    assert b.add(env.a, env.b).debug_loc is None


def test_one_function_with_every_builder_method_keeps_order(env: Env) -> None:
    """Every value-producing builder method appends in call order, so a block
    built from top to bottom lists its instructions in that order."""
    b, ctx = env.bld, env.ctx
    made = [
        b.add(env.a, env.b), b.sub(env.a, env.b), b.mul(env.a, env.b), b.udiv(env.a, env.b),
        b.sdiv(env.a, env.b), b.urem(env.a, env.b), b.srem(env.a, env.b), b.shl(env.a, env.b),
        b.lshr(env.a, env.b), b.ashr(env.a, env.b), b.and_(env.a, env.b), b.or_(env.a, env.b),
        b.xor(env.a, env.b), b.fadd(env.x, env.y), b.fsub(env.x, env.y), b.fmul(env.x, env.y),
        b.fdiv(env.x, env.y), b.frem(env.x, env.y), b.fneg(env.x), b.icmp("eq", env.a, env.b),
        b.fcmp("oeq", env.x, env.y), b.alloca(ctx.i32), b.load(ctx.i32, env.p), b.store(env.a, env.p),
        b.fence(AtomicOrdering.ACQUIRE),
        b.cmpxchg(env.p, env.a, env.b, AtomicOrdering.SEQ_CST, AtomicOrdering.SEQ_CST),
        b.atomicrmw(AtomicRMWBinOp.XCHG, env.p, env.a, AtomicOrdering.SEQ_CST),
        b.gep(ctx.i8, env.p, [env.a]), b.extract_element(env.v, 0), b.insert_element(env.v, env.a, 0),
        b.shuffle_vector(env.v, env.v, [0, 4]), b.select(env.c, env.a, env.b), b.freeze(env.a),
        b.va_arg(env.p, ctx.i32), b.phi(ctx.i32), b.call(env.f, list(env.f.args)),
        b.zext(env.a, ctx.i64), b.bitcast(env.x, ctx.i32),
    ]
    ret = b.ret(env.a)
    assert list(env.entry.instructions) == made + [ret]
    assert len({id(i) for i in made}) == len(made)
    assert env.entry.terminator is ret and ConstantFP.get(ctx.float, 1.0).type is ctx.float
