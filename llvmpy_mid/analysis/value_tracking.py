"""ValueTracking: what is known about a value (LLVM 19.1.7
``llvm/lib/Analysis/ValueTracking.cpp``) — the one place transforms import it from.

What: the queries every simplifier asks, each implemented in its own module
and re-exported here:

* known bits — :func:`compute_known_bits` (every opcode and intrinsic LLVM
  handles, phis, GEPs, alignment, metadata and attributes, ``llvm.assume``
  facts at a context instruction), :func:`masked_value_is_zero`,
  :func:`have_no_common_bits_set`, :func:`is_known_non_negative`,
  :func:`is_known_positive`, :func:`is_known_negative`
  (:mod:`~llvmpy_mid.analysis.known_bits_analysis`);
* :func:`is_known_non_zero`, :func:`is_known_to_be_a_power_of_two`,
  :func:`is_known_non_equal` (:mod:`~llvmpy_mid.analysis.known_non_zero`);
* :func:`compute_num_sign_bits` (:mod:`~llvmpy_mid.analysis.num_sign_bits`);
* :func:`compute_constant_range` (:mod:`~llvmpy_mid.analysis.constant_range_analysis`);
* overflow — :func:`compute_overflow_for_unsigned_add` and the other five
  (:mod:`~llvmpy_mid.analysis.overflow_analysis`), :func:`is_known_negation`;
* :func:`match_select_pattern` (:mod:`~llvmpy_mid.analysis.select_pattern`);
* :func:`get_underlying_object`, :func:`get_underlying_objects`,
  :func:`get_pointer_base_with_constant_offset`
  (:mod:`~llvmpy_mid.analysis.underlying_objects`);
* assumptions — :func:`is_valid_assume_for_context` and the shared helpers
  (:mod:`~llvmpy_mid.analysis.value_tracking_support`);
* poison, undef and speculation — :func:`can_create_poison`,
  :func:`is_guaranteed_not_to_be_poison`, :func:`implies_poison`,
  :func:`is_safe_to_speculatively_execute`, ...
  (:mod:`~llvmpy_mid.analysis.poison_tracking`).

The entry points take a :class:`~llvmpy_mid.analysis.simplify_query.SimplifyQuery`
or a bare :class:`~llvmpy_mid.ir.data_layout.DataLayout`; recursion is bounded by
``MAX_ANALYSIS_RECURSION_DEPTH`` (6) as in LLVM. Conditions implied by other
conditions are in :mod:`llvmpy_mid.analysis.implied_condition`.
"""

from __future__ import annotations

from llvmpy_mid.analysis.constant_range import ConstantRange, OverflowResult
from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.analysis.constant_range_analysis import (
    compute_constant_range,
    constant_to_range,
)
from llvmpy_mid.analysis.known_bits_analysis import (
    compute_known_bits,
    compute_known_bits_for_lanes,
    have_no_common_bits_set,
    is_known_negative,
    is_known_non_negative,
    is_known_positive,
    masked_value_is_zero,
)
from llvmpy_mid.analysis.known_non_zero import (
    is_known_non_equal,
    is_known_non_zero,
    is_known_to_be_a_power_of_two,
)
from llvmpy_mid.analysis.num_sign_bits import (
    compute_max_significant_bits,
    compute_num_sign_bits,
)
from llvmpy_mid.analysis.overflow_analysis import (
    compute_constant_range_including_known_bits,
    compute_overflow_for_signed_add,
    compute_overflow_for_signed_mul,
    compute_overflow_for_signed_sub,
    compute_overflow_for_unsigned_add,
    compute_overflow_for_unsigned_mul,
    compute_overflow_for_unsigned_sub,
)
from llvmpy_mid.analysis.poison_tracking import (
    MAX_ANALYSIS_RECURSION_DEPTH,
    POISON_ONLY,
    UNDEF_ONLY,
    UNDEF_OR_POISON,
    can_create_poison,
    can_create_undef_or_poison,
    get_guaranteed_non_poison_ops,
    get_guaranteed_well_defined_ops,
    get_splat_value,
    has_poison_generating_annotations,
    has_poison_generating_flags,
    implies_poison,
    is_guaranteed_not_to_be_poison,
    is_guaranteed_not_to_be_undef,
    is_guaranteed_not_to_be_undef_or_poison,
    is_guaranteed_to_transfer_execution_to_successor,
    is_safe_to_speculatively_execute,
    is_safe_to_speculatively_execute_with_opcode,
    match_apint,
    must_trigger_ub,
    program_undefined_if_poison,
    program_undefined_if_undef_or_poison,
    propagates_poison,
    propagates_poison_operand,
)
from llvmpy_mid.analysis.select_pattern import match_select_pattern
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.underlying_objects import (
    get_pointer_base_with_constant_offset,
    get_underlying_object,
    get_underlying_objects,
)
from llvmpy_mid.analysis.value_tracking_support import (
    compute_known_bits_from_range_metadata,
    get_argument_aliasing_to_returned_pointer,
    get_returned_arg_operand,
    get_vscale_range,
    is_known_negation,
    is_valid_assume_for_context,
    match_simple_recurrence,
)
from llvmpy_mid.ir.function import null_pointer_is_defined

__all__ = [
    "ConstantRange",
    "KnownBits",
    "MAX_ANALYSIS_RECURSION_DEPTH",
    "OverflowResult",
    "POISON_ONLY",
    "SimplifyQuery",
    "UNDEF_ONLY",
    "UNDEF_OR_POISON",
    "can_create_poison",
    "can_create_undef_or_poison",
    "compute_constant_range",
    "compute_constant_range_including_known_bits",
    "compute_known_bits",
    "compute_known_bits_for_lanes",
    "compute_known_bits_from_range_metadata",
    "compute_max_significant_bits",
    "compute_num_sign_bits",
    "compute_overflow_for_signed_add",
    "compute_overflow_for_signed_mul",
    "compute_overflow_for_signed_sub",
    "compute_overflow_for_unsigned_add",
    "compute_overflow_for_unsigned_mul",
    "compute_overflow_for_unsigned_sub",
    "constant_to_range",
    "get_argument_aliasing_to_returned_pointer",
    "get_guaranteed_non_poison_ops",
    "get_guaranteed_well_defined_ops",
    "get_pointer_base_with_constant_offset",
    "get_returned_arg_operand",
    "get_splat_value",
    "get_underlying_object",
    "get_underlying_objects",
    "get_vscale_range",
    "has_poison_generating_annotations",
    "has_poison_generating_flags",
    "have_no_common_bits_set",
    "implies_poison",
    "is_guaranteed_not_to_be_poison",
    "is_guaranteed_not_to_be_undef",
    "is_guaranteed_not_to_be_undef_or_poison",
    "is_guaranteed_to_transfer_execution_to_successor",
    "is_known_negation",
    "is_known_negative",
    "is_known_non_equal",
    "is_known_non_negative",
    "is_known_non_zero",
    "is_known_positive",
    "is_known_to_be_a_power_of_two",
    "is_safe_to_speculatively_execute",
    "is_safe_to_speculatively_execute_with_opcode",
    "is_valid_assume_for_context",
    "masked_value_is_zero",
    "match_apint",
    "match_select_pattern",
    "match_simple_recurrence",
    "must_trigger_ub",
    "null_pointer_is_defined",
    "program_undefined_if_poison",
    "program_undefined_if_undef_or_poison",
    "propagates_poison",
    "propagates_poison_operand",
]
