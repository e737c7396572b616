"""--roc / --miopen calls whose target takes other parameters (hipport/rules/arguments/*.toml).

The tables are checked against CUDA's declarations (each entry's argument count) and AMD's (the
edited count is the target's); the pass is checked on calls of every edit kind, on the calls it
must leave alone, and by compiling a translated rocSPARSE program for gfx90a."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import hipport
from hipport.options import Options
from hipport.rules import RuleError, load_rules
from hipport.rules.call_edits import _parse, call_edits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_rules_libraries import gen  # noqa: E402  (the generator, loaded once)


class _Out:
    def __init__(self, result: hipport.Result):
        # the include every translated .cu file gets is not what these tests are about
        self.text = re.sub(r"#include <hip/hip_runtime.h>\r?\n", "", result.text, count=1)
        self.diagnostics = result.diagnostics


def tr(src: str, **opts) -> _Out:
    return _Out(hipport.translate_source(src, path="t.cu", options=Options(**opts)))


def codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


# --- the tables ------------------------------------------------------------------------------

@pytest.mark.parametrize("entry, message", [
    ('f = { target = "g", ops = [["shuffle", 1]], args = 2 }', "bad op"),
    ('f = { target = "g", ops = [["remove", "1"]], args = 2 }', "bad op"),
    ('f = { target = "g", ops = [["remove", 5]], args = 2 }', "names argument 5"),
    ('f = { target = "g", ops = [["remove", 1], ["replace", 1, "x"]], args = 2 }', "same argument"),
    ('f = { target = "g", ops = [] }', "argument count"),
    ('f = { target = "g", ops = [], args = 1, colour = "red" }', "unknown field"),
])
def test_bad_entries_are_named(tmp_path, entry, message):
    path = tmp_path / "lib.toml"
    path.write_text(f'target = "roc"\n[functions]\n{entry}\n')
    with pytest.raises(RuleError, match=message) as err:
        _parse(path)
    assert "lib.toml" in str(err.value)


def test_invalid_toml_is_named(tmp_path):
    path = tmp_path / "lib.toml"
    path.write_text('target = "roc"\n[functions\n')
    with pytest.raises(RuleError, match="lib.toml: invalid TOML"):
        _parse(path)


def test_file_needs_a_known_option(tmp_path):
    path = tmp_path / "lib.toml"
    path.write_text('target = "sycl"\n[functions]\n')
    with pytest.raises(RuleError, match="'target' must be one of"):
        _parse(path)


def test_every_entry_fits_cuda_and_is_adopted_by_its_rule():
    """Each entry's argument count is CUDA's (where the headers tell), its rule writes that very
    target under its option (else the edits would be dead data), and a --roc target's declared
    arity is the edited count."""
    by_name = {r.cuda: r for r in load_rules(use_cache=False).rules}
    lists = {lib: gen.read_cuda_names(lib) for lib in ("cusparse", "cudnn", "cublas")}
    amd = gen.amd_arity()
    checked = 0
    for cuda, edit in call_edits().items():
        rule = by_name[cuda]
        # (or a HIP function AMD declares for that form alone: CUDA 13's seven-argument
        # cudaStreamGetCaptureInfo is hipStreamGetCaptureInfo_v2; its arity is checked below)
        assert getattr(rule, edit.option) == edit.target or edit.target in amd, cuda
        assert gen.call_edit_accepted(edit), cuda
        cn = lists.get(rule.family, {}).get(cuda)
        if cn is not None and cn.arity is not None:
            assert cn.arity == edit.args, cuda
            checked += 1
        if edit.option != "miopen" and edit.target not in gen.SHIM_SIGNATURES:  # those: compiled below
            assert amd.get(edit.target, edit.target_args) == edit.target_args, cuda
    assert len(call_edits()) > 140 and checked > 100


def test_every_edited_name_passes_the_quick_file_filter():
    from hipport.cxx.passes.arguments import PREFIXES

    assert all(name.encode().startswith(PREFIXES) for name in call_edits())


# --- the pass --------------------------------------------------------------------------------

ILU = """\
void f(cusparseHandle_t h, int m, int nnz, cusparseMatDescr_t d, float* v, const int* rp,
       const int* ci, csrilu02Info_t info, void* buf) {
    cusparseScsrilu02(h, m, nnz, d, v, rp, ci, info, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buf);
}
"""


def test_replaced_argument_takes_the_renamed_ones_place():
    out = tr(ILU, roc=True)
    assert "rocsparse_scsrilu0(h, m, nnz, d, v, rp, ci, info, rocsparse_solve_policy_auto, buf);" in out.text
    assert "HP007" not in codes(out)


def test_without_roc_only_names_change():
    out = tr(ILU)
    assert "hipsparseScsrilu02(h, m, nnz, d, v, rp, ci, info, HIPSPARSE_SOLVE_POLICY_USE_LEVEL, buf);" in out.text


def test_copied_arguments_and_the_shim_for_int_algorithms():
    # the int algorithm stays as hipify-clang writes it; hipport/rocsparse.h maps it to rocSPARSE's enum
    src = "void f(cusparseHandle_t h, float* a, void* w, int n, int b) {\n" \
          "  cusparseSgtsvInterleavedBatch(h, 2, n, a, a, a, a, b, w);\n}\n"
    out = tr(src, roc=True).text
    assert "rocsparse_sgtsv_interleaved_batch(h, 2, n, a, a, a, a, b, b, w);" in out
    assert "#include <hipport/rocsparse.h>\n" in out
    assert tr(out, roc=True).text == out  # idempotent
    assert "hipport/rocsparse.h" not in tr(src).text  # hipSPARSE takes the int itself


def test_removed_arguments_take_their_commas():
    src = ("void f(cusparseHandle_t h, int m, int n, int nnz, const void* v, const int* p, const int* i,\n"
           "       void* cv, int* cp, int* ci, size_t* size) {\n"
           "  cusparseCsr2cscEx2_bufferSize(h, m, n, nnz, v, p, i, cv, cp, ci, CUDA_R_32F,\n"
           "                                CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,\n"
           "                                CUSPARSE_CSR2CSC_ALG1, size);\n}\n")
    out = tr(src, roc=True).text
    assert "rocsparse_csr2csc_buffer_size(h, m, n, nnz, p, i, rocsparse_action_numeric, size);" in " ".join(out.split())


def test_moved_arguments_keep_their_translation():
    src = ("void f(cudnnHandle_t h, cudnnTensorDescriptor_t x, cudnnTensorDescriptor_t y, float* a, float* b,\n"
           "       void* px, void* py) {\n"
           "  cudnnSoftmaxForward(h, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, a, x, px, b, y, py);\n}\n")
    out = tr(src, miopen=True).text
    assert ("miopenSoftmaxForward_V2(h, a, x, px, b, y, py, MIOPEN_SOFTMAX_ACCURATE, "
            "MIOPEN_SOFTMAX_MODE_INSTANCE);") in out


def test_swapped_and_moved_arguments():
    src = ("void f(cudnnHandle_t h) {\n"
           "  cudnnConvolutionBackwardData(h, &alpha, wDesc, w, dyDesc, dy, convDesc, algo,\n"
           "                               workspace, wsSize, &beta, dxDesc, dx);\n}\n")
    out = " ".join(tr(src, miopen=True).text.split())
    assert ("miopenConvolutionBackwardData(h, &alpha, dyDesc, dy, wDesc, w, convDesc, algo, &beta, dxDesc, dx, "
            "workspace, wsSize);") in out


def test_declared_locals_get_a_suffix_per_call_and_skip_names_in_use():
    src = ("// hipify_use_mask in a comment does not count\n"
           "void f(cudnnHandle_t h, cudnnDropoutDescriptor_t d, void* s, size_t n, unsigned long long seed) {\n"
           "  int hipify_use_mask_1 = 0;\n"
           "  cudnnSetDropoutDescriptor(d, h, 0.5f, s, n, seed);\n"
           "  if (seed) { cudnnSetDropoutDescriptor(d, h, 0.5f, s, n, seed); }\n"
           "  if (seed)\n"
           "    cudnnSetDropoutDescriptor(d, h, 0.5f, s, n, seed);\n}\n")
    out = tr(src, miopen=True)
    lines = out.text.splitlines()
    assert lines[3:7] == [
        "  bool hipify_use_mask = {};", "  bool hipify_state_evo = {};", "  miopenRNGType_t hipify_rng_mode = {};",
        "  miopenSetDropoutDescriptor(d, h, 0.5f, s, n, seed, hipify_use_mask, hipify_state_evo, hipify_rng_mode);"]
    assert lines[7] == ("  if (seed) { bool hipify_use_mask_2 = {}; bool hipify_state_evo_2 = {}; "
                        "miopenRNGType_t hipify_rng_mode_2 = {}; miopenSetDropoutDescriptor(d, h, 0.5f, s, n, seed, "
                        "hipify_use_mask_2, hipify_state_evo_2, hipify_rng_mode_2); }")
    assert lines[8] == "  bool hipify_use_mask_3 = {};" and lines[11] == "  if (seed)"
    assert codes(out).count("HP007") == 3  # each call asks for a review of the declared values


def test_miopen_dropout_and_ctc_calls_get_the_arguments_miopen_declares():
    """MIOpen's dropout kernels take a noise_shape descriptor that must have the data's shape (the
    data's own descriptor is passed), its restore takes use_mask/state_evo/rng_mode as its set does,
    and its CTC getter skips the blank label and softmax flag it also reports when they are null."""
    src = ("void f(cudnnHandle_t h, cudnnDropoutDescriptor_t d, cudnnTensorDescriptor_t xd, cudnnTensorDescriptor_t yd,\n"
           "       void* x, void* y, void* r, size_t n, void* s, unsigned long long seed,\n"
           "       cudnnCTCLossDescriptor_t c, cudnnDataType_t t) {\n"
           "  cudnnDropoutForward(h, d, xd, x, yd, y, r, n);\n"
           "  cudnnDropoutBackward(h, d, yd, y, xd, x, r, n);\n"
           "  cudnnRestoreDropoutDescriptor(d, h, 0.5f, s, n, seed);\n"
           "  cudnnGetCTCLossDescriptor(c, &t);\n}\n")
    out = tr(src, miopen=True)
    lines = out.text.splitlines()
    assert lines[3] == "  miopenDropoutForward(h, d, xd, xd, x, yd, y, r, n);"
    assert lines[4] == "  miopenDropoutBackward(h, d, xd, yd, y, xd, x, r, n);"
    assert lines[5:9] == [
        "  bool hipify_use_mask = {};", "  bool hipify_state_evo = {};", "  miopenRNGType_t hipify_rng_mode = {};",
        "  miopenRestoreDropoutDescriptor(d, h, 0.5f, s, n, seed, hipify_use_mask, hipify_state_evo, hipify_rng_mode);"]
    assert lines[9] == "  miopenGetCTCLossDescriptor(c, &t, nullptr, nullptr);"
    assert codes(out).count("HP007") == 1  # only the declared locals ask for a review
    assert tr(out.text, miopen=True).text == out.text
    # without --miopen there is no MIOpen target: nothing is rewritten
    assert "cudnnDropoutForward(h, d, xd, x, yd, y, r, n);" in tr(src).text


def test_no_declaration_where_it_would_change_the_branch():
    src = ("void f(cudnnHandle_t h, cudnnDropoutDescriptor_t d, int c) {\n"
           "  if (c) {} else cudnnSetDropoutDescriptor(d, h, 0.5f, 0, 0, 1);\n}\n")
    out = tr(src, miopen=True)
    assert "bool" not in out.text and "else miopenSetDropoutDescriptor(d, h, 0.5f, 0, 0, 1);" in out.text
    assert any(d.code == "HP007" and "put the call in braces" in d.hint for d in out.diagnostics)


def test_unexpected_argument_count_is_reported_not_guessed():
    src = "void f() { cusparseScsrilu02(h, m, nnz, d, v, rp, ci, info); }\n"
    out = tr(src, roc=True)
    assert "rocsparse_scsrilu0(h, m, nnz, d, v, rp, ci, info);" in out.text
    [diag] = [d for d in out.diagnostics if d.code == "HP007"]
    assert "has 8 arguments here" in diag.message and (diag.line, diag.column) == (1, 12)


def test_a_second_declared_form_is_edited_and_the_first_left_alone():
    """CUDA 13's four-argument cuCtxCreate loses its creation parameters; the classic
    three-argument call needs only the rename, and is not reported."""
    out = tr("void f() { cuCtxCreate(&c, &p, 0, dev); cuCtxCreate(&c, 0, dev); cuCtxCreate(&c, NULL, 0, dev); }\n")
    assert "hipCtxCreate(&c, 0, dev); hipCtxCreate(&c, 0, dev); hipCtxCreate(&c, 0, dev);" in out.text
    assert [d.column for d in out.diagnostics if d.code == "HP007"] == [12]  # a NULL dropped loses nothing


def test_cuda_13_graph_edge_data_is_dropped():
    """CUDA 13's graph-edge calls take edge data HIP's have no parameter for; the seven-argument
    capture query is HIP's _v2.  The 12.x forms are renamed only."""
    out = tr("void f() { cudaGraphAddDependencies(g, &a, &b, nullptr, 1); cudaGraphAddDependencies(g, &a, &b, 1);\n"
             "  cudaGraphNodeGetDependencies(n, d, ed, &k); cuGraphGetEdges(g, f, t, nullptr, &k);\n"
             "  cudaStreamGetCaptureInfo(s, &st, &id, &gr, &dp, nullptr, &k); cudaStreamGetCaptureInfo(s, &st, &id); }\n")
    assert out.text == ("void f() { hipGraphAddDependencies(g, &a, &b, 1); hipGraphAddDependencies(g, &a, &b, 1);\n"
                        "  hipGraphNodeGetDependencies(n, d, &k); hipGraphGetEdges(g, f, t, &k);\n"
                        "  hipStreamGetCaptureInfo_v2(s, &st, &id, &gr, &dp, &k); hipStreamGetCaptureInfo(s, &st, &id); }\n")
    assert [(d.line, d.column) for d in out.diagnostics if d.code == "HP007"] == [(2, 3)]  # edge data `ed` is lost


def test_member_and_user_functions_are_left_alone():
    src = ("struct S { int cusparseScsrilu02(int, int); };\n"
           "void f(S s) { s.cusparseScsrilu02(1, 2); }\n")
    out = tr(src, roc=True)
    assert out.text == src and "HP007" not in codes(out)


def test_crlf_and_comments_between_arguments_survive():
    src = ("void f() {\r\n  cusparseScsrilu02(h, m, nnz, d, v, rp, ci, info, /* policy */ CUSPARSE_SOLVE_POLICY_USE_LEVEL,\r\n"
           "                    buf);\r\n}\r\n")
    out = tr(src, roc=True).text
    assert out == ("void f() {\r\n  rocsparse_scsrilu0(h, m, nnz, d, v, rp, ci, info, /* policy */ rocsparse_solve_policy_auto,\r\n"
                   "                    buf);\r\n}\r\n")


ROCSPARSE_PROGRAM = """\
#include <cuda_runtime.h>
#include <cusparse.h>

int factorize(cusparseHandle_t handle, int m, int nnz, cusparseMatDescr_t descr, float* val,
              const int* row_ptr, const int* col_ind, csrilu02Info_t info) {
    int buffer_size = 0;
    cusparseScsrilu02_bufferSize(handle, m, nnz, descr, val, row_ptr, col_ind, info, &buffer_size);
    void* buffer = nullptr;
    cudaMalloc(&buffer, buffer_size);
    cusparseScsrilu02_analysis(handle, m, nnz, descr, val, row_ptr, col_ind, info,
                               CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
    cusparseStatus_t status = cusparseScsrilu02(handle, m, nnz, descr, val, row_ptr, col_ind,
                                                info, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
    cudaFree(buffer);
    return status == CUSPARSE_STATUS_SUCCESS ? 0 : 1;
}

int banded(cusparseHandle_t handle, int m, float* ds, float* dl, float* d, float* du, float* dw,
           float* x, int batch) {
    size_t bytes = 0;
    cusparseSgpsvInterleavedBatch_bufferSizeExt(handle, 0, m, ds, dl, d, du, dw, x, batch, &bytes);
    cusparseSgtsvInterleavedBatch_bufferSizeExt(handle, 1, m, dl, d, du, x, batch, &bytes);
    void* work = nullptr;
    cudaMalloc(&work, bytes);
    cusparseSgpsvInterleavedBatch(handle, 0, m, ds, dl, d, du, dw, x, batch, work);
    cusparseSgtsvInterleavedBatch(handle, 1, m, dl, d, du, x, batch, work);
    return cudaFree(work) == cudaSuccess ? 0 : 1;
}

int multiply(cusparseHandle_t handle, int m, int n, int k, const float* alpha, cusparseMatDescr_t a,
             int nnz_a, const float* val_a, const int* row_a, const int* col_a, cusparseMatDescr_t b,
             int nnz_b, const float* val_b, const int* row_b, const int* col_b, cusparseMatDescr_t c,
             float* val_c, int* row_c, int* col_c, csrgemm2Info_t info) {
    size_t bytes = 0;
    cusparseScsrgemm2_bufferSizeExt(handle, m, n, k, alpha, a, nnz_a, row_a, col_a, b, nnz_b, row_b, col_b,
                                    nullptr, a, 0, nullptr, nullptr, info, &bytes);
    void* work = nullptr;
    cudaMalloc(&work, bytes);
    int nnz_c = 0;
    cusparseXcsrgemm2Nnz(handle, m, n, k, a, nnz_a, row_a, col_a, b, nnz_b, row_b, col_b, a, 0, nullptr,
                         nullptr, c, row_c, &nnz_c, info, work);
    cusparseScsrgemm2(handle, m, n, k, alpha, a, nnz_a, val_a, row_a, col_a, b, nnz_b, val_b, row_b, col_b,
                      nullptr, a, 0, nullptr, nullptr, nullptr, c, val_c, row_c, col_c, info, work);
    return cudaFree(work) == cudaSuccess ? 0 : 1;
}

int generic_multiply(cusparseHandle_t handle, const float* alpha, cusparseSpMatDescr_t a, cusparseDnMatDescr_t b,
                     const float* beta, cusparseDnMatDescr_t c, void* work) {
    cudaDataType compute = CUDA_R_32F;  // rocSPARSE's generic API takes rocsparse_datatype
    return cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, b,
                        beta, c, compute, CUSPARSE_SPMM_ALG_DEFAULT, work);
}

int generic_mv(cusparseHandle_t handle, const float* alpha, cusparseSpMatDescr_t a, cusparseDnVecDescr_t x,
               const float* beta, cusparseDnVecDescr_t y) {
    size_t bytes = 0;  // rocSPARSE >= 3.0's staged call; hipport/rocsparse.h has it for older ones
    cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, x, beta, y, CUDA_R_32F,
                            CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
    void* work = nullptr;
    cudaMalloc(&work, bytes);
    cusparseStatus_t status = cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, x, beta, y,
                                           CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, work);
    cudaFree(work);
    return status == CUSPARSE_STATUS_SUCCESS ? 0 : 1;
}

int block_solve(cusparseHandle_t handle, int mb, int n, int nnzb, cusparseMatDescr_t descr, const float* val,
                const int* row_ptr, const int* col_ind, int block, bsrsm2Info_t info, void* work) {
    return cusparseSbsrsm2_analysis(handle, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                    CUSPARSE_OPERATION_NON_TRANSPOSE, mb, n, nnzb, descr, val, row_ptr,
                                    col_ind, block, info, CUSPARSE_SOLVE_POLICY_NO_LEVEL, work);
}

int blocked_ell(int64_t rows, int64_t cols, int64_t block, int64_t ell_cols, void* ind, void* val) {
    cusparseSpMatDescr_t a;  // no block direction here; rocSPARSE's descriptor takes one
    cusparseCreateBlockedEll(&a, rows, cols, block, ell_cols, ind, val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                             CUDA_R_32F);
    cusparseIndexType_t index_type;
    cusparseIndexBase_t base;
    cudaDataType type;
    cusparseBlockedEllGet(a, &rows, &cols, &block, &ell_cols, &ind, &val, &index_type, &base, &type);
    return cusparseDestroySpMat(a) == CUSPARSE_STATUS_SUCCESS ? 0 : 1;
}

int triangular_solve(cusparseHandle_t handle, int m, int nrhs, int nnz, const float* alpha, cusparseMatDescr_t descr,
                     const float* val, const int* row_ptr, const int* col_ind, float* b, int ldb, csrsm2Info_t info,
                     void* work) {
    // csrsm2 (CUDA < 12): the int algo stays as hipify-clang writes it; hipport/rocsparse.h drops it
    const int algo = 0;
    size_t bytes = 0;
    cusparseScsrsm2_bufferSizeExt(handle, algo, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                  m, nrhs, nnz, alpha, descr, val, row_ptr, col_ind, b, ldb, info,
                                  CUSPARSE_SOLVE_POLICY_NO_LEVEL, &bytes);
    cusparseScsrsm2_analysis(handle, algo, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, m, nrhs,
                             nnz, alpha, descr, val, row_ptr, col_ind, b, ldb, info, CUSPARSE_SOLVE_POLICY_NO_LEVEL, work);
    cusparseSbsrsm2_analysis(handle, CUSPARSE_DIRECTION_COLUMN, CUSPARSE_OPERATION_NON_TRANSPOSE,
                             CUSPARSE_OPERATION_NON_TRANSPOSE, m, nrhs, nnz, descr, val, row_ptr, col_ind, 2,
                             bsrsm2Info_t{}, CUSPARSE_SOLVE_POLICY_USE_LEVEL, work);  // one policy only
    return cusparseScsrsm2_solve(handle, 1, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, m, nrhs,
                                 nnz, alpha, descr, val, row_ptr, col_ind, b, ldb, info, CUSPARSE_SOLVE_POLICY_NO_LEVEL,
                                 work);
}
"""


def test_translated_rocsparse_program_compiles(hipcc, tmp_path):
    out = hipport.translate_source(ROCSPARSE_PROGRAM, path="t.cu", options=Options(roc=True))
    assert "cusparse" not in out.text.lower()
    assert [d.code for d in out.diagnostics] == ["HP007"]  # the int buffer size passed as size_t*
    from hipport import runtime

    result = hipcc(out.text, tmp_path, extra=["-I/usr/include/rocsparse", "-I", str(runtime.include_dir())])
    assert result.returncode == 0, result.stderr + out.text


def test_default_translation_edits_apply_without_options():
    src = ("void f(cublasHandle_t h, cublasFillMode_t u, cublasOperation_t t, int n, int k, cuComplex* a,\n"
           "       const void* A, cudaDataType at, int lda, void* C, cudaDataType ct, int ldc) {\n"
           "  cublasCsyrkEx(h, u, t, n, k, a, A, at, lda, a, C, ct, ldc);\n}\n")
    out = tr(src).text
    assert "hipblasSyrkEx(h, u, t, n, k, a, A, at, lda, a, C, ct, ldc, HIP_C_32F);" in out
    assert tr(out).text == out


def test_two_arguments_appended_after_the_last_both_land():
    # cusparseSpSM_solve's 10 arguments become rocsparse_spsm's 12: the stage replaces the
    # descriptor, then buffer_size and temp_buffer are both appended (equal insertions at one place)
    out = tr("void f() { cusparseSpSM_solve(h, a, b, al, A, B, C, t, alg, d); }", roc=True).text
    assert "rocsparse_spsm(h, a, b, al, A, B, C, t, alg, rocsparse_spsm_stage_compute, nullptr, nullptr);" in out
    assert tr(out, roc=True).text == out


def test_cudnn9_removed_rnn_calls_reach_miopen():
    src = ('#include "cudnn.h"\nvoid f() {\n'
           "  cudnnRNNForwardInference(h, r, n, x, xp, hx, hxp, cx, cxp, w, wp, y, yp, hy, hyp, cy, cyp, ws, wsn);\n"
           "  cudnnRNNBackwardWeights(h, r, n, x, xp, hx, hxp, y, yp, ws, wsn, dw, dwp, rs, rsn);\n}\n")
    out = tr(src, miopen=True).text
    assert "miopenRNNForwardInference(h, r, n, x, xp, hx, hxp, cx, cxp, w, wp, y, yp, hy, hyp, cy, cyp, ws, wsn);" in out
    assert "miopenRNNBackwardWeights(h, r, n, x, xp, hx, hxp, y, yp, dw, dwp, ws, wsn, rs, rsn);" in out
    assert "cudnnRNNForwardInference(" in tr(src).text  # removed from cuDNN 9, no hipDNN target
