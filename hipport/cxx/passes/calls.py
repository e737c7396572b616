"""Call-site fixes HIP needs beyond a rename, driven by a small table of CUDA functions.

- symbol APIs take the device symbol through ``HIP_SYMBOL(sym)`` (``&sym`` on NVIDIA);
- APIs taking a kernel as ``const void*`` need ``reinterpret_cast<const void*>(k)``, since HIP has
  no template overloads for them;
- calls that relied on CUDA's default arguments or C++ overloads get the argument made explicit.
"""

from __future__ import annotations

import re
from functools import lru_cache

from hipport.cxx.calls import call_arguments, code_span, receiver_start, skip_ws
from hipport.cxx.context import Context
from hipport import lazy_re

# CUDA function -> index of the argument naming a device symbol
SYMBOL_ARG = {
    "cudaMemcpyToSymbol": 0,
    "cudaMemcpyToSymbolAsync": 0,
    "cudaMemcpyFromSymbol": 1,
    "cudaMemcpyFromSymbolAsync": 1,
    "cudaGetSymbolAddress": 1,
    "cudaGetSymbolSize": 1,
    "cudaGetTextureReference": 1,
    "cudaGraphAddMemcpyNodeToSymbol": 4,
    "cudaGraphAddMemcpyNodeFromSymbol": 5,
    "cudaGraphMemcpyNodeSetParamsToSymbol": 1,
    "cudaGraphMemcpyNodeSetParamsFromSymbol": 2,
    "cudaGraphExecMemcpyNodeSetParamsToSymbol": 2,
    "cudaGraphExecMemcpyNodeSetParamsFromSymbol": 3,
}
# CUDA function -> index of the argument naming a kernel function, for the HIP functions that
# take it only as ``const void*`` (HIP's occupancy and cooperative-launch APIs have template
# overloads and need no cast; checked by compiling with hipcc).
KERNEL_ARG = {
    "cudaFuncSetCacheConfig": 0,
    "cudaFuncSetSharedMemConfig": 0,
    "cudaFuncGetAttributes": 1,
    "cudaFuncSetAttribute": 0,
    "cudaLaunchKernel": 0,
    "cudaLaunchCooperativeKernel": 0,
}
# NVRTC takes option and header lists as ``const char* const*``, which a ``char**`` converts to;
# HIPRTC takes ``const char**``, which it does not: the argument gets the const_cast hipify-clang
# writes (a null literal stays as it is: it converts on its own and cannot be const_cast).
CONST_CHAR_PP_ARGS = {"nvrtcCompileProgram": (2,), "nvrtcCreateProgram": (4, 5)}
_VOID_POINTER_CAST = lazy_re.compile(rb"(?:(?:reinterpret|static|const)_cast\s*<\s*(?:const\s+)?void\s*(?:const\s*)?\*\s*>"
                                     rb"|\(\s*(?:const\s+)?void\s*(?:const\s*)?\*\s*\))")
