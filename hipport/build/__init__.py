"""Build-system conversion: nvcc flags, CMake files, Makefiles, and helpers for build systems.

Public functions (re-exported by :mod:`hipport`): :func:`translate_nvcc_flags`,
:func:`convert_cmake`, :func:`convert_makefile`, :func:`cmake_dir`.  They are imported on first
use, so ``hipport flags`` does not load the CMake converter and no table is read before it is
needed.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from hipport import lazy_re

__all__ = ["translate_nvcc_flags", "convert_cmake", "convert_makefile", "convert_build_file",
           "build_file_kind", "cmake_dir", "FlagNote", "DEFAULT_OFFLOAD_ARCH"]

_LAZY = {
    "translate_nvcc_flags": "hipport.build.nvcc_flags",
    "FlagNote": "hipport.build.nvcc_flags",
    "DEFAULT_OFFLOAD_ARCH": "hipport.build.nvcc_flags",
    "convert_cmake": "hipport.build.cmake",
    "convert_makefile": "hipport.build.makefile",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'hipport.build' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def cmake_dir() -> Path:
    """The directory holding ``HipportTranslate.cmake`` (add it to ``CMAKE_MODULE_PATH``) and
    the ``HipportDebianROCm.cmake`` toolchain file."""
    return Path(__file__).resolve().parent / "cmake"


# `Makefile`, `GNUmakefile`, and a project's other makefiles: `Makefile.cuda`, `Makefile_gpu`, `Makefile2`
_MAKEFILE_NAME = lazy_re.compile(r"(?:gnu)?makefile(?:[._-][\w.-]+|\d+)?")


def build_file_kind(path: str) -> str | None:
    """``"cmake"`` for CMakeLists.txt / *.cmake, ``"makefile"`` for Makefile / GNUmakefile (also
    `Makefile.cuda`, `Makefile_gpu`, …) / *.mk / *.mak / *.make, ``None`` for anything else (the tree
    converter copies those unchanged)."""
    name = Path(path).name
    lower = name.lower()
    if lower.endswith(".prehip"):
        return None  # `Makefile.prehip`: an --inplace run's backup, which a later run must leave alone
    if name == "CMakeLists.txt" or lower.endswith(".cmake"):
        return "cmake"
    if _MAKEFILE_NAME.fullmatch(lower) or lower.endswith((".mk", ".mak", ".make")):
        return "makefile"
    return None


def convert_build_file(data: bytes, path: str, *, offload_arch=None, renames=None):
    """Convert one build file by its kind; returns ``(new_bytes, diagnostics)``.

    ``renames`` (source names as written → new names) applies to CMake files only.  A path
    that is not a build file raises ``ValueError``.
    """
    kind = build_file_kind(path)
    if kind == "cmake":
        from hipport.build.cmake import convert_cmake as _convert

        return _convert(data, path, offload_arch=offload_arch, renames=renames)
    if kind == "makefile":
        from hipport.build.makefile import convert_makefile as _convert_make

        return _convert_make(data, path, offload_arch=offload_arch)
    raise ValueError(f"{path}: not a CMake file or Makefile")
