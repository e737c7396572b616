#!/usr/bin/env python3
"""Regenerate the core CUDA→HIP rule files (runtime, driver, NVRTC, device, cuComplex, fp16,
cooperative groups, headers, macros) from the authoritative sources on this image.

Why a generator: thousands of names change between CUDA and HIP, and hand-kept tables rot.
The mapping comes from AMD's own oracle, hip-python-interop (its ``cuda.bindings.cy*.pxd`` files
declare every CUDA name it supports as ``from rocm.bindings.cyhip cimport hipX as cudaX``), and
is checked against what actually exists:

* CUDA names against the CUDA 13.0 headers in ``/usr/local/cuda/include`` (a name the oracle
  knows that CUDA 13 no longer declares is written with ``status = "removed"``); NVRTC names
  against ``tools/data/cuda-13.0-nvrtc.txt`` (extracted from ``nvrtc.h`` of the PyPI wheel
  ``nvidia-cuda-nvrtc==13.0.88`` with ``--extract-nvrtc``, because the image lacks that header);
* HIP names against rocm-bindings-hip's declarations (``rocm/bindings/cyhip.pxd``,
  ``cyhiprtc.pxd``) and Debian's HIP headers (``/usr/include/hip``).

CUDA runtime/driver/NVRTC names that the headers declare and the oracle does not map are written
as ``status = "unsupported"`` so the translator warns instead of leaving them silently.
Families the sources do not cover (headers, macros, device functions, cuComplex, fp16/bf16,
cooperative groups) and deliberate differences from the oracle are hand-written tables below.

Usage::

    python tools/gen_core_rules.py            # rewrite hipport/rules/<family>.toml
    python tools/gen_core_rules.py --check    # exit 1 when the files are not up to date
    python tools/gen_core_rules.py --extract-nvrtc path/to/nvrtc.h

The output is deterministic (sorted, no timestamps), so ``--check`` can run in CI and a diff of a
regenerated file shows exactly which names changed.  The test-suite imports the source readers
(:func:`interop_aliases`, :func:`hip_declared_names`, :func:`cuda_declarations`) from here; they
are memoised, so callers must treat what they return as read-only.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import sysconfig
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hipify_names  # noqa: E402  (tools/ is not a package)
import hip_versions  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "hipport" / "rules"
DATA_DIR = Path(__file__).resolve().parent / "data"
NVRTC_NAMES = DATA_DIR / "cuda-13.0-nvrtc.txt"
CUDA_INCLUDE = Path("/usr/local/cuda/include")
HIP_INCLUDE = Path("/usr/include/hip")

# CUDA headers per family (order = priority when a name is declared in several).
RUNTIME_HEADERS = (
    "driver_types.h", "cuda_runtime_api.h", "surface_types.h", "texture_types.h",
    "channel_descriptor.h", "cuda_profiler_api.h", "cuda_gl_interop.h", "cuda_egl_interop.h",
    "cuda_vdpau_interop.h", "device_types.h", "cuda_runtime.h", "cuda_device_runtime_api.h",
    "driver_functions.h",
)
DRIVER_HEADERS = ("cuda.h", "cudaProfiler.h", "cudaGL.h", "cudaEGL.h", "cudaVDPAU.h")
# Names from these headers belong to other rule files (library data types: the library helper).
FOREIGN_HEADERS = ("library_types.h", "vector_types.h", "vector_functions.h")

# --------------------------------------------------------------------------------------------
# Source readers
# --------------------------------------------------------------------------------------------

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\()?[ \t]*((?:[^\n\\]|\\\n|\\.)*)$", re.M)
_ENUM = re.compile(
    r"\benum\s+(?:class\s+)?(?:__device_builtin__\s+)?(\w+)?\s*(?::\s*\w+\s*)?\{([^{}]*)\}\s*(\w+)?", re.S
)
_TYPEDEF = re.compile(r"\btypedef\b([^;{}]*(?:\{[^{}]*(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}[^{}]*)*\}[^;{}]*)?);", re.S)
_TAG = re.compile(r"\b(?:struct|union)\s+(?:(?:__device_builtin__|__cudart_builtin__|CUDA_ALIGN\(\d+\)|__align__\(\d+\))\s+)*([A-Za-z]\w*)")
_FUNC = re.compile(
    r"\b(?:CUDARTAPI|CUDAAPI|cudaError_t|CUresult|nvrtcResult|struct\s+cudaChannelFormatDesc|cudaChannelFormatDesc)"
    r"\s+(?:CUDARTAPI\s+|CUDAAPI\s+)?(\w+)\s*\("
)
_IDENT = re.compile(r"[A-Za-z_]\w*")


def strip_comments(text: str) -> str:
    return _COMMENT.sub(" ", text)


def site_packages() -> Path:
    return Path(sysconfig.get_paths()["purelib"])


def _scan_c(text: str, header: str, out: dict[str, tuple[str, str]]) -> None:
    """Record the names a C header declares as (kind, header); the first header wins."""
    text = strip_comments(text)
    for m in _FUNC.finditer(text):
        out.setdefault(m.group(1), ("function", header))
    for m in re.finditer(r"\b(make_cuda\w+)\s*\(", text):
        out.setdefault(m.group(1), ("function", header))
    for m in _ENUM.finditer(text):
        for part in m.group(2).split(","):
            mm = re.match(r"\s*([A-Za-z_]\w*)", part)
            if mm:
                out.setdefault(mm.group(1), ("enumerator", header))
        for tag in (m.group(1), m.group(3)):
            if tag:
                out.setdefault(tag, ("type", header))
    for m in _TAG.finditer(text):
        out.setdefault(m.group(1), ("type", header))
    for m in _TYPEDEF.finditer(text):
        body = m.group(1)
        fp = re.search(r"\(\s*(?:\w+\s+)*\*\s*(\w+)\s*\)\s*\(", body)
        if fp:
            out.setdefault(fp.group(1), ("type", header))
            continue
        mm = re.search(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*$", body.strip())
        if mm:
            out.setdefault(mm.group(1), ("type", header))
    for m in _DEFINE.finditer(text):
        name, funclike, value = m.group(1), m.group(2), m.group(3).strip()
        # `#define cuMemAlloc cuMemAlloc_v2` / `__CUDA_API_PTDS(cuMemcpy_v2)`: the versioned
        # spelling is the real symbol and users write it too.
        target = re.fullmatch(r"(?:__CUDA\w*_API_\w+\()?\s*(\w+)\s*\)?", value)
        if target and not funclike and out.get(name, ("",))[0] == "function":
            out.setdefault(target.group(1), ("function", header))
        out.setdefault(name, ("macro", header))


@functools.lru_cache(maxsize=None)
def cuda_declarations(include: Path = CUDA_INCLUDE) -> dict[str, tuple[str, str]]:
    """name → (kind, header) for the runtime and driver headers of a CUDA toolkit."""
    out: dict[str, tuple[str, str]] = {}
    for header in (*RUNTIME_HEADERS, *DRIVER_HEADERS, *FOREIGN_HEADERS):
        path = include / header
        if path.exists():
            _scan_c(path.read_text(encoding="utf-8", errors="replace"), header, out)
    return out


@functools.lru_cache(maxsize=None)
def cuda_identifiers(include: Path = CUDA_INCLUDE) -> set[str]:
    """Every identifier of the CUDA toolkit's own headers (comments ignored), plus NVRTC's."""
    names: set[str] = set()
    for path in sorted(include.rglob("*")):
        if path.suffix in (".h", ".hpp") and not path.name.startswith(("cupti", "nvperf", "generated_")):
            names.update(_IDENT.findall(strip_comments(path.read_text(encoding="utf-8", errors="replace"))))
    if NVRTC_NAMES.exists():
        names.update(nvrtc_declarations())
    return names


@functools.lru_cache(maxsize=None)
def cuda_macro_aliases(include: Path = CUDA_INCLUDE) -> dict[str, str]:
    """Object-like CUDA macros that only rename another name: ``#define cudaStreamAttrID cudaLaunchAttributeID``."""
    out: dict[str, str] = {}
    for header in (*RUNTIME_HEADERS, *DRIVER_HEADERS):
        path = include / header
        if not path.exists():
            continue
        for m in _DEFINE.finditer(strip_comments(path.read_text(encoding="utf-8", errors="replace"))):
            if not m.group(2):
                target = re.fullmatch(r"\(?\s*([A-Za-z_]\w*)\s*\)?", m.group(3).strip())
                if target and target.group(1) != m.group(1):
                    out.setdefault(m.group(1), target.group(1))
    return out


_DOC_THEN_DECL = re.compile(r"/\*\*((?:(?!\*/).)*)\*/\s*((?:(?!/\*\*)[^;{])*?)\b(?:CUDARTAPI|CUDAAPI)\s+(\w+)\s*\(", re.S)


@functools.lru_cache(maxsize=None)
def cuda_deprecations(include: Path = CUDA_INCLUDE) -> dict[str, str]:
    """Functions the CUDA headers mark ``__CUDA_DEPRECATED`` (or document as deprecated) → the
    version their documentation gives ('' when it gives none)."""
    out: dict[str, str] = {}
    for header in (*RUNTIME_HEADERS, *DRIVER_HEADERS):
        path = include / header
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in _DOC_THEN_DECL.finditer(text):
            doc, decl, name = m.groups()
            documented = re.search(r"\\deprecated|(?:function|API) (?:is|was) deprecated", doc)
            if "__CUDA_DEPRECATED" in decl or documented:
                version = re.search(r"(?:function|API) (?:is|was) deprecated as of CUDA (\d+\.\d+)", doc)
                out.setdefault(name, version.group(1) if version else KNOWN_DEPRECATED.get(name, ""))
        for m in re.finditer(r"__CUDA_DEPRECATED[^;(]*?\b(?:CUDARTAPI|CUDAAPI)\s+(\w+)\s*\(", text):
            out.setdefault(m.group(1), KNOWN_DEPRECATED.get(m.group(1), ""))
    return out


def nvrtc_declarations(path: Path = NVRTC_NAMES) -> dict[str, tuple[str, str]]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            kind, name = line.split()
            out[name] = (kind, "nvrtc.h")
    return out


def extract_nvrtc(header: Path) -> str:
    """The name list kept in tools/data (the image has no nvrtc.h)."""
    out: dict[str, tuple[str, str]] = {}
    text = header.read_text(encoding="utf-8", errors="replace")
    _scan_c(text, "nvrtc.h", out)
    for m in re.finditer(r"^\s*(?:inline\s+)?(?:const\s+char\s*\*|nvrtcResult)\s*(nvrtc\w+)\s*\(", strip_comments(text), re.M):
        out[m.group(1)] = ("function", "nvrtc.h")
    lines = ["# names declared by nvrtc.h of CUDA 13.0 (nvidia-cuda-nvrtc 13.0.88); kind name"]
    lines += [f"{kind} {name}" for name, (kind, _) in sorted(out.items()) if name.lower().startswith("nvrtc")]
    return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=None)
def interop_aliases(sp: Path | None = None) -> dict[str, str]:
    """CUDA name → HIP name, as hip-python-interop's Cython declarations alias them."""
    sp = sp or site_packages()
    aliases: dict[str, str] = {}
    for rel in ("cuda/bindings/cyruntime.pxd", "cuda/bindings/cydriver.pxd", "cuda/bindings/cynvrtc.pxd"):
        path = sp / rel
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        typedefs = {}
        for m in re.finditer(r"^from \S+ cimport (\w+) as (\w+)\s*$", text, re.M):
            aliases[m.group(2)] = m.group(1)
        for m in re.finditer(r"^ctypedef (\w+) (\w+)\s*$", text, re.M):
            typedefs[m.group(2)] = m.group(1)
        for name, target in typedefs.items():
            seen = set()
            while target in typedefs and target not in seen:
                seen.add(target)
                target = typedefs[target]
            aliases[name] = aliases.get(target, target)
    return aliases


