#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>
#include <cstdio>
#include "scale.h"

__global__ void twice(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto f = [] __device__(float x) { return scale(x); };
  if (i < n) v[i] = f(v[i]);
}

int main() {
  float* d = nullptr;
  if (hipMalloc(&d, 256 * sizeof(float)) != hipSuccess) { std::puts("no device"); return 0; }
  hiprandGenerator_t gen;
  hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_DEFAULT);
  hiprandGenerateUniform(gen, d, 256);
  twice<<<1, 256>>>(d, 256);
  hipFree(d);
  return 0;
}
