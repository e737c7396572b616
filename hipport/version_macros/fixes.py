"""HV001 fixes: state what ROCm does, by inserting text around the CUDA version test only.

The *version test* T is the smallest part of the condition that holds every CUDA version
reference; inside an ``&&`` or ``||`` chain it is the run of operands from the first one that
mentions a CUDA macro to the last.  The policies rewrite T in the documented forms:

- ``exclude-rocm``          ``T && !defined(USE_ROCM)``
- ``include-rocm``          ``(T) || defined(USE_ROCM)``
- ``include-rocm-since=N``  ``(T) || (defined(USE_ROCM) && ROCM_VERSION >= N)``

"Include ROCm" means ROCm takes the branch of the newer CUDA: a condition that holds for old CUDA
only (``CUDA_VERSION < 9000``, the fallback of a ``>= 9000`` branch) gets the exclude form, so that
ROCm does not see both branches (two definitions of one overload, cuda-kat's builtins).

With ``USE_ROCM`` undefined each form equals T, so CUDA builds are unchanged whatever the rest
of the condition is.  Text is only ever *inserted* before and after T (plus parentheses where
precedence needs them), so comments, spacing and continuations survive.  Every result is
re-analysed; where the "since" form would still leave a bare CUDA comparison deciding on old
ROCm (``CUDA_VERSION >= 12000`` without ``defined(CUDA_VERSION)``), the stricter
``(T && !defined(USE_ROCM)) || (defined(USE_ROCM) && ROCM_VERSION >= N)`` is used instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hipport.edits import Edit, apply_edits

from .expr import ConditionError, Node, parse, precedence
from .guards import DEFAULT_GUARDS, Context, GuardSet, rocm_dependence

POLICIES = ("exclude-rocm", "include-rocm", "include-rocm-since=N")
AND_PREC, OR_PREC = 2, 1


@dataclass(frozen=True)
class Policy:
    kind: str  # exclude | include | since
    since: int = 0

    def __str__(self):
        return {"exclude": "exclude-rocm", "include": "include-rocm"}.get(
            self.kind, f"include-rocm-since={self.since}")


def parse_policy(text: str) -> Policy:
    """``exclude-rocm``, ``include-rocm`` or ``include-rocm-since=N`` (N as 60200 or 6.2[.x])."""
    text = text.strip()
    if text == "exclude-rocm":
        return Policy("exclude")
    if text == "include-rocm":
        return Policy("include")
    m = re.fullmatch(r"include-rocm-since=(\d+)(?:\.(\d+)(?:\.(\d+))?)?", text)
    if m:
        if m.group(2) is None:
            return Policy("since", int(m.group(1)))
        major, minor, patch = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
        return Policy("since", major * 10000 + minor * 100 + patch)
    raise ValueError(f"unknown version-guard policy {text!r}; expected one of: {', '.join(POLICIES)}")


@dataclass
class VersionTest:
    start: int
    end: int
    prec: float  # precedence of T's top operator
    slot: str  # root | paren | and | or | tight: where T sits


def _flatten(node: Node, op: bytes) -> list[Node]:
    if node.kind == "binary" and node.op == op:
        return _flatten(node.args[0], op) + _flatten(node.args[1], op)
    return [node]


def _refs(node: Node, names) -> int:
    return sum(1 for n in node.walk() if n.kind in ("id", "defined") and n.value in names)


def find_version_test(root: Node, guards: GuardSet = DEFAULT_GUARDS) -> VersionTest | None:
    total = _refs(root, guards.cuda_versions)
    if not total:
        return None
    node, slot = root, "root"
    while True:
        if node.kind == "binary" and node.op in (b"&&", b"||"):
            parts = _flatten(node, node.op)
            counts = [_refs(p, guards.cuda_versions) for p in parts]
            hit = [i for i, c in enumerate(counts) if c]
            i0, i1 = hit[0], hit[-1]
            chain_slot = "and" if node.op == b"&&" else "or"
            if i0 == i1:
                node, slot = parts[i0], chain_slot
                continue
            if (i0, i1) != (0, len(parts) - 1):
                return VersionTest(parts[i0].start, parts[i1].end, BINARY_PREC[node.op], chain_slot)
            return VersionTest(node.start, node.end, precedence(node), slot)
        # descend only where the child is itself a truth value: (), !, a ?: condition
        if node.kind == "paren" or (node.kind == "unary" and node.op == b"!"):
            children = node.args
        elif node.kind == "ternary":
            children = node.args[:1]
        else:
            children = ()
        inner = [a for a in children if _refs(a, guards.cuda_versions) == total]
        if not inner:
            return VersionTest(node.start, node.end, precedence(node), slot)
        node, slot = inner[0], ("paren" if node.kind == "paren" else "tight")


BINARY_PREC = {b"&&": AND_PREC, b"||": OR_PREC}


def _forms(t: VersionTest, policy: Policy, guard: str, version_macro: str, strict: bool):
    """(prefix, suffix) to insert before and after T."""
    if policy.kind == "exclude" or strict:
        pre, post = ("", "") if t.prec >= AND_PREC else ("(", ")")
        pre, post = pre, post + f" && !defined({guard})"
        if policy.kind == "exclude":
            if t.slot in ("or", "tight"):
                pre, post = "(" + pre, post + ")"
            return pre, post
        pre, post = "(" + pre, post + ")"  # strict "since": (T && !defined(G)) || (...)
    else:
        pre, post = ("(", ")") if (t.prec == AND_PREC or t.prec < OR_PREC) else ("", "")
    if policy.kind == "include":
        post += f" || defined({guard})"
    else:
        post += f" || (defined({guard}) && {version_macro} >= {policy.since})"
    if t.slot not in ("root", "paren", "or"):
        pre, post = "(" + pre, post + ")"
    return pre, post


def fix_condition(data: bytes, start: int, end: int, root: Node, context: Context, policy: Policy,
                  guards: GuardSet = DEFAULT_GUARDS, guard: str = "USE_ROCM",
                  version_macro: str = "ROCM_VERSION") -> tuple[list[Edit], Node] | None:
    """Edits (absolute offsets) rewriting the condition in data[start:end], and the new node.

    None when the condition has no CUDA version test or no form makes it safe.
    """
    t = find_version_test(root, guards)
    if t is None:
        return None
    body = data[start:end]
    if policy.kind != "exclude" and _only_old_cuda(data, start, end, guards):
        # `CUDA_VERSION < 9000` picks the old path: including ROCm is taking the new one
        policy = Policy("exclude")
    # The documented "since" form ``(T) || (defined(G) && R)`` means "ROCm from N" only when T
    # is false on ROCm, i.e. false with the CUDA macros undefined (``!defined(CUDA_VERSION)``
    # is not); otherwise only the strict form says what the policy says.
    strict_only = policy.kind == "since" and not _false_without_cuda(data, t, guards)
    for strict in ((True,) if strict_only else (False, True)):
        pre, post = _forms(t, policy, guard, version_macro, strict)
        edits = [Edit(t.start, t.start, pre.encode(), "HV001"), Edit(t.end, t.end, post.encode(), "HV001")]
        edits = [e for e in edits if e.text]
        local = [Edit(e.start - start, e.end - start, e.text, e.rule) for e in edits]
        new_body = apply_edits(body, local)
        try:
            new_node = parse(new_body, 0, len(new_body))
        except ConditionError:  # pragma: no cover - forms are always valid expressions
            continue
        if rocm_dependence(new_node, context, guards) is None:
            return edits, new_node
        if policy.kind != "since":
            break
    return None


def _only_old_cuda(data: bytes, start: int, end: int, guards: GuardSet) -> bool:
    """Does the condition hold for old CUDA only (`__CUDACC_VER_MAJOR__ < 9`, the fallback of a
    `>= 9` branch): false with every CUDA version macro at a huge value, true at a small one, and
    decided by the version macros alone?"""
    from .expr import EvalError, compile_node

    try:
        node = parse(data, start, end)
    except ConditionError:  # pragma: no cover - T is always a whole subexpression
        return False
    names = {n.value for n in node.walk() if n.kind in ("id", "defined")}
    versions = names & guards.cuda_versions
    if not versions or names - versions:
        return False  # other names decide too: not a plain version bound
    f = compile_node(node)
    try:
        return not f({n: 10**9 for n in versions}) and bool(f({n: 1 for n in versions}))
    except EvalError:
        return False


def _false_without_cuda(data: bytes, t: VersionTest, guards: GuardSet) -> bool:
    """Whether T is 0 whenever the CUDA version macros are undefined, whatever the others are."""
    from .guards import assignments, sample_values

    try:
        node = parse(data, t.start, t.end)
    except ConditionError:  # pragma: no cover - T is always a whole subexpression
        return False
    from .expr import EvalError, compile_node

    f = compile_node(node)
    samples = sample_values([node])
    others = {n.value for n in node.walk() if n.kind in ("id", "defined", "opaque")} - guards.cuda_versions
    space = {name: [None, *samples] for name in others}
    for env in assignments(space, 4000, seed=5):
        try:
            if f(env):
                return False
        except EvalError:
            continue
    return True
