"""Rename CUDA identifiers the rules know, everywhere code can name them.

Identifiers come from the sweep (comments and literals are already excluded).  A name is left
alone when it is not the CUDA entity: a member access (``s.cudaMalloc``), a name qualified by a
user namespace (``mylib::cudaMalloc``), the user's own declaration of that name (``int
cudaMalloc;`` in a struct).  A ``#define`` of a CUDA name is renamed with its uses, so the
macro keeps intercepting them.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

from hipport.cxx.calls import prev_nonspace, skip_ws
from hipport.cxx.context import Context
from hipport.cxx.lexer import glued_before, in_directive
from hipport.cxx.passes.calls import SYNC_TO_PLAIN, full_mask_call, overload_target
from hipport import lazy_re

# Keywords after which a name starts an expression or a type, not a declarator.
_EXPR_KEYWORDS = frozenset(
    b"""return else do case throw new delete sizeof alignof decltype typeof co_return co_await
    co_yield not and or compl bitor bitand xor and_eq or_eq xor_eq not_eq const volatile static extern inline constexpr consteval constinit
    typename struct class enum union unsigned signed long short friend virtual explicit
    mutable register thread_local using goto template operator public private protected
    __host__ __device__ __global__ __forceinline__ __noinline__ __shared__ __constant__
    __managed__ __restrict__ restrict""".split()
)
#: words after which ``::name`` is the global namespace too (``typedef ::cub::X T;``), though a
#: name after them is a declaration (``int cudaMalloc;``), not an expression
_GLOBAL_SCOPE_AFTER = _EXPR_KEYWORDS | frozenset(b"typedef namespace void bool char int float double".split())

# A host-only file that uses cuBLAS passes its bf16 buffers to hipBLAS, whose API (like hipify-clang's
# cuBLAS table) names the type hip_bfloat16; elsewhere __nv_bfloat16 is HIP's __hip_bfloat16.
IN_BLAS_FILES = {"__nv_bfloat16": "hip_bfloat16"}
# With --roc, a host-only cuBLAS file hands its __half buffers to rocBLAS, which declares its own
# half type (a struct, unless ROCM_MATHLIBS_API_USE_HIP_HALF): __half* does not convert, so the
# buffers become rocblas_half*, as hipify-clang writes (bf16 ones rocblas_bfloat16*).  Device
# code and fp16 arithmetic keep __half: rocblas_half has no operators or conversions.
ROC_BLAS_HOST_TYPES = {"__half": "rocblas_half", "__nv_bfloat16": "rocblas_bfloat16"}
# With --roc, a cuSPARSE file that does not use cuBLAS passes its cudaDataType values to
# rocSPARSE's generic API, which takes rocsparse_datatype (rocBLAS's enum, the cuBLAS rules'
# --roc target, does not convert); rocSPARSE 5.2 has these four.
ROC_SPARSE_DATA_TYPES = {"CUDA_R_32F": "rocsparse_datatype_f32_r", "CUDA_R_64F": "rocsparse_datatype_f64_r",
                         "CUDA_C_32F": "rocsparse_datatype_f32_c", "CUDA_C_64F": "rocsparse_datatype_f64_c",
                         "cudaDataType": "rocsparse_datatype", "cudaDataType_t": "rocsparse_datatype"}
_FP16_CODE = lazy_re.compile(rb"__global__|__device__|2half|half2|2bfloat16|bfloat162|\b__h[a-z0-9_]*\s*\(")
_BLAS_INCLUDE = lazy_re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*include[ \t]*[<\"]cublas(?:_v2|_api|Lt)?\.h[>\"]", re.M)
_SPARSE_INCLUDE = lazy_re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*include[ \t]*[<\"]cusparse(?:_v2)?\.h[>\"]", re.M)
# a cuSPARSE call: cusparse.h may come through a project header
_SPARSE_CALL = lazy_re.compile(rb"\bcusparse[A-Z]\w*\s*\(")
#: the families whose header --roc turns into the roc* library's: a name of theirs with no roc*
#: counterpart has no declaration in the output (hipSPARSE's name would need hipSPARSE's header,
#: and its handles and descriptors are not rocSPARSE's)
ROC_LIBRARIES = {"cublas": ("rocBLAS", "hipBLAS"), "cusparse": ("rocSPARSE", "hipSPARSE"),
                 "curand": ("rocRAND", "hipRAND"), "cusolver": ("rocSOLVER", "hipSOLVER")}

CACHING_ALLOCATOR = {
    "cudaMalloc": "hipportMalloc",
    "cudaFree": "hipportFree",
    "cudaMallocAsync": "hipportMallocAsync",
    "cudaFreeAsync": "hipportFreeAsync",
}


#: HIP types declared only by a typedef (`typedef struct _hipGraphicsResource hipGraphicsResource;`),
#: whose CUDA counterparts are struct tags: `struct cudaGraphicsResource *r` (simpleGL, nbody) loses
#: its `struct`, as does cuRAND's `struct mtgp32_kernel_params` (tests/test_rules_core.py checks
#: the list against HIP's and hipRAND's headers)
TYPEDEF_ONLY = frozenset({"hipGraphicsResource", "mtgp32_kernel_params_t"})


#: HIP attributes that stand for several CUDA ones, one per dimension (CUDA's
#: ..._LAYERED_WIDTH / _HEIGHT both become hipDeviceAttributeMaxTexture2DLayered)
MERGED_DIMENSIONS = frozenset({
    "hipDeviceAttributeMaxSurface2D", "hipDeviceAttributeMaxSurface2DLayered", "hipDeviceAttributeMaxSurface3D",
    "hipDeviceAttributeMaxTexture2DGather", "hipDeviceAttributeMaxTexture2DLayered",
    "hipDeviceAttributeMaxTexture2DLinear", "hipDeviceAttributeMaxTexture2DMipmap", "hipDeviceAttributeMaxTexture3DAlt"})
_DIMENSION = re.compile(r"WIDTH|HEIGHT|DEPTH|PITCH|Width|Height|Depth|Pitch")

#: `struct cudaGraphicsResource;` (a header that keeps CUDA out of its includers): the typedef HIP
#: declares, which may be repeated, keeps the header free of HIP includes as the original was of CUDA's
FORWARD_DECLARATIONS = {"hipGraphicsResource": b"typedef struct _hipGraphicsResource hipGraphicsResource;"}


def _forward_declaration(ctx: Context, start: int, end: int, target: str) -> bool:
    data = ctx.data
    before = prev_nonspace(data, start)
    if before < 0 or _word_before(data, before + 1) != b"struct":
        return False
    keyword = before + 1 - len(b"struct")
    semicolon = skip_ws(data, end)
    line_start = data.rfind(b"\n", 0, keyword) + 1
    opener = prev_nonspace(data, keyword)
    if data[semicolon:semicolon + 1] != b";" or (data[line_start:keyword].strip() and data[opener:opener + 1] not in b";{}"):
        return False  # `struct cudaGraphicsResource* r;`, `friend struct …;`
    ctx.edit(keyword, semicolon + 1, FORWARD_DECLARATIONS[target], "rename")
    return True


def _drop_elaboration(ctx: Context, start: int) -> None:
    data = ctx.data
    before = prev_nonspace(data, start)
    if before >= 0 and _word_before(data, before + 1) == b"struct":
        ctx.edit(before + 1 - len(b"struct"), start, b"", "rename")


def _word_before(data: bytes, end: int) -> bytes:
    start = end
    while start > 0 and (data[start - 1:start].isalnum() or data[start - 1:start] in (b"_", b"$")):
        start -= 1
    return data[start:end]


def is_member_or_qualified(data: bytes, start: int) -> bool:
    """``s.name``, ``p->name`` and ``ns::name`` name something other than the global CUDA API."""
    before = prev_nonspace(data, start)
    if before < 0:
        return False
    c = data[before:before + 1]
    if c == b".":
        return True
    if c == b">" and before >= 1 and data[before - 1:before] == b"-":
        return True
    if c == b":" and before >= 1 and data[before - 1:before] == b":":
        q = prev_nonspace(data, before - 1)
        # '::name' is the global namespace; 'std::'/'user::' qualifies a different entity
        if q >= 0 and data[q:q + 1] == b">":
            return True
        return q >= 0 and (data[q:q + 1].isalnum() or data[q:q + 1] in (b"_",)) and \
            _word_before(data, q + 1) not in _GLOBAL_SCOPE_AFTER
    return False


_DEFINE_NAME = lazy_re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)
_REPLACEMENT = lazy_re.compile(rb"[ \t]+([A-Za-z_][\w:]*)[ \t]*(?://[^\n]*)?\r?(?:\n|\Z)")


def _defines_as_its_hip_name(data: bytes, end: int, rule) -> bool:
    """`#define cudaX hipX` (the macro's name ending at *end*): it maps the CUDA name onto exactly
    its HIP translation."""
    body = _REPLACEMENT.match(data, end)
    return body is not None and body.group(1) in {t.encode() for t in (rule.hip, rule.roc) if t}


_AFTER_DECLARATOR = frozenset({b"const", b"volatile", b"noexcept", b"mutable", b"override", b"final"})


def _trailing_return_type(data: bytes, start: int) -> bool:
    """`auto f() const -> cudaStream_t`, `[]() -> CUresult`: the `->` after a parameter list (or its
    qualifiers) introduces the return type; it is no member access."""
    arrow = prev_nonspace(data, start) - 1
    if arrow < 0 or data[arrow:arrow + 2] != b"->":
        return False
    before = prev_nonspace(data, arrow)
    if before < 0:
        return False
    c = data[before:before + 1]
    return c in (b")", b"&") or (c.isalnum() and _word_before(data, before + 1) in _AFTER_DECLARATOR)


_USING_DECLARATION = lazy_re.compile(rb"\busing\s+(?:::\s*)?([A-Za-z_]\w*)\s*;")


@lru_cache(maxsize=2)
def _used_into_namespaces(data: bytes) -> frozenset[bytes]:
    """`namespace w { using ::cudaMalloc; }`: the name (renamed there) is reached as `w::cudaMalloc`."""
    return frozenset(_USING_DECLARATION.findall(data)) if b"using" in data else frozenset()


def _qualified_by_cuda_enum(data: bytes, start: int, by_name) -> bool:
    """`cudaMemcpyKind::cudaMemcpyHostToDevice`, `case cudaError::cudaSuccess:`: C++11 lets an
    enumerator be named through its enum, CUDA's as well, and the HIP enum (renamed too) declares
    the HIP enumerator.  Also after a second translation (`hipMemcpyKind::…`)."""
    word = qualifier(data, start)
    if not word:
        return False
    rule = by_name.get(word.decode("ascii", "replace"))
    return rule is not None and rule.kind == "type" or word.startswith((b"hip", b"HIP"))


_CLASS_KEYS = frozenset((b"struct", b"class", b"union", b"enum"))
_TYPE_WORDS = frozenset(b"long short int char unsigned signed float double bool void".split())
_TYPEDEF_START = lazy_re.compile(rb"\s*typedef\b")


_SCOPE_HEAD = lazy_re.compile(rb"(?:\bnamespace\s+[\w:]+|\b(?:struct|class)\s+\w+[^;{}()]*)\s*\Z")


def _in_namespace_or_class(data: bytes, pos: int) -> bool:
    """Is *pos* directly inside the braces of a named namespace or a class?"""
    brace = _opening_brace(data, pos)
    return brace is not None and _SCOPE_HEAD.search(data, max(0, brace - 200), brace) is not None


def _opening_brace(data: bytes, end: int, statement_ends: bool = False) -> int | None:
    """The `{` of the block holding data[end - 1] (a lexical walk back over at most 8 KB);
    with *statement_ends*, None at a `;` first (a statement, not a list)."""
    depth, i, floor = 0, end, max(0, end - 8192)
    while i > floor:
        i -= 1
        ch = data[i]
        if ch == 0x7D:  # '}'
            depth += 1
        elif ch == 0x7B:  # '{'
            if depth == 0:
                return i
            depth -= 1
        elif ch == 0x3B and depth == 0 and statement_ends:  # ';'
            return None
    return None


def _typedef_statement(data: bytes, pos: int) -> bool:
    """Does the statement holding *pos* start with `typedef` (directive lines before it skipped)?"""
    at = max(data.rfind(b";", 0, pos), data.rfind(b"{", 0, pos), data.rfind(b"}", 0, pos)) + 1
    while (m := _TYPEDEF_START.match(data, at)) is None:
        at = skip_ws(data, at)
        if data[at:at + 1] != b"#" or at >= pos:
            return False
        at = data.find(b"\n", at)  # a directive line
        if at < 0 or at >= pos:
            return False
    return m.end() <= pos


def qualifier(data: bytes, start: int) -> bytes | None:
    """``ns`` of ``ns::name`` (None when the name is not qualified by a word)."""
    before = prev_nonspace(data, start)
    if before < 1 or data[before - 1:before + 1] != b"::":
        return None
    q = prev_nonspace(data, before - 1)
    return _word_before(data, q + 1) or None if q >= 0 else None


_NAMESPACE_DEFINITION = lazy_re.compile(rb"\bnamespace\s+(\w+)\s*\{")
#: `namespace cg = cooperative_groups;`: the cooperative-groups names are used through an alias
_CG_ALIAS = lazy_re.compile(rb"namespace\s+(\w+)\s*=\s*(?:::\s*)?cooperative_groups\s*;")


def looks_declared(data: bytes, start: int, end: int) -> bool:
    """``T cudaMalloc(...)``, ``int cudaMalloc;`` or ``(*cudaMalloc)(...)``: the user declares
    an entity of that name (a wrapper, a member, a function pointer)."""
    before = prev_nonspace(data, start)
    if before < 0:
        return False
    c = data[before:before + 1]
    after = skip_ws(data, end)
    nxt = data[after:after + 1]
    if c.isalnum() or c == b"_":
        word = _word_before(data, before + 1)
        if word in _CLASS_KEYS and nxt in (b"{", b":"):
            return True  # `struct name {` defines the user's own type (`struct name x;` only uses one)
        if (word == b"using" and nxt == b"=" or nxt == b";" and word in _TYPE_WORDS and _typedef_statement(data, before)) \
                and _in_namespace_or_class(data, before):
            return True  # `namespace my { using cudaStream_t = int; typedef long cudaEvent_t; }`: the user's
            # own aliases (at file scope such a typedef restates CUDA's: restated_declarations)
        if word in (b"unsigned", b"signed", b"long", b"short") and nxt == b"(":
            return True  # `static inline long __ldcg(const long* p)`: a function returning that type
        if word in _EXPR_KEYWORDS or word[:1].isdigit():
            return False
        line_start = data.rfind(b"\n", 0, before) + 1
        if data[line_start:before].lstrip().startswith(b"#"):
            return False  # '#ifdef X' above, '#define X cudaY': not a declaration
        if word in statement_macros(data) or (b"\n" in data[before:start] and _MACRO_CASE.fullmatch(word)):
            return False  # `CUDA_ERRCK` (a `{ … }` macro used without ';') ends the line: a call follows
        first = skip_ws(data, after + 1)
        if nxt == b"(" and (word == b"typedef" or data[first:first + 1] in (b"*", b"&", b"^")):
            return False  # `typedef CUresult (*pfn)(…)`, `cudaError_t (&f)(…)`: the name is the return type
        if data.startswith(b"::", after):
            return False  # `int cudaDeviceProp::*f`: a pointer to a member of CUDA's class
        return nxt in (b";", b"=", b"[", b",", b"(", b")", b"{", b":")
    if c == b"*" and nxt == b")":
        q = prev_nonspace(data, before)
        return data[q:q + 1] == b"("
    if c in (b"{", b",") and nxt in (b"=", b",", b"}"):
        return _in_enum_body(data, before)  # `enum Error_t { success, cudaError = 1 }` (hemi)
    return False


_ENUM_HEAD = lazy_re.compile(rb"\benum\b(?:\s+(?:class|struct))?(?:\s+[\w:]+)?(?:\s*:\s*[\w:\s]+?)?\s*\Z")


def _in_enum_body(data: bytes, pos: int) -> bool:
    """Is *pos* (a `{` or a `,`) directly inside the braces of an enum definition?"""
    brace = _opening_brace(data, pos + 1, statement_ends=True)
    return brace is not None and _ENUM_HEAD.search(data, max(0, brace - 200), brace) is not None


def _header_texts(ctx: Context) -> list[bytes]:
    from hipport.cxx.project_headers import included_texts

    return included_texts(ctx)


def _header_texts_mention(ctx: Context, names: set[bytes]) -> bool:
    """Does a project header mention one of *names* outside its own HIP spelling?  (The cheap
    test: most headers that call the API only call it.)"""
    from hipport.cxx.project_headers import included_texts

    return any(name in text for text in included_texts(ctx) for name in names)


def _headers_define_their_own(ctx: Context, name: bytes, by_name) -> bool:
    """Does a project header declare its own function of this name, not merely the API's
    prototype (`extern "C" cudaError_t cudaMalloc(void**, size_t);`, renamed there too)?"""
    for text in _header_texts(ctx):
        sites = _declaration_sites(text, name)
        if sites and not _only_redeclared(text, sites, name, by_name):
            return True
    return False


def _headers_declare(ctx: Context, names: set[bytes]) -> bool:
    """Does a project header this file includes declare one of *names*?  The cheap test before
    libclang is asked."""
    return any(_declaration_sites(text, name) for text in _header_texts(ctx) for name in names)


def _declaration_sites(text: bytes, name: bytes) -> list[int]:
    """Where *text* declares the identifier *name* (a literal search, then the look around it)."""
    sites = []
    at = text.find(name)
    while at >= 0:
        after = text[at + len(name):at + len(name) + 1]
        if not glued_before(text, at) and not (after.isalnum() or after == b"_") and looks_declared(text, at, at + len(name)):
            sites.append(at)
        at = text.find(name, at + 1)
    return sites


_MACRO_CASE = lazy_re.compile(rb"[A-Z][A-Z0-9_]*")
_OBJECT_MACRO = lazy_re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)(?![\w(])[ \t]*([^\r\n]*)", re.M)
_NOT_A_TYPE_BODY = lazy_re.compile(rb"(?:\{|\\|\(|\[|(?:return|throw|co_return|goto|else|do)\b|[^=;]*[=;])")


@lru_cache(maxsize=2)
def statement_macros(data: bytes) -> frozenset[bytes]:
    """Object-like macros this file defines as nothing, as a `{ … }` block, or as the start of a
    statement (`(void)`, `return`, `[[maybe_unused]] auto r_ =`): the name after one is a call,
    not declared by it."""
    if b"define" not in data:
        return frozenset()
    return frozenset(m.group(1) for m in _OBJECT_MACRO.finditer(data)
                     if not m.group(2) or _NOT_A_TYPE_BODY.match(m.group(2)))


def _defines_type(data: bytes, start: int, end: int) -> bool:
    """`struct NAME {` / `class NAME : base {`: the file defines a type of that name."""
    before = prev_nonspace(data, start)
    return before >= 0 and _word_before(data, before + 1) in _CLASS_KEYS and data[skip_ws(data, end):skip_ws(data, end) + 1] in (b"{", b":")


_CONDITIONAL = lazy_re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b", re.M)
_HIP_TEST = lazy_re.compile(rb"HIP|ROCM|ROCm|__HIPCC__")
_CUDA_INCLUDE = lazy_re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"](?:cuda|cu[A-Z]|curand|cublas|cufft|cusparse)", re.M)


def _not_stand_ins(data: bytes, sites: dict[bytes, list[int]], declared: set[bytes]) -> set[bytes]:
    """Drop the names declared only as a CPU build's stand-ins: `#ifdef CPU_ONLY / struct
    cudaDeviceProp {…}; / #else / #include <cuda_runtime.h> / #endif`.  The uses mean CUDA's in
    the GPU build, and renaming the stand-in too keeps the CPU build consistent."""
    stand_in = cpu_stand_in_test(data)
    if stand_in is None:
        return declared
    return {n for n in declared if not sites.get(n) or not all(stand_in(at) for at in sites[n])}


def cpu_stand_in_test(data: bytes):
    """A test of whether an offset lies in a CPU build's branch: one of an `#if` group another
    branch of which includes a CUDA header (and none of which tests HIP); None without such."""
    if _CUDA_INCLUDE.search(data) is None:
        return None
    branches: list[tuple[int, int, int]] = []  # (start, end, group id) of each branch
    stack: list[list] = []  # open groups: [group id, branch start]
    cuda_groups: set[int] = set()
    hip_groups: set[int] = set()
    includes = [m.start() for m in _CUDA_INCLUDE.finditer(data)]
    group_id = 0
    for m in _CONDITIONAL.finditer(data):
        kind = m.group(1)
        if kind in (b"if", b"ifdef", b"ifndef"):
            group_id += 1
            stack.append([group_id, m.end()])
            line_end = data.find(b"\n", m.end())
            if _HIP_TEST.search(data, m.end(), len(data) if line_end < 0 else line_end):
                hip_groups.add(group_id)  # `#if defined(__HIPCC__)`: the project's own HIP shims
        elif stack:
            gid, begin = stack[-1]
            branches.append((begin, m.start(), gid))
            if any(begin <= i < m.start() for i in includes):
                cuda_groups.add(gid)
            if kind == b"endif":
                stack.pop()
            else:
                stack[-1][1] = m.end()

    def stand_in(at: int) -> bool:
        # in a branch of a group another branch of which includes a CUDA header
        inside = [(b, e, gid) for b, e, gid in branches if b <= at < e]
        return not any(gid in hip_groups for _b, _e, gid in inside) and \
            any(gid in cuda_groups and not any(b <= i < e for i in includes) for b, e, gid in inside)

    return stand_in


_API_RESULTS = frozenset((b"cudaError_t", b"cudaError", b"CUresult", b"nvrtcResult", b"cublasStatus_t",
                          b"cusparseStatus_t", b"cusolverStatus_t", b"curandStatus_t", b"cufftResult"))
_RETURN_BEFORE = lazy_re.compile(rb"(\w+)(?:\s+(?:CUDARTAPI|CUDAAPI|__stdcall|CURANDAPI|CUBLASAPI|CUFFTAPI|CUSPARSEAPI))?\s*\Z")


def _only_redeclared(data: bytes, sites: list[int], name: bytes, by_name) -> bool:
    """`extern "C" cudaError_t cudaMalloc(void** p, size_t n);`: a prototype of the API itself
    (interposers, code that avoids CUDA's headers), not a function of the project's own; it is
    renamed with its calls (HIP declares the same function with C linkage)."""
    rule = by_name.get(name.decode("ascii", "replace"))
    if rule is None or rule.kind != "function":
        return False
    for at in sites:
        ret = _RETURN_BEFORE.search(data, max(0, at - 64), at)
        close = data.find(b")", at)
        if ret is None or ret.group(1) not in _API_RESULTS or close < 0 or \
                data[skip_ws(data, close + 1):skip_ws(data, close + 1) + 1] != b";":
            return False  # a definition, or a function of the project's own type
    return bool(sites)


_PASTE_AFTER = lazy_re.compile(rb"[ \t]*##")
_PASTE_BEFORE = lazy_re.compile(rb"##[ \t]*\Z")


@lru_cache(maxsize=4)
def _sorted_names(rules) -> list[str]:
    return sorted(rules.by_name)


def _starts_a_name(rules, fragment: str) -> bool:
    """Is *fragment* the start of some CUDA name the rules know (what a paste may complete)?"""
    from bisect import bisect_left

    names = _sorted_names(rules)
    i = bisect_left(names, fragment)
    return i < len(names) and names[i].startswith(fragment)


def _hip_prefixed(name: str) -> str:
    """`cudaError` → `hipError`, `CUDA_R` → `HIP_R`: what a pasted CUDA name fragment becomes."""
    return ("hip" if name[0] == "c" else "HIP") + name[4:]


def _paste_operand(data: bytes, start: int, end: int) -> bool:
    """Is the name an operand of `##`?  Then it is the start of a longer name (`cudaError##x` builds
    `cudaErrorInvalidValue`), which takes the HIP prefix, not the type's own HIP name."""
    return _PASTE_AFTER.match(data, end) is not None or _PASTE_BEFORE.search(data, max(0, start - 8), start) is not None


def _pasted_arguments(data: bytes, idents: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """CUDA names given to a macro that only pastes them (`LOAD(cuInit)` building `p_cuInit`): as
    for hipify-clang, which sees only the expansion, the argument keeps its spelling."""
    from hipport.cxx.macro_arguments import pasted_only_arguments

    spans = dict(idents)
    out = set()
    for _macro, start, end in pasted_only_arguments(data, lambda at: in_directive(data, at)):
        word = data[start:end].strip()
        at = start + data[start:end].index(word) if word else -1
        if spans.get(at) == at + len(word):  # (the argument is one candidate name)
            out.add((at, at + len(word)))
    return out


def user_entity_offsets(ctx: Context, idents: list[tuple[int, int]]) -> set[int]:
    """Occurrences of CUDA names that refer to the user's own declarations.

    Lexically we only see that a name is declared here; which later uses refer to that
    declaration (and not to the CUDA API) is a question for libclang, asked only in such files.
    """
    data = ctx.data
    by_name = ctx.rules.by_name
    declared: set[bytes] = set()
    sites: dict[bytes, list[int]] = {}  # where each CUDA name looks declared
    removed_calls: list[int] = []
    removed_names: set[bytes] = set()
    for start, end in idents:
        rule = by_name.get(data[start:end].decode("ascii", "replace"))
        if rule is not None and rule.kind in ("function", "device_function", "type", "enumerator") \
                and looks_declared(data, start, end):
            if not is_member_or_qualified(data, start):
                declared.add(data[start:end])
            sites.setdefault(data[start:end], []).append(start)
        elif rule is not None and rule.status == "removed" and rule.kind == "function":
            removed_calls.append(start)
            removed_names.add(data[start:end])
    # a name CUDA no longer has is free for a project's own function (the devblog's variadic
    # `cudaLaunch(n, kernel, args...)`), declared perhaps in a header of its own: libclang says
    if removed_calls and not _headers_declare(ctx, removed_names):
        removed_calls = []  # (most old code just calls them: no project header declares one)
    # a project header's own function named like the API (`inline cudaError_t cudaFree(MyBuf& b)`,
    # a `lib::cudaMalloc(int)`): which calls mean it, libclang says
    if b'"' in data and _header_texts(ctx):
        called = {data[s:e] for s, e in idents if (r := by_name.get(data[s:e].decode("ascii", "replace"))) is not None
                  and r.kind == "function" and r.status != "removed"}
        own = {n for n in called if _headers_define_their_own(ctx, n, by_name)} \
            if called and _header_texts_mention(ctx, called) else set()
        if own:
            removed_calls += [s for s, e in idents if data[s:e] in own and not looks_declared(data, s, e)]
            removed_names |= own
    if declared and b"#" in data:
        declared = _not_stand_ins(data, sites, declared)
    if declared and b";" in data:
        declared = {n for n in declared if not _only_redeclared(data, sites.get(n, []), n, by_name)}
    if not declared and not removed_calls:
        return set()
    # `struct cuComplex { ... };` (CUDA by Example's julia): a type the file defines is its own in
    # every use (CUDA's would be a redefinition); libclang, whose prelude declares CUDA's, need not say
    own_types = {data[s:e] for s, e in idents if data[s:e] in declared and _defines_type(data, s, e)}
    if own_types:
        declared -= own_types
        if not declared and not removed_calls:
            return {s for s, e in idents if data[s:e] in own_types}
    candidates = [s for s, e in idents if data[s:e] in declared]
    declaration_sites = {s for s, e in idents if data[s:e] in declared and looks_declared(data, s, e)}
    try:
        from hipport.cxx.semantics import user_references

        removed_own = frozenset(n for n in declared if (r := by_name.get(n.decode("ascii", "replace"))) is not None
                                and r.status == "removed")
        return user_references(data, ctx.path, candidates, ctx.options, ctx.rules,
                               header_offsets=removed_calls, prefer_user=removed_own) | declaration_sites | \
            {s for s, e in idents if data[s:e] in own_types}
    except Exception as exc:  # no usable libclang: keep the lexical answer
        ctx.sink.add("HP000", f"libclang unavailable ({exc.__class__.__name__}); "
                     "declarations of CUDA names resolved lexically", 0, severity="note")
        return declaration_sites | {s for s, e in idents if data[s:e] in own_types}


_HIPBLAS_V2 = lazy_re.compile(r"^(hipblas\w+)_v2(_64)?$")


def _no_roc_counterpart(rule, name: str, roc_sparse: bool, opts) -> bool:
    """--roc: the name's roc* library lacks it (a CUDA data type in a rocSPARSE file: rocSPARSE
    has only its four value types, and rocBLAS's enum would be another library's)."""
    if rule.kind == "header":
        return False
    if roc_sparse and rule.hip_type and not opts.use_hip_data_types:
        return name not in ROC_SPARSE_DATA_TYPES
    return not rule.roc and rule.family in ROC_LIBRARIES and bool(rule.hip)


_ROC_PART = lazy_re.compile(r"\b(?:roc|ROC)\w*")  # (`rocrand_device::mtgp32_engine`: its namespace)


def _missing_from_installed_roc(ctx: Context, name: str, rule, target: str, start: int, end: int) -> None:
    """HP008 where the installed roc* library (the output is for this ROCm) lacks the roc* name."""
    from hipport.installed_hip import installed_roc_names

    installed = installed_roc_names(rule.family)
    if installed is None or all(part in installed[1] for part in _ROC_PART.findall(target)):
        return
    ctx.sink.add("HP008", f"'{name}' becomes '{target}', which the installed {installed[0]} headers do not "
                 "declare (a newer ROCm has it)", start, end=end,
                 hint="build with a newer ROCm, or translate without --roc (the hip* library may have it); "
                 "--hip-version names another target release")


@lru_cache(maxsize=1)
def _shim_header_names() -> frozenset[str]:
    """Names the runtime shim's stand-ins for HIP headers declare (`hip/hip_bf16.h` for a HIP
    before 5.7, `hip/hip_fp8.h`): with them on the include path an older HIP builds those names."""
    from pathlib import Path

    include = Path(__file__).resolve().parents[2] / "runtime" / "include"
    names: set[str] = set()
    for header in (include / "hip").glob("*.h"):
        text = header.read_text(errors="replace")
        for own in re.findall(r"#\s*include\s*<(hipport/\w+\.h)>", text):  # (the stand-in's own definitions)
            text += (include / own).read_text(errors="replace")
        names.update(re.findall(r"\b__hip_\w+|\bhip\w+", text))
    return frozenset(names)


def _newer_than_target_hip(ctx: Context, name: str, rule, start: int, end: int, have) -> None:
    """HP008 where the HIP the output is for (the installed one, or --hip-version) predates the name."""
    from hipport.installed_hip import describe

    if rule.hip_added and rule.hip not in _shim_header_names():
        ctx.sink.add("HP008", f"'{name}' becomes '{rule.hip}', which {describe(rule.hip_added)} added; the output is for "
                     f"HIP {have[0]}.{have[1]}", start, end=end,
                     hint="build with a newer ROCm, or keep this code for CUDA only (#ifndef __HIP_PLATFORM_AMD__); "
                     "--hip-version names another target release")


def run(ctx: Context, idents: list[tuple[int, int]]) -> None:
    data = ctx.data
    opts = ctx.options
    by_name = ctx.rules.by_name
    sink = ctx.sink
    stats = ctx.stats
    ctx.user_entities = user_entity_offsets(ctx, idents)
    pastes = b"##" in data
    if pastes:
        pasted = _pasted_arguments(data, idents)
        ctx.user_entities |= {s for s, _ in pasted}
        ctx.pasted_arguments = {data[s:e] for s, e in pasted}
    # a file using cuBLAS's legacy (handle-less) API: cublas.h without cublas_v2.h
    # (after translation cublas.h reads hipblas.h, and the legacy calls left alone must stay so)
    legacy_blas = (b"cublas.h" in data or b"hipblas.h" in data) and b"cublas_v2.h" not in data
    blas_file = b"cublas" in data and _BLAS_INCLUDE.search(data) is not None
    dnn_file = opts.miopen and b"cudnn" in data
    roc_sparse = opts.roc and not blas_file and (b"cusparse" in data and (
        _SPARSE_INCLUDE.search(data) is not None or _SPARSE_CALL.search(data) is not None)
        or b"rocsparse_" in data)  # (a second pass: the file is rocSPARSE's already)
    # a host-only cuBLAS file: its fp16/bf16 names are buffers handed to the BLAS library (device
    # code and fp16 arithmetic need HIP's own __half / __hip_bfloat16, with their conversions)
    blas_host = (blas_file and (b"__half" in data or b"__nv_bfloat16" in data)
                 and _FP16_CODE.search(data) is None)
    roc_blas_host = opts.roc and blas_host
    cg_scopes = ({b"cooperative_groups", *(m.group(1) for m in _CG_ALIAS.finditer(data))}
                 if b"cooperative_groups" in data else set())
    user_namespaces = None  # namespaces the file defines itself, found on first need
    skip = ctx.user_entities
    from hipport.installed_hip import parse_version, target_hip_version

    target_hip = target_hip_version(opts.hip_version)
    # roc* names are checked against the installed libraries only when the output is for this ROCm
    check_installed_roc = opts.roc and target_hip is not None and not (
        opts.hip_version or os.environ.get("HIPPORT_HIP_VERSION"))
    # hipBLAS 3 (ROCm 7) gave the complex and Ex routines their _v2 signatures under the plain names
    # and dropped the _v2 ones: output for it (or for `--hip-version latest`) calls the plain names
    requested = (opts.hip_version or os.environ.get("HIPPORT_HIP_VERSION", "")).strip().lower()
    hipblas_plain = requested == "latest" or (target_hip is not None and target_hip >= (7, 0))
    newer_releases: dict[str, bool] = {}  # hip_added -> newer than the target HIP
    rewritten_until = -1  # end of a span a call rewrite replaced (its names are gone)
    # where a `#define` names its macro (one sweep, not a look at every identifier)
    defined_names = {m.start(1) for m in _DEFINE_NAME.finditer(data)} if b"define" in data else frozenset()
    for start, end in idents:
        if start in skip or start < rewritten_until:
            continue
        name = data[start:end].decode("ascii", "replace")
        if opts.caching_allocator and name in CACHING_ALLOCATOR:
            if not is_member_or_qualified(data, start):
                ctx.edit(start, end, CACHING_ALLOCATOR[name].encode(), "caching-allocator")
                stats.converted["runtime/function"] += 1
                stats.names[name] += 1
                ctx.needs_hip_runtime = True
                if b"hipport/runtime.h" not in ctx.extra_includes:
                    ctx.extra_includes.append(b"hipport/runtime.h")
            continue
        if name in SYNC_TO_PLAIN and not is_member_or_qualified(data, start):
            second_arg = full_mask_call(data, end)
            if second_arg is not None:
                ctx.edit(start, second_arg, SYNC_TO_PLAIN[name].encode() + b"(", "full-mask-intrinsic")
                rewritten_until = second_arg
                ctx.needs_hip_runtime = True
                ctx.resolved_hazards.add(start)
                if name.startswith("__shfl") and b"half" in data and b"hipport/compat.h" not in ctx.extra_includes:
                    ctx.extra_includes.append(b"hipport/compat.h")  # HIP 5.2 has no __shfl of __half
                stats.converted["device/device_function"] += 1
                stats.names[name] += 1
                continue
        rule = by_name.get(name)
        if rule is not None and start in defined_names and _defines_as_its_hip_name(data, end, rule):
            continue  # `#define cudaHostAllocMapped hipHostMallocMapped` (a HIP port's own header): renamed, it would
            # define HIP's name as itself; left, it is harmless (every use is renamed anyway)
        if rule is None:
            if roc_blas_host and name in ROC_BLAS_HOST_TYPES and not is_member_or_qualified(data, start):
                ctx.edit(start, end, ROC_BLAS_HOST_TYPES[name].encode(), "rename")
                stats.converted["cublas/type"] += 1
                stats.names[name] += 1
            elif pastes and name.startswith(("cuda", "CUDA")) and _paste_operand(data, start, end) \
                    and _starts_a_name(ctx.rules, name):
                # `cudaSharedMem##x` building cudaSharedMemBankSizeFourByte: the HIP prefix
                ctx.edit(start, end, _hip_prefixed(name).encode(), "rename")
            continue
        if rule.kind == "namespace":
            after = skip_ws(data, end)
            if not data.startswith(b"::", after) or is_member_or_qualified(data, start):
                continue
            if user_namespaces is None:
                user_namespaces = set(_NAMESPACE_DEFINITION.findall(data))
            if name.encode() in user_namespaces:
                continue  # the file's own `namespace cuda { ... }`, not libcu++'s
        elif rule.kind != "macro" and is_member_or_qualified(data, start) and not (
                rule.kind == "type" and _trailing_return_type(data, start)) and not (
                rule.family == "cooperative_groups" and qualifier(data, start) in cg_scopes) and not (
                rule.kind == "enumerator" and _qualified_by_cuda_enum(data, start, by_name)) and not (
                name.encode() in _used_into_namespaces(data) and qualifier(data, start) not in (None, b"std")):
            continue  # (a macro expands wherever it is: `void Op::CUDART_CB fn(...)`)
        # a runtime name's MIOpen spelling only where MIOpen's header is (a file that uses cuDNN)
        target = rule.target(roc=opts.roc, miopen=opts.miopen and (rule.family == "cudnn" or dnn_file))
        if opts.use_hip_data_types and rule.hip_type:
            target = rule.hip_type
        if blas_host and name in IN_BLAS_FILES and not opts.roc:
            target = IN_BLAS_FILES[name]
        if roc_blas_host and name in ROC_BLAS_HOST_TYPES:
            target = ROC_BLAS_HOST_TYPES[name]
        if roc_sparse and name in ROC_SPARSE_DATA_TYPES:
            target = ROC_SPARSE_DATA_TYPES[name]
        if rule.kind == "function":
            target = overload_target(data, end, name) or target
            if hipblas_plain and rule.family == "cublas" and target.startswith("hipblas") and "_v2" in target:
                target = _HIPBLAS_V2.sub(r"\1\2", target)  # hipblasCaxpy_v2_64 -> hipblasCaxpy_64
            if legacy_blas and rule.family == "cublas" and f"{name}_v2" in by_name:
                sink.add("HP001", f"'{name}' is the legacy cuBLAS v1 API (no handle); hipBLAS has no equivalent; "
                         "left unchanged", start, end=end,
                         hint="port the call to the cuBLAS v2 API (cublas_v2.h, with a handle), then translate")
                stats.unsupported[name] += 1
                continue
        if pastes and name.startswith(("cuda", "CUDA")) and _paste_operand(data, start, end):
            target = _hip_prefixed(name)  # `cudaError##x`: a prefix, not the type
        status = rule.status
        # status describes the default (hip) target; a name only MIOpen or roc* provides is
        # supported when that target was asked for
        if opts.roc and not opts.amap and status != "unsupported" and _no_roc_counterpart(rule, name, roc_sparse, opts):
            roc_lib, hip_lib = ("rocSPARSE", "hipSPARSE") if roc_sparse and rule.hip_type else ROC_LIBRARIES[rule.family]
            sink.add("HP001", f"'{name}' has no {roc_lib} counterpart; left unchanged (--roc)", start, end=end,
                     hint=rule.note or f"translate without --roc to use {hip_lib}'s '{rule.hip}', or port this by hand")
            stats.unsupported[name] += 1
            continue
        if (opts.miopen and rule.miopen) or (opts.roc and rule.roc):
            status = "supported"
        translate = bool(target)
        if status == "unsupported":
            translate = translate and opts.amap
            if not translate:
                hint = rule.note or "no HIP equivalent; rewrite this call or keep a CUDA-only path"
                sink.add("HP001", f"'{name}' is not supported by HIP; left unchanged", start, end=end, hint=hint)
                stats.unsupported[name] += 1
                continue
        elif status == "experimental" and not (opts.experimental or opts.amap):
            sink.add("HP002", f"'{name}' → '{target}' is experimental in HIP; left unchanged",
                     start, end=end, hint="pass --experimental to translate it")
            stats.unsupported[name] += 1
            continue
        if not translate:
            sink.add("HP001", f"'{name}' has no HIP equivalent; left unchanged", start, end=end,
                     hint=rule.note or "no HIP equivalent")
            stats.unsupported[name] += 1
            continue
        if status == "removed" and rule.cuda_removed:
            sink.add("HP004", f"'{name}' was removed in CUDA {rule.cuda_removed}; translated to '{target}'",
                     start, end=end, severity="note", hint=rule.note)
        if target in MERGED_DIMENSIONS and _DIMENSION.search(name):
            sink.add("HP031", f"'{name}' → '{target}': HIP has one attribute for all of its dimensions, "
                     "so the width, height and depth queries ask the same question", start, end=end,
                     hint="read the dimension from hipDeviceProp_t (hipGetDeviceProperties), e.g. "
                          "prop.maxTexture2DLayered[1] for the height")
        if rule.include and target == rule.hip:
            if rule.include.encode() not in ctx.extra_includes:
                ctx.extra_includes.append(rule.include.encode())
        elif opts.roc and target == rule.roc and target != rule.hip and check_installed_roc:
            _missing_from_installed_roc(ctx, name, rule, target, start, end)
        elif rule.hip_added and target_hip is not None and target == rule.hip and target != name:
            newer = newer_releases.get(rule.hip_added)  # (a shim include serves an older HIP)
            if newer is None:
                newer = newer_releases[rule.hip_added] = (parse_version(rule.hip_added) or (0, 0)) > target_hip
            if newer:
                _newer_than_target_hip(ctx, name, rule, start, end, target_hip)
        if target != name:
            if target in FORWARD_DECLARATIONS and _forward_declaration(ctx, start, end, target):
                pass
            else:
                ctx.edit(start, end, target.encode(), "rename")
                if target in TYPEDEF_ONLY:
                    _drop_elaboration(ctx, start)
        stats.converted[f"{rule.family}/{rule.kind}"] += 1
        stats.names[name] += 1
        if rule.hip_library:
            stats.libraries.add(rule.hip_library)
        if rule.kind != "header" and not (rule.kind == "macro" and in_directive(data, start)):
            ctx.needs_hip_runtime = True  # (`#if !defined(__CUDACC__)` alone needs no HIP header)
