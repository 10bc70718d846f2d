"""Terminators and calls in ``.ll`` text, and the table of every opcode.

What: :class:`ControlFlowParser` adds the handlers of the EH pads
(``landingpad``, ``catchpad``, ``cleanuppad``), ``ret``, ``br``,
``switch``, ``indirectbr``, ``resume``, ``unreachable``, the funclet
terminators (``cleanupret``, ``catchret``, ``catchswitch``) and the calls
(``call`` with ``tail``/``musttail``/``notail``, ``invoke``, ``callbr``),
and holds ``_OPCODES``, the dict from opcode token to handler through which
the block loop dispatches every instruction.

How calls are read, as LLVM 19's parser reads them: fast-math flags,
calling convention, return attributes, ``addrspace``, then the return type
or an explicit function type (``call i32 (ptr, ...) @f``); the callee is
resolved after the arguments, operand bundles and function attributes (so
the function type can be built from the argument types when only the
return type was written); ``asm ...`` callees become
:class:`~llvmpy_mid.ir.inline_asm.InlineAsm`; ``#N`` attribute groups are
recorded and merged when the module is complete. Argument count and types
are checked with LLVM's messages.

Not done here: the other instructions (:mod:`~llvmpy_mid.asm.parse_instructions`).
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.asm.lexer import decimal_value, is_digits
from llvmpy_mid.asm.parse_instructions import _METADATA, _TYPE_SUFFIX, _VOID, InstructionParser
from llvmpy_mid.ir import calling_conv as cc_table
from llvmpy_mid.ir.attributes import Attribute, AttributeList, AttributeSet
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.inline_asm import AsmDialect, InlineAsm
from llvmpy_mid.ir.inline_asm import verify as verify_inline_asm
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BINARY_OPCODE_CLASSES
from llvmpy_mid.ir.instructions.calls import CallInst, OperandBundle
from llvmpy_mid.ir.instructions.casts import CAST_OPCODE_CLASSES
from llvmpy_mid.ir.instructions.eh import (
    CatchPadInst,
    CatchReturnInst,
    CatchSwitchInst,
    CleanupPadInst,
    CleanupReturnInst,
    LandingPadInst,
)
from llvmpy_mid.ir.instructions.flags import TailCallKind, type_supports_fast_math_flags
from llvmpy_mid.ir.instructions.terminators import (
    BranchInst,
    CallBrInst,
    IndirectBrInst,
    InvokeInst,
    ResumeInst,
    ReturnInst,
    SwitchInst,
    UnreachableInst,
)
from llvmpy_mid.ir.types import FunctionType, IntegerType, Type, TypeID
from llvmpy_mid.ir.value import Value

_LABEL = TypeID.LABEL
_OLD_DEBUG_INTRINSICS = frozenset(
    ("@llvm.dbg.value", "@llvm.dbg.declare", "@llvm.dbg.assign", "@llvm.dbg.label", "@llvm.dbg.addr")
)


class ControlFlowParser(InstructionParser):
    """Terminators and calls."""

    __slots__ = ()

    def parse_calling_conv(self) -> int:
        toks = self.toks
        tok = toks[self.p]
        if tok == "cc":
            self.p += 1
            return self.parse_uint32("expected integer")
        cc = cc_table.KEYWORDS.get(tok)
        if cc is None:
            # opt prints conventions without a keyword as ``ccN`` and reads them back.
            if len(tok) > 2 and tok.startswith("cc") and tok[2:].isascii() and is_digits(tok[2:]):
                value = decimal_value(tok[2:])
                if value >= 1 << 32:
                    self.fail("invalid calling convention")
                self.p += 1
                return value
            return 0
        self.p += 1
        return cc

    # --- EH pads ---------------------------------------------------------------------------------------------
    def inst_landingpad(self, at: int) -> Instruction:
        toks = self.toks
        self.p = at + 1
        ty = self.parse_type()
        cleanup = self.eat("cleanup")
        clauses: list[Constant] = []
        while True:
            tok = toks[self.p]
            if tok != "catch" and tok != "filter":
                break
            self.p += 1
            c_at = self.p
            c = self.parse_type_and_value()
            if not isinstance(c, Constant):
                self.fail("clause argument must be a constant", c_at)
            if tok == "catch" and c.type.type_id is TypeID.ARRAY:
                self.fail("'catch' clause has an invalid type", c_at)
            if tok == "filter" and c.type.type_id is not TypeID.ARRAY:
                self.fail("'filter' clause has an invalid type", c_at)
            clauses.append(c)
        return LandingPadInst(ty, clauses, cleanup=cleanup)

    def parse_typed_values_until(self, close: str, comma_msg: str) -> list[Value]:
        """``<ty> <value>`` (or ``metadata <md>``) items separated by commas, up to and
        past the token ``close``."""
        toks = self.toks
        out: list[Value] = []
        while toks[self.p] != close:
            if out:
                self.expect_comma(comma_msg)
            ty = self.parse_type()
            if ty.type_id is _METADATA:
                out.append(self.parse_metadata_as_value())
            else:
                out.append(self.parse_value(ty))
        self.p += 1
        return out

    def parse_pad_args(self) -> list[Value]:
        self.expect("[", "expected '[' in catchpad/cleanuppad")
        return self.parse_typed_values_until("]", "expected ',' in argument list")

    def parse_pad_ref(self, where: str) -> Value:
        """The token operand after ``within``/``from``: ``none`` or a local."""
        tok = self.toks[self.p]
        if tok == "none":
            self.p += 1
            return self.parse_value_none()
        if tok[:1] != "%":
            self.fail("expected scope value for %s" % where)
        return self.parse_value(self.ctx.token)

    def parse_value_none(self) -> Value:
        from llvmpy_mid.ir.constants import ConstantTokenNone

        return ConstantTokenNone.get(self.ctx.token)

    def inst_catchpad(self, at: int) -> Instruction:
        self.p = at + 1
        self.expect("within", "expected 'within' after catchpad")
        tok = self.toks[self.p]
        if tok[:1] != "%":
            self.fail("expected scope value for catchpad")
        pad = self.parse_value(self.ctx.token)
        args = self.parse_pad_args()
        return CatchPadInst(pad, args)

    def inst_cleanuppad(self, at: int) -> Instruction:
        self.p = at + 1
        self.expect("within", "expected 'within' after cleanuppad")
        pad = self.parse_pad_ref("cleanuppad")
        args = self.parse_pad_args()
        return CleanupPadInst(pad, args)

    # --- terminators ----------------------------------------------------------------------------------------
    def inst_ret(self, at: int) -> Instruction:
        self.p = at + 1
        fs = self.fs
        assert fs is not None
        ret_ty = fs.fn.return_type
        ty_at = self.p
        ty = self.parse_type(allow_void=True)
        if ty.type_id is _VOID:
            if ret_ty.type_id is not _VOID:
                self.fail("value doesn't match function result type '%s'" % ret_ty, ty_at)
            return ReturnInst(self.ctx)
        value = self.parse_value(ty)
        if ty is not ret_ty:
            self.fail("value doesn't match function result type '%s'" % ret_ty, ty_at)
        return ReturnInst(self.ctx, value)

    def inst_br(self, at: int) -> Instruction:
        toks = self.toks
        self.p = at + 1
        if toks[self.p] == "label":
            return BranchInst(self.parse_label_ref())
        cond_at = self.p
        cond = self.parse_type_and_value()
        if cond.type is not self.ctx.i1:
            self.fail("branch condition must have 'i1' type", cond_at)
        self.expect_comma("expected ',' after branch condition")
        t = self.parse_label_ref()
        self.expect_comma("expected ',' after true destination")
        f = self.parse_label_ref()
        return BranchInst(t, f, cond)

    def inst_switch(self, at: int) -> Instruction:
        toks = self.toks
        self.p = at + 1
        cond_at = self.p
        cond = self.parse_type_and_value()
        self.expect_comma("expected ',' after switch condition")
        default = self.parse_label_ref()
        self.expect("[", "expected '[' with switch table")
        if not isinstance(cond.type, IntegerType):
            self.fail("switch condition must have integer type", cond_at)
        cases: list[tuple[ConstantInt, BasicBlock]] = []
        seen: set[int] = set()
        while toks[self.p] != "]":
            c_at = self.p
            c = self.parse_type_and_value()
            if not isinstance(c, ConstantInt):
                self.fail("case value is not a constant integer", c_at)
            if c.value in seen:
                self.fail("duplicate case value in switch", c_at)
            seen.add(c.value)
            self.expect_comma("expected ',' after case value")
            cases.append((c, self.parse_label_ref()))
        self.p += 1
        return SwitchInst(cond, default, cases, len(cases))

    def inst_indirectbr(self, at: int) -> Instruction:
        toks = self.toks
        self.p = at + 1
        addr_at = self.p
        addr = self.parse_type_and_value()
        self.expect_comma("expected ',' after indirectbr address")
        self.expect("[", "expected '[' with indirectbr")
        if addr.type.type_id is not TypeID.POINTER:
            self.fail("indirectbr address must have pointer type", addr_at)
        dests: list[BasicBlock] = []
        if toks[self.p] != "]":
            while True:
                dests.append(self.parse_label_ref())
                if not self.eat(","):
                    break
        self.expect("]", "expected ']' at end of block list")
        return IndirectBrInst(addr, dests, len(dests))

    def inst_resume(self, at: int) -> Instruction:
        self.p = at + 1
        return ResumeInst(self.parse_type_and_value())

    def inst_unreachable(self, at: int) -> Instruction:
        self.p = at + 1
        return UnreachableInst(self.ctx)

    def inst_cleanupret(self, at: int) -> Instruction:
        toks = self.toks
        self.p = at + 1
        self.expect("from", "expected 'from' after cleanupret")
        pad = self.parse_value(self.ctx.token)
        self.expect("unwind", "expected 'unwind' in cleanupret")
        if toks[self.p] == "to":
            self.p += 1
            self.expect("caller", "expected 'caller' in cleanupret")
            return CleanupReturnInst(pad)
        return CleanupReturnInst(pad, self.parse_label_ref())

    def inst_catchret(self, at: int) -> Instruction:
        self.p = at + 1
        self.expect("from", "expected 'from' after catchret")
        pad = self.parse_value(self.ctx.token)
        self.expect("to", "expected 'to' in catchret")
        return CatchReturnInst(pad, self.parse_label_ref())

    def inst_catchswitch(self, at: int) -> Instruction:
        toks = self.toks
        self.p = at + 1
        self.expect("within", "expected 'within' after catchswitch")
        pad = self.parse_pad_ref("catchswitch")
        self.expect("[", "expected '[' with catchswitch labels")
        handlers: list[BasicBlock] = []
        while True:
            handlers.append(self.parse_label_ref())
            if not self.eat(","):
                break
        self.expect("]", "expected ']' after catchswitch labels")
        self.expect("unwind", "expected 'unwind' after catchswitch scope")
        unwind: BasicBlock | None = None
        if toks[self.p] == "to":
            self.p += 1
            self.expect("caller", "expected 'caller' in catchswitch")
        else:
            unwind = self.parse_label_ref()
        return CatchSwitchInst(pad, unwind, handlers, num_handlers=len(handlers))

    # --- calls ------------------------------------------------------------------------------------------------
    def inst_tail_call(self, at: int) -> Instruction:
        kind = {"tail": TailCallKind.TAIL, "musttail": TailCallKind.MUSTTAIL, "notail": TailCallKind.NOTAIL}[
            self.toks[at]
        ]
        if self.toks[at + 1] != "call":
            self.p = at + 1
            self.fail("expected 'call' after '%s'" % self.toks[at])
        return self.parse_call(at + 1, kind)

    def inst_call(self, at: int) -> Instruction:
        return self.parse_call(at, TailCallKind.NONE)

    def parse_call_prefix(self) -> tuple[int, list[Attribute], int, int, Type]:
        """cc, return attributes, addrspace, the return or function type."""
        toks = self.toks
        p = self.p
        ty = self.value_words.get(toks[p])
        if ty is None and toks[p] == "void":
            ty = self.ctx.void
        if ty is not None and toks[p + 1][:1] in ("@", "%"):
            # The common ``call T @f(...)``: no calling convention, attributes or addrspace.
            self.p = p + 1
            return 0, [], self.data_layout.program_addr_space, p, ty
        cc = self.parse_calling_conv()
        ret_attrs = self.parse_param_attrs(False)
        space = self.parse_optional_addrspace(self.data_layout.program_addr_space)
        ty_at = self.p
        ty = self.parse_type(allow_void=True)
        return cc, ret_attrs, space, ty_at, ty

    def parse_call_args(self, musttail: bool = False) -> tuple[list[Value], list[list[Attribute]], list[int]]:
        """``(T v, ...)``; a ``...`` only ends the arguments of a musttail call in a varargs
        function, which must have it (LLVM's parseParameterList)."""
        toks = self.toks
        self.expect("(", "expected '(' in call")
        args: list[Value] = []
        attrs: list[list[Attribute]] = []
        locs: list[int] = []
        in_varargs = musttail and self.fs is not None and self.fs.fn.function_type.is_vararg
        while toks[self.p] != ")":
            if args:
                self.expect_comma("expected ',' in argument list")
            if toks[self.p] == "...":
                if not musttail:
                    self.fail("unexpected ellipsis in argument list for non-musttail call")
                if not in_varargs:
                    self.fail("unexpected ellipsis in argument list for musttail call in non-varargs function")
                self.p += 1
                self.expect(")", "expected ')' at end of argument list")
                return args, attrs, locs
            arg_at = self.p
            ty = self.value_words.get(toks[arg_at])
            if ty is not None and toks[arg_at + 1] not in _TYPE_SUFFIX:
                self.p = arg_at + 1
            else:
                ty = self.parse_type()
            if ty.type_id is _METADATA:
                a: list[Attribute] = []
                v = self.parse_metadata_as_value()
            else:
                c = toks[self.p][:1]
                a = self.parse_param_attrs(True) if c != "%" and c != "@" else []
                v = self.operand(ty)
            args.append(v)
            attrs.append(a)
            locs.append(arg_at)
        if in_varargs:
            self.fail("expected '...' at end of argument list for musttail call in varargs function")
        self.p += 1
        return args, attrs, locs

    def parse_bundles(self) -> list[OperandBundle]:
        toks = self.toks
        if toks[self.p] != "[":
            return []
        begin = self.p
        self.p += 1
        bundles: list[OperandBundle] = []
        while toks[self.p] != "]":
            if bundles:
                self.expect_comma("expected ',' in input list")
            tag = self.parse_string()
            self.expect("(", "expected '(' in operand bundle")
            inputs = self.parse_typed_values_until(")", "expected ',' in input list")
            bundles.append(OperandBundle(tag, tuple(inputs)))
        if not bundles:
            self.fail("operand bundle set must not be empty", begin)
        self.p += 1
        return bundles

    def resolve_call_type(self, ty: Type, ty_at: int, args: list[Value]) -> FunctionType:
        if isinstance(ty, FunctionType):
            return ty
        if ty.type_id in (TypeID.FUNCTION, _LABEL, _METADATA):
            self.fail("Invalid result type for LLVM function", ty_at)
        return self.ctx.function_type(ty, [a.type for a in args], False)

    def check_call_args(self, fty: FunctionType, args: list[Value], locs: list[int], call_at: int) -> None:
        params = fty.params
        n = len(params)
        for i, arg in enumerate(args):
            if i >= n:
                if not fty.is_vararg:
                    self.fail("too many arguments specified", locs[i])
                continue
            if arg.type is not params[i]:
                self.fail("argument is not of expected type '%s'" % params[i], locs[i])
        if len(args) < n:
            self.fail("not enough parameters specified for call", call_at)

    def resolve_callee(self, callee_at: int, fty: FunctionType, space: int) -> Value:
        """The callee token at ``callee_at`` as a value (inline asm included)."""
        tok = self.toks[callee_at]
        gv = self.globals.get(tok)
        if gv is not None and gv.type.type_id is TypeID.POINTER and gv.address_space == space:
            return gv
        saved = self.p
        self.p = callee_at
        tok = self.toks[callee_at]
        if tok == "asm":
            value: Value = self.parse_inline_asm(fty)
        else:
            value = self.parse_value(self.ctx.pointer_type(space))
        self.p = saved
        return value

    def skip_callee(self) -> int:
        """Step over the callee (a name, ``asm ...`` or a constant) and return where it began."""
        at = self.p
        tok = self.toks[at]
        c = tok[:1]
        if c == "%" or c == "@":
            self.p = at + 1
            return at
        if tok == "asm":
            self.p += 1
            while self.toks[self.p] in ("sideeffect", "alignstack", "inteldialect", "unwind"):
                self.p += 1
            self.parse_string()
            self.expect_comma("expected comma in inline asm expression")
            self.parse_string()
            return at
        # A constant callee (a constant expression, null, undef...): parse it now.
        saved_fs = self.fs
        self.parse_value(self.ctx.pointer_type(self.data_layout.program_addr_space))
        self.fs = saved_fs
        return at

    def parse_inline_asm(self, fty: FunctionType) -> InlineAsm:
        toks = self.toks
        at = self.p
        self.p += 1
        side = align = intel = unwind = False
        while True:
            tok = toks[self.p]
            if tok == "sideeffect":
                side = True
            elif tok == "alignstack":
                align = True
            elif tok == "inteldialect":
                intel = True
            elif tok == "unwind":
                unwind = True
            else:
                break
            self.p += 1
        asm = self.parse_string("expected string constant")
        self.expect_comma("expected comma in inline asm expression")
        constraints = self.parse_string("expected constraint string")
        problem = verify_inline_asm(fty, constraints)
        if problem is not None:
            self.fail(problem, at)
        return InlineAsm.get(fty, asm, constraints, side, align, AsmDialect.INTEL if intel else AsmDialect.ATT, unwind)

    def parse_call(self, at: int, tail: TailCallKind) -> Instruction:
        self.p = at + 1
        fmf = self.parse_fmf()
        cc, ret_attrs, space, ty_at, ty = self.parse_call_prefix()
        callee_at = self.skip_callee()
        args, arg_attrs, locs = self.parse_call_args(tail is TailCallKind.MUSTTAIL)
        nxt = self.toks[self.p]
        if nxt == "," or nxt[:1] == "%":
            fn_attrs: list[Attribute] = []
            groups: list[int] = []
            bundles: list[OperandBundle] = []
        else:
            fn_attrs, groups = self.parse_fn_attrs()
            bundles = self.parse_bundles()
        fty = self.resolve_call_type(ty, ty_at, args)
        callee = self.resolve_callee(callee_at, fty, space)
        self.check_call_args(fty, args, locs, at + 1)
        attrs = _attribute_list(fn_attrs, ret_attrs, arg_attrs)
        if self.toks[callee_at] in _OLD_DEBUG_INTRINSICS:
            if self.seen_records:
                self.fail("llvm.dbg intrinsic should not appear in a module using non-intrinsic debug info", at + 1)
            self.seen_debug_intrinsics = True
        inst = CallInst(fty, callee, args, bundles=bundles, tail_call_kind=tail, calling_conv=cc, attributes=attrs)
        if fmf:
            if not type_supports_fast_math_flags(inst.type):
                self.fail("fast-math-flags specified for call without floating-point scalar or vector return type", at + 1)
            inst.fast_math_flags = fmf
        if groups:
            self.attr_group_refs.append((inst, None, tuple(groups), at))
        return inst

    def inst_invoke(self, at: int) -> Instruction:
        self.p = at + 1
        cc, ret_attrs, space, ty_at, ty = self.parse_call_prefix()
        callee_at = self.skip_callee()
        args, arg_attrs, locs = self.parse_call_args()
        fn_attrs, groups = self.parse_fn_attrs()
        bundles = self.parse_bundles()
        self.expect("to", "expected 'to' in invoke")
        normal = self.parse_label_ref()
        self.expect("unwind", "expected 'unwind' in invoke")
        unwind = self.parse_label_ref()
        fty = self.resolve_call_type(ty, ty_at, args)
        callee = self.resolve_callee(callee_at, fty, space)
        self.check_call_args(fty, args, locs, at + 1)
        attrs = _attribute_list(fn_attrs, ret_attrs, arg_attrs)
        inst = InvokeInst(fty, callee, normal, unwind, args, bundles=bundles, calling_conv=cc, attributes=attrs)
        if groups:
            self.attr_group_refs.append((inst, None, tuple(groups), at))
        return inst

    def inst_callbr(self, at: int) -> Instruction:
        toks = self.toks
        self.p = at + 1
        cc, ret_attrs, space, ty_at, ty = self.parse_call_prefix()
        callee_at = self.skip_callee()
        args, arg_attrs, locs = self.parse_call_args()
        fn_attrs, groups = self.parse_fn_attrs()
        bundles = self.parse_bundles()
        self.expect("to", "expected 'to' in callbr")
        default = self.parse_label_ref()
        self.expect("[", "expected '[' in callbr")
        indirect: list[BasicBlock] = []
        if toks[self.p] != "]":
            while True:
                indirect.append(self.parse_label_ref())
                if not self.eat(","):
                    break
        self.expect("]", "expected ']' at end of block list")
        fty = self.resolve_call_type(ty, ty_at, args)
        callee = self.resolve_callee(callee_at, fty, space)
        self.check_call_args(fty, args, locs, at + 1)
        attrs = _attribute_list(fn_attrs, ret_attrs, arg_attrs)
        inst = CallBrInst(fty, callee, default, indirect, args, bundles=bundles, calling_conv=cc, attributes=attrs)
        if groups:
            self.attr_group_refs.append((inst, None, tuple(groups), at))
        return inst




def _attribute_list(fn: list[Attribute], ret: list[Attribute], params: list[list[Attribute]]) -> AttributeList:
    if not fn and not ret:
        for a in params:
            if a:
                break
        else:
            return AttributeList.EMPTY
    empty = AttributeSet.EMPTY
    return AttributeList(
        AttributeSet(fn) if fn else empty,
        AttributeSet(ret) if ret else empty,
        [AttributeSet(a) if a else empty for a in params],
    )


_Handler = Callable[[ControlFlowParser, int], Instruction]

_OPCODES: dict[str, _Handler] = {
    "fneg": ControlFlowParser.inst_fneg,
    "icmp": ControlFlowParser.inst_icmp,
    "fcmp": ControlFlowParser.inst_fcmp,
    "select": ControlFlowParser.inst_select,
    "freeze": ControlFlowParser.inst_freeze,
    "va_arg": ControlFlowParser.inst_va_arg,
    "extractelement": ControlFlowParser.inst_extractelement,
    "insertelement": ControlFlowParser.inst_insertelement,
    "shufflevector": ControlFlowParser.inst_shufflevector,
    "extractvalue": ControlFlowParser.inst_extractvalue,
    "insertvalue": ControlFlowParser.inst_insertvalue,
    "alloca": ControlFlowParser.inst_alloca,
    "load": ControlFlowParser.inst_load,
    "store": ControlFlowParser.inst_store,
    "cmpxchg": ControlFlowParser.inst_cmpxchg,
    "atomicrmw": ControlFlowParser.inst_atomicrmw,
    "fence": ControlFlowParser.inst_fence,
    "getelementptr": ControlFlowParser.inst_gep,
    "phi": ControlFlowParser.inst_phi,
    "landingpad": ControlFlowParser.inst_landingpad,
    "catchpad": ControlFlowParser.inst_catchpad,
    "cleanuppad": ControlFlowParser.inst_cleanuppad,
    "ret": ControlFlowParser.inst_ret,
    "br": ControlFlowParser.inst_br,
    "switch": ControlFlowParser.inst_switch,
    "indirectbr": ControlFlowParser.inst_indirectbr,
    "resume": ControlFlowParser.inst_resume,
    "unreachable": ControlFlowParser.inst_unreachable,
    "cleanupret": ControlFlowParser.inst_cleanupret,
    "catchret": ControlFlowParser.inst_catchret,
    "catchswitch": ControlFlowParser.inst_catchswitch,
    "call": ControlFlowParser.inst_call,
    "tail": ControlFlowParser.inst_tail_call,
    "musttail": ControlFlowParser.inst_tail_call,
    "notail": ControlFlowParser.inst_tail_call,
    "invoke": ControlFlowParser.inst_invoke,
    "callbr": ControlFlowParser.inst_callbr,
}
for _op in BINARY_OPCODE_CLASSES:
    _OPCODES[_op] = ControlFlowParser.inst_binary
for _op in CAST_OPCODE_CLASSES:
    _OPCODES[_op] = ControlFlowParser.inst_cast
