"""Integer arithmetic on driver-API device pointers, which HIP types as ``void*``.

CUDA's ``CUdeviceptr`` is an unsigned integer, so driver code offsets it freely
(``cuMemMap(dptr + i * size, …)``, ``CUdeviceptr p = 0ULL;``).  HIP's ``hipDeviceptr_t`` is a
``void*``: the same expressions do not compile ("arithmetic on a pointer to void").  An offset of
a variable the file (or a project header it includes) declares as ``CUdeviceptr`` (`p + n`,
`*dptr + n`, `list[0] + 8`, `p += n`) is taken in bytes through ``char*``, as CUDA's integer offset
is: ``(hipDeviceptr_t)((char*)p + n)``.  What has no such spelling (`n + p`, `p++`, `p - q`,
an offset in a macro) is reported (HP023).

A named cast to ``CUdeviceptr`` (``reinterpret_cast<CUdeviceptr>(const_ptr)``, ``static_cast<CUdeviceptr>(n)``)
converts a pointer or an integer to an integer on CUDA; to HIP's ``void*`` the first would cast away
const and the second is no static conversion.  It becomes a C-style cast, ``((hipDeviceptr_t)(x))``,
which converts the same on both.

An integer stored into a `CUdeviceptr` (`CUdeviceptr q = width;`, `copy.srcDevice = offset;`,
matrixMulDrv's `*(reinterpret_cast<CUdeviceptr*>(&args[off])) = width;` packing kernel arguments)
converts implicitly on CUDA and not at all to HIP's pointer: the value gets `(hipDeviceptr_t)`,
the same bits on both.

CUDA's texture and surface objects are 64-bit integers too, and code packs them into two words
(`obj & 0xFFFFFFFF`, `(cudaTextureObject_t)hi << 32`); HIP's are pointers, so that bit arithmetic
is reported as well.
"""

from __future__ import annotations

import re

from hipport.cxx.calls import call_arguments, matching_close, skip_ws
from hipport.cxx.context import Context
from hipport.cxx.lexer import glued_before
from hipport.cxx.scan import Scan
from hipport import lazy_re

_DEVICEPTR_TYPE = rb"CUdeviceptr(?:_v2)?"
_DECLARED = lazy_re.compile(rb"\bCUdeviceptr(?:_v2)?\s*(?:[*&]\s*)?(?:const\s+)?([A-Za-z_]\w*)\s*(?=[,;=)\[])")
# `typedef CUdeviceptr device_ptr;` / `using device_ptr = CUdeviceptr;` (geryon's aliases)
_ALIAS = lazy_re.compile(rb"\btypedef\s+" + _DEVICEPTR_TYPE + rb"\s+([A-Za-z_]\w*)\s*;|\busing\s+([A-Za-z_]\w*)\s*=\s*" + _DEVICEPTR_TYPE + rb"\s*;")


# in a project header the file includes, perhaps translated already (`--inplace` of the headers first)
_HEADER_DECLARED = lazy_re.compile(rb"\b(?:CUdeviceptr(?:_v2)?|hipDeviceptr_t)\s*(?:\*\s*)?(?:const\s+)?([A-Za-z_]\w*)\s*(?=[,;=)\[])")


_DRIVER_CALL = lazy_re.compile(rb"\bcu[A-Z]\w*\s*\(")


def _headers_declare_deviceptrs(ctx: Context) -> bool:
    """Only a file that calls the driver API (`cuMemcpyHtoD(d_p + n, …)`) has its headers read."""
    return b'"' in ctx.data and _DRIVER_CALL.search(ctx.data) is not None and \
        any(b"CUdeviceptr" in t or b"hipDeviceptr_t" in t for t in _header_texts(ctx))


def _header_texts(ctx: Context) -> list[bytes]:
    from hipport.cxx.project_headers import included_texts

    return included_texts(ctx)


def _declared_in_headers(ctx: Context) -> set[bytes]:
    """Device-pointer names a project header declares (`struct Buf { CUdeviceptr d_p; }` used in
    the class's .cpp)."""
    if b'"' not in ctx.data:
        return set()
    return {m.group(1) for t in _header_texts(ctx) if b"eviceptr" in t for m in _HEADER_DECLARED.finditer(t)}


_NAMED_CAST = lazy_re.compile(rb"(?:reinterpret|static)_cast\s*<\s*(CUdeviceptr(?:_v2)?)\s*>")


