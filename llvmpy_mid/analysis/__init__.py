"""Analyses and analysis-like passes (LLVM's ``lib/Analysis``): ``instcount``."""
