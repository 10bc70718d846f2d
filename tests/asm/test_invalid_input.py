"""Bad input raises ``ParseError`` with LLVM's message, file, line and column.

Two sources of cases:

* LLVM's own negative assembler tests: every file under ``conformance/llvm/llvm/test/Assembler``
  whose RUN line expects failure (``not llvm-as`` / ``not opt``). We parse it (named ``<stdin>``
  when the RUN line feeds it on standard input, else by its path, as lit would), render the
  ``ParseError`` the way ``llvm-as`` prints a diagnostic, and run the RUN line's own checker on
  that text: ``FileCheck-19`` with the RUN line's arguments, or ``grep``'s pattern. Where LLVM 19
  itself words the error differently from the (newer) CHECK line (``opt19-expected.tsv`` marks the
  test FAIL for LLVM 19), the message llvm-as-19 prints is accepted as well. A second test checks
  the line and column against what llvm-as-19 reports for the same file.
* Hand-written inputs (``HAND_WRITTEN``) for LLVM's common messages: use of undefined value,
  expected type, redefinition of a global/type/comdat/argument/function, multiple definition of a
  local, ``'%x' defined with type 'i32' but expected 'i64'``, and more. Each row holds the message,
  line and column that llvm-as-19 prints for that text; ``test_hand_written_table_matches_llvm_as``
  re-derives them from llvm-as-19 so the table cannot drift from the oracle.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest
from oracles import require_llvm_tests
from corpus import CONFORMANCE_TESTS, FILECHECK, LLVM_AS, conformance_id, missing_tools, opt19_test_outcomes

from llvmpy_mid import ParseError, VerifierError, parse_assembly, parse_file

ASSEMBLER = CONFORMANCE_TESTS / "Assembler"
_LLVM_DIAG = re.compile(r"^llvm-as-19: (.*?):(\d+):(\d+): error: (.*)$", re.M)


# --- LLVM's negative assembler tests ------------------------------------------------------------


def run_lines(text: str) -> list[str]:
    """The file's ``RUN:`` commands, continuation lines (trailing ``\\``) joined."""
    runs: list[str] = []
    pending = ""
    for line in text.splitlines():
        m = re.search(r"RUN:(.*)$", line)
        if m is None:
            continue
        part = m.group(1).strip()
        if part.endswith("\\"):
            pending += part[:-1] + " "
            continue
        runs.append(pending + part)
        pending = ""
    return runs


def failing_run_line(text: str) -> str | None:
    for run in run_lines(text):
        if re.match(r"not\s+(llvm-as|opt)\b", run):
            return run
    return None


def reads_stdin(run: str) -> bool:
    """Whether the RUN line's first command reads the test file on standard input."""
    return re.search(r"<\s*%[st]", run.split("|", 1)[0]) is not None


_SPLIT_MARK = re.compile(r"^(?:;|#|//)--- (\S+)\s*$")


def split_parts(text: str, leading_lines: bool) -> dict[str, str]:
    """The parts ``split-file`` writes for ``text``: each ``;--- NAME`` line starts part NAME;
    with ``--leading-lines`` a part keeps its line numbers (blank lines before it)."""
    lines = text.splitlines(keepends=True)
    marks = [(i, m.group(1)) for i, line in enumerate(lines) if (m := _SPLIT_MARK.match(line))]
    parts: dict[str, str] = {}
    for n, (i, name) in enumerate(marks):
        end = marks[n + 1][0] if n + 1 < len(marks) else len(lines)
        parts[name] = ("\n" * (i + 1) if leading_lines else "") + "".join(lines[i + 1 : end])
    return parts


class Case:
    """One negative RUN line: the text it feeds the tool, how, and the checker to run."""

    __slots__ = ("path", "run", "text", "on_stdin", "part", "id")

    def __init__(self, path: Path, run: str, text: str, part: str | None) -> None:
        self.path = path
        self.run = run
        self.text = text
        self.on_stdin = reads_stdin(run)
        self.part = part
        self.id = conformance_id(path) + ("::" + part if part else "")

    def input_path(self, tmp: Path) -> Path:
        """Where the tool reads a file argument from: the test file, or its split part."""
        if self.part is None:
            return self.path
        out = tmp / self.part
        out.write_text(self.text)
        return out


