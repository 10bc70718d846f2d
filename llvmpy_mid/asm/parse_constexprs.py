"""Constant expressions in ``.ll`` text, and the other keyword constants built
from constants: ``splat (...)``, ``blockaddress``, ``dso_local_equivalent``,
``no_cfi``.

What: :class:`ConstantExprParser` reads the expressions LLVM 19 keeps --
the casts ``trunc``/``ptrtoint``/``inttoptr``/``bitcast``/``addrspacecast``,
``add``/``sub``/``mul`` (with ``nuw``/``nsw``) and ``xor``,
``getelementptr`` with ``inbounds``/``nusw``/``nuw``/``inrange(a, b)``,
``extractelement``/``insertelement``/``shufflevector`` -- and
``ptrauth (...)`` signed pointers, checks them as
LLVM's parser does, and folds them as LLVM's ``ConstantExpr::get*`` do
(:mod:`llvmpy_mid.asm.parse_constfold`): ``add (i64 1, i64 2)`` is ``i64 3``.
A vector ``getelementptr`` gets LLVM's canonical indices (struct indices
scalar, others vectors). ``blockaddress`` of a function whose body is not
read yet is a placeholder replaced when that body is complete.

How: its readers are registered in the keyword table of
:mod:`llvmpy_mid.asm.parse_values`, so :meth:`ValueParser.parse_value`
dispatches to them with one dict lookup.

Not done here: the removed expressions (``icmp``, ``zext``, ``and``...),
which the value parser rejects with LLVM's "... constexprs are no longer
supported".
"""

from __future__ import annotations

from typing import cast

from llvmpy_mid.asm.lexer import is_digits
from llvmpy_mid.asm.parse_constfold import (
    fold_binary,
    fold_cast,
    fold_extract_element,
    fold_gep,
    fold_insert_element,
    fold_shuffle,
)
from llvmpy_mid.asm.parse_values import _CONSTANT_WORDS, _NESTED_READERS, Nested, ValueParser
from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    BlockAddress,
    Constant,
    ConstantInt,
    ConstantPointerNull,
    ConstantPtrAuth,
    ConstantVector,
    DSOLocalEquivalent,
    NoCFIValue,
    UndefValue,
)
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalValue, GlobalVariable, Linkage
from llvmpy_mid.ir.instructions.casts import cast_is_valid
from llvmpy_mid.ir.instructions.gep import get_indexed_type
from llvmpy_mid.ir.instructions.vector import shuffle_mask_is_valid
from llvmpy_mid.ir.types import ArrayType, IntegerType, PointerType, StructType, Type, TypeID, VectorType

_CAST_WORDS = ("trunc", "ptrtoint", "inttoptr", "bitcast", "addrspacecast")
_BINARY_WORDS = ("add", "sub", "mul", "xor")


