"""Operators a CUDA helper header defines for the vector and complex types, which HIP's have.

CUDA's ``float3``, ``int2`` … are plain structs, so helper_math.h, cutil_math.h and their many
copies define the operators (``inline __host__ __device__ void operator+=(float3 &a, float3 b)``).
HIP's vector types define the compound assignments with another vector as members, so on AMD
every ``a += b`` becomes ambiguous between the two.  The user's definition is kept for CUDA
(HIP's NVIDIA platform, whose vector types are CUDA's) and left out on AMD: wrapped in
``#if !defined(__HIP_PLATFORM_AMD__)`` … ``#endif``, and reported (HP025, a note).  Operators with a
scalar operand, and the binary ones, HIP does not define the same way: they stay.

Two exceptions keep the meaning of the code:

* a ``float2 *=`` or ``/=`` whose body is complex arithmetic (``float2`` used as a complex number,
  as cufftComplex is) is not HIP's component-wise member: left out on AMD, the program would
  compile and compute something else.  It stays, and HP026 says why the calls are ambiguous;
* ``cuFloatComplex`` / ``cuDoubleComplex`` operators (``a * b`` meaning ``cuCmulf(a, b)``): HIP's
  hip_complex.h defines the complex ``+ - * /``, their compound forms and the scalar product for
  ``hipFloatComplex`` itself, so the user's are kept for CUDA only, as above.

A named union with a vector-type member (``union quad { float4 f; int4 i; };``, vectorised-load
packs) is copy-assignable in CUDA, whose vector types are trivial; HIP's define their own copy
assignment, which deletes the union's.  The union gets ``HIPPORT_UNION_ASSIGN(quad)`` (compat.h):
a bytewise copy assignment on AMD, nothing elsewhere (HP027, a note).  `typedef union { … } pack;`
gets the typedef's name as its tag too, so that it can be named inside; a union template gets it
whatever its members (`TU<float2>` holds a vector type through its parameter); an unnamed union inside a
struct (`struct S { union { float4 v; float a[4]; }; int tag; };`) deletes the struct's assignment,
so the struct gets it.
"""

from __future__ import annotations

import re

from hipport.cxx.context import Context
from hipport.cxx.definitions import declaration_start, enclosing_braces, matching_brace, wrap_definition
from hipport.cxx.scan import Scan
from hipport import lazy_re

_VECTOR = rb"(?:u?char|u?short|u?int|u?longlong|u?long|float|double)[1-4]"
_DEFINITION = lazy_re.compile(rb"operator\s*([-+*/%&|^]|<<|>>)=\s*\(\s*(" + _VECTOR + rb")\s*&\s*\w+\s*,\s*"
                         rb"(?:const\s+)?\2\s*&?\s*\w*\s*\)\s*\{")
_COMPLEX = rb"(?:cuFloatComplex|cuDoubleComplex|cuComplex|cufftComplex|cufftDoubleComplex)"
_SCALAR = rb"(?:(?:unsigned|signed)\s+)?(?:short|int|long\s+long|long|float|double)|unsigned|signed"
_COMPLEX_DEFINITION = lazy_re.compile(
    rb"operator\s*([-+*/]=?)\s*\(\s*(?:const\s+)?(" + _COMPLEX + rb")\s*&?\s*\w*\s*,\s*"
    rb"(?:const\s+)?(?:\2|(" + _SCALAR + rb"))\s*&?\s*\w*\s*\)\s*\{")
