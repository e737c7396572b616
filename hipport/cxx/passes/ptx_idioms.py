"""Inline PTX that only reads a special register HIP exposes as an intrinsic.

`asm volatile("mov.u32 %0, %laneid;" : "=r"(lane));` is the usual way CUDA code asks for its
lane, and it cannot be assembled for AMD GPUs; `lane = __lane_id();` means the same on both
(HIP's lane index within the wavefront).  Every other `asm` statement is left to the HP013
warning: rewriting PTX in general needs a person.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.scan import Scan

_LANEID = re.compile(
    rb"asm(?:__)?\s*(?:volatile\s*|__volatile__\s*)?\(\s*\"mov\.u32\s+%0\s*,\s*%%?laneid\s*;?\s*\"\s*"
    rb":\s*\"=r\"\s*\(\s*([^()\";]+?)\s*\)\s*\)\s*;")


def run(ctx: Context, scan: Scan) -> None:
    data = ctx.data
    if b"laneid" not in data:
        return
    for m in _LANEID.finditer(data):
        if scan.in_masked(m.start()):
            continue
        ctx.edit(m.start(), m.end(), m.group(1) + b" = __lane_id();", "ptx-laneid")
        ctx.translated_asm.add(m.start())