class ConstantExprParser(ValueParser):
    """Constant expressions and the constants built from other constants."""

    __slots__ = ()

    def const_splat(self, ty: Type, at: int) -> Constant:
        return self.run_nested(self.gen_splat(ty, at))

    def gen_splat(self, ty: Type, at: int) -> Nested:
        self.p = at + 1
        self.expect("(", "expected '(' after splat")
        elem = (yield)
        self.expect(")", "expected ')' at end of splat")
        if not isinstance(ty, VectorType):
            self.fail("vector constant must have vector type", at)
        if elem.type is not ty.element_type:
            self.fail(
                "constant expression type mismatch: got type '%s' but expected '%s'" % (self.type_text(elem.type), self.type_text(ty.element_type)),
                at,
            )
        try:
            return ConstantVector.get_splat(ty, elem)
        except IRError as exc:
            self.fail(str(exc), at)

    def const_dso_local_equivalent(self, ty: Type, at: int) -> Constant:
        self.p = at + 1
        gv_at = self.p
        tok = self.toks[gv_at]
        if tok[:1] != "@":
            if tok[:1] == "%":
                self.fail("expected global value name in dso_local_equivalent")
            self.fail("expected value token")
        gv = self.global_ref(tok, ty if isinstance(ty, PointerType) else self.ctx.ptr, gv_at)
        return self.check_constant_type(DSOLocalEquivalent.get(cast(GlobalValue, gv)), ty, at)

    def const_no_cfi(self, ty: Type, at: int) -> Constant:
        self.p = at + 1
        gv_at = self.p
        tok = self.toks[gv_at]
        if tok[:1] != "@":
            if tok[:1] == "%":
                self.fail("expected global value name in no_cfi")
            self.fail("expected value token")
        gv = self.global_ref(tok, ty if isinstance(ty, PointerType) else self.ctx.ptr, gv_at)
        return self.check_constant_type(NoCFIValue.get(cast(GlobalValue, gv)), ty, at)

    # --- constant expressions -------------------------------------------------------------------------------
    def const_cast_expr(self, ty: Type, at: int) -> Constant:
        return self.run_nested(self.gen_cast_expr(ty, at))

    def gen_cast_expr(self, ty: Type, at: int) -> Nested:
        opcode = self.toks[at]
        self.p = at + 1
        self.expect("(", "expected '(' after constantexpr cast")
        value = (yield)
        if self.toks[self.p] != "to":
            self.fail("expected 'to' in constantexpr cast")
        self.p += 1
        dest = self.parse_type()
        self.expect(")", "expected ')' at end of constantexpr cast")
        if not cast_is_valid(opcode, value.type, dest):
            self.fail(
                "invalid cast opcode for cast from '%s' to '%s'" % (self.type_text(value.type), self.type_text(dest)),
                at,
            )
        folded = fold_cast(opcode, value, dest)
        c = folded if folded is not None else ConstantExpr.get_cast(opcode, value, dest)
        return self.check_constant_type(c, ty, at)

    def const_binary_expr(self, ty: Type, at: int) -> Constant:
        return self.run_nested(self.gen_binary_expr(ty, at))

    def gen_binary_expr(self, ty: Type, at: int) -> Nested:
        toks = self.toks
        opcode = toks[at]
        self.p = at + 1
        nuw = nsw = False
        if opcode != "xor":
            # LLVM's order: ``nuw``? then ``nsw`` and ``nuw`` again (each optional); no repeats.
            nuw = self.eat("nuw")
            if self.eat("nsw"):
                nsw = True
                nuw = self.eat("nuw") or nuw
        self.expect("(", "expected '(' in binary constantexpr")
        lhs = (yield)
        self.expect(",", "expected comma in binary constantexpr")
        rhs = (yield)
        self.expect(")", "expected ')' in binary constantexpr")
        if lhs.type is not rhs.type:
            self.fail("operands of constexpr must have same type", at)
        if not lhs.type.is_int_or_int_vector:
            self.fail("constexpr requires integer or integer vector operands", at)
        folded = fold_binary(opcode, lhs, rhs)
        c = folded if folded is not None else ConstantExpr.get_binary(opcode, lhs, rhs, nuw, nsw)
        return self.check_constant_type(c, ty, at)

    def const_gep_expr(self, ty: Type, at: int) -> Constant:
        return self.run_nested(self.gen_gep_expr(ty, at))

    def gen_gep_expr(self, ty: Type, at: int) -> Nested:
        toks = self.toks
        self.p = at + 1
        inbounds = nusw = nuw = False
        inrange: tuple[int, int] | None = None
        while True:
            tok = toks[self.p]
            if tok == "inbounds":
                inbounds = True
            elif tok == "nusw":
                nusw = True
            elif tok == "nuw":
                nuw = True
            elif tok == "inrange":
                self.p += 1
                self.expect("(", "expected '('")
                lo = self.parse_int()
                self.expect(",", "expected ','")
                hi = self.parse_int()
                self.expect(")", "expected ')'")
                inrange = (lo, hi)
                continue
            else:
                break
            self.p += 1
        self.expect("(", "expected '(' in constantexpr")
        src_ty = self.parse_type()
        self.expect(",", "expected comma after getelementptr's type")
        ops: list[Constant] = [(yield)]
        while self.eat(","):
            ops.append((yield))
        self.expect(")", "expected ')' in constantexpr")
        base = ops[0]
        indices = ops[1:]
        if not base.type.is_ptr_or_ptr_vector:
            self.fail("base of getelementptr must be a pointer", at)
        if inrange is not None:
            # Compared as signed numbers of the index width, as LLVM's parser does.
            width = self.data_layout.index_type_size_in_bits(base.type.scalar_type)
            lo, hi = (_signed(v, width) for v in inrange)
            if lo >= hi:
                self.fail("expected end to be larger than start", at)
        result: Type = base.type
        width = base.type.count if isinstance(base.type, VectorType) else 0
        for idx in indices:
            ity = idx.type
            if isinstance(ity, VectorType):
                if not isinstance(ity.element_type, IntegerType):
                    self.fail("getelementptr index must be an integer", at)
                if width and width != ity.count:
                    self.fail("getelementptr vector index has a wrong number of elements", at)
                width = ity.count
                if not isinstance(base.type, VectorType):
                    result = self.ctx.vector_type(base.type, ity.count, ity.scalable)
            elif not isinstance(ity, IntegerType):
                self.fail("getelementptr index must be an integer", at)
        if indices and not src_ty.is_sized and src_ty.type_id not in (TypeID.INTEGER, TypeID.POINTER):
            if not src_ty.is_floating_point:
                self.fail("base element of getelementptr must be sized", at)
        if get_indexed_type(src_ty, indices) is None:
            self.fail("invalid getelementptr indices", at)
        if isinstance(result, VectorType):
            indices = self.canonical_vector_gep_indices(src_ty, indices, result)
        folded = fold_gep(result, base, indices, inrange is not None)
        if folded is not None:
            c = folded
        else:
            c = ConstantExpr.get_gep(src_ty, base, indices, inbounds, nusw, nuw, inrange)
        return self.check_constant_type(c, ty, at)

    def canonical_vector_gep_indices(
        self, src_ty: Type, indices: list[Constant], result: VectorType
    ) -> list[Constant]:
        """LLVM's form of a vector GEP's constant indices: struct indices are
        scalars (the splat value), the others vectors (a scalar is splatted)."""
        out: list[Constant] = []
        ty: Type | None = None
        for i, idx in enumerate(indices):
            if isinstance(ty, StructType):
                if isinstance(idx.type, VectorType):
                    splat = idx.get_aggregate_element(0)
                    if splat is not None and all(
                        idx.get_aggregate_element(k) is splat for k in range(idx.type.count)
                    ):
                        idx = splat
            elif not isinstance(idx.type, VectorType):
                idx = ConstantVector.get_splat(
                    self.ctx.vector_type(idx.type, result.count, result.scalable), idx
                )
            out.append(idx)
            if i == 0:
                ty = src_ty
            elif isinstance(ty, StructType):
                k = idx.get_aggregate_element(0) if isinstance(idx.type, VectorType) else idx
                ty = ty.elements[k.value] if isinstance(k, ConstantInt) else None
            elif isinstance(ty, (ArrayType, VectorType)):
                ty = ty.element_type
        return out

    def const_vector_expr(self, ty: Type, at: int) -> Constant:
        return self.run_nested(self.gen_vector_expr(ty, at))

    def gen_vector_expr(self, ty: Type, at: int) -> Nested:
        opcode = self.toks[at]
        self.p = at + 1
        self.expect("(", "expected '(' in constantexpr")
        ops: list[Constant] = [(yield)]
        while self.eat(","):
            ops.append((yield))
        self.expect(")", "expected ')' in constantexpr")
        c: Constant | None
        if opcode == "extractelement":
            if len(ops) != 2:
                self.fail("expected two operands to extractelement", at)
            vec, idx = ops
            if not isinstance(vec.type, VectorType) or not isinstance(idx.type, IntegerType):
                self.fail("invalid extractelement operands", at)
            c = fold_extract_element(vec, idx)
            if c is None:
                c = ConstantExpr.get_extract_element(vec, idx)
        elif opcode == "insertelement":
            if len(ops) != 3:
                self.fail("expected three operands to insertelement", at)
            vec, elt, idx = ops
            if (
                not isinstance(vec.type, VectorType)
                or elt.type is not vec.type.element_type
                or not isinstance(idx.type, IntegerType)
            ):
                self.fail("invalid insertelement operands", at)
            c = fold_insert_element(vec, elt, idx)
            if c is None:
                c = ConstantExpr.get_insert_element(vec, elt, idx)
        else:
            if len(ops) != 3:
                self.fail("expected three operands to shufflevector", at)
            v1, v2, mask_c = ops
            mask = self.shuffle_mask_of(mask_c, at)
            vty = v1.type
            if not isinstance(vty, VectorType) or v2.type is not vty or not shuffle_mask_is_valid(vty, mask):
                self.fail("invalid operands to shufflevector", at)
            rty = self.ctx.vector_type(vty.element_type, len(mask), vty.scalable)
            c = fold_shuffle(v1, v2, mask, rty)
            if c is None:
                c = ConstantExpr.get_shuffle_vector(v1, v2, mask)
        return self.check_constant_type(c, ty, at)

    def shuffle_mask_of(self, mask: Constant, at: int, message: str = "invalid operands to shufflevector") -> list[int]:
        """The mask's elements (-1 for undef/poison; others as unsigned 32-bit numbers)."""
        mty = mask.type
        if not isinstance(mty, VectorType) or not mty.element_type.is_integer_bits(32):
            self.fail(message, at)
        if mty.scalable:
            if mask.is_null_value:
                return [0] * mty.count
            if isinstance(mask, UndefValue):
                return [-1] * mty.count
            self.fail(message, at)
        out: list[int] = []
        for i in range(mty.count):
            e = mask.get_aggregate_element(i)
            if isinstance(e, UndefValue):
                out.append(-1)
            elif isinstance(e, ConstantInt):
                out.append(e.value)
            else:
                self.fail(message, at)
        return out

    def const_ptrauth(self, ty: Type, at: int) -> Constant:
        return self.run_nested(self.gen_ptrauth(ty, at))

    def gen_ptrauth(self, ty: Type, at: int) -> Nested:
        """``ptrauth (ptr P, i32 key[, i64 disc[, ptr addrdisc]])``."""
        self.p = at + 1
        self.expect("(", "expected '(' in constant ptrauth expression")
        ptr = (yield)
        self.expect(",", "expected comma in constant ptrauth expression")
        key = (yield)
        disc: Constant | None = None
        addr: Constant | None = None
        if self.eat(","):
            disc = (yield)
            if self.eat(","):
                addr = (yield)
        self.expect(")", "expected ')' in constant ptrauth expression")
        if not isinstance(ptr.type, PointerType):
            self.fail("constant ptrauth base pointer must be a pointer", at)
        if not isinstance(key, ConstantInt) or key.type.width != 32:
            self.fail("constant ptrauth key must be i32 constant", at)
        if disc is None:
            disc = ConstantInt.get(self.ctx.i64, 0)
        elif not isinstance(disc, ConstantInt) or disc.type.width != 64:
            self.fail("constant ptrauth integer discriminator must be i64 constant", at)
        if addr is None:
            addr = ConstantPointerNull.get(self.ctx.ptr)
        elif not isinstance(addr.type, PointerType):
            self.fail("constant ptrauth address discriminator must be a pointer", at)
        assert isinstance(disc, ConstantInt)
        return self.check_constant_type(ConstantPtrAuth.get(ptr, key, disc, addr), ty, at)

    def const_blockaddress(self, ty: Type, at: int) -> Constant:
        toks = self.toks
        self.p = at + 1
        self.expect("(", "expected '(' in block address expression")
        fn_at = self.p
        fn_tok = toks[fn_at]
        if fn_tok[:1] != "@":
            if fn_tok[:1] == "%":
                self.fail("expected function name in blockaddress")
            self.fail("expected value token")
        self.p += 1
        self.expect(",", "expected comma in block address expression")
        label_at = self.p
        label_tok = toks[label_at]
        if label_tok[:1] != "%":
            if label_tok[:1] == "@":
                self.fail("expected basic block name in blockaddress")
            self.fail("expected value token")
        self.p += 1
        self.expect(")", "expected ')' in block address expression")
        fn_key = self.local_key(fn_tok)
        label_key = self.local_key(label_tok)
        gv = self.globals.get(fn_key)
        fs = self.fs
        if gv is not None:
            if not isinstance(gv, Function):
                self.fail("expected function name in blockaddress", fn_at)
            if fs is not None and fs.fn is gv:
                saved = self.p
                self.p = label_at
                bb = self.local_value_slow(label_key, self.ctx.label, label_at)
                self.p = saved
                c: Constant = BlockAddress.get(gv, cast(BasicBlock, bb))
                return self.check_constant_type(c, ty, at)
            if gv.is_declaration:
                self.fail("cannot take blockaddress inside a declaration", fn_at)
            if is_digits(label_key[1:]):
                self.fail("cannot take address of numeric label after the function is defined", label_at)
            found = gv.symbol_table.lookup(self.name_of(label_tok))
            if not isinstance(found, BasicBlock):
                self.fail("referenced value is not a basic block", label_at)
            return self.check_constant_type(BlockAddress.get(gv, found), ty, at)
        if isinstance(ty, PointerType):
            space = ty.address_space
        elif fs is not None:
            space = fs.fn.address_space
            self.fail("type of blockaddress must be a pointer and not '%s'" % ty, at)
        else:
            self.fail("type of blockaddress must be a pointer and not '%s'" % ty, at)
        for ph, key, _ in self.fn_block_addresses.get(fn_key, ()):
            if key == label_key and ph.type is ty:
                return cast(Constant, ph)
        ph = GlobalVariable(self.ctx.i8, "", Linkage.INTERNAL, None, False, space)
        self.fn_block_addresses.setdefault(fn_key, []).append((ph, label_key, label_at))
        return self.check_constant_type(ph, ty, at)


