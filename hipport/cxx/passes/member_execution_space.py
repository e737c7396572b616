"""Member functions declared plainly in their class and defined out of line as `__device__`.

    class Spinlock { public: void acquire(); … };
    inline __device__ void Spinlock::acquire() { … }

nvcc lets the definition's execution space win (with a warning); clang rejects the definition
("out-of-line definition does not match any declaration").  The declaration in the class gets the
definition's `__host__` / `__device__`, which is what nvcc compiled.  Only for a class the file
defines, and a name declared there once (an overload set is not ours to pair up).
"""

from __future__ import annotations

import re

from hipport.cxx.calls import call_arguments, skip_ws
from hipport.cxx.context import Context
from hipport.cxx.definitions import declaration_start, matching_brace
from hipport.cxx.scan import Scan

_QUALIFIED_NAME = re.compile(rb"::\s*(~?[A-Za-z_]\w*)\s*\(")  # (a literal first: a fast search)
_CLASS_BEFORE = re.compile(rb"(?<![\w$:])([A-Za-z_]\w*)\s*\Z")
_SPACE = re.compile(rb"(?<![\w$])__(host|device)__(?![\w$])")
_ACCESS = re.compile(rb"(?:(?:public|private|protected)\s*:\s*)*")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"__device__" not in data or b"::" not in data or (b"class" not in data and b"struct" not in data):
        return
    bodies: dict[bytes, tuple[int, int] | None] = {}
    done: set[int] = set()
    for m in _QUALIFIED_NAME.finditer(data):
        owner = _CLASS_BEFORE.search(data, max(0, m.start() - 128), m.start())
        if owner is None:
            continue
        start = declaration_start(data, owner.start())
        head = data[start:owner.start()]
        spaces = sorted(set(_SPACE.findall(head)))
        if not spaces or sweep.in_masked(owner.start()) or b";" in head or b"}" in head or b"(" in head:
            continue
        close = _parameters_end(data, m.end() - 1)
        if close is None or not re.match(rb"[^;{}]*\{", data[close:close + 200]):
            continue  # a call or a declaration, not a definition
        cls, name = owner.group(1), m.group(1)
        if cls not in bodies:
            bodies[cls] = _class_body(data, cls, sweep)
        body = bodies[cls]
        if body is None:
            continue
        declarations = [d for d in re.finditer(rb"(?<![\w$~:.>])" + re.escape(name) + rb"\s*\(", data[body[0]:body[1]])
                        if not sweep.in_masked(body[0] + d.start())]
        if len(declarations) != 1:
            continue
        at = body[0] + declarations[0].start()
        line = declaration_start(data, at)
        line = max(line, body[0])
        line = _ACCESS.match(data, skip_ws(data, line)).end()
        line = skip_ws(data, line)
        decl_end = _parameters_end(data, body[0] + declarations[0].end() - 1)
        if decl_end is None or line in done or _SPACE.search(data, line, at) \
                or not re.match(rb"[^;{}]*;", data[decl_end:decl_end + 200]):
            continue  # already qualified, or defined in the class too
        done.add(line)
        qualifiers = b" ".join(b"__" + s + b"__" for s in sorted(spaces, key=lambda s: s != b"host")) + b" "
        ctx.edit(line, line, qualifiers, "member-execution-space")


def _parameters_end(data: bytes, open_paren: int) -> int | None:
    """Just past the `)` matching the `(` at *open_paren*."""
    parsed = call_arguments(data, open_paren)
    return None if parsed is None else parsed[1] + 1


def _class_body(data: bytes, cls: bytes, sweep: Scan) -> tuple[int, int] | None:
    """(after the `{`, the `}`) of the one definition of class *cls* in the file."""
    heads = [h for h in re.finditer(rb"\b(?:class|struct)\s+" + re.escape(cls) + rb"\b[^;{]*\{", data)
             if not sweep.in_masked(h.start())]
    if len(heads) != 1:
        return None
    close = matching_brace(data, heads[0].end() - 1, sweep)
    return None if close is None else (heads[0].end(), close)
