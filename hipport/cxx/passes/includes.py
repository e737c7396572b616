"""Map CUDA includes to HIP ones, drop duplicates, and add hip_runtime.h where nvcc implied it.

nvcc includes ``cuda_runtime.h`` implicitly in ``.cu`` files; hipcc does not, so a translated
``.cu`` file that uses the runtime must include ``hip/hip_runtime.h`` itself.  The include is
added once: before the first ``#include`` (so it precedes headers that may need it), or after
the file's leading comment block when there is no include.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right

from hipport.cxx.calls import skip_ws
from hipport.cxx.context import Context
from hipport.cxx.lexer import BOM, TOKEN_RE, directive_end
from hipport.cxx.scan import masked_spans, outside
from hipport.edits import Edit
from hipport import lazy_re

HIP_RUNTIME = b"hip/hip_runtime.h"
_BLANKS = rb"(?:[ \t]|/\*.*?\*/)*"  # a comment between the tokens of a directive counts as a blank
_INCLUDE_RE = lazy_re.compile(_BLANKS + rb"include(?:_next)?" + _BLANKS + rb"([<\"])([^>\"\n]+)([>\"])")
_DIGRAPH_DIRECTIVE = lazy_re.compile(rb"^[ \t]*%:", re.M)
IMPLICIT_RUNTIME_SUFFIXES = (".cu", ".cuh")


class Include:
    __slots__ = ("hash", "start", "end", "path_start", "path_end", "path", "delim")

    def __init__(self, hash_pos, m):
        self.hash = hash_pos
        self.path_start, self.path_end = m.span(2)
        self.path = m.group(2)
        self.delim = m.group(1)
        self.start = hash_pos
        self.end = m.end()


def find_includes(data: bytes, directives: list[int], masked: list[tuple[int, int]] = ()) -> list[Include]:
    """The include directives among *directives* (offsets of their '#'), plus those spelled with
    the `%:` digraph, which the sweep does not list: rare, but a standard spelling of '#'."""
    if b"%:" in data:
        digraphs = outside([m.end() - 2 for m in _DIGRAPH_DIRECTIVE.finditer(data)], masked)
        directives = sorted(directives + digraphs)
    found = []
    for pos in directives:
        m = _INCLUDE_RE.match(data, pos + (2 if data[pos] == 0x25 else 1))  # 0x25: the '%' of '%:'
        if m:
            found.append(Include(pos, m))
    return found


def _line_span(data: bytes, start: int, end: int) -> tuple[int, int]:
    """The whole physical line(s) holding [start, end), including the newline."""
    line_start = data.rfind(b"\n", 0, start) + 1
    nl = data.find(b"\n", end)
    return line_start, (len(data) if nl == -1 else nl + 1)


_HEADER_ELSEWHERE = lazy_re.compile(rb"__has_include(?:_next)?\s*\(\s*[<\"]([^>\"\n]+)[>\"]"
                               rb"|^[ \t]*#[ \t]*define[ \t]+\w+[ \t]+[<\"]([^>\"\n]+)[>\"][ \t]*$", re.M)


def header_names_elsewhere(ctx: Context) -> None:
    """`__has_include(<cuda_fp16.h>)` and `#define HDR <cuda_runtime.h>` (then `#include HDR`) name a
    CUDA header outside an include line: the name becomes HIP's as an include's would."""
    data = ctx.data
    if b"__has_include" not in data and b"define" not in data:
        return
    headers = ctx.rules.headers
    for m in _HEADER_ELSEWHERE.finditer(data):
        group = 1 if m.group(1) else 2
        rule = headers.get(m.group(group).decode("utf-8", "replace"))
        target = rule.target(roc=ctx.options.roc, miopen=ctx.options.miopen) if rule is not None else ""
        if target and (rule.status != "unsupported" or ctx.options.amap):
            ctx.edit(m.start(group), m.end(group), target.encode(), "include")


#: --amap's header for a library whose legacy API --amap translates to a deprecated HIP library:
#: cuDNN's legacy calls become hipDNN's old `hipdnn*` API (hipify-clang's table), which the old
#: hipDNN.h declares, not the new hipDNN's backend header that the default output includes
AMAP_HEADERS = {"cudnn.h": "hipDNN.h"}


def run(ctx: Context, includes: list[Include]) -> list[tuple[Include, bytes]]:
    """Rewrite CUDA includes; returns the (include, new HIP path) pairs it rewrote."""
    opts = ctx.options
    headers = ctx.rules.headers
    prefixes = sorted((k for k in headers if k.endswith("/")), key=len, reverse=True)
    seen_targets: dict[bytes, int] = {}  # path -> end of the include that brought it in
    mapped: list[tuple[Include, bytes]] = []
    branch = None  # (earlier, later) -> is the earlier offset in effect at the later one?
    for inc in includes:
        path = spelled = inc.path.decode("utf-8", "replace")
        if path not in headers and (installed := _toolkit_relative(path)) is not None:
            path = installed  # `"/usr/local/cuda/include/curand_kernel.h"`: the toolkit's header
        rule = headers.get(path)
        suffix = ""
        if rule is None:
            for prefix in prefixes:
                if path.startswith(prefix):
                    rule, suffix = headers[prefix], path[len(prefix):]
                    break
        if rule is None or inc.delim == b'"' and _project_header(ctx, spelled):
            seen_targets[inc.path] = inc.end
            continue
        target = rule.target(roc=opts.roc, miopen=opts.miopen)
        if opts.amap and not opts.miopen and path in AMAP_HEADERS:
            target = AMAP_HEADERS[path]
        if not target or (rule.status == "unsupported" and not opts.amap):
            ctx.sink.add("HP005", f"header <{path}> has no HIP equivalent; left unchanged", inc.path_start,
                         hint=rule.note or "remove it or guard it with #ifndef USE_ROCM")
            ctx.stats.unsupported[path] += 1
            continue
        new_path = (target + suffix).encode()
        if rule.hip_added:
            _newer_header(ctx, path, target + suffix, rule.hip_added, inc.path_start)
        ctx.stats.converted[f"{rule.family}/header"] += 1
        ctx.stats.names[path] += 1
        if rule.hip_library:
            ctx.stats.libraries.add(rule.hip_library)
        if rule.include and rule.include.encode() not in ctx.extra_includes:
            ctx.extra_includes.append(rule.include.encode())
        earlier = seen_targets.get(new_path)
        # several CUDA headers map to one HIP header: keep the first — where it is seen from here
        # (`#if A / #include <x> / #else / #include <x>`: each branch needs its own)
        if earlier is not None and branch is None:
            branch = _branch_test(ctx.data)
        if earlier is not None and branch(earlier, inc.start) and _remove_line(ctx, inc):
            continue
        seen_targets[new_path] = inc.end
        ctx.edit(inc.path_start, inc.path_end, new_path, "include")
        mapped.append((inc, new_path))
    return mapped


class _HoistedInclude:
    """Where a HIP header a project header brings in is included first: before the block that holds
    the project header's include."""

    __slots__ = ("start", "delim")

    def __init__(self, start: int):
        self.start, self.delim = start, b"<"


