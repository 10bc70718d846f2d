"""Rules on calls of intrinsics (LLVM 19 ``Verifier::visitIntrinsicCall``).

What: for ``call``, ``invoke`` and ``callbr`` whose callee is an intrinsic
function (``fn.is_intrinsic`` and a name LLVM knows), after the generic call
rules of ``call_rules``, in LLVM's order:

1. (in ``call_rules``, LLVM's ``visitCallBase``: ``immarg`` parameters get a
   ``ConstantInt``/``ConstantFP``, "immarg operand has non-immediate
   parameter"; in LLVM 19 this is also what a non-constant size of
   ``llvm.lifetime.start`` or flag of ``llvm.memcpy`` gets, and alignments
   are ``align`` attributes checked with the other attributes);
2. the intrinsic is a declaration ("Intrinsic functions should never be
   defined!"; the definition itself gets visitFunction's "llvm intrinsics
   cannot be defined!" from ``function_rules``);
3. the declared type matches the intrinsic's signature
   (:mod:`~llvmpy_mid.ir.verifier.intrinsic_signatures`): "Intrinsic has
   incorrect return type!", "Intrinsic has incorrect argument type!",
   "Intrinsic was not defined with variable arguments!", "Callsite was not
   defined with variable arguments!" (LLVM's wording: the second is also what a
   declaration with too few parameters gets), then the name carries the
   overloaded types' manglings ("Intrinsic name not mangled correctly for type
   arguments! Should be: llvm.foo.i32"), each printing the function
   (``ptr @llvm.x``);
4. node arguments are checked by the metadata walk (LLVM's ``visitMDNode``),
   metadata arguments wrapping function-local values belong to this
   function, and no argument is an ``x86_amx`` constant;
5. the intrinsic's own rules: those about the call alone in
   :mod:`~llvmpy_mid.ir.verifier.intrinsic_checks`, those about its context
   here (frames and ``llvm.localescape``, GC roots, statepoints and
   ``gc.result``/``gc.relocate``, coroutine ids, preallocated calls, EH
   pads, ``callbr`` landing pads, guards and deoptimization, ``va_start``,
   the ``llvm.dbg.*`` operands and locations (in ``dbg_intrinsic_rules``: the reader
   verifies them before it turns those calls into debug records, as LLVM's does)).

``verify_frame_recover_indices`` and ``verify_deoptimize_calling_convs`` are
the module-level follow-ups LLVM runs in its ``verify(Module)``: for
``module_rules`` to call (the first at its start, the second at its end).

Intrinsics without a signature description (target intrinsics, the rarer
experimental ones: :func:`~llvmpy_mid.ir.verifier.intrinsic_signatures.
intrinsic_base` returns no signature) get steps 1, 2 and 4 only: their
signatures are not flagged.

Not done here: LLVM's "Missing funclet token on
intrinsic call" (needs WinEH funclet colouring);
``llvm.experimental.noalias.scope.decl``'s scope-list visit and domination
option (its own checks run at the call, where LLVM runs them at the end of
the function); the convergence-token rules; after an intrinsic finding
LLVM still runs the operand-bundle and generic instruction checks of the same
call, while the driver stops at the first finding of an instruction.
"""

from __future__ import annotations

from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.constants import (
    ConstantArray,
    ConstantInt,
    ConstantPointerNull,
    ConstantStruct,
    UndefValue,
)
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.eh import CatchPadInst, LandingPadInst
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.instructions.terminators import CallBrInst
from llvmpy_mid.ir.metadata import DIArgList, MDNode, MetadataAsValue, ValueAsMetadata
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.types import FunctionType, TypeID
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.dbg_intrinsic_rules import dbg_label, dbg_variable
from llvmpy_mid.ir.verifier.debug_info_rules import visit_md_node
from llvmpy_mid.ir.verifier.intrinsic_checks import (
    CHECKS,
    Check,
    arg_at,
    callee_base,
    int_arg,
    strip_pointer_casts,
)
from llvmpy_mid.ir.verifier.intrinsic_signatures import (
    NO_MATCH_ARG,
    NO_MATCH_RET,
    Signature,
    intrinsic_base,
    intrinsic_name,
    match_signature,
    vararg_mismatch,
)
from llvmpy_mid.ir.verifier.rule import RuleTable
from llvmpy_mid.ir.verifier.vp_intrinsic_rules import VP_CHECKS

