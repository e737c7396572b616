# Toolchain file: CMake's HIP language with the ROCm packaged by Debian/Ubuntu (hipcc,
# libamdhip64-dev, rocm-device-libs under /usr), which CMake (3.21-3.27) does not find by itself:
# it expects <root>/lib/cmake/hip-lang/hip-lang-config.cmake and clang's device libraries
# under the ROCm root.  Use it as
#   cmake -DCMAKE_TOOLCHAIN_FILE=<hipport cmake-dir>/HipportDebianROCm.cmake ...
# With AMD's own ROCm packages (/opt/rocm) no toolchain file is needed.
# It is read again for every try_compile, so it only sets variables and creates a link.
file(GLOB _hipport_lang_cfg "/usr/lib/*/cmake/hip-lang/hip-lang-config.cmake")
list(GET _hipport_lang_cfg 0 _hipport_lang_cfg)
if(NOT _hipport_lang_cfg)
  message(FATAL_ERROR "HipportDebianROCm: no /usr/lib/*/cmake/hip-lang (install libamdhip64-dev)")
endif()
get_filename_component(_hipport_cmake_dir "${_hipport_lang_cfg}" DIRECTORY)
get_filename_component(_hipport_cmake_dir "${_hipport_cmake_dir}" DIRECTORY)
get_filename_component(_hipport_libdir "${_hipport_cmake_dir}" DIRECTORY)

if(NOT CMAKE_HIP_COMPILER)
  find_program(_hipport_clang NAMES clang++-15 clang++-16 clang++-17 clang++-18 clang++-19 clang++
               PATHS /usr/lib/llvm-15/bin /usr/lib/llvm-16/bin /usr/lib/llvm-17/bin)
  set(CMAKE_HIP_COMPILER "${_hipport_clang}")
endif()

# A ROCm root in CMake's expected layout: <root>/lib/cmake → /usr/lib/<triple>/cmake.
set(_hipport_root "${CMAKE_BINARY_DIR}/hipport-rocm-root")
if(NOT EXISTS "${_hipport_root}/lib/cmake")
  file(MAKE_DIRECTORY "${_hipport_root}/lib")
  file(CREATE_LINK "${_hipport_cmake_dir}" "${_hipport_root}/lib/cmake" SYMBOLIC)
endif()
set(CMAKE_HIP_COMPILER_ROCM_ROOT "${_hipport_root}")
list(APPEND CMAKE_PREFIX_PATH "${_hipport_root}")

file(GLOB _hipport_ocml "${_hipport_libdir}/amdgcn/bitcode/ocml.bc" "/usr/lib/amdgcn/bitcode/ocml.bc")
if(_hipport_ocml)
  list(GET _hipport_ocml 0 _hipport_ocml)
  get_filename_component(_hipport_bitcode "${_hipport_ocml}" DIRECTORY)
  set(CMAKE_HIP_FLAGS_INIT "--rocm-path=/usr --hip-device-lib-path=${_hipport_bitcode}")
endif()
