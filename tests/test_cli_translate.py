"""``hipport translate`` as users run it: a real subprocess, hipify-clang's option spellings."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

import stat
import pytest

SRC = b"#include <cuda_runtime.h>\r\nint main() { float* p; cudaMalloc(&p, 4); cudaFree(p); return 0; }\r\n"
HIP = b"#include <hip/hip_runtime.h>\r\nint main() { float* p; hipMalloc(&p, 4); hipFree(p); return 0; }\r\n"


def run(*args, cwd=None, input=None):
    return subprocess.run([sys.executable, "-m", "hipport", "translate", *map(str, args)],
                          capture_output=True, cwd=cwd, input=input, timeout=120)


@pytest.fixture
def src(tmp_path):
    p = tmp_path / "a.cu"
    p.write_bytes(SRC)
    return p


def test_default_output_is_file_dot_hip(src):
    proc = run(src)
    assert proc.returncode == 0, proc.stderr
    assert (src.parent / "a.cu.hip").read_bytes() == HIP
    assert src.read_bytes() == SRC


def test_stdout_is_exactly_the_translation(src):
    proc = run("--stdout", src)
    assert proc.returncode == 0
    assert proc.stdout == HIP
    assert not (src.parent / "a.cu.hip").exists()


def test_output_file_and_single_dash_spellings(src, tmp_path):
    out = tmp_path / "o.hip"
    proc = run(f"-o={out}", "-roc", "-amap", "-experimental", "-print-stats", src)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == HIP
    assert b"converted" in proc.stdout


def test_o_dir(src, tmp_path):
    out = tmp_path / "out"
    proc = run("--o-dir", out, src)
    assert proc.returncode == 0, proc.stderr
    assert (out / "a.cu").read_bytes() == HIP


def test_inplace_keeps_prehip_backup_and_no_backup(src):
    assert run("--inplace", src).returncode == 0
    assert src.read_bytes() == HIP
    assert (src.parent / "a.cu.prehip").read_bytes() == SRC
    # a second run that changes the file again keeps the backup of the original (set BU)
    src.write_bytes(HIP + b"void f() { cudaDeviceSynchronize(); }\r\n")  # (the user's later CUDA edit)
    assert run("--inplace", src).returncode == 0
    assert src.read_bytes().endswith(b"hipDeviceSynchronize(); }\r\n") and (src.parent / "a.cu.prehip").read_bytes() == SRC
    src.write_bytes(SRC)
    (src.parent / "a.cu.prehip").unlink()
    assert run("--inplace", "--no-backup", src).returncode == 0
    assert src.read_bytes() == HIP and not (src.parent / "a.cu.prehip").exists()


def test_inplace_through_a_symlink_writes_the_target_and_backups_keep_the_mode(src):
    """The link stays a link (as `hipport convert --inplace` does); the backup has the input's mode."""
    os.chmod(src, 0o644)
    link = src.parent / "link.cu"
    link.symlink_to(src.name)
    assert run("--inplace", link).returncode == 0
    assert link.is_symlink() and src.read_bytes() == HIP
    backup = src.parent / "a.cu.prehip"
    assert backup.read_bytes() == SRC and stat.S_IMODE(backup.stat().st_mode) == 0o644


def test_hip_version_option_selects_the_target_release(tmp_path):
    """`--hip-version` (or hipify-style `-hip-version=`) names the HIP the output is for; a bad value
    is a usage error."""
    p = tmp_path / "g.cu"
    p.write_text("void f(cudaGraph_t g, cudaGraphNode_t* n, cudaGraphNodeParams* q) { cudaGraphAddNode(n, g, 0, 0, q); }\n")
    assert "[HP008]" in run("--stdout", "--hip-version", "5.2", p).stderr.decode()
    assert "[HP008]" not in run("--stdout", "-hip-version=latest", p).stderr.decode()
    assert run("--stdout", "--hip-version", "six", p).returncode == 2


def test_clang_arguments_after_double_dash_are_accepted(src):
    proc = run("--stdout", "--skip-excluded-preprocessor-conditional-blocks", src, "--",
               "-std=c++17", "-DFOO=1", "-I/nonexistent", "-ferror-limit=5", "-Xclang", "-fno-color")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == HIP


