"""The C++ translator: renames, includes, launches, call fixes, byte-exactness, idempotence."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import hipport
from hipport import Options, translate_source


RUNTIME_INCLUDE = "#include <hip/hip_runtime.h>\n"


def tr(src: str, path: str = "a.cpp", **opts) -> str:
    """Translate; the runtime include that any translated file gets is checked in its own
    tests and dropped here, so that expectations show only the rewrite under test."""
    out = translate_source(src, path=path, options=Options(**opts)).text
    if RUNTIME_INCLUDE not in src and out.startswith(RUNTIME_INCLUDE):
        out = out[len(RUNTIME_INCLUDE):]
    return out

def _compiles(hipcc, source, tmp_path, *extra):
    """The real HIP compiler accepts *source* against hipport's runtime headers."""
    from hipport.runtime import include_dir

    result = hipcc(source, tmp_path, extra=[f"-I{include_dir()}", *extra])
    assert result.returncode == 0, result.stderr



def _ported(src: str, path: str, hipcc, tmp_path):
    """Translate *src*; the output is stable under a second translation and compiles for AMD."""
    result = translate_source(src, path=path)
    assert translate_source(result.text, path=path).text == result.text
    _compiles(hipcc, result.text, tmp_path)
    return result


def codes(src: str, path: str = "a.cpp", **opts) -> list[str]:
    return [d.code for d in translate_source(src, path=path, options=Options(**opts)).diagnostics]


# ------------------------------------------------------------------ renames

def test_renames_functions_types_enumerators_macros():
    src = "cudaStream_t s; cudaError_t e = cudaMemcpy(d, h, n, cudaMemcpyHostToDevice); if (e != cudaSuccess) {}"
    assert tr(src) == "hipStream_t s; hipError_t e = hipMemcpy(d, h, n, hipMemcpyHostToDevice); if (e != hipSuccess) {}"


def test_driver_api_names():
    assert tr("CUdeviceptr p; cuMemAlloc(&p, 16); CUresult r = CUDA_SUCCESS;") == \
        "hipDeviceptr_t p; hipMalloc(&p, 16); hipError_t r = hipSuccess;"


def test_driver_fixed_width_typedefs_become_the_standard_types():
    # cuda.h's cuuint64_t has no HIP alias on AMD; the type behind it compiles on both platforms
    assert tr("CUresult w(CUstream s, CUdeviceptr p, cuuint64_t v) { cuuint32_t f = 0; return cuStreamWaitValue64(s, p, v, f); }") == \
        "hipError_t w(hipStream_t s, hipDeviceptr_t p, uint64_t v) { uint32_t f = 0; return hipStreamWaitValue64(s, p, v, f); }"


def test_not_in_comments_strings_chars_or_raw_strings():
    src = '// cudaMalloc\n/* cudaFree */ const char* s = "cudaMalloc"; auto r = R"x(cudaMalloc)x"; char c = \'c\';\n'
    assert tr(src) == src


def test_exact_identifier_boundaries():
    src = "mycudaMalloc(); cudaMallocWrapper(); cudaMalloc_(); x.cudaMalloc(); p->cudaMalloc(); ns::cudaMalloc();"
    assert tr(src) == src


def test_global_qualified_name_is_renamed():
    assert tr("::cudaFree(p); return ::cudaDeviceSynchronize();") == "::hipFree(p); return ::hipDeviceSynchronize();"


def test_return_types_of_function_types_and_trailing_return_types_are_renamed():
    """xoos's `typedef CUresult (*pfn)(…)` and RAFT's `auto stream() const -> cudaStream_t`: the
    CUDA name is the return type, not a declared entity or a member."""
    src = ("typedef CUresult (*pfn_init)(unsigned int);\ntypedef cudaError_t (SyncFn)(cudaStream_t);\n"
           "static cudaError_t (&sync_ref)(cudaStream_t) = cudaStreamSynchronize;\n"
           "struct T { cudaStream_t s; auto stream() const -> cudaStream_t { return s; } };\n"
           "auto f() noexcept -> cudaError_t { return cudaSuccess; }\n"
           "auto l = [](int) -> CUresult { return cuInit(0); }; auto m = [](int&) mutable -> cudaEvent_t { return nullptr; };\n"
           "void g(Api* p) { p->cudaStream_t(); p->cudaMalloc(); }\n")
    assert tr(src) == ("typedef hipError_t (*pfn_init)(unsigned int);\ntypedef hipError_t (SyncFn)(hipStream_t);\n"
                       "static hipError_t (&sync_ref)(hipStream_t) = hipStreamSynchronize;\n"
                       "struct T { hipStream_t s; auto stream() const -> hipStream_t { return s; } };\n"
                       "auto f() noexcept -> hipError_t { return hipSuccess; }\n"
                       "auto l = [](int) -> hipError_t { return hipInit(0); }; "
                       "auto m = [](int&) mutable -> hipEvent_t { return nullptr; };\n"
                       "void g(Api* p) { p->cudaStream_t(); p->cudaMalloc(); }\n")


def test_cuda_12_v2_runtime_calls_compile(hipcc, tmp_path):
    """PyTorch's pre-CUDA-13 branch calls cudaStreamGetCaptureInfo_v2; CUDA 12.2's memory-location
    prefetch and advice are CUDA 13's plain calls, which compat.h's overloads take."""
    src = ("#include <cuda_runtime.h>\nvoid f(cudaStream_t s, float* p) {\n"
           "  cudaStreamCaptureStatus st; unsigned long long id; cudaGraph_t g; const cudaGraphNode_t* dp; size_t n;\n"
           "  cudaStreamGetCaptureInfo_v2(s, &st, &id, &g, &dp, &n);\n"
           "  cudaMemLocation loc; loc.type = cudaMemLocationTypeDevice; loc.id = 0;\n"
           "  cudaMemPrefetchAsync_v2(p, 64, loc, 0, s); cudaMemAdvise_v2(p, 64, cudaMemAdviseSetReadMostly, loc);\n}\n")
    result = _ported(src, "v2.cu", hipcc, tmp_path)
    assert "hipStreamGetCaptureInfo_v2(s, &st, &id, &g, &dp, &n);" in result.text
    assert "hipMemPrefetchAsync(p, 64, loc, 0, s); hipMemAdvise(p, 64, hipMemAdviseSetReadMostly, loc);" in result.text


def test_user_struct_member_named_like_api_is_left_alone():
    src = "struct Api { int (*cudaMalloc)(void**, size_t); int cudaFree; };\nvoid f(Api a) { a.cudaFree = 1; cudaFree(0); }"
    assert tr(src) == src.replace("cudaFree(0)", "hipFree(0)")


def test_call_after_a_statement_macro_without_semicolon_is_renamed():
    """Parboil's `CUDA_ERRCK` (a `{ … }` macro used bare): `MACRO\\n cudaMemset(…)` is no declaration."""
    src = ("#define EMPTY\n#define BLK { int z = 0; (void)z; }\n#define CHECK \\\n  { check(); }\n"
           "int f(float *d) {\n  EMPTY\n  cudaMemset(d, 0, 4);\n  BLK\n  cudaFree(d);\n  CHECK\n  cudaFree(d);\n"
           "  HEADER_MACRO\n  cudaDeviceSynchronize();\n  return 0;\n}\n")
    out = tr(src)
    assert "cudaMemset" not in out and "cudaFree" not in out and "cudaDeviceSynchronize" not in out
    # a user's own function of a CUDA name, its return type on the line before, is still the user's
    own = "cudaError_t\ncudaMalloc(void** p, size_t n) { return hipSuccess; }\n"
    assert tr(own) == own.replace("cudaError_t", "hipError_t")


def test_a_files_own_struct_named_like_a_cuda_type_is_its_own_everywhere():
    """CUDA by Example's julia: `struct cuComplex { ... }` without <cuComplex.h>."""
    src = ("struct cuComplex {\n  float r, i;\n  __device__ cuComplex(float a, float b) : r(a), i(b) {}\n"
           "  __device__ cuComplex operator*(const cuComplex& a) { return cuComplex(r * a.r - i * a.i, i * a.r + r * a.i); }\n"
           "};\n__global__ void k(float* o) { cuComplex a(o[0], o[1]); a = a * a; o[0] = a.r; cudaFree(0); }\n")
    out = tr(src)
    assert "hipComplex" not in out and "hipFree(0)" in out


def test_user_wrapper_in_namespace_resolved_with_libclang():
    src = (
        "#include <cuda_runtime.h>\n"
        "namespace mine {\n"
        "cudaError_t cudaMalloc(void** p, size_t n) { return ::cudaMalloc(p, n); }\n"
        "void f() { void* q; cudaMalloc(&q, 4); }\n"
        "}\n"
        "void g() { void* q; cudaMalloc(&q, 4); }\n"
    )
    out = tr(src)
    assert "hipError_t cudaMalloc(void** p, size_t n) { return ::hipMalloc(p, n); }" in out
    assert "void f() { void* q; cudaMalloc(&q, 4); }" in out  # the user's wrapper
    assert "void g() { void* q; hipMalloc(&q, 4); }" in out  # the API


def test_project_function_named_like_a_removed_api_in_its_own_header_is_left_alone(tmp_path):
    """The devblog's variadic `cudaLaunch(n, kernel, args...)`, declared in a project header: CUDA
    removed its cudaLaunch, so the name is the project's; libclang finds the header's declaration."""
    (tmp_path / "launch.hpp").write_text(
        "#pragma once\n#include <cuda_runtime.h>\ntemplate <typename... A>\n"
        "void cudaLaunch(int n, void (*kernel)(A...), A... args) { kernel<<<(n + 255) / 256, 256>>>(args...); }\n")
    src = ('#include "launch.hpp"\n__global__ void k(float* x, int n) {}\n'
           "void run(float* x, int n) { cudaLaunch(n, k, x, n); cudaThreadSynchronize(); }\n")
    out = translate_source(src, path=str(tmp_path / "main.cu")).text
    assert "{ cudaLaunch(n, k, x, n); hipDeviceSynchronize(); }" in out  # the API CUDA removed is still ported


def test_local_variable_named_like_a_cuda_type_stays_in_statements_clang_cannot_parse():
    """cuda-samples' `cublasStatus_t cublasStatus;` (cublasStatus is also cuBLAS's old type name):
    in `printf(...)` with no <stdio.h> for clang the statement has no AST, the variable is still
    the variable; and a second translation changes nothing."""
    src = ("#include <cublas_v2.h>\n#include <stdio.h>\nint main() {\n  cublasHandle_t handle;\n"
           "  cublasStatus_t cublasStatus;\n  cublasStatus = cublasCreate(&handle);\n"
           "  printf(\"%d\\n\", (int)cublasStatus);\n  return cublasStatus == CUBLAS_STATUS_SUCCESS ? 0 : 1;\n}\n"
           "cublasStatus f();\n")
    out = tr(src)
    assert 'printf("%d\\n", (int)cublasStatus);\n  return cublasStatus == HIPBLAS_STATUS_SUCCESS' in out
    assert "hipblasStatus_t f();" in out  # the type, outside the function declaring the variable
    assert tr(out) == out


def test_library_guards_helper_cuda_tests_become_the_hip_libraries_guards():
    """cuda-samples' helper_cuda.h defines each library's _cudaGetErrorEnum under its header's guard."""
    src = ("#ifdef CURAND_H_\nconst char* e(curandStatus_t s);\n#endif\n#ifdef CUSPARSEAPI\n#endif\n"
           "#if defined(CUBLAS_API_H_) || defined(_CUFFT_H_)\n#endif\n")
    out = tr(src)
    assert out.startswith("#ifdef HIPRAND_H_\nconst char* e(hiprandStatus_t s);\n#endif\n#ifdef _HIPSPARSE_H_\n")
    assert "#if defined(HIPBLAS_H) || defined(HIPFFT_H_)\n" in out


def test_renames_in_macro_bodies_and_every_preprocessor_branch():
    src = (
        "#define ALLOC(p, n) cudaMalloc(p, n)\n"
        "#ifdef SOMETHING\n"
        "cudaFree(p);\n"
        "#else\n"
        "cudaDeviceReset();\n"
        "#endif\n"
        "#if 0\n"
        "cudaDeviceSynchronize();\n"
        "#endif\n"
    )
    out = tr(src)
    assert "#define ALLOC(p, n) hipMalloc(p, n)" in out
    assert "hipFree(p);" in out and "hipDeviceReset();" in out and "hipDeviceSynchronize();" in out


# As hipify-clang: with --skip-excluded-preprocessor-conditional-blocks (the default preprocessor)
# an excluded branch gets no AST-level rewrite (HIP_SYMBOL, argument casts, launches), while the
# names in it are still renamed.  A symbol copy shows which branches were taken.
COPY = "cudaMemcpyToSymbol(s{0}, h, 4);"


def _taken(out: str, i: int) -> bool:
    assert "hipMemcpyToSymbol(" in out and f"cudaMemcpyToSymbol(s{i}" not in out  # renamed either way
    return f"hipMemcpyToSymbol(HIP_SYMBOL(s{i}), h, 4);" in out


def test_skip_excluded_preprocessor_blocks():
    src = "#ifdef FOO\n{0}\n#else\n{1}\n#endif\n#if 0\n{2}\n#endif\n".format(*(COPY.format(i) for i in range(3)))
    out = tr(src, skip_excluded_preprocessor_conditional_blocks=True)
    assert [_taken(out, i) for i in range(3)] == [False, True, False]
    out = tr(src, skip_excluded_preprocessor_conditional_blocks=True, defines=("FOO",))
    assert [_taken(out, i) for i in range(3)] == [True, False, False]
    assert [_taken(tr(src), i) for i in range(3)] == [True, True, True]  # by default every branch
    launch = "#if 0\nk<<<1, 2>>>(x);\n#else\nk<<<3, 4>>>(x);\n#endif\n"
    out = tr(launch, skip_excluded_preprocessor_conditional_blocks=True, hip_kernel_execution_syntax=True)
    assert "k<<<1, 2>>>(x);" in out and "hipLaunchKernelGGL(k, dim3(3), dim3(4), 0, 0, x);" in out


def test_skip_excluded_blocks_take_the_compilers_feature_tests():
    """`#ifdef __has_include` / `#if __has_include(<x>)`: the compiler's own operators (set BU)."""
    src = "#ifdef __has_include\n#if __has_include(<cstdio>)\n{0}\n#endif\n#endif\n#if !defined(__has_builtin)\n{1}\n#endif\n"
    out = tr(src.format(COPY.format(0), COPY.format(1)), skip_excluded_preprocessor_conditional_blocks=True)
    assert [_taken(out, i) for i in range(2)] == [True, False]


def test_skip_excluded_blocks_honour_the_files_own_defines():
    src = ("#define USE_FLOAT\n#define LEVEL 2\n#ifdef USE_FLOAT\n{0}\n#endif\n"
           "#if LEVEL > 1\n{1}\n#endif\n#undef USE_FLOAT\n#ifdef USE_FLOAT\n{2}\n#endif\n"
           "#if 0\n#define USE_DOUBLE\n#endif\n#ifdef USE_DOUBLE\n{3}\n#endif\n").format(*(COPY.format(i) for i in range(4)))
    out = tr(src, skip_excluded_preprocessor_conditional_blocks=True)
    # #undef'd before the third; the fourth's macro is defined only in an excluded block
    assert [_taken(out, i) for i in range(4)] == [True, True, False, False]


def test_define_of_a_cuda_name_is_renamed_with_its_uses():
    assert tr("#define cudaMalloc myMalloc\ncudaMalloc(&p, 4);\n") == "#define hipMalloc myMalloc\nhipMalloc(&p, 4);\n"
    # a HIP port's own header maps CUDA names onto HIP's (the CUDA Handbook): renaming the macro would
    # define HIP's name as itself
    src = "#ifdef __HIPCC__\n#define cudaHostAllocMapped hipHostMallocMapped  // same\n#endif\nint f() { return cudaHostAllocMapped; }\n"
    assert tr(src) == src.replace("return cudaHostAllocMapped", "return hipHostMallocMapped")


def test_unsupported_api_left_with_warning_and_amap_translates():
    from hipport.rules import default_rules

    unsupported = [r for r in default_rules().rules if r.status == "unsupported" and r.kind == "function"
                   and r.family == "runtime"]
    assert unsupported, "the rules list unsupported runtime functions"
    with_hip = next((r for r in unsupported if r.hip), None)
    rule = unsupported[0]
    src = f"{rule.cuda}(x);"
    result = translate_source(src, path="a.cpp")
    assert result.text == src
    [diag] = result.diagnostics
    assert diag.code == "HP001" and rule.cuda in diag.message and (diag.line, diag.column) == (1, 1)
    if with_hip is not None:
        assert tr(f"{with_hip.cuda}(x);", amap=True) == f"{with_hip.hip}(x);"


def test_roc_targets_for_libraries():
    out = tr("#include <cublas_v2.h>\ncublasHandle_t h; cublasCreate(&h);", roc=True)
    assert "rocblas" in out and "cublas" not in out


# ------------------------------------------------------------------ includes

def test_headers_mapped_and_duplicates_dropped():
    src = "#include <cuda_runtime.h>\n#include <cuda.h>\n#include \"cuda_runtime_api.h\"\n#include \"mine.h\"\n"
    out = tr(src)
    assert out.count("hip/hip_runtime") == 1 or out.count("hip_runtime") <= 2
    assert '#include "mine.h"' in out
    assert "cuda" not in out


def test_duplicate_include_with_a_trailing_comment_keeps_the_comment():
    src = '#include <cuda.h>\n# include "cuda_runtime.h"  // runtime too\nint x;\n'
    assert translate_source(src, path="a.cpp").text == "#include <hip/hip_runtime.h>\n// runtime too\nint x;\n"


def test_toolkit_headers_named_by_their_installed_path_are_mapped():
    """GASAL2's `#include "/usr/include/cuda_runtime.h"`: no AMD machine has that file."""
    src = ('#include "/usr/include/cuda_runtime.h"\n#include "/usr/local/cuda-12.4/targets/x86_64-linux/include/curand_kernel.h"\n'
           '#include "../../../../usr/include/host_defines.h"\n#include "/opt/proj/include/mine.h"\n'
           '#include "include/cuda_helpers.h"\n')
    out = tr(src)
    assert out.startswith('#include "hip/hip_runtime.h"\n#include "hiprand/hiprand_kernel.h"\n')
    assert "host_defines" not in out  # the runtime header is there already
    assert '#include "/opt/proj/include/mine.h"\n#include "include/cuda_helpers.h"\n' in out and tr(out) == out


def test_curand_mtgp32_setup_builds(hipcc, tmp_path):
    """The cuRAND docs' MTGP32 setup: the parameter tables' header (flat, as hipify-clang writes it:
    hipport's include directory forwards it to rocRAND's) and hipRAND's typedef for the struct tag."""
    src = ("#include <curand_kernel.h>\n#include <curand_mtgp32_host.h>\n#include <curand_mtgp32dc_p_11213.h>\n"
           "void setup(curandStateMtgp32 *st) {\n  struct mtgp32_kernel_params *kp;\n"
           "  cudaMalloc((void **)&kp, sizeof(mtgp32_kernel_params));\n"
           "  curandMakeMTGP32Constants(mtgp32dc_params_fast_11213, kp);\n"
           "  curandMakeMTGP32KernelState(st, mtgp32dc_params_fast_11213, kp, 64, 1234);\n}\n")
    out = _ported(src, "m.cu", hipcc, tmp_path).text
    assert "#include <rocrand_mtgp32_11213.h>" in out
    assert "  mtgp32_kernel_params_t *kp;" in out and "sizeof(mtgp32_kernel_params_t)" in out


@pytest.mark.parametrize("header", ["nvshmem.h", "nppi.h", "nvjpeg.h", "nvcomp/lz4.h", "nvtx3/nvtx3.hpp", "NvInfer.h",
                                    "optix.h", "cutlass/gemm/device/gemm.h", "cudaD3D11.h", "nvfunctional"])
def test_nvidia_sdk_headers_without_a_hip_counterpart_are_reported(header):
    result = translate_source(f"#include <{header}>\n#include <cuda_runtime.h>\n", path="s.cu")
    assert f"#include <{header}>" in result.text
    assert [d.code for d in result.diagnostics if header in d.message] == ["HP005"]


def test_a_default_macro_block_at_the_top_is_no_include_guard():
    """`#ifndef BLOCK / #define BLOCK 256 / #endif` opening a .cu: a `-DBLOCK=128` build skips the
    block, so the runtime include goes above it; a real guard still gets it inside."""
    out = translate_source("#ifndef BLOCK\n#define BLOCK 256\n#endif\n__global__ void k(int* d) { d[0] = BLOCK; }\n"
                           "void run(int* d) { k<<<1, BLOCK>>>(d); cudaDeviceSynchronize(); }\n", path="b.cu").text
    assert out.startswith("#include <hip/hip_runtime.h>\n#ifndef BLOCK\n#define BLOCK 256\n#endif\n")
    guarded = translate_source("#ifndef K_CUH\n#define K_CUH\n__global__ void k(int* d);\n"
                               "inline void s() { cudaDeviceSynchronize(); }\n#endif  // K_CUH\n", path="k.cuh").text
    assert guarded.startswith("#ifndef K_CUH\n#include <hip/hip_runtime.h>\n#define K_CUH\n") or \
        guarded.startswith("#ifndef K_CUH\n#define K_CUH\n#include <hip/hip_runtime.h>\n"), guarded
    assert translate_source(out, path="b.cu").text == out


def test_include_spelled_with_a_digraph_or_a_comment_after_the_hash_is_mapped():
    src = "%:include <cuda_runtime.h>\n  # /* c */ include /* d */ <curand_kernel.h>\n// %:include <cuda.h>\n"
    out = tr(src, path="a.cpp")
    assert out == "%:include <hip/hip_runtime.h>\n  # /* c */ include /* d */ <hiprand/hiprand_kernel.h>\n// %:include <cuda.h>\n"
    assert tr(out, path="a.cpp") == out


def test_identifier_cut_by_a_line_splice_is_renamed_and_keeps_the_line_count():
    src = "void f(float* d) {\r\n  cuda\\\r\nFree(d); my\\\nvar(); // cuda\\\nMalloc\n  int cudaFree\\\nList = 1;\n}\n"
    out = tr(src, path="a.cpp")
    assert "hipFree\\\r\n(d);" in out
    assert "int cudaFree\\\nList = 1;" in out  # (set CC) one word of the user's: its bytes stay
    assert "my\\\nvar();" in out and "// cuda\\\nMalloc" in out  # not CUDA; a comment
    assert out.startswith("#include <hip/hip_runtime.h>\r\n")
    assert out.count("\n") == src.count("\n") + 1  # the include line only
    assert tr(out, path="a.cpp") == out


def test_runtime_include_for_cuda_used_only_under_a_build_test_goes_under_that_test():
    """A C/C++ file that calls CUDA only under `#ifdef USE_CUDA`, its CUDA header coming from a
    project header: the CPU-only build of the port must not need HIP's headers."""
    src = ('#include <stdio.h>\n#include "gpu.h"\nint main(void) {\n#ifdef USE_CUDA\n  cudaFree(0);\n'
           "#else\n  puts(\"cpu\");\n#endif\n#ifdef USE_CUDA\n  cudaDeviceSynchronize();\n#endif\n}\n")
    out = translate_source(src, path="main.c").text
    assert out.startswith("#ifdef USE_CUDA\n#include <hip/hip_runtime.h>\n#endif\n#include <stdio.h>\n")
    assert translate_source(out, path="main.c").text == out
    mixed = src.replace("#ifdef USE_CUDA\n  cudaDeviceSynchronize", "#if defined(GPU)\n  cudaDeviceSynchronize")
    assert translate_source(mixed, path="main.c").text.startswith("#include <hip/hip_runtime.h>\n#include <stdio.h>\n")
    in_else = "#ifndef NO_GPU\nint x;\n#else\nvoid f() { cudaFree(0); }\n#endif\n"
    assert translate_source(in_else, path="a.cpp").text.startswith("#include <hip/hip_runtime.h>\n")


def test_a_project_header_named_like_a_cuda_header_is_the_projects(tmp_path):
    """darknet's src/cuda.h: `#include "cuda.h"` finds it first, so it stays (and is translated itself)."""
    (tmp_path / "cuda.h").write_text("#include <cuda_runtime.h>\n#define BLOCK 512\n")
    src = '#include "cuda.h"\n#include "cuda_runtime.h"\nvoid f() { cudaDeviceSynchronize(); }\n'
    out = translate_source(src, path=str(tmp_path / "k.cu")).text
    # (the runtime first, as nvcc's implicit include is: the project's cuda.h may rely on it)
    assert out.startswith('#include <hip/hip_runtime.h>\n#include "cuda.h"\n')
    assert out.endswith("void f() { hipDeviceSynchronize(); }\n") and translate_source(out, path=str(tmp_path / "k.cu")).text == out
    elsewhere = translate_source(src, path=str(tmp_path / "sub" / "k.cu")).text  # no cuda.h beside it
    assert '"cuda.h"' not in elsewhere

    # warpsort's own `cuda/` folder, found through -I (the option's or the compiler's after `--`):
    # not libcu++'s <cuda/...>, which has no HIP counterpart; a toolkit's include directory is the toolkit's
    (tmp_path / "cuda").mkdir()
    (tmp_path / "cuda" / "Pair.cuh").write_text("struct Pair { int k, v; };\n")
    inc = '#include "cuda/Pair.cuh"\n'
    for options in (Options(include_dirs=(str(tmp_path),)), Options(clang_args=(f"-I{tmp_path}",))):
        res = translate_source(inc, path=str(tmp_path / "sub" / "s.cuh"), options=options)
        assert res.text == inc and not [d for d in res.diagnostics if d.code == "HP005"]
    toolkit = tmp_path / "cuda-12.4" / "include" / "cuda"
    toolkit.mkdir(parents=True)
    (toolkit / "Pair.cuh").write_text("\n")
    res = translate_source(inc, path=str(tmp_path / "sub" / "s.cuh"), options=Options(include_dirs=(str(toolkit.parent),)))
    assert [d.code for d in res.diagnostics] == ["HP005"]


def test_cuda_headers_inside_extern_c_are_also_included_before_the_block(hipcc, tmp_path):
    src = ("#include <stdio.h>\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n#include <cuda_runtime.h>\n"
           "#include <curand.h>\n#ifdef __cplusplus\n}\n#endif\n"
           "__global__ void k(float* p) { p[threadIdx.x] = 0; }\nvoid run(float* p, curandGenerator_t* g) { k<<<1, 32>>>(p); }\n")
    out = _ported(src, "c.cu", hipcc, tmp_path).text
    assert out.startswith("#include <hip/hip_runtime.h>\n#include <stdio.h>\n#include <hiprand/hiprand.h>\n#ifdef __cplusplus\n")
    assert out.count("#include <hiprand/hiprand.h>") == 2  # the inner one is empty on a second inclusion


