"""Guard analysis: does a condition's value on ROCm builds still depend on CUDA version macros?

The question is answered by evaluation, not by looking for a ROCm name.  A *ROCm build* is any
assignment where the ROCm guard macros are defined, CUDA-only guards are undefined, the ROCm
version macros take a range of values, and every other macro is undefined or takes a value;
the enclosing ``#if`` branches must hold.  The CUDA version macros are free: undefined, or
defined with any of several values (hipified sources and compatibility headers do define
them).  A condition is *unsafe* (HV001) when some ROCm build gives it two different values for
two choices of the CUDA macros.

One convention makes the documented "for ROCm from a version" form mean what it says: in a
condition that itself tests a ROCm guard, the idiom ``defined(CUDA_X) && <test of CUDA_X>`` is
read as false on ROCm (HIP never defines CUDA macros, and the author has plainly written the
ROCm case next to it), so ``(defined(CUDA_VERSION) && CUDA_VERSION >= 11000) ||
(defined(USE_ROCM) && ROCM_VERSION >= 40300)`` is safe, while ``(defined(USE_ROCM) &&
ROCM_VERSION >= 60200) || CUDA_VERSION >= 12000`` stays unsafe (below ROCm 6.2 a bare CUDA
comparison decides), and so does ``!defined(USE_ROCM) || defined(CUDA_VERSION)``.

Sample values come from the constants in the conditions (each ±1), so every threshold is
crossed; when the grid is too large a seeded random sample of it is used, which keeps the
answer deterministic.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from .expr import EvalError, Node, compile_node

CUDA_VERSION_MACROS = (
    "CUDA_VERSION", "CUDART_VERSION", "__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__",
    "__CUDACC_VER_BUILD__", "__CUDA_API_VERSION", "__CUDA_API_VER_MAJOR__",
    "__CUDA_API_VER_MINOR__", "__CUDART_API_VERSION", "CUBLAS_VERSION", "CUSPARSE_VERSION",
    "CUSOLVER_VERSION", "CUFFT_VERSION", "CURAND_VERSION", "__NVCC_VER_MAJOR__",
)
ROCM_GUARDS = ("USE_ROCM", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__HIPCC__", "__HIP__",
               "HIPPORT_PLATFORM_AMD")  # the last from <hipport/version.h>
CUDA_GUARDS = ("__NVCC__", "__HIP_PLATFORM_NVIDIA__", "__HIP_PLATFORM_NVCC__", "HIPPORT_PLATFORM_NVIDIA")
ROCM_VERSION_MACROS = (
    "ROCM_VERSION", "ROCM_VERSION_MAJOR", "ROCM_VERSION_MINOR", "ROCM_VERSION_PATCH",
    "HIP_VERSION", "HIP_VERSION_MAJOR", "HIP_VERSION_MINOR", "HIP_VERSION_PATCH",
    "TORCH_HIP_VERSION",
)

GRID_LIMIT = 20000  # evaluations per question before switching to a seeded sample


@dataclass(frozen=True)
class GuardSet:
    """Which macro names play which part; built once per config."""

    rocm_guards: frozenset[str] = frozenset(ROCM_GUARDS)
    cuda_guards: frozenset[str] = frozenset(CUDA_GUARDS)
    cuda_versions: frozenset[str] = frozenset(CUDA_VERSION_MACROS)
    rocm_versions: frozenset[str] = frozenset(ROCM_VERSION_MACROS)

    @classmethod
    def from_config(cls, config) -> "GuardSet":
        if config is None:
            return DEFAULT_GUARDS
        return cls(
            frozenset(ROCM_GUARDS) | frozenset(getattr(config, "rocm_guards", ()) or ()),
            frozenset(CUDA_GUARDS) | frozenset(getattr(config, "cuda_guards", ()) or ()),
            frozenset(CUDA_VERSION_MACROS) | frozenset(getattr(config, "cuda_version_macros", ()) or ()),
            frozenset(ROCM_VERSION_MACROS),
        )


DEFAULT_GUARDS = GuardSet()


def tests_rocm_guard(node: Node, guards: GuardSet) -> bool:
    return any(n.kind in ("id", "defined") and n.value in guards.rocm_guards for n in node.walk())


def _chain(node: Node, op: bytes) -> list[Node]:
    if node.kind == "binary" and node.op == op:
        return _chain(node.args[0], op) + _chain(node.args[1], op)
    return [node]


def guarded_idioms(node: Node, guards: GuardSet) -> frozenset[int]:
    """ids of the ``defined(CUDA_X)`` nodes that guard a test of CUDA_X in the same ``&&`` chain."""
    found: set[int] = set()
    for n in node.walk():
        if n.kind != "binary" or n.op != b"&&":
            continue
        parts = [p.args[0] if p.kind == "paren" else p for p in _chain(n, b"&&")]
        for part in parts:
            if part.kind == "defined" and part.value in guards.cuda_versions:
                if any(q is not part and any(m.kind == "id" and m.value == part.value for m in q.walk())
                       for q in parts):
                    found.add(id(part))
    return frozenset(found)


def compile_for_rocm(node: Node, guards: GuardSet):
    """Compile with the convention above: the guarded idiom is false where a ROCm guard is tested."""
    if tests_rocm_guard(node, guards):
        return compile_node(node, guarded_idioms(node, guards))
    return compile_node(node)


class Context:
    """The enclosing conditionals of a place: a list of (condition, required truth value)."""

    __slots__ = ("items",)

    def __init__(self, items=()):
        self.items = tuple(items)

    def nodes(self):
        return [node for node, _ in self.items]


def sample_values(nodes: list[Node]) -> list[int]:
    """0, 1, a huge value, and every constant in the conditions with its neighbours: enough to
    put each comparison on both sides of its threshold."""
    consts = {0, 1}
    for node in nodes:
        for n in node.walk():
            if n.kind == "num":
                v = n.value if n.value < (1 << 63) else n.value - (1 << 64)
                consts.update((v - 1, v, v + 1))
    consts.add(10**9)
    return sorted(consts)


def assignments(variables: dict[str, list], limit: int, seed: int):
    """All combinations of variable values, or a seeded sample of *limit* of them."""
    names = sorted(variables)
    total = 1
    for name in names:
        total *= len(variables[name])
    if total <= limit:
        for combo in itertools.product(*(variables[n] for n in names)):
            yield dict(zip(names, combo))
        return
    rng = random.Random(seed)
    for _ in range(limit):
        yield {n: rng.choice(variables[n]) for n in names}


def _value_names(nodes: list[Node]) -> set[str]:
    """Names used as numbers (operands of comparisons or arithmetic), which need the sampled
    values; a name used only as a truth value or under ``defined`` needs just 0/1/undefined."""
    out: set[str] = set()

    def visit(node: Node, numeric: bool):
        if node.kind in ("id", "opaque") and numeric:
            out.add(node.value)
        if node.kind == "binary" and node.op not in (b"&&", b"||", b","):
            for arg in node.args:
                visit(arg, True)
        elif node.kind == "unary" and node.op != b"!":
            visit(node.args[0], True)
        elif node.kind == "ternary":
            visit(node.args[0], False)
            visit(node.args[1], numeric)
            visit(node.args[2], numeric)
        elif node.kind == "paren":
            visit(node.args[0], numeric)
        else:
            for arg in node.args:
                visit(arg, False)

    for node in nodes:
        visit(node, False)
    return out


_MEMO: dict = {}


def rocm_dependence(cond: Node, context: Context, guards: GuardSet = DEFAULT_GUARDS):
    """A ROCm build (dict) on which *cond* depends on CUDA version macros, or None if safe.

    The witness is the assignment of the non-CUDA macros; tests and messages use it.  Results
    are memoised by the conditions' structure: real files repeat the same checks many times.
    """
    key = (repr(cond), tuple((repr(n), w) for n, w in context.items), guards)
    if key in _MEMO:
        return _MEMO[key]
    if len(_MEMO) > 4096:
        _MEMO.clear()
    _MEMO[key] = result = _rocm_dependence(cond, context, guards)
    return result


def _rocm_dependence(cond: Node, context: Context, guards: GuardSet):
    all_nodes = [cond, *context.nodes()]
    used = set()
    for node in all_nodes:
        used.update(n.value for n in node.walk() if n.kind in ("id", "defined", "opaque"))
    cuda = sorted(used & guards.cuda_versions)
    if not cuda:
        return None
    samples = sample_values(all_nodes)
    numeric = _value_names(all_nodes)
    fixed = {g: 1 for g in used & guards.rocm_guards}
    free: dict[str, list] = {}
    for name in sorted(used - guards.cuda_versions - guards.rocm_guards - guards.cuda_guards):
        if name in guards.rocm_versions:
            # descending, so a witness names the version just below a threshold (e.g. 60199)
            free[name] = sorted((v for v in samples if 0 <= v < 10**9), reverse=True) + [10**9]
        elif name in numeric:
            free[name] = [None, *samples]
        else:
            free[name] = [None, 0, 1]
    cuda_space = {name: [None, *samples] for name in cuda}

    f_cond = compile_for_rocm(cond, guards)
    f_ctx = [(compile_for_rocm(node, guards), want) for node, want in context.items]

    n_cuda = 1
    for values in cuda_space.values():
        n_cuda *= len(values)
    cuda_limit = min(n_cuda, 512)
    outer_limit = max(1, GRID_LIMIT // cuda_limit)
    cuda_envs = list(assignments(cuda_space, cuda_limit, seed=1))
    for other in assignments(free, outer_limit, seed=2):
        env = dict(fixed)
        env.update(other)
        seen = set()
        for cenv in cuda_envs:
            env.update(cenv)
            try:
                if not all(bool(f(env)) == want for f, want in f_ctx):
                    continue
                seen.add(bool(f_cond(env)))
            except EvalError:
                continue
            if len(seen) > 1:
                witness = dict(fixed)
                witness.update(other)
                return witness
    return None


def reachable_on_rocm(context: Context, guards: GuardSet = DEFAULT_GUARDS) -> bool:
    """Whether some ROCm build (any CUDA macros) takes the enclosing branches."""
    if not context.items:
        return True
    all_nodes = context.nodes()
    used = set()
    for node in all_nodes:
        used.update(n.value for n in node.walk() if n.kind in ("id", "defined", "opaque"))
    samples = sample_values(all_nodes)
    numeric = _value_names(all_nodes)
    space: dict[str, list] = {}
    for name in used - guards.rocm_guards - guards.cuda_guards:
        space[name] = [None, *samples] if name in numeric else [None, 0, 1]
    fixed = {g: 1 for g in used & guards.rocm_guards}
    f_ctx = [(compile_for_rocm(node, guards), want) for node, want in context.items]
    for other in assignments(space, GRID_LIMIT // 4, seed=3):
        env = dict(fixed)
        env.update(other)
        try:
            if all(bool(f(env)) == want for f, want in f_ctx):
                return True
        except EvalError:
            continue
    return False
