// Block-wide sum in shared memory, then the last warp finishes with __shfl_down_sync.
// Written the way CUDA code usually is: it assumes 32-lane warps and a 32-bit full mask,
// which the port flags (AMD wavefronts have 64 lanes) — see the conversion report.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                             \
  do {                                                                          \
    cudaError_t e = (call);                                                     \
    if (e != cudaSuccess) {                                                     \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(e));             \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

constexpr int kThreads = 256;

__device__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float partial[kThreads];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    v += in[i];
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride >= warpSize; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x < warpSize) {
    v = warp_sum(partial[threadIdx.x]);
    if (threadIdx.x == 0) atomicAdd(out, v);
  }
}

int main() {
  const int n = 1 << 24;
  std::vector<float> host(n, 1.0f);
  float *d_in, *d_out, sum = 0.0f;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, sizeof(float)));
  CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, sizeof(float)));
  int device = 0, sms = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  block_sum<<<sms * 4, kThreads>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&sum, d_out, sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("sum = %.0f (expected %d)\n", sum, n);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return sum == float(n) ? 0 : 1;
}
