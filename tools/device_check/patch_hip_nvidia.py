#!/usr/bin/env python3
"""Make HIP's NVIDIA-platform header compile with the installed CUDA.

Why: Debian's HIP 5.2 ships ``hip/nvidia_detail/nvidia_hip_runtime_api.h``, a layer of inline
functions over the CUDA runtime written for CUDA 11.  CUDA 12 and 13 removed or changed some of
what it calls (texture references, ``cudaDeviceProp::clockRate``, graph-edge signatures…), so
``#include <hip/hip_runtime.h>`` with ``HIP_PLATFORM=nvidia`` no longer compiles at all, even
in programs that use none of those functions.

This script copies the header into ``OUT/hip/nvidia_detail/`` (put ``-I OUT`` before
``-I/usr/include``; HIP's own include of it falls through to the search path) and edits the copy
until a probe translation unit compiles with nvcc:

* an error on an assignment statement to a removed struct member: that one line is dropped;
* any other error: the whole enclosing inline function is dropped (its callers then fail to
  compile, so nothing silently changes behaviour).

The system header is never modified.  Each dropped piece is listed on stderr.

usage: patch_hip_nvidia.py OUT [--nvcc PATH] [--hip-include /usr/include]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HEADER = Path("hip/nvidia_detail/nvidia_hip_runtime_api.h")
PROBE = "#include <hip/hip_runtime.h>\nint main() { return 0; }\n"
ERROR = re.compile(r"^(?P<file>.*?)\((?P<line>\d+)\): error: (?P<msg>.*)$", re.M)


def compile_probe(nvcc: str, out: Path, hip_include: Path) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.cu"
        src.write_text(PROBE)
        env = dict(os.environ, HIP_PLATFORM="nvidia")
        proc = subprocess.run(
            [nvcc, "-x", "cu", "-c", str(src), "-o", str(Path(tmp) / "probe.o"),
             "-I", str(out), "-I", str(hip_include), "-D__HIP_PLATFORM_NVIDIA__"],
            capture_output=True, text=True, env=env, timeout=600,
        )
    return "" if proc.returncode == 0 else proc.stdout + proc.stderr


def function_span(lines: list[str], index: int) -> tuple[int, int]:
    """Lines [start, end] (0-based) of the top-level definition containing line ``index``.

    The header's style: a definition starts at column 0 (signature continuations and bodies are
    indented), a body closes with ``}`` at column 0, and ``template <…>`` sits on its own line."""
    start = index
    while start > 0 and not re.match(r"^[A-Za-z_]", lines[start]):
        start -= 1
    if start > 0 and lines[start - 1].startswith("template"):
        start -= 1
    end = index
    while end < len(lines) - 1 and not lines[end].startswith("}"):
        end += 1
    return start, end


ASSIGNMENT = re.compile(r"^\s*[\w.>\-\[\]]+\s*=[^;]*;\s*(//.*)?$")


def patch(out: Path, nvcc: str, hip_include: Path, max_rounds: int = 20) -> int:
    target = out / HEADER
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(hip_include / HEADER, target)
    for _ in range(max_rounds):
        errors = compile_probe(nvcc, out, hip_include)
        if not errors:
            return 0
        lines = target.read_text().split("\n")
        ours = [(int(m["line"]) - 1, m["msg"]) for m in ERROR.finditer(errors)
                if Path(m["file"]).resolve() == target.resolve()]
        if not ours:
            sys.stderr.write(errors)
            return 1
        drop: set[int] = set()
        replace: dict[int, str] = {}
        for index, msg in sorted(ours, reverse=True):
            if index in drop or index in replace:
                continue
            start, end = function_span(lines, index)
            if ASSIGNMENT.match(lines[index]):
                if "has no member" in msg:  # a field CUDA removed: the copy just skips it
                    drop.add(index)
                    print(f"dropped line {index + 1}: {lines[index].strip()}  ({msg})", file=sys.stderr)
                    continue
                if "hipError_t" in " ".join(lines[start:index]):  # e.g. an attribute CUDA removed
                    indent = lines[index][: len(lines[index]) - len(lines[index].lstrip())]
                    replace[index] = indent + "return hipErrorNotSupported;"
                    print(f"line {index + 1} now returns hipErrorNotSupported: {lines[index].strip()}  ({msg})",
                          file=sys.stderr)
                    continue
            drop.update(range(start, end + 1))
            print(f"dropped lines {start + 1}-{end + 1}: {lines[start].strip()}  ({msg})", file=sys.stderr)
        lines = [replace.get(i, line) for i, line in enumerate(lines)]
        target.write_text("\n".join(line for i, line in enumerate(lines) if i not in drop))
    sys.stderr.write("still failing after %d rounds\n" % max_rounds)
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    parser.add_argument("--hip-include", type=Path, default=Path("/usr/include"))
    args = parser.parse_args(argv)
    if not (args.hip_include / HEADER).is_file():
        print(f"{args.hip_include / HEADER}: not found (install HIP's headers)", file=sys.stderr)
        return 1
    return patch(args.out, args.nvcc, args.hip_include)


if __name__ == "__main__":
    sys.exit(main())
