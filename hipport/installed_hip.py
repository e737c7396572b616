"""The HIP release a translation is for: the one installed here, or the one the user names.

Why: the rules spell each HIP counterpart as current HIP does, and note which release added it.
A translated file that calls a name its user's HIP predates (Debian and Ubuntu ship HIP 5.2)
fails to compile with "undeclared identifier"; the translator says so first, at the call
(HP008).  The installed release is read from hip_version.h — one small file, nothing is run.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from hipport import lazy_re

_MAJOR = lazy_re.compile(rb"#\s*define\s+HIP_VERSION_MAJOR\s+(\d+)")
_MINOR = lazy_re.compile(rb"#\s*define\s+HIP_VERSION_MINOR\s+(\d+)")


@lru_cache(maxsize=256)
def parse_version(text: str) -> tuple[int, int] | None:
    """'6.1.0' / '6.1' / '6' -> (6, 1); '>5.2' (some release after 5.2) -> (5, 3); else None."""
    m = re.fullmatch(r"\s*(>?)\s*(\d+)(?:\.(\d+))?(?:\.\d+)*\s*", text or "")
    if not m:
        return None
    release = (int(m.group(2)), int(m.group(3) or 0))
    return (release[0], release[1] + 1) if m.group(1) else release


def describe(text: str) -> str:
    """How a message names a rule's release: 'HIP 6.2', or 'a HIP after 5.2' for '>5.2'."""
    release = text.lstrip(">").strip()
    short = ".".join(release.split(".")[:2])
    return f"a HIP after {short}" if text.strip().startswith(">") else f"HIP {short}"


def target_hip_version(requested: str = "") -> tuple[int, int] | None:
    """*requested* ('6.2'; 'latest' for no check), else $HIPPORT_HIP_VERSION, else the HIP
    installed under $ROCM_PATH, $HIP_PATH, /opt/rocm or /usr; None when none is known."""
    requested = requested or os.environ.get("HIPPORT_HIP_VERSION", "")
    if requested:
        return None if requested.strip().lower() in ("latest", "none") else parse_version(requested)
    return installed_hip_version()


@lru_cache(maxsize=1)
def installed_hip_version() -> tuple[int, int] | None:
    roots = [os.environ.get("ROCM_PATH"), os.environ.get("HIP_PATH"), "/opt/rocm", "/usr"]
    for root in filter(None, roots):
        path = os.path.join(root, "include", "hip", "hip_version.h")
        try:
            with open(path, "rb") as f:
                text = f.read(4096)
        except OSError:
            continue
        major, minor = _MAJOR.search(text), _MINOR.search(text)
        if major and minor:
            return int(major.group(1)), int(minor.group(1))
    return None


_BITCODE_DIRS = ("amdgcn/bitcode", "lib/amdgcn/bitcode", "lib/x86_64-linux-gnu/amdgcn/bitcode")


@lru_cache(maxsize=1)
def installed_device_targets() -> frozenset[str] | None:
    """The gfx targets the installed ROCm device libraries cover ('gfx90a', …), from their
    ``oclc_isa_version_*.bc`` files; None when no device library directory is found.

    Why: hipcc refuses a target without its device library ("cannot find ROCm device library
    for gfx1100"), so a default target list must not name one the installed ROCm lacks."""
    roots = [os.environ.get("ROCM_PATH"), os.environ.get("HIP_PATH"), "/opt/rocm", "/usr"]
    for root in filter(None, roots):
        for sub in _BITCODE_DIRS:
            try:
                names = os.listdir(os.path.join(root, sub))
            except OSError:
                continue
            isas = {n[len("oclc_isa_version_"):-3] for n in names
                    if n.startswith("oclc_isa_version_") and n.endswith(".bc")}
            if isas:
                return frozenset("gfx" + isa for isa in isas)
    return None


#: where --roc's libraries keep their headers, under an include directory
_ROC_LIBRARY_DIRS = {"cublas": "rocblas", "cusparse": "rocsparse", "curand": "rocrand", "cusolver": "rocsolver"}
_ROC_NAME = lazy_re.compile(rb"\b(?:roc|ROC)[A-Za-z0-9_]*")
#: generated tables (rocRAND's precomputed states run to 35 MB) declare no API names
_LARGEST_API_HEADER = 1 << 20


@lru_cache(maxsize=8)
def installed_roc_names(family: str) -> tuple[str, frozenset[str]] | None:
    """(header directory, every roc*/ROC* identifier its headers mention) of the roc* library that
    --roc makes *family* (cusparse -> rocSPARSE) where it is installed; None where it is not.

    Why: HIPIFY's tables give no release for roc* names, so for --roc the installed headers are the
    only guide to "the output calls what this ROCm does not have" (HP008)."""
    sub = _ROC_LIBRARY_DIRS.get(family)
    roots = [os.environ.get("ROCM_PATH"), os.environ.get("HIP_PATH"), "/opt/rocm", "/usr"]
    for root in filter(None, roots) if sub else ():
        directory = os.path.join(root, "include", sub)
        names: set[str] = set()
        for dirpath, _dirs, files in os.walk(directory):
            for name in files:
                path = os.path.join(dirpath, name)
                if name.endswith((".h", ".hpp")) and os.path.getsize(path) <= _LARGEST_API_HEADER:
                    with open(path, "rb") as f:
                        names.update(m.decode() for m in _ROC_NAME.findall(f.read()))
        if names:
            from hipport.runtime import include_dir  # hipport/rocsparse.h declares a few for older rocSPARSE

            shim = os.path.join(include_dir(), "hipport", f"{sub}.h")
            if os.path.exists(shim):
                with open(shim, "rb") as f:
                    names.update(m.decode() for m in _ROC_NAME.findall(f.read()))
            return directory, frozenset(names)
    return None
