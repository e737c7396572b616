// y = a*x + y over N floats, in chunks: each chunk's host-to-device copy, kernel and copy back
// are queued on one of two streams so that transfers overlap computation.  Events time the run.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "check.cuh"

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 22, chunks = 8, chunk = n / chunks, threads = 256;
  const float a = 2.0f;
  float *hx, *hy, *dx, *dy;
  CHECK_CUDA(cudaMallocHost(&hx, n * sizeof(float)));  // pinned: required for async copies
  CHECK_CUDA(cudaMallocHost(&hy, n * sizeof(float)));
  for (int i = 0; i < n; ++i) { hx[i] = 1.0f; hy[i] = 2.0f; }
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dy, n * sizeof(float)));

  cudaStream_t streams[2];
  for (auto& s : streams) CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));

  CHECK_CUDA(cudaEventRecord(start, streams[0]));
  for (int c = 0; c < chunks; ++c) {
    cudaStream_t s = streams[c % 2];
    size_t off = size_t(c) * chunk, bytes = chunk * sizeof(float);
    CHECK_CUDA(cudaMemcpyAsync(dx + off, hx + off, bytes, cudaMemcpyHostToDevice, s));
    CHECK_CUDA(cudaMemcpyAsync(dy + off, hy + off, bytes, cudaMemcpyHostToDevice, s));
    saxpy<<<(chunk + threads - 1) / threads, threads, 0, s>>>(chunk, a, dx + off, dy + off);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpyAsync(hy + off, dy + off, bytes, cudaMemcpyDeviceToHost, s));
  }
  CHECK_CUDA(cudaStreamSynchronize(streams[1]));
  CHECK_CUDA(cudaEventRecord(stop, streams[0]));
  CHECK_CUDA(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));

  int bad = 0;
  for (int i = 0; i < n; ++i) bad += hy[i] != 4.0f;
  std::printf("saxpy: %d floats in %.3f ms, %d wrong\n", n, ms, bad);

  for (auto& s : streams) CHECK_CUDA(cudaStreamDestroy(s));
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  CHECK_CUDA(cudaFree(dx));
  CHECK_CUDA(cudaFree(dy));
  CHECK_CUDA(cudaFreeHost(hx));
  CHECK_CUDA(cudaFreeHost(hy));
  return bad != 0;
}
