"""End to end: convert the bundled examples with ``hipport convert`` as a user would, then
configure the converted projects with real CMake (HIP language, HIP_PLATFORM=amd) and build
them for gfx90a; and build the example that keeps CUDA as the source of truth through
``hipport_translate_sources``.

All CMake examples are built in one configure (examples/CMakeLists.txt adds each directory), so
the HIP compiler is detected once; each directory also converts and builds on its own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hipport.build import cmake_dir
from hipport.runtime import include_dir
from hipport.tree import convert_tree
from tests.conftest import ROOT, require_tool

EXAMPLES = ROOT / "examples"
CMAKE_EXAMPLES = ("saxpy", "reduction", "monte_carlo_pi", "spmv")


def _env() -> dict:
    return dict(os.environ, HIP_PLATFORM="amd", PYTHONPATH=str(ROOT))


def _run(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return proc


def _cmake_args() -> list[str]:
    args = ["-G", "Ninja"] if shutil.which("ninja") else ["-G", "Unix Makefiles"]
    if not Path("/opt/rocm/lib/cmake/hip-lang/hip-lang-config.cmake").exists():
        args.append(f"-DCMAKE_TOOLCHAIN_FILE={cmake_dir() / 'HipportDebianROCm.cmake'}")
    return args + ["-DCMAKE_HIP_ARCHITECTURES=gfx90a", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"]


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    """``hipport convert examples -o DST --report DST.json``, run as a subprocess."""
    out = tmp_path_factory.mktemp("examples") / "hip"
    report = out.parent / "report.json"
    proc = _run([sys.executable, "-m", "hipport", "convert", str(EXAMPLES), "-o", str(out), "--report", str(report)])
    return out, json.loads(report.read_text()), proc


def test_examples_convert_cleanly(converted):
    out, report, proc = converted
    assert report["totals"]["errors"] == 0 and report["totals"]["unsupported"] == 0
    files = {f["path"]: f for f in report["files"]}
    for name in CMAKE_EXAMPLES:
        cmake = (out / name / "CMakeLists.txt").read_text()
        code = "\n".join(line for line in cmake.splitlines() if not line.lstrip().startswith("#"))
        assert "LANGUAGES CXX HIP" in code and "CUDA" not in code, name
    for path, f in files.items():
        if path.endswith((".cu", ".cuh")):
            assert f["status"] == "translated" and f["converted"] > 0, path
            text = (out / path).read_text()
            assert "cudaMalloc(" not in text and "cudaStream_t" not in text
    assert "#include <hiprand/hiprand_kernel.h>" in (out / "monte_carlo_pi" / "pi.cu").read_text()
    assert "hipsparseSpMV(" in (out / "spmv" / "spmv.cu").read_text()
    # the reduction's full-warp shuffle becomes HIP's whole-wavefront shuffle: no lane-mask
    # hazard remains and no shim header is needed
    red = files["reduction/reduction.cu"]
    assert "v += __shfl_down(v, offset);" in (out / "reduction" / "reduction.cu").read_text()
    assert not any(d["code"] == "HP011" for d in red["diagnostics"])


def test_each_example_converts_alone_to_the_same_bytes(converted, tmp_path):
    out, _, _ = converted
    for name in (*CMAKE_EXAMPLES, "keep_cuda", "torch_extension"):
        alone = convert_tree(EXAMPLES / name, tmp_path / name, jobs=1)
        assert alone.errors == []
        for f in alone.files:
            assert (tmp_path / name / f.output).read_bytes() == (out / name / f.output).read_bytes(), f.path


def test_converted_examples_build_for_gfx90a(converted, tmp_path):
    cmake = require_tool("cmake")
    require_tool("hipcc")
    out, _, _ = converted
    build = tmp_path / "build"
    # translated code that uses warp intrinsics includes <hipport/compat.h>: give its directory
    _run([cmake, "-S", str(out), "-B", str(build), *_cmake_args(),
          f"-DCMAKE_HIP_STANDARD_INCLUDE_DIRECTORIES={include_dir()}"])
    _run([cmake, "--build", str(build), "-j", "2"])
    for name in CMAKE_EXAMPLES:
        assert (build / name / name).is_file(), name
    commands = {Path(e["file"]).name: e["command"] for e in json.loads((build / "compile_commands.json").read_text())}
    for source in ("saxpy.cu", "reduction.cu", "pi.cu", "spmv.cu"):
        assert "-x hip" in commands[source] and "--offload-arch=gfx90a" in commands[source]
    assert "-ffast-math" in commands["saxpy.cu"]  # the nvcc flag was converted
    link = (build / "build.ninja").read_text() if (build / "build.ninja").exists() else ""
    if link:
        assert "libhiprand" in link and "libhipsparse" in link


def test_keep_cuda_example_translates_at_build_time(tmp_path):
    cmake = require_tool("cmake")
    require_tool("hipcc")
    build = tmp_path / "build"
    source = EXAMPLES / "keep_cuda"
    _run([cmake, "-S", str(source), "-B", str(build), *_cmake_args(), f"-DHIPPORT_CMAKE_DIR={cmake_dir()}",
          f"-DHIPPORT_PYTHON={sys.executable}"])
    first = _run([cmake, "--build", str(build), "-j", "2"]).stdout
    assert "hipport: translating src/histogram.cu" in first
    assert (build / "histogram").is_file()
    translated = (build / "hipport" / "src" / "histogram.cu").read_text()
    assert "hipMalloc(&d_data" in translated and "cudaMalloc" not in translated
    assert "hipError_t" in (build / "hipport" / "src" / "histogram.cuh").read_text()
    assert "cudaMalloc(&d_data" in (source / "src" / "histogram.cu").read_text()  # CUDA stays the source
    assert "translating" not in _run([cmake, "--build", str(build)]).stdout  # nothing changed, nothing redone


def test_renamed_example_builds(tmp_path):
    """``--rename-cu``: .cu → .hip and .cuh → .hip.h, with the include and CMake references following."""
    cmake = require_tool("cmake")
    require_tool("hipcc")
    out = tmp_path / "saxpy-hip"
    _run([sys.executable, "-m", "hipport", "convert", str(EXAMPLES / "saxpy"), "-o", str(out), "--rename-cu"])
    assert sorted(p.name for p in (out / "src").iterdir()) == ["check.hip.h", "saxpy.hip"]
    assert '#include "check.hip.h"' in (out / "src" / "saxpy.hip").read_text()
    lists = (out / "CMakeLists.txt").read_text()
    assert "add_executable(saxpy src/saxpy.hip)" in lists and "LANGUAGE HIP" not in lists
    build = tmp_path / "build"
    _run([cmake, "-S", str(out), "-B", str(build), *_cmake_args()])
    _run([cmake, "--build", str(build)])
    assert (build / "saxpy").is_file()