def negative_cases(path: Path) -> list[Case]:
    """The file's negative RUN lines: the first one, or, for a ``split-file`` test, each RUN
    line that feeds one part to a failing tool."""
    text = path.read_text(errors="replace")
    runs = run_lines(text)
    split = next((r for r in runs if r.startswith("split-file")), None)
    if split is None:
        run = failing_run_line(text)
        return [Case(path, run, text, None)] if run is not None else []
    parts = split_parts(text, "--leading-lines" in split)
    cases: list[Case] = []
    for run in runs:
        m = re.match(r"not\s+(?:llvm-as|opt)\b.*?%t/(\S+)", run)
        if m and m.group(1) in parts:
            cases.append(Case(path, run, parts[m.group(1)], m.group(1)))
    return cases


INVALID_CASES = [c for p in sorted(ASSEMBLER.glob("*.ll")) for c in negative_cases(p)] if ASSEMBLER.is_dir() else []
INVALID_FILES = sorted({c.path for c in INVALID_CASES})
_KNOWN_GAPS_FILE = Path(__file__).with_name("invalid-input-known-gaps.txt")


def known_gaps() -> dict[str, str]:
    """``invalid-input-known-gaps.txt``: case id -> why we cannot match llvm-as-19 there."""
    gaps: dict[str, str] = {}
    for line in _KNOWN_GAPS_FILE.read_text().splitlines():
        case, _, reason = line.partition("#")
        if case.strip():
            gaps[case.strip()] = reason.strip()
    return gaps


def _case_params() -> list[object]:
    gaps = known_gaps()
    out: list[object] = []
    for case in INVALID_CASES:
        marks = [pytest.mark.xfail(strict=True, reason=gaps[case.id])] if case.id in gaps else []
        out.append(pytest.param(case, id=case.id, marks=marks))
    return out


def render(err: ParseError) -> str:
    """A diagnostic laid out as llvm-as prints it: location, message, the source line, a caret."""
    caret = " " * max(err.column - 1, 0) + "^"
    return "llvm-as: %s\n%s\n%s\n" % (err, err.source_line, caret)


def parse_like_run_line(case: Case, tmp: Path) -> tuple[ParseError | None, str]:
    """Parse the case's input as the RUN line feeds it; return the error (``None`` if it
    parsed) and the name the diagnostic should carry. A file the verifier rejects (not the
    parser) is a verifier test: skipped here, ``tests/verifier`` and the conformance runner
    cover it."""
    name = "<stdin>" if case.on_stdin else str(case.input_path(tmp))
    try:
        if case.on_stdin:
            parse_assembly(case.text, name=name)
        else:
            parse_file(case.input_path(tmp))
    except ParseError as err:
        return err, name
    except VerifierError:
        pytest.skip("rejected by the verifier, not the parser (tests/verifier covers it)")
    return None, name


def run_checker(run: str, path: Path, diagnostic: str) -> tuple[bool, str]:
    """Run the RUN line's checker stage on ``diagnostic``; (passed, explanation)."""
    if "|" not in run:
        return True, "no checker: the RUN line only asks the tool to fail"
    checker = run.rsplit("|", 1)[1].strip()
    argv = shlex.split(checker)
    if argv[0] == "grep":
        pattern = argv[-1]
        ok = re.search(pattern, diagnostic) is not None
        return ok, "grep %r" % pattern
    if argv[0] == "FileCheck":
        if missing_tools(FILECHECK):
            pytest.skip("FileCheck-19 is not installed")
        args = [FILECHECK] + [a.replace("%s", str(path)) for a in argv[1:]]
        proc = subprocess.run(args, input=diagnostic.encode(), capture_output=True, check=False)
        report = proc.stderr.decode(errors="replace").splitlines()
        return proc.returncode == 0, "\n".join(report[:12])
    pytest.skip("unsupported checker in RUN line: %s" % checker)
    raise AssertionError("unreachable")


def llvm_as_19_diagnostic(case: Case, tmp: Path) -> tuple[int, int, str]:
    if missing_tools(LLVM_AS):
        pytest.skip("llvm-as-19 is not installed")
    if case.on_stdin:
        proc = subprocess.run([LLVM_AS, "-o", "/dev/null"], input=case.text.encode(), capture_output=True, check=False)
    else:
        proc = subprocess.run([LLVM_AS, str(case.input_path(tmp)), "-o", "/dev/null"], capture_output=True, check=False)
    m = _LLVM_DIAG.search(proc.stderr.decode(errors="replace"))
    if m is None:
        pytest.skip("llvm-as-19 rejects it without a located parse diagnostic (a verifier failure)")
    return int(m.group(2)), int(m.group(3)), m.group(4)


