"""The attributes LLVM infers for a declaration of a known C library function (LLVM 19.1.7
``lib/Transforms/Utils/BuildLibCalls.cpp``: ``inferNonMandatoryLibFuncAttrs`` and its
``set*`` helpers, with their ``build-libcalls`` statistics), and the attributes implied by
others (``inferAttributesFromOthers`` of ``lib/Transforms/Utils/Local.cpp``).

What: :func:`infer_non_mandatory_lib_func_attrs` recognises ``fn`` through the target
library info (name, prototype and availability for the module's triple) and adds, in LLVM's
order, the attributes LLVM's table gives that function: memory effects (intersected with the
ones already there), ``nounwind``, ``willreturn``, ``noalias``/``noundef`` results, per
argument ``nocapture``/``readonly``/``writeonly``/``noalias``/``returned``/``noundef``, the
allocator description (``alloc-family``, ``allockind``, ``allocsize``, ``allocalign``,
``allocptr``), ``nonlazybind`` when the module has the ``RtLibUseGOT`` flag, and finally
``nofree`` unless the function frees or reallocates. An attribute already present is kept
(and not counted). The result says whether anything changed.

How: the table maps a line of operations (one word per LLVM ``set*`` call, in the call order
of LLVM's switch with its fall-throughs flattened) to the functions that share it; it is read
once into a dictionary keyed by LLVM's ``LibFunc`` enumerator names.

:func:`infer_attributes_from_others`: ``memory(none)`` and not ``convergent`` gives
``nosync``; read-only memory gives ``nofree``; ``willreturn`` gives ``mustprogress``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.ir.attribute_kinds import AllocFnKind
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.memory_effects import MemoryEffects
from llvmpy_mid.passes.statistics import Statistic

if TYPE_CHECKING:
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.function import Function

__all__ = [
    "LIB_FUNC_ATTR_OPS",
    "NUM_ARG_MEM_ONLY",
    "NUM_INACCESSIBLE_MEM_ONLY",
    "NUM_INACCESSIBLE_MEM_OR_ARG_MEM_ONLY",
    "NUM_NO_ALIAS",
    "NUM_NO_CAPTURE",
    "NUM_NO_UNDEF",
    "NUM_NO_UNWIND",
    "NUM_READ_NONE",
    "NUM_READ_ONLY",
    "NUM_READ_ONLY_ARG",
    "NUM_RETURNED_ARG",
    "NUM_WILL_RETURN",
    "NUM_WRITE_ONLY",
    "NUM_WRITE_ONLY_ARG",
    "infer_attributes_from_others",
    "infer_non_mandatory_lib_func_attrs",
]

_DT = "build-libcalls"
NUM_READ_NONE = Statistic(_DT, "NumReadNone", "Number of functions inferred as readnone")
NUM_INACCESSIBLE_MEM_ONLY = Statistic(_DT, "NumInaccessibleMemOnly", "Number of functions inferred as inaccessiblememonly")
NUM_READ_ONLY = Statistic(_DT, "NumReadOnly", "Number of functions inferred as readonly")
NUM_WRITE_ONLY = Statistic(_DT, "NumWriteOnly", "Number of functions inferred as writeonly")
NUM_ARG_MEM_ONLY = Statistic(_DT, "NumArgMemOnly", "Number of functions inferred as argmemonly")
NUM_INACCESSIBLE_MEM_OR_ARG_MEM_ONLY = Statistic(
    _DT, "NumInaccessibleMemOrArgMemOnly", "Number of functions inferred as inaccessiblemem_or_argmemonly"
)
NUM_NO_UNWIND = Statistic(_DT, "NumNoUnwind", "Number of functions inferred as nounwind")
NUM_NO_CAPTURE = Statistic(_DT, "NumNoCapture", "Number of arguments inferred as nocapture")
NUM_WRITE_ONLY_ARG = Statistic(_DT, "NumWriteOnlyArg", "Number of arguments inferred as writeonly")
NUM_READ_ONLY_ARG = Statistic(_DT, "NumReadOnlyArg", "Number of arguments inferred as readonly")
NUM_NO_ALIAS = Statistic(_DT, "NumNoAlias", "Number of function returns inferred as noalias")
NUM_NO_UNDEF = Statistic(_DT, "NumNoUndef", "Number of function returns inferred as noundef returns")
NUM_RETURNED_ARG = Statistic(_DT, "NumReturnedArg", "Number of arguments inferred as returned")
NUM_WILL_RETURN = Statistic(_DT, "NumWillReturn", "Number of functions inferred as willreturn")

# Operations (one per LLVM set* call):
#   mem:none|read|write|arg|inacc|inaccarg   function memory effects (intersected)
#   nounwind willreturn nofree               function attributes
#   ret:noalias ret:noundef args:noundef     result attributes; noundef on every argument
#   KIND:N                                   argument N gets KIND (nocapture, readonly,
#                                            writeonly, noalias, returned, noundef,
#                                            allocalign, allocptr)
#   family                                   "alloc-family" ("vec_malloc" for vec_*, else "malloc")
#   allockind:K|K...  allocsize:N[,M]        allocator attributes
_MATH = (
    "abs acos acosf acosh acoshf acoshl acosl asin asinf asinh asinhf asinhl asinl atan atan2 atan2f "
    "atan2l atanf atanh atanhf atanhl atanl cbrt cbrtf cbrtl ceil ceilf ceill copysign copysignf "
    "copysignl cos cosh coshf coshl cosf cosl cospi cospif erf erff erfl exp expf expl exp2 exp2f exp2l "
    "expm1 expm1f expm1l fabs fabsf fabsl ffs ffsl ffsll floor floorf floorl fls flsl flsll fmax fmaxf "
    "fmaxl fmin fminf fminl fmod fmodf fmodl isascii isdigit labs llabs log log10 log10f log10l log1p "
    "log1pf log1pl log2 log2f log2l logb logbf logbl logf logl nearbyint nearbyintf nearbyintl pow powf "
    "powl remainder remainderf remainderl rint rintf rintl round roundf roundl sin sincospif_stret sinf "
    "sinh sinhf sinhl sinl sinpi sinpif sqrt sqrtf sqrtl tan tanf tanh tanhf tanhl tanl toascii trunc "
    "truncf truncl"
)
_ALLOC = "allockind:alloc|uninitialized allocsize:0 mem:inacc ret:noundef args:noundef nounwind ret:noalias willreturn"
_STRCPY = "mem:arg nounwind willreturn nocapture:1 writeonly:0 readonly:1 noalias:0 noalias:1"
_STRDUP = "family mem:inaccarg nounwind ret:noalias willreturn nocapture:0 readonly:0"
_MEMCPY_CHK = "nounwind mem:arg noalias:0 writeonly:0 noalias:1 nocapture:1 readonly:1"
_MEMSET_CHK = "mem:arg writeonly:0 nounwind"
_NOUNDEF = "ret:noundef args:noundef"
_TABLE: tuple[tuple[str, str], ...] = (
    ("mem:read nounwind mem:arg willreturn nocapture:0", "strlen strnlen wcslen"),
    ("mem:arg mem:read nounwind willreturn", "strchr strrchr"),
    ("nounwind willreturn nocapture:1 readonly:0", "strtol strtod strtof strtoul strtoll strtold strtoull"),
    ("mem:arg nounwind willreturn returned:0 nocapture:1 readonly:1 noalias:0 noalias:1", "strcat strncat"),
    ("returned:0 " + _STRCPY, "strcpy strncpy"),
    (_STRCPY, "stpcpy stpncpy"),
    ("nounwind willreturn nocapture:0 nocapture:1 readonly:1", "strxfrm"),
    ("nounwind mem:arg willreturn mem:read nocapture:0 nocapture:1", "strcmp strspn strncmp strcspn"),
    ("mem:read nounwind willreturn nocapture:0 nocapture:1", "strcoll strcasecmp strncasecmp"),
    ("mem:arg mem:read nounwind willreturn nocapture:1", "strstr strpbrk"),
    ("nounwind willreturn nocapture:1 readonly:1", "strtok strtok_r"),
    (
        _NOUNDEF + " nounwind nocapture:0 readonly:0",
        "scanf mkdir rmdir remove realpath chmod chown access getpwnam unlink unsetenv puts printf perror "
        "vscanf vprintf lchown dunder_isoc99_scanf",
    ),
    (
        _NOUNDEF + " nounwind nocapture:0",
        "setbuf setvbuf rewind ctermid clearerr closedir feof fseek ftell fgetc fgetc_unlocked fseeko ftello "
        "fileno fflush fclose fsetpos flockfile funlockfile ftrylockfile getc getlogin_r getc_unlocked uname "
        "pclose times under_IO_getc fseeko64 ftello64",
    ),
    (_STRDUP, "strdup"),
    ("noundef:1 " + _STRDUP, "strndup"),
    (
        _NOUNDEF + " nounwind nocapture:0 nocapture:1 readonly:0",
        "stat statvfs readlink fputs fputs_unlocked lstat stat64 lstat64 statvfs64",
    ),
    (
        _NOUNDEF + " nounwind nocapture:0 nocapture:1 readonly:0 readonly:1",
        "sscanf rename utime utimes vsscanf dunder_isoc99_sscanf",
    ),
    (_NOUNDEF + " nounwind nocapture:0 noalias:0 writeonly:0 nocapture:1 readonly:1", "sprintf"),
    (_NOUNDEF + " nounwind nocapture:0 noalias:0 writeonly:0 nocapture:2 readonly:2", "snprintf"),
    (_NOUNDEF + " nounwind willreturn nocapture:1 nocapture:2 readonly:1", "setitimer"),
    (_NOUNDEF + " nocapture:0 readonly:0", "system open open64"),
    ("family " + _ALLOC, "valloc malloc vec_malloc"),
    ("allocalign:0 allocsize:1 allockind:alloc|uninitialized|aligned family " + _ALLOC, "aligned_alloc"),
    ("mem:arg mem:read nounwind willreturn nocapture:0 nocapture:1", "memcmp"),
    ("nounwind mem:arg mem:read willreturn", "memchr memrchr"),
    ("nounwind willreturn mem:arg mem:write nocapture:1", "modf modff modfl frexp frexpf frexpl"),
    ("nounwind mem:arg willreturn noalias:0 returned:0 writeonly:0 noalias:1 nocapture:1 readonly:1", "memcpy"),
    ("nounwind mem:arg willreturn returned:0 writeonly:0 nocapture:1 readonly:1", "memmove"),
    (_MEMCPY_CHK, "memcpy_chk"),
    ("willreturn " + _MEMCPY_CHK, "mempcpy memccpy"),
    (
        "family allockind:alloc|aligned|uninitialized allocsize:1 allocalign:0 mem:inacc ret:noundef nounwind "
        "ret:noalias willreturn",
        "memalign",
    ),
    (_NOUNDEF + " nounwind willreturn nocapture:0", "mktime"),
    (
        "family allockind:realloc allocptr:0 allocsize:1 mem:inaccarg ret:noundef nounwind ret:noalias "
        "willreturn nocapture:0 noundef:1",
        "realloc reallocf vec_realloc",
    ),
    (_NOUNDEF + " nocapture:1", "read pread"),
    (_NOUNDEF + " nocapture:1 readonly:1", "write pwrite"),
    ("nounwind mem:arg willreturn nocapture:0 readonly:0 writeonly:1 nocapture:1", "bcopy"),
    ("nounwind mem:arg mem:read willreturn nocapture:0 nocapture:1", "bcmp"),
    ("nounwind mem:arg willreturn nocapture:0 writeonly:0", "bzero"),
    (
        "family allockind:alloc|zeroed allocsize:0,1 mem:inacc ret:noundef args:noundef nounwind ret:noalias willreturn",
        "calloc vec_calloc",
    ),
    ("nounwind mem:read willreturn nocapture:0", "atoi atol atof atoll"),
    (_NOUNDEF + " nounwind ret:noalias nocapture:0 nocapture:1 readonly:0 readonly:1", "fopen popen fopen64"),
    (_NOUNDEF + " nounwind ret:noalias nocapture:1 readonly:1", "fdopen"),
    ("family allockind:free allocptr:0 mem:inaccarg args:noundef nounwind willreturn nocapture:0", "free vec_free"),
    (_NOUNDEF + " nounwind nocapture:0 mem:read", "ferror"),
    (
        _NOUNDEF + " nounwind nocapture:1",
        "fputc fputc_unlocked fstat fstatvfs getitimer ungetc putc putc_unlocked under_IO_putc fstat64 fstatvfs64",
    ),
    (_NOUNDEF + " nounwind nocapture:2", "fgets fgets_unlocked"),
    (_NOUNDEF + " nounwind nocapture:0 nocapture:3", "fread fread_unlocked fwrite fwrite_unlocked"),
    (_NOUNDEF + " nounwind nocapture:0 nocapture:1 readonly:1", "fscanf fprintf vfscanf vfprintf vsprintf"),
    (_NOUNDEF + " nounwind nocapture:0 nocapture:1", "fgetpos gettimeofday"),
    (_NOUNDEF + " nounwind mem:read nocapture:0", "getenv"),
    (_NOUNDEF + " nounwind", "gets getchar getchar_unlocked putchar putchar_unlocked"),
    (_NOUNDEF + " nounwind nocapture:0 nocapture:2 readonly:2", "vsnprintf"),
    (_NOUNDEF + " nounwind ret:noalias nocapture:0 readonly:0", "opendir"),
    (_NOUNDEF + " nounwind ret:noalias", "tmpfile tmpfile64"),
    ("nounwind mem:none", "htonl htons ntohl ntohs"),
    (_NOUNDEF + " nocapture:3", "qsort"),
    ("nounwind ret:noalias willreturn nocapture:0 readonly:0", "dunder_strdup"),
    ("noundef:1 nounwind ret:noalias willreturn nocapture:0 readonly:0", "dunder_strndup"),
    ("nounwind nocapture:1 readonly:1", "dunder_strtok_r"),
    (_MEMSET_CHK, "memset_chk"),
    ("willreturn " + _MEMSET_CHK, "memset"),
    ("nocapture:0 nocapture:1 readonly:1 willreturn " + _MEMSET_CHK, "memset_pattern4 memset_pattern8 memset_pattern16"),
    (_NOUNDEF + " mem:none nounwind", "nvvm_reflect"),
    ("willreturn", "ldexp ldexpf ldexpl"),
    ("nounwind nofree mem:write willreturn", _MATH),
    ("nocapture:2 nounwind nofree mem:write willreturn", "remquo remquof remquol"),
)

LIB_FUNC_ATTR_OPS: dict[str, tuple[str, ...]] = {
    name: tuple(ops.split()) for ops, names in _TABLE for name in names.split()
}
"""Per ``LibFunc`` enumerator, the operations LLVM's inference applies, in order."""

