"""Built-in index variables where HIP 5.2's property objects do not act as `unsigned int`.

CUDA's `threadIdx.x` is an `unsigned int`.  In HIP before 5.5 (Debian's and Ubuntu's 5.2) it is an
object that converts to one, which is not the same thing wherever the type is deduced or matched
exactly:

- passed through printf's `...` it does not compile ("cannot compile this non-scalar arg to printf");
- `min(threadIdx.x, n)` / `std::max(blockIdx.x, n)` find no overload, or several; a function
  template of the file's own (`my_min(threadIdx.x, n)`) deduces the object's type, and so does
  `decltype(threadIdx.x)`; a variadic logging macro that hands its arguments to printf is printf;
- `auto i = threadIdx.x;` makes `i` the object, so `i += 1` does not compile;
- a whole `threadIdx` or `blockIdx` does not convert to `uint3` (`uint3 t = threadIdx;`, `f(blockIdx)`).

In those places an operand that is exactly `threadIdx.x` (or `blockIdx`, `blockDim`, `gridDim`;
`.x`, `.y`, `.z`) gets `(unsigned int)`, the type CUDA gives it; arithmetic on one is already a
scalar, and everywhere else the conversion does its job.  A whole `threadIdx`, `blockIdx`,
`blockDim` or `gridDim` becomes `hipport::index3(threadIdx.x, threadIdx.y, threadIdx.z)` (compat.h):
the value CUDA gives, which converts to `uint3` and to `dim3` as CUDA's do (BART's
`pmuladd(blockIdx, blockDim, threadIdx)` takes dim3s; helper_math's `blockIdx * blockDim + threadIdx`
uint3s; HIP 5.2's `dim3` has no constructor from a `uint3`).
"""

from __future__ import annotations

import re

from hipport.cxx.calls import call_arguments
from hipport.cxx.context import Context
from hipport.cxx.lexer import glued_before
from hipport.cxx.scan import Scan
from hipport import lazy_re

_BUILTIN = lazy_re.compile(rb"(?:threadIdx|blockIdx|blockDim|gridDim)\s*\.\s*[xyz]")
# printf and the min/max overload sets (unqualified, ::, std::); a literal first: a fast search
_CALL = lazy_re.compile(rb"(printf|min|max)\s*\(")
_CALL_ARGS = {b"printf": slice(1, None), b"min": slice(0, None), b"max": slice(0, None)}
# `auto i = threadIdx.x;` (const, &&, several declarators not): the initializer is the operand
_AUTO = lazy_re.compile(rb"auto\s*(?:&&\s*)?[A-Za-z_]\w*\s*=\s*((?:threadIdx|blockIdx|blockDim|gridDim)\s*\.\s*[xyz])\s*[;,)]")
_QUALIFIER = lazy_re.compile(rb"(\w*)\s*::\Z")
_CAST = b"(unsigned int)"
COMPAT = b"hipport/compat.h"


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"uint3" in data and b"dim3" in data:
        _dim3_from_uint3(ctx, sweep)
    if not (b"Idx" in data or b"Dim" in data):
        return
    templates = _function_templates(data, sweep) if b"template" in data else set()
    if b"printf" in data and b"define" in data:  # `#define DPRINT(fmt, ...) printf("[dev] " fmt, __VA_ARGS__)`
        templates |= {m.group(1) for m in _PRINTF_MACRO.finditer(data)}
    if b"printf" in data or b"min" in data or b"max" in data or templates:
        _call_arguments(ctx, sweep, templates)
    if b"decltype" in data:
        for m in _DECLTYPE.finditer(data):  # `decltype(threadIdx.x) v = 3;`: the unsigned CUDA declares
            if not sweep.in_masked(m.start()) and not glued_before(data, m.start()):
                ctx.edit(m.start(1), m.start(1), _CAST, "builtin-index")
    if b"Idx" in data or b"Dim" in data:
        _whole_builtins(ctx, sweep)
    if b"auto" in data:
        for m in _AUTO.finditer(data):  # a literal first: a fast search; the word boundary is checked here
            start = m.start()
            if glued_before(data, start):
                continue
            if not sweep.in_masked(start):
                ctx.edit(m.start(1), m.start(1), _CAST, "builtin-index")
        aliases = {m.group(1) for m in _INDEX_MACRO.finditer(data)} if b"define" in data else set()
        if aliases:  # `#define TID threadIdx.x` … `auto t = TID;`
            alias_auto = re.compile(rb"auto\s*(?:&&\s*)?[A-Za-z_]\w*\s*=\s*(" + b"|".join(re.escape(a) for a in sorted(aliases))
                                    + rb")\s*[;,)]")
            for m in alias_auto.finditer(data):
                if not glued_before(data, m.start()) and not sweep.in_masked(m.start()):
                    ctx.edit(m.start(1), m.start(1), _CAST, "builtin-index")


