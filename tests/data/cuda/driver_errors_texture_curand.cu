// Driver-API error checks (cuGetErrorString), a texture object read, curand device API, pinned memory, a device limit.
#include <cuda.h>
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <cstdio>
#include <vector>

#define CU_CHECK(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) { const char* msg; \
    cuGetErrorString(r_, &msg); fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, msg); return 1; } } while (0)
#define CUDA_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s\n", cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void sample(cudaTextureObject_t tex, float* out, int w, unsigned long long seed) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    curandState st;
    curand_init(seed, x, 0, &st);
    float u = curand_uniform(&st);
    if (x < w) out[x] = tex1Dfetch<float>(tex, x) * u + __ldg(out + x);
}

int run_driver(const char* ptx) {
    CU_CHECK(cuInit(0));
    CUdevice dev; CU_CHECK(cuDeviceGet(&dev, 0));
    CUcontext ctx; CU_CHECK(cuCtxCreate(&ctx, 0, dev));
    CUmodule mod; CU_CHECK(cuModuleLoadData(&mod, ptx));
    CUfunction fn; CU_CHECK(cuModuleGetFunction(&fn, mod, "kern"));
    CUdeviceptr d; CU_CHECK(cuMemAlloc(&d, 1024));
    void* args[] = {&d};
    CU_CHECK(cuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr));
    CU_CHECK(cuCtxSynchronize());
    int major = 0;
    CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CU_CHECK(cuMemFree(d));
    CU_CHECK(cuModuleUnload(mod));
    CU_CHECK(cuCtxDestroy(ctx));
    return major;
}

int main() {
    const int w = 256;
    if (cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 16) != cudaSuccess) fprintf(stderr, "printf FIFO stays\n");
    if (cudaDeviceSetLimit(cudaLimitStackSize, 4096) != cudaSuccess) fprintf(stderr, "stack size stays\n");
    float* buf; CUDA_CHECK(cudaMalloc(&buf, w * sizeof(float)));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = buf;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = w * sizeof(float);
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex = 0;
    CUDA_CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
    float* out; CUDA_CHECK(cudaMallocHost(&out, w * sizeof(float)));
    sample<<<1, w>>>(tex, buf, w, 42ULL);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(out, buf, w * sizeof(float), cudaMemcpyDeviceToHost, 0));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaDestroyTextureObject(tex));
    CUDA_CHECK(cudaFreeHost(out));
    std::vector<int> v(4);
    int dev_count = 0; cudaGetDeviceCount(&dev_count);
    size_t free_b, total_b; cudaMemGetInfo(&free_b, &total_b);
    printf("%d %zu\n", dev_count, free_b);
    return run_driver("") > 0 ? 0 : 1;
}
