"""Fields of CUDA's structs that HIP 5.2's counterparts lack or spell differently.

Device-query code prints `prop.asyncEngineCount`, `prop.unifiedAddressing`, ...; HIP declares those
members only since ROCm 6, so on the HIP that Debian and Ubuntu ship the translated read does not
compile.  A read of such a field of a variable the file declares as `cudaDeviceProp` becomes
`hipport::prop::asyncEngineCount(prop)` (hipport/compat.h): the member where hipDeviceProp_t has
it, otherwise the device attribute HIP 5.2 does report, for the device the struct describes.
Writes (`prop.x = ...`) are left alone: they only make sense where the member exists.

A write of a `cudaTextureDesc` hint no HIP has (`tex.disableTrilinearOptimization = 1;`) is
commented out and reported.

`CUDA_KERNEL_NODE_PARAMS::gridDimX` (the driver's kernel node) is `gridDim.x` of hipKernelNodeParams,
for reads and writes alike.

`cudaPointerAttributes::type` is `memoryType` in HIP before 5.5 (both, in a union, until 6.0):
`attr.type` becomes `hipport::pointer::type(attr)`, which also reports managed memory as CUDA does.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.lexer import glued_before, in_directive
from hipport.cxx.scan import Scan
from hipport import lazy_re

#: the fields CUDA declares and HIP 5.2 does not, each with a device attribute HIP 5.2 reports
#: (the table in hipport/compat.h must list the same names)
FIELDS = (
    "deviceOverlap", "asyncEngineCount", "unifiedAddressing", "sharedMemPerMultiprocessor", "regsPerMultiprocessor",
    "streamPrioritiesSupported", "sharedMemPerBlockOptin", "maxBlocksPerMultiProcessor",
    "singleToDoublePrecisionPerfRatio", "hostNativeAtomicSupported", "computePreemptionSupported",
    "canUseHostPointerForRegisteredMem", "globalL1CacheSupported", "localL1CacheSupported",
    "persistingL2CacheMaxSize", "accessPolicyMaxWindowSize", "memoryPoolsSupported", "reservedSharedMemPerBlock",
    "multiGpuBoardGroupID", "surfaceAlignment",
)
#: fields hipDeviceProp_t gained in HIP 6.0 that HIP 5.2 reports no device attribute for on AMD:
#: a read of one is reported (HP008) when the output is for an older HIP
HIP6_FIELDS = (
    "uuid", "luid", "luidDeviceNodeMask", "maxTexture1DMipmap", "maxTexture2DMipmap", "maxTexture2DLinear",
    "maxTexture2DGather", "maxTexture3DAlt", "maxTextureCubemap", "maxTexture1DLayered", "maxTexture2DLayered",
    "maxTextureCubemapLayered", "maxSurface1D", "maxSurface2D", "maxSurface3D", "maxSurface1DLayered",
    "maxSurface2DLayered", "maxSurfaceCubemap", "maxSurfaceCubemapLayered", "hostRegisterSupported",
    "sparseCudaArraySupported", "hostRegisterReadOnlySupported", "timelineSemaphoreInteropSupported",
    "gpuDirectRDMASupported", "gpuDirectRDMAFlushWritesOptions", "gpuDirectRDMAWritesOrdering",
    "memoryPoolSupportedHandleTypes", "deferredMappingCudaArraySupported", "ipcEventSupported",
    "unifiedFunctionPointers", "clusterLaunch",
)
#: fields of CUDA 12's cudaDeviceProp that no HIP's hipDeviceProp_t has (checked against AMD's
#: current declarations, rocm-bindings-hip): a read of one is reported (HP001) whatever the target
NO_HIP_FIELDS = (
    "deviceNumaConfig", "deviceNumaId", "hostNumaId", "mpsEnabled", "gpuPciDeviceID", "gpuPciSubsystemID",
    "hostNumaMultinodeIpcSupported",
)
#: CUDA struct → (its HIP name, members no HIP release declares, checked against AMD's current
#: declarations in rocm-bindings-hip): a read or write of one is reported (HP001)
NO_HIP_MEMBERS = {
    b"cudaDeviceProp": ("hipDeviceProp_t", NO_HIP_FIELDS),
    b"cudaMemPoolProps": ("hipMemPoolProps", ("usage",)),
    b"cudaFuncAttributes": ("hipFuncAttributes", (
        "clusterDimMustBeSet", "requiredClusterWidth", "requiredClusterHeight", "requiredClusterDepth",
        "clusterSchedulingPolicyPreference", "nonPortableClusterSizeAllowed")),
}
#: CUDA struct → (the compat.h namespace of its accessors, the fields read through them)
STRUCTS = {
    b"cudaDeviceProp": (b"hipport::prop::", FIELDS),
    b"cudaPointerAttributes": (b"hipport::pointer::", ("type",)),
}


#: CUDA struct -> its members that HIP's counterpart holds elsewhere (reads and writes alike):
#: the driver's CUDA_KERNEL_NODE_PARAMS becomes hipKernelNodeParams, whose sizes are dim3 members
_KERNEL_NODE_MEMBERS = {f"{what}Dim{axis.upper()}": f"{what}Dim.{axis}" for what in ("grid", "block") for axis in "xyz"}
MEMBER_PATHS = {
    b"CUDA_KERNEL_NODE_PARAMS": {k: v.encode() for k, v in _KERNEL_NODE_MEMBERS.items()},
}

#: CUDA struct -> (its HIP name, hint members no HIP declares): setting one only tunes NVIDIA's
#: hardware, so the assignment statement is commented out (and reported) rather than left to fail
HINT_MEMBERS = {
    b"cudaTextureDesc": ("hipTextureDesc", ("disableTrilinearOptimization", "seamlessCubemap")),
}

#: struct -> (its HIP name, the release that added the members, the members, why it matters)
NEWER_MEMBERS = {
    b"cudaDeviceProp": ("hipDeviceProp_t", "6.0", HIP6_FIELDS, "HIP 5.2 reports no attribute for it on AMD GPUs"),
    # hipMemAllocationProp: HIP 5.2 has compressionType / usage / requestedHandleType directly
    b"CUmemAllocationProp": ("hipMemAllocationProp", ">5.2", ("allocFlags", "requestedHandleTypes"),
                             "HIP 5.2 has compressionType and usage as direct members, and requestedHandleType"),
    b"cudaMemPoolProps": ("hipMemPoolProps", ">5.2", ("maxSize",), "HIP 5.2's pools cannot be capped"),
}


def run(ctx: Context, scan: Scan) -> None:
    for struct, (hip, release, fields, why) in NEWER_MEMBERS.items():
        if struct in ctx.data and any(f.encode() in ctx.data for f in fields):
            _report_newer_members(ctx, scan, struct, hip, release, fields, why)
    for struct, (hip, fields) in HINT_MEMBERS.items():
        if struct in ctx.data and any(f.encode() in ctx.data for f in fields):
            _drop_hint_writes(ctx, scan, struct, hip, fields)
    for struct, (hip, fields) in NO_HIP_MEMBERS.items():
        if struct in ctx.data and any(f.encode() in ctx.data for f in fields):
            for h, m in _reads(ctx.data, scan, struct, fields, writes=True):
                ctx.sink.add("HP001", f"{struct.decode()}::{m.group(2).decode()} has no counterpart in {hip} "
                             "(no HIP release declares it)", h.start(), end=m.end(),
                             hint="keep the use for CUDA only (#ifndef __HIP_PLATFORM_AMD__) or drop it")
    for struct, members in MEMBER_PATHS.items():
        if struct in ctx.data:
            for _h, m in _reads(ctx.data, scan, struct, tuple(members), writes=True):
                ctx.edit(m.start(2), m.end(2), members[m.group(2).decode()], "struct-member")
    if b"cudaDeviceProp" in ctx.data and b"define" in ctx.data:
        _report_fields_named_in_macro_calls(ctx, scan)
    if b"cudaDeviceProp" in ctx.data and b"::" in ctx.data:
        _report_fields_named_through_the_class(ctx, scan)
    found = False
    for struct, (namespace, fields) in STRUCTS.items():
        if any(f.encode() in ctx.data for f in fields) and (struct in ctx.data or _header_functions(ctx, struct)):
            found |= _rewrite_reads(ctx, scan, struct, namespace, fields)
    if found and b"hipport/compat.h" not in ctx.extra_includes:
        ctx.extra_includes.append(b"hipport/compat.h")


_DECLARATOR = lazy_re.compile(rb"\s*(?:const\s+)?[*&\s]*(?:const\s+)?([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?:=.*)?", re.S)


def _declared_names(data: bytes, scan: Scan, struct: bytes, functions: frozenset = frozenset()) -> set[bytes]:
    """The variables, pointers and references declared with *struct*'s type, every declarator of a
    list (`cudaDeviceProp a, *b = &a;`); a parameter list's next parameter (`int i`) is not one."""
    names = set()
    for m in re.finditer(struct + rb"\b([^;(){}]*)", data):  # a literal first: a fast search
        start = m.start()
        if glued_before(data, start) or scan.in_masked(start):
            continue
        for piece in m.group(1).split(b","):
            if d := _DECLARATOR.fullmatch(piece):
                names.add(d.group(1))
            else:
                break
    names.discard(b"const")
    if b"auto" in data:
        names |= _auto_names(data, scan, struct, names | functions)
    return names


