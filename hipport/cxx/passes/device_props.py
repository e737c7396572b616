"""cudaDeviceProp fields that HIP 5.2's hipDeviceProp_t lacks.

Device-query code prints `prop.asyncEngineCount`, `prop.unifiedAddressing`, ...; HIP declares those
members only since ROCm 6, so on the HIP that Debian and Ubuntu ship the translated read does not
compile.  A read of such a field of a variable the file declares as `cudaDeviceProp` becomes
`hipport::prop::asyncEngineCount(prop)` (hipport/compat.h): the member where hipDeviceProp_t has
it, otherwise the device attribute HIP 5.2 does report, for the device the struct describes.
Writes (`prop.x = ...`) are left alone: they only make sense where the member exists.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
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
_DECLARED = re.compile(rb"\bcudaDeviceProp\b\s*(?:const\s*)?[*&]*\s*(?:const\s+)?([A-Za-z_]\w*)")
_FIELD_NAMES = b"|".join(f.encode() for f in FIELDS)


def run(ctx: Context, scan: Scan) -> None:
    data = ctx.data
    if b"cudaDeviceProp" not in data or not any(f.encode() in data for f in FIELDS):
        return
    names = {m.group(1) for m in _DECLARED.finditer(data) if not scan.in_masked(m.start())}
    names.discard(b"const")
    if not names:
        return
    access = re.compile(
        rb"(?<![\w.>])(" + b"|".join(re.escape(n) for n in sorted(names)) + rb")((?:\s*\[[^\[\]]*\])?)\s*(\.|->)\s*("
        + _FIELD_NAMES + rb")\b(?!\s*(?:[-+*/%&|^]|<<|>>)?=[^=])")
    found = False
    for m in access.finditer(data):
        if scan.in_masked(m.start()):
            continue
        holder = m.group(1) + m.group(2)
        if m.group(3) == b"->":
            holder = b"*" + holder
        ctx.edit(m.start(), m.end(), b"hipport::prop::" + m.group(4) + b"(" + holder + b")", "device-prop")
        found = True
    if found and b"hipport/compat.h" not in ctx.extra_includes:
        ctx.extra_includes.append(b"hipport/compat.h")
