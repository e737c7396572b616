// Runtime queries and settings, occupancy with a block-size-dependent shared memory, host registration, IPC, 3D memsets and graph kernel nodes.
#include <cuda_runtime.h>
#include <cstdio>
template <int N> __global__ void tk(float* x) { x[threadIdx.x] = N; }
__global__ void plain(float* x) { extern __shared__ float s[]; s[0] = 0; x[0] = s[0]; }
size_t smem_for(int block) { return block * sizeof(float); }
int main() {
  int mg, bs; cudaOccupancyMaxPotentialBlockSizeVariableSMem(&mg, &bs, plain, smem_for, 0);
  cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, tk<4>);
  printf("%d %zu %d\n", fa.numRegs, fa.sharedSizeBytes, fa.maxThreadsPerBlock);
  cudaEvent_t e; cudaEventCreateWithFlags(&e, cudaEventBlockingSync | cudaEventDisableTiming);
  cudaSetDeviceFlags(cudaDeviceScheduleYield);
  int lo, hi; cudaDeviceGetStreamPriorityRange(&lo, &hi);
  cudaStream_t s; cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, hi);
  size_t fr, tot; cudaMemGetInfo(&fr, &tot);
  char bus[32]; cudaDeviceGetPCIBusId(bus, 32, 0);
  float* h = (float*)malloc(4096); cudaHostRegister(h, 4096, cudaHostRegisterMapped | cudaHostRegisterPortable);
  float* dh; cudaHostGetDevicePointer((void**)&dh, h, 0); cudaHostUnregister(h);
  cudaIpcMemHandle_t ih; void* peer; cudaIpcOpenMemHandle(&peer, ih, cudaIpcMemLazyEnablePeerAccess); cudaIpcCloseMemHandle(peer);
  cudaPitchedPtr pp; cudaExtent ext = make_cudaExtent(64, 4, 4); cudaMalloc3D(&pp, ext); cudaMemset3D(pp, 0, ext);
  cudaGraph_t g; cudaGraphCreate(&g, 0);
  cudaKernelNodeParams kp = {}; void* args[] = {&dh}; kp.func = (void*)plain; kp.gridDim = dim3(1); kp.blockDim = dim3(32); kp.kernelParams = args;
  cudaGraphNode_t n; cudaGraphAddKernelNode(&n, g, nullptr, 0, &kp);
  cudaStreamCaptureStatus cs; cudaStreamIsCapturing(s, &cs);
  cudaGraphExec_t ge; cudaGraphInstantiateWithFlags(&ge, g, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  cudaDeviceSetCacheConfig(cudaFuncCachePreferL1);
  cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeFourByte);
  int v; cudaDriverGetVersion(&v); cudaGetDeviceCount(&v);
  cudaError_t err = cudaPeekAtLastError(); printf("%s %s\n", cudaGetErrorName(err), cudaGetErrorString(err));
  plain<<<1, 32, 128, s>>>(dh);
  cudaStreamSynchronize(s); cudaStreamDestroy(s); cudaEventDestroy(e);
}
