"""Functions declared plainly and defined later as `__device__`: class members defined out of
line, and free functions with a C-style forward declaration.

    class Spinlock { public: void acquire(); … };
    inline __device__ void Spinlock::acquire() { … }

nvcc lets the definition's execution space win (with a warning); clang rejects the definition
("out-of-line definition does not match any declaration").  The declaration in the class gets the
definition's `__host__` / `__device__`, which is what nvcc compiled.  The other way round, a
`__device__` member defined out of line without one (`T Acc<T>::get(int i) const { … }`; nvcc's
warning #20037), the definition gets the declaration's space, after its template heads.  Only for a class the file
defines, and a name declared there once (an overload set is not ours to pair up).  The same holds
for a file-scope prototype (`static int idx(int, int);`) of a function the file defines once,
later, as `__host__ __device__` (nvcc's warning #20040; clang: "cannot overload").
"""

from __future__ import annotations

import re

from hipport.cxx.calls import call_arguments, skip_ws
from hipport.cxx.context import Context
from hipport.cxx.definitions import declaration_start, matching_brace
from hipport.cxx.lexer import glued_before
from hipport.cxx.scan import Scan
from hipport import lazy_re

# `Vec::norm2(`, `Vec::~Vec(`, `Vec::operator+(` (a literal first: a fast search)
_QUALIFIED_NAME = lazy_re.compile(rb"::\s*(operator\s+[A-Za-z_][\w:\s*&<>,]*?"  # a conversion: `F::operator float(`
                                  rb"|~?[A-Za-z_]\w*(?:\s*(?:\(\s*\)|\[\s*\]|[^\s\w()\[\];{}]+))?)\s*\(")
_CONVERSION = lazy_re.compile(rb"operator\s+(.+)", re.S)
_SPACE = lazy_re.compile(rb"(?<![\w$])__(host|device)__(?![\w$])")
_ACCESS = lazy_re.compile(rb"(?:(?:public|private|protected)\s*:\s*)*")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"__device__" in data and b";" in data:
        _free_prototypes(ctx, sweep)
    if b"::" not in data:
        return
    local = b"__device__" in data and (b"class" in data or b"struct" in data)
    headers = _header_classes(ctx) if b'"' in data else []
    if not local and not headers:
        return
    bodies: dict[bytes, tuple[bytes, tuple[int, int], Scan, bool] | None] = {}
    done: set[int] = set()
    for m in _QUALIFIED_NAME.finditer(data):
        owner = _owner(data, m.start())
        if owner is None:
            continue
        cls, owner_at = owner
        start = declaration_start(data, owner_at)
        head = data[start:owner_at]
        if sweep.in_masked(owner_at) or b";" in head or b"}" in head or b"(" in head:
            continue
        close = _parameters_end(data, m.end() - 1)
        if close is None or not re.match(rb"[^;{}]*\{", data[close:close + 200]):
            continue  # a call or a declaration, not a definition
        name = m.group(1)
        if cls not in bodies:
            bodies[cls] = _find_class(data, cls, sweep, local, headers)
        found = bodies[cls]
        if found is None:
            continue
        text, body, text_sweep, in_this_file = found
        conversion = _CONVERSION.fullmatch(name)
        if conversion is not None:  # `operator float`, `operator const char*`
            words = re.findall(rb"[A-Za-z_]\w*|::|[*&<>,]", conversion.group(1))
            spelled = b"operator\\s+" + b"\\s*".join(re.escape(w) for w in words)
        elif name.startswith(b"operator") and not re.fullmatch(rb"operator\s*\W+", name):
            continue  # a member named operatorX: not ours to pair
        else:
            spelled = re.escape(name) if not name.startswith(b"operator") else \
                b"operator\\s*" + re.escape(name[len(b"operator"):].strip())
        members = text[body[0]:body[1]]
        declarations = [d for d in re.finditer(rb"(?<![\w$~:.>])" + spelled + rb"\s*\(", members)
                        if not text_sweep.in_masked(body[0] + d.start())
                        and members.count(b"{", 0, d.start()) == members.count(b"}", 0, d.start())]  # not a nested class's
        if len(declarations) > 1:  # an overload set: the declaration whose parameters the definition has
            wanted = _parameter_types(data, m.end() - 1)
            declarations = [d for d in declarations if _parameter_types(text, body[0] + d.end() - 1) == wanted]
        if len(declarations) != 1:
            continue
        at = body[0] + declarations[0].start()
        line = _statement_start(text, max(declaration_start(text, at), body[0]), at)
        line = _ACCESS.match(text, skip_ws(text, line)).end()
        line = skip_ws(text, line)
        decl_end = _parameters_end(text, body[0] + declarations[0].end() - 1)
        if decl_end is None or not re.match(rb"[^;{}]*;", text[decl_end:decl_end + 200]):
            continue  # defined in the class too
        declared = sorted(set(_SPACE.findall(text, line, at)))
        defined = sorted(set(_SPACE.findall(head)))
        if defined and not declared and in_this_file:  # the definition's space wins (nvcc): the declaration gets it
            where, spaces = _after_template_heads(data, line), defined
        elif declared and not defined:  # `T Acc<T>::get(int i) const { … }` of a `__device__ T get(int) const;`
            where, spaces = _after_template_heads(data, start), declared
        else:
            continue
        if where in done:
            continue
        done.add(where)
        qualifiers = b" ".join(b"__" + s + b"__" for s in sorted(spaces, key=lambda s: s != b"host")) + b" "
        ctx.edit(where, where, qualifiers, "member-execution-space")


