# hipportRuntimeConfig.cmake — `find_package(hipportRuntime)` for the hipport runtime shim.
#
# Why sources and not a prebuilt library: the shim ships inside the Python wheel, which knows
# nothing about the user's ROCm version, compiler or flags.  The target is therefore a static
# library compiled in the consumer's build from the shipped sources, with the consumer's
# toolchain.  Find this directory with `hipport runtime --cmake-dir`:
#
#   find_package(hipportRuntime CONFIG REQUIRED PATHS "$(hipport runtime --cmake-dir)")
#   target_link_libraries(app PRIVATE hipport::runtime)
#
# Cache variables:
#   HIPPORT_RUNTIME_BACKEND   hip (default) | host — host simulates the GPU on the CPU; it exists
#                             for the shim's own tests and benchmarks, never for applications.
#   HIPPORT_RUNTIME_LANGUAGE  language the allocator source is compiled as: CXX (default; links
#                             hip::host, works with g++/clang++ or hipcc), HIP, or CUDA (nvcc on
#                             HIP's NVIDIA platform).
# Results: target hipport::runtime, hipportRuntime_INCLUDE_DIRS, hipportRuntime_SOURCES.

cmake_minimum_required(VERSION 3.16)

get_filename_component(_hipport_runtime_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(hipportRuntime_INCLUDE_DIRS "${_hipport_runtime_root}/include")
set(hipportRuntime_SOURCES "${_hipport_runtime_root}/src/allocator.cpp")

set(HIPPORT_RUNTIME_BACKEND "hip" CACHE STRING "hipport runtime backend: hip, or host (tests only)")
set_property(CACHE HIPPORT_RUNTIME_BACKEND PROPERTY STRINGS hip host)
set(HIPPORT_RUNTIME_LANGUAGE "CXX" CACHE STRING "language the hipport runtime sources are compiled as")
set_property(CACHE HIPPORT_RUNTIME_LANGUAGE PROPERTY STRINGS CXX HIP CUDA)

if(NOT TARGET hipport::runtime)
  include(CMakeFindDependencyMacro)
  find_dependency(Threads)

  set(_hipport_runtime_sources ${hipportRuntime_SOURCES})
  if(HIPPORT_RUNTIME_BACKEND STREQUAL "host")
    list(APPEND _hipport_runtime_sources "${_hipport_runtime_root}/src/backend_host.cpp")
  elseif(NOT HIPPORT_RUNTIME_BACKEND STREQUAL "hip")
    set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)
    set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE
        "HIPPORT_RUNTIME_BACKEND must be 'hip' or 'host', not '${HIPPORT_RUNTIME_BACKEND}'")
    return()
  endif()

  add_library(hipport_runtime STATIC ${_hipport_runtime_sources})
  add_library(hipport::runtime ALIAS hipport_runtime)
  set_target_properties(hipport_runtime PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_compile_features(hipport_runtime PUBLIC cxx_std_14)
  target_include_directories(hipport_runtime PUBLIC "${hipportRuntime_INCLUDE_DIRS}")
  target_link_libraries(hipport_runtime PUBLIC Threads::Threads)

  if(HIPPORT_RUNTIME_BACKEND STREQUAL "host")
    target_compile_definitions(hipport_runtime PUBLIC HIPPORT_HOST_BACKEND)
  else()
    if(NOT HIPPORT_RUNTIME_LANGUAGE STREQUAL "CXX")
      set_source_files_properties(${hipportRuntime_SOURCES} PROPERTIES LANGUAGE ${HIPPORT_RUNTIME_LANGUAGE})
    endif()
    if(HIPPORT_RUNTIME_LANGUAGE STREQUAL "CUDA")
      # HIP's NVIDIA platform: HIP headers on top of the CUDA runtime.
      target_compile_definitions(hipport_runtime PUBLIC __HIP_PLATFORM_NVIDIA__)
      find_package(CUDAToolkit REQUIRED)
      target_link_libraries(hipport_runtime PUBLIC CUDA::cudart)
    else()
      if(NOT TARGET hip::host)
        find_dependency(hip CONFIG)
      endif()
      target_link_libraries(hipport_runtime PUBLIC hip::host)
    endif()
  endif()
endif()

unset(_hipport_runtime_sources)
