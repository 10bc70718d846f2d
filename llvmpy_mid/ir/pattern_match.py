"""PatternMatch-style combinators (LLVM ``include/llvm/IR/PatternMatch.h``).

A pattern is a tree of small matcher objects built once (ideally at module
level) and applied with :func:`match`::

    P_ADD_NEG = m_add(m_neg(m_value("a")), m_value("b"))
    if m := match(v, P_ADD_NEG):
        use(m.a, m.b)

:func:`match` returns a :class:`Match` holding the captures (read them as
attributes, ``m.a``, or typed with ``m.value("a")`` / ``m.apint("c")``), or None.
A Match is always truthy, even without captures.

Every operator matcher checks the ``opcode`` field first (instructions and
constant expressions share LLVM's textual opcode names), then its operands, so
``m_add`` matches an ``add`` instruction and an ``add`` constant expression
alike, as LLVM's ``BinaryOp_match`` does. Constant matchers look through vector
splats the way LLVM's do: ``m_apint`` captures the integer of a ``ConstantInt``
or of a vector constant whose lanes are all that integer (``allow_poison``
lets poison lanes through); ``m_zero``/``m_one``/``m_all_ones`` and the other
value predicates accept a splat or a fixed vector whose non-poison lanes all
satisfy the predicate (LLVM ``cstval_pred_ty``).

Captures: ``m_value("x")`` binds ``x``; ``m_apint("c")`` binds the integer
(unsigned pattern) and ``m_constant_int("c")`` the ``ConstantInt``;
``m_icmp("p", l, r)`` binds the predicate. ``m_deferred("x")`` matches the
value already bound to ``x`` (LLVM ``m_Deferred``). A failed alternative may
leave stale captures behind; they are only read after a successful match.
Capture names may not shadow ``dict`` methods (``items``, ``get`` ...).
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, cast

from llvmpy_mid.ir.constants import (
    Constant,
    ConstantAggregateZero,
    ConstantDataVector,
    ConstantFP,
    ConstantInt,
    ConstantVector,
    PoisonValue,
    UndefValue,
    get_splat_value as get_splat_value,  # re-exported: the one copy is in ir/constants.py
)
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.types import VectorType
from llvmpy_mid.ir.value import Value



class Match:
    """The captures of a successful :func:`match`, read as attributes (``m.a``)
    or typed (``m.value("a")``). Always truthy, even without captures."""

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(
            "the pattern captured no %r (captures: %s)" % (name, ", ".join(self.__dict__) or "none")
        )

    def __contains__(self, name: str) -> bool:
        return name in self.__dict__

    def __repr__(self) -> str:
        return "Match(%s)" % ", ".join("%s=%r" % kv for kv in self.__dict__.items())

    def get(self, name: str) -> Any:
        """The capture ``name``, or None when it was not bound."""
        return self.__dict__.get(name)

    def value(self, name: str) -> Value:
        """The value bound to ``name`` (typed read)."""
        v: Value = getattr(self, name)
        return v

    def apint(self, name: str) -> int:
        """The integer bound by ``m_apint(name)``."""
        i: int = getattr(self, name)
        return i

    def constant(self, name: str) -> Constant:
        c: Constant = getattr(self, name)
        return c

    def constant_int(self, name: str) -> ConstantInt:
        c: ConstantInt = getattr(self, name)
        return c

    def predicate(self, name: str) -> Predicate:
        p: Predicate = getattr(self, name)
        return p


class Pattern:
    """A matcher. ``m(v, caps)`` tests ``v`` and records captures in ``caps``.

    :func:`match` compiles a pattern, the first time it is used, into one
    straight-line Python function (operand checks inlined, captures in locals)
    and calls that; ``emit`` writes a node's part of that function. A node
    without its own ``emit`` is called through ``m``.
    """

    __slots__ = ("_fn",)

    _fn: Callable[[Value], Match | None]

    def m(self, v: Value, caps: Match) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.need_caps = True
        g.line("if not %s.m(%s, caps): %s" % (g.const(self), var, fail))


class _Gen:
    """Writes the compiled form of a pattern (see :class:`Pattern`)."""

    __slots__ = ("lines", "consts", "count", "bound", "caps_mode", "need_caps", "depth")

    def __init__(self, caps_mode: bool) -> None:
        self.lines: list[str] = []
        self.consts: dict[str, object] = {}
        self.count = 0
        self.bound: list[str] = []
        self.caps_mode = caps_mode
        self.need_caps = False
        self.depth = 1

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return "%s%d" % (prefix, self.count)

    def const(self, obj: object) -> str:
        name = "k%d" % len(self.consts)
        self.consts[name] = obj
        return name

    def bind(self, name: str, expr: str) -> None:
        if self.caps_mode:
            self.line("caps.%s = %s" % (name, expr))
        else:
            self.line("b_%s = %s" % (name, expr))
            if name not in self.bound:
                self.bound.append(name)

    def bound_expr(self, name: str) -> str:
        if self.caps_mode:
            return "caps.get(%r)" % name
        if name not in self.bound:
            raise ValueError("m_deferred(%r) comes before %r is bound" % (name, name))
        return "b_" + name

    def operands(self, var: str, count: int) -> list[str]:
        ops = self.fresh("o")
        self.line("%s = %s._operands" % (ops, var))
        names = []
        for i in range(count):
            n = self.fresh("v")
            self.line("%s = %s[%d].value" % (n, ops, i))
            names.append(n)
        return names

    def opcode_check(self, var: str, opcode: str, fail: str) -> None:
        self.line("if getattr(%s, 'opcode', None) != %r: %s" % (var, opcode, fail))


_CODE_CACHE: dict[str, Any] = {}
"""Generated matcher source -> its compiled code object."""


def _compile(pattern: Pattern) -> Callable[[Value], Match | None]:
    g = _Gen(False)
    try:
        pattern.emit(g, "v", "return None")
    except ValueError:
        # an m_deferred after a capture made inside an opaque node (one without its own
        # emit): only the caps mode can see that capture
        if not g.need_caps:
            raise
    if g.need_caps:
        g = _Gen(True)
        pattern.emit(g, "v", "return None")
    src = ["def _matcher(v):"]
    if g.caps_mode:
        src.append("    caps = Match()")
    src.extend(g.lines)
    if not g.caps_mode:
        src.append("    caps = Match()")
        src.extend("    caps.%s = b_%s" % (n, n) for n in g.bound)
    src.append("    return caps")
    namespace: dict[str, Any] = dict(g.consts)
    namespace.update(Match=Match, ConstantInt=ConstantInt, _splat_int=_splat_int, _flags_word=_flags_word)
    text = "\n".join(src)
    code = _CODE_CACHE.get(text)
    if code is None:
        # patterns built inside a function are new objects on every call; the generated
        # source is the same, so Python compiles it once (the constants differ per pattern)
        code = compile(text, "<pattern %s>" % type(pattern).__name__, "exec")
        _CODE_CACHE[text] = code
    exec(code, namespace)
    fn: Callable[[Value], Match | None] = namespace["_matcher"]
    pattern._fn = fn
    return fn


def _compile_on_next_use(pattern: Pattern) -> Callable[[Value], Match | None]:
    def first_reuse(v: Value) -> Match | None:
        return _compile(pattern)(v)

    return first_reuse


def match(v: Value, pattern: Pattern) -> Match | None:
    """Apply ``pattern`` to ``v``: the captures on success, else None.

    A pattern's first use is interpreted (``m``): a pattern built inside a function is a new
    object on every call, and used once it is not worth compiling. Its second use compiles
    it (see :class:`Pattern`), so patterns kept at module level run compiled."""
    try:
        fn = pattern._fn
    except AttributeError:
        pattern._fn = _compile_on_next_use(pattern)
        caps = Match()
        return caps if pattern.m(v, caps) else None
    return fn(v)


def matches(v: Value, pattern: Pattern) -> bool:
    """Whether ``pattern`` matches ``v`` (captures discarded)."""
    return match(v, pattern) is not None


_MATCH_NAMES = frozenset(n for n in dir(Match) if not n.startswith("__"))


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not name.isidentifier() or name in _MATCH_NAMES or name.startswith("_"):
        raise ValueError("capture name %r must be an identifier not starting with _ nor naming a Match method" % (name,))
    return name


# --- splats -------------------------------------------------------------------------------


# ``get_splat_value`` (LLVM ``Constant::getSplatValue``) lives in ``ir/constants.py``.


# --- leaf matchers ------------------------------------------------------------------------


class _Any(Pattern):
    __slots__ = ()

    def m(self, v: Value, caps: Match) -> bool:
        return True

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        pass


class _Bind(Pattern):
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def m(self, v: Value, caps: Match) -> bool:
        setattr(caps, self.name, v)
        return True

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.bind(self.name, var)


class _BindIf(Pattern):
    """Binds ``v`` to ``name`` (if any) when ``test(v)`` holds."""

    __slots__ = ("name", "test")

    def __init__(self, name: str | None, test: Callable[[Value], bool]) -> None:
        self.name = name
        self.test = test

    def m(self, v: Value, caps: Match) -> bool:
        if not self.test(v):
            return False
        if self.name is not None:
            setattr(caps, self.name, v)
        return True

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.line("if not %s(%s): %s" % (g.const(self.test), var, fail))
        if self.name is not None:
            g.bind(self.name, var)


class _Specific(Pattern):
    __slots__ = ("v",)

    def __init__(self, v: Value) -> None:
        self.v = v

    def m(self, v: Value, caps: Match) -> bool:
        return v is self.v

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.line("if %s is not %s: %s" % (var, g.const(self.v), fail))


class _Deferred(Pattern):
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def m(self, v: Value, caps: Match) -> bool:
        return caps.get(self.name) is v

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.line("if %s is not %s: %s" % (var, g.bound_expr(self.name), fail))


_ANY = _Any()
_NO_CAPS = Match()


def m_value(name: str | None = None) -> Pattern:
    """Any value; binds it to ``name`` when given (LLVM ``m_Value``)."""
    return _ANY if name is None else _Bind(_check_name(name))


def m_specific(v: Value) -> Pattern:
    """Exactly ``v`` (LLVM ``m_Specific``)."""
    return _Specific(v)


def m_deferred(name: str) -> Pattern:
    """The value bound to ``name`` earlier in the same match (LLVM ``m_Deferred``)."""
    return _Deferred(_check_name(name))


def _is_constant(v: Value) -> bool:
    return v.is_constant


def _is_imm_constant(v: Value) -> bool:
    if not v.is_constant or v.is_global_value:
        return False
    stack: list[Value] = [v]
    while stack:
        c = stack.pop()
        if getattr(c, "is_constant_expr", False) or c.is_global_value or getattr(c, "is_block_address", False):
            return False
        ops = getattr(c, "_operands", None)
        if ops:
            stack.extend(u.value for u in ops)
    return True


def m_constant(name: str | None = None) -> Pattern:
    """Any constant, globals and constant expressions included (LLVM ``m_Constant``)."""
    return _BindIf(None if name is None else _check_name(name), _is_constant)


def m_imm_constant(name: str | None = None) -> Pattern:
    """A constant with no constant expression or global inside (LLVM ``m_ImmConstant``)."""
    return _BindIf(None if name is None else _check_name(name), _is_imm_constant)


def m_undef() -> Pattern:
    """``undef`` or ``poison`` (also a vector of them) (LLVM ``m_Undef``)."""
    return _BindIf(None, _is_undef)


def _is_undef(v: Value) -> bool:
    if isinstance(v, UndefValue):
        return True
    if isinstance(v, ConstantVector):
        return all(isinstance(u.value, UndefValue) for u in v._operands)
    return False


def m_poison() -> Pattern:
    """``poison`` (LLVM ``m_Poison``)."""
    return _BindIf(None, lambda v: isinstance(v, PoisonValue))


def m_basic_block(name: str | None = None) -> Pattern:
    return _BindIf(None if name is None else _check_name(name), lambda v: v.is_basic_block)


def m_instruction(name: str | None = None) -> Pattern:
    """Any instruction (LLVM ``m_Instruction``)."""
    return _BindIf(None if name is None else _check_name(name), lambda v: v.is_instruction)


# --- integer constants (with splats) ----------------------------------------------------------


def _splat_int(v: Value, allow_poison: bool) -> ConstantInt | None:
    if type(v) is ConstantInt:
        return v
    if v.is_constant and type(v.type) is VectorType:
        s = get_splat_value(v, allow_poison)
        if type(s) is ConstantInt:
            return s
    return None


class _APInt(Pattern):
    __slots__ = ("name", "allow_poison", "as_constant")

    def __init__(self, name: str | None, allow_poison: bool, as_constant: bool) -> None:
        self.name = name
        self.allow_poison = allow_poison
        self.as_constant = as_constant

    def m(self, v: Value, caps: Match) -> bool:
        if type(v) is ConstantInt:
            ci: ConstantInt | None = v
        else:
            ci = _splat_int(v, self.allow_poison)
            if ci is None:
                return False
        if self.name is not None:
            setattr(caps, self.name, ci if self.as_constant else ci.value)  # type: ignore[union-attr]
        return True

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        ci = g.fresh("c")
        g.line("if type(%s) is ConstantInt: %s = %s" % (var, ci, var))
        g.line("else:")
        g.line("    %s = _splat_int(%s, %r)" % (ci, var, self.allow_poison))
        g.line("    if %s is None: %s" % (ci, fail))
        if self.name is not None:
            g.bind(self.name, ci if self.as_constant else ci + ".value")


def m_apint(name: str | None = None, *, allow_poison: bool = False) -> Pattern:
    """An integer constant or a splat of one; binds its unsigned value (LLVM ``m_APInt``)."""
    return _APInt(None if name is None else _check_name(name), allow_poison, False)


def m_apint_allow_poison(name: str | None = None) -> Pattern:
    """``m_apint`` letting poison vector lanes through (LLVM ``m_APIntAllowPoison``)."""
    return m_apint(name, allow_poison=True)


def m_constant_int(name: str | None = None, *, splat: bool = True) -> Pattern:
    """A ``ConstantInt``, or (``splat``, the default) a vector splat of one; binds the
    ``ConstantInt`` (LLVM ``m_ConstantInt`` is ``splat=False``)."""
    n = None if name is None else _check_name(name)
    if splat:
        return _APInt(n, False, True)
    return _BindIf(n, lambda v: type(v) is ConstantInt)


class _CstPred(Pattern):
    """A constant whose value (scalar, splat, or every non-poison lane of a fixed
    vector, at least one) satisfies ``pred`` (LLVM ``cstval_pred_ty``)."""

    __slots__ = ("pred", "name", "int_only", "expr")

    def __init__(
        self, pred: Callable[[Constant], bool], name: str | None, int_only: bool, expr: str | None = None
    ) -> None:
        self.pred = pred
        self.name = name
        self.int_only = int_only
        self.expr = expr
        """``pred`` on a ConstantInt ``{0}`` as Python text, inlined by the compiled matcher."""

    def _elem_ok(self, e: Value) -> bool:
        if self.int_only:
            return type(e) is ConstantInt and self.pred(e)
        return (type(e) is ConstantInt or type(e) is ConstantFP) and self.pred(e)

    def m(self, v: Value, caps: Match) -> bool:
        if not v.is_constant:
            return False
        if self._elem_ok(v):
            ok = True
        elif type(v.type) is VectorType:
            s = get_splat_value(v)
            if s is not None:
                ok = self._elem_ok(s)
            elif isinstance(v, (ConstantVector, ConstantDataVector)) and not v.type.scalable:
                ok = False
                n = v.type.count
                for i in range(n):
                    e = v.get_aggregate_element(i)
                    if e is None:
                        return False
                    if isinstance(e, PoisonValue):
                        continue
                    if not self._elem_ok(e):
                        return False
                    ok = True
            else:
                ok = False
        else:
            ok = False
        if ok and self.name is not None:
            setattr(caps, self.name, v)
        return ok

    def test(self, v: Value) -> bool:
        return self.m(v, _NO_CAPS) if self.name is None else _CstPred(self.pred, None, self.int_only).m(v, _NO_CAPS)

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        plain = _CstPred(self.pred, None, self.int_only)
        g.line("if type(%s) is ConstantInt:" % var)
        if self.expr is not None:
            g.line("    if not (%s): %s" % (self.expr.format(var), fail))
        else:
            g.line("    if not %s(%s): %s" % (g.const(self.pred), var, fail))
        g.line("elif not %s.m(%s, None): %s" % (g.const(plain), var, fail))
        if self.name is not None:
            g.bind(self.name, var)


def _int_pred(pred: Callable[[ConstantInt], bool]) -> Callable[[Constant], bool]:
    return cast(Callable[[Constant], bool], pred)


def m_cst_pred(pred: Callable[[Constant], bool], name: str | None = None, *, int_only: bool = True) -> Pattern:
    """A constant whose lanes satisfy ``pred`` (ConstantInt lanes, or ConstantFP too
    when not ``int_only``); binds the whole constant."""
    return _CstPred(pred, None if name is None else _check_name(name), int_only)


class _NamedPattern(Protocol):
    def __call__(self, name: str | None = None) -> Pattern: ...


def _cp(pred: Callable[[ConstantInt], bool], expr: str | None = None) -> _NamedPattern:
    def make(name: str | None = None) -> Pattern:
        return _CstPred(_int_pred(pred), None if name is None else _check_name(name), True, expr)

    return make


m_zero_int = _cp(lambda c: c.value == 0, "{0}.value == 0")
"""Integer zero or a splat of it, poison lanes allowed (LLVM ``m_ZeroInt``)."""
m_one = _cp(lambda c: c.value == 1, "{0}.value == 1")
"""Integer one (LLVM ``m_One``)."""
m_all_ones = _cp(lambda c: c.value == c.type.mask, "{0}.value == {0}.type.mask")
"""All ones, -1 (LLVM ``m_AllOnes``)."""
m_sign_mask = _cp(lambda c: c.value == 1 << (c.type.width - 1))
"""Only the sign bit set, INT_MIN (LLVM ``m_SignMask``)."""
m_power2 = _cp(lambda c: c.value != 0 and c.value & (c.value - 1) == 0)
"""A power of two (LLVM ``m_Power2``)."""
m_power2_or_zero = _cp(lambda c: c.value & (c.value - 1) == 0)
m_negative = _cp(lambda c: bool(c.value >> (c.type.width - 1)))
"""Negative as signed (LLVM ``m_Negative``)."""
m_non_negative = _cp(lambda c: not c.value >> (c.type.width - 1))
m_strictly_positive = _cp(lambda c: c.value != 0 and not c.value >> (c.type.width - 1))
m_non_positive = _cp(lambda c: c.value == 0 or bool(c.value >> (c.type.width - 1)))
m_lowbit_mask = _cp(lambda c: c.value & (c.value + 1) == 0 and c.value != 0)
"""``2**k - 1`` with k >= 1 (LLVM ``m_LowBitMask``)."""
m_nonzero_int = _cp(lambda c: c.value != 0)


def m_specific_int(value: int) -> Pattern:
    """An integer constant (or splat) equal to ``value`` modulo 2**width (LLVM ``m_SpecificInt``)."""
    return _SpecificInt(value)


class _SpecificInt(Pattern):
    __slots__ = ("want",)

    def __init__(self, want: int) -> None:
        self.want = want

    def m(self, v: Value, caps: Match) -> bool:
        ci = v if type(v) is ConstantInt else _splat_int(v, False)
        if ci is None:
            return False
        return ci.value == self.want & ci.type.mask

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        ci = g.fresh("c")
        g.line("%s = %s if type(%s) is ConstantInt else _splat_int(%s, False)" % (ci, var, var, var))
        g.line("if %s is None or %s.value != %d & %s.type.mask: %s" % (ci, ci, self.want, ci, fail))


def _is_zero_value(v: Value) -> bool:
    return v.is_constant and v.is_null_value  # type: ignore[attr-defined]


class _Zero(Pattern):
    """Null value of any type (or a vector whose non-poison lanes are) (LLVM ``m_Zero``)."""

    __slots__ = ()

    def m(self, v: Value, caps: Match) -> bool:
        if not v.is_constant:
            return False
        if v.is_null_value:  # type: ignore[attr-defined]
            return True
        return _ZERO_INT.m(v, caps)

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.line("if not (type(%s) is ConstantInt and %s.value == 0 or %s.m(%s, None)): %s" % (var, var, g.const(self), var, fail))


_ZERO_INT = _CstPred(_int_pred(lambda c: c.value == 0), None, True)
_ZERO = _Zero()


def m_zero() -> Pattern:
    """The null value of the type: 0, null, zeroinitializer (LLVM ``m_Zero``)."""
    return _ZERO


def _fp_is(bits_test: Callable[[ConstantFP], bool]) -> Callable[[Constant], bool]:
    return cast(Callable[[Constant], bool], bits_test)


def m_pos_zero_fp() -> Pattern:
    """+0.0 (or a splat of it) (LLVM ``m_PosZeroFP``)."""
    return _CstPred(_fp_is(lambda c: type(c) is ConstantFP and c.bits == 0), None, False)


def m_neg_zero_fp() -> Pattern:
    """-0.0 (LLVM ``m_NegZeroFP``)."""
    return _CstPred(_fp_is(lambda c: type(c) is ConstantFP and c.is_zero_value and c.bits != 0), None, False)


def m_any_zero_fp() -> Pattern:
    """+0.0 or -0.0 (LLVM ``m_AnyZeroFP``)."""
    return _CstPred(_fp_is(lambda c: type(c) is ConstantFP and c.is_zero_value), None, False)


# --- operators ------------------------------------------------------------------------------


class _BinOp(Pattern):
    __slots__ = ("opcode", "l", "r")

    def __init__(self, opcode: str, l: Pattern, r: Pattern) -> None:
        self.opcode = opcode
        self.l = l
        self.r = r

    def m(self, v: Value, caps: Match) -> bool:
        if getattr(v, "opcode", None) != self.opcode:
            return False
        ops = v._operands  # type: ignore[attr-defined]
        return self.l.m(ops[0].value, caps) and self.r.m(ops[1].value, caps)

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.opcode_check(var, self.opcode, fail)
        a, b = g.operands(var, 2)
        self.l.emit(g, a, fail)
        self.r.emit(g, b, fail)


class _CBinOp(_BinOp):
    """Either operand order (LLVM ``m_c_*``)."""

    __slots__ = ()

    def m(self, v: Value, caps: Match) -> bool:
        if getattr(v, "opcode", None) != self.opcode:
            return False
        ops = v._operands  # type: ignore[attr-defined]
        a = ops[0].value
        b = ops[1].value
        if self.l.m(a, caps) and self.r.m(b, caps):
            return True
        return self.l.m(b, caps) and self.r.m(a, caps)

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.opcode_check(var, self.opcode, fail)
        a, b = g.operands(var, 2)
        x = g.fresh("v")
        y = g.fresh("v")
        g.line("for %s, %s in ((%s, %s), (%s, %s)):" % (x, y, a, b, b, a))
        g.depth += 1
        self.l.emit(g, x, "continue")
        self.r.emit(g, y, "continue")
        g.line("break")
        g.depth -= 1
        g.line("else:")
        g.line("    " + fail)


def _flags_word(v: Value) -> int:
    if v.is_instruction:
        return getattr(v, "_flags", 0)
    return getattr(v, "flags", 0)


class _FlagBinOp(_BinOp):
    """An operator carrying every flag bit of ``bits`` (nuw=1/nsw=2, exact/disjoint=1)."""

    __slots__ = ("bits",)

    def __init__(self, opcode: str, l: Pattern, r: Pattern, bits: int) -> None:
        _BinOp.__init__(self, opcode, l, r)
        self.bits = bits

    def m(self, v: Value, caps: Match) -> bool:
        if getattr(v, "opcode", None) != self.opcode or _flags_word(v) & self.bits != self.bits:
            return False
        ops = v._operands  # type: ignore[attr-defined]
        return self.l.m(ops[0].value, caps) and self.r.m(ops[1].value, caps)

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.opcode_check(var, self.opcode, fail)
        g.line("if _flags_word(%s) & %d != %d: %s" % (var, self.bits, self.bits, fail))
        a, b = g.operands(var, 2)
        self.l.emit(g, a, fail)
        self.r.emit(g, b, fail)


def _binop(opcode: str) -> Callable[[Pattern, Pattern], Pattern]:
    def make(l: Pattern, r: Pattern) -> Pattern:
        return _BinOp(opcode, l, r)

    make.__doc__ = "``%s L, R`` (instruction or constant expression)." % opcode
    return make


def _cbinop(opcode: str) -> Callable[[Pattern, Pattern], Pattern]:
    def make(l: Pattern, r: Pattern) -> Pattern:
        return _CBinOp(opcode, l, r)

    make.__doc__ = "``%s L, R`` or ``%s R, L``." % (opcode, opcode)
    return make


m_add = _binop("add")
m_sub = _binop("sub")
m_mul = _binop("mul")
m_udiv = _binop("udiv")
m_sdiv = _binop("sdiv")
m_urem = _binop("urem")
m_srem = _binop("srem")
m_shl = _binop("shl")
m_lshr = _binop("lshr")
m_ashr = _binop("ashr")
m_and = _binop("and")
m_or = _binop("or")
m_xor = _binop("xor")
m_fadd = _binop("fadd")
m_fsub = _binop("fsub")
m_fmul = _binop("fmul")
m_fdiv = _binop("fdiv")
m_frem = _binop("frem")
m_c_add = _cbinop("add")
m_c_mul = _cbinop("mul")
m_c_and = _cbinop("and")
m_c_or = _cbinop("or")
m_c_xor = _cbinop("xor")
m_c_fadd = _cbinop("fadd")
m_c_fmul = _cbinop("fmul")

_NUW = 1
_NSW = 2


def _flag_binop(opcode: str, bits: int, what: str) -> Callable[[Pattern, Pattern], Pattern]:
    def make(l: Pattern, r: Pattern) -> Pattern:
        return _FlagBinOp(opcode, l, r, bits)

    make.__doc__ = "``%s %s L, R`` (LLVM ``m_%s%s``)." % (opcode, what, what.upper(), opcode.capitalize())
    return make


m_nsw_add = _flag_binop("add", _NSW, "nsw")
m_nuw_add = _flag_binop("add", _NUW, "nuw")
m_nsw_sub = _flag_binop("sub", _NSW, "nsw")
m_nuw_sub = _flag_binop("sub", _NUW, "nuw")
m_nsw_mul = _flag_binop("mul", _NSW, "nsw")
m_nuw_mul = _flag_binop("mul", _NUW, "nuw")
m_nsw_shl = _flag_binop("shl", _NSW, "nsw")
m_nuw_shl = _flag_binop("shl", _NUW, "nuw")


def m_exact(opcode: str, l: Pattern, r: Pattern) -> Pattern:
    """``opcode exact L, R`` (udiv, sdiv, lshr, ashr)."""
    return _FlagBinOp(opcode, l, r, 1)


def m_disjoint_or(l: Pattern, r: Pattern) -> Pattern:
    """``or disjoint L, R`` (LLVM ``m_DisjointOr``)."""
    return _FlagBinOp("or", l, r, 1)


_BINARY_OPCODES = frozenset(
    "add sub mul udiv sdiv urem srem shl lshr ashr and or xor fadd fsub fmul fdiv frem".split()
)


class _AnyBinOp(Pattern):
    __slots__ = ("l", "r", "name", "commutable")

    def __init__(self, l: Pattern, r: Pattern, name: str | None, commutable: bool) -> None:
        self.l = l
        self.r = r
        self.name = name
        self.commutable = commutable

    def m(self, v: Value, caps: Match) -> bool:
        if getattr(v, "opcode", None) not in _BINARY_OPCODES:
            return False
        ops = v._operands  # type: ignore[attr-defined]
        a = ops[0].value
        b = ops[1].value
        if not (self.l.m(a, caps) and self.r.m(b, caps)):
            if not (self.commutable and self.l.m(b, caps) and self.r.m(a, caps)):
                return False
        if self.name is not None:
            setattr(caps, self.name, v)
        return True


def m_binop(l: Pattern | None = None, r: Pattern | None = None, name: str | None = None) -> Pattern:
    """Any binary operator; binds the operator itself to ``name`` (LLVM ``m_BinOp``)."""
    return _AnyBinOp(l or _ANY, r or _ANY, None if name is None else _check_name(name), False)


def m_c_binop(l: Pattern, r: Pattern, name: str | None = None) -> Pattern:
    """Any binary operator with operands in either order (for commutative opcodes only
    use this when the fold is valid both ways)."""
    return _AnyBinOp(l, r, None if name is None else _check_name(name), True)


def m_neg(x: Pattern) -> Pattern:
    """``sub 0, X`` (LLVM ``m_Neg``)."""
    return _BinOp("sub", m_zero_int(), x)


def m_nsw_neg(x: Pattern) -> Pattern:
    """``sub nsw 0, X`` (LLVM ``m_NSWNeg``)."""
    return _FlagBinOp("sub", m_zero_int(), x, _NSW)


def m_not(x: Pattern) -> Pattern:
    """``xor X, -1`` in either order (LLVM ``m_Not``)."""
    return _CBinOp("xor", x, m_all_ones())


class _FNeg(Pattern):
    __slots__ = ("x",)

    def __init__(self, x: Pattern) -> None:
        self.x = x

    def m(self, v: Value, caps: Match) -> bool:
        op = getattr(v, "opcode", None)
        if op == "fneg":
            return self.x.m(v._operands[0].value, caps)  # type: ignore[attr-defined]
        if op == "fsub":
            ops = v._operands  # type: ignore[attr-defined]
            lhs = ops[0].value
            fmf = int(getattr(v, "fast_math_flags", 0))
            nsz = bool(fmf & 8)  # FastMathFlags.NSZ
            zero_ok = _ANY_ZERO_FP.m(lhs, caps) if nsz else _NEG_ZERO_FP.m(lhs, caps)
            return zero_ok and self.x.m(ops[1].value, caps)
        return False


_NEG_ZERO_FP = m_neg_zero_fp()
_ANY_ZERO_FP = m_any_zero_fp()


def m_fneg(x: Pattern) -> Pattern:
    """``fneg X`` or ``fsub -0.0, X`` (``fsub nsz 0.0, X`` too) (LLVM ``m_FNeg``)."""
    return _FNeg(x)


class _Unary(Pattern):
    """A one-operand instruction or constant expression of opcode ``opcode``."""

    __slots__ = ("opcode", "x")

    def __init__(self, opcode: str, x: Pattern) -> None:
        self.opcode = opcode
        self.x = x

    def m(self, v: Value, caps: Match) -> bool:
        if getattr(v, "opcode", None) != self.opcode:
            return False
        return self.x.m(v._operands[0].value, caps)  # type: ignore[attr-defined]

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.opcode_check(var, self.opcode, fail)
        (a,) = g.operands(var, 1)
        self.x.emit(g, a, fail)


def _unary(opcode: str) -> Callable[[Pattern], Pattern]:
    def make(x: Pattern) -> Pattern:
        return _Unary(opcode, x)

    make.__doc__ = "``%s X``." % opcode
    return make


m_zext = _unary("zext")
m_sext = _unary("sext")
m_trunc = _unary("trunc")
m_bitcast = _unary("bitcast")
m_ptrtoint = _unary("ptrtoint")
m_inttoptr = _unary("inttoptr")
m_addrspacecast = _unary("addrspacecast")
m_fptrunc = _unary("fptrunc")
m_fpext = _unary("fpext")
m_fptoui = _unary("fptoui")
m_fptosi = _unary("fptosi")
m_uitofp = _unary("uitofp")
m_sitofp = _unary("sitofp")
m_freeze = _unary("freeze")


class _NNegZExt(_Unary):
    __slots__ = ()

    def m(self, v: Value, caps: Match) -> bool:
        if getattr(v, "opcode", None) != "zext" or not getattr(v, "_flags", 0) & 1:
            return False
        return self.x.m(v._operands[0].value, caps)  # type: ignore[attr-defined]

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.opcode_check(var, "zext", fail)
        g.line("if not %s._flags & 1: %s" % (var, fail))
        (a,) = g.operands(var, 1)
        self.x.emit(g, a, fail)


def m_nneg_zext(x: Pattern) -> Pattern:
    """``zext nneg X`` (LLVM ``m_NNegZExt``)."""
    return _NNegZExt("zext", x)


def m_combine_or(a: Pattern, b: Pattern) -> Pattern:
    """``a`` or else ``b`` (LLVM ``m_CombineOr``)."""
    return _Or(a, b)


def m_combine_and(a: Pattern, b: Pattern) -> Pattern:
    """Both ``a`` and ``b`` (LLVM ``m_CombineAnd``)."""
    return _And(a, b)


class _Or(Pattern):
    __slots__ = ("a", "b")

    def __init__(self, a: Pattern, b: Pattern) -> None:
        self.a = a
        self.b = b

    def m(self, v: Value, caps: Match) -> bool:
        return self.a.m(v, caps) or self.b.m(v, caps)


class _And(_Or):
    __slots__ = ()

    def m(self, v: Value, caps: Match) -> bool:
        return self.a.m(v, caps) and self.b.m(v, caps)

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        self.a.emit(g, var, fail)
        self.b.emit(g, var, fail)


def m_zext_or_sext(x: Pattern) -> Pattern:
    return _Or(_Unary("zext", x), _Unary("sext", x))


def m_zext_or_self(x: Pattern) -> Pattern:
    return _Or(_Unary("zext", x), x)


def m_sext_or_self(x: Pattern) -> Pattern:
    return _Or(_Unary("sext", x), x)


def m_trunc_or_self(x: Pattern) -> Pattern:
    return _Or(_Unary("trunc", x), x)


class _OneUse(Pattern):
    __slots__ = ("x",)

    def __init__(self, x: Pattern) -> None:
        self.x = x

    def m(self, v: Value, caps: Match) -> bool:
        head = v._use_head
        return head is not None and head._next is None and self.x.m(v, caps)

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        h = g.fresh("h")
        g.line("%s = %s._use_head" % (h, var))
        g.line("if %s is None or %s._next is not None: %s" % (h, h, fail))
        self.x.emit(g, var, fail)


def m_one_use(x: Pattern) -> Pattern:
    """``x`` on a value with exactly one use (LLVM ``m_OneUse``)."""
    return _OneUse(x)


class _Bound(Pattern):
    __slots__ = ("name", "x")

    def __init__(self, name: str, x: Pattern) -> None:
        self.name = name
        self.x = x

    def m(self, v: Value, caps: Match) -> bool:
        if self.x.m(v, caps):
            setattr(caps, self.name, v)
            return True
        return False

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        self.x.emit(g, var, fail)
        g.bind(self.name, var)


def m_bind(name: str, x: Pattern) -> Pattern:
    """Match ``x`` and bind the matched value itself to ``name`` (LLVM ``m_CombineAnd(m_Value(V), ...)``)."""
    return _Bound(_check_name(name), x)


# --- comparisons, select, intrinsics ------------------------------------------------------------------


class _Cmp(Pattern):
    __slots__ = ("opcode", "pred_name", "want", "l", "r", "commutable")

    def __init__(
        self, opcode: str, pred_name: str | None, want: Predicate | None, l: Pattern, r: Pattern, commutable: bool
    ) -> None:
        self.opcode = opcode
        self.pred_name = pred_name
        self.want = want
        self.l = l
        self.r = r
        self.commutable = commutable

    def m(self, v: Value, caps: Match) -> bool:
        if getattr(v, "opcode", None) != self.opcode:
            return False
        ops = v._operands  # type: ignore[attr-defined]
        a = ops[0].value
        b = ops[1].value
        pred: Predicate = v._predicate  # type: ignore[attr-defined]
        if self.l.m(a, caps) and self.r.m(b, caps):
            pass
        elif self.commutable and self.l.m(b, caps) and self.r.m(a, caps):
            pred = pred.swapped
        else:
            return False
        if self.want is not None and pred != self.want:
            return False
        if self.pred_name is not None:
            setattr(caps, self.pred_name, pred)
        return True

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.opcode_check(var, self.opcode, fail)
        a, b = g.operands(var, 2)
        p = g.fresh("p")
        if not self.commutable:
            g.line("%s = %s._predicate" % (p, var))
            self._finish(g, p, a, b, fail)
            return
        x = g.fresh("v")
        y = g.fresh("v")
        g.line(
            "for %s, %s, %s in ((%s, %s, %s._predicate), (%s, %s, %s._predicate.swapped)):"
            % (x, y, p, a, b, var, b, a, var)
        )
        g.depth += 1
        self._finish(g, p, x, y, "continue")
        g.line("break")
        g.depth -= 1
        g.line("else:")
        g.line("    " + fail)

    def _finish(self, g: _Gen, p: str, a: str, b: str, fail: str) -> None:
        self.l.emit(g, a, fail)
        self.r.emit(g, b, fail)
        if self.want is not None:
            g.line("if %s != %d: %s" % (p, int(self.want), fail))
        if self.pred_name is not None:
            g.bind(self.pred_name, p)


def _pred_args(pred: str | Predicate | None) -> tuple[str | None, Predicate | None]:
    if pred is None:
        return None, None
    if isinstance(pred, Predicate):
        return None, pred
    return _check_name(pred), None


def m_icmp(pred: str | Predicate | None, l: Pattern, r: Pattern) -> Pattern:
    """``icmp P L, R``. ``pred`` is a capture name (binds the predicate), a
    :class:`Predicate` the compare must have (LLVM ``m_SpecificICmp``), or None."""
    name, want = _pred_args(pred)
    return _Cmp("icmp", name, want, l, r, False)


def m_c_icmp(pred: str | Predicate | None, l: Pattern, r: Pattern) -> Pattern:
    """``icmp`` with operands in either order; a swapped match binds (and is checked
    against) the swapped predicate, as LLVM ``m_c_ICmp``."""
    name, want = _pred_args(pred)
    return _Cmp("icmp", name, want, l, r, True)


def m_fcmp(pred: str | Predicate | None, l: Pattern, r: Pattern) -> Pattern:
    """``fcmp P L, R`` (``pred`` as in :func:`m_icmp`)."""
    name, want = _pred_args(pred)
    return _Cmp("fcmp", name, want, l, r, False)


class _Select(Pattern):
    __slots__ = ("c", "t", "f")

    def __init__(self, c: Pattern, t: Pattern, f: Pattern) -> None:
        self.c = c
        self.t = t
        self.f = f

    def m(self, v: Value, caps: Match) -> bool:
        if getattr(v, "opcode", None) != "select":
            return False
        ops = v._operands  # type: ignore[attr-defined]
        return self.c.m(ops[0].value, caps) and self.t.m(ops[1].value, caps) and self.f.m(ops[2].value, caps)

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.opcode_check(var, "select", fail)
        c, t, f = g.operands(var, 3)
        self.c.emit(g, c, fail)
        self.t.emit(g, t, fail)
        self.f.emit(g, f, fail)


def m_select(c: Pattern, t: Pattern, f: Pattern) -> Pattern:
    """``select C, T, F`` (LLVM ``m_Select``)."""
    return _Select(c, t, f)


def _is_null_constant(v: Value) -> bool:
    """``Constant::isNullValue``: zero in every lane (a poison lane is not zero)."""
    return isinstance(v, Constant) and v.is_null_value


def _is_one_constant(v: Value) -> bool:
    """``Constant::isOneValue`` on i1: true, or a splat of it without poison lanes."""
    if isinstance(v, ConstantInt):
        return v.value == 1
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        return isinstance(s, ConstantInt) and s.value == 1
    return False


_FALSE_I1 = _BindIf(None, _is_null_constant)
"""LLVM's logical-and select form requires a null constant (``isNullValue``)."""
_TRUE_I1 = _BindIf(None, _is_one_constant)
"""LLVM's logical-or select form requires a one constant (``isOneValue``)."""


