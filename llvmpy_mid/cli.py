"""``llvmpy-opt``: the command line, behaving like ``opt-19`` for what llvmpy_mid supports.

What: :func:`main` reads a textual module (a file, or ``-``/stdin), verifies it,
runs the ``-passes=`` pipeline (or legacy ``-passname`` flags), verifies the
result and writes it as ``opt -S`` does.  Options: ``-o``, ``-S``,
``-passes=``/``-p``, ``-disable-output``, ``-print-passes``,
``-debug-pass-manager``, ``-verify-each``, ``-disable-verify``,
``-print-before-all``, ``-print-after-all``, ``-print-changed``, ``-time-passes``,
``-O0``..``-O3``/``-Os``/``-Oz``, ``-opt-bisect-limit=``, ``-allow-partial-pipeline``,
``--version``, ``--help``.  Messages copy opt-19's wording with ``llvmpy-opt`` as the tool name;
every error exits 1 (an unexpected exception: "internal error", exit 2), never
with a traceback.  Optional passes are skipped on ``optnone`` functions and past
``-opt-bisect-limit`` as opt-19 skips them (``passes/pass_gates.py``).

How: options are read by hand (opt's one-dash long options do not suit
argparse).  The pipeline is the user's one, then ``VerifierPass`` (unless
``-disable-verify``) and ``PrintModulePass`` into a buffer (with ``-S``), run
under one :class:`~llvmpy_mid.passes.instrumentation.PassInstrumentation` so
``-debug-pass-manager`` logs what opt logs.  The output is opened before the pipeline is
built, as opt opens it (so a missing directory is reported first, with the system's words),
and written only after the run succeeded: a regular file through a hidden temporary file
in its directory renamed over it (so an error never touches an existing file; the new file
gets the old one's mode, or ``0666 & ~umask``; a symlink is written through, the link
stays), a file with several hard links in place; devices, FIFOs and ``-`` directly.
SIGTERM/SIGINT remove the temporary file.

``-stats``, ``-verify-analysis-invalidation``, ``-print-pipeline-passes``, the optimisation
remark options (``-pass-remarks``, ``-pass-remarks-missed``, ``-pass-remarks-analysis``,
``-pass-remarks-output``, ``-pass-remarks-filter``, ``-pass-remarks-format=yaml``) and
the options passes declare (``passes/options.py``) are read too.

What it does not do: bitcode in or out (a clear error instead).  A legacy flag opt-19 knows
(``-mem2reg``) gets opt-19's "use -passes=" message; ``-passname`` flags are still accepted
for the other registered passes (opt-19 knows none of them): consecutive function passes
share one ``function(...)`` adaptor.
"""

from __future__ import annotations

import errno
import io
import contextlib
import os
import signal
import stat
import sys
import warnings
from typing import TYPE_CHECKING, Any, Callable, Iterator, NoReturn, Sequence, TextIO

from llvmpy_mid.errors import FatalError, LLVMPyError, ParseError, PipelineError, VerifierError

if TYPE_CHECKING:
    from llvmpy_mid.passes.options import PassOption

TOOL = "llvmpy-opt"
_BITCODE_MAGICS = (b"BC\xc0\xde", b"\xde\xc0\x17\x0b")

_FLAGS = (
    "S",
    "disable-output",
    "print-passes",
    "debug-pass-manager",
    "verify-each",
    "verify-dom-info",
    "verify-loop-info",
    "print-before-all",
    "print-after-all",
    "print-changed",
    "time-passes",
    "disable-verify",
    "stats",
    "strip-debug",
    "verify-analysis-invalidation",
    "print-pipeline-passes",
    "allow-partial-pipeline",
    "version",
    "help",
)
_VALUED = ("o", "passes", "p", "opt-bisect-limit", "mtriple", "mcpu", "mattr", "data-layout", "output-dir")
#: The optimisation-remark options (opt's ``-pass-remarks*``), each taking a value.
_REMARK_OPTIONS = (
    "pass-remarks",
    "pass-remarks-missed",
    "pass-remarks-analysis",
    "pass-remarks-output",
    "pass-remarks-filter",
    "pass-remarks-format",
)
#: Those whose value is a regular expression over pass names, checked when read (as opt's
#: option parser does, with its "LLVM ERROR").
_REMARK_PATTERNS = ("pass-remarks", "pass-remarks-missed", "pass-remarks-analysis")
_OPT_LEVELS = ("O0", "O1", "O2", "O3", "Os", "Oz")

#: opt-19's answer to a legacy pass flag (``opt -mem2reg``), written as it writes it.
LEGACY_SYNTAX_MESSAGE = (
    "The `opt -passname` syntax for the new pass manager is not supported, please use "
    "`opt -passes=<pipeline>` (or the `-p` alias for a more concise version).\n"
    "See https://llvm.org/docs/NewPassManager.html#invoking-opt for more details on the pass "
    "pipeline syntax.\n\n"
)

