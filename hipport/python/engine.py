"""Run the HT rules over one file: decode, prefilter, parse, check, place, suppress, fix.

Pipeline (the design's "one pipeline", Python front end):

1. decode by BOM / PEP 263 cookie — undecodable bytes give one HP000 error, never a crash;
2. prefilter: a file matching none of the rules' trigger patterns (``codes.TRIGGERS``) is done
   without importing libcst;
3. parse with libcst and resolve scopes (syntax errors → HP000);
4. run the rules whose trigger matched; drop findings on a ROCm-aware branch
   (:mod:`.branches`) and lines with ``# hipport: ignore[HTxxx]``;
5. place each finding by exact byte offset; fixes are :class:`hipport.edits.Edit` objects over
   the original bytes, applied by :func:`hipport.edits.apply_edits` (never by re-rendering).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hipport.diagnostics import Diagnostic, DiagnosticSink, line_suppressions, suppressed
from hipport.edits import Edit, OverlappingEditsError, apply_edits
from hipport.python.codes import PARSE_ERROR, PARSE_ERROR_SEVERITY, TRIGGERS
from hipport.python.source import SourceError, decode
from hipport import lazy_re

_TRIGGERS = {code: [lazy_re.compile(p.lower()) for p in patterns] for code, patterns in TRIGGERS.items()}


@dataclass
class Outcome:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    edits: list[tuple[Diagnostic, Edit]] = field(default_factory=list)


def rocm_guards(config) -> tuple[str, ...]:
    value = getattr(config, "rocm_guards", ()) if config is not None else ()
    if isinstance(value, str):
        value = (value,)
    return tuple(str(v) for v in value or ())


def triggered(data: bytes) -> list[str]:
    """Codes whose trigger pattern occurs in *data* (the rules that could fire)."""
    lowered = data.lower()  # patterns are lower-case; faster than re.IGNORECASE on bytes
    return [code for code, patterns in _TRIGGERS.items() if all(p.search(lowered) for p in patterns)]


def analyse(data: bytes, path: str, config=None, *, codes: list[str] | None = None) -> Outcome:
    """Diagnostics (suppressions applied) and the edits of their fixes, for one file."""
    sink = DiagnosticSink(path, data)
    outcome = Outcome(sink.items)
    try:
        decoded = decode(data)
    except SourceError as exc:
        sink.add(PARSE_ERROR, f"{exc}", exc.offset, severity=PARSE_ERROR_SEVERITY)
        return outcome
    active = triggered(data) if codes is None else codes
    if not active:
        return outcome
    from hipport.python.context import FileContext
    from hipport.python.rules import RULES

    try:
        ctx = FileContext(data, path, decoded, rocm_guards=rocm_guards(config))
    except SourceError as exc:
        sink.add(PARSE_ERROR, str(exc), exc.offset, severity=PARSE_ERROR_SEVERITY)
        return outcome
    findings = []
    for code in active:
        rule = RULES.get(code)
        if rule is not None:
            findings.extend(rule.check(ctx))
    seen: set[tuple[str, int]] = set()
    suppressions = line_suppressions(data)
    for finding in findings:
        if ctx.guards.is_guarded(finding.node):
            continue
        span = ctx.span(finding.node)
        start = span[0] if span is not None else ctx.offset(finding.node)
        end = span[1] if span is not None else start
        if (finding.code, start) in seen:
            continue
        seen.add((finding.code, start))
        fix_text = None
        if finding.edit is not None:
            fix_text = finding.edit.text.decode(decoded.encoding, "replace")
        diag = sink.add(finding.code, finding.message, start, end=end, hint=finding.hint, fix=fix_text)
        if suppressions and suppressed(diag, suppressions):
            sink.items.pop()
            continue
        if finding.edit is not None:
            outcome.edits.append((diag, finding.edit))
    sink.items.sort(key=lambda d: (d.offset, d.code))
    return outcome


def fix(data: bytes, path: str, config=None) -> tuple[bytes, list[Diagnostic]]:
    """Apply every safe fix; return the new bytes and what remains to be reported.

    Fixes whose spans overlap are applied first-come (by offset); the rest stay as diagnostics.
    The result is re-checked: what is reported is what the *fixed* file still contains, and a
    fix that produced unparseable code (a bug) is rolled back rather than written.
    """
    outcome = analyse(data, path, config)
    if not outcome.edits:
        return data, outcome.diagnostics
    chosen: list[Edit] = []
    end = -1
    for _diag, edit in sorted(outcome.edits, key=lambda pair: (pair[1].start, pair[1].end)):
        if edit.start >= end or edit.start == edit.end == end:
            chosen.append(edit)
            end = max(end, edit.end)
    try:
        fixed = apply_edits(data, chosen)
    except OverlappingEditsError:
        return data, outcome.diagnostics
    after = analyse(fixed, path, config)
    if any(d.code == PARSE_ERROR for d in after.diagnostics):
        return data, outcome.diagnostics
    return fixed, after.diagnostics