_AUTO_DECLARATION = lazy_re.compile(rb"auto\s*[&*]?\s*(?:const\s*)?[&*]?\s*([A-Za-z_]\w*)\s*=\s*(?:[\w:]+::)?([A-Za-z_]\w*)")


def _auto_names(data: bytes, scan: Scan, struct: bytes, names: set[bytes]) -> set[bytes]:
    """`auto prop = initGPU();` (a function the file declares returning *struct*) and
    `const auto& ref = direct;` (a variable of that type): variables of the type by deduction."""
    functions = {m.group(1) for m in re.finditer(struct + rb"\s*&?\s*([A-Za-z_]\w*)\s*\(", data)}
    sources = names | functions
    if not sources:
        return set()
    autos = [(m.group(1), m.group(2)) for m in _AUTO_DECLARATION.finditer(data)  # a literal first: a fast search
             if not glued_before(data, m.start()) and not scan.in_masked(m.start())]
    found: set[bytes] = set()
    while True:  # `auto a = initGPU(); const auto& b = a;`
        new = {name for name, source in autos if source in sources and name not in found}
        if not new:
            return found
        found |= new
        sources = sources | new


def _report_newer_members(ctx: Context, scan: Scan, struct: bytes, hip: str, release: str, fields, why: str) -> None:
    from hipport.installed_hip import describe, parse_version, target_hip_version

    have = target_hip_version(ctx.options.hip_version)
    if have is None or have >= parse_version(release):
        return
    for h, m in _reads(ctx.data, scan, struct, fields, writes=True):
        ctx.sink.add("HP008", f"{struct.decode()}::{m.group(2).decode()} is no member of {hip} in HIP "
                     f"{have[0]}.{have[1]}, the output's; {describe(release)} added it ({why})", h.start(), end=m.end(),
                     hint="build with ROCm 6 or newer, or keep the code for CUDA only (#ifndef __HIP_PLATFORM_AMD__)")


