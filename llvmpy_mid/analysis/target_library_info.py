"""Which C library functions a target has, and recognising them (LLVM 19.1.7
``llvm/lib/Analysis/TargetLibraryInfo.cpp``, ``llvm/include/llvm/Analysis/TargetLibraryInfo.{h,def}``).

What: :class:`TargetLibraryInfo` answers, for a module's target triple, whether
a library function is available (``has(name)``) and whether a declaration is a
known library function with the right prototype (``get_lib_func(fn)`` returns
LLVM's enum name, e.g. ``"memcpy"``, ``"Znwm"``, ``"dunder_strdup"``, or None).
The 483 functions and their prototypes come from LLVM's ``.def`` file
(:mod:`llvmpy_mid.analysis.target_library_info_table`); a prototype is checked
as ``isValidProtoForLibFunc`` does (``int`` is 32 bits, 16 on 16-bit targets;
``size_t`` is the pointer size of address space 0; ``Ellip`` needs a variadic
function; ``cabs*`` and ``sincospi*_stret`` have their special forms).
Availability follows ``initializeLibCalls`` for the triples opt-19 meets:
Linux (GNU, musl, Android), Darwin/macOS/iOS, Windows (MSVC, MinGW, Cygwin),
FreeBSD, PS4/PS5, AMDGPU, NVPTX, AIX, Emscripten and the empty triple.
Function attributes ``no-builtins`` and ``no-builtin-NAME`` disable functions
for that function's queries; opt's ``-disable-builtin=NAME`` (one name per run)
and ``-disable-simplify-libcalls`` apply to the analysis result.

``TargetLibraryAnalysis`` is the function analysis (logged under LLVM's name).

What it does not do (yet): vector-library mappings (``-vector-library``) and
the integer-extension ABI flags.
"""

from __future__ import annotations

import re
from typing import ClassVar, Iterable

from llvmpy_mid.analysis.target_library_info_table import LIB_FUNCS
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.types import ArrayType, FloatingPointType, FunctionType, IntegerType, PointerType, StructType, Type, VectorType
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis

LIB_FUNC_NAMES: tuple[str, ...] = tuple(e for e, _, _ in LIB_FUNCS)
"""LLVM's ``LibFunc`` enumerators (without the ``LibFunc_`` prefix), in enum order."""

_BY_SYMBOL: dict[str, int] = {name: i for i, (_, name, _) in enumerate(LIB_FUNCS)}
_BY_ENUM: dict[str, int] = {e: i for i, (e, _, _) in enumerate(LIB_FUNCS)}


class LibFunc:
    """Helpers over LLVM's ``LibFunc`` enumeration (an enum name is a ``str``)."""

    NAMES = LIB_FUNC_NAMES

    @staticmethod
    def symbol(enum_name: str) -> str:
        """The standard symbol of an enumerator (``"dunder_strdup"`` -> ``"__strdup"``)."""
        return LIB_FUNCS[_BY_ENUM[enum_name]][1]

    @staticmethod
    def from_symbol(symbol: str) -> str | None:
        """The enumerator named by a symbol, ignoring availability (LLVM ``getLibFunc(StringRef)``)."""
        if not symbol or "\0" in symbol:
            return None
        if symbol.startswith("\x01"):
            symbol = symbol[1:]
        i = _BY_SYMBOL.get(symbol)
        return None if i is None else LIB_FUNCS[i][0]


# --- target triples -----------------------------------------------------------------------------


