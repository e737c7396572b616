"""Per-rule positive and negative cases for the Python rules HT001–HT009.

Each sample in tests/data/python/ marks the lines that must be reported with
``# expect: CODE``; every other line must be silent.  So each sample is both the positive
and the negative test of its rule (and memory_management.py is all negatives).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hipport.python import check_python

DATA = Path(__file__).parent / "data" / "python"
SAMPLES = sorted(DATA.glob("*.py"))
EXPECT = re.compile(rb"#\s*expect:\s*(HT\d{3}(?:\s*,\s*HT\d{3})*)")


def expected(data: bytes) -> set[tuple[int, str]]:
    out = set()
    for number, line in enumerate(data.split(b"\n"), 1):
        match = EXPECT.search(line)
        if match:
            out.update((number, code.strip().decode()) for code in match.group(1).split(b","))
    return out


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_sample_reports_exactly_the_marked_lines(sample):
    data = sample.read_bytes()
    diags = check_python(data, str(sample))
    got = {(d.line, d.code) for d in diags}
    assert got == expected(data)


def test_every_rule_has_a_positive_sample():
    codes = set()
    for sample in SAMPLES:
        codes |= {code for _, code in expected(sample.read_bytes())}
    assert codes == {f"HT00{i}" for i in range(1, 10)}


def lint(src: str, **kw):
    return [(d.line, d.code) for d in check_python(src.encode(), "t.py", **kw)]


def test_resolution_follows_imports_not_text():
    # `torch` here is a local object, not the module: nothing refers to torch.version.cuda
    assert lint("class torch:\n    class version:\n        cuda = '12'\nfloat(torch.version.cuda)\n") == []
    assert lint("import torch as T\nfloat(T.version.cuda)\n") == [(2, "HT002")]
    assert lint("from torch.version import cuda\nfloat(cuda)\n") == [(2, "HT002")]
    assert lint("from torch.backends import cudnn as C\nC.allow_tf32 = True\n") == [(2, "HT003")]
    # a parameter shadowing the import is not the module
    assert lint("import torch\ndef f(torch):\n    return float(torch.version.cuda)\n") == []


def test_project_rocm_guard_from_config():
    src = "import torch\nif USE_VENDOR_B:\n    pass\nelse:\n    float(torch.version.cuda)\n"
    assert lint(src) == [(5, "HT002")]

    class Config:
        rocm_guards = ("USE_VENDOR_B",)

    assert lint(src, config=Config()) == []


def test_rocm_flag_through_data_flow_guards_a_branch():
    src = ("import torch\nIS_ROCM_BUILD = torch.version.hip is not None\nflag = IS_ROCM_BUILD\n"
           "if not flag:\n    float(torch.version.cuda)\n")
    assert lint(src) == []


def test_decorator_and_early_exit_guards():
    src = ("import torch\nfrom common import skipIfRocm\n@skipIfRocm\ndef test_a():\n"
           "    assert torch.cuda.get_device_capability() >= (8, 0)\n"
           "def test_b(self):\n    if TEST_WITH_ROCM:\n        self.skipTest('cuda only')\n"
           "    assert torch.cuda.get_device_capability() >= (8, 0)\n"
           "def test_c():\n    assert torch.cuda.get_device_capability() >= (8, 0)\n")
    assert lint(src) == [(11, "HT006")]


def test_chip_or_relationship_are_not_rocm_words():
    src = "import torch\nif chip_ok or relationship:\n    float(torch.version.cuda)\n"
    assert lint(src) == [(3, "HT002")]


def test_capability_tuple_in_data_flow():
    src = ("import torch\ndef f():\n    cap = torch.cuda.get_device_capability()\n"
           "    major = cap[0]\n    return major >= 8\n")
    assert lint(src) == [(5, "HT006")]


def test_reassigned_names_are_not_followed():
    src = ("import torch\ndef f(x):\n    v = torch.version.cuda\n    v = x\n    return float(v)\n")
    assert lint(src) == []


def test_rocm_named_class_and_hip_aware_alternative_arms():
    src = ("import torch\nclass ROCmHeuristics:\n    def pick(self):\n"
           "        return torch.cuda.get_device_capability() >= (9, 4)\n"
           "name = 'CUDA' if torch.version.cuda else 'HIP' if torch.version.hip else None\n"
           "name2 = 'CUDA' if torch.version.cuda else None\n")
    assert lint(src) == [(6, "HT002")]


def test_test_only_distributed_backends_are_not_reported():
    src = "import torch.distributed as dist\ndist.init_process_group('fake')\ndist.init_process_group('threaded')\n"
    assert lint(src) == []


def test_rocm_comment_on_an_if_header_marks_the_branch_but_not_on_a_statement():
    src = ("import torch\ndef f():\n    if torch.version.cuda is None:  # on ROCm we skip this check\n"
           "        return\ntorch.backends.cudnn.allow_tf32 = True  # no effect on ROCm\n")
    assert lint(src) == [(5, "HT003")]
