"""Functions in ``.ll`` text: ``declare``/``define`` headers and bodies.

What: :class:`FunctionParser` reads a function header with every part LLVM
19 allows (linkage and visibility words, calling convention, return
attributes, parameters with attributes and names, ``unnamed_addr``,
``addrspace``, function attributes and ``#N`` groups, ``section``,
``partition``, ``comdat``, ``align``, ``gc``, ``prefix``, ``prologue``,
``personality``, and the ``!kind !N`` attachments a ``declare`` puts before
its header and a ``define`` after it), then the body block by block: labels
(named, numbered, or implicit for an unlabelled entry block), debug records,
``%name =`` results, the instruction (dispatched through the opcode table of
:mod:`~llvmpy_mid.asm.parse_control`), its ``, !kind !N`` attachments, and
``uselistorder`` directives at the end of the body.

How LLVM's parser-side behaviour is reproduced: a value used before its
definition is a placeholder that the definition replaces (RAUW), so use-lists
-- and the ``; preds =`` order printed from them -- come out as in LLVM; a
block referenced before its label is a real block appended to the function
and moved to the end when its label is reached; numbered values may skip
numbers but not go backwards; a ``blockaddress`` of the function taken
before its body was read is resolved when the body is complete.

Not done here: the module-level loop and the end-of-module work (``parser.py``).
"""

from __future__ import annotations

from llvmpy_mid.asm.lexer import atoull, is_digits
from llvmpy_mid.asm.parse_base import NAME_TOO_LONG, name_too_long
from llvmpy_mid.asm.parse_base import FunctionState
from llvmpy_mid.asm.parse_control import _OPCODES
from llvmpy_mid.asm.parse_globals import _DEFINE_ONLY, GlobalParser
from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.attributes import Attribute, AttributeList, AttributeSet
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import BlockAddress
from llvmpy_mid.ir.debug_records import DbgRecord
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.types import Type, TypeID
from llvmpy_mid.ir.value import Value


_TBAA = 1
"""The fixed metadata kind id of ``!tbaa``."""


def _unable_to_create(key: str) -> str:
    """LLVM's message for a label whose name or number already names a value that is not a block."""
    body = key[1:]
    if is_digits(body):
        return "unable to create block numbered '%s'" % body
    return "unable to create block named '%s'" % (body[1:] if body[:1] == '"' else body)


_UNNUMBERED = 0xFFFFFFFF
"""The slot number LLVM's parser reads as "no number" (its -1): ``%4294967295 = ...`` takes the
next number, as an unnamed value does."""


