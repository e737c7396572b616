"""A file's own restatement of what CUDA's headers declare, which HIP declares differently.

Headers meant for host-only code avoid CUDA's headers by declaring what they name themselves:
`struct uchar4;` (CUDA's vector types are structs; HIP's are type aliases, and a forward
declaration of one conflicts), `typedef unsigned long long cudaTextureObject_t;` (CUDA's handle
type; HIP's is a pointer, so the renamed typedef redefines it).  Such a line is kept for CUDA and
left out on AMD, where HIP's own declaration serves: it is wrapped in
`#if !defined(__HIP_PLATFORM_AMD__)` … `#endif`, the file gets the HIP runtime include, and the
line is reported (HP019).  Code that loads the driver at run time (cuda-samples' dynlink headers, CUEW, FFmpeg's
dynlink_cuda.h) restates more: whole enum and struct typedefs (`typedef enum cudaError_enum {…}
CUresult;`) and each entry point as a function-pointer variable (`extern tcuDeviceGet
*cuDeviceGet;`), which renamed would redefine HIP's types and functions.  Those are kept for CUDA
the same way; on AMD the calls then reach HIP's functions directly.
A typedef inside a namespace or a class is the user's own type and
stays (rename.looks_declared); one in a CPU build's branch (beside a CUDA include) is that build's.
"""

from __future__ import annotations

from hipport.cxx.context import Context
from hipport.cxx.lexer import LINE_TAIL, line_start
from hipport.cxx.scan import Scan
from hipport import lazy_re

_VECTOR = rb"(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]"
# (each from its keyword, a literal the search skips to; the line's start is checked after)
_FORWARD_VECTORS = lazy_re.compile(rb"(?:struct|class)[ \t]+" + _VECTOR + rb"[ \t]*;[ \t]*(?:(?:struct|class)[ \t]+"
                                   + _VECTOR + rb"[ \t]*;[ \t]*)*" + LINE_TAIL)
# `typedef unsigned long long CUdeviceptr;`, `typedef void *CUcontext;` — one or several on a line
_BUILTIN = rb"(?:const|volatile|unsigned|signed|long|short|int|char|void|float|double)"
_ONE_TYPEDEF = (rb"typedef[ \t]+(?:" + _BUILTIN + rb"(?:[ \t]+|(?=[ \t]*\*)))+(?P<stars>(?:[ \t]*\*)*)[ \t]*"
                rb"(?P<name>[A-Za-z_]\w*)[ \t]*;")
_BUILTIN_TYPEDEF = lazy_re.compile(_ONE_TYPEDEF)
_BUILTIN_TYPEDEF_LINE = lazy_re.compile(rb"(?:" + _ONE_TYPEDEF.replace(b"?P<stars>", b"?:").replace(b"?P<name>", b"?:")
                                        + rb"[ \t]*)+" + LINE_TAIL)
GUARD = b"#if !defined(__HIP_PLATFORM_AMD__)  // HIP's headers declare it"
# `typedef enum cudaError_enum {` / `typedef struct CUDA_MEMCPY2D_st {`: the body is matched after
_AGGREGATE_TYPEDEF = lazy_re.compile(rb"typedef[ \t]+(?:enum|struct|union)[ \t]*\w*\s*\{")
_CLOSING_NAME = lazy_re.compile(rb"\}\s*([A-Za-z_]\w*)(?:\s*,\s*\*?\s*[A-Za-z_]\w*)*\s*;" + LINE_TAIL)
# `extern tcuDeviceGet *cuDeviceGet;`, `tcuInit *cuInit = NULL;`: an entry point as a pointer variable
_ENTRY_POINTER_NAME = lazy_re.compile(rb"\*[ \t]*(cu[A-Za-z]\w*)[ \t]*(?:=[^;\n]*)?;")
_ENTRY_POINTER = lazy_re.compile(rb"(?:extern[ \t]+)?[A-Za-z_]\w*[ \t]*\*[ \t]*(cu[A-Za-z]\w*)[ \t]*(?:=[^;\n]*)?;"
                                 + LINE_TAIL)


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    lines = []
    if b"struct" in data or b"class" in data:
        lines += [(m, "CUDA's vector types are structs, HIP's type aliases: the forward declaration would "
                      "conflict") for m in _FORWARD_VECTORS.finditer(data)]
    if b"typedef" in data:
        lines += _builtin_typedefs(ctx)
    if b"typedef" in data and (b"enum" in data or b"struct" in data or b"union" in data):
        lines += _aggregate_typedefs(ctx, sweep)
    if b"*" in data:
        by_name = ctx.rules.by_name
        for star in _ENTRY_POINTER_NAME.finditer(data):  # (from the `* cuName`: a fast search)
            head = line_start(data, star.start())
            head += len(data[head:star.start()]) - len(data[head:star.start()].lstrip(b" \t"))
            m = _ENTRY_POINTER.match(data, head)
            if m is None or m.start(1) != star.start(1):
                continue
            rule = by_name.get(m.group(1).decode("ascii", "replace"))
            if rule is not None and rule.kind == "function" and rule.hip and rule.hip != rule.cuda:
                lines.append((m, f"'{rule.cuda}' restated as a pointer variable (the driver loaded at run time) would "
                                 f"redefine HIP's '{rule.hip}'"))
    if not lines:
        return
    from hipport.cxx.passes.rename import cpu_stand_in_test

    stand_in = cpu_stand_in_test(data)  # (`#ifdef CPU_ONLY / typedef int cudaError_t; / #else / #include …`)
    nl = ctx.newline
    for m, why in lines:
        start = line_start(data, m.start())
        if data[start:m.start()].strip(b" \t") or sweep.in_masked(m.start()) \
                or data[:start].endswith(GUARD + nl) or (stand_in and stand_in(m.start())):
            continue  # (not alone on its line, in a comment, guarded already, a CPU build's)
        ctx.edit(start, start, GUARD + nl, "restated-declaration")
        # before the line's own break, so a guard opening on the next line comes after this one's end
        at = m.start(m.lastindex)
        ctx.edit(at, at, nl + b"#endif" + (b"" if m.group(m.lastindex) else nl), "restated-declaration")
        ctx.needs_hip_runtime = True
        ctx.sink.add("HP019", f"{why}; kept for CUDA only", m.start(),
                     hint="include the HIP runtime header instead of declaring CUDA's types yourself")


