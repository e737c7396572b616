"""hipport.runtime's path helpers and the `hipport runtime` command."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport import runtime
from hipport.cli_runtime import runtime as runtime_cmd

HEADERS = ["runtime.h", "version.h", "warp.h", "compat.h", "allocator.h", "host_hip.h"]


def test_include_dir_holds_every_header():
    include = runtime.include_dir()
    for name in HEADERS:
        assert (include / "hipport" / name).is_file(), name
    # the umbrella header pulls in the others a translated file needs
    umbrella = (include / "hipport" / "runtime.h").read_text()
    for name in ("version.h", "allocator.h", "warp.h"):
        assert re.search(rf"#\s*include <hipport/{name}>", umbrella), name


def test_cmake_dir_holds_the_package():
    assert (runtime.cmake_dir() / "hipportRuntimeConfig.cmake").is_file()
    assert (runtime.cmake_dir() / "hipportRuntimeConfigVersion.cmake").is_file()


def test_sources():
    assert [p.name for p in runtime.sources()] == ["allocator.cpp"]
    assert [p.name for p in runtime.sources("host")] == ["allocator.cpp", "backend_host.cpp"]
    assert all(p.is_file() for p in runtime.sources("host"))
    with pytest.raises(ValueError, match="backend"):
        runtime.sources("cuda")


def test_every_c_api_name_is_declared_and_defined():
    header = (runtime.include_dir() / "hipport" / "allocator.h").read_text()
    source = runtime.sources()[0].read_text()
    names = ["hipportMalloc", "hipportMallocAsync", "hipportFree", "hipportFreeAsync", "hipportRecordStream",
             "hipportEmptyCache", "hipportMemoryAllocated", "hipportMaxMemoryAllocated", "hipportMemoryReserved",
             "hipportMaxMemoryReserved", "hipportResetPeakMemoryStats", "hipportMemoryStats",
             "hipportMemorySnapshot"]
    for name in names:
        assert re.search(rf"HIPPORT_API \w+ {name}\(", header), name
        assert re.search(rf"^\w+ {name}\(", source, re.M), name
    assert "hipError_t hipportMemoryStats(int device, hipportMemoryStats_t* out)" in header
    assert "size_t hipportMemorySnapshot(char* buf, size_t len)" in header


def test_compat_triggers_are_all_provided_by_compat_h():
    compat = (runtime.include_dir() / "hipport" / "compat.h").read_text()
    for name in runtime.COMPAT_TRIGGERS:
        bare = name.split("::")[-1]
        assert re.search(rf"\b{re.escape(bare)}\b", compat), name


@pytest.mark.parametrize("flag,expected", [
    ("--include-dir", lambda: [str(runtime.include_dir())]),
    ("--cmake-dir", lambda: [str(runtime.cmake_dir())]),
    ("--sources", lambda: [str(p) for p in runtime.sources()]),
])
def test_cli_prints_bare_paths(flag, expected):
    result = CliRunner().invoke(runtime_cmd, [flag])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == expected()


def test_cli_host_sources_and_summary():
    result = CliRunner().invoke(runtime_cmd, ["--sources", "--backend", "host"])
    assert [Path(p).name for p in result.output.splitlines()] == ["allocator.cpp", "backend_host.cpp"]
    summary = CliRunner().invoke(runtime_cmd, [])
    assert summary.exit_code == 0
    assert f"include dir: {runtime.include_dir()}" in summary.output


def test_cli_options_are_exclusive():
    result = CliRunner().invoke(runtime_cmd, ["--include-dir", "--cmake-dir"])
    assert result.exit_code == 2
    assert "choose one of --include-dir, --cmake-dir, --sources, --install" in result.output


def test_install_puts_the_headers_where_a_plain_hipcc_finds_them(tmp_path, hipcc):
    """`hipport runtime --install DIR`: the same tree as --include-dir, and a compile that names DIR
    as a system directory (as /usr/local/include is) finds compat.h and the fallbacks."""
    result = CliRunner().invoke(runtime_cmd, ["--install", str(tmp_path / "inc")])
    assert result.exit_code == 0, result.output
    installed = sorted(p.relative_to(tmp_path / "inc") for p in (tmp_path / "inc").rglob("*.h"))
    assert installed == sorted(p.relative_to(runtime.include_dir()) for p in runtime.include_dir().rglob("*.h"))
    assert CliRunner().invoke(runtime_cmd, ["--install", str(tmp_path / "inc")]).exit_code == 0  # again: replaced
    source = ("#include <hip/hip_runtime.h>\n#include <hipport/compat.h>\n#include <hip/hip_bf16.h>\n"
              "__global__ void k(int* p) { p[0] = __activemask() != 0; }\n")
    proc = hipcc(source, tmp_path, "k.hip", extra=["-isystem", str(tmp_path / "inc")])
    assert proc.returncode == 0, proc.stderr
    blocked = tmp_path / "file"
    blocked.write_text("")
    bad = CliRunner().invoke(runtime_cmd, ["--install", str(blocked / "x")])
    assert bad.exit_code == 1 and "cannot install the headers" in bad.output


def test_command_is_wired_into_the_main_cli():
    proc = subprocess.run([sys.executable, "-m", "hipport", "runtime", "--include-dir"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert Path(proc.stdout.strip()) == runtime.include_dir()


def test_import_is_light():
    """`hipport runtime` must not pull in heavy modules."""
    code = ("import sys, hipport.runtime, hipport.cli_runtime; "
            "print(sorted(m for m in ('rich', 'clang', 'libcst', 'jinja2') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr
