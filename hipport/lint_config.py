"""``[tool.hipport.lint]`` in the nearest ``pyproject.toml``, as ruff reads ``[tool.ruff]``.

Example::

    [tool.hipport.lint]
    policy = "exclude-rocm"              # default --fix policy for HV001
    select = ["HV"]                      # code prefixes to report (default: all)
    ignore = ["HV004"]
    exclude = ["third_party/**", "*.pb.h"]
    rocm_guards = ["GGML_USE_HIP"]       # added to USE_ROCM, __HIP_PLATFORM_AMD__, ...
    cuda_guards = ["GGML_USE_CUDA"]      # macros defined only on CUDA builds
    fix_guard = "USE_ROCM"               # the macro the fixes test
    [tool.hipport.lint.per-path-policy]
    "legacy/**" = "include-rocm"
    [tool.hipport.lint.per-file-ignores]
    "tests/**" = ["HV002"]

Keys may use ``-`` or ``_``.  Unknown keys are kept in :attr:`LintConfig.extra` so other front
ends (the torch rules read ``python`` options there) share the table.  Globs are matched
against paths relative to the directory holding the pyproject.toml (``**`` spans folders).
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

SECTION = ("tool", "hipport", "lint")


class ConfigError(ValueError):
    """The configuration is invalid; the message names the file."""


@dataclass(frozen=True)
class LintConfig:
    policy: str = "exclude-rocm"
    per_path_policy: tuple[tuple[str, str], ...] = ()
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    rocm_guards: tuple[str, ...] = ()
    cuda_guards: tuple[str, ...] = ()
    cuda_version_macros: tuple[str, ...] = ()
    fix_guard: str = "USE_ROCM"
    rocm_version_macro: str = "ROCM_VERSION"
    root: str = ""  # directory the globs are relative to ("" = current directory)
    source: str = ""  # the pyproject.toml read, if any
    extra: dict = field(default_factory=dict, hash=False, compare=False)

    # ------------------------------------------------------------ queries
    def relative(self, path: str) -> str:
        base = self.root or os.getcwd()
        try:
            rel = os.path.relpath(os.path.abspath(path), base)
        except ValueError:  # other drive on Windows
            rel = path
        return rel.replace(os.sep, "/")

    def is_excluded(self, path: str) -> bool:
        rel = self.relative(path)
        return any(_glob_match(rel, pattern) for pattern in self.exclude)

    def policy_for(self, path: str) -> str:
        rel = self.relative(path)
        for pattern, policy in self.per_path_policy:
            if _glob_match(rel, pattern):
                return policy
        return self.policy

    def enabled(self, code: str, path: str = "") -> bool:
        """Whether *code* is reported: select/ignore work on prefixes ("HV", "HV00", "HV001", "ALL")."""
        if code == "HP000":
            return True
        if self.select and not any(_prefix(code, s) for s in self.select):
            return False
        ignored = list(self.ignore)
        if path and self.per_file_ignores:
            rel = self.relative(path)
            for pattern, codes in self.per_file_ignores:
                if _glob_match(rel, pattern):
                    ignored.extend(codes)
        return not any(_prefix(code, s) for s in ignored)

    def with_overrides(self, **changes) -> "LintConfig":
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _prefix(code: str, selector: str) -> bool:
    selector = selector.strip().upper()
    return selector == "ALL" or code.upper().startswith(selector)


@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern:
    pattern = pattern.replace(os.sep, "/")
    if pattern.startswith("./"):
        pattern = pattern[2:]
    parts = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            parts.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            parts.append(".*")
            i += 2
        else:
            j = i
            while j < len(pattern) and not pattern.startswith("**", j):
                j += 1
            chunk = fnmatch.translate(pattern[i:j])
            # fnmatch.translate gives "(?s:...)\\Z"; keep the body, and let "*" stop at "/"
            body = chunk[4:-3] if chunk.startswith("(?s:") else chunk
            parts.append(body.replace(".*", "[^/]*"))
            i = j
    return re.compile("(?s:" + "".join(parts) + r")\Z")


def _glob_match(rel: str, pattern: str) -> bool:
    """Glob match in the style of gitignore/ruff: a pattern without "/" matches a name at any
    depth; "**" spans folders; a folder pattern also matches everything below it."""
    if "/" not in pattern.rstrip("/"):
        names = rel.split("/")
        pat = pattern.rstrip("/")
        return any(_glob_regex(pat).match(name) for name in names)
    regex = _glob_regex(pattern.rstrip("/"))
    parts = rel.split("/")
    return any(regex.match("/".join(parts[:k])) for k in range(1, len(parts) + 1))


def _norm(key: str) -> str:
    return key.replace("-", "_")


def _strings(value, key: str, source: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{source}: [tool.hipport.lint] {key} must be a list of strings")
    return tuple(value)


def from_table(table: dict, *, root: str = "", source: str = "<config>") -> LintConfig:
    """Build a LintConfig from the ``[tool.hipport.lint]`` table (validates the policies)."""
    from hipport.version_macros.fixes import parse_policy

    values: dict = {}
    extra: dict = {}
    for key, value in table.items():
        k = _norm(key)
        if k in ("select", "ignore", "exclude", "rocm_guards", "cuda_guards", "cuda_version_macros",
                 "extend_exclude"):
            values.setdefault("exclude" if k == "extend_exclude" else k, ())
            values["exclude" if k == "extend_exclude" else k] += _strings(value, key, source)
        elif k in ("policy", "fix_guard", "rocm_version_macro"):
            if not isinstance(value, str):
                raise ConfigError(f"{source}: [tool.hipport.lint] {key} must be a string")
            values[k] = value
        elif k in ("per_path_policy", "per_path_policies"):
            if not isinstance(value, dict):
                raise ConfigError(f"{source}: [tool.hipport.lint] {key} must be a table of glob = policy")
            values["per_path_policy"] = tuple((str(g), str(p)) for g, p in value.items())
        elif k == "per_file_ignores":
            if not isinstance(value, dict):
                raise ConfigError(f"{source}: [tool.hipport.lint] {key} must be a table of glob = [codes]")
            values["per_file_ignores"] = tuple((str(g), _strings(c, key, source)) for g, c in value.items())
        else:
            extra[key] = value
    for policy in [values.get("policy", "exclude-rocm"), *(p for _, p in values.get("per_path_policy", ()))]:
        try:
            parse_policy(policy)
        except ValueError as exc:
            raise ConfigError(f"{source}: {exc}") from None
    return LintConfig(**values, root=root, source=source, extra=extra)


def find_pyproject(start: str | os.PathLike) -> Path | None:
    """The nearest pyproject.toml at or above *start* that has a [tool.hipport.lint] table."""
    try:
        here = Path(start).resolve()
        if not here.is_dir():
            here = here.parent
    except (OSError, RuntimeError):  # a symlink loop, an unreadable folder: the path's own error comes later
        here = Path(os.path.abspath(start)).parent
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        try:
            if candidate.is_file() and b"hipport" in candidate.read_bytes():
                if _table(str(candidate)) is not None:
                    return candidate
        except OSError:
            continue
    return None


def _table(path: str) -> dict | None:
    st = os.stat(path)
    return _table_cached(path, st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=32)
def _table_cached(path: str, mtime_ns: int, size: int) -> dict | None:
    """Parsed table, cached per file version (a tree run asks once per folder)."""
    try:
        import tomllib
    except ImportError:  # Python 3.10: the tomli backport (a dependency there)
        import tomli as tomllib

    try:
        with open(path, "rb") as fh:
            doc = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from None
    table = doc
    for key in SECTION:
        table = table.get(key) if isinstance(table, dict) else None
        if table is None:
            return None
    return table


def load_config(start: str | os.PathLike = ".") -> LintConfig:
    """The configuration that applies to *start* (a file or folder); defaults when none."""
    found = find_pyproject(start)
    if found is None:
        return LintConfig()
    return from_table(_table(str(found)), root=str(found.parent), source=str(found))
