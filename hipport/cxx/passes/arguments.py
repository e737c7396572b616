"""Fit the arguments of calls renamed to a target with other parameters (mostly --roc / --miopen ones).

The edits come from ``hipport/rules/arguments/*.toml`` (see :mod:`hipport.rules.call_edits`).
They are applied only where the rename pass writes that very target, and only to a call with the
argument count the edits were written for: anything else is reported, never guessed.  Every edit
is a small span edit on the original bytes, so the call's own layout (line breaks, comments
between arguments) survives, as with hipify-clang's replacements.
"""

from __future__ import annotations

from hipport.cxx.calls import call_arguments, code_span, skip_ws
from hipport.cxx.context import Context
from hipport.cxx.lexer import TOKEN_RE, directive_end
from hipport.edits import Edit, apply_edits
from hipport import lazy_re


#: every edited name starts with one of these (tests/test_arguments.py checks): a file with none of
#: them needs no look at its calls, and the tables are not even read
PREFIXES = (b"cusparse", b"cudnn", b"cublas", b"cuMemcpy", b"cuCtxCreate", b"cudaGraph", b"cuGraph",
            b"cudaStream", b"cuStream")


_DIRECTIVE_LINE = lazy_re.compile(rb"\n[ \t]*#")


def run(ctx: Context, idents: list[tuple[int, int]]) -> set[int]:
    """Edit the calls in *idents* that need it; returns the offsets of the calls edited."""
    opts = ctx.options
    if not any(p in ctx.data for p in PREFIXES):
        return set()
    from hipport.cxx.passes.calls import macro_being_defined
    from hipport.cxx.passes.rename import is_member_or_qualified
    from hipport.rules.call_edits import call_edits

    table = call_edits()
    data = ctx.data
    done: set[int] = set()
    taken: set[bytes] | None = None  # hipify_* names the file's code uses, read at the first declare
    for start, end in idents:
        edit = table.get(data[start:end].decode("ascii", "replace"))
        if edit is None or start in ctx.user_entities or is_member_or_qualified(data, start) \
                or macro_being_defined(data, start):
            continue
        rule = ctx.rules.by_name.get(edit.cuda)
        renamed_to = None if rule is None else rule.target(roc=opts.roc, miopen=opts.miopen)
        # (a HIP function of another name for this form of the call: CUDA 13's seven-argument
        # cudaStreamGetCaptureInfo is hipStreamGetCaptureInfo_v2)
        if renamed_to is None or (renamed_to != edit.target and not (edit.option == "hip" and renamed_to == rule.hip)):
            continue
        paren = skip_ws(data, end)
        parsed = call_arguments(data, paren) if data[paren:paren + 1] == b"(" else None
        if parsed is None:
            continue
        args, close = parsed
        if _DIRECTIVE_LINE.search(data, paren, close):
            # `#if CUDART_VERSION >= 13000 / edges.data(), / #endif` between the arguments: the
            # preprocessor picks the form (HIP defines no CUDART_VERSION, so the guarded one goes)
            ctx.sink.add("HP007", f"'{edit.cuda}' has preprocessor lines among its arguments: arguments left as "
                         "they are", start, end=end, severity="note",
                         hint=f"check that the arguments the HIP build sees fit {edit.target}")
            continue
        if len(args) != edit.args:
            if edit.other_counts == "leave":  # another form of the call, which the rename alone fits
                continue
            ctx.sink.add("HP007", f"'{edit.cuda}' has {len(args)} arguments here; {edit.target} needs the "
                         f"{edit.args} of CUDA's declaration rewritten: arguments left as they are",
                         start, end=end, hint="pass every argument explicitly, then translate again")
            continue
        if any(op[0] == "declare" for op in edit.ops):
            if not _can_declare_before(data, start):
                ctx.sink.add("HP007", f"'{edit.cuda}' needs locals declared before its statement, which is the "
                             "body of an else, do or case label here: arguments left as they are", start, end=end,
                             hint="put the call in braces, then translate again")
                continue
            if taken is None:
                taken = _code_names(data)
        _apply(ctx, edit, args, start, taken)
        if renamed_to != edit.target:
            ctx.edits = [e for e in ctx.edits if not (e.start == start and e.end == end)]
            ctx.edit(start, end, edit.target.encode(), "call-arguments")
        if edit.include and edit.include.encode() not in ctx.extra_includes:
            ctx.extra_includes.append(edit.include.encode())
        if edit.warn and not _only_nulls_removed(data, edit, args):
            ctx.sink.add("HP007", f"'{edit.cuda}' → '{edit.target}': {edit.warn}", start, end=end,
                         hint=edit.note or "review the rewritten call")
        done.add(start)
    return done