def test_cuda_headers_a_project_header_brings_into_extern_c_are_included_before_it(tmp_path):
    """darknet: `extern "C" { #include "crop_layer.h" }`, whose headers include <curand.h>."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "layer.h").write_text('#include "inc/deep.h"\nvoid f(void);\n')
    (tmp_path / "inc" / "deep.h").write_text('#include "cuda_runtime.h"\n#include <curand.h>\n#include "layer.h"\n')
    src = 'extern "C" {\n#include "layer.h"\n}\n__global__ void k(float* x) { x[0] = 0; }\n'
    out = translate_source(src, path=str(tmp_path / "k.cu")).text
    assert out.startswith('#include <hip/hip_runtime.h>\n#include <hiprand/hiprand.h>\nextern "C" {\n#include "layer.h"\n')
    assert translate_source(out, path=str(tmp_path / "k.cu")).text == out


def test_shim_headers_a_project_header_needs_are_included_before_the_namespace_holding_it(hipcc, tmp_path):
    """uDeviceX: `namespace d { #include "imp.h" }`, whose translation includes hipport/compat.h (for
    cudaHostAlloc's typed overload, for blockIdx passed as a dim3): left inside the namespace, its
    declarations land there; the includer includes it first, and its guard empties the inner copy."""
    from hipport.runtime import include_dir

    (tmp_path / "imp.h").write_text("__device__ int flat(dim3 b) { return b.x + b.y * 7; }\n"
                                    "__global__ void k(int* o) { o[threadIdx.x] = flat(blockIdx); }\n"
                                    "int pin(float** p) { return cudaHostAlloc(p, 64, cudaHostAllocMapped) == cudaSuccess; }\n")
    src = 'namespace d {\n#include "imp.h"\n}\nint main() { d::k<<<1, 1>>>(nullptr); }\n'
    out = translate_source(src, path=str(tmp_path / "k.cu")).text
    assert out.startswith('#include <hip/hip_runtime.h>\n#include <hipport/compat.h>\nnamespace d {\n#include "imp.h"\n')
    assert translate_source(out, path=str(tmp_path / "k.cu")).text == out
    header = translate_source((tmp_path / "imp.h").read_text(), path=str(tmp_path / "imp.h")).text
    (tmp_path / "imp.h").write_text(header)
    assert "#include <hipport/compat.h>" in header
    built = hipcc(out, tmp_path, "k.hip", extra=[f"-I{include_dir()}", f"-I{tmp_path}"])
    assert built.returncode == 0, built.stderr


def test_a_kernel_source_in_a_raw_string_needs_no_runtime_include():
    src = 'R"===(\n__global__ void k(float* p) { p[threadIdx.x] = 0; }\n)==="\n'
    assert translate_source(src, path="kernel_src.h").text == src


def test_runtime_internal_nvtx_v2_and_profiling_headers():
    """driver_functions.h (CS149's starter code), NVTX v2's CUDA extension, CUPTI; cuda_fp4.h needs HIP 7."""
    src = ("#include <driver_functions.h>\n#include <nvToolsExtCuda.h>\n#include <cupti_activity.h>\n"
           "#include <cuda_fp4.h>\n")
    result = translate_source(src, path="h.cpp", options=Options(hip_version="5.2"))
    assert result.text.startswith("#include <hip/hip_runtime.h>\n#include <roctracer/roctx.h>\n#include <cupti_activity.h>\n"
                                  "#include <hip/hip_fp4.h>\n")
    assert [d.code for d in result.diagnostics] == ["HP005", "HP008"]


def test_edge_cases_of_includes_line_ends_and_header_names():
    """(set AJ) a CUDA include under `#ifdef` first; a classic-Mac (CR-only) file and a stray CR that
    ends a // comment (both newlines to a compiler); header names outside include lines."""
    fp16 = translate_source("#ifdef USE_FP16\n#include <cuda_fp16.h>\n#endif\n#include <cuda_runtime.h>\n"
                            "int main() { void* p; cudaMalloc(&p, 4); }\n", path="f.cu").text
    assert fp16.startswith("#ifdef USE_FP16\n#include <hip/hip_fp16.h>\n#endif\n#include <hip/hip_runtime.h>\n")
    mac = translate_source("// c\r#include <cuda_runtime.h>\rvoid f() { cudaFree(0); }\r", path="m.cu").text
    assert mac == "// c\r#include <hip/hip_runtime.h>\rvoid f() { hipFree(0); }\r"
    stray = translate_source("void f() { // old\r cudaFree(0);\n}\n", path="s.cpp").text
    assert "// old\r hipFree(0);" in stray
    names = translate_source("#define RT <cuda_runtime.h>\n#include RT\n#if __has_include(<cuda_fp16.h>)\n#endif\n",
                             path="h.cpp").text
    assert "#define RT <hip/hip_runtime.h>\n" in names and "__has_include(<hip/hip_fp16.h>)" in names
    for text, path in ((fp16, "f.cu"), (mac, "m.cu"), (stray, "s.cpp"), (names, "h.cpp")):
        assert translate_source(text, path=path).text == text


def test_cu_file_gets_runtime_include_once_and_idempotently():
    src = "// license\n#include <cstdio>\n__global__ void k() {}\nint main() { k<<<1, 1>>>(); cudaDeviceSynchronize(); }\n"
    out = tr(src, path="k.cu")
    assert out.count("#include <hip/hip_runtime.h>") == 1
    assert out.index("#include <hip/hip_runtime.h>") < out.index("#include <cstdio>")
    assert tr(out, path="k.cu") == out


def test_runtime_include_after_pragma_once_or_guard():
    out = translate_source("// c\n#pragma once\nvoid f() { cudaFree(0); }\n", path="h.cuh").text
    assert out == "// c\n#pragma once\n#include <hip/hip_runtime.h>\nvoid f() { hipFree(0); }\n"
    out = translate_source("#ifndef G_H\n#define G_H\nvoid f() { cudaFree(0); }\n#endif\n", path="g.h").text
    assert out == "#ifndef G_H\n#define G_H\n#include <hip/hip_runtime.h>\nvoid f() { hipFree(0); }\n#endif\n"


def test_cpp_file_without_cuda_is_unchanged():
    src = "#include <vector>\nint main() { return 0; }\n"
    assert tr(src, path="plain.cpp") == src
    # nvcc includes cuda_runtime.h into every .cu file (its headers may rely on it), as hipify-clang does
    assert translate_source(src, path="plain.cu").text == "#include <hip/hip_runtime.h>\n" + src


def test_runtime_include_goes_inside_the_include_guard():
    src = "#ifndef G_H\n#pragma once\n#define G_H\n#include <stdio.h>\nvoid f() { cudaFree(0); }\n#endif\n"
    out = translate_source(src, path="g.h").text
    assert out == ("#ifndef G_H\n#include <hip/hip_runtime.h>\n#pragma once\n#define G_H\n#include <stdio.h>\n"
                   "void f() { hipFree(0); }\n#endif\n")
    assert translate_source(out, path="g.h").text == out
    # idempotent where a HIP library header needs the runtime too (hipify's headers_test_12_SOLVER)
    src = "#ifndef G_H\n#pragma once\n#define G_H\n#include \"cusolverDn.h\"\n#endif\n"
    out = translate_source(src, path="g.cu").text
    assert out == "#ifndef G_H\n#include <hip/hip_runtime.h>\n#pragma once\n#define G_H\n#include \"hipsolver.h\"\n#endif\n"
    assert translate_source(out, path="g.cu").text == out
    # not a guard: the include goes before the first #include
    out = translate_source("#ifndef X\n#include <stdio.h>\n#endif\nvoid f() { cudaFree(0); }\n", path="x.h").text
    assert out.index("hip/hip_runtime.h") < out.index("stdio.h")


def test_runtime_include_precedes_cooperative_groups_in_cu_files():
    src = "#include <cooperative_groups.h>\n#include <cuda_runtime.h>\n__global__ void k() {}\n"
    out = translate_source(src, path="cg.cu").text
    lines = [l for l in out.splitlines() if l.startswith("#include")]
    assert lines == ["#include <hip/hip_runtime.h>", "#include <hip/hip_cooperative_groups.h>"]


# ------------------------------------------------------------------ launches

@pytest.mark.parametrize("src,expected", [
    ("k<<<g, b>>>(x, y);", "hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, x, y);"),
    ("k<<<g, b, shm>>>(x);", "hipLaunchKernelGGL(k, dim3(g), dim3(b), shm, 0, x);"),
    ("k<<<g, b, shm, s>>>();", "hipLaunchKernelGGL(k, dim3(g), dim3(b), shm, s);"),
    ("ns::k<float, 3><<<dim3(1, 2), 32, 0, st>>>(p);",
     "hipLaunchKernelGGL(HIP_KERNEL_NAME(ns::k<float, 3>), dim3(1, 2), dim3(32), 0, st, p);"),
    ("k<<<f(a, b), g(c)>>>(h(1, 2), 3);", "hipLaunchKernelGGL(k, dim3(f(a, b)), dim3(g(c)), 0, 0, h(1, 2), 3);"),
])
def test_hip_kernel_execution_syntax(src, expected):
    assert tr(src, hip_kernel_execution_syntax=True) == expected


def test_launch_with_a_comparison_among_template_arguments():
    out = tr("k<float, (3 > 2 ? 1 : 2)><<<1, 1>>>(x);", hip_kernel_execution_syntax=True)
    assert out == "hipLaunchKernelGGL(HIP_KERNEL_NAME(k<float, (3 > 2 ? 1 : 2)>), dim3(1), dim3(1), 0, 0, x);"


def test_launch_of_deduced_template_kernel_uses_hip_kernel_name():
    src = "template <typename T>\n__global__ void k(T* p) {}\nvoid f(float* p) { k<<<1, 1>>>(p); }\n"
    out = tr(src, hip_kernel_execution_syntax=True)
    assert "hipLaunchKernelGGL(HIP_KERNEL_NAME(k), dim3(1), dim3(1), 0, 0, p);" in out
    # a macro naming a template instance: its comma would split hipLaunchKernelGGL's arguments
    out = tr("#define KN k<float, 2>\nvoid f() { KN<<<1, 2>>>(p); plain<<<1, 2>>>(p); }\n", hip_kernel_execution_syntax=True)
    assert "hipLaunchKernelGGL(HIP_KERNEL_NAME(KN), dim3(1), dim3(2), 0, 0, p);" in out
    assert "hipLaunchKernelGGL(plain, dim3(1), dim3(2), 0, 0, p);" in out
    out = tr("#define KN k<float, 2>\r\nvoid f() { KN<<<1, 2>>>(p); }\r\n", hip_kernel_execution_syntax=True)
    assert "hipLaunchKernelGGL(HIP_KERNEL_NAME(KN), dim3(1), dim3(2), 0, 0, p); }\r\n" in out  # CRLF files too
    # a multi-line launch of a CRLF file keeps its line breaks as CRLF
    src = "void go(float* p, int n, cudaStream_t s) {\r\n  k<<<(n + 255) / 256,\r\n      256, 0, s>>>(p, n);\r\n}\r\n"
    out = tr(src, hip_kernel_execution_syntax=True)
    assert out.count("\r\n") == out.count("\n") == 5 and "hipLaunchKernelGGL(k, dim3((n + 255) / 256)" in out



def test_rewritten_launches_keep_their_comments_and_pasted_names(hipcc, tmp_path):
    """(sets CC, CA) with --hip-kernel-execution-syntax: a `// block size` after a configuration
    argument stays a comment (the `)` closing dim3( is not swallowed), comments between the
    chevrons and before the arguments survive, a macro that pastes or stringizes a parameter
    is rewritten in its #define only (its uses are the preprocessor's to expand), and a kernel
    named by pasting (`add_##name##_kernel<<<…>>>`) is launched whole."""
    src = ("__global__ void kern(int* p, int a) { p[0] = a; }\n__global__ void add_f32_kernel(int* p, int a) {}\n"
           "#define RUN(p, s) kern<<<1, 1>>>(p, s##_val)\n#define RUNS(p) kern<<<1, 1>>>(p, (int)sizeof(#p))\n"
           "#define LAUNCH(name) void launch_##name(int* a) { add_##name##_kernel<<<1, 32>>>(a, 1); }\nLAUNCH(f32)\n"
           "void run(int* d) {\n  kern<<<1, 2 // block size\n     >>>(d, 2);\n"
           "  kern<<</*grid*/1, /*block*/1>>> /* why */ (d, 1);\n  int a_val = 1; RUN(d, a); RUNS(d);\n}\n")
    out = tr(src, hip_kernel_execution_syntax=True)
    assert "hipLaunchKernelGGL(kern, dim3(1), dim3(2), 0, 0, // block size\nd, 2);" in out
    assert "hipLaunchKernelGGL(kern, dim3(/*grid*/1), dim3(/*block*/1), 0, 0, /* why */ d, 1);" in out
    assert "#define RUN(p, s) hipLaunchKernelGGL(kern, dim3(1), dim3(1), 0, 0, p, s##_val)" in out
    assert "RUN(d, a); RUNS(d);" in out
    assert "{ hipLaunchKernelGGL(add_##name##_kernel, dim3(1), dim3(32), 0, 0, a, 1); }" in out
    assert tr(out, hip_kernel_execution_syntax=True) == out
    _compiles(hipcc, RUNTIME_INCLUDE + out, tmp_path)


def test_kernels_cast_to_function_pointers_get_the_void_cast_and_expression_launches_stay(hipcc, tmp_path):
    """(set CE) an overloaded kernel picked by `static_cast<void(*)(float*)>(k)` or `(void(*)(int*))k`,
    and a parenthesized template kernel, still need `const void*` (only a cast to a void pointer is
    one already); with --hip-kernel-execution-syntax a launch in a conditional expression's branch
    or under a `(void)` cast is an expression, left in <<<>>> (HP018)."""
    src = ("#include <cuda_runtime.h>\n__global__ void k(float*) {}\n__global__ void k(int*) {}\n"
           "template <int N> __global__ void tk(float*) {}\n"
           "void f(int* p, bool c) {\n  cudaFuncAttributes a;\n"
           "  cudaFuncGetAttributes(&a, static_cast<void(*)(float*)>(k));\n"
           "  cudaFuncSetAttribute((void(*)(int*))k, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);\n"
           "  cudaFuncGetAttributes(&a, (tk<4>));\n  cudaFuncGetAttributes(&a, (const void*)tk<8>);\n"
           "  c ? void() : k<<<1, 1>>>(p);\n  if (p) return;\n  (void)k<<<1, 1>>>(p);\n}\n")
    result = translate_source(src, path="c.cu", options=Options(hip_kernel_execution_syntax=True))
    out = result.text
    assert "hipFuncGetAttributes(&a, reinterpret_cast<const void*>(static_cast<void(*)(float*)>(k)));" in out
    assert "hipFuncSetAttribute(reinterpret_cast<const void*>((void(*)(int*))k), " in out
    assert "hipFuncGetAttributes(&a, reinterpret_cast<const void*>((tk<4>)));" in out
    assert "hipFuncGetAttributes(&a, (const void*)tk<8>);" in out
    assert "  c ? void() : k<<<1, 1>>>(p);\n" in out and "  (void)k<<<1, 1>>>(p);\n" in out
    assert [d.code for d in result.diagnostics if d.code == "HP018"] == ["HP018", "HP018"]
    _compiles(hipcc, out, tmp_path)

def test_launch_kept_by_default_and_multiline_and_macro_launches():
    src = "#define LAUNCH(k, n) k<<<n, 256>>>(ptr)\nk<<<\n  grid, // grid\n  block>>>(\n  a,\n  b);\n"
    assert tr(src) == src
    out = tr(src, hip_kernel_execution_syntax=True)
    assert "#define LAUNCH(k, n) hipLaunchKernelGGL(k, dim3(n), dim3(256), 0, 0, ptr)" in out
    # every line break stays, so the lines after the launch keep their numbers
    assert "hipLaunchKernelGGL(k, dim3(\n  grid), dim3(// grid\n  block), 0, 0,\n  a,\n  b);" in out
    assert out.count("\n") == src.count("\n")
    assert tr(out, hip_kernel_execution_syntax=True) == out


def test_a_launch_spliced_over_lines_of_a_define_stays_spliced(hipcc, tmp_path):
    """(set BX) PyTorch's TensorTopK LAUNCH_KERNEL: the kernel name, `<<<` and the arguments on
    spliced lines of a #define body; the rewrite keeps each line break spliced."""
    src = ("template <int N> __global__ void topk(float* p) { p[0] = N; }\n"
           "void sortk(float* d, hipStream_t s) {\n  #define LAUNCH_K(SIZE) \\\n    topk<SIZE> \\\n"
           "      <<<2, 32, 0, s>>>( \\\n          d); \\\n    (void)0\n  LAUNCH_K(32);\n}\n")
    out = tr(src, path="t.cu", hip_kernel_execution_syntax=True)
    assert "hipLaunchKernelGGL(HIP_KERNEL_NAME(topk<SIZE>), dim3( \\\n2), dim3(32), 0, s, \\\n          d); \\\n" in out
    assert out.count("\n") == src.count("\n") and tr(out, path="t.cu", hip_kernel_execution_syntax=True) == out
    assert hipcc("#include <hip/hip_runtime.h>\n" + out, tmp_path).returncode == 0


def test_launches_through_macros_are_rewritten_where_the_macro_is_used():
    src = ("#define LAUNCH(k, g, b, ...) \\\n    k<<<g, b>>>(__VA_ARGS__);\n"
           "#define CALL axpy<float><<<1, n>>>\n#define WHOLE k<<<1, 1>>>(x)\n"
           "void f() {\n  LAUNCH(inc, grid, block, a, cudaMemcpyHostToDevice);\n  CALL(a, b);\n  WHOLE;\n"
           "  // LAUNCH(in, a, comment)\n}\n")
    out = tr(src, hip_kernel_execution_syntax=True)
    assert "  hipLaunchKernelGGL(inc, dim3(grid), dim3(block), 0, 0, a, hipMemcpyHostToDevice);\n" in out
    assert "  hipLaunchKernelGGL(HIP_KERNEL_NAME(axpy<float>), dim3(1), dim3(n), 0, 0, a, b);\n" in out
    # the #define stays valid for uses elsewhere; a complete launch is rewritten in place
    assert "hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, __VA_ARGS__);" in out
    assert "#define CALL axpy<float><<<1, n>>>\n" in out
    assert "#define WHOLE hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, x)\n" in out and "  WHOLE;\n" in out
    assert "// LAUNCH(in, a, comment)" in out
    assert tr(out, hip_kernel_execution_syntax=True) == out
    assert tr(src) == src.replace("cudaMemcpyHostToDevice", "hipMemcpyHostToDevice")  # <<<>>> kept by default


def test_a_launch_macro_defined_in_two_branches_keeps_its_uses():
    """`L` is a graph call with USE_GRAPH and a launch without: expanding the launch at the use
    would pick the configuration, so the use stays and the launch branch keeps working."""
    src = ("#ifdef USE_GRAPH\n#define L(g, b) launch_graph(g, b)\n#else\n#define L(g, b) k<<<g, b>>>(d)\n#endif\n"
           "void f() { L(2, 64); }\n")
    out = tr(src, hip_kernel_execution_syntax=True)
    assert "#define L(g, b) hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, d)\n" in out
    assert "void f() { L(2, 64); }" in out and "launch_graph(g, b)" in out


def test_launch_config_with_cuda_names_still_renamed():
    out = tr("k<<<1, 1, 0, cudaStreamPerThread>>>(cudaMemcpyHostToDevice);", hip_kernel_execution_syntax=True)
    assert out == "hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, hipStreamPerThread, hipMemcpyHostToDevice);"


# ------------------------------------------------------------------ call fixes

def test_hip_symbol_wrapping():
    src = ("void* p; cudaMemcpyToSymbol(c, h, 4); cudaMemcpyFromSymbol(h, c, 4); cudaGetSymbolAddress(&p, c);"
           " cudaGetSymbolSize(&n, c); cudaMemcpyToSymbolAsync(sym<int>, h, 4, 0, cudaMemcpyHostToDevice, s);")
    out = tr(src)
    assert out == ("void* p; hipMemcpyToSymbol(HIP_SYMBOL(c), h, 4); hipMemcpyFromSymbol(h, HIP_SYMBOL(c), 4); "
                   "hipGetSymbolAddress(&p, HIP_SYMBOL(c)); hipGetSymbolSize(&n, HIP_SYMBOL(c)); "
                   "hipMemcpyToSymbolAsync(HIP_SYMBOL(sym<int>), h, 4, 0, hipMemcpyHostToDevice, s);")
    assert tr(out) == out
    # a template argument list's comma would split the macro's argument
    two = tr("cudaMemcpyToSymbol(tab<float, 4>, h, 16);")
    assert two == "hipMemcpyToSymbol(HIP_SYMBOL((tab<float, 4>)), h, 16);" and tr(two) == two


def test_kernel_arguments_get_const_void_cast_against_older_cuda(tmp_path, monkeypatch):
    monkeypatch.delenv("CUDA_PATH", raising=False)
    cuda12 = _fake_cuda(tmp_path / "cuda12", 12080)
    out = tr("cudaFuncSetCacheConfig(k<float, 2>, cudaFuncCachePreferL1); cudaFuncGetAttributes(&a, k);"
             " cudaLaunchKernel((const void*)k, g, b, args, 0, s);", cuda_path=cuda12)
    assert "hipFuncSetCacheConfig(reinterpret_cast<const void*>(k<float, 2>), hipFuncCachePreferL1)" in out
    assert "hipFuncGetAttributes(&a, reinterpret_cast<const void*>(k))" in out
    assert "hipLaunchKernel((const void*)k, g, b, args, 0, s)" in out
    coop = tr("cudaLaunchCooperativeKernel(k, g, b, args, 0, s);", cuda_path=cuda12)
    assert coop == "hipLaunchCooperativeKernel(reinterpret_cast<const void*>(k), g, b, args, 0, s);"
    assert tr(coop, cuda_path=cuda12) == coop


def test_kernel_arguments_stay_as_they_are_against_cuda_13(tmp_path, monkeypatch):
    """hipify-clang's current reinterpret_cast.cu: `hipFuncGetAttributes(&attr, &fn)`; compat.h's
    function-pointer overloads make it compile (test_runtime_headers)."""
    monkeypatch.delenv("CUDA_PATH", raising=False)
    cuda13 = _fake_cuda(tmp_path / "cuda13", 13000)
    out = tr("cudaFuncGetAttributes(&a, &fn); cudaFuncSetAttribute(k<float, 2>, attr, 1);", cuda_path=cuda13)
    assert out == ("#include <hipport/compat.h>\n"
                   "hipFuncGetAttributes(&a, &fn); hipFuncSetAttribute(k<float, 2>, attr, 1);")
    assert tr(out, cuda_path=cuda13) == out
    # an explicit cast or a void* handle needs no overload of ours
    plain = "void* f; hipLaunchCooperativeKernel((void*)k, g, b, args, 0, s); hipFuncSetCacheConfig(f, c);"
    assert tr(plain.replace("hip", "cuda"), cuda_path=cuda13) == plain


def test_kernel_arguments_get_the_cast_when_no_toolkit_is_named(monkeypatch):
    """Only --cuda-path decides: an installed CUDA ($CUDA_PATH, /usr/local/cuda) does not make the
    same file translate differently on another machine.  Without one, handles get the cast that
    compiles against every HIP without compat.h (a void* handle too, as hipify-clang writes it)."""
    monkeypatch.setenv("CUDA_PATH", "/usr/local/cuda")
    out = tr("void* f; cudaFuncGetAttributes(&a, k); cudaLaunchCooperativeKernel(k, g, b, args, 0, s);"
             " cudaFuncSetCacheConfig(f, c);")
    assert out == ("void* f; hipFuncGetAttributes(&a, reinterpret_cast<const void*>(k)); "
                   "hipLaunchCooperativeKernel(reinterpret_cast<const void*>(k), g, b, args, 0, s);"
                   " hipFuncSetCacheConfig(reinterpret_cast<const void*>(f), c);")
    monkeypatch.delenv("CUDA_PATH")
    assert tr("cudaFuncGetAttributes(&a, k);") == "hipFuncGetAttributes(&a, reinterpret_cast<const void*>(k));"


def _fake_cuda(root, version: int) -> str:
    (root / "include").mkdir(parents=True)
    (root / "include" / "cuda_runtime_api.h").write_text(f"#define CUDART_VERSION {version}\n")
    return str(root)


def test_void_pointers_get_the_cast_and_completion_hipify_writes(tmp_path, monkeypatch):
    """As current hipify-clang: `&p` of a `void* p` and an explicit `(void**)&p` get the flags
    (device_symbols.cu); a `void* func` kernel handle gets the cast against CUDA 12's headers
    (runtime_functions_before_13000.cu) and stays as it is against CUDA 13's (runtime_functions.cu)."""
    monkeypatch.delenv("CUDA_PATH", raising=False)
    src = ("void* func = nullptr; void* p;\n"
           "cudaFuncSetCacheConfig(func, cudaFuncCachePreferL1); cudaMallocHost(&p, 64); cudaMallocHost((void**)&p, 8);\n")
    flags = "hipHostMalloc(&p, 64, hipHostMallocDefault); hipHostMalloc((void**)&p, 8, hipHostMallocDefault);"
    out = tr(src, cuda_path=_fake_cuda(tmp_path / "cuda12", 12080))
    assert "hipFuncSetCacheConfig(reinterpret_cast<const void*>(func), hipFuncCachePreferL1); " + flags in out
    out = tr(src, cuda_path=_fake_cuda(tmp_path / "cuda13", 13000))
    assert "hipFuncSetCacheConfig(func, hipFuncCachePreferL1); " + flags in out


def test_nvrtc_option_lists_get_the_const_cast_hiprtc_needs():
    out = tr("nvrtcCompileProgram(p, n, opts); nvrtcCreateProgram(&p, src, name, 2, hdrs, names);"
             " nvrtcCreateProgram(&p, src, name, 0, NULL, nullptr); nvrtcCompileProgram(p, 0, nullptr);")
    assert "hiprtcCompileProgram(p, n, const_cast<const char**>(opts));" in out
    assert "hiprtcCreateProgram(&p, src, name, 2, const_cast<const char**>(hdrs), const_cast<const char**>(names));" in out
    assert "hiprtcCreateProgram(&p, src, name, 0, NULL, nullptr);" in out and "hiprtcCompileProgram(p, 0, nullptr);" in out
    assert tr(out) == out


def test_argument_fixes_look_past_comments_between_arguments():
    src = ("nvrtcCreateProgram(&p, src, \"k.cu\", 0,  // numHeaders\n"
           "                   NULL,  // headers\n"
           "                   /* names */ hdrs);\n"
           "cudaStreamWaitEvent(s, e  // wait for the copy\n);\n")
    out = tr(src)
    assert "0,  // numHeaders\n                   NULL,  // headers\n" in out
    assert "/* names */ const_cast<const char**>(hdrs));" in out
    assert "hipStreamWaitEvent(s, e, 0  // wait for the copy\n);" in out
    assert tr(out) == out


def test_no_cast_where_hip_has_template_overloads():
    out = tr("cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 256, 0);")
    assert out == "hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 256, 0);"


def test_overloads_by_argument_count():
    assert tr("cudaEventCreate(&e); cudaEventCreate(&e, cudaEventDisableTiming);") == \
        "hipEventCreate(&e); hipEventCreateWithFlags(&e, hipEventDisableTiming);"


def test_roc_leaves_names_the_roc_library_lacks_with_a_warning():
    """--roc makes cusparse.h rocsparse.h: hipSPARSE's name for a descriptor rocSPARSE lacks would
    be undeclared there (and its handles are not rocSPARSE's), so the name stays, reported; the
    same for CUDA data types rocSPARSE has no value for.  --amap keeps hipify-clang's fallback."""
    src = ("#include <cusparse.h>\ncusparseSpSVDescr_t d; cusparseDnVecDescr_t v;\n"
           "cusparseCreateDnVec(&v, n, x, CUDA_R_32F); cusparseCreateDnVec(&v, n, h, CUDA_R_16F);\n")
    res = translate_source(src, path="a.cu", options=Options(roc=True))
    assert "cusparseSpSVDescr_t d; rocsparse_dnvec_descr v;" in res.text
    assert "rocsparse_create_dnvec_descr(&v, n, x, rocsparse_datatype_f32_r); " \
           "rocsparse_create_dnvec_descr(&v, n, h, CUDA_R_16F);" in res.text
    reported = sorted(d.message.split("'")[1] for d in res.diagnostics if d.code == "HP001")
    assert reported == ["CUDA_R_16F", "cusparseSpSVDescr_t"]
    assert "hipSPARSE's 'hipsparseSpSVDescr_t'" in next(d.hint for d in res.diagnostics if d.code == "HP001")
    assert translate_source(res.text, path="a.cu", options=Options(roc=True)).text == res.text  # idempotent
    assert "hipsparseSpSVDescr_t d;" in tr(src, roc=True, amap=True)
    # cusparse.h through a project header: the calls tell
    assert "rocsparse_datatype_f32_r" in tr('#include "sparse_utils.h"\ncusparseCreateDnVec(&v, n, x, CUDA_R_32F);', roc=True)
    # without --roc, hipSPARSE has them all
    assert "hipsparseSpSVDescr_t d;" in tr(src) and "HIP_R_16F" in tr(src)


def test_roc_names_the_installed_roc_library_lacks_are_reported(tmp_path, monkeypatch):
    """HIPIFY's tables give no release for roc* names: with --roc, the installed library's headers
    tell whether the output compiles here (HP008); --hip-version (another ROCm) turns the check off."""
    from hipport import installed_hip

    (tmp_path / "include" / "hip").mkdir(parents=True)
    (tmp_path / "include" / "hip" / "hip_version.h").write_text("#define HIP_VERSION_MAJOR 5\n#define HIP_VERSION_MINOR 2\n")
    (tmp_path / "include" / "rocsparse").mkdir()
    (tmp_path / "include" / "rocsparse" / "rocsparse.h").write_text(
        "typedef struct _rocsparse_handle* rocsparse_handle;\nrocsparse_status rocsparse_create_handle(rocsparse_handle*);\n")
    monkeypatch.setenv("ROCM_PATH", str(tmp_path))
    monkeypatch.delenv("HIPPORT_HIP_VERSION", raising=False)
    installed_hip.installed_hip_version.cache_clear()
    installed_hip.installed_roc_names.cache_clear()
    try:
        src = "#include <cusparse.h>\ncusparseHandle_t h; cusparseCreate(&h); puts(cusparseGetErrorString(s));\n"
        res = translate_source(src, path="a.cu", options=Options(roc=True))
        assert "puts(rocsparse_get_status_description(s));" in res.text
        hp008 = [d for d in res.diagnostics if d.code == "HP008"]
        assert [d.message.split("'")[3] for d in hp008] == ["rocsparse_get_status_description"], hp008
        assert str(tmp_path / "include" / "rocsparse") in hp008[0].message
        other_rocm = translate_source(src, path="a.cu", options=Options(roc=True, hip_version="6.2"))
        assert not [d for d in other_rocm.diagnostics if d.code == "HP008"]
    finally:
        installed_hip.installed_hip_version.cache_clear()
        installed_hip.installed_roc_names.cache_clear()


def test_roc_host_blas_file_names_half_buffers_rocblas_half():
    host = ("#include <cublas_v2.h>\n__half* a = 0;\nconst __half** const b = const_cast<const __half**>(p);\n"
            "cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, al, a, m, a, k, be, a, m);\n")
    out = tr(host, roc=True)
    assert "rocblas_half* a = 0;" in out and "const_cast<const rocblas_half**>(p)" in out and "__half" not in out
    assert "__half* a = 0;" in tr(host)  # hipBLAS takes HIP's own half type
    # device code or fp16 arithmetic needs __half: rocblas_half has no operators
    kernel = host + "__global__ void k(__half* x) { x[0] = __float2half(1.f); }\n"
    assert "rocblas_half" not in tr(kernel, roc=True)
    math = host + "void g(__half* x) { x[0] = __hadd(x[0], x[1]); }\n"
    assert "rocblas_half" not in tr(math, roc=True)


def test_roc_host_blas_file_names_bf16_buffers_rocblas_bfloat16():
    host = "#include <cublas_v2.h>\n__nv_bfloat16* a = 0;\n__nv_bfloat16** arr = 0;\n"
    out = tr(host, roc=True)
    assert "rocblas_bfloat16* a = 0;" in out and "rocblas_bfloat16** arr = 0;" in out
    assert "hip_bfloat16* a = 0;" in tr(host)  # hipBLAS's own bf16 type
    conversion = host + "void g(float f) { a[0] = __float2bfloat16(f); }\n"
    assert "rocblas_bfloat16" not in tr(conversion, roc=True)
    assert "rocblas_bfloat16" not in tr("__nv_bfloat16* a = 0;\n", roc=True)  # no cuBLAS: HIP's type


def test_legacy_cublas_v1_calls_left_with_warning():
    src = "#include <cublas.h>\ncublasSscal(n, alpha, x, 1); cublasStatus_t st;"
    result = translate_source(src, path="a.cpp")
    assert "cublasSscal(n, alpha, x, 1);" in result.text
    assert "cublasStatus_t" not in result.text
    assert any(d.code == "HP001" and "legacy" in d.message for d in result.diagnostics)
    assert translate_source(result.text, path="a.cpp").text == result.text  # idempotent: still left alone
    assert "Sscal" in tr("#include <cublas_v2.h>\ncublasSscal(h, n, &alpha, x, 1);").replace("cublasSscal", "")


def test_comment_at_end_of_previous_line_does_not_hide_a_call():
    assert tr("a(); // note\ncudaFree(p);\nb(); /* x */ cudaFree(q);") == \
        "a(); // note\nhipFree(p);\nb(); /* x */ hipFree(q);"


def test_amap_translates_inside_skipped_blocks():
    src = "#if 0\ncudaFree(p);\n#endif\n"
    assert "hipFree" in tr(src, skip_excluded_preprocessor_conditional_blocks=True, amap=True)


def test_default_arguments_completed():
    assert tr("cudaMallocHost(&p, n);") == "hipHostMalloc(&p, n, hipHostMallocDefault);"
    assert tr("cudaStreamWaitEvent(s, e);") == "hipStreamWaitEvent(s, e, 0);"
    assert tr("cudaStreamWaitEvent(s, e, 0);") == "hipStreamWaitEvent(s, e, 0);"
    # hipSPARSE's SpSM_solve takes the external buffer cuSPARSE 12 no longer passes
    assert tr("cusparseSpSM_solve(h, a, b, al, A, B, C, t, alg, d);") == \
        "hipsparseSpSM_solve(h, a, b, al, A, B, C, t, alg, d, nullptr);"


COMPAT_INCLUDE = "#include <hipport/compat.h>\n"


def test_typed_pointer_overloads_come_from_the_shim():
    # CUDA's T** templates (HIP takes void** only): the call stays as hipify-clang writes it and
    # hipport/compat.h supplies the template, as for cudaHostGetDevicePointer(&Ad, A, 0)
    for cuda, hip in [
        ("float* p; cudaHostAlloc(&p, n, cudaHostAllocDefault);", "float* p; hipHostAlloc(&p, n, hipHostMallocDefault);"),
        ("cudaMallocPitch(&p, &pitch, w, h);", "hipMallocPitch(&p, &pitch, w, h);"),
        ("float* d; cudaHostGetDevicePointer(&d, h, 0);", "float* d; hipHostGetDevicePointer(&d, h, 0);"),
        ("float* q; cudaGetSymbolAddress(&q, sym);", "float* q; hipGetSymbolAddress(&q, HIP_SYMBOL(sym));"),
    ]:
        assert tr(cuda) == COMPAT_INCLUDE + hip
    # already void**: a (void**) cast, or the address of a pointer this file declares void*
    assert tr("void* d; cudaHostAlloc(&d, n, 0); cudaMallocPitch(&d, &pitch, w, h);") == \
        "void* d; hipHostAlloc(&d, n, 0); hipMallocPitch(&d, &pitch, w, h);"
    assert tr("cudaHostGetDevicePointer((void**)&d, h, 0);") == "hipHostGetDevicePointer((void**)&d, h, 0);"
    # hipify-clang completes the flags whatever the pointer's spelling
    assert tr("cudaMallocHost((void**)&p, n);") == "hipHostMalloc((void**)&p, n, hipHostMallocDefault);"


def test_caching_allocator_option():
    out = tr("#include <cuda_runtime.h>\nvoid f() { cudaMalloc(&p, n); cudaFree(p); }\n", caching_allocator=True)
    assert "hipportMalloc(&p, n); hipportFree(p);" in out
    assert "#include <hipport/runtime.h>" in out


# ------------------------------------------------------------------ byte-exactness

def test_bytes_outside_edits_are_identical_crlf_bom_latin1_tabs():
    src = b"\xef\xbb\xbf// auteur: Fran\xe7ois\r\n#include <cuda_runtime.h>\r\n\tcudaMalloc(&p,\tn);\r\n/* \xff\xfe */\r\n"
    out = translate_source(src, path="x.cpp").text
    assert out == src.replace(b"cuda_runtime.h", b"hip/hip_runtime.h").replace(b"cudaMalloc", b"hipMalloc")


def test_directive_on_a_bom_first_line_is_translated():
    bom = b"\xef\xbb\xbf"
    out = translate_source(bom + b"#include <cuda_runtime.h>\r\nint main() { cudaFree(0); }\r\n", path="x.cu").text
    assert out == bom + b"#include <hip/hip_runtime.h>\r\nint main() { hipFree(0); }\r\n"
    # a file whose first line is code gets the runtime include after the mark, before the code
    out = translate_source(bom + b"__global__ void k() {}\n", path="k.cu").text
    assert out == bom + b"#include <hip/hip_runtime.h>\n__global__ void k() {}\n"


def test_str_input_gives_str_output_and_bytes_gives_bytes():
    assert isinstance(translate_source("cudaFree(0);").text, str)
    assert isinstance(translate_source(b"cudaFree(0);").text, bytes)


def test_idempotent_on_test_programs(data_dir):
    for path in sorted((data_dir / "cuda").iterdir()):
        opts = Options(hip_kernel_execution_syntax=True)
        once = translate_source(path.read_bytes(), path=path.name, options=opts).text
        assert translate_source(once, path=path.name, options=opts).text == once, path.name


# ------------------------------------------------------------------ hazards

@pytest.mark.parametrize("src,code", [
    ("unsigned int m = __ballot_sync(mask, p);", "HP011"),
    ("int lane = threadIdx.x % 32;", "HP010"),
    ("int warp = threadIdx.x / 32;", "HP010"),
    ("int lane = tid & 31;", "HP010"),
    ("int w = threadIdx.x >> 5;", "HP010"),
    ("#define WARP_SIZE 32", "HP010"),
    ("constexpr int kWarpSize = 32;", "HP010"),
    ("static const unsigned THREADS_PER_WARP{32};", "HP010"),
    ("#define WARP_SIZE 32U", "HP010"),  # llm.c's spelling
    ("constexpr unsigned kWarpSize = 32u;", "HP010"),
    ("unsigned active = __activemask();", "HP011"),
    ("unsigned peers = __match_any_sync(__activemask(), key);", "HP011"),
    ("__shared__ float s[warpSize];", "HP012"),
    ('asm volatile("add.s32 %0, %1, %2;" : "=r"(x) : "r"(a), "r"(b));', "HP013"),
    ("texture<float, 1> tex;", "HP014"),
    ("#if __CUDA_ARCH__ >= 700\n#endif", "HP015"),
    ("#define ARCH __CUDA_ARCH__\n#if ARCH >= 700\n#endif", "HP015"),
    ("#define CC_PASCAL 600\n#if __CUDA_ARCH__ >= CC_PASCAL\n#endif", "HP015"),  # ggml's named architectures
    ("#if MIN_CC_DP4A <= __CUDA_ARCH__\n#endif", "HP015"),
    ("__global__ void k(int* v) { v[0] = __CUDA_ARCH__; }", "HP015"),
    ("__global__ void __launch_bounds__(256, 2) k() {}", "HP016"),
    ("cudaPointerGetAttributes(&a, p); if (a.type == 2) {}", "HP017"),
    ('cudaPointerGetAttributes(&a, p); puts(kNames[a.type]);', "HP017"),
    ('cudaPointerGetAttributes(&a, p); printf("%d", (int)a.type);', "HP017"),
    ("#define CALL(name) cuda##name", "HP020"),
    ("#define CHECKED(name, ...) check(cudaMalloc ## name(__VA_ARGS__))", "HP020"),
    ("#define cu( fn ) do { status = (cu##fn); } while (0)", "HP020"),
    ("int f(int driver) { return driver < CUDART_VERSION; }", "HP024"),
])
def test_hazards_reported(src, code):
    assert code in codes(src)


@pytest.mark.parametrize("src", [
    'asm volatile("v_dot2_f32_f16 %0, %1, %2, %0" : "+v"(c) : "v"(a), "v"(b));',  # AMDGCN (ggml's gfx9 branch)
    'asm volatile("s_waitcnt vmcnt(0)" ::: "memory");',
    "// __shfl_down_sync(0xffffffff, v, 1)",
    "v = __shfl_down_sync(0xffffffff, v, 1);  // resolved by the translation",
    'const char* s = "threadIdx.x % 32";',
    "int lane = threadIdx.x % warpSize;",
    "__global__ void __launch_bounds__(256) k() {}",
    "v = __shfl_down_sync(__activemask(), v, 1);",
    'asm volatile("" ::: "memory");',  # a compiler barrier, not PTX
    'unsigned lo, hi; __asm__(".byte 0x0f, 0x31" : "=a"(lo), "=d"(hi)); asm volatile("rdtsc" : "=a"(lo));',  # x86
    "#define CAT(a, b) a##b\n#define NAME(x) my_cuda##x",  # pasting, but no CUDA name starts there
    "#ifdef __INTELLISENSE__\n#define __launch_bounds__(t, b)\n#endif",  # the macro's definition, not a use
    "#if CUDART_VERSION >= 11000 && \\\n    CUDA_VERSION > 1\n#endif\n// CUDA_VERSION",  # the version lint's (HV001)
    "constexpr int kNumWarps = 32; int warps = 32; // #define WARP_SIZE 32",  # a count of warps, a comment
    "#ifdef __HIP_PLATFORM_AMD__\n#define WARP_SIZE 64\n#else\n#define WARP_SIZE 32\n#endif",  # handled already
])
def test_hazards_not_reported(src):
    assert not [c for c in codes(src) if c.startswith(("HP01", "HP020", "HP024"))]


def test_kernel_launches_from_device_code_are_reported():
    src = ("__global__ void child(int d) {}\n"
           "__global__ void parent(int d) {\n  if (d) {\n    child<<<1, 1>>>(d);  // { \"<<<\" }\n  }\n"
           "  auto f = [=] __device__ (int i) { child<<<1, 1>>>(i); };\n}\n"
           "__device__ void helper() { child<<<1, 2>>>(0); }\n"
           "struct S { void go() { child<<<1, 1>>>(1); } };\n"
           "// wrapper for the __global__ call\nvoid run() { child<<<1, 1>>>(3); }\n"
           "int main() { parent<<<1, 1>>>(0); if (1) { child<<<1, 1>>>(2); } }\n")
    result = translate_source(src, path="dp.cu")
    assert [(d.code, d.line) for d in result.diagnostics if d.code == "HP022"] == [("HP022", 4), ("HP022", 6), ("HP022", 8)]


def test_unsupported_cooperative_groups_names_are_reported_through_the_namespace_or_its_alias():
    src = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
           "__global__ void k() { __shared__ cg::block_tile_memory<256> s; auto b = cg::this_thread_block(s);\n"
           "  cooperative_groups::block_tile_memory<128>* p; auto t = cg::tiled_partition<32>(b); t.sync(); }\n"
           "mine::block_tile_memory m;\n")  # another namespace's
    result = translate_source(src, path="cg.cu")
    assert [(d.code, d.line) for d in result.diagnostics if d.code == "HP001"] == [("HP001", 3), ("HP001", 4)]
    assert "cg::tiled_partition<32>(b)" in result.text


def test_a_files_own_namespace_named_like_a_cuda_one_is_left_alone():
    src = "namespace cuda { __device__ inline double twice(double v) { return 2 * v; } }\n" \
          "__global__ void k(double* p) { p[0] = cuda::twice(p[0]); }\n"
    assert codes(src) == []
    assert "HP001" in codes("__global__ void k() { cuda::std::atomic<int> a; }\n")  # libcu++'s
    # a struct of the user's own named like a CUDA type: defined here, not CUDA's
    assert codes("namespace mine { struct block_tile_memory { int x; }; }\n") == []
    assert "struct hipDeviceProp_t p;" in tr("struct cudaDeviceProp p;\n")  # an elaborated use stays a use


def test_cudeviceptr_offsets_are_in_bytes_and_other_arithmetic_is_reported(hipcc, tmp_path):
    """CUDA's CUdeviceptr is an integer, HIP's a void*: an offset (`*dptr + n`, vectorAddMMAP's
    cuMemMap; `list[0] + 8`; `d += 4`) is taken in bytes through char*; `n - base`, `p++` are
    reported."""
    src = ("#include <cuda.h>\n"
           "CUresult f(CUdeviceptr *dptr, size_t n, CUmemGenericAllocationHandle h, CUdeviceptr base, CUdeviceptr* list) {\n"
           "  CUdeviceptr d = 0ULL, other;\n  CUdeviceptr q = list[0] + 8;\n"
           "  cuMemMap(*dptr + n, n, 0, h, 0);\n"
           "  other = n - base;\n"
           "  d += 4;\n"
           "  q++;\n"
           "  if (d == other || base) return cuMemMap(base + n * 2 - 1, n, 0, h, 0);  // base + 1 in a comment\n"
           "  return CUDA_SUCCESS;\n}\n")
    result = translate_source(src, path="m.cpp")
    out = result.text
    assert "q = (hipDeviceptr_t)((char*)list[0] + 8);" in out
    assert "hipMemMap((hipDeviceptr_t)((char*)*dptr + n), n, 0, h, 0);" in out
    assert "  d = (hipDeviceptr_t)((char*)d + (4));" in out
    assert "hipMemMap((hipDeviceptr_t)((char*)base + n * 2 - 1), n, 0, h, 0);  // base + 1 in a comment" in out
    assert [d.line for d in result.diagnostics if d.code == "HP023"] == [6, 8]
    assert translate_source(out, path="m.cpp").text == out
    _compiles(hipcc, out.replace("  other = n - base;\n", "").replace("  q++;\n", ""), tmp_path)
    # the CUDA Handbook: `CUdeviceptr dst` in one function, `int* dst` in another: neither is reported
    other = ("void drv(void* p) { CUdeviceptr dst = (CUdeviceptr)(intptr_t)p; cuMemsetD8(dst, 0, 4); }\n"
             "void rt(int* dst, size_t off) { cudaMemset(dst + off, 0, 4); }\n")
    assert "HP023" not in codes(other)


def test_named_casts_to_cudeviceptr_become_c_style_casts(hipcc, tmp_path):
    """CUDA's CUdeviceptr is an integer: reinterpret_cast of a const pointer and static_cast of an
    integer to it compile; to HIP's void* neither does, the C-style cast does on both."""
    src = ("#include <cuda.h>\nsize_t f(const char* s, size_t n) {\n  CUdeviceptr base; size_t size;\n"
           "  cuMemGetAddressRange(&base, &size, reinterpret_cast<CUdeviceptr>(s));\n"
           "  CUdeviceptr b = static_cast< CUdeviceptr >(n + 1); (void)b;\n"
           "  return size + (size_t)reinterpret_cast<char*>(base);  // reinterpret_cast<CUdeviceptr>(s)\n}\n")
    out = tr(src)
    assert "hipMemGetAddressRange(&base, &size, ((hipDeviceptr_t)(s)));" in out
    assert "hipDeviceptr_t b = ((hipDeviceptr_t)(n + 1));" in out
    assert "reinterpret_cast<char*>(base);  // reinterpret_cast<CUdeviceptr>(s)" in out
    assert tr(out) == out
    result = hipcc(translate_source(src, path="m.cpp").text, tmp_path)
    assert result.returncode == 0, result.stderr


def test_integers_stored_into_cudeviceptrs_get_the_pointer_cast(hipcc, tmp_path):
    """cuda-samples' matrixMulDrv packs a size_t kernel argument through a CUdeviceptr*; an integer
    converts implicitly to CUDA's CUdeviceptr, never to HIP's void*."""
    src = ("#include <cuda.h>\nint pack(char* args, CUdeviceptr d, size_t width, unsigned n) {\n"
           "  *(reinterpret_cast<CUdeviceptr *>(&args[0])) = d;\n  *(reinterpret_cast<CUdeviceptr *>(&args[8])) = width;\n"
           "  *((CUdeviceptr*)&args[16]) = n;\n  CUdeviceptr p; p = width;\n  CUdeviceptr q = 4096, z = 0;\n"
           "  CUDA_MEMCPY2D c = {}; c.dstDevice = width; c.srcDevice = d;\n  (void)p; (void)q; (void)z; return 0;\n}\n")
    out = tr(src, path="m.cpp")
    assert "*(reinterpret_cast<hipDeviceptr_t *>(&args[0])) = d;" in out
    assert "*(reinterpret_cast<hipDeviceptr_t *>(&args[8])) = (hipDeviceptr_t)width;" in out
    assert "*((hipDeviceptr_t*)&args[16]) = (hipDeviceptr_t)n;" in out
    assert "p = (hipDeviceptr_t)width;" in out and "q = (hipDeviceptr_t)4096, z = 0;" in out
    assert "c.dstDevice = (hipDeviceptr_t)width; c.srcDevice = d;" in out
    assert tr(out, path="m.cpp") == out
    result = hipcc(translate_source(src, path="m.cpp").text, tmp_path)
    assert result.returncode == 0, result.stderr


def default_rules_hip_added(name: str) -> str:
    from hipport.rules import default_rules

    return default_rules().by_name[name].hip_added


def test_names_newer_than_the_target_hip_are_reported():
    """hipGraphAddNode came with HIP 6.2: for an older HIP the translation says so (HP008); for a
    newer one, or --hip-version latest, it does not; a name HIP 5.2 has is never reported."""
    src = "void f(cudaGraph_t g, cudaGraphNode_t* n, cudaGraphNodeParams* p) {\n  cudaGraphAddNode(n, g, 0, 0, p);\n  cudaDeviceSynchronize();\n}\n"

    def hp008(version):
        result = translate_source(src, path="g.cu", options=Options(hip_version=version))
        return [(d.line, d.message.split("'")[1]) for d in result.diagnostics if d.code == "HP008"]

    assert hp008("5.2") == [(1, "cudaGraphNodeParams"), (2, "cudaGraphAddNode")]
    assert hp008("6.1") == [(2, "cudaGraphAddNode")]
    assert hp008("6.2") == [] and hp008("latest") == []
    # a name HIPIFY's tables miss, which AMD's newer HIP declares and HIP 5.2 does not: "after 5.2"
    from hipport.installed_hip import describe, parse_version

    assert parse_version(">5.2") == (5, 3) and describe(">5.2") == "a HIP after 5.2" and describe("6.2.0") == "HIP 6.2"
    assert default_rules_hip_added("cudaOccupancyAvailableDynamicSMemPerBlock") == ">5.2"
    from hipport.rules import default_rules

    assert default_rules().by_name["cudaGraphAddNode"].hip_added == "6.2.0"
    from hipport.installed_hip import parse_version

    assert parse_version(default_rules().by_name["cudaDeviceSynchronize"].hip_added) <= (5, 2)


def test_braced_launch_dimensions_become_dim3_and_compile(hipcc, tmp_path):
    """multi-gpu-programming-models' `<<<grid, {bx, by, 1}, 0, s>>>`: nvcc parses it, clang does not."""
    src = ("template <int X> __global__ void k(float* a) { a[threadIdx.x] = X; }\n"
           "void run(float* a, cudaStream_t s) {\n  k<4><<<dim3(2), {32, 4, 1}, 0, s>>>(a);\n"
           "  k<4><<<{2, 2}, dim3{8}>>>(a);  // <<<{1}, {1}>>>\n}\n")
    out = translate_source(src, path="b.cu").text
    assert "k<4><<<dim3(2), dim3(32, 4, 1), 0, s>>>(a);" in out
    assert "k<4><<<dim3(2, 2), dim3(8)>>>(a);  // <<<{1}, {1}>>>" in out
    assert translate_source(out, path="b.cu").text == out
    result = hipcc(out, tmp_path)
    assert result.returncode == 0, result.stderr


def test_dim3_brace_initializers_narrowing_an_int_become_parentheses_and_compile(hipcc, tmp_path):
    """`dim3 grid{(n + 255) / 256}`: nvcc accepts the narrowing int -> unsigned, clang rejects it in
    braces; a struct, a lambda's return type and an empty list are not initializers to touch."""
    src = ("struct dim3x { int a; };\n__global__ void k(int* a) {}\n"
           "auto f = []() -> dim3 { return dim3(1); };\n"
           "void run(int n, int* a) {\n  dim3 grid{(n + 255) / 256};\n  dim3 block = {n, 1};\n"
           "  dim3 e{};\n  k<<<grid, block>>>(a);\n}\n")
    out = translate_source(src, path="d.cu").text
    assert "dim3 grid((n + 255) / 256);" in out and "dim3 block = dim3(n, 1);" in out
    assert "dim3 e{};" in out and "-> dim3 { return dim3(1); }" in out and "struct dim3x { int a; };" in out
    assert translate_source(out, path="d.cu").text == out
    result = hipcc(out, tmp_path)
    assert result.returncode == 0, result.stderr


def test_dim3_brace_initializers_of_members_and_parameter_like_lists_become_copy_initialization(hipcc, tmp_path):
    """A class member takes no parenthesized initializer, and `dim3 g(unsigned(n))` declares a
    function: both become `dim3 g = dim3(...)`."""
    src = ("__global__ void k(float* p) {}\nstruct Cfg {\n  int n = 1024;\n  dim3 block{256};\n"
           "  dim3 grid{(unsigned)(n + 255) / 256, 1, 1};\n};\ntemplate <int B> struct Tiled { dim3 block{B, B}; };\n"
           "struct S { static constexpr dim3 kBlock{128}; };\n"
           "void go(float* p, int n, int tx, int ty) {\n  Cfg c; Tiled<16> t;\n  dim3 grid{unsigned(n)};\n"
           "  dim3 block{unsigned(tx), unsigned(ty)};\n  k<<<grid, block>>>(p); k<<<c.grid, t.block>>>(p);\n"
           "  k<<<1, S::kBlock>>>(p);\n}\n")
    out = _ported(src, "m.cu", hipcc, tmp_path).text
    for line in ("dim3 block = dim3(256);", "dim3 grid = dim3((unsigned)(n + 255) / 256, 1, 1);",
                 "{ dim3 block = dim3(B, B); }", "static constexpr dim3 kBlock = dim3(128);",
                 "dim3 grid = dim3(unsigned(n));", "dim3 block = dim3(unsigned(tx), unsigned(ty));"):
        assert line in out, line


def test_cuda_default_arguments_hip_lacks_are_completed_and_compile(hipcc, tmp_path):
    """volumeRender's 3-argument cudaMalloc3DArray, the symbol copies' default offset and direction,
    the 2-argument graph instantiation: CUDA declares defaults HIP 5.2 does not."""
    src = ("__constant__ float c[4];\n"
           "void f(cudaArray_t* a, cudaChannelFormatDesc* d, cudaExtent e, float* h, cudaStream_t s,\n"
           "       cudaGraph_t g, cudaGraphExec_t* x) {\n"
           "  cudaMalloc3DArray(a, d, e);\n  cudaMemcpyToSymbolAsync(c, h, 16);\n"
           "  cudaMemcpyToSymbolAsync(c, h, 8, 8);\n  cudaMemcpyFromSymbolAsync(h, c, 16, 0, cudaMemcpyDeviceToHost, s);\n"
           "  cudaGraphInstantiate(x, g);\n  cudaThreadSetLimit(cudaLimitPrintfFifoSize, 1 << 20);\n}\n")
    out = _ported(src, "d.cu", hipcc, tmp_path).text
    assert "hipMalloc3DArray(a, d, e, 0);" in out
    assert "hipMemcpyToSymbolAsync(HIP_SYMBOL(c), h, 16, 0, hipMemcpyHostToDevice);" in out
    assert "hipMemcpyToSymbolAsync(HIP_SYMBOL(c), h, 8, 8, hipMemcpyHostToDevice);" in out
    assert "hipMemcpyFromSymbolAsync(h, HIP_SYMBOL(c), 16, 0, hipMemcpyDeviceToHost, s);" in out
    assert "hipGraphInstantiate(x, g, nullptr, nullptr, 0);" in out
    assert "hipDeviceSetLimit(hipLimitPrintfFifoSize, 1 << 20);" in out


def test_texture_and_surface_references_are_reported_where_they_are():
    src = ("// input image (bound in main).\ntexture<float, 2, cudaReadModeElementType> texImg;\n"
           "int before = 1;\nsurface<void, 2> surf;\nvoid f() { cudaSetDoubleForDevice(0); }\n")
    result = translate_source(src, path="t.cu")
    assert [(d.code, d.line, d.column) for d in result.diagnostics if d.code in ("HP014", "HP001")] == [
        ("HP014", 2, 1), ("HP014", 4, 1), ("HP001", 5, 12)]


def test_gl_interop_header_compiles_on_hip_without_one(hipcc, tmp_path):
    """cuda_gl_interop.h -> hip/hip_gl_interop.h, which HIP 5.2 lacks: hipport's include dir has it."""
    src = ("#include <cuda_runtime.h>\n#include <cuda_gl_interop.h>\ncudaGraphicsResource* res;\n"
           "int reg(unsigned buf) { return (int)cudaGraphicsGLRegisterBuffer(&res, buf, cudaGraphicsRegisterFlagsNone); }\n")
    if Path("/usr/include/GL/gl.h").exists():  # CUDA's header brings OpenGL's along; so does the shim
        src += "GLenum target = GL_TEXTURE_2D;\n"
    out = translate_source(src, path="gl.cpp").text
    assert "#include <hip/hip_gl_interop.h>" in out
    _compiles(hipcc, out, tmp_path)


def test_fp16_and_bf16_special_values_come_from_compat_and_compile(hipcc, tmp_path):
    src = ("#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
           "__global__ void k(__half* o, __nv_bfloat16* b) { o[0] = __hisnan(o[1]) ? CUDART_NAN_FP16 : -CUDART_INF_FP16;\n"
           "  b[0] = __hgt(b[1], CUDART_MAX_NORMAL_BF16) ? CUDART_ONE_BF16 : CUDART_ZERO_BF16; }\n")
    out = translate_source(src, path="c.cu").text
    assert "#include <hipport/compat.h>" in out and "CUDART_NAN_FP16" in out
    _compiles(hipcc, out, tmp_path)


def test_device_prop_members_only_hip6_has_are_reported_for_an_older_hip():
    src = 'void f() { cudaDeviceProp p; printf("%d %d", p.maxTexture2DLayered[0], p.major); }\n'
    codes52 = [d.code for d in translate_source(src, path="q.cu", options=Options(hip_version="5.2")).diagnostics]
    assert codes52 == ["HP008"]
    assert translate_source(src, path="q.cu", options=Options(hip_version="6.0")).diagnostics == []


def test_device_prop_members_no_hip_has_are_reported_whatever_the_target():
    src = "void f() { cudaDeviceProp p; int n = p.hostNumaId + p.mpsEnabled; p.deviceNumaId = 1; }\n"
    for hip in ("5.2", "latest"):
        diags = translate_source(src, path="q.cu", options=Options(hip_version=hip)).diagnostics
        assert [(d.code, d.column) for d in diags] == [("HP001", 38), ("HP001", 53), ("HP001", 67)]  # a write too


def test_driver_kernel_node_sizes_become_the_dim3_members(hipcc, tmp_path):
    src = ("#include <cuda.h>\nCUresult add(CUgraph g, CUfunction fn, void** args, CUgraphNode* node) {\n"
           "  CUDA_KERNEL_NODE_PARAMS p = {};\n  CUDA_KERNEL_NODE_PARAMS* q = &p;\n  p.func = fn; p.gridDimX = 4; q->gridDimY = p.gridDimX;\n"
           "  p.gridDimZ = 1; p.blockDimX = 128; p.blockDimY = p.blockDimZ = 1;\n  p.kernelParams = args;\n"
           "  return cuGraphAddKernelNode(node, g, nullptr, 0, &p);\n}\n")
    out = _ported(src, "n.cpp", hipcc, tmp_path).text
    assert "p.gridDim.x = 4; q->gridDim.y = p.gridDim.x;" in out and "p.blockDim.y = p.blockDim.z = 1;" in out


def test_ctx_api_version_into_an_unsigned_compiles(hipcc, tmp_path):
    src = "#include <cuda.h>\nunsigned f(CUcontext c) { unsigned v = 0; cuCtxGetApiVersion(c, &v); return v; }\n"
    out = translate_source(src, path="v.cpp").text
    assert "hipCtxGetApiVersion(c, &v)" in out and "#include <hipport/compat.h>" in out
    _compiles(hipcc, out, tmp_path)


def test_deviceptr_arithmetic_on_a_member_a_project_header_declares(tmp_path):
    (tmp_path / "buf.h").write_bytes(b"#include <cuda.h>\nstruct Buf { CUdeviceptr d_p; size_t used; CUresult put(size_t n); };\n")
    src = '#include "buf.h"\nCUresult Buf::put(size_t n) { return cuMemsetD8(d_p + used, 0, n); }\n'
    (tmp_path / "buf.cpp").write_text(src)
    result = translate_source(src, path=str(tmp_path / "buf.cpp"))
    assert "hipMemsetD8((hipDeviceptr_t)((char*)d_p + used), 0, n)" in result.text and not result.diagnostics


def test_texture_desc_hints_no_hip_has_are_commented_out(hipcc, tmp_path):
    src = ("#include <cuda_runtime.h>\nvoid f(cudaTextureDesc* out) {\n  cudaTextureDesc tex = {};\n"
           "  tex.disableTrilinearOptimization = 1;  // CUDA 9\n  tex.seamlessCubemap = 1; *out = tex;\n}\n")
    result = translate_source(src, path="t.cpp")
    assert "  /* tex.disableTrilinearOptimization = 1; */  // CUDA 9\n  /* tex.seamlessCubemap = 1; */ *out = tex;" in result.text
    assert [(d.code, d.line) for d in result.diagnostics] == [("HP001", 4), ("HP001", 5)]
    assert translate_source(result.text, path="t.cpp").text == result.text
    _compiles(hipcc, result.text, tmp_path)


def test_enumerators_named_through_their_enum_are_renamed(hipcc, tmp_path):
    src = ("#include <cuda_runtime.h>\nint f(cudaError_t e, cudaMemcpyKind k) {\n  switch (e) {\n"
           "    case cudaError::cudaErrorMemoryAllocation: return 1;\n    default: break;\n  }\n"
           "  return k == cudaMemcpyKind::cudaMemcpyHostToDevice || e == cudaError_t::cudaSuccess;\n}\n")
    out = _ported(src, "e.cpp", hipcc, tmp_path).text
    assert "case hipError_t::hipErrorOutOfMemory:" in out
    assert "k == hipMemcpyKind::hipMemcpyHostToDevice || e == hipError_t::hipSuccess" in out


def test_own_uint64_typedef_is_kept_for_cuda_only(hipcc, tmp_path):
    src = "#include <cuda_runtime.h>\ntypedef unsigned long long int uint64_t;\n__global__ void k(uint64_t* p) { *p = 1; }\n"
    result = translate_source(src, path="u.cu")
    assert "#if !defined(__HIP_PLATFORM_AMD__)" in result.text and "typedef unsigned long long int uint64_t;\n#endif\n" in result.text
    assert [d.code for d in result.diagnostics] == ["HP019"]
    assert translate_source(result.text, path="u.cu").text == result.text
    _compiles(hipcc, result.text, tmp_path)


def test_warp_arithmetic_on_a_name_set_only_from_other_values_is_not_reported():
    src = ("void set_bits(unsigned* f, const unsigned* h, unsigned mask) {\n"
           "  for (int j = 0; j < 5; j++) { unsigned idx = h[j] & mask; f[idx / 32] |= 1u << (idx % 32); }\n}\n"
           "__global__ void k(int* p) { int idx = blockIdx.x * blockDim.x + threadIdx.x; p[idx / 32] = 0; }\n"
           "__device__ int lane_of(int tid) { return tid % 32; }\n")
    assert [(d.code, d.line) for d in translate_source(src, path="b.cu").diagnostics] == [("HP010", 4), ("HP010", 5)]


def test_a_stream_named_like_a_surface_object_elsewhere_is_no_bit_arithmetic():
    src = ("__global__ void k1(float* o) {}\n__global__ void k2(cudaSurfaceObject_t s, float v) { surf2Dwrite(v, s, 0, 0); }\n"
           "void run(float* o, cudaStream_t s) { k1<<<1, 32, 0, s>>>(o); }\n")
    assert [d.code for d in translate_source(src, path="s.cu").diagnostics] == []


def test_cuda_arch_test_whose_group_compares_the_value_in_a_nested_if_is_kept():
    """lammps' lal_pre_cuda_hip.h: as `__HIP_DEVICE_COMPILE__`, the nested `__CUDA_ARCH__ < 200`
    would read 0 < 200 on HIP's device pass and pick sm_1x settings for the device only."""
    src = "#ifdef __CUDA_ARCH__\n#if (__CUDA_ARCH__ < 200)\n#define BLOCK 64\n#endif\n#endif\n#ifdef __CUDA_ARCH__\nint d;\n#endif\n"
    out = translate_source(src, path="p.h").text
    assert out.startswith("#ifdef __CUDA_ARCH__\n#if (__CUDA_ARCH__ < 200)\n")
    assert out.endswith("#ifdef __HIP_DEVICE_COMPILE__\nint d;\n#endif\n")


def test_deviceptr_arithmetic_through_references_aliases_members_and_parentheses():
    src = ("typedef CUdeviceptr device_ptr;\nstruct M { CUdeviceptr p; };\n"
           "void view(CUdeviceptr* ptr, CUdeviceptr& in, size_t o) { *ptr = in + o; }\n"
           "void alias(device_ptr* out, device_ptr base, size_t o) { *out = base + o; }\n"
           "void member(CUdeviceptr* out, M& m, size_t o) { *out = m.p + o; }\n"
           "void paren(CUdeviceptr* out, CUdeviceptr q, size_t o) { *out = (q) + o + static_cast<size_t>(o) * 2; }\n")
    result = translate_source(src, path="d.cpp")
    assert not result.diagnostics
    assert "{ *ptr = (hipDeviceptr_t)((char*)in + o); }" in result.text
    assert "{ *out = (hipDeviceptr_t)((char*)base + o); }" in result.text
    assert "{ *out = (hipDeviceptr_t)((char*)m.p + o); }" in result.text
    assert "{ *out = (hipDeviceptr_t)((char*)(q) + o + static_cast<size_t>(o) * 2); }" in result.text


def test_designated_initializers_of_vector_types_become_positional(hipcc, tmp_path):
    src = ("#include <cuComplex.h>\n__host__ __device__ cuDoubleComplex mk(double re, double im) { return {.x = re, .y = im}; }\n"
           "__global__ void k(float4* f) {\n  float2 p = {.x = 1.f, .y = 2.f};\n"
           "  f[0] = {.x = p.x, .y = p.y, .z = 0.f, .w = 1.f};\n  struct { float y, x; } q = {.y = 1, .x = 2};\n}\n")
    out = _ported(src, "d.cu", hipcc, tmp_path).text
    assert "return {re, im};" in out and "float2 p = {1.f, 2.f};" in out and "f[0] = {p.x, p.y, 0.f, 1.f};" in out
    assert "{.y = 1, .x = 2}" in out  # not from .x on: not a vector's members


def test_a_macro_named_like_a_cuda_api_keeps_its_parameter_list():
    """A CPU build's stand-in (`#define cudaMemcpyToSymbol(dst, src, size) memcpy(&dst, src, size)`)."""
    src = ("#ifdef CPU_ONLY\n#define cudaMemcpyToSymbol(dst, src, size) memcpy(&dst, src, size)\n"
           "#define cudaMallocHost(p, n) (*(p) = malloc(n), 0)\n#define cudaFuncSetAttribute(fn, a, v) 0\n#endif\n"
           "__constant__ float c[4];\n__global__ void k() {}\n"
           "void f(float* h, void** p) { cudaMemcpyToSymbol(c, h, 16); cudaMallocHost(p, 64);\n"
           "  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 0); }\n")
    out = translate_source(src, path="m.cu").text
    assert "#define hipMemcpyToSymbol(dst, src, size) memcpy(&dst, src, size)\n" in out
    assert "#define hipFuncSetAttribute(fn, a, v) 0\n" in out
    assert "hipMemcpyToSymbol(HIP_SYMBOL(c), h, 16); hipHostMalloc(p, 64);" in out  # no third argument for the macro


def test_nvcc_extended_lambda_traits_are_reported():
    src = "template <typename F> void l(F f) { static_assert(__nv_is_extended_device_lambda_closure_type(F), \"\"); }\n"
    assert codes(src, path="l.cu") == ["HP001"]


def test_complex_operators_of_an_alias_defer_to_hip_complex(hipcc, tmp_path):
    """QuEST's gpu_types.cuh: operators on `typedef cuDoubleComplex cu_qcomp`, which hip_complex.h
    defines for the same type (kept for CUDA only); `+=` and `*=` on it compile (hipport/complex.h)."""
    src = ("#include <cuComplex.h>\ntypedef double qreal;\ntypedef cuDoubleComplex cu_qcomp;\n"
           "__host__ __device__ inline cu_qcomp operator * (const cu_qcomp& a, const cu_qcomp& b) {\n"
           "  return cuCmul(a, b);\n}\n"
           "__host__ __device__ inline cu_qcomp operator * (const cu_qcomp& a, const qreal& b) {\n"
           "  return make_cuDoubleComplex(a.x * b, a.y * b);\n}\n"
           "__host__ __device__ inline void operator += (cu_qcomp& a, const cu_qcomp& b) {\n  a = cuCadd(a, b);\n}\n"
           "__global__ void k(cu_qcomp* p, qreal f) {\n  cu_qcomp a = p[0];\n  p[1] += a * p[2] * f;\n  a *= p[3];\n  p[0] = a;\n}\n")
    result = translate_source(src, path="q.cu")
    assert "#include <hipport/complex.h>" in result.text
    assert [d.code for d in result.diagnostics] == ["HP025", "HP025", "HP025"]
    _ported(src, "q.cu", hipcc, tmp_path)


def test_code_under_if_0_is_translated_but_not_warned_about():
    src = ("#if 0\n#include <cuda/api/constants.hpp>\nusing cuda::log_warp_size;\n#if X\nasm(\"bar.sync 0;\");\n#endif\n"
           "#else\n__device__ void g() { asm(\"exit;\"); }\n#endif\nvoid f() { cudaFree(0); }\n#if 0\ncudaFree(0);\n#endif\n")
    result = translate_source(src, path="z.cu")
    assert [(d.code, d.line) for d in result.diagnostics] == [("HP013", 8)]
    assert result.text.count("hipFree(0);") == 2


def test_a_launch_in_a_macro_after_a_kernel_declaring_macro_is_a_host_launch():
    """hemi.h: `#define K(name) __global__ void name ## _kernel` above a launch macro's `do {`."""
    src = ("#define MY_KERNEL(name) __global__ void name ## _kernel\n#if defined(DEBUG)\n"
           "#define MY_LAUNCH(name, g, b, ...) \\\n  do { \\\n    name ## _kernel<<<(g), (b)>>>(__VA_ARGS__); \\\n"
           "  } while (0)\n#endif\n__global__ void parent(int* p) {\n#ifdef X\n#endif\n  child<<<1, 1>>>(p);\n}\n")
    assert [(d.code, d.line) for d in translate_source(src, path="h.cu").diagnostics] == [("HP022", 11)]


def test_user_entities_named_like_cuda_apis_keep_their_names():
    """hemi: an enumerator `cudaError` of its own, and its own `cudaLaunch` template called inside
    its namespace (a dependent call, which libclang leaves as an overload set)."""
    src = ("namespace hemi {\nenum Error_t { success = 0, cudaError = 1 };\n"
           "inline Error_t sync() { return cudaSuccess != cudaDeviceSynchronize() ? hemi::cudaError : success; }\n"
           "template <typename... A> void cudaLaunch(int p, void (*f)(A...), A... a) { f<<<p, 1>>>(a...); }\n"
           "template <typename... A> void cudaLaunch(void (*f)(A...), A... a) { cudaLaunch(1, f, a...); }\n}\n")
    out = translate_source(src, path="h.cu").text
    assert "enum Error_t { success = 0, cudaError = 1 };" in out and "hemi::cudaError" in out
    assert "{ cudaLaunch(1, f, a...); }" in out and "hipLaunchByPtr" not in out
    assert "hipSuccess != hipDeviceSynchronize()" in out


def test_integer_min_max_and_find_first_set_of_any_integer_compile(hipcc, tmp_path):
    src = ("#include <cstdint>\n__global__ void k(unsigned* u, long long* l, std::uint64_t* w, long* s) {\n"
           "  u[0] = umin(u[1], u[2]) + umax(u[1], u[2]) + __ffsll(w[0]) + __ffs(s[0]);\n"
           "  l[0] = llmin(l[1], l[2]) + llmax(l[1], l[2]) + ullmin(1ull, 2ull) + ullmax(1ull, 2ull);\n}\n")
    assert "#include <hipport/compat.h>" in _ported(src, "m.cu", hipcc, tmp_path).text


def test_own_unsigned_long_atomics_are_kept_for_cuda_only(hipcc, tmp_path):
    src = ("#include <cstdint>\n__device__ __forceinline__ std::uint64_t atomicAdd(std::uint64_t* a, std::uint64_t v) {\n"
           "  return atomicAdd(reinterpret_cast<unsigned long long*>(a), static_cast<unsigned long long>(v));\n}\n"
           "__global__ void k(std::uint64_t* a) { atomicAdd(a, std::uint64_t(1)); }\n")
    result = _ported(src, "a.cu", hipcc, tmp_path)
    assert [d.code for d in result.diagnostics] == ["HP019"]


def test_device_prop_fields_of_auto_variables_are_read_through_compat(hipcc, tmp_path):
    src = ("#include <cstdio>\ninline cudaDeviceProp initGPU() { cudaDeviceProp p{}; cudaGetDeviceProperties(&p, 0); return p; }\n"
           "int main() {\n  auto prop = initGPU();\n  const auto& ref = prop;\n"
           "  printf(\"%zu %d\\n\", prop.sharedMemPerMultiprocessor, ref.asyncEngineCount);\n}\n")
    out = _ported(src, "p.cu", hipcc, tmp_path).text
    assert "hipport::prop::sharedMemPerMultiprocessor(prop), hipport::prop::asyncEngineCount(ref)" in out


def test_device_prop_fields_through_any_receiver_are_read_through_compat(hipcc, tmp_path):
    """A subscript, a range-for variable, a structured binding, `(*pp)`: the field names HIP 5.2
    lacks are cudaDeviceProp's alone, so the receiver's type need not be known."""
    src = ("#include <vector>\n#include <map>\nint main() {\n  std::vector<cudaDeviceProp> props(1);\n"
           "  size_t a = props[0].sharedMemPerBlockOptin;\n  for (const auto& pr : props) a += pr.asyncEngineCount;\n"
           "  std::map<int, cudaDeviceProp> by{{0, props[0]}};\n"
           "  for (const auto& [d, pr] : by) a += pr.sharedMemPerBlockOptin;\n"
           "  const cudaDeviceProp* pp = props.data();\n  a += (*pp).sharedMemPerBlockOptin;\n  return int(a);\n}\n")
    out = _ported(src, "r.cu", hipcc, tmp_path).text
    assert "size_t a = hipport::prop::sharedMemPerBlockOptin(props[0]);" in out
    assert "a += hipport::prop::asyncEngineCount(pr);" in out and "a += hipport::prop::sharedMemPerBlockOptin(pr);" in out
    assert "a += hipport::prop::sharedMemPerBlockOptin((*pp));" in out


def test_pointer_attribute_types_compared_through_any_receiver_are_read_through_compat(hipcc, tmp_path):
    """`.type` is too common a member name to rewrite everywhere; compared with a cudaMemoryType value
    it is cudaPointerAttributes' (HIP 5.2: memoryType), whatever the receiver."""
    src = ("#include <vector>\nstruct Tok { int type; };\nint main() {\n  std::vector<cudaPointerAttributes> at(2);\n"
           "  void* p; cudaMalloc(&p, 4); cudaPointerGetAttributes(&at[0], p);\n"
           "  int r = at[0].type == cudaMemoryTypeDevice;\n  for (const auto& a : at) r += a.type != cudaMemoryTypeHost;\n"
           "  Tok t{1}; return r + t.type;\n}\n")
    out = _ported(src, "a.cu", hipcc, tmp_path).text
    assert "int r = hipport::pointer::type(at[0]) == hipMemoryTypeDevice;" in out
    assert "r += hipport::pointer::type(a) != hipMemoryTypeHost;" in out and "return r + t.type;" in out


def test_cuda_12_8_atomic_builtins_become_clangs_hip_atomics_and_compile(hipcc, tmp_path):
    """`__nv_atomic_fetch_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE)` (nvcc's own
    builtins): compat.h's wrappers over __hip_atomic_*, CUDA's default scope (the system) included."""
    src = ("__global__ void k(int* p, unsigned long long* q, float* f) {\n"
           "  int old = __nv_atomic_fetch_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);\n"
           "  __nv_atomic_fetch_max(p + 1, old, __NV_ATOMIC_ACQ_REL);\n"
           "  int v = __nv_atomic_load_n(p, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);\n"
           "  __nv_atomic_store_n(p + 2, v, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_SYSTEM);\n  int expected = 0;\n"
           "  bool ok = __nv_atomic_compare_exchange_n(p + 3, &expected, 7, false, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_RELAXED,"
           " __NV_THREAD_SCOPE_DEVICE);\n"
           "  unsigned long long e = __nv_atomic_exchange_n(q, 5ull, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_CLUSTER);\n"
           "  __nv_atomic_add(f, 1.0f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);\n"
           "  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);\n  p[4] = ok + (int)e;\n}\n")
    out = _ported(src, "a.cu", hipcc, tmp_path).text
    assert "hipport::nv_atomic_fetch_add(p, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);" in out
    assert "hipport::nv_atomic_fetch_max(p + 1, old, __ATOMIC_ACQ_REL);" in out
    assert "hipport::nv_atomic_load_n(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_WORKGROUP);" in out
    assert "#include <hipport/compat.h>" in out


def test_system_scope_atomics_are_reported():
    """HeCBench's atomicSystemWide: the hand port checks hipDeviceAttributeHostNativeAtomicSupported
    first; host/device atomicity on AMD needs fine-grained memory and PCIe atomics."""
    src = "__global__ void k(int* p) { atomicAdd_system(p, 1); atomicCAS_system(p, 0, 1); atomicAdd(p, 1); }\n"
    result = translate_source(src, path="s.cu")
    assert [(d.code, d.column) for d in result.diagnostics if d.code == "HP033"] == [("HP033", 29), ("HP033", 53)]
    assert "hipHostMallocCoherent" in result.diagnostics[0].hint


def test_braced_memory_locations_name_their_type(hipcc, tmp_path):
    """CUDA 13's `cudaMemPrefetchAsync(p, n, {cudaMemLocationTypeHost}, 0)`: a braced list cannot match
    compat.h's location templates and would convert to HIP's `int device` overload (device 2)."""
    src = ("int main() {\n  size_t n = 1 << 20; float* m; cudaMallocManaged(&m, n); int dev = 0;\n"
           "  cudaMemAdvise(m, n, cudaMemAdviseSetAccessedBy, {cudaMemLocationTypeHost});\n"
           "  cudaMemPrefetchAsync(m, n, {cudaMemLocationTypeDevice, dev}, 0);\n  cudaMemPrefetchAsync(m, n, dev, 0);\n"
           "  return cudaDeviceSynchronize();\n}\n")
    out = _ported(src, "l.cu", hipcc, tmp_path).text
    assert "hipMemAdvise(m, n, hipMemAdviseSetAccessedBy, hipMemLocation{hipMemLocationTypeHost});" in out
    assert "hipMemPrefetchAsync(m, n, hipMemLocation{hipMemLocationTypeDevice, dev}, 0);" in out
    assert "hipMemPrefetchAsync(m, n, dev, 0);" in out


def test_cuda_12_and_13_overloads_by_argument_count(hipcc, tmp_path):
    """The driver's 3-argument cuGraphInstantiate (CUDA 12's WithFlags) and CUDA 13's 4- and
    5-argument cudaStreamGetCaptureInfo (graph, dependencies): HIP's _WithFlags / _v2 functions."""
    src = ("#include <cuda.h>\nCUresult build(CUgraphExec* e, CUgraph g) { return cuGraphInstantiate(e, g, 0); }\n"
           "cudaError_t info(cudaStream_t s, cudaGraph_t* g, const cudaGraphNode_t** d) {\n"
           "  cudaStreamCaptureStatus st; unsigned long long id;\n  cudaStreamGetCaptureInfo(s, &st, &id, g);\n"
           "  return cudaStreamGetCaptureInfo(s, &st, &id, g, d);\n}\n")
    out = _ported(src, "g.cu", hipcc, tmp_path).text
    assert "return hipGraphInstantiateWithFlags(e, g, 0);" in out
    assert "hipStreamGetCaptureInfo_v2(s, &st, &id, g);" in out and "return hipStreamGetCaptureInfo_v2(s, &st, &id, g, d);" in out


def test_positional_initializers_follow_hips_member_order(hipcc, tmp_path):
    """CUDA-Tutorial's graph API sample: HIP declares these members alphabetically."""
    src = ("__global__ void busy() {}\nvoid f(int* d, cudaGraph_t g, cudaGraphNode_t* n) {\n"
           "  cudaKernelNodeParams kp = { reinterpret_cast<void*>(busy), {1,1,1}, {32,1,1}, 0, nullptr, nullptr };\n"
           "  cudaMemsetParams mp = { d, 0, 7, sizeof(int), 256 };\n"
           "  cudaAccessPolicyWindow w = {d, 1024};\n  cudaMemsetParams e = {}, q{.dst = d};\n"
           "  cudaGraphAddKernelNode(n, g, nullptr, 0, &kp); cudaGraphAddMemsetNode(n, g, nullptr, 0, &mp);\n}\n")
    out = _ported(src, "g.cu", hipcc, tmp_path).text
    assert "hipKernelNodeParams kp = { {32,1,1}, nullptr, reinterpret_cast<void*>(busy), {1,1,1}, nullptr, 0 };" in out
    assert "hipMemsetParams mp = { d, sizeof(int), {}, 0, 7, 256 };" in out  # the height CUDA's list left out: {}
    assert "hipAccessPolicyWindow w = {d, {}, {}, {}, 1024};" in out
    assert "hipMemsetParams e = {}, q{.dst = d};" in out
    # (set BF) returned, assigned, and temporary lists too (a memset's value would land in elementSize)
    src = ("cudaMemsetParams make(float* d) {\n  if (!d) { return {}; }\n  return {d, 0, 7, sizeof(float), 256, 1};\n}\n"
           "int main() {\n  float* d = nullptr;\n  cudaMemsetParams b{}; b = {d, 0, 7, sizeof(float), 256, 1};\n"
           "  cudaMemsetParams t = cudaMemsetParams{d, 0, 7, 4, 256, 1};\n  use(2, {d, 0, 7, sizeof(float), 256, 1});\n"
           "  return int(b.width + t.width + make(d).width);\n}\n")
    src = "void use(int n, const cudaMemsetParams& p) { (void)n; (void)p; }\n" + src
    out = _ported(src, "m.cu", hipcc, tmp_path).text
    assert out.count("{d, sizeof(float), 1, 0, 7, 256}") == 3 and "hipMemsetParams{d, 4, 1, 0, 7, 256}" in out


def test_short_brace_lists_of_vector_types_are_zero_filled(hipcc, tmp_path):
    """CUDA zero-fills `float3 p = {1.0f};`; HIP rejects it, and `float3{1.0f}` would be (1, 1, 1)."""
    src = ("__global__ void k(float4* o, float3* p3, int2* i2) {\n  float4 acc = {0};\n  float3 p{1.0f};\n"
           "  int2 q = {7};\n  float4 full = {1, 2, 3, 4};\n  o[0] = acc; p3[0] = float3{2.f}; i2[0] = q;\n}\n"
           "__device__ __shared__ float file_scope[8];\n"
           "__global__ void s(float* g) {\n  __device__ __shared__ float t[32];\n  __shared__ __device__ float u[4];\n"
           "  t[threadIdx.x] = g[0]; u[0] = t[0]; g[1] = u[0] + file_scope[0];\n}\n")
    out = _ported(src, "v.cu", hipcc, tmp_path).text
    assert "float4 acc = {0, 0, 0, 0};" in out and "float3 p{1.0f, 0, 0};" in out and "int2 q = {7, 0};" in out
    assert "float4 full = {1, 2, 3, 4};" in out and "float3{2.f, 0, 0}" in out
    assert "__device__ __shared__ float file_scope[8];" in out  # file scope: valid on both
    assert "  __shared__ float t[32];\n  __shared__ float u[4];" in out  # a local: clang rejects __device__


def test_short_lists_of_every_declarator_in_a_vector_declaration(hipcc, tmp_path):
    """`float4 a = {0}, b = {x};`: the later declarators' lists too, past a pointer's initializer and
    a declarator without one; a pointer's own list is left."""
    src = ("__global__ void k(float4* o, float x) {\n  float4 a = {0}, b = {x};\n  float4 c, d = {x, x};\n"
           "  int4 e = {1, 2}, *p = nullptr, f = {3};\n  const float2 g = {x}, h{x};\n  float4 *q = {nullptr};\n"
           "  o[0] = a; o[1] = b; o[2] = d; o[3] = make_float4(c.x + e.x + f.x + g.x + h.x, 0, 0, 0);\n"
           "  (void)p; (void)q;\n}\n")
    out = _ported(src, "d.cu", hipcc, tmp_path).text
    assert "float4 a = {0, 0, 0, 0}, b = {x, 0, 0, 0};" in out and "float4 c, d = {x, x, 0, 0};" in out
    assert "int4 e = {1, 2, 0, 0}, *p = nullptr, f = {3, 0, 0, 0};" in out
    assert "const float2 g = {x, 0}, h{x, 0};" in out and "float4 *q = {nullptr};" in out


def test_short_vector_lists_passed_as_arguments_are_zero_filled(hipcc, tmp_path):
    """`take({x, x})` with `take(float4)` declared in the file; an overload set that disagrees on
    the parameter's width is left to the compiler."""
    src = ("__device__ void take(float4 v);\n__device__ void two(int n, const float2 &v) {}\n"
           "__device__ void over(float4 v) {}\n__device__ void over(float2 v) {}\n"
           "__device__ void arg(float x) { take({x, x}); two(1, {x}); if (x) take( {x} ); over(make_float4(x, x, x, x)); }\n"
           "__device__ void take(float4 v) {}\n")
    out = _ported(src, "c.cu", hipcc, tmp_path).text
    assert "take({x, x, 0, 0}); two(1, {x, 0}); if (x) take( {x, 0, 0, 0} );" in out


def test_short_lists_in_arrays_of_vectors_and_static_in_a_comment(hipcc, tmp_path):
    """Each element's list of an array of vectors is zero-filled too; a `static` in a comment before a
    local `__device__ __shared__` is not the storage class that would keep `__device__`."""
    src = ("__constant__ float4 ctab[2] = {{1}, {2, 3}};\n"
           "__global__ void k(float4* o) {\n  float4 arr[2] = {{0}, {1.0f, 2.0f}};\n  float4 none[2] = {};\n"
           "  float x = 0;  // not static\n  __device__ __shared__ float b[4];\n"
           "  b[0] = x; o[0] = arr[1]; o[1] = ctab[1]; o[2] = none[0];\n}\n")
    out = _ported(src, "a.cu", hipcc, tmp_path).text
    assert "ctab[2] = {{1, 0, 0, 0}, {2, 3, 0, 0}};" in out and "arr[2] = {{0, 0, 0, 0}, {1.0f, 2.0f, 0, 0}};" in out
    assert "float4 none[2] = {};" in out and "  __shared__ float b[4];" in out


def test_device_prop_fields_of_an_auto_from_a_header_function(tmp_path):
    (tmp_path / "common.h").write_text("inline cudaDeviceProp initGPU() { cudaDeviceProp p{}; return p; }\n")
    src = '#include "common.h"\nint main() { auto prop = initGPU(); return (int)prop.sharedMemPerMultiprocessor; }\n'
    out = translate_source(src, path=str(tmp_path / "k.cu")).text
    assert "return (int)hipport::prop::sharedMemPerMultiprocessor(prop); }" in out


def test_own_atomics_with_macro_qualifiers_and_removed_api_names_in_skipped_branches(hipcc, tmp_path):
    """cudahelpers' `DEVICEQUALIFIER INLINEQUALIFIER` atomics; hemi's own cudaLaunch called in an #ifdef."""
    src = ("#include <cstdint>\n#define DEVICEQUALIFIER __device__\n#define INLINEQUALIFIER __forceinline__\n"
           "DEVICEQUALIFIER INLINEQUALIFIER\nstd::uint64_t atomicAdd(std::uint64_t* a, std::uint64_t v) {\n"
           "  return atomicAdd(reinterpret_cast<unsigned long long*>(a), static_cast<unsigned long long>(v));\n}\n"
           "__global__ void k(std::uint64_t* a) { atomicAdd(a, std::uint64_t(1)); }\n"
           "namespace hemi {\ntemplate <typename... A> void cudaLaunch(void (*f)(A...), A... a) {\n"
           "#ifdef NOT_DEFINED_HERE\n  cudaLaunch(1, f, a...);\n#else\n  f(a...);\n#endif\n}\n}\n")
    result = _ported(src, "h.cu", hipcc, tmp_path)
    assert [d.code for d in result.diagnostics] == ["HP019"]
    assert "  cudaLaunch(1, f, a...);" in result.text and "hipLaunchByPtr" not in result.text


def test_dim3_from_a_uint3_variable_takes_its_components(hipcc, tmp_path):
    """CUDA's dim3 converts from uint3; HIP 5.2's has only the three-number constructor."""
    src = ("__global__ void k() {}\nvoid f(uint3 u) {\n  uint3 v = make_uint3(2, 2, 1);\n  dim3 a(u); dim3 b = v;\n"
           "  k<<<dim3(v), dim3(u)>>>();\n}\n")
    out = _ported(src, "d.cu", hipcc, tmp_path).text
    assert "dim3 a(u.x, u.y, u.z); dim3 b = dim3(v.x, v.y, v.z);" in out and "k<<<dim3(v.x, v.y, v.z), dim3(u.x, u.y, u.z)>>>" in out


def test_group_shuffles_of_any_type_go_through_compat(hipcc, tmp_path):
    """cuda-samples' shfl_scan shuffles a uint4 through a tile; HIP's shuffles int/float types only."""
    src = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\nstruct Pair { float a, b; };\n"
           "__global__ void k(uint4* out, Pair* pairs, float* f) {\n"
           "  auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
           "  out[0] = tile.shfl_xor(out[0], 1);\n  pairs[0] = tile.shfl_down(pairs[0], 1);\n"
           "  f[0] = tile.shfl(f[0], 0) + tile.shfl_up(f[1], 2);\n}\n")
    out = _ported(src, "s.cu", hipcc, tmp_path).text
    assert "out[0] = hipport::shfl_xor(tile, out[0], 1);" in out
    assert "f[0] = hipport::shfl(tile, f[0], 0) + hipport::shfl_up(tile, f[1], 2);" in out