def _pxd_text(path: Path) -> str:
    return "\n".join(line for line in path.read_text(encoding="utf-8").splitlines() if not line.lstrip().startswith("#"))


def hip_bindings_files(sp: Path | None = None) -> list[Path]:
    sp = sp or site_packages()
    return [p for p in (sp / "rocm/bindings/cyhip.pxd", sp / "rocm/bindings/cyhiprtc.pxd") if p.exists()]


@functools.lru_cache(maxsize=None)
def hip_declared_names(sp: Path | None = None, include: Path = HIP_INCLUDE) -> dict[str, str]:
    """Every identifier HIP declares → where ('bindings' or 'debian'); comments are ignored."""
    names: dict[str, str] = {}
    for path in hip_bindings_files(sp):
        for ident in _IDENT.findall(_pxd_text(path)):
            names.setdefault(ident, "bindings")
    for ident in debian_hip_names(include):
        names.setdefault(ident, "debian")
    return names


@functools.lru_cache(maxsize=None)
def debian_hip_names(include: Path = HIP_INCLUDE) -> frozenset[str]:
    """Identifiers of Debian's HIP headers for the AMD platform (the NVIDIA-platform mappings in
    nvidia_detail/ and nvcc_detail/ are not what a ROCm build sees)."""
    names: set[str] = set()
    if include.exists():
        for path in sorted(include.rglob("*.h*")):
            if {"nvidia_detail", "nvcc_detail"} & set(path.relative_to(include).parts):
                continue
            names.update(_IDENT.findall(strip_comments(path.read_text(encoding="utf-8", errors="replace"))))
    return frozenset(names)


@functools.lru_cache(maxsize=None)
def hip_kinds(sp: Path | None = None) -> dict[str, str]:
    """HIP name → kind from rocm-bindings' declarations (used when CUDA 13 lacks the name)."""
    kinds: dict[str, str] = {}
    for path in hip_bindings_files(sp):
        in_enum = False
        for line in path.read_text(encoding="utf-8").splitlines():
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            if re.match(r"(cdef|ctypedef) enum\b", s):
                in_enum = True
                m = re.match(r"(?:cdef|ctypedef) enum (\w+)", s)
                if m:
                    kinds[m.group(1)] = "type"
                continue
            if in_enum and re.fullmatch(r"\w+(\s*=.*)?", s) and line.startswith("        "):
                kinds.setdefault(s.split()[0], "enumerator")
                continue
            in_enum = False
            m = re.match(r"cdef \w+[\s*]+(\w+)\(", s)
            if m:
                kinds.setdefault(m.group(1), "function")
                continue
            m = re.match(r"(?:cdef|ctypedef) (?:struct|union) (\w+)", s)
            if m:
                kinds.setdefault(m.group(1), "type")
                continue
            m = re.match(r"ctypedef .*?(\w+)\s*$", s)
            if m:
                kinds.setdefault(m.group(1), "type")
                continue
            m = re.match(r"cdef (?:const )?(?:int|size_t|char\s*\*|unsigned \w+|long) (\w+)\s*$", s)
            if m:
                kinds.setdefault(m.group(1), "macro")
    return kinds


@functools.lru_cache(maxsize=None)
def hip_deprecated(sp: Path | None = None) -> dict[str, str]:
    """HIP functions whose documentation in rocm-bindings says they are deprecated → reason."""
    out = {}
    for path in hip_bindings_files(sp):
        block: list[str] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                block.append(line[1:].strip())
                continue
            m = re.match(r"cdef \w+[\s*]+(\w+)\(", line)
            if m and any("[Deprecated]" in b or "deprecated" in b.lower() and "@warning" in b for b in block):
                warning = next((b for b in block if "@warning" in b and "deprecat" in b.lower()), "")
                warning = warning.replace("@warning", "").strip()
                out[m.group(1)] = warning or "documented as deprecated"
            if line.strip():
                block = []
    return out


def _version(code: str) -> str:
    v = int(code)
    major, minor = divmod(v, 1000)
    minor //= 10
    if minor >= 10:  # NVIDIA wrote 10.2 as 10200 once
        minor //= 10
    return f"{major}.{minor}"


@functools.lru_cache(maxsize=None)
def cuda_added_versions(include: Path = CUDA_INCLUDE) -> dict[str, str]:
    """First CUDA version of each runtime/driver function, from the ABI-versioned meta headers.

    Versions at the floor of each table (runtime 3.2, driver 2.0) mean "at most", so they are
    not recorded."""
    out: dict[str, tuple[int, str]] = {}

    def note(name: str, code: str, floor: int) -> None:
        v = int(code)
        if v <= floor or "_ptds" in name or "_ptsz" in name:
            return
        if name not in out or v < out[name][0]:
            out[name] = (v, _version(code))

    meta = include / "generated_cuda_runtime_api_meta.h"
    if meta.exists():
        for m in re.finditer(r"\b(cuda\w+?)_v(\d{4,5})_params", meta.read_text(encoding="utf-8", errors="replace")):
            note(m.group(1), m.group(2), 3020)
    typedefs = include / "cudaTypedefs.h"
    if typedefs.exists():
        text = typedefs.read_text(encoding="utf-8", errors="replace")
        floor_names = set()
        for m in re.finditer(r"\bPFN_(cu\w+?)_v(\d{4,5})\b", text):
            name, code = m.group(1), m.group(2)
            base = re.sub(r"_v\d$", "", name)
            if int(code) <= 2000:
                floor_names.add(base)
            note(base, code, 2000)
        for name in floor_names:
            out.pop(name, None)
    return {k: v for k, (_, v) in out.items()}


# --------------------------------------------------------------------------------------------
# Hand-written knowledge the sources lack
# --------------------------------------------------------------------------------------------

# Oracle names we deliberately do not emit, with the reason.
SKIP_ALIASES = {
    "getLocalRuntimeVersion": "a hip-python convenience, not a CUDA API",
    "_nvrtcProgram": "the struct tag behind nvrtcProgram; not user-visible in CUDA",
    "CUlinkState_st": "opaque struct tag; users write CUlinkState",
    "cublasDataType_t": "a cuBLAS name: the cuBLAS rules own it",
}

# CUDA version macros have another scale than HIP_VERSION: never rename them (the
# version-macro checks in hipport.version_macros report them instead).
VERSION_MACROS = {"CUDA_VERSION", "CUDART_VERSION", "__CUDART_API_VERSION", "CUDA_API_VERSION"}

# Removed from CUDA (absent from the 13.0 headers) → the version that removed them.
REMOVED_IN = [
    (r"^(cudaBindTexture\w*|cudaUnbindTexture|cudaGetTextureAlignmentOffset|cudaGetTextureReference"
     r"|cudaBindSurfaceToArray|cudaGetSurfaceReference|textureReference|surfaceReference"
     r"|cuTexRef\w*|cuSurfRef\w*|CUtexref\w*|CUsurfref\w*|cuModuleGetTexRef|cuModuleGetSurfRef"
     r"|cuParamSetTexRef|CU_TRSA_\w+|CU_TRSF_\w+|CU_PARAM_TR_DEFAULT)$", "12.0",
     "texture and surface references were removed in CUDA 12.0; use texture/surface objects"),
    (r"^(cudaConfigureCall|cudaSetupArgument|cudaLaunch)$", "10.1",
     "the pre-<<<>>> launch API was removed in CUDA 10.1; use <<<>>> or cudaLaunchKernel"),
    (r"^(cudaThread\w+)$", "13.0", "the long-deprecated cudaThread* API was removed in CUDA 13.0; use cudaDevice*"),
    (r"^(cudaLaunchCooperativeKernelMultiDevice|cudaLaunchParams|cudaCooperativeLaunchMultiDevice\w*"
     r"|cudaDevAttrCooperativeMultiDeviceLaunch|cuLaunchCooperativeKernelMultiDevice|CUDA_LAUNCH_PARAMS\w*"
     r"|CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH|CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE\w*)$",
     "13.0", "multi-device cooperative launch was removed in CUDA 13.0"),
]

# Runtime functions CUDA removed that hip-python-interop does not alias: the HIP name, if any.
REMOVED_EXTRA = {
    "cudaThreadSetLimit": {"hip": "hipDeviceSetLimit", "include": "hipport/compat.h"},
    "cudaThreadGetLimit": {"hip": "hipDeviceGetLimit"},
    "cudaSetDoubleForDevice": {"cuda_removed": "12.0", "note": "removed in CUDA 12.0; doubles need no conversion on AMD GPUs: drop the call"},
    "cudaSetDoubleForHost": {"cuda_removed": "12.0", "note": "removed in CUDA 12.0; doubles need no conversion on AMD GPUs: drop the call"},
    "cudaBindSurfaceToArray": {"note": "surface references were removed in CUDA 12.0 and HIP has none; "
                               "use a surface object (hipCreateSurfaceObject)"},
    "cudaGetSurfaceReference": {"note": "surface references were removed in CUDA 12.0 and HIP has none; "
                                "use a surface object (hipCreateSurfaceObject)"},
    # CUDA 11.3-12.9's capture query with the graph and its dependencies: CUDA 13's plain name
    # (whose seven-argument form is edited to it, hipport/rules/arguments/runtime.toml)
    "cudaStreamGetCaptureInfo_v2": {"hip": "hipStreamGetCaptureInfo_v2", "cuda_added": "11.3", "cuda_removed": "13.0",
                                    "note": "removed in CUDA 13.0, whose cudaStreamGetCaptureInfo took its place"},
    # CUDA 12.2-12.9's memory-location forms, the plain names since 13.0: compat.h's overloads take them
    **{f"{name}_v2": {"hip": f"hip{name[4:]}", "cuda_added": "12.2", "cuda_removed": "13.0", "include": "hipport/compat.h",
                      "note": f"removed in CUDA 13.0, whose {name} takes the memory location; "
                              "hipport/compat.h gives HIP that overload"}
       for name in ("cudaMemPrefetchAsync", "cudaMemAdvise")},
    # CUDA 12.3-12.9's edge-data forms (the plain names took the parameter in 13.0): HIP has no edge data
    **{name: {"cuda_added": "12.3", "cuda_removed": "13.0",
              "note": "removed in CUDA 13.0; HIP's graphs have no edge data: call the plain form without it"}
       for name in ("cudaGraphAddDependencies_v2", "cudaGraphRemoveDependencies_v2", "cudaGraphGetEdges_v2",
                    "cudaGraphNodeGetDependencies_v2", "cudaGraphNodeGetDependentNodes_v2", "cudaGraphAddNode_v2",
                    "cudaStreamUpdateCaptureDependencies_v2", "cudaStreamGetCaptureInfo_v3")},
}

