"""Shared fixtures.  Tools the suite needs (hipcc, cmake, pre-commit, torch) are installed by
scripts/test.sh; when HIPPORT_REQUIRE_TOOLS=1 (set there and in CI) a missing tool fails the
test instead of skipping it, so a broken install step cannot pass silently."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def require_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("HIPPORT_REQUIRE_TOOLS") == "1":
            pytest.fail(f"required tool {name!r} is not installed (scripts/test.sh installs it)")
        pytest.skip(f"{name} not installed")
    return path


@pytest.fixture(scope="session")
def hipcc():
    """Compile HIP source text for gfx90a with the real HIP compiler; returns a callable."""
    exe = require_tool("hipcc")

    def compile_hip(source: str | bytes, tmp_path: Path, name: str = "t.hip", extra=()) -> subprocess.CompletedProcess:
        src = tmp_path / name
        src.write_bytes(source.encode() if isinstance(source, str) else source)
        env = dict(os.environ, HIP_PLATFORM="amd")
        cmd = [exe, "--offload-arch=gfx90a", "-c", str(src), "-o", str(tmp_path / (name + ".o")), *extra]
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)

    return compile_hip


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return ROOT / "tests" / "data"


def build_and_run_host(hipcc, source: str, tmp_path: Path, name: str, extra=()) -> str:
    """Compile (with the *hipcc* fixture), link and run a host-only HIP program: no GPU needed; its stdout."""
    obj = hipcc(source, tmp_path, f"{name}.hip", extra=list(extra))
    assert obj.returncode == 0, obj.stderr
    exe = tmp_path / name
    link = subprocess.run([require_tool("hipcc"), str(tmp_path / f"{name}.hip.o"), "-o", str(exe)],
                          capture_output=True, text=True, env=dict(os.environ, HIP_PLATFORM="amd"), timeout=300)
    assert link.returncode == 0, link.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout
