"""Support tables: what hipport knows about each API family, as counts and as Markdown.

The same numbers feed ``hipport rules --stats`` and the Markdown support tables that
``hipport rules --markdown`` writes (one document, or one file per family with an index), so the
published tables can never disagree with the rules the translator uses.  Rendering goes through
jinja2 templates in ``hipport/rules/templates/`` to keep layout apart from the data; jinja2 is
imported only when Markdown is asked for.
"""

from __future__ import annotations

import fnmatch
from collections import Counter
from pathlib import Path

from hipport.rules import STATUSES, Rule, RuleSet

TEMPLATES = Path(__file__).resolve().parent / "templates"
STATUS_ORDER = ("supported", "experimental", "deprecated", "removed", "unsupported")
assert set(STATUS_ORDER) == STATUSES
KIND_ORDER = ("header", "namespace", "function", "device_function", "type", "enumerator", "macro")


def select(
    rules: RuleSet,
    query: str | None = None,
    families: tuple[str, ...] = (),
    statuses: tuple[str, ...] = (),
    kinds: tuple[str, ...] = (),
) -> list[Rule]:
    """Rules matching every given filter, sorted by family, kind and CUDA name.

    *query* matches the CUDA or the HIP name: as a shell pattern when it contains ``*?[``,
    otherwise as a case-insensitive substring."""
    if query and any(c in query for c in "*?["):
        pattern = query.lower()

        def match(rule: Rule) -> bool:
            return fnmatch.fnmatchcase(rule.cuda.lower(), pattern) or fnmatch.fnmatchcase(rule.hip.lower(), pattern)
    elif query:
        needle = query.lower()

        def match(rule: Rule) -> bool:
            return needle in rule.cuda.lower() or needle in rule.hip.lower()
    else:

        def match(rule: Rule) -> bool:
            return True

    chosen = [
        r
        for r in rules.rules
        if (not families or r.family in families)
        and (not statuses or r.status in statuses)
        and (not kinds or r.kind in kinds)
        and match(r)
    ]
    return sorted(chosen, key=sort_key)


def sort_key(rule: Rule) -> tuple:
    return (rule.family, KIND_ORDER.index(rule.kind), rule.cuda.lower(), rule.cuda)


def counts(rules: list[Rule]) -> dict[str, dict[str, int]]:
    """family → {status: count, 'total': count}, plus a 'TOTAL' row."""
    table: dict[str, Counter] = {}
    for rule in rules:
        row = table.setdefault(rule.family, Counter())
        row[rule.status] += 1
        row["total"] += 1
    total: Counter = Counter()
    for row in table.values():
        total.update(row)
    out = {family: {s: row.get(s, 0) for s in (*STATUS_ORDER, "total")} for family, row in sorted(table.items())}
    out["TOTAL"] = {s: total.get(s, 0) for s in (*STATUS_ORDER, "total")}
    return out


def kind_counts(rules: list[Rule]) -> dict[str, dict[str, int]]:
    """family → {kind: count}."""
    table: dict[str, Counter] = {}
    for rule in rules:
        table.setdefault(rule.family, Counter())[rule.kind] += 1
    return {family: {k: row.get(k, 0) for k in KIND_ORDER} for family, row in sorted(table.items())}


def _md(text: str) -> str:
    """Make a value safe inside a Markdown table cell."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _versions(rule: Rule) -> str:
    parts = []
    for label, value in (("A", rule.cuda_added), ("D", rule.cuda_deprecated), ("R", rule.cuda_removed)):
        if value:
            parts.append(f"{label} {value}")
    return ", ".join(parts)


def _environment():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=False,  # Markdown, not HTML: cells are escaped by the md filter
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["md"] = _md
    env.filters["versions"] = _versions
    return env


def _family_context(family: str, rules: list[Rule]) -> dict:
    meta = rules[0] if rules else None
    return {
        "family": family,
        "library": meta.library if meta else "",
        "hip_library": meta.hip_library if meta else "",
        "counts": counts(rules)[family] if rules else {s: 0 for s in (*STATUS_ORDER, "total")},
        "by_status": [(s, [r for r in rules if r.status == s]) for s in STATUS_ORDER],
        # library families also name rocX (--roc) and MIOpen (--miopen) targets
        "extra_targets": [(label, attr) for label, attr in (("roc", "roc"), ("MIOpen", "miopen"))
                          if any(getattr(r, attr) for r in rules)],
    }


def render_family(family: str, rules: list[Rule]) -> str:
    """One family's support table (rules must all belong to *family*)."""
    return _environment().get_template("family.md.j2").render(**_family_context(family, rules), statuses=STATUS_ORDER)


def render_markdown(rules: list[Rule], title: str = "CUDA → HIP support tables") -> str:
    """A single document: the summary and then every family's table."""
    families = sorted({r.family for r in rules})
    sections = [_family_context(f, [r for r in rules if r.family == f]) for f in families]
    return _environment().get_template("support.md.j2").render(
        title=title, summary=counts(rules), statuses=STATUS_ORDER, sections=sections, links=False
    )


def write_markdown_dir(rules: list[Rule], directory: Path) -> list[Path]:
    """One ``<family>.md`` per family plus ``README.md`` with the summary; returns the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    families = sorted({r.family for r in rules})
    for family in families:
        path = directory / f"{family}.md"
        path.write_text(render_family(family, [r for r in rules if r.family == family]), encoding="utf-8")
        written.append(path)
    index = _environment().get_template("support.md.j2").render(
        title="CUDA → HIP support tables", summary=counts(rules), statuses=STATUS_ORDER, sections=[], links=True
    )
    (directory / "README.md").write_text(index, encoding="utf-8")
    written.append(directory / "README.md")
    return written
