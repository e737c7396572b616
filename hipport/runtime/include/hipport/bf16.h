/* hipport/bf16.h — CUDA's bfloat16 API (cuda_bf16.h) under HIP's names, for a HIP without
 * hip/hip_bf16.h (before ROCm 5.7).  Reached through hipport's hip/hip_bf16.h, which prefers the
 * installed HIP's header.
 *
 * What it provides, as CUDA defines it: __hip_bfloat16 / __hip_bfloat162 (implicit conversions
 * from and to float, the arithmetic and comparison operators), their _raw forms, the conversions
 * (__float2bfloat16 …, round-to-nearest-even; the _rz/_rd/_ru variants round as their names say),
 * the arithmetic, comparison and math intrinsics (__hadd … h2exp, the _nan, _sat, _relu and _rn
 * forms, ordered and unordered comparisons, scalar and pairwise), make_bfloat162, __ldg, warp
 * shuffles and atomicAdd.  Integers convert exactly, rounding once in the direction named.
 * Arithmetic goes through float, which is how AMD GPUs without bf16 ALUs compute it anyway.
 */
#ifndef HIPPORT_BF16_H
#define HIPPORT_BF16_H

#include <hip/hip_runtime.h>

#if defined(__HIP_PLATFORM_NVIDIA__) || defined(__HIP_PLATFORM_NVCC__)
#include <cuda_bf16.h>
typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
typedef __nv_bfloat16_raw __hip_bfloat16_raw;
typedef __nv_bfloat162_raw __hip_bfloat162_raw;
#else

#include <hip/hip_fp16.h> /* CUDA's __nv_bfloat16 has a constructor from __half */
#include <limits>

#define HIPPORT_BF16_HD __host__ __device__ inline

struct __hip_bfloat16_raw { unsigned short x; };
struct __hip_bfloat162_raw { unsigned short x, y; };

namespace hipport {
namespace bf16_detail {
HIPPORT_BF16_HD float to_float(unsigned short bits) {
  union { unsigned int u; float f; } v;
  v.u = static_cast<unsigned int>(bits) << 16;
  return v.f;
}
HIPPORT_BF16_HD unsigned int float_bits(float f) {
  union { float f; unsigned int u; } v;
  v.f = f;
  return v.u;
}
HIPPORT_BF16_HD bool is_nan_bits(unsigned int u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0; }
/* the NaN every CUDA conversion writes, whatever the input's sign and payload */
#define HIPPORT_BF16_NAN 0x7fffu
/* round to nearest, ties to even */
HIPPORT_BF16_HD unsigned short from_float_rn(float f) {
  unsigned int u = float_bits(f);
  if (is_nan_bits(u)) return HIPPORT_BF16_NAN;
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<unsigned short>(u >> 16);
}
HIPPORT_BF16_HD unsigned short from_float_rz(float f) {
  const unsigned int u = float_bits(f);
  return static_cast<unsigned short>(is_nan_bits(u) ? HIPPORT_BF16_NAN : (u >> 16));
}
/* toward -inf (down) or +inf (up): truncate, then step away from zero when the dropped bits are
 * non-zero and the sign says that is the direction */
HIPPORT_BF16_HD unsigned short from_float_directed(float f, bool up) {
  const unsigned int u = float_bits(f);
  if (is_nan_bits(u)) return HIPPORT_BF16_NAN;
  unsigned short t = static_cast<unsigned short>(u >> 16);
  const bool negative = (u >> 31) != 0;
  if ((u & 0xffffu) != 0 && (t & 0x7f80u) != 0x7f80u && (negative != up)) ++t;
  return t;
}
/* integers round once, from their exact value: going through float rounds twice above 2^24 (to
 * float's 24 bits, then to bfloat16's 8), which breaks ties and directed rounding, e.g.
 * 2^24 + 2^17 - 1 becomes the float 2^24 + 2^17, whose round-down is itself, not 2^24 */
enum round_mode { round_nearest, round_zero, round_down, round_up };
HIPPORT_BF16_HD unsigned short from_magnitude(unsigned long long magnitude, bool negative, round_mode mode) {
  if (magnitude == 0) return 0;
  int top = 63;
  while ((magnitude >> top) == 0) --top;
  unsigned long long kept; /* the 8 significant bits, leading one included */
  if (top <= 7) {
    kept = magnitude << (7 - top);
  } else {
    const int shift = top - 7;
    kept = magnitude >> shift;
    const unsigned long long rest = magnitude & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    const bool up = mode == round_nearest ? (rest > half || (rest == half && (kept & 1u)))
                    : mode == round_zero  ? false
                    : mode == round_down  ? (negative && rest != 0)
                                          : (!negative && rest != 0);
    if (up && ++kept == 0x100u) { /* carried into the next power of two */
      kept = 0x80u;
      ++top;
    }
  }
  /* at most 2^64: the exponent never reaches infinity's */
  return static_cast<unsigned short>((negative ? 0x8000u : 0u) | (static_cast<unsigned int>(top + 127) << 7) |
                                     static_cast<unsigned int>(kept & 0x7fu));
}
HIPPORT_BF16_HD unsigned short from_signed(long long i, round_mode mode) {
  /* 0 - u is the magnitude of LLONG_MIN too, where -i would overflow */
  return i < 0 ? from_magnitude(0ull - static_cast<unsigned long long>(i), true, mode)
               : from_magnitude(static_cast<unsigned long long>(i), false, mode);
}
HIPPORT_BF16_HD unsigned short from_unsigned(unsigned long long i, round_mode mode) { return from_magnitude(i, false, mode); }
}  // namespace bf16_detail
}  // namespace hipport

