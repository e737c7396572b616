/* hipport/host_hip.h — a simulated HIP runtime on the host, for testing the allocator.
 *
 * Why: CI has no GPU, yet the allocator's logic (pools, splitting, stream ownership, deferred
 * frees, out-of-memory retry, threads) must be tested for real.  Compiling with
 * -DHIPPORT_HOST_BACKEND replaces <hip/hip_runtime_api.h> with this header: the same names and
 * error codes, with device memory = host memory and streams/events simulated by counters.
 * Work on a stream is simulated explicitly: hipportHostStreamEnqueue() submits a piece of work,
 * hipportHostStreamComplete() (or hipStreamSynchronize / hipEventSynchronize /
 * hipDeviceSynchronize) finishes it; an event is complete once the work submitted before it
 * was recorded has finished.  Environment: HIPPORT_HOST_DEVICES (default 2) devices, each with
 * HIPPORT_HOST_MEMORY_LIMIT bytes (default unlimited); limits can also be set at run time.
 * Never used in production builds.
 */
#ifndef HIPPORT_HOST_HIP_H
#define HIPPORT_HOST_HIP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorMemoryAllocation = 2,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidResourceHandle = 400,
  hipErrorNotReady = 600,
  hipErrorNotSupported = 801
} hipError_t;

typedef struct ihipStream_t* hipStream_t;
typedef struct ihipEvent_t* hipEvent_t;

#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2

hipError_t hipMalloc(void** ptr, size_t size);
hipError_t hipFree(void* ptr);
hipError_t hipGetDevice(int* device);
hipError_t hipSetDevice(int device);
hipError_t hipGetDeviceCount(int* count);
hipError_t hipGetLastError(void);
const char* hipGetErrorString(hipError_t error);
hipError_t hipDeviceSynchronize(void);
hipError_t hipStreamCreate(hipStream_t* stream);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamQuery(hipStream_t stream);
hipError_t hipEventCreate(hipEvent_t* event);
hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream);
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventDestroy(hipEvent_t event);

/* ---- test controls (host backend only) ---- */
/* Submit one piece of simulated work to a stream (nullptr: the current device's null stream). */
void hipportHostStreamEnqueue(hipStream_t stream);
/* Finish all work submitted to the stream so far. */
void hipportHostStreamComplete(hipStream_t stream);
/* Device memory capacity in bytes (SIZE_MAX: unlimited). */
void hipportHostSetMemoryLimit(int device, size_t bytes);
/* Bytes currently held through hipMalloc on a device, and hipMalloc / hipFree call counts. */
size_t hipportHostDeviceBytes(int device);
uint64_t hipportHostMallocCalls(int device);
uint64_t hipportHostFreeCalls(int device);

#ifdef __cplusplus
}
#endif

#endif /* HIPPORT_HOST_HIP_H */