_CONSTANT_WORDS.update(
    {
        "splat": ConstantExprParser.const_splat,
        "dso_local_equivalent": ConstantExprParser.const_dso_local_equivalent,
        "no_cfi": ConstantExprParser.const_no_cfi,
        "blockaddress": ConstantExprParser.const_blockaddress,
        "ptrauth": ConstantExprParser.const_ptrauth,
        "getelementptr": ConstantExprParser.const_gep_expr,
        "extractelement": ConstantExprParser.const_vector_expr,
        "insertelement": ConstantExprParser.const_vector_expr,
        "shufflevector": ConstantExprParser.const_vector_expr,
    }
)
for _w in _CAST_WORDS:
    _CONSTANT_WORDS[_w] = ConstantExprParser.const_cast_expr
    _NESTED_READERS[_w] = ConstantExprParser.gen_cast_expr
for _w in _BINARY_WORDS:
    _CONSTANT_WORDS[_w] = ConstantExprParser.const_binary_expr
    _NESTED_READERS[_w] = ConstantExprParser.gen_binary_expr
_NESTED_READERS.update(
    {
        "splat": ConstantExprParser.gen_splat,
        "ptrauth": ConstantExprParser.gen_ptrauth,
        "getelementptr": ConstantExprParser.gen_gep_expr,
        "extractelement": ConstantExprParser.gen_vector_expr,
        "insertelement": ConstantExprParser.gen_vector_expr,
        "shufflevector": ConstantExprParser.gen_vector_expr,
    }
)


def _signed(value: int, width: int) -> int:
    """``value`` truncated to ``width`` bits, read as a signed number."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value