struct __hip_bfloat16 {
  unsigned short data;

  __hip_bfloat16() = default;
  HIPPORT_BF16_HD __hip_bfloat16(float f) : data(hipport::bf16_detail::from_float_rn(f)) {}
  HIPPORT_BF16_HD __hip_bfloat16(double d) : data(hipport::bf16_detail::from_float_rn(static_cast<float>(d))) {}
  /* every integer type CUDA's has, long and unsigned long included (with only the others,
   * `__nv_bfloat16(1L)` is ambiguous); plain char, signed char and bool promote to int */
  HIPPORT_BF16_HD __hip_bfloat16(short i) : data(hipport::bf16_detail::from_signed(i, hipport::bf16_detail::round_nearest)) {}
  HIPPORT_BF16_HD __hip_bfloat16(unsigned short i)
      : data(hipport::bf16_detail::from_unsigned(i, hipport::bf16_detail::round_nearest)) {}
  HIPPORT_BF16_HD __hip_bfloat16(int i) : data(hipport::bf16_detail::from_signed(i, hipport::bf16_detail::round_nearest)) {}
  HIPPORT_BF16_HD __hip_bfloat16(unsigned int i)
      : data(hipport::bf16_detail::from_unsigned(i, hipport::bf16_detail::round_nearest)) {}
  HIPPORT_BF16_HD __hip_bfloat16(long i) : data(hipport::bf16_detail::from_signed(i, hipport::bf16_detail::round_nearest)) {}
  HIPPORT_BF16_HD __hip_bfloat16(unsigned long i)
      : data(hipport::bf16_detail::from_unsigned(i, hipport::bf16_detail::round_nearest)) {}
  HIPPORT_BF16_HD __hip_bfloat16(long long i)
      : data(hipport::bf16_detail::from_signed(i, hipport::bf16_detail::round_nearest)) {}
  HIPPORT_BF16_HD __hip_bfloat16(unsigned long long i)
      : data(hipport::bf16_detail::from_unsigned(i, hipport::bf16_detail::round_nearest)) {}
  /* explicit, as CUDA's is; without it __half's templated conversions make the cast ambiguous */
  HIPPORT_BF16_HD explicit __hip_bfloat16(const __half& h) : data(hipport::bf16_detail::from_float_rn(__half2float(h))) {}
  HIPPORT_BF16_HD __hip_bfloat16(const __hip_bfloat16_raw& r) : data(r.x) {}
  HIPPORT_BF16_HD operator float() const { return hipport::bf16_detail::to_float(data); }
  HIPPORT_BF16_HD operator __hip_bfloat16_raw() const { return __hip_bfloat16_raw{data}; }
};

struct __hip_bfloat162 {
  __hip_bfloat16 x, y;

  __hip_bfloat162() = default;
  HIPPORT_BF16_HD __hip_bfloat162(const __hip_bfloat16& a, const __hip_bfloat16& b) : x(a), y(b) {}
  HIPPORT_BF16_HD __hip_bfloat162(const __hip_bfloat162_raw& r) {
    x.data = r.x;
    y.data = r.y;
  }
  HIPPORT_BF16_HD operator __hip_bfloat162_raw() const { return __hip_bfloat162_raw{x.data, y.data}; }
};


