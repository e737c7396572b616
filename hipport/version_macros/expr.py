"""Preprocessor condition expressions: lexer, parser and evaluator, over the file's own bytes.

Tokens keep their byte offsets in the file, so a fix can insert text around one subexpression
and leave everything else on the line (comments, spacing, continuations) exactly as it was.
Comments and backslash-newlines inside a condition are whitespace to the lexer.

The grammar is C's ``#if`` grammar: ``defined X``/``defined(X)``, unary ``! ~ + -``, the
arithmetic, shift, relational, equality, bitwise and logical operators, ``?:`` and ``,``, integer
literals with suffixes, character literals, ``true``/``false``, and function-like macro calls
(``__has_include(<x.h>)``, ``FOO(1)``), which are kept as opaque atoms because their value is
unknown here.  Evaluation follows the C rules that matter for conditions: unknown identifiers
are 0, arithmetic is in intmax_t or uintmax_t (a ``u`` suffix makes an operand unsigned and the
usual conversions spread it), ``&&``/``||``/``?:`` short-circuit.
"""

from __future__ import annotations

import re
from hipport import lazy_re

_TOKEN = lazy_re.compile(
    rb"""
      (?P<ws>(?:[ \t\f\v\r]+|\\\r?\n|/\*.*?\*/|//[^\n]*)+)
    | (?P<num>\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*)
    | (?P<id>[A-Za-z_$][0-9A-Za-z_$]*)
    | (?P<chr>(?:u8|[uUL])?'(?:[^'\\\n]|\\.)*')
    | (?P<str>(?:u8|[uUL])?"(?:[^"\\\n]|\\.)*")
    | (?P<op>\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%<>!~&|^?:(),\[\]{}.;\#=])
    | (?P<bad>.)
    """,
    re.S | re.X,
)

MASK64 = (1 << 64) - 1


class ConditionError(ValueError):
    """The condition is not a valid preprocessor expression."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


class Token:
    __slots__ = ("kind", "text", "start", "end")

    def __init__(self, kind: str, text: bytes, start: int, end: int):
        self.kind, self.text, self.start, self.end = kind, text, start, end

    def __repr__(self):
        return f"Token({self.kind}, {self.text!r}, {self.start})"


def tokenize(data: bytes, start: int, end: int) -> list[Token]:
    """Tokens of data[start:end]; offsets are absolute in *data*."""
    tokens = []
    pos = start
    match = _TOKEN.match
    while pos < end:
        m = match(data, pos, end)
        kind = m.lastgroup
        if kind != "ws":
            tokens.append(Token(kind, m.group(0), m.start(), m.end()))
        pos = m.end()
    return tokens


class Node:
    """A parsed subexpression.  *kind*: num, id, defined, opaque, paren, unary, binary, ternary.

    ``start``/``end`` are byte offsets of its text in the file; ``unsigned`` is its C type.
    """

    __slots__ = ("kind", "op", "value", "args", "start", "end", "unsigned")

    def __init__(self, kind, start, end, op=None, value=None, args=(), unsigned=False):
        self.kind, self.start, self.end = kind, start, end
        self.op, self.value, self.args, self.unsigned = op, value, tuple(args), unsigned

    def __repr__(self):
        if self.kind in ("num", "id", "defined", "opaque"):
            return f"{self.kind}({self.value!r})"
        return f"{self.kind}{self.op or ''}({', '.join(map(repr, self.args))})"

    def walk(self):
        yield self
        for arg in self.args:
            yield from arg.walk()


# binary operator -> precedence (higher binds tighter)
BINARY = {
    b"||": 1, b"&&": 2, b"|": 3, b"^": 4, b"&": 5, b"==": 6, b"!=": 6,
    b"<": 7, b">": 7, b"<=": 7, b">=": 7, b"<<": 8, b">>": 8,
    b"+": 9, b"-": 9, b"*": 10, b"/": 10, b"%": 10,
}
COMPARISONS = frozenset({b"==", b"!=", b"<", b">", b"<=", b">="})
# precedence of a node for parenthesisation: atoms and unary bind tightest
ATOM_PREC = 20
UNARY_PREC = 15
TERNARY_PREC = 0.5
COMMA_PREC = 0.25


def precedence(node: Node) -> float:
    if node.kind == "binary":
        return COMMA_PREC if node.op == b"," else BINARY[node.op]
    if node.kind == "ternary":
        return TERNARY_PREC
    if node.kind == "unary":
        return UNARY_PREC
    return ATOM_PREC


_ESCAPES = {b"n": 10, b"t": 9, b"r": 13, b"0": 0, b"a": 7, b"b": 8, b"f": 12, b"v": 11,
            b"\\": 92, b"'": 39, b'"': 34, b"?": 63}


def parse_integer(text: bytes, offset: int = 0) -> tuple[int, bool]:
    """Value and unsignedness of a pp-number used in ``#if``; floats are an error."""
    body = text.replace(b"'", b"").lower()
    m = re.fullmatch(rb"(0x[0-9a-f]+|0b[01]+|[0-9]+)(u?(?:ll|l|z)?u?)", body)
    if m is None:
        raise ConditionError(f"invalid integer constant {text.decode('latin-1')!r} in condition", offset)
    digits, suffix = m.group(1), m.group(2)
    if digits.startswith(b"0x"):
        value = int(digits[2:], 16)
    elif digits.startswith(b"0b"):
        value = int(digits[2:], 2)
    elif len(digits) > 1 and digits.startswith(b"0"):
        if not re.fullmatch(rb"[0-7]+", digits):
            raise ConditionError(f"invalid octal constant {text.decode('latin-1')!r}", offset)
        value = int(digits, 8)
    else:
        value = int(digits)
    unsigned = b"u" in suffix or value > (1 << 63) - 1
    return value & MASK64, unsigned


