"""Per-file state shared by the translator passes: input, options, rules, and what they collect."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from hipport.diagnostics import DiagnosticSink
from hipport.edits import Edit
from hipport.options import Options
from hipport.rules import RuleSet


@dataclass
class Stats:
    """What a translation did; summed over files by :meth:`merge`."""

    converted: Counter = field(default_factory=Counter)  # "family/kind" -> references
    names: Counter = field(default_factory=Counter)  # CUDA name -> references converted
    unsupported: Counter = field(default_factory=Counter)  # CUDA name -> references left
    libraries: set = field(default_factory=set)  # HIP libraries the output needs to link
    files: int = 0
    lines: int = 0
    bytes: int = 0
    changed_files: int = 0
    seconds: float = 0.0

    def merge(self, other: "Stats") -> None:
        self.converted.update(other.converted)
        self.names.update(other.names)
        self.unsupported.update(other.unsupported)
        self.libraries |= other.libraries
        self.files += other.files
        self.lines += other.lines
        self.bytes += other.bytes
        self.changed_files += other.changed_files
        self.seconds += other.seconds

    @property
    def total_converted(self) -> int:
        return sum(self.converted.values())

    def to_dict(self) -> dict:
        return {
            "files": self.files,
            "changed_files": self.changed_files,
            "lines": self.lines,
            "bytes": self.bytes,
            "seconds": round(self.seconds, 6),
            "converted": dict(sorted(self.converted.items())),
            "converted_total": self.total_converted,
            "unsupported": dict(sorted(self.unsupported.items())),
            "unsupported_total": sum(self.unsupported.values()),
            "names": dict(sorted(self.names.items())),
            "libraries": sorted(self.libraries),
        }


@dataclass
class Context:
    data: bytes
    path: str
    options: Options
    rules: RuleSet
    sink: DiagnosticSink
    stats: Stats
    edits: list[Edit] = field(default_factory=list)
    needs_hip_runtime: bool = False  # the file uses CUDA and must see hip_runtime.h
    extra_includes: list[bytes] = field(default_factory=list)  # e.g. b"hipport/runtime.h"
    extra_lines: list[bytes] = field(default_factory=list)  # directives placed with them (narrowing.py)
    user_entities: set[int] = field(default_factory=set)  # offsets naming the user's own entities
    pasted_arguments: set[bytes] = field(default_factory=set)  # CUDA names kept as a pasting macro's arguments
    resolved_hazards: set[int] = field(default_factory=set)  # hazards the translation fixed (full-mask calls, …)
    translated_asm: set[int] = field(default_factory=set)  # asm statements replaced by HIP intrinsics
    project_headers: list[bytes] | None = None  # texts of the "x.h" it includes (project_headers.py)

    @property
    def newline(self) -> bytes:
        nl = self.data.find(b"\n")
        return b"\r\n" if nl > 0 and self.data[nl - 1:nl] == b"\r" else b"\n"

    def edit(self, start: int, end: int, text: bytes, rule: str) -> None:
        self.edits.append(Edit(start, end, text, rule))