/* ---- conversions --------------------------------------------------------------------------- */
HIPPORT_BF16_HD __hip_bfloat16 hipport_bf16_bits(unsigned short bits) {
  __hip_bfloat16 r;
  r.data = bits;
  return r;
}
HIPPORT_BF16_HD float __bfloat162float(__hip_bfloat16 a) { return static_cast<float>(a); }
HIPPORT_BF16_HD __hip_bfloat16 __float2bfloat16(float f) { return hipport_bf16_bits(hipport::bf16_detail::from_float_rn(f)); }
HIPPORT_BF16_HD __hip_bfloat16 __float2bfloat16_rn(float f) { return __float2bfloat16(f); }
HIPPORT_BF16_HD __hip_bfloat16 __float2bfloat16_rz(float f) { return hipport_bf16_bits(hipport::bf16_detail::from_float_rz(f)); }
HIPPORT_BF16_HD __hip_bfloat16 __float2bfloat16_rd(float f) {
  return hipport_bf16_bits(hipport::bf16_detail::from_float_directed(f, false));
}
HIPPORT_BF16_HD __hip_bfloat16 __float2bfloat16_ru(float f) {
  return hipport_bf16_bits(hipport::bf16_detail::from_float_directed(f, true));
}
HIPPORT_BF16_HD __hip_bfloat16 __double2bfloat16(double d) { return __float2bfloat16(static_cast<float>(d)); }
/* integers to bfloat16, exactly rounded in the direction named (from_magnitude says why not
 * through float) */
#define HIPPORT_BF16_FROM_INT(type, stem, from)                                                    \
  HIPPORT_BF16_HD __hip_bfloat16 stem##_rn(type i) {                                               \
    return hipport_bf16_bits(hipport::bf16_detail::from(i, hipport::bf16_detail::round_nearest));  \
  }                                                                                                \
  HIPPORT_BF16_HD __hip_bfloat16 stem##_rz(type i) {                                               \
    return hipport_bf16_bits(hipport::bf16_detail::from(i, hipport::bf16_detail::round_zero));     \
  }                                                                                                \
  HIPPORT_BF16_HD __hip_bfloat16 stem##_rd(type i) {                                               \
    return hipport_bf16_bits(hipport::bf16_detail::from(i, hipport::bf16_detail::round_down));     \
  }                                                                                                \
  HIPPORT_BF16_HD __hip_bfloat16 stem##_ru(type i) {                                               \
    return hipport_bf16_bits(hipport::bf16_detail::from(i, hipport::bf16_detail::round_up));       \
  }
HIPPORT_BF16_FROM_INT(short, __short2bfloat16, from_signed)
HIPPORT_BF16_FROM_INT(unsigned short, __ushort2bfloat16, from_unsigned)
HIPPORT_BF16_FROM_INT(int, __int2bfloat16, from_signed)
HIPPORT_BF16_FROM_INT(unsigned int, __uint2bfloat16, from_unsigned)
HIPPORT_BF16_FROM_INT(long long, __ll2bfloat16, from_signed)
HIPPORT_BF16_FROM_INT(unsigned long long, __ull2bfloat16, from_unsigned)
#undef HIPPORT_BF16_FROM_INT
/* bfloat16 to integers: round the float in the direction named, then convert as CUDA does: NaN is
 * 0, out of range saturates to the type's limits (a plain cast of those is undefined) */
namespace hipport {
namespace bf16_detail {
template <typename I>
HIPPORT_BF16_HD I saturate(float x, float lo, float hi) {
  /* hi is I's maximum as a float, for 32- and 64-bit types rounded up to one past it: at or above
   * it the answer is the maximum itself */
  return x != x ? I(0) : x <= lo ? static_cast<I>(lo) : x >= hi ? std::numeric_limits<I>::max() : static_cast<I>(x);
}
}  // namespace bf16_detail
}  // namespace hipport
#define HIPPORT_BF16_TO_INT(type, stem, lo, hi)                                                    \
  HIPPORT_BF16_HD type stem##_rz(__hip_bfloat16 a) { return hipport::bf16_detail::saturate<type>(truncf(float(a)), lo, hi); } \
  HIPPORT_BF16_HD type stem##_rn(__hip_bfloat16 a) { return hipport::bf16_detail::saturate<type>(rintf(float(a)), lo, hi); } \
  HIPPORT_BF16_HD type stem##_rd(__hip_bfloat16 a) { return hipport::bf16_detail::saturate<type>(floorf(float(a)), lo, hi); } \
  HIPPORT_BF16_HD type stem##_ru(__hip_bfloat16 a) { return hipport::bf16_detail::saturate<type>(ceilf(float(a)), lo, hi); }