_GUARD = b"#if !defined(__HIP_PLATFORM_AMD__)  // HIP's vector types define it"
_COMPLEX_GUARD = b"#if !defined(__HIP_PLATFORM_AMD__)  // HIP's hip_complex.h defines it"
# `a.x * b.y`: two different components in one product or quotient — complex arithmetic
_CROSS = lazy_re.compile(rb"\.([xyzw])\s*[*/]\s*\(?\s*[\w$]+(?:\[[^\]\n]*\])?\s*\.(?!\1)[xyzw]\b")
_COMPLEX_CALL = lazy_re.compile(rb"\b(?:cuC(?:mul|div)f?|hipC(?:mul|div)f?)\s*\(")
_DELEGATES = lazy_re.compile(rb"=\s*[\w$]+\s*([*/])\s*[\w$]+\s*;")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"union" in data:
        _vector_unions(ctx, sweep)
    if b"operator" not in data:
        return
    for m in _DEFINITION.finditer(data):
        if sweep.in_masked(m.start()):
            continue
        op, vector = m.group(1).decode(), m.group(2).decode()
        if op in "*/" and _complex_body(data, sweep, m.end() - 1, m.group(2)):
            ctx.sink.add("HP026", f"this operator{op}= on {vector} is complex arithmetic; HIP's {vector} defines a "
                         f"component-wise operator{op}=, so its calls are ambiguous on AMD", m.start(),
                         hint="use hipFloatComplex / hipDoubleComplex (hip/hip_complex.h), whose operators are "
                         "complex, or a named function (hipCmulf)")
            continue
        if wrap_definition(ctx, sweep, declaration_start(data, m.start()), m.end() - 1, _GUARD, "vector-operator"):
            ctx.sink.add("HP025", f"HIP's {vector} defines operator{op}= with another {vector}; this definition "
                         "is kept for CUDA only", m.start(),
                         hint="on AMD, HIP's member operator serves the calls (a second one would be ambiguous)")
    if b"omplex" in data:
        _complex_operators(ctx, sweep)



_UNION = lazy_re.compile(rb"\bunion(?:\s+([A-Za-z_]\w*))?\s*\{")
_VECTOR_MEMBER = lazy_re.compile(rb"(?<![\w$])" + _VECTOR + rb"\s+[A-Za-z_]\w*\s*(?:\[[^\]]*\]\s*)?[;,]")
_TYPEDEF_BEFORE = lazy_re.compile(rb"\btypedef\s+\Z")
_TEMPLATE_BEFORE = lazy_re.compile(rb"\btemplate\s*<[^<>;{}]*(?:<[^<>;{}]*>[^<>;{}]*)*>\s*\Z")
_TYPEDEF_NAME = lazy_re.compile(rb"\s*([A-Za-z_]\w*)\s*;")
_CLASS_HEAD = lazy_re.compile(rb"\b(?:struct|class)\s+([A-Za-z_]\w*)\s*(?::[^{;]*)?\{\Z")


