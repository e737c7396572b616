"""`#ifdef __CUDA_ARCH__`: the device-or-host split, spelled the way HIP defines it.

nvcc defines `__CUDA_ARCH__` while compiling device code, and `__host__ __device__` code tests it
to pick a device path (`threadIdx.x`, intrinsics) or a host one (`std::thread`, OpenMP).  HIP's
compiler never defines it, so after a plain rename the host path is compiled for the device too,
which fails to compile or does the wrong thing.  HIP defines `__HIP_DEVICE_COMPILE__` in the same
places (its NVIDIA platform headers too), so a directive that only asks whether `__CUDA_ARCH__` is
defined (`#ifdef`, `#ifndef`, `defined(...)`, or its truth: `#if __CUDA_ARCH__`, `#if !__CUDA_ARCH__`)
asks that instead.  A directive that also compares
its value with an NVIDIA architecture number (`__CUDA_ARCH__ >= 700`) is left whole: it is
reported (HP015), and half a rewrite would read as if it had been ported.  So is a directive whose
branches use the value in code (`BANKS = __CUDA_ARCH__ >= 200 ? 32 : 16`, Rodinia's dwt2d): turned
on for HIP's device pass, that code would name a macro HIP never defines.

`#ifdef __NVCC__` is nvcc's own flag, often right for NVIDIA-only code; but where its branches
decorate code for the GPU (`#define HD __host__ __device__`) or call the runtime API (an error-check
macro), it asks "is a GPU compiler compiling this?", as `__CUDACC__` does: HIP's compiler then
defines `__HIPCC__` instead.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.lexer import directive_end
from hipport.cxx.scan import Scan
from hipport import lazy_re

_CONDITIONAL = lazy_re.compile(rb"#[ \t]*(?:if|ifdef|ifndef|elif|elifdef|elifndef)\b")
_DEFINED = lazy_re.compile(rb"(?:\bdefined\s*\(\s*|\bdefined\s+|#[ \t]*(?:ifdef|ifndef|elifdef|elifndef)[ \t]+)(__CUDA_ARCH__)\b")
_NAME = lazy_re.compile(rb"\b__CUDA_ARCH__\b")
# `#if __CUDA_ARCH__`, `#if !__CUDA_ARCH__`, `&& __CUDA_ARCH__`: its truth, which is whether it is defined
# (no architecture is 0), never compared with a number
_TRUTH = lazy_re.compile(rb"(?:#[ \t]*(?:el)?if[ \t]+|!\s*|&&\s*|\|\|\s*|\(\s*)(__CUDA_ARCH__)\b"
                    rb"(?!\s*(?:[<>=]=?|!=|[-+*/%^?]|&(?!&)|\|(?!\|)))")
_HIP = b"__HIP_DEVICE_COMPILE__"


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    directives = sweep.directives
    if b"__NVCC__" in data:
        _nvcc_guards(ctx, sweep)
    if b"__CUDA_ARCH__" not in data:
        return
    for i, pos in enumerate(directives):
        if not _CONDITIONAL.match(data, pos):
            continue
        end = directive_end(data, pos)
        line = data[pos:end]
        if b"__CUDA_ARCH__" not in line:
            continue
        tests = sorted({m.start(1) for m in _DEFINED.finditer(line)} | {m.start(1) for m in _TRUTH.finditer(line)})
        if tests and len(tests) == len(_NAME.findall(line)) and not _value_used_in_code(data, sweep, i):
            for offset in tests:
                ctx.edit(pos + offset, pos + offset + len(b"__CUDA_ARCH__"), _HIP, "device-compile-guard")


_OPENS = lazy_re.compile(rb"#[ \t]*if")
_CLOSES = lazy_re.compile(rb"#[ \t]*endif\b")


_NVCC = lazy_re.compile(rb"\b__NVCC__\b")
_DECORATOR = lazy_re.compile(rb"\b__(?:host|device|global|forceinline|shared|constant|managed)__\b")
# the runtime API (`#define CUDA_CALL(F) if ((F) != cudaSuccess) … cudaGetErrorString(…)`): code the port
# translates, which HIP's compiler must see
_CUDA_API = lazy_re.compile(rb"\bcuda[A-Z]\w*")


def _nvcc_guards(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    tests = []  # (directive index, its `__NVCC__` names)
    for i, pos in enumerate(sweep.directives):
        if _CONDITIONAL.match(data, pos) and (names := list(_NVCC.finditer(data, pos, directive_end(data, pos)))):
            tests.append((i, names))
    gpu = [(i, names) for i, names in tests if _group_matches(data, sweep, i, _DECORATOR, directives_too=True)
           or _group_matches(data, sweep, i, _CUDA_API, directives_too=True)]
    # `#ifdef __NVCC__ / #define KW __device__` and, apart, `#ifndef __NVCC__ / #define KW`: the
    # other definition of the same macro has to follow the same test, or both apply under hipcc
    # and the later one wins
    decorated = set().union(*(_group_defines(data, sweep, i) for i, _names in gpu)) if gpu else set()
    for i, names in tests:
        if (i, names) in gpu or decorated & _group_defines(data, sweep, i):
            for m in names:
                ctx.edit(m.start(), m.end(), b"__HIPCC__", "gpu-compiler-guard")


_DEFINED_NAME = lazy_re.compile(rb"#[ \t]*define[ \t]+(\w+)")


def _group_defines(data: bytes, sweep: Scan, i: int) -> set[bytes]:
    """The macros `#define`d directly in the conditional group opened by directive *i* (all its
    branches, not nested conditionals)."""
    names, depth = set(), 0
    for pos in sweep.directives[i + 1:]:
        if _OPENS.match(data, pos):
            depth += 1
        elif _CLOSES.match(data, pos):
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (m := _DEFINED_NAME.match(data, pos)):
            names.add(m.group(1))
    return names


def _value_used_in_code(data: bytes, sweep: Scan, i: int) -> bool:
    """Does code (not a comment or literal) or a `#define` body (ggml's `NO_DEVICE_CODE` printing
    the architecture) in the conditional group opened or continued by directive *i* name
    `__CUDA_ARCH__`, or a nested `#if` compare its value (lammps:
    `#ifdef __CUDA_ARCH__` / `#if (__CUDA_ARCH__ < 200)`, which reads 0 < 200 where HIP's device
    pass would enter)?"""
    return _group_matches(data, sweep, i, _NAME, directives_too=True, nested_test=_compares_value)


def _compares_value(line: bytes) -> bool:
    return _CONDITIONAL.match(line) is not None and len(_NAME.findall(line)) > len(_DEFINED.findall(line))


def _group_matches(data: bytes, sweep: Scan, i: int, pattern: re.Pattern, directives_too: bool = False,
                   nested_test=None) -> bool:
    """Does *pattern* match code (and, with *directives_too*, `#define` bodies) in the conditional
    group opened or continued by directive *i*, outside comments and literals — or does
    *nested_test* hold for a directive inside the group?"""
    directives = sweep.directives
    depth = 0
    segment_start = directive_end(data, directives[i])
    for pos in directives[i + 1:]:
        if _code_matches(data, sweep, pattern, segment_start, pos):
            return True
        if directives_too and _DEFINE.match(data, pos) and _code_matches(data, sweep, pattern, pos, directive_end(data, pos)):
            return True
        if nested_test is not None and (depth or not _CLOSES.match(data, pos)) and nested_test(data[pos:directive_end(data, pos)]):
            return True
        segment_start = directive_end(data, pos)
        if _OPENS.match(data, pos):
            depth += 1
        elif _CLOSES.match(data, pos):
            if depth == 0:
                return False
            depth -= 1
    return _code_matches(data, sweep, pattern, segment_start, len(data))


_DEFINE = lazy_re.compile(rb"#[ \t]*define\b")


def _code_matches(data: bytes, sweep: Scan, pattern: re.Pattern, start: int, end: int) -> bool:
    return any(not sweep.in_masked(m.start()) for m in pattern.finditer(data, start, end))
