"""A three-way, total order over functions: LLVM's ``FunctionComparator``, the
heart of ``mergefunc``, plus :func:`explain`, which says where and why two
functions first differ.

``FunctionComparator(f, g, numbers).compare()`` returns -1, 0 or 1, and 0 exactly
when ``mergefunc`` may treat the two functions as one. The order is that of
LLVM 19's comparator, described in LLVM's "MergeFunctions pass, how it works"
document and checked against ``opt-19 -passes=mergefunc``:

* the signature: attribute lists (per index; type attributes by type, range
  and range-list attributes by value, the rest in LLVM's attribute order), GC,
  section, varargs, calling convention, function type; then the arguments are
  numbered in order;
* the bodies, walked in CFG order from the entry (successors in terminator
  order, each block once; unreachable blocks are never seen, block layout does
  not matter). Each instruction pair is compared by :meth:`cmp_operations`
  (opcode, operand count, result type, optional flags, operand types, then the
  per-opcode properties), then operand by operand with :meth:`cmp_values`;
* values: the function's own address, constants (after every non-constant),
  metadata, inline asm, then serial numbers given to values on first sight,
  so the two functions must use their values in the same pattern;
* types (:meth:`cmp_types`): a pointer in address space 0 is the DataLayout's
  pointer-sized integer, so ``ptr`` and ``i64`` compare equal on a 64-bit
  target (the merge pass inserts casts); constants with
  :func:`~llvmpy_mid.transform.utils.function_comparator_constants.cmp_constants`;
  globals by :class:`GlobalNumberState`.

Safer than LLVM 19 (which merges functions that behave differently):

* a function's own address is "the same" in both functions only as the callee
  of a call and inside ``blockaddress``; anywhere else (stored, compared,
  passed) the two own addresses differ (ordered by global number), so ``f``
  comparing its address with ``@f`` is not ``g`` comparing with ``@g``;
  an own address still orders before any other value, as in LLVM 19;
* ``getelementptr`` flags (inbounds, nusw, nuw) are compared (LLVM 19 ignores
  them), as are every other poison-generating and fast-math flag (LLVM 19
  does, through the optional-flags word);
* ``!kcfi_type`` on the functions is compared;
* metadata nodes are compared structurally (LLVM 19 treats any two nodes that
  are neither strings nor constants as equal): load attachments, call
  ``!range`` and metadata arguments;
* also compared, though LLVM 19 does not: the callee's function type of a call,
  the ``unwind`` flag of inline asm, cmpxchg / atomicrmw alignment, alloca
  ``inalloca`` / ``swifterror``, landingpad ``cleanup``, callbr's indirect
  destination count, a GEP's result type, target extension types.

The per-opcode checks and ``cmpGEPs`` live in :mod:`function_comparator_operations`,
constants and metadata in :mod:`function_comparator_constants`.

Speed: a comparator does no module-wide work; per call it builds two small
serial-number dicts. Every walk is iterative (explicit stacks), so deep CFGs
and deeply nested constants or types do not overflow Python's stack.

What it does not do: decide which function survives or rewrite anything (the
``mergefunc`` pass does); compare debug-info (``!dbg``) or metadata of
instructions other than loads and calls (as LLVM 19).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import attrs

from llvmpy_mid.ir.attributes import AttributeList
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import Constant, ConstantFP
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalValue
from llvmpy_mid.ir.inline_asm import InlineAsm
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.metadata import MDNode, MetadataAsValue
from llvmpy_mid.ir.types import (
    ArrayType,
    FunctionType,
    IntegerType,
    PointerType,
    StructType,
    TargetExtType,
    Type,
    TypeID,
    VectorType,
)
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils import function_comparator_constants as _consts
from llvmpy_mid.transform.utils import function_comparator_operations as _ops
from llvmpy_mid.transform.utils.function_comparator_constants import FP_SEMANTICS, OPCODE_NUMBERS
from llvmpy_mid.transform.utils.function_comparator_operations import optional_word, special_state

if TYPE_CHECKING:
    from llvmpy_mid.ir.metadata import Metadata

__all__ = ["GlobalNumberState", "FunctionComparator", "Difference", "explain"]

_POINTER = TypeID.POINTER
_INTEGER = TypeID.INTEGER
_STRUCT = TypeID.STRUCT
_FUNCTION = TypeID.FUNCTION
_ARRAY = TypeID.ARRAY
_FIXED_VECTOR = TypeID.FIXED_VECTOR
_SCALABLE_VECTOR = TypeID.SCALABLE_VECTOR
_TARGET_EXT = TypeID.TARGET_EXT



def _sign(a: object, b: object) -> int:
    return -1 if a < b else (1 if a > b else 0)  # type: ignore[operator]


class GlobalNumberState:
    """Numbers globals on first sight (LLVM ``GlobalNumberState``).

    The number of a global never changes: it is keyed by the object, so a
    global replaced by ``replace_all_uses_with`` keeps its number and its
    replacement gets a new one (the map does not follow RAUW). Shared by every
    comparator of one ``mergefunc`` run so that the order stays consistent.
    """

    __slots__ = ("_numbers", "_next", "_nodes")

    def __init__(self) -> None:
        self._numbers: dict[GlobalValue, int] = {}
        self._next = 0
        self._nodes: dict[MDNode, int] = {}

    def get_node_number(self, node: MDNode) -> int:
        """A sticky first-sight number for a ``distinct`` metadata node (orders two such nodes)."""
        number = self._nodes.get(node)
        if number is None:
            number = self._nodes[node] = len(self._nodes)
        return number

    def get_number(self, gv: GlobalValue) -> int:
        number = self._numbers.get(gv)
        if number is None:
            number = self._numbers[gv] = self._next
            self._next += 1
        return number

    def erase(self, gv: GlobalValue) -> None:
        """Forget ``gv`` (it is being deleted)."""
        self._numbers.pop(gv, None)

    def clear(self) -> None:
        self._numbers.clear()
        self._nodes.clear()

    def __len__(self) -> int:
        return len(self._numbers)


@attrs.frozen
class Difference:
    """Where and why two functions first differ (see :func:`explain`)."""

    rule: str
    """The comparator rule that decided, e.g. ``"cmpOperations: load alignment"``."""
    detail: str
    """A sentence such as ``"align 4 vs align 8"``."""
    block: str | None = None
    """The label of the block of the first function (``"%entry"``, ``"%3"``)."""
    instruction: str | None = None
    """The first function's instruction."""
    other_instruction: str | None = None
    """The second function's instruction."""
    operand: int | None = None
    """The operand index, when an operand decided."""

    def __str__(self) -> str:
        head = "%s: %s" % (self.rule, self.detail) if self.detail else self.rule
        where: list[str] = []
        if self.block is not None:
            where.append("in block %s" % self.block)
        if self.operand is not None:
            where.append("operand %d" % self.operand)
        if self.instruction is not None:
            where.append("at '%s'" % self.instruction)
        if self.other_instruction is not None:
            where.append("vs '%s'" % self.other_instruction)
        if where:
            return head + "\n  " + " ".join(where)
        return head


