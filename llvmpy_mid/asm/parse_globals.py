"""Global variables, aliases, ifuncs and comdats in ``.ll`` text, and the
linkage words every global value shares.

What: :class:`GlobalParser` reads ``@g = ...`` definitions -- linkage,
``dso_local``/``dso_preemptable``, visibility, DLL storage, ``thread_local``
models, ``unnamed_addr``/``local_unnamed_addr``, ``addrspace``,
``externally_initialized``, ``global``/``constant``, the initializer, and the
trailing ``section``, ``partition``, ``comdat``, ``align``, ``code_model``,
sanitizer flags, ``!kind !N`` attachments and attributes -- and ``alias`` /
``ifunc`` definitions, and ``$c = comdat <kind>``. A global referenced before
its definition has a placeholder that the definition replaces everywhere
(``replace_all_uses_with``), as in LLVM; numbered globals (``@0``) must not go
backwards. Linkage rules are checked with LLVM's messages.

Not done here: functions (:mod:`~llvmpy_mid.asm.parse_functions`), which use
the linkage helpers defined here.
"""

from __future__ import annotations

from typing import cast

from llvmpy_mid.asm.lexer import is_digits
from llvmpy_mid.asm.parse_control import ControlFlowParser
from llvmpy_mid.ir.attributes import AttributeSet
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.global_value import (
    Comdat,
    ComdatSelection,
    DLLStorageClass,
    GlobalAlias,
    GlobalIFunc,
    GlobalObject,
    GlobalValue,
    GlobalVariable,
    Linkage,
    ThreadLocalMode,
    UnnamedAddr,
    Visibility,
)
from llvmpy_mid.ir.types import FunctionType, PointerType, TypeID

_LINKAGES = {lk.value: lk for lk in Linkage}
_VISIBILITIES = {"default": Visibility.DEFAULT, "hidden": Visibility.HIDDEN, "protected": Visibility.PROTECTED}
_DLL = {"dllimport": DLLStorageClass.DLLIMPORT, "dllexport": DLLStorageClass.DLLEXPORT}
_TLS = {
    "localdynamic": ThreadLocalMode.LOCAL_DYNAMIC,
    "initialexec": ThreadLocalMode.INITIAL_EXEC,
    "localexec": ThreadLocalMode.LOCAL_EXEC,
}
_COMDAT_KINDS = {s.value: s for s in ComdatSelection}
_SANITIZERS = ("no_sanitize_address", "no_sanitize_hwaddress", "sanitize_memtag", "sanitize_address_dyninit")
_DEFINE_ONLY = frozenset(
    (
        Linkage.PRIVATE,
        Linkage.INTERNAL,
        Linkage.AVAILABLE_EXTERNALLY,
        Linkage.LINKONCE,
        Linkage.LINKONCE_ODR,
        Linkage.WEAK,
        Linkage.WEAK_ODR,
    )
)
_ALIAS_LINKAGES = frozenset(
    (
        Linkage.EXTERNAL,
        Linkage.PRIVATE,
        Linkage.INTERNAL,
        Linkage.WEAK,
        Linkage.WEAK_ODR,
        Linkage.LINKONCE,
        Linkage.LINKONCE_ODR,
        Linkage.AVAILABLE_EXTERNALLY,
    )
)
_BAD_GLOBAL_TYPES = frozenset(
    (TypeID.VOID, TypeID.LABEL, TypeID.METADATA, TypeID.TOKEN, TypeID.X86_AMX, TypeID.FUNCTION)
)


class _Linkage:
    """The optional linkage, preemption, visibility and DLL storage words."""

    __slots__ = ("linkage", "has_linkage", "dso_local", "visibility", "dll", "at")

    def __init__(self) -> None:
        self.linkage = Linkage.EXTERNAL
        self.has_linkage = False
        self.dso_local = False
        self.visibility = Visibility.DEFAULT
        self.dll = DLLStorageClass.DEFAULT
        self.at = 0


