"""A name for a module that is the same on every run and differs between modules that export
different symbols (LLVM 19.1.7 ``lib/Transforms/Utils/ModuleUtils.cpp``, ``getUniqueModuleId``).

How: the MD5 of the names of the module's exported definitions (functions, then variables,
aliases and ifuncs, in module order; each name followed by a zero byte), where exported means
a definition with ``external`` linkage, no comdat and a name outside ``llvm.``. The result is
``"." + 32 lowercase hex digits``, or ``""`` when the module exports nothing.
"""

from __future__ import annotations

import hashlib

from llvmpy_mid.ir.global_value import GlobalValue, Linkage
from llvmpy_mid.ir.module import Module


def _exported(gv: GlobalValue) -> bool:
    return (
        not gv.is_declaration
        and not gv.name.startswith("llvm.")
        and gv.linkage is Linkage.EXTERNAL
        and not gv.has_comdat
    )


def get_unique_module_id(module: Module) -> str:
    """``"." + md5 hex`` of the exported symbol names, ``""`` when there are none."""
    md5 = hashlib.md5()
    exports = False
    values: list[GlobalValue] = [*module.functions, *module.globals, *module.aliases, *module.ifuncs]
    for gv in values:
        if _exported(gv):
            exports = True
            md5.update(gv.name.encode("utf-8", "surrogateescape") + b"\0")
    return "." + md5.hexdigest() if exports else ""


__all__ = ["get_unique_module_id"]
