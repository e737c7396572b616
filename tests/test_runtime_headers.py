"""The runtime headers: version macros (g++, fast) and real HIP compiles for gfx90a (hipcc).

version.h is plain preprocessor logic, so each configuration is checked by preprocessing a
file of #if/#error lines for the platform macros a HIP compiler would set.  compat.h, warp.h
and the allocator are compiled with Debian's HIP 5.2 exactly as CI does.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from hipport import runtime, translate_source
from tests.conftest import build_and_run_host, require_tool

HERE = Path(__file__).resolve().parent
HIP_VERSION_H = Path("/usr/include/hip/hip_version.h")
INCLUDE = str(runtime.include_dir())


def installed_hip() -> tuple[int, int]:
    if not HIP_VERSION_H.is_file():
        pytest.skip("HIP headers not installed")
    text = HIP_VERSION_H.read_text()
    major = int(re.search(r"#define HIP_VERSION_MAJOR (\d+)", text).group(1))
    minor = int(re.search(r"#define HIP_VERSION_MINOR (\d+)", text).group(1))
    return major, minor


def preprocess(tmp_path: Path, conditions: list[str], *flags: str, lang: str = "c++") -> subprocess.CompletedProcess:
    """Preprocess <hipport/version.h> followed by one `#if !(cond) #error` per condition."""
    gxx = require_tool("g++")
    body = "#include <hipport/version.h>\n" + "".join(
        f"#if !({cond})\n#error failed: {cond}\n#endif\n" for cond in conditions)
    src = tmp_path / ("probe.c" if lang == "c" else "probe.cpp")
    src.write_text(body)
    return subprocess.run([gxx, "-x", lang, "-E", "-I", INCLUDE, *flags, str(src), "-o", os.devnull],
                          capture_output=True, text=True, timeout=60)


def assert_ok(proc: subprocess.CompletedProcess) -> None:
    assert proc.returncode == 0, proc.stderr


def test_amd_build_defines_use_rocm_and_rocm_version(tmp_path):
    major, minor = installed_hip()
    version = major * 10000 + minor * 100
    assert_ok(preprocess(tmp_path, [
        "defined(HIPPORT_PLATFORM_AMD) && !defined(HIPPORT_PLATFORM_NVIDIA)",
        "defined(USE_ROCM)",
        f"ROCM_VERSION == {version}",
        f"HIPPORT_ROCM_AT_LEAST({major}, {minor})",
        f"!HIPPORT_ROCM_AT_LEAST({major}, {minor + 1})",
        f"HIPPORT_HIP_AT_LEAST({major}, {minor}) && !HIPPORT_HIP_AT_LEAST({major + 1}, 0)",
    ], "-D__HIP_PLATFORM_AMD__"))


def test_version_header_is_valid_c(tmp_path):
    installed_hip()
    assert_ok(preprocess(tmp_path, ["defined(USE_ROCM)"], "-D__HIP_PLATFORM_AMD__", lang="c"))


def test_a_wrong_expectation_is_reported(tmp_path):
    installed_hip()
    proc = preprocess(tmp_path, ["ROCM_VERSION == 1"], "-D__HIP_PLATFORM_AMD__")
    assert proc.returncode != 0 and "failed: ROCM_VERSION == 1" in proc.stderr


def test_no_use_rocm_opt_out_keeps_rocm_version(tmp_path):
    installed_hip()
    assert_ok(preprocess(tmp_path, ["!defined(USE_ROCM)", "defined(ROCM_VERSION)"],
                         "-D__HIP_PLATFORM_AMD__", "-DHIPPORT_NO_USE_ROCM"))


def test_build_defined_values_win(tmp_path):
    assert_ok(preprocess(tmp_path, [
        "ROCM_VERSION == 60100", "USE_ROCM == 7",
        "HIPPORT_ROCM_AT_LEAST(6, 1)", "!HIPPORT_ROCM_AT_LEAST(6, 2)", "HIPPORT_ROCM_AT_LEAST(5, 7)",
    ], "-D__HIP_PLATFORM_AMD__", "-DROCM_VERSION=60100", "-DUSE_ROCM=7"))


@pytest.mark.parametrize("header", ["rocm-core/rocm_version.h", "rocm_version.h"])
def test_rocm_version_header_is_preferred(tmp_path, header):
    fake = tmp_path / "fake" / header
    fake.parent.mkdir(parents=True)
    fake.write_text("#define ROCM_VERSION_MAJOR 6\n#define ROCM_VERSION_MINOR 3\n#define ROCM_VERSION_PATCH 1\n")
    assert_ok(preprocess(tmp_path, ["ROCM_VERSION == 60301", "HIPPORT_ROCM_AT_LEAST(6, 3)",
                                    "!HIPPORT_ROCM_AT_LEAST(6, 4)"],
                         "-D__HIP_PLATFORM_AMD__", "-I", str(tmp_path / "fake")))


def test_nvidia_build_has_no_rocm_macros(tmp_path):
    assert_ok(preprocess(tmp_path, [
        "defined(HIPPORT_PLATFORM_NVIDIA) && !defined(HIPPORT_PLATFORM_AMD)",
        "!defined(USE_ROCM)", "!defined(ROCM_VERSION)", "!HIPPORT_ROCM_AT_LEAST(0, 0)",
    ], "-D__HIP_PLATFORM_NVIDIA__"))


# ---- real compiles with HIP 5.2 for gfx90a ---------------------------------------------------

def test_compat_kernels_compile_for_gfx90a(hipcc, tmp_path):
    source = (HERE / "runtime" / "compat_kernels.hip").read_bytes()
    # C++17: HIP's [[nodiscard]] on hipError_t applies, so an unchecked call of ours would warn
    proc = hipcc(source, tmp_path, "compat_kernels.hip", extra=["-I", INCLUDE, "-Wall", "-std=c++17"])
    assert proc.returncode == 0, proc.stderr
    assert "compat.h" not in proc.stderr and "warp.h" not in proc.stderr, proc.stderr  # no warnings of ours
    assert (tmp_path / "compat_kernels.hip.o").stat().st_size > 0


WARP_SYNC_KERNEL = """
#include <hip/hip_runtime.h>
{include}
__global__ void k(float* out) {{
  float v = out[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  __syncwarp();
  out[threadIdx.x] = v + __ballot_sync(0xffffffffu, v > 0);
}}
"""


def test_without_compat_the_sync_intrinsics_are_missing(hipcc, tmp_path):
    """Why compat.h exists: the installed HIP lacks these (a HIP >= 6.4 has them natively)."""
    major, minor = installed_hip()
    proc = hipcc(WARP_SYNC_KERNEL.format(include=""), tmp_path, "plain.hip")
    if (major, minor) >= (6, 4):
        assert proc.returncode == 0, proc.stderr
    else:
        assert proc.returncode != 0
        assert "__shfl_down_sync" in proc.stderr and "__syncwarp" in proc.stderr


def test_compat_guard_can_be_overridden(hipcc, tmp_path):
    """HIPPORT_COMPAT_WARP_SYNC=0 removes the shims: proves the guard controls them."""
    major, minor = installed_hip()
    if (major, minor) >= (6, 4):
        pytest.skip("the installed HIP provides the intrinsics itself")
    proc = hipcc(WARP_SYNC_KERNEL.format(include="#include <hipport/compat.h>"), tmp_path, "off.hip",
                 extra=["-I", INCLUDE, "-DHIPPORT_COMPAT_WARP_SYNC=0"])
    assert proc.returncode != 0 and "__shfl_down_sync" in proc.stderr


def test_allocator_compiles_with_hipcc(hipcc, tmp_path):
    source = Path(runtime.sources()[0]).read_bytes()
    proc = hipcc(source, tmp_path, "allocator.cpp", extra=["-I", INCLUDE, "-Wall", "-Wextra", "-Werror"])
    assert proc.returncode == 0, proc.stderr


def test_device_check_program_compiles_with_hipcc(hipcc, tmp_path):
    source = (HERE.parent / "tools" / "device_check" / "device_check.hip").read_bytes()
    proc = hipcc(source, tmp_path, "device_check.hip", extra=["-I", INCLUDE, "-Wall"])
    assert proc.returncode == 0, proc.stderr


def _build_and_run(hipcc, source: str, tmp_path: Path, name: str) -> str:
    """Compile, link and run a host-only HIP program against the shim (no GPU needed); its stdout."""
    return build_and_run_host(hipcc, source, tmp_path, name, extra=["-I", INCLUDE])


HOST_MATH_PROGRAM = r"""
#include <hipport/compat.h>
#include <cstdio>
int main() {
  float s, c; sincospif(1.5f, &s, &c);
  double sd, cd; sincospi(0.25, &sd, &cd);
  std::printf("%.6f %.6f %.6f %.6f %.6f %.6f\n", rsqrtf(4.0f), rsqrt(16.0), rcbrtf(8.0f), normcdff(1.0f), s, c);
  std::printf("%.12f %.12f %.12f %.12f\n", erfinv(0.5), erfinv(0.999999), erfcinv(1e-10), erfcinv(1e-300));
  std::printf("%.12f %.12f %.12f\n", normcdfinv(0.975), erfcx(30.0), sd);
  std::printf("%.6f %.6f %.6f\n", rhypotf(3, 4), norm3df(1, 2, 2), rnorm4d(1, 1, 1, 1));
  return 0;
}
"""


def test_cuda_math_runs_on_the_host_as_cuda_computes_it(hipcc, tmp_path):
    """CUDA's host-and-device math functions that HIP has for device code only; the references are
    scipy.special's values (erfinv, erfcinv, ndtri, erfcx)."""
    lines = _build_and_run(hipcc, HOST_MATH_PROGRAM, tmp_path, "host_math").split("\n")
    assert lines[0] == "0.500000 0.250000 0.500000 0.841345 -1.000000 0.000000"
    assert lines[1] == "0.476936276204 3.458910737275 4.572824967389 26.209469960516"
    assert lines[2] == "1.959963984540 0.018795888861 0.707106781187"
    assert lines[3] == "0.200000 3.000000 0.500000"


SPARSE_STATUS_PROGRAM = """
#include <hipsparse/hipsparse.h>
#include <hipport/compat.h>
#include <cstdio>
int main() {
  std::printf("%s|%s\\n", hipsparseGetErrorName(HIPSPARSE_STATUS_ZERO_PIVOT),
              hipsparseGetErrorString(HIPSPARSE_STATUS_ALLOC_FAILED));
  return 0;
}
"""


def test_hipsparse_status_strings_run_on_old_hipsparse(hipcc, tmp_path):
    """cusparseGetErrorString/Name become hipSPARSE calls that hipSPARSE 5.2 lacks: compat.h's
    templates link and run (host code only: no GPU needed), or yield to hipSPARSE's own."""
    if not Path("/usr/include/hipsparse/hipsparse.h").exists():
        pytest.skip("hipSPARSE headers not installed")
    name, text = _build_and_run(hipcc, SPARSE_STATUS_PROGRAM, tmp_path, "status").strip().split("|")
    assert name == "HIPSPARSE_STATUS_ZERO_PIVOT" and "alloc" in text.lower()


BF16_ROUNDING_PROGRAM = r"""
#include <hip/hip_bf16.h>
#include <cstdio>
#include <cmath>
int main() {
  // 1 + 2^-8 lies halfway between 1 and the next bfloat16 (1 + 2^-7): ties go to the even one
  const float tie = 1.0f + 1.0f / 256.0f, above = 1.0f + 3.0f / 512.0f;
  std::printf("%g %g %g %g %g %g %d %d\n", __bfloat162float(__float2bfloat16(tie)),
              __bfloat162float(__float2bfloat16_rn(above)), __bfloat162float(__float2bfloat16_rz(above)),
              __bfloat162float(__float2bfloat16_rd(-above)), __bfloat162float(__float2bfloat16_ru(tie)),
              float(__hip_bfloat16(2.5f) * __hip_bfloat16(4)), __hisnan(__float2bfloat16(NAN)) ? 1 : 0,
              __hisinf(__float2bfloat16(-INFINITY)));
  // CUDA's pair constructor, NaN-propagating max, saturation, ReLU-fma and pairwise comparisons
  const __hip_bfloat162 p = make_bfloat162(__float2bfloat16(NAN), __float2bfloat16(0.75f));
  std::printf("%d %g %g %g %d %g\n", __hisnan(__hmax_nan(p.x, p.y)) ? 1 : 0, float(__hadd_sat(p.y, p.y)),
              float(__hfma_relu(p.y, __float2bfloat16(-2.0f), p.y)), float(__heq2(p, p).y),
              __hbeq2(p, p) ? 1 : 0, float(__hisnan2(p).x));
  return 0;
}

__global__ void loads(const __hip_bfloat16* x, __hip_bfloat162* pair, float* y) {
  y[0] = __bfloat162float(__ldg(x)) + __low2float(__ldg(pair)) + float(htanh(x[1]));
  atomicAdd(pair, make_bfloat162(x[0], x[1]));
}
"""


def test_bf16_header_rounds_as_cuda_does(hipcc, tmp_path):
    """cuda_bf16.h becomes hip/hip_bf16.h: the installed HIP's (ROCm >= 5.7) or hipport's, whose
    conversions round to nearest even, toward zero, down and up as CUDA's do."""
    out = _build_and_run(hipcc, BF16_ROUNDING_PROGRAM, tmp_path, "bf16").split()
    assert out == ["1", "1.00781", "1", "-1.00781", "1.00781", "10", "1", "-1", "1", "1", "0", "1", "0", "1"]


POINTER_TYPE_PROGRAM = r"""
#include <hip/hip_runtime.h>
#include <hipport/compat.h>
#include <cstdio>
struct Hip6Attributes { hipMemoryType type; int isManaged; };  // ROCm 6 spells the member `type`
int main() {
  hipPointerAttribute_t attr = {};  // the installed HIP's own struct
  attr.isManaged = 1;
  Hip6Attributes six = {hipMemoryTypeDevice, 1};
  std::printf("%d %d\n", hipport::pointer::type(attr) == hipMemoryTypeManaged,
              hipport::pointer::type(six) == hipMemoryTypeDevice);
  return 0;
}
"""


def test_pointer_attribute_type_reads_either_spelling(hipcc, tmp_path):
    """`attr.type` becomes hipport::pointer::type(attr): `memoryType` on HIP before 5.5 (where
    managed memory reports as managed, as in CUDA), the member itself where HIP has `type`."""
    assert _build_and_run(hipcc, POINTER_TYPE_PROGRAM, tmp_path, "ptrtype").split() == ["1", "1"]


def test_math_constants_fallback_is_current_and_complete():
    """hipport's hip/hip_math_constants.h is generated from CUDA's math_constants.h and the macro
    rules: every HIP_X a CUDART_X rule targets is defined, with CUDA's value."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    import gen_math_constants as gen

    if not gen.CUDA_HEADER.exists():
        pytest.skip("CUDA toolkit headers not installed")
    assert gen.main(["--check"]) == 0
    text = gen.OUTPUT.read_text(encoding="utf-8")
    defined = set(re.findall(r"^#define (HIP_\w+) ", text, re.M))
    assert set(gen.targets_from_rules().values()) <= defined
    assert "#define HIP_PI 3.1415926535897931e+0" in text and "__has_include_next(<hip/hip_math_constants.h>)" in text


ROCTX_PROGRAM = r"""
#include <hip/hip_runtime.h>
#include <roctracer/roctx.h>
#include <cstdio>
int main() {
  roctxMarkA("start");
  int level = roctxRangePushA("outer");
  roctx_range_id_t id = roctxRangeStartA("phase");
  roctxRangeStop(id);
  std::printf("%d %d\n", level, roctxRangePop());
  return 0;
}
"""


def test_roctx_markers_build_without_roctracer(hipcc, tmp_path):
    """NVTX becomes ROCTX (roctracer/roctx.h); where roctracer is not installed hipport's header
    supplies markers and ranges that do nothing, so the annotated program builds and runs."""
    if Path("/usr/include/roctracer/roctx.h").exists() or Path("/opt/rocm/include/roctracer/roctx.h").exists():
        pytest.skip("roctracer installed: its header (and -lroctx64) are used")
    assert _build_and_run(hipcc, ROCTX_PROGRAM, tmp_path, "roctx").split() == ["0", "0"]


@pytest.mark.parametrize("program,header", [("fp8_conversions.cu", "<hip/hip_fp8.h>"),
                                            ("bf16_conversions.cu", "<hip/hip_bf16.h>")])
def test_low_precision_fallbacks_convert_bit_for_bit_as_cuda(hipcc, tmp_path, program, header):
    """cuda_fp8.h / cuda_bf16.h become hip/hip_fp8.h / hip/hip_bf16.h: the installed HIP's or
    hipport's.  The same program, built by nvcc against CUDA's header (the reference: its
    conversions are host code too) and, translated, by hipcc, prints the same bits for every
    conversion (rounding modes, saturation, NaN and infinity, subnormals)."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc (the reference) not installed")
    source = HERE / "data" / "oracle" / program
    reference = tmp_path / "reference"
    built = subprocess.run([nvcc, "-std=c++17", str(source), "-o", str(reference)], capture_output=True, text=True,
                           timeout=300)
    assert built.returncode == 0, built.stderr
    expected = subprocess.run([str(reference)], capture_output=True, text=True, timeout=60).stdout
    translated = translate_source(source.read_bytes(), path=source.name).text.decode()
    assert header in translated and "__nv_" not in translated
    assert _build_and_run(hipcc, translated, tmp_path, program.split(".")[0]) == expected