_SEEN_MD = "intrinsic-md-seen"


def _check_value_as_metadata(c: Checker, md: ValueAsMetadata, call: CallBase) -> bool:
    """LLVM's visitValueAsMetadata for a metadata argument of ``call``."""
    if not md.is_local_as_metadata:
        return False
    value = md.value
    caller = call.function
    actual = None
    if value.is_instruction:
        bb = value.parent  # type: ignore[attr-defined]
        if bb is None:
            c.fail("function-local metadata not in basic block", md, value)
            return True
        actual = bb.parent
    elif value.is_basic_block:
        actual = value.parent  # type: ignore[attr-defined]
    elif value.is_argument:
        actual = value.parent  # type: ignore[attr-defined]
    else:
        return False
    if actual is not caller:
        c.fail("function-local metadata used in wrong function", md)
        return True
    return False


def _check_arguments(c: Checker, call: CallBase) -> bool:
    seen = c.memo.get(_SEEN_MD)
    if seen is None:
        seen = c.memo[_SEEN_MD] = set()
    assert isinstance(seen, set)
    for arg in call.args:
        if isinstance(arg, MetadataAsValue):
            md = arg.metadata
            if isinstance(md, MDNode):
                visit_md_node(c, md, False)
            elif id(md) not in seen:
                seen.add(id(md))
                if isinstance(md, ValueAsMetadata):
                    if _check_value_as_metadata(c, md, call):
                        return True
                elif isinstance(md, DIArgList):
                    for item in md.args:
                        if isinstance(item, ValueAsMetadata) and _check_value_as_metadata(c, item, call):
                            return True
        elif arg.is_constant and arg.type.type_id is TypeID.X86_AMX:
            c.fail("const x86_amx is not allowed in argument!")
            return True
    return False


_SIGNATURE_VERDICTS = "intrinsic-signature-verdicts"


def _signature_finding(base: str, sig: Signature, fn: Function) -> str:
    """The message LLVM gives a declaration of ``base`` against its signature
    (``""`` when it matches and is named right)."""
    fty = fn.function_type
    result, overloads = match_signature(sig, fty)
    if result == NO_MATCH_RET:
        return "Intrinsic has incorrect return type!"
    if result == NO_MATCH_ARG:
        return "Intrinsic has incorrect argument type!"
    if vararg_mismatch(sig, fty):
        if fty.is_vararg:
            return "Intrinsic was not defined with variable arguments!"
        return "Callsite was not defined with variable arguments!"
    expected = intrinsic_name(base, overloads)
    if expected is not None and expected != fn.name:
        return "Intrinsic name not mangled correctly for type arguments! Should be: " + expected
    return ""


def verify_intrinsic_call(c: Checker, call: CallBase) -> None:
    """The intrinsic rules for one ``call``/``invoke``/``callbr`` (see the module docstring)."""
    fn = call.called_function
    if fn is None or not fn.intrinsic_id:
        return
    found = intrinsic_base(fn.name)
    if found is None:
        return
    base, sig = found
    if not fn.is_declaration:
        c.fail("Intrinsic functions should never be defined!", fn)
        return
    if sig is not None:
        verdicts = c.memo.get(_SIGNATURE_VERDICTS)
        if verdicts is None:
            verdicts = c.memo[_SIGNATURE_VERDICTS] = {}
        assert isinstance(verdicts, dict)
        key = (id(fn), fn.name)
        message = verdicts.get(key)
        if message is None:
            message = verdicts[key] = _signature_finding(base, sig, fn)
        if message:
            c.fail(message, fn)
            return
    if _check_arguments(c, call):
        return
    check = _CHECKS.get(base)
    if check is not None:
        check(c, call)


# --- frames, stacks, GC roots --------------------------------------------------------------------------------


def _uses_gc(call: CallBase) -> bool:
    fn = call.function
    return fn is not None and bool(fn.gc)


