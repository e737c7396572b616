/* hip/hip_bf16.h as hipport ships it: HIP's own header where the installed HIP has one (ROCm 5.7
 * and later), otherwise hipport's __hip_bfloat16.
 *
 * Why: `cuda_bf16.h` translates to `hip/hip_bf16.h` (as hipify-clang writes), which the HIP that
 * Debian and Ubuntu ship (5.2) does not have; with hipport's include directory on the path the
 * translated file compiles there too, and on a newer HIP this file steps aside for the real one.
 */
#if defined(__has_include_next)
#  if __has_include_next(<hip/hip_bf16.h>)
#    include_next <hip/hip_bf16.h>
#    define HIPPORT_NATIVE_HIP_BF16 1
#  endif
#endif

#if !defined(HIPPORT_NATIVE_HIP_BF16)
#  include <hipport/bf16.h>
#endif
