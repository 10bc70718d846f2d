"""``mergefunc``: finds functions that behave identically and folds them into one
(LLVM 19's ``MergeFunctionsPass``).

How (LLVM's design, see ``docs/MergeFunctions.rst`` upstream):

1. Every eligible function (a definition that is not ``available_externally``)
   is hashed with :func:`structural_hash`; the list is sorted by hash (stable,
   so module order breaks ties) and only functions whose hash equals a
   neighbour's are queued: a function with a unique hash cannot be equal to
   another one and is never compared.
2. The queue (the *Deferred* list) is processed in rounds until it is empty. In
   a round each queued function that still exists is looked up in the *FnTree*:
   a :class:`sortedcontainers.SortedList` of nodes ordered by (hash,
   :class:`FunctionComparator`), so a lookup costs O(log N) comparisons. A
   function without an equal is inserted. Removal from the tree is by identity:
   a dict maps each function to its node, and nodes in the tree carry integer
   ranks that follow the tree order, so removing a node compares ranks, never
   functions (the functions may have changed since they were inserted).
3. When an equal function is found, the survivor is chosen as LLVM 19 chooses:
   a non-interposable one before an interposable one, then an external one
   before a local one, then the smaller name. (LLVM 19 queues strong and weak
   functions in one pass, hash order; "strong before weak" is this choice
   alone: two weak functions met before a strong equal one get a private body
   that is later folded into the strong one, as opt-19 does. ODR linkage plays
   no part in LLVM 19.) The survivor stays in the tree
   (swapped into the node if it was the newcomer) and the other one, G, is
   merged into it by ``mergeTwoFunctions``:

   * both interposable: F's body moves into a new private unnamed function
     (F itself, renamed and made private, alignment the maximum of both),
     and F's and G's names become thunks (or aliases) to it;
   * otherwise, if G is not interposable, G is replaced everywhere (RAUW) when it
     has global ``unnamed_addr`` and is not in ``llvm.used`` /
     ``llvm.compiler.used``, else only its direct callers are redirected; a
     discardable G left without uses is erased, any other G becomes a thunk
     calling F (or, with ``-mergefunc-use-aliases`` and global
     ``unnamed_addr``, an alias of F).

   Before any replacement the functions that use the replaced function are
   taken out of the tree and queued for the next round ("removeUsers"), so no
   function changes while it sits in the tree.

Thunks are not written for varargs functions or for one-block functions of
fewer than two instructions; a thunk is a new function that takes G's name,
linkage, comdat, attributes and ``!type``/``!kcfi_type`` metadata and
tail-calls F with F's calling convention and attributes (see
``merge_functions_thunks``).

Options (``llvmpy_mid.passes.options.OPTIONS``): ``-mergefunc-use-aliases``,
``-mergefunc-preserve-debug-info`` (thunks are written in place of G, keeping the
debug records of its parameters; callers are not redirected and G is never
erased), ``-mergefunc-verify=N`` (checks antisymmetry and transitivity of the
comparator over the first N queued functions of each round and reports
violations to stderr) and ``-mergefunc-explain`` (ours: for each pair of
functions with equal hashes that the comparator tells apart, prints where and
why they differ). Statistics: ``NumFunctionsMerged``, ``NumThunksWritten``,
``NumAliasesWritten``, ``NumDoubleWeak``.

What it does not do: merge functions that are merely similar (parameterising
differences); the COFF-specific alias restrictions of later LLVM versions.
Where LLVM 19 merges functions that are not equivalent (see
``transform/utils/function_comparator.py``) the comparator keeps them apart.
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO, cast

from sortedcontainers import SortedList  # type: ignore[import-untyped]

from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalAlias, GlobalValue, Linkage, UnnamedAddr
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.structural_hash import structural_hash
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ipo.merge_functions_thunks import (
    build_forwarding_body,
    can_create_thunk_for,
    copy_cfi_metadata,
    pdi_debug_loc,
    prepare_pdi_thunk,
)
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes import registry as _registry  # noqa: F401  (declares the mergefunc options)
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.function_comparator import FunctionComparator, GlobalNumberState, explain

__all__ = [
    "MergeFunctions",
    "MergeFunctionsPass",
    "NUM_ALIASES_WRITTEN",
    "NUM_DOUBLE_WEAK",
    "NUM_FUNCTIONS_MERGED",
    "NUM_THUNKS_WRITTEN",
    "merge_functions",
]

NUM_FUNCTIONS_MERGED = Statistic("mergefunc", "NumFunctionsMerged", "Number of functions merged")
NUM_THUNKS_WRITTEN = Statistic("mergefunc", "NumThunksWritten", "Number of thunks generated")
NUM_ALIASES_WRITTEN = Statistic("mergefunc", "NumAliasesWritten", "Number of aliases generated")
NUM_DOUBLE_WEAK = Statistic("mergefunc", "NumDoubleWeak", "Number of new functions created")

# Spacing of the ranks given to tree nodes; a new node takes the midpoint of its
# neighbours' ranks, and all ranks are spread out again when a gap is used up.
_RANK_GAP = 1 << 32


class _FunctionNode:
    """One function in the FnTree: the function, its hash, and (while in the
    tree) its rank. Two ranked nodes compare by rank; a lookup probe (no rank)
    compares by hash, then with the function comparator."""

    __slots__ = ("fn", "hash", "rank", "engine")

    def __init__(self, fn: Function, hash_: int, engine: MergeFunctions) -> None:
        self.fn = fn
        self.hash = hash_
        self.rank: int | None = None
        self.engine = engine

    def __lt__(self, other: _FunctionNode) -> bool:
        a = self.rank
        b = other.rank
        if a is not None and b is not None:
            return a < b
        if self.hash != other.hash:
            return self.hash < other.hash
        return self.engine._probe_less(self, other)

    def __repr__(self) -> str:
        return "<FunctionNode @%s %016x rank=%s>" % (self.fn.name, self.hash, self.rank)


def _used_globals(module: Module) -> set[GlobalValue]:
    """The globals listed in ``llvm.used`` and ``llvm.compiler.used``."""
    used: set[GlobalValue] = set()
    for name in ("llvm.used", "llvm.compiler.used"):
        gv = module.get_global(name)
        if gv is None:
            continue
        init = gv.initializer
        if init is None:
            continue
        for op in init.operands:
            target = strip_pointer_casts(op)
            if isinstance(target, GlobalValue):
                used.add(target)
    return used


def _is_eligible(fn: Function) -> bool:
    return not fn.is_declaration and fn.linkage is not Linkage.AVAILABLE_EXTERNALLY


def _order_is_correct(f: Function, g: Function) -> bool:
    """Whether ``f`` (in the tree) should survive and ``g`` be folded into it."""
    fi = f.is_interposable
    if fi != g.is_interposable:
        return not fi  # strong before weak: a weak thunk may call a strong body
    fl = f.has_local_linkage
    if fl != g.has_local_linkage:
        return not fl  # the external one must stay; a local one may disappear
    return f.name <= g.name  # a total order, the same in every module


class MergeFunctions:
    """One run of the merging algorithm over a module (see the module docstring).

    ``use_hash=False`` turns the hash pre-filter off (every eligible function is
    queued and the tree orders by the comparator alone), for measurements.
    After :meth:`run`, ``lookups`` and ``comparisons`` count tree lookups and
    comparator calls.
    """

    __slots__ = (
        "module",
        "global_numbers",
        "tree",
        "nodes",
        "deferred",
        "used",
        "use_aliases",
        "preserve_debug_info",
        "verify_count",
        "explain",
        "use_hash",
        "lookups",
        "comparisons",
        "err",
        "_forward",
        "_explained",
        "_memo",
        "_match",
        "_hashes",
    )

    def __init__(
        self,
        module: Module,
        *,
        use_aliases: bool | None = None,
        preserve_debug_info: bool | None = None,
        verify_count: int | None = None,
        explain: bool | None = None,
        use_hash: bool = True,
        err: TextIO | None = None,
    ) -> None:
        self.module = module
        self.global_numbers = GlobalNumberState()
        self.tree: SortedList = SortedList()
        self.nodes: dict[Function, _FunctionNode] = {}
        self.deferred: list[Function] = []
        self.used: set[GlobalValue] = set()
        self.use_aliases = bool(OPTIONS.value("mergefunc-use-aliases")) if use_aliases is None else use_aliases
        self.preserve_debug_info = (
            bool(OPTIONS.value("mergefunc-preserve-debug-info")) if preserve_debug_info is None else preserve_debug_info
        )
        self.verify_count = int(OPTIONS.value("mergefunc-verify")) if verify_count is None else verify_count
        self.explain = bool(OPTIONS.value("mergefunc-explain")) if explain is None else explain
        self.use_hash = use_hash
        self.lookups = 0
        self.comparisons = 0
        self.err = err
        self._forward: dict[Function, Value] = {}
        self._explained: set[tuple[int, int]] = set()
        self._memo: dict[int, int] = {}
        self._match: _FunctionNode | None = None
        self._hashes: dict[Function, int] = {}

    # --- driver ----------------------------------------------------------------------------
    def run(self) -> bool:
        """Merge what can be merged; True when the module changed."""
        module = self.module
        self.used = _used_globals(module)
        eligible = [fn for fn in module.functions if _is_eligible(fn)]
        if self.use_hash:
            hashed = [(structural_hash(fn), fn) for fn in eligible]
            hashed.sort(key=lambda pair: pair[0])
            last = len(hashed) - 1
            for i, (h, fn) in enumerate(hashed):
                if (i > 0 and hashed[i - 1][0] == h) or (i < last and hashed[i + 1][0] == h):
                    self.deferred.append(fn)
                    self._hashes[fn] = h
        else:
            self.deferred.extend(eligible)
        changed = False
        while self.deferred:
            worklist = self.deferred
            self.deferred = []
            if self.verify_count:
                self._functional_check(worklist)
            for queued in worklist:
                current = self._current(queued)
                if current is None or current.parent is not module:
                    continue
                if _is_eligible(current):
                    changed |= self._insert(current)
        self.tree.clear()
        self.nodes.clear()
        self.global_numbers.clear()
        self.used.clear()
        self._hashes.clear()
        self._forward.clear()
        return changed

    def _current(self, fn: Function) -> Function | None:
        """Follow replacements of a queued function (LLVM's tracking handles)."""
        value: Value = fn
        forward = self._forward
        while isinstance(value, Function) and value in forward:
            value = forward[value]
        return value if isinstance(value, Function) else None

    def _hash_of(self, fn: Function) -> int:
        if not self.use_hash:
            return 0
        cached = self._hashes.pop(fn, None)
        return cached if cached is not None else structural_hash(fn)

    # --- the tree ----------------------------------------------------------------------------
    def _compare(self, f: Function, g: Function) -> int:
        self.comparisons += 1
        result = FunctionComparator(f, g, self.global_numbers).compare()
        if result and self.explain:
            self._report_difference(f, g)
        return result

    def _probe_less(self, x: _FunctionNode, y: _FunctionNode) -> bool:
        """``x < y`` where one of them is the lookup probe (memoised per lookup)."""
        if x.rank is None:
            probe, node, sign = x, y, 1
        else:
            probe, node, sign = y, x, -1
        key = id(node)
        result = self._memo.get(key)
        if result is None:
            result = self._compare(probe.fn, node.fn)
            self._memo[key] = result
            if result == 0:
                self._match = node
        return result * sign < 0

    def _lookup(self, probe: _FunctionNode) -> tuple[int, _FunctionNode | None]:
        """Position of ``probe`` in the tree and the equal node, if any."""
        self.lookups += 1
        self._memo = {}
        self._match = None
        index = int(self.tree.bisect_left(probe))
        return index, self._match

    def _place(self, probe: _FunctionNode, index: int) -> None:
        """Insert ``probe`` at ``index`` (found by :meth:`_lookup`), ranking it between its neighbours."""
        tree = self.tree
        size = len(tree)
        low = tree[index - 1].rank if index > 0 else None
        high = tree[index].rank if index < size else None
        if low is None and high is None:
            rank = 0
        elif low is None:
            assert high is not None
            rank = high - _RANK_GAP
        elif high is None:
            rank = low + _RANK_GAP
        elif high - low >= 2:
            rank = (low + high) // 2
        else:
            for i, node in enumerate(tree):
                node.rank = (2 * i + (2 if i >= index else 0)) * _RANK_GAP
            rank = (2 * index + 1) * _RANK_GAP
        probe.rank = rank
        tree.add(probe)
        self.nodes[probe.fn] = probe

    def _insert(self, new: Function) -> bool:
        """Look ``new`` up; insert it when unique, else merge it with its equal."""
        probe = _FunctionNode(new, self._hash_of(new), self)
        index, old = self._lookup(probe)
        if old is None:
            self._place(probe, index)
            return False
        survivor = old.fn
        if not _order_is_correct(survivor, new):
            # The newcomer survives: it takes the old function's node.
            del self.nodes[survivor]
            old.fn = new
            self.nodes[new] = old
            survivor, new = new, survivor
        self._merge_two(survivor, new)
        return True

    def _remove(self, fn: Function) -> None:
        """Take ``fn`` out of the tree (by identity) and queue it for the next round."""
        node = self.nodes.pop(fn, None)
        if node is not None:
            self.tree.remove(node)
            node.rank = None
            self.deferred.append(fn)

    def _remove_users(self, value: Value) -> None:
        """Remove from the tree every function with an instruction that uses ``value``."""
        for user in value.users:
            if user.is_instruction:
                fn = user.function  # type: ignore[attr-defined]
                if fn is not None:
                    self._remove(fn)

    # --- replacing ------------------------------------------------------------------------------
    def _replace_all_uses(self, old: Function, new: GlobalValue) -> None:
        old.replace_all_uses_with(new)
        self._forward[old] = new

    def _erase(self, fn: Function) -> None:
        self.global_numbers.erase(fn)
        fn.erase_from_parent()

    def _replace_direct_callers(self, old: Function, new: Function) -> None:
        """Point every call whose callee is ``old`` at ``new`` (other uses stay)."""
        for use in old.use_list():
            user = use.user
            if isinstance(user, CallBase) and use is user.called_operand_use:
                fn = user.function
                if fn is not None:
                    self._remove(fn)
                use.set(new)

    def _can_create_alias_for(self, fn: Function) -> bool:
        return self.use_aliases and fn.unnamed_addr is UnnamedAddr.GLOBAL

    def _write_thunk_or_alias(self, f: Function, g: Function) -> bool:
        if self._can_create_alias_for(g):
            self._write_alias(f, g)
            return True
        if can_create_thunk_for(f):
            self._write_thunk(f, g)
            return True
        return False

    def _write_alias(self, f: Function, g: Function) -> None:
        """Replace ``g`` by an alias of ``f``."""
        alias = GlobalAlias(g.value_type, "", f, g.linkage, g.address_space, module=self.module)
        _merge_alignment(f, f.alignment, g.alignment)
        name = g.name
        g.set_name("")
        alias.set_name(name)
        alias.visibility = g.visibility
        alias.unnamed_addr = UnnamedAddr.GLOBAL
        self._remove_users(g)
        g.replace_all_uses_with(alias)
        self._erase(g)
        NUM_ALIASES_WRITTEN.add()

    def _write_thunk(self, f: Function, g: Function) -> None:
        """Replace ``g`` by a function that tail-calls ``f`` (``g`` itself under
        ``-mergefunc-preserve-debug-info``)."""
        if self.preserve_debug_info and not g.is_declaration:
            # (The body-less holder of an interposable pair gets an ordinary
            # thunk; opt-19 crashes there.)
            term = prepare_pdi_thunk(g)
            block = g.entry_block
            call, ret = build_forwarding_body(f, g, g, block)
            term.erase_from_parent()  # its trailing debug records move to the call
            loc = pdi_debug_loc(g)
            if loc is not None:
                call.debug_loc = loc
                ret.debug_loc = loc
            NUM_THUNKS_WRITTEN.add()
            return
        thunk = Function(g.function_type, "", g.linkage, module=self.module, address_space=g.address_space)
        thunk.comdat = g.comdat
        block = thunk.append_block("")
        build_forwarding_body(f, thunk, g, block)
        thunk.copy_attributes_from(g)
        name = g.name
        g.set_name("")
        thunk.set_name(name)
        copy_cfi_metadata(g, thunk)
        self._remove_users(g)
        self._replace_all_uses(g, thunk)
        self._erase(g)
        NUM_THUNKS_WRITTEN.add()

    def _merge_two(self, f: Function, g: Function) -> None:
        """Fold ``g`` into the equal function ``f`` (LLVM ``mergeTwoFunctions``)."""
        if f.is_interposable:
            # Both may be replaced at link time: the body moves to a private
            # function and both names become thunks (or aliases) to it.
            if not can_create_thunk_for(f) and (not self._can_create_alias_for(f) or not self._can_create_alias_for(g)):
                return
            holder = Function(f.function_type, "", f.linkage, module=self.module, address_space=f.address_space)
            holder.copy_attributes_from(f)
            name = f.name
            f.set_name("")
            holder.set_name(name)
            copy_cfi_metadata(f, holder)
            self._remove_users(f)
            f.replace_all_uses_with(holder)
            holder_align = holder.alignment
            g_align = g.alignment
            self._write_thunk_or_alias(f, g)
            self._write_thunk_or_alias(f, holder)
            _merge_alignment(f, holder_align, g_align)
            f.linkage = Linkage.PRIVATE
            NUM_DOUBLE_WEAK.add()
            NUM_FUNCTIONS_MERGED.add()
            return
        pdi = self.preserve_debug_info
        if not g.is_interposable and not pdi:
            if g.unnamed_addr is UnnamedAddr.GLOBAL and g not in self.used:
                # G's address is not significant: replace it everywhere.
                self.global_numbers.erase(g)
                self._remove_users(g)
                self._replace_all_uses(g, f)
            else:
                self._replace_direct_callers(g, f)
        if g.is_discardable_if_unused and g.use_empty and not pdi:
            self._erase(g)
            NUM_FUNCTIONS_MERGED.add()
            return
        if self._write_thunk_or_alias(f, g):
            NUM_FUNCTIONS_MERGED.add()

    # --- diagnostics ----------------------------------------------------------------------------
    def _stream(self) -> TextIO:
        return self.err if self.err is not None else sys.stderr

    def _report_difference(self, f: Function, g: Function) -> None:
        key = (id(f), id(g)) if id(f) < id(g) else (id(g), id(f))
        if key in self._explained:
            return
        self._explained.add(key)
        difference = explain(f, g)
        if difference is not None:
            self._stream().write("mergefunc: @%s and @%s differ: %s\n" % (f.name, g.name, difference))

    def _functional_check(self, worklist: list[Function]) -> None:
        """Check that the comparator is antisymmetric and transitive over the first
        ``verify_count`` queued functions; report each violation."""
        out = self._stream()
        fns = [fn for fn in worklist if fn.parent is self.module][: self.verify_count]
        numbers = GlobalNumberState()
        table: dict[tuple[int, int], int] = {}

        def cmp(i: int, j: int) -> int:
            key = (i, j)
            result = table.get(key)
            if result is None:
                result = FunctionComparator(fns[i], fns[j], numbers).compare()
                table[key] = result
            return result

        out.write("MERGEFUNC-VERIFY: Started for first %d functions.\n" % len(fns))
        valid = True
        n = len(fns)
        for i in range(n):
            for j in range(i + 1, n):
                r1 = cmp(i, j)
                r2 = cmp(j, i)
                if r1 != -r2:
                    valid = False
                    out.write(
                        "MERGEFUNC-VERIFY: Non-symmetric; triple: @%s, @%s: compare gives %d and %d\n"
                        % (fns[i].name, fns[j].name, r1, r2)
                    )
                for k in range(j + 1, n):
                    r3 = cmp(j, k)
                    r4 = cmp(i, k)
                    if r1 == 0 and r3 == 0:
                        expected = 0
                    elif r1 == 0:
                        expected = r3
                    elif r3 == 0 or r1 == r3:
                        expected = r1
                    else:
                        continue  # i < j > k or i > j < k: nothing follows
                    if r4 != expected:
                        valid = False
                        out.write(
                            "MERGEFUNC-VERIFY: Non-transitive; triple: @%s, @%s, @%s: %d, %d, %d\n"
                            % (fns[i].name, fns[j].name, fns[k].name, r1, r3, r4)
                        )
        out.write("MERGEFUNC-VERIFY: %s\n" % ("Passed." if valid else "Failed."))


def _merge_alignment(target: Function, a: int | None, b: int | None) -> None:
    """``target``'s alignment becomes the larger of ``a`` and ``b`` (None when both are unset)."""
    if a is None and b is None:
        target.alignment = None
    else:
        target.alignment = max(a or 1, b or 1)


def merge_functions(module: Module) -> bool:
    """Run ``mergefunc`` over ``module`` with the options in force; True when it changed."""
    return MergeFunctions(module).run()


class MergeFunctionsPass(Pass[Module]):
    """Merges identical functions (LLVM ``MergeFunctionsPass``)."""

    name: ClassVar[str] = "mergefunc"
    debug_type: ClassVar[str] = "mergefunc"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        return PreservedAnalyses.none() if merge_functions(unit) else PreservedAnalyses.all()

