"""Train a small MLP whose activation is a custom CUDA extension (fused bias + GELU).

On a GPU build of PyTorch the extension is compiled on first use (torch.utils.cpp_extension.load);
without a GPU the same operation runs in plain PyTorch, so the script trains anywhere:

    python train.py --steps 200
"""

import argparse
import os

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))


def load_extension():
    """The compiled extension, or None when there is no GPU to build it for."""
    if not torch.cuda.is_available() or not torch.version.cuda:
        return None
    from torch.utils.cpp_extension import load

    return load(
        name="bias_gelu_ext",
        sources=[os.path.join(HERE, "csrc", "ext.cpp"), os.path.join(HERE, "csrc", "bias_gelu.cu")],
        extra_cuda_cflags=["-O3", "--use_fast_math", "-arch=sm_80"],
        verbose=False,
    )


class BiasGelu(torch.autograd.Function):
    ext = None

    @staticmethod
    def forward(ctx, x, bias):
        ctx.save_for_backward(x, bias)
        if BiasGelu.ext is not None and x.is_cuda:
            return BiasGelu.ext.forward(x, bias)
        return F.gelu(x + bias, approximate="tanh")

    @staticmethod
    def backward(ctx, grad):
        x, bias = ctx.saved_tensors
        if BiasGelu.ext is not None and x.is_cuda:
            dx = BiasGelu.ext.backward(grad, x, bias)
        else:
            with torch.enable_grad():
                z = (x + bias).detach().requires_grad_(True)
                (dx,) = torch.autograd.grad(F.gelu(z, approximate="tanh"), z, grad)
        return dx, dx.sum(dim=0)


class MLP(torch.nn.Module):
    def __init__(self, width=64):
        super().__init__()
        self.fc1 = torch.nn.Linear(8, width, bias=False)
        self.bias = torch.nn.Parameter(torch.zeros(width))
        self.fc2 = torch.nn.Linear(width, 1)

    def forward(self, x):
        return self.fc2(BiasGelu.apply(self.fc1(x), self.bias))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True  # NVIDIA tensor cores; no effect on ROCm
        major, minor = torch.cuda.get_device_capability()
        print(f"GPU compute capability {major}.{minor}; bf16 fast path: {major >= 8}")
    BiasGelu.ext = load_extension()
    torch.manual_seed(0)
    x = torch.randn(512, 8, device=device)
    target = (x[:, :1] * 2 - x[:, 1:2]).sin()
    model = MLP().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    first = None
    for step in range(args.steps):
        loss = F.mse_loss(model(x), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        first = loss.item() if first is None else first
    print(f"device={device.type} extension={'yes' if BiasGelu.ext else 'no'} "
          f"loss {first:.4f} -> {loss.item():.4f}")


if __name__ == "__main__":
    main()
