"""Edits are the only way any front end changes a file.

Every capability (C++ renames, includes, launches, version-guard fixes, Python fixes) produces
``Edit`` objects over the original bytes; :func:`apply_edits` is the one place output is
assembled.  Keeping it in one place is what makes "byte-identical outside the rewritten spans"
a property we can test once instead of in every pass.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple


class Edit(NamedTuple):
    """Replace ``data[start:end]`` with ``text``; ``rule`` names what asked for it."""

    start: int
    end: int
    text: bytes
    rule: str = ""


class OverlappingEditsError(ValueError):
    pass


def apply_edits(data: bytes, edits: Iterable[Edit]) -> bytes:
    """Apply non-overlapping edits; identical duplicates are merged, conflicts are errors.

    Insertions at the same offset are kept in the order given (stable sort), so a pass that
    inserts an include and another that inserts a cast at one point compose predictably.
    """
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    out = []
    pos = 0
    previous: Edit | None = None
    for edit in ordered:
        if previous is not None and edit == previous:
            continue
        if edit.start < pos or edit.end < edit.start or edit.end > len(data):
            raise OverlappingEditsError(f"edit {edit} overlaps {previous} or is out of range")
        out.append(data[pos:edit.start])
        out.append(edit.text)
        pos = edit.end
        previous = edit
    out.append(data[pos:])
    return b"".join(out)