def _gc_root(kind: str) -> Check:
    def check(c: Checker, call: CallBase) -> None:
        if kind == "gcroot":
            a0, a1 = arg_at(call, 0), arg_at(call, 1)
            if a0 is None or a1 is None:
                return
            alloca = strip_pointer_casts(a0)
            if not isinstance(alloca, AllocaInst):
                c.fail("llvm.gcroot parameter #1 must be an alloca.", call)
                return
            if not a1.is_constant:
                c.fail("llvm.gcroot parameter #2 must be a constant.", call)
                return
            if not alloca.allocated_type.is_pointer and isinstance(a1, ConstantPointerNull):
                c.fail(
                    "llvm.gcroot parameter #1 must either be a pointer alloca, or argument #2 must be a non-null "
                    "constant.",
                    call,
                )
                return
        if not _uses_gc(call):
            c.fail("Enclosing function does not use GC.", call)

    return check


def _init_trampoline(c: Checker, call: CallBase) -> None:
    a1 = arg_at(call, 1)
    if a1 is not None and not isinstance(strip_pointer_casts(a1), Function):
        c.fail("llvm.init_trampoline parameter #2 must resolve to a function.", call)


def _stackprotector(c: Checker, call: CallBase) -> None:
    a1 = arg_at(call, 1)
    if a1 is not None and not isinstance(strip_pointer_casts(a1), AllocaInst):
        c.fail("llvm.stackprotector parameter #2 must resolve to an alloca.", call)


_FRAME_ESCAPE = "intrinsic-frame-escape"


def frame_escape_info(c: Checker) -> dict[Function, list[int]]:
    """Per function: ``[number of llvm.localescape arguments, 1 + largest
    llvm.localrecover index]`` seen so far in this run (LLVM's
    ``FrameEscapeInfo``, for the module-level "all indices passed to
    llvm.localrecover must be less than..." rule)."""
    info = c.memo.get(_FRAME_ESCAPE)
    if info is None:
        info = c.memo[_FRAME_ESCAPE] = {}
    assert isinstance(info, dict)
    return info


def _localescape(c: Checker, call: CallBase) -> None:
    bb = call.parent
    fn = call.function
    if bb is None or fn is None:
        return
    if not bb.is_entry_block:
        c.fail("llvm.localescape used outside of entry block", call)
        return
    key = "intrinsic-localescape-%d" % id(fn)
    if key in c.memo:
        c.fail("multiple calls to llvm.localescape in one function", call)
        return
    for arg in call.args:
        if isinstance(arg, ConstantPointerNull):
            continue
        alloca = strip_pointer_casts(arg)
        if not (isinstance(alloca, AllocaInst) and alloca.is_static_alloca):
            c.fail("llvm.localescape only accepts static allocas", call)
            return
    frame_escape_info(c).setdefault(fn, [0, 0])[0] = call.num_args
    c.memo[key] = True


def _localrecover(c: Checker, call: CallBase) -> None:
    a0 = arg_at(call, 0)
    fn = strip_pointer_casts(a0) if a0 is not None else None
    if not (isinstance(fn, Function) and not fn.is_declaration):
        c.fail("llvm.localrecover first argument must be function defined in this module", call)
        return
    idx = int_arg(call, 2)
    if idx is not None:
        entry = frame_escape_info(c).setdefault(fn, [0, 0])
        entry[1] = max(entry[1], min(idx.value, 0xFFFFFFFF) + 1)


def _vastart(c: Checker, call: CallBase) -> None:
    fn = call.function
    if fn is not None and not fn.is_vararg:
        c.fail("va_start called in a non-varargs function")


# --- coroutines, preallocated calls, EH ----------------------------------------------------------------------


def _coro_id(c: Checker, call: CallBase) -> None:
    a3 = arg_at(call, 3)
    if a3 is None:
        return
    info = strip_pointer_casts(a3)
    if isinstance(info, ConstantPointerNull):
        return
    if not (isinstance(info, GlobalVariable) and info.is_constant_global and info.has_definitive_initializer):
        c.fail("info argument of llvm.coro.id must refer to an initialized constant")
        return
    if not isinstance(info.initializer, (ConstantStruct, ConstantArray)):
        c.fail("info argument of llvm.coro.id must refer to either a struct or an array")