def test_device_runtime_calls_in_kernels_are_reported():
    src = ("__global__ void k(int n) {\n  float* p;\n  cudaMalloc(&p, n);\n  cudaFree(p);\n}\n"
           "void host(float* p) { cudaMalloc(&p, 4); cudaDeviceSynchronize(); }\n")
    assert [(d.code, d.line) for d in translate_source(src, path="r.cu").diagnostics] == [("HP022", 3), ("HP022", 4)]


def test_nvcc_guards_around_runtime_calls_and_headers_above_the_runtime_include(tmp_path):
    """ParallelGraphColoring's `#ifdef __NVCC__` error macros; a .cu whose project header, above its
    <cuda_runtime.h>, relies on nvcc's implicit include (ekarpp's radix sort)."""
    guard = translate_source("#ifdef __NVCC__\n#define CALL(F) if ((F) != cudaSuccess) exit(1)\n#endif\n", path="c.h")
    assert "#ifdef __HIPCC__\n#define CALL(F) if ((F) != hipSuccess) exit(1)\n" in guard.text
    (tmp_path / "types.h").write_text("typedef ulonglong2 u64_vec2;\n")
    src = '#include "types.h"\n#include <cuda_runtime.h>\n__global__ void k(u64_vec2* p) { p[0].x += 1; }\n'
    out = translate_source(src, path=str(tmp_path / "m.cu")).text
    assert out.startswith('#include <hip/hip_runtime.h>\n#include "types.h"\n#include <hip/hip_runtime.h>\n')
    assert translate_source(out, path=str(tmp_path / "m.cu")).text == out
    # another CUDA header between them (gpu-latency's <cuComplex.h>): the runtime still goes first
    src = '#include "types.h"\n#include <cuComplex.h>\n#include <cuda_runtime.h>\n__global__ void k(u64_vec2* p) {}\n'
    out = translate_source(src, path=str(tmp_path / "m.cu")).text
    assert out.startswith('#include <hip/hip_runtime.h>\n') and out.count("hip/hip_runtime.h") == 1
    assert translate_source(out, path=str(tmp_path / "m.cu")).text == out


