"""Version-macro guard rules (HV001–HV004) and their fixes, for ``hipport lint`` and ``translate``.

On ROCm, ``CUDA_VERSION``, ``cudaRuntimeGetVersion`` and ``cudaDriverGetVersion`` do not map to
``HIP_VERSION``, ``hipRuntimeGetVersion`` and ``hipDriverGetVersion``; a check such as
``#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000`` silently takes the wrong path on AMD.
These rules find such checks by what the condition *means* on a ROCm build (see
:mod:`.guards`) and rewrite them in the documented forms (see :mod:`.fixes`).

The integration API works on bytes and returns diagnostics and :class:`hipport.edits.Edit`
objects; nothing here assembles output text.  Importing this package is cheap (re and the
standard library only).
"""

from __future__ import annotations

from hipport.diagnostics import Diagnostic, register
from hipport.edits import Edit

register("HV001", "CUDA version test does not say what ROCm builds do")
register("HV002", "runtime/driver version value compared on the wrong scale or mixed HIP/CUDA")
register("HV003", "HIP/ROCm version macro compared with a CUDA-style number or CUDA macro")
register("HV004", "HIP_VERSION compared with a number on its pre-ROCm-4.2 scale")

CODES = ("HV001", "HV002", "HV003", "HV004")

__all__ = ["CODES", "check_source", "fix_source", "parse_policy", "POLICIES"]


def check_source(data: bytes, path: str, *, config=None) -> list[Diagnostic]:
    """HV001–HV004 findings for one file (suppression comments honoured).

    *config* is a :class:`hipport.lint_config.LintConfig` or anything with the same attributes
    (``rocm_guards``, ``cuda_guards``, ``policy``, ``fix_guard``); None means the defaults.
    Each HV001 carries ``fix``: the directive as the configured policy (default
    ``exclude-rocm``) would rewrite it.
    """
    from .rules import Settings, analyse

    return analyse(data, path, Settings.from_config(config)).sink.items


def fix_source(data: bytes, path: str, *, policy: str, config=None) -> tuple[list[Edit], list[Diagnostic]]:
    """Edits that fix every HV001 under *policy*, and the diagnostics that remain.

    *policy*: ``exclude-rocm``, ``include-rocm`` or ``include-rocm-since=N`` (N like 40300 or
    ``4.3``); a bad policy raises ValueError.  Apply the edits with
    :func:`hipport.edits.apply_edits`; the result is a fixed point (fixing it again changes
    nothing).
    """
    from .rules import Settings, analyse

    result = analyse(data, path, Settings.from_config(config, policy), fix=True)
    return result.edits, result.sink.items


def parse_policy(text: str):
    from .fixes import parse_policy as _parse

    return _parse(text)


POLICIES = ("exclude-rocm", "include-rocm", "include-rocm-since=N")
