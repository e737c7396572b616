"""Python source bytes: decoding by the file's own declaration, and libcst positions → bytes.

libcst reports positions as (line, column in characters of the decoded text).  Diagnostics and
edits are placed by *byte* offset in the original file, so every position is converted through
:class:`OffsetMap`, which encodes the line prefix with the file's encoding (UTF-8 with or without
BOM, or whatever a PEP 263 cookie declares, e.g. latin-1).  Because libcst's columns have corner
cases (a form feed at the start of a line is not counted), :meth:`OffsetMap.locate` checks the
bytes found there against the node's own code and searches the line when they differ; a fix is
only offered for a node whose bytes were found exactly.
"""

from __future__ import annotations

import codecs
import io
import tokenize
from bisect import bisect_right
from dataclasses import dataclass
from hipport import lazy_re


class SourceError(Exception):
    """The bytes cannot be analysed: undecodable, an unknown coding cookie, or bad syntax."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str  # codec name usable with str.encode (never "utf-8-sig")
    base: int  # bytes before the text proper (3 for a UTF-8 BOM)


def decode(data: bytes) -> Decoded:
    """Decode like the interpreter does: BOM, then a PEP 263 cookie, else UTF-8."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:  # unknown codec in the cookie, or a BOM/cookie conflict
        raise SourceError(f"bad encoding declaration: {exc.msg if hasattr(exc, 'msg') else exc}") from None
    base = 0
    if encoding == "utf-8-sig":
        encoding, base = "utf-8", len(codecs.BOM_UTF8)
    try:
        text = data[base:].decode(encoding)
    except UnicodeDecodeError as exc:
        offset = base + exc.start
        raise SourceError(f"cannot decode as {encoding} (byte 0x{data[offset]:02x} at offset {offset}); "
                          f"declare the file's encoding with a '# -*- coding: ... -*-' line",
                          offset) from None
    except LookupError:
        raise SourceError(f"unknown encoding {encoding!r}") from None
    return Decoded(text, encoding, base)


_LINE_END = lazy_re.compile(r"\r\n|\r|\n")


class OffsetMap:
    """(line, character column) of the decoded text ↔ byte offsets of the original file."""

    def __init__(self, data: bytes, decoded: Decoded):
        self.data = data
        self.encoding = decoded.encoding
        text = decoded.text
        char_starts = [0]
        char_starts.extend(m.end() for m in _LINE_END.finditer(text))
        self.lines: list[str] = [text[a:b] for a, b in zip(char_starts, char_starts[1:] + [len(text)])]
        byte_starts = [decoded.base]
        for line in self.lines[:-1]:
            byte_starts.append(byte_starts[-1] + len(line.encode(self.encoding)))
        self.byte_starts = byte_starts

    def offset(self, line: int, column: int) -> int:
        """Byte offset of a 1-based line and 0-based character column (clamped to the file)."""
        if line < 1:
            return 0
        if line > len(self.lines):
            return len(self.data)
        text = self.lines[line - 1]
        return self.byte_starts[line - 1] + len(text[:column].encode(self.encoding, "replace"))

    def line_span(self, offset: int) -> tuple[int, int]:
        """Byte range of the line holding *offset*, without its line ending."""
        index = max(bisect_right(self.byte_starts, offset) - 1, 0)
        start = self.byte_starts[index]
        end = start + len(self.lines[index].rstrip("\r\n").encode(self.encoding, "replace"))
        return start, end

    def locate(self, line: int, column: int, code: bytes) -> int | None:
        """Byte offset where *code* (a node's own bytes) starts at about (line, column).

        Returns None when the bytes cannot be found unambiguously, in which case callers must
        not edit there.
        """
        guess = self.offset(line, column)
        if self.data.startswith(code, guess):
            return guess
        start, end = self.line_span(guess)
        hits = []
        pos = self.data.find(code, start)
        while pos != -1 and pos <= end:
            hits.append(pos)
            pos = self.data.find(code, pos + 1)
        if len(hits) == 1:
            return hits[0]
        return None
