"""Brace lists of `__half_raw` / `__half2_raw` name the bits, as CUDA declares the members.

CUDA's raw types are plain structs (`unsigned short x[, y]`), so `__half_raw inf = {0x7C00};`
holds the bits of +infinity.  HIP's put a `_Float16 data` (`_Float16_2` for the pair) first in an
anonymous union, so the same list initializes the *value*: 31744.0 — silently wrong, and the
pair's `{a, b}` does not compile ("excess elements").  Designating the members
(`{.x = 0x7C00}`, `{.x = a, .y = b}`) says what CUDA's list meant; clang takes the designators in
every language mode.  Declarations (each declarator of one), temporaries and arrays of them
(DeepSpeed's reduction identities), assignments to a variable declared so, and `return {…}` in a
function returning one are rewritten; a list that already designates is left.
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


# `, kOne = {0x3C00}` / `, spare` after a declarator: the declaration goes on
_NEXT_DECLARATOR = lazy_re.compile(rb"\s*,\s*([A-Za-z_]\w*)((?:\s*\[[^\]\[;{}]*\])+)?\s*(=?\s*\{)?")
_RAW_FUNCTION_HEAD = lazy_re.compile(rb"__half(2?)_raw(?![\w$])\s+(?:[\w:]+::)?[A-Za-z_]\w*\s*\(")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"_raw" not in data:
        return
    declared: dict[bytes, bytes] = {}  # variable -> "" or "2"
    done: set[int] = set()  # the lists designated (a declarator's is an assignment's too)
    for m in _RAW_LIST.finditer(data):
        if sweep.in_masked(m.start()) or glued_before(data, m.start(), b".>:"):
            continue
        members = _MEMBERS[m.group(1)]
        end = _rewrite_list(ctx, data, m.end() - 1, members, bool(m.group(3)), done)
        if not m.group(2) or end is None:
            continue
        declared[m.group(2).split(b"[")[0].strip()] = m.group(1)
        while (d := _NEXT_DECLARATOR.match(data, end)) is not None:  # `kMax = {0x7BFF}, kOne = {0x3C00};`
            declared[d.group(1)] = m.group(1)
            end = _rewrite_list(ctx, data, d.end() - 1, members, bool(d.group(2)), done) if d.group(3) else d.end()
            if end is None:
                break
    if b"= {" in data or b"={" in data or b"=\n" in data or b"= \n" in data:
        _assignments(ctx, sweep, declared, done)
    if b"return" in data and (b"_raw " in data or b"_raw\t" in data):
        _returns(ctx, sweep, done)


def _rewrite_list(ctx: Context, data: bytes, brace: int, members: tuple[bytes, ...], array: bool,
                  done: set[int]) -> int | None:
    """Designate the list opening at *brace* (once); just past it (None when it does not parse)."""
    parsed = call_arguments(data, brace)
    if parsed is None or brace in done:
        return None if parsed is None else parsed[1] + 1
    done.add(brace)
    if array:  # `__half_raw tbl[2] = {{0x3C00}, {0x4000}};`: each element's list
        for s, _e in parsed[0]:
            inner = call_arguments(data, s) if data[s:s + 1] == b"{" else None
            if inner is not None:
                _designate(ctx, data, inner[0], members)
    else:
        _designate(ctx, data, parsed[0], members)
    return parsed[1] + 1


_DECLARED = lazy_re.compile(rb"__half(2?)_raw(?![\w$])\s*(?:const\s+)?([A-Za-z_]\w*)\s*(?=[;,=)\[{])")


def _assignments(ctx: Context, sweep: Scan, declared: dict[bytes, bytes], done: set[int]) -> None:
    """`h = {0x3C00};` to a variable (or parameter) the file declares `__half_raw`, and as nothing else."""
    import re

    data = ctx.data
    for m in _DECLARED.finditer(data):
        if not sweep.in_masked(m.start()) and not glued_before(data, m.start(), b".>:"):
            declared.setdefault(m.group(2), m.group(1))
    names = [n for n in declared if not _declared_otherwise(data, n)]
    if not names:
        return
    alternatives = b"|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    for m in re.finditer(rb"(?<![\w$.>])(" + alternatives + rb")(\s*\[[^\]\[;{}]*\])?\s*=\s*\{", data):
        if not sweep.in_masked(m.start()):
            _rewrite_list(ctx, data, m.end() - 1, _MEMBERS[declared[m.group(1)]], False, done)  # (one element's list)


_NOT_TYPES = frozenset((b"__half_raw", b"__half2_raw", b"const", b"static", b"return", b"else", b"case", b"goto"))


def _declared_otherwise(data: bytes, name: bytes) -> bool:
    import re

    return any(d.group(1) not in _NOT_TYPES for d in
               re.finditer(rb"(?<![\w$])([A-Za-z_][\w:]*)[\s*&]+" + re.escape(name) + rb"\s*[;,=)\[]", data))


def _returns(ctx: Context, sweep: Scan, done: set[int]) -> None:
    """`return {0x3C00};` in a function that returns a `__half_raw` by value."""
    import re
    from hipport.cxx.definitions import enclosing_function_head

    data = ctx.data
    for m in re.finditer(rb"(?<![\w$])return\s*\{", data):
        if sweep.in_masked(m.start()):
            continue
        head = enclosing_function_head(data, m.start(), sweep)
        kind = _RAW_FUNCTION_HEAD.search(head) if head is not None else None
        if kind is not None:
            _rewrite_list(ctx, data, m.end() - 1, _MEMBERS[kind.group(1)], False, done)


def _designate(ctx: Context, data: bytes, items: list[tuple[int, int]], members: tuple[bytes, ...]) -> None:
    if not items or len(items) > len(members) or any(data.startswith(b".", s) for s, _e in items):
        return  # `{}` (zero on both), a list that does not fit, or one that designates already
    for (s, _e), member in zip(items, members):
        ctx.edit(s, s, b"." + member + b" = ", "half-raw-designated")