_SIMPLE_STATEMENT_END = lazy_re.compile(rb"\s*=[^=;{}]*;")


def _drop_hint_writes(ctx: Context, scan: Scan, struct: bytes, hip: str, fields) -> None:
    data = ctx.data
    for h, m in _reads(data, scan, struct, fields, writes=True):
        name = f"{struct.decode()}::{m.group(2).decode()}"
        end = _SIMPLE_STATEMENT_END.match(data, m.end())
        before = data[:h.start()].rstrip(b" \t")
        if end is None or not before.endswith((b";", b"{", b"}", b"\n")) or b"*/" in data[h.start():end.end()]:
            ctx.sink.add("HP001", f"{name} has no counterpart in {hip} (no HIP release declares it)", h.start(),
                         end=m.end(), hint="remove the use, or keep it for CUDA only (#ifndef __HIP_PLATFORM_AMD__)")
            continue
        ctx.edit(h.start(), h.start(), b"/* ", "hint-member")
        ctx.edit(end.end(), end.end(), b" */", "hint-member")
        ctx.sink.add("HP001", f"{name} has no counterpart in {hip} (no HIP release declares it); the assignment, "
                     "a hint to NVIDIA's hardware, was commented out", h.start(), end=end.end())


class _Holder:
    """The object whose field is accessed: where it starts, and its text (`prop`, `c.prop`)."""

    __slots__ = ("at", "text")

    def __init__(self, at: int, text: bytes):
        self.at, self.text = at, text

    def start(self) -> int:
        return self.at


