"""Brace initializers of CUDA's vector and complex types that HIP's constructors read otherwise.

CUDA's vector types are plain aggregates; HIP's are classes with constructors.  Two spellings
then break:

* designated initializers (`float2 p = {.x = 1.f, .y = 2.f};`, C++20, which nvcc accepts earlier)
  find no aggregate ("no matching constructor").  A list that names the members in order from `.x`
  means exactly the positional list, which HIP's constructors take: the designators are dropped.
  Only in files that use CUDA's vector or complex types, whose members those are;
* `dim3 grid{(n + 255) / 256}`: an `int` narrowed to dim3's unsigned members, which clang rejects
  in braces; parentheses call the same constructor;
* a list shorter than the type (`float4 acc = {0};`, `float3 v{1.0f}`): CUDA zero-fills the rest,
  HIP rejects the copy-initialization (an explicit constructor) or, worse, broadcasts one value to
  every component (`float3{1.0f}` is (1, 1, 1)).  The list is padded with zeros, also each
  element's list in an array of vectors (`float4 table[2] = {{1}, {2, 3}};`), a `return {x};` in a
  function returning a vector type, and `r = {x};` to a variable declared as one.
"""

from __future__ import annotations

import re

from hipport.cxx.calls import call_arguments, skip_ws
from hipport.cxx.context import Context
from hipport.cxx.definitions import enclosing_braces, matching_brace
from hipport.cxx.lexer import TOKEN_RE, glued_before
from hipport.cxx.scan import Scan
from hipport import lazy_re

_DESIGNATED = lazy_re.compile(rb"\{\s*\.\s*x\s*=")
_DESIGNATOR = lazy_re.compile(rb"\.\s*([xyzw])\s*=\s*")
#: the element types of CUDA's vector types (`float` of float4)
_BASE = rb"(?:u?char|u?short|u?int|u?long|u?longlong|float|double)"
_VECTOR_TYPES = lazy_re.compile(rb"\b(?:" + _BASE + rb"[1-4]|cu(?:Float|Double)?Complex)\b")


# the digit first (a fast search); the type word before it is checked after
_VECTOR_DECLARATION = lazy_re.compile(rb"([2-4])(?:\s+(?=[A-Za-z_*&])|\s*(?=\{))")
_VECTOR_BASE = lazy_re.compile(rb"(?<![\w$])" + _BASE + rb"\Z")
_TYPE_KEY_BEFORE = lazy_re.compile(rb"\b(?:struct|class|union|typedef)\s*\Z")
# one declarator: pointer/reference marks, the name, array bounds, then `=` or a `{` list
_DECLARATOR = lazy_re.compile(rb"\s*((?:(?:[*&]|(?:const|volatile|__restrict__)(?![\w$]))\s*)*)([A-Za-z_]\w*)((?:\s*\[[^\]\[;{}]*\])+)?\s*(=)?\s*")


_DIM3_BRACES = lazy_re.compile(rb"dim3(?:\s+[A-Za-z_]\w*)?\s*(=\s*)?\{")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"dim3" in data and b"{" in data:
        _dim3_braces(ctx, sweep)
    if b"{" in data and _VECTOR_TYPES.search(data):
        _pad_short_lists(ctx, sweep)
        if b"return" in data or b"= {" in data or b"={" in data:
            _pad_returns_and_assignments(ctx, sweep)
        if b"struct" in data:
            _pad_struct_members(ctx, sweep)
        if b"({" in data or b", {" in data or b",{" in data or b"( {" in data:
            _pad_call_arguments(ctx, sweep)
    if b"template" in data and (b"{0" in data or b"{ 0" in data):
        _template_zero_lists(ctx, sweep)
    if b".x" not in data or not _DESIGNATED.search(data) or not _VECTOR_TYPES.search(data):
        return
    for m in _DESIGNATED.finditer(data):
        if sweep.in_masked(m.start()):
            continue
        parsed = call_arguments(data, m.start())
        if parsed is None or not 2 <= len(parsed[0]) <= 4:
            continue
        designators = [_DESIGNATOR.match(data, s) for s, _e in parsed[0]]
        if all(d is not None and d.group(1) == b"xyzw"[i:i + 1] for i, d in enumerate(designators)):
            for d in designators:
                ctx.edit(d.start(), d.end(), b"", "designated-vector-init")


