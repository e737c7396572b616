"""CUDA→HIP mapping tables, kept as data (one TOML file per API family) and loaded once.

File format (``hipport/rules/<family>.toml``)::

    [meta]
    family = "runtime"          # API family, used for statistics and support tables
    library = "cudart"          # the CUDA library the names belong to (link line, stats)
    hip_library = "amdhip64"    # what the translated code links against instead
    kind = "function"           # default kind for entries of this file (optional)

    [rules]
    cudaMalloc = { hip = "hipMalloc", hip_added = "1.5.0" }
    cudaGraphExecNodeSetParams = { hip = "hipGraphExecNodeSetParams", status = "unsupported" }

Entry fields: ``hip`` (target name; empty when HIP has none), ``roc`` (target with ``--roc``),
``miopen`` (target with ``--miopen``), ``kind``, ``status``, ``cuda_added``, ``cuda_deprecated``,
``cuda_removed``, ``hip_added``, ``note`` (why a mapping differs from an oracle, or the closest
alternative for an unsupported name), ``hip_type`` (the HIP data type used with
``--use-hip-data-types``), ``include`` (a header the translated file must include when it uses
the name, e.g. ``hipport/compat.h`` for warp intrinsics older HIP releases lack).

Parsing thousands of TOML entries costs tens of milliseconds, which would dominate a one-file
pre-commit run, so the compiled tables are cached with :mod:`marshal`, keyed by the files' sizes
and modification times.
"""

from __future__ import annotations

import marshal
import os
import sys
from pathlib import Path

RULES_DIR = Path(__file__).resolve().parent

KINDS = frozenset(
    {"function", "type", "enumerator", "macro", "device_function", "header", "namespace"}
)
STATUSES = frozenset({"supported", "unsupported", "deprecated", "experimental", "removed"})
FIELDS = frozenset(
    {
        "hip", "roc", "miopen", "kind", "status", "cuda_added", "cuda_deprecated",
        "cuda_removed", "hip_added", "note", "hip_type", "include",
    }
)
_CACHE_VERSION = 8
#: how many leading characters of a name the lexical sweep matches candidates on
PREFIX_LENGTH = 4


class RuleError(ValueError):
    """A rules file is malformed; the message names the file and the entry."""


_RULE_FIELDS = (
    "cuda", "hip", "roc", "miopen", "kind", "status", "family", "library", "hip_library",
    "cuda_added", "cuda_deprecated", "cuda_removed", "hip_added", "note", "hip_type", "include",
)


class Rule(tuple):
    """One CUDA name and what it becomes.

    A tuple underneath: the ~19,000 rules are rebuilt from the marshal cache on every run, and
    ``tuple.__new__`` per row costs a fraction of setting sixteen slots in ``__init__``.
    """

    __slots__ = ()
    _fields = _RULE_FIELDS

    def __new__(cls, *values):
        if len(values) != len(_RULE_FIELDS):
            raise TypeError(f"Rule takes {len(_RULE_FIELDS)} values, got {len(values)}")
        return tuple.__new__(cls, values)

    def as_tuple(self) -> tuple:
        return tuple(self)

    def target(self, roc: bool = False, miopen: bool = False) -> str:
        """The replacement name under the given target options ('' when there is none)."""
        if miopen and self[3]:
            return self[3]
        if roc and self[2]:
            return self[2]
        return self[1]

    def __repr__(self) -> str:
        return f"Rule({self.cuda!r} -> {self.hip!r}, {self.kind}, {self.status})"


for _index, _name in enumerate(_RULE_FIELDS):
    setattr(Rule, _name, property(__import__("operator").itemgetter(_index), doc=f"the rule's {_name}"))
del _index, _name


#: joins a rule's fields in the cache: one string a rule loads several times faster than a tuple
_FIELD_SEP = "\x1f"


class _RuleIndex(dict):
    """CUDA name -> Rule, holding the cache's plain rows until a name is looked up: a one-file
    run asks about a few dozen of the 12,000 names, so building every Rule would be wasted."""

    __slots__ = ()

    def get(self, name, default=None):
        row = dict.get(self, name)
        if row is None:
            return default
        if type(row) is str:  # the cache's row: the fields joined by _FIELD_SEP
            row = tuple.__new__(Rule, row.split(_FIELD_SEP))
            dict.__setitem__(self, name, row)
        return row

    def __getitem__(self, name):
        rule = self.get(name)
        if rule is None:
            raise KeyError(name)
        return rule

    def values(self):
        return [self[name] for name in self]

    def items(self):
        return [(name, self[name]) for name in self]


class RuleSet:
    """All rules, indexed by CUDA name (identifiers) and by header path."""

    def __init__(self, rules: list[Rule] | None = None, *, index: tuple[dict, dict, list] | None = None):
        if index is not None:  # (identifier rows, header rows, name prefixes) from the cache
            names, headers, self._prefixes = index
            self.by_name: dict[str, Rule] = _RuleIndex(names)
            self.headers: dict[str, Rule] = _RuleIndex(headers)
            self._rules = None
            return
        self._rules = rules
        self.by_name = {}
        self.headers = {}
        for rule in rules:
            (self.headers if rule.kind == "header" else self.by_name)[rule.cuda] = rule
        self._prefixes = None

    @property
    def rules(self) -> list[Rule]:
        if self._rules is None:
            self._rules = self.by_name.values() + self.headers.values()
        return self._rules

    @property
    def name_prefixes(self) -> frozenset[str]:
        """The first PREFIX_LENGTH characters of every identifier rule (whole names shorter than that)."""
        if self._prefixes is None:
            self._prefixes = _name_prefixes(self.by_name)
        return frozenset(self._prefixes)

    def get(self, name: str) -> Rule | None:
        return self.by_name.get(name)

    def families(self) -> list[str]:
        return sorted({r.family for r in self.rules})

    def __len__(self) -> int:
        return len(self.by_name) + len(self.headers)