# Hints for unsupported runtime/driver names, by topic (the translator shows them with HP001).
UNSUPPORTED_HINTS = [
    (r"EGL|Egl", "HIP has no EGL interop"),
    (r"VDPAU", "HIP has no VDPAU interop"),
    (r"NvSci|NVSCI", "NvSci buffers and syncs are NVIDIA-only"),
    (r"[Cc]luster|CLUSTER", "thread-block clusters do not exist on AMD GPUs"),
    (r"TensorMap|TENSOR_MAP", "tensor-memory-accelerator descriptors are NVIDIA-specific"),
    (r"Multicast|MULTICAST", "NVLink multicast objects are not available in HIP"),
    (r"Checkpoint|CHECKPOINT", "process checkpointing has no HIP equivalent"),
    (r"Coredump|COREDUMP", "GPU core-dump control has no HIP equivalent"),
    (r"GreenCtx|GREEN_CTX|DevResource|DevSmResource|DEV_RESOURCE|DEV_SM_RESOURCE", "green contexts and SM partitioning are not available in HIP"),
    (r"^(cuda|cu)Logs?[A-Z]|^CUlog|^cudaLog|^CU_LOG", "driver log callbacks have no HIP equivalent"),
    (r"GPUDirectRDMA|GPU_DIRECT_RDMA", "GPUDirect RDMA controls have no HIP equivalent"),
    (r"ExecAffinity|EXEC_AFFINITY", "execution affinity (SM partitioning) is not available in HIP"),
    (r"Decompress|DECOMPRESS", "the hardware decompression engine is NVIDIA-specific"),
    (r"Nvlink|NVLINK", "NVLink-specific"),
    (r"Mps|_MPS_", "the multi-process service (MPS) is NVIDIA-specific"),
    (r"^cudaRound", "cudaRoundMode has no HIP counterpart"),
]

# CUDA deprecation versions the 13.0 headers' documentation does not state.
KNOWN_DEPRECATED = {
    **dict.fromkeys(("cudaMemcpyToArray", "cudaMemcpyFromArray", "cudaMemcpyArrayToArray",
                     "cudaMemcpyToArrayAsync", "cudaMemcpyFromArrayAsync"), "10.1"),
    **dict.fromkeys(("cudaDeviceGetSharedMemConfig", "cudaDeviceSetSharedMemConfig", "cudaFuncSetSharedMemConfig",
                     "cuCtxGetSharedMemConfig", "cuCtxSetSharedMemConfig", "cuFuncSetSharedMemConfig"), "12.4"),
}

# Deliberate differences from hip-python-interop: CUDA name → fields (the note says why).
OVERRIDES = {
    "nvrtcGetCUBIN": {
        "hip": "hiprtcGetCode",
        "note": "hip-python-interop maps this to hiprtcGetBitcode, but a CUBIN is the loadable binary: "
        "HIPRTC's loadable code object comes from hiprtcGetCode (bitcode is the LTO input)",
    },
    "nvrtcGetCUBINSize": {
        "hip": "hiprtcGetCodeSize",
        "note": "see nvrtcGetCUBIN: the loadable code object's size is hiprtcGetCodeSize",
    },
}

OVERRIDES["CUoccupancyB2DSize"] = {
    "hip": "void*", "status": "supported",
    "note": "HIP's occupancy calculators take no block-size-to-shared-memory callback (the translator drops that "
    "argument, HP006); hipify-clang writes void* for the callback's type",
}

# CUjit_option values: hipify-clang's HIPRTC_JIT_* spelling, which current HIP defines as the hipJitOption
# values in current HIP; hipport/jit_options.h does so for older HIP (whose hiprtcJIT_option does not convert)
JIT_OPTIONS = ("MAX_REGISTERS", "THREADS_PER_BLOCK", "WALL_TIME", "INFO_LOG_BUFFER", "INFO_LOG_BUFFER_SIZE_BYTES",
               "ERROR_LOG_BUFFER", "ERROR_LOG_BUFFER_SIZE_BYTES", "OPTIMIZATION_LEVEL", "TARGET_FROM_CUCONTEXT",
               "TARGET", "FALLBACK_STRATEGY", "GENERATE_DEBUG_INFO", "LOG_VERBOSE", "GENERATE_LINE_INFO",
               "CACHE_MODE", "NEW_SM3X_OPT", "FAST_COMPILE", "NUM_OPTIONS")
OVERRIDES.update({
    f"CU_JIT_{name}": {"hip": "HIPRTC_JIT_" + name.replace("CUCONTEXT", "HIPCONTEXT"), "include": "hipport/jit_options.h",
                       "note": "hipify-clang's spelling; current HIP defines it as the hipJitOption value, "
                               "hipport/jit_options.h does for older HIP"}
    for name in JIT_OPTIONS
})

# event record/wait flags for graph capture: current HIP defines hipEventRecordDefault & co. (macros
# the bindings do not list); hipport/compat.h defines them (CUDA's values) where HIP lacks them
for _cuda, _hip in (("cudaEventRecordDefault", "hipEventRecordDefault"), ("cudaEventRecordExternal", "hipEventRecordExternal"),
                    ("cudaEventWaitDefault", "hipEventWaitDefault"), ("cudaEventWaitExternal", "hipEventWaitExternal"),
                    ("CU_EVENT_RECORD_DEFAULT", "hipEventRecordDefault"), ("CU_EVENT_RECORD_EXTERNAL", "hipEventRecordExternal"),
                    ("CU_EVENT_WAIT_DEFAULT", "hipEventWaitDefault"), ("CU_EVENT_WAIT_EXTERNAL", "hipEventWaitExternal")):
    OVERRIDES[_cuda] = {"hip": _hip, "status": "supported", "include": "hipport/compat.h",
                        "note": "hipport/compat.h defines it (CUDA's value) where HIP lacks it"}

# CUDA 13's context-creation parameters: the translator drops them from cuCtxCreate (HIP's context
# takes none); the declaration and field assignments around the call still have to compile
OVERRIDES.update({
    name: {"hip": "hipport::CtxCreateParams", "status": "supported", "include": "hipport/compat.h",
           "note": "HIP's hipCtxCreate takes no creation parameters (the translator drops the argument); "
                   "hipport/compat.h declares the struct so code that fills one still compiles"}
    for name in ("CUctxCreateParams", "CUctxCreateParams_st")
})

OVERRIDES.update({
    name: {"hip": "hipDevice_t", "note": "hip-python-interop writes the underlying int; HIP names the type hipDevice_t"}
    for name in ("CUdevice", "CUdevice_v1")
})

# HIP 5.2's source is a plain void*, and its flag value overlaps the scheduling bits: compat.h
# takes a const source and restores CUDA's value
OVERRIDES.update({
    name: {"hip": hip, "include": "hipport/compat.h", "note": note}
    for name, hip, note in (
        *((n, "hipMemcpyHtoD" + n[len("cuMemcpyHtoD"):].replace("_v2", ""),
           "HIP 5.2 takes the source as a plain void*; hipport/compat.h accepts a const one")
          for n in ("cuMemcpyHtoD", "cuMemcpyHtoD_v2", "cuMemcpyHtoDAsync", "cuMemcpyHtoDAsync_v2")),
        *((n, "hipDeviceLmemResizeToMax", "HIP before 6.0 defines it as 0x16, over the scheduling bits; "
           "hipport/compat.h gives it CUDA's value (0x10), which ROCm ignores")
          for n in ("cudaDeviceLmemResizeToMax", "CU_CTX_LMEM_RESIZE_TO_MAX")))
})

# CUDA's deprecated alias (the same value, 102) of the attribute HIP names
OVERRIDES["CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED"] = {
    "hip": "hipDeviceAttributeVirtualMemoryManagementSupported", "status": "supported",
    "include": "hipport/compat.h",
    "note": "CUDA's deprecated alias of CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED (both 102); "
            "hipport/compat.h supplies it for HIP 5.2 (which reports it unsupported)"}
OVERRIDES["CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED"] = {
    "hip": "hipDeviceAttributeVirtualMemoryManagementSupported", "include": "hipport/compat.h",
    "note": "HIP 5.2 declares the virtual memory API but not this attribute; hipport/compat.h supplies it there "
            "(hipDeviceGetAttribute answers 0: not supported)"}

# Driver calls whose runtime counterpart HIP's driver-style API serves: unified addressing lets
# cuMemcpy copy between any two pointers, which hipMemcpy does with hipMemcpyDefault (inserted by
# the argument pass: hipport/rules/arguments/driver.toml); the cache and shared-memory preferences
# of a module function are what hipFuncSetCacheConfig / hipFuncSetSharedMemConfig take (a
# hipFunction_t converts to their const void*; on AMD both are hints with no effect).
OVERRIDES.update({
    "cuMemcpy": {"hip": "hipMemcpy", "status": "supported",
                 "note": "hipMemcpy with hipMemcpyDefault inserted (unified addressing picks the direction)"},
    "cuMemcpyAsync": {"hip": "hipMemcpyAsync", "status": "supported",
                      "note": "hipMemcpyAsync with hipMemcpyDefault inserted (unified addressing picks the direction)"},
    "cuFuncSetCacheConfig": {"hip": "hipFuncSetCacheConfig", "status": "supported",
                             "note": "the hipFunction_t converts to const void*; a hint AMD GPUs ignore"},
    "cuFuncSetSharedMemConfig": {"hip": "hipFuncSetSharedMemConfig", "status": "deprecated",
                                 "note": "the hipFunction_t converts to const void*; a hint AMD GPUs ignore"},
})

# MIOpen's name for the stream its handle runs on (a typedef of hipStream_t): hipify-clang writes it
# for cudaStream_t with --miopen; the translator does so in files that use cuDNN.
OVERRIDES["cuCtxGetApiVersion"] = {
    "include": "hipport/compat.h",
    "note": "HIP reports the version through an int*, CUDA through an unsigned int*: hipport/compat.h adds the "
            "unsigned overload",
}
OVERRIDES["cudaStream_t"] = {
    "miopen": "miopenAcceleratorQueue_t",
    "note": "with --miopen, in files that use cuDNN: MIOpen's typedef of hipStream_t (as hipify-clang)"}

# NVRTC names the oracle lacks but HIPRTC has.
NVRTC_EXTRA = {
    "nvrtcGetLTOIR": {"hip": "hiprtcGetBitcode", "note": "LTO IR corresponds to HIPRTC's LLVM bitcode (compile with -fgpu-rdc)"},
    "nvrtcGetLTOIRSize": {"hip": "hiprtcGetBitcodeSize", "note": "see nvrtcGetLTOIR"},
    "nvrtcGetTypeName": {"hip": "hiprtcGetTypeName", "kind": "function"},
    "NVRTC_ERROR_TIME_FILE_WRITE_FAILED": {"status": "unsupported", "kind": "enumerator"},
}


# --------------------------------------------------------------------------------------------
# Hand-written tables: families the oracle does not cover
# --------------------------------------------------------------------------------------------