def _char_value(text: bytes, offset: int) -> int:
    body = text[text.index(b"'") + 1:-1]
    if not body:
        raise ConditionError("empty character constant", offset)
    if body[:1] == b"\\":
        esc = body[1:]
        if esc[:1] == b"x":
            return int(esc[1:], 16)
        if esc[:1].isdigit():
            return int(esc, 8)
        return _ESCAPES.get(esc[:1], esc[0])
    return body[0]


class _Parser:
    def __init__(self, tokens: list[Token], start: int, end: int):
        self.tokens, self.i, self.start, self.end = tokens, 0, start, end

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise ConditionError("condition ends unexpectedly", self.end)
        self.i += 1
        return tok

    def expect(self, text: bytes) -> Token:
        tok = self.take()
        if tok.text != text:
            raise ConditionError(f"expected {text.decode()!r}, found {tok.text.decode('latin-1')!r}", tok.start)
        return tok

    def parse(self) -> Node:
        if not self.tokens:
            raise ConditionError("empty condition", self.start)
        node = self.comma()
        tok = self.peek()
        if tok is not None:
            raise ConditionError(f"unexpected {tok.text.decode('latin-1')!r} in condition", tok.start)
        return node

    def comma(self) -> Node:
        node = self.ternary()
        while (tok := self.peek()) is not None and tok.text == b",":
            self.i += 1
            right = self.ternary()
            node = Node("binary", node.start, right.end, op=b",", args=(node, right), unsigned=right.unsigned)
        return node

    def ternary(self) -> Node:
        cond = self.binary(1)
        tok = self.peek()
        if tok is None or tok.text != b"?":
            return cond
        self.i += 1
        then = self.comma()
        self.expect(b":")
        other = self.ternary()
        return Node("ternary", cond.start, other.end, op=b"?:", args=(cond, then, other),
                    unsigned=then.unsigned or other.unsigned)

    def binary(self, min_prec: int) -> Node:
        left = self.unary()
        while True:
            tok = self.peek()
            prec = BINARY.get(tok.text) if tok is not None and tok.kind == "op" else None
            if prec is None or prec < min_prec:
                return left
            self.i += 1
            right = self.binary(prec + 1)
            op = tok.text
            if op in COMPARISONS or op in (b"&&", b"||"):
                unsigned = False
            elif op in (b"<<", b">>"):
                unsigned = left.unsigned
            else:
                unsigned = left.unsigned or right.unsigned
            left = Node("binary", left.start, right.end, op=op, args=(left, right), unsigned=unsigned)

    def unary(self) -> Node:
        tok = self.take()
        if tok.kind == "op" and tok.text in (b"!", b"~", b"-", b"+"):
            arg = self.unary()
            return Node("unary", tok.start, arg.end, op=tok.text, args=(arg,),
                        unsigned=arg.unsigned and tok.text != b"!")
        if tok.kind == "op" and tok.text == b"(":
            inner = self.comma()
            close = self.expect(b")")
            return Node("paren", tok.start, close.end, args=(inner,), unsigned=inner.unsigned)
        if tok.kind == "num":
            value, unsigned = parse_integer(tok.text, tok.start)
            return Node("num", tok.start, tok.end, value=value, unsigned=unsigned)
        if tok.kind == "chr":
            return Node("num", tok.start, tok.end, value=_char_value(tok.text, tok.start))
        if tok.kind == "id":
            name = tok.text.decode("latin-1")
            if name == "defined":
                nxt = self.take()
                if nxt.text == b"(":
                    ident = self.take()
                    close = self.expect(b")")
                    end = close.end
                else:
                    ident, end = nxt, nxt.end
                if ident.kind != "id":
                    raise ConditionError("'defined' needs a macro name", ident.start)
                return Node("defined", tok.start, end, value=ident.text.decode("latin-1"))
            nxt = self.peek()
            if nxt is not None and nxt.text == b"(":
                return self.opaque_call(tok)
            if name == "true":
                return Node("num", tok.start, tok.end, value=1)
            if name == "false":
                return Node("num", tok.start, tok.end, value=0)
            return Node("id", tok.start, tok.end, value=name)
        raise ConditionError(f"unexpected {tok.text.decode('latin-1')!r} in condition", tok.start)

    def opaque_call(self, name_tok: Token) -> Node:
        """``NAME(...)``: a function-like macro or ``__has_include``; value unknown."""
        depth = 0
        parts = [name_tok.text]
        while True:
            tok = self.take()
            parts.append(tok.text)
            if tok.text == b"(":
                depth += 1
            elif tok.text == b")":
                depth -= 1
                if depth == 0:
                    return Node("opaque", name_tok.start, tok.end, value=b"".join(parts).decode("latin-1"))


