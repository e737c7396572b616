"""The CUDA release whose headers hipify-clang would parse here.

Why: a few of hipify-clang's rewrites depend on the CUDA headers it compiles against (its tests
split into ``*_before_13000`` and current files).  hipport follows the CUDA that ``--cuda-path``,
``$CUDA_PATH`` or ``/usr/local/cuda`` provides, and the newest release when none is installed.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

NEWEST_MAJOR = 13
_CUDART_VERSION = re.compile(rb"#define\s+CUDART_VERSION\s+(\d+)")


def cuda_major(cuda_path: str | None) -> int:
    for candidate in (cuda_path, os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if candidate and (release := cuda_release(candidate)):
            return release // 1000
    return NEWEST_MAJOR


def cuda_release(cuda_path: str) -> int:
    """``CUDART_VERSION`` of the toolkit at *cuda_path* (12080 for 12.8); 0 when none is there."""
    return _release_of(os.path.join(cuda_path, "include", "cuda_runtime_api.h"))


@lru_cache(maxsize=8)
def _release_of(header: str) -> int:
    try:
        with open(header, "rb") as f:
            m = _CUDART_VERSION.search(f.read())
    except OSError:
        return 0
    return int(m.group(1)) if m else 0