VMM_ATTRIBUTE_PROGRAM = r"""
#include <hip/hip_runtime.h>
#include <hipport/compat.h>
#include <cstdio>
int main() {
  int supported = -1;
  hipError_t status = hipDeviceGetAttribute(&supported, hipDeviceAttributeVirtualMemoryManagementSupported, 0);
  std::printf("%d %d\n", status == hipSuccess, supported);
  return 0;
}
"""


def test_vmm_attribute_reads_unsupported_on_hip_52(hipcc, tmp_path):
    """CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED has no HIP 5.2 counterpart; compat.h's
    tag answers 0, so CUDA code that asks first takes its path without virtual memory."""
    if installed_hip() >= (5, 3):
        pytest.skip("this HIP declares the attribute itself (answering needs a GPU)")
    assert _build_and_run(hipcc, VMM_ATTRIBUTE_PROGRAM, tmp_path, "vmm").split() == ["1", "0"]


ROCSPARSE_ALGORITHMS = """
#include <hipport/rocsparse.h>
using hipport::rocsparse_detail::gpsv_alg;
using hipport::rocsparse_detail::gtsv_alg;
// cuSPARSE's codes: gtsv 0/1/2 = Thomas/LU/QR, gpsv 0 = QR
static_assert(gtsv_alg(0) == rocsparse_gtsv_interleaved_alg_thomas, "thomas");
static_assert(gtsv_alg(1) == rocsparse_gtsv_interleaved_alg_lu, "lu");
static_assert(gtsv_alg(2) == rocsparse_gtsv_interleaved_alg_qr, "qr");
static_assert(gpsv_alg(0) == rocsparse_gpsv_interleaved_alg_default, "gpsv default is QR");
rocsparse_status both(rocsparse_handle h, int code, float* d, void* w, size_t* bytes) {
  rocsparse_status s = rocsparse_sgtsv_interleaved_batch_buffer_size(h, code, 4, d, d, d, d, 2, 2, bytes);
  if (s != rocsparse_status_success) return s;
  return rocsparse_sgtsv_interleaved_batch(h, rocsparse_gtsv_interleaved_alg_qr, 4, d, d, d, d, 2, 2, w);
}
"""


