"""The file's own variables and functions named like HIP's API.

`static int hipMalloc = 0;` or `int hipStream_t = 2;` is valid CUDA, but once the translation
includes HIP's headers the name is declared twice: a redefinition, or a type name a variable hides
(`hipStream_t s;` then no longer parses).  A forwarding wrapper kept for a CUDA build
(`hipError_t hipMalloc(void** p, size_t n) { return cudaMalloc(p, n); }`) turns into a call of
itself.  Which uses mean the user's entity is not ours to guess, so the declaration is reported.
Aliases (`typedef cudaStream_t hipStream_t;`, `using …`) are left out: they alias the same type
after translation, which C++ allows.
"""

from __future__ import annotations

from functools import lru_cache

from hipport.cxx.context import Context
from hipport.cxx.scan import Scan
from hipport.rules import RuleSet
from hipport import lazy_re

_HIP_NAME = lazy_re.compile(rb"hip[A-Z_]\w*")  # (a literal first: a fast search; what precedes is checked after)
_ALIAS = lazy_re.compile(rb"\b(?:typedef|using)\b")
_NOT_BEFORE = frozenset(bytes([c]) for c in b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.>:")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if not ctx.edits or b"hip" not in data:
        return
    from hipport.cxx.passes.rename import looks_declared

    reported: set[bytes] = set()
    for m in _HIP_NAME.finditer(data):
        name = m.group()
        if name in reported or data[m.start() - 1:m.start()] in _NOT_BEFORE or sweep.in_masked(m.start()) \
                or not looks_declared(data, m.start(), m.end()):
            continue
        if name not in _hip_names(ctx.rules) or _in_alias(data, m.start()):
            continue
        reported.add(name)
        ctx.sink.add("HP028", f"the file declares '{name.decode()}', which HIP's headers declare too: "
                     "after translation the two collide", m.start(), end=m.end(),
                     hint="rename the file's own entity (and its uses)")


@lru_cache(maxsize=2)
def _hip_names(rules: RuleSet) -> frozenset[bytes]:
    """The HIP identifiers the rules translate to (qualified and composite targets left out)."""
    return frozenset(r.hip.encode() for r in rules.by_name.values()
                     if r.hip and r.hip.startswith("hip") and r.hip.isidentifier())


def _in_alias(data: bytes, at: int) -> bool:
    statement_start = max(data.rfind(b";", 0, at), data.rfind(b"{", 0, at), data.rfind(b"}", 0, at)) + 1
    return _ALIAS.search(data, statement_start, at) is not None
