"""`std::printf` in a file with device code becomes `printf`.

CUDA declares the device-side printf in both namespaces, so kernels call `std::printf(…)`; HIP 5.2
declares it only as `::printf`, and `std::printf` in a kernel names the host function ("reference
to __host__ function 'printf' in __global__ function").  `printf` is the same function on the host
(<cstdio> declares both), so every `std::printf` of a file with kernels or device functions is
spelled `printf`.
"""

from __future__ import annotations

from hipport.cxx.context import Context
from hipport.cxx.lexer import glued_before
from hipport.cxx.scan import Scan
from hipport import lazy_re

_STD_PRINTF = lazy_re.compile(rb"std\s*::\s*(?=printf\s*\()")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"printf" not in data or (b"__global__" not in data and b"__device__" not in data):
        return
    for m in _STD_PRINTF.finditer(data):
        if sweep.in_masked(m.start()) or glued_before(data, m.start(), b":"):
            continue
        ctx.edit(m.start(), m.end(), b"", "device-printf")
