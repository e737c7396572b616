"""The Python front end's plumbing: cheap import, prefilter soundness, byte offsets on
non-ASCII lines, suppression, rendering, HP000 and the code registry."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hipport.diagnostics import CODES as REGISTRY
from hipport.python import check_python
from hipport.python.codes import CODES, TRIGGERS
from hipport.python.engine import analyse, triggered

DATA = Path(__file__).parent / "data" / "python"
ROOT = Path(__file__).resolve().parent.parent


def test_codes_are_registered_with_titles_and_severities():
    for code, (title, severity) in CODES.items():
        assert REGISTRY[code].title == title and REGISTRY[code].severity == severity
    assert REGISTRY["HT003"].severity == "note"  # TF32: informational


def test_importing_the_package_does_not_import_libcst():
    code = ("import sys, hipport.python as p\n"
            "p.check_python(b'import os\\nprint(1)\\n', 'a.py')\n"
            "print('libcst' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


def test_prefilter_is_sound_for_every_sample():
    """Running every rule on every sample finds nothing the trigger patterns would have skipped."""
    for sample in sorted(DATA.glob("*.py")):
        data = sample.read_bytes()
        everything = analyse(data, str(sample), codes=list(TRIGGERS)).diagnostics
        filtered = analyse(data, str(sample)).diagnostics
        assert [(d.line, d.code) for d in everything] == [(d.line, d.code) for d in filtered], sample.name
        for diag in everything:
            assert diag.code in triggered(data)


def test_files_without_torch_idioms_are_not_parsed():
    # invalid syntax, but nothing a rule could fire on: no parse, no error, no libcst needed
    assert check_python(b"def f(:\n    return compile('x')\n", "a.py") == []
    assert triggered(b"import torch\nx = torch.randn(3).cuda()\n") == []


def test_columns_are_byte_columns_on_non_ascii_lines():
    src = "import torch\ns = '日本語'; d = torch.device('rocm')\n".encode()
    (diag,) = check_python(src, "t.py")
    line = src.split(b"\n")[1]
    assert line[diag.column - 1:].startswith(b"'rocm'")
    assert src[diag.offset:diag.end_offset] == b"'rocm'"


def test_offsets_survive_a_form_feed_at_line_start():
    src = b"import torch\n\x0cd = torch.device('hip')\n"
    (diag,) = check_python(src, "t.py")
    assert src[diag.offset:diag.end_offset] == b"'hip'"


def test_diagnostic_format_and_hint():
    (diag,) = check_python(b"import torch\nx = torch.device('hip:2')\n", "m.py")
    assert diag.format().splitlines()[0] == (
        "m.py:2:18: warning: device string 'hip:2' is not valid on ROCm: PyTorch for HIP uses the "
        "'cuda' device type [HT001]")
    assert "'cuda:2'" in diag.hint and diag.fix == "cuda:2"


def test_suppression_forms():
    src = (b"import torch\n"
           b"a = torch.device('hip')  # hipport: ignore[HT001]\n"
           b"b = torch.device('hip')  # hipport: ignore[HT002]\n"
           b"c = torch.device('hip')  # hipport: ignore\n")
    assert [(d.line, d.code) for d in check_python(src, "t.py")] == [(3, "HT001")]


def test_unknown_coding_cookie_is_hp000():
    (diag,) = check_python(b"# -*- coding: no-such-codec -*-\nimport torch\n", "x.py")
    assert diag.code == "HP000" and diag.severity == "error" and "encoding" in diag.message


def test_config_with_string_guard_and_missing_attribute():
    class Bare:
        pass

    src = b"import torch\nif MY_FLAG:\n    x = torch.device('hip')\n"
    assert [d.code for d in check_python(src, "t.py", config=Bare())] == ["HT001"]

    class One:
        rocm_guards = "MY_FLAG"

    assert check_python(src, "t.py", config=One()) == []
