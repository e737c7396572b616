// Driver API: context, module loading, kernel launch through cuLaunchKernel.
#include <cuda.h>
#include <cstdio>
#include <vector>

#define CU_CHECK(call)                                                   \
  do {                                                                   \
    CUresult r = (call);                                                 \
    if (r != CUDA_SUCCESS) {                                             \
      std::fprintf(stderr, "%s:%d: error %d\n", __FILE__, __LINE__,      \
                   static_cast<int>(r));                                 \
      return 1;                                                          \
    }                                                                    \
  } while (0)

int main(int argc, char** argv) {
  CU_CHECK(cuInit(0));
  CUdevice dev;
  CU_CHECK(cuDeviceGet(&dev, 0));
  char name[256];
  CU_CHECK(cuDeviceGetName(name, sizeof(name), dev));
  int major = 0;
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CUcontext ctx;
  CU_CHECK(cuCtxCreate(&ctx, 0, dev));
  CUmodule mod;
  CU_CHECK(cuModuleLoad(&mod, argc > 1 ? argv[1] : "kernel.co"));
  CUfunction fn;
  CU_CHECK(cuModuleGetFunction(&fn, mod, "scale"));
  size_t n = 1024;
  CUdeviceptr d;
  CU_CHECK(cuMemAlloc(&d, n * sizeof(float)));
  std::vector<float> h(n, 1.0f);
  CU_CHECK(cuMemcpyHtoD(d, h.data(), n * sizeof(float)));
  CUstream stream;
  CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  void* args[] = {&d, &n};
  CU_CHECK(cuLaunchKernel(fn, 4, 1, 1, 256, 1, 1, 0, stream, args, nullptr));
  CU_CHECK(cuStreamSynchronize(stream));
  CU_CHECK(cuMemcpyDtoH(h.data(), d, n * sizeof(float)));
  CUdeviceptr copy;
  CU_CHECK(cuMemAlloc(&copy, n * sizeof(float)));
  CU_CHECK(cuMemcpy(copy, d, n * sizeof(float)));
  CU_CHECK(cuMemcpyAsync(copy, d, n * sizeof(float), stream));
  CU_CHECK(cuFuncSetCacheConfig(fn, CU_FUNC_CACHE_PREFER_SHARED));
  CU_CHECK(cuMemFree(copy));
  CU_CHECK(cuMemFree(d));
  CU_CHECK(cuStreamDestroy(stream));
  CU_CHECK(cuModuleUnload(mod));
  CU_CHECK(cuCtxDestroy(ctx));
  std::printf("%s cc %d: %f\n", name, major, h[0]);
  return 0;
}
