"""Module-level regular expressions compiled on first use.

Why: the translator's passes hold about 250 patterns, and compiling them all at import was most of
a one-file run's start-up (a pre-commit hook on one file should feel instant), while a typical
file reaches only a fifth of them: most passes stop at a cheap substring test first.  After the
first use the pattern's methods sit in the instance's own dictionary, so a hot loop pays an
ordinary attribute lookup, as with a compiled pattern.
"""

from __future__ import annotations

import re

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner",
            "pattern", "flags", "groups", "groupindex")


class LazyPattern:
    """Stands in for ``re.compile(pattern, flags)`` until an attribute is first asked for."""

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str):
        if name.startswith("__"):  # copy/pickle probing a bare instance: no pattern yet
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def compiled(self) -> re.Pattern:
        """The real pattern (for APIs that insist on a ``re.Pattern``)."""
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = self.__dict__["_compiled"] = re.compile(*self._args)
            for name in _METHODS:
                self.__dict__[name] = getattr(compiled, name)
        return compiled

    def __repr__(self) -> str:
        return f"LazyPattern({self._args[0]!r})"


def compile(pattern: str | bytes, flags: int = 0) -> LazyPattern:  # noqa: A001 - re.compile's name
    return LazyPattern(pattern, flags)
