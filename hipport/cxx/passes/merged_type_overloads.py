"""Overloads on a CUDA runtime type and its driver twin, which HIP merges into one type.

CUDA's runtime and driver APIs have distinct status and handle types (``cudaError_t`` and
``CUresult``, ``cudaStream_t`` and ``CUstream``, ``cudaEvent_t`` and ``CUevent``); HIP has one
of each.  A helper overloaded on both — helper_cuda.h's ``_cudaGetErrorEnum(CUresult)`` beside
``_cudaGetErrorEnum(cudaError_t)``, a ``check(CUresult)`` beside ``check(cudaError_t)`` — becomes
two definitions of one function and does not compile.  HIP's driver API returns and takes the
runtime's types, so the runtime overload serves both kinds of call: the driver one is left out
(wrapped in ``#if 0`` … ``#endif`` with a note) and reported (HP021).
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.lexer import glued_before
from hipport.cxx.definitions import declaration_start, wrap_definition
from hipport.cxx.scan import Scan

#: driver type -> the runtime type HIP gives both of them
DRIVER_TWINS = {b"CUresult": b"cudaError_t", b"CUstream": b"cudaStream_t", b"CUevent": b"cudaEvent_t"}
_RUNTIME_ALIASES = {b"cudaError": b"cudaError_t"}
_TYPES = b"|".join([*DRIVER_TWINS, *DRIVER_TWINS.values(), *_RUNTIME_ALIASES])
# name(parameters) [const] {  — a definition whose parameters mention one of the types
_DEFINITION = re.compile(rb"\b([A-Za-z_]\w*)\s*\(([^(){};]*\b(?:" + _TYPES + rb")\b[^(){};]*)\)\s*(?:const\s*)?\{")
_NAME = re.compile(rb"[A-Za-z_]\w*")
_GUARD = b"#if 0  // hipport: HIP's driver API uses the runtime's types; the overload on them serves this too"
_KEYWORDS = {b"if", b"while", b"for", b"switch", b"return", b"catch", b"sizeof"}


def _signature(params: bytes) -> tuple[bytes, ...]:
    """The parameter types, driver types spelled as their runtime twins, names and defaults dropped."""
    out = []
    for param in params.split(b","):
        words = _NAME.findall(param.split(b"=")[0])
        if len(words) > 1 and not param.rstrip().endswith((b"*", b"&")):
            words = words[:-1]  # the parameter's name
        words = [DRIVER_TWINS.get(w, _RUNTIME_ALIASES.get(w, w)) for w in words]
        out.append(b" ".join(words) + b"*" * param.count(b"*") + b"&" * param.count(b"&"))
    return tuple(out)


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if not any(t in data for t in DRIVER_TWINS):
        return
    runtime: set[tuple[bytes, tuple[bytes, ...]]] = set()
    driver = []
    for m in _DEFINITION.finditer(data):
        name, params = m.group(1), m.group(2)
        if name in _KEYWORDS or glued_before(data, m.start(), b".>:") or sweep.in_masked(m.start()):
            continue
        key = (name, _signature(params))
        if any(re.search(rb"\b" + t + rb"\b", params) for t in DRIVER_TWINS):
            driver.append((m, key))
        else:
            runtime.add(key)
    for m, key in driver:
        if key in runtime:
            _leave_out(ctx, sweep, m)


def _leave_out(ctx: Context, sweep: Scan, m: re.Match) -> None:
    if wrap_definition(ctx, sweep, declaration_start(ctx.data, m.start()), m.end() - 1, _GUARD, "merged-type-overload"):
        name = m.group(1).decode("ascii", "replace")
        ctx.sink.add("HP021", f"{name} is overloaded on a CUDA runtime type and its driver twin, one type in HIP; "
                     "the driver overload is left out", m.start(),
                     hint="HIP's driver calls return and take the runtime's types, so the other overload serves them")
