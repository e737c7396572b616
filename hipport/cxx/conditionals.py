"""Which preprocessor branches are excluded under the user's -D/-U options.

Only used with ``--skip-excluded-preprocessor-conditional-blocks``: by default, as hipify-clang,
every branch is translated, because a file is ported for every configuration at once.  The
condition evaluator is the version-macro library's (a full preprocessor expression parser);
a condition it cannot evaluate is treated as taken, so nothing is skipped by accident: every
branch of an ``#if``/``#elif``/``#else`` chain whose outcome is unknown is taken.

The toolkit's version macros (``CUDA_VERSION``, ``CUSPARSE_VERSION`` ...) are known only when
``--cuda-path`` names a toolkit or a ``-D`` option sets them.  hipport runs where no NVIDIA SDK
is installed, so without one a ``#if CUDA_VERSION < 12000`` block is ported along with its
``>= 12000`` neighbour, as hipify-clang would port each with the matching toolkit.
"""

from __future__ import annotations

import re

from hipport.cxx.lexer import directive_end
from hipport.options import Options
from hipport import lazy_re

_DIRECTIVE_RE = lazy_re.compile(rb"[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif|define|undef)\b(.*)", re.S)
_MACRO_RE = lazy_re.compile(rb"([A-Za-z_]\w*)(\()?[ \t]*(.*)", re.S)


# The libraries that ship with CUDA 13.0, in each header's own version formula, so that
# `#if CUSPARSE_VERSION >= 11600` takes the branch the toolkit's headers would.
LIBRARY_VERSIONS = {
    "CUBLAS_VERSION": "130000",  # major*10000 + minor*100 + patch (cuBLAS 13.0)
    "CUSPARSE_VERSION": "12600",  # major*1000 + minor*100 + patch (cuSPARSE 12.6)
    "CUSOLVER_VERSION": "12000",  # cuSOLVER 12.0
    "CUFFT_VERSION": "12000",  # cuFFT 12.0
    "CURAND_VERSION": "10400",  # cuRAND 10.4
    "CUDNN_VERSION": "91000",  # major*10000 + minor*100 (cuDNN 9.10)
    "NCCL_VERSION_CODE": "22700",  # NCCL 2.27
}


#: Stands for a macro whose value depends on a toolkit hipport has not seen.
UNKNOWN = "<unknown>"


# the compilers' feature-test operators, which `#ifdef __has_include` asks about (their values, in
# `#if __has_include(<x>)`, are the compiler's answers: unknown here)
_FEATURE_TESTS = ("__has_include", "__has_include_next", "__has_builtin", "__has_attribute", "__has_cpp_attribute",
                  "__has_feature", "__has_extension")


_FEATURE_TEST_CALL = lazy_re.compile(rb"\b__has_\w+\s*\(")


def defines_of(options: Options) -> dict[str, str]:
    """Macros defined by -D options and clang arguments (``-DX``, ``-D X=1``); -U removes."""
    # The source is CUDA, parsed for the host as nvcc would.
    macros: dict[str, str] = {"__CUDACC__": "1", "__NVCC__": "1", "__cplusplus": "201703L",
                              **{name: "1" for name in _FEATURE_TESTS}, **_toolkit_versions(options.cuda_path)}
    args = list(options.clang_args)
    items = [("D", d) for d in options.defines]
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-D", "-U") and i + 1 < len(args):
            items.append((a[1], args[i + 1]))
            i += 2
            continue
        if a.startswith(("-D", "-U")) and len(a) > 2:
            items.append((a[1], a[2:]))
        i += 1
    for flag, value in items:
        name, _, val = value.partition("=")
        if flag == "D":
            macros[name] = val or "1"
        else:
            macros.pop(name, None)
    return macros


def _toolkit_versions(cuda_path: str | None) -> dict[str, str]:
    """The version macros of the toolkit ``--cuda-path`` names (its libraries as of CUDA 13.0)."""
    from hipport.cxx.cuda_version import cuda_release

    release = cuda_release(cuda_path)
    if not release:
        return {name: UNKNOWN for name in ("CUDA_VERSION", "CUDART_VERSION", *LIBRARY_VERSIONS)}
    return {"CUDA_VERSION": str(release), "CUDART_VERSION": str(release), **LIBRARY_VERSIONS}


