"""``hipport.convert_tree``: the walk, the per-kind handling, safety, the cache and renames."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

import hipport
from hipport import Options
from hipport.tree import convert_tree
from hipport.tree_cache import CACHE_NAME

KERNEL = b"""#include <cuda_runtime.h>
#include "common.cuh"
__global__ void k(float* x) { x[threadIdx.x] = 1; }
int main() { float* d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); cudaFree(d); return 0; }
"""
HEADER = b"#pragma once\n#include <cuda_runtime.h>\ninline void sync() { cudaDeviceSynchronize(); }\n"
CMAKE = b"cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_executable(app src/main.cu)\n"


def make_tree(root: Path) -> Path:
    src = root / "src_tree"
    (src / "src").mkdir(parents=True)
    (src / "src" / "main.cu").write_bytes(KERNEL)
    (src / "src" / "common.cuh").write_bytes(HEADER)
    (src / "CMakeLists.txt").write_bytes(CMAKE)
    (src / "Makefile").write_bytes(b"NVCC ?= nvcc\napp: src/main.cu\n\t$(NVCC) -arch=sm_80 -o $@ $<\n")
    (src / "train.py").write_bytes(b"import torch\nif torch.version.cuda:\n    print('gpu')\n")
    (src / "data.bin").write_bytes(bytes(range(256)) * 4)
    (src / "run.sh").write_bytes(b"#!/bin/sh\necho cudaMalloc stays in shell scripts\n")
    os.chmod(src / "run.sh", 0o755)
    (src / "notes.txt").write_bytes(b"cudaMalloc in prose stays\r\n")
    return src


def by_path(report):
    return {f.path: f for f in report.files}


def test_converts_each_kind_and_copies_the_rest(tmp_path):
    src = make_tree(tmp_path)
    dst = tmp_path / "out"
    report = convert_tree(src, dst, jobs=1)
    files = by_path(report)
    assert files["src/main.cu"].status == "translated" and files["src/main.cu"].kind == "cxx"
    main = (dst / "src" / "main.cu").read_bytes()
    assert b"hipMalloc(&d, 4)" in main and b"cudaMalloc" not in main
    assert b'#include "common.cuh"' in main
    assert b"hipDeviceSynchronize" in (dst / "src" / "common.cuh").read_bytes()
    cmake = (dst / "CMakeLists.txt").read_bytes()
    assert b"LANGUAGES CXX HIP" in cmake and files["CMakeLists.txt"].kind == "cmake"
    assert b"hipcc" in (dst / "Makefile").read_bytes() and files["Makefile"].kind == "makefile"
    assert b"torch.version.hip" in (dst / "train.py").read_bytes()
    # copied byte for byte, mode bits kept
    for name in ("data.bin", "run.sh", "notes.txt"):
        assert (dst / name).read_bytes() == (src / name).read_bytes()
        assert files[name].status == "copied"
    assert stat.S_IMODE(os.stat(dst / "run.sh").st_mode) == 0o755
    # main.cu: the header, cudaMalloc, cudaFree; common.cuh: the header, cudaDeviceSynchronize
    assert report.totals["converted"] == 5 and report.errors == []
    assert report.stats.files == 5  # translated files only
    # the sources are untouched
    assert (src / "src" / "main.cu").read_bytes() == KERNEL


def test_alternative_makefiles_are_converted(tmp_path):
    """`Makefile.cuda`, `Makefile.nvcc`, `rules.make`: a project's other makefiles, as build_file_kind says."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("Makefile.cuda", "Makefile.nvcc", "Makefile_gpu", "Makefile2", "rules.make", "config.mak"):
        (src / name).write_text("all:\n\tnvcc -O2 -o app app.cu\n")
    report = convert_tree(src, tmp_path / "out", jobs=1)
    for name in ("Makefile.cuda", "Makefile.nvcc", "Makefile_gpu", "Makefile2", "rules.make", "config.mak"):
        assert by_path(report)[name].kind == "makefile"
        assert b"hipcc" in (tmp_path / "out" / name).read_bytes()


