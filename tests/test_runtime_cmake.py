"""find_package(hipportRuntime) with the directory `hipport runtime --cmake-dir` prints.

A small consumer project (tests/runtime/cmake_consumer) is configured and built with real
CMake: once on the host backend (built and run: the allocator answers), once on the HIP
backend through Debian's hip::host (built and linked against libamdhip64; run, it either
allocates on a GPU or reports hipErrorNoDevice without crashing).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import require_tool

CONSUMER = Path(__file__).resolve().parent / "runtime" / "cmake_consumer"


@pytest.fixture(scope="module")
def cmake_dir() -> str:
    proc = subprocess.run([sys.executable, "-m", "hipport", "runtime", "--cmake-dir"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    path = proc.stdout.strip()
    assert (Path(path) / "hipportRuntimeConfig.cmake").is_file()
    return path


def configure(tmp_path: Path, cmake_dir: str, *defs: str) -> subprocess.CompletedProcess:
    cmake = require_tool("cmake")
    return subprocess.run([cmake, "-S", str(CONSUMER), "-B", str(tmp_path / "build"),
                           f"-DhipportRuntime_DIR={cmake_dir}", *defs],
                          capture_output=True, text=True, timeout=300)


def build(tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([require_tool("cmake"), "--build", str(tmp_path / "build"), "-j2"],
                          capture_output=True, text=True, timeout=600)


def test_host_backend_builds_and_runs(tmp_path, cmake_dir):
    conf = configure(tmp_path, cmake_dir, "-DHIPPORT_RUNTIME_BACKEND=host")
    assert conf.returncode == 0, conf.stdout + conf.stderr
    assert "hipportRuntime 0.1.0 backend=host" in conf.stdout
    made = build(tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    run = subprocess.run([str(tmp_path / "build" / "consumer")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.split() == ["allocated=4096", "reserved=2097152", "after=0"]


def test_hip_backend_builds_against_hip_host(tmp_path, cmake_dir):
    if not Path("/usr/lib/x86_64-linux-gnu/cmake/hip/hip-config.cmake").is_file():
        pytest.skip("HIP's CMake package is not installed")
    conf = configure(tmp_path, cmake_dir)
    assert conf.returncode == 0, conf.stdout + conf.stderr
    assert "backend=hip" in conf.stdout
    made = build(tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    exe = tmp_path / "build" / "consumer"
    ldd = subprocess.run(["ldd", str(exe)], capture_output=True, text=True, timeout=60)
    assert "libamdhip64" in ldd.stdout
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    if run.returncode == 0:  # a machine with a GPU
        assert run.stdout.split()[-1] == "after=0"
    else:  # no GPU: the runtime's error comes back cleanly
        assert run.returncode == 3 and "malloc failed: 100" in run.stdout, run.stdout + run.stderr


@pytest.mark.parametrize("wanted", ["0.2", "1.0"])
def test_incompatible_version_is_rejected(tmp_path, cmake_dir, wanted):
    conf = configure(tmp_path, cmake_dir, "-DHIPPORT_RUNTIME_BACKEND=host", f"-DHIPPORT_WANT={wanted}")
    assert conf.returncode != 0
    assert "0.1.0" in conf.stderr and wanted in conf.stderr


def test_unknown_backend_is_rejected(tmp_path, cmake_dir):
    conf = configure(tmp_path, cmake_dir, "-DHIPPORT_RUNTIME_BACKEND=cuda")
    assert conf.returncode != 0
    assert "HIPPORT_RUNTIME_BACKEND must be 'hip' or 'host'" in conf.stderr