class _Logical(Pattern):
    """``and/or i1 L, R`` or its select form (LLVM ``m_LogicalAnd``/``m_LogicalOr``)."""

    __slots__ = ("is_and", "l", "r", "commutable")

    def __init__(self, is_and: bool, l: Pattern, r: Pattern, commutable: bool) -> None:
        self.is_and = is_and
        self.l = l
        self.r = r
        self.commutable = commutable

    def m(self, v: Value, caps: Match) -> bool:
        op = getattr(v, "opcode", None)
        ops = getattr(v, "_operands", None)
        if ops is None or not v.type.scalar_type.is_integer or v.type.scalar_type.width != 1:  # type: ignore[attr-defined]
            return False
        if op == ("and" if self.is_and else "or"):
            a = ops[0].value
            b = ops[1].value
        elif op == "select":
            a = ops[0].value
            if a.type is not v.type:
                return False
            if self.is_and:
                if not _FALSE_I1.m(ops[2].value, caps):
                    return False
                b = ops[1].value
            else:
                if not _TRUE_I1.m(ops[1].value, caps):
                    return False
                b = ops[2].value
        else:
            return False
        if self.l.m(a, caps) and self.r.m(b, caps):
            return True
        return self.commutable and self.l.m(b, caps) and self.r.m(a, caps)


