"""HT005 — ``torch.distributed`` backends other than ``nccl`` and ``gloo``.

Only nccl (RCCL on ROCm) and gloo exist in ROCm builds of PyTorch.  Reported: the backend
argument of ``init_process_group``/``new_group``/``new_subgroups``… (``backend=`` or positional)
and of ``Backend(...)`` when it is ``'mpi'``, ``'ucc'``, a per-device string such as
``'cuda:nccl,cpu:mpi'`` with such a part, or ``Backend.MPI``/``Backend.UCC`` — directly or
through a name assigned once.  No fix: which backend replaces it is the user's decision.
"""

from __future__ import annotations

import libcst as cst

from hipport.python.codes import CODES
from hipport.python.context import Finding, argument

CODE = "HT005"
TITLE = CODES[CODE][0]
MESSAGE = "torch.distributed backend {name!r} is not available on ROCm (only 'nccl' and 'gloo' are)"
HINT = "use 'nccl' (RCCL on ROCm) for GPU tensors or 'gloo' for CPU tensors"

# nccl and gloo, plus PyTorch's own in-process test backends (pure Python, present on every build)
SUPPORTED = frozenset({"nccl", "gloo", "undefined", "fake", "threaded"})
# function → positional index of its backend parameter
FUNCTIONS = {
    "init_process_group": 0,
    "new_group": 2,
    "new_subgroups": 3,
    "new_subgroups_by_enumeration": 2,
    "Backend": 0,
}

BACKEND_CLASSES = ("torch.distributed.Backend", "torch.distributed.distributed_c10d.Backend")
QUALIFIED = frozenset(f"{module}.{name}" for module in ("torch.distributed", "torch.distributed.distributed_c10d")
                      for name in FUNCTIONS)


def unsupported(spec: str) -> list[str]:
    """Backend names in 'mpi' or 'cuda:nccl,cpu:mpi' that ROCm builds do not have."""
    bad = []
    for part in spec.split(","):
        name = part.rpartition(":")[2].strip().lower()
        if name and name not in SUPPORTED:
            bad.append(name)
    return bad


def _backend_names(ctx, value) -> list[str]:
    text = ctx.flow.string(value)
    if text is not None:
        return unsupported(text)
    node = value
    if isinstance(value, cst.Name):
        origin = ctx.flow.assignment_of(value)
        if origin is not None and origin[1] is None:
            node = origin[0]
    if isinstance(node, cst.Attribute) and node.attr.value.isupper() and node.attr.value.lower() not in SUPPORTED:
        if ctx.resolves_to(node.value, BACKEND_CLASSES):
            return [node.attr.value.lower()]
    return []


def check(ctx):
    for call in ctx.nodes("Call"):
        if not ctx.may_be(call.func, FUNCTIONS):
            continue
        for name in ctx.resolves_to(call.func, QUALIFIED):
            short = name.rsplit(".", 1)[-1]
            arg = argument(call, FUNCTIONS[short], "backend" if short != "Backend" else "name")
            if arg is None:
                continue
            bad = _backend_names(ctx, arg.value)
            if bad:
                yield Finding(CODE, arg.value, MESSAGE.format(name=bad[0]), HINT)
            break
