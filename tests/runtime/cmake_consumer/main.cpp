// Allocates through the C and C++ APIs; prints what the allocator reports.
#include <hipport/runtime.h>

#include <cstdio>

int main() {
  float* data = nullptr;
  hipError_t err = hipportMalloc(&data, 1000 * sizeof(float));
  if (err != hipSuccess) {
    std::printf("malloc failed: %d\n", static_cast<int>(err));
    return 3;
  }
  std::printf("allocated=%zu reserved=%zu\n", hipportMemoryAllocated(0), hipportMemoryReserved(0));
  hipportFree(data);
  hipportEmptyCache();
  std::printf("after=%zu\n", hipportMemoryReserved(0));
  return 0;
}
