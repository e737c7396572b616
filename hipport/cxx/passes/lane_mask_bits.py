"""`__popc(__ballot_sync(…))`, `__ffs(__ballot_sync(…)) - 1`: a lane mask counted in 32 bits.

HIP's `__ballot`, `__activemask` and `__match_*_sync` return 64-bit masks (a wavefront has 64
lanes); `__popc` and `__ffs` take an `unsigned int`, so the vote count or the leader pick silently
ignores lanes 32-63.  Their 64-bit twins (`__popcll`, `__ffsll`) give the same answer for CUDA's
32-bit masks and the right one for AMD's, so the call is rewritten (the HP011 check reports the
masks kept in 32-bit variables).
"""

from __future__ import annotations

from hipport.cxx.context import Context
from hipport.cxx.lexer import glued_before
from hipport.cxx.scan import Scan
from hipport import lazy_re

_NARROW_COUNT = lazy_re.compile(rb"__(popc|ffs)(\s*\(\s*)(?=(?:__ballot(?:_sync)?|__activemask|__match_(?:any|all)_sync)\s*\()")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"__popc" not in data and b"__ffs" not in data:
        return
    for m in _NARROW_COUNT.finditer(data):
        if glued_before(data, m.start()) or sweep.in_masked(m.start()):
            continue
        ctx.edit(m.end(1), m.end(1), b"ll", "lane-mask-bits")