def m_logical_and(l: Pattern, r: Pattern) -> Pattern:
    """``and i1 L, R`` or ``select L, R, false`` (LLVM ``m_LogicalAnd``)."""
    return _Logical(True, l, r, False)


def m_logical_or(l: Pattern, r: Pattern) -> Pattern:
    """``or i1 L, R`` or ``select L, true, R`` (LLVM ``m_LogicalOr``)."""
    return _Logical(False, l, r, False)


def m_c_logical_and(l: Pattern, r: Pattern) -> Pattern:
    return _Logical(True, l, r, True)


def m_c_logical_or(l: Pattern, r: Pattern) -> Pattern:
    return _Logical(False, l, r, True)


class _Intrinsic(Pattern):
    __slots__ = ("base", "args")

    def __init__(self, base: str, args: tuple[Pattern, ...]) -> None:
        self.base = base
        self.args = args

    def m(self, v: Value, caps: Match) -> bool:
        if getattr(v, "opcode", None) != "call":
            return False
        base: str = v.intrinsic_base  # type: ignore[attr-defined]
        if base != self.base:
            return False
        ops = v._operands  # type: ignore[attr-defined]
        args = self.args
        if len(args) > v._num_args:  # type: ignore[attr-defined]
            return False
        for i in range(len(args)):
            if not args[i].m(ops[i].value, caps):
                return False
        return True


