"""`__device__ __shared__ float tile[16];` inside a kernel: a qualifier nvcc tolerates on a local.

`__shared__` alone makes a block-shared local; nvcc also accepts `__device__` beside it (it is
implied), clang does not ("__device__ is not allowed on non-static local variables").  Inside a
function body the `__device__` is dropped; at namespace scope, or on a `static` local, the pair
is valid and stays (ISPASS-2009's DG kernels).  In a macro's body, which may be used in either
place, it is dropped too: `__shared__` alone means the same at namespace scope.
"""

from __future__ import annotations

from hipport.cxx.context import Context
from hipport.cxx.definitions import enclosing_blocks
from hipport.cxx.lexer import glued_before, in_directive, outside_directives_or_in_macro_body
from hipport.cxx.scan import Scan
from hipport import lazy_re

# each alternative starts with a literal (a fast search); group 1 is the `__device__` to drop
_PAIR = lazy_re.compile(rb"(__device__[ \t]+)__shared__\b|__shared__([ \t]+__device__)(?![\w$])")
_STATIC = lazy_re.compile(rb"\bstatic\b(?=[^;{}()]*\Z)")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"__shared__" not in data or b"__device__" not in data:
        return
    spans = [m.span(1) if m.group(1) else m.span(2) for m in _PAIR.finditer(data)
             if not glued_before(data, m.start()) and not sweep.in_masked(m.start())]
    if not spans:
        return
    by_start = dict(spans)
    for pos in [p for p in by_start if in_directive(data, p)]:
        if outside_directives_or_in_macro_body(data, pos):  # `#define TILE(n) __device__ __shared__ float t[n]`
            ctx.edit(pos, by_start[pos], b"", "shared-local")
        del by_start[pos]
    for pos, opens in enclosing_blocks(data, sweep, sorted(by_start)):
        line_start = max(data.rfind(b";", 0, pos), data.rfind(b"{", 0, pos), data.rfind(b"}", 0, pos)) + 1
        static = any(not sweep.in_masked(m.start()) for m in _STATIC.finditer(data, line_start, pos))
        if opens and _in_function(data, opens) and not static:
            ctx.edit(pos, by_start[pos], b"", "shared-local")


def _in_function(data: bytes, opens: list[int]) -> bool:
    """Is one of the enclosing blocks a function body (its head closes a parameter list)?"""
    for open_at in opens:
        head_start = max(data.rfind(b";", 0, open_at), data.rfind(b"}", 0, open_at), data.rfind(b"{", 0, open_at)) + 1
        if data[head_start:open_at].rstrip().endswith((b")", b"const", b"noexcept")):
            return True
    return False
