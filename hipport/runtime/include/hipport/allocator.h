/* hipport/allocator.h — a caching device allocator with PyTorch's semantics.
 *
 * Why: ported code that calls cudaMalloc/cudaFree inside loops pays for a device allocation
 * (and often an implicit synchronisation) every time.  The translator's --caching-allocator
 * option turns those calls into the hipport… calls below, which keep freed blocks in per-device
 * pools and hand them out again, as PyTorch's CUDA caching allocator does:
 *
 *  - sizes round up to 512 bytes; requests of at most 1 MiB come from 2 MiB segments of the
 *    small pool, larger ones from the large pool (20 MiB segments below 10 MiB, else the size
 *    rounded up to 2 MiB);
 *  - best fit, splitting a block when the remainder is worth keeping, merging free neighbours;
 *  - every block belongs to the stream it was allocated on and is reused only on that stream;
 *    hipportRecordStream(p, s) / hipportFreeAsync(p, s) with another stream defer reuse until
 *    an event recorded on that stream completes;
 *  - when the device is out of memory the cache is freed and the allocation retried once;
 *  - thread-safe, one pool per device, statistics named as in torch.cuda.memory_stats().
 *
 * Like PyTorch's, hipportFree does not synchronise: memory used on a stream other than the
 * one it was allocated on needs hipportRecordStream or hipportFreeAsync on that stream.
 * HIPPORT_NO_CACHING=1 or PYTORCH_NO_CUDA_MEMORY_CACHING=1 (read once, at first use) make
 * every call go straight to hipMalloc/hipFree, for hunting memory errors with sanitizers.
 * Pointers the allocator does not own are passed on to hipFree, so code that mixes converted
 * and unconverted calls keeps working.
 */
#ifndef HIPPORT_ALLOCATOR_H
#define HIPPORT_ALLOCATOR_H

#include <stddef.h>
#include <stdint.h>

#if defined(HIPPORT_HOST_BACKEND)
#  include <hipport/host_hip.h>
#else
#  include <hip/hip_runtime_api.h>
#endif

#if defined(_WIN32)
#  define HIPPORT_API
#else
#  define HIPPORT_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Index of each stat array: all pools, small pool (<= 1 MiB), large pool. */
enum { HIPPORT_STAT_ALL = 0, HIPPORT_STAT_SMALL_POOL = 1, HIPPORT_STAT_LARGE_POOL = 2, HIPPORT_STAT_TYPES = 3 };

/* One statistic: current value, peak since the last reset, cumulative increase and decrease. */
typedef struct hipportStat_t {
  int64_t current;
  int64_t peak;
  int64_t allocated;
  int64_t freed;
} hipportStat_t;

/* torch.cuda.memory_stats() names: "allocated_bytes.all.current" is allocated_bytes[0].current */
typedef struct hipportMemoryStats_t {
  hipportStat_t allocation[HIPPORT_STAT_TYPES];           /* blocks handed out */
  hipportStat_t segment[HIPPORT_STAT_TYPES];              /* hipMalloc'ed segments */
  hipportStat_t active[HIPPORT_STAT_TYPES];               /* handed out or awaiting events */
  hipportStat_t inactive_split[HIPPORT_STAT_TYPES];       /* free blocks inside split segments */
  hipportStat_t allocated_bytes[HIPPORT_STAT_TYPES];
  hipportStat_t reserved_bytes[HIPPORT_STAT_TYPES];
  hipportStat_t active_bytes[HIPPORT_STAT_TYPES];
  hipportStat_t inactive_split_bytes[HIPPORT_STAT_TYPES];
  hipportStat_t requested_bytes[HIPPORT_STAT_TYPES];     /* sizes as asked, before rounding */
  int64_t num_alloc_retries;    /* hipMalloc failed, cache freed, retried */
  int64_t num_ooms;             /* out of memory reported to the caller */
  int64_t num_sync_all_streams; /* cache flushes that waited on every outstanding event */
  int64_t num_device_alloc;     /* hipMalloc calls that succeeded */
  int64_t num_device_free;      /* hipFree calls */
} hipportMemoryStats_t;