HELP = """OVERVIEW: llvmpy_mid modular optimizer (an opt-19 work-alike for textual LLVM IR)

USAGE: llvmpy-opt [options] <input .ll file, '-' or nothing for stdin>

OPTIONS:
  -S                    Write output as LLVM assembly (the only output format)
  -o <filename>         Output file ('-' = stdout, the default)
  -passes=<pipeline>    A textual pipeline, as opt's -passes= (alias: -p)
  -O0 -O1 -O2 -O3 -Os -Oz
                        The LLVM 19 default<On> pipeline (as -passes='default<On>'); refused
                        while it holds passes llvmpy_mid lacks (the error names them)
  -allow-partial-pipeline
                        Run default<On> with only the passes llvmpy_mid has (llvmpy_mid's own)
  -mtriple=<triple>     Override the module's target triple (and the layout inferred from it)
  -mcpu=<cpu>           "target-cpu" for every function without one (with a target triple)
  -mattr=<a1,+a2,-a3>   Target features appended to every function's "target-features"
  -data-layout=<layout> Override the module's data layout string (above the module's and the
                        triple's)
  -opt-bisect-limit=<N> Run only the first N optional passes, logging each (-1: all)
  -<pass-name>          Legacy spelling: append a registered pass to the pipeline (a legacy
                        flag opt-19 knows, such as -mem2reg, gets opt-19's "use -passes=")
  -disable-output       Do not write the result
  -output-dir=<dir>     Several inputs in one call (llvmpy_mid's own option, opt takes one):
                        each is run on its own and written to <dir>/<its file name>; with
                        -disable-output, several inputs need no -output-dir
  -disable-verify       Do not verify the input or the result
  -verify-each          Verify the module after every pass
  -verify-loop-info     Check every cached LoopInfo against a fresh one after each pass
  -verify-dom-info      Check a dominator tree a pass preserved against a fresh one (also
                        with -verify-each; opt-19's release build accepts it and checks nothing)
  -debug-pass-manager   Log the passes and analyses run (to stderr)
  -print-before-all     Print the IR before each pass (to stderr)
  -print-after-all      Print the IR after each pass (to stderr)
  -print-changed        Print the IR after each pass that changed it (to stderr)
  -time-passes          Time each pass and analysis; report to stderr
  -stats                Print the passes' statistics (to stderr)
  -strip-debug          Strip debug info from the module before the passes run
  -verify-analysis-invalidation
                        Fail when a pass changed the IR yet claimed to keep analyses
  -print-pipeline-passes
                        Print the pipeline as it will run, and stop
  -pass-remarks=<regex> Print the remarks of passes whose name matches (also -pass-remarks-missed,
                        -pass-remarks-analysis), as "remark: file:line:col: message" on stderr
  -pass-remarks-output=<file>
                        Write every remark to <file> as YAML (-pass-remarks-filter=<regex> keeps
                        the matching passes' only; -pass-remarks-format=yaml, the only format)
  -<pass-option>[=v]    An option declared by a pass (e.g. -mergefunc-use-aliases)
  -print-passes         List the registered pass and analysis names (what exists here)
  --version             Print the version
  --help                Print this help
"""


#: Called just before ``llvmpy-opt`` aborts as opt-19 does on a crash-diagnostic fatal error
#: (the conformance runner's fork server uses it to tell its client to abort in turn).
BEFORE_ABORT: Callable[[], None] | None = None


class _Exit(Exception):
    """Stop with ``code`` (the message has been written already)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class Options:
    """The parsed command line."""

    __slots__ = (
        "input",
        "inputs",
        "output",
        "output_dir",
        "text_output",
        "passes",
        "legacy",
        "llvm_legacy",
        "opt_levels",
        "bisect_limit",
        "triple",
        "cpu",
        "features",
        "data_layout",
        "flags",
        "pass_options",
        "remarks",
    )

    def __init__(self) -> None:
        self.input = "-"
        self.inputs: list[str] = []
        """Every positional input (more than one only with ``-output-dir`` or ``-disable-output``)."""
        self.output: str | None = None
        """``-o`` (None: not given, standard output)."""
        self.output_dir: str | None = None
        """``-output-dir``: where each of several inputs' result goes, under its file name."""
        self.text_output = False
        self.passes: str | None = None
        self.legacy: list[str] = []
        self.llvm_legacy: list[str] = []
        """Legacy pass flags opt-19 itself knows (``-mem2reg``): opt-19 refuses them."""
        self.opt_levels: set[str] = set()
        self.triple: str | None = None
        """``-mtriple``: the target triple that replaces the module's (normalised as LLVM's
        ``Triple::normalize`` does for the common forms)."""
        self.cpu = ""
        """``-mcpu``: put as ``"target-cpu"`` on the functions that have none (LLVM
        ``codegen::setFunctionAttributes``)."""
        self.features: list[str] = []
        """``-mattr``: target features, each ``+name``/``-name`` (lowercased, as LLVM's
        ``SubtargetFeatures::AddFeature``)."""
        self.data_layout = ""
        """``-data-layout``: the layout string that replaces the module's (empty: none given)."""
        self.bisect_limit: int | None = None
        self.flags: set[str] = set()
        self.pass_options: dict[str, str | None] = {}
        """Pass options given (``-mergefunc-use-aliases`` -> None, ``-x=3`` -> "3")."""
        self.remarks: dict[str, str] = {}
        """The ``-pass-remarks*`` options given (name -> value)."""


def _subtarget_feature(text: str) -> str:
    """One ``-mattr`` entry as LLVM's ``SubtargetFeatures::AddFeature`` keeps it: lowercased,
    ``+`` unless it already says ``+`` or ``-``."""
    low = text.lower()
    return low if low[:1] in ("+", "-") else "+" + low