def _pad_short_lists(ctx: Context, sweep: Scan) -> None:
    """Every declarator of `float4 a = {0}, *p = q, b{x};` (the lists of the vector-typed ones), and
    a temporary `float3{2.f}`."""
    data = ctx.data
    for m in _VECTOR_DECLARATION.finditer(data):
        base = _VECTOR_BASE.search(data, max(0, m.start() - 12), m.start())
        if base is None or sweep.in_masked(m.start()) \
                or _TYPE_KEY_BEFORE.search(data, max(0, base.start() - 16), base.start()):
            continue
        size, pos = int(m.group(1)), m.end()
        if data[pos:pos + 1] == b"{":  # `float3{2.f}`: a temporary
            parsed = call_arguments(data, pos)
            if parsed is not None:
                _pad_list(ctx, data, parsed[0], size, array=False)
            continue
        while (d := _DECLARATOR.match(data, pos)) is not None:
            pos = d.end()
            if data[pos:pos + 1] == b"{":
                parsed = call_arguments(data, pos)
                if parsed is None:
                    break
                if not re.search(rb"[*&]", d.group(1)):  # (a pointer's or reference's list is no vector's)
                    _pad_list(ctx, data, parsed[0], size, array=d.group(3) is not None)
                pos = parsed[1] + 1
            elif d.group(4):
                pos = _initializer_end(data, pos)
            pos = skip_ws(data, pos)
            if data[pos:pos + 1] != b",":
                break  # `;`, a parameter list's `)`, a function's `(`: the declaration ends
            pos += 1


def _pad_list(ctx: Context, data: bytes, items: list[tuple[int, int]], size: int, array: bool) -> None:
    if not items:
        return  # `{}` value-initializes on both
    if not array:
        _pad(ctx, data, items, size)
        return
    for s, _e in items:  # `float4 table[2] = {{1}, {2, 3}};`: each element's own list
        inner = call_arguments(data, s) if data[s:s + 1] == b"{" else None
        if inner is not None and inner[0]:
            _pad(ctx, data, inner[0], size)


def _initializer_end(data: bytes, pos: int) -> int:
    """Where `= expr` ends: the `,` or `;` outside brackets; *pos* itself where a `<` makes that
    uncertain (a template argument list or a comparison), which ends the walk."""
    depth = 0
    for t in TOKEN_RE.finditer(data, pos):
        if t.lastgroup != "punct":
            continue
        tok = t.group()
        if tok in (b"(", b"[", b"{"):
            depth += 1
        elif tok in (b")", b"]", b"}"):
            depth -= 1
            if depth < 0:
                return t.start()
        elif depth == 0 and tok in (b",", b";"):
            return t.start()
        elif depth == 0 and tok == b"<":
            return pos
    return len(data)


_RETURN_LIST = lazy_re.compile(rb"return\s*\{")  # (`\b` checked after: a literal first is a fast search)
_VECTOR_TYPE_BEFORE = lazy_re.compile(rb"(?<![\w$])" + _BASE + rb"[1-4]\s*\Z")
_ASSIGN_BRACE = lazy_re.compile(rb"=(?<![=!<>+\-*/%&|^]=)\s*\{")  # (a literal first: a fast search)
_NAME_BEFORE = lazy_re.compile(rb"(?<![\w$.>:])([A-Za-z_]\w*)\s*\Z")
# the digit first (a fast search); the type word before it is checked after
_VECTOR_DECLARED = lazy_re.compile(rb"([2-4])\s+([A-Za-z_]\w*)\s*[;,=)]")
# the head of a function (or lambda) body returning a vector type: `__device__ float4 f(float x) const {`
_VECTOR_FUNCTION_HEAD = lazy_re.compile(rb"(?:(?<![\w$])" + _BASE + rb"([2-4])\s+"
                                   rb"(?:[\w:]+::)?[A-Za-z_]\w*|->\s*" + _BASE +
                                   rb"([2-4]))\s*(?:\([^;{}]*\)\s*)?(?:(?:const|noexcept|override|mutable)\s*)*\{\Z")
_BLOCK_HEAD = lazy_re.compile(rb"(?:\)|\belse|\bdo|[;{}]|:)\s*\{\Z")


