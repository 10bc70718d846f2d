"""Promotion of the loads and stores of one memory location to SSA values
(LLVM 19.1.7 ``LoadAndStorePromoter`` in ``lib/Transforms/Utils/SSAUpdater.cpp``).

What: a client hands over loads and stores that all access one location (an alloca, a
must-aliased pointer of a loop). :meth:`LoadAndStorePromoter.run` tells the
:class:`~llvmpy_mid.transform.utils.ssa_updater.SSAUpdater` which value each block leaves
in the location (the value of its last store), replaces every load by the value live at
that point (phis are inserted where definitions meet), then erases the loads and stores.
Subclasses customise it through hooks, as LLVM's virtual methods:
:meth:`~LoadAndStorePromoter.is_inst_in_list`,
:meth:`~LoadAndStorePromoter.do_extra_rewrites_before_final_deletion` (LICM inserts its
exit-block stores there), :meth:`~LoadAndStorePromoter.replace_load_with_value`,
:meth:`~LoadAndStorePromoter.instruction_deleted`,
:meth:`~LoadAndStorePromoter.update_debug_info` and
:meth:`~LoadAndStorePromoter.should_delete`.

How: the instructions are bucketed by block. A block with one access, or with loads only,
needs no scan: its loads read the live-in value. A block mixing loads and stores is
scanned once in order: a load before the first store reads the live-in value, a later
one the last stored value. Live-in loads are then rewritten through the updater. A load
still used at deletion time (it was itself the stored value another load took) is
replaced by the end of its replacement chain.

What it does not do: anything but loads and stores (as LLVM's, the caller filters).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from llvmpy_mid.ir.constants import PoisonValue
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.utils.ssa_updater import SSAUpdater

__all__ = ["LoadAndStorePromoter"]


class LoadAndStorePromoter:
    """Rewrites loads and stores of one location into SSA form (LLVM ``LoadAndStorePromoter``).

    ``insts`` names the value: the first load's, else the first store's stored value's
    type and name (or ``base_name`` when given) initialise ``ssa``."""

    def __init__(self, insts: Sequence[Instruction], ssa: SSAUpdater, base_name: str = "") -> None:
        self.ssa = ssa
        self._inst_set: set[Instruction] = set()
        if not insts:
            return
        first = insts[0]
        some_val: Value = first if isinstance(first, LoadInst) else first.get_operand(0)
        if not base_name:
            base_name = some_val.name
        ssa.initialize(some_val.type, base_name)

    # --- hooks (LLVM's virtual methods) ------------------------------------------------------
    def is_inst_in_list(self, inst: Instruction, insts: Sequence[Instruction]) -> bool:
        """Whether ``inst`` is one of the instructions being promoted."""
        return inst in self._inst_set

    def do_extra_rewrites_before_final_deletion(self) -> None:
        """Called once every load is rewritten, before anything is erased."""

    def replace_load_with_value(self, load: LoadInst, value: Value) -> None:
        """Called just before ``load``'s uses are replaced by ``value``."""

    def instruction_deleted(self, inst: Instruction) -> None:
        """Called just before ``inst`` is erased."""

    def update_debug_info(self, inst: Instruction) -> None:
        """Called for each store that defines the value of its block."""

    def should_delete(self, inst: Instruction) -> bool:
        """False keeps ``inst`` after the rewrite."""
        return True

    # --- the promotion ------------------------------------------------------------------------
    def run(self, insts: Sequence[Instruction]) -> None:
        """Promote ``insts`` (loads and stores of the location); they are erased afterwards."""
        self._inst_set = set(insts)
        ssa = self.ssa
        uses_by_block: dict[BasicBlock, list[Instruction]] = {}
        for user in insts:
            parent = user.parent
            assert parent is not None
            uses_by_block.setdefault(parent, []).append(user)

        live_in_loads: list[LoadInst] = []
        replaced_loads: dict[Value, Value] = {}

        for user in insts:
            bb = user.parent
            assert bb is not None
            block_uses = uses_by_block[bb]
            if not block_uses:
                continue
            if len(block_uses) == 1:
                if isinstance(user, StoreInst):
                    self.update_debug_info(user)
                    ssa.add_available_value(bb, user.value_operand)
                else:
                    assert isinstance(user, LoadInst)
                    live_in_loads.append(user)
                block_uses.clear()
                continue
            if not any(isinstance(i, StoreInst) for i in block_uses):
                for i in block_uses:
                    assert isinstance(i, LoadInst)
                    live_in_loads.append(i)
                block_uses.clear()
                continue
            # Mixed loads and stores: the order inside the block decides.
            stored: Value | None = None
            for inst in bb.instructions:
                if isinstance(inst, LoadInst):
                    if not self.is_inst_in_list(inst, insts):
                        continue
                    if stored is not None:
                        self.replace_load_with_value(inst, stored)
                        inst.replace_all_uses_with(stored)
                        replaced_loads[inst] = stored
                    else:
                        live_in_loads.append(inst)
                elif isinstance(inst, StoreInst):
                    if not self.is_inst_in_list(inst, insts):
                        continue
                    self.update_debug_info(inst)
                    stored = inst.value_operand
            assert stored is not None, "the block has a store"
            ssa.add_available_value(bb, stored)
            block_uses.clear()

        for load in live_in_loads:
            parent = load.parent
            assert parent is not None
            new_val = ssa.get_value_in_middle_of_block(parent)
            self.replace_load_with_value(load, new_val)
            if new_val is load:
                new_val = PoisonValue.get(load.type)
            load.replace_all_uses_with(new_val)
            replaced_loads[load] = new_val

        self.do_extra_rewrites_before_final_deletion()

        for user in insts:
            if not self.should_delete(user):
                continue
            if user._use_head is not None:
                assert isinstance(user, LoadInst)
                nv = replaced_loads.get(user)
                assert nv is not None, "not a replaced load?"
                nxt = replaced_loads.get(nv)
                while nxt is not None:
                    nv = nxt
                    nxt = replaced_loads.get(nv)
                self.replace_load_with_value(user, nv)
                user.replace_all_uses_with(nv)
            self.instruction_deleted(user)
            user.erase_from_parent()
