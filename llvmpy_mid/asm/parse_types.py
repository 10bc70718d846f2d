"""Types in ``.ll`` text: ``i32``, ``ptr addrspace(1)``, ``[4 x i8]``, ``<2 x float>``,
``{ i32, ptr }``, ``<{ i8 }>``, ``%struct.S``, ``target("x", i8, 1)``, function
types, and the legacy typed-pointer forms (``i32*``, ``%struct.S*``,
``i8 addrspace(1)*``), all read as LLVM 19 does (typed pointers become ``ptr``).

What: :class:`TypeParser` adds :meth:`~TypeParser.parse_type` and the
``%T = type ...`` definitions of identified structs (named or numbered,
opaque, packed, referenced before their definition) to the parser.

How: a dict from token to type resolves the primitive words (``i32``,
``float``...); the other forms are parsed by their first token. A reference
to an identified struct not yet defined creates it opaque; the definition
gives it its body; a struct still undefined at the end of the module stays
opaque, as in LLVM. ``%T = type i32`` (a name for a non-struct type) is
accepted as an alias.

Not done here: checks that need the data layout (sizes), which the
instructions and the verifier do.
"""

from __future__ import annotations

from typing import Any, cast

from llvmpy_mid.asm.lexer import atoull, is_digits
from llvmpy_mid.asm.parse_base import ParserBase
from llvmpy_mid.ir.attribute_kinds import find_attribute_kind
from llvmpy_mid.ir.type_queries import SCALAR_TYPE_IDS
from llvmpy_mid.ir.types import MAX_INT_BITS, FunctionType, StructType, Type, TypeID

_FP_WORDS = ("half", "bfloat", "float", "double", "x86_fp80", "fp128", "ppc_fp128")
_NOT_FIRST_CLASS = frozenset((TypeID.VOID, TypeID.FUNCTION, TypeID.LABEL, TypeID.METADATA))
_SUFFIXES = frozenset(("*", "(", "addrspace"))
# Frame kinds of parse_nested_types.
_ROOT_FRAME, _ARRAY_FRAME, _VECTOR_FRAME, _STRUCT_FRAME = "root", "array", "vector", "struct"
_BAD_ELEMENTS = frozenset((TypeID.VOID, TypeID.LABEL, TypeID.METADATA, TypeID.FUNCTION, TypeID.TOKEN, TypeID.X86_AMX))


