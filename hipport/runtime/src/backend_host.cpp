// The simulated HIP runtime of <hipport/host_hip.h>: device memory is host memory, streams
// and events are counters.  Test-only; see the header for why and how work is simulated.
//
// One mutex guards all state, which is plenty for tests and keeps the simulation easy to
// reason about.  Streams and events are never deleted (destroy only marks them), so a stale
// handle in a test is a wrong answer rather than a crash inside the simulator.

#include <hipport/host_hip.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <sys/mman.h>

struct ihipStream_t {
  int device = 0;
  uint64_t submitted = 0;  // pieces of work enqueued so far
  uint64_t completed = 0;  // pieces of work finished so far
  bool destroyed = false;
};

struct ihipEvent_t {
  ihipStream_t* stream = nullptr;  // nullptr: never recorded (complete)
  uint64_t ticket = 0;             // complete once stream->completed >= ticket
  bool destroyed = false;
};

namespace {

struct Device {
  size_t limit = SIZE_MAX;
  size_t bytes = 0;
  uint64_t malloc_calls = 0;
  uint64_t free_calls = 0;
  ihipStream_t null_stream;
};

struct State {
  State() {
    int count = 2;
    if (const char* env = std::getenv("HIPPORT_HOST_DEVICES")) count = std::atoi(env);
    if (count < 0) count = 0;
    size_t limit = SIZE_MAX;
    if (const char* env = std::getenv("HIPPORT_HOST_MEMORY_LIMIT")) limit = std::strtoull(env, nullptr, 10);
    for (int i = 0; i < count; ++i) {
      devices.emplace_back(new Device());
      devices.back()->limit = limit;
      devices.back()->null_stream.device = i;
    }
  }
  std::mutex mu;
  std::vector<std::unique_ptr<Device>> devices;
  std::unordered_map<void*, std::pair<int, size_t>> allocations;  // ptr -> (device, size)
  std::vector<std::unique_ptr<ihipStream_t>> streams;
  std::vector<std::unique_ptr<ihipEvent_t>> events;
};

State& state() {
  static State* s = new State();  // never destroyed: the allocator may call in during exit
  return *s;
}

thread_local int current_device = 0;
thread_local hipError_t last_error = hipSuccess;

hipError_t fail(hipError_t err) {
  last_error = err;
  return err;
}

// Caller holds the mutex.
ihipStream_t* resolve(State& s, hipStream_t stream) {
  if (stream != nullptr) return stream;
  if (current_device < 0 || static_cast<size_t>(current_device) >= s.devices.size()) return nullptr;
  return &s.devices[static_cast<size_t>(current_device)]->null_stream;
}

}  // namespace

extern "C" {

hipError_t hipMalloc(void** ptr, size_t size) {
  if (ptr == nullptr) return fail(hipErrorInvalidValue);
  *ptr = nullptr;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (current_device < 0 || static_cast<size_t>(current_device) >= s.devices.size()) return fail(hipErrorInvalidDevice);
  if (size == 0) return hipSuccess;
  Device& dev = *s.devices[static_cast<size_t>(current_device)];
  if (size > dev.limit || dev.bytes > dev.limit - size) return fail(hipErrorOutOfMemory);
  // Device memory comes from mmap, not the C heap: like real device memory it is page aligned
  // (HIP guarantees 256 bytes), and a sanitizer's heap bookkeeping does not shadow-poison
  // megabytes on every hipFree.
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return fail(hipErrorOutOfMemory);
  dev.bytes += size;
  dev.malloc_calls += 1;
  s.allocations[p] = {current_device, size};
  *ptr = p;
  return hipSuccess;
}

hipError_t hipFree(void* ptr) {
  if (ptr == nullptr) return hipSuccess;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.allocations.find(ptr);
  if (it == s.allocations.end()) return fail(hipErrorInvalidValue);
  Device& dev = *s.devices[static_cast<size_t>(it->second.first)];
  dev.bytes -= it->second.second;
  dev.free_calls += 1;
  munmap(ptr, it->second.second);
  s.allocations.erase(it);
  return hipSuccess;
}

hipError_t hipGetDevice(int* device) {
  if (device == nullptr) return fail(hipErrorInvalidValue);
  *device = current_device;
  return hipSuccess;
}

hipError_t hipSetDevice(int device) {
  if (device < 0 || static_cast<size_t>(device) >= state().devices.size()) return fail(hipErrorInvalidDevice);
  current_device = device;
  return hipSuccess;
}

hipError_t hipGetDeviceCount(int* count) {
  if (count == nullptr) return fail(hipErrorInvalidValue);
  *count = static_cast<int>(state().devices.size());
  return hipSuccess;
}

hipError_t hipGetLastError(void) {
  const hipError_t err = last_error;
  last_error = hipSuccess;
  return err;
}

const char* hipGetErrorString(hipError_t error) {
  switch (error) {
    case hipSuccess: return "no error";
    case hipErrorInvalidValue: return "invalid argument";
    case hipErrorOutOfMemory: return "out of memory";
    case hipErrorInvalidDevice: return "invalid device ordinal";
    case hipErrorInvalidResourceHandle: return "invalid resource handle";
    case hipErrorNotReady: return "device not ready";
    default: return "unknown error";
  }
}

hipError_t hipDeviceSynchronize(void) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  ihipStream_t* null_stream = resolve(s, nullptr);
  if (null_stream == nullptr) return fail(hipErrorInvalidDevice);
  null_stream->completed = null_stream->submitted;
  for (auto& stream : s.streams)
    if (stream->device == current_device) stream->completed = stream->submitted;
  return hipSuccess;
}