def _evaluate(condition: bytes, macros: dict[str, str]) -> bool | None:
    from hipport.version_macros.expr import evaluate, parse_integer, parse_text

    if any(value is UNKNOWN and name.encode() in condition for name, value in macros.items()):
        return None
    if b"__has_" in condition and _FEATURE_TEST_CALL.search(condition):
        return None  # __has_include(<x>), __has_builtin(f): the compiler's answer, unknown here
    env = {}
    for name, value in macros.items():
        try:
            env[name] = parse_integer(value.encode())[0]
        except Exception:
            env[name] = 1  # defined with a non-numeric value: only definedness is usable
    try:
        return bool(evaluate(parse_text(condition), env))
    except Exception:  # an expression we cannot evaluate: treat as taken
        return None


def excluded_spans(data: bytes, directives: list[int], options: Options) -> list[tuple[int, int]]:
    macros = defines_of(options)
    spans: list[tuple[int, int]] = []
    # stack entries: [parent_active, this_branch_active, a_branch_surely_taken, branch_start]
    stack: list[list] = []
    active = True
    for pos in directives:
        end = directive_end(data, pos)
        m = _DIRECTIVE_RE.match(data, pos + 1, end)
        if not m:
            continue
        word, rest = m.group(1), m.group(2).strip()
        if word in (b"define", b"undef"):
            # the file's own #define / #undef in a taken branch count from there on (a file that
            # says `#define USE_FLOAT` above `#ifdef USE_FLOAT` takes that branch)
            macro = _MACRO_RE.match(rest)
            if active and macro:
                name = macro.group(1).decode("ascii", "replace")
                if word == b"undef":
                    macros.pop(name, None)
                else:
                    body = macro.group(3).split(b"//")[0].split(b"/*")[0].strip()
                    macros[name] = "1" if macro.group(2) else (body.decode("ascii", "replace") or "1")
        elif word in (b"if", b"ifdef", b"ifndef"):
            if word == b"if":
                value = _evaluate(rest, macros)
            else:
                name = rest.split()[0].decode("ascii", "replace") if rest.split() else ""
                value = (name in macros) == (word == b"ifdef")
            taken = value is not False
            stack.append([active, active and taken, value is True, end])
            active = active and taken
        elif word in (b"elif", b"elifdef", b"elifndef", b"else") and stack:
            frame = stack[-1]
            if not frame[1]:
                spans.append((frame[3], pos))
            if frame[2]:
                value = False
            elif word == b"else":
                value = True
            elif word == b"elif":
                value = _evaluate(rest, macros)
            else:
                name = rest.split()[0].decode("ascii", "replace") if rest.split() else ""
                value = (name in macros) == (word == b"elifdef")
            taken = value is not False
            frame[1] = frame[0] and taken
            frame[2] = frame[2] or value is True
            frame[3] = end
            active = frame[1]
        elif word == b"endif" and stack:
            frame = stack.pop()
            if not frame[1]:
                spans.append((frame[3], pos))
            active = frame[0]
    return spans


_BRANCH_LINE = lazy_re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b([^\n]*)", re.M)
_ZERO = lazy_re.compile(rb"[ \t]*(?:0|false|\(\s*0\s*\))[ \t]*(?://[^\n]*|/\*.*\*/[ \t]*)?\r?", re.S)


def if_zero_lines(data: bytes) -> list[tuple[int, int]]:
    """(first, last) line numbers (1-based) of each `#if 0` branch: code every configuration leaves
    out, whose warnings would be noise (its names are still translated, as hipify-clang does)."""
    if b"#" not in data:
        return []
    spans: list[tuple[int, int]] = []
    stack: list[int | None] = []  # per open #if: the line its `#if 0` branch started, else None
    line, counted = 1, 0
    for m in _BRANCH_LINE.finditer(data):
        kind = m.group(1)
        line += data.count(b"\n", counted, m.start())
        counted = m.start()
        if kind.startswith(b"if"):
            stack.append(line if kind == b"if" and _ZERO.fullmatch(m.group(2)) else None)
        elif stack:
            if stack[-1] is not None:
                spans.append((stack[-1], line))
            stack[-1] = None  # an #elif / #else after `#if 0` is live (as far as we know)
            if kind == b"endif":
                stack.pop()
    return spans