def _preallocated_setup(c: Checker, call: CallBase) -> None:
    num = int_arg(call, 0)
    if num is None:
        c.fail("llvm.call.preallocated.setup argument must be a constant")
        return
    found_call = False
    for user in call.users:
        if not isinstance(user, CallBase):
            c.fail("Uses of llvm.call.preallocated.setup must be calls")
            return
        base = callee_base(user)
        if base == "llvm.call.preallocated.arg":
            idx = int_arg(user, 1)
            if idx is None:
                c.fail("llvm.call.preallocated.alloc arg index must be a constant")
                return
            if not (idx.type is num.type and 0 <= idx.sext_value < num.sext_value):
                c.fail(
                    "llvm.call.preallocated.alloc arg index must be between 0 and corresponding "
                    "llvm.call.preallocated.setup's argument count"
                )
                return
        elif base == "llvm.call.preallocated.teardown":
            continue
        else:
            if found_call:
                c.fail("Can have at most one call corresponding to a llvm.call.preallocated.setup")
                return
            found_call = True
            count = sum(1 for i in range(user.num_args) if user.param_has_attr(i, AttrKind.PREALLOCATED))
            if count == 0:
                c.fail("cannot use preallocated intrinsics on a call without preallocated arguments")
                return
            if num.value != count:
                c.fail(
                    "llvm.call.preallocated.setup arg size must be equal to number of preallocated arguments at "
                    "call site",
                    call,
                    user,
                )
                return
            if user.count_operand_bundles_of_type("preallocated") > 1:
                return
            bundle = user.get_operand_bundle("preallocated")
            if bundle is None:
                c.fail(
                    'Use of llvm.call.preallocated.setup outside intrinsics must be in "preallocated" operand bundle'
                )
                return
            if not bundle.inputs or bundle.inputs[0] is not call:
                c.fail("preallocated bundle must have token from corresponding llvm.call.preallocated.setup")
                return


def _preallocated_arg(c: Checker, call: CallBase) -> None:
    if callee_base(arg_at(call, 0) or call) != "llvm.call.preallocated.setup":
        c.fail("llvm.call.preallocated.arg token argument must be a llvm.call.preallocated.setup")
    elif not call.has_fn_attr(AttrKind.PREALLOCATED):
        c.fail('llvm.call.preallocated.arg must be called with a "preallocated" call site attribute')


def _preallocated_teardown(c: Checker, call: CallBase) -> None:
    if callee_base(arg_at(call, 0) or call) != "llvm.call.preallocated.setup":
        c.fail("llvm.call.preallocated.teardown token argument must be a llvm.call.preallocated.setup")


def _exception_pointer(c: Checker, call: CallBase) -> None:
    if not isinstance(arg_at(call, 0), CatchPadInst):
        c.fail("eh.exceptionpointer argument must be a catchpad", call)


def _callbr_landingpad(c: Checker, call: CallBase) -> None:
    cbr = arg_at(call, 0)
    if not isinstance(cbr, CallBrInst):
        c.fail("intrinstic requires callbr operand", call)
        return
    bb = call.parent
    if bb is None:
        return
    pred = bb.unique_predecessor
    if pred is None:
        c.fail("Intrinsic in block must have 1 unique predecessor", call)
        return
    if not isinstance(pred.terminator, CallBrInst):
        c.fail("Intrinsic must have corresponding callbr in predecessor", call)
        return
    if not any(dest is bb for dest in cbr.indirect_dests):
        c.fail(
            "Intrinsic's corresponding callbr must have intrinsic's parent basic block in indirect destination list",
            call,
        )
        return
    if bb.first_instruction is not call:
        c.fail("No other instructions may proceed intrinsic", call)


# --- statepoints and GC --------------------------------------------------------------------------------------


_STATEPOINT_FLAGS = 3
# GC strategies LLVM 19 registers, and whether they tell GC pointers apart (addrspace 1).
_GC_STRATEGIES = {"statepoint-example": True, "coreclr": True, "erlang": False, "ocaml": False, "shadow-stack": False}