_NULL = lazy_re.compile(rb"\s*(?:nullptr|NULL|0|0L|\(\s*\w+\s*\*\s*\)\s*(?:nullptr|NULL|0))\s*")


def _only_nulls_removed(data: bytes, edit, args: list[tuple[int, int]]) -> bool:
    """`cuCtxCreate(&c, nullptr, 0, dev)`, edge data `nullptr`: what is dropped said "none"."""
    removed = [op[1] for op in edit.ops if op[0] == "remove"]
    return bool(removed) and len(removed) == len(edit.ops) and \
        all(_NULL.fullmatch(data, *args[i]) for i in removed)


def _apply(ctx: Context, edit, args: list[tuple[int, int]], call_start: int, taken: set[bytes] | None) -> None:
    data = ctx.data
    n = len(args)
    tail = args[-1][1]  # appended arguments go after the last one
    code = [code_span(data, s, e) for s, e in args]  # an argument without the comments around it
    removed = {op[1] for op in edit.ops if op[0] == "remove"}
    moved = {i for op in edit.ops if op[0] == "move" for i in range(op[1], op[1] + op[2])}
    rewritten = removed | moved | {op[1] for op in edit.ops if op[0] == "replace"}
    rewritten |= {i + k for op in edit.ops if op[0] == "swap" for i in op[1:3] for k in range(op[3])}
    # the rename pass has already renamed what these arguments name: their text is taken over
    # translated, and the renames inside them give way to the arguments' own edits
    translated = _take_over(ctx, [code[i] for i in rewritten], [code[op[1]] for op in edit.ops if op[0] == "copy"])

    def text(i: int, j: int | None = None) -> bytes:
        j = i if j is None else j
        pieces = []
        for k in range(i, j + 1):
            pieces.append(translated.get(code[k], data[slice(*code[k])]))
            if k < j:
                pieces.append(data[code[k][1]:code[k + 1][0]])
        return b"".join(pieces)

    appended: list[bytes] = []  # one edit for all of them: two equal insertions at one place would merge

    def put(before: int, piece: bytes) -> None:
        if before < n:
            ctx.edit(args[before][0], args[before][0], piece + b", ", "call-arguments")
        else:
            appended.append(b", " + piece)

    def cut(first: int, last: int) -> None:
        """Delete arguments first..last with one of their commas."""
        keep_after = next((k for k in range(last + 1, n) if k not in removed and k not in moved), None)
        if keep_after is not None or first == 0:
            ctx.edit(args[first][0], args[last + 1][0] if last + 1 < n else args[last][1], b"", "call-arguments")
        else:
            ctx.edit(args[first - 1][1], args[last][1], b"", "call-arguments")

    for op in sorted(edit.ops, key=lambda op: op[1] if isinstance(op[1], int) else n):
        kind = op[0]
        if kind == "insert":
            put(op[1], op[2].encode())
        elif kind == "replace":
            ctx.edit(*code[op[1]], op[2].encode(), "call-arguments")
        elif kind == "remove":
            cut(op[1], op[1])
        elif kind == "cast":  # "T" wraps the argument as T(arg); a "{}" in it marks where it goes
            s, e = code[op[1]]
            before, _, after = (op[2] if "{}" in op[2] else op[2] + "({})").partition("{}")
            if not data.startswith(before.encode(), s):
                ctx.edit(s, s, before.encode(), "call-arguments")
                ctx.edit(e, e, after.encode(), "call-arguments")
        elif kind == "copy":
            put(op[2], text(op[1]))
        elif kind == "move":
            first, count, dest = op[1], op[2], op[3]
            cut(first, first + count - 1)
            put(dest, text(first, first + count - 1))
        elif kind == "swap":
            i, j, count = op[1], op[2], op[3]
            for k in range(count):
                ctx.edit(*code[i + k], text(j + k), "call-arguments")
                ctx.edit(*code[j + k], text(i + k), "call-arguments")
    if appended:
        ctx.edit(tail, tail, b"".join(appended), "call-arguments")
    declared = [op for op in edit.ops if op[0] == "declare"]
    if declared:
        _declare(ctx, declared, call_start, tail, taken)