_H = "header"
_RT = "hip/hip_runtime.h"
HEADERS = {
    # the runtime umbrella and its parts
    "cuda_runtime.h": {"hip": _RT},
    "cuda_runtime_api.h": {"hip": "hip/hip_runtime_api.h"},
    "cuda.h": {"hip": _RT, "note": "the driver API is declared by hip_runtime_api.h, included by hip_runtime.h"},
    "device_launch_parameters.h": {"hip": _RT, "note": "threadIdx/blockIdx/… come with hip_runtime.h"},
    "builtin_types.h": {"hip": _RT, "note": "umbrella of driver/surface/texture/vector types; hip_runtime.h includes all of them"},
    "driver_types.h": {"hip": "hip/driver_types.h"},
    "vector_types.h": {"hip": "hip/hip_vector_types.h"},
    "vector_functions.h": {"hip": "hip/hip_vector_types.h", "note": "make_float4() and friends are defined with the vector types"},
    "vector_functions.hpp": {"hip": "hip/hip_vector_types.h"},
    "texture_types.h": {"hip": "hip/texture_types.h"},
    "surface_types.h": {"hip": "hip/surface_types.h"},
    "cuda_texture_types.h": {"hip": "hip/hip_texture_types.h"},
    "cuda_surface_types.h": {"hip": "hip/surface_types.h"},
    "channel_descriptor.h": {"hip": "hip/channel_descriptor.h"},
    "library_types.h": {"hip": "hip/library_types.h"},
    "device_types.h": {"hip": "hip/driver_types.h", "note": "cudaRoundMode has no HIP counterpart; the header itself maps to driver types"},
    "host_defines.h": {"hip": _RT},
    "crt/host_defines.h": {"hip": _RT},
    "cuda_device_runtime_api.h": {"hip": "hip/hip_runtime_api.h"},
    "cuda_profiler_api.h": {"hip": "hip/hip_runtime_api.h", "note": "hipProfilerStart/Stop are declared by hip_runtime_api.h"},
    "cudaProfiler.h": {"hip": "hip/hip_runtime_api.h"},
    "cuda_stdint.h": {"hip": "stdint.h"},
    # device-side headers: everything comes with hip_runtime.h
    "device_functions.h": {"hip": "hip/device_functions.h"},
    "crt/device_functions.h": {"hip": "hip/device_functions.h"},
    "math_functions.h": {"hip": "hip/math_functions.h"},
    "crt/math_functions.h": {"hip": "hip/math_functions.h"},
    "common_functions.h": {"hip": _RT},
    "crt/common_functions.h": {"hip": _RT},
    "device_double_functions.h": {"hip": _RT},
    "device_atomic_functions.h": {"hip": _RT},
    "sm_20_atomic_functions.h": {"hip": _RT},
    "sm_32_atomic_functions.h": {"hip": _RT},
    "sm_35_atomic_functions.h": {"hip": _RT},
    "sm_60_atomic_functions.h": {"hip": _RT},
    "sm_20_intrinsics.h": {"hip": _RT},
    "sm_30_intrinsics.h": {"hip": _RT},
    "sm_32_intrinsics.h": {"hip": _RT},
    "sm_35_intrinsics.h": {"hip": _RT},
    "sm_61_intrinsics.h": {"hip": _RT},
    "texture_fetch_functions.h": {"hip": _RT, "note": "tex1Dfetch() and friends come with hip_runtime.h"},
    "texture_indirect_functions.h": {"hip": _RT},
    "surface_functions.h": {"hip": _RT},
    "surface_indirect_functions.h": {"hip": _RT},
    # numeric types
    "cuda_fp16.h": {"hip": "hip/hip_fp16.h"},
    "cuda_fp16.hpp": {"hip": "hip/hip_fp16.h"},
    "cuda_bf16.h": {"hip": "hip/hip_bf16.h", "note": "hip_bf16.h (__hip_bfloat16) ships with ROCm 5.7 and later; for older HIP, hipport's include directory has a hip/hip_bf16.h that supplies the API (hipport/bf16.h)"},
    "cuda_bf16.hpp": {"hip": "hip/hip_bf16.h"},
    "cuComplex.h": {"hip": "hip/hip_complex.h", "include": "hipport/complex.h",
                    "note": "hipport/complex.h makes `a += b` on HIP's complex types compile (ROCm/hip#2797)"},
    # cooperative groups
    "cooperative_groups.h": {"hip": "hip/hip_cooperative_groups.h"},
    "cooperative_groups/reduce.h": {"hip": "hip/cooperative_groups/hip_reduce.h", "note": "ROCm 7 ships it; where HIP lacks it, hipport's fallback header takes cooperative_groups::reduce and its functors (plus, less, …) from hipport/compat.h"},
    "cooperative_groups/scan.h": {"hip": "hip/cooperative_groups/hip_scan.h", "note": "ROCm 7 ships it; where HIP lacks it, hipport's fallback header provides inclusive_scan/exclusive_scan over thread_block_tile<N>"},
    "cooperative_groups/memcpy_async.h": {"status": "unsupported", "note": "HIP has no cooperative_groups::memcpy_async"},
    # runtime compilation
    "nvrtc.h": {"hip": "hip/hiprtc.h"},
    # graphics interop
    "cuda_gl_interop.h": {"hip": "hip/hip_gl_interop.h", "note": "ships with ROCm; for HIP 5.2, which declares the interop in hip_runtime_api.h, hipport's include directory has a hip/hip_gl_interop.h"},
    "cudaGL.h": {"hip": "hip/hip_gl_interop.h", "note": "ships with ROCm; for HIP 5.2, hipport's include directory has a hip/hip_gl_interop.h"},
    "cuda_egl_interop.h": {"status": "unsupported", "note": "HIP has no EGL interop"},
    "cudaEGL.h": {"status": "unsupported", "note": "HIP has no EGL interop"},
    "cuda_vdpau_interop.h": {"status": "unsupported", "note": "HIP has no VDPAU interop"},
    "cudaVDPAU.h": {"status": "unsupported", "note": "HIP has no VDPAU interop"},
    "cuda_d3d9_interop.h": {"status": "unsupported", "note": "HIP has no Direct3D interop"},
    "cuda_d3d10_interop.h": {"status": "unsupported", "note": "HIP has no Direct3D interop"},
    "cuda_d3d11_interop.h": {"status": "unsupported", "note": "HIP has no Direct3D interop"},
    # no HIP counterpart
    "cudaTypedefs.h": {"status": "unsupported", "note": "PFN_* driver entry-point typedefs; HIP has none"},
    "cuda_occupancy.h": {"status": "unsupported", "note": "use hipOccupancyMaxActiveBlocksPerMultiprocessor / hipOccupancyMaxPotentialBlockSize"},
    "cuda_awbarrier.h": {"status": "unsupported", "note": "asynchronous barriers are not available in HIP"},
    "cuda_awbarrier_primitives.h": {"status": "unsupported", "note": "asynchronous barriers are not available in HIP"},
    "cuda_pipeline.h": {"status": "unsupported", "note": "asynchronous copy pipelines are not available in HIP"},
    "cuda_pipeline_primitives.h": {"status": "unsupported", "note": "asynchronous copy pipelines are not available in HIP"},
    "mma.h": {"status": "unsupported", "note": "warp matrix functions (nvcuda::wmma); rocWMMA offers a similar API"},
    "nvml.h": {"status": "unsupported", "note": "NVML's counterpart is AMD SMI (amd_smi/amdsmi.h) or ROCm SMI, with a different API"},
    "cupti.h": {"status": "unsupported", "note": "CUPTI's counterpart is rocprofiler-sdk / roctracer, with a different API"},
    "nvJitLink.h": {"status": "unsupported", "note": "link device code with hiprtcLink* (hip/hiprtc.h) instead"},
    "nvPTXCompiler.h": {"status": "unsupported", "note": "there is no PTX on AMD GPUs"},
    "fatbinary_section.h": {"status": "unsupported", "note": "NVIDIA fat-binary layout; AMD code objects differ"},
    "sm_70_rt.h": {"status": "unsupported"},
    "sm_80_rt.h": {"status": "unsupported"},
    "sm_90_rt.h": {"status": "unsupported"},
    # parts of the runtime that cuda_runtime.h brings in (make_cudaExtent & co., host/device
    # qualifiers, the device double intrinsics): hip_runtime.h brings in theirs
    **{h: {"hip": _RT, "note": "part of the CUDA runtime; hip_runtime.h declares its HIP counterparts"}
       for h in ("driver_functions.h", "host_config.h", "crt/host_config.h", "crt/host_runtime.h", "cudart_platform.h",
                 "crt/storage_class.h", "crt/device_functions.hpp", "crt/device_double_functions.h",
                 "crt/device_double_functions.hpp", "crt/math_functions.hpp", "crt/sm_70_rt.h", "crt/sm_80_rt.h",
                 "crt/sm_90_rt.h", "crt/sm_100_rt.h", "crt/cudacc_ext.h")},
    "crt/mma.h": {"status": "unsupported", "note": "warp matrix functions (nvcuda::wmma); rocWMMA offers a similar API"},
    "crt/cuda_tile.h": {"status": "unsupported", "note": "CUDA 13's tile programming model has no HIP counterpart"},
    "cuda_fp6.h": {"status": "unsupported", "note": "HIP has no 6-bit floating-point types"},
    "cuda_awbarrier_helpers.h": {"status": "unsupported", "note": "asynchronous barriers are not available in HIP"},
    "cuda_pipeline_helpers.h": {"status": "unsupported", "note": "asynchronous copy pipelines are not available in HIP"},
    "nvvm.h": {"status": "unsupported", "note": "libNVVM compiles NVVM IR to PTX; HIP compiles with hiprtc (hip/hiprtc.h)"},
    "cudaEGLTypedefs.h": {"status": "unsupported", "note": "HIP has no EGL interop"},
    "cudaGLTypedefs.h": {"status": "unsupported", "note": "PFN_* driver entry-point typedefs; HIP has none"},
    "cudaProfilerTypedefs.h": {"status": "unsupported", "note": "PFN_* driver entry-point typedefs; HIP has none"},
    **{h: {"status": "unsupported", "note": "CUPTI's counterpart is rocprofiler-sdk / roctracer, with a different API"}
       for h in ("cupti_activity.h", "cupti_callbacks.h", "cupti_checkpoint.h", "cupti_common.h", "cupti_driver_cbid.h",
                 "cupti_events.h", "cupti_metrics.h", "cupti_nvtx_cbid.h", "cupti_pcsampling.h",
                 "cupti_pcsampling_util.h", "cupti_pmsampling.h", "cupti_profiler_host.h", "cupti_profiler_target.h",
                 "cupti_range_profiler.h", "cupti_result.h", "cupti_runtime_cbid.h", "cupti_sass_metrics.h",
                 "cupti_target.h", "cupti_version.h", "nvperf_common.h", "nvperf_cuda_host.h", "nvperf_host.h",
                 "nvperf_target.h")},
    # NVIDIA SDKs outside the toolkit: kept, and reported, so the port's missing pieces are named
    # before the compiler stops at "file not found"
    **{h: {"status": "unsupported", "note": "NVSHMEM's counterpart is rocSHMEM (roc_shmem.h), with a different API"}
       for h in ("nvshmem.h", "nvshmemx.h")},
    **{h: {"status": "unsupported", "note": "NPP has no HIP counterpart (MIVisionX, or hand-written kernels)"}
       for h in ("npp.h", "nppi.h", "npps.h", "nppcore.h", "nppdefs.h", "nppi_arithmetic_and_logical_operations.h",
                 "nppi_color_conversion.h", "nppi_data_exchange_and_initialization.h", "nppi_filtering_functions.h",
                 "nppi_geometry_transforms.h", "nppi_linear_transforms.h", "nppi_morphological_operations.h",
                 "nppi_statistics_functions.h", "nppi_support_functions.h", "nppi_threshold_and_compare_operations.h",
                 "nppi_compression_functions.h", "npps_arithmetic_and_logical_operations.h",
                 "npps_conversion_functions.h", "npps_filtering_functions.h", "npps_initialization.h",
                 "npps_statistics_functions.h", "npps_support_functions.h")},
    "nvjpeg.h": {"status": "unsupported", "note": "nvJPEG's counterpart is rocJPEG (rocjpeg/rocjpeg.h, ROCm 6.2 and later), with a different API"},
    **{h: {"status": "unsupported", "note": "nvCOMP has no HIP counterpart"} for h in ("nvcomp.h", "nvcomp.hpp", "nvcomp/")},
    "cudla.h": {"status": "unsupported", "note": "cuDLA drives Jetson's deep-learning accelerator; AMD has none"},
    "nvtx3/nvtx3.hpp": {"status": "unsupported", "note": "NVTX's C++ API has no ROCTX counterpart: use the C API "
                        "(nvToolsExt.h, which becomes roctracer/roctx.h) or roctxRangePush/roctxRangePop"},
    **{h: {"status": "unsupported", "note": "the NVIDIA Video Codec SDK: rocDecode (rocdecode/rocdecode.h) decodes on AMD; there is no encoder counterpart"}
       for h in ("nvcuvid.h", "cuviddec.h", "nvEncodeAPI.h")},
    **{h: {"status": "unsupported", "note": "TensorRT has no HIP counterpart (MIGraphX is AMD's inference compiler)"}
       for h in ("NvInfer.h", "NvInferRuntime.h", "NvInferPlugin.h", "NvOnnxParser.h")},
    **{h: {"status": "unsupported", "note": "OptiX has no HIP counterpart (HIP RT is AMD's ray-tracing library)"}
       for h in ("optix.h", "optix_stubs.h", "optix_function_table_definition.h")},
    **{h: {"status": "unsupported", "note": "CUTLASS/CuTe have no HIP port (composable_kernel and hipBLASLt cover similar ground)"}
       for h in ("cutlass/", "cute/")},
    **{h: {"status": "unsupported", "note": "HIP has no Direct3D interop"} for h in ("cudaD3D9.h", "cudaD3D10.h", "cudaD3D11.h")},
    "nvfunctional": {"status": "unsupported", "note": "nvstd::function (a device-callable std::function) has no HIP counterpart"},
    "math_constants.h": {"hip": "hip/hip_math_constants.h", "note": "CUDART_* constants become HIP_*; the header ships with ROCm releases newer than Debian's HIP 5.2; for older HIP, hipport's include directory has a hip/hip_math_constants.h (tools/gen_math_constants.py)"},
}