class FunctionParser(GlobalParser):
    """Function headers and bodies."""

    __slots__ = ()

    # --- functions -----------------------------------------------------------------------------------------
    def parse_define(self) -> None:
        self.p += 1
        fn, key, next_number = self.parse_function_header(True)
        toks = self.toks
        while toks[self.p][:1] == "!" and len(toks[self.p]) > 1:
            self.parse_global_attachment(fn)
        if self.toks[self.p] != "{":
            self.fail("expected '{' in function body")
        self.parse_function_body(fn, key, next_number)

    def parse_declare(self) -> None:
        self.p += 1
        toks = self.toks
        attachments: list[tuple[int, MDNode, int]] = []
        while toks[self.p][:1] == "!" and len(toks[self.p]) > 1:
            attachments.append(self.parse_attachment())
        fn, key, _ = self.parse_function_header(False)
        for kid, node, number in attachments:
            md = fn._global_md
            if md is None:
                md = fn._global_md = []
            md.append((kid, node))
            if number >= 0 and node._users is not None:
                self.md_fixups.append((fn, len(md) - 1, number))
        if key in self.fn_block_addresses:
            self.fail("cannot take blockaddress inside a declaration", self.fn_block_addresses[key][0][2])

    def parse_function_header(self, is_define: bool) -> tuple[Function, str, int]:
        toks = self.toks
        info = self.parse_linkage()
        linkage = info.linkage
        if linkage is Linkage.EXTERN_WEAK and is_define:
            self.fail("invalid linkage for function definition", info.at)
        if linkage in _DEFINE_ONLY and not is_define:
            self.fail("invalid linkage for function declaration", info.at)
        if linkage is Linkage.APPENDING or linkage is Linkage.COMMON:
            self.fail("invalid function linkage type", info.at)
        self.check_linkage_rules(info, info.at)
        cc = self.parse_calling_conv()
        ret_attrs = self.parse_param_attrs(False)
        ret_at = self.p
        ret = self.parse_type(allow_void=True)
        if ret.type_id in (TypeID.FUNCTION, TypeID.LABEL, TypeID.METADATA):
            self.fail("invalid function return type", ret_at)
        name_at = self.p
        name_tok = toks[name_at]
        if name_tok[:1] != "@" or len(name_tok) < 2:
            self.fail("expected function name")
        self.p += 1
        if toks[self.p] != "(":
            self.fail("expected '(' in function argument list")
        self.p += 1
        params: list[Type] = []
        param_attrs: list[list[Attribute]] = []
        arg_names: list[tuple[str, str, int]] = []
        vararg = False
        next_number = 0
        if toks[self.p] != ")":
            while True:
                if toks[self.p] == "...":
                    self.p += 1
                    vararg = True
                    break
                ty_at = self.p
                ty = self.parse_type()
                if ty.type_id is TypeID.VOID:
                    self.fail("argument can not have void type", ty_at)
                if ty.type_id is TypeID.FUNCTION:
                    # LLVM takes any first-class type here, label included.
                    self.fail("invalid type for function argument", ty_at)
                attrs = self.parse_param_attrs(True)
                arg_tok = toks[self.p]
                if arg_tok[:1] == "%":
                    body = arg_tok[1:]
                    if is_digits(body):
                        number = int(body)
                        if number < next_number:
                            self.fail("argument expected to be numbered '%%%d' or greater" % next_number, ty_at)
                        next_number = number + 1
                        arg_names.append(("", arg_tok, ty_at))
                    else:
                        arg_names.append((self.name_of(arg_tok, self.p), self.local_key(arg_tok), ty_at))
                    self.p += 1
                else:
                    arg_names.append(("", "%%%d" % next_number, self.p))
                    next_number += 1
                params.append(ty)
                param_attrs.append(attrs)
                if toks[self.p] != ",":
                    break
                self.p += 1
        self.expect(")", "expected ')' at end of argument list")
        unnamed = self.parse_unnamed_addr()
        space = self.parse_optional_addrspace(self.data_layout.program_addr_space)
        fn_attrs, groups = self.parse_fn_attrs()
        section = partition = gc = ""
        if self.eat("section"):
            section = self.parse_string()
        if self.eat("partition"):
            partition = self.parse_string()
        key, name = self.global_key_and_name(name_tok, name_at, "function")
        comdat = self.parse_optional_comdat(name)
        alignment: int | None = None
        if toks[self.p] == "align":
            self.p += 1
            alignment = self.parse_alignment_value()
        if self.eat("gc"):
            gc = self.parse_string()
        prefix = prologue = personality = None
        if self.eat("prefix"):
            prefix = self.parse_type_and_constant()
        if self.eat("prologue"):
            prologue = self.parse_type_and_constant()
        if self.eat("personality"):
            personality = self.parse_type_and_constant()
        for a in fn_attrs:
            if a.kind is AttrKind.BUILTIN:
                self.fail("'builtin' attribute not valid on function")
        kept: list[Attribute] = []
        for a in fn_attrs:
            if a.kind is AttrKind.ALIGNMENT:
                alignment = a.int_value
            else:
                kept.append(a)
        fn_attrs = kept
        if param_attrs and any(a.kind is AttrKind.STRUCT_RET for a in param_attrs[0]) and ret.type_id is not TypeID.VOID:
            self.fail("functions with 'sret' argument must return void", ret_at)
        fty = self.ctx.function_type(ret, params, vararg)
        fwd_at = self.fwd_globals.get(key, (None, name_at))[1]
        placeholder = self.take_forward_global(key)
        if placeholder is not None:
            if placeholder.type is not self.ctx.pointer_type(space):
                self.fail(
                    "invalid forward reference to function '%s' with wrong type: expected '%s' but was '%s'"
                    % (name, self.ctx.pointer_type(space), placeholder.type),
                    fwd_at if name else name_at,
                )
        elif key in self.globals:
            if isinstance(self.globals[key], Function):
                self.fail("invalid redefinition of function '%s'" % (name or key[1:]), name_at)
            self.fail("redefinition of function '@%s'" % (name or key[1:]), name_at)
        fn = Function(fty, "", Linkage.EXTERNAL, None, space)
        fn._name = name
        fn.intrinsic_id = name.startswith("llvm.")
        self.module.functions.append(fn)
        self.globals[key] = fn
        self.apply_linkage(fn, info)
        fn.calling_conv = cc
        fn.attributes = _function_attributes(fn_attrs, ret_attrs, param_attrs)
        fn.unnamed_addr = unnamed
        if alignment is not None:
            fn.alignment = alignment
        fn.section = section
        fn.partition = partition
        if comdat is not None:
            fn.comdat = comdat
        if personality is not None:
            fn.personality = personality
        if gc:
            fn.gc = gc
        if prefix is not None:
            fn.prefix_data = prefix
        if prologue is not None:
            fn.prologue_data = prologue
        if groups:
            self.attr_group_refs.append((fn, None, tuple(groups), name_at))
        for arg, (arg_name, _, arg_at) in zip(fn.args, arg_names):
            if arg_name:
                if fn.symbol_table.lookup(arg_name) is not None or name_too_long(arg_name):
                    self.fail("redefinition of argument '%%%s'" % arg_name, arg_at)
                arg.set_name(arg_name)
        if placeholder is not None:
            placeholder._replace_all_uses(fn)
        self.pending_args = (fn, arg_names)
        return fn, key, next_number

    def parse_function_body(self, fn: Function, key: str, next_number: int) -> None:
        toks = self.toks
        fs = FunctionState(fn, next_number)
        for arg, (_, arg_key, _) in zip(fn.args, self.pending_args[1]):
            fs.values[arg_key] = arg
        self.fs = fs
        self.values = fs.values
        self.p += 1
        tok = toks[self.p]
        if tok == "}" or tok == "uselistorder":
            self.fail("function body requires at least one basic block")
        while True:
            tok = toks[self.p]
            if tok == "}" or tok == "uselistorder":
                break
            if not tok:
                self.fail("found end of file when expecting more instructions")
            self.parse_basic_block(fs)
        while toks[self.p] == "uselistorder":
            self.parse_uselistorder()
        if toks[self.p] != "}":
            self.fail("expected uselistorder directive")
        self.p += 1
        self.finish_function(fs, key)
        self.fs = None
        self.values = {}

    def finish_function(self, fs: FunctionState, key: str) -> None:
        if fs.fwd:
            named = sorted(k for k in fs.fwd if not is_digits(k[1:]))
            numbered = sorted((int(k[1:]), k) for k in fs.fwd if is_digits(k[1:]))
            first = named[0] if named else numbered[0][1]
            self.fail("use of undefined value '%s'" % first, fs.fwd_index[first])
        refs = self.fn_block_addresses.pop(key, None)
        if refs:
            fn = fs.fn
            for ph, label_key, at in refs:
                bb = fs.values.get(label_key)
                if not isinstance(bb, BasicBlock):
                    self.fail("referenced value is not a basic block", at)
                ba = BlockAddress.get(fn, bb)
                if ba.type is not ph.type:
                    self.fail("'%s' defined with type '%s' but expected '%s'" % (label_key, ba.type, ph.type), at)
                ph._replace_all_uses(ba)

    # --- blocks -----------------------------------------------------------------------------------------------
    def define_block(self, fs: FunctionState, label: str | None, at: int, quoted: bool = False) -> BasicBlock:
        fn = fs.fn
        if label is None or (not quoted and is_digits(label)):  # "2": is a name, as in LLVM
            number = fs.next_number
            if label is not None:
                number = atoull(label) & 0xFFFFFFFF  # as LLVM's lexer reads ``N:``
                if number < fs.next_number:
                    self.fail("label expected to be numbered '%d' or greater" % fs.next_number, at)
                if number == _UNNUMBERED:
                    number = fs.next_number
            key = "%%%d" % number
            name = ""
            fs.next_number = number + 1
        else:
            name = label
            key = "%" + name if not is_digits(name) else '%"' + name
        bb = fs.fwd.pop(key, None)
        if bb is not None:
            fs.fwd_index.pop(key, None)
            if not isinstance(bb, BasicBlock):
                self.fail(_unable_to_create(key), at)
            if fn.blocks._last is not bb:
                fn.blocks.remove(bb)
                fn.blocks.append(bb)
        else:
            existing = fs.values.get(key)
            if existing is not None:
                if not isinstance(existing, BasicBlock):
                    self.fail(_unable_to_create(key), at)
                bb = existing
                if fn.blocks._last is not bb:
                    fn.blocks.remove(bb)
                    fn.blocks.append(bb)
            else:
                if name_too_long(name):
                    self.fail(NAME_TOO_LONG, at)
                bb = BasicBlock(self.ctx, name, parent=fn)
        fs.values[key] = bb
        return bb

    def parse_basic_block(self, fs: FunctionState) -> None:
        toks = self.toks
        at = self.p
        tok = toks[at]
        label: str | None = None
        quoted = False
        if tok[-1:] == ":" and len(tok) > 1 and tok[0] not in "%@!#":  # `$N:` is a label too
            if tok[0] == '"':
                from llvmpy_mid.asm.lexer import unescape

                label = unescape(tok[1:-2])
                quoted = True
            else:
                label = tok[:-1]
            self.p += 1
        bb = self.define_block(fs, label, at, quoted)
        values = fs.values
        fwd = fs.fwd
        void = self.ctx.void
        opcodes = _OPCODES
        append = bb._append_instruction
        records: list[DbgRecord] | None = None
        while True:
            at = self.p
            tok = toks[at]
            c = tok[:1]
            key: str | None = None
            if c == "%":
                if toks[at + 1] != "=":
                    self.p = at + 1
                    if is_digits(tok[1:]):
                        self.fail("expected '=' after instruction id")
                    self.fail("expected '=' after instruction name")
                key = tok if tok[1] != '"' else self.local_key(tok)
                op_at = at + 2
            elif c == "#":
                if tok[:5] != "#dbg_":
                    self.fail("expected instruction opcode")
                if records is None:
                    records = []
                records.append(self.parse_debug_record())
                continue
            else:
                op_at = at
            handler = opcodes.get(toks[op_at])
            if handler is None:
                self.p = op_at
                if not toks[op_at]:
                    self.fail("found end of file when expecting more instructions")
                self.fail("expected instruction opcode")
            try:
                inst = handler(self, op_at)
            except IRError as exc:
                self.fail(str(exc), op_at)
            if toks[self.p] == ",":
                self.parse_instruction_attachments(inst)
            if records is not None:
                for r in records:
                    inst.add_dbg_record(r)
                records = None
            ty = inst.type
            if ty is void:
                if key is not None:
                    self.fail("instructions returning void cannot have a name", at)
                append(inst)
            else:
                if key is None:
                    key = "%%%d" % fs.next_number
                    fs.next_number += 1
                elif is_digits(key[1]) and is_digits(key[1:]):
                    number = int(key[1:])
                    if number < fs.next_number:
                        self.fail("instruction expected to be numbered '%%%d' or greater" % fs.next_number, at)
                    if number == _UNNUMBERED:
                        number = fs.next_number
                        key = "%%%d" % number
                    fs.next_number = number + 1
                else:
                    if key in values or name_too_long(key[2:] if key[1] == '"' else key[1:]):
                        self.fail("multiple definition of local value named '%s'" % self.name_of(key), at)
                    inst._name = key[1:] if key[1] != '"' else key[2:]
                if fwd and key in fwd:
                    placeholder = fwd.pop(key)
                    append(inst)
                    del fs.fwd_index[key]
                    if placeholder.type is not ty:
                        self.fail("instruction forward referenced with type '%s'" % self.type_text(placeholder.type), at)
                    placeholder._replace_all_uses(inst)
                else:
                    append(inst)
                values[key] = inst
            if inst.is_terminator_class:
                return

    def parse_instruction_attachments(self, inst: Instruction) -> None:
        toks = self.toks
        p = self.p
        if toks[p + 1] == "!dbg" and toks[p + 3] != ",":
            # The commonest attachment, alone: ``, !dbg !N`` with !N already read.
            tok = toks[p + 2]
            node = self.md_numbered.get(int(tok[1:])) if is_digits(tok[1:]) and tok[:1] == "!" else None
            if node is not None and node._users is None:
                self.saw_debug_info = True
                md = inst._md
                if md is None:
                    inst._md = {0: node}
                else:
                    md[0] = node
                self.p = p + 3
                return
        while toks[self.p] == ",":
            nxt = toks[self.p + 1]
            if nxt[:1] != "!" or len(nxt) < 2 or is_digits(nxt[1]) or nxt[1] == '"':
                self.p += 1
                self.fail("expected metadata after comma")
            self.p += 1
            kid, node, number = self.parse_attachment()
            md = inst._md
            if md is None:
                inst._md = {kid: node}
            else:
                md[kid] = node
            if kid == _TBAA:
                self.tbaa_tagged.append(inst)
            if number >= 0 and node._users is not None:
                self.md_fixups.append((inst, kid, number))

    # --- uselistorder -----------------------------------------------------------------------------------------
    def parse_uselistorder(self) -> None:
        at = self.p
        self.p += 1
        value = self.parse_type_and_value()
        self.expect(",", "expected comma in uselistorder directive")
        indexes = self.parse_uselist_indexes()
        self.sort_use_list(value, indexes, at)

    def parse_uselistorder_bb(self) -> None:
        """``uselistorder_bb @f, %bb, { ... }``: read whole, then checked as LLVM does."""
        at = self.p
        self.p += 1
        toks = self.toks
        fn_at = self.p
        fn_tok = toks[fn_at]
        self.p += 1
        self.expect(",", "expected comma in uselistorder_bb directive")
        bb_at = self.p
        bb_tok = toks[bb_at]
        self.p += 1
        self.expect(",", "expected comma in uselistorder_bb directive")
        indexes = self.parse_uselist_indexes()
        if fn_tok[:1] != "@" or len(fn_tok) < 2:
            self.fail("expected function name in uselistorder_bb", fn_at)
        gv = self.globals.get(self.local_key(fn_tok))
        if gv is None:
            self.fail("invalid function forward reference in uselistorder_bb", fn_at)
        if not isinstance(gv, Function):
            self.fail("expected function name in uselistorder_bb", fn_at)
        if gv.is_declaration:
            self.fail("invalid declaration in uselistorder_bb", fn_at)
        if bb_tok[:1] != "%" or len(bb_tok) < 2:
            self.fail("expected basic block name in uselistorder_bb", bb_at)
        if is_digits(bb_tok[1:]):
            self.fail("invalid numeric label in uselistorder_bb", bb_at)
        bb = gv.symbol_table.lookup(self.name_of(bb_tok))
        if bb is None:
            self.fail("invalid basic block in uselistorder_bb", bb_at)
        if not isinstance(bb, BasicBlock):
            self.fail("expected basic block in uselistorder_bb", bb_at)
        self.sort_use_list(bb, indexes, at)

    def parse_uselist_indexes(self) -> list[int]:
        """``{ i, j, ... }``, checked as LLVM's parseUseListOrderIndexes (at the ``{``)."""
        at = self.p
        self.expect("{", "expected '{' here")
        if self.toks[self.p] == "}":
            self.fail("expected non-empty list of uselistorder indexes")
        out: list[int] = []
        while True:
            out.append(self.parse_uint32())
            if not self.eat(","):
                break
        self.expect("}", "expected '}' here")
        n = len(out)
        if n < 2:
            self.fail("expected >= 2 uselistorder indexes", at)
        # LLVM's test: the indexes sum (modulo 2**32) as 0..n-1 does and none reaches n.
        if (sum(out) - n * (n - 1) // 2) & 0xFFFFFFFF or max(out) >= n:
            self.fail("expected distinct uselistorder indexes in range [0, size)", at)
        if all(i == v for i, v in enumerate(out)):
            self.fail("expected uselistorder indexes to change the order", at)
        return out

    def sort_use_list(self, value: Value, indexes: list[int], at: int) -> None:
        uses = value.use_list()
        if not uses:
            self.fail("value has no uses", at)
        if len(uses) < 2:
            self.fail("value only has one use", at)
        if len(uses) != len(indexes):
            self.fail("wrong number of indexes, expected %d" % len(uses), at)
        order = sorted(range(len(uses)), key=lambda i: indexes[i])
        new = [uses[i] for i in order]
        prev = None
        for u in new:
            u._prev = prev
            if prev is None:
                value._use_head = u
            else:
                prev._next = u
            prev = u
        if prev is not None:
            prev._next = None


def _function_attributes(fn: list[Attribute], ret: list[Attribute], params: list[list[Attribute]]) -> AttributeList:
    empty = AttributeSet.EMPTY
    if not fn and not ret and not any(params):
        return AttributeList.EMPTY
    return AttributeList(
        AttributeSet(fn) if fn else empty,
        AttributeSet(ret) if ret else empty,
        [AttributeSet(a) if a else empty for a in params],
    )
