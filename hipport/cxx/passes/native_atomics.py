"""A file's own float/double (and `unsigned long`) atomics, which HIP already defines.

CUDA has no `atomicMax(float*, float)` (nor `atomicMin`, `atomicSub`, `atomicCAS` on float and
double, nor `atomicAdd(double*)` before sm_60, nor any atomic on `unsigned long`, which is
`std::uint64_t` on Linux), so CUDA code defines them with a compare-and-swap loop or a cast.  HIP defines every one of them, so after the port the file's definition is a redefinition
and does not compile.  The definition is kept for CUDA (HIP's NVIDIA platform) and left out on
AMD, where HIP's own (hardware) atomic serves the same calls: it is wrapped in
`#if !defined(__HIP_PLATFORM_AMD__)` … `#endif`, and reported (HP019).
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.definitions import declaration_start, wrap_definition
from hipport.cxx.lexer import glued_before
from hipport.cxx.scan import Scan

_DEFINITION = re.compile(
    rb"atomic(?:Add|Sub|Exch|Min|Max|CAS)\s*\(\s*(?:volatile\s+)?(?:float|double)\s*\*[^;{}()]*\)\s*\{"
    # `unsigned long` (std::uint64_t on Linux), which CUDA lacks and HIP has (gravitino/cudahelpers)
    rb"|atomic(?:Add|Sub|Exch|Min|Max|CAS|And|Or|Xor)\s*\(\s*(?:volatile\s+)?"
    rb"(?:unsigned\s+long(?!\s+long)(?:\s+int)?|(?:std\s*::\s*)?uint64_t)\s*\*[^;{}()]*\)\s*\{")
_GUARD = b"#if !defined(__HIP_PLATFORM_AMD__)  // HIP defines it"


# `template <typename T> __device__ T min(T a, T b) {` (mmcv's carafe kernel): clang's HIP headers
# define that very template (`__clang_hip_math.h`), so the file's is a redefinition on AMD too
_MIN_MAX_TEMPLATE = re.compile(rb"(?:min|max)\s*\(\s*(?:const\s+)?([A-Za-z_]\w*)\s*&?\s*\w*\s*,"
                               rb"\s*(?:const\s+)?\1\s*&?\s*\w*\s*\)\s*\{")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"__device__" not in data:
        return
    if b"template" in data and (b"min" in data or b"max" in data):
        _min_max_templates(ctx, sweep)
    if b"atomic" not in data:
        return
    for m in _DEFINITION.finditer(data):
        name_at = m.start()
        if glued_before(data, name_at, b".>:"):
            continue  # another name, a member, a qualified call
        if sweep.in_masked(name_at):
            continue
        start = declaration_start(data, name_at)
        if b"__device__" not in data[start:name_at] and not _device_macro_in(data, start, name_at):
            continue  # a host function of the user's, or a call (`x = atomicMax(p, v) {`) — not ours
        if _in_a_namespace_or_class(data, name_at, sweep):
            continue  # `util::atomicMax`: no clash with HIP's global one, and its callers name it
        if not wrap_definition(ctx, sweep, start, m.end() - 1, _GUARD, "native-atomic"):
            continue
        signature = b" ".join(data[name_at:m.end() - 1].split()).decode("ascii", "replace")
        ctx.sink.add("HP019", f"HIP already defines {signature}; this definition is kept for CUDA only",
                     name_at, hint="on AMD, HIP's own atomic (a hardware instruction where the GPU has one) serves the calls")


def _in_a_namespace_or_class(data: bytes, at: int, sweep: Scan) -> bool:
    from hipport.cxx.definitions import enclosing_braces

    for brace in enclosing_braces(data, at, sweep):
        head = data[max(0, brace - 160):brace]
        if re.search(rb"\b(?:namespace|struct|class|union)\b[^;{}()]*\Z", head):
            return True
        if not re.search(rb"extern\s*\"C(?:\+\+)?\"\s*\Z", head):
            return False  # a function body (a local struct's member is not ours either way)
    return False


_DEVICE_MACRO = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+[^\n]*\b__device__\b", re.M)


def _device_macro_in(data: bytes, start: int, end: int) -> bool:
    """`DEVICEQUALIFIER INLINEQUALIFIER` (cudahelpers): a macro of the file that spells __device__."""
    names = {m.group(1) for m in _DEVICE_MACRO.finditer(data)} if b"define" in data else set()
    return any(re.search(rb"\b" + re.escape(n) + rb"\b", data[start:end]) for n in names)


def _min_max_templates(ctx: Context, sweep: Scan) -> None:
    from hipport.cxx.definitions import enclosing_braces

    data = ctx.data
    for m in _MIN_MAX_TEMPLATE.finditer(data):
        name_at = m.start()
        if glued_before(data, name_at, b".>:") or sweep.in_masked(name_at):
            continue
        start = declaration_start(data, name_at)
        head = data[start:name_at]
        if b"template" not in head or b"__device__" not in head or next(enclosing_braces(data, name_at, sweep), None) is not None:
            continue  # not a device template at file scope (a namespace's own min is no clash)
        if not wrap_definition(ctx, sweep, start, m.end() - 1, _GUARD, "native-min-max"):
            continue
        ctx.sink.add("HP019", f"HIP already defines template {data[name_at:name_at + 3].decode()}(T, T) for device code; "
                     "this definition is kept for CUDA only", name_at,
                     hint="on AMD, HIP's own template (the same a < b comparison) serves the calls")