def set_function_attributes(module: Any, cpu: str, features: str) -> None:
    """LLVM ``codegen::setFunctionAttributes`` for ``-mcpu``/``-mattr``: every function without a
    ``"target-cpu"`` gets ``cpu``; ``features`` is appended to its ``"target-features"``."""
    from llvmpy_mid.ir.attributes import Attribute

    for fn in module.functions:
        attrs = fn.attributes
        if cpu and not attrs.has_fn_attr("target-cpu"):
            attrs = attrs.with_fn_attr(Attribute.string("target-cpu", cpu))
        if features:
            old = attrs.fn_attrs.string_value("target-features")
            value = features if not old else old + "," + features
            attrs = attrs.with_fn_attr(Attribute.string("target-features", value))
        fn.attributes = attrs


def _fail(err: TextIO, message: str, code: int = 1) -> NoReturn:
    err.write("%s: %s\n" % (TOOL, message))
    raise _Exit(code)


def _parse_int_option(name: str, text: str, err: TextIO) -> int:
    """An ``int`` option value as LLVM's parser reads it (radix prefixes, 32-bit range)."""
    from llvmpy_mid.passes.pipeline_text import parse_llvm_unsigned

    negative = text.startswith("-")
    magnitude = parse_llvm_unsigned(text[1:] if negative else text)
    value = None if magnitude is None else (-magnitude if negative else magnitude)
    if value is None or not -(2**31) <= value < 2**31:
        _fail(err, "for the --%s option: '%s' value invalid for integer argument!" % (name, text))
    return value


#: Target-independent legacy flags opt-19 still runs in its legacy pass manager (its
#: ``shouldPinPassToLegacyPM``) instead of asking for ``-passes=``; a registered one runs here.
_PINNED_TO_LEGACY_PM = frozenset(
    (
        "atomic-expand", "callbrprepare", "codegenprepare", "dot-regions", "dot-regions-only",
        "expand-large-div-rem", "expand-large-fp-convert", "expand-memcmp", "expand-reductions", "expandvp",
        "fix-irreducible", "generic-to-nvvm", "global-merge", "indirectbr-expand", "interleaved-access",
        "interleaved-load-combine", "jmc-instrumenter", "loop-reduce", "lower-amx-intrinsics", "lower-amx-type",
        "mve-tail-predication", "polyhedral-info", "pre-isel-intrinsic-lowering", "print-polyhedral-info",
        "replace-with-veclib", "safe-stack", "select-optimize", "structurizecfg", "unreachableblockelim",
        "verify-safepoint-ir", "view-regions", "view-regions-only",
    )
)  # fmt: skip


def _is_llvm_legacy_flag(name: str) -> bool:
    from llvmpy_mid.passes.llvm_pass_names import is_llvm19_legacy_flag

    if name in _PINNED_TO_LEGACY_PM and _is_pass_name(name):
        return False
    return is_llvm19_legacy_flag(name)


def _is_pass_name(name: str) -> bool:
    from llvmpy_mid.passes.registry import REGISTRY

    return bool(REGISTRY.kind_of(name))


def _pass_option(name: str) -> PassOption | None:
    import llvmpy_mid.passes.registry  # noqa: F401  (declares the built-in passes' options)
    from llvmpy_mid.passes.options import OPTIONS

    return OPTIONS.get(name)


def _pass_option_names() -> list[str]:
    from llvmpy_mid.passes.options import OPTIONS

    return OPTIONS.names()


_TRIPLE_OSES = (
    "linux", "windows", "win32", "darwin", "macosx", "ios", "freebsd", "netbsd", "openbsd", "none",
    "wasi", "emscripten", "android", "fuchsia", "haiku", "solaris", "aix", "cuda", "amdhsa", "amdpal",
    "mingw32", "cygwin",
)


_TRIPLE_ENVS = (
    "eabi", "gnu", "code16", "android", "musl", "msvc", "itanium", "cygnus", "coreclr", "simulator",
    "macabi", "pixel", "vertex", "geometry", "hull", "domain", "compute", "library", "raygeneration",
    "intersection", "anyhit", "closesthit", "miss", "callable", "mesh", "amplification", "opencl", "ohos",
    "pauthtest",
)
_TRIPLE_FORMATS = ("xcoff", "coff", "elf", "goff", "macho", "wasm", "spirv", "dxcontainer")


def _is_triple_env(component: str) -> bool:
    """An environment or object-format component (LLVM ``parseEnvironment``/``parseFormat``)."""
    return component.startswith(_TRIPLE_ENVS) or component.endswith(_TRIPLE_FORMATS)


def normalize_triple(triple: str) -> str:
    """``-mtriple``'s value as LLVM's ``Triple::normalize`` writes the common forms: a vendor
    ``unknown`` inserted when the second component is an operating system (``x86_64-linux`` ->
    ``x86_64-unknown-linux``), ``unknown`` components before an environment or object format
    that comes early (``x86_64-elf`` -> ``x86_64-unknown-unknown-elf``), and the Windows
    spellings (``win32`` -> ``windows-msvc``, ``mingw32`` -> ``windows-gnu``, ``cygwin`` ->
    ``windows-cygnus``). Other forms are kept as given."""
    parts = triple.split("-")
    if 2 <= len(parts) < 4 and parts[1].startswith(_TRIPLE_OSES):
        parts.insert(1, "unknown")
    if 2 <= len(parts) < 4 and _is_triple_env(parts[-1]) and not parts[-1].startswith(_TRIPLE_OSES):
        while len(parts) < 4:
            parts.insert(len(parts) - 1, "unknown")
    if len(parts) >= 4 and parts[3].startswith("androideabi"):
        parts[3] = "android" + parts[3][len("androideabi"):]
    if len(parts) >= 3:
        os_name = parts[2]
        if os_name.startswith("mingw32"):
            parts = parts[:2] + ["windows", "gnu"]
        elif os_name.startswith("cygwin"):
            parts = parts[:2] + ["windows", "cygnus"]
        elif os_name.startswith("win32") or os_name == "windows":
            env = parts[3] if len(parts) > 3 else ""
            if not env or env.endswith("coff"):
                env = "msvc"
            parts = parts[:2] + ["windows", env]
    return "-".join(parts)