def _project_headers_cuda_includes(ctx: Context, includes: list[Include], depth: int = 4) -> list[tuple]:
    """For the project headers included inside `extern "C" {` or `namespace x {`: the HIP headers
    (other than the runtime) that the CUDA includes in them, and in what they include, become, and
    the shim headers (hipport/compat.h) that their translation adds at their top."""
    quoted = [inc for inc in includes if inc.delim == b'"']
    inside = _in_blocks(ctx.data, quoted) if quoted else set()
    found: list[tuple] = []
    folder = os.path.dirname(os.path.abspath(ctx.path))
    for inc in quoted:
        if inc.start not in inside:
            continue
        name = inc.path.decode("utf-8", "replace")
        for target in [*_cuda_includes_of(ctx, name, folder, depth, set()), *_shims_of(ctx, _resolve(ctx, name, folder))]:
            if target not in {t for _h, t in found}:
                found.append((_HoistedInclude(inc.start), target))
    return found


def _resolve(ctx: Context, name: str, folder: str) -> str | None:
    for d in (folder, *ctx.options.include_dirs):
        path = os.path.realpath(os.path.join(d, name))
        if os.path.isfile(path):
            return path
    return None


_SHIM_INCLUDE = lazy_re.compile(rb"^[ \t]*#[ \t]*include[ \t]*<(hipport/[^>\n]+)>", re.M)
_shims_cache: dict[tuple, list[bytes]] = {}


