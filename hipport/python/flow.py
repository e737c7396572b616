"""Simple data flow: what a local name holds, when it is assigned exactly once.

``major, minor = torch.cuda.get_device_capability()`` then ``if major >= 8:`` must be seen as a
compute-capability gate, and ``v = torch.version.cuda`` then ``float(v)`` as parsing the CUDA
version.  The analysis is deliberately small: a name is followed to its assignment only when
libcst's scope analysis finds exactly one assignment for it (in its own scope or an enclosing
one) and that assignment is a plain ``name = expr`` or a tuple unpacking.  Anything else
(reassignment, augmented assignment, loop targets, parameters) is "unknown", which makes rules
quiet rather than wrong.

Values are small tags (see ``Value``); rules ask ``ctx.flow.value(expr)``.
"""

from __future__ import annotations

from typing import Optional, Tuple, Union

import libcst as cst


# tag names
CUDA_VERSION = "cuda_version"  # torch.version.cuda
HIP_VERSION = "hip_version"  # torch.version.hip
CAPABILITY = "capability"  # torch.cuda.get_device_capability(...) → (major, minor)
CAP_PART = "cap_part"  # major / minor / major*10+minor
PROPS = "props"  # torch.cuda.get_device_properties(...)
CUDNN_VERSION = "cudnn_version"  # torch.backends.cudnn.version() (and arithmetic on it)
FFT_CACHE = "fft_cache"  # torch.backends.cuda.cufft_plan_cache (or one device's entry)
ROCM_FLAG = "rocm_flag"  # a boolean that says "this is ROCm" (torch.version.hip is not None)

Value = Union[str, Tuple[str, object], None]  # tag, ("str", text), ("node", literal node)

_BY_NAME = {
    "torch.version.cuda": CUDA_VERSION,
    "torch.version.hip": HIP_VERSION,
    "torch.backends.cuda.cufft_plan_cache": FFT_CACHE,
    "torch.utils.cpp_extension.IS_HIP_EXTENSION": ROCM_FLAG,
}
_BY_CALL = {
    "torch.cuda.get_device_capability": CAPABILITY,
    "torch.cuda.get_device_properties": PROPS,
    "torch.backends.cudnn.version": CUDNN_VERSION,
}

_ATTRS = frozenset({q.rsplit(".", 1)[1] for q in _BY_NAME} | {"major", "minor"})
_CALLS = frozenset({q.rsplit(".", 1)[1] for q in _BY_CALL} | {"int", "float"})


def string_value(node: cst.CSTNode) -> Optional[str]:
    """The value of a plain or implicitly concatenated string literal (not f-strings/bytes)."""
    if isinstance(node, cst.SimpleString):
        prefix = node.prefix.lower()
        if "b" in prefix:
            return None
        try:
            value = node.evaluated_value
        except Exception:
            return None
        return value if isinstance(value, str) else None
    if isinstance(node, cst.ConcatenatedString):
        left, right = string_value(node.left), string_value(node.right)
        return None if left is None or right is None else left + right
    return None


def number_value(node: cst.CSTNode) -> Optional[float]:
    if isinstance(node, (cst.Integer, cst.Float)):
        try:
            return float(node.evaluated_value)
        except Exception:
            return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = number_value(node.expression)
        return None if inner is None else -inner
    return None

