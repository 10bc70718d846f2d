"""InstructionSimplify split by family (LLVM 19.1.7
``llvm/lib/Analysis/InstructionSimplify.cpp``): ``binops`` (integer arithmetic,
shifts, and/or/xor, reassociation and select/phi threading), ``cmp`` (icmp and
the and/or of compares), ``fp`` (floating-point operators and fcmp), ``other``
(select, GEP, casts, aggregates, vectors, phi, freeze, load), ``calls``
(intrinsics), ``memory`` (pointer bases and offsets). The front door, with
``simplify_instruction``, is :mod:`llvmpy_mid.analysis.instruction_simplify`.
"""
