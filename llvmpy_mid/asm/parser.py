"""The ``.ll`` parser: :func:`parse` turns LLVM 19 textual IR into a :class:`Module`.

What: the top of the parser. :class:`Parser` reads the module header
(``source_filename``, ``target triple`` and ``target datalayout``, which is
applied before anything else is read, as LLVM does; a triple without a
layout gets the layout opt-19 infers for common targets), then dispatches
every top-level entity to the layer that reads it: ``module asm``,
``deplibs``, identified struct types (:mod:`~llvmpy_mid.asm.parse_types`),
comdats and global variables/aliases/ifuncs
(:mod:`~llvmpy_mid.asm.parse_globals`), ``declare``/``define``
(:mod:`~llvmpy_mid.asm.parse_functions`), ``attributes #N = { ... }``,
numbered and named metadata (:mod:`~llvmpy_mid.asm.parse_metadata`) and
``uselistorder`` directives. The parser is one class assembled from those
layers (``ParserBase`` <- types <- attributes <- values <- constant
expressions <- metadata <- instructions <- control flow <- globals <-
functions <- ``Parser``).

At the end of the module, as LLVM's ``validateEndOfModule``: ``#N`` groups
are merged into the functions, calls and globals that named them,
undefined types, comdats, globals and metadata are reported, calls of
undeclared intrinsics declare them, metadata cycles are resolved, and the
module is upgraded (:mod:`~llvmpy_mid.asm.parse_upgrade`).

Errors are :class:`~llvmpy_mid.errors.ParseError` at the offending token,
worded as LLVM words them. The grammar code checks what LLVM checks; as a
last resort :func:`parse` turns any other exception (an ``IRError`` from a
constructor, a ``RecursionError``...) into a ParseError at the current
token, so nothing else escapes.
"""

from __future__ import annotations

import gc
import os
from typing import Any, Callable, cast

from llvmpy_mid.asm.lexer import is_digits
from llvmpy_mid.asm.parse_functions import FunctionParser
from llvmpy_mid.errors import DataLayoutError, IRError, ParseError
from llvmpy_mid.ir.attributes import Attribute, AttributeList, AttributeSet
from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalObject, GlobalVariable, Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.metadata import TEMPORARY
from llvmpy_mid.ir.module import Module


