"""`k << <grid, block >> > (args)`: a launch whose chevrons an editor's formatter pulled apart
(sometimes only the closing ones: `k<<<1, 1 >> > (d)`).

Visual Studio's C++ formatter writes CUDA launches as `<< <` … `>> >`, and nvcc accepts them;
HIP's compiler (clang) only knows the `<<<` / `>>>` tokens, so such a launch does not compile, and
no later pass would even see it as a launch.  The chevrons are closed up first, so every pass
works on an ordinary launch.  `operator<< <T>` (a template operator's explicit arguments) is C++,
not a launch, and comments and literals are left alone.
"""

from __future__ import annotations

from hipport.cxx.scan import masked_spans, outside
from hipport import lazy_re

_SPACED_OPEN = lazy_re.compile(rb"<<[ \t]+<(?!<)|<<<(?=[^;]*?(?:>>[ \t]+>|>[ \t]+>>))")  # (or only its close: `k<<<1, 1 >> > (d)`)
_CLOSE = lazy_re.compile(rb">>[ \t]*>|>[ \t]+>>")
_OPERATOR = lazy_re.compile(rb"\boperator\s*\Z")


_OPERATOR_CHEVRONS = lazy_re.compile(rb"\boperator\s*<<(?=<)")


def close_up(data: bytes) -> bytes:
    """*data* with each spaced launch's `<< <` and its `>> >` written `<<<` and `>>>`, and an
    `operator<<<int>` (a template operator's explicit arguments, which clang lexes as a launch's
    `<<<`) written `operator<< <int>`."""
    if b"operator" in data and _OPERATOR_CHEVRONS.search(data):
        masked = masked_spans(data)
        spots = outside([m.end() for m in _OPERATOR_CHEVRONS.finditer(data)], masked)
        data = b"".join(data[a:b] + (b" " if b < len(data) else b"") for a, b in zip([0, *spots], [*spots, len(data)]))
    if not _SPACED_OPEN.search(data):
        return data
    masked = masked_spans(data)
    opens = outside([m.span() for m in _SPACED_OPEN.finditer(data)], masked)
    pieces, last = [], 0
    for start, end in opens:
        if start < last or _OPERATOR.search(data, max(0, start - 40), start):
            continue
        close = next((m for m in _CLOSE.finditer(data, end) if outside([m.span()], masked)), None)
        if close is None or b";" in data[end:close.start()]:
            continue
        if close.group() == b">>>" and data[start:end] == b"<<<":
            continue  # `k<<<g, b>>>`: nothing spaced
        pieces += [data[last:start], b"<<<", data[end:close.start()], b">>>"]
        last = close.end()
    pieces.append(data[last:])
    return b"".join(pieces)