def _pad_returns_and_assignments(ctx: Context, sweep: Scan) -> None:
    """`return {x};` in a function returning float4, `r = {x};` to a float4 variable: the same short
    lists, in copy-list-initialization that HIP's explicit constructors refuse."""
    data = ctx.data
    for m in _RETURN_LIST.finditer(data):
        if glued_before(data, m.start()) or sweep.in_masked(m.start()):
            continue
        size = _returned_vector_size(data, m.start(), sweep)
        parsed = call_arguments(data, m.end() - 1) if size else None
        if parsed is not None and parsed[0]:
            _pad(ctx, data, parsed[0], size)
    assignments = []  # (name, offset of the `{`): the `= {` first, a plain search, then the name before it
    for m in _ASSIGN_BRACE.finditer(data):
        name = _NAME_BEFORE.search(data, max(0, m.start() - 64), m.start())
        if name is not None and not sweep.in_masked(m.start()) \
                and not _VECTOR_TYPE_BEFORE.search(data, max(0, name.start() - 24), name.start()):
            assignments.append((name.group(1), m.end() - 1))  # (`float4 r = {x}`: a declaration, padded above)
    if not assignments:
        return
    assigned = {name for name, _brace in assignments}
    sizes: dict[bytes, int] = {}
    for d in _VECTOR_DECLARED.finditer(data):
        if d.group(2) in assigned and _VECTOR_BASE.search(data, max(0, d.start() - 12), d.start()):
            size = int(d.group(1))
            sizes[d.group(2)] = size if sizes.get(d.group(2), size) == size else 0
    if not sizes:
        return
    names = b"|".join(sorted(re.escape(n) for n in sizes))
    for d in re.finditer(rb"(?<![\w$])([A-Za-z_][\w:<>]*)[\s*&]+(" + names + rb")\s*[;,=)\[]", data):
        # a name the file also declares with another type: not ours to read
        if not _VECTOR_TYPES.fullmatch(d.group(1)) and d.group(1) not in (b"const", b"return"):
            sizes[d.group(2)] = 0
    for name, brace in assignments:
        size = sizes.get(name)
        parsed = call_arguments(data, brace) if size else None
        if parsed is not None and parsed[0]:
            _pad(ctx, data, parsed[0], size)


_TYPE_PARAMETER = lazy_re.compile(rb"template\s*<([^<>;{}]*)>")
_TYPE_NAME = lazy_re.compile(rb"(?:typename|class)\s+([A-Za-z_]\w*)")
_ZERO_LIST = lazy_re.compile(rb"=\s*(\{\s*0(?:\.0*)?[fF]?\s*\})")


def _template_zero_lists(ctx: Context, sweep: Scan) -> None:
    """`T v = {0};` with `template <typename T>`: CUDA zero-fills whatever T is; instantiated with
    HIP's float4 the one-element list meets an explicit constructor.  `{}` zero-initializes
    every T (scalars, CUDA's and HIP's vector types) and compiles for all of them."""
    data = ctx.data
    types = {t for m in _TYPE_PARAMETER.finditer(data) for t in _TYPE_NAME.findall(m.group(1))}
    if not types:
        return
    declared = re.compile(rb"(?<![\w$:])(?:" + b"|".join(re.escape(t) for t in sorted(types)) + rb")\s+[A-Za-z_]\w*\s*\Z")
    for m in _ZERO_LIST.finditer(data):
        if not sweep.in_masked(m.start()) and declared.search(data, max(0, m.start() - 80), m.start()):
            ctx.edit(m.start(1), m.end(1), b"{}", "template-zero-list")


# a parameter list of plain declarations ending a function head (`(float4 v, int n) {`); the
# `(` first, a fast search, and the name before it checked after
_PARAMETER_LIST = lazy_re.compile(rb"\(([^;{}()]*)\)\s*(?:const\s*)?[{;]")
_FUNCTION_NAME_BEFORE = lazy_re.compile(rb"[\w$*&>]\s+([A-Za-z_]\w*)\s*\Z")
_VECTOR_PARAMETER = lazy_re.compile(rb"\s*(?:const\s+)?(?:" + _BASE + rb")([2-4])(?:\s+const)?\s*(&?)\s*(?:[A-Za-z_]\w*)?\s*\Z")