class Parser(FunctionParser):
    """The whole-module parser. ``Parser(text, context, filename).run()``; set ``triple_override``
    first to replace the module's target triple (opt's ``-mtriple``), ``layout_override`` to
    replace its data layout (opt's ``-data-layout``)."""

    __slots__ = ("triple_override", "layout_override", "check_debug_info")

    def __init__(self, text: str, context: Context | None, filename: str) -> None:
        super().__init__(text, context, filename)
        self.triple_override: str | None = None
        self.layout_override: str | None = None
        self.check_debug_info: Callable[[Module], None] | None = None

    def run(self) -> Module:
        self.init_type_words()
        self.index_metadata()
        self.data_layout = self.module.data_layout
        self.parse_header()
        toks = self.toks
        while True:
            tok = toks[self.p]
            if not tok:
                break
            handler = _TOP_LEVEL.get(tok)
            if handler is not None:
                handler(self)
                continue
            c = tok[0]
            if c == "@":
                self.parse_global_entity()
            elif c == "%":
                self.parse_type_definition()
            elif c == "!":
                body = tok[1:]
                if is_digits(body):
                    self.parse_standalone_metadata()
                elif body and body[0] != '"':
                    self.parse_named_metadata()
                else:
                    self.fail("expected top-level entity")
            elif c == "$":
                self.parse_comdat()
            elif c == "^" and is_digits(tok[1:]):
                self.skip_summary_entry()
            else:
                self.fail("expected top-level entity")
        self.validate_end_of_module()
        return self.module

    # --- header ------------------------------------------------------------------------------------------
    def parse_header(self) -> None:
        toks = self.toks
        layout_text: str | None = None
        layout_at = 0
        while True:
            tok = toks[self.p]
            if tok == "source_filename":
                self.p += 1
                self.expect("=", "expected '=' after source_filename")
                self.module.source_filename = self.parse_string()
            elif tok == "target":
                self.p += 1
                what = toks[self.p]
                if what == "triple":
                    self.p += 1
                    self.expect("=", "expected '=' after target triple")
                    self.module.target_triple = self.parse_string()
                elif what == "datalayout":
                    self.p += 1
                    self.expect("=", "expected '=' after target datalayout")
                    layout_at = self.p
                    layout_text = self.parse_string()
                else:
                    self.fail("unknown target property")
            else:
                break
        if self.triple_override is not None:  # opt's -mtriple: before the layout is inferred
            self.module.target_triple = self.triple_override
        if self.layout_override:  # opt's -data-layout: above the module's and the triple's
            layout_text = self.layout_override
            layout_at = 0
        if layout_text is None:
            layout_text = default_layout_for_triple(self.module.target_triple)
        if layout_text is not None:
            try:
                self.module.data_layout = layout_text
            except DataLayoutError as exc:
                self.fail(str(exc), layout_at)
            self.data_layout = self.module.data_layout

    def parse_module_asm(self) -> None:
        self.p += 1
        self.expect("asm", "expected 'module asm'")
        text = self.parse_string("expected string constant")
        lines = self.module.module_asm
        lines.extend(text.split("\n"))

    def parse_deplibs(self) -> None:
        self.p += 1
        self.expect("=", "expected '=' after deplibs")
        self.expect("[", "expected '=' after deplibs")
        if self.toks[self.p] != "]":
            while True:
                self.parse_string()
                if not self.eat(","):
                    break
        self.expect("]", "expected ']' at end of list")

    def parse_top_target(self) -> None:
        self.fail("expected top-level entity")

    # --- module summary entries -------------------------------------------------------------------------
    def skip_summary_entry(self) -> None:
        """``^N = module: (...)`` (or ``gv:``, ``typeid:``, ``flags: N``, ``blockcount: N``):
        checked and skipped, as LLVM's parser does when it builds a module and no summary index
        (opt, llvm-as): the entry is not kept and opt -S prints none. Like LLVM's lexer, the rest
        of the file is lexed without identifier labels from here on (``name:`` is ``name`` ``:``),
        so metadata after a summary entry fails as it does in opt-19."""
        from llvmpy_mid.asm.lexer import token_offset, tokenize_without_labels

        if self.labels_off_at is None:
            at = self.p + 1
            offset = token_offset(self.text, at)
            rest = tokenize_without_labels(self.text, offset)
            rest.extend(("", "", "", ""))
            del self.toks[at:]
            self.toks.extend(rest)
            self.labels_off_at = (at, offset)
        toks = self.toks
        self.p += 1
        self.expect("=", "expected '=' here")
        kind = toks[self.p]
        if kind not in ("gv", "module", "typeid", "flags", "blockcount"):
            self.fail("Expected 'gv', 'module', 'typeid', 'flags' or 'blockcount' at the start of summary entry")
        self.p += 1
        if kind == "flags" or kind == "blockcount":
            self.expect(":", "expected ':' here")
            tok = toks[self.p]
            if not is_digits(tok):
                self.fail("expected integer")
            self.p += 1
            return
        self.expect(":", "expected ':' at start of summary entry")
        self.expect("(", "expected '(' at start of summary entry")
        depth = 1
        while depth:
            tok = toks[self.p]
            if tok == "(":
                depth += 1
            elif tok == ")":
                depth -= 1
            elif not tok:
                self.fail("found end of file while parsing summary entry")
            self.p += 1

    # --- attribute groups ----------------------------------------------------------------------------------
    def parse_attribute_group(self) -> None:
        toks = self.toks
        at = self.p
        self.p += 1
        tok = toks[self.p]
        if tok[:1] != "#" or not is_digits(tok[1:]):
            self.fail("expected attribute group id")
        number = int(tok[1:])
        self.p += 1
        self.expect("=", "expected '=' here")
        self.expect("{", "expected '{' here")
        attrs, _ = self.parse_fn_attrs(in_group=True)
        self.expect("}", "expected end of attribute group")
        group = self.attr_groups.setdefault(number, [])
        group.extend(attrs)
        if not group:
            self.fail("attribute group has no attributes", at)

    # --- end of module --------------------------------------------------------------------------------------
    def validate_end_of_module(self) -> None:
        from llvmpy_mid.asm.parse_upgrade import upgrade_module, upgrade_tbaa_tags

        self.resolve_attribute_groups()
        if self.fn_block_addresses:
            refs = next(iter(self.fn_block_addresses.values()))
            self.fail("expected function name in blockaddress", refs[0][2])
        for key, at in self.fwd_types.items():
            if is_digits(key[1:]):
                self.fail("use of undefined type '%s'" % key, at)
            self.fail("use of undefined type named '%s'" % self.name_of(key), at)
        if self.fwd_comdats:
            name, at = next(iter(sorted(self.fwd_comdats.items())))
            self.fail("use of undefined comdat '$%s'" % name, at)
        self.declare_forward_intrinsics()
        if self.fwd_globals:
            named = sorted(k for k in self.fwd_globals if not is_digits(k[1:]))
            numbered = sorted((int(k[1:]), k) for k in self.fwd_globals if is_digits(k[1:]))
            first = named[0] if named else numbered[0][1]
            self.fail("use of undefined value '%s'" % first, self.fwd_globals[first][1])
        if self.md_fwd:
            number = min(self.md_fwd)
            self.fail("use of undefined metadata '!%d'" % number, self.md_fwd[number][1], 1)
        self.fix_metadata_attachments()
        for node in list(self.md_numbered.values()):
            if node._users is not None and node._storage != TEMPORARY:
                node.resolve_cycles()
        if self.tbaa_tagged:
            upgrade_tbaa_tags(self.tbaa_tagged)
        upgrade_module(self.module, self.saw_debug_info, self.check_debug_info)

    def declare_forward_intrinsics(self) -> None:
        """Calls of an undeclared intrinsic declare it, as LLVM's parser does: names in
        sorted order, each call (latest first) gets the declaration its type mangles to."""
        from llvmpy_mid.asm.parse_upgrade import implicit_intrinsic_declaration
        from llvmpy_mid.ir.instructions.calls import CallBase
        from llvmpy_mid.ir.intrinsics import lookup_intrinsic

        for key in sorted(self.fwd_globals):
            name = key[1:]
            if not name.startswith("llvm.") or lookup_intrinsic(name) is None:
                continue
            placeholder, at = self.fwd_globals.pop(key)
            for use in placeholder.use_list():
                user = use.user
                if not isinstance(user, CallBase) or use is not user.called_operand_use:
                    self.fail("intrinsic can only be used as callee", at)
                fn = implicit_intrinsic_declaration(self.module, name, user.function_type, placeholder.address_space)
                if fn is None:
                    self.fail("invalid intrinsic signature", at)
                use.set(fn)

    def fix_metadata_attachments(self) -> None:
        """Point attachments written ``!N`` at the final node numbered N (they
        held a temporary, or a node merged away while resolving)."""
        numbered = self.md_numbered
        for obj, slot, number in self.md_fixups:
            final = numbered[number]
            if isinstance(obj, Instruction):
                md = obj._md
                assert md is not None
                md[slot] = final
            else:
                gmd = cast(GlobalObject, obj)._global_md
                assert gmd is not None
                gmd[slot] = (gmd[slot][0], final)

    def resolve_attribute_groups(self) -> None:
        groups = self.attr_groups
        for obj, _, ids, at in self.attr_group_refs:
            extra: list[Attribute] = []
            for gid in ids:
                g = groups.get(gid)
                if g is not None:
                    extra.extend(g)
            if not extra:
                continue
            if isinstance(obj, GlobalVariable):
                obj.attributes = AttributeSet(list(obj.attributes) + extra)
                continue
            attrs: AttributeList = obj.attributes
            merged = list(attrs.fn_attrs) + extra
            if isinstance(obj, Function):
                kept: list[Attribute] = []
                for a in merged:
                    if a.kind is AttrKind.ALIGNMENT:
                        obj.alignment = a.int_value
                    else:
                        kept.append(a)
                merged = kept
            obj.attributes = attrs.with_fn_attrs(AttributeSet(merged))


