"""The Python rule codes HT001–HT009: stable identifiers, titles and default severities.

Kept apart from the rules themselves (which need libcst) so that ``hipport lint`` can register,
list and ``--select`` these codes without importing libcst (≈0.3 s) for files that have no
torch idioms at all.  Each rule module refers back to its entry here.
"""

from __future__ import annotations

from hipport.diagnostics import ERROR, INFO, WARNING, register

#: code -> (title, default severity); the order is the documentation order.
CODES: dict[str, tuple[str, str]] = {
    "HT001": ("device string 'hip'/'rocm' is not valid on ROCm; PyTorch for HIP uses 'cuda'", WARNING),
    "HT002": ("torch.version.cuda is None on ROCm (GPU-build check or version parsing)", WARNING),
    "HT003": ("TF32 switch has no effect on ROCm", INFO),
    "HT004": ("cuFFT plan-cache size cannot be set on ROCm (hipFFT/rocFFT)", WARNING),
    "HT005": ("torch.distributed backend other than nccl/gloo is not available on ROCm", WARNING),
    "HT006": ("compute-capability gate compares NVIDIA SM numbers; ROCm reports gfx-derived values", WARNING),
    "HT007": ("cudnn.version() compared with cuDNN numbers; on ROCm it reports MIOpen", WARNING),
    "HT008": ("NVIDIA-only nvcc flags in a PyTorch extension build; hipcc rejects them", WARNING),
    "HT009": ("NVIDIA-only tooling (NVML, nvidia-smi, CUDA_VISIBLE_DEVICES) used from Python", WARNING),
}

for _code, (_title, _severity) in CODES.items():
    register(_code, _title, _severity)

#: code -> bytes patterns that must *all* occur (case-insensitive) in any file the rule can fire
#: on.  Resolution is within one file, so a rule can only fire where its API names are spelled
#: out; files matching no rule are never parsed (most of a large tree), which is what keeps
#: ``hipport lint`` fast.  tests/test_python_engine.py checks every positive sample matches.
TRIGGERS: dict[str, tuple[bytes, ...]] = {
    "HT001": (rb"""['"](?:hip|rocm)(?::\d+)?['"]""",),
    "HT002": (rb"cuda", rb"version\.cuda|\bversion\b[^\n]*\bimport\b|\bimport\b[^\n]*\bversion\b"),
    "HT003": (rb"allow_tf32|float32_matmul_precision|fp32_precision",),
    "HT004": (rb"cufft_plan_cache",),
    "HT005": (rb"\b(?:mpi|ucc)\b",),
    "HT006": (rb"get_device_capability|get_device_properties",),
    "HT007": (rb"cudnn", rb"version\s*\("),
    "HT008": (rb"nvcc|extra_cuda_cflags", rb"CUDAExtension|\bload"),
    "HT009": (rb"nvml|nvidia.smi|cuda_visible_devices",),
}

# HP000 is registered by hipport.diagnostics; Python front-end failures (undecodable bytes,
# syntax errors) are reported with it at severity ERROR.
PARSE_ERROR = "HP000"
PARSE_ERROR_SEVERITY = ERROR