HIPPORT_BF16_TO_INT(short, __bfloat162short, -32768.0f, 32767.0f)
HIPPORT_BF16_TO_INT(unsigned short, __bfloat162ushort, 0.0f, 65535.0f)
HIPPORT_BF16_TO_INT(int, __bfloat162int, -2147483648.0f, 2147483647.0f)
HIPPORT_BF16_TO_INT(unsigned int, __bfloat162uint, 0.0f, 4294967295.0f)
HIPPORT_BF16_TO_INT(long long, __bfloat162ll, -9223372036854775808.0f, 9223372036854775807.0f)
HIPPORT_BF16_TO_INT(unsigned long long, __bfloat162ull, 0.0f, 18446744073709551615.0f)
#undef HIPPORT_BF16_TO_INT
HIPPORT_BF16_HD signed char __bfloat162char_rz(__hip_bfloat16 a) {
  return hipport::bf16_detail::saturate<signed char>(truncf(float(a)), -128.0f, 127.0f);
}
HIPPORT_BF16_HD unsigned char __bfloat162uchar_rz(__hip_bfloat16 a) {
  return hipport::bf16_detail::saturate<unsigned char>(truncf(float(a)), 0.0f, 255.0f);
}
HIPPORT_BF16_HD unsigned short __bfloat16_as_ushort(__hip_bfloat16 a) { return a.data; }
HIPPORT_BF16_HD short __bfloat16_as_short(__hip_bfloat16 a) { return static_cast<short>(a.data); }
HIPPORT_BF16_HD __hip_bfloat16 __ushort_as_bfloat16(unsigned short u) { return hipport_bf16_bits(u); }
HIPPORT_BF16_HD __hip_bfloat16 __short_as_bfloat16(short s) { return hipport_bf16_bits(static_cast<unsigned short>(s)); }

HIPPORT_BF16_HD __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat162(a, b); }
HIPPORT_BF16_HD __hip_bfloat162 __bfloat162bfloat162(__hip_bfloat16 a) { return __hip_bfloat162(a, a); }
HIPPORT_BF16_HD __hip_bfloat162 __float2bfloat162_rn(float f) { return __bfloat162bfloat162(__float2bfloat16(f)); }
HIPPORT_BF16_HD __hip_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __hip_bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
HIPPORT_BF16_HD __hip_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
HIPPORT_BF16_HD float2 __bfloat1622float2(__hip_bfloat162 a) { return make_float2(a.x, a.y); }
HIPPORT_BF16_HD __hip_bfloat16 __low2bfloat16(__hip_bfloat162 a) { return a.x; }
HIPPORT_BF16_HD __hip_bfloat16 __high2bfloat16(__hip_bfloat162 a) { return a.y; }
HIPPORT_BF16_HD float __low2float(__hip_bfloat162 a) { return a.x; }
HIPPORT_BF16_HD float __high2float(__hip_bfloat162 a) { return a.y; }
HIPPORT_BF16_HD __hip_bfloat162 __lows2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(a.x, b.x); }
HIPPORT_BF16_HD __hip_bfloat162 __highs2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(a.y, b.y); }
HIPPORT_BF16_HD __hip_bfloat162 __low2bfloat162(__hip_bfloat162 a) { return __hip_bfloat162(a.x, a.x); }
HIPPORT_BF16_HD __hip_bfloat162 __high2bfloat162(__hip_bfloat162 a) { return __hip_bfloat162(a.y, a.y); }
HIPPORT_BF16_HD __hip_bfloat162 __lowhigh2highlow(__hip_bfloat162 a) { return __hip_bfloat162(a.y, a.x); }

/* ---- arithmetic, comparisons, math --------------------------------------------------------- */
#define HIPPORT_BF16_BINARY(name, expr)                                                            \
  HIPPORT_BF16_HD __hip_bfloat16 name(__hip_bfloat16 a, __hip_bfloat16 b) {                        \
    const float x = a, y = b;                                                                      \
    return __hip_bfloat16(expr);                                                                   \
  }                                                                                                \
  HIPPORT_BF16_HD __hip_bfloat162 name##2(__hip_bfloat162 a, __hip_bfloat162 b) {                  \
    return __hip_bfloat162(name(a.x, b.x), name(a.y, b.y));                                        \
  }