def _take_over(ctx: Context, rewritten: list[tuple[int, int]],
               copied: list[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
    """The translated text of each span; the edits inside the *rewritten* ones are withdrawn."""
    spans = set(rewritten) | set(copied)
    if not spans:
        return {}
    low, high = min(s for s, _ in spans), max(e for _, e in spans)
    inside: dict[tuple[int, int], list[Edit]] = {span: [] for span in spans}
    keep = []
    for e in ctx.edits:
        span = None if e.end < low or e.start >= high else next(
            (sp for sp in spans if sp[0] <= e.start and e.end <= sp[1] and e.start < sp[1]), None)
        if span is not None:
            inside[span].append(e)
        if span is None or span not in rewritten:
            keep.append(e)
    ctx.edits[:] = keep
    return {(s, e): apply_edits(ctx.data[s:e], [Edit(x.start - s, x.end - s, x.text, x.rule) for x in edits])
            for (s, e), edits in inside.items()}


def _declare(ctx: Context, declared: list[tuple], call_start: int, tail: int, taken: set[bytes]) -> None:
    """Declare the new arguments as value-initialised locals before the statement, and pass them.

    Names are ``hipify_<parameter>`` as hipify-clang writes them; a second call gets ``_1``, a
    third ``_2`` ..., so no two calls of a file share a local and none collides with a name the
    file's code already uses."""
    data = ctx.data
    statement = _statement_start(data, call_start)
    k = 0
    while any(b"hipify_" + op[2].encode() + (b"_%d" % k if k else b"") in taken for op in declared):
        k += 1
    suffix = b"_%d" % k if k else b""
    names = [b"hipify_" + op[2].encode() + suffix for op in declared]
    taken.update(names)
    line_start = data.rfind(b"\n", 0, statement) + 1
    indent = data[line_start:statement]
    if indent.strip(b" \t"):  # the statement shares its line with earlier code
        text = b"".join(op[1].encode() + b" " + name + b" = {}; " for op, name in zip(declared, names))
        ctx.edit(statement, statement, text, "call-arguments")
    else:
        nl = ctx.newline
        text = b"".join(indent + op[1].encode() + b" " + name + b" = {};" + nl for op, name in zip(declared, names))
        ctx.edit(line_start, line_start, text, "call-arguments")
    ctx.edit(tail, tail, b"".join(b", " + name for name in names), "call-arguments")


def _can_declare_before(data: bytes, call_start: int) -> bool:
    """A declaration put before `else f();`, `do f(); while` or `case 1: f();` would change what the
    branch runs or jump past an initialisation."""
    m = TOKEN_RE.match(data, _statement_start(data, call_start))
    return m is None or m.group() not in (b"else", b"do", b"case", b"default")


def _code_names(data: bytes) -> set[bytes]:
    """The ``hipify_*`` identifiers the file's code (not its comments or strings) already uses."""
    return {m.group() for m in TOKEN_RE.finditer(data) if m.lastgroup == "ident" and m.group().startswith(b"hipify_")}


def _statement_start(data: bytes, pos: int) -> int:
    """The offset of the first token of the statement holding *pos*."""
    start = 0
    depth = 0  # () and [] nesting: a ';' inside a for(...) header does not end a statement
    expect_start = True
    i = 0
    while (m := TOKEN_RE.search(data, i, pos)) is not None:
        i = max(m.end(), i + 1)
        group = m.lastgroup
        if group == "comment":
            continue
        if group == "directive":  # a preprocessor line is not part of any statement
            i = directive_end(data, m.end()) + 1
            continue
        tok = m.group()
        if expect_start:
            start, expect_start = m.start(), False
        if tok in (b"(", b"["):
            depth += 1
        elif tok in (b")", b"]"):
            depth = max(depth - 1, 0)
        elif depth == 0 and tok in (b";", b"{", b"}"):
            expect_start = True
    if expect_start:
        start = pos
    return start