def _reads(data: bytes, scan: Scan, struct: bytes, fields, writes: bool = False, functions: frozenset = frozenset()):
    """(the object, the field's match) of each read (and with *writes*, each write) of *fields* of a
    variable the file declares with *struct*'s type, or of a field so declared (`c.prop.x`)."""
    from hipport.cxx.calls import receiver_start

    names = _declared_names(data, scan, struct, functions)
    if not names:
        return
    holder = re.compile(rb"(?<![\w])(" + b"|".join(re.escape(n) for n in sorted(names)) + rb")((?:\s*\[[^\[\]]*\])?)\s*\Z")
    access = re.compile(rb"(\.|->)\s*(" + b"|".join(f.encode() for f in fields)
                        + rb")\b" + (b"" if writes else rb"(?!\s*(?:[-+*/%&|^]|<<|>>)?=[^=])"))
    for m in access.finditer(data):
        h = holder.search(data, max(0, m.start() - 256), m.start())
        if h is None or scan.in_masked(h.start()):
            continue
        at = h.start()
        if data[max(0, at - 2):at].rstrip().endswith((b".", b"->")) or data[at - 1:at] in (b".", b">"):
            at = receiver_start(data, m.start())  # `c.prop.asyncEngineCount`: the whole chain
            if at is None or data[at:h.start()].rstrip().endswith(b"::"):
                continue
        yield _Holder(at, data[at:h.end()].rstrip()), m


def _header_functions(ctx: Context, struct: bytes) -> frozenset:
    """Functions a project header declares returning *struct* (`auto prop = initGPU();` in the .cu)."""
    if b"auto" not in ctx.data or b'"' not in ctx.data:
        return frozenset()
    from hipport.cxx.project_headers import included_texts

    pattern = re.compile(struct + rb"\s*&?\s*([A-Za-z_]\w*)\s*\(")
    return frozenset(m.group(1) for text in included_texts(ctx) if struct in text for m in pattern.finditer(text))


def _any_receiver_reads(data: bytes, scan: Scan, fields, done: set[int], then: bytes = b""):
    """Reads of *fields* through any receiver (`props[0].f`, a range-for's or a structured
    binding's `pr.f`, `(*pp).f`): the device-property names HIP 5.2 lacks are CUDA's alone, and
    compat.h's accessor returns a member of that name where the object has one.  A name as common
    as `type` counts only where *then* follows (a comparison with a cudaMemoryType value)."""
    from hipport.cxx.calls import receiver_start

    access = re.compile(rb"(\.|->)\s*(" + b"|".join(f.encode() for f in fields) + rb")\b(?!\s*(?:[-+*/%&|^]|<<|>>)?=[^=])"
                        + then)
    for m in access.finditer(data):
        if m.start() in done or scan.in_masked(m.start()):
            continue
        at = receiver_start(data, m.start())
        if at is None or at >= m.start() or data[at:m.start()].rstrip().endswith(b"::") or in_directive(data, at):
            continue
        yield _Holder(at, data[at:m.start()].rstrip()), m


