// Forward then inverse complex FFT of a signal; cuFFT's inverse is unnormalised, so a small
// kernel divides by N and the round trip must reproduce the input.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cufft.h>

#define CUFFT_CHECK(x) do { cufftResult r_ = (x); if (r_ != CUFFT_SUCCESS) { \
  printf("cuFFT error %d at line %d\n", (int)r_, __LINE__); return 1; } } while (0)

__global__ void scale(cufftComplex* data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    data[i].x *= factor;
    data[i].y *= factor;
  }
}

int main() {
  const int N = 1024, BATCH = 2;
  std::vector<cufftComplex> host(N * BATCH);
  for (int i = 0; i < N * BATCH; ++i) {
    host[i].x = std::sin(0.01f * i);
    host[i].y = 0.0f;
  }
  cufftComplex* dev = nullptr;
  cudaMalloc((void**)&dev, sizeof(cufftComplex) * N * BATCH);
  cudaMemcpy(dev, host.data(), sizeof(cufftComplex) * N * BATCH, cudaMemcpyHostToDevice);

  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cufftHandle plan;
  CUFFT_CHECK(cufftPlan1d(&plan, N, CUFFT_C2C, BATCH));
  CUFFT_CHECK(cufftSetStream(plan, stream));
  size_t work = 0;
  CUFFT_CHECK(cufftGetSize(plan, &work));
  CUFFT_CHECK(cufftExecC2C(plan, dev, dev, CUFFT_FORWARD));
  CUFFT_CHECK(cufftExecC2C(plan, dev, dev, CUFFT_INVERSE));
  scale<<<(N * BATCH + 255) / 256, 256, 0, stream>>>(dev, N * BATCH, 1.0f / N);
  cudaStreamSynchronize(stream);

  std::vector<cufftComplex> back(N * BATCH);
  cudaMemcpy(back.data(), dev, sizeof(cufftComplex) * N * BATCH, cudaMemcpyDeviceToHost);
  float err = 0.0f;
  for (int i = 0; i < N * BATCH; ++i) err = fmaxf(err, fabsf(back[i].x - host[i].x));
  printf("max round-trip error %g (work area %zu bytes)\n", err, work);

  int version = 0;
  CUFFT_CHECK(cufftGetVersion(&version));
  CUFFT_CHECK(cufftDestroy(plan));
  cudaStreamDestroy(stream);
  cudaFree(dev);
  return err < 1e-3f ? 0 : 1;
}
