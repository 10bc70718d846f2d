"""Interprocedural passes (LLVM's ``lib/Transforms/IPO``): ``strip-dead-prototypes``."""
