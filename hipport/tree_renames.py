"""``convert --rename-cu``: new names for CUDA files, and the references to them that must follow.

Convention (documented in ``hipport convert --help``):

* ``foo.cu``  → ``foo.hip``   — hipify-perl's convention; CMake (3.21+) compiles ``.hip`` as HIP
  without any source property, and hipcc recognises it.
* ``foo.cuh`` → ``foo.hip.h`` — keeps a header recognisably a header (``.h``: editors, CMake's
  header handling and every build tool treat it as one and never compile it) while naming HIP.

A file is not renamed when its new name already exists in the tree (warned, ``HC006``).
References are rewritten as edits over the bytes, so nothing else in a file changes:
``#include "…"``/``<…>`` directives in C/C++/CUDA files, and path words in CMake files and
Makefiles (written relative to the build file's directory, optionally after
``${CMAKE_CURRENT_SOURCE_DIR}/``).
"""

from __future__ import annotations

import posixpath
import re
from typing import Mapping

from hipport.edits import Edit
from hipport import lazy_re

SUFFIX_RENAMES = {".cu": ".hip", ".cuh": ".hip.h"}

_INCLUDE = lazy_re.compile(rb'^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*include[ \t]*(?:"([^"\r\n]+)"|<([^>\r\n]+)>)', re.M)


def new_name(rel: str) -> str | None:
    """The renamed path of ``rel`` (posix, relative), or None when it keeps its name."""
    for old, new in SUFFIX_RENAMES.items():
        if rel.endswith(old):
            return rel[: -len(old)] + new
    return None


def _suffix_edit(start: int, written: str, old_rel: str, new_rel: str, rule: str) -> Edit | None:
    old_suffix = old_rel[len(posixpath.splitext(old_rel)[0]):]
    new_suffix = SUFFIX_RENAMES.get(old_suffix)
    if new_suffix is None or not written.endswith(old_suffix):
        return None
    cut = len(written.encode("utf-8", "surrogateescape")) - len(old_suffix)
    return Edit(start + cut, start + cut + len(old_suffix), new_suffix.encode(), rule)


def include_edits(data: bytes, rel: str, renames: Mapping[str, str],
                  include_dirs: tuple[str, ...] = ()) -> list[Edit]:
    """Edits that make ``#include`` directives of ``rel`` name renamed files by their new names.

    A directive is resolved as the compiler would: the including file's directory, then the
    tree's include directories and its root.  If it resolves to no file of the tree, a unique
    tree file whose path ends with the written name is taken (``<lib/x.cuh>`` from a
    ``-Iinclude`` the tree does not declare).
    """
    if not renames:
        return []
    here = posixpath.dirname(rel)
    edits: list[Edit] = []
    for m in _INCLUDE.finditer(data):
        group = 1 if m.group(1) is not None else 2
        written = m.group(group).decode("utf-8", "surrogateescape")
        if not written.endswith(tuple(SUFFIX_RENAMES)):
            continue
        target = _resolve(written, here, renames, include_dirs)
        if target is None:
            continue
        edit = _suffix_edit(m.start(group), written, target, renames[target], "rename-include")
        if edit:
            edits.append(edit)
    return edits


def _resolve(written: str, here: str, renames: Mapping[str, str], include_dirs) -> str | None:
    for base in (here, *include_dirs, ""):
        candidate = posixpath.normpath(posixpath.join(base, written))
        if candidate in renames:
            return candidate
    tail = "/" + posixpath.normpath(written).lstrip("./")
    matches = [r for r in renames if ("/" + r).endswith(tail)]
    return matches[0] if len(matches) == 1 else None


def build_file_edits(data: bytes, rel: str, renames: Mapping[str, str]) -> list[Edit]:
    """Edits renaming path words in a CMake file or Makefile that name renamed files.

    A word counts when it is the file's path relative to the build file's directory, optionally
    behind ``${CMAKE_CURRENT_SOURCE_DIR}/``, ``${CMAKE_CURRENT_LIST_DIR}/`` or ``./``.
    """
    if not renames:
        return []
    here = posixpath.dirname(rel)
    written: dict[str, str] = {}
    for old in renames:
        if here and not old.startswith(here + "/"):
            continue
        local = old[len(here) + 1:] if here else old
        written[local] = old
    edits = _pattern_edits(data, renames)
    if not written:
        return edits
    words = "|".join(re.escape(w) for w in sorted(written, key=len, reverse=True))
    prefix = r"(?:\$\{CMAKE_CURRENT_SOURCE_DIR\}/|\$\{CMAKE_CURRENT_LIST_DIR\}/|\./)?"
    pattern = re.compile(rf"(?<![\w./${{}}-]){prefix}({words})(?![\w.-])".encode())
    for m in pattern.finditer(data):
        local = m.group(1).decode("utf-8", "surrogateescape")
        old = written[local]
        edit = _suffix_edit(m.start(1), local, old, renames[old], "rename-build-reference")
        if edit:
            edits.append(edit)
    return edits


# `file(GLOB … *.cu)`, `$(wildcard *.cu)`, `%.o: %.cu`, `$(SRCS:.cu=.o)`: the sources a pattern meant
_SUFFIX_PATTERN = lazy_re.compile(rb"(?<=[*%])\.cuh?(?![\w.])|(?<=:)\.cuh?(?==)|(?<==)\.cuh?(?=\))")


def _pattern_edits(data: bytes, renames: Mapping[str, str]) -> list[Edit]:
    """Patterns over the suffixes --rename-cu renamed name the new ones: a glob still matching
    `*.cu` would leave the renamed sources out of the build, silently (cuda-raytracer's
    `$(wildcard ray*.cu)` then built nothing and make said "Nothing to be done")."""
    renamed = {posixpath.splitext(old)[1] for old in renames}
    edits = []
    for m in _SUFFIX_PATTERN.finditer(data):
        suffix = m.group().decode()
        if suffix in renamed and suffix in SUFFIX_RENAMES:
            edits.append(Edit(m.start(), m.end(), SUFFIX_RENAMES[suffix].encode(), "rename-build-pattern"))
    return edits


def local_renames(rel: str, renames: Mapping[str, str]) -> dict[str, str]:
    """``renames`` as written in the build file ``rel``: paths relative to its directory."""
    here = posixpath.dirname(rel)
    out = {}
    for old, new in renames.items():
        if here and not old.startswith(here + "/"):
            continue
        cut = len(here) + 1 if here else 0
        out[old[cut:]] = new[cut:]
    return out
