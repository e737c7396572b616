"""cuRAND device-API states made in host code: plain structs in CUDA, device-only in hipRAND.

    curandStatePhilox4_32_10_t* save = new curandStatePhilox4_32_10_t[n];   // checkpoint copies
    std::vector<curandStateMRG32k3a> states(n);
    curandStateXORWOW x;                                                     // in main()

CUDA's state types are aggregates any code may create; hipRAND's wrap rocRAND engines whose
constructors are `__device__`, so creating one on the host does not compile ("no matching
constructor").  Copying states between host and device works in both as bytes, which is what
such code does, so each place is reported (HP032) with that way out; nothing is rewritten.
"""

from __future__ import annotations

from hipport import lazy_re
from hipport.cxx.context import Context
from hipport.cxx.definitions import enclosing_braces
from hipport.cxx.scan import Scan

# the state types (a literal first: fast); what stands before and after each is read then
_STATE = lazy_re.compile(rb"\bcurandState\w*")
_ALLOCATED_BEFORE = lazy_re.compile(rb"(?:\bnew\s+|\bvector\s*<\s*)\Z")  # `new T[n]`, `std::vector<T>`
_OBJECT_AFTER = lazy_re.compile(rb"\s+[A-Za-z_]\w*\s*(?:\[[^\]]*\]\s*)?[;={(,]")  # `T name;`, in host code
_DEVICE_HEAD = lazy_re.compile(rb"__(?:device|global)__")
_HEAD_END = lazy_re.compile(rb"\)\s*(?:const\s*)?\Z")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"curandState" not in data:
        return
    found = []
    for m in _STATE.finditer(data):
        at = m.start()
        allocated = _ALLOCATED_BEFORE.search(data, max(0, at - 24), at)
        if allocated is not None:
            found.append((allocated.start(), m.group()))
        elif _OBJECT_AFTER.match(data, m.end()) and \
                not _DEVICE_HEAD.search(data, data.rfind(b"\n", 0, at) + 1, at) and _in_host_code(data, sweep, at):
            found.append((at, m.group()))
    for at, state in found:
        if sweep.in_masked(at):
            continue
        ctx.sink.add("HP032", f"a {state.decode()} made in host code: hipRAND's states have device-only "
                     "constructors", at, hint="keep host copies as bytes (std::vector<unsigned char> of "
                     "n * sizeof(state)) and copy them with hipMemcpy as before")


def _in_host_code(data: bytes, sweep: Scan, at: int) -> bool:
    """In a function whose head says neither __device__ nor __global__ (or at file scope)."""
    for brace in enclosing_braces(data, at, sweep, reach=4000):
        start = max(data.rfind(b";", 0, brace), data.rfind(b"}", 0, brace), data.rfind(b"{", 0, brace)) + 1
        head = data[start:brace]
        if _HEAD_END.search(head.rstrip()):  # a function's body (or a statement's, whose head has no space)
            if _DEVICE_HEAD.search(head):
                return False
            if b"(" in head and not head.lstrip().startswith((b"if", b"for", b"while", b"switch")):
                return True
    return False  # (file scope: a __device__ global, or a declaration of the device's)
