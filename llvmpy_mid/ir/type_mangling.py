"""LLVM's mangling of a type in an overloaded intrinsic's name.

What: :func:`mangle_type` is ``getMangledTypeStr`` (``p0``, ``v4i32``,
``nxv2f64``, ``a4i8``, ``sl_i32i1s``, ``s_names``, ``f_i32p0f32varargf``,
``tfoo_i32_5t``...), used to name intrinsics (the verifier's expected names)
and to rename old spellings when reading assembly.

How: an explicit stack of types and closing strings, so deep types do not
recurse.

What it does not do: number unnamed identified structs (LLVM names those per
module; we answer None), or know which of an intrinsic's types are
overloaded (``verifier.intrinsic_signatures`` does).
"""

from __future__ import annotations

from llvmpy_mid.ir.types import FunctionType, PointerType, StructType, TargetExtType, Type, TypeID, VectorType

_FP_MANGLING = {
    TypeID.HALF: "f16",
    TypeID.BFLOAT: "bf16",
    TypeID.FLOAT: "f32",
    TypeID.DOUBLE: "f64",
    TypeID.X86_FP80: "f80",
    TypeID.FP128: "f128",
    TypeID.PPC_FP128: "ppcf128",
    TypeID.VOID: "isVoid",
    TypeID.METADATA: "Metadata",
    TypeID.X86_MMX: "x86mmx",
    TypeID.X86_AMX: "x86amx",
}


def mangle_type(ty: Type) -> str | None:
    """LLVM's ``getMangledTypeStr`` (``p0``, ``v4i32``, ``sl_i32i1s``...);
    None when the type holds an unnamed identified struct (LLVM then numbers
    the name per module)."""
    out: list[str] = []
    stack: list[Type | str] = [ty]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        t = item
        tid = t.type_id
        if tid is TypeID.INTEGER:
            out.append("i%d" % t.width)  # type: ignore[attr-defined]
        elif isinstance(t, PointerType):
            out.append("p%d" % t.address_space)
        elif isinstance(t, VectorType):
            out.append(("nxv%d" if t.scalable else "v%d") % t.count)
            stack.append(t.element_type)
        elif tid is TypeID.ARRAY:
            out.append("a%d" % t.count)  # type: ignore[attr-defined]
            stack.append(t.element_type)  # type: ignore[attr-defined]
        elif isinstance(t, StructType):
            if not t.is_literal:
                if not t.name:
                    return None
                out.append("s_" + t.name + "s")
            else:
                out.append("sl_")
                stack.append("s")
                stack.extend(reversed(t.elements))
        elif isinstance(t, FunctionType):
            out.append("f_")
            stack.append("f")
            if t.is_vararg:
                stack.append("vararg")
            stack.extend(reversed(t.params))
            stack.append(t.return_type)
        elif isinstance(t, TargetExtType):
            out.append("t" + t.name)
            stack.append("t")
            for i in reversed(t.int_params):
                stack.append("_%d" % i)
            for p in reversed(t.type_params):
                stack.append(p)
                stack.append("_")
        else:
            text = _FP_MANGLING.get(tid)
            if text is None:
                return None
            out.append(text)
    return "".join(out)


def intrinsic_name(base: str, overloads: list[Type]) -> str | None:
    """LLVM's ``Intrinsic::getName``: ``base`` plus each overloaded type's
    mangling; None when one holds an unnamed struct."""
    parts = [base]
    for ty in overloads:
        text = mangle_type(ty)
        if text is None:
            return None
        parts.append(text)
    return ".".join(parts)


__all__ = ["intrinsic_name", "mangle_type"]
