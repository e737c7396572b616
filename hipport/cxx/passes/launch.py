"""``k<<<grid, block, shmem, stream>>>(args)`` → ``hipLaunchKernelGGL(k, dim3(grid), dim3(block), shmem, stream, args)``.

Only runs with ``--hip-kernel-execution-syntax``; hipcc accepts the triple-chevron syntax, so by
default launches are kept.  The rewrite is made of small edits around the original argument
texts, so identifiers inside the configuration and the arguments are still renamed by the
rename pass, and comments inside a multi-line launch survive.
"""

from __future__ import annotations

import re

from hipport.cxx.calls import call_arguments, expression_start, skip_ws, template_close
from hipport.cxx.context import Context
from hipport.cxx.lexer import TOKEN_RE
from hipport import lazy_re


def _config(data: bytes, open_pos: int) -> tuple[list[tuple[int, int]], int] | None:
    """Arguments between ``<<<`` at *open_pos* and the matching ``>>>``; returns (spans, pos of >>>)."""
    depth = 0
    start = open_pos + 3
    args = []
    skip_to = -1
    for m in TOKEN_RE.finditer(data, start):
        if m.lastgroup != "punct" or m.start() < skip_to:
            continue
        tok = m.group()
        if tok == b"<":  # `Mx<32, 64>::v`, `blocks<int, 4>()`: a template's commas split no argument
            close = template_close(data, m.start())
            inside = data[m.start():close] if close is not None else b""
            # (`a < b ? 1 : 2, (a > b) …`: comparisons, the `>` in another parenthesis)
            if close is not None and b"?" not in inside and inside.count(b"(") == inside.count(b")"):
                skip_to = close + 1
            continue
        if tok in (b"(", b"[", b"{"):
            depth += 1
        elif tok in (b")", b"]", b"}"):
            depth -= 1
            if depth < 0:
                return None
        elif tok == b"," and depth == 0:
            args.append((start, m.start()))
            start = m.end()
        elif tok == b">>>" and depth == 0:
            args.append((start, m.start()))
            return [_trim(data, s, e) for s, e in args], m.start()
        elif tok == b";":
            return None
    return None


def _trim(data, s, e):
    """The argument without the blanks and comments around it (which stay in the separators)."""
    s = min(skip_ws(data, s), e)  # also skips comments before the argument
    comments = [m.span() for m in TOKEN_RE.finditer(data, s, e) if m.lastgroup == "comment"] \
        if b"/" in data[s:e] else []
    while e > s:
        if data[e - 1] in b" \t\r\n" or data[e - 1] == 0x5C and data[e:e + 1] in (b"\n", b"\r"):
            e -= 1  # (and the `\` of a line splice: a launch in a macro body)
        elif comments and comments[-1][1] >= e > comments[-1][0]:
            e = comments.pop()[0]  # `2 // block size`: the `)` closing dim3( must not fall in it
        else:
            break
    return s, e


# template <...> [qualifiers] void name(  — kernels that are function templates, whose
# launches without explicit template arguments still need HIP_KERNEL_NAME(...)
_TEMPLATE_KERNEL_RE = lazy_re.compile(
    rb"template\s*<(?:[^<>;{}]|<[^<>;{}]*>)*>\s*((?:(?:__\w+__|static|inline|extern|__launch_bounds__)"
    rb"(?:\s*\([^()]*\))?\s*)*)void\s+(\w+)\s*\(")


# #define KERNEL axpy<float>: a macro naming a template instance
_TEMPLATE_ID_MACRO_RE = lazy_re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+[\w:]+[ \t]*<[^\n]*>[ \t]*\r?$", re.M)


def template_kernels(data: bytes) -> set[bytes]:
    """Names a launch must wrap in HIP_KERNEL_NAME: kernel templates, and object-like macros that
    name a template instance (the comma in ``k<T, N>`` would split hipLaunchKernelGGL's arguments)."""
    kernels = set()
    if b"template" in data:
        kernels.update(m.group(2) for m in _TEMPLATE_KERNEL_RE.finditer(data) if b"__global__" in m.group(1))
    if b"define" in data:
        kernels.update(m.group(1) for m in _TEMPLATE_ID_MACRO_RE.finditer(data))
    return kernels


