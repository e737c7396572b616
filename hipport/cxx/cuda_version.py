"""The CUDA release whose headers hipify-clang would parse, when the user names them.

Why: a few of hipify-clang's rewrites depend on the CUDA headers it compiles against (its tests
split into ``*_before_13000`` and current files), and ``--skip-excluded-preprocessor-conditional-
blocks`` evaluates ``CUDA_VERSION``.  hipport follows the toolkit that ``--cuda-path`` names and
no other: a CUDA that happens to be installed (``/usr/local/cuda``, ``$CUDA_PATH``) must not make
the same file translate differently on two machines.  Without one the release is unknown (0).
"""

from __future__ import annotations

import os
from functools import lru_cache
from hipport import lazy_re

_CUDART_VERSION = lazy_re.compile(rb"#define\s+CUDART_VERSION\s+(\d+)")


def cuda_release(cuda_path: str | None) -> int:
    """``CUDART_VERSION`` of the toolkit at *cuda_path* (12080 for 12.8); 0 when none is there."""
    return _release_of(os.path.join(cuda_path, "include", "cuda_runtime_api.h")) if cuda_path else 0


@lru_cache(maxsize=8)
def _release_of(header: str) -> int:
    try:
        with open(header, "rb") as f:
            m = _CUDART_VERSION.search(f.read())
    except OSError:
        return 0
    return int(m.group(1)) if m else 0
