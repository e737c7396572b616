"""`v.x` in a function template whose `v` has a template parameter's type, in a file that uses half2.

Instantiated with `__half2`, CUDA's `v.x` is a `__half`; HIP's is the raw `unsigned short`, so
`(float)v.x` or `__half2float(v.x)` compile and convert the bit pattern — silently wrong, and no
rewrite of the template's text can know which types it will meet.  `hipport::x_of(v)`
(hipport/compat.h) is `v.x` itself, by reference, for every type, and the `__half` CUDA means for
`__half2`; so the rewrite is exact for each instantiation.  Only files that name half2 (where a
template may meet it) and only objects declared with a template type parameter (parameters and
locals of a function template, `T v`, `const T& v`, `T* p`, `T a[4]`; members of a class
template and its member functions' parameters) are touched.
"""

from __future__ import annotations

import re

from hipport.cxx.calls import call_arguments, template_close
from hipport.cxx.context import Context
from hipport.cxx.definitions import matching_brace
from hipport.cxx.scan import Scan
from hipport import lazy_re

COMPAT = b"hipport/compat.h"
_TEMPLATE = lazy_re.compile(rb"template\s*<")
_TYPE_PARAMETER = lazy_re.compile(rb"(?:typename|class)\s*(?:\.\.\.\s*)?([A-Za-z_]\w*)")
# from the template head to the function's parameter list: no `;`, `{` or `=` (a variable or alias)
_HEAD_TO_PARAMETERS = lazy_re.compile(rb"[^;{}=()]*?\(")
_CLASS_HEAD = lazy_re.compile(rb"\s*(?:struct|class)\s+[A-Za-z_]\w*[^;{}()]*\{")
_AFTER_PARAMETERS = lazy_re.compile(rb"(?:\s|const\b|noexcept\b|override\b|->[^;{]*|__attribute__\s*\(\([^;{]*?\)\))*\{")


def run(ctx: Context, sweep: Scan, skip) -> None:
    data = ctx.data
    if b"template" not in data:
        return
    for m in _TEMPLATE.finditer(data):
        if skip(m.start()) or data[m.start() - 1:m.start()].isalnum() or data[m.start() - 1:m.start()] == b"_":
            continue
        close = template_close(data, m.end() - 1)
        if close is None:
            continue
        types = {t for t in _TYPE_PARAMETER.findall(data, m.end(), close)}
        if not types:
            continue
        klass = _CLASS_HEAD.match(data, close + 1)
        if klass is not None:  # a class template: its members and its member functions' parameters
            open_brace, parameters = klass.end() - 1, []
        else:
            head = _HEAD_TO_PARAMETERS.match(data, close + 1)
            parsed = call_arguments(data, head.end() - 1) if head is not None else None
            body = _AFTER_PARAMETERS.match(data, parsed[1] + 1) if parsed is not None else None
            if body is None:
                continue  # a declaration only, a variable or an alias template
            open_brace, parameters = body.end() - 1, [data[s:e] for s, e in parsed[0]]
        end = matching_brace(data, open_brace, sweep)
        if end is None:
            continue
        names = _objects_of(data, types, parameters)
        names.update(_objects_of(data, types, _local_declarations(data, types, open_brace, end)))
        if names:
            _rewrite_members(ctx, skip, names, open_brace, end)


def _declaration_pattern(types: set[bytes]) -> re.Pattern:
    alternatives = b"|".join(re.escape(t) for t in sorted(types, key=len, reverse=True))
    return re.compile(rb"^\s*(?:const\s+)?(?:" + alternatives + rb")(?![\w$])\s*(?:const\b\s*)?((?:[*&]\s*|__restrict__\s*)*)"
                      rb"([A-Za-z_]\w*)\s*(\[)?")


def _objects_of(data: bytes, types: set[bytes], declarations: list[bytes]) -> dict[bytes, bool]:
    """Name -> reached through a pointer, for the declarations typed by a template parameter."""
    pattern = _declaration_pattern(types)
    out = {}
    for text in declarations:
        d = pattern.match(text)
        if d is not None:
            out[d.group(2)] = b"*" in d.group(1) or d.group(3) is not None
    return out


def _local_declarations(data: bytes, types: set[bytes], open_brace: int, end: int) -> list[bytes]:
    alternatives = b"|".join(re.escape(t) for t in sorted(types, key=len, reverse=True))
    local = re.compile(rb"(?<=[;{(,])\s*(?:const\s+)?(?:" + alternatives + rb")(?![\w$])[^;=(){}]*")
    return [m.group() for m in local.finditer(data, open_brace, end)]


def _rewrite_members(ctx: Context, skip, names: dict[bytes, bool], start: int, end: int) -> None:
    data = ctx.data
    alternatives = b"|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    use = re.compile(rb"(?<![\w$.])(" + alternatives + rb")\s*(\[(?:[^\[\]]|\[[^\[\]]*\])*\])?\s*(\.|->)\s*([xy])(?![\w$])")
    for m in use.finditer(data, start, end):
        if skip(m.start()) or data[max(0, m.start() - 2):m.start()] in (b"->", b"::"):
            continue
        pointer = names[m.group(1)]
        subscripted = m.group(2) is not None
        if m.group(3) == b"->":
            if not pointer or subscripted:
                continue
            obj = b"*" + m.group(1)
        elif pointer != subscripted:
            continue  # `p.x` of a pointer, `v[0].x` of a value: not the object we know
        else:
            obj = data[m.start():m.start(3)].rstrip()
        ctx.edit(m.start(), m.end(), b"hipport::" + m.group(4) + b"_of(" + obj + b")", "half2-template-member")
        if COMPAT not in ctx.extra_includes:
            ctx.extra_includes.append(COMPAT)
