"""`atomicAdd` on `__half` / `__half2`, which HIP 5.2 does not declare.

The call keeps CUDA's spelling, so no rule names it and no rule can pull in the shim: a file that
calls `atomicAdd` and uses a half type gets `hipport/compat.h`, whose templates (a compare-and-swap
loop on the aligned 32-bit word) serve the half overloads and yield to a HIP that declares them.
Which overload a call picks cannot be told from tokens, so any such file gets the header.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.scan import Scan

_ATOMIC_ADD = re.compile(rb"atomicAdd\s*\(")
_HALF = re.compile(rb"(?<![\w$])(?:__)?half2?(?![\w$])")
COMPAT = b"hipport/compat.h"


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"atomicAdd" not in data or b"half" not in data or COMPAT in ctx.extra_includes:
        return
    if sweep.matches_in_code(_ATOMIC_ADD) and sweep.matches_in_code(_HALF):
        ctx.extra_includes.append(COMPAT)
