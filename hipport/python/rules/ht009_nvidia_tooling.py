"""HT009 — NVIDIA-only tooling used from Python.

* importing ``pynvml`` / ``nvidia_smi`` / ``py3nvml`` (NVML exists only on NVIDIA drivers);
* running ``nvidia-smi`` through ``subprocess.*``/``os.system``/``os.popen``/``shutil.which``
  (a string command or an argument list whose program is ``nvidia-smi``);
* *setting* ``CUDA_VISIBLE_DEVICES`` in code: ``os.environ[...] = …``, ``env[...] = …``,
  ``setdefault``/``putenv``/``setenv``, ``update(CUDA_VISIBLE_DEVICES=…)``, or a dict literal key
  (``env={..., 'CUDA_VISIBLE_DEVICES': '0'}``).  Reading it is not reported.

Hint: amdsmi (Python bindings) or rocm-smi, and ``HIP_VISIBLE_DEVICES``.  No fix.
"""

from __future__ import annotations

import libcst as cst

from hipport.python.codes import CODES
from hipport.python.context import Finding, argument
from hipport.python.flow import string_value

CODE = "HT009"
TITLE = CODES[CODE][0]
NVML_MESSAGE = "{module} talks to NVML, which exists only on NVIDIA drivers"
NVML_HINT = "on ROCm use the amdsmi Python package (or rocm-smi); torch.cuda.utilization()/memory APIs work on both"
SMI_MESSAGE = "nvidia-smi is not available on ROCm systems"
SMI_HINT = "use amd-smi or rocm-smi on ROCm (or the amdsmi Python package)"
ENV_MESSAGE = "CUDA_VISIBLE_DEVICES set in code; on ROCm the native variable is HIP_VISIBLE_DEVICES"
ENV_HINT = ("set HIP_VISIBLE_DEVICES (or ROCR_VISIBLE_DEVICES) for ROCm; HIP honours "
            "CUDA_VISIBLE_DEVICES only for compatibility")

MODULES = frozenset({"pynvml", "nvidia_smi", "py3nvml", "pynvml_utils"})
RUNNERS = frozenset({"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output",
                     "subprocess.Popen", "subprocess.getoutput", "subprocess.getstatusoutput",
                     "os.system", "os.popen", "shutil.which", "os.execvp", "os.execlp", "os.spawnlp"})
_LAST = frozenset(name.rsplit(".", 1)[1] for name in RUNNERS)
VAR = "CUDA_VISIBLE_DEVICES"


def _is_smi(program: str | None) -> bool:
    if not program:
        return False
    first = program.strip().split()[0] if program.strip() else ""
    return first.rsplit("/", 1)[-1] in ("nvidia-smi", "nvidia-smi.exe")


def _imports(ctx):
    for imp in ctx.nodes("Import"):
        for alias in imp.names:
            name = ctx.code(alias.name)
            if name.split(".")[0] in MODULES:
                yield Finding(CODE, alias, NVML_MESSAGE.format(module=name), NVML_HINT)
    for imp in ctx.nodes("ImportFrom"):
        if imp.module is not None and not imp.relative:
            name = ctx.code(imp.module)
            if name.split(".")[0] in MODULES:
                yield Finding(CODE, imp, NVML_MESSAGE.format(module=name), NVML_HINT)


def _commands(ctx, call):
    arg = argument(call, 0, "args") or argument(call, 0, "cmd") or argument(call, 0, "command")
    if arg is None:
        return False
    value = arg.value
    sequence = ctx.flow.literal(value, cst.List) or ctx.flow.literal(value, cst.Tuple)
    if sequence is not None and sequence.elements:
        return _is_smi(string_value(sequence.elements[0].value))
    return _is_smi(ctx.flow.string(value))


def check(ctx):
    yield from _imports(ctx)
    for call in ctx.nodes("Call"):
        if not ctx.may_be(call.func, _LAST | {"setdefault", "putenv", "setenv", "update"}):
            continue
        names = ctx.resolves_to(call.func, RUNNERS | {"os.putenv"})
        if names & RUNNERS and _commands(ctx, call):
            yield Finding(CODE, call, SMI_MESSAGE, SMI_HINT)
            continue
        if isinstance(call.func, cst.Attribute):
            method = call.func.attr.value
            if method in ("setdefault", "putenv", "setenv") and call.args and string_value(call.args[0].value) == VAR:
                yield Finding(CODE, call, ENV_MESSAGE, ENV_HINT)
            elif method == "update" and argument(call, None, VAR) is not None:
                yield Finding(CODE, call, ENV_MESSAGE, ENV_HINT)
        if "os.putenv" in names and call.args and string_value(call.args[0].value) == VAR:
            yield Finding(CODE, call, ENV_MESSAGE, ENV_HINT)
    for assign in ctx.nodes("Assign"):
        for target in assign.targets:
            node = target.target
            if isinstance(node, cst.Subscript) and len(node.slice) == 1:
                index = node.slice[0].slice
                if isinstance(index, cst.Index) and string_value(index.value) == VAR:
                    yield Finding(CODE, node, ENV_MESSAGE, ENV_HINT)
    for element in ctx.nodes("DictElement"):
        if string_value(element.key) == VAR:
            yield Finding(CODE, element, ENV_MESSAGE, ENV_HINT)
