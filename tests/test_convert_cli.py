"""``hipport convert``: the command line, its summary, reports and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from hipport.cli import main

KERNEL = b"""#include <cuda_runtime.h>
__global__ void k(unsigned* out) {
  unsigned mask = __ballot_sync(0xffffffff, threadIdx.x & 1);
  if (threadIdx.x % 32 == 0) *out = mask;
}
int main() { unsigned* d; cudaMalloc(&d, 4); k<<<1, 64>>>(d); cudaGraphExecNodeSetParams(0, 0, 0); return 0; }
"""


def make_tree(root: Path) -> Path:
    src = root / "proj"
    (src / "src").mkdir(parents=True)
    (src / "src" / "vote.cu").write_bytes(KERNEL)
    (src / "README.md").write_bytes(b"# a CUDA project\n")
    return src


def run(*args):
    return CliRunner().invoke(main, ["convert", *map(str, args)])


def test_convert_prints_summary_and_warnings(tmp_path):
    src = make_tree(tmp_path)
    result = run(src, "-o", tmp_path / "out", "-j", "1")
    assert result.exit_code == 0, result.stderr
    assert "references converted" in result.stdout and "hazards" in result.stdout
    assert "vote.cu:4:" in result.stderr and "[HP011]" in result.stderr  # the widened mask stored in 32 bits
    assert (tmp_path / "out" / "README.md").read_bytes() == b"# a CUDA project\n"
    assert b"hipMalloc" in (tmp_path / "out" / "src" / "vote.cu").read_bytes()
    quiet = run(src, "-o", tmp_path / "out", "--quiet-warnings")
    assert quiet.exit_code == 0 and "[HP011]" not in quiet.stderr
    assert "unchanged since last run" in quiet.stdout


def test_usage_errors(tmp_path):
    src = make_tree(tmp_path)
    assert run(src).exit_code == 2  # neither -o nor --inplace
    assert run(src, "-o", tmp_path / "o", "--inplace").exit_code == 2
    assert run(src, "-o", tmp_path / "o", "--no-backup").exit_code == 2
    bad_report = run(src, "-o", tmp_path / "o", "--report", tmp_path / "r.txt")
    assert bad_report.exit_code == 2 and "--report" in bad_report.stderr
    inside = run(src, "-o", src / "hip")
    assert inside.exit_code == 2 and "--exclude hip/" in inside.stderr
    assert run(src, "-o", tmp_path / "o", "--offload-arch", "sm_80").exit_code == 2
    assert run(src, "-o", tmp_path / "o", "--version-guards", "bogus").exit_code == 2
    assert not (tmp_path / "o").exists()  # nothing written on a usage error


def test_translator_options_reach_the_translator(tmp_path):
    src = make_tree(tmp_path)
    result = run(src, "-o", tmp_path / "out", "--hip-kernel-execution-syntax")
    assert result.exit_code == 0, result.stderr
    assert b"hipLaunchKernelGGL(k" in (tmp_path / "out" / "src" / "vote.cu").read_bytes()
    # hipify-clang spellings work too
    result = CliRunner().invoke(main, ["convert", str(src), "-o", str(tmp_path / "o2"),
                                                      "-hip-kernel-execution-syntax"])
    assert result.exit_code == 0 and b"hipLaunchKernelGGL" in (tmp_path / "o2" / "src" / "vote.cu").read_bytes()


def test_json_and_html_reports(tmp_path):
    src = make_tree(tmp_path)
    result = run(src, "-o", tmp_path / "out", "--report", tmp_path / "r.json")
    assert result.exit_code == 0
    data = json.loads((tmp_path / "r.json").read_text())
    vote = next(f for f in data["files"] if f["path"] == "src/vote.cu")
    assert vote["converted"] == data["totals"]["converted"] > 0
    assert vote["hazards"] >= 2 and {d["code"] for d in vote["diagnostics"]} >= {"HP011"}
    assert any(row["library"] == "runtime" and row["converted"] > 0 for row in data["coverage"])
    result = run(src, "-o", tmp_path / "out", "--report", tmp_path / "r.html")
    assert result.exit_code == 0
    html = (tmp_path / "r.html").read_text()
    assert "<table id=\"coverage\">" in html and "runtime" in html
    # a code frame with the offending line marked
    assert 'class="hit"' in html and "__ballot_sync(0xffffffff" in html
    # source text in frames is escaped (line 6's launch is in the frame of the findings on line 4)
    assert "k&lt;&lt;&lt;1, 64&gt;&gt;&gt;(d)" in html and "k<<<" not in html


def test_unreadable_file_gives_exit_1_and_one_line(tmp_path):
    src = make_tree(tmp_path)
    (src / "src" / "blob.cu").write_bytes(b"\x00\x01\x02")
    result = run(src, "-o", tmp_path / "out")
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "blob.cu" in errors[0]
    assert (tmp_path / "out" / "src" / "vote.cu").exists()


def test_real_subprocess_like_a_user(tmp_path):
    src = make_tree(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    proc = subprocess.run([sys.executable, "-m", "hipport", "convert", str(src), "-o", str(tmp_path / "out"),
                           "--rename-cu"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "src" / "vote.hip").exists()
    assert "hipport convert" in proc.stdout


def test_inplace_from_the_command_line(tmp_path):
    src = make_tree(tmp_path)
    result = run(src, "--inplace", "--no-backup", "--quiet-warnings")
    assert result.exit_code == 0, result.stderr
    assert b"hipMalloc" in (src / "src" / "vote.cu").read_bytes()
    assert not list(src.rglob("*.prehip")) and not (src / ".hipport-cache.json").exists()
