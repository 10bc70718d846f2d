"""InstructionSimplify split by family (LLVM 19.1.7
``llvm/lib/Analysis/InstructionSimplify.cpp``): ``binops`` (integer arithmetic,
shifts, reassociation, distribution and select/phi threading, the binary-operator
dispatch), ``logic`` (and/or/xor and the and/or of compares), ``cmp`` (icmp and
the threading of compares), ``fp`` (floating-point operators and fcmp),
``select``, ``other`` (GEP, casts, aggregates, vectors, phi, freeze, load and
operand substitution), ``calls`` (intrinsics), ``memory`` (pointer bases and
offsets), ``_util`` (constant builders, matchers, analysis adapters). The front
door, with ``simplify_instruction``, is :mod:`llvmpy_mid.analysis.instruction_simplify`.
"""
