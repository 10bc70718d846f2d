"""GVN's optimisation remarks (LLVM ``lib/Transforms/Scalar/GVN.cpp``: ``reportLoadElim``,
``reportMayClobberedLoad`` with ``liesBetween``, and the ``LoadPRE`` remark).

* ``LoadElim`` (passed): ``load of type T eliminated`` — extra: `` in favor of V``;
* ``LoadPRE`` (passed): ``load eliminated by PRE``;
* ``LoadClobbered`` (missed, only built when GVN's remarks go somewhere): ``load of type T
  not eliminated`` — extra: `` in favor of A`` (the nearest other load or store of the same
  pointer that dominates the load, or else lies between every other such access and the
  load), `` because it is clobbered by C``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.cfg import is_potentially_reachable_inst
from llvmpy_mid.analysis.remark import optimization_remark, optimization_remark_missed

if TYPE_CHECKING:
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value

__all__ = ["report_load_elim", "report_load_pre", "report_may_clobbered_load"]

DEBUG_TYPE = "gvn"


def report_load_elim(ore: OptimizationRemarkEmitter | None, load: Instruction, available: Value) -> None:
    """``LoadElim``: ``load`` was replaced by ``available``."""
    if ore is None or not ore.enabled():
        return
    r = optimization_remark(DEBUG_TYPE, "LoadElim", load)
    r.add("load of type ").add_arg("Type", load.type).add(" eliminated").set_extra_args()
    r.add(" in favor of ").add_arg("InfavorOfValue", available)
    ore.emit(r)


def report_load_pre(ore: OptimizationRemarkEmitter | None, load: Instruction) -> None:
    """``LoadPRE``: ``load`` was made redundant by loads inserted in predecessors."""
    if ore is None or not ore.enabled():
        return
    ore.emit(optimization_remark(DEBUG_TYPE, "LoadPRE", load).add("load eliminated by PRE"))


def _lies_between(start: Instruction, between: Instruction, end: Instruction, dt: DominatorTree) -> bool:
    """Every path from ``start`` to ``end`` passes ``between`` (LLVM ``liesBetween``)."""
    if start.parent is between.parent:
        return dt.dominates(start, between)
    return not is_potentially_reachable_inst(start, end, [between.parent], dt)  # type: ignore[list-item]


def _other_accesses(load: Instruction) -> list[Instruction]:
    from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst

    fn = load.function
    out: list[Instruction] = []
    for u in load.get_operand(0).users:
        if u is not load and isinstance(u, (LoadInst, StoreInst)) and u.function is fn:
            out.append(u)
    return out


def report_may_clobbered_load(
    ore: OptimizationRemarkEmitter | None, load: Instruction, clobber: Instruction, dt: DominatorTree
) -> None:
    """``LoadClobbered``: ``load`` stays because ``clobber`` may write what it reads."""
    if ore is None or not ore.allow_extra_analysis(DEBUG_TYPE):
        return
    r = optimization_remark_missed(DEBUG_TYPE, "LoadClobbered", load)
    r.add("load of type ").add_arg("Type", load.type).add(" not eliminated").set_extra_args()
    others = _other_accesses(load)
    other: Instruction | None = None
    for i in others:
        if dt.dominates(i, load) and (other is None or dt.dominates(other, i)):
            other = i
    if other is None:
        for i in others:
            if not is_potentially_reachable_inst(i, load, None, dt):
                continue
            if other is None:
                other = i
            elif _lies_between(other, i, load, dt):
                other = i
            elif not _lies_between(i, other, load, dt):
                other = None  # both reach the load, neither after the other
                break
    if other is not None:
        r.add(" in favor of ").add_arg("OtherAccess", other)
    r.add(" because it is clobbered by ").add_arg("ClobberedBy", clobber)
    ore.emit(r)
