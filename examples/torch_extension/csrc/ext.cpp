// Python bindings of the fused bias + GELU extension.
#include <torch/extension.h>

torch::Tensor forward(torch::Tensor x, torch::Tensor bias);
torch::Tensor backward(torch::Tensor grad, torch::Tensor x, torch::Tensor bias);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &forward, "fused bias + GELU (forward)");
  m.def("backward", &backward, "fused bias + GELU (backward)");
}