#: Pass options LLVM declares as ``cl::list``: given more than once, the values accumulate.
_LIST_OPTIONS = frozenset(("disable-builtin", "internalize-public-api-list"))


def parse_args(argv: Sequence[str], err: TextIO) -> Options:
    """Read ``argv`` (without the program name) as opt reads its options."""
    opts = Options()
    positional: list[str] = []
    args = list(argv)
    i = 0
    only_positional = False
    while i < len(args):
        arg = args[i]
        i += 1
        if only_positional or arg == "-" or not arg.startswith("-"):
            positional.append(arg)
            continue
        if arg == "--":
            only_positional = True
            continue
        body = arg[2:] if arg.startswith("--") else arg[1:]
        name, eq, value = body.partition("=")
        if name in _REMARK_OPTIONS:
            if not eq:
                if i >= len(args):
                    _fail(err, "for the -%s option: requires a value!" % name)
                value = args[i]
                i += 1
            if name in _REMARK_PATTERNS:
                from llvmpy_mid.analysis.remark_streamer import compile_remark_filter

                try:
                    compile_remark_filter(name, value)
                except PipelineError as exc:
                    err.write("LLVM ERROR: %s\n" % exc)
                    raise _Exit(1) from None
            opts.remarks[name] = value
        elif name in _VALUED:
            if not eq:
                if i >= len(args):
                    _fail(err, "for the -%s option: requires a value!" % name)
                value = args[i]
                i += 1
            if name == "o":
                opts.output = value or None  # opt: an empty -o is standard output
            elif name == "opt-bisect-limit":
                opts.bisect_limit = _parse_int_option(name, value, err)
            elif name == "mtriple":
                opts.triple = normalize_triple(value)
            elif name == "mcpu":
                if value == "native":
                    _fail(err, "-mcpu=native is not supported (llvmpy_mid has no host CPU detection)")
                opts.cpu = value
            elif name == "mattr":
                opts.features.extend(_subtarget_feature(f) for f in value.split(",") if f)
            elif name == "data-layout":
                opts.data_layout = value
            elif name == "output-dir":
                opts.output_dir = value
            else:
                opts.passes = value
        elif name in _FLAGS and not eq:
            if name == "S":
                opts.text_output = True
            else:
                opts.flags.add(name)
        elif name in _OPT_LEVELS and not eq:
            opts.opt_levels.add(name)
        elif not eq and _is_llvm_legacy_flag(name):
            opts.llvm_legacy.append(name)
        elif not eq and _is_pass_name(name):
            opts.legacy.append(name)
        elif _pass_option(name) is not None:
            option = _pass_option(name)
            if option is not None and option.kind != "bool" and not eq and i < len(args):
                # a value-taking option reads the next argument when no '=' is given, as LLVM's
                # cl::opt<unsigned> and cl::opt<std::string> (ValueRequired) do: -disable-builtin strcat
                value, eq = args[i], "="
                i += 1
            try:
                if option is not None:
                    option.parse(value if eq else None)
            except PipelineError as exc:
                _fail(err, str(exc))
            previous = opts.pass_options.get(name)
            if name in _LIST_OPTIONS and previous and eq:
                value = previous + "," + value  # cl::list: each occurrence adds a name
            opts.pass_options[name] = value if eq else None
        else:
            err.write("%s: Unknown command line argument '%s'.  Try: '%s --help'\n" % (TOOL, arg, TOOL))
            import difflib

            known = ["-" + f for f in _FLAGS + _VALUED] + ["--" + n for n in _pass_option_names()]
            close = difflib.get_close_matches(arg, known, n=1, cutoff=0.6)
            if close:
                err.write("%s: Did you mean '%s'?\n" % (TOOL, close[0]))
            raise _Exit(1)
    batch = opts.output_dir is not None or "disable-output" in opts.flags
    if len(positional) > 1 and not batch:
        err.write("%s: Too many positional arguments specified!\n" % TOOL)
        err.write("Can specify at most 1 positional arguments: See: %s --help\n" % TOOL)
        raise _Exit(1)
    if positional:
        opts.input = positional[0]
    opts.inputs = positional
    if opts.output_dir is not None:
        _check_batch(opts, err)
    if opts.llvm_legacy:  # opt-19 answers before reading anything
        err.write(LEGACY_SYNTAX_MESSAGE)
        raise _Exit(1)
    if opts.legacy and opts.passes is not None:
        _fail(err, "Cannot specify passes via both -passname flags and -passes=")
    return opts


def _check_batch(opts: Options, err: TextIO) -> None:
    """``-output-dir``: a folder that exists, no ``-o``, no two inputs with one file name."""
    assert opts.output_dir is not None
    if opts.output is not None:
        _fail(err, "-o cannot be combined with -output-dir (each input is written to the folder)")
    if not os.path.isdir(opts.output_dir):
        _fail(err, "%s: error: -output-dir is not a folder" % opts.output_dir)
    seen: dict[str, str] = {}
    for path in opts.inputs:
        if path == "-":
            _fail(err, "-output-dir needs input files, not standard input")
        base = os.path.basename(path)
        if base in seen:
            _fail(err, "%s and %s would both be written to %s" % (seen[base], path, os.path.join(opts.output_dir, base)))
        seen[base] = path


