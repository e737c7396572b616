"""The CUDA library rules (cuBLAS, cuRAND, cuSPARSE, cuSOLVER, cuFFT, cuDNN, CUB, Thrust, libcu++,
NCCL, NVTX, FP8) checked against evidence, never against themselves:

* every CUDA name exists in the names extracted from NVIDIA's headers (tools/data/libraries/) or
  is marked removed;
* every HIP/ROC/MIOpen target exists in AMD's declarations (rocm-bindings-libraries' Cython
  declarations, Debian's ROCm headers) or is in the generator's short, reasoned allow-list;
* an unsupported name always carries a note, and none of them has a declared HIP candidate that
  the generator failed to use;
* the checked-in TOML is exactly what the generator produces from the lists.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path

import pytest

from hipport.rules import load_rules
from hipport.rules.call_edits import call_edits

ROOT = Path(__file__).resolve().parent.parent
MINE = {
    "cublas": "cublas", "cublaslt": "cublas", "curand": "curand", "cusparse": "cusparse",
    "cusolver": "cusolver", "cufft": "cufft", "cudnn": "cudnn", "cub": "cccl", "thrust": "cccl",
    "libcudacxx": "cccl", "nccl": "nccl", "nvtx": "nvtx", "fp8": "fp8",
    "cufile": "cufile", "cutensor": "cutensor", "cusparselt": "cusparselt",
}


def _load_gen():
    """tools/ is not a package: load the maintainer script by path, once per process."""
    if "gen_library_rules" in sys.modules:
        return sys.modules["gen_library_rules"]
    spec = importlib.util.spec_from_file_location("gen_library_rules", ROOT / "tools" / "gen_library_rules.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gen_library_rules"] = mod
    spec.loader.exec_module(mod)
    return mod


gen = _load_gen()


REQUIRED_SOURCES = ("bindings:hipblas", "bindings:hipsolver", "debian:hiprand", "debian:rocrand",
                    "debian:hipsparse", "debian:rocsparse")


def require_declarations() -> dict:
    """AMD's declarations, or a skip (a failure under HIPPORT_REQUIRE_TOOLS=1) naming what is missing:
    rocm-bindings-libraries (pip) and Debian's libhiprand-dev librocrand-dev libhipsparse-dev
    librocsparse-dev."""
    d = gen.amd_declarations()
    missing = [s for s in REQUIRED_SOURCES if s not in d]
    if missing:
        msg = f"AMD declarations missing: {missing} (pip rocm-bindings-libraries; apt libhiprand-dev ...)"
        if os.environ.get("HIPPORT_REQUIRE_TOOLS") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    return d


@pytest.fixture(scope="module")
def decls():
    return require_declarations()


@pytest.fixture(scope="module")
def amd_names(decls):
    return set().union(*decls.values())


@pytest.fixture(scope="module")
def amd_headers():
    return gen.amd_headers()


@pytest.fixture(scope="module")
def rules():
    rs = load_rules(use_cache=False)
    return [r for r in rs.rules if r.family in MINE]


@pytest.fixture(scope="module")
def cuda_lists():
    return {lib: gen.read_cuda_names(lib) for lib in set(MINE.values())}


def _unverifiable(field: str, target: str, family: str) -> str | None:
    """The reason a target cannot be checked locally, or None when it must be declared."""
    if field == "roc" and target.startswith("rocblas_"):
        return gen.UNVERIFIABLE_REASON["rocblas"]
    if field == "roc" and target in gen.ROCRAND_NEWER:
        return gen.UNVERIFIABLE_REASON["rocrand_newer"]
    if field == "roc" and target.startswith("rocrand_device::"):
        return "an engine class: test_rocrand_engine_classes_exist checks it"
    if field == "roc" and target.startswith("rocsolver_"):
        return gen.UNVERIFIABLE_REASON["rocsolver"]
    if field == "miopen":
        return gen.UNVERIFIABLE_REASON["miopen"]
    if family == "cub":
        return gen.UNVERIFIABLE_REASON["hipcub"]
    if family == "thrust":
        return gen.UNVERIFIABLE_REASON["rocthrust"]
    if family == "fp8":
        return gen.UNVERIFIABLE_REASON["hipfp8"]
    if target in gen.UNVERIFIABLE_HEADERS:
        return gen.UNVERIFIABLE_REASON[gen.UNVERIFIABLE_HEADERS[target]]
    if field == "hip" and family == "cublas" and gen.HIPBLAS_V2.fullmatch(target):
        return gen.UNVERIFIABLE_REASON["hipblas_v2"]
    if family == "nccl" and target in gen.RCCL_MACROS:
        return gen.UNVERIFIABLE_REASON["rccl"]
    if family == "cufile" and target in gen.HIPFILE_MACROS:
        return gen.UNVERIFIABLE_REASON["hipfile"]
    return None


def _hipify_only(rule, field: str, target: str) -> bool:
    """A target only hipify-clang vouches for: it never translates by default (the rule is
    experimental or unsupported) and it is exactly what hipify-clang's tests write."""
    hipify = gen.hipify_names.table().get((rule.cuda, field))
    if field == "hip" and rule.status not in ("unsupported", "experimental"):
        return False
    return hipify is not None and hipify[0] == target


