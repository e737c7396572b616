"""HP030: runtime-compiled programs are text — sources and options in strings, which the
translation leaves as they are (it never rewrites inside literals).

`nvrtcCreateProgram(&p, src, …)` becomes hiprtcCreateProgram, but the CUDA in `src`
(`__shfl_sync`, `__CUDA_ARCH__` tests, cuda* calls) reaches hiprtc unchanged and fails at run
time, far from the port.  A string holding device code (`__global__`) — in the file that compiles
it, or a header that is one raw string (xmrig's KawPow.h, pulled into a std::string by
`#include`) — is reported with the CUDA names in it that a translation would rewrite.  An option
naming an NVIDIA architecture (`"--gpu-architecture=compute_80"`) in a file that compiles with
NVRTC is reported too: hiprtc takes `--offload-arch=gfx…`, or nothing for the current device.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.scan import Scan
from hipport import lazy_re

_IDENTIFIER = lazy_re.compile(rb"[A-Za-z_]\w*")
_ARCH_OPTION = lazy_re.compile(rb'"(?:--gpu-architecture|-arch|--gpu-name)[= ]?(?:compute|sm)_\d+[a-z]?"')
_STRING_START = (b'"', b"R", b"u", b"U", b"L")
_SHOWN = 4


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"__global__" in data:
        _device_code_in_strings(ctx, sweep)
    if b"rtcCompileProgram" in data and b"_" in data:
        for m in _ARCH_OPTION.finditer(data):
            if _string_at(sweep, m.start()) is not None:
                ctx.sink.add("HP030", f"runtime-compilation option {m.group().decode()} names an NVIDIA "
                             "architecture", m.start(), end=m.end(),
                             hint="hiprtc takes --offload-arch=gfx90a (or no option: the current device's)")


def _device_code_in_strings(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    reported: set[int] = set()
    for m in re.finditer(rb"__global__", data):
        span = _string_at(sweep, m.start())
        if span is None or span[0] in reported:
            continue
        reported.add(span[0])
        names = _cuda_names(ctx, data[span[0]:span[1]])
        if names:
            shown = ", ".join(n.decode() for n in names[:_SHOWN]) + (", …" if len(names) > _SHOWN else "")
            ctx.sink.add("HP030", f"device code in a string (a runtime-compiled program) is not translated; "
                         f"it uses CUDA names: {shown}", span[0],
                         hint="spell the HIP names in the string (hiprtc compiles HIP), or keep the kernel in a "
                         "file of its own and translate that")


def _string_at(sweep: Scan, at: int) -> tuple[int, int] | None:
    """The string literal holding *at* (not a comment)."""
    span = sweep.masked_span(at)
    return span if span is not None and sweep.data[span[0]:span[0] + 1] in _STRING_START else None


def _cuda_names(ctx: Context, text: bytes) -> list[bytes]:
    by_name = ctx.rules.by_name
    found: list[bytes] = []
    for ident in dict.fromkeys(_IDENTIFIER.findall(text)):
        rule = by_name.get(ident.decode("ascii", "replace"))
        # renamed by a translation, or supplied by a hipport header (which hiprtc does not see)
        if rule is not None and rule.hip and (rule.hip != rule.cuda or rule.include) or ident == b"__CUDA_ARCH__":
            found.append(ident)
    return found
