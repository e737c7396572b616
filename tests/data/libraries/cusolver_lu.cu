// Solve A x = b by LU factorisation with partial pivoting: getrf (with its bufferSize query)
// followed by getrs, on the cuSOLVER dense API with a user stream.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#define CUSOLVER_CHECK(x) do { cusolverStatus_t s_ = (x); if (s_ != CUSOLVER_STATUS_SUCCESS) { \
  fprintf(stderr, "cuSOLVER error %d at line %d\n", (int)s_, __LINE__); exit(1); } } while (0)

int main() {
  const int n = 3, lda = 3, ldb = 3, nrhs = 1;
  // column-major A
  std::vector<double> A = {1.0, 4.0, 7.0, 2.0, 5.0, 8.0, 3.0, 6.0, 10.0};
  std::vector<double> b = {1.0, 2.0, 3.0};
  std::vector<double> x(n);

  cusolverDnHandle_t handle = nullptr;
  cudaStream_t stream = nullptr;
  CUSOLVER_CHECK(cusolverDnCreate(&handle));
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  CUSOLVER_CHECK(cusolverDnSetStream(handle, stream));

  double *dA, *dB, *dWork;
  int *dIpiv, *dInfo;
  cudaMalloc((void**)&dA, sizeof(double) * A.size());
  cudaMalloc((void**)&dB, sizeof(double) * b.size());
  cudaMalloc((void**)&dIpiv, sizeof(int) * n);
  cudaMalloc((void**)&dInfo, sizeof(int));
  cudaMemcpyAsync(dA, A.data(), sizeof(double) * A.size(), cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(dB, b.data(), sizeof(double) * b.size(), cudaMemcpyHostToDevice, stream);

  int lwork = 0;
  CUSOLVER_CHECK(cusolverDnDgetrf_bufferSize(handle, n, n, dA, lda, &lwork));
  cudaMalloc((void**)&dWork, sizeof(double) * lwork);
  CUSOLVER_CHECK(cusolverDnDgetrf(handle, n, n, dA, lda, dWork, dIpiv, dInfo));
  CUSOLVER_CHECK(cusolverDnDgetrs(handle, CUBLAS_OP_N, n, nrhs, dA, lda, dIpiv, dB, ldb, dInfo));

  int info = 0;
  cudaMemcpyAsync(&info, dInfo, sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaMemcpyAsync(x.data(), dB, sizeof(double) * x.size(), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  printf("info = %d, x = (%f, %f, %f)\n", info, x[0], x[1], x[2]);

  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dIpiv);
  cudaFree(dInfo);
  cudaFree(dWork);
  CUSOLVER_CHECK(cusolverDnDestroy(handle));
  cudaStreamDestroy(stream);
  return info == 0 ? 0 : 1;
}
