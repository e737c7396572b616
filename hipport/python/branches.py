"""Branch awareness: is this code already on one side of a ROCm/CUDA distinction?

Real setup scripts and libraries branch on the platform.  An idiom inside such a branch — the
ROCm arm *or* the CUDA-only arm — was written by someone who knew about ROCm, so no rule reports
it.  A node counts as guarded when

* an enclosing ``if``/``elif``/``while``/conditional expression/comprehension ``if``, or a
  boolean operation it is part of, has a condition that *mentions ROCm* (see below);
* an earlier statement in the same block is ``if <mentions ROCm>: return/raise/continue/break``
  (or ``self.skipTest(...)``/``pytest.skip(...)``/``sys.exit(...)``) — the early-exit form;
* an enclosing function or class is decorated with, or named by, something that mentions ROCm
  (``@skipIfRocm``, ``@unittest.skipIf(TEST_WITH_ROCM, ...)``, ``def _hip_flags():``);
* an enclosing ``if``'s *other* arm mentions ROCm (``if torch.version.cuda: … else: …
  torch.version.hip …``), or the ``if`` header's comment does (``if torch.version.cuda is
  None:  # on ROCm we don't want this check``).  A comment on a plain statement does not
  count: a note like ``# no effect on ROCm`` is still worth reporting.

A condition mentions ROCm when it refers to ``torch.version.hip``,
``torch.utils.cpp_extension.IS_HIP_EXTENSION``/``ROCM_HOME`` or a name assigned from such a test
(data flow), to a configured project flag (``[tool.hipport.lint] rocm-guards``), or to any
identifier or string whose words include hip/rocm/amd/miopen/rccl/gcn (``IS_HIP_EXTENSION``,
``TEST_WITH_ROCM``, ``is_rocm``, ``"ROCM_HOME"``) — words, not substrings, so ``chip`` or
``relationship`` do not count.
"""

from __future__ import annotations

import libcst as cst
from hipport import lazy_re

ROCM_WORDS = frozenset({"hip", "rocm", "amd", "miopen", "rccl", "gcn", "hipcc", "hipblas", "amdgpu"})
_WORD = lazy_re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_ROCM_NAMES = frozenset({"torch.version.hip", "torch.utils.cpp_extension.IS_HIP_EXTENSION",
                         "torch.utils.cpp_extension.ROCM_HOME", "torch.utils.cpp_extension.ROCM_VERSION"})
_EXIT_CALLS = frozenset({"skipTest", "skip", "exit", "_exit", "fail", "abort"})


_ROCM_SUBSTRINGS = ("rocm", "miopen", "hipblas", "hipcc", "amdgpu")


def words(identifier: str) -> set[str]:
    """``IS_HIP_EXTENSION`` → {is, hip, extension}; ``skipIfRocm`` → {skip, if, rocm}.

    Names like ``ROCmConfig`` do not split into words, so distinctive substrings (rocm,
    miopen, hipblas…) count as the word itself.
    """
    found = {w.lower() for w in _WORD.findall(identifier)}
    lowered = identifier.lower()
    found.update(s for s in _ROCM_SUBSTRINGS if s in lowered)
    return found


def _children(node: cst.CSTNode):
    return node.children


def _terminates(body: cst.BaseSuite) -> bool:
    statements = body.body if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)) else ()
    if not statements:
        return False
    last = statements[-1]
    smalls = last.body if isinstance(last, cst.SimpleStatementLine) else [last]
    if not smalls:
        return False
    stmt = smalls[-1]
    if isinstance(stmt, (cst.Return, cst.Raise, cst.Continue, cst.Break)):
        return True
    if isinstance(stmt, cst.Expr) and isinstance(stmt.value, cst.Call):
        func = stmt.value.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        return name in _EXIT_CALLS
    return False


