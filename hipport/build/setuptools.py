"""setuptools helper for PyTorch-style C++/CUDA extensions built on ROCm.

A project keeps its CUDA sources; on a ROCm build of torch ``setup.py`` asks this module for
translated copies and hipcc flags::

    from hipport.build.setuptools import extension_kwargs, is_rocm
    from torch.utils.cpp_extension import BuildExtension, CUDAExtension

    kwargs = dict(sources=["ext.cpp", "kernel.cu"],
                  extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "--use_fast_math"]})
    if is_rocm():
        kwargs = extension_kwargs(**kwargs)
    setup(ext_modules=[CUDAExtension("ext", **kwargs)], cmdclass={"build_ext": BuildExtension})

Sources are translated with :func:`hipport.translate_source` into ``build_dir`` (their layout
relative to ``base_dir`` kept), together with the local headers they include with
``#include "..."``, so relative includes keep working.  A file is rewritten only when its
translation changed, so an unchanged tree does not trigger recompilation.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable, Sequence
from hipport import lazy_re

_LOCAL_INCLUDE = lazy_re.compile(rb'^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)
_HEADER_SUFFIXES = {".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl"}
_TRANSLATED_SUFFIXES = {".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".cpp", ".cc", ".cxx", ".c", ".inl", ".hip"}


def is_rocm() -> bool:
    """True when the installed torch is a ROCm build (``torch.version.hip`` is set)."""
    try:
        import torch
    except ImportError:
        return False
    return getattr(torch.version, "hip", None) is not None


class TranslationError(RuntimeError):
    """A source could not be read or translated; the message names the file."""


def translate_sources(sources: Sequence[str | os.PathLike], *, build_dir: str | os.PathLike = "build/hipport",
                      base_dir: str | os.PathLike | None = None, options=None) -> list[str]:
    """Translate ``sources`` (and the local headers they include) into ``build_dir``.

    Returns the translated paths of ``sources``, in order.  ``base_dir`` (default: the current
    directory) is the root whose layout is mirrored; a source outside it is an error.
    """
    from hipport import translate_source

    base = Path(base_dir or os.getcwd()).resolve()
    out_root = Path(build_dir).resolve()
    done: dict[Path, Path] = {}
    pending = [Path(s).resolve() for s in sources]
    results = [None] * len(pending)
    queue = list(enumerate(pending))
    while queue:
        index, src = queue.pop()
        if src in done:
            if index >= 0:
                results[index] = done[src]
            continue
        try:
            rel = src.relative_to(base)
        except ValueError:
            raise TranslationError(f"{src}: outside the base directory {base}") from None
        try:
            data = src.read_bytes()
        except OSError as exc:
            raise TranslationError(f"{src}: cannot read: {exc.strerror or exc}") from None
        out = out_root / rel
        if src.suffix in _TRANSLATED_SUFFIXES:
            try:
                new = translate_source(data, path=str(src), options=options).text
            except Exception as exc:  # the translator's own errors carry the reason
                raise TranslationError(f"{src}: translation failed: {exc}") from exc
        else:
            new = data
        out.parent.mkdir(parents=True, exist_ok=True)
        if not out.exists() or out.read_bytes() != new:
            out.write_bytes(new)
        done[src] = out
        if index >= 0:
            results[index] = out
        for m in _LOCAL_INCLUDE.finditer(data):
            header = (src.parent / m.group(1).decode("utf-8", "surrogateescape")).resolve()
            if header.is_file() and header not in done:
                try:
                    header.relative_to(base)
                except ValueError:
                    continue  # a header outside the tree stays where it is (include path)
                queue.append((-1, header))
    return [str(p) for p in results]


def translate_compile_args(extra_compile_args: dict | Sequence[str] | None, *, offload_arch=None,
                           notes: list | None = None):
    """Translate the ``'nvcc'`` entry of ``extra_compile_args`` (or a plain nvcc list)."""
    from hipport.build.nvcc_flags import translate_nvcc_flags

    if extra_compile_args is None:
        return None
    if isinstance(extra_compile_args, dict):
        result = dict(extra_compile_args)
        if "nvcc" in result:
            result["nvcc"] = translate_nvcc_flags(list(result["nvcc"]), offload_arch=offload_arch, notes=notes)
        return result
    return translate_nvcc_flags(list(extra_compile_args), offload_arch=offload_arch, notes=notes)


def extension_kwargs(*, sources: Sequence[str], extra_compile_args=None, include_dirs: Iterable[str] = (),
                     build_dir: str | os.PathLike = "build/hipport", base_dir=None, options=None,
                     offload_arch=None, notes: list | None = None, **other) -> dict:
    """Keyword arguments for ``torch.utils.cpp_extension.CUDAExtension`` on ROCm.

    Sources are translated (see :func:`translate_sources`), ``extra_compile_args['nvcc']`` is
    translated to hipcc flags, and include directories inside ``base_dir`` are redirected to
    their translated copies (the originals stay after them for files not translated).
    Other keyword arguments are passed through.
    """
    base = Path(base_dir or os.getcwd()).resolve()
    out_root = Path(build_dir).resolve()
    new_sources = translate_sources(sources, build_dir=out_root, base_dir=base, options=options)
    dirs: list[str] = []
    headers: list[Path] = []
    for d in include_dirs:
        p = Path(d).resolve()
        try:
            dirs.append(str(out_root / p.relative_to(base)))
        except ValueError:
            pass  # outside the tree: used as it is
        else:
            headers += [h for h in sorted(p.rglob("*")) if h.is_file() and h.suffix in _HEADER_SUFFIXES]
        dirs.append(str(d))
    if headers:
        translate_sources(headers, build_dir=out_root, base_dir=base, options=options)
    kwargs = dict(other, sources=new_sources)
    if dirs:
        kwargs["include_dirs"] = dirs
    if extra_compile_args is not None:
        kwargs["extra_compile_args"] = translate_compile_args(extra_compile_args, offload_arch=offload_arch,
                                                              notes=notes)
    return kwargs