class Triple:
    """The parts of a target triple the library table depends on (LLVM ``Triple``, simplified)."""

    __slots__ = ("text", "arch", "vendor", "os", "env", "os_version")

    def __init__(self, text: str) -> None:
        self.text = text
        parts = text.split("-") if text else []
        self.arch = parts[0] if parts else ""
        self.vendor = parts[1] if len(parts) > 1 else ""
        os_part = parts[2] if len(parts) > 2 else ""
        self.env = parts[3] if len(parts) > 3 else ""
        m = re.match(r"([a-z_]+?)(\d[\d.]*)?$", os_part)
        if os_part in ("ps4", "ps5", "win32"):
            self.os = os_part
            ver = ""
        elif m:
            self.os = m.group(1)
            ver = m.group(2) or ""
        else:
            self.os = os_part
            ver = ""
        self.os_version = tuple(int(p) for p in ver.split(".") if p.isdigit()) if ver else ()
        if self.os == "windows":
            self.os = "win32"
        # "x86_64-pc-windows-gnu", "i686-w64-mingw32": mingw32 is Windows with the GNU environment.
        if self.os == "mingw":
            self.os = "win32"
            self.env = self.env or "gnu"
        if self.os == "cygwin":
            self.os = "win32"
            self.env = "cygnus"

    # OS ---------------------------------------------------------------------------------------
    def is_os_linux(self) -> bool:
        return self.os == "linux"

    def is_os_darwin(self) -> bool:
        return self.os in ("darwin", "macosx", "macos", "ios", "tvos", "watchos", "xros", "driverkit", "bridgeos")

    def is_macosx(self) -> bool:
        return self.os in ("darwin", "macosx", "macos")

    def is_ios(self) -> bool:
        return self.os in ("ios", "tvos")

    def is_watchos(self) -> bool:
        return self.os == "watchos"

    def is_os_windows(self) -> bool:
        return self.os == "win32"

    def is_os_freebsd(self) -> bool:
        return self.os == "freebsd"

    def is_os_solaris(self) -> bool:
        return self.os == "solaris"

    def is_os_aix(self) -> bool:
        return self.os == "aix"

    def is_ps(self) -> bool:
        return self.os in ("ps4", "ps5")

    def is_amdgpu(self) -> bool:
        return self.arch in ("amdgcn", "r600")

    def is_nvptx(self) -> bool:
        return self.arch in ("nvptx", "nvptx64")

    def is_arch_16bit(self) -> bool:
        return self.arch in ("avr", "msp430")

    # environments --------------------------------------------------------------------------
    def is_gnu_environment(self) -> bool:
        return self.env.startswith("gnu")

    def is_musl(self) -> bool:
        return self.env.startswith("musl")

    def is_android(self) -> bool:
        return self.env.startswith("android")

    def android_version(self) -> int:
        m = re.match(r"android(\d+)", self.env)
        return int(m.group(1)) if m else 0

    def is_windows_msvc(self) -> bool:
        return self.is_os_windows() and (self.env.startswith("msvc") or self.env == "")

    def is_windows_gnu(self) -> bool:
        return self.is_os_windows() and self.env.startswith("gnu")

    def is_windows_itanium(self) -> bool:
        return self.is_os_windows() and self.env.startswith("itanium")

    def is_windows_cygwin(self) -> bool:
        return self.is_os_windows() and self.env.startswith("cygnus")

    def is_os_cygming(self) -> bool:
        return self.is_windows_cygwin() or self.is_windows_gnu()

    def is_os_msvcrt(self) -> bool:
        return self.is_windows_msvc() or self.is_windows_gnu() or self.is_windows_itanium()

    def msvc_version_major(self) -> int:
        m = re.match(r"msvc(\d+)", self.env)
        return int(m.group(1)) if m else 0

    # versions ------------------------------------------------------------------------------
    def macosx_version(self) -> tuple[int, int]:
        """LLVM ``getMacOSXVersion``: ``darwinN`` is 10.(N-4); no version is 10.4."""
        v = self.os_version
        if self.os == "darwin":
            major = v[0] if v else 8
            if major < 4:
                return (10, 0)
            if major <= 19:
                return (10, major - 4)
            return (major - 9, 0)
        if not v or v[0] == 0:
            return (10, 4)
        return (v[0], v[1] if len(v) > 1 else 0)

    def is_macosx_version_lt(self, major: int, minor: int) -> bool:
        return self.macosx_version() < (major, minor)

    def is_os_version_lt(self, major: int, minor: int = 0) -> bool:
        v = self.os_version
        return (v[0] if v else 0, v[1] if len(v) > 1 else 0) < (major, minor)

    def is_x86(self) -> bool:
        return self.arch in ("i386", "i486", "i586", "i686", "x86", "x86_64", "amd64")


