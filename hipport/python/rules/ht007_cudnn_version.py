"""HT007 — cuDNN version numbers.

On ROCm ``torch.backends.cudnn.version()`` reports the MIOpen version, so comparing it (or
arithmetic on it, or a name assigned from it) with cuDNN version numbers such as ``8200``
decides on the wrong scale.  ``is None`` checks (is a DNN library present?) are fine and are
not reported.  No fix.
"""

from __future__ import annotations

import libcst as cst

from hipport.python.codes import CODES
from hipport.python.context import Finding
from hipport.python.flow import CUDNN_VERSION

CODE = "HT007"
TITLE = CODES[CODE][0]
MESSAGE = ("torch.backends.cudnn.version() reports the MIOpen version on ROCm; comparing it with "
           "cuDNN version numbers is meaningless there")
HINT = "branch on torch.version.hip first, and compare MIOpen versions on the ROCm side"


def check(ctx):
    for comparison in ctx.nodes("Comparison"):
        operands = [comparison.left] + [t.comparator for t in comparison.comparisons]
        values = [ctx.flow.value(op) for op in operands]
        if CUDNN_VERSION in values and not all(v == CUDNN_VERSION for v in values):
            if any(isinstance(op, cst.Name) and op.value == "None" for op in operands):
                continue
            yield Finding(CODE, comparison, MESSAGE, HINT)