def run_each(opts: Options, stdin: Any, stdout: Any, err: TextIO) -> int:
    """Several inputs in one call: each runs as its own ``llvmpy-opt`` would (an error in one is
    reported and the others still run); the exit code is the worst of them."""
    import copy

    worst = 0
    for path in opts.inputs:
        one = copy.copy(opts)
        one.input = path
        one.inputs = [path]
        if opts.output_dir is not None and "disable-output" not in opts.flags:
            one.output = os.path.join(opts.output_dir, os.path.basename(path))
        try:
            code = run(one, stdin, stdout, err)
        except _Exit as exc:
            code = exc.code
        except LLVMPyError as exc:
            err.write("%s: %s: error: %s\n" % (TOOL, path, str(exc).splitlines()[0] if str(exc) else type(exc).__name__))
            code = 1
        worst = max(worst, code)
    return worst


def legacy_pipeline(names: Sequence[str]) -> str:
    """``-a -b -c`` as pipeline text: function passes grouped in ``function(...)``."""
    from llvmpy_mid.passes.registry import REGISTRY

    parts: list[str] = []
    run: list[str] = []
    for n in names:
        kinds = REGISTRY.kind_of(n)
        if "module" not in kinds and "function" in kinds:
            run.append(n)
            continue
        if run:
            parts.append("function(%s)" % ",".join(run))
            run = []
        parts.append(n)
    if run:
        parts.append("function(%s)" % ",".join(run))
    return ",".join(parts)


def _read_input(opts: Options, stdin: io.BufferedIOBase | Any, err: TextIO) -> tuple[str, str]:
    """(display name, text) of the input."""
    if opts.input == "-":
        name = "<stdin>"
        data: bytes = stdin.read()
    else:
        name = opts.input
        try:
            with open(name, "rb") as f:
                data = f.read()
        except OSError as exc:
            reason = exc.strerror or str(exc)
            _fail(err, "%s: error: Could not open input file: %s" % (name, reason))
    if data.startswith(_BITCODE_MAGICS):
        _fail(err, "%s: error: bitcode input is not supported; give textual IR (.ll)" % name)
    return name, data.decode("utf-8", "surrogateescape")


def _report_parse_error(exc: ParseError, err: TextIO) -> NoReturn:
    err.write("%s: %s\n" % (TOOL, exc))
    if exc.source_line or exc.line:
        err.write(exc.source_line.rstrip("\n") + "\n")
        err.write(" " * max(exc.column - 1, 0) + "^\n")
    raise _Exit(1)


class _Signalled(BaseException):
    """SIGTERM (or SIGHUP) arrived while an output file was pending."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_signalled(signum: int, frame: object) -> None:
    raise _Signalled(signum)


class OutputTarget:
    """Where the result goes (opt's ``ToolOutputFile``), opened before the pipeline runs.

    ``-`` is standard output. A device, FIFO or socket is opened now and written directly
    (``/dev/null`` stays a device). A regular file with several hard links is written in
    place. Any other file (new, or regular with one link; a symlink is followed and the
    file it names is replaced) gets a hidden temporary file in its directory now, renamed
    over it by :meth:`commit`, so a failed run leaves it untouched. :meth:`discard` removes
    what :meth:`commit` did not use. Opening raises ``OSError`` with the system's reason.
    """

    __slots__ = ("path", "stdout", "_stream", "_tmp", "_final", "_mode", "_owner", "_inplace", "_handlers")

    def __init__(self, path: str | None, stdout: Any) -> None:
        self.path = path
        self.stdout = stdout
        self._stream: Any = None
        self._tmp: str | None = None
        self._final: str | None = None
        self._mode = 0o666
        self._owner: tuple[int, int] | None = None
        self._inplace = False
        self._handlers: dict[int, Any] = {}
        if path is None or path == "-":
            return
        try:
            st: os.stat_result | None = os.stat(path)
        except FileNotFoundError:
            st = None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if st is not None and not stat.S_ISREG(st.st_mode):
            self._stream = open(path, "wb")  # a device or a FIFO: written directly, as opt does
            return
        if st is not None and st.st_nlink > 1:
            if not os.access(path, os.W_OK):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
            self._inplace = True
            return
        final = os.path.realpath(path)
        if st is not None:
            self._mode = stat.S_IMODE(st.st_mode)
            self._owner = (st.st_uid, st.st_gid)
        else:
            mask = os.umask(0)
            os.umask(mask)
            self._mode = 0o666 & ~mask
        import tempfile

        self._catch_signals()
        fd, self._tmp = tempfile.mkstemp(prefix=".llvmpy-opt-", dir=os.path.dirname(final) or ".")
        os.close(fd)
        self._final = final

    def _catch_signals(self) -> None:
        """Turn SIGTERM/SIGHUP into :class:`_Signalled` so the temporary file is removed."""
        for signum in (signal.SIGTERM, signal.SIGHUP):
            try:
                self._handlers[signum] = signal.signal(signum, _raise_signalled)
            except (ValueError, OSError):  # not the main thread: leave the handlers alone
                return

    def commit(self, data: bytes) -> None:
        """Write ``data`` to the target."""
        if self.path is None or self.path == "-":
            self.stdout.write(data)
            self.stdout.flush()
            return
        if self._stream is not None:
            self._stream.write(data)
            self._stream.flush()
            return
        if self._inplace:
            with open(self.path, "wb") as f:
                f.write(data)
            return
        assert self._tmp is not None and self._final is not None
        with open(self._tmp, "wb") as f:
            f.write(data)
            os.fchmod(f.fileno(), self._mode)
            if self._owner is not None and self._owner != (os.geteuid(), os.getegid()):
                try:
                    os.fchown(f.fileno(), *self._owner)
                except OSError:
                    pass
        os.replace(self._tmp, self._final)
        self._tmp = None

    def discard(self) -> None:
        """Close what was opened and remove an unused temporary file."""
        if self._stream is not None:
            try:
                self._stream.close()
            except OSError:
                pass
            self._stream = None
        if self._tmp is not None:
            try:
                os.unlink(self._tmp)
            except OSError:
                pass
            self._tmp = None
        for signum, handler in self._handlers.items():
            signal.signal(signum, handler)
        self._handlers.clear()


def _output_is_null_device(opts: Options, stdout: Any) -> bool:
    """True when the output is the null device: the bitcode opt would write there is thrown
    away, so not writing it changes nothing (``opt < x.ll -passes=dot-cfg > /dev/null``)."""
    try:
        if opts.output is not None and opts.output != "-":
            st = os.stat(opts.output)
        else:
            st = os.fstat(stdout.fileno())
        null = os.stat(os.devnull)
    except (OSError, ValueError, AttributeError):
        return False
    return stat.S_ISCHR(st.st_mode) and (st.st_dev, st.st_ino, st.st_rdev) == (null.st_dev, null.st_ino, null.st_rdev)


def _output_error(path: str, exc: OSError, err: TextIO) -> NoReturn:
    reason = exc.strerror or str(exc)
    _fail(err, "%s: error: %s" % (path, reason))


def _write_warnings(caught: Sequence[warnings.WarningMessage], err: TextIO) -> None:
    """The reader's warnings (dropped debug info, with the verifier's findings on it) as opt prints them."""
    for w in caught:
        err.write(getattr(w.message, "llvm_text", ""))
        err.write("warning: %s\n" % w.message)  # as opt-19: no tool name


def _check_data_layout(text: str, err: TextIO) -> None:
    """``-data-layout``'s string must parse; opt-19 reports a bad one with no location."""
    from llvmpy_mid.errors import DataLayoutError
    from llvmpy_mid.ir.data_layout import DataLayout

    try:
        DataLayout(text)
    except DataLayoutError as exc:
        _fail(err, "<unknown>:0: error: %s" % exc)