def test_defines_after_double_dash_select_preprocessor_branches(tmp_path):
    p = tmp_path / "b.cpp"
    # an excluded branch keeps its names renamed but gets no AST-level rewrite (HIP_SYMBOL), as hipify-clang
    p.write_bytes(b"#ifdef FOO\ncudaMemcpyToSymbol(a, h, 4);\n#else\ncudaMemcpyToSymbol(b, h, 4);\n#endif\n")
    proc = run("--stdout", "--skip-excluded-preprocessor-conditional-blocks", p, "--", "-DFOO")
    assert proc.stdout == (b"#include <hip/hip_runtime.h>\n#ifdef FOO\nhipMemcpyToSymbol(HIP_SYMBOL(a), h, 4);\n"
                           b"#else\nhipMemcpyToSymbol(b, h, 4);\n#endif\n")


def test_bad_files_reported_in_one_line_and_others_still_translated(tmp_path, src):
    binary = tmp_path / "bin.cu"
    binary.write_bytes(b"\x00\x01\x02cudaMalloc")
    missing = tmp_path / "missing.cu"
    loop = tmp_path / "loop.cu"
    os.symlink(loop, loop)
    proc = run(binary, missing, loop, src)
    assert proc.returncode == 1
    errors = [line for line in proc.stderr.decode().splitlines() if line.startswith("error:")]
    assert len(errors) == 3
    assert all(any(str(p) in e for e in errors) for p in (binary, missing, loop))
    assert (src.parent / "a.cu.hip").read_bytes() == HIP


def test_non_utf8_input_translated_byte_exactly(tmp_path):
    p = tmp_path / "latin.cu"
    p.write_bytes(b"// \xe9t\xe9\ncudaFree(0);\n")
    proc = run("--stdout", p)
    assert proc.returncode == 0
    assert proc.stdout == b'// \xe9t\xe9\n#include <hip/hip_runtime.h>\nhipFree(0);\n'


def test_usage_errors_exit_2(src, tmp_path):
    assert run().returncode == 2
    assert run("--bogus-option", src).returncode == 2
    assert run("-o", tmp_path / "x", src, src).returncode == 2
    assert run("--stdout", "--inplace", src).returncode == 2
    assert run("--version-guards", "sometimes", src).returncode == 2


def test_warnings_on_stderr_compiler_style_and_quiet(tmp_path):
    p = tmp_path / "w.cu"
    p.write_bytes(b"__global__ void k(int* a) { a[threadIdx.x % 32] = 0; }\n")
    proc = run("--no-output", p)
    assert proc.returncode == 0
    first = proc.stderr.decode().splitlines()[0]
    assert first.startswith(f"{p}:1:") and ": warning: " in first and first.endswith("[HP010]")
    assert not (tmp_path / "w.cu.hip").exists()
    assert run("--no-output", "--quiet-warnings", p).stderr == b""


def test_examine_and_stats_csv(src, tmp_path):
    csv_path = tmp_path / "stats.csv"
    proc = run("--examine", "--print-stats-csv", csv_path, src)
    assert proc.returncode == 0
    assert not (src.parent / "a.cu.hip").exists()
    rows = list(csv.reader(csv_path.open()))
    assert rows[0] == ["kind", "name", "count"]
    assert ["converted", "runtime function", "2"] in rows
    assert ["total", "files", "1"] in rows


def test_python_file_dispatches_to_torch_rules(tmp_path):
    pytest.importorskip("libcst")
    p = tmp_path / "m.py"
    p.write_bytes(b"import torch\nx = torch.zeros(2, device='hip')\n")
    proc = run("--stdout", p)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"import torch\nx = torch.zeros(2, device='cuda')\n"


def test_compilation_database_defines_select_branches(tmp_path):
    import json

    p = tmp_path / "c.cpp"
    p.write_bytes(b"#ifdef FROM_DB\ncudaMemcpyToSymbol(a, h, 4);\n#else\ncudaMemcpyToSymbol(b, h, 4);\n#endif\n")
    build = tmp_path / "build"
    build.mkdir()
    (build / "compile_commands.json").write_text(json.dumps([
        {"directory": str(build), "file": str(p), "command": "nvcc -DFROM_DB -I../inc -std=c++17 -c c.cpp"}]))
    proc = run("--stdout", "--skip-excluded-preprocessor-conditional-blocks", f"-p={build}", p)
    assert proc.returncode == 0, proc.stderr
    assert b"HIP_SYMBOL(a)" in proc.stdout and b"hipMemcpyToSymbol(b, h, 4);" in proc.stdout
    (build / "compile_commands.json").write_text("{not json")
    proc = run("--stdout", "-p", build, p)
    assert proc.returncode == 1 and b"compile_commands.json" in proc.stderr


