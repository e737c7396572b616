"""End to end with real CMake: convert CUDA projects' CMake files, then configure and build them
with CMake's HIP language for gfx90a; and build a project that keeps CUDA sources through
``hipport_translate_sources``.

Debian/Ubuntu's packaged ROCm needs the ``HipportDebianROCm.cmake`` toolchain file shipped in
``hipport cmake-dir`` (CMake 3.25 looks for ``<rocm>/lib/cmake/hip-lang`` and clang's device
libraries under one ROCm root); with AMD's /opt/rocm no toolchain is needed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path


from hipport.build import cmake_dir, convert_cmake
from tests.conftest import require_tool

DATA = Path(__file__).parent / "data" / "build"


def _toolchain_args() -> list[str]:
    if Path("/opt/rocm/lib/cmake/hip-lang/hip-lang-config.cmake").exists():
        return []
    return [f"-DCMAKE_TOOLCHAIN_FILE={cmake_dir() / 'HipportDebianROCm.cmake'}"]


def _generator() -> list[str]:
    return ["-G", "Ninja"] if shutil.which("ninja") else ["-G", "Unix Makefiles"]


def _run(cmd: list[str], cwd: Path) -> str:
    env = dict(os.environ, HIP_PLATFORM="amd")
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return proc.stdout + proc.stderr


def _configure_and_build(src: Path, build: Path, *extra: str) -> str:
    cmake = require_tool("cmake")
    require_tool("hipcc")
    _run([cmake, "-S", str(src), "-B", str(build), *_generator(), *_toolchain_args(),
          "-DCMAKE_HIP_ARCHITECTURES=gfx90a", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", *extra], src)
    return _run([cmake, "--build", str(build), "-j", "2"], src)


def _convert_tree(src: Path) -> None:
    for path in src.rglob("CMakeLists.txt"):
        out, diags = convert_cmake(path.read_bytes(), str(path), offload_arch="gfx90a")
        assert all(d.severity != "error" for d in diags), [d.format() for d in diags]
        path.write_bytes(out)


def _compile_commands(build: Path) -> dict[str, str]:
    entries = json.loads((build / "compile_commands.json").read_text())
    return {Path(e["file"]).name: e["command"] for e in entries}


def test_converted_cmake_project_builds_for_gfx90a(tmp_path):
    src = tmp_path / "cmake_cuda"
    shutil.copytree(DATA / "cmake_cuda", src)
    _convert_tree(src)
    build = tmp_path / "build"
    _configure_and_build(src, build)
    assert (build / "demo").is_file()
    commands = _compile_commands(build)
    saxpy = commands["saxpy.cu"]
    assert "-x hip" in saxpy and "--offload-arch=gfx90a" in saxpy
    assert "-ffast-math" in saxpy and "-gline-tables-only" in saxpy
    assert "-std=c++17" in saxpy or "-std=gnu++17" in saxpy
    assert "-x hip" in commands["random.cu"]
    assert "-x hip" not in commands["main.cpp"]
    # the libraries the CUDA targets named are linked
    link = (build / "build.ninja").read_text() if (build / "build.ninja").exists() else ""
    if link:
        assert "libhiprand" in link and "libhipsparse" in link and "libamdhip64" in link


def test_converted_findcuda_project_builds(tmp_path):
    src = tmp_path / "findcuda"
    shutil.copytree(DATA / "findcuda", src)
    _convert_tree(src)
    build = tmp_path / "build"
    _configure_and_build(src, build)
    assert (build / "legacy").is_file()
    cmd = _compile_commands(build)["main.cu"]
    # CUDA_NVCC_FLAGS and cuda_add_executable's OPTIONS reached the HIP compile
    assert "-ffast-math" in cmd and "-gline-tables-only" in cmd and "-fPIC" in cmd
    assert f"-I{src / 'include'}" in cmd or f"-I {src / 'include'}" in cmd


def _port_project(tmp_path, name: str, cmakelists: str, sources: dict[str, str]):
    """A CUDA project (its CMakeLists.txt and sources), translated and converted, then configured
    and built for AMD; the build directory."""
    from hipport import translate_source

    src = tmp_path / name
    src.mkdir()
    (src / "CMakeLists.txt").write_text(cmakelists)
    for file, text in sources.items():
        (src / file).write_text(translate_source(text, path=file).text)
    _convert_tree(src)
    build = tmp_path / "build"
    _configure_and_build(src, build)
    return build


def test_cuda_only_project_with_separable_compilation_builds(tmp_path):
    """`project(x LANGUAGES CUDA)` (HIP's package needs a C++ compiler too), a plain
    `set(CMAKE_CUDA_FLAGS ...)` (the toolchain's flags must survive it), and a device function
    defined in another file (relocatable device code: CUDA_SEPARABLE_COMPILATION)."""
    build = _port_project(tmp_path, "rdc",
                          "cmake_minimum_required(VERSION 3.18)\nproject(rdc LANGUAGES CUDA)\n"
                          'set(CMAKE_CUDA_FLAGS "-O2 --use_fast_math")\nadd_executable(app main.cu dev.cu)\n'
                          "set_target_properties(app PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n",
                          {"dev.cu": "__device__ int twice(int x) { return 2 * x; }\n",
                           "main.cu": "extern __device__ int twice(int x);\n__global__ void k(int* o) { o[0] = twice(21); }\n"
                                        "int main() { int* d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); return cudaFree(d) != cudaSuccess; }\n"})
    assert (build / "app").is_file()
    assert "-fgpu-rdc" in _compile_commands(build)["dev.cu"]


def test_initial_cuda_flags_set_before_enable_language_build(tmp_path):
    """iEDA's cuda.cmake: `set(CMAKE_CUDA_FLAGS_INIT "-std=c++17")` then enable_language(CUDA), below
    the top level's project(): the HIP compiler check keeps the toolchain's flags, and the project's
    flag reaches the compile."""
    build = _port_project(tmp_path, "init",
                          "cmake_minimum_required(VERSION 3.18)\nproject(init LANGUAGES CXX)\n"
                          'set(CMAKE_CUDA_FLAGS_INIT "-std=c++17")\nenable_language(CUDA)\nadd_executable(app k.cu)\n',
                          {"k.cu": "__global__ void k(int* o) { o[0] = 1; }\nint main() { k<<<1, 1>>>(nullptr); return 0; }\n"})
    assert (build / "app").is_file()
    assert "-std=c++17" in _compile_commands(build)["k.cu"]


def test_a_target_linked_as_cuda_builds(tmp_path):
    """gloop's parboil samples: a .cu and a .c in one executable, `LINKER_LANGUAGE CUDA`."""
    build = _port_project(tmp_path, "linkas",
                          "cmake_minimum_required(VERSION 3.18)\nproject(linkas LANGUAGES C CXX CUDA)\n"
                          "add_executable(app main.cu util.c)\nset_target_properties(app PROPERTIES LINKER_LANGUAGE CUDA)\n",
                          {"main.cu": 'extern "C" int one(void);\n__global__ void k(int* o) { o[0] = 1; }\n'
                                      "int main() { k<<<1, 1>>>(nullptr); return one() - 1; }\n",
                           "util.c": "int one(void) { return 1; }\n"})
    assert (build / "app").is_file()


def test_findcuda_options_by_configuration_build(tmp_path):
    """`cuda_add_library(… OPTIONS -DUSE_CUDA="__USE_CUDA__" RELEASE … DEBUG …)`: the quoted define
    reaches the compile whole, and only the Release section applies to a Release build."""
    src = tmp_path / "cfg"
    src.mkdir()
    (src / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.10)\nproject(cfg CXX)\nfind_package(CUDA REQUIRED)\n"
        'cuda_add_library(k k.cu OPTIONS -DUSE_CUDA="__USE_CUDA__"\n  RELEASE -DREL -O3\n  DEBUG -DDEB -g -G)\n')
    (src / "k.cu").write_text('#include <hip/hip_runtime.h>\nstatic_assert(sizeof(USE_CUDA) == sizeof("__USE_CUDA__"), "define");\n'
                              "#if !defined(REL) || defined(DEB)\n#error wrong configuration\n#endif\n"
                              "__global__ void k(int* o) { o[0] = 1; }\n")
    _convert_tree(src)
    build = tmp_path / "build"
    _configure_and_build(src, build, "-DCMAKE_BUILD_TYPE=Release")
    assert (build / "libk.a").is_file()


def test_flags_appended_as_an_unquoted_list_build(tmp_path):
    """A vector_add tutorial's `set(CMAKE_CUDA_FLAGS ${CMAKE_CUDA_FLAGS} "-g -G")`."""
    build = _port_project(tmp_path, "selfref",
                          "cmake_minimum_required(VERSION 3.8)\nproject(selfref CUDA)\n"
                          'set(CMAKE_CUDA_FLAGS ${CMAKE_CUDA_FLAGS} "-g -G")\nadd_executable(app k.cu)\n',
                          {"k.cu": "__global__ void k(int* o) { o[0] = 1; }\nint main() { k<<<1, 1>>>(nullptr); return 0; }\n"})
    assert (build / "app").is_file()
    assert ";" not in _compile_commands(build)["k.cu"]


def test_sources_from_aux_source_directory_build(tmp_path):
    """`aux_source_directory(. SOURCES)` + `add_executable(vecadd ${SOURCES})` of a .cu and a .cpp."""
    build = _port_project(tmp_path, "aux",
                          "cmake_minimum_required(VERSION 3.17)\nproject(aux LANGUAGES CXX CUDA)\n"
                          "aux_source_directory(. SOURCES)\nadd_executable(vecadd ${SOURCES})\n",
                          {"k.cu": "__global__ void k(int* o) { o[0] = 1; }\nvoid run() { k<<<1, 1>>>(nullptr); }\n",
                           "main.cpp": "void run();\nint main() { run(); return 0; }\n"})
    assert (build / "vecadd").is_file()


def test_separable_static_library_used_by_a_cxx_executable_builds(tmp_path):
    """A static library of relocatable device code, linked into a C++ program (and a C++-only
    target marked separable, which CUDA ignores): the device link happens at the program."""
    build = _port_project(tmp_path, "sep",
                          "cmake_minimum_required(VERSION 3.21)\nproject(sep CUDA CXX)\nadd_library(kern STATIC kern.cu dev.cu)\n"
                          "set_target_properties(kern PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n"
                          "add_executable(app main.cpp)\ntarget_link_libraries(app kern)\n"
                          "add_executable(plain plain.cpp)\nset_target_properties(plain PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n",
                          {"dev.cu": "__device__ int twice(int x) { return 2 * x; }\n",
                           "kern.cu": "extern __device__ int twice(int x);\n__global__ void k(int* o) { o[0] = twice(21); }\n"
                                        'extern "C" int run() { int* d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); return cudaFree(d); }\n',
                           "main.cpp": 'extern "C" int run();\nint main() { return run() == 0 ? 0 : 1; }\n',
                           "plain.cpp": "int main() { return 0; }\n"})
    assert (build / "app").is_file() and (build / "plain").is_file()


def test_driver_api_sample_with_a_fatbin_custom_command_builds(tmp_path):
    """cuda-samples' vectorAddDrv shape: the kernel is compiled by a custom command for
    cuModuleLoad, the host program links the driver library."""
    build = _port_project(tmp_path, "drv",
                          "cmake_minimum_required(VERSION 3.20)\nproject(drv LANGUAGES CXX CUDA)\n"
                          "find_package(CUDAToolkit REQUIRED)\nadd_executable(drv main.cpp)\n"
                          "target_link_libraries(drv PUBLIC CUDA::cuda_driver)\nset(GENCODE_FLAGS \"\")\n"
                          "foreach(arch ${CMAKE_CUDA_ARCHITECTURES})\n"
                          '    list(APPEND GENCODE_FLAGS "-gencode=arch=compute_${arch},code=sm_${arch}")\nendforeach()\n'
                          "add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/k.fatbin\n"
                          "    COMMAND ${CMAKE_CUDA_COMPILER} -Wno-deprecated-gpu-targets ${GENCODE_FLAGS} "
                          "-o ${CMAKE_CURRENT_BINARY_DIR}/k.fatbin -fatbin ${CMAKE_CURRENT_SOURCE_DIR}/k.cu\n"
                          "    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/k.cu)\n"
                          "add_custom_target(fatbin ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/k.fatbin)\n"
                          "add_dependencies(drv fatbin)\n",
                          {"k.cu": 'extern "C" __global__ void inc(int* p) { ++p[0]; }\n',
                           "main.cpp": "#include <cuda.h>\nint main() { CUmodule m; CUfunction f; cuInit(0);\n"
                                       '  if (cuModuleLoad(&m, "k.fatbin") != CUDA_SUCCESS) return 1;\n'
                                       '  return cuModuleGetFunction(&f, m, "inc") != CUDA_SUCCESS; }\n'})
    assert (build / "drv").is_file()
    assert (build / "k.fatbin").read_bytes().startswith(b"__CLANG_OFFLOAD_BUNDLE__")  # AMD's, not nvcc's


def test_cxx_source_given_the_toolkit_include_directory_builds(tmp_path):
    """cuda-samples' CMake ports: a .cpp calling the runtime, given `${CUDAToolkit_INCLUDE_DIRS}`."""
    build = _port_project(tmp_path, "inc",
                          "cmake_minimum_required(VERSION 3.21)\nproject(inc LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit REQUIRED)\n"
                          "add_executable(app main.cpp k.cu)\ntarget_include_directories(app PRIVATE ${CUDAToolkit_INCLUDE_DIRS})\n",
                          {"k.cu": "__global__ void k(int* o) { o[0] = 1; }\nvoid run(int* o) { k<<<1, 1>>>(o); }\n",
                           "main.cpp": "#include <cuda_runtime.h>\nvoid run(int*);\n"
                                       "int main() { int* d; cudaMalloc(&d, 4); run(d); return cudaFree(d) != cudaSuccess; }\n"})
    assert (build / "app").is_file()


def test_hipport_translate_sources_keeps_cuda_as_source_of_truth(tmp_path):
    src = tmp_path / "keep_cuda"
    shutil.copytree(DATA / "keep_cuda", src)
    build = tmp_path / "build"
    first = _configure_and_build(src, build, f"-DHIPPORT_CMAKE_DIR={cmake_dir()}",
                                 f"-DHIPPORT_PYTHON={sys.executable}")
    assert "hipport: translating src/vector_add.cu" in first
    translated = build / "hipport" / "src" / "vector_add.cu"
    header = build / "hipport" / "src" / "check.cuh"
    assert b"hipMalloc" in translated.read_bytes() and b"cudaMalloc" not in translated.read_bytes()
    assert b"hipGetErrorString" in header.read_bytes()
    assert (build / "vadd").is_file()
    assert "--offload-arch=gfx90a" in _compile_commands(build)["vector_add.cu"]

    cmake = require_tool("cmake")
    again = _run([cmake, "--build", str(build)], src)
    assert "translating" not in again  # nothing changed: nothing re-runs

    source = src / "src" / "vector_add.cu"
    source.write_bytes(source.read_bytes().replace(b"1 << 10", b"1 << 12"))
    if (build / "build.ninja").exists():  # rebuild just the translation (saves a compile)
        third = _run([require_tool("ninja"), "-C", str(build), "hipport/src/vector_add.cu"], src)
    else:
        third = _run([cmake, "--build", str(build)], src)
    assert "hipport: translating src/vector_add.cu" in third
    assert "hipport: translating src/check.cuh" not in third
    assert b"1 << 12" in translated.read_bytes()


def test_translate_sources_rejects_bad_arguments(tmp_path):
    cmake = require_tool("cmake")
    src = tmp_path / "bad"
    src.mkdir()
    (src / "a.cu").write_text("int main() { return 0; }\n")
    (src / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.21)\nproject(bad LANGUAGES NONE)\n"
        f'list(APPEND CMAKE_MODULE_PATH "{cmake_dir()}")\ninclude(HipportTranslate)\n'
        "hipport_translate_sources(OUT SOURCES a.cu LANGUAGE CUDA)\n")
    proc = subprocess.run([cmake, "-S", str(src), "-B", str(tmp_path / "b")], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode != 0
    assert "LANGUAGE must be HIP or CXX" in proc.stderr
