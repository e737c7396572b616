"""`cuda\\<newline>Malloc`: an identifier that a backslash-newline (a line splice) cuts in two.

The preprocessor removes splices before it forms tokens, so to the compiler this is
`cudaMalloc`, and hipify-clang renames it; to a sweep over bytes it is two words, neither of them
a CUDA name.  Before the passes run, each splice inside a CUDA-looking identifier moves to just
after it (`cudaMalloc\\<newline>`): the same program, the same line count, and one token every
pass can see.  Identifiers that name no rule keep their bytes; splices in comments and
literals are left alone.
"""

from __future__ import annotations

from hipport.cxx.scan import masked_spans, outside
from hipport import lazy_re

_SPLICE = lazy_re.compile(rb"\\\r?\n")
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
_SPLIT_IDENT = lazy_re.compile(rb"(?<![\w$])[A-Za-z_$][\w$]*(?:\\\r?\n[\w$]+)+")


def _has_split_word(data: bytes) -> bool:
    """A quick test (a literal-led sweep; macros are full of splices, between words)."""
    return any(m.start() > 0 and data[m.start() - 1] in _WORD and data[m.end():m.end() + 1] and data[m.end()] in _WORD
               for m in _SPLICE.finditer(data))


def join_split_identifiers(data: bytes, known) -> tuple[bytes, list[tuple[int, int]]]:
    """*data* with the splices inside identifiers that name one of *known* (a rule's CUDA name)
    moved to the identifier's end, and the spans (in the result) of the other split identifiers:
    those keep their bytes (`cudaFree\\<newline>List`), and their pieces are no names to rename."""
    if b"\\" not in data or not _has_split_word(data):
        return data, []
    splits = outside([m.span() for m in _SPLIT_IDENT.finditer(data)], masked_spans(data))
    pieces, last, kept = [], 0, []  # (moving a splice keeps every offset)
    for start, end in splits:
        text = data[start:end]
        joined = _SPLICE.sub(b"", text)
        if joined.decode("ascii", "replace") not in known:
            kept.append((start, end))
            continue
        pieces += [data[last:start], joined, b"".join(_SPLICE.findall(text))]
        last = end
    if not pieces:
        return data, kept
    pieces.append(data[last:])
    return b"".join(pieces), kept