def run(opts: Options, stdin: Any, stdout: Any, err: TextIO) -> int:
    """Do what ``opts`` ask; raise :class:`_Exit` after writing an error."""
    from llvmpy_mid.asm import parse_assembly
    from llvmpy_mid.passes.timing import TimeRecord, now

    flags = opts.flags
    disable_output = "disable-output" in flags
    verify = "disable-verify" not in flags
    name, source = _read_input(opts, stdin, err)
    if opts.data_layout:
        _check_data_layout(opts.data_layout, err)
    parse_start = now()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            module = parse_assembly(
                source, name=name, verify=verify, target_triple=opts.triple, data_layout=opts.data_layout or None
            )
        except ParseError as exc:
            _report_parse_error(exc, err)
        except VerifierError as exc:
            # As opt-19: the dropped debug info's findings and warning first, then what is broken.
            _write_warnings(caught, err)
            err.write(exc.llvm_text)
            _fail(err, "%s: error: input module is broken!" % name)
    parse_time: TimeRecord = now() - parse_start
    _write_warnings(caught, err)
    if "strip-debug" in flags:  # as opt: right after reading the module
        from llvmpy_mid.ir.debug_info_strip import strip_debug_info

        strip_debug_info(module)
    if (opts.cpu or opts.features) and module.target_triple.split("-", 1)[0]:
        # opt has a target machine only for a module with a target architecture.
        set_function_attributes(module, opts.cpu, ",".join(opts.features))

    if disable_output:
        if opts.output is not None:
            err.write("WARNING: The -o (output filename) option is ignored when\nthe --disable-output option is used.\n")
        target = OutputTarget(None, stdout)
    else:
        try:
            target = OutputTarget(opts.output, stdout)
        except OSError as exc:
            _output_error(opts.output or "-", exc, err)
    try:
        if len(opts.opt_levels) > 1:
            err.write("Cannot specify multiple -O#\n")
            raise _Exit(1)
        if opts.opt_levels and (opts.passes is not None or opts.legacy):
            err.write("Cannot specify -O# and --passes=/--foo-pass, use -passes='default<O#>,other-pass'\n")
            raise _Exit(1)
        return _run_pipeline(opts, module, target, parse_time, stdout, err)
    finally:
        target.discard()


