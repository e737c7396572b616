"""Translator options: one frozen value passed from the CLI or the library API to every pass."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Options:
    hip_kernel_execution_syntax: bool = False  # k<<<...>>>(...) → hipLaunchKernelGGL(...)
    roc: bool = False  # library names → roc* instead of hip*
    miopen: bool = False  # cuDNN → MIOpen
    use_hip_data_types: bool = False  # library data-type enums → HIP_R_32F style
    amap: bool = False  # translate names even where HIP's support is marked unsupported
    experimental: bool = False  # translate names HIP marks experimental
    skip_excluded_preprocessor_conditional_blocks: bool = False
    default_preprocessor: bool = False  # hipify-clang's synonym of the one above
    caching_allocator: bool = False  # cudaMalloc/cudaFree → hipportMalloc/hipportFree
    version_guards: str | None = None  # policy for version-macro fixes; None = report only
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    clang_args: tuple[str, ...] = ()
    cuda_path: str | None = None
    build_dir: str | None = None
    hip_version: str = ""  # the HIP release the output is for ('' = the installed one; 'latest' = no check)
    extra: dict = field(default_factory=dict, hash=False, compare=False)

    def __post_init__(self):
        if self.default_preprocessor and not self.skip_excluded_preprocessor_conditional_blocks:
            object.__setattr__(self, "skip_excluded_preprocessor_conditional_blocks", True)

    def search_dirs(self) -> tuple[str, ...]:
        """-I directories: the option's, then the -I / -iquote among the compiler arguments after
        `--` (`-Idir` or `-I dir`)."""
        dirs, args = list(self.include_dirs), self.clang_args
        for i, arg in enumerate(args):
            for flag in ("-I", "-iquote"):
                if arg == flag and i + 1 < len(args):
                    dirs.append(args[i + 1])
                elif arg.startswith(flag) and len(arg) > len(flag):
                    dirs.append(arg[len(flag):])
        return tuple(dirs)

    def cache_key(self) -> str:
        """A stable text naming every option that changes output (for incremental caches)."""
        from dataclasses import fields

        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.name != "extra"]
        return ";".join(parts)
