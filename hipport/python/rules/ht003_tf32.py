"""HT003 — TF32 switches (informational).

TF32 is not supported on ROCm, so ``torch.backends.cuda.matmul.allow_tf32 = True``,
``torch.backends.cudnn.allow_tf32 = …``, the ``fp32_precision`` settings, ``allow_tf32=`` of
``torch.backends.cudnn.flags(...)`` and ``torch.set_float32_matmul_precision('high'|'medium')``
have no effect there: matmuls keep full FP32 precision (and speed).  Reported as a note where
the switch is *set* (reading it, or ``set_float32_matmul_precision('highest')``, is not
reported).  No fix: the code is harmless, but numerics/performance expectations differ.
"""

from __future__ import annotations

from hipport.python.codes import CODES
from hipport.python.context import Finding, argument
from hipport.python.flow import string_value

CODE = "HT003"
TITLE = CODES[CODE][0]
MESSAGE = "TF32 is not supported on ROCm: {what} has no effect there"
HINT = ("FP32 matmuls and convolutions run at full precision on AMD GPUs; no change is needed "
        "unless the code depends on TF32 speed or numerics")

SWITCHES = frozenset({
    "torch.backends.cuda.matmul.allow_tf32",
    "torch.backends.cudnn.allow_tf32",
    "torch.backends.fp32_precision",
    "torch.backends.cuda.matmul.fp32_precision",
    "torch.backends.cudnn.fp32_precision",
    "torch.backends.cudnn.conv.fp32_precision",
    "torch.backends.cudnn.rnn.fp32_precision",
})
_LAST = frozenset(name.rsplit(".", 1)[1] for name in SWITCHES)


def _targets(ctx):
    for assign in ctx.nodes("Assign"):
        for target in assign.targets:
            yield target.target
    for assign in ctx.nodes("AugAssign", "AnnAssign"):
        yield assign.target


def check(ctx):
    for target in _targets(ctx):
        if not ctx.may_be(target, _LAST):
            continue
        names = ctx.resolves_to(target, SWITCHES)
        if names:
            yield Finding(CODE, target, MESSAGE.format(what="setting " + min(names)), HINT)
    for call in ctx.nodes("Call"):
        if not ctx.may_be(call.func, ("set_float32_matmul_precision", "flags")):
            continue
        names = ctx.resolves_to(call.func, ("torch.set_float32_matmul_precision", "torch.backends.cudnn.flags"))
        if "torch.set_float32_matmul_precision" in names:
            arg = argument(call, 0, "precision")
            if arg is not None and string_value(arg.value) == "highest":
                continue
            yield Finding(CODE, call, MESSAGE.format(what="torch.set_float32_matmul_precision()"), HINT)
        elif "torch.backends.cudnn.flags" in names:
            arg = argument(call, None, "allow_tf32")
            if arg is not None:
                yield Finding(CODE, arg, MESSAGE.format(what="cudnn.flags(allow_tf32=...)"), HINT)