_NULL_LITERAL = lazy_re.compile(rb"(?:nullptr|NULL|0|\(\s*(?:nullptr|NULL|0)\s*\))\Z")
# CUDA function -> {argument count CUDA code may stop at: text appended}: CUDA's default
# arguments that HIP's declarations lack.
COMPLETIONS = {
    "cudaStreamWaitEvent": {2: b", 0"},
    "cudaMallocHost": {2: b", hipHostMallocDefault"},
    # sharedMem = 0, stream = 0: HIP declares both without defaults
    "cudaLaunchCooperativeKernel": {4: b", 0, 0", 5: b", 0"},
    # offset = 0 and the copy's direction (the stream keeps its default in HIP)
    "cudaMemcpyToSymbolAsync": {3: b", 0, hipMemcpyHostToDevice", 4: b", hipMemcpyHostToDevice"},
    "cudaMemcpyFromSymbolAsync": {3: b", 0, hipMemcpyDeviceToHost", 4: b", hipMemcpyDeviceToHost"},
    "cudaMalloc3DArray": {3: b", 0"},
    "cudaGraphInstantiate": {2: b", nullptr, nullptr, 0"},
    "cudaGraphInstantiateWithFlags": {2: b", 0"},
    "cudaStreamGetCaptureInfo": {2: b", nullptr"},
    "cudaSignalExternalSemaphoresAsync": {3: b", 0"},
    "cudaWaitExternalSemaphoresAsync": {3: b", 0"},
    # hipSPARSE's solve takes the external buffer again (cuSPARSE keeps it in the descriptor since 12.0)
    "cusparseSpSM_solve": {10: b", nullptr"},
}
# CUDA function -> argument HIP's counterpart has no parameter for, dropped from the call: the
# driver occupancy calculators' block-size-to-dynamic-shared-memory callback (HIP takes the fixed
# dynamic shared memory size only).  A callback that is not a null literal is reported.
DROPPED_ARG = {"cuOccupancyMaxPotentialBlockSize": 3, "cuOccupancyMaxPotentialBlockSizeWithFlags": 3}
# CUDA overloads by argument count that are distinct functions in HIP.
OVERLOADS = {
    "cudaEventCreate": {2: "hipEventCreateWithFlags"},
    "cudaGraphInstantiate": {3: "hipGraphInstantiateWithFlags"},
    "cuGraphInstantiate": {3: "hipGraphInstantiateWithFlags"},  # (CUDA 12's, a macro for the WithFlags one)
    # CUDA 13's defaulted graph and dependency outputs: HIP's _v2 defaults them too (7 arguments: arguments.py)
    "cudaStreamGetCaptureInfo": {4: "hipStreamGetCaptureInfo_v2", 5: "hipStreamGetCaptureInfo_v2"},
}


# Warp intrinsics whose mask a full-warp call makes redundant: on AMD a wavefront runs in
# lockstep, so `__shfl_down_sync(0xffffffff, v, d)` is HIP's `__shfl_down(v, d)` over the whole
# wavefront — which every HIP release has, so the output needs no shim header.  Calls with
# any other mask keep the *_sync name and get <hipport/compat.h>.
SYNC_TO_PLAIN = {
    "__shfl_sync": "__shfl", "__shfl_up_sync": "__shfl_up", "__shfl_down_sync": "__shfl_down",
    "__shfl_xor_sync": "__shfl_xor", "__ballot_sync": "__ballot", "__any_sync": "__any",
    "__all_sync": "__all",
}
_FULL_MASK_RE = lazy_re.compile(
    rb"(?:0x[fF]{8}(?:[fF]{8})?[uUlL]*|~0[uUlL]*|-1|4294967295[uUlL]*|__activemask\s*\(\s*\))\Z")


def full_mask_call(data: bytes, end: int) -> int | None:
    """For ``name(FULL_MASK, rest...)`` after offset *end*: the start of the second argument,
    or None when the mask is not a literal full mask."""
    paren = skip_ws(data, end)
    if data[paren:paren + 1] != b"(":
        return None
    parsed = call_arguments(data, paren)
    if not parsed or len(parsed[0]) < 2:
        return None
    (m0, m1), (a0, _) = parsed[0][0], parsed[0][1]
    if _FULL_MASK_RE.match(data[m0:m1]) is None:
        return None
    return a0


def overload_target(data: bytes, end: int, name: str) -> str | None:
    """The HIP function for this call of an overloaded CUDA function, by argument count."""
    by_count = OVERLOADS.get(name)
    if not by_count:
        return None
    paren = skip_ws(data, end)
    if data[paren:paren + 1] != b"(":
        return None
    parsed = call_arguments(data, paren)
    return by_count.get(len(parsed[0])) if parsed else None
# CUDA functions with a typed ``T**`` overload whose HIP counterpart takes only ``void**``.
COMPAT = b"hipport/compat.h"
VOID_PP_ARG = {"cudaHostAlloc", "cudaMallocPitch", "cudaHostGetDevicePointer", "cudaGetSymbolAddress"}