_M = "macro"
MACROS = {
    # include-guard macros that helper headers test as "is the CUDA runtime there?" flags
    "__CUDA_RUNTIME_H__": {"hip": "HIP_INCLUDE_HIP_HIP_RUNTIME_H", "note": "include guard used as a feature flag: hip_runtime.h's guard"},
    "__CUDA_RUNTIME_API_H__": {"hip": "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H", "note": "include guard used as a feature flag"},
    "__DRIVER_TYPES_H__": {"hip": "HIP_INCLUDE_HIP_DRIVER_TYPES_H", "note": "include guard used as a feature flag"},
    "__cuda_cuda_h__": {"hip": "HIP_INCLUDE_HIP_HIP_RUNTIME_H", "note": "cuda.h's guard; cuda.h maps to hip_runtime.h"},
    "__VECTOR_TYPES_H__": {"hip": "HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H", "note": "include guard used as a feature flag"},
    "__TEXTURE_TYPES_H__": {"hip": "HIP_INCLUDE_HIP_TEXTURE_TYPES_H", "note": "include guard used as a feature flag"},
    "__SURFACE_TYPES_H__": {"hip": "HIP_INCLUDE_HIP_SURFACE_TYPES_H", "note": "include guard used as a feature flag"},
    "__CHANNEL_DESCRIPTOR_H__": {"hip": "HIP_INCLUDE_HIP_CHANNEL_DESCRIPTOR_H", "note": "include guard used as a feature flag"},
    "__LIBRARY_TYPES_H__": {"hip": "HIP_INCLUDE_HIP_LIBRARY_TYPES_H", "note": "include guard used as a feature flag"},
    "__CUDA_FP16_H__": {"hip": "HIP_INCLUDE_HIP_HIP_FP16_H", "note": "include guard used as a feature flag"},
    "CU_COMPLEX_H_": {"hip": "HIP_INCLUDE_HIP_HIP_COMPLEX_H", "note": "cuComplex.h's include guard"},
    "_COOPERATIVE_GROUPS_H_": {"hip": "HIP_INCLUDE_HIP_HIP_COOPERATIVE_GROUP_H", "note": "include guard used as a feature flag"},
    "__DEVICE_LAUNCH_PARAMETERS_H__": {"hip": "HIP_INCLUDE_HIP_HIP_RUNTIME_H", "note": "device_launch_parameters.h maps to hip_runtime.h"},
    "__CUDA_PROFILER_API_H__": {"hip": "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H", "note": "cuda_profiler_api.h maps to hip_runtime_api.h"},
    # the library headers' guards, which cuda-samples' helper_cuda.h tests to define each library's
    # _cudaGetErrorEnum overload (CUSPARSEAPI, cusparse.h's calling-convention macro, is its flag)
    "CURAND_H_": {"hip": "HIPRAND_H_", "note": "curand.h's include guard, used as a feature flag"},
    "CURAND_KERNEL_H_": {"hip": "HIPRAND_KERNEL_H_", "note": "curand_kernel.h's include guard, used as a feature flag"},
    "CUSPARSE_H_": {"hip": "_HIPSPARSE_H_", "note": "cusparse.h's include guard, used as a feature flag"},
    "CUSPARSEAPI": {"hip": "_HIPSPARSE_H_", "note": "cusparse.h's calling-convention macro (empty on Linux), tested as "
                    "a feature flag; hipsparse.h's guard is defined empty too"},
    "CUBLAS_API_H_": {"hip": "HIPBLAS_H", "note": "cublas_api.h's include guard, used as a feature flag"},
    "CUBLAS_V2_H_": {"hip": "HIPBLAS_H", "note": "cublas_v2.h's include guard, used as a feature flag"},
    "_CUFFT_H_": {"hip": "HIPFFT_H_", "note": "cufft.h's include guard, used as a feature flag"},
    "CUSOLVER_COMMON_H_": {"hip": "HIPSOLVER_H", "note": "cusolver_common.h's include guard, used as a feature flag"},
    "CUSOLVERDN_H_": {"hip": "HIPSOLVER_H", "note": "cusolverDn.h's include guard, used as a feature flag"},
    # declaration qualifiers newer CUDA added that HIP 5.2's compiler does not know; hipport/compat.h
    # defines them empty there (a grid-constant parameter is still a const by-value parameter; a
    # register cap is a hint)
    "__grid_constant__": {"hip": "__grid_constant__", "include": "hipport/compat.h", "kind": "macro",
                          "note": "hipport/compat.h defines it empty where HIP lacks it: the parameter stays const by value"},
    "__maxnreg__": {"hip": "__maxnreg__", "include": "hipport/compat.h", "kind": "macro",
                    "note": "hipport/compat.h defines it empty where HIP lacks it: AMD's register budget is the compiler's"},
    # crt/host_defines.h's markers on CUDA's own declarations, which code that re-declares built-ins
    # (for an IDE, or to wrap them) copies; HIP defines none of them
    **{name: {"hip": name, "include": "hipport/compat.h", "kind": "macro",
              "note": "hipport/compat.h defines it empty: it only marks CUDA's own declarations"}
       for name in ("__device_builtin__", "__cudart_builtin__", "__device_builtin_texture_type__",
                    "__device_builtin_surface_type__")},
    "__builtin_align__": {"hip": "__builtin_align__", "include": "hipport/compat.h", "kind": "macro",
                          "note": "hipport/compat.h defines it as __attribute__((aligned(n))), as CUDA does on Linux"},
    # compiler identification
    "__CUDACC__": {"hip": "__HIPCC__", "note": "defined while compiling with the GPU compiler driver"},
    "__CUDACC_RTC__": {"hip": "__HIPCC_RTC__", "note": "defined under runtime compilation"},
    # calling conventions: empty on Linux; HIP on AMD defines none (HIPRT_CB exists only on the NVIDIA platform)
    "CUDART_CB": {"status": "unsupported", "note": "expands to nothing on Linux; HIP on AMD has no such macro: delete it or define it empty"},
    "CUDA_CB": {"status": "unsupported", "note": "expands to nothing on Linux; HIP on AMD has no such macro: delete it or define it empty"},
    # (both become HIPRT_CB once hipport/compat.h defines it: see _compat_callback_macros)
    "CUDARTAPI": {"status": "unsupported", "note": "expands to nothing on Linux; HIP has no such macro"},
    "CUDAAPI": {"status": "unsupported", "note": "expands to nothing on Linux; HIP has no such macro"},
    # special stream handles
    "cudaStreamPerThread": {"hip": "hipStreamPerThread"},
    "cudaStreamLegacy": {"status": "unsupported", "note": "HIP declares no legacy-stream handle; the null stream (0) has legacy semantics"},
    "CU_STREAM_PER_THREAD": {"hip": "hipStreamPerThread"},
    "CU_STREAM_LEGACY": {"status": "unsupported", "note": "HIP declares no legacy-stream handle; the null stream (0) has legacy semantics"},
}

# Device-side functions the HIP headers lack.  Names HIP spells the same are not listed.
_DEV_UNSUPPORTED = {
    "__brkpt": "no breakpoint intrinsic; use abort()",
    "__prof_trigger": "no profiler counters in HIP",
    "__fns": "no HIP equivalent",
    "__dp2a_hi": "no HIP equivalent in HIP 5.2", "__dp2a_lo": "no HIP equivalent in HIP 5.2",
    "__isGlobal": "address-space queries are not available", "__isShared": "address-space queries are not available",
    "__isConstant": "address-space queries are not available", "__isLocal": "address-space queries are not available",
    "__isGridConstant": "address-space queries are not available", "__isCtaShared": "address-space queries are not available",
    "__isClusterShared": "thread-block clusters do not exist on AMD GPUs",
    "__barrier_sync": "named barriers are not available", "__barrier_sync_count": "named barriers are not available",
    "__threadfence_cluster": "thread-block clusters do not exist on AMD GPUs",
    "__tanhf": "use tanhf()",
    "__nv_is_extended_device_lambda_closure_type": "nvcc's extended-lambda trait; HIP's lambdas carry no such mark: "
                                                   "drop the check, or keep it under #ifdef __NVCC__",
    "__nv_is_extended_host_device_lambda_closure_type": "nvcc's extended-lambda trait; HIP's lambdas carry no such "
                                                        "mark: drop the check, or keep it under #ifdef __NVCC__",
    "atomicInc_system": "not declared by HIP 5.2", "atomicDec_system": "not declared by HIP 5.2",
}
for _op in ("fadd2", "fmul2", "ffma2"):
    for _r in ("rd", "rn", "ru", "rz"):
        _DEV_UNSUPPORTED[f"__{_op}_{_r}"] = "paired float arithmetic with rounding modes is not available"
for _r in ("rd", "rn", "ru", "rz"):
    _DEV_UNSUPPORTED[f"__fmaf_ieee_{_r}"] = "use __fmaf_r{} or fmaf()".format(_r[1])
# directed rounding (toward -inf, +inf, zero): HIP's headers declare these only under
# OCML_BASIC_ROUNDED_OPERATIONS, which builds do not define (round-to-nearest _rn is there)
for _op in ("fadd", "fsub", "fmul", "fdiv", "frcp", "fsqrt", "fmaf", "dadd", "dsub", "dmul", "ddiv", "drcp",
            "dsqrt", "fma"):
    for _r in ("rd", "ru", "rz"):
        _DEV_UNSUPPORTED[f"__{_op}_{_r}"] = (f"directed rounding: HIP declares it only with OCML_BASIC_ROUNDED_OPERATIONS "
                                             f"defined; __{_op}_rn (round to nearest) is available")
for _n in ("cvta_constant_to_generic", "cvta_generic_to_constant", "cvta_generic_to_global",
           "cvta_generic_to_grid_constant", "cvta_generic_to_local", "cvta_generic_to_shared",
           "cvta_global_to_generic", "cvta_grid_constant_to_generic", "cvta_local_to_generic",
           "cvta_shared_to_generic"):
    _DEV_UNSUPPORTED[f"__{_n}"] = "PTX address-space conversion has no HIP equivalent"
