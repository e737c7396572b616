// Warp-synchronous intrinsics (CUDA 9+ *_sync forms) and cooperative-groups reductions.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__inline__ __device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void vote(const int* in, unsigned long long* out, float* sums) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned long long mask = __ballot_sync(__activemask(), v > 0);
  if (__any_sync(0xffffffff, v < 0)) __syncwarp();
  float s = warp_sum(static_cast<float>(v));
  s = __shfl_sync(0xffffffff, s, 0);
  if (threadIdx.x == 0) { out[blockIdx.x] = mask; sums[blockIdx.x] = s; }
}

int main() {
  int* in; unsigned long long* out; float* sums;
  cudaMalloc(&in, 256 * sizeof(int));
  cudaMalloc(&out, 4 * sizeof(unsigned long long));
  cudaMalloc(&sums, 4 * sizeof(float));
  vote<<<4, 64>>>(in, out, sums);
  cudaDeviceSynchronize();
  cudaFree(in); cudaFree(out); cudaFree(sums);
  return 0;
}