def _has_sincospi_stret(t: Triple) -> bool:
    if not t.is_os_darwin():
        return False
    if t.arch in ("i386", "i486", "i586", "i686", "x86"):
        return False
    if t.is_macosx() and t.is_macosx_version_lt(10, 9):
        return False
    if t.is_ios() and t.is_os_version_lt(7, 0):
        return False
    return True


def _has_bcmp(t: Triple) -> bool:
    if t.is_os_linux():
        return t.is_gnu_environment() or t.is_musl()
    return t.is_os_freebsd() or t.is_os_solaris()


_UNLOCKED = (
    "getc_unlocked getchar_unlocked putc_unlocked putchar_unlocked fputc_unlocked fgetc_unlocked "
    "fread_unlocked fwrite_unlocked fputs_unlocked fgets_unlocked"
).split()

_WIN_FLOAT = (
    "acosf asinf atan2f atanf ceilf cosf coshf expf floorf fmodf log10f logf modff powf remainderf "
    "remquof sinf sinhf sqrtf tanf tanhf"
).split()
_WIN_LONG_DOUBLE = (
    "frexpf ldexpf acosl asinl atan2l atanl ceill cosl coshl expl fabsl floorl fmodl frexpl ldexpl "
    "log10l logl modfl powl remainderl remquol sinl sinhl sqrtl tanl tanhl"
).split()
_WIN_C99 = (
    "acosh acoshf asinh asinhf atanh atanhf cabsf cbrt cbrtf exp2 exp2f expm1 expm1f fmax fmaxf fmin "
    "fminf log1p log1pf log2 log2f rint rintf round roundf trunc truncf"
).split()
_WIN_ALWAYS = (
    "acoshl asinhl atanhl cabsl cbrtl copysignl exp2l expm1l fmaxl fminl log1pl log2l logbl nearbyintl "
    "rintl roundl truncl access chmod closedir fdopen fileno fseeko fstat ftello gettimeofday memccpy "
    "mkdir open opendir pclose popen read rmdir stat strcasecmp strncasecmp unlink utime write"
).split()
_WIN_NON_CYGWIN = (
    "bcmp bcopy bzero chown ctermid ffs flockfile fstatvfs ftrylockfile funlockfile getitimer "
    "getlogin_r getpwnam htonl htons lchown lstat memrchr ntohl ntohs pread pwrite readlink realpath "
    "setitimer statvfs stpcpy stpncpy times uname unsetenv utimes ldexpf"
).split()
_MSVCRT_CXX = [
    e
    for e in LIB_FUNC_NAMES
    if e.startswith(("ZdaPv", "ZdlPv", "Znaj", "Znam", "Znwj", "Znwm"))
]
_MSVC_NEW_DELETE = [e for e in LIB_FUNC_NAMES if e.startswith("msvc_")]
_GNU_LINUX_ONLY = (
    "dunder_strdup dunder_strtok_r dunder_isoc99_scanf dunder_isoc99_sscanf under_IO_getc under_IO_putc "
    "fopen64 fseeko64 fstat64 fstatvfs64 ftello64 lstat64 open64 stat64 statvfs64 tmpfile64"
).split() + [e for e in LIB_FUNC_NAMES if e.endswith("_finite")]
_PS_UNAVAILABLE = (
    "ZdaPvj ZdaPvjSt11align_val_t ZdlPvj ZdlPvjSt11align_val_t Znaj ZnajRKSt9nothrow_t "
    "ZnajSt11align_val_t ZnajSt11align_val_tRKSt9nothrow_t Znwj ZnwjRKSt9nothrow_t ZnwjSt11align_val_t "
    "ZnwjSt11align_val_tRKSt9nothrow_t memccpy_chk memcpy_chk memmove_chk mempcpy_chk memset_chk "
    "snprintf_chk sprintf_chk stpcpy_chk stpncpy_chk strcat_chk strcpy_chk strlcat_chk strlcpy_chk "
    "strlen_chk strncat_chk strncpy_chk vsnprintf_chk vsprintf_chk access chmod chown closedir ctermid "
    "execl execle execlp execv execvP execve execvp execvpe fork fstat fstatvfs getenv getitimer "
    "getlogin_r getpwnam gettimeofday lchown lstat mkdir open opendir pclose popen pread pwrite read "
    "readlink realpath rename rmdir setitimer stat statvfs system times tmpfile unlink uname unsetenv "
    "utime utimes valloc write atomic_load atomic_store __kmpc_alloc_shared __kmpc_free_shared "
    "dunder_strndup bcmp bcopy bzero cabs cabsf cabsl ffs flockfile fseeko ftello ftrylockfile "
    "funlockfile htonl htons isascii memccpy mempcpy memrchr ntohl ntohs reallocf roundeven roundevenf "
    "roundevenl stpcpy stpncpy strlcat strlcpy strndup strnlen toascii"
).split()
_DARWIN_OSES = frozenset(("darwin", "macosx", "macos", "ios", "tvos", "watchos", "xros", "freebsd", "linux"))


