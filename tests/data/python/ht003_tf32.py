import torch
from torch.backends import cudnn
import torch.backends.cuda as tbc

torch.backends.cuda.matmul.allow_tf32 = True  # expect: HT003
cudnn.allow_tf32 = False  # expect: HT003
tbc.matmul.allow_tf32 = True  # expect: HT003
torch.set_float32_matmul_precision("high")  # expect: HT003
with torch.backends.cudnn.flags(enabled=True, allow_tf32=True):  # expect: HT003
    pass
torch.backends.cuda.matmul.fp32_precision = "tf32"  # expect: HT003

# negatives
torch.set_float32_matmul_precision("highest")
saved = torch.backends.cuda.matmul.allow_tf32  # reading is fine
cudnn.benchmark = True
cudnn.deterministic = True
allow_tf32 = True  # a local variable
