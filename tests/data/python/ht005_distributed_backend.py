import torch.distributed as dist
from torch.distributed import Backend, init_process_group

dist.init_process_group("mpi")  # expect: HT005
init_process_group(backend="ucc", rank=0, world_size=1)  # expect: HT005
dist.init_process_group(backend="cuda:nccl,cpu:mpi")  # expect: HT005
dist.new_group([0, 1], backend=Backend.MPI)  # expect: HT005
BACKEND = "mpi"  # the literal flows into the call below
dist.init_process_group(BACKEND)  # expect: HT005

# negatives
dist.init_process_group("nccl")
dist.init_process_group(backend="cuda:nccl,cpu:gloo")
dist.new_group([0], backend=Backend.GLOO)
dist.init_process_group()
if dist.get_backend() == Backend.MPI:  # comparing is not choosing
    pass
