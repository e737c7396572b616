"""Translated programs must compile with the real HIP compiler for a real AMD target (gfx90a)."""

from __future__ import annotations

import pytest

from hipport import Options, translate_source
from tests.conftest import ROOT

PROGRAMS = sorted(p.name for p in (ROOT / "tests" / "data" / "cuda").iterdir())


@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.parametrize("hip_syntax", [False, True], ids=["chevrons", "hipLaunchKernelGGL"])
def test_translated_program_compiles_for_gfx90a(name, hip_syntax, hipcc, tmp_path):
    if hip_syntax and "<<<" not in (ROOT / "tests" / "data" / "cuda" / name).read_text():
        pytest.skip("no kernel launch to rewrite")
    source = (ROOT / "tests" / "data" / "cuda" / name).read_bytes()
    result = translate_source(source, path=name, options=Options(hip_kernel_execution_syntax=hip_syntax))
    out = result.text.decode()
    leftovers = [w for w in ("cudaMalloc", "cudaFree", "cudaStream_t", "cuda_runtime.h", "CUresult") if w in out]
    assert not leftovers, leftovers
    if hip_syntax:
        assert "<<<" not in out and "hipLaunchKernelGGL(" in out
    extra = ["-x", "hip"]
    if any(h in out for h in ("<hipport/", "<hip/hip_bf16.h>", "<hip/hip_math_constants.h>", "<hip/hip_fp8.h>", "<hip/cooperative_groups/", "<roctracer/roctx.h>")):  # the runtime shim, as a build system would add it
        from hipport.runtime import include_dir

        extra.append(f"-I{include_dir()}")
    proc = hipcc(out, tmp_path, name=name.rsplit(".", 1)[0] + ".hip", extra=extra)
    assert proc.returncode == 0, proc.stderr[-3000:]
