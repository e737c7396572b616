"""HT002 — ``torch.version.cuda`` deciding "is this a GPU build", or parsed as a number.

On ROCm ``torch.version.cuda`` is ``None`` (``torch.version.hip`` holds the HIP version), so

* a **check** — truthiness (``if torch.version.cuda:``, ``not …``, ``bool(…)``, ``assert …``) or
  ``is None``/``is not None`` — treats a ROCm GPU build as a CPU build.  Fix (when the value is
  spelled as an attribute, e.g. ``T.version.cuda``): also accept HIP —
  ``T.version.cuda or T.version.hip``, ``(… is None and T.version.hip is None)``,
  ``(… is not None or T.version.hip is not None)``;
* **version arithmetic** — ``float(…)``, ``int(…)``, ``packaging.version.parse(…)``/``Version``/
  ``LooseVersion``/``TorchVersion``, any method or subscript on it (``.split('.')``,
  ``.startswith``), ordering or equality with a non-None value, ``in`` — raises or silently
  skips the ROCm build.  No automatic fix: the ROCm branch needs a human decision.

A check whose guarded code itself uses the CUDA version (``if torch.version.cuda: x =
float(torch.version.cuda)``, ``v is not None and v >= '11'``) is a None-guard around a
deliberately CUDA-only version gate: neither it nor the guarded use is reported (it cannot
fail on ROCm).  Checks are reported only where they decide something (conditions of
``if``/``while``/conditional expressions/``assert``/comprehensions); ``IS_CUDA = v is not
None`` may well mean "is NVIDIA" and is left alone.  Values flow through single assignments
(``v = torch.version.cuda`` then ``float(v)``).
"""

from __future__ import annotations

import libcst as cst

from hipport.edits import Edit
from hipport.python.codes import CODES
from hipport.python.context import Finding
from hipport.python.flow import CUDA_VERSION

CODE = "HT002"
TITLE = CODES[CODE][0]
CHECK_MESSAGE = "torch.version.cuda is None on ROCm, so this check treats a ROCm GPU build as a CPU build"
CHECK_HINT = ("also accept torch.version.hip (e.g. `torch.version.cuda or torch.version.hip`), or use "
              "torch.cuda.is_available() to test for a GPU")
PARSE_MESSAGE = ("torch.version.cuda is None on ROCm: parsing or comparing it as a version raises "
                 "or silently skips the ROCm build")
PARSE_HINT = ("branch on torch.version.hip first and decide what the ROCm path needs "
              "(torch.version.hip holds the HIP version, e.g. '6.2.41133')")

_PARSERS = frozenset({"float", "int", "parse", "Version", "LooseVersion", "StrictVersion",
                      "TorchVersion", "parse_version", "VersionInfo"})
_ORDER = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual, cst.Equal, cst.NotEqual)


def _is_none(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _callee_name(ctx, call: cst.Call) -> str:
    func = call.func
    return func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")


def _classify(ctx, node):
    """('parse', site) | ('check', site, positive, comparison-or-None) | None for one use."""
    parent = ctx.parent(node)
    if isinstance(parent, cst.Attribute) and parent.value is node:
        return ("parse", node)
    if isinstance(parent, cst.Subscript) and parent.value is node:
        return ("parse", node)
    if isinstance(parent, cst.Arg):
        call = ctx.parent(parent)
        if isinstance(call, cst.Call) and call.args and call.args[0] is parent:
            name = _callee_name(ctx, call)
            if name in _PARSERS:
                return ("parse", node)
            if name == "bool":
                return ("check", call, True, None)
        return None
    if isinstance(parent, cst.ComparisonTarget):
        comparison = ctx.parent(parent)
        return _comparison(comparison, node, left=False)
    if isinstance(parent, cst.Comparison) and parent.left is node:
        return _comparison(parent, node, left=True)
    if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
        return ("check", node, False, None)
    if isinstance(parent, (cst.If, cst.While, cst.IfExp)) and parent.test is node:
        return ("check", node, True, None)
    if isinstance(parent, cst.Assert) and parent.test is node:
        return ("check", node, True, None)
    if isinstance(parent, cst.BooleanOperation) and _in_test(ctx, parent):
        return ("check", node, True, None)
    return None


def _in_test(ctx, boolop) -> bool:
    """Is this and/or chain itself used as a condition (not as a value like `v or 'cpu'`)?"""
    node = boolop
    parent = ctx.parent(node)
    while isinstance(parent, (cst.BooleanOperation, cst.UnaryOperation)):
        node, parent = parent, ctx.parent(parent)
    return isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.Assert, cst.CompIf)) and parent.test is node


def _in_condition(ctx, site) -> bool:
    node, parent = site, ctx.parent(site)
    while isinstance(parent, (cst.BooleanOperation, cst.UnaryOperation)):
        node, parent = parent, ctx.parent(parent)
    return isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.Assert, cst.CompIf)) and parent.test is node


