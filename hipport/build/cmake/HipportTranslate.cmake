# HipportTranslate.cmake: keep CUDA as the source of truth and build it as HIP.
#
#   list(APPEND CMAKE_MODULE_PATH "<output of `hipport cmake-dir`>")
#   include(HipportTranslate)
#   hipport_translate_sources(HIP_SRCS SOURCES kernels.cu common.cuh main.cpp
#                             [OPTIONS --roc ...] [LANGUAGE HIP|CXX]
#                             [BASE_DIR dir] [OUTPUT_DIR dir])
#   add_executable(app ${HIP_SRCS})
#
# Each source is translated at build time by `python -m hipport translate SRC -o OUT` into
# OUTPUT_DIR (default: ${CMAKE_CURRENT_BINARY_DIR}/hipport), keeping its path relative to
# BASE_DIR (default: ${CMAKE_CURRENT_SOURCE_DIR}) so that `#include "common.cuh"` finds the
# translated header next to the translated source.  A translation re-runs when its source
# changes.  Outputs of .cu files get the source property LANGUAGE HIP (or CXX, for building
# with hipcc as the C++ compiler); like every source property it is visible to targets of the
# same directory, so call the function where the target is defined.
#
# HIPPORT_PYTHON selects the interpreter (default: the Python3 interpreter CMake finds).  The
# hipport package that shipped this file is put first on PYTHONPATH, so the translator always
# matches this module.
include_guard(GLOBAL)

set(HIPPORT_PYTHON "" CACHE FILEPATH "Python interpreter used to run hipport")
get_filename_component(_HIPPORT_PACKAGE_ROOT "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

function(hipport_translate_sources out_var)
  cmake_parse_arguments(PARSE_ARGV 1 _hp "" "LANGUAGE;BASE_DIR;OUTPUT_DIR" "SOURCES;OPTIONS")
  if(_hp_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "hipport_translate_sources: unexpected arguments: ${_hp_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT _hp_SOURCES)
    message(FATAL_ERROR "hipport_translate_sources: no SOURCES given")
  endif()
  if(NOT _hp_LANGUAGE)
    set(_hp_LANGUAGE HIP)
  endif()
  if(NOT _hp_LANGUAGE MATCHES "^(HIP|CXX)$")
    message(FATAL_ERROR "hipport_translate_sources: LANGUAGE must be HIP or CXX, not '${_hp_LANGUAGE}'")
  endif()
  if(NOT _hp_BASE_DIR)
    set(_hp_BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  get_filename_component(_hp_BASE_DIR "${_hp_BASE_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT _hp_OUTPUT_DIR)
    set(_hp_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/hipport")
  endif()
  set(_python "${HIPPORT_PYTHON}")
  if(NOT _python)
    find_package(Python3 COMPONENTS Interpreter REQUIRED)
    set(_python "${Python3_EXECUTABLE}")
  endif()

  set(_outputs "")
  foreach(_src IN LISTS _hp_SOURCES)
    get_filename_component(_abs "${_src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    file(RELATIVE_PATH _rel "${_hp_BASE_DIR}" "${_abs}")
    if(_rel MATCHES "^\\.\\./" OR IS_ABSOLUTE "${_rel}")
      message(FATAL_ERROR "hipport_translate_sources: ${_src} is outside BASE_DIR ${_hp_BASE_DIR}")
    endif()
    set(_out "${_hp_OUTPUT_DIR}/${_rel}")
    get_filename_component(_out_dir "${_out}" DIRECTORY)
    add_custom_command(
      OUTPUT "${_out}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${_out_dir}"
      COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${_HIPPORT_PACKAGE_ROOT}"
              "${_python}" -m hipport translate "${_abs}" -o "${_out}" ${_hp_OPTIONS}
      DEPENDS "${_abs}"
      COMMENT "hipport: translating ${_rel}"
      VERBATIM)
    if(_abs MATCHES "\\.cu$")
      set_source_files_properties("${_out}" PROPERTIES LANGUAGE ${_hp_LANGUAGE} GENERATED TRUE)
    else()
      set_source_files_properties("${_out}" PROPERTIES GENERATED TRUE)
    endif()
    list(APPEND _outputs "${_out}")
  endforeach()
  set(${out_var} "${_outputs}" PARENT_SCOPE)
endfunction()
