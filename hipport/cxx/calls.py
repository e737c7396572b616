"""Bracket-aware reading of call arguments and expressions, over raw bytes.

Used by passes that restructure calls (kernel launches, HIP_SYMBOL, casts, completed default
arguments).  Comments and literals are skipped with the full lexer, so a ``)`` inside a string
does not end an argument list.
"""

from __future__ import annotations

from functools import lru_cache

from hipport.cxx.lexer import TOKEN_RE

_OPEN = {b"(": b")", b"[": b"]", b"{": b"}"}
_CLOSE = {b")", b"]", b"}"}
_WS = b" \t\r\n\f\v"


def skip_ws(data: bytes, pos: int) -> int:
    """Skip whitespace, comments and backslash-newlines forward."""
    n = len(data)
    while pos < n:
        c = data[pos:pos + 1]
        if c in (b" ", b"\t", b"\r", b"\n", b"\f", b"\v"):
            pos += 1
        elif c == b"\\" and data[pos + 1:pos + 2] in (b"\n", b"\r"):
            pos += 2
        elif data.startswith(b"//", pos):
            nl = data.find(b"\n", pos)
            while nl > 0 and data[nl - 1:nl] == b"\\" or nl > 1 and data[nl - 2:nl] == b"\\\r":
                nl = data.find(b"\n", nl + 1)  # `// C:\include\` continues on the next line
            pos = n if nl == -1 else nl
        elif data.startswith(b"/*", pos):
            end = data.find(b"*/", pos + 2)
            pos = n if end == -1 else end + 2
        else:
            break
    return pos


@lru_cache(maxsize=1 << 16)
def prev_nonspace(data: bytes, pos: int) -> int:
    """Index of the last code byte before *pos* (-1 if none).

    Skips whitespace, backslash-newlines, block comments and line comments, so that
    ``a(); // note`` on one line does not make the next line's first name look preceded by
    ``note``.  Several passes ask about the same identifiers, so answers are cached (a bytes
    object caches its hash, and the cache compares the one file by identity).
    """
    pos -= 1
    n = len(data)
    while pos >= 0:
        c = data[pos]
        if c in _WS:
            pos -= 1
            continue
        if c == 0x5C and pos + 1 < n and data[pos + 1] in b"\r\n":  # backslash-newline
            pos -= 1
            continue
        if c == 0x2F and pos >= 1 and data[pos - 1] == 0x2A:  # end of a block comment
            opened = data.rfind(b"/*", 0, pos - 1)
            if opened != -1:
                pos = opened - 1
                continue
        line_start, slashes = _line_start_and_slashes(data, pos)
        if slashes:
            comment = _line_comment_start(data, line_start, pos + 1)
            if comment is not None:
                pos = comment - 1
                continue
        break
    return pos


@lru_cache(maxsize=4)
def _lines_and_slashes(data: bytes) -> tuple[list[int], list[int]]:
    """The file's newline offsets and `//` offsets, found once: a file of one huge line (generated
    tables, minified code) would otherwise be searched from its start for every name on it."""
    import re

    return [m.start() for m in re.finditer(rb"\n", data)], [m.start() for m in re.finditer(rb"//", data)]


def _line_start_and_slashes(data: bytes, pos: int) -> tuple[int, bool]:
    """Start of the line holding *pos*, and whether a `//` starts on it at or before *pos*."""
    from bisect import bisect_left, bisect_right

    newlines, slashes = _lines_and_slashes(data)
    i = bisect_left(newlines, pos)  # (a newline at *pos* ends the line holding it)
    line_start = newlines[i - 1] + 1 if i else 0
    j = bisect_right(slashes, pos)
    return line_start, j > 0 and slashes[j - 1] >= line_start


def _line_comment_start(data: bytes, line_start: int, end: int) -> int | None:
    """Start of a ``//`` comment covering offset end-1 on this line, outside literals."""
    from hipport.cxx.scan import MASKED_RE

    for m in MASKED_RE.finditer(data, line_start, end):
        if m.start() < end <= m.end() + 1 and data.startswith(b"//", m.start()):
            return m.start()
    return None