def test_rocsparse_shim_maps_cusparse_algorithm_codes(hipcc, tmp_path):
    if not Path("/usr/include/rocsparse/rocsparse.h").exists():
        pytest.skip("rocSPARSE headers are not installed")
    proc = hipcc(ROCSPARSE_ALGORITHMS, tmp_path, "rocsparse_algs.hip",
                 extra=["-I", INCLUDE, "-Wall", "-Werror", "-std=c++17"])
    assert proc.returncode == 0, proc.stderr


def test_shim_headers_survive_common_user_macros(hipcc, tmp_path):
    """The translator includes the shim after the user's own lines, so a CUDA sample's
    `#define N 256` must not reach a template parameter of ours."""
    source = ("#define N 256\n#define M 64\n#include <hip/hip_runtime.h>\n#include <hipport/compat.h>\n"
              "#include <hip/cooperative_groups/hip_reduce.h>\n#include <hip/cooperative_groups/hip_scan.h>\n"
              "namespace cg = cooperative_groups;\n"
              "__global__ void k(int* o) {\n"
              "  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
              "  o[threadIdx.x] = cg::inclusive_scan(t, o[threadIdx.x]) + cg::reduce(t, N, cg::plus<int>()) + M;\n}\n")
    proc = hipcc(source, tmp_path, "macros.hip", extra=["-I", INCLUDE, "-std=c++17"])
    assert proc.returncode == 0, proc.stderr