def _vector_unions(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    for m in _UNION.finditer(data):
        if sweep.in_masked(m.start()):
            continue
        close = matching_brace(data, m.end() - 1, sweep)
        body = data[m.end():close] if close is not None else b""
        # (a union template may hold a vector type through its parameter: `TU<float2>`)
        templated = m.group(1) is not None and _TEMPLATE_BEFORE.search(data, max(0, m.start() - 200), m.start())
        if not (templated or _VECTOR_MEMBER.search(body)) or b"operator" in body or b"HIPPORT_UNION_ASSIGN" in body:
            continue
        name, at = m.group(1), m.end()
        if name is None:
            typedef = _TYPEDEF_NAME.match(data, close + 1) if _TYPEDEF_BEFORE.search(data, max(0, m.start() - 16),
                                                                                    m.start()) else None
            if typedef is not None:  # `typedef union { … } pack;`: the tag `pack` names it inside
                name = typedef.group(1)
                ctx.edit(m.start() + 5, m.start() + 5, b" " + name, "vector-union")
            else:  # an unnamed union member: the enclosing struct's assignment is the one deleted
                name, at = _enclosing_class(data, m.start(), sweep)
                if name is None:
                    continue
        ctx.edit(at, at, b" HIPPORT_UNION_ASSIGN(" + name + b")", "vector-union")
        if b"hipport/compat.h" not in ctx.extra_includes:
            ctx.extra_includes.append(b"hipport/compat.h")
        ctx.sink.add("HP027", f"{name.decode()} holds a union of a vector type, whose HIP copy assignment deletes "
                     f"{name.decode()}'s; HIPPORT_UNION_ASSIGN gives it a bytewise one on AMD", m.start(),
                     hint="hipport/compat.h defines HIPPORT_UNION_ASSIGN; it is empty for CUDA")


def _enclosing_class(data: bytes, at: int, sweep: Scan) -> tuple[bytes | None, int]:
    """(name, offset after its `{`) of the struct or class whose body holds *at* directly, when its
    members are plain data a bytewise copy assigns (no `std::` member, no operator of its own)."""
    for i in enclosing_braces(data, at, sweep, reach=8192):
        head = _CLASS_HEAD.search(data, max(0, i - 200), i + 1)
        if head is None:
            return None, 0
        close = matching_brace(data, i, sweep)
        body = data[i + 1:close] if close is not None else b""
        if b"std::" in body or b"operator" in body or b"HIPPORT_UNION_ASSIGN" in body:
            return None, 0
        return head.group(1), i + 1
    return None, 0


_COMPLEX_ALIAS = lazy_re.compile(rb"\btypedef\s+" + _COMPLEX + rb"\s+([A-Za-z_]\w*)\s*;|\busing\s+([A-Za-z_]\w*)\s*=\s*"
                            + _COMPLEX + rb"\s*;")


def _complex_definitions(data: bytes) -> re.Pattern:
    """_COMPLEX_DEFINITION, for the file's aliases of the complex types too (QuEST's
    `typedef cuDoubleComplex cu_qcomp;`), with any named scalar (`qreal`) on the right of `*`."""
    aliases = [m.group(1) or m.group(2) for m in _COMPLEX_ALIAS.finditer(data)]
    if not aliases:
        return _COMPLEX_DEFINITION
    types = rb"(?:" + _COMPLEX[3:-1] + b"|" + b"|".join(re.escape(a) for a in aliases) + rb")"
    return re.compile(rb"operator\s*([-+*/]=?)\s*\(\s*(?:const\s+)?(" + types + rb")\s*&?\s*\w*\s*,\s*"
                      rb"(?:const\s+)?(?:\2|(" + _SCALAR + rb"|[A-Za-z_]\w*))\s*&?\s*\w*\s*\)\s*\{")


def _complex_operators(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    for m in _complex_definitions(data).finditer(data):
        op, scalar = m.group(1).decode(), m.group(3)
        if scalar is not None and op != "*":
            continue  # hip_complex.h scales by a scalar only with `*`
        if sweep.in_masked(m.start()):
            continue
        if wrap_definition(ctx, sweep, declaration_start(data, m.start()), m.end() - 1, _COMPLEX_GUARD,
                           "complex-operator"):
            ctx.sink.add("HP025", f"HIP's hip_complex.h defines the complex operator{op} for "
                         f"{m.group(2).decode()}; this definition is kept for CUDA only",
                         m.start(), hint="on AMD, hip_complex.h's operator serves the calls (a second one would "
                         "be ambiguous)")


def _complex_body(data: bytes, sweep: Scan, open_brace: int, vector: bytes, depth: int = 0) -> bool:
    """Does the definition whose body opens at *open_brace* multiply or divide as complex numbers:
    crossed components, cuCmulf, or `a = a * b` with this file's binary operator doing so?"""
    close = matching_brace(data, open_brace, sweep)
    body = data[open_brace:close if close is not None else open_brace]
    if _CROSS.search(body) or _COMPLEX_CALL.search(body):
        return True
    delegated = _DELEGATES.search(body)
    if delegated is None or depth:
        return False
    binary = re.compile(rb"operator\s*" + re.escape(delegated.group(1)) + rb"\s*\(\s*(?:const\s+)?" + vector
                        + rb"\s*&?\s*\w*\s*,\s*(?:const\s+)?" + vector + rb"\s*&?\s*\w*\s*\)\s*\{")
    return any(_complex_body(data, sweep, b.end() - 1, vector, depth + 1) for b in binary.finditer(data)
               if not sweep.in_masked(b.start()))