def test_sources_cmake_compiles_as_cuda_are_translated_whatever_their_extension(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "CMakeLists.txt").write_text(
        "project(p LANGUAGES CXX CUDA)\nadd_executable(app main.notcu k.inc)\n"
        "set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/main.notcu PROPERTIES LANGUAGE CUDA)\n"
        "set_property(SOURCE k.inc PROPERTY LANGUAGE CUDA)\n")
    for name in ("main.notcu", "k.inc", "other.notcu"):
        (src / name).write_bytes(b"#include <cuda_runtime.h>\nvoid f() { cudaDeviceSynchronize(); }\n")
    report = convert_tree(src, tmp_path / "out", jobs=1)
    files = by_path(report)
    for name in ("main.notcu", "k.inc"):
        assert files[name].kind == "cxx" and files[name].status == "translated"
        assert (tmp_path / "out" / name).read_bytes() == b"#include <hip/hip_runtime.h>\nvoid f() { hipDeviceSynchronize(); }\n"
    assert files["other.notcu"].status == "copied"  # not compiled as CUDA: left as it is


def test_files_a_source_includes_are_translated_whatever_their_extension(tmp_path):
    """CS149's `#include "exclusiveScan.cu_inl"`; what that includes in turn; not an unrelated .inc."""
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "main.cu").write_text('#include "sub/scan.cu_inl"\nvoid f() { g(); }\n')
    (src / "sub" / "scan.cu_inl").write_text('#include "tables.inc"\n__device__ void g() { __syncwarp(); }\n')
    (src / "sub" / "tables.inc").write_text("void h() { cudaDeviceSynchronize(); }\n")
    (src / "other.inc").write_text("cudaFree\n")
    report = convert_tree(src, tmp_path / "out", jobs=1)
    files = by_path(report)
    assert files["sub/scan.cu_inl"].kind == "cxx" and files["sub/tables.inc"].kind == "cxx"
    assert b"hipDeviceSynchronize" in (tmp_path / "out" / "sub" / "tables.inc").read_bytes()
    assert files["other.inc"].status == "copied"


def test_gitignore_and_exclude_are_honoured(tmp_path):
    src = make_tree(tmp_path)
    (src / ".gitignore").write_bytes(b"build/\n*.bin\n!keep.bin\n")
    (src / "build").mkdir()
    (src / "build" / "gen.cu").write_bytes(KERNEL)
    (src / "keep.bin").write_bytes(b"k")
    (src / "third_party" / "lib").mkdir(parents=True)
    (src / "third_party" / "lib" / "x.cu").write_bytes(KERNEL)
    (src / "src" / ".gitignore").write_bytes(b"/common.cuh\n")
    (src / ".git").mkdir()
    (src / ".git" / "HEAD").write_bytes(b"ref: refs/heads/main\n")
    dst = tmp_path / "out"
    report = convert_tree(src, dst, exclude=["third_party/"], jobs=1)
    paths = set(by_path(report))
    assert not (dst / "build").exists() and not (dst / "data.bin").exists()
    assert (dst / "keep.bin").exists() and not (dst / "third_party").exists()
    assert "src/common.cuh" not in paths and (dst / "src" / "main.cu").exists()
    assert not (dst / ".git").exists()
    assert report.ignored == 4  # build/, data.bin, third_party/, src/common.cuh


def test_unreadable_file_is_reported_and_the_run_continues(tmp_path):
    src = make_tree(tmp_path)
    (src / "src" / "bad.cu").write_bytes(b"int x;\x00\x00binary")  # NUL bytes: not a source
    report = convert_tree(src, tmp_path / "out", jobs=1)
    files = by_path(report)
    assert files["src/bad.cu"].status == "error"
    assert any("src/bad.cu" in e and "binary" in e for e in report.errors)
    assert files["src/main.cu"].status == "translated"
    if os.geteuid() != 0:  # root reads anything
        (src / "src" / "locked.cu").write_bytes(KERNEL)
        os.chmod(src / "src" / "locked.cu", 0)
        report = convert_tree(src, tmp_path / "out2", jobs=1)
        assert by_path(report)["src/locked.cu"].status == "error"


