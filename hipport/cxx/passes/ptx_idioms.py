"""Inline PTX that only reads a special register HIP exposes as an intrinsic.

`asm volatile("mov.u32 %0, %laneid;" : "=r"(lane));` is the usual way CUDA code asks for its
lane (or the SM it runs on, a clock, the nanosecond timer, the lanes below it), and it cannot be assembled for AMD
GPUs; `lane = __lane_id();` means the same on both.  So does a lone barrier or fence
(`asm volatile("bar.sync 0;");` is `__syncthreads();`).  Every other `asm` statement is left to the
HP013 warning: rewriting PTX in general needs a person.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.scan import Scan
from hipport import lazy_re

#: special register → (its HIP expression, whether compat.h provides it)
REGISTERS = {
    b"laneid": (b"__lane_id()", False),
    b"smid": (b"__smid()", False),  # the compute unit the wave runs on
    b"clock": (b"static_cast<unsigned int>(clock64())", False),
    b"clock64": (b"clock64()", False),
    b"globaltimer": (b"hipport::globaltimer()", True),  # nanoseconds from the constant-rate wall clock
    # lane masks: 64 bits on AMD's 64-lane waves (a 32-bit variable keeps the low half, as the
    # 32-bit ballots HP011 reports do); HIP has no _le / _ge
    b"lanemask_lt": (b"__lanemask_lt()", False),
    b"lanemask_gt": (b"__lanemask_gt()", False),
    b"lanemask_eq": (b"__lanemask_eq()", False),
}
_READ = lazy_re.compile(
    rb"asm(?:__)?\s*(?:volatile\s*|__volatile__\s*)?\(\s*\"mov\.[usb](?:32|64)\s+%0\s*,\s*%%?("
    + b"|".join(sorted(REGISTERS, key=len, reverse=True)) + rb")\s*;?\s*\"\s*"
    rb":\s*\"=[rl]\"\s*\(\s*([^()\";]+?)\s*\)\s*\)\s*;")


#: a whole barrier or fence instruction → the CUDA function that emits it, which HIP has
STATEMENTS = {
    b"bar.sync 0": b"__syncthreads()",
    b"barrier.sync 0": b"__syncthreads()",
    b"membar.cta": b"__threadfence_block()",
    b"membar.gl": b"__threadfence()",
    b"membar.sys": b"__threadfence_system()",
}
_STATEMENT = lazy_re.compile(
    rb"asm(?:__)?\s*(?:volatile\s*|__volatile__\s*)?\(\s*\"("
    + b"|".join(re.escape(k).replace(b"\\ ", rb"\s+") for k in sorted(STATEMENTS, key=len, reverse=True))
    + rb")\s*;?\s*\"\s*(?::\s*:\s*:\s*\"memory\"\s*)?\)\s*;")


def run(ctx: Context, scan: Scan) -> None:
    data = ctx.data
    if b"asm" not in data:
        return
    if b"bar" in data or b"membar" in data:
        for m in _STATEMENT.finditer(data):
            if not scan.in_masked(m.start()):
                key = b" ".join(m.group(1).split())
                ctx.edit(m.start(), m.end(), STATEMENTS[key] + b";", "ptx-" + key.split()[0].decode())
                ctx.translated_asm.add(m.start())
    if not any(r in data for r in REGISTERS):
        return
    for m in _READ.finditer(data):
        if scan.in_masked(m.start()):
            continue
        expression, from_compat = REGISTERS[m.group(1)]
        ctx.edit(m.start(), m.end(), m.group(2) + b" = " + expression + b";", "ptx-" + m.group(1).decode())
        ctx.translated_asm.add(m.start())
        if from_compat and b"hipport/compat.h" not in ctx.extra_includes:
            ctx.extra_includes.append(b"hipport/compat.h")