def test_scans_over_a_coalesced_group_compile(hipcc, tmp_path):
    """CUDA scans a coalesced group as it scans a tile; HIP 5.2 ships no scan at all."""
    source = ("#include <hip/hip_runtime.h>\n#include <hip/cooperative_groups/hip_scan.h>\n"
              "namespace cg = cooperative_groups;\n__global__ void k(int* p) {\n  int v = p[threadIdx.x];\n"
              "  if (v & 1) { cg::coalesced_group c = cg::coalesced_threads();\n"
              "    p[threadIdx.x] = cg::inclusive_scan(c, v) + cg::exclusive_scan(c, v, cg::plus<int>()); }\n}\n")
    proc = hipcc(source, tmp_path, "scan.hip", extra=["-I", INCLUDE, "-std=c++17"])
    assert proc.returncode == 0, proc.stderr


def test_group_reductions_and_scans_of_halves_and_structs_compile(hipcc, tmp_path):
    """CUDA's cg::reduce / inclusive_scan take any copyable type (HeCBench's softmax-online reduces a
    struct); HIP's tile shuffles take only ints and floats, so the shim shuffles by words."""
    source = ("#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n#include <hip/cooperative_groups/hip_reduce.h>\n"
              "#include <hip/cooperative_groups/hip_scan.h>\nnamespace cg = cooperative_groups;\n"
              "struct MD { float m, d; };\nstruct Op { __device__ MD operator()(MD a, MD b) const { return {a.m > b.m ? a.m : b.m, a.d + b.d}; } };\n"
              "__global__ void k(MD* p, __half* h) {\n  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
              "  p[threadIdx.x] = cg::reduce(t, p[threadIdx.x], Op());\n  h[threadIdx.x] = cg::inclusive_scan(t, h[threadIdx.x]);\n"
              "  cg::coalesced_group c = cg::coalesced_threads();\n  p[0] = cg::reduce(c, p[1], Op());\n}\n")
    proc = hipcc(source, tmp_path, "reduce_types.hip", extra=["-I", INCLUDE, "-std=c++17"])
    assert proc.returncode == 0, proc.stderr


