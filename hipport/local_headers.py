"""The project's own headers a source file includes, for ``--local-headers`` (hipify-clang's option).

Why: translating ``kernel.cu`` alone leaves the CUDA calls in the ``"helpers.cuh"`` it includes,
and the port does not build.  Quoted includes are looked up as the compiler would, beside the
including file first and then in the ``-I`` directories; angle-bracket includes are system or
library headers and never touched.  ``--local-headers-recursive`` follows the headers' own
quoted includes too.  Include lines are found on the raw bytes (a file is never decoded here).
"""

from __future__ import annotations

import os
import re

_QUOTED_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\r\n]+)"', re.M)
_MAX_HEADER_BYTES = 16 * 1024 * 1024  # a "header" larger than this is not source we rewrite


def quoted_includes(data: bytes) -> list[str]:
    return [m.group(1).decode("utf-8", "surrogateescape") for m in _QUOTED_INCLUDE.finditer(data)]


def _resolve(name: str, including: str, include_dirs: tuple[str, ...]) -> str | None:
    for folder in (os.path.dirname(including) or ".", *include_dirs):
        candidate = os.path.normpath(os.path.join(folder, name))
        if os.path.isfile(candidate):
            return candidate
    return None


def local_headers(files: list[str], include_dirs: tuple[str, ...] = (), *, recursive: bool = False) -> list[str]:
    """Local headers of *files* in first-seen order, without the inputs themselves or duplicates."""
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
        for name in quoted_includes(data):
            header = _resolve(name, including, include_dirs)
            if header is None or os.path.realpath(header) in seen:
                continue
            seen.add(os.path.realpath(header))
            found.append(header)
            if recursive:
                pending.append(header)
    return found
