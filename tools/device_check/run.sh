#!/usr/bin/env bash
# Build and run the hipport allocator's device test on an NVIDIA GPU through HIP's NVIDIA
# platform (HIP_PLATFORM=nvidia, nvcc, HIP headers from /usr/include), or on an AMD GPU with
# hipcc (PLATFORM=amd).
#
#   tools/device_check/run.sh [--compile-only] [OUTDIR]
#
# OUTDIR (default: $OUT, else build/device_check) receives:
#   cached.jsonl             the checks and benchmark with caching on
#   uncached.jsonl           the same with HIPPORT_NO_CACHING=1 (every call goes to hipMalloc)
#   control_no_record.jsonl  cross-stream reuse without hipportRecordStream: shows the race the
#                            allocator prevents is visible to the check
#   build.log, patch.log     compiler output; patch.log lists what patch_hip_nvidia.py removed
# Exit status: 0 when the cached and uncached runs pass (or the build succeeds, --compile-only).
# Environment: NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc), NVCC_ARCH (default
# native), HIPCC, HIP_ARCH (amd: --offload-arch), PLATFORM (nvidia|amd, default nvidia),
# ITERATIONS (default 2000).
set -euo pipefail

compile_only=0
if [[ "${1:-}" == "--compile-only" ]]; then compile_only=1; shift; fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-${OUT:-$root/build/device_check}}
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
include="$root/hipport/runtime/include"
platform=${PLATFORM:-nvidia}
iterations=${ITERATIONS:-2000}

if [[ "$platform" == "nvidia" ]]; then
  nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  [[ -x "$nvcc" ]] || { echo "device_check: nvcc not found (set NVCC)" >&2; exit 2; }
  [[ -f /usr/include/hip/hip_runtime.h ]] || { echo "device_check: HIP headers not in /usr/include/hip" >&2; exit 2; }
  # HIP 5.2's NVIDIA layer predates CUDA 12/13: compile against a patched copy of it.
  python3 "$here/patch_hip_nvidia.py" "$build/hip" --nvcc "$nvcc" >"$out/patch.log" 2>&1 \
    || { cat "$out/patch.log" >&2; exit 2; }
  arch=()
  if [[ $compile_only == 0 ]]; then arch=(-arch="${NVCC_ARCH:-native}"); fi
  flags=(-std=c++17 -O2 "${arch[@]}" -I"$build/hip" -I/usr/include -I"$include" -D__HIP_PLATFORM_NVIDIA__)
  export HIP_PLATFORM=nvidia
  {
    "$nvcc" "${flags[@]}" -x cu -c "$here/device_check.hip" -o "$build/device_check.o"
    "$nvcc" "${flags[@]}" -x cu -c "$root/hipport/runtime/src/allocator.cpp" -o "$build/allocator.o"
    "$nvcc" "${arch[@]}" "$build/device_check.o" "$build/allocator.o" -o "$build/device_check"
  } >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 2; }
else
  hipcc=${HIPCC:-hipcc}
  export HIP_PLATFORM=amd
  "$hipcc" -std=c++17 -O2 ${HIP_ARCH:+--offload-arch=$HIP_ARCH} -I"$include" "$here/device_check.hip" "$root/hipport/runtime/src/allocator.cpp" \
    -o "$build/device_check" >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 2; }
fi
echo "device_check: built for $platform"
if [[ $compile_only == 1 ]]; then exit 0; fi

status=0
env -u HIPPORT_NO_CACHING -u PYTORCH_NO_CUDA_MEMORY_CACHING "$build/device_check" "$iterations" \
  | tee "$out/cached.jsonl" || status=1
HIPPORT_NO_CACHING=1 "$build/device_check" "$iterations" | tee "$out/uncached.jsonl" || status=1
env -u HIPPORT_NO_CACHING -u PYTORCH_NO_CUDA_MEMORY_CACHING "$build/device_check" --no-record 200 \
  >"$out/control_no_record.jsonl" || true
grep '"cross_stream"' "$out/control_no_record.jsonl" || true
exit $status