def call_arguments(data: bytes, open_paren: int) -> tuple[list[tuple[int, int]], int] | None:
    """Spans of the top-level arguments of the call whose ``(`` is at *open_paren*.

    Returns (argument spans with surrounding whitespace trimmed, offset of the closing ``)``),
    or None when the parenthesis is not closed.  Commas nested in (), [], {} do not split;
    commas inside template argument lists are split, as clang's own lexer would before
    semantic analysis — callers that care check the argument count.
    """
    depth = 0
    args: list[tuple[int, int]] = []
    arg_start = open_paren + 1
    skip_to = -1
    for m in TOKEN_RE.finditer(data, open_paren):
        if m.start() < skip_to or m.lastgroup != "punct":
            continue
        tok = m.group()
        if tok == b"<" and depth >= 1:
            close = template_close(data, m.start())
            if close is not None:
                skip_to = close + 1
            continue
        if tok in _OPEN:
            depth += 1
        elif tok in _CLOSE:
            depth -= 1
            if depth == 0:
                args.append((arg_start, m.start()))
                spans = [_trim(data, s, e) for s, e in args]
                if len(spans) == 1 and spans[0][0] == spans[0][1]:
                    spans = []
                return spans, m.start()
        elif tok == b"," and depth == 1:
            args.append((arg_start, m.start()))
            arg_start = m.end()
        elif tok == b";" and depth == 1:
            return None
    return None


_TEMPLATE_TOKENS = frozenset({b"::", b",", b"*", b"&", b"(", b")", b"[", b"]", b"<", b">"})


def template_close(data: bytes, less: int) -> int | None:
    """Offset of the ``>`` closing a template argument list opened at *less*, or None.

    A ``<`` opens a template list only after a name (``k<float, 3>``), and only if the list
    holds what template arguments hold (names, numbers, ``::``, ``*``, ``&``, parentheses);
    ``a < b, c > d`` with operators or statements in between is a comparison.
    """
    before = prev_nonspace(data, less)
    if before < 0 or not (data[before:before + 1].isalnum() or data[before:before + 1] in (b"_", b"$")):
        return None
    depth = 0
    for m in TOKEN_RE.finditer(data, less):
        kind = m.lastgroup
        if kind in ("ident", "number", "comment"):
            continue
        if kind != "punct":
            return None
        tok = m.group()
        if tok == b"<":
            depth += 1
        elif tok == b">":
            depth -= 1
            if depth == 0:
                return m.start()
        elif tok == b">>>" or tok == b"<<<":
            return None
        elif tok not in _TEMPLATE_TOKENS:
            return None
    return None


def code_span(data: bytes, start: int, end: int) -> tuple[int, int]:
    """An argument span without the comments around it (`0, // count` then `NULL`): where a
    cast or a null-literal check must look, and where an edit must not swallow a comment."""
    first = last = None
    for m in TOKEN_RE.finditer(data, start, end):
        if m.lastgroup != "comment":
            first = m.start() if first is None else first
            last = m.end()
    return (start, end) if first is None else (first, last)


def _trim(data: bytes, start: int, end: int) -> tuple[int, int]:
    while start < end and data[start] in _WS:
        start += 1
    while end > start and data[end - 1] in _WS:
        end -= 1
    return start, end


def expression_start(data: bytes, end: int) -> int | None:
    """Start of the postfix expression naming a kernel that ends just before *end*.

    Accepts qualified names with template arguments: ``ns::k<T, (N > 2)>``, ``&k``, ``(k)``.
    """
    pos = prev_nonspace(data, end)
    if pos < 0:
        return None
    while True:
        c = data[pos:pos + 1]
        if c == b">":  # template argument list: walk back to the matching '<'
            depth = parens = 0  # '<' and '>' inside parentheses are comparisons: (N > 2)
            while pos >= 0:
                ch = data[pos:pos + 1]
                if ch == b")":
                    parens += 1
                elif ch == b"(":
                    parens -= 1
                elif parens:
                    pass
                elif ch == b">":
                    depth += 1
                elif ch == b"<":
                    depth -= 1
                    if depth == 0:
                        break
                elif ch in (b";", b"{", b"}"):
                    return None
                pos -= 1
            if pos < 0:
                return None
            pos = prev_nonspace(data, pos)
            if pos < 0:
                return None
            continue
        if c == b")":  # parenthesised kernel expression
            depth = 0
            while pos >= 0:
                ch = data[pos:pos + 1]
                if ch == b")":
                    depth += 1
                elif ch == b"(":
                    depth -= 1
                    if depth == 0:
                        break
                pos -= 1
            return pos if pos >= 0 else None
        if c.isalnum() or c in (b"_", b"$"):
            while pos > 0 and (data[pos - 1:pos].isalnum() or data[pos - 1:pos] in (b"_", b"$")):
                pos -= 1
            before = prev_nonspace(data, pos)
            if before >= 1 and data[before - 1:before + 1] == b"##":  # `add_##name##_kernel` in a macro body
                glued = prev_nonspace(data, before - 1)
                if glued >= 0 and (data[glued:glued + 1].isalnum() or data[glued:glued + 1] in (b"_", b"$")):
                    pos = glued
                    continue
            if before >= 1 and data[before - 1:before + 1] == b"::":
                pos = prev_nonspace(data, before - 1)
                if pos < 0 or not (data[pos:pos + 1].isalnum() or data[pos:pos + 1] in (b"_", b">")) \
                        or b"\n" in data[pos:before - 1] or _word_ending(data, pos) in _KEYWORDS_BEFORE_EXPRESSION:
                    return before - 1  # leading '::' (`else ::ns::k`, a line that opens with it)
                continue
            if before >= 0 and (data[before:before + 1] == b"." or data[before - 1:before + 1] == b"->"):
                # a member: `this->kern`, `(*this).kern`, `r.kern`
                receiver = receiver_start(data, before if data[before:before + 1] == b"." else before - 1)
                return receiver if receiver is not None else pos
            if before >= 0 and data[before:before + 1] in (b"&", b"*"):
                # '&k' / '*k' when the operator is unary: at a statement or argument start
                op_before = prev_nonspace(data, before)
                if op_before < 0 or data[op_before:op_before + 1] in (b"(", b",", b";", b"{", b"}", b"="):
                    return before
            return pos
        return None


