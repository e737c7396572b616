// FP8 conversions printed bit for bit: built with nvcc against CUDA's cuda_fp8.h (the reference)
// and, translated by hipport, with hipcc against hipport's hip/hip_fp8.h; the outputs must agree.
#include <cuda_fp8.h>
#include <cmath>
#include <cstdio>

static void convert(float v) {
  for (int f = 0; f < 2; ++f)
    for (int s = 0; s < 2; ++s)
      std::printf("%02x ", (unsigned)__nv_cvt_float_to_fp8(v, s ? __NV_SATFINITE : __NV_NOSAT, f ? __NV_E5M2 : __NV_E4M3));
}

int main() {
  const float special[] = {0.0f, -0.0f, 448.0f, 464.0f, 470.0f, 57344.0f, 61440.0f, 1e6f, 1e-10f,
                           INFINITY, -INFINITY, NAN};
  for (float v : special) convert(v);
  for (int e = -20; e <= 17; ++e)  // every binade the two formats cover, at 64 points and their midpoints
    for (int i = 0; i < 128; ++i) convert((i % 2 ? -1.0f : 1.0f) * std::ldexp(1.0f + i / 128.0f, e));
  std::printf("\n");
  for (int b = 0; b < 256; ++b)
    for (int f = 0; f < 2; ++f)
      std::printf("%04x ", (unsigned)__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)b, f ? __NV_E5M2 : __NV_E4M3).x);
  std::printf("\n%02x %02x %g %g\n", (unsigned)__nv_fp8_e4m3(3.3f).__x, (unsigned)__nv_fp8_e5m2(-1e9f).__x,
              (float)__nv_fp8_e4m3(0.1f), (float)__nv_fp8_e5m2(2.5f));
  const float4 quad = static_cast<float4>(__nv_fp8x4_e4m3(make_float4(1.0f, -2.5f, 0.3f, 1000.0f)));
  const float2 pair = static_cast<float2>(__nv_fp8x2_e5m2(make_float2(3.3f, -0.001f)));
  std::printf("%08x %04x %g %g %g %g %g %g\n", (unsigned)__nv_fp8x4_e4m3(make_float4(1.0f, -2.5f, 0.3f, 1000.0f)).__x,
              (unsigned)__nv_fp8x2_e5m2(make_float2(3.3f, -0.001f)).__x, quad.x, quad.y, quad.z, quad.w, pair.x, pair.y);
  return 0;
}