def _hipsparse_documents_removal(rule) -> bool:
    docs = gen.amd_doc_deprecations("hipsparse")
    fam = re.sub(r"^hipsparse[SDCZ]", "hipsparseS", rule.hip)
    info = docs.get(rule.hip) or docs.get(fam)
    return bool(info and info[0] == "cuda" and rule.hip == "hip" + rule.cuda[2:]
                and (rule.cuda_deprecated, rule.cuda_removed) == info[1:] and float(info[2]) <= 11.8)


def _mapped_by_hipify_before_11_8(rule) -> bool:
    """hipify-clang's tests map the name (as HIP, or only under --roc, where hipSPARSE still
    declares the mechanical HIP name) to what the rule says, and AMD declares the HIP name."""
    table = gen.hipify_names.table()
    hip = (table.get((rule.cuda, "hip")) or table.get((rule.cuda, "hip_type")) or ("",))[0]
    declared = gen._all_amd_names()
    if hip:
        return hip == rule.hip and hip in declared
    roc = table.get((rule.cuda, "roc"), ("",))[0]
    return bool(roc) and roc == rule.roc and (not rule.hip or (
        rule.hip == re.sub(r"^cu(sparse|blas)", r"hip\1", rule.cuda) and rule.hip in declared))


def test_every_library_file_is_present_with_meta(rules):
    families = {r.family for r in rules}
    assert families == set(MINE)
    for r in rules:
        assert r.library, r
        if r.family != "libcudacxx":
            assert r.hip_library, r


def test_cuda_names_exist_in_nvidia_headers_or_are_removed(rules, cuda_lists):
    library_types = Path("/usr/local/cuda/include/library_types.h")
    lt_text = library_types.read_text() if library_types.exists() else ""
    missing = []
    for r in rules:
        names = cuda_lists[MINE[r.family]]
        if r.cuda in names:
            cn = names[r.cuda]
            # 'removed' exactly when the CUDA 12.9 headers no longer declare it - or 'unsupported'
            # when HIP dropped it too and only hipify-clang's old spelling is left (--amap)
            hipify_only = r.status == "unsupported" and _hipify_only(r, "hip", r.hip)
            assert (r.status == "removed" or (cn.removed and hipify_only)) == cn.removed, r
            continue
        if r.kind == "namespace" and r.cuda in ("cub", "cuda"):
            continue
        if r.kind == "header" and r.cuda.endswith("/") and any(n.startswith(r.cuda) for n in names):
            continue  # a prefix rule for a family of headers
        if r.cuda in ("nvToolsExt.h", "nvToolsExtCuda.h", "nvToolsExtCudaRt.h"):
            continue  # the toolkit's pre-NVTX3 paths of nvtx3/nvToolsExt*.h (NVTX v2)
        if r.family == "cusparse" and r.status == "removed" and _hipsparse_documents_removal(r):
            continue  # removed before CUDA 11.8 (our oldest snapshot); AMD documents the versions
        if (r.status == "removed" and any(w in r.note for w in ("before 11.8", "cuSPARSELt 0.x"))
                and _mapped_by_hipify_before_11_8(r)):
            continue  # removed before CUDA 11.8 too; hipify-clang maps it to a name AMD declares
        if r.family == "cudnn" and r.status == "removed" and r.cuda in gen.MIOPEN_CUDNN9_REMOVED:
            # cuDNN 9 (our snapshots) removed the pre-v8 RNN API; hipify-clang's tests still map it
            # (cudnnRNNBackwardWeights, whose arguments move, is in the table without a CHECK pair)
            hipify = (gen.hipify_names.table().get((r.cuda, "miopen")) or ("",))[0]
            assert hipify in ("", r.miopen) and (hipify or r.cuda in call_edits()), r
            continue
        if r.family == "cudnn" and r.cuda in gen.CUDNN_7_REMOVED:
            # cuDNN 7's preference API, gone before our snapshots: hipify-clang's spelling where its tests show it
            hipify = (gen.hipify_names.table().get((r.cuda, "hip")) or ("",))[0]
            assert r.status == "unsupported" and r.cuda_removed == "8.0" and hipify in ("", r.hip), r
            continue
        if r.family == "cublas" and r.cuda.startswith(("CUDA_R_", "CUDA_C_", "cudaDataType", "libraryPropertyType")):
            if lt_text:
                assert re.search(rf"\b{r.cuda}\b", lt_text), r
            continue
        missing.append(r.cuda)
    assert not missing, f"{len(missing)} CUDA names not in NVIDIA's headers: {missing[:20]}"


