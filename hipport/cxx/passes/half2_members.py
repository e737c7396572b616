"""`h.x` / `h.y` of a `half2` / `__half2` read as the `half` CUDA declares them.

CUDA's `__half2` members `x` and `y` are `__half`; HIP's are the raw `unsigned short` bits, so
`(float)h.x` compiles on both and is silently wrong on AMD (it converts the bit pattern).
hipify-clang rewrites such a member access to `reinterpret_cast<half&>(h.x)`, right on both and
still assignable; this pass does the same where the lexer can tell the object is a `half2` or
`__half2`: a variable, parameter, array element or pointee declared with that type.  hipify-clang
only rewrites the spelling `half2` and non-const objects; `__half2`, `p->x` and a `const half2`
(which gets `reinterpret_cast<const half&>`) are just as wrong on AMD, so they are rewritten too.
A name the file also declares with another type is left alone, so a `float2 v` in another
function is never touched; struct fields are left alone too, since whether the object holding
one is const cannot be told from tokens.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.lexer import TOKEN_RE, directive_end

_HALF2 = re.compile(rb"\b(?:__)?half2\b")
_HALF2_TYPES = frozenset((b"half2", b"__half2"))
_ENDS_DECLARATOR = frozenset((b";", b",", b"=", b")", b"[", b"{", b":"))
_POINTER_PARTS = frozenset((b"*", b"&", b"const", b"__restrict__", b"__restrict", b"volatile"))
# words that precede a name without declaring it (`return v;`, `case k:` ...)
_NOT_TYPES = frozenset(b"""return else case goto throw delete new sizeof typedef using namespace co_return
co_yield co_await operator public private protected template typename decltype alignof noexcept
static_assert struct class union enum""".split())


def run(ctx: Context) -> None:
    data = ctx.data
    if _HALF2.search(data) is None:
        return
    tokens = _code_tokens(data)
    texts = [t for t, _, _ in tokens]
    names = _half2_names(texts)
    if not names:
        return
    for k in range(2, len(texts)):
        if texts[k] not in (b"x", b"y") or texts[k - 1] not in (b".", b"->"):
            continue
        first, subscripted = k - 2, texts[k - 1] == b"->"  # p->x: p points at a half2
        if texts[first] == b"]" and not subscripted:
            first = _opening(texts, first, b"[", b"]") - 1
            subscripted = True
        if first < 0 or names.get(texts[first], (None,))[0] != subscripted:
            continue
        if first >= 1 and texts[first - 1] in (b".", b"->", b"::"):  # a field, or another scope's name
            continue
        wrap = b"reinterpret_cast<const half&>(" if names[texts[first]][1] else b"reinterpret_cast<half&>("
        if _already_wrapped(texts, first):
            continue
        ctx.edit(tokens[first][1], tokens[first][1], wrap, "half2-member")
        ctx.edit(tokens[k][2], tokens[k][2], b")", "half2-member")


def _code_tokens(data: bytes) -> list[tuple[bytes, int, int]]:
    """Tokens outside comments, literals and preprocessor lines (macro bodies cannot be scoped)."""
    out = []
    i = 0
    while (m := TOKEN_RE.search(data, i)) is not None:
        i = max(m.end(), i + 1)
        group = m.lastgroup
        if group == "directive":
            i = directive_end(data, m.end()) + 1
        elif group not in ("comment", "string", "char"):
            out.append((m.group(), m.start(), m.end()))
    return out


def _half2_names(texts: list[bytes]) -> dict[bytes, tuple[bool, bool]]:
    """Name -> (subscripted: an array or pointer, const) for the names declared as half2 objects,
    without the names the file declares otherwise too."""
    half2: dict[bytes, tuple[bool, bool]] = {}
    other: set[bytes] = set()
    count = len(texts)
    for k in range(count - 2):
        word = texts[k]
        if word in _HALF2_TYPES:
            if k >= 1 and texts[k - 1] in (b"::", b".", b"->"):
                continue  # a qualified name
            const = k >= 1 and texts[k - 1] == b"const"
            statement = not _in_parens(texts, k)
            j = k + 1
            while True:
                declared = _declarator(texts, j, const)
                if declared is None:
                    break
                name, kind, j = declared
                if half2.get(name, kind) != kind:
                    other.add(name)
                half2[name] = kind
                j = _declarator_end(texts, j) if statement else -1
                if j < 0 or texts[j] != b",":
                    break
                j += 1
            continue
        name, after = texts[k + 1], texts[k + 2]
        if not _is_ident(name) or after not in _ENDS_DECLARATOR:
            continue
        if _is_ident(word) and word not in _NOT_TYPES and word not in _POINTER_PARTS:
            other.add(name)  # `float2 v`, `auto v`
        elif word in (b"*", b"&"):
            j = k
            while j >= 0 and texts[j] in _POINTER_PARTS:
                j -= 1
            if j < 0 or texts[j] not in _HALF2_TYPES:
                other.add(name)  # `float2 *v`; `a * v;` is a product, and skipping v then is only cautious
    return {name: kind for name, kind in half2.items() if name not in other}


def _declarator(texts: list[bytes], j: int, const: bool) -> tuple[bytes, tuple[bool, bool], int] | None:
    """After `half2` (or a declarator's comma): `v`, `&v`, `*p`, `const v`, `v[4]` -> (name, kind, next index)."""
    pointer = False
    while j < len(texts) and texts[j] in _POINTER_PARTS:
        if texts[j] == b"*":
            pointer = True
        elif texts[j] == b"const" and not pointer:
            const = True
        j += 1
    if j + 1 < len(texts) and _is_ident(texts[j]) and texts[j] not in _NOT_TYPES and texts[j + 1] in _ENDS_DECLARATOR:
        return texts[j], (pointer or texts[j + 1] == b"[", const), j + 1
    return None


def _declarator_end(texts: list[bytes], j: int) -> int:
    """Index of the ',' or ';' that ends the declarator whose initialiser or bounds start at j."""
    depth = 0
    while j < len(texts):
        t = texts[j]
        if t in (b"(", b"[", b"{"):
            depth += 1
        elif t in (b")", b"]", b"}"):
            depth -= 1
            if depth < 0:
                return -1
        elif depth == 0 and t in (b",", b";"):
            return j
        j += 1
    return -1


def _in_parens(texts: list[bytes], k: int) -> bool:
    """Is token k inside the (...) of its statement: a parameter, not a declaration statement?"""
    depth = 0
    for j in range(k - 1, max(k - 400, -1), -1):
        t = texts[j]
        if t in (b")", b"]"):
            depth += 1
        elif t in (b"(", b"["):
            if depth == 0:
                return True
            depth -= 1
        elif t in (b";", b"{", b"}"):
            return False
    return False


def _opening(texts: list[bytes], j: int, opener: bytes, closer: bytes) -> int:
    depth = 0
    while j >= 0:
        if texts[j] == closer:
            depth += 1
        elif texts[j] == opener:
            depth -= 1
            if depth == 0:
                return j
        j -= 1
    return -1


def _already_wrapped(texts: list[bytes], first: int) -> bool:
    """`reinterpret_cast<half&>(h.x)` (or `<const half&>`) is left as it is: idempotence."""
    j = first - 1
    if j < 4 or texts[j] != b"(" or texts[j - 1] != b">" or texts[j - 2] != b"&" or texts[j - 3] != b"half":
        return False
    j -= 4
    if texts[j] == b"const":
        j -= 1
    return j >= 1 and texts[j] == b"<" and texts[j - 1] == b"reinterpret_cast"


def _is_ident(tok: bytes) -> bool:
    return tok[:1].isalpha() or tok[:1] == b"_"