HIPPORT_BF16_BINARY(__hadd, x + y)
HIPPORT_BF16_BINARY(__hsub, x - y)
HIPPORT_BF16_BINARY(__hmul, x * y)
HIPPORT_BF16_BINARY(__hmax, (x != x) ? y : (y != y) ? x : (x > y ? x : y))
HIPPORT_BF16_BINARY(__hmin, (x != x) ? y : (y != y) ? x : (x < y ? x : y))
#undef HIPPORT_BF16_BINARY
HIPPORT_BF16_HD __hip_bfloat16 __hdiv(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat16(float(a) / float(b)); }
HIPPORT_BF16_HD __hip_bfloat162 __h2div(__hip_bfloat162 a, __hip_bfloat162 b) {
  return __hip_bfloat162(__hdiv(a.x, b.x), __hdiv(a.y, b.y));
}
HIPPORT_BF16_HD __hip_bfloat16 __hfma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  return __hip_bfloat16(float(a) * float(b) + float(c));
}
HIPPORT_BF16_HD __hip_bfloat162 __hfma2(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
  return __hip_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
HIPPORT_BF16_HD __hip_bfloat16 __hneg(__hip_bfloat16 a) { return hipport_bf16_bits(static_cast<unsigned short>(a.data ^ 0x8000u)); }
HIPPORT_BF16_HD __hip_bfloat162 __hneg2(__hip_bfloat162 a) { return __hip_bfloat162(__hneg(a.x), __hneg(a.y)); }
HIPPORT_BF16_HD __hip_bfloat16 __habs(__hip_bfloat16 a) { return hipport_bf16_bits(static_cast<unsigned short>(a.data & 0x7fffu)); }
HIPPORT_BF16_HD __hip_bfloat162 __habs2(__hip_bfloat162 a) { return __hip_bfloat162(__habs(a.x), __habs(a.y)); }

/* ordered comparisons are false when either operand is NaN (C's != is not: __hne is < or >), the
 * unordered ones (…u) true; each unordered one is the negation of the opposite ordered one */
HIPPORT_BF16_HD bool __heq(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) == float(b); }
HIPPORT_BF16_HD bool __hne(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) < float(b) || float(a) > float(b); }
HIPPORT_BF16_HD bool __hlt(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) < float(b); }
HIPPORT_BF16_HD bool __hle(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) <= float(b); }
HIPPORT_BF16_HD bool __hgt(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) > float(b); }
HIPPORT_BF16_HD bool __hge(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) >= float(b); }
HIPPORT_BF16_HD bool __hequ(__hip_bfloat16 a, __hip_bfloat16 b) { return !__hne(a, b); }
HIPPORT_BF16_HD bool __hneu(__hip_bfloat16 a, __hip_bfloat16 b) { return !__heq(a, b); }
HIPPORT_BF16_HD bool __hltu(__hip_bfloat16 a, __hip_bfloat16 b) { return !__hge(a, b); }
HIPPORT_BF16_HD bool __hleu(__hip_bfloat16 a, __hip_bfloat16 b) { return !__hgt(a, b); }
HIPPORT_BF16_HD bool __hgtu(__hip_bfloat16 a, __hip_bfloat16 b) { return !__hle(a, b); }
HIPPORT_BF16_HD bool __hgeu(__hip_bfloat16 a, __hip_bfloat16 b) { return !__hlt(a, b); }
HIPPORT_BF16_HD bool __hisnan(__hip_bfloat16 a) { return (a.data & 0x7fffu) > 0x7f80u; }
HIPPORT_BF16_HD int __hisinf(__hip_bfloat16 a) {
  return (a.data & 0x7fffu) == 0x7f80u ? ((a.data & 0x8000u) ? -1 : 1) : 0;
}

/* NaN-propagating max/min, saturating (to [0, 1]) and ReLU forms, and the _rn spellings */
HIPPORT_BF16_HD __hip_bfloat16 __hmax_nan(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hisnan(a) ? a : __hisnan(b) ? b : __hmax(a, b);
}
HIPPORT_BF16_HD __hip_bfloat16 __hmin_nan(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hisnan(a) ? a : __hisnan(b) ? b : __hmin(a, b);
}
HIPPORT_BF16_HD __hip_bfloat16 hipport_bf16_sat(float x) { return __hip_bfloat16(x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x); }
HIPPORT_BF16_HD __hip_bfloat16 __hadd_sat(__hip_bfloat16 a, __hip_bfloat16 b) { return hipport_bf16_sat(float(a) + float(b)); }
HIPPORT_BF16_HD __hip_bfloat16 __hsub_sat(__hip_bfloat16 a, __hip_bfloat16 b) { return hipport_bf16_sat(float(a) - float(b)); }
HIPPORT_BF16_HD __hip_bfloat16 __hmul_sat(__hip_bfloat16 a, __hip_bfloat16 b) { return hipport_bf16_sat(float(a) * float(b)); }
HIPPORT_BF16_HD __hip_bfloat16 __hfma_sat(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  return hipport_bf16_sat(float(a) * float(b) + float(c));
}
HIPPORT_BF16_HD __hip_bfloat16 __hfma_relu(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  const __hip_bfloat16 r = __hfma(a, b, c);
  return __hisnan(r) ? r : (float(r) < 0.0f ? __hip_bfloat16(0.0f) : r);
}
HIPPORT_BF16_HD __hip_bfloat16 __hadd_rn(__hip_bfloat16 a, __hip_bfloat16 b) { return __hadd(a, b); }
HIPPORT_BF16_HD __hip_bfloat16 __hsub_rn(__hip_bfloat16 a, __hip_bfloat16 b) { return __hsub(a, b); }
HIPPORT_BF16_HD __hip_bfloat16 __hmul_rn(__hip_bfloat16 a, __hip_bfloat16 b) { return __hmul(a, b); }
#define HIPPORT_BF16_PAIRWISE(name, name2)                                                         \
  HIPPORT_BF16_HD __hip_bfloat162 name2(__hip_bfloat162 a, __hip_bfloat162 b) {                    \
    return __hip_bfloat162(name(a.x, b.x), name(a.y, b.y));                                        \
  }
