"""Build the fused bias + GELU extension: python setup.py build_ext --inplace (needs a GPU torch)."""

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

NVCC_FLAGS = ["-O3", "--use_fast_math", "-arch=sm_80", "--expt-relaxed-constexpr"]

setup(
    name="bias_gelu",
    ext_modules=[
        CUDAExtension(
            "bias_gelu_ext",
            sources=["csrc/ext.cpp", "csrc/bias_gelu.cu"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": NVCC_FLAGS},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