/* Allocate on the null stream / on `stream` of the current device.  size 0 gives nullptr. */
HIPPORT_API hipError_t hipportMalloc(void** ptr, size_t size);
HIPPORT_API hipError_t hipportMallocAsync(void** ptr, size_t size, hipStream_t stream);
/* Return a block to its pool; FreeAsync on another stream defers reuse until that stream's
 * work queued so far is done.  nullptr is a no-op. */
HIPPORT_API hipError_t hipportFree(void* ptr);
HIPPORT_API hipError_t hipportFreeAsync(void* ptr, hipStream_t stream);
/* Mark a block as used on `stream`: its reuse waits for that stream when it is freed. */
HIPPORT_API hipError_t hipportRecordStream(void* ptr, hipStream_t stream);
/* Wait for pending frees, then hipFree every cached segment with nothing in use, on all devices. */
HIPPORT_API hipError_t hipportEmptyCache(void);
HIPPORT_API size_t hipportMemoryAllocated(int device);
HIPPORT_API size_t hipportMaxMemoryAllocated(int device);
HIPPORT_API size_t hipportMemoryReserved(int device);
HIPPORT_API size_t hipportMaxMemoryReserved(int device);
HIPPORT_API hipError_t hipportResetPeakMemoryStats(int device);
HIPPORT_API hipError_t hipportMemoryStats(int device, hipportMemoryStats_t* out);
/* JSON description of every segment and block on every device.  Writes at most len-1 bytes
 * plus a NUL into buf (buf may be NULL when len is 0) and returns the full JSON length, like
 * snprintf: call once with len 0 to size the buffer. */
HIPPORT_API size_t hipportMemorySnapshot(char* buf, size_t len);
/* 1 when caching is on, 0 when an environment variable turned it off. */
HIPPORT_API int hipportCachingEnabled(void);

#ifdef __cplusplus
}  /* extern "C" */

#include <memory>
#include <new>
#include <string>

/* Typed forms, so `hipportMalloc(&float_ptr, n)` compiles as cudaMalloc(&float_ptr, n) did. */
template <typename T>
inline hipError_t hipportMalloc(T** ptr, size_t size) {
  return hipportMalloc(reinterpret_cast<void**>(ptr), size);
}
template <typename T>
inline hipError_t hipportMallocAsync(T** ptr, size_t size, hipStream_t stream) {
  return hipportMallocAsync(reinterpret_cast<void**>(ptr), size, stream);
}

namespace hipport {

using MemoryStats = hipportMemoryStats_t;

/* Throws std::bad_alloc when the device is out of memory even after freeing the cache. */
inline void* allocate(size_t size, hipStream_t stream = nullptr) {
  void* ptr = nullptr;
  if (hipportMallocAsync(&ptr, size, stream) != hipSuccess) throw std::bad_alloc();
  return ptr;
}

inline void deallocate(void* ptr, hipStream_t stream = nullptr) {
  if (stream != nullptr) {
    (void)hipportFreeAsync(ptr, stream);
  } else {
    (void)hipportFree(ptr);
  }
}

struct Deleter {
  void operator()(void* ptr) const { (void)hipportFree(ptr); }
};

/* Owning device array: hipport::unique_device_ptr<float> p = hipport::make_device_array<float>(n); */
template <typename T>
using unique_device_ptr = std::unique_ptr<T[], Deleter>;

template <typename T>
inline unique_device_ptr<T> make_device_array(size_t count, hipStream_t stream = nullptr) {
  if (count > static_cast<size_t>(-1) / sizeof(T)) throw std::bad_alloc();
  return unique_device_ptr<T>(static_cast<T*>(allocate(count * sizeof(T), stream)));
}

inline MemoryStats memory_stats(int device) {
  MemoryStats stats{};
  (void)hipportMemoryStats(device, &stats);
  return stats;
}

inline std::string memory_snapshot() {
  std::string json(hipportMemorySnapshot(nullptr, 0) + 1, '\0');
  json.resize(hipportMemorySnapshot(&json[0], json.size()));
  return json;
}

inline void empty_cache() { (void)hipportEmptyCache(); }

inline bool caching_enabled() { return hipportCachingEnabled() != 0; }

}  // namespace hipport
#endif /* __cplusplus */

#endif /* HIPPORT_ALLOCATOR_H */
