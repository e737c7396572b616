"""Benchmark: lint the installed torch package's own Python sources with the HT rules.

Reports files/s (all files, and the parsed subset), findings per rule, HP000 parse failures,
and writes every finding to a JSON file so a sample can be read by hand to judge the
false-positive rate (see the report in the README / issue).

    python3 benchmarks/bench_python_lint.py [--jobs N] [--limit N] [--out findings.json] [ROOT]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _lint(path: str, fix_check: bool = False):
    from hipport.python import check_python, fix_python
    from hipport.python.engine import triggered

    data = Path(path).read_bytes()
    start = time.perf_counter()
    diags = check_python(data, path)
    elapsed = time.perf_counter() - start
    problems = []
    if fix_check and any(d.fix is not None for d in diags):
        # the fixes on real code: still valid Python, and fixing again changes nothing
        fixed, _ = fix_python(data, path)
        try:
            compile(fixed, path, "exec")
        except SyntaxError as exc:
            problems.append(f"{path}: fixed code does not compile: {exc}")
        if fix_python(fixed, path)[0] != fixed:
            problems.append(f"{path}: fix is not idempotent")
        if fixed == data:
            problems.append(f"{path}: fixable findings but nothing changed")
    return path, len(data), bool(triggered(data)), elapsed, [d.to_dict() for d in diags], problems


def _lint_and_fix(path: str):
    return _lint(path, True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", help="directory to lint (default: the installed torch package)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--limit", type=int, default=0, help="lint only the first N files")
    parser.add_argument("--out", default="", help="write all findings as JSON here")
    parser.add_argument("--fix-check", action="store_true",
                        help="also apply the fixes and check they compile and are idempotent")
    args = parser.parse_args(argv)
    if args.root:
        root = Path(args.root)
    else:
        import importlib.util

        root = Path(importlib.util.find_spec("torch").origin).parent
    files = sorted(str(p) for p in root.rglob("*.py"))
    if args.limit:
        files = files[:args.limit]
    start = time.perf_counter()
    results = []
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(_lint_and_fix if args.fix_check else _lint, files, chunksize=8))
    else:
        results = [_lint(f, args.fix_check) for f in files]
    wall = time.perf_counter() - start
    per_rule = Counter(d["code"] for *_, diags, _problems in results for d in diags)
    parsed = [r for r in results if r[2]]
    size = sum(r[1] for r in results)
    print(f"root: {root}")
    print(f"files: {len(results)} ({size / 1e6:.1f} MB), parsed (trigger matched): {len(parsed)}")
    print(f"wall: {wall:.1f} s with {args.jobs} jobs -> {len(results) / wall:.1f} files/s, "
          f"{size / 1e6 / wall:.2f} MB/s")
    cpu = sum(r[3] for r in results)
    print(f"cpu in check_python: {cpu:.1f} s; parsed files {len(parsed) / max(sum(r[3] for r in parsed), 1e-9):.1f} files/s/core")
    print("findings per rule:")
    for code in sorted(per_rule):
        print(f"  {code}: {per_rule[code]}")
    fixable = sum(1 for *_, diags, _p in results for d in diags if d["fix"] is not None)
    print(f"findings with a fix: {fixable}")
    problems = [p for *_, probs in results for p in probs]
    if args.fix_check:
        print(f"fix check: {len(problems)} problem(s)")
        for problem in problems:
            print("  " + problem)
    if args.out:
        findings = [d for *_, diags, _problems in results for d in diags]
        Path(args.out).write_text(json.dumps(findings, indent=1))
        print(f"findings written to {args.out}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
