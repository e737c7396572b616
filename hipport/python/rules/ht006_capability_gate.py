"""HT006 — compute-capability gates.

``torch.cuda.get_device_capability()`` (and ``.major``/``.minor`` of
``torch.cuda.get_device_properties(d)``) return NVIDIA SM numbers on CUDA, but on ROCm they are
derived from the gfx architecture (gfx942 → (9, 4), gfx90a → (9, 0)), so ``>= (8, 0)`` or
``major >= 8`` means something else there.  Reported: a comparison between such a value —
directly, through a subscript, ``major * 10 + minor``, or names assigned from it
(``major, minor = torch.cuda.get_device_capability()``) — and anything that is not itself a
capability (comparing two devices' capabilities is fine).  No fix: the ROCm condition needs a
decision (``torch.version.hip`` and ``get_device_properties(d).gcnArchName``).
"""

from __future__ import annotations

import libcst as cst

from hipport.python.codes import CODES
from hipport.python.context import Finding
from hipport.python.flow import CAP_PART, CAPABILITY

CODE = "HT006"
TITLE = CODES[CODE][0]
MESSAGE = ("compute-capability gate: on ROCm the capability is derived from the gfx architecture "
           "(gfx942 → (9, 4)), so comparing it with NVIDIA SM numbers means something else")
HINT = ("branch on torch.version.hip and check torch.cuda.get_device_properties(d).gcnArchName "
        "(e.g. 'gfx942') for the AMD condition")

_CAP = (CAPABILITY, CAP_PART)


def check(ctx):
    for comparison in ctx.nodes("Comparison"):
        operands = [comparison.left] + [t.comparator for t in comparison.comparisons]
        values = [ctx.flow.value(op) for op in operands]
        if any(v in _CAP for v in values) and not all(v in _CAP for v in values):
            if any(isinstance(op, cst.Name) and op.value == "None" for op in operands):
                continue
            yield Finding(CODE, comparison, MESSAGE, HINT)
