"""Per-opcode rules for calls: ``call``, ``invoke`` and ``callbr`` (LLVM 19
``visitCallBase``, ``visitCallInst``, ``visitInvokeInst``, ``visitCallBrInst``,
``verifyInlineAsmCall``).

What: the callee is a pointer; the arguments agree with the call's function
type in number and type; the attribute list has no set past the last
argument; an intrinsic is called with its own type; no direct call to an
``amdgpu_cs_chain`` function; no over-aligned argument or result; call-site
``speculatable``/``preallocated``/``immarg`` need the callee's consent;
``inalloca``/``swifterror`` arguments agree with their alloca or parameter;
the attributes of variadic arguments (``nest``, ``returned``, ``sret``,
``inalloca``); no metadata or token parameter unless an intrinsic is called;
an indirect call returns neither a token nor x86_amx; an inlinable
call in a function with debug info has a ``!dbg``; the constraints of an
inline-asm callee agree with the arguments and, for ``callbr``, with the
indirect destinations. Operand bundles and the per-call convergence-control
rules are checked by :mod:`bundle_rules`, ``musttail`` calls by
:mod:`musttail_rules`.
``invoke`` unwinds to an EH pad; ``callbr`` calls inline asm that does not
unwind.

How: one pass over the call; facts that depend only on a function type, an
attribute list or a function (over-alignment, metadata/token parameters,
which parameter attributes occur, the callee's subprogram) are computed once
per run and kept in the checker's memo, so the usual call costs a few
identity tests per argument. LLVM's ``Check`` returns from the helper it is
in, not from the visitor: a failure in the attribute checks (another rule
module), in the inline-asm or bundle helpers, or in the call base of an
invoke lets the visitor go on. When such a visitor has already reported, it
runs LLVM's ``visitInstruction`` itself (:func:`visit_instruction`) where
LLVM does -- twice for an invoke, whose ``visitCallBase`` and
``visitTerminator`` both end in it -- since the driver skips the generic
rules of an instruction once one of its rules reported. When nothing was
reported the driver runs them, after the intrinsic rules (LLVM checks the
intrinsic in the middle of ``visitCallBase``; the order only differs when
both a bundle and an intrinsic rule fail).

Not here: the attribute rules proper (``attribute_rules``, called from
here where LLVM calls ``verifyFunctionAttrs``/``verifyParameterAttrs``);
intrinsic signatures and per-intrinsic rules (``intrinsic_rules``, including
"Callsite was not defined with variable arguments!"); the generic operand
rules ("Cannot invoke an intrinsic ...", dominance: ``instruction_rules``).
The function-wide convergence rules LLVM checks after the last
instruction (well-nested regions, cycle hearts: they need cycle info) are
not done. LLVM 19's ``callbr`` accepts only inline asm ("Callbr is currently
only used for asm-goto!"); the later "Callbr: indirect function / invalid
signature" family does not exist in 19.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.constants import ConstantFP, ConstantInt
from llvmpy_mid.ir.debug_info import DINode
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.inline_asm import ConstraintType, parse_constraints
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.pointer_casts import get_returned_arg_operand as _returned_arg
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts as strip_pointer_casts
from llvmpy_mid.ir.type_queries import can_losslessly_bitcast
from llvmpy_mid.ir.types import Type, TypeID
from llvmpy_mid.ir.verifier import attribute_rules, instruction_rules, metadata_rules, musttail_rules
from llvmpy_mid.ir.verifier.bundle_rules import verify_bundles, verify_convergence
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.rule import RuleTable

if TYPE_CHECKING:
    from llvmpy_mid.ir.attributes import AttributeList
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.instructions.calls import CallBase
    from llvmpy_mid.ir.types import FunctionType
    from llvmpy_mid.ir.value import Value

_POINTER = TypeID.POINTER
_TOKEN = TypeID.TOKEN
_METADATA = TypeID.METADATA
_X86_AMX = TypeID.X86_AMX
_FIXED_VECTOR = TypeID.FIXED_VECTOR
_SCALABLE_VECTOR = TypeID.SCALABLE_VECTOR
_STRUCT = TypeID.STRUCT
_ARRAY = TypeID.ARRAY

TERMINATOR_IN_MIDDLE = "Terminator found in the middle of a basic block!"
_MAXIMUM_ALIGNMENT = 1 << 32  # LLVM's Value::MaximumAlignment
_AMDGPU_CS_CHAIN = (104, 105)  # amdgpu_cs_chain, amdgpu_cs_chain_preserve

# The parameter attributes whose presence anywhere in a list makes the
# per-argument checks worth doing.
_ARG_KINDS = (AttrKind.SWIFT_ERROR, AttrKind.IMM_ARG, AttrKind.PREALLOCATED, AttrKind.IN_ALLOCA)

_NO_KINDS: frozenset[AttrKind] = frozenset()
_ARG_KIND_SET = frozenset(_ARG_KINDS)
_MEMO_FTY = "call-fty"
_MEMO_KINDS = "call-param-kinds"
_MEMO_SP = "call-subprogram"


# --- shared with eh_rules and musttail_rules ------------------------------------------------------
def visit_instruction(c: Checker, inst: Instruction) -> None:
    """LLVM's ``visitInstruction`` on its own: the generic rules, then (if they
    passed) the metadata attachments.

    For rules that must place it between their own checks (the driver only
    runs it when no rule of the instruction reported). ``instruction_rules``
    puts the terminator-placement check (and, for an invoke, a second visit) in
    front of or around it; those findings are taken back out here."""
    diags = c.diagnostics
    n = len(diags)
    instruction_rules.verify_instruction(c, inst)
    if len(diags) != n:
        found = [d for d in diags[n:] if d.message != TERMINATOR_IN_MIDDLE]
        del diags[n:]
        if found:
            diags.append(found[0])
            return
    metadata_rules.verify_attachments(c, inst)


def visit_terminator(c: Checker, inst: Instruction) -> None:
    """LLVM's ``visitTerminator``: the block ends with ``inst``, then ``visitInstruction``."""
    bb = inst.parent
    if bb is not None and bb.instructions._last is not inst:
        c.fail(TERMINATOR_IN_MIDDLE, bb)
        return
    visit_instruction(c, inst)