def test_targets_exist_in_amd_declarations(rules, amd_names, amd_headers):
    bad = []
    for r in rules:
        for field in ("hip", "roc", "miopen", "hip_type"):
            target = getattr(r, field)
            if not target:
                continue
            if _unverifiable(field, target, r.family):
                continue
            if _hipify_only(r, field, target):
                continue
            if r.cuda in gen.CUDNN_7_REMOVED and r.status == "unsupported":
                continue  # the old hipDNN's names (hipify-clang's CUDA2HIP_DNN tables), for --amap only
            if r.kind == "header":
                ok = target in amd_headers or (field == "roc" and target.split("/")[0].removesuffix(".h") in ("rocblas", "rocsolver"))
            elif r.kind == "namespace":
                ok = False
            else:
                ok = target in amd_names
            if not ok:
                bad.append(f"{r.family}:{r.cuda}.{field}={target}")
    assert not bad, f"{len(bad)} targets AMD does not declare: {bad[:20]}"


def _curated(field: str, target: str, rule) -> bool:
    """Is an unverifiable target one of the generator's short curated tables (or exactly the
    spelling hipify-clang's tests write for that option)?"""
    if (gen.hipify_names.table().get((rule.cuda, field)) or ("",))[0] == target:
        return True
    if target in gen.UNVERIFIABLE_HEADERS:
        return True
    if field == "roc" and (target in gen.ROCSOLVER_SPECIAL.values() or target in gen.ROCRAND_SPECIAL.values()):
        return True
    if gen.hipblas_v2_base(target):  # the plain name must be one AMD declares
        return gen.hipblas_v2_base(target) in gen._all_amd_names()
    routines = "|".join(re.escape(gen.snake(r)) for r in gen.ROCBLAS_ROUTINES) + "|" + \
        "|".join(re.escape(r.lower()) for r in gen.ROCBLAS_ROUTINES)
    if target.startswith("rocblas_"):
        return (target in gen.ROCBLAS_SPECIAL.values() or target in gen.DATA_TYPES_ROC.values()
                or re.fullmatch(rf"rocblas_(?:[sdcz](?:{routines})|i[sdcz]am(?:ax|in))", target) is not None
                or target in ("rocblas_create_handle", "rocblas_destroy_handle", "rocblas_set_stream", "rocblas_handle"))
    if target.startswith("rocsolver_"):
        return re.fullmatch(rf"rocsolver_[sdcz](?:{'|'.join(gen.ROCSOLVER_ROUTINES)})", target) is not None
    if field == "miopen":
        edit = call_edits().get(rule.cuda)  # hand-checked against miopen.h with the call's arguments
        return (target in gen.MIOPEN.values() or target in gen.MIOPEN_HEADER.values()
                or (edit is not None and edit.target == target))
    if rule.family == "cub":
        return target in gen.CUB_MACROS.values() or target in ("hipcub/hipcub.hpp", "hipcub")
    if rule.family == "thrust":
        return target in (rule.cuda, rule.cuda.replace("/system/cuda/", "/system/hip/"), "THRUST_DEVICE_SYSTEM_HIP")
    if rule.family == "fp8":
        return (target in gen.FP8_TYPES.values() or target in gen.FP4_TYPES.values()
                or target[len("__hip_"):] in gen.FP8_FUNCS + gen.FP4_FUNCS or target in ("hip/hip_fp8.h", "hip/hip_fp4.h"))
    if rule.family == "nccl":
        return target in gen.RCCL_MACROS
    if rule.family == "cufile":
        return target in gen.HIPFILE_MACROS
    return False


