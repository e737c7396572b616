"""tools/conformance.py: RUN-line parsing and the FileCheck emulation it scores hipport with.

The harness decides our headline accuracy figure, so its judging rules are tested against
hand-written cases whose FileCheck verdict is known (no translator involved)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def conf():
    spec = importlib.util.spec_from_file_location("conformance_tool", ROOT / "tools" / "conformance.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses resolve string annotations through sys.modules
    spec.loader.exec_module(mod)
    return mod


def judge(conf, check_text: str, output: str):
    res = conf.FileResult(path="t.cu", run="", flags=[])
    conf.filecheck(conf.parse_checks(check_text), conf.sed_strip_comments(output), res)
    return res


def test_run_line_with_option_count(conf):
    spec = conf.parse_run_line(
        '// RUN: %run_test hipify "%s" "%t" %hipify_args 2 --skip-excluded-preprocessor-conditional-blocks '
        "--roc %clang_args -D__CUDA_API_VERSION_INTERNAL -I inc\n",
        Path("/x/t.cu"),
    )
    assert spec.hipify_flags == ["--skip-excluded-preprocessor-conditional-blocks", "--roc"]
    assert spec.defines == ["__CUDA_API_VERSION_INTERNAL"]
    assert spec.include_dirs == ["inc"]


def test_run_line_old_style_and_extra_clang_args(conf):
    old = conf.parse_run_line('// RUN: %run_test hipify "%s" "%t" %hipify_args --roc %clang_args\n', Path("t.cu"))
    assert old.hipify_flags == ["--roc"] and old.clang_args == []
    new = conf.parse_run_line(
        '// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --amap %clang_args "-Xclang" "-fcuda-allow-variadic-functions"\n',
        Path("t.cu"),
    )
    assert new.hipify_flags == ["--amap"]
    assert new.clang_args == ["-Xclang", "-fcuda-allow-variadic-functions"]
    assert conf.parse_run_line("int x;\n", Path("t.h")) is None


def test_options_mapping(conf):
    spec = conf.parse_run_line(
        '// RUN: %run_test hipify "%s" "%t" %hipify_args 3 --roc --hip-kernel-execution-syntax --no-such-flag %clang_args -DX=1\n',
        Path("/tmp/t.cu"),
    )
    opts, unknown = conf.make_options(spec, Path("/tmp/t.cu"))
    assert opts.roc and opts.hip_kernel_execution_syntax and not opts.amap
    assert opts.defines == ("X=1",)
    assert unknown == ["--no-such-flag"]
    single = conf.parse_run_line('// RUN: %run_test hipify "%s" "%t" %hipify_args 1 -roc %clang_args\n', Path("t.cu"))
    assert conf.make_options(single, Path("/tmp/t.cu"))[0].roc  # LLVM cl accepts one dash


def test_sed_blanks_comments_like_run_test_sh(conf):
    assert conf.sed_strip_comments("a(); // CHECK: a();\n//\nx // y") == "a(); // \n//\nx // "


def test_check_lines_do_not_match_themselves(conf):
    src = "// CHECK: hipMalloc(p, n);\ncudaMalloc(p, n);\n"
    res = judge(conf, src, src)  # an untranslated file keeps its comments, which sed blanks
    assert not res.passed and res.matched == 0 and len(res.mismatches) == 1
    assert res.mismatches[0].nearest == "cudaMalloc(p, n);"


def test_in_order_substring_and_whitespace_canonicalisation(conf):
    checks = "// CHECK: hipMalloc(&a,  n);\n// CHECK: hipFree(a);\n"
    assert judge(conf, checks, "  hipMalloc(&a, n);\n\thipFree(a);\n").passed
    out_of_order = judge(conf, checks, "hipFree(a);\nhipMalloc(&a, n);\n")
    assert not out_of_order.passed and out_of_order.matched == 1


def test_lenient_scoring_continues_after_a_miss(conf):
    checks = "// CHECK: one\n// CHECK: two\n// CHECK: three\n"
    res = judge(conf, checks, "one\nthree\n")
    assert (res.matched, res.total, res.passed) == (2, 3, False)


def test_check_next_and_same(conf):
    checks = "// CHECK: a\n// CHECK-NEXT: b\n// CHECK-SAME: c\n"
    assert judge(conf, checks, "a\nb c\n").passed
    res = judge(conf, checks, "a\n\nb c\n")
    assert not res.passed and res.mismatches[0].check.kind == "CHECK-NEXT"
    # one wrong line in a CHECK-NEXT block costs one line, not the rest of the block
    block = "// CHECK: x1\n// CHECK-NEXT: x2\n// CHECK-NEXT: x3\n// CHECK-NEXT: x4\n"
    res = judge(conf, block, "x1\ncuda2\nx3\nx4\n")
    assert (res.matched, res.total) == (3, 4)
    # a failed plain CHECK heading a CHECK-NEXT block does not sink the block either
    res = judge(conf, block, "z\ncuda1\nx2\nx3\nx4\n")
    assert (res.matched, res.total) == (3, 4)


def test_check_not_between_matches(conf):
    checks = "// CHECK: #include <hip/hip_runtime.h>\n// CHECK-NOT: cuda_runtime.h\n// CHECK: #include <stdio.h>\n"
    assert judge(conf, checks, "#include <hip/hip_runtime.h>\n\n#include <stdio.h>\n").passed
    bad = judge(conf, checks, "#include <hip/hip_runtime.h>\n#include <cuda_runtime.h>\n#include <stdio.h>\n")
    assert not bad.passed and bad.mismatches[0].reason == "CHECK-NOT pattern found"
    # after the last positive match a NOT applies up to the end of the output
    assert not judge(conf, "// CHECK: x\n// CHECK-NOT: y\n", "x\ny\n").passed


def test_regex_and_variables(conf):
    assert judge(conf, "// CHECK: hip{{[A-Z][a-z]+}}(\n", "hipMalloc(p);\n").passed
    checks = "// CHECK: auto [[V:[a-z]+]] = 1;\n// CHECK: use([[V]]);\n"
    assert judge(conf, checks, "auto q = 1;\nuse(q);\n").passed
    assert not judge(conf, checks, "auto q = 1;\nuse(r);\n").passed


def test_misspelled_directive_is_not_a_check(conf):
    assert conf.parse_checks("// CHECK-NEXT : x\n// XCHECK: y\n") == []


def test_lit_style_exclusions(conf):
    assert conf.excluded(Path("runtime_functions_before_13000.cu"), 13000)
    assert conf.excluded(Path("runtime_functions_before_13000.cu"), 12080) is None
    assert conf.excluded(Path("headers_test_09_12000.cu"), 13000) is None
    assert conf.excluded(Path("headers_test_09_12000.cu"), 11080)
    assert conf.excluded(Path("cusparse2hipsparse_11030_12000.cu"), 13000)
    assert conf.excluded(Path("cub_01.cu"), 13000)


def test_run_one_with_stub_translator(conf, tmp_path, monkeypatch):
    t = tmp_path / "k.cu"
    t.write_text(
        '// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --roc %clang_args\n'
        "// CHECK: hipFree(p);\ncudaFree(p);\n"
    )
    seen = {}

    def fake(text, path, options):
        seen["roc"] = options.roc
        return text.replace("cudaFree", "hipFree")

    monkeypatch.setattr(conf, "translate", fake)
    res = conf.run_one(str(t))
    assert res.passed and seen["roc"] is True

    def boom(text, path, options):
        raise RuntimeError("engine exploded\nmore")

    monkeypatch.setattr(conf, "translate", boom)
    res = conf.run_one(str(t))
    assert not res.passed and res.error == "RuntimeError: engine exploded" and res.matched == 0
