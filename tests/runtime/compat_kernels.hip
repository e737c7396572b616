// Real CUDA-style kernels, as the translator leaves them, that only compile on HIP 5.2 with
// <hipport/compat.h>: warp-sync shuffles and votes, __syncwarp, match, __reduce_*_sync,
// cooperative-groups reduce and meta_group_rank, typed host allocation overloads.
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <hipport/compat.h>
#include <hipport/version.h>
#include <hipport/warp.h>

namespace cg = cooperative_groups;

#if !defined(USE_ROCM) || !defined(ROCM_VERSION)
#error "version.h must define USE_ROCM and ROCM_VERSION on AMD builds"
#endif
#if !HIPPORT_ROCM_AT_LEAST(5, 2) || HIPPORT_ROCM_AT_LEAST(99, 0)
#error "HIPPORT_ROCM_AT_LEAST must compare against the installed version"
#endif

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void reduce_rows(const float* in, float* out, int n) {
  float v = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) v += in[blockIdx.x * n + i];
  v = warp_sum(v);
  v = __shfl_sync(0xffffffffu, v, 0);
  v += __shfl_xor_sync(0xffffffffu, v, 1, 16);
  v += __shfl_up_sync(0xffffffffu, v, 1);
  if (threadIdx.x % 32 == 0) atomicAdd(out + blockIdx.x, v);
}

__global__ void votes(const int* flags, unsigned long long* out) {
  int f = flags[threadIdx.x];
  unsigned mask = __activemask();
  auto b = __ballot_sync(mask, f);
  int all = __all_sync(0xffffffff, f);
  int any = __any_sync(hipport::ballot(1), f) + __any_sync(-1, f) + __all_sync(~0u, f);
  __syncwarp();
  __syncwarp(mask);
  int pred = 0;
  auto same = __match_any_sync(0xffffffffu, f);
  auto every = __match_all_sync(0xffffffffu, 1.0f * f, &pred);
  unsigned long long full = HIPPORT_FULL_LANE_MASK;
  out[threadIdx.x] = b + all + any + same + every + pred + (full & 1) + hipport::lane_id() +
                     hipport::active_mask() + static_cast<unsigned long long>(hipport::warp_size());
}

__global__ void reductions(const int* in, int* out) {
  int v = in[threadIdx.x];
  int s = __reduce_add_sync(0xffffffffu, v);
  int lo = __reduce_min_sync(0xffffffffu, v);
  unsigned hi = __reduce_max_sync(0xffffffffu, static_cast<unsigned>(v));
  unsigned x = __reduce_xor_sync(0xffffffffu, static_cast<unsigned>(v)) |
               __reduce_and_sync(0xffffu, 7u) | __reduce_or_sync(0x1u, 1u);
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int t = cg::reduce(tile, v, cg::plus<int>());
  int m = cg::reduce(tile, v, cg::greater<int>());
  int c = cg::reduce(cg::coalesced_threads(), v, cg::less<int>());
  unsigned r = hipport::meta_group_rank(tile) + hipport::meta_group_size(tile);
  out[threadIdx.x] = s + lo + static_cast<int>(hi + x + r) + t + m + c;
}

__shared__ float staging[HIPPORT_MAX_WARP_SIZE];
__device__ float device_table[16];

void host_side(size_t n) {
  float* pinned = nullptr;
  double* pitched = nullptr;
  size_t pitch = 0;
  (void)hipHostAlloc(&pinned, n * sizeof(float), hipHostMallocDefault);
  (void)hipHostAlloc(&pinned, n * sizeof(float), 0u);
  (void)hipMallocPitch(&pitched, &pitch, 16, 16);
  (void)hipMallocPitch(&pitched, &pitch, size_t(16), size_t(16));
  void* raw = nullptr;
  (void)hipHostAlloc(&raw, 16, 0);
  float* mapped = nullptr;
  (void)hipHostGetDevicePointer(&mapped, pinned, 0);
  (void)hipHostGetDevicePointer(&raw, pinned, 0u);
  float* staged = nullptr;
  (void)hipGetSymbolAddress(&staged, HIP_SYMBOL(device_table));
  (void)hipGetSymbolAddress(&raw, HIP_SYMBOL(device_table));
  (void)hipport::warp_size();
}
