"""Transformation passes (LLVM's ``lib/Transforms``), grouped as LLVM groups them."""