def _statepoint(c: Checker, call: CallBase) -> None:
    if not _uses_gc(call):
        c.fail("Enclosing function does not use GC.", call)
        return
    if call.does_not_access_memory or call.only_reads_memory or call.only_accesses_arg_memory:
        c.fail(
            "gc.statepoint must read and write all memory to preserve reordering restrictions required by "
            "safepoint semantics",
            call,
        )
        return
    patch_bytes = int_arg(call, 1)
    if patch_bytes is not None and patch_bytes.sext_value < 0:
        c.fail("gc.statepoint number of patchable bytes must be positive", call)
        return
    target = call.attributes.param_type_attr(2, AttrKind.ELEMENT_TYPE)
    if target is None:
        c.fail("gc.statepoint callee argument must have elementtype attribute", call)
        return
    if not isinstance(target, FunctionType):
        c.fail("gc.statepoint callee elementtype must be function type", call)
        return
    num_call_args_c = int_arg(call, 3)
    flags = int_arg(call, 4)
    if num_call_args_c is None or flags is None:
        return
    num_call_args = num_call_args_c.value & 0xFFFFFFFF
    if num_call_args >= 1 << 31:
        c.fail("gc.statepoint number of arguments to underlying call must be positive", call)
        return
    num_params = len(target.params)
    if target.is_vararg:
        if num_call_args < num_params:
            c.fail("gc.statepoint mismatch in number of vararg call args", call)
            return
        if not target.return_type.is_void:
            c.fail("gc.statepoint doesn't support wrapping non-void vararg functions yet", call)
            return
    elif num_call_args != num_params:
        c.fail("gc.statepoint mismatch in number of call args", call)
        return
    if flags.value & ~_STATEPOINT_FLAGS:
        c.fail("unknown flag used in gc.statepoint flags argument", call)
        return
    for i in range(num_params):
        arg = arg_at(call, 5 + i)
        if arg is None or arg.type is not target.params[i]:
            c.fail("gc.statepoint call argument does not match wrapped function type", call)
            return
        if target.is_vararg and call.attributes.param_attrs(5 + i).has(AttrKind.STRUCT_RET):
            c.fail("Attribute 'sret' cannot be used for vararg call arguments!", call)
            return
    end_call = 4 + num_call_args
    transition = arg_at(call, end_call + 1)
    if not isinstance(transition, ConstantInt):
        c.fail("gc.statepoint number of transition arguments must be constant integer", call)
        return
    if transition.value != 0:
        c.fail("gc.statepoint w/inline transition bundle is deprecated", call)
        return
    deopt = arg_at(call, end_call + 2)
    if not isinstance(deopt, ConstantInt):
        c.fail("gc.statepoint number of deoptimization arguments must be constant integer", call)
        return
    if deopt.value != 0:
        c.fail("gc.statepoint w/inline deopt operands is deprecated", call)
        return
    if 7 + num_call_args != call.num_args:
        c.fail("gc.statepoint too many arguments", call)
        return
    for user in call.users:
        if not isinstance(user, CallInst):
            c.fail("illegal use of statepoint token", call, user)
            return
        base = callee_base(user)
        if base not in ("llvm.experimental.gc.relocate", "llvm.experimental.gc.result"):
            c.fail("gc.result or gc.relocate are the only value uses of a gc.statepoint", call, user)
            return
        if base == "llvm.experimental.gc.result" and arg_at(user, 0) is not call:
            c.fail("gc.result connected to wrong gc.statepoint", call, user)
            return


def _is_statepoint(v: Value | None) -> bool:
    return v is not None and callee_base(v) == "llvm.experimental.gc.statepoint"


def _gc_result(c: Checker, call: CallBase) -> None:
    if not _uses_gc(call):
        c.fail("Enclosing function does not use GC.", call)
        return
    token = arg_at(call, 0)
    if token is None or isinstance(token, UndefValue):
        return
    fn = token.called_function if isinstance(token, CallBase) else None
    if not (fn is not None and fn.is_declaration and _is_statepoint(token)):
        c.fail("gc.result operand #1 must be from a statepoint", call, token)
        return
    assert isinstance(token, CallBase)
    target = token.attributes.param_type_attr(2, AttrKind.ELEMENT_TYPE)
    if isinstance(target, FunctionType) and call.type is not target.return_type:
        c.fail("gc.result result type does not match wrapped callee", call)


