"""Where the hipport runtime shim lives, for build systems.

The shim is C/C++ (headers in ``include/hipport/``, the caching allocator in ``src/``, a CMake
package in ``cmake/``) shipped inside the Python package, so a translated project can build
against it without a separate install.  Python only reports paths: nothing here compiles or
imports anything heavy, so ``hipport runtime --include-dir`` is instant.

    import hipport.runtime
    hipport.runtime.include_dir()   # -> .../hipport/runtime/include   (-I this)
    hipport.runtime.cmake_dir()     # -> .../hipport/runtime/cmake     (find_package PATHS)
    hipport.runtime.sources()       # -> [.../src/allocator.cpp]        (compile with the project)
"""

from __future__ import annotations

import os
from pathlib import Path

_ROOT = Path(__file__).resolve().parent

#: The translator includes <hipport/compat.h> in a file only when it uses one of these names:
#: device intrinsics and host overloads that Debian's HIP 5.2 (and HIP before 6.4/7.0) lacks
#: and that compat.h provides (each under a guard that defers to a HIP that has it).
COMPAT_TRIGGERS = frozenset(
    {
        # warp-synchronous shuffles, votes and matches (HIP >= 6.2 opt-in, >= 6.4 default)
        "__shfl_sync",
        "__shfl_up_sync",
        "__shfl_down_sync",
        "__shfl_xor_sync",
        "__ballot_sync",
        "__all_sync",
        "__any_sync",
        "__uni_sync",
        "__activemask",
        "__match_any_sync",
        "__match_all_sync",
        # HIP >= 7.0
        "__syncwarp",
        # warp reductions and cooperative-groups reduce (with their functors)
        "__reduce_add_sync",
        "__reduce_min_sync",
        "__reduce_max_sync",
        "__reduce_and_sync",
        "__reduce_or_sync",
        "__reduce_xor_sync",
        "cooperative_groups::reduce",
        "cg::reduce",
        # members CUDA tiles have and HIP 5.2's lack: rewritten to hipport::meta_group_*(tile)
        "meta_group_rank",
        "meta_group_size",
        # typed host allocation overloads (CUDA's cuda_runtime.h templates)
        "hipHostAlloc",
        "hipMallocPitch",
    }
)


def include_dir() -> Path:
    """Directory to put on the include path: it holds ``hipport/runtime.h`` and friends."""
    return _ROOT / "include"


def install_headers(directory: str | os.PathLike) -> int:
    """Copy the include tree into *directory* (hipport/, and the hip/ and roctracer/ fallbacks, which
    step aside for HIP's own headers through #include_next); the number of files written.  Each file
    is replaced atomically, so a compile running meanwhile never reads half a header."""
    import shutil
    import tempfile

    root = include_dir()
    count = 0
    for source in sorted(root.rglob("*.h")):
        target = Path(directory) / source.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        os.close(fd)
        try:
            shutil.copyfile(source, tmp)
            os.chmod(tmp, 0o644)
            os.replace(tmp, target)
        except BaseException:
            os.unlink(tmp)
            raise
        count += 1
    return count


def cmake_dir() -> Path:
    """Directory holding ``hipportRuntimeConfig.cmake`` (``find_package(hipportRuntime)``)."""
    return _ROOT / "cmake"


def sources(backend: str = "hip") -> list[Path]:
    """C++ sources a project compiles to get the allocator.

    ``backend="host"`` adds the simulated GPU used by the shim's own tests and benchmarks
    (compile with ``-DHIPPORT_HOST_BACKEND``); applications want the default ``"hip"``.
    """
    if backend not in ("hip", "host"):
        raise ValueError(f"backend must be 'hip' or 'host', not {backend!r}")
    src = _ROOT / "src"
    files = [src / "allocator.cpp"]
    if backend == "host":
        files.append(src / "backend_host.cpp")
    return files


__all__ = ["COMPAT_TRIGGERS", "cmake_dir", "include_dir", "sources"]