KERNEL_HANDLES = """
#include <hip/hip_runtime.h>
// what a newer HIP may declare itself: compat.h's overloads must neither clash with these nor
// make a call ambiguous
template <class T> static inline hipError_t hipFuncSetAttribute(T* f, hipFuncAttribute a, int v) {
  return hipFuncSetAttribute(reinterpret_cast<const void*>(f), a, v);
}
template <class F> static inline hipError_t hipFuncGetAttributes(hipFuncAttributes* a, F f) {
  return hipFuncGetAttributes(a, reinterpret_cast<const void*>(f));
}
#include <hipport/compat.h>
__global__ void k(float* p) { p[threadIdx.x] = 0; }
template <typename T, int N> __global__ void kt(T* p) { p[threadIdx.x] = N; }
hipError_t use(void* handle, void** args) {
  hipFuncAttributes attr{};
  hipError_t e = hipFuncGetAttributes(&attr, k);
  if (e == hipSuccess) e = hipFuncGetAttributes(&attr, handle);
  if (e == hipSuccess) e = hipFuncSetAttribute(kt<float, 2>, hipFuncAttributeMaxDynamicSharedMemorySize, 1024);
  if (e == hipSuccess) e = hipFuncSetCacheConfig(&k, hipFuncCachePreferL1);
  if (e == hipSuccess) e = hipFuncSetSharedMemConfig(k, hipSharedMemBankSizeFourByte);
  if (e == hipSuccess) e = hipLaunchKernel(k, 1, 32, args);
  if (e == hipSuccess) e = hipLaunchCooperativeKernel(kt<int, 1>, dim3(1), dim3(32), args, 0, nullptr);
  return e;
}
"""