def _header_classes(ctx: Context) -> list[tuple[bytes, Scan]]:
    """The included project headers that declare device members (`particle.cuh`'s class, whose
    members `particle.cu` defines): their declarations' spaces go onto this file's definitions."""
    from hipport.cxx.project_headers import included_texts
    from hipport.cxx.scan import masked_spans

    return [(t, Scan(t, masked=masked_spans(t))) for t in included_texts(ctx)
            if b"__device__" in t and (b"class" in t or b"struct" in t)]


def _find_class(data: bytes, cls: bytes, sweep: Scan, local: bool, headers: list[tuple[bytes, Scan]]):
    """(text, class body, its sweep, in this file?) of the one definition of *cls*: this file's,
    else an included header's."""
    body = _class_body(data, cls, sweep) if local else None
    if body is not None:
        return data, body, sweep, True
    for text, text_sweep in headers:
        body = _class_body(text, cls, text_sweep)
        if body is not None:
            return text, body, text_sweep, False
    return None


_TEMPLATE_HEAD = lazy_re.compile(rb"template\s*<")


def _owner(data: bytes, colons: int) -> tuple[bytes, int] | None:
    """The class before `::` (`Vec::`, `Acc<T>::`, `Acc<T, N>::`) and where its name starts."""
    end = colons
    while end > 0 and data[end - 1] in b" \t\r\n":
        end -= 1
    if data[end - 1:end] == b">":
        depth, pos = 0, end - 1
        while pos >= max(0, end - 200):
            c = data[pos]
            if c == 0x3E:  # >
                depth += 1
            elif c == 0x3C:  # <
                depth -= 1
                if depth == 0:
                    break
            elif c in b";{}()":
                return None
            pos -= 1
        else:
            return None
        end = pos
    # the class's name, then the scopes before it (`ns::B::f`, `Outer::Inner::g`): read back by
    # hand, a pattern searched over the window tried every start in it
    start = _word_start(data, end)
    if start == end or data[start:start + 1].isdigit():
        return None
    cls = data[start:end]
    while True:
        before = _skip_ws_back(data, start)
        if data[before - 2:before] != b"::":
            break
        scope_end = _skip_ws_back(data, before - 2)
        scope = _word_start(data, scope_end)
        if scope == scope_end:
            return None  # `::ns::B`: a global qualifier
        start = scope
    if start > 0 and data[start - 1:start] == b":":
        return None
    return cls, start


def _word_start(data: bytes, end: int) -> int:
    i = end
    while i > 0 and (data[i - 1:i].isalnum() or data[i - 1] in b"_$"):
        i -= 1
    return i


def _skip_ws_back(data: bytes, pos: int) -> int:
    while pos > 0 and data[pos - 1] in b" \t\r\n":
        pos -= 1
    return pos


def _after_template_heads(data: bytes, start: int) -> int:
    """Past `template <…>` heads (a class template's, then a member template's): an execution
    space goes among the declaration's specifiers, after them."""
    pos = start
    while (m := _TEMPLATE_HEAD.match(data, pos)) is not None:
        depth, i = 1, m.end()
        while i < len(data) and depth:
            depth += {0x3C: 1, 0x3E: -1}.get(data[i], 0)
            i += 1
        pos = skip_ws(data, i)
    return pos


