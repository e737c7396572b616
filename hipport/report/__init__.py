"""Reports of a ``convert_tree`` run: JSON for machines, one self-contained HTML page for people.

The JSON is :meth:`hipport.tree.TreeReport.to_dict` (per file: converted, unsupported, hazards,
diagnostics).  The HTML page (a jinja2 template, no external assets) shows the totals, the
per-library coverage, the findings with a code frame from the original source, and — after
``--verify`` — the remaining compile errors ranked by frequency.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent  # report.html.j2 sits beside this module (package data)
FRAME_CONTEXT = 2  # lines shown before and after a finding
MAX_FRAMES = 2000  # an HTML page stays openable on a huge tree


def render_json(tree) -> str:
    return json.dumps(tree.to_dict(), indent=2, sort_keys=False)


def _frame(cache: dict, root: Path, rel: str, line: int) -> list[tuple[int, str, bool]]:
    if line <= 0:
        return []
    if rel not in cache:
        try:
            cache[rel] = (root / rel).read_bytes().split(b"\n")
        except OSError:
            cache[rel] = []
    lines = cache[rel]
    lo, hi = max(1, line - FRAME_CONTEXT), min(len(lines), line + FRAME_CONTEXT)
    return [(n, lines[n - 1].rstrip(b"\r").decode("utf-8", "replace"), n == line) for n in range(lo, hi + 1)]


def findings(tree) -> list[dict]:
    """Every diagnostic of the run with its file's relative path and a code frame; errors and
    warnings first, notes (informational) last."""
    root = Path(tree.src)
    cache: dict = {}
    out = []
    for f in tree.files:
        for d in f.diagnostics:
            item = d.to_dict()
            item["file"] = f.path
            item["kind"] = ("unsupported" if d.code in _unsupported_codes()
                            else "note" if d.severity == "note" else "hazard")
            item["frame"] = _frame(cache, root, f.path, d.line) if len(out) < MAX_FRAMES else []
            out.append(item)
    order = {"error": 0, "warning": 1}
    return sorted(out, key=lambda item: order.get(item["severity"], 2))  # notes last; stable otherwise


def verify_items(tree) -> list[dict]:
    if not tree.verify:
        return []
    root = Path(tree.src)
    cache: dict = {}
    items = []
    for d in tree.verify:
        rel = os.path.relpath(d.path, tree.src) if not os.path.isabs(d.path) or d.path.startswith(tree.src) else d.path
        item = d.to_dict()
        item["frame"] = _frame(cache, root, rel, d.line) if len(items) < MAX_FRAMES else []
        items.append(item)
    return items


def _unsupported_codes():
    from hipport.tree import UNSUPPORTED_CODES

    return UNSUPPORTED_CODES


def render_html(tree) -> str:
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             autoescape=jinja2.select_autoescape(["html", "j2"]),
                             trim_blocks=True, lstrip_blocks=True)
    template = env.get_template("report.html.j2")
    from hipport import __version__

    return template.render(tree=tree, totals=tree.totals, coverage=tree.coverage(), findings=findings(tree),
                           verify=verify_items(tree), files=tree.files, version=__version__)


def write_report(tree, path: str | os.PathLike) -> None:
    """Write ``tree`` as JSON (``*.json``) or HTML (``*.html``/``*.htm``) to ``path``."""
    from hipport.fileio import write_atomic

    name = os.fspath(path).lower()
    if name.endswith((".html", ".htm")):
        text = render_html(tree)
    elif name.endswith(".json"):
        text = render_json(tree)
    else:
        raise ValueError(f"{path}: report must end in .json or .html")
    write_atomic(path, text.encode("utf-8"))
