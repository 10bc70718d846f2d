"""The non-terminator instructions of ``.ll`` text, with every flag.

What: :class:`InstructionParser` has one handler per opcode (arithmetic,
comparisons, casts, ``select``, ``freeze``, ``va_arg``, the vector and
aggregate operations, the memory instructions, ``getelementptr``, ``phi``
and the EH pads); each reads the instruction after its opcode and returns
it unattached. The handlers follow LLVM 19's ``LLParser``: the same operand
grammar, the same type checks and messages ("invalid operand type for
instruction", "'%x' defined with type ..."), and the same defaults:
``load``/``store`` without ``align`` take the type's ABI alignment,
``alloca`` its preferred alignment and the data layout's alloca address
space, ``cmpxchg``/``atomicrmw`` the store size of the value, as opt-19
prints them. The hot handlers (binary operators, loads, stores, casts,
``getelementptr``) test the common shapes inline before falling back to
the general value parser.

Not done here: terminators, calls and the opcode table
(:mod:`~llvmpy_mid.asm.parse_control`); names, metadata attachments and
debug records around an instruction (:mod:`~llvmpy_mid.asm.parse_functions`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.asm.lexer import is_digits
from llvmpy_mid.asm.parse_metadata import MetadataParser
from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BINARY_OPCODE_CLASSES, UnaryOperator
from llvmpy_mid.ir.instructions.casts import CAST_OPCODE_CLASSES, cast_is_valid
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.flags import AtomicOrdering, AtomicRMWBinOp, type_supports_fast_math_flags
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst, get_indexed_type
from llvmpy_mid.ir.instructions.memory import (
    AllocaInst,
    AtomicCmpXchgInst,
    AtomicRMWInst,
    FenceInst,
    LoadInst,
    StoreInst,
)
from llvmpy_mid.ir.instructions.other import FreezeInst, PHINode, SelectInst, VAArgInst
from llvmpy_mid.ir.instructions.vector import (
    ExtractElementInst,
    ExtractValueInst,
    InsertElementInst,
    InsertValueInst,
    ShuffleVectorInst,
    get_aggregate_indexed_type,
)
from llvmpy_mid.ir.type_queries import SCALAR_TYPE_IDS
from llvmpy_mid.ir.types import ArrayType, IntegerType, StructType, TargetExtType, Type, TypeID, VectorType
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    pass

_FMF_WORDS = {"fast": 127, "reassoc": 1, "nnan": 2, "ninf": 4, "nsz": 8, "arcp": 16, "contract": 32, "afn": 64}
_ORDERINGS = {
    "unordered": AtomicOrdering.UNORDERED,
    "monotonic": AtomicOrdering.MONOTONIC,
    "acquire": AtomicOrdering.ACQUIRE,
    "release": AtomicOrdering.RELEASE,
    "acq_rel": AtomicOrdering.ACQ_REL,
    "seq_cst": AtomicOrdering.SEQ_CST,
}
_RMW_OPS = {op.value: op for op in AtomicRMWBinOp}
_ICMP = {kw: Predicate.from_keyword(kw, False) for kw in ("eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle")}
_FCMP = {
    kw: Predicate.from_keyword(kw, True)
    for kw in (
        "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
        "uno", "ueq", "ugt", "uge", "ult", "ule", "une", "true",
    )
}  # fmt: skip
_WRAP_OPS = frozenset(("add", "sub", "mul", "shl"))
_EXACT_OPS = frozenset(("udiv", "sdiv", "lshr", "ashr"))
_FP_OPS = frozenset(("fadd", "fsub", "fmul", "fdiv", "frem"))
_INT_OPS = frozenset(("add", "sub", "mul", "shl", "udiv", "sdiv", "lshr", "ashr", "urem", "srem", "and", "or", "xor"))
_LOGICAL_OPS = frozenset(("and", "or", "xor"))
_VOID = TypeID.VOID
_INTEGER = TypeID.INTEGER
_LABEL = TypeID.LABEL
_METADATA = TypeID.METADATA


class InstructionParser(MetadataParser):
    """One handler per opcode; :meth:`parse_instruction` dispatches."""

    __slots__ = ()

    # --- small helpers ---------------------------------------------------------------------------
    def parse_fmf(self) -> int:
        toks = self.toks
        fmf = 0
        while True:
            bit = _FMF_WORDS.get(toks[self.p])
            if bit is None:
                return fmf
            fmf |= bit
            self.p += 1

    def parse_optional_comma_align(self) -> int:
        """``, align N`` entries until the end or a ``, !md`` (left for the caller)."""
        toks = self.toks
        align = 0
        while toks[self.p] == ",":
            nxt = toks[self.p + 1]
            if _is_md_var(nxt):
                return align
            if nxt != "align":
                self.p += 1
                self.fail("expected metadata or 'align'")
            self.p += 2
            align = self.parse_alignment_value()
        return align

    def parse_alignment_value(self) -> int:
        """The N of ``align N`` or ``align(N)`` (after ``align``)."""
        paren_at = self.p
        paren = self.eat("(")
        at = self.p
        value = self.parse_uint("expected integer")
        if paren and not self.eat(")"):
            self.fail("expected ')'", paren_at)
        if value == 0 or value & (value - 1):
            self.fail("alignment is not a power of two", at)
        if value > 1 << 32:
            self.fail("huge alignments are not supported yet", at)
        return value

    def parse_sync_scope(self) -> str:
        if self.toks[self.p] == "syncscope":
            self.p += 1
            self.expect("(", "Expected '(' in syncscope")
            scope = self.parse_string("Expected synchronization scope name")
            self.expect(")", "Expected ')' in syncscope")
            return scope
        return ""

    def parse_ordering(self) -> AtomicOrdering:
        ordering = _ORDERINGS.get(self.toks[self.p])
        if ordering is None:
            self.fail("Expected ordering on atomic instruction")
        self.p += 1
        return ordering

    def expect_comma(self, message: str = "expected ','") -> None:
        if self.toks[self.p] != ",":
            self.fail(message)
        self.p += 1

    # --- arithmetic ------------------------------------------------------------------------------
    def inst_binary(self, at: int) -> Instruction:
        toks = self.toks
        opcode = toks[at]
        p = at + 1
        nuw = nsw = exact = disjoint = False
        fmf = 0
        tok = toks[p]
        if opcode in _WRAP_OPS:
            p, nuw, nsw = _wrap_flags(toks, p)
            tok = toks[p]
        elif opcode in _EXACT_OPS:
            if tok == "exact":
                exact = True
                p += 1
        elif opcode == "or":
            if tok == "disjoint":
                disjoint = True
                p += 1
        elif opcode in _FP_OPS:
            self.p = p
            fmf = self.parse_fmf()
            p = self.p
        ty_at = p
        ty = self.value_words.get(toks[p])
        if ty is not None and toks[p + 1] not in _TYPE_SUFFIX:
            p += 1
        else:
            self.p = p
            ty = self.parse_type()
            p = self.p
        values = self.values
        lhs = values.get(toks[p])
        if lhs is not None and lhs.type is ty:
            p += 1
        else:
            self.p = p
            lhs = self.parse_value(ty)
            p = self.p
        if toks[p] != ",":
            self.p = p
            self.fail("expected ',' in arithmetic operation")
        p += 1
        rhs = values.get(toks[p])
        if rhs is not None and rhs.type is ty:
            self.p = p + 1
        else:
            self.p = p
            rhs = self.parse_value(ty)
        if opcode in _FP_OPS:
            if not ty.is_fp_or_fp_vector:
                self.fail("invalid operand type for instruction", ty_at)
        elif ty.type_id is not _INTEGER and not ty.is_int_or_int_vector:
            self.fail("invalid operand type for instruction", ty_at)
        if nuw or nsw or exact or disjoint or fmf:
            return BINARY_OPCODE_CLASSES[opcode](
                lhs, rhs, nuw=nuw, nsw=nsw, exact=exact, disjoint=disjoint, fast_math_flags=fmf
            )
        return BINARY_OPCODE_CLASSES[opcode](lhs, rhs)

    def inst_fneg(self, at: int) -> Instruction:
        self.p = at + 1
        fmf = self.parse_fmf()
        ty_at = self.p
        ty = self.parse_type()
        value = self.parse_value(ty)
        if not ty.is_fp_or_fp_vector:
            self.fail("invalid operand type for instruction", ty_at)
        return UnaryOperator(value, fast_math_flags=fmf)

    def inst_icmp(self, at: int) -> Instruction:
        self.p = at + 1
        pred = _ICMP.get(self.toks[self.p])
        if pred is None:
            self.fail("expected icmp predicate (e.g. 'eq')")
        self.p += 1
        ty_at = self.p
        ty = self.parse_type()
        lhs = self.operand(ty)
        self.expect_comma("expected ',' after compare value")
        rhs = self.operand(ty)
        if not ty.is_int_or_int_vector and not ty.is_ptr_or_ptr_vector:
            self.fail("icmp requires integer operands", ty_at)
        return ICmpInst(pred, lhs, rhs)

    def inst_fcmp(self, at: int) -> Instruction:
        self.p = at + 1
        fmf = self.parse_fmf()
        pred = _FCMP.get(self.toks[self.p])
        if pred is None:
            self.fail("expected fcmp predicate (e.g. 'oeq')")
        self.p += 1
        ty_at = self.p
        ty = self.parse_type()
        lhs = self.parse_value(ty)
        self.expect_comma("expected ',' after compare value")
        rhs = self.parse_value(ty)
        if not ty.is_fp_or_fp_vector:
            self.fail("fcmp requires floating point operands", ty_at)
        return FCmpInst(pred, lhs, rhs, fast_math_flags=fmf)

    def inst_cast(self, at: int) -> Instruction:
        toks = self.toks
        opcode = toks[at]
        p = at + 1
        nuw = nsw = nneg = False
        tok = toks[p]
        if opcode == "trunc":
            p, nuw, nsw = _wrap_flags(toks, p)
        elif opcode == "zext" or opcode == "uitofp":
            if tok == "nneg":
                nneg = True
                p += 1
        self.p = p
        value = self.typed_operand()
        q = self.p
        if toks[q] != "to":
            self.fail("expected 'to' after cast value")
        dest = self.value_words.get(toks[q + 1])
        if dest is not None and toks[q + 2] not in _TYPE_SUFFIX:
            self.p = q + 2
        else:
            self.p = q + 1
            dest = self.parse_type()
        if not cast_is_valid(opcode, value.type, dest):
            self.fail(
                "invalid cast opcode for cast from '%s' to '%s'" % (self.type_text(value.type), self.type_text(dest)), p
            )
        return CAST_OPCODE_CLASSES[opcode](value, dest, nuw=nuw, nsw=nsw, nneg=nneg)

    def inst_select(self, at: int) -> Instruction:
        self.p = at + 1
        fmf = self.parse_fmf()
        cond_at = self.p
        cond = self.parse_type_and_value()
        self.expect_comma("expected ',' after select condition")
        a = self.parse_type_and_value()
        self.expect_comma("expected ',' after select value")
        b = self.parse_type_and_value()
        reason = SelectInst.invalid_operands_reason(cond, a, b)
        if reason:
            self.fail(reason, cond_at)
        if fmf and not type_supports_fast_math_flags(a.type):
            self.fail("fast-math-flags specified for select without floating-point scalar or vector return type", at)
        return SelectInst(cond, a, b, fast_math_flags=fmf)

    def inst_freeze(self, at: int) -> Instruction:
        self.p = at + 1
        return FreezeInst(self.parse_type_and_value())

    def inst_va_arg(self, at: int) -> Instruction:
        self.p = at + 1
        va_list = self.parse_type_and_value()
        self.expect_comma("expected ',' after vaarg operand")
        ty = self.parse_type()
        if ty.type_id in (_VOID, TypeID.FUNCTION, _LABEL):
            self.fail("va_arg requires operand with first class type", at)
        return VAArgInst(va_list, ty)

    # --- vectors and aggregates ------------------------------------------------------------------------
    def inst_extractelement(self, at: int) -> Instruction:
        self.p = at + 1
        vec = self.parse_type_and_value()
        self.expect_comma("expected ',' after extract value")
        idx = self.parse_type_and_value()
        if not isinstance(vec.type, VectorType) or not isinstance(idx.type, IntegerType):
            self.fail("invalid extractelement operands", at + 1)
        return ExtractElementInst(vec, idx)

    def inst_insertelement(self, at: int) -> Instruction:
        self.p = at + 1
        vec = self.parse_type_and_value()
        self.expect_comma("expected ',' after insertelement value")
        elt = self.parse_type_and_value()
        self.expect_comma("expected ',' after insertelement value")
        idx = self.parse_type_and_value()
        vty = vec.type
        if not isinstance(vty, VectorType) or elt.type is not vty.element_type or not isinstance(idx.type, IntegerType):
            self.fail("invalid insertelement operands", at + 1)
        return InsertElementInst(vec, elt, idx)

    def inst_shufflevector(self, at: int) -> Instruction:
        self.p = at + 1
        v1 = self.parse_type_and_value()
        self.expect_comma("expected ',' after shuffle mask")
        v2 = self.parse_type_and_value()
        self.expect_comma("expected ',' after shuffle value")
        mask_at = self.p
        mask_c = self.parse_type_and_value()
        # LLVM reports every invalid combination (mask included) at the first operand.
        if not isinstance(mask_c, Constant):
            self.fail("invalid shufflevector operands", at + 1)
        vty = v1.type
        if not isinstance(vty, VectorType) or v2.type is not vty:
            self.fail("invalid shufflevector operands", at + 1)
        mask = self.shuffle_mask_of(mask_c, at + 1, "invalid shufflevector operands")
        limit = 2 * vty.count
        if not vty.scalable and any(m >= limit for m in mask):
            self.fail("invalid shufflevector operands", at + 1)
        return ShuffleVectorInst(v1, v2, mask)

    def parse_index_list(self) -> list[int]:
        """``, i, j, ...`` of extractvalue/insertvalue (stops before ``, !md``, the comma left
        for the attachments), as LLVM's parseIndexList."""
        toks = self.toks
        out: list[int] = []
        if toks[self.p] != ",":
            self.fail("expected ',' as start of index list")
        while toks[self.p] == ",":
            if _is_md_var(toks[self.p + 1]):
                if not out:
                    self.p += 1
                    self.fail("expected index")
                break
            self.p += 1
            out.append(self.parse_uint32("expected integer"))
        return out

    def inst_extractvalue(self, at: int) -> Instruction:
        self.p = at + 1
        agg = self.parse_type_and_value()
        indices = self.parse_index_list()
        if not agg.type.is_aggregate:
            self.fail("extractvalue operand must be aggregate type", at + 1)
        if get_aggregate_indexed_type(agg.type, indices) is None:
            self.fail("invalid indices for extractvalue", at + 1)
        return ExtractValueInst(agg, indices)

    def inst_insertvalue(self, at: int) -> Instruction:
        self.p = at + 1
        agg = self.parse_type_and_value()
        self.expect_comma("expected comma after insertvalue operand")
        val_at = self.p
        val = self.parse_type_and_value()
        indices = self.parse_index_list()
        if not agg.type.is_aggregate:
            self.fail("insertvalue operand must be aggregate type", at + 1)
        target = get_aggregate_indexed_type(agg.type, indices)
        if target is None:
            self.fail("invalid indices for insertvalue", at + 1)
        if target is not val.type:
            self.fail("insertvalue operand and field disagree in type: '%s' instead of '%s'" % (val.type, target), val_at)
        return InsertValueInst(agg, val, indices)

    # --- memory ----------------------------------------------------------------------------------------
    def inst_alloca(self, at: int) -> Instruction:
        toks = self.toks
        self.p = at + 1
        inalloca = swifterror = False
        while True:
            tok = toks[self.p]
            if tok == "inalloca":
                inalloca = True
            elif tok == "swifterror":
                swifterror = True
            else:
                break
            self.p += 1
        ty_at = self.p
        ty = self.parse_type()
        size: Value | None = None
        align = 0
        space = 0  # LLVM 19: 0, not the layout's A, when unwritten
        size_at = -1
        # LLVM's grammar: [, T N] then [, align A (, addrspace(S))*] or [, addrspace(S)]; a
        # comma before a named metadata is left for the attachments.
        if toks[self.p] == ",":
            nxt = toks[self.p + 1]
            if nxt != "align" and nxt != "addrspace" and not _is_md_var(nxt):
                self.p += 1
                size_at = self.p
                size = self.parse_type_and_value()
                if toks[self.p] == ",":
                    nxt = toks[self.p + 1]
                    if nxt != "align" and nxt != "addrspace" and not _is_md_var(nxt):
                        self.p += 1  # LLVM eats the comma and stops
            if toks[self.p] == "," and toks[self.p + 1] == "align":
                self.p += 2
                align = self.parse_alignment_value()
                while toks[self.p] == ",":
                    if _is_md_var(toks[self.p + 1]):
                        break
                    self.p += 1
                    if toks[self.p] != "addrspace":
                        self.fail("expected metadata or 'addrspace'")
                    space = self.parse_addrspace()
            elif toks[self.p] == "," and toks[self.p + 1] == "addrspace":
                self.p += 1
                space = self.parse_addrspace()
        if size is not None and size.type.type_id is not _INTEGER:
            self.fail("element count must have integer type", size_at)
        if ty.type_id in (_VOID, TypeID.FUNCTION, _LABEL, _METADATA, TypeID.TOKEN, TypeID.X86_AMX):
            self.fail("invalid type for alloca", ty_at)
        # As LLParser: only an alloca without an alignment must have a sized type at this point
        # (a named struct defined further down the file is still opaque here).
        if align == 0 and not ty.is_sized and ty.type_id not in SCALAR_TYPE_IDS:
            self.fail("Cannot allocate unsized type", ty_at)
        if align == 0:
            align = self.data_layout.pref_alignment(ty)
        return AllocaInst(ty, size, alignment=align, address_space=space, inalloca=inalloca, swifterror=swifterror)

    def _prefix_flags(self, p: int, first: str) -> tuple[int, bool, bool]:
        """Skip an optional ``first`` keyword (``atomic``/``weak``) then an optional
        ``volatile`` from token ``p``; returns the next position and both flags."""
        toks = self.toks
        has_first = toks[p] == first
        if has_first:
            p += 1
        volatile = toks[p] == "volatile"
        if volatile:
            p += 1
        return p, has_first, volatile

    def inst_load(self, at: int) -> Instruction:
        toks = self.toks
        p, atomic, volatile = self._prefix_flags(at + 1, "atomic")
        ty_at = p
        ty = self.value_words.get(toks[p])
        if ty is not None and toks[p + 1] not in _TYPE_SUFFIX:
            p += 1
        else:
            self.p = p
            ty = self.parse_type()
            p = self.p
        if toks[p] != ",":
            self.p = p
            self.fail("expected comma after load's type")
        ptr_at = p + 1
        ptr, ordering, scope, align = self._parse_access_tail(ptr_at, atomic, "load")
        if atomic:
            self._check_atomic_access("load", align, ordering, AtomicOrdering.RELEASE, ptr_at)
        if not align:
            align = self._default_alignment(ty, "loading", ty_at)
        if atomic or volatile:
            return LoadInst(ty, ptr, volatile=volatile, alignment=align, ordering=ordering, sync_scope=scope)
        return LoadInst(ty, ptr, alignment=align)

    def _check_atomic_access(
        self, what: str, align: int, ordering: AtomicOrdering, forbidden: AtomicOrdering, at: int
    ) -> None:
        """LLVM's rules for ``load atomic``/``store atomic``: an explicit alignment, and
        no ``forbidden`` (release for loads, acquire for stores) nor acq_rel ordering."""
        if not align:
            self.fail("atomic %s must have explicit non-zero alignment" % what, at)
        if ordering is forbidden or ordering is AtomicOrdering.ACQ_REL:
            self.fail("atomic %s cannot use %s ordering" % (what, forbidden.name.capitalize()), at)

    def _default_alignment(self, ty: Type, verb: str, at: int) -> int:
        """The ABI alignment LLVM's parser gives an access without ``align``."""
        if ty.type_id in _UNSIZED or (not ty.is_sized and ty.type_id not in SCALAR_TYPE_IDS):
            self.fail("%s unsized types is not allowed" % verb, at)
        return self.data_layout.abi_alignment(ty)

    def _parse_access_tail(
        self, p: int, atomic: bool, what: str
    ) -> tuple[Value, AtomicOrdering, str, int]:
        """The part load and store share: ``<ty> <ptr> [syncscope] [ordering] [, align N]``
        starting at token ``p``; returns the pointer, ordering, scope and alignment (0 if absent)."""
        toks = self.toks
        ptr_at = p
        pty = self.value_words.get(toks[p])
        ptr = self.values.get(toks[p + 1]) if pty is not None else None
        if ptr is not None and ptr.type is pty and toks[p + 2] != "*":
            p += 2
        else:
            self.p = p
            ptr = self.parse_type_and_value()
            p = self.p
        ordering = AtomicOrdering.NOT_ATOMIC
        scope = ""
        align = 0
        if atomic:
            self.p = p
            scope = self.parse_sync_scope()
            ordering = self.parse_ordering()
            p = self.p
        if toks[p] == "," and toks[p + 1] == "align":
            align = _ALIGNMENTS.get(toks[p + 2], 0)
            if align and toks[p + 3] != ",":
                p += 3
            else:
                align = 0
        self.p = p
        if not align:
            align = self.parse_optional_comma_align()
        if ptr.type.type_id is not TypeID.POINTER:
            self.fail(what + " operand must be a pointer", ptr_at)
        return ptr, ordering, scope, align

    def inst_store(self, at: int) -> Instruction:
        toks = self.toks
        p, atomic, volatile = self._prefix_flags(at + 1, "atomic")
        values = self.values
        val_at = p
        vty = self.value_words.get(toks[p])
        val = values.get(toks[p + 1]) if vty is not None else None
        if val is not None and val.type is vty and toks[p + 2] == ",":
            p += 2
        else:
            self.p = p
            val = self.parse_type_and_value()
            p = self.p
        if toks[p] != ",":
            self.p = p
            self.fail("expected ',' after store operand")
        ptr, ordering, scope, align = self._parse_access_tail(p + 1, atomic, "store")
        vty = val.type
        if atomic:
            self._check_atomic_access("store", align, ordering, AtomicOrdering.ACQUIRE, val_at)
        if not align:
            align = self._default_alignment(vty, "storing", val_at)
        if atomic or volatile:
            return StoreInst(val, ptr, volatile=volatile, alignment=align, ordering=ordering, sync_scope=scope)
        return StoreInst(val, ptr, alignment=align)

    def inst_cmpxchg(self, at: int) -> Instruction:
        toks = self.toks
        p, weak, volatile = self._prefix_flags(at + 1, "weak")
        self.p = p
        ptr_at = self.p
        ptr = self.parse_type_and_value()
        self.expect_comma("expected ',' after cmpxchg address")
        cmp_at = self.p
        cmp = self.parse_type_and_value()
        self.expect_comma("expected ',' after cmpxchg cmp operand")
        new_at = self.p
        new = self.parse_type_and_value()
        scope = self.parse_sync_scope()
        success = self.parse_ordering()
        failure = self.parse_ordering()
        align = self.parse_optional_comma_align()
        if success is AtomicOrdering.UNORDERED or failure in _BAD_CMPXCHG_FAILURE:
            # At the token after the instruction (past a comma before metadata), as LLVM.
            after = self.p + 1 if toks[self.p] == "," else self.p
            if success is AtomicOrdering.UNORDERED:
                self.fail("invalid cmpxchg success ordering", after)
            self.fail("invalid cmpxchg failure ordering", after)
        if ptr.type.type_id is not TypeID.POINTER:
            self.fail("cmpxchg operand must be a pointer", ptr_at)
        if cmp.type is not new.type:
            self.fail("compare value and new value type do not match", new_at)
        if not cmp.type.is_first_class or cmp.type.type_id in (_LABEL, _METADATA):
            self.fail("cmpxchg operand must be a first class value", cmp_at)
        if not align:
            align = self.data_layout.type_store_size(cmp.type)
        return AtomicCmpXchgInst(
            ptr, cmp, new, success, failure, weak=weak, volatile=volatile, alignment=align, sync_scope=scope
        )

    def inst_atomicrmw(self, at: int) -> Instruction:
        toks = self.toks
        p = at + 1
        volatile = False
        if toks[p] == "volatile":
            volatile = True
            p += 1
        op = _RMW_OPS.get(toks[p])
        if op is None:
            self.p = p
            self.fail("expected binary operation in atomicrmw")
        self.p = p + 1
        ptr_at = self.p
        ptr = self.parse_type_and_value()
        self.expect_comma("expected ',' after atomicrmw address")
        val_at = self.p
        val = self.parse_type_and_value()
        scope = self.parse_sync_scope()
        ordering = self.parse_ordering()
        align = self.parse_optional_comma_align()
        if ordering is AtomicOrdering.UNORDERED:
            self.fail("atomicrmw cannot be unordered", at)
        if ptr.type.type_id is not TypeID.POINTER:
            self.fail("atomicrmw operand must be a pointer", ptr_at)
        vty = val.type
        if _is_scalable(vty):
            self.fail("atomicrmw operand may not be scalable", val_at)
        if op is AtomicRMWBinOp.XCHG:
            if not (vty.is_integer or vty.is_floating_point or vty.is_pointer):
                self.fail("atomicrmw %s operand must be an integer, floating point, or pointer type" % op.value, val_at)
        elif op.is_fp_operation:
            if not vty.is_fp_or_fp_vector:
                self.fail("atomicrmw %s operand must be a floating point type" % op.value, val_at)
        elif not vty.is_integer:
            self.fail("atomicrmw %s operand must be an integer" % op.value, val_at)
        if not align:
            align = self.data_layout.type_store_size(vty)
        return AtomicRMWInst(op, ptr, val, ordering, volatile=volatile, alignment=align, sync_scope=scope)

    def inst_fence(self, at: int) -> Instruction:
        self.p = at + 1
        scope = self.parse_sync_scope()
        ordering = self.parse_ordering()
        if ordering is AtomicOrdering.UNORDERED:
            self.fail("fence cannot be unordered", at)
        if ordering is AtomicOrdering.MONOTONIC:
            self.fail("fence cannot be monotonic", at)
        return FenceInst(self.ctx, ordering, sync_scope=scope)

    def inst_gep(self, at: int) -> Instruction:
        toks = self.toks
        p = at + 1
        flags = 0
        while True:
            tok = toks[p]
            if tok == "inbounds":
                flags |= 3
            elif tok == "nusw":
                flags |= 2
            elif tok == "nuw":
                flags |= 4
            else:
                break
            p += 1
        self.p = p
        ty_at = p
        ty = self.parse_type()
        if toks[self.p] != ",":
            self.fail("expected comma after getelementptr's type")
        self.p += 1
        base_at = self.p
        base = self.typed_operand()
        indices: list[Value] = []
        while toks[self.p] == ",":
            if toks[self.p + 1][:1] == "!":
                break
            self.p += 1
            indices.append(self.typed_operand())
        try:
            return GetElementPtrInst(ty, base, indices, flags=flags)
        except IRError:
            pass
        bty = base.type
        if bty.type_id is not TypeID.POINTER and not bty.is_ptr_or_ptr_vector:
            self.fail("base of getelementptr must be a pointer", base_at)
        width = (bty.count, bty.scalable) if isinstance(bty, VectorType) else None
        for idx, idx_at in zip(indices, self.index_positions(base_at)):
            ity = idx.type
            if ity.type_id is not _INTEGER and not ity.is_int_or_int_vector:
                self.fail("getelementptr index must be an integer", idx_at)
            if isinstance(ity, VectorType):
                if width is not None and width != (ity.count, ity.scalable):
                    self.fail("getelementptr vector index has a wrong number of elements", idx_at)
                width = (ity.count, ity.scalable)
        if indices and ty.type_id not in SCALAR_TYPE_IDS and not ty.is_sized:
            self.fail("base element of getelementptr must be sized", base_at)
        if len(indices) > 1 and get_indexed_type(ty, indices) is None:
            self.fail("invalid getelementptr indices", base_at)
        return GetElementPtrInst(ty, base, indices, flags=flags)

    def index_positions(self, base_at: int) -> list[int]:
        """Token positions of the ``T v`` operands after the one at ``base_at``
        (re-read from the tokens, for error locations only)."""
        saved = self.p
        self.p = base_at
        self.parse_type_and_value()
        out: list[int] = []
        while self.toks[self.p] == "," and self.toks[self.p + 1][:1] != "!":
            self.p += 1
            out.append(self.p)
            self.parse_type_and_value()
        self.p = saved
        return out

    # --- phi ---------------------------------------------------------------------------------------------------
    def inst_phi(self, at: int) -> Instruction:
        toks = self.toks
        self.p = at + 1
        fmf = self.parse_fmf()
        ty_at = self.p
        ty = self.parse_type()
        if ty.type_id in (_VOID, TypeID.FUNCTION, _LABEL, _METADATA):
            self.fail("phi node must have first class type", ty_at)
        label = self.ctx.label
        incoming: list[tuple[Value, BasicBlock]] = []
        # LLVM 19 accepts a phi without incoming values.
        more = toks[self.p] == "["
        while more:
            self.p += 1
            v = self.parse_value(ty)
            if toks[self.p] != ",":
                self.fail("expected ',' after insertelement value")
            self.p += 1
            bb = self.parse_value(label)
            if toks[self.p] != "]":
                self.fail("expected ']' in phi value list")
            self.p += 1
            incoming.append((v, cast(BasicBlock, bb)))
            more = toks[self.p] == "," and toks[self.p + 1][:1] != "!"
            if more:
                self.p += 1
                if toks[self.p] != "[":
                    self.fail("expected '[' in phi value list")
        if fmf and not type_supports_fast_math_flags(ty):
            self.fail("fast-math-flags specified for phi without floating-point scalar or vector return type", at)
        return PHINode(ty, incoming, fast_math_flags=fmf)


