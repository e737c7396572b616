// Device test of the hipport caching allocator on a real GPU.
//
// Why: the unit and stress tests run on a simulated GPU; this program checks the same
// guarantees where kernels really run concurrently on several streams:
//   1. loop: allocate random sizes on random streams, fill with a kernel, verify with a kernel,
//      free — every value must come back as written;
//   2. cross-stream reuse: a block read by a slow kernel on stream B is freed after
//      hipportRecordStream(p, B); memory immediately allocated on stream A and overwritten must
//      not be that block while B still reads (with --no-record the same race is left
//      unprotected, as a control showing the check can see corruption);
//   3. after freeing everything and hipportEmptyCache, nothing is reserved;
//   4. benchmark: alloc/free pairs per second through hipport and through raw hipMalloc/hipFree.
// Prints one JSON object per line.  Exit status 0 only when no check failed.
//
// Build: tools/device_check/run.sh (nvcc through HIP's NVIDIA platform headers, or hipcc).
#include <hip/hip_runtime.h>
#include <hipport/runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#define CHECK_HIP(expr)                                                                \
  do {                                                                                 \
    hipError_t err_ = (expr);                                                          \
    if (err_ != hipSuccess) {                                                          \
      std::printf("{\"fatal\":\"%s\",\"error\":\"%s\",\"line\":%d}\n", #expr,          \
                  hipGetErrorString(err_), __LINE__);                                  \
      std::exit(2);                                                                    \
    }                                                                                  \
  } while (0)

__global__ void fill(unsigned* data, size_t n, unsigned value) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    data[i] = value ^ static_cast<unsigned>(i);
}

__global__ void verify(const unsigned* data, size_t n, unsigned value, unsigned* errors) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    if (data[i] != (value ^ static_cast<unsigned>(i))) atomicAdd(errors, 1u);
}

// Reads the block again and again for about `cycles` clocks, counting values that changed.
__global__ void slow_verify(const unsigned* data, size_t n, unsigned value, long long cycles, unsigned* errors) {
  const long long start = clock64();
  do {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
      if (data[i] != (value ^ static_cast<unsigned>(i))) atomicAdd(errors, 1u);
  } while (clock64() - start < cycles);
}