def m_intrinsic(name: str, *args: Pattern) -> Pattern:
    """A call of intrinsic ``name`` (``"llvm.umax"`` or ``"umax"``; any overload)
    whose first arguments match ``args`` (LLVM ``m_Intrinsic<ID>``)."""
    base = name if name.startswith("llvm.") else "llvm." + name
    return _Intrinsic(base, tuple(args))


class _OpcodeN(Pattern):
    """Any instruction or expression of ``opcode`` whose first operands match."""

    __slots__ = ("opcode", "ops")

    def __init__(self, opcode: str, ops: tuple[Pattern, ...]) -> None:
        self.opcode = opcode
        self.ops = ops

    def m(self, v: Value, caps: Match) -> bool:
        if getattr(v, "opcode", None) != self.opcode:
            return False
        uses = v._operands  # type: ignore[attr-defined]
        pats = self.ops
        if len(uses) < len(pats):
            return False
        for i in range(len(pats)):
            if not pats[i].m(uses[i].value, caps):
                return False
        return True

    def emit(self, g: _Gen, var: str, fail: str) -> None:
        g.opcode_check(var, self.opcode, fail)
        g.line("if len(%s._operands) < %d: %s" % (var, len(self.ops), fail))
        names = g.operands(var, len(self.ops))
        for pat, n in zip(self.ops, names):
            pat.emit(g, n, fail)