# The data layouts opt-19 gives a module that names a target triple but no
# layout (opt asks the target, as LLVM's DataLayoutCallback in opt does); only
# common targets are listed, others keep the default layout. The strings follow
# each target's computeDataLayout (X86, AArch64, ARM, NVPTX, AMDGPU, PowerPC,
# Sparc, WebAssembly, RISC-V TargetMachine.cpp), checked against opt-19.
_X86_64_TAIL = "-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
_DARWIN_OSES = ("darwin", "macos", "ios", "tvos", "watchos", "driverkit", "xros", "visionos", "bridgeos")
_AMDGCN = (
    "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128"
    "-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512"
    "-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
)
_FIXED_LAYOUTS = {
    "amdgcn": _AMDGCN,
    "nvptx64": "e-i64:64-i128:128-v16:16-v32:32-n16:32:64",
    "nvptx": "e-p:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64",
    "sparcv9": "E-m:e-i64:64-n32:64-S128",
    "sparc64": "E-m:e-i64:64-n32:64-S128",
    "sparc": "E-m:e-p:32:32-i64:64-f128:64-n32-S64",
    "riscv64": "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128",
    "riscv32": "e-m:e-p:32:32-i64:64-n32-S128",
    "wasm32": "e-m:e-p:32:32-p10:8:8-p20:8:8-i64:64-n32:64-S128-ni:1:10:20",
    "wasm64": "e-m:e-p:64:64-p10:8:8-p20:8:8-i64:64-n32:64-S128-ni:1:10:20",
}