def _name_prefixes(names) -> list[str]:
    """What every known name starting with the same four characters shares: three would let the
    keywords `int` and `double` (from `int2double`, `double2int`) through as candidates, and four
    alone every `blockIdx` (for `block_tile_memory`, the one rule that starts so) — a sixth of all
    identifiers, each a regex match and a lookup for nothing."""
    return sorted(common_prefixes(names).values())


def common_prefixes(names, into: dict[str, str] | None = None) -> dict[str, str]:
    """{first PREFIX_LENGTH characters: the longest prefix every such name shares}, *into* extended."""
    shared = {} if into is None else into
    for name in names:
        key = name[:PREFIX_LENGTH]
        have = shared.get(key)
        if have is None:
            shared[key] = name
        elif not name.startswith(have):
            shared[key] = os.path.commonprefix((have, name))
    return shared


def rule_files(directory: Path = RULES_DIR) -> list[Path]:
    return sorted(directory.glob("*.toml"))


def read_toml(path: Path) -> dict:
    """A rules file's tables; a file that is not valid UTF-8 TOML is a RuleError naming it."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RuleError(f"{path}: invalid TOML: {exc}") from None


def _parse_file(path: Path) -> list[Rule]:
    data = read_toml(path)
    meta = data.get("meta", {})
    family = meta.get("family") or path.stem
    library = meta.get("library", "")
    hip_library = meta.get("hip_library", "")
    default_kind = meta.get("kind", "function")
    entries = data.get("rules", {})
    unknown_tables = set(data) - {"meta", "rules"}
    if unknown_tables:
        raise RuleError(f"{path}: unknown table(s) {sorted(unknown_tables)}; expected [meta] and [rules]")
    rules = []
    for name, entry in entries.items():
        where = f"{path}: rule {name!r}"
        if not isinstance(entry, dict):
            raise RuleError(f"{where}: expected an inline table, got {type(entry).__name__}")
        extra = set(entry) - FIELDS
        if extra:
            raise RuleError(f"{where}: unknown field(s) {sorted(extra)}")
        kind = entry.get("kind", default_kind)
        status = entry.get("status", "supported")
        if kind not in KINDS:
            raise RuleError(f"{where}: unknown kind {kind!r} (one of {sorted(KINDS)})")
        if status not in STATUSES:
            raise RuleError(f"{where}: unknown status {status!r} (one of {sorted(STATUSES)})")
        hip = entry.get("hip", "")
        if status in ("supported", "deprecated", "experimental") and not hip:
            raise RuleError(f"{where}: status {status!r} needs a 'hip' name")
        for key, value in entry.items():
            if not isinstance(value, str) or _FIELD_SEP in value:
                raise RuleError(f"{where}: field {key!r} must be a string (without control characters)")
        rules.append(
            Rule(
                name, hip, entry.get("roc", ""), entry.get("miopen", ""), kind, status, family,
                library, hip_library, entry.get("cuda_added", ""), entry.get("cuda_deprecated", ""),
                entry.get("cuda_removed", ""), entry.get("hip_added", ""), entry.get("note", ""),
                entry.get("hip_type", ""), entry.get("include", ""),
            )
        )
    return rules


def _cache_path(files: list[Path]) -> Path:
    import zlib

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    parts = [str(_CACHE_VERSION), str(RULES_DIR)]
    for f in files:
        st = f.stat()
        parts.append(f"{f.name}:{st.st_size}:{st.st_mtime_ns}")
    return Path(base) / "hipport" / f"rules-{zlib.crc32(chr(0).join(parts).encode()):08x}.marshal"


def load_rules(directory: Path | None = None, *, use_cache: bool = True) -> RuleSet:
    """Parse every rules file of *directory* and check that no CUDA name is defined twice."""
    files = rule_files(directory or RULES_DIR)
    cache = _cache_path(files) if use_cache and directory is None else None
    if cache is not None:
        try:
            names, headers, prefixes = marshal.loads(cache.read_bytes())
            return RuleSet(index=(names, headers, prefixes))
        except (OSError, ValueError, EOFError, TypeError):
            pass
    rules: list[Rule] = []
    seen: dict[tuple[str, bool], Path] = {}
    for path in files:
        for rule in _parse_file(path):
            key = (rule.cuda, rule.kind == "header")
            if key in seen:
                raise RuleError(f"{path}: rule {rule.cuda!r} is already defined in {seen[key].name}")
            seen[key] = path
            rules.append(rule)
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_suffix(f".{os.getpid()}.tmp")
            ruleset = RuleSet(rules)
            tmp.write_bytes(marshal.dumps((
                {r.cuda: _FIELD_SEP.join(r) for r in ruleset.by_name.values()},
                {r.cuda: _FIELD_SEP.join(r) for r in ruleset.headers.values()},
                _name_prefixes(ruleset.by_name))))
            os.replace(tmp, cache)
            for stale in cache.parent.glob("rules-*.marshal"):
                if stale != cache:
                    stale.unlink(missing_ok=True)
        except OSError:
            pass
    return RuleSet(rules)


_DEFAULT: RuleSet | None = None


def default_rules() -> RuleSet:
    """The bundled rules, loaded once per process."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_rules()
    return _DEFAULT
