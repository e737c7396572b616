"""The bulk pass: a few regex sweeps that find every place a later pass may care about.

It records (a) candidate identifiers — only those starting with a prefix some rule or pass
knows, so the Python loop runs per candidate, not per token —, (b) preprocessor directives,
(c) ``<<<`` launch openers, and (d) the spans of comments and literals, which other passes use
to reject matches of their own targeted regexes (:meth:`Scan.in_masked`).

Python's regex engine is fast when a pattern's first character is a literal or a small set
(it skips non-starting positions in C) and slow when every position opens an alternation, so
each concern gets its own pattern of that shape, and the results are merged in one linear walk.
tests/test_lexer.py checks the sweep against the full lexer (and that against libclang).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from hipport import lazy_re
from hipport.cxx.lexer import BOM

# Comments and literals; the first character is one of / " ' R u U L, so other positions are
# skipped fast.  Raw strings and encoding prefixes are recognised only at a word start.
_AT_WORD_START = rb"(?:(?<![\w$]{q})|(?<=[^\w$][uUL]{q})|(?<=[^\w$]u8{q}))"
# A quote inside a number (`1'000'000`, `0xFF'FF`) separates digits; after anything else (`u'x'`,
# `case'a'`, the `don't` of prose in an `#if 0` block) it opens a character literal, as for the
# compiler.  Looked back at from past the quote: a word that starts with a digit, up to 32 long.
_DIGIT_SEPARATOR = rb"(?:" + rb"|".join(rb"(?<=(?<![\w$.])[0-9][\w'.]{%d}')" % k for k in range(32)) + rb")"
_COMMENT_OR_QUOTED = (
    rb"/(?:\\\r?\n)*(?:/(?:[^\\\r\n]|\\(?:\r\n?|\n|.))*|\*(?s:.*?)(?:\*/|\Z))"  # (`/\` + newline + `*`: spliced)
    rb"|\"[^\"\\\n]*(?:\\(?s:.)[^\"\\\n]*)*\"?"
    rb"|'(?!" + _DIGIT_SEPARATOR + rb")[^'\\\n]*(?:\\(?s:.)[^'\\\n]*)*'?"
)
MASKED_RE = lazy_re.compile(
    _COMMENT_OR_QUOTED
    + rb"|R" + _AT_WORD_START.replace(b"{q}", b"R") + rb"\"(?P<delim>[^()\\\s\"]{0,16})\((?s:.*?)\)(?P=delim)\""
)
# The same without raw strings, for the many files with no `R"`: every `R` in an identifier
# would otherwise stop the sweep for a look-behind (a third of its time).
_MASKED_NO_RAW_RE = lazy_re.compile(_COMMENT_OR_QUOTED)
LAUNCH_RE = lazy_re.compile(rb"<<<")


def _trie(words: list[str]) -> str:
    root: dict = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = [re.escape(k) + emit(v) for k, v in sorted(node.items()) if k]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(root)


@lru_cache(maxsize=8)
def _ident_source(prefixes: tuple[str, ...]) -> bytes:
    return rb"\b" + _trie(list(prefixes)).encode() + rb"[\w$]*"


@lru_cache(maxsize=8)
def ident_pattern(prefixes: tuple[str, ...]) -> re.Pattern:
    """Identifiers starting with one of *prefixes*, as a trie (one branch test per character)."""
    return re.compile(_ident_source(prefixes))


@dataclass
class Scan:
    data: bytes
    idents: list[tuple[int, int]] = field(default_factory=list)
    directives: list[int] = field(default_factory=list)  # offset of the '#'
    launches: list[int] = field(default_factory=list)
    masked: list[tuple[int, int]] = field(default_factory=list)  # comments and literals
    _mask_starts: list[int] | None = None

    def matches_in_code(self, pattern: re.Pattern) -> bool:
        """Does *pattern* match anywhere outside comments and literals?"""
        return any(not self.in_masked(m.start()) for m in pattern.finditer(self.data))

    def in_masked(self, offset: int) -> bool:
        if self._mask_starts is None:
            self._mask_starts = [s for s, _ in self.masked]
        i = bisect_right(self._mask_starts, offset) - 1
        return i >= 0 and self.masked[i][0] <= offset < self.masked[i][1]

    def masked_span(self, offset: int) -> tuple[int, int] | None:
        """The comment or literal holding *offset*, if any."""
        if self._mask_starts is None:
            self._mask_starts = [s for s, _ in self.masked]
        i = bisect_right(self._mask_starts, offset) - 1
        return self.masked[i] if i >= 0 and self.masked[i][0] <= offset < self.masked[i][1] else None


def _directives(data: bytes) -> list[int]:
    """Offsets of every '#' that only blanks precede on its line.  Searching for '#' and looking
    back is several times faster than ``^[ \t]*#`` (which tries every line start)."""
    out = []
    find, rfind = data.find, data.rfind
    pos = find(b"#")
    while pos >= 0:
        line_start = rfind(b"\n", 0, pos) + 1
        if line_start == 0 and data.startswith(BOM):
            line_start = len(BOM)  # the byte-order mark is not part of the first line
        if line_start == pos or not data[line_start:pos].strip(b" \t"):
            out.append(pos)
        pos = find(b"#", pos + 1)
    return out


