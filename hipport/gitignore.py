"""``.gitignore`` matching for ``hipport convert``: which files of a tree belong to the project.

Git's rules, implemented directly (no git needed, so a tarball converts like a checkout):

* blank lines and ``#`` comments are skipped; ``\\#`` and ``\\!`` escape; trailing spaces are
  dropped unless escaped with a backslash;
* ``!pattern`` re-includes what an earlier pattern excluded — but a file inside an excluded
  directory cannot be re-included, because the walk never enters that directory;
* ``pattern/`` matches directories only;
* a pattern with a slash at its start or in its middle is anchored to the directory of the
  ``.gitignore`` holding it; otherwise it matches a name at any depth below that directory;
* ``*`` and ``?`` and ``[...]`` never match ``/``; ``**/`` at the start, ``/**`` at the end and
  ``/**/`` in the middle match any number of directories;
* nested ``.gitignore`` files apply to their own directory and below, and the deepest one that
  has a matching pattern decides (the last matching pattern within a file wins).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern
    negated: bool
    dir_only: bool
    text: str


def _glob_to_regex(glob: str) -> str:
    out: list[str] = []
    i, n = 0, len(glob)
    while i < n:
        c = glob[i]
        if c == "*":
            if glob.startswith("**", i):
                at_start = i == 0 or glob[i - 1] == "/"
                at_end = i + 2 == n
                followed_by_slash = glob.startswith("**/", i)
                if at_start and followed_by_slash:  # "**/" : zero or more directories
                    out.append("(?:.*/)?")
                    i += 3
                    continue
                if at_start and at_end:  # "/**" at the end: everything inside
                    out.append(".*")
                    i += 2
                    continue
                out.append("[^/]*")  # "a**b" behaves like "a*b"
                i += 2
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = i + 1
            if j < n and glob[j] in "!^":
                j += 1
            if j < n and glob[j] == "]":
                j += 1
            while j < n and glob[j] != "]":
                j += 1
            if j >= n:  # no closing bracket: a literal "["
                out.append(re.escape(c))
            else:
                body = glob[i + 1:j]
                negate = body[:1] in ("!", "^")
                if negate:
                    body = body[1:]
                body = body.replace("\\", "\\\\")
                out.append(f"[^/{body}]" if negate else f"(?!/)[{body}]")
                i = j
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(glob[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def parse_line(line: str) -> Pattern | None:
    """One ``.gitignore`` line → a :class:`Pattern` (None for blanks and comments)."""
    line = line.rstrip("\r\n")
    if not line or line.startswith("#"):
        return None
    # trailing spaces are ignored unless escaped
    stripped = line.rstrip(" ")
    if stripped.endswith("\\") and len(stripped) < len(line):
        stripped += " "
    line = stripped
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    elif line.startswith("\\!") or line.startswith("\\#"):
        line = line[1:]
    dir_only = line.endswith("/") and not line.endswith("\\/")
    if dir_only:
        line = line.rstrip("/")
    if not line:
        return None
    anchored = "/" in line
    body = line.lstrip("/") if anchored else line
    regex = _glob_to_regex(body)
    if not anchored:
        regex = "(?:.*/)?" + regex
    return Pattern(re.compile(regex + r"\Z", re.S), negated, dir_only, line)


def parse(text: str) -> list[Pattern]:
    return [p for p in (parse_line(line) for line in text.splitlines()) if p is not None]


def match(patterns: list[Pattern], relpath: str, is_dir: bool) -> bool | None:
    """True (ignored), False (re-included) or None (no pattern matched) for ``relpath``,
    given relative to the directory the patterns belong to."""
    result = None
    for p in patterns:
        if p.dir_only and not is_dir:
            continue
        if p.regex.match(relpath):
            result = not p.negated
    return result


class IgnoreStack:
    """The patterns that apply in one directory: root patterns first, deepest last."""

    def __init__(self, layers: tuple[tuple[str, list[Pattern]], ...] = ()):
        self.layers = layers  # (directory relative to the root, "" for the root; patterns)

    def push(self, reldir: str, patterns: list[Pattern]) -> "IgnoreStack":
        return IgnoreStack(self.layers + ((reldir, patterns),)) if patterns else self

    def ignored(self, relpath: str, is_dir: bool) -> bool:
        for base, patterns in reversed(self.layers):
            if base:
                if not relpath.startswith(base + "/"):
                    continue
                sub = relpath[len(base) + 1:]
            else:
                sub = relpath
            verdict = match(patterns, sub, is_dir)
            if verdict is not None:
                return verdict
        return False


def read_gitignore(directory: Path) -> list[Pattern]:
    path = directory / ".gitignore"
    try:
        text = path.read_bytes().decode("utf-8", "surrogateescape")
    except OSError:
        return []
    return parse(text)