@pytest.mark.parametrize("case", _case_params())
def test_invalid_conformance_file(case: Case, tmp_path: Path) -> None:
    err, _ = parse_like_run_line(case, tmp_path)
    assert err is not None, "%s parsed without error; its RUN line expects: %s" % (case.id, case.run)
    diagnostic = render(err)
    ok, explanation = run_checker(case.run, case.path, diagnostic)
    if ok:
        return
    if opt19_test_outcomes().get(conformance_id(case.path)) == "FAIL":
        # The CHECK line is from a newer LLVM; LLVM 19's own wording is accepted too.
        _, _, message = llvm_as_19_diagnostic(case, tmp_path)
        if err.message == message:
            return
    pytest.fail("our diagnostic:\n%s\ndoes not satisfy the RUN line's check (%s):\n%s" % (diagnostic, case.run, explanation))


@pytest.mark.parametrize("case", _case_params())
def test_invalid_conformance_location(case: Case, tmp_path: Path) -> None:
    err, name = parse_like_run_line(case, tmp_path)
    assert err is not None, "%s parsed without error" % case.id
    line, column, message = llvm_as_19_diagnostic(case, tmp_path)
    assert (err.filename, err.line, err.column) == (name, line, column), (
        "llvm-as-19 reports %d:%d: %s; we report %s" % (line, column, message, err)
    )


def test_known_gaps_are_cases() -> None:
    """Every row of the known-gaps list names a case that exists and gives a reason."""
    require_llvm_tests()
    ids = {c.id for c in INVALID_CASES}
    for case, reason in known_gaps().items():
        assert case in ids, "known gap %s is not a negative Assembler case" % case
        assert reason, "known gap %s has no reason" % case


def test_invalid_conformance_files_found() -> None:
    require_llvm_tests()
    assert len(INVALID_FILES) >= 7


# --- hand-written invalid inputs ----------------------------------------------------------------

