"""`isnan(x)` in host code of a file that never includes <math.h>.

nvcc's cuda_runtime.h, which every .cu file gets, includes <math.h>, so CUDA host code calls
`isnan`, `isinf`, `isfinite`, `signbit`, `fpclassify` and `isnormal` unqualified without
including anything.  hip_runtime.h declares only the device overloads of these, so the host call
no longer compiles ("no matching function for call to 'isnan'"; <cmath> alone does not help, it
declares `std::isnan`).  Such a file gets `#include <math.h>` with the runtime include.
"""

from __future__ import annotations

from hipport.cxx.context import Context
from hipport.cxx.scan import Scan
from hipport import lazy_re

_CLASSIFY = lazy_re.compile(rb"(?<![\w$.:>])(?:isnan|isinf|isfinite|signbit|fpclassify|isnormal)\s*\(")
_MATH_H = lazy_re.compile(rb"#[ \t]*include[ \t]*[<\"]math\.h[>\"]")
MATH_H = b"math.h"


def run(ctx: Context, sweep: Scan) -> None:
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
