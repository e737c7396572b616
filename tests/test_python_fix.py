"""Fixes of the Python rules: exact edits, idempotent, encodings kept, and the fixed code
imports and runs against the real (CPU) PyTorch."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from hipport.python import check_python, fix_python

DATA = Path(__file__).parent / "data" / "python"
SAMPLES = sorted(DATA.glob("*.py"))


def changed_ranges(original: bytes, fixed: bytes):
    """Ranges of *original* that differ in *fixed* (computed independently of the edit code)."""
    matcher = difflib.SequenceMatcher(None, original, fixed, autojunk=False)
    return [(i1, i2) for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal"]


def assert_changes_inside_diagnostics(original: bytes, fixed: bytes, diags):
    # a fix may insert on the diagnostic's line (HT004 puts an `if` in front of the statement),
    # and difflib may align an insertion anywhere in the same indentation: allow from line start
    spans = [(original.rfind(b"\n", 0, d.offset) + 1, d.end_offset) for d in diags if d.fix is not None]
    for start, end in changed_ranges(original, fixed):
        assert any(s <= start and end <= e for s, e in spans), (
            f"bytes {start}:{end} changed outside every fixed span: {original[start:end]!r}")


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_fix_changes_only_fixed_spans_and_is_idempotent(sample):
    data = sample.read_bytes()
    diags = check_python(data, str(sample))
    fixed, remaining = fix_python(data, str(sample))
    assert_changes_inside_diagnostics(data, fixed, diags)
    # every fixable diagnostic is gone; the others remain
    assert not [d for d in remaining if d.fix is not None]
    assert sorted(d.code for d in remaining) == sorted(d.code for d in diags if d.fix is None)
    again, remaining_again = fix_python(fixed, str(sample))
    assert again == fixed
    assert [(d.line, d.code) for d in remaining_again] == [(d.line, d.code) for d in remaining]
    compile(fixed, str(sample), "exec")


def test_fixable_rules_actually_fix_their_samples():
    fixed_codes = set()
    for sample in SAMPLES:
        data = sample.read_bytes()
        before = {d.code for d in check_python(data, str(sample)) if d.fix is not None}
        fixed_codes |= before
    assert {"HT001", "HT002", "HT004", "HT008"} <= fixed_codes


def test_device_string_fix_keeps_quotes_and_prefix():
    src = b"import torch\na = torch.device(r'hip:1')\nb = torch.randn(2, device=\"rocm\")\n"
    fixed, remaining = fix_python(src, "t.py")
    assert fixed == b"import torch\na = torch.device(r'cuda:1')\nb = torch.randn(2, device=\"cuda\")\n"
    assert remaining == []


def test_cuda_version_fix_forms():
    src = (b"import torch as T\n"
           b"if T.version.cuda:\n    pass\n"
           b"if not T.version.cuda:\n    pass\n"
           b"if T.version.cuda is None:\n    pass\n"
           b"ok = [1 for _ in () if T.version.cuda is not None]\n"
           b"IS_CUDA = T.version.cuda is not None\n")
    fixed, remaining = fix_python(src, "t.py")
    assert fixed == (b"import torch as T\n"
                     b"if T.version.cuda or T.version.hip:\n    pass\n"
                     b"if not (T.version.cuda or T.version.hip):\n    pass\n"
                     b"if T.version.cuda is None and T.version.hip is None:\n    pass\n"
                     b"ok = [1 for _ in () if T.version.cuda is not None or T.version.hip is not None]\n"
                     b"IS_CUDA = T.version.cuda is not None\n")
    # the assignment may mean "is NVIDIA": neither reported nor rewritten
    assert remaining == []


def test_early_exit_none_check_is_reported_without_fix():
    src = b"import torch\ndef f():\n    if torch.version.cuda is None:\n        return\n    print('nv')\n"
    (diag,) = check_python(src, "t.py")
    assert diag.code == "HT002" and diag.fix is None
    assert fix_python(src, "t.py")[0] == src


def test_crlf_bom_and_non_ascii_are_preserved():
    src = ("\ufeffimport torch  # é\r\n"
           "x = 'ü'; d = torch.device('hip')\r\n"
           "def f():\r\n"
           "\ttorch.backends.cuda.cufft_plan_cache.max_size = 4  # naïve\r\n").encode("utf-8")
    diags = check_python(src, "t.py")
    assert [(d.line, d.column, d.code) for d in diags] == [(2, 28, "HT001"), (4, 2, "HT004")]
    # columns count bytes: 'ü' is two bytes
    assert src.split(b"\r\n")[1][28 - 1:28 - 1 + 5] == b"'hip'"
    fixed, remaining = fix_python(src, "t.py")
    assert remaining == []
    assert fixed == ("\ufeffimport torch  # é\r\n"
                     "x = 'ü'; d = torch.device('cuda')\r\n"
                     "def f():\r\n"
                     "\tif not torch.version.hip:\r\n"
                     "\t\ttorch.backends.cuda.cufft_plan_cache.max_size = 4  # naïve\r\n").encode("utf-8")


def test_latin1_file_with_coding_cookie():
    src = "# -*- coding: latin-1 -*-\nimport torch\ns = 'caf\xe9'; d = torch.device('rocm:0')\n".encode("latin-1")
    fixed, remaining = fix_python(src, "t.py")
    assert fixed == src.replace(b"'rocm:0'", b"'cuda:0'")
    assert b"caf\xe9" in fixed and remaining == []


def test_suppressed_diagnostics_are_not_fixed():
    src = b"import torch\nd = torch.device('hip')  # hipport: ignore[HT001]\ne = torch.device('hip')\n"
    fixed, remaining = fix_python(src, "t.py")
    assert fixed == b"import torch\nd = torch.device('hip')  # hipport: ignore[HT001]\ne = torch.device('cuda')\n"


def test_extension_flags_fix_uses_the_shared_flag_table():
    from hipport.build.nvcc_flags import translate_nvcc_flags

    src = (b"import torch\nfrom torch.utils.cpp_extension import CUDAExtension\n"
           b"FLAGS = ['-O3', '--use_fast_math', '-gencode', 'arch=compute_80,code=sm_80']\n"
           b"e = CUDAExtension('x', ['x.cu'], extra_compile_args={'nvcc': FLAGS})\n")
    fixed, remaining = fix_python(src, "setup.py")
    assert remaining == []
    namespace: dict = {}
    line = fixed.split(b"\n")[2].decode()
    import torch

    exec(compile("import torch\n" + line, "setup.py", "exec"), namespace)
    assert namespace["FLAGS"] == ['-O3', '--use_fast_math', '-gencode', 'arch=compute_80,code=sm_80']
    hip = translate_nvcc_flags(['-O3', '--use_fast_math', '-gencode', 'arch=compute_80,code=sm_80'])
    assert "-ffast-math" in hip and not any("sm_80" in f for f in hip)
    original = torch.version.hip
    try:
        torch.version.hip = "6.2.41133"
        exec(compile("import torch\n" + line, "setup.py", "exec"), namespace)
    finally:
        torch.version.hip = original
    assert namespace["FLAGS"] == hip


def test_undecodable_and_unparseable_files_give_one_hp000():
    diags = check_python(b"import torch\nx = torch.device('hip')  \xff\xfe\n", "bad.py")
    assert [(d.code, d.severity) for d in diags] == [("HP000", "error")]
    assert "utf-8" in diags[0].message and diags[0].line == 2
    diags = check_python(b"import torch\ndef f(:\n  torch.device('hip')\n", "bad.py")
    assert [d.code for d in diags] == ["HP000"] and "not parseable" in diags[0].message
    data = b"import torch\ndef f(:\n"
    assert fix_python(data, "bad.py")[0] == data


# ---------------------------------------------------------------- fixed code runs on real torch

RUNTIME_SAMPLE = b'''\
import torch


def gpu_build():
    if torch.version.cuda:
        return True
    return False


def devices():
    return [torch.device('rocm'), torch.device("hip:1")]


def configure_fft():
    torch.backends.cuda.cufft_plan_cache.max_size = 16
    return "configured"
'''


def load(source: bytes) -> dict:
    namespace: dict = {"__name__": "fixed_sample"}
    exec(compile(source, "fixed_sample.py", "exec"), namespace)
    return namespace


def simulate_rocm(monkeypatch):
    import torch

    monkeypatch.setattr(torch.version, "cuda", None)
    monkeypatch.setattr(torch.version, "hip", "6.2.41133")


def test_fixed_code_imports_and_runs_with_cpu_torch():
    import torch

    fixed, remaining = fix_python(RUNTIME_SAMPLE, "sample.py")
    assert remaining == [] and fixed != RUNTIME_SAMPLE
    original, ported = load(RUNTIME_SAMPLE), load(fixed)
    # HT001: the original device strings are rejected by torch; the fixed ones construct
    try:
        original["devices"]()
        raise AssertionError("torch accepted torch.device('rocm')")
    except RuntimeError as exc:
        assert "rocm" in str(exc)
    assert ported["devices"]() == [torch.device("cuda"), torch.device("cuda", 1)]
    # on this CPU build (no CUDA, no HIP) behaviour is unchanged
    assert torch.version.cuda is None and torch.version.hip is None
    assert ported["gpu_build"]() is original["gpu_build"]() is False


def test_fixed_code_takes_the_gpu_path_on_a_rocm_build(monkeypatch):
    fixed, _ = fix_python(RUNTIME_SAMPLE, "sample.py")
    original, ported = load(RUNTIME_SAMPLE), load(fixed)
    simulate_rocm(monkeypatch)
    assert original["gpu_build"]() is False  # the bug: a ROCm GPU build looks like a CPU build
    assert ported["gpu_build"]() is True
    # HT004: the plan-cache size is not touched on ROCm (the CPU build would raise here)
    assert ported["configure_fft"]() == "configured"
    try:
        original["configure_fft"]()
        raise AssertionError("expected the unguarded plan-cache write to fail on this build")
    except (AssertionError, RuntimeError) as exc:
        assert "expected the unguarded" not in str(exc)
