/* hipport/fp8.h: OCP FP8 (E4M3, E5M2) for HIP before 6.2, as CUDA's cuda_fp8.h spells it in HIP's names
 * (hip/hip_fp8.h).  Reached through hipport's hip/hip_fp8.h, which prefers the installed HIP's header.
 *
 * Why: cuda_fp8.h translates to hip/hip_fp8.h and __nv_fp8_e4m3 to __hip_fp8_e4m3 (the OCP encoding NVIDIA
 * uses, not the _fnuz one of gfx94x), which HIP declares only since ROCm 6.2.  The conversions round to
 * nearest even as CUDA's do; with __HIP_NOSAT an overflow gives NaN (E4M3, which has no infinity) or
 * infinity (E5M2), with __HIP_SATFINITE the largest finite value.  Host and device code.
 */
#ifndef HIPPORT_FP8_H
#define HIPPORT_FP8_H

#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>
#include <math.h>
#include <stdint.h>

typedef unsigned char __hip_fp8_storage_t;
typedef unsigned short int __hip_fp8x2_storage_t;
typedef unsigned int __hip_fp8x4_storage_t;

typedef enum __hip_saturation_t { __HIP_NOSAT = 0, __HIP_SATFINITE = 1 } __hip_saturation_t;
typedef enum __hip_fp8_interpretation_t { __HIP_E4M3 = 0, __HIP_E5M2 = 1 } __hip_fp8_interpretation_t;

namespace hipport {
namespace fp8_detail {
struct Format {
  int mantissa_bits, min_exponent;  /* the smallest normal exponent: 1 - bias */
  double max_finite;
  unsigned char nan, infinity, max_bits;
};
__host__ __device__ inline Format format(__hip_fp8_interpretation_t f) {
  return f == __HIP_E5M2 ? Format{2, -14, 57344.0, 0x7F, 0x7C, 0x7B}
                         : Format{3, -6, 448.0, 0x7F, 0x7F, 0x7E};
}
/* round to nearest even onto the format's grid (exact: the steps are powers of two) and encode */
__host__ __device__ inline __hip_fp8_storage_t encode(double x, __hip_saturation_t sat, __hip_fp8_interpretation_t f) {
  const Format fm = format(f);
  const unsigned char sign = signbit(x) ? 0x80 : 0x00;
  if (isnan(x)) return static_cast<__hip_fp8_storage_t>(sign | fm.nan);
  double a = fabs(x);
  int e = 0;
  frexp(a, &e);  /* a = m * 2^e, 0.5 <= m < 1: the leading bit has exponent e - 1 */
  const int lead = a == 0.0 ? fm.min_exponent : (e - 1 < fm.min_exponent ? fm.min_exponent : e - 1);
  const double step = ldexp(1.0, lead - fm.mantissa_bits);
  const double q = isinf(a) ? a : rint(a / step) * step;
  if (q > fm.max_finite)  /* overflow after rounding: 464 still rounds to E4M3's 448, 470 does not */
    return static_cast<__hip_fp8_storage_t>(sign | (sat == __HIP_SATFINITE ? fm.max_bits : fm.infinity));
  int qe = 0;
  frexp(q, &qe);
  if (q == 0.0) return sign;
  if (qe - 1 < fm.min_exponent)  /* subnormal: exponent field 0 */
    return static_cast<__hip_fp8_storage_t>(sign | static_cast<unsigned>(q / ldexp(1.0, fm.min_exponent - fm.mantissa_bits)));
  const int bias = 1 - fm.min_exponent;
  const unsigned mant = static_cast<unsigned>(q / ldexp(1.0, qe - 1 - fm.mantissa_bits)) - (1u << fm.mantissa_bits);
  return static_cast<__hip_fp8_storage_t>(sign | ((qe - 1 + bias) << fm.mantissa_bits) | mant);
}
__host__ __device__ inline float decode(__hip_fp8_storage_t v, __hip_fp8_interpretation_t f) {
  const Format fm = format(f);
  const float sign = (v & 0x80) ? -1.0f : 1.0f;
  const unsigned bits = v & 0x7F;
  const unsigned exp_field = bits >> fm.mantissa_bits, mant = bits & ((1u << fm.mantissa_bits) - 1);
  const unsigned top = 0x7Fu >> fm.mantissa_bits;
  if (f == __HIP_E4M3 && bits == 0x7F) return NAN;
  if (f == __HIP_E5M2 && exp_field == top) return mant ? NAN : sign * INFINITY;
  if (exp_field == 0) return sign * ldexpf(static_cast<float>(mant), fm.min_exponent - fm.mantissa_bits);
  return sign * ldexpf(static_cast<float>(mant | (1u << fm.mantissa_bits)),
                       static_cast<int>(exp_field) - (1 - fm.min_exponent) - fm.mantissa_bits);
}
/* the low byte is the first value, as CUDA packs pairs and quads */
__host__ __device__ inline float2 decode_pair(unsigned int bits, __hip_fp8_interpretation_t f) {
  return make_float2(decode(static_cast<__hip_fp8_storage_t>(bits & 0xFF), f),
                     decode(static_cast<__hip_fp8_storage_t>((bits >> 8) & 0xFF), f));
}
}  // namespace fp8_detail
}  // namespace hipport

