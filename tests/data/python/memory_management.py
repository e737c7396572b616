# Memory-management calls work on ROCm and must never be reported (false positives are bugs).
import os
import torch

os.environ["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"
a = torch.cuda.memory_allocated()
b = torch.cuda.max_memory_allocated(0)
c = torch.cuda.memory_reserved()
d = torch.cuda.max_memory_reserved()
torch.cuda.empty_cache()
stats = torch.cuda.memory_stats()
snap = torch.cuda.memory_snapshot()
if torch.cuda.memory_allocated() > 2**30:
    torch.cuda.empty_cache()
torch.cuda.reset_peak_memory_stats()
x = torch.randn(4, device="cuda").cuda()
with torch.cuda.device(0):
    y = torch.tensor([1.0], device=torch.device("cuda:0"))
if torch.cuda.is_available() and torch.version.hip:
    print("HIP")
elif torch.cuda.is_available() and torch.version.cuda:
    print("CUDA")