class TargetLibraryInfoImpl:
    """The per-triple table (LLVM ``TargetLibraryInfoImpl``): availability and custom names."""

    __slots__ = ("triple", "available", "custom_names", "int_size")

    def __init__(self, triple: str = "") -> None:
        self.triple = Triple(triple)
        self.available = [True] * len(LIB_FUNCS)
        self.custom_names: dict[int, str] = {}
        self.int_size = 16 if self.triple.is_arch_16bit() else 32
        self._initialize()

    def set_unavailable(self, enum_name: str) -> None:
        self.available[_BY_ENUM[enum_name]] = False

    def set_available(self, enum_name: str) -> None:
        i = _BY_ENUM[enum_name]
        self.available[i] = True
        self.custom_names.pop(i, None)

    def set_available_with_name(self, enum_name: str, name: str) -> None:
        i = _BY_ENUM[enum_name]
        self.available[i] = True
        if name != LIB_FUNCS[i][1]:
            self.custom_names[i] = name

    def disable_all(self) -> None:
        self.available = [False] * len(LIB_FUNCS)

    def _off(self, names: Iterable[str]) -> None:
        for n in names:
            self.set_unavailable(n)

    def _initialize(self) -> None:
        t = self.triple
        self._off(_UNLOCKED)
        if t.is_amdgpu():
            self.disable_all()
            self.set_available("__kmpc_alloc_shared")
            self.set_available("__kmpc_free_shared")
            return
        patterns = ("memset_pattern4", "memset_pattern8", "memset_pattern16")
        if t.is_macosx():
            for n in ("getc_unlocked", "getchar_unlocked", "putc_unlocked", "putchar_unlocked"):
                self.set_available(n)
            self.set_unavailable("memrchr")
            if t.is_macosx_version_lt(10, 5):
                self._off(patterns)
        elif t.is_ios():
            if t.is_os_version_lt(3, 0):
                self._off(patterns)
        elif not t.is_watchos():
            self._off(patterns)
        if not _has_sincospi_stret(t):
            self._off(("sinpi", "sinpif", "cospi", "cospif", "sincospi_stret", "sincospif_stret"))
        if not _has_bcmp(t):
            self.set_unavailable("bcmp")
        if t.is_macosx() and t.arch in ("i386", "i686", "x86") and not t.is_macosx_version_lt(10, 7):
            self.set_available_with_name("fwrite", "fwrite$UNIX2003")
            self.set_available_with_name("fputs", "fputs$UNIX2003")
        if t.arch not in ("xcore", "tce") and t.os != "emscripten":
            self._off(("iprintf", "siprintf", "fiprintf"))
        if t.os != "emscripten":
            self._off(("small_printf", "small_sprintf", "small_fprintf"))
        if t.is_os_windows() and not t.is_os_cygming():
            has_partial_c99 = True
            if t.is_windows_msvc() and t.env.startswith("msvc"):
                major = t.msvc_version_major()
                has_partial_c99 = major == 0 or major >= 19
            is_arm = t.arch in ("aarch64", "arm")
            has_partial_float = is_arm or t.arch == "x86_64"
            if not has_partial_float:
                self._off(_WIN_FLOAT)
            if not is_arm:
                self.set_unavailable("fabsf")
            self._off(_WIN_LONG_DOUBLE)
            if not has_partial_c99:
                self._off(_WIN_C99)
                self.set_available_with_name("cabs", "_cabs")
                self.set_available_with_name("copysign", "_copysign")
                self.set_available_with_name("copysignf", "_copysignf")
                self.set_available_with_name("logb", "_logb")
                if has_partial_float:
                    self.set_available_with_name("logbf", "_logbf")
                else:
                    self.set_unavailable("logbf")
            self._off(_WIN_ALWAYS)
        if t.is_os_windows() and not t.is_windows_cygwin():
            self._off(_WIN_NON_CYGWIN)
        if t.is_os_msvcrt():
            self._off(_MSVCRT_CXX)
        else:
            self._off(_MSVC_NEW_DELETE)
        if t.os in ("macosx", "macos", "darwin") and t.is_macosx():
            self.set_unavailable("exp10l")
            if t.is_macosx_version_lt(10, 9):
                self._off(("exp10", "exp10f"))
            else:
                self.set_available_with_name("exp10", "__exp10")
                self.set_available_with_name("exp10f", "__exp10f")
        elif t.os in ("ios", "tvos", "watchos", "xros"):
            self.set_unavailable("exp10l")
            if not t.is_watchos() and (t.is_os_version_lt(7, 0) or (t.is_os_version_lt(9, 0) and t.is_x86())):
                self._off(("exp10", "exp10f"))
            else:
                self.set_available_with_name("exp10", "__exp10")
                self.set_available_with_name("exp10f", "__exp10f")
        else:
            self._off(("exp10", "exp10f", "exp10l"))
        if t.os not in _DARWIN_OSES:
            self._off(("ffsl", "ffsll"))
        if not t.is_os_freebsd():
            self._off(("fls", "flsl", "flsll"))
        if not t.is_os_linux() or not t.is_gnu_environment():
            self._off(_GNU_LINUX_ONLY)
            if not t.is_android() and not t.is_musl():
                self.set_unavailable("memalign")
        if (t.is_os_linux() and t.is_gnu_environment()) or (t.is_android() and t.android_version() >= 28):
            for n in _UNLOCKED:
                self.set_available(n)
        if t.is_android() and t.android_version() < 21:
            self._off(("stpcpy", "stpncpy"))
        if t.is_ps():
            self.set_available("memalign")
            self._off(_PS_UNAVAILABLE)
        if t.is_nvptx():
            self.disable_all()
            for n in ("nvvm_reflect", "malloc", "free", "__kmpc_alloc_shared", "__kmpc_free_shared"):
                self.set_available(n)
        else:
            self.set_unavailable("nvvm_reflect")
        if not t.is_os_aix():
            self._off(("vec_calloc", "vec_malloc", "vec_realloc", "vec_free"))
        else:
            self.set_unavailable("memrchr")


