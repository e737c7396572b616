"""The project's own headers a source file includes, for ``--local-headers`` (hipify-clang's option).

Why: translating ``kernel.cu`` alone leaves the CUDA calls in the ``"helpers.cuh"`` it includes,
and the port does not build.  Quoted includes are looked up as the compiler would, beside the
including file first and then in the ``-I`` directories.  An angle-bracket include is the
project's own only when it is found in a ``-I`` directory the user named (CUDA samples include
``<helper_cuda.h>`` from ``-I Common``); system and library headers are never touched.
``--local-headers-recursive`` follows the headers' own includes too.  Include lines are found on
the raw bytes (a file is never decoded here).
"""

from __future__ import annotations

import os
import re
from hipport import lazy_re

_INCLUDE = lazy_re.compile(rb'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\r\n]+)"|<([^>\r\n]+)>)', re.M)
_MAX_HEADER_BYTES = 16 * 1024 * 1024  # a "header" larger than this is not source we rewrite
# where toolkits and the system keep their headers: never the project's, whatever -I says
_SYSTEM_DIRS = lazy_re.compile(r"^/(?:usr/(?:local/)?include|usr/local/cuda[^/]*|opt/rocm[^/]*|opt/nvidia|usr/lib)/")


def is_system_path(path: str) -> bool:
    """Is *path* where toolkits and the system keep their headers?"""
    return _SYSTEM_DIRS.match(os.path.realpath(path)) is not None


def includes(data: bytes) -> list[tuple[str, bool]]:
    """(name, quoted) of every #include line."""
    return [((m.group(1) or m.group(2)).decode("utf-8", "surrogateescape"), m.group(1) is not None)
            for m in _INCLUDE.finditer(data)]


def _resolve(name: str, quoted: bool, including: str, include_dirs: tuple[str, ...]) -> str | None:
    for folder in ((os.path.dirname(including) or ".", *include_dirs) if quoted else include_dirs):
        candidate = os.path.normpath(os.path.join(folder, name))
        if os.path.isfile(candidate):
            return candidate
    return None


def local_headers(files: list[str], include_dirs: tuple[str, ...] = (), *, recursive: bool = False,
                  known=frozenset()) -> list[str]:
    """Local headers of *files* in first-seen order, without the inputs themselves or duplicates;
    *known* names headers that are never local (the CUDA headers the rules map)."""
    seen = {os.path.realpath(f) for f in files}
    found: list[str] = []
    pending = list(files)
    while pending:
        including = pending.pop(0)
        try:
            if os.path.getsize(including) > _MAX_HEADER_BYTES:
                continue
            with open(including, "rb") as f:
                data = f.read()
        except OSError:
            continue  # the translator reports unreadable inputs; a missing header is the compiler's business
        for name, quoted in includes(data):
            if name in known:
                # <cuda.h>, or "cuda.h" found through -I, is CUDA's; beside the source it is the
                # project's own (darknet's src/cuda.h), which the translation keeps too
                beside = os.path.join(os.path.dirname(including) or ".", name)
                if not (quoted and os.path.isfile(beside) and not is_system_path(beside)):
                    continue
            header = _resolve(name, quoted, including, include_dirs)
            if header is None or os.path.realpath(header) in seen or is_system_path(header):
                continue
            seen.add(os.path.realpath(header))
            found.append(header)
            if recursive:
                pending.append(header)
    return found