def is_eh_pad_block(block: object) -> bool:
    """The block's first non-phi instruction is an EH pad (LLVM ``BasicBlock::isEHPad``)."""
    if not getattr(block, "is_basic_block", False):
        return False
    first = block.first_non_phi  # type: ignore[attr-defined]
    return first is not None and bool(first.is_eh_pad)


# --- per-run facts --------------------------------------------------------------------------------
def _has_vector(ty: Type, depth: int = 0) -> bool:
    """Whether a vector (the only type whose ABI alignment can pass 2^32) is in ``ty``."""
    tid = ty.type_id
    if tid is _FIXED_VECTOR or tid is _SCALABLE_VECTOR:
        return True
    if depth > 64:
        return False
    if tid is _ARRAY:
        return _has_vector(ty.element_type, depth + 1)  # type: ignore[attr-defined]
    if tid is _STRUCT:
        return any(_has_vector(e, depth + 1) for e in ty.elements)  # type: ignore[attr-defined]
    return False


def _over_aligned(c: Checker, ty: Type) -> bool:
    if not _has_vector(ty):
        return False
    module = c.module
    if module is None and c.function is not None:
        module = c.function.parent
    if module is None:
        return False
    try:
        if not ty.is_sized:
            return False
        return module.data_layout.abi_alignment(ty) > _MAXIMUM_ALIGNMENT
    except Exception:  # an unsized or odd type: LLVM would not get this far
        return False


class _FnTypeFacts:
    """What the call base checks need to know about one function type."""

    __slots__ = ("align_problem", "param_problem")

    def __init__(self, align_problem: str | None, param_problem: str | None) -> None:
        self.align_problem = align_problem
        self.param_problem = param_problem


def _fty_facts(c: Checker, fty: FunctionType) -> _FnTypeFacts:
    table = c.memo.get(_MEMO_FTY)
    if table is None:
        table = c.memo[_MEMO_FTY] = {}
    assert isinstance(table, dict)
    facts = table.get(fty)
    if facts is None:
        align: str | None = None
        if _over_aligned(c, fty.return_type):
            align = "Incorrect alignment of return type to called function!"
        else:
            for p in fty.params:
                if _over_aligned(c, p):
                    align = "Incorrect alignment of argument passed to called function!"
                    break
        param: str | None = None
        for p in fty.params:
            tid = p.type_id
            if tid is _METADATA:
                param = "Function has metadata parameter but isn't an intrinsic"
                break
            if tid is _TOKEN:
                param = "Function has token parameter but isn't an intrinsic"
                break
        facts = table[fty] = _FnTypeFacts(align, param)
    assert isinstance(facts, _FnTypeFacts)
    return facts


