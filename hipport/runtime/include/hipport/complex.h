/* hipport/complex.h — hip_complex.h, with compound assignments on its complex types compiling.
 *
 * Why: hipFloatComplex and hipDoubleComplex are float2 and double2, whose class declares the
 * compound assignments as members, and hip_complex.h declares them again as free functions for the
 * complex typedefs: for `a += b` both are exact matches, so the call is ambiguous (ROCm/hip#2797,
 * still so in ROCm 6).  CUDA code written with cuComplex operators of its own (QuEST, DCA++) meets
 * that on every `+=`.  The overloads here bind the right-hand side more closely (a non-const
 * lvalue, or an rvalue) and so settle the call, with hip_complex.h's meaning: in a file that
 * includes it, HIP's own `a * b` on these types is already the complex product (its non-template
 * operator beats the vector types' templates), and `a *= b` now agrees.  A `const` right-hand side
 * still finds the two candidates HIP has (copy it first).  The translator
 * includes this header where cuComplex.h was.
 */
#ifndef HIPPORT_COMPLEX_H
#define HIPPORT_COMPLEX_H

#include <hip/hip_complex.h>

#if defined(__cplusplus) && !defined(__HIP_PLATFORM_NVIDIA__)
#define HIPPORT_COMPLEX_ASSIGN(T, OP)                                                    \
  __host__ __device__ static inline T& operator OP##=(T& a, T& b) {                     \
    a = a OP static_cast<const T&>(b);                                                  \
    return a;                                                                           \
  }                                                                                     \
  __host__ __device__ static inline T& operator OP##=(T& a, T&& b) {                    \
    a = a OP static_cast<const T&>(b);                                                  \
    return a;                                                                           \
  }
HIPPORT_COMPLEX_ASSIGN(hipFloatComplex, +)
HIPPORT_COMPLEX_ASSIGN(hipFloatComplex, -)
HIPPORT_COMPLEX_ASSIGN(hipFloatComplex, *)
HIPPORT_COMPLEX_ASSIGN(hipFloatComplex, /)
HIPPORT_COMPLEX_ASSIGN(hipDoubleComplex, +)
HIPPORT_COMPLEX_ASSIGN(hipDoubleComplex, -)
HIPPORT_COMPLEX_ASSIGN(hipDoubleComplex, *)
HIPPORT_COMPLEX_ASSIGN(hipDoubleComplex, /)
#undef HIPPORT_COMPLEX_ASSIGN
#endif

#endif