class _Record:
    """The first deciding rule of an explained comparison, and where it was."""

    __slots__ = ("rule", "detail", "block", "inst_l", "inst_r", "operand", "placed")

    def __init__(self, rule: str, detail: str) -> None:
        self.rule = rule
        self.detail = detail
        self.block: BasicBlock | None = None
        self.inst_l: Instruction | None = None
        self.inst_r: Instruction | None = None
        self.operand: int | None = None
        self.placed = False


class FunctionComparator:
    """Compares two functions (LLVM ``FunctionComparator``); see the module docstring.

    ``compare()`` may be called more than once; each call starts afresh.
    """

    __slots__ = (
        "fn_l",
        "fn_r",
        "global_numbers",
        "_sn_l",
        "_sn_r",
        "_intptr",
        "_dl",
        "_explaining",
        "_record",
        "_positions",
    )

    def __init__(self, f1: Function, f2: Function, gn: GlobalNumberState) -> None:
        self.fn_l = f1
        self.fn_r = f2
        self.global_numbers = gn
        self._sn_l: dict[Value, int] = {}
        self._sn_r: dict[Value, int] = {}
        module = f1.parent
        self._dl: DataLayout | None = module.data_layout if module is not None else None
        dl = self._dl if self._dl is not None else DataLayout.default()
        self._intptr: Type = f1.type.context.int_type(dl.pointer_size_in_bits(0))
        self._explaining = False
        self._record: _Record | None = None
        self._positions: dict[Function, dict[BasicBlock, int]] | None = None

    @property
    def data_layout(self) -> DataLayout:
        dl = self._dl
        if dl is None:
            dl = self._dl = DataLayout.default()
        return dl

    # --- explanation plumbing ------------------------------------------------------------------
    def _cmp_distinct_argument(
        self, md_l: object, md_r: object, dist_l: bool, dist_r: bool, l: Value, r: Value
    ) -> int:
        """A ``distinct`` node given as a metadata argument: opt-19 merges over none, not even
        the same node in both functions (LLVM's CFI type tests rely on that). Ordered by the
        node's first-sight number, then by the two functions' global numbers, so the order
        stays total (reflexive for a function against itself)."""
        if dist_l != dist_r:
            return self._fail(1 if dist_l else -1, "cmpValues: distinct metadata argument", "distinct vs uniqued", l, r)
        if self.fn_l is self.fn_r:
            return 0
        gn = self.global_numbers
        res = _sign(gn.get_node_number(cast(MDNode, md_l)), gn.get_node_number(cast(MDNode, md_r)))
        if not res:
            res = _sign(gn.get_number(self.fn_l), gn.get_number(self.fn_r))
        return self._fail(res, "cmpValues: distinct metadata argument", "a distinct node is never merged over", l, r)

    def _fail(self, res: int, rule: str, detail: str, l: object = None, r: object = None) -> int:
        """Return ``res``; when explaining, record the first (innermost) deciding rule."""
        if self._explaining and self._record is None:
            self._record = _Record(rule, detail)
        return res

    def _place(self, block: BasicBlock | None, il: Instruction | None, ir: Instruction | None, op: int | None) -> None:
        rec = self._record
        if rec is not None and not rec.placed:
            rec.placed = True
            rec.block = block
            rec.inst_l = il
            rec.inst_r = ir
            rec.operand = op

    # --- the driver ----------------------------------------------------------------------------
    def compare(self) -> int:
        """-1, 0 or 1: the order of the two functions."""
        self._sn_l.clear()
        self._sn_r.clear()
        self._record = None
        res = self.cmp_signature()
        if res:
            return res
        fl = self.fn_l
        fr = self.fn_r
        entry_l = fl.blocks.first
        entry_r = fr.blocks.first
        if entry_l is None or entry_r is None:
            if entry_l is None and entry_r is None:
                return 0
            return self._fail(-1 if entry_l is None else 1, "compare: body", "declaration vs definition")
        # CFG-ordered walk from the entry; visited is in terms of the left function.
        stack_l: list[BasicBlock] = [entry_l]
        stack_r: list[BasicBlock] = [entry_r]
        visited: set[BasicBlock] = {entry_l}
        while stack_l:
            bl = stack_l.pop()
            br = stack_r.pop()
            res = self.cmp_values(bl, br)
            if res:
                self._place(bl, None, None, None)
                return res
            res = self.cmp_basic_blocks(bl, br)
            if res:
                return res
            tl = bl.instructions.last
            tr = br.instructions.last
            succ_l = tl.successors if tl is not None else []
            succ_r = tr.successors if tr is not None else []
            if len(succ_l) != len(succ_r):  # cannot happen after equal terminators
                return self._fail(_sign(len(succ_l), len(succ_r)), "compare: successor count", "")
            for i in range(len(succ_l)):
                s = succ_l[i]
                if s in visited:
                    continue
                visited.add(s)
                stack_l.append(s)
                stack_r.append(succ_r[i])
        return 0

    def cmp_signature(self) -> int:
        """LLVM ``compareSignature``, then the arguments numbered in order."""
        fl = self.fn_l
        fr = self.fn_r
        if fl is fr:
            return 0
        res = self.cmp_attrs(fl.attributes, fr.attributes)
        if res:
            return res
        gl = fl.gc
        gr = fr.gc
        if bool(gl) != bool(gr):
            return self._fail(_sign(bool(gl), bool(gr)), "compareSignature: GC", "gc %r vs gc %r" % (gl, gr))
        if gl:
            res = self.cmp_mem(gl, gr)
            if res:
                return self._fail(res, "compareSignature: GC", "gc %r vs gc %r" % (gl, gr))
        sl = fl.section or ""
        sr = fr.section or ""
        if bool(sl) != bool(sr):
            return self._fail(_sign(bool(sl), bool(sr)), "compareSignature: section", "%r vs %r" % (sl, sr))
        if sl:
            res = self.cmp_mem(sl, sr)
            if res:
                return self._fail(res, "compareSignature: section", "%r vs %r" % (sl, sr))
        vl = fl.function_type.is_vararg
        vr = fr.function_type.is_vararg
        if vl != vr:
            return self._fail(_sign(vl, vr), "compareSignature: varargs", "varargs %s vs %s" % (vl, vr))
        if fl.calling_conv != fr.calling_conv:
            return self._fail(
                _sign(fl.calling_conv, fr.calling_conv),
                "compareSignature: calling convention",
                "cc %d vs cc %d" % (fl.calling_conv, fr.calling_conv),
            )
        res = self.cmp_types(fl.function_type, fr.function_type)
        if res:
            return res
        # Safer than LLVM 19: the CFI type id.
        res = _consts.cmp_md_nodes(self, fl.get_metadata("kcfi_type"), fr.get_metadata("kcfi_type"))
        if res:
            rec = self._record
            if rec is not None and not rec.placed:
                rec.rule = "compareSignature: !kcfi_type"
            return res
        # Safer than LLVM 19: personality, prefix and prologue data.
        for what, cl, cr in (
            ("personality", fl.personality, fr.personality),
            ("prefix data", fl.prefix_data, fr.prefix_data),
            ("prologue data", fl.prologue_data, fr.prologue_data),
        ):
            if cl is cr:
                continue
            if cl is None or cr is None:
                return self._fail(
                    -1 if cl is None else 1, "compareSignature: " + what, "absent vs present" if cl is None else "present vs absent"
                )
            res = self.cmp_constants(cl, cr)
            if res:
                rec = self._record
                if rec is not None and not rec.placed:
                    rec.detail = "%s (%s)" % (rec.detail, rec.rule)
                    rec.rule = "compareSignature: " + what
                return res
        # Number the arguments in order (they always match here).
        for al, ar in zip(fl.args, fr.args):
            res = self.cmp_values(al, ar)
            if res:
                return res
        return 0

    # --- numbers, strings, integers, floats -------------------------------------------------------
    @staticmethod
    def cmp_numbers(l: int, r: int) -> int:
        return _sign(l, r)

    @staticmethod
    def cmp_mem(l: str | bytes, r: str | bytes) -> int:
        """Strings by length first, then contents (LLVM ``cmpMem``)."""
        if len(l) != len(r):
            return -1 if len(l) < len(r) else 1
        if isinstance(l, str):
            lb = l.encode("utf-8", "surrogateescape")
        else:
            lb = l
        if isinstance(r, str):
            rb = r.encode("utf-8", "surrogateescape")
        else:
            rb = r
        return -1 if lb < rb else (1 if lb > rb else 0)

    @staticmethod
    def cmp_aps_ints(width_l: int, value_l: int, width_r: int, value_r: int) -> int:
        """Integers by bit width, then as unsigned values (LLVM ``cmpAPInts``)."""
        if width_l != width_r:
            return -1 if width_l < width_r else 1
        return -1 if value_l < value_r else (1 if value_l > value_r else 0)

    def cmp_ap_floats(self, l: ConstantFP, r: ConstantFP) -> int:
        """Floats by semantics (precision, exponent range, size), then bits."""
        sl = FP_SEMANTICS.get(l.type.type_id, (0, 0, 0, 0))
        sr = FP_SEMANTICS.get(r.type.type_id, (0, 0, 0, 0))
        if sl != sr:
            return self._fail(_sign(sl, sr), "cmpAPFloats: semantics", "%s vs %s" % (l.type, r.type), l, r)
        if l.bits != r.bits:
            return self._fail(
                _sign(l.bits, r.bits), "cmpAPFloats: value", "bits %#x vs %#x" % (l.bits, r.bits), l, r
            )
        return 0

    # --- attributes ----------------------------------------------------------------------------
    def cmp_attrs(self, l: AttributeList, r: AttributeList) -> int:
        """Attribute lists set by set (LLVM ``cmpAttrs``): type attributes by
        :meth:`cmp_types`, range and range-list attributes by value, the rest in
        LLVM's attribute order."""
        return _ops.cmp_attrs(self, l, r)

    # --- types -------------------------------------------------------------------------------------
    def cmp_types(self, l: Type, r: Type) -> int:
        """Three-way comparison of two types (LLVM ``cmpTypes``)."""
        return self._types(l, r, True)

    def _types(self, left: Type, right: Type, record: bool = False) -> int:
        if left is right:
            return 0
        intptr = self._intptr
        stack: list[tuple[Type, Type]] = [(left, right)]
        while stack:
            a, b = stack.pop()
            ida = a.type_id
            idb = b.type_id
            if ida is _POINTER and cast(PointerType, a).address_space == 0:
                a = intptr
                ida = _INTEGER
            if idb is _POINTER and cast(PointerType, b).address_space == 0:
                b = intptr
                idb = _INTEGER
            if a is b:
                continue
            if ida is not idb:
                return self._type_fail(record, _sign(int(ida), int(idb)), "type kind", left, right)
            if ida is _INTEGER:
                wa = cast(IntegerType, a).width
                wb = cast(IntegerType, b).width
                if wa != wb:
                    return self._type_fail(record, _sign(wa, wb), "integer width", left, right)
            elif ida is _POINTER:
                sa = cast(PointerType, a).address_space
                sb = cast(PointerType, b).address_space
                if sa != sb:
                    return self._type_fail(record, _sign(sa, sb), "address space", left, right)
            elif ida is _STRUCT:
                sta = cast(StructType, a)
                stb = cast(StructType, b)
                ea = sta.elements
                eb = stb.elements
                if len(ea) != len(eb):
                    return self._type_fail(record, _sign(len(ea), len(eb)), "struct element count", left, right)
                if sta.packed != stb.packed:
                    return self._type_fail(record, _sign(sta.packed, stb.packed), "struct packing", left, right)
                for i in range(len(ea) - 1, -1, -1):
                    stack.append((ea[i], eb[i]))
            elif ida is _FUNCTION:
                fa = cast(FunctionType, a)
                fb = cast(FunctionType, b)
                pa = fa.params
                pb = fb.params
                if len(pa) != len(pb):
                    return self._type_fail(record, _sign(len(pa), len(pb)), "parameter count", left, right)
                if fa.is_vararg != fb.is_vararg:
                    return self._type_fail(record, _sign(fa.is_vararg, fb.is_vararg), "varargs", left, right)
                for i in range(len(pa) - 1, -1, -1):
                    stack.append((pa[i], pb[i]))
                stack.append((fa.return_type, fb.return_type))
            elif ida is _ARRAY:
                aa = cast(ArrayType, a)
                ab = cast(ArrayType, b)
                if aa.count != ab.count:
                    return self._type_fail(record, _sign(aa.count, ab.count), "array length", left, right)
                stack.append((aa.element_type, ab.element_type))
            elif ida is _FIXED_VECTOR or ida is _SCALABLE_VECTOR:
                va = cast(VectorType, a)
                vb = cast(VectorType, b)
                if va.count != vb.count:
                    return self._type_fail(record, _sign(va.count, vb.count), "vector length", left, right)
                stack.append((va.element_type, vb.element_type))
            elif ida is _TARGET_EXT:
                xa = cast(TargetExtType, a)
                xb = cast(TargetExtType, b)
                res = self.cmp_mem(xa.name, xb.name)
                if not res:
                    res = _sign(len(xa.type_params), len(xb.type_params))
                if not res:
                    res = _sign(len(xa.int_params), len(xb.int_params))
                if not res:
                    res = _sign(xa.int_params, xb.int_params)
                if res:
                    return self._type_fail(record, res, "target extension type", left, right)
                for i in range(len(xa.type_params) - 1, -1, -1):
                    stack.append((xa.type_params[i], xb.type_params[i]))
            # Other kinds have no parameters: equal kinds are equal types.
        return 0

    def _type_fail(self, record: bool, res: int, aspect: str, l: Type, r: Type) -> int:
        if record:
            return self._fail(res, "cmpTypes: " + aspect, "%s vs %s" % (l, r))
        return res

    # --- values --------------------------------------------------------------------------------------
    def cmp_global_values(self, l: GlobalValue, r: GlobalValue) -> int:
        """Globals by their sticky first-visit numbers."""
        if l is r:
            return 0
        gn = self.global_numbers
        nl = gn.get_number(l)
        nr = gn.get_number(r)
        if nl != nr:
            return self._fail(
                _sign(nl, nr), "cmpGlobalValues: global number", "%s vs %s" % (_global_ref(l), _global_ref(r)), l, r
            )
        return 0

    def _cmp_own_address(self, l: Value, r: Value) -> int:
        """A function's own address outside a call target or ``blockaddress``.
        As in LLVM 19 it orders before any other value; safer than LLVM 19, the
        two functions' own addresses are not the same value (LLVM 19 treats them
        as equal everywhere, and merges functions that compare their address)."""
        sl = l is self.fn_l
        sr = r is self.fn_r
        if sl and sr:
            if l is r:
                return 0
            return self._fail(
                _sign(self.global_numbers.get_number(self.fn_l), self.global_numbers.get_number(self.fn_r)),
                "cmpValues: own address",
                "%s and %s use their own address outside a call" % (_ref(l), _ref(r)),
                l,
                r,
            )
        return self._fail(-1 if sl else 1, "cmpValues: self-reference", "%s vs %s" % (_ref(l), _ref(r)), l, r)

    def _cmp_self_or_global(self, l: Value, r: Value) -> int:
        """Self-reference first (the function compared stands for itself), then
        as globals: the rule for call targets and ``blockaddress`` functions."""
        sl = l is self.fn_l
        sr = r is self.fn_r
        if sl or sr:
            if sl and sr:
                return 0
            return self._fail(-1 if sl else 1, "cmpValues: self-reference", "own address vs another value", l, r)
        return self.cmp_values(l, r)

    def cmp_values(self, l: Value, r: Value) -> int:
        """Three-way comparison of two operands (LLVM ``cmpValues``)."""
        if l is self.fn_l or r is self.fn_r:
            return self._cmp_own_address(l, r)
        if l.is_constant:
            if r.is_constant:
                if l is r:
                    return 0
                return self.cmp_constants(cast(Constant, l), cast(Constant, r))
            return self._fail(1, "cmpValues: constant vs non-constant", "%s vs %s" % (_ref(l), _ref(r)), l, r)
        if r.is_constant:
            return self._fail(-1, "cmpValues: constant vs non-constant", "%s vs %s" % (_ref(l), _ref(r)), l, r)
        ml = l.is_metadata_as_value
        mr = r.is_metadata_as_value
        if ml or mr:
            if ml and mr:
                md_l = cast(MetadataAsValue, l).metadata
                md_r = cast(MetadataAsValue, r).metadata
                dist_l = isinstance(md_l, MDNode) and md_l.is_distinct
                dist_r = isinstance(md_r, MDNode) and md_r.is_distinct
                if dist_l or dist_r:
                    return self._cmp_distinct_argument(md_l, md_r, dist_l, dist_r, l, r)
                if l is r:
                    return 0
                return _consts.cmp_metadata(self, md_l, md_r)
            return self._fail(1 if ml else -1, "cmpValues: metadata vs value", "", l, r)
        al = l.is_inline_asm
        ar = r.is_inline_asm
        if al or ar:
            if al and ar:
                return self.cmp_inline_asm(cast(InlineAsm, l), cast(InlineAsm, r))
            return self._fail(1 if al else -1, "cmpValues: inline asm vs value", "", l, r)
        sn_l = self._sn_l
        sn_r = self._sn_r
        nl = sn_l.get(l)
        if nl is None:
            nl = sn_l[l] = len(sn_l)
        nr = sn_r.get(r)
        if nr is None:
            nr = sn_r[r] = len(sn_r)
        if nl != nr:
            return self._fail(
                _sign(nl, nr), "cmpValues: serial number", "%s vs %s used in different places" % (_ref(l), _ref(r)), l, r
            )
        return 0

    def cmp_constants(self, l: Constant, r: Constant) -> int:
        """Three-way comparison of two constants (LLVM ``cmpConstants``)."""
        return _consts.cmp_constants(self, l, r)

    def cmp_inline_asm(self, l: InlineAsm, r: InlineAsm) -> int:
        """Inline asm by type, template, constraints, then flags (unwind too, safer than LLVM 19)."""
        return _ops.cmp_inline_asm(self, l, r)

    # --- metadata --------------------------------------------------------------------------------------
    def cmp_range_metadata(self, l: MDNode | None, r: MDNode | None) -> int:
        """``!range`` (and any attached node): absent first, then structurally."""
        return _consts.cmp_md_nodes(self, l, r)

    def cmp_metadata(self, l: Metadata | None, r: Metadata | None) -> int:
        return _consts.cmp_metadata(self, l, r)

    def cmp_inst_metadata(self, l: Instruction, r: Instruction) -> int:
        """Every attachment but ``!dbg``: count, then kind ids, then nodes (LLVM 19 on loads)."""
        md_l = l.metadata_by_id()
        md_r = r.metadata_by_id()
        if not md_l and not md_r:
            return 0
        keys_l = sorted(k for k in md_l if k != _ops.MD_DBG)
        keys_r = sorted(k for k in md_r if k != _ops.MD_DBG)
        if len(keys_l) != len(keys_r):
            return self._fail(
                _sign(len(keys_l), len(keys_r)),
                "cmpOperations: load metadata",
                "%d vs %d attachments" % (len(keys_l), len(keys_r)),
            )
        names = l.type.context.md_kind_names
        for kl, kr in zip(keys_l, keys_r):
            if kl != kr:
                return self._fail(_sign(kl, kr), "cmpOperations: load metadata", "!%s vs !%s" % (names[kl], names[kr]))
            res = _consts.cmp_md_nodes(self, md_l[kl], md_r[kr])
            if res:
                rec = self._record
                if rec is not None and not rec.placed:
                    rec.detail = "!%s differs (%s: %s)" % (names[kl], rec.rule, rec.detail)
                    rec.rule = "cmpOperations: load metadata"
                return res
        return 0

    def cmp_operand_bundles(self, l: CallBase, r: CallBase) -> int:
        """The bundle schema: count, then each tag and input count (inputs are operands)."""
        bl = l.operand_bundle_ranges
        br = r.operand_bundle_ranges
        if bl == br:
            return 0
        if len(bl) != len(br):
            return self._fail(_sign(len(bl), len(br)), "cmpOperandBundles: count", "%d vs %d" % (len(bl), len(br)))
        for (tl, sl, el), (tr, sr, er) in zip(bl, br):
            res = _sign(tl, tr)
            if res:
                return self._fail(res, "cmpOperandBundles: tag", "%r vs %r" % (tl, tr))
            res = _sign(el - sl, er - sr)
            if res:
                return self._fail(res, "cmpOperandBundles: input count", "%d vs %d" % (el - sl, er - sr))
        return 0

    # --- blocks and instructions ---------------------------------------------------------------------------
    def cmp_basic_blocks(self, bl: BasicBlock, br: BasicBlock) -> int:
        """Instruction by instruction, then operand by operand."""
        il = bl.instructions.first
        ir = br.instructions.first
        cmp_operations = self.cmp_operations
        cmp_values = self.cmp_values
        fn_l = self.fn_l
        fn_r = self.fn_r
        while il is not None and ir is not None:
            res = cmp_operations(il, ir)
            if res:
                self._place(bl, il, ir, None)
                return res
            if il.opcode != "getelementptr":  # cmp_geps compared a GEP's operands
                ops_l = il._operands
                ops_r = ir._operands
                n = len(ops_l)
                callee = n - 1 if il.is_call_base else -1
                for i in range(n):
                    vl = ops_l[i].value
                    vr = ops_r[i].value
                    if vl is vr and i != callee and vl.is_constant and vl is not fn_l and vl is not fn_r:
                        continue  # the same constant on both sides
                    if i == callee:
                        res = self._cmp_self_or_global(vl, vr)
                    else:
                        res = cmp_values(vl, vr)
                    if res:
                        self._place(bl, il, ir, i)
                        return res
            il = il._next
            ir = ir._next
        if il is not None:
            res = self._fail(1, "cmpBasicBlocks: block length", "the first block is longer")
            self._place(bl, il, None, None)
            return res
        if ir is not None:
            res = self._fail(-1, "cmpBasicBlocks: block length", "the second block is longer")
            self._place(bl, None, ir, None)
            return res
        return 0

    def cmp_operations(self, l: Instruction, r: Instruction) -> int:
        """Everything about two instructions but their operand values (LLVM
        ``cmpOperations``; for a GEP the operands too, through :meth:`cmp_geps`)."""
        # Number the two instructions (what cmpValues does for them).
        sn_l = self._sn_l
        sn_r = self._sn_r
        nl = sn_l.get(l)
        if nl is None:
            nl = sn_l[l] = len(sn_l)
        nr = sn_r.get(r)
        if nr is None:
            nr = sn_r[r] = len(sn_r)
        if nl != nr:
            return self._fail(
                _sign(nl, nr), "cmpValues: serial number", "%s vs %s used in different places" % (_ref(l), _ref(r))
            )
        if type(l) is not type(r):
            ol = OPCODE_NUMBERS.get(l.opcode, 0)
            orr = OPCODE_NUMBERS.get(r.opcode, 0)
            if ol != orr:
                return self._fail(_sign(ol, orr), "cmpOperations: opcode", "%s vs %s" % (l.opcode, r.opcode))
        if l.opcode == "getelementptr":
            gl = cast(GetElementPtrInst, l)
            gr = cast(GetElementPtrInst, r)
            res = self.cmp_values(gl._operands[0].value, gr._operands[0].value)
            if res:
                self._place_operand(0)
                return res
            return self.cmp_geps(gl, gr)
        ops_l = l._operands
        ops_r = r._operands
        if len(ops_l) != len(ops_r):
            return self._fail(
                _sign(len(ops_l), len(ops_r)), "cmpOperations: operand count", "%d vs %d" % (len(ops_l), len(ops_r))
            )
        res = self._types(l.type, r.type)
        if res:
            return self._fail(res, "cmpOperations: result type", "%s vs %s" % (l.type, r.type))
        wl = optional_word(l)
        wr = optional_word(r)
        if wl != wr:
            return self._fail(_sign(wl, wr), "cmpOperations: flags", "%s vs %s" % (_ops.flag_text(l), _ops.flag_text(r)))
        types = self._types
        for i in range(len(ops_l)):
            ta = ops_l[i].value.type
            tb = ops_r[i].value.type
            if ta is not tb:
                res = types(ta, tb)
                if res:
                    self._fail(res, "cmpOperations: operand type", "operand %d: %s vs %s" % (i, ta, tb))
                    self._place_operand(i)
                    return res
        return special_state(self, l, r)

    def _place_operand(self, index: int) -> None:
        rec = self._record
        if rec is not None and rec.operand is None:
            rec.operand = index

    def cmp_geps(self, l: GetElementPtrInst, r: GetElementPtrInst) -> int:
        """GEPs by address space, then accumulated constant byte offsets when
        both have constant indices, else by source type and operands; then (safer
        than LLVM 19) the result type and the flags."""
        return _ops.cmp_geps(self, l, r)

    # --- helpers used by the constants module --------------------------------------------------------
    def _block_positions(self, fn: Function) -> dict[BasicBlock, int]:
        cache = self._positions
        if cache is None:
            cache = self._positions = {}
        pos = cache.get(fn)
        if pos is None:
            pos = cache[fn] = {bb: i for i, bb in enumerate(fn.blocks)}
        return pos


