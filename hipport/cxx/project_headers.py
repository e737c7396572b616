"""The project headers a file includes (`#include "x.h"`, beside it or in an -I directory), as text.

Why: some facts a pass needs live one include away — a member declared `CUdeviceptr` in the
class's header, a project function that shadows a removed CUDA API.  Reading those headers as
text, one level deep, is cheap and answers most such questions before (or without) libclang.
"""

from __future__ import annotations

import os
import re

from hipport.cxx.context import Context
from hipport import lazy_re

_QUOTED_INCLUDE = lazy_re.compile(rb"^[ \t]*#[ \t]*include[ \t]*\"([^\"\n]+)\"", re.M)
_LIMIT = 1 << 20  # a generated table of a header is no place for declarations we look for


def included_texts(ctx: Context) -> list[bytes]:
    """The text of each project header the file includes, read once per translation."""
    if ctx.project_headers is not None:
        return ctx.project_headers
    texts: list[bytes] = []
    if b'"' in ctx.data:
        here = os.path.dirname(os.path.abspath(ctx.path))
        dirs = [here, *ctx.options.include_dirs]
        for m in _QUOTED_INCLUDE.finditer(ctx.data):
            rel = m.group(1).decode("utf-8", "replace")
            for d in dirs:
                try:
                    with open(os.path.join(d, rel), "rb") as f:
                        texts.append(f.read(_LIMIT))
                    break
                except OSError:
                    continue
    ctx.project_headers = texts
    return texts
