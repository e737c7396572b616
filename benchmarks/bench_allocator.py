#!/usr/bin/env python3
"""Benchmark the hipport caching allocator: cached vs HIPPORT_NO_CACHING=1.

Builds benchmarks/bench_allocator.cpp with g++ -O2 against the host backend (device memory
comes from mmap, streams are simulated), runs it with caching on and off, and prints

  * alloc/free pairs per second for 512 B, 64 KiB, 1 MiB and 16 MiB, on 1 and 4 threads;
  * fragmentation on a mixed-size trace: mean and peak reserved/allocated.

On the host backend the "device allocator" is an mmap/munmap pair, far cheaper than a real
hipMalloc/hipFree (tens to hundreds of microseconds, and hipFree synchronises the device), so
the cached/uncached ratio here understates what a GPU sees; tools/device_check measures that.

usage: python3 benchmarks/bench_allocator.py [--seconds S] [--steps N] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hipport import runtime  # noqa: E402


def build(out: Path) -> Path:
    gxx = shutil.which("g++")
    if gxx is None:
        sys.exit("bench_allocator: g++ not found")
    exe = out / "bench_allocator"
    cmd = [gxx, "-std=c++17", "-O2", "-DNDEBUG", "-DHIPPORT_HOST_BACKEND", "-I", str(runtime.include_dir()),
           str(ROOT / "benchmarks" / "bench_allocator.cpp"), *map(str, runtime.sources("host")),
           "-pthread", "-o", str(exe)]
    subprocess.run(cmd, check=True)
    return exe


def run(exe: Path, caching: bool, *args: str) -> list[dict]:
    env = {k: v for k, v in os.environ.items() if k not in ("HIPPORT_NO_CACHING", "PYTORCH_NO_CUDA_MEMORY_CACHING")}
    if not caching:
        env["HIPPORT_NO_CACHING"] = "1"
    proc = subprocess.run([str(exe), *args], capture_output=True, text=True, env=env, check=True)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def human(n: float) -> str:
    for unit in ("", "K", "M"):
        if n < 1000:
            return f"{n:.3g}{unit}"
        n /= 1000
    return f"{n:.3g}G"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", default="0.3", help="time per pairs/s measurement")
    parser.add_argument("--steps", default="20000", help="steps of the fragmentation trace")
    parser.add_argument("--json", type=Path, help="also write all results to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(Path(tmp))
        results = {mode: run(exe, mode == "cached", "pairs", args.seconds) + run(exe, mode == "cached", "fragment", args.steps)
                   for mode in ("cached", "uncached")}
    print("alloc/free pairs per second (host backend)")
    print(f"{'size':>10} {'threads':>7} {'cached':>10} {'uncached':>10} {'speed-up':>9}")
    uncached = {(r["size"], r["threads"]): r["rate"] for r in results["uncached"] if r["bench"] == "pairs_per_second"}
    for r in results["cached"]:
        if r["bench"] != "pairs_per_second":
            continue
        slow = uncached[(r["size"], r["threads"])]
        print(f"{r['size']:>10} {r['threads']:>7} {human(r['rate']):>10} {human(slow):>10} {r['rate'] / slow:>8.1f}x")
    print("\nfragmentation on a mixed-size trace (256 B .. 64 MiB, log-uniform)")
    for mode in ("cached", "uncached"):
        f = next(r for r in results[mode] if r["bench"] == "fragmentation")
        print(f"{mode:>9}: mean reserved/allocated {f['mean_reserved_over_allocated']:.3f}, "
              f"peak reserved/peak allocated {f['peak_ratio']:.3f}, "
              f"device allocations {f['device_allocs']} for {f['allocations']} requests")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
