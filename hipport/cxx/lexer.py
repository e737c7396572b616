"""A byte-level C/C++/CUDA lexer built on one compiled regular expression.

libclang's tokenizer through the Python bindings runs at about 5 MB/s; this classifier runs an
order of magnitude faster because the regex engine skips whitespace and punctuation in C.
It only needs to know what the passes need: comments, string/char literals (including raw
strings and encoding prefixes), numbers (pp-numbers, so ``0x1cu`` is not an identifier),
identifiers, preprocessor directive starts, and a few punctuators (``<<<``, ``>>>``).
tests/test_lexer.py checks it against libclang's lexer over real headers.

Everything works on ``bytes`` so that offsets are byte offsets and undecodable bytes in
comments (latin-1 authors' names) pass through untouched.
"""

from __future__ import annotations

import re
from typing import Iterator, NamedTuple
from hipport import lazy_re

COMMENT, STRING, CHAR, NUMBER, IDENT, DIRECTIVE, PUNCT = (
    "comment", "string", "char", "number", "ident", "directive", "punct",
)

_PREFIX = rb"(?:u8|[uUL])?"
TOKEN_RE = lazy_re.compile(
    rb"(?P<comment>/(?:\\\r?\n)*(?:/(?:[^\\\r\n]|\\(?:\r\n?|\n|.))*|\*(?s:.*?)(?:\*/|\Z)))"
    rb"|(?P<string>" + _PREFIX + rb"R\"(?P<delim>[^()\\\s\"]{0,16})\((?s:.*?)\)(?P=delim)\""
    rb"|" + _PREFIX + rb"\"(?:[^\"\\\n]|\\(?s:.))*\"?)"
    rb"|(?P<char>" + _PREFIX + rb"'(?:[^'\\\n]|\\(?s:.))*'?)"
    rb"|(?P<number>\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*)"
    rb"|(?P<ident>[A-Za-z_$][\w$]*)"
    rb"|(?P<directive>^[ \t]*\#)"
    rb"|(?P<punct><<<|>>>|::|->|[(){}\[\];,<>.&*=#])",
    re.MULTILINE,
)


# The rest of a line after a declaration: blanks, one-line block comments, a `//` comment (with
# the lines a trailing backslash splices onto it), then the line end (group 1; empty at the end of
# the file).  A line inserted after this match is never swallowed by the comment.
LINE_TAIL = rb"[ \t]*(?:/\*(?:[^*\n]|\*(?!/))*\*/[ \t]*)*(?://(?:[^\\\r\n]|\\(?:\r\n?|\n|.))*)?(\r?\n|\Z)"
BOM = b"\xef\xbb\xbf"


def line_start(data: bytes, pos: int) -> int:
    """Start of the line holding *pos*; on the first line, after a byte-order mark."""
    start = data.rfind(b"\n", 0, pos) + 1
    return len(BOM) if start == 0 and data.startswith(BOM) and pos >= len(BOM) else start


class Token(NamedTuple):
    kind: str
    start: int
    end: int


def tokens(data: bytes) -> Iterator[Token]:
    """Every interesting token, in order (whitespace and other punctuators skipped)."""
    for m in TOKEN_RE.finditer(data):
        yield Token(m.lastgroup, m.start(), m.end())


def glued_before(data: bytes, pos: int, also: bytes = b"") -> bool:
    """Does the byte before *pos* continue an identifier (or is it one of *also*)?  The passes that
    search for a literal first (fast) check the word boundary with this."""
    return pos > 0 and (data[pos - 1:pos].isalnum() or data[pos - 1] in b"_$" + also)


def directive_end(data: bytes, start: int) -> int:
    """Offset of the newline ending the logical preprocessor line that starts at *start*.

    Backslash-newline continues the line; a block comment may span lines inside a directive.
    """
    pos = start
    n = len(data)
    while pos < n:
        nl = data.find(b"\n", pos)
        if nl == -1:
            return n
        # a block comment opened on this physical line and not closed continues the directive
        segment = data[pos:nl]
        opened = _open_block_comment(segment)
        if opened is not None:
            close = data.find(b"*/", pos + opened + 2)
            if close == -1:
                return n
            pos = close + 2
            continue
        back = nl - 1
        if back >= 0 and data[back:back + 1] == b"\r":
            back -= 1
        if back >= start and data[back:back + 1] == b"\\":
            pos = nl + 1
            continue
        return nl
    return n


def logical_line_start(data: bytes, offset: int) -> int:
    """Start of the logical line holding *offset* (following backslash continuations back)."""
    start = data.rfind(b"\n", 0, offset) + 1
    while start >= 2:
        prev_end = start - 1  # the '\n'
        back = prev_end - 1
        if back >= 0 and data[back:back + 1] == b"\r":
            back -= 1
        if back >= 0 and data[back:back + 1] == b"\\":
            start = data.rfind(b"\n", 0, back) + 1
            continue
        break
    return start


def in_directive(data: bytes, pos: int) -> bool:
    """Is *pos* on a preprocessor line (`#define SHOW(p, f) …`, continuations included)?"""
    line = logical_line_start(data, pos)
    return data[line:pos].lstrip(b" \t\xef\xbb\xbf").startswith(b"#")


_DEFINE_HEAD = lazy_re.compile(rb"[ \t\xef\xbb\xbf]*#[ \t]*define[ \t]+[A-Za-z_]\w*(?:\([^()\n]*\))?")


def outside_directives_or_in_macro_body(data: bytes, pos: int) -> bool:
    """Is *pos* in code, or in the body of a `#define` (after its name and parameters) — where an
    attribute or qualifier spelled in a macro (`#define BOUNDS(n) __launch_bounds__(n, 1, 2)`) takes
    the same rewrite as in code?"""
    line = logical_line_start(data, pos)
    if not data[line:pos].lstrip(b" \t\xef\xbb\xbf").startswith(b"#"):
        return True
    head = _DEFINE_HEAD.match(data, line)
    return head is not None and head.end() <= pos


def _open_block_comment(segment: bytes) -> int | None:
    """Offset in *segment* of a ``/*`` whose comment is not closed within the segment."""
    for m in TOKEN_RE.finditer(segment):
        if m.lastgroup == COMMENT and m.group().startswith(b"/*") and not m.group().endswith(b"*/"):
            return m.start()
    return None