def _project(tmp_path):
    """main.cu -> "util.cuh" (-> "inner/deep.h") and <api.h> from -I inc; <cuda.h> is a system header."""
    (tmp_path / "inner").mkdir()
    (tmp_path / "inc").mkdir()
    (tmp_path / "main.cu").write_bytes(b'#include "util.cuh"\n#include <api.h>\n#include <cuda.h>\n'
                                       b'#include "missing.h"\nint main() { cudaDeviceSynchronize(); }\n')
    (tmp_path / "util.cuh").write_bytes(b'#pragma once\n#include "inner/deep.h"\ninline void u() { cudaFree(0); }\n')
    (tmp_path / "inner" / "deep.h").write_bytes(b"inline void d() { cudaDeviceReset(); }\n")
    (tmp_path / "inc" / "api.h").write_bytes(b'#include "util.cuh"\ninline void a() { cudaGetLastError(); }\n')
    return tmp_path


def test_local_headers_are_translated_beside_the_input(tmp_path):
    root = _project(tmp_path)
    proc = run("--local-headers", "-I", root / "inc", root / "main.cu")
    assert proc.returncode == 0, proc.stderr
    assert b"hipDeviceSynchronize();" in (root / "main.cu.hip").read_bytes()
    assert b"hipFree(0);" in (root / "util.cuh.hip").read_bytes()
    assert b"hipGetLastError();" in (root / "inc" / "api.h.hip").read_bytes()
    assert not (root / "inner" / "deep.h.hip").exists()  # included by a header: only with -recursive
    assert (root / "util.cuh").read_bytes().endswith(b"cudaFree(0); }\n")  # the source is untouched


def test_local_headers_recursive_follow_the_headers_includes(tmp_path):
    root = _project(tmp_path)
    out = root / "out"
    proc = run("-local-headers-recursive", "--o-dir", out, "-I", root / "inc", root / "main.cu")
    assert proc.returncode == 0, proc.stderr
    # the layout is kept, so "inner/deep.h" and -I inc still resolve from the translated files
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert written == ["inc/api.h", "inner/deep.h", "main.cu", "util.cuh"]
    assert b"hipDeviceReset();" in (out / "inner" / "deep.h").read_bytes()


def test_local_headers_are_found_through_include_dirs_after_the_double_dash(tmp_path):
    """`-- -Iinc` (the compiler's own spelling, as hipify-clang users write it) finds <api.h> too."""
    root = _project(tmp_path)
    out = root / "out"
    proc = run("--local-headers", "--o-dir", out, root / "main.cu", "--", f"-I{root / 'inc'}", "-std=c++17")
    assert proc.returncode == 0, proc.stderr
    assert b"hipGetLastError();" in (out / "inc" / "api.h").read_bytes()


def test_local_headers_in_a_parent_folder_keep_their_relative_path(tmp_path):
    (tmp_path / "common").mkdir()
    (tmp_path / "app").mkdir()
    (tmp_path / "common" / "util.h").write_bytes(b"inline void check(cudaError_t e) {}\n")
    (tmp_path / "app" / "main.cu").write_bytes(b'#include "../common/util.h"\nint main() { check(cudaFree(0)); }\n')
    out = tmp_path / "out"
    proc = run("--o-dir", out, "--local-headers", tmp_path / "app" / "main.cu")
    assert proc.returncode == 0, proc.stderr
    main = out / "app" / "main.cu"
    assert b'#include "../common/util.h"' in main.read_bytes()
    assert (main.parent / "../common/util.h").resolve().read_bytes().endswith(b"inline void check(hipError_t e) {}\n")


def test_local_headers_with_stdout_print_only_the_named_file(tmp_path):
    root = _project(tmp_path)
    proc = run("--local-headers", "--stdout", root / "main.cu")
    assert proc.returncode == 0, proc.stderr
    # (the runtime first: nvcc's implicit cuda_runtime.h precedes the project header, which may rely on it)
    assert proc.stdout.startswith(b'#include <hip/hip_runtime.h>\n#include "util.cuh"') and b"hipDeviceSynchronize();" in proc.stdout
    assert b"util.cuh" in proc.stderr and not list(root.glob("*.hip"))


def test_a_nul_byte_in_a_comment_is_text_one_in_code_is_binary(tmp_path):
    (tmp_path / "c.cu").write_bytes(b"// a\x00b\nvoid f() { cudaFree(0); }\n")
    (tmp_path / "b.cu").write_bytes(b"\x7fELF\x02\x01\x00\x00\x00cudaFree\n")
    proc = run("--stdout", tmp_path / "c.cu", tmp_path / "b.cu")
    assert b"hipFree(0)" in proc.stdout and b"\x00b" in proc.stdout
    assert b"b.cu: looks like a binary file" in proc.stderr and proc.returncode == 1


