"""``hipport runtime``: tell a build system where the runtime shim is.

Build scripts call it instead of hard-coding a site-packages path, e.g.
``cmake -DhipportRuntime_DIR="$(hipport runtime --cmake-dir)"`` or
``hipcc -I"$(hipport runtime --include-dir)" $(hipport runtime --sources) …``.
Each option prints bare paths (one per line) so the output can be substituted directly.
``--install /usr/local/include`` puts the headers where compilers look by default, so that a plain
``hipcc -c file.hip`` of translated code finds ``<hipport/compat.h>`` too.
"""

from __future__ import annotations

import click


@click.command("runtime")
@click.option("--include-dir", is_flag=True, help="Print the include directory (-I).")
@click.option("--cmake-dir", is_flag=True, help="Print the directory of hipportRuntimeConfig.cmake.")
@click.option("--sources", is_flag=True, help="Print the allocator's C++ sources, one per line.")
@click.option(
    "--backend",
    type=click.Choice(["hip", "host"]),
    default="hip",
    show_default=True,
    help="With --sources: 'host' adds the simulated GPU used for tests and benchmarks.",
)
@click.option("--install", "install_dir", metavar="DIR", default=None,
              help="Copy the headers into DIR (e.g. /usr/local/include), where compilers look without -I.")
def runtime(include_dir: bool, cmake_dir: bool, sources: bool, backend: str, install_dir: str | None) -> None:
    """Locate the hipport runtime shim (headers, allocator sources, CMake package)."""
    from hipport import runtime as rt

    if include_dir + cmake_dir + sources + (install_dir is not None) > 1:
        raise click.UsageError("choose one of --include-dir, --cmake-dir, --sources, --install")
    if install_dir is not None:
        try:
            copied = rt.install_headers(install_dir)
        except OSError as exc:
            raise click.ClickException(f"{install_dir}: cannot install the headers: {exc.strerror or exc}") from exc
        click.echo(f"installed {copied} header(s) under {install_dir}")
    elif include_dir:
        click.echo(str(rt.include_dir()))
    elif cmake_dir:
        click.echo(str(rt.cmake_dir()))
    elif sources:
        for path in rt.sources(backend):
            click.echo(str(path))
    else:
        click.echo(f"include dir: {rt.include_dir()}")
        click.echo(f"cmake dir:   {rt.cmake_dir()}")
        click.echo("sources:     " + " ".join(str(p) for p in rt.sources(backend)))