def _param_kinds(c: Checker, attrs: AttributeList) -> frozenset[AttrKind]:
    """Which of the kinds in ``_ARG_KINDS`` some parameter set of ``attrs`` has
    (remembered per list value: equal lists are common)."""
    sets = attrs.param_sets
    if not sets:
        return _NO_KINDS
    table = c.memo.get(_MEMO_KINDS)
    if table is None:
        table = c.memo[_MEMO_KINDS] = {}
    assert isinstance(table, dict)
    found: frozenset[AttrKind] | None = table.get(attrs)
    if found is None:
        kinds = [a.kind for s in sets for a in s if a.kind in _ARG_KIND_SET]
        found = table[attrs] = frozenset(kinds) if kinds else _NO_KINDS
    return found


def _subprogram(c: Checker, fn: Function) -> bool:
    """Whether ``fn`` has a DISubprogram attached (``!dbg``)."""
    table = c.memo.get(_MEMO_SP)
    if table is None:
        table = c.memo[_MEMO_SP] = {}
    assert isinstance(table, dict)
    found = table.get(fn)
    if found is None:
        md = fn.get_metadata("dbg")
        found = table[fn] = isinstance(md, DINode) and md.kind == "DISubprogram"
    return bool(found)


# --- the call base ---------------------------------------------------------------------------------
def _call_base(c: Checker, call: CallBase) -> bool:
    """LLVM's ``visitCallBase`` up to (not including) its final
    ``visitInstruction``; False when a check returned from it early."""
    ops = call._operands
    if not ops:
        return False
    callee = ops[-1].value
    if callee.type.type_id is not _POINTER:
        c.fail("Called function must be a pointer!", call)
        return False
    fty = call.function_type
    params = fty.params
    nparams = len(params)
    nargs = call._num_args
    if fty.is_vararg:
        if nargs < nparams:
            c.fail("Called function requires more parameters than were provided!", call)
            return False
    elif nargs != nparams:
        c.fail("Incorrect number of arguments passed to called function!", call)
        return False
    for i in range(nparams):
        arg = ops[i].value
        if arg.type is not params[i]:
            c.fail("Call parameter type does not match function signature!", arg, params[i], call)
            return False
    attrs = call.attributes
    if attrs.num_attr_sets > nargs + 2:
        c.fail("Attribute after last parameter!", call)
        return False

    stripped = callee if isinstance(callee, Function) else strip_pointer_casts(callee)
    fn_callee = stripped if isinstance(stripped, Function) else None
    is_intrinsic = fn_callee is not None and fn_callee.intrinsic_id
    if is_intrinsic and fn_callee is not None and fn_callee.function_type is not fty:
        c.fail("Intrinsic called with incompatible signature", call)
        return False
    if call.calling_conv in _AMDGPU_CS_CHAIN:
        c.fail(
            "Direct calls to amdgpu_cs_chain/amdgpu_cs_chain_preserve functions not allowed. "
            "Please use the @llvm.amdgpu.cs.chain intrinsic instead.",
            call,
        )
        return False
    facts = _fty_facts(c, fty)
    if not is_intrinsic and facts.align_problem is not None:
        c.fail(facts.align_problem, call)
        return False

    fn_attrs = attrs.fn_attrs
    if fn_attrs:
        if fn_attrs.has(AttrKind.SPECULATABLE):
            if fn_callee is None or not fn_callee.attributes.fn_attrs.has(AttrKind.SPECULATABLE):
                c.fail("speculatable attribute may not apply to call sites", call)
                return False
        if fn_attrs.has(AttrKind.PREALLOCATED):
            called = call.called_function
            if called is None or lookup_intrinsic(called.name) != "llvm.call.preallocated.arg":
                c.fail("preallocated as a call site attribute can only be on llvm.call.preallocated.arg")
                return False

    attribute_rules.verify_attribute_list(c, fty, attrs, call, bool(is_intrinsic), callee.is_inline_asm)

    called = call.called_function
    kinds = _param_kinds(c, attrs)
    if called is not None and called.attributes.param_sets:
        kinds = kinds | _param_kinds(c, called.attributes)
    if kinds and not _argument_attributes(c, call, fty, attrs, kinds, fn_callee):
        return False
    if fty.is_vararg and len(attrs.param_sets) > len(fty.params) and not _vararg_attributes(c, call, fty, attrs):
        return False

    if not is_intrinsic and facts.param_problem is not None:
        c.fail(facts.param_problem, call)
        return False
    if called is None:
        rtid = fty.return_type.type_id
        if rtid is _TOKEN:
            c.fail("Return type cannot be token for indirect call!")
            return False
        if rtid is _X86_AMX:
            c.fail("Return type cannot be x86_amx for indirect call!")
            return False

    if call._bundles and not verify_bundles(c, call, called):
        return False

    if called is not None and call.debug_loc is None:
        fn = c.function
        if fn is not None and _subprogram(c, fn) and not called.is_declaration and _subprogram(c, called):
            if not called.is_interposable:
                c.fail_debug_info(
                    "inlinable function call in a function with debug info must have a !dbg location", call
                )
                return False

    if callee.is_inline_asm:
        _inline_asm_call(c, call)
    return True


