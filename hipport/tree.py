"""``convert_tree``: port a whole source tree — walk, classify, translate in parallel, cache, report.

The walk honours ``.gitignore`` files and exclude globs (:mod:`hipport.gitignore`), never
follows a symlink (a link to a place inside SRC is recreated as a relative link in DST; one
leading out of SRC, a dangling one and a loop are skipped and reported), and never writes
outside DST: every destination is checked against DST's real path just before writing, so a
symlink planted in DST cannot redirect a write either.

Each file is handled by kind: C/C++/CUDA/HIP sources and headers go through the C++ translator,
Python files through the torch rules, CMake files and Makefiles through :mod:`hipport.build`;
anything else is copied byte for byte with its mode bits.  A file that cannot be read is
reported and skipped, and the run continues.  Files are independent (translation is per file),
so every file — a header included by a hundred sources too — is translated exactly once, across
processes.  The library never prints; the CLI renders the :class:`TreeReport`.
"""

from __future__ import annotations

import os
import posixpath
import re
import shutil
import stat
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from hipport.build import build_file_kind
from hipport.cxx.context import Stats
from hipport.diagnostics import ERROR, Diagnostic, register
from hipport.options import Options
from hipport import lazy_re

register("HC001", "file could not be read or written; skipped", ERROR)
register("HC002", "symbolic link leads outside the source tree; skipped")
register("HC003", "symbolic link is dangling or loops; skipped")
register("HC004", "special file (device, FIFO, socket) skipped")
register("HC006", "file not renamed: its new name already exists in the tree")

CXX_SUFFIXES = frozenset({".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".hxx", ".inl",
                          ".hip", ".ipp", ".tpp"})
PYTHON_SUFFIXES = frozenset({".py", ".pyi"})
# Diagnostics about names HIP lacks (the porting work "unsupported"); other warnings are hazards.
UNSUPPORTED_CODES = frozenset({"HP001", "HP002", "HP005", "HB001", "HB004"})
PARALLEL_THRESHOLD = 24


def classify(rel: str) -> str:
    """``cxx``, ``python``, ``cmake``, ``makefile`` or ``copy`` for a path (by name only)."""
    name = posixpath.basename(rel)
    suffix = posixpath.splitext(name)[1].lower()
    build = build_file_kind(name)  # (`Makefile.cuda`, `Makefile_gpu`, `rules.mk`: a project's other makefiles too)
    if build is not None:
        return build
    if suffix in PYTHON_SUFFIXES:
        return "python"
    if suffix in CXX_SUFFIXES:
        return "cxx"
    return "copy"


@dataclass
class FileResult:
    """What happened to one file of the tree."""

    path: str  # relative to SRC, '/'-separated
    kind: str  # cxx | python | cmake | makefile | copy | symlink | special
    status: str  # translated | unchanged | copied | linked | cached | skipped | error
    output: str | None = None  # relative to DST
    converted: int = 0
    unsupported: int = 0
    hazards: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: dict | None = None
    error: str | None = None
    needs_runtime: bool = False  # the output includes <hipport/...> (or a header hipport backs: <hip/hip_bf16.h>, <hip/hip_fp8.h>, <hip/hip_math_constants.h>, <roctracer/roctx.h>): build with hipport's include dir

    def to_dict(self) -> dict:
        data = asdict(self)
        data["diagnostics"] = [d.to_dict() for d in self.diagnostics]
        return data