def _run_pipeline(opts: Options, module: Any, target: OutputTarget, parse_time: Any, stdout: Any, err: TextIO) -> int:
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.verifier import function_diagnostics, module_diagnostics
    from llvmpy_mid.passes.builder import build_pipeline, nested_pipeline_text
    from llvmpy_mid.passes.default_pipeline import IncompletePipelineError
    from llvmpy_mid.passes.options import OPTIONS
    from llvmpy_mid.passes.statistics import collecting
    from llvmpy_mid.passes.verify_invalidation import AnalysisInvalidationError, VerifyAnalysisInvalidation
    from llvmpy_mid.passes.builtin_passes import BROKEN_MODULE_MESSAGE, PrintModulePass, VerifierPass
    from llvmpy_mid.passes.instrumentation import DebugPassManagerLog, PassInstrumentation
    from llvmpy_mid.passes.pass_gates import OptBisectGate, OptNoneGate
    from llvmpy_mid.passes.pass_manager import Pass
    from llvmpy_mid.passes.preserved import PreservedAnalyses
    from llvmpy_mid.passes.print_changed import PrintChanged
    from llvmpy_mid.passes.print_ir import PrintIR
    from llvmpy_mid.passes.proxies import make_analysis_managers
    from llvmpy_mid.passes.timing import TimePasses, format_timer_group

    flags = opts.flags
    disable_output = "disable-output" in flags
    verify = "disable-verify" not in flags
    if opts.opt_levels:
        text = "default<%s>" % next(iter(opts.opt_levels))
    else:
        text = opts.passes if opts.passes is not None else legacy_pipeline(opts.legacy)
    try:
        aa_text = opts.pass_options.get("aa-pipeline")
        if aa_text is not None:  # opt parses -aa-pipeline before the pass pipeline
            from llvmpy_mid.analysis.alias.aa_manager import parse_aa_pipeline

            parse_aa_pipeline(str(aa_text))
        mpm = build_pipeline(text, allow_partial_pipeline="allow-partial-pipeline" in flags)
    except IncompletePipelineError as exc:
        _fail(err, "%s (-allow-partial-pipeline runs the passes that exist)" % exc)
    except PipelineError as exc:
        _fail(err, str(exc))
    if "print-pipeline-passes" in flags:
        with OPTIONS.overriding(opts.pass_options):  # printPipeline shows the command line's overrides
            parts = [nested_pipeline_text(text)] if text else []
        if verify:
            parts.append("verify")
        if opts.text_output and not disable_output:
            parts.append("print")
        stdout.write((",".join(p for p in parts if p) + "\n").encode())
        return 0
    # Checked after the input and the pipeline, as opt only writes its (bitcode) output at the end:
    # a broken input or a bad pipeline is reported first.
    if not opts.text_output and not disable_output and not _output_is_null_device(opts, stdout):
        _fail(err, "bitcode output is not supported; use -S")

    if verify:
        mpm.add(VerifierPass())
    buffer = io.StringIO()
    if opts.text_output and not disable_output:
        mpm.add(PrintModulePass(stream=buffer))

    pi = PassInstrumentation()
    debug = "debug-pass-manager" in flags
    current: list[Pass[Any]] = []

    def remember(pass_: Pass[Any], unit: object) -> None:
        if not pass_.is_special:
            current[:] = [pass_]

    pi.before_pass.append(remember)
    log = DebugPassManagerLog(pi, err) if debug else None
    OptNoneGate(pi, log)  # opt registers the optnone gate, then the bisect gate
    if opts.bisect_limit is not None:
        OptBisectGate(pi, opts.bisect_limit, err)
    if "verify-each" in flags:
        from llvmpy_mid.analysis.loop_info import Loop

        def verify_after(pass_: Pass[Any], unit: object, pa: PreservedAnalyses) -> None:
            if pass_.is_special or isinstance(pass_, (VerifierPass, PrintModulePass)):  # as opt-19
                return
            if isinstance(unit, Loop):  # after a loop pass opt-19 verifies the loop's function
                unit = unit.header.parent
            if isinstance(unit, Function):
                if debug:
                    err.write("Verifying function %s\n" % unit.name)
                found = function_diagnostics(unit)
                what = "function"
            else:
                if debug:
                    err.write("Verifying module %s\n" % module.name)
                found = module_diagnostics(module)
                what = "module"
            if found:
                err.write("".join(d.text for d in found))
                err.write('LLVM ERROR: Broken %s found after pass "%s", compilation aborted!\n' % (what, pass_.log_name))
                raise _Exit(1)

        pi.after_pass.append(verify_after)

    if "print-before-all" in flags or "print-after-all" in flags:
        PrintIR(pi, before="print-before-all" in flags, after="print-after-all" in flags, stream=err)
    if "print-changed" in flags:
        PrintChanged(pi, module, stream=err)
    timer: TimePasses | None = None
    if "time-passes" in flags:
        timer = TimePasses(pi)

    if "verify-analysis-invalidation" in flags:
        VerifyAnalysisInvalidation(pi)

    dom_check = None
    if "verify-each" in flags or "verify-dom-info" in flags:
        from llvmpy_mid.passes.verify_dom_info import VerifyDomInfo

        dom_check = VerifyDomInfo(pi, err)
    loop_check = None
    if "verify-loop-info" in flags:
        from llvmpy_mid.passes.verify_loop_info import VerifyLoopInfo

        loop_check = VerifyLoopInfo(pi)
    scev_check = None
    if "verify-scev" in opts.pass_options:
        from llvmpy_mid.analysis.scalar_evolution_printer import VerifySCEV

        scev_check = VerifySCEV(pi)
    mam, _fam = make_analysis_managers(pi)
    if scev_check is not None:
        scev_check.attach(_fam)
    if dom_check is not None:
        dom_check.attach(_fam)
    if loop_check is not None:
        loop_check.attach(_fam)
    from llvmpy_mid.passes.teardown import PipelineTeardown

    teardown = PipelineTeardown()
    remarks = RemarkOutput(opts.remarks, err)
    try:
        with collecting() as stats, OPTIONS.overriding(opts.pass_options), teardown.active(), remarks.active():
            mpm.run(module, mam)
    except VerifierError as exc:
        err.write(exc.llvm_text)
        message = getattr(current[0], "fatal_message", BROKEN_MODULE_MESSAGE) if current else BROKEN_MODULE_MESSAGE
        err.write("LLVM ERROR: %s\n" % message)
        raise _Exit(1) from None
    except AnalysisInvalidationError as exc:
        err.write("LLVM ERROR: %s\n" % exc)
        raise _Exit(1) from None
    except FatalError as exc:  # report_fatal_error: opt-19 writes nothing else and exits 1
        err.write("LLVM ERROR: %s\n" % exc)
        if exc.gen_crash_diag:  # opt-19 aborts (a crash, for `not --crash`)
            err.flush()
            sys.stdout.flush()
            if BEFORE_ABORT is not None:
                BEFORE_ABORT()
            os.abort()
        raise _Exit(1) from None

    if opts.text_output and not disable_output:
        try:
            target.commit(buffer.getvalue().encode("utf-8", "surrogateescape"))
        except OSError as exc:  # opt-19's words for a failed write
            err.write("LLVM ERROR: IO failure on output stream: %s\n" % (exc.strerror or exc))
            raise _Exit(1) from None
    teardown.finish()  # opt destroys its pass manager (aa-eval's report) after writing the output
    remarks.keep()
    if timer is not None:
        err.write(timer.report())
        err.write(format_timer_group("LLVM IR Parsing", [("Parse IR", parse_time)]))
    if "stats" in flags:
        err.write(stats.report())
    return 0


