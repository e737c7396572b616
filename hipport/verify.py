"""``convert --verify``: compile each translated translation unit and put what fails back on the CUDA.

Each translated source (``.cu``/``.hip`` and C++ sources the translation changed) is compiled
with ``hipcc -fsyntax-only --offload-arch=gfx90a -x hip``, the tree's include directories and,
when ``-p BUILD_DIR`` names a compilation database, the source's own ``-I``/``-D``/``-std`` flags
(paths inside SRC moved to the translated tree).
Compiler errors name the translated file and line; the translator keeps lines except where it
inserts whole lines (an ``#include <hip/hip_runtime.h>``), so a line map computed from the
difference between the original and the translated file places each error on the original CUDA
file and line.  The result is the porting work that remains, ranked: the most frequent message
first.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

from hipport.diagnostics import ERROR, Diagnostic, register
from hipport import lazy_re

register("HC010", "translated code does not compile with hipcc", ERROR)

SOURCE_SUFFIXES = (".cu", ".hip", ".cpp", ".cc", ".cxx")
DEFAULT_ARCH = "gfx90a"
_MESSAGE = lazy_re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: (?P<msg>.*)$", re.M)


def line_map(original: bytes, translated: bytes) -> list[int]:
    """For each translated line (0-based index), the 1-based original line it came from.

    Lines inside a replaced block map to the corresponding original line (clamped to the
    block); inserted lines map to the original line they precede.
    """
    a = original.split(b"\n")
    b = translated.split(b"\n")
    mapping = [0] * len(b)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for j in range(j1, j2):
            if tag == "equal":
                i = i1 + (j - j1)
            elif tag == "replace":
                i = min(i1 + (j - j1), i2 - 1)
            else:  # insert (delete has no translated lines)
                i = min(i1, max(len(a) - 1, 0))
            mapping[j] = i + 1
    return mapping


def find_hipcc() -> str | None:
    return shutil.which("hipcc")


def _include_dirs(tree, dst: Path, options) -> list[str]:
    dirs: list[str] = [str(dst)]
    for f in tree.files:
        if f.output and f.kind == "cxx" and Path(f.output).suffix in (".h", ".hpp", ".cuh", ".hh", ".hxx", ".inl"):
            d = str((dst / f.output).parent)
            if d not in dirs:
                dirs.append(d)
    for d in ("include", "inc", "src"):
        if (dst / d).is_dir() and str(dst / d) not in dirs:
            dirs.append(str(dst / d))
    from hipport.runtime import include_dir as runtime_include_dir

    dirs.append(str(runtime_include_dir()))  # hipport/compat.h & co. that translations include
    for d in options.include_dirs:
        p = d if os.path.isabs(d) else str(dst / d)
        if p not in dirs:
            dirs.append(p)
    return dirs[:64]


_KEPT_FLAGS = ("-I", "-D", "-U", "-isystem", "-iquote", "-include", "-std=")


def database_flags(build_dir: str | None, src: Path, dst: Path) -> dict[str, list[str]]:
    """Per source (relative to SRC): its -I/-D/-std flags from ``compile_commands.json`` in
    ``build_dir``, with paths inside SRC moved to DST (the translated tree)."""
    if not build_dir:
        return {}
    import json
    import shlex

    try:
        entries = json.loads((Path(build_dir) / "compile_commands.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    src_s, dst_s = str(src), str(dst)
    out: dict[str, list[str]] = {}
    for e in entries if isinstance(entries, list) else []:
        try:
            directory = e.get("directory", ".")
            args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
            file = os.path.realpath(os.path.join(directory, e["file"]))
        except (KeyError, TypeError, ValueError):
            continue
        if not file.startswith(src_s + os.sep):
            continue
        flags, i = [], 1
        while i < len(args):
            a = args[i]
            joined = next((f for f in _KEPT_FLAGS if a.startswith(f)), None)
            if joined is None:
                i += 1
                continue
            if a in ("-I", "-D", "-U", "-isystem", "-iquote", "-include") and i + 1 < len(args):
                a, value, i = a, args[i + 1], i + 2
            else:
                a, value, i = joined, a[len(joined):], i + 1
            if a in ("-I", "-isystem", "-iquote", "-include"):
                value = os.path.realpath(os.path.join(directory, value))
                if value == src_s or value.startswith(src_s + os.sep):
                    value = dst_s + value[len(src_s):]
            flags += [a + value] if a in ("-I", "-D", "-U", "-std=") else [a, value]
        out[Path(os.path.relpath(file, src_s)).as_posix()] = flags
    return out


def compile_one(hipcc: str, path: Path, include_dirs: list[str], defines=(), arch: str = DEFAULT_ARCH,
                timeout: int = 300, extra: list[str] = ()) -> str:
    cmd = [hipcc, "-fsyntax-only", f"--offload-arch={arch}", "-x", "hip", str(path), "-ferror-limit=50"]
    cmd += list(extra)
    cmd += [f"-I{d}" for d in [str(path.parent), *include_dirs]]
    cmd += [f"-D{d}" for d in defines]
    env = dict(os.environ, HIP_PLATFORM="amd")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"{path}:1:1: error: hipcc timed out after {timeout}s"
    return proc.stderr if proc.returncode else ""


def verify_tree(tree, src: Path, dst: Path, options, *, jobs: int = 1, hipcc: str | None = None,
                arch: str = DEFAULT_ARCH) -> list[Diagnostic]:
    """Compile the tree's translated sources; errors come back on the original files, ranked."""
    hipcc = hipcc or find_hipcc()
    if hipcc is None:
        return []
    units = [f for f in tree.files if f.kind == "cxx" and f.output and f.status != "error"
             and f.output.endswith(SOURCE_SUFFIXES)
             and (f.path.endswith((".cu", ".hip")) or (f.stats or {}).get("changed_files"))]
    include_dirs = _include_dirs(tree, dst, options)
    outputs = {f.output: f.path for f in tree.files if f.output}
    from concurrent.futures import ThreadPoolExecutor

    database = database_flags(options.build_dir, src, dst)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        logs = list(pool.map(lambda f: compile_one(hipcc, dst / f.output, include_dirs, options.defines, arch,
                                                   extra=database.get(f.path, ())), units))
    display_root = tree.src
    maps: dict[str, list[int]] = {}
    seen = set()
    diags: list[Diagnostic] = []
    for log in logs:
        for m in _MESSAGE.finditer(log):
            file = os.path.realpath(m["file"])
            line, col, msg = int(m["line"]), int(m["col"]), m["msg"].strip()
            rel_out = os.path.relpath(file, dst)
            origin = outputs.get(Path(rel_out).as_posix()) if not rel_out.startswith("..") else None
            if origin is not None:
                if origin not in maps:
                    try:
                        maps[origin] = line_map((src / origin).read_bytes(), (dst / rel_out).read_bytes())
                    except OSError:
                        maps[origin] = []
                lm = maps[origin]
                line = lm[line - 1] if 0 < line <= len(lm) else line
                where = os.path.join(display_root, origin)
            else:
                where = m["file"]
            key = (where, line, col, msg)
            if key in seen:  # a header's error repeats for every unit including it
                continue
            seen.add(key)
            diags.append(Diagnostic("HC010", msg, where, line, col, ERROR,
                                    hint="remaining porting work: hipcc rejects the translated code here"))
    return rank(diags)


def rank(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Most frequent message first (the fix that clears the most errors), then by place."""
    counts = Counter(_normalise(d.message) for d in diags)
    return sorted(diags, key=lambda d: (-counts[_normalise(d.message)], _normalise(d.message), d.path, d.line))


def _normalise(message: str) -> str:
    return re.sub(r"'[^']*'", "'…'", message)