def _shims_of(ctx: Context, path: str | None) -> list[bytes]:
    """hipport's headers that translating the project header at *path* puts at its top.  Included
    inside a block, their C++ would land in the user's namespace or in C linkage; the includer
    includes them first, before the block, and their include guards then empty the inner copies.
    Only the translation knows (compat.h follows from many passes), so the header is translated,
    once per process."""
    if path is None:
        return []
    try:
        st = os.stat(path)
    except OSError:
        return []
    key = (path, st.st_size, st.st_mtime_ns, ctx.options)
    if key not in _shims_cache:
        _shims_cache[key] = []  # (a header that includes itself, through another, stops here)
        try:
            with open(path, "rb") as f:
                text = f.read(_HEADER_LIMIT + 1)
        except OSError:
            return []
        if len(text) <= _HEADER_LIMIT:
            from hipport.cxx.translate import translate_bytes

            before = set(_SHIM_INCLUDE.findall(text))
            out = translate_bytes(text, path, ctx.options, ctx.rules).data
            _shims_cache[key] = [h for h in dict.fromkeys(_SHIM_INCLUDE.findall(out)) if h not in before]
    return _shims_cache[key]


_HEADER_LIMIT = 1 << 20


def _cuda_includes_of(ctx: Context, name: str, folder: str, depth: int, seen: set[str]) -> list[bytes]:
    headers = ctx.rules.headers
    path = _resolve(ctx, name, folder)
    if path is None:
        return []
    if path in seen or depth <= 0:
        return []
    seen.add(path)
    try:
        with open(path, "rb") as f:
            text = f.read(1 << 20)
    except OSError:
        return []
    out: list[bytes] = []
    for m in re.finditer(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', text, re.M):
        inner = m.group(2).decode("utf-8", "replace")
        beside = os.path.join(os.path.dirname(path), inner)
        if m.group(1) == b'"' and os.path.isfile(beside):
            out += _cuda_includes_of(ctx, inner, os.path.dirname(path), depth - 1, seen)
            continue
        rule = headers.get(inner)
        target = rule.target(roc=ctx.options.roc, miopen=ctx.options.miopen) if rule is not None else ""
        if target and target.encode() != HIP_RUNTIME and target.encode() not in out:
            out.append(target.encode())
    return out


def _newer_header(ctx: Context, path: str, target: str, added: str, at: int) -> None:
    """HP008 where the HIP the output is for predates the header (hip_fp4.h: HIP 7.0)."""
    from hipport.installed_hip import describe, parse_version, target_hip_version

    have = target_hip_version(ctx.options.hip_version)
    if have is not None and have < parse_version(added):
        ctx.sink.add("HP008", f"<{path}> becomes <{target}>, which {describe(added)} added; the output is for HIP "
                     f"{have[0]}.{have[1]}", at, hint="build with a newer ROCm, or keep this code for CUDA only "
                     "(#ifndef __HIP_PLATFORM_AMD__); --hip-version names another target release")


_TOOLKIT_INCLUDE_DIR = lazy_re.compile(r"(?:^/|usr/include/|cuda[^/]*/(?:targets/[^/]+/)?include/)")


def _toolkit_relative(path: str) -> str | None:
    """`/usr/include/cuda_runtime.h` (GASAL2), `/usr/local/cuda/include/curand_kernel.h`,
    `../../../../usr/include/host_defines.h`: a toolkit header named by where it is installed,
    which no AMD machine has; the part after the include directory is the header's name."""
    if "include/" not in path or not _TOOLKIT_INCLUDE_DIR.search(path):
        return None
    return path[path.rfind("include/") + len("include/"):] or None


# a CUDA toolkit's include directory wherever it is installed (`~/cuda-12.4/include`, conda's targets/…)
_TOOLKIT_FOLDER = lazy_re.compile(r"cuda[^/]*/(?:targets/[^/]+/)?include/?$")


def _project_header(ctx: Context, path: str) -> bool:
    """`#include "cuda.h"` naming the project's own header (darknet has a src/cuda.h): a file of
    that name beside the source, which is what the quotes find first, or one through -I outside
    the toolkit's and the system's directories (warpsort's `"cuda/Pair.cuh"` with `-I.`: not
    libcu++'s; `-I /usr/local/cuda/include` finds the toolkit's own)."""
    from hipport.local_headers import is_system_path

    candidate = os.path.join(os.path.dirname(os.path.abspath(ctx.path)), path)
    if os.path.isfile(candidate) and not is_system_path(candidate):
        return True
    for folder in ctx.options.search_dirs():
        candidate = os.path.join(folder, path)
        if os.path.isfile(candidate) and not is_system_path(candidate) \
                and not _TOOLKIT_FOLDER.search(os.path.realpath(folder).replace(os.sep, "/")):
            return True
    return False


_BRANCH_RE = lazy_re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b", re.M)


def _branch_test(data: bytes):
    """A test: is what stands at an earlier offset in effect at a later one — is the earlier one's
    stack of #if branches a prefix of the later one's (not `#if A … #else …`)?"""
    starts, paths = [0], [()]
    stack: list[tuple[int, int]] = []
    groups = 0
    for m in _BRANCH_RE.finditer(data):
        kind = m.group(1)
        if kind.startswith(b"if"):
            groups += 1
            stack.append((groups, 0))
        elif kind == b"endif":
            if stack:
                stack.pop()
        elif stack:
            stack[-1] = (stack[-1][0], stack[-1][1] + 1)
        starts.append(m.start())
        paths.append(tuple(stack))

    def in_effect(earlier: int, later: int) -> bool:
        before = paths[bisect_right(starts, earlier) - 1]
        after = paths[bisect_right(starts, later) - 1]
        return after[:len(before)] == before

    return in_effect

_CUDA_LANGUAGE_RE = lazy_re.compile(
    rb"(?<![\w$])(?:__global__|__device__|__shared__|__constant__|__managed__|threadIdx|blockIdx|blockDim|gridDim|"
    rb"__syncthreads|warpSize)(?![\w$])")


def _uses_cuda_language(data: bytes) -> bool:
    """CUDA language features that hip_runtime.h (not the compiler) defines under HIP, in code (a
    kernel's source in a string, for NVRTC, needs no header in the file that holds it)."""
    return bool(_cuda_language_uses(data))


def _cuda_language_uses(data: bytes) -> list[int]:
    found = [m.start() for m in _CUDA_LANGUAGE_RE.finditer(data)]
    if found and (b'"' in data or b"/" in data):
        found = outside(found, masked_spans(data))
    return found


def _remove_line(ctx: Context, inc: Include) -> bool:
    """Delete the directive's whole line, if the line holds nothing else; a comment after the
    directive stays, on the line by itself."""
    data = ctx.data
    line_start, line_end = _line_span(data, inc.start, inc.end)
    if data[line_start:inc.start].strip() != b"":
        return False
    rest = data[inc.end:line_end]
    if rest.strip() == b"":
        ctx.edit(line_start, line_end, b"", "include-duplicate")
        return True
    comment = len(rest) - len(rest.lstrip(b" \t"))
    if rest.startswith((b"//", b"/*"), comment):
        ctx.edit(line_start, inc.end + comment, b"", "include-duplicate")
        return True
    return False


_CONDITIONAL_RE = lazy_re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*(if|ifdef|ifndef|endif|define)\b[ \t]*(\w*)", re.M)


def _unconditional_test(data: bytes):
    """A test: is this offset outside every #if block (an include guard does not count)?"""
    events = []  # (offset, depth after the directive)
    depth, guard = 0, None
    for m in _CONDITIONAL_RE.finditer(data) if b"#" in data else ():
        kind = m.group(1)
        if kind == b"define":
            if guard is not None and not events[1:] and m.group(2) == guard:
                # `#ifndef X` + `#define X` opening the file: its include guard, from the #ifndef on
                # (a `#pragma once` or an include may stand between the two)
                depth -= 1
                events[0] = (events[0][0], depth)
            guard = None
            continue
        guard = m.group(2) if kind == b"ifndef" and not events else None
        depth = depth + 1 if kind != b"endif" else max(depth - 1, 0)
        events.append((m.start(), depth))
    return _at_depth_zero(events)


def _either_or(data: bytes, runtime_includes: list[int]) -> bool:
    """Does a runtime include stand in one branch of an `#if … #else … #endif` (a CPU
    build's stand-ins in the other)?  Then the file's unconditional CUDA uses have their names in
    either build, and an unconditional HIP include would break the CPU one."""
    if not runtime_includes or b"else" not in data:
        return False
    stack: list[list] = []  # [opening offset, has another branch, holds a runtime include]
    for m in _BRANCH_RE.finditer(data):
        kind = m.group(1)
        if kind.startswith(b"if"):
            stack.append([m.start(), False, False])
            continue
        if not stack:
            continue
        group = stack[-1]
        if any(group[0] < at < m.start() for at in runtime_includes):
            group[2] = True
        if kind == b"endif":
            stack.pop()
            if group[1] and group[2]:
                return True
        else:
            group[1] = True
            group[0] = m.start()
    return False


def _common_condition(data: bytes, offsets: list[int]) -> bytes | None:
    """The opening directive (`#ifdef USE_CUDA`) of the one top-level conditional group that holds
    every offset in its first branch (an include guard is not such a group); else None."""
    if not offsets:
        return None
    unconditional = _unconditional_test(data)
    stack: list[tuple[int, bool]] = []  # (offset of the #if, still in its first branch)
    first_branches: list[tuple[int, int]] = []  # (#if offset, end of its first branch), top-level groups
    for m in _BRANCH_RE.finditer(data):
        kind = m.group(1)
        if kind.startswith(b"if"):
            stack.append((m.start(), True))
        elif stack:
            opening, first = stack[-1]
            if first and (opening == 0 or unconditional(opening - 1)):
                first_branches.append((opening, m.start()))
            if kind == b"endif":
                stack.pop()
            else:
                stack[-1] = (opening, False)
    texts = set()
    for offset in offsets:
        opening = next((o for o, end in first_branches if o < offset < end), None)
        if opening is None:
            return None
        texts.add(data[opening:directive_end(data, opening)].strip(b" \t\r"))
    if len(texts) != 1:
        return None
    text = texts.pop()
    m = _BUILD_SWITCH.fullmatch(text)
    # a project's own switch only: a test of CUDA's macros (`CUDA_VERSION`, `__CUDACC__`) is
    # rewritten itself, and the runtime include must not depend on it
    switch = m and (m.group(1) or m.group(2))
    if switch in (b"__CUDACC__", b"__NVCC__"):
        return b"#ifdef __HIPCC__"  # the compiler test as the port spells it (a CPU-only g++ build skips it)
    return text if switch and not switch.startswith((b"__", b"CUDA", b"CUDART")) else None


_BUILD_SWITCH = lazy_re.compile(rb"#[ \t]*(?:ifdef[ \t]+(\w+)|if[ \t]+(?=defined)defined[ \t]*\(?[ \t]*(\w+)[ \t]*\)?)"
                           rb"[ \t]*(?://[^\n]*)?")


def _at_depth_zero(events: list[tuple[int, int]]):
    """A test over (offset, nesting depth from there on) events: is an offset at depth 0?"""
    starts = [e[0] for e in events]

    def test(offset: int) -> bool:
        i = bisect_right(starts, offset) - 1
        return i < 0 or events[i][1] <= 0

    return test


def _top_level_test(data: bytes, before: int):
    """A test: is this offset (below *before*) outside every `{ }` block of code?  An include inside
    `extern "C" {` or `namespace x {` would bring HIP's C++ headers in with C linkage or a namespace."""
    if b"{" not in data[:before]:
        return lambda offset: True
    opens: list[tuple[int, int]] = []  # (offset, depth after the brace)
    depth, pos = 0, 0
    while pos < before:
        m = TOKEN_RE.search(data, pos, before)
        if m is None:
            break
        pos = m.end()
        if m.lastgroup == "directive":
            pos = directive_end(data, m.start())  # `#define OPEN {` is no block
        elif m.lastgroup == "punct" and m.group() in (b"{", b"}"):
            depth = depth + 1 if m.group() == b"{" else max(depth - 1, 0)
            opens.append((m.start(), depth))
    return _at_depth_zero(opens)


def add_runtime_include(ctx: Context, includes: list[Include], mapped: list[tuple[Include, bytes]]) -> None:
    """Insert ``#include <hip/hip_runtime.h>`` (and shim headers) where the file needs them.

    nvcc made the runtime visible before any include; HIP headers such as
    hip_cooperative_groups.h rely on that, so the runtime include must precede the first
    translated include, not merely appear somewhere.  Like hipify-clang, the include goes at
    the first ``#include`` of the file, or, in a file without includes, after ``#pragma once``
    or the include guard, else after the leading comment block.
    """
    data = ctx.data
    nl = ctx.newline
    every_include = includes
    present = {inc.path for inc in includes}
    wanted = []
    at = None
    # nvcc includes cuda_runtime.h into every .cu translation unit, whatever it uses itself
    if ctx.needs_hip_runtime or mapped or _uses_cuda_language(data) or ctx.path.endswith(".cu"):
        # an include under #ifdef SOME_BUILD does not make the runtime visible to the rest
        unconditional = _unconditional_test(data)
        # `extern "C" { #include <cuda_runtime.h> }`: HIP's C++ headers cannot be included first there
        in_blocks = _in_blocks(data, sorted([inc for inc in includes if inc.path == HIP_RUNTIME] + [inc for inc, _ in mapped],
                                            key=lambda inc: inc.start))
        if in_blocks:
            _hoist_out_of_blocks(ctx, [(inc, p) for inc, p in mapped if inc.start in in_blocks and p != HIP_RUNTIME])
        if b'extern "C"' in data or b"namespace" in data:
            # darknet: `extern "C" { #include "crop_layer.h" }`, and that includes <curand.h>;
            # uDeviceX: `namespace d { #include "cuda/imp.h" }`, whose translation needs compat.h
            _hoist_out_of_blocks(ctx, _project_headers_cuda_includes(ctx, includes))
        runtime_at = next((i for i, (inc, p) in enumerate(mapped)
                           if p == HIP_RUNTIME and unconditional(inc.start) and inc.start not in in_blocks), None)
        original = next((inc for inc in includes
                         if inc.path == HIP_RUNTIME and unconditional(inc.start) and inc.start not in in_blocks), None)
        includes = [inc for inc in includes if unconditional(inc.start)]
        # the mapped includes every configuration sees (`#ifdef USE_FP16 / <cuda_fp16.h>` is not one)
        visible = [(inc, p) for inc, p in mapped if unconditional(inc.start) and inc.start not in in_blocks]
        first_runtime = min([inc.start for inc in [original] if inc] +
                            ([mapped[runtime_at][0].start] if runtime_at is not None else []), default=None)
        # a shared header's `#ifdef USE_CUDA / #include <cuda_runtime_api.h>`, all its CUDA under
        # such tests: the runtime goes with it, so a CPU-only build of the file needs no HIP
        all_conditional = first_runtime is None and not ctx.path.endswith(".cu") and \
            not any(unconditional(e.start) for e in ctx.edits if e.rule == "rename") and \
            not any(unconditional(at) for at in _cuda_language_uses(data))
        if all_conditional and HIP_RUNTIME in present:
            pass  # its runtime include is there already, under the test (a second translation)
        elif first_runtime is None and not ctx.path.endswith(".cu") and \
                _either_or(data, [inc.start for inc, p in mapped if p == HIP_RUNTIME] +
                           [inc.start for inc in every_include if inc.path == HIP_RUNTIME]):
            pass  # `#ifdef CPU_ONLY / stand-ins / #else / #include <cuda_runtime.h>`: each build has its names
        elif first_runtime is None:
            wanted.append(b"#include <" + HIP_RUNTIME + b">")
            if all_conditional and mapped and not unconditional(mapped[0][0].start):
                at = data.rfind(b"\n", 0, mapped[0][0].start) + 1
            elif all_conditional and not mapped:
                # `#ifdef USE_CUDA` around every CUDA use, the CUDA header coming from another
                # file: the include goes under that test too, so a CPU-only build needs no HIP
                test = _common_condition(data, [e.start for e in ctx.edits if e.rule == "rename"])
                if test is not None:
                    wanted[-1] = test + nl + wanted[-1] + nl + b"#endif"
        elif visible and visible[0][0].start < first_runtime:
            first = visible[0][0]
            if runtime_at is not None and original is None:
                inc = mapped[runtime_at][0]
                if _remove_line(ctx, inc):
                    ctx.edits = [e for e in ctx.edits if not (e.rule == "include" and e.start == inc.path_start)]
            close = b">" if first.delim == b"<" else b'"'
            wanted.append(b"#include " + first.delim + HIP_RUNTIME + close)
            at = data.rfind(b"\n", 0, first.start) + 1
            if _project_header_relies_on_implicit_runtime(ctx, includes, first.start):
                at = data.rfind(b"\n", 0, includes[0].start) + 1
        elif _project_header_relies_on_implicit_runtime(ctx, includes, first_runtime):
            wanted.append(b"#include <" + HIP_RUNTIME + b">")
            at = data.rfind(b"\n", 0, includes[0].start) + 1
    extras = [b"#include <" + e + b">" for e in ctx.extra_includes if e not in present] + ctx.extra_lines
    if extras and not wanted:
        # shim headers go right after the runtime include, which they build on
        runtime = next((inc for inc in includes if inc.path == HIP_RUNTIME), None) or \
            next((inc for inc, p in mapped if p == HIP_RUNTIME), None)
        if runtime is not None:
            line_end = data.find(b"\n", runtime.end)
            at = len(data) if line_end == -1 else line_end + 1
            prefix = nl if line_end == -1 else b""
            ctx.edits.insert(0, Edit(at, at, prefix + nl.join(extras) + nl, "include-insert"))
            return
    wanted.extend(extras)
    if not wanted:
        return
    text = nl.join(wanted) + nl
    if at is None:
        at = _guard_line_end(data, includes[0].start) if includes else None
    if at is None:
        at = data.rfind(b"\n", 0, includes[0].start) + 1 if includes else _insertion_point(data)
    if not _top_level_test(data, at + 1)(at):
        at = _insertion_point(data)  # not inside `extern "C" {` or `namespace x {`: before the block
    if at == 0 and data.startswith(BOM):
        at = 3  # after the byte-order mark, which must stay first
    # first in the list: at the same offset, an include goes before any other insertion
    ctx.edits.insert(0, Edit(at, at, text, "include-insert"))


def _project_header_relies_on_implicit_runtime(ctx: Context, includes: list[Include], before: int) -> bool:
    """nvcc's implicit cuda_runtime.h precedes everything: a project header included above the
    file's first CUDA include may use ulonglong2 & co. without an include of its own."""
    return ctx.path.endswith(IMPLICIT_RUNTIME_SUFFIXES) and \
        any(inc.delim == b'"' and inc.start < before for inc in includes)


_BRACE = lazy_re.compile(rb"[{}]")


def _in_blocks(data: bytes, includes: list[Include]) -> set[int]:
    """The starts of the includes that stand inside a `{ }` block (`extern "C" {`, a namespace).
    One sweep over the braces before the last include, comments, literals and directive lines
    (`#define OPEN {`) left out."""
    if not includes or b"{" not in data[:includes[-1].start]:
        return set()
    last = includes[-1].start
    braces = outside([m.start() for m in _BRACE.finditer(data, 0, last)], masked_spans(data[:last]))
    found, depth, i = set(), 0, 0
    for inc in includes:
        while i < len(braces) and braces[i] < inc.start:
            pos = braces[i]
            i += 1
            line_start = data.rfind(b"\n", 0, pos) + 1
            if data[line_start:pos].lstrip(b" \t").startswith(b"#"):
                continue
            depth = depth + 1 if data[pos] == 0x7B else max(depth - 1, 0)  # 0x7B: '{'
        if depth:
            found.add(inc.start)
    return found


_EXTERN_OPEN = lazy_re.compile(rb"(?:extern\s*\"C(?:\+\+)?\"|namespace(?:\s+[\w:]+)?)\s*\{")
_CPLUSPLUS_TEST = lazy_re.compile(rb"[ \t]*#[ \t]*if(?:def[ \t]+__cplusplus|[ \t]+defined[ \t]*\(?[ \t]*__cplusplus)[^\n]*\n\Z")


def _hoist_out_of_blocks(ctx: Context, inside: list[tuple[Include, bytes]]) -> None:
    """A HIP header mapped inside `extern "C" {` (darknet's C headers hold `#include <curand.h>`)
    brings C++ templates into C linkage: the same include goes before the block as well, where it
    is included first; the one inside is then empty (its include guard)."""
    data, nl = ctx.data, ctx.newline
    done: set[tuple[int, bytes]] = set()
    for inc, path in inside:
        opening = None
        for m in _EXTERN_OPEN.finditer(data, 0, inc.start):
            if data.count(b"{", m.end(), inc.start) == data.count(b"}", m.end(), inc.start):
                opening = m.start()  # an open block (a closed one balances its braces before the include)
                break
        if opening is None:
            continue
        at = data.rfind(b"\n", 0, opening) + 1
        guard = _CPLUSPLUS_TEST.search(data, max(0, at - 200), at)
        if guard is not None:
            at = guard.start()  # `#ifdef __cplusplus` / `extern "C" {` / `#endif`: before the test
        if (at, path) in done or re.search(rb"#[ \t]*include[ \t]*[<\"]" + re.escape(path) + rb"[>\"]", data[:at]):
            continue  # (hoisted already: a second translation)
        done.add((at, path))
        close = b">" if inc.delim == b"<" else b'"'
        ctx.edit(at, at, b"#include " + inc.delim + path + close + nl, "include-hoist")


_PRAGMA_ONCE_RE = lazy_re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*pragma[ \t]+once[^\n]*\n", re.MULTILINE)
_GUARD_RE = lazy_re.compile(rb"[ \t]*#[ \t]*ifndef[ \t]+(\w+)[^\n]*\n[ \t]*#[ \t]*define[ \t]+(\w+)[^\n]*\n")


_IFNDEF_RE = lazy_re.compile(rb"[ \t]*#[ \t]*ifndef[ \t]+(\w+)[^\n]*\n")


def _guard_line_end(data: bytes, first_include: int) -> int | None:
    """In a header that opens with an include guard (``#ifndef X`` ... ``#define X``, perhaps with
    ``#pragma once`` between), the line after ``#ifndef X`` — hipify-clang's place for the runtime
    include — when the first include lies inside the guard."""
    m = _IFNDEF_RE.match(data, _after_leading_comments(data))
    if m is None or m.end() > first_include:
        return None
    if re.search(rb"^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*define[ \t]+" + m.group(1) + rb"\b", data[m.end():first_include], re.M) is None:
        return None
    return m.end() if _closes_at_the_end(data, m.start()) else None


_CONDITIONAL_LINE = lazy_re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif)\b", re.M)


