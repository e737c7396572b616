"""Compound assignments a CUDA helper header defines for the vector types, which HIP's have.

CUDA's ``float3``, ``int2`` … are plain structs, so helper_math.h, cutil_math.h and their many
copies define the operators (``inline __host__ __device__ void operator+=(float3 &a, float3 b)``).
HIP's vector types define the compound assignments with another vector as members, so on AMD
every ``a += b`` becomes ambiguous between the two.  The user's definition is kept for CUDA
(HIP's NVIDIA platform, whose vector types are CUDA's) and left out on AMD: wrapped in
``#if !defined(__HIP_PLATFORM_AMD__)`` … ``#endif``, and reported (HP025, a note).  Operators with a
scalar operand, and the binary ones, HIP does not define the same way: they stay.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.definitions import declaration_start, wrap_definition
from hipport.cxx.scan import Scan

_VECTOR = rb"(?:u?char|u?short|u?int|u?longlong|u?long|float|double)[1-4]"
_DEFINITION = re.compile(rb"operator\s*([-+*/%&|^]|<<|>>)=\s*\(\s*(" + _VECTOR + rb")\s*&\s*\w+\s*,\s*"
                         rb"(?:const\s+)?\2\s*&?\s*\w*\s*\)\s*\{")
_GUARD = b"#if !defined(__HIP_PLATFORM_AMD__)  // HIP's vector types define it"


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"operator" not in data:
        return
    for m in _DEFINITION.finditer(data):
        if sweep.in_masked(m.start()):
            continue
        if wrap_definition(ctx, sweep, declaration_start(data, m.start()), m.end() - 1, _GUARD, "vector-operator"):
            op, vector = m.group(1).decode(), m.group(2).decode()
            ctx.sink.add("HP025", f"HIP's {vector} defines operator{op}= with another {vector}; this definition "
                         "is kept for CUDA only", m.start(),
                         hint="on AMD, HIP's member operator serves the calls (a second one would be ambiguous)")
