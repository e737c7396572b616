// Block reduction with shared memory, warp shuffles and atomics; unified memory for the result.
#include <algorithm>
#include <cstdio>

template <typename T>
__device__ T warp_reduce(T v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return v;
}

template <typename T, int BLOCK>
__global__ void reduce(const T* __restrict__ in, T* out, int n) {
  __shared__ T partial[BLOCK / 32];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  T v = i < n ? in[i] : T(0);
  v = warp_reduce(v);
  int lane = tid % warpSize, warp = tid / warpSize;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < BLOCK / warpSize ? partial[lane] : T(0);
    v = warp_reduce(v);
    if (lane == 0) atomicAdd(out, v);
  }
}

__global__ void count_positive(const int* in, unsigned long long* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool pred = i < n && in[i] > 0;
  unsigned long long ballot = __ballot(pred);
  if (threadIdx.x % warpSize == 0) atomicAdd(count, (unsigned long long)__popcll(ballot));
  atomicMax((int*)count + 1, i);
  atomicCAS((int*)count + 1, 0, 1);
}

// CUDA has no float atomicMax, so code brings its own; HIP has one.
__device__ __forceinline__ float atomicMax(float* address, float val) {
  int* bits = (int*)address;
  int old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (old != assumed);
  return __int_as_float(old);
}

// A per-block histogram in shared memory, with a block-scope spin lock around a float maximum.
__global__ void block_histogram(const int* in, unsigned* bins, float* block_max, int n) {
  __shared__ unsigned local[16];
  __shared__ int lock;
  __shared__ float max_value;
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  if (threadIdx.x == 0) { lock = 0; max_value = 0.f; }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto lane = threadIdx.x;  // CUDA's unsigned int; HIP 5.2's is an object
  const uint3 where = blockIdx;  // and CUDA's uint3
  lane += where.x & 0;
  lane += min(blockDim.x, 16u) + std::max(threadIdx.y, 0u);
  if (i < n && lane < 1024) {
    atomicAdd_block(&local[in[i] & 15], 1u);
    atomicOr_block(&local[0], 0u);
    while (atomicCAS_block(&lock, 0, 1) != 0) {}
    max_value = fmaxf(max_value, (float)in[i]);
    atomicExch_block(&lock, 0);
  }
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
  if (threadIdx.x == 0) atomicMax(&block_max[0], max_value);
}

int main() {
  const int n = 1 << 16;
  float *in, *out;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, sizeof(float));
  for (int i = 0; i < n; ++i) in[i] = 1.0f;
  *out = 0;
  cudaMemPrefetchAsync(in, n * sizeof(float), 0, 0);
  reduce<float, 256><<<n / 256, 256>>>(in, out, n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) { std::printf("%s\n", cudaGetErrorName(err)); return 1; }
  cudaDeviceSynchronize();
  if (isnan(*out) || isinf(*out)) return 1;  // nvcc's runtime header brought <math.h>
  std::printf("sum=%f\n", *out);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
