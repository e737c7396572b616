/* hipport/warp.h — warp width and lane masks that are right on both platforms.
 *
 * Why: CUDA code hard-codes a 32-lane warp: the literal 32, `0xffffffff` masks, `unsigned`
 * ballot results.  AMD's CDNA GPUs run 64-lane wavefronts, so those spellings silently drop
 * half the lanes.  The translator's warp-size diagnostics point their fix hints here:
 *
 *   hipport::lane_mask_t     64-bit on AMD (wave64 and wave32 alike), 32-bit on NVIDIA
 *   HIPPORT_FULL_LANE_MASK   every lane of the warp, as a lane_mask_t
 *   HIPPORT_MAX_WARP_SIZE    compile-time upper bound (64 on AMD, 32 on NVIDIA) for array sizes
 *   hipport::warp_size()     the real width: in device code the target's wavefront size, in host
 *                            code the current device's hipDeviceAttributeWarpSize
 *   hipport::lane_id(), hipport::ballot(pred), hipport::active_mask()   lane_mask_t-typed helpers
 */
#ifndef HIPPORT_WARP_H
#define HIPPORT_WARP_H

#include <hip/hip_runtime.h>
#include <stdint.h>

#include <hipport/version.h>

namespace hipport {

#if defined(HIPPORT_PLATFORM_AMD)
typedef uint64_t lane_mask_t;
#  define HIPPORT_FULL_LANE_MASK (static_cast< ::hipport::lane_mask_t>(~0ull))
#  define HIPPORT_MAX_WARP_SIZE 64
#else
typedef uint32_t lane_mask_t;
#  define HIPPORT_FULL_LANE_MASK (static_cast< ::hipport::lane_mask_t>(0xffffffffu))
#  define HIPPORT_MAX_WARP_SIZE 32
#endif

/* Device side: the compiler knows the wavefront size of the target being compiled (warpSize).
 * Host side: ask the runtime about the current device, once per device. */
__host__ __device__ inline int warp_size() {
#if defined(__HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__)
  return warpSize;
#else
  int device = 0;
  if (hipGetDevice(&device) != hipSuccess) return HIPPORT_MAX_WARP_SIZE;
  int width = 0;
  if (hipDeviceGetAttribute(&width, hipDeviceAttributeWarpSize, device) != hipSuccess || width <= 0)
    return HIPPORT_MAX_WARP_SIZE;
  return width;
#endif
}

#if defined(__HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__) || defined(__HIPCC__) || defined(__CUDACC__)
__device__ inline unsigned lane_id() {
#if defined(HIPPORT_PLATFORM_AMD)
  return __lane_id();
#else
  return threadIdx.x % 32u;  /* NVIDIA: 1-D blocks; matches %laneid for them */
#endif
}

__device__ inline lane_mask_t ballot(int predicate) {
#if defined(HIPPORT_PLATFORM_AMD)
  return static_cast<lane_mask_t>(__ballot(predicate));
#else
  return __ballot_sync(__activemask(), predicate);
#endif
}

__device__ inline lane_mask_t active_mask() {
#if defined(HIPPORT_PLATFORM_AMD)
  return static_cast<lane_mask_t>(__ballot(1));
#else
  return __activemask();
#endif
}
#endif

}  // namespace hipport

#endif /* HIPPORT_WARP_H */
