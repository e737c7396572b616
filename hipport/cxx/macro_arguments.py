"""Arguments of function-like macros whose bodies use a parameter in a given way.

Some rewrites need the whole expression (`prop.asyncEngineCount`, `h.x`), which a macro such as
`#define SHOW(p, f) (p).f` assembles only when it is expanded: no rewrite can reach it, but the
uses can still be reported where the macro is invoked, at the argument that completes it.
"""

from __future__ import annotations

import re
from typing import Callable, Iterator

from hipport.cxx.calls import call_arguments, skip_ws
from hipport import lazy_re

_FUNCTION_MACRO = lazy_re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^()]*)\)(.*(?:\\\r?\n.*)*)", re.M)


def macro_arguments(data: bytes, use: Callable[[bytes], bytes], skip: Callable[[int], bool]
                    ) -> Iterator[tuple[bytes, int, int]]:
    """(macro name, start, end) of each argument given to a parameter the macro's body uses as
    *use* (parameter name → regex over the body) describes; invocations where *skip* holds for
    the name's offset (comments, literals, directives) are left out."""
    params_used: dict[bytes, set[int]] = {}
    for m in _FUNCTION_MACRO.finditer(data):
        params = [p.strip() for p in m.group(2).split(b",")]
        used = {i for i, p in enumerate(params) if p and re.search(use(re.escape(p)), m.group(3))}
        if used:
            params_used[m.group(1)] = used
    if not params_used:
        return
    calls = re.compile(rb"(?<![\w$.])(" + b"|".join(re.escape(n) for n in sorted(params_used)) + rb")\s*\(")
    for m in calls.finditer(data):
        if skip(m.start()):
            continue
        parsed = call_arguments(data, skip_ws(data, m.end(1)))
        if parsed is None:
            continue
        for i in sorted(params_used[m.group(1)]):
            if i < len(parsed[0]):
                yield m.group(1), *parsed[0][i]
