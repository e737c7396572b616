// y = alpha * A * x + beta * y for a CSR matrix with cuSPARSE's generic API (SpMV), including
// the external-buffer size query.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>

#define CHECK_CUDA(call)                                                          \
  do {                                                                            \
    cudaError_t e_ = (call);                                                      \
    if (e_ != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e_)); exit(1); } \
  } while (0)
#define CHECK_CUSPARSE(call)                                                      \
  do {                                                                            \
    cusparseStatus_t s_ = (call);                                                 \
    if (s_ != CUSPARSE_STATUS_SUCCESS) { printf("cuSPARSE error %d\n", (int)s_); exit(1); } \
  } while (0)

int main() {
  // 4x4 matrix with 9 non-zeros
  const int rows = 4, cols = 4, nnz = 9;
  std::vector<int> h_offsets = {0, 3, 4, 7, 9};
  std::vector<int> h_columns = {0, 2, 3, 1, 0, 2, 3, 1, 3};
  std::vector<float> h_values = {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f};
  std::vector<float> h_x = {1.f, 2.f, 3.f, 4.f}, h_y(rows, 0.f);
  const float alpha = 1.0f, beta = 0.0f;

  int *d_offsets, *d_columns;
  float *d_values, *d_x, *d_y;
  CHECK_CUDA(cudaMalloc((void**)&d_offsets, (rows + 1) * sizeof(int)));
  CHECK_CUDA(cudaMalloc((void**)&d_columns, nnz * sizeof(int)));
  CHECK_CUDA(cudaMalloc((void**)&d_values, nnz * sizeof(float)));
  CHECK_CUDA(cudaMalloc((void**)&d_x, cols * sizeof(float)));
  CHECK_CUDA(cudaMalloc((void**)&d_y, rows * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_offsets, h_offsets.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_columns, h_columns.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_values, h_values.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_x, h_x.data(), cols * sizeof(float), cudaMemcpyHostToDevice));

  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t matA;
  cusparseDnVecDescr_t vecX, vecY;
  void* d_buffer = nullptr;
  size_t buffer_size = 0;
  CHECK_CUSPARSE(cusparseCreate(&handle));
  CHECK_CUSPARSE(cusparseCreateCsr(&matA, rows, cols, nnz, d_offsets, d_columns, d_values,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  CHECK_CUSPARSE(cusparseCreateDnVec(&vecX, cols, d_x, CUDA_R_32F));
  CHECK_CUSPARSE(cusparseCreateDnVec(&vecY, rows, d_y, CUDA_R_32F));
  CHECK_CUSPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX,
                                         &beta, vecY, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &buffer_size));
  CHECK_CUDA(cudaMalloc(&d_buffer, buffer_size));
  CHECK_CUSPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY,
                              CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, d_buffer));

  CHECK_CUSPARSE(cusparseDestroySpMat(matA));
  CHECK_CUSPARSE(cusparseDestroyDnVec(vecX));
  CHECK_CUSPARSE(cusparseDestroyDnVec(vecY));
  CHECK_CUSPARSE(cusparseDestroy(handle));

  CHECK_CUDA(cudaMemcpy(h_y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < rows; ++i) printf("y[%d] = %f\n", i, h_y[i]);

  CHECK_CUDA(cudaFree(d_buffer));
  CHECK_CUDA(cudaFree(d_offsets));
  CHECK_CUDA(cudaFree(d_columns));
  CHECK_CUDA(cudaFree(d_values));
  CHECK_CUDA(cudaFree(d_x));
  CHECK_CUDA(cudaFree(d_y));
  return 0;
}
