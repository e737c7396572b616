"""Translate a list of files to their destinations; shared by ``hipport translate`` and build tools.

A file that fails (unreadable, binary, too large, a symlink loop) is reported as one line and
the others still run; results are collected, never printed here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from hipport.cxx.context import Stats
from hipport.diagnostics import Diagnostic
from hipport.options import Options

PARALLEL_THRESHOLD = 16  # below this many files, process start-up costs more than it saves


@dataclass(frozen=True)
class Target:
    output: str | None = None  # -o: single output file
    o_dir: str | None = None
    stdout: bool = False
    inplace: bool = False
    backup: bool = True
    write: bool = True
    o_root: str | None = None  # with o_dir: keep the files' layout below this folder (local headers)

    def destination(self, src: str) -> Path | None:
        if not self.write or self.stdout:
            return None
        if self.output:
            return Path(self.output)
        if self.o_dir:
            if self.o_root:
                return Path(self.o_dir) / os.path.relpath(os.path.abspath(src), self.o_root)
            return Path(self.o_dir) / Path(src).name
        if self.inplace:
            return Path(src)
        return Path(src + ".hip")


@dataclass
class FilesReport:
    stats: Stats = field(default_factory=Stats)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    outputs: list[bytes] = field(default_factory=list)  # for --stdout, in input order


def _one(src: str, options: Options, target: Target):
    from hipport import _translate_bytes
    from hipport.fileio import InputError, read_source, write_atomic

    try:
        if options.build_dir:
            from dataclasses import replace

            from hipport.compile_db import flags_for

            options = replace(options, clang_args=options.clang_args + flags_for(options.build_dir, src))
        data = read_source(src)
        result = _translate_bytes(data, src, options)
        dest = target.destination(src)
        if dest is not None and not target.inplace and _same_file(dest, src):
            # `--o-dir .` beside the input, `-o` naming it: an in-place write without its backup
            return src, None, [], None, (f"{src}: the output would overwrite the input; use --inplace "
                                         "(which keeps a .prehip backup) or another output")
        if dest is not None:
            if target.inplace and result.data == data:
                pass  # nothing changed: leave the file (and its mtime) alone
            else:
                write_atomic(dest, result.data,
                             backup_suffix=".prehip" if target.inplace and target.backup else None)
        return src, result.data if target.stdout else None, result.diagnostics, result.stats, None
    except InputError as exc:
        return src, None, [], None, str(exc)
    except OSError as exc:
        return src, None, [], None, f"{src}: cannot write output: {exc.strerror or exc}"
    except ValueError as exc:  # unreadable compilation database
        return src, None, [], None, str(exc)
    except RecursionError:
        return src, None, [], None, f"{src}: input too deeply nested to translate"


def _same_file(dest: Path, src: str) -> bool:
    try:
        return dest.exists() and os.path.samefile(dest, src)
    except OSError:
        return False


def run_files(files: list[str], options: Options, target: Target, *, jobs: int | None = None) -> FilesReport:
    report = FilesReport()
    expanded: list[str] = []
    for f in files:
        if os.path.isdir(f):
            report.errors.append(f"{f}: is a directory (use 'hipport convert' for trees)")
        else:
            expanded.append(f)
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if len(expanded) >= PARALLEL_THRESHOLD and workers > 1:
        from concurrent.futures import ProcessPoolExecutor  # only worth importing for many files

        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_one, expanded, [options] * len(expanded), [target] * len(expanded), chunksize=4))
    else:
        results = [_one(f, options, target) for f in expanded]
    for src, out, diags, stats, error in results:
        if error:
            report.errors.append(error)
            continue
        report.diagnostics.extend(diags)
        report.stats.merge(stats)
        if out is not None:
            report.outputs.append(out)
    return report