for _n in ("clusterDim", "clusterDimIsSpecified", "clusterGridDimInClusters", "clusterIdx",
           "clusterRelativeBlockIdx", "clusterRelativeBlockRank", "clusterSizeInBlocks",
           "cluster_barrier_arrive", "cluster_barrier_arrive_relaxed", "cluster_barrier_wait",
           "cluster_map_shared_multicast", "cluster_map_shared_rank", "cluster_query_shared_rank"):
    _DEV_UNSUPPORTED[f"__{_n}"] = "thread-block clusters do not exist on AMD GPUs"
# SIMD-within-a-word video intrinsics and the sm_90 integer min/max family
for _n in ("vabs", "vabsdiffs", "vabsdiffu", "vabsss", "vadd", "vaddss", "vaddus", "vavgs", "vavgu",
           "vcmpeq", "vcmpges", "vcmpgeu", "vcmpgts", "vcmpgtu", "vcmples", "vcmpleu", "vcmplts",
           "vcmpltu", "vcmpne", "vhaddu", "vmaxs", "vmaxu", "vmins", "vminu", "vneg", "vnegss",
           "vsads", "vsadu", "vseteq", "vsetges", "vsetgeu", "vsetgts", "vsetgtu", "vsetles",
           "vsetleu", "vsetlts", "vsetltu", "vsetne", "vsub", "vsubss", "vsubus"):
    for _w in ("2", "4"):
        _DEV_UNSUPPORTED[f"__{_n}{_w}"] = "SIMD-within-a-word video intrinsics are not available in HIP 5.2"
for _n in ("viaddmax", "viaddmin", "vimax3", "vimin3", "vibmax", "vibmin"):
    for _t in ("s16x2", "s32", "u16x2", "u32"):
        _DEV_UNSUPPORTED[f"__{_n}_{_t}"] = "sm_90 integer min/max intrinsics are not available"
    if not _n.startswith("vib"):
        for _t in ("s16x2", "s32"):
            _DEV_UNSUPPORTED[f"__{_n}_{_t}_relu"] = "sm_90 integer min/max intrinsics are not available"
for _t in ("s16x2", "s32"):
    _DEV_UNSUPPORTED[f"__vimax_{_t}_relu"] = "sm_90 integer min/max intrinsics are not available"
    _DEV_UNSUPPORTED[f"__vimin_{_t}_relu"] = "sm_90 integer min/max intrinsics are not available"
DEVICE = {name: {"status": "unsupported", "note": why} for name, why in _DEV_UNSUPPORTED.items()}

# Warp intrinsics that HIP spells the same but only recent releases declare; hipport's runtime
# header hipport/compat.h defines each one when the installed HIP lacks it, so the rule keeps
# the name and asks for that include.
COMPAT_HEADER = "hipport/compat.h"
COMPAT_FUNCTIONS = {"cuGetErrorName": "driver", "cuGetErrorString": "driver", "cuCtxSetLimit": "driver",
                    "cudaDeviceSetLimit": "runtime", "cudaMemoryTypeManaged": "runtime",
                    "cudaMemoryTypeUnregistered": "runtime", "cudaGraphUpload": "runtime",
                    "cudaLimitStackSize": "runtime", "CU_LIMIT_STACK_SIZE": "driver",
                    "cudaEventRecordWithFlags": "runtime", "cuEventRecordWithFlags": "driver"}
#: CUDA 13 signatures HIP's functions lack; hipport/compat.h adds the overloads (name: family)
COMPAT_CUDA13_OVERLOADS = {"cudaMemPrefetchAsync": "runtime", "cudaMemAdvise": "runtime",
                           "cuMemPrefetchAsync": "driver", "cuMemAdvise": "driver",
                           "cudaMemLocationTypeHost": "runtime", "CU_MEM_LOCATION_TYPE_HOST": "driver"}
COMPAT_DRIVER_ENUM_OVERLOADS = ("cuTexRefSetAddressMode", "cuTexRefSetFilterMode", "cuTexRefSetMipmapFilterMode")
_WARP_SYNC = "HIP >= 6.4 declares it (6.2 with HIP_ENABLE_WARP_SYNC_BUILTINS); hipport/compat.h supplies it for older HIP. Lane masks are 64-bit on AMD"
for _n in ("__activemask", "__ballot_sync", "__all_sync", "__any_sync", "__uni_sync", "__shfl_sync",
           "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__match_any_sync", "__match_all_sync"):
    DEVICE[_n] = {"hip": _n, "include": COMPAT_HEADER, "note": _WARP_SYNC}
DEVICE["__syncwarp"] = {"hip": "__syncwarp", "include": COMPAT_HEADER, "note": "HIP >= 7.0 declares it; hipport/compat.h supplies it for older HIP"}
# HIP declares none of these; hipport/compat.h has them under its own names (a HIP that adds the
# CUDA name later cannot clash with ours)
DEVICE["__nanosleep"] = {"hip": "hipport::nanosleep", "include": COMPAT_HEADER,
                         "note": "hipport/compat.h: s_sleep for about that long (AMD has no nanosecond sleep)"}
for _op in ("Add", "Sub", "Exch", "Min", "Max", "Inc", "Dec", "CAS", "And", "Or", "Xor"):
    DEVICE[f"atomic{_op}_block"] = {
        "hip": f"atomic{_op}_block", "include": COMPAT_HEADER,
        "note": f"HIP declares no block-scope atomics; hipport/compat.h forwards to atomic{_op} (device scope, which is stronger)"}
for _suffix in ("", "WithFlags"):
    OVERRIDES[f"cudaOccupancyMaxPotentialBlockSizeVariableSMem{_suffix}"] = {
        "hip": f"hipport::occupancyMaxPotentialBlockSizeVariableSMem{_suffix}", "status": "supported",
        "include": "hipport/compat.h",
        "note": "HIP has no such calculator; hipport/compat.h's does what CUDA's header template does"}
DEVICE["__dp4a"] = {"hip": "hipport::dp4a", "include": COMPAT_HEADER,
                    "note": "hipport/compat.h: the four byte products summed, as CUDA defines it"}
for _n in ("umin", "umax", "llmin", "llmax", "ullmin", "ullmax"):
    DEVICE[_n] = {"hip": _n, "include": COMPAT_HEADER,
                  "note": "HIP 5.2 lacks it; hipport/compat.h defines it (a HIP that declares it wins)"}
for _n in ("__ffs", "__ffsll"):
    DEVICE[_n] = {"hip": _n, "include": COMPAT_HEADER,
                  "note": "HIP overloads it for signed and unsigned, so a `long` argument is ambiguous there; "
                          "hipport/compat.h converts other integer types as CUDA does"}
DEVICE["__trap"] = {"hip": "__builtin_trap", "note": "clang's trap builtin, which HIP's abort() also uses"}
for _bits in ("16", "32", "64"):  # byte swaps: clang's builtins, on host and device alike
    DEVICE[f"__nv_bswap{_bits}"] = {"hip": f"__builtin_bswap{_bits}", "note": "clang's byte-swap builtin"}
for _n in ("__pm0", "__pm1", "__pm2", "__pm3"):
    DEVICE[_n] = {"status": "unsupported", "note": "no profiler counters in HIP"}
for _op in ("and", "or", "count"):  # the unprefixed spellings CUDA 13 still declares
    DEVICE[f"syncthreads_{_op}"] = {"hip": f"__syncthreads_{_op}", "note": "CUDA's old unprefixed spelling"}
for _op in ("CAS", "Exch"):
    for _scope in ("", "_block", "_system"):
        DEVICE[f"__u128Atomic{_op}{_scope}"] = {"status": "unsupported",
                                                "note": "no 128-bit atomics in HIP; guard the data with a lock, "
                                                        "or split it into 64-bit atomics where that suffices"}
for _n in ("double2int", "double2uint", "double2ll", "double2ull", "int2double", "uint2double", "ll2double",
           "ull2double"):  # CUDA's old conversions with a rounding-mode argument
    DEVICE[_n] = {"status": "unsupported",
                  "note": "use the intrinsic of the rounding mode (__double2int_rn, __int2double_rn, …) or a cast"}
# cache-hinted loads and stores: HIP 5.2 has only __half overloads of __ldcs/__ldcg and no stores;
# the hint changes caching, not the value, so hipport/compat.h's plain access computes the same
for _n in ("ldca", "ldcg", "ldcs", "ldcv", "ldlu", "stcg", "stcs", "stwb", "stwt"):
    DEVICE[f"__{_n}"] = {"hip": f"hipport::{_n}", "include": COMPAT_HEADER,
                         "note": "hipport/compat.h: a plain " + ("load" if _n.startswith("ld") else "store")
                                 + " (AMD's cache policy is the compiler's)"}
for _op in ("add", "min", "max", "and", "or", "xor"):
    DEVICE[f"__reduce_{_op}_sync"] = {
        "hip": f"__reduce_{_op}_sync", "include": COMPAT_HEADER,
        "note": "recent HIP declares it with cooperative_groups::reduce; hipport/compat.h supplies it for older HIP",
    }

# CUDA 12.8's atomic builtins (nvcc declares them itself): clang's __hip_atomic_* take the same
# arguments, the scope last; hipport/compat.h's wrappers give it CUDA's default (the system) and
# choose the weak or strong exchange by CUDA's `weak` argument
for _n in ("fetch_add", "fetch_sub", "fetch_and", "fetch_or", "fetch_xor", "fetch_min", "fetch_max", "add", "sub",
           "and", "or", "xor", "min", "max", "exchange_n", "exchange", "compare_exchange_n", "compare_exchange",
           "load_n", "load", "store_n", "store", "thread_fence"):
    DEVICE[f"__nv_atomic_{_n}"] = {"hip": f"hipport::nv_atomic_{_n}", "include": COMPAT_HEADER,
                                   "note": "hipport/compat.h: clang's __hip_atomic builtins (CUDA's orders and scopes)"}
for _n in ("RELAXED", "CONSUME", "ACQUIRE", "RELEASE", "ACQ_REL", "SEQ_CST"):  # the same values as clang's
    DEVICE[f"__NV_ATOMIC_{_n}"] = {"hip": f"__ATOMIC_{_n}", "kind": "enumerator", "note": "clang's memory order"}
for _cuda, _hip in (("THREAD", "SINGLETHREAD"), ("BLOCK", "WORKGROUP"), ("CLUSTER", "AGENT"), ("DEVICE", "AGENT"),
                    ("SYSTEM", "SYSTEM")):
    DEVICE[f"__NV_THREAD_SCOPE_{_cuda}"] = {
        "hip": f"__HIP_MEMORY_SCOPE_{_hip}", "kind": "enumerator",
        "note": "clang's memory scope" + (" (no clusters on AMD GPUs: the device, which holds any cluster)"
                                          if _cuda == "CLUSTER" else "")}

# cuda_fp16.h / cuda_bf16.h
FP16 = {
    "__nv_bfloat16": {"hip": "__hip_bfloat16", "kind": "type", "note": "declared by hip/hip_bf16.h (ROCm ≥ 5.7; hipport/bf16.h before)"},
    "__nv_bfloat162": {"hip": "__hip_bfloat162", "kind": "type", "note": "declared by hip/hip_bf16.h (ROCm ≥ 5.7; hipport/bf16.h before)"},
    "nv_bfloat16": {"hip": "__hip_bfloat16", "kind": "type", "note": "not hip_bfloat16, which is an older, different struct"},
    "nv_bfloat162": {"hip": "__hip_bfloat162", "kind": "type"},
    "__nv_bfloat16_raw": {"hip": "__hip_bfloat16_raw", "kind": "type"},
    "__nv_bfloat162_raw": {"hip": "__hip_bfloat162_raw", "kind": "type"},
    "nv_half": {"hip": "__half", "kind": "type", "note": "CUDA's alias of __half"},
    "nv_half2": {"hip": "__half2", "kind": "type", "note": "CUDA's alias of __half2"},
}
# declared by HIP 5.2's hip_fp16.h, whose definition calls a function its device library lacks
for _n in ("hrcp", "h2rcp"):
    FP16[_n] = {"hip": _n, "kind": "device_function", "include": COMPAT_HEADER,
                "note": "HIP 5.2's __half version calls __llvm_amdgcn_rcp_f16, which no device library defines "
                        "(a link error); hipport/compat.h defines it"}
