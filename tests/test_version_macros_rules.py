"""HV001–HV004: what is flagged and what is not, decided by meaning."""

from __future__ import annotations

import pytest

from hipport.lint_config import LintConfig
from hipport.version_macros import check_source


def codes(src: str, config=None) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in check_source(src.encode(), "t.cu", config=config)]


def hv001(cond: str, config=None, prefix: str = "", suffix: str = "") -> bool:
    src = f"{prefix}#if {cond}\nint x;\n#endif\n{suffix}"
    return any(d.code == "HV001" for d in check_source(src.encode(), "t.cu", config=config))


@pytest.mark.parametrize("cond", [
    "defined(CUDA_VERSION) && CUDA_VERSION >= 11000",
    "CUDA_VERSION >= 11000",
    "CUDART_VERSION < 12000",
    "__CUDACC_VER_MAJOR__ >= 11 && __CUDACC_VER_MINOR__ >= 2",
    "defined(__CUDA_API_VERSION)",
    "(defined(USE_ROCM) && ROCM_VERSION >= 60200) || CUDA_VERSION >= 12000",  # below 6.2 CUDA decides
    "defined(USE_ROCM) && CUDA_VERSION >= 11000",  # a ROCm name is there, but CUDA still decides
    "FOO && CUDA_VERSION >= 11000",
    "CUDA_VERSION",
    "!defined(CUDA_VERSION) || CUDA_VERSION < 9000",
    "!defined(USE_ROCM) || defined(CUDA_VERSION)",  # on ROCm: decided by CUDA_VERSION's definedness
])
def test_unsafe_conditions(cond):
    assert hv001(cond)


@pytest.mark.parametrize("cond", [
    "defined(USE_ROCM) || CUDA_VERSION >= 11000",
    "defined(CUDA_VERSION) && CUDA_VERSION >= 11000 && !defined(USE_ROCM)",  # documented forms
    "(defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || defined(USE_ROCM)",
    "(defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || (defined(USE_ROCM) && ROCM_VERSION >= 40300)",
    "!defined(__HIP_PLATFORM_AMD__) && CUDA_VERSION >= 11000",
    "defined(__HIP__) ? 1 : CUDA_VERSION >= 11000",
    "__HIPCC__ || CUDA_VERSION >= 11000",  # used by value: defined guards are non-zero
    "HIP_VERSION >= 60000000",  # no CUDA version macro at all
    "CUDA_VERSION >= 11000 && 0",  # constant: nothing depends on CUDA
])
def test_safe_conditions(cond):
    assert not hv001(cond)


def test_enclosing_conditionals_are_taken_into_account():
    assert not hv001("CUDA_VERSION >= 11000", prefix="#ifndef USE_ROCM\n", suffix="#endif\n")
    assert not hv001("CUDA_VERSION >= 11000", prefix="#if !defined(USE_ROCM) && X\n", suffix="#endif\n")
    # inside the ROCm branch the CUDA test still decides: flagged
    assert hv001("CUDA_VERSION >= 11000", prefix="#if defined(__HIP_PLATFORM_AMD__)\n", suffix="#endif\n")
    src_elif = ("#if defined(__HIP_PLATFORM_AMD__)\nint a;\n#elif CUDA_VERSION >= 11000\nint b;\n"
                "#else\n#if CUDA_VERSION >= 9000\nint c;\n#endif\n#endif\n")
    assert codes(src_elif) == []
    src_ifdef = "#ifdef USE_ROCM\nint a;\n#else\n#if CUDA_VERSION >= 9000\n#endif\n#endif\n"
    assert codes(src_ifdef) == []
    # a ROCm version window: only ROCm >= 6 reaches it, and there CUDA still decides
    assert hv001("CUDA_VERSION >= 11000", prefix="#if defined(USE_ROCM) && ROCM_VERSION >= 60000\n",
                 suffix="#endif\n")


def test_project_guard_macros_from_config():
    cond = "defined(GGML_USE_HIP) || CUDA_VERSION >= 11000"
    assert hv001(cond)
    assert not hv001(cond, LintConfig(rocm_guards=("GGML_USE_HIP",)))
    cuda_only = "defined(GGML_USE_CUDA) && CUDA_VERSION >= 11000"
    assert hv001(cuda_only)
    assert not hv001(cuda_only, LintConfig(cuda_guards=("GGML_USE_CUDA",)))
    assert hv001("MY_CUDA_VER >= 3", LintConfig(cuda_version_macros=("MY_CUDA_VER",)))
    assert not hv001("MY_CUDA_VER >= 3")


def test_ifdef_and_ifndef_of_a_cuda_version_macro():
    assert codes("#ifdef CUDA_VERSION\n#endif\n") == [("HV001", 1)]
    assert codes("#ifndef CUDART_VERSION\n#endif\n") == [("HV001", 1)]
    # supplying a default is not a version test
    assert codes("#ifndef __CUDA_API_VER_MAJOR__\n// default\n#define __CUDA_API_VER_MAJOR__ 12\n#endif\n") == []
    assert codes("#ifdef USE_ROCM\n#elif defined(CUDA_VERSION)\n#endif\n") == []


def test_directives_in_comments_are_ignored_and_continuations_are_followed():
    src = ("/* #if CUDA_VERSION >= 11000 */\n// #if CUDA_VERSION >= 11000\n"
           "#if defined(USE_ROCM) || \\\n    CUDA_VERSION >= 11000\n#endif\n"
           "#if FOO /* USE_ROCM */ || \\\r\n CUDA_VERSION >= 11000\n#endif\n")
    assert codes(src) == [("HV001", 7)]  # placed at the CUDA test, on the continued line