HAND_WRITTEN: list[tuple[str, str, str, int, int]] = [
    # (id, text, message, line, column) -- message and location as llvm-as-19 reports them
    ("undefined-local-value", "define i32 @f(i32 %a) {\nentry:\n  %r = add i32 %a, %x\n  ret i32 %r\n}\n",
     "use of undefined value '%x'", 3, 20),
    ("undefined-global-value", "define i32 @f() {\n  %x = call i32 @g()\n  ret i32 %x\n}\n",
     "use of undefined value '@g'", 2, 17),
    ("undefined-numbered-value", "define void @f() {\n  %x = add i32 %4, 1\n  ret void\n}\n",
     "use of undefined value '%4'", 2, 16),
    ("undefined-block", "define void @f() {\n  br label %nowhere\n}\n",
     "use of undefined value '%nowhere'", 2, 12),
    ("undefined-value-in-phi", "define void @f() {\nentry:\n  br label %bb\nbb:\n  %x = phi i32 [ %y, %entry ]\n  ret void\n}\n",
     "use of undefined value '%y'", 5, 18),
    ("undefined-global-in-initializer", "@g = global ptr @f\n",
     "use of undefined value '@f'", 1, 17),
    ("expected-type", "define i32 @f(i32 %a) {\nentry:\n  %r = add foo %a, 1\n  ret i32 %r\n}\n",
     "expected type", 3, 12),
    ("expected-type-integer-too-wide", "@i2 = common global i8388609 0, align 4\n",
     "expected type", 1, 21),
    ("expected-type-in-parameter-list", "declare void @f(i32, bogus)\n",
     "expected type", 1, 22),
    ("undefined-type-named", "%T = type { i32, %U }\n",
     "use of undefined type named 'U'", 1, 18),
    ("redefinition-of-global", "@g = global i32 0\n@g = global i32 1\n",
     "redefinition of global '@g'", 2, 1),
    ("redefinition-of-global-by-declaration", "@g = global i32 0\n@g = external global i32\n",
     "redefinition of global '@g'", 2, 1),
    ("redefinition-of-type", "%T = type { i32 }\n%T = type { i64 }\n",
     "redefinition of type", 2, 1),
    ("redefinition-of-comdat", "$c = comdat any\n$c = comdat any\n",
     "redefinition of comdat '$c'", 2, 1),
    ("redefinition-of-argument", "define void @f(i32 %a, i32 %a) {\n  ret void\n}\n",
     "redefinition of argument '%a'", 1, 24),
    ("redefinition-of-function", "define void @f() {\n  ret void\n}\ndefine void @f() {\n  ret void\n}\n",
     "invalid redefinition of function 'f'", 4, 13),
    ("multiple-definition-of-local",
     "define i32 @f(i32 %a) {\nentry:\n  %r = add i32 %a, 1\n  %r = add i32 %a, 2\n  ret i32 %r\n}\n",
     "multiple definition of local value named 'r'", 4, 3),
    ("instruction-redefines-argument", "define void @f(i32 %a) {\n  %b = add i32 %a, 1\n  %a = add i32 %b, 1\n  ret void\n}\n",
     "multiple definition of local value named 'a'", 3, 3),
    ("numbered-value-redefined",
     "define i32 @f(i32 %a) {\nentry:\n  %0 = add i32 %a, 1\n  %0 = add i32 %a, 2\n  ret i32 %0\n}\n",
     "instruction expected to be numbered '%1' or greater", 4, 3),
    ("numbered-global-redefined", "@0 = global i32 0\n@0 = global i32 0\n",
     "global expected to be numbered '@1' or greater", 2, 1),
    ("defined-with-type-return", "define i64 @f(i32 %a) {\nentry:\n  %r = add i32 %a, 1\n  ret i64 %r\n}\n",
     "'%r' defined with type 'i32' but expected 'i64'", 4, 11),
    ("defined-with-type-operand", "define void @f() {\n  %x = add i32 1, 2\n  %y = add i64 %x, 2\n  ret void\n}\n",
     "'%x' defined with type 'i32' but expected 'i64'", 3, 16),
    ("defined-with-type-numbered",
     "define i32 @test1(i32 %a, i32 %b) {\nentry:\n  icmp eq i32 %b, %a\n  zext i1 %0 to i32\n  ret i32 %0\n}\n",
     "'%0' defined with type 'i1' but expected 'i32'", 5, 11),
    ("expected-instruction-opcode", "define void @f() {\n  %x = foo i32 1, 2\n  ret void\n}\n",
     "expected instruction opcode", 2, 8),
    ("expected-top-level-entity", "define void @f() {\n  ret void\n}\nfoo\n",
     "expected top-level entity", 4, 1),
    ("expected-comma-in-arithmetic", "define void @f() {\n  %x = add i32 1\n  ret void\n}\n",
     "expected ',' in arithmetic operation", 3, 3),
    ("integer-constant-for-float", "define void @f() {\n  %x = fadd float 1.0, 2\n  ret void\n}\n",
     "integer constant must have integer type", 2, 24),
    ("float-constant-for-integer", "define void @f() {\n  %x = add i32 1.5, 2\n  ret void\n}\n",
     "floating point constant invalid for type", 2, 16),
    ("integer-constant-for-pointer", "define ptr @foo() {\n  ret ptr 0\n}\n",
     "integer constant must have integer type", 2, 11),
    ("return-value-in-void-function", "define void @f() {\n  %x = add i32 1, 2\n  ret i32 %x\n}\n",
     "value doesn't match function result type 'void'", 3, 7),
    ("array-initializer-length", "@g = global [2 x i32] [i32 1]\n",
     "constant expression type mismatch: got type '[1 x i32]' but expected '[2 x i32]'", 1, 23),
    ("string-initializer-length", '@s = global [3 x i8] c"ab"\n',
     "constant expression type mismatch: got type '[2 x i8]' but expected '[3 x i8]'", 1, 22),
    ("alignment-not-power-of-two", "@g = global i32 0, align 3\n",
     "alignment is not a power of two", 1, 26),
    ("load-alignment-not-power-of-two", "define void @f() {\n  %x = load i32, ptr null, align 3\n  ret void\n}\n",
     "alignment is not a power of two", 2, 34),
    ("undefined-metadata-attachment", "define void @f() {\n  %x = add i32 1, 2, !foo !99\n  ret void\n}\n",
     "use of undefined metadata '!99'", 2, 28),
    ("undefined-metadata-operand", "!0 = !{!1}\n",
     "use of undefined metadata '!1'", 1, 9),
    ("bad-icmp-predicate", "define void @f() {\n  %x = icmp foo i32 1, 2\n  ret void\n}\n",
     "expected icmp predicate (e.g. 'eq')", 2, 13),
    ("expected-global-or-constant", "@g = global i32 0\n@g2 = globl i32 0\n",
     "expected 'global' or 'constant'", 2, 7),
    ("invalid-cast", "define void @f() {\n  %x = zext i32 1 to i8\n  ret void\n}\n",
     "invalid cast opcode for cast from 'i32' to 'i8'", 2, 13),
    ("gep-base-not-pointer", "define void @f() {\n  %x = getelementptr i32, i32 0, i32 1\n  ret void\n}\n",
     "base of getelementptr must be a pointer", 2, 27),
    ("end-of-file-in-function", "define void @f() {\n  ret void\n",
     "found end of file when expecting more instructions", 3, 1),
    ("source-filename-not-string", "source_filename = 12\n",
     "expected string constant", 1, 19),
    ("section-not-string", "@g = global i32 undef, section 1\n",
     "expected global section string", 1, 32),
    ("missing-metadata-value", '!llvm.module.flags = !{!0}\n!0 = !{i32 1, !"x", i32 }\n',
     "expected value token", 2, 25),
    ("unknown-specialized-metadata", "@g = global i32 0, !dbg !DIFoo()\n",
     "expected metadata type", 1, 25),
    ("unterminated-string", '@g = global i32 "abc\n',
     "expected value token", 1, 17),
    ("missing-close-paren-in-align", "define void @missing_rparen(ptr align(4 %ptr) {\n  ret void\n}\n",
     "expected ')'", 1, 38),
    ("subrange-count-below-minus-one", "!named = !{!0}\n!0 = !DISubrange(count: -5)\n",
     "value for 'count' too small, limit is -1", 2, 25),
    ("allocsize-same-parameter", "declare ptr @f(i32, i32) allocsize(0,0)\n",
     "'allocsize' indices can't refer to the same parameter", 1, 38),
]
_IDS = [row[0] for row in HAND_WRITTEN]