def test_o_dir_keeps_the_folders_of_inputs_that_share_a_name(tmp_path):
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "x.cu").write_bytes(b"#include <cuda_runtime.h>\nvoid f_" + sub.encode() + b"() { cudaFree(0); }\n")
    out = tmp_path / "out"
    proc = run("--o-dir", out, tmp_path / "a" / "x.cu", tmp_path / "b" / "x.cu")
    assert proc.returncode == 0, proc.stderr
    assert (out / "a" / "x.cu").read_bytes() == b"#include <hip/hip_runtime.h>\nvoid f_a() { hipFree(0); }\n"
    assert (out / "b" / "x.cu").read_bytes() == b"#include <hip/hip_runtime.h>\nvoid f_b() { hipFree(0); }\n"


def test_local_headers_take_a_project_header_named_like_cudas_beside_the_source(tmp_path):
    """darknet's src/cuda.h: kept as the project's include, and written with the translation."""
    (tmp_path / "cuda.h").write_bytes(b"#include <cuda_runtime.h>\n#define BLOCK 512\n")
    (tmp_path / "k.cu").write_bytes(b'#include "cuda.h"\nint main() { return cudaFree(0); }\n')
    out = tmp_path / "out"
    proc = run("--local-headers", "--o-dir", out, tmp_path / "k.cu")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.rglob("*") if p.is_file()) == ["cuda.h", "k.cu"]
    assert (out / "cuda.h").read_bytes() == b"#include <hip/hip_runtime.h>\n#define BLOCK 512\n"
    assert b'#include "cuda.h"' in (out / "k.cu").read_bytes()


def test_local_headers_never_take_cuda_headers_found_through_include_dirs(tmp_path):
    toolkit = tmp_path / "toolkit" / "include"
    toolkit.mkdir(parents=True)
    (toolkit / "cuda_runtime.h").write_bytes(b"cudaError_t cudaFree(void*);\n")
    (tmp_path / "k.cu").write_bytes(b'#include "cuda_runtime.h"\nint main() { return cudaFree(0); }\n')
    out = tmp_path / "out"
    proc = run("--local-headers", "--o-dir", out, "-I", toolkit, tmp_path / "k.cu")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.rglob("*") if p.is_file()) == ["k.cu"]


def test_new_output_files_get_the_umask_mode_and_in_place_keeps_the_files(tmp_path):
    """mkstemp's 0600 is for secrets: a translation is a source file like its input."""
    src = tmp_path / "k.cu"
    src.write_text("void f() { cudaDeviceSynchronize(); }\n")
    os.chmod(src, 0o640)
    old = os.umask(0o022)
    try:
        assert run(src).returncode == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "k.cu.hip").stat().st_mode) == 0o644
    assert run("--inplace", src).returncode == 0
    assert stat.S_IMODE(src.stat().st_mode) == 0o640


