"""The conditional stack: every ``#if``-family condition of a file with its enclosing context.

A place inside branch *k* of an ``#if``/``#elif``/``#else`` group is reached when branch *k*'s
condition holds and every earlier branch's condition does not, in every enclosing group.
``#ifdef X``/``#ifndef X`` are read as ``defined X``/``!defined X``.  A condition that does not
parse adds no constraint (it is unknown, not false).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from . import scan
from .expr import ConditionError, Node, parse
from .guards import Context


@dataclass(eq=False)
class Site:
    """One condition: its directive, parsed node (None if it did not parse), and context."""

    directive: scan.Directive
    node: Node | None
    frame_context: tuple  # (Site, taken) from enclosing groups (taken) and earlier branches (not)
    error: ConditionError | None = None
    negated: bool = False  # #ifndef: node is ``defined X``, the branch wants it false

    def context(self) -> Context:
        return _context(self.frame_context)


@dataclass
class _Frame:
    outer: tuple
    branches: list = field(default_factory=list)
    in_else: bool = False

    def prior_false(self) -> tuple:
        return tuple((s, False) for s in self.branches)


def _context(items) -> Context:
    """Constraints as (node, required value); read lazily because a fix may replace a node."""
    return Context((s.node, taken != s.negated) for s, taken in items if s.node is not None)


def _condition(data: bytes, d: scan.Directive):
    name = d.name
    try:
        if name in (b"ifdef", b"ifndef", b"elifdef", b"elifndef"):
            from .expr import tokenize

            toks = tokenize(data, d.body_start, d.end)
            if not toks or toks[0].kind != "id":
                raise ConditionError(f"#{name.decode()} needs a macro name", d.body_start)
            tok = toks[0]
            return Node("defined", tok.start, tok.end, value=tok.text.decode("latin-1")), None
        return parse(data, d.body_start, d.end), None
    except ConditionError as exc:
        return None, exc


class ConditionalMap:
    """All conditional directives of a file, as Sites, plus the context of any byte offset."""

    def __init__(self, data: bytes, directives: list[scan.Directive] | None = None):
        if directives is None:
            directives = scan.directives(data)
        self.sites: list[Site] = []
        # offset -> active constraints, recorded at every directive end
        self._offsets: list[int] = [0]
        self._contexts: list[tuple] = [()]
        stack: list[_Frame] = []

        def active() -> tuple:
            if not stack:
                return ()
            top = stack[-1]
            if top.in_else:
                return top.outer + top.prior_false()
            return top.outer + tuple((s, False) for s in top.branches[:-1]) + ((top.branches[-1], True),)

        for d in directives:
            name = d.name
            if name in (b"if", b"ifdef", b"ifndef"):
                outer = active()
                node, err = _condition(data, d)
                site = Site(d, node, outer, err, negated=name == b"ifndef")
                self.sites.append(site)
                frame = _Frame(outer)
                frame.branches.append(site)
                stack.append(frame)
            elif name in (b"elif", b"elifdef", b"elifndef"):
                if not stack:
                    continue
                top = stack[-1]
                node, err = _condition(data, d)
                site = Site(d, node, top.outer + top.prior_false(), err, negated=name == b"elifndef")
                self.sites.append(site)
                top.branches.append(site)
            elif name == b"else":
                if stack:
                    stack[-1].in_else = True
            elif name == b"endif":
                if stack:
                    stack.pop()
            else:
                continue
            self._offsets.append(d.end)
            self._contexts.append(active())

    def context_at(self, offset: int) -> Context:
        """The enclosing conditions of code at *offset* (uses the sites' current nodes)."""
        return _context(self._contexts[bisect_right(self._offsets, offset) - 1])
