"""csmith programs for the pass tests, the same corpus the textual-IR tests use.

``csmith_paths()`` returns the ``.ll`` files (``O0``, ``O2``, ``O2g`` per seed) of the default csmith
seeds, generating them on first use (at collection time) with ``tests/asm/corpus.py`` into the
session's corpus folder: ``$LLVMPY_MID_CSMITH_DIR`` when set, otherwise a temporary folder that
``tests/conftest.py`` names for the whole session (so the asm fixtures reuse the same programs).
Without csmith / clang-19 / lli-19 it returns an empty list, and tests parametrized over it are
reported as skipped with that reason.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

_ASM = Path(__file__).resolve().parent / "asm"
if str(_ASM) not in sys.path:
    sys.path.insert(0, str(_ASM))

from corpus import DEFAULT_SEEDS, generate_csmith, missing_tools  # noqa: E402

CSMITH_TOOLS = ("bash", "csmith", "clang-19", "lli-19", "opt-19")


@lru_cache(maxsize=1)
def csmith_paths() -> list[Path]:
    folder = os.environ.get("LLVMPY_MID_CSMITH_DIR")
    if not folder or missing_tools(*CSMITH_TOOLS):
        return []
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    corpus = generate_csmith(path, DEFAULT_SEEDS)
    return sorted(corpus.all_files(), key=lambda p: (p.name.split(".")[0], p.name))