class Flow:
    def __init__(self, ctx):
        self.ctx = ctx
        self._memo: dict[cst.CSTNode, Value] = {}
        # assignment target Name node -> (assigned expression, index in a tuple unpacking or None)
        self.bindings: dict[cst.CSTNode, tuple[cst.BaseExpression, Optional[int]]] = {}
        for assign in ctx.nodes("Assign"):
            for target in assign.targets:
                self._bind(target.target, assign.value)
        for assign in ctx.nodes("AnnAssign"):
            if assign.value is not None:
                self._bind(assign.target, assign.value)
        # cheap pre-checks: only names bound by an import or a tracked assignment can hold a
        # value of interest, so other names never reach the (costly) scope queries
        self.imported_names: set[str] = set()
        for alias in ctx.nodes("ImportAlias"):
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.imported_names.add(alias.asname.name.value)
            else:
                root = alias.name
                while isinstance(root, cst.Attribute):
                    root = root.value
                if isinstance(root, cst.Name):
                    self.imported_names.add(root.value)
        self.bound_names = self._interesting_names()

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self.bindings[target] = (value, None)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for index, element in enumerate(target.elements):
                if isinstance(element, cst.StarredElement):
                    return
                if isinstance(element.value, cst.Name):
                    self.bindings[element.value] = (value, index)

    def _interesting_names(self) -> set[str]:
        """Names assigned (somewhere) from an expression that syntactically mentions an API of
        interest, directly or through another such name — the only names worth following."""
        keys = set(_BY_NAME) | set(_BY_CALL)
        ctx = self.ctx
        pending = {}
        for target, (value, _index) in self.bindings.items():
            pending.setdefault(target.value, []).append(value)
        found: set[str] = set()

        def mentions(expr) -> bool:
            stack = [expr]
            while stack:
                node = stack.pop()
                if isinstance(node, cst.Name):
                    if node.value in found or (node.value in self.imported_names and ctx.syntactic_names(node) & keys):
                        return True
                elif isinstance(node, cst.Attribute):
                    if node.attr.value in _ATTRS | _CALLS and ctx.syntactic_names(node) & keys:
                        return True
                    stack.append(node.value)
                elif isinstance(node, (cst.Lambda, cst.BaseSuite)):
                    continue
                else:
                    stack.extend(node.children)
            return False

        changed = True
        while changed:
            changed = False
            for name, values in pending.items():
                if name not in found and any(mentions(v) for v in values):
                    found.add(name)
                    changed = True
        return found

    # ------------------------------------------------------------------ names

    def assignment_of(self, name: cst.Name) -> Optional[tuple[cst.BaseExpression, Optional[int]]]:
        """The single ``name = expr`` that *name* (a use) refers to, or None."""
        scope = self.ctx.scopes.get(name)
        if scope is None:
            return None
        try:
            accesses = scope.accesses[name]
        except Exception:
            return None
        for access in accesses:
            if access.node is name:
                referents = list(access.referents)
                if len(referents) != 1:
                    return None
                target = getattr(referents[0], "node", None)
                return self.bindings.get(target) if target is not None else None
        return None

    def uses_of(self, target: cst.Name) -> list[cst.CSTNode]:
        """Nodes that read the variable assigned at *target* (when that is its only assignment)."""
        scope = self.ctx.scopes.get(target)
        if scope is None:
            return []
        try:
            assignments = scope.assignments[target]
        except Exception:
            return []
        assignments = list(assignments)
        if len(assignments) != 1 or getattr(assignments[0], "node", None) is not target:
            return []
        return [access.node for access in assignments[0].references]

    # ------------------------------------------------------------------ values

    def value(self, node: cst.CSTNode) -> Value:
        if node in self._memo:
            return self._memo[node]
        self._memo[node] = None  # cycle guard
        result = self._compute(node)
        self._memo[node] = result
        return result

    def _compute(self, node: cst.CSTNode) -> Value:
        ctx = self.ctx
        if isinstance(node, cst.Attribute) and node.attr.value not in _ATTRS:
            return None
        if isinstance(node, cst.Name) and node.value not in self.imported_names and node.value not in self.bound_names:
            return None
        if isinstance(node, (cst.Name, cst.Attribute)):
            names = ctx.resolves_to(node, _BY_NAME)
            for qualified in names:
                if qualified in _BY_NAME:
                    return _BY_NAME[qualified]
            if isinstance(node, cst.Attribute) and node.attr.value in ("major", "minor"):
                if self.value(node.value) == PROPS:
                    return CAP_PART
            if isinstance(node, cst.Name):
                origin = self.assignment_of(node)
                if origin is not None:
                    expr, index = origin
                    if index is None:
                        return self.value(expr)
                    if isinstance(expr, (cst.Tuple, cst.List)) and index < len(expr.elements):
                        return self.value(expr.elements[index].value)
                    if self.value(expr) == CAPABILITY:
                        return CAP_PART
            return None
        if isinstance(node, cst.Call):
            if not ctx.may_be(node.func, _CALLS):
                return None
            for qualified in ctx.resolves_to(node.func, _BY_CALL):
                if qualified in _BY_CALL:
                    return _BY_CALL[qualified]
            if ctx.resolves_to(node.func, ("builtins.int", "builtins.float")) and node.args:
                inner = self.value(node.args[0].value)
                return inner if inner in (CAP_PART, CUDNN_VERSION) else None
            return None
        if isinstance(node, cst.Subscript):
            base = self.value(node.value)
            if base == CAPABILITY:
                return CAP_PART
            if base == FFT_CACHE:
                return FFT_CACHE
            return None
        if isinstance(node, cst.BinaryOperation):
            left, right = self.value(node.left), self.value(node.right)
            for tag in (CAP_PART, CUDNN_VERSION):
                if tag in (left, right) and all(v in (tag, None) for v in (left, right)):
                    other = node.right if left == tag else node.left
                    if self.value(other) == tag or number_value(other) is not None:
                        return tag
            return None
        if isinstance(node, cst.Tuple) and node.elements:
            if all(self.value(e.value) == CAP_PART for e in node.elements if not isinstance(e, cst.StarredElement)):
                return CAPABILITY
            return ("node", node)
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            text = string_value(node)
            return ("str", text) if text is not None else None
        if isinstance(node, (cst.List, cst.Dict)):
            return ("node", node)
        if isinstance(node, (cst.Comparison, cst.UnaryOperation, cst.BooleanOperation, cst.Call)):
            return ROCM_FLAG if ctx.guards.mentions_rocm(node) else None
        return None

    def literal(self, node: cst.CSTNode, kind: type) -> Optional[cst.CSTNode]:
        """*node* itself if it is a literal of *kind*, or the literal a single-assignment name holds."""
        if isinstance(node, kind):
            return node
        if isinstance(node, cst.Name):
            origin = self.assignment_of(node)
            if origin is not None and origin[1] is None and isinstance(origin[0], kind):
                return origin[0]
        return None

    def string(self, node: cst.CSTNode) -> Optional[str]:
        """The string *node* is, or that a single-assignment name holds."""
        literal = self.literal(node, (cst.SimpleString, cst.ConcatenatedString))
        return string_value(literal) if literal is not None else None
