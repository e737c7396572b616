"""hipport: port CUDA code to HIP/ROCm.

Public API (stable): :func:`translate_source`, :func:`translate_file`, :class:`Options`,
:class:`Result`, and — imported lazily so that ``import hipport`` stays cheap —
:func:`convert_tree`, :func:`lint_paths`, :func:`translate_nvcc_flags`.
The library never prints and never exits; errors are exceptions with clear messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hipport.diagnostics import Diagnostic
from hipport.options import Options

__version__ = "0.1.0"
__all__ = [
    "Options", "Result", "Diagnostic", "translate_source", "translate_file", "convert_tree",
    "lint_paths", "translate_nvcc_flags", "convert_cmake", "convert_makefile", "__version__",
]

PYTHON_SUFFIXES = (".py", ".pyi")


@dataclass
class Result:
    """A translated source: ``text`` has the type of the input (str or bytes)."""

    text: Any
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: Any = None

    @property
    def changed(self) -> bool:
        return bool(self.stats and self.stats.changed_files)


def translate_source(source: str | bytes, *, path: str = "input.cu", options: Options | None = None) -> Result:
    """Translate one CUDA (or, for ``*.py`` paths, torch Python) source to HIP."""
    if isinstance(source, str):
        data = source.encode("utf-8", "surrogateescape")
    elif isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    else:
        raise TypeError(f"translate_source expects str or bytes, not {type(source).__name__}")
    result = _translate_bytes(data, path, options or Options())
    text = result.data.decode("utf-8", "surrogateescape") if isinstance(source, str) else result.data
    return Result(text, result.diagnostics, result.stats)


def translate_file(path: str, *, options: Options | None = None) -> Result:
    """Translate a file on disk (bytes in, bytes out); raises ``hipport.fileio.InputError``."""
    from hipport.fileio import read_source

    result = _translate_bytes(read_source(path), str(path), options or Options())
    return Result(result.data, result.diagnostics, result.stats)


def _translate_bytes(data: bytes, path: str, options: Options):
    if path.endswith(PYTHON_SUFFIXES):
        from hipport.python_bridge import translate_python

        return translate_python(data, path, options)
    from hipport.cxx.translate import translate_bytes

    return translate_bytes(data, path, options)


def __getattr__(name: str):
    if name == "convert_tree":
        from hipport.tree import convert_tree

        return convert_tree
    if name == "lint_paths":
        from hipport.lint import lint_paths

        return lint_paths
    if name == "translate_nvcc_flags":
        from hipport.build.nvcc_flags import translate_nvcc_flags

        return translate_nvcc_flags
    if name == "convert_cmake":
        from hipport.build.cmake import convert_cmake

        return convert_cmake
    if name == "convert_makefile":
        from hipport.build.makefile import convert_makefile

        return convert_makefile
    raise AttributeError(f"module 'hipport' has no attribute {name!r}")
