"""Makefile conversion: nvcc → hipcc, flags translated in place, byte-exact elsewhere, and a
converted Makefile that really builds with make and hipcc."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from hipport.build.makefile import convert_makefile
from tests.conftest import require_tool

DATA = Path(__file__).parent / "data" / "build"


def conv(text: str, **kw) -> tuple[str, list]:
    out, diags = convert_makefile(text.encode("latin-1"), "Makefile", **kw)
    assert convert_makefile(out, "Makefile", **kw)[0] == out, "converting twice must change nothing"
    return out.decode("latin-1"), diags


def test_compiler_words_become_hipcc():
    out, _ = conv("NVCC ?= /usr/local/cuda/bin/nvcc\nNV2 := $(CUDA_PATH)/bin/nvcc\nCC = gcc\n"
                  "a.o: a.cu\n\tnvcc -c $< -o $@\n")
    # (nvcc compiles C++17 by default, Debian's hipcc 5.2 C++11: a Makefile that names no standard gets nvcc's)
    assert out == ("NVCC ?= hipcc -std=c++17\nNV2 := hipcc -std=c++17\nCC = gcc\na.o: a.cu\n"
                   "\thipcc -std=c++17 -c $< -o $@\n")
    # a standard the nvcc lines name (themselves or through their variables) stays theirs; g++'s is g++'s
    assert conv("NVFLAGS = -std=c++14\nk:\n\tnvcc $(NVFLAGS) -c k.cu\n")[0] == "NVFLAGS = -std=c++14\nk:\n\thipcc $(NVFLAGS) -c k.cu\n"
    assert conv("u:\n\tgcc -std=c99 u.c\nk:\n\tnvcc -c k.cu\n")[0] == "u:\n\tgcc -std=c99 u.c\nk:\n\thipcc -std=c++17 -c k.cu\n"


def test_flag_variables_and_recipes():
    out, diags = conv("NVCCFLAGS = -O3 --use_fast_math -Xcompiler -fPIC   -lineinfo\n"
                      "GENCODE_FLAGS := -gencode arch=compute_80,code=sm_80\n"
                      "k.o: k.cu\n\t$(NVCC) $(NVCCFLAGS) -rdc=true -Xptxas -v -c $< -o $@\n",
                      offload_arch="gfx90a")
    assert out == ("NVCCFLAGS = -O3 -ffast-math -fPIC   -gline-tables-only\n"
                   "GENCODE_FLAGS := --offload-arch=gfx90a\n"
                   "k.o: k.cu\n\t$(NVCC) $(NVCCFLAGS) -fgpu-rdc -c $< -o $@\n")
    assert [(d.code, d.line) for d in diags] == [("HB007", 2), ("HB002", 4)]
    assert diags[1].format().startswith("Makefile:4:")


def test_continuation_lines_and_comments_survive():
    text = ("FLAGS_NVCC = -O2 \\\n\t-gencode arch=compute_70,code=sm_70 \\\n"
            "\t-gencode arch=compute_80,code=sm_80 # keep -lineinfo here\n")
    out, _ = conv(text, offload_arch="gfx942")
    assert out == ("FLAGS_NVCC = -O2 \\\n\t--offload-arch=gfx942 \\\n\t # keep -lineinfo here\n")


def test_link_libraries_in_a_cuda_makefile():
    out, _ = conv("LDLIBS = -L/opt/lib -lcudart -lcublas -lm\napp: a.o\n\tnvcc $^ $(LDLIBS) -o $@\n")
    assert out.startswith("LDLIBS = -L/opt/lib -lhipblas -lm\n")  # read by nvcc only: hipcc links HIP's runtime


def test_host_compiler_and_linker_lines_of_a_cuda_program():
    """BART's shape: C files compiled by gcc against CUDA's headers, linked by gcc with -lcudart."""
    text = ("CUDA_H := -I$(CUDA_BASE)/include\nCPPFLAGS += -DUSE_CUDA $(CUDA_H)\n"
            "CUDA_L := -L$(CUDA_BASE)/lib64 -lcudart -lcufft -lstdc++\n"
            "app: main.o\n\t$(CC) -o $@ $^ $(CUDA_L) -lcuda\n")
    out, diags = conv(text)
    assert out == ("CUDA_H := -I$(CUDA_BASE)/include -D__HIP_PLATFORM_AMD__\nCPPFLAGS += -DUSE_CUDA $(CUDA_H)\n"
                   "CUDA_L := -L$(CUDA_BASE)/lib64 -lamdhip64 -lhipfft -lstdc++\n"
                   "app: main.o\n\t$(CC) -o $@ $^ $(CUDA_L) -lamdhip64\n")


def test_non_cuda_makefile_unchanged():
    text = "CFLAGS = -O2 -Wall -I/opt/include\nLDLIBS = -lcurl -lm\nall:\n\t$(CC) $(CFLAGS) main.c # nvcc-free\n"
    out, diags = conv(text)
    assert out == text and diags == []


def test_cuda_samples_makefile_template():
    """Flags in variables an nvcc line expands (ALL_CCFLAGS), -gencode built by $(foreach … $(eval …)),
    host flags through $(addprefix -Xcompiler ,…), and nvcc inside a $(shell … | grep …) pipeline."""
    text = ("NVCC := $(CUDA_PATH)/bin/nvcc -ccbin $(HOST_COMPILER)\nCCFLAGS := -fPIC\n"
            "ALL_CCFLAGS := -m64 --threads 0 --std=c++14\nALL_CCFLAGS += $(addprefix -Xcompiler ,$(CCFLAGS))\n"
            "ALL_LDFLAGS := $(ALL_CCFLAGS) $(addprefix -Xlinker ,$(LDFLAGS))\n"
            "$(foreach sm,$(SMS),$(eval GENCODE_FLAGS += -gencode arch=compute_$(sm),code=sm_$(sm)))\n"
            "VER := $(shell nvcc --version | grep -m 1 release | sed -e 's/x/y/')\n"
            "k.o: k.cu\n\t$(NVCC) $(ALL_CCFLAGS) $(GENCODE_FLAGS) -o $@ -c $<\n"
            "k: k.o\n\t$(NVCC) $(ALL_LDFLAGS) $(GENCODE_FLAGS) -o $@ $+\n")
    out, _ = conv(text, offload_arch="gfx90a")
    assert out == ("NVCC := hipcc\nCCFLAGS := -fPIC\n"
                   "ALL_CCFLAGS := -m64 -std=c++14\nALL_CCFLAGS += $(CCFLAGS)\n"
                   "ALL_LDFLAGS := $(ALL_CCFLAGS) $(addprefix -Xlinker ,$(LDFLAGS))\n"
                   "$(foreach sm,$(SMS),$(eval GENCODE_FLAGS += --offload-arch=gfx90a))\n"
                   "VER := $(shell hipcc --version | grep -m 1 release | sed -e 's/x/y/')\n"
                   "k.o: k.cu\n\t$(NVCC) $(ALL_CCFLAGS) $(GENCODE_FLAGS) -o $@ -c $<\n"
                   "k: k.o\n\t$(NVCC) $(ALL_LDFLAGS) $(GENCODE_FLAGS) -o $@ $+\n")


def test_relocatable_device_code_is_device_linked_at_the_link_lines():
    text = ("ALL_CCFLAGS := -O2\nALL_LDFLAGS := $(ALL_CCFLAGS)\nALL_CCFLAGS += -dc\n"
            "d.o: d.cu\n\t$(NVCC) $(ALL_CCFLAGS) -o $@ -c $<\napp: d.o m.o\n\t$(NVCC) $(ALL_LDFLAGS) -o $@ $+\n"
            "app2: d2.o\n\tnvcc d2.o -o app2\nd2.o: d.cu\n\tnvcc -rdc=true -c d.cu -o d2.o\n")
    out, _ = conv(text)
    assert "ALL_CCFLAGS += -fgpu-rdc -c\n" in out
    assert "\t$(NVCC) $(ALL_CCFLAGS) -o $@ -c $<\n" in out  # a compile line: as it was
    assert "\t$(NVCC) -fgpu-rdc --hip-link $(ALL_LDFLAGS) -o $@ $+\n" in out
    assert "\thipcc -std=c++17 -fgpu-rdc --hip-link d2.o -o app2\n" in out


def test_a_shared_library_of_relocatable_objects_is_device_linked():
    """solanity's `nvcc --shared --output-file $@ $^` of -rdc=true objects: without clang's device
    link the .so has no device code, and every launch fails at run time."""
    text = ("NVCC=nvcc\n%.o: %.cu\n\t$(NVCC) -rdc=true -Xcompiler -fPIC -c $< -o $@\n"
            "libk.so: k.o d.o\n\t$(NVCC) -Xcompiler -fPIC --shared --output-file $@ $^\n")
    out, _ = conv(text)
    assert "\t$(NVCC) -fgpu-rdc --hip-link -fPIC -shared -o $@ $^\n" in out
    assert "\t$(NVCC) -fgpu-rdc -fPIC -c $< -o $@\n" in out


def test_a_library_variable_shared_by_gxx_and_nvcc_lines_names_hips_runtime():
    """Oxford's CUDA course: `LIB := … -lcudart` on a g++ link line and on an nvcc line."""
    text = ("LIB := -L$(CUDA_HOME)/lib64 -lcudart\nINC := -I$(CUDA_HOME)/include -I.\n"
            "app: main.cpp k.o\n\tg++ -o app main.cpp k.o $(LIB)\nk.o: k.cu\n\tnvcc -c k.cu -o k.o $(INC)\n"
            "app2: main.cpp k.cu\n\tnvcc -o app2 main.cpp k.cu $(LIB)\n")
    out, _ = conv(text)
    assert out.startswith("LIB := -L$(CUDA_HOME)/lib64 -lamdhip64\nINC := -I$(CUDA_HOME)/include -I.\n")
    # cs344's `g++ -c main.cpp -I $(CUDA_INCLUDEPATH)`: the directory is the next word
    gxx = conv("m.o: m.cpp\n\tg++ -c m.cpp -I $(OPENCV_INC) -I $(CUDA_INCLUDEPATH)\n")[0]
    assert gxx == "m.o: m.cpp\n\tg++ -c m.cpp -I $(OPENCV_INC) -I $(CUDA_INCLUDEPATH) -D__HIP_PLATFORM_AMD__\n"