def _pad_call_arguments(ctx: Context, sweep: Scan) -> None:
    """`take({x, x})` with `void take(float4 v)` declared in the file: the argument's list, where
    every declaration of that name agrees on the parameter's width (an overload set that does
    not is left to the compiler)."""
    data = ctx.data
    widths: dict[bytes, dict[int, int]] = {}  # function -> parameter index -> vector width (0: disagree)
    for m in _PARAMETER_LIST.finditer(data):
        if not _VECTOR_TYPES.search(m.group(1)) or sweep.in_masked(m.start()):
            continue
        name = _FUNCTION_NAME_BEFORE.search(data, max(0, m.start() - 80), m.start())
        if name is None or name.group(1) in (b"if", b"while", b"for", b"switch", b"return", b"sizeof"):
            continue
        known = widths.setdefault(name.group(1), {})
        for i, param in enumerate(m.group(1).split(b",")):
            p = _VECTOR_PARAMETER.match(param)
            width = int(p.group(1)) if p else 0
            known[i] = width if known.get(i, width) == width else 0
    calls = {name: by_index for name, by_index in widths.items() if any(by_index.values())}
    if not calls:
        return
    names = b"|".join(re.escape(n) for n in sorted(calls, key=len, reverse=True))
    for m in re.finditer(rb"(?<![\w$.>:])(" + names + rb")\s*\(", data):
        if sweep.in_masked(m.start()) or b"{" not in data[m.end():m.end() + 200]:
            continue
        parsed = call_arguments(data, m.end() - 1)
        if parsed is None:
            continue
        for i, (s, _e) in enumerate(parsed[0]):
            width = calls[m.group(1)].get(i, 0)
            inner = call_arguments(data, s) if width and data[s:s + 1] == b"{" else None
            if inner is not None and inner[0]:
                _pad(ctx, data, inner[0], width)


_STRUCT_DEFINITION = lazy_re.compile(rb"\bstruct\s+([A-Za-z_]\w*)\s*\{")
_MEMBER = lazy_re.compile(rb"\s*(?:const\s+)?([A-Za-z_][\w:]*)\s+([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*;")


def _pad_struct_members(ctx: Context, sweep: Scan) -> None:
    """`S s = {{1.0f}, 2};` with `struct S { float4 v; int n; };`: the member's own short list, in
    a struct the file defines with plain members (one declaration per member, in order)."""
    data = ctx.data
    layouts: dict[bytes, list[int]] = {}  # struct -> width of each member (0: not a vector)
    for m in _STRUCT_DEFINITION.finditer(data):
        close = matching_brace(data, m.end() - 1, sweep) if not sweep.in_masked(m.start()) else None
        if close is None:
            continue
        widths, pos = [], m.end()
        while (member := _MEMBER.match(data, pos)) is not None and member.end() <= close + 1:
            vector = _VECTOR_TYPES.fullmatch(member.group(1))
            width = int(member.group(1)[-1:]) if vector and member.group(1)[-1:] in b"234" else 0
            widths += [width] * (member.group(2).count(b",") + 1)
            pos = member.end()
        if data[pos:close].strip() == b"" and any(widths):  # every member read, some of a vector type
            layouts[m.group(1)] = widths
    if not layouts:
        return
    uses = re.compile(rb"\b(" + b"|".join(re.escape(n) for n in layouts) + rb")\s+[A-Za-z_]\w*\s*=?\s*\{")
    for m in uses.finditer(data):
        if sweep.in_masked(m.start()):
            continue
        parsed = call_arguments(data, m.end() - 1)
        if parsed is None:
            continue
        for (s, _e), width in zip(parsed[0], layouts[m.group(1)]):
            inner = call_arguments(data, s) if width and data[s:s + 1] == b"{" else None
            if inner is not None and inner[0]:
                _pad(ctx, data, inner[0], width)


def _returned_vector_size(data: bytes, at: int, sweep: Scan) -> int:
    """The width of the vector type the function (or lambda) holding *at* returns; 0 when that is
    not a vector type or cannot be told."""
    for i in enclosing_braces(data, at, sweep):
        head = data[max(0, i - 300):i + 1]
        found = _VECTOR_FUNCTION_HEAD.search(head)
        if found:
            return int(found.group(1) or found.group(2))
        if not _BLOCK_HEAD.search(head):
            return 0  # a function of another type, a class, a namespace
    return 0


def _pad(ctx: Context, data: bytes, items: list[tuple[int, int]], size: int) -> None:
    if len(items) < size and not any(data.startswith(b".", s) for s, _e in items):
        ctx.edit(items[-1][1], items[-1][1], b", 0" * (size - len(items)), "vector-init-padding")


# an argument that could declare a parameter: `unsigned(n)`, `size_t (count)`
_PARAMETER_LIKE = lazy_re.compile(rb"\s*[A-Za-z_][\w:]*\s*\(\s*[A-Za-z_]\w*\s*\)\s*")
_CLASS_HEAD = lazy_re.compile(rb"\b(?:struct|class|union)\s+[\w:]+[^;{}()]*\Z")