def test_unverifiable_targets_come_from_curated_tables(rules):
    stray = []
    for r in rules:
        for field in ("hip", "roc", "miopen"):
            target = getattr(r, field)
            reason = target and _unverifiable(field, target, r.family)
            if reason:
                assert len(reason) > 40  # a reason a reviewer can check
                if not _curated(field, target, r):
                    stray.append(f"{r.family}:{r.cuda}.{field}={target}")
    assert not stray, stray[:20]


def test_unsupported_rules_say_why(rules):
    silent = [r.cuda for r in rules if r.status in ("unsupported", "removed") and not r.hip and not r.note]
    assert not silent, silent[:20]


def test_no_declared_candidate_is_left_unused(rules, decls):
    """An unsupported cuBLAS/cuSPARSE/cuSOLVER/cuFFT/cuRAND name whose systematic HIP candidate is
    declared by AMD would be a generator bug (a silently lost mapping)."""
    sources = {
        "cublas": ("cublas", "hipblas", ("bindings:hipblas",)),
        "cusparse": ("cusparse", "hipsparse", ("bindings:hipsparse", "debian:hipsparse")),
        "cusolver": ("cusolver", "hipsolver", ("bindings:hipsolver",)),
        "cufft": ("cufft", "hipfft", ("bindings:hipfft",)),
        "curand": ("curand", "hiprand", ("bindings:hiprand", "debian:hiprand")),
        "cutensor": ("cutensor", "hiptensor", ("bindings:hiptensor",)),
        "cusparselt": ("cusparseLt", "hipsparseLt", ("bindings:hipsparselt",)),
    }
    lost = []
    for r in rules:
        if r.family not in sources or r.hip or r.kind == "header" or r.status == "removed":
            continue
        cu, hip, srcs = sources[r.family]
        cand = re.sub(r"_v2(?=$|_64$)", "", r.cuda).replace(cu, hip, 1).replace(cu.upper(), hip.upper(), 1)
        if r.family == "cufft" and ("allback" in r.cuda or r.cuda.startswith("CUFFT_CB_")):
            continue  # callbacks: unsupported on purpose (see the note)
        if any(cand in decls.get(s, ()) for s in srcs):
            lost.append(f"{r.cuda} -> {cand}")
    assert not lost, lost[:20]


@pytest.mark.parametrize(
    "cuda,hip,roc",
    [
        ("cublasSgemm_v2", "hipblasSgemm", "rocblas_sgemm"),
        ("cublasSgemm", "hipblasSgemm", "rocblas_sgemm"),
        ("cublasSgemm_v2_64", "hipblasSgemm_64", ""),
        ("cublasCreate", "hipblasCreate", "rocblas_create_handle"),
        ("CUBLAS_OP_N", "HIPBLAS_OP_N", "rocblas_operation_none"),
        ("curandCreateGenerator", "hiprandCreateGenerator", "rocrand_create_generator"),
        ("curand_uniform", "hiprand_uniform", "rocrand_uniform"),
        ("curandState", "hiprandState", "rocrand_state_xorwow"),
        ("cusparseSpMV", "hipsparseSpMV", "rocsparse_spmv"),  # rocSPARSE 3's staged call (arguments edited)
        ("cusparseBlockedEllGet", "hipsparseBlockedEllGet", "rocsparse_bell_get"),  # via hipport/rocsparse.h
        ("cusparseCreateCsr", "hipsparseCreateCsr", "rocsparse_create_csr_descr"),
        ("cusolverDnSgetrf", "hipsolverDnSgetrf", "rocsolver_sgetrf"),
        ("cusolverDnSgetrf_bufferSize", "hipsolverDnSgetrf_bufferSize", ""),
        ("cufftExecC2C", "hipfftExecC2C", ""),
        ("CUFFT_INVERSE", "HIPFFT_BACKWARD", ""),
        ("ncclAllReduce", "ncclAllReduce", ""),
        ("nvtxRangePushA", "roctxRangePushA", ""),
        ("nvtxRangePush", "roctxRangePushA", ""),  # nvToolsExt.h: #define nvtxRangePush nvtxRangePushA
        ("nvtxRangeEnd", "roctxRangeStop", ""),
        ("cudnnBackendExecute", "hipdnnBackendExecute", ""),
        ("__nv_fp8_e4m3", "__hip_fp8_e4m3", ""),
        ("cuFileRead", "hipFileRead", ""),
        ("CU_FILE_IO_NOT_SUPPORTED", "hipFileIONotSupported", ""),
        ("cuFileDriverClose_v2", "hipFileDriverClose", ""),
        ("cutensorCreatePlan", "hiptensorCreatePlan", ""),
        ("CUTENSOR_COMPUTE_32F", "HIPTENSOR_COMPUTE_DESC_32F", ""),
        ("cusparseLtMatmul", "hipsparseLtMatmul", ""),
        ("cusparseComputeType", "hipsparseLtComputetype_t", ""),
    ],
)
def test_systematic_mappings(rules, cuda, hip, roc):
    by = {r.cuda: r for r in rules if r.kind != "header"}
    r = by[cuda]
    assert (r.hip, r.roc) == (hip, roc)
    assert r.status in ("supported", "deprecated")


