"""The command line: a thin click layer over the library API.

Subcommands live in their own modules and are imported only when invoked, so ``hipport lint
one.cu`` in a pre-commit hook does not pay for what ``hipport convert`` needs.
"""

from __future__ import annotations

import importlib

import click

# command name -> "module:attribute"
COMMANDS = {
    "translate": "hipport.cli_translate:translate",
    "lint": "hipport.cli_lint:lint",
    "rules": "hipport.cli_rules:rules",
    "convert": "hipport.cli_convert:convert",
    "flags": "hipport.cli_convert:flags",
    "cmake-dir": "hipport.cli_convert:cmake_dir",
    "runtime": "hipport.cli_runtime:runtime",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hipport", prog_name="hipport")
def main():
    """hipport: port CUDA code to HIP/ROCm — translate, lint, convert whole trees."""
