"""Maintainer data: which HIP release added each HIP name, as AMD's HIPIFY tables record it.

Why: hipport writes a HIP name for each CUDA name, but a user's HIP may be older than the
release that introduced it (``hipGraphAddNode`` came in HIP 6.2.0, ``hipArrayGetInfo`` in
5.6.0).  Knowing the release lets the translator tell such a user that the translated code needs
a newer HIP, instead of leaving them with an undeclared identifier from the HIP compiler.

``tools/data/hip-versions.tsv`` holds, per row of ROCm/HIPIFY's ``docs/tables/*.md`` that has a
HIP name: the CUDA name, the HIP name, the HIP versions that added, deprecated and removed it or
marked it experimental (empty where the table gives none), and the table it came from.
"""

from __future__ import annotations

import functools
from pathlib import Path


@functools.lru_cache(maxsize=None)
def table() -> dict[str, tuple[str, str, str, str, str]]:
    """``{cuda: (hip, added, deprecated, removed, experimental)}``; the first row wins for a CUDA
    name that several tables list."""
    rows: dict[str, tuple[str, str, str, str, str]] = {}
    path = Path(__file__).resolve().parent / "data" / "hip-versions.tsv"
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        cuda, hip, added, deprecated, removed, experimental, _source = line.split("\t")
        rows.setdefault(cuda, (hip, added, deprecated, removed, experimental))
    return rows


def _release(text: str) -> tuple[int, int] | None:
    parts = text.split(".")
    return (int(parts[0]), int(parts[1]) if len(parts) > 1 else 0) if parts[0].isdigit() else None


def added_for(cuda: str, hip: str, declared_here: bool, here: tuple[int, int] | None,
              declared_later: bool = False) -> str:
    """The release that added *hip* as the counterpart of *cuda* ('' when unknown): only where the
    table names this very target and agrees with the HIP headers at hand (release *here*), since
    the table is transcribed: a name those headers declare was not added after them, and one they
    lack was not added before.  A name the tables miss that a newer HIP (*declared_later*) has and
    these headers lack gets ">X.Y": some release after theirs."""
    row = table().get(cuda)
    if row is None or row[0] != hip or not row[1]:
        # not in the tables, but a newer HIP declares it and the headers at hand do not: ">5.2"
        return f">{here[0]}.{here[1]}" if declared_later and not declared_here and here is not None else ""
    added = _release(row[1])
    if added is None or (here is not None and (added > here) == declared_here):
        return ""
    return row[1]


def release_of(hip_version_h: Path) -> tuple[int, int] | None:
    """(major, minor) of a hip_version.h; None when it is not there."""
    import re

    try:
        text = hip_version_h.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    major = re.search(r"#\s*define\s+HIP_VERSION_MAJOR\s+(\d+)", text)
    minor = re.search(r"#\s*define\s+HIP_VERSION_MINOR\s+(\d+)", text)
    return (int(major.group(1)), int(minor.group(1))) if major and minor else None
