"""CUDA → HIP translation of one C/C++/CUDA file: read bytes → sweep → passes → edits → bytes.

The pipeline never decodes the file: every pass works on byte offsets, and the single edit
applier assembles the output, which is therefore byte-identical outside rewritten spans.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from functools import lru_cache

from hipport.cxx import conditionals, spaced_launch, splices
from hipport.cxx.context import Context, Stats
from hipport.cxx.lexer import directive_end, logical_line_start
from hipport.cxx.passes import (aggregate_order, arguments, builtin_indices, calls, designated_vector_init,
                                device_compile_guard, device_launches, device_printf, device_props,
                                deviceptr_arithmetic, half2_members, half_raw_init, hazards,
                                hip_name_collisions, host_half_operators, host_math, host_rng_states, includes,
                                lane_mask_bits, launch, launch_bounds, macro_launch, member_execution_space,
                                merged_type_overloads, narrowing, native_atomics, nvrtc_sources, overload_shims,
                                pragma_macro_names, ptx_idioms, register_keyword, rename, restated_declarations,
                                shared_locals, stdint_typedefs, vector_operators)
from hipport.cxx.scan import outside, scan
from hipport.diagnostics import Diagnostic, DiagnosticSink, line_suppressions, suppressed
from hipport.edits import apply_edits
from hipport.options import Options
from hipport.rules import PREFIX_LENGTH, RuleSet, default_rules
from hipport import lazy_re


@dataclass
class TranslationResult:
    data: bytes
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)

    @property
    def changed(self) -> bool:
        return self.stats.changed_files > 0


@lru_cache(maxsize=4)
def _prefixes(rules: RuleSet) -> tuple[str, ...]:
    """Identifier prefixes worth a look: what the known names sharing their first characters share."""
    from hipport.rules import common_prefixes

    shared = {p[:PREFIX_LENGTH]: p for p in rules.name_prefixes}
    return tuple(sorted(common_prefixes((*calls.NAMES, *rename.CACHING_ALLOCATOR), shared).values()))


def translate_bytes(data: bytes, path: str = "input.cu", options: Options | None = None,
                    rules: RuleSet | None = None) -> TranslationResult:
    if b"\r" in data and b"\n" not in data:
        # classic Mac line ends (CR only), which every compiler takes as newlines: translated with
        # LF and given back with CR, so that the line-based passes see the lines
        result = translate_bytes(data.replace(b"\r", b"\n"), path, options, rules)
        result.data = result.data.replace(b"\n", b"\r")
        return result
    started = time.perf_counter()
    options = options or Options()
    rules = rules or default_rules()
    stats = Stats(files=1, bytes=len(data), lines=data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1))
    original, (data, split_words) = data, splices.join_split_identifiers(spaced_launch.close_up(data), rules.by_name)
    sink = DiagnosticSink(path, data)
    ctx = Context(data, path, options, rules, sink, stats)

    sweep = scan(data, _prefixes(rules))
    directive_lines = includes.find_includes(data, sweep.directives, sweep.masked)
    idents = sweep.idents
    if include_spans := [(i.start, i.end) for i in directive_lines]:
        idents = outside(idents, include_spans)
    if split_words:  # (`cudaFree\<newline>List`: one word to the compiler, none of ours)
        idents = outside(idents, split_words)
    if b"poison" in data:  # `#pragma GCC poison cudaThreadSynchronize`: renamed, it would poison HIP's name
        idents = outside(idents, [(d, directive_end(data, d)) for d in sweep.directives if _POISON.match(data, d)])
    call_idents = idents
    if options.skip_excluded_preprocessor_conditional_blocks and not options.amap:  # --amap: as much as possible
        # As hipify-clang: the flag turns on the default preprocessor, so branches the -D options
        # exclude get no AST-level rewrites (launches, HIP_SYMBOL, argument casts); the names in
        # them are still renamed, as hipify-clang's lexer pass over skipped ranges does.
        excluded = _merge(conditionals.excluded_spans(data, sweep.directives, options))
        if excluded:
            sweep.launches = outside(sweep.launches, excluded)
            call_idents = outside(idents, excluded)

    if options.hip_kernel_execution_syntax and sweep.launches and sweep.directives:
        used = macro_launch.rewrite_uses(ctx, sweep, _translate_fragment)
        if used:
            idents, call_idents = outside(idents, used), outside(call_idents, used)

    rename.run(ctx, idents)
    pragma_macro_names.run(ctx)
    calls.run(ctx, call_idents, skip=arguments.run(ctx, call_idents))
    calls.group_member_calls(ctx, sweep.in_masked)
    half2_members.run(ctx, sweep)
    half_raw_init.run(ctx, sweep)
    device_props.run(ctx, sweep)
    builtin_indices.run(ctx, sweep)
    device_compile_guard.run(ctx, sweep)
    overload_shims.run(ctx, sweep)
    register_keyword.run(ctx, sweep)
    launch_bounds.run(ctx, sweep)
    member_execution_space.run(ctx, sweep)
    shared_locals.run(ctx, sweep)
    native_atomics.run(ctx, sweep)
    stdint_typedefs.run(ctx, sweep)
    restated_declarations.run(ctx, sweep)
    merged_type_overloads.run(ctx, sweep)
    vector_operators.run(ctx, sweep)
    designated_vector_init.run(ctx, sweep)
    aggregate_order.run(ctx, sweep)
    host_math.run(ctx, sweep)
    device_printf.run(ctx, sweep)
    host_half_operators.run(ctx, sweep)
    ptx_idioms.run(ctx, sweep)
    lane_mask_bits.run(ctx, sweep)
    narrowing.run(ctx, sweep)
    mapped_includes = includes.run(ctx, directive_lines)
    includes.header_names_elsewhere(ctx)
    if options.hip_kernel_execution_syntax:
        launch.run(ctx, sweep.launches)
    elif sweep.launches:
        ctx.needs_hip_runtime = True
        if b"{" in data:
            launch.braced_dimensions(ctx, sweep.launches)
    _version_guards(ctx)  # before the includes: a fixed guard needs hipport/version.h
    if b"USE_ROCM" in data:
        _define_use_rocm(ctx)
    includes.add_runtime_include(ctx, directive_lines, mapped_includes)
    hazards.run(ctx, sweep)
    device_launches.run(ctx, sweep)
    deviceptr_arithmetic.run(ctx, sweep)
    hip_name_collisions.run(ctx, sweep)
    host_rng_states.run(ctx, sweep)
    nvrtc_sources.run(ctx, sweep)

    out = apply_edits(data, ctx.edits) if ctx.edits else data
    if out != original:
        stats.changed_files = 1
    suppressions = line_suppressions(data) if b"hipport: ignore" in data else {}
    diags = [d for d in sink.items if not suppressed(d, suppressions)]
    if diags and b"0" in data:
        dead = conditionals.if_zero_lines(data)  # `#if 0` … : code no compiler sees; translated, not warned about
        if dead:
            diags = [d for d in diags if not any(first <= d.line <= last for first, last in dead)]
    diags.sort(key=lambda d: (d.line, d.column, d.code))
    stats.seconds = time.perf_counter() - started
    return TranslationResult(out, diags, stats)


def _translate_fragment(ctx: Context, text: bytes) -> bytes:
    """A macro's expansion, translated on its own (names, call fixes, the launch)."""
    sub = Context(text, ctx.path, ctx.options, ctx.rules, DiagnosticSink(ctx.path, text), Stats())
    sweep = scan(text, _prefixes(ctx.rules))
    rename.run(sub, sweep.idents)
    calls.run(sub, sweep.idents, skip=arguments.run(sub, sweep.idents))
    launch.run(sub, sweep.launches)
    ctx.stats.converted.update(sub.stats.converted)
    ctx.stats.names.update(sub.stats.names)
    ctx.needs_hip_runtime = True
    return apply_edits(text, sub.edits) if sub.edits else text


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, non-overlapping union of spans (nested #if blocks give nested spans)."""
    merged: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


VERSION_SHIM = b"hipport/version.h"
_VERSION_MARKERS = (b"CUDA_VERSION", b"CUDART_VERSION", b"__CUDACC_VER", b"CUDA_API_VERSION", b"GetVersion",
                    b"HIP_VERSION", b"ROCM_VERSION")


_USE_ROCM_TEST = lazy_re.compile(rb"^[ \t]*#[ \t]*(?:ifn?def[ \t]+USE_ROCM\b|(?:el)?if\b[^\n]*\bUSE_ROCM\b)", re.M)
_USE_ROCM_DEFINED = lazy_re.compile(rb"^[ \t]*#[ \t]*define[ \t]+USE_ROCM\b", re.M)


def _define_use_rocm(ctx: Context) -> None:
    """`#ifndef USE_ROCM / <PTX> / #else / <AMD code>` (vLLM, candle, mistral.rs): the project's own
    ROCm branch, which its ROCm build selects with -DUSE_ROCM; hipport/version.h defines it on AMD
    (unless HIPPORT_NO_USE_ROCM), so the translated file takes that branch with any build."""
    if _USE_ROCM_TEST.search(ctx.data) and not _USE_ROCM_DEFINED.search(ctx.data) \
            and VERSION_SHIM not in ctx.extra_includes and not _TORCH_CODE.search(ctx.data):
        ctx.extra_includes.append(VERSION_SHIM)


# PyTorch's own sources and extensions: torch's ROCm build defines USE_ROCM itself
_POISON = lazy_re.compile(rb"#[ \t]*pragma[ \t]+(?:GCC|clang)[ \t]+poison\b")
_TORCH_CODE = lazy_re.compile(rb"#[ \t]*include[ \t]*[<\"](?:ATen|c10|torch)/")


def _version_guards(ctx: Context) -> None:
    """Report (or, with --version-guards POLICY, fix) CUDA version checks that mislead on ROCm."""
    if not any(m in ctx.data for m in _VERSION_MARKERS):
        return
    try:
        from hipport import version_macros
    except ImportError:  # pragma: no cover - the package ships with hipport
        return
    if ctx.options.version_guards:
        edits, diags = version_macros.fix_source(ctx.data, ctx.path, policy=ctx.options.version_guards)
        # one fix is several edits in one directive: keep or drop them together
        groups: dict[int, list] = {}
        for e in edits:
            groups.setdefault(ctx.data.rfind(b"\n", 0, logical_line_start(ctx.data, e.start)) + 1, []).append(e)
        occupied = [(e.start, e.end) for e in ctx.edits]
        for group in groups.values():
            if not any(s < e.end and e.start < t or s == e.start == t for e in group for s, t in occupied):
                ctx.edits.extend(group)
                # outside PyTorch nothing defines USE_ROCM / ROCM_VERSION: the shim header does
                if VERSION_SHIM not in ctx.extra_includes and any(b"ROCM" in e.text for e in group):
                    ctx.extra_includes.append(VERSION_SHIM)
    else:
        diags = version_macros.check_source(ctx.data, ctx.path)
    ctx.sink.items.extend(diags)
