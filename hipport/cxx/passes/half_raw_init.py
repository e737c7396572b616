"""Brace lists of `__half_raw` / `__half2_raw` name the bits, as CUDA declares the members.

CUDA's raw types are plain structs (`unsigned short x[, y]`), so `__half_raw inf = {0x7C00};`
holds the bits of +infinity.  HIP's put a `_Float16 data` (`_Float16_2` for the pair) first in an
anonymous union, so the same list initializes the *value*: 31744.0 — silently wrong, and the
pair's `{a, b}` does not compile ("excess elements").  Designating the members
(`{.x = 0x7C00}`, `{.x = a, .y = b}`) says what CUDA's list meant; clang takes the designators in
every language mode.  Declarations, temporaries and arrays of them (DeepSpeed's reduction
identities) are rewritten; a list that already designates is left.
"""

from __future__ import annotations

from hipport.cxx.calls import call_arguments
from hipport.cxx.context import Context
from hipport.cxx.lexer import glued_before
from hipport.cxx.scan import Scan
from hipport import lazy_re

# the type, then a declarator (`inf`, `tbl[2]`) with `=` or a direct list, or a temporary
_RAW_LIST = lazy_re.compile(rb"__half(2?)_raw(?![\w$])(\s+[A-Za-z_]\w*((?:\s*\[[^\]\[;{}]*\])+)?)?\s*=?\s*\{")
_MEMBERS = {b"": (b"x",), b"2": (b"x", b"y")}


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"_raw" not in data:
        return
    for m in _RAW_LIST.finditer(data):
        if sweep.in_masked(m.start()) or glued_before(data, m.start(), b".>:"):
            continue
        parsed = call_arguments(data, m.end() - 1)
        if parsed is None:
            continue
        members = _MEMBERS[m.group(1)]
        if m.group(3):  # `__half_raw tbl[2] = {{0x3C00}, {0x4000}};`: each element's list
            for s, _e in parsed[0]:
                inner = call_arguments(data, s) if data[s:s + 1] == b"{" else None
                if inner is not None:
                    _designate(ctx, data, inner[0], members)
        else:
            _designate(ctx, data, parsed[0], members)


def _designate(ctx: Context, data: bytes, items: list[tuple[int, int]], members: tuple[bytes, ...]) -> None:
    if not items or len(items) > len(members) or any(data.startswith(b".", s) for s, _e in items):
        return  # `{}` (zero on both), a list that does not fit, or one that designates already
    for (s, _e), member in zip(items, members):
        ctx.edit(s, s, b"." + member + b" = ", "half-raw-designated")
