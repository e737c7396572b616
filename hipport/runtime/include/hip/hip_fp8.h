/* hip/hip_fp8.h as hipport ships it: HIP's own header where the installed HIP has one (ROCm 6.2
 * and later), otherwise hipport's OCP FP8 types and conversions (hipport/fp8.h).
 *
 * Why: `cuda_fp8.h` translates to `hip/hip_fp8.h` (as hipify-clang writes), which the HIP that
 * Debian and Ubuntu ship (5.2) does not have; with hipport's include directory on the path the
 * translated file compiles there too, and on a newer HIP this file steps aside for the real one.
 */
#if defined(__has_include_next)
#  if __has_include_next(<hip/hip_fp8.h>)
#    include_next <hip/hip_fp8.h>
#    define HIPPORT_NATIVE_HIP_FP8 1
#  endif
#endif

#if !defined(HIPPORT_NATIVE_HIP_FP8)
#  include <hipport/fp8.h>
#endif
