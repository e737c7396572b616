"""`__popc(__ballot_sync(…))`, `__ffs(__ballot_sync(…)) - 1`: a lane mask counted in 32 bits.

HIP's `__ballot`, `__activemask` and `__match_*_sync` return 64-bit masks (a wavefront has 64
lanes); `__popc` and `__ffs` take an `unsigned int`, so the vote count or the leader pick silently
ignores lanes 32-63.  Their 64-bit twins (`__popcll`, `__ffsll`) give the same answer for CUDA's
32-bit masks and the right one for AMD's, so the call is rewritten.

A mask declared in a 32-bit variable (`unsigned mask = __activemask();`, the warp-aggregated
atomics idiom) loses lanes 32-63 the same way: the variable becomes `unsigned long long`, the type
HIP's vote functions return, and the `__popc` / `__ffs` of expressions using it in its block become
`__popcll` / `__ffsll`.  Masks kept in 32 bits otherwise (an assignment, a field) stay reported
(HP011).
"""

from __future__ import annotations

import re

from hipport.cxx.calls import call_arguments, skip_ws
from hipport.cxx.context import Context
from hipport.cxx.definitions import enclosing_braces, matching_brace
from hipport.cxx.lexer import glued_before
from hipport.cxx.scan import Scan
from hipport import lazy_re

_NARROW_COUNT = lazy_re.compile(rb"__(popc|ffs)(\s*\(\s*)(?=(?:__ballot(?:_sync)?|__activemask|__match_(?:any|all)_sync)\s*\()")


_MASK_CALL = lazy_re.compile(rb"__(?:ballot(?:_sync)?|activemask|match_(?:any|all)_sync)\s*\(")
_DECLARED_BEFORE = lazy_re.compile(rb"(?<![\w$])(unsigned(?:\s+int)?|uint32_t|int|int32_t)\s+([A-Za-z_]\w*)\s*=\s*\Z")
_COUNT = lazy_re.compile(rb"__(popc|ffs)\s*\(")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    counted: set[int] = set()
    if b"__popc" in data or b"__ffs" in data:
        for m in _NARROW_COUNT.finditer(data):
            if glued_before(data, m.start()) or sweep.in_masked(m.start()):
                continue
            ctx.edit(m.end(1), m.end(1), b"ll", "lane-mask-bits")
            counted.add(m.end(1))
            parsed = call_arguments(data, data.index(b"(", m.end(1)))
            if parsed is not None and len(parsed[0]) == 1:
                _widen_lane_bits(ctx, *parsed[0][0])
    if b"__ballot" in data or b"__activemask" in data or b"__match_" in data:
        narrow_names: set[bytes] | None = None  # declared 32-bit (read once, when a store needs it)
        for m in _MASK_CALL.finditer(data):
            declared = _DECLARED_BEFORE.search(data, max(0, m.start() - 64), m.start())
            if glued_before(data, m.start()) or sweep.in_masked(m.start()):
                continue
            if declared is None:
                if narrow_names is None and _STORED_BEFORE.search(data, max(0, m.start() - 64), m.start()):
                    narrow_names = {d.group(1) for d in _NARROW_DECLARATION.finditer(data)}
                _report_narrow_store(ctx, sweep, m.start(), narrow_names or set())
                continue
            call = call_arguments(data, m.end() - 1)
            if call is not None and data[skip_ws(data, call[1] + 1):skip_ws(data, call[1] + 1) + 1] == b";":
                _widen(ctx, sweep, declared, counted)  # (not `unsigned vote = __ballot(p), lane = …;`)


# calls that take the mask whole: the counts (made 64-bit here) and the warp intrinsics' mask
_MASK_TAKERS = lazy_re.compile(rb"(?:__(?:popc|ffs)(?:ll)?|__\w+_sync|__syncwarp)\s*\Z")


_STORED_BEFORE = lazy_re.compile(rb"(?:(?<![\w$.>])([A-Za-z_]\w*)|(?:\.|->)\s*([A-Za-z_]\w*))\s*=\s*\Z")
_RETURNED_BEFORE = lazy_re.compile(rb"(?<![\w$])return\s*\Z")
_FUNCTION_HEAD = lazy_re.compile(rb"(?<![\w$])(?:unsigned(?:\s+int)?|uint32_t|int|int32_t)\s+[A-Za-z_]\w*\s*\([^;{}]*\)\s*\Z")


_NARROW_DECLARATION = lazy_re.compile(rb"\b(?:unsigned(?:\s+int)?|uint32_t|int32_t|int)\s+([A-Za-z_]\w*)\s*[;,=]")