__host__ __device__ inline __hip_fp8_storage_t __hip_cvt_double_to_fp8(double x, __hip_saturation_t sat,
                                                                        __hip_fp8_interpretation_t f) {
  return hipport::fp8_detail::encode(x, sat, f);
}
__host__ __device__ inline __hip_fp8_storage_t __hip_cvt_float_to_fp8(float x, __hip_saturation_t sat,
                                                                       __hip_fp8_interpretation_t f) {
  return hipport::fp8_detail::encode(x, sat, f);
}
__host__ __device__ inline __hip_fp8x2_storage_t __hip_cvt_float2_to_fp8x2(float2 x, __hip_saturation_t sat,
                                                                           __hip_fp8_interpretation_t f) {
  return static_cast<__hip_fp8x2_storage_t>(__hip_cvt_float_to_fp8(x.x, sat, f) |
                                            (__hip_cvt_float_to_fp8(x.y, sat, f) << 8));
}
__host__ __device__ inline __hip_fp8x2_storage_t __hip_cvt_double2_to_fp8x2(double2 x, __hip_saturation_t sat,
                                                                            __hip_fp8_interpretation_t f) {
  return static_cast<__hip_fp8x2_storage_t>(__hip_cvt_double_to_fp8(x.x, sat, f) |
                                            (__hip_cvt_double_to_fp8(x.y, sat, f) << 8));
}
__host__ __device__ inline __hip_fp8_storage_t __hip_cvt_halfraw_to_fp8(__half_raw x, __hip_saturation_t sat,
                                                                         __hip_fp8_interpretation_t f) {
  return __hip_cvt_float_to_fp8(__half2float(__half(x)), sat, f);
}
__host__ __device__ inline __hip_fp8x2_storage_t __hip_cvt_halfraw2_to_fp8x2(__half2_raw x, __hip_saturation_t sat,
                                                                             __hip_fp8_interpretation_t f) {
  __half_raw lo, hi;
  lo.x = x.x;
  hi.x = x.y;
  return static_cast<__hip_fp8x2_storage_t>(__hip_cvt_halfraw_to_fp8(lo, sat, f) |
                                            (__hip_cvt_halfraw_to_fp8(hi, sat, f) << 8));
}
__host__ __device__ inline __hip_fp8_storage_t __hip_cvt_bfloat16raw_to_fp8(__hip_bfloat16_raw x, __hip_saturation_t sat,
                                                                             __hip_fp8_interpretation_t f) {
  return __hip_cvt_float_to_fp8(__bfloat162float(__hip_bfloat16(x)), sat, f);
}
__host__ __device__ inline __half_raw __hip_cvt_fp8_to_halfraw(__hip_fp8_storage_t x, __hip_fp8_interpretation_t f) {
  const float v = hipport::fp8_detail::decode(x, f);
  if (v != v) {  /* every NaN becomes the half NaN CUDA writes */
    __half_raw nan;
    nan.x = 0x7FFF;
    return nan;
  }
  return __half_raw(__float2half(v));  /* exact: FP8 values are halves */
}
__host__ __device__ inline __half2_raw __hip_cvt_fp8x2_to_halfraw2(__hip_fp8x2_storage_t x, __hip_fp8_interpretation_t f) {
  __half2_raw r;
  r.x = __hip_cvt_fp8_to_halfraw(static_cast<__hip_fp8_storage_t>(x & 0xFF), f).x;
  r.y = __hip_cvt_fp8_to_halfraw(static_cast<__hip_fp8_storage_t>(x >> 8), f).x;
  return r;
}

