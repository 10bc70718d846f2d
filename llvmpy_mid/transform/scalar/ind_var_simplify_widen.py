"""``simplifyAndExtend`` of ``indvars``: simplify the users of every header phi through
ScalarEvolution, record the sign/zero extensions of each, and widen the phi to the widest
legal type they ask for (LLVM 19.1.7 ``lib/Transforms/Scalar/IndVarSimplify.cpp``,
``visitIVCast``, ``IndVarSimplifyVisitor`` and ``IndVarSimplify::simplifyAndExtend``).

The simplification of IV users and the widening itself live in
``llvmpy_mid.transform.utils.simplify_indvar`` and ``simplify_indvar_widen`` (LLVM's
``SimplifyIndVar.cpp``); when they are not available this step does nothing.
"""

from __future__ import annotations

from typing import Any

from llvmpy_mid.analysis.loop_info import Loop
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.types import IntegerType
from llvmpy_mid.passes.options import OPTIONS

__all__ = ["has_guards", "simplify_and_extend", "visit_iv_cast"]


def visit_iv_cast(cast: CastInst, wi: Any, se: Any, tti: Any) -> None:
    """LLVM ``visitIVCast``: a legal-width ``sext``/``zext`` of the IV that is wider than it
    (and whose ``add`` is not dearer than the narrow one) widens ``wi``'s target type; mixed
    signedness settles on signed."""
    is_signed = cast.opcode == "sext"
    if not is_signed and cast.opcode != "zext":
        return
    ty = cast.type
    if not isinstance(ty, IntegerType):
        return
    width = se.get_type_size_in_bits(ty)
    fn = cast.function
    module = fn.parent if fn is not None else None
    if module is None or not module.data_layout.is_legal_integer(width):
        return
    narrow = wi.narrow_iv
    if narrow is None:
        return
    narrow_width = se.get_type_size_in_bits(narrow.type)
    if narrow_width >= width:
        return
    if tti is not None:
        try:
            wide_cost = tti.get_arithmetic_instr_cost("add", ty)
            narrow_cost = tti.get_arithmetic_instr_cost("add", cast.operands[0].type)
        except (AttributeError, TypeError):
            wide_cost = narrow_cost = 0
        if _cost_value(wide_cost) > _cost_value(narrow_cost):
            return
    widest = wi.width_ty
    if widest is None or width > se.get_type_size_in_bits(widest):
        wi.width_ty = _effective_type(se, ty)
        wi.is_signed = is_signed
        return
    wi.is_signed = wi.is_signed or is_signed


def _cost_value(c: Any) -> int:
    if isinstance(c, int):
        return c
    v = getattr(c, "value", None)
    if isinstance(v, int):
        return v
    try:
        return int(c)
    except (TypeError, ValueError):
        return 0


def _effective_type(se: Any, ty: Any) -> Any:
    getter = getattr(se, "get_effective_scev_type", None)
    return getter(ty) if getter is not None else ty


def has_guards(loop: Loop) -> bool:
    """``llvm.experimental.guard`` is declared in the module and used."""
    fn = loop.header.parent
    module = fn.parent if fn is not None else None
    if module is None:
        return False
    getter = getattr(module, "get_function", None)
    decl = getter("llvm.experimental.guard") if getter is not None else None
    return decl is not None and decl.has_uses


def simplify_and_extend(ivs: Any, loop: Loop, rewriter: Any) -> tuple[bool, bool, int, int]:
    """LLVM ``IndVarSimplify::simplifyAndExtend``: ``(changed, run unswitching, extends
    eliminated, phis widened)``."""
    import importlib

    try:
        simplify_mod = importlib.import_module("llvmpy_mid.transform.utils.simplify_indvar")
        widen_mod = importlib.import_module("llvmpy_mid.transform.utils.simplify_indvar_widen")
    except ImportError:
        return False, False, 0, 0
    iv_visitor: Any = getattr(simplify_mod, "IVVisitor", object)
    simplify_users_of_iv: Any = getattr(simplify_mod, "simplify_users_of_iv", None)
    wide_iv_info: Any = getattr(widen_mod, "WideIVInfo", None)
    create_wide_iv: Any = getattr(widen_mod, "create_wide_iv", None)
    if rewriter is None or simplify_users_of_iv is None or wide_iv_info is None or create_wide_iv is None:
        return False, False, 0, 0
    se, dt, li, tti = ivs.se, ivs.dt, ivs.li, ivs.tti

    class IndVarSimplifyVisitor(iv_visitor):  # type: ignore[misc]
        """LLVM ``IndVarSimplifyVisitor``: collects the extensions of one IV."""

        def __init__(self, iv: PHINode) -> None:
            self.dt = dt
            self.wi = wide_iv_info(narrow_iv=iv)

        def visit_cast(self, cast: CastInst) -> None:
            visit_iv_cast(cast, self.wi, se, tti)

    guards = has_guards(loop)
    post_inc = bool(OPTIONS.value("indvars-post-increment-ranges"))
    loop_phis: list[PHINode] = list(loop.header.phis())
    wide_ivs: list[Any] = []
    changed = unswitch = False
    elim_ext_total = widened_total = 0
    while loop_phis:
        while loop_phis:
            cur_iv = loop_phis.pop()
            if cur_iv.is_erased:
                continue
            visitor = IndVarSimplifyVisitor(cur_iv)
            res = simplify_users_of_iv(cur_iv, se, dt, li, tti, ivs.dead_insts, rewriter, visitor)
            if isinstance(res, tuple):
                c, u = bool(res[0]), bool(res[1])
            else:
                c, u = bool(res), False
            changed |= c
            unswitch |= u
            if visitor.wi.width_ty is not None:
                wide_ivs.append(visitor.wi)
        if not ivs.widen_ind_vars:
            continue
        while wide_ivs:
            wi = wide_ivs[-1]
            if wi.narrow_iv is not None and not wi.narrow_iv.is_erased:
                wide_phi, elim_ext, widened = create_wide_iv(
                    wi, li, se, rewriter, dt, ivs.dead_insts, guards, post_inc
                )
                if wide_phi is not None:
                    elim_ext_total += elim_ext
                    widened_total += widened
                    changed = True
                    loop_phis.append(wide_phi)
            wide_ivs.pop()
    return changed, unswitch, elim_ext_total, widened_total
