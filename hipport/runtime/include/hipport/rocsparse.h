/* hipport/rocsparse.h — rocSPARSE overloads that take cuSPARSE's argument types.
 *
 * Why: cuSPARSE's interleaved-batch tridiagonal/pentadiagonal solvers take their algorithm as a
 * plain int, rocSPARSE's as an enumeration, and C++ converts neither way implicitly.  hipify-clang
 * writes the call with the int as it stands (code that does not compile); the translator writes the
 * same call and includes this header, whose overloads take the int, map it, and call rocSPARSE.
 * They are templates over an integral type, so a call with rocSPARSE's own enumerators still goes
 * straight to rocSPARSE.
 *
 * cuSPARSE's csrsm2 calls also pass an int algo (0 non-blocking, 1 blocking) right after the
 * handle, for which rocSPARSE's csrsm has no parameter; hipify-clang keeps it, and the overloads
 * below take it and leave it out.
 *
 * Two more calls keep hipify-clang's arguments: bsrsm2_analysis passes cuSPARSE's one solve policy
 * (rocSPARSE takes an analysis policy first: rocsparse_analysis_policy_force, what the translator
 * writes for csrsv2/csrsm2), and cuSPARSE's Blocked-ELL descriptors have no block direction
 * (rocsparse_direction_column, what hipSPARSE passes for them).
 *
 * It also gives rocSPARSE < 3.0 the staged rocsparse_spmv of ROCm 6 (below).
 *
 * Algorithm codes: gpsv — cuSPARSE 0 = QR; rocSPARSE default (0) is QR.
 *                  gtsv — cuSPARSE 0, 1, 2 = Thomas, LU, QR; rocSPARSE 1, 2, 3 (0 = default).
 */
#ifndef HIPPORT_ROCSPARSE_H
#define HIPPORT_ROCSPARSE_H

#include <rocsparse/rocsparse.h>
#include <type_traits>

namespace hipport {
namespace rocsparse_detail {
template <typename A>
using if_code = typename std::enable_if<std::is_integral<A>::value, int>::type;
template <typename A>
constexpr rocsparse_gpsv_interleaved_alg gpsv_alg(A code) { return static_cast<rocsparse_gpsv_interleaved_alg>(code); }
template <typename A>
constexpr rocsparse_gtsv_interleaved_alg gtsv_alg(A code) { return static_cast<rocsparse_gtsv_interleaved_alg>(code + 1); }
}  // namespace rocsparse_detail
}  // namespace hipport

#define HIPPORT_ROCSPARSE_ALG_OVERLOAD(name, map)                                                  \
  template <typename A, typename... Rest, ::hipport::rocsparse_detail::if_code<A> = 0>           \
  inline rocsparse_status name(rocsparse_handle handle, A alg, Rest... rest) {                   \
    return ::name(handle, ::hipport::rocsparse_detail::map(alg), rest...);                        \
  }

