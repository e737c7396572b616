"""`#ifdef __CUDA_ARCH__`: the device-or-host split, spelled the way HIP defines it.

nvcc defines `__CUDA_ARCH__` while compiling device code, and `__host__ __device__` code tests it
to pick a device path (`threadIdx.x`, intrinsics) or a host one (`std::thread`, OpenMP).  HIP's
compiler never defines it, so after a plain rename the host path is compiled for the device too,
which fails to compile or does the wrong thing.  HIP defines `__HIP_DEVICE_COMPILE__` in the same
places (its NVIDIA platform headers too), so a directive that only asks whether `__CUDA_ARCH__` is
defined (`#ifdef`, `#ifndef`, `defined(...)`) asks that instead.  A directive that also compares
its value with an NVIDIA architecture number (`__CUDA_ARCH__ >= 700`) is left whole: it is
reported (HP015), and half a rewrite would read as if it had been ported.  So is a directive whose
branches use the value in code (`BANKS = __CUDA_ARCH__ >= 200 ? 32 : 16`, Rodinia's dwt2d): turned
on for HIP's device pass, that code would name a macro HIP never defines.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.lexer import directive_end
from hipport.cxx.scan import Scan

_CONDITIONAL = re.compile(rb"#[ \t]*(?:if|ifdef|ifndef|elif|elifdef|elifndef)\b")
_DEFINED = re.compile(rb"(?:\bdefined\s*\(\s*|\bdefined\s+|#[ \t]*(?:ifdef|ifndef|elifdef|elifndef)[ \t]+)(__CUDA_ARCH__)\b")
_NAME = re.compile(rb"\b__CUDA_ARCH__\b")
_HIP = b"__HIP_DEVICE_COMPILE__"


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"__CUDA_ARCH__" not in data:
        return
    directives = sweep.directives
    for i, pos in enumerate(directives):
        if not _CONDITIONAL.match(data, pos):
            continue
        end = directive_end(data, pos)
        line = data[pos:end]
        if b"__CUDA_ARCH__" not in line:
            continue
        tests = [m.start(1) for m in _DEFINED.finditer(line)]
        if tests and len(tests) == len(_NAME.findall(line)) and not _value_used_in_code(data, sweep, i):
            for offset in tests:
                ctx.edit(pos + offset, pos + offset + len(b"__CUDA_ARCH__"), _HIP, "device-compile-guard")


_OPENS = re.compile(rb"#[ \t]*if")
_CLOSES = re.compile(rb"#[ \t]*endif\b")


def _value_used_in_code(data: bytes, sweep: Scan, i: int) -> bool:
    """Does code (not a directive, comment or literal) in the conditional group opened or
    continued by directive *i* name `__CUDA_ARCH__`?"""
    directives = sweep.directives
    depth = 0
    segment_start = directive_end(data, directives[i])
    for pos in directives[i + 1:]:
        if _code_names_arch(data, sweep, segment_start, pos):
            return True
        segment_start = directive_end(data, pos)
        if _OPENS.match(data, pos):
            depth += 1
        elif _CLOSES.match(data, pos):
            if depth == 0:
                return False
            depth -= 1
    return _code_names_arch(data, sweep, segment_start, len(data))


def _code_names_arch(data: bytes, sweep: Scan, start: int, end: int) -> bool:
    return any(not sweep.in_masked(m.start()) for m in _NAME.finditer(data, start, end))
