"""`#pragma push_macro("cudaMalloc")` / `pop_macro(...)` around a file's own redefinition of a CUDA name.

The `#undef` and `#define` between the pragmas are renamed with every other use (`hipMalloc`); a
pragma still naming `cudaMalloc` would save and restore another macro, and the user's stays
defined after the pop, silently changing the calls below it.  The name in the pragma's string
follows the rename of the `#define`/`#undef` it brackets (and `_Pragma("push_macro(\"X\")")` alike).
"""

from __future__ import annotations

from hipport.cxx.context import Context
from hipport import lazy_re

_PRAGMA = lazy_re.compile(rb"(?:#[ \t]*pragma[ \t]+|_Pragma[ \t]*\([ \t]*\"[ \t]*)(?:push|pop)_macro[ \t]*\([ \t]*(\\?\")"
                          rb"([A-Za-z_]\w*)\\?\"")
_DEFINITION = lazy_re.compile(rb"#[ \t]*(?:define|undef)[ \t]+([A-Za-z_]\w*)")


def run(ctx: Context) -> None:
    data = ctx.data
    if b"_macro" not in data:
        return
    pragmas = list(_PRAGMA.finditer(data))
    if not pragmas:
        return
    renamed_at = {e.start: e.text for e in ctx.edits if e.rule == "rename" and e.end > e.start}
    renamed: dict[bytes, bytes] = {}
    for m in _DEFINITION.finditer(data):
        if m.start(1) in renamed_at:
            renamed[m.group(1)] = renamed_at[m.start(1)]
    for m in pragmas:
        new = renamed.get(m.group(2))
        if new is not None:
            ctx.edit(m.start(2), m.end(2), new, "pragma-macro-name")
