"""``hipport rules``: list and search the CUDA→HIP rules, or write the support tables.

Kept light at import time (only click): the rules, rich and jinja2 are loaded when the command
runs, so registering the command costs nothing to ``hipport lint``.
"""

from __future__ import annotations

import sys

import click

_STATUSES = ("supported", "experimental", "deprecated", "removed", "unsupported")
_KINDS = ("function", "type", "enumerator", "macro", "device_function", "header", "namespace")


@click.command(name="rules")
@click.argument("query", required=False)
@click.option("--family", "-f", "families", multiple=True, metavar="F", help="Only this API family (repeatable): runtime, driver, nvrtc, …")
@click.option("--status", "-s", "statuses", multiple=True, type=click.Choice(_STATUSES), help="Only rules with this status (repeatable).")
@click.option("--kind", "-k", "kinds", multiple=True, type=click.Choice(_KINDS), help="Only rules of this kind (repeatable).")
@click.option("--markdown", is_flag=True, help="Write Markdown support tables (counts per status and the name tables) instead of a listing.")
@click.option("--output-dir", "-o", type=click.Path(file_okay=False), help="With --markdown: write <family>.md files and a README.md index here.")
@click.option("--stats", is_flag=True, help="Print rule counts per family and status (and per kind).")
@click.option("--rules-dir", type=click.Path(exists=True, file_okay=False), help="Load rules from this directory instead of the bundled ones.")
def rules(query, families, statuses, kinds, markdown, output_dir, stats, rules_dir):
    """List or search the CUDA→HIP rules.

    QUERY matches CUDA or HIP names: a case-insensitive substring, or a shell pattern when it
    contains * ? or [ (for example 'cudaMemcpy*').  Exit status 1 when nothing matches.
    """
    from pathlib import Path

    from hipport.rules import RuleError, default_rules, load_rules
    from hipport.rules import tables

    try:
        ruleset = load_rules(Path(rules_dir), use_cache=False) if rules_dir else default_rules()
    except RuleError as exc:
        raise click.ClickException(str(exc)) from None
    unknown = sorted(set(families) - set(ruleset.families()))
    if unknown:
        raise click.BadParameter(
            f"unknown family {', '.join(unknown)} (known: {', '.join(ruleset.families())})", param_hint="--family"
        )
    if output_dir and not markdown:
        raise click.UsageError("--output-dir needs --markdown")

    chosen = tables.select(ruleset, query, families, statuses, kinds)
    if not chosen:
        click.echo(f"hipport rules: no rule matches{' ' + repr(query) if query else ''}", err=True)
        sys.exit(1)

    if markdown:
        if output_dir:
            for path in tables.write_markdown_dir(chosen, Path(output_dir)):
                click.echo(str(path))
        else:
            click.echo(tables.render_markdown(chosen), nl=False)
        return
    if stats:
        _print_stats(chosen, tables)
        return
    _print_listing(chosen)


def _is_tty() -> bool:
    return sys.stdout.isatty()


def _print_stats(chosen, tables) -> None:
    by_status = tables.counts(chosen)
    by_kind = tables.kind_counts(chosen)
    kinds = [k for k in tables.KIND_ORDER if any(row[k] for row in by_kind.values())]
    if _is_tty():
        from rich.console import Console
        from rich.table import Table

        table = Table(title="hipport rules")
        table.add_column("family")
        for s in (*tables.STATUS_ORDER, "total"):
            table.add_column(s, justify="right")
        for family, row in by_status.items():
            table.add_row(family, *(str(row[s]) for s in (*tables.STATUS_ORDER, "total")))
        Console().print(table)
        return
    click.echo("\t".join(("family", *tables.STATUS_ORDER, "total", *kinds)))
    for family, row in by_status.items():
        kind_row = by_kind.get(family) or {k: sum(r[k] for r in by_kind.values()) for k in kinds}
        click.echo("\t".join((family, *(str(row[s]) for s in (*tables.STATUS_ORDER, "total")), *(str(kind_row[k]) for k in kinds))))


def _print_listing(chosen) -> None:
    if _is_tty():
        from rich.console import Console
        from rich.markup import escape
        from rich.table import Table

        styles = {"supported": "green", "experimental": "yellow", "deprecated": "yellow", "removed": "magenta", "unsupported": "red"}
        table = Table(show_lines=False, title=f"{len(chosen)} rule(s)")
        for column in ("CUDA", "HIP", "kind", "status", "family", "note"):
            table.add_column(column, overflow="fold")
        for r in chosen:
            # names and notes are data, never markup ("[Deprecated]" must print as written)
            table.add_row(escape(r.cuda), escape(r.hip) or "—", r.kind, f"[{styles[r.status]}]{r.status}[/]", r.family, escape(r.note))
        Console().print(table)
        return
    # Plain, tab-separated, one rule a line: stable for grep/cut/awk.
    out = sys.stdout
    try:
        for r in chosen:
            out.write(f"{r.cuda}\t{r.hip or '-'}\t{r.kind}\t{r.status}\t{r.family}\n")
        out.flush()
    except BrokenPipeError:
        # `hipport rules | head`: the reader has all it wants; say nothing and stop.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
        sys.exit(0)