def test_unwritable_stats_csv_and_stdout_are_one_line_errors(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text("void f() { cudaDeviceSynchronize(); }\n")
    done = run("--stdout", "--print-stats-csv", tmp_path, src)
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    assert f"error: {tmp_path}: cannot write the statistics".encode() in done.stderr
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            done = subprocess.run([sys.executable, "-m", "hipport", "translate", "--stdout", str(src)],
                                  stdout=full, stderr=subprocess.PIPE, text=True)
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert "error: <stdout>: cannot write the translation" in done.stderr


def test_local_headers_beside_their_sources_come_with_a_note(tmp_path):
    (tmp_path / "h.cuh").write_text("inline cudaError_t s() { return cudaDeviceSynchronize(); }\n")
    (tmp_path / "a.cu").write_text('#include "h.cuh"\nint a() { return (int)s(); }\n')
    done = run("--local-headers", tmp_path / "a.cu")
    assert done.returncode == 0 and (tmp_path / "h.cuh.hip").exists()
    assert b"still include the original names" in done.stderr
    assert b"still include" not in run("--local-headers", "--o-dir", tmp_path / "out", tmp_path / "a.cu").stderr


def test_version_guard_policies_are_spelled_as_lint_takes_them(tmp_path):
    src = tmp_path / "v.cu"
    src.write_text("#if CUDA_VERSION >= 12000\n#define B 1\n#endif\n")
    done = run("--stdout", "--version-guards", "include-rocm-since=6.2", src)
    assert done.returncode == 0 and b"ROCM_VERSION >= 60200" in done.stdout
    assert run("--stdout", "--version-guards", "include-rocm-since=x", src).returncode == 2


def test_outputs_never_take_an_input_file_s_place(src):
    """(set BY) `--o-dir` naming the input's folder or `-o` naming the input would be an in-place
    write without its backup; `--print-stats-csv a.cu b.cu` (hipify-clang's bare flag) would write
    the statistics over a.cu; `-o=` from an unset make variable is no name."""
    other = src.parent / "b.cu"
    other.write_bytes(SRC)
    for args in (("--o-dir", src.parent, src), ("-o", src, src)):
        proc = run(*args)
        assert proc.returncode == 1 and b"would overwrite the input" in proc.stderr and src.read_bytes() == SRC
    proc = run("--print-stats-csv", src, other)
    assert proc.returncode == 2 and src.read_bytes() == SRC and not (other.parent / "b.cu.hip").exists()
    assert run("-o=", src).returncode == 2 and not (src.parent / "a.cu.hip").exists()


def test_llvm_boolean_values_and_the_default_preprocessor_synonym(tmp_path):
    """`-roc=false` / `--amap=true` (LLVM's cl::opt spellings); `--default-preprocessor` is
    hipify-clang's synonym of --skip-excluded-preprocessor-conditional-blocks."""
    p = tmp_path / "b.cu"
    p.write_bytes(b"#include <cublas_v2.h>\nvoid f(cublasHandle_t h) { cublasCreate(&h); }\n"
                  b"#if MODE == 2\nvoid g() { cudaMemcpyToSymbol(s, h, 4); }\n#endif\n")
    assert b"hipblasCreate(&h)" in run("--stdout", "-roc=false", p).stdout
    assert b"rocblas_create_handle(&h)" in run("--stdout", "--roc=true", p).stdout
    assert run("--stdout", "-roc=maybe", p).returncode == 2
    assert b"HIP_SYMBOL" in run("--stdout", p).stdout
    assert b"HIP_SYMBOL" not in run("--stdout", "--default-preprocessor", p).stdout


def test_a_python_input_that_does_not_parse_fails_the_run(tmp_path):
    p = tmp_path / "bad.py"
    p.write_bytes(b'import torch\nx = torch.device("hip"\n')
    proc = run("--no-output", p)
    assert proc.returncode == 1 and b"[HP000]" in proc.stderr


def test_special_files_are_written_into_and_owners_kept(src, tmp_path):
    """`-o /dev/stdout` and a FIFO are written into, not replaced; run as root on a user's file,
    --inplace keeps its owner (and the backup gets it)."""
    proc = run("-o", "/dev/stdout", src)
    assert proc.returncode == 0 and proc.stdout == HIP
    if os.geteuid() == 0:
        os.chown(src, 1234, 2345)
        assert run("--inplace", src).returncode == 0
        for path in (src, src.parent / "a.cu.prehip"):
            assert (path.stat().st_uid, path.stat().st_gid) == (1234, 2345)


def test_hipify_clang_options_hipport_lacks_are_usage_errors_and_no_output_means_none(src):
    """(set BY) `-perl` / `-python` are no `-p VALUE`; --no-output writes nothing, not even with
    --stdout; an unreadable input is reported and the others still translated."""
    for option in ("-perl", "-python"):
        proc = run(option, src)
        assert proc.returncode == 2 and b"no such option" in proc.stderr
    assert not list(src.parent.glob("-*")) and not (src.parent / "erl").exists()
    proc = run("--stdout", "--no-output", src)
    assert proc.returncode == 0 and proc.stdout == b""
    gone = src.parent / "missing.cu"
    proc = run(gone, src)
    assert proc.returncode == 1 and b"missing.cu" in proc.stderr and (src.parent / "a.cu.hip").read_bytes() == HIP


def test_hipify_clangs_statistics_file_option(src):
    """hipify-clang's bare `--print-stats-csv` with `--o-stats=FILE` (or `-o-stats=FILE`) names the CSV."""
    for flags in (("--print-stats-csv", "--o-stats=st.csv"), ("-print-stats-csv", "-o-stats", "st.csv")):
        proc = run(*flags, "--no-output", src.name, cwd=src.parent)
        assert proc.returncode == 0, proc.stderr
        rows = list(csv.reader((src.parent / "st.csv").open()))
        assert rows[0] == ["kind", "name", "count"] and src.read_bytes() == SRC
        (src.parent / "st.csv").unlink()
