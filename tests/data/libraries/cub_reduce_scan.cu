// Device-wide sum and exclusive prefix sum with CUB, using the usual two-phase temporary
// storage query, plus a block-level reduction in a kernel.
#include <cstdio>
#include <vector>
#include <cub/cub.cuh>
#include <cub/device/device_scan.cuh>

#define CUDA_CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  printf("error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

template <int BLOCK>
__global__ void block_sums(const int* in, int* out) {
  typedef cub::BlockReduce<int, BLOCK> BlockReduceT;
  __shared__ typename BlockReduceT::TempStorage temp;
  int v = in[blockIdx.x * BLOCK + threadIdx.x];
  int total = BlockReduceT(temp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

int main() {
  const int n = 1 << 16;
  std::vector<int> h_in(n);
  for (int i = 0; i < n; ++i) h_in[i] = i % 7;
  int *d_in, *d_sum, *d_scan, *d_blocks;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_sum, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_scan, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_blocks, (n / 256) * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));

  void* d_temp = nullptr;
  size_t temp_bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_sum, n, stream));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  CUDA_CHECK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_sum, n, stream));
  CUDA_CHECK(cudaFree(d_temp));

  d_temp = nullptr;
  temp_bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_scan, n, stream));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_scan, n, stream));

  block_sums<256><<<n / 256, 256, 0, stream>>>(d_in, d_blocks);
  CUDA_CHECK(cudaStreamSynchronize(stream));

  int sum = 0, last = 0;
  CUDA_CHECK(cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&last, d_scan + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
  printf("sum=%d scan[n-1]+in[n-1]=%d max=%d\n", sum, last + h_in[n - 1], CUB_MAX(sum, last));

  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_sum));
  CUDA_CHECK(cudaFree(d_scan));
  CUDA_CHECK(cudaFree(d_blocks));
  CUDA_CHECK(cudaStreamDestroy(stream));
  return 0;
}
