#!/usr/bin/env python3
"""Maintainer script: build the CUDA *library* rules (cuBLAS, cuRAND, cuSPARSE, ...) from evidence.

Two steps, run rarely and by hand; the test suite never downloads anything:

``extract``
    ``pip download --no-deps`` NVIDIA's wheels (``nvidia-cublas`` for CUDA 13, ``nvidia-cublas-cu12``
    for 12.9, ``nvidia-cublas-cu11`` for 11.8, ...), read only their headers straight out of the
    zip files, and write the declared names (functions, types, enumerators, macros, header paths)
    with the snapshots that declare them to ``tools/data/libraries/<lib>.txt``.  A name missing
    from the newest snapshot is *removed*: ``cuda_removed`` is the major release after the last
    snapshot declaring it ("12.0" or "13.0"; CUDA removes APIs at major releases).  A name the
    headers mark deprecated gets ``cuda_deprecated`` = the first snapshot that marks it, unless
    AMD documents the exact version (hipSPARSE does, per function).  ``cuda_fp8.h`` comes from the
    local CUDA toolkit (``/usr/local/cuda/include``).  cuTENSOR's ``cu11`` snapshot is pinned to
    1.7.0, the last cuTENSOR 1.x: names only it declares are removed by cuTENSOR 2.0 (no CUDA release).

``generate``
    Derive each CUDA name's HIP (and ``--roc``) candidate systematically
    (``cublasSgemm_v2 → hipblasSgemm``, ``CURAND_RNG_PSEUDO_DEFAULT → ROCRAND_RNG_PSEUDO_DEFAULT``,
    ``cusparseCreateCsr → rocsparse_create_csr_descr`` ...) and keep a candidate only when AMD
    declares it: the Cython declarations in ``rocm-bindings-libraries`` (hipBLAS, hipBLASLt,
    hipSOLVER, hipRAND, hipFFT, hipSPARSE, RCCL, ROCTX, hipDNN, hipFile, hipTensor, hipSPARSELt) and
    Debian's ROCm headers under ``/usr/include`` (hipRAND, rocRAND, hipSPARSE, rocSPARSE, rocPRIM).
    A CUDA name without a declared target becomes ``status = "unsupported"`` with a note naming the
    closest alternative where there is one.  Targets that no local declaration can confirm (rocBLAS,
    rocSOLVER, MIOpen, hipCUB, rocThrust, HIP's fp8 header, hipFile's macros) come from the short
    curated tables below and are listed in :data:`UNVERIFIABLE_REASON` with the reason, which
    ``tests/test_rules_libraries.py`` honours.

Usage::

    python tools/gen_library_rules.py extract     # needs network (PyPI), ~4.5 GB of wheels in a temp dir (--wheels DIR keeps them)
    python tools/gen_library_rules.py generate    # offline; rewrites hipport/rules/<lib>.toml
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hipify_names  # noqa: E402  (tools/ is not a package)
import hip_versions  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tools" / "data" / "libraries"
RULES = ROOT / "hipport" / "rules"

# ---------------------------------------------------------------------------------------------
# Library table: which wheel holds which headers, which names belong to which rules file.
# ---------------------------------------------------------------------------------------------

#: lib -> ({snapshot: wheel}, name prefixes).  Snapshots, newest first: cu13 (the latest CUDA 13
#: wheels), cu12 (CUDA 12.9), cu11 (CUDA 11.8).  cuDNN and NCCL keep one API across CUDA majors.
LIBRARIES: dict[str, tuple[dict[str, str], tuple[str, ...]]] = {
    "cublas": ({"cu13": "nvidia-cublas", "cu12": "nvidia-cublas-cu12", "cu11": "nvidia-cublas-cu11"}, ("cublas", "CUBLAS")),
    "curand": ({"cu13": "nvidia-curand", "cu12": "nvidia-curand-cu12", "cu11": "nvidia-curand-cu11"},
               ("curand", "CURAND", "mtgp32_kernel_params")),
    "cusparse": ({"cu13": "nvidia-cusparse", "cu12": "nvidia-cusparse-cu12", "cu11": "nvidia-cusparse-cu11"},
                 ("cusparse", "CUSPARSE", "csrsv2Info", "csrsm2Info", "bsrsv2Info", "bsrsm2Info", "csric02Info",
                  "csrilu02Info", "bsric02Info", "bsrilu02Info", "csrgemm2Info", "pruneInfo", "csru2csrInfo")),
    "cusolver": ({"cu13": "nvidia-cusolver", "cu12": "nvidia-cusolver-cu12", "cu11": "nvidia-cusolver-cu11"},
                 ("cusolver", "CUSOLVER", "syevjInfo", "gesvdjInfo")),
    "cufft": ({"cu13": "nvidia-cufft", "cu12": "nvidia-cufft-cu12", "cu11": "nvidia-cufft-cu11"}, ("cufft", "CUFFT")),
    "cudnn": ({"cu12": "nvidia-cudnn-cu12"}, ("cudnn", "CUDNN")),
    "nccl": ({"cu12": "nvidia-nccl-cu12"}, ("nccl", "NCCL", "pncclA")),
    "nvtx": ({"cu13": "nvidia-nvtx", "cu12": "nvidia-nvtx-cu12"}, ("nvtx", "NVTX")),
    "cccl": ({"cu13": "nvidia-cuda-cccl", "cu12": "nvidia-cuda-cccl-cu12"}, ("CUB_", "THRUST_", "_CCCL", "LIBCUDACXX")),
    # cuFile (GPUDirect Storage): 1.20 with CUDA 13, 1.14 with CUDA 12.9
    "cufile": ({"cu13": "nvidia-cufile", "cu12": "nvidia-cufile-cu12"},
               ("cuFile", "CUfile", "CUFile", "CU_FILE", "CUFILE", "cufile", "IS_CUFILE_ERR", "IS_CUDA_ERR", "CUDA_DRV_ERR")),
    # cuTENSOR: cu13 = 2.8 (the same headers ship for CUDA 12); cu11 is pinned to 1.7.0, the last
    # cuTENSOR 1.x, whose API cuTENSOR 2.0 replaced (names only it declares are "removed")
    "cutensor": ({"cu13": "cutensor-cu13", "cu11": "cutensor-cu11==1.7.0"}, ("cutensor", "CUTENSOR")),
    # cuSPARSELt 0.10 (CUDA 13) and 0.8 (CUDA 12); it also declares cusparseComputeType/CUSPARSE_COMPUTE_*
    "cusparselt": ({"cu13": "nvidia-cusparselt-cu13", "cu12": "nvidia-cusparselt-cu12"},
                   ("cusparseLt", "CUSPARSELT", "cusparseComputeType", "CUSPARSE_COMPUTE_")),
}
#: snapshot -> the CUDA release its headers stand for (cu13: the CUDA 13 major release)
SNAPSHOT_VERSIONS = {"cu13": "13.0", "cu12": "12.9", "cu11": "11.8"}
SNAPSHOT_ORDER = ("cu13", "cu12", "cu11")
#: the CUDA release that removed a name last seen in a snapshot
REMOVED_IN = {"cu12": "13.0", "cu11": "12.0"}

SITE_BINDINGS = "rocm/bindings"
DEBIAN_INCLUDE = Path("/usr/include")
_NVIDIA_BACKEND = re.compile(r"nvidia_detail|nvcc_detail|_nvcc\.h$")
DEBIAN_DIRS = ("hip", "hiprand", "rocrand", "hipsparse", "rocsparse", "rocprim", "hipcub", "rocthrust")

# ---------------------------------------------------------------------------------------------
# Reading names out of C headers (good enough for NVIDIA's regular, macro-light headers)
# ---------------------------------------------------------------------------------------------

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", re.M)
_PP_LINE = re.compile(r"^[ \t]*#[^\n]*(?:\\\n[^\n]*)*", re.M)
_ENUM = re.compile(r"\benum\s+(?:class\s+)?(\w+)?\s*(?::\s*\w+\s*)?\{([^}]*)\}\s*(\w+)?")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_DEPRECATED = re.compile(r"DEPRECATED|\[\[\s*deprecated|__attribute__\s*\(\(\s*deprecated")


def _arity(params: str) -> int:
    """Number of parameters in a declaration's parameter text (``void`` and empty: 0)."""
    params = params.strip()
    if not params or params == "void":
        return 0
    depth, count = 0, 1
    for ch in params:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            count += 1
    return count


