# Version check for find_package(hipportRuntime X.Y).  The version is read from
# <hipport/version.h> so there is one place to change it.  Semantic versioning: the same major
# version is compatible when at least as new; while the major version is 0 the minor must match.

get_filename_component(_hipport_version_header "${CMAKE_CURRENT_LIST_DIR}/../include/hipport/version.h" ABSOLUTE)
file(STRINGS "${_hipport_version_header}" _hipport_version_lines
     REGEX "^#define HIPPORT_RUNTIME_VERSION_(MAJOR|MINOR|PATCH) +[0-9]+")
foreach(_part MAJOR MINOR PATCH)
  set(_hipport_${_part} 0)
  foreach(_line IN LISTS _hipport_version_lines)
    if(_line MATCHES "^#define HIPPORT_RUNTIME_VERSION_${_part} +([0-9]+)")
      set(_hipport_${_part} "${CMAKE_MATCH_1}")
    endif()
  endforeach()
endforeach()
set(PACKAGE_VERSION "${_hipport_MAJOR}.${_hipport_MINOR}.${_hipport_PATCH}")

if(PACKAGE_FIND_VERSION_RANGE)
  # A range such as 0.1...<0.3: accept what lies inside it.
  if((PACKAGE_FIND_VERSION_RANGE_MIN STREQUAL "INCLUDE" AND PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION_MIN)
     OR (PACKAGE_FIND_VERSION_RANGE_MAX STREQUAL "INCLUDE" AND PACKAGE_VERSION VERSION_GREATER PACKAGE_FIND_VERSION_MAX)
     OR (PACKAGE_FIND_VERSION_RANGE_MAX STREQUAL "EXCLUDE" AND PACKAGE_VERSION VERSION_GREATER_EQUAL PACKAGE_FIND_VERSION_MAX))
    set(PACKAGE_VERSION_COMPATIBLE FALSE)
  else()
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  endif()
elseif(NOT PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
elseif(PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif(NOT PACKAGE_FIND_VERSION_MAJOR STREQUAL _hipport_MAJOR)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif(_hipport_MAJOR STREQUAL "0" AND NOT PACKAGE_FIND_VERSION_MINOR STREQUAL _hipport_MINOR)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
endif()

if(PACKAGE_VERSION_COMPATIBLE AND PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
  set(PACKAGE_VERSION_EXACT TRUE)
endif()

unset(_hipport_version_header)
unset(_hipport_version_lines)
unset(_hipport_MAJOR)
unset(_hipport_MINOR)
unset(_hipport_PATCH)
