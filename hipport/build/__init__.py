"""Build-system conversion: nvcc flags, CMake files, Makefiles, and helpers for build systems.

Public functions (re-exported by :mod:`hipport`): :func:`translate_nvcc_flags`,
:func:`convert_cmake`, :func:`convert_makefile`, :func:`cmake_dir`.  They are imported on first
use, so ``hipport flags`` does not load the CMake converter and no table is read before it is
needed.
"""

from __future__ import annotations

import importlib
from pathlib import Path

__all__ = ["translate_nvcc_flags", "convert_cmake", "convert_makefile", "cmake_dir", "FlagNote",
           "DEFAULT_OFFLOAD_ARCH"]

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
