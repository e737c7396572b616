"""nvcc → hipcc flag translation: table completeness, syntax forms, mappings, idempotence, and
hipcc actually accepting what comes out."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.build.nvcc_flags import (DEFAULT_OFFLOAD_ARCH, default_offload_arch, parse_offload_arch, table, translate_flag_string,
                                      translate_nvcc_flags, translate_nvcc_flags_ex)
from hipport.diagnostics import CODES

DATA = Path(__file__).parent / "data" / "build"
ARCH = [f"--offload-arch={t}" for t in default_offload_arch()]
from hipport.build.nvcc_flags import _native_target_known  # noqa: E402


def tr(cmd: str, **kw) -> list[str]:
    return translate_nvcc_flags(cmd.split(), **kw)


def codes(cmd: str) -> list[str]:
    return [n.code for n in translate_nvcc_flags_ex(cmd.split()).notes]


def _snapshot() -> list[tuple[str, str]]:
    rows = []
    for line in (DATA / "nvcc-13.0-options.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            long, short = line.split()
            rows.append((long, short))
    return rows


def test_table_covers_every_documented_nvcc_option():
    tab = table()
    rows = _snapshot()
    assert len(rows) > 140
    missing = [long for long, _ in rows if long not in tab.by_name]
    assert missing == []
    # the short spelling resolves to the same entry as the long one
    mismatched = [(long, short) for long, short in rows if tab.by_name.get(short) is not tab.by_name[long]]
    assert mismatched == []


def test_snapshot_matches_installed_nvcc():
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("no nvcc on this machine; the stored option list is used instead")
    out = subprocess.run([nvcc, "--help"], capture_output=True, text=True, timeout=60).stdout
    longs = {line.split()[0][2:] for line in out.splitlines() if line.startswith("--")}
    assert {long for long, _ in _snapshot()} <= longs | {"no-align-double"}
    assert not [o for o in longs if o not in table().by_name]


def test_every_table_action_is_known_and_documented():
    for name, opt in table().by_name.items():
        assert opt.action in {"map", "values", "drop", "warn", "arch", "split", "library"}, name
        if opt.action in ("drop", "warn"):
            assert opt.why, f"{name}: a dropped option must say why"
        if opt.action == "map":
            assert opt.to, name
    for code in ("HB002", "HB003", "HB006", "HB007"):
        assert code in CODES


@pytest.mark.parametrize("cmd,expected", [
    ("-arch=sm_80", ARCH),
    ("-arch sm_80", ARCH),
    ("--gpu-architecture=compute_90", ARCH),
    ("-gencode arch=compute_70,code=sm_70 -gencode=arch=compute_80,code=[sm_80,compute_80]", ARCH),
    # (the building machine's GPUs where the compiler knows `native`, LLVM 16 on; else the target list)
    ("-arch=native", ["--offload-arch=native"] if _native_target_known() else ARCH),
    ("--use_fast_math", ["-ffast-math"]),
    ("-use_fast_math", ["-ffast-math"]),
    ("-rdc=true", ["-fgpu-rdc"]),
    ("--relocatable-device-code true", ["-fgpu-rdc"]),
    ("-rdc=false", ["-fno-gpu-rdc"]),
    ("-Xcompiler -fPIC,-Wall", ["-fPIC", "-Wall"]),
    ("-Xcompiler=-O2,-g", ["-O2", "-g"]),
    ("--compiler-options -fopenmp", ["-fopenmp"]),
    ("-lineinfo", ["-gline-tables-only"]),
    ("--expt-relaxed-constexpr --extended-lambda --expt-extended-lambda", []),
    ("-x cu", ["-x", "hip"]),
    ("-ptx", ["--genco"]),  # a file cuModuleLoad reads: hipModuleLoad reads a code object bundle
    ("--fatbin", ["--genco"]),
    ("-std=c++17 -O3", ["-std=c++17", "-O3"]),
    ("--std c++20", ["-std=c++20"]),
    ("-Iinc -I inc2 -I=a,b -DX=1 -D Y -UZ", ["-Iinc", "-Iinc2", "-Ia", "-Ib", "-DX=1", "-DY", "-UZ"]),
    ("-L/opt/lib -lfoo -lcublas -lcudart", ["-L/opt/lib", "-lfoo", "-lhipblas"]),
    ("-G", ["-ggdb"]),
    ("--default-stream per-thread", ["-fgpu-default-stream=per-thread"]),
    ("-default-stream=legacy", ["-fgpu-default-stream=legacy"]),
    ("-Werror cross-execution-space-call", []),
    # HIP's runtime functions are [[nodiscard]] (CUDA's are not): unchecked calls stay warnings
    ("-Werror all-warnings,reorder", ["-Werror", "-Wno-error=unused-result", "-Werror=reorder"]),
    ("-Xcompiler -Wall,-Werror", ["-Wall", "-Werror", "-Wno-error=unused-result"]),
    ("-ftz=true", ["-fgpu-flush-denormals-to-zero"]),
    ("-prec-div=false -prec-sqrt=false", ["-fno-hip-fp32-correctly-rounded-divide-sqrt"]),
    ("-prec-div=true", []),
    ("-fmad=false", ["-ffp-contract=off"]),
    ("--threads 4 -t=2 -split-compile 8", []),
    ("-dc", ["-fgpu-rdc", "-c"]),
    ("-c a.cu -o a.o", ["-c", "a.cu", "-o", "a.o"]),
    ("-MD -MF a.d -MT a.o", ["-MD", "-MF", "a.d", "-MT", "a.o"]),
    ("-isystem /x -include pre.h", ["-isystem", "/x", "-include", "pre.h"]),
    ("-Xlinker -rpath,/opt/lib", ["-Wl,-rpath,/opt/lib"]),
    ("-noeh -ftemplate-depth 300", ["-fno-exceptions", "-ftemplate-depth=300"]),
    ("-dlto", ["-foffload-lto"]),
    ("-m64 --machine 64", ["-m64", "-m64"]),
    ("$(NVCCFLAGS) ${EXTRA} file.cu", ["$(NVCCFLAGS)", "${EXTRA}", "file.cu"]),
])
def test_mappings(cmd, expected):
    assert tr(cmd) == expected


@pytest.mark.parametrize("cmd,code", [
    ("-Xptxas -v", "HB002"),
    ("--ptxas-options=-v,-O3", "HB002"),
    ("-Xfatbin -compress-all", "HB002"),  # (pytorch's; accepted by nvcc, though not in its --help)
    ("--fatbin-options=-compress-all", "HB002"),
    ("--maxrregcount=64", "HB002"),
    ("-maxrregcount 32", "HB002"),
    ("-ccbin g++-12", "HB002"),
    ("-diag-suppress 177,550", "HB002"),
    ("-cudart static", "HB002"),
    ("-dlink", "HB002"),
    ("-G", "HB006"),
    ("-arch=sm_80", "HB007"),
    ("-fsomething-gcc-only", None),
    ("--not-an-nvcc-option", "HB003"),
])
def test_dropped_and_approximate_flags_are_reported(cmd, code):
    got = codes(cmd)
    if code is None:
        assert got == []  # a host-compiler style flag passes without noise
    else:
        assert code in got
        assert all(c in CODES for c in got)


def test_dropped_flag_note_says_why_and_hints():
    notes = translate_nvcc_flags_ex(["--maxrregcount=64"]).notes
    assert len(notes) == 1
    assert "--maxrregcount=64" in notes[0].message and "dropped" in notes[0].message
    assert "__launch_bounds__" in notes[0].hint


def test_notes_out_parameter_and_no_printing(capsys):
    notes = []
    assert translate_nvcc_flags(["-Xptxas", "-v", "-O2"], notes=notes) == ["-O2"]
    assert [n.code for n in notes] == ["HB002"]
    assert capsys.readouterr() == ("", "")


def test_offload_arch_choice_and_validation():
    assert tr("-arch=sm_70", offload_arch="gfx1030") == ["--offload-arch=gfx1030"]
    assert tr("-arch=sm_70", offload_arch=["gfx90a", "gfx90a", "gfx942"]) == \
        ["--offload-arch=gfx90a", "--offload-arch=gfx942"]
    assert parse_offload_arch("gfx90a:xnack+;gfx942") == ("gfx90a:xnack+", "gfx942")
    with pytest.raises(ValueError, match="sm_80"):
        parse_offload_arch("sm_80")
    with pytest.raises(ValueError, match="empty"):
        parse_offload_arch(" , ")


def test_arch_flags_collapse_to_one_target_list_at_first_position():
    out = tr("-O2 -gencode arch=compute_70,code=sm_70 -c -gencode arch=compute_80,code=sm_80")
    assert out == ["-O2", *ARCH, "-c"]


def test_value_missing_is_reported_not_swallowing_next_flag():
    res = translate_nvcc_flags_ex(["-arch", "-O3"])
    assert res.flags == ["-O3"]
    assert any("missing its value" in n.message for n in res.notes)


CORPUS = [
    "-arch=sm_80 -O3 --use_fast_math -Xcompiler -fPIC,-Wall -rdc=true -lineinfo",
    "-gencode arch=compute_70,code=sm_70 --threads 4 -ccbin g++ -G --default-stream per-thread",
    "-Werror all-warnings,cross-execution-space-call -ftz=true -prec-div=false -fmad=true -x cu",
    "-Xlinker -rpath,/x -MD -MF a.d -isystem /i -include p.h -dc --extended-lambda -w -v -lcublas",
    "-std=c++17 -I. -DNDEBUG -noeh -Wreorder -Wno-deprecated-declarations -opt-info inline -keep",
]


@pytest.mark.parametrize("cmd", CORPUS)
def test_translation_is_idempotent_and_quiet_the_second_time(cmd):
    once = translate_nvcc_flags_ex(cmd.split())
    twice = translate_nvcc_flags_ex(once.flags)
    assert twice.flags == once.flags
    assert twice.notes == []


def test_flag_string_keeps_spacing_when_unchanged():
    assert translate_flag_string("  -O3   -g ")[0] == "  -O3   -g "
    assert translate_flag_string(" -O3  --use_fast_math")[0] == " -O3 -ffast-math"


def test_hipcc_accepts_every_translated_flag(tmp_path):
    """The translated command line of a kitchen-sink nvcc invocation is accepted by hipcc's
    driver (``-fsyntax-only`` keeps it fast: the driver still rejects any unknown option)."""
    from tests.conftest import require_tool

    hipcc = require_tool("hipcc")
    nvcc_args = ("-arch=sm_80 -O3 --use_fast_math -Xcompiler -fPIC,-Wall -rdc=true -lineinfo "
                 "--expt-relaxed-constexpr --extended-lambda -std=c++17 -ftz=true -prec-div=false "
                 "-prec-sqrt=false -fmad=false --default-stream per-thread -Werror all-warnings "
                 "-G -ftemplate-depth 500 -ftemplate-backtrace-limit 5 -noeh -Wreorder "
                 "-Wno-deprecated-declarations -x cu -dc -dlto -Xptxas -v --maxrregcount=64").split()
    flags = translate_nvcc_flags(nvcc_args, offload_arch="gfx90a")
    src = tmp_path / "k.cu"
    src.write_text("#include <hip/hip_runtime.h>\n"
                   "__global__ void k(float* x) { x[threadIdx.x] = 1.0f / x[0]; }\n"
                   "int main() { float* d; (void)hipMalloc(&d, 4); k<<<1, 1>>>(d); return 0; }\n")
    env = dict(os.environ, HIP_PLATFORM="amd")
    # hipcc adds its link libraries even with -fsyntax-only: silence clang's note about that
    proc = subprocess.run([hipcc, *flags, str(src), "-fsyntax-only", "-Wno-unused-command-line-argument"],
                          capture_output=True,
                          text=True, env=env, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "unknown argument" not in proc.stderr and "unsupported option" not in proc.stderr
    # the same driver does reject an option it does not know, so the check above can fail
    bad = subprocess.run([hipcc, "--offload-arch=gfx90a", "--use_fast_math", str(src), "-fsyntax-only"],
                         capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert bad.returncode != 0


def test_reading_the_output_again_gives_the_same_flags_for_tricky_spellings():
    # "-l ineinfo" must not come out as "-lineinfo" (which nvcc reads as --generate-line-info)
    assert tr("-l ineinfo") == ["-l", "ineinfo"]
    assert tr("-lineinfo,") == ["-lineinfo,"]  # malformed list: kept and noted, not guessed
    assert tr("---use_fast_math --Ifoo") == ["---use_fast_math", "--Ifoo"]  # not nvcc spellings
    assert tr("-Werror all-warnings a.cu") == ["-Werror", "-Wno-error=unused-result", "a.cu"]
    assert tr("-Werror -Wno-error=unused-result a.cu") == ["-Werror", "-Wno-error=unused-result", "a.cu"]
    assert tr("-Werror a.cu") == ["-Werror", "a.cu"]


def test_default_targets_leave_out_what_the_installed_hip_cannot_build(monkeypatch):
    """Debian's HIP 5.2 (LLVM 15) rejects gfx942: the default list is what the installed HIP builds."""
    import hipport.installed_hip as installed

    monkeypatch.setattr(installed, "installed_device_targets", lambda: None)
    monkeypatch.setattr(installed, "installed_hip_version", lambda: (5, 2))
    assert default_offload_arch() == ("gfx90a", "gfx1100")
    monkeypatch.setattr(installed, "installed_hip_version", lambda: (6, 2))
    assert default_offload_arch() == DEFAULT_OFFLOAD_ARCH
    monkeypatch.setattr(installed, "installed_hip_version", lambda: None)
    assert default_offload_arch() == DEFAULT_OFFLOAD_ARCH


