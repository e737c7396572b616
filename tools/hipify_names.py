#!/usr/bin/env python3
"""Maintainer script: record which name hipify-clang writes for each CUDA name, as data.

Why: users switch from hipify-clang by changing the program name, and accuracy is measured on
hipify-style tests, so where HIP offers two spellings (``CU_JIT_MAX_REGISTERS`` →
``HIPRTC_JIT_MAX_REGISTERS`` or ``hipJitOptionMaxRegisters``) or where an oracle lags, hipport
should write what hipify-clang writes.  hipify-clang's synthetic tests pair every mapping as a
``// CHECK: <hip line>`` above the ``<cuda line>``; this script aligns the two token by token and
keeps the identifier pairs.

``extract DIR`` reads a local checkout of hipify's ``tests/unit_tests`` (never committed) and
writes ``tools/data/hipify-names.tsv``: CUDA name, target, which target it is (``hip``, ``roc``
under ``--roc``, ``miopen`` under ``--miopen``), and whether the test needed ``--amap`` or
``--experimental``.  The rule generators read that table through :func:`preferred` and take a
name from it only as a *candidate*: AMD's declarations still decide whether it is supported
(``tools/gen_core_rules.py``, ``tools/gen_library_rules.py``).

Usage::

    python3 tools/hipify_names.py extract /path/to/HIPIFY/tests/unit_tests
"""

from __future__ import annotations

import collections
import functools
import re
import sys
from pathlib import Path

TABLE = Path(__file__).resolve().parent / "data" / "hipify-names.tsv"
_DIRECTIVE = re.compile(r"(?<![A-Za-z0-9_-])CHECK(-NEXT|-NOT|-SAME|-EMPTY|-DAG|-LABEL)?:")
_TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|\S")
_CUDA_NAME = re.compile(r"^(?:cu|CU|cuda|CUDA|nvrtc|NVRTC|curand|CURAND|cublas|CUBLAS|cusparse|CUSPARSE|"
                        r"cusolver|CUSOLVER|cufft|CUFFT|cudnn|CUDNN|cub|nccl|NCCL|nvtx|__nv|__cuda|make_cu|"
                        r"csr|bsr|prune|syevj|gesvdj|__[a-z]+_sync)")
_SUFFIXES = (".cu", ".cuh", ".cpp", ".hpp", ".h", ".c")


def _run_flags(text: str) -> set[str]:
    m = re.search(r"RUN:(.*)", text)
    return {"--" + f.lstrip("-") for f in re.findall(r"--?[a-z][\w-]*", m.group(1))} if m else set()