def test_symlinks_inside_kept_outside_skipped_loops_detected(tmp_path):
    src = make_tree(tmp_path)
    outside = tmp_path / "secret.cu"
    outside.write_bytes(KERNEL)
    os.symlink("src/main.cu", src / "alias.cu")
    os.symlink(str(src / "src"), src / "srcdir")  # absolute, but inside the tree
    os.symlink(str(outside), src / "leak.cu")
    os.symlink("/", src / "root")
    os.symlink("loop_b", src / "loop_a")
    os.symlink("loop_a", src / "loop_b")
    os.symlink("missing.cu", src / "dangling.cu")
    dst = tmp_path / "out"
    report = convert_tree(src, dst, jobs=1)
    files = by_path(report)
    assert os.readlink(dst / "alias.cu") == "src/main.cu"
    assert os.readlink(dst / "srcdir") == "src"  # relative, so it stays inside DST
    assert (dst / "srcdir" / "main.cu").read_bytes() == (dst / "src" / "main.cu").read_bytes()
    for name in ("leak.cu", "root", "loop_a", "loop_b", "dangling.cu"):
        assert files[name].status == "skipped" and not os.path.lexists(dst / name)
    assert files["leak.cu"].diagnostics[0].code == "HC002"
    assert files["loop_a"].diagnostics[0].code == "HC003"
    assert not (dst / "secret.cu").exists()


def test_destination_checks(tmp_path):
    src = make_tree(tmp_path)
    with pytest.raises(ValueError, match="inside the source tree"):
        convert_tree(src, src / "hip_out")
    with pytest.raises(ValueError, match="contains the source"):
        convert_tree(src, tmp_path)
    with pytest.raises(ValueError, match="inplace"):
        convert_tree(src, src)
    with pytest.raises(NotADirectoryError):
        convert_tree(src / "CMakeLists.txt", tmp_path / "x")
    # allowed once excluded from the walk: the output is not walked again
    report = convert_tree(src, src / "hip_out", exclude=["hip_out/"], jobs=1)
    assert (src / "hip_out" / "src" / "main.cu").exists()
    assert not any(f.path.startswith("hip_out") for f in report.files)
    (src / ".gitignore").write_bytes(b"/gen/\n")
    convert_tree(src, src / "gen" / "hip", jobs=1)
    assert (src / "gen" / "hip" / "src" / "main.cu").exists()


def test_never_writes_through_a_symlink_planted_in_dst(tmp_path):
    src = make_tree(tmp_path)
    dst = tmp_path / "out"
    victim = tmp_path / "victim"
    victim.mkdir()
    dst.mkdir()
    os.symlink(str(victim), dst / "src")  # DST/src → outside DST
    report = convert_tree(src, dst, jobs=1)
    assert list(victim.iterdir()) == []
    assert by_path(report)["src/main.cu"].status == "error"
    assert any("outside" in e for e in report.errors)


def test_incremental_rerun_skips_unchanged_and_redoes_changed(tmp_path):
    src = make_tree(tmp_path)
    dst = tmp_path / "out"
    first = convert_tree(src, dst, jobs=1)
    assert first.totals["cached"] == 0
    cache = json.loads((dst / CACHE_NAME).read_text())
    assert set(cache["files"]) == {f.path for f in first.files}
    second = convert_tree(src, dst, jobs=1)
    assert all(f.status == "cached" for f in second.files)
    assert second.totals["converted"] == first.totals["converted"]  # totals replayed from the cache
    assert [d.format() for d in second.diagnostics] == [d.format() for d in first.diagnostics]
    # a changed file is redone, the others are not
    (src / "src" / "common.cuh").write_bytes(HEADER.replace(b"cudaDeviceSynchronize", b"cudaDeviceReset"))
    third = by_path(convert_tree(src, dst, jobs=1))
    assert third["src/common.cuh"].status == "translated"
    assert third["src/main.cu"].status == "cached"
    assert b"hipDeviceReset" in (dst / "src" / "common.cuh").read_bytes()
    # an output deleted from DST is rewritten
    (dst / "src" / "main.cu").unlink()
    assert by_path(convert_tree(src, dst, jobs=1))["src/main.cu"].status == "translated"
    # touching a file without changing it keeps it cached (content hash)
    os.utime(src / "src" / "main.cu", (1, 1))
    assert by_path(convert_tree(src, dst, jobs=1))["src/main.cu"].status == "cached"
    # other options: everything is redone
    other = convert_tree(src, dst, jobs=1, options=Options(hip_kernel_execution_syntax=True))
    assert by_path(other)["src/main.cu"].status == "translated"
    assert b"hipLaunchKernelGGL" in (dst / "src" / "main.cu").read_bytes()


