"""llvmpy_mid: a pure-Python, typed compiler middle end for LLVM 19's IR."""

from __future__ import annotations

__version__ = "0.1.0"
