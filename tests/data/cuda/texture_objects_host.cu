// Pinned host memory, 2D copies, texture objects, peer access, graphs.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void sample(cudaTextureObject_t tex, float* out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  out[x] = tex1Dfetch<float>(tex, x);
}

__global__ void noop() {}

int main() {
  const int w = 256;
  float *h, *d, *o;
  cudaHostAlloc(&h, w * sizeof(float), cudaHostAllocDefault);
  cudaMallocHost((void**)&h, w * sizeof(float));
  float* mapped = nullptr;
  cudaHostGetDevicePointer(&mapped, h, 0);
  cudaMalloc(&d, w * sizeof(float));
  cudaMalloc(&o, w * sizeof(float));
  cudaMemcpy(d, h, w * sizeof(float), cudaMemcpyHostToDevice);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = w * sizeof(float);
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  cudaCreateTextureObject(&tex, &res, &td, nullptr);
  sample<<<1, w>>>(tex, o, w);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  noop<<<1, 1, 0, s>>>();
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  int can = 0;
  cudaDeviceCanAccessPeer(&can, 0, 1);
  if (can) cudaDeviceEnablePeerAccess(1, 0);
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  cudaDestroyTextureObject(tex);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaFreeHost(h);
  cudaFree(d);
  cudaFree(o);
  std::printf("%zu\n", free_b);
  return 0;
}
