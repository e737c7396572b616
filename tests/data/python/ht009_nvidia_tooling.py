import os
import subprocess
import shutil
import pynvml  # expect: HT009
from py3nvml import py3nvml  # expect: HT009

subprocess.run(["nvidia-smi", "-L"], check=False)  # expect: HT009
out = subprocess.check_output("nvidia-smi --query-gpu=name --format=csv", shell=True)  # expect: HT009
os.system("nvidia-smi")  # expect: HT009
smi = shutil.which("nvidia-smi")  # expect: HT009
os.environ["CUDA_VISIBLE_DEVICES"] = "0"  # expect: HT009
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "1")  # expect: HT009
env = dict(os.environ)
env["CUDA_VISIBLE_DEVICES"] = "2"  # expect: HT009
subprocess.run(["python", "train.py"], env={**os.environ, "CUDA_VISIBLE_DEVICES": "3"})  # expect: HT009

# negatives
visible = os.environ.get("CUDA_VISIBLE_DEVICES", "")
if "CUDA_VISIBLE_DEVICES" in os.environ:
    pass
subprocess.run(["rocm-smi"])
os.environ["HIP_VISIBLE_DEVICES"] = "0"
print("run nvidia-smi to see your GPUs")