# half intrinsics newer HIP declares and hipport/compat.h supplies for HIP 5.2
for _n in ("__hmax", "__hmin", "__hmax2", "__hmin2", "__hmax_nan", "__hmin_nan", "__hmax2_nan", "__hmin2_nan",
           "__hadd_rn", "__hsub_rn", "__hmul_rn", "__hadd2_rn", "__hsub2_rn", "__hmul2_rn", "__hfma_relu",
           "__hfma2_relu", "__double2half", "htanh", "h2tanh", "__half2char_rz", "__half2uchar_rz"):
    FP16[_n] = {"hip": _n, "kind": "device_function", "include": COMPAT_HEADER,
                "note": "not declared by HIP 5.2's hip_fp16.h; hipport/compat.h supplies it there"}
for _n in ("__hcmadd", "__heq2_mask", "__hequ2_mask", "__hge2_mask", "__hgeu2_mask",
           "__hgt2_mask", "__hgtu2_mask", "__hle2_mask", "__hleu2_mask", "__hlt2_mask", "__hltu2_mask",
           "__hne2_mask", "__hneu2_mask", "htanh_approx", "h2tanh_approx"):
    FP16[_n] = {"kind": "device_function", "status": "unsupported", "note": "not declared by HIP 5.2's hip_fp16.h"}

# cuda_fp16.h's / cuda_bf16.h's special values (CUDART_INF_FP16 ...): HIP spells none of them;
# hipport/compat.h defines them with CUDA's bit patterns
for _t in ("FP16", "BF16"):
    for _v in ("INF", "NAN", "MIN_DENORM", "MAX_NORMAL", "NEG_ZERO", "ZERO", "ONE"):
        FP16[f"CUDART_{_v}_{_t}"] = {"hip": f"CUDART_{_v}_{_t}", "kind": "macro", "include": COMPAT_HEADER,
                                     "note": "HIP defines no such constant; hipport/compat.h does, with CUDA's bit pattern"}

COOPERATIVE_GROUPS = {
    "this_cluster": {"kind": "device_function", "status": "unsupported", "note": "thread-block clusters do not exist on AMD GPUs"},
    "cluster_group": {"kind": "type", "status": "unsupported", "note": "thread-block clusters do not exist on AMD GPUs"},
    "block_tile_memory": {"kind": "type", "status": "unsupported", "note": "HIP's tiled_partition needs no scratch memory"},
    "invoke_one": {"kind": "device_function", "status": "unsupported", "note": "no HIP equivalent"},
    **{name: {"kind": "device_function", "status": "unsupported",
              "note": "no asynchronous group reductions in HIP; cg::reduce, then the store or atomic by one thread"}
       for name in ("reduce_store_async", "reduce_update_async")},
    "invoke_one_broadcast": {"kind": "device_function", "status": "unsupported", "note": "no HIP equivalent"},
    "binary_partition": {"kind": "device_function", "status": "unsupported",
                         "note": "not declared by HIP 5.2 (newer HIP releases document it); split the group with "
                                 "__ballot(pred) and the lanes' masks, or coalesced_threads() inside if (pred)"},
    "labeled_partition": {"kind": "device_function", "status": "unsupported",
                          "note": "no HIP equivalent; hipport::match_any(tile, label) gives the lanes of each label"},
    "this_thread": {"kind": "device_function", "status": "unsupported",
                    "note": "no HIP equivalent; cg::tiled_partition<1>(cg::this_thread_block()) is a group of the calling thread"},
    "this_multi_grid": {"hip": "this_multi_grid", "kind": "device_function", "status": "removed", "cuda_removed": "13.0",
                        "note": "multi-device cooperative launch was removed in CUDA 13.0; HIP still has it"},
    "multi_grid_group": {"hip": "multi_grid_group", "kind": "type", "status": "removed", "cuda_removed": "13.0",
                         "note": "multi-device cooperative launch was removed in CUDA 13.0; HIP still has it"},
}


@functools.lru_cache(maxsize=None)
def math_constant_rules(include: Path = CUDA_INCLUDE) -> dict[str, dict]:
    """math_constants.h: HIP's hip_math_constants.h spells every CUDART_X as HIP_X."""
    path = include / "math_constants.h"
    if not path.exists():
        return {}
    names = sorted(set(re.findall(r"^\s*#\s*define\s+(CUDART_\w+)", path.read_text(encoding="utf-8", errors="replace"), re.M)))
    return {n: {"hip": "HIP_" + n[len("CUDART_"):], "kind": "macro"} for n in names}


def complex_rules(include: Path = CUDA_INCLUDE, hip_names: dict | None = None) -> dict[str, dict]:
    """cuComplex.h: every cu* name becomes its hip* spelling, when HIP declares it."""
    hip_names = hip_declared_names() if hip_names is None else hip_names
    path = include / "cuComplex.h"
    if not path.exists():
        return {}
    rules = {}
    text = strip_comments(path.read_text(encoding="utf-8", errors="replace"))
    for name in sorted(set(re.findall(r"\b((?:make_)?cu[A-Z]\w*)\b", text))):
        hip = re.sub(r"^(make_)?cu", r"\1hip", name)
        kind = "type" if re.search(rf"\b{name}\s*;", text) or name.endswith("Complex") else "function"
        if name.startswith("make_"):
            kind = "function"
        if hip in hip_names:
            rules[name] = {"hip": hip, "kind": kind}
        else:
            rules[name] = {"kind": kind, "status": "unsupported"}
    return rules


COMPAT_PATH = ROOT / "hipport" / "runtime" / "include" / "hipport" / "compat.h"


def _compat_callback_macros() -> dict[str, dict]:
    """CUDART_CB / CUDA_CB → HIPRT_CB, when hipport/compat.h defines HIPRT_CB for AMD.

    HIP declares HIPRT_CB only on the NVIDIA platform (as CUDART_CB); on AMD a callback needs
    no calling convention, so the runtime header can define it empty and translated callbacks
    keep their spelling.  Until it does, the macros stay unsupported (with a warning)."""
    text = COMPAT_PATH.read_text(encoding="utf-8") if COMPAT_PATH.exists() else ""

    def defined(macro: str) -> bool:
        return re.search(rf"#\s*define\s+{macro}\b", text) is not None

    if not defined("HIPRT_CB"):
        return {}
    note = "HIP spells it HIPRT_CB; hipport/compat.h defines it (empty) where HIP does not"
    out = {name: {"hip": "HIPRT_CB", "include": COMPAT_HEADER, "note": note} for name in ("CUDART_CB", "CUDA_CB")}
    # the API calling-convention macros of function-pointer typedefs (`typedef CUresult CUDAAPI (*fn)(...)`):
    # HIP has none, and on Linux they are empty
    out.update({name: {"hip": name, "include": COMPAT_HEADER, "note": "expands to nothing on Linux; hipport/compat.h "
                       "defines it empty where HIP has no such macro"} for name in ("CUDAAPI", "CUDARTAPI") if defined(name)})
    return out


FAMILY_META = {
    "runtime": ("cudart", "amdhip64"),
    "driver": ("cuda", "amdhip64"),
    "nvrtc": ("nvrtc", "hiprtc"),
    "device": ("", ""),
    "complex": ("cudart", "amdhip64"),
    "fp16": ("cudart", "amdhip64"),
    "cooperative_groups": ("cudart", "amdhip64"),
    "headers": ("", ""),
    "macros": ("cudart", "amdhip64"),
}
FAMILY_DOC = {
    "runtime": "CUDA runtime API (cuda_runtime_api.h, driver_types.h, …)",
    "driver": "CUDA driver API (cuda.h, cudaGL.h, …)",
    "nvrtc": "NVRTC → HIPRTC",
    "device": "device functions and intrinsics that differ or that HIP lacks",
    "complex": "cuComplex.h → hip/hip_complex.h",
    "fp16": "cuda_fp16.h / cuda_bf16.h → hip/hip_fp16.h / hip/hip_bf16.h",
    "cooperative_groups": "cooperative groups",
    "headers": "CUDA include paths → HIP include paths (a key ending in '/' maps a prefix)",
    "macros": "macros: include-guard feature flags, calling-convention and stream-handle macros",
}

# --------------------------------------------------------------------------------------------
# Building the tables
# --------------------------------------------------------------------------------------------

_API_PREFIX = re.compile(r"^(make_cuda|cuda|CUDA|cu[A-Z]|CU_|CU[a-z]|CUGL|CUDART_|nvrtc|NVRTC_)")
# Macros that are plumbing of the headers themselves, not API.
_PLUMBING = re.compile(
    r"^(__|CUDA_CB$|CUDAAPI$|CUDARTAPI\w*$|CUDART_CB$|CUDART_DEVICE$|CUDA_API_PER_THREAD\w*|__CUDA_\w+|"
    r"CU_UUID_HAS_BEEN_DEFINED|CUDA_ENABLE_DEPRECATED|CUDART_STATIC\w*|CUDA_FORCE_API_VERSION|"
    r"CUDA_API_VERSION\w*|cudaDevicePropDontCare|CU_TENSOR_MAP_NUM_QWORDS)"
)


def _family_of(name: str, header: str | None) -> str:
    if header in RUNTIME_HEADERS:
        return "runtime"
    if header in DRIVER_HEADERS:
        return "driver"
    if header == "nvrtc.h" or name.lower().startswith("nvrtc"):
        return "nvrtc"
    return "runtime" if name.startswith("cuda") else "driver"


def _removed(name: str) -> tuple[str, str]:
    for pattern, version, why in REMOVED_IN:
        if re.match(pattern, name):
            return version, why
    return "", "not declared by the CUDA 13.0 headers"


def _guess_kind(name: str) -> str:
    if name.isupper() or re.match(r"^CU_[A-Z0-9_]+$", name):
        return "enumerator"
    if name.endswith(("_t", "_st")) or re.match(r"^(CU[a-z]|CUDA_[A-Z0-9_]+$)", name):
        return "type"
    return "function"


def _mark_cuda_deprecated(entry: dict, name: str, deprecated: dict[str, str]) -> None:
    if name not in deprecated:
        return
    if deprecated[name]:
        entry["cuda_deprecated"] = deprecated[name]
    else:
        why = "CUDA marks it deprecated"
        entry["note"] = f"{entry['note']}; {why}" if entry.get("note") else why


def _portable_spelling(name: str, hip: str, hip_names, debian: frozenset[str],
                       debian_by_lower: dict[str, str]) -> tuple[str, str] | None:
    """A better spelling of the interop target, with the reason (recorded in the rule's note).

    - a CUDA typedef (``CUaddress_mode``) → HIP's typedef (``HIPaddress_mode``), not the enum tag
      (``HIPaddress_mode_enum``) the interop package names: typedef for typedef, tag for tag, as
      hipify-clang writes them;
    - a target only newer HIP spells one way (``hipDeviceAttributePciDomainId``) when both
      Debian's HIP 5.2 and current HIP declare another spelling (``...PciDomainID``).
    """
    if not name.endswith("_enum") and hip.endswith("_enum") and hip[:-5] in hip_names:
        return hip[:-5], "the enum's typedef name (hipify-clang's spelling); hip-python-interop names the tag " + hip
    if hip not in debian:
        other = debian_by_lower.get(hip.lower())
        if other and other != hip and other in hip_names:
            return other, f"{other} is declared by Debian's HIP 5.2 and current HIP; {hip} only by newer HIP"
    return None


