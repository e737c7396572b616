"""HT001 — device strings ``'hip'``, ``'rocm'``, ``'hip:1'``, ``'rocm:0'``.

PyTorch for HIP reuses the ``cuda`` device type: on ROCm the GPU is ``torch.device('cuda')``;
``'rocm'`` is not a device type at all and ``'hip'`` names a device type that ROCm builds do not
use for tensors.  Reported where the string is used as a device: ``torch.device(...)``'s first
argument (or ``type=``), a ``device=`` keyword of any call (``torch.randn(2, device='hip')``),
a positional argument of ``.to(...)`` — directly, or through a name assigned once from the
literal.  Fix: rewrite the literal to ``'cuda'``/``'cuda:N'`` (quotes and prefix kept).
"""

from __future__ import annotations

import libcst as cst

from hipport.edits import Edit
from hipport.python.codes import CODES
from hipport.python.context import Finding
from hipport.python.flow import string_value
from hipport import lazy_re

CODE = "HT001"
TITLE = CODES[CODE][0]
MESSAGE = "device string {text!r} is not valid on ROCm: PyTorch for HIP uses the 'cuda' device type"
HINT = "write {fixed!r}; ROCm GPUs are addressed as cuda devices through the torch.cuda interfaces"

DEVICE = lazy_re.compile(r"(hip|rocm)(:\d+)?")


def _device_use(ctx, node: cst.CSTNode) -> bool:
    """Is *node* (a string literal or a name holding one) used as a device argument?"""
    arg = ctx.parent(node)
    if not isinstance(arg, cst.Arg):
        return False
    call = ctx.parent(arg)
    if not isinstance(call, cst.Call):
        return False
    if arg.keyword is not None:
        if arg.keyword.value == "device":
            return True
        return arg.keyword.value == "type" and ctx.resolves_to(call.func, ("torch.device",))
    if arg.star:
        return False
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if ctx.resolves_to(call.func, ("torch.device",)):
        return positional and positional[0] is arg
    return isinstance(call.func, cst.Attribute) and call.func.attr.value == "to"


def check(ctx):
    for node in ctx.nodes("SimpleString"):
        text = string_value(node)
        if text is None or not DEVICE.fullmatch(text):
            continue
        used = _device_use(ctx, node)
        if not used:
            assign = ctx.parent(node)
            if isinstance(assign, cst.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name):
                used = any(_device_use(ctx, use) for use in ctx.flow.uses_of(assign.targets[0].target))
        if not used:
            continue
        fixed = "cuda" + text[len(DEVICE.fullmatch(text).group(1)):]
        edit = None
        raw = ctx.source(node)
        if raw is not None:
            body_start = len(node.prefix) + len(node.quote)
            body = raw[body_start:len(raw) - len(node.quote)]
            if body == text.encode("ascii"):  # no escapes: replace the text between the quotes
                span = ctx.span(node)
                edit = Edit(span[0] + body_start, span[1] - len(node.quote), fixed.encode("ascii"), CODE)
        yield Finding(CODE, node, MESSAGE.format(text=text), HINT.format(fixed=fixed), edit)