class RemarkOutput:
    """The ``-pass-remarks*`` options of one run: the streamer the passes' remarks go to,
    and the ``-pass-remarks-output`` file, created before the passes run and removed again
    when the run fails (opt's ``ToolOutputFile`` without ``keep``)."""

    def __init__(self, options: dict[str, str], err: TextIO) -> None:
        from llvmpy_mid.analysis.remark_streamer import RemarkStreamer, compile_remark_filter

        self.path = options.get("pass-remarks-output") or None
        self.file: TextIO | None = None
        fmt = options.get("pass-remarks-format", "yaml")
        if self.path is not None and fmt != "yaml":
            if fmt == "bitstream":
                _fail(err, "-pass-remarks-format=bitstream is not supported (llvmpy_mid writes YAML remarks)")
            err.write("Unknown remark format: '%s'\n" % fmt)
            raise _Exit(1)
        try:
            output_filter = compile_remark_filter("pass-remarks-filter", options.get("pass-remarks-filter"))
        except PipelineError as exc:
            err.write("%s\n" % exc)
            raise _Exit(1) from None
        if self.path is not None:
            try:
                self.file = open(self.path, "w", encoding="utf-8")
            except OSError as exc:
                err.write("%s\n" % (exc.strerror or exc))
                raise _Exit(1) from None
        patterns = {k: compile_remark_filter(k, options.get(k)) for k in _REMARK_PATTERNS}
        self.streamer: RemarkStreamer | None = None
        if self.file is not None or any(patterns.values()):
            self.streamer = RemarkStreamer(
                passed=patterns["pass-remarks"],
                missed=patterns["pass-remarks-missed"],
                analysis=patterns["pass-remarks-analysis"],
                diagnostics=err,
                output=self.file,
                output_filter=output_filter,
            )

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        """Remarks go to the streamer inside the block; the file is dropped if the block fails."""
        from llvmpy_mid.analysis.remark_streamer import streaming

        if self.streamer is None:
            yield
            return
        try:
            with streaming(self.streamer):
                yield
        except BaseException:
            self.discard()
            raise

    def keep(self) -> None:
        """The run succeeded: close the file and keep it."""
        if self.file is not None:
            self.file.close()
            self.file = None

    def discard(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None
            if self.path is not None:
                try:
                    os.remove(self.path)
                except OSError:
                    pass


def main(argv: Sequence[str] | None = None) -> int:
    """The ``llvmpy-opt`` entry point; returns the exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    err = sys.stderr
    stdin: Any = getattr(sys.stdin, "buffer", sys.stdin)
    stdout: Any = getattr(sys.stdout, "buffer", sys.stdout)
    try:
        opts = parse_args(args, err)
        if "help" in opts.flags:
            sys.stdout.write(HELP)
            return 0
        if "version" in opts.flags:
            from llvmpy_mid import __version__

            sys.stdout.write("llvmpy_mid version %s (LLVM 19 compatible)\n" % __version__)
            return 0
        if "print-passes" in opts.flags:
            from llvmpy_mid.passes.registry import REGISTRY

            sys.stdout.write(REGISTRY.format_print_passes())
            return 0
        if len(opts.inputs) > 1 or opts.output_dir is not None:
            return run_each(opts, stdin, stdout, err)
        return run(opts, stdin, stdout, err)
    except _Exit as exc:
        return exc.code
    except LLVMPyError as exc:
        err.write("%s: error: %s\n" % (TOOL, str(exc).splitlines()[0] if str(exc) else type(exc).__name__))
        return 1
    except KeyboardInterrupt:
        return 130
    except _Signalled as exc:  # the output's temporary file is gone: now die of the signal
        signal.signal(exc.signum, signal.SIG_DFL)
        os.kill(os.getpid(), exc.signum)
        return 128 + exc.signum
    except Exception as exc:  # never a traceback
        err.write("%s: internal error: %s: %s\n" % (TOOL, type(exc).__name__, exc))
        return 2


__all__ = ["HELP", "LEGACY_SYNTAX_MESSAGE", "Options", "OutputTarget", "legacy_pipeline", "main", "parse_args", "run"]
