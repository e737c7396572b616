// Device helpers of the histogram kernel.
#pragma once
#include <cuda_runtime.h>
#include "histogram.h"

__host__ __device__ inline int bin_of(unsigned char value) { return value * kBins / 256; }

inline bool cuda_ok(cudaError_t status, std::string* error) {
  if (status == cudaSuccess) return true;
  if (error) *error = cudaGetErrorString(status);
  return false;
}