def test_cuda_samples_template_corners():
    """`-gencode` built by $(foreach) without $(eval), -Xcompiler through addprefix on a literal list,
    a CUDA include variable a host compiler reads too, the `nvcc -lib` step of an rdc build, the
    driver samples' libcuda.so probe, OpenMP through -Xcompiler and -lgomp, and a fatbin rule."""
    text = ("GEN := $(foreach sm,$(SMS),-gencode=arch=compute_$(sm),code=sm_$(sm))\n"
            "SHARED := $(addprefix -Xcompiler ,-shared -fPIC)\nCUDA_LIB := -I/usr/local/cuda/include\n"
            "CUDALIB ?= $(shell find -L $(CUDA_SEARCH_PATH) -maxdepth 1 -name libcuda.so 2> /dev/null)\n"
            "m.o: m.cu\n\tnvcc -dc $(CUDA_LIB) $(GEN) -Xcompiler -fopenmp -o m.o m.cu\n"
            "h.o: h.cpp\n\tg++ $(CUDA_LIB) -c h.cpp\nlib.a: m.o\n\tnvcc -lib -o lib.a m.o\n"
            "app: lib.a h.o\n\tnvcc $(GEN) $(SHARED) -o app lib.a h.o -lgomp\nk.fatbin: k.cu\n\tnvcc -fatbin -o k.fatbin k.cu\n")
    out, _ = conv(text, offload_arch="gfx90a")
    assert out == ("GEN := $(foreach sm,$(SMS),--offload-arch=gfx90a)\n"
                   "SHARED := -shared -fPIC\nCUDA_LIB := -I/usr/local/cuda/include -D__HIP_PLATFORM_AMD__\n"
                   "CUDALIB ?= $(shell find -L $(CUDA_SEARCH_PATH) $(wildcard $(ROCM_PATH)/lib /opt/rocm/lib "
                   "/usr/lib/*-linux-gnu /usr/lib64) -maxdepth 1 -name libamdhip64.so 2> /dev/null)\n"
                   "m.o: m.cu\n\thipcc -std=c++17 -fgpu-rdc -c $(CUDA_LIB) $(GEN) -fopenmp -o m.o m.cu\n"
                   "h.o: h.cpp\n\tg++ $(CUDA_LIB) -c h.cpp\nlib.a: m.o\n\thipcc -std=c++17 --emit-static-lib -o lib.a m.o\n"
                   "app: lib.a h.o\n\thipcc -std=c++17 -fgpu-rdc --hip-link $(GEN) $(SHARED) -o app lib.a h.o -fopenmp\n"
                   "k.fatbin: k.cu\n\thipcc -std=c++17 --genco -o k.fatbin k.cu\n")


