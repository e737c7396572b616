/* hipport/runtime.h — everything the hipport runtime shim offers, in one include.
 *
 * The translator adds `#include <hipport/runtime.h>` when --caching-allocator rewrites
 * cudaMalloc/cudaFree; <hipport/compat.h> is separate because it is needed only by files
 * that use device intrinsics missing from older HIP.
 *   <hipport/version.h>    USE_ROCM, ROCM_VERSION, HIPPORT_ROCM_AT_LEAST
 *   <hipport/allocator.h>  hipportMalloc & co (C), hipport::allocate & co (C++)
 *   <hipport/warp.h>       hipport::lane_mask_t, HIPPORT_FULL_LANE_MASK, hipport::warp_size()
 */
#ifndef HIPPORT_RUNTIME_H
#define HIPPORT_RUNTIME_H

#include <hipport/version.h>
#include <hipport/allocator.h>

#if defined(__cplusplus) && !defined(HIPPORT_HOST_BACKEND)
#  include <hipport/warp.h>
#endif

#endif /* HIPPORT_RUNTIME_H */
