"""Diagnostics: what every front end reports, with stable codes, and how it is rendered.

A diagnostic is placed by byte offset in the original file; line and column are computed from
it (columns count bytes, as compilers do).  Codes are registered in :data:`CODES` so that their
meaning and default severity live in one place and ``--select``/``--ignore`` can be checked.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import asdict, dataclass, field

ERROR, WARNING, INFO = "error", "warning", "note"


@dataclass(frozen=True)
class Code:
    code: str
    title: str
    severity: str = WARNING


CODES: dict[str, Code] = {}


def register(code: str, title: str, severity: str = WARNING) -> Code:
    """Register a stable diagnostic code; registering the same code twice must agree."""
    entry = Code(code, title, severity)
    existing = CODES.get(code)
    if existing is not None and existing != entry:
        raise ValueError(f"diagnostic code {code} registered twice with different meanings")
    CODES[code] = entry
    return entry


# Codes of the translator itself (HP = hipport).  Other front ends register their own.
register("HP000", "file could not be read or translated", ERROR)
register("HP001", "CUDA API has no HIP equivalent; left unchanged")
register("HP002", "CUDA API is experimental in HIP; translated only with --experimental")
register("HP003", "CUDA API is deprecated")
register("HP004", "CUDA API was removed from CUDA")
register("HP005", "CUDA header has no HIP equivalent")
register("HP006", "an argument HIP has no parameter for was dropped")
register("HP007", "call arguments rewritten for a target with other parameters")
register("HP008", "the HIP name is newer than the HIP release the output is for")
register("HP010", "warp size assumed to be 32 (AMD wavefronts have 64 lanes)")
register("HP011", "32-bit lane mask (AMD needs 64 bits)")
register("HP012", "warpSize is not a constant expression on HIP")
register("HP013", "inline PTX assembly cannot be translated")
register("HP014", "texture reference API was removed; use texture objects")
register("HP015", "__CUDA_ARCH__ value check; HIP device code defines __HIP_DEVICE_COMPILE__")
register("HP016", "__launch_bounds__ second argument means something else on HIP")
register("HP017", "cudaMemoryType value compared with a literal; HIP's enumerators differ")
register("HP018", "kernel launch could not be parsed; left unchanged")
register("HP019", "the file defines what HIP already provides (an atomic, a <stdint.h> type); kept for CUDA only", INFO)
register("HP020", "CUDA names assembled by token pasting are not translated")
register("HP021", "an overload on a CUDA driver type HIP merges with its runtime twin is left out", INFO)
register("HP022", "kernel launched from device code (dynamic parallelism): HIP has no device-side launch")
register("HP023", "integer arithmetic on a CUdeviceptr or texture/surface object, which HIP types as pointers")
register("HP024", "CUDA_VERSION / CUDART_VERSION used as a value in code; HIP defines neither")
register("HP025", "a vector-type compound assignment HIP's vector types define is kept for CUDA only", INFO)
register("HP026", "a complex-arithmetic operator on a vector type clashes with HIP's component-wise one")
register("HP027", "a union holding a vector type gets a copy assignment HIP's vector types would delete", INFO)
register("HP029", "a half2 member read through a macro is the raw bits in HIP, not a half")
register("HP028", "the file declares a name HIP's headers declare; the two collide after translation")
register("HP030", "runtime-compiled program text or options (strings) keep their CUDA spelling")
register("HP031", "several CUDA device attributes (one per dimension) become one HIP attribute")
register("HP032", "a cuRAND state made in host code; hipRAND's states have device-only constructors")
register("HP033", "a system-scope atomic, atomic with the host on AMD only on fine-grained memory with PCIe atomics")


@dataclass
class Diagnostic:
    code: str
    message: str
    path: str = ""
    line: int = 0
    column: int = 0
    severity: str = WARNING
    hint: str = ""
    fix: str | None = None  # replacement text of the fix, when one exists
    offset: int = -1  # byte offset in the original file (not rendered)
    end_offset: int = -1

    def to_dict(self) -> dict:
        data = asdict(self)
        data.pop("offset")
        data.pop("end_offset")
        return data

    def format(self) -> str:
        text = f"{self.path}:{self.line}:{self.column}: {self.severity}: {self.message} [{self.code}]"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class LineIndex:
    """Byte offset → (line, column), both 1-based, for one file."""

    def __init__(self, data: bytes):
        starts = [0]
        find = data.find
        pos = find(b"\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find(b"\n", pos + 1)
        self.starts = starts

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


@dataclass
class DiagnosticSink:
    """Collects diagnostics for one file and places them by offset."""

    path: str
    data: bytes
    items: list[Diagnostic] = field(default_factory=list)
    _index: LineIndex | None = None

    def add(self, code: str, message: str, offset: int, *, end: int = -1, hint: str = "",
            fix: str | None = None, severity: str | None = None) -> Diagnostic:
        if self._index is None:
            self._index = LineIndex(self.data)
        line, column = self._index.position(offset)
        diag = Diagnostic(code, message, self.path, line, column,
                          severity or CODES[code].severity if code in CODES else WARNING,
                          hint, fix, offset, end if end >= 0 else offset)
        self.items.append(diag)
        return diag


def line_suppressions(data: bytes, marker: bytes = b"hipport: ignore") -> dict[int, frozenset[str] | None]:
    """Lines carrying ``hipport: ignore[CODE,...]`` (None = every code), 1-based."""
    result: dict[int, frozenset[str] | None] = {}
    pos = data.find(marker)
    while pos != -1:
        line = data.count(b"\n", 0, pos) + 1
        rest = data[pos + len(marker):pos + len(marker) + 200]
        if rest.startswith(b"["):
            close = rest.find(b"]")
            codes = rest[1:close].decode("ascii", "replace") if close > 0 else ""
            result[line] = frozenset(c.strip() for c in codes.split(",") if c.strip())
        else:
            result[line] = None
        pos = data.find(marker, pos + 1)
    return result


def suppressed(diag: Diagnostic, suppressions: dict[int, frozenset[str] | None]) -> bool:
    if diag.line not in suppressions:
        return False
    codes = suppressions[diag.line]
    return codes is None or diag.code in codes


# ---------------------------------------------------------------- renderers

def render_json(diags: list[Diagnostic]) -> str:
    import json  # only the --format json/sarif paths pay for it

    return json.dumps([d.to_dict() for d in diags], indent=2)


def render_github(diags: list[Diagnostic]) -> str:
    level = {ERROR: "error", WARNING: "warning", INFO: "notice"}

    def esc(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    return "\n".join(
        f"::{level.get(d.severity, 'warning')} file={d.path},line={d.line},col={d.column},"
        f"title={d.code}::{esc(d.message + (' (' + d.hint + ')' if d.hint else ''))}"
        for d in diags
    )


def render_sarif(diags: list[Diagnostic], tool_version: str = "") -> str:
    level = {ERROR: "error", WARNING: "warning", INFO: "note"}
    used = sorted({d.code for d in diags})
    rules = [
        {
            "id": code,
            "shortDescription": {"text": CODES[code].title if code in CODES else code},
            "defaultConfiguration": {"level": level.get(CODES[code].severity, "warning") if code in CODES else "warning"},
        }
        for code in used
    ]
    results = []
    for d in diags:
        result = {
            "ruleId": d.code,
            "ruleIndex": used.index(d.code),
            "level": level.get(d.severity, "warning"),
            "message": {"text": d.message + (f" Hint: {d.hint}" if d.hint else "")},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": {"uri": d.path.replace("\\", "/")},
                    "region": {"startLine": max(d.line, 1), "startColumn": max(d.column, 1)},
                }
            }],
        }
        results.append(result)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "hipport", "version": tool_version or "0",
                                "informationUri": "https://github.com/hipport/hipport", "rules": rules}},
            "results": results,
        }],
    }
    import json

    return json.dumps(doc, indent=2)


def render_text(diags: list[Diagnostic], sources: dict[str, bytes] | None = None) -> str:
    """Compiler-style lines; with *sources*, a one-line code frame and caret under each."""
    out = []
    for d in diags:
        out.append(f"{d.path}:{d.line}:{d.column}: {d.severity}: {d.message} [{d.code}]")
        data = sources.get(d.path) if sources else None
        if data is not None and d.line > 0:
            lines = data.split(b"\n")
            if d.line <= len(lines):
                src = lines[d.line - 1].rstrip(b"\r").decode("utf-8", "replace")
                out.append(f"  {d.line:>5} | {src}")
                out.append(f"        | {' ' * max(d.column - 1, 0)}^")
        if d.hint:
            out.append(f"  hint: {d.hint}")
    return "\n".join(out)