def parse(data: bytes, start: int, end: int) -> Node:
    """Parse the condition in data[start:end] (offsets stay absolute)."""
    return _Parser(tokenize(data, start, end), start, end).parse()


def parse_text(text: bytes | str) -> Node:
    if isinstance(text, str):
        text = text.encode("latin-1")
    return parse(text, 0, len(text))


# ---------------------------------------------------------------- evaluation

class EvalError(ArithmeticError):
    pass


def _signed(value: int) -> int:
    value &= MASK64
    return value - (1 << 64) if value >> 63 else value


def compile_node(node: Node, defined_false: frozenset = frozenset()):
    """Compile *node* into ``f(env) -> int``.

    *env* maps a macro name to its integer value; a name missing from it (or mapped to None) is
    undefined.  A ``defined`` node whose ``id()`` is in *defined_false* is 0 whatever env says
    (see :func:`hipport.version_macros.guards.compile_for_rocm`).
    """
    kind = node.kind
    if kind == "num":
        value = node.value if node.unsigned else _signed(node.value)
        return lambda env: value
    if kind in ("id", "opaque"):
        name = node.value

        def ident(env):
            v = env.get(name)
            return 0 if v is None else v
        return ident
    if kind == "defined":
        name = node.value
        if id(node) in defined_false:
            return lambda env: 0
        return lambda env: 0 if env.get(name) is None else 1
    if kind == "paren":
        return compile_node(node.args[0], defined_false)
    if kind == "unary":
        arg = compile_node(node.args[0], defined_false)
        op, unsigned = node.op, node.unsigned
        wrap = (lambda v: v & MASK64) if unsigned else _signed
        if op == b"!":
            return lambda env: 0 if arg(env) else 1
        if op == b"-":
            return lambda env: wrap(-arg(env))
        if op == b"~":
            return lambda env: wrap(~arg(env))
        return arg
    if kind == "ternary":
        c, a, b = (compile_node(x, defined_false) for x in node.args)
        if node.unsigned:
            return lambda env: (a(env) if c(env) else b(env)) & MASK64
        return lambda env: a(env) if c(env) else b(env)
    # binary
    left = compile_node(node.args[0], defined_false)
    right = compile_node(node.args[1], defined_false)
    op = node.op
    if op == b"&&":
        return lambda env: 1 if left(env) and right(env) else 0
    if op == b"||":
        return lambda env: 1 if left(env) or right(env) else 0
    if op == b",":
        return lambda env: (left(env), right(env))[1]
    both_unsigned = node.args[0].unsigned or node.args[1].unsigned
    if op in COMPARISONS:
        cmp = _COMPARE[op]
        if both_unsigned:
            return lambda env: cmp(left(env) & MASK64, right(env) & MASK64)
        return lambda env: cmp(left(env), right(env))
    unsigned = node.unsigned
    wrap = (lambda v: v & MASK64) if unsigned else _signed
    fn = _ARITH[op]
    if unsigned:
        return lambda env: wrap(fn(left(env) & MASK64, right(env) & MASK64))
    return lambda env: wrap(fn(left(env), right(env)))


def _div(a: int, b: int) -> int:
    if b == 0:
        raise EvalError("division by zero in condition")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _mod(a: int, b: int) -> int:
    return a - _div(a, b) * b


def _shl(a: int, b: int) -> int:
    if b < 0 or b >= 64:
        raise EvalError("shift count out of range")
    return a << b


def _shr(a: int, b: int) -> int:
    if b < 0 or b >= 64:
        raise EvalError("shift count out of range")
    return a >> b


_COMPARE = {
    b"==": lambda a, b: int(a == b), b"!=": lambda a, b: int(a != b),
    b"<": lambda a, b: int(a < b), b">": lambda a, b: int(a > b),
    b"<=": lambda a, b: int(a <= b), b">=": lambda a, b: int(a >= b),
}
_ARITH = {
    b"+": lambda a, b: a + b, b"-": lambda a, b: a - b, b"*": lambda a, b: a * b,
    b"/": _div, b"%": _mod, b"<<": _shl, b">>": _shr,
    b"&": lambda a, b: a & b, b"|": lambda a, b: a | b, b"^": lambda a, b: a ^ b,
}


def evaluate(node: Node, env: dict) -> int:
    """Value of *node* with the macros in *env* (name -> int; absent = undefined)."""
    return compile_node(node)(env)


def names(node: Node) -> set[str]:
    """Macro names the condition refers to (by value or by ``defined``)."""
    return {n.value for n in node.walk() if n.kind in ("id", "defined")}
