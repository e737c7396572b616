import torch
from torch import cuda
from torch.cuda import get_device_capability as cap


def pick_kernel():
    major, minor = torch.cuda.get_device_capability()
    if major >= 8:  # expect: HT006
        return "ampere"
    return "generic"


if torch.cuda.get_device_capability() >= (8, 0):  # expect: HT006
    pass
if cuda.get_device_capability(0)[0] < 7:  # expect: HT006
    pass
props = torch.cuda.get_device_properties(0)
sm = props.major * 10 + props.minor
if sm >= 90:  # expect: HT006
    pass
if torch.cuda.get_device_properties(0).major == 9:  # expect: HT006
    pass
if cap() in [(8, 0), (9, 0)]:  # expect: HT006
    pass

# negatives
print(torch.cuda.get_device_capability())
same = torch.cuda.get_device_capability(0) == torch.cuda.get_device_capability(1)
name = props.name
if torch.version.hip:
    arch = props.gcnArchName
elif torch.cuda.get_device_capability() >= (8, 0):  # CUDA-only arm
    pass
total = torch.cuda.get_device_properties(0).total_memory
if total > 8 * 2**30:
    pass