# --- free helpers ------------------------------------------------------------------------------------------

def _global_ref(gv: GlobalValue) -> str:
    return "@" + gv.name if gv.name else "@<unnamed>"


def _ref(v: Value) -> str:
    if v.is_global_value:
        return _global_ref(cast(GlobalValue, v))
    if v.name:
        return "%" + v.name
    return type(v).__name__


# --- explain -------------------------------------------------------------------------------------------------


def explain(f: Function, g: Function, gn: GlobalNumberState | None = None) -> Difference | None:
    """Where and why ``f`` and ``g`` first differ for the comparator, or None
    when they compare equal. Runs exactly the comparison :meth:`compare` runs."""
    fc = FunctionComparator(f, g, gn if gn is not None else GlobalNumberState())
    fc._explaining = True
    res = fc.compare()
    if res == 0:
        return None
    rec = fc._record
    if rec is None:  # every failing path records; keep a fallback all the same
        return Difference("compare", "the functions differ")
    return _to_difference(f, g, rec)


def _to_difference(f: Function, g: Function, rec: _Record) -> Difference:
    import llvmpy_mid.asm  # noqa: F401  (installs the instruction printer)
    from llvmpy_mid.ir._printing import diagnostic_writer

    block: str | None = None
    inst_l: str | None = None
    inst_r: str | None = None
    if rec.block is not None or rec.inst_l is not None or rec.inst_r is not None:
        writer_l = diagnostic_writer(f.parent)
        if rec.block is not None:
            text = writer_l.operand(rec.block)
            block = text[6:] if text.startswith("label ") else text
        if rec.inst_l is not None:
            inst_l = writer_l.instruction(rec.inst_l).strip()
        if rec.inst_r is not None:
            writer_r = writer_l if g.parent is f.parent else diagnostic_writer(g.parent)
            inst_r = writer_r.instruction(rec.inst_r).strip()
    return Difference(rec.rule, rec.detail, block, inst_l, inst_r, rec.operand)

