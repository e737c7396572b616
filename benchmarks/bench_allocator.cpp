// Allocator benchmark on the host backend (or a GPU: compile without HIPPORT_HOST_BACKEND).
//
//   bench_allocator pairs       alloc/free pairs per second for a few sizes, 1 and 4 threads
//   bench_allocator fragment    reserved/allocated over a mixed-size allocation trace
//
// Run it once normally and once with HIPPORT_NO_CACHING=1 to compare (benchmarks/
// bench_allocator.py does both).  Prints one JSON object per line.
#include <hipport/runtime.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

namespace {

void check(hipError_t err, const char* what) {
  if (err != hipSuccess) {
    std::fprintf(stderr, "%s failed: %d\n", what, static_cast<int>(err));
    std::exit(1);
  }
}

double pairs_per_second(size_t size, int threads, double min_seconds) {
  std::vector<std::thread> pool;
  std::vector<long> counts(static_cast<size_t>(threads), 0);
  const auto start = std::chrono::steady_clock::now();
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      long n = 0;
      do {
        for (int i = 0; i < 256; ++i) {
          void* p = nullptr;
          check(hipportMalloc(&p, size), "hipportMalloc");
          check(hipportFree(p), "hipportFree");
        }
        n += 256;
      } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < min_seconds);
      counts[static_cast<size_t>(t)] = n;
    });
  }
  for (auto& th : pool) th.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  long total = 0;
  for (long c : counts) total += c;
  return static_cast<double>(total) / seconds;
}

// A trace like a training step's: many small and medium tensors with short lives, some large
// ones with long lives; sizes log-uniform from 256 B to 64 MiB.
void fragmentation(unsigned seed, int steps) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> log_size(std::log(256.0), std::log(64.0 * 1024 * 1024));
  struct Live { void* p; int dies; };
  std::vector<Live> live;
  double ratio_sum = 0;
  int samples = 0;
  size_t peak_allocated = 0, peak_reserved = 0;
  for (int step = 0; step < steps; ++step) {
    for (size_t i = 0; i < live.size();) {
      if (live[i].dies <= step) {
        check(hipportFree(live[i].p), "hipportFree");
        live[i] = live.back();
        live.pop_back();
      } else {
        ++i;
      }
    }
    const int births = 1 + static_cast<int>(rng() % 8);
    for (int b = 0; b < births; ++b) {
      const size_t size = static_cast<size_t>(std::exp(log_size(rng)));
      const int life = size > (8u << 20) ? 50 + static_cast<int>(rng() % 200) : 1 + static_cast<int>(rng() % 20);
      void* p = nullptr;
      check(hipportMalloc(&p, size), "hipportMalloc");
      live.push_back({p, step + life});
    }
    const size_t allocated = hipportMemoryAllocated(0), reserved = hipportMemoryReserved(0);
    peak_allocated = std::max(peak_allocated, allocated);
    peak_reserved = std::max(peak_reserved, reserved);
    if (step >= steps / 10 && allocated > 0) {  // skip the warm-up
      ratio_sum += static_cast<double>(reserved) / static_cast<double>(allocated);
      ++samples;
    }
  }
  for (const Live& l : live) check(hipportFree(l.p), "hipportFree");
  hipportMemoryStats_t s;
  check(hipportMemoryStats(0, &s), "hipportMemoryStats");
  std::printf("{\"bench\":\"fragmentation\",\"caching\":%s,\"steps\":%d,\"mean_reserved_over_allocated\":%.3f,"
              "\"peak_allocated\":%zu,\"peak_reserved\":%zu,\"peak_ratio\":%.3f,\"device_allocs\":%lld,"
              "\"allocations\":%lld}\n",
              hipportCachingEnabled() ? "true" : "false", steps, ratio_sum / samples, peak_allocated, peak_reserved,
              static_cast<double>(peak_reserved) / static_cast<double>(peak_allocated),
              static_cast<long long>(s.num_device_alloc),
              static_cast<long long>(s.allocation[HIPPORT_STAT_ALL].allocated));
  check(hipportEmptyCache(), "hipportEmptyCache");
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "pairs";
  const double seconds = argc > 2 ? std::atof(argv[2]) : 0.3;
  if (std::strcmp(mode, "pairs") == 0) {
    for (size_t size : {size_t(512), size_t(64) << 10, size_t(1) << 20, size_t(16) << 20}) {
      for (int threads : {1, 4}) {
        const double rate = pairs_per_second(size, threads, seconds);
        std::printf("{\"bench\":\"pairs_per_second\",\"caching\":%s,\"size\":%zu,\"threads\":%d,\"rate\":%.0f}\n",
                    hipportCachingEnabled() ? "true" : "false", size, threads, rate);
        check(hipportEmptyCache(), "hipportEmptyCache");
      }
    }
  } else if (std::strcmp(mode, "fragment") == 0) {
    fragmentation(42, argc > 2 ? std::atoi(argv[2]) : 20000);
  } else {
    std::fprintf(stderr, "usage: %s pairs [seconds] | fragment [steps]\n", argv[0]);
    return 2;
  }
  return 0;
}