def test_a_macro_naming_a_built_in_index_is_cast_in_min_and_max(hipcc, tmp_path):
    src = ("#define TID threadIdx.x\n__global__ void k(unsigned* o) {\n  o[0] = min(TID, 4u);\n"
           "  o[1] = max(TID, blockDim.x);\n}\n")
    out = _ported(src, "t.cu", hipcc, tmp_path).text
    assert "min((unsigned int)TID, 4u)" in out and "max((unsigned int)TID, (unsigned int)blockDim.x)" in out


def test_host_half_arithmetic_compiles_and_computes(hipcc, tmp_path):
    """A CPU reference on __half (CUDA's operators are __host__ __device__; HIP 5.2's device only)."""
    src = ("#include <cuda_fp16.h>\n#include <cstdio>\n"
           "__global__ void k(__half* p) { p[0] = p[1] * p[2] + p[0]; }\n"
           "int main() {\n  __half a = __float2half(1.5f), b = __float2half(2.0f);\n"
           "  __half c = a * b + a; c += b; c = -c;\n  printf(\"%g %d\\n\", __half2float(c), (int)(c > b));\n}\n")
    out = translate_source(src, path="h.cu").text
    assert "#include <hipport/compat.h>" in out
    from hipport.runtime import include_dir

    exe = tmp_path / "h"
    result = hipcc(out, tmp_path, extra=[f"-I{include_dir()}"])
    assert result.returncode == 0, result.stderr
    import subprocess

    link = subprocess.run(["hipcc", "--offload-arch=gfx90a", str(tmp_path / "t.hip.o"), "-o", str(exe)],
                          capture_output=True, text=True, env={**os.environ, "HIP_PLATFORM": "amd"})
    if link.returncode == 0:  # host code only: runs without a GPU
        assert subprocess.run([str(exe)], capture_output=True, text=True).stdout == "-6.5 0\n"


def test_group_members_through_pointers_calls_and_parentheses_compile(hipcc, tmp_path):
    """`tp->num_threads()`, `cg::this_grid().num_blocks()`, `cg::tiled_partition<32>(b).ballot(p)`,
    `(t).any(p)` and a macro's `(t).num_threads()`: members HIP 5.2's groups lack, whatever the
    object's spelling."""
    src = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n#define TILE_N(t) (t).num_threads()\n"
           "typedef cg::thread_block_tile<32, cg::thread_block> Tile;\n"
           "__device__ int f(const Tile* tp, int v) { return tp->num_threads() + tp->any(v) + tp->meta_group_rank(); }\n"
           "__global__ void k(int* p) {\n  cg::thread_block b = cg::this_thread_block();\n"
           "  Tile t = cg::tiled_partition<32>(b);\n  p[0] = f(&t, p[1]) + cg::tiled_partition<32>(b).ballot(p[2] > 0);\n"
           "  p[3] = cg::this_grid().num_blocks() + (t).any(p[4]) + TILE_N(t);\n}\n")
    out = _ported(src, "g.cu", hipcc, tmp_path).text
    assert "hipport::num_threads(*tp) + hipport::any(*tp, v) + hipport::meta_group_rank(*tp)" in out
    assert "hipport::ballot(cg::tiled_partition<32>(b), p[2] > 0)" in out
    assert "hipport::num_blocks(cg::this_grid()) + hipport::any((t), p[4])" in out
    assert "#define TILE_N(t) hipport::num_threads((t))" in out


def test_group_members_no_hip_has_are_reported():
    src = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(int* p) {\n"
           "  cg::grid_group g = cg::this_grid(); cg::thread_block b = cg::this_thread_block();\n"
           "  p[0] = g.cluster_rank() + g.num_clusters(); auto t = b.barrier_arrive(); b.barrier_wait(std::move(t));\n}\n")
    result = translate_source(src, path="c.cu")
    assert [(d.line, d.message.split("'")[1]) for d in result.diagnostics if d.code == "HP001"] == [
        (5, "cluster_rank"), (5, "num_clusters"), (5, "barrier_arrive"), (5, "barrier_wait")]
    assert not [d for d in translate_source("struct B { void barrier_wait(); };\nvoid f(B b) { b.barrier_wait(); }\n",
                                            path="c.cu").diagnostics if d.code == "HP001"]  # no groups in the file


def test_a_users_type_with_group_member_names_keeps_its_members(hipcc, tmp_path):
    """The rewrite sees names, not types: an object of the user's own type with a member of that name
    (const or not) still gets its member through compat.h."""
    src = ("#include <cooperative_groups.h>\n#include <cstdio>\n"
           "struct Counter { int n, sz; __host__ __device__ int num_threads() { return n; }\n"
           "  __host__ __device__ int size() const { return sz; } };\n"
           "__global__ void k(int* p) { Counter c{p[0], p[1]}; p[2] = c.num_threads(); }\n"
           "int main() { Counter c{7, 3}; printf(\"%d\\n\", (int)c.num_threads()); }\n")
    out = translate_source(src, path="u.cu").text
    assert "hipport::num_threads(c)" in out
    from hipport.runtime import include_dir
    from tests.conftest import build_and_run_host

    assert build_and_run_host(hipcc, out, tmp_path, "u", extra=[f"-I{include_dir()}"]) == "7\n"  # the member, not size()
    # votes, matches and meta-group members of a host-only class, called in host code
    src = ("#include <cooperative_groups.h>\n#include <cstdio>\nstruct Mask {\n"
           "  bool any(bool w) const { return w; }\n  bool all(bool w) const { return w; }\n"
           "  int ballot(bool v) const { return v; }\n  int match_any(int v) const { return v; }\n"
           "  unsigned meta_group_rank() const { return 0; }\n  unsigned meta_group_size() const { return 1; }\n};\n"
           "int main() { Mask m; printf(\"%d\\n\", (int)(m.any(true) + m.all(true) + m.ballot(false) + m.match_any(2)"
           " + m.meta_group_rank() + m.meta_group_size())); }\n")
    out = translate_source(src, path="m.cu").text
    assert "hipport::any(m, true)" in out and "hipport::meta_group_size(m)" in out
    assert build_and_run_host(hipcc, out, tmp_path, "m", extra=[f"-I{include_dir()}"]) == "5\n"


def test_texture_object_bit_arithmetic_is_reported():
    """bindlessTexture packs cudaTextureObject_t (an integer in CUDA, a pointer in HIP) into two words."""
    src = ("__host__ __device__ uint2 enc(cudaTextureObject_t obj) { return make_uint2(obj & 0xFFFFFFFF, obj >> 32); }\n"
           "__host__ __device__ cudaTextureObject_t dec(uint2 o) { return ((cudaTextureObject_t)o.y) << 32; }\n"
           "cudaTextureObject_t t; bool same(cudaTextureObject_t a) { return a == t && a; }\n")
    result = translate_source(src, path="t.cu")
    assert [(d.code, d.line) for d in result.diagnostics] == [("HP023", 1), ("HP023", 1), ("HP023", 2)]


def test_short_vector_lists_in_returns_and_assignments_are_zero_filled(hipcc, tmp_path):
    """`return {x};` from a float4 function (or lambda) and `r = {x};`: HIP's explicit constructors
    refuse them, or a one-value list would broadcast."""
    src = ("__device__ float4 f(float x) { float4 r; r = {x}; if (x > 0) { return {x}; } return {x, x, x, x}; }\n"
           "__device__ float2 h() { auto l = []() -> float3 { return {1.f}; }; return {l().x}; }\n"
           "struct Q { int v; int w; }; __device__ int z(Q q) { q = {1}; return q.v; }\n")
    out = _ported(src, "r.cu", hipcc, tmp_path).text
    assert "r = {x, 0, 0, 0}; if (x > 0) { return {x, 0, 0, 0}; } return {x, x, x, x};" in out
    assert "-> float3 { return {1.f, 0, 0}; }; return {l().x, 0};" in out and "q = {1};" in out


def test_short_lists_of_vector_members_in_struct_initializers_are_zero_filled(hipcc, tmp_path):
    src = ("struct S { float4 v; int n; float2 a, b; };\nstruct T { int k; float3 p; };\n"
           "struct U { int k; float3 p; U(int x) : k(x) {} };\n"
           "__device__ float f() { S s = {{1.0f}, 2, {3.f}, {4.f, 5.f}}; T t{1, {2.f}}; S z = {};\n"
           "  return s.v.y + t.p.z + z.a.x; }\n")
    out = _ported(src, "s.cu", hipcc, tmp_path).text
    assert "S s = {{1.0f, 0, 0, 0}, 2, {3.f, 0}, {4.f, 5.f}}; T t{1, {2.f, 0, 0}}; S z = {};" in out


def test_unnamed_typedef_and_template_unions_of_vector_types_stay_copy_assignable(hipcc, tmp_path):
    src = ("typedef union { float4 t; float2 s[2]; } complex2;\n"
           "struct S { union { float4 v; float a[4]; }; int tag; };\n"
           "struct Packed { union { int4 i; unsigned char b[16]; } u; };\n"
           "template <typename T> union TU { T vec; float s[sizeof(T) / 4]; };\n"
           "struct Other { union { float a; int b; }; };\n"
           "__global__ void k(complex2* c, S* s, Packed* p, TU<float2>* t) {\n"
           "  c[0] = c[1]; S y = s[1]; s[0] = y; Packed z; z = p[1]; p[0] = z; TU<float2> w; w = t[1]; t[0] = w;\n}\n")
    out = _ported(src, "u.cu", hipcc, tmp_path).text
    assert "typedef union complex2 { HIPPORT_UNION_ASSIGN(complex2) float4 t;" in out
    assert "struct S { HIPPORT_UNION_ASSIGN(S) union {" in out and "struct Packed { HIPPORT_UNION_ASSIGN(Packed) union {" in out
    assert "union TU { HIPPORT_UNION_ASSIGN(TU) T vec;" in out and "struct Other { union {" in out


