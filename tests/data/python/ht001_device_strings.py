# HT001 samples: every line marked "expect: CODE" must be reported with that code, and no
# other line may be reported.
import torch
import torch as T
from torch import device as make_device

a = torch.device('hip')  # expect: HT001
b = torch.device("rocm:0")  # expect: HT001
c = T.device(type='hip', index=1)  # expect: HT001
d = make_device('hip:1')  # expect: HT001
e = torch.randn(2, device='rocm')  # expect: HT001
f = torch.zeros(3).to('hip:0')  # expect: HT001
g = torch.ones(2, device=r"hip")  # expect: HT001
dev = 'rocm:2'  # expect: HT001
h = torch.empty(1, device=dev)

# negatives
ok1 = torch.device('cuda:1')
ok2 = torch.randn(2, device='cuda')
label = 'hip'  # a string that is never used as a device
print('hip', label)
name = {'backend': 'rocm'}
ok3 = torch.zeros(1).to('cpu')
ok4 = torch.device('hip' + ':0')  # not a literal: not rewritten
ok5 = torch.device('hipster')
if torch.version.hip:
    ok6 = torch.device('hip')  # inside a ROCm branch
x = torch.device('hip')  # hipport: ignore[HT001]