/* The scalar, pair and quad types: storage plus CUDA's conversions (nearest even, saturating). */
#define HIPPORT_FP8_TYPE(name, interp)                                                                          \
  struct name {                                                                                                 \
    __hip_fp8_storage_t __x;                                                                                    \
    name() = default;                                                                                           \
    __host__ __device__ explicit name(float f) : __x(__hip_cvt_float_to_fp8(f, __HIP_SATFINITE, interp)) {}     \
    __host__ __device__ explicit name(double d) : __x(__hip_cvt_double_to_fp8(d, __HIP_SATFINITE, interp)) {}   \
    __host__ __device__ explicit name(__half h) : name(__half2float(h)) {}                                      \
    __host__ __device__ explicit name(__hip_bfloat16 b) : name(__bfloat162float(b)) {}                          \
    __host__ __device__ explicit name(int i) : name(static_cast<float>(i)) {}                                   \
    __host__ __device__ explicit name(unsigned int i) : name(static_cast<float>(i)) {}                          \
    __host__ __device__ explicit name(long long i) : name(static_cast<float>(i)) {}                             \
    __host__ __device__ explicit name(unsigned long long i) : name(static_cast<float>(i)) {}                    \
    __host__ __device__ explicit operator float() const { return hipport::fp8_detail::decode(__x, interp); }   \
    __host__ __device__ explicit operator double() const { return static_cast<float>(*this); }                 \
    __host__ __device__ explicit operator __half() const { return __float2half(static_cast<float>(*this)); }   \
    __host__ __device__ explicit operator __hip_bfloat16() const { return __float2bfloat16(static_cast<float>(*this)); } \
    __host__ __device__ explicit operator bool() const { return (__x & 0x7F) != 0; }                           \
  };
HIPPORT_FP8_TYPE(__hip_fp8_e4m3, __HIP_E4M3)
HIPPORT_FP8_TYPE(__hip_fp8_e5m2, __HIP_E5M2)
#undef HIPPORT_FP8_TYPE

#define HIPPORT_FP8X2_TYPE(name, interp)                                                                        \
  struct name {                                                                                                 \
    __hip_fp8x2_storage_t __x;                                                                                  \
    name() = default;                                                                                           \
    __host__ __device__ explicit name(float2 f) : __x(__hip_cvt_float2_to_fp8x2(f, __HIP_SATFINITE, interp)) {} \
    __host__ __device__ explicit name(double2 d) : __x(__hip_cvt_double2_to_fp8x2(d, __HIP_SATFINITE, interp)) {} \
    __host__ __device__ explicit operator float2() const { return hipport::fp8_detail::decode_pair(__x, interp); } \
  };
HIPPORT_FP8X2_TYPE(__hip_fp8x2_e4m3, __HIP_E4M3)
HIPPORT_FP8X2_TYPE(__hip_fp8x2_e5m2, __HIP_E5M2)
#undef HIPPORT_FP8X2_TYPE

#define HIPPORT_FP8X4_TYPE(name, interp)                                                                        \
  struct name {                                                                                                 \
    __hip_fp8x4_storage_t __x;                                                                                  \
    name() = default;                                                                                           \
    __host__ __device__ explicit name(float4 f)                                                                \
        : __x(static_cast<__hip_fp8x4_storage_t>(__hip_cvt_float2_to_fp8x2(make_float2(f.x, f.y), __HIP_SATFINITE, interp)) | \
              (static_cast<__hip_fp8x4_storage_t>(__hip_cvt_float2_to_fp8x2(make_float2(f.z, f.w), __HIP_SATFINITE, interp)) << 16)) {} \
    __host__ __device__ explicit operator float4() const {                                                     \
      const float2 lo = hipport::fp8_detail::decode_pair(__x, interp), hi = hipport::fp8_detail::decode_pair(__x >> 16, interp); \
      return make_float4(lo.x, lo.y, hi.x, hi.y);                                                               \
    }                                                                                                           \
  };
HIPPORT_FP8X4_TYPE(__hip_fp8x4_e4m3, __HIP_E4M3)
HIPPORT_FP8X4_TYPE(__hip_fp8x4_e5m2, __HIP_E5M2)
#undef HIPPORT_FP8X4_TYPE

#endif /* HIPPORT_FP8_H */