def test_headers_are_spelled_as_hipify_clang_writes_them(rules, amd_headers):
    """Users switch from hipify-clang by changing the program name: the same include lines come out.
    A flat spelling is only used where AMD ships that file under include/<lib>/."""
    heads = {r.cuda: r for r in rules if r.kind == "header"}
    assert (heads["cublas_v2.h"].hip, heads["cublas_v2.h"].roc) == ("hipblas.h", "rocblas.h")
    assert (heads["curand.h"].hip, heads["curand.h"].roc) == ("hiprand/hiprand.h", "rocrand/rocrand.h")
    assert (heads["cusparse.h"].hip, heads["cusparse.h"].roc) == ("hipsparse.h", "rocsparse.h")
    assert heads["cusolverDn.h"].hip == "hipsolver.h" and heads["cusolverDn.h"].roc == "rocsolver/rocsolver.h"  # cusolver2rocsolver.cu
    assert heads["cublasLt.h"].hip == "hipblaslt.h"
    assert heads["cufft.h"].hip == "hipfft/hipfft.h"
    assert heads["nccl.h"].hip == "rccl/rccl.h"
    assert heads["nvtx3/nvToolsExt.h"].hip == "roctracer/roctx.h"
    assert heads["cub/cub.cuh"].hip == "hipcub/hipcub.hpp"
    assert heads["cudnn.h"].miopen == "miopen/miopen.h"
    assert (heads["cufile.h"].hip, heads["cutensor.h"].hip, heads["cusparseLt.h"].hip) == \
        ("hipfile.h", "hiptensor.h", "hipsparseLt.h")
    flat = {r.hip for r in heads.values() if r.hip and "/" not in r.hip}
    assert flat <= set(gen.FLAT_HEADERS), flat - set(gen.FLAT_HEADERS)
    assert all(gen.FLAT_HEADERS[f] in amd_headers for f in flat if not f.startswith("roc"))


def test_cudnn_miopen_and_hipdnn(rules):
    by = {r.cuda: r for r in rules if r.family == "cudnn"}
    assert by["cudnnCreate"].hip == "hipdnnCreate" and by["cudnnCreate"].miopen == "miopenCreate"
    conv = by["cudnnConvolutionForward"]
    assert conv.status == "unsupported" and "miopenConvolutionForward" in conv.note
    assert by["CUDNN_DATA_FLOAT"].miopen == "miopenFloat"


