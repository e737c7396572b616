#!/usr/bin/env python3
"""Run hipify-style conformance tests (CUDA sources with ``// CHECK:`` comments) against hipport.

Why this exists: hipport's accuracy is measured on a held-out corpus written in the style of
ROCm/HIPIFY's ``tests/unit_tests``.  This harness reproduces how those lit tests are judged, so
that the number we see locally is the number we will be measured by:

* the ``// RUN:`` line names the hipify options (``%hipify_args [N opt1 .. optN] %clang_args
  [clang args]``; older tests put options straight after ``%hipify_args``); they map onto
  :class:`hipport.options.Options` fields (``--roc`` -> ``roc``, ``-D X`` -> ``defines`` ...);
* the translated text is piped through ``sed -Ee 's|//.+|// |g'`` (HIPIFY's ``run_test.sh``),
  which blanks every ``//`` comment, so CHECK comments preserved in the output cannot match
  themselves;
* the result is checked the way LLVM FileCheck does by default: horizontal whitespace runs are
  collapsed to one space in both the patterns and the output; ``CHECK`` matches a substring
  anywhere after the previous match, ``CHECK-NEXT`` on the following line, ``CHECK-SAME`` on the
  same line, ``CHECK-EMPTY`` an empty next line, ``CHECK-NOT`` must not occur between its
  neighbouring positive matches; ``{{regex}}`` and ``[[VAR]]`` / ``[[VAR:regex]]`` are honoured.

FileCheck stops at the first failure; to get a useful *percentage* the harness keeps going: a
positive check that cannot be found is recorded as a mismatch and the search position stays
where it was.  A file *passes* only when every directive is satisfied (what lit would say).

Usage::

    python3 tools/conformance.py /work/conformance/hipify_tests --report /tmp/conf.txt
    python3 tools/conformance.py DIR -k kernel_launch --show 20 --json out.json -j 2

Exit status: 0 when every selected file passes, 1 otherwise, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import os
import re
import shlex
import sys
import time
from pathlib import Path

SUFFIXES = (".cu", ".cuh", ".cpp", ".c", ".hpp", ".h")

# ---------------------------------------------------------------------------------------------
# RUN line parsing
# ---------------------------------------------------------------------------------------------

# hipify-clang flags whose Options field is not simply the flag name with '-' -> '_'.
FLAG_ALIASES = {
    "hip-kernel-execution-syntax": "hip_kernel_execution_syntax",
    "skip-excluded-preprocessor-conditional-blocks": "skip_excluded_preprocessor_conditional_blocks",
    "use-hip-data-types": "use_hip_data_types",
    "default-preprocessor": "default_preprocessor",
}


@dataclasses.dataclass
class RunSpec:
    """What a test's RUN line asks for, independent of hipport's Options class."""

    hipify_flags: list[str]  # e.g. ["--roc", "--experimental"]
    clang_args: list[str]  # everything after %clang_args (and after a literal "--")
    raw: str

    @property
    def defines(self) -> list[str]:
        return _collect(self.clang_args + self.hipify_flags, "-D")

    @property
    def include_dirs(self) -> list[str]:
        return _collect(self.clang_args + self.hipify_flags, "-I")


def _collect(args: list[str], prefix: str) -> list[str]:
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a == prefix and i + 1 < len(args):
            out.append(args[i + 1])
            i += 2
            continue
        if a.startswith(prefix) and len(a) > len(prefix):
            out.append(a[len(prefix) :])
        i += 1
    return out


RUN_RE = re.compile(r"(?:^|[^A-Za-z0-9_-])RUN:(.*)$", re.M)


def parse_run_line(text: str, path: Path) -> RunSpec | None:
    """Return the RUN spec of a test, or None when the file has no RUN line (a helper header)."""
    lines = []
    for m in RUN_RE.finditer(text):
        body = m.group(1).strip()
        lines.append(body)
        if not body.endswith("\\"):
            break
    if not lines:
        return None
    raw = " ".join(ln.rstrip("\\").strip() for ln in lines)
    subst = raw.replace("%s", str(path)).replace("%S", str(path.parent)).replace("%t", "%t")
    try:
        toks = shlex.split(subst)
    except ValueError:
        toks = subst.split()
    flags: list[str] = []
    clang: list[str] = []
    if "%hipify_args" in toks:
        rest = toks[toks.index("%hipify_args") + 1 :]
        if "%clang_args" in rest:
            cut = rest.index("%clang_args")
            before, clang = rest[:cut], rest[cut + 1 :]
        elif "--" in rest:
            cut = rest.index("--")
            before, clang = rest[:cut], rest[cut + 1 :]
        else:
            before, clang = rest, []
        if before and before[0].isdigit():  # newer run_test.sh: count of hipify options that follow
            n = int(before[0])
            flags, spill = before[1 : 1 + n], before[1 + n :]
            clang = spill + clang
        else:
            flags = before
    if "--" in clang:
        i = clang.index("--")
        clang = clang[:i] + clang[i + 1 :]
    return RunSpec(hipify_flags=flags, clang_args=clang, raw=raw)


#: hipify-clang flags that change which files are written, not the translation of the test file.
OUTPUT_ONLY_FLAGS = {"local-headers", "local-headers-recursive"}

#: How main() hands --cuda-path to the worker processes.
CUDA_PATH_VARIABLE = "HIPPORT_CONFORMANCE_CUDA_PATH"


def make_options(spec: RunSpec, path: Path):
    """Build hipport Options for a RUN spec; unknown hipify flags are kept in ``extra``."""
    from hipport.options import Options

    names = {f.name: f for f in dataclasses.fields(Options)}
    kw: dict = {}
    unknown: list[str] = []
    skip_next = False
    for i, flag in enumerate(spec.hipify_flags):
        if skip_next:
            skip_next = False
            continue
        if flag.startswith("-D") or flag.startswith("-I"):
            continue  # collected by RunSpec.defines / include_dirs
        if not flag.startswith("-") or flag == "-":
            unknown.append(flag)
            continue
        # LLVM's command-line parser accepts long options with one dash too (`-roc` == `--roc`).
        name, _, value = flag.lstrip("-").partition("=")
        if name in OUTPUT_ONLY_FLAGS:
            continue
        field = FLAG_ALIASES.get(name, name.replace("-", "_"))
        if field in names and names[field].type in ("bool", bool):
            kw[field] = True
        elif field in names and value:
            kw[field] = value
        else:
            unknown.append(flag)
    incs = [str((path.parent / d).resolve()) if not os.path.isabs(d) else d for d in spec.include_dirs]
    kw["include_dirs"] = tuple([str(path.parent)] + incs)
    kw["defines"] = tuple(spec.defines)
    other = [a for a in spec.clang_args if not (a.startswith("-D") or a.startswith("-I"))]
    kw["clang_args"] = tuple(other)
    cuda = os.environ.get(CUDA_PATH_VARIABLE, "/usr/local/cuda")  # lit's %hipify_args pass --cuda-path
    if "cuda_path" in names and cuda and os.path.isdir(cuda):
        kw["cuda_path"] = cuda
    if unknown:
        kw["extra"] = {"unknown_hipify_flags": tuple(unknown)}
    return Options(**kw), unknown


# ---------------------------------------------------------------------------------------------
# lit.cfg-style exclusions (what ROCm/HIPIFY's tests/lit.cfg drops for a given CUDA version)
# ---------------------------------------------------------------------------------------------

EXCLUDE_ALWAYS = {"cmdparser.hpp", "spatial_batch_norm_op.h", "common_cudnn.h", "inc.h"}
# CUDA >= 12 (lit.cfg) and CUDA > 10 lists, by file name.
EXCLUDE_CUDA_GE_12 = {
    "headers_test_06.cu", "headers_test_07.cu", "headers_test_08.cu", "headers_test_09.cu",
    "tex2dKernel.cpp", "cuSPARSE_11.cu", "cublas_0_based_indexing.cu",
    "cublas_0_based_indexing_rocblas.cu", "cub_01.cu", "cub_02.cu", "cub_03.cu",
    "cusparse2rocsparse_9020_12000.cu", "cusparse2rocsparse_before_12000.cu",
    "cusparse2rocsparse_10010_12000.cu", "cusparse2rocsparse_11010_12000.cu",
    "cusparse2rocsparse_11030_12000.cu", "cusparse2hipsparse_11030_12000.cu",
    "cusparse2rocsparse_before_11000.cu", "cublas2hipblas.cu", "cublas2rocblas.cu",
    "cudnn_convolution_forward.cu", "cuSPARSE_01.cu", "cuSPARSE_02.cu", "cuSPARSE_12.cu",
}
VERSION_SUFFIX_RE = re.compile(r"_(before_)?(\d{4,5})(?:_(\d{4,5}))?(?:_[A-Za-z0-9]+)?$")


def excluded(path: Path, cuda_version: int) -> str | None:
    """Why lit would not run this file for the given CUDA version (e.g. 13000), or None."""
    name = path.name
    if name in EXCLUDE_ALWAYS:
        return "lit.cfg: always excluded"
    if cuda_version >= 12000 and name in EXCLUDE_CUDA_GE_12:
        return "lit.cfg: excluded for CUDA >= 12"
    if "LLVM_8" in name:
        return "older-LLVM variant"
    m = VERSION_SUFFIX_RE.search(path.stem)
    if m:
        before, lo, hi = m.group(1), int(m.group(2)), m.group(3)
        if before and cuda_version >= lo:
            return f"needs CUDA < {lo}"
        if not before and hi is None and cuda_version < lo:
            return f"needs CUDA >= {lo}"
        if not before and hi is not None and not (lo <= cuda_version < int(hi)):
            return f"needs {lo} <= CUDA < {hi}"
    return None


# ---------------------------------------------------------------------------------------------
# FileCheck emulation
# ---------------------------------------------------------------------------------------------

DIRECTIVE_RE = re.compile(r"(?<![A-Za-z0-9_-])CHECK(-NEXT|-NOT|-SAME|-EMPTY|-DAG|-LABEL|-COUNT-\d+)?:")
HWS_RE = re.compile(r"[ \t]+")
SED_COMMENT_RE = re.compile(r"//.+")  # sed -E 's|//.+|// |g' works line by line: '.' stops at \n


@dataclasses.dataclass
class Check:
    kind: str  # CHECK, CHECK-NEXT, CHECK-NOT, ...
    pattern: str  # canonicalised pattern text
    lineno: int  # line in the test file


@dataclasses.dataclass
class Mismatch:
    check: Check
    reason: str
    nearest: str  # nearest actual output line (canonicalised)
    near_lineno: int  # 1-based line in the checked output, 0 if none


@dataclasses.dataclass
class FileResult:
    path: str
    run: str
    flags: list[str]
    total: int = 0  # all directives (positive + NOT)
    matched: int = 0
    positive_total: int = 0
    positive_matched: int = 0
    passed: bool = False
    error: str = ""
    seconds: float = 0.0
    unknown_flags: list[str] = dataclasses.field(default_factory=list)
    mismatches: list[Mismatch] = dataclasses.field(default_factory=list)


def canon(s: str) -> str:
    return HWS_RE.sub(" ", s)


def parse_checks(text: str) -> list[Check]:
    checks = []
    for lineno, line in enumerate(text.splitlines(), 1):
        m = DIRECTIVE_RE.search(line)
        if not m:
            continue
        kind = "CHECK" + (m.group(1) or "")
        pat = line[m.end() :].strip(" \t\r")
        checks.append(Check(kind=kind, pattern=canon(pat), lineno=lineno))
    return checks


def sed_strip_comments(text: str) -> str:
    """Exactly run_test.sh's ``sed -Ee 's|//.+|// |g'``."""
    return "\n".join(SED_COMMENT_RE.sub("// ", ln) for ln in text.split("\n"))


