"""Braced initializers that narrow: nvcc and g++ warn, clang (hipcc) rejects them.

    Barrier barrier{count, gridDim.x, sense};     // unsigned -> int
    int lane{threadIdx.x & 31};
    dim3 grid = {(n + 255) / 256, 1};             // int -> unsigned
    new Node{threadIdx.x, key};

nvcc reports #2361-D "invalid narrowing conversion" and compiles; hipcc stops with
-Wc++11-narrowing, an error by default.  Rewriting each list needs the types clang sees (which
member, which constructor), so the file tells clang to accept them as nvcc does.  (A pragma
cannot make this diagnostic a mere warning: clang keeps it an error unless it is ignored.)
Only a file with a braced list of run-time values gets the pragma; `{0}` and `{1, 2, 3}`
cannot narrow there.
"""

from __future__ import annotations

from hipport import lazy_re
from hipport.cxx.context import Context
from hipport.cxx.scan import Scan

# one line, with no `#if defined(__clang__)` around it: a conditional there would stand between
# an include guard's `#ifndef` and its `#define` (where the runtime include goes) and hide the guard;
# other compilers ignore a clang pragma
PRAGMA = b'#pragma clang diagnostic ignored "-Wc++11-narrowing"'
_C_SOURCE = (".c",)
_CUDA_SOURCE = (".cu", ".cuh")

# Where a `{` opens a list rather than a block: after `=`, `return`, `(`, `,`, another `{`, or
# a name directly (`int n{x}`, `Node{…}`) — not after a keyword that opens a block.
_BLOCK_KEYWORDS = frozenset(b"""else do try const override final noexcept mutable namespace struct class union
enum extern volatile __device__ __host__""".split())
_WORD_BEFORE = lazy_re.compile(rb"[A-Za-z_]\w*\Z")
_BLOCK_HEAD = lazy_re.compile(rb"\b(?:struct|class|union|enum|namespace)\b[^;{}()]*\Z")
_CONSTANT = lazy_re.compile(rb"(?<![\w$.])\.?\d(?:[\w.']|[eEpP][-+])*|\b(?:sizeof|alignof)\s*\([^()]*\)")
_NAME = lazy_re.compile(rb"[A-Za-z_]")
_DESIGNATOR = lazy_re.compile(rb"\.\s*[A-Za-z_]\w*\s*=(?!=)")
_WORD = lazy_re.compile(rb"[A-Za-z_]\w*")
_CONSTANT_NAMES = frozenset({b"true", b"false", b"nullptr", b"NULL"})


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if PRAGMA in data or ctx.path.lower().endswith(_C_SOURCE):
        return
    if not (ctx.edits or ctx.needs_hip_runtime or ctx.path.lower().endswith(_CUDA_SOURCE)):
        return  # C++ without CUDA in it: its own compiler, not hipcc, builds it
    if _has_run_time_list(data, sweep) or (b'"' in data and _headers_have_one(ctx)):
        ctx.extra_lines.append(PRAGMA)


def _headers_have_one(ctx: Context) -> bool:
    """A CUDA-free project header the file includes (`return {a, b};` from longs): hipcc compiles
    it as part of this file, and its own translation has no CUDA to add the pragma for."""
    from hipport.cxx.project_headers import included_texts
    from hipport.cxx.scan import masked_spans

    return any(PRAGMA not in t and _has_run_time_list(t, Scan(t, masked=masked_spans(t)))
               for t in included_texts(ctx) if b"{" in t)


def _has_run_time_list(data: bytes, sweep: Scan) -> bool:
    """Is there a `{` that opens a list (after `=`, `return`, `(`, `,`, `{`, `>` or a name that is no
    block keyword) holding a run-time value?  Each `{` is found by a literal search and what
    precedes it read back: a pattern that starts with that alternation would try every position."""
    find = data.find
    brace = find(b"{")
    while brace >= 0:
        before = brace - 1
        while before >= 0 and data[before] in b" \t":
            before -= 1
        c = data[before] if before >= 0 else 0
        opens = c in b"=(,{>"
        if not opens and (0x30 <= c <= 0x39 or 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A or c == 0x5F):
            word = _WORD_BEFORE.search(data, max(0, before - 40), before + 1)
            opens = word is not None and word.group() not in _BLOCK_KEYWORDS and \
                not _BLOCK_HEAD.search(data, max(0, before - 200), word.start())
        if opens and not sweep.in_masked(brace) and not _directive_line(data, brace):
            content = _list_content(data, brace)
            if content is not None and _run_time_value(content):
                return True
        brace = find(b"{", brace + 1)
    return False


def _directive_line(data: bytes, at: int) -> bool:
    line = data.rfind(b"\n", 0, at) + 1
    return data[line:at].lstrip(b" \t").startswith(b"#")


def _list_content(data: bytes, brace: int) -> bytes | None:
    """The text up to the matching `}` when it reads as a list (no `;`: a block has statements)."""
    depth, i, n = 0, brace, min(len(data), brace + 400)
    while i < n:
        c = data[i]
        if c == 0x7B:  # {
            depth += 1
        elif c == 0x7D:  # }
            depth -= 1
            if depth == 0:
                return data[brace + 1:i]
        elif c == 0x3B:  # ;
            return None
        i += 1
    return None


def _run_time_value(content: bytes) -> bool:
    """A name other than a literal's suffix, `sizeof` and the like (or a designator's `.x =`): a
    value that may narrow."""
    text = _CONSTANT.sub(b"0", _DESIGNATOR.sub(b"", content))
    return _NAME.search(text) is not None and any(m.group() not in _CONSTANT_NAMES for m in _WORD.finditer(text))