@dataclass
class TreeReport:
    """The result of :func:`convert_tree`; ``to_dict()`` is the JSON report."""

    src: str
    dst: str
    inplace: bool = False
    files: list[FileResult] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    errors: list[str] = field(default_factory=list)  # one line each, naming the file
    ignored: int = 0  # entries left out by .gitignore / exclude globs
    seconds: float = 0.0
    jobs: int = 1
    verify: list[Diagnostic] | None = None  # --verify: what still fails to compile

    @property
    def runtime_users(self) -> list[str]:
        """Files whose translation includes hipport's runtime headers (``-I`` hipport.runtime.include_dir())."""
        return [f.path for f in self.files if f.needs_runtime]

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for f in self.files for d in f.diagnostics]

    def count(self, status: str) -> int:
        return sum(1 for f in self.files if f.status == status)

    @property
    def totals(self) -> dict:
        return {
            "files": len(self.files),
            "translated": sum(1 for f in self.files if f.kind in ("cxx", "python", "cmake", "makefile")
                              and f.status in ("translated", "unchanged", "cached")),
            "changed": sum(1 for f in self.files if f.stats and f.stats.get("changed_files")),
            "copied": self.count("copied"),
            "linked": self.count("linked"),
            "cached": self.count("cached"),
            "skipped": self.count("skipped"),
            "errors": self.count("error"),
            "ignored": self.ignored,
            "converted": sum(f.converted for f in self.files),
            "unsupported": sum(f.unsupported for f in self.files),
            "hazards": sum(f.hazards for f in self.files),
            "verify_errors": len(self.verify) if self.verify is not None else None,
            "seconds": round(self.seconds, 3),
            "bytes": self.stats.bytes,
        }

    def coverage(self) -> list[dict]:
        """Per API family: references converted and left unsupported, and the fraction done."""
        return library_coverage(self.stats)

    def to_dict(self) -> dict:
        from hipport import __version__

        return {
            "hipport": __version__,
            "src": self.src,
            "dst": self.dst,
            "inplace": self.inplace,
            "totals": self.totals,
            "coverage": self.coverage(),
            "stats": self.stats.to_dict(),
            "errors": list(self.errors),
            "files": [f.to_dict() for f in self.files],
            "verify": [d.to_dict() for d in self.verify] if self.verify is not None else None,
            "runtime_include_dir": _runtime_include_dir() if self.runtime_users else None,
        }


def _runtime_include_dir() -> str:
    from hipport.runtime import include_dir

    return str(include_dir())


def library_coverage(stats: Stats) -> list[dict]:
    converted: Counter = Counter()
    for key, n in stats.converted.items():
        converted[key.partition("/")[0]] += n
    unsupported: Counter = Counter()
    if stats.unsupported:
        from hipport.rules import default_rules

        rules = default_rules()
        for name, n in stats.unsupported.items():
            rule = rules.get(name) or rules.headers.get(name)
            unsupported[rule.family if rule else "other"] += n
    rows = []
    for family in sorted(set(converted) | set(unsupported)):
        c, u = converted[family], unsupported[family]
        rows.append({"library": family, "converted": c, "unsupported": u,
                     "coverage": round(c / (c + u), 4) if c + u else 1.0})
    return rows


def stats_from_dict(d: dict) -> Stats:
    return Stats(converted=Counter(d.get("converted", {})), names=Counter(d.get("names", {})),
                 unsupported=Counter(d.get("unsupported", {})), libraries=set(d.get("libraries", ())),
                 files=d.get("files", 0), lines=d.get("lines", 0), bytes=d.get("bytes", 0),
                 changed_files=d.get("changed_files", 0), seconds=d.get("seconds", 0.0))


# ---------------------------------------------------------------------------------- the walk

@dataclass
class _Entry:
    rel: str
    kind: str  # classify() result, or "symlink" / "special"


def _mark_cuda_language_sources(src: Path, entries: list[_Entry]) -> None:
    """Files a CMake file of the tree compiles with ``LANGUAGE CUDA`` (``main.notcu``, ``kernels.inc``)
    are translated as C++/CUDA sources, not copied, whatever their extension."""
    copies = {e.rel: e for e in entries if e.kind == "copy"}
    if not copies:
        return
    from hipport.build.cmake import cuda_language_sources

    for entry in entries:
        if entry.kind != "cmake":
            continue
        try:
            data = (src / entry.rel).read_bytes()
        except OSError:
            continue  # reported when the file itself is processed
        base = posixpath.dirname(entry.rel)
        for name in cuda_language_sources(data):
            rel = posixpath.normpath(posixpath.join(base, name)) if not posixpath.isabs(name) else None
            if rel in copies:
                copies[rel].kind = "cxx"


_QUOTED_INCLUDE = lazy_re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)


def _maybe_source(rel: str) -> bool:
    """A name a C++ project may give an included source: `.cu_inl`, `.inc`, `.tcc`, `.txx`, `.icc`."""
    suffix = posixpath.splitext(rel)[1].lower()
    return suffix.startswith(".cu") or suffix in (".inc", ".tcc", ".txx", ".icc", ".ixx", ".impl") or "inl" in suffix


