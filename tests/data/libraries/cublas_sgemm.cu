// C = alpha * A * B + beta * C with cuBLAS on a user stream, column-major, host pointer mode.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cublas_v2.h>

static void check(cublasStatus_t st, const char* what) {
  if (st != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "%s failed: %d\n", what, (int)st);
    exit(1);
  }
}

int main() {
  const int m = 64, n = 32, k = 48;
  const float alpha = 1.0f, beta = 0.5f;
  std::vector<float> hA(m * k, 1.0f), hB(k * n, 2.0f), hC(m * n, 1.0f);

  float *dA, *dB, *dC;
  cudaMalloc((void**)&dA, hA.size() * sizeof(float));
  cudaMalloc((void**)&dB, hB.size() * sizeof(float));
  cudaMalloc((void**)&dC, hC.size() * sizeof(float));

  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cublasHandle_t handle;
  check(cublasCreate(&handle), "cublasCreate");
  check(cublasSetStream(handle, stream), "cublasSetStream");
  check(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");

  check(cublasSetMatrixAsync(m, k, sizeof(float), hA.data(), m, dA, m, stream), "set A");
  check(cublasSetMatrixAsync(k, n, sizeof(float), hB.data(), k, dB, k, stream), "set B");
  check(cublasSetMatrixAsync(m, n, sizeof(float), hC.data(), m, dC, m, stream), "set C");

  check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, m, dB, k, &beta, dC, m),
        "cublasSgemm");
  // the same product through the _v2 entry point and the mixed-precision GemmEx
  check(cublasSgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, m, dB, k, &beta, dC, m),
        "cublasSgemm_v2");
  check(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, CUDA_R_32F, m, dB, CUDA_R_32F, k,
                     &beta, dC, CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");

  float norm = 0.0f;
  check(cublasSnrm2(handle, m * n, dC, 1, &norm), "cublasSnrm2");
  check(cublasGetMatrixAsync(m, n, sizeof(float), dC, m, hC.data(), m, stream), "get C");
  cudaStreamSynchronize(stream);
  printf("C[0] = %f, |C| = %f\n", hC[0], norm);

  check(cublasDestroy(handle), "cublasDestroy");
  cudaStreamDestroy(stream);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return 0;
}
