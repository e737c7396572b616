"""The rule modules, one per code.  Each module documents its idiom and exposes ``CODE``,
``MESSAGE``, ``HINT`` and ``check(ctx) -> Iterable[Finding]``; fixes are byte-range Edits."""

from __future__ import annotations

from hipport.python.rules import (
    ht001_device_strings,
    ht002_cuda_version,
    ht003_tf32,
    ht004_cufft_plan_cache,
    ht005_distributed_backend,
    ht006_capability_gate,
    ht007_cudnn_version,
    ht008_extension_flags,
    ht009_nvidia_tooling,
)

RULES = {module.CODE: module for module in (
    ht001_device_strings, ht002_cuda_version, ht003_tf32, ht004_cufft_plan_cache,
    ht005_distributed_backend, ht006_capability_gate, ht007_cudnn_version,
    ht008_extension_flags, ht009_nvidia_tooling,
)}