def _gc_relocate(c: Checker, call: CallBase) -> None:
    if call.num_args != 3:
        c.fail("wrong number of arguments", call)
        return
    if not call.type.scalar_type.is_pointer:
        c.fail("gc.relocate must return a pointer or a vector of pointers", call)
        return
    token = call.get_arg(0)
    statepoint: Value | None = token
    if isinstance(token, LandingPadInst):
        pad_bb = token.parent
        invoke_bb = pad_bb.unique_predecessor if pad_bb is not None else None
        if invoke_bb is None:
            c.fail("safepoints should have unique landingpads", pad_bb)
            return
        term = invoke_bb.terminator
        if term is None:
            c.fail("safepoint block should be well formed", invoke_bb)
            return
        if not _is_statepoint(term):
            c.fail("gc relocate should be linked to a statepoint", invoke_bb)
            return
        statepoint = term
    elif not (_is_statepoint(token) or isinstance(token, UndefValue)):
        c.fail("gc relocate is incorrectly tied to the statepoint", call, token)
        return
    base, derived = call.get_arg(1), call.get_arg(2)
    if not isinstance(base, ConstantInt):
        c.fail("gc.relocate operand #2 must be integer offset", call)
        return
    if not isinstance(derived, ConstantInt):
        c.fail("gc.relocate operand #3 must be integer offset", call)
        return
    if isinstance(statepoint, UndefValue) or not isinstance(statepoint, CallBase):
        return
    live = statepoint.get_operand_bundle("gc-live")
    live_inputs = list(live.inputs) if live is not None else None
    if live_inputs is not None:
        if base.value >= len(live_inputs):
            c.fail("gc.relocate: statepoint base index out of bounds", call)
            return
        if derived.value >= len(live_inputs):
            c.fail("gc.relocate: statepoint derived index out of bounds", call)
            return
        base_ty, derived_ty = live_inputs[base.value].type, live_inputs[derived.value].type
    else:
        base_v, derived_v = arg_at(statepoint, base.value), arg_at(statepoint, derived.value)
        if base_v is None or derived_v is None:
            return
        base_ty, derived_ty = base_v.type, derived_v.type
    result_ty = call.type
    if not base_ty.is_ptr_or_ptr_vector or not derived_ty.is_ptr_or_ptr_vector:
        c.fail("gc.relocate: relocated value must be a pointer", call)
        return
    if result_ty.is_vector != derived_ty.is_vector:
        c.fail("gc.relocate: vector relocates to vector and pointer to pointer", call)
        return
    if getattr(result_ty.scalar_type, "address_space", 0) != getattr(derived_ty.scalar_type, "address_space", 0):
        c.fail("gc.relocate: relocating a pointer shouldn't change its address space", call)
        return
    fn = call.function
    strategy = _GC_STRATEGIES.get(fn.gc) if fn is not None else None
    if strategy is None:
        c.fail("gc.relocate: calling function must have GCStrategy", fn)
        return
    if strategy:
        for ty, what in (
            (result_ty, "gc.relocate: must return gc pointer"),
            (base_ty, "gc.relocate: relocated value must be a gc pointer"),
            (derived_ty, "gc.relocate: relocated value must be a gc pointer"),
        ):
            if getattr(ty.scalar_type, "address_space", 0) != 1:
                c.fail(what, call)
                return


def _patchpoint(c: Checker, call: CallBase) -> None:
    if call.calling_conv == 13 and not call.type.is_single_value:
        c.fail("patchpoint: invalid return type used with anyregcc", call)


def _guard_or_deoptimize(name: str) -> Check:
    def check(c: Checker, call: CallBase) -> None:
        if not isinstance(call, CallInst):
            c.fail("%s cannot be invoked" % name, call)
            return
        if call.count_operand_bundles_of_type("deopt") != 1:
            c.fail('%s must have exactly one "deopt" operand bundle' % name)
            return
        if name == "experimental_deoptimize":
            fn = call.function
            if fn is None:
                return
            if call.type is not fn.return_type:
                c.fail("experimental_deoptimize return type must match caller return type")
                return
            nxt = call.next_instruction
            if nxt is None or nxt.opcode != "ret":
                c.fail("calls to experimental_deoptimize must be followed by a return")
                return
            if not call.type.is_void and (nxt.num_operands == 0 or nxt.get_operand(0) is not call):
                c.fail(
                    "calls to experimental_deoptimize must be followed by a return of the value computed by "
                    "experimental_deoptimize"
                )

    return check


# --- module-level follow-ups (LLVM's verify(Module)) ---------------------------------------------------------


