"""``hipport convert`` over a generated tree of a few thousand realistic files: cold and incremental.

Run: ``python3 benchmarks/bench_convert.py [--files 3000] [--jobs N]``.  The tree mixes what a
CUDA repository holds — kernels (the bundled examples and test programs, varied per file),
headers shared by many sources, host C++, Python, CMake files, docs and binary data — in nested
directories with a ``.gitignore``.  Prints files/s and MB/s for a cold run, an unchanged re-run
(target: under 10% of the cold time) and a re-run after touching 1% of the sources.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOST_CPP = b"""#include <vector>
#include <string>
#include "common/util.cuh"
namespace app {
std::vector<int> plan_%d(int n) { std::vector<int> v(n); for (int i = 0; i < n; ++i) v[i] = i * %d; return v; }
}  // namespace app
"""
PYTHON = b"""import torch

def run_%d(x):
    if torch.version.cuda:
        x = x.to("cuda")
    return torch.nn.functional.relu(x) * %d
"""
CMAKE = b"""cmake_minimum_required(VERSION 3.18)
project(part%d LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 70 80)
find_package(CUDAToolkit REQUIRED)
file(GLOB SRCS *.cu *.cpp)
add_library(part%d STATIC ${SRCS})
target_link_libraries(part%d PRIVATE CUDA::cudart CUDA::cublas)
"""


def kernels() -> list[bytes]:
    files = sorted((ROOT / "examples").glob("**/*.cu")) + sorted((ROOT / "tests" / "data").glob("**/*.cu"))
    return [p.read_bytes() for p in files if p.stat().st_size < 200_000] or [b"__global__ void k() {}\n"]


def generate(root: Path, n_files: int, seed: int = 1) -> int:
    """Write about ``n_files`` files under ``root``; returns the total bytes."""
    rng = random.Random(seed)
    bodies = kernels()
    (root / "common").mkdir(parents=True)
    (root / "common" / "util.cuh").write_bytes(
        b"#pragma once\n#include <cuda_runtime.h>\n#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) "
        b"throw e; } while (0)\ninline void sync_all() { CHECK(cudaDeviceSynchronize()); }\n")
    (root / ".gitignore").write_bytes(b"build/\n*.o\n")
    (root / "build").mkdir()
    (root / "build" / "ignored.o").write_bytes(b"\0" * 1000)
    total = 0
    dirs = max(1, n_files // 40)
    made = 0
    for d in range(dirs):
        part = root / f"module{d // 10}" / f"part{d}"
        part.mkdir(parents=True)
        (part / "CMakeLists.txt").write_bytes(CMAKE % (d, d, d))
        made += 1
        for i in range(39):
            if made >= n_files:
                break
            kind = rng.random()
            if kind < 0.45:
                body = rng.choice(bodies).replace(b"main(", f"main_{d}_{i}(".encode())
                data = b'#include "../../common/util.cuh"\n' + body
                name = f"k{i}.cu"
            elif kind < 0.60:
                data = b"#pragma once\n#include <cuda_runtime.h>\n" + rng.choice(bodies)[:2000]
                name = f"h{i}.cuh"
            elif kind < 0.78:
                data, name = HOST_CPP % (i, i), f"host{i}.cpp"
            elif kind < 0.86:
                data, name = PYTHON % (i, i), f"ops{i}.py"
            elif kind < 0.95:
                data, name = (b"# notes\n" + b"cudaMalloc is mentioned in docs.\n" * 20), f"README{i}.md"
            else:
                data, name = bytes(rng.randrange(256) for _ in range(4096)), f"blob{i}.bin"
            (part / name).write_bytes(data)
            total += len(data)
            made += 1
    return total


def timed(src: Path, dst: Path, jobs: int | None):
    from hipport.tree import convert_tree

    t = time.perf_counter()
    report = convert_tree(src, dst, jobs=jobs)
    return time.perf_counter() - t, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="hipport-bench-"))
    try:
        src, dst = tmp / "src", tmp / "dst"
        size = generate(src, args.files)
        cold, report = timed(src, dst, args.jobs)
        warm, again = timed(src, dst, args.jobs)
        sources = sorted(p for p in src.rglob("*.cu"))
        for p in sources[:: max(1, len(sources) // max(1, len(sources) // 100))][: max(1, len(sources) // 100)]:
            p.write_bytes(p.read_bytes() + b"\n// edited\n")
        touched, third = timed(src, dst, args.jobs)
        n = len(report.files)
        rows = [
            ("cold", cold, report.totals["translated"], report.totals["cached"]),
            ("unchanged re-run", warm, again.totals["translated"], again.totals["cached"]),
            ("1% edited re-run", touched, third.totals["translated"], third.totals["cached"]),
        ]
        print(f"tree: {n} files, {size / 1e6:.1f} MB, {report.totals['ignored']} ignored; jobs={report.jobs}")
        print(f"{'run':<18} {'seconds':>8} {'files/s':>9} {'MB/s':>7} {'cached':>7}")
        for name, secs, _, cached in rows:
            print(f"{name:<18} {secs:8.2f} {n / secs:9.0f} {size / secs / 1e6:7.2f} {cached:7d}")
        print(f"unchanged re-run / cold = {warm / cold:.1%} (target < 10%)")
        assert report.errors == [], report.errors[:5]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
