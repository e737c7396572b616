// Fused bias + GELU (tanh approximation) for float tensors: the forward and backward kernels of
// a PyTorch extension, launched on PyTorch's current CUDA stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

namespace {

__device__ __forceinline__ float gelu(float x) {
  const float k = 0.7978845608f;  // sqrt(2/pi)
  return 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
}

__device__ __forceinline__ float gelu_grad(float x) {
  const float k = 0.7978845608f;
  float t = tanhf(k * (x + 0.044715f * x * x * x));
  return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * k * (1.0f + 3.0f * 0.044715f * x * x);
}

__global__ void bias_gelu_forward(const float* x, const float* bias, float* y, int64_t n, int64_t cols) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    y[i] = gelu(x[i] + bias[i % cols]);
}

__global__ void bias_gelu_backward(const float* grad, const float* x, const float* bias, float* dx, int64_t n,
                                   int64_t cols) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    dx[i] = grad[i] * gelu_grad(x[i] + bias[i % cols]);
}

int blocks_for(int64_t n) { return int(std::min<int64_t>((n + 255) / 256, 4096)); }

}  // namespace

torch::Tensor forward(torch::Tensor x, torch::Tensor bias) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat, "x must be a float CUDA tensor");
  auto xc = x.contiguous();
  auto y = torch::empty_like(xc);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  bias_gelu_forward<<<blocks_for(xc.numel()), 256, 0, stream>>>(
      xc.data_ptr<float>(), bias.contiguous().data_ptr<float>(), y.data_ptr<float>(), xc.numel(), xc.size(-1));
  TORCH_CHECK(cudaGetLastError() == cudaSuccess, "bias_gelu_forward launch failed");
  return y;
}

torch::Tensor backward(torch::Tensor grad, torch::Tensor x, torch::Tensor bias) {
  auto xc = x.contiguous();
  auto dx = torch::empty_like(xc);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  bias_gelu_backward<<<blocks_for(xc.numel()), 256, 0, stream>>>(
      grad.contiguous().data_ptr<float>(), xc.data_ptr<float>(), bias.contiguous().data_ptr<float>(),
      dx.data_ptr<float>(), xc.numel(), xc.size(-1));
  TORCH_CHECK(cudaGetLastError() == cudaSuccess, "bias_gelu_backward launch failed");
  return dx;
}
