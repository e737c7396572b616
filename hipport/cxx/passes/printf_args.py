"""Built-in index variables passed straight to device-side printf.

CUDA's `threadIdx.x` is an `unsigned int`; HIP's is a property object that converts to one, and
clang cannot pass such an object through printf's `...` ("cannot compile this non-scalar arg to
printf yet"), so the tutorial staple `printf("%d\\n", threadIdx.x)` does not compile after a plain
rename.  An argument that is exactly `threadIdx.x` (or `blockIdx`, `blockDim`, `gridDim`; `.x`,
`.y`, `.z`) gets `(unsigned int)`, the type CUDA gives it; arithmetic on one is already a scalar.
"""

from __future__ import annotations

import re

from hipport.cxx.calls import call_arguments
from hipport.cxx.context import Context
from hipport.cxx.scan import Scan

_PRINTF = re.compile(rb"printf\s*\(")  # a literal first: a fast search; what precedes is checked after
_BUILTIN = re.compile(rb"(?:threadIdx|blockIdx|blockDim|gridDim)\s*\.\s*[xyz]")
_CAST = b"(unsigned int)"


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"printf" not in data or not (b"Idx" in data or b"Dim" in data):
        return
    for m in _PRINTF.finditer(data):
        start = m.start()
        if start and (data[start - 1:start].isalnum() or data[start - 1] in b"_$.") or data[start - 2:start] == b"->":
            continue  # sprintf, fprintf, a member named printf
        if sweep.in_masked(start):
            continue
        semicolon = data.find(b";", m.end())
        head = data[m.end():semicolon if semicolon >= 0 else len(data)]
        if b"Idx" not in head and b"Dim" not in head:
            continue  # most calls print no built-in index: skip parsing their arguments
        parsed = call_arguments(data, m.end() - 1)
        if parsed is None:
            continue
        for arg_start, arg_end in parsed[0][1:]:
            if _BUILTIN.fullmatch(data, arg_start, arg_end):
                ctx.edit(arg_start, arg_start, _CAST, "printf-index-arg")
