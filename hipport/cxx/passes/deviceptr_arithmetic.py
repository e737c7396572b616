"""Integer arithmetic on driver-API device pointers, which HIP types as ``void*``.

CUDA's ``CUdeviceptr`` is an unsigned integer, so driver code offsets it freely
(``cuMemMap(dptr + i * size, …)``, ``CUdeviceptr p = 0ULL;``).  HIP's ``hipDeviceptr_t`` is a
``void*``: the same expressions do not compile ("arithmetic on a pointer to void").  Each offset
of a variable the file declares as ``CUdeviceptr`` is reported (HP023) with the byte-offset
spelling that works on both.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.scan import Scan

_DECLARED = re.compile(rb"\bCUdeviceptr(?:_v2)?\s*(?:\*\s*)?(?:const\s+)?([A-Za-z_]\w*)\s*(?=[,;=)\[])")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"CUdeviceptr" not in data:
        return
    names = {m.group(1) for m in _DECLARED.finditer(data) if not sweep.in_masked(m.start())}
    if not names:
        return
    alternatives = b"|".join(re.escape(n) for n in sorted(names))
    # `p + n`, `*p - n`, `p += n` — and `n + p`; not `p->x`, `p++` (a loop over handles), `p == q`
    use = re.compile(rb"(?<![\w$.>])(?:\*\s*)?(?:" + alternatives + rb")\s*(?:[+-](?![+=>-])|[+-]=)"
                     rb"|(?<![\w$+-])[+-]\s*(?:\*\s*)?(?:" + alternatives + rb")(?![\w$])")
    for m in use.finditer(data):
        if not sweep.in_masked(m.start()):
            _report(ctx, m.start(), m.end())


def _report(ctx: Context, start: int, end: int) -> None:
    ctx.sink.add("HP023", "integer arithmetic on a CUdeviceptr; HIP's hipDeviceptr_t is a void*", start, end=end,
                 hint="offset in bytes through char*: (hipDeviceptr_t)((char*)ptr + offset)")