def _comparison(comparison: cst.Comparison, node, *, left: bool):
    if len(comparison.comparisons) != 1:
        return ("parse", node)
    target = comparison.comparisons[0]
    other = target.comparator if left else comparison.left
    op = target.operator
    if _is_none(other):
        positive = isinstance(op, (cst.IsNot, cst.NotEqual))
        if isinstance(op, (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual)):
            return ("check", comparison, positive, comparison if left else None)
        return None
    if isinstance(op, _ORDER) or isinstance(op, (cst.In, cst.NotIn)):
        return ("parse", node)
    return None


def _guarded_region(ctx, site, positive: bool) -> list[cst.CSTNode]:
    """Code that runs only when the check says 'CUDA version present' (for None-guard detection)."""
    region: list[cst.CSTNode] = []
    child, parent = site, ctx.parent(site)
    while isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
        positive = not positive
        child, parent = parent, ctx.parent(parent)
    while isinstance(parent, cst.BooleanOperation):
        wanted = cst.And if positive else cst.Or
        if isinstance(parent.operator, wanted) and parent.left is child:
            region.append(parent.right)
        child, parent = parent, ctx.parent(parent)
    if isinstance(parent, (cst.If, cst.While)) and parent.test is child:
        if positive:
            region.append(parent.body)
        else:
            if parent.orelse is not None:
                region.append(parent.orelse)
            if isinstance(parent, cst.If) and _ends(parent.body):
                block = ctx.parent(parent)
                body = list(getattr(block, "body", ()))
                if parent in body:
                    region.extend(body[body.index(parent) + 1:])
    elif isinstance(parent, cst.IfExp) and parent.test is child:
        region.append(parent.body if positive else parent.orelse)
    elif isinstance(parent, cst.Assert) and parent.test is child and positive:
        block = ctx.parent(ctx.parent(parent))
        body = list(getattr(block, "body", ()))
        line = ctx.parent(parent)
        if line in body:
            region.extend(body[body.index(line) + 1:])
    return region


def _ends(body) -> bool:
    from hipport.python.branches import _terminates

    return _terminates(body)


def _uses_cuda_version(ctx, region, skip) -> bool:
    """Does *region* parse/compare the CUDA version (which makes the check a None-guard)?"""
    stack = list(region)
    while stack:
        node = stack.pop()
        if node is not skip and isinstance(node, (cst.Name, cst.Attribute)) and ctx.flow.value(node) == CUDA_VERSION:
            kind = _classify(ctx, node)
            if kind is not None and kind[0] == "parse":
                return True
        stack.extend(node.children)
    return False


def _fix(ctx, node, site, comparison, positive=True):
    """Edit that makes the check also accept HIP, or None when it cannot be spelled safely."""
    if not isinstance(node, cst.Attribute) or node.attr.value != "cuda":
        return None
    if not _in_condition(ctx, site):  # `IS_CUDA = v is not None` may mean "is NVIDIA": no fix
        return None
    statement = ctx.parent(site)
    if isinstance(statement, cst.If) and statement.test is site and not positive and _ends(statement.body):
        return None  # `if v is None: return` usually fences off a CUDA-only function: no fix
    base = ctx.source(node.value)
    span = ctx.span(site)
    if base is None or span is None:
        return None
    hip = base + b".hip"
    parent = ctx.parent(site)
    bare = isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.Assert, cst.CompIf)) and parent.test is site
    if comparison is None:
        if site is not node:  # bool(torch.version.cuda)
            return None
        text = ctx.source(node) + b" or " + hip
    else:
        if comparison.left is not node:
            return None
        op = ctx.source(comparison.comparisons[0].operator)
        if op is None:
            return None
        op = b" ".join(op.split())
        joiner = b" or " if isinstance(comparison.comparisons[0].operator, (cst.IsNot, cst.NotEqual)) else b" and "
        text = ctx.source(site) + joiner + hip + b" " + op + b" None"
    if not bare:
        text = b"(" + text + b")"
    return Edit(span[0], span[1], text, CODE)


def check(ctx):
    uses = []
    for node in ctx.nodes("Attribute", "Name"):
        if ctx.flow.value(node) != CUDA_VERSION:
            continue
        parent = ctx.parent(node)
        if isinstance(parent, cst.Attribute) and parent.attr is node:
            continue
        if isinstance(parent, (cst.ImportAlias, cst.AssignTarget)) or parent is None:
            continue
        kind = _classify(ctx, node)
        if kind is not None:
            uses.append((node, kind))
    # regions protected by a None-guard: a version use there cannot fail (and the CUDA-version
    # gate is deliberate), so neither the guard nor the use is reported
    protected: set = set()
    for node, kind in uses:
        if kind[0] == "check":
            region = _guarded_region(ctx, kind[1], kind[2])
            if _uses_cuda_version(ctx, region, node):
                protected.add(kind[1])
                protected.update(region)
    for node, kind in uses:
        if kind[0] == "parse":
            if not any(a in protected for a in ctx.ancestors(node)):
                yield Finding(CODE, node, PARSE_MESSAGE, PARSE_HINT)
            continue
        _, site, positive, comparison = kind
        if site in protected or not _in_condition(ctx, site):
            continue  # a None-guard, or a flag whose meaning ("is NVIDIA"?) is the author's
        yield Finding(CODE, site, CHECK_MESSAGE, CHECK_HINT, _fix(ctx, node, site, comparison, positive))