def default_layout_for_triple(triple: str) -> str | None:
    """The layout string ``opt-19`` infers for ``triple`` (None if unknown here)."""
    if not triple:
        return None
    parts = triple.split("-")
    arch = parts[0]
    os_name = parts[2] if len(parts) > 2 else ""
    env = parts[3] if len(parts) > 3 else ""
    darwin = os_name.startswith(_DARWIN_OSES)
    windows = os_name.startswith(("windows", "win32"))
    # The object format: named by the environment, else MachO on Darwin, COFF on Windows, ELF.
    if env.endswith("macho"):
        fmt = "o"
    elif env.endswith("elf"):
        fmt = "e"
    elif env.endswith("coff"):
        fmt = "w"
    else:
        fmt = "o" if darwin else ("w" if windows else "e")
    fixed = _FIXED_LAYOUTS.get(arch)
    if fixed is not None:
        if arch.startswith("wasm") and os_name.startswith("emscripten"):
            return None
        return fixed
    if arch == "x86_64":
        return "e-m:%s%s" % (fmt, _X86_64_TAIL)
    if arch in ("aarch64", "arm64", "arm64e"):
        if fmt == "w":
            return "e-m:w-p:64:64-i32:32-i64:64-i128:128-n32:64-S128-Fn32"
        if fmt == "o":
            return "e-m:o-i64:64-i128:128-n32:64-S128-Fn32"
        return "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
    if arch in ("i386", "i486", "i586", "i686") and fmt == "e":
        return "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128"
    if arch.startswith(("arm", "thumb")) and not arch.startswith(("armeb", "thumbeb", "arm64")):
        return _arm_layout(fmt, os_name, env)
    if arch == "powerpc64" and os_name.startswith("linux"):
        return "E-m:e-Fi64-i64:64-n32:64-S128-v256:256:256-v512:512:512"
    if arch == "powerpc64le" and os_name.startswith("linux"):
        return "e-m:e-Fn32-i64:64-n32:64-S128-v256:256:256-v512:512:512"
    if arch == "powerpc" and os_name.startswith("aix"):
        return "E-m:a-p:32:32-Fi32-i64:64-n32"
    return None


