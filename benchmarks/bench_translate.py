"""Throughput of the translator on a multi-MB input, and start-up cost of a one-file run.

Run: ``python3 benchmarks/bench_translate.py [--mb 8] [--repeat 3]``.  Prints a small table;
figures are reported in the issue's closing note, never asserted in tests.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def corpus(megabytes: float) -> bytes:
    """Realistic user CUDA code (the test and example programs), repeated to the wanted size.

    Not the toolkit's own headers: they declare the API names themselves, which sends every
    occurrence to libclang — right for such a file, unrepresentative of user code.
    """
    files = sorted((ROOT / "tests" / "data").glob("**/*.cu")) + sorted((ROOT / "examples").glob("**/*.cu"))
    parts = [p.read_bytes() for p in files]
    blob = b"\n".join(parts)
    want = int(megabytes * 1e6)
    return (blob * (want // len(blob) + 1))[:want]


def bench_throughput(data: bytes, repeat: int) -> dict:
    from hipport.cxx.translate import translate_bytes
    from hipport.options import Options
    from hipport.rules import default_rules

    default_rules()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        result = translate_bytes(data, "bench.cu", Options())
        times.append(time.perf_counter() - t)
    best = min(times)
    return {
        "bytes": len(data),
        "lines": data.count(b"\n"),
        "best_s": best,
        "median_s": statistics.median(times),
        "MB/s": len(data) / best / 1e6,
        "lines/s": data.count(b"\n") / best,
        "edits": result.stats.total_converted,
        "peak_rss_MB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def bench_sweep(data: bytes, repeat: int) -> dict:
    """The lexical sweep alone (comments, literals, directives, launches, candidate names)."""
    from hipport.cxx.scan import scan
    from hipport.cxx.translate import _prefixes
    from hipport.rules import default_rules

    rules = default_rules()
    prefixes = _prefixes(rules)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        scan(data, prefixes)
        best = min(best, time.perf_counter() - t)
    return {"sweep MB/s": len(data) / best / 1e6}


def bench_startup(repeat: int) -> dict:
    """A one-file run as an installed user sees it: with byte-code caches (pip compiles them at
    install time), even where the environment sets PYTHONDONTWRITEBYTECODE."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "one.cu"
        src.write_text("#include <cuda_runtime.h>\nint main() { float* p; cudaMalloc(&p, 4); cudaFree(p); }\n")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        subprocess.run([sys.executable, "-m", "hipport", "translate", "--stdout", str(src)], capture_output=True, env=env)

        def timed(cmd):
            best = float("inf")
            for _ in range(repeat):
                t = time.perf_counter()
                subprocess.run(cmd, capture_output=True, check=True, env=env)
                best = min(best, time.perf_counter() - t)
            return best

        base = timed([sys.executable, "-c", "pass"])
        one = timed([sys.executable, "-m", "hipport", "translate", "--stdout", str(src)])
    return {"python -c pass (s)": base, "hipport translate one file (s)": one, "ratio": one / base}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=8.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    data = corpus(args.mb)
    figures = {**bench_throughput(data, args.repeat), **bench_sweep(data, args.repeat),
               **bench_startup(max(args.repeat, 5))}
    for key, value in figures.items():
        print(f"{key:>34}: {value:,.3f}" if isinstance(value, float) else f"{key:>34}: {value:,}")
    print(f"{'cores':>34}: {os.cpu_count()}")


if __name__ == "__main__":
    main()
