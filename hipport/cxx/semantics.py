"""libclang, asked only where the lexical pass cannot tell what a name refers to.

Most files never get here.  When a file declares something with a CUDA API's name (a wrapper
``cudaError_t cudaMalloc(void**, size_t)`` in the user's namespace, a struct member), the rename
pass asks :func:`user_references` which occurrences refer to the user's own entity.  The file is
parsed once, as CUDA, without an NVIDIA SDK: a generated prelude declares CUDA's keywords and the
API names from the rules, ``-nocudainc`` keeps clang from looking for the SDK, and the
keep-going option lets a file with missing headers still produce an AST for the places we ask
about.  With ``--cuda-path`` (or a CUDA found on the machine) the real headers are used instead.
"""

from __future__ import annotations

import os
from functools import lru_cache

from hipport.options import Options
from hipport.rules import RuleSet
from hipport import lazy_re

PRELUDE_NAME = "__hipport_cuda_prelude.h"
_KEEP_GOING = 0x200  # CXTranslationUnit_KeepGoing
_INCOMPLETE = 0x02  # CXTranslationUnit_Incomplete

_KEYWORDS = """\
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
typedef unsigned long size_t;
struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
extern const uint3 threadIdx, blockIdx, blockDim, gridDim;
extern const int warpSize;
"""


@lru_cache(maxsize=2)
def prelude(rules: RuleSet) -> str:
    """CUDA keywords plus a permissive declaration of every API name the rules know."""
    lines = [_KEYWORDS]
    types, enums = [], []
    for name, rule in sorted(rules.by_name.items()):
        if not name.isidentifier():
            continue
        if rule.kind in ("function", "device_function"):
            lines.append(f"int {name}(...);")
        elif rule.kind == "type":
            types.append(f"typedef struct __hipport_{name}* {name};")
        elif rule.kind == "enumerator":
            enums.append(name)
    lines.extend(types)
    if enums:
        lines.append("enum __hipport_enumerators { " + ", ".join(enums) + " };")
    return "\n".join(lines) + "\n"


def _find_cuda(options: Options) -> str | None:
    for candidate in (options.cuda_path, os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if candidate and os.path.isfile(os.path.join(candidate, "include", "cuda_runtime.h")):
            return candidate
    return None


def parse_args(options: Options, use_sdk: bool) -> list[str]:
    args = ["-x", "cuda", "--cuda-host-only", "-nocudalib", "-std=c++17", "-ferror-limit=0", "-w"]
    # The PyPI libclang has no resource headers, so clang's CUDA wrapper cannot be used; the
    # prelude stands in for it, and a real CUDA's headers only add declarations.
    args += ["-nocudainc", "-include", PRELUDE_NAME]
    cuda = _find_cuda(options) if use_sdk else None
    if cuda:
        args += [f"-I{os.path.join(cuda, 'include')}"]
    args += [f"-I{d}" for d in options.include_dirs]
    args += [f"-D{d}" for d in options.defines]
    args += [a for a in options.clang_args if a.startswith(("-D", "-U", "-I", "-std="))]
    return args


def user_references(data: bytes, path: str, offsets: list[int], options: Options, rules: RuleSet,
                    header_offsets: list[int] = (), prefer_user: frozenset = frozenset()) -> set[int]:
    """Of the identifier *offsets*, those that refer to an entity declared in this file; of the
    *header_offsets*, those that refer to one declared in this file or a project header (any file
    but the prelude and the system's and toolkit's headers)."""
    from clang import cindex

    index = cindex.Index.create()
    name = os.path.abspath(path)
    unsaved = [(name, data), (os.path.join(os.path.dirname(name), PRELUDE_NAME), prelude(rules).encode())]
    args = parse_args(options, use_sdk=bool(options.cuda_path)) + [f"-I{os.path.dirname(name)}"]
    tu = index.parse(name, args=args, unsaved_files=unsaved, options=_KEEP_GOING | _INCOMPLETE)
    main = tu.get_file(name)
    system = tuple(os.path.abspath(d) + os.sep for d in (*_SYSTEM_DIRS, options.cuda_path) if d)
    found = set()
    unresolved = []
    # the file's own local variables: (name, declared at, end of the function declaring them)
    locals_: list[tuple[str, int, int]] = []
    for offset, in_headers in [*((o, False) for o in offsets), *((o, True) for o in header_offsets)]:
        # libclang offsets are byte offsets, like ours
        cursor = cindex.Cursor.from_location(tu, cindex.SourceLocation.from_offset(tu, main, offset))
        target = cursor.referenced if cursor is not None else None
        if cursor is not None and cursor.kind == cindex.CursorKind.OVERLOADED_DECL_REF:
            # a call in a template, resolved at instantiation: the candidates its name found
            # (hemi's `cudaLaunch(p, f, args...)` inside namespace hemi finds hemi's own)
            if _overloads_declared_in(cursor, name):
                found.add(offset)
            else:
                unresolved.append(offset)
            continue
        if target is None or target.location.file is None or not target.kind.is_declaration():
            unresolved.append(offset)
            continue  # unresolved: the CUDA API, the lexical default
        declared_in = os.path.abspath(target.location.file.name)
        if declared_in == name or (in_headers and os.path.basename(declared_in) != PRELUDE_NAME
                                   and not declared_in.startswith(system)):
            found.add(offset)
            scope = target.semantic_parent
            if declared_in == name and target.kind == cindex.CursorKind.VAR_DECL and scope is not None \
                    and scope.kind.is_declaration() and scope.kind != cindex.CursorKind.TRANSLATION_UNIT:
                locals_.append((target.spelling, target.location.offset, scope.extent.end.offset))
    # A name clang left unresolved (code in a branch the preprocessor skipped, a template whose
    # parameters it could not see) that CUDA removed and the file declares itself is the file's own
    # (hemi's launch.inl: `cudaLaunch(p, f, args...)` under `#ifdef __CUDACC__`).
    for offset in unresolved if prefer_user else ():
        word = _IDENT.match(data, offset)
        if word and word.group() in prefer_user:
            found.add(offset)
    # A statement clang could not parse (a call of a function whose header it did not find) has no
    # AST: a name in it that the enclosing function declares as a variable above is that variable
    # (cuda-samples' `cublasStatus_t cublasStatus;` ... `printf("%d", (int)cublasStatus)`).
    for offset in unresolved if locals_ else ():
        word = _IDENT.match(data, offset)
        spelled = word.group().decode("ascii", "replace") if word else ""
        if any(n == spelled and declared < offset < end for n, declared, end in locals_):
            found.add(offset)
    return found


def _overloads_declared_in(cursor, path: str) -> bool:
    """Are all the declarations an unresolved overload set names in the file *path*?"""
    from clang import cindex

    lib = cindex.conf.lib
    count = lib.clang_getNumOverloadedDecls(cursor)
    decls = [lib.clang_getOverloadedDecl(cursor, i) for i in range(count)]
    return bool(decls) and all(d.location.file is not None and os.path.abspath(d.location.file.name) == path
                               for d in decls)


_IDENT = lazy_re.compile(rb"[A-Za-z_$][\w$]*")


_SYSTEM_DIRS = ("/usr/include", "/usr/local/include", "/usr/lib", "/usr/local/cuda", "/opt/rocm", "/opt/nvidia")
