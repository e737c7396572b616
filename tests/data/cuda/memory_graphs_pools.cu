// Pitched, 3D and stream-ordered memory, graphs, host functions, memory pools, IPC and block-scope atomics.
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <cstdio>
#include <cstdint>
#define CUDA_CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { fprintf(stderr, "%s:%d %s %s\n", __FILE__, __LINE__, cudaGetErrorName(err_), cudaGetErrorString(err_)); exit(1);} } while (0)
__device__ float row_dummy() { return 1.f; }
__global__ void k2d(float* p, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) { float* row = (float*)((char*)p + y * pitch); row[x] += 1.f; }
  unsigned m = __activemask(); __syncwarp(m);
  float v = __shfl_sync(m, row_dummy(), 0, 16);
}
__global__ void kcas(unsigned long long* c) {
  unsigned long long old = *c, assumed;
  do { assumed = old; old = atomicCAS(c, assumed, assumed + 1); } while (assumed != old);
  atomicAdd_block((int*)c, 1); __threadfence(); __threadfence_block();
  extern __shared__ unsigned char dyn[];
  dyn[threadIdx.x] = 0;
}
// Timestamps as profiling kernels take them: the nanosecond timer and the SM, read through PTX.
__global__ void stamp(unsigned long long* t, unsigned* sm) {
  unsigned long long ns; unsigned id;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(ns));
  asm("mov.u32 %0, %smid;" : "=r"(id));
  t[blockIdx.x] = ns; sm[blockIdx.x] = id;
}
void CUDART_CB host_fn(void* u) { printf("host fn\n"); }
int main() {
  float* p; size_t pitch;
  CUDA_CHECK(cudaMallocPitch(&p, &pitch, 64 * sizeof(float), 64));
  float h[64 * 64];
  CUDA_CHECK(cudaMemcpy2D(p, pitch, h, 64 * sizeof(float), 64 * sizeof(float), 64, cudaMemcpyHostToDevice));
  cudaExtent ext = make_cudaExtent(64 * sizeof(float), 64, 4);
  cudaPitchedPtr pp; CUDA_CHECK(cudaMalloc3D(&pp, ext));
  cudaMemcpy3DParms parms = {0};
  parms.srcPtr = make_cudaPitchedPtr(h, 64 * sizeof(float), 64, 64); parms.dstPtr = pp; parms.extent = ext; parms.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3D(&parms));
  cudaStream_t s; CUDA_CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, 0));
  cudaGraph_t g; cudaGraphExec_t ge;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  k2d<<<dim3(4, 4), dim3(16, 16), 0, s>>>(p, pitch, 64, 64);
  CUDA_CHECK(cudaLaunchHostFunc(s, host_fn, nullptr));
  CUDA_CHECK(cudaStreamEndCapture(s, &g));
  CUDA_CHECK(cudaGraphInstantiate(&ge, g, 0));
  CUDA_CHECK(cudaGraphUpload(ge, s));
  CUDA_CHECK(cudaGraphLaunch(ge, s));
  float* m; CUDA_CHECK(cudaMallocManaged(&m, 1 << 20));
  int dev = 0;
  CUDA_CHECK(cudaMemAdvise(m, 1 << 20, cudaMemAdviseSetReadMostly, dev));
  CUDA_CHECK(cudaMemPrefetchAsync(m, 1 << 20, dev, s));
  unsigned long long* c; CUDA_CHECK(cudaMalloc(&c, 8));
  CUDA_CHECK(cudaFuncSetAttribute(kcas, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  kcas<<<1, 32, 65536, s>>>(c);
  int optin; CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  cudaMemPool_t pool; CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, dev));
  uint64_t thr = UINT64_MAX; CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
  void* a; CUDA_CHECK(cudaMallocAsync(&a, 1024, s)); CUDA_CHECK(cudaFreeAsync(a, s));
  cudaIpcMemHandle_t ih; CUDA_CHECK(cudaIpcGetMemHandle(&ih, c));
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1); cudaEventRecord(e0, s); cudaEventRecordWithFlags(e1, s, cudaEventRecordDefault);
  cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1);
  if (cudaStreamQuery(s) == cudaErrorNotReady) printf("busy\n");
  int can; cudaDeviceCanAccessPeer(&can, 0, 1); if (can) cudaDeviceEnablePeerAccess(1, 0);
  cudaProfilerStart(); cudaProfilerStop();
  CUDA_CHECK(cudaMemcpyAsync(h, p, 4, cudaMemcpyDefault, s));
  cudaGraphExecDestroy(ge); cudaGraphDestroy(g); cudaFree(p); cudaFree(pp.ptr); cudaFree(m); cudaFree(c);
  cudaDeviceReset();
}