def _argument_attributes(
    c: Checker,
    call: CallBase,
    fty: FunctionType,
    attrs: AttributeList,
    kinds: frozenset[AttrKind],
    fn_callee: Function | None,
) -> bool:
    """The inalloca, swifterror, immarg and preallocated checks of
    ``visitCallBase``; False when one failed."""
    ops = call._operands
    nargs = call._num_args
    nparams = len(fty.params)
    if AttrKind.IN_ALLOCA in kinds and nargs and call.param_has_attr(nargs - 1, AttrKind.IN_ALLOCA):
        if nparams:
            base = strip_pointer_casts(ops[nparams - 1].value, inbounds=True)
            if base.is_instruction and base.opcode == "alloca" and not base.inalloca:  # type: ignore[attr-defined]
                c.fail("inalloca argument for call has mismatched alloca", base, call)
                return False
    if (
        AttrKind.SWIFT_ERROR in kinds
        or AttrKind.IMM_ARG in kinds
        or AttrKind.PREALLOCATED in kinds
    ):
        for i in range(nparams):
            arg = ops[i].value
            if AttrKind.SWIFT_ERROR in kinds and call.param_has_attr(i, AttrKind.SWIFT_ERROR):
                base = strip_pointer_casts(arg, inbounds=True)
                if base.is_instruction and base.opcode == "alloca":  # type: ignore[attr-defined]
                    if not base.swifterror:  # type: ignore[attr-defined]
                        c.fail("swifterror argument for call has mismatched alloca", base, call)
                        return False
                    continue
                if not arg.is_argument:
                    c.fail("swifterror argument should come from an alloca or parameter", arg, call)
                    return False
                if not arg.parent.attributes.has_param_attr(arg.arg_no, AttrKind.SWIFT_ERROR):  # type: ignore[attr-defined]
                    c.fail("swifterror argument for call has mismatched parameter", arg, call)
                    return False
            if AttrKind.IMM_ARG in kinds:
                if attrs.has_param_attr(i, AttrKind.IMM_ARG):
                    if fn_callee is None or not fn_callee.attributes.has_param_attr(i, AttrKind.IMM_ARG):
                        c.fail("immarg may not apply only to call sites", arg, call)
                        return False
                if call.param_has_attr(i, AttrKind.IMM_ARG):
                    if not isinstance(arg, (ConstantInt, ConstantFP)):
                        c.fail("immarg operand has non-immediate parameter", arg, call)
                        return False
            if AttrKind.PREALLOCATED in kinds and call.param_has_attr(i, AttrKind.PREALLOCATED):
                has_bundle = any(info[0] == "preallocated" for info in call._bundles)
                must_tail = call.opcode == "call" and call.is_must_tail_call  # type: ignore[attr-defined]
                if has_bundle == must_tail:
                    c.fail(
                        "preallocated operand either requires a preallocated bundle or the call to be musttail "
                        "(but not both)",
                        arg,
                        call,
                    )
                    return False
    return True


def _vararg_attributes(c: Checker, call: CallBase, fty: FunctionType, attrs: AttributeList) -> bool:
    """The checks of ``visitCallBase`` on the attributes of the variadic
    arguments; False when one failed."""
    ops = call._operands
    nargs = call._num_args
    nparams = len(fty.params)
    if nargs > nparams:
        saw_nest = False
        saw_returned = False
        for i in range(nparams):
            if attrs.has_param_attr(i, AttrKind.NEST):
                saw_nest = True
            if attrs.has_param_attr(i, AttrKind.RETURNED):
                saw_returned = True
        called = call.called_function
        statepoint = called is not None and lookup_intrinsic(called.name) == "llvm.experimental.gc.statepoint"
        for i in range(nparams, nargs):
            ty = ops[i].value.type
            arg_attrs = attrs.param_attrs(i)
            if not arg_attrs:
                continue
            attribute_rules.verify_parameter_attributes(c, arg_attrs, ty, call)
            if arg_attrs.has(AttrKind.NEST):
                if saw_nest:
                    c.fail("More than one parameter has attribute nest!", call)
                    return False
                saw_nest = True
            if arg_attrs.has(AttrKind.RETURNED):
                if saw_returned:
                    c.fail("More than one parameter has attribute returned!", call)
                    return False
                if not can_losslessly_bitcast(ty, fty.return_type):
                    c.fail("Incompatible argument and return types for 'returned' attribute", call)
                    return False
                saw_returned = True
            if not statepoint and arg_attrs.has(AttrKind.STRUCT_RET):
                c.fail("Attribute 'sret' cannot be used for vararg call arguments!", call)
                return False
            if arg_attrs.has(AttrKind.IN_ALLOCA) and i != nargs - 1:
                c.fail("inalloca isn't on the last argument!", call)
                return False
    return True