def test_unions_holding_vector_types_stay_copy_assignable(hipcc, tmp_path):
    """Opticks' `union quad { float4 f; int4 i; }`: HIP's vector types delete the union's assignment."""
    src = ("union quad { float4 f; int4 i; uint4 u; };\nstruct quad4 { quad q0, q1; };\n"
           "union mine { float a[4]; int b; };\nunion own { float4 f; own& operator=(const own&) = default; };\n"
           "__global__ void k(quad4* d, const quad4* s) { quad4 p = s[threadIdx.x]; p.q0.f.w += 1.f; d[threadIdx.x] = p; }\n")
    result = translate_source(src, path="u.cu")
    out = result.text
    assert "union quad { HIPPORT_UNION_ASSIGN(quad) float4 f;" in out and out.count("HIPPORT_UNION_ASSIGN") == 1
    assert [d.code for d in result.diagnostics] == ["HP027"]
    assert translate_source(out, path="u.cu").text == out
    from hipport.runtime import include_dir

    compiled = hipcc(out.replace("union own { float4 f; own& operator=(const own&) = default; };\n", ""), tmp_path,
                     extra=[f"-I{include_dir()}"])
    assert compiled.returncode == 0, compiled.stderr


def test_runtime_include_goes_outside_extern_c_and_namespace_blocks(hipcc, tmp_path):
    """cuda-hashing-algos' `extern "C" { #include "keccak.cuh" }`: HIP's C++ headers need C++ linkage."""
    src = ('#ifdef __cplusplus\nextern "C" {\n#endif\n#include <stdio.h>\n#ifdef __cplusplus\n}\n#endif\n'
           "#define OPEN {\n__global__ void k(int* a) { a[0] = __dp4a(a[1], a[2], 0); }\n")
    out = translate_source(src, path="k.cu").text
    assert out.startswith("#include <hip/hip_runtime.h>\n#include <hipport/compat.h>\n#ifdef __cplusplus\n")
    ns = translate_source('namespace wrap {\n#include "w.h"\n}\n#include <cstdio>\n', path="n.cu").text
    assert ns == '#include <hip/hip_runtime.h>\nnamespace wrap {\n#include "w.h"\n}\n#include <cstdio>\n'
    _compiles(hipcc, out, tmp_path)


def test_value_returning_surface_reads_and_ushort4_ldg_come_from_compat(hipcc, tmp_path):
    src = ("__global__ void k(cudaSurfaceObject_t s, const ushort4* p, ushort4* o) {\n"
           "  float a = surf2Dread<float>(s, threadIdx.x * 4, 0);\n"
           "  uchar4 b = surf2Dread<uchar4>(s, 0, 0, cudaBoundaryModeClamp);\n"
           "  o[0] = __ldg(p); surf2Dwrite(a + b.x + surf1Dread<float>(s, 4), s, 0, 0);\n}\n")
    out = translate_source(src, path="s.cu").text
    assert "#include <hipport/compat.h>" in out
    from hipport.runtime import include_dir

    # gfx90a has no image instructions, so this is checked, not code-generated
    result = hipcc(out, tmp_path, extra=[f"-I{include_dir()}", "-fsyntax-only"])
    assert result.returncode == 0, result.stderr


def test_variables_named_like_the_built_in_indices_are_the_programs_own():
    """HeCBench's rng-wallace: a CPU reference loops over `int blockIdx`; triad: `int blockIdx = 1`."""
    src = ("__global__ void k(uint3* o) { o[0] = threadIdx; }\n"
           "void reference(unsigned* out, int nb, int nt) {\n"
           "  for (int blockIdx = 0; blockIdx < nb; ++blockIdx)\n"
           "    for (unsigned threadIdx = 0; threadIdx < nt; ++threadIdx) out[blockIdx * nt + threadIdx] = blockIdx;\n}\n"
           "__device__ uint3 after() { return blockIdx; }\n")
    out = tr(src)
    assert "o[0] = hipport::index3(threadIdx.x, threadIdx.y, threadIdx.z);" in out
    assert "out[blockIdx * nt + threadIdx] = blockIdx;" in out and "for (int blockIdx = 0; blockIdx < nb" in out
    assert "return hipport::index3(blockIdx.x, blockIdx.y, blockIdx.z);" in out  # past the loop's scope


def test_half_atomics_convert_their_value_and_half2_clears_compile(hipcc, tmp_path):
    """torch-ngp / GPTQ: atomicAdd(__half*, float) converts as CUDA's non-template does;
    `acc = {};` on a half2 is ambiguous among HIP 5.2's assignments."""
    src = ("#include <cuda_fp16.h>\n__global__ void k(__half* h, half2* h2, float v) {\n"
           "  atomicAdd(h, v); atomicAdd(h2, __floats2half2_rn(v, v));\n"
           "  half2 acc; acc = {}; acc = __hadd2(acc, h2[0]); h2[1] = acc;\n}\n")
    out = translate_source(src, path="a.cu").text
    assert "acc = __half2{};" in out and translate_source(out, path="a.cu").text == out
    _compiles(hipcc, out, tmp_path)


def test_elaborated_graphics_resource_loses_struct_where_hip_has_only_a_typedef(hipcc, tmp_path):
    src = ("struct cudaGraphicsResource *res;\nvoid f(struct cudaGraphicsResource **p, cudaGraphicsResource_t r) {\n"
           "  cudaGraphicsMapResources(1, p, 0); (void)r;\n}\n")
    out = translate_source(src, path="g.cu").text
    assert "hipGraphicsResource *res;" in out and "struct hip" not in out
    _compiles(hipcc, out, tmp_path)


def test_shared_c_headers_get_the_runtime_only_where_they_use_it():
    """BART: a header testing only `__CUDACC__` needs no HIP header; one that includes the runtime
    API under `#ifdef USE_CUDA` gets the runtime inside that block, so CPU-only builds still work."""
    assert tr("#if !defined(__CUDACC__)\n#define HOST_ONLY 1\n#endif\n", path="compiler.h") == \
        "#if !defined(__HIPCC__)\n#define HOST_ONLY 1\n#endif\n"
    out = translate_source("/* shared */\n#ifdef USE_CUDA\n#include <cuda_runtime_api.h>\n#define OK cudaSuccess\n#endif\n",
                           path="gpu.h").text
    assert out == "/* shared */\n#ifdef USE_CUDA\n#include <hip/hip_runtime.h>\n#include <hip/hip_runtime_api.h>\n#define OK hipSuccess\n#endif\n"


def test_whole_block_index_passed_as_dim3_compiles(hipcc, tmp_path):
    """BART's `pmuladd(blockIdx, blockDim, threadIdx)` takes dim3s; `uint3 t = threadIdx;` a uint3."""
    src = ("__device__ dim3 pmuladd(dim3 a, dim3 b, dim3 c) { return dim3(a.x * b.x + c.x, a.y, a.z); }\n"
           "__global__ void k(unsigned* o) { dim3 i = pmuladd(blockIdx, blockDim, threadIdx); uint3 t = threadIdx;\n"
           "  auto u = blockIdx; o[i.x] = t.x + u.y; }\n")
    out = translate_source(src, path="w.cu").text
    assert "pmuladd(hipport::index3(blockIdx.x, blockIdx.y, blockIdx.z), hipport::index3(blockDim.x, blockDim.y, " \
           "blockDim.z)," in out
    _compiles(hipcc, out, tmp_path)


def test_whole_built_ins_meet_a_programs_own_uint3_operators(hipcc, tmp_path):
    """(set CE) helper_math's `operator+(uint3, uint3)` / `operator*`: `threadIdx + blockIdx` and
    `blockIdx * blockDim` are not ambiguous with HIP's vector operator templates, and a whole
    `blockDim` / `gridDim` is the uint3 CUDA converts it to; the host's own `dim3 gridDim(4)` stays."""
    src = ("inline __host__ __device__ uint3 operator+(uint3 a, uint3 b) { return make_uint3(a.x + b.x, a.y + b.y, a.z + b.z); }\n"
           "inline __host__ __device__ uint3 operator*(uint3 a, uint3 b) { return make_uint3(a.x * b.x, a.y * b.y, a.z * b.z); }\n"
           "__device__ unsigned sum(uint3 v) { return v.x + v.y + v.z; }\n"
           "__global__ void k(unsigned* p) {\n  uint3 t = threadIdx + blockIdx;\n  uint3 g = blockIdx * blockDim + threadIdx;\n"
           "  uint3 b = blockDim;\n  p[t.x] = sum(gridDim) + b.x + g.x;\n"
           "  static_assert(sizeof(threadIdx) == 12 && sizeof(gridDim) == sizeof(dim3), \"CUDA's sizes\");\n}\n"
           "int main() { dim3 blockDim(16, 16); dim3 gridDim(4);\n  k<<<gridDim, blockDim>>>(nullptr); }\n")
    out = translate_source(src, path="m.cu").text
    assert "  uint3 b = hipport::index3(blockDim.x, blockDim.y, blockDim.z);\n" in out
    assert "static_assert(sizeof(uint3) == 12 && sizeof(dim3) == sizeof(dim3)," in out
    assert "k<<<gridDim, blockDim>>>(nullptr);" in out
    _compiles(hipcc, out, tmp_path)


def test_runtime_include_after_a_bom_and_conditional_duplicates_kept():
    """A Visual Studio kernel.cu saved with a BOM keeps it first; `#if A / #include <x> / #else /
    #include <x>` keeps both; a header using the API outside its `#ifdef` gets the include on top,
    and a second translation adds nothing."""
    bom = translate_source(b"\xef\xbb\xbf#include <stdio.h>\n__global__ void k() {}\n", path="kernel.cu").text
    assert bom.startswith(b"\xef\xbb\xbf#include <hip/hip_runtime.h>\n#include <stdio.h>\n")
    branches = ("#if defined(A)\n#include <thrust/pair.h>\n#include <cooperative_groups.h>\n#else\n"
                "#include <thrust/pair.h>\n#include <cooperative_groups.h>\n#endif\n")
    out = translate_source(branches, path="b.cu").text
    assert out.count("#include <thrust/pair.h>") == 2 and out.count("#include <hip/hip_cooperative_groups.h>") == 2
    header = "#pragma once\n#ifdef WITH_THRUST\n#include <thrust/pair.h>\n#endif\ninline void f(int** p) { cudaMalloc(p, 4); }\n"
    once = translate_source(header, path="r.cuh").text
    assert once.startswith("#pragma once\n#include <hip/hip_runtime.h>\n#ifdef WITH_THRUST\n")
    assert translate_source(once, path="r.cuh").text == once


def test_suppression_comment():
    assert "HP010" not in codes("int lane = threadIdx.x % 32; // hipport: ignore[HP010]")
    assert codes("int lane = threadIdx.x % 32; // hipport: ignore") == []


def test_diagnostic_position_and_format():
    result = translate_source("int a;\n  int lane = threadIdx.x % 32;\n", path="f.cu")
    [d] = [d for d in result.diagnostics if d.code == "HP010"]
    assert (d.line, d.column) == (2, 14)
    assert d.format().startswith("f.cu:2:14: warning: ") and d.format().split("\n")[0].endswith("[HP010]")
    assert d.hint


def test_version_check_reported_by_translator():
    assert "HV001" in codes("#if CUDA_VERSION >= 11000\n#endif\n")


def test_stats_count_families_and_libraries():
    result = translate_source("#include <curand.h>\ncurandGenerator_t g; cudaMalloc(&p, 4); cudaFree(p);",
                              path="a.cpp")
    stats = result.stats.to_dict()
    assert stats["converted"]["runtime/function"] == 2
    assert stats["converted_total"] >= 4
    assert "hiprand" in " ".join(stats["libraries"])


def test_public_api_lazy_exports():
    assert callable(hipport.translate_file)
    with pytest.raises(AttributeError):
        hipport.does_not_exist  # noqa: B018
    with pytest.raises(TypeError):
        translate_source(123)  # type: ignore[arg-type]


def test_warp_sync_intrinsics_pull_in_the_compat_header_once():
    src = "#include <cuda_runtime.h>\n__global__ void k(float* v) { *v = __shfl_down_sync(0xffffffff, *v, 1); __syncwarp(); }\n"
    out = translate_source(src, path="w.cu").text
    assert out.startswith("#include <hip/hip_runtime.h>\n#include <hipport/compat.h>\n")
    assert out.count("hipport/compat.h") == 1
    assert translate_source(out, path="w.cu").text == out


def test_meta_group_members_become_compat_functions():
    src = "__global__ void k() { auto t = cg::tiled_partition<32>(cg::this_thread_block()); int r = t.meta_group_rank() + t.meta_group_size(); }"
    out = translate_source(src, path="m.cu").text
    assert "hipport::meta_group_rank(t) + hipport::meta_group_size(t)" in out
    assert "#include <hipport/compat.h>" in out


def test_cuda12_group_members_become_compat_functions_in_cooperative_groups_files():
    src = ("#include <cooperative_groups.h>\n__global__ void k() { auto b = cooperative_groups::this_thread_block();\n"
           "  auto g = cooperative_groups::this_grid(); dim3 d = b.dim_threads(); // b.num_threads()\n"
           "  unsigned long long r = g.block_rank() + s.grid.num_blocks(); }\n")
    out = translate_source(src, path="g.cu").text
    assert "dim3 d = hipport::dim_threads(b); // b.num_threads()" in out
    assert "hipport::block_rank(g) + hipport::num_blocks(s.grid)" in out
    assert translate_source(out, path="g.cu").text == out
    # elsewhere the names are common words: a thread pool's num_threads() stays
    assert tr("int n = pool.num_threads();") == "int n = pool.num_threads();"


def test_driver_copies_between_unified_addresses_say_so():
    src = "cuMemcpy(dst, src, n); cuMemcpyAsync(dst, src, n, s); cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_L1);"
    assert tr(src) == ("hipMemcpy(dst, src, n, hipMemcpyDefault); hipMemcpyAsync(dst, src, n, hipMemcpyDefault, s); "
                       "hipFuncSetCacheConfig(f, hipFuncCachePreferL1);")


def test_device_prop_fields_old_hip_lacks_are_read_through_compat():
    src = ("cudaDeviceProp prop; cudaDeviceProp* pp = &prop;\n"
           "int a = prop.asyncEngineCount + pp->unifiedAddressing + prop.major; // prop.deviceOverlap\n"
           "prop.deviceOverlap = 1; bool b = prop.deviceOverlap == 1; other.asyncEngineCount;\n")
    out = translate_source(src, path="q.cpp").text
    assert "int a = hipport::prop::asyncEngineCount(prop) + hipport::prop::unifiedAddressing(*pp) + prop.major;" in out
    assert "// prop.deviceOverlap" in out and "prop.deviceOverlap = 1;" in out  # comments and writes stay
    # (an object of another type reads through the accessor too, which returns its own member)
    assert "bool b = hipport::prop::deviceOverlap(prop) == 1; hipport::prop::asyncEngineCount(other);" in out
    assert "#include <hipport/compat.h>" in out
    assert translate_source(out, path="q.cpp").text == out


def test_device_prop_fields_named_through_the_class_are_reported_for_an_older_hip():
    src = ("using optin_t = decltype(cudaDeviceProp::sharedMemPerBlockOptin);\n"
           "size_t cudaDeviceProp::*f = &cudaDeviceProp::sharedMemPerBlockOptin; auto g = &cudaDeviceProp::major;\n")
    old = translate_source(src, path="q.cpp", options=Options(hip_version="5.2"))
    assert [(d.code, d.line) for d in old.diagnostics] == [("HP008", 1), ("HP008", 2)]
    assert not translate_source(src, path="q.cpp", options=Options(hip_version="6.2")).diagnostics


def test_device_prop_field_named_through_a_macro_argument_is_reported():
    """`SHOW(prop, asyncEngineCount)` builds `(prop).asyncEngineCount` in the preprocessor: no read
    in sight to rewrite, so HIP 5.2's missing member is reported where the macro names it."""
    src = ("#define SHOW(p, f) printf(#f \" = %d\\n\", (int)(p).f)\n#define NAME(f) puts(#f)\n"
           "void q() { cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);\n"
           "  SHOW(prop, asyncEngineCount); SHOW(prop, major); NAME(unifiedAddressing); }\n")
    result = translate_source(src, path="q.cpp", options=Options(hip_version="5.2"))
    found = [(d.code, d.line, d.column) for d in result.diagnostics if "macro SHOW" in d.message]
    assert found == [("HP008", 4, 14)]  # `major` exists, NAME's parameter is no member
    assert "SHOW(prop, asyncEngineCount);" in result.text
    assert not [d for d in translate_source(src, path="q.cpp", options=Options(hip_version="6.2")).diagnostics
                if d.code == "HP008"]


def test_declarations_of_hip_names_are_reported():
    src = ("#include <cuda_runtime.h>\nstatic int hipMalloc = 0;\ntypedef cudaStream_t hipStream_t;\n"
           "hipError_t hipFree(void* p) { return cudaFree(p); }\n"
           "int main() { void* p; cudaMalloc(&p, 4); int hipEvent_t = 2; hipEvent_t += hipMalloc; return hipEvent_t; }\n")
    result = translate_source(src, path="q.cu")
    found = [(d.line, d.message.split("'")[1]) for d in result.diagnostics if d.code == "HP028"]
    assert found == [(2, "hipMalloc"), (4, "hipFree"), (5, "hipEvent_t")]  # the alias is no collision
    assert not [d for d in translate_source(result.text, path="q.cu").diagnostics if d.code == "HP028" and d.line == 3]
    assert not codes("int hipCount = 0; cudaFree(0);").count("HP028")  # not a HIP API name


def test_members_no_or_only_newer_hip_declares_are_reported():
    """A pool cap (HIP after 5.2), a pool usage hint and cluster attributes (no HIP): reads and
    writes alike would not compile."""
    src = ("void f() { cudaMemPoolProps props = {}; props.maxSize = 1 << 30; props.usage = 0;\n"
           "  cudaFuncAttributes fa; int w = fa.requiredClusterWidth + fa.maxThreadsPerBlock; other.usage = 1; }\n")
    result = translate_source(src, path="q.cpp", options=Options(hip_version="5.2"))
    found = [(d.code, d.message.split(" ")[0]) for d in result.diagnostics if d.code in ("HP001", "HP008")]
    assert found == [("HP008", "cudaMemPoolProps::maxSize"), ("HP001", "cudaMemPoolProps::usage"),
                     ("HP001", "cudaFuncAttributes::requiredClusterWidth")]
    assert "props.maxSize = 1 << 30; props.usage = 0;" in result.text  # reported, left as written


def test_device_prop_and_pointer_attribute_fields_of_a_struct_are_read_through_compat(hipcc, tmp_path):
    """`c.prop.asyncEngineCount` with `struct Ctx { cudaDeviceProp prop; }`: the whole chain is the object."""
    src = ("#include <cuda_runtime.h>\nstruct Ctx { cudaDeviceProp prop; cudaPointerAttributes attr; };\n"
           "int f(Ctx& c, const Ctx* pc) { return c.prop.asyncEngineCount + pc->prop.unifiedAddressing +\n"
           "  (int)(c.attr.type == cudaMemoryTypeDevice) + c.prop.major; }\n")
    out = _ported(src, "c.cu", hipcc, tmp_path).text
    assert ("return hipport::prop::asyncEngineCount(c.prop) + hipport::prop::unifiedAddressing(pc->prop) +\n"
            "  (int)(hipport::pointer::type(c.attr) == hipMemoryTypeDevice) + c.prop.major;") in out


def test_pointer_attribute_type_is_read_through_compat():
    src = ("cudaPointerAttributes attr, *pa = &attr; cudaPointerGetAttributes(&attr, p);\n"
           "if (attr.type == cudaMemoryTypeManaged || pa->type == cudaMemoryTypeDevice) {}\n"
           "attr.type = cudaMemoryTypeHost; other.type;\n")
    out = translate_source(src, path="q.cpp").text
    assert ("if (hipport::pointer::type(attr) == hipMemoryTypeManaged || hipport::pointer::type(*pa) == "
            "hipMemoryTypeDevice) {}") in out
    assert "attr.type = hipMemoryTypeHost; other.type;" in out  # writes and other structs stay
    assert "#include <hipport/compat.h>" in out
    assert translate_source(out, path="q.cpp").text == out


def test_builtin_index_passed_to_printf_gets_cuda_type():
    src = ('__global__ void k() { printf("%d %d %d %d", threadIdx.x, blockIdx.y + 1, gridDim . z, (int)blockDim.x);\n'
           '  std::printf("%u", blockIdx.x); fprintf(f, "%d", threadIdx.x); log.printf("%d", threadIdx.y); }\n')
    out = tr(src)
    assert 'printf("%d %d %d %d", (unsigned int)threadIdx.x, blockIdx.y + 1, (unsigned int)gridDim . z, (int)blockDim.x);' in out
    assert '  printf("%u", (unsigned int)blockIdx.x);' in out  # std::printf: HIP 5.2's device printf is ::printf
    assert 'fprintf(f, "%d", threadIdx.x); log.printf("%d", threadIdx.y);' in out
    assert tr(out) == out


def test_cuda_arch_defined_tests_become_hip_device_compile():
    src = ("#ifdef __CUDA_ARCH__\n#elif defined( __CUDA_ARCH__ ) || !defined __CUDA_ARCH__\n#endif\n"
           "#ifndef __CUDA_ARCH__\n#endif // __CUDA_ARCH__\n"
           "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 600\n#endif\nint x = __CUDA_ARCH__;\n")
    out = tr(src)
    assert out.startswith("#ifdef __HIP_DEVICE_COMPILE__\n#elif defined( __HIP_DEVICE_COMPILE__ ) || "
                          "!defined __HIP_DEVICE_COMPILE__\n#endif\n#ifndef __HIP_DEVICE_COMPILE__\n#endif // __CUDA_ARCH__\n")
    # a value check stays whole (HP015 reports it); so do uses outside conditionals
    assert "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 600\n" in out and "int x = __CUDA_ARCH__;" in out
    assert tr(out) == out


def test_nvcc_guard_around_gpu_decorators_asks_for_hips_compiler_instead():
    """`#ifdef __NVCC__ / #define HD __host__ __device__`: the GPU compiler's flag (lov-e-cuda);
    a guard around NVIDIA-only code (a pragma) stays nvcc's."""
    src = ("#ifdef __NVCC__\n#define HD __host__ __device__\n#else\n#define HD\n#endif\n"
           "#if defined(__NVCC__)\nstruct B { __device__ static unsigned x() { return threadIdx.x; } };\n#endif\n"
           "#ifdef __NVCC__\n#pragma nv_diag_suppress 177\n#endif\n")
    out = tr(src)
    assert out.startswith("#ifdef __HIPCC__\n#define HD __host__ __device__\n#else\n#define HD\n#endif\n#if defined(__HIPCC__)\n")
    assert out.endswith("#ifdef __NVCC__\n#pragma nv_diag_suppress 177\n#endif\n")
    assert tr(out) == out


def test_negated_nvcc_guard_defining_the_same_macro_follows_the_gpu_one():
    """GPGPUCourse's translator: `#ifdef __NVCC__ / #define KW __device__` and, apart, `#ifndef __NVCC__ /
    #define KW`; left as nvcc's, the second applies under hipcc too and KW loses `__device__`."""
    src = ("#ifdef __NVCC__\n#define KW __device__\n#endif\n#ifndef __NVCC__  // host build\n#define KW\n#endif\n"
           "#if !defined(__NVCC__)\n#define OTHER 1\n#endif\n")
    out = tr(src)
    assert out == src.replace("__NVCC__", "__HIPCC__", 2)
    assert tr(out) == out


def test_cuda_arch_test_whose_branches_use_its_value_in_code_is_kept():
    """Rodinia's dwt2d: turned on for HIP's device pass, the value would name an undefined macro."""
    src = ("enum {\n#ifdef __CUDA_ARCH__\n#if 1\n#endif\n  BANKS = ((__CUDA_ARCH__ >= 200) ? 32 : 16),\n#else\n"
           "  BANKS = 16,\n#endif\n};\n#ifdef __CUDA_ARCH__\n  // __CUDA_ARCH__ >= 200\n#endif\n")
    out = tr(src)
    assert out.startswith("enum {\n#ifdef __CUDA_ARCH__\n")  # its branch names the value
    assert out.endswith("};\n#ifdef __HIP_DEVICE_COMPILE__\n  // __CUDA_ARCH__ >= 200\n#endif\n")  # only a comment does


def test_cuda_arch_test_whose_macro_definitions_use_its_value_is_kept():
    """ggml's NO_DEVICE_CODE prints the architecture: turned on for HIP's device pass, the macro
    would name an undefined one wherever it is used."""
    src = ('#ifdef __CUDA_ARCH__\n#define NO_DEVICE_CODE printf("arch %d", __CUDA_ARCH__)\n#else\n#define NO_DEVICE_CODE\n'
           "#endif\n#ifdef __CUDA_ARCH__\n#define ON_DEVICE 1\n#endif\n")
    assert tr(src) == src.replace("__CUDA_ARCH__\n#define ON", "__HIP_DEVICE_COMPILE__\n#define ON")


def test_a_files_own_definition_of_a_device_intrinsic_keeps_its_name():
    """ggml's HIP branch defines `__dp4a` itself; the definition keeps the name, calls get the shim's."""
    src = ("#if defined(GGML_USE_HIPBLAS)\nstatic __device__ __forceinline__ int __dp4a(const int a, const int b, int c) {\n"
           "  return c + a * b;\n}\n#endif\n__global__ void k(int* x) { x[0] = __dp4a(x[0], x[1], x[2]); }\n")
    out = tr(src, path="k.cu")
    assert "static __device__ __forceinline__ int __dp4a(const int a" in out
    assert "x[0] = hipport::dp4a(x[0], x[1], x[2]);" in out
    own = "#if __CUDA_ARCH__ < 350\n__device__ inline long __ldcg(const long* p) { return *p; }\n#endif\n"
    assert "inline long __ldcg(const long* p)" in tr(own, path="k.cu")


def test_register_storage_class_is_dropped_outside_c():
    src = "__global__ void k() { register unsigned i = 0; int register_count; } // register\n"
    assert tr(src, path="k.cu") == "__global__ void k() { unsigned i = 0; int register_count; } // register\n"
    assert "register int x;" in tr("register int x;\n", path="legacy.c")  # still valid C


def test_half_atomic_add_pulls_in_compat():
    with_half = translate_source("__global__ void k(__half* h) { atomicAdd(h, __float2half(1.f)); }\n", path="k.cu").text
    assert "#include <hipport/compat.h>" in with_half
    plain = translate_source("__global__ void k(float* f) { atomicAdd(f, 1.f); } // half\n", path="k.cu").text
    assert "compat.h" not in plain


def test_launches_used_as_expressions_keep_the_chevrons_with_hip_syntax(hipcc, tmp_path):
    """hipLaunchKernelGGL is a statement macro: `return k<<<…>>>(d);` in a void function, a launch in
    a comma expression or a for-increment stays as <<<>>>, which hipcc compiles."""
    src = ("__global__ void k(int* a) { a[0] = 1; }\nvoid r(int* d) { return k<<<1, 1>>>(d); }\n"
           "void f(int* d) {\n  (void)(k<<<1, 1>>>(d), 0);\n  for (int i = 0; i < 2; k<<<1, 1>>>(d), ++i) {}\n"
           "  if (d) k<<<1, 2>>>(d);\n  // a comment\n  k<<<1, 3>>>(d);\n}\n")
    result = translate_source(src, path="e.cu", options=Options(hip_kernel_execution_syntax=True))
    out = result.text
    assert "return k<<<1, 1>>>(d);" in out and "(void)(k<<<1, 1>>>(d), 0);" in out and "k<<<1, 1>>>(d), ++i)" in out
    assert "if (d) hipLaunchKernelGGL(k, dim3(1), dim3(2), 0, 0, d);" in out
    assert "  hipLaunchKernelGGL(k, dim3(1), dim3(3), 0, 0, d);" in out
    assert [d.code for d in result.diagnostics] == ["HP018"] * 3
    _compiles(hipcc, out, tmp_path)


def test_names_a_using_declaration_brings_into_a_namespace_and_directives_inside_a_launch():
    src = ("namespace w { using ::cudaMalloc; using ::cudaStream_t; }\n"
           "int main() { void* p; w::cudaMalloc(&p, 8); w::cudaStream_t s = nullptr; std::cudaMalloc; }\n")
    out = translate_source(src, path="u.cpp").text
    assert "using ::hipMalloc; using ::hipStream_t;" in out and "w::hipMalloc(&p, 8); w::hipStream_t s" in out
    assert "std::cudaMalloc" in out  # another library's name
    launch = ("__global__ void k() {}\nvoid f() {\n  k<<<1,\n#ifdef BIG\n  1024\n#else\n  64\n#endif\n  >>>();\n}\n")
    hks = translate_source(launch, path="l.cu", options=Options(hip_kernel_execution_syntax=True))
    assert "#ifdef BIG\n  1024\n#else" in hks.text and "k<<<1," in hks.text
    assert [d.code for d in hks.diagnostics] == ["HP018"]


def test_formatter_spaced_chevrons_are_closed_up():
    src = ("template <class T> std::ostream& operator<< <T>(std::ostream&, X<T>);\n"
           "void f() { k << <g, b >> > (x); k2 << < dim3(a >> 1), 4 > >> (y); /* k << <1, 2 >> > () */ }\n")
    out = tr(src, path="k.cu")
    assert "operator<< <T>(" in out and "/* k << <1, 2 >> > () */" in out
    assert "k <<<g, b >>> (x); k2 <<< dim3(a >> 1), 4 >>> (y);" in out
    # (set AW) a template operator's explicit arguments: clang would lex `<<<` as a launch's
    assert tr("void show(const X<int>& x) { operator<<<int>(std::cout, x); } // operator<<<T>\n", path="o.cu") == \
        "void show(const X<int>& x) { operator<< <int>(std::cout, x); } // operator<<<T>\n"
    # (set BF) only the closing chevrons spaced; an ordinary launch after a shift stays as it is
    assert tr("void f() { k<<<1, 1 >> > (d); k<<<n >> 1, 32>>>(d); }\n", path="k.cu") == \
        "void f() { k<<<1, 1 >>> (d); k<<<n >> 1, 32>>>(d); }\n"
    hip = tr(src, path="k.cu", hip_kernel_execution_syntax=True)
    assert "hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, x); hipLaunchKernelGGL(k2, dim3(a >> 1), dim3(4), 0, 0, y);" in hip
    assert tr(out, path="k.cu") == out


def test_version_guard_policy_applied_by_translator():
    src = "#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000 \\\n    && defined(__CUDACC__)\ncudaFree(0);\n#endif\n"
    out = tr(src, version_guards="exclude-rocm")
    assert "!defined(USE_ROCM)" in out and out.count("(") == out.count(")")
    assert "hipFree(0);" in out
    assert out.startswith("#include <hipport/version.h>\n")  # what defines USE_ROCM outside PyTorch
    assert tr(out, version_guards="exclude-rocm") == out
    assert not [c for c in codes(src, version_guards="exclude-rocm") if c == "HV001"]


@pytest.mark.parametrize("src,expected", [
    ("v = __shfl_down_sync(0xffffffff, v, 16);", "v = __shfl_down(v, 16);"),
    ("v = __shfl_xor_sync(0xFFFFFFFFu, v, 1, 16);", "v = __shfl_xor(v, 1, 16);"),
    ("m = __ballot_sync(__activemask(), p);", "m = __ballot(p);"),
    ("if (__all_sync(~0u, p)) {}", "if (__all(p)) {}"),
])
def test_full_mask_warp_intrinsics_become_whole_wavefront_hip_intrinsics(src, expected):
    result = translate_source(src, path="w.cpp")
    assert result.text.endswith(expected)
    assert "hipport/compat.h" not in result.text
    assert "HP011" not in [d.code for d in result.diagnostics]


def test_partial_mask_warp_intrinsics_keep_sync_form_with_compat():
    out = translate_source("v = __shfl_down_sync(mask, v, 1);", path="w.cpp").text
    assert "__shfl_down_sync(mask, v, 1)" in out and "#include <hipport/compat.h>" in out


def test_hip_symbol_in_graph_memcpy_node_apis():
    out = tr("cudaGraphAddMemcpyNodeToSymbol(&n, g, deps, 1, sym, src, 4, 0, cudaMemcpyHostToDevice);"
             " cudaGraphExecMemcpyNodeSetParamsFromSymbol(e, n, dst, sym, 4, 0, cudaMemcpyDeviceToHost);",
             experimental=True)
    assert "(&n, g, deps, 1, HIP_SYMBOL(sym), src, 4, 0, hipMemcpyHostToDevice)" in out
    assert "(e, n, dst, HIP_SYMBOL(sym), 4, 0, hipMemcpyDeviceToHost)" in out


