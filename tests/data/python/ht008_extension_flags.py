import torch
from torch.utils.cpp_extension import CUDAExtension, load, load_inline
from torch.utils import cpp_extension

ext = CUDAExtension(
    "demo",
    ["demo.cu"],
    extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "--use_fast_math", "-arch=sm_80"]},  # expect: HT008
)
NVCC_FLAGS = ["-O2", "--expt-relaxed-constexpr", "-lineinfo"]  # expect: HT008
ext2 = CUDAExtension("demo2", ["b.cu"], extra_compile_args={"nvcc": NVCC_FLAGS})
mod = load("m", ["m.cu"], extra_cuda_cflags=["-Xptxas", "-v", "-O3"])  # expect: HT008
mod2 = cpp_extension.load_inline("n", "", cuda_sources="", extra_cuda_cflags=['-maxrregcount=64'])  # expect: HT008

# negatives
ok = CUDAExtension("ok", ["ok.cu"], extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "-DNDEBUG", "-std=c++17"]})
cxx_only = CUDAExtension("c", ["c.cu"], extra_compile_args={"cxx": ["-arch=sm_80"]})
if torch.utils.cpp_extension.IS_HIP_EXTENSION:
    flags = ["-O3"]
else:
    flags = ["-O3", "-arch=sm_80"]
ext3 = CUDAExtension("d", ["d.cu"], extra_compile_args={"nvcc": flags})
ext4 = CUDAExtension("e", ["e.cu"], extra_compile_args={"nvcc": ["-O3", "-gencode=arch=compute_80,code=sm_80"] if not torch.version.hip else ["-O3"]})
