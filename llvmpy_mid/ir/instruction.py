"""The base of every instruction (LLVM ``Instruction``).

An instruction lives in at most one basic block, in an intrusive list (so
insertion and removal at a known place are O(1)). It carries metadata
attachments (at most one node per kind, kept by kind id as LLVM does) and the
debug records (``#dbg_value`` ...) that precede it.

Per-opcode classes live in ``llvmpy_mid.ir.instructions``; each sets the
class attribute ``opcode`` to LLVM's textual name and overrides the queries
that differ from the defaults here.
"""

from __future__ import annotations

from enum import IntEnum
from operator import attrgetter
from typing import TYPE_CHECKING, ClassVar, Iterator, Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.value import Use, User, Value

_ERASED = -1
"""``_order`` of an erased instruction (a live one's is never negative)."""

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.debug_records import DbgRecord
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.metadata import MDNode
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.symbol_table import ValueSymbolTable
    from llvmpy_mid.ir.types import Type


class Opcode(IntEnum):
    """LLVM 19's instruction opcode numbers (``IR/Instruction.def``); ``inst.opcode_id``
    is one of these, beside the textual ``inst.opcode``."""

    RET = 1
    BR = 2
    SWITCH = 3
    INDIRECTBR = 4
    INVOKE = 5
    RESUME = 6
    UNREACHABLE = 7
    CLEANUPRET = 8
    CATCHRET = 9
    CATCHSWITCH = 10
    CALLBR = 11
    FNEG = 12
    ADD = 13
    FADD = 14
    SUB = 15
    FSUB = 16
    MUL = 17
    FMUL = 18
    UDIV = 19
    SDIV = 20
    FDIV = 21
    UREM = 22
    SREM = 23
    FREM = 24
    SHL = 25
    LSHR = 26
    ASHR = 27
    AND = 28
    OR = 29
    XOR = 30
    ALLOCA = 31
    LOAD = 32
    STORE = 33
    GETELEMENTPTR = 34
    FENCE = 35
    CMPXCHG = 36
    ATOMICRMW = 37
    TRUNC = 38
    ZEXT = 39
    SEXT = 40
    FPTOUI = 41
    FPTOSI = 42
    UITOFP = 43
    SITOFP = 44
    FPTRUNC = 45
    FPEXT = 46
    PTRTOINT = 47
    INTTOPTR = 48
    BITCAST = 49
    ADDRSPACECAST = 50
    CLEANUPPAD = 51
    CATCHPAD = 52
    ICMP = 53
    FCMP = 54
    PHI = 55
    CALL = 56
    SELECT = 57
    VA_ARG = 60
    EXTRACTELEMENT = 61
    INSERTELEMENT = 62
    SHUFFLEVECTOR = 63
    EXTRACTVALUE = 64
    INSERTVALUE = 65
    LANDINGPAD = 66
    FREEZE = 67

    @classmethod
    def of(cls, opcode: str) -> Opcode:
        """The number of a textual opcode (``"add"`` -> ``Opcode.ADD``)."""
        return _OPCODE_BY_NAME[opcode]

    @property
    def keyword(self) -> str:
        """The textual opcode (``Opcode.ADD.keyword == "add"``)."""
        return self.name.lower()


_OPCODE_BY_NAME: dict[str, Opcode] = {op.name.lower(): op for op in Opcode}
_operand_value = attrgetter("value")