def m_load(p: Pattern) -> Pattern:
    """``load ptr P`` (LLVM ``m_Load``)."""
    return _OpcodeN("load", (p,))


def m_store(v: Pattern, p: Pattern) -> Pattern:
    """``store V, ptr P`` (LLVM ``m_Store``)."""
    return _OpcodeN("store", (v, p))


def m_extract_element(vec: Pattern, idx: Pattern) -> Pattern:
    return _OpcodeN("extractelement", (vec, idx))


def m_insert_element(vec: Pattern, elt: Pattern, idx: Pattern) -> Pattern:
    return _OpcodeN("insertelement", (vec, elt, idx))


def m_gep(*ops: Pattern) -> Pattern:
    """``getelementptr`` whose pointer and first indices match ``ops`` (any count)."""
    return _OpcodeN("getelementptr", tuple(ops))


def m_opcode(opcode: str, *ops: Pattern) -> Pattern:
    """Any instruction or constant expression with ``opcode`` whose first operands match ``ops``."""
    return _OpcodeN(opcode, tuple(ops))


_MAXMIN = {
    "smax": ("llvm.smax", frozenset((Predicate.ICMP_SGT, Predicate.ICMP_SGE))),
    "smin": ("llvm.smin", frozenset((Predicate.ICMP_SLT, Predicate.ICMP_SLE))),
    "umax": ("llvm.umax", frozenset((Predicate.ICMP_UGT, Predicate.ICMP_UGE))),
    "umin": ("llvm.umin", frozenset((Predicate.ICMP_ULT, Predicate.ICMP_ULE))),
}


