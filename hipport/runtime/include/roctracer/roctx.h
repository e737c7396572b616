/* roctracer/roctx.h as hipport ships it: ROCTX's own header where roctracer is installed,
 * otherwise markers and ranges that do nothing.
 *
 * Why: NVTX (`nvToolsExt.h`, `nvtxRangePushA`, …) translates to ROCTX (`roctracer/roctx.h`,
 * `roctxRangePushA`, …), as hipify-clang writes; on a machine without roctracer (Debian and Ubuntu
 * package none) the translated program still builds and runs, just without profiler annotations,
 * as an NVTX-annotated program runs when no tool is attached.  Link with -lroctx64 only where the
 * real header was found (HIPPORT_NATIVE_ROCTX is then defined).
 */
#if defined(__has_include_next)
#  if __has_include_next(<roctracer/roctx.h>)
#    include_next <roctracer/roctx.h>
#    define HIPPORT_NATIVE_ROCTX 1
#  endif
#endif

#if !defined(HIPPORT_NATIVE_ROCTX) && !defined(HIPPORT_ROCTX_FALLBACK_H)
#define HIPPORT_ROCTX_FALLBACK_H
#include <stdint.h>
typedef uint64_t roctx_range_id_t;
static inline uint32_t roctx_version_major(void) { return 0; }
static inline uint32_t roctx_version_minor(void) { return 0; }
static inline void roctxMarkA(const char* message) { (void)message; }
static inline int roctxRangePushA(const char* message) { (void)message; return 0; }
static inline int roctxRangePop(void) { return 0; }
static inline roctx_range_id_t roctxRangeStartA(const char* message) { (void)message; return 0; }
static inline void roctxRangeStop(roctx_range_id_t id) { (void)id; }
#define roctxMark(message) roctxMarkA(message)
#define roctxRangePush(message) roctxRangePushA(message)
#define roctxRangeStart(message) roctxRangeStartA(message)
#endif