_ALLOC_KIND_BITS = {
    "alloc": AllocFnKind.ALLOC,
    "realloc": AllocFnKind.REALLOC,
    "free": AllocFnKind.FREE,
    "uninitialized": AllocFnKind.UNINITIALIZED,
    "zeroed": AllocFnKind.ZEROED,
    "aligned": AllocFnKind.ALIGNED,
}

_MEMORY: dict[str, tuple[Callable[[], MemoryEffects], Callable[[MemoryEffects], bool], Statistic]] = {
    "read": (MemoryEffects.read_only, lambda m: m.only_reads_memory, NUM_READ_ONLY),
    "write": (MemoryEffects.write_only, lambda m: m.only_writes_memory, NUM_WRITE_ONLY),
    "arg": (MemoryEffects.arg_mem_only, lambda m: m.only_accesses_arg_pointees, NUM_ARG_MEM_ONLY),
    "inacc": (MemoryEffects.inaccessible_mem_only, lambda m: m.only_accesses_inaccessible_mem, NUM_INACCESSIBLE_MEM_ONLY),
    "inaccarg": (
        MemoryEffects.inaccessible_or_arg_mem_only,
        lambda m: m.only_accesses_inaccessible_or_arg_mem,
        NUM_INACCESSIBLE_MEM_OR_ARG_MEM_ONLY,
    ),
}

