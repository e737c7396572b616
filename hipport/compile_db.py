"""``-p BUILD_DIR``: the flags a file was compiled with, from ``compile_commands.json``.

Only the flags that inform translation are kept (-D/-U for preprocessor branches, -I/-isystem
and -std for libclang); a file the database does not list gets none.
"""

from __future__ import annotations

import json
import os
import shlex
from functools import lru_cache

_WITH_VALUE = ("-D", "-U", "-I", "-isystem")


@lru_cache(maxsize=4)
def _load(build_dir: str) -> dict[str, tuple[str, ...]]:
    path = os.path.join(build_dir, "compile_commands.json")
    try:
        with open(path, encoding="utf-8") as fh:
            entries = json.load(fh)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read compilation database: {exc}") from None
    table = {}
    for entry in entries if isinstance(entries, list) else []:
        try:
            directory = entry.get("directory", build_dir)
            args = entry.get("arguments") or shlex.split(entry.get("command", ""))
            file = os.path.normpath(os.path.join(directory, entry["file"]))
        except (KeyError, TypeError, AttributeError, ValueError):
            continue
        table[file] = tuple(_relevant(args, directory))
    return table


def _relevant(args: list[str], directory: str):
    it = iter(args[1:])
    for a in it:
        for flag in _WITH_VALUE:
            if a == flag:
                value = next(it, "")
                yield from _normalise(flag, value, directory)
                break
            if a.startswith(flag) and len(a) > len(flag):
                yield from _normalise(flag, a[len(flag):], directory)
                break
        else:
            if a.startswith("-std="):
                yield a


def _normalise(flag: str, value: str, directory: str):
    if flag in ("-I", "-isystem") and not os.path.isabs(value):
        value = os.path.normpath(os.path.join(directory, value))
    yield (flag + value) if flag in ("-D", "-U", "-I") else flag
    if flag == "-isystem":
        yield value


def flags_for(build_dir: str, source: str) -> tuple[str, ...]:
    return _load(os.path.abspath(build_dir)).get(os.path.normpath(os.path.abspath(source)), ())