def braced_dimensions(ctx: Context, launches: list[int]) -> None:
    """`k<<<grid, {bx, by, 1}>>>(...)`: nvcc takes a braced grid or block, clang's parser of the
    triple chevrons does not; `dim3(bx, by, 1)` is the same value for both (the launches that stay),
    in parentheses, where clang does not reject an `int` expression as narrowing."""
    data = ctx.data
    for open_pos in launches:
        cfg = _config(data, open_pos)
        for s, e in (cfg[0][:2] if cfg else ()):
            if data[s:s + 1] == b"{" and data[e - 1:e] == b"}":
                ctx.edit(s, s + 1, b"dim3(", "launch-braced-dimensions")
                ctx.edit(e - 1, e, b")", "launch-braced-dimensions")


def _base_name(kernel: bytes) -> bytes:
    return kernel.rsplit(b"::", 1)[-1].strip()


def _masked_lookup(data: bytes):
    """A lookup: the (start, end) of the comment or literal holding an offset, else None."""
    from bisect import bisect_right

    from hipport.cxx.scan import masked_spans

    spans = masked_spans(data)
    starts = [s for s, _e in spans]

    def lookup(offset: int):
        i = bisect_right(starts, offset) - 1
        return spans[i] if i >= 0 and spans[i][0] <= offset < spans[i][1] else None

    return lookup


_STATEMENT_BEFORE = lazy_re.compile(rb"(?:[;{}:]|\)|\]\]|\belse|\bdo|\\)\Z")  # (`]]`: `[[likely]]`)
_MACRO_BODY_START = lazy_re.compile(rb"[ \t]*#[ \t]*define[ \t]+\w+(?:\([^()]*\))?[ \t]*\Z")


def _is_statement(data: bytes, kstart: int, close_paren: int, masked) -> bool:
    """Is the launch a statement of its own: after `;`, a brace, a label, an `if (…)` / `else`, or
    at a macro body's start, and followed by `;` (or the end of a macro body)?"""
    line_start = data.rfind(b"\n", 0, kstart) + 1
    in_macro = _MACRO_BODY_START.match(data, line_start, kstart) is not None
    if in_macro:
        before_ok = True
    else:
        at = kstart
        while True:  # back over blanks and comments
            while at > 0 and data[at - 1] in b" \t\r\n":
                at -= 1
            span = masked(at - 1) if at else None
            if span is None:
                break
            at = span[0]
        prev_line = data.rfind(b"\n", 0, at) + 1 if at else 0
        if at == 0 or data[prev_line:at].lstrip(b" \t").startswith(b"#"):
            before_ok = True  # the file's start, or right after a directive line
        else:
            before_ok = _STATEMENT_BEFORE.search(data, max(0, at - 8), at) is not None or _after_statement_macro(data, at)
            if before_ok and data[at - 1:at] == b")" and not _closes_control_head(data, at - 1):
                before_ok = False  # a ')' that closes no control statement: `(void)k<<<…>>>`, `(void)(x), k<<<…>>>`
            elif before_ok and data[at - 1:at] == b":" and _in_conditional(data, at - 1):
                before_ok = False  # `c ? void() : k<<<…>>>(p)`: a branch of a conditional expression
    if not before_ok:
        return False
    if in_macro:  # the body's end: the line's, a continuation, or a ';'
        rest = data[close_paren + 1:data.find(b"\n", close_paren) if b"\n" in data[close_paren:] else len(data)]
        rest = rest.strip(b" \t\r")
        if rest in (b"", b"\\", b";") or rest.startswith((b";", b"//", b"/*")):
            return True
    after = skip_ws(data, close_paren + 1)
    return data[after:after + 1] in (b";", b"", b"}")


_CONTROL_HEAD = lazy_re.compile(rb"(?<![\w$])(?:if(?:\s+constexpr)?|for|while|switch)\s*\Z")