_IMPL_CACHE: dict[str, TargetLibraryInfoImpl] = {}


def _impl_for(triple: str) -> TargetLibraryInfoImpl:
    impl = _IMPL_CACHE.get(triple)
    if impl is None:
        impl = _IMPL_CACHE[triple] = TargetLibraryInfoImpl(triple)
    return impl


def _match_type(tid: str, ty: Type, int_bits: int, size_t_bits: int) -> bool:
    if tid == "Void":
        return ty.is_void
    if isinstance(ty, IntegerType):
        w = ty.width
        if tid == "Bool":
            return w == 8
        if tid == "Int16":
            return w == 16
        if tid == "Int32":
            return w == 32
        if tid == "Int":
            return w == int_bits
        if tid in ("IntPlus", "Long"):
            return w >= int_bits
        if tid == "IntX":
            return True
        if tid in ("Int64", "LLong"):
            return w == 64
        if tid in ("SizeT", "SSizeT"):
            return w == size_t_bits
        return False
    if tid == "Flt":
        return isinstance(ty, FloatingPointType) and str(ty) == "float"
    if tid == "Dbl":
        return isinstance(ty, FloatingPointType) and str(ty) == "double"
    if tid in ("LDbl", "Floating"):
        return isinstance(ty, FloatingPointType)
    if tid == "Ptr":
        return isinstance(ty, PointerType)
    if tid == "Struct":
        return isinstance(ty, StructType)
    return False