def test_corrupt_cache_is_ignored(tmp_path):
    src = make_tree(tmp_path)
    dst = tmp_path / "out"
    convert_tree(src, dst, jobs=1)
    (dst / CACHE_NAME).write_text("{not json")
    (dst / "src" / "main.cu").write_bytes(b"garbage")
    report = convert_tree(src, dst, jobs=1)
    assert by_path(report)["src/main.cu"].status == "translated"
    assert b"hipMalloc" in (dst / "src" / "main.cu").read_bytes()



def test_a_converted_trees_cache_is_not_a_source(tmp_path):
    """(set CA) converting a converted tree again: the first run's cache is its output's record,
    neither translated nor copied into the second output as a file of the project."""
    src = make_tree(tmp_path)
    first, second = tmp_path / "out1", tmp_path / "out2"
    convert_tree(src, first, jobs=1)
    report = convert_tree(first, second, jobs=1)
    assert CACHE_NAME not in by_path(report)
    cache = json.loads((second / CACHE_NAME).read_text())
    assert CACHE_NAME not in cache["files"] and "src/main.cu" in cache["files"]

def test_rename_cu_updates_includes_and_build_files(tmp_path):
    src = make_tree(tmp_path)
    (src / "src" / "other.cpp").write_bytes(b'#include "src/common.cuh"\n#include <common.cuh>\nint y;\n')
    (src / "src" / "taken.cu").write_bytes(KERNEL)
    (src / "src" / "taken.hip").write_bytes(b"// already here\n")
    dst = tmp_path / "out"
    report = convert_tree(src, dst, rename_cu=True, jobs=1, options=Options(include_dirs=("src",)))
    files = by_path(report)
    assert files["src/main.cu"].output == "src/main.hip" and (dst / "src" / "main.hip").exists()
    assert not (dst / "src" / "main.cu").exists()
    assert files["src/common.cuh"].output == "src/common.hip.h"
    main = (dst / "src" / "main.hip").read_bytes()
    assert b'#include "common.hip.h"' in main
    assert (dst / "src" / "other.cpp").read_bytes() == b'#include "src/common.hip.h"\n#include <common.hip.h>\nint y;\n'
    cmake = (dst / "CMakeLists.txt").read_bytes()
    assert b"add_executable(app src/main.hip)" in cmake and b"LANGUAGE HIP" not in cmake
    assert b"app: src/main.hip" in (dst / "Makefile").read_bytes()
    # a name collision is warned about and the file keeps its name
    assert files["src/taken.cu"].output == "src/taken.cu"
    assert any(d.code == "HC006" for d in files["src/taken.cu"].diagnostics)
    assert (dst / "src" / "taken.hip").read_bytes() == b"// already here\n"


