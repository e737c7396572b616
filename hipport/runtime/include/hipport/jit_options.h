/* hipport/jit_options.h — CUDA's JIT options under the HIPRTC_JIT_* names on every HIP.
 *
 * Why: the translator writes CU_JIT_MAX_REGISTERS as HIPRTC_JIT_MAX_REGISTERS, as hipify-clang
 * does; current HIP's hiprtc.h defines those names as the hipJitOption values
 * (`#define HIPRTC_JIT_MAX_REGISTERS hipJitOptionMaxRegisters`), so a translated
 * `hipJitOption o = HIPRTC_JIT_MAX_REGISTERS;` or hipModuleLoadDataEx option list compiles there.
 * HIP before that either lacks the names (5.2) or declares them in a separate hiprtcJIT_option
 * enumeration, which does not convert to hipJitOption.  There this header defines them as the
 * hipJitOption values, after hiprtc.h has been read (so its own enumeration stays intact).
 */
#ifndef HIPPORT_JIT_OPTIONS_H
#define HIPPORT_JIT_OPTIONS_H

#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

#if !defined(HIPRTC_JIT_MAX_REGISTERS) && defined(__HIP_PLATFORM_AMD__)
#define HIPRTC_JIT_MAX_REGISTERS hipJitOptionMaxRegisters
#define HIPRTC_JIT_THREADS_PER_BLOCK hipJitOptionThreadsPerBlock
#define HIPRTC_JIT_WALL_TIME hipJitOptionWallTime
#define HIPRTC_JIT_INFO_LOG_BUFFER hipJitOptionInfoLogBuffer
#define HIPRTC_JIT_INFO_LOG_BUFFER_SIZE_BYTES hipJitOptionInfoLogBufferSizeBytes
#define HIPRTC_JIT_ERROR_LOG_BUFFER hipJitOptionErrorLogBuffer
#define HIPRTC_JIT_ERROR_LOG_BUFFER_SIZE_BYTES hipJitOptionErrorLogBufferSizeBytes
#define HIPRTC_JIT_OPTIMIZATION_LEVEL hipJitOptionOptimizationLevel
#define HIPRTC_JIT_TARGET_FROM_HIPCONTEXT hipJitOptionTargetFromContext
#define HIPRTC_JIT_TARGET hipJitOptionTarget
#define HIPRTC_JIT_FALLBACK_STRATEGY hipJitOptionFallbackStrategy
#define HIPRTC_JIT_GENERATE_DEBUG_INFO hipJitOptionGenerateDebugInfo
#define HIPRTC_JIT_LOG_VERBOSE hipJitOptionLogVerbose
#define HIPRTC_JIT_GENERATE_LINE_INFO hipJitOptionGenerateLineInfo
#define HIPRTC_JIT_CACHE_MODE hipJitOptionCacheMode
#define HIPRTC_JIT_NEW_SM3X_OPT hipJitOptionSm3xOpt
#define HIPRTC_JIT_FAST_COMPILE hipJitOptionFastCompile
#define HIPRTC_JIT_NUM_OPTIONS hipJitOptionNumOptions
#endif

#endif /* HIPPORT_JIT_OPTIONS_H */