def _rewrite_reads(ctx: Context, scan: Scan, struct: bytes, namespace: bytes, fields) -> bool:
    found = False
    c_source = ctx.path.endswith(".c")  # C: compat.h's accessors are C++ (gcc would stop at them)
    reads = list(_reads(ctx.data, scan, struct, fields, functions=_header_functions(ctx, struct)))
    if fields is FIELDS:
        reads += _any_receiver_reads(ctx.data, scan, fields, {m.start() for _h, m in reads})
    elif struct == b"cudaPointerAttributes" and b"cudaMemoryType" in ctx.data:
        reads += _any_receiver_reads(ctx.data, scan, fields, {m.start() for _h, m in reads},
                                     then=rb"(?=\s*[!=]=\s*cudaMemoryType\w)")
    for h, m in reads:
        if c_source:
            ctx.sink.add("HP008", f"{struct.decode()}::{m.group(2).decode()} is read in C, where hipport's "
                         "accessor (C++) cannot serve; HIP releases before 6 lack the member",
                         h.start(), end=m.end(), hint="query it with hipDeviceGetAttribute, or build with ROCm 6")
            continue
        text = h.text
        if m.group(1) == b"->":
            text = b"*" + text
        ctx.edit(h.start(), m.end(), namespace + m.group(2) + b"(" + text + b")", "device-prop")
        found = True
    return found


_QUALIFIED_FIELD = lazy_re.compile(rb"cudaDeviceProp\s*::\s*(" + "|".join(FIELDS + HIP6_FIELDS).encode() + rb")\b")


def _report_fields_named_through_the_class(ctx: Context, scan: Scan) -> None:
    """`decltype(cudaDeviceProp::sharedMemPerBlockOptin)`, `&cudaDeviceProp::f`: no object to read
    through compat.h's accessor, so a member HIP 5.2's hipDeviceProp_t lacks is reported."""
    from hipport.installed_hip import target_hip_version

    have = target_hip_version(ctx.options.hip_version)
    if have is None or have >= (6, 0):
        return
    for m in _QUALIFIED_FIELD.finditer(ctx.data):
        if not scan.in_masked(m.start()) and not glued_before(ctx.data, m.start()):
            ctx.sink.add("HP008", f"cudaDeviceProp::{m.group(1).decode()} is no member of hipDeviceProp_t in HIP "
                         f"{have[0]}.{have[1]}, the output's (HIP 6.0 added it)", m.start(), end=m.end(),
                         hint="read it from an object (hipport::prop::" + m.group(1).decode() + "(prop), hipport/compat.h) "
                         "or with hipDeviceGetAttribute, or build with ROCm 6")


def _report_fields_named_in_macro_calls(ctx: Context, scan: Scan) -> None:
    """`SHOW(prop, asyncEngineCount)` with `#define SHOW(p, f) ... (p).f`: the member access is put
    together by the preprocessor, so no read to rewrite is in sight; what HIP 5.2 lacks is reported."""
    from hipport.cxx.macro_arguments import macro_arguments
    from hipport.installed_hip import target_hip_version

    have = target_hip_version(ctx.options.hip_version)
    if have is None or have >= (6, 0):
        return
    data = ctx.data
    fields = {f.encode() for f in FIELDS}
    member = lambda p: rb"(?:\.|->)\s*" + p + rb"\b"  # noqa: E731 -- `(p).f`: the parameter names a member
    for macro, s, e in macro_arguments(data, member, lambda at: scan.in_masked(at) or in_directive(data, at)):
        if data[s:e] in fields:
            ctx.sink.add("HP008", f"cudaDeviceProp::{data[s:e].decode()} is read through the macro {macro.decode()}, "
                         f"which is not rewritten; hipDeviceProp_t lacks the member in HIP {have[0]}.{have[1]}, "
                         "the output's", s, end=e,
                         hint="read it with hipport::prop::" + data[s:e].decode() + "(prop) "
                         "(hipport/compat.h) or hipDeviceGetAttribute, or build with ROCm 6")