def _arm_layout(fmt: str, os_name: str, env: str) -> str:
    """32-bit little-endian ARM/Thumb: the ABI (APCS or AAPCS) decides alignments and stack."""
    if fmt == "o":
        apcs = not (env == "eabi" or not os_name or os_name == "unknown")
    else:
        aapcs_env = env.startswith(("android", "gnueabi", "musleabi", "eabi", "ohos"))
        apcs = not aapcs_env and (env == "gnu" or os_name.startswith("netbsd"))
    text = "e-m:%s-p:32:32-Fi8" % fmt
    if apcs:
        return text + "-f64:32:64-v64:32:64-v128:32:128-a:0:32-n32-S32"
    return text + "-i64:64-v128:64:128-a:0:32-n32-S64"


_TOP_LEVEL: dict[str, Any] = {
    "define": Parser.parse_define,
    "declare": Parser.parse_declare,
    "module": Parser.parse_module_asm,
    "attributes": Parser.parse_attribute_group,
    "uselistorder": Parser.parse_uselistorder,
    "uselistorder_bb": Parser.parse_uselistorder_bb,
    "deplibs": Parser.parse_deplibs,
    "target": Parser.parse_top_target,
    "source_filename": Parser.parse_top_target,
}


_DEBUG = bool(os.environ.get("LLVMPY_PARSER_DEBUG"))


def parse(
    text: str,
    context: Context | None,
    filename: str,
    *,
    target_triple: str | None = None,
    check_debug_info: Callable[[Module], None] | None = None,
    data_layout: str | None = None,
) -> Module:
    """Parse ``.ll`` text into a new module named ``filename`` (in ``context``,
    or a fresh one). Raises :class:`ParseError` on malformed input. ``target_triple``
    replaces the module's triple before its data layout is inferred (opt's ``-mtriple``);
    ``check_debug_info`` is the reader's verification (see ``upgrade_module``)."""
    parser = Parser(text, context, filename)
    parser.triple_override = target_triple
    parser.layout_override = data_layout
    parser.check_debug_info = check_debug_info
    was_enabled = gc.isenabled()
    # The cyclic collector would re-walk the growing graph while it is built;
    # it is paused, and the finished module moves straight to the oldest
    # generation (freeze + unfreeze), sparing the one full walk of every new
    # object that re-enabling it would otherwise trigger.
    gc.disable()
    try:
        module = parser.run()
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        return module
    except ParseError as err:
        if not parser.read_ahead_used:
            raise
        # A definition read ahead of its place failed: LLVM, reading in order, reports the first
        # error in the text, which may come before it. Read again in order to find that one.
        again = Parser(text, None, filename)  # a context of its own: the caller's stays clean
        again.triple_override = target_triple
        again.layout_override = data_layout
        again.read_ahead = False
        try:
            again.run()
        except ParseError as first:
            raise first from None
        except Exception:
            pass
        raise err
    except RecursionError:
        raise _last_resort(parser, "nesting too deep") from None
    except (IRError, ValueError, TypeError, KeyError, IndexError, AttributeError, AssertionError) as exc:
        if _DEBUG:
            raise
        raise _last_resort(parser, str(exc) or type(exc).__name__) from None
    finally:
        if was_enabled:
            gc.enable()


def _last_resort(parser: Parser, message: str) -> ParseError:
    index = min(parser.p, len(parser.toks) - 1)
    line, column, source = parser.position_of(index)
    return ParseError(message, parser.filename, line, column, source)


__all__ = ["Parser", "default_layout_for_triple", "parse"]
