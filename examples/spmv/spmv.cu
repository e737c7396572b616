// A tridiagonal n x n matrix (2 on the diagonal, -1 beside it) times a vector of ones:
// every row sums to 0 except the first and last (1).  cuSPARSE generic API: descriptors for
// the CSR matrix and dense vectors, a work buffer sized by cusparseSpMV_bufferSize.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>

#define CUDA_OK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  std::printf("%s: %s\n", #call, cudaGetErrorString(e)); return 1; } } while (0)
#define SPARSE_OK(call) do { cusparseStatus_t s = (call); if (s != CUSPARSE_STATUS_SUCCESS) { \
  std::printf("%s: cuSPARSE status %d\n", #call, int(s)); return 1; } } while (0)

int main() {
  const int n = 1 << 16;
  std::vector<int> row_ptr(n + 1), cols;
  std::vector<float> vals;
  for (int r = 0; r < n; ++r) {
    row_ptr[r] = int(cols.size());
    for (int c = r - 1; c <= r + 1; ++c)
      if (c >= 0 && c < n) { cols.push_back(c); vals.push_back(c == r ? 2.0f : -1.0f); }
  }
  row_ptr[n] = int(cols.size());
  const int nnz = int(cols.size());

  int *d_rows, *d_cols;
  float *d_vals, *d_x, *d_y;
  CUDA_OK(cudaMalloc(&d_rows, (n + 1) * sizeof(int)));
  CUDA_OK(cudaMalloc(&d_cols, nnz * sizeof(int)));
  CUDA_OK(cudaMalloc(&d_vals, nnz * sizeof(float)));
  CUDA_OK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_OK(cudaMalloc(&d_y, n * sizeof(float)));
  CUDA_OK(cudaMemcpy(d_rows, row_ptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_cols, cols.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_vals, vals.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> ones(n, 1.0f);
  CUDA_OK(cudaMemcpy(d_x, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  cusparseHandle_t handle;
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t x, y;
  SPARSE_OK(cusparseCreate(&handle));
  SPARSE_OK(cusparseCreateCsr(&A, n, n, nnz, d_rows, d_cols, d_vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                              CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  SPARSE_OK(cusparseCreateDnVec(&x, n, d_x, CUDA_R_32F));
  SPARSE_OK(cusparseCreateDnVec(&y, n, d_y, CUDA_R_32F));
  const float alpha = 1.0f, beta = 0.0f;
  size_t buffer_size = 0;
  SPARSE_OK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, &beta, y,
                                    CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &buffer_size));
  void* buffer = nullptr;
  CUDA_OK(cudaMalloc(&buffer, buffer_size));
  SPARSE_OK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, &beta, y, CUDA_R_32F,
                         CUSPARSE_SPMV_ALG_DEFAULT, buffer));

  std::vector<float> result(n);
  CUDA_OK(cudaMemcpy(result.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  float total = 0;
  for (float v : result) total += v;
  std::printf("sum(A*1) = %.1f (expected 2.0)\n", total);

  SPARSE_OK(cusparseDestroySpMat(A));
  SPARSE_OK(cusparseDestroyDnVec(x));
  SPARSE_OK(cusparseDestroyDnVec(y));
  SPARSE_OK(cusparseDestroy(handle));
  for (void* p : {static_cast<void*>(d_rows), static_cast<void*>(d_cols), static_cast<void*>(d_vals),
                  static_cast<void*>(d_x), static_cast<void*>(d_y), buffer})
    CUDA_OK(cudaFree(p));
  return total == 2.0f ? 0 : 1;
}