def _declared_call(stmt: str, prefixes: tuple[str, ...]) -> tuple[str, int] | None:
    """The function a declaration statement declares - the last depth-0 ``name(...)`` with one of
    *prefixes* (deprecation macros such as ``X_DEPRECATED(alt)`` come first) - and its arity."""
    best = None
    depth = 0
    i = 0
    n = len(stmt)
    while i < n:
        ch = stmt[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and (ch.isalpha() or ch == "_") and (i == 0 or not (stmt[i - 1].isalnum() or stmt[i - 1] == "_")):
            m = _IDENT.match(stmt, i)
            name = m.group(0)
            j = m.end()
            while j < n and stmt[j] in " \t\n":
                j += 1
            if j < n and stmt[j] == "(" and name.startswith(prefixes):
                k, d = j, 0
                while k < n:
                    if stmt[k] == "(":
                        d += 1
                    elif stmt[k] == ")":
                        d -= 1
                        if d == 0:
                            break
                    k += 1
                best = (name, _arity(stmt[j + 1:k]))
                i = k + 1
                continue
            i = m.end()
            continue
        i += 1
    return best


def scan_c_header(text: str, prefixes: tuple[str, ...], arity: dict[str, int] | None = None) -> dict[str, tuple[str, bool]]:
    """Names with one of *prefixes* declared in *text*: name -> (kind, deprecated).  When *arity*
    is given it receives the parameter count of each declared function."""
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    found: dict[str, tuple[str, bool]] = {}

    def add(name: str, kind: str, deprecated: bool = False) -> None:
        if not name or not name.startswith(prefixes):
            return
        old = found.get(name)
        if old is None or (kind != "macro" and old[0] == "macro"):
            found[name] = (kind, deprecated or bool(old and old[1]))
        elif deprecated:
            found[name] = (old[0], True)

    for m in _DEFINE.finditer(text):
        add(m.group(1), "macro")
    code = _PP_LINE.sub("", text)
    for m in _ENUM.finditer(code):
        add(m.group(1) or "", "type")
        add(m.group(3) or "", "type")
        for item in m.group(2).split(","):
            ident = _IDENT.search(item)
            if ident:
                add(ident.group(0), "enumerator", bool(_DEPRECATED.search(item)))
    # statements: everything between ';', '{' and '}'
    for stmt in re.split(r"[;{}]", code):
        dep = bool(_DEPRECATED.search(stmt))
        s = stmt.strip()
        td = re.search(r"\btypedef\b", s)
        if td:
            s = s[td.start():]  # text before it (a macro, an attribute line) is not part of it
            fp = re.search(r"\(\s*\w*\s*\*\s*(\w+)\s*\)\s*\(", s)
            if fp:
                add(fp.group(1), "type", dep)
            else:
                idents = [i for i in _IDENT.findall(s) if i not in ("CUDNN_DEPRECATED",)]
                if idents:
                    add(idents[-1], "type", dep)
            for tag in re.findall(r"\b(?:struct|union|enum)\s+(\w+)", s):
                add(tag, "type")
            continue
        for tag in re.findall(r"\b(?:struct|union|class)\s+(\w+)", s):
            add(tag, "type", dep)
        decl = _declared_call(s, prefixes)
        if decl:
            add(decl[0], "function", dep)
            if arity is not None and decl[0] not in arity:
                arity[decl[0]] = decl[1]
        for c in _CALL.findall(s):
            add(c, "function")
    # a typedef's name after a closing brace:  typedef struct { ... } cufftXtCallbackType;
    # (cuDNN 9 marks its legacy ones:  } cudnnConvolutionFwdAlgoPerf_t CUDNN_DEPRECATED;)
    for m in re.finditer(r"\}\s*(\w+)\s*(?:[A-Z][A-Z0-9_]*DEPRECATED\w*(?:\([^()]*\))?\s*)?;", code):
        add(m.group(1), "type")
    return found


def _wheel_headers(wheel: Path):
    """(path below include/, text) for every header of the wheel; the include folder moved
    between wheel generations (nvidia/cublas/include/, nvidia/cu13/include/)."""
    with zipfile.ZipFile(wheel) as zf:
        for name in sorted(zf.namelist()):
            if "/include/" not in name or name.endswith("/"):
                continue
            rel = name.split("/include/", 1)[1]
            if rel.startswith("cccl/"):
                rel = rel[len("cccl/"):]  # CUDA 13 ships CCCL below include/cccl/ (users add it to -I)
            if rel.endswith((".h", ".hpp", ".cuh")) or (rel.startswith("cuda/std/") and "." not in rel.rsplit("/", 1)[-1]):
                yield rel, zf.read(name).decode("utf-8", "replace")


def _download(package: str, dest: Path) -> Path:
    """*package* may pin a version (``cutensor-cu11==1.7.0``): then exactly that wheel is used."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(dest), package], check=True)
    name, _, version = package.partition("==")
    stem = name.replace("-", "_")
    wheels = sorted(dest.glob(f"{stem}-{version or '*'}-*.whl"))
    if not wheels:
        raise SystemExit(f"pip download {package}: no wheel in {dest}")
    return wheels[-1]


def scan_wheel(wheel: Path, lib: str, arity: dict[str, int] | None = None
               ) -> tuple[dict[str, tuple[str, bool]], list[str], dict[str, str]]:
    """Names declared by the wheel's headers: (name -> (kind, deprecated), headers, name -> header);
    *arity* receives each function's parameter count."""
    prefixes = LIBRARIES[lib][1]
    names: dict[str, tuple[str, bool]] = {}
    where: dict[str, str] = {}
    headers: list[str] = []
    for rel, text in _wheel_headers(wheel):
        if lib == "cccl":
            # CUB/Thrust/libcu++ are C++ templates; we keep the public header paths and the
            # library macros (CUB_*, THRUST_*) - the engine maps namespaces, not member names.
            internal = "/detail/" in rel or "/__" in rel or rel.startswith(("cuda/__", "cuda/std/__"))
            if not internal:
                headers.append(rel)
            if not rel.startswith(("cub/", "thrust/")):
                continue
            for m in _DEFINE.finditer(_COMMENT.sub("", text)):
                if m.group(1).startswith(("CUB_", "THRUST_", "CubDebug", "_CubLog", "__CUB_")) \
                        and not m.group(1).endswith(("_H", "_H_", "_CUH")):
                    names.setdefault(m.group(1), ("macro", False))
                    where.setdefault(m.group(1), rel)
            continue
        headers.append(rel)
        for name, (kind, dep) in scan_c_header(text, prefixes, arity).items():
            where.setdefault(name, rel)
            old = names.get(name)
            if old is None or old[0] == "macro":
                names[name] = (kind, dep or bool(old and old[1]))
            elif dep:
                names[name] = (old[0], True)
        if lib == "cufile":
            # cufile.h declares its status codes through an X-macro, CUFILE_OP(value, name, text),
            # and turns cuFileDriverClose into cuFileDriverClose_v2 with a #define
            body = _COMMENT.sub("", text)
            for m in re.finditer(r"\bCUFILE_OP\(\s*[^,()]*,\s*(\w+)\s*,", body):
                if m.group(1).startswith(prefixes):
                    names.setdefault(m.group(1), ("enumerator", False))
                    where.setdefault(m.group(1), rel)
            for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(cuFile\w+)[ \t]+(cuFile\w+)[ \t]*$", body, re.M):
                names.setdefault(m.group(2), ("function", False))
                where.setdefault(m.group(2), rel)
                if arity is not None and m.group(1) in arity:
                    arity.setdefault(m.group(2), arity[m.group(1)])
        if lib == "cutensor":
            # cuTENSOR 2 spells its data types and compute descriptors as constants
            # (const cutensorDataType_t CUTENSOR_R_32F = ...; extern const ... CUTENSOR_COMPUTE_DESC_32F;)
            for m in re.finditer(r"^[ \t]*(?:CUTENSOR_EXTERN[ \t]+)?const[ \t]+\w+[ \t]+(CUTENSOR_\w+)[ \t]*[=;]",
                                 _COMMENT.sub("", text), re.M):
                names.setdefault(m.group(1), ("enumerator", False))
                where.setdefault(m.group(1), rel)
    return names, headers, where


def extract_fp8(cuda_include: Path = Path("/usr/local/cuda/include")) -> None:
    """cuda_fp8.h ships with the toolkit (CUDA 13.0 on this image), not in a wheel."""
    names: dict[str, tuple[str, bool]] = {}
    arity: dict[str, int] = {}
    where: dict[str, str] = {}
    for f in ("cuda_fp8.h", "cuda_fp8.hpp", "cuda_fp4.h", "cuda_fp4.hpp"):
        for name, kd in scan_c_header((cuda_include / f).read_text(errors="replace"), ("__nv_", "__NV_"), arity).items():
            low = name.lower()
            if any(k in low for k in ("fp8", "e4m3", "e5m2", "e8m0", "satfinite", "nosat", "saturation", "fp4", "e2m1")):
                names.setdefault(name, kd)
                where.setdefault(name, f.replace(".hpp", ".h"))
    lines = ["# fp8: names declared in the CUDA 13.0 toolkit's cuda_fp8.h/.hpp and cuda_fp4.h/.hpp"
             " (/usr/local/cuda/include)",
             "# columns: name, kind, snapshots, deprecated-in, header, parameter count;"
             " generated by tools/gen_library_rules.py extract"]
    lines += [f"{h}\theader\tcu13\t-\t{h}\t-" for h in ("cuda_fp4.h", "cuda_fp4.hpp", "cuda_fp8.h", "cuda_fp8.hpp")]
    lines += [f"{n}\t{k}\tcu13\t{'cu13' if d else '-'}\t{where[n]}\t{arity.get(n, '-') if k == 'function' else '-'}"
              for n, (k, d) in sorted(names.items())]
    (DATA / "fp8.txt").write_text("\n".join(lines) + "\n")
    print(f"fp8: {len(names)} names")


def cmd_extract(keep: Path | None = None, only: tuple[str, ...] = ()) -> None:
    """Download the wheels (or reuse those in *keep*) and write tools/data/libraries/<lib>.txt."""
    DATA.mkdir(parents=True, exist_ok=True)
    if not only or "fp8" in only:
        extract_fp8()
    with tempfile.TemporaryDirectory() as tmp:
        where = keep or Path(tmp)
        for lib, (wheels, _) in LIBRARIES.items():
            if only and lib not in only:
                continue
            scans = {}
            arities: dict[str, dict[str, int]] = {}
            for snap in SNAPSHOT_ORDER:
                if snap in wheels:
                    wheel = _download(wheels[snap], where)
                    arities[snap] = {}
                    scans[snap] = (wheel.name, *scan_wheel(wheel, lib, arities[snap]))
            newest = next(iter(scans))
            lines = [
                f"# {lib}: names declared by the headers of "
                + ", ".join(f"{w} ({snap} = CUDA {SNAPSHOT_VERSIONS[snap]})" for snap, (w, *_r) in scans.items()),
                "# columns: name, kind, snapshots declaring it, snapshots marking it deprecated, declaring header,",
                "# parameter count (functions, newest snapshot; - otherwise); generated by tools/gen_library_rules.py extract",
            ]
            for h in sorted(scans[newest][2]):
                lines.append(f"{h}\theader\t{newest}\t-\t{h}\t-")
            every = sorted(set().union(*(sc[1] for sc in scans.values())))
            for name in every:
                have = [snap for snap in scans if name in scans[snap][1]]
                kind = scans[have[0]][1][name][0]
                deps = ",".join(snap for snap in reversed(have) if scans[snap][1][name][1]) or "-"
                header = scans[have[0]][3][name]
                ar = arities[have[0]].get(name, "-") if kind == "function" else "-"
                lines.append(f"{name}\t{kind}\t{','.join(have)}\t{deps}\t{header}\t{ar}")
            (DATA / f"{lib}.txt").write_text("\n".join(lines) + "\n")
            print(f"{lib}: " + ", ".join(f"{len(sc[1])} names ({snap})" for snap, sc in scans.items()))


# ---------------------------------------------------------------------------------------------
# Reading the lists back, and AMD's declarations
# ---------------------------------------------------------------------------------------------


class CudaName:
    """One line of an extracted list; ``newest`` is the newest snapshot of its library."""

    __slots__ = ("name", "kind", "snapshots", "deprecated_in", "header", "arity", "newest")

    def __init__(self, name, kind, snapshots, deprecated_in, header, arity=None, newest="cu13"):
        self.name, self.kind, self.snapshots, self.deprecated_in = name, kind, snapshots, deprecated_in
        self.header, self.arity, self.newest = header, arity, newest

    @property
    def removed(self) -> bool:
        """Gone from the newest snapshot of its library (cuDNN/NCCL/fp8 have one snapshot)."""
        return self.snapshots[0] != self.newest

    @property
    def removed_in(self) -> str:
        return REMOVED_IN.get(self.snapshots[0], "") if self.removed else ""


def read_cuda_names(lib: str) -> dict[str, CudaName]:
    """The extracted list for *lib* (headers included, kind 'header')."""
    out: dict[str, CudaName] = {}
    for line in (DATA / f"{lib}.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        name, kind, snaps, deps, header, arity = line.split("\t")
        out[name] = CudaName(name, kind, tuple(snaps.split(",")), () if deps == "-" else tuple(deps.split(",")), header,
                             None if arity == "-" else int(arity))
    newest = min((cn.snapshots[0] for cn in out.values()), key=SNAPSHOT_ORDER.index)
    for cn in out.values():
        cn.newest = newest
    return out


_PXD_COMMENT = re.compile(r"#[^\n]*")
_AMD_PREFIX = re.compile(  # (and hipSPARSE's csric02Info_t & co. and hipRAND's mtgp32_kernel_params_t, which keep NVIDIA's names)
    r"\b((?:hip|HIP|roc|ROC|rccl|RCCL|nccl|NCCL|pnccl|miopen|MIOPEN|__hip|__HIP|_hip|_roc)\w*|[a-z]\w*Info(?:_t)?\b|mtgp32_kernel_params_t\b)"
)


def _bindings_dir() -> Path | None:
    for entry in sys.path:
        cand = Path(entry or ".") / SITE_BINDINGS
        if (cand / "cyhipblas.pxd").is_file():
            return cand
    return None


@functools.lru_cache(maxsize=None)
def amd_declarations() -> dict[str, frozenset[str]]:
    """AMD-declared identifiers, by source: 'bindings:<module>' and 'debian:<dir>'.

    The Cython ``cy*.pxd`` files of rocm-bindings-libraries are pure declarations, so every
    identifier on a non-comment line is declared by AMD's headers (or used in one, which is as
    good for our purpose: it exists).  Debian's headers are scanned the same way, comments removed.
    """
    out: dict[str, set[str]] = {}
    bindings = _bindings_dir()
    if bindings is not None:
        for pxd in sorted(bindings.glob("cy*.pxd")):
            text = _PXD_COMMENT.sub("", pxd.read_text(encoding="utf-8", errors="replace"))
            out[f"bindings:{pxd.stem[2:]}"] = frozenset(_AMD_PREFIX.findall(text))
    for d in DEBIAN_DIRS:
        base = DEBIAN_INCLUDE / d
        if not base.is_dir():
            continue
        names: set[str] = set()
        for f in base.rglob("*"):
            # the NVIDIA-platform wrappers (hiprand_kernel_nvcc.h, hip/nvidia_detail) spell HIP names
            # over CUDA's own, which the AMD platform may lack (hiprandStateSobol64_t)
            if f.suffix in (".h", ".hpp") and f.is_file() and not _NVIDIA_BACKEND.search(str(f.relative_to(base))):
                names.update(_AMD_PREFIX.findall(_COMMENT.sub("", f.read_text(encoding="utf-8", errors="replace"))))
        out[f"debian:{d}"] = frozenset(names)
    return out


_CDEF_FUNC = re.compile(r"^cdef [\w *]+?\b(\w+)\(", re.M)


@functools.lru_cache(maxsize=None)
def amd_doc_deprecations(module: str) -> dict[str, tuple[str, str, str]]:
    """Deprecations AMD documents in a binding's doc comments: name -> (who, deprecated, removed).

    hipSPARSE documents, per function, when the *CUDA* counterpart was deprecated and removed
    ("deprecated when using the CUDA backend (CUDA 11.0+) and will be removed in CUDA 12.0") -
    exact versions that our two header snapshots can only bound - and which functions hipSPARSE
    itself deprecates ("deprecated and will be removed in a future release": who = "hip").
    """
    bindings = _bindings_dir()
    pxd = bindings / f"cy{module}.pxd" if bindings else None
    if pxd is None or not pxd.is_file():
        return {}
    text = pxd.read_text(encoding="utf-8", errors="replace")
    out: dict[str, tuple[str, str, str]] = {}
    last = 0
    for m in _CDEF_FUNC.finditer(text):
        doc = text[last:m.start()]
        last = m.end()
        if "deprecated" not in doc:
            continue
        doc = " ".join(line.lstrip("# ").strip() for line in doc.splitlines())
        cuda = re.search(r"deprecated when using the CUDA backend \(CUDA ([\d.]+)\+\) and will be removed in CUDA ([\d.]+)", doc)
        if cuda:
            out[m.group(1)] = ("cuda", cuda.group(1), cuda.group(2).rstrip("."))
        elif re.search(r"\\deprecated\s+This function is deprecated and will be removed in a future release", doc):
            out[m.group(1)] = ("hip", "", "")
    return out


_PXD_SIGNATURE = re.compile(r"^cdef [\w *]+?\b(\w+)\((.*)\)\s*(?:except|noexcept|nogil)", re.M)


@functools.lru_cache(maxsize=None)
def amd_arity() -> dict[str, int]:
    """Parameter counts of AMD's functions: the bindings' one-line signatures and Debian's
    hipRAND/rocRAND/hipSPARSE/rocSPARSE headers.  Used to keep a target only where the call
    can be renamed as it stands."""
    out: dict[str, int] = {}
    bindings = _bindings_dir()
    if bindings is not None:
        for pxd in sorted(bindings.glob("cy*.pxd")):
            for m in _PXD_SIGNATURE.finditer(pxd.read_text(encoding="utf-8", errors="replace")):
                out.setdefault(m.group(1), _arity(m.group(2)))
    for d in ("hiprand", "rocrand", "hipsparse", "rocsparse"):
        base = DEBIAN_INCLUDE / d
        if base.is_dir():
            for f in sorted(base.rglob("*.h")):
                found: dict[str, int] = {}
                scan_c_header(f.read_text(encoding="utf-8", errors="replace"), ("hip", "roc"), found)
                for k, v in found.items():
                    out.setdefault(k, v)
    return out


@functools.lru_cache(maxsize=None)
def _cuda_lists() -> tuple[dict[str, CudaName], ...]:
    """Every library's extracted CUDA names, read once for the cross-library checks below."""
    return tuple(read_cuda_names(lib) for lib in LIBRARIES if (DATA / f"{lib}.txt").exists())


@functools.lru_cache(maxsize=None)
def _all_cuda_names() -> frozenset[str]:
    return frozenset().union(*_cuda_lists())


@functools.lru_cache(maxsize=None)
def _cuda_arity() -> dict[str, int]:
    out: dict[str, int] = {}
    for names in _cuda_lists():
        for name, cn in names.items():
            if cn.arity is not None:
                out.setdefault(name, cn.arity)
    return out


#: rule files whose CUDA names older code (``#if CUDA_VERSION < 11000``) still uses beyond our oldest
#: header snapshot (CUDA 11.8): cuSPARSE's HYB format and the like; cuSPARSELt 0.x's compute types
#: and cuBLASLt's pre-11 layout struct
_PRE_SNAPSHOT_FAMILIES = {"cusparse": ("cusparse", "CUSPARSE_"), "cublas": ("cublas", "CUBLAS_"),
                          "cusparselt": ("CUSPARSE_COMPUTE_",), "cublaslt": ("cublasLt",)}
#: prefixes of the families above that belong to another family's rule file
_PRE_SNAPSHOT_ELSEWHERE = {"cusparse": ("cusparseLt", "CUSPARSE_COMPUTE_"), "cublas": ("cublasLt",)}


def _removed_before_oldest_snapshot(stem: str, rules: dict[str, dict]) -> dict[str, dict]:
    """Names CUDA removed before 11.8 that hipify-clang maps to a target AMD declares: kept as
    removed rules, so old code under ``#if CUDA_VERSION < 11000`` still translates."""
    prefixes = _PRE_SNAPSHOT_FAMILIES.get(stem)
    if prefixes is None:
        return {}
    amd, known, arity = _all_amd_names(), set(rules) | _all_cuda_names(), amd_arity()
    table = hipify_names.table()
    out: dict[str, dict] = {}
    for (name, which), (target, _gate) in sorted(table.items()):
        if name in known or not name.startswith(prefixes) or target not in amd:
            continue
        if name.startswith(_PRE_SNAPSHOT_ELSEWHERE.get(stem, ())):
            continue
        kind = "enumerator" if name.isupper() else "function" if target in arity else "type"
        entry = out.setdefault(name, {"kind": kind, "status": "removed"})
        if which in ("hip", "hip_type"):
            entry["hip"] = target
        elif which == "roc":
            entry["roc"] = target
    for name, entry in list(out.items()):
        hip = entry.get("hip")
        if hip is None:
            # only a --roc test names it (cuSPARSE's pre-11 legacy API): hipSPARSE still declares
            # the mechanical name where it kept the function
            guess = re.sub(r"^cu(sparse|blas)", r"hip\1", name)
            hip = entry["hip"] = guess if guess in amd and guess != name else None
            if hip is None:
                del entry["hip"]
        roc = entry.get("roc")
        if roc and entry["kind"] == "function" and (hip is None or arity.get(roc) != arity.get(hip)):
            del entry["roc"]  # the call would need its arguments rewritten: not known for these
        if not entry.get("hip") and not entry.get("roc"):
            del out[name]
            continue
        held = " and ".join(t for t in (entry.get("hip"), entry.get("roc")) if t)
        removed = "cuSPARSELt 0.x" if stem == "cusparselt" else "CUDA before 11.8"
        entry["note"] = f"removed from {removed}; AMD still declares {held} (hipify-clang's mapping)"
    return out


#: hipBLAS 2.x (ROCm 6) declares its hipComplex API as hipblasXxx_v2 (the default with HIPBLAS_V2);
#: hipBLAS 3 (ROCm 7) gave those signatures the plain names.  hipify-clang writes the _v2 names.
HIPBLAS_V2 = re.compile(r"(hipblas\w+)_v2(_64)?")


def hipblas_v2_base(name: str) -> str | None:
    """hipblasCaxpy_v2 -> hipblasCaxpy, hipblasCaxpy_v2_64 -> hipblasCaxpy_64; None otherwise."""
    m = HIPBLAS_V2.fullmatch(name)
    return m.group(1) + (m.group(2) or "") if m else None


def _declared_or_hipblas_v2(name: str) -> bool:
    amd = _all_amd_names()
    return name in amd or hipblas_v2_base(name) in amd


def _hipblas_v2_like_the_64_bit_form(rules: dict[str, dict]) -> None:
    """hipBLAS 2.x spells its hipComplex API hipblasXxx_v2 (and hipblasXxx_v2_64); hipify-clang's
    tests show the _64 form of some functions only, so the 32-bit form follows it."""
    for name, entry in rules.items():
        hip = entry.get("hip", "")
        wide = rules.get(name + "_64", {}).get("hip", "")
        if hip and not hip.endswith("_v2") and wide == hip + "_v2_64" and _declared_or_hipblas_v2(hip + "_v2"):
            entry["hip"] = hip + "_v2"
            entry["note"] = f"hipify-clang's spelling; AMD also declares {hip}"


def _translator_completes(cuda: str, arity: int, target_arity: int) -> bool:
    """The translator appends the arguments HIP's function has beyond CUDA's (passes/calls.py)."""
    from hipport.cxx.passes.calls import COMPLETIONS

    completion = COMPLETIONS.get(cuda, {}).get(arity)
    return completion is not None and arity + completion.count(b",") == target_arity


def _same_arity(cuda: str, target: str) -> bool:
    """False where both parameter counts are known and differ (cuBLAS v1 names aside)."""
    theirs, ours = _cuda_arity().get(cuda), amd_arity().get(target)
    return theirs is None or ours is None or theirs == ours or f"{cuda}_v2" in _cuda_arity()


@functools.lru_cache(maxsize=None)
def _all_amd_names() -> frozenset[str]:
    return frozenset().union(*amd_declarations().values())


@functools.lru_cache(maxsize=None)
def amd_headers() -> frozenset[str]:
    """Header paths AMD ships: the ``cdef extern from "..."`` lines and Debian's files."""
    found: set[str] = set()
    bindings = _bindings_dir()
    if bindings is not None:
        for pxd in bindings.glob("cy*.pxd"):
            found.update(re.findall(r'cdef extern from "([^"]+)"', pxd.read_text(errors="replace")))
    for d in DEBIAN_DIRS:
        base = DEBIAN_INCLUDE / d
        if base.is_dir():
            found.update(str(f.relative_to(DEBIAN_INCLUDE)) for f in base.rglob("*") if f.is_file())
    # a flat spelling names the same file once include/<lib> is on the include path
    found.update(flat for flat, nested in FLAT_HEADERS.items() if nested in found)
    return frozenset(found)


#: Targets that no local declaration can confirm, with the reason they are trusted.
#: lib -> {target name: reason}; filled by the curated tables below, read by the tests.
UNVERIFIABLE_REASON = {
    "rocrand_newer": "rocRAND names newer than Debian's rocRAND 5.2 (rocm-bindings-libraries has no rocRAND): "
    "hipify-clang's cuRAND->rocRAND targets",
    "rocblas": "rocBLAS declarations are not available on this image (not in rocm-bindings-libraries "
    "nor Debian); conventional rocblas_<precision><routine> names, cross-checked against "
    "hipify-clang's documented cuBLAS→rocBLAS table",
    "rocsolver": "rocSOLVER declarations are not available on this image; names cross-checked "
    "against hipify-clang's documented cuSOLVER→rocSOLVER table",
    "rocfft": "rocFFT header path only; hipify-clang maps cuFFT to hipFFT",
    "miopen": "MIOpen declarations are not available on this image; names checked against "
    "MIOpen's public miopen.h and hipify-clang's cuDNN→MIOpen table",
    "hipcub": "hipCUB headers are not packaged by Debian nor rocm-bindings; names from hipCUB's "
    "util_macro/util_type headers as documented by hipify-clang's CUB table",
    "rocthrust": "rocThrust keeps Thrust's header paths; the hip system headers are rocThrust's "
    "thrust/system/hip/*",
    "hipfp8": "HIP's <hip/hip_fp8.h> (ROCm >= 6.2) and <hip/hip_fp4.h> (ROCm >= 7.0) are newer than "
    "Debian's HIP 5.2 headers; names from amd_hip_fp8.h / amd_hip_fp4.h as documented by ROCm",
    "hipcxx": "libhipcxx is not packaged here",
    "hipblas_v2": "hipBLAS 2.x (ROCm 6) declares the hipComplex API as hipblasXxx_v2, which hipify-clang "
    "writes; rocm-bindings-libraries binds hipBLAS 3, where those signatures carry the plain names",
    "hipfftw": "hipFFTW (hipfft/hipfftw.h, ROCm >= 6.4) keeps FFTW's own names; neither Debian's HIP "
    "nor rocm-bindings-libraries ships the header",
    "rccl": "RCCL's rccl.h keeps NCCL's macros; the Cython bindings declare no macros, and "
    "rccl.h itself is not packaged by Debian",
    "hipfile": "hipFile's hipfile.h defines these macros (IS_HIPFILE_ERR, HIPFILE_ERRSTR, HIP_DRV_ERR, "
    "HIPFILE_RDMA_*, HIPFILE_STREAM_*); the Cython bindings declare no macros - names checked against "
    "ROCm/hipFile's public include/hipfile.h",
}
#: header targets newer than anything this image ships, trusted for the reason given above
UNVERIFIABLE_HEADERS = {"hip/hip_fp8.h": "hipfp8", "hip/hip_fp4.h": "hipfp8", "hipfft/hipfftw.h": "hipfftw"}
#: NCCL macros RCCL's rccl.h defines under the same name (the bindings cannot show macros).
RCCL_MACROS = frozenset({"NCCL_VERSION", "NCCL_CONFIG_INITIALIZER", "NCCL_CONFIG_UNDEF_INT", "NCCL_CONFIG_UNDEF_PTR"})



# ---------------------------------------------------------------------------------------------
# Candidate derivation
# ---------------------------------------------------------------------------------------------


def snake(camel: str) -> str:
    """``CreateGenerator`` -> ``create_generator``; ``SpMV`` -> ``spmv``; ``Csr2cscEx2`` -> ``csr2csc_ex2``."""
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", camel)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    s = s.lower()
    for a, b in (("sp_mv", "spmv"), ("sp_mm", "spmm"), ("sp_gemm", "spgemm"), ("sp_sv", "spsv"), ("sp_sm", "spsm"),
                 ("dn_vec", "dnvec"), ("dn_mat", "dnmat"), ("sp_vec", "spvec"), ("sp_mat", "spmat"), ("sd_dmm", "sddmm")):
        s = s.replace(a, b)
    return s


# Curated --roc / --miopen / fixed targets that no systematic rule derives.  Each target here is
# still checked by the tests (against declarations, or against UNVERIFIABLE with its reason).
ROCBLAS_SPECIAL = {
    "cublasCreate": "rocblas_create_handle", "cublasCreate_v2": "rocblas_create_handle",
    "cublasDestroy": "rocblas_destroy_handle", "cublasDestroy_v2": "rocblas_destroy_handle",
    "cublasSetStream": "rocblas_set_stream", "cublasSetStream_v2": "rocblas_set_stream",
    "cublasGetStream": "rocblas_get_stream", "cublasGetStream_v2": "rocblas_get_stream",
    "cublasSetPointerMode": "rocblas_set_pointer_mode", "cublasSetPointerMode_v2": "rocblas_set_pointer_mode",
    "cublasGetPointerMode": "rocblas_get_pointer_mode", "cublasGetPointerMode_v2": "rocblas_get_pointer_mode",
    "cublasHandle_t": "rocblas_handle", "cublasStatus_t": "rocblas_status", "cublasStatus": "rocblas_status",
    "cublasOperation_t": "rocblas_operation", "cublasFillMode_t": "rocblas_fill",
    "cublasDiagType_t": "rocblas_diagonal", "cublasSideMode_t": "rocblas_side",
    "cublasPointerMode_t": "rocblas_pointer_mode", "cublasAtomicsMode_t": "rocblas_atomics_mode",
    "cublasDataType_t": "rocblas_datatype",
    "CUBLAS_OP_N": "rocblas_operation_none", "CUBLAS_OP_T": "rocblas_operation_transpose",
    "CUBLAS_OP_C": "rocblas_operation_conjugate_transpose",
    "CUBLAS_FILL_MODE_LOWER": "rocblas_fill_lower", "CUBLAS_FILL_MODE_UPPER": "rocblas_fill_upper",
    "CUBLAS_FILL_MODE_FULL": "rocblas_fill_full",
    "CUBLAS_DIAG_NON_UNIT": "rocblas_diagonal_non_unit", "CUBLAS_DIAG_UNIT": "rocblas_diagonal_unit",
    "CUBLAS_SIDE_LEFT": "rocblas_side_left", "CUBLAS_SIDE_RIGHT": "rocblas_side_right",
    "CUBLAS_POINTER_MODE_HOST": "rocblas_pointer_mode_host", "CUBLAS_POINTER_MODE_DEVICE": "rocblas_pointer_mode_device",
    "CUBLAS_ATOMICS_NOT_ALLOWED": "rocblas_atomics_not_allowed", "CUBLAS_ATOMICS_ALLOWED": "rocblas_atomics_allowed",
    "CUBLAS_STATUS_SUCCESS": "rocblas_status_success", "CUBLAS_STATUS_NOT_INITIALIZED": "rocblas_status_invalid_handle",
    # hipify-clang: rocblas_status_memory_error stands for EXECUTION_FAILED, and ALLOC_FAILED has no twin
    "CUBLAS_STATUS_ALLOC_FAILED": "rocblas_status_not_implemented", "CUBLAS_STATUS_INVALID_VALUE": "rocblas_status_invalid_value",
    "CUBLAS_STATUS_MAPPING_ERROR": "rocblas_status_invalid_size", "CUBLAS_STATUS_EXECUTION_FAILED": "rocblas_status_memory_error",
    "CUBLAS_STATUS_INTERNAL_ERROR": "rocblas_status_internal_error", "CUBLAS_STATUS_NOT_SUPPORTED": "rocblas_status_perf_degraded",
    "CUBLAS_STATUS_ARCH_MISMATCH": "rocblas_status_arch_mismatch",
    "cublasSetVector": "rocblas_set_vector", "cublasGetVector": "rocblas_get_vector",
    "cublasSetMatrix": "rocblas_set_matrix", "cublasGetMatrix": "rocblas_get_matrix",
    "cublasSetVectorAsync": "rocblas_set_vector_async", "cublasGetVectorAsync": "rocblas_get_vector_async",
    "cublasSetMatrixAsync": "rocblas_set_matrix_async", "cublasGetMatrixAsync": "rocblas_get_matrix_async",
}
#: cuBLAS names whose HIP name is not the systematic one (the target is still checked).
HIPBLAS_ALIASES = {
    "cublasGetStatusString": "hipblasStatusToString",
    "cublasDataType_t": "hipDataType",  # typedef cudaDataType cublasDataType_t
    "CUBLAS_GEMM_DFALT": "HIPBLAS_GEMM_DEFAULT",
    # deprecated since cuBLAS 11: "behaves like CUBLAS_GEMM_DEFAULT" per NVIDIA's documentation
    "CUBLAS_GEMM_DEFAULT_TENSOR_OP": "HIPBLAS_GEMM_DEFAULT",
    "CUBLAS_GEMM_DFALT_TENSOR_OP": "HIPBLAS_GEMM_DEFAULT",
}
HIPBLAS_NOTES = {
    "cublasInit": "legacy cuBLAS v1 API: create a handle with hipblasCreate instead",
    "cublasShutdown": "legacy cuBLAS v1 API: destroy the handle with hipblasDestroy instead",
    "cublasAlloc": "legacy cuBLAS v1 API: use hipMalloc", "cublasFree": "legacy cuBLAS v1 API: use hipFree",
    "cublasGetError": "legacy cuBLAS v1 API: hipBLAS calls return hipblasStatus_t directly",
    "cublasSetKernelStream": "legacy cuBLAS v1 API: closest: hipblasSetStream(handle, stream)",
    "cublasSgemmEx": "closest: hipblasGemmEx with HIP_R_32F compute", "cublasCgemmEx": "closest: hipblasGemmEx",
    "cublasGetStatusName": "closest: hipblasStatusToString",
    "CUBLAS_VERSION": "hipBLAS: hipblasVersionMajor/Minor/Patch (hipblas-version.h)",
    "CUBLAS_VER_MAJOR": "hipBLAS: hipblasVersionMajor", "CUBLAS_VER_MINOR": "hipBLAS: hipblasVersionMinor",
    "CUBLAS_VER_PATCH": "hipBLAS: hipblasVersionPatch",
}
#: hipSOLVER's own (non-compat) names where hipify-clang uses them too.
HIPSOLVER_ALIASES = {
    "cusolverDnHandle_t": "hipsolverHandle_t", "cusolverDnSetStream": "hipsolverSetStream",
    "cusolverDnGetStream": "hipsolverGetStream", "syevjInfo_t": "hipsolverSyevjInfo_t",
    "gesvdjInfo_t": "hipsolverGesvdjInfo_t",
}
#: classic BLAS routines whose rocBLAS name is rocblas_<precision><routine> (lower case)
ROCBLAS_ROUTINES = (
    "nrm2", "dot", "dotu", "dotc", "scal", "axpy", "copy", "swap", "asum", "amax", "amin", "rot", "rotg",
    "rotm", "rotmg", "gemv", "gbmv", "ger", "geru", "gerc", "syr", "syr2", "her", "her2", "hemv", "symv",
    "trmv", "trsv", "tbmv", "tbsv", "tpmv", "tpsv", "spmv", "spr", "spr2", "hpmv", "hpr", "hpr2", "sbmv", "hbmv",
    "gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "syrkx", "herkx", "trmm", "trsm", "geam", "dgmm",
    "gemmStridedBatched", "gemmBatched", "trsmBatched", "gemvBatched", "gemvStridedBatched",
)
ROCSOLVER_ROUTINES = ("getrf", "getrs", "potrf", "potrs", "geqrf", "orgqr", "ormqr", "gesvd", "syevd", "gebrd", "sytrd", "getri")
ROCRAND_SPECIAL = {
    "curandSetPseudoRandomGeneratorSeed": "rocrand_set_seed",
    "curandSetGeneratorOffset": "rocrand_set_offset",
    "curandSetQuasiRandomGeneratorDimensions": "rocrand_set_quasi_random_generator_dimensions",
    "curandGenerator_t": "rocrand_generator", "curandStatus_t": "rocrand_status", "curandStatus": "rocrand_status",
    "curandRngType_t": "rocrand_rng_type", "curandRngType": "rocrand_rng_type",
    "curandDiscreteDistribution_t": "rocrand_discrete_distribution",
    "curandState": "rocrand_state_xorwow", "curandState_t": "rocrand_state_xorwow",
    "curandStateXORWOW": "rocrand_state_xorwow", "curandStateXORWOW_t": "rocrand_state_xorwow",
    "curandStatePhilox4_32_10_t": "rocrand_state_philox4x32_10", "curandStateMRG32k3a_t": "rocrand_state_mrg32k3a",
    "curandStateMtgp32_t": "rocrand_state_mtgp32", "curandStateSobol32_t": "rocrand_state_sobol32",
    "curandStateSobol64_t": "rocrand_state_sobol64",
    "curandMakeMTGP32KernelState": "rocrand_make_state_mtgp32",
    "curand": "rocrand", "curand4": "rocrand4",
    # the struct tags name rocRAND's engine classes (the _t typedefs name its state typedefs),
    # as hipify-clang writes them
    "curandStateSobol64": "rocrand_device::sobol64_engine<false>",
    "curandStateScrambledSobol64": "rocrand_device::scrambled_sobol64_engine<false>",
    "curandStateSobol32": "rocrand_device::sobol32_engine<false>",
    "curandStateScrambledSobol32": "rocrand_device::scrambled_sobol32_engine<false>",
    "curandStateMtgp32": "rocrand_device::mtgp32_engine",
    "curandStateMRG32k3a": "rocrand_device::mrg32k3a_engine",
    "curandStatePhilox4_32_10": "rocrand_device::philox4x32_10_engine",
    "curandGenerator_st": "rocrand_generator_base_type",
    "curandGenerateSeeds": "rocrand_initialize_generator",
    "curandDestroyDistribution": "rocrand_destroy_discrete_distribution",
    **{cuda: roc for cuda, roc in (
        ("curandStateScrambledSobol64_t", "rocrand_state_scrambled_sobol64"),
        ("curandStateScrambledSobol32_t", "rocrand_state_scrambled_sobol32"),
        ("curandDirectionVectorSet", "rocrand_direction_vector_set"),
        ("curandDirectionVectorSet_t", "rocrand_direction_vector_set"),
        ("curandCreateGeneratorHost", "rocrand_create_generator_host_blocking"),
        ("curandGenerateLongLong", "rocrand_generate_long_long"),
        ("curandGetScrambleConstants32", "rocrand_get_scramble_constants32"),
        ("curandGetScrambleConstants64", "rocrand_get_scramble_constants64"),
        ("curandSetGeneratorOrdering", "rocrand_set_ordering"),
    )},
    **{f"CURAND_{v}": f"ROCRAND_{v}" for v in (
        "DIRECTION_VECTORS_32_JOEKUO6", "SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6",
        "DIRECTION_VECTORS_64_JOEKUO6", "SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6")},
}
#: rocRAND names newer than Debian's rocRAND 5.2 (so not checkable here): hipify-clang's targets
ROCRAND_NEWER = frozenset({
    "rocrand_state_scrambled_sobol64", "rocrand_state_scrambled_sobol32", "rocrand_direction_vector_set",
    "rocrand_create_generator_host_blocking", "rocrand_generate_long_long", "rocrand_get_scramble_constants32",
    "rocrand_get_scramble_constants64", "rocrand_set_ordering", "rocrand_device::scrambled_sobol64_engine<false>",
    "rocrand_device::scrambled_sobol32_engine<false>", "ROCRAND_DIRECTION_VECTORS_32_JOEKUO6",
    "ROCRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6", "ROCRAND_DIRECTION_VECTORS_64_JOEKUO6",
    "ROCRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6",
})
ROCSPARSE_SPECIAL = {
    "cusparseCreate": "rocsparse_create_handle", "cusparseDestroy": "rocsparse_destroy_handle",
    "cusparseCreateBlockedEll": "rocsparse_create_bell_descr", "cusparseBlockedEllGet": "rocsparse_bell_get",
    # the size_t* (Ext) forms: rocSPARSE's buffer-size query takes a size_t* too
    **{f"cusparse{t}csrilu02_bufferSizeExt": f"rocsparse_{t.lower()}csrilu0_buffer_size" for t in "SDCZ"},
    "cusparseHandle_t": "rocsparse_handle", "cusparseStatus_t": "rocsparse_status",
    "cusparseMatDescr_t": "rocsparse_mat_descr", "cusparseSpMatDescr_t": "rocsparse_spmat_descr",
    "cusparseDnVecDescr_t": "rocsparse_dnvec_descr", "cusparseDnMatDescr_t": "rocsparse_dnmat_descr",
    "cusparseSpVecDescr_t": "rocsparse_spvec_descr", "cusparseConstSpMatDescr_t": "rocsparse_const_spmat_descr",
    "cusparseConstDnVecDescr_t": "rocsparse_const_dnvec_descr", "cusparseConstDnMatDescr_t": "rocsparse_const_dnmat_descr",
    "cusparseOperation_t": "rocsparse_operation", "cusparseIndexBase_t": "rocsparse_index_base",
    "cusparseIndexType_t": "rocsparse_indextype", "cusparseMatrixType_t": "rocsparse_matrix_type",
    "cusparseFillMode_t": "rocsparse_fill_mode", "cusparseDiagType_t": "rocsparse_diag_type",
    "cusparseAction_t": "rocsparse_action", "cusparseDirection_t": "rocsparse_direction",
    "cusparseOrder_t": "rocsparse_order", "cusparseFormat_t": "rocsparse_format",
    "cusparsePointerMode_t": "rocsparse_pointer_mode", "cusparseSpMVAlg_t": "rocsparse_spmv_alg",
    "cusparseSpMMAlg_t": "rocsparse_spmm_alg",
    "CUSPARSE_OPERATION_NON_TRANSPOSE": "rocsparse_operation_none",
    "CUSPARSE_OPERATION_TRANSPOSE": "rocsparse_operation_transpose",
    "CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE": "rocsparse_operation_conjugate_transpose",
    "CUSPARSE_INDEX_16U": "rocsparse_indextype_u16", "CUSPARSE_INDEX_32I": "rocsparse_indextype_i32",
    "CUSPARSE_INDEX_64I": "rocsparse_indextype_i64",
    "CUSPARSE_INDEX_BASE_ZERO": "rocsparse_index_base_zero", "CUSPARSE_INDEX_BASE_ONE": "rocsparse_index_base_one",
    "CUSPARSE_MATRIX_TYPE_GENERAL": "rocsparse_matrix_type_general",
    "CUSPARSE_MATRIX_TYPE_SYMMETRIC": "rocsparse_matrix_type_symmetric",
    "CUSPARSE_MATRIX_TYPE_HERMITIAN": "rocsparse_matrix_type_hermitian",
    "CUSPARSE_MATRIX_TYPE_TRIANGULAR": "rocsparse_matrix_type_triangular",
    "CUSPARSE_SPMV_ALG_DEFAULT": "rocsparse_spmv_alg_default", "CUSPARSE_SPMM_ALG_DEFAULT": "rocsparse_spmm_alg_default",
    "CUSPARSE_ORDER_COL": "rocsparse_order_column", "CUSPARSE_ORDER_ROW": "rocsparse_order_row",
    "cusparseSpMV_bufferSize": "", "cusparseSpMM_bufferSize": "",
}
#: cuDNN -> MIOpen: only same-shaped calls and values (checked against MIOpen's miopen.h).
MIOPEN = {
    "cudnnHandle_t": "miopenHandle_t", "cudnnStatus_t": "miopenStatus_t",
    "cudnnCreate": "miopenCreate", "cudnnDestroy": "miopenDestroy",
    "cudnnSetStream": "miopenSetStream", "cudnnGetStream": "miopenGetStream",
    "cudnnGetErrorString": "miopenGetErrorString",
    "CUDNN_STATUS_SUCCESS": "miopenStatusSuccess", "CUDNN_STATUS_NOT_INITIALIZED": "miopenStatusNotInitialized",
    "CUDNN_STATUS_ALLOC_FAILED": "miopenStatusAllocFailed", "CUDNN_STATUS_BAD_PARAM": "miopenStatusBadParm",
    "CUDNN_STATUS_INTERNAL_ERROR": "miopenStatusInternalError", "CUDNN_STATUS_INVALID_VALUE": "miopenStatusInvalidValue",
    "CUDNN_STATUS_NOT_SUPPORTED": "miopenStatusUnsupportedOp",
    "cudnnTensorDescriptor_t": "miopenTensorDescriptor_t", "cudnnFilterDescriptor_t": "miopenTensorDescriptor_t",
    "cudnnConvolutionDescriptor_t": "miopenConvolutionDescriptor_t",
    "cudnnPoolingDescriptor_t": "miopenPoolingDescriptor_t", "cudnnLRNDescriptor_t": "miopenLRNDescriptor_t",
    "cudnnActivationDescriptor_t": "miopenActivationDescriptor_t", "cudnnDropoutDescriptor_t": "miopenDropoutDescriptor_t",
    "cudnnReduceTensorDescriptor_t": "miopenReduceTensorDescriptor_t", "cudnnRNNDescriptor_t": "miopenRNNDescriptor_t",
    "cudnnCreateTensorDescriptor": "miopenCreateTensorDescriptor",
    "cudnnDestroyTensorDescriptor": "miopenDestroyTensorDescriptor",
    "cudnnSetTensor4dDescriptorEx": "miopenSet4dTensorDescriptorEx",
    "cudnnGetTensor4dDescriptor": "miopenGet4dTensorDescriptor",
    "cudnnCreateFilterDescriptor": "miopenCreateTensorDescriptor",
    "cudnnDestroyFilterDescriptor": "miopenDestroyTensorDescriptor",
    "cudnnCreateConvolutionDescriptor": "miopenCreateConvolutionDescriptor",
    "cudnnDestroyConvolutionDescriptor": "miopenDestroyConvolutionDescriptor",
    "cudnnSetConvolutionGroupCount": "miopenSetConvolutionGroupCount",
    "cudnnCreatePoolingDescriptor": "miopenCreatePoolingDescriptor",
    "cudnnDestroyPoolingDescriptor": "miopenDestroyPoolingDescriptor",
    "cudnnCreateLRNDescriptor": "miopenCreateLRNDescriptor", "cudnnDestroyLRNDescriptor": "miopenDestroyLRNDescriptor",
    "cudnnCreateActivationDescriptor": "miopenCreateActivationDescriptor",
    "cudnnDestroyActivationDescriptor": "miopenDestroyActivationDescriptor",
    "cudnnCreateDropoutDescriptor": "miopenCreateDropoutDescriptor",
    "cudnnDestroyDropoutDescriptor": "miopenDestroyDropoutDescriptor",
    "cudnnCreateReduceTensorDescriptor": "miopenCreateReduceTensorDescriptor",
    "cudnnDestroyReduceTensorDescriptor": "miopenDestroyReduceTensorDescriptor",
    "cudnnCreateRNNDescriptor": "miopenCreateRNNDescriptor", "cudnnDestroyRNNDescriptor": "miopenDestroyRNNDescriptor",
    "cudnnDeriveBNTensorDescriptor": "miopenDeriveBNTensorDescriptor",
    "cudnnDataType_t": "miopenDataType_t", "CUDNN_DATA_FLOAT": "miopenFloat", "CUDNN_DATA_HALF": "miopenHalf",
    "CUDNN_DATA_INT8": "miopenInt8", "CUDNN_DATA_INT32": "miopenInt32", "CUDNN_DATA_BFLOAT16": "miopenBFloat16",
    "CUDNN_DATA_DOUBLE": "miopenDouble",
    "cudnnBatchNormMode_t": "miopenBatchNormMode_t", "CUDNN_BATCHNORM_PER_ACTIVATION": "miopenBNPerActivation",
    "CUDNN_BATCHNORM_SPATIAL": "miopenBNSpatial",
    "cudnnActivationMode_t": "miopenActivationMode_t", "CUDNN_ACTIVATION_SIGMOID": "miopenActivationLOGISTIC",
    "CUDNN_ACTIVATION_RELU": "miopenActivationRELU", "CUDNN_ACTIVATION_TANH": "miopenActivationTANH",
    "CUDNN_ACTIVATION_CLIPPED_RELU": "miopenActivationCLIPPEDRELU", "CUDNN_ACTIVATION_ELU": "miopenActivationELU",
    "CUDNN_ACTIVATION_IDENTITY": "miopenActivationPASTHRU",
    "cudnnSoftmaxAlgorithm_t": "miopenSoftmaxAlgorithm_t", "CUDNN_SOFTMAX_FAST": "MIOPEN_SOFTMAX_FAST",
    "CUDNN_SOFTMAX_ACCURATE": "MIOPEN_SOFTMAX_ACCURATE", "CUDNN_SOFTMAX_LOG": "MIOPEN_SOFTMAX_LOG",
    "cudnnSoftmaxMode_t": "miopenSoftmaxMode_t", "CUDNN_SOFTMAX_MODE_INSTANCE": "MIOPEN_SOFTMAX_MODE_INSTANCE",
    "CUDNN_SOFTMAX_MODE_CHANNEL": "MIOPEN_SOFTMAX_MODE_CHANNEL",
    "cudnnPoolingMode_t": "miopenPoolingMode_t", "CUDNN_POOLING_MAX": "miopenPoolingMax",
    "CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING": "miopenPoolingAverageInclusive",
    "CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING": "miopenPoolingAverage",
    "cudnnOpTensorOp_t": "miopenTensorOp_t", "CUDNN_OP_TENSOR_ADD": "miopenTensorOpAdd",
    "CUDNN_OP_TENSOR_MUL": "miopenTensorOpMul", "CUDNN_OP_TENSOR_MIN": "miopenTensorOpMin",
    "CUDNN_OP_TENSOR_MAX": "miopenTensorOpMax",
    "cudnnConvolutionMode_t": "miopenConvolutionMode_t", "CUDNN_CONVOLUTION": "miopenConvolution",
    "cudnnLRNMode_t": "miopenLRNMode_t", "CUDNN_LRN_CROSS_CHANNEL_DIM1": "miopenLRNCrossChannel",
    "cudnnRNNMode_t": "miopenRNNMode_t", "CUDNN_RNN_RELU": "miopenRNNRELU", "CUDNN_RNN_TANH": "miopenRNNTANH",
    "CUDNN_LSTM": "miopenLSTM", "CUDNN_GRU": "miopenGRU",
    "cudnnNanPropagation_t": "miopenNanPropagation_t", "CUDNN_NOT_PROPAGATE_NAN": "MIOPEN_NOT_PROPAGATE_NAN",
    "CUDNN_PROPAGATE_NAN": "MIOPEN_PROPAGATE_NAN",
    "cudnnRNNInputMode_t": "miopenRNNInputMode_t", "CUDNN_LINEAR_INPUT": "miopenRNNlinear",
    "CUDNN_SKIP_INPUT": "miopenRNNskip", "cudnnRNNAlgo_t": "miopenRNNAlgo_t", "CUDNN_RNN_ALGO_STANDARD": "miopenRNNdefault",
    "cudnnRNNBiasMode_t": "miopenRNNBiasMode_t", "CUDNN_RNN_NO_BIAS": "miopenRNNNoBias",
    "CUDNN_RNN_SINGLE_INP_BIAS": "miopenRNNwithBias", "CUDNN_RNN_DOUBLE_BIAS": "miopenRNNwithBias",
    "CUDNN_RNN_SINGLE_REC_BIAS": "miopenRNNwithBias",
    "cudnnCTCLossDescriptor_t": "miopenCTCLossDescriptor_t", "CUDNN_DATA_INT8x4": "miopenInt8x4",
    "cudnnReduceTensorOp_t": "miopenReduceTensorOp_t",
    **{f"CUDNN_REDUCE_TENSOR_{op}": f"MIOPEN_REDUCE_TENSOR_{op}"
       for op in ("ADD", "MUL", "MIN", "MAX", "AMAX", "AVG", "NORM1", "NORM2")},
    "cudnnReduceTensorIndices_t": "miopenReduceTensorIndices_t",
    "CUDNN_REDUCE_TENSOR_NO_INDICES": "MIOPEN_REDUCE_TENSOR_NO_INDICES",
    "CUDNN_REDUCE_TENSOR_FLATTENED_INDICES": "MIOPEN_REDUCE_TENSOR_FLATTENED_INDICES",
    "cudnnIndicesType_t": "miopenIndicesType_t",
    **{f"CUDNN_{b}BIT_INDICES": f"MIOPEN_{b}BIT_INDICES" for b in ("32", "64", "16", "8")},
    "cudnnConvolutionFwdAlgo_t": "miopenConvFwdAlgorithm_t",
    "CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM": "miopenConvolutionFwdAlgoImplicitGEMM",
    "CUDNN_CONVOLUTION_FWD_ALGO_GEMM": "miopenConvolutionFwdAlgoGEMM",
    "CUDNN_CONVOLUTION_FWD_ALGO_DIRECT": "miopenConvolutionFwdAlgoDirect",
    "CUDNN_CONVOLUTION_FWD_ALGO_FFT": "miopenConvolutionFwdAlgoFFT",
    "CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD": "miopenConvolutionFwdAlgoWinograd",
    "cudnnConvolutionBwdDataAlgo_t": "miopenConvBwdDataAlgorithm_t",
    "CUDNN_CONVOLUTION_BWD_DATA_ALGO_0": "miopenConvolutionBwdDataAlgoGEMM",
    "CUDNN_CONVOLUTION_BWD_DATA_ALGO_1": "miopenConvolutionBwdDataAlgoDirect",
    "CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT": "miopenConvolutionBwdDataAlgoFFT",
    "CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD": "miopenConvolutionBwdDataAlgoWinograd",
    # perf-result structs: same role, different member names (algo -> fwd_algo/bwd_data_algo)
    "cudnnConvolutionFwdAlgoPerf_t": "miopenConvAlgoPerf_t", "cudnnConvolutionFwdAlgoPerfStruct": "miopenConvAlgoPerf_t",
    "cudnnConvolutionBwdDataAlgoPerf_t": "miopenConvAlgoPerf_t",
    "cudnnConvolutionBwdDataAlgoPerfStruct": "miopenConvAlgoPerf_t",
    # same arguments in the same order
    "cudnnSetTensor": "miopenSetTensor", "cudnnScaleTensor": "miopenScaleTensor",
    "cudnnTransformTensor": "miopenTransformTensor",
    "cudnnGetConvolution2dForwardOutputDim": "miopenGetConvolutionForwardOutputDim",
    "cudnnBatchNormalizationForwardInference": "miopenBatchNormalizationForwardInference",
    "cudnnBatchNormalizationForwardTraining": "miopenBatchNormalizationForwardTraining",
    "cudnnBatchNormalizationBackward": "miopenBatchNormalizationBackward",
    "cudnnConvolutionBackwardBias": "miopenConvolutionBackwardBias",
    "cudnnGetPooling2dForwardOutputDim": "miopenGetPoolingForwardOutputDim",
    "cudnnGetPoolingNdForwardOutputDim": "miopenGetPoolingNdForwardOutputDim",
    "cudnnActivationForward": "miopenActivationForward", "cudnnActivationBackward": "miopenActivationBackward",
    "cudnnConvolutionBiasActivationForward": "miopenConvolutionBiasActivationForward",
    "cudnnDirectionMode_t": "miopenRNNDirectionMode_t", "CUDNN_UNIDIRECTIONAL": "miopenRNNunidirection",
    "CUDNN_BIDIRECTIONAL": "miopenRNNbidirection",
    "cudnnCTCLossAlgo_t": "miopenCTCLossAlgo_t",
    "CUDNN_CTC_LOSS_ALGO_DETERMINISTIC": "MIOPEN_CTC_LOSS_ALGO_DETERMINISTIC",
    "cudnnCreateCTCLossDescriptor": "miopenCreateCTCLossDescriptor",
    "cudnnDestroyCTCLossDescriptor": "miopenDestroyCTCLossDescriptor",
    "cudnnGetCTCLossWorkspaceSize": "miopenGetCTCLossWorkspaceSize", "cudnnCTCLoss": "miopenCTCLoss",
    "cudnnDropoutGetReserveSpaceSize": "miopenDropoutGetReserveSpaceSize",
    "cudnnDropoutGetStatesSize": "miopenDropoutGetStatesSize",
    "cudnnSetReduceTensorDescriptor": "miopenSetReduceTensorDescriptor",
    "cudnnGetReduceTensorDescriptor": "miopenGetReduceTensorDescriptor",
    "cudnnGetReductionIndicesSize": "miopenGetReductionIndicesSize",
    "cudnnGetReductionWorkspaceSize": "miopenGetReductionWorkspaceSize", "cudnnReduceTensor": "miopenReduceTensor",
}
#: cuDNN calls whose MIOpen counterpart takes different arguments: unsupported, named in the note.
# cuDNN's pre-v8 RNN calls, removed in cuDNN 9, whose MIOpen counterparts take the same
# arguments (cudnnRNNBackwardWeights' order differs: hipport/rules/arguments/miopen.toml)
MIOPEN_CUDNN9_REMOVED = {
    "cudnnGetRNNWorkspaceSize": "miopenGetRNNWorkspaceSize",
    "cudnnGetRNNTrainingReserveSize": "miopenGetRNNTrainingReserveSize",
    "cudnnGetRNNParamsSize": "miopenGetRNNParamsSize",
    "cudnnRNNForwardTraining": "miopenRNNForwardTraining",
    "cudnnRNNForwardInference": "miopenRNNForwardInference",
    "cudnnRNNBackwardData": "miopenRNNBackwardData",
    "cudnnRNNBackwardWeights": "miopenRNNBackwardWeights",
}

MIOPEN_DIFFERENT_ARGS = {
    "cudnnSetTensor4dDescriptor": "miopenSet4dTensorDescriptor (no format argument; NCHW only)",
    "cudnnSetTensorNdDescriptor": "miopenSetTensorDescriptor",
    "cudnnSetFilter4dDescriptor": "miopenSet4dTensorDescriptor",
    "cudnnSetConvolution2dDescriptor": "miopenInitConvolutionDescriptor",
    "cudnnConvolutionForward": "miopenConvolutionForward (needs the algorithm from miopenFindConvolutionForwardAlgorithm)",
    "cudnnConvolutionBackwardData": "miopenConvolutionBackwardData",
    "cudnnConvolutionBackwardFilter": "miopenConvolutionBackwardWeights",
    "cudnnFindConvolutionForwardAlgorithm": "miopenFindConvolutionForwardAlgorithm",
    "cudnnGetConvolutionForwardWorkspaceSize": "miopenConvolutionForwardGetWorkSpaceSize (no algo argument)",
    "cudnnGetConvolutionBackwardDataWorkspaceSize": "miopenConvolutionBackwardDataGetWorkSpaceSize (dy/w swapped, no algo)",
    "cudnnFindConvolutionForwardAlgorithmEx": "miopenFindConvolutionForwardAlgorithm (extra exhaustiveSearch argument)",
    "cudnnGetPooling2dDescriptor": "miopenGet2dPoolingDescriptor (no NaN-propagation argument)",
    "cudnnSetPoolingNdDescriptor": "miopenSetNdPoolingDescriptor (no NaN-propagation argument)",
    "cudnnGetPoolingNdDescriptor": "miopenGetNdPoolingDescriptor (no NaN-propagation argument)",
    "cudnnGetLRNDescriptor": "miopenGetLRNDescriptor (extra mode argument)",
    "cudnnSetPooling2dDescriptor": "miopenSet2dPoolingDescriptor (no NaN-propagation argument)",
    "cudnnPoolingForward": "miopenPoolingForward (extra workspace arguments)",
    "cudnnPoolingBackward": "miopenPoolingBackward",
    "cudnnSetActivationDescriptor": "miopenSetActivationDescriptor",
    "cudnnSoftmaxForward": "miopenSoftmaxForward_V2",
    "cudnnSoftmaxBackward": "miopenSoftmaxBackward_V2",
    "cudnnSetLRNDescriptor": "miopenSetLRNDescriptor (extra mode argument: miopenLRNCrossChannel)",
    "cudnnLRNCrossChannelForward": "miopenLRNForward",
    "cudnnOpTensor": "miopenOpTensor",
    "cudnnAddTensor": "miopenOpTensor (miopenTensorOpAdd)",
    "cudnnDropoutForward": "miopenDropoutForward (extra noise_shape descriptor)",
    "cudnnDropoutBackward": "miopenDropoutBackward (extra noise_shape descriptor)",
    "cudnnRestoreDropoutDescriptor": "miopenRestoreDropoutDescriptor (extra use_mask, state_evo, rng_mode arguments)",
    "cudnnGetDropoutDescriptor": "miopenGetDropoutDescriptor (extra use_mask, state_evo, rng_mode out-parameters, "
                                 "which it dereferences)",
    "cudnnGetCTCLossDescriptor": "miopenGetCTCLossDescriptor (extra blank_label_id, apply_softmax_layer out-parameters)",
    "cudnnSetCTCLossDescriptor": "miopenSetCTCLossDescriptor (extra blank_label_id, apply_softmax_layer arguments)",
}
CUB_MACROS = {  # hipCUB keeps these (util_macro.hpp / util_type.hpp / config.hpp)
    "CUB_STDERR": "HIPCUB_STDERR", "CubDebug": "HipcubDebug", "_CubLog": "_HipcubLog",
    "CUB_RUNTIME_FUNCTION": "HIPCUB_RUNTIME_FUNCTION", "CUB_PTX_WARP_THREADS": "HIPCUB_WARP_THREADS",
    "CUB_PTX_ARCH": "HIPCUB_ARCH", "CUB_NAMESPACE_BEGIN": "BEGIN_HIPCUB_NAMESPACE",
    "CUB_NAMESPACE_END": "END_HIPCUB_NAMESPACE", "CUB_MAX": "CUB_MAX", "CUB_MIN": "CUB_MIN",
    "__CUB_ALIGN_BYTES": "__HIPCUB_ALIGN_BYTES",
}
NVTX = {
    "nvtxMarkA": "roctxMarkA", "nvtxRangePushA": "roctxRangePushA", "nvtxRangePop": "roctxRangePop",
    "nvtxRangeStartA": "roctxRangeStartA", "nvtxRangeEnd": "roctxRangeStop", "nvtxRangeId_t": "roctx_range_id_t",
    # nvToolsExt.h's ASCII spellings (`#define nvtxRangePush nvtxRangePushA` without UNICODE)
    "nvtxMark": "roctxMarkA", "nvtxRangePush": "roctxRangePushA", "nvtxRangeStart": "roctxRangeStartA",
}
NVTX_NOTES = {
    "nvtxRangePushEx": "roctxRangePushA (message only: ROCTX has no colours or payloads)",
    "nvtxRangePushW": "roctxRangePushA (ASCII messages only)",
    "nvtxMarkEx": "roctxMarkA (message only)", "nvtxMarkW": "roctxMarkA (ASCII messages only)",
    "nvtxRangeStartEx": "roctxRangeStartA (message only)", "nvtxRangeStartW": "roctxRangeStartA",
    "nvtxDomainRangePushEx": "roctxRangePushA (ROCTX has no domains)",
    "nvtxDomainRangePop": "roctxRangePop (ROCTX has no domains)",
    "nvtxDomainMarkEx": "roctxMarkA (ROCTX has no domains)",
}
FP8_TYPES = {  # OCP FP8 (same encoding as NVIDIA's); the _fnuz types are a different format
    "__nv_fp8_e4m3": "__hip_fp8_e4m3", "__nv_fp8_e5m2": "__hip_fp8_e5m2",
    "__nv_fp8x2_e4m3": "__hip_fp8x2_e4m3", "__nv_fp8x2_e5m2": "__hip_fp8x2_e5m2",
    "__nv_fp8x4_e4m3": "__hip_fp8x4_e4m3", "__nv_fp8x4_e5m2": "__hip_fp8x4_e5m2",
    "__nv_fp8_storage_t": "__hip_fp8_storage_t", "__nv_fp8x2_storage_t": "__hip_fp8x2_storage_t",
    "__nv_fp8x4_storage_t": "__hip_fp8x4_storage_t",
    "__nv_fp8_interpretation_t": "__hip_fp8_interpretation_t", "__nv_saturation_t": "__hip_saturation_t",
    "__NV_E4M3": "__HIP_E4M3", "__NV_E5M2": "__HIP_E5M2", "__NV_SATFINITE": "__HIP_SATFINITE", "__NV_NOSAT": "__HIP_NOSAT",
}
FP4_TYPES = {  # HIP >= 7.0 <hip/hip_fp4.h>: OCP E2M1, as NVIDIA's
    "__nv_fp4_e2m1": "__hip_fp4_e2m1", "__nv_fp4x2_e2m1": "__hip_fp4x2_e2m1", "__nv_fp4x4_e2m1": "__hip_fp4x4_e2m1",
    "__nv_fp4_storage_t": "__hip_fp4_storage_t", "__nv_fp4x2_storage_t": "__hip_fp4x2_storage_t",
    "__nv_fp4x4_storage_t": "__hip_fp4x4_storage_t", "__nv_fp4_interpretation_t": "__hip_fp4_interpretation_t",
    "__NV_E2M1": "__HIP_E2M1", "__nv_fp8_e8m0": "__hip_fp8_e8m0",
}
FP4_FUNCS = (
    "cvt_double_to_fp4", "cvt_double2_to_fp4x2", "cvt_float_to_fp4", "cvt_float2_to_fp4x2", "cvt_bfloat16raw_to_fp4",
    "cvt_bfloat16raw2_to_fp4x2", "cvt_halfraw_to_fp4", "cvt_halfraw2_to_fp4x2", "cvt_fp4_to_halfraw",
    "cvt_fp4x2_to_halfraw2",
)
FP8_FUNCS = (
    "cvt_float_to_fp8", "cvt_float2_to_fp8x2", "cvt_double_to_fp8", "cvt_double2_to_fp8x2", "cvt_halfraw_to_fp8",
    "cvt_halfraw2_to_fp8x2", "cvt_bfloat16raw_to_fp8", "cvt_bfloat16raw2_to_fp8x2", "cvt_fp8_to_halfraw",
    "cvt_fp8x2_to_halfraw2",
)
#: library_types.h data types shared by every library (CUDA_R_32F ...): hip target is HIP's
#: hipDataType, which hipBLAS (>= 6), hipSPARSE, hipSOLVER and hipBLASLt all take now.
DATA_TYPES_ROC = {
    "CUDA_R_16F": "rocblas_datatype_f16_r", "CUDA_C_16F": "rocblas_datatype_f16_c",
    "CUDA_R_16BF": "rocblas_datatype_bf16_r", "CUDA_C_16BF": "rocblas_datatype_bf16_c",
    "CUDA_R_32F": "rocblas_datatype_f32_r", "CUDA_C_32F": "rocblas_datatype_f32_c",
    "CUDA_R_64F": "rocblas_datatype_f64_r", "CUDA_C_64F": "rocblas_datatype_f64_c",
    "CUDA_R_8I": "rocblas_datatype_i8_r", "CUDA_C_8I": "rocblas_datatype_i8_c",
    "CUDA_R_8U": "rocblas_datatype_u8_r", "CUDA_C_8U": "rocblas_datatype_u8_c",
    "CUDA_R_32I": "rocblas_datatype_i32_r", "CUDA_C_32I": "rocblas_datatype_i32_c",
    "CUDA_R_32U": "rocblas_datatype_u32_r", "CUDA_C_32U": "rocblas_datatype_u32_c",
    # the enum's tag, as hipify-clang writes it (``typedef enum rocblas_datatype_ {...} rocblas_datatype``)
    "cudaDataType_t": "rocblas_datatype_", "cudaDataType": "rocblas_datatype",
}
#: cuFile -> hipFile names that the case-insensitive spelling rule (CU_FILE_IO_NOT_SUPPORTED ->
#: hipFileIONotSupported) does not find; each target is still checked against hipFile's declarations
#: (hipify-clang's cuFile table pairs the same names, except where noted in gen_cufile).
HIPFILE_ALIASES = {
    "CUfileOpError": "hipFileOpError_t", "CUfileDrvProps_t": "hipFileDriverProps_t",
    "CUfileDrvProps": "hipFileDriverProps",
    "CU_FILE_NVFS_DRIVER_ERROR": "hipFileDriverError", "CU_FILE_NVFS_SETUP_ERROR": "hipFileDriverSetupError",
    "CUFILE_READ": "hipFileBatchRead", "CUFILE_WRITE": "hipFileBatchWrite", "CUFILEOP_BASE_ERR": "HIPFILE_BASE_ERR",
    # cufileop_status_error(CUfileOpError) and hipFileGetOpErrorString(hipFileOpError_t): both return
    # the status's description (CUFILE_ERRSTR / HIPFILE_ERRSTR are built on them)
    "cufileop_status_error": "hipFileGetOpErrorString",
    "IS_CUFILE_ERR": "IS_HIPFILE_ERR", "CUFILE_ERRSTR": "HIPFILE_ERRSTR", "IS_CUDA_ERR": "IS_HIP_DRV_ERR",
    # CU_FILE_CUDA_ERR(e) is e.cu_err, HIP_DRV_ERR(e) is e.hip_drv_err
    "CU_FILE_CUDA_ERR": "HIP_DRV_ERR",
    # the enum tag of CUfileStatus_t, whose hipFile enum is hipFileStatus (hipFileStatus_t its typedef)
    "CUFILEStatus_enum": "hipFileStatus",
}
#: macros hipFile's hipfile.h defines (the Cython bindings cannot show macros)
HIPFILE_MACROS = frozenset({
    "IS_HIPFILE_ERR", "HIPFILE_ERRSTR", "IS_HIP_DRV_ERR", "HIP_DRV_ERR", "HIPFILE_RDMA_REGISTER",
    "HIPFILE_RDMA_RELAXED_ORDERING", "HIPFILE_STREAM_FIXED_BUF_OFFSET", "HIPFILE_STREAM_FIXED_FILE_OFFSET",
    "HIPFILE_STREAM_FIXED_FILE_SIZE", "HIPFILE_STREAM_PAGE_ALIGNED_INPUTS",
})
#: cuTENSOR -> hipTensor names off the systematic cutensor -> hiptensor rule (as hipify-clang maps them)
HIPTENSOR_ALIASES = {
    # cuTENSOR 1.x's compute type (kept by cuTENSOR 2 for compatibility) -> hipTensor's compute descriptor
    "cutensorComputeType_t": "hiptensorComputeDescriptor_t",
    **{f"CUTENSOR_COMPUTE_{t}": f"HIPTENSOR_COMPUTE_DESC_{t}" for t in ("16F", "16BF", "32F", "64F", "8U", "8I", "32U", "32I")},
    "cutensorGetCudartVersion": "hiptensorGetHiprtVersion",
}
#: cuSPARSELt -> hipSPARSELt names off the systematic cusparseLt -> hipsparseLt rule
HIPSPARSELT_ALIASES = {
    "cusparseComputeType": "hipsparseLtComputetype_t",
    **{f"CUSPARSE_COMPUTE_{t}": f"HIPSPARSELT_COMPUTE_{t}" for t in ("16F", "32I", "32F")},
}



# ---------------------------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------------------------

HEADER_TARGETS = {
    # cuda header -> (hip header, roc header), spelled as hipify-clang writes them: hipBLAS,
    # hipBLASLt, hipSPARSE, hipSOLVER and rocBLAS/rocSPARSE by their flat names (ROCm's CMake
    # targets put include/<lib> on the include path), hipRAND/rocRAND/hipFFT with their folder.
    "cublas_v2.h": ("hipblas.h", "rocblas.h"),
    "cublas.h": ("hipblas.h", "rocblas.h"),
    "cublas_api.h": ("hipblas.h", "rocblas.h"),
    "cublasLt.h": ("hipblaslt.h", ""),
    "curand.h": ("hiprand/hiprand.h", "rocrand/rocrand.h"),
    "curand_kernel.h": ("hiprand/hiprand_kernel.h", "rocrand/rocrand_kernel.h"),
    "curand_mtgp32_host.h": ("hiprand/hiprand_mtgp32_host.h", "rocrand/rocrand_mtgp32.h"),
    "cusparse.h": ("hipsparse.h", "rocsparse.h"),
    "cusparse_v2.h": ("hipsparse.h", "rocsparse.h"),
    "cusolverDn.h": ("hipsolver.h", "rocsolver/rocsolver.h"),
    "cusolverMg.h": ("hipsolver.h", "rocsolver/rocsolver.h"),
    "cusolverSp.h": ("hipsolver.h", "rocsolver/rocsolver.h"),
    "cusolverRf.h": ("hipsolver.h", "rocsolver/rocsolver.h"),
    "cusolverSp_LOWLEVEL_PREVIEW.h": ("hipsolver.h", "rocsolver/rocsolver.h"),
    "cusolver_common.h": ("hipsolver.h", "rocsolver/rocsolver.h"),
    "cufft.h": ("hipfft/hipfft.h", ""),
    "cufftXt.h": ("hipfft/hipfftXt.h", ""),
    "cufftw.h": ("hipfft/hipfftw.h", ""),
    "cudnn.h": ("hipdnn/backend/hipdnn_backend.h", ""),
    "cudnn_backend.h": ("hipdnn/backend/hipdnn_backend.h", ""),
    "nccl.h": ("rccl/rccl.h", ""),
    "nvtx3/nvToolsExt.h": ("roctracer/roctx.h", ""),
    "cuda_fp8.h": ("hip/hip_fp8.h", ""),
    "cuda_fp4.h": ("hip/hip_fp4.h", ""),
    "cufile.h": ("hipfile.h", ""),
    "cutensor.h": ("hiptensor.h", ""),
    "cutensorMg.h": ("hiptensor.h", ""),
    "cusparseLt.h": ("hipsparseLt.h", ""),
}
#: flat header spellings (hipify-clang's) -> the file AMD ships under include/<lib>/
FLAT_HEADERS = {"hipblas.h": "hipblas/hipblas.h", "rocblas.h": "rocblas/rocblas.h",
                "hipblaslt.h": "hipblaslt/hipblaslt.h", "hipsparse.h": "hipsparse/hipsparse.h",
                "rocsparse.h": "rocsparse/rocsparse.h", "hipsolver.h": "hipsolver/hipsolver.h",
                "rocsolver.h": "rocsolver/rocsolver.h", "rocrand_mtgp32_11213.h": "rocrand/rocrand_mtgp32_11213.h",
                # hipFile installs hipfile.h at include/ itself; hipify-clang writes hipsparseLt.h for the
                # file hipSPARSELt installs in lower case (see the note on the cusparseLt.h rule)
                "hipfile.h": "hipfile.h", "hiptensor.h": "hiptensor/hiptensor.h", "hipsparseLt.h": "hipsparselt/hipsparselt.h"}
MIOPEN_HEADER = {"cudnn.h": "miopen/miopen.h"}
#: cuRAND's per-distribution headers -> rocRAND's (each checked against Debian's rocRAND headers)
CURAND_ROC_HEADERS = {
    "curand_discrete.h": "rocrand/rocrand_discrete.h", "curand_discrete2.h": "rocrand/rocrand_discrete.h",
    "curand_globals.h": "rocrand/rocrand_common.h", "curand_lognormal.h": "rocrand/rocrand_log_normal.h",
    "curand_mrg32k3a.h": "rocrand/rocrand_mrg32k3a.h", "curand_mtgp32.h": "rocrand/rocrand_mtgp32.h",
    "curand_mtgp32_kernel.h": "rocrand/rocrand_mtgp32.h", "curand_mtgp32dc_p_11213.h": "rocrand/rocrand_mtgp32_11213.h",
    "curand_normal.h": "rocrand/rocrand_normal.h", "curand_normal_static.h": "rocrand/rocrand_normal.h",
    "curand_philox4x32_x.h": "rocrand/rocrand_philox4x32_10.h", "curand_poisson.h": "rocrand/rocrand_poisson.h",
    "curand_precalc.h": "rocrand/rocrand_xorwow_precomputed.h", "curand_uniform.h": "rocrand/rocrand_uniform.h",
}

#: lib file -> [meta library, hip_library, source list(s)]
FILES = {
    "cublas": ("cublas", "hipblas"), "cublaslt": ("cublasLt", "hipblaslt"), "curand": ("curand", "hiprand"),
    "cusparse": ("cusparse", "hipsparse"), "cusolver": ("cusolver", "hipsolver"), "cufft": ("cufft", "hipfft"),
    "cudnn": ("cudnn", "hipdnn"), "cub": ("cub", "hipcub"), "thrust": ("thrust", "rocthrust"),
    "libcudacxx": ("libcudacxx", ""), "nccl": ("nccl", "rccl"), "nvtx": ("nvToolsExt", "roctx64"),
    "fp8": ("cudart", "amdhip64"),
    "cufile": ("cufile", "hipfile"), "cutensor": ("cutensor", "hiptensor"), "cusparselt": ("cusparseLt", "hipsparselt"),
}


def _is_internal(name: str) -> bool:
    return (
        name.startswith("_") and not name.startswith("__nv") and not name.startswith("__NV")
        or name.endswith(("_H_", "_H", "_H__", "_INCLUDED", "_DEPRECATED"))
        or re.search(r"_IMPL(?:_|$)|Impl(?:[A-Z_]|$)", name) is not None  # not IMPLICIT / Implicit
        or "DEPRECATED" in name or name.endswith("API") and name.isupper()
        or name in ("CUBLASWINAPI", "CUDNNWINAPI", "CUFFTAPI", "CURANDAPI", "CUSPARSEAPI", "CUSOLVERAPI")
    )


class Gen:
    """Holds the declaration index and writes one rules file at a time."""

    def __init__(self):
        self.decls = amd_declarations()
        self.all_amd = set().union(*self.decls.values()) if self.decls else set()
        self.headers = amd_headers()

    def has(self, name: str, *sources: str) -> bool:
        if not name:
            return False
        if not sources:
            return name in self.all_amd
        return any(name in self.decls.get(src, ()) for src in sources)

    # -- entries ----------------------------------------------------------------------------
    @staticmethod
    def versions(cn: CudaName) -> dict:
        out = {}
        if cn.removed:
            out["cuda_removed"] = cn.removed_in
        if cn.deprecated_in:
            out["cuda_deprecated"] = SNAPSHOT_VERSIONS[cn.deprecated_in[0]]
        return out

    def arity_clash(self, cn: CudaName, target: str) -> str:
        """A note when *target* takes a different number of arguments than the CUDA function
        (both counts known): renaming such a call would silently produce a wrong call."""
        if not target or cn.kind != "function" or cn.arity is None:
            return ""
        theirs = amd_arity().get(target)
        if theirs is None or theirs == cn.arity:
            return ""
        if _translator_completes(cn.name, cn.arity, theirs):
            return ""
        return f"{target} takes {theirs} arguments, {cn.name} {cn.arity}: port the call by hand"

    def entry(self, cn: CudaName, hip: str, *, roc: str = "", note: str = "", kind: str = "",
              hip_deprecated: bool = False, extra=None, check_arity: bool = True) -> dict:
        """One rule.  status: removed (gone from the newest CUDA headers), unsupported (no target,
        or a target whose argument count differs - kept for --amap), deprecated (*HIP* deprecates
        the target), else supported - a CUDA deprecation is recorded in cuda_deprecated only, as
        the core rule files do."""
        clash = self.arity_clash(cn, hip) if check_arity else ""
        roc_clash = self.arity_clash(cn, roc) if check_arity else ""
        if roc_clash:
            roc = ""
            note = "; ".join(x for x in (note, f"--roc: {roc_clash}") if x)
        if clash:
            note = "; ".join(x for x in (clash, note) if x)
        e: dict = {"hip": hip}
        if roc:
            e["roc"] = roc
        if kind:
            e["kind"] = kind
        e.update(self.versions(cn))
        if cn.removed:
            e["status"] = "removed"
        elif not hip or clash:
            e["status"] = "unsupported"
        elif hip_deprecated:
            e["status"] = "deprecated"
        if extra:
            e.update(extra)
        if note:
            e["note"] = note
        if not e["hip"]:
            del e["hip"]
        return e


def toml_str(v: str) -> str:
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'


#: Library functions newer than the HIP libraries Debian and Ubuntu ship, which hipport/compat.h
#: supplies there (a template the real declaration outranks): stem -> {CUDA name: note}.
COMPAT_FUNCTIONS = {
    "cusparse": {
        "cusparseGetErrorString": "hipSPARSE < 3.0 does not declare it; hipport/compat.h supplies it there",
        "cusparseGetErrorName": "hipSPARSE < 3.0 does not declare it; hipport/compat.h supplies it there",
    },
}


#: names whose current hipSPARSE spelling hipSPARSE 2.x lacks: hipport/hipsparse.h adds it there
SHIM_INCLUDES = {
    "cusparse": {
        "CUSPARSE_ORDER_COL": ("hipport/hipsparse.h", "hipSPARSE < 3.0 spells it HIPSPARSE_ORDER_COLUMN; "
                               "hipport/hipsparse.h maps it there"),
        "cusparseSpSV_solve": ("hipport/hipsparse.h", "hipSPARSE < 3.0 takes the work buffer again; "
                               "hipport/hipsparse.h supplies the buffer-less form there"),
    },
}


#: cuDNN 7's algorithm-preference API, removed by cuDNN 8 (the _v7 and Find calls replaced it): hipify-clang
#: maps it to the old hipDNN's names (its CUDA2HIP_DNN_API tables; the retired hipDNN.h declared them),
#: which no AMD library declares now; --amap writes them.
_CUDNN_7_PREFERENCES = {"Fwd": "FWD", "BwdFilter": "BWD_FILTER", "BwdData": "BWD_DATA"}
CUDNN_7_REMOVED = {
    **{f"cudnnGetConvolution{w}Algorithm": ("function", f"hipdnnGetConvolution{w}Algorithm")
       for w in ("Forward", "BackwardFilter", "BackwardData")},
    **{f"cudnnConvolution{k}Preference_t": ("type", f"hipdnnConvolution{k}Preference_t") for k in _CUDNN_7_PREFERENCES},
    **{f"CUDNN_CONVOLUTION_{e}_{v}": ("enumerator", f"HIPDNN_CONVOLUTION_{e}_{v}")
       for e in _CUDNN_7_PREFERENCES.values() for v in ("NO_WORKSPACE", "PREFER_FASTEST", "SPECIFY_WORKSPACE_LIMIT")},
}


def _removed_cudnn_7(stem: str, rules: dict[str, dict]) -> dict[str, dict]:
    if stem != "cudnn":
        return {}
    return {name: {"hip": hip, "kind": kind, "status": "unsupported", "cuda_removed": "8.0",
                   "note": f"cuDNN 7's API, removed by cuDNN 8; hipify-clang writes the old hipDNN's {hip}, "
                           "which no AMD library declares now; translated with --amap"}
            for name, (kind, hip) in CUDNN_7_REMOVED.items() if name not in rules}


#: CUDA names another rules file (owned by the core API families) already defines.
OWNED_ELSEWHERE: set[str] = set()  # e.g. a name the core rules define; none today


def write_toml(stem: str, header_comment: str, rules: dict[str, dict]) -> None:
    library, hip_library = FILES[stem]
    rules = {k: dict(v) for k, v in rules.items() if k not in OWNED_ELSEWHERE}
    rules.update(_removed_before_oldest_snapshot(stem, rules))
    rules.update(_removed_cudnn_7(stem, rules))
    hipify_names.preferred(rules, _declared_or_hipblas_v2, compatible=_same_arity)
    if stem == "cublas":
        _hipblas_v2_like_the_64_bit_form(rules)
    _adopt_call_edit_targets(rules)
    lines = [f"# {line}" if line else "#" for line in header_comment.strip().splitlines()]
    lines += [
        "# Generated by tools/gen_library_rules.py generate; edit the script's tables, not this file.",
        "# status: supported | deprecated (AMD deprecates the target) | removed (gone from the newest CUDA",
        "# headers; translated where HIP keeps it) | unsupported (AMD declares no target; the note says why).",
        "# cuda_removed: the major release after the last header snapshot declaring it (or AMD's documented",
        "# version); cuda_deprecated: the first snapshot (11.8, 12.9, 13) marking it - or AMD's documented one.",
        "# Every target is checked against AMD's declarations by tests/test_rules_libraries.py.",
        "",
        "[meta]",
        f"family = {toml_str(stem)}",
        f"library = {toml_str(library)}",
        f"hip_library = {toml_str(hip_library)}",
        "",
        "[rules]",
    ]
    for name, note in COMPAT_FUNCTIONS.get(stem, {}).items():
        if name in rules and rules[name].get("hip"):
            rules[name].update(include="hipport/compat.h", note=note)
    # the HIP release that added each target (HIPIFY's tables, checked against Debian's headers)
    decls = amd_declarations()
    debian = frozenset().union(*(v for k, v in decls.items() if k.startswith("debian:")))
    # a library Debian ships (hipSPARSE, hipRAND): a name only AMD's newer bindings declare came later
    shipped = {k.split(":", 1)[1] for k in decls if k.startswith("debian:")}
    later = frozenset().union(*(v for k, v in decls.items() if k.startswith("bindings:") and k.split(":", 1)[1] in shipped))
    here = hip_versions.release_of(Path("/usr/include/hip/hip_version.h"))
    for name, e in rules.items():
        if e.get("hip") and e.get("kind") != "header":
            e["hip_added"] = hip_versions.added_for(name, e["hip"], e["hip"] in debian, here,
                                                    declared_later=e["hip"] in later)
    for name, (include, note) in SHIM_INCLUDES.get(stem, {}).items():
        if name in rules and rules[name].get("hip"):
            rules[name].update(include=include, note="; ".join(n for n in (rules[name].get("note"), note) if n))
    order = ("hip", "roc", "miopen", "kind", "status", "cuda_added", "cuda_deprecated", "cuda_removed", "hip_added",
             "hip_type", "include", "note")
    for name in sorted(rules, key=lambda n: (rules[n].get("kind") != "header", n)):
        e = rules[name]
        fields = ", ".join(f"{k} = {toml_str(e[k])}" for k in order if e.get(k))
        key = name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else toml_str(name)
        lines.append(f"{key} = {{ {fields} }}")
    (RULES / f"{stem}.toml").write_text("\n".join(lines) + "\n")


def call_edit_accepted(edit) -> bool:
    """A HIP or --roc target is taken only where AMD declares it and the edited call has its
    argument count; MIOpen's declarations are not on this image, so its entries are trusted as
    checked against miopen.h (UNVERIFIABLE_REASON)."""
    if edit.option == "miopen":
        return True
    theirs = amd_arity().get(edit.target)
    if edit.target in SHIM_SIGNATURES:  # a signature hipport/rocsparse.h declares
        return edit.include == "hipport/rocsparse.h" and edit.target_args == SHIM_SIGNATURES[edit.target]
    return edit.target in _all_amd_names() and theirs in (None, edit.target_args)


#: targets called with another argument count than Debian's rocSPARSE declares, and the count
#: hipport/rocsparse.h declares for them (tests/test_arguments.py compiles the calls): ROCm 6's
#: staged rocsparse_spmv, csrsm with the int algorithm hipify-clang keeps from csrsm2, bsrsm
#: analysis with one policy, and Blocked-ELL descriptors without a block direction
SHIM_SIGNATURES = {
    "rocsparse_spmv": 12,
    **{f"rocsparse_{t}csrsm_{stage}": n for t in "sdcz" for stage, n in (("solve", 17), ("analysis", 18),
                                                                         ("buffer_size", 17))},
    **{f"rocsparse_{t}bsrsm_analysis": 15 for t in "sdcz"},
    **dict.fromkeys(("rocsparse_create_bell_descr", "rocsparse_bell_get", "rocsparse_create_const_bell_descr",
                     "rocsparse_const_bell_get"), 10),
}


def _adopt_call_edit_targets(rules: dict[str, dict]) -> None:
    """Targets the translator reaches by editing the call's arguments (hipport/rules/arguments)."""
    from hipport.rules.call_edits import call_edits

    for name, edit in call_edits().items():
        entry = rules.get(name)
        if entry is None or not call_edit_accepted(edit):
            continue
        entry[edit.option] = edit.target
        kept = [part for part in entry.get("note", "").split("; ")
                if part and not part.startswith("--roc:") and not part.startswith("not in hipDNN")
                and not part.startswith("closest:") and not part.startswith("no hip")]
        if edit.option == "miopen" and not entry.get("hip"):
            kept.insert(0, "not in hipDNN")
        if edit.option == "hip" and entry.get("status") == "unsupported":
            del entry["status"]
        option = "" if edit.option == "hip" else f"--{edit.option}: "
        kept.append(f"{option}{edit.target} with the call's arguments rewritten"
                    + (f" ({edit.note})" if edit.note else ""))
        entry["note"] = "; ".join(kept)


def _kind(cn: CudaName) -> str:
    if cn.kind == "macro" and cn.name[:1].islower():
        # `#define cublasCreate cublasCreate_v2`: an alias that user code calls like a function
        return "type" if cn.name.endswith(("_t", "Status")) else "function"
    return {"function": "function", "type": "type", "enumerator": "enumerator", "macro": "macro"}[cn.kind]


def header_rules(g: Gen, names: dict[str, CudaName], only: tuple[str, ...] = (), default_note: str = "") -> dict:
    out = {}
    for cn in names.values():
        if cn.kind != "header" or (only and cn.name not in only):
            continue
        hip, roc = HEADER_TARGETS.get(cn.name, ("", ""))
        if hip and hip not in g.headers and hip not in UNVERIFIABLE_HEADERS:
            hip = ""  # never point at a header AMD does not ship
        e = g.entry(cn, hip, roc=roc, kind="header", note="" if hip else default_note)
        if cn.name in MIOPEN_HEADER:
            e["miopen"] = MIOPEN_HEADER[cn.name]
        out[cn.name] = e
    return out


def gen_cublas(g: Gen) -> None:
    names = read_cuda_names("cublas")
    blas, lt = {}, {}
    hipblas = ("bindings:hipblas",)
    for cn in names.values():
        n = cn.name
        if cn.kind == "header" or _is_internal(n):
            continue
        if n.startswith(("cublasLt", "CUBLASLT")):
            cand = n.replace("cublasLt", "hipblasLt", 1).replace("CUBLASLT_", "HIPBLASLT_", 1)
            ok = g.has(cand, "bindings:hipblaslt")
            lt[n] = g.entry(cn, cand if ok else "", kind=_kind(cn), note="" if ok else "no hipBLASLt equivalent")
            continue
        if n.startswith(("cublasXt", "CUBLASXT")):
            blas[n] = g.entry(cn, "", kind=_kind(cn), note="cuBLASXt (multi-GPU host API) has no HIP equivalent; call hipBLAS per device")
            continue
        base = re.sub(r"_v2(?=$|_64$)", "", n)
        if base == "cublasStatus":
            base = "cublasStatus_t"
        cand = base.replace("cublas", "hipblas", 1) if base.startswith("cublas") else base.replace("CUBLAS_", "HIPBLAS_", 1)
        cand = HIPBLAS_ALIASES.get(n, cand)
        ok = g.has(cand, *hipblas)
        note = ""
        if n in HIPBLAS_ALIASES and "TENSOR_OP" in n:
            note = "deprecated in cuBLAS 11 and equivalent to CUBLAS_GEMM_DEFAULT"
        if not ok:
            if n in HIPBLAS_NOTES:
                note = HIPBLAS_NOTES[n]
            elif base.endswith("_64") and g.has(cand[:-3], *hipblas):
                note = f"no 64-bit-index variant in hipBLAS; closest: {cand[:-3]} (32-bit sizes)"
            elif "TENSOR_OP" in n or n.startswith("CUBLAS_GEMM_ALGO"):
                note = "hipBLAS picks the algorithm itself; closest: HIPBLAS_GEMM_DEFAULT"
            elif n.startswith("CUBLAS_COMPUTE_32F_FAST"):
                note = "closest: HIPBLAS_COMPUTE_32F"
            else:
                note = "no hipBLAS equivalent"
        roc = ROCBLAS_SPECIAL.get(n, "")
        m = re.fullmatch(r"cublas([SDCZ])(\w+?)(?:_v2)?", n)
        if not roc and m and m.group(2) in ROCBLAS_ROUTINES and ok:
            roc = "rocblas_" + m.group(1).lower() + (snake(m.group(2)) if "Batched" in m.group(2) else m.group(2).lower())
        m2 = re.fullmatch(r"cublasI([sdcz])(amax|amin)(?:_v2)?", n)
        if m2 and ok:
            roc = f"rocblas_i{m2.group(1)}{m2.group(2)}"
        # `cublasSgemm` is both the legacy v1 function (cublas.h) and, through cublas_v2.h's macro,
        # cublasSgemm_v2: its v1 argument count says nothing about the v2 call
        blas[n] = g.entry(cn, cand if ok else "", roc=roc if ok else "", kind=_kind(cn), note=note,
                          check_arity=f"{n}_v2" not in names)
    # library_types.h data types (shared by all libraries; they live here because cuBLAS is where
    # the --roc target differs: rocBLAS has its own rocblas_datatype)
    for m, r in DATA_TYPES_ROC.items():
        hip = "hipDataType" if m.startswith("cudaDataType") else m.replace("CUDA_", "HIP_", 1)
        e = {"hip": hip, "roc": r, "kind": "type" if m.startswith("cuda") else "enumerator", "hip_type": hip,
             "note": "library_types.h; hipBLAS >= 6, hipSPARSE, hipSOLVER and hipBLASLt all take hipDataType"}
        blas[m] = e
    # library_types.h's version query type, which every library's Get*Property takes (its
    # enumerators MAJOR_VERSION, ... are too generic a spelling to rename in user code)
    for m in ("libraryPropertyType", "libraryPropertyType_t"):
        if g.has("hipLibraryPropertyType"):
            blas[m] = {"hip": "hipLibraryPropertyType", "kind": "type",
                       "note": "library_types.h; the property that hip*GetProperty functions take"}
    blas.update(header_rules(g, names, ("cublas_v2.h", "cublas.h", "cublas_api.h", "cublasXt.h", "nvblas.h"),
                             "no HIP equivalent (cuBLASXt / NVBLAS)"))
    lt.update(header_rules(g, names, ("cublasLt.h",)))
    write_toml("cublas", "cuBLAS (legacy, v2, _64) -> hipBLAS; --roc -> rocBLAS (small curated set).", blas)
    write_toml("cublaslt", "cuBLASLt -> hipBLASLt.", lt)


#: curand_mtgp32_kernel.h's public device functions (the rest of the prefix is its machinery)
_MTGP32_DEVICE_API = ("curand_mtgp32_single", "curand_mtgp32_single_specific", "curand_mtgp32_specific")


def gen_curand(g: Gen) -> None:
    names = read_cuda_names("curand")
    hiprand = ("bindings:hiprand", "debian:hiprand")
    rocrand = ("debian:rocrand",)
    out = {}
    for cn in names.values():
        n = cn.name
        if cn.kind == "header" or n.startswith("mtgp32_"):
            continue  # (the MTGP32 parameter struct: below)
        if _is_internal(n) or n.startswith(("curand_mtgp32_", "curandMtgp32", "CURAND_MTGP32")) and n not in (
            "curandMakeMTGP32Constants", "curandMakeMTGP32KernelState"):
            if n.startswith("curand_mtgp32_") and n not in _MTGP32_DEVICE_API or _is_internal(n):
                continue
        if n.startswith("CURAND_"):
            cand, roc = "HIPRAND_" + n[7:], "ROCRAND_" + n[7:]
        elif n.startswith("curand_"):
            cand, roc = "hiprand_" + n[7:], "rocrand_" + n[7:]
        else:
            cand = "hiprand" + n[6:]
            rest = n[6:]
            roc = "rocrand_" + snake(rest) if rest else "rocrand"
        roc = ROCRAND_SPECIAL.get(n, roc)
        if n in ("curandRngType", "curandDirectionVectorSet"):
            cand = cand + "_t"  # enum tags whose hipRAND spelling (as hipify-clang's) is the typedef
        ok = g.has(cand, *hiprand)
        # rocRAND's engine classes (rocrand_device::…) are checked by name in its headers by the tests
        if not (roc in ROCRAND_NEWER or roc.startswith("rocrand_device::") or g.has(roc, *rocrand)):
            roc = ""
        note = "" if ok else "no hipRAND equivalent" + (f"; rocRAND has {roc} (--roc)" if roc else "")
        out[n] = g.entry(cn, cand if ok else "", roc=roc, kind=_kind(cn), note=note)
    # the MTGP32 parameter struct's tag, which hipRAND declares only as the typedef
    # mtgp32_kernel_params_t (the translator drops a `struct` before it)
    out["mtgp32_kernel_params"] = g.entry(names["mtgp32_kernel_params"], "mtgp32_kernel_params_t", kind="type")
    for cn in names.values():
        if cn.kind == "header" and cn.name not in HEADER_TARGETS:
            # cuRAND's per-distribution headers: hipRAND declares all of them in hiprand_kernel.h
            # (a second include of it is dropped); rocRAND has one header per distribution.
            host = "mtgp32dc" in cn.name
            roc = CURAND_ROC_HEADERS.get(cn.name, "rocrand/rocrand_kernel.h")
            # the MTGP32 parameter tables exist only in rocRAND (hipRAND's host header uses them);
            # current hipify-clang spells the flat name (roc::rocrand puts include/rocrand on the path);
            # with --roc, the nested one
            out[cn.name] = g.entry(cn, "rocrand_mtgp32_11213.h" if host else "hiprand/hiprand_kernel.h",
                                   roc=roc, kind="header")
    out.update(header_rules(g, names, tuple(n for n in HEADER_TARGETS if n.startswith("curand"))))
    write_toml("curand", "cuRAND host and device API -> hipRAND; --roc -> rocRAND.", out)


def gen_cusparse(g: Gen) -> None:
    names = read_cuda_names("cusparse")
    hips = ("bindings:hipsparse", "debian:hipsparse")
    rocs = ("debian:rocsparse",)
    out = {}
    for cn in names.values():
        n = cn.name
        if cn.kind == "header" or _is_internal(n):
            continue
        if n.startswith("CUSPARSE_"):
            cand, roc = "HIPSPARSE_" + n[9:], "rocsparse_" + n[9:].lower()
        elif not n.startswith("cusparse"):
            cand, roc = n, ""  # csric02Info_t & co.: hipSPARSE declares the same names
        else:
            rest = n[8:]
            cand = "hipsparse" + rest
            roc = "rocsparse_" + snake(rest)
            if rest.startswith("Create") and not g.has(roc, *rocs):
                roc = roc + "_descr"
            if rest.startswith("Destroy") and not g.has(roc, *rocs):
                roc = roc.replace("rocsparse_destroy_", "rocsparse_destroy_") + "_descr"
        roc = ROCSPARSE_SPECIAL.get(n, roc)
        ok = g.has(cand, *hips)
        if not g.has(roc, *rocs):
            roc = ""
        note = ""
        if not ok:
            note = "no hipSPARSE equivalent"
            if cn.removed:
                note = "removed from CUDA 12; use the generic API (cusparseSpMV/SpMM/SpGEMM -> hipsparseSpMV/...)"
        out[n] = g.entry(cn, cand if ok else "", roc=roc if ok else "", kind=_kind(cn), note=note)
    # hipSPARSE documents the CUDA versions that deprecated and removed its legacy counterparts;
    # one doc block covers the S/D/C/Z family.
    docs = dict(amd_doc_deprecations("hipsparse"))
    for hip_name, info in list(docs.items()):
        m = re.fullmatch(r"hipsparseS(\w+)", hip_name)
        if m:
            for p in "DCZ":
                docs.setdefault(f"hipsparse{p}{m.group(1)}", info)
    for hip_name, (who, dep, rem) in sorted(docs.items()):
        if not g.has(hip_name, *hips):
            continue
        cuda = "cusparse" + hip_name[len("hipsparse"):]
        e = out.get(cuda)
        if who == "hip" and e is not None and e.get("hip") == hip_name and e.get("status") != "removed":
            e["status"] = "deprecated"
            e["note"] = f"hipSPARSE deprecates {hip_name} (to be removed in a future release)"
        elif who == "cuda" and e is not None:
            if dep and (not e.get("cuda_deprecated") or float(dep) <= float(e["cuda_deprecated"])):
                e["cuda_deprecated"] = dep  # exact, where the snapshots only bound it
        elif who == "cuda" and e is None and cuda not in names and float(rem) <= float(SNAPSHOT_VERSIONS["cu11"]):
            # removed before CUDA 11.8: in none of our snapshots, documented by AMD
            out[cuda] = {"hip": hip_name, "kind": "function", "status": "removed", "cuda_deprecated": dep,
                         "cuda_removed": rem, "note": f"removed in CUDA {rem} (documented by hipSPARSE, which keeps {hip_name})"}
    out.update(header_rules(g, names))
    write_toml("cusparse", "cuSPARSE (generic and legacy API) -> hipSPARSE; --roc -> rocSPARSE.", out)


# --roc: rocSOLVER reports rocBLAS's statuses and takes rocBLAS's eigen-problem enumerations
# (as hipify-clang's cuSOLVER->rocSOLVER table); statuses rocBLAS lacks read "not implemented".
ROCSOLVER_SPECIAL = {
    "cusolverDnGetStream": "rocblas_get_stream",
    "CUSOLVER_STATUS_SUCCESS": "rocblas_status_success",
    "CUSOLVER_STATUS_NOT_INITIALIZED": "rocblas_status_invalid_handle",
    "CUSOLVER_STATUS_ALLOC_FAILED": "rocblas_status_memory_error",
    "CUSOLVER_STATUS_INVALID_VALUE": "rocblas_status_invalid_value",
    "CUSOLVER_STATUS_ARCH_MISMATCH": "rocblas_status_arch_mismatch",
    "CUSOLVER_STATUS_INTERNAL_ERROR": "rocblas_status_internal_error",
    **dict.fromkeys(("CUSOLVER_STATUS_MAPPING_ERROR", "CUSOLVER_STATUS_EXECUTION_FAILED",
                     "CUSOLVER_STATUS_NOT_SUPPORTED", "CUSOLVER_STATUS_ZERO_PIVOT"), "rocblas_status_not_implemented"),
    "cusolverEigType_t": "rocblas_eform", "CUSOLVER_EIG_TYPE_1": "rocblas_eform_ax",
    "CUSOLVER_EIG_TYPE_2": "rocblas_eform_abx", "CUSOLVER_EIG_TYPE_3": "rocblas_eform_bax",
    "cusolverEigMode_t": "rocblas_evect", "CUSOLVER_EIG_MODE_NOVECTOR": "rocblas_evect_none",
    "CUSOLVER_EIG_MODE_VECTOR": "rocblas_evect_original",
    "cusolverEigRange_t": "rocblas_erange", "CUSOLVER_EIG_RANGE_ALL": "rocblas_erange_all",
    "CUSOLVER_EIG_RANGE_I": "rocblas_erange_index", "CUSOLVER_EIG_RANGE_V": "rocblas_erange_value",
}


def gen_cusolver(g: Gen) -> None:
    names = read_cuda_names("cusolver")
    hs = ("bindings:hipsolver",)
    out = {}
    for cn in names.values():
        n = cn.name
        if cn.kind == "header" or _is_internal(n):
            continue
        if not n.lower().startswith("cusolver") and not n.endswith("_t"):
            continue  # opaque struct tags (syevjInfo): never named by user code
        # CUSOLVER_*, CUSOLVERRF_*, CUSOLVERDN_* -> HIPSOLVER_*, HIPSOLVERRF_*, ...
        cand = n.replace("cusolver", "hipsolver", 1) if n.startswith("cusolver") else n.replace("CUSOLVER", "HIPSOLVER", 1)
        cand = HIPSOLVER_ALIASES.get(n, cand)
        ok = g.has(cand, *hs)
        note = ""
        if not ok:
            note = "no hipSOLVER equivalent"
            if n.startswith("cusolverMg"):
                note = "cuSOLVERMg (multi-GPU) has no HIP equivalent"
            elif n.startswith("cusolverDnX") or n.startswith("cusolverDnIRS"):
                note = "64-bit/IRS generic API not in hipSOLVER; use the typed hipsolverDn<t><routine> calls"
        roc = ""
        m = re.fullmatch(r"cusolverDn([SDCZ])(\w+)", n)
        if ok and m and m.group(2) in ROCSOLVER_ROUTINES:
            roc = f"rocsolver_{m.group(1).lower()}{m.group(2)}"
        if n in ("cusolverDnCreate",):
            roc = "rocblas_create_handle"
        if n in ("cusolverDnDestroy",):
            roc = "rocblas_destroy_handle"
        if n in ("cusolverDnSetStream",):
            roc = "rocblas_set_stream"
        if n == "cusolverDnHandle_t":
            roc = "rocblas_handle"
        roc = ROCSOLVER_SPECIAL.get(n, roc) if ok else roc
        out[n] = g.entry(cn, cand if ok else "", roc=roc, kind=_kind(cn), note=note)
    out.update(header_rules(g, names, default_note="cuSOLVERMg (multi-GPU) has no hipSOLVER equivalent"))
    write_toml("cusolver", "cuSOLVER (dense, sparse, refactorization) -> hipSOLVER's cuSOLVER-compatible API;\n"
               "--roc -> rocSOLVER for the core LAPACK routines (rocSOLVER takes no workspace arguments).", out)


def gen_cufft(g: Gen) -> None:
    names = read_cuda_names("cufft")
    out = {}
    for cn in names.values():
        n = cn.name
        if cn.kind == "header" or _is_internal(n):
            continue
        cand = n.replace("cufft", "hipfft", 1) if n.startswith("cufft") else n.replace("CUFFT_", "HIPFFT_", 1)
        cand = {"CUFFT_INVERSE": "HIPFFT_BACKWARD"}.get(n, cand)
        ok = g.has(cand, "bindings:hipfft")
        note = ""
        if "allback" in n or n.startswith(("CUFFT_CB_", "cufftXtCallback")):
            note = ("cuFFT callbacks: hipFFT's callback API needs rocFFT callbacks built with -fgpu-rdc; "
                    "apply the load/store step as a separate kernel")
            ok = False  # unsupported on purpose, whatever hipFFT declares
        elif not ok:
            note = "no hipFFT equivalent"
        out[n] = g.entry(cn, cand if ok else "", kind=_kind(cn), note=note)
    heads = header_rules(g, names, ("cufft.h", "cufftXt.h", "cufftw.h", "cudalibxt.h"))
    for h, note in (("cufftXt.h", "cuFFTXt (multi-GPU, callbacks): AMD's declarations here have no hipfftXt API"),
                    ("cudalibxt.h", "cuFFTXt descriptors: no hipFFT equivalent"),
                    ("cufftw.h", "FFTW interface: hipFFT's hipfft/hipfftw.h")):
        if h in heads and not heads[h].get("hip"):
            heads[h]["note"] = note
    out.update(heads)
    write_toml("cufft", "cuFFT -> hipFFT (callbacks marked unsupported).", out)


def gen_cudnn(g: Gen) -> None:
    names = read_cuda_names("cudnn")
    out = {}
    for cn in names.values():
        n = cn.name
        if cn.kind == "header" or _is_internal(n):
            continue
        cand = n.replace("cudnn", "hipdnn", 1) if n.startswith("cudnn") else n.replace("CUDNN_", "HIPDNN_", 1)
        ok = g.has(cand, "bindings:hipdnn_backend")
        mi = MIOPEN.get(n, "")
        note = ""
        if not ok:
            if mi:
                note = f"not in hipDNN; MIOpen has {mi} (use --miopen)"
            elif n in MIOPEN_DIFFERENT_ARGS:
                alt = MIOPEN_DIFFERENT_ARGS[n]
                note = f"not in hipDNN; closest: {alt}" + ("" if "(" in alt else " (different arguments)")
            else:
                note = "no hipDNN or MIOpen equivalent"
        e = g.entry(cn, cand if ok else "", kind=_kind(cn), note=note)
        if mi:
            e["miopen"] = mi  # with no hipDNN target, reachable only with --miopen
        out[n] = e
    for n, mi in MIOPEN_CUDNN9_REMOVED.items():  # not in cuDNN 9's headers, so not in *names*
        out[n] = {"miopen": mi, "kind": "function", "status": "removed", "cuda_removed": "9.0",
                  "note": "removed in cuDNN 9 (the pre-v8 RNN API); MIOpen keeps it (use --miopen)"}
    out.update(header_rules(g, names, ("cudnn.h", "cudnn_backend.h"), "use cudnn.h's hipDNN/MIOpen header"))
    write_toml("cudnn", "cuDNN -> hipDNN (backend/graph API) by default; --miopen -> MIOpen for the legacy API.", out)


def gen_nccl(g: Gen) -> None:
    names = read_cuda_names("nccl")
    out = {}
    for cn in names.values():
        n = cn.name
        if cn.kind == "header" or _is_internal(n) or not n.startswith(("nccl", "NCCL_", "pnccl")):
            continue
        ok = g.has(n, "bindings:rccl") or n in RCCL_MACROS
        note = ""
        if not ok:
            note = ("NCCL device API (" + cn.header + "): no RCCL equivalent" if cn.header.startswith("nccl_device")
                    else "not in RCCL")
        out[n] = g.entry(cn, n if ok else "", kind=_kind(cn), note=note)
    out.update(header_rules(g, names, ("nccl.h", "nccl_device.h"), "NCCL's device API has no RCCL equivalent"))
    write_toml("nccl", "NCCL -> RCCL: same API, header rccl/rccl.h.", out)


def gen_nvtx(g: Gen) -> None:
    names = read_cuda_names("nvtx")
    out = {}
    for cn in names.values():
        n = cn.name
        if cn.kind == "header" or _is_internal(n) or n.startswith(("NVTX3", "nvtx3", "NVTX_")) and cn.kind == "macro":
            continue
        if cn.kind == "function" and not n.startswith("nvtx"):
            continue
        if n.startswith(("NVTX_CBID_", "NVTX_CB_MODULE_", "NVTX_ETID_", "NVTX3", "nvtxEtid", "nvtxCallbackId",
                         "nvtxExportTable", "nvtxGetExportTable", "nvtxFuncPointer", "nvtxFunctionTable")):
            continue  # the tool-injection interface, not user API
        hip = NVTX.get(n, "")
        ok = g.has(hip, "bindings:roctx")
        note = "" if ok else (f"closest: {NVTX_NOTES[n]}" if n in NVTX_NOTES else "no ROCTX equivalent")
        out[n] = g.entry(cn, hip if ok else "", kind=_kind(cn), note=note)
    out.update(header_rules(g, names, ("nvtx3/nvToolsExt.h",)))
    # NVTX's CUDA extensions (naming devices, streams, events) have no ROCTX counterpart, but code
    # includes them beside the ranges it does use: the header becomes roctx.h, and a naming call
    # is reported where it is made
    for cuda_ext in ("nvtx3/nvToolsExtCuda.h", "nvtx3/nvToolsExtCudaRt.h"):
        out[cuda_ext] = {"hip": "roctracer/roctx.h", "kind": "header",
                         "note": "CUDA resource naming (nvtxNameCuda*) has no ROCTX equivalent"}
    # pre-NVTX3 paths of the CUDA toolkit
    out["nvToolsExt.h"] = {"hip": "roctracer/roctx.h", "kind": "header", "note": "toolkit path of NVTX v2"}
    for cuda_ext in ("nvToolsExtCuda.h", "nvToolsExtCudaRt.h"):
        out[cuda_ext] = {"hip": "roctracer/roctx.h", "kind": "header",
                         "note": "NVTX v2; CUDA resource naming (nvtxNameCuda*) has no ROCTX equivalent"}
    write_toml("nvtx", "NVTX -> ROCTX (ranges and marks; no domains, colours or payloads).", out)


def gen_cccl(g: Gen) -> None:
    names = read_cuda_names("cccl")
    cub, thrust, cxx = {}, {}, {}
    cub["cub"] = {"hip": "hipcub", "kind": "namespace"}
    # The engine matches one identifier followed by '::', so `cuda::std::x` is caught by "cuda";
    # `thrust::cuda::par` is a qualified name the engine leaves alone (rocThrust spells it thrust::hip::par).
    cxx["cuda"] = {"kind": "namespace", "status": "unsupported",
                   "note": "libcu++ (cuda::std::, cuda::atomic, cuda::barrier) has no HIP equivalent; "
                   "use std:: in host/constexpr code, HIP atomics and __syncthreads, or libhipcxx's hip::std"}
    cxx["cuda/std/"] = {"kind": "header", "status": "unsupported",
                        "note": "libcu++ header; closest: the standard header of the same name (or libhipcxx <hip/std/...>)"}
    cxx["cuda/"] = {"kind": "header", "status": "unsupported", "note": "libcu++ extension header; no HIP equivalent"}
    for cn in names.values():
        n = cn.name
        if cn.kind == "header":
            if n.startswith("cub/"):
                cub[n] = g.entry(cn, "hipcub/hipcub.hpp", kind="header")
            elif n.startswith("thrust/"):
                if "/system/cuda/" in n:
                    hip = n.replace("/system/cuda/", "/system/hip/")
                    thrust[n] = g.entry(cn, hip, kind="header", note="rocThrust's HIP system header")
                elif "/system/" in n and not any(s in n for s in ("/system/cpp/", "/system/omp/", "/system/tbb/")) and n.count("/") > 1 and n.split("/")[1] == "system" and n.split("/")[2].endswith(".h"):
                    thrust[n] = g.entry(cn, n, kind="header")
                else:
                    thrust[n] = g.entry(cn, n, kind="header")
            elif n.startswith("cuda/"):
                std = n[len("cuda/std/"):] if n.startswith("cuda/std/") else ""
                note = (f"libcu++ header; closest: <{std}> (host+device in HIP where constexpr) or libhipcxx <hip/std/{std}>"
                        if std else "libcu++ extension header; no HIP equivalent")
                cxx[n] = g.entry(cn, "", kind="header", note=note)
            continue
        if n in CUB_MACROS:
            cub[n] = g.entry(cn, CUB_MACROS[n], kind="macro")
        elif n.startswith("CUB_") and not n.startswith(("CUB_DETAIL_", "CUB_IMPL_")) and not n.endswith("_IMPL"):
            cub[n] = g.entry(cn, "", kind="macro", note="no hipCUB equivalent")
        elif n.startswith("THRUST_"):
            if n == "THRUST_DEVICE_SYSTEM_CUDA":
                thrust[n] = g.entry(cn, "THRUST_DEVICE_SYSTEM_HIP", kind="macro")
            elif n in ("THRUST_VERSION", "THRUST_MAJOR_VERSION", "THRUST_MINOR_VERSION", "THRUST_SUBMINOR_VERSION",
                       "THRUST_PATCH_NUMBER", "THRUST_DEVICE_SYSTEM", "THRUST_HOST_SYSTEM", "THRUST_DEVICE_SYSTEM_CPP",
                       "THRUST_DEVICE_SYSTEM_OMP", "THRUST_DEVICE_SYSTEM_TBB", "THRUST_HOST_SYSTEM_CPP",
                       "THRUST_HOST_SYSTEM_OMP", "THRUST_HOST_SYSTEM_TBB", "THRUST_NAMESPACE_BEGIN", "THRUST_NAMESPACE_END",
                       "THRUST_CPP_DIALECT", "THRUST_DEVICE_COMPILER", "THRUST_HOST_COMPILER"):
                thrust[n] = g.entry(cn, n, kind="macro", note="rocThrust keeps the Thrust macro")
            else:
                continue  # other THRUST_ macros are configuration internals rocThrust mirrors or ignores
    cub["cub/cub.cuh"] = {**cub.get("cub/cub.cuh", {}), "hip": "hipcub/hipcub.hpp", "kind": "header"}
    write_toml("cub", "CUB -> hipCUB: namespace cub -> hipcub, every cub/ header -> hipcub/hipcub.hpp, CUB_ macros.", cub)
    write_toml("thrust", "Thrust stays Thrust (rocThrust keeps the header paths); the CUDA system becomes HIP's.", thrust)
    write_toml("libcudacxx", "libcu++ (cuda::std, <cuda/...>): HIP has no equivalent; every use gets a warning.", cxx)


def gen_fp8(g: Gen) -> None:
    names = read_cuda_names("fp8")
    out = {}
    for cn in names.values():
        n = cn.name
        if cn.kind == "header":
            note = "" if n in HEADER_TARGETS else f"included by {n.replace('.hpp', '.h')}"
            if n == "cuda_fp8.h":
                note = "HIP >= 6.2; for older HIP, hipport's include directory has a hip/hip_fp8.h (hipport/fp8.h)"
            out[n] = g.entry(cn, HEADER_TARGETS.get(n, ("", ""))[0], kind="header", note=note)
            if n == "cuda_fp4.h":
                out[n]["hip_added"] = "7.0.0"  # hipport has no fallback for it
            continue
        hip = FP8_TYPES.get(n) or FP4_TYPES.get(n, "")
        if not hip and n.startswith("__nv_") and (n[5:] in FP8_FUNCS or n[5:] in FP4_FUNCS):
            hip = "__hip_" + n[5:]
        note = ""
        if n in ("__nv_fp8_e4m3", "__nv_fp8_e5m2", "__NV_E4M3", "__NV_E5M2") or "e4m3" in n or "e5m2" in n:
            note = "OCP FP8 (NVIDIA's encoding); hipify-clang's _fnuz types are a different format (gfx94x)"
        if not hip:
            note = "no HIP equivalent (e8m0 / scale types)" if "e8m0" in n else "no HIP equivalent"
        out[n] = g.entry(cn, hip, kind=_kind(cn), note=note)
    write_toml("fp8", "cuda_fp8.h -> hip/hip_fp8.h (HIP >= 6.2; OCP FP8 types), cuda_fp4.h -> hip/hip_fp4.h (HIP >= 7.0).", out)


def gen_cufile(g: Gen) -> None:
    """cuFile -> hipFile.  hipFile spells cuFile's CU_FILE_* / CUFILE_* values in camel case with
    its own capitals (CU_FILE_IO_NOT_SUPPORTED -> hipFileIONotSupported), so a name's candidate is
    the hipFile declaration that equals it ignoring case and underscores, CUDA -> Hip."""
    names = read_cuda_names("cufile")
    src = ("bindings:hipfile",)
    norm: dict[str, list[str]] = {}
    for d in g.decls.get("bindings:hipfile", ()):
        norm.setdefault(d.replace("_", "").lower(), []).append(d)
    out = {}
    for cn in names.values():
        n = cn.name
        if cn.kind == "header" or _is_internal(n) or n in ("CUFILEOP_STATUS_ENTRIES", "CUFILE_OP"):
            continue  # the X-macro that declares the status codes
        hip = HIPFILE_ALIASES.get(n, "")
        if not hip and re.sub(r"^CU_?FILE_", "HIPFILE_", n) in HIPFILE_MACROS:
            hip = re.sub(r"^CU_?FILE_", "HIPFILE_", n)
        if not hip:
            rest = re.sub(r"^(?:CU_FILE_|CUFILE_|CUfile|CUFile|cuFile|cufile)", "", n).replace("CUDA", "HIP")
            found = norm.get(("hipfile" + rest).replace("_", "").lower(), [])
            hip = found[0] if len(found) == 1 else ""
        ok = hip in HIPFILE_MACROS or g.has(hip, *src)
        note = ""
        if n == "cufileop_status_error":
            note = "hipify-clang writes hipFileOpStatusError, which hipFile does not declare"
        elif not ok:
            note = "no hipFile equivalent"
        out[n] = g.entry(cn, hip if ok else "", kind=_kind(cn), note=note)
    out.update(header_rules(g, names, ("cufile.h",)))
    write_toml("cufile", "cuFile (GPUDirect Storage) -> hipFile.", out)


def gen_cutensor(g: Gen) -> None:
    names = read_cuda_names("cutensor")
    src = ("bindings:hiptensor",)
    versions = ("CUTENSOR_MAJOR", "CUTENSOR_MINOR", "CUTENSOR_PATCH", "CUTENSOR_VERSION")
    out = {}
    for cn in names.values():
        n = cn.name
        if cn.kind == "header" or _is_internal(n) or n == "CUTENSOR_EXTERN":
            continue  # (the export-attribute macro)
        cand = HIPTENSOR_ALIASES.get(n) or (n.replace("cutensor", "hiptensor", 1) if n.startswith("cutensor")
                                            else n.replace("CUTENSOR", "HIPTENSOR", 1))
        ok = g.has(cand, *src)
        note = ""
        if not ok:
            if n.startswith(("cutensorMg", "CUTENSORMG", "CUTENSOR_MG")):
                note = "cuTENSORMg (multi-GPU) has no hipTensor equivalent"
            elif n.startswith(("cutensorMp", "CUTENSORMP")):
                note = "cuTENSORMp (multi-process) has no hipTensor equivalent"
            elif "BlockSparse" in n or "BLOCKSPARSE" in n:
                note = "block-sparse tensors: no hipTensor equivalent"
            elif n in versions:
                note = "cuTENSOR's own version; hipTensor's is HIPTENSOR_MAJOR_VERSION/_MINOR_VERSION/_PATCH_VERSION"
            else:
                note = "no hipTensor equivalent"
        e = g.entry(cn, cand if ok else "", kind=_kind(cn), note=note)
        if cn.removed:
            # last declared by cuTENSOR 1.7 (our cu11 snapshot): cuTENSOR 2.0 removed it, whatever the CUDA release
            e.pop("cuda_removed", None)
            e["note"] = "cuTENSOR 1.x API, removed in cuTENSOR 2.0" + (f"; {note}" if note else "")
        out[n] = e
    heads = header_rules(g, names, ("cutensor.h", "cutensorMg.h", "cutensor/types.h", "cutensorMp.h", "cutensorMp/types.h"),
                         "cuTENSORMp (multi-process) has no hipTensor equivalent")
    if "cutensor/types.h" in heads and not heads["cutensor/types.h"].get("hip"):
        heads["cutensor/types.h"]["note"] = "included by cutensor.h; include hiptensor.h"
    if heads.get("cutensorMg.h", {}).get("hip"):
        heads["cutensorMg.h"]["note"] = "as hipify-clang maps it; the cuTENSORMg API itself has no hipTensor equivalent"
    out.update(heads)
    write_toml("cutensor", "cuTENSOR 2.x (and 1.x names) -> hipTensor.", out)


def gen_cusparselt(g: Gen) -> None:
    names = read_cuda_names("cusparselt")
    src = ("bindings:hipsparselt",)
    out = {}
    for cn in names.values():
        n = cn.name
        if cn.kind == "header" or _is_internal(n) or n == "CUSPARSELT_HEADER_":
            continue  # (the include guard)
        cand = HIPSPARSELT_ALIASES.get(n) or (n.replace("cusparseLt", "hipsparseLt", 1) if n.startswith("cusparseLt")
                                              else n.replace("CUSPARSELT_", "HIPSPARSELT_", 1))
        ok = g.has(cand, *src)
        note = ""
        if not ok:
            if n.startswith(("cusparseLtGetErrorName", "cusparseLtGetErrorString")):
                note = ("no hipSPARSELt equivalent; hipSPARSELt returns hipsparseStatus_t: closest "
                        + n.replace("cusparseLt", "hipsparse", 1))
            elif n.startswith(("CUSPARSELT_VER", "CUSPARSELT_VERSION")):
                note = "cuSPARSELt's own version; hipSPARSELt: hipsparseLtGetVersion"
            else:
                note = "no hipSPARSELt equivalent"
        out[n] = g.entry(cn, cand if ok else "", kind=_kind(cn), note=note)
    heads = header_rules(g, names, ("cusparseLt.h", "cusparseLt_cusparse_stub.h"), "included by cusparseLt.h")
    if heads.get("cusparseLt.h", {}).get("hip"):
        heads["cusparseLt.h"]["note"] = ("hipify-clang's spelling; hipSPARSELt installs the header as "
                                         "hipsparselt/hipsparselt.h (lower case)")
    out.update(heads)
    write_toml("cusparselt", "cuSPARSELt -> hipSPARSELt.", out)


def cmd_generate() -> None:
    g = Gen()
    for fn in (gen_cublas, gen_curand, gen_cusparse, gen_cusolver, gen_cufft, gen_cudnn, gen_nccl, gen_nvtx, gen_cccl, gen_fp8,
               gen_cufile, gen_cutensor, gen_cusparselt):
        fn(g)
    for stem in FILES:
        text = (RULES / f"{stem}.toml").read_text()
        print(f"{stem}: {text.count(' = {')} rules")


def main(argv: list[str]) -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    ex = sub.add_parser("extract", help="download NVIDIA wheels, write tools/data/libraries/*.txt")
    ex.add_argument("--wheels", type=Path, help="keep/reuse wheels in this folder")
    ex.add_argument("libs", nargs="*", help=f"only these ({', '.join(LIBRARIES)}, fp8)")
    sub.add_parser("generate", help="write hipport/rules/<lib>.toml from the lists and AMD's declarations")
    args = ap.parse_args(argv)
    if args.cmd == "extract":
        cmd_extract(args.wheels, tuple(args.libs))
    else:
        cmd_generate()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
