"""HT008 — NVIDIA-only nvcc flags in PyTorch extension builds.

On ROCm, ``torch.utils.cpp_extension`` passes ``extra_compile_args['nvcc']`` of
``CUDAExtension`` and ``extra_cuda_cflags`` of ``load``/``load_inline`` to hipcc, which rejects
``-arch=sm_80``, ``-gencode``, ``--expt-relaxed-constexpr``, ``-Xptxas``… .  The flag list (a
literal, or a name assigned once from a literal) is checked with the shared nvcc→hipcc table,
:func:`hipport.build.nvcc_flags.translate_nvcc_flags` — the same one the CMake/Makefile
conversion uses.  Fix, when every element is a string literal: make the list conditional,
``([<hipcc flags>] if torch.version.hip else [<original>])``, the original kept byte for byte.
"""

from __future__ import annotations

import libcst as cst

from hipport.edits import Edit
from hipport.python.codes import CODES
from hipport.python.context import Finding, argument
from hipport.python.flow import string_value

CODE = "HT008"
TITLE = CODES[CODE][0]
MESSAGE = "NVIDIA-only nvcc flags {flags} in {where}: hipcc rejects them when this builds on ROCm"
HINT = ("make the list conditional on torch.version.hip with hipcc equivalents "
        "({example}); the GPU targets come from --offload-arch or PYTORCH_ROCM_ARCH")

BUILDERS = frozenset({"torch.utils.cpp_extension.CUDAExtension", "torch.utils.cpp_extension.load",
                      "torch.utils.cpp_extension.load_inline"})
_LAST = frozenset(name.rsplit(".", 1)[1] for name in BUILDERS)


def _flag_lists(ctx, call):
    """(list literal, where) pairs holding nvcc flags for this builder call."""
    arg = argument(call, None, "extra_compile_args")
    if arg is not None:
        table = ctx.flow.literal(arg.value, cst.Dict)
        if table is not None:
            for element in table.elements:
                if isinstance(element, cst.DictElement) and string_value(element.key) == "nvcc":
                    flags = ctx.flow.literal(element.value, cst.List) or ctx.flow.literal(element.value, cst.Tuple)
                    if flags is not None:
                        yield flags, "extra_compile_args['nvcc']"
    arg = argument(call, None, "extra_cuda_cflags")
    if arg is not None:
        flags = ctx.flow.literal(arg.value, cst.List) or ctx.flow.literal(arg.value, cst.Tuple)
        if flags is not None:
            yield flags, "extra_cuda_cflags"


def _render(flags: list[str], quote: str) -> str:
    out = []
    for flag in flags:
        text = repr(flag)
        if quote == '"' and "'" not in flag and '"' not in flag:
            text = '"' + flag + '"'
        out.append(text)
    return "[" + ", ".join(out) + "]"


def check(ctx):
    from hipport.build.nvcc_flags import translate_nvcc_flags

    seen = set()
    for call in ctx.nodes("Call"):
        if not ctx.may_be(call.func, _LAST) or not ctx.resolves_to(call.func, BUILDERS):
            continue
        for flags_node, where in _flag_lists(ctx, call):
            if flags_node in seen:
                continue
            seen.add(flags_node)
            values = [string_value(e.value) if isinstance(e, cst.Element) else None for e in flags_node.elements]
            literal = [v for v in values if v is not None]
            if not literal:
                continue
            translated = translate_nvcc_flags(literal)
            keep = set(translated)
            offenders = [v for v in literal if v not in keep]
            if not offenders:
                continue
            first = next(e for e, v in zip(flags_node.elements, values) if v in offenders)
            edit = None
            alias = ctx.torch_alias(call)
            span = ctx.span(flags_node)
            if alias is not None and span is not None and None not in values:
                quote = getattr(first.value, "quote", "'")[:1]
                hip = _render(translated, quote)
                text = ctx.encode(f"({hip} if {alias}.version.hip else ") 
                if text is not None:
                    edit = Edit(span[0], span[1], text + ctx.data[span[0]:span[1]] + b")", CODE)
            example = ", ".join(translated[:3]) or "no flags"
            yield Finding(CODE, flags_node, MESSAGE.format(flags=", ".join(offenders), where=where),
                          HINT.format(example=example), edit)
