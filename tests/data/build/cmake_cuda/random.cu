#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>
#include <hipsparse/hipsparse.h>

int fill_random(float* d, int n) {
  hiprandGenerator_t gen;
  if (hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_DEFAULT) != HIPRAND_STATUS_SUCCESS) return 1;
  hiprandGenerateUniform(gen, d, n);
  hiprandDestroyGenerator(gen);
  hipsparseHandle_t handle;
  if (hipsparseCreate(&handle) != HIPSPARSE_STATUS_SUCCESS) return 1;
  hipsparseDestroy(handle);
  return 0;
}
