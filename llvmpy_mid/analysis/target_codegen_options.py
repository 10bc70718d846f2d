"""The code-generation settings opt-19 gives its target machine, as far as target answers
depend on them: the relocation model (``-relocation-model``) and the code model
(``-code-model``), LLVM 19.1.7 ``lib/CodeGen/CommandFlags.cpp`` and the x86 target machine's
``getEffectiveRelocModel``/``getEffectiveX86CodeModel`` (``lib/Target/X86/X86TargetMachine.cpp``).

What: :func:`x86_relocation_model` is the model an x86 target machine runs with for a triple
(by default PIC on 64-bit Darwin and Windows, ``dynamic-no-pic`` on 32-bit Darwin, static
elsewhere; an explicit ``dynamic-no-pic`` is PIC on x86-64 and static outside Darwin; an
explicit ``static`` is PIC on 64-bit Darwin). :func:`code_model` is the ``-code-model`` given,
``small`` by default. Values are checked as opt-19's parser does.

What it does not do: other targets' defaults (only x86 target answers are modelled).
"""

from __future__ import annotations

from llvmpy_mid.errors import PipelineError

RELOCATION_MODELS = ("static", "pic", "dynamic-no-pic", "ropi", "rwpi", "ropi-rwpi")
CODE_MODELS = ("tiny", "small", "kernel", "medium", "large")


def _option(name: str, allowed: tuple[str, ...]) -> str:
    from llvmpy_mid.passes.options import OPTIONS

    if OPTIONS.get(name) is None:
        return ""
    value = str(OPTIONS.value(name))
    if value and value not in allowed:
        raise PipelineError("for the --%s option: Cannot find option named '%s'!" % (name, value))
    return value


def x86_relocation_model(triple: str) -> str:
    """The relocation model of an x86 target machine for ``triple``."""
    parts = triple.split("-")
    arch = parts[0]
    is_64 = arch in ("x86_64", "amd64", "x86_64h")
    os_name = parts[2] if len(parts) > 2 else ""
    darwin = os_name.startswith(("darwin", "macos", "ios", "tvos", "watchos", "xros", "bridgeos", "driverkit"))
    windows = os_name.startswith(("windows", "win32"))
    explicit = _option("relocation-model", RELOCATION_MODELS)
    if not explicit:
        if darwin:
            return "pic" if is_64 else "dynamic-no-pic"
        return "pic" if windows and is_64 else "static"
    if explicit == "dynamic-no-pic":
        if is_64:
            return "pic"
        if not darwin:
            return "static"
    if explicit == "static" and darwin and is_64:
        return "pic"
    return explicit


def code_model() -> str:
    """``-code-model``'s value, ``small`` when not given."""
    return _option("code-model", CODE_MODELS) or "small"


__all__ = ["CODE_MODELS", "RELOCATION_MODELS", "code_model", "x86_relocation_model"]