_UINT3_DECLARED = lazy_re.compile(rb"\buint3\s+(?:const\s+)?&?\s*([A-Za-z_]\w*)\s*(?=[=;,)({])")


def _dim3_from_uint3(ctx: Context, sweep: Scan) -> None:
    """`dim3 grid(u)`, `dim3 grid = u;`, `dim3(u)` of a `uint3` variable the file declares: CUDA's
    dim3 converts from a uint3, HIP 5.2's has only the three-number constructor."""
    data = ctx.data
    names = {m.group(1) for m in _UINT3_DECLARED.finditer(data) if not sweep.in_masked(m.start())}
    if not names:
        return
    alternatives = b"|".join(re.escape(n) for n in sorted(names))
    pattern = re.compile(rb"\bdim3(?:\s+[A-Za-z_]\w*)?\s*(?:[({]\s*(" + alternatives + rb")\s*[)}]|=\s*("
                         + alternatives + rb")\s*;)")
    for m in pattern.finditer(data):
        if sweep.in_masked(m.start()):
            continue
        group = 1 if m.group(1) else 2
        name = m.group(group)
        ctx.edit(m.start(group), m.end(group), b", ".join(name + b"." + c for c in (b"x", b"y", b"z")), "dim3-from-uint3")
        if group == 2:  # `dim3 g = u;` → `dim3 g = dim3(u.x, u.y, u.z);`
            ctx.edit(m.start(group), m.start(group), b"dim3(", "dim3-from-uint3")
            ctx.edit(m.end(group), m.end(group), b")", "dim3-from-uint3")


_WHOLE = lazy_re.compile(rb"(threadIdx|blockIdx|blockDim|gridDim)(?![\w$])(?!\s*\.)")
# `extern const uint3 threadIdx;` (host code that declares the built-ins for an IDE): a declarator,
# not a use — the word before it is a type, not an operator or a keyword like `return`
_DECLARED_AFTER = lazy_re.compile(rb"(?<![\w$])(?!(?:return|case|throw|co_return|co_yield)\b)[A-Za-z_]\w*\s*\Z")