def is_valid_proto_for_lib_func(fty: FunctionType, enum_name: str, int_bits: int, size_t_bits: int) -> bool:
    """LLVM ``isValidProtoForLibFunc``: ``fty`` fits the library function's prototype."""
    params = list(fty.params)
    n = len(params)
    ret = fty.return_type
    if enum_name in ("cabs", "cabsf", "cabsl"):
        if not isinstance(ret, FloatingPointType) or n == 0:
            return False
        p0 = params[0]
        if n == 1:
            return isinstance(p0, ArrayType) and p0.count == 2 and p0.element_type is ret
        if n == 2:
            return p0 is ret and params[1] is ret
        return False
    if enum_name in ("sincospi_stret", "sincospif_stret"):
        if n != 1:
            return False
        p0 = params[0]
        if isinstance(ret, StructType):
            return len(ret.elements) == 2 and ret.elements[0] is p0 and ret.elements[1] is p0
        if isinstance(ret, VectorType) and not ret.scalable:
            return ret.count == 2 and ret.element_type is p0
        return False
    proto = LIB_FUNCS[_BY_ENUM[enum_name]][2]
    idx = 0
    ty: Type | None = ret
    last: Type | None = ret
    for k, tid in enumerate(proto):
        if idx and tid == "Void":
            break
        if tid == "Ellip":
            return fty.is_vararg
        if tid == "Same":
            if ty is not last:
                return False
        else:
            if ty is None or not _match_type(tid, ty, int_bits, size_t_bits):
                return False
            last = ty
        if idx == n:
            ty = None
            idx += 1
            continue
        ty = params[idx]
        idx += 1
        del k
    return idx == n + 1 and not fty.is_vararg