#define HIPPORT_ROCSPARSE_ALG_FAMILY(stem, map)                    \
  HIPPORT_ROCSPARSE_ALG_OVERLOAD(rocsparse_s##stem, map)           \
  HIPPORT_ROCSPARSE_ALG_OVERLOAD(rocsparse_d##stem, map)           \
  HIPPORT_ROCSPARSE_ALG_OVERLOAD(rocsparse_c##stem, map)           \
  HIPPORT_ROCSPARSE_ALG_OVERLOAD(rocsparse_z##stem, map)

HIPPORT_ROCSPARSE_ALG_FAMILY(gpsv_interleaved_batch, gpsv_alg)
HIPPORT_ROCSPARSE_ALG_FAMILY(gpsv_interleaved_batch_buffer_size, gpsv_alg)
HIPPORT_ROCSPARSE_ALG_FAMILY(gtsv_interleaved_batch, gtsv_alg)
HIPPORT_ROCSPARSE_ALG_FAMILY(gtsv_interleaved_batch_buffer_size, gtsv_alg)

#define HIPPORT_ROCSPARSE_DROP_ALG(name)                                                            \
  template <typename A, typename... Rest, ::hipport::rocsparse_detail::if_code<A> = 0>           \
  inline rocsparse_status name(rocsparse_handle handle, A, rocsparse_operation trans_A, Rest... rest) { \
    return ::name(handle, trans_A, rest...);                                                       \
  }

#define HIPPORT_ROCSPARSE_DROP_ALG_FAMILY(stem) \
  HIPPORT_ROCSPARSE_DROP_ALG(rocsparse_s##stem)  \
  HIPPORT_ROCSPARSE_DROP_ALG(rocsparse_d##stem)  \
  HIPPORT_ROCSPARSE_DROP_ALG(rocsparse_c##stem)  \
  HIPPORT_ROCSPARSE_DROP_ALG(rocsparse_z##stem)

HIPPORT_ROCSPARSE_DROP_ALG_FAMILY(csrsm_buffer_size)
HIPPORT_ROCSPARSE_DROP_ALG_FAMILY(csrsm_analysis)
HIPPORT_ROCSPARSE_DROP_ALG_FAMILY(csrsm_solve)

#define HIPPORT_ROCSPARSE_BSRSM_ANALYSIS(name, T)                                                           \
  inline rocsparse_status name(rocsparse_handle handle, rocsparse_direction dir, rocsparse_operation trans_A,    \
                               rocsparse_operation trans_X, rocsparse_int mb, rocsparse_int nrhs,               \
                               rocsparse_int nnzb, const rocsparse_mat_descr descr, const T* bsr_val,           \
                               const rocsparse_int* bsr_row_ptr, const rocsparse_int* bsr_col_ind,              \
                               rocsparse_int block_dim, rocsparse_mat_info info, rocsparse_solve_policy solve,  \
                               void* temp_buffer) {                                                              \
    return ::name(handle, dir, trans_A, trans_X, mb, nrhs, nnzb, descr, bsr_val, bsr_row_ptr, bsr_col_ind,       \
                  block_dim, info, rocsparse_analysis_policy_force, solve, temp_buffer);                        \
  }

HIPPORT_ROCSPARSE_BSRSM_ANALYSIS(rocsparse_sbsrsm_analysis, float)
HIPPORT_ROCSPARSE_BSRSM_ANALYSIS(rocsparse_dbsrsm_analysis, double)
HIPPORT_ROCSPARSE_BSRSM_ANALYSIS(rocsparse_cbsrsm_analysis, rocsparse_float_complex)
HIPPORT_ROCSPARSE_BSRSM_ANALYSIS(rocsparse_zbsrsm_analysis, rocsparse_double_complex)

inline rocsparse_status rocsparse_create_bell_descr(rocsparse_spmat_descr* descr, int64_t rows, int64_t cols,
                                                    int64_t ell_block_dim, int64_t ell_cols, void* ell_col_ind,
                                                    void* ell_val, rocsparse_indextype idx_type,
                                                    rocsparse_index_base idx_base, rocsparse_datatype data_type) {
  return ::rocsparse_create_bell_descr(descr, rows, cols, rocsparse_direction_column, ell_block_dim, ell_cols,
                                       ell_col_ind, ell_val, idx_type, idx_base, data_type);
}

inline rocsparse_status rocsparse_bell_get(const rocsparse_spmat_descr descr, int64_t* rows, int64_t* cols,
                                           int64_t* ell_block_dim, int64_t* ell_cols, void** ell_col_ind,
                                           void** ell_val, rocsparse_indextype* idx_type,
                                           rocsparse_index_base* idx_base, rocsparse_datatype* data_type) {
  rocsparse_direction ell_block_dir;
  return ::rocsparse_bell_get(descr, rows, cols, &ell_block_dir, ell_block_dim, ell_cols, ell_col_ind, ell_val,
                              idx_type, idx_base, data_type);
}

#if ROCSPARSE_VERSION_MAJOR >= 3 /* the const descriptors of ROCm 6 */
inline rocsparse_status rocsparse_create_const_bell_descr(rocsparse_const_spmat_descr* descr, int64_t rows,
                                                          int64_t cols, int64_t ell_block_dim, int64_t ell_cols,
                                                          const void* ell_col_ind, const void* ell_val,
                                                          rocsparse_indextype idx_type, rocsparse_index_base idx_base,
                                                          rocsparse_datatype data_type) {
  return ::rocsparse_create_const_bell_descr(descr, rows, cols, rocsparse_direction_column, ell_block_dim, ell_cols,
                                             ell_col_ind, ell_val, idx_type, idx_base, data_type);
}

inline rocsparse_status rocsparse_const_bell_get(rocsparse_const_spmat_descr descr, int64_t* rows, int64_t* cols,
                                                 int64_t* ell_block_dim, int64_t* ell_cols, const void** ell_col_ind,
                                                 const void** ell_val, rocsparse_indextype* idx_type,
                                                 rocsparse_index_base* idx_base, rocsparse_datatype* data_type) {
  rocsparse_direction ell_block_dir;
  return ::rocsparse_const_bell_get(descr, rows, cols, &ell_block_dir, ell_block_dim, ell_cols, ell_col_ind, ell_val,
                                    idx_type, idx_base, data_type);
}
#endif

#undef HIPPORT_ROCSPARSE_BSRSM_ANALYSIS
#undef HIPPORT_ROCSPARSE_DROP_ALG_FAMILY
#undef HIPPORT_ROCSPARSE_DROP_ALG
#undef HIPPORT_ROCSPARSE_ALG_FAMILY
#undef HIPPORT_ROCSPARSE_ALG_OVERLOAD

/* rocsparse_spmv with a stage (rocSPARSE >= 3.0, ROCm 6), which the translator writes for
 * cusparseSpMV_bufferSize / cusparseSpMV as hipify-clang does.  Older rocSPARSE sizes the buffer
 * when temp_buffer is null (rocSPARSE < 2.4, no stage) or takes the stage in rocsparse_spmv_ex (2.4, ROCm 5.4). */
#if ROCSPARSE_VERSION_MAJOR < 3
#if ROCSPARSE_VERSION_MAJOR < 2 || (ROCSPARSE_VERSION_MAJOR == 2 && ROCSPARSE_VERSION_MINOR < 4)
typedef enum rocsparse_spmv_stage_ {
  rocsparse_spmv_stage_auto = 0,
  rocsparse_spmv_stage_buffer_size = 1,
  rocsparse_spmv_stage_preprocess = 2,
  rocsparse_spmv_stage_compute = 3
} rocsparse_spmv_stage;
#endif
inline rocsparse_status rocsparse_spmv(rocsparse_handle handle, rocsparse_operation trans, const void* alpha,
                                       const rocsparse_spmat_descr mat, const rocsparse_dnvec_descr x,
                                       const void* beta, const rocsparse_dnvec_descr y,
                                       rocsparse_datatype compute_type, rocsparse_spmv_alg alg,
                                       rocsparse_spmv_stage stage, size_t* buffer_size, void* temp_buffer) {
#if ROCSPARSE_VERSION_MAJOR < 2 || (ROCSPARSE_VERSION_MAJOR == 2 && ROCSPARSE_VERSION_MINOR < 4)
  switch (stage) {
    case rocsparse_spmv_stage_buffer_size:
      return ::rocsparse_spmv(handle, trans, alpha, mat, x, beta, y, compute_type, alg, buffer_size, nullptr);
    case rocsparse_spmv_stage_preprocess:
      return rocsparse_status_success;  /* the no-stage call analyses as it computes */
    default: {
      size_t unused = 0;  /* a non-null temp_buffer computes; the size is not read then */
      return ::rocsparse_spmv(handle, trans, alpha, mat, x, beta, y, compute_type, alg,
                              buffer_size ? buffer_size : &unused, temp_buffer);
    }
  }
#else
  return rocsparse_spmv_ex(handle, trans, alpha, mat, x, beta, y, compute_type, alg, stage, buffer_size, temp_buffer);
#endif
}
#endif

#endif /* HIPPORT_ROCSPARSE_H */