_OBJECT_TYPES = rb"cuda(?:Texture|Surface)Object_t"
_OBJECT_DECLARED = lazy_re.compile(_OBJECT_TYPES + rb"\s*(?:&\s*)?(?:const\s+)?([A-Za-z_]\w*)\s*(?=[,;=)\[])")
# `(cudaTextureObject_t)w << 32`: the type name is the anchor (a literal first: a fast search)
_OBJECT_CAST_SHIFT = lazy_re.compile(_OBJECT_TYPES + rb"\s*\)\s*(?:[\w$.]+|\([^()]*\))\s*\)?\s*(?:<<|>>)")


def run(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    if b"Object_t" in data and (b"cudaTextureObject_t" in data or b"cudaSurfaceObject_t" in data):
        _object_bits(ctx, sweep)
    if b"CUdeviceptr" not in data and not _headers_declare_deviceptrs(ctx):
        return
    if b"_cast" in data:
        _named_casts(ctx, sweep)
    _integers_stored(ctx, sweep)
    names = {m.group(1) for m in _DECLARED.finditer(data) if not sweep.in_masked(m.start())}
    aliases = {m.group(1) or m.group(2) for m in _ALIAS.finditer(data) if not sweep.in_masked(m.start())}
    if aliases:
        alias_types = b"|".join(re.escape(a) for a in sorted(aliases))
        declared = re.compile(rb"\b(?:" + alias_types + rb")\s*(?:[*&]\s*)?(?:const\s+)?([A-Za-z_]\w*)\s*(?=[,;=)\[])")
        names |= {m.group(1) for m in declared.finditer(data) if not sweep.in_masked(m.start())} - {b"const"}
    names |= _declared_in_headers(ctx)
    if not names:
        return
    names -= _declared_otherwise(data, names, aliases)
    if not names:
        return
    alternatives = b"|".join(re.escape(n) for n in sorted(names))
    offset_names = re.compile(rb"(?<![\w$])(?:" + alternatives + rb")(?![\w$])")
    # `p + n`, `*p - n`, `p += n` are offsets in bytes, rewritten to `(hipDeviceptr_t)((char*)p + n)`;
    # `n + p`, `p++` are reported; not `p->x`, `p == q`.
    # The names are searched first (a fast search); the operator after or before each is checked then.
    for m in re.finditer(rb"(?:" + alternatives + rb")(?![\w$])", data):
        start = m.start()
        if glued_before(data, start) or sweep.in_masked(start):
            continue  # (`m.p + o`, a member the file declares CUdeviceptr, counts)
        pointee = _DEREF_BEFORE.search(data, max(0, start - 8), start)
        end = m.end()
        left = pointee.start() if pointee else start
        if data[start - 1:start] == b"(" and data[end:end + 1] == b")":
            end += 1  # `(q) + o`
            left = start - 1
        elif data[end:end + 1] == b"[":
            close = matching_close(data, end)  # `list[0] + 8`
            end = close + 1 if close is not None else None
        after = _OFFSET_AFTER.match(data, end) if end is not None else None
        if after is not None:
            if not _offset_in_bytes(ctx, sweep, _left_operand(data, left), end, after, offset_names):
                _report(ctx, left, after.end())
            continue
        if end is None:
            continue
        if _STEP_AFTER.match(data, end) or _STEP_BEFORE.search(data, max(0, start - 4), start):
            _report(ctx, start, end)  # `p++`: a loop over handles, or an offset by one byte
            continue
        bits = _BITS_AFTER.match(data, end)
        if bits is not None and not pointee:
            _report(ctx, start, bits.end(), "bit arithmetic")  # `p % 256`, `p & ~mask`: alignment checks
            continue
        init = _INTEGER_INIT_BEFORE.search(data, max(0, start - 64), start)
        if init is not None and data[skip_ws(data, m.end()):skip_ws(data, m.end()) + 1] in (b";", b","):
            # `unsigned long long h = dptr;`: no implicit conversion from HIP's void*; the cast is
            # the identity on CUDA's integer
            ctx.edit(start, start, b"(" + re.sub(rb"\s+", b" ", init.group(1)) + b")", "deviceptr-cast")
            continue
        cast = _INTEGER_CAST_BEFORE.search(data, max(0, start - 64), start)
        if cast is not None and data[skip_ws(data, m.end()):skip_ws(data, m.end()) + 1] == b")":
            close = skip_ws(data, m.end())
            # `static_cast<uint64_t>(dptr)`: no static conversion from HIP's void*; a C-style cast
            # converts the integer and the pointer alike
            ctx.edit(cast.start(), cast.start(1), b"((", "deviceptr-cast")
            ctx.edit(cast.end(1), cast.end(), b")(", "deviceptr-cast")
            ctx.edit(close + 1, close + 1, b")", "deviceptr-cast")
            continue
        sign = _SIGN_BEFORE.search(data, max(0, start - 16), start)
        if sign is not None and not glued_before(data, sign.start(), b"+-"):
            _report(ctx, sign.start(), m.end())


_STEP_AFTER = lazy_re.compile(rb"\s*(?:\+\+|--)")
_STEP_BEFORE = lazy_re.compile(rb"(?:\+\+|--)\s*\Z")
_CAST_KEYWORD_BEFORE = lazy_re.compile(rb"(?:static|reinterpret|const|dynamic)_cast\s*\Z")


def _left_operand(data: bytes, left: int) -> int:
    """`m.p + o`, `this->p + o`: the offset pointer is the member with its object."""
    from hipport.cxx.calls import receiver_start

    at = left
    while at > 0 and data[at - 1] in b" \t":
        at -= 1
    if data[at - 1:at] == b"." or data[at - 2:at] == b"->":
        receiver = receiver_start(data, at - 1 if data[at - 1:at] == b"." else at - 2)
        return receiver if receiver is not None else left
    return left


def _operand_end(data: bytes, pos: int, assignment: bool) -> int | None:
    """End of the right operand of a `+`/`-` that starts at *pos* (of the whole right side of a
    `+=`/`-=` when *assignment*); None where a comment or literal makes it unsure."""
    depth = 0
    i, n = pos, min(len(data), pos + 2000)
    while i < n:
        c = data[i]
        if c in b"\"'" or c == 0x2F and data[i + 1:i + 2] in (b"/", b"*") or c == 0x23:
            return None
        if c in b"([{":
            depth += 1
        elif c in b")]}":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0:
            if c in b",;":
                return i
            if not assignment:
                if data[i:i + 2] == b"::":
                    i += 2
                    continue
                if c == 0x3C and _CAST_KEYWORD_BEFORE.search(data, max(0, i - 24), i):
                    close = data.find(b">", i)
                    if close < 0:
                        return None
                    i = close + 1
                    continue
                if c in b"?:|^=!&<>":
                    return i
        i += 1
    return None


def _offset_in_bytes(ctx: Context, sweep: Scan, left: int, end: int, after, names) -> bool:
    """`*dptr + stripe` → `(hipDeviceptr_t)((char*)*dptr + stripe)` (vectorAddMMAP's cuMemMap), and
    `d += 4` → `d = (hipDeviceptr_t)((char*)d + (4))`: CUDA's integer offset is in bytes, as the
    char* one is.  Not a difference of two device pointers, nor in a directive (a macro may serve
    other types)."""
    from hipport.cxx.lexer import in_directive

    data = ctx.data
    op = after.group().strip()
    compound = op.endswith(b"=")
    if in_directive(data, left):
        return False
    stop = _operand_end(data, after.end(), compound)
    right = data[after.end():stop].strip() if stop is not None else b""
    if not right or names.search(right) or sweep.in_masked(left):
        return False
    while stop > after.end() and data[stop - 1] in b" \t\r\n":
        stop -= 1
    if compound:
        target = data[left:end]
        if b"(" in target or b"++" in target or b"--" in target:
            return False  # (repeated, a call or a step would run twice)
        begin = after.end() + len(data[after.end():stop]) - len(data[after.end():stop].lstrip())
        ctx.edit(after.start(), begin, b" = (hipDeviceptr_t)((char*)" + target + b" " + op[:1] + b" (",
                 "deviceptr-offset")
        ctx.edit(stop, stop, b"))", "deviceptr-offset")
    else:
        ctx.edit(left, left, b"(hipDeviceptr_t)((char*)", "deviceptr-offset")
        ctx.edit(stop, stop, b")", "deviceptr-offset")
    return True


_NOT_A_TYPE = frozenset({b"const", b"return", b"CUdeviceptr", b"CUdeviceptr_v2", b"hipDeviceptr_t", b"case", b"goto",
                         b"else", b"delete", b"sizeof", b"typedef", b"using", b"struct", b"class", b"volatile"})


def _declared_otherwise(data: bytes, names: set[bytes], aliases: set[bytes]) -> set[bytes]:
    """Names the file also declares with another type (`int* dst` in one function, `CUdeviceptr dst`
    in another): which one an expression means is not ours to guess, so neither is reported."""
    alternatives = b"|".join(re.escape(n) for n in sorted(names))
    found = set()
    # the names first (a fast search); the type word before each is read after
    for m in re.finditer(rb"(?:" + alternatives + rb")(?=\s*[,;=)\[])", data):
        if glued_before(data, m.start()) or m.group() in found:
            continue
        t = _TYPE_BEFORE.search(data, max(0, m.start() - 96), m.start())
        if t is not None and t.group(1) not in _NOT_A_TYPE and t.group(1) not in aliases:
            found.add(m.group())
    return found


_TYPE_BEFORE = lazy_re.compile(rb"(?<![\w$:])([A-Za-z_][\w:]*(?:<[^<>;{}()]*>)?)[\s*&]+(?:const\s+)?\Z")


_DEREF_BEFORE = lazy_re.compile(rb"\*\s*\Z")
_BITS_AFTER = lazy_re.compile(rb"\s*(?:%|&(?![&=])|\|(?![|=])|\^|<<|>>(?!>)|/(?![/*=]))")
_INTEGER_INIT_BEFORE = lazy_re.compile(
    rb"(?<![\w$])((?:std::)?u?int(?:64|ptr)_t|(?:std::)?size_t|(?:unsigned\s+)?long(?:\s+long)?(?:\s+int)?)"
    rb"\s+[A-Za-z_]\w*\s*=\s*\Z")
_INTEGER_CAST_BEFORE = lazy_re.compile(
    rb"static_cast\s*<\s*((?:std::)?u?int(?:64|ptr)_t|(?:std::)?size_t|(?:unsigned\s+)?long(?:\s+long)?(?:\s+int)?)\s*>\s*\(\s*\Z")
_OFFSET_AFTER = lazy_re.compile(rb"\s*(?:[+-](?![+=>-])|[+-]=)")
_SIGN_BEFORE = lazy_re.compile(rb"[+-]\s*(?:\*\s*)?\Z")


def _object_bits(ctx: Context, sweep: Scan) -> None:
    """`obj & 0xFFFFFFFF`, `obj >> 32`, `(cudaTextureObject_t)w << 32` on a texture/surface object."""
    data = ctx.data
    names = {m.group(1) for m in _OBJECT_DECLARED.finditer(data)
             if not glued_before(data, m.start()) and not sweep.in_masked(m.start())}
    found = [m for m in _OBJECT_CAST_SHIFT.finditer(data) if data[max(0, m.start() - 16):m.start()].rstrip().endswith(b"(")]
    if names:
        # the names first (a fast search); what comes before one is checked after
        alternatives = b"|".join(re.escape(n) for n in sorted(names))
        # `s>>>` ends a launch's configuration (a stream named like an object elsewhere), `<<<` opens one
        found += (m for m in re.finditer(rb"(?:" + alternatives + rb")\s*(?:<<(?!<)|>>(?!>)|&(?![&=])|\|(?![|=])|\^)", data)
                  if not glued_before(data, m.start(), b".>"))
    for m in sorted(found, key=lambda m: m.start()):
        if not sweep.in_masked(m.start()):
            ctx.sink.add("HP023", "bit arithmetic on a texture or surface object; CUDA's are 64-bit integers, "
                         "HIP's are pointers", m.start(), end=m.end(),
                         hint="keep the handle whole, or convert it explicitly: (unsigned long long)obj and back "
                         "with reinterpret_cast<hipTextureObject_t>")


_INTEGER_TYPES = (rb"(?:(?:std::)?u?int(?:8|16|32|64|ptr)_t|(?:std::)?size_t|unsigned|signed|int|short|long|"
                  rb"(?:unsigned\s+|signed\s+)?(?:long\s+long|long|short|char|int)(?:\s+int)?)")
# what may hold a CUdeviceptr, each found from a literal (a fast search): a cast of storage to
# `CUdeviceptr*`, dereferenced (its `*(` is checked before); a driver struct's device-pointer field
_CAST_TO_DEVICEPTR_POINTER = lazy_re.compile(rb"CUdeviceptr(?:_v2)?\s*\*\s*[>)]")
_DEREF_OPEN_BEFORE = lazy_re.compile(rb"\*\s*\(\s*(?:reinterpret_cast\s*<\s*|\(\s*)\Z")
_DEVICE_FIELD = lazy_re.compile(rb"(?:\.|->)\s*(?:src|dst)Device(?![\w$])")
_INTEGER_TYPE_BEFORE = lazy_re.compile(rb"(?<![\w$:])" + _INTEGER_TYPES + rb"\s+(?:const\s+)?\Z")
_ASSIGNED = lazy_re.compile(rb"\s*=\s*([A-Za-z_]\w*|0[xX][0-9a-fA-F]+|[1-9]\d*)[uUlL]*\s*(?=[;,])")


def _integers_stored(ctx: Context, sweep: Scan) -> None:
    from hipport.cxx.calls import call_arguments

    data = ctx.data
    names = {m.group(1) for m in _DECLARED.finditer(data) if not sweep.in_masked(m.start())}
    targets: list[int] = []  # where the stored value's `=` may follow
    for m in _CAST_TO_DEVICEPTR_POINTER.finditer(data):
        deref = _DEREF_OPEN_BEFORE.search(data, max(0, m.start() - 48), m.start())
        if deref is None or sweep.in_masked(m.start()):
            continue  # `*(reinterpret_cast<CUdeviceptr*>(&buf[off]))`: past the dereferenced group
        outer = call_arguments(data, data.index(b"(", deref.start()))
        if outer is not None:
            targets.append(outer[1] + 1)
    if b"Device" in data:
        targets += [m.end() for m in _DEVICE_FIELD.finditer(data) if not sweep.in_masked(m.start())]
    if names:
        alternatives = b"|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        targets += [m.end() for m in re.finditer(rb"(?:" + alternatives + rb")(?=\s*=[^=])", data)
                    if data[m.start() - 1:m.start()] not in (b".", b">", b"$") and not glued_before(data, m.start())
                    and not sweep.in_masked(m.start())]
    values = [v for v in (_ASSIGNED.match(data, end) for end in sorted(set(targets))) if v is not None]
    words = {v.group(1) for v in values if v.group(1)[:1].isalpha() or v.group(1)[:1] == b"_"} - names
    integers: set[bytes] = set()
    if words:  # which of the stored names the file declares with an integer type
        alternatives = b"|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        integers = {d.group(1) for d in re.finditer(rb"(" + alternatives + rb")\s*(?=[,;=)\[])", data)
                    if not glued_before(data, d.start())
                    and _INTEGER_TYPE_BEFORE.search(data, max(0, d.start() - 48), d.start()) is not None}
    for value in values:
        word = value.group(1)
        if (word[:1].isalpha() or word[:1] == b"_") and word not in integers:
            continue
        ctx.edit(value.start(1), value.start(1), b"(hipDeviceptr_t)", "deviceptr-cast")


def _named_casts(ctx: Context, sweep: Scan) -> None:
    data = ctx.data
    for m in _NAMED_CAST.finditer(data):
        if glued_before(data, m.start()) or sweep.in_masked(m.start()):
            continue
        paren = skip_ws(data, m.end())
        parsed = call_arguments(data, paren) if data[paren:paren + 1] == b"(" else None
        if parsed is None:
            continue
        close = parsed[1]
        # the type name between keeps its own (rename) edit: `((` + hipDeviceptr_t + `)(x))`
        ctx.edit(m.start(), m.start(1), b"((", "deviceptr-cast")
        ctx.edit(m.end(1), paren, b")", "deviceptr-cast")
        ctx.edit(close + 1, close + 1, b")", "deviceptr-cast")


def _report(ctx: Context, start: int, end: int, what: str = "integer arithmetic") -> None:
    hint = ("offset in bytes through char*: (hipDeviceptr_t)((char*)ptr + offset)" if what == "integer arithmetic"
            else "convert it explicitly first: (uintptr_t)ptr % 256")
    ctx.sink.add("HP023", f"{what} on a CUdeviceptr; HIP's hipDeviceptr_t is a void*", start, end=end, hint=hint)
