"""Overloads on a CUDA runtime type and its driver twin, which HIP merges into one type.

CUDA's runtime and driver APIs have distinct status and handle types (``cudaError_t`` and
``CUresult``, ``cudaStream_t`` and ``CUstream``, ``cudaMemoryType`` and ``CUmemorytype``,
``cudaArray_t`` and ``CUarray``, …); HIP has one of each.  A helper overloaded on both — helper_cuda.h's ``_cudaGetErrorEnum(CUresult)`` beside
``_cudaGetErrorEnum(cudaError_t)``, a ``check(CUresult)`` beside ``check(cudaError_t)`` — becomes
two definitions of one function and does not compile.  HIP's driver API returns and takes the
runtime's types, so the runtime overload serves both kinds of call: the driver one is left out
(wrapped in ``#if 0`` … ``#endif`` with a note) and reported (HP021).
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.definitions import declaration_start, enclosing_blocks, wrap_definition
from hipport.cxx.lexer import glued_before
from hipport.cxx.scan import Scan
from hipport import lazy_re

#: driver type -> the runtime type HIP gives both of them
#: (tests/test_translate.py checks that the rules map each pair to one HIP type)
DRIVER_TWINS = {
    b"CUresult": b"cudaError_t", b"CUstream": b"cudaStream_t", b"CUevent": b"cudaEvent_t",
    b"CUmemorytype": b"cudaMemoryType", b"CUarray": b"cudaArray_t", b"CUmipmappedArray": b"cudaMipmappedArray_t",
    b"CUgraph": b"cudaGraph_t", b"CUgraphExec": b"cudaGraphExec_t", b"CUgraphNode": b"cudaGraphNode_t",
    b"CUtexObject": b"cudaTextureObject_t", b"CUsurfObject": b"cudaSurfaceObject_t",
    b"CUexternalMemory": b"cudaExternalMemory_t", b"CUexternalSemaphore": b"cudaExternalSemaphore_t",
    b"CUmemoryPool": b"cudaMemPool_t", b"CUuserObject": b"cudaUserObject_t", b"CUfunction": b"cudaFunction_t",
    b"CUgraphicsResource": b"cudaGraphicsResource_t", b"CUdevice_attribute": b"cudaDeviceAttr",
    b"CUstreamCaptureStatus": b"cudaStreamCaptureStatus", b"CUstreamCaptureMode": b"cudaStreamCaptureMode",
    b"CUlimit": b"cudaLimit", b"CUfunc_cache": b"cudaFuncCache", b"CUsharedconfig": b"cudaSharedMemConfig",
}
#: with --roc, cuSOLVER's status and handle become rocBLAS's, as cuBLAS's do
ROC_TWINS = {b"cusolverStatus_t": b"cublasStatus_t", b"cusolverDnHandle_t": b"cublasHandle_t"}
_RUNTIME_ALIASES = {b"cudaError": b"cudaError_t"}
_TYPE = lazy_re.compile(rb"\b(?:" + b"|".join([*DRIVER_TWINS, *DRIVER_TWINS.values(), *_RUNTIME_ALIASES]) + rb")\b")
_DRIVER_TYPE = lazy_re.compile(rb"\bCU(?:" + b"|".join(t[2:] for t in DRIVER_TWINS) + rb")\b")
_NAME_BEFORE = lazy_re.compile(rb"(operator\s*[^\s\w()]+|[A-Za-z_]\w*)\s*$")  # (`operator<<` too)
_BODY_AFTER = lazy_re.compile(rb"\s*(?:const\s*)?\{")
_NAME = lazy_re.compile(rb"[A-Za-z_]\w*")
_GUARD = b"#if 0  // hipport: HIP's driver API uses the runtime's types; the overload on them serves this too"
_KEYWORDS = {b"if", b"while", b"for", b"switch", b"return", b"catch", b"sizeof"}


def _signature(params: bytes, twins: dict = DRIVER_TWINS) -> tuple[bytes, ...]:
    """The parameter types, driver types spelled as their runtime twins, names and defaults dropped."""
    out = []
    for param in params.split(b","):
        words = _NAME.findall(param.split(b"=")[0])
        if len(words) > 1 and not param.rstrip().endswith((b"*", b"&")):
            words = words[:-1]  # the parameter's name
        words = [twins.get(w, _RUNTIME_ALIASES.get(w, w)) for w in words]
        out.append(b" ".join(words) + b"*" * param.count(b"*") + b"&" * param.count(b"&"))
    return tuple(out)


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    twins, driver_type, any_type = DRIVER_TWINS, _DRIVER_TYPE, _TYPE
    if ctx.options.roc and b"cusolver" in data:
        twins = {**DRIVER_TWINS, **ROC_TWINS}
        driver_type = re.compile(driver_type.pattern + rb"|\b(?:" + b"|".join(ROC_TWINS) + rb")\b")
        any_type = re.compile(any_type.pattern + rb"|\b(?:" + b"|".join([*ROC_TWINS, *ROC_TWINS.values()]) + rb")\b")
    if not any(t in data for t in twins):
        return
    # a driver overload first (few files have one): only then the runtime ones it may collide with
    if next(_definitions(data, sweep, driver_type), None) is None:
        return
    runtime: set[tuple] = set()
    driver = []
    found = list(_definitions(data, sweep, any_type))
    # overloads collide only in one scope: two classes' members, or two namespaces', do not
    scopes = {at: (opens[-1] if opens else -1) for at, opens in enclosing_blocks(data, sweep, sorted(f[0] for f in found))}
    for name_at, name, params, open_brace in found:
        key = (scopes[name_at], name, _signature(params, twins))
        if any(re.search(rb"\b" + t + rb"\b", params) for t in twins):
            driver.append((name_at, name, open_brace, key))
        else:
            runtime.add(key)
    for name_at, name, open_brace, key in driver:
        if key in runtime:
            _leave_out(ctx, sweep, name_at, name, open_brace)


def _definitions(data: bytes, sweep: Scan, types: re.Pattern = _TYPE):
    """(name offset, name, parameter text, body brace) of the function definitions whose
    parameters mention one of the types; found from the type names (a literal search), not by
    trying every identifier."""
    seen = set()
    for m in types.finditer(data):
        open_paren = data.rfind(b"(", 0, m.start())
        close_paren = data.find(b")", m.end())
        if open_paren < 0 or close_paren < 0 or open_paren in seen:
            continue
        params = data[open_paren + 1:close_paren]
        if any(c in params for c in (b"(", b")", b";", b"{", b"}")):
            continue  # not one simple parameter list
        seen.add(open_paren)
        body = _BODY_AFTER.match(data, close_paren + 1)
        name = _NAME_BEFORE.search(data, max(0, open_paren - 128), open_paren)
        if body is None or name is None or name.group(1) in _KEYWORDS:
            continue
        if glued_before(data, name.start(1), b".>:") or sweep.in_masked(name.start(1)):
            continue
        yield name.start(1), name.group(1), params, body.end() - 1


def _leave_out(ctx: Context, sweep: Scan, name_at: int, name: bytes, open_brace: int) -> None:
    if wrap_definition(ctx, sweep, declaration_start(ctx.data, name_at), open_brace, _GUARD, "merged-type-overload"):
        ctx.sink.add("HP021", f"{name.decode('ascii', 'replace')} is overloaded on two CUDA types (a runtime type and "
                     "its driver twin, or with --roc cuBLAS's and cuSOLVER's) that are one type in HIP; the second "
                     "overload is left out", name_at,
                     hint="HIP's driver calls return and take the runtime's types, so the other overload serves them")
