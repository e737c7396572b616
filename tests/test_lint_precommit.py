"""The real ``pre-commit try-repo`` against the hooks in .pre-commit-hooks.yaml.

try-repo installs the hook repository at its committed HEAD, so the current working tree is
copied into a temporary git repository and committed there (the project's own history is
not touched).  HOME and PRE_COMMIT_HOME point into the temporary directory so the user's
pre-commit cache is neither used nor modified.

try-repo builds a fresh virtualenv for a ``language: python`` hook on *every* call (its store
is a temporary directory): about 20 s on an idle machine, over a minute on a loaded one.  So the
pass/fail checks use the ``hipport-lint-system`` hook (same entry, the hipport on PATH; a
``hipport`` launcher for this checkout is put first on PATH); the test that installs the
``language: python`` hook for real runs when HIPPORT_PRECOMMIT_INSTALL=1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, require_tool

BAD = b"#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000\nint x;\n#endif\n"
GOOD = b"#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || defined(USE_ROCM)\nint x;\n#endif\n"
COPY = ["pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "hipport"]


def _git(cwd: Path, *args: str, env=None) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=cwd,
                   check=True, capture_output=True, env=env, timeout=60)


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    require_tool("pre-commit")
    require_tool("git")
    base = tmp_path_factory.mktemp("precommit")
    hooks = base / "hookrepo"
    hooks.mkdir()
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, hooks / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.o"))
        elif src.exists():
            shutil.copy2(src, hooks / name)
        else:
            (hooks / name).write_text("hipport\n")
    bindir = base / "bin"
    bindir.mkdir()
    launcher = bindir / "hipport"
    launcher.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m hipport "$@"\n')
    launcher.chmod(0o755)
    env = dict(os.environ, HOME=str(base / "home"), PRE_COMMIT_HOME=str(base / "cache"),
               GIT_CONFIG_NOSYSTEM="1", PRE_COMMIT_COLOR="never",
               PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("PYTHONPATH", None)
    (base / "home").mkdir()
    _git(hooks, "init", "-q", env=env)
    _git(hooks, "add", "-A", env=env)
    _git(hooks, "commit", "-q", "-m", "hooks", env=env)
    project = base / "project"
    project.mkdir()
    (project / "bad.cu").write_bytes(BAD)
    (project / "good.cu").write_bytes(GOOD)
    _git(project, "init", "-q", env=env)
    _git(project, "add", "-A", env=env)
    _git(project, "commit", "-q", "-m", "sources", env=env)
    return hooks, project, env


def _try_repo(setup, hook: str, *files: str) -> subprocess.CompletedProcess:
    hooks, project, env = setup
    return subprocess.run(["pre-commit", "try-repo", str(hooks), hook, "--files", *files], cwd=project,
                          capture_output=True, text=True, env=env, timeout=300)


def test_hook_fails_on_a_bad_file(setup):
    proc = _try_repo(setup, "hipport-lint-system", "bad.cu")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Failed" in proc.stdout and "bad.cu:1:5: warning:" in proc.stdout and "[HV001]" in proc.stdout


def test_hook_passes_on_a_good_file(setup):
    proc = _try_repo(setup, "hipport-lint-system", "good.cu")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed" in proc.stdout


def test_fix_through_pre_commit_run(setup):
    """``pre-commit run`` with a config that pins the hook repository and passes ``--fix``."""
    hooks, project, env = setup
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hooks, capture_output=True, text=True,
                         check=True).stdout.strip()
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {hooks}\n  rev: {rev}\n  hooks:\n  - id: hipport-lint-system\n"
        f"    args: [--fix, --policy, include-rocm]\n")
    target = project / "fixme.cu"
    target.write_bytes(BAD)
    _git(project, "add", ".pre-commit-config.yaml", "fixme.cu", env=env)  # changes are seen on tracked files
    proc = subprocess.run(["pre-commit", "run", "--files", "fixme.cu"], cwd=project, capture_output=True,
                          text=True, env=env, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # a hook that modifies files fails
    assert "files were modified by this hook" in proc.stdout
    assert target.read_bytes() == BAD.replace(b"defined(CUDA_VERSION) && CUDA_VERSION >= 11000",
                                              b"(defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || defined(USE_ROCM)")
    _git(project, "add", "fixme.cu", env=env)
    again = subprocess.run(["pre-commit", "run", "--files", "fixme.cu"], cwd=project, capture_output=True,
                           text=True, env=env, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr


@pytest.mark.skipif(os.environ.get("HIPPORT_PRECOMMIT_INSTALL") != "1",
                    reason="builds a virtualenv and pip-installs hipport (20-100 s); set HIPPORT_PRECOMMIT_INSTALL=1")
def test_python_fix_hook_installs_and_rewrites_the_file(setup):
    """The published ``language: python`` hook: pre-commit pip-installs hipport from the repo."""
    _, project, env = setup
    target = project / "fixme_py.cu"
    target.write_bytes(BAD)
    _git(project, "add", "fixme_py.cu", env=env)
    proc = _try_repo(setup, "hipport-lint-fix", "fixme_py.cu")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "files were modified by this hook" in proc.stdout
    assert target.read_bytes() == BAD.replace(b"11000\n", b"11000 && !defined(USE_ROCM)\n", 1)