class _MaxMin(Pattern):
    """The min/max intrinsic, or ``select (icmp P a, b), a, b`` (or the inverse
    predicate with the arms swapped) whose predicate means that min/max
    (LLVM ``MaxMin_match``)."""

    __slots__ = ("kinds", "l", "r", "commutable")

    def __init__(self, kinds: tuple[str, ...], l: Pattern, r: Pattern, commutable: bool) -> None:
        self.kinds = kinds
        self.l = l
        self.r = r
        self.commutable = commutable

    def _operands(self, a: Value, b: Value, caps: Match) -> bool:
        if self.l.m(a, caps) and self.r.m(b, caps):
            return True
        return self.commutable and self.l.m(b, caps) and self.r.m(a, caps)

    def m(self, v: Value, caps: Match) -> bool:
        op = getattr(v, "opcode", None)
        if op == "call":
            base = v.intrinsic_base  # type: ignore[attr-defined]
            for kind in self.kinds:
                if _MAXMIN[kind][0] == base:
                    ops = v._operands  # type: ignore[attr-defined]
                    return self._operands(ops[0].value, ops[1].value, caps)
            return False
        if op != "select":
            return False
        ops = v._operands  # type: ignore[attr-defined]
        cmp = ops[0].value
        if getattr(cmp, "opcode", None) != "icmp":
            return False
        t = ops[1].value
        f = ops[2].value
        cops = cmp._operands
        a = cops[0].value
        b = cops[1].value
        if (t is not a or f is not b) and (t is not b or f is not a):
            return False
        pred: Predicate = cmp._predicate if a is t else cmp._predicate.inverse
        for kind in self.kinds:
            if pred in _MAXMIN[kind][1]:
                return self._operands(a, b, caps)
        return False


