// Unit and stress tests of the caching allocator on the simulated host backend.
//
// Built by tests/test_runtime_allocator.py with g++ -DHIPPORT_HOST_BACKEND under
// AddressSanitizer and UndefinedBehaviorSanitizer.  Each TEST is run in its own process
// (`test_allocator NAME`) because the allocator is a process-wide singleton and some tests
// depend on environment variables read at its first use.  A failed CHECK prints
// "FAIL file:line: expression" and exits 1.
#include <hipport/runtime.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

std::map<std::string, std::function<void(int, char**)>>& registry() {
  static std::map<std::string, std::function<void(int, char**)>> tests;
  return tests;
}

struct Register {
  Register(const char* name, std::function<void(int, char**)> fn) { registry()[name] = std::move(fn); }
};

#define TEST(name)                                                   \
  void test_##name(int argc, char** argv);                           \
  Register register_##name(#name, test_##name);                      \
  void test_##name([[maybe_unused]] int argc, [[maybe_unused]] char** argv)

[[noreturn]] void fail(const char* file, int line, const std::string& what) {
  std::fprintf(stdout, "FAIL %s:%d: %s\n", file, line, what.c_str());
  std::fflush(stdout);
  std::exit(1);
}

#define CHECK(cond) \
  do {              \
    if (!(cond)) fail(__FILE__, __LINE__, #cond); \
  } while (0)

#define CHECK_EQ(a, b)                                                                       \
  do {                                                                                       \
    const auto va_ = (a);                                                                    \
    const auto vb_ = (b);                                                                    \
    if (!(va_ == vb_))                                                                       \
      fail(__FILE__, __LINE__, std::string(#a " == " #b " (") + std::to_string(va_) + " vs " + \
                                   std::to_string(vb_) + ")");                               \
  } while (0)

#define CHECK_OK(expr) CHECK_EQ(static_cast<int>(expr), static_cast<int>(hipSuccess))

constexpr size_t KiB = 1024, MiB = 1024 * 1024;

hipportMemoryStats_t stats(int device = 0) {
  hipportMemoryStats_t s;
  std::memset(&s, 0xff, sizeof s);
  CHECK_OK(hipportMemoryStats(device, &s));
  return s;
}

int64_t cur(const hipportStat_t* array) { return array[HIPPORT_STAT_ALL].current; }

void* alloc(size_t n, hipStream_t stream = nullptr) {
  void* p = nullptr;
  CHECK_OK(hipportMallocAsync(&p, n, stream));
  CHECK(p != nullptr);
  return p;
}

hipStream_t new_stream() {
  hipStream_t s = nullptr;
  CHECK_OK(hipStreamCreate(&s));
  return s;
}

// Internal consistency that must hold at every moment for every stat of a device.
void check_consistent(const hipportMemoryStats_t& s) {
  const hipportStat_t* arrays[] = {s.allocation,      s.segment,           s.active,
                                   s.inactive_split,  s.allocated_bytes,   s.reserved_bytes,
                                   s.active_bytes,    s.inactive_split_bytes, s.requested_bytes};
  for (const hipportStat_t* a : arrays) {
    for (int t = 0; t < HIPPORT_STAT_TYPES; ++t) {
      CHECK(a[t].current >= 0);
      CHECK(a[t].peak >= a[t].current);
      CHECK_EQ(a[t].current, a[t].allocated - a[t].freed);
    }
    CHECK_EQ(a[0].current, a[1].current + a[2].current);
  }
  for (int t = 0; t < HIPPORT_STAT_TYPES; ++t) {
    CHECK(s.allocated_bytes[t].current <= s.active_bytes[t].current);
    CHECK(s.active_bytes[t].current + s.inactive_split_bytes[t].current <= s.reserved_bytes[t].current);
    CHECK(s.allocation[t].current <= s.active[t].current);
    CHECK(s.requested_bytes[t].current <= s.allocated_bytes[t].current);
  }
  CHECK_EQ(s.num_device_alloc - s.num_device_free, cur(s.segment));
}

// Everything returned: the state a program must reach after freeing all and emptying the cache.
void check_all_released(int devices) {
  for (int d = 0; d < devices; ++d) {
    const hipportMemoryStats_t s = stats(d);
    check_consistent(s);
    CHECK_EQ(cur(s.allocated_bytes), 0);
    CHECK_EQ(cur(s.active_bytes), 0);
    CHECK_EQ(cur(s.reserved_bytes), 0);
    CHECK_EQ(cur(s.segment), 0);
    CHECK_EQ(cur(s.inactive_split), 0);
    CHECK_EQ(s.num_device_alloc, s.num_device_free);
    CHECK_EQ(hipportHostDeviceBytes(d), size_t(0));
    CHECK_EQ(hipportHostMallocCalls(d), hipportHostFreeCalls(d));
  }
}

// ---------------------------------------------------------------------------------------

TEST(rounding_and_pools) {
  CHECK(hipportCachingEnabled());
  void* a = alloc(1);
  hipportMemoryStats_t s = stats();
  CHECK_EQ(cur(s.allocated_bytes), 512);
  CHECK_EQ(cur(s.requested_bytes), 1);
  CHECK_EQ(cur(s.reserved_bytes), int64_t(2 * MiB));
  CHECK_EQ(s.allocated_bytes[HIPPORT_STAT_SMALL_POOL].current, 512);
  CHECK_EQ(s.allocated_bytes[HIPPORT_STAT_LARGE_POOL].current, 0);
  void* b = alloc(513);                                   // -> 1024
  CHECK_EQ(hipportMemoryAllocated(0), size_t(1536));
  CHECK_EQ(static_cast<char*>(b) - static_cast<char*>(a), 512);  // carved right after a
  void* c = alloc(1 * MiB);                              // still small: exactly 1 MiB
  CHECK_EQ(stats().allocated_bytes[HIPPORT_STAT_SMALL_POOL].current, int64_t(1 * MiB + 1536));
  void* d = alloc(1 * MiB + 1);                          // large: 20 MiB segment
  s = stats();
  CHECK_EQ(s.allocated_bytes[HIPPORT_STAT_LARGE_POOL].current, int64_t(1 * MiB + 512));
  CHECK_EQ(s.reserved_bytes[HIPPORT_STAT_LARGE_POOL].current, int64_t(20 * MiB));
  // On the same stream this would be cut from d's segment (best fit); another stream cannot.
  hipStream_t other = new_stream();
  void* e = alloc(11 * MiB + 1, other);                  // >= 10 MiB: own segment, 2 MiB rounding
  s = stats();
  CHECK_EQ(s.reserved_bytes[HIPPORT_STAT_LARGE_POOL].current, int64_t(32 * MiB));
  CHECK_EQ(s.segment[HIPPORT_STAT_LARGE_POOL].current, 2);
  // 11 MiB + 512 leaves 1 MiB - 512 in the 12 MiB segment: too small to split in the large pool
  CHECK_EQ(s.allocated_bytes[HIPPORT_STAT_LARGE_POOL].current, int64_t(1 * MiB + 512 + 12 * MiB));
  for (void* p : {a, b, c, d, e}) CHECK_OK(hipportFree(p));
  check_consistent(stats());
  CHECK_OK(hipportEmptyCache());
  check_all_released(1);
}

TEST(reuse_on_same_stream) {
  void* a = alloc(4 * KiB);
  CHECK_OK(hipportFree(a));
  void* b = alloc(4 * KiB);
  CHECK(a == b);
  void* c = alloc(3 * KiB);  // best fit from the cached remainder, no new segment
  CHECK_EQ(stats().num_device_alloc, 1);
  CHECK_EQ(hipportHostMallocCalls(0), uint64_t(1));
  CHECK_OK(hipportFree(b));
  CHECK_OK(hipportFree(c));
  CHECK_OK(hipportEmptyCache());
  check_all_released(1);
}

TEST(best_fit) {
  // One small segment carved into: a(1K) b(8K) c(1K) d(4K) e(1K) | free tail.
  char* a = static_cast<char*>(alloc(1 * KiB));
  char* b = static_cast<char*>(alloc(8 * KiB));
  char* c = static_cast<char*>(alloc(1 * KiB));
  char* d = static_cast<char*>(alloc(4 * KiB));
  char* e = static_cast<char*>(alloc(1 * KiB));
  CHECK(b == a + 1 * KiB && d == c + 1 * KiB && e == d + 4 * KiB);
  CHECK_OK(hipportFree(b));
  CHECK_OK(hipportFree(d));
  CHECK_EQ(cur(stats().inactive_split), 3);  // b, d and the tail
  char* f = static_cast<char*>(alloc(3 * KiB));
  CHECK(f == d);                               // 4 KiB hole beats 8 KiB hole and the tail
  char* g = static_cast<char*>(alloc(6 * KiB));
  CHECK(g == b);
  CHECK_EQ(stats().num_device_alloc, 1);
  for (char* p : {a, c, e, f, g}) CHECK_OK(hipportFree(p));
  const hipportMemoryStats_t s = stats();
  CHECK_EQ(cur(s.inactive_split), 0);          // everything merged back into one block
  CHECK_EQ(cur(s.inactive_split_bytes), 0);
  CHECK_EQ(cur(s.active), 0);
  CHECK_OK(hipportEmptyCache());
  check_all_released(1);
}

TEST(split_and_coalesce) {
  char* a = static_cast<char*>(alloc(100 * KiB));
  char* b = static_cast<char*>(alloc(100 * KiB));
  char* c = static_cast<char*>(alloc(100 * KiB));
  CHECK_OK(hipportFree(b));
  hipportMemoryStats_t s = stats();
  CHECK_EQ(cur(s.inactive_split), 2);
  CHECK_EQ(cur(s.inactive_split_bytes), int64_t(2 * MiB - 200 * KiB));
  CHECK_OK(hipportFree(a));                    // merges with b
  s = stats();
  CHECK_EQ(cur(s.inactive_split), 2);
  CHECK_EQ(cur(s.inactive_split_bytes), int64_t(2 * MiB - 100 * KiB));
  CHECK_OK(hipportEmptyCache());               // segment still split: nothing released
  CHECK_EQ(hipportMemoryReserved(0), size_t(2 * MiB));
  CHECK_OK(hipportFree(c));                    // merges both sides: one whole free segment
  s = stats();
  CHECK_EQ(cur(s.inactive_split), 0);
  CHECK_EQ(cur(s.inactive_split_bytes), 0);
  char* whole = static_cast<char*>(alloc(1 * MiB));
  CHECK(whole == a);                           // the merged block starts at the segment start
  CHECK_OK(hipportFree(whole));
  CHECK_OK(hipportEmptyCache());
  check_all_released(1);
}

TEST(stream_ownership) {
  hipStream_t s1 = new_stream(), s2 = new_stream();
  void* a = alloc(64 * KiB, s1);
  CHECK_OK(hipportFree(a));
  void* b = alloc(64 * KiB, s2);               // s1's cache is not handed to s2
  CHECK(b != a);
  CHECK_EQ(stats().num_device_alloc, 2);
  void* c = alloc(64 * KiB, s1);
  CHECK(c == a);
  CHECK_OK(hipportFree(b));
  CHECK_OK(hipportFree(c));
  CHECK_OK(hipportEmptyCache());
  check_all_released(1);
}

TEST(record_stream_defers_reuse) {
  hipStream_t s1 = new_stream(), s2 = new_stream();
  void* a = alloc(256 * KiB, s1);
  CHECK_OK(hipportRecordStream(a, s2));
  hipportHostStreamEnqueue(s2);                // a kernel on s2 still reads `a`
  CHECK_OK(hipportFree(a));
  hipportMemoryStats_t s = stats();
  CHECK_EQ(cur(s.allocated_bytes), 0);         // freed by the program ...
  CHECK_EQ(cur(s.active_bytes), int64_t(256 * KiB));  // ... but not reusable yet
  const std::string snap = hipport::memory_snapshot();
  CHECK(snap.find("\"active_pending_free\"") != std::string::npos);
  void* b = alloc(256 * KiB, s1);
  CHECK(b != a);
  hipportHostStreamComplete(s2);               // the kernel finished
  void* c = alloc(256 * KiB, s1);
  CHECK(c == a);
  CHECK_EQ(cur(stats().active_bytes), int64_t(512 * KiB));
  CHECK_OK(hipportFree(b));
  CHECK_OK(hipportFree(c));
  CHECK_OK(hipportEmptyCache());
  check_all_released(1);
}

TEST(free_async_on_other_stream) {
  hipStream_t s1 = new_stream(), s2 = new_stream();
  void* a = alloc(2 * MiB, s1);
  hipportHostStreamEnqueue(s2);
  CHECK_OK(hipportFreeAsync(a, s2));           // free ordered after s2's queued work
  void* b = alloc(2 * MiB, s1);
  CHECK(b != a);
  CHECK_OK(hipportFreeAsync(b, s1));           // own stream: immediately reusable on s1
  void* c = alloc(2 * MiB, s1);
  CHECK(c == b);
  CHECK_OK(hipportFree(c));
  // emptyCache waits for the pending event, then releases everything
  CHECK_OK(hipportEmptyCache());
  CHECK_EQ(stats().num_sync_all_streams, 1);
  check_all_released(1);
}

TEST(out_of_memory_retry) {
  hipportHostSetMemoryLimit(0, 64 * MiB);
  hipStream_t s1 = new_stream(), s2 = new_stream();
  void* a = alloc(40 * MiB, s1);
  CHECK_OK(hipportFree(a));                    // cached on s1
  void* b = alloc(40 * MiB, s2);               // needs s1's cache given back first
  hipportMemoryStats_t s = stats();
  CHECK_EQ(s.num_alloc_retries, 1);
  CHECK_EQ(s.num_ooms, 0);
  CHECK_EQ(cur(s.reserved_bytes), int64_t(40 * MiB));
  void* c = nullptr;
  CHECK_EQ(static_cast<int>(hipportMallocAsync(&c, 30 * MiB, s2)), static_cast<int>(hipErrorOutOfMemory));
  CHECK(c == nullptr);
  s = stats();
  CHECK_EQ(s.num_alloc_retries, 2);
  CHECK_EQ(s.num_ooms, 1);
  CHECK_EQ(static_cast<int>(hipGetLastError()), static_cast<int>(hipSuccess));  // not sticky
  CHECK_EQ(static_cast<int>(hipportMalloc(&c, SIZE_MAX)), static_cast<int>(hipErrorOutOfMemory));
  CHECK_EQ(stats().num_ooms, 2);
  bool threw = false;
  try {
    (void)hipport::allocate(100 * MiB, s2);
  } catch (const std::bad_alloc&) {
    threw = true;
  }
  CHECK(threw);
  CHECK_OK(hipportFree(b));
  CHECK_OK(hipportEmptyCache());
  check_all_released(1);
}

TEST(peak_stats_and_reset) {
  void* a = alloc(3 * MiB);
  void* b = alloc(5 * MiB);
  CHECK_OK(hipportFree(a));
  CHECK_OK(hipportFree(b));
  CHECK_EQ(hipportMaxMemoryAllocated(0), size_t(8 * MiB));
  CHECK_EQ(hipportMemoryAllocated(0), size_t(0));
  CHECK_EQ(hipportMaxMemoryReserved(0), size_t(20 * MiB));
  CHECK_OK(hipportEmptyCache());
  CHECK_EQ(hipportMaxMemoryReserved(0), size_t(20 * MiB));
  CHECK_OK(hipportResetPeakMemoryStats(0));
  CHECK_EQ(hipportMaxMemoryAllocated(0), size_t(0));
  CHECK_EQ(hipportMaxMemoryReserved(0), size_t(0));
  const hipportMemoryStats_t s = stats();
  CHECK_EQ(s.allocation[HIPPORT_STAT_ALL].allocated, 2);   // cumulative counts survive a reset
  CHECK_EQ(s.allocation[HIPPORT_STAT_ALL].freed, 2);
  CHECK_EQ(s.num_device_alloc, 1);
  CHECK_EQ(s.num_device_free, 1);
  check_all_released(1);
}

TEST(per_device_pools) {
  CHECK_OK(hipSetDevice(1));
  void* a = alloc(1 * MiB);
  CHECK_OK(hipSetDevice(0));
  void* b = alloc(2 * KiB);
  CHECK_EQ(hipportMemoryAllocated(1), size_t(1 * MiB));
  CHECK_EQ(hipportMemoryAllocated(0), size_t(2 * KiB));
  CHECK_EQ(hipportHostDeviceBytes(1), size_t(2 * MiB));
  CHECK_OK(hipportFree(a));                    // freed while device 0 is current
  CHECK_EQ(hipportMemoryAllocated(1), size_t(0));
  int current = -1;
  CHECK_OK(hipGetDevice(&current));
  CHECK_EQ(current, 0);
  std::thread other([&] {                      // a thread on device 1 frees device 0's block
    CHECK_OK(hipSetDevice(1));
    CHECK_OK(hipportFree(b));
  });
  other.join();
  CHECK_EQ(hipportMemoryAllocated(0), size_t(0));
  CHECK_OK(hipportEmptyCache());
  check_all_released(2);
}

TEST(invalid_arguments) {
  void* p = reinterpret_cast<void*>(0x1);
  CHECK_OK(hipportMalloc(&p, 0));
  CHECK(p == nullptr);
  CHECK_OK(hipportFree(nullptr));
  CHECK_OK(hipportFreeAsync(nullptr, nullptr));
  CHECK_EQ(static_cast<int>(hipportMalloc(static_cast<void**>(nullptr), 16)), static_cast<int>(hipErrorInvalidValue));
  int not_device_memory = 0;
  CHECK_EQ(static_cast<int>(hipportFree(&not_device_memory)), static_cast<int>(hipErrorInvalidValue));  // forwarded to hipFree
  (void)hipGetLastError();
  CHECK_EQ(static_cast<int>(hipportRecordStream(&not_device_memory, nullptr)), static_cast<int>(hipErrorInvalidValue));
  hipportMemoryStats_t s;
  CHECK_EQ(static_cast<int>(hipportMemoryStats(7, &s)), static_cast<int>(hipErrorInvalidDevice));
  CHECK_EQ(static_cast<int>(hipportMemoryStats(0, nullptr)), static_cast<int>(hipErrorInvalidValue));
  CHECK_EQ(static_cast<int>(hipportResetPeakMemoryStats(-1)), static_cast<int>(hipErrorInvalidDevice));
  CHECK_EQ(hipportMemoryAllocated(9), size_t(0));
  // a raw hipMalloc pointer freed through hipportFree goes to hipFree
  void* raw = nullptr;
  CHECK_OK(hipMalloc(&raw, 4096));
  CHECK_OK(hipportFree(raw));
  CHECK_EQ(hipportHostDeviceBytes(0), size_t(0));
  check_all_released(2);
}

TEST(typed_and_cpp_api) {
  float* f = nullptr;
  CHECK_OK(hipportMalloc(&f, 100 * sizeof(float)));
  f[0] = 1.f;
  f[99] = 2.f;
  double* d = nullptr;
  CHECK_OK(hipportMallocAsync(&d, 8 * sizeof(double), nullptr));
  CHECK_OK(hipportFree(f));
  CHECK_OK(hipportFree(d));
  {
    auto arr = hipport::make_device_array<int>(1000);
    arr[999] = 7;
    CHECK_EQ(hipportMemoryAllocated(0), size_t(4096));
  }
  CHECK_EQ(hipportMemoryAllocated(0), size_t(0));
  void* p = hipport::allocate(10);
  hipport::deallocate(p);
  const hipport::MemoryStats s = hipport::memory_stats(0);
  CHECK_EQ(s.allocation[HIPPORT_STAT_ALL].allocated, 4);
  CHECK(hipport::caching_enabled());
  hipport::empty_cache();
  check_all_released(1);
}

TEST(use_after_free_is_poisoned) {
  // Run by the Python test expecting AddressSanitizer to stop the program: a cached free block
  // is poisoned, so touching memory after hipportFree is reported even though it stays mapped.
  char* p = static_cast<char*>(alloc(4 * KiB));
  p[0] = 1;
  CHECK_OK(hipportFree(p));
  std::printf("touching freed block\n");
  std::fflush(stdout);
  volatile char* q = p;
  q[100] = 2;
  std::printf("not reported\n");
}

TEST(snapshot) {
  hipStream_t s1 = new_stream();
  void* a = alloc(1000);
  void* b = alloc(3 * MiB, s1);
  void* c = alloc(512 * KiB);
  CHECK_OK(hipportRecordStream(c, s1));
  hipportHostStreamEnqueue(s1);
  CHECK_OK(hipportFree(c));
  const size_t n = hipportMemorySnapshot(nullptr, 0);
  std::vector<char> buf(n + 1, 'x');
  CHECK_EQ(hipportMemorySnapshot(buf.data(), buf.size()), n);
  CHECK_EQ(std::strlen(buf.data()), n);
  char small[16];
  CHECK_EQ(hipportMemorySnapshot(small, sizeof small), n);  // truncated, still NUL-terminated
  CHECK_EQ(std::strlen(small), size_t(15));
  CHECK(std::strncmp(small, buf.data(), 15) == 0);
  std::printf("SNAPSHOT %s\n", buf.data());
  std::printf("POINTERS %p %p %p\n", a, b, static_cast<void*>(s1));
  hipportHostStreamComplete(s1);
  CHECK_OK(hipportFree(a));
  CHECK_OK(hipportFree(b));
  CHECK_OK(hipportEmptyCache());
  check_all_released(1);
}

TEST(no_caching) {
  // Run with HIPPORT_NO_CACHING=1 or PYTORCH_NO_CUDA_MEMORY_CACHING=1.
  CHECK(!hipportCachingEnabled());
  for (int i = 0; i < 5; ++i) {
    void* p = alloc(1000);
    CHECK_EQ(hipportMemoryAllocated(0), size_t(1000));  // exact size, no rounding
    CHECK_EQ(hipportMemoryReserved(0), size_t(1000));
    CHECK_EQ(hipportHostDeviceBytes(0), size_t(1000));
    CHECK_OK(hipportFree(p));
    CHECK_EQ(hipportHostDeviceBytes(0), size_t(0));    // returned to the device at once
  }
  CHECK_EQ(hipportHostMallocCalls(0), uint64_t(5));
  CHECK_EQ(hipportHostFreeCalls(0), uint64_t(5));
  const hipportMemoryStats_t s = stats();
  CHECK_EQ(s.num_device_alloc, 5);
  CHECK_EQ(s.num_device_free, 5);
  CHECK_EQ(hipportMaxMemoryAllocated(0), size_t(1000));
  hipStream_t s1 = new_stream();
  void* q = alloc(3 * MiB, s1);
  CHECK_OK(hipportRecordStream(q, s1));
  CHECK_OK(hipportFreeAsync(q, nullptr));
  CHECK(hipport::memory_snapshot().find("\"caching\":false") != std::string::npos);
  check_all_released(1);
}

TEST(no_device) {
  // Run with HIPPORT_HOST_DEVICES=0: the runtime's own error comes back, nothing crashes.
  void* p = nullptr;
  CHECK_EQ(static_cast<int>(hipportMalloc(&p, 16)), static_cast<int>(hipErrorNoDevice));
  CHECK(p == nullptr);
  CHECK_OK(hipportEmptyCache());
  CHECK_EQ(hipportMemoryAllocated(0), size_t(0));
  CHECK_EQ(hipportMemorySnapshot(nullptr, 0), std::strlen("{\"caching\":true,\"devices\":[]}"));
}

// ---- randomized multi-threaded stress ------------------------------------------------------

class Barrier {
 public:
  explicit Barrier(int n) : n_(n) {}
  void wait() {
    std::unique_lock<std::mutex> lock(mu_);
    const int gen = generation_;
    if (++waiting_ == n_) {
      waiting_ = 0;
      ++generation_;
      cv_.notify_all();
    } else {
      cv_.wait(lock, [&] { return gen != generation_; });
    }
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int n_, waiting_ = 0, generation_ = 0;
};

struct Live {
  char* ptr;
  size_t size;
  int device;
  hipStream_t stream;
  uint8_t tag;
};

// Global registry of live blocks by address: inserting a block that overlaps one still
// live is the bug this test exists to catch.
struct Registry {
  std::mutex mu;
  std::map<uintptr_t, size_t> live;  // address -> size
  int64_t requested[2] = {0, 0};

  void add(const Live& b) {
    std::lock_guard<std::mutex> lock(mu);
    const uintptr_t a = reinterpret_cast<uintptr_t>(b.ptr);
    auto next = live.lower_bound(a);
    if (next != live.end()) CHECK(a + b.size <= next->first);
    if (next != live.begin()) {
      auto prev = std::prev(next);
      CHECK(prev->first + prev->second <= a);
    }
    live[a] = b.size;
    requested[b.device] += static_cast<int64_t>(b.size);
  }
  void remove(const Live& b) {
    std::lock_guard<std::mutex> lock(mu);
    CHECK_EQ(live.erase(reinterpret_cast<uintptr_t>(b.ptr)), size_t(1));
    requested[b.device] -= static_cast<int64_t>(b.size);
  }
};

void fill(const Live& b) {
  const size_t n = std::min<size_t>(b.size, 64);
  std::memset(b.ptr, b.tag, n);
  std::memset(b.ptr + b.size - n, b.tag, n);
}

void verify(const Live& b) {
  const size_t n = std::min<size_t>(b.size, 64);
  for (size_t i = 0; i < n; ++i) {
    CHECK_EQ(static_cast<int>(static_cast<uint8_t>(b.ptr[i])), static_cast<int>(b.tag));
    CHECK_EQ(static_cast<int>(static_cast<uint8_t>(b.ptr[b.size - 1 - i])), static_cast<int>(b.tag));
  }
}

TEST(stress) {
  const int threads = argc > 2 ? std::atoi(argv[2]) : 8;
  const int iterations = argc > 3 ? std::atoi(argv[3]) : 3000;
  const unsigned seed = argc > 4 ? static_cast<unsigned>(std::atoi(argv[4])) : 12345u;
  const int devices = 2;
  for (int d = 0; d < devices; ++d) hipportHostSetMemoryLimit(d, 192 * MiB);  // forces OOM retries
  std::vector<std::vector<hipStream_t>> streams(devices);
  for (int d = 0; d < devices; ++d) {
    CHECK_OK(hipSetDevice(d));
    streams[d] = {nullptr, new_stream(), new_stream(), new_stream()};
  }
  Registry registry;
  Barrier barrier(threads);
  std::atomic<int64_t> ooms{0};

  auto worker = [&](int id) {
    std::mt19937 rng(seed + static_cast<unsigned>(id) * 7919u);
    std::vector<Live> mine;
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    auto release = [&](size_t index) {
      Live b = mine[index];
      mine[index] = mine.back();
      mine.pop_back();
      verify(b);
      registry.remove(b);
      const int how = pick(4);
      if (how == 0) {
        CHECK_OK(hipportFree(b.ptr));
      } else if (how == 1) {
        CHECK_OK(hipportFreeAsync(b.ptr, streams[b.device][pick(4)]));
      } else {
        if (how == 2) CHECK_OK(hipportRecordStream(b.ptr, streams[b.device][pick(4)]));
        CHECK_OK(hipportFreeAsync(b.ptr, b.stream));
      }
    };
    for (int it = 0; it < iterations; ++it) {
      if (it == iterations / 2) {
        // Quiescent point: every thread stops; the stats must match the registry exactly.
        barrier.wait();
        if (id == 0) {
          for (int d = 0; d < devices; ++d) {
            const hipportMemoryStats_t s = stats(d);
            check_consistent(s);
            CHECK_EQ(cur(s.requested_bytes), registry.requested[d]);
            CHECK(cur(s.allocated_bytes) >= registry.requested[d]);
          }
        }
        barrier.wait();
      }
      const int op = pick(100);
      const int device = pick(devices);
      CHECK_OK(hipSetDevice(device));
      if (op < 45 || mine.empty()) {
        size_t size;
        const int kind = pick(10);
        if (kind < 6) size = 1 + rng() % (64 * KiB);
        else if (kind < 8) size = 64 * KiB + rng() % (1 * MiB);
        else if (kind < 9) size = 1 * MiB + rng() % (9 * MiB);
        else size = 10 * MiB + rng() % (14 * MiB);
        Live b{nullptr, size, device, streams[device][pick(4)], static_cast<uint8_t>(1 + pick(250))};
        void* p = nullptr;
        const hipError_t err = hipportMallocAsync(&p, size, b.stream);
        if (err == hipErrorOutOfMemory) {
          ooms.fetch_add(1);
          CHECK(p == nullptr);
          continue;
        }
        CHECK_OK(err);
        b.ptr = static_cast<char*>(p);
        registry.add(b);
        fill(b);
        mine.push_back(b);
        if (mine.size() > 12) release(static_cast<size_t>(pick(static_cast<int>(mine.size()))));
      } else if (op < 85) {
        release(static_cast<size_t>(pick(static_cast<int>(mine.size()))));
      } else if (op < 92) {
        hipportHostStreamEnqueue(streams[device][pick(4)]);
      } else if (op < 98) {
        hipportHostStreamComplete(streams[device][pick(4)]);
      } else if (op < 99) {
        CHECK_OK(hipportEmptyCache());
      } else {
        check_consistent(stats(device));
      }
    }
    while (!mine.empty()) release(mine.size() - 1);
  };

  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) pool.emplace_back(worker, i);
  for (auto& t : pool) t.join();
  for (int d = 0; d < devices; ++d) {
    const hipportMemoryStats_t s = stats(d);
    check_consistent(s);
    CHECK_EQ(cur(s.allocated_bytes), 0);
    CHECK_EQ(cur(s.requested_bytes), 0);
    CHECK_OK(hipSetDevice(d));
    CHECK_OK(hipDeviceSynchronize());
  }
  CHECK_OK(hipportEmptyCache());
  check_all_released(devices);
  int64_t retries = 0, device_allocs = 0, syncs = 0;
  for (int d = 0; d < devices; ++d) {
    const hipportMemoryStats_t s = stats(d);
    retries += s.num_alloc_retries;
    device_allocs += s.num_device_alloc;
    syncs += s.num_sync_all_streams;
  }
  std::printf("STRESS threads=%d iterations=%d device_allocs=%lld retries=%lld ooms=%lld syncs=%lld\n", threads,
              iterations, static_cast<long long>(device_allocs), static_cast<long long>(retries),
              static_cast<long long>(ooms.load()), static_cast<long long>(syncs));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--list") == 0) {
    for (const auto& entry : registry()) std::printf("%s\n", entry.first.c_str());
    return 0;
  }
  auto it = registry().find(argv[1]);
  if (it == registry().end()) {
    std::printf("FAIL unknown test %s\n", argv[1]);
    return 2;
  }
  it->second(argc, argv);
  std::printf("PASS %s\n", argv[1]);
  return 0;
}
