#include <hip/hip_runtime.h>

__global__ void saxpy_kernel(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int saxpy(int n, float a, const float* x, float* y) {
  float *dx = nullptr, *dy = nullptr;
  if (hipMalloc(&dx, n * sizeof(float)) != hipSuccess) return 1;
  if (hipMalloc(&dy, n * sizeof(float)) != hipSuccess) return 1;
  hipMemcpy(dx, x, n * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(dy, y, n * sizeof(float), hipMemcpyHostToDevice);
  saxpy_kernel<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  hipMemcpy(y, dy, n * sizeof(float), hipMemcpyDeviceToHost);
  hipFree(dx);
  hipFree(dy);
  return 0;
}