def _closes_control_head(data: bytes, close: int) -> bool:
    """Does the `)` at *close* end an `if (…)`, `for (…)`, `while (…)` head?"""
    depth = 0
    for i in range(close, max(-1, close - 4000), -1):
        c = data[i]
        if c == 0x29:
            depth += 1
        elif c == 0x28:
            depth -= 1
            if depth == 0:
                return _CONTROL_HEAD.search(data, max(0, i - 24), i) is not None
    return False


def _in_conditional(data: bytes, colon: int) -> bool:
    """Is the `:` at *colon* a conditional expression's (a `?` before it in the statement), not a
    label's or a case's?"""
    if data[colon - 1:colon] == b":":
        return False  # `::`
    start = max(data.rfind(b";", 0, colon), data.rfind(b"{", 0, colon), data.rfind(b"}", 0, colon))
    return b"?" in data[start + 1:colon]


_WORD_BEFORE = lazy_re.compile(rb"(?<![\w$])([A-Za-z_]\w*)\Z")


def _after_statement_macro(data: bytes, at: int) -> bool:
    """Parboil's `CUDA_ERRCK` (a `{ … }` macro) on the line before, written without `;`."""
    from hipport.cxx.passes.rename import statement_macros

    word = _WORD_BEFORE.search(data, max(0, at - 64), at)
    return word is not None and word.group(1) in statement_macros(data)


def _splits_macro_argument(text: bytes) -> bool:
    """Has *text* a comma outside parentheses, brackets and braces (template arguments' commas
    included), at which a macro's arguments would be split?"""
    if b"," not in text:
        return False
    depth = 0
    for c in text:
        if c in b"([{":
            depth += 1
        elif c in b")]}":
            depth -= 1
        elif c == 0x2C and depth == 0:  # ','
            return True
    return False


def _keep_lines(data: bytes, start: int, end: int, text: bytes) -> bytes:
    """*text* in place of data[start:end], with the comments and line breaks that span had (and
    the last line's indentation): a multi-line launch keeps its lines, so later line numbers
    (`__LINE__`, compiler messages, a debugger's) still match the CUDA source, and its notes."""
    comments = [m.span() for m in TOKEN_RE.finditer(data, start, end) if m.lastgroup == "comment"] \
        if b"/" in data[start:end] else []
    breaks = data.count(b"\n", start, end) - sum(data.count(b"\n", s, e) for s, e in comments)
    if not breaks and not comments:
        return text
    newline = b"\r\n" if data.count(b"\r\n", start, end) >= breaks > 0 else b"\n"  # (a CRLF file stays one)
    if breaks and data.count(b"\\" + newline, start, end) >= breaks:
        newline = b" \\" + newline  # spliced lines (a launch in a #define body) stay spliced
    out, at = text.rstrip(b" ") if breaks else text, start
    for s, e in comments + [(end, end)]:
        out += newline * (data.count(b"\n", at, s))
        if s < end:
            out += (b"" if out.endswith((b"(", b" ", b"\n")) else b" ") + data[s:e]
            if data[e:e + 1] in (b" ", b"\t") and data[s + 1:s + 2] == b"*":
                out += b" "  # (`/* why */ (d, 1)`: the comment stays apart from what follows)
        at = e
    last_line = data.rfind(b"\n", start, end)
    indent = data[last_line + 1:end] if last_line >= 0 else b""
    return out + (indent if indent and not indent.strip() else b"")


