"""A CMake-language lexer that keeps byte offsets, for rewriting build files by edits.

It follows the grammar of cmake-language(7): command invocations ``name(args)``, bracket
comments ``#[==[ … ]==]``, line comments, bracket arguments ``[==[ … ]==]``, quoted arguments
with backslash escapes and line continuations, unquoted arguments (including the legacy form
``-DX="a b"``) and nested parentheses (as in ``if((A OR B) AND C)``).  A comment or a string
that merely *mentions* ``CUDA`` is therefore never rewritten.

The text is handled as latin-1 so that every character is exactly one byte of the original
file: offsets are byte offsets and any encoding survives untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from hipport import lazy_re

UNQUOTED, QUOTED, BRACKET, OPEN, CLOSE = "unquoted", "quoted", "bracket", "(", ")"

_IDENT = lazy_re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BRACKET_OPEN = lazy_re.compile(r"\[(=*)\[")
_SPACE = " \t"


class CMakeSyntaxError(ValueError):
    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


@dataclass
class Arg:
    kind: str  # UNQUOTED, QUOTED, BRACKET, OPEN or CLOSE
    start: int
    end: int
    text: str  # the raw source text of the argument

    @property
    def value(self) -> str:
        """The argument without its quotes/brackets (escapes are not processed)."""
        if self.kind == QUOTED:
            return self.text[1:-1]
        if self.kind == BRACKET:
            eq = self.text.index("[", 1) + 1
            return self.text[eq:len(self.text) - eq]
        return self.text

    @property
    def is_argument(self) -> bool:
        return self.kind in (UNQUOTED, QUOTED, BRACKET)


@dataclass
class Command:
    name: str
    start: int  # offset of the command name
    open: int  # offset of "("
    close: int  # offset of the matching ")"
    tokens: list[Arg] = field(default_factory=list)  # arguments and nested parentheses

    @property
    def lname(self) -> str:
        return self.name.lower()

    @property
    def args(self) -> list[Arg]:
        return [t for t in self.tokens if t.is_argument]


def _skip_bracket(text: str, pos: int, what: str) -> int:
    """``pos`` is at ``[=*[``; returns the offset after the matching close."""
    m = _BRACKET_OPEN.match(text, pos)
    assert m is not None
    close = "]" + m.group(1) + "]"
    end = text.find(close, m.end())
    if end < 0:
        raise CMakeSyntaxError(f"unterminated bracket {what}", pos)
    return end + len(close)


def _skip_comment(text: str, pos: int) -> int:
    """``pos`` is at ``#``; returns the offset after the comment (before the newline)."""
    if _BRACKET_OPEN.match(text, pos + 1):
        return _skip_bracket(text, pos + 1, "comment")
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def _quoted_end(text: str, pos: int) -> int:
    i = pos + 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i + 1
        i += 1
    raise CMakeSyntaxError("unterminated quoted argument", pos)


def _unquoted_end(text: str, pos: int) -> int:
    i = pos
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c in " \t\r\n()#":
            break
        if c == '"':  # legacy unquoted argument: -DX="a b"
            i = _quoted_end(text, i)
            continue
        i += 1
    return min(i, n)


def parse(text: str) -> list[Command]:
    """All command invocations of a CMake file, in order."""
    commands: list[Command] = []
    pos = 0
    n = len(text)
    while pos < n:
        c = text[pos]
        if c in " \t\r\n":
            pos += 1
            continue
        if c == "#":
            pos = _skip_comment(text, pos)
            continue
        m = _IDENT.match(text, pos)
        if m is None:
            raise CMakeSyntaxError(f"unexpected character {c!r} where a command was expected", pos)
        p = m.end()
        while p < n and text[p] in _SPACE:
            p += 1
        if p >= n or text[p] != "(":
            raise CMakeSyntaxError(f"expected '(' after command name '{m.group()}'", p)
        cmd = Command(m.group(), pos, p, -1)
        pos = _parse_args(text, p + 1, cmd)
        commands.append(cmd)
    return commands


def _parse_args(text: str, pos: int, cmd: Command) -> int:
    depth = 0
    n = len(text)
    while pos < n:
        c = text[pos]
        if c in " \t\r\n":
            pos += 1
        elif c == "#":
            pos = _skip_comment(text, pos)
        elif c == "(":
            cmd.tokens.append(Arg(OPEN, pos, pos + 1, "("))
            depth += 1
            pos += 1
        elif c == ")":
            if depth == 0:
                cmd.close = pos
                return pos + 1
            cmd.tokens.append(Arg(CLOSE, pos, pos + 1, ")"))
            depth -= 1
            pos += 1
        elif c == '"':
            end = _quoted_end(text, pos)
            cmd.tokens.append(Arg(QUOTED, pos, end, text[pos:end]))
            pos = end
        elif c == "[" and _BRACKET_OPEN.match(text, pos):
            end = _skip_bracket(text, pos, "argument")
            cmd.tokens.append(Arg(BRACKET, pos, end, text[pos:end]))
            pos = end
        else:
            end = _unquoted_end(text, pos)
            if end == pos:  # a lone backslash at the end of the file
                raise CMakeSyntaxError("invalid escape at end of file", pos)
            cmd.tokens.append(Arg(UNQUOTED, pos, end, text[pos:end]))
            pos = end
    raise CMakeSyntaxError(f"missing ')' for command '{cmd.name}'", cmd.open)