def _closes_at_the_end(data: bytes, opening: int) -> bool:
    """Is the conditional opened at *opening* closed by the file's last directive — an include
    guard — rather than by an early `#endif` (`#ifndef BLOCK / #define BLOCK 256 / #endif`, a
    default a `-DBLOCK=128` build overrides, where an include inside would then be skipped)?"""
    depth = 0
    for m in _CONDITIONAL_LINE.finditer(data, opening):
        depth += -1 if m.group(1) == b"endif" else 1
        if depth == 0:
            rest = data[data.find(b"\n", m.end()) + 1:] if data.find(b"\n", m.end()) >= 0 else b""
            return not rest.strip() or re.fullmatch(rb"(?:\s|//[^\n]*|/\*.*?\*/)*", rest, re.S) is not None
    return False


def _insertion_point(data: bytes) -> int:
    """Where a file without includes gets one: after #pragma once or the include guard, else
    after the leading comments."""
    after_comments = _after_leading_comments(data)
    m = _PRAGMA_ONCE_RE.search(data, after_comments)  # (not one quoted in the leading comment)
    if m and data[after_comments:m.start()].strip() == b"":
        return m.end()
    m = _GUARD_RE.match(data, after_comments)
    if m and m.group(1) == m.group(2) and _closes_at_the_end(data, m.start()):
        return m.end()
    return after_comments


def _after_leading_comments(data: bytes) -> int:
    """Offset just past the file's leading comment block (and a BOM), at a line start."""
    bom = pos = len(BOM) if data.startswith(BOM) else 0
    while True:
        nxt = skip_ws(data, pos)
        if nxt == pos or nxt >= len(data):
            break
        if not data.startswith((b"//", b"/*"), skip_ws_only(data, pos)):
            break
        pos = nxt
    # move to the start of the next line
    line_start = max(data.rfind(b"\n", 0, pos) + 1, bom)
    if line_start < pos and data[line_start:pos].strip():
        nl = data.find(b"\n", pos)
        return len(data) if nl == -1 else nl + 1
    return line_start


def skip_ws_only(data: bytes, pos: int) -> int:
    while pos < len(data) and data[pos:pos + 1] in (b" ", b"\t", b"\r", b"\n"):
        pos += 1
    return pos

