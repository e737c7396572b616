// A device query as tutorials write it: every field printed, including the ones HIP added late.
#include <cstdio>

static void print_device(const cudaDeviceProp& prop, int i) {
    std::printf("device %d: %s (cc %d.%d)\n", i, prop.name, prop.major, prop.minor);
    std::printf("  global memory %zu, shared/block %zu, shared/SM %zu (opt-in %zu)\n", prop.totalGlobalMem,
                prop.sharedMemPerBlock, prop.sharedMemPerMultiprocessor, prop.sharedMemPerBlockOptin);
    std::printf("  regs/block %d, regs/SM %d, warp %d, SMs %d, blocks/SM %d\n", prop.regsPerBlock,
                prop.regsPerMultiprocessor, prop.warpSize, prop.multiProcessorCount, prop.maxBlocksPerMultiProcessor);
    std::printf("  copy engines %d, overlap %d, unified addressing %d, stream priorities %d\n",
                prop.asyncEngineCount, prop.deviceOverlap, prop.unifiedAddressing, prop.streamPrioritiesSupported);
}

// Where a pointer lives, as memory-checking helpers ask it (CUDA 11's `type` member).
static const char* where(const void* ptr) {
    cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, ptr) != cudaSuccess) return "unknown";
    switch (attr.type) {
        case cudaMemoryTypeUnregistered: return "unregistered host";
        case cudaMemoryTypeHost: return "pinned host";
        case cudaMemoryTypeDevice: return attr.device >= 0 ? "device" : "?";
        case cudaMemoryTypeManaged: return "managed";
    }
    return "?";
}

int main() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) return 1;
    cudaDeviceProp* props = new cudaDeviceProp[count > 0 ? count : 1];
    for (int i = 0; i < count; ++i) {
        cudaGetDeviceProperties(&props[i], i);
        print_device(props[i], i);
        std::printf("  L1 global %d, local %d\n", props[i].globalL1CacheSupported, props[i].localL1CacheSupported);
    }
    delete[] props;
    float* managed = nullptr;
    cudaMallocManaged(&managed, 64);
    std::printf("managed buffer: %s\n", where(managed));
    cudaFree(managed);
    return 0;
}
