"""Congruent induction variables (LLVM 19.1.7 ``ScalarEvolutionExpander.cpp``:
``replaceCongruentIVs`` and ``replaceCongruentIVInc``): header phis that ScalarEvolution proves
equal to another one (or to the truncation of a wider one, when the target truncates for free)
are replaced by it, their increments too when the original's can be hoisted above them; phis
that fold to a constant go first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llvmpy_mid.analysis.loop_info import Loop
from llvmpy_mid.analysis.scalar_evolution_expressions import SCEV, SCEVAddRecExpr, SCEVConstant
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.types import IntegerType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.scalar_evolution_expander_support import (
    is_dbg_intrinsic,
    is_overflowing_binop,
    is_truncate_free,
    set_wrap_flags,
    trunc_or_bitcast,
    truncate_or_noop,
)

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.scalar_evolution_expander import SCEVExpander


def replace_congruent_ivs(ex: SCEVExpander, loop: Loop, dt: Any, dead: list[Value], tti: Any = None) -> int:
    """Replace header phis that SCEV proves equal to another (or to a truncation of a
    wider one) by it; returns how many (LLVM ``replaceCongruentIVs``)."""
    from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
    from llvmpy_mid.analysis.simplify_query import SimplifyQuery

    se = ex.se
    phis = list(loop.header.phis())
    if tti is not None:
        # LLVM's comparator puts the non-integer phis first, then integers from wide to narrow.
        def key(pn: PHINode) -> tuple[int, int]:
            ty = pn.type
            if not isinstance(ty, IntegerType):
                return (0, 0)
            return (1, -ty.width)

        phis.sort(key=key)
    q = SimplifyQuery(ex.dl, se.tli, se.dt, se.ac)
    num_elim = 0
    expr_to_iv: dict[SCEV, PHINode] = {}
    for phi in phis:
        if phi.parent is None:
            continue
        simplified: Value | None = simplify_instruction(phi, q)
        if simplified is None and se.is_scevable(phi.type):
            c = se.get_scev(phi)
            if isinstance(c, SCEVConstant):
                simplified = c.ir_value
        if simplified is not None:
            if simplified.type is not phi.type:
                continue
            se.forget_value(phi)
            phi.replace_all_uses_with(simplified)
            dead.append(phi)
            num_elim += 1
            continue
        if not se.is_scevable(phi.type):
            continue
        phi_expr = se.get_scev(phi)
        orig = expr_to_iv.get(phi_expr)
        if orig is None:
            expr_to_iv[phi_expr] = phi
            if phi.type.is_integer and tti is not None and is_truncate_free(tti, phi.type, phis[-1].type):
                if isinstance(phi_expr, SCEVAddRecExpr):
                    expr_to_iv[se.get_truncate_expr(phi_expr, phis[-1].type)] = phi
            continue
        if orig.type.is_pointer != phi.type.is_pointer:
            continue
        phi, orig = _replace_congruent_iv_inc(ex, phi, orig, loop, dead)
        expr_to_iv[phi_expr] = orig
        num_elim += 1
        new_iv: Value = orig
        if orig.type is not phi.type:
            b = IRBuilder(loop.header, loop.header.first_insertion_point, folder=None)
            if loop.header.first_insertion_point is None:
                b.position_at_end(loop.header)
            b.debug_loc = phi.debug_loc
            new_iv = trunc_or_bitcast(b, orig, phi.type, ex.iv_name)
        phi.replace_all_uses_with(new_iv)
        dead.append(phi)
    return num_elim

def _replace_congruent_iv_inc(
    ex: SCEVExpander, phi: PHINode, orig_phi: PHINode, loop: Loop, dead: list[Value]
) -> tuple[PHINode, PHINode]:
    se = ex.se
    latch = loop.latch
    if latch is None:
        return phi, orig_phi
    orig_inc = orig_phi.incoming_value_for_block(latch)
    iso_inc = phi.incoming_value_for_block(latch)
    if not isinstance(orig_inc, Instruction) or not isinstance(iso_inc, Instruction):
        return phi, orig_phi
    if (
        orig_phi.type is phi.type
        and not (phi in ex.chained_phis or ex.is_expanded_add_rec_expr_phi(orig_phi, orig_inc, loop))
        and (phi in ex.chained_phis or ex.is_expanded_add_rec_expr_phi(phi, iso_inc, loop))
    ):
        phi, orig_phi = orig_phi, phi
        orig_inc, iso_inc = iso_inc, orig_inc
    if not (se.is_scevable(orig_inc.type) and se.is_scevable(iso_inc.type)):
        return phi, orig_phi
    trunc = truncate_or_noop(se, se.get_scev(orig_inc), iso_inc.type)
    if orig_inc is iso_inc or trunc is not se.get_scev(iso_inc):
        return phi, orig_phi
    if not ex.li.replacement_preserves_lcssa_form(iso_inc, orig_inc):
        return phi, orig_phi
    both_nuw = both_nsw = False
    if is_overflowing_binop(orig_inc) and is_overflowing_binop(iso_inc):
        both_nuw = bool(getattr(orig_inc, "nuw", False) and getattr(iso_inc, "nuw", False))
        both_nsw = bool(getattr(orig_inc, "nsw", False) and getattr(iso_inc, "nsw", False))
    if not ex.hoist_iv_inc(orig_inc, iso_inc, True):
        return phi, orig_phi
    if both_nuw or both_nsw:
        nuw = bool(getattr(orig_inc, "nuw", False)) or both_nuw
        nsw = bool(getattr(orig_inc, "nsw", False)) or both_nsw
        set_wrap_flags(orig_inc, nuw, nsw)
    new_inc: Value = orig_inc
    if orig_inc.type is not iso_inc.type:
        if isinstance(orig_inc, PHINode):
            ip = orig_inc.parent.first_insertion_point  # type: ignore[union-attr]
        else:
            ip = orig_inc.next_instruction
            while ip is not None and is_dbg_intrinsic(ip):
                ip = ip.next_instruction
        b = IRBuilder(orig_inc.parent, ip)
        if ip is None:
            b.position_at_end(orig_inc.parent)  # type: ignore[arg-type]
        b.debug_loc = iso_inc.debug_loc
        new_inc = trunc_or_bitcast(b, orig_inc, iso_inc.type, ex.iv_name)
    iso_inc.replace_all_uses_with(new_inc)
    dead.append(iso_inc)
    return phi, orig_phi