_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_KEYWORDS_BEFORE_EXPRESSION = frozenset(b"else do return case goto throw co_return co_yield co_await new delete".split())


def _word_ending(data: bytes, end: int) -> bytes:
    """The identifier whose last character is at *end*."""
    start = end
    while start > 0 and data[start - 1] in _WORD:
        start -= 1
    return data[start:end + 1]


def receiver_start(data: bytes, dot: int) -> int | None:
    """Start of the object expression that ends right before the *dot* (or arrow) of a member
    call: a chain of names joined by `.`, `->` and `::`, with calls, subscripts and template
    arguments (`t`, `p->tile`, `cg::this_grid()`, `cg::tiled_partition<32>(b)`, `(t)`, `ts[i]`);
    None when there is none."""
    i = dot
    while True:
        i = _back_over_space(data, i)
        grouped = False
        while i > 0 and data[i - 1] in b")]":  # `f(x)`, `(t)`, `a[i]`: the group, then its callee, adjacent
            i = _matching_open(data, i - 1)
            if i is None:
                return None
            grouped = True
            if i > 1 and data[i - 1] == 0x3E and data[i - 2] != 0x2D:  # `tiled_partition<32>(b)`
                i = _matching_open(data, i - 1, b"<", b">")
                if i is None:
                    return None
        end = i
        while i > 0 and data[i - 1] in _WORD:
            i -= 1
        if i == end and not grouped or i < end and data[i] in b"0123456789":
            return None
        j = _back_over_space(data, i)
        if j > 1 and data[j - 2:j] == b"::":  # `cg::this_grid`, `::ns::x`
            i = j - 2
            continue
        if j > 0 and data[j - 1] == 0x2E and not (j > 1 and data[j - 2] == 0x2E):  # '.'
            i = j - 1
        elif j > 1 and data[j - 2:j] == b"->":
            i = j - 2
        else:
            return i


def _back_over_space(data: bytes, i: int) -> int:
    while i > 0 and data[i - 1] in b" \t\r\n":
        i -= 1
    return i


def matching_close(data: bytes, open_pos: int, limit: int = 4000) -> int | None:
    """Offset of the bracket that closes the one at *open_pos* (any of `([{`, nested ones
    balanced; comments and literals are not told apart); None past *limit* bytes or when a
    bracket closes what it did not open."""
    pairs = {0x28: 0x29, 0x5B: 0x5D, 0x7B: 0x7D}
    stack = []
    for i in range(open_pos, min(len(data), open_pos + limit)):
        c = data[i]
        if c in pairs:
            stack.append(pairs[c])
        elif c in (0x29, 0x5D, 0x7D):
            if not stack or stack.pop() != c:
                return None
            if not stack:
                return i
    return None


def _matching_open(data: bytes, close: int, opening: bytes = b"([", closing: bytes = b")]") -> int | None:
    """Offset of the bracket that the one at *close* closes, scanning back (balanced, same line
    run of at most a few hundred bytes); None when it cannot be told."""
    depth = 0
    for k in range(close, max(-1, close - 400), -1):
        c = data[k:k + 1]
        if c in closing:
            depth += 1
        elif c in opening:
            depth -= 1
            if depth == 0:
                return k
        elif c in b";{}":
            return None
    return None