def test_cudnn_calls_miopen_declares_alike_are_renamed_only_with_miopen(rules):
    """Activation, fused convolution, CTC loss, dropout sizes and tensor reductions take the same
    arguments in MIOpen (miopen.h): a rename, reached only with --miopen (hipDNN has none)."""
    from hipport import Options, translate_source

    by = {r.cuda: r for r in rules if r.family == "cudnn"}
    for cuda, miopen in (("cudnnActivationForward", "miopenActivationForward"),
                         ("cudnnReduceTensor", "miopenReduceTensor"), ("cudnnCTCLoss", "miopenCTCLoss"),
                         ("cudnnDirectionMode_t", "miopenRNNDirectionMode_t")):
        assert by[cuda].miopen == miopen and not by[cuda].hip, cuda
        assert "(use --miopen)" in by[cuda].note and "different arguments" not in by[cuda].note, cuda
    src = ("cudnnDirectionMode_t dir = CUDNN_BIDIRECTIONAL;\n"
           "cudnnCTCLossAlgo_t algo = CUDNN_CTC_LOSS_ALGO_DETERMINISTIC;\n"
           "void f(cudnnHandle_t h, cudnnActivationDescriptor_t a, cudnnReduceTensorDescriptor_t r) {\n"
           "  cudnnActivationBackward(h, a, al, yD, y, dyD, dy, xD, x, be, dxD, dx);\n"
           "  cudnnConvolutionBiasActivationForward(h, a1, xD, x, wD, w, cD, fa, ws, n, a2, zD, z, bD, b, a, yD, y);\n"
           "  cudnnGetReductionWorkspaceSize(h, r, aD, cD, &n);\n"
           "  cudnnDropoutGetStatesSize(h, &n);\n}\n")
    out = translate_source(src, path="t.cu", options=Options(miopen=True)).text
    assert "miopenRNNDirectionMode_t dir = miopenRNNbidirection;" in out
    assert "miopenCTCLossAlgo_t algo = MIOPEN_CTC_LOSS_ALGO_DETERMINISTIC;" in out
    assert "miopenActivationBackward(h, a, al, yD, y, dyD, dy, xD, x, be, dxD, dx);" in out
    assert "miopenConvolutionBiasActivationForward(h, a1, xD, x, wD, w, cD, fa, ws, n, a2, zD, z, bD, b, a, yD, y);" in out
    assert "miopenGetReductionWorkspaceSize(h, r, aD, cD, &n);" in out and "miopenDropoutGetStatesSize(h, &n);" in out
    plain = translate_source(src, path="t.cu", options=Options()).text
    assert "cudnnActivationBackward(h, a" in plain and "miopen" not in plain


def test_data_types_have_hip_type(rules):
    by = {r.cuda: r for r in rules}
    assert by["CUDA_R_32F"].hip_type == "HIP_R_32F"
    assert by["CUDA_R_32F"].roc == "rocblas_datatype_f32_r"


def test_removed_and_deprecated_versions(rules, cuda_lists):
    by = {r.cuda: r for r in rules if r.family == "cusparse"}
    removed = [r for r in by.values() if r.status == "removed"]
    assert len(removed) > 50
    names = cuda_lists["cusparse"]
    for r in removed:
        if r.cuda in names:  # last seen in 11.8 -> removed by 12.0; last seen in 12.9 -> by 13.0
            assert r.cuda_removed == {"cu11": "12.0", "cu12": "13.0"}[names[r.cuda].snapshots[0]], r
        elif "before 11.8" in r.note:  # hipify-clang maps it and AMD declares the target; version unknown
            assert (r.hip or r.roc) and not r.cuda_removed, r
        else:  # removed before 11.8: hipSPARSE documents the versions
            assert r.cuda_removed in ("10.0", "11.0", "12.0") and r.cuda_deprecated and r.hip, r
    # exact versions from hipSPARSE's documentation, where the snapshots could only bound them
    assert (by["cusparseScsrmv"].status, by["cusparseScsrmv"].cuda_removed) == ("removed", "11.0")
    assert by["cusparseScsrmv"].hip == "hipsparseScsrmv"
    assert (by["cusparseSaxpyi"].cuda_deprecated, by["cusparseSaxpyi"].cuda_removed) == ("11.0", "12.0")
    # a CUDA deprecation alone keeps the rule supported (status 'deprecated' is HIP's deprecation)
    dep = [r for r in by.values() if r.cuda_deprecated and r.status == "supported"]
    assert dep and all(r.hip for r in dep)