hipError_t hipStreamCreate(hipStream_t* stream) {
  if (stream == nullptr) return fail(hipErrorInvalidValue);
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.streams.emplace_back(new ihipStream_t());
  s.streams.back()->device = current_device;
  *stream = s.streams.back().get();
  return hipSuccess;
}

hipError_t hipStreamDestroy(hipStream_t stream) {
  if (stream == nullptr) return fail(hipErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(state().mu);
  stream->completed = stream->submitted;  // like HIP: queued work still finishes
  stream->destroyed = true;
  return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t stream) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  ihipStream_t* st = resolve(s, stream);
  if (st == nullptr) return fail(hipErrorInvalidResourceHandle);
  st->completed = st->submitted;
  return hipSuccess;
}

hipError_t hipStreamQuery(hipStream_t stream) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  ihipStream_t* st = resolve(s, stream);
  if (st == nullptr) return fail(hipErrorInvalidResourceHandle);
  return st->completed >= st->submitted ? hipSuccess : hipErrorNotReady;
}

hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags) {
  (void)flags;
  if (event == nullptr) return fail(hipErrorInvalidValue);
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.events.emplace_back(new ihipEvent_t());
  *event = s.events.back().get();
  return hipSuccess;
}

hipError_t hipEventCreate(hipEvent_t* event) { return hipEventCreateWithFlags(event, hipEventDefault); }

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (event == nullptr || event->destroyed) return fail(hipErrorInvalidResourceHandle);
  ihipStream_t* st = resolve(s, stream);
  if (st == nullptr || st->destroyed) return fail(hipErrorInvalidResourceHandle);
  event->stream = st;
  event->ticket = st->submitted;
  return hipSuccess;
}

hipError_t hipEventQuery(hipEvent_t event) {
  std::lock_guard<std::mutex> lock(state().mu);
  if (event == nullptr || event->destroyed) return fail(hipErrorInvalidResourceHandle);
  if (event->stream == nullptr) return hipSuccess;
  return event->stream->completed >= event->ticket ? hipSuccess : hipErrorNotReady;
}

hipError_t hipEventSynchronize(hipEvent_t event) {
  std::lock_guard<std::mutex> lock(state().mu);
  if (event == nullptr || event->destroyed) return fail(hipErrorInvalidResourceHandle);
  if (event->stream != nullptr && event->stream->completed < event->ticket) event->stream->completed = event->ticket;
  return hipSuccess;
}

hipError_t hipEventDestroy(hipEvent_t event) {
  std::lock_guard<std::mutex> lock(state().mu);
  if (event == nullptr || event->destroyed) return fail(hipErrorInvalidResourceHandle);
  event->destroyed = true;
  return hipSuccess;
}

void hipportHostStreamEnqueue(hipStream_t stream) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (ihipStream_t* st = resolve(s, stream)) st->submitted += 1;
}

void hipportHostStreamComplete(hipStream_t stream) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (ihipStream_t* st = resolve(s, stream)) st->completed = st->submitted;
}

void hipportHostSetMemoryLimit(int device, size_t bytes) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (device >= 0 && static_cast<size_t>(device) < s.devices.size()) s.devices[static_cast<size_t>(device)]->limit = bytes;
}

size_t hipportHostDeviceBytes(int device) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (device < 0 || static_cast<size_t>(device) >= s.devices.size()) return 0;
  return s.devices[static_cast<size_t>(device)]->bytes;
}

uint64_t hipportHostMallocCalls(int device) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (device < 0 || static_cast<size_t>(device) >= s.devices.size()) return 0;
  return s.devices[static_cast<size_t>(device)]->malloc_calls;
}

uint64_t hipportHostFreeCalls(int device) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (device < 0 || static_cast<size_t>(device) >= s.devices.size()) return 0;
  return s.devices[static_cast<size_t>(device)]->free_calls;
}

}  // extern "C"
