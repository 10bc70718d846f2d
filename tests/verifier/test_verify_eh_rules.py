"""Exception-handling rules (LLVM 19 ``visitLandingPadInst``, ``visitResumeInst``,
``visitCatchSwitchInst``, ``visitCatchPadInst``, ``visitCleanupPadInst``,
``visitFuncletPadInst``, ``visitCatchReturnInst``, ``visitCleanupReturnInst``,
``visitEHPadPredecessors``, ``verifySiblingFuncletUnwinds``).

Every case is text the parser accepts; our findings are checked against the
text opt-19 prints for it (kept here, so the tests run without opt) and, when
opt-19 is installed, against opt-19 itself. Valid counterparts (clang-19's
Itanium and MSVC C++ exception handling) must give no finding.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ir.verifier import module_diagnostics

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vhelpers  # noqa: E402

HEAD = """declare i32 @__CxxFrameHandler3(...)
declare i32 @__gxx_personality_v0(...)
declare void @g()
declare token @llvm.experimental.convergence.anchor()
"""


def invoking(fn: str, unwind: str, personality: str = "@__CxxFrameHandler3") -> str:
    """The head of ``define void @fn()`` with ``personality``: its entry invokes @g, normally
    to ``c: ret void``, unwinding to ``%unwind`` (which the caller's text goes on to define)."""
    return (
        "define void @%s() personality ptr %s {\nentry:\n  invoke void @g() to label %%c unwind label %%%s\n"
        "c:\n  ret void\n" % (fn, personality, unwind)
    )


def check(body: str, expected: str) -> None:
    vhelpers.check(HEAD + body, expected)


# (name, IR after HEAD, opt-19's diagnostics)
CASES = [
    (
        'landingpad_needs_clause',
        '\n' + invoking("f", "l", "@__gxx_personality_v0") + '''l:
  %x = landingpad { ptr, i32 }
  ret void
}
''',
        'LandingPadInst needs at least one clause or to be a cleanup.\n  %x = landingpad { ptr, i32 }\n',
    ),
    (
        'landingpad_needs_personality',
        '''
define void @f() {
entry:
  invoke void @g() to label %c unwind label %l
c:
  ret void
l:
  %x = landingpad { ptr, i32 } cleanup
  ret void
}
''',
        'LandingPadInst needs to be in a function with a personality.\n  %x = landingpad { ptr, i32 }\n          cleanup\n',
    ),
    (
        'landingpad_type_consistent',
        '''
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %c unwind label %l
c:
  invoke void @g() to label %d unwind label %l2
d:
  ret void
l:
  %x = landingpad { ptr, i32 } cleanup
  ret void
l2:
  %y = landingpad { ptr, i64 } cleanup
  ret void
}
''',
        'The landingpad instruction should have a consistent result type inside a function.\n  %y = landingpad { ptr, i64 }\n          cleanup\n',
    ),
    (
        'landingpad_first_non_phi',
        '\n' + invoking("f", "l", "@__gxx_personality_v0") + '''l:
  %p = phi i32 [ 0, %entry ]
  call void @g()
  %x = landingpad { ptr, i32 } cleanup
  ret void
}
''',
        'The unwind destination does not have an exception handling instruction!\n  invoke void @g()\n          to label %c unwind label %l\nLandingPadInst not the first non-PHI instruction in the block.\n  %x = landingpad { ptr, i32 }\n          cleanup\n',
    ),
    (
        'landingpad_clauses',
        '''
@ti = external global ptr
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %c unwind label %l
c:
  invoke void @g() to label %d unwind label %l2
d:
  ret void
l:
  %x = landingpad { ptr, i32 } catch ptr @ti catch i32 0
  ret void
l2:
  %y = landingpad { ptr, i32 } filter [1 x ptr] [ptr @ti] filter [2 x i32] [i32 1, i32 2]
  ret void
}
''',
        'Catch operand does not have pointer type!\n  %x = landingpad { ptr, i32 }\n          catch ptr @ti\n          catch i32 0\nFilter operand is not an array of constants!\n  %y = landingpad { ptr, i32 }\n          filter [1 x ptr] [ptr @ti]\n          filter [2 x i32] [i32 1, i32 2]\n',
    ),
    (
        'landingpad_predecessors',
        '''
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  br label %l
l:
  %x = landingpad { ptr, i32 } cleanup
  ret void
}
define void @h() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %l unwind label %l
l:
  %x = landingpad { ptr, i32 } cleanup
  ret void
}
''',
        'Block containing LandingPadInst must be jumped to only by the unwind edge of an invoke.\n  %x = landingpad { ptr, i32 }\n          cleanup\nBlock containing LandingPadInst must be jumped to only by the unwind edge of an invoke.\n  %x = landingpad { ptr, i32 }\n          cleanup\n',
    ),
    (
        'eh_pad_in_entry',
        '''
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  %x = landingpad { ptr, i32 } cleanup
  ret void
}
''',
        'EH pad cannot be in entry block.\n  %x = landingpad { ptr, i32 }\n          cleanup\n',
    ),
    (
        'resume_rules',
        '''
define void @f() {
entry:
  resume { ptr, i32 } undef
}
define void @h() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %c unwind label %l
c:
  resume { ptr, i64 } undef
l:
  %x = landingpad { ptr, i32 } cleanup
  ret void
}
define void @k() personality ptr @__gxx_personality_v0 {
entry:
  br i1 true, label %a, label %b
a:
  resume { ptr, i64 } undef
b:
  resume { ptr, i32 } undef
}
''',
        'ResumeInst needs to be in a function with a personality.\n  resume { ptr, i32 } undef\nThe landingpad instruction should have a consistent result type inside a function.\n  %x = landingpad { ptr, i32 }\n          cleanup\nThe resume instruction should have a consistent result type inside a function.\n  resume { ptr, i32 } undef\n',
    ),
    (
        'catchpad_rules',
        '\n' + invoking("f", "d") + '''d:
  %cs = catchswitch within none [label %h] unwind to caller
h:
  call void @g()
  %k = catchpad within %cs []
  catchret from %k to label %c
}
define void @h() {
entry:
  invoke void @g() to label %c unwind label %d
c:
  ret void
d:
  %cs = catchswitch within none [label %h] unwind to caller
h:
  %k = catchpad within %cs []
  catchret from %k to label %c
}
''',
        'CatchSwitchInst handlers must be catchpads\n  %cs = catchswitch within none [label %h] unwind to caller\nlabel %h\nCatchPadInst not the first non-PHI instruction in the block.\n  %k = catchpad within %cs []\nCatchSwitchInst needs to be in a function with a personality.\n  %cs = catchswitch within none [label %h] unwind to caller\nCatchPadInst needs to be in a function with a personality.\n  %k = catchpad within %cs []\n',
    ),
    (
        'catchpad_in_cleanup',
        '\n' + invoking("f", "cl") + '''cl:
  %cp = cleanuppad within none []
  br label %h
h:
  %k = catchpad within %cp []
  ret void
}
''',
        'Bogus funclet pad use\n  %k = catchpad within %cp []\nCatchPadInst needs to be directly nested in a CatchSwitchInst.\n  %cp = cleanuppad within none []\n',
    ),
    (
        'catchswitch_rules',
        '\n' + invoking("f", "d") + '''d:
  %cs = catchswitch within none [label %h] unwind label %lp
h:
  %k = catchpad within %cs []
  catchret from %k to label %c
lp:
  %l = landingpad { ptr, i32 } cleanup
  ret void
}
''' + invoking("h", "d") + '''d:
  %cs = catchswitch within none [label %c] unwind to caller
}
''' + invoking("k", "d") + '''d:
  %cs = catchswitch within none [label %h] unwind to caller
h:
  %k = catchpad within %cs []
  catchret from %k to label %c
e:
  %cs2 = catchswitch within %cs [label %h2] unwind to caller
h2:
  %k2 = catchpad within %cs2 []
  catchret from %k2 to label %c
}
''',
        'CatchSwitchInst must unwind to an EH block which is not a landingpad.\n  %cs = catchswitch within none [label %h] unwind label %lp\nBlock containing LandingPadInst must be jumped to only by the unwind edge of an invoke.\n  %l = landingpad { ptr, i32 }\n          cleanup\nCatchSwitchInst handlers must be catchpads\n  %cs = catchswitch within none [label %c] unwind to caller\nlabel %c\nCatchSwitchInst has an invalid parent.\n  %cs = catchswitch within none [label %h] unwind to caller\n',
    ),
    (
        'cleanuppad_rules',
        '''
define void @f() {
entry:
  invoke void @g() to label %c unwind label %d
c:
  ret void
d:
  %cp = cleanuppad within none []
  cleanupret from %cp unwind to caller
}
''' + invoking("h", "d") + '''d:
  %cs = catchswitch within none [label %hh] unwind to caller
hh:
  %k = catchpad within %cs []
  catchret from %k to label %c
e:
  %cp = cleanuppad within %cs []
  cleanupret from %cp unwind to caller
}
''',
        'CleanupPadInst needs to be in a function with a personality.\n  %cp = cleanuppad within none []\nCleanupPadInst has an invalid parent.\n  %cp = cleanuppad within %cs []\n',
    ),
    (
        'funclet_returns',
        '\n' + invoking("f", "d") + '''d:
  %cp = cleanuppad within none []
  catchret from %cp to label %c
}
''' + invoking("h", "d") + '''d:
  %cs = catchswitch within none [label %hh] unwind to caller
hh:
  %k = catchpad within %cs []
  cleanupret from %k unwind to caller
}
''' + invoking("k", "d") + '''d:
  %cp = cleanuppad within none []
  cleanupret from %cp unwind label %lp
lp:
  %l = landingpad { ptr, i32 } cleanup
  ret void
}
''',
        'CatchReturnInst needs to be provided a CatchPad\n  catchret from %cp to label %c\n  %cp = cleanuppad within none []\nCleanupReturnInst needs to be provided a CleanupPad\n  cleanupret from %k unwind to caller\n  %k = catchpad within %cs []\nCleanupReturnInst must unwind to an EH block which is not a landingpad.\n  cleanupret from %cp unwind label %lp\nBlock containing LandingPadInst must be jumped to only by the unwind edge of an invoke.\n  %l = landingpad { ptr, i32 }\n          cleanup\n',
    ),
    (
        'unwind_edges',
        '''
define void @f() personality ptr @__CxxFrameHandler3 {
entry:
  br label %d
d:
  %cp = cleanuppad within none []
  cleanupret from %cp unwind to caller
}
''' + invoking("h", "d") + '''d:
  %cp = cleanuppad within none []
  invoke void @g() [ "funclet"(token %cp) ] to label %e unwind label %d
e:
  cleanupret from %cp unwind to caller
}
''' + invoking("k", "d") + '''d:
  %cp = cleanuppad within none []
  cleanupret from %cp unwind label %child
child:
  %cp2 = cleanuppad within %cp []
  cleanupret from %cp2 unwind to caller
}
''' + invoking("m", "d") + '''d:
  %cp = cleanuppad within none []
  cleanupret from %cp unwind to caller
e:
  %cp2 = cleanuppad within %cp []
  cleanupret from %cp2 unwind to caller
f:
  invoke void @g() to label %c unwind label %e
}
''',
        'EH pad must be jumped to via an unwind edge\n  %cp = cleanuppad within none []\n  br label %d\nEH pad cannot handle exceptions raised within it\n  %cp = cleanuppad within none []\n  invoke void @g() [ "funclet"(token %cp) ]\n          to label %e unwind label %d\nUnwind edges out of a funclet pad must have the same unwind dest\n  %cp = cleanuppad within none []\n  invoke void @g() [ "funclet"(token %cp) ]\n          to label %e unwind label %d\n  cleanupret from %cp unwind to caller\nA cleanupret must exit its cleanup\n  cleanupret from %cp unwind label %child\nA single unwind edge may only enter one EH pad\n  invoke void @g()\n          to label %c unwind label %e\n',
    ),
    (
        'sibling_cycles',
        '''
define void @f() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @g() to label %c unwind label %a
c:
  invoke void @g() to label %c2 unwind label %b
c2:
  ret void
a:
  %pa = cleanuppad within none []
  cleanupret from %pa unwind label %b
b:
  %pb = cleanuppad within none []
  cleanupret from %pb unwind label %a
}
''' + invoking("h", "a") + '''a:
  %cs1 = catchswitch within none [label %h1] unwind label %b
h1:
  %k1 = catchpad within %cs1 []
  catchret from %k1 to label %c
b:
  %cs2 = catchswitch within none [label %h2] unwind label %a
h2:
  %k2 = catchpad within %cs2 []
  catchret from %k2 to label %c
}
''',
        "EH pads can't handle each other's exceptions\n  %pa = cleanuppad within none []\n  cleanupret from %pa unwind label %b\n  %pb = cleanuppad within none []\n  cleanupret from %pb unwind label %a\nEH pads can't handle each other's exceptions\n  %cs1 = catchswitch within none [label %h1] unwind label %b\n  %cs2 = catchswitch within none [label %h2] unwind label %a\n",
    ),
    (
        'catch_unwind_dests',
        '\n' + invoking("f", "a") + '''a:
  %cs = catchswitch within none [label %h] unwind to caller
h:
  %k = catchpad within %cs []
  invoke void @g() [ "funclet"(token %k) ] to label %r unwind label %cl
r:
  catchret from %k to label %c
cl:
  %cp = cleanuppad within none []
  cleanupret from %cp unwind to caller
}
''' + invoking("h", "a") + '''a:
  %cs = catchswitch within none [label %h] unwind label %h
h:
  %k = catchpad within %cs []
  catchret from %k to label %c
}
define void @k() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @g() to label %c unwind label %a
c:
  br label %h
a:
  %cs = catchswitch within none [label %h] unwind to caller
h:
  %k = catchpad within %cs []
  catchret from %k to label %c
}
''',
        'Unwind edges out of a catch must have the same unwind dest as the parent catchswitch\n  %k = catchpad within %cs []\n  invoke void @g() [ "funclet"(token %k) ]\n          to label %r unwind label %cl\n  %cs = catchswitch within none [label %h] unwind to caller\nCatchswitch cannot unwind to one of its catchpads\n  %cs = catchswitch within none [label %h] unwind label %h\n  %k = catchpad within %cs []\nBlock containg CatchPadInst must be jumped to only by its catchswitch.\n  %k = catchpad within %cs []\nInstruction does not dominate all uses!\n  %cs = catchswitch within none [label %h] unwind to caller\n  %k = catchpad within %cs []\n',
    ),
    (
        'nested_within_itself',
        '\n' + invoking("f", "a") + '''a:
  %cp = cleanuppad within %cp []
  cleanupret from %cp unwind to caller
}
''',
        'A single unwind edge may only enter one EH pad\n  invoke void @g()\n          to label %c unwind label %a\nFuncletPadInst must not be nested within itself\n  %cp = cleanuppad within %cp []\n',
    ),
    (
        'parent_pad_chain',
        '''
define void @f() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @g() to label %c unwind label %e
c:
  %t = call token @llvm.experimental.convergence.anchor()
  cleanupret from %t unwind label %e
e:
  %cp = cleanuppad within none []
  cleanupret from %cp unwind to caller
}

define void @h() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @g() to label %x unwind label %pa
x:
  ret void
pa:
  %a = cleanuppad within %b []
  invoke void @g() [ "funclet"(token %a) ] to label %x unwind label %cc
pb:
  %b = cleanuppad within %a []
  unreachable
cc:
  %c = cleanuppad within none []
  cleanupret from %c unwind to caller
}
''',
        'CleanupReturnInst needs to be provided a CleanupPad\n  cleanupret from %t unwind label %e\n'
        '  %t = call token @llvm.experimental.convergence.anchor()\n'
        'Parent pad must be catchpad/cleanuppad/catchswitch\n  cleanupret from %t unwind label %e\n'
        'A single unwind edge may only enter one EH pad\n  invoke void @g()\n          to label %x unwind label %pa\n'
        'FuncletPadInst must not be nested within itself\n  %a = cleanuppad within %b []\n'
        'EH pad jumps through a cycle of pads\n  %a = cleanuppad within %b []\n',
    ),
]


@pytest.mark.parametrize("name, body, expected", CASES, ids=[c[0] for c in CASES])
def test_eh_rule(name: str, body: str, expected: str) -> None:
    check(body, expected)


def test_findings_are_located() -> None:
    text = HEAD + dict((c[0], c[1]) for c in CASES)["sibling_cycles"]
    found = module_diagnostics(llvmpy_mid.parse_assembly(text, verify=False))
    # The cycle is reported after the function's last instruction was visited.
    assert [(d.function, d.block) for d in found] == [("@f", "%b"), ("@h", "%h2")]
    assert found[0].instruction == "cleanupret from %pb unwind label %a"


def test_sibling_cycle_after_the_last_instructions_own_findings() -> None:
    # LLVM visits the function's last instruction, then checks sibling unwinds.
    check(
        """
define i32 @f(i1 %c) personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @g() to label %x unwind label %a
x:
  invoke void @g() to label %x2 unwind label %b
x2:
  br i1 %c, label %y, label %z
y:
  %v = add i32 0, 1
  br label %z
a:
  %pa = cleanuppad within none []
  cleanupret from %pa unwind label %b
b:
  %pb = cleanuppad within none []
  cleanupret from %pb unwind label %a
z:
  ret i32 %v
}
""",
        "Instruction does not dominate all uses!\n  %v = add i32 0, 1\n  ret i32 %v\n"
        "EH pads can't handle each other's exceptions\n  %pa = cleanuppad within none []\n"
        "  cleanupret from %pa unwind label %b\n  %pb = cleanuppad within none []\n"
        "  cleanupret from %pb unwind label %a\n",
    )


CXX = """struct S { S(); ~S(); };
void may_throw(int);
int f(int x) {
  S s;
  try { S t; may_throw(x); try { may_throw(x + 1); } catch (int e) { may_throw(e); throw; } }
  catch (int i) { S u; may_throw(i); return i; }
  catch (...) { try { may_throw(2); } catch (...) { return 3; } return 1; }
  return 0;
}
"""


@pytest.mark.parametrize("target", ["x86_64-linux-gnu", "x86_64-pc-windows-msvc"])
@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_clang_exception_handling_is_valid(tmp_path: Path, target: str, level: str) -> None:
    clang = shutil.which("clang-19")
    if clang is None:
        pytest.skip("clang-19 not installed")
    src = tmp_path / "x.cpp"
    src.write_text(CXX)
    out = tmp_path / "x.ll"
    subprocess.run(
        [clang, "--target=" + target, "-fcxx-exceptions", "-fexceptions", "-S", "-emit-llvm", level, str(src), "-o", str(out)],
        check=True,
        capture_output=True,
    )
    m = llvmpy_mid.parse_file(out, verify=False)
    assert module_diagnostics(m) == []


VALID_FUNCLETS = """
define void @f() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @g() to label %c unwind label %cs.bb
c:
  ret void
cs.bb:
  %cs = catchswitch within none [label %h1, label %h2] unwind label %outer
h1:
  %k1 = catchpad within %cs [ptr null, i32 64, ptr null]
  invoke void @g() [ "funclet"(token %k1) ] to label %r1 unwind label %inner
r1:
  catchret from %k1 to label %c
inner:
  %in = cleanuppad within %k1 []
  call void @g() [ "funclet"(token %in) ]
  cleanupret from %in unwind label %outer
h2:
  %k2 = catchpad within %cs []
  catchret from %k2 to label %c
outer:
  %o = cleanuppad within none []
  cleanupret from %o unwind to caller
}
"""


def test_valid_funclets_have_no_findings() -> None:
    check(VALID_FUNCLETS, "")


def test_broken_eh_never_crashes() -> None:
    """Re-pointing every block or token operand of the EH code at every other
    block or token gives findings or none, never an exception."""
    base = HEAD + VALID_FUNCLETS
    m0 = llvmpy_mid.parse_assembly(base, verify=False)
    f0 = m0.get_function("f")
    assert f0 is not None
    positions = []
    for bi, bb in enumerate(f0.blocks):
        for ii, inst in enumerate(bb.instructions):
            for oi in range(inst.num_operands):
                op = inst.get_operand(oi)
                if op.is_basic_block or op.type.is_token:
                    positions.append((bi, ii, oi, op.is_basic_block))
    count = 0
    for bi, ii, oi, is_block in positions:
        m = llvmpy_mid.parse_assembly(base, verify=False)
        f = m.get_function("f")
        assert f is not None
        blocks = list(f.blocks)
        inst = list(blocks[bi].instructions)[ii]
        candidates: list[Value]
        if is_block:
            candidates = list(blocks)
        else:
            candidates = [i for b in blocks for i in b.instructions if i.type.is_token]
        for cand in candidates:
            inst.set_operand(oi, cand)
            module_diagnostics(m)
            count += 1
    assert count > 50
