"""`cuda\\<newline>Malloc`: an identifier that a backslash-newline (a line splice) cuts in two.

The preprocessor removes splices before it forms tokens, so to the compiler this is
`cudaMalloc`, and hipify-clang renames it; to a sweep over bytes it is two words, neither of them
a CUDA name.  Before the passes run, each splice inside a CUDA-looking identifier moves to just
after it (`cudaMalloc\\<newline>`): the same program, the same line count, and one token every
pass can see.  Identifiers that no rule could match keep their bytes; splices in comments and
literals are left alone.
"""

from __future__ import annotations

from hipport.cxx.scan import ident_pattern, masked_spans, outside
from hipport import lazy_re

_SPLICE = lazy_re.compile(rb"\\\r?\n")
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
_SPLIT_IDENT = lazy_re.compile(rb"(?<![\w$])[A-Za-z_$][\w$]*(?:\\\r?\n[\w$]+)+")


def _has_split_word(data: bytes) -> bool:
    """A quick test (a literal-led sweep; macros are full of splices, between words)."""
    return any(m.start() > 0 and data[m.start() - 1] in _WORD and data[m.end():m.end() + 1] and data[m.end()] in _WORD
               for m in _SPLICE.finditer(data))


def join_split_identifiers(data: bytes, prefixes: tuple[str, ...]) -> bytes:
    """*data* with the splices inside identifiers that start with one of *prefixes* moved to
    the identifier's end."""
    if b"\\" not in data or not _has_split_word(data):
        return data
    wanted = ident_pattern(prefixes)
    splits = outside([m.span() for m in _SPLIT_IDENT.finditer(data)], masked_spans(data))
    pieces, last = [], 0
    for start, end in splits:
        text = data[start:end]
        joined = _SPLICE.sub(b"", text)
        if not wanted.fullmatch(joined):
            continue
        pieces += [data[last:start], joined, b"".join(_SPLICE.findall(text))]
        last = end
    if not pieces:
        return data
    pieces.append(data[last:])
    return b"".join(pieces)