def test_suppression_comments():
    assert codes("#if CUDA_VERSION >= 11000 // hipport: ignore[HV001]\n#endif\n") == []
    assert codes("#if CUDA_VERSION >= 11000 // hipport: ignore\n#endif\n") == []
    assert codes("#if CUDA_VERSION >= 11000 // hipport: ignore[HV003]\n#endif\n") == [("HV001", 1)]
    # a multi-line condition may carry the comment on any of its lines
    assert codes("#if FOO || \\\n CUDA_VERSION >= 11000 /* hipport: ignore[HV001] */\n#endif\n") == []


def test_diagnostic_points_at_the_version_test_and_offers_the_fix():
    (d,) = check_source(b"#if FOO && CUDA_VERSION >= 11000 /* x */\n#endif\n", "t.cu")
    assert (d.path, d.line, d.column, d.severity) == ("t.cu", 1, 12, "warning")
    assert d.fix == "if FOO && CUDA_VERSION >= 11000 && !defined(USE_ROCM) /* x */"
    assert "CUDA_VERSION" in d.message and d.hint
    (d,) = check_source(b"#if CUDA_VERSION >= 11000\n#endif\n", "t.cu", config=LintConfig(policy="include-rocm"))
    assert d.fix == "if CUDA_VERSION >= 11000 || defined(USE_ROCM)"


# ---------------------------------------------------------------- HV002

FUNC = "int f() {{\n  int v = 0;\n  {call}(&v);\n  {use}\n  return 0;\n}}\n"


@pytest.mark.parametrize("call,use,expected", [
    ("cudaRuntimeGetVersion", "if (v >= 11000) return 1;", True),
    ("cudaDriverGetVersion", "if (11020 <= v) return 1;", True),
    ("cuDriverGetVersion", "bool ok = v < 12000;", True),
    ("hipDriverGetVersion", "if (v >= 12000) return 1;", True),  # hipified, still CUDA numbers
    ("hipRuntimeGetVersion", "if ((v) >= 11000) return 1;", True),
    ("hipRuntimeGetVersion", "if (v >= 60200000) return 1;", False),  # HIP scale: fine
    ("hipRuntimeGetVersion", "if (v >= CUDA_VERSION) return 1;", True),  # mixed families
    ("cudaRuntimeGetVersion", "if (v >= HIP_VERSION) return 1;", True),
    ("cudaRuntimeGetVersion", "int w = v; if (w >= 11000) return 1;", True),  # a copy carries it
    ("cudaRuntimeGetVersion", "printf(\"%d\", v);", False),
    ("cudaRuntimeGetVersion", "// if (v >= 11000)", False),
])
def test_hv002_tracks_the_variable(call, use, expected):
    src = FUNC.format(call=call, use=use)
    assert any(c == "HV002" for c, _ in codes(src)) == expected, src


def test_hv002_stays_within_the_function_and_respects_guards():
    other_function = ("void a() { int v; cudaDriverGetVersion(&v); use(v); }\n"
                      "void b(int v) { if (v >= 11000) {} }\n")
    assert codes(other_function) == []
    guarded = ("void a() {\n  int v; cudaDriverGetVersion(&v);\n#ifndef USE_ROCM\n"
               "  if (v >= 11000) {}\n#endif\n}\n")
    assert codes(guarded) == []
    unguarded = guarded.replace("#ifndef USE_ROCM", "#ifdef USE_ROCM")
    assert codes(unguarded) == [("HV002", 4)]


# ---------------------------------------------------------------- HV003 / HV004

@pytest.mark.parametrize("cond,expected", [
    ("ROCM_VERSION >= 11000", "HV003"),
    ("HIP_VERSION >= 11000", "HV003"),
    ("TORCH_HIP_VERSION >= 11000", "HV003"),
    ("11000 <= HIP_VERSION", "HV003"),
    ("HIP_VERSION >= CUDA_VERSION", "HV003"),
    ("HIP_VERSION >= 403", "HV004"),
    ("HIP_VERSION > 305", "HV004"),
    ("ROCM_VERSION >= 60200", None),
    ("HIP_VERSION >= 60200000", None),
    ("TORCH_HIP_VERSION >= 602", None),
])
def test_scale_rules_in_conditions(cond, expected):
    found = [c for c, _ in codes(f"#if defined(USE_ROCM) && {cond}\n#endif\n") if c != "HV001"]
    assert found == ([expected] if expected else [])


def test_scale_rules_in_code_and_cuda_only_regions():
    assert codes("void f() { if (HIP_VERSION >= 403) g(); }\n") == [("HV004", 1)]
    assert codes("bool b = TORCH_HIP_VERSION < 11000;\n") == [("HV003", 1)]
    assert codes("void f() { if (HIP_VERSION >= 60000000) g(); }\n") == []
    # dead on ROCm: nothing to report
    assert codes("#ifdef __NVCC__\n#if HIP_VERSION >= 403\n#endif\n#endif\n") == []
    assert codes("#if !defined(USE_ROCM)\nvoid f() { if (HIP_VERSION >= 403) g(); }\n#endif\n") == []


def test_scale_rules_in_macro_definitions():
    assert codes("#define NEW_HIP (HIP_VERSION >= 403)\n") == [("HV004", 1)]
    assert codes("#define AT_LEAST(v) (ROCM_VERSION >= 11000 && v)\n") == [("HV003", 1)]
    assert codes("#define NEW_HIP (HIP_VERSION >= 60000000)\n#define S \"HIP_VERSION >= 403\"\n") == []
    assert codes("#ifndef USE_ROCM\n#define X (HIP_VERSION > 305)\n#endif\n") == []


def test_files_without_version_names_cost_nothing_and_find_nothing():
    big = b"int main() { return 0; }\n" * 20000
    assert check_source(big, "big.cu") == []