class TargetLibraryInfo:
    """Library-function knowledge for one function's queries (LLVM ``TargetLibraryInfo``)."""

    __slots__ = ("impl", "_override_unavailable", "_size_t_bits")

    def __init__(self, impl: TargetLibraryInfoImpl, fn: Function | None = None, size_t_bits: int = 64) -> None:
        self.impl = impl
        self._override_unavailable: set[int] = set()
        self._size_t_bits = size_t_bits
        if fn is not None:
            attrs = fn.attributes.fn_attrs
            if attrs.has_string("no-builtins"):
                self._override_unavailable = set(range(len(LIB_FUNCS)))
            else:
                for a in attrs.string_attributes:
                    key = a.key
                    if key.startswith("no-builtin-"):
                        e = LibFunc.from_symbol(key[len("no-builtin-"):])
                        if e is not None:
                            self._override_unavailable.add(_BY_ENUM[e])

    def invalidate(self, unit: object, pa: object, inv: object) -> bool:
        """Never invalidated by a pass's changes (as LLVM's result)."""
        return False

    @staticmethod
    def for_function(fn: Function) -> TargetLibraryInfo:
        """The library info of ``fn``'s module triple and ``fn``'s no-builtin attributes."""
        module = fn.parent
        triple = module.target_triple if module is not None else ""
        size_t = 64
        if module is not None:
            size_t = module.data_layout.pointer_size_in_bits(0)
        return TargetLibraryInfo(_impl_for(triple or ""), fn, size_t)

    @staticmethod
    def for_triple(triple: str = "", size_t_bits: int = 64) -> TargetLibraryInfo:
        return TargetLibraryInfo(_impl_for(triple), None, size_t_bits)

    # --- availability ---------------------------------------------------------------------
    def _index(self, f: str) -> int | None:
        i = _BY_ENUM.get(f)
        if i is None:
            e = LibFunc.from_symbol(f)
            i = None if e is None else _BY_ENUM[e]
        return i

    def has(self, f: str) -> bool:
        """The library function (enum name or symbol) is available."""
        i = self._index(f)
        if i is None:
            return False
        return i not in self._override_unavailable and self.impl.available[i]

    def get_name(self, f: str) -> str:
        """The symbol to call for ``f`` on this target (LLVM ``getName``), ``""`` if unavailable."""
        i = self._index(f)
        if i is None or not self.has(f):
            return ""
        return self.impl.custom_names.get(i, LIB_FUNCS[i][1])

    def disable(self, f: str) -> None:
        """Mark ``f`` unavailable for this object's queries (``-disable-builtin=f``)."""
        i = self._index(f)
        if i is None:
            raise KeyError("cannot disable nonexistent builtin function %s" % f)
        self._override_unavailable.add(i)

    def disable_all(self) -> None:
        """``-disable-simplify-libcalls``: every library function unavailable."""
        self._override_unavailable = set(range(len(LIB_FUNCS)))

    @property
    def int_size(self) -> int:
        return self.impl.int_size

    # --- recognition ---------------------------------------------------------------------
    def get_lib_func_by_name(self, name: str) -> str | None:
        """The enumerator of a symbol name, ignoring prototype and availability."""
        return LibFunc.from_symbol(name)

    def get_lib_func(self, fn: Function) -> str | None:
        """The library function ``fn`` declares when its name and prototype match
        (LLVM ``getLibFunc(const Function&)``; availability is asked with :meth:`has`)."""
        if fn.intrinsic_id:
            return None
        e = LibFunc.from_symbol(fn.name)
        if e is None:
            return None
        module = fn.parent
        size_t = module.data_layout.pointer_size_in_bits(0) if module is not None else self._size_t_bits
        if not is_valid_proto_for_lib_func(fn.function_type, e, self.impl.int_size, size_t):
            return None
        return e

    def get_lib_func_for_call(self, call: object) -> str | None:
        """The library function a call site calls (not ``nobuiltin``, matching prototype)."""
        from llvmpy_mid.ir.instructions.calls import CallBase

        assert isinstance(call, CallBase)
        if call.is_no_builtin:
            return None
        fn = call.called_function
        if fn is None:
            return None
        return self.get_lib_func(fn)


class TargetLibraryAnalysis(FunctionAnalysis[TargetLibraryInfo]):
    """LLVM ``TargetLibraryAnalysis``: the library info of a function."""

    name: ClassVar[str] = "target-lib-info"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> TargetLibraryInfo:
        tli = TargetLibraryInfo.for_function(unit)
        apply_tool_options(tli)
        return tli


def apply_tool_options(tli: TargetLibraryInfo) -> None:
    """opt's ``-disable-simplify-libcalls`` and ``-disable-builtin=NAME`` (given more than once,
    the command line joins the names with commas)."""
    from llvmpy_mid.errors import PipelineError
    from llvmpy_mid.passes.options import OPTIONS

    if OPTIONS.get("disable-simplify-libcalls") is not None and OPTIONS.value("disable-simplify-libcalls"):
        tli.disable_all()
    if OPTIONS.get("disable-builtin") is None:
        return
    names = OPTIONS.value("disable-builtin")
    if not isinstance(names, str) or not names:
        return
    for name in names.split(","):
        e = LibFunc.from_symbol(name)
        if e is None:
            raise PipelineError("cannot disable nonexistent builtin function %s" % name)
        tli.disable(e)