class Guards:
    def __init__(self, ctx):
        self.ctx = ctx
        self.extra = frozenset(ctx.rocm_guards)
        self._mentions: dict[cst.CSTNode, bool] = {}

    def _name_mentions(self, node: cst.CSTNode) -> bool:
        ctx = self.ctx
        if isinstance(node, cst.Name):
            if node.value in self.extra or words(node.value) & ROCM_WORDS:
                return True
        elif isinstance(node, cst.Attribute):
            if node.attr.value in self.extra or words(node.attr.value) & ROCM_WORDS:
                return True
            if self.extra and ctx.code(node) in self.extra:
                return True
        else:
            return False
        if ctx.resolves_to(node, self.extra | _ROCM_NAMES):
            return True
        if isinstance(node, cst.Name):
            from hipport.python.flow import HIP_VERSION, ROCM_FLAG

            return ctx.flow.value(node) in (HIP_VERSION, ROCM_FLAG)
        return False

    def mentions_rocm(self, expr: cst.CSTNode) -> bool:
        """Does this expression (a condition, a decorator) refer to ROCm/HIP at all?"""
        cached = self._mentions.get(expr)
        if cached is not None:
            return cached
        self._mentions[expr] = False  # cycle guard (flow → mentions → flow)
        result = False
        stack = [expr]
        while stack and not result:
            node = stack.pop()
            if isinstance(node, (cst.Name, cst.Attribute)) and self._name_mentions(node):
                result = True
            elif isinstance(node, cst.SimpleString):
                try:
                    value = node.evaluated_value
                except Exception:
                    value = None
                if isinstance(value, str) and len(value) < 80 and words(value) & ROCM_WORDS:
                    result = True
            elif isinstance(node, (cst.Lambda, cst.FunctionDef)):
                continue
            else:
                stack.extend(_children(node))
        self._mentions[expr] = result
        return result

    @staticmethod
    def _comment_mentions(trailing: cst.TrailingWhitespace) -> bool:
        comment = trailing.comment
        return comment is not None and bool(words(comment.value) & ROCM_WORDS)

    def _definition_mentions(self, node: cst.CSTNode) -> bool:
        if words(node.name.value) & ROCM_WORDS or node.name.value in self.extra:
            return True
        return any(self.mentions_rocm(d.decorator) for d in node.decorators)

    def is_guarded(self, node: cst.CSTNode) -> bool:
        """True when *node* sits on either arm of a ROCm/CUDA distinction (see module doc)."""
        ctx = self.ctx
        child = node
        for parent in ctx.ancestors(node):
            if isinstance(parent, (cst.If, cst.IfExp)):
                # either arm of an if/elif/else chain that refers to ROCm anywhere in its tests
                # or alternative arms, or whose header comment talks about ROCm
                if self.mentions_rocm(parent.test) or (parent.orelse is not None and self.mentions_rocm(parent.orelse)):
                    return True
                if isinstance(parent, cst.If) and isinstance(parent.body, cst.IndentedBlock) \
                        and self._comment_mentions(parent.body.header):
                    return True
            elif isinstance(parent, cst.While):
                if self.mentions_rocm(parent.test):
                    return True
            elif isinstance(parent, cst.CompIf):
                if self.mentions_rocm(parent.test):
                    return True
            elif isinstance(parent, (cst.CompFor,)):
                if any(self.mentions_rocm(i.test) for i in parent.ifs):
                    return True
            elif isinstance(parent, cst.BooleanOperation):
                if self.mentions_rocm(parent):
                    return True
            elif isinstance(parent, (cst.FunctionDef, cst.ClassDef)):
                if self._definition_mentions(parent):
                    return True
            elif isinstance(parent, (cst.IndentedBlock, cst.Module)):
                body = list(parent.body)
                try:
                    index = next(i for i, stmt in enumerate(body) if stmt is child)
                except StopIteration:
                    index = 0
                for earlier in body[:index]:
                    if (isinstance(earlier, cst.If) and earlier.orelse is None
                            and _terminates(earlier.body) and self.mentions_rocm(earlier.test)):
                        return True
            child = parent
        return False
