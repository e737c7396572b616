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
from hipport import lazy_re

_DEFINITION = lazy_re.compile(
    rb"atomic(?:Add|Sub|Exch|Min|Max|CAS)\s*\(\s*(?:volatile\s+)?(?:float|double)\s*\*[^;{}()]*\)\s*\{"
    # `unsigned long` (std::uint64_t on Linux), which CUDA lacks and HIP has (gravitino/cudahelpers)
    rb"|atomic(?:Add|Sub|Exch|Min|Max|CAS|And|Or|Xor)\s*\(\s*(?:volatile\s+)?"
    rb"(?:unsigned\s+long(?!\s+long)(?:\s+int)?|(?:std\s*::\s*)?uint64_t)\s*\*[^;{}()]*\)\s*\{")
_GUARD = b"#if !defined(__HIP_PLATFORM_AMD__)  // HIP defines it"


# `template <typename T> __device__ T min(T a, T b) {` (mmcv's carafe kernel): clang's HIP headers
# define that very template (`__clang_hip_math.h`), so the file's is a redefinition on AMD too
_MIN_MAX_TEMPLATE = lazy_re.compile(rb"(?:min|max)\s*\(\s*(?:const\s+)?([A-Za-z_]\w*)\s*&?\s*\w*\s*,"
                               rb"\s*(?:const\s+)?\1\s*&?\s*\w*\s*\)\s*\{")


_TEMPLATE_MIN_MAX = lazy_re.compile(rb"template\s*<[^<>;{}]*>[^;{}()]*?(?<![\w$])((?:min|max)\s*\()")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"__device__" not in data:
        return
    if b"template" in data and (b"min" in data or b"max" in data):
        _min_max_templates(ctx, sweep)
    if b"atomic" not in data:
        return
    found = []
    for m in _DEFINITION.finditer(data):
        name_at = m.start()
        if glued_before(data, name_at, b".>:"):
            continue  # another name, a member, a qualified call
        if sweep.in_masked(name_at):
            continue
        start = declaration_start(data, name_at)
        if b"__device__" not in data[start:name_at] and not _device_macro_in(data, start, name_at):
            continue  # a host function of the user's, or a call (`x = atomicMax(p, v) {`) — not ours
        found.append((m, name_at, start))
    scoped = _scoped(data, sweep, [name_at for _m, name_at, _s in found])
    for m, name_at, start in found:
        if name_at in scoped:
            continue  # `util::atomicMax`: no clash with HIP's global one, and its callers name it
        if not wrap_definition(ctx, sweep, start, m.end() - 1, _GUARD, "native-atomic"):
            continue
        signature = b" ".join(data[name_at:m.end() - 1].split()).decode("ascii", "replace")
        ctx.sink.add("HP019", f"HIP already defines {signature}; this definition is kept for CUDA only",
                     name_at, hint="on AMD, HIP's own atomic (a hardware instruction where the GPU has one) serves the calls")


def _scoped(data: bytes, sweep: Scan, positions: list[int]) -> set[int]:
    """The *positions* inside a namespace or a class (or a function): not at file scope, where
    HIP's own definitions are; one walk over the file's braces for all of them."""
    from hipport.cxx.definitions import enclosing_blocks

    out = set()
    for at, opens in enclosing_blocks(data, sweep, sorted(positions)) if positions else ():
        if any(not re.search(rb"extern\s*\"C(?:\+\+)?\"\s*\Z", data[max(0, b - 40):b]) for b in opens):
            out.add(at)
    return out


_DEVICE_MACRO = lazy_re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+[^\n]*\b__device__\b", re.M)


def _device_macro_in(data: bytes, start: int, end: int) -> bool:
    """`DEVICEQUALIFIER INLINEQUALIFIER` (cudahelpers): a macro of the file that spells __device__."""
    names = {m.group(1) for m in _DEVICE_MACRO.finditer(data)} if b"define" in data else set()
    return any(re.search(rb"\b" + re.escape(n) + rb"\b", data[start:end]) for n in names)


def _min_max_templates(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    for t in _TEMPLATE_MIN_MAX.finditer(data):  # (the few templates first, not every min/max call)
        m = _MIN_MAX_TEMPLATE.match(data, t.start(1))
        if m is None:
            continue
        name_at = m.start()
        if glued_before(data, name_at, b".>:") or sweep.in_masked(name_at):
            continue
        start = declaration_start(data, name_at)
        head = data[start:name_at]
        if b"template" not in head or b"__device__" not in head or _scoped(data, sweep, [name_at]):
            continue  # not a device template at file scope (a namespace's own min is no clash)
        if not wrap_definition(ctx, sweep, start, m.end() - 1, _GUARD, "native-min-max"):
            continue
        ctx.sink.add("HP019", f"HIP already defines template {data[name_at:name_at + 3].decode()}(T, T) for device code; "
                     "this definition is kept for CUDA only", name_at,
                     hint="on AMD, HIP's own template (the same a < b comparison) serves the calls")
