"""Kernel launches from device code (CUDA dynamic parallelism), which HIP does not support.

nvcc with ``-rdc=true`` lets a ``__global__`` or ``__device__`` function launch a kernel
(``child<<<g, b>>>(…)``); HIP has no device-side launch, and hipcc's error ("reference to
__global__ function in __global__ function") does not say why.  Each launch inside device code is
reported (HP022), so the port starts by flattening the recursion into host-side launches.  So is a
device-runtime call (`cudaMalloc`, `cudaDeviceSynchronize` … inside a kernel).
"""

from __future__ import annotations

from hipport.cxx.context import Context
from hipport.cxx.definitions import enclosing_blocks
from hipport.cxx.lexer import directive_end, logical_line_start
from hipport.cxx.scan import Scan
from hipport import lazy_re

_DEVICE = lazy_re.compile(rb"\b__(?:global|device)__\b")
_CONTROL = lazy_re.compile(rb"^\s*(?:if|for|while|switch|do|else|try|catch)\b")


# the runtime calls CUDA's device runtime library offers in kernels (with -rdc=true)
_DEVICE_RUNTIME_CALL = lazy_re.compile(
    rb"\bcuda(?:Malloc|Free|MemcpyAsync|Memcpy2DAsync|Memcpy3DAsync|MemsetAsync|Memset2DAsync|DeviceSynchronize"
    rb"|GetLastError|PeekAtLastError|GetDevice|DeviceGetAttribute|StreamCreateWithFlags|StreamDestroy"
    rb"|EventCreateWithFlags|EventRecord|EventDestroy|LaunchDevice|GetParameterBuffer)\s*\(")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if _DEVICE.search(data) is None:
        return
    _device_runtime_calls(ctx, sweep)
    if not sweep.launches:
        return
    device: dict[int, bool] = {}  # block opening -> is it a device function's body
    for launch, opens in enclosing_blocks(data, sweep, sweep.launches):
        inside = False
        for open_at in reversed(opens):  # innermost first
            if open_at not in device:
                device[open_at] = _is_device_function(data, open_at, sweep)
            if device[open_at]:
                inside = True
                break
        if inside:
            ctx.sink.add("HP022", "kernel launched from device code (dynamic parallelism); HIP has no device-side "
                         "launch", launch, end=launch + 3,
                         hint="launch the child kernels from the host (one launch per level, or a loop over "
                              "the work the parent would have spawned)")


def _is_device_function(data: bytes, open_at: int, sweep: Scan) -> bool:
    """Is the block opened at *open_at* the body of a __global__/__device__ function or lambda?"""
    start = open_at
    while start > 0:
        start = max(data.rfind(b";", 0, start), data.rfind(b"}", 0, start), data.rfind(b"{", 0, start))
        if start < 0 or not sweep.in_masked(start):
            break
    # a directive between is not part of the declaration (`#define K(n) __global__ void n` above
    # a macro's `do {`); in a macro body, the declaration starts after the macro's name
    line = logical_line_start(data, open_at)
    if _DIRECTIVE.match(data, line):
        define = _DEFINE_HEAD.match(data, line)
        start = max(start, (define.end() if define else line) - 1)
    else:
        last = data.rfind(b"\n#", start, open_at)
        while last >= 0 and not _DIRECTIVE.match(data, last + 1):
            last = data.rfind(b"\n#", start, last)
        if last >= 0:
            start = max(start, directive_end(data, last + 1))
    header = data[start + 1:open_at]
    if b")" not in header or _CONTROL.match(header):
        return False
    return any(not sweep.in_masked(m.start()) for m in _DEVICE.finditer(data, start + 1, open_at))


_DIRECTIVE = lazy_re.compile(rb"[ \t]*#")
_DEFINE_HEAD = lazy_re.compile(rb"[ \t]*#[ \t]*define[ \t]+\w+(?:\([^()]*\))?")


def _device_runtime_calls(ctx: Context, sweep: Scan) -> None:
    """`cudaMalloc` in a kernel (CUDA's device runtime, PageRankGPU): HIP device code has no runtime
    API; the renamed call would name a host function."""
    data = ctx.data
    calls = [m.start() for m in _DEVICE_RUNTIME_CALL.finditer(data)
             if not sweep.in_masked(m.start()) and data[m.start() - 1:m.start()] not in (b".", b">", b":")]
    if not calls:
        return
    device: dict[int, bool] = {}
    for call, opens in enclosing_blocks(data, sweep, calls):
        for open_at in reversed(opens):
            if open_at not in device:
                device[open_at] = _is_device_function(data, open_at, sweep)
            if device[open_at]:
                name = data[call:data.index(b"(", call)].strip().decode()
                ctx.sink.add("HP022", f"'{name}' called from device code (CUDA's device runtime); HIP device code "
                             "has no runtime API", call, end=call + len(name),
                             hint="allocate with malloc()/free() in device code, or move the call to the host")
                break