def _toolkit(root, cudart_version: int) -> str:
    (root / "include").mkdir(parents=True)
    (root / "include" / "cuda_runtime_api.h").write_text(f"#define CUDART_VERSION {cudart_version}\n")
    return str(root)


def test_version_macros_take_the_toolkit_branch_when_skipping_blocks(tmp_path):
    src = "#if CUSPARSE_VERSION >= 11600\n{0}\n#else\n{1}\n#endif\n".format(COPY.format(0), COPY.format(1))
    cuda13 = _toolkit(tmp_path / "cuda13", 13000)
    out = tr(src, skip_excluded_preprocessor_conditional_blocks=True, cuda_path=cuda13)
    assert [_taken(out, i) for i in range(2)] == [True, False]
    out = tr(src, skip_excluded_preprocessor_conditional_blocks=True, defines=("CUSPARSE_VERSION=11000",))
    assert [_taken(out, i) for i in range(2)] == [False, True]
    # CUDA_VERSION follows the toolkit --cuda-path names
    src = "#if CUDA_VERSION < 12000\n{0}\n#elif CUDA_VERSION >= 12080\n{1}\n#else\n{2}\n#endif\n".format(
        *(COPY.format(i) for i in range(3)))
    for release, taken in ((11080, [True, False, False]), (12080, [False, True, False]), (12040, [False, False, True])):
        out = tr(src, skip_excluded_preprocessor_conditional_blocks=True,
                 cuda_path=_toolkit(tmp_path / str(release), release))
        assert [_taken(out, i) for i in range(3)] == taken, release


def test_version_macros_without_a_toolkit_port_every_branch():
    """No --cuda-path: the CUDA release is unknown, so each version's branch is ported."""
    src = ("#if CUDA_VERSION < 12000\n{0}\n#else\n{1}\n#endif\n#if CUSPARSE_VERSION >= 11600 && defined(FOO)\n{2}\n"
           "#else\n{3}\n#endif\n#if 0\n{4}\n#elif CUDA_VERSION >= 9000\n{5}\n#endif\n").format(
        *(COPY.format(i) for i in range(6)))
    out = tr(src, skip_excluded_preprocessor_conditional_blocks=True)
    assert [_taken(out, i) for i in range(6)] == [True, True, True, True, False, True]
    out = tr(src, skip_excluded_preprocessor_conditional_blocks=True, defines=("CUDA_VERSION=11000",))
    assert [_taken(out, i) for i in range(6)] == [True, False, True, True, False, True]


def test_occupancy_callback_argument_dropped():
    """HIP's driver occupancy calculators have no block-size-to-shared-memory callback parameter."""
    out = tr("CUoccupancyB2DSize cb = 0; cuOccupancyMaxPotentialBlockSize(&g, &b, f, 0, 128, 0);")
    assert out == "void* cb = 0; hipModuleOccupancyMaxPotentialBlockSize(&g, &b, f, 128, 0);"
    assert tr(out) == out
    res = translate_source("cuOccupancyMaxPotentialBlockSizeWithFlags(&g, &b, f, myCallback, 128, 0, 0);",
                           path="o.cpp")
    assert "hipModuleOccupancyMaxPotentialBlockSizeWithFlags(&g, &b, f, 128, 0, 0);" in res.text
    assert [d.code for d in res.diagnostics] == ["HP006"]


def test_bf16_in_cublas_files_is_hipblas_type():
    """hipBLAS names bf16 hip_bfloat16 (as hipify-clang's cuBLAS table); elsewhere it is __hip_bfloat16."""
    blas = tr('#include "cublas_v2.h"\n__nv_bfloat16* p;\n')
    assert "hip_bfloat16* p;" in blas and "__hip_bfloat16" not in blas
    assert "__hip_bfloat16* p;" in tr("#include <cuda_bf16.h>\n__nv_bfloat16* p;\n")
    # device code in a cuBLAS file needs HIP's own bf16, with its conversions (llm.c's kernels)
    kernel = tr('#include <cublas_v2.h>\n__global__ void k(__nv_bfloat16* p, float v) { p[0] = v; }\n')
    assert "__global__ void k(__hip_bfloat16* p, float v)" in kernel


def test_ptx_lane_id_becomes_the_hip_intrinsic():
    src = ('__device__ unsigned lane() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }\n'
           '__device__ unsigned warp() { unsigned r; asm("mov.u32 %0, %%warpid;" : "=r"(r)); return r; }\n'
           '__device__ unsigned below() { unsigned m; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m)); return m; }\n')
    result = translate_source(src, path="t.cu")
    out = result.text
    assert "unsigned r; r = __lane_id(); return r;" in out and "unsigned m; m = __lanemask_lt(); return m;" in out
    assert 'asm("mov.u32 %0, %%warpid;" : "=r"(r));' in out  # no HIP equivalent: left, and reported
    assert [(d.code, d.line) for d in result.diagnostics if d.code == "HP013"] == [("HP013", 2)]
    assert translate_source(out, path="t.cu").text == out


def test_assembly_in_host_functions_is_not_reported_as_ptx():
    """`asm("nop")` in main or a static host helper is the CPU's; a device function's, a lambda's in a
    kernel, and a __host__ __device__ template's are PTX."""
    src = ('static void spin() { asm volatile("nop"); }\nint main() { asm volatile("# marker" ::: "memory"); spin(); }\n'
           '__global__ void k() { auto g = [] () { asm("mov.u32 %0, %%warpid;"); }; g(); }\n'
           'template <class T> __host__ __device__ T g(T x) { asm("add.s32 %0, %1, 1;" : "=r"(x) : "r"(x)); return x; }\n'
           'struct A { __device__ void m() const { asm("trap;"); } };\n')
    result = translate_source(src, path="h.cu")
    assert [d.line for d in result.diagnostics if d.code == "HP013"] == [3, 4, 5]


def test_ptx_clock_timer_and_smid_reads_become_hip_calls():
    src = ('__device__ void f() { unsigned long long g, c; unsigned s;\n'
           ' asm volatile ("mov.u64 %0, %globaltimer;"   : "=l"(g));\n'
           ' asm("mov.u32 %0, %smid;" : "=r"(s)); asm volatile("mov.u64 %0, %clock64;" : "=l"(c)); }\n')
    result = translate_source(src, path="t.cu")
    assert " g = hipport::globaltimer();\n s = __smid(); c = clock64(); }" in result.text
    assert "#include <hipport/compat.h>" in result.text
    assert not [d for d in result.diagnostics if d.code == "HP013"]


def test_ptx_barriers_and_fences_become_their_cuda_functions():
    src = ('__global__ void k(int* p) { asm volatile("bar.sync 0;"); asm("membar.gl;" ::: "memory");\n'
           '  asm volatile("membar.cta;"); asm("bar.sync 1, 64;"); }\n')
    result = translate_source(src, path="b.cu")
    assert "{ __syncthreads(); __threadfence();\n  __threadfence_block(); asm(\"bar.sync 1, 64;\"); }" in result.text
    assert [(d.code, d.column) for d in result.diagnostics] == [("HP013", 32)]  # a named barrier: left, reported


def test_own_float_atomics_are_kept_for_cuda_only():
    src = ("// max of floats\n__device__\nfloat atomicMax(float* a, float v) {\n  return v;\n}\n"
           "__device__ float atomicMax(float* a, float v);\nfloat atomicMin(float* a, float v) { return v; }\n"
           "__global__ void k(float* p) { atomicMax(p, 1.f); }\n")
    result = translate_source(src, path="k.cu")
    out = result.text
    assert ("#if !defined(__HIP_PLATFORM_AMD__)  // HIP defines it\n__device__\n"
            "float atomicMax(float* a, float v) {\n  return v;\n}\n#endif\n__device__ float atomicMax(float* a, float v);\n") in out
    assert out.count("#if !defined(__HIP_PLATFORM_AMD__)") == 1  # the prototype and a host function stay
    assert [d.code for d in result.diagnostics] == ["HP019"]
    assert translate_source(out, path="k.cu").text == out


def test_driver_type_overloads_hip_merges_are_left_out():
    """helper_cuda.h: `_cudaGetErrorEnum(cudaError_t)` and `(CUresult)` are one function in HIP."""
    src = ("static const char *name(cudaError_t e) { return cudaGetErrorName(e); }\n"
           "#ifdef CUDA_DRIVER_API\n// driver errors\nstatic const char *\nname(CUresult error) {\n"
           "  const char *s = 0;\n  cuGetErrorName(error, &s);\n  return s;\n}\n#endif\n"
           "void sync(cudaStream_t s, int n) {}\nvoid sync(CUstream stream, int count = 0) {}\n"
           "void only_driver(CUevent e) {}\nint use(CUresult r);\n"
           "struct A { void f(cudaError_t e) {} };\nstruct B { void f(CUresult e) {} };\n")  # other scopes
    result = translate_source(src, path="h.cuh")
    out = result.text
    guard = "#if 0  // hipport: HIP's driver API uses the runtime's types; the overload on them serves this too\n"
    assert (guard + "static const char *\nname(hipError_t error) {\n  const char *s = 0;\n") in out
    assert "  return s;\n}\n#endif\n#endif\n" in out
    assert guard + "void sync(hipStream_t stream, int count = 0) {}\n#endif\n" in out
    assert out.count("#if 0") == 2  # a driver type with no runtime twin overload, and a prototype, stay
    assert [d.code for d in result.diagnostics] == ["HP021", "HP021"]
    assert translate_source(out, path="h.cuh").text == out


def test_driver_type_overloads_compile_after_translation(hipcc, tmp_path):
    src = ("#include <cuda.h>\n#include <cuda_runtime.h>\n"
           "static const char *errName(cudaError_t e) { return cudaGetErrorName(e); }\n"
           "static const char *errName(CUresult e) { const char *s = 0; cuGetErrorName(e, &s); return s; }\n"
           "int main() { return errName(cudaSuccess) != errName(CUDA_SUCCESS); }\n")
    _compiles(hipcc, translate_source(src, path="e.cu").text, tmp_path)


CUDA13_DRIVER_AND_UM = """\
#include <cuda.h>
#include <cuda_runtime.h>
int main() {
  CUdevice dev; CUcontext ctx;
  cuInit(0); cuDeviceGet(&dev, 0);
  CUctxCreateParams params = {};  // CUDA 13: affinity / CIG parameters
  cuCtxCreate(&ctx, &params, 0, dev);
  float* p = nullptr; size_t n = 1 << 20; cudaStream_t s = 0;
  cudaMallocManaged(&p, n);
  cudaMemLocation loc; loc.type = cudaMemLocationTypeDevice; loc.id = 0;
  cudaMemAdvise(p, n, cudaMemAdviseSetPreferredLocation, loc);
  cudaMemPrefetchAsync(p, n, loc, 0, s);
  loc.type = cudaMemLocationTypeHost;
  cudaMemPrefetchAsync(p, n, loc, 0);
  CUmemLocation dloc = {}; dloc.type = CU_MEM_LOCATION_TYPE_DEVICE; dloc.id = 0;
  cuMemPrefetchAsync((CUdeviceptr)p, n, dloc, 0, 0);
  if (cudaDeviceSetLimit(cudaLimitStackSize, 4096) != cudaSuccess) return 1;
  return 0;
}
"""


def test_cuda13_context_params_and_location_prefetch_compile(hipcc, tmp_path):
    """CUDA 13's cuCtxCreate parameters and location-based prefetch/advice: hipport/compat.h has
    what HIP lacks (and what HIP 5.2 lacks besides: hipMemLocationTypeHost, hipLimitStackSize)."""
    out = translate_source(CUDA13_DRIVER_AND_UM, path="um.cpp").text
    assert "hipport::CtxCreateParams params = {};" in out and "hipCtxCreate(&ctx, 0, dev);" in out
    assert "hipMemPrefetchAsync(p, n, loc, 0, s);" in out and "#include <hipport/compat.h>" in out
    _compiles(hipcc, out, tmp_path)


def test_cuda_declaration_markers_compile(hipcc, tmp_path):
    """crt/host_defines.h's __device_builtin__ & co., copied by code that re-declares built-ins."""
    src = ("struct __device_builtin__ __builtin_align__(8) pair { float a, b; };\n"
           "extern __device__ __device_builtin__ __cudart_builtin__ void helper(void);\n"
           "__global__ void k(pair* p) { p->a = 1; }\n")
    out = translate_source(src, path="m.cu").text
    assert "#include <hipport/compat.h>" in out
    _compiles(hipcc, out, tmp_path)


def test_atomic_overloads_hip_lacks_come_from_compat_and_compile(hipcc, tmp_path):
    """atomicMin/Max/And/Or/Xor on long long (the double-min idiom), also block- and system-scoped, the
    16-bit atomicCAS and atomicAdd of float2 / float4 (sm_90): HIP 5.2 has none of them."""
    src = ("#include <cuda_runtime.h>\n"
           "__global__ void k(long long* lo, const long long* v, unsigned short* flags, double* d) {\n"
           "  atomicMin(lo, v[threadIdx.x]); atomicMax(lo, 0); atomicMax_system(lo, v[0]);\n"
           "  __longlong_as_double(atomicMin((long long int*)d, __double_as_longlong(1.0)));\n"
           "  unsigned short o = atomicCAS(flags + threadIdx.x % 4, (unsigned short)0, (unsigned short)1);\n"
           "  unsigned u = 0; atomicMin(&u, 1u); int i = 0; atomicCAS(&i, 0, 1); (void)o;\n"
           "  atomicMax_block(lo, 1); atomicMin_block(lo, 2); atomicAnd(lo, 3); atomicOr_system(lo, 4); atomicXor_block(lo, 5);\n}\n"
           "__global__ void v(float2* a, float4* b) { float4 o = atomicAdd(b, make_float4(1, 2, 3, 4));\n"
           "  atomicAdd_system(a, make_float2(1.f, 2.f)); atomicAdd_block(a, make_float2(o.x, o.y)); atomicAdd(&b->w, 1.f); }\n")
    out = translate_source(src, path="atomics.cu").text
    assert "#include <hipport/compat.h>" in out and "atomicMin(lo, v[threadIdx.x]);" in out
    assert "hipport/compat.h" not in tr("__global__ void k(int* p, long long n) { atomicMin(p, 1); }\n")
    _compiles(hipcc, out, tmp_path)


def test_members_defined_out_of_line_as_device_functions_get_it_in_their_class(hipcc, tmp_path):
    """The CUDA Handbook's Spinlock: nvcc lets the out-of-line definition's __device__ win; clang
    needs the declaration to say it too.  Overloads and already qualified ones stay."""
    src = ("class Spinlock {\npublic:\n    Spinlock( int *p );\n    void acquire();\n    void f(int); void f(float);\n"
           "    __host__ __device__ void g();\nprivate:\n    int *m_p;\n};\n"
           "inline __device__ Spinlock::Spinlock( int *p ) { m_p = p; }\n"
           "inline __device__ void Spinlock::acquire() { while ( atomicCAS( m_p, 0, 1 ) ); }\n"
           "__host__ __device__ void Spinlock::g() {}\nvoid Spinlock::f(int) {}\nvoid Spinlock::f(float) {}\n"
           "__global__ void k( int *lock ) { Spinlock s( lock ); s.acquire(); }\n")
    out = _ported(src, "s.cu", hipcc, tmp_path).text
    assert "public:\n    __device__ Spinlock( int *p );\n    __device__ void acquire();\n    void f(int);" in out
    assert "    __host__ __device__ void g();\n" in out


def test_out_of_line_members_of_class_templates_and_member_templates_agree_with_their_declaration(hipcc, tmp_path):
    """Both directions, for class templates and member templates too: a `__device__` declaration
    defined without a space (nvcc's warning #20037) gets it on the definition, after the template
    heads; a plain declaration whose definition says `__device__` gets it in the class."""
    src = ("template <typename T>\nstruct Acc {\n  __device__ T get(int i) const;\n  __host__ __device__ Acc(T* p);\n"
           "  template <int N> __device__ T sum() const;\n  T norm() const;\n  template <int N> T dot() const;\n  T* p;\n};\n"
           "template <typename T>\nT Acc<T>::get(int i) const { return p[i]; }\n"
           "template <typename T>\nAcc<T>::Acc(T* q) : p(q) {}\n"
           "template <typename T>\ntemplate <int N>\nT Acc<T>::sum() const { T s = 0; for (int i = 0; i < N; ++i) s += p[i]; return s; }\n"
           "template <typename T>\n__device__ T Acc<T>::norm() const { return p[0] * p[0]; }\n"
           "template <typename T> template <int N>\n__device__ T Acc<T>::dot() const { return N * p[0]; }\n"
           "struct Plain { __device__ float f() const; float* p; };\nfloat Plain::f() const { return *p; }\n"
           "template <typename T, int M> struct W { __device__ void f(); };\n"
           "template <typename T, int M> void W<T, M>::f() {}\n"
           "__global__ void k(float* x) { Acc<float> a(x); x[0] = a.get(1) + a.sum<4>() + a.norm() + a.dot<2>();"
           " x[1] = Plain{x}.f(); W<float, 3>{}.f(); }\n")
    out = _ported(src, "acc.cu", hipcc, tmp_path).text
    assert "template <typename T>\n__device__ T Acc<T>::get(int i) const" in out
    assert "template <typename T>\n__host__ __device__ Acc<T>::Acc(T* q)" in out
    assert "template <typename T>\ntemplate <int N>\n__device__ T Acc<T>::sum() const" in out
    assert "  __device__ T norm() const;\n  template <int N> __device__ T dot() const;\n" in out
    assert "__device__ float Plain::f() const" in out
    assert "template <typename T, int M> __device__ void W<T, M>::f() {}" in out
    assert tr(out) == out


def test_old_unprefixed_device_names():
    out = translate_source("__global__ void k(int* p) { p[0] = syncthreads_count(p[1]) + syncthreads_or(p[2]);\n"
                           "  p[3] = double2int(1.5, cudaRoundNearest); }\n", path="o.cu")
    assert "__syncthreads_count(p[1]) + __syncthreads_or(p[2])" in out.text
    assert [d.message.split("'")[1] for d in out.diagnostics if d.code == "HP001"] == ["double2int", "cudaRoundNearest"]


def test_cluster_kernel_attributes_are_dropped_and_reported(hipcc, tmp_path):
    src = ("__global__ void __launch_bounds__(256, 2, 1) a(float* o) { o[0] = 1; }\n"
           "__global__ void __cluster_dims__(2, 1, 1) b(float* o) { o[0] = 2; }\n"
           "#define MAX(a, b) a\n__global__ void __launch_bounds__(MAX(64, 32)) c(float* o) { o[0] = 3; }\n")
    result = _ported(src, "k.cu", hipcc, tmp_path)
    assert "__global__ void __launch_bounds__(256, 2) a(" in result.text
    assert "__global__ void /* __cluster_dims__(2, 1, 1) */ b(" in result.text
    assert "__launch_bounds__(MAX(64, 32)) c(" in result.text
    assert [(d.line, d.code) for d in result.diagnostics if d.code in ("HP001", "HP016")] == [
        (1, "HP016"), (1, "HP016"), (2, "HP001")]


def test_cluster_attributes_and_shared_pairs_spelled_in_macro_bodies_are_fixed_there(hipcc, tmp_path):
    """(set BU) the same rewrites in a `#define`'s body as in code; a macro named like the attribute
    (a CPU build's stand-in) is left."""
    src = ("#define KERNEL_BOUNDS(n) __launch_bounds__(n, 1, 2)\n#define CLUSTER2 __cluster_dims__(2, 1, 1)\n"
           "#define TILE(name, n) __device__ __shared__ float name[n]\nTILE(global_tile, 4);\n"
           "__global__ void KERNEL_BOUNDS(128) k1(float* p) { TILE(t, 32); t[0] = p[0]; p[1] = t[0] + global_tile[0]; }\n"
           "__global__ void CLUSTER2 k2(int* p) { p[0] = 2; }\n")
    result = _ported(src, "m.cu", hipcc, tmp_path)
    assert "#define KERNEL_BOUNDS(n) __launch_bounds__(n, 1)\n#define CLUSTER2 /* __cluster_dims__(2, 1, 1) */\n" \
        "#define TILE(name, n) __shared__ float name[n]\n" in result.text
    stand_in = "#ifndef __CUDACC__\n#define __launch_bounds__(a, b, c)\n#endif\n"
    assert tr(stand_in, path="s.h") == stand_in.replace("__CUDACC__", "__HIPCC__")


def test_push_and_pop_macro_pragmas_follow_the_renamed_definition():
    """(set BU) a temporary redefinition of cudaMalloc between push_macro/pop_macro: the pragmas must
    save and restore the macro the #undef/#define now name, or the user's stays defined after."""
    src = ('#pragma push_macro("cudaMalloc")\n#undef cudaMalloc\n#define cudaMalloc(p, n) cudaMallocManaged(p, n)\n'
           '#pragma pop_macro("cudaMalloc")\n_Pragma("push_macro(\\"cudaFree\\")")\n#pragma push_macro("mine")\n'
           '#undef cudaFree\n')
    out = tr(src, path="p.cu")
    assert out.count('push_macro("hipMalloc")') == 1 and out.count('pop_macro("hipMalloc")') == 1
    assert '_Pragma("push_macro(\\"hipFree\\")")' in out and 'push_macro("mine")' in out
    assert tr(out, path="p.cu") == out


def test_half_reciprocals_link(hipcc, tmp_path):
    """HIP 5.2's hrcp / h2rcp of __half call a function no device library defines: the translated
    program must link, not only compile."""
    src = ("#include <cuda_fp16.h>\n__global__ void k(__half* h, __half2* h2) { h[0] = hrcp(h[0]); h2[0] = h2rcp(h2[0]); }\n"
           "int main() { k<<<1, 1>>>(nullptr, nullptr); return 0; }\n")
    out = translate_source(src, path="r.cu").text
    assert "#include <hipport/compat.h>" in out
    from hipport.runtime import include_dir
    import subprocess

    (tmp_path / "r.hip").write_text(out)
    link = subprocess.run(["hipcc", "--offload-arch=gfx90a", f"-I{include_dir()}", str(tmp_path / "r.hip"), "-o",
                           str(tmp_path / "r")], capture_output=True, text=True, env={**os.environ, "HIP_PLATFORM": "amd"})
    assert link.returncode == 0, link.stderr


def test_sincos_of_a_float_compiles(hipcc, tmp_path):
    """CUDA overloads sincos / sincospi for float; HIP has the double forms and the *f names."""
    src = ("#include <cuda_runtime.h>\n__global__ void k(float* o, float x, double d) {\n"
           "  float s, c; sincos(x, &s, &c); sincospi(x, &o[1], &o[2]); double ds, dc; sincos(d, &ds, &dc);\n"
           "  o[0] = s + c + (float)(ds + dc);\n}\n")
    out = translate_source(src, path="sc.cu").text
    assert "#include <hipport/compat.h>" in out and "sincos(x, &s, &c);" in out
    _compiles(hipcc, out, tmp_path)


def test_jit_options_keep_hipify_spelling_and_compile(hipcc, tmp_path):
    """CU_JIT_* become HIPRTC_JIT_* (hipify-clang's spelling, hipJitOption values in current HIP);
    hipport/jit_options.h makes them so on HIP 5.2, which has no such names."""
    src = ("#include <cuda.h>\nint main() {\n  CUmodule m; char log[64];\n"
           "  CUjit_option opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_MAX_REGISTERS};\n"
           "  void* vals[] = {log, (void*)(size_t)sizeof(log), (void*)(size_t)32};\n"
           "  CUjit_option target = CU_JIT_TARGET_FROM_CUCONTEXT; (void)target;\n"
           "  return cuModuleLoadDataEx(&m, \"\", 3, opts, vals) == CUDA_SUCCESS ? 0 : 1;\n}\n")
    out = translate_source(src, path="jit.cpp").text
    assert "hipJitOption target = HIPRTC_JIT_TARGET_FROM_HIPCONTEXT;" in out
    assert "#include <hipport/jit_options.h>" in out
    _compiles(hipcc, out, tmp_path)


HELPER_MATH = """\
inline __host__ __device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
inline __host__ __device__ void operator+=(float3 &a, float3 b)
{
    a.x += b.x; a.y += b.y; a.z += b.z;
}
inline __host__ __device__ void operator*=(float3 &a, float b) { a.x *= b; a.y *= b; a.z *= b; }
inline __host__ __device__ void operator-=(int2 &a, const int2 &b) { a.x -= b.x; a.y -= b.y; }
__global__ void k(float3* p, int2* q) { p[0] += p[1]; p[0] *= 2.0f; p[1] = p[0] + p[1]; q[0] -= q[1]; }
"""


def test_helper_math_vector_compound_assignments_are_kept_for_cuda_only(hipcc, tmp_path):
    """helper_math.h's operator+=(float3&, float3) is ambiguous with HIP's own member operator."""
    result = translate_source(HELPER_MATH, path="m.cu")
    out = result.text
    guard = "#if !defined(__HIP_PLATFORM_AMD__)  // HIP's vector types define it\n"
    assert guard + "inline __host__ __device__ void operator+=(float3 &a, float3 b)\n{\n" in out
    assert guard + "inline __host__ __device__ void operator-=(int2 &a, const int2 &b)" in out
    assert out.count(guard) == 2  # the binary operator and the scalar one stay
    assert [d.code for d in result.diagnostics] == ["HP025", "HP025"]
    assert translate_source(out, path="m.cu").text == out
    compiled = hipcc(out, tmp_path)
    assert compiled.returncode == 0, compiled.stderr


def test_complex_multiplication_on_float2_is_kept_and_reported_not_left_out():
    """float2 used as a complex number: left out on AMD, HIP's component-wise *= would serve the
    calls and compute something else; it stays, reported (HP026)."""
    src = ("__host__ __device__ inline float2 operator*(float2 a, float2 b) {\n"
           "  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }\n"
           "__host__ __device__ inline void operator*=(float2& a, float2 b) { a = a * b; }\n"
           "__host__ __device__ inline void operator/=(double2& a, double2 b) { a.x /= b.x; a.y /= b.y; }\n")
    result = translate_source(src, path="c.cu")
    assert "#if !defined(__HIP_PLATFORM_AMD__)  // HIP's vector types define it\n__host__ __device__ inline void " \
           "operator/=(double2& a" in result.text  # component-wise: HIP's own serves it
    assert "#if" not in result.text.split("operator*=")[0]
    assert [(d.code, d.line) for d in result.diagnostics] == [("HP026", 3), ("HP025", 4)]


def test_cucomplex_operators_are_kept_for_cuda_only_and_compile(hipcc, tmp_path):
    """hip_complex.h defines the complex operators for hipFloatComplex itself."""
    src = ("#include <cuComplex.h>\n"
           "__device__ __host__ inline cuFloatComplex operator*(cuFloatComplex a, cuFloatComplex b) { return cuCmulf(a, b); }\n"
           "__device__ __host__ inline cuFloatComplex operator+(const cuFloatComplex& a, const cuFloatComplex& b)\n"
           "{ return cuCaddf(a, b); }\n"
           "__device__ __host__ inline cuFloatComplex operator*(cuFloatComplex a, float s) { return make_cuFloatComplex(a.x * s, a.y * s); }\n"
           "__device__ __host__ inline cuFloatComplex operator/(cuFloatComplex a, float s) { return make_cuFloatComplex(a.x / s, a.y / s); }\n"
           "__global__ void k(cuFloatComplex* v, cuFloatComplex w) { v[threadIdx.x] = w * v[threadIdx.x] * 2.0f + w / 2.0f; }\n")
    result = translate_source(src, path="z.cu")
    out = result.text
    assert out.count("#if !defined(__HIP_PLATFORM_AMD__)  // HIP's hip_complex.h defines it\n") == 3
    assert [d.code for d in result.diagnostics] == ["HP025"] * 3  # not the division by a scalar
    assert translate_source(out, path="z.cu").text == out
    _compiles(hipcc, out, tmp_path)


def test_cache_hinted_loads_and_stores_compile(hipcc, tmp_path):
    """llm.c's load128cs/store128cs: __ldcs/__stcs on int4/float4, which HIP 5.2 lacks."""
    src = ("#include <cuda_fp16.h>\n"
           "__global__ void k(const int4* a, float4* b, float* c, const __half* h) {\n"
           "  int4 v = __ldcs(a); float4 f = __ldcg(b); __stcs(b, f); __stcg(c, 1.0f);\n"
           "  c[1] = v.x + __ldlu(c) + __half2float(__ldcs(h)); __stwt(c + 2, __ldca(c)); }\n")
    out = translate_source(src, path="ld.cu").text
    assert "int4 v = hipport::ldcs(a);" in out and "hipport::stwt(c + 2, hipport::ldca(c));" in out
    _compiles(hipcc, out, tmp_path)


def test_runtime_include_under_a_build_flag_does_not_count():
    src = "#include <stdio.h>\n#ifdef LEET_GPU\n#include <cuda_runtime.h>\n#endif\n__global__ void k() {}\n"
    out = translate_source(src, path="k.cu").text
    assert out.startswith("#include <hip/hip_runtime.h>\n#include <stdio.h>\n#ifdef LEET_GPU\n#include <hip/hip_runtime.h>\n")
    assert translate_source(out, path="k.cu").text == out
    guarded = "#ifndef K_H\n#define K_H\n#include <cuda_runtime.h>\n__device__ int f();\n#endif\n"
    assert translate_source(guarded, path="k.cuh").text.count("hip_runtime.h") == 1  # an include guard is no condition


def test_host_classification_calls_get_math_h():
    src = "#include <cstdio>\nint main() { float x = 0; return isnan(x) || std::isinf(x); }\n"
    out = translate_source(src, path="m.cu").text
    assert out.startswith("#include <hip/hip_runtime.h>\n#include <math.h>\n#include <cstdio>\n")
    assert translate_source(out, path="m.cu").text == out
    assert translate_source("#include <math.h>\nint f(float x) { return isnan(x); }\n", path="m.cu").text.count("math.h") == 1
    assert "math.h" not in translate_source("int f(float x) { return std::isnan(x); }\n", path="m.cu").text


def test_cuda_math_called_from_host_code_gets_the_shims_host_overloads(hipcc, tmp_path):
    """llm.c's CPU reference: `rsqrtf` on the host, which CUDA's math library serves and HIP's does
    for device code only; a kernel's own call needs nothing."""
    from hipport.runtime import include_dir

    src = ("#include <cuda_runtime.h>\n__global__ void k(float* x) { x[0] = rsqrtf(x[1]) + normcdff(x[2]); }\n"
           "__host__ __device__ float hd(float v) { return erfinvf(v); }\n"
           "float ref(float s, int c) { float r = rsqrtf(s / c); float a, b; sincospif(r, &a, &b); return a + hd(b); }\n")
    out = translate_source(src, path="r.cu").text
    assert out.startswith("#include <hip/hip_runtime.h>\n#include <hipport/compat.h>\n")
    assert translate_source(out, path="r.cu").text == out
    built = hipcc(out, tmp_path, "r.hip", extra=[f"-I{include_dir()}"])
    assert built.returncode == 0, built.stderr
    device_only = translate_source("__global__ void k(float* x) { x[0] = rsqrtf(x[1]); }\n", path="d.cu").text
    assert "compat.h" not in device_only


def test_builtin_index_in_min_max_and_auto_gets_cuda_type():
    """HIP 5.2's threadIdx.x is an object that converts to unsigned int: deduction (auto, the min/max
    overload sets) needs the value itself."""
    src = ("__global__ void k(unsigned n) { unsigned a = std::min(threadIdx.x, n), b = max(blockIdx.x, 3u);\n"
           "  auto c = threadIdx.y; c += ::min(n, gridDim.x); unsigned d = thrust::max(threadIdx.x, n);\n"
           "  auto e = blockDim.x * 2; float f = fminf(threadIdx.x, 1.f); }\n")
    out = tr(src, path="k.cu")
    assert "std::min((unsigned int)threadIdx.x, n), b = max((unsigned int)blockIdx.x, 3u);" in out
    assert "auto c = (unsigned int)threadIdx.y; c += ::min(n, (unsigned int)gridDim.x);" in out
    assert "thrust::max(threadIdx.x, n);" in out and "auto e = blockDim.x * 2; float f = fminf(threadIdx.x, 1.f);" in out
    assert tr(out, path="k.cu") == out