def pairs_of(text: str):
    """(cuda, target) identifier pairs from CHECK blocks and the code lines under them."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if not _DIRECTIVE.search(lines[i]) or "RUN:" in lines[i]:
            i += 1
            continue
        block = []
        while i < len(lines) and _DIRECTIVE.search(lines[i]):
            m = _DIRECTIVE.search(lines[i])
            if m.group(1) in (None, "-NEXT"):
                block.append(lines[i][m.end():].strip())
            i += 1
        code = []
        j = i
        while j < len(lines) and len(code) < len(block):
            s = lines[j].strip()
            if _DIRECTIVE.search(lines[j]):
                break
            if s and not s.startswith("//"):
                code.append(s)
            j += 1
        for want, have in zip(block, code):
            if "{{" in want or "[[" in want or want.lstrip().startswith("#include"):
                continue  # header names are rules of their own
            a, b = _TOKEN.findall(have), _TOKEN.findall(want)
            if len(a) != len(b):
                continue
            changed = [(x, y) for x, y in zip(a, b) if x != y]
            # a misaligned pair (an #if between CHECK and code) differs in the user's own names too
            if all(_CUDA_NAME.match(x) and re.match(r"[A-Za-z_]\w*$", y) for x, y in changed):
                yield from changed


def _likeness(cuda: str, target: str) -> float:
    import difflib

    strip = re.compile(r"^_*(?:cuda|cu|hip|roc|miopen|nv)_?", re.I)
    return difflib.SequenceMatcher(None, strip.sub("", cuda).lower(), strip.sub("", target).lower()).ratio()


def extract(root: Path) -> str:
    votes: dict[tuple[str, str], collections.Counter] = collections.defaultdict(collections.Counter)
    needs: dict[tuple[str, str, str], set[str]] = collections.defaultdict(set)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from conformance import excluded  # the lit.cfg rules: tests written for older toolkits disagree

    paths = sorted(p for p in root.rglob("*") if p.suffix in _SUFFIXES)
    # the tests lit runs against CUDA 13 first; those written for older toolkits only fill in
    # names the current ones do not show (cuBLAS's legacy-API test holds most of rocBLAS's table)
    for current in (True, False):
        seen = set(votes)
        for path in paths:
            if (excluded(path, 13000) is None) != current:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            flags = _run_flags(text)
            which = "miopen" if "--miopen" in flags else "roc" if "--roc" in flags else "hip"
            if "--use-hip-data-types" in flags:
                which = "hip_type" if which == "hip" else which
            gate = "amap" if "--amap" in flags else "experimental" if "--experimental" in flags else ""
            for cuda, target in set(pairs_of(text)):  # one vote a file: a big synthetic test is one opinion
                if not current and (cuda, which) in seen:
                    continue
                votes[(cuda, which)][target] += 1
                needs[(cuda, which, target)].add(gate)
    rows = ["# cuda\ttarget\twhich\tgate  (generated by tools/hipify_names.py extract; "
            "which: hip, roc, miopen, hip_type; gate: the least a test passed to get it)"]
    for (cuda, which), counter in sorted(votes.items()):
        # ties (one test each) go to the spelling closest to the CUDA name: a pair from a
        # misaligned block (an if/else chain between CHECK and code) is the odd one out
        target = max(counter, key=lambda t: (counter[t], _likeness(cuda, t)))
        gates = needs[(cuda, which, target)]
        gate = "" if "" in gates else "experimental" if "experimental" in gates else "amap"
        rows.append(f"{cuda}\t{target}\t{which}\t{gate}")
    return "\n".join(rows) + "\n"


@functools.lru_cache(maxsize=1)
def table() -> dict[tuple[str, str], tuple[str, str]]:
    """(cuda, which) -> (target, gate); empty when the table has not been extracted."""
    out = {}
    if TABLE.exists():
        for line in TABLE.read_text(encoding="utf-8").splitlines():
            if line.startswith("#") or not line.strip():
                continue
            cuda, target, which, gate = (line.split("\t") + [""])[:4]
            out[(cuda, which)] = (target, gate)
    return out


#: hipify-clang spellings hipport does not copy, with the reason
NOT_COPIED = {
    ("CUSPARSE_ORDER_COL", "roc"): "hipify-clang writes rocsparse_order_row: the other layout",
    ("CUSPARSE_ORDER_ROW", "roc"): "hipify-clang writes rocsparse_order_column: the other layout",
    # hipify-clang's cuBLAS test shows rocblas_bfloat16; the translator writes it only for the
    # buffers of a host-only cuBLAS file (passes/rename.py), not for bf16 device code elsewhere
    ("__nv_bfloat16", "roc"): "rocBLAS's bf16 type, written only where buffers go to rocBLAS",
    # the table's older spelling: the runtime function takes hipMemcpy3DParms*, not the driver's
    # HIP_MEMCPY3D; current hipify-clang (driver_functions_before_13000.cu) writes hipDrv*
    ("cuGraphMemcpyNodeGetParams", "hip"): "hipGraphMemcpyNodeGetParams takes the runtime's parameter struct",
    ("cuGraphMemcpyNodeSetParams", "hip"): "hipGraphMemcpyNodeSetParams takes the runtime's parameter struct",
}


def preferred(rules: dict[str, dict], declared, fields: tuple[str, ...] = ("hip", "roc", "miopen"),
              compatible=lambda cuda, target: True, spelled=lambda target: None) -> None:
    """Adopt hipify-clang's spelling for names *rules* already has.

    *declared(name)* says whether AMD's declarations on this image have a name.  A HIP target
    hipify-clang writes that AMD does not declare replaces hipport's only where hipport has none
    or marks the name unsupported: the rule is then experimental (unsupported when hipify itself
    needed --amap), so it translates with --experimental / --amap exactly as hipify-clang does.
    ``--roc`` / ``--miopen`` targets (rocBLAS, rocSOLVER, MIOpen: no declarations here) are taken
    where hipport has no own target for that option.  *compatible(cuda, target)* vetoes a
    target whose call would not compile (another parameter count).  *spelled(target)* names the
    declared spelling of a target hipify-clang writes in another case
    (``hipDeviceAttributeMaxBlocksPerMultiprocessor`` for AMD's ``...MultiProcessor``), which is
    then taken instead: it compiles.
    """
    names = table()
    for name, entry in rules.items():
        if entry.get("kind") == "header":
            continue
        for field in fields:
            got = names.get((name, field))
            if got is None and field == "hip" and not entry.get("hip_type"):
                # a test run with --use-hip-data-types shows the plain HIP name of everything
                # that is not a data type
                got = names.get((name, "hip_type"))
            if got is None or (name, field) in NOT_COPIED:
                continue
            target, gate = got
            own = entry.get(field, "")
            effective = own or ("" if field == "hip" else entry.get("hip", ""))
            if target in (effective, name) or not compatible(name, target):
                continue
            unsupported = entry.get("status") == "unsupported"
            if field != "hip":
                if declared(target) or not own:
                    entry[field] = target
                continue
            note = entry.get("note", "")
            if declared(target):
                entry["hip"] = target
                if unsupported or entry.get("status") == "experimental":
                    entry.pop("status", None)
                    note = ""
                if effective and not unsupported:
                    note = f"hipify-clang's spelling; AMD also declares {effective}" + ("; " + note if note else "")
                entry["note"] = note
            elif (unsupported or not effective) and spelled(target):
                entry["hip"] = spelled(target)
                entry.pop("status", None)
                entry["note"] = f"AMD's spelling; hipify-clang writes {target}, which AMD does not declare"
            elif unsupported or not effective:
                entry["hip"] = target
                entry["status"] = "unsupported" if gate == "amap" else "experimental"
                entry["note"] = (f"hipify-clang writes {target}, which AMD's declarations on this image lack; "
                                 + ("translated with --amap" if gate == "amap" else "translated with --experimental")
                                 + ("; " + note if note else ""))
            if not entry.get("note"):
                entry.pop("note", None)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "extract":
        print(__doc__.split("Usage::")[1], file=sys.stderr)
        return 2
    TABLE.write_text(extract(Path(argv[1])), encoding="utf-8")
    print(f"wrote {TABLE} ({sum(1 for _ in TABLE.open()) - 1} names)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
