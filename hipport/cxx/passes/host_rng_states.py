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

_STATE = rb"curandState\w*"
# `new T[n]`, `std::vector<T>` (a literal first: fast); `T name;` is checked for host code below
_HOST_ALLOCATION = lazy_re.compile(rb"\bnew\s+(" + _STATE + rb")\s*[\[(;]|\bvector\s*<\s*(" + _STATE + rb")\s*>")
_OBJECT = lazy_re.compile(rb"\b(" + _STATE + rb")\s+[A-Za-z_]\w*\s*(?:\[[^\]]*\]\s*)?[;={(,]")
_DEVICE_HEAD = lazy_re.compile(rb"__(?:device|global)__")
_HEAD_END = lazy_re.compile(rb"\)\s*(?:const\s*)?\Z")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"curandState" not in data:
        return
    found = [(m.start(), m.group(1) or m.group(2)) for m in _HOST_ALLOCATION.finditer(data)]
    found += [(m.start(), m.group(1)) for m in _OBJECT.finditer(data)
              if not _DEVICE_HEAD.search(data, data.rfind(b"\n", 0, m.start()) + 1, m.start())
              and _in_host_code(data, sweep, m.start())]
    for at, state in sorted(set(found)):
        if sweep.in_masked(at):
            continue
        ctx.sink.add("HP032", f"a {state.decode()} made in host code: hipRAND's states have device-only "
                     "constructors", at, hint="keep host copies as bytes (std::vector<unsigned char> of "
                     "n * sizeof(state)) and copy them with hipMemcpy as before")


def _in_host_code(data: bytes, sweep: Scan, at: int) -> bool:
    """In a function whose head says neither __device__ nor __global__ (or at file scope)."""
    for brace in enclosing_braces(data, at, sweep):
        start = max(data.rfind(b";", 0, brace), data.rfind(b"}", 0, brace), data.rfind(b"{", 0, brace)) + 1
        head = data[start:brace]
        if _HEAD_END.search(head.rstrip()):  # a function's body (or a statement's, whose head has no space)
            if _DEVICE_HEAD.search(head):
                return False
            if b"(" in head and not head.lstrip().startswith((b"if", b"for", b"while", b"switch")):
                return True
    return False  # (file scope: a __device__ global, or a declaration of the device's)