def _mark_included_sources(src: Path, entries: list[_Entry]) -> None:
    """Files a C/C++/CUDA source of the tree includes (`#include "exclusiveScan.cu_inl"`, CS149's
    starter code) are translated with it, whatever their extension."""
    copies = {e.rel: e for e in entries if e.kind == "copy" and _maybe_source(e.rel)}
    if not copies:
        return
    pending = [e for e in entries if e.kind == "cxx"]
    while pending:
        entry = pending.pop()
        try:
            data = (src / entry.rel).read_bytes()
        except OSError:
            continue  # reported when the file itself is processed
        base = posixpath.dirname(entry.rel)
        for m in _QUOTED_INCLUDE.finditer(data):
            rel = posixpath.normpath(posixpath.join(base, m.group(1).decode("utf-8", "replace")))
            included = copies.pop(rel, None)
            if included is not None:
                included.kind = "cxx"
                pending.append(included)  # what it includes in turn


def _walk(src: Path, excludes, skip_rel: str | None) -> tuple[list[_Entry], int]:
    from hipport.gitignore import IgnoreStack, read_gitignore
    from hipport.tree_cache import CACHE_NAME

    entries: list[_Entry] = []
    ignored = 0
    stack = [("", IgnoreStack().push("", read_gitignore(src)))]
    while stack:
        reldir, rules = stack.pop()
        directory = src / reldir if reldir else src
        try:
            with os.scandir(directory) as it:
                children = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            entries.append(_Entry(reldir or ".", f"unreadable-dir:{exc.strerror or exc}"))
            continue
        subdirs = []
        for child in children:
            rel = f"{reldir}/{child.name}" if reldir else child.name
            try:
                is_link = child.is_symlink()
                is_dir = not is_link and child.is_dir(follow_symlinks=False)
                is_file = not is_link and child.is_file(follow_symlinks=False)
            except OSError:
                is_link = is_dir = is_file = False
            if is_dir and child.name == ".git" or not reldir and child.name == CACHE_NAME:
                continue  # (the cache of a conversion into this tree: its output's, not a source)
            if rel == skip_rel or rules.ignored(rel, is_dir) or excludes.ignored(rel, is_dir):
                ignored += 1
                continue
            if is_link:
                entries.append(_Entry(rel, "symlink"))
            elif is_dir:
                subdirs.append(rel)
            elif is_file:
                entries.append(_Entry(rel, classify(rel)))
            else:
                entries.append(_Entry(rel, "special"))
        for rel in reversed(subdirs):
            stack.append((rel, rules.push(rel, read_gitignore(src / rel))))
    entries.sort(key=lambda e: e.rel)
    return entries, ignored


def _exclude_stack(exclude: Iterable[str]):
    from hipport.gitignore import IgnoreStack, parse_line

    patterns = [p for p in (parse_line(g) for g in exclude) if p is not None]
    return IgnoreStack().push("", patterns)


def _is_within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _check_roots(src: Path, dst: Path, inplace: bool, excludes) -> str | None:
    """Validate SRC/DST; returns DST relative to SRC when it lies inside it (excluded)."""
    if not src.is_dir():
        raise NotADirectoryError(f"{src}: not a directory")
    if inplace:
        return None
    s, d = str(src), str(dst)
    if s == d:
        raise ValueError(f"{dst}: destination is the source tree; use inplace=True (--inplace)")
    if _is_within(s, d):
        raise ValueError(f"{dst}: destination contains the source tree {src}")
    if not _is_within(d, s):
        return None
    from hipport.gitignore import IgnoreStack, read_gitignore

    rel = Path(os.path.relpath(d, s)).as_posix()
    rules = IgnoreStack().push("", read_gitignore(src))
    parts = rel.split("/")
    for i in range(len(parts)):
        prefix = "/".join(parts[: i + 1])
        if rules.ignored(prefix, True) or excludes.ignored(prefix, True):
            return rel
        rules = rules.push(prefix, read_gitignore(src / prefix))
    raise ValueError(f"{dst}: destination is inside the source tree; exclude it "
                     f"(--exclude {rel}/ or .gitignore) or choose another directory")


# ---------------------------------------------------------------------------------- writing

