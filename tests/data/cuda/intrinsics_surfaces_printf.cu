// Device intrinsics, texture and surface objects, math_constants.h and a device printf of built-in indices.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <math_constants.h>
#include <cstdio>
#include <thread>
// One function for both sides, split the way CUDA code splits it.
__host__ __device__ inline unsigned lanes_or_threads() {
#ifdef __CUDA_ARCH__
  return blockDim.x;
#else
  return std::thread::hardware_concurrency();
#endif
}
__device__ __forceinline__ float warp_sum(float v) {
  #pragma unroll
  for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__global__ void __launch_bounds__(256, 2) kernel(const float4* __restrict__ in, float* out, cudaTextureObject_t tex,
                                                cudaSurfaceObject_t surf, __half2* h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = __ldg(&in[i]);
  float s = v.x + v.y + v.z + v.w;
  int any = __syncthreads_or(s > 0), cnt = __syncthreads_count(s > 1), all = __syncthreads_and(s > 2);
  unsigned b = __brev(i) ^ __clz(i) ^ __ffs(i) ^ __popc(i) ^ __byte_perm(i, 0, 0x3210) ^ __funnelshift_l(i, i, 3);
  unsigned long long t0 = clock64(); long long t1 = clock();
  float f = __fdividef(s, 3.f) + __saturatef(s) + __frcp_rn(s + 1) + __fsqrt_rn(fabsf(s)) + rsqrtf(2.f) + normf(1, &s);
  float sp, cp; sincospif(s, &sp, &cp);
  int r = __float2int_rn(f) + __mul24(i, 2) + __umulhi(i, 3) + __sad(i, 1, 0);
  double d = __longlong_as_double(__double_as_longlong(1.0)) * CUDART_PI;
  float tv = tex2D<float>(tex, 0.5f, 0.5f) + tex1Dfetch<float>(tex, i);
  surf2Dwrite(tv, surf, 0, 0);
  __half2 a = h[i], c = __hadd2(a, a);
  c = __hmul2(c, __float2half2_rn(2.f));
  float lo = __low2float(c) + __high2float(c);
  c = h2exp(c);
  h[i] = __floats2half2_rn(lo, (float)d);
  out[i] = lanes_or_threads() + warp_sum(f + b + r + any + cnt + all + sp + cp + (float)(t0 + t1) + tv + CUDART_INF_F);
  if (i == 0) printf("block %d %f\n", blockIdx.x, out[0]);
  asm volatile("" ::: "memory");
}
int main() {
  std::printf("%u host threads\n", lanes_or_threads());
  cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeLinear;
  float* buf; cudaMalloc(&buf, 1024);
  rd.res.linear.devPtr = buf; rd.res.linear.desc = cudaCreateChannelDesc<float>(); rd.res.linear.sizeInBytes = 1024;
  cudaTextureDesc td = {}; td.readMode = cudaReadModeElementType; td.filterMode = cudaFilterModePoint; td.addressMode[0] = cudaAddressModeClamp;
  cudaTextureObject_t tex; cudaCreateTextureObject(&tex, &rd, &td, nullptr);
  cudaArray_t arr; cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaMallocArray(&arr, &cd, 16, 16, cudaArraySurfaceLoadStore);
  cudaResourceDesc sd = {}; sd.resType = cudaResourceTypeArray; sd.res.array.array = arr;
  cudaSurfaceObject_t surf; cudaCreateSurfaceObject(&surf, &sd);
  float h[256] = {};
  cudaMemcpy2DToArray(arr, 0, 0, h, 16 * sizeof(float), 16 * sizeof(float), 16, cudaMemcpyHostToDevice);
  kernel<<<1, 256>>>((const float4*)buf, buf, tex, surf, nullptr, 0);
  cudaDestroySurfaceObject(surf); cudaDestroyTextureObject(tex); cudaFreeArray(arr); cudaFree(buf);
}
