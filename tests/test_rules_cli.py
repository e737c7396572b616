"""``hipport rules``: listing, searching, filters, support tables, errors."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from hipport import cli_rules
from hipport.cli import main
from hipport.rules import default_rules


@pytest.fixture(scope="module")
def ruleset():
    return default_rules()  # the very object the command lists


def run(*args, **kwargs):
    result = CliRunner().invoke(main, ["rules", *args], catch_exceptions=False, **kwargs)
    return result


def rows(result):
    return [line.split("\t") for line in result.stdout.splitlines()]


def test_substring_search_is_case_insensitive_and_matches_cuda_or_hip():
    result = run("MALLOCASYNC")
    assert result.exit_code == 0, result.output
    lines = rows(result)
    assert ["cudaMallocAsync", "hipMallocAsync", "function", "supported", "runtime"] in lines
    assert all("mallocasync" in (cuda + hip).lower() for cuda, hip, *_ in lines)
    # the HIP side is searched too
    by_hip = rows(run("hipDeviceSynchronize"))
    assert {"cudaDeviceSynchronize", "cudaThreadSynchronize"} <= {r[0] for r in by_hip}


def test_shell_pattern(ruleset):
    lines = rows(run("cudaMemcpy*Symbol*"))
    names = [r[0] for r in lines]
    assert names == sorted(names, key=str.lower)
    assert set(names) == {"cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbolAsync"}


def test_family_status_and_kind_filters_agree_with_the_rules(ruleset):
    lines = rows(run("--family", "runtime", "--status", "unsupported"))
    expected = sum(1 for r in ruleset.rules if r.family == "runtime" and r.status == "unsupported")
    assert len(lines) == expected > 100
    assert {(r[3], r[4]) for r in lines} == {("unsupported", "runtime")}
    enums = rows(run("-f", "nvrtc", "-k", "enumerator"))
    assert enums and {r[2] for r in enums} == {"enumerator"}
    assert all(r[0].startswith("NVRTC_") for r in enums)
    unsupported = [r for r in enums if r[3] == "unsupported"]
    assert all(r[1] == "-" for r in unsupported)


def test_no_match_exits_1_with_message():
    result = run("definitelyNotACudaName")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "no rule matches 'definitelyNotACudaName'" in result.stderr


def test_unknown_family_is_a_usage_error():
    result = run("--family", "nope")
    assert result.exit_code == 2
    assert "unknown family nope" in result.stderr and "runtime" in result.stderr


def test_output_dir_needs_markdown(tmp_path):
    result = run("--output-dir", str(tmp_path / "out"))
    assert result.exit_code == 2 and "--output-dir needs --markdown" in result.stderr


def test_markdown_counts_match_the_rules(ruleset):
    result = run("--markdown", "--family", "nvrtc", "--family", "macros")
    assert result.exit_code == 0
    text = result.stdout
    for family in ("nvrtc", "macros"):
        members = [r for r in ruleset.rules if r.family == family]
        cells = [str(sum(1 for r in members if r.status == s)) for s in cli_rules._STATUSES]
        assert f"| {family} | " + " | ".join(cells) + f" | {len(members)} |" in text
        assert f"\n## {family}\n" in text
    assert "| `nvrtcCreateProgram` | `hiprtcCreateProgram` | function |" in text
    assert "| `cudaMalloc`" not in text  # other families filtered out
    assert "### unsupported (" in text


def test_markdown_escapes_cells_and_shows_versions(tmp_path):
    (tmp_path / "t.toml").write_text(
        '[meta]\nfamily = "demo"\nlibrary = "cudart"\nhip_library = "amdhip64"\n[rules]\n'
        'cudaFoo = { hip = "hipFoo", note = "a|b", cuda_added = "11.2", cuda_removed = "13.0", status = "removed" }\n'
        'cudaBar = { status = "unsupported" }\n',
        encoding="utf-8",
    )
    result = run("--rules-dir", str(tmp_path), "--markdown")
    assert result.exit_code == 0, result.output
    assert "| `cudaFoo` | `hipFoo` | function | A 11.2, R 13.0 | a\\|b |" in result.stdout
    assert "| demo | 0 | 0 | 0 | 1 | 1 | 2 |" in result.stdout
    assert "CUDA library `cudart` → HIP library `amdhip64`" in result.stdout


def test_markdown_output_dir_writes_one_file_per_family(tmp_path, ruleset):
    out = tmp_path / "tables"
    result = run("--markdown", "-o", str(out), "-f", "complex", "-f", "nvrtc")
    assert result.exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "complex.md", "nvrtc.md"]
    index = (out / "README.md").read_text(encoding="utf-8")
    assert "[complex](complex.md)" in index and "[nvrtc](nvrtc.md)" in index
    complex_md = (out / "complex.md").read_text(encoding="utf-8")
    assert complex_md.startswith("# complex: CUDA → HIP support")
    assert "| `cuCaddf` | `hipCaddf` |" in complex_md
    assert complex_md.count("\n| `") == sum(1 for r in ruleset.rules if r.family == "complex")


def test_stats_plain(ruleset):
    result = run("--stats")
    assert result.exit_code == 0
    table = rows(result)
    header = table[0]
    assert header[:7] == ["family", *cli_rules._STATUSES, "total"]
    by_family = {r[0]: r for r in table[1:]}
    assert int(by_family["TOTAL"][6]) == len(ruleset)
    runtime = [r for r in ruleset.rules if r.family == "runtime"]
    assert int(by_family["runtime"][6]) == len(runtime)
    assert int(by_family["runtime"][header.index("function")]) == sum(1 for r in runtime if r.kind == "function")


def test_invalid_rules_dir_reports_file_and_entry(tmp_path):
    (tmp_path / "broken.toml").write_text('[rules]\ncudaFoo = { hip = "hipFoo", kind = "verb" }\n', encoding="utf-8")
    result = run("--rules-dir", str(tmp_path))
    assert result.exit_code == 1
    assert "broken.toml: rule 'cudaFoo': unknown kind 'verb'" in result.stderr


def test_rich_table_on_a_terminal(monkeypatch):
    monkeypatch.setattr(cli_rules, "_is_tty", lambda: True)
    result = run("cudaStreamPerThread")
    assert result.exit_code == 0
    assert "cudaStreamPerThread" in result.stdout and "hipStreamPerThread" in result.stdout
    assert "\t" not in result.stdout  # a drawn table, not the plain listing
    assert "1 rule(s)" in result.stdout


def test_module_import_stays_light():
    code = (
        "import sys, hipport.cli_rules; "
        "print(sorted(m for m in ('rich', 'jinja2', 'tomllib', 'hipport.rules') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_rich_table_prints_notes_verbatim(tmp_path, monkeypatch):
    monkeypatch.setattr(cli_rules, "_is_tty", lambda: True)
    (tmp_path / "n.toml").write_text(
        '[rules]\ncudaOld = { hip = "hipOld", status = "deprecated", note = "[Deprecated] use [bold]hipNew" }\n', encoding="utf-8"
    )
    result = run("--rules-dir", str(tmp_path), "cudaOld")
    assert result.exit_code == 0, result.output
    flat = " ".join(result.stdout.split())
    assert "[Deprecated]" in flat and "[bold]hipNew" in flat


def test_markdown_shows_roc_column_only_when_a_family_has_roc_names(tmp_path):
    (tmp_path / "lib.toml").write_text(
        '[meta]\nfamily = "blas"\n[rules]\ncublasFoo = { hip = "hipblasFoo", roc = "rocblas_foo" }\ncublasBar = { hip = "hipblasBar" }\n',
        encoding="utf-8",
    )
    (tmp_path / "rt.toml").write_text('[meta]\nfamily = "rt"\n[rules]\ncudaFoo = { hip = "hipFoo" }\n', encoding="utf-8")
    text = run("--rules-dir", str(tmp_path), "--markdown").stdout
    blas, rt = text.split("\n## blas\n")[1].split("\n## rt\n")
    assert "| CUDA | HIP | roc | kind |" in blas
    assert "| `cublasFoo` | `hipblasFoo` | `rocblas_foo` | function |" in blas
    assert "| `cublasBar` | `hipblasBar` |  | function |" in blas
    assert "| CUDA | HIP | kind |" in rt and "roc" not in rt


def test_committed_support_tables_are_current(tmp_path):
    """docs/support (linked from the README) is what `hipport rules --markdown` writes now."""
    from pathlib import Path

    from click.testing import CliRunner

    from hipport.cli import main

    result = CliRunner().invoke(main, ["rules", "--markdown", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    committed = Path(__file__).resolve().parent.parent / "docs" / "support"
    stale = [p.name for p in sorted(tmp_path.glob("*.md"))
             if not (committed / p.name).exists() or (committed / p.name).read_bytes() != p.read_bytes()]
    assert not stale, f"regenerate with: hipport rules --markdown -o docs/support ({stale})"