namespace {

constexpr int kStreams = 4;

unsigned read_counter(unsigned* counter) {
  unsigned host = 0;
  CHECK_HIP(hipMemcpy(&host, counter, sizeof host, hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemset(counter, 0, sizeof host));
  return host;
}

size_t random_size(std::mt19937& rng) {
  const unsigned kind = rng() % 10;
  if (kind < 6) return 4 + rng() % (256 << 10);
  if (kind < 9) return (256 << 10) + rng() % (4 << 20);
  return (4 << 20) + rng() % (60 << 20);
}

double pairs_per_second(bool raw, size_t size, int iterations) {
  void* p = nullptr;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) {
    if (raw) {
      CHECK_HIP(hipMalloc(&p, size));
      CHECK_HIP(hipFree(p));
    } else {
      CHECK_HIP(hipportMalloc(&p, size));
      CHECK_HIP(hipportFree(p));
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return iterations / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  bool record = true;
  int iterations = 2000;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-record") == 0) record = false;
    else iterations = std::atoi(argv[i]);
  }
  int devices = 0;
  CHECK_HIP(hipGetDeviceCount(&devices));
  hipDeviceProp_t prop;
  CHECK_HIP(hipGetDeviceProperties(&prop, 0));
  std::printf("{\"device\":\"%s\",\"devices\":%d,\"caching\":%s,\"warp_size\":%d}\n", prop.name, devices,
              hipportCachingEnabled() ? "true" : "false", prop.warpSize);

  hipStream_t streams[kStreams];
  for (auto& s : streams) CHECK_HIP(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  unsigned* errors = nullptr;
  CHECK_HIP(hipMalloc(&errors, sizeof(unsigned)));
  CHECK_HIP(hipMemset(errors, 0, sizeof(unsigned)));
  int failures = 0;

  // 1. allocate / fill / verify / free in a loop on random streams
  {
    std::mt19937 rng(2024);
    struct Live { unsigned* p; size_t n; unsigned v; int s; };
    std::vector<Live> live;
    for (int it = 0; it < iterations; ++it) {
      if (live.size() < 24 && (rng() % 3 != 0 || live.empty())) {
        Live b{nullptr, random_size(rng) / sizeof(unsigned) + 1, static_cast<unsigned>(rng()), static_cast<int>(rng() % kStreams)};
        CHECK_HIP(hipportMallocAsync(&b.p, b.n * sizeof(unsigned), streams[b.s]));
        fill<<<256, 256, 0, streams[b.s]>>>(b.p, b.n, b.v);
        live.push_back(b);
      } else {
        const size_t k = rng() % live.size();
        Live b = live[k];
        live[k] = live.back();
        live.pop_back();
        verify<<<256, 256, 0, streams[b.s]>>>(b.p, b.n, b.v, errors);
        CHECK_HIP(hipportFreeAsync(b.p, streams[b.s]));
      }
    }
    for (const Live& b : live) {
      verify<<<256, 256, 0, streams[b.s]>>>(b.p, b.n, b.v, errors);
      CHECK_HIP(hipportFree(b.p));
    }
    CHECK_HIP(hipDeviceSynchronize());
    const unsigned bad = read_counter(errors);
    hipportMemoryStats_t st;
    CHECK_HIP(hipportMemoryStats(0, &st));
    std::printf("{\"check\":\"loop\",\"iterations\":%d,\"errors\":%u,\"device_allocs\":%lld,\"retries\":%lld}\n",
                iterations, bad, static_cast<long long>(st.num_device_alloc), static_cast<long long>(st.num_alloc_retries));
    failures += bad != 0;
  }

  // 2. cross-stream reuse while a slow kernel still reads the freed block
  {
    const size_t n = (1 << 20) / sizeof(unsigned);
    unsigned corrupted_rounds = 0, reused_while_busy = 0;
    const int rounds = 50;
    for (int r = 0; r < rounds; ++r) {
      unsigned* a = nullptr;
      CHECK_HIP(hipportMallocAsync(&a, n * sizeof(unsigned), streams[0]));
      fill<<<256, 256, 0, streams[0]>>>(a, n, 0x1234u + r);
      CHECK_HIP(hipStreamSynchronize(streams[0]));
      slow_verify<<<64, 256, 0, streams[1]>>>(a, n, 0x1234u + r, 20000000LL, errors);
      if (record) CHECK_HIP(hipportRecordStream(a, streams[1]));
      CHECK_HIP(hipportFree(a));
      unsigned* b = nullptr;
      CHECK_HIP(hipportMallocAsync(&b, n * sizeof(unsigned), streams[0]));
      reused_while_busy += (b == a);
      fill<<<256, 256, 0, streams[0]>>>(b, n, 0xdead0000u + r);
      CHECK_HIP(hipDeviceSynchronize());
      corrupted_rounds += read_counter(errors) != 0;
      CHECK_HIP(hipportFree(b));
    }
    std::printf("{\"check\":\"cross_stream\",\"record_stream\":%s,\"rounds\":%d,\"reused_while_busy\":%u,"
                "\"corrupted_rounds\":%u}\n",
                record ? "true" : "false", rounds, reused_while_busy, corrupted_rounds);
    if (record && hipportCachingEnabled()) failures += corrupted_rounds != 0 || reused_while_busy != 0;
  }

  // 3. everything returned
  {
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipportEmptyCache());
    const size_t reserved = hipportMemoryReserved(0), allocated = hipportMemoryAllocated(0);
    std::printf("{\"check\":\"empty_cache\",\"reserved\":%zu,\"allocated\":%zu,\"max_reserved\":%zu}\n", reserved,
                allocated, hipportMaxMemoryReserved(0));
    failures += reserved != 0 || allocated != 0;
  }

  // 4. alloc/free pairs per second
  for (size_t size : {size_t(512), size_t(64) << 10, size_t(1) << 20, size_t(16) << 20}) {
    const int reps = size >= (size_t(16) << 20) ? 500 : 5000;
    const double cached = pairs_per_second(false, size, reps);
    const double raw = pairs_per_second(true, size, reps);
    std::printf("{\"bench\":\"alloc_free_pairs_per_s\",\"size\":%zu,\"hipport\":%.0f,\"raw_hipMalloc\":%.0f}\n", size,
                cached, raw);
  }

  // JSON snapshot size, to show the snapshot works on a device
  std::printf("{\"check\":\"snapshot\",\"json_length\":%zu}\n", hipportMemorySnapshot(nullptr, 0));
  std::printf("{\"result\":\"%s\",\"failures\":%d}\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