def _maxmin(kinds: tuple[str, ...], commutable: bool, doc: str) -> Callable[[Pattern, Pattern], Pattern]:
    def make(l: Pattern, r: Pattern) -> Pattern:
        return _MaxMin(kinds, l, r, commutable)

    make.__doc__ = doc
    return make


m_smax = _maxmin(("smax",), False, "``llvm.smax(L, R)`` or its select idiom (LLVM ``m_SMax``).")
m_smin = _maxmin(("smin",), False, "``llvm.smin(L, R)`` or its select idiom (LLVM ``m_SMin``).")
m_umax = _maxmin(("umax",), False, "``llvm.umax(L, R)`` or its select idiom (LLVM ``m_UMax``).")
m_umin = _maxmin(("umin",), False, "``llvm.umin(L, R)`` or its select idiom (LLVM ``m_UMin``).")
m_c_smax = _maxmin(("smax",), True, "``m_smax`` with the operands in either order (LLVM ``m_c_SMax``).")
m_c_smin = _maxmin(("smin",), True, "``m_smin`` with the operands in either order.")
m_c_umax = _maxmin(("umax",), True, "``m_umax`` with the operands in either order.")
m_c_umin = _maxmin(("umin",), True, "``m_umin`` with the operands in either order.")
m_max_or_min = _maxmin(
    ("smax", "smin", "umax", "umin"), False, "Any of smax/smin/umax/umin, intrinsic or select idiom (LLVM ``m_MaxOrMin``)."
)