def _report_narrow_store(ctx: Context, sweep: Scan, call: int, narrow_names: set[bytes]) -> None:
    """`m = __ballot_sync(…)` into a variable or field declared 32-bit, or `return __ballot(…)`
    from a function returning 32 bits: the mask loses lanes 32-63 there (HP011)."""
    data = ctx.data
    stored = _STORED_BEFORE.search(data, max(0, call - 64), call)
    narrow = False
    if stored is not None:
        narrow = (stored.group(1) or stored.group(2)) in narrow_names
    elif _RETURNED_BEFORE.search(data, max(0, call - 16), call):
        body = next(enclosing_braces(data, call, sweep, reach=4000), None)  # a wrapper: `unsigned warp_ballot(int p) { return __ballot_sync(…); }`
        narrow = body is not None and _FUNCTION_HEAD.search(data, max(0, body - 300), body) is not None
    if narrow:
        ctx.sink.add("HP011", "lane mask stored or returned in 32 bits; HIP's __ballot/__activemask/__match_*_sync "
                     "return 64 bits", call, hint="give it 64 bits (unsigned long long)")


def _widens_safely(data: bytes, start: int, end: int) -> bool:
    """A use that a 64-bit mask serves as well: an operand (`m & bit`, `m >> 1`, `!m`), a count, a
    warp intrinsic's mask.  Not its address (`atomicOr(&m, …)`), nor the whole argument of
    another function, whose `unsigned&` parameter or template deduction wants the 32-bit type."""
    before = data[max(0, start - 32):start].rstrip()
    if before.endswith(b"&") and not before.endswith(b"&&") and before[:-1].rstrip()[-1:] in b"(,=":
        return False  # `atomicOr(&mask, …)`: its address has the 32-bit type
    after = data[skip_ws(data, end):skip_ws(data, end) + 1]
    if before[-1:] not in (b"(", b",") or after not in (b")", b","):
        return True
    open_paren = _call_open(data, start)
    return open_paren is not None and _MASK_TAKERS.search(data, max(0, open_paren - 48), open_paren) is not None


def _call_open(data: bytes, at: int) -> int | None:
    """The `(` of the call whose argument list holds *at*."""
    depth = 0
    for i in range(at - 1, max(-1, at - 2000), -1):
        c = data[i]
        if c in b")]}":
            depth += 1
        elif c in b"([{":
            if depth == 0:
                return i if c == 0x28 else None
            depth -= 1
        elif c == 0x3B:  # ;
            return None
    return None


def _widen(ctx: Context, sweep: Scan, declared, counted: set[int]) -> None:
    """`unsigned mask = __ballot_sync(…)` → `unsigned long long mask = …`, and the counts of it."""
    data = ctx.data
    block = next(enclosing_braces(data, declared.start(), sweep), None)
    end = matching_brace(data, block, sweep) if block is not None else None
    if end is None:
        return  # not in a function body
    name = re.compile(rb"(?<![\w$.])" + re.escape(declared.group(2)) + rb"(?![\w$])")
    for use in name.finditer(data, declared.end(), end):
        if not _widens_safely(data, use.start(), use.end()):
            return
    ctx.edit(declared.start(1), declared.end(1), b"unsigned long long", "lane-mask-bits")
    ctx.resolved_hazards.add(declared.start())
    for use in name.finditer(data, declared.end(), end):
        before = data[max(0, use.start() - 16):use.start()].rstrip()
        stored = before.endswith(b"=") and not before.endswith((b"==", b"!=", b"<=", b">="))
        if (stored or _RETURNED_BEFORE.search(before)) and data[skip_ws(data, use.end()):skip_ws(data, use.end()) + 1] == b";":
            ctx.sink.add("HP011", f"the lane mask '{declared.group(2).decode()}' (now 64 bits) is stored or returned "
                         "here; a 32-bit destination drops lanes 32-63", use.start(), end=use.end(),
                         hint="give the destination 64 bits (unsigned long long)")
    for m in _COUNT.finditer(data, declared.end(), end):
        parsed = call_arguments(data, m.end() - 1)
        if m.end(1) in counted or glued_before(data, m.start()) or sweep.in_masked(m.start()) or parsed is None:
            continue
        (arguments, _close) = parsed
        if len(arguments) == 1 and name.search(data, *arguments[0]):
            ctx.edit(m.end(1), m.end(1), b"ll", "lane-mask-bits")
            counted.add(m.end(1))
            _widen_lane_bits(ctx, *arguments[0])


_ONE_SHIFTED = lazy_re.compile(rb"(?<![\w$.])1(?:[uU](?![lL]))?(?=\s*<<)")


def _widen_lane_bits(ctx: Context, start: int, end: int) -> None:
    """`__popcll(b & ((1 << lane) - 1))`: the lanes-below mask, 32-bit `1 << lane`, is undefined for
    lanes 32-63 of a wavefront; `1ull << lane` counts them."""
    for m in _ONE_SHIFTED.finditer(ctx.data, start, end):
        ctx.edit(m.start(), m.end(), b"1ull", "lane-mask-bits")
