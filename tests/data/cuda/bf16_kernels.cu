// bfloat16 kernels: conversions, operators, bf162 math, a full-warp shuffle and atomicAdd.
#include <cuda_bf16.h>
#include <cstdio>
__global__ void scale(__nv_bfloat16* x, __nv_bfloat162* y, float s, int n, __nv_bfloat16* sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat16 v = x[i] * __float2bfloat16(s);
  v += __hmax(v, __habs(x[i]));
  float f = __bfloat162float(v) + static_cast<float>(x[i]);
  y[i] = __hfma2(y[i], __float2bfloat162_rn(s), __floats2bfloat162_rn(f, 1.0f));
  y[i] = h2exp(y[i]);
  v = __shfl_down_sync(0xffffffff, v, 1);
  v = hsqrt(v) + __low2bfloat16(y[i]);
  atomicAdd(sum, v);
  if (__hgt(v, x[i])) x[i] = v;
  x[i] = __short2bfloat16_rn(static_cast<short>(__bfloat162int_rn(v) + __bfloat162char_rz(v)));
}
int main() {
  __nv_bfloat16 h = 1.5f;
  float back = h;
  std::printf("%f %f\n", back, __bfloat162float(__float2bfloat16_rz(3.14159f)));
  return 0;
}
