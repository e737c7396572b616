"""``convert --verify``: compile translated units with hipcc and place errors on the CUDA lines."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from hipport.cli import main
from hipport.diagnostics import Diagnostic
from hipport.tree import convert_tree
from hipport.verify import line_map, rank
from tests.conftest import require_tool


def test_line_map_tracks_inserted_and_replaced_lines():
    original = b"a\nb\nc\nd\n"
    assert line_map(original, original) == [1, 2, 3, 4, 5]
    # one line inserted before line 2, line 3 rewritten
    translated = b"a\nINSERTED\nb\nC\nd\n"
    mapping = line_map(original, translated)
    assert mapping[0] == 1 and mapping[2] == 2 and mapping[3] == 3 and mapping[4] == 4
    assert mapping[1] in (1, 2)  # an inserted line maps to a neighbour, never past the file
    # two inserted include lines at the top
    assert line_map(b"x\ny\n", b"#include <a>\n#include <b>\nx\ny\n")[2:] == [1, 2, 3]


def test_rank_puts_the_most_frequent_message_first():
    diags = [Diagnostic("HC010", "unknown type name 'X'", "b.cu", 1),
             Diagnostic("HC010", "use of undeclared identifier 'cudaA'", "a.cu", 9),
             Diagnostic("HC010", "use of undeclared identifier 'cudaB'", "a.cu", 2)]
    assert [d.line for d in rank(diags)] == [2, 9, 1]


SOURCE = b"""// line 1
#include <cuda_runtime.h>
__global__ void vote(unsigned* out) {
  unsigned long long m = __ballot_sync(0x0000ffffull, threadIdx.x & 1);
  if (threadIdx.x == 0) *out = unsigned(m);
}
int main() {
  unsigned* d;
  cudaMalloc(&d, 4);
  cudaFrobnicate(d);
  vote<<<1, 64>>>(d);
  return 0;
}
"""


def test_verify_reports_remaining_errors_on_original_lines(tmp_path):
    require_tool("hipcc")
    src = tmp_path / "proj"
    src.mkdir()
    (src / "vote.cu").write_bytes(SOURCE)
    # plain C++ the translation leaves alone is not a HIP unit: not compiled (its error stays unseen)
    (src / "host.cpp").write_bytes(b"int broken = ;\n")
    report = convert_tree(src, tmp_path / "out", verify=True, jobs=2)
    translated = (tmp_path / "out" / "vote.cu").read_bytes()
    # the translator inserted a line, so the compiler's line differs from the CUDA line
    assert translated.split(b"\n").index(b"  cudaFrobnicate(d);") != 9
    assert report.verify is not None
    errors = [d for d in report.verify if "cudaFrobnicate" in d.message]
    assert len(errors) == 1, [d.format() for d in report.verify]
    assert errors[0].line == 10 and errors[0].column == 3 and errors[0].path.endswith("vote.cu")
    assert errors[0].code == "HC010" and errors[0].severity == "error"
    assert all(not d.path.endswith("host.cpp") for d in report.verify)
    assert report.totals["verify_errors"] == len(report.verify)

    result = CliRunner().invoke(main, ["convert", str(src), "-o", str(tmp_path / "out2"), "--verify"])
    assert result.exit_code == 1  # porting work remains
    assert f"{Path(src) / 'vote.cu'}:10:3: error: use of undeclared identifier 'cudaFrobnicate'" in result.stderr


def test_flags_from_the_compilation_database_follow_the_tree(tmp_path):
    import json

    from hipport.verify import database_flags

    src, build, dst = tmp_path / "src", tmp_path / "build", tmp_path / "dst"
    (src / "inc").mkdir(parents=True)
    (src / "a.cu").write_text("")
    build.mkdir()
    entries = [
        {"directory": str(build), "file": str(src / "a.cu"),
         "command": f"nvcc -I{src}/inc -I /usr/x -DFOO=1 -D BAR -std=c++17 -arch=sm_80 -c {src}/a.cu"},
        {"directory": str(build), "file": "/elsewhere/b.cu", "arguments": ["nvcc", "-DX", "-c", "b.cu"]},
    ]
    (build / "compile_commands.json").write_text(json.dumps(entries))
    flags = database_flags(str(build), src, dst)
    assert flags == {"a.cu": [f"-I{dst}/inc", "-I/usr/x", "-DFOO=1", "-DBAR", "-std=c++17"]}
    assert database_flags(str(tmp_path / "missing"), src, dst) == {}
