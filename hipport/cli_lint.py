"""``hipport lint``: report (and with ``--fix``, rewrite) version-guard hazards.

Exit status: 0 nothing found, 1 findings remain (after ``--fix`` only unfixed ones count), 2
usage or I/O errors (a file that could not be read is reported and the others are still
linted).  Output formats: compiler-style text with a code frame (coloured with rich on a
terminal), one JSON array, SARIF 2.1.0, or GitHub workflow annotations.
"""

from __future__ import annotations

import sys

import click

FORMATS = ("text", "json", "sarif", "github")


def _codes(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(c.strip().upper() for c in value.split(",") if c.strip())


@click.command("lint")
@click.argument("paths", nargs=-1, required=True, type=click.Path(readable=False), metavar="PATH...")
@click.option("--fix", is_flag=True, help="Rewrite HV001 conditions (and Python findings) in place.")
@click.option("--policy", metavar="P",
              help="HV001 fix policy: exclude-rocm | include-rocm | include-rocm-since=N "
                   "(overrides [tool.hipport.lint] policy and per-path policies).")
@click.option("--select", metavar="CODES", help="Comma-separated codes or prefixes to report (e.g. HV001,HT).")
@click.option("--ignore", metavar="CODES", help="Comma-separated codes or prefixes not to report.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--exclude", "excludes", metavar="GLOB", multiple=True, help="Skip paths matching GLOB (repeatable).")
def lint(paths, fix, policy, select, ignore, fmt, excludes):
    """Find CUDA/HIP version checks whose ROCm behaviour is wrong or unstated (HV001-HV004),
    and torch idioms in Python files (HT codes), in files and folders."""
    from hipport.lint import fix_paths, lint_paths
    from hipport.lint_config import ConfigError, load_config

    if policy is not None:
        from hipport.version_macros.fixes import parse_policy

        try:
            parse_policy(policy)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--policy") from None
    try:
        base = load_config(paths[0] if paths else ".")
    except ConfigError as exc:
        click.echo(f"hipport lint: {exc}", err=True)
        sys.exit(2)
    select_codes, ignore_codes = _codes(select), _codes(ignore)
    config = base.with_overrides(
        select=select_codes,
        ignore=(base.ignore + ignore_codes) if ignore_codes else None,
        exclude=(base.exclude + tuple(excludes)) if excludes else None,
        policy=policy,
        per_path_policy=() if policy else None,
    )
    if fix:
        report = fix_paths(paths, config=config, policy=policy)
        diagnostics = report.diagnostics
        if report.fixed:
            click.echo(f"hipport lint: fixed {report.fixed} condition(s) in {len(report.changed)} file(s)", err=True)
    else:
        diagnostics = lint_paths(paths, config=config)
    _emit(diagnostics, fmt)
    if any(d.code == "HP000" for d in diagnostics):
        sys.exit(2)
    sys.exit(1 if diagnostics else 0)


def _emit(diagnostics, fmt: str) -> None:
    from hipport import diagnostics as render

    if fmt == "json":
        click.echo(render.render_json(diagnostics))
    elif fmt == "sarif":
        try:
            from importlib.metadata import version

            tool_version = version("hipport")
        except Exception:
            tool_version = "0"
        click.echo(render.render_sarif(diagnostics, tool_version))
    elif fmt == "github":
        if diagnostics:
            click.echo(render.render_github(diagnostics))
    else:
        _emit_text(diagnostics)


def _sources(diagnostics) -> dict[str, bytes]:
    sources = {}
    for d in diagnostics:
        if d.path not in sources and d.line > 0:
            try:
                with open(d.path, "rb") as fh:
                    sources[d.path] = fh.read()
            except OSError:
                sources[d.path] = b""
    return sources


def _emit_text(diagnostics) -> None:
    from hipport.diagnostics import render_text

    if not diagnostics:
        return
    sources = _sources(diagnostics)
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markup import escape

        console = Console(highlight=False, soft_wrap=True)
        colour = {"error": "bold red", "warning": "bold yellow", "note": "bold cyan"}
        for d in diagnostics:
            console.print(f"[bold]{escape(d.path)}:{d.line}:{d.column}:[/] "
                          f"[{colour.get(d.severity, 'bold')}]{d.severity}:[/] {escape(d.message)} "
                          f"[dim]\\[{d.code}][/]")
            frame = render_text([d], sources).split("\n")[1:]
            for line in frame:
                style = "dim" if not line.startswith("  hint:") else "cyan"
                console.print(f"[{style}]{escape(line)}[/]")
    else:
        click.echo(render_text(diagnostics, sources))
    errors = sum(1 for d in diagnostics if d.code == "HP000")
    found = len(diagnostics) - errors
    click.echo(f"hipport lint: {found} finding(s)" + (f", {errors} file error(s)" if errors else ""), err=True)
