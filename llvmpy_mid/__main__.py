"""``python -m llvmpy_mid``: the ``llvmpy-opt`` command (see :mod:`llvmpy_mid.cli`)."""

from __future__ import annotations

import sys

from llvmpy_mid.cli import main

if __name__ == "__main__":
    sys.exit(main())