def test_rename_cu_updates_the_patterns_of_build_files(tmp_path):
    """`file(GLOB … *.cu)`, `$(wildcard *.cu)`, `%.o: %.cu`, `$(SRCS:.cu=.o)`: after --rename-cu they
    would match nothing, and the sources would silently drop out of the build."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_bytes(KERNEL)
    (src / "k.cuh").write_bytes(b"#pragma once\n")
    (src / "CMakeLists.txt").write_bytes(b"project(p LANGUAGES CXX CUDA)\nfile(GLOB SRC *.cpp *.cu *.cuh)\n"
                                         b"add_executable(app ${SRC})\n")
    (src / "Makefile").write_bytes(b"SRCS := $(wildcard *.cu)\nOBJS := $(SRCS:.cu=.o)\n"
                                   b"app: $(OBJS)\n\tnvcc -o $@ $^\n%.o: %.cu\n\tnvcc -c $< -o $@\n")
    dst = tmp_path / "out"
    convert_tree(src, dst, rename_cu=True, jobs=1)
    assert b"file(GLOB SRC *.cpp *.hip *.hip.h)" in (dst / "CMakeLists.txt").read_bytes()
    make = (dst / "Makefile").read_bytes()
    assert b"SRCS := $(wildcard *.hip)\nOBJS := $(SRCS:.hip=.o)\n" in make and b"%.o: %.hip\n" in make
    again = tmp_path / "again"
    convert_tree(dst, again, rename_cu=True, jobs=1)
    assert (again / "Makefile").read_bytes() == make


def test_inplace_with_and_without_backup(tmp_path):
    src = make_tree(tmp_path)
    report = convert_tree(src, inplace=True, jobs=1)
    assert b"hipMalloc" in (src / "src" / "main.cu").read_bytes()
    assert (src / "src" / "main.cu.prehip").read_bytes() == KERNEL
    assert not (src / CACHE_NAME).exists()  # no cache file in the user's tree
    assert not (src / "data.bin.prehip").exists()  # unchanged files are not touched
    assert report.errors == []
    (src / "Makefile").write_bytes(b"NVCC := nvcc\nk: k.cu\n\t$(NVCC) -arch=sm_80 -o $@ $<\n")
    convert_tree(src, inplace=True, jobs=1)
    backup = (src / "Makefile.prehip").read_bytes()
    again = convert_tree(src, inplace=True, backup=False, jobs=1)
    assert by_path(again)["src/main.cu"].status == "unchanged"  # translation is idempotent
    # a backup is no build file: a later run leaves `Makefile.prehip` as the original it holds
    assert (src / "Makefile.prehip").read_bytes() == backup and b"nvcc" in backup
    assert not (src / "Makefile.prehip.prehip").exists()
    src2 = make_tree(tmp_path / "second")
    convert_tree(src2, inplace=True, backup=False, rename_cu=True, jobs=1)
    assert (src2 / "src" / "main.hip").exists() and not (src2 / "src" / "main.cu").exists()
    assert not list((src2 / "src").glob("*.prehip"))


def test_parallel_run_matches_serial(tmp_path):
    src = tmp_path / "many"
    for i in range(40):
        d = src / f"m{i % 4}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"k{i}.cu").write_bytes(KERNEL.replace(b"k(", f"k{i}(".encode()))
    (src / "m0" / "common.cuh").write_bytes(HEADER)
    serial = convert_tree(src, tmp_path / "serial", jobs=1)
    parallel = convert_tree(src, tmp_path / "parallel", jobs=2)
    assert parallel.jobs == 2
    for f in serial.files:
        assert (tmp_path / "serial" / f.output).read_bytes() == (tmp_path / "parallel" / f.output).read_bytes()
    assert serial.totals["converted"] == parallel.totals["converted"] == 40 * 3 + 2
    assert serial.stats.to_dict()["names"] == parallel.stats.to_dict()["names"]


def test_public_api_and_report_arguments(tmp_path):
    src = make_tree(tmp_path)
    assert hipport.convert_tree is convert_tree
    with pytest.raises(ValueError, match="report"):
        convert_tree(src, tmp_path / "o", report=tmp_path / "r.txt")
    with pytest.raises(ValueError, match="destination"):
        convert_tree(src)
    report = convert_tree(src, tmp_path / "o", report=tmp_path / "r.json", jobs=1)
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["totals"] == json.loads(json.dumps(report.totals))
    assert {f["path"] for f in data["files"]} == {f.path for f in report.files}


def test_progress_reports_every_file_once(tmp_path):
    src = make_tree(tmp_path)
    os.symlink("/", src / "root")
    seen = []
    report = convert_tree(src, tmp_path / "out", jobs=1, progress=lambda done, total, path: seen.append((done, total, path)))
    assert [d for d, _, _ in seen] == list(range(1, len(report.files) + 1))
    assert {t for _, t, _ in seen} == {len(report.files)}
    assert sorted(p for _, _, p in seen) == sorted(f.path for f in report.files)


def test_a_dying_worker_is_reported_not_fatal(tmp_path, monkeypatch):
    import multiprocessing

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the patched worker function reaches the workers only through fork")
    import hipport.tree as tree_mod

    src = tmp_path / "many"
    src.mkdir()
    for i in range(30):
        (src / f"k{i:02}.cu").write_bytes(KERNEL)
    real = tree_mod._process

    def crashing(job, shared):
        if job.rel == "k07.cu":
            os._exit(3)  # what a segfault in native code looks like to the pool
        return real(job, shared)

    monkeypatch.setattr(tree_mod, "_process", crashing)
    report = convert_tree(src, tmp_path / "out", jobs=2)
    files = by_path(report)
    assert files["k07.cu"].status == "error"
    assert any("k07.cu" in e and "worker process failed" in e for e in report.errors)
    assert len(report.files) == 30  # every file is accounted for
