// Monte Carlo estimate of pi with cuRAND: the host API fills a buffer of uniforms, the device
// API draws its own samples per thread; both estimates are compared at the end.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#define CUDA_CHECK(call)                                                        \
  do {                                                                          \
    cudaError_t err_ = (call);                                                  \
    if (err_ != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

#define CURAND_CHECK(call)                                                      \
  do {                                                                          \
    curandStatus_t st_ = (call);                                                \
    if (st_ != CURAND_STATUS_SUCCESS) {                                         \
      fprintf(stderr, "%s:%d: curand error %d\n", __FILE__, __LINE__, (int)st_); \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

__global__ void count_inside(const float* xy, int n, unsigned int* hits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = xy[2 * i], y = xy[2 * i + 1];
    if (x * x + y * y <= 1.0f) atomicAdd(hits, 1u);
  }
}

__global__ void setup_states(curandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void device_pi(curandState* states, int samples, unsigned int* hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned int inside = 0;
  for (int s = 0; s < samples; ++s) {
    float x = curand_uniform(&local);
    float y = curand_uniform(&local);
    if (x * x + y * y <= 1.0f) ++inside;
  }
  float2 g = curand_normal2(&local);  // exercise the normal distribution too
  if (g.x > 100.0f) ++inside;         // never true in practice; keeps g alive
  states[id] = local;
  atomicAdd(hits, inside);
}

int main() {
  const int n = 1 << 20;
  float* d_xy = nullptr;
  unsigned int* d_hits = nullptr;
  CUDA_CHECK(cudaMalloc(&d_xy, 2 * n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_hits, sizeof(unsigned int)));
  CUDA_CHECK(cudaMemset(d_hits, 0, sizeof(unsigned int)));

  curandGenerator_t gen;
  CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
  CURAND_CHECK(curandGenerateUniform(gen, d_xy, 2 * n));
  count_inside<<<(n + 255) / 256, 256>>>(d_xy, n, d_hits);
  CUDA_CHECK(cudaGetLastError());

  unsigned int host_hits = 0;
  CUDA_CHECK(cudaMemcpy(&host_hits, d_hits, sizeof(host_hits), cudaMemcpyDeviceToHost));
  printf("host API pi ~ %f\n", 4.0 * host_hits / n);

  const int threads = 256, blocks = 64, samples = 1000;
  curandState* d_states = nullptr;
  CUDA_CHECK(cudaMalloc(&d_states, threads * blocks * sizeof(curandState)));
  CUDA_CHECK(cudaMemset(d_hits, 0, sizeof(unsigned int)));
  setup_states<<<blocks, threads>>>(d_states, 42ULL);
  device_pi<<<blocks, threads>>>(d_states, samples, d_hits);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(&host_hits, d_hits, sizeof(host_hits), cudaMemcpyDeviceToHost));
  printf("device API pi ~ %f\n", 4.0 * host_hits / (double(threads) * blocks * samples));

  CURAND_CHECK(curandDestroyGenerator(gen));
  CUDA_CHECK(cudaFree(d_states));
  CUDA_CHECK(cudaFree(d_hits));
  CUDA_CHECK(cudaFree(d_xy));
  return 0;
}
