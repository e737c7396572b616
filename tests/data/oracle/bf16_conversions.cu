// bfloat16 conversions printed bit for bit: built with nvcc against CUDA's cuda_bf16.h (the
// reference) and, translated by hipport, with hipcc against hip/hip_bf16.h; the outputs must agree.
#include <cuda_bf16.h>
#include <cmath>
#include <cstdio>

static unsigned bits(__nv_bfloat16 h) { return (unsigned)__bfloat16_as_ushort(h); }

int main() {
  const float special[] = {0.0f, -0.0f, 1.0f, 3.0e38f, 3.4e38f, 1e-40f, -1e-45f, INFINITY, -INFINITY, NAN};
  for (float v : special)
    std::printf("%04x %04x %04x %04x ", bits(__float2bfloat16(v)), bits(__float2bfloat16_rz(v)),
                bits(__float2bfloat16_rd(v)), bits(__float2bfloat16_ru(v)));
  std::printf("\n");
  for (int e = -30; e <= 30; e += 3)  // across binades, at points between and on the bf16 grid
    for (int i = 0; i < 64; ++i) {
      const float v = (i % 2 ? -1.0f : 1.0f) * std::ldexp(1.0f + i / 512.0f + i / 65536.0f, e);
      std::printf("%04x %04x %04x %04x ", bits(__float2bfloat16(v)), bits(__float2bfloat16_rz(v)),
                  bits(__float2bfloat16_rd(v)), bits(__float2bfloat16_ru(v)));
    }
  std::printf("\n");
  for (unsigned b = 0; b < 65536; b += 97)  // back to float: exact
    std::printf("%a ", __bfloat162float(__ushort_as_bfloat16((unsigned short)b)));
  std::printf("\n%04x %04x %g\n", bits(__double2bfloat16(1.0 / 3.0)), bits(__float2bfloat16_rn(2.5f)),
              __bfloat162float(__float2bfloat16(1.0f) + __float2bfloat16(0.00390625f)));
  return 0;
}
