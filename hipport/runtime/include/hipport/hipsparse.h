/* hipport/hipsparse.h — hipSPARSE as the translator's output expects it, on older hipSPARSE.
 *
 * Why: translated cuSPARSE code is spelled the way current hipSPARSE (ROCm 6+, hipSPARSE 3) and
 * hipify-clang spell it.  hipSPARSE 2.x (Debian's, ROCm 5) names the column order
 * HIPSPARSE_ORDER_COLUMN and takes the external buffer again in hipsparseSpSV_solve.  The
 * translator includes this header in files that use those names; it includes hipSPARSE itself
 * (from include/hipsparse/ or the flat path) so that it can test hipSPARSE's version, and adds
 * only what that version lacks.
 */
#ifndef HIPPORT_HIPSPARSE_H
#define HIPPORT_HIPSPARSE_H

#if defined(__has_include)
#  if __has_include(<hipsparse/hipsparse.h>)
#    include <hipsparse/hipsparse.h>
#  else
#    include <hipsparse.h>
#  endif
#else
#  include <hipsparse.h>
#endif

#if defined(hipsparseVersionMajor) && hipsparseVersionMajor < 3 && !defined(__HIP_PLATFORM_NVIDIA__)

/* CUSPARSE_ORDER_COL: hipSPARSE 3 spells it as cuSPARSE does */
#ifndef HIPSPARSE_ORDER_COL
#  define HIPSPARSE_ORDER_COL HIPSPARSE_ORDER_COLUMN
#endif

/* cusparseSpSV_solve without the buffer (cuSPARSE keeps the analysis in the descriptor since 12.0,
 * as hipSPARSE 3 does): hipSPARSE 2 solves with a work buffer again, sized and freed here.
 * hipFree waits for the device, so the buffer outlives the solve. */
inline hipsparseStatus_t hipsparseSpSV_solve(hipsparseHandle_t handle, hipsparseOperation_t opA, const void* alpha,
                                             const hipsparseSpMatDescr_t matA, const hipsparseDnVecDescr_t x,
                                             const hipsparseDnVecDescr_t y, hipDataType computeType,
                                             hipsparseSpSVAlg_t alg, hipsparseSpSVDescr_t spsvDescr) {
  size_t size = 0;
  hipsparseStatus_t status =
      hipsparseSpSV_bufferSize(handle, opA, alpha, matA, x, y, computeType, alg, spsvDescr, &size);
  if (status != HIPSPARSE_STATUS_SUCCESS) return status;
  void* buffer = nullptr;
  if (size > 0 && hipMalloc(&buffer, size) != hipSuccess) return HIPSPARSE_STATUS_ALLOC_FAILED;
  status = hipsparseSpSV_solve(handle, opA, alpha, matA, x, y, computeType, alg, spsvDescr, buffer);
  if (buffer != nullptr) (void)hipFree(buffer);
  return status;
}

#endif
#endif /* HIPPORT_HIPSPARSE_H */
