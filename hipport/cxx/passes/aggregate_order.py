"""`cudaMemsetParams p = {dst, pitch, value, elementSize, width, height};`: positional initializers of
structs whose HIP counterpart declares the same members in another order.

HIP declares the members of its graph-node and access-policy structs alphabetically (HIP 5.2 and
still today), CUDA in API order.  A positional initializer then fills other members: a compile
error where the types differ (`cudaKernelNodeParams`: a kernel pointer for a `dim3`), silently
wrong values where they do not (`cudaMemsetParams`: the value lands in elementSize).  The values
are put in HIP's order; a member CUDA's list left out becomes `{}` (value-initialized, as it was).
Designated initializers and empty lists are left alone.
"""

from __future__ import annotations

import re

from hipport.cxx.calls import call_arguments
from hipport.cxx.context import Context
from hipport.cxx.scan import Scan
from hipport import lazy_re

_KERNEL_NODE = (("func", "gridDim", "blockDim", "sharedMemBytes", "kernelParams", "extra"),
                ("blockDim", "extra", "func", "gridDim", "kernelParams", "sharedMemBytes"))
_MEMSET = (("dst", "pitch", "value", "elementSize", "width", "height"),
           ("dst", "elementSize", "height", "pitch", "value", "width"))
_ACCESS_POLICY = (("base_ptr", "num_bytes", "hitRatio", "hitProp", "missProp"),
                  ("base_ptr", "hitProp", "hitRatio", "missProp", "num_bytes"))
#: CUDA struct -> (its members in CUDA's order, the same members in HIP's)
ORDERS = {
    b"cudaKernelNodeParams": _KERNEL_NODE,
    b"cudaMemsetParams": _MEMSET,
    b"CUDA_MEMSET_NODE_PARAMS": _MEMSET, b"CUDA_MEMSET_NODE_PARAMS_st": _MEMSET, b"CUDA_MEMSET_NODE_PARAMS_v1": _MEMSET,
    b"cudaAccessPolicyWindow": _ACCESS_POLICY,
    b"CUaccessPolicyWindow": _ACCESS_POLICY, b"CUaccessPolicyWindow_st": _ACCESS_POLICY,
    b"CUaccessPolicyWindow_v1": _ACCESS_POLICY,
}
_TYPES = b"|".join(sorted(ORDERS, key=len, reverse=True))
# `T p = {…}`, `T p{…}`, `T{…}` (a temporary)
_DECLARATION = lazy_re.compile(rb"(" + _TYPES + rb")\s*(?:[A-Za-z_]\w*\s*)?(?:=\s*)?\{")
_DECLARED = lazy_re.compile(rb"(" + _TYPES + rb")\s+([A-Za-z_]\w*)\s*[;{=,)]")
_RETURN_LIST = lazy_re.compile(rb"\breturn\s*\{")
_RETURNS = lazy_re.compile(rb"\b(" + _TYPES + rb")\s+(?:[A-Za-z_][\w:]*\s*)\([^;{}]*\)\s*(?:const\s*)?\Z")


_TYPE = lazy_re.compile(rb"\b(?:" + _TYPES + rb")\b")
_RETURNING = lazy_re.compile(rb"(?:" + _TYPES + rb")\s+[A-Za-z_][\w:]*\s*\(")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if not any(name in data for name in (b"KernelNodeParams", b"MemsetParams", b"MEMSET_NODE", b"ccessPolicyWindow")):
        return
    hits = [m.start() for m in _TYPE.finditer(data) if not sweep.in_masked(m.start())]  # one sweep for the names
    declared: dict[bytes, bytes] = {}  # variable -> struct
    returning = False
    for at in hits:
        m = _DECLARATION.match(data, at)
        if m is not None and data[max(0, at - 7):at].strip() not in (b"struct", b"class"):
            _reorder(ctx, m.group(1), m.end() - 1)
        d = _DECLARED.match(data, at)
        if d is not None:
            declared[d.group(2)] = d.group(1)
        returning = returning or _RETURNING.match(data, at) is not None
    # `b = {…}` of a `T b` the file declares, and `return {…}` in a function returning T
    if declared:
        names = re.compile(rb"\b(" + b"|".join(re.escape(n) for n in declared) + rb")\s*=\s*\{")  # (`\b` first: fast)
        for m in names.finditer(data):
            if data[m.start() - 1:m.start()] not in (b".", b">", b"$") and not sweep.in_masked(m.start()):
                _reorder(ctx, declared[m.group(1)], m.end() - 1)
    # `use({…})` of a `void use(const T&)` the file declares
    for function, index, struct in _list_parameters(data, hits):
        for call in re.finditer(rb"(?<![\w$.>:])" + re.escape(function) + rb"\s*\(", data):
            parsed = call_arguments(data, call.end() - 1)
            if parsed is not None and index < len(parsed[0]) and not sweep.in_masked(call.start()):
                s, _e = parsed[0][index]
                if data[s:s + 1] == b"{":
                    _reorder(ctx, struct, s)
    if returning:
        from hipport.cxx.definitions import enclosing_braces

        for m in _RETURN_LIST.finditer(data):
            body = next((b for b in enclosing_braces(data, m.start(), sweep)
                         if not re.search(rb"(?:\b(?:if|else|for|while|do|switch|try)\b[^;{}]*|\)\s*)\Z",
                                          data[max(0, b - 80):b]) or _RETURNS.search(data, max(0, b - 300), b)), None)
            head = _RETURNS.search(data, max(0, body - 300), body) if body is not None else None
            if head is not None and not sweep.in_masked(m.start()):
                _reorder(ctx, head.group(1), m.end() - 1)


_FUNCTION_BEFORE = lazy_re.compile(rb"([A-Za-z_]\w*)\s*\Z")


def _list_parameters(data: bytes, hits: list[int]):
    """(function, parameter index, struct) for each function the file declares with a parameter
    of one of the structs, by value or by reference (from the type names' offsets)."""
    seen = set()
    for at in hits:
        open_paren = data.rfind(b"(", max(0, at - 400), at)
        close_paren = data.find(b")", at)
        if open_paren < 0 or close_paren < 0 or any(c in data[open_paren + 1:close_paren] for c in (b"(", b";", b"{", b"}")):
            continue
        function = _FUNCTION_BEFORE.search(data, max(0, open_paren - 64), open_paren)
        if function is None or function.group(1) in (b"if", b"while", b"for", b"switch", b"sizeof", b"return"):
            continue
        for index, param in enumerate(data[open_paren + 1:close_paren].split(b",")):
            struct = _TYPE.search(param)
            if struct is not None and b"*" not in param and (function.group(1), index) not in seen:
                seen.add((function.group(1), index))
                yield function.group(1), index, struct.group()


def _reorder(ctx: Context, struct: bytes, brace: int) -> None:
    data = ctx.data
    parsed = call_arguments(data, brace)
    if parsed is None or not parsed[0]:
        return
    items, close = parsed
    cuda, hip = ORDERS[struct]
    values = [data[s:e] for s, e in items]
    if len(values) > len(cuda) or any(v.startswith(b".") or not v for v in values):
        return  # designated, or not this struct's list
    by_member = dict(zip(cuda, values))
    ordered = [by_member.get(member, b"{}") for member in hip]
    while ordered and ordered[-1] == b"{}":
        ordered.pop()
    if ordered != values:
        ctx.edit(items[0][0], items[-1][1], b", ".join(ordered), "aggregate-order")