def test_kernel_handle_overloads_coexist_with_a_newer_hips_templates(hipcc, tmp_path):
    """Against CUDA 13 the translator passes a kernel to hipFuncSetAttribute & co. as it is
    (as hipify-clang does); compat.h's function-pointer overloads make that compile on HIP 5.2
    and stay unambiguous beside the generic templates a newer HIP may declare."""
    proc = hipcc(KERNEL_HANDLES, tmp_path, "kernel_handles.hip", extra=["-I", INCLUDE, "-Wall", "-Werror", "-std=c++17"])
    assert proc.returncode == 0, proc.stderr


def test_compat_header_compiles_with_a_host_only_compiler(tmp_path):
    """A host-only .cpp built by g++ against hip::host (CMake's CUDA::cudart becomes it) includes
    compat.h through a translated helper_cuda.h: the host-side parts must compile there."""
    gxx = require_tool("g++")
    if not Path("/usr/include/hip/hip_runtime.h").exists():
        pytest.skip("Debian's HIP headers are not installed")
    src = tmp_path / "host.cpp"
    src.write_text("#include <hip/hip_runtime.h>\n#include <hipport/compat.h>\n"
                   "int main() { const char* s = nullptr; (void)hipDrvGetErrorName(hipSuccess, &s);\n"
                   "  hipDeviceProp_t p{}; return hipport::prop::asyncEngineCount(p) < 0; }\n")
    proc = subprocess.run([gxx, "-std=c++17", "-D__HIP_PLATFORM_AMD__", "-I", INCLUDE, "-c", str(src),
                           "-o", str(tmp_path / "host.o")], capture_output=True, text=True, timeout=120)
    assert_ok(proc)