_PARAM_STATS = {
    "nocapture": NUM_NO_CAPTURE,
    "readonly": NUM_READ_ONLY_ARG,
    "writeonly": NUM_WRITE_ONLY_ARG,
    "noalias": NUM_NO_ALIAS,
    "returned": NUM_RETURNED_ARG,
    "noundef": NUM_NO_UNDEF,
}


def _memory_effects(fn: Function) -> MemoryEffects:
    attr = fn.attributes.fn_attrs.get("memory")
    return attr.memory_effects if attr is not None else MemoryEffects.unknown()


def _set_memory(fn: Function, effects: MemoryEffects) -> None:
    fn.attributes = fn.attributes.with_fn_attr(Attribute.memory(effects))


def _add_fn_attr(fn: Function, attr: Attribute, stat: Statistic | None = None) -> bool:
    """``attr`` on the function unless it has one of that kind."""
    attrs = fn.attributes
    present = attrs.fn_attrs.has_string(attr.kind_name) if attr.is_string_attr else attrs.fn_attrs.has(attr.kind_name)
    if present:
        return False
    fn.attributes = attrs.with_fn_attr(attr)
    if stat is not None:
        stat.add()
    return True


def _add_param_attr(fn: Function, arg_no: int, kind: str, stat: Statistic | None = None) -> bool:
    attrs = fn.attributes
    if attrs.param_attrs(arg_no).has(kind):
        return False
    fn.attributes = attrs.with_param_attr(arg_no, Attribute.enum(kind))
    if stat is not None:
        stat.add()
    return True


