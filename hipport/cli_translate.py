"""``hipport translate``: hipify-clang's command line, so switching tools means renaming a program.

hipify-clang (LLVM cl::opt) accepts single-dash long options (``-roc``, ``-o=OUT``) and takes
compiler arguments after ``--``; :class:`HipifyCommand` normalises both before click parses.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace

import click

from hipport.options import Options

_LONG_FLAGS = {
    "roc", "miopen", "use-hip-data-types", "amap", "experimental", "inplace", "no-backup",
    "skip-excluded-preprocessor-conditional-blocks", "default-preprocessor", "print-stats",
    "print-stats-csv", "examine", "no-output", "quiet-warnings", "cuda-path", "o-dir", "stdout",
    "cuda-kernel-execution-syntax", "hip-kernel-execution-syntax", "caching-allocator",
    "version-guards", "local-headers", "local-headers-recursive", "hip-version",
}
_SHORT_WITH_VALUE = ("-o", "-p", "-I", "-D")
_BOOLEAN_FLAGS = _LONG_FLAGS - {"print-stats-csv", "cuda-path", "o-dir", "version-guards", "hip-version"}
_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


def normalise_args(args: list[str]) -> tuple[list[str], list[str]]:
    """Split at ``--`` and rewrite hipify-clang spellings to click's: ``-roc`` → ``--roc``,
    ``-o=OUT`` → ``-o OUT``, ``-cuda-path=DIR`` → ``--cuda-path DIR``."""
    clang_args: list[str] = []
    if "--" in args:
        i = args.index("--")
        args, clang_args = args[:i], args[i + 1:]
    args = _o_stats(args)
    out = []
    for a in args:
        name, eq, value = a.lstrip("-").partition("=")
        if a.startswith("-") and len(a) > 2 and eq and name in _BOOLEAN_FLAGS:
            # LLVM's `-roc=false` / `--amap=true`, which hipify-clang users write
            if value.lower() not in _TRUE + _FALSE:
                raise click.BadParameter(f"{a!r}: expected true or false", param_hint="--" + name)
            if value.lower() in _TRUE:
                out.append("--" + name)
            continue
        if a.startswith("-") and not a.startswith("--") and len(a) > 2:
            name, eq, value = a[1:].partition("=")
            if name in _LONG_FLAGS:
                out.append("--" + name)
                if eq:
                    out.append(value)
                continue
            if a[:2] in _SHORT_WITH_VALUE and a[2:3] == "=":
                out.extend([a[:2], a[3:]])
                continue
            if a[:2] in ("-o", "-p") and (a[2:3] == "-" or a[2:].split("=")[0].isalpha()):
                # hipify-clang's `-perl`, `-python`: no `-o VALUE` / `-p VALUE` glued on
                raise click.UsageError(f"no such option: {a}")
        if a.startswith("--") and "=" in a:
            name, _, value = a[2:].partition("=")
            if name in _LONG_FLAGS:
                out.extend(["--" + name, value])
                continue
        out.append(a)
    return out, clang_args


class HipifyCommand(click.Command):
    def parse_args(self, ctx, args):
        args, clang_args = normalise_args(list(args))
        ctx.meta["clang_args"] = tuple(clang_args)
        return super().parse_args(ctx, args)


_TRANSLATOR_OPTIONS = (
    click.option("--cuda-kernel-execution-syntax", is_flag=True, help="Keep <<<...>>> launches (default)."),
    click.option("--hip-kernel-execution-syntax", is_flag=True, help="Rewrite launches to hipLaunchKernelGGL."),
    click.option("--roc", is_flag=True, help="Translate library calls to roc* libraries instead of hip*."),
    click.option("--miopen", is_flag=True, help="Translate cuDNN to MIOpen."),
    click.option("--use-hip-data-types", is_flag=True, help="Library data-type enums become HIP_R_32F-style types."),
    click.option("--amap", is_flag=True, help="Translate even names HIP marks unsupported."),
    click.option("--experimental", is_flag=True, help="Translate names HIP marks experimental."),
    click.option("--skip-excluded-preprocessor-conditional-blocks", "skip_excluded", is_flag=True,
                 help="Translate only the preprocessor branches taken under the given -D options."),
    click.option("--default-preprocessor", is_flag=True,
                 help="Same as --skip-excluded-preprocessor-conditional-blocks (hipify-clang's synonym)."),
    click.option("--caching-allocator", is_flag=True, help="cudaMalloc/cudaFree → hipport caching allocator."),
    click.option("--version-guards", metavar="POLICY",
                 help="Fix CUDA version checks: exclude-rocm | include-rocm | include-rocm-since=N."),
    click.option("--hip-version", metavar="X.Y",
                 help="HIP release the output is for: names it predates are reported (HP008). "
                      "Default: the installed HIP; 'latest': no check."),
)
_TRANSLATOR_PATH_OPTIONS = (
    click.option("--cuda-path", metavar="DIR", help="CUDA installation (headers used when parsing)."),
    click.option("-I", "include_dirs", multiple=True, metavar="DIR", help="Include directory."),
    click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]", help="Macro definition."),
    click.option("-p", "build_dir", metavar="BUILD_DIR", help="Directory with compile_commands.json."),
)


def _apply(decorators):
    def wrap(f):
        for decorator in reversed(decorators):
            f = decorator(f)
        return f
    return wrap


def _o_stats(args: list[str]) -> list[str]:
    """hipify-clang's statistics file: `--print-stats-csv` is a bare flag there and `--o-stats=FILE`
    (or `-o-stats=FILE`) names the file; here `--print-stats-csv FILE` says both."""
    stats, rest, i = None, [], 0
    while i < len(args):
        a = args[i]
        if a.lstrip("-").startswith("o-stats") and a.startswith("-"):
            name, eq, value = a.lstrip("-").partition("=")
            if name != "o-stats":
                rest.append(a)
            elif eq:
                stats = value
            elif i + 1 < len(args):
                stats, i = args[i + 1], i + 1
            else:
                raise click.UsageError("--o-stats needs a file name")
        else:
            rest.append(a)
        i += 1
    if stats is None:
        return args
    return [a for a in rest if a.lstrip("-") != "print-stats-csv"] + ["--print-stats-csv", stats]


# Shared with ``hipport convert``: the options that make an :class:`Options` (see build_options).
translator_options = _apply(_TRANSLATOR_OPTIONS)
translator_path_options = _apply(_TRANSLATOR_PATH_OPTIONS)


def build_options(ctx, *, cuda_kernel_execution_syntax=False, hip_kernel_execution_syntax=False, roc=False,
                  miopen=False, use_hip_data_types=False, amap=False, experimental=False, skip_excluded=False,
                  default_preprocessor=False, caching_allocator=False, version_guards=None, hip_version=None,
                  cuda_path=None, include_dirs=(), defines=(), build_dir=None) -> Options:
    """The :class:`Options` named by the translator options (and compiler arguments after ``--``)."""
    if version_guards and not _valid_policy(version_guards):
        raise click.BadParameter(
            f"{version_guards!r}: expected exclude-rocm, include-rocm or include-rocm-since=N",
            param_hint="--version-guards")
    from hipport.installed_hip import parse_version

    if hip_version and hip_version.strip().lower() not in ("latest", "none") and parse_version(hip_version) is None:
        raise click.BadParameter(f"{hip_version!r}: expected a release such as 6.2, or latest", param_hint="--hip-version")
    return Options(
        hip_kernel_execution_syntax=hip_kernel_execution_syntax,
        roc=roc, miopen=miopen, use_hip_data_types=use_hip_data_types, amap=amap,
        experimental=experimental, skip_excluded_preprocessor_conditional_blocks=skip_excluded,
        default_preprocessor=default_preprocessor, caching_allocator=caching_allocator,
        version_guards=version_guards, include_dirs=tuple(include_dirs), defines=tuple(defines),
        clang_args=tuple(ctx.meta.get("clang_args", ())), cuda_path=cuda_path, build_dir=build_dir,
        hip_version=hip_version or "",
    )


#: what `--print-stats-csv` never writes over (hipify-clang's flag of that name takes no file)
_SOURCE_SUFFIXES = (".cu", ".cuh", ".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".inl", ".hip", ".py")


@click.command(cls=HipifyCommand, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True, readable=False))
@click.option("-o", "output", metavar="OUT", help="Output file (one input only).")
@click.option("--o-dir", "o_dir", metavar="DIR", help="Directory for the translated files.")
@click.option("--stdout", "to_stdout", is_flag=True, help="Write exactly the translated file to stdout.")
@click.option("--inplace", is_flag=True, help="Overwrite the input, keeping a .prehip backup.")
@click.option("--no-backup", is_flag=True, help="With --inplace: do not keep a .prehip backup.")
@translator_options
@click.option("--print-stats", is_flag=True, help="Print translation statistics.")
@click.option("--print-stats-csv", metavar="FILE", help="Write translation statistics as CSV.")
@click.option("--examine", is_flag=True, help="Same as --no-output --print-stats.")
@click.option("--no-output", is_flag=True, help="Do not write translated files.")
@click.option("--quiet-warnings", is_flag=True, help="Do not print warnings.")
@translator_path_options
@click.option("--local-headers", is_flag=True, help="Also translate the project headers the files include (quoted, or found in -I, before or after --).")
@click.option("--local-headers-recursive", is_flag=True, help="--local-headers, following the headers' own includes.")
@click.option("-j", "--jobs", type=int, default=None, help="Parallel processes for many files.")
@click.pass_context
def translate(ctx, files, output, o_dir, to_stdout, inplace, no_backup, print_stats, print_stats_csv,
              examine, no_output, quiet_warnings, local_headers, local_headers_recursive, jobs, **translator_kwargs):
    """Translate CUDA source files to HIP (hipify-clang compatible options).

    Anything after `--` is passed as compiler arguments (-std=c++17, -DX, -I...).
    """
    if output == "" or o_dir == "":  # `-o=` from an unset make variable: no silent FILE.hip instead
        raise click.UsageError("-o / --o-dir needs a name")
    modes = [bool(output), bool(o_dir), to_stdout, inplace]
    if sum(modes) > 1:
        raise click.UsageError("-o, --o-dir, --stdout and --inplace are mutually exclusive")
    if output and len(files) > 1:
        raise click.UsageError("-o takes one input file; use --o-dir for several")
    if print_stats_csv and (print_stats_csv in files or print_stats_csv.lower().endswith(_SOURCE_SUFFIXES)):
        # hipify-clang's --print-stats-csv is a bare flag: `--print-stats-csv a.cu b.cu` must not
        # write the statistics over a.cu
        raise click.BadParameter(f"{print_stats_csv!r} is a source file; the option takes the CSV file to write",
                                 param_hint="--print-stats-csv")
    options = build_options(ctx, **translator_kwargs)
    if examine:
        no_output = print_stats = True
    from hipport.translate_files import Target, run_files

    target = Target(output=output, o_dir=o_dir, stdout=to_stdout, inplace=inplace,
                    backup=not no_backup, write=not no_output)
    headers = []
    if local_headers or local_headers_recursive:
        from hipport.local_headers import local_headers as find_local_headers

        from hipport.rules import default_rules

        cuda_headers = frozenset(r.cuda for r in default_rules().rules if r.kind == "header")
        include_dirs = list(options.search_dirs())
        headers = find_local_headers(list(files), include_dirs, recursive=local_headers_recursive,
                                     known=cuda_headers)
        if headers and o_dir:
            # "../common/util.h" must still resolve: the inputs and their headers keep their layout
            root = os.path.commonpath([os.path.dirname(os.path.abspath(f)) for f in [*files, *headers]])
            target = replace(target, o_root=root)
    names = [os.path.basename(f) for f in files]
    if o_dir and target.o_root is None and len(set(names)) < len(names):
        # `a/x.cu b/x.cu`: one would overwrite the other in DIR; their folders are kept below it
        target = replace(target, o_root=os.path.commonpath([os.path.dirname(os.path.abspath(f)) for f in files]))
    report = run_files(list(files), options, target, jobs=jobs)
    if headers:
        _translate_local_headers(headers, options, target, report, jobs)
    for line in report.errors:
        click.echo(f"error: {line}", err=True)
    if not quiet_warnings and report.diagnostics:
        click.echo("\n".join(d.format() for d in report.diagnostics), err=True)
    # a file left untranslated with an error diagnostic (a .py input that does not parse) failed too
    failed = bool(report.errors) or any(d.severity == "error" for d in report.diagnostics)
    if to_stdout and report.outputs and not no_output:  # hipify-clang: --no-output writes nothing to stdout
        try:
            sys.stdout.flush()
            for data in report.outputs:
                sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        except OSError as exc:  # a full disk, a closed pipe: one line, not a traceback
            click.echo(f"error: <stdout>: cannot write the translation: {exc.strerror or exc}", err=True)
            failed = True
    if print_stats:
        from hipport.stats_report import render_stats

        render_stats(report.stats, stream=sys.stderr if to_stdout else sys.stdout)
    if print_stats_csv:
        from hipport.stats_report import write_csv

        try:
            write_csv(report.stats, print_stats_csv)
        except OSError as exc:  # a directory, a missing folder, no permission
            click.echo(f"error: {print_stats_csv}: cannot write the statistics: {exc.strerror or exc}", err=True)
            failed = True
    ctx.exit(1 if failed else 0)


def _translate_local_headers(headers, options, target, report, jobs) -> None:
    """The included local headers go where the inputs go (beside them as FILE.hip, into --o-dir
    in the same layout, or in place); stdout and -o carry exactly the named file, so headers are
    then not written."""
    from hipport.translate_files import run_files

    if target.stdout or target.output:
        where = "--stdout" if target.stdout else "-o"
        click.echo(f"hipport: note: {len(headers)} local header(s) not written with {where}: "
                   + ", ".join(headers), err=True)
        target = replace(target, write=False, stdout=False, output=None)
    elif not (target.o_dir or target.inplace):
        # FILE.hip beside each input: a.cu.hip keeps its `#include "h.cuh"`, which names the
        # CUDA header, not h.cuh.hip — the pair builds only once renamed or written elsewhere
        click.echo(f"hipport: note: {len(headers)} local header(s) written beside them as FILE.hip; the "
                   "translated files still include the original names: use --o-dir DIR (same layout) or "
                   "--inplace to build the translation", err=True)
    part = run_files(headers, options, target, jobs=jobs)
    report.errors.extend(part.errors)
    report.diagnostics.extend(part.diagnostics)
    report.stats.merge(part.stats)


def _valid_policy(policy: str) -> bool:
    """What `hipport lint --policy` takes (`include-rocm-since=6.2` as well as `=60200`)."""
    from hipport.version_macros import parse_policy

    try:
        parse_policy(policy)
    except ValueError:
        return False
    return True