def _builtin_typedefs(ctx: Context) -> list:
    """Lines of typedefs of builtin types that restate CUDA's handle types.  A line is kept for
    CUDA whole, so every typedef on it must name a CUDA type; a pointer typedef (`typedef void
    *CUcontext;`) only where the HIP runtime header, which the file then gets, declares HIP's."""
    data, by_name, out, seen = ctx.data, ctx.rules.by_name, [], -1
    for one in _BUILTIN_TYPEDEF.finditer(data):
        if one.start() < seen:
            continue
        line = _BUILTIN_TYPEDEF_LINE.match(data, one.start())
        if line is None:
            continue
        seen = line.end()
        why, all_cuda = None, True
        for m in _BUILTIN_TYPEDEF.finditer(data, line.start(), line.start(line.lastindex)):
            rule = by_name.get(m.group("name").decode("ascii", "replace"))
            if rule is None or rule.kind != "type":
                all_cuda = False
                break
            if why is None and rule.hip and rule.hip != rule.cuda and m.start("name") not in ctx.user_entities \
                    and (not m.group("stars") or rule.hip_library == "amdhip64"):
                why = f"'{rule.cuda}' restates CUDA's type; HIP's '{rule.hip}' is declared otherwise"
        if why is not None and all_cuda:
            out.append((line, why))
    return out


class _Span:
    """A restated declaration that spans lines, shaped like the one-line matches (its line break:
    group 1)."""

    lastindex = 1

    def __init__(self, start: int, tail):
        self._start, self._tail = start, tail

    def start(self, group: int = 0) -> int:
        return self._tail.start(2) if group else self._start

    def group(self, _index: int) -> bytes:
        return self._tail.group(2)


def _aggregate_typedefs(ctx: Context, sweep: Scan) -> list:
    """`typedef enum cudaError_enum { … } CUresult;`: the whole typedef, when the name it declares
    is a CUDA type HIP declares otherwise.  Found from the `} CUresult;` (a fast search), the
    opening brace then walked back to."""
    from hipport.cxx.definitions import enclosing_braces

    data, by_name, out = ctx.data, ctx.rules.by_name, []
    for after in _CLOSING_NAME.finditer(data):
        rule = by_name.get(after.group(1).decode("ascii", "replace"))
        if rule is None or rule.kind != "type" or not rule.hip or rule.hip == rule.cuda \
                or after.start(1) in ctx.user_entities or sweep.in_masked(after.start()):
            continue
        opening = next(enclosing_braces(data, after.start(), sweep, reach=1 << 20), None)
        heads = _AGGREGATE_TYPEDEF.finditer(data, max(0, opening - 256), opening + 1) if opening is not None else ()
        head = next((h for h in heads if h.end() == opening + 1), None)
        if head is not None:
            out.append((_Span(head.start(), after),
                        f"'{rule.cuda}' restates CUDA's type; HIP's '{rule.hip}' is declared otherwise"))
    return out
