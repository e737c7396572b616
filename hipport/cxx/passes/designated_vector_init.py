"""`float2 p = {.x = 1.f, .y = 2.f};`: designated initializers of CUDA's vector and complex types.

CUDA's vector types are plain aggregates, so C++20 designated initializers (which nvcc accepts
as an extension before C++20) name their members.  HIP's are classes with constructors, where a
designated initializer finds no aggregate ("no matching constructor").  A list that names the
members in order from `.x` (`{.x = re, .y = im}`, `{.x, .y, .z, .w}`) means exactly the positional
list, which HIP's constructors take: the designators are dropped.  Only in files that use CUDA's
vector or complex types, whose members those are.
"""

from __future__ import annotations

import re

from hipport.cxx.calls import call_arguments
from hipport.cxx.context import Context
from hipport.cxx.scan import Scan

_DESIGNATED = re.compile(rb"\{\s*\.\s*x\s*=")
_DESIGNATOR = re.compile(rb"\.\s*([xyzw])\s*=\s*")
_VECTOR_TYPES = re.compile(rb"\b(?:(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]|cu(?:Float|Double)?Complex)\b")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b".x" not in data or not _DESIGNATED.search(data) or not _VECTOR_TYPES.search(data):
        return
    for m in _DESIGNATED.finditer(data):
        if sweep.in_masked(m.start()):
            continue
        parsed = call_arguments(data, m.start())
        if parsed is None or not 2 <= len(parsed[0]) <= 4:
            continue
        designators = [_DESIGNATOR.match(data, s) for s, _e in parsed[0]]
        if all(d is not None and d.group(1) == b"xyzw"[i:i + 1] for i, d in enumerate(designators)):
            for d in designators:
                ctx.edit(d.start(), d.end(), b"", "designated-vector-init")