def pattern_regex(pat: str, variables: dict[str, str]) -> re.Pattern:
    """Translate a FileCheck pattern (literal text, {{regex}}, [[VAR]], [[VAR:regex]])."""
    out = []
    i = 0
    while i < len(pat):
        if pat.startswith("{{", i):
            j = pat.find("}}", i + 2)
            if j < 0:
                out.append(re.escape(pat[i:]))
                break
            out.append("(?:" + pat[i + 2 : j] + ")")
            i = j + 2
        elif pat.startswith("[[", i):
            j = pat.find("]]", i + 2)
            if j < 0:
                out.append(re.escape(pat[i:]))
                break
            body = pat[i + 2 : j]
            if ":" in body:
                name, rx = body.split(":", 1)
                out.append(f"(?P<{name.strip()}>{rx})")
            else:
                out.append(re.escape(variables.get(body.strip(), "\x00undefined\x00")))
            i = j + 2
        else:
            nxt = min([k for k in (pat.find("{{", i), pat.find("[[", i)) if k >= 0] or [len(pat)])
            out.append(re.escape(pat[i:nxt]))
            i = nxt
    return re.compile("".join(out), re.M)


class Buffer:
    """The checked output with fast offset -> line lookups."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.lines = text.split("\n")

    def line_of(self, offset: int) -> int:
        import bisect

        return bisect.bisect_right(self.starts, offset) - 1  # 0-based

    def line_start(self, idx: int) -> int:
        return self.starts[idx] if idx < len(self.starts) else len(self.text)


def nearest_line(buf: Buffer, pat: str, around: int, window: int = 40) -> tuple[str, int]:
    """The output line most similar to a pattern among the lines from ``around`` on.

    Only lines at or after the search position are considered: an identical line *before* it
    (already consumed by an earlier check) would hide the real difference."""
    lo, hi = max(0, around), min(len(buf.lines), around + window)
    best, best_i, best_score = "", -1, 0.0
    key = pat.replace("{{", "").replace("}}", "")
    for i in range(lo, hi):
        ln = buf.lines[i].strip()
        if not ln or ln == "//":
            continue
        sm = difflib.SequenceMatcher(None, key, ln, autojunk=False)
        if sm.real_quick_ratio() < best_score or sm.quick_ratio() < best_score:
            continue
        r = sm.ratio()
        if r > best_score:
            best, best_i, best_score = ln, i, r
    return best, best_i + 1


def filecheck(checks: list[Check], output: str, result: FileResult) -> None:
    """Judge canonicalised, comment-stripped output against the checks (lenient after failures)."""
    buf = Buffer(canon(output))
    variables: dict[str, str] = {}
    pos = 0  # search offset (end of previous positive match)
    prev_line = -1  # 0-based line of previous positive match (-1: none yet)
    pending_not: list[Check] = []
    first_failure = False

    def fail(chk: Check, reason: str, around: int):
        nonlocal first_failure
        first_failure = True
        near, near_no = nearest_line(buf, chk.pattern, around)
        result.mismatches.append(Mismatch(chk, reason, near, near_no))

    def settle_nots(end: int):
        for nc in pending_not:
            rx = pattern_regex(nc.pattern, variables)
            m = rx.search(buf.text, pos, end)
            if m:
                ln = buf.line_of(m.start())
                result.mismatches.append(
                    Mismatch(nc, "CHECK-NOT pattern found", buf.lines[ln].strip(), ln + 1)
                )
            else:
                result.matched += 1
        pending_not.clear()

    for idx, chk in enumerate(checks):
        result.total += 1
        if chk.kind == "CHECK-NOT":
            pending_not.append(chk)
            continue
        result.positive_total += 1
        rx = pattern_regex(chk.pattern, variables)
        if chk.kind == "CHECK-EMPTY":
            nxt = prev_line + 1
            ok = nxt < len(buf.lines) and buf.lines[nxt].strip() == ""
            if ok:
                settle_nots(buf.line_start(nxt))
                result.matched += 1
                result.positive_matched += 1
                prev_line, pos = nxt, buf.line_start(nxt)
            else:
                fail(chk, "expected an empty line", prev_line + 1)
            continue
        if chk.kind == "CHECK-SAME":
            end = buf.line_start(prev_line + 1) if prev_line >= 0 else len(buf.text)
            m = rx.search(buf.text, pos, end)
        elif chk.kind == "CHECK-NEXT":
            start = buf.line_start(prev_line + 1)
            end = buf.line_start(prev_line + 2)
            m = rx.search(buf.text, max(pos, start), end)
        elif chk.kind.startswith("CHECK-COUNT-"):
            n = int(chk.kind.rsplit("-", 1)[1])
            m, p = None, pos
            for _ in range(n):
                m = rx.search(buf.text, p)
                if not m:
                    break
                p = m.end()
        else:
            m = rx.search(buf.text, pos)
        if not m:
            reason = {"CHECK-NEXT": "not found on the next line", "CHECK-SAME": "not found on the same line"}
            around = prev_line if chk.kind == "CHECK-SAME" else prev_line + 1
            fail(chk, reason.get(chk.kind, "not found after the previous match"), max(around, 0))
            # Resynchronise so one wrong line costs one line, not a cascade through the
            # CHECK-NEXT block that follows it: if the next directive is a CHECK-NEXT, place the
            # failed line just before the first match of that directive; otherwise a failed
            # CHECK-NEXT is taken to occupy the next line.
            follow = checks[idx + 1] if idx + 1 < len(checks) else None
            target = None
            if follow is not None and follow.kind == "CHECK-NEXT":
                fm = pattern_regex(follow.pattern, variables).search(buf.text, pos)
                if fm:
                    target = buf.line_of(fm.start()) - 1
            if target is None and chk.kind == "CHECK-NEXT":
                target = prev_line + 1
            if target is not None and prev_line < target < len(buf.lines):
                # the line standing where the expected one should be is the best "actual" to show
                if buf.lines[target].strip() not in ("", "//"):
                    result.mismatches[-1].nearest = buf.lines[target].strip()
                    result.mismatches[-1].near_lineno = target + 1
                prev_line = target
                pos = buf.line_start(prev_line) + len(buf.lines[prev_line])
            continue
        settle_nots(m.start())
        variables.update({k: v for k, v in m.groupdict().items() if v is not None})
        result.matched += 1
        result.positive_matched += 1
        pos = m.end()
        prev_line = buf.line_of(m.end() - 1 if m.end() > m.start() else m.start())
    settle_nots(len(buf.text))
    result.passed = not result.mismatches and result.total > 0


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------


def translate(text: str, path: Path, options) -> str:
    import hipport

    res = hipport.translate_source(text, path=str(path), options=options)
    return res.text


def run_one(path_str: str) -> FileResult:
    path = Path(path_str)
    raw = path.read_bytes()
    text = raw.decode("utf-8", errors="surrogateescape")
    spec = parse_run_line(text, path)
    res = FileResult(path=path_str, run=spec.raw if spec else "", flags=spec.hipify_flags if spec else [])
    checks = parse_checks(text)
    t0 = time.perf_counter()
    try:
        options, res.unknown_flags = make_options(spec, path)
        out = translate(text, path, options)
    except Exception as exc:  # report, keep going: one broken file must not stop the run
        res.error = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        res.total = len(checks)
        res.positive_total = sum(1 for c in checks if c.kind != "CHECK-NOT")
        res.mismatches = [Mismatch(c, "translator raised", "", 0) for c in checks]
        res.seconds = time.perf_counter() - t0
        return res
    res.seconds = time.perf_counter() - t0
    filecheck(checks, sed_strip_comments(out), res)
    return res


def discover(root: Path, cuda_version: int, include_all: bool, select: list[str]) -> tuple[list[Path], dict]:
    tests, skipped = [], {}
    for p in sorted(root.rglob("*")):
        if not p.is_file() or p.suffix not in SUFFIXES:
            continue
        rel = str(p.relative_to(root))
        if select and not any(s in rel for s in select):
            continue
        head = p.read_bytes()[:4096].decode("utf-8", errors="replace")
        if "RUN:" not in head:
            continue  # helper headers included by tests
        why = None if include_all else excluded(p, cuda_version)
        if why:
            skipped[rel] = why
            continue
        tests.append(p)
    return tests, skipped


def summarize(results: list[FileResult]) -> dict:
    tot = sum(r.total for r in results)
    mat = sum(r.matched for r in results)
    ptot = sum(r.positive_total for r in results)
    pmat = sum(r.positive_matched for r in results)
    return {
        "files": len(results),
        "files_passed": sum(r.passed for r in results),
        "lines": tot,
        "lines_matched": mat,
        "percent": round(100.0 * mat / tot, 2) if tot else 0.0,
        "positive_lines": ptot,
        "positive_matched": pmat,
        "positive_percent": round(100.0 * pmat / ptot, 2) if ptot else 0.0,
        "errors": sum(1 for r in results if r.error),
        "seconds": round(sum(r.seconds for r in results), 2),
    }


IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def classify(mm: Mismatch) -> str:
    """A short guess at why a check failed, from the expected line and the nearest output line.

    Identifier differences usually mean a missing or different rename (`rename cudaX -> hipX`);
    the other buckets name the engine behaviours the corpus exercises most."""
    exp, near = mm.check.pattern, mm.nearest
    if mm.reason == "translator raised":
        return "translator error"
    if mm.check.kind == "CHECK-NOT":
        return "CHECK-NOT violated: " + ("include not removed" if "#include" in exp else "unexpected text")
    if not near:
        return "no similar output line"
    if "#include" in exp:
        return "include: expected " + exp.split("#include", 1)[1].strip()
    if "dim3(dim3(" in near:
        return "launch: dim3(...) argument wrapped twice"
    if "hipLaunchKernelGGL" in exp and "hipLaunchKernelGGL" not in near:
        return "launch: not rewritten"
    if "HIP_KERNEL_NAME" in exp and "HIP_KERNEL_NAME" not in near:
        return "launch: HIP_KERNEL_NAME missing"
    if "HIP_SYMBOL" in exp and "HIP_SYMBOL" not in near:
        return "arg rewrite: HIP_SYMBOL missing"
    if "reinterpret_cast" in exp and "reinterpret_cast" not in near:
        return "arg rewrite: reinterpret_cast missing"
    e_ids, n_ids = IDENT_RE.findall(exp), IDENT_RE.findall(near)
    gone = [t for t in n_ids if t not in e_ids]
    new = [t for t in e_ids if t not in n_ids]
    if gone and new and len(gone) == len(new):
        return "name: " + ", ".join(f"got {a} want {b}" for a, b in zip(gone, new))
    if gone and not new:
        return "extra tokens: " + " ".join(gone[:4])
    if new and not gone:
        return "missing tokens: " + " ".join(new[:4])
    return "other"


def cause_table(results: list[FileResult]) -> list[tuple[str, int, int]]:
    """(cause, mismatches, files) sorted by mismatches."""
    from collections import Counter, defaultdict

    count: Counter = Counter()
    files: dict = defaultdict(set)
    for r in results:
        for mm in r.mismatches:
            c = classify(mm)
            count[c] += 1
            files[c].add(r.path)
    return [(c, n, len(files[c])) for c, n in count.most_common()]


def write_report(results: list[FileResult], root: Path, summary: dict, skipped: dict, path: Path, show: int) -> None:
    out = []
    s = summary
    out.append(
        f"conformance: {s['files_passed']}/{s['files']} files whole, "
        f"{s['lines_matched']}/{s['lines']} expected lines ({s['percent']}%), "
        f"positive checks {s['positive_matched']}/{s['positive_lines']} ({s['positive_percent']}%), "
        f"{s['errors']} translator errors, {s['seconds']} s"
    )
    out.append("")
    out.append("per file (worst first):")
    for r in sorted(results, key=lambda r: (r.passed, r.matched / r.total if r.total else 1)):
        rel = os.path.relpath(r.path, root)
        pct = 100.0 * r.matched / r.total if r.total else 0.0
        flag = "PASS" if r.passed else "FAIL"
        extra = f"  ERROR {r.error}" if r.error else ""
        unk = f"  unknown-flags={r.unknown_flags}" if r.unknown_flags else ""
        out.append(f"  {flag} {pct:6.2f}% {r.matched:5d}/{r.total:<5d} {r.seconds:6.2f}s  {rel}  {' '.join(r.flags)}{unk}{extra}")
    if skipped:
        out.append("")
        out.append("skipped (lit.cfg-style exclusions):")
        for rel, why in sorted(skipped.items()):
            out.append(f"  {rel}: {why}")
    out.append("")
    out.append("probable causes (mismatches, files):")
    for cause, n, nf in cause_table(results):
        out.append(f"  {n:5d} {nf:4d}  {cause}")
    out.append("")
    out.append("mismatches:")
    for r in results:
        if not r.mismatches:
            continue
        rel = os.path.relpath(r.path, root)
        out.append(f"== {rel} ({len(r.mismatches)} mismatches)")
        for mm in r.mismatches[: show if show > 0 else None]:
            out.append(f"  {rel}:{mm.check.lineno}: {mm.check.kind}: {mm.reason}")
            out.append(f"    expected: {mm.check.pattern}")
            if mm.nearest:
                out.append(f"    nearest : {mm.nearest}   (output line {mm.near_lineno})")
        if show > 0 and len(r.mismatches) > show:
            out.append(f"  ... {len(r.mismatches) - show} more")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", type=Path, help="directory of hipify-style tests")
    ap.add_argument("-k", action="append", default=[], help="only files whose relative path contains this")
    ap.add_argument("--report", type=Path, help="write the text report here")
    ap.add_argument("--json", type=Path, help="write machine-readable results here")
    ap.add_argument("--show", type=int, default=0, help="mismatches per file in the report (0 = all)")
    ap.add_argument("--cuda-version", type=int, default=13000, help="CUDA_VERSION for lit-style exclusions")
    ap.add_argument("--all", action="store_true", help="ignore lit-style exclusions")
    ap.add_argument("--cuda-path", default="/usr/local/cuda",
                    help="toolkit passed to hipport as lit's %%hipify_args pass it ('' for none: no toolkit known)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="processes")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)
    if not args.root.is_dir():
        print(f"{args.root}: error: not a directory", file=sys.stderr)
        return 2
    root = args.root.resolve()
    os.environ[CUDA_PATH_VARIABLE] = args.cuda_path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    tests, skipped = discover(root, args.cuda_version, args.all, args.k)
    if not tests:
        print(f"{root}: error: no tests found", file=sys.stderr)
        return 2
    paths = [str(p) for p in tests]
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(args.jobs) as ex:
            results = list(ex.map(run_one, paths))
    else:
        results = []
        for p in paths:
            results.append(run_one(p))
            if not args.quiet:
                r = results[-1]
                print(f"{'PASS' if r.passed else 'FAIL'} {r.matched}/{r.total} {os.path.relpath(p, root)}"
                      + (f"  ERROR {r.error}" if r.error else ""), flush=True)
    summary = summarize(results)
    if args.report:
        write_report(results, root, summary, skipped, args.report, args.show)
    if args.json:
        data = {
            "summary": summary,
            "skipped": skipped,
            "files": [
                {
                    "path": os.path.relpath(r.path, root),
                    "passed": r.passed,
                    "total": r.total,
                    "matched": r.matched,
                    "flags": r.flags,
                    "error": r.error,
                    "seconds": round(r.seconds, 3),
                    "mismatches": [
                        {"line": m.check.lineno, "kind": m.check.kind, "expected": m.check.pattern,
                         "reason": m.reason, "nearest": m.nearest, "nearest_line": m.near_lineno}
                        for m in r.mismatches
                    ],
                }
                for r in results
            ],
        }
        args.json.write_text(json.dumps(data, indent=1), encoding="utf-8")
    s = summary
    print(
        f"conformance: {s['files_passed']}/{s['files']} files whole, {s['lines_matched']}/{s['lines']} "
        f"expected lines ({s['percent']}%), {s['errors']} errors, {len(skipped)} skipped"
    )
    return 0 if s["files_passed"] == s["files"] else 1


if __name__ == "__main__":
    sys.exit(main())
