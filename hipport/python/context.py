"""One parsed Python file and the questions every rule asks about it.

:class:`FileContext` owns the libcst tree, the ScopeProvider metadata, a parent map and
per-node-type buckets filled by a single walk (so nine rules do not walk the tree nine times),
and answers:

* ``qualnames(node)`` — what a name or attribute chain *refers to*, via libcst's scope analysis
  (``import torch as T; T.version.cuda`` and ``from torch import version; version.cuda`` both
  give ``torch.version.cuda``; a local variable called ``torch`` gives nothing);
* ``span(node)`` — the node's exact byte range in the original file, or None when its bytes
  cannot be found exactly (then no fix is offered there);
* ``flow`` (:mod:`.flow`) and ``guards`` (:mod:`.branches`) — data flow and branch awareness.

This module imports libcst; :mod:`hipport.python` imports it only when a file needs parsing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider, QualifiedNameSource, ScopeProvider

from hipport.edits import Edit
from hipport.python.source import Decoded, OffsetMap, SourceError


@dataclass
class Finding:
    """What a rule reports: the node it points at, message, hint and an optional fix."""

    code: str
    node: cst.CSTNode
    message: str
    hint: str
    edit: Edit | None = None


def argument(call: cst.Call, index: int | None, keyword: str | None) -> cst.Arg | None:
    """The argument passed as *keyword*=, or positionally at *index* (before any keyword)."""
    if keyword is not None:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == keyword:
                return arg
    if index is not None:
        positional = [a for a in call.args if a.keyword is None and not a.star]
        if index < len(positional):
            return positional[index]
    return None


_BUILTINS = frozenset({"float", "int", "bool", "str", "tuple", "map"})


def last_name(expr: cst.CSTNode) -> str | None:
    """``a.b.c`` → ``c``, ``name`` → ``name``; None for other expressions (cheap pre-check)."""
    if isinstance(expr, cst.Attribute):
        return expr.attr.value
    if isinstance(expr, cst.Name):
        return expr.value
    return None


class _Collector(cst.CSTVisitor):
    """One walk: parent links and nodes bucketed by type name."""

    def __init__(self):
        self.parents: dict[cst.CSTNode, cst.CSTNode] = {}
        self.buckets: dict[str, list[cst.CSTNode]] = defaultdict(list)
        self._stack: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self._stack:
            self.parents[node] = self._stack[-1]
        self.buckets[type(node).__name__].append(node)
        self._stack.append(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self._stack.pop()


def parse(text: str) -> cst.Module:
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "syntax error"
        raise SourceError(f"not parseable as Python ({first} at line {exc.raw_line}, column "
                          f"{exc.raw_column + 1})") from None
    except (RecursionError, ValueError) as exc:  # pathological nesting, odd characters
        raise SourceError(f"not parseable as Python ({type(exc).__name__}: {exc})") from None


class FileContext:
    def __init__(self, data: bytes, path: str, decoded: Decoded, *, rocm_guards: tuple[str, ...] = ()):
        self.data = data
        self.path = path
        self.decoded = decoded
        self.module = parse(decoded.text)
        self.wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
        self._scopes = None
        self._imports: dict[str, set[str]] | None = None
        self._statement_starts: dict[cst.CSTNode, int] | None = None
        self._local_positions: dict[cst.CSTNode, object] = {}
        collector = _Collector()
        self.module.visit(collector)
        self.parents = collector.parents
        self.buckets = collector.buckets
        self.rocm_guards = tuple(rocm_guards)
        self._positions = None
        self._offsets: OffsetMap | None = None
        self._qualnames: dict[cst.CSTNode, frozenset[str]] = {}
        from hipport.python.branches import Guards
        from hipport.python.flow import Flow

        self.flow = Flow(self)
        self.guards = Guards(self)

    @property
    def scopes(self):
        """ScopeProvider metadata, resolved on first use (the costliest step after parsing)."""
        if self._scopes is None:
            self._scopes = self.wrapper.resolve(ScopeProvider)
        return self._scopes

    # ------------------------------------------------------------------ structure

    def nodes(self, *type_names: str) -> list[cst.CSTNode]:
        out: list[cst.CSTNode] = []
        for name in type_names:
            out.extend(self.buckets.get(name, ()))
        return out

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.parents.get(node)

    def ancestors(self, node: cst.CSTNode):
        parent = self.parents.get(node)
        while parent is not None:
            yield parent
            parent = self.parents.get(parent)

    def statement_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The innermost statement (simple-statement line or compound statement) holding node."""
        current: cst.CSTNode | None = node
        while current is not None and not isinstance(current, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            current = self.parents.get(current)
        return current

    # ------------------------------------------------------------------ names

    @property
    def import_table(self) -> dict[str, set[str]]:
        """Local name → what any import in the file binds it to (all scopes merged).

        A cheap, syntactic over-approximation used to skip scope analysis when no name could
        possibly refer to an API of interest; :meth:`resolves_to` confirms with libcst.
        """
        if self._imports is None:
            table: dict[str, set[str]] = defaultdict(set)
            for imp in self.nodes("Import"):
                for alias in imp.names:
                    dotted = self.module.code_for_node(alias.name)
                    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                        table[alias.asname.name.value].add(dotted)
                    else:
                        table[dotted.split(".")[0]].add(dotted.split(".")[0])
            for imp in self.nodes("ImportFrom"):
                if imp.module is None or imp.relative or isinstance(imp.names, cst.ImportStar):
                    continue
                base = self.module.code_for_node(imp.module)
                for alias in imp.names:
                    name = self.module.code_for_node(alias.name)
                    local = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else name
                    table[local].add(f"{base}.{name}")
            self._imports = table
        return self._imports

    def syntactic_names(self, node: cst.CSTNode) -> set[str]:
        """Dotted names *node* may refer to, from the import table alone (no scopes)."""
        if isinstance(node, cst.Name):
            found = self.import_table.get(node.value)
            if found:
                return set(found)
            return {"builtins." + node.value} if node.value in _BUILTINS else set()
        if isinstance(node, cst.Attribute):
            return {f"{base}.{node.attr.value}" for base in self.syntactic_names(node.value)}
        return set()

    def resolves_to(self, node: cst.CSTNode, names) -> frozenset[str]:
        """Which of *names* the expression refers to: a syntactic pre-check, then libcst scopes."""
        if not self.syntactic_names(node) & set(names):
            return frozenset()
        return self.qualnames(node) & frozenset(names)

    def qualnames(self, node: cst.CSTNode) -> frozenset[str]:
        """Qualified names *node* refers to through imports (or builtins).

        Names of local definitions are left out: ``class torch: ...`` is not the module.
        """
        cached = self._qualnames.get(node)
        if cached is not None:
            return cached
        result: frozenset[str] = frozenset()
        if isinstance(node, (cst.Name, cst.Attribute)):
            scope = self.scopes.get(node)
            if scope is not None:
                try:
                    result = frozenset(q.name for q in scope.get_qualified_names_for(node)
                                       if q.source is not QualifiedNameSource.LOCAL)
                except Exception:  # libcst corner cases (e.g. names in odd positions)
                    result = frozenset()
        self._qualnames[node] = result
        return result

    def may_be(self, expr: cst.CSTNode, names) -> bool:
        """Cheap pre-check before resolving *expr*: its last identifier is one of *names*, or it
        is a bare name bound by an import (which may alias one: ``import x as y``)."""
        last = last_name(expr)
        return last in names or (isinstance(expr, cst.Name) and last in self.flow.imported_names)

    def torch_alias(self, near: cst.CSTNode | None = None) -> str | None:
        """A local name bound to the ``torch`` module (``import torch [as T]``), if any.

        Prefers the root name of *near* when that refers to torch, so fixes reuse the file's
        own spelling.
        """
        if near is not None:
            root = near
            while isinstance(root, (cst.Attribute, cst.Subscript, cst.Call)):
                root = root.func if isinstance(root, cst.Call) else root.value
            if isinstance(root, cst.Name) and self.resolves_to(root, ("torch",)):
                return root.value
        for imp in self.nodes("Import"):
            if not isinstance(imp.names, (list, tuple)):
                continue
            for alias in imp.names:
                dotted = self.module.code_for_node(alias.name)
                if dotted == "torch" or dotted.startswith("torch."):
                    if alias.asname is not None:
                        if dotted == "torch" and isinstance(alias.asname.name, cst.Name):
                            return alias.asname.name.value
                        continue
                    if self._visible_from(imp, near):
                        return "torch"
        return None

    def enclosing_function(self, node: cst.CSTNode) -> cst.CSTNode | None:
        for parent in self.ancestors(node):
            if isinstance(parent, (cst.FunctionDef, cst.Lambda)):
                return parent
        return None

    def _visible_from(self, stmt: cst.CSTNode, near: cst.CSTNode | None) -> bool:
        """An import at module level, or in the function that holds *near*."""
        owner = self.enclosing_function(stmt)
        if owner is None:
            return not any(isinstance(p, cst.ClassDef) for p in self.ancestors(stmt))
        return near is not None and owner is self.enclosing_function(near)

    # ------------------------------------------------------------------ bytes

    @property
    def offsets(self) -> OffsetMap:
        if self._offsets is None:
            self._offsets = OffsetMap(self.data, self.decoded)
        return self._offsets

    def _position(self, node: cst.CSTNode):
        """libcst CodeRange of *node* in the whole file.

        PositionProvider over a whole module costs ~10x a plain code generation, and only the
        few nodes with findings need positions: so the character offset of each top-level
        statement comes from code generation, and positions are resolved only inside the
        top-level statement that holds *node* (as a one-statement module), then shifted.
        """
        top = node
        while top is not None and self.parents.get(top) is not self.module:
            top = self.parents.get(top)
        if top is None or not isinstance(top, cst.BaseStatement):
            if self._positions is None:
                self._positions = self.wrapper.resolve(PositionProvider)
            return self._positions.get(node)
        if self._statement_starts is None:
            starts: dict[cst.CSTNode, int] = {}
            line = 1 + sum(self.module.code_for_node(empty).count("\n") for empty in self.module.header)
            for stmt in self.module.body:
                starts[stmt] = line
                line += self.module.code_for_node(stmt).count("\n")
            self._statement_starts = starts
        positions = self._local_positions.get(top)
        if positions is None:
            mini = self.module.with_changes(body=[top], header=[], footer=[])
            positions = MetadataWrapper(mini, unsafe_skip_copy=True).resolve(PositionProvider)
            self._local_positions[top] = positions
        local = positions.get(node)
        if local is None:
            return None
        shift = self._statement_starts[top] - 1
        from libcst.metadata import CodePosition, CodeRange

        return CodeRange(CodePosition(local.start.line + shift, local.start.column),
                         CodePosition(local.end.line + shift, local.end.column))

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def span(self, node: cst.CSTNode) -> tuple[int, int] | None:
        """Exact byte range of *node*, checked against its own code; None if not found."""
        pos = self._position(node)
        if pos is None:
            return None
        try:
            code = self.code(node).encode(self.decoded.encoding)
        except UnicodeEncodeError:
            return None
        start = self.offsets.locate(pos.start.line, pos.start.column, code)
        if start is None:
            return None
        return start, start + len(code)

    def offset(self, node: cst.CSTNode) -> int:
        """Best byte offset for a diagnostic at *node* (exact when the span is known)."""
        exact = self.span(node)
        if exact is not None:
            return exact[0]
        pos = self._position(node)
        return self.offsets.offset(pos.start.line, pos.start.column) if pos is not None else 0

    def source(self, node: cst.CSTNode) -> bytes | None:
        span = self.span(node)
        return None if span is None else self.data[span[0]:span[1]]

    def encode(self, text: str) -> bytes | None:
        try:
            return text.encode(self.decoded.encoding)
        except UnicodeEncodeError:
            return None

    def newline_at(self, offset: int) -> bytes:
        """The line ending used by the line holding *offset* (the file's own, CRLF kept)."""
        end = self.data.find(b"\n", offset)
        if end > 0 and self.data[end - 1:end] == b"\r":
            return b"\r\n"
        return b"\n"
