"""Scalar transforms, one module per pass (LLVM lib/Transforms/Scalar)."""
