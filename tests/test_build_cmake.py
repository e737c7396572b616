"""CMake conversion: the lexer, each converted construct, byte-exactness, idempotence and
diagnostics.  Real cmake builds of converted projects are in test_build_cmake_projects.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipport.build.nvcc_flags import default_offload_arch

from hipport.build import cmake_lexer as lx
from hipport.build.cmake import convert_cmake
from hipport.diagnostics import CODES

DATA = Path(__file__).parent / "data" / "build"


def conv(text: str, **kw) -> tuple[str, list]:
    out, diags = convert_cmake(text.encode("latin-1"), "CMakeLists.txt", **kw)
    again, _ = convert_cmake(out, "CMakeLists.txt", **kw)
    assert again == out, "converting twice must change nothing"
    return out.decode("latin-1"), diags


# ------------------------------------------------------------------ lexer

def test_lexer_commands_arguments_and_offsets():
    text = 'project(demo LANGUAGES CXX CUDA)\nset(X "a b" [==[ raw ) ]==] c\\ d)\n'
    cmds = lx.parse(text)
    assert [c.name for c in cmds] == ["project", "set"]
    args = cmds[1].args
    assert [a.kind for a in args] == [lx.UNQUOTED, lx.QUOTED, lx.BRACKET, lx.UNQUOTED]
    assert [a.value for a in args] == ["X", "a b", " raw ) ", "c\\ d"]
    for a in args:
        assert text[a.start:a.end] == a.text
    assert text[cmds[1].close] == ")"


def test_lexer_comments_are_not_commands_or_arguments():
    text = ('# project(x CUDA)\n#[[ enable_language(CUDA)\n ]]\n'
            'set(A # CUDA::cublas\n  #[=[ CUDA ]=] B)\n')
    cmds = lx.parse(text)
    assert [c.name for c in cmds] == ["set"]
    assert [a.value for a in cmds[0].args] == ["A", "B"]


def test_lexer_nested_parentheses_quotes_and_legacy_arguments():
    text = 'if((A OR B) AND "x)y")\nadd_definitions(-DX="a b" -DY=\\"z\\")\n'
    cmds = lx.parse(text)
    assert [t.kind for t in cmds[0].tokens] == ["(", lx.UNQUOTED, lx.UNQUOTED, lx.UNQUOTED, ")",
                                                lx.UNQUOTED, lx.QUOTED]
    assert [a.text for a in cmds[1].args] == ['-DX="a b"', '-DY=\\"z\\"']


def test_lexer_quoted_escapes_and_continuations():
    text = 'message("a \\" ) b\\\nc")\n'
    (cmd,) = lx.parse(text)
    assert len(cmd.args) == 1 and cmd.args[0].value == 'a \\" ) b\\\nc'


@pytest.mark.parametrize("text,fragment", [
    ("set(A", "missing ')'"),
    ('set(A "x)', "unterminated quoted"),
    ("set(A [[x)", "unterminated bracket argument"),
    ("#[[ never closed\nset(A)", "unterminated bracket comment"),
    ("set (A) )", "unexpected character"),
    ("foo bar", "expected '('"),
])
def test_lexer_errors_name_the_problem(text, fragment):
    with pytest.raises(lx.CMakeSyntaxError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        lx.parse(text)


# ------------------------------------------------------------------ constructs

def test_languages():
    out, _ = conv("cmake_minimum_required(VERSION 3.18...3.27)\nproject(p LANGUAGES CXX CUDA)\n"
                  "enable_language(CUDA)\ncheck_language(CUDA)\n")
    assert out == ("cmake_minimum_required(VERSION 3.21...3.27)\nproject(p LANGUAGES CXX HIP)\n"
                   "enable_language(HIP)\ncheck_language(HIP)\n")


def test_project_already_listing_hip_drops_cuda():
    out, _ = conv("project(p CXX HIP CUDA)\n")
    assert out == "project(p CXX HIP)\n"


def test_minimum_version_not_lowered_and_untouched_without_cuda():
    assert conv("cmake_minimum_required(VERSION 3.25)\nproject(p CUDA)\n")[0].startswith(
        "cmake_minimum_required(VERSION 3.25)")
    assert conv("cmake_minimum_required(VERSION 3.10)\nproject(p CXX)\n")[0].startswith(
        "cmake_minimum_required(VERSION 3.10)")


def test_cmake_cuda_variables_and_properties():
    out, diags = conv(
        "set(CMAKE_CUDA_STANDARD 17)\nset(CMAKE_CUDA_FLAGS_RELEASE \"-O3 --use_fast_math\")\n"
        "set_target_properties(t PROPERTIES CUDA_STANDARD 17 CUDA_EXTENSIONS OFF CUDA_ARCHITECTURES 80)\n"
        "set_property(TARGET t PROPERTY CUDA_ARCHITECTURES 70 80-real)\n"
        "set_source_files_properties(x.cpp PROPERTIES LANGUAGE CUDA)\n",
        offload_arch="gfx90a,gfx942")
    assert out == (
        "set(CMAKE_HIP_STANDARD 17)\nset(CMAKE_HIP_FLAGS_RELEASE \"-O3 -ffast-math\")\n"
        "set_target_properties(t PROPERTIES HIP_STANDARD 17 HIP_EXTENSIONS OFF HIP_ARCHITECTURES \"gfx90a;gfx942\")\n"
        "set_property(TARGET t PROPERTY HIP_ARCHITECTURES \"gfx90a;gfx942\")\n"
        "set_source_files_properties(x.cpp PROPERTIES LANGUAGE HIP)\n")
    assert {d.code for d in diags} == {"HB007"}


def test_architectures_cache_entry_and_unmappable_values():
    out, diags = conv('set(CMAKE_CUDA_ARCHITECTURES "70;80" CACHE STRING "archs")\n'
                      "set_target_properties(t PROPERTIES CUDA_ARCHITECTURES ${MY_ARCHS})\n")
    default = ";".join(default_offload_arch())  # (without gfx942 where the installed HIP cannot build it)
    assert out == (f'set(CMAKE_HIP_ARCHITECTURES "{default}" CACHE STRING "archs")\n'
                   "set_target_properties(t PROPERTIES HIP_ARCHITECTURES ${MY_ARCHS})\n")
    hb001 = [d for d in diags if d.code == "HB001"]
    assert len(hb001) == 1 and hb001[0].line == 2 and "${MY_ARCHS}" in hb001[0].message


# what follows find_package of a library whose headers the translator spells flat ("hipblas.h")
FLAT = ('if(TARGET roc::{0})  # hipify-style #include "{0}.h" needs include/{0} on the path\n'
        '  set_property(TARGET roc::{0} APPEND PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${{{0}_INCLUDE_DIR}}/{0}")\n'
        'endif()\n')


def test_find_package_and_targets_bring_their_packages():
    out, diags = conv("find_package(CUDAToolkit 11.4 EXACT REQUIRED)\n"
                      "target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas CUDA::cufft CUDA::cusolver)\n")
    assert out == ("find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\n" + FLAT.format("hipblas")
                   + "find_package(hipfft REQUIRED)\nfind_package(hipsolver REQUIRED)\n" + FLAT.format("hipsolver")
                   + "target_link_libraries(app PRIVATE hip::host roc::hipblas hip::hipfft roc::hipsolver)\n")
    assert diags == []


def test_targets_without_find_package_in_this_file_get_one_before_first_use():
    out, _ = conv("add_library(k k.cpp)\n  target_link_libraries(k PUBLIC CUDA::curand)\n")
    # (hip::host: hiprand's target brings no HIP include directory or platform macro to k.cpp)
    assert out == ("add_library(k k.cpp)\n  find_package(hiprand REQUIRED)\n  find_package(hip REQUIRED)\n"
                   "  target_link_libraries(k PUBLIC hip::hiprand hip::host)\n")


def test_existing_packages_are_not_found_twice():
    out, _ = conv("find_package(hiprand REQUIRED)\nfind_package(CUDAToolkit)\n"
                  "target_link_libraries(a CUDA::curand)\n")
    assert out == "find_package(hiprand REQUIRED)\nfind_package(hip)\ntarget_link_libraries(a hip::hiprand hip::host)\n"


def test_libraries_without_hip_equivalent_are_warned_not_guessed():
    out, diags = conv("target_link_libraries(a CUDA::nvToolsExt CUDA::cupti CUDA::madeup)\n")
    assert out == "target_link_libraries(a CUDA::nvToolsExt CUDA::cupti CUDA::madeup)\n"
    assert [d.code for d in diags] == ["HB004", "HB004", "HB004"]
    assert "roctx" in diags[0].hint


def test_plain_link_names():
    out, _ = conv("find_package(CUDAToolkit REQUIRED)\ntarget_link_libraries(a cudart cublas m)\n")
    assert "target_link_libraries(a hip::host roc::hipblas m)" in out


def test_cu_sources_get_language_hip_once():
    out, _ = conv("add_library(k STATIC a.cu \"b c.cu\" d.cpp)  # kernels\n"
                  "target_sources(k PRIVATE a.cu e.cu)\n")
    assert out == ("add_library(k STATIC a.cu \"b c.cu\" d.cpp)  # kernels\n"
                   "set_source_files_properties(a.cu \"b c.cu\" PROPERTIES LANGUAGE HIP)\n"
                   "target_sources(k PRIVATE a.cu e.cu)\n"
                   "set_source_files_properties(e.cu PROPERTIES LANGUAGE HIP)\n")


def test_sources_from_variables_use_the_targets_source_list():
    out, _ = conv("set(S a.cu b.cpp)\nadd_executable(app ${S})\n")
    assert "get_target_property(_hipport_sources app SOURCES)" in out
    assert 'list(FILTER _hipport_sources INCLUDE REGEX "\\\\.cu$")' in out
    # no .cu anywhere in the file: nothing to do
    assert conv("add_executable(app ${S})\n")[0] == "add_executable(app ${S})\n"


def test_interface_and_imported_libraries_are_left_alone():
    text = "add_library(i INTERFACE)\nadd_library(x SHARED IMPORTED)\nadd_library(a ALIAS b)\n"
    assert conv(text)[0] == text


def test_renames_replace_source_names():
    out, _ = conv('add_executable(app main.cu "k.cu" other.cu)\n',
                  renames={"main.cu": "main.hip", "k.cu": "k.hip"})
    assert out == ('add_executable(app main.hip "k.hip" other.cu)\n'
                   "set_source_files_properties(other.cu PROPERTIES LANGUAGE HIP)\n")


def test_compile_options_and_generator_expressions():
    out, diags = conv(
        "target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math;-lineinfo> -Wall)\n"
        'target_compile_options(k PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler -fPIC>")\n'
        "target_compile_options(k PRIVATE --expt-relaxed-constexpr -Xcompiler -fopenmp)\n"
        "target_compile_definitions(k PRIVATE $<$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>:NV=1>)\n"
        "target_link_options(k PRIVATE $<$<LINK_LANGUAGE:CUDA>:-Xlinker=-z,now>)\n")
    assert out == (
        "target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-ffast-math;-gline-tables-only> -Wall)\n"
        'target_compile_options(k PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:SHELL:-fPIC>")\n'
        "target_compile_options(k PRIVATE -fopenmp)\n"
        "target_compile_definitions(k PRIVATE $<$<COMPILE_LANG_AND_ID:HIP,Clang>:NV=1>)\n"
        "target_link_options(k PRIVATE $<$<LINK_LANGUAGE:HIP>:-Xlinker=-z,now>)\n")
    assert diags == []


def test_nvidia_compiler_tests_stay_the_live_branch_and_their_flags_are_translated():
    """`$<CUDA_COMPILER_ID:NVIDIA>` and `if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")` both become
    tests for Clang (HIP's compiler), so the nvcc branch, translated, is the one taken; a clang-CUDA
    branch beside it gets its flags translated too."""
    out, _ = conv(
        "target_compile_options(k PRIVATE $<$<CUDA_COMPILER_ID:NVIDIA>:--compiler-options=-DHOST;--expt-relaxed-constexpr>)\n"
        'if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")\n  string(APPEND CMAKE_CUDA_FLAGS " -Xcompiler=-Wall")\n'
        'elseif(${CMAKE_CUDA_COMPILER_ID} MATCHES Clang)\n  string(APPEND CMAKE_CUDA_FLAGS " --cuda-gpu-arch=sm_80 -x cuda")\nendif()\n',
        offload_arch="gfx90a")
    assert out == (
        "target_compile_options(k PRIVATE $<$<HIP_COMPILER_ID:Clang>:-DHOST>)\n"
        'if(CMAKE_HIP_COMPILER_ID STREQUAL "Clang")\n  string(APPEND CMAKE_HIP_FLAGS " -Wall")\n'
        'elseif(${CMAKE_HIP_COMPILER_ID} MATCHES Clang)\n  string(APPEND CMAKE_HIP_FLAGS " --offload-arch=gfx90a -x hip")\nendif()\n')


def test_try_compile_of_a_cu_probe_is_reported():
    out, diags = conv("try_compile(OK ${CMAKE_BINARY_DIR}/probe SOURCES ${CMAKE_SOURCE_DIR}/probe.cu)\n")
    assert [d.code for d in diags] == ["HB001"] and "probe.cu" in diags[0].message


def test_a_set_cuda_compiler_is_left_alone():
    """hardware-effects-gpu: `set(CMAKE_CUDA_COMPILER …/nvcc)` must not become the HIP compiler."""
    text = "set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)\nif(CMAKE_CUDA_COMPILER)\nendif()\n"
    out, diags = conv(text)
    assert out == "set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)\nif(CMAKE_HIP_COMPILER)\nendif()\n"
    assert [d.code for d in diags] == ["HB001"]


def test_check_ipo_supported_leaves_out_cuda():
    out, diags = conv("check_ipo_supported(RESULT r LANGUAGES CXX CUDA)\ncheck_ipo_supported(LANGUAGES CUDA OUTPUT o)\n")
    assert out == "check_ipo_supported(RESULT r LANGUAGES CXX)\ncheck_ipo_supported(LANGUAGES CXX OUTPUT o)\n"
    assert [d.code for d in diags] == ["HB006", "HB006"]


def test_a_custom_command_running_the_cuda_compiler_runs_hipcc():
    """cuda-samples' driver-API builds make a fatbin with nvcc as a tool: hipcc (for AMD) makes the
    code object bundle hipModuleLoad reads, with the architectures HIP's now."""
    out, diags = conv("foreach(arch ${CMAKE_CUDA_ARCHITECTURES})\n"
                      '  list(APPEND GENCODE "-gencode=arch=compute_${arch},code=sm_${arch}")\nendforeach()\n'
                      "add_custom_command(OUTPUT k.fatbin\n  COMMAND ${CMAKE_CUDA_COMPILER} ${INC} -Wno-deprecated-gpu-targets "
                      "${GENCODE} -o k.fatbin -fatbin k.cu # kernel\n  DEPENDS k.cu VERBATIM)\n")
    assert out == ("foreach(arch ${CMAKE_HIP_ARCHITECTURES})\n"
                   '  list(APPEND GENCODE "--offload-arch=${arch}")\nendforeach()\n'
                   "find_program(HIPPORT_HIPCC hipcc HINTS $ENV{ROCM_PATH}/bin $ENV{HIP_PATH}/bin /opt/rocm/bin REQUIRED)\n"
                   "add_custom_command(OUTPUT k.fatbin\n  COMMAND ${CMAKE_COMMAND} -E env HIP_PLATFORM=amd ${HIPPORT_HIPCC} "
                   "${INC} ${GENCODE} -o k.fatbin --genco k.cu # kernel\n  DEPENDS k.cu VERBATIM)\n")
    assert {d.code for d in diags} <= {"HB002", "HB006", "HB007"}
    # a generator expression or a quoted word: the words are not told apart without configuring
    _, diags = conv('add_custom_command(OUTPUT k.ptx COMMAND nvcc "$<TARGET_PROPERTY:t,FLAGS>" -ptx k.cu)\n')
    assert [d.code for d in diags] == ["HB001"] and "custom command" in diags[0].message


def test_nvcc_flags_as_list_items_in_one_argument():
    """FindCUDA's `set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS};--use_fast_math)` (PaddlePaddle) and lists in a string."""
    out, _ = conv("set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS};-gencode arch=compute_80,code=sm_80)\n"
                  "set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS};-O3;-Xcompiler -fPIC;--use_fast_math)\n"
                  'set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS};-gencode arch=compute_80,code=sm_80")\n', offload_arch="gfx90a")
    assert out == ("set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS} --offload-arch=gfx90a)\n"
                   "set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS} -O3 -fPIC -ffast-math)\n"
                   'set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS};--offload-arch=gfx90a")\n')


def test_a_generator_expression_over_several_arguments_and_shell_groups():
    """AMReX's `$<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr --use_fast_math>`: CMake joins the
    arguments with `;` before evaluating it; `"SHELL:-gencode …"` is one group of words."""
    out, _ = conv("target_compile_options(a PUBLIC $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -lineinfo --use_fast_math>)\n"
                  "target_compile_options(b PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)\n"
                  'target_compile_options(c PRIVATE "SHELL:-gencode arch=compute_80,code=sm_80" "SHELL:-Xcompiler -fopenmp")\n',
                  offload_arch="gfx90a")
    assert out == ("target_compile_options(a PUBLIC $<$<COMPILE_LANGUAGE:HIP>:-gline-tables-only;-ffast-math>)\n"
                   "target_compile_options(b PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)\n"
                   'target_compile_options(c PRIVATE "SHELL:--offload-arch=gfx90a" "SHELL:-fopenmp")\n')


def test_compile_flags_properties_of_cuda_sources_and_targets():
    out, _ = conv('set_source_files_properties(main.cu PROPERTIES COMPILE_FLAGS "--use_fast_math --expt-relaxed-constexpr")\n'
                  'set_target_properties(app2 PROPERTIES COMPILE_FLAGS "-lineinfo -Xcompiler -Wall")\n'
                  "set_property(SOURCE k.cu APPEND PROPERTY COMPILE_OPTIONS --use_fast_math -O3)\n"
                  'set_source_files_properties(host.cpp PROPERTIES COMPILE_FLAGS "-Wall -DX=1")\n', offload_arch="gfx90a")
    assert out == ('set_source_files_properties(main.cu PROPERTIES COMPILE_FLAGS "-ffast-math")\n'
                   'set_target_properties(app2 PROPERTIES COMPILE_FLAGS "-gline-tables-only -Wall")\n'
                   "set_property(SOURCE k.cu APPEND PROPERTY COMPILE_OPTIONS -ffast-math -O3)\n"
                   'set_source_files_properties(host.cpp PROPERTIES COMPILE_FLAGS "-Wall -DX=1")\n')


def test_a_target_made_in_a_function_gets_its_cu_sources_the_hip_language():
    """HeCBench's BenchmarkMacros.cmake: `add_executable(${TARGET_NAME} ${BENCH_SOURCES})` in a function,
    the sources coming from callers in other files."""
    out, _ = conv("function(add_bench)\n  cmake_parse_arguments(B \"\" \"NAME\" \"SOURCES\" ${ARGN})\n"
                  "  add_executable(${B_NAME} ${B_SOURCES})\nendfunction()\nadd_executable(tool ${TOOL_SOURCES})\n")
    assert ("  add_executable(${B_NAME} ${B_SOURCES})\n  get_target_property(_hipport_sources ${B_NAME} SOURCES)\n"
            '  list(FILTER _hipport_sources INCLUDE REGEX "\\\\.cu$")\n'
            "  set_source_files_properties(${_hipport_sources} PROPERTIES LANGUAGE HIP)\nendfunction()\n") in out
    assert out.endswith("add_executable(tool ${TOOL_SOURCES})\n")  # outside a function: this file lists no .cu


def test_cuda_flags_set_above_project_join_the_toolchains_after_it():
    """Above project() the toolchain's CMAKE_HIP_FLAGS_INIT is not read yet: a CMAKE_HIP_FLAGS set there
    would hide it (Debian's --rocm-path), so the flags wait in a variable of their own."""
    out, _ = conv('set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -O3 -Xcompiler=\\"${CMAKE_CXX_FLAGS}\\"")\n'
                  "project(x LANGUAGES CXX CUDA)\nstring(APPEND CMAKE_CUDA_FLAGS \" -lineinfo\")\n")
    assert out == ('set(HIPPORT_EARLY_HIP_FLAGS "${HIPPORT_EARLY_HIP_FLAGS} -O3 ${CMAKE_CXX_FLAGS}")\n'
                   "project(x LANGUAGES CXX HIP)\nstring(APPEND CMAKE_HIP_FLAGS \" ${HIPPORT_EARLY_HIP_FLAGS}\")\n"
                   "string(APPEND CMAKE_HIP_FLAGS \" -gline-tables-only\")\n")


def test_a_glob_that_may_pick_cu_files_gets_the_language_fix_up():
    out, _ = conv("file(GLOB SRC src/*.c*)\nadd_library(lib ${SRC})\n")
    assert "get_target_property(_hipport_sources lib SOURCES)" in out


def test_a_user_flag_variable_and_a_source_in_a_generator_expression():
    out, _ = conv("set(MY_CUDA_FLAGS --use_fast_math -lineinfo)\nset(WARN -Wall)\nadd_executable(app main.cpp)\n"
                  "target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${MY_CUDA_FLAGS}> ${WARN})\n"
                  "target_sources(app PRIVATE $<$<BOOL:${USE_GPU}>:${CMAKE_CURRENT_SOURCE_DIR}/src/kern.cu>)\n")
    assert out.startswith("set(MY_CUDA_FLAGS -ffast-math -gline-tables-only)\nset(WARN -Wall)\n")
    assert out.endswith('set_source_files_properties("${CMAKE_CURRENT_SOURCE_DIR}/src/kern.cu" PROPERTIES LANGUAGE HIP)\n')


def test_cuda_flags_with_variable_reference():
    out, _ = conv('set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -arch=sm_80 -Xcompiler=-fPIC")\n',
                  offload_arch="gfx942")
    assert out == 'set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} --offload-arch=gfx942 -fPIC")\n'


def test_findcuda_commands():
    out, diags = conv(
        "project(p CXX)\nfind_package(CUDA REQUIRED)\n"
        "list(APPEND CUDA_NVCC_FLAGS -gencode arch=compute_70,code=sm_70 --use_fast_math)\n"
        "cuda_include_directories(inc)\n"
        "cuda_add_library(k SHARED k.cu OPTIONS -rdc=true)\n"
        "cuda_add_cublas_to_target(k)\n"
        "target_link_libraries(k ${CUDA_LIBRARIES} ${CUDA_cusparse_LIBRARY})\n"
        "cuda_compile_ptx(PTX x.cu)\n", offload_arch="gfx90a")
    assert out == (
        "project(p CXX)\nfind_package(hip REQUIRED)\nenable_language(HIP)\nfind_package(hipblas REQUIRED)\n"
        + FLAT.format("hipblas") + "find_package(hipsparse REQUIRED)\n" + FLAT.format("hipsparse") +
        "list(APPEND CUDA_NVCC_FLAGS --offload-arch=gfx90a -ffast-math)\n"
        "include_directories(inc)\n"
        "add_library(k SHARED k.cu)\n"
        'target_compile_options(k PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>")\n'
        'target_compile_options(k PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:${CUDA_NVCC_FLAGS}>")\n'
        "set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n"
        "target_link_libraries(k roc::hipblas)\n"
        "target_link_libraries(k hip::host roc::hipsparse)\n"
        "cuda_compile_ptx(PTX x.cu)\n")
    unknown = [d for d in diags if d.code == "HB001"]
    assert len(unknown) == 1 and unknown[0].line == 8 and "cuda_compile_ptx" in unknown[0].message


def test_unknown_cuda_constructs_are_warned_with_position_and_hint():
    out, diags = conv("set(CMAKE_CUDA_SEPARABLE_COMPILATION ON)\n"
                      "message(${CUDAToolkit_INCLUDE_DIRS})\n"
                      "set(CMAKE_CUDA_MADE_UP 1)\n")
    assert out.count("CUDA") == 3  # nothing guessed
    got = [(d.code, d.line) for d in diags]
    assert got == [("HB001", 1), ("HB001", 2), ("HB001", 3)]
    assert "-fgpu-rdc" in diags[0].hint
    assert diags[0].format().startswith("CMakeLists.txt:1:5: warning: ")


def test_the_toolkit_include_directory_becomes_hips_with_hip_host():
    """A C++ source given the toolkit's headers (`${CUDAToolkit_INCLUDE_DIRS}`) includes HIP's after
    the port, which also need the platform macro: the target links hip::host, in its signature."""
    out, diags = conv("add_executable(app main.cpp)\ntarget_include_directories(app PRIVATE ${CUDAToolkit_INCLUDE_DIRS} inc)\n"
                      "target_link_libraries(app m)\ninclude_directories(\"${CUDA_INCLUDE_DIRS}\")\n")
    assert out == ("add_executable(app main.cpp)\nfind_package(hip REQUIRED)\n"
                   "target_include_directories(app PRIVATE ${hip_INCLUDE_DIRS} inc)\ntarget_link_libraries(app hip::host)\n"
                   'target_link_libraries(app m)\ninclude_directories("${hip_INCLUDE_DIRS}")\nlink_libraries(hip::host)\n')
    assert diags == []


def test_the_toolkit_include_directory_through_a_list_variable_gets_hip_host_too():
    """nbody-cuda's `list(APPEND include_dirs src ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})`, then
    `target_include_directories(nbody PRIVATE ${include_dirs})`: a host .cpp includes HIP's headers."""
    out, diags = conv("list(APPEND include_dirs src ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})\n"
                      "add_executable(app main.cpp)\ntarget_include_directories(app PRIVATE ${include_dirs})\n")
    assert out == ("find_package(hip REQUIRED)\nlist(APPEND include_dirs src ${hip_INCLUDE_DIRS})\n"
                   "add_executable(app main.cpp)\ntarget_include_directories(app PRIVATE ${include_dirs})\n"
                   "target_link_libraries(app PRIVATE hip::host)\n")
    assert diags == []


def test_comments_strings_and_user_variables_are_not_touched():
    text = ("# set(CMAKE_CUDA_FLAGS --use_fast_math)\n"
            "#[[ project(x CUDA) ]]\n"
            "set(MY_CUDA_SOURCES a.cpp)\n"
            'message(STATUS "built without CUDA")\n'
            "set(X [=[CUDA::cublas]=])\n")
    out, diags = conv(text)
    assert out == text and diags == []


def test_byte_exact_crlf_and_latin1():
    data = ("# caf\xe9 \xa9\r\nproject(p LANGUAGES CUDA)\r\nadd_executable(a a.cu)\r\n"
            "message(\"\xe9t\xe9\")\r\n").encode("latin-1")
    out, _ = convert_cmake(data, "CMakeLists.txt")
    assert out == ("# caf\xe9 \xa9\r\nproject(p LANGUAGES HIP CXX)\r\nadd_executable(a a.cu)\r\n"
                   "set_source_files_properties(a.cu PROPERTIES LANGUAGE HIP)\r\n"
                   "message(\"\xe9t\xe9\")\r\n").encode("latin-1")


def test_file_without_cuda_is_returned_unchanged():
    data = (DATA / "keep_cuda" / "CMakeLists.txt").read_bytes()
    out, diags = convert_cmake(data, "CMakeLists.txt")
    assert out == data and diags == []


def test_parse_error_is_one_diagnostic_and_file_unchanged():
    data = b"project(p CUDA)\nset(A \"unterminated)\n"
    out, diags = convert_cmake(data, "sub/CMakeLists.txt")
    assert out == data
    assert len(diags) == 1 and diags[0].code == "HB005" and diags[0].severity == "error"
    assert diags[0].format().startswith("sub/CMakeLists.txt:2:7: error: cannot parse CMake file")


def test_suppression_comment():
    _, diags = conv("cuda_wrap_srcs(x)  # hipport: ignore[HB001]\ncuda_build_clean_target()\n")
    assert [d.line for d in diags] == [2]


def test_codes_registered():
    for code in ("HB001", "HB004", "HB005", "HB008"):
        assert code in CODES


@pytest.mark.parametrize("project", ["cmake_cuda", "findcuda"])
def test_sample_projects_convert_idempotently(project):
    data = (DATA / project / "CMakeLists.txt").read_bytes()
    out, diags = convert_cmake(data, "CMakeLists.txt")
    assert out != data
    for cmd in lx.parse(out.decode("latin-1")):
        assert not cmd.lname.startswith("cuda_")
        assert not any("CUDA::" in a.text or "CMAKE_CUDA_" in a.text for a in cmd.args), cmd.name
    assert convert_cmake(out, "CMakeLists.txt")[0] == out
    assert all(d.severity != "error" for d in diags)


def test_flags_in_compound_generator_expressions():
    out, _ = conv("target_compile_options(k PRIVATE "
                  "$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G;-lineinfo> "
                  "$<$<COMPILE_LANGUAGE:CXX,CUDA>:-Xcompiler=-Wall> $<$<CONFIG:Release>:-O3>)\n")
    assert out == ("target_compile_options(k PRIVATE "
                   "$<$<AND:$<COMPILE_LANGUAGE:HIP>,$<CONFIG:Debug>>:-ggdb;-gline-tables-only> "
                   "$<$<COMPILE_LANGUAGE:CXX,HIP>:-Wall> $<$<CONFIG:Release>:-O3>)\n")


def test_compile_features_and_toolkit_target():
    out, diags = conv("find_package(CUDAToolkit REQUIRED)\n"
                      "target_compile_features(k PUBLIC cuda_std_17 cxx_std_17)\n"
                      "target_link_libraries(k PUBLIC CUDA::toolkit)\n")
    assert out == ("find_package(hip REQUIRED)\n"
                   "target_compile_features(k PUBLIC hip_std_17 cxx_std_17)\n"
                   "target_link_libraries(k PUBLIC hip::host)\n")
    assert diags == []


def test_cuda_only_project_gets_a_cxx_compiler_for_hips_package():
    """`project(x LANGUAGES CUDA)`: find_package(hip) (FindThreads) needs a C or C++ compiler."""
    assert conv("project(x LANGUAGES CUDA)\n")[0] == "project(x LANGUAGES HIP CXX)\n"
    assert conv("project(x VERSION 1.0 LANGUAGES CUDA)\n")[0] == "project(x VERSION 1.0 LANGUAGES HIP CXX)\n"
    assert conv("project(x CUDA)\n")[0] == "project(x HIP CXX)\n"
    assert conv("project(x LANGUAGES CXX CUDA)\n")[0] == "project(x LANGUAGES CXX HIP)\n"


def test_flag_assignments_keep_the_toolchains_initial_flags():
    """Debian's ROCm toolchain file puts --rocm-path in CMAKE_HIP_FLAGS_INIT: a plain set() keeps it,
    and an append gets the space CUDA's (empty) flags never needed."""
    assert conv('set(CMAKE_CUDA_FLAGS "-O3 --use_fast_math")\n')[0] == \
        'set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS_INIT} -O3 -ffast-math")\n'
    assert conv('string(APPEND CMAKE_CUDA_FLAGS "--use_fast_math")\n')[0] == 'string(APPEND CMAKE_HIP_FLAGS " -ffast-math")\n'
    assert conv('set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -O3")\n')[0] == 'set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} -O3")\n'


def test_comments_inside_a_multi_line_flag_list_keep_options_with_their_values():
    """A `#` line between the words of a flag list: an option dropped with its value (`-maxrregcount
    32`, `-Xptxas` past a comment to `-v`), comments in place, no blank line left behind."""
    out, diags = conv("set(CUDA_NVCC_FLAGS\n  -std=c++14\n  #-v\n  --expt-extended-lambda\n  -maxrregcount\n  32\n"
                      "  #-w\n  -lineinfo\n  -Xcudafe\n  --display_error_number\n)\n"
                      "list(APPEND CUDA_NVCC_FLAGS\n -gencode arch=compute_70,code=sm_70 # a\n -gencode arch=compute_80,code=sm_80\n"
                      " -Xptxas # c\n -v\n -O3)\n", offload_arch="gfx90a")
    assert out == ("set(CUDA_NVCC_FLAGS\n  -std=c++14\n  #-v\n  #-w\n  -gline-tables-only\n)\n"
                   "list(APPEND CUDA_NVCC_FLAGS\n --offload-arch=gfx90a # a\n # c\n -O3)\n")
    assert sorted(d.message.split("'")[1] for d in diags if d.code == "HB002") == \
        ["-Xcudafe --display_error_number", "-Xptxas -v", "-maxrregcount 32"]
    assert conv("set(CUDA_NVCC_FLAGS\r\n  # x\r\n  -Xptxas -v\r\n  -O3)\r\n")[0] == "set(CUDA_NVCC_FLAGS\r\n  # x\r\n  -O3)\r\n"


def test_linker_language_cuda_becomes_hip():
    """gloop's parboil samples link with `LINKER_LANGUAGE CUDA`: no CUDA language after the port."""
    out, _ = conv("set_target_properties(bfs PROPERTIES LINKER_LANGUAGE CUDA)\n"
                  "set_target_properties(x PROPERTIES CXX_STANDARD 17 LINKER_LANGUAGE \"CUDA\")\n"
                  "set_property(TARGET a PROPERTY LINKER_LANGUAGE CUDA)\n")
    assert out == ("set_target_properties(bfs PROPERTIES LINKER_LANGUAGE HIP)\n"
                   "set_target_properties(x PROPERTIES CXX_STANDARD 17 LINKER_LANGUAGE \"HIP\")\n"
                   "set_property(TARGET a PROPERTY LINKER_LANGUAGE HIP)\n")


def test_findcuda_options_by_configuration_and_in_one_string():
    """`cuda_add_library(… OPTIONS a RELEASE b DEBUG c)`: FindCUDA's per-configuration sections
    become $<CONFIG:…> conditions (never compiler arguments); a `"` inside an option is escaped
    in the quoted generator expression; several options in one quoted string are split and
    translated (rayglover's `"-gencode arch=compute_30,code=compute_30 -cudart static"`)."""
    out, diags = conv('cuda_add_library(k\n  k.cu\n  OPTIONS -DUSE_CUDA="__USE_CUDA__"\n  RELEASE -DNDEBUG -O3 -use_fast_math\n'
                      "  DEBUG -DDEBUG -g -G )\n"
                      'cuda_add_library(s STATIC s.cu OPTIONS "-gencode arch=compute_30,code=compute_30 -cudart static" -O2)\n',
                      offload_arch="gfx90a")
    assert out == ("add_library(k\n  k.cu )\n"
                   'target_compile_options(k PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:-DUSE_CUDA=\\"__USE_CUDA__\\">")\n'
                   'target_compile_options(k PRIVATE "$<$<AND:$<COMPILE_LANGUAGE:HIP>,$<CONFIG:Release>>:-DNDEBUG;-O3;-ffast-math>")\n'
                   'target_compile_options(k PRIVATE "$<$<AND:$<COMPILE_LANGUAGE:HIP>,$<CONFIG:Debug>>:-DDEBUG;-g;-ggdb>")\n'
                   "set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n"
                   "add_library(s STATIC s.cu)\n"
                   'target_compile_options(s PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:--offload-arch=gfx90a;-O2>")\n'
                   "set_source_files_properties(s.cu PROPERTIES LANGUAGE HIP)\n")
    assert not [d for d in diags if d.code == "HB001"]
    assert [d.line for d in diags if d.code == "HB002"] == [6]  # -cudart static
    # a quoted generator expression whose payload holds spaces (an earlier hipport's output) is
    # never split on them: its closing `>` stays
    old = 'target_compile_options(s PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:-gencode arch=compute_30,code=compute_30 -cudart static>")\n'
    assert conv(old)[0] == old


def test_an_unquoted_self_reference_in_a_flags_variable_is_joined_into_one_string():
    """`set(CMAKE_CUDA_FLAGS ${CMAKE_CUDA_FLAGS} "-g -G")`: a one-item list with nvcc (the variable
    was empty), two items with HIP (the toolchain's flags), and `;` in the compile command."""
    out, _ = conv('project(x CUDA)\nset(CMAKE_CUDA_FLAGS ${CMAKE_CUDA_FLAGS} "-g -G")\n'
                  "set(CMAKE_CUDA_FLAGS_DEBUG ${CMAKE_CUDA_FLAGS_DEBUG} -O0 -DX=\"a\")\n"
                  "set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS} -O3)\n")
    assert out == ('project(x HIP CXX)\nset(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} -g -ggdb")\n'
                   'set(CMAKE_HIP_FLAGS_DEBUG "${CMAKE_HIP_FLAGS_DEBUG} -O0 -DX=\\"a\\"")\n'
                   "set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS} -O3)\n")  # (a list: FindCUDA's are)


def test_aux_source_directory_collects_the_cu_sources_too():
    """HIP's source extension is `.hip`: aux_source_directory() alone would collect no `.cu`."""
    out, _ = conv("aux_source_directory(. SOURCES)\naux_source_directory(src LIB_SRC)\nadd_executable(app ${SOURCES})\n")
    assert out == ("aux_source_directory(. SOURCES)\n"
                   'file(GLOB _hipport_cu_sources "${CMAKE_CURRENT_SOURCE_DIR}/*.cu")\n'
                   "list(APPEND SOURCES ${_hipport_cu_sources})\n"
                   "aux_source_directory(src LIB_SRC)\n"
                   'file(GLOB _hipport_cu_sources "${CMAKE_CURRENT_SOURCE_DIR}/src/*.cu")\n'
                   "list(APPEND LIB_SRC ${_hipport_cu_sources})\n"
                   "add_executable(app ${SOURCES})\nget_target_property(_hipport_sources app SOURCES)\n"
                   'list(FILTER _hipport_sources INCLUDE REGEX "\\\\.cu$")\n'
                   "set_source_files_properties(${_hipport_sources} PROPERTIES LANGUAGE HIP)\n")


def test_fatbinary_options_are_dropped_with_a_warning():
    out, diags = conv('project(p CXX CUDA)\nstring(APPEND CMAKE_CUDA_FLAGS " -Xfatbin -compress-all -O3")\n')
    assert out == 'project(p CXX HIP)\nstring(APPEND CMAKE_HIP_FLAGS " -O3")\n'
    assert [(d.code, d.line) for d in diags if d.code.startswith("HB00") and d.code != "HB008"] == [("HB002", 2)]


def test_initial_flags_set_by_the_project_keep_the_toolchains():
    """iEDA's `set(CMAKE_CUDA_FLAGS_INIT "-std=c++17")` before enable_language(CUDA): as a plain
    CMAKE_HIP_FLAGS_INIT it would replace the toolchain's (--rocm-path), so the HIP compiler check
    fails; above project() the toolchain is not read yet, and would replace it in turn."""
    assert conv('project(x CXX)\nset(CMAKE_CUDA_FLAGS_INIT "-std=c++17")\nenable_language(CUDA)\n')[0] == \
        'project(x CXX)\nset(CMAKE_HIP_FLAGS_INIT "${CMAKE_HIP_FLAGS_INIT} -std=c++17")\nenable_language(HIP)\n'
    # (a file include()d below the top level's project(): the toolchain was read there)
    assert conv('set(CMAKE_CUDA_FLAGS_INIT "-std=c++17")\nenable_language(CUDA)\n')[0] == \
        'set(CMAKE_HIP_FLAGS_INIT "${CMAKE_HIP_FLAGS_INIT} -std=c++17")\nenable_language(HIP)\n'
    assert conv('set(CMAKE_CUDA_FLAGS_INIT "-std=c++17")\nproject(x CXX CUDA)\n')[0] == \
        'set(HIPPORT_EARLY_HIP_FLAGS "-std=c++17")\nproject(x CXX HIP)\nstring(APPEND CMAKE_HIP_FLAGS " ${HIPPORT_EARLY_HIP_FLAGS}")\n'
    assert conv('string(APPEND CMAKE_CUDA_FLAGS_INIT "-G")\n')[0] == 'string(APPEND CMAKE_HIP_FLAGS_INIT " -ggdb")\n'
    # the per-configuration ones are not the toolchain's: replaced as they were
    assert conv('set(CMAKE_CUDA_FLAGS_RELEASE_INIT "-O3")\n')[0] == 'set(CMAKE_HIP_FLAGS_RELEASE_INIT "-O3")\n'


def test_cxx03_standard_becomes_98_which_hip_knows():
    out = conv("target_compile_features(a PUBLIC cuda_std_03)\nset_target_properties(a PROPERTIES CUDA_STANDARD 03)\n"
               "set(CMAKE_CUDA_STANDARD 03)\n")[0]
    assert out == ("target_compile_features(a PUBLIC hip_std_98)\nset_target_properties(a PROPERTIES HIP_STANDARD 98)\n"
                   "set(CMAKE_HIP_STANDARD 98)\n")


def test_separable_compilation_becomes_relocatable_device_code():
    """CUDA_SEPARABLE_COMPILATION ON: -fgpu-rdc when compiling, -fgpu-rdc --hip-link at the HIP link
    that resolves the device code: the target's own, or a static library's consumers'."""
    out, diags = conv("add_library(s kern.cu)\nadd_library(o OBJECT k2.cu)\n"
                      "set_target_properties(a s PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n"
                      "set_property(TARGET o PROPERTY CUDA_SEPARABLE_COMPILATION ON)\n"
                      "set_property(TARGET c PROPERTY CUDA_SEPARABLE_COMPILATION OFF)\n")
    rdc = 'target_compile_options({} PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>")\n'
    assert out.endswith("set_target_properties(a s PROPERTIES HIPPORT_SEPARABLE_COMPILATION ON)\n" + rdc.format("a") +
                        'target_link_options(a PRIVATE "$<$<LINK_LANGUAGE:HIP>:SHELL:-fgpu-rdc --hip-link>")\n' +
                        rdc.format("s") + 'target_link_options(s INTERFACE "$<$<LINK_LANGUAGE:HIP>:SHELL:-fgpu-rdc --hip-link'
                        ' -L$<TARGET_FILE_DIR:s> -l$<TARGET_FILE_BASE_NAME:s>>")\n'
                        "set_property(TARGET o PROPERTY HIPPORT_SEPARABLE_COMPILATION ON)\n" + rdc.format("o") +
                        'target_link_options(o INTERFACE "$<$<LINK_LANGUAGE:HIP>:SHELL:-fgpu-rdc --hip-link>")\n'
                        "set_property(TARGET c PROPERTY HIPPORT_SEPARABLE_COMPILATION OFF)\n")
    assert not [d for d in diags if d.code == "HB001"]


def test_library_converters_take_text_as_well_as_bytes():
    """`hipport.convert_cmake(text)` as `hipport.translate_source(text)`: str in, str out."""
    import hipport

    out, _ = hipport.convert_cmake("project(x LANGUAGES CUDA)  # é\n")
    assert isinstance(out, str) and out.startswith("project(x LANGUAGES HIP CXX)") and out.endswith("# é\n")
    assert hipport.convert_cmake(out.encode())[0] == out.encode()
    out, _ = hipport.convert_makefile("NVCC=nvcc\n# ü\n")
    assert out == "NVCC=hipcc -std=c++17\n# ü\n"
