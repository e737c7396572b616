#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void grid_sum(const int* in, int* out, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  int i = grid.thread_rank();
  if (i < n) atomicAdd(out, in[i]);
  block.sync();
  grid.sync();
}

// a tile of a tile, and tile matches: HIP 5.2 has neither (hipport/compat.h does)
__global__ void quad_matches(const int* in, unsigned long long* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<8> quad = cg::tiled_partition<8>(warp);
  int v = in[block.thread_rank()];
  for (int off = quad.size() / 2; off > 0; off /= 2) v += quad.shfl_down(v, off);
  int all_same = 0;
  unsigned long long peers = warp.match_any(v & 3) + warp.match_all(v, all_same);
  if (quad.thread_rank() == 0) out[block.thread_rank() / 8] = peers + all_same + warp.ballot(v > 0);
}

int main() {
  int n = 4096, *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(out, 0, sizeof(int));
  int dev = 0, supports = 0;
  cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, dev);
  int blocks_per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, grid_sum, 256, 0);
  void* args[] = {&in, &out, &n};
  if (supports)
    cudaLaunchCooperativeKernel((void*)grid_sum, dim3(16), dim3(256), args, 0, 0);
  cudaFuncSetCacheConfig(grid_sum, cudaFuncCachePreferShared);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
