"""HT004 — setting the cuFFT plan-cache size.

``torch.backends.cuda.cufft_plan_cache.max_size = N`` (or ``cufft_plan_cache[i].max_size``) is
not supported on ROCm (hipFFT/rocFFT).  Fix: guard the statement with ``if not
torch.version.hip:`` — inserted in front of the statement, which is indented one more level,
using the file's own line ending and tab/space style; offered only when the statement is alone
on its line and a name bound to ``torch`` is in reach.
"""

from __future__ import annotations

import libcst as cst

from hipport.edits import Edit
from hipport.python.codes import CODES
from hipport.python.context import Finding
from hipport.python.flow import FFT_CACHE

CODE = "HT004"
TITLE = CODES[CODE][0]
MESSAGE = "setting the cuFFT plan-cache size is not supported on ROCm (hipFFT/rocFFT)"
HINT = "guard it with `if not torch.version.hip:`"


def _guard_edit(ctx, target):
    line = ctx.statement_of(target)
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    block = ctx.parent(line)
    if not isinstance(block, (cst.IndentedBlock, cst.Module)):
        return None
    alias = ctx.torch_alias(target.value)
    span = ctx.span(line.body[0])
    if alias is None or span is None:
        return None
    start = span[0]
    line_start = ctx.data.rfind(b"\n", 0, start) + 1
    indent = ctx.data[line_start:start]
    if indent.strip(b" \t"):  # something else precedes the statement on its line
        return None
    unit = b"\t" if indent.startswith(b"\t") else b"    "
    newline = ctx.newline_at(start)
    text = b"if not " + alias.encode("ascii") + b".version.hip:" + newline + indent + unit
    return Edit(start, start, text, CODE)


def check(ctx):
    targets = [t.target for a in ctx.nodes("Assign") for t in a.targets]
    targets += [a.target for a in ctx.nodes("AugAssign", "AnnAssign")]
    for target in targets:
        if isinstance(target, cst.Attribute) and target.attr.value == "max_size":
            if ctx.flow.value(target.value) == FFT_CACHE:
                yield Finding(CODE, target, MESSAGE, HINT, _guard_edit(ctx, target))
