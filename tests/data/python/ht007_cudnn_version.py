import torch
from torch.backends import cudnn

if torch.backends.cudnn.version() >= 8000:  # expect: HT007
    pass
v = cudnn.version()
if v // 1000 < 8:  # expect: HT007
    pass

# negatives
if cudnn.version() is not None:
    pass
if cudnn.is_available() and cudnn.enabled:
    pass
print(cudnn.version())
if torch.version.hip is None and cudnn.version() >= 8000:
    pass
