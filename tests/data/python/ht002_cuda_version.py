import torch
import torch as T
from torch import version
from packaging import version as pv

if torch.version.cuda:  # expect: HT002
    print("gpu build")
if not T.version.cuda:  # expect: HT002
    print("cpu build")
use_gpu = torch.cuda.is_available() and version.cuda is not None  # a flag: may mean "NVIDIA"
if torch.cuda.is_available() and version.cuda is not None:  # expect: HT002
    pass
if torch.cuda.is_available() and torch.version.cuda:  # expect: HT002
    pass


def require_gpu_build():
    if torch.version.cuda is None:  # expect: HT002
        raise SystemExit("needs a GPU build")
    assert torch.version.cuda, "GPU build required"  # expect: HT002
    print("ok")


def cuda_major():
    if torch.version.cuda is None:  # a None-guard for the parse below: neither is reported
        return None
    return int(torch.version.cuda.split(".")[0])


def platform_name():
    if torch.version.cuda is not None:  # the else arm knows about HIP
        return "cuda"
    else:
        return torch.version.hip


def skip_check():
    if torch.version.cuda is None:  # on ROCm we do not want this check
        return

cuda_major = float(torch.version.cuda)  # expect: HT002
ver = pv.parse(torch.version.cuda)  # expect: HT002
parts = torch.version.cuda.split('.')  # expect: HT002
new = torch.version.cuda.startswith('12')  # expect: HT002
exact = torch.version.cuda == "12.1"  # expect: HT002


def f():
    v = torch.version.cuda
    return float(v)  # expect: HT002


def none_guard():
    # a None-guard around a version use: a deliberate CUDA-version gate, cannot fail on ROCm
    if torch.version.cuda is not None and int(torch.version.cuda.split('.')[0]) >= 11:
        return True
    if torch.version.cuda:
        return float(torch.version.cuda) > 11
    return False


def unguarded_gate():
    if torch.cuda.is_available():
        return float(torch.version.cuda) >= 11.8  # expect: HT002
    return False


# negatives
print(torch.version.cuda)
info = f"cuda={torch.version.cuda}"
label = torch.version.cuda or "cpu"
if torch.version.hip:
    pass
elif torch.version.cuda:  # CUDA-only arm of a ROCm branch
    major = int(torch.version.cuda.split('.')[0])
if torch.version.cuda or torch.version.hip:  # already ROCm-aware (the fix's own output)
    pass
if torch.version.hip is None and float(torch.version.cuda) < 11:
    pass


def early_exit():
    if torch.version.hip:
        return None
    return float(torch.version.cuda)


cuda = "11.8"  # a local string called cuda is not torch.version.cuda
print(float(cuda))