class GlobalParser(ControlFlowParser):
    """Global variables, aliases, ifuncs, comdats and linkage words."""

    __slots__ = ()

    # --- comdats -------------------------------------------------------------------------------------------
    def parse_comdat(self) -> None:
        toks = self.toks
        at = self.p
        name = self.name_of(toks[at])
        self.p += 1
        self.expect("=", "expected '=' here")
        self.expect("comdat", "expected comdat type")
        kind = _COMDAT_KINDS.get(toks[self.p])
        if kind is None:
            self.fail("unknown selection kind")
        self.p += 1
        comdat = self.module.comdats.get(name)
        if comdat is not None and name not in self.fwd_comdats:
            self.fail("redefinition of comdat '$%s'" % name, at)
        self.fwd_comdats.pop(name, None)
        comdat = self.module.get_or_insert_comdat(name, kind)
        comdat.selection = kind

    def get_comdat(self, name: str, at: int) -> Comdat:
        comdat = self.module.comdats.get(name)
        if comdat is None:
            comdat = self.module.get_or_insert_comdat(name)
            self.fwd_comdats[name] = at
        return comdat

    def parse_optional_comdat(self, global_name: str) -> Comdat | None:
        toks = self.toks
        if toks[self.p] != "comdat":
            return None
        at = self.p
        self.p += 1
        if toks[self.p] == "(":
            self.p += 1
            tok = toks[self.p]
            if tok[:1] != "$":
                self.fail("expected comdat variable")
            comdat = self.get_comdat(self.name_of(tok), self.p)
            self.p += 1
            self.expect(")", "expected ')' after comdat var")
            return comdat
        if not global_name:
            self.fail("comdat cannot be unnamed")
        return self.get_comdat(global_name, at)

    # --- linkage words -----------------------------------------------------------------------------------
    def parse_linkage(self) -> _Linkage:
        toks = self.toks
        info = _Linkage()
        info.at = self.p
        lk = _LINKAGES.get(toks[self.p])
        if lk is not None:
            info.linkage = lk
            info.has_linkage = True
            self.p += 1
        tok = toks[self.p]
        if tok == "dso_local":
            info.dso_local = True
            self.p += 1
        elif tok == "dso_preemptable":
            self.p += 1
        vis = _VISIBILITIES.get(toks[self.p])
        if vis is not None:
            info.visibility = vis
            self.p += 1
        dll = _DLL.get(toks[self.p])
        if dll is not None:
            info.dll = dll
            self.p += 1
            if info.dso_local and dll is DLLStorageClass.DLLIMPORT:
                self.fail("dso_location and DLL-StorageClass mismatch")
        return info

    def check_linkage_rules(self, info: _Linkage, at: int) -> None:
        if info.linkage.is_local:
            if info.visibility is not Visibility.DEFAULT:
                self.fail("symbol with local linkage must have default visibility", at)
            if info.dll is not DLLStorageClass.DEFAULT:
                self.fail("symbol with local linkage cannot have a DLL storage class", at)

    def apply_linkage(self, gv: GlobalValue, info: _Linkage) -> None:
        gv.linkage = info.linkage
        if info.dso_local:
            gv.is_dso_local = True
        gv.visibility = info.visibility
        gv.dll_storage_class = info.dll

    def parse_thread_local(self) -> ThreadLocalMode:
        toks = self.toks
        if toks[self.p] != "thread_local":
            return ThreadLocalMode.NOT_THREAD_LOCAL
        self.p += 1
        if toks[self.p] != "(":
            return ThreadLocalMode.GENERAL_DYNAMIC
        self.p += 1
        mode = _TLS.get(toks[self.p])
        if mode is None:
            self.fail("expected localdynamic, initialexec or localexec")
        self.p += 1
        self.expect(")", "expected ')' after thread local model")
        return mode

    def parse_unnamed_addr(self) -> UnnamedAddr:
        tok = self.toks[self.p]
        if tok == "unnamed_addr":
            self.p += 1
            return UnnamedAddr.GLOBAL
        if tok == "local_unnamed_addr":
            self.p += 1
            return UnnamedAddr.LOCAL
        return UnnamedAddr.NONE

    # --- global names ----------------------------------------------------------------------------------------
    def global_key_and_name(self, tok: str, at: int, what: str) -> tuple[str, str]:
        """The table key and name of ``@x`` / ``@N`` being defined (numbered ones checked)."""
        body = tok[1:]
        if is_digits(body):
            number = int(body)
            if number < self.next_global_number:
                self.fail("%s expected to be numbered '@%d' or greater" % (what, self.next_global_number), at)
            if number == 0xFFFFFFFF:  # LLVM's "no number": the next one
                number = self.next_global_number
                tok = "@%d" % number
            self.next_global_number = number + 1
            return tok, ""
        key = self.local_key(tok)
        name = self.name_of(tok, at)
        if not name:
            key = "@%d" % self.next_global_number
            self.next_global_number += 1
        return key, name

    def take_forward_global(self, key: str) -> GlobalValue | None:
        fwd = self.fwd_globals.pop(key, None)
        return fwd[0] if fwd is not None else None

    def replace_forward_global(self, placeholder: GlobalValue | None, gv: GlobalValue, at: int, what: str) -> None:
        if placeholder is None:
            return
        if placeholder.type is not gv.type:
            self.fail("forward reference and definition of %s have different types" % what, at)
        placeholder._replace_all_uses(gv)

    # --- global variables, aliases, ifuncs ------------------------------------------------------------------
    def parse_global_entity(self) -> None:
        toks = self.toks
        name_at = self.p
        tok = toks[name_at]
        self.p += 1
        self.expect("=", "expected '=' in global variable")
        info = self.parse_linkage()
        tls = self.parse_thread_local()
        unnamed = self.parse_unnamed_addr()
        kw = toks[self.p]
        if kw == "alias" or kw == "ifunc":
            self.parse_alias_or_ifunc(tok, name_at, info, tls, unnamed, kw == "alias")
        else:
            self.parse_global_variable(tok, name_at, info, tls, unnamed)

    def parse_global_variable(
        self, tok: str, name_at: int, info: _Linkage, tls: ThreadLocalMode, unnamed: UnnamedAddr
    ) -> None:
        toks = self.toks
        self.check_linkage_rules(info, name_at)
        space = self.parse_optional_addrspace(0)  # LLVM: 0, not the layout's G, when unwritten
        ext_init = self.eat("externally_initialized")
        kw = toks[self.p]
        if kw == "global":
            is_constant = False
        elif kw == "constant":
            is_constant = True
        else:
            self.fail("expected 'global' or 'constant'")
        self.p += 1
        ty_at = self.p
        ty = self.parse_type()
        init: Constant | None = None
        if not info.has_linkage or info.linkage not in (Linkage.EXTERNAL, Linkage.EXTERN_WEAK):
            init = self.parse_constant(ty)
        if ty.type_id in _BAD_GLOBAL_TYPES:
            self.fail("invalid type for global variable", ty_at)
        key, name = self.global_key_and_name(tok, name_at, "global")
        placeholder = self.take_forward_global(key)
        if key in self.globals:
            self.fail("redefinition of global '@%s'" % (name or key[1:]), name_at)
        gv = GlobalVariable(ty, name, Linkage.EXTERNAL, init, is_constant, space)
        self.module.globals.append(gv)
        self.globals[key] = gv
        self.apply_linkage(gv, info)
        gv.externally_initialized = ext_init
        gv.thread_local_mode = tls
        gv.unnamed_addr = unnamed
        if placeholder is not None:
            if placeholder.address_space != space:
                self.fail("forward reference and definition of global have different types", ty_at)
            placeholder._replace_all_uses(gv)
        sanitizers: set[str] = set()
        while toks[self.p] == ",":
            self.p += 1
            kw = toks[self.p]
            if kw == "section":
                self.p += 1
                gv.section = self.parse_string("expected global section string")
            elif kw == "partition":
                self.p += 1
                gv.partition = self.parse_string("expected partition string")
            elif kw == "align":
                self.p += 1
                gv.alignment = self.parse_alignment_value()
            elif kw == "code_model":
                self.p += 1
                at = self.p
                model = self.parse_string("expected string")
                if model not in ("tiny", "small", "kernel", "medium", "large"):
                    self.fail("invalid code model", at)
                gv.code_model = model
            elif kw[:1] == "!" and len(kw) > 1 and not is_digits(kw[1]) and kw[1] != '"':
                self.parse_global_attachment(gv)
            elif kw in _SANITIZERS:
                if kw in sanitizers:
                    self.fail("sanitizer metadata specified more than once")
                sanitizers.add(kw)
                self.p += 1
            else:
                comdat = self.parse_optional_comdat(name)
                if comdat is None:
                    self.fail("unknown global variable property!")
                gv.comdat = comdat
        if sanitizers:
            gv.sanitizer_metadata = tuple(s for s in _SANITIZERS if s in sanitizers)
        attrs, groups = self.parse_fn_attrs()
        if attrs:
            gv.attributes = AttributeSet(attrs)
        if groups:
            self.attr_group_refs.append((gv, None, tuple(groups), name_at))

    def parse_global_attachment(self, gv: GlobalObject) -> None:
        kid, node, number = self.parse_attachment()
        md = gv._global_md
        if md is None:
            md = gv._global_md = []
        md.append((kid, node))
        if number >= 0 and node._users is not None:
            self.md_fixups.append((gv, len(md) - 1, number))

    def parse_alias_or_ifunc(
        self, tok: str, name_at: int, info: _Linkage, tls: ThreadLocalMode, unnamed: UnnamedAddr, is_alias: bool
    ) -> None:
        toks = self.toks
        self.p += 1
        if is_alias:
            if info.linkage not in _ALIAS_LINKAGES:
                self.fail("invalid linkage type for alias", name_at)
        elif info.linkage not in _ALIAS_LINKAGES or info.linkage is Linkage.AVAILABLE_EXTERNALLY:
            self.fail("invalid linkage type for ifunc", name_at)
        self.check_linkage_rules(info, name_at)
        ty_at = self.p
        ty = self.parse_type()
        self.expect(",", "expected comma after alias or ifunc's type")
        target_at = self.p
        if toks[self.p] in ("bitcast", "getelementptr", "addrspacecast", "inttoptr"):
            aliasee = self.parse_constant(self.ctx.ptr) if False else self.parse_untyped_constexpr()
        else:
            aliasee = self.parse_type_and_constant()
        pty = aliasee.type
        if not isinstance(pty, PointerType):
            self.fail("An alias or ifunc must have pointer type", target_at)
        key, name = self.global_key_and_name(tok, name_at, "global")
        placeholder = self.take_forward_global(key)
        if key in self.globals:
            self.fail("redefinition of global '@%s'" % (name or key[1:]), name_at)
        gv: GlobalValue
        if is_alias:
            gv = GlobalAlias(ty, "", aliasee, info.linkage, pty.address_space)
        else:
            if not isinstance(ty, FunctionType):
                self.fail("ifunc's type must be a function type", ty_at)
            gv = GlobalIFunc(ty, "", aliasee, info.linkage, pty.address_space)
        gv.thread_local_mode = tls
        gv.visibility = info.visibility
        gv.dll_storage_class = info.dll
        gv.unnamed_addr = unnamed
        if info.dso_local:
            gv.is_dso_local = True
        while toks[self.p] == ",":
            self.p += 1
            if toks[self.p] == "partition":
                self.p += 1
                gv.partition = self.parse_string("expected partition string")
            else:
                self.fail("unknown alias or ifunc property!")
        if placeholder is not None:
            if placeholder.type is not gv.type:
                self.fail("forward reference and definition of alias have different types", ty_at)
            placeholder._replace_all_uses(gv)
        gv._name = name
        if isinstance(gv, GlobalAlias):
            self.module.aliases.append(gv)
        else:
            assert isinstance(gv, GlobalIFunc)
            self.module.ifuncs.append(gv)
        self.globals[key] = gv

    def parse_untyped_constexpr(self) -> Constant:
        """An aliasee written as a bare constant expression (its type is implied)."""
        at = self.p
        tok = self.toks[at]
        handler = {"bitcast": "cast", "addrspacecast": "cast", "inttoptr": "cast", "getelementptr": "gep"}[tok]
        # Parse with a throwaway expected type, then take the expression's own type.
        probe = self.p
        if handler == "cast":
            self.p = probe + 1
            self.expect("(", "expected '(' after constantexpr cast")
            self.parse_type_and_constant()
            self.expect("to", "expected 'to' in constantexpr cast")
            dest = self.parse_type()
            self.p = at
            return self.parse_constant(dest)
        # getelementptr: the result is the base pointer's type (or a vector of it).
        self.p = probe + 1
        while self.toks[self.p] in ("inbounds", "nusw", "nuw"):
            self.p += 1
        if self.toks[self.p] == "inrange":
            self.p += 1
            self.expect("(", "expected '('")
            self.parse_int()
            self.expect(",", "expected ','")
            self.parse_int()
            self.expect(")", "expected ')'")
        self.expect("(", "expected '(' in constantexpr")
        self.parse_type()
        self.expect(",", "expected comma after getelementptr's type")
        base_ty = self.parse_type()
        self.p = at
        return self.parse_constant(base_ty)