class TypeParser(ParserBase):
    """Types and identified-struct definitions."""

    __slots__ = ()

    def init_type_words(self) -> None:
        ctx = self.ctx
        words = self.type_words
        for name in _FP_WORDS:
            words[name] = ctx.fp_type(name)
        words["void"] = ctx.void
        words["label"] = ctx.label
        words["metadata"] = ctx.metadata
        words["token"] = ctx.token
        words["x86_mmx"] = ctx.x86_mmx
        words["x86_amx"] = ctx.x86_amx
        for width in (1, 8, 16, 32, 64, 128):
            words["i%d" % width] = ctx.int_type(width)
        values = self.value_words
        for word, ty in words.items():
            if word not in ("void", "label", "metadata"):
                values[word] = ty
        values["ptr"] = ctx.ptr

    # --- entry points -------------------------------------------------------------------------
    def parse_type(self, allow_void: bool = False) -> Type:
        """A type, with any ``*``/``addrspace(N)*`` suffixes and function-type
        parentheses. ``void`` is refused unless ``allow_void``."""
        start = self.p
        ty = self.type_words.get(self.toks[start])
        if ty is not None:
            self.p = start + 1
            nxt = self.toks[start + 1]
            if nxt != "*" and nxt != "(" and nxt != "addrspace":
                if ty.type_id is TypeID.VOID and not allow_void:
                    self.fail("void type only allowed for function results", start)
                return ty
        else:
            ty = self.parse_base_type()
            if self.toks[start] == "ptr" and self.toks[self.p] != "(":
                return ty  # as LLVM: only a function type's '(' may follow 'ptr'
        ty = self.parse_type_suffixes(ty, start)
        if ty.type_id is TypeID.VOID and not allow_void:
            self.fail("void type only allowed for function results", start)
        return ty

    def parse_first_class_type(self, message: str = "invalid use of a non-first-class type") -> Type:
        start = self.p
        ty = self.parse_type()
        if ty.type_id in _NOT_FIRST_CLASS:
            self.fail(message, start)
        return ty

    def parse_type_suffixes(self, ty: Type, start: int) -> Type:
        toks = self.toks
        while True:
            tok = toks[self.p]
            if tok == "*":
                self.check_pointee(ty)
                self.p += 1
                ty = self.ctx.ptr
            elif tok == "addrspace":
                self.check_pointee(ty)
                space = self.parse_addrspace()
                self.expect("*", "expected '*' in address space")
                ty = self.ctx.pointer_type(space)
            elif tok == "(":
                ty = self.parse_function_type_params(ty, start)
            else:
                return ty

    def check_pointee(self, ty: Type) -> None:
        if ty.type_id is TypeID.VOID:
            self.fail("pointers to void are invalid - use i8* instead")
        if ty.type_id is TypeID.LABEL:
            self.fail("basic block pointers are invalid")
        if ty.type_id is TypeID.METADATA:
            self.fail("pointers to metadata are invalid")
        if ty.type_id is TypeID.TOKEN:
            self.fail("pointers to token are invalid")

    def parse_addrspace(self) -> int:
        """``addrspace(N)`` (the current token is ``addrspace``)."""
        self.p += 1
        self.expect("(", "expected '(' in address space")
        tok = self.toks[self.p]
        if tok[:1] == '"':
            name = self.parse_string()
            space: int | None = None
            dl = self.data_layout
            if name == "A":
                space = dl.alloca_addr_space
            elif name == "G":
                space = dl.globals_addr_space
            elif name == "P":
                space = dl.program_addr_space
            if space is None:
                self.fail("invalid symbolic addrspace '%s'" % name, self.p - 1)
        else:
            space = self.parse_uint("expected integer or string constant")
            if space > 0xFFFFFFFF:
                self.fail("expected 32-bit integer (too large)", self.p - 1)
            if space >= 1 << 24:
                self.fail("invalid address space, must be a 24-bit integer", self.p - 1)
        self.expect(")", "expected ')' in address space")
        return space

    def parse_optional_addrspace(self, default: int = 0) -> int:
        if self.toks[self.p] == "addrspace":
            return self.parse_addrspace()
        return default

    # --- the forms ------------------------------------------------------------------------------------
    def parse_base_type(self) -> Type:
        toks = self.toks
        start = self.p
        tok = toks[start]
        ctx = self.ctx
        c = tok[:1]
        if c == "i" and is_digits(tok[1:]) and tok.isascii():
            width = atoull(tok[1:])  # as LLVM's lexer reads it: i0008 is i8
            if not 1 <= width <= MAX_INT_BITS:
                self.fail("expected type")
            ty: Type = ctx.int_type(width)
            self.type_words[tok] = ty
            self.value_words[tok] = ty
            self.p += 1
            return ty
        if tok == "ptr":
            self.p += 1
            space = self.parse_optional_addrspace()
            if toks[self.p] == "*":
                self.fail("ptr* is invalid - use ptr instead")
            return ctx.pointer_type(space)
        if c == "%":
            return self.parse_named_type_ref()
        if tok == "{" or tok == "<":
            return self.parse_aggregate_type()
        if tok == "[":
            if toks[start + 2] == "x" and toks[start + 4] == "]":
                elem = self.value_words.get(toks[start + 3])
                count = toks[start + 1]
                if elem is not None and is_digits(count) and len(count) < 20:
                    self.p = start + 5
                    return ctx.array_type(elem, int(count))
            return self.parse_aggregate_type()
        if tok == "target":
            return self.parse_target_ext_type()
        self.fail("expected type")

    def parse_named_type_ref(self) -> Type:
        tok = self.toks[self.p]
        key = self.local_key(tok)
        ty = self.named_types.get(key)
        if ty is None:
            ty = self.ctx.named_struct(self.name_of(tok))
            self.named_types[key] = ty
            self.fwd_types[key] = self.p
            self.value_words[tok] = ty
        self.p += 1
        return ty

    def parse_struct_elements(self) -> list[Type]:
        """The element types of ``{ T, ... }`` after the ``{`` (the ``}`` is read too)."""
        frame: list[Any] = [_STRUCT_FRAME, self.p - 1, False, []]
        self.parse_nested_types(frame, opened=True)
        return cast("list[Type]", frame[3])

    def parse_aggregate_type(self) -> Type:
        """``[N x T]``, ``<N x T>``, ``<vscale x N x T>``, ``{ T, ... }`` or ``<{ T, ... }>`` at
        the current token, however deeply nested (see :meth:`parse_nested_types`)."""
        frame: list[Any] = [_ROOT_FRAME, None]
        self.parse_nested_types(frame, opened=False)
        return cast(Type, frame[1])

    def parse_nested_types(self, bottom: list[Any], opened: bool) -> None:
        """Read nested aggregate types with an explicit stack instead of recursion, so any depth
        reads (opt-19 reads thousands of levels). Each frame is a list starting with its kind
        and the token where it opened: an array ``[kind, at, count, element start]``, a vector
        ``[kind, at, count, scalable, count position, element start]``, a struct ``[kind, at,
        packed, elements]``. ``bottom`` is either such a struct, already opened (its ``}`` ends
        the walk), or the root ``[kind, None]`` whose slot 1 receives the one type read. A type
        that opens no aggregate is read by :meth:`parse_type` (function-type parameters still
        nest by recursion, counted by ``enter``)."""
        toks = self.toks
        ctx = self.ctx
        words = self.value_words
        stack: list[list[Any]] = [bottom]
        if opened and toks[self.p] == "}":
            self.p += 1
            return
        ty: Type | None = None  # None: an element is to be read; else the element just read
        at = self.p  # where that element starts
        while True:
            if ty is None:
                at = self.p
                tok = toks[at]
                if tok == "[":
                    if toks[at + 2] == "x" and toks[at + 4] == "]":
                        elem = words.get(toks[at + 3])
                        count_tok = toks[at + 1]
                        if elem is not None and is_digits(count_tok) and len(count_tok) < 20:
                            self.p = at + 5
                            ty = self.finish_nested_element(ctx.array_type(elem, int(count_tok)), at)
                            continue
                    self.p = at + 1
                    count = self.parse_element_count()
                    if toks[self.p] != "x":
                        self.fail("expected 'x' after element count")
                    self.p += 1
                    stack.append([_ARRAY_FRAME, at, count, self.p])
                    continue
                if tok == "{" or (tok == "<" and toks[at + 1] == "{"):
                    packed = tok == "<"
                    self.p = at + (2 if packed else 1)
                    if toks[self.p] == "}":
                        self.p += 1
                        if packed:
                            self.expect(">", "expected '>' at end of packed struct")
                        ty = self.finish_nested_element(ctx.struct_type([], packed), at)
                        continue
                    stack.append([_STRUCT_FRAME, at, packed, []])
                    continue
                if tok == "<":
                    self.p = at + 1
                    scalable = False
                    if toks[self.p] == "vscale":
                        scalable = True
                        self.p += 1
                        if toks[self.p] != "x":
                            self.fail("expected 'x' after vscale")
                        self.p += 1
                    count_at = self.p
                    count = self.parse_element_count()
                    if toks[self.p] != "x":
                        self.fail("expected 'x' after element count")
                    self.p += 1
                    stack.append([_VECTOR_FRAME, at, count, scalable, count_at, self.p])
                    continue
                leaf = words.get(tok)
                if leaf is not None and toks[at + 1] not in _SUFFIXES:
                    self.p = at + 1
                    ty = leaf
                else:
                    ty = self.parse_type()
                continue
            # An element type is finished: give it to the innermost frame.
            frame = stack[-1]
            kind = frame[0]
            if kind is _STRUCT_FRAME:
                if ty.type_id in _BAD_ELEMENTS:
                    self.fail("invalid element type for struct", at)
                frame[3].append(ty)
                tok = toks[self.p]
                self.p += 1
                if tok == ",":
                    ty = None
                    continue
                if tok != "}":
                    self.p -= 1
                    self.fail("expected '}' at end of struct")
                if frame is bottom:
                    return
                stack.pop()
                if frame[2]:
                    self.expect(">", "expected '>' at end of packed struct")
                ty = ctx.struct_type(frame[3], frame[2])
            elif kind is _ARRAY_FRAME:
                if ty.type_id in _BAD_ELEMENTS:
                    self.fail("invalid array element type", frame[3])
                self.expect("]", "expected end of sequential type")
                stack.pop()
                ty = ctx.array_type(ty, frame[2])
            elif kind is _VECTOR_FRAME:
                self.expect(">", "expected end of sequential type")
                count = frame[2]
                if count == 0:
                    self.fail("zero element vector is illegal", frame[4])
                if count >= 1 << 32:
                    self.fail("size too large for vector", frame[4])
                if ty.type_id not in SCALAR_TYPE_IDS:
                    self.fail("invalid vector element type", frame[5])
                stack.pop()
                ty = ctx.vector_type(ty, count, frame[3])
            else:  # the root: the aggregate asked for is complete
                frame[1] = ty
                return
            # The aggregate just closed is an element in turn, written from its opening token.
            at = frame[1]
            ty = self.finish_nested_element(ty, at)

    def finish_nested_element(self, ty: Type, start: int) -> Type:
        """An aggregate read by :meth:`parse_nested_types` followed, like any type, by
        ``*``/``addrspace(N)*`` suffixes or a function type's parameters."""
        nxt = self.toks[self.p]
        if nxt == "*" or nxt == "(" or nxt == "addrspace":
            return self.parse_type_suffixes(ty, start)
        return ty

    def parse_element_count(self) -> int:
        """The N of ``[N x T]`` or ``<N x T>``: an unsigned number of at most 64 bits."""
        count = self.parse_uint("expected number in address space")
        if count >= 1 << 64:
            self.fail("expected number in address space", self.p - 1)
        return count

    def parse_target_ext_type(self) -> Type:
        self.p += 1
        self.expect("(", "expected '(' in target extension type")
        name = self.parse_string("expected string constant")
        types: list[Type] = []
        ints: list[int] = []
        while self.eat(","):
            tok = self.toks[self.p]
            if is_digits(tok):
                ints.append(self.parse_uint32())
            else:
                if ints:
                    self.fail("expected uint32 param")
                types.append(self.parse_type())
        self.expect(")", "expected ')' in target extension type")
        return self.ctx.target_ext_type(name, types, ints)

    def parse_function_type_params(self, ret: Type, start: int) -> FunctionType:
        """``(T, T, ...)`` after a return type. Like LLVM, a parameter may be
        written with attributes and a name; both are errors reported once the
        list has been read."""
        if ret.type_id in (TypeID.FUNCTION, TypeID.LABEL, TypeID.METADATA):
            self.fail("invalid function return type", start)
        toks = self.toks
        self.p += 1
        params: list[Type] = []
        vararg = False
        named_at = -1
        attrs_at = -1
        self.enter()
        while toks[self.p] != ")":
            if params:
                if toks[self.p] != ",":
                    break
                self.p += 1
            if toks[self.p] == "...":
                self.p += 1
                vararg = True
                break
            at = self.p
            ty = self.parse_type()
            if ty.type_id is TypeID.VOID:
                self.fail("argument can not have void type", at)
            if ty.type_id is TypeID.FUNCTION:
                # LLVM takes any first-class type here, label included.
                self.fail("invalid type for function argument", at)
            tok = toks[self.p]
            while tok[:1] == '"' or find_attribute_kind(tok) is not None:
                if attrs_at < 0:
                    attrs_at = at
                self.skip_attribute_in_function_type()
                tok = toks[self.p]
            if tok[:1] == "%":
                if named_at < 0:
                    named_at = at
                self.p += 1
            params.append(ty)
        self.depth -= 1
        self.expect(")", "expected ')' at end of argument list")
        first_bad = min((x for x in (named_at, attrs_at) if x >= 0), default=-1)
        if first_bad >= 0:
            if first_bad == named_at:
                self.fail("argument name invalid in function type", named_at)
            self.fail("argument attributes invalid in function type", attrs_at)
        return self.ctx.function_type(ret, params, vararg)

    def skip_attribute_in_function_type(self) -> None:
        """Step over one attribute (with any parenthesised value) of a parameter."""
        toks = self.toks
        tok = toks[self.p]
        self.p += 1
        if tok[:1] == '"':
            if toks[self.p] == "=":
                self.p += 2
            return
        if toks[self.p] == "(":
            depth = 0
            while True:
                t = toks[self.p]
                if not t:
                    return
                self.p += 1
                if t == "(":
                    depth += 1
                elif t == ")":
                    depth -= 1
                    if depth == 0:
                        return
        elif tok in ("align", "dereferenceable") and is_digits(toks[self.p]):
            self.p += 1

    # --- definitions ----------------------------------------------------------------------------------
    def parse_type_definition(self) -> None:
        """``%T = type ...`` (the current token is ``%T``)."""
        name_at = self.p
        tok = self.toks[name_at]
        key = self.local_key(tok)
        self.p += 1
        self.expect("=", "expected '=' after name")
        # LLVM words it by the kind of name (``%3 = ...`` / ``%T = ...``).
        self.expect("type", "expected 'type' after '='" if is_digits(tok[1:]) else "expected 'type' after name")
        toks = self.toks
        existing = self.named_types.get(key)
        if existing is not None and key not in self.fwd_types:
            self.fail("redefinition of type", name_at)
        body = toks[self.p]
        packed = False
        if body == "opaque":
            self.p += 1
            if existing is None:
                self.named_types[key] = self.value_words[tok] = self.ctx.named_struct(self.name_of(tok))
            self.fwd_types.pop(key, None)
            return
        if body == "<" and toks[self.p + 1] == "{":
            self.p += 2
            packed = True
        elif body == "{":
            self.p += 1
        else:
            if existing is not None:
                self.fail("forward references to non-struct type", name_at)
            target = self.parse_type()
            self.named_types[key] = self.value_words[tok] = target
            return
        if existing is None:
            st = self.ctx.named_struct(self.name_of(tok))
            self.named_types[key] = self.value_words[tok] = st
        else:
            assert isinstance(existing, StructType)
            st = existing
        self.fwd_types.pop(key, None)
        elements = self.parse_struct_elements()
        if packed:
            self.expect(">", "expected '>' in packed struct")
        st.set_body(elements, packed)