_UNSIZED = frozenset((_VOID, TypeID.FUNCTION, _LABEL, _METADATA, TypeID.TOKEN))
_TYPE_SUFFIX = frozenset(("*", "(", "addrspace"))
_ALIGNMENTS = {str(1 << i): 1 << i for i in range(33)}


def _wrap_flags(toks: list[str], p: int) -> tuple[int, bool, bool]:
    """``nuw``/``nsw`` of an instruction from token ``p``: each at most once, ``nuw`` before or
    after ``nsw`` (LLVM's order; a repeated flag is left for the type that must follow).
    Returns (next token, nuw, nsw)."""
    nuw = toks[p] == "nuw"
    if nuw:
        p += 1
    nsw = toks[p] == "nsw"
    if nsw:
        p += 1
        if not nuw and toks[p] == "nuw":
            nuw = True
            p += 1
    return p, nuw, nsw

_BAD_CMPXCHG_FAILURE = frozenset((AtomicOrdering.UNORDERED, AtomicOrdering.RELEASE, AtomicOrdering.ACQ_REL))


def _is_scalable(ty: Type) -> bool:
    """LLVM's ``Type::isScalableTy``: a scalable vector, ``aarch64.svcount``, or an array or
    struct holding one."""
    todo = [ty]
    seen: set[int] = set()
    while todo:
        t = todo.pop()
        if isinstance(t, VectorType):
            if t.scalable:
                return True
        elif isinstance(t, ArrayType):
            todo.append(t.element_type)
        elif isinstance(t, StructType):
            if id(t) not in seen:
                seen.add(id(t))
                todo.extend(t.elements)
        elif isinstance(t, TargetExtType) and t.name == "aarch64.svcount":
            return True
    return False


def _is_md_var(tok: str) -> bool:
    """``tok`` is a named metadata (``!dbg``), what LLVM's lexer calls a MetadataVar."""
    return tok[:1] == "!" and len(tok) > 1 and tok[1] != '"' and not is_digits(tok[1])
