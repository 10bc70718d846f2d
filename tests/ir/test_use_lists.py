"""Use-list invariants under random edit sequences (hypothesis).

A reference model keeps, for every value, the Python list of its uses in
LLVM's order (a new use goes to the front; RAUW moves the uses one by one from
the front of the old list to the front of the new one). After every step the
real linked lists must equal the model exactly, and every operand slot of every
live user must appear in its value's list once.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.value import Use, User, Value


class Model:
    def __init__(self) -> None:
        self.ctx = Context()
        self.values: list[Value] = []
        self.users: list[User] = []
        self.uses: dict[int, list[Use]] = {}

    def new_value(self) -> Value:
        v = Value(self.ctx.i32)
        self.values.append(v)
        self.uses[id(v)] = []
        return v

    def new_user(self, operands: list[Value]) -> User:
        u = User(self.ctx.i32, operands)
        for use in u.operand_uses:
            self.uses[id(use.value)].insert(0, use)
        self.values.append(u)
        self.users.append(u)
        self.uses[id(u)] = []
        return u

    def set_operand(self, user: User, index: int, value: Value) -> None:
        use = user.operand_uses[index]
        # LLVM's Use::set always relinks the use at the head, even for the same value.
        self.uses[id(use.value)].remove(use)
        user.set_operand(index, value)
        self.uses[id(value)].insert(0, use)

    def rauw(self, old: Value, new: Value) -> None:
        moving = self.uses[id(old)]
        while moving:
            use = moving.pop(0)
            self.uses[id(new)].insert(0, use)
        old.replace_all_uses_with(new)

    def drop(self, user: User) -> None:
        for use in user.operand_uses:
            self.uses[id(use.value)].remove(use)
        user.drop_all_references()

    def check(self) -> None:
        for v in self.values:
            real = v.use_list()
            expected = self.uses[id(v)]
            assert len(real) == len(expected)
            assert all(a is b for a, b in zip(real, expected))
            assert all(u.value is v for u in real)
            assert v.num_uses == len(expected)
            assert v.has_one_use == (len(expected) == 1)
        for user in self.users:
            for i, use in enumerate(user.operand_uses):
                assert use.index == i
                assert use.user is user
                assert sum(1 for u in use.value.uses if u is use) == 1


ops = st.lists(
    st.tuples(st.sampled_from(["value", "user", "set", "rauw", "drop"]), st.integers(0, 1000), st.integers(0, 1000), st.integers(0, 5)),
    min_size=1,
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(ops)
def test_random_edits_keep_use_lists_exact(steps: list[tuple[str, int, int, int]]) -> None:
    m = Model()
    for _ in range(3):
        m.new_value()
    for kind, a, b, n in steps:
        vals = m.values
        if kind == "value":
            m.new_value()
        elif kind == "user":
            m.new_user([vals[(a + i * b) % len(vals)] for i in range(n)])
        elif kind == "set" and m.users:
            user = m.users[a % len(m.users)]
            if user.num_operands:
                m.set_operand(user, b % user.num_operands, vals[(a + b) % len(vals)])
        elif kind == "rauw":
            old, new = vals[a % len(vals)], vals[b % len(vals)]
            if old is not new:
                m.rauw(old, new)
        elif kind == "drop" and m.users:
            m.drop(m.users[a % len(m.users)])
        m.check()


def test_new_use_goes_first() -> None:
    ctx = Context()
    v = Value(ctx.i32)
    u1 = User(ctx.i32, [v])
    u2 = User(ctx.i32, [v, v])
    assert [u.user for u in v.uses] == [u2, u2, u1]
    assert [u.index for u in v.uses] == [1, 0, 0]
    assert list(v.users) == [u2, u2, u1]


def test_rauw_reverses_into_new_list_front() -> None:
    ctx = Context()
    a, b = Value(ctx.i32), Value(ctx.i32)
    u1 = User(ctx.i32, [a])
    u2 = User(ctx.i32, [a])
    u3 = User(ctx.i32, [b])
    a.replace_all_uses_with(b)
    # a's list was [u2, u1]; u2 moves first, then u1 lands in front of it.
    assert list(b.users) == [u1, u2, u3]
    assert a.use_empty


def test_rauw_type_mismatch_and_self() -> None:
    import pytest

    from llvmpy_mid.errors import IRError

    ctx = Context()
    a, b = Value(ctx.i32), Value(ctx.i64)
    with pytest.raises(IRError, match="type mismatch"):
        a.replace_all_uses_with(b)
    with pytest.raises(IRError):
        a.replace_all_uses_with(a)


def test_replace_uses_with_if() -> None:
    ctx = Context()
    a, b = Value(ctx.i32), Value(ctx.i32)
    u1 = User(ctx.i32, [a, a])
    a.replace_uses_with_if(b, lambda use: use.index == 1)
    assert u1.operands == [a, b]
    assert list(a.users) == [u1] and list(b.users) == [u1]
