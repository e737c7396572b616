"""``hipport flags`` and ``hipport cmake-dir`` through the real entry point."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from hipport.build import cmake_dir


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hipport", *args], capture_output=True, text=True, timeout=60)


def test_flags_prints_hipcc_flags_and_warnings_on_stderr():
    proc = run("flags", "--offload-arch", "gfx90a,gfx1100", "--", "-arch=sm_80", "-O3", "--use_fast_math",
               "-Xptxas", "-v", "-DMSG=hello world")
    assert proc.returncode == 0
    assert shlex.split(proc.stdout) == ["--offload-arch=gfx90a", "--offload-arch=gfx1100", "-O3", "-ffast-math",
                                        "-DMSG=hello world"]
    assert "warning: nvcc option '-Xptxas -v' dropped" in proc.stderr and "[HB002]" in proc.stderr
    assert "hint:" in proc.stderr
    assert "-Xptxas" not in proc.stdout


def test_flags_lines_output_and_bad_target():
    proc = run("flags", "--lines", "--", "-lineinfo", "-rdc=true")
    assert proc.returncode == 0 and proc.stdout.splitlines() == ["-gline-tables-only", "-fgpu-rdc"]
    bad = run("flags", "--offload-arch", "sm_80", "--", "-O2")
    assert bad.returncode == 2 and "not an AMD GPU target: 'sm_80'" in bad.stderr and bad.stdout == ""


def test_cmake_dir_points_at_the_modules():
    proc = run("cmake-dir")
    assert proc.returncode == 0
    path = Path(proc.stdout.strip())
    assert path == cmake_dir()
    assert (path / "HipportTranslate.cmake").is_file()
    tool = run("cmake-dir", "--toolchain")
    assert Path(tool.stdout.strip()) == path / "HipportDebianROCm.cmake"
    assert Path(tool.stdout.strip()).is_file()


def test_build_file_kinds_and_dispatch():
    import pytest

    from hipport.build import build_file_kind, convert_build_file

    kinds = {p: build_file_kind(p) for p in ["a/CMakeLists.txt", "cmake/FindX.cmake", "Makefile", "GNUmakefile",
                                             "rules.mk", "Makefile.cuda", "cmakelists.txt", "main.cu"]}
    assert kinds == {"a/CMakeLists.txt": "cmake", "cmake/FindX.cmake": "cmake", "Makefile": "makefile",
                     "GNUmakefile": "makefile", "rules.mk": "makefile", "Makefile.cuda": "makefile",
                     "cmakelists.txt": None, "main.cu": None}
    assert convert_build_file(b"enable_language(CUDA)\n", "x.cmake")[0] == b"enable_language(HIP)\n"
    assert convert_build_file(b"all:\n\tnvcc -lineinfo a.cu\n", "rules.mk")[0] == \
        b"all:\n\thipcc -std=c++17 -gline-tables-only a.cu\n"
    with pytest.raises(ValueError, match="main.cu: not a CMake file or Makefile"):
        convert_build_file(b"", "main.cu")