def _add_ret_attr(fn: Function, kind: str, stat: Statistic) -> bool:
    attrs = fn.attributes
    if attrs.ret_attrs.has(kind):
        return False
    fn.attributes = attrs.with_ret_attr(Attribute.enum(kind))
    stat.add()
    return True


def _apply(fn: Function, func: str, op: str) -> bool:
    """One of LLVM's ``set*`` helpers; True when it changed ``fn``."""
    kind, _, arg = op.partition(":")
    if kind == "mem":
        current = _memory_effects(fn)
        if arg == "none":
            if current.does_not_access_memory:
                return False
            _set_memory(fn, MemoryEffects.none())
            NUM_READ_NONE.add()
            return True
        make, holds, stat = _MEMORY[arg]
        if holds(current):
            return False
        _set_memory(fn, current & make())
        stat.add()
        return True
    if kind == "nounwind":
        return _add_fn_attr(fn, Attribute.enum("nounwind"), NUM_NO_UNWIND)
    if kind == "willreturn":
        return _add_fn_attr(fn, Attribute.enum("willreturn"), NUM_WILL_RETURN)
    if kind == "nofree":
        return _add_fn_attr(fn, Attribute.enum("nofree"))
    if kind == "ret":
        if arg == "noundef" and fn.return_type.is_void:
            return False
        return _add_ret_attr(fn, arg, NUM_NO_ALIAS if arg == "noalias" else NUM_NO_UNDEF)
    if kind == "args":
        changed = False
        for n in range(len(fn.function_type.params)):
            changed |= _add_param_attr(fn, n, "noundef", NUM_NO_UNDEF)
        return changed
    if kind == "family":
        return _add_fn_attr(fn, Attribute.string("alloc-family", "vec_malloc" if func.startswith("vec_") else "malloc"))
    if kind == "allockind":
        bits = AllocFnKind(0)
        for part in arg.split("|"):
            bits |= _ALLOC_KIND_BITS[part]
        return _add_fn_attr(fn, Attribute.alloc_kind(bits))
    if kind == "allocsize":
        first, _, second = arg.partition(",")
        return _add_fn_attr(fn, Attribute.alloc_size(int(first), int(second) if second else None))
    return _add_param_attr(fn, int(arg), kind, _PARAM_STATS.get(kind))


