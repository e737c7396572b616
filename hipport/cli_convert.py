"""``hipport flags`` and ``hipport cmake-dir`` (build-system helpers).

Each command is its own function; ``hipport convert`` joins this module later.  The commands
are thin: they call :mod:`hipport.build` and print.
"""

from __future__ import annotations

import shlex
import sys

import click


@click.command(context_settings={"help_option_names": ["--help"], "ignore_unknown_options": True})
@click.option("--offload-arch", "offload_arch", metavar="LIST",
              help="AMD targets replacing -arch/-gencode, comma-separated (default gfx90a,gfx942,gfx1100, "
                   "less those the installed HIP cannot build).")
@click.option("--lines", is_flag=True, help="Print one flag per line instead of a shell-quoted command line.")
@click.argument("nvcc_args", nargs=-1, type=click.UNPROCESSED)
def flags(offload_arch, lines, nvcc_args):
    """Translate nvcc options to hipcc options: hipport flags -- NVCC_ARGS...

    The hipcc options go to stdout; what was dropped or approximated goes to stderr.
    """
    from hipport.build.nvcc_flags import translate_nvcc_flags_ex

    try:
        result = translate_nvcc_flags_ex(list(nvcc_args), offload_arch=offload_arch)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--offload-arch") from None
    for note in result.notes:
        text = f"hipport flags: {note.severity}: {note.message} [{note.code}]"
        if note.hint:
            text += f"\n  hint: {note.hint}"
        click.echo(text, err=True)
    if lines:
        for flag in result.flags:
            click.echo(flag)
    else:
        click.echo(shlex.join(result.flags))


@click.command("cmake-dir", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--toolchain", is_flag=True,
              help="Print the toolchain file for Debian/Ubuntu's packaged ROCm instead of the directory.")
def cmake_dir(toolchain):
    """Print the directory with HipportTranslate.cmake (for CMAKE_MODULE_PATH)."""
    from hipport.build import cmake_dir as _cmake_dir

    path = _cmake_dir()
    click.echo(str(path / "HipportDebianROCm.cmake") if toolchain else str(path))
    sys.stdout.flush()


# ---------------------------------------------------------------------------------- convert