def test_default_targets_leave_out_those_without_a_device_library(monkeypatch):
    """Debian's rocm-device-libs 5.2 has no gfx1100 bitcode, and hipcc refuses a target without it."""
    import hipport.installed_hip as installed

    monkeypatch.setattr(installed, "installed_hip_version", lambda: (6, 2))
    monkeypatch.setattr(installed, "installed_device_targets", lambda: frozenset({"gfx90a", "gfx942", "gfx908"}))
    assert default_offload_arch() == ("gfx90a", "gfx942")
    monkeypatch.setattr(installed, "installed_device_targets", lambda: frozenset({"gfx803"}))
    assert default_offload_arch() == DEFAULT_OFFLOAD_ARCH  # none of ours: better the list than nothing


def test_installed_device_targets_come_from_the_isa_bitcode_files(tmp_path, monkeypatch):
    import hipport.installed_hip as installed

    bitcode = tmp_path / "amdgcn" / "bitcode"
    bitcode.mkdir(parents=True)
    for name in ("ocml.bc", "oclc_isa_version_90a.bc", "oclc_isa_version_1030.bc"):
        (bitcode / name).write_bytes(b"")
    monkeypatch.setenv("ROCM_PATH", str(tmp_path))
    installed.installed_device_targets.cache_clear()
    try:
        assert installed.installed_device_targets() == {"gfx90a", "gfx1030"}
    finally:
        installed.installed_device_targets.cache_clear()