def test_driver_probe_finds_hips_runtime_library_with_make(tmp_path):
    """cuda-samples' driver samples build only where `find` sees the library: after conversion the probe
    searches HIP's library directories too, so make on this machine finds libamdhip64.so."""
    make = require_tool("make")
    require_tool("hipcc")
    text = ("CUDA_SEARCH_PATH ?= $(CUDA_PATH)/lib64/stubs\n"
            "CUDALIB ?= $(shell find -L $(CUDA_SEARCH_PATH) -maxdepth 1 -name libcuda.so 2> /dev/null)\n"
            "all:\n\t@echo found=$(CUDALIB)\n")
    out, _ = conv(text)
    assert conv(out)[0] == out
    (tmp_path / "Makefile").write_text(out)
    result = subprocess.run([make, "-s", "CUDA_PATH=/nonexistent"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0 and "libamdhip64.so" in result.stdout, result.stdout + result.stderr


def test_a_compiler_variable_of_any_name_gets_its_flags_converted():
    """HeCBench: `CC = nvcc`, `$(CC) $(CFLAGS)`; also a variable naming another (`GPU = $(CC)`)."""
    text = ("CC = nvcc\nGPU = $(CC)\nCFLAGS := -std=c++17 -Xcompiler -Wall -arch=$(ARCH) --extended-lambda\n"
            "LDFLAGS = -use_fast_math\nCXXFLAGS = -O2 -Wall\n"
            "main: main.o\n\t$(GPU) $(LDFLAGS) $< -o $@\nmain.o: main.cu\n\t$(CC) $(CFLAGS) -c $< -o $@\n"
            "host.o: host.cpp\n\tg++ $(CXXFLAGS) -c $<\n")
    out, _ = conv(text, offload_arch="gfx90a")
    assert out == ("CC = hipcc\nGPU = $(CC)\nCFLAGS := -std=c++17 -Wall --offload-arch=gfx90a\n"
                   "LDFLAGS = -ffast-math\nCXXFLAGS = -O2 -Wall\n"
                   "main: main.o\n\t$(GPU) $(LDFLAGS) $< -o $@\nmain.o: main.cu\n\t$(CC) $(CFLAGS) -c $< -o $@\n"
                   "host.o: host.cpp\n\tg++ $(CXXFLAGS) -c $<\n")


def test_werror_kinds_as_the_next_word_and_cudafe_options():
    """`-Werror cross-execution-space-call` (nvcc's kind list as a separate word) and `-Xcudafe "--diag_suppress=…"`."""
    out, diags = conv('CC = /usr/bin/nvcc\nCFLAGS = -Werror cross-execution-space-call -lm -Xcudafe "--diag_suppress=177"\n'
                      "F2 = -Werror -O2\nall:\n\t$(CC) $(CFLAGS) $(F2) -o x x.cu\n")
    assert out.startswith("CC = hipcc -std=c++17\nCFLAGS = -lm\nF2 = -Werror -O2\n")
    assert any(d.code == "HB002" and "Xcudafe" in d.message for d in diags)


def test_a_makefile_fragment_with_gpu_flags_is_converted():
    """fletcher-io's flags.mk: `GPUCC=$(NVCC)` and `GPUCFLAGS=…`, run by a Makefile that includes it."""
    out, _ = conv("GPUCC=$(NVCC)\nGPUCFLAGS=-Xptxas=\"-v\" --maxrregcount 127 --gpu-architecture sm_75\n", offload_arch="gfx90a")
    assert out == "GPUCC=$(NVCC)\nGPUCFLAGS= --offload-arch=gfx90a\n"


def test_crlf_and_latin1_bytes_preserved():
    data = b"# \xe9t\xe9\r\nNVCCFLAGS = --use_fast_math -std=c++17\r\nall:\r\n\tnvcc x.cu\r\n"
    out, _ = convert_makefile(data, "Makefile")
    assert out == b"# \xe9t\xe9\r\nNVCCFLAGS = -ffast-math -std=c++17\r\nall:\r\n\thipcc x.cu\r\n"


def test_converted_makefile_builds_with_hipcc(tmp_path):
    make = require_tool("make")
    require_tool("hipcc")
    src = tmp_path / "make_cuda"
    shutil.copytree(DATA / "make_cuda", src)
    makefile = src / "Makefile"
    out, diags = convert_makefile(makefile.read_bytes(), str(makefile), offload_arch="gfx90a")
    makefile.write_bytes(out)
    assert b"NVCC ?= hipcc" in out and b"-Xptxas" not in out and b"--offload-arch=gfx90a" in out
    assert any(d.code == "HB002" and "-Xptxas" in d.message for d in diags)
    # NVCC is set with ?=, so an NVCC from the environment would win: clear it
    env = {k: v for k, v in os.environ.items() if k != "NVCC"}
    env["HIP_PLATFORM"] = "amd"
    proc = subprocess.run([make, "-C", str(src), "saxpy.o"], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "hipcc" in proc.stdout and (src / "saxpy.o").stat().st_size > 0


def test_dropped_first_flag_leaves_single_spacing():
    out, diags = conv("NVCC = nvcc -ccbin g++ -arch=sm_70\nNVCCFLAGS = -ccbin g++ -O2 -std=c++14\nk:\n\tnvcc -ccbin g++\n",
                      offload_arch="gfx90a")
    assert out == "NVCC = hipcc --offload-arch=gfx90a\nNVCCFLAGS = -O2 -std=c++14\nk:\n\thipcc\n"
    assert [d.code for d in diags].count("HB002") == 3


def _make(src: Path, *targets: str) -> str:
    """Run make in *src* for AMD (HIP_PLATFORM=amd, no NVCC from the environment); its output."""
    make = require_tool("make")
    require_tool("hipcc")
    env = {k: v for k, v in os.environ.items() if k != "NVCC"}
    env["HIP_PLATFORM"] = "amd"
    proc = subprocess.run([make, "-C", str(src), *targets], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def _port_makefile(tmp_path: Path, makefile: str, sources: dict[str, str]) -> Path:
    """A CUDA Makefile project, its sources translated and its Makefile converted (twice: the
    second conversion must change nothing); the project directory."""
    from hipport import translate_source

    src = tmp_path / "proj"
    src.mkdir()
    for name, text in sources.items():
        (src / name).write_text(translate_source(text, path=name).text)
    out, _ = convert_makefile(makefile.encode(), "Makefile", offload_arch="gfx90a")
    assert convert_makefile(out, "Makefile", offload_arch="gfx90a")[0] == out
    (src / "Makefile").write_bytes(out)
    return src


def test_a_backtick_substitution_is_one_word_of_the_nvcc_line(tmp_path):
    """NVBit's ``NVCC=nvcc -ccbin=`which gcc` -D_FORCE_INLINES``: the substitution is -ccbin's value,
    dropped with it; `hipcc` keeps its space before the next word.  A backtick that closes the
    substitution nvcc runs in still ends nvcc's command."""
    out, diags = conv("NVCC=nvcc -ccbin=`which gcc` -D_FORCE_INLINES -std=c++14\nV=`nvcc -arch=sm_80 --version` -Xptxas\n",
                      offload_arch="gfx90a")
    assert out == "NVCC=hipcc -D_FORCE_INLINES -std=c++14\nV=`hipcc --offload-arch=gfx90a --version` -Xptxas\n"
    assert any(d.code == "HB002" and "-ccbin=`which gcc`" in d.message for d in diags)
    src = _port_makefile(tmp_path, "NVCC=nvcc -ccbin=`which gcc` -D_FORCE_INLINES\n"
                         "k.o: k.cu\n\t$(NVCC) -std=c++17 -arch=sm_80 -c $< -o $@\n",
                         {"k.cu": "__global__ void k(int* o) { o[0] = 1; }\n"})
    _make(src, "k.o")
    assert (src / "k.o").stat().st_size > 0


def test_fatbinary_options_are_dropped_and_the_program_builds(tmp_path):
    """pytorch's `-Xfatbin -compress-all`: nvcc's packager option, an unknown argument to clang."""
    out, diags = conv("NVCCFLAGS = -O3 -Xfatbin -compress-all -arch=sm_80\n", offload_arch="gfx90a")
    assert out == "NVCCFLAGS = -O3 --offload-arch=gfx90a\n"
    assert any(d.code == "HB002" and "-Xfatbin -compress-all" in d.message for d in diags)
    src = _port_makefile(tmp_path, "NVCC = nvcc\nNVCCFLAGS = -O3 -Xfatbin -compress-all -arch=sm_80\n"
                         "k.o: k.cu\n\t$(NVCC) $(NVCCFLAGS) -c $< -o $@\n",
                         {"k.cu": "__global__ void k(int* o) { o[0] = 1; }\n"})
    _make(src, "k.o")


def test_flags_reached_through_a_computed_variable_name_are_converted(tmp_path):
    """solanity's gpu-common.mk: `CFLAGS:=$(CFLAGS_$V)`, read by the nvcc line as $(CFLAGS)."""
    makefile = ("NVCC:=nvcc\nV=release\nCFLAGS_release:=--ptxas-options=-v -O3 -Xcompiler \"-Wall -fPIC\"\n"
                "CFLAGS_debug:=$(CFLAGS_release) -g -G\nCFLAGS:=$(CFLAGS_$(V))\n"
                "k.o: k.cu\n\t$(NVCC) -std=c++17 $(CFLAGS) -c $< -o $@\n")
    out, diags = conv(makefile, offload_arch="gfx90a")
    assert out == ("NVCC:=hipcc\nV=release\nCFLAGS_release:= -O3 -Wall -fPIC\nCFLAGS_debug:=$(CFLAGS_release) -g -ggdb\n"
                   "CFLAGS:=$(CFLAGS_$(V))\n"
                   "k.o: k.cu\n\t$(NVCC) -std=c++17 $(CFLAGS) -c $< -o $@\n")
    assert any(d.code == "HB002" and "--ptxas-options=-v" in d.message for d in diags)
    src = _port_makefile(tmp_path, makefile, {"k.cu": "__global__ void k(int* o) { o[0] = 1; }\n"})
    _make(src, "k.o")


def test_a_fragment_holding_nvcc_only_options_is_converted_without_its_nvcc_line():
    """solanity's gpu-common.mk: the flags live in an included fragment, the nvcc line in the
    Makefile that includes it; options only nvcc takes mark the variable as nvcc's."""
    text = ('GPU_CFLAGS:=--gpu-architecture=compute_70\n'
            'CFLAGS_release:=--ptxas-options=-v $(GPU_CFLAGS) -O3 -Xcompiler "-Wall -fPIC"\n'
            'CFLAGS:=$(CFLAGS_$V)\nHOST_CFLAGS:=-O2 -Wall\n')
    out, diags = conv(text)
    assert "CFLAGS_release:= $(GPU_CFLAGS) -O3 -Wall -fPIC\n" in out and "HOST_CFLAGS:=-O2 -Wall\n" in out
    assert any(d.code == "HB002" and "ptxas" in d.message for d in diags)


def test_a_path_lookup_of_nvcc_keeps_the_flags_outside_the_shell_call():
    """`NVCC := $(shell which nvcc)` (10 Makefiles in the index): `which` prints a path, so the
    standard nvcc compiles by default goes after the call, not into `which`'s arguments."""
    out, _ = conv("NVCC := $(shell which nvcc)\nk: k.cu\n\t$(NVCC) -O3 k.cu -o k\n")
    assert out.startswith("NVCC := $(shell which hipcc) -std=c++17\n")
    out, diags = conv("NVCC=$(shell command -v nvcc) -ccbin=g++ -arch=sm_80\n")
    assert out == "NVCC=$(shell command -v hipcc) -std=c++17 --offload-arch=gfx90a\n"
    assert any(d.code == "HB002" and "-ccbin" in d.message for d in diags)


def test_a_quoted_nvcc_path_in_a_compiler_variable_becomes_hipcc():
    """(set BJ, jamie_search) `NVCC :="/usr/local/cuda/bin/nvcc"`: the quotes made it text, and make ran
    the real nvcc with HIP's flags; the std flag goes after the closing quote.  An echo stays text."""
    from hipport import convert_makefile

    src = ('NVCC :="/usr/local/cuda/bin/nvcc"\nCC := "nvcc"\nall:\n\t@echo "nvcc"\n'
           "\t$(NVCC) -arch sm_80 -c a.cu\n\t$(CC) -c b.cu\n")
    out = convert_makefile(src)[0]
    assert 'NVCC :="hipcc" -std=c++17\nCC := "hipcc" -std=c++17\n' in out and '@echo "nvcc"' in out
    assert convert_makefile(out)[0] == out