def verify_frame_recover_indices(c: Checker) -> None:
    """LLVM's verifyFrameRecoverIndices, run first by its verify(Module) after every
    function was checked: each llvm.localrecover index is below the number of objects
    its function passed to llvm.localescape (uses what the calls recorded in ``c``)."""
    for fn, (escaped, recovered) in frame_escape_info(c).items():
        if recovered > escaped:
            c.fail(
                "all indices passed to llvm.localrecover must be less than the number of arguments passed to "
                "llvm.localescape in the parent function",
                fn,
            )


def verify_deoptimize_calling_convs(c: Checker, module: Module) -> None:
    """LLVM's verifyDeoptimizeCallingConvs (last in its verify(Module)): every
    declaration of llvm.experimental.deoptimize has the same calling convention."""
    decls = [fn for fn in module.functions if fn.intrinsic_id and _base_of(fn) == "llvm.experimental.deoptimize"]
    for fn in decls[1:]:
        if fn.calling_conv != decls[0].calling_conv:
            c.fail("All llvm.experimental.deoptimize declarations must have the same calling convention", decls[0], fn)


def _base_of(fn: Function) -> str:
    found = intrinsic_base(fn.name)
    return found[0] if found is not None else ""


_CONTEXT_CHECKS: dict[str, Check] = {
    "llvm.coro.id": _coro_id,
    "llvm.dbg.declare": dbg_variable("declare"),
    "llvm.dbg.value": dbg_variable("value"),
    "llvm.dbg.assign": dbg_variable("assign"),
    "llvm.dbg.label": dbg_label,
    "llvm.call.preallocated.setup": _preallocated_setup,
    "llvm.call.preallocated.arg": _preallocated_arg,
    "llvm.call.preallocated.teardown": _preallocated_teardown,
    "llvm.gcroot": _gc_root("gcroot"),
    "llvm.gcwrite": _gc_root("gcwrite"),
    "llvm.gcread": _gc_root("gcread"),
    "llvm.init.trampoline": _init_trampoline,
    "llvm.stackprotector": _stackprotector,
    "llvm.localescape": _localescape,
    "llvm.localrecover": _localrecover,
    "llvm.experimental.gc.statepoint": _statepoint,
    "llvm.experimental.gc.result": _gc_result,
    "llvm.experimental.gc.relocate": _gc_relocate,
    "llvm.experimental.patchpoint": _patchpoint,
    "llvm.eh.exceptionpointer": _exception_pointer,
    "llvm.eh.exceptioncode": _exception_pointer,
    "llvm.experimental.guard": _guard_or_deoptimize("experimental_guard"),
    "llvm.experimental.deoptimize": _guard_or_deoptimize("experimental_deoptimize"),
    "llvm.va_start": _vastart,
    "llvm.callbr.landingpad": _callbr_landingpad,
}
_CHECKS: dict[str, Check] = {**CHECKS, **VP_CHECKS, **_CONTEXT_CHECKS}


def _intrinsic_call_rules(c: Checker, call: CallBase) -> None:
    """:func:`verify_intrinsic_call`; after a finding there LLVM goes on with the rest of the
    call's checks (its ``Check`` returns from ``visitIntrinsicCall`` only): the generic
    instruction rules and attachments, for an invoke also the unwind destination and the
    terminator's visit (so a finding there appears twice), for a musttail call its rules."""
    n = len(c.diagnostics)
    verify_intrinsic_call(c, call)
    if len(c.diagnostics) == n or call.opcode == "callbr":
        return
    from llvmpy_mid.ir.verifier import call_rules, musttail_rules

    call_rules.visit_instruction(c, call)
    if call.opcode == "invoke":
        if not call_rules.is_eh_pad_block(call._operands[-2].value):
            c.fail("The unwind destination does not have an exception handling instruction!", call)
            return
        call_rules.visit_terminator(c, call)
    elif call.is_must_tail_call:  # type: ignore[attr-defined]
        for message, items in musttail_rules.must_tail_problems(c, call):
            c.fail(message, *items)


INSTRUCTION_RULES: RuleTable = {
    "call": _intrinsic_call_rules,
    "invoke": _intrinsic_call_rules,
    "callbr": _intrinsic_call_rules,
}

__all__ = [
    "INSTRUCTION_RULES",
    "frame_escape_info",
    "verify_deoptimize_calling_convs",
    "verify_frame_recover_indices",
    "verify_intrinsic_call",
]