def _class_member(data: bytes, at: int, sweep: Scan) -> bool:
    """Is *at* directly in a class body?"""
    brace = next(enclosing_braces(data, at, sweep, reach=8192), None)
    return brace is not None and _CLASS_HEAD.search(data, max(0, brace - 300), brace) is not None


def _dim3_braces(ctx: Context, sweep: Scan) -> None:
    """`dim3 grid{(n + 255) / 256};`: in braces an `int` expression is a narrowing conversion to
    dim3's unsigned members, which nvcc allows and clang rejects; in parentheses it is the same
    constructor call on both."""
    data = ctx.data
    for m in _DIM3_BRACES.finditer(data):
        if sweep.in_masked(m.start()) or (m.start() and data[m.start() - 1:m.start()].isalnum()) \
                or data[m.start() - 1:m.start()] in (b"_", b"$"):
            continue
        before = data[max(0, m.start() - 40):m.start()].rstrip()
        if before.endswith((b"->", b"operator")) or _TYPE_KEY_BEFORE.search(before):
            continue  # `struct dim3 {`, `[]() -> dim3 { ... }`: not an initializer
        parsed = call_arguments(data, m.end() - 1)
        if parsed is None or not parsed[0]:
            continue  # `dim3 g{}`: the default constructor either way
        close = parsed[1]
        if b";" in data[m.end():close]:
            continue  # a body, not a list
        if m.group(1):  # `dim3 g = {a, b};` -> `dim3 g = dim3(a, b);`
            ctx.edit(m.end() - 1, m.end(), b"dim3(", "dim3-braces")
        elif _class_member(data, m.start(), sweep) or all(_PARAMETER_LIKE.fullmatch(data, a, b) for a, b in parsed[0]):
            # `struct C { dim3 block{256}; };` (a member takes no parentheses) and `dim3 g{unsigned(n)}`
            # (in parentheses, a function declaration): `dim3 block = dim3(256)`
            ctx.edit(m.end() - 1, m.end(), b" = dim3(", "dim3-braces")
        else:
            ctx.edit(m.end() - 1, m.end(), b"(", "dim3-braces")
        ctx.edit(close, close + 1, b")", "dim3-braces")
    _dim3_arrays_and_returns(ctx, sweep)


_DIM3_ARRAY = lazy_re.compile(rb"dim3\s+[A-Za-z_]\w*\s*\[[^\]\[;{}]*\]\s*=?\s*\{")
_DIM3_FUNCTION_HEAD = lazy_re.compile(rb"(?<![\w$])dim3\s+(?:[\w:]+::)?[A-Za-z_]\w*\s*\([^;{}]*\)\s*(?:const\s*)?\{\Z")


def _dim3_arrays_and_returns(ctx: Context, sweep: Scan) -> None:
    """`dim3 cfg[2] = {{n / 2, 1}, {b, 1}};` and `return {(n + b - 1) / b, 1};` in a function
    returning dim3: each list is the same narrowing; `dim3(…)` calls the same constructor."""
    data = ctx.data
    for m in _DIM3_ARRAY.finditer(data):
        if sweep.in_masked(m.start()) or glued_before(data, m.start()):
            continue
        parsed = call_arguments(data, m.end() - 1)
        for s, _e in parsed[0] if parsed is not None else ():
            inner = call_arguments(data, s) if data[s:s + 1] == b"{" else None
            if inner is not None and inner[0]:
                ctx.edit(s, s + 1, b"dim3(", "dim3-braces")
                ctx.edit(inner[1], inner[1] + 1, b")", "dim3-braces")
    if b"return" not in data:
        return
    for m in _RETURN_LIST.finditer(data):
        if glued_before(data, m.start()) or sweep.in_masked(m.start()):
            continue
        brace = next(enclosing_braces(data, m.start(), sweep), None)
        if brace is None or not _DIM3_FUNCTION_HEAD.search(data[max(0, brace - 300):brace + 1]):
            continue
        parsed = call_arguments(data, m.end() - 1)
        if parsed is not None and parsed[0]:
            ctx.edit(m.end() - 1, m.end(), b"dim3(", "dim3-braces")
            ctx.edit(parsed[1], parsed[1] + 1, b")", "dim3-braces")
