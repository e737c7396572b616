"""Python front end: lint and rewrite ``torch.cuda`` code for ROCm (rules HT001–HT009).

PyTorch for HIP reuses the ``torch.cuda`` interfaces, so most Python runs on AMD unchanged; the
rules find the idioms that silently misbehave there (``'hip'`` device strings,
``torch.version.cuda`` as a GPU-build test, SM-number capability gates, nvcc-only extension
flags, NVML…).  Analysis uses libcst, so fixes are exact edits of the original bytes and
comments/formatting survive.

Importing this package is cheap: libcst (≈0.3 s) is imported only when a file contains
something a rule could fire on.  ``config`` may be None or any object with a ``rocm_guards``
attribute (extra names that mark ROCm branches, e.g. a project's ``IS_HIP_EXTENSION``).
"""

from __future__ import annotations

from hipport.diagnostics import Diagnostic
from hipport.python.codes import CODES  # noqa: F401  (registers HT001–HT009)

__all__ = ["check_python", "fix_python", "CODES"]


def check_python(data: bytes, path: str, *, config=None) -> list[Diagnostic]:
    """Diagnostics for one Python file (suppression comments applied), sorted by position."""
    from hipport.python.engine import analyse

    return analyse(data, path, config).diagnostics


def fix_python(data: bytes, path: str, *, config=None) -> tuple[bytes, list[Diagnostic]]:
    """Apply all safe fixes; returns the fixed bytes and the diagnostics that remain.

    Bytes outside the fixed spans are untouched (edits, not re-rendering), and running it on
    its own output changes nothing.
    """
    from hipport.python.engine import fix

    return fix(data, path, config)
