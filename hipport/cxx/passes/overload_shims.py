"""Overloads CUDA declares and HIP 5.2 does not: `atomicAdd` on `__half` / `__half2`,
`atomicMin` / `atomicMax` / `atomicAnd` / `atomicOr` / `atomicXor` on `long long` (the double-min idiom
`atomicMin((long long*)p, __double_as_longlong(v))`), the 16-bit `atomicCAS`, `__ldg` of a
`ushort4`, the surface reads that return their value (`surf2Dread<float>(surf, x, y)`), and
`sincos` / `sincospi` of a float (HIP's take doubles only), and `atomicAdd` of a float2 / float4.

The call keeps CUDA's spelling, so no rule names it and no rule can pull in the shim: a file that
calls one of these atomics and names the operand type gets `hipport/compat.h`, whose templates
serve the missing overloads and yield to a HIP that declares them.  Which overload a call picks
cannot be told from tokens, so any such file gets the header.
"""

from __future__ import annotations

from hipport.cxx.context import Context
from hipport.cxx.scan import Scan
from hipport import lazy_re

COMPAT = b"hipport/compat.h"
# (a word the file must contain, the call, the operand type): cheap test first, then in code only
_NEEDS = (
    (b"half", lazy_re.compile(rb"atomicAdd\s*\("), lazy_re.compile(rb"(?<![\w$])(?:__)?half2?(?![\w$])")),
    (b"float", lazy_re.compile(rb"atomicAdd(?:_system|_block)?\s*\("), lazy_re.compile(rb"\bfloat[24]\b")),
    (b"long", lazy_re.compile(rb"atomic(?:Min|Max|And|Or|Xor)(?:_system|_block)?\s*\("),
     lazy_re.compile(rb"(?<![\w$])(?:(?:signed\s+)?long\s+long(?!\s+unsigned)(?:\s+int)?\s*\*|longlong)")),
    (b"short", lazy_re.compile(rb"atomicCAS\s*\("), lazy_re.compile(rb"(?<![\w$])(?:unsigned\s+short|ushort|uint16_t)(?![\w$])")),
    (b"ushort4", lazy_re.compile(rb"__ldg\s*\("), lazy_re.compile(rb"ushort4")),
    (b"sincos", lazy_re.compile(rb"\bsincos(?:pi)?\s*\("), lazy_re.compile(rb"\bfloat\b")),
    (b"read", lazy_re.compile(rb"surf(?:[123]D|[12]DLayered|Cubemap|CubemapLayered)read\s*<"), lazy_re.compile(rb"surf")),
)


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if COMPAT in ctx.extra_includes:
        return
    for word, call, operand in _NEEDS:
        if word in data and call.search(data) and sweep.matches_in_code(call) and sweep.matches_in_code(operand):
            ctx.extra_includes.append(COMPAT)
            return
