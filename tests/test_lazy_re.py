"""Start-up: the translator's module-level patterns are compiled on first use, not at import."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys

from hipport import lazy_re


def test_a_lazy_pattern_compiles_on_first_use_and_behaves_as_re():
    pattern = lazy_re.compile(rb"cuda(\w+)", re.I)
    assert "_compiled" not in vars(pattern)
    assert pattern.search(b"x CUDAMalloc(").group(1) == b"Malloc"
    assert "_compiled" in vars(pattern)
    assert [m.group(1) for m in pattern.finditer(b"cudaFree cudaMalloc")] == [b"Free", b"Malloc"]
    assert pattern.sub(rb"hip\1", b"cudaFree(p)") == b"hipFree(p)"
    assert (pattern.pattern, pattern.flags & re.I, pattern.groups) == (rb"cuda(\w+)", re.I, 1)
    assert pattern.compiled() is re.compile(rb"cuda(\w+)", re.I)


def test_a_lazy_pattern_survives_pickling_before_and_after_use():
    fresh = pickle.loads(pickle.dumps(lazy_re.compile(r"a+")))
    assert fresh.fullmatch("aaa")
    used = lazy_re.compile(r"b+")
    used.match("b")
    assert pickle.loads(pickle.dumps(used)).fullmatch("bb")


def test_importing_the_translator_compiles_almost_no_patterns():
    """About 250 patterns live in the passes; compiling them at import was most of a one-file
    run's start-up.  What remains compiled at import is click's and the standard library's."""
    code = ("import re; n = len(re._cache)\n"
            "import hipport.cli, hipport.cxx.translate, hipport.translate_files\n"
            "print(len(re._cache) - n)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout) < 40