def test_builtin_index_deduced_by_the_files_own_templates_gets_cuda_type(hipcc, tmp_path):
    """`my_min(threadIdx.x, n)` with `template <typename T> T my_min(T, T)`, and
    `decltype(threadIdx.x)`: deduction sees HIP 5.2's index object, not CUDA's unsigned."""
    src = ("template <typename T> __device__ T my_min(T a, T b) { return a < b ? a : b; }\n"
           "template <typename T> __device__ void store(T* out, T v) { *out = v; }\n"
           "template <typename T> struct Box { T v; };\n"
           "__global__ void k(unsigned* out, unsigned n) {\n  out[0] = my_min(threadIdx.x, n);\n"
           "  store(out, blockIdx.x);\n  decltype(threadIdx.x) v = 3; out[1] = v + my_min<unsigned>(blockDim.x, n);\n}\n")
    out = _ported(src, "t.cu", hipcc, tmp_path).text
    assert "my_min((unsigned int)threadIdx.x, n);" in out and "store(out, (unsigned int)blockIdx.x);" in out
    assert "decltype((unsigned int)threadIdx.x) v = 3;" in out and "my_min<unsigned>(blockDim.x, n)" in out


def test_whole_builtin_index_becomes_the_uint3_cuda_gives():
    src = ("#define TID threadIdx\n__global__ void k(unsigned* o) { uint3 t = threadIdx; o[0] = f(blockIdx) + TID.x"
           " + threadIdx.y + sizeof(threadIdx); } // threadIdx\n")
    out = tr(src, path="k.cu")
    assert "#define TID hipport::index3(threadIdx.x, threadIdx.y, threadIdx.z)\n" in out
    # host code declaring the built-ins for an IDE: declarators, not uses
    decl = tr("#ifndef __CUDA_ARCH__\nextern const uint3 threadIdx;\n#endif\n__device__ uint3 f() { return blockIdx; }\n")
    assert "extern const uint3 threadIdx;" in decl and "return hipport::index3(blockIdx.x, blockIdx.y, blockIdx.z);" in decl
    assert "uint3 t = hipport::index3(threadIdx.x, threadIdx.y, threadIdx.z); o[0] = f(hipport::index3(blockIdx.x, blockIdx.y, blockIdx.z))" in out
    assert "+ threadIdx.y + sizeof(uint3); } // threadIdx" in out  # (CUDA's size, not the HIP object's)
    assert tr(out, path="k.cu") == out


def test_streams_take_miopens_name_in_cudnn_files_only():
    dnn = '#include "cudnn.h"\ncudaStream_t s; cudnnSetStream(h, s);\n'
    out = tr(dnn, miopen=True)
    assert "miopenAcceleratorQueue_t s; miopenSetStream(h, s);" in out
    # a file without cuDNN has no MIOpen header to name the typedef: HIP's own name
    assert tr("cudaStream_t s;", miopen=True) == "hipStream_t s;"
    assert "hipStream_t s;" in tr(dnn)


def test_roc_targets_of_curand_and_cusolver_as_hipify_clang():
    out = tr("curandStateSobol64 a; curandStateSobol64_t b; curandGenerator_st* g; curandSetGeneratorOrdering(gen, o);", roc=True)
    assert out == ("rocrand_device::sobol64_engine<false> a; rocrand_state_sobol64 b; rocrand_generator_base_type* g; "
                   "rocrand_set_ordering(gen, o);")
    out = tr("cusolverStatus_t s = CUSOLVER_STATUS_ZERO_PIVOT; cusolverEigMode_t m = CUSOLVER_EIG_MODE_VECTOR;", roc=True)
    assert out == "rocblas_status s = rocblas_status_not_implemented; rocblas_evect m = rocblas_evect_original;"
    assert "hipsolverStatus_t s = HIPSOLVER_STATUS_ZERO_PIVOT;" in tr("cusolverStatus_t s = CUSOLVER_STATUS_ZERO_PIVOT;")


def test_runtime_compiled_device_code_in_strings_is_reported():
    """NVRTC sources are strings, never rewritten: their CUDA names and NVIDIA architecture options
    are reported (xmrig's KawPow kernel, a header that is one raw string, went to hiprtc as CUDA)."""
    src = ('#include <nvrtc.h>\nstatic const char *src = R"(\nextern "C" __global__ void k(unsigned *v) {\n'
           '#if __CUDA_ARCH__ >= 700\n  v[0] = __shfl_sync(0xFFFFFFFF, v[1], 0);\n#endif\n}\n)";\n'
           'void build(nvrtcProgram p) {\n  nvrtcCreateProgram(&p, src, "k.cu", 0, nullptr, nullptr);\n'
           '  const char *opts[] = {"--gpu-architecture=compute_80", "-default-device"};\n'
           '  nvrtcCompileProgram(p, 2, opts);\n  puts("__global__ launch failed");\n}\n')
    result = translate_source(src, path="rtc.cpp")
    found = [(d.code, d.line, d.message) for d in result.diagnostics if d.code == "HP030"]
    assert [(code, line) for code, line, _m in found] == [("HP030", 2), ("HP030", 11)]
    assert "__CUDA_ARCH__, __shfl_sync" in found[0][2] and "compute_80" in found[1][2]
    assert 'R"(\nextern "C" __global__' in result.text  # the string itself is left as it is


