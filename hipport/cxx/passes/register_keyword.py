"""The `register` storage class, which C++17 removed.

nvcc accepts `register unsigned int i;` with a warning; HIP's compiler (clang) rejects it in C++17
and later, its default dialect, so older CUDA code (Rodinia, vendor samples) stops compiling after
the port.  The keyword has had no effect since C++11, so it is dropped with the blank after it.
C sources keep it: it is still valid C.
"""

from __future__ import annotations

from hipport.cxx.context import Context
from hipport.cxx.lexer import glued_before
from hipport.cxx.scan import Scan
from hipport import lazy_re

_REGISTER = lazy_re.compile(rb"register(?![\w$])[ \t]*")
_C_SOURCE = (".c",)


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"register" not in data or ctx.path.lower().endswith(_C_SOURCE):
        return
    for m in _REGISTER.finditer(data):
        start = m.start()
        if glued_before(data, start) or sweep.in_masked(start):
            continue
        ctx.edit(start, m.end(), b"", "register-keyword")
