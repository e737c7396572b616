"""The torch example: its Python, setup script and CUDA extension convert, and the converted
training script still trains (on CPU torch here: the extension itself needs a GPU build of
PyTorch to compile, so the script's pure-PyTorch path is what runs)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import pytest

from hipport.tree import convert_tree
from tests.conftest import ROOT

EXAMPLE = ROOT / "examples" / "torch_extension"


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    out = tmp_path_factory.mktemp("torch") / "hip"
    report = convert_tree(EXAMPLE, out, jobs=1)
    assert report.errors == []
    return out, {f.path: f for f in report.files}


def test_python_fixes_applied(converted):
    out, files = converted
    train = (out / "train.py").read_text()
    assert "not (torch.version.cuda or torch.version.hip)" in train  # HT002 fix: ROCm builds are GPU builds
    assert '--offload-arch=gfx90a' in train and 'if torch.version.hip else ["-O3", "--use_fast_math"' in train
    codes = {d.code for d in files["train.py"].diagnostics}
    assert {"HT003", "HT006"} <= codes  # TF32 note and capability gate: reported, not guessed
    assert any(d.code == "HT008" for d in files["setup.py"].diagnostics)
    # everything outside the fixes is byte-identical
    original = (EXAMPLE / "train.py").read_text().splitlines()
    changed = [i for i, (a, b) in enumerate(zip(original, train.splitlines())) if a != b]
    assert len(changed) == 2 and len(original) == len(train.splitlines())


def test_extension_sources_translated(converted):
    out, files = converted
    kernel = (out / "csrc" / "bias_gelu.cu").read_text()
    assert "#include <hip/hip_runtime.h>" in kernel and "hipStream_t stream" in kernel
    assert "hipGetLastError() == hipSuccess" in kernel
    assert "at::cuda::getCurrentCUDAStream()" in kernel  # PyTorch's API keeps its name on ROCm
    assert (out / "csrc" / "ext.cpp").read_bytes() == (EXAMPLE / "csrc" / "ext.cpp").read_bytes()
    assert files["csrc/ext.cpp"].status == "unchanged"
    assert "LANGUAGES CXX HIP" in (out / "CMakeLists.txt").read_text()


def test_converted_training_script_trains_on_cpu(converted):
    if os.environ.get("HIPPORT_REQUIRE_TOOLS") != "1":  # scripts/test.sh installs torch and requires it
        pytest.importorskip("torch")
    out, _ = converted
    # one interpreter runs both scripts, so torch is imported once
    driver = textwrap.dedent(f"""
        import runpy, sys
        for path in ({str(EXAMPLE / 'train.py')!r}, {str(out / 'train.py')!r}):
            sys.argv = [path, "--steps", "10"]
            runpy.run_path(path, run_name="__main__")
    """)
    env = dict(os.environ, OMP_NUM_THREADS="1", CUDA_VISIBLE_DEVICES="")
    proc = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [line for line in proc.stdout.splitlines() if line.startswith("device=")]
    assert len(lines) == 2 and lines[0] == lines[1]  # same behaviour before and after conversion
    first, last = map(float, re.search(r"loss ([\d.]+) -> ([\d.]+)", lines[1]).groups())
    assert last < first * 0.97  # it learns
    assert "extension=no" in lines[1]
