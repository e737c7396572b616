"""``hipport translate x.py``: the torch rules' safe fixes, reported like a C++ translation."""

from __future__ import annotations

import time

from hipport.cxx.context import Stats
from hipport.cxx.translate import TranslationResult
from hipport.options import Options


def translate_python(data: bytes, path: str, options: Options) -> TranslationResult:
    from hipport.python import fix_python

    started = time.perf_counter()
    out, diags = fix_python(data, path)
    stats = Stats(files=1, bytes=len(data), lines=data.count(b"\n"), changed_files=int(out != data))
    stats.seconds = time.perf_counter() - started
    return TranslationResult(out, diags, stats)
