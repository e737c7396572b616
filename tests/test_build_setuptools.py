"""The setuptools helper for torch-style extensions: sources and their local headers are
translated into a mirrored tree, unchanged outputs are not rewritten, nvcc args become hipcc
args."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hipport.build.setuptools import TranslationError, extension_kwargs, is_rocm, translate_sources


def _tree(root: Path) -> None:
    (root / "csrc" / "include").mkdir(parents=True)
    (root / "csrc" / "kernel.cu").write_text(
        '#include <cuda_runtime.h>\n#include "util.cuh"\n'
        "__global__ void k(float* x) { x[0] = twice(x[0]); }\n"
        "void launch(float* x, cudaStream_t s) { k<<<1, 1, 0, s>>>(x); cudaStreamSynchronize(s); }\n")
    (root / "csrc" / "util.cuh").write_text(
        '#pragma once\n#include "include/api.h"\n__device__ inline float twice(float v) { return 2 * v; }\n')
    (root / "csrc" / "include" / "api.h").write_text(
        "#pragma once\n#include <cuda_runtime.h>\ninline void sync() { cudaDeviceSynchronize(); }\n")
    (root / "csrc" / "include" / "unused.cuh").write_text(
        "#pragma once\n#include <cuda_runtime.h>\ninline void reset() { cudaDeviceReset(); }\n")
    (root / "csrc" / "ext.cpp").write_text("#include <cstdio>\nint main() { return 0; }\n")


def test_translate_sources_mirrors_tree_and_follows_local_includes(tmp_path, monkeypatch):
    _tree(tmp_path)
    out = tmp_path / "build" / "hip"
    monkeypatch.chdir(tmp_path)  # relative sources and the default base directory
    result = translate_sources(["csrc/kernel.cu", "csrc/ext.cpp"], build_dir=out)
    assert result == [str(out / "csrc" / "kernel.cu"), str(out / "csrc" / "ext.cpp")]
    kernel = (out / "csrc" / "kernel.cu").read_text()
    assert "hipStreamSynchronize" in kernel and "hip/hip_runtime.h" in kernel
    assert "hipDeviceSynchronize" in (out / "csrc" / "include" / "api.h").read_text()
    assert (out / "csrc" / "util.cuh").is_file()
    assert not (out / "csrc" / "include" / "unused.cuh").exists()  # not included by anything
    # sources are left alone
    assert "cudaStreamSynchronize" in (tmp_path / "csrc" / "kernel.cu").read_text()


def test_unchanged_outputs_are_not_rewritten(tmp_path):
    _tree(tmp_path)
    out = tmp_path / "out"
    translate_sources([tmp_path / "csrc" / "kernel.cu"], build_dir=out, base_dir=tmp_path)
    target = out / "csrc" / "kernel.cu"
    os.utime(target, (1_000_000, 1_000_000))
    translate_sources([tmp_path / "csrc" / "kernel.cu"], build_dir=out, base_dir=tmp_path)
    assert target.stat().st_mtime == 1_000_000
    src = tmp_path / "csrc" / "kernel.cu"
    src.write_text(src.read_text().replace("x[0] =", "x[0] +="))
    translate_sources([src], build_dir=out, base_dir=tmp_path)
    assert target.stat().st_mtime != 1_000_000 and "x[0] +=" in target.read_text()


def test_errors_name_the_file(tmp_path):
    with pytest.raises(TranslationError, match="missing.cu: cannot read"):
        translate_sources([tmp_path / "missing.cu"], build_dir=tmp_path / "o", base_dir=tmp_path)
    (tmp_path / "elsewhere").mkdir()
    outside = tmp_path / "elsewhere" / "a.cu"
    outside.write_text("int x;\n")
    with pytest.raises(TranslationError, match="outside the base directory"):
        translate_sources([outside], build_dir=tmp_path / "o", base_dir=tmp_path / "proj")


def test_extension_kwargs(tmp_path):
    _tree(tmp_path)
    notes = []
    kwargs = extension_kwargs(
        sources=[str(tmp_path / "csrc" / "kernel.cu")],
        extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "--use_fast_math", "-Xptxas", "-v",
                                                       "-gencode", "arch=compute_80,code=sm_80"]},
        include_dirs=[str(tmp_path / "csrc" / "include"), "/usr/include/extra"],
        build_dir=tmp_path / "build", base_dir=tmp_path, offload_arch="gfx90a", notes=notes,
        define_macros=[("X", "1")])
    assert kwargs["sources"] == [str(tmp_path / "build" / "csrc" / "kernel.cu")]
    assert kwargs["extra_compile_args"] == {"cxx": ["-O3"],
                                            "nvcc": ["-O3", "-ffast-math", "--offload-arch=gfx90a"]}
    assert kwargs["include_dirs"] == [str(tmp_path / "build" / "csrc" / "include"),
                                      str(tmp_path / "csrc" / "include"), "/usr/include/extra"]
    assert kwargs["define_macros"] == [("X", "1")]
    # every header of an include directory inside the tree is translated
    assert "hipDeviceReset" in (tmp_path / "build" / "csrc" / "include" / "unused.cuh").read_text()
    assert [n.code for n in notes] == ["HB002", "HB007"]


def test_is_rocm_reads_torch_version_hip(monkeypatch):
    """Importing the real torch costs seconds; a stand-in module with torch's attribute is used."""
    import sys
    import types

    fake = types.ModuleType("torch")
    fake.version = types.SimpleNamespace(hip="6.2.41133", cuda=None)
    monkeypatch.setitem(sys.modules, "torch", fake)
    assert is_rocm() is True
    fake.version = types.SimpleNamespace(hip=None, cuda="12.4")
    assert is_rocm() is False
    monkeypatch.setitem(sys.modules, "torch", None)  # not installed
    assert is_rocm() is False
