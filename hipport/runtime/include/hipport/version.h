/* hipport/version.h — platform and ROCm version macros for ported code.
 *
 * Why: CUDA projects ported to HIP guard AMD-only code with `#ifdef USE_ROCM` and
 * `#if ROCM_VERSION >= 60200` the way PyTorch does.  Those macros come from PyTorch's build
 * system; a project outside PyTorch has nobody defining them, so the guards the translator
 * writes would silently take the CUDA branch.  Including this header makes them work in any
 * build.  Every macro is defined only if the build has not defined it already, so a build that
 * passes -DROCM_VERSION=... keeps its value.
 *
 *   HIPPORT_PLATFORM_AMD / HIPPORT_PLATFORM_NVIDIA   1 for the platform HIP compiles for
 *   USE_ROCM                 defined on AMD builds unless HIPPORT_NO_USE_ROCM is defined
 *   ROCM_VERSION             major*10000 + minor*100 (+ patch when rocm_version.h gives it),
 *                            from <rocm_version.h> / <rocm-core/rocm_version.h> when present,
 *                            else from HIP_VERSION_MAJOR/MINOR (HIP and ROCm share major.minor)
 *   HIPPORT_ROCM_AT_LEAST(maj, min)   usable in #if; always 0 on non-AMD builds
 *   HIPPORT_HIP_AT_LEAST(maj, min)    the installed HIP headers' version, any platform
 */
#ifndef HIPPORT_VERSION_H
#define HIPPORT_VERSION_H

#define HIPPORT_RUNTIME_VERSION_MAJOR 0
#define HIPPORT_RUNTIME_VERSION_MINOR 1
#define HIPPORT_RUNTIME_VERSION_PATCH 0

#if defined(__has_include)
#  if __has_include(<hip/hip_version.h>)
#    include <hip/hip_version.h>
#  endif
#endif

/* ---- platform ------------------------------------------------------------------------- */
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__) || \
    (defined(__HIP__) && !defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_NVCC__))
#  define HIPPORT_PLATFORM_AMD 1
#elif defined(__HIP_PLATFORM_NVIDIA__) || defined(__HIP_PLATFORM_NVCC__) || defined(__CUDACC__)
#  define HIPPORT_PLATFORM_NVIDIA 1
#endif

/* ---- HIP header version ----------------------------------------------------------------- */
#if defined(HIP_VERSION_MAJOR) && defined(HIP_VERSION_MINOR)
#  define HIPPORT_HIP_VERSION_ (HIP_VERSION_MAJOR * 10000 + HIP_VERSION_MINOR * 100)
#else
#  define HIPPORT_HIP_VERSION_ 0
#endif
#define HIPPORT_HIP_AT_LEAST(maj, min) (HIPPORT_HIP_VERSION_ >= ((maj) * 10000 + (min) * 100))

/* ---- USE_ROCM and ROCM_VERSION (AMD builds only) ----------------------------------------- */
#if defined(HIPPORT_PLATFORM_AMD)
#  if !defined(USE_ROCM) && !defined(HIPPORT_NO_USE_ROCM)
#    define USE_ROCM 1
#  endif
#  if !defined(ROCM_VERSION)
#    if defined(__has_include)
#      if __has_include(<rocm-core/rocm_version.h>)
#        include <rocm-core/rocm_version.h>
#      elif __has_include(<rocm_version.h>)
#        include <rocm_version.h>
#      endif
#    endif
#    if defined(ROCM_VERSION_MAJOR) && defined(ROCM_VERSION_MINOR)
#      if defined(ROCM_VERSION_PATCH)
#        define ROCM_VERSION (ROCM_VERSION_MAJOR * 10000 + ROCM_VERSION_MINOR * 100 + ROCM_VERSION_PATCH)
#      else
#        define ROCM_VERSION (ROCM_VERSION_MAJOR * 10000 + ROCM_VERSION_MINOR * 100)
#      endif
#    elif defined(HIP_VERSION_MAJOR) && defined(HIP_VERSION_MINOR)
#      define ROCM_VERSION (HIP_VERSION_MAJOR * 10000 + HIP_VERSION_MINOR * 100)
#    endif
#  endif
#endif

#if defined(HIPPORT_PLATFORM_AMD) && defined(ROCM_VERSION)
#  define HIPPORT_ROCM_AT_LEAST(maj, min) (ROCM_VERSION >= ((maj) * 10000 + (min) * 100))
#else
#  define HIPPORT_ROCM_AT_LEAST(maj, min) 0
#endif

#endif /* HIPPORT_VERSION_H */
