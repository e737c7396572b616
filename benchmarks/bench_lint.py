"""Benchmark ``hipport lint``: files/s on a generated tree, serial and parallel, and the
end-to-end time of one ``hipport lint f.cu`` process (the pre-commit case).

    python benchmarks/bench_lint.py [--files 2000] [--jobs N]

The tree mixes the kinds of file a real CUDA project has: most have no version checks at all
(the fast path), some have ``#if CUDA_VERSION`` guards, runtime version queries and HIP
version macros, in nested conditionals.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAIN = """#include <cuda_runtime.h>
// kernel {i}
__global__ void k{i}(float* out, const float* in, int n) {{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) out[idx] = in[idx] * {i}.0f;  /* #if CUDA_VERSION in a comment */
}}
void launch{i}(float* o, const float* in, int n, cudaStream_t s) {{
  k{i}<<<(n + 255) / 256, 256, 0, s>>>(o, in, n);
}}
"""

GUARDED = """#ifndef USE_ROCM
#if defined(CUDA_VERSION) && CUDA_VERSION >= {v}
#define HAS_FEATURE_{i} 1
#endif
#endif
#if defined(CUDA_VERSION) && CUDA_VERSION >= {v}
static const int feature_{i} = 1;
#elif defined(__HIP_PLATFORM_AMD__) && HIP_VERSION >= 403
static const int feature_{i} = 2;
#else
static const int feature_{i} = 0;
#endif
int query{i}() {{
  int version = 0;
  cudaDriverGetVersion(&version);
  if (version >= {v}) return 1;
  return 0;
}}
"""


def make_tree(root: Path, count: int, seed: int = 1) -> int:
    rng = random.Random(seed)
    total = 0
    for i in range(count):
        folder = root / f"mod{i % 40:02}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "".join(PLAIN.format(i=i * 10 + j) for j in range(rng.randrange(3, 12)))
        if rng.random() < 0.25:
            body += GUARDED.format(i=i, v=rng.choice([9000, 10020, 11000, 11080, 12000]))
        path = folder / f"file{i}.{rng.choice(['cu', 'cuh', 'cpp', 'h'])}"
        path.write_text(body)
        total += len(body)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()

    from hipport.lint import lint_paths
    from hipport.lint_config import LintConfig

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "tree"
        size = make_tree(root, args.files)
        print(f"tree: {args.files} files, {size / 1e6:.1f} MB")
        for jobs in sorted({1, args.jobs}):
            start, cpu0 = time.perf_counter(), time.process_time()
            diags = lint_paths([root], config=LintConfig(), jobs=jobs)
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu0
            # serial CPU time is the machine-independent figure; wall time includes other load
            extra = f", {args.files / cpu:,.0f} files/s per CPU second" if jobs == 1 else ""
            print(f"jobs={jobs}: {elapsed:.2f} s wall, {args.files / elapsed:,.0f} files/s, "
                  f"{size / 1e6 / elapsed:.1f} MB/s, {len(diags)} findings{extra}")
        one = next(root.rglob("*.cu"))
        walls, cpus = [], []
        for _ in range(5):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "hipport", "lint", str(one)], capture_output=True, cwd=ROOT)
            walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        print(f"one file end to end (hipport lint f.cu): best {min(walls) * 1000:.0f} ms wall, "
              f"{min(cpus) * 1000:.0f} ms CPU")


if __name__ == "__main__":
    main()
