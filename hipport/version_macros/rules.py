"""The rules HV001–HV004 over one file's bytes.

Cheap byte searches decide first whether a rule can fire at all, so the usual file (no version
checks) costs one regex pass; directives are scanned only when a version name occurs, and code
tokens only when a ``*GetVersion`` call or a HIP version macro outside ``#if`` may matter.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache

from hipport.diagnostics import DiagnosticSink, LineIndex, line_suppressions

from .conditionals import ConditionalMap, Site
from .expr import COMPARISONS, Node, parse_integer
from .fixes import Policy, find_version_test, fix_condition, parse_policy
from .guards import GuardSet, reachable_on_rocm, rocm_dependence
from hipport import lazy_re

CUDA_VERSION_FUNCS = frozenset({"cudaRuntimeGetVersion", "cudaDriverGetVersion", "cuDriverGetVersion"})
HIP_VERSION_FUNCS = frozenset({"hipRuntimeGetVersion", "hipDriverGetVersion"})
HIP_SCALE_MACROS = frozenset({"HIP_VERSION", "ROCM_VERSION", "TORCH_HIP_VERSION"})

_VERSION_WORDS = rb"VERSION|_VER_|GetVersion"


@lru_cache(maxsize=16)
def _prefilter(guards: GuardSet) -> re.Pattern:
    """A file none of whose bytes match this has nothing for any rule."""
    extra = sorted(m for m in guards.cuda_versions if not re.search(_VERSION_WORDS.decode(), m))
    return re.compile(b"|".join([_VERSION_WORDS, *(re.escape(m.encode()) for m in extra)]))


HV001_HINT = ("state the ROCm case: `T && !defined(USE_ROCM)` (not for ROCm), `(T) || defined(USE_ROCM)` "
              "(also for ROCm) or `(T) || (defined(USE_ROCM) && ROCM_VERSION >= N)`; "
              "`hipport lint --fix --policy exclude-rocm|include-rocm|include-rocm-since=N` rewrites it "
              "(`hipport translate --version-guards …` while translating)")


@dataclass
class Settings:
    """What the rules need from a LintConfig (or defaults when there is none)."""

    guards: GuardSet
    guard: str = "USE_ROCM"
    version_macro: str = "ROCM_VERSION"
    policy: Policy | None = None

    @classmethod
    def from_config(cls, config, policy: str | None = None) -> "Settings":
        guards = GuardSet.from_config(config)
        guard = getattr(config, "fix_guard", None) or "USE_ROCM"
        macro = getattr(config, "rocm_version_macro", None) or "ROCM_VERSION"
        text = policy or getattr(config, "policy", None) or "exclude-rocm"
        return cls(guards, guard, macro, parse_policy(text))


_COMMENT = lazy_re.compile(rb"/\*.*?\*/|//[^\n]*|\\\r?\n", re.S)


def _text(data: bytes, start: int, end: int) -> str:
    """The condition as one line, without comments or continuations (for messages)."""
    return " ".join(_COMMENT.sub(b" ", data[start:end]).decode("utf-8", "replace").split())


def _bare(tokens, tok) -> bool:
    """Whether an operand is just *tok*, perhaps in parentheses."""
    return [t for t in tokens if t.text not in (b"(", b")")] == [tok]


@dataclass
class FileResult:
    sink: DiagnosticSink
    edits: list = field(default_factory=list)


def _suppressed(sup: dict, first: int, last: int, code: str) -> bool:
    for line in range(first, last + 1):
        if line in sup:
            codes = sup[line]
            if codes is None or code in codes:
                return True
    return False


def analyse(data: bytes, path: str, settings: Settings, *, fix: bool = False) -> FileResult:
    """Diagnostics (and, with *fix*, HV001 fix edits under settings.policy) for one file."""
    result = FileResult(DiagnosticSink(path, data))
    if not _prefilter(settings.guards).search(data):
        return result
    sup = line_suppressions(data) if b"hipport: ignore" in data else {}
    cmap = ConditionalMap(data)
    guards = settings.guards
    for site in cmap.sites:
        if site.node is None:
            continue
        _check_hv001(data, site, settings, sup, result, fix)
        _check_scales_directive(data, site, settings, sup, result)
    if _outside_conditions(data, cmap):
        _check_code(data, cmap, guards, sup, result)
        _check_defines(data, cmap, settings, sup, result)
    result.sink.items.sort(key=lambda d: (d.offset, d.code))
    return result


_CODE_WORDS = lazy_re.compile(rb"GetVersion|\b(?:HIP_VERSION|ROCM_VERSION|TORCH_HIP_VERSION)\b")


def _outside_conditions(data: bytes, cmap: ConditionalMap) -> bool:
    """Whether a name the code rules look for occurs outside ``#if`` lines (tokenising the code
    is the expensive part, and most files mention HIP_VERSION only in conditions)."""
    spans = [(s.directive.hash, s.directive.end) for s in cmap.sites]
    starts = [a for a, _ in spans]
    for m in _CODE_WORDS.finditer(data):
        i = bisect_right(starts, m.start()) - 1
        if i < 0 or m.start() >= spans[i][1]:
            return True
    return False


@lru_cache(maxsize=1)
def _line_index(data: bytes) -> LineIndex:
    """One index per file (bytes cache their hash, so the lookup is cheap after the first)."""
    return LineIndex(data)


def _line_of(data: bytes, offset: int) -> int:
    return _line_index(data).position(offset)[0]


def _lines(data: bytes, site: Site) -> tuple[int, int]:
    return _line_of(data, site.directive.hash), _line_of(data, site.directive.end)


def _check_hv001(data, site: Site, settings: Settings, sup, result: FileResult, fix: bool):
    guards = settings.guards
    node = site.node
    if not any(n.kind in ("id", "defined") and n.value in guards.cuda_versions for n in node.walk()):
        return
    d = site.directive
    if d.name in (b"ifndef", b"elifndef") and _defines_next(data, d.end, node.value):
        return  # ``#ifndef X`` / ``#define X ...``: supplies a default, does not test a version
    context = site.context()
    witness = rocm_dependence(node, context, guards)
    if witness is None:
        return
    first, last = _lines(data, site)
    if _suppressed(sup, first, last, "HV001"):
        return
    fixed = _fix(data, site, context, settings)
    test = find_version_test(node, guards) if d.name in (b"if", b"elif") else None
    cuda = sorted({n.value for n in node.walk() if n.kind in ("id", "defined") and n.value in guards.cuda_versions})
    versions = {k: v for k, v in witness.items() if k in guards.rocm_versions and v is not None}
    where = (" (e.g. with " + ", ".join(f"{k}={v}" for k, v in sorted(versions.items())) + ")") if versions else ""
    start = test.start if test is not None else node.start
    message = (f"`{_text(data, d.body_start, d.end)}` tests {', '.join(cuda)} without saying what ROCm "
               f"builds do: ROCm builds get the CUDA macro's value, usually undefined (0), so they take the "
               f"branch of a CUDA without that version{where}")
    fix_text = None
    if fixed is not None:
        edits, new_node = fixed
        fix_text = _fixed_text(data, d, edits)
        if fix:
            result.edits.extend(edits)
            # later contexts see the fixed condition (an #ifndef becomes a plain #if)
            site.node, site.negated = new_node, False
            return
    result.sink.add("HV001", message, start, end=node.end, hint=HV001_HINT, fix=fix_text)


def _defines_next(data: bytes, pos: int, name: str) -> bool:
    """Whether the first directive after *pos* (comments and blank lines allowed) defines *name*."""
    pattern = _DEFINE_NEXT.get(name)
    if pattern is None:
        pattern = _DEFINE_NEXT[name] = re.compile(
            rb"\s*(?:(?://[^\n]*|/\*.*?\*/)\s*)*#[ \t]*define[ \t]+" + re.escape(name.encode()) + rb"\b", re.S)
    return pattern.match(data, pos) is not None


_DEFINE_NEXT: dict[str, re.Pattern] = {}


def _fixed_text(data: bytes, d, edits) -> str:
    from hipport.edits import apply_edits

    local = [e._replace(start=e.start - d.name_start, end=e.end - d.name_start) for e in edits]
    return apply_edits(data[d.name_start:d.end], local).decode("utf-8", "replace").rstrip("\r")


def _fix(data: bytes, site: Site, context, settings: Settings):
    """(edits, new node) under settings.policy, or None."""
    d = site.directive
    policy = settings.policy
    if d.name in (b"if", b"elif"):
        out = fix_condition(data, d.body_start, d.end, site.node, context, policy,
                            settings.guards, settings.guard, settings.version_macro)
        return out  # (edits, the fixed condition parsed)
    # #ifdef X / #ifndef X: rewrite as #if with a synthetic condition, replacing name..macro
    macro = site.node.value
    keyword = b"if" if d.name in (b"ifdef", b"ifndef") else b"elif"
    negate = d.name in (b"ifndef", b"elifndef")
    synthetic = (b"!defined(" if negate else b"defined(") + macro.encode("latin-1") + b")"
    from .expr import parse

    node = parse(synthetic, 0, len(synthetic))
    out = fix_condition(synthetic, 0, len(synthetic), node, context, policy,
                        settings.guards, settings.guard, settings.version_macro)
    if out is None:
        return None
    local_edits, new_node = out
    from hipport.edits import Edit, apply_edits

    new_cond = apply_edits(synthetic, local_edits)
    edit = Edit(d.name_start, site.node.end, keyword + b" " + new_cond, "HV001")
    return [edit], new_node


# ---------------------------------------------------------------- HV003 / HV004

def scale_problem(macro: str, op: bytes, value: int):
    """(code, message) when *macro* is compared with a number on the wrong scale, else None."""
    if macro == "HIP_VERSION":
        if 100 <= value < 1000:
            outcomes = {_cmp(op, probe, value) for probe in (40200000, 99999999)}
            always = (" is always " + ("true" if outcomes == {True} else "false")) if len(outcomes) == 1 else ""
            return ("HV004", f"`HIP_VERSION {op.decode()} {value}` uses the pre-ROCm-4.2 scale "
                             f"(major*100+minor); since ROCm 4.2 HIP_VERSION is major*10^7+minor*10^5+patch, "
                             f"so the check{always} on current ROCm")
        if 1000 <= value < 1000000:
            return ("HV003", f"HIP_VERSION (major*10^7+minor*10^5+patch) compared with {value}, "
                             f"which looks like a CUDA version number")
    elif macro == "ROCM_VERSION":
        if 1000 <= value < 30000:
            return ("HV003", f"ROCM_VERSION (major*10^4+minor*10^2+patch) compared with {value}, "
                             f"which looks like a CUDA version number")
    elif macro == "TORCH_HIP_VERSION":
        if 1000 <= value < 1000000:
            return ("HV003", f"TORCH_HIP_VERSION (major*100+minor) compared with {value}, "
                             f"which looks like a CUDA version number")
    return None


def _cmp(op: bytes, a: int, b: int) -> bool:
    return {b"==": a == b, b"!=": a != b, b"<": a < b, b">": a > b, b"<=": a <= b, b">=": a >= b}[op]


_FLIP = {b"<": b">", b">": b"<", b"<=": b">=", b">=": b"<=", b"==": b"==", b"!=": b"!="}


def _strip(node: Node) -> Node:
    while node.kind == "paren":
        node = node.args[0]
    return node


def _check_scales_directive(data, site: Site, settings: Settings, sup, result: FileResult):
    _check_scales(data, site.node, site.context(), _lines(data, site), settings, sup, result)


def _check_scales(data, node: Node, context, lines, settings: Settings, sup, result: FileResult):
    """HV003/HV004 in one expression (an ``#if`` condition or a ``#define`` body)."""
    guards = settings.guards
    if not any(n.kind == "id" and n.value in HIP_SCALE_MACROS for n in node.walk()):
        return
    if not reachable_on_rocm(context, guards):
        return
    first, last = lines
    for n in node.walk():
        if n.kind != "binary" or n.op not in COMPARISONS:
            continue
        left, right = _strip(n.args[0]), _strip(n.args[1])
        for side, other, op in ((left, right, n.op), (right, left, _FLIP[n.op])):
            if side.kind != "id" or side.value not in HIP_SCALE_MACROS:
                continue
            if other.kind == "num":
                value = other.value if other.value < (1 << 63) else other.value - (1 << 64)
                problem = scale_problem(side.value, op, value)
            elif any(m.kind in ("id", "defined") and m.value in guards.cuda_versions for m in other.walk()):
                problem = ("HV003", f"{side.value} compared with a CUDA version macro: the two use "
                                    f"different scales and mean different products")
            else:
                problem = None
            if problem and not _suppressed(sup, first, last, problem[0]):
                result.sink.add(problem[0], problem[1], n.start, end=n.end,
                                hint="compare HIP_VERSION with HIP_VERSION-scale numbers (6.2 = 60200000) "
                                     "and ROCM_VERSION with major*10000+minor*100 (6.2 = 60200)")


_DEFINE_HEAD = lazy_re.compile(rb"[ \t]*[A-Za-z_][A-Za-z0-9_]*(\([^)]*\))?")


def _check_defines(data, cmap: ConditionalMap, settings: Settings, sup, result: FileResult):
    """``#define NEW_HIP (HIP_VERSION >= 403)``: the scale rules on macro bodies that parse as
    conditions (a body that is not an expression is skipped)."""
    from . import scan
    from .expr import ConditionError, parse

    for d in scan.directives(data, frozenset({b"define"})):
        body = data[d.body_start:d.end]
        if b"VERSION" not in body:
            continue
        head = _DEFINE_HEAD.match(data, d.body_start, d.end)
        if head is None:
            continue
        try:
            node = parse(data, head.end(), d.end)
        except ConditionError:
            continue
        first = _line_of(data, d.hash)
        _check_scales(data, node, cmap.context_at(d.hash), (first, first + body.count(b"\n")),
                      settings, sup, result)


# ---------------------------------------------------------------- HV002 (+ HV003/4 in code)

def _number(tokens) -> int | None:
    vals = [t for t in tokens if t.kind == "num"]
    if len(vals) != 1 or any(t.kind == "id" for t in tokens):
        return None
    try:
        value, _ = parse_integer(vals[0].text)
    except ValueError:
        return None
    return value if value < (1 << 63) else value - (1 << 64)


def _code_windows(data: bytes) -> list[tuple[int, int]]:
    """Spans from the top-level ``}`` before each version word to the one after it, merged."""
    spans: list[tuple[int, int]] = []
    for m in _CODE_WORDS.finditer(data):
        start = data.rfind(b"\n}", 0, m.start())
        start = 0 if start == -1 else start + 2
        end = data.find(b"\n}", m.end())
        end = len(data) if end == -1 else end + 2
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            spans.append((start, end))
    return spans


def _check_code(data, cmap: ConditionalMap, guards: GuardSet, sup, result: FileResult):
    from . import code as codeview

    reported = set()

    def add(code, message, tok, hint):
        line = _line_of(data, tok.start)
        if _suppressed(sup, line, line, code) or (code, tok.start) in reported:
            return
        if not reachable_on_rocm(cmap.context_at(tok.start), guards):
            return
        reported.add((code, tok.start))
        result.sink.add(code, message, tok.start, end=tok.end, hint=hint)

    def family_of(scope, t):
        if t.kind != "id":
            return None
        name = t.text.decode("latin-1")
        if name in guards.cuda_versions:
            return "cuda"
        if name in HIP_SCALE_MACROS:
            return "hip"
        entry = families.get((scope, name))
        return entry[0] if entry else None

    # Only the top-level blocks (functions) that mention a version word are tokenized: the
    # data flow never leaves a function, and tokenizing whole multi-MB files dominated run time.
    for w_start, w_end in _code_windows(data):
        toks, scopes = codeview.tokens(data[w_start:w_end])
        for t in toks:
            t.start += w_start
            t.end += w_start
        n = len(toks)
        families: dict[tuple[int, str], tuple[str, str]] = {}  # (scope, var) -> (family, function)
        for i, tok in enumerate(toks):
            if tok.kind != "id":
                continue
            name = tok.text.decode("latin-1")
            scope = scopes[i]
            # a *GetVersion(&var) call fills var
            if name in CUDA_VERSION_FUNCS or name in HIP_VERSION_FUNCS:
                if i + 3 < n and toks[i + 1].text == b"(" and toks[i + 2].text == b"&":
                    j = i + 3
                    var = None
                    while j < n and toks[j].text != b")":
                        if toks[j].kind == "id":
                            var = toks[j].text.decode("latin-1")
                        elif toks[j].text not in (b".", b"->", b"::"):
                            var = None
                            break
                        j += 1
                    if var:
                        families[(scope, var)] = ("cuda" if name in CUDA_VERSION_FUNCS else "hip", name)
                continue
            # copies: ``int b = a;`` carries a's family
            if i + 3 < n and toks[i + 1].text == b"=" and toks[i + 3].text in (b";", b","):
                src = families.get((scope, toks[i + 2].text.decode("latin-1")))
                if src is not None:
                    families[(scope, name)] = src
            entry = families.get((scope, name))
            is_macro = name in HIP_SCALE_MACROS
            if entry is None and not is_macro:
                continue
            found = codeview.comparison(toks, i)
            if found is None:
                continue
            op, mine, other = found
            value = _number(other)
            other_families = {family_of(scope, t) for t in other} - {None}
            if entry is not None:
                family, func = entry
                if value is not None and 1000 <= value <= 99999 and (family == "cuda" or _bare(mine, tok)):
                    if family == "cuda":
                        msg = (f"`{name}` holds the result of {func} and is compared with {value}: on ROCm the "
                               f"call becomes hip{func[len('cuda'):] if func.startswith('cuda') else 'DriverGetVersion'}, "
                               f"which returns HIP's version number, not CUDA's")
                    else:
                        msg = (f"`{name}` holds the result of {func} (HIP's version number, e.g. 60241134) but is "
                               f"compared with {value}, a CUDA-style version")
                    add("HV002", msg, tok, "guard the check with `#ifndef USE_ROCM`, or compare with HIP_VERSION-scale "
                                           "numbers on ROCm")
                elif other_families and family not in other_families:
                    add("HV002", f"`{name}` ({func}) is compared with a {other_families.pop().upper()} version value: "
                                 f"HIP and CUDA version numbers are not comparable", tok,
                        "compare HIP versions with HIP versions and CUDA versions with CUDA versions")
            elif is_macro and _bare(mine, tok):
                problem = None
                if value is not None:
                    flipped = op.text if other and other[0].start > tok.start else _FLIP[op.text]
                    problem = scale_problem(name, flipped, value)
                elif "cuda" in other_families:
                    problem = ("HV003", f"{name} compared with a CUDA version value: the two use different scales")
                if problem:
                    add(problem[0], problem[1], tok, "compare HIP_VERSION with HIP_VERSION-scale numbers "
                                                     "(6.2 = 60200000) and ROCM_VERSION with 60200-style numbers")