# CUDA 13's memory-location argument written as a braced list (`{cudaMemLocationTypeHost}`): compat.h's
# location overloads are templates, which a braced list cannot match, so `{cudaMemLocationTypeHost}`
# would silently convert to HIP's own `int device` overload (device 2); it is named hipMemLocation{...}
LOCATION_ARG = {"cudaMemAdvise": 3, "cudaMemPrefetchAsync": 2, "cuMemAdvise": 3, "cuMemPrefetchAsync": 2}
NAMES = (frozenset(SYMBOL_ARG) | frozenset(KERNEL_ARG) | frozenset(COMPLETIONS) | VOID_PP_ARG
         | frozenset(CONST_CHAR_PP_ARGS) | frozenset(DROPPED_ARG) | frozenset(LOCATION_ARG))

# tile.meta_group_rank() / meta_group_size(): members HIP's tiles lack before ROCm 6, and
# CUDA 12's block.dim_threads() / num_threads(), grid.block_rank() / num_blocks() / block_index()
# / dim_blocks(), which HIP 5.2's groups lack: hipport/compat.h provides them as free functions
# (calling the member where the group has it).  The CUDA 12 names are common words, so they are
# rewritten only in files that use cooperative groups.
_CG12_MEMBERS = rb"dim_threads|num_threads|group_dim|block_rank|num_blocks|block_index|dim_blocks"
# the member and its call, found first (a plain scan); the receiver is then read backwards from the dot
_META_GROUP_CALL = lazy_re.compile(rb"(?:\.|->)\s*(meta_group_(?:rank|size))\s*\(\s*\)")
_GROUP_MEMBER_CALL = lazy_re.compile(rb"(?:\.|->)\s*(meta_group_(?:rank|size)|" + _CG12_MEMBERS + rb")\s*\(\s*\)")
_GROUP_VOTE_CALL = lazy_re.compile(rb"(?:\.|->)\s*(ballot|any|all|match_any|match_all|shfl|shfl_up|shfl_down|shfl_xor)"
                              rb"\s*\((?=\s*[^\s)])")
# `cg::tiled_partition<8>(warp_tile)`: a tile of a tile, which HIP 5.2 cannot make (compat.h can)
_SUB_TILE = lazy_re.compile(rb"tiled_partition\s*<")
# members no HIP group has: a grid's clusters (none on AMD GPUs) and a block's split barrier
_NO_HIP_GROUP_MEMBER = lazy_re.compile(rb"(?:\.|->)\s*(cluster_rank|num_clusters|dim_clusters|cluster_index|"
                                  rb"barrier_arrive|barrier_wait)\s*\(")
_NO_HIP_GROUP_MEMBER_WHY = {False: "thread-block clusters do not exist on AMD GPUs",
                            True: "HIP's thread_block has no split arrive/wait barrier: use sync()"}
_GROUP_MEMBERS = tuple(_CG12_MEMBERS.split(b"|"))
def group_member_calls(ctx: Context, masked) -> None:
    """CUDA group members older HIP lacks become hipport::member(group) calls (compat.h)."""
    data = ctx.data
    groups = b"cooperative_groups" in data
    if groups and any(name in data for name in _GROUP_MEMBERS):
        pattern = _GROUP_MEMBER_CALL
    elif b"meta_group_" in data:
        pattern = _META_GROUP_CALL
    else:
        pattern = None
    found = groups and _SUB_TILE.search(data) is not None
    for m in pattern.finditer(data) if pattern else ():
        start = receiver_start(data, m.start())
        if start is not None and not masked(start):
            ctx.edit(start, m.end(), b"hipport::" + m.group(1) + b"(" + _object(data, start, m) + b")", "group-member")
            found = True
    # tile.ballot(p) -> hipport::ballot(tile, p); tile.shfl_xor(v, m) -> hipport::shfl_xor(tile, v, m)
    for m in _GROUP_VOTE_CALL.finditer(data) if groups else ():
        start = receiver_start(data, m.start())
        if start is not None and not masked(start):
            ctx.edit(start, m.end(), b"hipport::" + m.group(1) + b"(" + _object(data, start, m) + b", ", "group-member")
            found = True
    if found and b"hipport/compat.h" not in ctx.extra_includes:
        ctx.extra_includes.append(b"hipport/compat.h")
    for m in _NO_HIP_GROUP_MEMBER.finditer(data) if groups and (b"cluster" in data or b"barrier_" in data) else ():
        if not masked(m.start()) and receiver_start(data, m.start()) is not None:
            ctx.sink.add("HP001", f"group member '{m.group(1).decode()}' has no HIP counterpart", m.start(1),
                         end=m.end(1), hint=_NO_HIP_GROUP_MEMBER_WHY[m.group(1)[:7] == b"barrier"])