def _inline_asm_call(c: Checker, call: CallBase) -> None:
    """LLVM's ``verifyInlineAsmCall`` (its failures do not stop the call's checks)."""
    asm = call._operands[-1].value
    constraints = parse_constraints(asm.constraint_string)  # type: ignore[attr-defined]
    ops = call._operands
    nargs = call._num_args
    arg_no = 0
    labels = 0
    for info in constraints:
        kind = info.type
        if kind is ConstraintType.LABEL:
            labels += 1
            continue
        if not (kind is ConstraintType.INPUT or (kind is ConstraintType.OUTPUT and info.is_indirect)):
            continue
        if info.is_indirect:
            if arg_no < nargs and not ops[arg_no].value.type.is_pointer:
                c.fail("Operand for indirect constraint must have pointer type", call)
                return
            if call.attributes.param_attrs(arg_no).element_type is None:
                c.fail("Operand for indirect constraint must have elementtype attribute", call)
                return
        elif call.param_has_attr(arg_no, AttrKind.ELEMENT_TYPE):
            c.fail("Elementtype attribute can only be applied for indirect constraints", call)
            return
        arg_no += 1
    if call.opcode == "callbr":
        if labels != call.num_indirect_dests:  # type: ignore[attr-defined]
            c.fail("Number of label constraints does not match number of callbr dests", call)
    elif labels:
        c.fail("Label constraints can only be used with callbr", call)


def _call_base_tail(c: Checker, call: CallBase) -> None:
    """What ``visitCallBase`` checks after the inline-asm rules: convergence control."""
    verify_convergence(c, call)


# --- the visitors ------------------------------------------------------------------------------------
def _call(c: Checker, call: CallBase) -> None:
    """``visitCallInst``: the call base, then the musttail rules."""
    n0 = len(c.diagnostics)
    done = _call_base(c, call)
    if done:
        _call_base_tail(c, call)
    problems = musttail_rules.must_tail_problems(c, call) if call.is_must_tail_call else None  # type: ignore[attr-defined]
    if done and (problems or len(c.diagnostics) != n0):
        visit_instruction(c, call)
    if problems:
        for message, items in problems:
            c.fail(message, *items)


def _invoke(c: Checker, inv: CallBase) -> None:
    """``visitInvokeInst``: the call base, the unwind destination, then ``visitTerminator``."""
    n0 = len(c.diagnostics)
    done = _call_base(c, inv)
    if done:
        _call_base_tail(c, inv)
    unwind = inv._operands[-2].value
    unwind_ok = is_eh_pad_block(unwind)
    if done and unwind_ok and len(c.diagnostics) == n0:
        return  # the driver runs the generic rules (both of LLVM's visits)
    if done:
        visit_instruction(c, inv)
    if not unwind_ok:
        c.fail("The unwind destination does not have an exception handling instruction!", inv)
        return
    visit_terminator(c, inv)


def _callbr(c: Checker, cbr: CallBase) -> None:
    """``visitCallBrInst`` (LLVM 19 checks no call base for callbr)."""
    callee = cbr._operands[-1].value if cbr._operands else None
    if callee is None or not callee.is_inline_asm:
        c.fail("Callbr is currently only used for asm-goto!", cbr)
        return
    if callee.can_throw:  # type: ignore[attr-defined]
        c.fail("Unwinding from Callbr is not allowed")
        return
    n0 = len(c.diagnostics)
    _inline_asm_call(c, cbr)
    if len(c.diagnostics) != n0:
        visit_terminator(c, cbr)


INSTRUCTION_RULES: RuleTable = {
    "call": _call,
    "invoke": _invoke,
    "callbr": _callbr,
}

__all__ = [
    "INSTRUCTION_RULES",
    "TERMINATOR_IN_MIDDLE",
    "can_losslessly_bitcast",
    "is_eh_pad_block",
    "strip_pointer_casts",
    "visit_instruction",
    "visit_terminator",
]