def _whole_builtins(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    shadowed: list[tuple[bytes, int, int]] = []  # (name, declared at, end of its scope)
    for m in _WHOLE.finditer(data):
        start = m.start()
        if glued_before(data, start, b".&") or data[start - 2:start] in (b"->", b"::"):
            continue
        if any(name == m.group(1) and declared_at < start < end for name, declared_at, end in shadowed):
            continue  # the program's own variable of that name (a CPU reference's loop counter)
        if sweep.in_masked(start):
            continue
        if re.search(rb"sizeof\s*\(\s*\Z", data[max(0, start - 16):start]):
            # `sizeof(threadIdx)`: CUDA's 12 bytes, not the size of HIP's coordinate object
            ctx.edit(start, m.end(), b"uint3" if m.group(1) in (b"threadIdx", b"blockIdx") else b"dim3", "builtin-index")
            continue
        declared = _DECLARED_AFTER.search(data, max(0, start - 64), start)
        if declared and not re.search(rb"#[ \t]*define[ \t]+\Z", data[max(0, declared.start() - 32):declared.start()]):
            # (after `#define NAME` the word is the macro's name, and the rest its body)
            line = data[data.rfind(b"\n", 0, start) + 1:start]
            if declared.group().strip() not in (b"uint3", b"dim3") or b"extern" not in line:
                # (not `extern const uint3 threadIdx;`: `dim3 gridDim(n / 256);` is the host's own)
                shadowed.append((m.group(1), start, _scope_end(data, sweep, start)))
            continue
        if data.rfind(b"#", data.rfind(b"\n", 0, start) + 1, start) >= 0 and \
                not re.match(rb"[ \t]*#[ \t]*define\b", data[data.rfind(b"\n", 0, start) + 1:start]):
            continue  # a directive other than a macro body (#ifdef threadIdx)
        name = m.group(1)
        ctx.edit(start, m.end(), b"hipport::index3(" + b", ".join(name + b"." + c for c in (b"x", b"y", b"z")) + b")",
                 "builtin-index")
        if COMPAT not in ctx.extra_includes:
            ctx.extra_includes.append(COMPAT)


_BRACE = lazy_re.compile(rb"[{}]")


def _scope_end(data: bytes, sweep: Scan, pos: int) -> int:
    """End of the innermost `{ }` block around *pos* (the file's end at file scope)."""
    depth = 0
    for m in _BRACE.finditer(data, pos):
        at = m.start()
        if sweep.in_masked(at):
            continue
        depth += 1 if m.group() == b"{" else -1
        if depth < 0:
            return at
    return len(data)


_INDEX_MACRO = lazy_re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+\(?[ \t]*((?:threadIdx|blockIdx|blockDim|gridDim)"
                          rb"[ \t]*\.[ \t]*[xyz])[ \t]*\)?[ \t]*$", re.M)


# (`PR(v) printf("%d\n", v)` too: an index given to it reaches printf's `...` all the same)
_PRINTF_MACRO = lazy_re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\([^()\n]*\)[^\n]*\bprintf\s*\(", re.M)
_DECLTYPE = lazy_re.compile(rb"decltype\s*\(\s*((?:threadIdx|blockIdx|blockDim|gridDim)\s*\.\s*[xyz])\s*\)")
_TEMPLATE = lazy_re.compile(rb"template\s*<")
# from a template head to its function's name and `(`: no `;`, `{`, `=` (a variable or alias template)
_TEMPLATE_FUNCTION = lazy_re.compile(rb"[^;{}=()]*?(?<![\w$])([A-Za-z_]\w*)\s*\(")


def _function_templates(data: bytes, sweep: Scan) -> set[bytes]:
    """The function templates this file declares: an argument's type is deduced in their calls
    (`my_min(threadIdx.x, n)`), where HIP 5.2's index object is not the unsigned CUDA's is."""
    from hipport.cxx.calls import template_close

    names = set()
    for m in _TEMPLATE.finditer(data):
        close = None if sweep.in_masked(m.start()) or glued_before(data, m.start()) else template_close(data, m.end() - 1)
        head = _TEMPLATE_FUNCTION.match(data, close + 1) if close is not None else None
        if head is not None and not re.search(rb"\b(?:struct|class|union|operator)\b", head.group()):
            names.add(head.group(1))
    return names - {b"printf", b"min", b"max"}


def _call_arguments(ctx: Context, sweep: Scan, templates: set[bytes] = frozenset()) -> None:
    data = ctx.data
    calls = _CALL if not templates else re.compile(
        rb"(printf|min|max|" + b"|".join(re.escape(t) for t in sorted(templates)) + rb")\s*\(")
    # `#define TID threadIdx.x` … `min(TID, n)`: the macro is the built-in where it is used
    aliases = {m.group(1) for m in _INDEX_MACRO.finditer(data)} if b"define" in data else set()
    for m in calls.finditer(data):
        start = m.start()
        if glued_before(data, start, b".") or data[start - 2:start] == b"->":
            continue  # sprintf, fmin, a member named max
        if data[start - 2:start] == b"::":
            qualifier = _QUALIFIER.search(data, max(0, start - 64), start)
            if qualifier is not None and qualifier.group(1) not in (b"", b"std"):
                continue  # another namespace's function (thrust::max, cub::min)
        semicolon = data.find(b";", m.end())
        head = data[m.end():semicolon if semicolon >= 0 else len(data)]
        if b"Idx" not in head and b"Dim" not in head and not any(a in head for a in aliases):
            continue  # most calls pass no built-in index: skip parsing their arguments
        if sweep.in_masked(start):
            continue
        parsed = call_arguments(data, m.end() - 1)
        if parsed is None:
            continue
        for arg_start, arg_end in parsed[0][_CALL_ARGS.get(m.group(1), slice(0, None))]:
            if _BUILTIN.fullmatch(data, arg_start, arg_end) or data[arg_start:arg_end] in aliases:
                ctx.edit(arg_start, arg_start, _CAST, "builtin-index")