def test_translated_c_source_compiles_as_c(tmp_path):
    """A `.c` host file calling the driver API gets compat.h for its C++ overloads; a C compiler
    must read the header too (the C++ parts stay out of its sight)."""
    from hipport.cxx.translate import translate_bytes
    from hipport.options import Options

    gcc = require_tool("gcc")
    if not Path("/usr/include/hip/hip_runtime.h").exists():
        pytest.skip("Debian's HIP headers are not installed")
    cuda = (b"#include <cuda.h>\n"
            b"CUresult up(CUdeviceptr d, const float *h) { return cuMemcpyHtoD(d, h, 4); }\n")
    out = translate_bytes(cuda, "host.c", Options()).data
    assert b"#include <hipport/compat.h>" in out
    src = tmp_path / "host.c"
    src.write_bytes(out)
    proc = subprocess.run([gcc, "-x", "c", "-D__HIP_PLATFORM_AMD__", "-I", INCLUDE, "-c", str(src),
                           "-o", str(tmp_path / "host.o")], capture_output=True, text=True, timeout=120)
    assert_ok(proc)

COMPLEX_ASSIGN_PROGRAM = """
#include <hip/hip_runtime.h>
#include <hipport/complex.h>
#include <cstdio>
int main() {
  hipDoubleComplex a = make_hipDoubleComplex(1, 2), b = make_hipDoubleComplex(3, 4);
  a += b; a -= hipDoubleComplex{1, 1};
  a *= b;
  hipFloatComplex f = make_hipFloatComplex(0, 1); f *= make_hipFloatComplex(0, 1);
  a /= make_hipDoubleComplex(0, 1);
  std::printf("%g %g %g %g\\n", a.x, a.y, f.x, f.y);
}
"""


def test_complex_compound_assignments_compile_and_are_complex(hipcc, tmp_path):
    """ROCm/hip#2797: `a += b` on hipDoubleComplex is ambiguous in HIP itself; with hipport/complex.h
    it compiles, and `*=`/`/=` are the complex product and quotient, as hip_complex.h's `*` is."""
    assert _build_and_run(hipcc, COMPLEX_ASSIGN_PROGRAM, tmp_path, "cplx").split() == ["27", "11", "-1", "0"]
