"""A file's own float/double atomics, which HIP already defines.

CUDA has no `atomicMax(float*, float)` (nor `atomicMin`, `atomicSub`, `atomicCAS` on float and
double, nor `atomicAdd(double*)` before sm_60), so CUDA code defines them with a compare-and-swap
loop.  HIP defines every one of them, so after the port the file's definition is a redefinition
and does not compile.  The definition is kept for CUDA (HIP's NVIDIA platform) and left out on
AMD, where HIP's own (hardware) atomic serves the same calls: it is wrapped in
`#if !defined(__HIP_PLATFORM_AMD__)` … `#endif`, and reported (HP019).
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.lexer import glued_before
from hipport.cxx.scan import Scan

_DEFINITION = re.compile(
    rb"atomic(?:Add|Sub|Exch|Min|Max|CAS)\s*\(\s*(?:volatile\s+)?(?:float|double)\s*\*[^;{}()]*\)\s*\{")
_GUARD = b"#if !defined(__HIP_PLATFORM_AMD__)"


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"atomic" not in data or b"__device__" not in data:
        return
    for m in _DEFINITION.finditer(data):
        name_at = m.start()
        if glued_before(data, name_at, b".>:"):
            continue  # another name, a member, a qualified call
        if sweep.in_masked(name_at):
            continue
        start = _declaration_start(data, name_at)
        if b"__device__" not in data[start:name_at]:
            continue  # a host function of the user's, or a call (`x = atomicMax(p, v) {`) — not ours
        body_end = _matching_brace(data, m.end() - 1, sweep)
        if body_end is None:
            continue
        line_start = data.rfind(b"\n", 0, start) + 1
        if data.startswith(_GUARD, data.rfind(b"\n", 0, max(line_start - 1, 0)) + 1):
            continue  # guarded already (a second translation)
        line_end = data.find(b"\n", body_end)
        if data[line_start:start].strip() or (line_end >= 0 and data[body_end + 1:line_end].strip(b" \t\r")):
            continue  # the definition shares its lines with other code: a guard cannot isolate it
        nl = ctx.newline
        signature = b" ".join(data[name_at:m.end() - 1].split()).decode("ascii", "replace")
        ctx.edit(line_start, line_start, _GUARD + b"  // HIP defines it" + nl, "native-atomic")
        end = len(data) if line_end < 0 else line_end + 1
        ctx.edit(end, end, (nl if line_end < 0 else b"") + b"#endif" + nl, "native-atomic")
        ctx.sink.add("HP019", f"HIP already defines {signature}; this definition is kept for CUDA only",
                     name_at, hint="on AMD, HIP's own atomic (a hardware instruction where the GPU has one) serves the calls")


def _declaration_start(data: bytes, name_at: int) -> int:
    """Start of the line where the definition begins: the name's line, and the lines above it that
    carry only its specifiers (`__device__`, `static inline float`), not code, comments or
    directives."""
    start = data.rfind(b"\n", 0, name_at) + 1
    while start > 0:
        above = data.rfind(b"\n", 0, start - 1) + 1
        line = data[above:start].strip()
        if not line or line.startswith((b"#", b"//", b"/*", b"*")) or line.endswith((b";", b"}", b"{", b"*/", b"\\")):
            break
        start = above
    return start + len(data[start:name_at]) - len(data[start:name_at].lstrip())


def _matching_brace(data: bytes, open_at: int, sweep: Scan) -> int | None:
    depth = 0
    pos = open_at
    n = len(data)
    while pos < n:
        brace = min((p for p in (data.find(b"{", pos), data.find(b"}", pos)) if p >= 0), default=-1)
        if brace < 0:
            return None
        pos = brace + 1
        if sweep.in_masked(brace):
            continue
        depth += 1 if data[brace] == 0x7B else -1
        if depth == 0:
            return brace
    return None