def test_c_sources_get_no_cpp_shims(tmp_path):
    """A host file in C: compat.h's accessors are C++, so a device-prop field HIP 5.2 lacks is
    reported instead, and what gcc compiles stays C."""
    import shutil
    import subprocess

    src = ("#include <cuda_runtime_api.h>\nint run(cudaGraph_t g) {\n  cudaGraphExec_t ge;\n"
           "  return (int)cudaGraphInstantiate(&ge, g, 0);\n}\n"
           "int engines(void) {\n  struct cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);\n"
           "  return prop.asyncEngineCount + prop.multiProcessorCount;\n}\n")
    result = translate_source(src, path="host.c")
    assert "hipport" not in result.text and "prop.asyncEngineCount + prop.multiProcessorCount" in result.text
    assert [d.code for d in result.diagnostics if "asyncEngineCount" in d.message] == ["HP008"]
    if shutil.which("gcc") and Path("/usr/include/hip/hip_runtime_api.h").exists():
        c = tmp_path / "host.c"
        c.write_text(result.text.replace("prop.asyncEngineCount + ", ""))
        done = subprocess.run(["gcc", "-D__HIP_PLATFORM_AMD__", "-c", str(c), "-o", str(tmp_path / "host.o")],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_definitions_kept_for_one_platform_may_end_with_a_comment(hipcc, tmp_path):
    """(set BU) `}  // driver API` after an overload on CUresult (HP021), after a file's own float
    atomicMax (HP019): the guard still closes after the definition."""
    src = ("#include <cuda.h>\n#include <cuda_runtime.h>\nstatic const char* errstr(cudaError_t e) { return cudaGetErrorName(e); }\n"
           "static const char* errstr(CUresult r) {\n  const char* s = nullptr;\n  cuGetErrorName(r, &s);\n  return s;\n}  // driver API\n"
           "__device__ float atomicMax(float* a, float v) {\n  return v;\n}; /* a stray semicolon */ // float\n"
           "__global__ void k(float* p) { atomicMax(p, 1.f); }\nint main() { return errstr(cudaDeviceSynchronize())[0] == 'x'; }\n")
    result = _ported(src, "e.cu", hipcc, tmp_path)
    assert "  return s;\n}  // driver API\n#endif\n" in result.text
    assert "}; /* a stray semicolon */ // float\n#endif\n" in result.text


def test_a_files_own_device_min_max_templates_are_kept_for_cuda_only(hipcc, tmp_path):
    """mmcv's carafe kernel: `template <typename T> __device__ T min(T, T)` is what clang's HIP
    headers define already; a namespace's own, or a host one, is no clash."""
    src = ("template <typename scalar_t>\n__device__ inline scalar_t min(scalar_t a, scalar_t b) {\n  return a < b ? a : b;\n}\n"
           "template <typename T>\n__host__ __device__ T max(const T &a, const T &b) {\n  return a > b ? a : b;\n}\n"
           "namespace mine {\ntemplate <typename T> __device__ T min(T a, T b) { return a < b ? a : b; }\n}\n"
           "__global__ void k(const float* x, float* y) { y[0] = max(min(x[0], 1.0f), mine::min(x[1], 0.0f)); }\n")
    result = _ported(src, "mm.cu", hipcc, tmp_path)
    assert result.text.count("#if !defined(__HIP_PLATFORM_AMD__)  // HIP defines it") == 2
    assert "namespace mine {\ntemplate <typename T> __device__ T min" in result.text
    assert [d.code for d in result.diagnostics] == ["HP019", "HP019"]


@pytest.mark.parametrize("src", [
    "struct uchar4;  // also C:\\ tools \\\n   (continued)\ntypedef unsigned long long uint64_t;  // id \\\n  (more)\n",
    "typedef unsigned long long uint64_t; /* ids */\nstruct uchar4; /* pixels */ /* two */\n",
    "\ufeffstruct float4;  // the byte-order mark first\r\ntypedef unsigned long long uint64_t;\r\n",
])
def test_restated_declarations_are_guarded_whatever_follows_them_on_the_line(hipcc, tmp_path, src):
    """(set BU) a `//` comment spliced onto the next line, `/* */` comments, a byte-order mark on
    the first line: each guard closes after the whole line, and a second guard opens after it."""
    src += "__global__ void k(uint64_t* p, uchar4* q) { p[0] = 1; }\n" if "uint64_t" in src else ""
    result = _ported(src, "r.cu", hipcc, tmp_path)
    assert [d.code for d in result.diagnostics] == ["HP019", "HP019"]
    assert result.text.startswith("\ufeff" if src.startswith("\ufeff") else "#")


def test_a_driver_loaded_at_run_time_keeps_its_restated_types_and_entry_points_for_cuda(hipcc, tmp_path):
    """cuda-samples' dynlink header (CUEW, FFmpeg's dynlink_cuda.h alike): its own `typedef enum
    cudaError_enum {…} CUresult;` and `extern tcuDeviceGet *cuDeviceGet;` would redefine HIP's; on AMD
    the calls reach HIP's functions."""
    src = ("#include <stddef.h>\ntypedef int CUdevice;\ntypedef enum cudaError_enum {\n  CUDA_SUCCESS = 0,\n"
           "  CUDA_ERROR_NOT_FOUND = 500\n} CUresult;\ntypedef struct CUDA_MEMCPY2D_st {\n  size_t WidthInBytes;\n"
           "  union { int a; float b; } u;\n} CUDA_MEMCPY2D;\ntypedef CUresult tcuDeviceGet(CUdevice *device, int ordinal);\n"
           "extern tcuDeviceGet *cuDeviceGet;\ntcuDeviceGet *cuDeviceGet = NULL;\n"
           "int first() { CUdevice d; return cuDeviceGet(&d, 0) == CUDA_SUCCESS ? d : -1; }\n")
    result = _ported(src, "dl.cpp", hipcc, tmp_path)
    guard = "#if !defined(__HIP_PLATFORM_AMD__)  // HIP's headers declare it\n"
    assert guard + "typedef enum cudaError_enum {\n  CUDA_SUCCESS = 0,\n" in result.text
    assert "  union { int a; float b; } u;\n} hip_Memcpy2D;\n#endif\n" in result.text
    assert guard + "extern tcuDeviceGet *hipDeviceGet;\n#endif\n" + guard + "tcuDeviceGet *hipDeviceGet = NULL;\n#endif\n" \
        in result.text
    assert [d.code for d in result.diagnostics] == ["HP019"] * 4
    assert translate_source(result.text, path="dl.cpp").text == result.text


def test_a_files_own_use_rocm_branch_is_taken(hipcc, tmp_path):
    """vLLM-style `#ifndef USE_ROCM / <PTX> / #else / <AMD asm>`: hipport/version.h defines USE_ROCM
    on AMD, so the translated file takes the project's ROCm branch whatever else it needs."""
    src = ("#include <cuda_runtime.h>\n#include <stdint.h>\ninline __device__ uint32_t lane() {\n  uint32_t r;\n"
           "#ifndef USE_ROCM\n  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(r));\n#else\n  r = __lane_id();\n#endif\n"
           "  return r;\n}\n__global__ void k(uint32_t* o) { o[threadIdx.x] = lane(); }\n")
    out = _ported(src, "r.cu", hipcc, tmp_path).text
    assert "#include <hipport/version.h>" in out
    assert "hipport/version.h" not in translate_source("#define USE_ROCM 1\n#ifdef USE_ROCM\n#endif\n", path="d.cu").text
    torch = "#include <ATen/ATen.h>\n#ifndef USE_ROCM\n#define X 1\n#endif\n"  # torch's build defines it
    assert "hipport/version.h" not in translate_source(torch, path="t.cu").text


def test_lane_masks_counted_with_popc_or_ffs_use_the_64_bit_forms(hipcc, tmp_path):
    """`__popc(__ballot_sync(…))`: HIP's masks are 64 bits, __popc's argument 32."""
    src = ("__global__ void k(const float* x, int* out) {\n  float v = x[threadIdx.x];\n"
           "  int n = __popc(__ballot_sync(0xffffffff, v > 0.f));\n  int leader = __ffs(__ballot_sync(0xffffffff, v > 4.f)) - 1;\n"
           "  int lanes = __popc(__activemask());\n  int bits = __popc(threadIdx.x);\n"
           "  out[threadIdx.x] = n + leader + lanes + bits;\n}\n")
    out = _ported(src, "v.cu", hipcc, tmp_path).text
    assert "int n = __popcll(__ballot(v > 0.f));" in out and "int leader = __ffsll(__ballot(v > 4.f)) - 1;" in out
    assert "int lanes = __popcll(__activemask());" in out and "int bits = __popc(threadIdx.x);" in out


def test_lane_masks_declared_in_32_bit_variables_are_widened_with_their_counts(hipcc, tmp_path):
    """Warp-aggregated atomics (`unsigned mask = __activemask(); leader = __ffs(mask) - 1;`): on a
    64-lane wavefront the 32-bit variable drops lanes 32-63 silently.  A mask whose address is
    taken keeps its type and stays reported."""
    src = ("__device__ int agg(int* ctr) {\n  unsigned int mask = __activemask();\n  int leader = __ffs(mask) - 1;\n"
           "  int res = 0;\n  if ((int)threadIdx.x == leader) res = atomicAdd(ctr, __popc(mask));\n"
           "  return res + __popc(mask & 7u) + __popc(threadIdx.x);\n}\n"
           "__device__ int other(int* ctr, bool p) {\n  int m = __ballot_sync(0xffffffff, p);\n"
           "  unsigned k = __ballot_sync(0xffffffff, !p);\n  atomicOr(&k, 1u);\n  return __popc(m) + __popc(k) + *ctr;\n}\n"
           "__global__ void kern(int* c) { c[1] = agg(c) + other(c, c[0] > 0); }\n")
    result = _ported(src, "agg.cu", hipcc, tmp_path)
    out = result.text
    assert "  unsigned long long mask = __activemask();\n  int leader = __ffsll(mask) - 1;\n" in out
    assert "atomicAdd(ctr, __popcll(mask))" in out and "__popcll(mask & 7u) + __popc(threadIdx.x)" in out
    assert "  unsigned long long m = __ballot(p);\n  unsigned k = __ballot(!p);\n" in out
    assert "return __popcll(m) + __popc(k) + *ctr;" in out
    assert [d.line for d in result.diagnostics if d.code == "HP011"] == [10]
    assert tr(out, path="agg.cu") == out
    # (set BC) a mask handed whole to a function of the file, or declared with other variables,
    # keeps its type: an `unsigned&` parameter or a deduced T wants the 32-bit one
    kept = tr("__device__ void bump(unsigned& m) { m |= 1u; }\n"
              "__global__ void k(int* o) {\n  unsigned a = __ballot_sync(0xffffffff, o[0] > 0);\n  bump(a);\n"
              "  unsigned b = __activemask(), lane = threadIdx.x;\n  bump(lane);\n"
              "  unsigned c = __activemask();\n  o[0] = __shfl_sync(c, o[1], 0) + __popc(a) + __popc(b) + __popc(c);\n}\n",
              path="k.cu")
    assert "unsigned a = __ballot(o[0] > 0);" in kept and "unsigned b = __activemask(), lane" in kept
    assert "unsigned long long c = __activemask();" in kept and "__popc(a) + __popc(b) + __popcll(c)" in kept
    # (set BH, ECL-GC) the lanes-below mask inside the widened count: `1 << lane` is undefined past 31
    ranked = tr("__global__ void k(const int* in, int* o) {\n  const int lane = threadIdx.x % warpSize;\n"
                "  const int b = __ballot_sync(0xffffffff, in[0] > 0);\n  o[0] = __popc(b & ((1 << lane) - 1));\n"
                "  o[1] = __popc(__ballot_sync(0xffffffff, in[1] > 0) & ((1u << lane) - 1)) + (1 << lane);\n}\n", path="r.cu")
    assert "__popcll(b & ((1ull << lane) - 1))" in ranked
    assert "__popcll(__ballot(in[1] > 0) & ((1ull << lane) - 1)) + (1 << lane)" in ranked


def test_host_half_arithmetic_in_a_library_file_without_main_compiles(hipcc, tmp_path):
    """A CPU reference in a library .cu (no main): HIP 5.2's half operators are device-only."""
    src = ("#include <cuda_fp16.h>\nfloat host_ref(const __half* x, int n) {\n  __half s = __float2half(0.f);\n"
           "  for (int i = 0; i < n; i++) s += x[i] * x[i];\n  return __half2float(s);\n}\n")
    assert "#include <hipport/compat.h>" in _ported(src, "lib.cu", hipcc, tmp_path).text
    device_only = "#include <cuda_fp16.h>\n__device__ __half sq(__half x) { return x * x; }\n"
    assert "compat.h" not in translate_source(device_only, path="d.cu").text


def test_pointers_to_members_of_cuda_classes_are_renamed():
    src = ("int get(const cudaDeviceProp& p, int cudaDeviceProp::*field) { return p.*field; }\n"
           "int cudaDeviceProp::*f = &cudaDeviceProp::multiProcessorCount;\nusing field_t = int cudaFuncAttributes::*;\n")
    out = tr(src, path="p.cu")
    assert "int hipDeviceProp_t::*field" in out and "int hipDeviceProp_t::*f = &hipDeviceProp_t::multiProcessorCount;" in out
    assert "using field_t = int hipFuncAttributes::*;" in out


def test_aliases_of_cuda_type_names_in_a_users_namespace_are_the_users(hipcc, tmp_path):
    """`namespace my { using cudaStream_t = int; typedef long cudaEvent_t; }`: the aliases and the
    `my::` uses keep their names; the global, CUDA's, is renamed."""
    src = ("#include <cuda_runtime.h>\nnamespace my {\n  using cudaStream_t = int;\n  typedef long cudaEvent_t;\n}\n"
           "int f() {\n  my::cudaStream_t s = 1;\n  my::cudaEvent_t e = 2;\n  cudaStream_t real = nullptr;\n"
           "  return s + (int)e + (real == nullptr);\n}\n")
    out = _ported(src, "ns.cu", hipcc, tmp_path).text
    assert "using cudaStream_t = int;\n  typedef long cudaEvent_t;" in out
    assert "my::cudaStream_t s = 1;" in out and "hipStream_t real = nullptr;" in out


def test_restated_cuda_declarations_are_kept_for_cuda_only(hipcc, tmp_path):
    """A host-only header's `struct uchar4;` (HIP's vector types are aliases) and
    `typedef unsigned long long cudaTextureObject_t;` (HIP's handle is a pointer): guarded out on
    AMD, where HIP's own declarations serve; reported HP019; a namespace's typedef is the user's."""
    header = ("#pragma once\nstruct uchar4;\nstruct int3; struct float4;\n"
              "typedef unsigned long long cudaTextureObject_t;\nnamespace my { typedef long cudaEvent_t; }\n"
              "void launcher(uchar4* out, int3 dims, cudaTextureObject_t t, my::cudaEvent_t e);\n")
    res = translate_source(header, path="kernel.h")
    guard = "#if !defined(__HIP_PLATFORM_AMD__)  // HIP's headers declare it\n"
    assert f"{guard}struct uchar4;\n#endif\n{guard}struct int3; struct float4;\n#endif\n" in res.text
    assert f"{guard}typedef unsigned long long hipTextureObject_t;\n#endif\n" in res.text
    assert "namespace my { typedef long cudaEvent_t; }" in res.text and "#include <hip/hip_runtime.h>" in res.text
    assert [d.code for d in res.diagnostics] == ["HP019"] * 3
    assert translate_source(res.text, path="kernel.h").text == res.text
    (tmp_path / "kernel.h").write_text(res.text)
    main = ('#include "kernel.h"\n__global__ void k(uchar4* o) { o[0] = make_uchar4(1, 2, 3, 4); }\n'
            "void launcher(uchar4* out, int3 dims, cudaTextureObject_t t, my::cudaEvent_t e) { k<<<1, 1>>>(out); }\n")
    _compiles(hipcc, translate_source(main, path="main.cu").text, tmp_path, f"-I{tmp_path}")



def test_restated_driver_handles_and_shared_lines_are_kept_for_cuda_only(hipcc, tmp_path):
    """A run-time driver loader's `typedef void* CUcontext;` (HIP's handle is a struct pointer) and
    several restated typedefs on one line: the whole line is kept for CUDA; a line that also
    declares the user's own type, or a pointer to a library handle HIP's runtime header does not
    declare, stays as it is."""
    src = ("typedef void* CUcontext;\ntypedef int CUresult; typedef unsigned long long CUdeviceptr;\n"
           "typedef void *CUstream; typedef int my_int;\ntypedef void* cublasHandle_t;\n"
           "CUresult load(CUcontext c, CUdeviceptr p, CUstream s, my_int n);\n")
    res = translate_source(src, path="loader.c")
    guard = "#if !defined(__HIP_PLATFORM_AMD__)  // HIP's headers declare it\n"
    assert f"{guard}typedef void* hipCtx_t;\n#endif\n" in res.text
    assert f"{guard}typedef int CUresult; typedef unsigned long long hipDeviceptr_t;\n#endif\n" in res.text
    assert "\ntypedef void *hipStream_t; typedef int my_int;\n" in res.text
    assert "\ntypedef void* hipblasHandle_t;\n" in res.text
    assert [d.code for d in res.diagnostics].count("HP019") == 2
    assert translate_source(res.text, path="loader.c").text == res.text
    _compiles(hipcc, res.text.replace("typedef void *hipStream_t; ", ""), tmp_path)

def test_host_half_arithmetic_through_a_project_typedef_compiles(hipcc, tmp_path):
    """`typedef __half floatX;` in the project's header: main.cu never names the half type, but its
    conversions show that its CPU code computes on halves."""
    (tmp_path / "types.h").write_text("#pragma once\n#include <hip/hip_fp16.h>\ntypedef __half floatX;\n")
    src = ('#include <cstdio>\n#include "types.h"\n__global__ void k(floatX* x) { x[0] = x[0] * x[1]; }\n'
           "int main() {\n  floatX a = __float2half(1.5f), b = __float2half(2.0f);\n  floatX c = a * b + a;\n"
           '  if (c > a) printf("%f\\n", __half2float(c));\n  return 0;\n}\n')
    out = translate_source(src, path="main.cu").text
    assert "#include <hipport/compat.h>" in out
    _compiles(hipcc, out, tmp_path, f"-I{tmp_path}")


def test_globally_qualified_kernels_after_keywords_and_line_ends_launch(tmp_path):
    """`else ::ns::k<<<…>>>`, `do ::ns::k<<<…`, and `::ns::k<<<…` on a line after one ending in `>`
    (a comment's `<notes>`): the kernel's name starts at its leading `::`."""
    src = ("namespace ns { __global__ void k(int* d) {} }\nvoid run(int* d, int n) {\n"
           "  if (n) ::ns::k<<<1, 1>>>(d); else ::ns::k<<<1, 1>>>(d);\n  do ::ns::k<<<1, 1>>>(d); while (--n > 0);\n"
           "#if 1 // see <notes>\n  ::ns::k<<<1, 1>>>(d);\n#endif\n}\n")
    out = tr(src, path="q.cu", hip_kernel_execution_syntax=True)
    assert out.count("hipLaunchKernelGGL(::ns::k, dim3(1), dim3(1), 0, 0, d);") == 4
    assert "else hipLaunchKernelGGL(" in out and "do hipLaunchKernelGGL(" in out


def test_template_argument_commas_in_a_launch_configuration_split_nothing():
    src = ("template <int A, int B> struct Mx { static constexpr int v = A > B ? A : B; };\n"
           "template <typename T, int N> constexpr int blocks() { return N; }\n"
           "template <int N> __global__ void k(int* d) {}\nvoid run(int* d, int a, int b) {\n"
           "  k<1><<<1, Mx<32, 64>::v>>>(d);\n  k<2><<<blocks<int, 4>(), 32>>>(d);\n"
           "  k<3><<<a < b ? 1 : 2, (a > b) ? 3 : 4>>>(d);\n}\n")
    out = tr(src, path="c.cu", hip_kernel_execution_syntax=True)
    assert "hipLaunchKernelGGL(HIP_KERNEL_NAME(k<1>), dim3(1), dim3(Mx<32, 64>::v), 0, 0, d);" in out
    assert "hipLaunchKernelGGL(HIP_KERNEL_NAME(k<2>), dim3(blocks<int, 4>()), dim3(32), 0, 0, d);" in out
    assert "dim3(a < b ? 1 : 2), dim3((a > b) ? 3 : 4), 0, 0, d);" in out
    # a kernel named through a class template, a shared-memory size or a stream with a comma
    src = ("template <class T, int N> struct Tile { static constexpr size_t bytes = sizeof(T) * N; };\n"
           "template <class A, class B> struct Holder { static constexpr auto kern = k<A, 4>; };\n"
           "void go(float* p, cudaStream_t s) {\n  Holder<float, int>::kern<<<1, 32, 0, s>>>(p);\n"
           "  k<<<1, 32, Tile<float, 32>::bytes>>>(p);\n  k<<<1, 32, 0, Pool<float, int>::get()>>>(p);\n}\n")
    out = tr(src, hip_kernel_execution_syntax=True)
    assert "hipLaunchKernelGGL(HIP_KERNEL_NAME(Holder<float, int>::kern), dim3(1), dim3(32), 0, s, p);" in out
    assert "hipLaunchKernelGGL(k, dim3(1), dim3(32), (Tile<float, 32>::bytes), 0, p);" in out
    assert "hipLaunchKernelGGL(k, dim3(1), dim3(32), 0, (Pool<float, int>::get()), p);" in out



def test_statement_launches_after_members_attributes_and_if_constexpr_are_rewritten():
    src = ("struct Runner {\n  void (*kern)(float*);\n  void go(float* p) {\n    this->kern<<<1, 32>>>(p);\n"
           "    (*this).kern<<<1, 32>>>(p);\n  }\n};\ntemplate <int N> void run(float* p) {\n"
           "  if constexpr (N > 2) k<N><<<1, 32>>>(p);\n  if (N > 0) [[likely]] k<N><<<1, 32>>>(p);\n}\n")
    res = translate_source(src, path="s.cu", options=Options(hip_kernel_execution_syntax=True))
    assert "hipLaunchKernelGGL(this->kern, dim3(1), dim3(32), 0, 0, p);" in res.text
    assert "hipLaunchKernelGGL((*this).kern, dim3(1), dim3(32), 0, 0, p);" in res.text
    assert "if constexpr (N > 2) hipLaunchKernelGGL(HIP_KERNEL_NAME(k<N>)" in res.text
    assert "[[likely]] hipLaunchKernelGGL(HIP_KERNEL_NAME(k<N>)" in res.text
    assert not [d for d in res.diagnostics if d.code == "HP018"]


def test_driver_twins_of_merged_types_are_one_hip_type_each():
    """The overload pass leaves out a driver overload only where HIP really has one type for both."""
    from hipport.cxx.passes.merged_type_overloads import DRIVER_TWINS
    from hipport.rules import default_rules

    by_name = default_rules().by_name
    for driver, runtime in DRIVER_TWINS.items():
        assert by_name[driver.decode()].hip == by_name[runtime.decode()].hip, driver


def test_overloads_on_more_merged_types_keep_the_runtime_one(hipcc, tmp_path):
    src = ("#include <cuda.h>\n#include <cuda_runtime.h>\n"
           "static const char* name(cudaMemoryType t) { return t == cudaMemoryTypeDevice ? \"device\" : \"other\"; }\n"
           "static const char* name(CUmemorytype t) { return t == CU_MEMORYTYPE_DEVICE ? \"device\" : \"other\"; }\n"
           "static size_t bytes(cudaArray_t a) { return a ? 1 : 0; }\nstatic size_t bytes(CUarray a) { return a ? 2 : 0; }\n"
           "int use() { return (int)(name(cudaMemoryTypeHost)[0] + bytes((cudaArray_t)0)); }\n")
    result = _ported(src, "m.cu", hipcc, tmp_path)
    assert [d.code for d in result.diagnostics if d.code == "HP021"] == ["HP021", "HP021"]


def test_a_line_comment_continued_by_a_backslash_keeps_the_runtime_include_out():
    """`// C:\\include\\` on line 1 continues onto line 2 (the compiler's view): the include goes after
    both, not into the comment, and translating again changes nothing."""
    src = ("// headers used on Windows: C:\\include\\\n#include <not_really_included.h>\n"
           "__global__ void k(int* d) { d[0] = 1; }\nvoid run(int* d) { k<<<1, 1>>>(d); cudaDeviceSynchronize(); }\n")
    out = translate_source(src, path="c.cu").text
    assert out.startswith("// headers used on Windows: C:\\include\\\n#include <not_really_included.h>\n"
                          "#include <hip/hip_runtime.h>\n")
    assert translate_source(out, path="c.cu").text == out


def test_ptx_under_the_projects_own_rocm_guard_is_not_reported():
    """vLLM's `#ifndef USE_ROCM / <PTX> / #else / <AMDGCN asm> / #endif`: each build sees its own."""
    src = ("inline __device__ unsigned short f2h(float f) {\n  unsigned short h;\n#ifndef USE_ROCM\n"
           "  asm volatile(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f));\n#else\n"
           "  asm volatile(\"v_cvt_f16_f32 %0, %1;\" : \"=v\"(h) : \"v\"(f));\n#endif\n  return h;\n}\n"
           "__device__ void red(unsigned* p, unsigned v) { asm volatile(\"red.global.add.u32 [%0], %1;\" :: \"l\"(p), \"r\"(v)); }\n")
    diags = translate_source(src, path="g.cu").diagnostics
    assert [(d.code, d.line) for d in diags if d.code == "HP013"] == [("HP013", 10)]


def test_free_function_prototypes_get_their_definitions_execution_space(hipcc, tmp_path):
    """`static int idx(int, int);` then `__host__ __device__ static int idx(int a, int b) {…}`: nvcc
    takes the definition's space (warning #20040), clang rejects the pair."""
    src = ("static int idx(int, int);\nfloat scale(float x);\nint host_only(int);\n"
           "__host__ __device__ static int idx(int a, int b) { return a * b; }\n"
           "__host__ __device__ float scale(float x) { return 2.f * x; }\nint host_only(int v) { return v; }\n"
           "__global__ void k(float* o) { o[0] = scale((float)idx(1, 2)); }\n"
           "int main() { return idx(1, 2) + (int)scale(1.f) + host_only(0); }\n")
    out = _ported(src, "p.cu", hipcc, tmp_path).text
    assert "__host__ __device__ static int idx(int, int);\n__host__ __device__ float scale(float x);\nint host_only(int);\n" in out
    assert translate_source(out, path="p.cu").text == out


def test_cuda_arch_truth_tests_become_hip_device_compile():
    """`#if __CUDA_ARCH__` / `#if !__CUDA_ARCH__`: the device/host split as a value test; a
    comparison with an architecture number stays (and is reported)."""
    src = ("#if __CUDA_ARCH__\nint d;\n#else\nint h;\n#endif\n#if !__CUDA_ARCH__ && X\nint h2;\n#endif\n"
           "#if __CUDA_ARCH__ >= 700\nint v;\n#endif\n")
    out = tr(src, path="a.cu")
    assert out.startswith("#if __HIP_DEVICE_COMPILE__\nint d;\n#else\nint h;\n#endif\n#if !__HIP_DEVICE_COMPILE__ && X\n")
    assert "#if __CUDA_ARCH__ >= 700\n" in out


def test_device_printf_spellings_hip_52_compiles(hipcc, tmp_path):
    """`std::printf` in a kernel names HIP 5.2's host printf; a variadic logging macro is printf
    for the built-in indices it is handed."""
    src = ("#include <cstdio>\n#define DPRINT(fmt, ...) printf(\"[dev] \" fmt, __VA_ARGS__)\n"
           "#define PR(v) printf(\"%u\\n\", v)\n"
           "__global__ void k(const float* p) {\n  std::printf(\"thread %u value %f\\n\", threadIdx.x, p[threadIdx.x]);\n"
           "  DPRINT(\"block %u thread %u\\n\", blockIdx.x, threadIdx.x);\n  PR(threadIdx.y);\n}\n"
           "int main() { std::printf(\"host\\n\"); return 0; }\n")
    out = _ported(src, "pr.cu", hipcc, tmp_path).text
    assert '  printf("thread %u value %f\\n", (unsigned int)threadIdx.x, p[threadIdx.x]);' in out
    assert 'DPRINT("block %u thread %u\\n", (unsigned int)blockIdx.x, (unsigned int)threadIdx.x);' in out
    assert "PR((unsigned int)threadIdx.y);" in out


def test_zero_lists_of_template_typed_variables_value_initialize(hipcc, tmp_path):
    """`T v = {0};` instantiated with float4: HIP's explicit one-value constructor refuses it."""
    src = ("template <typename T> __device__ T load_or_zero(const T* p, bool ok) {\n  T v = {0};\n  if (ok) v = *p;\n"
           "  return v;\n}\n__global__ void k(const float4* in, float4* out, const int* i, int* o) {\n"
           "  out[0] = load_or_zero(in, threadIdx.x < 4); o[0] = load_or_zero(i, true); int z = {0}; o[1] = z;\n}\n")
    out = _ported(src, "z.cu", hipcc, tmp_path).text
    assert "  T v = {};\n" in out and "int z = {0};" in out


def test_atomics_in_a_namespace_and_members_declared_on_one_line_compile(hipcc, tmp_path):
    """`util::atomicMax(float*, float)` is no clash with HIP's global one (its callers name it);
    `struct Vec { float x, y; float norm2() const; };` gets the space on the member function."""
    src = ("namespace util {\n__device__ __forceinline__ float atomicMax(float* addr, float val) {\n"
           "  int* ai = (int*)addr; int old = *ai, as;\n"
           "  do { as = old; old = atomicCAS(ai, as, __float_as_int(fmaxf(val, __int_as_float(as)))); } while (as != old);\n"
           "  return __int_as_float(old);\n}\n}  // namespace util\n"
           "struct Vec { float x, y; float norm2() const; };\n__device__ float Vec::norm2() const { return x * x + y * y; }\n"
           "__global__ void k(float* f) { util::atomicMax(f, 1.f); Vec a{1, 2}; f[1] = a.norm2(); }\n")
    result = _ported(src, "ns.cu", hipcc, tmp_path)
    assert "HIP_PLATFORM_AMD" not in result.text and "struct Vec { float x, y; __device__ float norm2() const; };" in result.text


def test_dim3_lists_in_arrays_and_returns_are_constructor_calls(hipcc, tmp_path):
    """`return {(n + b - 1) / b, 1};` from a dim3 function and `dim3 cfg[2] = {{n / 2, 1}, {b, 1}};`
    narrow an int in braces, which clang rejects; `dim3(…)` is the same constructor."""
    src = ("dim3 gridFor(int n, int b) { return {(n + b - 1) / b, 1}; }\n__global__ void k(int* p) { p[0] = 1; }\n"
           "void run(int* p, int n, int b) {\n  dim3 cfg[2] = {{n / 2, 1}, {b, 1}};\n"
           "  k<<<gridFor(n, b), b>>>(p); k<<<cfg[0], cfg[1]>>>(p);\n}\nint f() { return {1}; }\n")
    out = _ported(src, "d3.cu", hipcc, tmp_path).text
    assert "{ return dim3((n + b - 1) / b, 1); }" in out and "dim3 cfg[2] = {dim3(n / 2, 1), dim3(b, 1)};" in out
    assert "int f() { return {1}; }" in out


def test_auto_from_a_builtin_index_macro_gets_cuda_type():
    src = "#define TID threadIdx.x\n__global__ void k(unsigned* o) { auto t = TID; t += 1; o[0] = t; }\n"
    out = tr(src, path="t.cu")
    assert "auto t = (unsigned int)TID;" in out and tr(out, path="t.cu") == out


def test_operators_and_enum_twins_hip_merges_keep_the_runtime_overload(hipcc, tmp_path):
    src = ("#include <cuda.h>\n#include <cuda_runtime.h>\n#include <iostream>\n"
           "std::ostream& operator<<(std::ostream& os, cudaError_t e) { return os << cudaGetErrorName(e); }\n"
           "std::ostream& operator<<(std::ostream& os, CUresult e) { const char* s = \"\"; cuGetErrorName(e, &s); return os << s; }\n"
           "const char* str(cudaDeviceAttr a) { return a == cudaDevAttrWarpSize ? \"warp\" : \"?\"; }\n"
           "const char* str(CUdevice_attribute a) { return a == CU_DEVICE_ATTRIBUTE_WARP_SIZE ? \"warp\" : \"?\"; }\n"
           "int main() { std::cout << cudaSuccess << str(cudaDevAttrWarpSize) << std::endl; }\n")
    result = _ported(src, "op.cu", hipcc, tmp_path)
    assert [d.code for d in result.diagnostics if d.code == "HP021"] == ["HP021", "HP021"]


def test_scalar_half_intrinsics_in_host_code_compile_and_compute(hipcc, tmp_path):
    """CUDA 12 declares __hadd, __hmax, __hlt, … __host__ __device__; HIP 5.2 for the device only."""
    from tests.conftest import build_and_run_host

    src = ("#include <cuda_fp16.h>\n#include <cstdio>\n"
           "__global__ void k(__half* o, __half a, __half b) { o[0] = __hadd(a, b); o[1] = __hmax(a, b); }\n"
           "int main() {\n  __half a = 1.5f, b = 2.f;\n"
           "  __half s = __hadd(a, b), m = __hmax(a, b), n = __hneg(a), f = __hfma(a, b, a);\n"
           "  bool lt = __hlt(a, b), nan = __hisnan(a);\n"
           "  printf(\"%g %g %g %g %d %d\\n\", __half2float(s), __half2float(m), __half2float(n), __half2float(f), lt, nan);\n"
           "  return 0;\n}\n")
    out = translate_source(src, path="hh.cu").text
    assert "#include <hipport/compat.h>" in out
    assert build_and_run_host(hipcc, out, tmp_path, "hh", extra=["-std=c++17"]).split() == \
        ["3.5", "2", "-1.5", "4.5", "1", "0"]


def test_out_of_line_constructors_overloads_and_operators_get_their_execution_space(hipcc, tmp_path):
    """The declaration an out-of-line `__host__ __device__` definition belongs to, among overloads
    (paired by parameter types) and operators, on one line or several."""
    src = ("struct Vec { float x, y; Vec(); Vec(float a, float b); Vec operator+(const Vec& o) const; };\n"
           "__host__ __device__ Vec::Vec() : x(0), y(0) {}\n__host__ __device__ Vec::Vec(float a, float b) : x(a), y(b) {}\n"
           "__host__ __device__ Vec Vec::operator+(const Vec& o) const { return Vec(x + o.x, y + o.y); }\n"
           "struct W {\n  W() = default;\n  W(int n);\n  int n = 0;\n};\n__device__ W::W(int v) : n(v) {}\n"
           "__global__ void k(float* o) { Vec a(1, 2), b; o[0] = (a + b).x; W w(3); o[1] = w.n; }\n")
    out = _ported(src, "v.cu", hipcc, tmp_path).text
    assert ("struct Vec { float x, y; __host__ __device__ Vec(); __host__ __device__ Vec(float a, float b); "
            "__host__ __device__ Vec operator+(const Vec& o) const; };") in out
    assert "  W() = default;\n  __device__ W(int n);\n" in out and translate_source(out, path="v.cu").text == out


def test_braced_lists_of_run_time_values_compile_as_nvcc_compiles_them(hipcc, tmp_path):
    """nvcc only warns about narrowing in a braced list (#2361-D); clang rejects it.  From
    yechuan51/huffman: `Barrier barrier{count, gridDim.x}`, `int n{blockIdx.x}`, and a dim3 list."""
    src = ("#include <cuda_runtime.h>\n"
           "struct Barrier {\n    __device__ Barrier(int* count, int n) : _count{count}, _n{n} {}\n"
           "    int* _count;\n    int _n;\n};\nstruct Pair { int a; int b; };\n"
           "__global__ void k(int* count, int* out) {\n    Barrier barrier{count, gridDim.x};\n"
           "    Pair p{threadIdx.x, blockDim.x};\n    int n{blockIdx.x};\n    out[0] = barrier._n + p.a + p.b + n;\n}\n"
           "int main() { int n = 1000; dim3 grid = {(n + 255) / 256, 1}; k<<<grid, 1>>>(nullptr, nullptr); return 0; }\n")
    out = _ported(src, "barrier.cu", hipcc, tmp_path).text
    assert out.startswith("#include <hip/hip_runtime.h>\n"
                          "#pragma clang diagnostic ignored \"-Wc++11-narrowing\"\nstruct Barrier {")
    # an include guard stays one: the pragma is no conditional between its #ifndef and #define
    guarded = "#ifndef K_CU_\n#define K_CU_\nvoid f(int n) { dim3 g = {n, 1}; cudaDeviceSynchronize(); }\n#endif\n"
    once = translate_source(guarded, path="k.cu").text
    assert translate_source(once, path="k.cu").text == once
    # a designator is no run-time value (`{.x = 0x7C00}` written by the __half_raw fix)
    assert "narrowing" not in tr("__half_raw h = {.x = 0x7C00};\n", path="h.cu")
    assert tr(out, path="barrier.cu") == out


def test_lists_that_cannot_narrow_and_blocks_get_no_narrowing_pragma():
    for src in ("#include <cuda_runtime.h>\nint a[] = {0, 1u, 2.5f, 0x1F, sizeof(int)};\nfloat4 v = {1.f, 2.f, 3.f, 4.f};\n",
                "#include <cuda_runtime.h>\nenum E { A = B, C };\nstruct S : public Base { int x{0}; };\n"
                "void f(int n) { if (n) { g(n) } else { h(n); } }\n",
                "#include <cuda_runtime.h>\n#define INIT { n }\n// int x{n};\nconst char* s = \"{n}\";\n"):
        assert "narrowing" not in tr(src, path="a.cu"), src
    assert "narrowing" not in tr("int n; unsigned u[] = {n};\n", path="a.c")
    assert tr("int n; unsigned u[] = {n};\n", path="host.cpp") == "int n; unsigned u[] = {n};\n"


def test_a_cuda_free_project_header_with_narrowing_lists_gets_the_pragma_in_its_includer(hipcc, tmp_path):
    """(set BC) hipcc compiles the header as part of the .cu; the header has no CUDA of its own."""
    (tmp_path / "plain.h").write_text("#pragma once\nstruct Range { int lo; int hi; };\n"
                                      "inline Range make_range(long a, long b) { return {a, b}; }\n")
    cu = tmp_path / "main.cu"
    cu.write_text('#include "plain.h"\n__global__ void k(int* o) { o[0] = 1; }\n'
                  "int main(int argc, char**) { k<<<1, 1>>>(nullptr); return make_range(argc, 2).hi; }\n")
    out = translate_source(cu.read_bytes(), path=str(cu)).text.decode()
    assert out.index("c++11-narrowing") < out.index('#include "plain.h"')
    _compiles(hipcc, out, tmp_path, f"-I{tmp_path}")


def test_driver_api_host_forms_that_hip_5_2_types_differently(hipcc, tmp_path):
    """From real driver-API code: a const host source to cuMemcpyHtoD(Async) (HIP 5.2 takes
    `void*`), the memory-resize flag (HIP 5.2's value overlaps the scheduling bits), a forward
    declaration of `struct cudaGraphicsResource`, and a device pointer handed on as an integer."""
    src = ("#include <cuda.h>\n#include <cuda_runtime.h>\n#include <cstdint>\nstruct cudaGraphicsResource;\n"
           "struct Map { cudaGraphicsResource* res = nullptr; };\n"
           "static_assert((cudaDeviceLmemResizeToMax & cudaDeviceScheduleMask) == 0, \"flag\");\n"
           "static_assert((CU_CTX_LMEM_RESIZE_TO_MAX & CU_CTX_SCHED_MASK) == 0, \"flag\");\n"
           "CUresult upload(CUdeviceptr d, const double* host, size_t n, CUstream s) {\n"
           "  CUresult rc = cuMemcpyHtoD(d, host, n * sizeof(double));\n"
           "  if (rc != CUDA_SUCCESS) return rc;\n  static const char msg[] = \"hi\";\n"
           "  return cuMemcpyHtoDAsync(d, msg, sizeof msg, s);\n}\n"
           "uint64_t handle(CUdeviceptr d) { return static_cast<uint64_t>(d); }\n"
           "unsigned long long as_handle(CUdeviceptr p) { unsigned long long h = p; return h; }\n")
    result = _ported(src, "drv.cpp", hipcc, tmp_path)
    out = result.text
    assert "#include <hipport/compat.h>" in out
    assert "typedef struct _hipGraphicsResource hipGraphicsResource;\nstruct Map { hipGraphicsResource* res" in out
    assert "return ((uint64_t)(d));" in out and "unsigned long long h = (unsigned long long)p;" in out
    assert tr(out, path="drv.cpp") == out
    aligned = translate_source("#include <cuda.h>\nbool ok(CUdeviceptr p) { return (p % 256) == 0 && !(p & 3); }\n",
                               path="a.cpp")
    assert [d.code for d in aligned.diagnostics] == ["HP023", "HP023"]


def test_device_attributes_of_one_dimension_each_that_hip_merges_are_reported():
    """deviceQueryDrv: `..._LAYERED_WIDTH` and `..._LAYERED_HEIGHT` both become HIP's one
    hipDeviceAttributeMaxTexture2DLayered, so the two queries ask the same question."""
    result = translate_source("int w, h, n;\ncuDeviceGetAttribute(&w, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH, d);\n"
                              "cudaDeviceGetAttribute(&h, cudaDevAttrMaxSurface3DDepth, 0);\n"
                              "cudaDeviceGetAttribute(&n, cudaDevAttrMaxTexture2DLayeredLayers, 0);\n", path="q.cpp")
    assert [(d.line, d.code) for d in result.diagnostics if d.code == "HP031"] == [(2, "HP031"), (3, "HP031")]
    assert "hipDeviceAttributeMaxTexture2DLayered, d)" in result.text


def test_out_of_line_conversion_operators_and_members_of_a_class_in_a_local_header(hipcc, tmp_path):
    """(set BC) `F::operator float() const { … }` of a `__device__ operator float() const;`, after
    a definition with a trailing comment; and a class declared in the .cu's own header."""
    src = ("struct Fixed16 {\n    __device__ explicit operator bool() const;\n    __device__ operator float() const;\n"
           "    __device__ int get() const;\n    int raw = 0;\n};\n"
           "int Fixed16::get() const { return raw; }  // the raw bits\n"
           "Fixed16::operator bool() const { return raw != 0; }\nFixed16::operator float() const { return raw / 65536.0f; }\n"
           "__global__ void k(const int* in, float* out) { Fixed16 a; a.raw = in[0]; out[0] = (bool)a ? (float)a + a.get() : 0.f; }\n")
    out = _ported(src, "fixed.cu", hipcc, tmp_path).text
    assert "__device__ int Fixed16::get() const { return raw; }  // the raw bits\n" in out
    assert "__device__ Fixed16::operator bool() const" in out and "__device__ Fixed16::operator float() const" in out
    (tmp_path / "particle.cuh").write_text("#pragma once\nstruct Particle {\n    __host__ __device__ Particle(float x);\n"
                                           "    __device__ float energy() const;\n    float x;\n};\n")
    cu = tmp_path / "particle.cu"
    cu.write_text('#include "particle.cuh"\nParticle::Particle(float x_) : x(x_) {}\n'
                  "float Particle::energy() const { return 0.5f * x * x; }\n"
                  "__global__ void k(float* o) { Particle p(o[0]); o[0] = p.energy(); }\n")
    out = translate_source(cu.read_bytes(), path=str(cu)).text.decode()
    assert "__host__ __device__ Particle::Particle(float x_)" in out and "__device__ float Particle::energy() const" in out
    (tmp_path / "particle.cuh").write_text(translate_source((tmp_path / "particle.cuh").read_bytes(),
                                                            path=str(tmp_path / "particle.cuh")).text.decode())
    _compiles(hipcc, out, tmp_path, f"-I{tmp_path}")


def test_a_pragma_once_quoted_in_the_leading_comment_is_no_place_for_the_include():
    """(set BF) `/* Put this in a header:\\n#pragma once\\n*/`: the include went inside the comment."""
    src = "/* Put this in a header:\n#pragma once\n*/\nvoid f(int* d) { cudaMalloc(&d, 4); }\n"
    out = tr(src, path="a.cu")
    assert out == "/* Put this in a header:\n#pragma once\n*/\n#include <hip/hip_runtime.h>\nvoid f(int* d) { hipMalloc(&d, 4); }\n"
    assert tr(out, path="a.cu") == out


def test_out_of_line_members_named_through_namespaces_and_nested_classes(hipcc, tmp_path):
    """(set BF) `ns::B::f`, `Outer::Inner::g`, and `C::f` of a C whose nested class has an `f` too."""
    src = ("namespace ns {\nstruct B {\n  void f();\n};\n}\nclass Outer {\n public:\n  class Inner {\n   public:\n"
           "    float g(float) const;\n  };\n};\nstruct C {\n  void f();\n  struct In { void f(); };\n};\n"
           "__device__ void ns::B::f() {}\n__host__ __device__ float Outer::Inner::g(float x) const { return x; }\n"
           "__device__ void C::f() {}\nvoid C::In::f() {}\n"
           "__global__ void k(ns::B* b, float* o, C* c) { b->f(); Outer::Inner i; o[0] = i.g(1.f); c->f(); }\n")
    out = _ported(src, "nested.cu", hipcc, tmp_path).text
    assert "struct B {\n  __device__ void f();" in out and "    __host__ __device__ float g(float) const;" in out
    assert "struct C {\n  __device__ void f();\n  struct In { void f(); };" in out


def test_a_cpu_builds_stand_ins_for_cuda_names_are_renamed_with_their_uses(hipcc, tmp_path):
    """(set BF) `#ifdef CPU_ONLY / struct cudaDeviceProp {…}; / #else / #include <cuda_runtime.h>`:
    the uses mean CUDA's type in the GPU build; renaming the stand-ins too keeps both builds whole."""
    src = ("#include <cstdio>\n#ifdef CPU_ONLY\nstruct cudaDeviceProp { char name[256]; int major; };\n"
           "inline int cudaGetDeviceProperties(cudaDeviceProp* p, int) { p->major = 0; return 0; }\n"
           "#else\n#include <cuda_runtime.h>\n#endif\n"
           "int main() {\n  cudaDeviceProp prop;\n  cudaGetDeviceProperties(&prop, 0);\n  printf(\"%d\\n\", prop.major);\n}\n")
    out = _ported(src, "props.cu", hipcc, tmp_path).text
    assert "struct hipDeviceProp_t { char name[256]; int major; };" in out
    assert "  hipDeviceProp_t prop;\n  hipGetDeviceProperties(&prop, 0);" in out
    own = tr("struct cudaDeviceProp { int major; };\nint f() { cudaDeviceProp p; return p.major; }\n", path="o.cpp")
    assert own.count("cudaDeviceProp") == 2  # a type the file defines outright stays its own
    # the project's own HIP-side shims (`#if defined(__HIPCC__)`) are its own, not stand-ins
    hybrid = tr("#if defined(__HIPCC__)\n#include <hip/hip_runtime.h>\n"
                "static constexpr auto cudaMemcpyHostToDevice = hipMemcpyHostToDevice;\n#else\n#include <cuda_runtime.h>\n#endif\n"
                "namespace opts { constexpr auto cudaMemcpyDefault = 4; }\nint g() { return opts::cudaMemcpyDefault; }\n",
                path="h.cpp")
    assert "static constexpr auto cudaMemcpyHostToDevice = hipMemcpyHostToDevice;" in hybrid
    assert "constexpr auto cudaMemcpyDefault = 4;" in hybrid


def test_calls_after_statement_macros_and_alternative_tokens_are_renamed():
    """(set BF) `DISCARD cudaFree(p);` with `#define DISCARD (void)` is a call, not a declaration
    of a `cudaFree` of type DISCARD; nor is `x = compl cudaGetLastError();`."""
    src = ("#define DISCARD (void)\n#define KEEP [[maybe_unused]] auto r_ =\n#define RET return\n#define REAL float\n"
           "int f(void* p) {\n  DISCARD cudaFree(p);\n  KEEP cudaDeviceSynchronize();\n"
           "  int e = compl cudaGetLastError();\n  RET e bitor cudaPeekAtLastError();\n}\nREAL cudaFoo(int);\n")
    out = tr(src, path="m.cpp")
    assert "DISCARD hipFree(p);" in out and "KEEP hipDeviceSynchronize();" in out
    assert "compl hipGetLastError()" in out and "bitor hipPeekAtLastError()" in out


def test_an_either_or_cuda_include_gets_no_unconditional_hip_include(tmp_path):
    """`#ifdef CPU_ONLY / stand-ins / #else / #include <cuda_runtime.h> / #endif` in a .cpp or a
    header: both builds have their names; a HIP include above would break the CPU one."""
    src = ("#ifndef UTIL_H\n#define UTIL_H\n#ifdef CPU_ONLY\nstruct cudaDeviceProp { int major; };\n#else\n"
           "#include <cuda_runtime.h>\n#endif\ninline int major_of(const cudaDeviceProp& p) { return p.major; }\n#endif\n")
    out = translate_source(src, path="util.h").text
    assert out == src.replace("cudaDeviceProp", "hipDeviceProp_t").replace("cuda_runtime.h", "hip/hip_runtime.h")
    plain = translate_source("#ifdef USE_CUDA\n#include <cuda_runtime.h>\n#endif\nvoid f() { cudaDeviceSynchronize(); }\n",
                             path="f.cpp").text
    assert plain.startswith("#include <hip/hip_runtime.h>\n")  # no other branch: the use needs HIP everywhere


def test_prototypes_of_the_runtime_api_itself_are_renamed_with_their_calls(hipcc, tmp_path):
    """(set BF) `extern "C" cudaError_t cudaMalloc(void**, size_t);` redeclares CUDA's function:
    kept, it left the calls on a cudaMalloc nothing defines.  A definition stays the project's own."""
    src = ("#include <cuda_runtime_api.h>\nextern \"C\" cudaError_t cudaMalloc(void** devPtr, size_t size);\n"
           "extern __host__ cudaError_t CUDARTAPI cudaFree(void* devPtr);\n"
           "int main() { void* p = nullptr; cudaMalloc(&p, 64); cudaFree(p); return 0; }\n")
    out = _ported(src, "redecl.cpp", hipcc, tmp_path).text
    assert 'extern "C" hipError_t hipMalloc(void** devPtr, size_t size);' in out and "hipMalloc(&p, 64); hipFree(p);" in out
    mock = "cudaError_t cudaMalloc(void** p, size_t n) { *p = 0; return cudaSuccess; }\nint f() { void* q; return cudaMalloc(&q, 4); }\n"
    assert tr(mock).count("cudaMalloc") == 2


def test_uses_of_names_pasted_from_a_renamed_argument_are_reported():
    """(set BF) `X(cudaFree)` through `#define DECL(name) … p_##name`: the argument is renamed,
    so the macro builds p_hipFree while the code calls p_cudaFree."""
    src = ("#define RT_APIS(X) X(cudaFree)\n#define DECL_PTR(name) static decltype(&name) p_##name = &name;\n"
           "RT_APIS(DECL_PTR)\nint main() { p_cudaFree(nullptr); int my_cudaThing = 0; return my_cudaThing; }\n")
    result = translate_source(src, path="x.cpp")
    assert [(d.line, d.code) for d in result.diagnostics if d.code == "HP020"] == [(4, "HP020")]
    assert "X(hipFree)" in result.text



def test_arguments_a_macro_only_pastes_keep_their_spelling(hipcc, tmp_path):
    """(set CB) a run-time driver loader's `#define LOAD(n) (p_##n = dlsym(h, #n))`: `LOAD(cuInit)`
    builds `p_cuInit`, which the code declares and calls; as for hipify-clang, which sees only the
    expansion, the argument stays, and nothing is reported as pasted from a renamed name."""
    src = ("#include <cuda.h>\n#include <dlfcn.h>\nstatic CUresult (*p_cuInit)(unsigned);\n"
           "#define LOAD(n) (*(void**)&p_##n = dlsym(h, #n))\n#define CALL(n) n(0)\n"
           "void f(void* h) { LOAD(cuInit); p_cuInit(0); CALL(cuInit); }\n")
    result = translate_source(src, path="loader.cpp")
    assert "LOAD(cuInit); p_cuInit(0); CALL(hipInit);" in result.text
    assert "static hipError_t (*p_cuInit)(unsigned);" in result.text
    assert not [d for d in result.diagnostics if d.code == "HP020"]
    assert translate_source(result.text, path="loader.cpp").text == result.text
    _compiles(hipcc, result.text, tmp_path)


def test_poisoned_names_dollar_and_utf8_identifiers_and_pasted_prefixes(hipcc, tmp_path):
    """(set CC) `#pragma GCC poison cudaThreadSynchronize` stays (renamed, it would poison the HIP
    name the code now calls); `$cudaFree`, `écudaFree`, `cudaMallocé` are the user's own names;
    a type name pasted into a longer one (`cudaError##x`) takes the HIP prefix, not the type."""
    src = ("#include <cuda_runtime.h>\n#pragma GCC poison cudaThreadSynchronize\n"
           "int $cudaFree = 1, \u00e9cudaFree = 2, cudaMalloc\u00e9 = 3;\n"
           "#define ERRCODE(x) cudaError##x\n#define CACHE(k, s) cudaFuncSetCacheConfig(k, cudaFuncCache##s)\n"
           "#define SHMEM(x) cudaSharedMem##x\nvoid banks() { cudaDeviceSetSharedMemConfig(SHMEM(BankSizeFourByte)); }\n"
           "__global__ void kk() {}\n"
           "int main() { cudaThreadSynchronize(); CACHE(kk, PreferL1); return ERRCODE(InvalidValue); }\n")
    out = translate_source(src, path="p.cu").text
    assert "#pragma GCC poison cudaThreadSynchronize\n" in out and "{ hipDeviceSynchronize();" in out
    assert "int $cudaFree = 1, \u00e9cudaFree = 2, cudaMalloc\u00e9 = 3;" in out
    assert "#define ERRCODE(x) hipError##x\n" in out and ", hipFuncCache##s)" in out
    assert "#define SHMEM(x) hipSharedMem##x\n" in out
    assert translate_source(out, path="p.cu").text == out
    _compiles(hipcc, out, tmp_path)


def test_roc_overloads_on_cublas_and_cusolver_status_are_merged_like_driver_twins():
    """(set BF) with --roc both statuses become rocblas_status: two definitions of one function."""
    src = ("inline void check(cublasStatus_t s) { (void)s; }\ninline void check(cusolverStatus_t s) { (void)s; }\n"
           "int main() { cublasHandle_t h; check(cublasCreate(&h)); cusolverDnHandle_t sh; check(cusolverDnCreate(&sh)); }\n")
    out = translate_source(src, path="r.cpp", options=Options(roc=True))
    assert "#if 0  // hipport" in out.text and out.text.count("inline void check(rocblas_status s)") == 2
    assert [d.code for d in out.diagnostics if d.code == "HP021"] == ["HP021"]
    assert "#if 0" not in tr(src, path="r.cpp")  # hipBLAS and hipSOLVER keep two status types


def test_a_warp_size_constant_named_otherwise_but_commented_as_one_is_reported():
    """(set BH) ECL-GC's `static const int WS = 32;  // warp size and bits per int`."""
    src = ("#define WARP_SIZE 32 // warp width\nstatic const int WS = 32;  // warp size and bits per int\n"
           "const int BLOCK = 32; // threads per block\n__global__ void k(int* o) { o[threadIdx.x % WS] = WARP_SIZE; }\n")
    hp010 = [(d.line, d.message.split("'")[1]) for d in translate_source(src, path="ws.cu").diagnostics
             if d.code == "HP010" and "constant" in d.message]
    assert hp010 == [(1, "WARP_SIZE"), (2, "WS")]


def test_lane_masks_assigned_or_returned_in_32_bits_are_reported():
    """(set AY) a later assignment, a struct field, and a wrapper returning unsigned int."""
    src = ("__device__ unsigned int warp_ballot(int p) { return __ballot_sync(0xffffffff, p); }\n"
           "struct Votes { unsigned int mask; };\n"
           "__global__ void k(const float* x, int* out) {\n  float v = x[threadIdx.x];\n"
           "  unsigned int m; m = __ballot_sync(0xffffffff, v > 1.f);\n  Votes vt; vt.mask = __ballot_sync(0xffffffff, v > 2.f);\n"
           "  unsigned long long wide; wide = __activemask();\n  out[0] = m + vt.mask + warp_ballot(v > 3.f) + (int)wide;\n}\n")
    lines = [d.line for d in translate_source(src, path="b.cu").diagnostics if d.code == "HP011"]
    assert lines == [1, 5, 6]


def test_curand_states_made_in_host_code_are_reported():
    """(set AU) checkpoint copies of device RNG states: plain structs in CUDA, device-only in hipRAND."""
    src = ("#include <curand_kernel.h>\n#include <vector>\n"
           "__global__ void init(curandState* s) { curandState local; curand_init(1, threadIdx.x, 0, &local); s[0] = local; }\n"
           "int main() {\n  curandStatePhilox4_32_10_t* save = new curandStatePhilox4_32_10_t[64];\n"
           "  std::vector<curandStateMRG32k3a> mrg(64);\n  curandStateXORWOW x;\n  curandState* d = nullptr;\n"
           "  if (save) { curandStateSobol32 s; (void)s; }\n  return (int)sizeof(x) + (d != nullptr) + (int)mrg.size();\n}\n")
    lines = [d.line for d in translate_source(src, path="r.cu").diagnostics if d.code == "HP032"]
    assert lines == [5, 6, 7, 9]


def test_calls_of_a_project_headers_own_functions_named_like_the_api_are_left_alone(tmp_path):
    """(set AW) `inline cudaError_t cudaFree(MyBuf& b)` and `lib::cudaMalloc(int)` in the project's
    header: the calls that mean them keep the names (the header keeps its definitions); a header
    that only redeclares the API's prototype leaves its calls renamed."""
    (tmp_path / "mybuf.h").write_text("#pragma once\n#include <cuda_runtime.h>\nstruct MyBuf { void* p; };\n"
                                      "inline cudaError_t cudaFree(MyBuf& b) { return cudaFree(b.p); }\n"
                                      "namespace lib { inline int cudaMalloc(int n) { return n; } }\n")
    cu = tmp_path / "use.cu"
    cu.write_text('#include "mybuf.h"\nusing namespace lib;\nint f(MyBuf& b, void* q) {\n  cudaFree(b);\n  cudaFree(q);\n'
                  "  return cudaMalloc(3);\n}\n")
    out = translate_source(cu.read_bytes(), path=str(cu)).text.decode()
    assert "  cudaFree(b);\n" in out and "  return cudaMalloc(3);\n" in out and "  hipFree(q);\n" in out
    (tmp_path / "stub.h").write_text('extern "C" cudaError_t cudaMalloc(void** p, size_t n);\n')
    stub = tmp_path / "a.cpp"
    stub.write_text('#include "stub.h"\nint g() { void* p; return (int)cudaMalloc(&p, 4); }\n')
    assert "hipMalloc(&p, 4)" in translate_source(stub.read_bytes(), path=str(stub)).text.decode()


def test_a_call_whose_arguments_hold_preprocessor_lines_keeps_them(hipcc, tmp_path):
    """(set BJ, Meta's GraphCaptureSideStream.cu) CUDA 13's edge-data argument under
    `#if CUDART_VERSION >= 13000`: dropping it took the #if along and left the #endif."""
    src = ("#include <vector>\nvoid restore(cudaStream_t stream, std::vector<cudaGraphNode_t>& deps) {\n"
           "  (void)cudaStreamUpdateCaptureDependencies(\n      stream,\n      deps.data(),\n"
           "#if CUDART_VERSION >= 13000\n      nullptr,\n#endif\n      deps.size(),\n      cudaStreamSetCaptureDependencies);\n}\n")
    result = _ported(src, "g.cu", hipcc, tmp_path)
    assert "#if CUDART_VERSION >= 13000\n      nullptr,\n#endif\n" in result.text
    assert any(d.code == "HP007" and "preprocessor" in d.message for d in result.diagnostics)