def _object(data: bytes, start: int, member: re.Match) -> bytes:
    """The receiver as an object: `tp->any(v)` calls through a pointer, so it is `*tp`."""
    text = data[start:member.start()].rstrip()
    return b"*" + text if data.startswith(b"->", member.start()) else text


_VOID_PP_CAST = lazy_re.compile(rb"\(\s*void\s*\*\s*\*\s*\)")
_ADDRESS_OF = lazy_re.compile(rb"&\s*([A-Za-z_]\w*)\Z")


def _void_pp(data: bytes, arg: bytes) -> bool:
    """Is the argument already a ``void**``: ``(void**)&p``, or ``&p`` with ``void* p`` declared in
    this file?  (hipify-clang sees the type; the file's own declaration is what we can see.)"""
    if _VOID_PP_CAST.match(arg):
        return True
    m = _ADDRESS_OF.match(arg)
    return m is not None and m.group(1) in _void_pointer_names(data)


_VOID_POINTER_DECL = lazy_re.compile(rb"\bvoid\s*\*\s*(?:const\s+)?([A-Za-z_]\w*)\s*[=;,)\[]")


@lru_cache(maxsize=2)
def _void_pointer_names(data: bytes) -> frozenset[bytes]:
    """Names this file declares as ``void*``: one sweep per file, not one per call."""
    return frozenset(_VOID_POINTER_DECL.findall(data)) if b"void" in data else frozenset()


def _cuda_13(ctx: Context) -> bool:
    """Kernel handles are passed as they are only against a CUDA 13 toolkit that ``--cuda-path``
    names (hipify-clang's current reinterpret_cast.cu, runtime_functions.cu; a kernel itself then
    takes compat.h's function-pointer overload).  Otherwise they get `reinterpret_cast<const void*>`
    as hipify-clang writes them against every earlier CUDA (runtime_functions_before_13000.cu,
    runtime_functions_9000.cu, and the unsplit tests before CUDA 13): the cast compiles against
    every HIP without our shim, where the bare handle needs it."""
    from hipport.cxx.cuda_version import cuda_release

    return cuda_release(ctx.options.cuda_path) >= 13000


_DEFINE_BEFORE = lazy_re.compile(rb"[ \t]*#[ \t]*define[ \t]+\Z")


def macro_being_defined(data: bytes, start: int) -> bool:
    """`#define cudaMemcpyToSymbol(dst, src, size) memcpy(...)`: a CPU build's stand-in; its
    parameter list is no call to fit to HIP's parameters."""
    line_start = data.rfind(b"\n", 0, start) + 1
    return data[start - 1:start] in (b" ", b"\t") and _DEFINE_BEFORE.match(data, line_start, start) is not None


def _member_or_qualified(data: bytes, start: int) -> bool:
    from hipport.cxx.passes.rename import is_member_or_qualified

    return is_member_or_qualified(data, start)