class Instruction(User):
    """An instruction. ``opcode`` is LLVM's textual name (``"add"``, ``"getelementptr"``);
    ``opcode_id`` the same as an :class:`Opcode` (an int, for dispatch tables)."""

    __slots__ = ("parent", "_prev", "_next", "_order", "_md", "_dbg_records")

    opcode: ClassVar[str] = ""
    opcode_id: ClassVar[int] = 0
    """``Opcode`` of the class's ``opcode`` (0 for abstract classes)."""
    is_instruction = True
    is_terminator_class: ClassVar[bool] = False
    is_binary_op: ClassVar[bool] = False
    is_cast: ClassVar[bool] = False
    is_unary_op: ClassVar[bool] = False
    is_phi: ClassVar[bool] = False
    is_call_base: ClassVar[bool] = False
    is_eh_pad: ClassVar[bool] = False

    parent: BasicBlock | None

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        op = _OPCODE_BY_NAME.get(cls.opcode)
        cls.opcode_id = 0 if op is None else op

    def __init__(self, type: Type, operands: Sequence[Value] = (), name: str = "") -> None:
        # Value/User initialisation inlined: this is the hottest constructor.
        self.type = type
        self._name = name
        self._use_head = None
        if operands:
            self._operands = [Use(v, self, i) for i, v in enumerate(operands)]
        else:
            self._operands = []
        self.parent = None
        self._prev: Instruction | None = None
        self._next: Instruction | None = None
        self._order = 0
        self._md: dict[int, MDNode] | None = None
        self._dbg_records: list[DbgRecord] | None = None

    def operand_values(self) -> Iterator[Value]:
        """The operand values, without building a list (C-level iteration)."""
        return map(_operand_value, self._operands)

    # --- position ---------------------------------------------------------------
    @property
    def function(self) -> Function | None:
        bb = self.parent
        return bb.parent if bb is not None else None

    @property
    def module(self) -> Module | None:
        bb = self.parent
        if bb is None or bb.parent is None:
            return None
        return bb.parent.parent

    @property
    def next_instruction(self) -> Instruction | None:
        return self._next

    @property
    def prev_instruction(self) -> Instruction | None:
        return self._prev

    def _symbol_table(self) -> ValueSymbolTable | None:
        bb = self.parent
        if bb is None:
            return None
        fn = bb.parent
        return fn.symbol_table if fn is not None else None

    def _numbering_changed(self) -> None:
        bb = self.parent
        if bb is not None:
            fn = bb.parent
            if fn is not None:
                fn._repr_cache = None

    @property
    def is_erased(self) -> bool:
        """True once :meth:`erase_from_parent` has destroyed this instruction;
        an erased instruction refuses every further use."""
        return self._order == _ERASED

    def _check_live(self, action: str) -> None:
        if self._order == _ERASED:
            raise IRError("cannot %s an erased %s (it was erased with erase_from_parent)" % (action, type(self).__name__))

    def comes_before(self, other: Instruction) -> bool:
        """True if this instruction is before ``other`` in the same block.
        Uses cached order numbers, recomputed lazily after insertions."""
        bb = self.parent
        if not isinstance(other, Instruction):
            raise TypeError("comes_before needs an Instruction, not %s" % type(other).__name__)
        if bb is None or other.parent is not bb:
            raise IRError("comes_before needs two instructions of the same block")
        if not bb._order_valid:
            bb._renumber()
        return self._order < other._order

    # --- insertion and removal -----------------------------------------------------
    def insert_before(self, before: Instruction) -> None:
        """Insert this (detached) instruction before ``before``."""
        if not isinstance(before, Instruction):
            raise TypeError("insert_before needs an Instruction position, not %s" % type(before).__name__)
        bb = before.parent
        if bb is None:
            raise IRError("insert_before: the position is not in a block")
        self._check_detached()
        bb.instructions.insert_before(self, before)

    def insert_after(self, after: Instruction) -> None:
        if not isinstance(after, Instruction):
            raise TypeError("insert_after needs an Instruction position, not %s" % type(after).__name__)
        bb = after.parent
        if bb is None:
            raise IRError("insert_after: the position is not in a block")
        self._check_detached()
        bb.instructions.insert_before(self, after._next)

    def insert_into(self, block: BasicBlock, before: Instruction | None = None) -> None:
        """Insert at the end of ``block`` or before ``before`` in it."""
        if not getattr(block, "is_basic_block", False):
            raise TypeError("insert_into needs a BasicBlock, not %s" % type(block).__name__)
        self._check_detached()
        if before is not None and before.parent is not block:
            raise IRError("insert_into: the position is not in that block")
        block.instructions.insert_before(self, before)

    def _check_detached(self) -> None:
        if self.parent is not None:
            raise IRError("instruction is already in a block; remove it first")
        if self._order == _ERASED:
            self._check_live("insert")

    def remove_from_parent(self) -> None:
        """Detach from the block, keeping operands and uses (it can be reinserted)."""
        bb = self.parent
        if bb is None:
            self._check_live("remove")
            raise IRError("instruction is not in a block")
        self._hand_over_dbg_records()
        bb.instructions.remove(self)

    def _hand_over_dbg_records(self) -> None:
        """Debug records before a leaving instruction move to the next one, as in LLVM."""
        recs = self._dbg_records
        if not recs:
            return
        nxt = self._next
        self._dbg_records = None
        if nxt is None:
            for r in recs:
                r.instruction = None
            return
        if nxt._dbg_records is None:
            nxt._dbg_records = []
        nxt._dbg_records[0:0] = recs
        for r in recs:
            r.instruction = nxt

    def _undef_metadata_uses(self) -> None:
        """Metadata (debug records, ``DIArgList``, ``!{...}``) naming an erased instruction
        names ``undef`` of its type instead (LLVM 19's ``~Instruction``)."""
        md = self.type.context.value_metadata.get(self)
        if md is not None:
            from llvmpy_mid.ir.constants import UndefValue

            md.handle_rauw(UndefValue.get(self.type))

    def erase_from_parent(self) -> None:
        """Detach and destroy. Refuses while the instruction still has uses,
        and refuses an instruction already erased."""
        if self._order == _ERASED:
            self._check_live("erase")
        if self._use_head is not None:
            raise IRError(
                "cannot erase %r: it still has %d use(s); replace its uses first" % (self, self.num_uses)
            )
        if self.parent is not None:
            self._hand_over_dbg_records()
            self.parent.instructions.remove(self)
        self._undef_metadata_uses()
        self.drop_all_references()
        self._md = None
        self._order = _ERASED

    def __str__(self) -> str:
        if self._order == _ERASED:
            self._check_live("print")
        return Value.__str__(self)

    def replace_all_uses_with(self, new: Value) -> None:
        if self._order == _ERASED:
            self._check_live("replace the uses of")
        if not isinstance(new, Value):
            raise TypeError("replace_all_uses_with needs a Value, not %s" % type(new).__name__)
        Value.replace_all_uses_with(self, new)

    def set_operand(self, index: int, value: Value) -> None:
        try:
            self._operands[index].set(value)
        except (IndexError, AttributeError, TypeError):
            self._check_live("set an operand of")
            if not isinstance(value, Value):
                raise TypeError("set_operand needs a Value, not %s" % type(value).__name__) from None
            raise

    def move_before(self, before: Instruction, *, preserve_dbg_records: bool = False) -> None:
        """Move before ``before``. The debug records in front of this instruction
        stay at the old place (they go to the next instruction), as LLVM's
        ``moveBefore``; ``preserve_dbg_records`` takes them along (``moveBeforePreserving``)."""
        self._check_live("move")
        if not isinstance(before, Instruction):
            raise TypeError("move_before needs an Instruction position, not %s" % type(before).__name__)
        if self.parent is not None:
            if not preserve_dbg_records:
                self._hand_over_dbg_records()
            self.parent.instructions.remove(self)
        self.insert_before(before)

    def move_after(self, after: Instruction, *, preserve_dbg_records: bool = False) -> None:
        """Move after ``after``; debug records as in :meth:`move_before` (moving
        to where it already is leaves them in place)."""
        self._check_live("move")
        if not isinstance(after, Instruction):
            raise TypeError("move_after needs an Instruction position, not %s" % type(after).__name__)
        if self.parent is not None:
            if not preserve_dbg_records and after._next is not self:
                self._hand_over_dbg_records()
            self.parent.instructions.remove(self)
        self.insert_after(after)

    # --- classification and queries ---------------------------------------------------
    @property
    def is_terminator(self) -> bool:
        return self.is_terminator_class

    @property
    def successors(self) -> list[BasicBlock]:
        """Successor blocks of a terminator (empty for other instructions)."""
        return []

    @property
    def num_successors(self) -> int:
        return len(self.successors)

    def get_successor(self, index: int) -> BasicBlock:
        return self.successors[index]

    def set_successor(self, index: int, block: BasicBlock) -> None:
        raise IRError("%s has no successors" % self.opcode)

    @property
    def is_commutative(self) -> bool:
        return False

    @property
    def is_associative(self) -> bool:
        return False

    @property
    def is_volatile(self) -> bool:
        return False

    @property
    def is_atomic(self) -> bool:
        return False

    def may_read_from_memory(self) -> bool:
        return False

    def may_write_to_memory(self) -> bool:
        return False

    def may_read_or_write_memory(self) -> bool:
        return self.may_read_from_memory() or self.may_write_to_memory()

    def may_throw(self) -> bool:
        return False

    def may_have_side_effects(self) -> bool:
        """LLVM ``mayHaveSideEffects``: writes memory, may throw or may not return."""
        return self.may_write_to_memory() or self.may_throw() or not self.will_return()

    def will_return(self) -> bool:
        return True

    def is_safe_to_remove(self) -> bool:
        """Removable when unused (LLVM ``isSafeToRemove``)."""
        return not self.may_have_side_effects() and not self.is_terminator and not self.is_eh_pad

    def is_identical_to(self, other: Instruction) -> bool:
        """Same opcode, type, operands, special state and optional flags (LLVM
        ``isIdenticalTo``)."""
        return self.is_identical_to_when_defined(other) and self._same_optional_data(other)

    def is_identical_to_when_defined(self, other: Instruction) -> bool:
        """LLVM ``isIdenticalToWhenDefined``: :meth:`is_identical_to` with the optional
        (poison-generating and fast-math) flags left out; a phi compares its blocks."""
        if self.opcode != other.opcode or self.type is not other.type:
            return False
        ao, bo = self._operands, other._operands
        if len(ao) != len(bo):
            return False
        for a, b in zip(ao, bo):
            if a.value is not b.value:
                return False
        return self.has_same_special_state(other)

    def is_same_operation_as(
        self, other: Instruction, *, ignore_alignment: bool = False, use_scalar_types: bool = False
    ) -> bool:
        """LLVM ``isSameOperationAs``: the same opcode, result type, operand types and
        special state; operands may differ and optional flags do not count.
        ``ignore_alignment`` and ``use_scalar_types`` are LLVM's
        ``CompareIgnoringAlignment`` and ``CompareUsingScalarTypes``."""
        if self.opcode != other.opcode:
            return False
        ao, bo = self._operands, other._operands
        if len(ao) != len(bo):
            return False
        if use_scalar_types:
            if self.type.scalar_type is not other.type.scalar_type:
                return False
            for a, b in zip(ao, bo):
                if a.value.type.scalar_type is not b.value.type.scalar_type:
                    return False
        else:
            if self.type is not other.type:
                return False
            for a, b in zip(ao, bo):
                if a.value.type is not b.value.type:
                    return False
        return self.has_same_special_state(other, ignore_alignment)

    def has_same_special_state(self, other: Instruction, ignore_alignment: bool = False) -> bool:
        """LLVM ``hasSameSpecialState``: the per-opcode properties beyond operands and
        types (predicate, orderings, alignment unless ``ignore_alignment``, indices,
        mask, call attributes...), optional flags excluded. Called with instructions
        of one opcode."""
        return True

    def _same_optional_data(self, other: Instruction) -> bool:
        """LLVM's ``SubclassOptionalData`` comparison: wrap/exact/disjoint/nneg flags,
        GEP no-wrap flags, fast-math flags. Called with instructions of one opcode."""
        return True

    # --- metadata attachments ------------------------------------------------------------
    def get_metadata(self, kind: str) -> MDNode | None:
        md = self._md
        if md is None:
            return None
        kid = self.type.context.md_kinds.get(kind)
        return md.get(kid) if kid is not None else None

    def set_metadata(self, kind: str, node: MDNode | None) -> None:
        """Attach ``node`` under ``kind`` (``"dbg"``, ``"tbaa"``, ...); None removes it."""
        kid = self.type.context.md_kind_id(kind)
        if node is None:
            if self._md is not None:
                self._md.pop(kid, None)
                if not self._md:
                    self._md = None
            return
        if self._md is None:
            self._md = {}
        self._md[kid] = node

    @property
    def has_metadata(self) -> bool:
        return bool(self._md)

    def metadata_items(self) -> list[tuple[str, MDNode]]:
        """All attachments as (kind name, node), ordered by kind id (``!dbg`` first)."""
        md = self._md
        if not md:
            return []
        names = self.type.context.md_kind_names
        return [(names[k], md[k]) for k in sorted(md)]

    def metadata_by_id(self) -> dict[int, MDNode]:
        """The attachment map itself (kind id -> node); empty when none."""
        return self._md if self._md is not None else {}

    def clear_metadata(self) -> None:
        self._md = None

    def drop_unknown_non_debug_metadata(self, keep: Sequence[str] = ()) -> None:
        """Remove every attachment but ``!dbg``, ``!DIAssignID`` (debug metadata, as LLVM keeps
        it) and the kinds in ``keep``."""
        if not self._md:
            return
        kinds = self.type.context.md_kinds
        keep_ids = {kinds[k] for k in keep if k in kinds}
        keep_ids.add(0)
        assign_id = kinds.get("DIAssignID")
        if assign_id is not None:
            keep_ids.add(assign_id)
        self._md = {k: v for k, v in self._md.items() if k in keep_ids} or None

    @property
    def debug_loc(self) -> MDNode | None:
        """The ``!dbg`` attachment (a DILocation) or None."""
        md = self._md
        return md.get(0) if md is not None else None

    @debug_loc.setter
    def debug_loc(self, loc: MDNode | None) -> None:
        self.set_metadata("dbg", loc)

    @property
    def stable_debug_loc(self) -> MDNode | None:
        """LLVM ``Instruction::getStableDebugLoc``: a debug intrinsic (``llvm.dbg.*``) stands for
        the next instruction that is not one; any other instruction gives its own location."""
        if _is_dbg_intrinsic(self):
            nxt = self.next_instruction
            while nxt is not None and _is_dbg_intrinsic(nxt):
                nxt = nxt.next_instruction
            if nxt is not None:
                return nxt.debug_loc
        return self.debug_loc

    # --- debug records -------------------------------------------------------------------
    @property
    def dbg_records(self) -> list[DbgRecord]:
        """The debug records placed just before this instruction (a copy)."""
        recs = self._dbg_records
        return list(recs) if recs else []

    def iter_dbg_records(self) -> Iterator[DbgRecord]:
        recs = self._dbg_records
        if recs:
            yield from list(recs)

    def add_dbg_record(self, record: DbgRecord, before: DbgRecord | None = None) -> None:
        """Place ``record`` before this instruction (after the existing ones, or before ``before``)."""
        if self._dbg_records is None:
            self._dbg_records = []
        if before is None:
            self._dbg_records.append(record)
        else:
            self._dbg_records.insert(self._dbg_records.index(before), record)
        record.instruction = self

    def remove_dbg_record(self, record: DbgRecord) -> None:
        recs = self._dbg_records
        if recs is None or record not in recs:
            raise IRError("debug record is not attached to this instruction")
        recs.remove(record)
        record.instruction = None
        if not recs:
            self._dbg_records = None

    def take_dbg_records(self) -> list[DbgRecord]:
        """Detach and return all records before this instruction."""
        recs = self._dbg_records or []
        self._dbg_records = None
        for r in recs:
            r.instruction = None
        return recs

    # --- copying ---------------------------------------------------------------------------
    def clone(self) -> Instruction:
        """A detached, unnamed copy with the same operands, flags and metadata
        (no debug records), as LLVM's ``Instruction::clone``."""
        copy = self._clone_impl()
        if self._md:
            copy._md = dict(self._md)
        return copy

    def _clone_impl(self) -> Instruction:
        raise IRError("%s cannot be cloned" % type(self).__name__)


def _is_dbg_intrinsic(inst: Instruction) -> bool:
    """A call of an ``llvm.dbg.*`` intrinsic (LLVM ``DbgInfoIntrinsic``)."""
    base = getattr(inst, "intrinsic_base", "")
    return isinstance(base, str) and base.startswith("llvm.dbg.")