class _Writer:
    """Every write of a run goes through here; it refuses any path whose real parent is outside DST."""

    def __init__(self, dst: Path):
        self.root = dst
        self.real = os.path.realpath(dst)

    def _prepare(self, rel: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not _is_within(os.path.realpath(path.parent), self.real):
            raise PermissionError(f"{path}: refusing to write outside {self.root} (symlinked directory)")
        if path.is_symlink() or (path.exists() and not path.is_file()):
            if path.is_dir() and not path.is_symlink():
                raise IsADirectoryError(f"{path}: a directory is in the way")
            path.unlink()
        return path

    def write(self, rel: str, data: bytes, mode: int, backup: bool = False) -> int:
        from hipport.fileio import write_atomic

        path = self._prepare(rel)
        write_atomic(path, data, backup_suffix=".prehip" if backup else None)
        os.chmod(path, mode)
        return len(data)

    def copy(self, src: Path, rel: str, mode: int) -> int:
        path = self._prepare(rel)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.close(fd)
        try:
            shutil.copyfile(src, tmp)
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        return os.lstat(path).st_size

    def symlink(self, rel: str, target: str) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not _is_within(os.path.realpath(path.parent), self.real):
            raise PermissionError(f"{path}: refusing to write outside {self.root} (symlinked directory)")
        if path.is_symlink():
            if os.readlink(path) == target:
                return
            path.unlink()
        elif path.exists():
            if path.is_dir():
                raise IsADirectoryError(f"{path}: a directory is in the way")
            path.unlink()
        os.symlink(target, path)


# ---------------------------------------------------------------------------------- per file

@dataclass(frozen=True)
class _Job:
    rel: str
    kind: str
    out: str
    mode: int
    display: str  # the path diagnostics name (SRC as given + rel)


@dataclass(frozen=True)
class _Shared:
    src: str
    dst: str
    options: Options
    renames: dict
    offload_arch: tuple[str, ...] | None
    inplace: bool
    backup: bool


def _translate(job: _Job, data: bytes, shared: _Shared) -> tuple[bytes, list[Diagnostic], Stats]:
    from hipport.edits import apply_edits

    if job.kind in ("cxx", "python"):
        from hipport import _translate_bytes

        result = _translate_bytes(data, job.display, shared.options)
        out, diags, stats = result.data, result.diagnostics, result.stats
        if job.kind == "cxx" and shared.renames:
            from hipport.tree_renames import include_edits

            inc_dirs = tuple(_rel_include_dirs(shared))
            edits = include_edits(out, job.rel, shared.renames, inc_dirs)
            if edits:
                out = apply_edits(out, edits)
        return out, diags, stats
    stats = Stats(files=1, bytes=len(data), lines=data.count(b"\n"))
    started = time.perf_counter()
    if shared.renames:
        from hipport.tree_renames import build_file_edits

        edits = build_file_edits(data, job.rel, shared.renames)
        renamed = apply_edits(data, edits) if edits else data
    else:
        renamed = data
    if job.kind == "cmake":
        from hipport.build.cmake import convert_cmake
        from hipport.tree_renames import local_renames

        out, diags = convert_cmake(renamed, job.display, offload_arch=shared.offload_arch,
                                   renames=local_renames(job.rel, shared.renames))
    else:
        from hipport.build.makefile import convert_makefile

        out, diags = convert_makefile(renamed, job.display, offload_arch=shared.offload_arch)
    stats.changed_files = int(out != data)
    stats.seconds = time.perf_counter() - started
    return out, diags, stats


def _rel_include_dirs(shared: _Shared) -> Iterable[str]:
    """``-I`` directories inside SRC, relative to it (a relative ``-I`` may mean the current
    directory, as for the compiler, or SRC, as in a build file: both are tried)."""
    seen = set()
    for d in shared.options.include_dirs:
        for p in (os.path.realpath(d), os.path.realpath(os.path.join(shared.src, d))):
            if _is_within(p, shared.src) and p not in seen:
                seen.add(p)
                yield Path(os.path.relpath(p, shared.src)).as_posix()


def _process(job: _Job, shared: _Shared) -> dict:
    """Translate one file and write its output; returns a plain dict (cheap to pickle and cache)."""
    from hipport.fileio import InputError, read_source

    src_path = Path(shared.src) / job.rel
    record = {"path": job.rel, "kind": job.kind, "output": job.out, "status": "error"}
    try:
        st = os.lstat(src_path)
        data = read_source(src_path)
        out, diags, stats = _translate(job, data, shared)
        writer = _Writer(Path(shared.dst))
        if shared.inplace:
            if out != data or job.out != job.rel:
                writer.write(job.out, out, job.mode, backup=shared.backup and job.out == job.rel)
                if job.out != job.rel:
                    if shared.backup:
                        os.replace(src_path, str(src_path) + ".prehip")
                    else:
                        os.unlink(src_path)
            out_size = len(out)
        else:
            out_size = writer.write(job.out, out, job.mode)
        record.update(status="translated" if out != data else "unchanged",
                      needs_runtime=bool(_RUNTIME_INCLUDE.search(out)),
                      diagnostics=[asdict(d) for d in diags], stats=stats.to_dict(),
                      hash=_hash(data), size=st.st_size, mtime_ns=st.st_mtime_ns, out_size=out_size)
    except InputError as exc:
        record["error"] = str(exc)
    except RecursionError:
        record["error"] = f"{job.display}: input too deeply nested to translate"
    except OSError as exc:
        record["error"] = f"{job.display}: {exc.strerror or exc}" if exc.strerror else f"{exc}"
    except Exception as exc:  # a translator bug must not end the run: report it against the file
        record["error"] = f"{job.display}: internal error while translating: {type(exc).__name__}: {exc}"
    return record


_RUNTIME_INCLUDE = lazy_re.compile(rb'^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*include[ \t]*[<"](?:hipport/|hip/hip_bf16\.h|hip/hip_math_constants\.h|hip/hip_fp8\.h|hip/cooperative_groups/|roctracer/roctx\.h)', re.M)  # hipport's own, or its fallbacks


def _process_batch(batch: list[_Job], shared: _Shared) -> list[dict]:
    return [_process(job, shared) for job in batch]


def _hash(data: bytes) -> str:
    from hipport.tree_cache import file_hash

    return file_hash(data)


def _file_result(record: dict, cached: bool = False) -> FileResult:
    diags = [Diagnostic(**d) for d in record.get("diagnostics", ())]
    stats = record.get("stats")
    converted = stats.get("converted_total", 0) if stats else 0
    unsupported = sum(1 for d in diags if d.code in UNSUPPORTED_CODES)
    if stats:
        unsupported = max(unsupported, stats.get("unsupported_total", 0))
    hazards = sum(1 for d in diags if d.code not in UNSUPPORTED_CODES and d.severity != "note")
    status = "cached" if cached else record["status"]
    return FileResult(record["path"], record["kind"], status, record.get("output"), converted, unsupported,
                      hazards, diags, stats, record.get("error"), bool(record.get("needs_runtime")))


# ---------------------------------------------------------------------------------- entry point

ProgressFn = Callable[[int, int, str], None]


def convert_tree(src, dst=None, *, options: Options | None = None, jobs: int | None = None,
                 inplace: bool = False, backup: bool = True, exclude: Iterable[str] = (),
                 rename_cu: bool = False, verify: bool = False, report: str | os.PathLike | None = None,
                 offload_arch=None, progress: ProgressFn | None = None) -> TreeReport:
    """Convert the tree ``src`` from CUDA to HIP into ``dst`` (or in place) and return a report.

    ``options``: translator options (:class:`hipport.Options`); ``jobs``: worker processes
    (default: all cores); ``exclude``: gitignore-style globs left out of the walk, on top of
    the tree's ``.gitignore`` files; ``rename_cu``: ``.cu`` → ``.hip`` and ``.cuh`` →
    ``.hip.h`` with every reference updated; ``verify``: compile each translated translation
    unit with hipcc (when installed) and report what still fails on the original lines;
    ``report``: write the report as JSON (``*.json``) or HTML (``*.html``); ``offload_arch``:
    AMD targets for converted build files; ``progress(done, total, path)``: called as files
    finish.  Raises ``ValueError``/``OSError`` for unusable SRC/DST; problems with single
    files are reported in the result, never raised.
    """
    from hipport import __version__
    from hipport.tree_cache import Cache

    started = time.perf_counter()
    options = options or Options()
    if report is not None and not os.fspath(report).lower().endswith((".json", ".html", ".htm")):
        raise ValueError(f"{os.fspath(report)}: report must end in .json or .html")
    src_given = os.fspath(src)
    src_path = Path(os.path.realpath(src_given))
    if inplace:
        if dst is not None and os.path.realpath(os.fspath(dst)) != str(src_path):
            raise ValueError("give either a destination or inplace=True, not both")
        dst_path = src_path
    else:
        if dst is None:
            raise ValueError("a destination directory is required unless inplace=True")
        dst_path = Path(os.path.realpath(os.fspath(dst)))
    excludes = _exclude_stack(exclude)
    skip_rel = _check_roots(src_path, dst_path, inplace, excludes)
    if not inplace:
        dst_path.mkdir(parents=True, exist_ok=True)

    entries, ignored = _walk(src_path, excludes, skip_rel)
    _mark_cuda_language_sources(src_path, entries)
    _mark_included_sources(src_path, entries)
    tree = TreeReport(src=src_given, dst=str(dst if dst is not None else src_given), inplace=inplace,
                      ignored=ignored)
    arch = None
    if offload_arch is not None:
        from hipport.build.nvcc_flags import parse_offload_arch

        arch = parse_offload_arch(offload_arch)

    renames, collisions = _plan_renames(entries) if rename_cu else ({}, [])
    key = "|".join([__version__, _engine_fingerprint(), options.cache_key(), repr(arch),
                    repr(sorted(renames.items()))])
    cache = Cache(dst_path, key, enabled=not inplace)
    shared = _Shared(str(src_path), str(dst_path), options, renames, arch, inplace, backup)
    jobs_list: list[_Job] = []
    results: dict[str, FileResult] = {}
    writer = _Writer(dst_path)
    display_root = src_given.rstrip("/\\") or src_given

    total = len(entries)
    done = 0

    def tick(rel: str) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total, rel)

    for entry in entries:
        rel = entry.rel
        display = os.path.join(display_root, rel) if display_root != "." else rel
        if rel in collisions:
            results[rel] = FileResult(rel, entry.kind, "pending", diagnostics=[Diagnostic(
                "HC006", f"not renamed: {renames.get(rel, collisions[rel])} already exists", display, 1, 1,
                hint="rename one of the two files by hand")])
        if entry.kind.startswith("unreadable-dir"):
            msg = f"{display}: cannot read directory: {entry.kind.partition(':')[2]}"
            _skip(results, rel, "special", msg, "HC001", display, tree, status="error")
            tick(rel)
            continue
        if entry.kind == "symlink":
            _link(entry, src_path, writer, renames, results, display, tree, inplace)
            tick(rel)
            continue
        if entry.kind == "special":
            _skip(results, rel, "special", f"{display}: not a regular file; skipped", "HC004", display, tree)
            tick(rel)
            continue
        try:
            st = os.lstat(src_path / rel)
        except OSError as exc:
            _skip(results, rel, entry.kind, f"{display}: cannot read: {exc.strerror or exc}", "HC001", display,
                  tree, status="error")
            tick(rel)
            continue
        out = renames.get(rel, rel)
        mode = stat.S_IMODE(st.st_mode)
        if entry.kind == "copy":
            if inplace:
                tick(rel)
                continue
            _copy(rel, out, st, mode, src_path, dst_path, writer, cache, results, display, tree)
            tick(rel)
            continue
        hit = cache.lookup(rel, src_path / rel, st, dst_path)
        if hit is not None and hit.get("output") == out:
            cache.store(rel, hit)
            results[rel] = _merge_pending(results.get(rel), _file_result(hit, cached=True))
            tick(rel)
            continue
        jobs_list.append(_Job(rel, entry.kind, out, mode, display))

    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    tree.jobs = max(1, workers)
    for record in _run_jobs(jobs_list, shared, workers):
        rel = record["path"]
        if record.get("error"):
            tree.errors.append(record["error"])
        else:
            cache.store(rel, record)
        results[rel] = _merge_pending(results.get(rel), _file_result(record))
        tick(rel)

    tree.files = [results[e.rel] for e in entries if e.rel in results]
    for f in tree.files:
        if f.stats:
            tree.stats.merge(stats_from_dict(f.stats))
    cache.save()
    if verify:
        from hipport.verify import verify_tree

        tree.verify = verify_tree(tree, src_path, dst_path, options, jobs=tree.jobs)
    tree.seconds = time.perf_counter() - started
    if report is not None:
        from hipport.report import write_report

        try:
            write_report(tree, report)
        except OSError as exc:  # (the converted tree is written: the run goes on, the error names the report)
            tree.errors.append(f"{report}: cannot write the report: {exc.strerror or exc}")
    return tree


