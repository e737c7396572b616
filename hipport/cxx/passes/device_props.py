"""Fields of CUDA's query structs that HIP 5.2's counterparts lack or spell differently.

Device-query code prints `prop.asyncEngineCount`, `prop.unifiedAddressing`, ...; HIP declares those
members only since ROCm 6, so on the HIP that Debian and Ubuntu ship the translated read does not
compile.  A read of such a field of a variable the file declares as `cudaDeviceProp` becomes
`hipport::prop::asyncEngineCount(prop)` (hipport/compat.h): the member where hipDeviceProp_t has
it, otherwise the device attribute HIP 5.2 does report, for the device the struct describes.
Writes (`prop.x = ...`) are left alone: they only make sense where the member exists.

`cudaPointerAttributes::type` is `memoryType` in HIP before 5.5 (both, in a union, until 6.0):
`attr.type` becomes `hipport::pointer::type(attr)`, which also reports managed memory as CUDA does.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.lexer import glued_before
from hipport.cxx.scan import Scan

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
#: CUDA struct → (the compat.h namespace of its accessors, the fields read through them)
STRUCTS = {
    b"cudaDeviceProp": (b"hipport::prop::", FIELDS),
    b"cudaPointerAttributes": (b"hipport::pointer::", ("type",)),
}


def run(ctx: Context, scan: Scan) -> None:
    found = False
    for struct, (namespace, fields) in STRUCTS.items():
        if struct in ctx.data and any(f.encode() in ctx.data for f in fields):
            found |= _rewrite_reads(ctx, scan, struct, namespace, fields)
    if found and b"hipport/compat.h" not in ctx.extra_includes:
        ctx.extra_includes.append(b"hipport/compat.h")


_DECLARATOR = re.compile(rb"\s*(?:const\s+)?[*&\s]*(?:const\s+)?([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?:=.*)?", re.S)


def _declared_names(data: bytes, scan: Scan, struct: bytes) -> set[bytes]:
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
    return names


def _rewrite_reads(ctx: Context, scan: Scan, struct: bytes, namespace: bytes, fields) -> bool:
    data = ctx.data
    names = _declared_names(data, scan, struct)
    if not names:
        return False
    holder = re.compile(rb"(?<![\w.>])(" + b"|".join(re.escape(n) for n in sorted(names)) + rb")((?:\s*\[[^\[\]]*\])?)\s*\Z")
    # the field is the anchor (a fast search from '.' or '-'); the object is read backwards from it
    access = re.compile(rb"(\.|->)\s*(" + b"|".join(f.encode() for f in fields)
                        + rb")\b(?!\s*(?:[-+*/%&|^]|<<|>>)?=[^=])")
    found = False
    for m in access.finditer(data):
        window = max(0, m.start() - 256)
        h = holder.search(data, window, m.start())
        if h is None or scan.in_masked(h.start()):
            continue
        text = h.group(1) + h.group(2)
        if m.group(1) == b"->":
            text = b"*" + text
        ctx.edit(h.start(), m.end(), namespace + m.group(2) + b"(" + text + b")", "device-prop")
        found = True
    return found