def run(ctx: Context, launches: list[int]) -> None:
    data = ctx.data
    templates = template_kernels(data)
    masked = _masked_lookup(data)
    for open_pos in launches:
        kstart = expression_start(data, open_pos)
        cfg = _config(data, open_pos)
        if kstart is None or cfg is None:
            ctx.sink.add("HP018", "kernel launch could not be parsed; left in <<<>>> syntax", open_pos,
                         hint="hipcc accepts <<<>>>; rewrite by hand if hipLaunchKernelGGL is required")
            continue
        cfg_args, close_pos = cfg
        paren = skip_ws(data, close_pos + 3)
        if data[paren:paren + 1] != b"(":
            ctx.sink.add("HP018", "kernel launch without an argument list; left unchanged", open_pos)
            continue
        call = call_arguments(data, paren)
        if call is None or not 2 <= len(cfg_args) <= 4:
            ctx.sink.add("HP018", "kernel launch could not be parsed; left in <<<>>> syntax", open_pos)
            continue
        args, close_paren = call
        if re.search(rb"\n[ \t]*#", data[kstart:close_paren]):
            ctx.sink.add("HP018", "kernel launch with a preprocessor directive inside; left in <<<>>> syntax", open_pos,
                         hint="hipcc compiles <<<>>>; move the #if around whole launches to have them rewritten",
                         severity="note")
            continue
        if not _is_statement(data, kstart, close_paren, masked):
            # `(void)(k<<<g, b>>>(x), 0)`, `return k<<<…>>>(x);`: hipLaunchKernelGGL is a statement
            # macro in HIP; the <<<>>> form, which hipcc accepts, stays
            ctx.sink.add("HP018", "kernel launch used as an expression; left in <<<>>> syntax (hipLaunchKernelGGL is a "
                         "statement)", open_pos, hint="hipcc compiles <<<>>>; make the launch a statement of its own "
                         "to have it rewritten", severity="note")
            continue
        kernel_end = _trim(data, kstart, open_pos)[1]
        kernel = data[kstart:kernel_end]
        # (`Holder<float, int>::kern`: a comma the macro would split at needs HIP_KERNEL_NAME too)
        templated = kernel.endswith(b">") or _base_name(kernel) in templates or _splits_macro_argument(kernel)
        ctx.edit(kstart, kstart, b"hipLaunchKernelGGL(" + (b"HIP_KERNEL_NAME(" if templated else b""), "launch")
        (g0, g1), (b0, b1) = cfg_args[0], cfg_args[1]
        # dim3(...) arguments are not wrapped again
        grid_wrap = not data.startswith(b"dim3(", g0)
        block_wrap = not data.startswith(b"dim3(", b0)
        ctx.edit(kernel_end, g0, _keep_lines(data, kernel_end, g0, (b")" if templated else b"") + (b", dim3(" if grid_wrap else b", ")), "launch")
        ctx.edit(g1, b0, _keep_lines(data, g1, b0, (b")" if grid_wrap else b"") + (b", dim3(" if block_wrap else b", ")), "launch")
        close_block = b")" if block_wrap else b""
        rest = cfg_args[2:]
        # `Tile<float, 32>::bytes` as the shared-memory size or stream: parenthesized, or its comma
        # would split hipLaunchKernelGGL's arguments
        opens, closes = [b"(" if _splits_macro_argument(data[a:z]) else b"" for a, z in rest], \
            [b")" if _splits_macro_argument(data[a:z]) else b"" for a, z in rest]
        if not rest:
            tail_start, tail = b1, close_block + b", 0, 0"
        elif len(rest) == 1:
            ctx.edit(b1, rest[0][0], _keep_lines(data, b1, rest[0][0], close_block + b", " + opens[0]), "launch")
            tail_start, tail = rest[0][1], closes[0] + b", 0"
        else:
            ctx.edit(b1, rest[0][0], _keep_lines(data, b1, rest[0][0], close_block + b", " + opens[0]), "launch")
            ctx.edit(rest[0][1], rest[1][0], _keep_lines(data, rest[0][1], rest[1][0], closes[0] + b", " + opens[1]), "launch")
            tail_start, tail = rest[1][1], closes[1]
        if args:
            ctx.edit(tail_start, args[0][0], _keep_lines(data, tail_start, args[0][0], tail + b", "), "launch")
        else:
            ctx.edit(tail_start, close_paren, _keep_lines(data, tail_start, close_paren, tail), "launch")
        ctx.stats.converted["runtime/launch"] += 1
        ctx.needs_hip_runtime = True
