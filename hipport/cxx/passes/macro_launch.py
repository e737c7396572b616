"""Launches written through a macro, rewritten where the macro is used.

``#define LAUNCH(k, g, b, ...) k<<<g, b>>>(__VA_ARGS__)`` used as ``LAUNCH(inc, grid, block, a, b);``
becomes ``hipLaunchKernelGGL(inc, dim3(grid), dim3(block), 0, 0, a, b);`` at the use, as
hipify-clang writes it (it sees the expansion); the ``#define`` itself is rewritten by the launch
pass as well, so the macro stays valid for uses this file does not show.  An object-like macro
that holds a launch without its arguments (``#define CALL k<<<1, n>>>`` used as ``CALL(a, b)``)
can only be rewritten at its uses.

Only macros whose whole replacement is one launch, and which the file defines once, are expanded;
anything else is left to the launch pass (a macro defined in two `#if` branches keeps its uses:
expanding one branch's body would choose the build configuration).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hipport.cxx.calls import call_arguments, skip_ws
from hipport.cxx.context import Context
from hipport.cxx.lexer import directive_end
from hipport.cxx.scan import outside
from hipport import lazy_re

_DEFINE_RE = lazy_re.compile(rb"[ \t]*define[ \t]+([A-Za-z_]\w*)(?:\(([^()]*)\))?")
_CONTINUATION_RE = lazy_re.compile(rb"\\\r?\n")


@dataclass
class LaunchMacro:
    params: list[bytes] | None  # None: object-like
    body: bytes  # the replacement, continuations joined, without a trailing ';'
    launch: int  # offset of the '<<<' in the #define
    with_arguments: bool  # the replacement ends in the launch's own (args)


def find(data: bytes, directives: list[int], launches: list[int]) -> dict[bytes, LaunchMacro]:
    """Macros whose replacement is exactly one kernel launch (with or without its arguments)."""
    found: dict[bytes, LaunchMacro] = {}
    inside = sorted(launches)
    defined: set[bytes] = set()
    twice: set[bytes] = set()  # `#ifdef USE_GRAPH` / `#else`: which one a use means is the build's choice
    for pos in directives:
        m = _DEFINE_RE.match(data, pos + 1)
        if not m:
            continue
        (twice if m.group(1) in defined else defined).add(m.group(1))
        end = directive_end(data, pos)
        mine = [p for p in inside if m.end() <= p < end]
        if len(mine) != 1:
            continue
        body = _CONTINUATION_RE.sub(b" ", data[m.end():end]).strip()
        if body.endswith(b";"):
            body = body[:-1].rstrip()
        shape = _launch_shape(body)
        if shape is None:
            continue
        params = None if m.group(2) is None else [p.strip() for p in m.group(2).split(b",") if p.strip()]
        found[m.group(1)] = LaunchMacro(params, body, mine[0], shape)
    for name in twice:
        found.pop(name, None)
    return found


def _launch_shape(body: bytes) -> bool | None:
    """True for ``k<<<cfg>>>(args)``, False for ``k<<<cfg>>>``, None when the body is anything else."""
    open_pos = body.find(b"<<<")
    close = body.find(b">>>", open_pos)
    if open_pos <= 0 or close < 0 or body.find(b"<<<", open_pos + 3) >= 0 or b";" in body or b"#" in body:
        return None  # (`#p`, `s##_val`: what a use stands for is the preprocessor's to build)
    if not re.fullmatch(rb"[\w:<>, ()*&]+", body[:open_pos].strip()):
        return None
    rest = skip_ws(body, close + 3)
    if rest == len(body):
        return False
    if body[rest:rest + 1] != b"(":
        return None
    parsed = call_arguments(body, rest)
    return True if parsed is not None and parsed[1] == len(body) - 1 else None


def expansion(macro: LaunchMacro, data: bytes, args: list[tuple[int, int]], paren: int, close: int) -> bytes | None:
    """The launch text a use of *macro* stands for, or None when the use does not fit."""
    texts = [data[s:e] for s, e in args]
    if macro.params is None:
        return macro.body + data[paren:close + 1] if not macro.with_arguments else None
    named = [p for p in macro.params if p != b"..."]
    variadic = len(named) != len(macro.params)
    if len(texts) < len(named) or (len(texts) > len(named) and not variadic):
        return None
    values = dict(zip(named, texts))
    if variadic:
        values[b"__VA_ARGS__"] = b", ".join(texts[len(named):])
    out = re.sub(rb"[A-Za-z_]\w*", lambda t: values.get(t.group(), t.group()), macro.body)
    return out if macro.with_arguments else None


def rewrite_uses(ctx: Context, sweep, translate_fragment) -> list[tuple[int, int]]:
    """Replace each use of a launch macro by its translated expansion; returns the rewritten
    spans, which the other passes then leave alone.  A launch without its arguments (an
    object-like macro) is dropped from ``sweep.launches`` once its uses are rewritten: the
    #define itself cannot be."""
    data = ctx.data
    macros = find(data, sweep.directives, sweep.launches)
    if not macros:
        return []
    directive_spans = [(pos, directive_end(data, pos)) for pos in sweep.directives]
    used: list[tuple[int, int]] = []
    done_without_arguments: set[int] = set()
    for name, macro in macros.items():
        for m in re.finditer(rb"(?<![\w$])" + re.escape(name) + rb"(?![\w$])", data):
            if sweep.in_masked(m.start()) or not outside([m.start()], directive_spans):
                continue
            paren = skip_ws(data, m.end())
            parsed = call_arguments(data, paren) if data[paren:paren + 1] == b"(" else None
            text = parsed and expansion(macro, data, parsed[0], paren, parsed[1])
            if not text:
                continue
            ctx.edit(m.start(), parsed[1] + 1, translate_fragment(ctx, text), "macro-launch")
            used.append((m.start(), parsed[1] + 1))
            if not macro.with_arguments:
                done_without_arguments.add(macro.launch)
    sweep.launches = [p for p in sweep.launches if p not in done_without_arguments]
    return sorted(used)
