"""Rendering translation statistics: a rich table for people, CSV for spreadsheets and CI."""

from __future__ import annotations

import csv
import io

from hipport.cxx.context import Stats


def rows(stats: Stats) -> list[tuple[str, str, int]]:
    out = []
    for key, count in sorted(stats.converted.items()):
        family, _, kind = key.partition("/")
        out.append(("converted", f"{family} {kind}", count))
    for name, count in sorted(stats.unsupported.items()):
        out.append(("unsupported", name, count))
    return out


def render_stats(stats: Stats, stream) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=stream, highlight=False, soft_wrap=True)
    table = Table(title="hipport translation statistics", show_lines=False)
    table.add_column("what")
    table.add_column("API family / name")
    table.add_column("references", justify="right")
    for what, name, count in rows(stats):
        table.add_row(what, name, str(count))
    console.print(table)
    rate = stats.bytes / stats.seconds / 1e6 if stats.seconds else 0.0
    console.print(
        f"files: {stats.files} (changed {stats.changed_files})  lines: {stats.lines}  bytes: {stats.bytes}  "
        f"converted: {stats.total_converted}  unsupported: {sum(stats.unsupported.values())}  "
        f"time: {stats.seconds:.3f}s ({rate:.1f} MB/s)"
    )
    if stats.libraries:
        console.print("link with: " + ", ".join(sorted(stats.libraries)))


def write_csv(stats: Stats, path: str) -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["kind", "name", "count"])
    for what, name, count in rows(stats):
        writer.writerow([what, name, count])
    writer.writerow(["total", "converted", stats.total_converted])
    writer.writerow(["total", "unsupported", sum(stats.unsupported.values())])
    writer.writerow(["total", "files", stats.files])
    writer.writerow(["total", "lines", stats.lines])
    writer.writerow(["total", "bytes", stats.bytes])
    writer.writerow(["total", "seconds", f"{stats.seconds:.6f}"])
    for lib in sorted(stats.libraries):
        writer.writerow(["library", lib, 1])
    from hipport.fileio import write_atomic

    write_atomic(path, buf.getvalue().encode())
