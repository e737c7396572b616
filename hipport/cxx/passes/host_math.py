"""`isnan(x)` in host code of a file that never includes <math.h>.

nvcc's cuda_runtime.h, which every .cu file gets, includes <math.h>, so CUDA host code calls
`isnan`, `isinf`, `isfinite`, `signbit`, `fpclassify` and `isnormal` unqualified without
including anything.  hip_runtime.h declares only the device overloads of these, so the host call
no longer compiles ("no matching function for call to 'isnan'"; <cmath> alone does not help, it
declares `std::isnan`).  Such a file gets `#include <math.h>` with the runtime include.

CUDA's own math library is host-and-device too: a CPU reference calls `rsqrtf`, `normcdff` or
`erfinvf` (llm.c's rmsnorm reference).  HIP declares those for device code only; a file that calls
one outside device code gets hipport/compat.h, whose host overloads sit beside HIP's device ones.
"""

from __future__ import annotations

from hipport.cxx.context import Context
from hipport.cxx.scan import Scan
from hipport import lazy_re

_CLASSIFY = lazy_re.compile(rb"(?<![\w$.:>])(?:isnan|isinf|isfinite|signbit|fpclassify|isnormal)\s*\(")
_MATH_H = lazy_re.compile(rb"#[ \t]*include[ \t]*[<\"]math\.h[>\"]")
MATH_H = b"math.h"


# CUDA math functions the C library lacks and HIP declares for device code only
_CUDA_ONLY_MATH = lazy_re.compile(rb"(?<![\w$.:>])(?:rsqrt|rcbrt|erfinv|erfcinv|erfcx|normcdf|normcdfinv|sincospi|rhypot|"
                                  rb"r?norm3d|r?norm4d)f?\s*\(")
COMPAT = b"hipport/compat.h"


def run(ctx: Context, sweep: Scan) -> None:
    _cuda_math_on_the_host(ctx, sweep)
    _classification_without_math_h(ctx, sweep)


def _cuda_math_on_the_host(ctx: Context, sweep: Scan) -> None:
    from hipport.cxx.definitions import enclosing_function_head

    data = ctx.data
    if COMPAT in ctx.extra_includes or not (b"rsqrt" in data or b"rcbrt" in data or b"erf" in data or b"norm" in data
                                             or b"sincospi" in data or b"rhypot" in data):
        return
    for m in _CUDA_ONLY_MATH.finditer(data):
        if sweep.in_masked(m.start()):
            continue
        head = enclosing_function_head(data, m.start(), sweep)
        # host code, host-and-device code (its host side), or an initializer at namespace scope
        if head is None or b"__host__" in head or (b"__device__" not in head and b"__global__" not in head):
            ctx.extra_includes.append(COMPAT)
            return


def _classification_without_math_h(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if not (b"isnan" in data or b"isinf" in data or b"isfinite" in data or b"signbit" in data
            or b"fpclassify" in data or b"isnormal" in data):
        return
    if MATH_H in ctx.extra_includes or _MATH_H.search(data):
        return
    if not (ctx.path.endswith((".cu", ".cuh")) or ctx.needs_hip_runtime or b"cuda" in data):
        return  # not CUDA code: nvcc's implicit headers never applied
    if sweep.matches_in_code(_CLASSIFY):
        ctx.extra_includes.append(MATH_H)