def _parameter_types(data: bytes, open_paren: int) -> tuple[bytes, ...] | None:
    """The parameters' types (names and defaults left out): how an overload's declaration and
    its out-of-line definition are paired."""
    parsed = call_arguments(data, open_paren)
    if parsed is None:
        return None
    types = []
    for s, e in parsed[0]:
        words = re.findall(rb"[A-Za-z_]\w*|::|[*&]", data[s:e].split(b"=")[0])
        if len(words) > 1 and re.fullmatch(rb"[A-Za-z_]\w*", words[-1]) and words[-2] not in (b"::",) \
                and words[-1] not in (b"int", b"float", b"double", b"char", b"long", b"short", b"unsigned", b"bool"):
            words = words[:-1]  # the parameter's name
        types.append(b" ".join(words))
    return tuple(t for t in types if t != b"void")


def _statement_start(data: bytes, line: int, at: int) -> int:
    """Where the declaration holding *at* starts on its line: after another member's `;` or the
    class's `{` there (`struct Vec { float x, y; float norm2() const; };`)."""
    cut = max(data.rfind(b";", line, at), data.rfind(b"{", line, at), data.rfind(b"}", line, at))
    return skip_ws(data, cut + 1) if cut >= 0 else line


def _parameters_end(data: bytes, open_paren: int) -> int | None:
    """Just past the `)` matching the `(` at *open_paren*."""
    parsed = call_arguments(data, open_paren)
    return None if parsed is None else parsed[1] + 1


def _class_body(data: bytes, cls: bytes, sweep: Scan) -> tuple[int, int] | None:
    """(after the `{`, the `}`) of the one definition of class *cls* in the file."""
    heads = [h for h in re.finditer(rb"\b(?:class|struct)\s+" + re.escape(cls) + rb"\b[^;{]*\{", data)
             if not sweep.in_masked(h.start())]
    if len(heads) != 1:
        return None
    close = matching_brace(data, heads[0].end() - 1, sweep)
    return None if close is None else (heads[0].end(), close)


_HEAD_TO_NAME = lazy_re.compile(rb"[^;{}()=]*?([A-Za-z_]\w*)\s*\(")


def _free_prototypes(ctx: Context, sweep: Scan) -> None:
    from hipport.cxx.definitions import enclosing_braces

    data = ctx.data
    heads: dict[bytes, list[int]] = {}  # name -> offsets of the names that follow an execution space
    for m in _SPACE.finditer(data):
        head = _HEAD_TO_NAME.match(data, m.end())
        if head is None or data[max(0, head.start(1) - 2):head.start(1)] == b"::":
            continue  # (a member defined out of line: above)
        at = head.start(1)
        if at not in heads.setdefault(head.group(1), []):
            heads[head.group(1)].append(at)
    single = {name: ats[0] for name, ats in heads.items() if len(ats) == 1}
    if not single:
        return
    earlier: dict[bytes, list[int]] = {}  # the names' uses before their qualified one (few files have any)
    names = b"|".join(re.escape(n) for n in sorted(single, key=len, reverse=True))
    for p in re.finditer(rb"(" + names + rb")\s*\(", data):  # every name in one sweep (the names first: fast)
        name = p.group(1)
        if p.start() < single[name] and not glued_before(data, p.start(), b".>:~"):
            earlier.setdefault(name, []).append(p.start())
    for name, uses in earlier.items():
        name_at = single[name]
        close = _parameters_end(data, data.index(b"(", name_at))
        if close is None or sweep.in_masked(name_at) or not re.match(rb"[^;{}]*\{", data[close:close + 200]):
            continue  # a declaration or a call, not the definition
        start = declaration_start(data, name_at)
        spaces = sorted(set(_SPACE.findall(data, start, name_at)))
        found = []
        for use in uses:
            begin = _statement_start(data, declaration_start(data, use), use)
            head = data[begin:use]
            end = _parameters_end(data, data.index(b"(", use))
            if sweep.in_masked(use) or not head.strip() or b"=" in head or b"return" in head \
                    or end is None or not re.match(rb"[^;{}]*;", data[end:end + 120]):
                continue  # a call, or a definition
            if next(enclosing_braces(data, use, sweep), None) is None:
                found.append((begin, head))
        if len(found) == 1 and not _SPACE.search(found[0][1]):
            qualifiers = b" ".join(b"__" + s + b"__" for s in sorted(spaces, key=lambda s: s != b"host")) + b" "
            ctx.edit(found[0][0], found[0][0], qualifiers, "member-execution-space")
