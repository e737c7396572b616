"""``hipport lint`` as a library: find (and optionally fix) version-guard hazards in files and trees.

C/C++/CUDA/HIP sources go to :mod:`hipport.version_macros`; Python files go to the torch rules
(:mod:`hipport.python`) when that front end is installed, and are skipped otherwise.  A file that
cannot be read (missing, a directory, binary, too large) becomes one ``HP000`` error diagnostic
naming it and the run goes on.  Large trees are linted in worker processes; the result order
does not depend on that (diagnostics are sorted by path and position).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from hipport.diagnostics import ERROR, Diagnostic
from hipport.lint_config import LintConfig, load_config

SOURCE_SUFFIXES = frozenset({
    ".c", ".cc", ".cpp", ".cxx", ".c++", ".cp", ".h", ".hh", ".hpp", ".hxx", ".h++",
    ".cu", ".cuh", ".hip", ".inl", ".ipp", ".tpp", ".tcc",
})
PYTHON_SUFFIXES = frozenset({".py", ".pyi"})
SKIP_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", "build", "dist"})
PARALLEL_MIN_FILES = 64  # below this, starting workers costs more than it saves


@dataclass
class LintReport:
    """What a fix run did: the diagnostics that remain, the files rewritten, fixes applied."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    fixed: int = 0


def lint_paths(paths, *, config: LintConfig | None = None, jobs: int | None = None) -> list[Diagnostic]:
    """Diagnostics for every source file in *paths* (files or folders), sorted by place.

    *config*: one configuration for every path; None reads ``[tool.hipport.lint]`` from the
    nearest pyproject.toml of each path.  *jobs*: worker processes (None = by tree size).
    """
    return _run(paths, config, None, jobs).diagnostics


def fix_paths(paths, *, config: LintConfig | None = None, policy: str | None = None,
              jobs: int | None = None) -> LintReport:
    """Fix what can be fixed in place (HV001 under *policy* or the configured per-path policy,
    and the Python rules' fixes), and report what remains."""
    if policy is not None:
        from hipport.version_macros.fixes import parse_policy

        parse_policy(policy)  # a bad policy is an error before any file is touched
    return _run(paths, config, policy or "", jobs)


# ---------------------------------------------------------------- walking

def _error(path: str, message: str) -> Diagnostic:
    """An HP000 error; the rendered line already starts with the path, so drop a repeat."""
    if message.startswith(path + ": "):
        message = message[len(path) + 2:]
    return Diagnostic("HP000", message, path, 0, 0, ERROR)


def _loops(path: str) -> bool:
    import errno

    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def collect(paths, config: LintConfig | None):
    """(file, config) pairs to lint and HP000 diagnostics for paths that do not exist."""
    files: list[tuple[str, LintConfig]] = []
    errors: list[Diagnostic] = []
    seen = set()
    for raw in paths:
        path = os.fspath(raw)
        cfg = config if config is not None else load_config(path if os.path.exists(path) else ".")
        if os.path.isdir(path):
            def unreadable(exc: OSError) -> None:  # a folder the walk cannot list: its files go unchecked
                errors.append(_error(exc.filename or path, f"cannot read directory: {exc.strerror or exc}"))

            for folder, dirs, names in os.walk(path, onerror=unreadable):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS
                                 and not cfg.is_excluded(os.path.join(folder, d)))
                for name in sorted(names):
                    if _loops(os.path.join(folder, name)):  # (os.walk lists a looping link as a file)
                        errors.append(_error(os.path.join(folder, name), "symbolic link loops; skipped"))
                        continue
                    suffix = os.path.splitext(name)[1].lower()
                    if suffix in SOURCE_SUFFIXES or suffix in PYTHON_SUFFIXES:
                        full = os.path.join(folder, name)
                        if full not in seen and not cfg.is_excluded(full):
                            seen.add(full)
                            files.append((full, cfg))
        elif not os.path.lexists(path):
            errors.append(_error(path, "no such file or directory"))
        elif path not in seen and not cfg.is_excluded(path):
            seen.add(path)  # named explicitly: linted whatever its suffix (read errors are HP000)
            files.append((path, cfg))
    return files, errors


# ---------------------------------------------------------------- one file

_python_api = None


def _python():
    """hipport.python's (check_python, fix_python), or None when that front end is absent."""
    global _python_api
    if _python_api is None:
        try:
            from hipport import python as py

            _python_api = (py.check_python, py.fix_python)
        except (ImportError, AttributeError):
            _python_api = False
    return _python_api or None


def lint_file(path: str, config: LintConfig, fix_policy: str | None = None):
    """(diagnostics, number of fixes, new bytes or None) for one file; never raises for bad input."""
    from hipport.fileio import InputError, read_source, write_atomic

    suffix = os.path.splitext(path)[1].lower()
    is_python = suffix in PYTHON_SUFFIXES
    if is_python and _python() is None:
        return [], 0, None
    try:
        data = read_source(path)
    except InputError as exc:
        return [_error(path, str(exc))], 0, None
    fixed = 0
    new = None
    try:
        if is_python:
            check_python, fix_python = _python()
            if fix_policy is not None:
                new, diags = fix_python(data, path, config=config)
                new = new if new != data else None
                if new is not None:
                    fixed = 1
            else:
                diags = check_python(data, path, config=config)
        else:
            from hipport import version_macros

            if fix_policy is not None and config.enabled("HV001", path):
                policy = fix_policy or config.policy_for(path)
                from hipport.edits import apply_edits

                edits, diags = version_macros.fix_source(data, path, policy=policy, config=config)
                if edits:
                    new = apply_edits(data, edits)
                    fixed = len({data.count(b"\n", 0, e.start) for e in edits})  # one per directive
            else:
                diags = version_macros.check_source(data, path, config=config)
    except Exception as exc:  # a bug must not stop a tree run; say which file
        return [_error(path, f"internal error while linting: {type(exc).__name__}: {exc}")], 0, None
    if new is not None:
        try:
            write_atomic(path, new)
        except OSError as exc:
            return [_error(path, f"cannot write fix: {exc.strerror or exc}")], 0, None
    return [d for d in diags if config.enabled(d.code, path)], fixed, new


def _work(item):
    path, config, fix_policy = item
    diags, fixed, new = lint_file(path, config, fix_policy)
    return path, diags, fixed, new is not None


def _run(paths, config, fix_policy, jobs) -> LintReport:
    files, errors = collect(paths, config)
    report = LintReport(list(errors))
    items = [(path, cfg, fix_policy) for path, cfg in files]
    if jobs is None:
        jobs = min(os.cpu_count() or 1, 8) if len(items) >= PARALLEL_MIN_FILES else 1
    if jobs > 1 and len(items) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(_work, items, chunksize=max(1, len(items) // (jobs * 8))))
    else:
        results = [_work(item) for item in items]
    for path, diags, fixed, changed in results:
        report.diagnostics.extend(diags)
        report.fixed += fixed
        if changed:
            report.changed.append(path)
    report.diagnostics.sort(key=lambda d: (d.path, d.line, d.column, d.code))
    return report