def test_targets_take_the_same_number_of_arguments(rules, cuda_lists, decls):
    """A supported function target has the CUDA function's parameter count wherever both are
    known (cuBLAS's legacy v1 names aside: the engine handles those); a clashing --roc target is
    dropped and named in the note."""
    amd = gen.amd_arity()
    bad, checked = [], 0
    for r in rules:
        if r.kind != "function" or r.family not in MINE:
            continue
        cn = cuda_lists[MINE[r.family]].get(r.cuda)
        if cn is None or cn.arity is None or f"{r.cuda}_v2" in cuda_lists[MINE[r.family]]:
            continue
        for field in ("hip", "roc"):
            target = getattr(r, field)
            if target in amd:
                checked += 1
                edit = call_edits().get(r.cuda)
                edit = edit if edit is not None and edit.option == field else None
                if edit is not None and edit.target == target:  # the translator rewrites the arguments
                    declared = gen.SHIM_SIGNATURES.get(target, amd[target])  # the shim's newer signature
                    if (edit.args, edit.target_args) != (cn.arity, declared):
                        bad.append(f"{r.cuda}({cn.arity}) -> {target}({amd[target]}): edits for "
                                   f"{edit.args} -> {edit.target_args}")
                elif amd[target] != cn.arity and (field == "roc" or r.status in ("supported", "deprecated")) \
                        and not gen._translator_completes(r.cuda, cn.arity, amd[target]):
                    bad.append(f"{r.cuda}({cn.arity}) -> {target}({amd[target]})")
    assert checked > 1000 and not bad, bad[:20]
    by = {r.cuda: r for r in rules if r.family == "cusparse"}
    bell = by["cusparseBlockedEllGet"]
    # rocsparse_bell_get takes a block direction more: reached through hipport/rocsparse.h's overload
    assert bell.hip == "hipsparseBlockedEllGet" and bell.roc == "rocsparse_bell_get" and "hipport/rocsparse.h" in bell.note


def test_extracted_lists_are_small_and_well_formed():
    total = 0
    for f in sorted((ROOT / "tools" / "data" / "libraries").glob("*.txt")):
        total += f.stat().st_size
        for line in f.read_text().splitlines():
            if line.startswith("#"):
                continue
            name, kind, snaps, deps, header, arity = line.split("\t")
            assert kind in ("function", "type", "enumerator", "macro", "header"), line
            assert arity == "-" or (kind == "function" and 0 <= int(arity) < 40), line
            assert set(snaps.split(",")) <= {"cu11", "cu12", "cu13"} and deps
            assert header.endswith((".h", ".hpp", ".cuh")) or header.startswith("cuda/"), line
    assert total < 3 * 1024 * 1024


def test_generator_output_matches_checked_in_rules(tmp_path, monkeypatch, decls):
    monkeypatch.setattr(gen, "RULES", tmp_path)
    gen.cmd_generate()
    for stem in MINE:
        fresh = (tmp_path / f"{stem}.toml").read_text()
        checked_in = (ROOT / "hipport" / "rules" / f"{stem}.toml").read_text()
        assert fresh == checked_in, f"{stem}.toml is stale: run tools/gen_library_rules.py generate"


def test_header_scanner_on_known_declarations():
    text = """
    /* comment cublasFake(int) */
    #define cublasCreate cublasCreate_v2
    typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;
    CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t* handle);
    typedef struct cublasContext* cublasHandle_t;
    CUSPARSE_DEPRECATED cusparseStatus_t cusparseOld(int);
    """
    found = gen.scan_c_header(text, ("cublas", "CUBLAS", "cusparse"))
    assert "cublasFake" not in found
    assert found["cublasCreate"] == ("macro", False)
    assert found["cublasCreate_v2"][0] == "function"
    assert found["CUBLAS_OP_T"][0] == "enumerator"
    assert found["cublasOperation_t"][0] == "type"
    assert found["cublasHandle_t"][0] == "type"
    assert found["cusparseOld"] == ("function", True)
    assert gen.snake("CreateGenerator") == "create_generator"
    assert gen.snake("SpMV") == "spmv"
    assert gen.snake("CreateDnVec") == "create_dnvec"


def test_rocrand_engine_classes_exist(rules):
    """cuRAND's state struct tags name rocRAND's engine classes (--roc), as hipify-clang writes them;
    each class is declared in Debian's rocRAND headers (or is newer than rocRAND 5.2)."""
    headers = Path("/usr/include/rocrand")
    if not headers.is_dir():
        pytest.skip("Debian's rocRAND headers are not installed")
    text = "".join(p.read_text(errors="replace") for p in headers.glob("*.h"))
    engines = [r.roc for r in rules if r.roc.startswith("rocrand_device::")]
    assert len(engines) >= 7
    for target in engines:
        if target in gen.ROCRAND_NEWER:
            continue
        engine = target.removeprefix("rocrand_device::").split("<")[0]
        assert re.search(rf"\b(?:class|struct)\s+{engine}\b", text), target