_FUNCTION_MACRO = lazy_re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)\(", re.M)


@lru_cache(maxsize=2)
def _function_macros(data: bytes) -> frozenset[bytes]:
    return frozenset(_FUNCTION_MACRO.findall(data)) if b"define" in data else frozenset()


def _complete(ctx: Context, name: str, args: list[tuple[int, int]]) -> None:
    """Append the default arguments CUDA declares and HIP does not (COMPLETIONS) — not where the
    file defines a macro of that name (a CPU build's stand-in takes the arguments CUDA's call has)."""
    text = COMPLETIONS.get(name, {}).get(len(args))
    if text is not None and name.encode() not in _function_macros(ctx.data):
        ctx.edit(args[-1][1], args[-1][1], text, "default-argument")


def run(ctx: Context, idents: list[tuple[int, int]], skip: set[int] = frozenset()) -> None:
    """*skip*: calls the arguments pass already fitted to their target's parameters."""
    data = ctx.data
    for start, end in idents:
        name = data[start:end].decode("ascii", "replace")
        if name not in NAMES or start in skip or start in ctx.user_entities or _member_or_qualified(data, start) \
                or macro_being_defined(data, start):
            continue
        paren = skip_ws(data, end)
        if data[paren:paren + 1] != b"(":
            continue
        parsed = call_arguments(data, paren)
        if parsed is None:
            continue
        args, close = parsed
        args = [code_span(data, s, e) for s, e in args]  # casts go around the code, not its comments
        if name in LOCATION_ARG and LOCATION_ARG[name] < len(args) and data.startswith(b"{", args[LOCATION_ARG[name]][0]):
            ctx.edit(args[LOCATION_ARG[name]][0], args[LOCATION_ARG[name]][0], b"hipMemLocation", "memory-location")
        if name in SYMBOL_ARG:
            i = SYMBOL_ARG[name]
            if i < len(args):
                s, e = args[i]
                if not data.startswith(b"HIP_SYMBOL", s):
                    # `tab<float, 4>`: its comma would split the macro's argument, so it gets parentheses
                    comma = b"," in data[s:e] and not data.startswith(b"(", s)
                    ctx.edit(s, s, b"HIP_SYMBOL((" if comma else b"HIP_SYMBOL(", "hip-symbol")
                    ctx.edit(e, e, b"))" if comma else b")", "hip-symbol")
            _complete(ctx, name, args)
        elif name in KERNEL_ARG:
            i = KERNEL_ARG[name]
            if i < len(args):
                s, e = args[i]
                text = data[s:e]
                if _VOID_POINTER_CAST.match(text):
                    pass  # (a cast to a function-pointer type or a parenthesized kernel still needs one)
                elif not _cuda_13(ctx):
                    ctx.edit(s, s, b"reinterpret_cast<const void*>(", "kernel-cast")
                    ctx.edit(e, e, b")", "kernel-cast")
                elif text not in _void_pointer_names(data) and COMPAT not in ctx.extra_includes:
                    # the call stays as hipify-clang writes it against CUDA 13's headers: a
                    # kernel itself needs compat.h's function-pointer overload, which HIP lacks
                    ctx.extra_includes.append(COMPAT)
            _complete(ctx, name, args)
        elif name in CONST_CHAR_PP_ARGS:
            for i in CONST_CHAR_PP_ARGS[name]:
                if i < len(args):
                    s, e = args[i]
                    text = data[s:e]
                    if not (_NULL_LITERAL.match(text) or text.startswith((b"const_cast", b"(const char", b"reinterpret_cast"))):
                        ctx.edit(s, s, b"const_cast<const char**>(", "const-char-list")
                        ctx.edit(e, e, b")", "const-char-list")
        elif name in DROPPED_ARG:
            i = DROPPED_ARG[name]
            if i + 1 < len(args):
                s, e = args[i]
                if not _NULL_LITERAL.match(data[s:e]):
                    ctx.sink.add("HP006", f"'{name}': HIP has no block-size-to-shared-memory callback; "
                                 "the callback argument was dropped", s, end=e,
                                 hint="make the dynamic shared memory size argument what the callback would return")
                ctx.edit(s, args[i + 1][0], b"", "dropped-argument")
        elif name in COMPLETIONS:
            _complete(ctx, name, args)
        if name in VOID_PP_ARG and args and COMPAT not in ctx.extra_includes:
            text = data[slice(*args[0])]
            if not (text.startswith((b"reinterpret_cast", b"static_cast")) or _void_pp(data, text)):
                # CUDA's typed T** overload: hipport/compat.h has the same template over HIP's
                # void** function, so the call stays as hipify-clang writes it
                ctx.extra_includes.append(COMPAT)
