"""A light token view of ordinary code (outside directives, comments and literals), for the
rules that look at run-time version checks: HV002 (values from ``*GetVersion`` calls) and
HV003/HV004 written in C++ ``if`` statements rather than ``#if``.

It knows function bodies (a ``{`` after ``)`` or a trailing specifier) so that a variable is
tracked from the call that fills it to the end of its function, and it finds the comparison an
operand takes part in by walking over the operators that bind tighter than a comparison.
"""

from __future__ import annotations

import re

from . import scan
from .expr import COMPARISONS, Token
from hipport import lazy_re

# Whitespace is consumed in front of every token, so one match call yields one token.
_CODE = lazy_re.compile(
    rb"""
    [ \t\r\n\f\v]*
    (?:
      (?P<id>[A-Za-z_][0-9A-Za-z_]*)
    | (?P<num>\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*)
    | (?P<skip>/\*.*?(?:\*/|\Z) | //(?:[^\\\n]|\\(?:\r\n|.|\Z))*)
    | (?P<str>"(?:[^"\\\n]|\\(?:\r\n|.))*"?)
    | (?P<chr>'(?:[^'\\\n]|\\.)*'?)
    | (?P<hash>\#)
    | (?P<op>->|::|<<=|>>=|<=|>=|==|!=|&&|\|\||<<|>>|[-+*/%<>!~&|^?:(),\[\]{};.=])
    | (?P<other>\\\r?\n|.)
    )
    """,
    re.S | re.X,
)
_RAW_DELIM = lazy_re.compile(rb'"([^()\\\s"]{0,16})\(')
RAW_PREFIXES = frozenset({b"R", b"u8R", b"uR", b"UR", b"LR"})

BODY_AFTER = frozenset({b")", b"const", b"noexcept", b"override", b"final", b"mutable", b"try"})
OPERAND_OPS = frozenset({b".", b"->", b"::", b"*", b"/", b"%", b"+", b"-"})


def tokens(data: bytes) -> tuple[list[Token], list[int]]:
    """Code tokens and, for each, the index of its function body's ``{`` token (-1 at file scope)."""
    out: list[Token] = []
    scope: list[int] = []
    braces: list[tuple[int, bool]] = []  # (token index, is a function body)
    current = -1
    pos, n = 0, len(data)
    match = _CODE.match
    while pos < n:
        m = match(data, pos)
        if m is None:
            break
        kind = m.lastgroup
        start, pos = m.start(kind), m.end()
        if kind == "id":
            text = m.group(kind)
            if text in RAW_PREFIXES and data[pos:pos + 1] == b'"':
                raw = _RAW_DELIM.match(data, pos)
                if raw is not None:
                    close = data.find(b")" + raw.group(1) + b'"', raw.end())
                    pos = n if close == -1 else close + len(raw.group(1)) + 2
                    continue
        elif kind == "hash":
            line_start = data.rfind(b"\n", 0, start) + 1
            if not data[line_start:start].strip(b" \t") and data[line_start - 3:line_start] != b"\\\r\n" \
                    and data[line_start - 2:line_start] != b"\\\n":
                pos = max(scan.directive_end(data, pos), pos)  # a directive: skip it whole
            continue
        elif kind not in ("num", "op"):
            continue
        else:
            text = m.group(kind)
        tok = Token(kind, text, start, pos)
        if text == b"{":
            is_body = current == -1 and bool(out) and out[-1].text in BODY_AFTER
            braces.append((len(out), is_body))
            if is_body:
                current = len(out)
        out.append(tok)
        scope.append(current)
        if text == b"}" and braces:
            index, is_body = braces.pop()
            if is_body:
                current = -1
    return out, scope


def _skip_group(toks: list[Token], i: int, step: int) -> int:
    """From an opening (step=1) or closing (step=-1) bracket, the index just past its match."""
    opens, closes = (b"(", b"["), (b")", b"]")
    if step < 0:
        opens, closes = closes, opens
    depth = 0
    while 0 <= i < len(toks):
        t = toks[i].text
        if t in opens:
            depth += 1
        elif t in closes:
            depth -= 1
            if depth == 0:
                return i + step
        i += step
    return i


def _operand_end(toks: list[Token], i: int, step: int) -> int:
    """Walk from i in direction *step* over an arithmetic operand; index of the first token
    that is not part of it."""
    n = len(toks)
    while 0 <= i < n:
        t = toks[i]
        if (step > 0 and t.text in (b"(", b"[")) or (step < 0 and t.text in (b")", b"]")):
            i = _skip_group(toks, i, step)
        elif t.kind in ("id", "num") or t.text in OPERAND_OPS:
            i += step
        else:
            break
    return i


def comparison(toks: list[Token], i: int):
    """(operator token, this side's tokens, other side's tokens) for the comparison that the
    operand at index *i* belongs to, or None."""
    lo, hi = i, i
    while True:
        right = _operand_end(toks, hi + 1, 1)
        left = _operand_end(toks, lo - 1, -1)
        if right < len(toks) and toks[right].text in COMPARISONS:
            far = _operand_end(toks, right + 1, 1)
            return toks[right], toks[left + 1:right], toks[right + 1:far]
        if left >= 0 and toks[left].text in COMPARISONS:
            far = _operand_end(toks, left - 1, -1)
            return toks[left], toks[left + 1:right], toks[far + 1:left]
        # a parenthesised operand: widen to the group unless it is a call's argument list
        if (left >= 0 and right < len(toks) and toks[left].text == b"(" and toks[right].text == b")"
                and not (left > 0 and toks[left - 1].kind == "id")):
            lo, hi = left, right
            continue
        return None
