// Shared-memory privatised histogram: each block counts into its own bins with shared-memory
// atomics, then adds them to the global result.
#include "histogram.cuh"

__global__ void histogram_kernel(const unsigned char* data, size_t n, unsigned* bins) {
  __shared__ unsigned local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    atomicAdd(&local[bin_of(data[i])], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

std::vector<unsigned> gpu_histogram(const std::vector<unsigned char>& data, std::string* error) {
  unsigned char* d_data = nullptr;
  unsigned* d_bins = nullptr;
  std::vector<unsigned> bins(kBins, 0);
  bool ok = cuda_ok(cudaMalloc(&d_data, data.size()), error) &&
            cuda_ok(cudaMalloc(&d_bins, kBins * sizeof(unsigned)), error) &&
            cuda_ok(cudaMemcpy(d_data, data.data(), data.size(), cudaMemcpyHostToDevice), error) &&
            cuda_ok(cudaMemset(d_bins, 0, kBins * sizeof(unsigned)), error);
  if (ok) {
    histogram_kernel<<<120, 256>>>(d_data, data.size(), d_bins);
    ok = cuda_ok(cudaGetLastError(), error) &&
         cuda_ok(cudaMemcpy(bins.data(), d_bins, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost), error);
  }
  (void)cudaFree(d_data);  // freeing after an error: nothing left to report
  (void)cudaFree(d_bins);
  return ok ? bins : std::vector<unsigned>();
}