def _engine_fingerprint() -> str:
    """Names, sizes and times of hipport's own code and rule tables: a development checkout or
    an upgrade that keeps the version number still invalidates the cache."""
    import hashlib

    package = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".toml", ".h") and "__pycache__" not in path.parts:
            try:
                st = path.stat()
            except OSError:
                continue
            h.update(f"{path.relative_to(package)}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()[:16]


def _merge_pending(pending: FileResult | None, result: FileResult) -> FileResult:
    if pending is not None:
        result.diagnostics = pending.diagnostics + result.diagnostics
        result.hazards += len(pending.diagnostics)
    return result


def _run_jobs(jobs: list[_Job], shared: _Shared, workers: int):
    if len(jobs) < PARALLEL_THRESHOLD or workers <= 1:
        for job in jobs:
            yield _process(job, shared)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    size = max(1, min(16, len(jobs) // (workers * 8)))
    batches = [jobs[i:i + size] for i in range(0, len(jobs), size)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(_process_batch, b, shared): b for b in batches}
        for fut in as_completed(futures):
            try:
                records = fut.result()
            except Exception as exc:  # a worker died (e.g. a crash in native code): report, go on
                records = [{"path": job.rel, "kind": job.kind, "output": job.out, "status": "error",
                            "error": f"{job.display}: worker process failed: {type(exc).__name__}: {exc}"}
                           for job in futures[fut]]
            yield from records


def _plan_renames(entries: list[_Entry]) -> tuple[dict[str, str], dict[str, str]]:
    from hipport.tree_renames import new_name

    present = {e.rel for e in entries}
    renames, collisions = {}, {}
    for e in entries:
        if e.kind != "cxx":
            continue
        new = new_name(e.rel)
        if new is None:
            continue
        if new in present:
            collisions[e.rel] = new
        else:
            renames[e.rel] = new
    return renames, collisions


def _skip(results, rel, kind, message, code, display, tree, status="skipped") -> None:
    if status == "error":
        tree.errors.append(message)
    diag = Diagnostic(code, message.split(": ", 1)[-1], display, 1, 1,
                      "error" if code == "HC001" else "warning")
    results[rel] = FileResult(rel, kind, status, diagnostics=[diag], error=message)


def _copy(rel, out, st, mode, src_path, dst_path, writer, cache, results, display, tree) -> None:
    entry = cache.old.get(rel) if cache.enabled else None
    if (isinstance(entry, dict) and entry.get("kind") == "copy" and entry.get("size") == st.st_size
            and entry.get("mtime_ns") == st.st_mtime_ns):
        try:
            ost = os.lstat(dst_path / out)
            if ost.st_size == st.st_size and stat.S_IMODE(ost.st_mode) == mode:
                cache.store(rel, entry)
                results[rel] = FileResult(rel, "copy", "cached", out)
                return
        except OSError:
            pass
    try:
        size = writer.copy(src_path / rel, out, mode)
    except OSError as exc:
        _skip(results, rel, "copy", f"{display}: {exc.strerror or exc}" if exc.strerror else str(exc), "HC001",
              display, tree, status="error")
        return
    cache.store(rel, {"path": rel, "kind": "copy", "output": out, "size": st.st_size,
                      "mtime_ns": st.st_mtime_ns, "out_size": size})
    results[rel] = FileResult(rel, "copy", "copied", out)


def _link(entry, src_path: Path, writer: _Writer, renames, results, display, tree, inplace) -> None:
    rel = entry.rel
    link = src_path / rel
    try:
        target = link.resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        reason = "loops" if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == 40 else "is dangling"
        _skip(results, rel, "symlink", f"{display}: symbolic link {reason}; skipped", "HC003", display, tree)
        return
    if not _is_within(str(target), str(src_path)):
        _skip(results, rel, "symlink", f"{display}: symbolic link leads outside the source tree ({target}); skipped",
              "HC002", display, tree)
        return
    if inplace:
        results[rel] = FileResult(rel, "symlink", "linked", rel)
        return
    target_rel = Path(os.path.relpath(target, src_path)).as_posix()
    target_rel = renames.get(target_rel, target_rel)
    text = os.path.relpath(target_rel, posixpath.dirname(rel) or ".")
    try:
        writer.symlink(rel, text)
    except OSError as exc:
        _skip(results, rel, "symlink", f"{display}: {exc.strerror or exc}" if exc.strerror else str(exc), "HC001",
              display, tree, status="error")
        return
    results[rel] = FileResult(rel, "symlink", "linked", rel)