HIPPORT_BF16_PAIRWISE(__hmax_nan, __hmax2_nan)
HIPPORT_BF16_PAIRWISE(__hmin_nan, __hmin2_nan)
HIPPORT_BF16_PAIRWISE(__hadd_sat, __hadd2_sat)
HIPPORT_BF16_PAIRWISE(__hsub_sat, __hsub2_sat)
HIPPORT_BF16_PAIRWISE(__hmul_sat, __hmul2_sat)
HIPPORT_BF16_PAIRWISE(__hadd_rn, __hadd2_rn)
HIPPORT_BF16_PAIRWISE(__hsub_rn, __hsub2_rn)
HIPPORT_BF16_PAIRWISE(__hmul_rn, __hmul2_rn)
#undef HIPPORT_BF16_PAIRWISE
HIPPORT_BF16_HD __hip_bfloat162 __hfma2_sat(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
  return __hip_bfloat162(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
HIPPORT_BF16_HD __hip_bfloat162 __hfma2_relu(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
  return __hip_bfloat162(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));
}

/* pairwise comparisons: 1.0 / 0.0 per lane (__heq2 …), or both lanes (__hbeq2 …) */
#define HIPPORT_BF16_COMPARE(cmp, name2, bname2)                                                   \
  HIPPORT_BF16_HD __hip_bfloat162 name2(__hip_bfloat162 a, __hip_bfloat162 b) {                    \
    return __hip_bfloat162(__hip_bfloat16(cmp(a.x, b.x) ? 1.0f : 0.0f), __hip_bfloat16(cmp(a.y, b.y) ? 1.0f : 0.0f)); \
  }                                                                                                \
  HIPPORT_BF16_HD bool bname2(__hip_bfloat162 a, __hip_bfloat162 b) { return cmp(a.x, b.x) && cmp(a.y, b.y); }
HIPPORT_BF16_COMPARE(__heq, __heq2, __hbeq2)
HIPPORT_BF16_COMPARE(__hne, __hne2, __hbne2)
HIPPORT_BF16_COMPARE(__hlt, __hlt2, __hblt2)
HIPPORT_BF16_COMPARE(__hle, __hle2, __hble2)
HIPPORT_BF16_COMPARE(__hgt, __hgt2, __hbgt2)
HIPPORT_BF16_COMPARE(__hge, __hge2, __hbge2)
HIPPORT_BF16_COMPARE(__hequ, __hequ2, __hbequ2)
HIPPORT_BF16_COMPARE(__hneu, __hneu2, __hbneu2)
HIPPORT_BF16_COMPARE(__hltu, __hltu2, __hbltu2)
HIPPORT_BF16_COMPARE(__hleu, __hleu2, __hbleu2)
HIPPORT_BF16_COMPARE(__hgtu, __hgtu2, __hbgtu2)
HIPPORT_BF16_COMPARE(__hgeu, __hgeu2, __hbgeu2)
#undef HIPPORT_BF16_COMPARE
HIPPORT_BF16_HD __hip_bfloat162 __hisnan2(__hip_bfloat162 a) {
  return __hip_bfloat162(__hip_bfloat16(__hisnan(a.x) ? 1.0f : 0.0f), __hip_bfloat16(__hisnan(a.y) ? 1.0f : 0.0f));
}
HIPPORT_BF16_HD __hip_bfloat162 make_bfloat162(__hip_bfloat16 x, __hip_bfloat16 y) { return __hip_bfloat162(x, y); }

#define HIPPORT_BF16_MATH(name, name2, call)                                                       \
  __device__ inline __hip_bfloat16 name(__hip_bfloat16 a) { return __hip_bfloat16(call(float(a))); } \
  __device__ inline __hip_bfloat162 name2(__hip_bfloat162 a) { return __hip_bfloat162(name(a.x), name(a.y)); }
HIPPORT_BF16_MATH(hsqrt, h2sqrt, sqrtf)
HIPPORT_BF16_MATH(hrsqrt, h2rsqrt, rsqrtf)
HIPPORT_BF16_MATH(hexp, h2exp, expf)
HIPPORT_BF16_MATH(hexp2, h2exp2, exp2f)
HIPPORT_BF16_MATH(hexp10, h2exp10, exp10f)
HIPPORT_BF16_MATH(hlog, h2log, logf)
HIPPORT_BF16_MATH(hlog2, h2log2, log2f)
HIPPORT_BF16_MATH(hlog10, h2log10, log10f)
HIPPORT_BF16_MATH(hsin, h2sin, sinf)
HIPPORT_BF16_MATH(hcos, h2cos, cosf)
HIPPORT_BF16_MATH(htrunc, h2trunc, truncf)
HIPPORT_BF16_MATH(hceil, h2ceil, ceilf)
HIPPORT_BF16_MATH(hfloor, h2floor, floorf)
HIPPORT_BF16_MATH(hrint, h2rint, rintf)
HIPPORT_BF16_MATH(hrcp, h2rcp, 1.0f /)
HIPPORT_BF16_MATH(htanh, h2tanh, tanhf)
#undef HIPPORT_BF16_MATH

/* ---- operators ----------------------------------------------------------------------------- */
HIPPORT_BF16_HD __hip_bfloat16 operator+(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hadd(a, b); }
HIPPORT_BF16_HD __hip_bfloat16 operator-(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hsub(a, b); }
HIPPORT_BF16_HD __hip_bfloat16 operator*(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hmul(a, b); }
HIPPORT_BF16_HD __hip_bfloat16 operator/(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hdiv(a, b); }
HIPPORT_BF16_HD __hip_bfloat16 operator-(const __hip_bfloat16& a) { return __hneg(a); }
HIPPORT_BF16_HD __hip_bfloat16 operator+(const __hip_bfloat16& a) { return a; }
HIPPORT_BF16_HD __hip_bfloat16& operator+=(__hip_bfloat16& a, const __hip_bfloat16& b) { return a = a + b; }
HIPPORT_BF16_HD __hip_bfloat16& operator-=(__hip_bfloat16& a, const __hip_bfloat16& b) { return a = a - b; }
HIPPORT_BF16_HD __hip_bfloat16& operator*=(__hip_bfloat16& a, const __hip_bfloat16& b) { return a = a * b; }
HIPPORT_BF16_HD __hip_bfloat16& operator/=(__hip_bfloat16& a, const __hip_bfloat16& b) { return a = a / b; }
/* ++ and -- add or subtract 1 in bfloat16 (so 256 + 1 stays 256), as CUDA's do */
HIPPORT_BF16_HD __hip_bfloat16& operator++(__hip_bfloat16& a) { return a += hipport_bf16_bits(0x3f80u); }
HIPPORT_BF16_HD __hip_bfloat16& operator--(__hip_bfloat16& a) { return a -= hipport_bf16_bits(0x3f80u); }
HIPPORT_BF16_HD __hip_bfloat16 operator++(__hip_bfloat16& a, int) {
  const __hip_bfloat16 old = a;
  ++a;
  return old;
}
HIPPORT_BF16_HD __hip_bfloat16 operator--(__hip_bfloat16& a, int) {
  const __hip_bfloat16 old = a;
  --a;
  return old;
}
/* CUDA's == is ordered and its != unordered, so exactly one of them holds, NaN or not */
HIPPORT_BF16_HD bool operator==(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __heq(a, b); }
HIPPORT_BF16_HD bool operator!=(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hneu(a, b); }
HIPPORT_BF16_HD bool operator<(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hlt(a, b); }
HIPPORT_BF16_HD bool operator<=(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hle(a, b); }
HIPPORT_BF16_HD bool operator>(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hgt(a, b); }
HIPPORT_BF16_HD bool operator>=(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hge(a, b); }
HIPPORT_BF16_HD __hip_bfloat162 operator+(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hadd2(a, b); }
HIPPORT_BF16_HD __hip_bfloat162 operator-(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hsub2(a, b); }
HIPPORT_BF16_HD __hip_bfloat162 operator*(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hmul2(a, b); }
HIPPORT_BF16_HD __hip_bfloat162 operator/(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __h2div(a, b); }
HIPPORT_BF16_HD __hip_bfloat162& operator+=(__hip_bfloat162& a, const __hip_bfloat162& b) { return a = a + b; }
HIPPORT_BF16_HD __hip_bfloat162& operator-=(__hip_bfloat162& a, const __hip_bfloat162& b) { return a = a - b; }
HIPPORT_BF16_HD __hip_bfloat162& operator*=(__hip_bfloat162& a, const __hip_bfloat162& b) { return a = a * b; }
HIPPORT_BF16_HD __hip_bfloat162& operator/=(__hip_bfloat162& a, const __hip_bfloat162& b) { return a = a / b; }
HIPPORT_BF16_HD __hip_bfloat162 operator-(const __hip_bfloat162& a) { return __hneg2(a); }
HIPPORT_BF16_HD __hip_bfloat162 operator+(const __hip_bfloat162& a) { return a; }
HIPPORT_BF16_HD __hip_bfloat162& operator++(__hip_bfloat162& a) {
  const __hip_bfloat16 one = hipport_bf16_bits(0x3f80u);
  return a = __hadd2(a, __hip_bfloat162(one, one));
}
HIPPORT_BF16_HD __hip_bfloat162& operator--(__hip_bfloat162& a) {
  const __hip_bfloat16 one = hipport_bf16_bits(0x3f80u);
  return a = __hsub2(a, __hip_bfloat162(one, one));
}
HIPPORT_BF16_HD __hip_bfloat162 operator++(__hip_bfloat162& a, int) {
  const __hip_bfloat162 old = a;
  ++a;
  return old;
}
HIPPORT_BF16_HD __hip_bfloat162 operator--(__hip_bfloat162& a, int) {
  const __hip_bfloat162 old = a;
  --a;
  return old;
}
/* a pair compares as CUDA's: true when the comparison holds in both lanes (so a != b needs both
 * lanes to differ, and a pair can be neither == nor != another); != is the unordered one */
HIPPORT_BF16_HD bool operator==(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hbeq2(a, b); }
HIPPORT_BF16_HD bool operator!=(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hbneu2(a, b); }
HIPPORT_BF16_HD bool operator<(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hblt2(a, b); }
HIPPORT_BF16_HD bool operator<=(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hble2(a, b); }
HIPPORT_BF16_HD bool operator>(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hbgt2(a, b); }
HIPPORT_BF16_HD bool operator>=(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hbge2(a, b); }

/* ---- warp shuffles and atomics ------------------------------------------------------------- */
#define HIPPORT_BF16_SHUFFLE(name, lane_type)                                                      \
  __device__ inline __hip_bfloat16 name(__hip_bfloat16 v, lane_type lane, int width = warpSize) {  \
    return hipport_bf16_bits(static_cast<unsigned short>(name(static_cast<int>(v.data), lane, width))); \
  }                                                                                                \
  __device__ inline __hip_bfloat162 name(__hip_bfloat162 v, lane_type lane, int width = warpSize) { \
    return __hip_bfloat162(name(v.x, lane, width), name(v.y, lane, width));                       \
  }
HIPPORT_BF16_SHUFFLE(__shfl, int)
HIPPORT_BF16_SHUFFLE(__shfl_up, unsigned int)
HIPPORT_BF16_SHUFFLE(__shfl_down, unsigned int)
HIPPORT_BF16_SHUFFLE(__shfl_xor, int)
#undef HIPPORT_BF16_SHUFFLE

/* read-only loads (HIP 5.2's __ldg covers built-in, vector and half types) */
__device__ inline __hip_bfloat16 __ldg(const __hip_bfloat16* p) { return *p; }
__device__ inline __hip_bfloat162 __ldg(const __hip_bfloat162* p) { return *p; }

/* atomicAdd on a bfloat16: a compare-and-swap loop on the aligned 32-bit word holding it */
__device__ inline __hip_bfloat16 atomicAdd(__hip_bfloat16* address, __hip_bfloat16 value) {
  unsigned int* word = reinterpret_cast<unsigned int*>(reinterpret_cast<size_t>(address) & ~static_cast<size_t>(3));
  const unsigned int shift = (reinterpret_cast<size_t>(address) & 2) ? 16u : 0u;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    const unsigned short current = static_cast<unsigned short>(assumed >> shift);
    const unsigned short sum = __hadd(hipport_bf16_bits(current), value).data;
    old = atomicCAS(word, assumed, (assumed & ~(0xffffu << shift)) | (static_cast<unsigned int>(sum) << shift));
  } while (assumed != old);
  return hipport_bf16_bits(static_cast<unsigned short>(old >> shift));
}

__device__ inline __hip_bfloat162 atomicAdd(__hip_bfloat162* address, __hip_bfloat162 value) {
  /* the pair shares one aligned 32-bit word: one compare-and-swap adds both lanes */
  unsigned int* word = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    const __hip_bfloat162 current(hipport_bf16_bits(static_cast<unsigned short>(assumed)),
                                  hipport_bf16_bits(static_cast<unsigned short>(assumed >> 16)));
    const __hip_bfloat162 sum = __hadd2(current, value);
    old = atomicCAS(word, assumed, static_cast<unsigned int>(sum.x.data) | (static_cast<unsigned int>(sum.y.data) << 16));
  } while (assumed != old);
  return __hip_bfloat162(hipport_bf16_bits(static_cast<unsigned short>(old)),
                         hipport_bf16_bits(static_cast<unsigned short>(old >> 16)));
}

#undef HIPPORT_BF16_HD
#endif /* platform */
#endif /* HIPPORT_BF16_H */
