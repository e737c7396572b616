// Histogram of pseudo-random bytes, checked against a CPU count.
#include <cstdio>
#include <random>
#include "histogram.h"

int main() {
  std::vector<unsigned char> data(1 << 24);
  std::mt19937 rng(7);
  for (auto& v : data) v = static_cast<unsigned char>(rng());
  std::string error;
  std::vector<unsigned> gpu = gpu_histogram(data, &error);
  if (gpu.empty()) {
    std::fprintf(stderr, "GPU histogram failed: %s\n", error.c_str());
    return 1;
  }
  std::vector<unsigned> cpu(kBins, 0);
  for (unsigned char v : data) ++cpu[v * kBins / 256];
  std::printf("histogram of %zu bytes: %s\n", data.size(), gpu == cpu ? "matches the CPU" : "MISMATCH");
  return gpu == cpu ? 0 : 1;
}
