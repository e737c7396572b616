"""`h.x` / `h.y` of a `half2` / `__half2` read as the `half` CUDA declares them (and `h = {};`).

CUDA's `__half2` members `x` and `y` are `__half`; HIP's are the raw `unsigned short` bits, so
`(float)h.x` compiles on both and is silently wrong on AMD (it converts the bit pattern).
hipify-clang rewrites such a member access to `reinterpret_cast<half&>(h.x)`, right on both and
still assignable; this pass does the same where the lexer can tell the object is a `half2` or
`__half2`: a variable, parameter, array element or pointee declared with that type.  hipify-clang
only rewrites the spelling `half2` and non-const objects; `__half2`, `p->x` and a `const half2`
(which gets `reinterpret_cast<const half&>`) are just as wrong on AMD, so they are rewritten too.
A name the file also declares with another type is left alone, so a `float2 v` in another
function is never touched.  A field (`w.h.x`, `p->h.x`) gets `const half&` where it is read,
since whether the object holding it is const cannot be told from tokens, and `half&` where it
is written.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from hipport.cxx.calls import matching_close
from hipport.cxx.context import Context
from hipport.cxx.definitions import matching_brace
from hipport.cxx.lexer import directive_end, glued_before
from hipport.cxx.passes import half2_template_members
from hipport.cxx.scan import Scan
from hipport import lazy_re

_HALF2 = lazy_re.compile(rb"half2(?![\w$])")  # a literal first: the scan is a fast search; `__` is checked after
_CONST_BEFORE = lazy_re.compile(rb"(?<![\w$])const\s+\Z")
_CONST_AFTER = lazy_re.compile(rb"\s+const(?![\w$])")
# `half2 v`, `const half2 &v`, `half2 *p`, `half2 a[4]`, `half2 v, w;`
_DECLARATOR = lazy_re.compile(rb"((?:\s*[*&]|\s*\bconst\b|\s*\b__restrict__\b)*)\s*([A-Za-z_]\w*)\s*([;,=)\[{:(])")
# words that precede a name without declaring it (`return v;`, `case k:` ...)
_NOT_TYPES = frozenset(b"""return else case goto throw delete new sizeof typedef using namespace co_return
co_yield co_await operator public private protected template typename decltype alignof noexcept
static_assert struct class union enum const volatile __restrict__ half2 __half2""".split())
_TYPE_BEFORE = lazy_re.compile(rb"(?<![\w$])([A-Za-z_]\w*)(?:\s+(?:const|volatile|__restrict__)\b)*[\s*&]+(?:const\s+)?\Z")
_WRAPPED = lazy_re.compile(rb"reinterpret_cast\s*<\s*(?:const\s+)?half\s*&\s*>\s*\(\s*$")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"half2" not in data:
        return
    skip = _Skipped(data, sweep)
    half2_template_members.run(ctx, sweep, skip)
    declared = _declarations(data, skip)
    if not declared.half2:
        return
    names = declared.unambiguous()
    scoped = b"|".join(re.escape(n) for n in sorted(declared.half2, key=len, reverse=True))
    # `\b` first, not a look-behind: the engine then skips non-word positions fast
    use = re.compile(rb"\b(" + scoped + rb")\s*(\[(?:[^\[\]]|\[[^\[\]]*\])*\])?\s*(\.|->)\s*([xy])(?![\w$])")
    read_only = _ReadOnlyBodies(data, sweep)
    for m in use.finditer(data):
        start = m.start()
        if data[start - 1:start] in (b".", b"$") or skip(start):
            continue
        before = data[max(0, start - 64):start]
        if before.rstrip().endswith((b"->", b"::")) or _WRAPPED.search(before):
            continue  # a field of something else, another scope's name, or already fixed
        kind = declared.kind_at(m.group(1), start)
        if kind is None:
            continue  # declared with another type where this use sees it
        subscripted, const = kind
        if (m.group(2) is not None or m.group(3) == b"->") != subscripted or (m.group(2) and m.group(3) == b"->"):
            continue
        if not const and m.group(3) == b"." and _WRITE_AFTER.match(data, m.end()) is None:
            const = read_only(m.group(1), start)  # a member in a const method, a copy capture
        wrap = b"reinterpret_cast<const half&>(" if const else b"reinterpret_cast<half&>("
        ctx.edit(start, start, wrap, "half2-member")
        ctx.edit(m.end(), m.end(), b")", "half2-member")
    if b"(*" in data or b"( *" in data:  # `(*hp).x`: the pointee of a half2 pointer
        deref = re.compile(rb"\(\s*\*\s*(" + scoped + rb")\s*\)\s*\.\s*([xy])(?![\w$])")
        for m in deref.finditer(data):
            kind = None if skip(m.start()) else declared.kind_at(m.group(1), m.start())
            if kind is None or not kind[0] or _WRAPPED.search(data[max(0, m.start() - 64):m.start()]):
                continue
            write = _WRITE_AFTER.match(data, m.end()) is not None
            const = kind[1] or not write
            ctx.edit(m.start(), m.start(), b"reinterpret_cast<const half&>(" if const else b"reinterpret_cast<half&>(",
                     "half2-member")
            ctx.edit(m.end(), m.end(), b")", "half2-member")
    _cast_receivers(ctx, skip, declared.functions.difference(declared.other))
    if not names:
        return
    alternatives = b"|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    if b"." in data:
        _fields(ctx, skip, names, alternatives)
    if b"define" in data:
        _report_members_through_macros(ctx, skip, names, alternatives)
    # `h2 = {};` (GPTQ's `res2 = {};`): HIP 5.2's __half2 has three assignments an empty list could
    # mean; `__half2{}` is the one value CUDA meant
    if b"{}" in data or b"{ }" in data:
        clear = re.compile(rb"\b(" + alternatives + rb")\s*(\[(?:[^\[\]]|\[[^\[\]]*\])*\])?\s*=\s*(\{\s*\})")
        for m in clear.finditer(data):
            subscripted, const = names[m.group(1)]
            if data[m.start() - 1:m.start()] not in (b".", b"$") and not skip(m.start()) and not const \
                    and (m.group(2) is not None) == subscripted:
                ctx.edit(m.start(3), m.start(3), b"__half2", "half2-clear")


# `.x` after a closing bracket: the receiver may be a cast to half2 (`reinterpret_cast<half2&>(u).x`,
# `((half2*)u)[1].y`, `reinterpret_cast<const half2*>(p)[i].x`)
_MEMBER_AFTER_GROUP = lazy_re.compile(rb"[)\]]\s*(\.|->)\s*([xy])(?![\w$])")
# the fp16 functions that return a half2 (an `auto` holding one, a member of the call's result)
_HALF2_FUNCTION = (rb"(?:__(?:floats2half2_rn|float2half2_rn|halves2half2|half2half2|low2half2|high2half2|lows2half2|"
                   rb"highs2half2|lowhigh2highlow|float22half2_rn|h(?:add|sub|mul|div|fma|neg|abs|max|min)2(?:_sat|_nan|_relu)?)"
                   rb"|h2(?:sqrt|rsqrt|rcp|exp|exp2|exp10|log|log2|log10|sin|cos|floor|ceil|trunc|rint))")
_HALF2_CAST = lazy_re.compile(rb"(?:(?:reinterpret|static)_cast\s*<\s*(?:const\s+)?(?:__)?half2(?:\s+const)?\s*[&*]?\s*>"
                         rb"|\(\s*\(\s*(?:const\s+)?(?:__)?half2(?:\s+const)?\s*\*\s*\))"
                         rb"|" + _HALF2_FUNCTION + rb"\s*\(")


def _cast_receivers(ctx: Context, skip: "_Skipped", functions: set[bytes]) -> None:
    """A member of an object cast to half2, or of what an fp16 function or one of the file's own
    `half2 f(…)` returns: the receiver names its type outright."""
    from hipport.cxx.calls import receiver_start

    data = ctx.data
    own = re.compile(rb"\b(?:" + b"|".join(re.escape(f) for f in sorted(functions)) + rb")\s*\(") if functions else None
    # where a cast or an fp16 call may be: the literal `half2` and the functions' names (fast searches)
    casts = sorted([c.start() for c in _HALF2.finditer(data)] + [c.start() for c in _HALF2_CALL.finditer(data)]
                   + ([c.start() for c in own.finditer(data)] if own is not None else []))
    if not casts:
        return
    for m in _MEMBER_AFTER_GROUP.finditer(data):
        i = bisect_right(casts, m.start()) - 1  # a cast or call shortly before, or this is none of ours
        if i < 0 or m.start() - casts[i] > 400 or skip(m.start()):
            continue
        start = receiver_start(data, m.start(1))
        if start is None or _WRAPPED.search(data[max(0, start - 64):start]):
            continue
        call = own.match(data, start) if own is not None and not glued_before(data, start, b".>:") else None
        if call is not None:
            if matching_close(data, call.end() - 1) != data.rindex(b")", start, m.start(1)):
                continue  # `mk(a).b(c).x`: a member of something else
        elif not _HALF2_CAST.match(data, start):
            continue
        if m.group(1) == b"->" and not data[start:m.start(1)].rstrip().endswith(b")"):
            continue
        write = _WRITE_AFTER.match(data, m.end()) is not None
        ctx.edit(start, start, b"reinterpret_cast<half&>(" if write else b"reinterpret_cast<const half&>(", "half2-member")
        ctx.edit(m.end(), m.end(), b")", "half2-member")


# the bodies where a name reads as const: a const member function's, a copy-capturing lambda's
_CONST_METHOD_BODY = lazy_re.compile(rb"\)\s*const\s*(?:noexcept\s*)?(?:override\s*)?(?:final\s*)?\{")
_LAMBDA_BODY = lazy_re.compile(rb"\[([^\[\]]*)\]\s*(?:\([^()]*\)\s*)?((?:mutable\s*)?)(?:->[^{};]*)?\{")


class _ReadOnlyBodies:
    """Where `name.x` is const although `name` is not: in a const member function (a member read
    through a const `this`) or a lambda that copies the name without `mutable`; `half&` would
    cast that away.  The bodies are found once per file (a literal-first search)."""

    def __init__(self, data: bytes, sweep: Scan):
        self.data, self.sweep = data, sweep
        self.bodies: list[tuple[int, int, bytes | None]] | None = None  # (open, close, copied captures)

    def _find(self) -> list:
        data, sweep, out = self.data, self.sweep, []
        if b"const" in data:
            for m in _CONST_METHOD_BODY.finditer(data):
                close = None if sweep.in_masked(m.start()) else matching_brace(data, m.end() - 1, sweep)
                if close is not None:
                    out.append((m.end() - 1, close, None))
        if b"](" in data or b"] (" in data or b"]{" in data or b"] {" in data:
            for m in _LAMBDA_BODY.finditer(data):
                if m.group(2) or sweep.in_masked(m.start()):
                    continue  # mutable: its copies are writable
                close = matching_brace(data, m.end() - 1, sweep)
                if close is not None:
                    out.append((m.end() - 1, close, m.group(1)))
        return out

    def __call__(self, name: bytes, at: int) -> bool:
        if self.bodies is None:
            self.bodies = self._find()
        for open_brace, close, captures in self.bodies:
            if open_brace < at < close:
                if captures is None or b"=" in captures or \
                        re.search(rb"(?<![&\w$])" + re.escape(name) + rb"(?![\w$])", captures):
                    return True
        return False


_WRITE_AFTER = lazy_re.compile(rb"\s*(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)|\+\+|--)")


def _fields(ctx: Context, skip: "_Skipped", names: dict, alternatives: bytes) -> None:
    """`w.h.x` with `struct W { __half2 h; }` (a field the file declares as half2, and as nothing
    else): whether `w` is const cannot be told, so a read gets `const half&` (right either way)
    and a write `half&` (which a const object could not take anyway)."""
    from hipport.cxx.calls import receiver_start

    data = ctx.data
    field = re.compile(rb"(?:\.|->)\s*(" + alternatives + rb")\s*(\[(?:[^\[\]]|\[[^\[\]]*\])*\])?\s*(\.|->)\s*([xy])(?![\w$])")
    for m in field.finditer(data):
        start = receiver_start(data, m.start())
        if start is None or skip(start) or _WRAPPED.search(data[max(0, start - 64):start]):
            continue
        subscripted, _const = names[m.group(1)]
        if (m.group(2) is not None or m.group(3) == b"->") != subscripted or (m.group(2) and m.group(3) == b"->"):
            continue
        write = _WRITE_AFTER.match(data, m.end()) is not None or data[max(0, start - 8):start].rstrip().endswith((b"++", b"--"))
        ctx.edit(start, start, b"reinterpret_cast<half&>(" if write else b"reinterpret_cast<const half&>(", "half2-member")
        ctx.edit(m.end(), m.end(), b")", "half2-member")


def _report_members_through_macros(ctx: Context, skip: "_Skipped", names: dict, alternatives: bytes) -> None:
    """`#define LO(h) (h).x` used as `LO(in[0])`: the member access is put together by the
    preprocessor, where the macro may serve other types too, so it is reported, not rewritten."""
    from hipport.cxx.macro_arguments import macro_arguments

    data = ctx.data
    object_use = re.compile(rb"(" + alternatives + rb")\s*(\[(?:[^\[\]]|\[[^\[\]]*\])*\])?\Z")  # `in`, `in[0]`
    member_of = lambda p: rb"(?<![\w$.])" + p + rb"\s*\)?\s*(?:\.|->)\s*[xy](?![\w$])"  # noqa: E731 -- `(h).x`
    for macro, s, e in macro_arguments(data, member_of, skip):
        arg = data[s:e].lstrip(b"*").strip()
        if (o := object_use.match(arg)) and (o.group(2) is not None) == names[o.group(1)][0] \
                or data[s:e].startswith(b"*") and names.get(arg, (False,))[0]:
            ctx.sink.add("HP029", f"the half2 member read through the macro {macro.decode()} is the raw "
                         "16 bits in HIP, not a half", s, end=e,
                         hint="read it with __low2half / __high2half, or as "
                         "reinterpret_cast<const half&>(h.x) inside the macro")


class _Skipped:
    """Comments, literals and preprocessor lines (macro bodies cannot be scoped)."""

    def __init__(self, data: bytes, sweep: Scan):
        self.data = data
        self.sweep = sweep
        self.masked = sweep.in_masked
        self.directives = sweep.directives  # offsets of the '#', in order
        self._ends: dict[int, int] = {}

    def __call__(self, offset: int) -> bool:
        if self.masked(offset):
            return True
        i = bisect_right(self.directives, offset) - 1
        return i >= 0 and offset < self._end(self.directives[i])

    def _end(self, directive: int) -> int:
        end = self._ends.get(directive)
        if end is None:
            data = self.data
            nl = data.find(b"\n", directive)
            if nl > 0 and data[nl - 1:nl] not in (b"\\", b"\r") and data.find(b"/*", directive, nl) < 0:
                end = nl  # (the usual one-line directive, without the full lexer's look)
            else:
                end = directive_end(data, directive)
            self._ends[directive] = end
        return end

    def code_only(self) -> bytearray:
        """The file with every skipped span zeroed: a search of it finds only code, at the same
        offsets, without a test per match."""
        blank = bytearray(self.data)
        for s, e in (*self.sweep.masked, *((d, self._end(d)) for d in self.directives)):
            blank[s:e] = bytes(e - s)
        return blank


class _Declarations:
    """Where each candidate name is declared, as a half2 (with its kind) or as anything else, and
    the scope each declaration is seen in: `half2 val` in one function and `float2 val` in the
    next (FasterTransformer's cuda_cast specializations) are two variables."""

    def __init__(self, data: bytes, skip: _Skipped):
        self.data = data
        self.half2: dict[bytes, list[tuple[int, tuple[bool, bool]]]] = {}
        self.other: dict[bytes, list[int]] = {}
        self.functions: set[bytes] = set()  # `half2 mk(…)`: calls of it are half2 values
        self._skip = skip
        self._blocks: _Blocks | None = None
        self._seen: dict[bytes, list] = {}

    def unambiguous(self) -> dict[bytes, tuple[bool, bool]]:
        """Names declared only as half2, always of one kind: fields and macro arguments, whose
        object cannot be scoped, are read only through these."""
        out = {}
        for name, decls in self.half2.items():
            kinds = {kind for _at, kind in decls}
            if len(kinds) == 1 and name not in self.other:
                out[name] = kinds.pop()
        return out

    def kind_at(self, name: bytes, at: int) -> tuple[bool, bool] | None:
        """The kind of the half2 declaration of *name* that the use at *at* sees; None when the
        declaration it sees has another type (or, with none in view, when the file's are mixed)."""
        seen = self._seen.get(name)
        if seen is None:  # newest first; one kind and no other type: the answer needs no scopes
            seen = [(d, kind) for d, kind in self.half2[name]] + [(d, None) for d in self.other.get(name, ())]
            seen.sort(key=lambda seen_at: seen_at[0], reverse=True)
            self._seen[name] = seen = seen if len({kind for _d, kind in seen}) > 1 else seen[:1]
        if len(seen) == 1:
            return seen[0][1]
        if self._blocks is None:
            self._blocks = _Blocks(self.data, self._skip)
        for d, kind in seen:
            if d < at and self._blocks.in_scope(d, at):
                return kind
        return None


_BRACKET = lazy_re.compile(rb"[{}()]")


class _Blocks:
    """The file's bracket pairs (`{}` and `()`, outside comments, literals and directives), to
    tell the scope a declaration is seen in."""

    def __init__(self, data: bytes, skip: _Skipped):
        self.data = data
        self.opens: list[int] = []
        self.close: dict[int, int] = {}
        self.parent: dict[int, int | None] = {}
        stack: list[int] = []
        for m in _BRACKET.finditer(skip.code_only()):
            i = m.start()
            if data[i] in b"{(":
                self.parent[i] = stack[-1] if stack else None
                stack.append(i)
                self.opens.append(i)
            elif stack:
                self.close[stack.pop()] = i
        for o in stack:
            self.close[o] = len(data)

    def _innermost(self, at: int) -> int | None:
        i = bisect_right(self.opens, at - 1) - 1
        o = self.opens[i] if i >= 0 else None
        while o is not None and self.close[o] < at:
            o = self.parent[o]
        return o

    def in_scope(self, declared_at: int, at: int) -> bool:
        o = self._innermost(declared_at)
        if o is None:
            return True  # file scope
        if self.data[o] == 0x7B:  # '{'
            return o < at <= self.close[o]
        # a parameter (or a for/if initializer): seen in the body after the `)`, up to its `}`,
        # or up to the `;` that ends a prototype or an unbraced statement
        close = self.close[o]
        if at <= close:
            return True
        body = _BODY_AFTER_PARAMETERS.match(self.data, close + 1)
        if body is not None:
            return at <= self.close.get(body.end() - 1, len(self.data))
        end = self.data.find(b";", close)
        return end < 0 or at <= end


# what may stand between a parameter list and its body: qualifiers, a trailing return type
_BODY_AFTER_PARAMETERS = lazy_re.compile(rb"(?:\s|const\b|noexcept\b|override\b|final\b|mutable\b|->\s*[\w:<>,\s*&]+?)*\{")


# `typedef half2 ggml_half2;`, `using h2 = __half2;`: other names of the type
_ALIAS = lazy_re.compile(rb"typedef\s+(?:const\s+)?(?:__)?half2\s+([A-Za-z_]\w*)\s*;|using\s+([A-Za-z_]\w*)\s*=\s*(?:__)?half2\s*;")


def _aliases(data: bytes, skip: _Skipped) -> set[bytes]:
    return {m.group(1) or m.group(2) for m in _ALIAS.finditer(data)
            if not skip(m.start()) and not glued_before(data, m.start())}


_HALF2_CALL = lazy_re.compile(_HALF2_FUNCTION + rb"\s*\(")
# what comes before the first operand of an expression, never before a declaration's type
_OPERAND_BEFORE = lazy_re.compile(rb"(?:[=+\-/%^|?]|return)\s*\Z")
_AUTO_HALF2 = lazy_re.compile(rb"auto\s+([A-Za-z_]\w*)\s*=\s*" + _HALF2_FUNCTION + rb"\s*\(")  # (literal first: fast)


def _declarations(data: bytes, skip: _Skipped) -> _Declarations:
    """Every declaration of a half2 object (name, kind: (subscripted: an array or pointer,
    const)), and every declaration of those names with another type."""
    found = _Declarations(data, skip)
    half2 = found.half2
    aliases = _aliases(data, skip) if b"typedef" in data or b"using" in data else ()
    pattern = _HALF2 if not aliases else re.compile(
        rb"(?:half2|" + b"|".join(re.escape(a) for a in sorted(aliases)) + rb")(?![\w$])")
    for m in pattern.finditer(data):
        start = m.start() - 2 if m.start() >= 2 and data[m.start() - 2:m.start()] == b"__" else m.start()
        if glued_before(data, start):
            continue  # make_half2, my_half2
        if skip(start) or data[max(0, start - 2):start].endswith((b"::", b".", b">", b"<")):
            continue
        after = _CONST_AFTER.match(data, m.end())
        const = after is not None or _CONST_BEFORE.search(data, max(0, start - 16), start) is not None
        if after is not None:
            m = after
        if data[m.end():m.end() + 1] not in (b" ", b"\t", b"\n", b"\r", b"*", b"&"):
            continue
        pos = m.end()
        while (d := _DECLARATOR.match(data, pos)) is not None and d.group(2) not in _NOT_TYPES:
            parts, name, end = d.group(1), d.group(2), d.group(3)
            pointer = b"*" in parts
            kind = (pointer or end == b"[", const or (b"const" in parts.split(b"*")[0] if pointer else b"const" in parts))
            half2.setdefault(name, []).append((d.start(2), kind))
            if end == b"(":  # `half2 v(r);` (direct initialisation), or `half2 mk(float a)`: a function
                if not parts:
                    found.functions.add(name)
                close = matching_close(data, d.end() - 1)
                after = _NEXT_DECLARATOR.match(data, close + 1) if close is not None else None
                if after is None:
                    break  # the declaration's `;`, or a function's body or qualifiers
                pos = after.end()
            elif end in (b"=", b"{", b"["):
                pos = _initializer_end(data, d.end() - 1)  # `half2 a = f(x, y), b;`
                if pos is None:
                    break
            elif end == b",":
                pos = d.end()  # `half2 a, b;`
            else:
                break
    if b"auto" in data:  # `auto a = __floats2half2_rn(x, y);`
        for m in _AUTO_HALF2.finditer(data):
            if not skip(m.start()) and not glued_before(data, m.start()):
                const = _CONST_BEFORE.search(data, max(0, m.start() - 16), m.start()) is not None
                half2.setdefault(m.group(1), []).append((m.start(1), (False, const)))
    if half2 and b"auto" in data:
        _auto_copies(data, skip, found)
    if not half2:
        return found
    alternatives = b"|".join(re.escape(n) for n in sorted(half2, key=len, reverse=True))
    as_half2 = {at for decls in half2.values() for at, _kind in decls}  # (`auto a = __hadd2(…)` is one of them)
    for m in re.finditer(rb"\b(" + alternatives + rb")(?=\s*[;,=)\[{:(])", data):
        if m.start() in as_half2 or data[m.start() - 1:m.start()] == b"$":
            continue
        t = _TYPE_BEFORE.search(data, max(0, m.start() - 96), m.start())
        if t is None or t.group(1) in _NOT_TYPES or t.group(1) in aliases or skip(m.start()):
            continue
        if t.group(1) in half2 or _OPERAND_BEFORE.search(data, max(0, t.start() - 8), t.start()):
            continue  # `w = w * v;`: a product of variables, no declaration of v
        found.other.setdefault(m.group(1), []).append(m.start())  # `float2 v`, `auto v`; `a * v;` only makes us cautious
    return found


_NEXT_DECLARATOR = lazy_re.compile(rb"\s*,")


def _auto_copies(data: bytes, skip: _Skipped, found: _Declarations) -> None:
    """`auto c = mk(a, b);` from the file's own `half2 mk(…)`, `const auto& g = h;` from a half2
    variable (one kind of declaration in the file, so the copy's kind is plain)."""
    half2 = found.half2
    plain = [n for n, decls in half2.items() if {kind[0] for _at, kind in decls} == {False}]
    arrays = [n for n, decls in half2.items() if {kind[0] for _at, kind in decls} == {True}]
    sources = [rb"(?P<call>" + b"|".join(re.escape(f) for f in sorted(found.functions)) + rb")\s*\("] if found.functions else []
    if plain:
        sources.append(rb"(?:" + b"|".join(re.escape(n) for n in sorted(plain, key=len, reverse=True)) + rb")\s*;")
    if arrays:
        sources.append(rb"(?:" + b"|".join(re.escape(n) for n in sorted(arrays, key=len, reverse=True))
                       + rb")\s*\[[^\[\];]*\]\s*;")
    if not sources:
        return
    copy = re.compile(rb"\bauto\s*(?:&&?\s*)?([A-Za-z_]\w*)\s*=\s*(?:" + b"|".join(sources) + rb")")
    for m in copy.finditer(data):
        if not skip(m.start()) and m.group(1) not in half2:
            const = _CONST_BEFORE.search(data, max(0, m.start() - 16), m.start()) is not None
            half2.setdefault(m.group(1), []).append((m.start(1), (False, const)))


def _initializer_end(data: bytes, pos: int, limit: int = 4000) -> int | None:
    """Just past the ',' that ends the declarator whose initialiser or bounds start at *pos*;
    None at the ';' or ')' that ends the declaration (or when it is too long to follow)."""
    depth = 0
    for i in range(pos, min(len(data), pos + limit)):
        c = data[i:i + 1]
        if c in b"([{":
            depth += 1
        elif c in b")]}":
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and c == b",":
            return i + 1
        elif depth == 0 and c == b";":
            return None
    return None