def _rt_lib_use_got(fn: Function) -> bool:
    from llvmpy_mid.ir.module_flags import get_module_flag_int

    module = fn.parent
    return module is not None and bool(get_module_flag_int(module, "RtLibUseGOT"))


def _frees_or_reallocates(fn: Function, func: str) -> bool:
    """``isLibFreeFunction(F, func) || isReallocLikeFn(F)``."""
    from llvmpy_mid.analysis.memory_builtins import _is_lib_free_function

    if _is_lib_free_function(fn, func):
        return True
    kind = fn.attributes.fn_attrs.get("allockind")
    return kind is not None and bool(kind.alloc_fn_kind & AllocFnKind.REALLOC)


def infer_non_mandatory_lib_func_attrs(fn: Function, tli: TargetLibraryInfo) -> bool:
    """LLVM ``inferNonMandatoryLibFuncAttrs``: the attributes known of the library function
    ``fn`` declares (nothing when it is not one, or not available); True on a change."""
    func = tli.get_lib_func(fn)
    if func is None or not tli.has(func):
        return False
    changed = False
    if _rt_lib_use_got(fn):
        changed |= _add_fn_attr(fn, Attribute.enum("nonlazybind"))
    for op in LIB_FUNC_ATTR_OPS.get(func, ()):
        changed |= _apply(fn, func, op)
    if not _frees_or_reallocates(fn, func):
        changed |= _add_fn_attr(fn, Attribute.enum("nofree"))
    return changed


def infer_attributes_from_others(fn: Function) -> bool:
    """LLVM ``inferAttributesFromOthers``: ``nosync``, ``nofree`` and ``mustprogress``
    implied by the memory effects, ``convergent`` and ``willreturn``."""
    fn_attrs = fn.attributes.fn_attrs
    effects = _memory_effects(fn)
    changed = False
    if not fn_attrs.has("nosync") and effects.does_not_access_memory and not fn_attrs.has("convergent"):
        changed |= _add_fn_attr(fn, Attribute.enum("nosync"))
    if not fn_attrs.has("nofree") and effects.only_reads_memory:
        changed |= _add_fn_attr(fn, Attribute.enum("nofree"))
    if not fn_attrs.has("mustprogress") and fn_attrs.has("willreturn"):
        changed |= _add_fn_attr(fn, Attribute.enum("mustprogress"))
    return changed
