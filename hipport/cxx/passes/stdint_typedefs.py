"""A file's own `typedef unsigned long long uint64_t;`, which <stdint.h> declares otherwise.

nvcc's CUDA headers leave <stdint.h> out of a translation unit that does not include it, so code
(darknet's im2col kernels) may name the 64-bit integers itself.  hip_runtime.h includes
<stdint.h>, whose `uint64_t` is `unsigned long` on Linux: the file's `unsigned long long` typedef
is then a conflicting redefinition.  The typedef is kept for CUDA and left out on AMD, where the
standard one serves (same size and signedness): it is wrapped in `#if !defined(__HIP_PLATFORM_AMD__)`
… `#endif`, and reported (HP019).
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.lexer import BOM, LINE_TAIL
from hipport.cxx.scan import Scan
from hipport import lazy_re

_TYPEDEF = lazy_re.compile(rb"^(?:" + BOM + rb")?[ \t]*typedef[ \t]+(?:(?:unsigned|signed)[ \t]+)?long[ \t]+long(?:[ \t]+int)?[ \t]+"
                           rb"(u?int64_t)[ \t]*;" + LINE_TAIL, re.M)
_GUARD = b"#if !defined(__HIP_PLATFORM_AMD__)  // <stdint.h>, which hip_runtime.h includes, declares it"


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"int64_t" not in data or b"typedef" not in data:
        return
    nl = ctx.newline
    for m in _TYPEDEF.finditer(data):
        start = len(BOM) if m.start() == 0 and data.startswith(BOM) else m.start()  # (the mark stays first)
        if sweep.in_masked(start) or data[:start].endswith(_GUARD + nl):
            continue
        ctx.edit(start, start, _GUARD + nl, "stdint-typedef")
        ctx.edit(m.start(2), m.start(2), nl + b"#endif" + (b"" if m.group(2) else nl), "stdint-typedef")
        ctx.sink.add("HP019", f"<stdint.h> declares {m.group(1).decode()} (as a long, on Linux); this typedef is "
                     "kept for CUDA only", m.start(1), hint="include <cstdint> instead of defining it")
