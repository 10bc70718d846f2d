"""Runnable examples that ship with the package (``python -m llvmpy_mid.examples.<name>``)."""
