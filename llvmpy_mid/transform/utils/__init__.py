"""Utility transformations (LLVM's ``lib/Transforms/Utils``): ``instnamer``."""
