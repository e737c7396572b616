// pi ~ 4 * (points inside the unit quarter circle) / (points drawn).
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#define CUDA_OK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  std::printf("%s: %s\n", #call, cudaGetErrorString(e)); return 1; } } while (0)
#define CURAND_OK(call) do { curandStatus_t s = (call); if (s != CURAND_STATUS_SUCCESS) { \
  std::printf("%s: cuRAND status %d\n", #call, int(s)); return 1; } } while (0)

__global__ void setup(curandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void count_inside(curandState* states, int per_thread, unsigned long long* hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned long long inside = 0;
  for (int i = 0; i < per_thread; ++i) {
    float x = curand_uniform(&local), y = curand_uniform(&local);
    inside += x * x + y * y <= 1.0f;
  }
  states[id] = local;
  atomicAdd(hits, inside);
}

__global__ void count_pairs(const float* xy, int pairs, unsigned long long* hits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) {
    float x = xy[2 * i], y = xy[2 * i + 1];
    if (x * x + y * y <= 1.0f) atomicAdd(hits, 1ULL);
  }
}

int main() {
  const int blocks = 64, threads = 128, per_thread = 4096, n = blocks * threads;
  curandState* states;
  unsigned long long* hits;
  CUDA_OK(cudaMalloc(&states, n * sizeof(curandState)));
  CUDA_OK(cudaMalloc(&hits, sizeof(unsigned long long)));
  CUDA_OK(cudaMemset(hits, 0, sizeof(unsigned long long)));
  setup<<<blocks, threads>>>(states, 1234ULL);
  count_inside<<<blocks, threads>>>(states, per_thread, hits);
  unsigned long long inside = 0;
  CUDA_OK(cudaMemcpy(&inside, hits, sizeof inside, cudaMemcpyDeviceToHost));
  double device_pi = 4.0 * double(inside) / (double(n) * per_thread);

  // Host API: a generator fills a device buffer with uniform numbers.
  const int pairs = 1 << 20;
  float* xy;
  curandGenerator_t gen;
  CUDA_OK(cudaMalloc(&xy, 2 * pairs * sizeof(float)));
  CURAND_OK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
  CURAND_OK(curandSetPseudoRandomGeneratorSeed(gen, 42ULL));
  CURAND_OK(curandGenerateUniform(gen, xy, 2 * pairs));
  CUDA_OK(cudaMemset(hits, 0, sizeof(unsigned long long)));
  count_pairs<<<(pairs + 255) / 256, 256>>>(xy, pairs, hits);
  CUDA_OK(cudaMemcpy(&inside, hits, sizeof inside, cudaMemcpyDeviceToHost));
  double host_pi = 4.0 * double(inside) / pairs;

  std::printf("pi ~ %.5f (device API), %.5f (host API)\n", device_pi, host_pi);
  CURAND_OK(curandDestroyGenerator(gen));
  CUDA_OK(cudaFree(xy));
  CUDA_OK(cudaFree(states));
  CUDA_OK(cudaFree(hits));
  return (device_pi > 3.1 && device_pi < 3.2 && host_pi > 3.1 && host_pi < 3.2) ? 0 : 1;
}
