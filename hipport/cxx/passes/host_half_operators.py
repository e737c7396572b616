"""`__half` arithmetic in host code, which HIP 5.2 supports only on the device.

CUDA's `__half` operators are `__host__ __device__`, so a CPU reference in `main` computes
`a * b + c` on halves directly; HIP 5.2's are `__device__` only and the host code does not
compile.  hipport/compat.h adds host-only templates for the operators (device code keeps HIP's).
Whether an expression runs on the host cannot be told from tokens, so a file that names the half
type and has a `main` (where CPU references live), or a host function taking halves (a library's
CPU reference, `float ref(const __half* x, int n) {`), gets the header; so does one with a `main`
that converts to or from halves, whose type may come from a project header's typedef.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.scan import Scan
from hipport import lazy_re

COMPAT = b"hipport/compat.h"
# (not the `reinterpret_cast<half&>(h.x)` half2_members writes: a second translation must agree)
_HALF = lazy_re.compile(rb"(?<![\w$])(?<!reinterpret_cast<)(?<!reinterpret_cast<const )(?:__half|half)(?![\w$])")
# a conversion to or from the half type in main: the type itself may be a project header's
# `typedef __half floatX;`, which this file never names
_HALF_CONVERSION = lazy_re.compile(rb"__(?:(?:float|double|u?int|u?short|u?ll)2half(?:_r[nduz])?|"
                                   rb"half2(?:float|u?int|u?short|u?ll)(?:_r[nduz])?)\s*\(")
_MAIN = lazy_re.compile(rb"(?<![\w$.>:])main\s*\(")
# a one-line function head without a device qualifier whose parameters name the half type
_HOST_HALF_FUNCTION = lazy_re.compile(rb"^(?![^\n]*__(?:device|global)__)[ \t]*(?:(?:static|inline|extern)\s+)*[\w:<>]+[\s*&]+"
                                 rb"[A-Za-z_]\w*\s*\([^;{})\n]*(?<![\w$])(?:__half|half)(?![\w$])[^;{})\n]*\)\s*\{", re.M)


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"half" not in data or COMPAT in ctx.extra_includes:
        return
    main = next((m.start() for m in _MAIN.finditer(data) if not sweep.in_masked(m.start())), None) \
        if b"main" in data else None
    if (main is not None or sweep.matches_in_code(_HOST_HALF_FUNCTION)) and sweep.matches_in_code(_HALF) \
            or main is not None and any(not sweep.in_masked(m.start()) for m in _HALF_CONVERSION.finditer(data, main)):
        ctx.extra_includes.append(COMPAT)