def _convert_command():
    """Build ``convert`` lazily-importable: the translator option decorators live in cli_translate."""
    from hipport.cli_translate import HipifyCommand, build_options, translator_options, translator_path_options

    @click.command("convert", cls=HipifyCommand, context_settings={"help_option_names": ["-h", "--help"]})
    @click.argument("src", type=click.Path(exists=True, file_okay=False))
    @click.option("-o", "--output", "dst", metavar="DST", type=click.Path(file_okay=False),
                  help="Directory for the converted tree (must not be inside SRC unless excluded).")
    @click.option("--inplace", is_flag=True, help="Convert SRC in place, keeping .prehip backups of changed files.")
    @click.option("--no-backup", is_flag=True, help="With --inplace: do not keep .prehip backups.")
    @click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, help="Worker processes (default: all cores).")
    @click.option("--exclude", multiple=True, metavar="GLOB",
                  help="Leave paths out of the walk, gitignore syntax (e.g. 'third_party/', '*.ptx'); repeatable.")
    @click.option("--rename-cu", is_flag=True,
                  help="Rename foo.cu → foo.hip and foo.cuh → foo.hip.h (a header stays a .h), updating every "
                       "#include and CMake/Makefile reference to them.")
    @click.option("--report", "report_path", metavar="FILE.json|FILE.html",
                  help="Write a JSON report or an HTML page (totals, per-library coverage, hazards with code).")
    @click.option("--verify", is_flag=True,
                  help="Compile each translated unit with hipcc -fsyntax-only and report what still fails, "
                       "placed on the original CUDA lines and ranked.")
    @click.option("--offload-arch", metavar="LIST",
                  help="AMD targets for converted build files (default gfx90a,gfx942,gfx1100, "
                       "less those the installed HIP cannot build).")
    @click.option("--quiet-warnings", is_flag=True, help="Do not print warnings.")
    @translator_options
    @translator_path_options
    @click.pass_context
    def convert(ctx, src, dst, inplace, no_backup, jobs, exclude, rename_cu, report_path, verify, offload_arch,
                quiet_warnings, **translator_kwargs):
        """Convert a whole CUDA source tree to HIP: hipport convert SRC (-o DST | --inplace).

        Sources and headers (.cu .cuh .cpp .cc .cxx .c .h .hpp .hh .hxx .inl .hip) are translated,
        Python files get the torch fixes, CMake files and Makefiles are converted, every other file
        is copied unchanged.  .gitignore files are honoured.  A re-run into the same DST redoes only
        what changed (cache: DST/.hipport-cache.json).  Translator options are those of
        `hipport translate`; anything after `--` is passed as compiler arguments.
        """
        import time

        if bool(dst) == inplace:
            raise click.UsageError("give exactly one of -o DST and --inplace")
        if no_backup and not inplace:
            raise click.UsageError("--no-backup only applies with --inplace")
        if report_path and not report_path.lower().endswith((".json", ".html", ".htm")):
            raise click.BadParameter(f"{report_path}: must end in .json or .html", param_hint="--report")
        options = build_options(ctx, **translator_kwargs)
        if offload_arch is not None:
            from hipport.build.nvcc_flags import parse_offload_arch

            try:
                parse_offload_arch(offload_arch)
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="--offload-arch") from None
        if verify:
            from hipport.verify import find_hipcc

            if find_hipcc() is None:
                click.echo("hipport convert: warning: --verify needs hipcc, which is not installed; skipped", err=True)
                verify = False
        from hipport.tree import convert_tree

        started = time.perf_counter()
        with _progress() as advance:
            try:
                tree = convert_tree(src, dst, options=options, jobs=jobs, inplace=inplace, backup=not no_backup,
                                    exclude=exclude, rename_cu=rename_cu, verify=verify, report=report_path,
                                    offload_arch=offload_arch, progress=advance)
            except ValueError as exc:
                raise click.UsageError(str(exc)) from None
            except OSError as exc:
                raise click.ClickException(str(exc)) from None
        for line in tree.errors:
            click.echo(f"error: {line}", err=True)
        if not quiet_warnings:
            lines = [d.format() for d in tree.diagnostics if d.severity != "note"]
            if lines:
                click.echo("\n".join(lines), err=True)
        if tree.verify:
            click.echo(f"--verify: {len(tree.verify)} compile error(s) remain, most frequent first:", err=True)
            click.echo("\n".join(d.format() for d in tree.verify), err=True)
        _summary(tree, time.perf_counter() - started)
        if tree.runtime_users:
            from hipport.runtime import include_dir

            click.echo(f"note: {len(tree.runtime_users)} translated file(s) include hipport's portability headers "
                       f"(<hipport/...>): build with -I{include_dir()} (CMake: "
                       f"-DCMAKE_HIP_STANDARD_INCLUDE_DIRECTORIES={include_dir()} "
                       f"-DCMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES={include_dir()} — C++ sources may include them "
                       "through a translated header — or find_package(hipportRuntime); see `hipport runtime --help`)")
        if report_path and not any(e.startswith(f"{report_path}: cannot write") for e in tree.errors):
            click.echo(f"report: {report_path}")
        ctx.exit(1 if tree.errors or tree.verify else 0)

    return convert


class _progress:
    """A rich progress bar on stderr when it is a terminal; a no-op callback otherwise."""

    def __enter__(self):
        from rich.console import Console

        console = Console(stderr=True)
        self.bar = None
        if not console.is_terminal:
            return lambda done, total, path: None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(TextColumn("converting"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            TextColumn("{task.description}"), console=console, transient=True)
        self.bar.__enter__()
        task = self.bar.add_task("", total=None)

        def advance(done, total, path):
            self.bar.update(task, completed=done, total=total, description=path[-60:])

        return advance

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


def _summary(tree, seconds: float) -> None:
    from rich.console import Console
    from rich.table import Table

    t = tree.totals
    console = Console(highlight=False, soft_wrap=True)
    table = Table(title=f"hipport convert: {tree.src} → {tree.dst}")
    table.add_column("")
    table.add_column("count", justify="right")
    rows = [("files", t["files"]), ("translated", t["translated"]), ("  changed", t["changed"]),
            ("  unchanged since last run", t["cached"]), ("copied", t["copied"]), ("symlinks", t["linked"]),
            ("skipped", t["skipped"]), ("errors", t["errors"]), ("ignored (.gitignore/--exclude)", t["ignored"]),
            ("references converted", t["converted"]), ("unsupported", t["unsupported"]), ("hazards", t["hazards"])]
    if t["verify_errors"] is not None:
        rows.append(("compile errors (--verify)", t["verify_errors"]))
    for name, value in rows:
        table.add_row(name, str(value))
    table.add_row("time", f"{seconds:.2f}s")
    console.print(table)
    if tree.stats.libraries:
        console.print("link with: " + ", ".join(sorted(tree.stats.libraries)))


def __getattr__(name: str):
    if name == "convert":  # built on first use so that `hipport flags` does not import the translator CLI
        command = _convert_command()
        globals()["convert"] = command
        return command
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
