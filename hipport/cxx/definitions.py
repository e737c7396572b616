"""Whole function definitions found from one match inside them: where they start and end, and
a preprocessor guard around them.

Why: a few passes keep a user's definition for one platform only (a float atomic HIP already
defines, an overload HIP's merged types turn into a redefinition).  Wrapping the whole definition,
specifiers and body included, in ``#if`` … ``#endif`` leaves every byte of it as written.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.lexer import LINE_TAIL
from hipport.cxx.scan import Scan
from hipport import lazy_re


def declaration_start(data: bytes, name_at: int) -> int:
    """Start of the line where the definition begins: the name's line, and the lines above it that
    carry only its specifiers (`__device__`, `static inline float`), not code, comments or
    directives."""
    start = data.rfind(b"\n", 0, name_at) + 1
    while start > 0:
        above = data.rfind(b"\n", 0, start - 1) + 1
        line = data[above:start].strip()
        if not line or line.startswith((b"#", b"//", b"/*", b"*")):
            break
        if b"//" in line:  # `float F::get() const { return x; }  // note`: the code before the comment
            line = line[:line.index(b"//")].rstrip()
        if line.endswith(b"*/") and b"/*" in line:  # `inline __device__ /* note */`: likewise
            line = line[:line.rindex(b"/*")].rstrip()
            if not line:
                break
        if line.endswith((b";", b"}", b"{", b"*/", b"\\")):
            break
        start = above
    return start + len(data[start:name_at]) - len(data[start:name_at].lstrip())


def matching_brace(data: bytes, open_at: int, sweep: Scan) -> int | None:
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


def enclosing_braces(data: bytes, at: int, sweep: Scan, reach: int = 20000):
    """The `{` of each block holding *at*, innermost first (comments and literals skipped; the
    search looks back at most *reach* bytes)."""
    depth, i, floor = 0, at, max(0, at - reach)
    while i > floor:
        i -= 1
        c = data[i]
        if c == 0x7D and not sweep.in_masked(i):  # '}'
            depth += 1
        elif c == 0x7B and not sweep.in_masked(i):  # '{'
            if depth:
                depth -= 1
            else:
                yield i


def wrap_definition(ctx: Context, sweep: Scan, start: int, open_brace: int, guard: bytes, rule: str) -> bool:
    """Put the definition from *start* to the brace matching *open_brace* between *guard* and
    ``#endif`` on lines of their own.  False when it cannot be isolated on its lines, or is
    guarded so already (a second translation)."""
    data = ctx.data
    body_end = matching_brace(data, open_brace, sweep)
    if body_end is None:
        return False
    line_start = data.rfind(b"\n", 0, start) + 1
    if data.startswith(guard.split(b"  //")[0], data.rfind(b"\n", 0, max(line_start - 1, 0)) + 1):
        return False
    tail = _LINE_TAIL.match(data, body_end + 1)  # `}`, perhaps `;` and comments (`}  // atomicMax(float)`)
    if data[line_start:start].strip() or tail is None:
        return False  # the definition shares its lines with other code
    nl = ctx.newline
    ctx.edit(line_start, line_start, guard + nl, rule)
    at = tail.start(1)  # before the line's own break: a guard opening on the next line comes after this end
    ctx.edit(at, at, nl + b"#endif" + (b"" if tail.group(1) else nl), rule)
    return True


_LINE_TAIL = lazy_re.compile(rb"[ \t]*;?" + LINE_TAIL)


def enclosing_blocks(data: bytes, sweep: Scan, positions):
    """(position, the openings of the {…} blocks around it, outermost first) for each of the
    sorted *positions*, in one walk over the braces outside comments and literals."""
    pending = iter(positions)
    next_pos = next(pending, None)
    stack: list[int] = []
    for m in re.finditer(rb"[{}]", data):
        pos = m.start()
        while next_pos is not None and next_pos < pos:
            yield next_pos, list(stack)
            next_pos = next(pending, None)
        if next_pos is None:
            return
        if sweep.in_masked(pos):
            continue
        if data[pos] == 0x7B:
            stack.append(pos)
        elif stack:
            stack.pop()
    while next_pos is not None:
        yield next_pos, list(stack)
        next_pos = next(pending, None)


_FUNCTION_HEAD = lazy_re.compile(rb"\)\s*(?:const\s*|noexcept\s*|override\s*|final\s*|->\s*[\w:<>*& ]+)*\Z")
_LAMBDA_HEAD = lazy_re.compile(rb"\]\s*(?:\([^()]*\))?[^;{}\]]*\Z")


def enclosing_function_head(data: bytes, at: int, sweep: Scan) -> bytes | None:
    """The head (from the statement before it to its `{`) of the function whose body holds *at*;
    a lambda's body counts as its enclosing function's.  None at namespace or class scope."""
    for brace in enclosing_braces(data, at, sweep, reach=65536):
        head_start = max(data.rfind(b";", 0, brace), data.rfind(b"}", 0, brace), data.rfind(b"{", 0, brace)) + 1
        head = data[head_start:brace]
        if _LAMBDA_HEAD.search(head):
            continue
        if _FUNCTION_HEAD.search(head):
            return head
    return None
