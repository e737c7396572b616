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
    yield from _arguments_for(data, lambda p, body: re.search(use(re.escape(p)), body) is not None, skip)


def pasted_only_arguments(data: bytes, skip: Callable[[int], bool]) -> Iterator[tuple[bytes, int, int]]:
    """Arguments given to a parameter the macro's body only pastes (`p_##n`) or stringizes, never
    uses as a token of its own (`#define LOAD(n) (p_##n = dlsym(h, #n))`): after expansion the
    argument's own spelling names nothing, so renaming it would only break what it is pasted into."""
    def pasted_only(param: bytes, body: bytes) -> bool:
        pasted = False
        for m in re.finditer(rb"(?<![\w$])" + re.escape(param) + rb"(?![\w$])", body):
            before, after = body[:m.start()].rstrip(b" \t"), body[m.end():].lstrip(b" \t")
            if before.endswith(b"##") or after.startswith(b"##"):
                pasted = True
            elif not before.endswith(b"#"):
                return False
        return pasted

    yield from _arguments_for(data, pasted_only, skip)


def _arguments_for(data: bytes, used_as: Callable[[bytes, bytes], bool], skip: Callable[[int], bool]
                   ) -> Iterator[tuple[bytes, int, int]]:
    params_used: dict[bytes, set[int]] = {}
    for m in _FUNCTION_MACRO.finditer(data):
        params = [p.strip() for p in m.group(2).split(b",")]
        used = {i for i, p in enumerate(params) if p and used_as(p, m.group(3))}
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
