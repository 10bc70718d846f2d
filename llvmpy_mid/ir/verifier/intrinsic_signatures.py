"""The type signatures of LLVM 19's target-independent intrinsics, and how
LLVM matches, mangles and names them.

What: :data:`DESCRIPTIONS` records, as facts, the signature of each intrinsic
clang-19 emits for C and C++ (and the other common target-independent ones)
in a compact language; :func:`intrinsic_signature` finds the description of
the intrinsic a function name denotes; :func:`match_signature` checks a
declared function type against it as LLVM's ``matchIntrinsicSignature`` and
``matchIntrinsicVarArg`` do, collecting the overloaded types;
:func:`intrinsic_name` builds the name LLVM's ``Intrinsic::getName`` expects
for them (``llvm.memcpy.p0.p0.i64``); :func:`remangled_name` is what LLVM's
reader renames a declaration to.

The description language (one per intrinsic, ``ret(param, ...)``)::

    void i1 i8 i32 i64 i128 half bfloat float double x86_fp80 fp128 ppc_fp128
    ptr  ptr addrspace(N)  metadata  token  <N x T>  <vscale x N x T>  {T, T}
    any anyint anyfloat anyvec anyptr   a new overloaded type (LLVM's llvm_any*_ty):
                                        anything / integer or integer vector /
                                        FP or FP vector / any vector / a pointer
    $N          the same type as overloaded type N      (LLVMMatchType)
    $N.elt      the element type of vector type N       (LLVMVectorElementType)
    $N~T        T, or a vector of T as long as type N if N is a vector
                                                        (LLVMScalarOrSameVectorWidth)
    $N.vecptr   a new overloaded type: a vector of pointers as long as
                vector type N                           (LLVMVectorOfAnyPointersToElt)
    $N.half     vector type N with half as many elements (LLVMHalfElementsVectorType)
    ...         variable arguments (last)

Overloaded types are numbered from 0 in order of appearance, return type
first (``$N.vecptr`` takes a number too); their manglings, in that order,
make the name's suffix. Example: ``void(anyptr, anyptr, anyint, i1)`` is
``llvm.memcpy``; ``{anyint, $0~i1}($0, $0)`` is ``llvm.sadd.with.overflow``.

Each description was checked against ``opt-19`` (tests/verifier/
test_verify_intrinsic_rules.py declares a correct and many wrong signatures of
every described intrinsic and compares opt-19's verdicts with ours).

Not done here: intrinsics without a description (target intrinsics other than
AArch64 NEON's structured loads, ObjC ARC,
VP, the rarer experimental ones) are not known to :func:`intrinsic_signature`,
so the verifier does not check their signatures; descriptor kinds no described
intrinsic needs (extended/truncated integer, subdivided or bitcast vectors)
are not in the language.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from llvmpy_mid.ir.intrinsics import _load as _load_attribute_table
from llvmpy_mid.ir.type_mangling import intrinsic_name, mangle_type
from llvmpy_mid.ir.types import FunctionType, PointerType, StructType, Type, TypeID, VectorType

if TYPE_CHECKING:
    from llvmpy_mid.ir.function import Function

# --- the descriptions (facts, checked against opt-19) ---------------------------------------------

_FP1 = "anyfloat($0)"
_FP2 = "anyfloat($0, $0)"
_INT2 = "anyint($0, $0)"
_OVF = "{anyint, $0~i1}($0, $0)"
_FIX = "anyint($0, $0, i32)"
_RED = "$0.elt(anyvec)"
_C1 = "anyfloat($0, metadata, metadata)"
_C2 = "anyfloat($0, $0, metadata, metadata)"
_C3 = "anyfloat($0, $0, $0, metadata, metadata)"
_CR = "anyfloat($0, metadata)"
_CMINMAX = "anyfloat($0, $0, metadata)"

_GROUPS: tuple[tuple[str, str], ...] = (
    # variable arguments, stack, frame
    ("va_start va_end", "void(anyptr)"),
    ("va_copy", "void(anyptr, $0)"),
    ("stacksave", "anyptr()"),
    ("stackrestore", "void(anyptr)"),
    ("returnaddress", "ptr(i32)"),
    ("frameaddress", "anyptr(i32)"),
    ("addressofreturnaddress sponentry", "anyptr()"),
    ("read_register read_volatile_register", "anyint(metadata)"),
    ("write_register", "void(metadata, anyint)"),
    ("localaddress stackguard thread.pointer eh.sjlj.lsda coro.frame coro.noop coro.async.resume", "ptr()"),
    ("swift.async.context.addr", "ptr()"),
    ("localescape icall.branch.funnel", "void(...)"),
    ("localrecover", "ptr(ptr, ptr, i32)"),
    ("eh.recoverfp coro.async.context.alloc", "ptr(ptr, ptr)"),
    ("get.dynamic.area.offset vscale coro.size coro.align get.fpenv get.fpmode", "anyint()"),
    ("stackprotector gcroot clear_cache coro.async.size.replace", "void(ptr, ptr)"),
    ("gcread", "ptr(ptr, ptr)"),
    ("gcwrite init.trampoline", "void(ptr, ptr, ptr)"),
    ("adjust.trampoline coro.prepare.async coro.prepare.retcon preserve.static.offset", "ptr(ptr)"),
    # code generation hints, traps, misc
    ("prefetch", "void(anyptr, i32, i32, i32)"),
    ("pcmarker set.rounding eh.sjlj.callsite", "void(i32)"),
    ("readcyclecounter readsteadycounter", "i64()"),
    ("get.rounding", "i32()"),
    ("set.fpenv set.fpmode", "void(anyint)"),
    (
        "reset.fpenv reset.fpmode trap debugtrap donothing sideeffect eh.unwind.init eh.sjlj.setup.dispatch"
        " seh.try.begin seh.try.end seh.scope.begin seh.scope.end",
        "void()",
    ),
    ("ubsantrap", "void(i8)"),
    ("assume", "void(i1)"),
    ("experimental.noalias.scope.decl codeview.annotation dbg.label", "void(metadata)"),
    ("dbg.declare dbg.value", "void(metadata, metadata, metadata)"),
    ("dbg.assign", "void(metadata, metadata, metadata, metadata, metadata, metadata)"),
    ("pseudoprobe", "void(i64, i64, i32, i64)"),
    ("instrprof.cover instrprof.increment instrprof.timestamp", "void(ptr, i64, i32, i32)"),
    ("instrprof.increment.step", "void(ptr, i64, i32, i32, i64)"),
    ("instrprof.value.profile", "void(ptr, i64, i64, i32, i32)"),
    ("call.preallocated.setup", "token(i32)"),
    ("call.preallocated.arg", "ptr(token, i32)"),
    ("call.preallocated.teardown coro.alloca.free", "void(token)"),
    ("callbr.landingpad ssa.copy", "any($0)"),
    ("is.constant", "i1(any)"),
    ("allow.runtime.check", "i1(metadata)"),
    ("allow.ubsan.check", "i1(i8)"),
    ("experimental.widenable.condition", "i1()"),
    ("experimental.convergence.entry experimental.convergence.anchor", "token()"),
    ("experimental.convergence.loop", "token()"),
    ("xray.customevent", "void(ptr, i64)"),
    ("xray.typedevent", "void(i64, ptr, i64)"),
    ("asan.check.memaccess", "void(ptr, i32)"),
    ("hwasan.check.memaccess hwasan.check.memaccess.shortgranules", "void(ptr, ptr, i32)"),
    ("type.test public.type.test", "i1(ptr, metadata)"),
    ("type.checked.load type.checked.load.relative", "{ptr, i1}(ptr, i32, metadata)"),
    ("load.relative", "ptr(ptr, anyint)"),
    ("ptrauth.sign ptrauth.auth", "i64(i64, i32, i64)"),
    ("ptrauth.resign", "i64(i64, i32, i64, i32, i64)"),
    ("ptrauth.strip", "i64(i64, i32)"),
    ("ptrauth.blend ptrauth.sign.generic", "i64(i64, i64)"),
    # memory
    ("memcpy memcpy.inline memmove", "void(anyptr, anyptr, anyint, i1)"),
    ("memset memset.inline", "void(anyptr, i8, anyint, i1)"),
    ("memcpy.element.unordered.atomic memmove.element.unordered.atomic", "void(anyptr, anyptr, anyint, i32)"),
    ("memset.element.unordered.atomic", "void(anyptr, i8, anyint, i32)"),
    ("lifetime.start lifetime.end", "void(i64, anyptr)"),
    ("invariant.start", "ptr(i64, anyptr)"),
    ("invariant.end", "void(ptr, i64, anyptr)"),
    ("launder.invariant.group strip.invariant.group threadlocal.address", "anyptr($0)"),
    ("ptrmask", "any($0, anyint)"),
    ("objectsize", "anyint(anyptr, i1, i1, i1)"),
    ("var.annotation", "void(anyptr, anyptr, $1, i32, $1)"),
    ("ptr.annotation", "anyptr($0, anyptr, $1, i32, $1)"),
    ("annotation", "anyint($0, anyptr, $1, i32)"),
    ("preserve.array.access.index preserve.struct.access.index", "anyptr(anyptr, i32, i32)"),
    ("preserve.union.access.index", "anyptr(anyptr, i32)"),
    # floating point
    (
        "sqrt sin cos tan asin acos atan sinh cosh tanh log log10 log2 exp exp2 exp10 fabs floor ceil trunc"
        " rint nearbyint round roundeven canonicalize arithmetic.fence",
        _FP1,
    ),
    ("pow copysign minnum maxnum minimum maximum", _FP2),
    ("fma fmuladd", "anyfloat($0, $0, $0)"),
    ("powi ldexp", "anyfloat($0, anyint)"),
    ("frexp", "{anyfloat, anyint}($0)"),
    ("lround llround lrint llrint fptoui.sat fptosi.sat", "anyint(anyfloat)"),
    ("fptrunc.round", "anyfloat(anyfloat, metadata)"),
    ("is.fpclass", "$0~i1(anyfloat, i32)"),
    ("convert.to.fp16", "i16(anyfloat)"),
    ("convert.from.fp16", "anyfloat(i16)"),
    # constrained floating point
    (
        "experimental.constrained.fadd experimental.constrained.fsub experimental.constrained.fmul"
        " experimental.constrained.fdiv experimental.constrained.frem experimental.constrained.pow",
        _C2,
    ),
    ("experimental.constrained.fma experimental.constrained.fmuladd", _C3),
    (
        "experimental.constrained.sqrt experimental.constrained.sin experimental.constrained.cos"
        " experimental.constrained.tan experimental.constrained.log experimental.constrained.log10"
        " experimental.constrained.log2 experimental.constrained.exp experimental.constrained.exp2"
        " experimental.constrained.rint experimental.constrained.nearbyint",
        _C1,
    ),
    (
        "experimental.constrained.ceil experimental.constrained.floor experimental.constrained.round"
        " experimental.constrained.roundeven experimental.constrained.trunc",
        _CR,
    ),
    (
        "experimental.constrained.maxnum experimental.constrained.minnum experimental.constrained.maximum"
        " experimental.constrained.minimum",
        _CMINMAX,
    ),
    ("experimental.constrained.powi", "anyfloat($0, i32, metadata, metadata)"),
    ("experimental.constrained.ldexp", "anyfloat($0, anyint, metadata, metadata)"),
    ("experimental.constrained.fptosi experimental.constrained.fptoui", "anyint(anyfloat, metadata)"),
    ("experimental.constrained.sitofp experimental.constrained.uitofp", "anyfloat(anyint, metadata, metadata)"),
    ("experimental.constrained.fptrunc", "anyfloat(anyfloat, metadata, metadata)"),
    ("experimental.constrained.fpext", "anyfloat(anyfloat, metadata)"),
    ("experimental.constrained.lrint experimental.constrained.llrint", "anyint(anyfloat, metadata, metadata)"),
    ("experimental.constrained.lround experimental.constrained.llround", "anyint(anyfloat, metadata)"),
    ("experimental.constrained.fcmp experimental.constrained.fcmps", "$0~i1(anyfloat, $0, metadata, metadata)"),
    # integers
    ("expect", "anyint($0, $0)"),
    ("expect.with.probability", "anyint($0, $0, double)"),
    ("bswap ctpop bitreverse", "anyint($0)"),
    ("fshl fshr", "anyint($0, $0, $0)"),
    ("ctlz cttz abs", "anyint($0, i1)"),
    ("smax smin umax umin sadd.sat uadd.sat ssub.sat usub.sat sshl.sat ushl.sat", _INT2),
    ("loop.decrement.reg", _INT2),
    ("scmp ucmp", "anyint(anyint, $1)"),
    (
        "sadd.with.overflow uadd.with.overflow ssub.with.overflow usub.with.overflow"
        " smul.with.overflow umul.with.overflow",
        _OVF,
    ),
    ("smul.fix umul.fix sdiv.fix udiv.fix smul.fix.sat umul.fix.sat sdiv.fix.sat udiv.fix.sat", _FIX),
    ("set.loop.iterations", "void(anyint)"),
    ("start.loop.iterations", "anyint($0)"),
    ("test.set.loop.iterations loop.decrement", "i1(anyint)"),
    ("test.start.loop.iterations", "{anyint, i1}($0)"),
    # exception handling
    ("eh.typeid.for", "i32(anyptr)"),
    ("eh.return.i32", "void(i32, ptr)"),
    ("eh.return.i64", "void(i64, ptr)"),
    ("eh.exceptionpointer", "anyptr(token)"),
    ("eh.exceptioncode", "i32(token)"),
    ("eh.dwarf.cfa", "ptr(i32)"),
    ("eh.sjlj.functioncontext eh.sjlj.longjmp coro.async.context.dealloc coro.resume coro.destroy", "void(ptr)"),
    ("eh.sjlj.setjmp", "i32(ptr)"),
    # stack maps, patch points, garbage collection
    ("experimental.stackmap", "void(i64, i32, ...)"),
    ("experimental.patchpoint.void", "void(i64, i32, ptr, i32, ...)"),
    ("experimental.patchpoint", "any(i64, i32, ptr, i32, ...)"),
    ("experimental.gc.statepoint", "token(i64, i32, anyptr, i32, i32, ...)"),
    ("experimental.gc.result", "any(token)"),
    ("experimental.gc.relocate", "any(token, i32, i32)"),
    ("experimental.gc.get.pointer.base", "anyptr(anyptr)"),
    ("experimental.gc.get.pointer.offset", "i64(anyptr)"),
    ("experimental.deoptimize", "any(...)"),
    ("experimental.guard", "void(i1, ...)"),
    # coroutines
    ("coro.id", "token(i32, ptr, ptr, ptr)"),
    ("coro.id.retcon coro.id.retcon.once", "token(i32, i32, ptr, ptr, ptr, ptr)"),
    ("coro.id.async", "token(i32, i32, i32, ptr)"),
    ("coro.alloc", "i1(token)"),
    ("coro.begin coro.free", "ptr(token, ptr)"),
    ("coro.end", "i1(ptr, i1, token)"),
    ("coro.end.results", "token(...)"),
    ("coro.end.async", "i1(ptr, i1, ...)"),
    ("coro.save", "token(ptr)"),
    ("coro.suspend", "i8(token, i1)"),
    ("coro.suspend.async", "any(i32, ptr, ptr, ...)"),
    ("coro.suspend.retcon", "any(...)"),
    ("coro.alloca.alloc", "token(anyint, i32)"),
    ("coro.alloca.get", "ptr(token)"),
    ("coro.done", "i1(ptr)"),
    ("coro.promise", "ptr(ptr, i32, i1)"),
    ("coro.subfn.addr", "ptr(ptr, i8)"),
    ("coro.await.suspend.void coro.await.suspend.handle", "void(ptr, ptr, ptr)"),
    ("coro.await.suspend.bool", "i1(ptr, ptr, ptr)"),
    # vectors
    ("masked.load", "anyvec(anyptr, i32, $0~i1, $0)"),
    ("masked.store", "void(anyvec, anyptr, i32, $0~i1)"),
    ("masked.gather", "anyvec($0.vecptr, i32, $0~i1, $0)"),
    ("masked.scatter", "void(anyvec, $0.vecptr, i32, $0~i1)"),
    ("masked.expandload", "anyvec(ptr, $0~i1, $0)"),
    ("masked.compressstore", "void(anyvec, ptr, $0~i1)"),
    ("vector.reduce.fadd vector.reduce.fmul", "$0.elt($0.elt, anyvec)"),
    (
        "vector.reduce.add vector.reduce.mul vector.reduce.and vector.reduce.or vector.reduce.xor"
        " vector.reduce.smax vector.reduce.smin vector.reduce.umax vector.reduce.umin"
        " vector.reduce.fmax vector.reduce.fmin vector.reduce.fmaximum vector.reduce.fminimum",
        _RED,
    ),
    ("matrix.transpose", "anyvec($0, i32, i32)"),
    ("matrix.multiply", "anyvec(anyvec, anyvec, i32, i32, i32)"),
    ("matrix.column.major.load", "anyvec(ptr, anyint, i1, i32, i32)"),
    ("matrix.column.major.store", "void(anyvec, ptr, anyint, i1, i32, i32)"),
    ("experimental.stepvector", "anyvec()"),
    ("get.active.lane.mask", "anyvec(anyint, $1)"),
    ("experimental.get.vector.length", "i32(anyint, i32, i1)"),
    ("experimental.cttz.elts", "anyint(anyvec, i1)"),
    ("vector.reverse", "anyvec($0)"),
    ("vector.splice", "anyvec($0, $0, i32)"),
    ("vector.insert", "anyvec($0, anyvec, i64)"),
    ("vector.extract", "anyvec(anyvec, i64)"),
    ("vector.interleave2", "anyvec($0.half, $0.half)"),
    ("vector.deinterleave2", "{$0.half, $0.half}(anyvec)"),
    # AArch64 NEON structured loads (IntrinsicsAArch64.td's AdvSIMD_{2,3,4}Vec_Load[_Lane]_Intrinsic):
    # the struct members before the vector that binds overloaded type 0 are deferred checks
    ("aarch64.neon.ld1x2 aarch64.neon.ld2 aarch64.neon.ld2r", "{$0, anyvec}(anyptr)"),
    ("aarch64.neon.ld1x3 aarch64.neon.ld3 aarch64.neon.ld3r", "{$0, $0, anyvec}(anyptr)"),
    ("aarch64.neon.ld1x4 aarch64.neon.ld4 aarch64.neon.ld4r", "{$0, $0, $0, anyvec}(anyptr)"),
    ("aarch64.neon.ld2lane", "{$0, $0}($0, anyvec, i64, anyptr)"),
    ("aarch64.neon.ld3lane", "{$0, $0, $0}($0, $0, anyvec, i64, anyptr)"),
    ("aarch64.neon.ld4lane", "{$0, $0, $0, $0}($0, $0, $0, anyvec, i64, anyptr)"),
)

DESCRIPTIONS: dict[str, str] = {
    "llvm." + name: text for names, text in _GROUPS for name in names.split()
}
"""Intrinsic base name -> its signature in the description language."""

# --- patterns -----------------------------------------------------------------------------------------

_VOID, _INT, _FP, _PTR, _META, _TOKEN, _VEC, _STRUCT = range(8)
_SLOT, _MATCH, _ELT, _WIDTH, _VECPTR, _HALF = range(8, 14)

# Slot kinds (LLVM's IITDescriptor::ArgKind).
_ANY, _ANY_INT, _ANY_FLOAT, _ANY_VEC, _ANY_PTR = range(5)
_SLOT_KINDS = {"any": _ANY, "anyint": _ANY_INT, "anyfloat": _ANY_FLOAT, "anyvec": _ANY_VEC, "anyptr": _ANY_PTR}
_FP_NAMES = {
    "half": TypeID.HALF,
    "bfloat": TypeID.BFLOAT,
    "float": TypeID.FLOAT,
    "double": TypeID.DOUBLE,
    "x86_fp80": TypeID.X86_FP80,
    "fp128": TypeID.FP128,
    "ppc_fp128": TypeID.PPC_FP128,
}


class Pattern:
    """One type position of a signature: ``op`` (the kind), ``n`` (a width,
    type id, address space, element count, slot kind or referenced slot),
    ``slot`` (the overloaded-type number a new slot takes), ``scalable`` and
    ``sub`` (element / member patterns)."""

    __slots__ = ("op", "n", "slot", "scalable", "sub")

    def __init__(self, op: int, n: int = 0, sub: tuple[Pattern, ...] = (), scalable: bool = False) -> None:
        self.op = op
        self.n = n
        self.slot = -1
        self.scalable = scalable
        self.sub = sub


class Signature:
    """A parsed description: return pattern, parameter patterns, varargs."""

    __slots__ = ("text", "ret", "params", "varargs", "overloaded")

    def __init__(self, text: str, ret: Pattern, params: tuple[Pattern, ...], varargs: bool, overloaded: bool) -> None:
        self.text = text
        self.ret = ret
        self.params = params
        self.varargs = varargs
        self.overloaded = overloaded


_TOKEN_RE = re.compile(r"\s*(<vscale x|\$\d+(?:\.[a-z]+|~)?|[A-Za-z_][A-Za-z0-9_]*|\d+|\.\.\.|[(){}<>,])")


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _TOKEN_RE.findall(text)
        joined = "".join(self.tokens).replace(" ", "")
        if joined != text.replace(" ", ""):
            raise ValueError("bad intrinsic description: %r" % text)
        self.pos = 0
        self.slots = 0

    def peek(self) -> str:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ""

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if expected is not None and tok != expected:
            raise ValueError("expected %r, got %r" % (expected, tok))
        self.pos += 1
        return tok

    def signature(self, text: str) -> Signature:
        ret = self.type()
        self.take("(")
        params: list[Pattern] = []
        varargs = False
        while self.peek() != ")":
            if self.peek() == "...":
                self.take()
                varargs = True
                break
            params.append(self.type())
            if self.peek() == ",":
                self.take()
        self.take(")")
        if self.pos != len(self.tokens):
            raise ValueError("trailing text in %r" % text)
        return Signature(text, ret, tuple(params), varargs, self.slots > 0)

    def type(self) -> Pattern:
        tok = self.take()
        if tok in _SLOT_KINDS:
            pat = Pattern(_SLOT, _SLOT_KINDS[tok])
            pat.slot = self.slots
            self.slots += 1
            return pat
        if tok.startswith("$"):
            if tok.endswith("~"):
                return Pattern(_WIDTH, int(tok[1:-1]), (self.type(),))
            num, _, suffix = tok[1:].partition(".")
            if not suffix:
                return Pattern(_MATCH, int(num))
            if suffix == "vecptr":
                pat = Pattern(_VECPTR, int(num))
                pat.slot = self.slots
                self.slots += 1
                return pat
            return Pattern({"elt": _ELT, "half": _HALF}[suffix], int(num))
        if tok == "void":
            return Pattern(_VOID)
        if tok == "metadata":
            return Pattern(_META)
        if tok == "token":
            return Pattern(_TOKEN)
        if tok == "ptr":
            if self.peek() == "addrspace":
                self.take()
                self.take("(")
                space = int(self.take())
                self.take(")")
                return Pattern(_PTR, space)
            return Pattern(_PTR, 0)
        if tok in _FP_NAMES:
            return Pattern(_FP, _FP_NAMES[tok])
        if tok[0] == "i" and tok[1:].isdigit():
            return Pattern(_INT, int(tok[1:]))
        if tok in ("<", "<vscale x"):
            count = int(self.take())
            self.take("x")
            elem = self.type()
            self.take(">")
            return Pattern(_VEC, count, (elem,), tok != "<")
        if tok == "{":
            members: list[Pattern] = []
            while True:
                members.append(self.type())
                if self.take() == "}":
                    return Pattern(_STRUCT, len(members), tuple(members))
        raise ValueError("unknown type %r in an intrinsic description" % tok)


_SIGNATURES: dict[str, Signature] = {}


def signature_of(base: str) -> Signature | None:
    """The parsed description of the intrinsic ``base`` (``"llvm.memcpy"``), or None."""
    sig = _SIGNATURES.get(base)
    if sig is None:
        text = DESCRIPTIONS.get(base)
        if text is None:
            return None
        sig = _SIGNATURES[base] = _Parser(text).signature(text)
    return sig


# --- which intrinsic a name is --------------------------------------------------------------------------

_MANGLED_SEGMENT = re.compile(r"(?:i\d+|bf16|f\d+|ppcf128|p\d+|(?:nx)?v\d+[a-z].*|isVoid)$")


def _attribute_table_entry(name: str) -> tuple[int, str, str, bool] | None:
    return _load_attribute_table().get(name)


def _is_mangled_alias(name: str) -> bool:
    """True for names the attribute table lists that are really an overloaded
    intrinsic plus type manglings (``llvm.ceil.f32``): not intrinsics of their own."""
    cut = len(name)
    while True:
        cut = name.rfind(".", 0, cut)
        if cut <= 4:
            return False
        entry = _attribute_table_entry(name[:cut])
        if entry is not None and entry[3]:
            return all(_MANGLED_SEGMENT.match(seg) for seg in name[cut + 1 :].split("."))


_LOOKUP_CACHE: dict[str, tuple[str, Signature | None] | None] = {}


def intrinsic_base(name: str) -> tuple[str, Signature | None] | None:
    """``(base name, signature or None)`` of the intrinsic a function called
    ``name`` is, following LLVM's lookup (the longest known intrinsic name that
    is the whole name, or a prefix before a ``.`` when it is overloaded); None
    when the name is not an intrinsic. Known names are the described ones and
    those of :mod:`llvmpy_mid.ir.intrinsics`' table; the signature is None for
    an intrinsic without a description."""
    if name in _LOOKUP_CACHE:
        return _LOOKUP_CACHE[name]
    found: tuple[str, Signature | None] | None = None
    if name.startswith("llvm."):
        cut = len(name)
        while cut > 4:
            base = name[:cut]
            sig = signature_of(base)
            if sig is not None:
                if cut == len(name) or sig.overloaded:
                    found = (base, sig)
                break
            entry = _attribute_table_entry(base)
            if entry is not None and not _is_mangled_alias(base):
                if cut == len(name) or entry[3]:
                    found = (base, None)
                break
            cut = name.rfind(".", 0, cut)
    if len(_LOOKUP_CACHE) < 4096:
        _LOOKUP_CACHE[name] = found
    return found


def intrinsic_signature(name: str) -> tuple[str, Signature] | None:
    """``(base name, signature)`` of the described intrinsic a function called
    ``name`` is (see :func:`intrinsic_base`); None when the name is not an
    intrinsic or its intrinsic has no description."""
    found = intrinsic_base(name)
    if found is None or found[1] is None:
        return None
    return found[0], found[1]


# --- matching -------------------------------------------------------------------------------------------

MATCH = 0
NO_MATCH_RET = 1
NO_MATCH_ARG = 2


class _Match:
    __slots__ = ("slots", "deferred")

    def __init__(self) -> None:
        self.slots: list[Type] = []
        self.deferred: list[tuple[Pattern, Type]] = []

    def defer(self, pat: Pattern, ty: Type, late: bool) -> bool:
        if late:
            return False
        self.deferred.append((pat, ty))
        return True

    def match(self, pat: Pattern, ty: Type, late: bool) -> bool:
        """True when ``ty`` fits ``pat`` (``late``: a deferred check being redone)."""
        op = pat.op
        tid = ty.type_id
        if op == _INT:
            return tid is TypeID.INTEGER and ty.is_integer_bits(pat.n)
        if op == _PTR:
            return isinstance(ty, PointerType) and ty.address_space == pat.n
        if op == _FP:
            return tid == pat.n
        if op == _VOID:
            return tid is TypeID.VOID
        if op == _META:
            return tid is TypeID.METADATA
        if op == _TOKEN:
            return tid is TypeID.TOKEN
        if op == _VEC:
            return (
                isinstance(ty, VectorType)
                and ty.count == pat.n
                and ty.scalable == pat.scalable
                and self.match(pat.sub[0], ty.element_type, late)
            )
        if op == _STRUCT:
            if not isinstance(ty, StructType) or not ty.is_literal or ty.packed or len(ty.elements) != pat.n:
                return False
            return all(self.match(p, t, late) for p, t in zip(pat.sub, ty.elements))
        slots = self.slots
        if op == _SLOT:
            if pat.slot < len(slots):
                return ty is slots[pat.slot]
            if pat.slot > len(slots):
                return self.defer(pat, ty, late)
            slots.append(ty)
            kind = pat.n
            if kind == _ANY:
                return True
            if kind == _ANY_INT:
                return ty.is_int_or_int_vector
            if kind == _ANY_FLOAT:
                return ty.is_fp_or_fp_vector
            if kind == _ANY_VEC:
                return ty.is_vector
            return tid is TypeID.POINTER
        ref: Type | None = slots[pat.n] if pat.n < len(slots) else None
        if op == _MATCH:
            return ty is ref if ref is not None else self.defer(pat, ty, late)
        if op == _VECPTR:
            if ref is None:
                if late:
                    return False
                slots.append(ty)
                return self.defer(pat, ty, late)
            if not late:
                slots.append(ty)
            return (
                isinstance(ref, VectorType)
                and isinstance(ty, VectorType)
                and ref.count == ty.count
                and ref.scalable == ty.scalable
                and ty.element_type.type_id is TypeID.POINTER
            )
        if ref is None:
            return self.defer(pat, ty, late)
        if op == _ELT:
            return isinstance(ref, VectorType) and ty is ref.element_type
        if op == _WIDTH:
            if isinstance(ref, VectorType) != isinstance(ty, VectorType):
                return False
            elem = ty
            if isinstance(ty, VectorType) and isinstance(ref, VectorType):
                if ty.count != ref.count or ty.scalable != ref.scalable:
                    return False
                elem = ty.element_type
            return self.match(pat.sub[0], elem, late)
        if op == _HALF:
            return (
                isinstance(ref, VectorType)
                and isinstance(ty, VectorType)
                and ty.element_type is ref.element_type
                and ty.count == ref.count // 2
                and ty.scalable == ref.scalable
            )
        return False


def match_signature(sig: Signature, fty: FunctionType) -> tuple[int, list[Type]]:
    """LLVM's ``matchIntrinsicSignature``: ``(MATCH | NO_MATCH_RET | NO_MATCH_ARG,
    the overloaded types found)``. A parameter beyond the description (or in
    its ``...``) does not match."""
    m = _Match()
    if not m.match(sig.ret, fty.return_type, False):
        return NO_MATCH_RET, m.slots
    ret_deferred = len(m.deferred)
    params = sig.params
    for i, pty in enumerate(fty.params):
        if i >= len(params) or not m.match(params[i], pty, False):
            return NO_MATCH_ARG, m.slots
    for k, (pat, ty) in enumerate(m.deferred):
        if not m.match(pat, ty, True):
            return (NO_MATCH_RET if k < ret_deferred else NO_MATCH_ARG), m.slots
    return MATCH, m.slots


def vararg_mismatch(sig: Signature, fty: FunctionType) -> bool:
    """LLVM's ``matchIntrinsicVarArg`` after a successful match: True when the
    declaration has too few parameters or disagrees about ``...``."""
    return len(fty.params) < len(sig.params) or sig.varargs != fty.is_vararg


# --- names ----------------------------------------------------------------------------------------------


def remangled_name(fn: Function) -> str | None:
    """The name LLVM 19's reader gives a declaration of a described intrinsic
    whose signature matches (``Intrinsic::remangleIntrinsicFunction``), when it
    differs from the current one; else None."""
    found = intrinsic_signature(fn.name)
    if found is None:
        return None
    base, sig = found
    fty = fn.function_type
    result, overloads = match_signature(sig, fty)
    if result != MATCH or vararg_mismatch(sig, fty):
        return None
    wanted = intrinsic_name(base, overloads)
    return wanted if wanted is not None and wanted != fn.name else None


__all__ = [
    "DESCRIPTIONS",
    "MATCH",
    "NO_MATCH_ARG",
    "NO_MATCH_RET",
    "Pattern",
    "Signature",
    "intrinsic_base",
    "intrinsic_name",
    "intrinsic_signature",
    "mangle_type",
    "match_signature",
    "remangled_name",
    "signature_of",
    "vararg_mismatch",
]
