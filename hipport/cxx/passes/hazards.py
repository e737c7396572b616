"""Porting hazards no hipify tool reports: code that compiles for AMD but computes wrong results.

Each hazard is one targeted regex over the file plus a message and a hint; matches inside
comments and literals are discarded using the sweep's masked spans.  They are warnings, not
edits: each needs a human decision (usually ``warpSize`` / ``<hipport/warp.h>``).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import NamedTuple

from hipport.cxx.context import Context
from hipport.cxx.lexer import logical_line_start
from hipport.cxx.scan import Scan
from hipport import lazy_re

WARP_HINT = "use warpSize or hipport::warp_size() from <hipport/warp.h>; AMD wavefronts have 64 lanes"


class Hazard(NamedTuple):
    code: str
    pattern: re.Pattern
    message: str
    hint: str
    needs: bytes = b""  # only checked in files containing this text (cheap pre-filter)
    before: re.Pattern | None = None  # must match the text just before the match (anchored at its end)
    code_only: bool = False  # not on preprocessor lines (#if checks are the version lint's)


_SYNC = rb"(?:__shfl(?:_up|_down|_xor)?_sync|__ballot_sync|__any_sync|__all_sync|__uni_sync|__match_(?:any|all)_sync|__reduce_\w+_sync|__syncwarp)"
_THREAD_INDEX = rb"(?:threadIdx\.[xyz]|\b(?:tid|lane|laneId|lane_id|laneid|thread_id|threadId|tidx|idx)\b)"

_WORD_START = lazy_re.compile(rb"(?<![\w$])\Z")  # zero-width: the report stays at the match
_DEFINES_IT = lazy_re.compile(rb"[ \t]*#[ \t]*define[ \t]+\Z")
_DIRECTIVE_LINE = lazy_re.compile(rb"(?:\xef\xbb\xbf)?[ \t]*#")
_CUDA_NAME_START = rb"(?:cuda|CUDA_|cu[A-Z]|CU_|cublas|CUBLAS_|cusparse|CUSPARSE_|curand|CURAND_|cufft|CUFFT_|cudnn|CUDNN_|nvrtc|NVRTC_)"
PASTE_MESSAGE = ("a CUDA name is assembled by token pasting; the names it builds are not checked (a pasted "
                 "`cuda` prefix becomes `hip`, the rest stays as written)")
PASTE_HINT = "spell the HIP names in the macro (or paste hip## under #ifdef __HIP_PLATFORM_AMD__)"

# Every pattern starts with a literal, so the regex engine skips to candidates in C; context
# before the match (which a leading alternation would make slow) is checked by ``before``.
HAZARDS = (
    Hazard("HP011", lazy_re.compile(_SYNC + rb"\s*\(\s*(?:0x[fF]{8}[uUlL]*|~0u?|-1|4294967295u?)\b"),
           "32-bit full lane mask passed to a *_sync intrinsic; on a 64-lane wavefront it covers half the lanes",
           "use HIPPORT_FULL_LANE_MASK from <hipport/warp.h> or __activemask()", b"_sync"),
    Hazard("HP011", lazy_re.compile(rb"__(?:ballot(?:_sync)?|activemask|match_(?:any|all)_sync)\s*\("),
           "lane mask stored in a 32-bit variable; HIP's __ballot/__activemask/__match_*_sync return 64 bits",
           "store it in hipport::lane_mask_t or unsigned long long", b"__",
           lazy_re.compile(rb"(?<![\w$])(?:unsigned(?:\s+int)?|uint32_t|int|int32_t)\s+\w+\s*=\s*\Z")),
    Hazard("HP033", lazy_re.compile(rb"atomic(?:Add|Sub|Exch|Min|Max|Inc|Dec|CAS|And|Or|Xor)_system\s*\("),
           "system-scope atomic: on AMD GPUs it is atomic with the host only on fine-grained memory, over a link "
           "with PCIe atomics (hipDeviceAttributeHostNativeAtomicSupported)",
           "allocate the shared data with hipHostMalloc(..., hipHostMallocCoherent) or hipMallocManaged, and check "
           "hipDeviceAttributeHostNativeAtomicSupported before relying on host/device atomicity", b"_system"),
    Hazard("HP010", lazy_re.compile(rb"(?:%\s*32|/\s*32|&\s*(?:31|0x1[fF])|>>\s*5)(?![\w.])"),
           "thread index arithmetic assumes a warp of 32 lanes", WARP_HINT, b"",
           lazy_re.compile(_THREAD_INDEX + rb"\s*\Z")),
    Hazard("HP012", lazy_re.compile(rb"warpSize\b"),
           "warpSize used as a constant expression; it is a runtime value on HIP",
           "use a compile-time constant for the target (64 on CDNA, 32 on RDNA) or size the array dynamically",
           b"warpSize",
           lazy_re.compile(rb"(?:__shared__[^;{}]*\[[^\];]*|\bconstexpr\b[^;{}]*|static_assert\s*\([^;]*|\bcase\s+)\Z")),
    # not asm("" ::: "memory"), a compiler barrier; not x86 host assembly (rdtsc, cpuid, %%eax)
    Hazard("HP013", lazy_re.compile(rb"asm(?:__)?\s*(?:volatile\s*|__volatile__\s*)?\((?!\s*\"\"\s*[:)])"
                               rb"(?!\s*\"\s*(?:rdtscp?|cpuid|pause|[lms]fence|xchg|lock|bswap|\.byte\s+0x0f)\b)"
                               rb"(?!\s*\"[^\"]*%%[er]?(?:ax|bx|cx|dx|si|di|sp|bp)\b)"
                               # nor AMDGCN's own (ggml's `v_dot2_f32_f16`, `s_waitcnt`): already the port
                               rb"(?!\s*\"\s*(?:v|s|ds|buffer|global|flat|scratch)_[a-z0-9_]+\b)"),
           "inline PTX assembly cannot be compiled for AMD GPUs",
           "replace it with a HIP intrinsic or portable C++; guard the PTX with #ifndef USE_ROCM", b"asm",
           lazy_re.compile(rb"(?<![\w$])(?:__)?\Z")),
    Hazard("HP014", lazy_re.compile(rb"texture\s*<[^;>]*>\s*\w+"),
           "texture reference (removed in CUDA 12, deprecated in HIP)",
           "use texture objects (hipTextureObject_t) with hipCreateTextureObject", b"texture", _WORD_START),
    Hazard("HP014", lazy_re.compile(rb"surface\s*<[^;>]*>\s*\w+"),
           "surface reference (removed in CUDA 12; HIP has none)",
           "use surface objects (hipSurfaceObject_t) with hipCreateSurfaceObject", b"surface", _WORD_START),
    # against a number or a macro naming one (ggml's `__CUDA_ARCH__ >= CC_PASCAL`)
    Hazard("HP015", lazy_re.compile(rb"__CUDA_ARCH__\s*(?:>=|<=|==|!=|<|>)\s*(?:\d+|[A-Za-z_]\w*)"),
           "__CUDA_ARCH__ compared with an NVIDIA architecture number; HIP device code does not define it",
           "test __HIP_DEVICE_COMPILE__ for device code, or feature macros such as __gfx90a__", b"__CUDA_ARCH__"),
    Hazard("HP015", lazy_re.compile(rb"__CUDA_ARCH__"),
           "__CUDA_ARCH__ compared with an NVIDIA architecture number; HIP device code does not define it",
           "test __HIP_DEVICE_COMPILE__ for device code, or feature macros such as __gfx90a__", b"__CUDA_ARCH__",
           lazy_re.compile(rb"(?:\d+|(?<![\w$])[A-Za-z_]\w*)\s*(?:>=|<=|==|!=|<|>)\s*\Z")),
    # its value in code (`arch = __CUDA_ARCH__;`): under HIP's compiler the name is undefined
    Hazard("HP015", lazy_re.compile(rb"__CUDA_ARCH__(?![\w$])(?!\s*(?:>=|<=|==|!=|<|>)\s*[\w$])"),
           "__CUDA_ARCH__ used as a value in code; HIP device code does not define it",
           "use a HIP feature macro (__gfx90a__, __AMDGCN_WAVEFRONT_SIZE) or hipDeviceProp_t::gcnArchName on the host",
           b"__CUDA_ARCH__", lazy_re.compile(rb"(?<![\w$<>])(?<![<>]\s)(?<![=!<>]=)(?<![=!<>]=\s)\Z"), code_only=True),
    Hazard("HP016", lazy_re.compile(rb"__launch_bounds__\s*\(\s*[^,()]+(?:\([^()]*\))?[^,()]*,\s*[^)]"),
           "__launch_bounds__ second argument is minimum blocks per SM on CUDA but minimum waves per EU on HIP",
           "drop the second argument or convert it (see HIP's porting guide on __launch_bounds__)", b"__launch_bounds__"),
    Hazard("HP017", lazy_re.compile(rb"\.(?:type|memoryType)\s*(?:==|!=)\s*[0-9]\b"),
           "memory type compared with an integer literal; hipMemoryType values differ from cudaMemoryType",
           "compare with the named enumerators (hipMemoryTypeDevice, …)", b"PointerGetAttributes"),
    Hazard("HP017", lazy_re.compile(rb"\[[^\[\];{}]*?(?:\.|->)\s*(?:type|memoryType)\s*\]"),
           "memory type used as an index; hipMemoryType values differ from cudaMemoryType (CUDA's device is 2, HIP's 1)",
           "switch on the named enumerators (hipMemoryTypeDevice, …) instead of indexing by the value",
           b"PointerGetAttributes"),
    Hazard("HP017", lazy_re.compile(rb"\(\s*(?:int|unsigned(?:\s+int)?|long|size_t)\s*\)\s*[\w.>\[\]-]*?(?:\.|->)"
                                    rb"\s*(?:type|memoryType)\b(?!\s*[(\[])"),
           "memory type converted to a number; hipMemoryType values differ from cudaMemoryType (CUDA's device is 2, HIP's 1)",
           "print or compare the named enumerators (hipMemoryTypeDevice, …) instead of the value",
           b"PointerGetAttributes"),
    # CUDA's version macros as values in code: HIP defines neither, and no HIP macro means the same
    Hazard("HP024", lazy_re.compile(rb"(?:CUDA_VERSION|CUDART_VERSION)(?![\w$])"),
           "CUDA_VERSION / CUDART_VERSION used as a value in code; HIP defines neither",
           "compare hipRuntimeGetVersion()/hipDriverGetVersion() with HIP version numbers, or keep the CUDA-only "
           "code under #ifdef CUDART_VERSION", b"_VERSION", _WORD_START, code_only=True),
    # a macro that builds CUDA names by token pasting: the names exist only after preprocessing
    Hazard("HP020", lazy_re.compile(rb"##\s*" + _CUDA_NAME_START),
           PASTE_MESSAGE, PASTE_HINT, b"##"),
    Hazard("HP020", lazy_re.compile(rb"##"), PASTE_MESSAGE, PASTE_HINT, b"##",
           before=lazy_re.compile(rb"(?<![\w$])" + _CUDA_NAME_START + rb"[\w$]*\s*\Z")),
    # `(cu##fn)` (the CUDA Handbook's driver-API checks): the driver's bare prefix
    Hazard("HP020", lazy_re.compile(rb"##"), PASTE_MESSAGE, PASTE_HINT, b"##", before=lazy_re.compile(rb"(?<![\w$])cu\s*\Z")),
)


_GLUED_CUDA_NAME = lazy_re.compile(rb"\b[A-Za-z]\w*?_(cu(?:da)?[A-Z]\w*)")


def _pasted_from_renamed(ctx: Context, scan: Scan) -> None:
    """`X(cudaFree)` through `#define DECL(name) … p_##name`, used as `p_cudaFree()`: the argument
    is renamed, so the macro now builds `p_hipFree` and the glued use names nothing."""
    data = ctx.data
    for m in _GLUED_CUDA_NAME.finditer(data):
        name = m.group(1).decode("ascii", "replace")
        rule = ctx.rules.by_name.get(name)
        target = rule.target(ctx.options.roc, ctx.options.miopen) if rule is not None else ""
        if not target or target == name or scan.in_masked(m.start()) or m.group(1) in ctx.pasted_arguments:
            continue
        ctx.sink.add("HP020", f"'{m.group().decode()}' looks pasted from '{name}', which becomes '{target}': "
                     "the pasting macro now builds the HIP spelling", m.start(), end=m.end(),
                     hint=f"rename this use to match (…_{target}), or keep the macro's argument as it was")


# a named warp size of 32 (`#define WARP_SIZE 32`, `constexpr int kWarpSize = 32;`): the assumption
# every `lane = tid % WARP_SIZE` and `__shfl_*(…, WARP_SIZE)` then inherits
_WARP_SIZE_VALUE = lazy_re.compile(rb"(?:[wW]arp|WARP)[\w$]*(?:[ \t]*=[ \t]*|[ \t]*\{[ \t]*|[ \t]+)\(?32(?:[uU][lL]{0,2}|[lL]{1,2}[uU]?)?(?![\w.'])")
_WARP_SIZE_NAME = lazy_re.compile(rb"\w*(?:[wW]arp|WARP)_?(?:[sS]ize|SIZE|[sS]z|SZ|[tT]hreads|THREADS|[lL]anes|LANES|[wW]idth|WIDTH)"
                             rb"|\w*(?:[tT]hreads|THREADS|[lL]anes|LANES)_?(?:[pP]er|PER)_?(?:[wW]arp|WARP)\w*")
_IDENT_TAIL = lazy_re.compile(rb"[\w$]*")


# `static const int WS = 32;  // warp size` (ECL-GC): a name of its own, which its comment explains;
# matched against the code before a comment that mentions warps (comments first: a fast search)
_COMMENTED_WARP_SIZE = lazy_re.compile(
    rb"(?:#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+\(?32[uUlL]*\)?|\b([A-Za-z_]\w*)[ \t]*=[ \t]*32[uUlL]*[ \t]*;)[ \t]*\Z")
_WARP_WORD = lazy_re.compile(rb"[wW]arp|WARP")


def _commented_warp_sizes(data: bytes, scan: Scan):
    for start, end in scan.masked:
        if data[start:start + 1] == b"/" and data[start + 1:start + 2] in (b"/", b"*") and _WARP_WORD.search(data, start, end):
            line = data.rfind(b"\n", 0, start) + 1
            m = _COMMENTED_WARP_SIZE.search(data, line, start)
            if m is not None and b";" not in data[line:m.start()]:  # the line's one declaration
                yield m


def _warp_size_constants(ctx: Context, scan: Scan) -> None:
    data = ctx.data
    found = [(m.start(), m.end()) for m in _WARP_SIZE_VALUE.finditer(data)]
    commented = set()
    for m in _commented_warp_sizes(data, scan):
        name_at = m.start(1) if m.group(1) else m.start(2)
        found.append((name_at, data.index(b"32", name_at) + 2))
        commented.add(name_at)
    seen: set[int] = set()
    for start, end in sorted(set(found)):
        while start > 0 and (data[start - 1:start].isalnum() or data[start - 1] in b"_$"):
            start -= 1
        if start in seen:
            continue
        seen.add(start)
        name = _IDENT_TAIL.match(data, start).group()
        if scan.in_masked(start) or not (_WARP_SIZE_NAME.fullmatch(name) or start in commented):
            continue
        if re.search(rb"(?<![\w$])" + re.escape(name) + rb"(?:[ \t]*=[ \t]*|[ \t]*\{[ \t]*|[ \t]+)\(?(?:64[uUlL]*|warpSize)\b", data):
            continue  # the file already gives the name AMD's width on some branch
        ctx.sink.add("HP010", f"warp size constant '{name.decode()}' is 32; AMD wavefronts have 64 lanes", start,
                     end=end, hint="use warpSize (a runtime value on HIP), or 64 under #ifdef __HIP_PLATFORM_AMD__ "
                     "with shuffles given an explicit width")


_INDEX_SOURCE = lazy_re.compile(rb"threadIdx|blockIdx|blockDim|lane|[lL]ane|tid|thread_rank|__lane_id|laneid|warp")


def _holds_a_thread_index(data: bytes, name: bytes, at: int) -> bool:
    """`idx / 32` is a warp computation when idx holds a thread index; set last (before *at*)
    from other things (`idx = hash & mask`), it is a plain number.  A name set nowhere before (a
    parameter) may be either, and is reported."""
    if name.startswith(b"threadIdx"):
        return True
    last = None
    for m in re.compile(rb"(?<![\w$.>])" + re.escape(name) + rb"\s*=(?!=)([^;]*)").finditer(data, 0, at):
        last = m
    return last is None or _INDEX_SOURCE.search(last.group(1)) is not None


_ARCH_ALIAS = lazy_re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+\(?[ \t]*__CUDA_ARCH__[ \t]*\)?[ \t]*(?://[^\n]*)?$", re.M)


def _arch_aliases(ctx: Context, scan: Scan) -> None:
    """`#define ARCH __CUDA_ARCH__` … `#if ARCH >= 700`: the same comparison, one name away."""
    data = ctx.data
    for alias in {m.group(1) for m in _ARCH_ALIAS.finditer(data) if not scan.in_masked(m.start())}:
        compared = re.compile(rb"(?<![\w$])" + re.escape(alias) + rb"\s*(?:>=|<=|==|!=|<|>)\s*(?:\d+|[A-Za-z_]\w*)")
        for m in compared.finditer(data):
            if not scan.in_masked(m.start()):
                ctx.sink.add("HP015", f"__CUDA_ARCH__ (through the macro {alias.decode()}) compared with an NVIDIA "
                             "architecture number; HIP device code does not define it", m.start(), end=m.end(),
                             hint="test __HIP_DEVICE_COMPILE__ for device code, or feature macros such as __gfx90a__")


_PLATFORM_TEST = lazy_re.compile(rb"#[ \t]*(ifdef|ifndef|if|elif)[ \t]*(!?)[ \t]*(?:defined[ \t]*\(?[ \t]*)?"
                            rb"(USE_ROCM|__HIP_PLATFORM_AMD__|__HIPCC__|__HIP__)[ \t]*\)?[ \t]*(?:$|//|/\*)", re.M)
_BRANCH = lazy_re.compile(rb"#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")


class _PlatformBranches:
    """The branches one build of the port skips: the PTX under the project's own
    `#ifndef USE_ROCM` (hipport/version.h defines it), which the AMD build skips, and the AMDGCN
    assembly under its `#else`, which the CUDA build skips.  One pass over the directives, when
    first asked, records the branch each stretch of the file is in."""

    def __init__(self, ctx: Context, scan: Scan):
        self.data, self.directives = ctx.data, scan.directives
        self.state: list[bool] | None = None  # after directive i: inside a platform-test branch?

    def _scan(self) -> list[bool]:
        data, state = self.data, []
        stack: list[bool] = []  # per open group: is its current branch picked by a platform test?
        for pos in self.directives:
            kind = _BRANCH.match(data, pos)
            word = kind.group(1) if kind else None
            if word in (b"if", b"ifdef", b"ifndef"):
                stack.append(_PLATFORM_TEST.match(data, pos) is not None)
            elif word == b"elif" and stack:
                stack[-1] = _PLATFORM_TEST.match(data, pos) is not None
            elif word == b"endif" and stack:
                stack.pop()
            # (an #else keeps its group's answer: the other platform's branch)
            state.append(bool(stack) and stack[-1])
        return state

    def __contains__(self, at: int) -> bool:
        if self.state is None:
            tested = b"USE_ROCM" in self.data or b"__HIP" in self.data
            self.state = self._scan() if tested else [False] * len(self.directives)
        i = bisect_right(self.directives, at) - 1
        return i >= 0 and self.state[i]


def run(ctx: Context, scan: Scan) -> None:
    data = ctx.data
    one_platform = _PlatformBranches(ctx, scan)
    if b"32" in data and (b"arp" in data or b"ARP" in data):
        _warp_size_constants(ctx, scan)
    if b"__CUDA_ARCH__" in data and b"define" in data:
        _arch_aliases(ctx, scan)
    if b"##" in data and b"_cu" in data:
        _pasted_from_renamed(ctx, scan)
    for hazard in HAZARDS:
        if hazard.needs and hazard.needs not in data:
            continue
        for m in hazard.pattern.finditer(data):
            start = m.start()
            if hazard.before is not None:
                found = hazard.before.search(data, max(0, start - 48), start)
                if found is None:
                    continue
                start = found.start()
            if scan.in_masked(start) or start in ctx.resolved_hazards or m.start() in ctx.translated_asm:
                continue  # in a comment or literal, or a full-mask call the translation resolved
            if hazard.code == "HP010" and not _holds_a_thread_index(data, data[start:found.end()].rstrip(), start):
                continue
            line_start = data.rfind(b"\n", 0, start) + 1
            if _DEFINES_IT.match(data, line_start, start):
                continue  # `#define __launch_bounds__(a, b)`: the macro's definition, not a use
            if hazard.code_only and _DIRECTIVE_LINE.match(data, logical_line_start(data, line_start)):
                continue
            if hazard.code == "HP013" and (start in one_platform or _in_host_function(data, start, scan)):
                continue  # the project's own `#ifndef USE_ROCM` PTX / `#else` AMDGCN assembly; host assembly
            ctx.sink.add(hazard.code, hazard.message, start, end=m.end(), hint=hazard.hint)


def _in_host_function(data: bytes, at: int, scan: Scan) -> bool:
    """Is *at* in the body of a function that is neither `__device__` nor `__global__`?  Its
    assembly is the host CPU's, not PTX."""
    from hipport.cxx.definitions import enclosing_function_head

    head = enclosing_function_head(data, at, scan)
    return head is not None and b"__device__" not in head and b"__global__" not in head

