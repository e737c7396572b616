#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); return 1; } } while (0)

__constant__ float scale[1];

template <typename T, int N>
__global__ void saxpy(T a, const T* x, T* y, int n) {
  __shared__ T tile[N];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { tile[threadIdx.x] = x[i]; y[i] = a * tile[threadIdx.x] * scale[0] + y[i]; }
  T v = y[0];
  atomicAdd(&y[0], v);
  cg::thread_block b = cg::this_thread_block();
  b.sync();
}

int main() {
  int n = 1 << 20;
  float *x, *y, *m;
  cudaStream_t s; cudaEvent_t start, stop;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEventCreate(&start); cudaEventCreate(&stop);
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc((void**)&y, n * sizeof(float)));
  CHECK(cudaMallocManaged(&m, n * sizeof(float)));
  float h = 2.f;
  CHECK(cudaMemcpyToSymbol(scale, &h, sizeof(float)));
  cudaEventRecord(start, s);
  saxpy<float, 256><<<(n + 255) / 256, 256, 0, s>>>(2.0f, x, y, n);
  cudaEventRecord(stop, s);
  cudaStreamWaitEvent(s, stop);
  cudaEventSynchronize(stop);
  float ms; cudaEventElapsedTime(&ms, start, stop);
  cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);
  cudaFuncAttributes attr; cudaFuncGetAttributes(&attr, saxpy<float, 256>);
  CHECK(cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice, s));
  CHECK(cudaDeviceSynchronize());
  cudaFree(x); cudaFree(y); cudaFree(m);
  cudaStreamDestroy(s);
  return 0;
}
