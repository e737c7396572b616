import torch

torch.backends.cuda.cufft_plan_cache.max_size = 32  # expect: HT004


def configure(n):
    torch.backends.cuda.cufft_plan_cache[0].max_size = n  # expect: HT004
    cache = torch.backends.cuda.cufft_plan_cache
    cache.max_size = 8  # expect: HT004


# negatives
size = torch.backends.cuda.cufft_plan_cache.max_size
torch.backends.cuda.cufft_plan_cache.clear()
if not torch.version.hip:
    torch.backends.cuda.cufft_plan_cache.max_size = 4