def build_api_families(sp: Path | None = None, include: Path = CUDA_INCLUDE) -> dict[str, dict[str, dict]]:
    aliases = interop_aliases(sp)
    cuda = dict(cuda_declarations(include))  # the cached table stays unchanged
    if NVRTC_NAMES.exists():
        cuda.update(nvrtc_declarations())
    kinds = hip_kinds(sp)
    deprecated = hip_deprecated(sp)
    hip_names = hip_declared_names(sp)
    macro_aliases = cuda_macro_aliases(include)
    cuda_deprecated = cuda_deprecations(include)
    added = cuda_added_versions(include)
    families: dict[str, dict[str, dict]] = {"runtime": {}, "driver": {}, "nvrtc": {}}
    hand = set(MACROS) | set(math_constant_rules(include)) | set(DEVICE) | set(FP16) | set(COOPERATIVE_GROUPS) | set(complex_rules(include))

    debian = debian_hip_names()
    debian_by_lower = {n.lower(): n for n in debian}
    for name, hip in sorted(aliases.items()):
        if name in SKIP_ALIASES or name in VERSION_MACROS or name in hand or name == hip:
            continue
        better = _portable_spelling(name, hip, hip_names, debian, debian_by_lower)
        kind_header = cuda.get(name)
        header = kind_header[1] if kind_header else None
        if header in FOREIGN_HEADERS:
            continue
        # CUDA 13 no longer declares removed names: take the kind from HIP's declaration.
        kind = kind_header[0] if kind_header else kinds.get(hip) or _guess_kind(name)
        entry = {"hip": hip, "kind": kind}
        if better is not None:
            entry.update(hip=better[0], note=better[1])
        if kind_header is None:
            version, why = _removed(name)
            entry.update(status="removed", note=why)
            if version:
                entry["cuda_removed"] = version
        elif hip in deprecated:
            entry.update(status="deprecated", note=f"HIP deprecates {hip}: {deprecated[hip]}")
        if name in added:
            entry["cuda_added"] = added[name]
        _mark_cuda_deprecated(entry, name, cuda_deprecated)
        entry.update(OVERRIDES.get(name, {}))
        families[_family_of(name, header)][name] = entry

    for name, extra in NVRTC_EXTRA.items():
        families["nvrtc"][name] = {"kind": "function", **extra}
    for name, entry in REMOVED_EXTRA.items():  # removed names hip-python-interop does not alias
        version, why = _removed(name)
        families["runtime"].setdefault(name, {"kind": "function", "status": "removed", "cuda_removed": version,
                                              "note": why, **entry})

    # Unsupported: declared by CUDA, not mapped by the oracle, not identical in HIP.
    for name, (kind, header) in sorted(cuda.items()):
        if header in FOREIGN_HEADERS or name in aliases or name in VERSION_MACROS or name in hand:
            continue
        if not _API_PREFIX.match(name) or _PLUMBING.match(name) or "_ptds" in name or "_ptsz" in name:
            continue
        family = _family_of(name, header)
        if name in families[family]:
            continue
        entry = {"kind": kind, "status": "unsupported"}
        alias = macro_aliases.get(name, "")
        while alias in macro_aliases and alias not in aliases:
            alias = macro_aliases[alias]
        if alias in aliases and kind == "macro":
            # `#define cudaKernelNodeAttributePriority cudaLaunchAttributePriority`: follow CUDA's
            # own alias to the name the oracle maps.
            families[family][name] = {"hip": aliases[alias], "kind": kind, "note": f"CUDA defines it as {alias}"}
            continue
        mirrored = re.match(r"(make_)?cuda([A-Z]\w*)$", name) if family == "runtime" else None
        counterpart = f"{mirrored.group(1) or ''}hip{mirrored.group(2)}" if mirrored else ""
        if counterpart in hip_names:
            # The runtime API is mirrored name for name (cudaX → hipX); the oracle merely lags.
            # Not done for the driver API, whose cuX → hipX pairs differ in arguments
            # (cuMemcpy vs hipMemcpy, cuMemcpyPeer's contexts vs hipMemcpyPeer's devices).
            where = "rocm-bindings-hip" if hip_names[counterpart] == "bindings" else "Debian's HIP 5.2 headers"
            entry = {"hip": counterpart, "kind": kind, "note": f"not aliased by hip-python-interop; {where} declare {counterpart}"}
        if "hip" not in entry:
            hint = next((why for pattern, why in UNSUPPORTED_HINTS if re.search(pattern, name)), "")
            if hint:
                entry["note"] = hint
        if name in added:
            entry["cuda_added"] = added[name]
        _mark_cuda_deprecated(entry, name, cuda_deprecated)
        entry.update(OVERRIDES.get(name, {}))
        families[family][name] = entry
    return families


# --------------------------------------------------------------------------------------------
# Writing TOML
# --------------------------------------------------------------------------------------------

DEFAULT_KIND = {"headers": "header", "macros": "macro", "device": "device_function"}
FIELD_ORDER = ("hip", "roc", "miopen", "kind", "status", "cuda_added", "cuda_deprecated", "cuda_removed", "hip_added", "hip_type", "include", "note")
KIND_ORDER = {k: i for i, k in enumerate(("header", "namespace", "function", "device_function", "type", "enumerator", "macro"))}
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _toml_str(key)


def render_family(family: str, rules: dict[str, dict]) -> str:
    library, hip_library = FAMILY_META[family]
    default_kind = DEFAULT_KIND.get(family, "function")
    lines = [
        f"# {FAMILY_DOC[family]}",
        "# GENERATED by tools/gen_core_rules.py from hip-python-interop, rocm-bindings-hip and the",
        "# CUDA 13.0 headers, plus the hand-written tables in that script: edit the script,",
        "# then rerun it.",
        "",
        "[meta]",
        f"family = {_toml_str(family)}",
        f"library = {_toml_str(library)}",
        f"hip_library = {_toml_str(hip_library)}",
        f"kind = {_toml_str(default_kind)}",
        "",
        "[rules]",
    ]
    order = sorted(rules.items(), key=lambda kv: (KIND_ORDER[kv[1].get("kind", default_kind)], kv[0].lower(), kv[0]))
    for name, entry in order:
        fields = []
        for key in FIELD_ORDER:
            value = entry.get(key, "")
            if key == "kind" and value == default_kind:
                continue
            if key == "status" and value == "supported":
                continue
            if value:
                fields.append(f"{key} = {_toml_str(value)}")
        unknown = set(entry) - set(FIELD_ORDER)
        if unknown:
            raise SystemExit(f"{family}: rule {name!r}: unknown field(s) {sorted(unknown)}")
        lines.append(f"{_toml_key(name)} = {{ {', '.join(fields)} }}")
    return "\n".join(lines) + "\n"


def build_all(sp: Path | None = None) -> dict[str, str]:
    families = build_api_families(sp)
    families.update(
        device=DEVICE, complex=complex_rules(), fp16=FP16, cooperative_groups=COOPERATIVE_GROUPS,
        headers=HEADERS, macros={**math_constant_rules(), **MACROS, **_compat_callback_macros()},
    )
    hip_names = hip_declared_names(sp)
    # CUDA names hipify-clang maps that no source above covers (CUlinkState_st, the *_union
    # tags): candidates like the others, so AMD's declarations decide their status below
    known = set().union(*families.values())
    cuda = cuda_declarations()
    for (name, which), (spelling, _when) in sorted(hipify_names.table().items()):
        if which == "hip" and name not in known and name in cuda and name not in VERSION_MACROS:
            kind, header = cuda[name]
            family = _family_of(name, header)
            if family in families and header not in FOREIGN_HEADERS:
                families[family] = {**families[family], name: {"kind": kind, "status": "unsupported"}}
        elif (which == "hip" and name not in known and name not in cuda and spelling in hip_names
              and re.match(r"^(CU[a-z]|cuda[A-Z])", name)):
            # a tag older CUDA declared (CUkernelNodeAttrValue_union) whose HIP target AMD declares
            entry = {"hip": spelling, "kind": _guess_kind(name), "status": "removed", "note": _removed(name)[1]}
            families[_family_of(name, "")] = {**families[_family_of(name, "")], name: entry}
    for bits in (32, 64):  # cuda.h's fixed-width typedefs (cuStreamWaitValue64's value, cuGetProcAddress's flags)
        families["driver"][f"cuuint{bits}_t"] = {
            "hip": f"uint{bits}_t", "kind": "type",
            "note": f"cuda.h's typedef of uint{bits}_t; HIP on AMD has no such alias, <stdint.h> has the type"}
    for name, family in COMPAT_FUNCTIONS.items():  # older HIP lacks the target: hipport/compat.h supplies it
        families[family][name] = {**families[family][name], "include": COMPAT_HEADER,
                                  "note": "HIP 5.2 does not declare it; hipport/compat.h supplies it there"}
    for name, family in COMPAT_CUDA13_OVERLOADS.items():
        families[family][name] = {**families[family][name], "include": COMPAT_HEADER, "note": (
            "CUDA 13 passes a memory location where HIP takes a device number; hipport/compat.h adds the "
            "overload (and hipMemLocationTypeHost, which HIP < 6 lacks)")}
    for name in COMPAT_DRIVER_ENUM_OVERLOADS:
        families["driver"][name] = {**families["driver"][name], "include": COMPAT_HEADER, "note": (
            "HIP declares it with the runtime's texture enumeration; hipport/compat.h adds the overload for the "
            "driver enumeration (HIP_TR_*) the translated call passes. Deprecated by CUDA and HIP")}
    by_lower: dict[str, str | None] = {}
    for n in hip_names:  # a lower-cased spelling two declared names share picks neither
        by_lower[n.lower()] = None if n.lower() in by_lower else n
    for family, rules in families.items():
        if family != "headers":
            families[family] = rules = {name: dict(entry) for name, entry in rules.items()}
            hipify_names.preferred(rules, hip_names.__contains__, ("hip", "roc"),
                                   spelled=lambda target: by_lower.get(target.lower()))
    # the HIP release that added each target (HIPIFY's tables, checked against Debian's headers)
    debian, here = debian_hip_names(), hip_versions.release_of(HIP_INCLUDE / "hip_version.h")
    for family, rules in families.items():
        for name, entry in rules.items():
            if entry.get("hip") and family != "headers":
                entry["hip_added"] = hip_versions.added_for(name, entry["hip"], entry["hip"] in debian, here,
                                                            declared_later=hip_names.get(entry["hip"]) == "bindings")
    return {name: render_family(name, rules) for name, rules in families.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a rules file is out of date")
    parser.add_argument("--extract-nvrtc", metavar="NVRTC_H", type=Path, help=f"rewrite {NVRTC_NAMES.name} from nvrtc.h")
    args = parser.parse_args(argv)
    if args.extract_nvrtc:
        NVRTC_NAMES.write_text(extract_nvrtc(args.extract_nvrtc), encoding="utf-8")
        print(f"wrote {NVRTC_NAMES}")
        return 0
    stale = []
    for family, text in build_all().items():
        path = RULES_DIR / f"{family}.toml"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            count = len(text.split("\n[rules]\n", 1)[1].splitlines())
            print(f"wrote {path.relative_to(ROOT)} ({count} rules)")
    if stale:
        print("out of date: " + ", ".join(stale) + " (run tools/gen_core_rules.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