def _source_line(text: str, line: int) -> str:
    lines = text.split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else ""


@pytest.mark.parametrize(("case", "text", "message", "line", "column"), HAND_WRITTEN, ids=_IDS)
def test_hand_written_invalid_input(case: str, text: str, message: str, line: int, column: int) -> None:
    with pytest.raises(ParseError) as info:
        parse_assembly(text, name="bad.ll")
    err = info.value
    got = (err.filename, err.line, err.column, err.message)
    assert got == ("bad.ll", line, column, message), "expected bad.ll:%d:%d: error: %s\n     got %s:%d:%d: error: %s" % (
        (line, column, message) + got
    )
    assert err.source_line == _source_line(text, line)
    assert str(err) == "bad.ll:%d:%d: error: %s" % (line, column, message)


@pytest.mark.parametrize(
    "case",
    ["undefined-local-value", "expected-type", "redefinition-of-global", "defined-with-type-return"],
)
def test_parse_file_error_names_the_path(tmp_path: Path, case: str) -> None:
    _, text, message, line, column = HAND_WRITTEN[_IDS.index(case)]
    path = tmp_path / ("%s.ll" % case)
    path.write_text(text)
    with pytest.raises(ParseError) as info:
        parse_file(path)
    err = info.value
    got = (err.filename, err.line, err.column, err.message)
    assert got == (str(path), line, column, message), "got %s:%d:%d: error: %s" % got


def test_missing_file_is_a_parse_error(tmp_path: Path) -> None:
    with pytest.raises(ParseError):
        parse_file(tmp_path / "no-such-file.ll")


@pytest.mark.parametrize(("case", "text", "message", "line", "column"), HAND_WRITTEN, ids=_IDS)
def test_hand_written_table_matches_llvm_as(case: str, text: str, message: str, line: int, column: int) -> None:
    if missing_tools(LLVM_AS):
        pytest.skip("llvm-as-19 is not installed")
    proc = subprocess.run([LLVM_AS, "-", "-o", "/dev/null"], input=text.encode(), capture_output=True, check=False)
    assert proc.returncode != 0
    m = _LLVM_DIAG.search(proc.stderr.decode())
    assert m is not None, proc.stderr.decode()
    assert (m.group(4), int(m.group(2)), int(m.group(3))) == (message, line, column)