def masked_spans(data: bytes) -> list[tuple[int, int]]:
    """Comment and literal spans, in order, never nested (a match resumes after the last)."""
    pattern = MASKED_RE if b'R"' in data else _MASKED_NO_RAW_RE
    return [m.span() for m in pattern.finditer(data)]


def outside(positions, masked: list[tuple[int, int]]):
    """Items whose start is outside every masked span (both inputs sorted; linear merge)."""
    out = []
    i, n = 0, len(masked)
    for item in positions:
        start = item[0] if isinstance(item, tuple) else item
        while i < n and masked[i][1] <= start:
            i += 1
        if i < n and masked[i][0] <= start:
            continue
        out.append(item)
    return out


@lru_cache(maxsize=8)
def _sweep_pattern(prefixes: tuple[str, ...], raw: bool) -> re.Pattern:
    """Comments, literals and candidate identifiers in one pattern: a literal is consumed whole, so
    the names inside it are never candidates, and no second walk has to sort them out."""
    masked = MASKED_RE.pattern if raw else _COMMENT_OR_QUOTED
    return re.compile(masked + rb"|(?P<ident>" + _ident_source(prefixes) + rb")")


def _whole_identifiers(data: bytes, idents: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Candidates that are whole identifiers: `$cudaFree`, `écudaFree` and `cudaMallocé` are the
    user's own names (compilers take `$` and UTF-8 letters in identifiers), which `\b` alone, an
    ASCII word boundary, would cut.  Checked after the sweep, for the rare files that have them."""
    n = len(data)
    return [(s, e) for s, e in idents
            if not (s and (data[s - 1] == 0x24 or data[s - 1] >= 0x80)) and not (e < n and data[e] >= 0x80)]


def scan(data: bytes, prefixes: tuple[str, ...]) -> Scan:
    masked: list[tuple[int, int]] = []
    idents: list[tuple[int, int]] = []
    add_masked, add_ident = masked.append, idents.append
    for m in _sweep_pattern(prefixes, b'R"' in data).finditer(data):
        if m.lastgroup == "ident":
            add_ident(m.span())
        else:
            add_masked(m.span())
    if idents and (b"$" in data or not data.isascii()):
        idents = _whole_identifiers(data, idents)
    directives = _directives(data)
    launches = [m.start() for m in LAUNCH_RE.finditer(data)] if b"<<<" in data else []
    return Scan(
        data,
        idents=idents,
        directives=outside(directives, masked) if masked else directives,
        launches=outside(launches, masked) if masked else launches,
        masked=masked,
    )
