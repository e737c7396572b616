"""Kernel attributes about thread-block clusters, which AMD GPUs do not have.

`__launch_bounds__(threads, minBlocks, maxBlocksPerCluster)`: HIP's macro takes one or two
arguments, so a kernel declared with CUDA 12's three no longer compiles; the third is dropped, and
said so.  (The second argument's different meaning is HP016's.)  `__cluster_dims__(2, 1, 1)`
makes every launch of the kernel a cluster launch; HIP knows no such attribute, so it is put in a
comment and reported: the kernel is launched as plain blocks.
"""

from __future__ import annotations

from hipport.cxx.calls import call_arguments
from hipport.cxx.context import Context
from hipport.cxx.lexer import glued_before, outside_directives_or_in_macro_body
from hipport.cxx.scan import Scan
from hipport import lazy_re

_BOUNDS = lazy_re.compile(rb"__launch_bounds__\s*\(")
_CLUSTER_DIMS = lazy_re.compile(rb"__cluster_dims__\s*\(")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"__cluster_dims__" in data:
        _comment_out_cluster_dims(ctx, sweep)
    if b"__launch_bounds__" not in data:
        return
    for m in _BOUNDS.finditer(data):
        if glued_before(data, m.start()) or sweep.in_masked(m.start()) \
                or not outside_directives_or_in_macro_body(data, m.start()):
            continue
        parsed = call_arguments(data, m.end() - 1)
        if parsed is None or len(parsed[0]) != 3:
            continue
        (_, second_end), (_, third_end) = parsed[0][1], parsed[0][2]
        ctx.edit(second_end, third_end, b"", "launch-bounds")
        ctx.sink.add("HP016", "__launch_bounds__'s third argument (blocks per cluster) was dropped: AMD GPUs have "
                     "no thread-block clusters, and HIP's macro takes two arguments", m.start(), end=parsed[1] + 1)


def _comment_out_cluster_dims(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    for m in _CLUSTER_DIMS.finditer(data):
        if glued_before(data, m.start()) or sweep.in_masked(m.start()) \
                or not outside_directives_or_in_macro_body(data, m.start()):
            continue
        parsed = call_arguments(data, m.end() - 1)
        if parsed is None or b"*/" in data[m.start():parsed[1]]:
            continue
        ctx.edit(m.start(), m.start(), b"/* ", "cluster-dims")
        ctx.edit(parsed[1] + 1, parsed[1] + 1, b" */", "cluster-dims")
        ctx.sink.add("HP001", "__cluster_dims__ has no HIP counterpart (AMD GPUs have no thread-block clusters); "
                     "the attribute was put in a comment and the kernel launches as plain blocks", m.start(),
                     end=parsed[1] + 1, hint="check the kernel does not rely on cluster features (they are reported too)")

